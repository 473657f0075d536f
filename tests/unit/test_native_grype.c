/*
 * test_native_grype.c - prc-adapter-grype-json-v1: one test per rejection
 * seed 000 lists (ignored matches, package alerts, escaping paths, tool and
 * database identity, incomplete evidence, unsafe numbers), the FORMATS.md
 * traps (nulls, nanosecond durations), time-bound not_found, and the
 * grype-db directory checks on small fixture directories built here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapter/native/grype.h"
#include "base/buf.h"
#include "base/digest.h"
#include "native_t.h"

#define R(name, file, cls) \
        static void test_native_grype__##name(void) { nt_expect_err("grype", file, cls); }

R(rejects_ignored_matches, "101-ignored-matches", PRC_E_NATIVE_IGNORED_MATCHES)
R(rejects_package_alerts, "102-package-alerts", PRC_E_NATIVE_PACKAGE_ALERTS)
R(rejects_escaping_location, "103-path-escape", PRC_E_NATIVE_PATH_OUTSIDE)
R(rejects_scanner_owned_location, "104-path-scanner-owned", PRC_E_NATIVE_PATH_OUTSIDE)
R(rejects_other_source, "105-source-other", PRC_E_NATIVE_PATH_OUTSIDE)
R(rejects_other_tool_version, "106-tool-version", PRC_E_NATIVE_TOOL_IDENTITY)
R(rejects_dev_build, "107-tool-dev-build", PRC_E_NATIVE_TOOL_IDENTITY)
R(rejects_schema_v5_db, "108-db-schema-v5", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_unofficial_db_url, "109-db-unofficial-url", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_db_url_without_checksum, "110-db-no-checksum", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_manual_db_import, "111-db-manual-import", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_built_differing_from_archive, "112-db-built-mismatch", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_invalid_db_status, "113-db-invalid", PRC_E_NATIVE_DB_IDENTITY)
R(rejects_legacy_db_descriptor, "132-legacy-db-shape", PRC_E_UNKNOWN_FIELD)
R(rejects_missing_kev_provider, "114-db-no-kev", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_missing_epss_provider, "115-db-no-epss", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_missing_nvd_provider, "116-db-no-nvd", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_malformed_provider_input, "117-db-provider-input", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_provider_captured_after_build, "118-db-provider-after-build", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_namespace_of_absent_provider, "119-namespace-unknown-provider", PRC_E_NATIVE_DB_PROVENANCE)
R(rejects_stale_db, "135-db-stale", PRC_E_NATIVE_DB_STALE)
R(rejects_db_built_after_now, "136-db-future", PRC_E_NATIVE_DB_STALE)
R(rejects_match_without_details, "120-no-match-details", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)
R(rejects_match_without_vulnerability_id, "121-no-vulnerability-id", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)
R(rejects_match_without_package_id, "122-no-package-id", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)
R(rejects_unknown_matcher, "123-matcher-unknown", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)
R(rejects_epss_out_of_range, "124-epss-range", PRC_E_UNSAFE_NUMBER)
R(rejects_negative_risk, "125-risk-negative", PRC_E_UNSAFE_NUMBER)
R(rejects_cvss_out_of_range, "126-cvss-range", PRC_E_UNSAFE_NUMBER)
R(rejects_unsafe_integer, "134-unsafe-integer", PRC_E_UNSAFE_NUMBER)
R(rejects_db_auto_update_config, "127-config-auto-update", PRC_E_INVALID_VALUE)
R(rejects_vex_config, "128-config-vex", PRC_E_INVALID_VALUE)
R(rejects_age_not_in_nanoseconds, "129-config-age-seconds", PRC_E_INVALID_VALUE)
R(rejects_report_without_configuration, "130-no-configuration", PRC_E_MISSING_FIELD)
R(rejects_unknown_field, "131-unknown-field", PRC_E_UNKNOWN_FIELD)
R(rejects_duplicate_field, "133-duplicate-field", PRC_E_DUPLICATE_FIELD)
R(rejects_malformed_package_purl, "138-artifact-bad-purl", PRC_E_NATIVE_PURL)
R(rejects_non_string_cpes, "139-cpes-not-strings", PRC_E_WRONG_TYPE)
R(rejects_evidence_for_another_vulnerability, "140-evidence-other-vulnerability", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)
R(rejects_evidence_without_vulnerability_id, "141-evidence-without-id", PRC_E_NATIVE_INCOMPLETE_EVIDENCE)

/* trap: grype writes null for urls, locations, idLike and unset lists; all accepted */
static void test_native_grype__accepts_grype_nulls(void)
{
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(nt_run("grype", "001-dir", &r, &err));
        T_EQ_INT(json_array_size(r.observations), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(r.observations, 0), "outcome")), "found");
        prc_native_result_clear(&r);
}

/* the report timestamp, descriptions and vendor metadata never reach the digest */
static void test_native_grype__digest_ignores_timestamps_and_bulk_metadata(void)
{
        prc_native_result a = { 0 }, b = { 0 };
        prc_err err;

        T_ASSERT(nt_run("grype", "001-dir", &a, &err));
        T_ASSERT(nt_run("grype", "002-dir-rerun", &b, &err));
        T_EQ_MEM(a.artifact, a.artifact_len, b.artifact, b.artifact_len);
        T_ASSERT(memmem(a.artifact, a.artifact_len, "2026-07-22T08:00:00", 19) == NULL);
        prc_native_result_clear(&a);
        prc_native_result_clear(&b);
}

static void test_native_grype__not_found_is_time_bound(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *o;

        T_ASSERT(nt_run("grype", "003-empty", &r, &err));
        T_EQ_INT(json_array_size(r.observations), 1);
        o = json_array_get(r.observations, 0);
        T_EQ_STR(json_string_value(json_object_get(o, "outcome")), "not_found");
        /* in value, so the record's observation (jsonl shape) and the evidence keep both */
        T_EQ_STR(json_string_value(json_object_get(json_object_get(o, "value"), "db_built")), "2026-07-21T06:12:45Z");
        T_EQ_STR(json_string_value(json_object_get(json_object_get(o, "value"), "now")), "2026-07-22T12:00:00Z");
        prc_native_result_clear(&r);
}

/* exactly 120 hours old is still accepted; one second more is not (135-db-stale) */
static void test_native_grype__age_boundary_is_inclusive(void)
{
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(nt_run("grype", "137-db-oldest-accepted", &r, &err));
        prc_native_result_clear(&r);
}

static void test_native_grype__no_clock_refused(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/grype/003-empty.in", t_root());
        p = t_read(path, &n);
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(prc_native_spec_of(PRC_NATIVE_GRYPE), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_DB_STALE);
        free(p);
}

static void test_native_grype__rejects_excessive_matches(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/grype/001-dir.in", t_root());
        p = t_read(path, &n);
        ctx.now = NT_NOW;
        ctx.max_items = 1;
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(prc_native_spec_of(PRC_NATIVE_GRYPE), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_COUNT_LIMIT);
        free(p);
}

#define SHA "3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"
/* 2026-07-21T06:12:45Z */
#define URL(epoch) "https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_" epoch \
                   ".tar.zst?checksum=sha256%3A" SHA

/* A grype-db directory with 6/vulnerability.db and the given import.json (NULL: none). */
static const char *db_dir(const char *import_json, bool with_db)
{
        static char dir[1024];
        char six[1100];

        snprintf(dir, sizeof(dir), "%s/grype-db", t_tmpdir());
        snprintf(six, sizeof(six), "%s/6", dir);
        T_ASSERT(mkdir(dir, 0700) == 0 && mkdir(six, 0700) == 0);
        if (with_db)
                t_write(six, "vulnerability.db", "SQLite format 3", 16);
        if (import_json != NULL)
                t_write(six, "import.json", import_json, strlen(import_json));
        return dir;
}

static void test_native_grype__db_dir_valid(void)
{
        json_t *id = NULL;
        prc_err err;
        const char *d = db_dir("{\n \"digest\": \"xxh64:5280979724fbe7ec\",\n \"source\": \"" URL("1784614365")
                               "\",\n \"client_version\": \"v6.1.9\"\n}\n", true);

        prc_err_init(&err);
        T_ASSERT(prc_grype_db_check(d, NT_NOW, &id, &err));
        T_EQ_STR(json_string_value(json_object_get(id, "built")), "2026-07-21T06:12:45Z");
        T_EQ_STR(json_string_value(json_object_get(id, "schema_version")), "v6.1.9");
        T_EQ_STR(json_string_value(json_object_get(id, "source_sha256")), SHA);
        json_decref(id);
}

static void expect_db(const char *import_json, bool with_db, prc_errclass cls)
{
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_grype_db_check(db_dir(import_json, with_db), NT_NOW, NULL, &err));
        T_ERR(err, cls);
}

static void test_native_grype__db_dir_stale(void)
{
        /* 2026-07-17T11:59:59Z: 120 h + 1 s before --now */
        expect_db("{\"digest\":\"xxh64:5280979724fbe7ec\",\"source\":\"" URL("1784289599")
                  "\",\"client_version\":\"v6.1.9\"}", true, PRC_E_NATIVE_DB_STALE);
}

static void test_native_grype__db_dir_manual_import(void)
{
        expect_db("{\"digest\":\"xxh64:5280979724fbe7ec\",\"source\":\"manual import\",\"client_version\":\"v6.1.9\"}",
                  true, PRC_E_NATIVE_DB_IDENTITY);
}

static void test_native_grype__db_dir_bad_digest(void)
{
        expect_db("{\"digest\":\"sha256:" SHA "\",\"source\":\"" URL("1784614365") "\",\"client_version\":\"v6.1.9\"}",
                  true, PRC_E_NATIVE_DB_IDENTITY);
}

static void test_native_grype__db_dir_v5_client(void)
{
        expect_db("{\"digest\":\"xxh64:5280979724fbe7ec\",\"source\":\"" URL("1784614365")
                  "\",\"client_version\":\"v5.0.2\"}", true, PRC_E_NATIVE_DB_IDENTITY);
}

static void test_native_grype__db_dir_without_database(void)
{
        expect_db("{\"digest\":\"xxh64:5280979724fbe7ec\",\"source\":\"" URL("1784614365")
                  "\",\"client_version\":\"v6.1.9\"}", false, PRC_E_NATIVE_DB_IDENTITY);
}

/* import.json describing another database file (its xxh64 differs) */
static void test_native_grype__db_dir_digest_mismatch(void)
{
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_grype_db_check(db_dir("{\"digest\":\"xxh64:5280979724fbe7ed\",\"source\":\"" URL("1784614365")
                                            "\",\"client_version\":\"v6.1.9\"}", true), NT_NOW, NULL, &err));
        T_ERR(err, PRC_E_NATIVE_DB_IDENTITY);
        T_ASSERT(strstr(err.msg, "5280979724fbe7ec") != NULL);
        T_ASSERT(strstr(err.file, "vulnerability.db") != NULL);
}

/* the real legacy v5 metadata.json is not a v6 import.json */
static void test_native_grype__db_dir_legacy_v5_metadata(void)
{
        size_t n;
        char *p = t_read(nt_corpus("grype/db/legacy-v5/metadata.json"), &n);
        char *z = realloc(p, n + 1);

        T_ASSERT(z != NULL);
        z[n] = '\0';
        expect_db(z, true, PRC_E_UNKNOWN_FIELD);
        free(z);
}

static void test_native_grype__db_url_parse(void)
{
        char ver[32], sha[PRC_SHA256_HEX + 1];
        int64_t built;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_grype_db_url(URL("1784614365"), ver, sizeof(ver), &built, sha, &err));
        T_EQ_INT(built, 1784614365);
        prc_err_init(&err);
        T_ASSERT(!prc_grype_db_url("https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_"
                                   "1784614365.tar.zst?checksum=sha256%3Aabc", ver, sizeof(ver), &built, sha, &err));
        T_ERR(err, PRC_E_NATIVE_DB_IDENTITY);
        prc_err_init(&err);
        T_ASSERT(!prc_grype_db_url("https://grype.anchore.io/databases/v6/vulnerability-db_v5.0.1_2026-07-20T23:51:30Z_"
                                   "1784614365.tar.zst?checksum=sha256%3A" SHA, ver, sizeof(ver), &built, sha, &err));
        T_ERR(err, PRC_E_NATIVE_DB_IDENTITY);
}

static void test_native_grype__owned_config_is_digest_bound(void)
{
        const prc_native_spec *s = prc_native_spec_of(PRC_NATIVE_GRYPE);
        char hex[PRC_SHA256_HEX + 1];
        prc_err err;

        prc_err_init(&err);
        T_EQ_INT(s->n_owned, 1);
        T_ASSERT(prc_sha256_hex_once(s->owned[0].bytes, strlen(s->owned[0].bytes), hex, &err));
        T_EQ_STR(hex, PRC_GRYPE_CONFIG_SHA256);
        T_ASSERT(strstr(s->owned[0].bytes, "auto-update: false\n") != NULL);
        T_ASSERT(strstr(s->owned[0].bytes, "cache-dir: /prc-inputs/grype-db\n") != NULL);
        T_EQ_STR(s->data, PRC_NATIVE_GRYPE_DB_DATA);
}

/* bounded nesting: vendor metadata nested past the decoder's depth (64) is refused before it is walked */
static void test_native_grype__deep_vendor_metadata_refused(void)
{
        static const char key[] = "\"vendorMetadata\": {}";
        char path[1024], *p, *at;
        size_t n, i;
        prc_buf b;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/grype/001-dir.in", t_root());
        p = t_read(path, &n);
        at = memmem(p, n, key, strlen(key));
        T_ASSERT(at != NULL);
        prc_err_init(&err);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_buf_put(&b, p, (size_t)(at - p), &err) && prc_buf_puts(&b, "\"vendorMetadata\":{\"x\":", &err));
        for (i = 0; i < 80; i++)
                T_ASSERT(prc_buf_putc(&b, '[', &err));
        for (i = 0; i < 80; i++)
                T_ASSERT(prc_buf_putc(&b, ']', &err));
        T_ASSERT(prc_buf_putc(&b, '}', &err) &&
                 prc_buf_put(&b, at + strlen(key), n - (size_t)(at - p) - strlen(key), &err));
        ctx.now = NT_NOW;
        T_ASSERT(!prc_native_normalize(prc_native_spec_of(PRC_NATIVE_GRYPE), b.data, b.len, &ctx, &r, &err));
        T_ERR(err, PRC_E_DEPTH_LIMIT);
        prc_buf_clear(&b);
        free(p);
}

/* Normalize grype/NAME.in with an inventory path set and a mounted-database identity. */
static bool grype_with(const char *name, json_t *paths, json_t *db, prc_native_result *r, prc_err *err)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_ctx ctx = nt_ctx(name);
        bool ok;

        ctx.paths = paths;
        ctx.db = db;
        snprintf(path, sizeof(path), "%s/tests/golden/native/grype/%s.in", t_root(), name);
        p = t_read(path, &n);
        prc_err_init(err);
        ok = prc_native_normalize(prc_native_spec_of(PRC_NATIVE_GRYPE), (const uint8_t *)p, n, &ctx, r, err);
        free(p);
        return ok;
}

/* The identity prc_grype_db_check gives for the database 001-dir's descriptor names. */
static json_t *db_of_001(const char *built, const char *sha)
{
        return json_pack("{s:s,s:s,s:s,s:s}", "schema_version", "v6.1.9", "built", built, "source_sha256", sha,
                         "digest", "xxh64:0123456789abcdef");
}

#define SHA_001 "3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"

static void test_native_grype__match_locations_bound_to_inventory(void)
{
        json_t *paths = json_pack("{s:s}", "foo/bar/somefile-1.txt", SHA_001), *none = json_object();
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *o;

        T_ASSERT(grype_with("001-dir", paths, NULL, &r, &err));
        o = json_array_get(r.observations, 0);
        T_EQ_STR(json_string_value(json_object_get(o, "outcome")), "found");
        T_ASSERT(json_is_string(json_object_get(json_object_get(o, "value"), "vulnerability_id")));
        prc_native_result_clear(&r);
        T_ASSERT(!grype_with("001-dir", none, NULL, &r, &err));
        T_ERR(err, PRC_E_NATIVE_PATH_OUTSIDE);
        json_decref(paths);
        json_decref(none);
}

static void test_native_grype__found_observation_keeps_its_location(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *o;
        size_t i;
        bool seen = false;

        T_ASSERT(grype_with("001-dir", NULL, NULL, &r, &err));
        json_array_foreach(r.observations, i, o) {
                const json_t *l = json_array_get(json_object_get(o, "locations"), 0);
                seen |= l != NULL && strcmp(json_string_value(json_object_get(l, "path")), "foo/bar/somefile-1.txt") == 0;
        }
        T_ASSERT(seen);
        prc_native_result_clear(&r);
}

static void test_native_grype__report_must_name_the_mounted_db(void)
{
        json_t *same = db_of_001("2026-07-21T06:12:45Z", SHA_001);
        json_t *other = db_of_001("2026-07-21T06:12:45Z",
                                  "0000000000000000000000000000000000000000000000000000000000000000");
        json_t *older = db_of_001("2026-07-20T06:12:45Z", SHA_001);
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(grype_with("003-empty", NULL, same, &r, &err));
        prc_native_result_clear(&r);
        T_ASSERT(!grype_with("003-empty", NULL, other, &r, &err));
        T_ERR(err, PRC_E_NATIVE_DB_IDENTITY);
        T_EQ_STR(err.ptr, "/descriptor/db/status/from");
        T_ASSERT(!grype_with("003-empty", NULL, older, &r, &err));
        T_ERR(err, PRC_E_NATIVE_DB_IDENTITY);
        json_decref(same);
        json_decref(other);
        json_decref(older);
}

static const prc_test tests[] = {
        T(test_native_grype__deep_vendor_metadata_refused),
        T(test_native_grype__rejects_ignored_matches),
        T(test_native_grype__rejects_package_alerts),
        T(test_native_grype__rejects_escaping_location),
        T(test_native_grype__rejects_scanner_owned_location),
        T(test_native_grype__rejects_other_source),
        T(test_native_grype__rejects_other_tool_version),
        T(test_native_grype__rejects_dev_build),
        T(test_native_grype__rejects_schema_v5_db),
        T(test_native_grype__rejects_unofficial_db_url),
        T(test_native_grype__rejects_db_url_without_checksum),
        T(test_native_grype__rejects_manual_db_import),
        T(test_native_grype__rejects_built_differing_from_archive),
        T(test_native_grype__rejects_invalid_db_status),
        T(test_native_grype__rejects_legacy_db_descriptor),
        T(test_native_grype__rejects_missing_kev_provider),
        T(test_native_grype__rejects_missing_epss_provider),
        T(test_native_grype__rejects_missing_nvd_provider),
        T(test_native_grype__rejects_malformed_provider_input),
        T(test_native_grype__rejects_provider_captured_after_build),
        T(test_native_grype__rejects_namespace_of_absent_provider),
        T(test_native_grype__rejects_stale_db),
        T(test_native_grype__rejects_db_built_after_now),
        T(test_native_grype__rejects_match_without_details),
        T(test_native_grype__rejects_match_without_vulnerability_id),
        T(test_native_grype__rejects_match_without_package_id),
        T(test_native_grype__rejects_unknown_matcher),
        T(test_native_grype__rejects_epss_out_of_range),
        T(test_native_grype__rejects_negative_risk),
        T(test_native_grype__rejects_cvss_out_of_range),
        T(test_native_grype__rejects_unsafe_integer),
        T(test_native_grype__rejects_db_auto_update_config),
        T(test_native_grype__rejects_vex_config),
        T(test_native_grype__rejects_age_not_in_nanoseconds),
        T(test_native_grype__rejects_report_without_configuration),
        T(test_native_grype__rejects_unknown_field),
        T(test_native_grype__rejects_duplicate_field),
        T(test_native_grype__rejects_malformed_package_purl),
        T(test_native_grype__rejects_non_string_cpes),
        T(test_native_grype__rejects_evidence_for_another_vulnerability),
        T(test_native_grype__rejects_evidence_without_vulnerability_id),
        T(test_native_grype__accepts_grype_nulls),
        T(test_native_grype__digest_ignores_timestamps_and_bulk_metadata),
        T(test_native_grype__not_found_is_time_bound),
        T(test_native_grype__age_boundary_is_inclusive),
        T(test_native_grype__no_clock_refused),
        T(test_native_grype__rejects_excessive_matches),
        T(test_native_grype__db_dir_valid),
        T(test_native_grype__db_dir_stale),
        T(test_native_grype__db_dir_manual_import),
        T(test_native_grype__db_dir_bad_digest),
        T(test_native_grype__db_dir_v5_client),
        T(test_native_grype__db_dir_without_database),
        T(test_native_grype__db_dir_digest_mismatch),
        T(test_native_grype__db_dir_legacy_v5_metadata),
        T(test_native_grype__db_url_parse),
        T(test_native_grype__owned_config_is_digest_bound),
        T(test_native_grype__match_locations_bound_to_inventory),
        T(test_native_grype__found_observation_keeps_its_location),
        T(test_native_grype__report_must_name_the_mounted_db),
};

PRC_SUITE(native_grype, tests)
