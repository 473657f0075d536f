/*
 * findings.h - what a report names in an assertion that did not pass: one
 * finding per evidence location (or per observation without one, or one
 * for the assertion when it has no evidence), each named by a digest of
 * its content that leaves line numbers out (issue 22).
 *
 * The digest is what stays the same when unrelated lines move and what a
 * baseline and a suppression file name: SHA-256 of the canonical JSON of
 * {"assertion", "kind", "outcome", "location" (without line and column
 * fields) or "message", "n"}, where n (present when above 0) counts the
 * earlier findings of the same assertion with the same content.  SARIF's
 * partialFingerprints carry it.
 */
#ifndef PRC_ENGINE_FINDINGS_H
#define PRC_ENGINE_FINDINGS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"

/*
 * Set row's "findings" from its "id", "state" and "evidence" (a row of the
 * run result): an array of {"digest", "evidence" (the envelope id, absent
 * for an assertion without evidence), "path", "line" (each when known)}.
 * A passing row gets none.  Errors: out-of-memory, not-canonical.
 */
bool prc_findings_set(json_t *row, prc_err *err) PRC_MUST_CHECK;

/* State order for "worse": Pass < Conflicting < Unknown < Blocked < Fail; -1 for a word that is no state. */
int prc_state_rank(const char *state);

#endif
