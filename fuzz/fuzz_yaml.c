/*
 * fuzz_yaml.c - libFuzzer harness for the bounded YAML loader.
 * Invariant: exactly one outcome (a document, or NULL with a class), with
 * small limits so that every bound is reached often; a loaded document must
 * also be canonicalizable (no float, no unsafe integer slips through); and
 * the line reader (yaml.c lr_load, for block YAML as lockfile generators
 * write it) changes nothing: the load with it and the load that always
 * composes give the same document, or the same refusal.
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
        {
                prc_err e3;
                json_t *w;
                prc_err_init(&e3);
                prc_yaml_test_no_line_reader = true;
                w = prc_yaml_load(p, n, &prc_limits_fuzz, 0, &e3);
                prc_yaml_test_no_line_reader = false;
                if ((v == NULL) != (w == NULL) || (v != NULL && !json_equal(v, w)) ||
                    (v == NULL && !prc_err_same(&err, &e3)))
                        __builtin_trap();
                json_decref(w);
                /* Floats as strings: the flag the lockfile extractors load with. */
                prc_err_init(&e3);
                w = prc_yaml_load(p, n, &prc_limits_fuzz, PRC_YAML_FLOAT_AS_STRING, &e3);
                {
                        prc_err e4;
                        json_t *x;
                        prc_err_init(&e4);
                        prc_yaml_test_no_line_reader = true;
                        x = prc_yaml_load(p, n, &prc_limits_fuzz, PRC_YAML_FLOAT_AS_STRING, &e4);
                        prc_yaml_test_no_line_reader = false;
                        if ((w == NULL) != (x == NULL) || (w != NULL && !json_equal(w, x)) ||
                            (w == NULL && !prc_err_same(&e3, &e4)))
                                __builtin_trap();
                        json_decref(x);
                }
                json_decref(w);
        }
        json_decref(v);
        return 0;
}
