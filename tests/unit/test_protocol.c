/*
 * test_protocol.c - the prc-adapter-jsonl-v1 decoder: one check per error
 * class of issue 3, the order of checks, chunking independence, the
 * execution-end rules, the request builder and the stderr meter.
 */
#include "t.h"

#include <stdlib.h>

#include "adapter/authority.h"
#include "adapter/manifest.h"
#include "adapter/protocol.h"
#include "adapter_manifest_json.h"

#define H64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SUM(l, o, a) "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":" #l \
                     ",\"observations\":" #o ",\"artifacts\":" #a "}}\n"
#define LOG "{\"type\":\"log\",\"level\":\"info\",\"message\":\"hi\"}\n"
#define OBS(id) "{\"type\":\"observation\",\"id\":\"" id "\",\"kind\":\"fixture.secret\",\"outcome\":\"not_found\"}\n"
#define ART(id) "{\"type\":\"artifact\",\"id\":\"" id "\",\"path\":\"out/r.json\",\"media_type\":\"application/json\"," \
                "\"size\":12,\"sha256\":\"" H64 "\"}\n"

static prc_manifest *manifest(void)
{
        prc_err err;
        prc_manifest *m;

        prc_err_init(&err);
        m = prc_manifest_parse((const uint8_t *)T_MANIFEST_JSON, strlen(T_MANIFEST_JSON), PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_ASSERT(m != NULL);
        return m;
}

/* Decode s in one piece; check class and line (PRC_E_OK: accepted). */
static void expect_lim(const char *s, size_t n, const prc_proto_limits *lim, prc_errclass c, uint32_t line)
{
        prc_manifest *m = manifest();
        prc_err err;
        prc_decoder *d;

        prc_err_init(&err);
        d = prc_decode_transcript(m, lim, s, n, NULL, &err);
        T_NOERR(err);
        T_ASSERT(d != NULL);
        T_ERR(*prc_decoder_error(d), c);
        T_EQ_INT(prc_decoder_disposition(d), c == PRC_E_OK ? PRC_DISP_ACCEPTED : PRC_DISP_REJECTED);
        if (c != PRC_E_OK)
                T_EQ_INT(prc_decoder_error(d)->line, line);
        prc_decoder_free(d);
        prc_manifest_free(m);
}

static void expect(const char *s, prc_errclass c, uint32_t line)
{
        expect_lim(s, strlen(s), NULL, c, line);
}

static void test_protocol__valid_transcript_with_every_optional_field_is_accepted(void)
{
        static const char t[] =
                LOG
                "{\"type\":\"log\",\"level\":\"debug\",\"message\":\"\"}\n"
                ART("report")
                "{\"type\":\"observation\",\"id\":\"o1\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
                "\"locations\":[{\"path\":\"src/a.c\",\"start_line\":3,\"end_line\":4,\"start_column\":7,"
                "\"end_column\":2},{\"path\":\"b\",\"start_line\":1}],\"artifact\":\"report\",\"message\":\"m\"}\n"
                "{\"type\":\"observation\",\"id\":\"o2\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\","
                "\"value\":{\"components\":[{\"name\":\"x\",\"n\":9007199254740991}]}}\n"
                "{\"type\":\"observation\",\"id\":\"o3\",\"kind\":\"fixture.license\",\"outcome\":\"unsupported\"}\n"
                OBS("o4")
                SUM(2, 4, 1);
        prc_manifest *m = manifest();
        prc_err err;
        prc_decoder *d;
        const json_t *obs;

        prc_err_init(&err);
        d = prc_decode_transcript(m, NULL, t, sizeof(t) - 1, NULL, &err);
        T_ASSERT(d != NULL);
        T_NOERR(*prc_decoder_error(d));
        T_EQ_INT(prc_decoder_disposition(d), PRC_DISP_ACCEPTED);
        T_EQ_STR(prc_decoder_summary_status(d), "completed");
        obs = prc_decoder_observations(d);
        T_EQ_INT(json_array_size(obs), 4);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(obs, 1), "outcome")), "value");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(obs, 0), "artifact")), "report");
        T_EQ_INT(json_array_size(prc_decoder_artifacts(d)), 1);
        T_EQ_INT(prc_decoder_log_count(d), 2);
        T_EQ_INT(prc_decoder_lines(d), 8);
        T_EQ_INT(prc_decoder_bytes(d), sizeof(t) - 1);
        T_EQ_INT(strlen(prc_decoder_stdout_sha256(d)), 64);
        prc_decoder_free(d);
        prc_manifest_free(m);
}

static void test_protocol__summary_statuses_unsupported_and_failed_are_accepted(void)
{
        expect("{\"type\":\"summary\",\"status\":\"unsupported\",\"counters\":{\"logs\":0,\"observations\":0,"
               "\"artifacts\":0}}\n", PRC_E_OK, 0);
        expect(LOG "{\"type\":\"summary\",\"status\":\"failed\",\"counters\":{\"logs\":1,\"observations\":0,"
               "\"artifacts\":0}}\n", PRC_E_OK, 0);
}

static void test_protocol__json_level_errors(void)
{
        expect(LOG "{\"type\":\"log\",\n", PRC_E_INVALID_JSON, 2);
        expect("{\"type\":\"log\",\"level\":\"info\",\"message\":\"\xff\"}\n" SUM(1, 0, 0), PRC_E_INVALID_UTF8, 1);
        expect("{\"type\":\"log\",\"level\":\"info\",\"message\":\"\xed\xa0\x80\"}\n", PRC_E_INVALID_UTF8, 1);
        expect_lim("{\"type\":\"log\",\"level\":\"info\",\"message\":\"\0\"}\n", 45, NULL, PRC_E_NUL_BYTE, 1);
        expect("{\"type\":\"log\",\"level\":\"info\",\"message\":\"\\u0000\"}\n", PRC_E_NUL_BYTE, 1);
        expect("[{\"type\":\"log\"}]\n", PRC_E_NOT_AN_OBJECT, 1);
        expect("\"summary\"\n", PRC_E_NOT_AN_OBJECT, 1);
        expect(LOG "{\"type\":\"log\",\"level\":\"info\",\"message\":\"a\",\"message\":\"b\"}\n",
               PRC_E_DUPLICATE_FIELD, 2);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\","
               "\"value\":{\"a\":1,\"a\":2}}\n", PRC_E_DUPLICATE_FIELD, 1);
}

static void test_protocol__field_table_errors(void)
{
        expect("{\"type\":\"log\",\"level\":\"info\",\"message\":\"a\",\"extra\":1}\n", PRC_E_UNKNOWN_FIELD, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"a\",\"start_line\":1,\"line\":2}]}\n", PRC_E_UNKNOWN_FIELD, 1);
        expect("{\"type\":\"log\",\"level\":\"info\"}\n", PRC_E_MISSING_FIELD, 1);
        expect("{\"level\":\"info\",\"message\":\"a\"}\n", PRC_E_MISSING_FIELD, 1);
        expect("{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":0}}\n",
               PRC_E_MISSING_FIELD, 1);
        expect("{\"type\":\"log\",\"level\":3,\"message\":\"a\"}\n", PRC_E_WRONG_TYPE, 1);
        expect("{\"type\":7}\n", PRC_E_WRONG_TYPE, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\","
               "\"value\":[1]}\n", PRC_E_WRONG_TYPE, 1);
        expect("{\"type\":\"hello\",\"protocol\":\"prc-adapter-jsonl-v1\"}\n", PRC_E_UNKNOWN_MESSAGE_TYPE, 1);
        expect("{\"type\":\"Observation\"}\n", PRC_E_UNKNOWN_MESSAGE_TYPE, 1);
        expect("{\"type\":\"log\",\"level\":\"fatal\",\"message\":\"a\"}\n", PRC_E_INVALID_VALUE, 1);
}

static void test_protocol__line_framing_errors(void)
{
        prc_proto_limits lim = { 60, 100, 1 << 20 };

        expect(LOG "\n" SUM(1, 0, 0), PRC_E_BLANK_LINE, 2);
        expect(" \t\r\n", PRC_E_BLANK_LINE, 1);
        expect(LOG SUM(1, 0, 0) "\n", PRC_E_MESSAGE_AFTER_SUMMARY, 3);
        expect(SUM(0, 0, 0) LOG, PRC_E_MESSAGE_AFTER_SUMMARY, 2);
        expect(SUM(0, 0, 0) SUM(0, 0, 0), PRC_E_MESSAGE_AFTER_SUMMARY, 2);
        expect(LOG "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":1,\"observations\":0,"
               "\"artifacts\":0}}", PRC_E_UNTERMINATED_LINE, 2);
        expect(LOG LOG, PRC_E_MISSING_SUMMARY, 3);
        expect("", PRC_E_MISSING_SUMMARY, 1);
        const char *t = LOG "{\"type\":\"log\",\"level\":\"info\",\"message\":\"0123456789abcdef0123\"}\n";
        expect_lim(t, strlen(t), &lim, PRC_E_LINE_TOO_LONG, 2);
}

static void test_protocol__line_cap_is_enforced_before_the_newline_arrives(void)
{
        prc_manifest *m = manifest();
        prc_proto_limits lim = { 10, 100, 1 << 20 };
        prc_err err;
        prc_decoder *d;
        int fed = 0;

        prc_err_init(&err);
        d = prc_decoder_new(m, &lim, &err);
        T_ASSERT(d != NULL);
        /* an endless line: refused after 11 bytes, no newline needed */
        for (fed = 0; fed < 1000; fed++)
                if (!prc_decoder_feed(d, "x", 1))
                        break;
        T_EQ_INT(fed, 10);
        T_ERR(*prc_decoder_error(d), PRC_E_LINE_TOO_LONG);
        T_EQ_INT(prc_decoder_error(d)->line, 1);
        T_ASSERT(!prc_decoder_finish(d, NULL));
        T_ERR(*prc_decoder_error(d), PRC_E_LINE_TOO_LONG);
        prc_decoder_free(d);
        prc_manifest_free(m);
}

static void test_protocol__message_and_stdout_limits(void)
{
        prc_proto_limits two = { 4096, 2, 1 << 20 };
        prc_proto_limits small = { 4096, 100, 60 };
        const char *t = LOG LOG SUM(2, 0, 0);

        expect_lim(t, strlen(t), &two, PRC_E_TOO_MANY_MESSAGES, 3);
        expect_lim(t, strlen(t), &small, PRC_E_STDOUT_LIMIT, 2);
        /* exactly at the ceiling is fine */
        small.stdout_bytes = strlen(t);
        expect_lim(t, strlen(t), &small, PRC_E_OK, 0);
        two.messages = 3;
        expect_lim(t, strlen(t), &two, PRC_E_OK, 0);
}

static void test_protocol__paths_digests_and_media_types(void)
{
        static const char *const bad_paths[] = { "/etc/passwd", "../x", "a/../../b", "a//b", "./a", "a/",
                                                 "a\\\\b", "" };
        char line[512];

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad_paths); i++) {
                snprintf(line, sizeof(line), "{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"%s\","
                         "\"media_type\":\"text/plain\",\"size\":1,\"sha256\":\"" H64 "\"}\n", bad_paths[i]);
                expect(line, PRC_E_INVALID_PATH, 1);
                snprintf(line, sizeof(line), "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\","
                         "\"outcome\":\"found\",\"locations\":[{\"path\":\"%s\",\"start_line\":1}]}\n", bad_paths[i]);
                expect(line, PRC_E_INVALID_PATH, 1);
        }
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\",\"size\":1,"
               "\"sha256\":\"" "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" "\"}\n",
               PRC_E_INVALID_DIGEST, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\",\"size\":1,"
               "\"sha256\":\"abc\"}\n", PRC_E_INVALID_DIGEST, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"json\",\"size\":1,"
               "\"sha256\":\"" H64 "\"}\n", PRC_E_INVALID_MEDIA_TYPE, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"application/vnd.cyclonedx+json;"
               "version=1.7\",\"size\":1,\"sha256\":\"" H64 "\"}\n" SUM(0, 0, 1), PRC_E_OK, 0);
}

static void test_protocol__statuses_outcomes_locations_counters(void)
{
        expect("{\"type\":\"summary\",\"status\":\"done\",\"counters\":{\"logs\":0,\"observations\":0,"
               "\"artifacts\":0}}\n", PRC_E_INVALID_STATUS, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"maybe\"}\n",
               PRC_E_INVALID_OUTCOME, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"a\",\"start_line\":0}]}\n", PRC_E_INVALID_LOCATION, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"a\",\"start_line\":5,\"end_line\":4}]}\n", PRC_E_INVALID_LOCATION, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"a\",\"start_line\":5,\"start_column\":9,\"end_column\":2}]}\n",
               PRC_E_INVALID_LOCATION, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"a\",\"start_line\":1,\"end_column\":-1}]}\n", PRC_E_INVALID_LOCATION, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"locations\":[7]}\n", PRC_E_NOT_AN_OBJECT, 1);
        expect(LOG "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":-1,\"observations\":0,"
               "\"artifacts\":0}}\n", PRC_E_INVALID_COUNTER, 2);
        expect(LOG SUM(2, 0, 0), PRC_E_COUNTER_MISMATCH, 2);
        expect(OBS("a") SUM(0, 0, 0), PRC_E_COUNTER_MISMATCH, 2);
        expect(ART("a") SUM(0, 0, 0), PRC_E_COUNTER_MISMATCH, 2);
}

static void test_protocol__ids_artifacts_values_kinds_numbers(void)
{
        expect(OBS("Bad Id"), PRC_E_INVALID_ID, 1);
        expect(OBS("-leading"), PRC_E_INVALID_ID, 1);
        expect(ART("a/b"), PRC_E_INVALID_ID, 1);
        expect(OBS("o1") OBS("o1"), PRC_E_DUPLICATE_ID, 2);
        expect(ART("r") ART("r"), PRC_E_DUPLICATE_ID, 2);
        /* ids are unique per kind of message */
        expect(ART("x") OBS("x") SUM(0, 1, 1), PRC_E_OK, 0);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"artifact\":\"later\"}\n" ART("later"), PRC_E_UNKNOWN_ARTIFACT, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
               "\"value\":{}}\n", PRC_E_VALUE_OUTCOME_MISMATCH, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\"}\n",
               PRC_E_VALUE_OUTCOME_MISMATCH, 1);
        expect("{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.other\",\"outcome\":\"found\"}\n",
               PRC_E_UNDECLARED_KIND, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\",\"size\":1.0,"
               "\"sha256\":\"" H64 "\"}\n", PRC_E_UNSAFE_NUMBER, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\","
               "\"size\":9007199254740992,\"sha256\":\"" H64 "\"}\n", PRC_E_UNSAFE_NUMBER, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\",\"size\":-1,"
               "\"sha256\":\"" H64 "\"}\n", PRC_E_UNSAFE_NUMBER, 1);
        expect("{\"type\":\"artifact\",\"id\":\"a\",\"path\":\"r\",\"media_type\":\"text/plain\","
               "\"size\":1e3,\"sha256\":\"" H64 "\"}\n", PRC_E_UNSAFE_NUMBER, 1);
}

static void test_protocol__authority_claims_at_any_depth(void)
{
        static const char *const lines[] = {
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\",\"pass\":true}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"pass\"}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"Failed\"}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\",\"status\":\"ok\"}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\","
                "\"value\":{\"a\":[{\"b\":{\"suppressed\":true}}]}}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\","
                "\"locations\":[{\"path\":\"a\",\"start_line\":1,\"waiver\":\"x\"}]}",
                "{\"type\":\"summary\",\"status\":\"passed\",\"counters\":{\"logs\":0,\"observations\":0,\"artifacts\":0}}",
                "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":0,"
                "\"artifacts\":0,\"result\":1}}",
                "{\"type\":\"summary\",\"status\":\"completed\",\"verdict\":\"pass\",\"counters\":{}}",
                "{\"type\":\"log\",\"level\":\"info\",\"message\":\"m\",\"Severity-Override\":\"low\"}",
                "{\"type\":\"log\",\"level\":\"info\",\"message\":\"m\",\"allowlisted\":true}",
                "{\"type\":\"artifact\",\"id\":\"a\",\"baseline\":\"x\"}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\",\"control\":\"C-1\"}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\",\"assertionId\":1,\"policy\":{}}",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.secret\",\"outcome\":\"found\",\"decision\":\"allow\"}",
        };
        char buf[512];

        for (size_t i = 0; i < PRC_ARRAY_LEN(lines); i++) {
                snprintf(buf, sizeof(buf), "{\"type\":\"log\",\"level\":\"info\",\"message\":\"hi\"}\n%s\n", lines[i]);
                expect(buf, PRC_E_AUTHORITY_CLAIM, 2);
        }
}

static void test_protocol__authority_words_fold_case_and_separators(void)
{
        T_ASSERT(prc_authority_lists_ok());
        T_EQ_STR(prc_authority_key("Severity_Override", 17, PRC_AUTH_EVALUATOR), "severityoverride");
        T_EQ_STR(prc_authority_key("allow-listed", 12, PRC_AUTH_EVALUATOR), "allowlisted");
        T_EQ_STR(prc_authority_key("firstParty", 10, PRC_AUTH_TRUST), "firstparty");
        T_ASSERT(prc_authority_key("firstParty", 10, PRC_AUTH_EVALUATOR) == NULL);
        T_ASSERT(prc_authority_key("path", 4, PRC_AUTH_EVALUATOR | PRC_AUTH_TRUST) == NULL);
        T_ASSERT(prc_authority_key("passes_through_a_very_long_key_name", 35, PRC_AUTH_EVALUATOR) == NULL);
        T_EQ_STR(prc_authority_value("PASS", 4), "pass");
        T_ASSERT(prc_authority_value("found", 5) == NULL);
        /* every list entry is found again (the bsearch sees a sorted list) */
        T_ASSERT(prc_authority_key("whitelisted", 11, PRC_AUTH_EVALUATOR) != NULL);
        T_ASSERT(prc_authority_key("allow", 5, PRC_AUTH_EVALUATOR) != NULL);
        T_ASSERT(prc_authority_value("waived", 6) != NULL);
}

static void test_protocol__observation_briefs_match_the_full_objects(void)
{
        static const char t[] = ART("r") OBS("a") "{\"type\":\"observation\",\"id\":\"b\",\"kind\":\"fixture.sbom\","
                                "\"outcome\":\"value\",\"value\":{\"n\":1}}\n" SUM(0, 2, 1);
        prc_manifest *m = manifest();
        prc_err err;
        prc_decoder *d;
        const char *id, *kind, *outcome;

        prc_err_init(&err);
        d = prc_decode_transcript(m, NULL, t, sizeof(t) - 1, NULL, &err);
        T_EQ_INT(prc_decoder_observation_count(d), 2);
        T_ASSERT(prc_decoder_observation_brief(d, 1, &id, &kind, &outcome));
        T_EQ_STR(id, "b");
        T_EQ_STR(kind, "fixture.sbom");
        T_EQ_STR(outcome, "value");
        T_ASSERT(!prc_decoder_observation_brief(d, 2, &id, &kind, &outcome));
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(json_array_get(prc_decoder_observations(d), 1),
                                                                    "value"), "n")), 1);
        /* the same pointer on a second call: built once */
        T_ASSERT(prc_decoder_observations(d) == prc_decoder_observations(d));
        prc_decoder_free(d);
        /* briefs-only mode keeps the briefs and never builds the objects */
        d = prc_decoder_new(m, NULL, &err);
        prc_decoder_keep_briefs_only(d);
        (void)prc_decoder_feed(d, t, sizeof(t) - 1);
        T_ASSERT(prc_decoder_finish(d, NULL));
        T_EQ_INT(prc_decoder_observation_count(d), 2);
        T_ASSERT(prc_decoder_observation_brief(d, 0, &id, &kind, &outcome));
        T_EQ_STR(outcome, "not_found");
        T_EQ_INT(json_array_size(prc_decoder_observations(d)), 0);
        prc_decoder_free(d);
        /* rejected output has no observations at all */
        d = prc_decode_transcript(m, NULL, OBS("a"), strlen(OBS("a")), NULL, &err);
        T_EQ_INT(prc_decoder_observation_count(d), 0);
        T_ASSERT(!prc_decoder_observation_brief(d, 0, &id, &kind, &outcome));
        T_EQ_INT(json_array_size(prc_decoder_observations(d)), 0);
        T_ASSERT(prc_decoder_summary_status(d) == NULL);
        prc_decoder_free(d);
        prc_manifest_free(m);
}

static void test_protocol__many_ids_stay_unique(void)
{
        prc_manifest *m;
        prc_err err;
        prc_decoder *d;
        char line[160];
        prc_proto_limits lim = { 4096, 5000, 1 << 20 };

        /* the id set grows past its first table (1024 slots); a late duplicate of an early id is still caught */
        m = manifest();
        prc_err_init(&err);
        d = prc_decoder_new(m, &lim, &err);
        for (int i = 0; i < 1500; i++) {
                snprintf(line, sizeof(line), "{\"type\":\"observation\",\"id\":\"o%d\",\"kind\":\"fixture.secret\","
                         "\"outcome\":\"found\"}\n", i % 1400);
                (void)prc_decoder_feed(d, line, strlen(line));
        }
        T_ERR(*prc_decoder_error(d), PRC_E_DUPLICATE_ID);
        T_EQ_INT(prc_decoder_error(d)->line, 1401);
        prc_decoder_free(d);
        prc_manifest_free(m);
}

static void test_protocol__errors_never_echo_adapter_bytes(void)
{
        static const char *const t[] = {
                "{\"type\":\"log\",\"level\":\"info\",\"message\":\"a\",\"SECRETKEY\":1}\n",
                "{\"type\":\"log\",\"level\":\"info\",\"message\":SECRETTOKEN}\n",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"SECRET\",\"outcome\":\"found\"}\n",
                "{\"type\":\"observation\",\"id\":\"o\",\"kind\":\"fixture.sbom\",\"outcome\":\"value\","
                "\"value\":{\"SECRET\":{\"suppress\":1}}}\n",
        };
        prc_manifest *m = manifest();

        for (size_t i = 0; i < PRC_ARRAY_LEN(t); i++) {
                prc_err err;
                char out[1024];
                prc_decoder *d;

                prc_err_init(&err);
                d = prc_decode_transcript(m, NULL, t[i], strlen(t[i]), NULL, &err);
                T_ASSERT(d != NULL);
                T_EQ_INT(prc_decoder_disposition(d), PRC_DISP_REJECTED);
                prc_err_format(prc_decoder_error(d), out, sizeof(out));
                if (strstr(out, "SECRET") != NULL)
                        t_fail(__FILE__, __LINE__, "error echoes adapter bytes: %s", out);
                prc_decoder_free(d);
        }
        prc_manifest_free(m);
}

static void test_protocol__chunking_does_not_change_the_result(void)
{
        static const char *const t[] = {
                LOG ART("r") OBS("o") SUM(1, 1, 1),
                LOG "{\"type\":\"log\",\"pass\":1}\n",
                LOG "\n",
                LOG SUM(1, 0, 0) "x",
                LOG "{\"type\":\"log\"",
        };
        prc_manifest *m = manifest();

        for (size_t i = 0; i < PRC_ARRAY_LEN(t); i++) {
                prc_err err;
                prc_decoder *one, *bytes;
                size_t n = strlen(t[i]);

                prc_err_init(&err);
                one = prc_decode_transcript(m, NULL, t[i], n, NULL, &err);
                bytes = prc_decoder_new(m, NULL, &err);
                T_ASSERT(one != NULL && bytes != NULL);
                for (size_t k = 0; k < n; k++)
                        (void)prc_decoder_feed(bytes, t[i] + k, 1);
                (void)prc_decoder_finish(bytes, NULL);
                T_EQ_INT(prc_decoder_disposition(one), prc_decoder_disposition(bytes));
                T_EQ_INT(prc_decoder_error(one)->cls, prc_decoder_error(bytes)->cls);
                T_EQ_INT(prc_decoder_error(one)->line, prc_decoder_error(bytes)->line);
                prc_decoder_free(one);
                prc_decoder_free(bytes);
        }
        prc_manifest_free(m);
}

static void test_protocol__execution_end_rules(void)
{
        prc_manifest *m = manifest();
        const char *ok = LOG SUM(1, 0, 0), *partial = LOG "{\"type\":\"obs";
        prc_exec_end timeout = { 137, true, false }, oom = { 137, false, true }, exit1 = { 1, false, false };
        prc_err err;
        prc_decoder *d;

        prc_err_init(&err);
        d = prc_decode_transcript(m, NULL, partial, strlen(partial), &timeout, &err);
        T_ERR(*prc_decoder_error(d), PRC_E_ADAPTER_TIMED_OUT);
        T_EQ_INT(prc_decoder_error(d)->line, 0);
        T_EQ_INT(json_array_size(prc_decoder_observations(d)), 0);
        prc_decoder_free(d);
        d = prc_decode_transcript(m, NULL, ok, strlen(ok), &oom, &err);
        T_ERR(*prc_decoder_error(d), PRC_E_ADAPTER_MEMORY_LIMIT);
        prc_decoder_free(d);
        d = prc_decode_transcript(m, NULL, ok, strlen(ok), &exit1, &err);
        T_ERR(*prc_decoder_error(d), PRC_E_ADAPTER_EXIT_STATUS);
        prc_decoder_free(d);
        /* an earlier line error is the first error, even when the run then timed out */
        d = prc_decode_transcript(m, NULL, "\n", 1, &timeout, &err);
        T_ERR(*prc_decoder_error(d), PRC_E_BLANK_LINE);
        prc_decoder_free(d);
        T_NOERR(err);
        prc_manifest_free(m);
}

static void test_protocol__decoder_refuses_raised_limits(void)
{
        prc_manifest *m = manifest();
        prc_proto_limits raise = { 4097, 100, 1 << 20 }, zero = { 4096, 0, 1 << 20 }, more = { 4096, 5001, 1 << 20 };
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_decoder_new(m, &raise, &err) == NULL);
        T_ERR(err, PRC_E_LIMIT_OUT_OF_RANGE);
        prc_err_init(&err);
        T_ASSERT(prc_decoder_new(m, &zero, &err) == NULL);
        T_ERR(err, PRC_E_LIMIT_OUT_OF_RANGE);
        prc_err_init(&err);
        T_ASSERT(prc_decoder_new(m, &more, &err) == NULL);
        T_ERR(err, PRC_E_LIMIT_OUT_OF_RANGE);
        prc_manifest_free(m);
}

static void test_protocol__request_builder_writes_three_canonical_lines(void)
{
        prc_buf b;
        prc_err err;
        json_t *facts = json_pack("{s:i}", "files", 3);

        prc_buf_init(&b, 4096);
        prc_err_init(&err);
        T_ASSERT(prc_proto_write_request(H64, "example", H64, facts, NULL, &b, &err));
        T_EQ_STR(prc_buf_cstr(&b),
                 "{\"protocol\":\"prc-adapter-jsonl-v1\",\"run_id\":\"" H64 "\",\"type\":\"hello\"}\n"
                 "{\"config\":{},\"facts\":{\"files\":3},\"subject\":{\"inventory_digest\":\"" H64 "\","
                 "\"target_name\":\"example\"},\"type\":\"input\"}\n"
                 "{\"type\":\"execute\"}\n");
        prc_buf_reset(&b);
        T_ASSERT(!prc_proto_write_request("ABC", "example", H64, NULL, NULL, &b, &err));
        T_ERR(err, PRC_E_INVALID_DIGEST);
        T_EQ_INT(b.len, 0);
        prc_err_init(&err);
        T_ASSERT(!prc_proto_write_request(H64, "", H64, NULL, NULL, &b, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        prc_err_init(&err);
        prc_buf_clear(&b);
        prc_buf_init(&b, 64);
        T_ASSERT(!prc_proto_write_request(H64, "example", H64, NULL, NULL, &b, &err));
        T_ERR(err, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        json_decref(facts);
}

static void test_protocol__stderr_meter_keeps_only_count_and_digest(void)
{
        prc_stderr_meter s;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_stderr_meter_init(&s, 4, &err));
        T_ASSERT(prc_stderr_meter_feed(&s, "abc", 3, &err));
        T_ASSERT(!prc_stderr_meter_over(&s));
        T_ASSERT(prc_stderr_meter_feed(&s, "de", 2, &err));
        T_ASSERT(prc_stderr_meter_over(&s));
        T_ASSERT(prc_stderr_meter_finish(&s, &err));
        T_EQ_INT(s.bytes, 5);
        T_EQ_STR(s.sha256, "36bbe50ed96841d10443bcb670d6554f0a34b761be67ec9c4a8ad2c0c44ca42c");
        prc_stderr_meter_clear(&s);
}

/*
 * Hostile-path sweep over the checked-in valid transcript: every truncation
 * and every single-bit flip gives exactly one outcome, a proper prefix is
 * never accepted, and an accepted flip still satisfies the invariants.
 */
static void test_protocol__truncation_and_bitflip_sweep(void)
{
        char path[4200];
        size_t n;
        char *t, *c;
        prc_manifest *m = manifest();
        prc_err err;

        snprintf(path, sizeof(path), "%s/fixtures/adapters/valid-output.jsonl", t_root());
        t = t_read(path, &n);
        c = malloc(n);
        T_ASSERT(c != NULL);
        prc_err_init(&err);
        for (size_t k = 0; k < n; k++) {
                prc_decoder *d = prc_decode_transcript(m, NULL, t, k, NULL, &err);
                T_EQ_INT(prc_decoder_disposition(d), PRC_DISP_REJECTED);
                T_ASSERT(prc_decoder_error(d)->cls != PRC_E_OK);
                T_ASSERT(prc_decoder_error(d)->line >= 1);
                prc_decoder_free(d);
        }
        for (size_t k = 0; k < n; k++) {
                for (int bit = 0; bit < 8; bit++) {
                        prc_decoder *d;
                        memcpy(c, t, n);
                        c[k] = (char)(c[k] ^ (1 << bit));
                        d = prc_decode_transcript(m, NULL, c, n, NULL, &err);
                        if (prc_decoder_disposition(d) == PRC_DISP_ACCEPTED) {
                                T_NOERR(*prc_decoder_error(d));
                                T_ASSERT(prc_decoder_summary_status(d) != NULL);
                        } else {
                                T_EQ_INT(prc_decoder_disposition(d), PRC_DISP_REJECTED);
                                T_ASSERT(prc_decoder_error(d)->cls != PRC_E_OK);
                                T_EQ_INT(prc_decoder_observation_count(d), 0);
                        }
                        prc_decoder_free(d);
                }
        }
        T_NOERR(err);
        free(c);
        free(t);
        prc_manifest_free(m);
}

static const prc_test tests[] = {
        T(test_protocol__valid_transcript_with_every_optional_field_is_accepted),
        T(test_protocol__summary_statuses_unsupported_and_failed_are_accepted),
        T(test_protocol__json_level_errors),
        T(test_protocol__field_table_errors),
        T(test_protocol__line_framing_errors),
        T(test_protocol__line_cap_is_enforced_before_the_newline_arrives),
        T(test_protocol__message_and_stdout_limits),
        T(test_protocol__paths_digests_and_media_types),
        T(test_protocol__statuses_outcomes_locations_counters),
        T(test_protocol__ids_artifacts_values_kinds_numbers),
        T(test_protocol__authority_claims_at_any_depth),
        T(test_protocol__authority_words_fold_case_and_separators),
        T(test_protocol__observation_briefs_match_the_full_objects),
        T(test_protocol__many_ids_stay_unique),
        T(test_protocol__errors_never_echo_adapter_bytes),
        T(test_protocol__chunking_does_not_change_the_result),
        T(test_protocol__execution_end_rules),
        T(test_protocol__decoder_refuses_raised_limits),
        T(test_protocol__request_builder_writes_three_canonical_lines),
        T(test_protocol__stderr_meter_keeps_only_count_and_digest),
        T(test_protocol__truncation_and_bitflip_sweep),
};
PRC_SUITE(protocol, tests)
