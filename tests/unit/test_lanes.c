/*
 * test_lanes.c - jobs in lanes: every job runs once and is taken once;
 * in job order done sees them in order whatever lane finished first; with
 * any_order done takes each as soon as it is finished (the lanes are made
 * to finish in a chosen order by a gate, not by timing), and what done
 * records is what inline recording gives; no more jobs are held than the
 * window, nor past the budget of cost; a failing done stops the run with
 * every finished slot it never took dropped (the asan build sees a leak).
 */
#include "t.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/lanes.h"

enum { JOBS = 200 };

struct lctx {
        atomic_int   ran[JOBS];         /* work calls per job */
        atomic_int   lane_used[PRC_LANES_MAX];
        size_t       window, near, budget;      /* the run's spec (near and budget with job_cost) */
        bool         any_order;
        size_t       next_expected;     /* in job order: the job done must see next */
        size_t       ntaken;
        size_t       taken_order[JOBS]; /* the jobs in the order done took them */
        int          result[JOBS];      /* what done recorded of each job */
        bool         out_of_order;      /* in job order, done saw another job */
        size_t       fail_at;           /* done fails on the fail_at-th job it takes (JOBS: never) */
        int          dropped[JOBS];
        int          leaked;            /* a slot dropped without its payload, or not its job's */
        /* What is held: jobs whose work started and whose done or drop has not finished. */
        pthread_mutex_t mu;
        bool         held[JOBS];
        bool         over_window, over_budget;
        /* The gate (gated_work): job j finishes once the jobs before it in release[] are taken. */
        const size_t *release;
        size_t       nrelease;
        pthread_cond_t cv;
        bool         gave_up;           /* a gate waited 30 s: the lanes did not run the jobs at once */
};

struct slot {
        size_t job;
        int   *payload;                 /* owned: what done or drop must release */
};

static void ctx_init(struct lctx *c)
{
        memset(c, 0, sizeof(*c));
        pthread_mutex_init(&c->mu, NULL);
        pthread_cond_init(&c->cv, NULL);
        c->fail_at = JOBS;
}

static void ctx_fini(struct lctx *c)
{
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
}

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

static int cost_desc(const void *a, const void *b)
{
        size_t x = *(const size_t *)a, y = *(const size_t *)b;

        return (x < y) - (x > y);
}

/*
 * job starts: what is held (a subset of what the lanes hold) must fit the
 * window, and with a cost, all of it but the near costliest jobs must fit
 * the budget.
 */
static void hold(struct lctx *c, size_t job)
{
        size_t costs[JOBS], n = 0, far = 0;

        pthread_mutex_lock(&c->mu);
        c->held[job] = true;
        for (size_t j = 0; j < JOBS; j++)
                if (c->held[j])
                        costs[n++] = job_cost(c, j);
        if (n > c->window)
                c->over_window = true;
        if (c->budget > 0) {
                qsort(costs, n, sizeof(*costs), cost_desc);
                for (size_t k = c->near; k < n; k++)
                        far += costs[k];
                if (far > c->budget)
                        c->over_budget = true;
        }
        pthread_mutex_unlock(&c->mu);
}

static void unhold(struct lctx *c, size_t job)
{
        pthread_mutex_lock(&c->mu);
        c->held[job] = false;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
}

static void work(void *ctx, unsigned lane, size_t job, void *slot)
{
        struct lctx *c = ctx;
        struct slot *s = slot;

        hold(c, job);
        atomic_fetch_add(&c->ran[job], 1);
        atomic_fetch_add(&c->lane_used[lane], 1);
        nap(job);
        s->job = job;
        s->payload = malloc(sizeof(int));
        if (s->payload != NULL)
                *s->payload = (int)job * 7 + 1;
}

static bool done(void *ctx, size_t job, void *slot, prc_err *err)
{
        struct lctx *c = ctx;
        struct slot *s = slot;
        bool fail;

        if (s->job != job || (!c->any_order && job != c->next_expected))
                c->out_of_order = true;
        c->next_expected++;
        c->result[job] = s->payload != NULL ? *s->payload : -1;
        free(s->payload);
        s->payload = NULL;
        pthread_mutex_lock(&c->mu);
        c->taken_order[c->ntaken] = job;
        fail = c->ntaken++ == c->fail_at;
        pthread_mutex_unlock(&c->mu);
        unhold(c, job);
        if (fail)
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
        unhold(c, job);
}

static bool run(struct lctx *c, unsigned nlanes, bool any_order, size_t window, size_t njobs, prc_err *e)
{
        prc_lanes_spec sp = { .nlanes = nlanes, .any_order = any_order, .window = window,
                              .slot_size = sizeof(struct slot), .work = work, .done = done, .drop = drop, .ctx = c };

        c->window = window;
        c->any_order = any_order;
        prc_err_init(e);
        return prc_lanes_run(&sp, njobs, e);
}

/* Every job ran once, and done took it once and recorded what inline recording gives. */
static void assert_all_taken_as_inline(const struct lctx *c, size_t njobs)
{
        T_EQ_INT(c->ntaken, njobs);
        for (size_t j = 0; j < njobs; j++) {
                T_EQ_INT(atomic_load(&c->ran[j]), 1);
                T_EQ_INT(c->result[j], (int)j * 7 + 1);
                T_EQ_INT(c->dropped[j], 0);
        }
}

/* lane_start's record: which threads it ran in, and each lane's first job's thread. */
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t started[PRC_LANES_MAX + 1];
static size_t nstarted;
static __thread bool started_here;
static atomic_int work_before_start;

static void lane_start(void)
{
        pthread_mutex_lock(&start_mu);
        if (nstarted < PRC_ARRAY_LEN(started))
                started[nstarted] = pthread_self();
        nstarted++;
        pthread_mutex_unlock(&start_mu);
        started_here = true;
}

static void started_work(void *ctx, unsigned lane, size_t job, void *slot)
{
        if (!started_here)
                atomic_fetch_add(&work_before_start, 1);
        work(ctx, lane, job, slot);
}

/*
 * lane_start runs once in each lane thread, before that lane's first job,
 * and never in the caller's thread (nor with one lane, which runs inline
 * there).
 */
static void test_lanes__lane_start_runs_once_in_each_lane_first(void)
{
        for (unsigned nl = 1; nl <= 3; nl++) {
                struct lctx *c = calloc(1, sizeof(*c));
                prc_lanes_spec sp = { .nlanes = nl, .window = 2 * nl, .slot_size = sizeof(struct slot),
                                      .work = started_work, .done = done, .drop = drop, .lane_start = lane_start };
                prc_err e;

                T_ASSERT(c != NULL);
                ctx_init(c);
                sp.ctx = c;
                nstarted = 0;
                atomic_store(&work_before_start, 0);
                prc_err_init(&e);
                T_ASSERT(prc_lanes_run(&sp, JOBS, &e));
                assert_all_taken_as_inline(c, JOBS);
                T_EQ_INT(nstarted, nl > 1 ? nl : 0);
                T_EQ_INT(atomic_load(&work_before_start), nl > 1 ? 0 : JOBS);
                T_ASSERT(!started_here);
                for (size_t i = 0; i < nstarted && i < PRC_ARRAY_LEN(started); i++)
                        for (size_t j = i + 1; j < nstarted && j < PRC_ARRAY_LEN(started); j++)
                                T_ASSERT(!pthread_equal(started[i], started[j]));
                ctx_fini(c);
                free(c);
        }
}

static void test_lanes__every_job_once_in_order(void)
{
        for (unsigned nl = 1; nl <= 3; nl++) {
                struct lctx *c = calloc(1, sizeof(*c));
                prc_err e;

                T_ASSERT(c != NULL);
                ctx_init(c);
                T_ASSERT(run(c, nl, false, 2 * nl, JOBS, &e));
                T_NOERR(e);
                T_ASSERT(!c->out_of_order);
                T_EQ_INT(c->next_expected, JOBS);
                T_ASSERT(!c->over_window);
                assert_all_taken_as_inline(c, JOBS);
                /* With more than one lane, every lane took jobs (each job naps, so none can take them all). */
                for (unsigned l = 0; nl > 1 && l < nl; l++)
                        T_ASSERT(atomic_load(&c->lane_used[l]) > 0);
                ctx_fini(c);
                free(c);
        }
}

/* The work of the gate tests: job waits until the jobs before it in c->release are taken. */
static void gated_work(void *ctx, unsigned lane, size_t job, void *slot)
{
        struct lctx *c = ctx;
        size_t pos = 0;
        struct timespec until;

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;     /* a guard against a hang, not a timed assertion */
        while (pos < c->nrelease && c->release[pos] != job)
                pos++;
        pthread_mutex_lock(&c->mu);
        while (c->ntaken < pos && !c->gave_up)
                if (pthread_cond_timedwait(&c->cv, &c->mu, &until) != 0)
                        c->gave_up = true;
        pthread_mutex_unlock(&c->mu);
        work(ctx, lane, job, slot);
}

/*
 * Four jobs in four lanes, finishing in every order of the 24: done takes
 * them in exactly that order, and what it records is what inline gives.
 */
static void test_lanes__any_order_takes_jobs_as_they_finish(void)
{
        size_t perm[4] = { 0, 1, 2, 3 };

        for (int k = 0; k < 24; k++) {
                struct lctx *c = calloc(1, sizeof(*c));
                prc_lanes_spec sp = { .nlanes = 4, .any_order = true, .window = 4, .slot_size = sizeof(struct slot),
                                      .work = gated_work, .done = done, .drop = drop, .ctx = c };
                size_t rest[4], n = 0, kk = (size_t)k;
                prc_err e;

                /* The k-th permutation of 0..3 (factorial numbering). */
                for (size_t i = 0; i < 4; i++)
                        rest[i] = i;
                for (size_t i = 0, f = 6; i < 4; i++) {
                        size_t pick = kk / f;
                        perm[n++] = rest[pick];
                        memmove(rest + pick, rest + pick + 1, (3 - i - pick) * sizeof(*rest));
                        kk %= f;
                        f = i < 3 ? f / (3 - i) : 1;
                }
                T_ASSERT(c != NULL);
                ctx_init(c);
                c->window = 4;
                c->any_order = true;
                c->release = perm;
                c->nrelease = 4;
                prc_err_init(&e);
                T_ASSERT(prc_lanes_run(&sp, 4, &e));
                T_NOERR(e);
                T_ASSERT(!c->gave_up);
                T_ASSERT(!c->out_of_order);
                T_ASSERT(!c->over_window);
                for (size_t i = 0; i < 4; i++)
                        T_EQ_INT(c->taken_order[i], perm[i]);
                assert_all_taken_as_inline(c, 4);
                ctx_fini(c);
                free(c);
        }
}

/*
 * Two lanes, job 0 held until every other job is taken: done takes 1..199
 * behind it (the other lane goes on through all of them in a window of 4)
 * and 0 last; one lane (inline) takes them in order.  Both record the same.
 */
static void test_lanes__no_finished_job_waits_for_a_slow_one(void)
{
        for (unsigned nl = 1; nl <= 2; nl++) {
                struct lctx *c = calloc(1, sizeof(*c));
                size_t *order = calloc(JOBS, sizeof(*order));
                prc_lanes_spec sp = { .nlanes = nl, .any_order = true, .window = 4, .slot_size = sizeof(struct slot),
                                      .work = gated_work, .done = done, .drop = drop };
                prc_err e;

                T_ASSERT(c != NULL && order != NULL);
                ctx_init(c);
                for (size_t j = 1; j < JOBS; j++)
                        order[j - 1] = j;
                order[JOBS - 1] = 0;
                c->window = 4;
                c->any_order = true;
                /* Inline runs job 0 first: there the gate must not hold it. */
                c->release = nl > 1 ? order : NULL;
                c->nrelease = nl > 1 ? JOBS : 0;
                sp.ctx = c;
                prc_err_init(&e);
                T_ASSERT(prc_lanes_run(&sp, JOBS, &e));
                T_NOERR(e);
                T_ASSERT(!c->gave_up);
                T_ASSERT(!c->over_window);
                for (size_t i = 0; i < JOBS; i++)
                        T_EQ_INT(c->taken_order[i], nl > 1 ? order[i] : i);
                assert_all_taken_as_inline(c, JOBS);
                ctx_fini(c);
                free(order);
                free(c);
        }
}

static void test_lanes__failing_done_stops_and_drops_the_rest(void)
{
        for (int any = 0; any <= 1; any++) {
                struct lctx *c = calloc(1, sizeof(*c));
                size_t ran = 0, dropped = 0;
                prc_err e;

                T_ASSERT(c != NULL);
                ctx_init(c);
                c->fail_at = 50;
                T_ASSERT(!run(c, 2, any, 4, JOBS, &e));
                T_ERR(e, PRC_E_INTERNAL);
                T_EQ_INT(c->ntaken, 51);        /* done took 51 jobs, nothing after the failure */
                T_EQ_INT(c->leaked, 0);
                for (size_t j = 0; j < JOBS; j++) {
                        ran += (size_t)atomic_load(&c->ran[j]);
                        dropped += (size_t)c->dropped[j];
                        T_ASSERT(c->dropped[j] <= 1);
                }
                for (size_t i = 0; i < c->ntaken; i++)
                        T_EQ_INT(c->dropped[c->taken_order[i]], 0);
                /* Every job that ran was taken or dropped, once; the lanes held at most the window. */
                T_EQ_INT(ran, 51 + dropped);
                T_ASSERT(dropped <= 3);
                T_ASSERT(!c->over_window);
                ctx_fini(c);
                free(c);
        }
}

static void test_lanes__budget_bounds_what_is_held(void)
{
        for (unsigned nl = 2; nl <= 3; nl++) {
                for (int any = 0; any <= 1; any++) {
                        struct lctx *c = calloc(1, sizeof(*c));
                        prc_lanes_spec sp = { .nlanes = nl, .any_order = any, .window = 32,
                                              .slot_size = sizeof(struct slot), .work = work, .done = done,
                                              .drop = drop, .cost = job_cost, .near = 2, .budget = 60, .ctx = c };
                        prc_err e;

                        T_ASSERT(c != NULL);
                        ctx_init(c);
                        c->window = sp.window;
                        c->near = sp.near;
                        c->budget = sp.budget;
                        c->any_order = any;
                        prc_err_init(&e);
                        T_ASSERT(prc_lanes_run(&sp, JOBS, &e));
                        T_NOERR(e);
                        T_ASSERT(!c->out_of_order);
                        T_ASSERT(!c->over_window);
                        T_ASSERT(!c->over_budget);
                        /* A job above the whole budget still runs, once (claimed once a near place is free). */
                        assert_all_taken_as_inline(c, JOBS);
                        ctx_fini(c);
                        free(c);
                }
        }
}

/* Jobs 3, 13, 23...: costs 1000 + job, so lane 0 must take them highest job first. */
static size_t big_cost(void *ctx, size_t job)
{
        (void)ctx;
        return job % 10 == 3 ? 1000 + job : 10 + job % 5;
}

/* Every job big: costs 1000 + job. */
static size_t all_big_cost(void *ctx, size_t job)
{
        (void)ctx;
        return 1000 + job;
}

/*
 * Which lane ran each job, and the jobs lane 0 started, in order.  With
 * hold_lane0, lane 0's first job waits (30 s at most) until another lane
 * has started one: lane 0 alone cannot finish the run.
 */
static int big_lane[JOBS];
static size_t lane0_order[JOBS], nlane0, others_started;
static bool hold_lane0, lane0_gave_up;
static pthread_mutex_t big_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t big_cv = PTHREAD_COND_INITIALIZER;

static void big_work(void *ctx, unsigned lane, size_t job, void *slot)
{
        struct timespec until;

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;     /* a guard against a hang, not a timed assertion */
        pthread_mutex_lock(&big_mu);
        big_lane[job] = (int)lane;
        if (lane == 0)
                lane0_order[nlane0++] = job;
        else
                others_started++;
        pthread_cond_broadcast(&big_cv);
        while (hold_lane0 && lane == 0 && nlane0 == 1 && others_started == 0 && !lane0_gave_up)
                if (pthread_cond_timedwait(&big_cv, &big_mu, &until) != 0)
                        lane0_gave_up = true;
        pthread_mutex_unlock(&big_mu);
        work(ctx, lane, job, slot);
}

/*
 * One run with the big jobs of cost (>= 1000), checked: every job once,
 * as inline records it; lane 0 started the costliest ones first, in that
 * order, and the big ones other lanes ran are exactly the least costly
 * rest (they take from the other end, and only what lane 0 has not).
 */
static void big_run(unsigned nl, prc_lane_cost_fn cost, bool hold)
{
        struct lctx *c = calloc(1, sizeof(*c));
        prc_lanes_spec sp = { .nlanes = nl, .any_order = true, .window = 32, .slot_size = sizeof(struct slot),
                              .work = big_work, .done = done, .drop = drop, .cost = cost, .near = 2,
                              .budget = 60, .big = 1000, .ctx = c };
        size_t bigs[JOBS], nb = 0, k;
        prc_err e;

        T_ASSERT(c != NULL);
        ctx_init(c);
        c->window = sp.window;
        c->any_order = true;
        nlane0 = others_started = 0;
        hold_lane0 = hold;
        lane0_gave_up = false;
        for (size_t j = 0; j < JOBS; j++)
                big_lane[j] = -1;
        prc_err_init(&e);
        T_ASSERT(prc_lanes_run(&sp, JOBS, &e));
        T_NOERR(e);
        T_ASSERT(!lane0_gave_up);
        T_ASSERT(!c->over_window);
        assert_all_taken_as_inline(c, JOBS);
        /* The big jobs, costliest first: every cost here grows with the job. */
        for (size_t j = JOBS; j-- > 0;)
                if (cost(c, j) >= 1000)
                        bigs[nb++] = j;
        for (k = 0; k < nb && k < nlane0 && lane0_order[k] == bigs[k]; k++)
                ;
        /* bigs[0..k) are lane 0's first jobs, in order; bigs[k..) all ran in other lanes. */
        for (size_t i = k; i < nb; i++)
                T_ASSERT(big_lane[bigs[i]] > 0);
        ctx_fini(c);
        free(c);
}

/*
 * With big, lane 0 starts the jobs costing at least big before anything
 * else, costliest first; another lane runs one only from the other end,
 * once no small job is left.  With small jobs to do (a tenth big), the
 * result is what inline gives; with only big jobs, lane 0's first waits
 * until another lane has started one, which it does from the other end.
 */
static void test_lanes__big_jobs_start_in_lane_zero_costliest_first(void)
{
        for (unsigned nl = 2; nl <= 3; nl++) {
                big_run(nl, big_cost, false);
                big_run(nl, all_big_cost, true);
        }
}

/* Jobs 0-2 cost 1, job 3 costs more than the whole budget. */
static size_t three_small_cost(void *ctx, size_t job)
{
        (void)ctx;
        return job < 3 ? 1 : 100;
}

/* The first done waits (30 s at most) until job 3 has started: a lane must claim it while that job is held. */
static bool costly_started, costly_gave_up;
static pthread_mutex_t costly_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t costly_cv = PTHREAD_COND_INITIALIZER;

static void costly_work(void *ctx, unsigned lane, size_t job, void *slot)
{
        pthread_mutex_lock(&costly_mu);
        costly_started = costly_started || job == 3;
        pthread_cond_broadcast(&costly_cv);
        pthread_mutex_unlock(&costly_mu);
        work(ctx, lane, job, slot);
}

static bool costly_done(void *ctx, size_t job, void *slot, prc_err *err)
{
        struct timespec until;

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;     /* a guard against a hang, not a timed assertion */
        pthread_mutex_lock(&costly_mu);
        while (!costly_started && !costly_gave_up)
                if (pthread_cond_timedwait(&costly_cv, &costly_mu, &until) != 0)
                        costly_gave_up = true;
        pthread_mutex_unlock(&costly_mu);
        return done(ctx, job, slot, err);
}

/*
 * A job that fits the budget is held against it, not at a near place: the
 * near places stay for the costly jobs.  With one near place, while done
 * holds a small job the other lane still claims the costly one; had the
 * small jobs taken the near place, it would wait for done, which waits for
 * it.
 */
static void test_lanes__small_jobs_leave_near_places_to_costly_ones(void)
{
        struct lctx *c = calloc(1, sizeof(*c));
        prc_lanes_spec sp = { .nlanes = 2, .any_order = true, .window = 8, .slot_size = sizeof(struct slot),
                              .work = costly_work, .done = costly_done, .drop = drop, .cost = three_small_cost,
                              .near = 1, .budget = 10 };
        prc_err e;

        T_ASSERT(c != NULL);
        ctx_init(c);
        sp.ctx = c;
        c->window = sp.window;
        c->any_order = true;
        costly_started = costly_gave_up = false;
        prc_err_init(&e);
        T_ASSERT(prc_lanes_run(&sp, 4, &e));
        T_NOERR(e);
        T_ASSERT(!costly_gave_up);
        T_ASSERT(!c->over_window);
        assert_all_taken_as_inline(c, 4);
        ctx_fini(c);
        free(c);
}

struct watched_run {
        prc_lanes_spec  sp;
        prc_err         e;
        bool            ok;
        atomic_bool     finished;
};

static void *watched_main(void *arg)
{
        struct watched_run *w = arg;

        w->ok = prc_lanes_run(&w->sp, JOBS, &w->e);
        atomic_store(&w->finished, true);
        return NULL;
}

/*
 * With take_batch above the window, or a budget that stops the lanes
 * first, the caller is still woken (a lane waits for a slot) and the run
 * ends: every job once, as inline records it, within the window and the
 * budget.  A run that stalls fails here after 30 s instead of hanging.
 */
static void test_lanes__batched_takes_never_stall(void)
{
        for (unsigned nl = 2; nl <= 3; nl++) {
                for (int budgeted = 0; budgeted <= 1; budgeted++) {
                        struct lctx *c = calloc(1, sizeof(*c));
                        struct watched_run *w = calloc(1, sizeof(*w));
                        pthread_t t;
                        int waited = 0;

                        T_ASSERT(c != NULL && w != NULL);
                        ctx_init(c);
                        w->sp = (prc_lanes_spec){ .nlanes = nl, .any_order = true, .window = budgeted ? 32 : 4,
                                                  .slot_size = sizeof(struct slot), .work = work, .done = done,
                                                  .drop = drop, .take_batch = 8, .ctx = c };
                        if (budgeted) {
                                w->sp.cost = job_cost;
                                w->sp.near = 2;
                                w->sp.budget = 60;
                        }
                        c->window = w->sp.window;
                        c->near = w->sp.near;
                        c->budget = w->sp.budget;
                        c->any_order = true;
                        prc_err_init(&w->e);
                        T_ASSERT(pthread_create(&t, NULL, watched_main, w) == 0);
                        while (!atomic_load(&w->finished) && waited++ < 30000) {
                                struct timespec ms = { 0, 1000000 };
                                nanosleep(&ms, NULL);
                        }
                        if (!atomic_load(&w->finished)) {
                                t_fail(__FILE__, __LINE__, "the lanes stalled (%u lanes%s)", nl,
                                       budgeted ? ", a budget" : "");
                                return;         /* the stalled run keeps c and w */
                        }
                        pthread_join(t, NULL);
                        T_ASSERT(w->ok);
                        T_NOERR(w->e);
                        T_ASSERT(!c->over_window);
                        T_ASSERT(!c->over_budget);
                        assert_all_taken_as_inline(c, JOBS);
                        ctx_fini(c);
                        free(c);
                        free(w);
                }
        }
}

/* sp is refused before anything runs: internal. */
static void assert_refused(const prc_lanes_spec *sp)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_lanes_run(sp, 3, &e));
        T_ERR(e, PRC_E_INTERNAL);
}

static void test_lanes__bad_spec_is_internal(void)
{
        struct lctx c0;
        prc_lanes_spec sp = { .nlanes = 2, .window = 1, .slot_size = sizeof(struct slot), .work = work,
                              .done = done, .drop = drop, .ctx = &c0 };

        assert_refused(&sp);
        /* A cost without a near place could never claim a costly job. */
        sp.window = 4;
        sp.cost = job_cost;
        sp.near = 0;
        assert_refused(&sp);
        /* Big jobs need a cost to be known by, and any order (in job order lane 0 could not go first). */
        sp.near = 1;
        sp.big = 5;
        assert_refused(&sp);
        sp.any_order = true;
        sp.cost = NULL;
        assert_refused(&sp);
        /* A batch only in any order: in job order the caller waits for one job in particular. */
        sp.big = 0;
        sp.any_order = false;
        sp.take_batch = 4;
        assert_refused(&sp);
}

static const prc_test tests[] = {
        T(test_lanes__every_job_once_in_order),
        T(test_lanes__lane_start_runs_once_in_each_lane_first),
        T(test_lanes__any_order_takes_jobs_as_they_finish),
        T(test_lanes__no_finished_job_waits_for_a_slow_one),
        T(test_lanes__failing_done_stops_and_drops_the_rest),
        T(test_lanes__budget_bounds_what_is_held),
        T(test_lanes__big_jobs_start_in_lane_zero_costliest_first),
        T(test_lanes__small_jobs_leave_near_places_to_costly_ones),
        T(test_lanes__batched_takes_never_stall),
        T(test_lanes__bad_spec_is_internal),
};
PRC_SUITE(lanes, tests)
