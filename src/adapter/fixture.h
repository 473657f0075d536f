/*
 * fixture.h - the adapter fixture release suite: load, bind, evaluate twice,
 * compare, report (schemas/adapter-fixture-suite.schema.json in,
 * schemas/adapter-fixture-report.schema.json out; docs/adapter-protocol.md).
 *
 * Trust: the suite is operator input in the repository.  It may not name a
 * path outside its own directory or through a symlink, must bind the exact
 * canonical digest of its one manifest and the SHA-256 of every transcript,
 * and a case may only lower the manifest's line, message or stdout ceiling.
 * Nothing is executed: transcripts are recorded adapter output, decoded with
 * the same decoder the OCI runner uses.  The report is evidence of protocol
 * compatibility only, not of a tool's detection accuracy or isolation.
 */
#ifndef PRC_ADAPTER_FIXTURE_H
#define PRC_ADAPTER_FIXTURE_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"

#define PRC_FIXTURE_SUITE_SCHEMA "prc.adapter-fixture-suite/v1"
#define PRC_FIXTURE_REPORT_SCHEMA "prc.adapter-fixture-report/v1"

/*
 * Validate the suite at path.  Returns the report (new reference; its "ok"
 * says whether every case matched its expectation in both evaluations and
 * the evaluations agreed) or NULL with err set when the suite itself is
 * refused: fixture-symlink, fixture-outside, invalid-path,
 * fixture-digest-mismatch, fixture-limit-raised, limit-out-of-range,
 * authority-claim, the manifest loader's classes, unknown-field,
 * missing-field, wrong-type, invalid-value, invalid-id, duplicate-id,
 * unknown-schema-version, io-error, out-of-memory.
 */
json_t *prc_fixture_validate(const char *suite_path, prc_err *err);

#endif
