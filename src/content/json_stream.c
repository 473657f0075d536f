/*
 * json_stream.c - streaming JSON reader writing the binary reply encoding
 * (json_stream.h).
 * Trust: input is hostile target bytes, inside the floored worker.
 *
 * Acceptance is prc_json_parse's: its checks, in the order they can be
 * made while reading, each of which declines rather than refuses:
 *   input_max, UTF-8 of the whole input (prc_utf8_valid, as json_strict),
 *   jansson's grammar (RFC 8259 with its number, escape and surrogate
 *   rules, whitespace " \t\n\r", one value then end of input), numbers as
 *   jansson converts them (strtoll/strtod, refused on overflow), \u0000
 *   only with PRC_JSON_ALLOW_NUL and never in a key, duplicate keys, then
 *   the tree check's limits (nodes, depth, keys, string and key bytes,
 *   floats and unsafe integers by flag).
 * The encoding writes a container's count before its values, so a first
 * pass counts the members of every container (it also bounds nesting);
 * the second checks each count it wrote against what it read.
 */
#include "content/json_stream.h"

#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/utf8.h"

/* Objects up to this many members are checked for duplicates by a scan; larger ones use the hash table. */
enum { JS_SCAN_KEYS = 16 };

struct kent {
        size_t   off;           /* in keys */
        uint32_t len;
        uint32_t h;
};

struct hent {
        uint64_t obj;           /* container ordinal + 1; 0: free */
        size_t   off;
        uint32_t len;
        uint32_t h;
};

struct js {
        const uint8_t    *p;
        size_t            n, i;
        const prc_limits *lim;
        unsigned          flags;
        uint32_t         *counts;       /* owned: members of each container, in opening order */
        size_t            ncont, next;  /* containers counted; the next to open */
        uint64_t          nodes;
        uint32_t          depth;
        prc_buf          *b;            /* borrowed: the piece being built */
        prc_docbin_put_fn put;
        void             *ctx;
        uint64_t          size;         /* handed to put */
        prc_err          *err;
        bool              failed;       /* err is set: stop, do not decline */
        /* Duplicate keys: the open objects' keys, stacked (an object drops its own when it closes). */
        prc_buf           keys;
        struct kent      *kents;        /* owned */
        size_t            nkents, kcap;
        struct hent      *tab;          /* owned: keys of large objects; never shrinks */
        size_t            tcap, tlen;
        char              num[64];      /* a number's text, when it is short */
};

static bool fail_oom(struct js *s, const char *what)
{
        s->failed = true;
        return prc_err_oom(s->err, what);
}

static bool room(struct js *s, size_t k)
{
        prc_buf *b = s->b;

        if (b->cap - b->len >= k)
                return true;
        if (!prc_buf_reserve(b, k, s->err)) {
                s->failed = true;
                return false;
        }
        return true;
}

static inline void put8(struct js *s, uint8_t c)
{
        s->b->data[s->b->len++] = c;
}

static inline void put32at(uint8_t *d, uint32_t v)
{
        uint32_t be = htobe32(v);

        memcpy(d, &be, 4);
}

static inline void put64(struct js *s, uint64_t v)
{
        uint64_t be = htobe64(v);

        memcpy(s->b->data + s->b->len, &be, 8);
        s->b->len += 8;
}

static bool flush(struct js *s, bool last)
{
        prc_buf *b = s->b;

        if (!s->put(s->ctx, b->data, b->len, last, s->err)) {
                s->failed = true;
                return false;
        }
        s->size += b->len;
        prc_buf_reset(b);
        return true;
}

static inline bool is_ws(uint8_t c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline void skip_ws(struct js *s)
{
        while (s->i < s->n && is_ws(s->p[s->i]))
                s->i++;
}

/*
 * Index of the quote that closes the string opening at p[i] (a quote not
 * preceded by an odd run of backslashes), or n.
 */
static size_t string_end(const uint8_t *p, size_t n, size_t i)
{
        for (i++; i < n;) {
                const uint8_t *q = memchr(p + i, '"', n - i);
                size_t e, bs = 0;

                if (q == NULL)
                        return n;
                e = (size_t)(q - p);
                while (bs < e - i && p[e - 1 - bs] == '\\')
                        bs++;
                if (bs % 2 == 0)
                        return e;
                i = e + 1;
        }
        return n;
}

/* First pass: members of every container, and nesting within bounds. */
static bool count_members(struct js *s)
{
        struct lvl {
                size_t idx;
                bool   nonempty;
        } st[PRC_JS_DEPTH_MAX];
        uint32_t cap = s->lim->depth_max < PRC_JS_DEPTH_MAX ? s->lim->depth_max : PRC_JS_DEPTH_MAX;
        uint32_t depth = 0;
        size_t ccap = 0;
        const uint8_t *p = s->p;

        for (size_t i = 0; i < s->n; i++) {
                uint8_t c = p[i];

                if (is_ws(c))
                        continue;
                if (c == ',') {
                        if (depth > 0)
                                s->counts[st[depth - 1].idx]++;
                        continue;
                }
                if (c == ']' || c == '}') {
                        struct lvl *l;
                        if (depth == 0)
                                return false;
                        l = &st[--depth];
                        s->counts[l->idx] = l->nonempty ? s->counts[l->idx] + 1 : 0;
                        continue;
                }
                if (depth > 0)
                        st[depth - 1].nonempty = true;
                if (c == '"') {
                        i = string_end(p, s->n, i);
                        if (i >= s->n)
                                return false;
                } else if (c == '[' || c == '{') {
                        if (depth >= cap)
                                return false;
                        if (s->ncont == ccap) {
                                size_t nc = ccap ? ccap * 2 : 256;
                                uint32_t *t = realloc(s->counts, nc * sizeof(*t));
                                if (t == NULL)
                                        return fail_oom(s, "container counts");
                                s->counts = t;
                                ccap = nc;
                        }
                        s->counts[s->ncont] = 0;
                        st[depth++] = (struct lvl){ .idx = s->ncont++ };
                }
        }
        return depth == 0;
}

/*
 * Decode the string at p[s->i] (a quote) into d, which has room for its raw
 * length; *len gets the decoded bytes.  Declines control characters, bad
 * escapes, unpaired surrogates, and \u0000 unless nul_ok.
 */
static bool decode_string(struct js *s, uint8_t *d, size_t end, bool nul_ok, size_t *len)
{
        const uint8_t *q = s->p + s->i + 1, *e = s->p + end;
        uint8_t *d0 = d;

        while (q < e) {
                uint8_t c = *q;
                long cp, lo;

                if (c >= 0x20 && c != '\\') {
                        *d++ = c;
                        q++;
                        continue;
                }
                if (c < 0x20)
                        return false;
                /* A backslash right before the closing quote would have escaped it. */
                q++;
                switch (*q++) {
                case '"': *d++ = '"'; continue;
                case '\\': *d++ = '\\'; continue;
                case '/': *d++ = '/'; continue;
                case 'b': *d++ = '\b'; continue;
                case 'f': *d++ = '\f'; continue;
                case 'n': *d++ = '\n'; continue;
                case 'r': *d++ = '\r'; continue;
                case 't': *d++ = '\t'; continue;
                case 'u': break;
                default: return false;
                }
                if (e - q < 4 || (cp = prc_json_hex4(q, (size_t)(e - q))) < 0)
                        return false;
                q += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (e - q < 6 || q[0] != '\\' || q[1] != 'u' ||
                            (lo = prc_json_hex4(q + 2, (size_t)(e - q - 2))) < 0xDC00 || lo > 0xDFFF)
                                return false;
                        q += 6;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return false;
                } else if (cp == 0 && !nul_ok) {
                        return false;
                }
                d += prc_utf8_encode((uint32_t)cp, d);
        }
        *len = (size_t)(d - d0);
        return true;
}

static bool string_value(struct js *s)
{
        size_t end = string_end(s->p, s->n, s->i), raw, len;
        uint8_t *d;

        if (end >= s->n)
                return false;
        raw = end - s->i - 1;   /* decoding never lengthens: "\uXXXX" is 6 bytes for at most 3 */
        if (!room(s, raw + 5))
                return false;
        d = s->b->data + s->b->len;
        if (!decode_string(s, d + 5, end, (s->flags & PRC_JSON_ALLOW_NUL) != 0, &len))
                return false;
        if (len > s->lim->scalar_max || len > UINT32_MAX)
                return false;
        d[0] = PRC_DOCBIN_STRING;
        put32at(d + 1, (uint32_t)len);
        s->b->len += 5 + len;
        s->i = end + 1;
        return true;
}

static inline uint32_t key_hash(const uint8_t *k, size_t n)
{
        uint32_t h = 2166136261u;

        for (size_t i = 0; i < n; i++)
                h = (h ^ k[i]) * 16777619u;
        return h;
}

static inline size_t slot(uint32_t h, uint64_t obj, size_t mask)
{
        return (h ^ (uint32_t)obj * 0x9E3779B1u) & mask;
}

/* Insert into the table; *dup when obj already has this key.  False on memory failure. */
static bool tab_insert(struct js *s, uint64_t obj, size_t off, uint32_t len, uint32_t h, bool *dup)
{
        size_t mask, j;

        *dup = false;
        if (s->tlen + 1 > s->tcap / 2) {
                size_t nc = s->tcap ? s->tcap * 2 : 1024;
                struct hent *t = calloc(nc, sizeof(*t));
                if (t == NULL)
                        return fail_oom(s, "key table");
                for (size_t k = 0; k < s->tcap; k++) {
                        struct hent *o = &s->tab[k];
                        if (o->obj == 0)
                                continue;
                        for (j = slot(o->h, o->obj, nc - 1); t[j].obj != 0; j = (j + 1) & (nc - 1))
                                ;
                        t[j] = *o;
                }
                free(s->tab);
                s->tab = t;
                s->tcap = nc;
        }
        mask = s->tcap - 1;
        for (j = slot(h, obj, mask); s->tab[j].obj != 0; j = (j + 1) & mask) {
                struct hent *o = &s->tab[j];
                if (o->obj == obj && o->h == h && o->len == len &&
                    (len == 0 || memcmp(s->keys.data + o->off, s->keys.data + off, len) == 0)) {
                        *dup = true;
                        return true;
                }
        }
        s->tab[j] = (struct hent){ .obj = obj, .off = off, .len = len, .h = h };
        s->tlen++;
        return true;
}

/*
 * The key at p[s->i]: written as (u32 length, bytes) and recorded for the
 * duplicate check of object obj, whose keys start at kents[first].
 */
static bool key(struct js *s, uint64_t obj, size_t first)
{
        size_t end = string_end(s->p, s->n, s->i), raw, len, off;
        uint8_t *d;
        uint32_t h;
        size_t nk;

        if (end >= s->n)
                return false;
        raw = end - s->i - 1;
        if (!room(s, raw + 4))
                return false;
        d = s->b->data + s->b->len;
        if (!decode_string(s, d + 4, end, false, &len))
                return false;
        if (len > s->lim->scalar_max || len > UINT32_MAX)
                return false;
        h = key_hash(d + 4, len);
        nk = s->nkents - first;
        if (nk < JS_SCAN_KEYS) {
                for (size_t k = first; k < s->nkents; k++) {
                        struct kent *o = &s->kents[k];
                        if (o->h == h && o->len == len &&
                            (len == 0 || memcmp(s->keys.data + o->off, d + 4, len) == 0))
                                return false;
                }
        }
        off = s->keys.len;
        if (!prc_buf_put(&s->keys, d + 4, len, s->err)) {
                s->failed = true;
                return false;
        }
        if (s->nkents == s->kcap) {
                size_t nc = s->kcap ? s->kcap * 2 : 64;
                struct kent *t = realloc(s->kents, nc * sizeof(*t));
                if (t == NULL)
                        return fail_oom(s, "keys");
                s->kents = t;
                s->kcap = nc;
        }
        s->kents[s->nkents++] = (struct kent){ .off = off, .len = (uint32_t)len, .h = h };
        if (nk + 1 >= JS_SCAN_KEYS) {
                bool dup;
                /* The object just became large: its earlier keys go into the table first. */
                for (size_t k = nk + 1 == JS_SCAN_KEYS ? first : s->nkents - 1; k < s->nkents; k++) {
                        struct kent *o = &s->kents[k];
                        if (!tab_insert(s, obj, o->off, o->len, o->h, &dup))
                                return false;
                        if (dup)
                                return false;
                }
        }
        put32at(d, (uint32_t)len);
        s->b->len += 4 + len;
        s->i = end + 1;
        return true;
}

/* Integer or real, as jansson's lexer reads and converts it. */
static bool number(struct js *s)
{
        const uint8_t *p = s->p;
        size_t st = s->i, i = s->i, n = s->n;
        bool neg = false, real = false;
        char *text = s->num, *big = NULL;
        size_t tl;

        if (p[i] == '-') {
                neg = true;
                i++;
        }
        if (i < n && p[i] == '0') {
                i++;
                if (i < n && p[i] >= '0' && p[i] <= '9')
                        return false;
        } else if (i < n && p[i] >= '1' && p[i] <= '9') {
                while (i < n && p[i] >= '0' && p[i] <= '9')
                        i++;
        } else {
                return false;
        }
        if (i < n && p[i] == '.') {
                real = true;
                i++;
                if (i >= n || p[i] < '0' || p[i] > '9')
                        return false;
                while (i < n && p[i] >= '0' && p[i] <= '9')
                        i++;
        }
        if (i < n && (p[i] == 'e' || p[i] == 'E')) {
                real = true;
                i++;
                if (i < n && (p[i] == '+' || p[i] == '-'))
                        i++;
                if (i >= n || p[i] < '0' || p[i] > '9')
                        return false;
                while (i < n && p[i] >= '0' && p[i] <= '9')
                        i++;
        }
        tl = i - st;
        if (!real && tl - neg <= 18) {
                /* At most 18 digits cannot overflow: what strtoll would give, without the copy. */
                int64_t v = 0;
                for (size_t k = st + neg; k < i; k++)
                        v = v * 10 + (p[k] - '0');
                if (neg)
                        v = -v;
                if (!(s->flags & PRC_JSON_ALLOW_UNSAFE_INT) && (v > PRC_SAFE_INT_MAX || v < -PRC_SAFE_INT_MAX))
                        return false;
                if (!room(s, 9))
                        return false;
                put8(s, PRC_DOCBIN_INT);
                put64(s, (uint64_t)v);
                s->i = i;
                return true;
        }
        if (tl >= sizeof(s->num)) {
                big = malloc(tl + 1);
                if (big == NULL)
                        return fail_oom(s, "a number");
                text = big;
        }
        memcpy(text, p + st, tl);
        text[tl] = '\0';
        /* The C locale ('.' is the decimal point): prc never calls setlocale, so jansson's strtod reads the same. */
        errno = 0;
        if (!real) {
                long long v = strtoll(text, NULL, 10);
                bool over = (v == LLONG_MIN || v == LLONG_MAX) && errno == ERANGE;
                free(big);
                if (over)
                        return false;
                if (!(s->flags & PRC_JSON_ALLOW_UNSAFE_INT) && (v > PRC_SAFE_INT_MAX || v < -PRC_SAFE_INT_MAX))
                        return false;
                if (!room(s, 9))
                        return false;
                put8(s, PRC_DOCBIN_INT);
                put64(s, (uint64_t)v);
        } else {
                double d = strtod(text, NULL);
                uint64_t bits;
                bool over = (d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE;
                free(big);
                if (over || !isfinite(d) || !(s->flags & PRC_JSON_ALLOW_FLOAT))
                        return false;
                if (!room(s, 9))
                        return false;
                memcpy(&bits, &d, sizeof(bits));
                put8(s, PRC_DOCBIN_REAL);
                put64(s, bits);
        }
        s->i = i;
        return true;
}

static bool literal(struct js *s, const char *word, size_t len, uint8_t tag)
{
        if (s->n - s->i < len || memcmp(s->p + s->i, word, len) != 0)
                return false;
        if (!room(s, 1))
                return false;
        put8(s, tag);
        s->i += len;
        return true;
}

static bool value(struct js *s);

/* The container at p[s->i]: its header with the counted members, then the members. */
static bool container(struct js *s)
{
        bool obj = s->p[s->i] == '{';
        uint8_t close = obj ? '}' : ']';
        uint64_t ord;
        uint32_t want, got = 0;
        size_t kfirst = s->nkents, kmark = s->keys.len;

        if (s->next >= s->ncont || s->depth >= s->lim->depth_max)
                return false;
        ord = s->next + 1;
        want = s->counts[s->next++];
        if (obj && want > s->lim->keys_max)
                return false;
        if (!room(s, 5))
                return false;
        put8(s, obj ? PRC_DOCBIN_OBJECT : PRC_DOCBIN_ARRAY);
        put32at(s->b->data + s->b->len, want);
        s->b->len += 4;
        s->i++;
        s->depth++;
        skip_ws(s);
        if (s->i < s->n && s->p[s->i] == close) {
                s->i++;
                s->depth--;
                return want == 0;
        }
        for (;;) {
                skip_ws(s);
                if (obj) {
                        if (s->i >= s->n || s->p[s->i] != '"' || !key(s, ord, kfirst))
                                return false;
                        skip_ws(s);
                        if (s->i >= s->n || s->p[s->i] != ':')
                                return false;
                        s->i++;
                        skip_ws(s);
                }
                if (!value(s))
                        return false;
                got++;
                skip_ws(s);
                if (s->i >= s->n)
                        return false;
                if (s->p[s->i] == ',') {
                        s->i++;
                        continue;
                }
                if (s->p[s->i] != close)
                        return false;
                s->i++;
                break;
        }
        /* This object's keys are no longer needed for duplicate checks; its parent's are below them. */
        s->nkents = kfirst;
        prc_buf_truncate(&s->keys, kmark);
        s->depth--;
        return got == want;
}

static bool value(struct js *s)
{
        if (++s->nodes > s->lim->nodes_max)
                return false;
        /* Where prc_docbin_stream cuts a piece: before a value, once a chunk is full. */
        if (s->b->len >= PRC_DOCBIN_CHUNK && !flush(s, false))
                return false;
        if (s->i >= s->n)
                return false;
        switch (s->p[s->i]) {
        case '{':
        case '[':
                return container(s);
        case '"':
                return string_value(s);
        case 't':
                return literal(s, "true", 4, PRC_DOCBIN_TRUE);
        case 'f':
                return literal(s, "false", 5, PRC_DOCBIN_FALSE);
        case 'n':
                return literal(s, "null", 4, PRC_DOCBIN_NULL);
        default:
                return (s->p[s->i] == '-' || (s->p[s->i] >= '0' && s->p[s->i] <= '9')) && number(s);
        }
}

prc_js_rc prc_json_stream(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                          prc_docbin_put_fn put, void *ctx, uint64_t *out_size, prc_err *err)
{
        /* An empty request may come without a buffer. */
        struct js s = { .p = p != NULL ? p : (const uint8_t *)"", .n = n, .lim = lim, .flags = flags, .b = chunk,
                        .put = put, .ctx = ctx, .err = err };
        bool ok = false;

        prc_buf_reset(chunk);
        prc_buf_init(&s.keys, SIZE_MAX / 2);
        /* Declines before the first piece: whatever prc_json_parse would say, nothing was sent. */
        if (n <= lim->input_max && prc_utf8_valid(s.p, n, NULL) && memchr(s.p, 0, n) == NULL && count_members(&s)) {
                skip_ws(&s);
                ok = value(&s);
                if (ok) {
                        skip_ws(&s);
                        ok = s.i == n && s.next == s.ncont && flush(&s, true);
                }
        }
        *out_size = s.size;
        free(s.counts);
        free(s.kents);
        free(s.tab);
        prc_buf_clear(&s.keys);
        if (s.failed)
                return PRC_JS_FAILED;
        return ok ? PRC_JS_DONE : PRC_JS_DECLINED;
}
