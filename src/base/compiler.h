/*
 * compiler.h - attributes and small macros shared by every module.
 */
#ifndef PRC_COMPILER_H
#define PRC_COMPILER_H

#define PRC_PRINTF(f, a)  __attribute__((format(printf, f, a)))
#define PRC_MUST_CHECK    __attribute__((warn_unused_result))
#define PRC_NORETURN      __attribute__((noreturn))
#define PRC_NOINLINE      __attribute__((noinline))
#define PRC_ARRAY_LEN(a)  (sizeof(a) / sizeof((a)[0]))

/* Statics that unit tests reach: static outside test builds (curl's UNITTEST). */
#if defined(PRC_TESTING) && PRC_TESTING
#define PRC_TESTABLE
#else
#define PRC_TESTABLE static
#endif

/* Abort on a broken invariant of prc's own code; never for bad input. */
PRC_NORETURN void prc_bug_at(const char *file, int line, const char *what);
#define prc_bug(what) prc_bug_at(__FILE__, __LINE__, (what))

#endif
