/*
 * safeopen.h - open a path beneath a directory descriptor without following
 * any symlink and without leaving that directory.
 *
 * Trust: the path names a file of a hostile tree that may change while we
 * look at it.  Every component is resolved with no symlink, no "..", no
 * magic link (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS); kernels or sandboxes without openat2 get an
 * equivalent walk that opens each directory with O_NOFOLLOW | O_DIRECTORY.
 */
#ifndef PRC_INVENTORY_SAFEOPEN_H
#define PRC_INVENTORY_SAFEOPEN_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Open rel (a normalized relative path, already validated) beneath dirfd
 * with open(2) flags (O_NOFOLLOW and O_CLOEXEC are always added) and mode
 * for O_CREAT.  Returns the new descriptor (caller closes), or -1 with
 * errno set: ELOOP or ENOTDIR when a component is a symlink or not a
 * directory, EXDEV/ELOOP when resolution would escape, else open's errno.
 */
int prc_safe_openat(int dirfd, const char *rel, int flags, mode_t mode);

/*
 * Create every missing directory of rel's parent chain beneath dirfd with
 * mode (0700 for snapshots), tolerating directories that already exist
 * (another thread may create them first).  A component that exists but is
 * not a directory fails with ENOTDIR.  Returns 0, or -1 with errno.
 */
int prc_safe_mkdir_parents(int dirfd, const char *rel, mode_t mode);

#if defined(PRC_TESTING) && PRC_TESTING
/* Use the component walk even where openat2 exists (tests of the fallback). */
void prc_safe_test_force_walk(bool on);
#endif

#endif
