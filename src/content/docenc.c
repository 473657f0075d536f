/*
 * docenc.c - document encodings (docenc.h): the binary reply encoding and
 * deterministic JSON text.
 * Trust: the writers run on documents built inside the worker; the binary
 * reader runs in the client on replies from a worker that may be
 * compromised, so it checks every byte before it allocates or recurses.
 */
#include "content/docenc.h"

#include <endian.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/utf8.h"

enum { DOCENC_DEPTH_MAX = 512 };        /* loaders cap depth far lower; this guards our recursion */

static bool put_string(const char *s, size_t n, prc_buf *out, prc_err *err)
{
        static const char hx[] = "0123456789abcdef";
        size_t run = 0;

        if (!prc_utf8_valid((const uint8_t *)s, n, NULL))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "string is not valid UTF-8");
        if (!prc_buf_putc(out, '"', err))
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                char esc[6] = { '\\', 0, 0, 0, 0, 0 };
                size_t elen = 2;

                if (c == '"' || c == '\\')
                        esc[1] = (char)c;
                else if (c == '\b')
                        esc[1] = 'b';
                else if (c == '\t')
                        esc[1] = 't';
                else if (c == '\n')
                        esc[1] = 'n';
                else if (c == '\f')
                        esc[1] = 'f';
                else if (c == '\r')
                        esc[1] = 'r';
                else if (c < 0x20) {
                        memcpy(esc, "\\u00", 4);
                        esc[4] = hx[c >> 4];
                        esc[5] = hx[c & 15];
                        elen = 6;
                } else {
                        run++;
                        continue;
                }
                if (!prc_buf_put(out, s + i - run, run, err) || !prc_buf_put(out, esc, elen, err))
                        return false;
                run = 0;
        }
        return prc_buf_put(out, s + n - run, run, err) && prc_buf_putc(out, '"', err);
}

static bool put_real(double d, prc_buf *out, prc_err *err)
{
        char tmp[40];

        if (!isfinite(d))       /* jansson never holds these; refuse rather than invent a spelling */
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "non-finite float");
        for (int prec = 15; prec <= 17; prec++) {
                snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
                if (strtod(tmp, NULL) == d)
                        break;
        }
        if (strpbrk(tmp, ".eEn") == NULL) {     /* "1" would read back as an integer */
                size_t l = strlen(tmp);
                memcpy(tmp + l, ".0", 3);
        }
        return prc_buf_puts(out, tmp, err);
}

/* Decimal digits by hand: vsnprintf per integer dominated large replies. */
static bool put_int(json_int_t i, prc_buf *out, prc_err *err)
{
        char tmp[24];
        size_t n = sizeof(tmp);
        /* Work in unsigned so INT64_MIN has a magnitude. */
        unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;

        do {
                tmp[--n] = (char)('0' + u % 10);
                u /= 10;
        } while (u != 0);
        if (i < 0)
                tmp[--n] = '-';
        return prc_buf_put(out, tmp + n, sizeof(tmp) - n, err);
}

struct kv {
        const char *key;
        size_t      len;
        json_t     *val;
};

static int kvcmp(const void *x, const void *y)
{
        const struct kv *a = x, *b = y;
        return prc_jcs_keycmp(a->key, a->len, b->key, b->len);
}

static bool put_value(const json_t *v, prc_buf *out, unsigned depth, prc_err *err)
{
        if (depth > DOCENC_DEPTH_MAX)
                return prc_err_set(err, PRC_E_DEPTH_LIMIT, "document nests deeper than %d", DOCENC_DEPTH_MAX);
        switch (json_typeof(v)) {
        case JSON_NULL:
                return prc_buf_puts(out, "null", err);
        case JSON_TRUE:
                return prc_buf_puts(out, "true", err);
        case JSON_FALSE:
                return prc_buf_puts(out, "false", err);
        case JSON_INTEGER:
                return put_int(json_integer_value(v), out, err);
        case JSON_REAL:
                return put_real(json_real_value(v), out, err);
        case JSON_STRING:
                return put_string(json_string_value(v), json_string_length(v), out, err);
        case JSON_ARRAY: {
                size_t i;
                json_t *e;
                if (!prc_buf_putc(out, '[', err))
                        return false;
                json_array_foreach(v, i, e) {
                        if ((i > 0 && !prc_buf_putc(out, ',', err)) || !put_value(e, out, depth + 1, err))
                                return false;
                }
                return prc_buf_putc(out, ']', err);
        }
        case JSON_OBJECT: {
                size_t n = json_object_size(v), k = 0, klen;
                struct kv small[16];
                /* Most objects are small: no allocation, and insertion sort beats qsort there. */
                struct kv *kvs = n <= PRC_ARRAY_LEN(small) ? small : calloc(n, sizeof(*kvs));
                const char *key;
                json_t *e;
                bool ok;

                if (kvs == NULL)
                        return prc_err_oom(err, "document keys");
                json_object_keylen_foreach((json_t *)v, key, klen, e) {
                        kvs[k].key = key;
                        kvs[k].len = klen;
                        kvs[k].val = e;
                        k++;
                }
                if (kvs == small) {
                        for (size_t i = 1; i < k; i++) {
                                struct kv x = kvs[i];
                                size_t j = i;
                                while (j > 0 && kvcmp(&kvs[j - 1], &x) > 0) {
                                        kvs[j] = kvs[j - 1];
                                        j--;
                                }
                                kvs[j] = x;
                        }
                } else {
                        qsort(kvs, k, sizeof(*kvs), kvcmp);
                }
                ok = prc_buf_putc(out, '{', err);
                for (size_t i = 0; ok && i < k; i++)
                        ok = (i == 0 || prc_buf_putc(out, ',', err)) && put_string(kvs[i].key, kvs[i].len, out, err) &&
                             prc_buf_putc(out, ':', err) && put_value(kvs[i].val, out, depth + 1, err);
                if (kvs != small)
                        free(kvs);
                return ok && prc_buf_putc(out, '}', err);
        }
        }
        return prc_err_set(err, PRC_E_INTERNAL, "unknown JSON type");
}

bool prc_docenc_write(const json_t *v, prc_buf *out, prc_err *err)
{
        size_t mark = out->len;

        if (!put_value(v, out, 0, err)) {
                out->len = mark;        /* never leave a partial document behind */
                return false;
        }
        return true;
}

json_t *prc_docenc_read(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err)
{
        prc_limits l = *lim;

        /* The reply is the re-encoding of a document that fit lim: it can be longer than the input. */
        l.input_max = n;
        return prc_json_parse(p, n, &l, PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT | PRC_JSON_ALLOW_NUL, err);
}

/* ---- binary encoding ---- */

/*
 * One pass over a string or key, eight bytes at a time: is it all ASCII,
 * and does it hold a NUL byte (the word trick: a byte is zero where
 * (w - 0x01..01) & ~w has its top bit set).
 */
/*
 * The last k (1 to 7) bytes at p as one little-endian word, the bytes past
 * them 0x01 (ASCII, not NUL): 8 bytes read at once where room (the bytes
 * readable at p) allows, as most keys and short strings are shorter than
 * a word.
 */
static inline uint64_t tail_word(const uint8_t *p, size_t k, size_t room)
{
        const uint64_t keep = ~(uint64_t)0 >> (8 * (8 - k));
        uint64_t w = 0;

        if (room >= 8) {
                memcpy(&w, p, 8);
                w = le64toh(w);
        } else {
                for (size_t j = 0; j < k; j++)
                        w |= (uint64_t)p[j] << (8 * j);
        }
        return (w & keep) | (0x0101010101010101u & ~keep);
}

/* room: the bytes readable at p, n or more. */
static void scan_text(const uint8_t *p, size_t n, size_t room, bool *ascii, bool *nul)
{
        const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
        uint64_t acc = 0, zero = 0, w;
        size_t i = 0;

        for (; i + 8 <= n; i += 8) {
                memcpy(&w, p + i, 8);
                acc |= w;
                zero |= (w - ones) & ~w & highs;
        }
        if (i < n) {
                w = tail_word(p + i, n - i, room - i);
                acc |= w;
                zero |= (w - ones) & ~w & highs;
        }
        *ascii = (acc & highs) == 0;
        /* a borrow only crosses a byte that is zero, so a set bit is a zero byte or follows one */
        *nul = zero != 0;
}

bool prc_docbin_text_plain(const uint8_t *p, size_t n)
{
        bool ascii, nul;

        scan_text(p, n, n, &ascii, &nul);
        return ascii && !nul;
}

/*
 * One writer for two jobs: writing into a buffer, and streaming (the
 * buffer is handed to flush every PRC_DOCBIN_CHUNK bytes).
 */
struct binw {
        prc_buf          *b;            /* borrowed */
        uint64_t          size;         /* bytes handed to flush so far */
        prc_docbin_put_fn flush;        /* streaming: takes each full chunk */
        void             *ctx;
        bool              open;         /* containers in the open spelling (ended by PRC_DOCBIN_END) */
        const char       *blob_key;     /* NULL, or the top-level member written as the blob below */
        const uint8_t    *blob;
        size_t            blob_n;
        const char       *swap_key;     /* NULL, or the top-level member written as swap (docenc.h prc_docbin_top) */
        const json_t     *swap;
        uint64_t         *credit;
};

/* Room for n more bytes, written in place: one compare on the fast path. */
static inline bool room(struct binw *w, size_t n, prc_err *err)
{
        prc_buf *b = w->b;

        return b->cap - b->len >= n || prc_buf_reserve(b, n, err);
}

static inline void put8(struct binw *w, uint8_t c)
{
        w->b->data[w->b->len++] = c;
}

static inline void put32(struct binw *w, uint32_t v)
{
        uint32_t be = htobe32(v);

        memcpy(w->b->data + w->b->len, &be, 4);
        w->b->len += 4;
}

static inline void put64(struct binw *w, uint64_t v)
{
        uint64_t be = htobe64(v);

        memcpy(w->b->data + w->b->len, &be, 8);
        w->b->len += 8;
}

/* What the encoding takes of a string or key: its length fits a u32, UTF-8, and a key holds no NUL. */
static bool text_ok(bool key, const char *s, size_t n, prc_err *err)
{
        if (n > UINT32_MAX)
                return prc_err_set(err, PRC_E_BUFFER_LIMIT, "string of %zu bytes does not fit the encoding", n);
        bool ascii, nul;

        scan_text((const uint8_t *)s, n, n, &ascii, &nul);
        if (!ascii && !prc_utf8_valid((const uint8_t *)s, n, NULL))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "%s is not valid UTF-8", key ? "key" : "string");
        if (key && nul)
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "key holds a NUL byte");
        return true;
}

/* Tag (a string) or none (a key), u32 length, the bytes.  key: no NUL (an open object's key has a tag). */
static bool bin_text(struct binw *w, int tag, bool key, const char *s, size_t n, prc_err *err)
{
        if (!text_ok(key, s, n, err))
                return false;
        if (!room(w, n + (tag ? 5 : 4), err))
                return false;
        if (tag)
                put8(w, (uint8_t)tag);
        put32(w, (uint32_t)n);
        memcpy(w->b->data + w->b->len, s, n);
        w->b->len += n;
        return true;
}

static bool bin_bytes(struct binw *w, int tag, const char *s, size_t n, prc_err *err)
{
        return bin_text(w, tag, !tag, s, n, err);
}

/* A member's key: bare in a counted object, tagged as a string in an open one. */
static bool bin_key(struct binw *w, const char *s, size_t n, prc_err *err)
{
        return bin_text(w, w->open ? PRC_DOCBIN_STRING : 0, true, s, n, err);
}

static bool bin_end(struct binw *w, prc_err *err)
{
        if (!room(w, 1, err))
                return false;
        put8(w, PRC_DOCBIN_END);
        return true;
}

static bool bin_flush(struct binw *w, bool last, prc_err *err)
{
        prc_buf *b = w->b;

        if (!w->flush(w->ctx, b->data, b->len, last, err))
                return false;
        w->size += b->len;
        prc_buf_reset(b);
        return true;
}

/*
 * The blob in place of a member's value: tag, u32 length, the bytes.  A
 * streaming writer hands it over a piece at a time (the reader takes a
 * value across pieces), so the piece buffer never holds a big table whole.
 */
static bool bin_blob(struct binw *w, prc_err *err)
{
        size_t done = 0;

        if (w->blob_n > UINT32_MAX)
                return prc_err_set(err, PRC_E_BUFFER_LIMIT, "blob of %zu bytes does not fit the encoding", w->blob_n);
        if (!room(w, 5, err))
                return false;
        put8(w, PRC_DOCBIN_BLOB);
        put32(w, (uint32_t)w->blob_n);
        while (done < w->blob_n) {
                size_t k = w->blob_n - done;
                /* A full piece goes before more is written, so the last bytes always stay for the final flush. */
                if (w->flush != NULL && w->b->len >= PRC_DOCBIN_CHUNK && !bin_flush(w, false, err))
                        return false;
                if (w->flush != NULL && k > PRC_DOCBIN_CHUNK - w->b->len)
                        k = PRC_DOCBIN_CHUNK - w->b->len;
                if (!room(w, k, err))
                        return false;
                memcpy(w->b->data + w->b->len, w->blob + done, k);
                w->b->len += k;
                done += k;
        }
        return true;
}

/*
 * The bytes bin_value would write for v at depth into *n (the counted
 * spelling: the only one that swaps), with every refusal it would give, in
 * the same order: the same walk without the writes.
 */
static bool bin_size(const json_t *v, unsigned depth, uint64_t *n, prc_err *err)
{
        if (depth > DOCENC_DEPTH_MAX)
                return prc_err_set(err, PRC_E_DEPTH_LIMIT, "document nests deeper than %d", DOCENC_DEPTH_MAX);
        switch (json_typeof(v)) {
        case JSON_NULL:
        case JSON_FALSE:
        case JSON_TRUE:
                *n += 1;
                return true;
        case JSON_INTEGER:
                *n += 9;
                return true;
        case JSON_REAL:
                if (!isfinite(json_real_value(v)))
                        return prc_err_set(err, PRC_E_NOT_CANONICAL, "non-finite float");
                *n += 9;
                return true;
        case JSON_STRING:
                *n += 5 + json_string_length(v);
                return text_ok(false, json_string_value(v), json_string_length(v), err);
        case JSON_ARRAY: {
                json_t *e;
                size_t i;
                if (json_array_size(v) > UINT32_MAX)
                        return prc_err_set(err, PRC_E_BUFFER_LIMIT, "array of %zu values", json_array_size(v));
                *n += 5;
                json_array_foreach(v, i, e)
                        if (!bin_size(e, depth + 1, n, err))
                                return false;
                return true;
        }
        case JSON_OBJECT:
                if (json_object_size(v) > UINT32_MAX)
                        return prc_err_set(err, PRC_E_BUFFER_LIMIT, "object of %zu members", json_object_size(v));
                *n += 5;
                for (void *it = json_object_iter((json_t *)v); it != NULL;
                     it = json_object_iter_next((json_t *)v, it)) {
                        size_t klen = json_object_iter_key_len(it);
                        *n += 4 + klen;
                        if (!text_ok(true, json_object_iter_key(it), klen, err) ||
                            !bin_size(json_object_iter_value(it), depth + 1, n, err))
                                return false;
                }
                return true;
        }
        return prc_err_set(err, PRC_E_INTERNAL, "unknown JSON type");
}

/*
 * The swap member's value: its own measured (as its encoding would refuse
 * it), the swap written, and *credit told the bytes the swap saved.
 */
static bool bin_swap(struct binw *w, const json_t *own, unsigned depth, prc_err *err);

static bool bin_value(struct binw *w, const json_t *v, unsigned depth, prc_err *err)
{
        size_t n;
        double d;
        uint64_t bits;

        if (depth > DOCENC_DEPTH_MAX)
                return prc_err_set(err, PRC_E_DEPTH_LIMIT, "document nests deeper than %d", DOCENC_DEPTH_MAX);
        if (w->flush != NULL && w->b->len >= PRC_DOCBIN_CHUNK && !bin_flush(w, false, err))
                return false;
        switch (json_typeof(v)) {
        case JSON_NULL:
        case JSON_FALSE:
        case JSON_TRUE:
                if (!room(w, 1, err))
                        return false;
                put8(w, json_is_null(v) ? PRC_DOCBIN_NULL : json_is_true(v) ? PRC_DOCBIN_TRUE : PRC_DOCBIN_FALSE);
                return true;
        case JSON_INTEGER:
                if (!room(w, 9, err))
                        return false;
                put8(w, PRC_DOCBIN_INT);
                put64(w, (uint64_t)json_integer_value(v));
                return true;
        case JSON_REAL:
                d = json_real_value(v);
                if (!isfinite(d))       /* jansson never holds these; the reader refuses them */
                        return prc_err_set(err, PRC_E_NOT_CANONICAL, "non-finite float");
                if (!room(w, 9, err))
                        return false;
                memcpy(&bits, &d, sizeof(bits));
                put8(w, PRC_DOCBIN_REAL);
                put64(w, bits);
                return true;
        case JSON_STRING:
                return bin_bytes(w, PRC_DOCBIN_STRING, json_string_value(v), json_string_length(v), err);
        case JSON_ARRAY: {
                json_t *e;
                size_t i;
                n = json_array_size(v);
                if (n > UINT32_MAX)
                        return prc_err_set(err, PRC_E_BUFFER_LIMIT, "array of %zu values", n);
                if (!room(w, 5, err))
                        return false;
                if (w->open) {
                        put8(w, PRC_DOCBIN_ARRAY_OPEN);
                } else {
                        put8(w, PRC_DOCBIN_ARRAY);
                        put32(w, (uint32_t)n);
                }
                json_array_foreach(v, i, e)
                        if (!bin_value(w, e, depth + 1, err))
                                return false;
                return !w->open || bin_end(w, err);
        }
        case JSON_OBJECT: {
                const char *key;
                size_t klen;
                json_t *e;
                n = json_object_size(v);
                if (n > UINT32_MAX)
                        return prc_err_set(err, PRC_E_BUFFER_LIMIT, "object of %zu members", n);
                if (!room(w, 5, err))
                        return false;
                if (w->open) {
                        put8(w, PRC_DOCBIN_OBJECT_OPEN);
                } else {
                        put8(w, PRC_DOCBIN_OBJECT);
                        put32(w, (uint32_t)n);
                }
                /*
                 * The document's own member order: nothing to sort, and the same order as in process.
                 * The iterator itself, not json_object_keylen_foreach: that macro turns the key back
                 * into an iterator three times per member.
                 */
                for (void *it = json_object_iter((json_t *)v); it != NULL;
                     it = json_object_iter_next((json_t *)v, it)) {
                        key = json_object_iter_key(it);
                        klen = json_object_iter_key_len(it);
                        e = json_object_iter_value(it);
                        if (!bin_key(w, key, klen, err))
                                return false;
                        if (depth == 0 && w->blob_key != NULL && strlen(w->blob_key) == klen &&
                            memcmp(w->blob_key, key, klen) == 0) {
                                if (!bin_blob(w, err))
                                        return false;
                        } else if (depth == 0 && w->swap_key != NULL && strlen(w->swap_key) == klen &&
                                   memcmp(w->swap_key, key, klen) == 0) {
                                if (!bin_swap(w, e, depth + 1, err))
                                        return false;
                        } else if (!bin_value(w, e, depth + 1, err)) {
                                return false;
                        }
                }
                return !w->open || bin_end(w, err);
        }
        }
        return prc_err_set(err, PRC_E_INTERNAL, "unknown JSON type");
}

static bool bin_swap(struct binw *w, const json_t *own, unsigned depth, prc_err *err)
{
        uint64_t full = 0, slim = 0;

        if (!bin_size(own, depth, &full, err) || !bin_size(w->swap, depth, &slim, err))
                return false;
        *w->credit += full > slim ? full - slim : 0;
        return bin_value(w, w->swap, depth, err);
}

static bool docbin_write(const json_t *v, prc_buf *out, bool open, prc_err *err)
{
        struct binw w = { .b = out, .open = open };
        size_t mark = out->len;
        bool ok = bin_value(&w, v, 0, err);

        if (!ok)
                out->len = mark;        /* never leave a partial document behind */
        if (out->data != NULL)
                out->data[out->len] = 0;        /* the prc_buf invariant; the byte past cap is ours */
        return ok;
}

bool prc_docbin_write(const json_t *v, prc_buf *out, prc_err *err)
{
        return docbin_write(v, out, false, err);
}

bool prc_docbin_write_open(const json_t *v, prc_buf *out, prc_err *err)
{
        return docbin_write(v, out, true, err);
}

/* ---- the event-by-event open writer: a binw rebuilt per call around the caller's state ---- */

static struct binw ow_binw(const prc_docbin_ow *w)
{
        return (struct binw){ .b = w->chunk, .size = w->size, .flush = w->put, .ctx = w->ctx, .open = true };
}

/* A full piece goes out before the next item, so the last item always stays for finish. */
static bool ow_step(struct binw *b, prc_err *err)
{
        return b->b->len < PRC_DOCBIN_CHUNK || bin_flush(b, false, err);
}

void prc_docbin_ow_init(prc_docbin_ow *w, prc_buf *chunk, prc_docbin_put_fn put, void *ctx)
{
        prc_buf_reset(chunk);
        *w = (prc_docbin_ow){ .chunk = chunk, .put = put, .ctx = ctx };
}

bool prc_docbin_ow_open(prc_docbin_ow *w, bool map, prc_err *err)
{
        struct binw b = ow_binw(w);
        bool ok = ow_step(&b, err) && room(&b, 1, err);

        if (ok)
                put8(&b, map ? PRC_DOCBIN_OBJECT_OPEN : PRC_DOCBIN_ARRAY_OPEN);
        w->size = b.size;
        return ok;
}

bool prc_docbin_ow_key(prc_docbin_ow *w, const char *k, size_t n, prc_err *err)
{
        struct binw b = ow_binw(w);
        bool ok = ow_step(&b, err) && bin_key(&b, k, n, err);

        w->size = b.size;
        return ok;
}

bool prc_docbin_ow_value(prc_docbin_ow *w, const json_t *v, prc_err *err)
{
        struct binw b = ow_binw(w);
        bool ok = bin_value(&b, v, 0, err);     /* flushes a full piece first */

        w->size = b.size;
        return ok;
}

bool prc_docbin_ow_close(prc_docbin_ow *w, prc_err *err)
{
        struct binw b = ow_binw(w);
        bool ok = ow_step(&b, err) && bin_end(&b, err);

        w->size = b.size;
        return ok;
}

bool prc_docbin_ow_finish(prc_docbin_ow *w, prc_err *err)
{
        struct binw b = ow_binw(w);
        bool ok = bin_flush(&b, true, err);

        w->size = b.size;
        return ok;
}

bool prc_docbin_stream_top(const json_t *v, const prc_docbin_top *t, prc_buf *chunk, prc_docbin_put_fn put,
                           void *ctx, uint64_t *out_size, prc_err *err)
{
        struct binw w = { .b = chunk, .flush = put, .ctx = ctx, .blob_key = t->blob_key, .blob = t->blob,
                          .blob_n = t->blob_n, .swap_key = t->swap_key, .swap = t->swap, .credit = t->credit };
        bool ok;

        if (t->swap_key != NULL && (t->swap == NULL || t->credit == NULL))
                return prc_err_set(err, PRC_E_INTERNAL, "a swapped member without its value or credit");
        prc_buf_reset(chunk);
        ok = bin_value(&w, v, 0, err) && bin_flush(&w, true, err);
        *out_size = w.size;
        return ok;
}

bool prc_docbin_stream_blob(const json_t *v, const char *key, const uint8_t *p, size_t n, prc_buf *chunk,
                            prc_docbin_put_fn put, void *ctx, uint64_t *out_size, prc_err *err)
{
        prc_docbin_top t = { .blob_key = key, .blob = p, .blob_n = n };

        return prc_docbin_stream_top(v, &t, chunk, put, ctx, out_size, err);
}

bool prc_docbin_stream(const json_t *v, prc_buf *chunk, prc_docbin_put_fn put, void *ctx, uint64_t *out_size,
                       prc_err *err)
{
        struct binw w = { .b = chunk, .flush = put, .ctx = ctx };
        bool ok;

        prc_buf_reset(chunk);
        ok = bin_value(&w, v, 0, err) && bin_flush(&w, true, err);
        *out_size = w.size;
        return ok;
}

enum { RD_SEEN_SLOTS = 256, RD_SEEN_MAX = 64 };

struct binrd {
        const uint8_t    *p;    /* borrowed: the reply payload (n bytes of room) */
        size_t            n, off;
        size_t            have; /* bytes of p present; n unless streaming */
        prc_docbin_fill_fn fill;
        void             *ctx;
        const prc_limits *lim;
        uint32_t          depth_max;
        uint64_t          nodes;
        int               spelling;     /* of the containers seen: 0 none yet, else PRC_DOCBIN_ARRAY or _ARRAY_OPEN */
        prc_err          *err;
        const prc_docbin_hook *hook;    /* may be NULL: a top-level member read by the caller (docenc.h) */
        json_t           *seen[RD_SEEN_SLOTS];  /* owned references: short strings made so far (rd_string) */
};

struct prc_docbin_cur {
        struct binrd *r;
        size_t        at;       /* the offset of the last value's tag */
};

/* rd_need when the bytes are not all there yet. */
static bool rd_need_more(struct binrd *r, size_t k)
{
        if (r->have - r->off >= k)
                return true;
        /* Streaming: wait for the bytes only if the declared length holds them. */
        if (r->fill != NULL && r->n - r->off >= k) {
                if (!r->fill(r->ctx, &r->p, r->have, r->off + k, &r->have, r->err))
                        return false;
                if (r->have - r->off >= k && r->have <= r->n)
                        return true;
                /* The source has no more: the document ends inside a value. */
        }
        return prc_err_at(r->err, PRC_E_INVALID_FRAME, r->off,
                          "document ends inside a value (%zu bytes needed, %zu there)", k, r->have - r->off);
}

/* Are k more bytes there (a streaming source waited for)?  The first test inline: true 3 million times a run. */
static inline bool rd_need(struct binrd *r, size_t k)
{
        return r->have - r->off >= k || rd_need_more(r, k);
}

static inline uint32_t get32(struct binrd *r)
{
        uint32_t be;

        memcpy(&be, r->p + r->off, 4);
        r->off += 4;
        return be32toh(be);
}

static inline uint64_t get64(struct binrd *r)
{
        uint64_t be;

        memcpy(&be, r->p + r->off, 8);
        r->off += 8;
        return be64toh(be);
}

/* A u32 length and that many bytes of UTF-8 (a string, or a key: no NUL); borrowed from the payload. */
static bool rd_text(struct binrd *r, bool key, const char **out, size_t *out_len)
{
        size_t at = r->off, len, bad = 0;
        const uint8_t *s;
        bool ascii, nul;

        if (!rd_need(r, 4))
                return false;
        len = get32(r);
        if (len > r->lim->scalar_max)
                return prc_err_at(r->err, PRC_E_SCALAR_LIMIT, at, "%s of %zu bytes exceeds %zu", key ? "key" : "string",
                                  len, r->lim->scalar_max);
        if (!rd_need(r, len))
                return false;
        s = r->p + r->off;
        /* One pass says both: is it ASCII (no decoding then), and does it hold a NUL. */
        scan_text(s, len, r->have - r->off, &ascii, &nul);
        if (!ascii && !prc_utf8_valid(s, len, &bad))
                return prc_err_at(r->err, PRC_E_INVALID_UTF8, r->off + bad, "%s is not valid UTF-8",
                                  key ? "key" : "string");
        if (key && nul)
                return prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "key holds a NUL byte");
        r->off += len;
        *out = (const char *)s;
        *out_len = len;
        return true;
}

static json_t *oom(struct binrd *r)
{
        prc_err_oom(r->err, "a reply document");
        return NULL;
}

/*
 * A string value.  One the document already gave (short, in the same
 * slot) is shared rather than made again: about half the strings of a
 * ManifestDoc repeat (scopes, source types, versions, algorithms), and each
 * one made costs two allocations now and two frees later.  Values are never
 * changed in place, so sharing one is not seen by the reader of the tree.
 */
static json_t *rd_string(struct binrd *r, const char *s, size_t len)
{
        /* A word at a time (FNV-1a's step on words); a slot that holds another string is only a miss. */
        const uint64_t prime = 0x100000001b3u;
        const uint8_t *u = (const uint8_t *)s;
        uint64_t h = 0xcbf29ce484222325u ^ len, w;
        size_t i = 0;
        json_t **slot, *v;

        if (len > RD_SEEN_MAX)
                return json_stringn_nocheck(s, len);
        for (; i + 8 <= len; i += 8) {
                memcpy(&w, u + i, 8);
                h = (h ^ w) * prime;
        }
        if (i < len)
                h = (h ^ tail_word(u + i, len - i, r->have - (size_t)(u + i - r->p))) * prime;
        h ^= h >> 32;
        slot = &r->seen[(h ^ h >> 16) & (RD_SEEN_SLOTS - 1)];
        if (*slot != NULL && json_string_length(*slot) == len && memcmp(json_string_value(*slot), s, len) == 0)
                return json_incref(*slot);
        v = json_stringn_nocheck(s, len);
        if (v != NULL) {
                json_decref(*slot);
                *slot = json_incref(v);
        }
        return v;
}

static json_t *rd_value(struct binrd *r, uint32_t depth);

/* A value's tag (read), counted against nodes_max: the first step of every value, the reader's and a hook's. */
static bool rd_tag(struct binrd *r, uint8_t *tag)
{
        size_t at = r->off;

        if (!rd_need(r, 1))
                return false;
        if (++r->nodes > r->lim->nodes_max)
                return prc_err_at(r->err, PRC_E_NODES_LIMIT, at, "more than %u values", r->lim->nodes_max);
        *tag = r->p[r->off++];
        return true;
}

/* In an open container: is its end tag next (then read)? */
static bool rd_end(struct binrd *r, bool *end)
{
        if (!rd_need(r, 1))
                return false;
        *end = r->p[r->off] == PRC_DOCBIN_END;
        if (*end)
                r->off++;
        return true;
}

/*
 * The value of a member with key k (klen bytes) of an object at depth: the
 * hook's, when this is the top-level object's member it reads and it takes
 * the value, else read here (from the value's first byte again, the node
 * count and spelling as they were, when the hook declined).
 */
static json_t *rd_member(struct binrd *r, const char *k, size_t klen, uint32_t depth)
{
        const prc_docbin_hook *h = r->hook;

        if (depth == 0 && h != NULL && strlen(h->key) == klen && memcmp(h->key, k, klen) == 0) {
                struct prc_docbin_cur cur = { .r = r };
                size_t off = r->off;
                uint64_t nodes = r->nodes;
                int spelling = r->spelling;
                json_t *v = NULL;

                if (h->read(h->ctx, &cur, &v, r->err))
                        return v != NULL ? v : oom(r);
                if (prc_err_is_set(r->err))
                        return NULL;
                r->off = off;
                r->nodes = nodes;
                r->spelling = spelling;
        }
        return rd_value(r, depth + 1);
}

/*
 * A container's own checks, after its tag (at at): the depth ("[]" is
 * depth 1, as the strict reader counts), one spelling per document (so
 * each spelling of a tree has exactly one encoding), and a counted one's
 * count against the bytes left and, for an object, keys_max.  *count is
 * the count, or PRC_DOCBIN_CUR_OPEN.
 */
static bool rd_container(struct binrd *r, uint8_t tag, size_t at, uint32_t depth, int64_t *count)
{
        int sp = tag >= PRC_DOCBIN_ARRAY_OPEN ? PRC_DOCBIN_ARRAY_OPEN : PRC_DOCBIN_ARRAY;
        uint32_t c;

        if (depth >= r->depth_max)
                return prc_err_at(r->err, PRC_E_DEPTH_LIMIT, at, "nesting deeper than %u", r->depth_max);
        if (r->spelling != 0 && r->spelling != sp)
                return prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "counted and open containers in one document");
        r->spelling = sp;
        if (sp == PRC_DOCBIN_ARRAY_OPEN) {
                *count = PRC_DOCBIN_CUR_OPEN;
                return true;
        }
        if (!rd_need(r, 4))
                return false;
        c = get32(r);
        if (tag == PRC_DOCBIN_ARRAY) {
                /* Every value takes at least one byte: a count past the end is refused before any work. */
                if (c > r->n - r->off)
                        return prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "array of %u values in %zu bytes", c,
                                          r->n - r->off);
        } else {
                if (c > r->lim->keys_max)
                        return prc_err_at(r->err, PRC_E_NODES_LIMIT, at, "object with %u keys exceeds %u", c,
                                          r->lim->keys_max);
                /* A member takes at least 5 bytes (key length and a one-byte value). */
                if ((uint64_t)c * 5 > r->n - r->off)
                        return prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "object of %u members in %zu bytes", c,
                                          r->n - r->off);
        }
        *count = c;
        return true;
}

/* An open object's next member key, at member index i (its end tag already looked for). */
static bool rd_open_key(struct binrd *r, size_t i, const char **s, size_t *len)
{
        size_t kat = r->off;

        if (r->p[r->off] != PRC_DOCBIN_STRING)
                return prc_err_at(r->err, PRC_E_INVALID_FRAME, kat, "open object member starts with tag 0x%02x, not a key",
                                  r->p[r->off]);
        if (i >= r->lim->keys_max)
                return prc_err_at(r->err, PRC_E_NODES_LIMIT, kat, "object with more than %u keys", r->lim->keys_max);
        r->off++;
        return rd_text(r, true, s, len);
}

/*
 * The members of an open container, up to its end tag (the tag is read).
 * No count to check up front: every value or member takes at least one
 * byte of the bounded reply, and nodes_max and keys_max bound the work as
 * the values arrive.
 */
static json_t *rd_open(struct binrd *r, bool map, uint32_t depth)
{
        json_t *v = map ? json_object() : json_array();

        if (v == NULL)
                return oom(r);
        for (;;) {
                size_t kat = r->off, len, koff, before;
                const char *s;
                json_t *e;
                bool end;
                if (!rd_end(r, &end))
                        goto fail;
                if (end)
                        return v;
                if (!map) {
                        e = rd_value(r, depth + 1);
                        if (e == NULL)
                                goto fail;
                        if (json_array_append_new(v, e) != 0) {
                                (void)oom(r);
                                goto fail;
                        }
                        continue;
                }
                before = json_object_size(v);
                if (!rd_open_key(r, before, &s, &len))
                        goto fail;
                koff = (size_t)((const uint8_t *)s - r->p);     /* a streaming source may move p while e is read */
                e = rd_member(r, s, len, depth);
                if (e == NULL)
                        goto fail;
                if (json_object_setn_new_nocheck(v, (const char *)r->p + koff, len, e) != 0) {
                        (void)oom(r);
                        goto fail;
                }
                if (json_object_size(v) == before) {
                        prc_err_at(r->err, PRC_E_DUPLICATE_FIELD, kat, "duplicate key in object member %zu", before);
                        goto fail;
                }
        }
fail:
        json_decref(v);
        return NULL;
}

static json_t *rd_value(struct binrd *r, uint32_t depth)
{
        size_t at = r->off, len;
        uint64_t u;
        int64_t count;
        uint8_t tag = 0;        /* set by rd_tag when it succeeds (gcc cannot see prc_err_at returns false) */
        const char *s;
        json_t *v;
        double d;

        if (!rd_tag(r, &tag))
                return NULL;
        switch (tag) {
        case PRC_DOCBIN_NULL:
                return json_null();
        case PRC_DOCBIN_FALSE:
                return json_false();
        case PRC_DOCBIN_TRUE:
                return json_true();
        case PRC_DOCBIN_INT:
                if (!rd_need(r, 8))
                        return NULL;
                u = get64(r);
                v = json_integer((json_int_t)u);
                return v != NULL ? v : oom(r);
        case PRC_DOCBIN_REAL:
                if (!rd_need(r, 8))
                        return NULL;
                u = get64(r);
                memcpy(&d, &u, sizeof(d));
                if (!isfinite(d)) {
                        prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "non-finite real");
                        return NULL;
                }
                v = json_real(d);
                return v != NULL ? v : oom(r);
        case PRC_DOCBIN_STRING:
                if (!rd_text(r, false, &s, &len))
                        return NULL;
                v = rd_string(r, s, len);       /* rd_text checked the UTF-8 */
                return v != NULL ? v : oom(r);
        case PRC_DOCBIN_ARRAY:
        case PRC_DOCBIN_OBJECT:
        case PRC_DOCBIN_ARRAY_OPEN:
        case PRC_DOCBIN_OBJECT_OPEN:
                break;
        default:
                prc_err_at(r->err, PRC_E_INVALID_FRAME, at, "unknown value tag 0x%02x", r->p[at]);
                return NULL;
        }
        if (!rd_container(r, tag, at, depth, &count))
                return NULL;
        if (count == PRC_DOCBIN_CUR_OPEN)
                return rd_open(r, tag == PRC_DOCBIN_OBJECT_OPEN, depth);
        if (tag == PRC_DOCBIN_ARRAY) {
                v = json_array();
                if (v == NULL)
                        return oom(r);
                for (int64_t i = 0; i < count; i++) {
                        json_t *e = rd_value(r, depth + 1);
                        if (e == NULL || json_array_append_new(v, e) != 0) {
                                json_decref(v);
                                return e == NULL ? NULL : oom(r);
                        }
                }
                return v;
        }
        v = json_object();
        if (v == NULL)
                return oom(r);
        for (int64_t i = 0; i < count; i++) {
                size_t kat = r->off, before = json_object_size(v), koff;
                json_t *e;
                if (!rd_text(r, true, &s, &len))
                        goto fail;
                koff = (size_t)((const uint8_t *)s - r->p);     /* a streaming source may move p while e is read */
                e = rd_member(r, s, len, depth);
                if (e == NULL)
                        goto fail;
                /* Consumes e either way; rd_text checked the key.  A replaced member leaves the size alone. */
                if (json_object_setn_new_nocheck(v, (const char *)r->p + koff, len, e) != 0) {
                        (void)oom(r);
                        goto fail;
                }
                if (json_object_size(v) == before) {
                        prc_err_at(r->err, PRC_E_DUPLICATE_FIELD, kat, "duplicate key in object member %u", (uint32_t)i);
                        goto fail;
                }
        }
        return v;
fail:
        json_decref(v);
        return NULL;
}

json_t *prc_docbin_read(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err)
{
        return prc_docbin_read_stream(p, n, n, NULL, NULL, lim, err);
}

json_t *prc_docbin_read_stream(const uint8_t *buf, size_t n, size_t have, prc_docbin_fill_fn fill, void *ctx,
                               const prc_limits *lim, prc_err *err)
{
        return prc_docbin_read_stream_hook(buf, n, have, fill, ctx, lim, NULL, err);
}

json_t *prc_docbin_read_stream_hook(const uint8_t *buf, size_t n, size_t have, prc_docbin_fill_fn fill, void *ctx,
                                    const prc_limits *lim, const prc_docbin_hook *hook, prc_err *err)
{
        struct binrd r = { .p = buf, .n = n, .have = have, .fill = fill, .ctx = ctx, .lim = lim, .err = err,
                           .hook = hook };
        json_t *v;

        /* Our own recursion is bounded whatever depth the caller's limits allow. */
        r.depth_max = lim->depth_max < DOCENC_DEPTH_MAX ? lim->depth_max : DOCENC_DEPTH_MAX;
        prc_json_alloc_guard_begin();
        /*
         * The tree is built at once and dropped whole (a million nodes a
         * `prc sbom` run): carved from chunks, not a malloc per node.
         */
        prc_json_arena_begin();
        v = rd_value(&r, 0);
        for (size_t i = 0; i < RD_SEEN_SLOTS; i++)
                json_decref(r.seen[i]);
        prc_json_arena_end();
        if (v != NULL && prc_json_alloc_guard_failed()) {
                json_decref(v);         /* jansson may lose a failed allocation: the guard does not */
                prc_err_oom(err, "a reply document");
                return NULL;
        }
        if (v != NULL && r.off != r.have) {
                json_decref(v);
                prc_err_at(err, PRC_E_INVALID_FRAME, r.off, "%zu bytes after the document", r.have - r.off);
                return NULL;
        }
        return v;
}

/* The cursor (docenc.h): the reader's own steps, for a hook. */
bool prc_docbin_cur_value(prc_docbin_cur *c, uint8_t *tag)
{
        c->at = c->r->off;
        return rd_tag(c->r, tag);
}

bool prc_docbin_cur_container(prc_docbin_cur *c, uint8_t tag, uint32_t depth, int64_t *count)
{
        return rd_container(c->r, tag, c->at, depth, count);
}

bool prc_docbin_cur_end(prc_docbin_cur *c, bool *end)
{
        return rd_end(c->r, end);
}

bool prc_docbin_cur_key(prc_docbin_cur *c, bool open, size_t i, const char **s, size_t *n)
{
        return open ? rd_open_key(c->r, i, s, n) : rd_text(c->r, true, s, n);
}

bool prc_docbin_cur_text(prc_docbin_cur *c, const char **s, size_t *n)
{
        return rd_text(c->r, false, s, n);
}

bool prc_docbin_cur_blob(prc_docbin_cur *c, const uint8_t **p, size_t *n, size_t *off)
{
        struct binrd *r = c->r;
        size_t len;

        if (!rd_need(r, 4))
                return false;
        len = get32(r);
        if (!rd_need(r, len))
                return false;
        *p = r->p + r->off;
        *n = len;
        *off = r->off;
        r->off += len;
        return true;
}

bool prc_docbin_cur_i64(prc_docbin_cur *c, int64_t *v)
{
        if (!rd_need(c->r, 8))
                return false;
        *v = (int64_t)get64(c->r);
        return true;
}
