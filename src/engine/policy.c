/*
 * policy.c - outcome policy (see policy.h).  Pure: no I/O, no clock.
 */
#include "engine/policy.h"

#include <stdio.h>
#include <string.h>

const prc_outcome_policy prc_policy_default = {
        .pass = PRC_OUT_NOT_FOUND,
        .fail = PRC_OUT_FOUND,
};

static const struct {
        unsigned    bit;
        const char *name;
} outcomes[] = {
        { PRC_OUT_FOUND, "found" },
        { PRC_OUT_NOT_FOUND, "not_found" },
        { PRC_OUT_VALUE, "value" },
        { PRC_OUT_UNSUPPORTED, "unsupported" },
};

unsigned prc_outcome_parse(const char *word)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(outcomes); i++)
                if (strcmp(outcomes[i].name, word) == 0)
                        return outcomes[i].bit;
        return 0;
}

const char *prc_outcome_name(unsigned bit)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(outcomes); i++)
                if (outcomes[i].bit == bit)
                        return outcomes[i].name;
        return "?";
}

const char *prc_state_name(prc_state s)
{
        switch (s) {
        case PRC_STATE_PASS: return "Pass";
        case PRC_STATE_FAIL: return "Fail";
        case PRC_STATE_UNKNOWN: return "Unknown";
        case PRC_STATE_CONFLICTING: return "Conflicting";
        case PRC_STATE_BLOCKED: return "Blocked";
        }
        return "Unknown";
}

static bool parse_list(const json_t *arr, const char *ptr, const char *field, unsigned *out, prc_err *err)
{
        size_t i;
        json_t *v;
        unsigned mask = 0;

        if (!json_is_array(arr)) {
                prc_err_set(err, PRC_E_WRONG_TYPE, "%s must be a list of outcomes", field);
                prc_err_set_ptr(err, ptr);
                return false;
        }
        json_array_foreach(arr, i, v) {
                unsigned bit = json_is_string(v) ? prc_outcome_parse(json_string_value(v)) : 0;
                if (bit == 0 || (mask & bit)) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "%s[%zu] is %s", field, i,
                                    bit ? "repeated" : "not one of found, not_found, value, unsupported");
                        prc_err_set_ptr(err, ptr);
                        return false;
                }
                mask |= bit;
        }
        *out = mask;
        return true;
}

bool prc_policy_from_json(const json_t *pass, const json_t *fail, const char *ptr,
                          prc_outcome_policy *out, prc_err *err)
{
        prc_outcome_policy p = { 0, 0 };

        if (pass == NULL && fail == NULL) {
                *out = prc_policy_default;
                return true;
        }
        if (pass == NULL) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "fail_outcomes needs pass_outcomes beside it");
                prc_err_set_ptr(err, ptr);
                return false;
        }
        if (!parse_list(pass, ptr, "pass_outcomes", &p.pass, err))
                return false;
        if (fail != NULL && !parse_list(fail, ptr, "fail_outcomes", &p.fail, err))
                return false;
        if (p.pass == 0) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "pass_outcomes must not be empty");
                prc_err_set_ptr(err, ptr);
                return false;
        }
        if (p.pass & p.fail) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "pass_outcomes and fail_outcomes overlap");
                prc_err_set_ptr(err, ptr);
                return false;
        }
        *out = p;
        return true;
}

prc_state prc_policy_decide(const prc_outcome_policy *p, unsigned observed, bool nonevidence,
                            const char **out_reason)
{
        unsigned unconfigured = observed & ~(p->pass | p->fail);

        if (observed & p->fail) {
                *out_reason = "an observed outcome is configured to fail";
                return PRC_STATE_FAIL;
        }
        if (nonevidence) {
                /* An execution error or a coverage gap never becomes Pass. */
                *out_reason = "evidence is incomplete (execution error, refusal or coverage gap)";
                return PRC_STATE_UNKNOWN;
        }
        if (observed == 0) {
                *out_reason = "no observation";
                return PRC_STATE_UNKNOWN;
        }
        if (unconfigured == 0) {
                *out_reason = "every observed outcome is configured to pass";
                return PRC_STATE_PASS;
        }
        if (observed & p->pass) {
                *out_reason = "a passing outcome is mixed with an unconfigured one";
                return PRC_STATE_CONFLICTING;
        }
        *out_reason = "only unconfigured outcomes were observed";
        return PRC_STATE_UNKNOWN;
}

/* "found or value": the outcome names of mask, in vocabulary order. */
static void outcome_list(unsigned mask, char *out, size_t cap)
{
        size_t len = 0, n = 0, total = 0;

        out[0] = '\0';
        for (size_t i = 0; i < PRC_ARRAY_LEN(outcomes); i++)
                total += (mask & outcomes[i].bit) != 0;
        for (size_t i = 0; i < PRC_ARRAY_LEN(outcomes) && len < cap; i++) {
                if (!(mask & outcomes[i].bit))
                        continue;
                n++;
                len += (size_t)snprintf(out + len, cap - len, "%s%s", n == 1 ? "" : n == total ? " or " : ", ",
                                        outcomes[i].name);
        }
}

void prc_policy_describe(const prc_outcome_policy *p, char *out, size_t cap)
{
        char pass[64], fail[64];

        outcome_list(p->pass, pass, sizeof(pass));
        outcome_list(p->fail, fail, sizeof(fail));
        snprintf(out, cap, "%s%s%sPass when every observation is %s; a coverage gap or an error can never pass "
                 "(Unknown at best); no observation, or only other outcomes, is Unknown; %s mixed with another "
                 "outcome is Conflicting", p->fail ? "Fail when any observation is " : "", p->fail ? fail : "",
                 p->fail ? "; " : "", pass, pass);
}
