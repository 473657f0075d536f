/*
 * fuzz_extract_npm.c - libFuzzer harness for the npm family's extractors
 * (package.json, package-lock.json, npm-shrinkwrap.json, yarn.lock,
 * pnpm-lock.yaml, .npmrc).  The first byte picks the format, the rest is
 * the file.  Invariants: exactly one outcome (a ManifestDoc or an error
 * class); every ManifestDoc passes the client's strict shape check
 * (prc_mdoc_check), so no extractor output is ever refused as
 * manifest-doc-invalid; every ManifestDoc has a canonical JSON digest (the
 * scan's extraction summary needs one).
 */
#include <jansson.h>

#include "fuzz.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"

PRC_FUZZ_TARGET(extract_npm)
{
        static const char *const formats[] = { "npm-package-json", "npm-package-lock", "npm-shrinkwrap",
                                               "yarn-lock", "pnpm-lock", "npmrc" };
        const prc_extractor *x;
        char sha[PRC_SHA256_HEX + 1];
        prc_err err;
        prc_xin in;
        json_t *md;

        if (n < 1)
                return 0;
        x = prc_extractor_by_format(formats[p[0] % (sizeof(formats) / sizeof(formats[0]))]);
        if (x == NULL)
                __builtin_trap();
        in = (prc_xin){ "fuzz/input", p + 1, n - 1, &prc_limits_fuzz };
        prc_err_init(&err);
        md = x->fn(&in, &err);
        if ((md == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (md != NULL) {
                prc_err_init(&err);
                if (!prc_mdoc_check(md, "fuzz/input", x->format, &err))
                        __builtin_trap();
                if (!prc_jcs_digest(md, sha, &err))
                        __builtin_trap();
        }
        json_decref(md);
        return 0;
}
