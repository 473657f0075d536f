/*
 * bench_time.h - what the in-process bench drivers (extract_arena.c,
 * extract_worker.c, parsers_worker.c, parsers_text.c) time with: a
 * monotonic clock in seconds and the order of two samples for qsort.
 * Header-only: each driver is one file compiled by its script.
 */
#ifndef PRC_BENCH_TIME_H
#define PRC_BENCH_TIME_H

#include <time.h>

static inline double bench_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort's order of two double samples, ascending. */
static inline int bench_cmp_d(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return x < y ? -1 : x > y;
}

#endif
