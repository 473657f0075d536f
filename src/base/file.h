/*
 * file.h - read a whole file under a byte cap.
 */
#ifndef PRC_FILE_H
#define PRC_FILE_H

#include <stdbool.h>

#include "base/buf.h"

enum {
        PRC_FILE_NOFOLLOW = 1u << 0,    /* refuse a symlink at the last component */
};

/*
 * Read path (a regular file) into out, refusing more than max bytes.
 * Errors: io-error (errno in err->sys), input-too-large, out-of-memory.
 * err->file is set to path.
 */
bool prc_file_read(const char *path, size_t max, unsigned flags, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Same, from an open descriptor (not closed). */
bool prc_fd_read_all(int fd, size_t max, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Write all n bytes, looping on short writes and EINTR.  Errors: io-error. */
bool prc_fd_write_all(int fd, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;

#endif
