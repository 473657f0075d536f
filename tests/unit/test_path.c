/*
 * test_path.c - the normalized relative path validator: every named
 * rejection, the length and depth bounds at the limit and one past, UTF-8.
 */
#include "t.h"

#include <stdlib.h>

#include "base/path.h"

struct pcase {
        const char  *path;
        size_t       len;       /* 0: strlen */
        prc_errclass cls;       /* PRC_E_OK: accepted */
        uint64_t     off;
};

static void test_path__accepts_normalized_relative_paths(void)
{
        static const char *const ok[] = {
                "a", "a/b", "src/main.c", ".github/workflows/ci.yml", "...", "a/.../b", ".a", "a..",
                "a/..b", "..a/b", "dir.d/x", "caf\xc3\xa9/\xe2\x82\xac.txt", "\xf0\x9f\x98\x80",
                "sp ace/tab-less", "~user", "a:b", "COM1", "-rf",
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(ok); i++) {
                prc_err e;
                prc_err_init(&e);
                if (!prc_path_check_str(ok[i], &e))
                        t_fail(__FILE__, __LINE__, "refused '%s': %s %s", ok[i], prc_err_name(e.cls), e.msg);
        }
}

static void test_path__each_rejection_has_its_class(void)
{
        static const struct pcase bad[] = {
                { "", 0, PRC_E_PATH_EMPTY, PRC_NO_OFF },
                { "/etc/passwd", 0, PRC_E_PATH_ABSOLUTE, 0 },
                { "/", 0, PRC_E_PATH_ABSOLUTE, 0 },
                { "a//b", 0, PRC_E_PATH_EMPTY_SEGMENT, 2 },
                { ".", 0, PRC_E_PATH_DOT_SEGMENT, 0 },
                { "a/./b", 0, PRC_E_PATH_DOT_SEGMENT, 2 },
                { "a/.", 0, PRC_E_PATH_DOT_SEGMENT, 2 },
                { "..", 0, PRC_E_PATH_DOTDOT, 0 },
                { "../x", 0, PRC_E_PATH_DOTDOT, 0 },
                { "a/../../etc", 0, PRC_E_PATH_DOTDOT, 2 },
                { "a/..", 0, PRC_E_PATH_DOTDOT, 2 },
                { "a/", 0, PRC_E_PATH_TRAILING_SLASH, 1 },
                { "a/b/", 0, PRC_E_PATH_TRAILING_SLASH, 3 },
                { "a\\b", 0, PRC_E_PATH_BACKSLASH, 1 },
                { "..\\x", 0, PRC_E_PATH_BACKSLASH, 2 },
                { "a\nb", 0, PRC_E_PATH_CONTROL_CHAR, 1 },
                { "a\tb", 0, PRC_E_PATH_CONTROL_CHAR, 1 },
                { "\x1b[31m", 0, PRC_E_PATH_CONTROL_CHAR, 0 },
                { "a\x7f", 0, PRC_E_PATH_CONTROL_CHAR, 1 },
                { "a\xc2\x9b" "b", 0, PRC_E_PATH_CONTROL_CHAR, 1 },    /* C1 CSI */
                { "\xc2\x80", 0, PRC_E_PATH_CONTROL_CHAR, 0 },
                { "a\0b", 3, PRC_E_PATH_CONTROL_CHAR, 1 },              /* NUL inside the length */
                { "a\xffz", 0, PRC_E_PATH_INVALID_UTF8, 1 },
                { "a/\xc0\xaf", 0, PRC_E_PATH_INVALID_UTF8, 2 },        /* overlong '/' */
                { "\xed\xa0\x80", 0, PRC_E_PATH_INVALID_UTF8, 0 },      /* surrogate */
                { "x\xe2\x82", 0, PRC_E_PATH_INVALID_UTF8, 1 },         /* truncated */
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                size_t n = bad[i].len ? bad[i].len : strlen(bad[i].path);
                prc_err e;
                prc_err_init(&e);
                if (prc_path_check(bad[i].path, n, &e))
                        t_fail(__FILE__, __LINE__, "case %zu accepted", i);
                if (e.cls != bad[i].cls)
                        t_fail(__FILE__, __LINE__, "case %zu: %s, want %s", i, prc_err_name(e.cls),
                               prc_err_name(bad[i].cls));
                if (e.off != bad[i].off)
                        t_fail(__FILE__, __LINE__, "case %zu: offset %llu, want %llu", i,
                               (unsigned long long)e.off, (unsigned long long)bad[i].off);
        }
}

static void test_path__length_at_limit_and_one_past(void)
{
        char *p = malloc(PRC_PATH_MAX + 2);
        prc_err e;

        T_ASSERT(p != NULL);
        memset(p, 'a', PRC_PATH_MAX + 1);
        for (size_t i = 100; i < PRC_PATH_MAX; i += 101)
                p[i] = '/';             /* 4096 bytes, well under the depth bound */
        prc_err_init(&e);
        T_ASSERT(prc_path_check(p, PRC_PATH_MAX, &e));
        T_NOERR(e);
        T_ASSERT(!prc_path_check(p, PRC_PATH_MAX + 1, &e));
        T_ERR(e, PRC_E_PATH_TOO_LONG);
        /* length is counted in bytes: multibyte characters reach it sooner */
        for (size_t i = 0; i + 2 <= PRC_PATH_MAX; i += 2)
                memcpy(p + i, "\xc3\xa9", 2);
        prc_err_init(&e);
        T_ASSERT(prc_path_check(p, PRC_PATH_MAX, &e));
        free(p);
}

static void test_path__depth_at_limit_and_one_past(void)
{
        char p[2 * PRC_PATH_DEPTH_MAX + 4];
        size_t n = 0;
        prc_err e;

        for (int i = 0; i < PRC_PATH_DEPTH_MAX; i++) {
                if (i > 0)
                        p[n++] = '/';
                p[n++] = 'd';
        }
        prc_err_init(&e);
        T_ASSERT(prc_path_check(p, n, &e));             /* exactly 256 segments */
        T_NOERR(e);
        p[n++] = '/';
        p[n++] = 'd';
        T_ASSERT(!prc_path_check(p, n, &e));            /* 257 */
        T_ERR(e, PRC_E_PATH_TOO_DEEP);
        T_EQ_INT(e.off, n - 2);
}

static void test_path__first_fault_wins_in_documented_order(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_path_check_str("/a/../b\\c", &e));
        T_ERR(e, PRC_E_PATH_ABSOLUTE);
        prc_err_init(&e);
        T_ASSERT(!prc_path_check_str("a/../b\\c", &e));
        T_ERR(e, PRC_E_PATH_BACKSLASH);         /* character checks come before segments */
        prc_err_init(&e);
        T_ASSERT(!prc_path_check_str("a//../", &e));
        T_ERR(e, PRC_E_PATH_EMPTY_SEGMENT);
}

static const prc_test tests[] = {
        T(test_path__accepts_normalized_relative_paths),
        T(test_path__each_rejection_has_its_class),
        T(test_path__length_at_limit_and_one_past),
        T(test_path__depth_at_limit_and_one_past),
        T(test_path__first_fault_wins_in_documented_order),
};
PRC_SUITE(path, tests)
