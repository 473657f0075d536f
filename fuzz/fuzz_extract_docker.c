/*
 * fuzz_extract_docker.c - libFuzzer harness for the Dockerfile extractor.
 * Invariants: exactly one outcome (a ManifestDoc or an error class); a
 * ManifestDoc serializes as JSON (valid UTF-8 strings throughout) and
 * passes the client's check, details and token documents included
 * (prc_mdoc_check): no extractor output is ever refused as
 * manifest-doc-invalid or manifest-doc-details-invalid.
 */
#include <jansson.h>
#include <stdlib.h>

#include "fuzz.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"

static void one(const char *path, const uint8_t *p, size_t n)
{
        const prc_extractor *x = prc_extractor_for_path(path);
        prc_xin in = { path, p, n, &prc_limits_fuzz };
        prc_err err;
        json_t *md;
        char *s;

        if (x == NULL)
                __builtin_trap();
        prc_err_init(&err);
        md = x->fn(&in, &err);
        if ((md == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (md != NULL) {
                s = json_dumps(md, JSON_COMPACT | JSON_SORT_KEYS);
                if (s == NULL)
                        __builtin_trap();
                free(s);
                prc_err_init(&err);
                if (!prc_mdoc_check(md, path, x->format, &err))
                        __builtin_trap();
        }
        json_decref(md);
}

PRC_FUZZ_TARGET(extract_docker)
{
        one("Dockerfile", p, n);
        return 0;
}
