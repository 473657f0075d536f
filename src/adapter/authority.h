/*
 * authority.h - the words through which an untrusted adapter or manifest
 * tries to take evaluator authority or declare its own trust.
 *
 * Trust: the inputs are hostile (adapter output) or operator-supplied but
 * never self-trusting (manifests, fixture suites).  Only the engine decides
 * Pass or Fail and only a registry or operator grant confers trust, so a
 * field named like one of these words is refused as authority-claim rather
 * than ignored or reported as a mere unknown field (issue 3).
 *
 * Matching folds ASCII case and ignores '_', '-', '.' and ' ', so
 * "Severity-Override", "severityOverride" and "severity_override" are one word.
 */
#ifndef PRC_ADAPTER_AUTHORITY_H
#define PRC_ADAPTER_AUTHORITY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

enum {
        PRC_AUTH_EVALUATOR = 1u << 0,   /* pass, verdict, suppress, waiver, policy, ... */
        PRC_AUTH_TRUST     = 1u << 1,   /* trust, verified, first_party, signature, ... */
};

/*
 * The canonical word that key[0..len) matches in the selected sets, or NULL.
 * The returned string is prc's own (static), never the caller's bytes, so it
 * is safe to print.
 */
const char *prc_authority_key(const char *key, size_t len, unsigned sets);

/*
 * The canonical word when s is an assessment or pass-like value ("pass",
 * "Passed", "compliant", "waived", ...), else NULL.  Used for observation
 * outcomes and summary statuses after their own closed vocabulary has been
 * checked (so the summary status "failed" is never asked about).
 */
const char *prc_authority_value(const char *s, size_t len);

/*
 * Scan every key of v at every depth.  A key matching the selected sets is
 * authority-claim (false).  When allow_root_status is set, the key "status"
 * directly in the root object is allowed (the summary's execution status).
 * The error names the canonical word, never the offending key's bytes.
 */
bool prc_authority_scan(const json_t *v, unsigned sets, bool allow_root_status, prc_err *err) PRC_MUST_CHECK;

/* Every word list is sorted and holds only folded words (lookups use bsearch); for the unit test. */
bool prc_authority_lists_ok(void);

#endif
