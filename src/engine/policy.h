/*
 * policy.h - the engine's core rule: observations -> assessment state.
 *
 * DESIGN.md "Outcome policy".  A binding without a policy keeps the
 * conservative default (not_found passes, found fails, everything else is
 * Unknown).  A binding may declare pass_outcomes (non-empty) and
 * fail_outcomes (disjoint, may be empty) from the closed vocabulary.  Over
 * all observations an assertion received: any fail outcome gives Fail; all
 * outcomes in pass gives Pass; a pass outcome mixed with an unconfigured one
 * gives Conflicting; only unconfigured outcomes, or none, gives Unknown.
 * Non-evidence (an execution error, a refusal, a coverage gap) can never
 * help an assertion pass: with it, the best possible state is Unknown.
 */
#ifndef PRC_ENGINE_POLICY_H
#define PRC_ENGINE_POLICY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/* Outcomes are bits so that policies are sets. */
typedef enum prc_outcome {
        PRC_OUT_FOUND       = 1u << 0,
        PRC_OUT_NOT_FOUND   = 1u << 1,
        PRC_OUT_VALUE       = 1u << 2,
        PRC_OUT_UNSUPPORTED = 1u << 3,
} prc_outcome;
#define PRC_OUT_ALL 0xfu

typedef enum prc_state {
        PRC_STATE_PASS = 0,
        PRC_STATE_FAIL,
        PRC_STATE_UNKNOWN,
        PRC_STATE_CONFLICTING,
        PRC_STATE_BLOCKED,
} prc_state;

typedef struct prc_outcome_policy {
        unsigned pass;  /* PRC_OUT_* mask, non-empty */
        unsigned fail;  /* PRC_OUT_* mask, disjoint from pass */
} prc_outcome_policy;

/* The default policy of a binding that declares none. */
extern const prc_outcome_policy prc_policy_default;

/* "found" -> PRC_OUT_FOUND; 0 if the word is not an outcome. */
unsigned prc_outcome_parse(const char *word);
/* Name of one outcome bit ("found", ...); "?" for anything else. */
const char *prc_outcome_name(unsigned bit);
/* "Pass", "Fail", "Unknown", "Conflicting", "Blocked". */
const char *prc_state_name(prc_state s);

/*
 * Build a policy from a binding's optional pass_outcomes / fail_outcomes
 * arrays (either may be NULL: both NULL means the default; fail without
 * pass is refused).  Errors: invalid-value (unknown outcome word, empty
 * pass list, overlap, a repeated word), wrong-type.  ptr names the binding.
 */
bool prc_policy_from_json(const json_t *pass, const json_t *fail, const char *ptr,
                          prc_outcome_policy *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Decide.  observed is the OR of every outcome observed (duplicates do not
 * matter to the rule); nonevidence says whether any execution error,
 * refusal or coverage gap affected this assertion.  *out_reason gets a
 * static one-line reason.
 */
/*
 * The rule prc_policy_decide applies under p, in words, for readers of a
 * report (issue 22: every rule carries its decision rule).  Always
 * NUL-terminated; truncated to cap.
 */
void prc_policy_describe(const prc_outcome_policy *p, char *out, size_t cap);

prc_state prc_policy_decide(const prc_outcome_policy *p, unsigned observed, bool nonevidence,
                            const char **out_reason);

#endif
