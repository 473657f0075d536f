/*
 * jcs.c - RFC 8785 canonical JSON writer over jansson values.
 * Trust: engine-side; input documents come from bounded loaders, but the
 * writer re-checks what canonical form needs (UTF-8, integer range, depth)
 * rather than trusting them.
 *
 * prc's JCS is integer-only: a JSON_REAL is not-canonical even when its
 * value is integral (1.0, 1e2), because records never hold floats and
 * ECMAScript number formatting would otherwise have to be reproduced.  A
 * jansson integer is never -0, so "-0" read by a parser is written "0".
 */
#include "base/jcs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/swar.h"
#include "base/utf8.h"

enum { JCS_DEPTH_MAX = 512 };   /* loaders cap depth far lower; this guards our recursion */

/* Next UTF-16 code unit of a valid UTF-8 string; *pending holds a low surrogate. */
static unsigned next_unit(const unsigned char **p, const unsigned char *end, unsigned *pending)
{
        uint32_t cp;
        size_t n;

        if (*pending) {
                unsigned u = *pending;
                *pending = 0;
                return u;
        }
        n = prc_utf8_decode(*p, (size_t)(end - *p), &cp);
        if (n == 0) {           /* invalid: order by the raw byte, writer rejects it anyway */
                return *(*p)++;
        }
        *p += n;
        if (cp >= 0x10000) {
                cp -= 0x10000;
                *pending = 0xDC00 | (cp & 0x3FF);
                return 0xD800 | (cp >> 10);
        }
        return cp;
}

int prc_jcs_keycmp(const char *a, size_t alen, const char *b, size_t blen)
{
        const unsigned char *pa = (const unsigned char *)a, *ea = pa + alen;
        const unsigned char *pb = (const unsigned char *)b, *eb = pb + blen;
        unsigned qa = 0, qb = 0;

        /* An ASCII character is one byte and one UTF-16 unit: equal ASCII prefixes are skipped bytewise. */
        while (pa < ea && pb < eb && *pa < 0x80 && *pb < 0x80) {
                if (*pa != *pb)
                        return *pa < *pb ? -1 : 1;
                pa++;
                pb++;
        }

        for (;;) {
                bool da = pa == ea && qa == 0, db = pb == eb && qb == 0;
                unsigned ua, ub;

                if (da || db)
                        return da && db ? 0 : da ? -1 : 1;
                ua = next_unit(&pa, ea, &qa);
                ub = next_unit(&pb, eb, &qb);
                if (ua != ub)
                        return ua < ub ? -1 : 1;
        }
}

/*
 * Is s plain: ASCII with nothing to escape (no '"', '\\', control byte)?
 * Eight bytes a word (the SWAR tests: a byte below 0x20, a byte equal to
 * one of the two): most strings of a BOM are, and then they are copied
 * whole, with no UTF-8 decoding and no test per byte.
 */
static bool plain(const uint8_t *s, size_t n)
{
        uint64_t bad = 0;
        size_t i = 0;

        for (; i + 8 <= n; i += 8) {
                uint64_t w;

                memcpy(&w, s + i, 8);
                bad |= (w & PRC_SWAR_HIGHS) | prc_swar_lt(w, 0x20) | prc_swar_eq(w, '"') | prc_swar_eq(w, '\\');
        }
        for (; i < n; i++)
                bad |= s[i] >= 0x80 || s[i] < 0x20 || s[i] == '"' || s[i] == '\\' ? PRC_SWAR_HIGHS : 0;
        return bad == 0;
}

bool prc_jcs_write_string(const char *s, size_t n, prc_buf *out, prc_err *err)
{
        static const char hx[] = "0123456789abcdef";
        size_t i = 0, run = 0;

        if (plain((const uint8_t *)s, n))
                return prc_buf_putc(out, '"', err) && prc_buf_put(out, s, n, err) && prc_buf_putc(out, '"', err);
        if (!prc_utf8_valid((const uint8_t *)s, n, NULL))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "string is not valid UTF-8");
        if (!prc_buf_putc(out, '"', err))
                return false;
        for (i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                char esc[7];
                size_t elen = 0;

                if (c == '"' || c == '\\') {
                        esc[0] = '\\';
                        esc[1] = (char)c;
                        elen = 2;
                } else if (c < 0x20) {
                        esc[0] = '\\';
                        elen = 2;
                        switch (c) {
                        case '\b': esc[1] = 'b'; break;
                        case '\t': esc[1] = 't'; break;
                        case '\n': esc[1] = 'n'; break;
                        case '\f': esc[1] = 'f'; break;
                        case '\r': esc[1] = 'r'; break;
                        default:
                                memcpy(esc, "\\u00", 4);
                                esc[4] = hx[c >> 4];
                                esc[5] = hx[c & 15];
                                elen = 6;
                        }
                }
                if (elen == 0) {
                        run++;
                        continue;
                }
                if (!prc_buf_put(out, s + i - run, run, err) || !prc_buf_put(out, esc, elen, err))
                        return false;
                run = 0;
        }
        if (!prc_buf_put(out, s + n - run, run, err))
                return false;
        return prc_buf_putc(out, '"', err);
}

bool prc_jcs_write_uint(uint64_t v, prc_buf *out, prc_err *err)
{
        char d[24];
        size_t i = sizeof(d);

        if (v > (uint64_t)PRC_SAFE_INT_MAX)
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "integer %llu is outside the safe range",
                                   (unsigned long long)v);
        do {
                d[--i] = (char)('0' + v % 10);
                v /= 10;
        } while (v != 0);
        return prc_buf_put(out, d + i, sizeof(d) - i, err);
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

struct memo_ent {
        const json_t *v;        /* NULL: a free slot */
        size_t        off, len; /* its bytes in the memo's buffer */
};

struct prc_jcs_memo {
        prc_buf           bytes;
        struct memo_ent  *slot;  /* open addressing by address; cap a power of two, or 0 */
        size_t            cap, n;
};

static size_t memo_at(const prc_jcs_memo *m, const json_t *v)
{
        size_t i = (size_t)(((uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);

        while (m->slot[i].v != NULL && m->slot[i].v != v)
                i = (i + 1) & (m->cap - 1);
        return i;
}

static const struct memo_ent *memo_find(const prc_jcs_memo *m, const json_t *v)
{
        const struct memo_ent *e;

        if (m == NULL || m->cap == 0)
                return NULL;
        e = &m->slot[memo_at(m, v)];
        return e->v == v ? e : NULL;
}

static bool write_object(const json_t *v, prc_buf *out, unsigned depth, const char *skip,
                         bool (*skip_fn)(const char *key), const prc_jcs_memo *memo, prc_err *err);

static bool write_value(const json_t *v, prc_buf *out, unsigned depth, const char *skip, const prc_jcs_memo *memo,
                        prc_err *err)
{
        const struct memo_ent *me;

        if (depth > JCS_DEPTH_MAX)
                return prc_err_set(err, PRC_E_DEPTH_LIMIT, "document nests deeper than %d", JCS_DEPTH_MAX);
        /* An object spelled before (an evidence envelope, for its ID): the same bytes again. */
        if (skip == NULL && (me = memo_find(memo, v)) != NULL)
                return prc_buf_put(out, memo->bytes.data + me->off, me->len, err);
        switch (json_typeof(v)) {
        case JSON_NULL:
                return prc_buf_puts(out, "null", err);
        case JSON_TRUE:
                return prc_buf_puts(out, "true", err);
        case JSON_FALSE:
                return prc_buf_puts(out, "false", err);
        case JSON_INTEGER: {
                json_int_t i = json_integer_value(v);
                if (i > PRC_SAFE_INT_MAX || i < -PRC_SAFE_INT_MAX)
                        return prc_err_set(err, PRC_E_NOT_CANONICAL, "integer %" JSON_INTEGER_FORMAT
                                           " is outside the safe range", i);
                if (i < 0 && !prc_buf_putc(out, '-', err))
                        return false;
                return prc_jcs_write_uint(i < 0 ? (uint64_t)-i : (uint64_t)i, out, err);
        }
        case JSON_REAL:
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "floats are not allowed in canonical records");
        case JSON_STRING:
                return prc_jcs_write_string(json_string_value(v), json_string_length(v), out, err);
        case JSON_ARRAY: {
                size_t i;
                json_t *e;
                if (!prc_buf_putc(out, '[', err))
                        return false;
                json_array_foreach(v, i, e) {
                        if (i > 0 && !prc_buf_putc(out, ',', err))
                                return false;
                        if (!write_value(e, out, depth + 1, NULL, memo, err))
                                return false;
                }
                return prc_buf_putc(out, ']', err);
        }
        case JSON_OBJECT:
                return write_object(v, out, depth, skip, NULL, memo, err);
        }
        return prc_err_set(err, PRC_E_INTERNAL, "unknown JSON type");
}

/* An object's members in key order, but skip (a top-level ID) and those skip_fn names. */
static bool write_object(const json_t *v, prc_buf *out, unsigned depth, const char *skip,
                         bool (*skip_fn)(const char *key), const prc_jcs_memo *memo, prc_err *err)
{
        size_t n = json_object_size(v), k = 0, klen;
        struct kv small[16], *kvs = small;      /* most records' objects are small */
        const char *key;
        json_t *e;
        bool ok = true, first = true;

        if (n > PRC_ARRAY_LEN(small))
                kvs = prc_calloc(n, sizeof(*kvs));
        if (kvs == NULL)
                return prc_err_oom(err, "canonical JSON keys");
        json_object_keylen_foreach((json_t *)v, key, klen, e) {
                if (skip != NULL && strlen(skip) == klen && memcmp(skip, key, klen) == 0)
                        continue;
                if (skip_fn != NULL && skip_fn(key))
                        continue;
                kvs[k].key = key;
                kvs[k].len = klen;
                kvs[k].val = e;
                k++;
        }
        qsort(kvs, k, sizeof(*kvs), kvcmp);
        ok = prc_buf_putc(out, '{', err);
        for (size_t i = 0; ok && i < k; i++) {
                ok = (first || prc_buf_putc(out, ',', err)) &&
                     prc_jcs_write_string(kvs[i].key, kvs[i].len, out, err) &&
                     prc_buf_putc(out, ':', err) &&
                     write_value(kvs[i].val, out, depth + 1, NULL, memo, err);
                first = false;
        }
        if (kvs != small)
                free(kvs);
        return ok && prc_buf_putc(out, '}', err);
}

bool prc_jcs_write(const json_t *v, prc_buf *out, prc_err *err)
{
        size_t mark = out->len;

        if (!write_value(v, out, 0, NULL, NULL, err)) {
                prc_buf_truncate(out, mark);    /* never leave a partial record behind */
                return false;
        }
        return true;
}

bool prc_jcs_write_without(const json_t *v, bool (*skip)(const char *key), prc_buf *out, prc_err *err)
{
        size_t mark = out->len;
        bool ok = json_is_object(v) ? write_object(v, out, 0, NULL, skip, NULL, err) : prc_buf_puts(out, "{}", err);

        if (!ok)
                prc_buf_truncate(out, mark);    /* never leave a partial record behind */
        return ok;
}

static bool digest_skip(const json_t *v, const char *skip, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_buf_init(&b, (size_t)1 << 30);
        ok = write_value(v, &b, 0, skip, NULL, err) && prc_sha256_hex_once(b.data, b.len, out, err);
        prc_buf_clear(&b);
        return ok;
}

bool prc_jcs_id_write(const json_t *v, const char *id_field, prc_buf *out, char id[PRC_SHA256_HEX + 1],
                      prc_err *err)
{
        return prc_jcs_id_write_memo(v, id_field, NULL, out, id, err);
}

bool prc_jcs_id_write_memo(const json_t *v, const char *id_field, const prc_jcs_memo *memo, prc_buf *out,
                           char id[PRC_SHA256_HEX + 1], prc_err *err)
{
        size_t mark = out->len, n = json_object_size(v), k = 0, at = 0, klen, idlen;
        struct kv *kvs;
        const char *key;
        json_t *e;
        bool ok;

        if (id_field == NULL || !json_is_object(v))
                return prc_err_set(err, PRC_E_INTERNAL, "content ID needs an object and an ID field name");
        idlen = strlen(id_field);
        kvs = prc_calloc(n ? n : 1, sizeof(*kvs));
        if (kvs == NULL)
                return prc_err_oom(err, "canonical JSON keys");
        json_object_keylen_foreach((json_t *)v, key, klen, e) {
                if (klen == idlen && memcmp(id_field, key, klen) == 0)
                        continue;
                kvs[k++] = (struct kv){ key, klen, e };
        }
        qsort(kvs, k, sizeof(*kvs), kvcmp);
        /* The object without its ID, as write_value spells it, noting where the ID member goes. */
        ok = prc_buf_putc(out, '{', err);
        for (size_t i = 0; ok && i < k; i++) {
                if (at == 0 && prc_jcs_keycmp(kvs[i].key, kvs[i].len, id_field, idlen) > 0)
                        at = out->len;
                ok = (i == 0 || prc_buf_putc(out, ',', err)) &&
                     prc_jcs_write_string(kvs[i].key, kvs[i].len, out, err) && prc_buf_putc(out, ':', err) &&
                     write_value(kvs[i].val, out, 1, NULL, memo, err);
        }
        if (ok && at == 0)
                at = out->len;
        ok = ok && prc_buf_putc(out, '}', err) && prc_sha256_hex_once(out->data + mark, out->len - mark, id, err);
        free(kvs);
        if (ok) {
                /* Then the ID member in its place: the bytes prc_jcs_write gives once the ID is set. */
                char mem[PRC_SHA256_HEX + 512];
                bool lead = out->data[at - 1] != '{', trail = !lead && out->data[at] != '}';
                int ml = snprintf(mem, sizeof(mem), "%s", lead ? "," : "");
                size_t tail = out->len - at;
                prc_buf kb;
                prc_buf_init(&kb, sizeof(mem));
                ok = prc_jcs_write_string(id_field, idlen, &kb, err) && kb.len + PRC_SHA256_HEX + 8 < sizeof(mem);
                if (ok) {
                        memcpy(mem + ml, kb.data, kb.len);
                        ml += (int)kb.len;
                        ml += snprintf(mem + ml, sizeof(mem) - (size_t)ml, ":\"%s\"%s", id, trail ? "," : "");
                        ok = prc_buf_reserve(out, (size_t)ml, err);
                }
                prc_buf_clear(&kb);
                if (ok) {
                        memmove(out->data + at + ml, out->data + at, tail);
                        memcpy(out->data + at, mem, (size_t)ml);
                        out->len += (size_t)ml;
                }
        }
        if (!ok)
                prc_buf_truncate(out, mark);    /* never leave a partial record behind */
        return ok;
}

bool prc_jcs_digest(const json_t *v, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        return digest_skip(v, NULL, out, err);
}

bool prc_jcs_id(const json_t *v, const char *id_field, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        if (id_field == NULL)
                return prc_err_set(err, PRC_E_INTERNAL, "content ID without an ID field name");
        if (!json_is_object(v))
                return prc_err_set(err, PRC_E_NOT_AN_OBJECT, "content ID needs an object");
        return digest_skip(v, id_field, out, err);
}

prc_jcs_memo *prc_jcs_memo_new(void)
{
        prc_jcs_memo *m = prc_calloc(1, sizeof(*m));

        if (m != NULL)
                prc_buf_init(&m->bytes, (size_t)1 << 31);
        return m;
}

void prc_jcs_memo_free(prc_jcs_memo *m)
{
        if (m == NULL)
                return;
        prc_buf_clear(&m->bytes);
        free(m->slot);
        free(m);
}

/* Room for one more entry (false: out of memory, the memo is unchanged). */
static bool memo_room(prc_jcs_memo *m)
{
        prc_jcs_memo g = { .cap = m->cap ? 2 * m->cap : 64 };

        if (2 * (m->n + 1) <= m->cap)
                return true;
        g.slot = prc_calloc(g.cap, sizeof(*g.slot));
        if (g.slot == NULL)
                return false;
        for (size_t i = 0; i < m->cap; i++)
                if (m->slot[i].v != NULL)
                        g.slot[memo_at(&g, m->slot[i].v)] = m->slot[i];
        free(m->slot);
        m->slot = g.slot;
        m->cap = g.cap;
        return true;
}

bool prc_jcs_memo_id(prc_jcs_memo *m, const json_t *v, const char *id_field, char id[PRC_SHA256_HEX + 1],
                     prc_err *err)
{
        size_t mark;
        prc_err me;

        if (m == NULL || memo_find(m, v) != NULL || !memo_room(m))
                return prc_jcs_id(v, id_field, id, err);
        mark = m->bytes.len;
        prc_err_init(&me);
        if (!prc_jcs_id_write(v, id_field, &m->bytes, id, &me)) {
                /* Not kept (the memo's own limits): the ID alone, or the document's own error. */
                return prc_jcs_id(v, id_field, id, err);
        }
        m->slot[memo_at(m, v)] = (struct memo_ent){ v, mark, m->bytes.len - mark };
        m->n++;
        return true;
}
