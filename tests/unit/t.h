/*
 * t.h - prc's unit test harness.
 *
 * Each test file holds static test functions and ends with a table and
 * PRC_SUITE(name, table).  Suites register themselves from a constructor, so
 * no central list needs editing.  Every test runs in a forked child with a
 * deadline: a crash or hang is a failure of that test, not of the run.
 * PRC_SUITE_NOSAN registers only in builds without AddressSanitizer (the
 * sandbox floor's seccomp and RLIMIT_AS are incompatible with ASan/LSan);
 * those suites run in the build/test variant (prc-tests -N runs only them).
 */
#ifndef PRC_T_H
#define PRC_T_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/compiler.h"
#include "base/err.h"

typedef struct prc_test {
        const char *name;
        void      (*fn)(void);
} prc_test;

typedef struct prc_suite {
        const char       *name;
        const prc_test   *tests;
        size_t            n;
        bool              nosan;        /* runs only in the non-sanitized build (-N) */
        struct prc_suite *next;
} prc_suite;

void prc_suite_register(prc_suite *s);
PRC_NORETURN void t_fail(const char *file, int line, const char *fmt, ...) PRC_PRINTF(3, 4);

/* Repository root (tests run from it; PRC_ROOT overrides). */
const char *t_root(void);
/* Path of ../shared/corpora, or NULL when absent (tests that need it fail in CI). */
const char *t_corpora(void);
/* A fresh private temporary directory for this test (removed by the runner). */
const char *t_tmpdir(void);
/* Write a file under dir; returns the full path (static storage per call slot). */
const char *t_write(const char *dir, const char *name, const void *data, size_t n);
/* Read a whole file; caller frees.  Fails the test if it cannot. */
char *t_read(const char *path, size_t *out_len);

#define T(fn) { #fn, fn }

#define PRC_SUITE_REG(sname, arr, ns)                                                 \
        static prc_suite prc_suite_##sname = { #sname, arr, PRC_ARRAY_LEN(arr), ns, NULL }; \
        __attribute__((constructor)) static void prc_suite_reg_##sname(void)          \
        {                                                                             \
                prc_suite_register(&prc_suite_##sname);                               \
        }

#define PRC_SUITE(sname, arr) PRC_SUITE_REG(sname, arr, false)

#if defined(__SANITIZE_ADDRESS__)
#define PRC_SUITE_NOSAN(sname, arr) \
        static const void *prc_suite_unused_##sname __attribute__((unused)) = arr;
#else
#define PRC_SUITE_NOSAN(sname, arr) PRC_SUITE_REG(sname, arr, true)
#endif

#define T_ASSERT(c)                                                             \
        do {                                                                    \
                if (!(c))                                                       \
                        t_fail(__FILE__, __LINE__, "assertion failed: %s", #c); \
        } while (0)

#define T_EQ_INT(a, b)                                                                  \
        do {                                                                            \
                long long t_a_ = (long long)(a), t_b_ = (long long)(b);                 \
                if (t_a_ != t_b_)                                                       \
                        t_fail(__FILE__, __LINE__, "%s == %lld, want %s == %lld", #a,   \
                               t_a_, #b, t_b_);                                         \
        } while (0)

#define T_EQ_STR(a, b)                                                                  \
        do {                                                                            \
                const char *t_a_ = (a), *t_b_ = (b);                                    \
                if (t_a_ == NULL || t_b_ == NULL || strcmp(t_a_, t_b_) != 0)            \
                        t_fail(__FILE__, __LINE__, "%s is \"%s\", want \"%s\"", #a,     \
                               t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)");         \
        } while (0)

#define T_EQ_MEM(a, alen, b, blen)                                                      \
        do {                                                                            \
                size_t t_al_ = (alen), t_bl_ = (blen);                                  \
                if (t_al_ != t_bl_ || memcmp((a), (b), t_al_) != 0)                     \
                        t_fail(__FILE__, __LINE__, "%s (%zu bytes) differs from %s (%zu bytes): "   \
                               "'%.*s' vs '%.*s'", #a, t_al_, #b, t_bl_, (int)(t_al_ > 200 ? 200 : t_al_), \
                               (const char *)(a), (int)(t_bl_ > 200 ? 200 : t_bl_), (const char *)(b)); \
        } while (0)

/* The error record holds exactly this class. */
#define T_ERR(e, c)                                                                     \
        do {                                                                            \
                if ((e).cls != (c))                                                     \
                        t_fail(__FILE__, __LINE__, "error class %s (%s), want %s",      \
                               prc_err_name((e).cls), (e).msg, prc_err_name(c));        \
        } while (0)

/* No error recorded. */
#define T_NOERR(e)                                                                      \
        do {                                                                            \
                if ((e).cls != PRC_E_OK)                                                \
                        t_fail(__FILE__, __LINE__, "unexpected error %s: %s",           \
                               prc_err_name((e).cls), (e).msg);                         \
        } while (0)

#endif
