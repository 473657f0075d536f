/*
 * state.h - the --state-dir store: content-addressed artifacts and run
 * records, each written atomically.
 *
 * Layout:  STATE/artifacts/<sha256>   the exact bytes whose digest names them
 *          STATE/runs/<run id>.json   the canonical run result
 * Order is the guarantee: every artifact a run references is written (and
 * fsynced) before the run record, and every file appears by rename of a
 * fully written temporary, so a crash at any point never leaves a record
 * that points at a missing or partial artifact.
 */
#ifndef PRC_ENGINE_STATE_H
#define PRC_ENGINE_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef struct prc_artifact_bytes {
        const uint8_t *data;    /* borrowed */
        size_t         len;
} prc_artifact_bytes;

/*
 * Write artifacts (named by their SHA-256, computed here) and then the run
 * result (named by its "id") under dir, creating dir, artifacts/ and runs/
 * (mode 0700) as needed.  An artifact already present with the same name is
 * verified, not rewritten.  Errors: io-error, state-conflict (an existing
 * file under a digest name has other bytes), not-canonical.
 */
bool prc_state_write(const char *dir, const prc_artifact_bytes *arts, size_t narts, const json_t *run,
                     prc_err *err) PRC_MUST_CHECK;

/* Atomically create dirfd/name with p[0..n): temporary, fsync, rename, fsync dir.  Errors: io-error. */
bool prc_atomic_write_at(int dirfd, const char *name, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;

#if defined(PRC_TESTING) && PRC_TESTING
/* Called after the artifacts are durable and before the run record is written. */
void prc_state_set_test_hook(void (*fn)(void));
#endif

#endif
