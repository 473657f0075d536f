/*
 * test_manifest.c - capability manifest v0.4 loader: identity, accessors,
 * archived versions, and one refusal per rule (issue 3).
 */
#include "t.h"

#include <stdlib.h>
#include <unistd.h>

#include "adapter/manifest.h"
#include "adapter_manifest_json.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"

static json_t *base_doc(void)
{
        prc_err err;
        json_t *d;

        prc_err_init(&err);
        d = prc_json_parse((const uint8_t *)T_MANIFEST_JSON, strlen(T_MANIFEST_JSON), &prc_limits_operator, 0, &err);
        T_NOERR(err);
        return d;
}

/* Load doc for use; returns the error class (PRC_E_OK when it loads). */
static prc_errclass load(json_t *doc, prc_manifest_use use)
{
        prc_err err;
        prc_manifest *m;

        prc_err_init(&err);
        m = prc_manifest_from_doc(doc, use, &err);
        T_ASSERT((m == NULL) == (err.cls != PRC_E_OK));
        prc_manifest_free(m);
        json_decref(doc);
        return err.cls;
}

/* Set a field by a dotted path ("tool.version") in the base manifest, then load it for execution. */
static prc_errclass with(const char *path, json_t *value)
{
        json_t *d = base_doc(), *o = d;
        char buf[128], *dot, *k = buf;

        snprintf(buf, sizeof(buf), "%s", path);
        while ((dot = strchr(k, '.')) != NULL) {
                *dot = '\0';
                o = json_object_get(o, k);
                k = dot + 1;
        }
        if (value == NULL)
                json_object_del(o, k);
        else
                json_object_set_new(o, k, value);
        return load(d, PRC_MANIFEST_EXECUTE);
}

static void test_manifest__valid_v04_loads_with_accessors(void)
{
        json_t *d = base_doc();
        prc_err err;
        prc_manifest *m;
        char hex[PRC_SHA256_HEX + 1], ref[256];
        prc_manifest_data dd;

        prc_err_init(&err);
        m = prc_manifest_from_doc(d, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_ASSERT(prc_jcs_digest(d, hex, &err));
        T_EQ_STR(prc_manifest_sha256(m), hex);
        T_EQ_STR(prc_manifest_schema(m), "prc.adapter-manifest/v0.4");
        T_EQ_INT(prc_manifest_version(m), 4);
        T_EQ_STR(prc_manifest_adapter_id(m), "prc.adapter.fixture@1.0");
        T_EQ_STR(prc_manifest_publisher_id(m), "prc");
        T_EQ_STR(prc_manifest_publisher_name(m), "prc project");
        T_EQ_STR(prc_manifest_owner_id(m), "prc-adapters");
        T_EQ_STR(prc_manifest_protocol(m), "prc-adapter-jsonl-v1");
        T_EQ_STR(prc_manifest_output_schema(m), "prc.adapter-message/v1");
        T_EQ_STR(prc_manifest_maintenance(m), "active");
        T_EQ_INT(prc_manifest_engine_min(m), 1);
        T_EQ_INT(prc_manifest_engine_max(m), 1);
        T_EQ_STR(prc_manifest_tool_name(m), "prc-fixture-tool");
        T_EQ_STR(prc_manifest_tool_version(m), "1.0.0");
        T_EQ_INT(json_array_size(prc_manifest_tool_formats(m)), 1);
        T_EQ_INT(prc_manifest_kind_count(m), 3);
        T_EQ_STR(prc_manifest_kind_at(m, 2), "fixture.sbom");
        T_ASSERT(prc_manifest_kind_at(m, 3) == NULL);
        T_ASSERT(prc_manifest_declares_kind(m, "fixture.secret"));
        T_ASSERT(!prc_manifest_declares_kind(m, "fixture.secre"));
        T_EQ_STR(prc_manifest_image_registry(m), "registry.prc.invalid");
        T_EQ_STR(prc_manifest_image_repository(m), "prc/fixture-adapter");
        T_ASSERT(prc_manifest_image_ref(m, ref, sizeof(ref), &err));
        T_EQ_STR(ref, "registry.prc.invalid/prc/fixture-adapter@sha256:"
                      "0000000000000000000000000000000000000000000000000000000000000001");
        T_ASSERT(!prc_manifest_image_ref(m, ref, 16, &err));
        T_ERR(err, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(prc_manifest_command_len(m), 2);
        T_EQ_STR(prc_manifest_command_arg(m, 1), "--jsonl");
        T_EQ_INT(prc_manifest_limits_of(m)->line_bytes, 4096);
        T_EQ_INT(prc_manifest_limits_of(m)->memory_bytes, 268435456);
        T_EQ_INT(prc_manifest_data_count(m), 0);
        T_ASSERT(!prc_manifest_data_find(m, "db", &dd));
        T_EQ_INT(json_array_size(prc_manifest_known_limitations(m)), 1);
        prc_manifest_free(m);
        json_decref(d);
}

static void test_manifest__identity_ignores_formatting_and_key_order(void)
{
        prc_err err;
        json_t *d = base_doc(), *shuffled;
        char *text;
        prc_manifest *m1, *m2;

        prc_err_init(&err);
        /* re-serialize with indentation (the loader's key order differs from the source's) */
        text = json_dumps(d, JSON_INDENT(3) | JSON_PRESERVE_ORDER);
        shuffled = json_loads(text, 0, NULL);
        m1 = prc_manifest_parse((const uint8_t *)T_MANIFEST_JSON, strlen(T_MANIFEST_JSON), PRC_MANIFEST_EXECUTE, &err);
        m2 = prc_manifest_parse((const uint8_t *)text, strlen(text), PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_EQ_STR(prc_manifest_sha256(m1), prc_manifest_sha256(m2));
        /* a YAML spelling of the same document has the same identity too */
        {
                static const char y[] =
                        "schema: prc.adapter-manifest/v0.4\nadapter_id: prc.adapter.fixture@1.0\n"
                        "publisher: {id: prc, name: prc project}\n"
                        "owner: {id: prc-adapters, contact: adapters@prc.invalid}\n"
                        "protocol: prc-adapter-jsonl-v1\noutput_schema: prc.adapter-message/v1\n"
                        "engine_api: {min: 1, max: 1}\n"
                        "tool: {name: prc-fixture-tool, version: 1.0.0, formats: [prc-fixture/1]}\n"
                        "observation_kinds: [fixture.secret, fixture.license, fixture.sbom]\n"
                        "maintenance: active\nknown_limitations: [test only]\n"
                        "image:\n  registry: registry.prc.invalid\n  repository: prc/fixture-adapter\n"
                        "  digest: sha256:0000000000000000000000000000000000000000000000000000000000000001\n"
                        "command: [/usr/local/bin/prc-fixture-adapter, --jsonl]\n"
                        "limits: {wall_seconds: 60, memory_bytes: 268435456, cpus_millis: 1000, pids: 16, nofile: 64,\n"
                        "  tmpfs_bytes: 0, stdin_bytes: 1048576, stdout_bytes: 1048576, stderr_bytes: 65536,\n"
                        "  line_bytes: 4096, messages: 5000}\n";
                prc_manifest *m3 = prc_manifest_parse((const uint8_t *)y, sizeof(y) - 1, PRC_MANIFEST_EXECUTE, &err);
                T_NOERR(err);
                T_EQ_STR(prc_manifest_sha256(m3), prc_manifest_sha256(m1));
                prc_manifest_free(m3);
        }
        /* any change of content changes it */
        json_object_set_new(json_object_get(shuffled, "limits"), "messages", json_integer(99));
        prc_manifest_free(m2);
        m2 = prc_manifest_from_doc(shuffled, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_ASSERT(strcmp(prc_manifest_sha256(m1), prc_manifest_sha256(m2)) != 0);
        prc_manifest_free(m1);
        prc_manifest_free(m2);
        json_decref(shuffled);
        json_decref(d);
        free(text);
}

static void test_manifest__archived_versions_load_for_records_only(void)
{
        static const char *const files[] = { "fixtures/adapters/archived/fixture-adapter-v0.1.yaml",
                                             "fixtures/adapters/archived/fixture-adapter-v0.2.yaml",
                                             "fixtures/adapters/archived/fixture-adapter-v0.3.yaml" };
        char path[4200];

        for (size_t i = 0; i < PRC_ARRAY_LEN(files); i++) {
                prc_err err;
                prc_manifest *m;

                snprintf(path, sizeof(path), "%s/%s", t_root(), files[i]);
                prc_err_init(&err);
                m = prc_manifest_load(path, PRC_MANIFEST_RECORDS, &err);
                T_NOERR(err);
                T_EQ_INT(prc_manifest_version(m), (long long)i + 1);
                T_ASSERT(prc_manifest_declares_kind(m, "fixture.secret"));
                T_EQ_STR(prc_manifest_publisher_id(m), "prc");
                T_EQ_INT(strlen(prc_manifest_sha256(m)), 64);
                prc_manifest_free(m);
                prc_err_init(&err);
                T_ASSERT(prc_manifest_load(path, PRC_MANIFEST_EXECUTE, &err) == NULL);
                T_ERR(err, PRC_E_MANIFEST_ARCHIVED);
                T_ASSERT(strstr(err.msg, "old records only") != NULL);
        }
}

static void test_manifest__schema_and_structure_refusals(void)
{
        T_EQ_INT(with("schema", json_string("prc.adapter-manifest/v0.5")), PRC_E_UNKNOWN_SCHEMA_VERSION);
        T_EQ_INT(with("schema", NULL), PRC_E_MISSING_FIELD);
        T_EQ_INT(with("schema", json_integer(4)), PRC_E_WRONG_TYPE);
        T_EQ_INT(with("extra", json_true()), PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(with("tool.homepage", json_string("x")), PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(with("owner", NULL), PRC_E_MISSING_FIELD);
        T_EQ_INT(with("limits.messages", NULL), PRC_E_MISSING_FIELD);
        T_EQ_INT(with("command", json_string("run")), PRC_E_WRONG_TYPE);
        T_EQ_INT(load(json_array(), PRC_MANIFEST_EXECUTE), PRC_E_NOT_AN_OBJECT);
        T_EQ_INT(with("maintenance", json_string("abandoned")), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("observation_kinds", json_array()), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("observation_kinds", json_pack("[s]", "Fixture Secret")), PRC_E_INVALID_ID);
        T_EQ_INT(with("observation_kinds", json_pack("[s,s]", "a", "a")), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("adapter_id", json_string("no-version")), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("publisher.id", json_string("Big Corp")), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("protocol", json_string("prc-adapter-grpc-v1")), PRC_E_INVALID_VALUE);
}

static void test_manifest__self_declared_trust_is_an_authority_claim(void)
{
        T_EQ_INT(with("trust", json_string("first-party-sandboxed")), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("verified", json_true()), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("publisher.verified", json_true()), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("first_party", json_true()), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("firstParty", json_true()), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("signature", json_string("MEUCIQ")), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("tool.Trust-Level", json_string("high")), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("policy", json_object()), PRC_E_AUTHORITY_CLAIM);
        T_EQ_INT(with("suppress", json_pack("[s]", "fixture.secret")), PRC_E_AUTHORITY_CLAIM);
}

static void test_manifest__tool_versions_must_be_immutable(void)
{
        static const char *const bad[] = { "latest", "LATEST", "stable", "^1.2.0", "~1.2", ">=1.0", "1.x", "1.2.*",
                                           "1.2.X", "", "1..2", "1.", "v", "1.0 || 2.0", "*" };
        static const char *const good[] = { "1.0.0", "8.30.0", "2024.1-r3", "v1.51.0", "0.116.1+build.7" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++)
                if (with("tool.version", json_string(bad[i])) != PRC_E_MUTABLE_VERSION)
                        t_fail(__FILE__, __LINE__, "tool version '%s' was not refused as mutable-version", bad[i]);
        for (size_t i = 0; i < PRC_ARRAY_LEN(good); i++)
                if (with("tool.version", json_string(good[i])) != PRC_E_OK)
                        t_fail(__FILE__, __LINE__, "tool version '%s' was refused", good[i]);
        T_EQ_INT(with("adapter_id", json_string("prc.adapter.fixture@latest")), PRC_E_MUTABLE_VERSION);
}

static void test_manifest__image_needs_host_digest_and_no_tag(void)
{
        T_EQ_INT(with("image.registry", json_string("docker")), PRC_E_INVALID_IMAGE_REF);
        T_EQ_INT(with("image.registry", json_string("Registry.example.com")), PRC_E_INVALID_IMAGE_REF);
        T_EQ_INT(with("image.registry", json_string("localhost:5000")), PRC_E_OK);
        T_EQ_INT(with("image.registry", json_string("ghcr.io")), PRC_E_OK);
        T_EQ_INT(with("image.repository", json_string("prc/fixture:1.0")), PRC_E_INVALID_IMAGE_REF);
        T_EQ_INT(with("image.repository", json_string("prc/fixture@sha256")), PRC_E_INVALID_IMAGE_REF);
        T_EQ_INT(with("image.repository", json_string("prc//fixture")), PRC_E_INVALID_IMAGE_REF);
        T_EQ_INT(with("image.repository", json_string("gitleaks/gitleaks")), PRC_E_OK);
        T_EQ_INT(with("image.digest", json_string("sha256:abc")), PRC_E_INVALID_DIGEST);
        T_EQ_INT(with("image.digest", json_string("0000000000000000000000000000000000000000000000000000000000000001")),
                 PRC_E_INVALID_DIGEST);
        T_EQ_INT(with("image.tag", json_string("latest")), PRC_E_UNKNOWN_FIELD);
}

static void test_manifest__command_is_argv_without_a_shell(void)
{
        T_EQ_INT(with("command", json_array()), PRC_E_INVALID_COMMAND);
        T_EQ_INT(with("command", json_pack("[s,s,s]", "/bin/sh", "-c", "run")), PRC_E_INVALID_COMMAND);
        T_EQ_INT(with("command", json_pack("[s,s]", "bash", "x")), PRC_E_INVALID_COMMAND);
        T_EQ_INT(with("command", json_pack("[s,s]", "/usr/bin/env", "tool")), PRC_E_INVALID_COMMAND);
        T_EQ_INT(with("command", json_pack("[s,s]", "/tool", "")), PRC_E_INVALID_COMMAND);
        T_EQ_INT(with("command", json_pack("[s,i]", "/tool", 1)), PRC_E_WRONG_TYPE);
}

static void test_manifest__limits_have_documented_ranges(void)
{
        T_EQ_INT(with("limits.wall_seconds", json_integer(3601)), PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("limits.wall_seconds", json_integer(0)), PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("limits.messages", json_integer(1000001)), PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("limits.line_bytes", json_integer(-1)), PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("limits.tmpfs_bytes", json_integer(0)), PRC_E_OK);
        T_EQ_INT(with("limits.memory_bytes", json_integer(16ll << 30)), PRC_E_OK);
        T_EQ_INT(with("limits.memory_bytes", json_integer((16ll << 30) + 1)), PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("limits.pids", json_string("16")), PRC_E_WRONG_TYPE);
        T_EQ_INT(with("limits.network", json_true()), PRC_E_UNKNOWN_FIELD);
}

static void test_manifest__engine_api_and_protocol_bindings(void)
{
        T_EQ_INT(with("engine_api", json_pack("{s:i,s:i}", "min", 2, "max", 3)), PRC_E_ENGINE_INCOMPATIBLE);
        T_EQ_INT(with("engine_api", json_pack("{s:i,s:i}", "min", 2, "max", 1)), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("engine_api", json_pack("{s:i,s:i}", "min", 0, "max", 1)), PRC_E_INVALID_VALUE);
        {
                json_t *d = base_doc();
                json_object_set_new(json_object_get(d, "engine_api"), "min", json_integer(2));
                json_object_set_new(json_object_get(d, "engine_api"), "max", json_integer(3));
                T_EQ_INT(load(d, PRC_MANIFEST_RECORDS), PRC_E_OK);   /* old records of another engine */
        }
        T_EQ_INT(with("output_schema", json_string("prc.adapter-message/v2")), PRC_E_PROTOCOL_MISMATCH);
        {
                /* a native protocol binds its tool identity and output schema */
                json_t *d = base_doc();
                json_object_set_new(d, "protocol", json_string("prc-adapter-gitleaks-json-v1"));
                json_object_set_new(d, "output_schema", json_string("gitleaks.report/v8"));
                T_EQ_INT(load(json_incref(d), PRC_MANIFEST_EXECUTE), PRC_E_PROTOCOL_MISMATCH);
                json_object_set_new(json_object_get(d, "tool"), "name", json_string("gitleaks"));
                json_object_set_new(json_object_get(d, "tool"), "version", json_string("8.30.0"));
                T_EQ_INT(load(d, PRC_MANIFEST_EXECUTE), PRC_E_OK);
        }
}

static void test_manifest__data_declarations(void)
{
        json_t *d = base_doc();
        prc_err err;
        prc_manifest *m;
        prc_manifest_data dd;

        json_object_set_new(d, "data", json_pack("[{s:s,s:I,s:i}]", "name", "grype-db", "max_bytes",
                                                 (json_int_t)4 << 30, "max_files", 1000));
        prc_err_init(&err);
        m = prc_manifest_from_doc(d, PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        T_EQ_INT(prc_manifest_data_count(m), 1);
        T_ASSERT(prc_manifest_data_find(m, "grype-db", &dd));
        T_EQ_STR(dd.name, "grype-db");
        T_EQ_INT(dd.max_bytes, 4ll << 30);
        T_EQ_INT(dd.max_files, 1000);
        prc_manifest_free(m);
        json_decref(d);
        T_EQ_INT(with("data", json_pack("[{s:s,s:i,s:i},{s:s,s:i,s:i}]", "name", "db", "max_bytes", 1, "max_files", 1,
                                        "name", "db", "max_bytes", 1, "max_files", 1)), PRC_E_INVALID_VALUE);
        T_EQ_INT(with("data", json_pack("[{s:s,s:i,s:i}]", "name", "../db", "max_bytes", 1, "max_files", 1)),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(with("data", json_pack("[{s:s,s:i,s:i}]", "name", "db", "max_bytes", 0, "max_files", 1)),
                 PRC_E_LIMIT_OUT_OF_RANGE);
        T_EQ_INT(with("data", json_pack("[{s:s,s:i,s:i,s:s}]", "name", "db", "max_bytes", 1, "max_files", 1, "host_path",
                                        "/srv")), PRC_E_UNKNOWN_FIELD);
}

static void test_manifest__load_refuses_a_symlink_and_sets_the_file(void)
{
        char real[4200], link[4200];
        prc_err err;

        snprintf(real, sizeof(real), "%s/fixtures/adapters/fixture-adapter.yaml", t_root());
        snprintf(link, sizeof(link), "%s/link.yaml", t_tmpdir());
        T_ASSERT(symlink(real, link) == 0);
        prc_err_init(&err);
        T_ASSERT(prc_manifest_load(link, PRC_MANIFEST_EXECUTE, &err) == NULL);
        T_ERR(err, PRC_E_IO);
        T_EQ_STR(err.file, link);
        prc_err_init(&err);
        prc_manifest_free(prc_manifest_load(real, PRC_MANIFEST_EXECUTE, &err));
        T_NOERR(err);
}

static const prc_test tests[] = {
        T(test_manifest__valid_v04_loads_with_accessors),
        T(test_manifest__identity_ignores_formatting_and_key_order),
        T(test_manifest__archived_versions_load_for_records_only),
        T(test_manifest__schema_and_structure_refusals),
        T(test_manifest__self_declared_trust_is_an_authority_claim),
        T(test_manifest__tool_versions_must_be_immutable),
        T(test_manifest__image_needs_host_digest_and_no_tag),
        T(test_manifest__command_is_argv_without_a_shell),
        T(test_manifest__limits_have_documented_ranges),
        T(test_manifest__engine_api_and_protocol_bindings),
        T(test_manifest__data_declarations),
        T(test_manifest__load_refuses_a_symlink_and_sets_the_file),
};
PRC_SUITE(manifest, tests)
