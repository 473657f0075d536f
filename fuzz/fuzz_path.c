/*
 * fuzz_path.c - libFuzzer harness for the relative path validator.
 * Invariants: exactly one outcome, a path-* class on refusal, and every
 * accepted path re-checked here by an independent, deliberately simple
 * reading of the rules (a differential check).  Seeds: fuzz/corpus/path/.
 */
#include <string.h>

#include "base/path.h"
#include "base/utf8.h"
#include "fuzz.h"

static bool is_path_class(prc_errclass c)
{
        return c == PRC_E_PATH_EMPTY || c == PRC_E_PATH_ABSOLUTE || c == PRC_E_PATH_EMPTY_SEGMENT ||
               c == PRC_E_PATH_DOT_SEGMENT || c == PRC_E_PATH_DOTDOT || c == PRC_E_PATH_TRAILING_SLASH ||
               c == PRC_E_PATH_BACKSLASH || c == PRC_E_PATH_CONTROL_CHAR || c == PRC_E_PATH_INVALID_UTF8 ||
               c == PRC_E_PATH_TOO_LONG || c == PRC_E_PATH_TOO_DEEP;
}

/* The rules, restated segment by segment. */
static bool simple_ok(const uint8_t *p, size_t n)
{
        size_t start = 0, segs = 0;

        if (n == 0 || n > PRC_PATH_MAX || !prc_utf8_valid(p, n, NULL))
                return false;
        for (size_t i = 0; i < n; i++) {
                if (p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
                        return false;
                if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
                        return false;   /* U+0080..U+009F */
        }
        for (size_t i = 0; i <= n; i++) {
                if (i < n && p[i] != '/')
                        continue;
                if (i == start || (i - start == 1 && p[start] == '.') ||
                    (i - start == 2 && p[start] == '.' && p[start + 1] == '.'))
                        return false;
                segs++;
                start = i + 1;
        }
        return segs <= PRC_PATH_DEPTH_MAX;
}

PRC_FUZZ_TARGET(path)
{
        prc_err err;
        bool ok;

        prc_err_init(&err);
        ok = prc_path_check((const char *)p, n, &err);
        if (ok != (err.cls == PRC_E_OK))
                __builtin_trap();
        if (!ok && !is_path_class(err.cls))
                __builtin_trap();
        if (ok != simple_ok(p, n))
                __builtin_trap();
        return 0;
}
