/*
 * fuzz_json_stream.c - the worker's streaming JSON reader against the
 * strict reader it stands in for: it streams a document exactly when
 * prc_json_parse accepts the input (never declines a document, never
 * streams a refused input), and the bytes it streams are exactly
 * prc_docbin_write of prc_json_parse's tree, at most
 * PRC_JS_ENCODED_PER_BYTE bytes for each byte of input.  The first byte picks the
 * PRC_JSON_ALLOW_* flags and the limits (small ones, so every limit is met).
 */
#include <jansson.h>
#include <string.h>

#include "base/json_strict.h"
#include "content/docenc.h"
#include "content/json_stream.h"
#include "fuzz.h"

struct sink {
        prc_buf *all;
        bool     last_seen;
};

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct sink *s = ctx;

        if (s->last_seen || (!last && n < PRC_DOCBIN_CHUNK))
                __builtin_trap();       /* a piece after the last, or a short piece before it */
        s->last_seen = last;
        return prc_buf_put(s->all, p, n, err);
}

PRC_FUZZ_TARGET(json_stream)
{
        prc_limits lim;
        unsigned flags;
        prc_err err, serr;
        prc_buf want, got, chunk;
        struct sink sk = { .all = &got };
        uint64_t size = 0;
        prc_js_rc rc;
        json_t *v;

        if (n == 0)
                return 0;
        flags = p[0] & (PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT | PRC_JSON_ALLOW_NUL);
        lim = (p[0] & 0x80) ? prc_limits_default : prc_limits_fuzz;
        if (p[0] & 0x40)
                lim.input_max = n > 8 ? n - 8 : 0;
        p++;
        n--;
        prc_err_init(&err);
        v = prc_json_parse(p, n, &lim, flags, &err);
        prc_buf_init(&want, 64u << 20);
        prc_buf_init(&got, 64u << 20);
        prc_buf_init(&chunk, 64u << 20);
        prc_err_init(&serr);
        rc = prc_json_stream(p, n, &lim, flags, &chunk, collect, &sk, &size, &serr);
        if (rc == PRC_JS_FAILED) {
                /* Only memory can fail here; that says nothing about agreement. */
                if (serr.cls != PRC_E_OUT_OF_MEMORY)
                        __builtin_trap();
        } else if (rc == PRC_JS_DECLINED) {
                if (v != NULL || prc_err_is_set(&serr))
                        __builtin_trap();       /* declined a document the strict reader accepts */
        } else {
                if (v == NULL || !sk.last_seen || size != got.len)
                        __builtin_trap();       /* streamed an input the strict reader refuses */
                prc_err_init(&err);
                if (!prc_docbin_write(v, &want, &err) || want.len != got.len ||
                    memcmp(want.data, got.data, got.len) != 0)
                        __builtin_trap();       /* not the bytes of the strict reader's tree */
                if (want.len > (size_t)PRC_JS_ENCODED_PER_BYTE * n)
                        __builtin_trap();       /* the worker's verdict trusts this bound (json_stream.h) */
        }
        json_decref(v);
        prc_buf_clear(&want);
        prc_buf_clear(&got);
        prc_buf_clear(&chunk);
        return 0;
}
