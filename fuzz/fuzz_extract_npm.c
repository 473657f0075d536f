/*
 * fuzz_extract_npm.c - libFuzzer harness for the npm family's extractors
 * (package.json, package-lock.json, npm-shrinkwrap.json, yarn.lock,
 * pnpm-lock.yaml, .npmrc).  The first byte picks the format, the rest is
 * the file.  Invariants: exactly one outcome (a ManifestDoc or an error
 * class); every ManifestDoc passes the client's strict shape check
 * (prc_mdoc_check), so no extractor output is ever refused as
 * manifest-doc-invalid; every ManifestDoc has a canonical JSON digest (the
 * scan's extraction summary needs one).  And with native rows (extract.h
 * prc_md_rows_arm, prc sbom's workers): the same outcome; a document whose
 * rows pack (prc_md_rows_pack) packs to the bytes prc_mdp_pack makes of
 * the trees' dependencies, and both decline alike; the rest of the
 * document is the trees'.
 */
#include <jansson.h>
#include <string.h>

#include "fuzz.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"

/* The native rows' reading of in against the trees' (md, err): the invariants above, or a trap. */
static void rows_agree(const prc_extractor *x, const prc_xin *in, const json_t *md, const prc_err *err)
{
        static prc_mdp_packer kt, kn;
        static bool init;
        prc_err en, et;
        json_t *rows, *a, *b;
        int rt, rn;

        if (!init) {
                prc_mdp_packer_init(&kt);
                prc_mdp_packer_init(&kn);
                init = true;
        }
        prc_err_init(&en);
        prc_md_rows_arm(true);
        rows = x->fn(in, &en);
        prc_md_rows_arm(false);
        if ((rows == NULL) != (md == NULL) || en.cls != err->cls)
                __builtin_trap();
        if (rows == NULL) {
                if (strcmp(en.msg, err->msg) != 0)
                        __builtin_trap();
                return;
        }
        a = json_deep_copy(md);
        b = json_deep_copy(rows);
        if (a == NULL || b == NULL)
                __builtin_trap();
        if (prc_md_rows_native(rows)) {
                prc_err_init(&et);
                rt = prc_mdp_pack(&kt, json_object_get(md, "dependencies"), &et);
                rn = prc_md_rows_pack(rows, &kn, &en);
                if (rt != rn || (rt == 1 && (kt.pool.len != kn.pool.len ||
                                             memcmp(kt.pool.data, kn.pool.data, kt.pool.len) != 0)))
                        __builtin_trap();
                json_object_del(a, "dependencies");
                json_object_del(b, "dependencies");
        }
        if (!json_equal(a, b))
                __builtin_trap();
        json_decref(a);
        json_decref(b);
        json_decref(rows);
}

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
        rows_agree(x, &in, md, &err);
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
