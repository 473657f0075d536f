/*
 * grype.h - prc-adapter-grype-json-v1: the Grype 0.116.1 JSON report
 * normalizer, its scanner-owned configuration and the grype-db checks
 * (issue 10).
 * Trust: the report is hostile; the grype-db directory is operator input,
 * validated here independently of the tool (the runner seals its bytes).
 */
#ifndef PRC_ADAPTER_NATIVE_GRYPE_H
#define PRC_ADAPTER_NATIVE_GRYPE_H

#include "adapter/native/native.h"

/*
 * Injected at .prc/grype/config.yaml (-c, so no .grype.yaml is searched):
 * no application or database update, no external sources, no ignore rules
 * (kernel-header matching on, so grype adds none of its built-in ones), no
 * VEX, no alerts, the read-only database mount, and grype's own 120 h age
 * and hash checks on.
 */
#define PRC_GRYPE_CONFIG_BYTES                                  \
        "# prc: scanner-owned Grype 0.116.1 configuration\n"    \
        "check-for-app-update: false\n"                         \
        "only-fixed: false\n"                                   \
        "only-notfixed: false\n"                                \
        "ignore: []\n"                                          \
        "match-upstream-kernel-headers: true\n"                 \
        "vex-documents: []\n"                                   \
        "vex-add: []\n"                                         \
        "external-sources:\n"                                   \
        "  enable: false\n"                                     \
        "alerts:\n"                                             \
        "  enable-eol-distro-warnings: false\n"                 \
        "timestamp: true\n"                                     \
        "db:\n"                                                 \
        "  cache-dir: /prc-inputs/grype-db\n"                   \
        "  auto-update: false\n"                                \
        "  require-update-check: false\n"                       \
        "  validate-age: true\n"                                \
        "  max-allowed-built-age: 120h\n"                       \
        "  validate-by-hash-on-start: true\n"
#define PRC_GRYPE_CONFIG_SHA256 "0c05efd6764a310b5b1066e6456d71e30ea9da79810dc0ab0c19c3fd819a7136"

/* Database age limit (seed 000): 120 hours. */
#define PRC_GRYPE_DB_MAX_AGE ((int64_t)120 * 3600)
#define PRC_GRYPE_DB_URL_PREFIX "https://grype.anchore.io/databases/v6/vulnerability-db_"

/*
 * Parse an official archive URL
 * https://grype.anchore.io/databases/v6/vulnerability-db_vM.R.A_<RFC 3339>_<epoch>.tar.zst?checksum=sha256%3A<hex>
 * and give its schema version ("v6.R.A", cap 32), build epoch and sha256
 * hex.  Errors: native-db-identity.
 */
bool prc_grype_db_url(const char *url, char *out_schema, size_t cap, int64_t *out_built,
                      char out_sha[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;

/*
 * Validate a grype-db directory (the /prc-inputs/grype-db mount): a regular
 * 6/vulnerability.db and a strict 6/import.json {digest "xxh64:<16 hex>",
 * source (official URL, above), client_version "v6.R.A"}; the URL's build
 * time must be within 120 h before now and not after it.  On success
 * *out_identity (may be NULL) gets {schema_version, built, source_sha256,
 * digest}.  Errors: native-db-identity, native-db-stale, io-error,
 * unknown-field, missing-field, wrong-type, invalid-json.
 */
bool prc_grype_db_check(const char *dir, int64_t now, json_t **out_identity, prc_err *err) PRC_MUST_CHECK;

/*
 * Normalize a report (see prc_native_normalize).  ctx->now is required;
 * with ctx->paths every match location must be an inventory file, and with
 * ctx->db the report's database must be that one (native-db-identity).
 * Errors, beyond the strict JSON ones: native-tool-identity,
 * native-ignored-matches, native-package-alerts, native-path-outside,
 * native-db-identity, native-db-stale, native-db-provenance,
 * native-incomplete-evidence, native-count-limit, unsafe-number,
 * invalid-value, unknown-field, missing-field, wrong-type.
 */
bool prc_grype_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                         prc_native_result *out, prc_err *err) PRC_MUST_CHECK;

#endif
