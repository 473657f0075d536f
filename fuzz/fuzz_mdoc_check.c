/*
 * fuzz_mdoc_check.c - libFuzzer harness for the client's ManifestDoc check
 * (mdoc_check.c with mdoc_details.c), the decoder of what a compromised
 * content worker may send.  The input is a ManifestDoc as JSON (seeds:
 * extractor output of every family, fuzz/corpus/mdoc_check/).
 * Invariants: exactly one outcome (the document passes, or one of the
 * check's classes with a JSON pointer); and a document that passes is safe
 * to read: every registered analysis runs over it without a sanitizer
 * report and returns (false only on out-of-memory).
 */
#include <jansson.h>

#include "fuzz.h"
#include "analysis/analysis.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "content/extract/mdoc_check.h"

static void analyses(const json_t *md)
{
        json_t *mdocs = json_array();
        /* the inventory of a scan holds at least the manifest itself */
        prc_tfile f = { .path = json_string_value(json_object_get(md, "path")), .size = 1,
                        .sha256 = "0000000000000000000000000000000000000000000000000000000000000000" };
        prc_ainput in;

        if (mdocs == NULL || json_array_append(mdocs, (json_t *)md) != 0)
                __builtin_trap();
        in = (prc_ainput){ .files = &f, .nfiles = 1, .mdocs = mdocs };
        for (size_t i = 0; i < prc_analysis_count; i++) {
                prc_obs_list l = { 0 };
                bool gap = false;
                prc_err err;

                prc_err_init(&err);
                if (!prc_analysis_run(&prc_analysis_table[i], &in, &l, &gap, &err) && err.cls != PRC_E_OUT_OF_MEMORY)
                        __builtin_trap();
                prc_obs_list_clear(&l);
        }
        json_decref(mdocs);
}

PRC_FUZZ_TARGET(mdoc_check)
{
        prc_err err;
        json_t *md;

        prc_err_init(&err);
        md = prc_json_parse(p, n, &prc_limits_fuzz, 0, &err);
        if (md == NULL)
                return 0;
        prc_err_init(&err);
        if (prc_mdoc_check(md, NULL, NULL, &err)) {
                if (err.cls != PRC_E_OK)
                        __builtin_trap();
                analyses(md);
        } else if ((err.cls != PRC_E_MANIFEST_DOC_INVALID && err.cls != PRC_E_MANIFEST_DOC_DETAILS &&
                    err.cls != PRC_E_OUT_OF_MEMORY) ||
                   err.ptr[0] != '/') {
                __builtin_trap();
        }
        json_decref(md);
        return 0;
}
