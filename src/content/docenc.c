/*
 * docenc.c - deterministic JSON encoding of documents with floats (docenc.h).
 * Trust: writes documents built inside the worker; reads replies from the
 * worker with the strict reader.
 */
#include "content/docenc.h"

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
