/*
 * lanes.h - jobs run in a few threads ("lanes"), their results taken in job
 * order by the calling thread.
 *
 * The scan's trips through the content worker (read, parse, extract) wait
 * on a worker most of the time: with one worker and one client per lane,
 * two files go through two workers at once while the caller records the
 * results one after the other, in the order a single lane would have, so
 * nothing the scan writes depends on which lane was faster.  A lane runs at
 * most `window` jobs ahead of the caller: results wait in a ring of window
 * slots, so memory is bounded by the window, never by the job count.  With
 * a cost per job (its bytes, say), a lane runs `near` jobs ahead whatever
 * they cost, and further (up to the window) only while the jobs past those
 * first `near` stay within a budget of cost: a big job then holds the
 * caller up while the other lanes go on through many small ones, and
 * memory is bounded by near jobs plus the budget, not by the window's
 * worth of jobs.
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
/* Take job's result, in the caller's thread, in job order; false (err set) stops the run. */
typedef bool (*prc_lane_done_fn)(void *ctx, size_t job, void *slot, prc_err *err);
/* Release a finished slot done never took (the run stopped first). */
typedef void (*prc_lane_drop_fn)(void *ctx, size_t job, void *slot);
/* What job will hold once run, in the budget's unit; called under the run's lock, so cheap. */
typedef size_t (*prc_lane_cost_fn)(void *ctx, size_t job);

typedef struct prc_lanes_spec {
        unsigned         nlanes;        /* 1..PRC_LANES_MAX; 1 runs every job inline, no thread */
        size_t           window;        /* slots: how far the lanes may run ahead of done (>= nlanes) */
        size_t           slot_size;     /* bytes of one slot, zeroed before each job */
        prc_lane_work_fn work;
        prc_lane_done_fn done;
        prc_lane_drop_fn drop;
        prc_lane_cost_fn cost;          /* NULL: every job costs nothing (the window alone bounds) */
        size_t           near;          /* with cost: jobs past the one done waits for, claimed at any cost */
        size_t           budget;        /* with cost: the most the jobs claimed past those may cost */
        void            *ctx;
} prc_lanes_spec;

/*
 * Run jobs 0..njobs-1: work in the lanes, done in order here.  Returns
 * false with err set by done (the first false stops the run: the lanes
 * finish the job they hold, finished slots are dropped), or out-of-memory
 * or internal when the slots or a thread cannot be had (nothing has run).
 */
bool prc_lanes_run(const prc_lanes_spec *sp, size_t njobs, prc_err *err) PRC_MUST_CHECK;

#endif
