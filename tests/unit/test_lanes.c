/*
 * test_lanes.c - jobs in lanes, results taken in order: every job runs
 * once, done sees them in job order whatever lane finished first, no lane
 * runs more than the window ahead nor past the budget of cost, and a
 * failing done stops the run with every finished slot it never took
 * dropped.
 */
#include "t.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "engine/lanes.h"

enum { JOBS = 200 };

struct lctx {
        atomic_int   ran[JOBS];         /* work calls per job */
        atomic_int   lane_used[PRC_LANES_MAX];
        atomic_size_t taken;            /* jobs done has taken (the caller writes, lanes read) */
        atomic_bool  too_far;           /* a lane started a job more than window past taken */
        atomic_bool  over_budget;       /* a lane started a job past the budget, and not the one done waits for */
        size_t       window;
        size_t       near, budget;      /* with job_cost: the run's near jobs and budget */
        size_t       next_expected;     /* done's view: the job it must see next */
        bool         out_of_order;
        size_t       fail_at;           /* done fails on this job (JOBS: never) */
        int          dropped[JOBS];
        int          leaked;            /* slots holding a payload at the end */
};

struct slot {
        size_t job;
        int   *payload;                 /* owned: what done or drop must release */
};

static void nap(size_t job)
{
        /* Uneven job times, so the lanes finish out of order. */
        struct timespec ts = { 0, (long)(job % 7) * 20000 };
        nanosleep(&ts, NULL);
}

/* Every tenth job is above any budget the tests give; the others are small. */
static size_t job_cost(void *ctx, size_t job)
{
        (void)ctx;
        return job % 10 == 3 ? 1000 : 10 + job % 5;
}

static void work(void *ctx, unsigned lane, size_t job, void *slot)
{
        struct lctx *c = ctx;
        struct slot *s = slot;
        size_t taken = atomic_load(&c->taken), far = 0;

        if (job >= taken + c->window)
                atomic_store(&c->too_far, true);
        /*
         * The jobs past the near ones after taken, up to this one, were claimed and not taken when this one
         * was (claims go in order; taken only grows, so the sum then was at least this one).
         */
        for (size_t j = taken + c->near + 1; c->budget > 0 && j <= job; j++)
                far += job_cost(c, j);
        if (c->budget > 0 && far > c->budget)
                atomic_store(&c->over_budget, true);
        atomic_fetch_add(&c->ran[job], 1);
        atomic_fetch_add(&c->lane_used[lane], 1);
        nap(job);
        s->job = job;
        s->payload = malloc(sizeof(int));
}

static bool done(void *ctx, size_t job, void *slot, prc_err *err)
{
        struct lctx *c = ctx;
        struct slot *s = slot;

        if (job != c->next_expected || s->job != job)
                c->out_of_order = true;
        c->next_expected++;
        free(s->payload);
        s->payload = NULL;
        atomic_store(&c->taken, job + 1);
        if (job == c->fail_at)
                return prc_err_set(err, PRC_E_INTERNAL, "stop at %zu", job);
        return true;
}

static void drop(void *ctx, size_t job, void *slot)
{
        struct lctx *c = ctx;
        struct slot *s = slot;

        if (s->job != job || s->payload == NULL)
                c->leaked++;
        c->dropped[job]++;
        free(s->payload);
        s->payload = NULL;
}

static void run(struct lctx *c, unsigned nlanes, size_t window, size_t fail_at, bool *ok, prc_err *e)
{
        prc_lanes_spec sp = { .nlanes = nlanes, .window = window, .slot_size = sizeof(struct slot),
                              .work = work, .done = done, .drop = drop, .ctx = c };

        c->window = window;
        c->fail_at = fail_at;
        prc_err_init(e);
        *ok = prc_lanes_run(&sp, JOBS, e);
}

static void test_lanes__every_job_once_in_order(void)
{
        for (unsigned nl = 1; nl <= 3; nl++) {
                struct lctx *c = calloc(1, sizeof(*c));
                prc_err e;
                bool ok;

                T_ASSERT(c != NULL);
                run(c, nl, 2 * nl, JOBS, &ok, &e);
                T_ASSERT(ok);
                T_NOERR(e);
                T_ASSERT(!c->out_of_order);
                T_EQ_INT(c->next_expected, JOBS);
                T_ASSERT(!atomic_load(&c->too_far));
                for (size_t j = 0; j < JOBS; j++)
                        T_EQ_INT(atomic_load(&c->ran[j]), 1);
                /* With more than one lane, every lane took jobs (each job naps, so none can take them all). */
                for (unsigned l = 0; nl > 1 && l < nl; l++)
                        T_ASSERT(atomic_load(&c->lane_used[l]) > 0);
                free(c);
        }
}

static void test_lanes__failing_done_stops_and_drops_the_rest(void)
{
        struct lctx *c = calloc(1, sizeof(*c));
        size_t ran = 0, dropped = 0;
        prc_err e;
        bool ok;

        T_ASSERT(c != NULL);
        run(c, 2, 4, 50, &ok, &e);
        T_ASSERT(!ok);
        T_ERR(e, PRC_E_INTERNAL);
        T_EQ_INT(c->next_expected, 51);         /* done saw 0..50, nothing after the failure */
        T_EQ_INT(c->leaked, 0);
        for (size_t j = 0; j < JOBS; j++) {
                ran += (size_t)atomic_load(&c->ran[j]);
                dropped += (size_t)c->dropped[j];
                T_ASSERT(c->dropped[j] == 0 || j > 50);
        }
        /* Every job that ran was taken or dropped, once; the lanes ran at most the window past the failure. */
        T_EQ_INT(ran, 51 + dropped);
        T_ASSERT(dropped <= 4);
        free(c);
}

static void test_lanes__budget_bounds_what_is_held(void)
{
        for (unsigned nl = 2; nl <= 3; nl++) {
                struct lctx *c = calloc(1, sizeof(*c));
                prc_lanes_spec sp = { .nlanes = nl, .window = 32, .slot_size = sizeof(struct slot), .work = work,
                                      .done = done, .drop = drop, .cost = job_cost, .near = 2, .budget = 60,
                                      .ctx = c };
                prc_err e;

                T_ASSERT(c != NULL);
                c->window = sp.window;
                c->near = sp.near;
                c->budget = sp.budget;
                c->fail_at = JOBS;
                prc_err_init(&e);
                T_ASSERT(prc_lanes_run(&sp, JOBS, &e));
                T_NOERR(e);
                T_ASSERT(!c->out_of_order);
                T_ASSERT(!atomic_load(&c->too_far));
                T_ASSERT(!atomic_load(&c->over_budget));
                /* A job above the whole budget still runs, once (claimed once it is among the near ones). */
                for (size_t j = 0; j < JOBS; j++)
                        T_EQ_INT(atomic_load(&c->ran[j]), 1);
                free(c);
        }
}

static void test_lanes__bad_spec_is_internal(void)
{
        struct lctx c0;
        prc_lanes_spec sp = { .nlanes = 2, .window = 1, .slot_size = sizeof(struct slot), .work = work,
                              .done = done, .drop = drop, .ctx = &c0 };
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_lanes_run(&sp, 3, &e));
        T_ERR(e, PRC_E_INTERNAL);
}

static const prc_test tests[] = {
        T(test_lanes__every_job_once_in_order),
        T(test_lanes__failing_done_stops_and_drops_the_rest),
        T(test_lanes__budget_bounds_what_is_held),
        T(test_lanes__bad_spec_is_internal),
};
PRC_SUITE(lanes, tests)
