/*
 * datadir.h - prc's per-user data directory (issue 17): where `prc setup
 * native` stores what the bundled native adapters need (the pinned Gitleaks
 * ruleset) and where `prc verify` and `prc scan` look for it.
 *
 * The directory is $XDG_DATA_HOME/prc when XDG_DATA_HOME is set to an
 * absolute path (the XDG Base Directory rule: a relative value is ignored),
 * else $HOME/.local/share/prc.  prc creates missing directories 0700, keeps
 * its own directory 0700 and owned by the user, and writes files 0600,
 * atomically (temporary file, fsync, rename, fsync of the directory).
 *
 * Trust: the directory is the operator's; what is read back from it is
 * still checked by its pinned digest before use.
 */
#ifndef PRC_DATADIR_H
#define PRC_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/* The directory's path into out (cap bytes).  Errors: datadir-unavailable, path-too-long. */
bool prc_datadir_path(char *out, size_t cap, prc_err *err) PRC_MUST_CHECK;

/* The path of file name in it.  Errors: as prc_datadir_path. */
bool prc_datadir_file(const char *name, char *out, size_t cap, prc_err *err) PRC_MUST_CHECK;

/*
 * Open the directory (O_DIRECTORY, no symlink at any component prc creates
 * or at the last one), creating it and missing parents 0700 first when
 * create is set.  It must be a directory owned by the effective user; its
 * mode is set to 0700.  Returns the descriptor, or -1 with err set.
 * Errors: datadir-unavailable, datadir-unsafe, io-error, path-too-long.
 */
int prc_datadir_open(bool create, prc_err *err);

/*
 * Store p[0..n) as dirfd/name, mode 0600, atomically: readers see the old
 * file or the new one, never a part.  Errors: io-error.
 */
bool prc_datadir_store(int dirfd, const char *name, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;

#endif
