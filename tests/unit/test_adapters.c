/*
 * test_adapters.c - a scan's adapter set: explicit and registry resolution,
 * catalog authorization, repeats, the 16-adapter limit and execution order.
 */
#include "t.h"

#include <stdlib.h>
#include <unistd.h>

#include "engine/adapters.h"
#include "engine/catalog.h"

static char fixture[4200], example[4200], registry[4200];

static void paths(void)
{
        snprintf(fixture, sizeof(fixture), "%s/fixtures/adapters/fixture-adapter.yaml", t_root());
        snprintf(example, sizeof(example), "%s/fixtures/registry/manifests/example.yaml", t_root());
        snprintf(registry, sizeof(registry), "%s/fixtures/registry/adapter-registry.yaml", t_root());
}

/* A catalog whose one profile binds (id, digest, kind) once per row. */
static prc_catalog *catalog_binding(const char *const *ids, const char *const *digests, const char *const *kinds,
                                    size_t n)
{
        char text[8192];
        size_t off;
        prc_err e;
        prc_catalog *c;

        off = (size_t)snprintf(text, sizeof(text),
                               "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\n"
                               "assertions:\n  - id: A\n    control: C\n    title: t\n    rationale: r\n"
                               "    remediation: m\n    severity: high\n    bindings:\n");
        for (size_t i = 0; i < n; i++)
                off += (size_t)snprintf(text + off, sizeof(text) - off,
                                        "      - {adapter_id: \"%s\", manifest_sha256: \"%s\", observation_kind: \"%s\"}\n",
                                        ids[i], digests[i], kinds[i]);
        snprintf(text + off, sizeof(text) - off, "profiles: [{id: p, title: p, assertions: [A]}]\n");
        prc_err_init(&e);
        c = prc_catalog_parse((const uint8_t *)text, strlen(text), &e);
        if (c == NULL)
                t_fail(__FILE__, __LINE__, "catalog: %s", e.msg);
        return c;
}

static bool authorize(prc_adapter_set *s, prc_catalog *c, prc_err *e)
{
        const prc_assertion *const *as;
        size_t n;

        T_ASSERT(prc_catalog_profile(c, "p", &as, &n, e));
        return prc_adapters_authorize(s, as, n, e);
}

static void test_adapters__explicit_manifest_bound_exactly_is_authorized(void)
{
        const char *p[] = { fixture };
        prc_adapter_set s = { .n = 0 };
        prc_err e;
        prc_catalog *c;
        const char *ids[1], *dg[1], *kinds[] = { "fixture.secret" };

        paths();
        prc_err_init(&e);
        T_ASSERT(prc_adapters_from_manifests(p, 1, &s, &e));
        T_EQ_STR(s.items[0].res.trust, "local-explicit");
        ids[0] = s.items[0].res.adapter_id;
        dg[0] = s.items[0].res.manifest_sha256;
        c = catalog_binding(ids, dg, kinds, 1);
        T_ASSERT(authorize(&s, c, &e));
        T_NOERR(e);
        prc_catalog_free(c);
        prc_adapter_set_clear(&s);
}

static void test_adapters__other_digest_or_undeclared_kind_is_unbound(void)
{
        const char *p[] = { fixture };
        prc_adapter_set s = { .n = 0 };
        prc_err e;
        prc_catalog *c;
        const char *ids[1], *dg[1] = { "1111111111111111111111111111111111111111111111111111111111111111" };
        const char *kinds[1] = { "fixture.secret" }, *undeclared[1] = { "fixture.undeclared" };

        paths();
        prc_err_init(&e);
        T_ASSERT(prc_adapters_from_manifests(p, 1, &s, &e));
        ids[0] = s.items[0].res.adapter_id;
        c = catalog_binding(ids, dg, kinds, 1);
        T_ASSERT(!authorize(&s, c, &e));
        T_ERR(e, PRC_E_ADAPTER_UNBOUND);
        prc_catalog_free(c);

        dg[0] = s.items[0].res.manifest_sha256;
        c = catalog_binding(ids, dg, undeclared, 1);
        prc_err_init(&e);
        T_ASSERT(!authorize(&s, c, &e));
        T_ERR(e, PRC_E_ADAPTER_UNBOUND);
        prc_catalog_free(c);
        prc_adapter_set_clear(&s);
}

static void test_adapters__registry_approval_does_not_authorize_an_unbound_adapter(void)
{
        const char *ids[] = { "prc.adapter.example@1.0" };
        const char *bid[] = { "prc.adapter.other@1.0" };
        const char *dg[] = { "b2f1e85d821bc7c7ced8f9e7ef3036e7abb27d3a4a768f006a18a492ef1e7aa7" };
        const char *kinds[] = { "x" };
        prc_adapter_set s = { .n = 0 };
        prc_err e;
        prc_catalog *c;

        paths();
        prc_err_init(&e);
        T_ASSERT(prc_adapters_from_registry(registry, NULL, ids, 1, &s, &e));
        T_EQ_STR(s.items[0].res.trust, "first-party-sandboxed");
        c = catalog_binding(bid, dg, kinds, 1);
        T_ASSERT(!authorize(&s, c, &e));
        T_ERR(e, PRC_E_ADAPTER_UNBOUND);
        prc_catalog_free(c);
        prc_adapter_set_clear(&s);
}

static void test_adapters__registry_denials_stop_the_whole_set(void)
{
        const char *ids[] = { "prc.adapter.example@1.0", "prc.adapter.unverified@0.3" };
        const char *revoked[] = { "prc.adapter.compromised@3.0" };
        prc_adapter_set s = { .n = 0 };
        prc_err e;

        paths();
        prc_err_init(&e);
        T_ASSERT(!prc_adapters_from_registry(registry, NULL, ids, 2, &s, &e));
        T_ASSERT(e.cls != PRC_E_OK);
        T_EQ_INT(s.n, 0);
        prc_err_init(&e);
        T_ASSERT(!prc_adapters_from_registry(registry, NULL, revoked, 1, &s, &e));
        T_ASSERT(e.cls != PRC_E_OK);
        T_EQ_INT(s.n, 0);
}

static void test_adapters__repeats_and_the_limit_are_refused(void)
{
        char alias[4400];
        const char *twice[2], *ids[] = { "prc.adapter.example@1.0", "prc.adapter.example@1.0" };
        const char *many[17];
        prc_adapter_set s = { .n = 0 };
        prc_err e;

        paths();
        snprintf(alias, sizeof(alias), "%s/fixtures/adapters/../adapters/fixture-adapter.yaml", t_root());
        twice[0] = fixture;
        twice[1] = alias;
        prc_err_init(&e);
        T_ASSERT(!prc_adapters_from_manifests(twice, 2, &s, &e));
        T_ERR(e, PRC_E_ADAPTER_REPEATED);
        prc_err_init(&e);
        T_ASSERT(!prc_adapters_from_registry(registry, NULL, ids, 2, &s, &e));
        T_ERR(e, PRC_E_ADAPTER_REPEATED);
        for (size_t i = 0; i < 17; i++)
                many[i] = fixture;
        prc_err_init(&e);
        T_ASSERT(!prc_adapters_from_manifests(many, 17, &s, &e));
        T_ERR(e, PRC_E_ADAPTER_SET_LIMIT);
        T_EQ_INT(s.n, 0);
}

static void test_adapters__set_executes_in_id_then_digest_order(void)
{
        const char *p[] = { fixture, example };
        prc_adapter_set s = { .n = 0 };
        const char *ids[2], *dg[2], *kinds[2];
        prc_err e;
        prc_catalog *c;

        paths();
        prc_err_init(&e);
        T_ASSERT(prc_adapters_from_manifests(p, 2, &s, &e));
        for (size_t i = 0; i < 2; i++) {
                ids[i] = s.items[i].res.adapter_id;
                dg[i] = s.items[i].res.manifest_sha256;
                kinds[i] = prc_manifest_kind_at(s.items[i].manifest, 0);
        }
        c = catalog_binding(ids, dg, kinds, 2);
        T_ASSERT(authorize(&s, c, &e));
        T_ASSERT(strcmp(s.items[0].res.adapter_id, s.items[1].res.adapter_id) < 0);
        prc_catalog_free(c);
        prc_adapter_set_clear(&s);
}

static const prc_test tests[] = {
        T(test_adapters__explicit_manifest_bound_exactly_is_authorized),
        T(test_adapters__other_digest_or_undeclared_kind_is_unbound),
        T(test_adapters__registry_approval_does_not_authorize_an_unbound_adapter),
        T(test_adapters__registry_denials_stop_the_whole_set),
        T(test_adapters__repeats_and_the_limit_are_refused),
        T(test_adapters__set_executes_in_id_then_digest_order),
};
PRC_SUITE(adapters, tests)
