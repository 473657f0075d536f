/*
 * test_native_protocol.c - the native protocol table against the bundled
 * manifests: exact scanner-owned commands, reviewed images, data mounts,
 * test-image overrides, and the shared time parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/manifest.h"
#include "adapter/native/gitleaks.h"
#include "adapter/native/native.h"
#include "inventory/inventory.h"
#include "inventory/snapshot.h"
#include <sys/stat.h>
#include <unistd.h>
#include "native_t.h"

static prc_manifest *load(const char *name)
{
        char path[1024];
        prc_manifest *m;
        prc_err err;

        prc_err_init(&err);
        snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), name);
        m = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err);
        if (m == NULL)
                t_fail(__FILE__, __LINE__, "%s: %s %s", name, prc_err_name(err.cls), err.msg);
        return m;
}

/* Load a bundled manifest with one textual replacement. */
static prc_manifest *load_edited(const char *name, const char *from, const char *to, prc_err *err)
{
        char path[1024], *text, *at, *out;
        size_t n;
        prc_manifest *m;

        snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), name);
        text = t_read(path, &n);
        at = memmem(text, n, from, strlen(from));
        T_ASSERT(at != NULL);
        out = malloc(n + strlen(to) + 1);
        T_ASSERT(out != NULL);
        memcpy(out, text, (size_t)(at - text));
        memcpy(out + (at - text), to, strlen(to));
        memcpy(out + (at - text) + strlen(to), at + strlen(from), n - (size_t)(at - text) - strlen(from));
        prc_err_init(err);
        m = prc_manifest_parse((const uint8_t *)out, n - strlen(from) + strlen(to), PRC_MANIFEST_EXECUTE, err);
        free(text);
        free(out);
        return m;
}

static void test_native_protocol__bundled_manifests_match_their_protocol(void)
{
        static const char *const names[] = { "gitleaks-v8.30.0.yaml", "syft-v1.51.0.yaml", "grype-v0.116.1.yaml" };
        size_t i;

        for (i = 0; i < PRC_ARRAY_LEN(names); i++) {
                prc_manifest *m = load(names[i]);
                const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));
                prc_err err;
                prc_err_init(&err);
                T_ASSERT(s != NULL);
                T_EQ_STR(prc_manifest_tool_name(m), s->tool);
                T_EQ_STR(prc_manifest_tool_version(m), s->tool_version);
                T_ASSERT(prc_manifest_declares_kind(m, s->kind));
                T_ASSERT(prc_native_check_manifest(m, false, &err));
                T_NOERR(err);
                prc_manifest_free(m);
        }
}

static void test_native_protocol__gitleaks_image_is_the_reviewed_digest(void)
{
        prc_manifest *m = load("gitleaks-v8.30.0.yaml");
        prc_err err;
        char ref[256];

        prc_err_init(&err);
        T_ASSERT(prc_native_check_manifest(m, true, &err));
        T_ASSERT(prc_manifest_image_ref(m, ref, sizeof(ref), &err));
        T_EQ_STR(ref, "ghcr.io/gitleaks/gitleaks@sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9");
        T_ASSERT(prc_manifest_limits_of(m)->stdin_bytes >= 97731);      /* the ruleset goes on stdin */
        prc_manifest_free(m);
}

/*
 * Issue 17: Syft 1.51.0 and Grype 0.116.1 run from their reviewed official
 * multi-architecture digests; any other digest stays refused for execution
 * (validation of a recorded report does not need one).
 */
static void test_native_protocol__syft_and_grype_images_are_the_reviewed_digests(void)
{
        static const struct {
                const char *name, *ref, *digest;
        } want[] = {
                { "syft-v1.51.0.yaml",
                  "docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0",
                  "sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0" },
                { "grype-v0.116.1.yaml",
                  "docker.io/anchore/grype@sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db",
                  "sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db" },
        };
        size_t i;

        for (i = 0; i < PRC_ARRAY_LEN(want); i++) {
                prc_manifest *m = load(want[i].name);
                const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));
                char ref[256];
                prc_err err;
                prc_err_init(&err);
                T_ASSERT(prc_native_check_manifest(m, true, &err));
                T_NOERR(err);
                T_ASSERT(prc_manifest_image_ref(m, ref, sizeof(ref), &err));
                T_EQ_STR(ref, want[i].ref);
                T_EQ_STR(s->image_digest, want[i].digest);
                prc_manifest_free(m);
                /* another digest: still fine for validation, refused for execution */
                m = load_edited(want[i].name, want[i].digest,
                                "sha256:0000000000000000000000000000000000000000000000000000000000000001", &err);
                T_ASSERT(m != NULL);
                T_ASSERT(prc_native_check_manifest(m, false, &err));
                T_ASSERT(!prc_native_check_manifest(m, true, &err));
                T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
                prc_manifest_free(m);
        }
}

static void test_native_protocol__changed_command_refused(void)
{
        prc_err err;
        prc_manifest *m = load_edited("gitleaks-v8.30.0.yaml", "\"--redact=100\"", "\"--redact=50\"", &err);

        T_ASSERT(m != NULL);
        T_ASSERT(!prc_native_check_manifest(m, false, &err));
        T_ERR(err, PRC_E_NATIVE_COMMAND_MISMATCH);
        prc_manifest_free(m);
        m = load_edited("syft-v1.51.0.yaml", "  - \"--quiet\"\n", "  - \"--quiet\"\n  - \"--enrich=all\"\n", &err);
        T_ASSERT(m != NULL);
        prc_err_init(&err);
        T_ASSERT(!prc_native_check_manifest(m, false, &err));
        T_ERR(err, PRC_E_NATIVE_COMMAND_MISMATCH);
        prc_manifest_free(m);
}

static void test_native_protocol__other_image_refused(void)
{
        prc_err err;
        prc_manifest *m = load_edited("gitleaks-v8.30.0.yaml", "sha256:691af3c7", "sha256:591af3c7", &err);

        T_ASSERT(m != NULL);
        T_ASSERT(prc_native_check_manifest(m, false, &err));
        T_ASSERT(!prc_native_check_manifest(m, true, &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        prc_manifest_free(m);
        m = load_edited("gitleaks-v8.30.0.yaml", "repository: gitleaks/gitleaks", "repository: evil/gitleaks", &err);
        T_ASSERT(m != NULL);
        T_ASSERT(!prc_native_check_manifest(m, false, &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        prc_manifest_free(m);
}

static void test_native_protocol__grype_needs_its_db_mount(void)
{
        prc_err err;
        prc_manifest *m = load_edited("grype-v0.116.1.yaml", "name: grype-db", "name: other-db", &err);

        T_ASSERT(m != NULL);
        T_ASSERT(!prc_native_check_manifest(m, false, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        prc_manifest_free(m);
}

/* A nonempty test-image override that differs from the reviewed digest is an error, not a skip. */
static void test_native_protocol__differing_override_is_an_error(void)
{
        const prc_native_spec *g = prc_native_spec_of(PRC_NATIVE_GITLEAKS);
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_native_check_override(g, NULL, &err));
        T_ASSERT(prc_native_check_override(g, "", &err));
        T_ASSERT(prc_native_check_override(g, g->image_digest, &err));
        T_ASSERT(!prc_native_check_override(g, "sha256:0000000000000000000000000000000000000000000000000000000000000001",
                                            &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        /* Syft's reviewed digest is accepted, any other is an error */
        prc_err_init(&err);
        T_ASSERT(prc_native_check_override(prc_native_spec_of(PRC_NATIVE_SYFT),
                                           prc_native_spec_of(PRC_NATIVE_SYFT)->image_digest, &err));
        T_ASSERT(!prc_native_check_override(prc_native_spec_of(PRC_NATIVE_SYFT),
                                            "sha256:0000000000000000000000000000000000000000000000000000000000000000",
                                            &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
}

/* A test-only stand-in manifest: exact command, the stand-in's own digest. */
static void test_native_protocol__standin_manifest_pinned_by_its_own_digest(void)
{
        static const char standin[] = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
        prc_err err;
        prc_manifest *m = load_edited("gitleaks-v8.30.0.yaml",
                                      "sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9",
                                      standin, &err);

        T_ASSERT(m != NULL);
        prc_err_init(&err);
        T_ASSERT(prc_native_check_standin(m, standin, &err));
        T_ASSERT(!prc_native_check_standin(m, "sha256:2222222222222222222222222222222222222222222222222222222222222222",
                                           &err));
        T_ERR(err, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        prc_manifest_free(m);
        m = load_edited("gitleaks-v8.30.0.yaml", "\"--no-color\"", "\"--verbose\"", &err);
        T_ASSERT(m != NULL);
        prc_err_init(&err);
        T_ASSERT(!prc_native_check_standin(m, prc_manifest_image_digest(m), &err));
        T_ERR(err, PRC_E_NATIVE_COMMAND_MISMATCH);
        prc_manifest_free(m);
}

static void test_native_protocol__jsonl_is_not_native(void)
{
        T_ASSERT(prc_native_spec_for("prc-adapter-jsonl-v1") == NULL);
        T_ASSERT(prc_native_spec_for(NULL) == NULL);
        T_ASSERT(prc_native_spec_for(PRC_NATIVE_PROTOCOL_GRYPE) == prc_native_spec_of(PRC_NATIVE_GRYPE));
}

static void test_native_protocol__rfc3339_times(void)
{
        int64_t t;

        T_ASSERT(prc_native_time("2026-07-22T12:00:00Z", &t));
        T_EQ_INT(t, NT_NOW);
        T_ASSERT(prc_native_time("2026-07-22T08:00:00.123456789-04:00", &t));
        T_EQ_INT(t, NT_NOW);
        T_ASSERT(prc_native_time("2024-02-29T00:00:00Z", &t));
        T_ASSERT(!prc_native_time("2026-02-29T00:00:00Z", &t));
        T_ASSERT(!prc_native_time("2026-07-22T12:00:00", &t));
        T_ASSERT(!prc_native_time("2026-07-22 12:00:00Z", &t));
        T_ASSERT(!prc_native_time("2026-07-22T12:00:00.Z", &t));
        T_ASSERT(!prc_native_time("2026-07-22T12:00:00.1234567890Z", &t));
        T_ASSERT(!prc_native_time("timestamp:redacted", &t));
        T_ASSERT(!prc_native_time("2026-07-22T24:00:00Z", &t));
}

/* The root .gitleaksignore leaves its path and is scanned under .prc/; the owned ignore file is added. */
static void test_native_protocol__gitleaks_owned_files_in_snapshot(void)
{
        char root[1024], snapdir[1100], p[1300];
        prc_inventory *inv = NULL;
        prc_snapshot *snap = NULL;
        json_t *paths;
        bool relocated = false;
        struct stat st;
        prc_err err;

        prc_err_init(&err);
        snprintf(root, sizeof(root), "%s/target", t_tmpdir());
        T_ASSERT(mkdir(root, 0700) == 0);
        t_write(root, ".gitleaksignore", "src/a.py:generic-api-key:1\n", 27);
        t_write(root, "a.py", "x = 1\n", 6);
        T_ASSERT(prc_inventory_build(root, NULL, &inv, &err));
        snprintf(snapdir, sizeof(snapdir), "%s/snap", t_tmpdir());
        T_ASSERT(prc_snapshot_create(inv, snapdir, NULL, &snap, &err));
        T_ASSERT(prc_native_add_owned(prc_native_spec_of(PRC_NATIVE_GITLEAKS), inv, snap, &relocated, &err));
        T_NOERR(err);
        T_ASSERT(relocated);
        T_ASSERT(prc_snapshot_seal(snap, &err));
        snprintf(p, sizeof(p), "%s/.gitleaksignore", snapdir);
        T_ASSERT(lstat(p, &st) != 0);
        snprintf(p, sizeof(p), "%s/" PRC_GITLEAKS_RELOCATED, snapdir);
        T_ASSERT(lstat(p, &st) == 0 && st.st_size == 27);
        snprintf(p, sizeof(p), "%s/.prc/gitleaks/.gitleaksignore", snapdir);
        T_ASSERT(lstat(p, &st) == 0 && (size_t)st.st_size == strlen(PRC_GITLEAKS_IGNORE_BYTES));
        paths = prc_native_paths(inv);
        T_ASSERT(json_object_get(paths, ".gitleaksignore") != NULL && json_object_get(paths, "a.py") != NULL);
        json_decref(paths);
        prc_snapshot_free(snap);
        prc_inventory_free(inv);
}

static const prc_test tests[] = {
        T(test_native_protocol__gitleaks_owned_files_in_snapshot),
        T(test_native_protocol__bundled_manifests_match_their_protocol),
        T(test_native_protocol__gitleaks_image_is_the_reviewed_digest),
        T(test_native_protocol__syft_and_grype_images_are_the_reviewed_digests),
        T(test_native_protocol__changed_command_refused),
        T(test_native_protocol__other_image_refused),
        T(test_native_protocol__grype_needs_its_db_mount),
        T(test_native_protocol__differing_override_is_an_error),
        T(test_native_protocol__standin_manifest_pinned_by_its_own_digest),
        T(test_native_protocol__jsonl_is_not_native),
        T(test_native_protocol__rfc3339_times),
};

PRC_SUITE(native_protocol, tests)
