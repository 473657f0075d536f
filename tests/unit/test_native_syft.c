/*
 * test_native_syft.c - prc-adapter-syft-cyclonedx-json-v1: one test per
 * rejection seed 000 lists (tool identity, CycloneDX 1.7 envelope,
 * component, purl, dependency and metadata structures, counts), and the
 * determinism the normalized artifact promises.
 */
#include <stdlib.h>
#include <string.h>

#include "adapter/native/syft.h"
#include "base/digest.h"
#include "native_t.h"

static void test_native_syft__rejects_wrong_tool_version(void)
{
        nt_expect_err("syft", "101-tool-version", PRC_E_NATIVE_TOOL_IDENTITY);
}
static void test_native_syft__rejects_wrong_tool_name(void)
{
        nt_expect_err("syft", "102-tool-name", PRC_E_NATIVE_TOOL_IDENTITY);
}
static void test_native_syft__rejects_legacy_tools_array(void)
{
        nt_expect_err("syft", "103-tools-legacy-array", PRC_E_NATIVE_ENVELOPE);
}
static void test_native_syft__rejects_spec_1_6(void)
{
        nt_expect_err("syft", "104-spec-1.6", PRC_E_NATIVE_ENVELOPE);
}
static void test_native_syft__rejects_other_schema_url(void)
{
        nt_expect_err("syft", "105-schema-url", PRC_E_NATIVE_ENVELOPE);
}
static void test_native_syft__rejects_other_bom_format(void)
{
        nt_expect_err("syft", "106-bom-format", PRC_E_NATIVE_ENVELOPE);
}
static void test_native_syft__rejects_bom_version_2(void)
{
        nt_expect_err("syft", "125-version-2", PRC_E_NATIVE_ENVELOPE);
}
static void test_native_syft__rejects_redacted_serial(void)
{
        nt_expect_err("syft", "107-serial-redacted", PRC_E_NATIVE_METADATA);
}
static void test_native_syft__rejects_redacted_timestamp(void)
{
        nt_expect_err("syft", "108-timestamp-redacted", PRC_E_NATIVE_METADATA);
}
static void test_native_syft__rejects_foreign_source_component(void)
{
        nt_expect_err("syft", "109-source-name", PRC_E_NATIVE_METADATA);
}
static void test_native_syft__rejects_missing_source_component(void)
{
        nt_expect_err("syft", "127-metadata-missing-source", PRC_E_NATIVE_METADATA);
}
static void test_native_syft__rejects_image_metadata_properties(void)
{
        nt_expect_err("syft", "110-image-properties", PRC_E_NATIVE_METADATA);
}
static void test_native_syft__rejects_component_type(void)
{
        nt_expect_err("syft", "111-component-type", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_component_unknown_key(void)
{
        nt_expect_err("syft", "112-component-unknown-key", PRC_E_UNKNOWN_FIELD);
}
static void test_native_syft__rejects_repeated_bom_ref(void)
{
        nt_expect_err("syft", "113-component-duplicate-ref", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_malformed_bom_ref(void)
{
        nt_expect_err("syft", "114-component-bad-ref", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_synthetic_purl(void)
{
        nt_expect_err("syft", "115-purl-synthetic", PRC_E_NATIVE_PURL);
}
static void test_native_syft__rejects_purl_without_name(void)
{
        nt_expect_err("syft", "116-purl-no-name", PRC_E_NATIVE_PURL);
}
static void test_native_syft__rejects_property_value_not_string(void)
{
        nt_expect_err("syft", "117-property-shape", PRC_E_WRONG_TYPE);
}
static void test_native_syft__rejects_foreign_property(void)
{
        nt_expect_err("syft", "118-property-foreign", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_malformed_hash(void)
{
        nt_expect_err("syft", "119-hash-malformed", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_dependency_on_unknown_ref(void)
{
        nt_expect_err("syft", "120-dependency-unknown-ref", PRC_E_NATIVE_DEPENDENCY);
}
static void test_native_syft__rejects_empty_dependency(void)
{
        nt_expect_err("syft", "121-dependency-empty", PRC_E_NATIVE_DEPENDENCY);
}
static void test_native_syft__rejects_repeated_dependency(void)
{
        nt_expect_err("syft", "122-dependency-repeated", PRC_E_NATIVE_DEPENDENCY);
}
static void test_native_syft__rejects_dependency_from_non_package(void)
{
        nt_expect_err("syft", "123-dependency-from-os", PRC_E_NATIVE_DEPENDENCY);
}
static void test_native_syft__rejects_unknown_top_level_key(void)
{
        nt_expect_err("syft", "124-top-unknown-key", PRC_E_UNKNOWN_FIELD);
}
static void test_native_syft__rejects_duplicate_key(void)
{
        nt_expect_err("syft", "126-duplicate-field", PRC_E_DUPLICATE_FIELD);
}

static void test_native_syft__rejects_source_version_not_passed(void)
{
        nt_expect_err("syft", "128-source-version", PRC_E_UNKNOWN_FIELD);
}
static void test_native_syft__rejects_supplier_not_passed(void)
{
        nt_expect_err("syft", "129-component-supplier", PRC_E_UNKNOWN_FIELD);
}
static void test_native_syft__rejects_malformed_cpe(void)
{
        nt_expect_err("syft", "130-cpe-malformed", PRC_E_NATIVE_COMPONENT);
}
static void test_native_syft__rejects_escaping_location(void)
{
        nt_expect_err("syft", "131-location-escape", PRC_E_NATIVE_PATH_OUTSIDE);
}
static void test_native_syft__rejects_scanner_owned_location(void)
{
        nt_expect_err("syft", "132-location-scanner-owned", PRC_E_NATIVE_PATH_OUTSIDE);
}
static void test_native_syft__rejects_escaping_file_component(void)
{
        nt_expect_err("syft", "133-file-component-escape", PRC_E_NATIVE_PATH_OUTSIDE);
}

static void test_native_syft__rejects_excessive_components(void)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_result r = { 0 };
        prc_native_ctx ctx = { 0 };
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/golden/native/syft/001-dir.in", t_root());
        p = t_read(path, &n);
        ctx.max_items = 3;
        prc_err_init(&err);
        T_ASSERT(!prc_native_normalize(prc_native_spec_of(PRC_NATIVE_SYFT), (const uint8_t *)p, n, &ctx, &r, &err));
        T_ERR(err, PRC_E_NATIVE_COUNT_LIMIT);
        free(p);
}

/* Same inventory, other serial number, timestamp, source bom-ref and order: identical bytes. */
static void test_native_syft__rerun_normalizes_to_identical_bytes(void)
{
        prc_native_result a = { 0 }, b = { 0 };
        prc_err err;

        T_ASSERT(nt_run("syft", "001-dir", &a, &err));
        T_ASSERT(nt_run("syft", "002-dir-rerun", &b, &err));
        T_EQ_MEM(a.artifact, a.artifact_len, b.artifact, b.artifact_len);
        T_EQ_STR(a.artifact_sha256, b.artifact_sha256);
        /* the native reports differ, their descriptors too */
        T_ASSERT(strcmp(json_string_value(json_object_get(a.report, "sha256")),
                        json_string_value(json_object_get(b.report, "sha256"))) != 0);
        T_ASSERT(memmem(a.artifact, a.artifact_len, "serialNumber", 12) == NULL);
        T_ASSERT(memmem(a.artifact, a.artifact_len, "timestamp", 9) == NULL);
        T_ASSERT(memmem(a.artifact, a.artifact_len, "5e7a6c1d2b3f4a59", 16) == NULL);
        T_EQ_STR(a.artifact_media_type, "application/vnd.cyclonedx+json;version=1.7");
        prc_native_result_clear(&a);
        prc_native_result_clear(&b);
}

/* A value observation that says only that the repository-inventory SBOM was generated. */
static void test_native_syft__value_observation_names_the_artifact(void)
{
        prc_native_result r = { 0 };
        prc_err err;
        const json_t *o, *v;

        T_ASSERT(nt_run("syft", "001-dir", &r, &err));
        T_EQ_INT(json_array_size(r.observations), 1);
        o = json_array_get(r.observations, 0);
        v = json_object_get(o, "value");
        T_EQ_STR(json_string_value(json_object_get(o, "outcome")), "value");
        T_EQ_STR(json_string_value(json_object_get(v, "generated")), "repository-inventory-sbom");
        T_EQ_STR(json_string_value(json_object_get(v, "sha256")), r.artifact_sha256);
        T_EQ_INT(json_integer_value(json_object_get(v, "components")), 4);
        prc_native_result_clear(&r);
}

static void test_native_syft__purl_grammar(void)
{
        T_ASSERT(prc_purl_valid("pkg:deb/debian/package-2@2.0.1"));
        T_ASSERT(prc_purl_valid("pkg:golang/github.com/a/b@v1.2.3?type=module#sub/dir"));
        T_ASSERT(prc_purl_valid("pkg:npm/%40scope/name@1.0.0?package-id=0123456789abcdef&x=y"));
        T_ASSERT(!prc_purl_valid("a-purl-2"));
        T_ASSERT(!prc_purl_valid("pkg:/name@1"));
        T_ASSERT(!prc_purl_valid("pkg:npm/"));
        T_ASSERT(!prc_purl_valid("pkg:npm//name"));
        T_ASSERT(!prc_purl_valid("pkg:npm/name@"));
        T_ASSERT(!prc_purl_valid("pkg:npm/name?k"));
        T_ASSERT(!prc_purl_valid("pkg:npm/na me"));
        T_ASSERT(!prc_purl_valid("pkg:npm/name#"));
}

static void test_native_syft__owned_config_is_digest_bound(void)
{
        const prc_native_spec *s = prc_native_spec_of(PRC_NATIVE_SYFT);
        char hex[PRC_SHA256_HEX + 1];
        prc_err err;

        prc_err_init(&err);
        T_EQ_INT(s->n_owned, 1);
        T_EQ_STR(s->owned[0].path, ".prc/syft/config.yaml");
        T_ASSERT(prc_sha256_hex_once(s->owned[0].bytes, strlen(s->owned[0].bytes), hex, &err));
        T_EQ_STR(hex, PRC_SYFT_CONFIG_SHA256);
        T_EQ_STR(s->argv[3], "--config=" PRC_NATIVE_SNAPSHOT_MOUNT "/.prc/syft/config.yaml");
        T_EQ_STR(s->argv[5], "--output=cyclonedx-json@1.7");
}

/* Normalize syft/001-dir against an inventory path set (the runner's prc_native_paths shape). */
static bool syft_with_paths(json_t *paths, prc_native_result *r, prc_err *err)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_ctx ctx = nt_ctx("001-dir");
        bool ok;

        ctx.paths = paths;
        snprintf(path, sizeof(path), "%s/tests/golden/native/syft/001-dir.in", t_root());
        p = t_read(path, &n);
        prc_err_init(err);
        ok = prc_native_normalize(prc_native_spec_of(PRC_NATIVE_SYFT), (const uint8_t *)p, n, &ctx, r, err);
        free(p);
        return ok;
}

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static void test_native_syft__inventory_binding_accepts_its_own_inventory(void)
{
        json_t *paths = json_pack("{s:s,s:s,s:s}", "pkg1/METADATA", EMPTY_SHA256, "var/lib/dpkg/status",
                                  "aa00000000000000000000000000000000000000000000000000000000000000", "README",
                                  "bb00000000000000000000000000000000000000000000000000000000000000");
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(syft_with_paths(paths, &r, &err));
        prc_native_result_clear(&r);
        json_decref(paths);
}

static void test_native_syft__rejects_location_absent_from_inventory(void)
{
        /* /var/lib/dpkg/status is a location of package-2; the sealed inventory has no such file */
        json_t *paths = json_pack("{s:s}", "pkg1/METADATA", EMPTY_SHA256);
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(!syft_with_paths(paths, &r, &err));
        T_ERR(err, PRC_E_NATIVE_PATH_OUTSIDE);
        T_EQ_STR(err.ptr, "/components/1/properties/3");
        json_decref(paths);
}

static void test_native_syft__rejects_file_component_absent_from_inventory(void)
{
        /* no pkg1/METADATA: package-1's location and the file component both name it */
        json_t *paths = json_pack("{s:s}", "var/lib/dpkg/status", EMPTY_SHA256);
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(!syft_with_paths(paths, &r, &err));
        T_ERR(err, PRC_E_NATIVE_PATH_OUTSIDE);
        json_decref(paths);
}

static void test_native_syft__rejects_file_digest_other_than_inventory(void)
{
        json_t *paths = json_pack("{s:s,s:s}", "pkg1/METADATA",
                                  "0000000000000000000000000000000000000000000000000000000000000000",
                                  "var/lib/dpkg/status", EMPTY_SHA256);
        prc_native_result r = { 0 };
        prc_err err;

        T_ASSERT(!syft_with_paths(paths, &r, &err));
        T_ERR(err, PRC_E_NATIVE_INVENTORY_MISMATCH);
        T_EQ_STR(err.ptr, "/components/3/hashes/1");
        json_decref(paths);
}

static const prc_test tests[] = {
        T(test_native_syft__rejects_wrong_tool_version),
        T(test_native_syft__rejects_wrong_tool_name),
        T(test_native_syft__rejects_legacy_tools_array),
        T(test_native_syft__rejects_spec_1_6),
        T(test_native_syft__rejects_other_schema_url),
        T(test_native_syft__rejects_other_bom_format),
        T(test_native_syft__rejects_bom_version_2),
        T(test_native_syft__rejects_redacted_serial),
        T(test_native_syft__rejects_redacted_timestamp),
        T(test_native_syft__rejects_foreign_source_component),
        T(test_native_syft__rejects_missing_source_component),
        T(test_native_syft__rejects_image_metadata_properties),
        T(test_native_syft__rejects_component_type),
        T(test_native_syft__rejects_component_unknown_key),
        T(test_native_syft__rejects_repeated_bom_ref),
        T(test_native_syft__rejects_malformed_bom_ref),
        T(test_native_syft__rejects_synthetic_purl),
        T(test_native_syft__rejects_purl_without_name),
        T(test_native_syft__rejects_property_value_not_string),
        T(test_native_syft__rejects_foreign_property),
        T(test_native_syft__rejects_malformed_hash),
        T(test_native_syft__rejects_dependency_on_unknown_ref),
        T(test_native_syft__rejects_empty_dependency),
        T(test_native_syft__rejects_repeated_dependency),
        T(test_native_syft__rejects_dependency_from_non_package),
        T(test_native_syft__rejects_unknown_top_level_key),
        T(test_native_syft__rejects_duplicate_key),
        T(test_native_syft__rejects_source_version_not_passed),
        T(test_native_syft__rejects_supplier_not_passed),
        T(test_native_syft__rejects_malformed_cpe),
        T(test_native_syft__rejects_escaping_location),
        T(test_native_syft__rejects_scanner_owned_location),
        T(test_native_syft__rejects_escaping_file_component),
        T(test_native_syft__rejects_excessive_components),
        T(test_native_syft__rerun_normalizes_to_identical_bytes),
        T(test_native_syft__value_observation_names_the_artifact),
        T(test_native_syft__purl_grammar),
        T(test_native_syft__owned_config_is_digest_bound),
        T(test_native_syft__inventory_binding_accepts_its_own_inventory),
        T(test_native_syft__rejects_location_absent_from_inventory),
        T(test_native_syft__rejects_file_component_absent_from_inventory),
        T(test_native_syft__rejects_file_digest_other_than_inventory),
};

PRC_SUITE(native_syft, tests)
