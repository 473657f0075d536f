/*
 * gitleaks.h - prc-adapter-gitleaks-json-v1: the Gitleaks 8.30.0 `dir`
 * JSON report normalizer and the pinned default ruleset (issue 10).
 * Trust: reports are hostile; the ruleset file is operator-supplied and
 * trusted only after both its gzip and decompressed digests match.
 */
#ifndef PRC_ADAPTER_NATIVE_GITLEAKS_H
#define PRC_ADAPTER_NATIVE_GITLEAKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/native/native.h"
#include "base/buf.h"

/* Where the root .gitleaksignore is relocated; findings there map back to ".gitleaksignore". */
#define PRC_GITLEAKS_RELOCATED ".prc/gitleaks/relocated-gitleaksignore"
/* The scanner-owned ignore file (-i): one comment line, so nothing is ignored. */
#define PRC_GITLEAKS_IGNORE_BYTES "# prc: scanner-owned; no finding is ignored\n"
#define PRC_GITLEAKS_IGNORE_SHA256 "e68fafb038c03dcf253e00ce50b6bd607cac0b9611815bf99071c28046d5d4bc"

/*
 * The upstream v8.30.0 default ruleset (config/gitleaks.toml at 6eaad039), pinned in both forms:
 * decompressed (the upstream file's own digest, never changes) and in prc's deterministic gzip form
 * (src/base/gzip.h: the same bytes on every host, whatever gzip or zlib it has; issue 17 re-pinned it
 * from GNU gzip 1.12's -n -9 output, 20931 bytes, 8f3a4bfa...).  `prc setup native` stores this form.
 */
#define PRC_GITLEAKS_RULESET_SIZE 97731u
#define PRC_GITLEAKS_RULESET_SHA256 "e163e53b9e7e8a8511e77271e2b323ed057759542a6d988258afe3a1fa329caf"
#define PRC_GITLEAKS_RULESET_GZ_SIZE 97759u
#define PRC_GITLEAKS_RULESET_GZ_SHA256 "812050b952f582b832faf28405c7829bec5024645cf6b213950d61eb63cd56ab"
/* Where upstream serves the decompressed file at the release tag (`prc setup native`'s default URL). */
#define PRC_GITLEAKS_RULESET_URL "https://raw.githubusercontent.com/gitleaks/gitleaks/v8.30.0/config/gitleaks.toml"
/* The file name under prc's data directory (src/base/datadir.h). */
#define PRC_GITLEAKS_RULESET_FILE "gitleaks-v8.30.0.toml.gz"

/*
 * Read the deterministic gzip ruleset at gz_path (operator-supplied; a
 * symlink at the last component is refused), check its byte size and
 * SHA-256, decompress it and check the exact decompressed size and SHA-256;
 * append the decompressed bytes (the container's standard input) to out.
 * Call before every execution.  Errors: native-ruleset-mismatch, io-error,
 * input-too-large, out-of-memory.
 */
bool prc_gitleaks_ruleset_load(const char *gz_path, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* The same check over bytes already in memory. */
bool prc_gitleaks_ruleset_check(const uint8_t *gz, size_t n, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/*
 * The rule ids of a verified ruleset (the bytes prc_gitleaks_ruleset_load
 * returned): every `id = "..."` line, as an object {id: true} for
 * prc_native_ctx.rule_ids (new reference; NULL on out-of-memory).
 */
json_t *prc_gitleaks_rule_ids(const uint8_t *toml, size_t n);

/*
 * Normalize a report (see prc_native_normalize).  Errors, beyond the strict
 * JSON ones: unknown-field, missing-field, wrong-type, native-unredacted,
 * native-history-metadata, native-symlink-metadata, native-path-outside,
 * native-fingerprint, invalid-location, native-count-limit, invalid-value.
 */
bool prc_gitleaks_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                            prc_native_result *out, prc_err *err) PRC_MUST_CHECK;

#endif
