/*
 * test_catalog.c - catalog loading and validation.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/manifest.h"
#include "engine/catalog.h"

#define HEAD "schema: prc.catalog/v1\ncatalog_id: t.cat\nrevision: 3\n" \
             "controls:\n  - {id: C1, title: c}\n"
#define ASSERT_A(extra) "  - id: A1\n    control: C1\n    title: t\n    rationale: r\n    remediation: m\n" \
                        "    severity: low\n" extra
#define PROFILE "profiles:\n  - {id: prc/core, title: p, assertions: [A1]}\n"
#define DIGEST "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static prc_catalog *parse(const char *text, prc_err *e)
{
        prc_err_init(e);
        return prc_catalog_parse((const uint8_t *)text, strlen(text), e);
}

static void test_catalog__valid_builtin_and_binding(void)
{
        static const char text[] = HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme, pass_outcomes: [found], "
                                                                 "fail_outcomes: [not_found]}\n")
                "  - id: A2\n    control: C1\n    title: t\n    rationale: r\n    remediation: m\n"
                "    severity: high\n    bindings:\n      - adapter_id: prc.adapter.x@1.0\n"
                "        manifest_sha256: " DIGEST "\n        observation_kind: secret\n"
                "profiles:\n  - {id: prc/core, title: p, assertions: [A2, A1]}\n";
        const prc_assertion *const *as;
        size_t n;
        prc_err e;
        prc_catalog *c = parse(text, &e);

        T_NOERR(e);
        T_ASSERT(c != NULL);
        T_EQ_STR(prc_catalog_id(c), "t.cat");
        T_EQ_INT(prc_catalog_revision(c), 3);
        T_EQ_INT(strlen(prc_catalog_sha256(c)), 64);
        T_ASSERT(prc_catalog_profile(c, "prc/core", &as, &n, &e));
        T_EQ_INT(n, 2);
        T_EQ_STR(as[0]->id, "A2");
        T_EQ_INT(as[0]->nbindings, 1);
        T_EQ_STR(as[0]->bindings[0].observation_kind, "secret");
        T_EQ_INT(as[0]->bindings[0].policy.pass, PRC_OUT_NOT_FOUND);
        T_EQ_STR(as[1]->analysis, "readme");
        T_EQ_INT(as[1]->analysis_policy.pass, PRC_OUT_FOUND);
        T_ASSERT(!prc_catalog_profile(c, "prc/none", &as, &n, &e));
        T_ERR(e, PRC_E_UNKNOWN_PROFILE);
        prc_catalog_free(c);
}

static void test_catalog__digest_ignores_formatting(void)
{
        static const char a[] = HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n") PROFILE;
        static const char b[] = "revision: 3\ncatalog_id: t.cat\nschema: \"prc.catalog/v1\"\n"
                                "controls: [{title: c, id: C1}]\n"
                                "assertions: [{id: A1, control: C1, title: t, rationale: r, remediation: m,"
                                " severity: low, analysis: {id: readme}}]\n" PROFILE;
        prc_err e;
        prc_catalog *ca = parse(a, &e), *cb = parse(b, &e);

        T_NOERR(e);
        T_EQ_STR(prc_catalog_sha256(ca), prc_catalog_sha256(cb));
        prc_catalog_free(ca);
        prc_catalog_free(cb);
}

static void test_catalog__rejections(void)
{
        static const struct {
                const char  *text;
                prc_errclass want;
        } rows[] = {
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n") PROFILE "extra: 1\n", PRC_E_UNKNOWN_FIELD },
                { "schema: prc.catalog/v2\ncatalog_id: t\nrevision: 1\ncontrols: []\nassertions: []\nprofiles: []\n",
                  PRC_E_CATALOG_SCHEMA },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: nope}\n") PROFILE, PRC_E_UNKNOWN_ANALYSIS },
                { HEAD "assertions:\n" ASSERT_A("") PROFILE, PRC_E_INVALID_VALUE },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n    bindings: []\n") PROFILE,
                  PRC_E_INVALID_VALUE },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n") ASSERT_A("    analysis: {id: readme}\n")
                  PROFILE, PRC_E_CATALOG_DUPLICATE_ID },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n")
                  "profiles:\n  - {id: prc/core, title: p, assertions: [A9]}\n", PRC_E_CATALOG_REFERENCE },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n")
                  "profiles:\n  - {id: prc/core, title: p, assertions: [A1, A1]}\n", PRC_E_CATALOG_DUPLICATE_ID },
                { HEAD "assertions:\n  - id: A1\n    control: C9\n    title: t\n    rationale: r\n    remediation: m\n"
                  "    severity: low\n    analysis: {id: readme}\n" PROFILE, PRC_E_CATALOG_REFERENCE },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme, pass_outcomes: [pass]}\n") PROFILE,
                  PRC_E_INVALID_VALUE },
                { HEAD "assertions:\n" ASSERT_A("    bindings:\n      - adapter_id: a@1\n        manifest_sha256: ABC\n"
                                               "        observation_kind: k\n") PROFILE, PRC_E_INVALID_DIGEST },
                { HEAD "assertions:\n  - id: A1\n    control: C1\n    title: t\n    rationale: r\n    remediation: m\n"
                  "    severity: severe\n    analysis: {id: readme}\n" PROFILE, PRC_E_INVALID_VALUE },
                { HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n") PROFILE "revision: 4\n",
                  PRC_E_DUPLICATE_FIELD },
                { "controls: &x [ *x ]\n", PRC_E_OK /* any refusal; class checked below */ },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                prc_err e;
                prc_catalog *c = parse(rows[i].text, &e);
                if (c != NULL)
                        t_fail(__FILE__, __LINE__, "row %zu was accepted", i);
                if (rows[i].want != PRC_E_OK && e.cls != rows[i].want)
                        t_fail(__FILE__, __LINE__, "row %zu: %s (%s), want %s", i, prc_err_name(e.cls), e.msg,
                               prc_err_name(rows[i].want));
                T_ASSERT(e.cls != PRC_E_OK);
        }
}

static void test_catalog__root_symlinks_refused(void)
{
        char real[4200], link[4300], file[4200], target[4300];
        prc_err e;
        prc_catalog *c;
        static const char text[] = HEAD "assertions:\n" ASSERT_A("    analysis: {id: readme}\n") PROFILE;

        snprintf(real, sizeof(real), "%s/real", t_tmpdir());
        T_ASSERT(mkdir(real, 0755) == 0);
        t_write(real, "catalog.yaml", text, strlen(text));
        prc_err_init(&e);
        c = prc_catalog_load(real, &e);
        T_NOERR(e);
        prc_catalog_free(c);

        snprintf(link, sizeof(link), "%s/link", t_tmpdir());
        T_ASSERT(symlink(real, link) == 0);
        prc_err_init(&e);
        T_ASSERT(prc_catalog_load(link, &e) == NULL);
        T_ERR(e, PRC_E_CATALOG_PATH);

        snprintf(file, sizeof(file), "%s/viafile", t_tmpdir());
        T_ASSERT(mkdir(file, 0755) == 0);
        snprintf(target, sizeof(target), "%s/catalog.yaml", real);
        snprintf(link, sizeof(link), "%s/catalog.yaml", file);
        T_ASSERT(symlink(target, link) == 0);
        prc_err_init(&e);
        T_ASSERT(prc_catalog_load(file, &e) == NULL);
        T_ERR(e, PRC_E_CATALOG_PATH);
}

static void test_catalog__bundled_catalog_loads(void)
{
        char root[4200];
        const prc_assertion *const *as;
        size_t n;
        prc_err e;
        prc_catalog *c;

        snprintf(root, sizeof(root), "%s/catalog", t_root());
        prc_err_init(&e);
        c = prc_catalog_load(root, &e);
        T_NOERR(e);
        T_ASSERT(prc_catalog_profile(c, "prc/core", &as, &n, &e));
        T_ASSERT(n >= 6);
        T_EQ_STR(as[0]->id, "PRC-A-CORE-001");
        T_ASSERT(prc_catalog_profile(c, "prc/supply-chain", &as, &n, &e));
        prc_catalog_free(c);
}

/* The bundled catalog pins the canonical digest of each bundled manifest: an edit to either shows here. */
static void test_catalog__bundled_bindings_pin_the_bundled_manifests(void)
{
        static const char *const files[] = { "gitleaks-v8.30.0.yaml", "syft-v1.51.0.yaml", "grype-v0.116.1.yaml" };
        char root[4200], path[4300];
        const prc_assertion *const *as;
        size_t n, matched = 0;
        prc_err e;
        prc_catalog *c;

        snprintf(root, sizeof(root), "%s/catalog", t_root());
        prc_err_init(&e);
        c = prc_catalog_load(root, &e);
        T_NOERR(e);
        T_ASSERT(prc_catalog_profile(c, "prc/supply-chain", &as, &n, &e));
        for (size_t f = 0; f < PRC_ARRAY_LEN(files); f++) {
                prc_manifest *m;
                snprintf(path, sizeof(path), "%s/adapters/%s", t_root(), files[f]);
                m = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &e);
                if (m == NULL)
                        t_fail(__FILE__, __LINE__, "%s: %s", files[f], e.msg);
                for (size_t i = 0; i < n; i++)
                        for (size_t b = 0; b < as[i]->nbindings; b++)
                                if (strcmp(as[i]->bindings[b].adapter_id, prc_manifest_adapter_id(m)) == 0) {
                                        T_EQ_STR(as[i]->bindings[b].manifest_sha256, prc_manifest_sha256(m));
                                        T_ASSERT(prc_manifest_declares_kind(m, as[i]->bindings[b].observation_kind));
                                        matched++;
                                }
                prc_manifest_free(m);
        }
        T_EQ_INT(matched, 3);
        prc_catalog_free(c);
}

static const prc_test tests[] = {
        T(test_catalog__bundled_bindings_pin_the_bundled_manifests),
        T(test_catalog__valid_builtin_and_binding),
        T(test_catalog__digest_ignores_formatting),
        T(test_catalog__rejections),
        T(test_catalog__root_symlinks_refused),
        T(test_catalog__bundled_catalog_loads),
};
PRC_SUITE(catalog, tests)
