/*
 * pool.h - the inventory's worker pool and its streaming file reader.
 *
 * Internal to src/inventory/ (inventory.c and snapshot.c).  A pool runs N
 * jobs on T threads; each thread owns one large read buffer and one SHA-256
 * context, so memory is T buffers plus the job table, never file sizes.
 * prc_pool_run takes a fixed job list in the caller's order (the snapshot's
 * path order); prc_pool_feed takes jobs while the producer is still adding
 * them (the inventory walk).  Results land in caller-owned slots, so output
 * order does not depend on scheduling.  Trust: reads hostile files through descriptors the
 * caller opened safely.
 */
#ifndef PRC_INVENTORY_POOL_H
#define PRC_INVENTORY_POOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "base/digest.h"
#include "base/err.h"
#include "inventory/inventory.h"

enum { PRC_POOL_BUF = 1u << 20 };      /* 1 MiB reads: few syscalls, still cache-friendly */

typedef struct prc_pool_worker {
        uint8_t    *buf;        /* owned by the pool: PRC_POOL_BUF bytes */
        prc_sha256 *h;          /* owned by the pool */
        prc_err     err;        /* the first error of this worker's jobs */
        const volatile sig_atomic_t *cancel;   /* borrowed: may be NULL */
        bool        whole;      /* after prc_pool_stream: buf[0..size) is the whole file, hashed in one read */
} prc_pool_worker;

/* One job; returns false with w->err set to stop the pool. */
typedef bool (*prc_pool_fn)(void *ctx, size_t job, prc_pool_worker *w);

/*
 * Run fn for each job in order[0..njobs) (order NULL: 0..njobs-1) on
 * threads workers (1 runs inline).  Stops taking jobs after the first
 * failure or once *cancel is non-zero (snapshot-interrupted).  Of several
 * failures the one earliest in order wins, so the reported error does not
 * depend on which thread was faster when only one file is bad.
 * Errors: what fn records, snapshot-interrupted, out-of-memory.
 */
bool prc_pool_run(unsigned threads, size_t njobs, const size_t *order, prc_pool_fn fn, void *ctx,
                  const volatile sig_atomic_t *cancel, prc_err *err) PRC_MUST_CHECK;

/*
 * A pool fed while it runs: the producer (the inventory walk) publishes a
 * growing prefix of jobs 0..n-1 and threads-1 workers start on them at once,
 * so hashing overlaps the walk; prc_pool_feed_finish makes the caller the
 * last worker.  Jobs run in index order of claim; fn must tolerate jobs it
 * has nothing to do for (return true).  Failure rules as prc_pool_run (the
 * earliest failing index wins; no job is claimed after a failure).
 */
typedef struct prc_pool_feed prc_pool_feed;

/* NULL on failure (err set).  Errors: out-of-memory, internal. */
prc_pool_feed *prc_pool_feed_start(unsigned threads, prc_pool_fn fn, void *ctx, prc_err *err) PRC_MUST_CHECK;
/* Jobs [0, njobs) may run now (njobs never decreases); the producer must not touch them again. */
void prc_pool_feed_publish(prc_pool_feed *f, size_t njobs);
/* Has a job failed (the producer may stop early)? */
bool prc_pool_feed_failed(prc_pool_feed *f);
/*
 * No more jobs: unless abort, the caller runs jobs alongside the workers
 * until all published ones are done; then joins and frees f.  With abort
 * the workers stop after their current job and f is freed (returns false
 * without touching err).  Errors: what fn recorded.
 */
bool prc_pool_feed_finish(prc_pool_feed *f, bool abort, prc_err *err);

/* Default worker count: online CPUs, at least 1, at most 8. */
unsigned prc_pool_default_threads(void);

/*
 * Stream the regular file fd (st0 = its fstat at open) through w's SHA-256,
 * copying every byte to outfd too when outfd >= 0.  Fails, never returns a
 * digest, if more than st0->st_size bytes arrive, fewer arrive, or size or
 * mtime differ in a second fstat at the end (class changed_cls; rel names
 * the file in the message).  hook_point is passed to the test hook after
 * the first read.  Errors: changed_cls, inventory-unreadable (EACCES/EPERM
 * on read), io-error, snapshot-interrupted.
 */
bool prc_pool_stream(prc_pool_worker *w, int fd, const struct stat *st0, int outfd, const char *rel,
                     prc_errclass changed_cls, int hook_point, uint8_t out[PRC_SHA256_LEN],
                     prc_err *err) PRC_MUST_CHECK;

/*
 * Copy the regular file src (st0 = its fstat at open) to dst (opened for
 * reading and writing, empty) in the kernel (copy_file_range), then hash
 * what dst now holds, so the digest is of the bytes in the snapshot.  The
 * same checks as prc_pool_stream apply to src (exact size, size and mtime
 * unchanged at the end).  Falls back to prc_pool_stream where the kernel
 * cannot copy between the two files.  Errors as prc_pool_stream.
 */
bool prc_pool_copy(prc_pool_worker *w, int src, const struct stat *st0, int dst, const char *rel,
                   prc_errclass changed_cls, int hook_point, uint8_t out[PRC_SHA256_LEN],
                   prc_err *err) PRC_MUST_CHECK;

/* Call the test hook, if any (no-op outside PRC_TESTING builds). */
void prc_inv_hook_call(int point, const char *rel);

#endif
