/*
 * fuzz_native.h - the one body of the three native-normalizer harnesses
 * (fuzz_gitleaks.c, fuzz_syft.c, fuzz_grype.c), on hostile report bytes.
 * Invariants: exactly one outcome (a result or an error class, never both);
 * an accepted report gives a canonical artifact whose SHA-256 is the one
 * reported, and normalizing the same bytes again gives the same artifact.
 */
#ifndef PRC_FUZZ_NATIVE_H
#define PRC_FUZZ_NATIVE_H

#include <string.h>

#include "adapter/native/native.h"
#include "base/digest.h"

static inline int prc_fuzz_native(prc_native_proto proto, const uint8_t *p, size_t n)
{
        const prc_native_spec *s = prc_native_spec_of(proto);
        prc_native_ctx ctx = { 0 };
        prc_native_result r = { 0 }, r2 = { 0 };
        prc_err err;
        char hex[PRC_SHA256_HEX + 1];
        bool ok;

        ctx.now = 1784721600;   /* 2026-07-22T12:00:00Z, the golden cases' --now */
        ctx.relocated_gitleaksignore = n > 0 && (p[0] & 1);
        prc_err_init(&err);
        ok = prc_native_normalize(s, p, n, &ctx, &r, &err);
        if (ok != (err.cls == PRC_E_OK) || ok != (r.artifact != NULL))
                __builtin_trap();
        if (!ok)
                return 0;
        if (!prc_sha256_hex_once(r.artifact, r.artifact_len, hex, &err) || strcmp(hex, r.artifact_sha256) != 0 ||
            json_array_size(r.observations) == 0)
                __builtin_trap();
        if (!prc_native_normalize(s, p, n, &ctx, &r2, &err) || r2.artifact_len != r.artifact_len ||
            memcmp(r2.artifact, r.artifact, r.artifact_len) != 0)
                __builtin_trap();
        prc_native_result_clear(&r);
        prc_native_result_clear(&r2);
        return 0;
}

#endif
