/*
 * test_policy.c - the outcome policy, table-driven over every combination.
 */
#include "t.h"

#include "base/json_strict.h"
#include "engine/policy.h"

/* Hand-written rows: the cases DESIGN.md and seed 000 spell out. */
static void test_policy__named_cases(void)
{
        static const struct {
                unsigned pass, fail, observed;
                bool gap;
                prc_state want;
        } rows[] = {
                /* default policy */
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_NOT_FOUND, false, PRC_STATE_PASS },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_FOUND, false, PRC_STATE_FAIL },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_FOUND | PRC_OUT_NOT_FOUND, false, PRC_STATE_FAIL },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_VALUE, false, PRC_STATE_UNKNOWN },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_UNSUPPORTED, false, PRC_STATE_UNKNOWN },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_NOT_FOUND | PRC_OUT_UNSUPPORTED, false,
                  PRC_STATE_CONFLICTING },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, 0, false, PRC_STATE_UNKNOWN },
                /* a gap never lets not_found pass, but found still fails */
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_NOT_FOUND, true, PRC_STATE_UNKNOWN },
                { PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, PRC_OUT_FOUND, true, PRC_STATE_FAIL },
                /* SBOM: only value passes, nothing fails */
                { PRC_OUT_VALUE, 0, PRC_OUT_VALUE, false, PRC_STATE_PASS },
                { PRC_OUT_VALUE, 0, PRC_OUT_VALUE | PRC_OUT_UNSUPPORTED, false, PRC_STATE_CONFLICTING },
                { PRC_OUT_VALUE, 0, PRC_OUT_UNSUPPORTED, false, PRC_STATE_UNKNOWN },
                { PRC_OUT_VALUE, 0, PRC_OUT_FOUND, false, PRC_STATE_UNKNOWN },
                { PRC_OUT_VALUE, 0, 0, false, PRC_STATE_UNKNOWN },
                /* README-style: found passes, not_found fails */
                { PRC_OUT_FOUND, PRC_OUT_NOT_FOUND, PRC_OUT_FOUND, false, PRC_STATE_PASS },
                { PRC_OUT_FOUND, PRC_OUT_NOT_FOUND, PRC_OUT_NOT_FOUND, false, PRC_STATE_FAIL },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                prc_outcome_policy p = { rows[i].pass, rows[i].fail };
                const char *why = NULL;
                prc_state s = prc_policy_decide(&p, rows[i].observed, rows[i].gap, &why);
                if (s != rows[i].want)
                        t_fail(__FILE__, __LINE__, "row %zu: %s, want %s", i, prc_state_name(s),
                               prc_state_name(rows[i].want));
                T_ASSERT(why != NULL && why[0] != '\0');
        }
}

/*
 * Every policy (non-empty pass, disjoint fail) x every observed set x gap.
 * The oracle restates the rule per observed outcome, one at a time, the way
 * the design states it ("any ... all ... mixed ... only").
 */
static void test_policy__every_combination(void)
{
        unsigned combos = 0;

        for (unsigned pass = 1; pass <= PRC_OUT_ALL; pass++) {
                for (unsigned fail = 0; fail <= PRC_OUT_ALL; fail++) {
                        if (pass & fail)
                                continue;
                        for (unsigned obs = 0; obs <= PRC_OUT_ALL; obs++) {
                                for (int gap = 0; gap < 2; gap++) {
                                        prc_outcome_policy p = { pass, fail };
                                        bool any_fail = false, all_pass = obs != 0, any_pass = false,
                                             any_other = false;
                                        const char *why;
                                        prc_state want, got;

                                        for (unsigned bit = 1; bit <= PRC_OUT_UNSUPPORTED; bit <<= 1) {
                                                if (!(obs & bit))
                                                        continue;
                                                any_fail |= (fail & bit) != 0;
                                                any_pass |= (pass & bit) != 0;
                                                any_other |= !(pass & bit) && !(fail & bit);
                                                all_pass &= (pass & bit) != 0;
                                        }
                                        if (any_fail)
                                                want = PRC_STATE_FAIL;
                                        else if (gap)
                                                want = PRC_STATE_UNKNOWN;
                                        else if (all_pass)
                                                want = PRC_STATE_PASS;
                                        else if (any_pass && any_other)
                                                want = PRC_STATE_CONFLICTING;
                                        else
                                                want = PRC_STATE_UNKNOWN;
                                        got = prc_policy_decide(&p, obs, gap, &why);
                                        if (got != want)
                                                t_fail(__FILE__, __LINE__,
                                                       "pass %x fail %x observed %x gap %d: %s, want %s", pass,
                                                       fail, obs, gap, prc_state_name(got), prc_state_name(want));
                                        /* Pass is impossible unless every observed outcome is a pass outcome. */
                                        if (got == PRC_STATE_PASS)
                                                T_ASSERT(obs != 0 && (obs & ~pass) == 0 && !gap);
                                        combos++;
                                }
                        }
                }
        }
        T_ASSERT(combos > 1000);
}

static json_t *js(const char *text)
{
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_json_parse((const uint8_t *)text, strlen(text), &prc_limits_operator, 0, &e);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "bad JSON in test: %s", e.msg);
        return v;
}

static void test_policy__from_json(void)
{
        static const struct {
                const char  *pass, *fail;
                prc_errclass want;
                unsigned     wpass, wfail;
        } rows[] = {
                { NULL, NULL, PRC_E_OK, PRC_OUT_NOT_FOUND, PRC_OUT_FOUND },
                { "[\"value\"]", "[]", PRC_E_OK, PRC_OUT_VALUE, 0 },
                { "[\"value\"]", NULL, PRC_E_OK, PRC_OUT_VALUE, 0 },
                { "[\"found\",\"value\"]", "[\"not_found\"]", PRC_E_OK, PRC_OUT_FOUND | PRC_OUT_VALUE,
                  PRC_OUT_NOT_FOUND },
                { "[]", NULL, PRC_E_INVALID_VALUE, 0, 0 },
                { NULL, "[\"found\"]", PRC_E_INVALID_VALUE, 0, 0 },
                { "[\"found\"]", "[\"found\"]", PRC_E_INVALID_VALUE, 0, 0 },
                { "[\"pass\"]", NULL, PRC_E_INVALID_VALUE, 0, 0 },
                { "[\"found\",\"found\"]", NULL, PRC_E_INVALID_VALUE, 0, 0 },
                { "\"found\"", NULL, PRC_E_WRONG_TYPE, 0, 0 },
                { "[1]", NULL, PRC_E_INVALID_VALUE, 0, 0 },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                json_t *p = rows[i].pass ? js(rows[i].pass) : NULL;
                json_t *f = rows[i].fail ? js(rows[i].fail) : NULL;
                prc_outcome_policy pol = { 0, 0 };
                prc_err e;
                bool ok;

                prc_err_init(&e);
                ok = prc_policy_from_json(p, f, "/assertions/0/bindings/0", &pol, &e);
                if (e.cls != rows[i].want)
                        t_fail(__FILE__, __LINE__, "row %zu: class %s, want %s", i, prc_err_name(e.cls),
                               prc_err_name(rows[i].want));
                T_EQ_INT(ok, rows[i].want == PRC_E_OK);
                if (ok) {
                        T_EQ_INT(pol.pass, rows[i].wpass);
                        T_EQ_INT(pol.fail, rows[i].wfail);
                } else {
                        T_EQ_STR(e.ptr, "/assertions/0/bindings/0");
                }
                json_decref(p);
                json_decref(f);
        }
}

static void test_policy__names(void)
{
        T_EQ_INT(prc_outcome_parse("not_found"), PRC_OUT_NOT_FOUND);
        T_EQ_INT(prc_outcome_parse("Found"), 0);
        T_EQ_STR(prc_outcome_name(PRC_OUT_UNSUPPORTED), "unsupported");
        T_EQ_STR(prc_state_name(PRC_STATE_CONFLICTING), "Conflicting");
}

static const prc_test tests[] = {
        T(test_policy__named_cases),
        T(test_policy__every_combination),
        T(test_policy__from_json),
        T(test_policy__names),
};
PRC_SUITE(policy, tests)
