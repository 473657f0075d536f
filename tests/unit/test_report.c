/*
 * test_report.c - issue 22: finding digests, triage (baselines and
 * suppressions), the HTML escaper and the words of a decision rule.
 */
#include "t.h"

#include <stdlib.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "engine/findings.h"
#include "engine/html.h"
#include "engine/policy.h"
#include "engine/runfile.h"
#include "engine/sarif.h"
#include "engine/triage.h"

/*
 * A run result with one assertion in the given state whose one observation has the given locations
 * (JSON): a whole one, with its id, since triage keeps what it makes for the suite's schema check.
 */
static json_t *run_with(const char *state, const char *locations)
{
        char buf[4096], id[PRC_SHA256_HEX + 1];
        json_error_t je;
        json_t *run, *row;
        prc_err e;

        snprintf(buf, sizeof(buf),
                 "{\"schema\":\"prc.run-result/v1\",\"prc_version\":\"0\",\"engine_api\":1,\"mode\":\"inspect\","
                 "\"profile\":\"p\",\"content_floor\":{\"level\":\"strict\",\"worker\":\"not-started\"},"
                 "\"target\":{\"inventory_digest\":\"%064d\",\"files\":1,\"symlinks\":0,\"bytes\":1,"
                 "\"oversized\":0,\"unrepresentable\":0,\"skipped\":{\"socket\":0,\"fifo\":0,\"char_device\":0,"
                 "\"block_device\":0},\"excluded_paths\":[]},\"catalog\":{\"id\":\"c\",\"revision\":1,"
                 "\"sha256\":\"%064d\"},\"summary\":{\"total\":1,\"pass\":%d,\"fail\":%d,\"unknown\":%d,"
                 "\"conflicting\":0,\"blocked\":0},\"coverage_gaps\":[],\"extractions\":[],\"executions\":[],"
                 "\"errors\":[],\"assertions\":[{\"id\":\"A1\",\"title\":\"t\",\"control\":\"C\","
                 "\"severity\":\"high\",\"state\":\"%s\",\"reason\":\"r\",\"rationale\":\"ra\",\"remediation\":\"re\","
                 "\"decision_rule\":\"d\",\"evidence\":[{\"id\":\"%064d\",\"schema\":\"prc.evidence/v1\","
                 "\"inventory_digest\":\"%064d\",\"source\":{\"type\":\"builtin\",\"analysis\":\"a\"},"
                 "\"observation\":{\"id\":\"o\",\"kind\":\"k\",\"outcome\":\"found\",\"locations\":%s}}]}]}",
                 0, 2, strcmp(state, "Pass") == 0, strcmp(state, "Fail") == 0, strcmp(state, "Unknown") == 0, state,
                 1, 0, locations);
        run = json_loads(buf, 0, &je);
        T_ASSERT(run != NULL);
        row = json_array_get(json_object_get(run, "assertions"), 0);
        prc_err_init(&e);
        T_ASSERT(prc_findings_set(row, &e));
        T_ASSERT(prc_jcs_id(run, "id", id, &e));
        json_object_set_new(run, "id", json_string(id));
        return run;
}

static const char *digest_at(const json_t *run, size_t i)
{
        const json_t *row = json_array_get(json_object_get(run, "assertions"), 0);
        return json_string_value(json_object_get(json_array_get(json_object_get(row, "findings"), i), "digest"));
}

static const char *status_at(const json_t *run, size_t i)
{
        const json_t *row = json_array_get(json_object_get(run, "assertions"), 0);
        return json_string_value(json_object_get(json_array_get(json_object_get(row, "findings"), i), "status"));
}

static void test_report__digest_leaves_lines_out_and_counts_repeats(void)
{
        json_t *a = run_with("Fail", "[{\"path\":\"P\",\"line\":3,\"text\":\"curl x | sh\"}]");
        json_t *b = run_with("Fail", "[{\"path\":\"P\",\"line\":9,\"text\":\"curl x | sh\"}]");
        json_t *c = run_with("Fail", "[{\"path\":\"P\",\"line\":3,\"text\":\"curl y | sh\"}]");
        json_t *d = run_with("Fail", "[{\"path\":\"P\",\"line\":3,\"text\":\"curl x | sh\"},"
                                     "{\"path\":\"P\",\"line\":7,\"text\":\"curl x | sh\"}]");
        json_t *p = run_with("Pass", "[{\"path\":\"P\"}]");

        T_EQ_STR(digest_at(a, 0), digest_at(b, 0));
        T_ASSERT(strcmp(digest_at(a, 0), digest_at(c, 0)) != 0);
        /* The same content twice: the first keeps the digest, the second is told apart by its count. */
        T_EQ_STR(digest_at(d, 0), digest_at(a, 0));
        T_ASSERT(strcmp(digest_at(d, 1), digest_at(d, 0)) != 0);
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(json_object_get(
                         json_array_get(json_object_get(a, "assertions"), 0), "findings"), 0), "line")), 3);
        T_ASSERT(json_object_get(json_array_get(json_object_get(p, "assertions"), 0), "findings") == NULL);
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(d);
        json_decref(p);
}

static void test_report__baseline_marks_new_and_worse(void)
{
        json_t *base = run_with("Unknown", "[{\"path\":\"P\",\"line\":3,\"text\":\"x\"}]");
        json_t *same = run_with("Unknown", "[{\"path\":\"P\",\"line\":5,\"text\":\"x\"}]");
        json_t *more = run_with("Unknown", "[{\"path\":\"P\",\"line\":5,\"text\":\"x\"},{\"path\":\"Q\"}]");
        json_t *worse = run_with("Fail", "[{\"path\":\"P\",\"line\":5,\"text\":\"x\"}]");
        int rc = -1;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_triage_apply(same, base, NULL, NULL, NULL, &rc, &e));
        T_EQ_INT(rc, 0);
        T_EQ_STR(status_at(same, 0), "baseline");
        T_ASSERT(prc_triage_apply(more, base, NULL, NULL, NULL, &rc, &e));
        T_EQ_INT(rc, 1);
        T_EQ_STR(status_at(more, 0), "baseline");
        T_EQ_STR(status_at(more, 1), "new");
        /* The same evidence under a worse state: reported, though no finding is new. */
        T_ASSERT(prc_triage_apply(worse, base, NULL, NULL, NULL, &rc, &e));
        T_EQ_INT(rc, 1);
        T_EQ_STR(status_at(worse, 0), "baseline");
        T_ASSERT(json_is_true(json_object_get(json_array_get(json_object_get(worse, "assertions"), 0), "reported")));
        T_NOERR(e);
        json_decref(base);
        json_decref(same);
        json_decref(more);
        json_decref(worse);
}

/* The SHA-256 of the operator's file, as the CLI gives it. */
#define SUPP_SHA256 "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"

static void test_report__suppressions_apply_until_expiry(void)
{
        json_t *run = run_with("Fail", "[{\"path\":\"P\",\"line\":3,\"text\":\"x\"}]"), *again, *supp;
        char buf[1024];
        int rc = -1;
        prc_err e;

        snprintf(buf, sizeof(buf), "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[{\"assertion\":\"A1\","
                 "\"digest\":\"%s\",\"reason\":\"ok\",\"expires\":\"2026-06-01\"},{\"assertion\":\"A2\","
                 "\"digest\":\"%064d\",\"reason\":\"stray\",\"expires\":\"2030-01-01\"}]}", digest_at(run, 0), 0);
        supp = json_loads(buf, 0, NULL);
        again = json_deep_copy(run);
        prc_err_init(&e);
        T_ASSERT(prc_suppressions_check(supp, &e));
        T_ASSERT(prc_triage_apply(run, NULL, supp, SUPP_SHA256, "2026-05-31T23:59:59Z", &rc, &e));
        T_EQ_INT(rc, 0);
        T_EQ_STR(status_at(run, 0), "suppressed");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(
                         run, "triage"), "suppressions"), "entries"), 1), "status")), "unmatched");
        T_ASSERT(prc_triage_apply(again, NULL, supp, SUPP_SHA256, "2026-06-01T00:00:00Z", &rc, &e));
        T_EQ_INT(rc, 1);
        T_EQ_STR(status_at(again, 0), "new");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(
                         again, "triage"), "suppressions"), "entries"), 0), "status")), "expired");
        json_decref(run);
        json_decref(again);
        json_decref(supp);
}

static void test_report__malformed_suppressions_are_refused(void)
{
        static const char *const bad[] = {
                "[]",
                "{\"schema\":\"prc.suppressions/v2\",\"suppressions\":[]}",
                "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[],\"x\":1}",
                "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[{\"assertion\":\"A\",\"digest\":\"00\","
                "\"reason\":\"r\",\"expires\":\"2026-01-01\"}]}",
                "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[{\"assertion\":\"A\",\"digest\":"
                "\"0000000000000000000000000000000000000000000000000000000000000000\",\"reason\":\"\","
                "\"expires\":\"2026-01-01\"}]}",
                "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[{\"assertion\":\"A\",\"digest\":"
                "\"0000000000000000000000000000000000000000000000000000000000000000\",\"reason\":\"r\","
                "\"expires\":\"2026-1-01\"}]}",
                "{\"schema\":\"prc.suppressions/v1\",\"suppressions\":[{\"assertion\":\"A\",\"digest\":"
                "\"0000000000000000000000000000000000000000000000000000000000000000\",\"reason\":\"r\","
                "\"expires\":\"2026-01-01\"},{\"assertion\":\"A\",\"digest\":"
                "\"0000000000000000000000000000000000000000000000000000000000000000\",\"reason\":\"r2\","
                "\"expires\":\"2027-01-01\"}]}",
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                json_t *v = json_loads(bad[i], 0, NULL);
                prc_err e;
                T_ASSERT(v != NULL);
                prc_err_init(&e);
                T_ASSERT(!prc_suppressions_check(v, &e));
                T_ERR(e, PRC_E_SUPPRESSIONS_INVALID);
                json_decref(v);
        }
}

static void test_report__runfile_check_needs_the_content_id(void)
{
        json_t *run = run_with("Fail", "[{\"path\":\"P\"}]");
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_runfile_check(run, "the result", &e));
        T_NOERR(e);
        /* Another id, or none, is refused: the id is the digest of the rest. */
        json_object_set_new(run, "id", json_string("0000000000000000000000000000000000000000000000000000000000000000"));
        T_ASSERT(!prc_runfile_check(run, "the result", &e));
        T_ERR(e, PRC_E_RUN_RESULT_INVALID);
        prc_err_init(&e);
        json_object_set_new(run, "id", json_string(""));
        T_ASSERT(!prc_runfile_check(run, "the result", &e));
        T_ERR(e, PRC_E_RUN_RESULT_INVALID);
        json_decref(run);
}

static void test_report__html_escape(void)
{
        prc_buf b;
        prc_err e;

        prc_buf_init(&b, 1024);
        prc_err_init(&e);
        T_ASSERT(prc_html_escape("a<b>&\"c'd", &b, &e));
        T_EQ_MEM(b.data, b.len, "a&lt;b&gt;&amp;&quot;c&#39;d", strlen("a&lt;b&gt;&amp;&quot;c&#39;d"));
        prc_buf_clear(&b);
}

/* The views never crash on a result that was not checked, whatever is missing (fuzz_report does more). */
static void test_report__views_survive_missing_fields(void)
{
        static const char *const docs[] = { "{}", "{\"assertions\":[{}]}", "{\"assertions\":[1,[],null]}",
                                            "{\"assertions\":[{\"state\":\"Fail\",\"findings\":[{},1]}]}" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(docs); i++) {
                json_t *v = json_loads(docs[i], 0, NULL), *s;
                prc_buf b;
                prc_err e;
                prc_buf_init(&b, 1 << 20);
                prc_err_init(&e);
                T_ASSERT(prc_html_from_run(v, &b, &e));
                s = prc_sarif_from_run(v, &e);
                json_decref(s);
                prc_buf_clear(&b);
                json_decref(v);
        }
}

static void test_report__policy_in_words(void)
{
        prc_outcome_policy p = { PRC_OUT_NOT_FOUND | PRC_OUT_VALUE, PRC_OUT_FOUND };
        char out[512];

        prc_policy_describe(&p, out, sizeof(out));
        T_ASSERT(strstr(out, "Fail when any observation is found; Pass when every observation is not_found or "
                             "value;") == out);
        prc_policy_describe(&(prc_outcome_policy){ PRC_OUT_FOUND, 0 }, out, sizeof(out));
        T_ASSERT(strncmp(out, "Pass when every observation is found;", 37) == 0);
}

static const prc_test tests[] = {
        T(test_report__digest_leaves_lines_out_and_counts_repeats),
        T(test_report__baseline_marks_new_and_worse),
        T(test_report__suppressions_apply_until_expiry),
        T(test_report__malformed_suppressions_are_refused),
        T(test_report__runfile_check_needs_the_content_id),
        T(test_report__html_escape),
        T(test_report__views_survive_missing_fields),
        T(test_report__policy_in_words),
};
PRC_SUITE(report, tests)
