/*
 * fuzz_yaml.c - libFuzzer harness for the bounded YAML loader.
 * Invariant: exactly one outcome (a document, or NULL with a class), with
 * small limits so that every bound is reached often; a loaded document must
 * also be canonicalizable (no float, no unsafe integer slips through).
 */
#include "fuzz.h"

#include "base/buf.h"
#include "base/jcs.h"
#include "base/yaml.h"

PRC_FUZZ_TARGET(yaml)
{
        prc_err err;
        json_t *v;

        prc_err_init(&err);
        v = prc_yaml_load(p, n, &prc_limits_fuzz, 0, &err);
        if ((v == NULL) != (err.cls != PRC_E_OK))       /* exactly one outcome */
                __builtin_trap();
        /* internal: prc's scalar decoders disagree with where libfyaml placed a scalar (docs/yaml.md) */
        if (err.cls == PRC_E_INTERNAL)
                __builtin_trap();
        if (v != NULL) {
                prc_buf b;
                prc_err e2;
                prc_err_init(&e2);
                /* Node limits bound the expanded size, so the canonical form stays small. */
                prc_buf_init(&b, (size_t)64 << 20);
                if (!prc_jcs_write(v, &b, &e2) && e2.cls != PRC_E_BUFFER_LIMIT)
                        __builtin_trap();
                prc_buf_clear(&b);
        }
        json_decref(v);
        return 0;
}
