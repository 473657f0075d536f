/*
 * test_oci_native.c - the OCI runner's native glue (src/adapter/oci_native.c)
 * without a container: the manifest and ruleset gates of begin, the bounded
 * capture and the exit-status and normalizer verdicts of finish.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapter/data.h"
#include "adapter/native/gitleaks.h"
#include "adapter/oci.h"
#include "adapter/oci_native.h"
#include "native_t.h"
#include "t.h"

static prc_manifest *bundled(const char *name)
{
        char path[4096];
        prc_err err = {0};
        snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), name);
        prc_manifest *m = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        return m;
}

/* A Gitleaks glue state as begin leaves it, with a stdout cap of cap bytes. */
static void gitleaks_state(prc_oci_native *n, size_t cap)
{
        memset(n, 0, sizeof(*n));
        n->spec = prc_native_spec_of(PRC_NATIVE_GITLEAKS);
        prc_buf_init(&n->in, 1u << 20);
        prc_buf_init(&n->out, cap);
}

/*
 * Seed 000: a generic jsonl adapter cannot fork (pids 1, whatever its
 * manifest asks); the reviewed native protocols keep their manifest's
 * PID-bounded allowance (issue 16).
 */
static void test_oci_native__only_native_protocols_keep_their_pids(void)
{
        static const char *const names[] = { "gitleaks-v8.30.0.yaml", "syft-v1.51.0.yaml", "grype-v0.116.1.yaml" };
        prc_err err = {0};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                prc_manifest *m = bundled(names[i]);
                T_ASSERT(prc_manifest_limits_of(m)->pids > 1);
                T_EQ_INT(prc_oci_pids_limit(m), prc_manifest_limits_of(m)->pids);
                prc_manifest_free(m);
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/fixtures/adapters/fixture-adapter.yaml", t_root());
        prc_manifest *g = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_ASSERT(prc_manifest_limits_of(g)->pids > 1);
        T_EQ_INT(prc_oci_pids_limit(g), 1);
        prc_manifest_free(g);
}

static void test_oci_native__gitleaks_without_a_ruleset_is_refused(void)
{
        prc_manifest *m = bundled("gitleaks-v8.30.0.yaml");
        prc_oci_request rq = { .m = m };
        prc_oci_native n;
        prc_err err = {0};

        unsetenv(PRC_OCI_RULESET_ENV);
        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        T_ASSERT(!prc_oci_native_begin(&n, &rq, &err));
        T_ERR(err, PRC_E_NATIVE_RULESET_MISSING);
        prc_oci_native_clear(&n);
        prc_manifest_free(m);
}

static void test_oci_native__override_other_than_reviewed_digest_is_an_error(void)
{
        prc_manifest *m = bundled("gitleaks-v8.30.0.yaml");
        prc_oci_request rq = { .m = m, .ruleset_path = "/nonexistent" };
        prc_oci_native n;
        prc_err err = {0};

        setenv(PRC_OCI_NATIVE_OVERRIDE_ENV,
               "sha256:0000000000000000000000000000000000000000000000000000000000000000", 1);
        T_ASSERT(!prc_oci_native_begin(&n, &rq, &err));
        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        prc_oci_native_clear(&n);
        prc_manifest_free(m);
}

/*
 * Issue 17: the bundled Syft manifest passes the gate with its reviewed digest;
 * the same manifest with any other digest is refused before anything runs.
 */
static void test_oci_native__syft_and_grype_run_only_from_the_reviewed_digest(void)
{
        static const char *const names[] = { "syft-v1.51.0.yaml", "grype-v0.116.1.yaml" };
        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        unsetenv("PRC_TEST_NATIVE_STANDIN");
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                prc_manifest *m = bundled(names[i]);
                prc_oci_request rq = { .m = m };
                prc_oci_native n;
                prc_err err = {0};
                char path[4096], *text, *at;
                size_t len;
                T_ASSERT(m != NULL);
                /* Syft needs nothing more; Grype passes the gate and then asks for its grype-db */
                if (i == 0) {
                        T_ASSERT(prc_oci_native_begin(&n, &rq, &err));
                } else {
                        T_ASSERT(!prc_oci_native_begin(&n, &rq, &err));
                        T_ERR(err, PRC_E_INVALID_VALUE);
                }
                prc_oci_native_clear(&n);
                prc_manifest_free(m);
                snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), names[i]);
                text = t_read(path, &len);
                at = strstr(text, "digest: sha256:");
                T_ASSERT(at != NULL);
                memcpy(at + strlen("digest: sha256:"), "00000000", 8);
                prc_err_init(&err);
                m = prc_manifest_parse((const uint8_t *)text, len, PRC_MANIFEST_EXECUTE, &err);
                free(text);
                T_NOERR(err);
                rq.m = m;
                T_ASSERT(!prc_oci_native_begin(&n, &rq, &err));
                T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
                prc_oci_native_clear(&n);
                prc_manifest_free(m);
        }
}

static void test_oci_native__pinned_ruleset_becomes_stdin(void)
{
        const char *corp = t_corpora();
        char path[4096];
        prc_manifest *m = bundled("gitleaks-v8.30.0.yaml");
        prc_oci_native n;
        prc_err err = {0};

        T_ASSERT(corp != NULL);         /* the pinned ruleset is not shipped in the repository */
        if (corp == NULL) {
                prc_manifest_free(m);
                return;
        }
        snprintf(path, sizeof(path), "%s", nt_ruleset_gz());
        prc_oci_request rq = { .m = m, .ruleset_path = path };
        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        T_ASSERT(prc_oci_native_begin(&n, &rq, &err));
        T_NOERR(err);
        T_EQ_INT(n.in.len, PRC_GITLEAKS_RULESET_SIZE);
        T_ASSERT(json_object_size(n.rule_ids) > 100);
        T_ASSERT(json_is_true(json_object_get(n.rule_ids, "aws-access-token")));
        prc_oci_native_clear(&n);
        prc_manifest_free(m);
}

static void test_oci_native__capture_stops_at_stdout_bytes(void)
{
        prc_oci_native n;
        prc_errclass cls = PRC_E_OK;
        char msg[128];

        gitleaks_state(&n, 4);
        T_ASSERT(prc_oci_native_feed(&n, (const uint8_t *)"[]", 2));
        T_ASSERT(!prc_oci_native_feed(&n, (const uint8_t *)"\n\n\n", 3));
        T_ASSERT(!prc_oci_native_feed(&n, (const uint8_t *)"x", 1));       /* nothing more is taken */
        T_EQ_INT(prc_oci_native_stdout_bytes(&n), 2);
        T_ASSERT(!prc_oci_native_finish(&n, 0, &cls, msg, sizeof(msg)));
        T_EQ_INT(cls, PRC_E_STDOUT_LIMIT);
        prc_oci_native_clear(&n);
}

static void test_oci_native__exit_statuses_are_the_protocols(void)
{
        static const struct {
                int           status;
                prc_errclass  cls;      /* OK: accepted */
        } cases[] = {
                { 0, PRC_E_OK },
                { 1, PRC_E_ADAPTER_EXIT_STATUS },
                /* 42 says "findings" but the report has none: the tool contradicts itself */
                { 42, PRC_E_ADAPTER_EXIT_STATUS },
                { 2, PRC_E_ADAPTER_EXIT_STATUS },
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                prc_oci_native n;
                prc_errclass cls = PRC_E_OK;
                char msg[128];
                gitleaks_state(&n, 1024);
                T_ASSERT(prc_oci_native_feed(&n, (const uint8_t *)"[]\n", 3));
                bool ok = prc_oci_native_finish(&n, cases[i].status, &cls, msg, sizeof(msg));
                T_EQ_INT(ok, cases[i].cls == PRC_E_OK);
                T_EQ_INT(ok ? PRC_E_OK : cls, cases[i].cls);
                prc_oci_native_clear(&n);
        }
}

static void test_oci_native__record_shapes_of_an_accepted_report(void)
{
        prc_oci_native n;
        prc_errclass cls = PRC_E_OK;
        char msg[128];
        prc_err err = {0};

        gitleaks_state(&n, 1024);
        T_ASSERT(prc_oci_native_feed(&n, (const uint8_t *)"[]\n", 3));
        T_ASSERT(prc_oci_native_finish(&n, 0, &cls, msg, sizeof(msg)));
        json_t *obs = prc_oci_native_observations(&n);
        json_t *arts = prc_oci_native_artifacts(&n);
        T_EQ_INT(json_array_size(obs), 1);
        json_t *o = json_array_get(obs, 0);
        T_EQ_INT(json_object_size(o), 5);       /* exactly id, kind, outcome, locations, value */
        T_EQ_STR(json_string_value(json_object_get(o, "kind")), "gitleaks.secret");
        T_EQ_STR(json_string_value(json_object_get(o, "outcome")), "not_found");
        T_ASSERT(json_is_null(json_object_get(o, "value")));
        T_EQ_INT(json_array_size(json_object_get(o, "locations")), 0);
        T_EQ_INT(json_array_size(arts), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(arts, 0), "sha256")), n.res.artifact_sha256);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(arts, 0), "media_type")),
                 PRC_NATIVE_MT_GITLEAKS_NORM);
        char want[PRC_SHA256_HEX + 1];
        T_ASSERT(prc_sha256_hex_once("[]\n", 3, want, &err));
        T_EQ_STR(prc_oci_native_stdout_sha256(&n, &err), want);
        json_decref(obs);
        json_decref(arts);
        prc_oci_native_clear(&n);
}

static void test_oci_native__hostile_report_is_rejected_with_the_normalizers_class(void)
{
        static const char bad[] = "[{\"RuleID\":\"x\"";
        prc_oci_native n;
        prc_errclass cls = PRC_E_OK;
        char msg[128];

        gitleaks_state(&n, 1024);
        T_ASSERT(prc_oci_native_feed(&n, (const uint8_t *)bad, sizeof(bad) - 1));
        T_ASSERT(!prc_oci_native_finish(&n, 42, &cls, msg, sizeof(msg)));
        T_EQ_INT(cls, PRC_E_INVALID_JSON);
        json_t *obs = prc_oci_native_observations(&n);
        T_EQ_INT(json_array_size(obs), 0);
        json_decref(obs);
        prc_oci_native_clear(&n);
}

#define D_A "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define D_B "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* A test-only copy of a bundled manifest whose image digest is digest (a stand-in's own). */
static prc_manifest *standin_copy(const char *name, const char *digest)
{
        char path[4096], *text, *at, *out;
        size_t n;
        prc_err err = {0};

        snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), name);
        text = t_read(path, &n);
        at = strstr(text, "  digest: sha256:");
        T_ASSERT(at != NULL);
        out = malloc(n + 1);
        memcpy(out, text, n + 1);
        memcpy(out + (at - text) + 10, digest, strlen(digest));
        snprintf(path, sizeof(path), "%s", t_write(t_tmpdir(), name, out, n));
        free(text);
        free(out);
        prc_manifest *m = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        return m;
}

static void test_oci_native__standin_gate_takes_a_digest_list(void)
{
        prc_manifest *m = standin_copy("syft-v1.51.0.yaml", D_B);
        prc_oci_request rq = { .m = m };
        prc_oci_native n;
        prc_err err = {0};

        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        setenv(PRC_OCI_STANDIN_ENV, D_A "," D_B, 1);
        T_ASSERT(prc_oci_native_begin(&n, &rq, &err));
        prc_oci_native_clear(&n);
        setenv(PRC_OCI_STANDIN_ENV, D_B, 1);
        T_ASSERT(prc_oci_native_begin(&n, &rq, &err));
        prc_oci_native_clear(&n);
        /* a list not naming this manifest's digest, or naming only a prefix of it: the reviewed-image gate */
        setenv(PRC_OCI_STANDIN_ENV, D_A ",sha256:bbbb", 1);
        T_ASSERT(!prc_oci_native_begin(&n, &rq, &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        prc_oci_native_clear(&n);
        unsetenv(PRC_OCI_STANDIN_ENV);
        prc_manifest_free(m);
}

/* A grype-db directory whose import source is the archive URL with checksum sha. */
static const char *db_dir(const char *name, const char *sha)
{
        static char dir[4096];
        char sub[4200], imp[1024];

        snprintf(dir, sizeof(dir), "%s/%s", t_tmpdir(), name);
        snprintf(sub, sizeof(sub), "%s/6", dir);
        T_ASSERT(mkdir(dir, 0755) == 0 && mkdir(sub, 0755) == 0);
        t_write(sub, "vulnerability.db", "x", 1);
        snprintf(imp, sizeof(imp),
                 "{\"digest\": \"xxh64:5c80c09683041123\", \"client_version\": \"v6.1.9\", \"source\": "
                 "\"https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_1784614365"
                 ".tar.zst?checksum=sha256%%3A%s\"}\n", sha);
        t_write(sub, "import.json", imp, strlen(imp));
        return dir;
}

/* begin keeps the mounted database's identity; finish refuses a report that names another database. */
static void test_oci_native__grype_report_must_name_the_mounted_db(void)
{
        static const char *const shas[] = {
                "3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4",     /* the report's */
                "0000000000000000000000000000000000000000000000000000000000000000",
        };
        prc_manifest *m = standin_copy("grype-v0.116.1.yaml", D_A);
        char path[4096];
        size_t len;

        snprintf(path, sizeof(path), "%s/tests/golden/native/grype/003-empty.in", t_root());
        char *report = t_read(path, &len);
        unsetenv(PRC_OCI_NATIVE_OVERRIDE_ENV);
        setenv(PRC_OCI_STANDIN_ENV, D_A, 1);
        for (size_t i = 0; i < 2; i++) {
                char name[16];
                snprintf(name, sizeof(name), "db%zu", i);
                prc_data_binding b = { PRC_NATIVE_GRYPE_DB_DATA, db_dir(name, shas[i]) };
                prc_oci_request rq = { .m = m, .data = &b, .ndata = 1, .now = 1784721600 };
                prc_oci_native n;
                prc_errclass cls = PRC_E_OK;
                char msg[128];
                prc_err err = {0};

                T_ASSERT(prc_oci_native_begin(&n, &rq, &err));
                T_ASSERT(prc_oci_native_feed(&n, (const uint8_t *)report, len));
                if (i == 0) {
                        T_ASSERT(prc_oci_native_finish(&n, 0, &cls, msg, sizeof(msg)));
                } else {
                        T_ASSERT(!prc_oci_native_finish(&n, 0, &cls, msg, sizeof(msg)));
                        T_EQ_INT(cls, PRC_E_NATIVE_DB_IDENTITY);
                }
                prc_oci_native_clear(&n);
        }
        unsetenv(PRC_OCI_STANDIN_ENV);
        free(report);
        prc_manifest_free(m);
}

static const prc_test tests[] = {
        T(test_oci_native__only_native_protocols_keep_their_pids),
        T(test_oci_native__gitleaks_without_a_ruleset_is_refused),
        T(test_oci_native__override_other_than_reviewed_digest_is_an_error),
        T(test_oci_native__syft_and_grype_run_only_from_the_reviewed_digest),
        T(test_oci_native__pinned_ruleset_becomes_stdin),
        T(test_oci_native__capture_stops_at_stdout_bytes),
        T(test_oci_native__exit_statuses_are_the_protocols),
        T(test_oci_native__record_shapes_of_an_accepted_report),
        T(test_oci_native__hostile_report_is_rejected_with_the_normalizers_class),
        T(test_oci_native__standin_gate_takes_a_digest_list),
        T(test_oci_native__grype_report_must_name_the_mounted_db),
};
PRC_SUITE(oci_native, tests)
