/*
 * fuzz_json.c - libFuzzer harness for the strict JSON reader and the JCS
 * writer.  Invariants: exactly one outcome per parse (a document or an
 * error, never both or neither); a parsed document is writable as canonical
 * JSON, or fails not-canonical only when floats were allowed; the canonical
 * form parses again and is a fixed point.  Seeds: fuzz/corpus/json/.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "fuzz.h"

static void one(const uint8_t *p, size_t n, unsigned flags)
{
        prc_err err, e2;
        prc_buf out, again;
        json_t *v, *w;

        prc_err_init(&err);
        v = prc_json_parse(p, n, &prc_limits_fuzz, flags, &err);
        if ((v == NULL) != (err.cls != PRC_E_OK))       /* exactly one outcome */
                __builtin_trap();
        if (v == NULL)
                return;
        prc_buf_init(&out, 1u << 20);
        if (!prc_jcs_write(v, &out, &err)) {
                if (!(flags & PRC_JSON_ALLOW_FLOAT) || err.cls != PRC_E_NOT_CANONICAL)
                        __builtin_trap();
                goto out;
        }
        /* Canonical text is never longer than its source, so the same limits hold. */
        prc_err_init(&e2);
        w = prc_json_parse(out.data, out.len, &prc_limits_fuzz, flags, &e2);
        if (w == NULL)
                __builtin_trap();
        prc_buf_init(&again, 1u << 20);
        if (!prc_jcs_write(w, &again, &e2) || again.len != out.len || memcmp(again.data, out.data, out.len) != 0)
                __builtin_trap();
        prc_buf_clear(&again);
        json_decref(w);
out:
        prc_buf_clear(&out);
        json_decref(v);
}

PRC_FUZZ_TARGET(json)
{
        one(p, n, 0);
        one(p, n, PRC_JSON_ALLOW_FLOAT);
        return 0;
}
