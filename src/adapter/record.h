/*
 * record.h - content-addressed execution records of OCI adapter runs
 * (issue 8; schemas/execution-record.schema.json; docs/oci-runner.md).
 *
 * A record is canonical JSON whose "id" is the SHA-256 of the record
 * without "id".  It binds what ran (manifest digest, resolution, plan
 * digest, runtime identity, image digest, limits, data identities) to what
 * it read (inventory and snapshot digests) and what came of it
 * (disposition, error class, exit status, timeout, summary status,
 * observations, artifact descriptors, stdout/stderr byte counts and
 * SHA-256).  It never holds a host path or a wall-clock time.
 *
 * v0.3 is written; v0.1 and v0.2 (archived runs) are readable.  Reading a
 * record is interpretation only: a record is never evidence for a new scan,
 * because a digest alone does not prove that a tool ran
 * (prc_record_import_evidence always refuses).
 *
 * Trust: records read back are untrusted files, parsed strictly.
 */
#ifndef PRC_ADAPTER_RECORD_H
#define PRC_ADAPTER_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/digest.h"
#include "base/err.h"

#define PRC_RECORD_SCHEMA_V01 "prc.execution-record/v0.1"
#define PRC_RECORD_SCHEMA_V02 "prc.execution-record/v0.2"
#define PRC_RECORD_SCHEMA_V03 "prc.execution-record/v0.3"
#define PRC_RECORD_SCHEMA PRC_RECORD_SCHEMA_V03

enum { PRC_RECORD_MAX_BYTES = 64u << 20 };

/*
 * Check rec (a v0.3 record without "id") and add "id".  rec is modified in
 * place.  Errors: those of prc_record_check, not-canonical, out-of-memory.
 */
bool prc_record_seal(json_t *rec, prc_err *err) PRC_MUST_CHECK;

/*
 * Check a record of any readable version strictly: schema (unknown-schema-
 * version), every field of that version present with its type and nothing
 * else (unknown-field, missing-field, wrong-type), digests
 * (invalid-digest), dispositions (invalid-value), the resolution
 * (resolution.h classes), and, when check_id, that "id" is the content ID
 * (record-id-mismatch).  *out_version (may be NULL) gets 1..3.
 */
bool prc_record_check(const json_t *rec, bool check_id, int *out_version, prc_err *err) PRC_MUST_CHECK;

/* Read and check a record file (no symlink at the last component); new reference. */
json_t *prc_record_load(const char *path, int *out_version, prc_err *err) PRC_MUST_CHECK;

/*
 * The one door through which a scan could take a record as evidence, and
 * it is shut: always false with record-not-evidence (after checking that
 * rec is a readable record at all, so a broken file is still named as
 * broken).  The scan engine calls this when offered a record.
 */
bool prc_record_import_evidence(const json_t *rec, prc_err *err) PRC_MUST_CHECK;

#endif
