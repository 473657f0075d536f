/*
 * lanes.c - jobs in a few threads, results taken in job order or as they
 * finish (lanes.h).
 * Trust: no input of its own.
 */
#include "engine/lanes.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };

/* What one slot holds (under the run's lock). */
struct slot_state {
        unsigned char state;    /* SLOT_FREE, SLOT_BUSY (a lane runs its job), SLOT_READY (for done) */
        bool          far;      /* its job was claimed against the budget, not among the near ones */
        size_t        job;
        size_t        cost;
};

struct run {
        const prc_lanes_spec *sp;
        size_t             njobs;
        unsigned char     *slots;       /* owned: window slots of slot_size bytes */
        struct slot_state *st;          /* owned: each slot's state (under mu) */
        size_t             next;        /* the next job a lane claims (under mu; bigs are skipped) */
        size_t            *bigs;        /* owned: the big jobs, costliest first (lanes.h big) */
        size_t             nbigs;
        size_t             big_next;    /* bigs[big_next, big_end) are unclaimed (under mu): lane 0 claims */
        size_t             big_end;     /* from the front, the others from the back once no small job is left */
        size_t             taken;       /* jobs done has taken (under mu) */
        size_t             nnear;       /* slots held by near jobs (under mu) */
        size_t             far_cost;    /* what the far jobs holding slots cost (under mu) */
        bool               stop;        /* done failed: claim nothing more (under mu) */
        size_t             nready;      /* slots SLOT_READY (under mu) */
        unsigned           live;        /* lanes not yet returned (under mu) */
        unsigned           waiting;     /* lanes waiting for a slot (under mu) */
        pthread_mutex_t    mu;
        pthread_cond_t     to_lanes, to_caller;
};

struct lane {
        struct run *r;
        unsigned    idx;
        pthread_t   tid;
};

static void *slot_at(const struct run *r, size_t i)
{
        return r->slots + i * r->sp->slot_size;
}

/*
 * The slot the next job may take, or SIZE_MAX while it must wait.  In
 * job order the job's own (window places past the one done waits for,
 * which is free once done took that one); in any order, any free slot.
 */
static size_t free_slot(const struct run *r)
{
        const prc_lanes_spec *sp = r->sp;

        if (!sp->any_order)
                return r->next < r->taken + sp->window ? r->next % sp->window : SIZE_MAX;
        for (size_t i = 0; i < sp->window; i++)
                if (r->st[i].state == SLOT_FREE)
                        return i;
        return SIZE_MAX;
}

static bool is_big(const struct run *r, size_t job)
{
        return r->sp->big > 0 && r->sp->cost(r->sp->ctx, job) >= r->sp->big;
}

/* Where a lane's next job comes from: the cursor, or the big jobs' front or back. */
enum { FROM_NEXT, FROM_BIG_FRONT, FROM_BIG_BACK };

/*
 * The job lane claims next (*job, and *from), or false when none is left
 * for it.  The cursor steps over the big jobs: lane 0 takes those first,
 * costliest first; another lane takes one only once no small job is left,
 * the least costly first, so a tree of big files still keeps every lane
 * busy.
 */
static bool next_job(struct run *r, unsigned lane, size_t *job, int *from)
{
        if (lane == 0 && r->big_next < r->big_end) {
                *from = FROM_BIG_FRONT;
                *job = r->bigs[r->big_next];
                return true;
        }
        while (r->next < r->njobs && is_big(r, r->next))
                r->next++;
        if (r->next < r->njobs) {
                *from = FROM_NEXT;
                *job = r->next;
                return true;
        }
        if (r->big_next < r->big_end) {
                *from = FROM_BIG_BACK;
                *job = r->bigs[r->big_end - 1];
                return true;
        }
        return false;
}

/*
 * May a lane claim job, into which slot (*out), and as a far one?  A free
 * slot, and with a cost, room in the budget or else a near place: a job
 * that fits the budget never takes a near place, which stays for a costly
 * job (finished small jobs waiting for a batched take once held every
 * near place, and a big lockfile's lane waited for the caller).
 */
static bool may_claim(const struct run *r, size_t job, size_t *out, bool *far, size_t *cost)
{
        const prc_lanes_spec *sp = r->sp;
        size_t i = free_slot(r);

        if (i == SIZE_MAX)
                return false;
        *out = i;
        *cost = sp->cost != NULL ? sp->cost(sp->ctx, job) : 0;
        if (sp->cost == NULL) {
                *far = false;
                return true;
        }
        *far = r->far_cost <= sp->budget && *cost <= sp->budget - r->far_cost;
        return *far || r->nnear < sp->near;
}

static void release(struct run *r, size_t i)
{
        struct slot_state *s = &r->st[i];

        if (s->far)
                r->far_cost -= s->cost;
        else
                r->nnear--;
        *s = (struct slot_state){ .state = SLOT_FREE };
}

/*
 * May the caller take what is finished now (under mu)?  As soon as
 * anything is, unless the spec has a batch (lanes.h take_batch): then once
 * that many jobs are, or a lane waits for a slot the caller would free, or
 * no lane is left to finish more (the last jobs of a run).
 */
static bool caller_may_take(const struct run *r)
{
        const prc_lanes_spec *sp = r->sp;

        if (r->nready == 0)
                return false;
        return sp->take_batch <= 1 || r->nready >= sp->take_batch || r->waiting > 0 || r->live == 0;
}

static void wake_caller(struct run *r)
{
        if (caller_may_take(r))
                pthread_cond_signal(&r->to_caller);
}

static void *lane_main(void *arg)
{
        struct lane *l = arg;
        struct run *r = l->r;
        const prc_lanes_spec *sp = r->sp;

        if (sp->lane_start != NULL)
                sp->lane_start();
        pthread_mutex_lock(&r->mu);
        for (;;) {
                size_t i = 0, job = 0, cost = 0;
                bool far = false, have = false;
                int from = FROM_NEXT;

                /* A slot frees as done takes a job (in order: the one window places back). */
                while (!r->stop && (have = next_job(r, l->idx, &job, &from)) &&
                       !may_claim(r, job, &i, &far, &cost)) {
                        r->waiting++;
                        wake_caller(r);
                        pthread_cond_wait(&r->to_lanes, &r->mu);
                        r->waiting--;
                }
                if (r->stop || !have)
                        break;
                if (from == FROM_BIG_FRONT)
                        r->big_next++;
                else if (from == FROM_BIG_BACK)
                        r->big_end--;
                else
                        r->next++;
                r->st[i] = (struct slot_state){ .state = SLOT_BUSY, .far = far, .job = job, .cost = cost };
                if (far)
                        r->far_cost += cost;
                else
                        r->nnear++;
                pthread_mutex_unlock(&r->mu);
                memset(slot_at(r, i), 0, sp->slot_size);
                sp->work(sp->ctx, l->idx, job, slot_at(r, i));
                pthread_mutex_lock(&r->mu);
                r->st[i].state = SLOT_READY;
                r->nready++;
                wake_caller(r);
        }
        r->live--;
        wake_caller(r);
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

/*
 * The slot done takes next, or SIZE_MAX while there is none: in job order
 * the next job's once finished; in any order the finished one of the
 * lowest job (the order inline would take them in, as far as it can).
 */
static size_t ready_slot(const struct run *r)
{
        const prc_lanes_spec *sp = r->sp;
        size_t best = SIZE_MAX;

        if (!sp->any_order)
                return r->st[r->taken % sp->window].state == SLOT_READY ? r->taken % sp->window : SIZE_MAX;
        for (size_t i = 0; i < sp->window; i++)
                if (r->st[i].state == SLOT_READY && (best == SIZE_MAX || r->st[i].job < r->st[best].job))
                        best = i;
        return best;
}

/* Take slot i (under mu, dropped around done); false once done failed. */
static bool take_one(struct run *r, size_t i, prc_err *err)
{
        const prc_lanes_spec *sp = r->sp;
        size_t job = r->st[i].job;
        bool ok;

        pthread_mutex_unlock(&r->mu);
        ok = sp->done(sp->ctx, job, slot_at(r, i), err);
        pthread_mutex_lock(&r->mu);
        release(r, i);
        r->nready--;
        r->taken++;
        r->stop = !ok;
        pthread_cond_broadcast(&r->to_lanes);
        return ok;
}

/* Take the jobs as the lanes finish them: each once, until one done fails. */
static bool take_jobs(struct run *r, prc_err *err)
{
        bool ok = true;

        pthread_mutex_lock(&r->mu);
        while (ok && r->taken < r->njobs) {
                size_t i;

                while (!caller_may_take(r) || (i = ready_slot(r)) == SIZE_MAX)
                        pthread_cond_wait(&r->to_caller, &r->mu);
                ok = take_one(r, i, err);
                /* In any order, the rest of what is finished, without waiting again. */
                while (ok && r->sp->any_order && (i = ready_slot(r)) != SIZE_MAX)
                        ok = take_one(r, i, err);
        }
        pthread_mutex_unlock(&r->mu);
        return ok;
}

static bool run_lanes(struct run *r, prc_err *err)
{
        const prc_lanes_spec *sp = r->sp;
        struct lane lanes[PRC_LANES_MAX];
        unsigned started = 0;
        bool ok;

        r->live = sp->nlanes;   /* before any lane can return; less the lanes that never start */
        for (unsigned i = 0; i < sp->nlanes; i++) {
                lanes[started] = (struct lane){ .r = r, .idx = started };
                if (pthread_create(&lanes[started].tid, NULL, lane_main, &lanes[started]) == 0)
                        started++;
        }
        if (started == 0)
                return run_inline(sp, r, err);
        pthread_mutex_lock(&r->mu);
        r->live -= sp->nlanes - started;
        pthread_mutex_unlock(&r->mu);
        ok = take_jobs(r, err);
        for (unsigned i = 0; i < started; i++)
                pthread_join(lanes[i].tid, NULL);
        /* Stopped early: the jobs the lanes finished and done never took are released (none is busy now). */
        for (size_t i = 0; i < sp->window; i++)
                if (r->st[i].state == SLOT_READY && sp->drop != NULL)
                        sp->drop(sp->ctx, r->st[i].job, slot_at(r, i));
        return ok;
}

/* A big job and its cost, for the order lane 0 takes them in. */
struct big_job {
        size_t cost, job;
};

static int big_cmp(const void *a, const void *b)
{
        const struct big_job *x = a, *y = b;

        if (x->cost != y->cost)
                return (x->cost < y->cost) - (x->cost > y->cost);
        return (x->job > y->job) - (x->job < y->job);
}

/* r->bigs: the jobs costing at least sp->big, costliest first (ties in job order). */
static bool find_bigs(struct run *r, prc_err *err)
{
        const prc_lanes_spec *sp = r->sp;
        struct big_job *v;
        size_t n = 0;

        if (sp->big == 0 || sp->nlanes == 1)
                return true;
        for (size_t j = 0; j < r->njobs; j++)
                n += is_big(r, j);
        if (n == 0)
                return true;
        v = calloc(n, sizeof(*v));
        r->bigs = calloc(n, sizeof(*r->bigs));
        if (v == NULL || r->bigs == NULL) {
                free(v);
                return prc_err_oom(err, "the scan's lanes");
        }
        for (size_t j = 0, k = 0; j < r->njobs; j++)
                if (is_big(r, j))
                        v[k++] = (struct big_job){ sp->cost(sp->ctx, j), j };
        qsort(v, n, sizeof(*v), big_cmp);
        for (size_t k = 0; k < n; k++)
                r->bigs[k] = v[k].job;
        r->nbigs = r->big_end = n;
        free(v);
        return true;
}

bool prc_lanes_run(const prc_lanes_spec *sp, size_t njobs, prc_err *err)
{
        struct run r = { .sp = sp, .njobs = njobs };
        bool ok;

        if (sp->nlanes < 1 || sp->nlanes > PRC_LANES_MAX || sp->window < sp->nlanes || sp->slot_size == 0 ||
            sp->window > SIZE_MAX / sp->slot_size || (sp->cost != NULL && sp->near < 1) ||
            (sp->big > 0 && (sp->cost == NULL || !sp->any_order)) || (sp->take_batch > 1 && !sp->any_order))
                return prc_err_set(err, PRC_E_INTERNAL, "lanes: %u lanes, a window of %zu", sp->nlanes, sp->window);
        if (njobs == 0)
                return true;
        r.slots = calloc(sp->window, sp->slot_size);
        r.st = calloc(sp->window, sizeof(*r.st));
        if (r.slots == NULL || r.st == NULL || !find_bigs(&r, err)) {
                free(r.slots);
                free(r.st);
                free(r.bigs);
                return prc_err_is_set(err) ? false : prc_err_oom(err, "the scan's lanes");
        }
        pthread_mutex_init(&r.mu, NULL);
        pthread_cond_init(&r.to_lanes, NULL);
        pthread_cond_init(&r.to_caller, NULL);
        ok = sp->nlanes == 1 ? run_inline(sp, &r, err) : run_lanes(&r, err);
        pthread_cond_destroy(&r.to_caller);
        pthread_cond_destroy(&r.to_lanes);
        pthread_mutex_destroy(&r.mu);
        free(r.bigs);
        free(r.st);
        free(r.slots);
        return ok;
}
