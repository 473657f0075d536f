/*
 * fuzz_mdoc_check.c - libFuzzer harness for the client's ManifestDoc check
 * (mdoc_check.c with mdoc_details.c), the decoder of what a compromised
 * content worker may send.  The input is a ManifestDoc as JSON (seeds:
 * extractor output of every family, fuzz/corpus/mdoc_check/).
 * Invariants: exactly one outcome (the document passes, or one of the
 * check's classes with a JSON pointer); and a document that passes is safe
 * to read: every registered analysis runs over it without a sanitizer
 * report and returns (false only on out-of-memory).  The slim check as well
 * (see the target).
 */
#include <jansson.h>

#include "fuzz.h"
#include "analysis/analysis.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_details.h"

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

/* A refusal as the check gives one: one of its classes, at a JSON pointer. */
static bool refused_right(const prc_err *err)
{
        return (err->cls == PRC_E_MANIFEST_DOC_INVALID || err->cls == PRC_E_MANIFEST_DOC_DETAILS ||
                err->cls == PRC_E_OUT_OF_MEMORY) &&
               err->ptr[0] == '/';
}

/* md (a document the whole check passed) with its details cut to the slim members: a new reference, or NULL. */
static json_t *slim_cut(const json_t *md)
{
        json_t *out = json_deep_copy(md), *d = json_object(), *v;

        if (out == NULL || d == NULL) {
                json_decref(out);
                json_decref(d);
                return NULL;
        }
        for (const char *const *k = prc_mdoc_slim_keys; *k != NULL; k++)
                if ((v = json_object_get(json_object_get(md, "details"), *k)) != NULL && json_object_set(d, *k, v) != 0)
                        __builtin_trap();
        if (json_object_set_new(out, "details", d) != 0)
                __builtin_trap();
        return out;
}

/*
 * The slim check (PRC_REQ_SLIM_DETAILS) too: one outcome on any document;
 * and a document the whole check passed, cut to its slim members, passes.
 */
PRC_FUZZ_TARGET(mdoc_check)
{
        prc_err err;
        json_t *md, *cut;
        bool whole;

        prc_err_init(&err);
        md = prc_json_parse(p, n, &prc_limits_fuzz, 0, &err);
        if (md == NULL)
                return 0;
        prc_err_init(&err);
        whole = prc_mdoc_check(md, NULL, NULL, &err);
        if (whole) {
                if (err.cls != PRC_E_OK)
                        __builtin_trap();
                analyses(md);
        } else if (!refused_right(&err)) {
                __builtin_trap();
        }
        prc_err_init(&err);
        if (!prc_mdoc_check_slim(md, PRC_MDOC_DEPS_ARRAY, NULL, NULL, &err) && !refused_right(&err))
                __builtin_trap();
        if (whole && (cut = slim_cut(md)) != NULL) {
                prc_err_init(&err);
                if (!prc_mdoc_check_slim(cut, PRC_MDOC_DEPS_ARRAY, NULL, NULL, &err) && err.cls != PRC_E_OUT_OF_MEMORY)
                        __builtin_trap();
                json_decref(cut);
        }
        json_decref(md);
        return 0;
}
