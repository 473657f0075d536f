/*
 * fuzz_docbin.c - the client's reader of binary reply documents (what a
 * compromised worker controls): exactly one outcome; whatever it accepts
 * re-encodes to exactly the bytes it read, in the spelling they use
 * (counted or open: the encoding of a tree is unique in each, and the
 * reader refuses a document that mixes them); and
 * reading the same bytes as a stream of small pieces gives the same result;
 * and an object's member swapped in the stream is measured as its encoding
 * (swap_first).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "content/docenc.h"
#include "fuzz.h"

struct piecewise {
        const uint8_t *p;
        size_t         n;
        uint8_t       *buf;     /* owned: moved on every call, as the client's growing buffer may be */
        size_t         have;    /* bytes handed over */
};

/* Hand over 7 bytes more than needed per call, in a new buffer each time. */
static bool fill7(void *ctx, const uint8_t **buf, size_t have, size_t need, size_t *out_have, prc_err *err)
{
        struct piecewise *s = ctx;
        size_t to = need + 7 < s->n ? need + 7 : s->n;
        uint8_t *nb = malloc(to + 1);

        if (nb == NULL)
                return prc_err_oom(err, "fuzz buffer");
        memcpy(nb, s->buf, have);
        memcpy(nb + have, s->p + have, to - have);
        free(s->buf);
        s->buf = nb;
        *buf = nb;
        *out_have = s->have = to;
        return true;
}

static bool to_buf(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        (void)last;
        return prc_buf_put(ctx, p, n, err);
}

/*
 * An object's first member swapped for null (the worker's slim details):
 * the stream is the counted encoding of the object with null there, and
 * the credit is exactly the bytes the member's own encoding took beyond
 * null's one (the measuring walk is the writer's, without the writes).
 */
static void swap_first(json_t *v)
{
        json_t *o = json_deep_copy(v);
        void *it = json_object_iter(v);
        prc_buf whole, slim, got, chunk;
        uint64_t credit = 0, sent = 0;
        prc_docbin_top t = { .swap = json_null(), .credit = &credit };
        prc_err err;

        if (o == NULL || it == NULL) {
                json_decref(o);
                return;
        }
        t.swap_key = json_object_iter_key(it);
        if (strlen(t.swap_key) != json_object_iter_key_len(it) || json_object_set(o, t.swap_key, json_null()) != 0) {
                json_decref(o);         /* a key with a NUL cannot be named by swap_key */
                return;
        }
        prc_err_init(&err);
        prc_buf_init(&whole, 1u << 30);
        prc_buf_init(&slim, 1u << 30);
        prc_buf_init(&got, 1u << 30);
        prc_buf_init(&chunk, 1u << 30);
        if (!prc_docbin_write(v, &whole, &err) || !prc_docbin_write(o, &slim, &err) ||
            !prc_docbin_stream_top(v, &t, &chunk, to_buf, &got, &sent, &err) || got.len != slim.len ||
            memcmp(got.data, slim.data, slim.len) != 0 || credit != whole.len - slim.len)
                __builtin_trap();
        prc_buf_clear(&chunk);
        prc_buf_clear(&got);
        prc_buf_clear(&slim);
        prc_buf_clear(&whole);
        json_decref(o);
}

PRC_FUZZ_TARGET(docbin)
{
        struct piecewise s = { .p = p, .n = n };
        prc_err err, err2;
        prc_buf b;
        json_t *v, *w;

        prc_err_init(&err);
        v = prc_docbin_read(p, n, &prc_limits_fuzz, &err);
        if ((v == NULL) != prc_err_is_set(&err))
                __builtin_trap();
        if (v != NULL) {
                prc_err_init(&err2);
                /* The counted spelling spends 5 bytes on a container the open one spends 2 on. */
                prc_buf_init(&b, 3 * n + 64);
                if (!prc_docbin_write(v, &b, &err2))
                        __builtin_trap();
                if (b.len != n || memcmp(b.data, p, n) != 0) {
                        /* Not the counted spelling: then exactly the open one (the reader refuses a mix). */
                        prc_buf_reset(&b);
                        if (!prc_docbin_write_open(v, &b, &err2) || b.len != n || memcmp(b.data, p, n) != 0)
                                __builtin_trap();
                }
                prc_buf_clear(&b);
                if (json_is_object(v))
                        swap_first(v);
        }
        prc_err_init(&err2);
        s.buf = calloc(1, 1);
        if (s.buf == NULL)
                return 0;
        w = prc_docbin_read_stream(s.buf, n, 0, fill7, &s, &prc_limits_fuzz, &err2);
        free(s.buf);
        /* The stream reader stops where the document ends; bytes after it are for the source to refuse. */
        if (w != NULL && s.have != n) {
                json_decref(w);
                w = NULL;
                prc_err_set(&err2, PRC_E_INVALID_FRAME, "bytes after the document");
        }
        if ((w == NULL) != (v == NULL) || (v != NULL && !json_equal(v, w)) || err2.cls != err.cls)
                __builtin_trap();
        json_decref(w);
        json_decref(v);
        return 0;
}
