/*
 * lanes.h - jobs run in a few threads ("lanes"), their results taken by the
 * calling thread, in job order or as each finishes.
 *
 * The scan's trips through the content worker (read, parse, extract) wait
 * on a worker most of the time: with one worker and one client per lane,
 * two files go through two workers at once while the caller takes the
 * results one after the other.  In job order (the default), done sees job
 * 0, 1, 2...: the caller then waits for a slow job while the lanes can only
 * fill the slots past it.  With any_order, done takes each job as soon as
 * it is finished, whatever job it is, so no finished job waits for a slow
 * one; a caller that must write what it took in job order then sorts it
 * (the scan does: scan.c content_analysis).
 *
 * Memory is bounded by the slots, never by the job count: a job holds a
 * slot from the time a lane claims it until done has taken it (or drop has
 * released it), and there are `window` slots.  With a cost per job (its
 * bytes, say), only `near` of the jobs holding a slot may cost anything;
 * the others together cost at most `budget`: behind a big job the lanes go
 * on through many small ones, and what is held is bounded by near jobs
 * plus the budget, not by the window's worth of jobs.  A job is held
 * against the budget when it fits, and only otherwise at a near place, so
 * the near places stay for the jobs the budget cannot hold.
 *
 * With `take_batch` (any order), the caller is woken once that many jobs
 * are finished, and takes every finished one, instead of waking for each:
 * every wake is a context switch, and on the VMs measured a switch costs
 * several microseconds of CPU (docs/extraction/peers.md, session 18).  It
 * is woken before that when a lane waits for a slot it would free, and
 * when no lane is left (the last jobs), so a finished job waits at most
 * for the batch to fill or the lanes to run out of room.
 *
 * With `big` (any order, with a cost), lane 0 takes the jobs costing at
 * least big first, costliest first, before it joins the other lanes in
 * the rest; the others take one only once no smaller job is left, the
 * least costly first.  Whatever a lane's job makes lasting (a content
 * worker keeps the memory its largest request touched) grows in lane 0
 * alone unless the big jobs are most of the work, the longest jobs start
 * first, so no lane is left with one at the end while the others wait,
 * and a run of big jobs only still keeps every lane busy.
 * Trust: no input of its own; the jobs handle the hostile bytes.
 */
#ifndef PRC_ENGINE_LANES_H
#define PRC_ENGINE_LANES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

enum { PRC_LANES_MAX = 4 };

/* Run job into slot, in lane (0..nlanes-1); any failure is left in the slot for done to report. */
typedef void (*prc_lane_work_fn)(void *ctx, unsigned lane, size_t job, void *slot);
/* Take job's result, in the caller's thread (in job order unless any_order); false (err set) stops the run. */
typedef bool (*prc_lane_done_fn)(void *ctx, size_t job, void *slot, prc_err *err);
/* Release a finished slot done never took (the run stopped first). */
typedef void (*prc_lane_drop_fn)(void *ctx, size_t job, void *slot);
/* What job will hold once run, in the budget's unit; called under the run's lock, so cheap. */
typedef size_t (*prc_lane_cost_fn)(void *ctx, size_t job);

typedef struct prc_lanes_spec {
        unsigned         nlanes;        /* 1..PRC_LANES_MAX; 1 runs every job inline, in order, no thread */
        bool             any_order;     /* done takes each job once finished, in any order */
        size_t           window;        /* slots: jobs claimed and not yet taken, at most (>= nlanes) */
        size_t           slot_size;     /* bytes of one slot, zeroed before each job */
        prc_lane_work_fn work;
        prc_lane_done_fn done;
        prc_lane_drop_fn drop;
        prc_lane_cost_fn cost;          /* NULL: every job costs nothing (the window alone bounds) */
        size_t           near;          /* with cost: jobs holding a slot at any cost (>= 1) */
        size_t           budget;        /* with cost: the most the other jobs holding a slot may cost */
        size_t           big;           /* with cost and any_order: lane 0's first jobs, from this cost (0: none) */
        size_t           take_batch;    /* any_order: done's thread wakes for this many at once (0, 1: each) */
        void           (*lane_start)(void);     /* NULL, or run in each lane thread before its first job */
        void            *ctx;
} prc_lanes_spec;

/*
 * Run jobs 0..njobs-1: work in the lanes, done here, each job once.
 * Returns false with err set by done (the first false stops the run: the
 * lanes finish the job they hold, finished slots are dropped, done is
 * called no more), or out-of-memory or internal when the slots cannot be
 * had or the spec is wrong (nothing has run).  Should no thread start,
 * every job runs inline, in order.
 */
bool prc_lanes_run(const prc_lanes_spec *sp, size_t njobs, prc_err *err) PRC_MUST_CHECK;

#endif
