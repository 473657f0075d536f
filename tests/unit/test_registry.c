/*
 * test_registry.c - registry lockfile validation, manifest checks beneath
 * the lockfile's directory, default resolution, revocation, resolution
 * records and registry signatures.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/registry.h"
#include "adapter/resolution.h"
#include "base/doc.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "sigtest.h"

static void wstr(const char *dir, const char *name, const char *text)
{
        t_write(dir, name, text, strlen(text));
}

/* The canonical digest of a YAML or JSON text (static per slot). */
static const char *digest_of(const char *text)
{
        static char digests[8][PRC_SHA256_HEX + 1];
        static unsigned slot;
        char *d = digests[slot++ % 8];
        prc_err err;
        json_t *v;

        prc_err_init(&err);
        v = prc_doc_parse((const uint8_t *)text, strlen(text), PRC_DOC_YAML, &prc_limits_operator, &err);
        T_NOERR(err);
        T_ASSERT(v != NULL && prc_jcs_digest(v, d, &err));
        json_decref(v);
        return d;
}

/* A v0.4 manifest as YAML text, with one optional extra top-level line (static per slot). */
static const char *manifest_text(const char *schema, const char *id, const char *pub, const char *maint, int emin,
                                 int emax, const char *extra)
{
        static char slots[4][2048];
        static unsigned slot;
        char *t = slots[slot++ % 4];

        snprintf(t, 2048,
                 "schema: %s\nadapter_id: %s\npublisher: {id: %s, name: Example}\n"
                 "owner: {id: owners, contact: adapters@example.invalid}\n"
                 "protocol: prc-adapter-jsonl-v1\noutput_schema: prc.adapter-message/v1\n"
                 "engine_api: {min: %d, max: %d}\n"
                 "tool: {name: example-tool, version: 1.0.0, formats: [example/1]}\n"
                 "observation_kinds: [example.finding]\nmaintenance: %s\nknown_limitations: [test only]\n"
                 "image: {registry: registry.prc.invalid, repository: prc/example, "
                 "digest: 'sha256:0000000000000000000000000000000000000000000000000000000000000001'}\n"
                 "command: [/usr/local/bin/example, --jsonl]\n"
                 "limits: {wall_seconds: 60, memory_bytes: 268435456, cpus_millis: 1000, pids: 16, nofile: 64,\n"
                 "  tmpfs_bytes: 0, stdin_bytes: 1048576, stdout_bytes: 1048576, stderr_bytes: 65536,\n"
                 "  line_bytes: 4096, messages: 100}\n%s",
                 schema, id, pub, emin, emax, maint, extra);
        return t;
}

/* Write a v0.4 manifest at dir/rel; returns its canonical digest (static per slot). */
static const char *manifest(const char *dir, const char *rel, const char *id, const char *pub, const char *maint,
                            int emin, int emax)
{
        const char *text = manifest_text("prc.adapter-manifest/v0.4", id, pub, maint, emin, emax, "");

        wstr(dir, rel, text);
        return digest_of(text);
}

/* One lockfile entry as JSON text (static per slot). */
static const char *entry(const char *id, const char *sha, const char *pub, const char *trust, const char *status,
                         const char *path)
{
        static char slots[8][1024];
        static unsigned slot;
        char *e = slots[slot++ % 8];

        snprintf(e, 1024,
                 "{\"adapter_id\":\"%s\",\"manifest_sha256\":\"%s\",\"publisher_id\":\"%s\",\"trust\":\"%s\","
                 "\"status\":\"%s\",\"manifest_path\":\"%s\"}", id, sha, pub, trust, status, path);
        return e;
}

/* Write dir/registry.json with these comma-joined entries and load it with the fake reader. */
static prc_registry *load_entries(const char *dir, const char *entries, prc_err *err)
{
        char text[16384], path[4200];
        int n = snprintf(text, sizeof(text),
                         "{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"example.org/main\","
                         "\"revision\":3,\"entries\":[%s]}", entries);
        prc_registry *reg;

        T_ASSERT(n > 0 && (size_t)n < sizeof(text));
        t_write(dir, "registry.json", text, (size_t)n);
        snprintf(path, sizeof(path), "%s/registry.json", dir);
        prc_err_init(err);
        reg = prc_registry_load(path, err);
        T_EQ_INT(reg == NULL, err->cls != PRC_E_OK);
        return reg;
}

/* Load a registry whose single entry is e and return the decision's class. */
static prc_errclass decide1(const char *dir, const char *e)
{
        prc_err err;
        prc_registry *reg = load_entries(dir, e, &err);
        prc_errclass c;

        T_NOERR(err);
        T_ASSERT(prc_registry_decide(reg, 0, &err) == (err.cls == PRC_E_OK));
        c = err.cls;
        prc_registry_free(reg);
        return c;
}

/* Class of loading a whole lockfile text. */
static prc_errclass doc_class(const char *text)
{
        prc_err err;
        prc_registry *reg;

        prc_err_init(&err);
        reg = prc_registry_parse((const uint8_t *)text, strlen(text), PRC_DOC_JSON, &prc_limits_operator, &err);
        T_EQ_INT(reg == NULL, err.cls != PRC_E_OK);
        prc_registry_free(reg);
        return err.cls;
}

#define DA "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define DB "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define HEAD "{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"revision\":1,\"entries\":["
#define E1 "{\"adapter_id\":\"a@1\",\"manifest_sha256\":\"" DA "\",\"publisher_id\":\"p\",\"trust\":\"local\"," \
           "\"status\":\"active\",\"manifest_path\":\"m/a.json\"}"

static void test_registry__valid_lockfile_loads_with_its_content_digest(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "example.org", "active", 1, 1);
        prc_err err;
        prc_registry *reg = load_entries(dir, entry("a@1", sha, "example.org", "first-party-sandboxed", "active", "a.yaml"),
                                         &err);
        char *text, path[4200], want[PRC_SHA256_HEX + 1];
        json_t *doc;
        const prc_registry_entry *e;

        T_NOERR(err);
        T_EQ_STR(prc_registry_id(reg), "example.org/main");
        T_EQ_INT(prc_registry_revision(reg), 3);
        T_EQ_INT(prc_registry_nentries(reg), 1);
        e = prc_registry_entry_at(reg, 0);
        T_EQ_STR(e->adapter_id, "a@1");
        T_EQ_STR(e->manifest_sha256, sha);
        T_EQ_STR(e->manifest_path, "a.yaml");
        T_EQ_INT(e->trust, PRC_RT_FIRST_PARTY_SANDBOXED);
        T_EQ_INT(e->status, PRC_RS_ACTIVE);
        T_ASSERT(prc_registry_entry_at(reg, 1) == NULL);
        snprintf(path, sizeof(path), "%s/registry.json", dir);
        text = t_read(path, NULL);
        doc = json_loads(text, 0, NULL);
        T_ASSERT(doc != NULL && prc_jcs_digest(doc, want, &err));
        T_EQ_STR(prc_registry_sha256(reg), want);
        T_ASSERT(prc_registry_check(reg, 0, &err));
        T_ASSERT(prc_registry_decide(reg, 0, &err));
        T_NOERR(err);
        json_decref(doc);
        free(text);
        prc_registry_free(reg);
}

static void test_registry__content_digest_ignores_formatting_and_key_order(void)
{
        static const char a[] = HEAD E1 "]}";
        static const char b[] = "{ \"entries\" : [ {\"status\":\"active\",\"trust\":\"local\",\"publisher_id\":\"p\","
                                "\"manifest_path\":\"m/a.json\",\"manifest_sha256\":\"" DA "\",\"adapter_id\":\"a@1\"} ],"
                                "\n \"revision\": 1, \"registry_id\": \"r\", \"schema\": \"prc.adapter-registry/v1\" }";
        prc_err err;
        prc_registry *ra, *rb;

        prc_err_init(&err);
        ra = prc_registry_parse((const uint8_t *)a, strlen(a), PRC_DOC_JSON, &prc_limits_operator, &err);
        rb = prc_registry_parse((const uint8_t *)b, strlen(b), PRC_DOC_JSON, &prc_limits_operator, &err);
        T_NOERR(err);
        T_EQ_STR(prc_registry_sha256(ra), prc_registry_sha256(rb));
        prc_registry_free(ra);
        prc_registry_free(rb);
}

static void test_registry__yaml_spelling_is_the_same_document(void)
{
        static const char yaml[] = "schema: prc.adapter-registry/v1\nregistry_id: r\nrevision: 1\nentries:\n"
                                   "  - adapter_id: a@1\n    manifest_sha256: " DA "\n    publisher_id: p\n"
                                   "    trust: local\n    status: active\n    manifest_path: m/a.json\n";
        static const char json[] = HEAD E1 "]}";
        static const char dup[] = "schema: prc.adapter-registry/v1\nregistry_id: r\nrevision: 1\nrevision: 2\n"
                                  "entries: []\n";
        prc_err err;
        prc_registry *ry, *rj;

        prc_err_init(&err);
        ry = prc_registry_parse((const uint8_t *)yaml, strlen(yaml), PRC_DOC_YAML, &prc_limits_operator, &err);
        rj = prc_registry_parse((const uint8_t *)json, strlen(json), PRC_DOC_JSON, &prc_limits_operator, &err);
        T_NOERR(err);
        T_EQ_STR(prc_registry_sha256(ry), prc_registry_sha256(rj));
        prc_registry_free(ry);
        prc_registry_free(rj);
        T_ASSERT(prc_registry_parse((const uint8_t *)dup, strlen(dup), PRC_DOC_YAML, &prc_limits_operator, &err) ==
                 NULL);
        T_ERR(err, PRC_E_DUPLICATE_FIELD);
}

static void test_registry__document_rejections_have_their_classes(void)
{
        char big[200000];
        size_t n;

        T_EQ_INT(doc_class(HEAD E1 "]}"), PRC_E_OK);
        T_EQ_INT(doc_class(HEAD "]}"), PRC_E_OK);
        T_EQ_INT(doc_class("[]"), PRC_E_NOT_AN_OBJECT);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"revision\":1,"
                           "\"entries\":[],\"trust\":\"first-party-sandboxed\"}"), PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"revision\":1}"),
                 PRC_E_MISSING_FIELD);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v2\",\"registry_id\":\"r\",\"revision\":1,\"entries\":[]}"),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"revision\":0,\"entries\":[]}"),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"revision\":\"3\",\"entries\":[]}"),
                 PRC_E_WRONG_TYPE);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r r\",\"revision\":1,\"entries\":[]}"),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(doc_class("{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":\"r\",\"registry_id\":\"s\","
                           "\"revision\":1,\"entries\":[]}"), PRC_E_DUPLICATE_FIELD);
        T_EQ_INT(doc_class(HEAD "{\"adapter_id\":\"a@1\",\"adapter_id\":\"b@1\",\"manifest_sha256\":\"" DA "\","
                           "\"publisher_id\":\"p\",\"trust\":\"local\",\"status\":\"active\",\"manifest_path\":\"a\"}]}"),
                 PRC_E_DUPLICATE_FIELD);
        T_EQ_INT(doc_class(HEAD "{\"adapter_id\":\"a@1\",\"manifest_sha256\":\"" DA "\",\"publisher_id\":\"p\","
                           "\"trust\":\"local\",\"status\":\"active\",\"manifest_path\":\"a\",\"signed\":true}]}"),
                 PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(doc_class(HEAD "{\"adapter_id\":\"a@1\",\"manifest_sha256\":\"" DA "\",\"publisher_id\":\"p\","
                           "\"trust\":\"local\",\"status\":\"active\"}]}"), PRC_E_MISSING_FIELD);
        T_EQ_INT(doc_class(HEAD E1 "," E1 "]}"), PRC_E_REGISTRY_DUPLICATE_ENTRY);
        T_EQ_INT(doc_class(HEAD E1 ",{\"adapter_id\":\"b@1\",\"manifest_sha256\":\"" DA "\",\"publisher_id\":\"p\","
                           "\"trust\":\"local\",\"status\":\"active\",\"manifest_path\":\"b\"}]}"),
                 PRC_E_REGISTRY_DUPLICATE_ENTRY);
        T_EQ_INT(doc_class(HEAD E1 ",{\"adapter_id\":\"a@1\",\"manifest_sha256\":\"" DB "\",\"publisher_id\":\"p\","
                           "\"trust\":\"local\",\"status\":\"revoked\",\"manifest_path\":\"b\"}]}"),
                 PRC_E_REGISTRY_DUPLICATE_ENTRY);
#define ONE(id, sha, trust, status, path) \
        (snprintf(big, sizeof(big), HEAD "%s]}", entry(id, sha, "p", trust, status, path)), doc_class(big))
        T_EQ_INT(ONE("a@1", DA, "trusted", "active", "a"), PRC_E_INVALID_VALUE);
        T_EQ_INT(ONE("a@1", DA, "local", "enabled", "a"), PRC_E_INVALID_VALUE);
        T_EQ_INT(ONE("a@1", "AA", "local", "active", "a"), PRC_E_INVALID_DIGEST);
        T_EQ_INT(ONE("a@1", DA, "local", "active", "../a.yaml"), PRC_E_PATH_DOTDOT);
        T_EQ_INT(ONE("a@1", DA, "local", "active", "m/../../a.yaml"), PRC_E_PATH_DOTDOT);
        T_EQ_INT(ONE("a@1", DA, "local", "active", "/etc/a.yaml"), PRC_E_PATH_ABSOLUTE);
        T_EQ_INT(ONE("a@1", DA, "local", "active", "./a.yaml"), PRC_E_PATH_DOT_SEGMENT);
        T_EQ_INT(ONE("a@1", DA, "local", "active", "m//a.yaml"), PRC_E_PATH_EMPTY_SEGMENT);
        T_EQ_INT(ONE("a@1", DA, "local", "active", ""), PRC_E_PATH_EMPTY);
        T_EQ_INT(ONE("", DA, "local", "active", "a"), PRC_E_INVALID_VALUE);
#undef ONE
        /* One entry more than the limit. */
        n = (size_t)snprintf(big, sizeof(big), "%s", HEAD);
        for (int i = 0; i <= PRC_REGISTRY_ENTRIES_MAX; i++)
                n += (size_t)snprintf(big + n, sizeof(big) - n, "%s{}", i ? "," : "");
        snprintf(big + n, sizeof(big) - n, "]}");
        T_EQ_INT(doc_class(big), PRC_E_REGISTRY_ENTRIES_LIMIT);
}

static void test_registry__document_error_points_at_the_field(void)
{
        static const char text[] = HEAD E1 ",{\"adapter_id\":\"b@1\",\"manifest_sha256\":\"" DB "\","
                                   "\"publisher_id\":\"p\",\"trust\":\"local\",\"status\":\"active\","
                                   "\"manifest_path\":\"x/../y\"}]}";
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_registry_parse((const uint8_t *)text, strlen(text), PRC_DOC_JSON, &prc_limits_operator, &err) ==
                 NULL);
        T_ERR(err, PRC_E_PATH_DOTDOT);
        T_EQ_STR(err.ptr, "/entries/1/manifest_path");
}

static void test_registry__default_policy_admits_only_first_party_and_verified(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "p", "active", 1, 1);
        const char *dep = manifest(dir, "d.yaml", "a@1", "p", "deprecated", 1, 1);

        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "first-party-sandboxed", "active", "a.yaml")), PRC_E_OK);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "a.yaml")), PRC_E_OK);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "unverified-community", "active", "a.yaml")),
                 PRC_E_REGISTRY_TRUST_UNVERIFIED);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "local", "active", "a.yaml")), PRC_E_REGISTRY_TRUST_LOCAL);
        T_EQ_INT(decide1(dir, entry("a@1", dep, "p", "first-party-sandboxed", "deprecated", "d.yaml")),
                 PRC_E_REGISTRY_DEPRECATED);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "first-party-sandboxed", "revoked", "a.yaml")),
                 PRC_E_REGISTRY_REVOKED);
        T_ASSERT(prc_registry_policy_reason(PRC_E_REGISTRY_TRUST_LOCAL));
        T_ASSERT(!prc_registry_policy_reason(PRC_E_REGISTRY_DIGEST_MISMATCH));
}

static void test_registry__manifest_cannot_raise_its_own_trust(void)
{
        const char *dir = t_tmpdir();
        const char *text = manifest_text("prc.adapter-manifest/v0.4", "a@1", "p", "active", 1, 1,
                                         "trust: first-party-sandboxed\n");

        /* Pinned exactly, yet a manifest that claims trust is refused, and the entry stays denied. */
        wstr(dir, "a.yaml", text);
        T_EQ_INT(decide1(dir, entry("a@1", digest_of(text), "p", "unverified-community", "active", "a.yaml")),
                 PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(decide1(dir, entry("a@1", digest_of(text), "p", "verified-community", "active", "a.yaml")),
                 PRC_E_AUTHORITY_CLAIM);
}

static void test_registry__revoked_entry_blocks_with_its_manifest_deleted(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "p", "active", 1, 1);
        char path[4200];
        prc_resolution r;
        prc_err err;
        prc_registry *reg;

        snprintf(path, sizeof(path), "%s/a.yaml", dir);
        T_ASSERT(unlink(path) == 0);
        reg = load_entries(dir, entry("a@1", sha, "p", "first-party-sandboxed", "revoked", "a.yaml"), &err);
        T_NOERR(err);
        /* The check passes without a file: revocation needs none. */
        T_ASSERT(prc_registry_check(reg, 0, &err));
        T_ASSERT(!prc_registry_decide(reg, 0, &err));
        T_ERR(err, PRC_E_REGISTRY_REVOKED);
        T_EQ_STR(err.ptr, "/entries/0/status");
        prc_err_init(&err);
        T_ASSERT(!prc_registry_resolve(reg, "a@1", &r, &err));
        T_ERR(err, PRC_E_REGISTRY_REVOKED);
        T_ASSERT(prc_registry_digest_revoked(reg, sha));
        T_ASSERT(!prc_registry_digest_revoked(reg, DB));
        prc_registry_free(reg);
        /* An active entry whose manifest is gone is missing, not admitted. */
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "first-party-sandboxed", "active", "a.yaml")),
                 PRC_E_REGISTRY_MANIFEST_MISSING);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "first-party-sandboxed", "revoked", "gone/dir/a.yaml")),
                 PRC_E_REGISTRY_REVOKED);
}

static void test_registry__revoked_works_without_a_directory(void)
{
        static const char text[] = HEAD "{\"adapter_id\":\"a@1\",\"manifest_sha256\":\"" DA "\",\"publisher_id\":\"p\","
                                   "\"trust\":\"verified-community\",\"status\":\"revoked\",\"manifest_path\":\"a\"},"
                                   "{\"adapter_id\":\"b@1\",\"manifest_sha256\":\"" DB "\",\"publisher_id\":\"p\","
                                   "\"trust\":\"verified-community\",\"status\":\"active\",\"manifest_path\":\"b\"}]}";
        prc_err err;
        prc_registry *reg;

        prc_err_init(&err);
        reg = prc_registry_parse((const uint8_t *)text, strlen(text), PRC_DOC_JSON, &prc_limits_operator, &err);
        T_NOERR(err);
        T_ASSERT(!prc_registry_decide(reg, 0, &err));
        T_ERR(err, PRC_E_REGISTRY_REVOKED);
        prc_err_init(&err);
        T_ASSERT(!prc_registry_decide(reg, 1, &err));
        T_ERR(err, PRC_E_INTERNAL);
        prc_registry_free(reg);
}

static void test_registry__manifest_edited_after_pinning_is_caught(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "p", "active", 1, 1);
        char pinned[PRC_SHA256_HEX + 1];
        prc_err err;
        prc_registry *reg;

        snprintf(pinned, sizeof(pinned), "%s", sha);
        T_EQ_INT(decide1(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml")), PRC_E_OK);
        /* A valid manifest with the same identity but another engine range: another canonical digest. */
        manifest(dir, "a.yaml", "a@1", "p", "active", 1, 2);
        reg = load_entries(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml"), &err);
        T_ASSERT(!prc_registry_decide(reg, 0, &err));
        T_ERR(err, PRC_E_REGISTRY_DIGEST_MISMATCH);
        T_EQ_STR(err.ptr, "/entries/0/manifest_sha256");
        T_EQ_STR(err.file, "a.yaml");
        prc_registry_free(reg);
        /* Re-formatting alone (comments, flow vs block style) does not change the canonical digest. */
        {
                char buf[4096];
                snprintf(buf, sizeof(buf), "# reformatted\n%s", manifest_text("prc.adapter-manifest/v0.4", "a@1", "p",
                                                                             "active", 1, 1, ""));
                wstr(dir, "a.yaml", buf);
        }
        T_EQ_INT(decide1(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml")), PRC_E_OK);
        /* An edit that also breaks the manifest is still reported as an edit of a pinned file... */
        wstr(dir, "a.yaml", "adapter_id: a@1\n");
        T_EQ_INT(decide1(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml")),
                 PRC_E_REGISTRY_DIGEST_MISMATCH);
        /* ...and as what it is when it is no document at all. */
        wstr(dir, "a.yaml", "adapter_id: [a@1\n");
        T_ASSERT(decide1(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml")) !=
                 PRC_E_OK);
}

static void test_registry__drift_and_engine_rejections(void)
{
        const char *dir = t_tmpdir();
        const char *s;

        s = manifest(dir, "pub.yaml", "a@1", "someone-else", "active", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "pub.yaml")),
                 PRC_E_REGISTRY_PUBLISHER_DRIFT);
        s = manifest(dir, "id.yaml", "b@1", "p", "active", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "id.yaml")),
                 PRC_E_REGISTRY_ADAPTER_ID_DRIFT);
        s = manifest(dir, "dep.yaml", "a@1", "p", "deprecated", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "dep.yaml")),
                 PRC_E_REGISTRY_LIFECYCLE_DRIFT);
        s = manifest(dir, "act.yaml", "a@1", "p", "active", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "deprecated", "act.yaml")),
                 PRC_E_REGISTRY_LIFECYCLE_DRIFT);
        s = manifest(dir, "mnt.yaml", "a@1", "p", "maintenance", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "mnt.yaml")), PRC_E_OK);
        s = manifest(dir, "new.yaml", "a@1", "p", "active", 2, 3);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "new.yaml")),
                 PRC_E_ENGINE_INCOMPATIBLE);
        s = manifest(dir, "old.yaml", "a@1", "p", "active", 0, 0);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "old.yaml")), PRC_E_INVALID_VALUE);
        s = manifest(dir, "wide.yaml", "a@1", "p", "active", 1, 9);
        T_EQ_INT(decide1(dir, entry("a@1", s, "p", "verified-community", "active", "wide.yaml")), PRC_E_OK);
}

static void test_registry__manifest_loader_failure_keeps_its_class(void)
{
        const char *dir = t_tmpdir();
        const char *old = manifest_text("prc.adapter-manifest/v0.3", "a@1", "p", "active", 1, 1, "");
        const char *extra = manifest_text("prc.adapter-manifest/v0.4", "a@1", "p", "active", 1, 1, "colour: blue\n");

        /* Pinned exactly, but archived schemas never execute. */
        wstr(dir, "old.yaml", old);
        T_ASSERT(decide1(dir, entry("a@1", digest_of(old), "p", "verified-community", "active", "old.yaml")) !=
                 PRC_E_OK);
        wstr(dir, "x.yaml", extra);
        T_EQ_INT(decide1(dir, entry("a@1", digest_of(extra), "p", "verified-community", "active", "x.yaml")),
                 PRC_E_UNKNOWN_FIELD);
}

static void test_registry__symlinked_and_odd_manifest_paths_are_refused(void)
{
        const char *dir = t_tmpdir();
        const char *sha;
        char p1[4200], p2[4200];

        snprintf(p1, sizeof(p1), "%s/real", dir);
        T_ASSERT(mkdir(p1, 0755) == 0);
        sha = manifest(dir, "real/a.yaml", "a@1", "p", "active", 1, 1);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "real/a.yaml")), PRC_E_OK);
        /* A symlinked directory component. */
        snprintf(p2, sizeof(p2), "%s/link", dir);
        T_ASSERT(symlink("real", p2) == 0);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "link/a.yaml")),
                 PRC_E_REGISTRY_MANIFEST_SYMLINK);
        /* A symlinked file, pointing inside and pointing outside. */
        snprintf(p2, sizeof(p2), "%s/l.yaml", dir);
        T_ASSERT(symlink("real/a.yaml", p2) == 0);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "l.yaml")),
                 PRC_E_REGISTRY_MANIFEST_SYMLINK);
        snprintf(p2, sizeof(p2), "%s/out.yaml", dir);
        T_ASSERT(symlink("/etc/hostname", p2) == 0);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "out.yaml")),
                 PRC_E_REGISTRY_MANIFEST_SYMLINK);
        /* A directory where the file should be, a file where a directory should be, nothing at all. */
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "real")),
                 PRC_E_REGISTRY_MANIFEST_NOT_REGULAR);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "real/a.yaml/x")),
                 PRC_E_REGISTRY_MANIFEST_NOT_REGULAR);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "real/none.yaml")),
                 PRC_E_REGISTRY_MANIFEST_MISSING);
        T_EQ_INT(decide1(dir, entry("a@1", sha, "p", "verified-community", "active", "none/a.yaml")),
                 PRC_E_REGISTRY_MANIFEST_MISSING);
}

static void test_registry__manifests_resolve_against_the_lockfile_directory(void)
{
        const char *dir = t_tmpdir();
        char sub[4200], cwd[4200];
        const char *sha;
        prc_err err;
        prc_registry *reg;

        snprintf(sub, sizeof(sub), "%s/reg", dir);
        T_ASSERT(mkdir(sub, 0755) == 0);
        sha = manifest(sub, "a.yaml", "a@1", "p", "active", 1, 1);
        /* A same-named file in the working directory must not be the one used. */
        manifest(dir, "a.yaml", "a@1", "p", "deprecated", 1, 1);
        T_ASSERT(getcwd(cwd, sizeof(cwd)) != NULL && chdir(dir) == 0);
        reg = load_entries(sub, entry("a@1", sha, "p", "verified-community", "active", "a.yaml"), &err);
        T_NOERR(err);
        T_ASSERT(prc_registry_decide(reg, 0, &err));
        prc_registry_free(reg);
        /* A relative lockfile path works too. */
        prc_err_init(&err);
        reg = prc_registry_load("reg/registry.json", &err);
        T_NOERR(err);
        T_ASSERT(prc_registry_decide(reg, 0, &err));
        prc_registry_free(reg);
        T_ASSERT(chdir(cwd) == 0);
}

static void test_registry__lockfile_symlink_is_refused(void)
{
        const char *dir = t_tmpdir();
        char link[4200];
        prc_err err;
        prc_registry *reg = load_entries(dir, "", &err);

        T_NOERR(err);
        prc_registry_free(reg);
        snprintf(link, sizeof(link), "%s/link.json", dir);
        T_ASSERT(symlink("registry.json", link) == 0);
        prc_err_init(&err);
        T_ASSERT(prc_registry_load(link, &err) == NULL);
        T_ERR(err, PRC_E_IO);
        T_EQ_STR(err.file, link);
}

static void test_registry__resolution_records_the_registry_grant(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "example.org", "active", 1, 1);
        prc_registry *reg;
        prc_resolution r, back;
        prc_err err;
        prc_buf b;
        json_t *j;
        char want[1024];

        reg = load_entries(dir, entry("a@1", sha, "example.org", "verified-community", "active", "a.yaml"), &err);
        T_ASSERT(prc_registry_resolve(reg, "a@1", &r, &err));
        T_NOERR(err);
        T_EQ_INT(r.grant, PRC_GRANT_REGISTRY);
        T_EQ_STR(r.trust, "verified-community");
        T_EQ_STR(r.registry_sha256, prc_registry_sha256(reg));
        j = prc_resolution_json(&r, &err);
        prc_buf_init(&b, 4096);
        T_ASSERT(j != NULL && prc_jcs_write(j, &b, &err));
        snprintf(want, sizeof(want),
                 "{\"adapter_id\":\"a@1\",\"grant\":\"registry\",\"manifest_sha256\":\"%s\",\"publisher_id\":"
                 "\"example.org\",\"registry\":{\"content_sha256\":\"%s\",\"registry_id\":\"example.org/main\","
                 "\"revision\":3},\"trust\":\"verified-community\"}", sha, prc_registry_sha256(reg));
        T_EQ_STR(prc_buf_cstr(&b), want);
        T_ASSERT(prc_resolution_from_json(j, &back, &err));
        T_EQ_STR(back.registry_sha256, r.registry_sha256);
        T_EQ_STR(back.manifest_sha256, r.manifest_sha256);
        T_EQ_STR(back.trust, r.trust);
        T_EQ_STR(back.adapter_id, "a@1");
        T_EQ_INT(back.registry_revision, 3);
        prc_err_init(&err);
        T_ASSERT(!prc_registry_resolve(reg, "nope@1", &r, &err));
        T_ERR(err, PRC_E_REGISTRY_NOT_FOUND);
        json_decref(j);
        prc_buf_clear(&b);
        prc_registry_free(reg);
}

static void test_registry__resolved_manifest_is_the_checked_one(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "a@1", "p", "active", 1, 1);
        char pinned[PRC_SHA256_HEX + 1];
        prc_resolution r;
        prc_manifest *m = NULL;
        prc_registry *reg;
        prc_err err;

        snprintf(pinned, sizeof(pinned), "%s", sha);
        reg = load_entries(dir, entry("a@1", pinned, "p", "verified-community", "active", "a.yaml"), &err);
        T_ASSERT(prc_registry_check(reg, 0, &err));
        /* Replaced after the check: the resolution keeps the bytes that were checked. */
        manifest(dir, "a.yaml", "a@1", "p", "active", 1, 3);
        T_ASSERT(prc_registry_resolve_manifest(reg, "a@1", &r, &m, &err));
        T_NOERR(err);
        T_EQ_STR(prc_manifest_sha256(m), pinned);
        T_EQ_STR(prc_manifest_adapter_id(m), "a@1");
        T_EQ_INT(prc_manifest_engine_max(m), 1);
        T_EQ_STR(r.manifest_sha256, pinned);
        prc_manifest_free(m);
        m = NULL;
        T_ASSERT(!prc_registry_resolve_manifest(reg, "b@1", &r, &m, &err));
        T_ERR(err, PRC_E_REGISTRY_NOT_FOUND);
        T_ASSERT(m == NULL);
        prc_registry_free(reg);
}

static void test_registry__resolve_set_is_all_or_nothing_and_ordered(void)
{
        const char *dir = t_tmpdir();
        char ea[1024], eb[1024], ec[1024], all[4096];
        const char *ids_ok[] = { "zeta@1", "alpha@2" };
        const char *ids_bad[] = { "alpha@2", "mid@1" };
        const char *ids_dup[] = { "alpha@2", "alpha@2" };
        const char *many[PRC_REGISTRY_RESOLVE_MAX + 1];
        prc_resolution out[PRC_REGISTRY_RESOLVE_MAX + 1];
        prc_registry *reg;
        prc_err err;

        snprintf(ea, sizeof(ea), "%s", entry("zeta@1", manifest(dir, "z.yaml", "zeta@1", "p", "active", 1, 1), "p",
                                             "verified-community", "active", "z.yaml"));
        snprintf(eb, sizeof(eb), "%s", entry("alpha@2", manifest(dir, "a.yaml", "alpha@2", "p", "active", 1, 1), "p",
                                             "first-party-sandboxed", "active", "a.yaml"));
        snprintf(ec, sizeof(ec), "%s", entry("mid@1", manifest(dir, "m.yaml", "mid@1", "p", "active", 1, 1), "p",
                                             "local", "active", "m.yaml"));
        snprintf(all, sizeof(all), "%s,%s,%s", ea, eb, ec);
        reg = load_entries(dir, all, &err);
        T_NOERR(err);
        T_ASSERT(prc_registry_resolve_set(reg, ids_ok, 2, out, &err));
        T_EQ_STR(out[0].adapter_id, "alpha@2");
        T_EQ_STR(out[1].adapter_id, "zeta@1");
        T_ASSERT(!prc_registry_resolve_set(reg, ids_bad, 2, out, &err));
        T_ERR(err, PRC_E_REGISTRY_TRUST_LOCAL);
        prc_err_init(&err);
        T_ASSERT(!prc_registry_resolve_set(reg, ids_dup, 2, out, &err));
        T_ERR(err, PRC_E_USAGE);
        for (size_t i = 0; i < PRC_ARRAY_LEN(many); i++)
                many[i] = "alpha@2";
        prc_err_init(&err);
        T_ASSERT(!prc_registry_resolve_set(reg, many, PRC_ARRAY_LEN(many), out, &err));
        T_ERR(err, PRC_E_USAGE);
        prc_registry_free(reg);
}

static void test_registry__local_explicit_grant_records_the_publisher(void)
{
        prc_resolution r, back;
        prc_err err;
        prc_buf b;
        json_t *j, *bad;

        prc_err_init(&err);
        T_ASSERT(prc_resolution_local("a@1", DA, "example.org", &r, &err));
        j = prc_resolution_json(&r, &err);
        prc_buf_init(&b, 4096);
        T_ASSERT(j != NULL && prc_jcs_write(j, &b, &err));
        T_EQ_STR(prc_buf_cstr(&b), "{\"adapter_id\":\"a@1\",\"grant\":\"local-explicit\",\"manifest_sha256\":\"" DA
                                   "\",\"publisher_id\":\"example.org\",\"registry\":null,\"trust\":\"local-explicit\"}");
        T_ASSERT(prc_resolution_from_json(j, &back, &err));
        T_EQ_INT(back.grant, PRC_GRANT_LOCAL_EXPLICIT);
        T_EQ_STR(back.publisher_id, "example.org");
        /* A local grant cannot smuggle in a registry trust level. */
        bad = json_deep_copy(j);
        json_object_set_new(bad, "trust", json_string("first-party-sandboxed"));
        T_ASSERT(!prc_resolution_from_json(bad, &back, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        json_decref(bad);
        bad = json_deep_copy(j);
        json_object_set_new(bad, "grant", json_string("registry"));
        prc_err_init(&err);
        T_ASSERT(!prc_resolution_from_json(bad, &back, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        json_decref(bad);
        bad = json_deep_copy(j);
        json_object_set_new(bad, "evaluator", json_true());
        prc_err_init(&err);
        T_ASSERT(!prc_resolution_from_json(bad, &back, &err));
        T_ERR(err, PRC_E_UNKNOWN_FIELD);
        json_decref(bad);
        prc_err_init(&err);
        T_ASSERT(!prc_resolution_local("a@1", "xyz", "example.org", &r, &err));
        T_ERR(err, PRC_E_INVALID_DIGEST);
        json_decref(j);
        prc_buf_clear(&b);
}

static void test_registry__local_grant_from_a_loaded_manifest(void)
{
        const char *dir = t_tmpdir();
        const char *sha = manifest(dir, "a.yaml", "prc.adapter.example@1.0", "example.org", "active", 1, 1);
        char path[4200];
        prc_resolution r;
        prc_manifest *m;
        prc_err err;

        snprintf(path, sizeof(path), "%s/a.yaml", dir);
        prc_err_init(&err);
        m = prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_ASSERT(prc_resolution_from_manifest(m, &r, &err));
        T_EQ_INT(r.grant, PRC_GRANT_LOCAL_EXPLICIT);
        T_EQ_STR(r.adapter_id, "prc.adapter.example@1.0");
        T_EQ_STR(r.manifest_sha256, sha);
        T_EQ_STR(r.publisher_id, "example.org");
        T_EQ_STR(r.trust, "local-explicit");
        T_EQ_STR(r.registry_id, "");
        prc_manifest_free(m);
}

/* Every truncation and single-bit flip of a valid lockfile: exactly one outcome, never a crash. */
static void test_registry__truncation_and_bit_flip_sweep(void)
{
        static const char yaml[] = "schema: prc.adapter-registry/v1\nregistry_id: r\nrevision: 1\nentries:\n"
                                   "  - adapter_id: a@1\n    manifest_sha256: " DA "\n    publisher_id: p\n"
                                   "    trust: local\n    status: revoked\n    manifest_path: m/a.json\n";
        static const char json[] = HEAD E1 "]}";
        const char *inputs[] = { yaml, json };
        prc_doc_format fmts[] = { PRC_DOC_YAML, PRC_DOC_JSON };
        char buf[1024];

        for (size_t k = 0; k < 2; k++) {
                size_t n = strlen(inputs[k]);
                for (size_t cut = 0; cut <= n; cut++) {
                        for (int bit = -1; bit < 8; bit++) {
                                prc_registry *reg;
                                prc_err err;
                                memcpy(buf, inputs[k], n);
                                if (bit >= 0 && cut < n)
                                        buf[cut] = (char)(buf[cut] ^ (1 << bit));
                                prc_err_init(&err);
                                /* bit -1: the input truncated at cut; otherwise the whole input with one flip. */
                                reg = prc_registry_parse((const uint8_t *)buf, bit < 0 ? cut : n, fmts[k],
                                                         &prc_limits_operator, &err);
                                T_EQ_INT(reg == NULL, err.cls != PRC_E_OK);
                                if (reg != NULL) {
                                        T_ASSERT(prc_digest_valid(prc_registry_sha256(reg)));
                                        T_ASSERT(prc_registry_nentries(reg) <= 1);
                                }
                                prc_registry_free(reg);
                        }
                }
        }
}

static void test_registry__manifest_and_registry_paths_are_exclusive(void)
{
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_resolution_paths_check(2, NULL, 0, &err));
        T_ASSERT(prc_resolution_paths_check(0, "r.yaml", 1, &err));
        T_ASSERT(prc_resolution_paths_check(0, NULL, 0, &err));
        T_ASSERT(!prc_resolution_paths_check(1, "r.yaml", 1, &err));
        T_ERR(err, PRC_E_USAGE);
        prc_err_init(&err);
        T_ASSERT(!prc_resolution_paths_check(0, NULL, 1, &err));
        T_ERR(err, PRC_E_USAGE);
        prc_err_init(&err);
        T_ASSERT(!prc_resolution_paths_check(0, "r.yaml", 0, &err));
        T_ERR(err, PRC_E_USAGE);
}

static void test_registry__signature_binds_the_content_digest(void)
{
        const char *dir = t_tmpdir();
        t_key k;
        prc_err err;
        prc_registry *reg;
        prc_trust_store *ts;
        prc_sig_info info;
        json_t *sd, *store;
        char *text, path[4200], sigp[4200];

        t_key_new(&k);
        store = t_store_doc1("example.org", &k, "[\"registry\"]");
        prc_err_init(&err);
        ts = prc_trust_from_doc(store, &err);
        T_NOERR(err);
        reg = load_entries(dir, E1, &err);
        sd = t_sig_doc(&k, PRC_SIG_REGISTRY, prc_registry_sha256(reg));
        text = json_dumps(sd, 0);
        snprintf(sigp, sizeof(sigp), "%s", t_write(dir, "registry.sig.json", text, strlen(text)));
        T_ASSERT(prc_registry_verify_signature(reg, ts, sigp, &info, &err));
        T_EQ_STR(info.publisher_id, "example.org");
        prc_registry_free(reg);
        /* The next revision is another document: the old signature does not carry over. */
        snprintf(path, sizeof(path), "%s/registry.json", dir);
        {
                char next[4096];
                int n = snprintf(next, sizeof(next), "{\"schema\":\"prc.adapter-registry/v1\",\"registry_id\":"
                                                     "\"example.org/main\",\"revision\":4,\"entries\":[" E1 "]}");
                t_write(dir, "registry.json", next, (size_t)n);
        }
        prc_err_init(&err);
        reg = prc_registry_load(path, &err);
        T_NOERR(err);
        T_ASSERT(!prc_registry_verify_signature(reg, ts, sigp, &info, &err));
        T_ERR(err, PRC_E_SIG_DIGEST_MISMATCH);
        free(text);
        json_decref(sd);
        /* A manifest-scope signature over the registry digest is a scope replay. */
        sd = t_sig_doc(&k, PRC_SIG_MANIFEST, prc_registry_sha256(reg));
        text = json_dumps(sd, 0);
        t_write(dir, "registry.sig.json", text, strlen(text));
        prc_err_init(&err);
        T_ASSERT(!prc_registry_verify_signature(reg, ts, sigp, &info, &err));
        T_ERR(err, PRC_E_SIG_SCOPE_MISMATCH);
        free(text);
        json_decref(sd);
        json_decref(store);
        prc_trust_free(ts);
        prc_registry_free(reg);
        t_key_free(&k);
}

static const prc_test tests[] = {
        T(test_registry__valid_lockfile_loads_with_its_content_digest),
        T(test_registry__content_digest_ignores_formatting_and_key_order),
        T(test_registry__yaml_spelling_is_the_same_document),
        T(test_registry__document_rejections_have_their_classes),
        T(test_registry__document_error_points_at_the_field),
        T(test_registry__default_policy_admits_only_first_party_and_verified),
        T(test_registry__manifest_cannot_raise_its_own_trust),
        T(test_registry__revoked_entry_blocks_with_its_manifest_deleted),
        T(test_registry__revoked_works_without_a_directory),
        T(test_registry__manifest_edited_after_pinning_is_caught),
        T(test_registry__drift_and_engine_rejections),
        T(test_registry__manifest_loader_failure_keeps_its_class),
        T(test_registry__symlinked_and_odd_manifest_paths_are_refused),
        T(test_registry__manifests_resolve_against_the_lockfile_directory),
        T(test_registry__lockfile_symlink_is_refused),
        T(test_registry__resolution_records_the_registry_grant),
        T(test_registry__resolved_manifest_is_the_checked_one),
        T(test_registry__resolve_set_is_all_or_nothing_and_ordered),
        T(test_registry__local_explicit_grant_records_the_publisher),
        T(test_registry__local_grant_from_a_loaded_manifest),
        T(test_registry__truncation_and_bit_flip_sweep),
        T(test_registry__manifest_and_registry_paths_are_exclusive),
        T(test_registry__signature_binds_the_content_digest),
};
PRC_SUITE(registry, tests)
