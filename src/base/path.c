/*
 * path.c - normalized relative path validator (see path.h).
 * Trust: paths come from hostile archives, adapter output and documents;
 * nothing is normalized here, a path is accepted as is or refused.
 */
#include "base/path.h"

#include <string.h>

#include "base/utf8.h"

bool prc_path_check(const char *p, size_t n, prc_err *err)
{
        size_t seg = 0, segs = 1;

        if (n == 0)
                return prc_err_set(err, PRC_E_PATH_EMPTY, "path is empty");
        if (n > PRC_PATH_MAX)
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "path of %zu bytes exceeds %d", n, PRC_PATH_MAX);
        if (p[0] == '/')
                return prc_err_at(err, PRC_E_PATH_ABSOLUTE, 0, "path is absolute");
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)p[i];
                if (c < 0x20 || c == 0x7f)
                        return prc_err_at(err, PRC_E_PATH_CONTROL_CHAR, i, "control character 0x%02x in path", c);
                if (c == '\\')
                        return prc_err_at(err, PRC_E_PATH_BACKSLASH, i, "backslash in path");
        }
        for (size_t i = 0; i < n;) {
                uint32_t cp;
                size_t k;

                if ((unsigned char)p[i] < 0x80) {
                        i++;
                        continue;
                }
                k = prc_utf8_decode((const uint8_t *)p + i, n - i, &cp);
                if (k == 0)
                        return prc_err_at(err, PRC_E_PATH_INVALID_UTF8, i, "path is not valid UTF-8");
                /* C1 controls: U+009B is a CSI that some terminals obey. */
                if (cp <= 0x9f)
                        return prc_err_at(err, PRC_E_PATH_CONTROL_CHAR, i, "control character U+%04X in path",
                                          (unsigned)cp);
                i += k;
        }
        for (size_t i = 0; i <= n; i++) {
                if (i < n && p[i] != '/')
                        continue;
                /* segment is p[seg..i) */
                if (i == seg) {
                        if (i == n)
                                return prc_err_at(err, PRC_E_PATH_TRAILING_SLASH, i - 1, "path ends with '/'");
                        return prc_err_at(err, PRC_E_PATH_EMPTY_SEGMENT, i, "empty segment in path");
                }
                if (i - seg == 1 && p[seg] == '.')
                        return prc_err_at(err, PRC_E_PATH_DOT_SEGMENT, seg, "'.' segment in path");
                if (i - seg == 2 && p[seg] == '.' && p[seg + 1] == '.')
                        return prc_err_at(err, PRC_E_PATH_DOTDOT, seg, "'..' segment in path");
                if (i < n && ++segs > PRC_PATH_DEPTH_MAX)
                        return prc_err_at(err, PRC_E_PATH_TOO_DEEP, i, "path deeper than %d segments",
                                          PRC_PATH_DEPTH_MAX);
                seg = i + 1;
        }
        return true;
}

bool prc_path_check_str(const char *p, prc_err *err)
{
        return prc_path_check(p, strlen(p), err);
}
