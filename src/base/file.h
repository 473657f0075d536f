/*
 * file.h - read a whole file under a byte cap, and write all of a buffer.
 * Trust: paths are the caller's; contents and sizes are treated as hostile.
 */
#ifndef PRC_FILE_H
#define PRC_FILE_H

#include <stdbool.h>

#include "base/buf.h"

enum {
        PRC_FILE_NOFOLLOW = 1u << 0,    /* refuse a symlink at the last component */
};

/*
 * Read path (a regular file) and append it to out, refusing more than max
 * bytes.  On failure out is as it was.  Errors: io-error (errno in
 * err->sys; also a path that is not a regular file, or a symlink with
 * PRC_FILE_NOFOLLOW), input-too-large, buffer-limit (out's own ceiling is
 * lower than the file), out-of-memory.  err->file is set to path.
 */
bool prc_file_read(const char *path, size_t max, unsigned flags, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/*
 * prc_file_read, but the message names the file by its role ("the Gitleaks
 * ruleset"), never by its path: messages about operator inputs can reach a
 * run result, which holds no host path (issue 16).  The class, errno and
 * err->file (the path, for the terminal only) are prc_file_read's.
 */
bool prc_file_read_as(const char *path, const char *role, size_t max, unsigned flags, prc_buf *out,
                      prc_err *err) PRC_MUST_CHECK;
/* Same, from an open descriptor (not closed): append at most max bytes read from fd. */
bool prc_fd_read_all(int fd, size_t max, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Write all n bytes, looping on short writes and EINTR.  Errors: io-error. */
bool prc_fd_write_all(int fd, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;
/*
 * Write p[0..n) to dirfd/tmp (created exclusively, 0600; with exact_0600 the
 * umask cannot narrow it), fsync it, rename it over dirfd/name, fsync the
 * directory.  On failure tmp is removed.  Errors: io-error.
 */
bool prc_fd_replace_at(int dirfd, const char *tmp, const char *name, const void *p, size_t n, bool exact_0600,
                       prc_err *err) PRC_MUST_CHECK;
/*
 * The same in steps, for a file written in pieces: begin creates dirfd/tmp
 * (exclusively, 0600) and returns its fd (-1 with err set); commit fsyncs,
 * closes and renames it over name and fsyncs the directory (on failure tmp
 * is removed); abort closes and removes it.
 */
int prc_fd_replace_begin(int dirfd, const char *tmp, prc_err *err);
bool prc_fd_replace_commit(int dirfd, int fd, const char *tmp, const char *name, bool exact_0600,
                           prc_err *err) PRC_MUST_CHECK;
void prc_fd_replace_abort(int dirfd, int fd, const char *tmp);

#endif
