/*
 * fuzz_jsonc.c - libFuzzer harness for the JSONC reader.
 * Invariants: exactly one outcome; an error with an offset has a line; JSON
 * is JSONC: whatever the strict JSON reader (jansson) accepts, the JSONC
 * reader accepts as an equal document.  Both run with the flags the worker
 * gives them (the dispatch table), so numbers are compared as parse-json
 * and parse-jsonc read them (issue 16: floats).
 */
#include <jansson.h>

#include "fuzz.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "content/dispatch.h"
#include "content/parsers/jsonc.h"

PRC_FUZZ_TARGET(jsonc)
{
        prc_err a, b;
        json_t *x, *y;

        prc_err_init(&a);
        prc_err_init(&b);
        x = prc_jsonc_parse(p, n, &prc_limits_fuzz, prc_dispatch_find(PRC_OP_PARSE, PRC_FMT_JSONC)->load_flags, &a);
        if ((x == NULL) != (a.cls != PRC_E_OK))
                __builtin_trap();
        if (x == NULL && a.off != PRC_NO_OFF && a.line == 0)
                __builtin_trap();
        y = prc_json_parse(p, n, &prc_limits_fuzz, prc_dispatch_find(PRC_OP_PARSE, PRC_FMT_JSON)->load_flags, &b);
        if (y != NULL && (x == NULL || !json_equal(x, y)))
                __builtin_trap();
        json_decref(x);
        json_decref(y);
        return 0;
}
