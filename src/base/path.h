/*
 * path.h - validator for normalized relative paths.
 *
 * Accepted: UTF-8 segments separated by single '/', no leading '/', no
 * empty, '.' or '..' segment, no trailing '/', no backslash, no NUL or
 * control character (C0, DEL, C1), at most PRC_PATH_MAX bytes and
 * PRC_PATH_DEPTH_MAX segments.  Every rejection has its own class.  The
 * checks run in this order, so a path with several faults gets the first:
 * empty, too long, absolute, C0/DEL/backslash (by position), invalid UTF-8
 * or C1 (by position), then segment by segment: empty segment, '.', '..',
 * too deep, trailing slash.
 */
#ifndef PRC_PATH_H
#define PRC_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

enum {
        PRC_PATH_MAX = 4096,            /* Linux PATH_MAX: no real file has a longer name */
        PRC_PATH_DEPTH_MAX = 256,       /* deeper trees are an attack, not a project */
};

/* Validate p[0..n).  Errors: the path-* classes, with err->off at the cause. */
bool prc_path_check(const char *p, size_t n, prc_err *err) PRC_MUST_CHECK;
/* NUL-terminated convenience form. */
bool prc_path_check_str(const char *p, prc_err *err) PRC_MUST_CHECK;

#endif
