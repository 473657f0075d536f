/*
 * fuzz_toml.c - libFuzzer harness for the TOML reader.
 * Invariants: exactly one outcome (a document or an error class); an error
 * with an offset has a line; the tagged mode (toml-test JSON) gives the same
 * verdict and class as the default mode, except that only the default mode
 * reserves the key "$toml"; PRC_TOML_UNSAFE_INT_TYPED never changes the
 * verdict, and its tree equals the default one exactly when it holds no
 * typed integer (prc_toml_has_typed_int), when the worker's kept slot
 * (base/kept.h) hands that very tree to the default mode's parse.
 */
#include <jansson.h>

#include "fuzz.h"
#include "base/kept.h"
#include "base/limits.h"
#include "content/parsers/toml.h"

PRC_FUZZ_TARGET(toml)
{
        prc_err a, b;
        json_t *x, *y;

        prc_err_init(&a);
        prc_err_init(&b);
        x = prc_toml_parse(p, n, &prc_limits_fuzz, 0, &a);
        if ((x == NULL) != (a.cls != PRC_E_OK))
                __builtin_trap();
        if (x == NULL && a.off != PRC_NO_OFF && a.line == 0)
                __builtin_trap();
        y = prc_toml_parse(p, n, &prc_limits_fuzz, PRC_TOML_TAGGED, &b);
        if ((y == NULL) != (b.cls != PRC_E_OK))
                __builtin_trap();
        if (a.cls != PRC_E_TOML_RESERVED_KEY && b.cls != a.cls)
                __builtin_trap();
        json_decref(y);
        prc_err_init(&b);
        y = prc_toml_parse(p, n, &prc_limits_fuzz, PRC_TOML_UNSAFE_INT_TYPED, &b);
        if (b.cls != a.cls || (x == NULL) != (y == NULL))
                __builtin_trap();
        if (y != NULL && prc_toml_has_typed_int(y) == json_equal(x, y))
                __builtin_trap();
        if (y != NULL && !prc_toml_has_typed_int(y)) {
                json_t *z;
                prc_kept_put(PRC_KEPT_TOML, p, n, &prc_limits_fuzz, 0, json_incref(y), NULL, NULL);
                prc_err_init(&b);
                z = prc_toml_parse(p, n, &prc_limits_fuzz, 0, &b);
                if (z != y || prc_kept_take(PRC_KEPT_TOML, p, n, &prc_limits_fuzz, 0, NULL) != NULL)
                        __builtin_trap();
                json_decref(z);
        }
        json_decref(x);
        json_decref(y);
        return 0;
}
