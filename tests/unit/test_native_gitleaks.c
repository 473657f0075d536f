/*
 * test_native_gitleaks.c - prc-adapter-gitleaks-json-v1: one test per
 * rejection seed 000 lists, the FORMATS.md traps (redact with '=', one
 * positional, trace logs, the always-honoured .gitleaksignore, path-only
 * zero coordinates) and the pinned ruleset in both forms.
 */
#include <stdlib.h>
#include <string.h>

#include "adapter/native/gitleaks.h"
#include "base/buf.h"
#include "base/digest.h"
#include "inventory/inventory.h"
#include "native_t.h"

static const prc_native_spec *G(void) { return prc_native_spec_of(PRC_NATIVE_GITLEAKS); }

static void test_native_gitleaks__rejects_unredacted_secret(void)
{
        nt_expect_err("gitleaks", "101-unredacted-secret", PRC_E_NATIVE_UNREDACTED);
}
static void test_native_gitleaks__rejects_unredacted_match(void)
{
        nt_expect_err("gitleaks", "102-unredacted-match", PRC_E_NATIVE_UNREDACTED);
}
static void test_native_gitleaks__rejects_path_only_match_not_interleaved(void)
{
        nt_expect_err("gitleaks", "118-path-only-unredacted-match", PRC_E_NATIVE_UNREDACTED);
}
static void test_native_gitleaks__rejects_commit_metadata(void)
{
        nt_expect_err("gitleaks", "103-history-commit", PRC_E_NATIVE_HISTORY_METADATA);
}
static void test_native_gitleaks__rejects_link_metadata(void)
{
        nt_expect_err("gitleaks", "104-history-link", PRC_E_NATIVE_HISTORY_METADATA);
}
static void test_native_gitleaks__rejects_symlink_metadata(void)
{
        nt_expect_err("gitleaks", "105-symlink", PRC_E_NATIVE_SYMLINK_METADATA);
}
static void test_native_gitleaks__rejects_path_outside_snapshot(void)
{
        nt_expect_err("gitleaks", "106-path-outside", PRC_E_NATIVE_PATH_OUTSIDE);
}
static void test_native_gitleaks__rejects_escaping_path(void)
{
        nt_expect_err("gitleaks", "107-path-escape", PRC_E_NATIVE_PATH_OUTSIDE);
}
static void test_native_gitleaks__rejects_scanner_owned_path(void)
{
        nt_expect_err("gitleaks", "108-path-scanner-owned", PRC_E_NATIVE_PATH_OUTSIDE);
}
static void test_native_gitleaks__rejects_inconsistent_fingerprint(void)
{
        nt_expect_err("gitleaks", "109-fingerprint", PRC_E_NATIVE_FINGERPRINT);
}
static void test_native_gitleaks__rejects_end_before_start(void)
{
        nt_expect_err("gitleaks", "110-coords-end-before-start", PRC_E_INVALID_LOCATION);
}
static void test_native_gitleaks__rejects_mixed_zero_coordinates(void)
{
        nt_expect_err("gitleaks", "111-coords-mixed-zero", PRC_E_INVALID_LOCATION);
}
static void test_native_gitleaks__rejects_single_line_end_column_before_start(void)
{
        nt_expect_err("gitleaks", "112-coords-columns", PRC_E_INVALID_LOCATION);
}
static void test_native_gitleaks__rejects_decoded_finding(void)
{
        nt_expect_err("gitleaks", "113-decoded-tag", PRC_E_INVALID_VALUE);
}
static void test_native_gitleaks__rejects_duplicate_field(void)
{
        nt_expect_err("gitleaks", "116-duplicate-field", PRC_E_DUPLICATE_FIELD);
}
static void test_native_gitleaks__rejects_older_report_without_symlinkfile(void)
{
        nt_expect_err("gitleaks", "114-missing-field", PRC_E_MISSING_FIELD);
}

/* template output has the extra Line key: unknown-field (the real non-native sample) */
static void test_native_gitleaks__rejects_template_output_unknown_field(void)
{
        size_t n;
        char *p = t_read(nt_corpus("gitleaks/reports/non-native/template_jsonextra.json"), &n);
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_UNKNOWN_FIELD);
        T_EQ_STR(err.ptr, "/0/Line");
        free(p);
}

static void test_native_gitleaks__rejects_excessive_findings(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/001-findings.in", t_root());
        p = t_read(path, &n);
        ctx.max_items = 1;
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_COUNT_LIMIT);
        ctx.max_items = 2;
        prc_err_init(&err);
        T_ASSERT(prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        prc_native_result_clear(&r);
        free(p);
}

/* the protocol default cap is 10000 findings: 10001 empty-object findings are refused before decoding them */
static void test_native_gitleaks__default_cap_is_ten_thousand(void)
{
        prc_buf b;
        prc_native_result r = { 0 };
        prc_err err;
        int i;

        prc_err_init(&err);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_buf_putc(&b, '[', &err));
        for (i = 0; i < 10001; i++)
                T_ASSERT(prc_buf_puts(&b, i ? ",{}" : "{}", &err));
        T_ASSERT(prc_buf_puts(&b, "]\n", &err));
        T_ASSERT(!prc_native_normalize(G(), b.data, b.len, NULL, &r, &err));
        T_ERR(err, PRC_E_NATIVE_COUNT_LIMIT);
        prc_buf_clear(&b);
}

static void test_native_gitleaks__empty_report_is_one_not_found(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *o;

        T_ASSERT(nt_run("gitleaks", "002-empty", &r, &err));
        T_EQ_INT(json_array_size(r.observations), 1);
        o = json_array_get(r.observations, 0);
        T_EQ_STR(json_string_value(json_object_get(o, "outcome")), "not_found");
        T_EQ_STR(json_string_value(json_object_get(o, "kind")), "gitleaks.secret");
        T_EQ_STR(json_string_value(json_object_get(r.report, "media_type")), PRC_NATIVE_MT_GITLEAKS_REPORT);
        T_EQ_INT(json_integer_value(json_object_get(r.report, "size")), 3);
        prc_native_result_clear(&r);
}

/* the artifact keeps rule id and location only: no secret, match, entropy or description */
static void test_native_gitleaks__keeps_only_rule_and_location(void)
{
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(nt_run("gitleaks", "001-findings", &r, &err));
        T_EQ_INT(json_array_size(r.observations), 2);
        T_ASSERT(memmem(r.artifact, r.artifact_len, "REDACTED", 8) == NULL);
        T_ASSERT(memmem(r.artifact, r.artifact_len, "Entropy", 7) == NULL);
        T_ASSERT(memmem(r.artifact, r.artifact_len, "/prc-snapshot", 13) == NULL);
        T_ASSERT(memmem(r.artifact, r.artifact_len, "\"path\":\"auth.py\"", 16) != NULL);
        prc_native_result_clear(&r);
}

/* trap: path-only findings have all-zero coordinates and an interleaved redacted match */
static void test_native_gitleaks__path_only_finding_has_no_lines(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *loc;

        T_ASSERT(nt_run("gitleaks", "003-path-only", &r, &err));
        loc = json_array_get(json_object_get(json_array_get(r.observations, 0), "locations"), 0);
        T_EQ_STR(json_string_value(json_object_get(loc, "path")), "certs/client.p12");
        T_ASSERT(json_object_get(loc, "start_line") == NULL);
        prc_native_result_clear(&r);
}

/* trap: a root .gitleaksignore is always honoured, so it is relocated; findings map back */
static void test_native_gitleaks__relocated_ignore_maps_back(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *loc;

        T_ASSERT(nt_run("gitleaks", "004-relocated-ignore", &r, &err));
        loc = json_array_get(json_object_get(json_array_get(r.observations, 0), "locations"), 0);
        T_EQ_STR(json_string_value(json_object_get(loc, "path")), ".gitleaksignore");
        prc_native_result_clear(&r);
}

static void test_native_gitleaks__relocated_path_without_relocation_is_outside(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/004-relocated-ignore.in", t_root());
        p = t_read(path, &n);
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_PATH_OUTSIDE);
        free(p);
}

static void test_native_gitleaks__path_not_in_inventory_is_outside(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        json_t *paths = json_pack("{s:b}", "src/config.py", 1);
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/001-findings.in", t_root());
        p = t_read(path, &n);
        ctx.paths = paths;
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_PATH_OUTSIDE);
        T_EQ_STR(err.ptr, "/1/File");
        json_object_set_new(paths, "auth.py", json_true());
        prc_err_init(&err);
        T_ASSERT(prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        prc_native_result_clear(&r);
        json_decref(paths);
        free(p);
}

static bool has_arg(const char *a)
{
        size_t i;

        for (i = 0; G()->argv[i] != NULL; i++)
                if (strcmp(G()->argv[i], a) == 0)
                        return true;
        return false;
}

/* traps: --redact=100 with '=', exactly one positional (else gitleaks scans "."), no trace logs */
static void test_native_gitleaks__argv_avoids_the_cli_traps(void)
{
        size_t i, positional = 0;
        const char *last = NULL;

        T_EQ_STR(G()->argv[1], "dir");
        for (i = 2; G()->argv[i] != NULL; i++) {
                if (strncmp(G()->argv[i], "--", 2) != 0)
                        positional++;
                if (strcmp(G()->argv[i], "--redact") == 0)
                        t_fail(__FILE__, __LINE__, "bare --redact");
                if (strncmp(G()->argv[i], "--log-level=", 12) == 0)
                        T_ASSERT(strcmp(G()->argv[i], "--log-level=trace") != 0 &&
                                 strcmp(G()->argv[i], "--log-level=debug") != 0);
                last = G()->argv[i];
        }
        T_EQ_INT(positional, 1);
        T_EQ_STR(last, PRC_NATIVE_SNAPSHOT_MOUNT);
        T_ASSERT(has_arg("--redact=100"));
        T_ASSERT(has_arg("--log-level=warn"));
        T_ASSERT(has_arg("--config=/dev/stdin"));
        T_ASSERT(has_arg("--ignore-gitleaks-allow"));
        T_ASSERT(has_arg("--max-archive-depth=0"));
        T_ASSERT(has_arg("--max-decode-depth=0"));
        T_ASSERT(has_arg("--gitleaks-ignore-path=" PRC_NATIVE_SNAPSHOT_MOUNT "/.prc/gitleaks"));
        T_ASSERT(G()->exit_found != 1 && G()->exit_found != 0);
        T_ASSERT(G()->stdin_ruleset);
        T_ASSERT(!prc_native_spec_of(PRC_NATIVE_SYFT)->stdin_ruleset && !prc_native_spec_of(PRC_NATIVE_GRYPE)->stdin_ruleset);
}

/*
 * Issue 16: gitleaks skips files above N * 1,000,000 bytes.  Every file
 * prc analyzes (up to PRC_INV_OVERSIZED, 10 MiB) must be scanned, and the
 * ceiling the engine names gaps by must be the one the command sets.
 */
static void test_native_gitleaks__size_ceiling_covers_the_analysis_limit(void)
{
        static const char flag[] = "--max-target-megabytes=";
        unsigned long long mb = 0;
        size_t i, seen = 0;

        for (i = 2; G()->argv[i] != NULL; i++) {
                char *end;
                if (strncmp(G()->argv[i], flag, sizeof(flag) - 1) != 0)
                        continue;
                seen++;
                mb = strtoull(G()->argv[i] + sizeof(flag) - 1, &end, 10);
                T_ASSERT(*end == '\0');
        }
        T_EQ_INT(seen, 1);
        T_ASSERT(mb * 1000000ull >= (unsigned long long)PRC_INV_OVERSIZED);
        T_ASSERT(G()->max_file_bytes == mb * 1000000ull);
        T_ASSERT(prc_native_spec_of(PRC_NATIVE_SYFT)->max_file_bytes == 0);
        T_ASSERT(prc_native_spec_of(PRC_NATIVE_GRYPE)->max_file_bytes == 0);
}

static void test_native_gitleaks__owned_files_are_digest_bound(void)
{
        char hex[PRC_SHA256_HEX + 1];
        prc_err err;
        size_t i;
        bool relocation = false;

        prc_err_init(&err);
        for (i = 0; i < G()->n_owned; i++) {
                const prc_native_owned *o = &G()->owned[i];
                T_ASSERT(strncmp(o->path, ".prc/", 5) == 0);
                if (o->relocated_from != NULL) {
                        T_EQ_STR(o->relocated_from, ".gitleaksignore");
                        relocation = true;
                        continue;
                }
                T_ASSERT(prc_sha256_hex_once(o->bytes, strlen(o->bytes), hex, &err));
                T_EQ_STR(hex, o->sha256);
        }
        T_ASSERT(relocation);
}

static void test_native_gitleaks__ruleset_verified_in_both_forms(void)
{
        prc_buf out;
        prc_err err;
        char hex[PRC_SHA256_HEX + 1];

        prc_err_init(&err);
        prc_buf_init(&out, 1u << 20);
        T_ASSERT(prc_gitleaks_ruleset_load(nt_ruleset_gz(), &out, &err));
        T_EQ_INT(out.len, PRC_GITLEAKS_RULESET_SIZE);
        T_ASSERT(prc_sha256_hex_once(out.data, out.len, hex, &err));
        T_EQ_STR(hex, PRC_GITLEAKS_RULESET_SHA256);
        prc_buf_clear(&out);
}

static void test_native_gitleaks__ruleset_flipped_byte_refused(void)
{
        size_t n;
        char *gz = t_read(nt_ruleset_gz(), &n);
        prc_buf out;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&out, 1u << 20);
        gz[n / 2] ^= 1;
        T_ASSERT(!prc_gitleaks_ruleset_check((const uint8_t *)gz, n, &out, &err));
        T_ERR(err, PRC_E_NATIVE_RULESET_MISMATCH);
        T_EQ_INT(out.len, 0);
        prc_err_init(&err);
        T_ASSERT(!prc_gitleaks_ruleset_check((const uint8_t *)gz, n - 1, &out, &err));
        T_ERR(err, PRC_E_NATIVE_RULESET_MISMATCH);
        free(gz);
        prc_buf_clear(&out);
}

/*
 * Issue 17: the pinned gzip form is prc's own deterministic one; GNU gzip's
 * (the corpus's gitleaks.toml.gz, the pin before) decompresses to the same
 * bytes but is refused, and the message names the command that fixes it.
 */
static void test_native_gitleaks__ruleset_in_another_gzip_form_refused(void)
{
        prc_buf out;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&out, 1u << 20);
        T_ASSERT(!prc_gitleaks_ruleset_load(nt_corpus("gitleaks/config/gitleaks.toml.gz"), &out, &err));
        T_ERR(err, PRC_E_NATIVE_RULESET_MISMATCH);
        T_ASSERT(strstr(err.msg, "prc setup native") != NULL);
        T_EQ_INT(out.len, 0);
        prc_buf_clear(&out);
}

/* the decompressed file is not the pinned gzip form */
static void test_native_gitleaks__ruleset_plain_toml_refused(void)
{
        prc_buf out;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&out, 1u << 20);
        T_ASSERT(!prc_gitleaks_ruleset_load(nt_corpus("gitleaks/config/gitleaks.toml"), &out, &err));
        T_ERR(err, PRC_E_NATIVE_RULESET_MISMATCH);
        prc_buf_clear(&out);
}

/* The verified ruleset's 222 rule ids; a finding of any other rule is refused. */
static void test_native_gitleaks__rule_must_be_in_the_pinned_ruleset(void)
{
        prc_buf toml;
        prc_err err;
        json_t *ids;
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };

        prc_err_init(&err);
        prc_buf_init(&toml, 1u << 20);
        T_ASSERT(prc_gitleaks_ruleset_load(nt_ruleset_gz(), &toml, &err));
        ids = prc_gitleaks_rule_ids(toml.data, toml.len);
        T_ASSERT(ids != NULL);
        T_EQ_INT(json_object_size(ids), 222);
        T_ASSERT(json_object_get(ids, "pkcs12-file") != NULL && json_object_get(ids, "generic-api-key") != NULL);
        ctx.rule_ids = ids;
        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/001-findings.in", t_root());
        p = t_read(path, &n);
        T_ASSERT(prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        prc_native_result_clear(&r);
        free(p);
        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/004-relocated-ignore.in", t_root());
        p = t_read(path, &n);
        ctx.relocated_gitleaksignore = true;
        T_ASSERT(prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        prc_native_result_clear(&r);
        free(p);
        /* the real json_simple sample's "test-rule" is no rule of the default config */
        T_ASSERT(json_object_get(ids, "test-rule") == NULL);
        json_decref(ids);
        prc_buf_clear(&toml);
}

static void test_native_gitleaks__unknown_rule_refused(void)
{
        json_t *ids = json_pack("{s:b}", "generic-api-key", 1);
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        ctx.rule_ids = ids;
        snprintf(path, sizeof(path), "%s/tests/golden/native/gitleaks/001-findings.in", t_root());
        p = t_read(path, &n);
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(G(), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        T_EQ_STR(err.ptr, "/1/RuleID");
        json_decref(ids);
        free(p);
}

static const prc_test tests[] = {
        T(test_native_gitleaks__rule_must_be_in_the_pinned_ruleset),
        T(test_native_gitleaks__unknown_rule_refused),
        T(test_native_gitleaks__rejects_unredacted_secret),
        T(test_native_gitleaks__rejects_unredacted_match),
        T(test_native_gitleaks__rejects_path_only_match_not_interleaved),
        T(test_native_gitleaks__rejects_commit_metadata),
        T(test_native_gitleaks__rejects_link_metadata),
        T(test_native_gitleaks__rejects_symlink_metadata),
        T(test_native_gitleaks__rejects_path_outside_snapshot),
        T(test_native_gitleaks__rejects_escaping_path),
        T(test_native_gitleaks__rejects_scanner_owned_path),
        T(test_native_gitleaks__rejects_inconsistent_fingerprint),
        T(test_native_gitleaks__rejects_end_before_start),
        T(test_native_gitleaks__rejects_mixed_zero_coordinates),
        T(test_native_gitleaks__rejects_single_line_end_column_before_start),
        T(test_native_gitleaks__rejects_decoded_finding),
        T(test_native_gitleaks__rejects_duplicate_field),
        T(test_native_gitleaks__rejects_older_report_without_symlinkfile),
        T(test_native_gitleaks__rejects_template_output_unknown_field),
        T(test_native_gitleaks__rejects_excessive_findings),
        T(test_native_gitleaks__default_cap_is_ten_thousand),
        T(test_native_gitleaks__empty_report_is_one_not_found),
        T(test_native_gitleaks__keeps_only_rule_and_location),
        T(test_native_gitleaks__path_only_finding_has_no_lines),
        T(test_native_gitleaks__relocated_ignore_maps_back),
        T(test_native_gitleaks__relocated_path_without_relocation_is_outside),
        T(test_native_gitleaks__path_not_in_inventory_is_outside),
        T(test_native_gitleaks__argv_avoids_the_cli_traps),
        T(test_native_gitleaks__size_ceiling_covers_the_analysis_limit),
        T(test_native_gitleaks__owned_files_are_digest_bound),
        T(test_native_gitleaks__ruleset_verified_in_both_forms),
        T(test_native_gitleaks__ruleset_flipped_byte_refused),
        T(test_native_gitleaks__ruleset_plain_toml_refused),
        T(test_native_gitleaks__ruleset_in_another_gzip_form_refused),
};

PRC_SUITE(native_gitleaks, tests)
