/*
 * fuzz_manifest.c - the capability manifest loader on hostile bytes (JSON
 * when the input opens with '{', else YAML).  Invariants: exactly one
 * outcome; a manifest good for execution is also good for records and has
 * a 64-hex canonical digest; re-parsing gives the same digest.
 */
#include <string.h>

#include "adapter/manifest.h"
#include "base/digest.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(manifest)
{
        prc_err err, err2;
        prc_manifest *m, *r;

        prc_err_init(&err);
        m = prc_manifest_parse(p, n, PRC_MANIFEST_EXECUTE, &err);
        if ((m == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        prc_err_init(&err2);
        r = prc_manifest_parse(p, n, PRC_MANIFEST_RECORDS, &err2);
        if ((r == NULL) != (err2.cls != PRC_E_OK))
                __builtin_trap();
        if (m != NULL) {
                if (r == NULL || !prc_digest_valid(prc_manifest_sha256(m)) ||
                    strcmp(prc_manifest_sha256(m), prc_manifest_sha256(r)) != 0 ||
                    prc_manifest_version(m) != 4)
                        __builtin_trap();
        }
        prc_manifest_free(m);
        prc_manifest_free(r);
        return 0;
}
