/*
 * test_fixture.c - fixture suite refusals not covered by the CLI tests
 * (tests/cli/test_adapter.sh tampers with the checked-in suite): case ids,
 * categories, expectation vocabulary, limits below 1, non-regular files,
 * and a report for a minimal suite.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "adapter/fixture.h"
#include "adapter/manifest.h"
#include "adapter_manifest_json.h"
#include "base/digest.h"

#define SUMMARY "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":0,\"artifacts\":0}}\n"

static char msha[PRC_SHA256_HEX + 1], tsha[PRC_SHA256_HEX + 1];

/* A suite dir with the test manifest and one transcript; returns the suite path for cases_json. */
static const char *suite(const char *cases_json)
{
        static char path[4200];
        char text[8192];
        prc_err err;
        prc_manifest *m;

        prc_err_init(&err);
        m = prc_manifest_parse((const uint8_t *)T_MANIFEST_JSON, strlen(T_MANIFEST_JSON), PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        snprintf(msha, sizeof(msha), "%s", prc_manifest_sha256(m));
        prc_manifest_free(m);
        T_ASSERT(prc_sha256_hex_once(SUMMARY, strlen(SUMMARY), tsha, &err));
        t_write(t_tmpdir(), "m.json", T_MANIFEST_JSON, strlen(T_MANIFEST_JSON));
        t_write(t_tmpdir(), "t.jsonl", SUMMARY, strlen(SUMMARY));
        snprintf(text, sizeof(text), "{\"schema\":\"prc.adapter-fixture-suite/v1\",\"manifest\":{\"path\":\"m.json\","
                 "\"sha256\":\"%s\"},\"cases\":%s}", msha, cases_json);
        snprintf(path, sizeof(path), "%s", t_write(t_tmpdir(), "suite.json", text, strlen(text)));
        return path;
}

#define EXPECT_OK "{\"disposition\":\"accepted\",\"summary_status\":\"completed\",\"error_class\":null,\"line\":null," \
                  "\"observations\":[]}"

static const char *one_case(const char *id, const char *cat, const char *extra, const char *expect)
{
        static char c[4096];

        snprintf(c, sizeof(c), "[{\"id\":\"%s\",\"category\":\"%s\",\"transcript\":\"t.jsonl\",\"sha256\":\"%s\"%s,"
                 "\"expect\":%s}]", id, cat, tsha, extra, expect);
        return c;
}

static prc_errclass run_suite(const char *path, json_t **out)
{
        prc_err err;
        json_t *r;

        prc_err_init(&err);
        r = prc_fixture_validate(path, &err);
        T_ASSERT((r == NULL) == (err.cls != PRC_E_OK));
        if (out != NULL)
                *out = r;
        else
                json_decref(r);
        return err.cls;
}

static void test_fixture__minimal_suite_reports_a_match(void)
{
        json_t *r;
        const char *p;

        suite("[]");    /* fills tsha */
        p = suite(one_case("c1", "completed", "", EXPECT_OK));
        T_EQ_INT(run_suite(p, &r), PRC_E_OK);
        T_ASSERT(json_is_true(json_object_get(r, "ok")));
        T_EQ_STR(json_string_value(json_object_get(json_object_get(r, "manifest"), "sha256")), msha);
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(r, "corpus"), "files")), 2);
        T_EQ_INT(json_array_size(json_object_get(json_array_get(json_object_get(r, "cases"), 0), "evaluations")), 2);
        json_decref(r);
}

static void test_fixture__suite_structure_refusals(void)
{
        char two[8192];

        suite("[]");
        T_EQ_INT(run_suite(suite("[]"), NULL), PRC_E_INVALID_VALUE);
        T_EQ_INT(run_suite(suite(one_case("Bad Id", "completed", "", EXPECT_OK)), NULL), PRC_E_INVALID_ID);
        T_EQ_INT(run_suite(suite(one_case("c1", "benchmark", "", EXPECT_OK)), NULL), PRC_E_INVALID_VALUE);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", "",
                                          "{\"disposition\":\"maybe\",\"summary_status\":null,\"error_class\":null,"
                                          "\"line\":null,\"observations\":[]}")), NULL), PRC_E_INVALID_VALUE);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", "",
                                          "{\"disposition\":\"rejected\",\"summary_status\":null,\"error_class\":"
                                          "\"no-such-class\",\"line\":1,\"observations\":[]}")), NULL),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", "", "{\"disposition\":\"accepted\"}")), NULL),
                 PRC_E_MISSING_FIELD);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", ",\"limits\":{\"messages\":0}", EXPECT_OK)), NULL),
                 PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", ",\"limits\":{\"messages\":5001}", EXPECT_OK)), NULL),
                 PRC_E_FIXTURE_LIMIT_RAISED);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", ",\"execution\":{\"exit_status\":300,\"timed_out\":false,"
                                          "\"memory_limit\":false}", EXPECT_OK)), NULL), PRC_E_INVALID_VALUE);
        T_EQ_INT(run_suite(suite(one_case("c1", "completed", ",\"verdict\":\"pass\"", EXPECT_OK)), NULL),
                 PRC_E_AUTHORITY_CLAIM);
        snprintf(two, sizeof(two), "[%.*s,%s", (int)strlen(one_case("c1", "completed", "", EXPECT_OK)) - 2,
                 one_case("c1", "completed", "", EXPECT_OK) + 1, one_case("c1", "completed", "", EXPECT_OK) + 1);
        T_EQ_INT(run_suite(suite(two), NULL), PRC_E_DUPLICATE_ID);
}

static void test_fixture__transcripts_must_be_regular_files_inside(void)
{
        char dir[4200];
        const char *p;
        char c[4096];

        suite("[]");
        snprintf(dir, sizeof(dir), "%s/d", t_tmpdir());
        T_ASSERT(mkdir(dir, 0755) == 0);
        snprintf(c, sizeof(c), "[{\"id\":\"c1\",\"category\":\"completed\",\"transcript\":\"d\",\"sha256\":\"%s\","
                 "\"expect\":" EXPECT_OK "}]", tsha);
        p = suite(c);
        T_EQ_INT(run_suite(p, NULL), PRC_E_IO);
        /* a FIFO is refused before it is opened (opening it would block) */
        snprintf(dir, sizeof(dir), "%s/fifo", t_tmpdir());
        T_ASSERT(mkfifo(dir, 0644) == 0);
        snprintf(c, sizeof(c), "[{\"id\":\"c1\",\"category\":\"completed\",\"transcript\":\"fifo\",\"sha256\":\"%s\","
                 "\"expect\":" EXPECT_OK "}]", tsha);
        T_EQ_INT(run_suite(suite(c), NULL), PRC_E_IO);
        snprintf(c, sizeof(c), "[{\"id\":\"c1\",\"category\":\"completed\",\"transcript\":\"a//t.jsonl\","
                 "\"sha256\":\"%s\",\"expect\":" EXPECT_OK "}]", tsha);
        T_EQ_INT(run_suite(suite(c), NULL), PRC_E_INVALID_PATH);
        snprintf(c, sizeof(c), "[{\"id\":\"c1\",\"category\":\"completed\",\"transcript\":\"missing.jsonl\","
                 "\"sha256\":\"%s\",\"expect\":" EXPECT_OK "}]", tsha);
        T_EQ_INT(run_suite(suite(c), NULL), PRC_E_IO);
}

static const prc_test tests[] = {
        T(test_fixture__minimal_suite_reports_a_match),
        T(test_fixture__suite_structure_refusals),
        T(test_fixture__transcripts_must_be_regular_files_inside),
};
PRC_SUITE(fixture, tests)
