/*
 * fuzz_native.h - the one body of the three native-normalizer harnesses
 * (fuzz_gitleaks.c, fuzz_syft.c, fuzz_grype.c), on hostile report bytes.
 * Invariants: exactly one outcome (a result or an error class, never both);
 * an accepted report gives a canonical artifact whose SHA-256 is the one
 * reported, and normalizing the same bytes again gives the same artifact.
 * When the first byte's bit 1 is set the run is bound to an inventory and a
 * mounted database (those of the golden fixtures); a binding only narrows,
 * so what it accepts must be accepted unbound, with the same artifact.
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
        json_t *paths = json_pack("{s:s,s:s,s:s}", "pkg1/METADATA",
                                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                                  "var/lib/dpkg/status",
                                  "0000000000000000000000000000000000000000000000000000000000000000",
                                  "foo/bar/somefile-1.txt",
                                  "0000000000000000000000000000000000000000000000000000000000000000");
        json_t *db = json_pack("{s:s,s:s,s:s,s:s}", "schema_version", "v6.1.9", "built", "2026-07-21T06:12:45Z",
                               "source_sha256", "3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4",
                               "digest", "xxh64:83650024d7878758");
        bool bound = n > 0 && (p[0] & 2) && paths != NULL && db != NULL;
        if (bound) {
                ctx.paths = paths;
                ctx.db = db;
        }
        prc_err_init(&err);
        ok = prc_native_normalize(s, p, n, &ctx, &r, &err);
        if (ok != (err.cls == PRC_E_OK) || ok != (r.artifact != NULL))
                __builtin_trap();
        if (!ok) {
                json_decref(paths);
                json_decref(db);
                return 0;
        }
        if (!prc_sha256_hex_once(r.artifact, r.artifact_len, hex, &err) || strcmp(hex, r.artifact_sha256) != 0 ||
            json_array_size(r.observations) == 0)
                __builtin_trap();
        if (bound) {
                ctx.paths = NULL;
                ctx.db = NULL;
        }
        if (!prc_native_normalize(s, p, n, &ctx, &r2, &err) || r2.artifact_len != r.artifact_len ||
            memcmp(r2.artifact, r.artifact, r.artifact_len) != 0)
                __builtin_trap();
        json_decref(paths);
        json_decref(db);
        prc_native_result_clear(&r);
        prc_native_result_clear(&r2);
        return 0;
}

#endif
