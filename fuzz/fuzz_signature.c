/*
 * fuzz_signature.c - signature documents against an empty trust store.
 * Invariants: never verifies (no key is trusted), and always fails with
 * exactly one signature-* class (or a document-loader class never leaks
 * out: everything is classified).
 */
#include "fuzz.h"

#include "adapter/sig.h"
#include "adapter/trust.h"
#include "base/doc.h"
#include "base/json_strict.h"

#define D "0000000000000000000000000000000000000000000000000000000000000000"

PRC_FUZZ_TARGET(signature)
{
        prc_err err;
        prc_sig_info info;
        prc_trust_store *ts;
        json_t *empty, *doc;
        bool ok;

        prc_err_init(&err);
        empty = json_pack("{s:s,s:[]}", "schema", PRC_TRUST_SCHEMA, "publishers");
        ts = empty != NULL ? prc_trust_from_doc(empty, &err) : NULL;
        json_decref(empty);
        if (ts == NULL)
                return 0;               /* out of memory only */
        doc = prc_json_parse(p, n, &prc_limits_fuzz, 0, &err);
        if (doc != NULL) {
                ok = prc_sig_verify_doc(doc, ts, PRC_SIG_REGISTRY, D, &info, &err);
                if (ok || !(err.cls == PRC_E_SIG_MALFORMED || err.cls == PRC_E_SIG_TRUNCATED ||
                            err.cls == PRC_E_SIG_SCOPE_MISMATCH || err.cls == PRC_E_SIG_DIGEST_MISMATCH ||
                            err.cls == PRC_E_SIG_UNKNOWN_KEY))
                        __builtin_trap();
                json_decref(doc);
        }
        prc_trust_free(ts);
        return 0;
}
