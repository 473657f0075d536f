/*
 * lanes.c - jobs in a few threads, results taken in order (lanes.h).
 * Trust: no input of its own.
 */
#include "engine/lanes.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct run {
        const prc_lanes_spec *sp;
        size_t          njobs;
        unsigned char  *slots;          /* owned: window slots of slot_size bytes */
        bool           *ready;          /* owned: slot i holds a finished job (under mu) */
        size_t         *costs;          /* owned: slot i's job's cost (under mu) */
        size_t          next;           /* the next job a lane claims (under mu) */
        size_t          taken;          /* jobs done has taken (under mu) */
        bool            stop;           /* done failed: claim nothing more (under mu) */
        pthread_mutex_t mu;
        pthread_cond_t  to_lanes, to_caller;
};

struct lane {
        struct run *r;
        unsigned    idx;
        pthread_t   tid;
};

static void *slot_of(const struct run *r, size_t job)
{
        return r->slots + (job % r->sp->window) * r->sp->slot_size;
}

/*
 * May a lane claim the next job?  Within the window; with a cost, either
 * among the near jobs after the one the caller waits for (any cost) or
 * with the jobs claimed past those within the budget.  The window is at
 * most 64 slots or so: the sum is taken anew, never kept in step.
 */
static bool may_claim(const struct run *r)
{
        const prc_lanes_spec *sp = r->sp;
        size_t far = 0;

        if (r->next >= r->taken + sp->window)
                return false;
        if (sp->cost == NULL || r->next <= r->taken + sp->near)
                return true;
        for (size_t j = r->taken + sp->near + 1; j < r->next; j++)
                far += r->costs[j % sp->window];
        return far <= sp->budget && sp->cost(sp->ctx, r->next) <= sp->budget - far;
}

static void *lane_main(void *arg)
{
        struct lane *l = arg;
        struct run *r = l->r;
        const prc_lanes_spec *sp = r->sp;

        pthread_mutex_lock(&r->mu);
        for (;;) {
                size_t job;

                /* A slot is free once done has taken the job window places back (and the budget allows). */
                while (!r->stop && r->next < r->njobs && !may_claim(r))
                        pthread_cond_wait(&r->to_lanes, &r->mu);
                if (r->stop || r->next >= r->njobs)
                        break;
                job = r->next++;
                r->costs[job % sp->window] = sp->cost != NULL ? sp->cost(sp->ctx, job) : 0;
                pthread_mutex_unlock(&r->mu);
                memset(slot_of(r, job), 0, sp->slot_size);
                sp->work(sp->ctx, l->idx, job, slot_of(r, job));
                pthread_mutex_lock(&r->mu);
                r->ready[job % sp->window] = true;
                pthread_cond_broadcast(&r->to_caller);
        }
        pthread_mutex_unlock(&r->mu);
        return NULL;
}

/* No thread could be had (or one lane was asked for): every job inline, in order. */
static bool run_inline(const prc_lanes_spec *sp, struct run *r, prc_err *err)
{
        for (size_t job = 0; job < r->njobs; job++) {
                memset(r->slots, 0, sp->slot_size);
                sp->work(sp->ctx, 0, job, r->slots);
                if (!sp->done(sp->ctx, job, r->slots, err))
                        return false;
        }
        return true;
}

/* Take the jobs in order as the lanes finish them. */
static bool take_in_order(struct run *r, prc_err *err)
{
        const prc_lanes_spec *sp = r->sp;
        bool ok = true;

        for (size_t job = 0; ok && job < r->njobs; job++) {
                pthread_mutex_lock(&r->mu);
                while (!r->ready[job % sp->window])
                        pthread_cond_wait(&r->to_caller, &r->mu);
                pthread_mutex_unlock(&r->mu);
                ok = sp->done(sp->ctx, job, slot_of(r, job), err);
                pthread_mutex_lock(&r->mu);
                r->ready[job % sp->window] = false;
                r->taken++;
                r->stop = !ok;
                pthread_cond_broadcast(&r->to_lanes);
                pthread_mutex_unlock(&r->mu);
        }
        return ok;
}

static bool run_lanes(struct run *r, prc_err *err)
{
        const prc_lanes_spec *sp = r->sp;
        struct lane lanes[PRC_LANES_MAX];
        unsigned started = 0;
        bool ok;

        for (unsigned i = 0; i < sp->nlanes; i++) {
                lanes[started] = (struct lane){ .r = r, .idx = started };
                if (pthread_create(&lanes[started].tid, NULL, lane_main, &lanes[started]) == 0)
                        started++;
        }
        if (started == 0)
                return run_inline(sp, r, err);
        ok = take_in_order(r, err);
        for (unsigned i = 0; i < started; i++)
                pthread_join(lanes[i].tid, NULL);
        /* Stopped early: jobs the lanes finished past the failing one are released, never taken. */
        for (size_t job = r->taken; job < r->next; job++)
                if (sp->drop != NULL)
                        sp->drop(sp->ctx, job, slot_of(r, job));
        return ok;
}

bool prc_lanes_run(const prc_lanes_spec *sp, size_t njobs, prc_err *err)
{
        struct run r = { .sp = sp, .njobs = njobs };
        bool ok;

        if (sp->nlanes < 1 || sp->nlanes > PRC_LANES_MAX || sp->window < sp->nlanes || sp->slot_size == 0 ||
            sp->window > SIZE_MAX / sp->slot_size)
                return prc_err_set(err, PRC_E_INTERNAL, "lanes: %u lanes, a window of %zu", sp->nlanes, sp->window);
        if (njobs == 0)
                return true;
        r.slots = calloc(sp->window, sp->slot_size);
        r.ready = calloc(sp->window, sizeof(*r.ready));
        r.costs = calloc(sp->window, sizeof(*r.costs));
        if (r.slots == NULL || r.ready == NULL || r.costs == NULL) {
                free(r.slots);
                free(r.ready);
                free(r.costs);
                return prc_err_oom(err, "the scan's lanes");
        }
        pthread_mutex_init(&r.mu, NULL);
        pthread_cond_init(&r.to_lanes, NULL);
        pthread_cond_init(&r.to_caller, NULL);
        ok = sp->nlanes == 1 ? run_inline(sp, &r, err) : run_lanes(&r, err);
        pthread_cond_destroy(&r.to_caller);
        pthread_cond_destroy(&r.to_lanes);
        pthread_mutex_destroy(&r.mu);
        free(r.costs);
        free(r.ready);
        free(r.slots);
        return ok;
}
