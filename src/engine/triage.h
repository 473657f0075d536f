/*
 * triage.h - compare a run result with a baseline and an operator's
 * suppressions (issue 22, docs/reports.md).
 *
 * A finding (findings.h) is "suppressed" when an unexpired entry of the
 * suppressions file names its assertion and digest, else "baseline" when
 * the baseline's row of the same assertion lists its digest, else "new".
 * An assertion is reported when it has a new finding, or its state is
 * worse than in the baseline (findings.h's order) and not every finding
 * is suppressed.  The exit status follows the reported assertions only.
 * States are never changed: a suppressed Fail stays Fail.
 *
 * Suppressions come only from the operator's file: nothing in the target
 * is read for them.  File: {"schema": "prc.suppressions/v1",
 * "suppressions": [{"assertion", "digest", "reason", "expires":
 * "YYYY-MM-DD"}]}; an entry applies while the clock's date (--now) is
 * before its expiry date.
 */
#ifndef PRC_ENGINE_TRIAGE_H
#define PRC_ENGINE_TRIAGE_H

#include <jansson.h>
#include <stdbool.h>

#include "base/digest.h"
#include "base/err.h"

#define PRC_SUPPRESSIONS_SCHEMA "prc.suppressions/v1"
#define PRC_SUPPRESSIONS_MAX_BYTES ((size_t)4 << 20)
#define PRC_SUPPRESSIONS_MAX 10000

/*
 * Load and check a suppressions file (no symlink).  New reference or NULL
 * with err set: the I/O and strict-JSON classes, suppressions-invalid.
 * *out_sha256 gets the file's SHA-256 (recorded in the result).
 */
json_t *prc_suppressions_load(const char *path, char out_sha256[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;

/* The checks of prc_suppressions_load on a parsed document.  Errors: suppressions-invalid. */
bool prc_suppressions_check(const json_t *doc, prc_err *err) PRC_MUST_CHECK;

/*
 * Triage run in place: each finding gets its "status", each row that did
 * not pass "reported", and run "triage" {"baseline": {"id",
 * "inventory_digest"} when baseline is given, "suppressions": {"sha256",
 * "entries" with each entry's "status": applied, expired or unmatched}
 * when supp is given, "reported"}; then run's id is recomputed, since the
 * result now records the comparison.  baseline and supp may each be NULL
 * (not both); now ("YYYY-MM-DDTHH:MM:SSZ") is required with supp.
 * *out_exit: 1 when an assertion is reported, else 0.  Errors:
 * out-of-memory, not-canonical, usage (no clock for suppressions).
 */
bool prc_triage_apply(json_t *run, const json_t *baseline, const json_t *supp, const char *supp_sha256,
                      const char *now, int *out_exit, prc_err *err) PRC_MUST_CHECK;

#endif
