/*
 * toml.c - TOML 1.0 reader (see toml.h for the document model).
 * Trust: input is hostile; runs only inside the content worker.  Every
 * allocation is bounded by prc_limits and the input size.  Errors: the
 * toml-* classes plus the base limit classes.
 *
 * Table rules (TOML 1.0, "Table" and "Keys"): tables that the parser opens
 * itself (root, [headers], their implicit parents, dotted-key parents,
 * [[array]] elements) are "structural" and recorded in a pointer map with a
 * state; every other object or array is a value (inline table, static
 * array) and therefore immutable.  States:
 *   IMPLICIT  created as a parent by a header path; may be defined once
 *   DEFINED   defined by a header, an [[array]] element, or dotted keys of
 *             an earlier section; no header or dotted key may define it again
 *   PENDING   defined by dotted keys in the current section; more dotted
 *             keys of this section may add to it; DEFINED at the next header
 *   AOT       an array of tables: [[header]] appends to it
 *   INLINE    a parent created by a dotted key inside an inline table; open
 *             only while that inline table is read (it is reachable only
 *             through the inline table afterwards, which is immutable)
 * This matches tomllib's behaviour on the toml-test suite.
 */
#include "content/parsers/toml.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/kept.h"
#include "base/utf8.h"
#include "content/parsers/text.h"

enum { S_NONE = 0, S_IMPLICIT, S_DEFINED, S_PENDING, S_AOT, S_INLINE };

struct kpart {
        size_t off, len;        /* into tp.kb */
};

struct slot {
        const json_t *node;     /* borrowed: owned by the document */
        uint8_t       state;
};

struct tp {
        const uint8_t    *p;
        size_t            n, i;
        const prc_limits *lim;
        unsigned          flags;
        prc_err          *err;
        uint64_t          nodes;
        prc_buf           sb;   /* scratch for one unescaped string value */
        prc_buf           kb;   /* bytes of the key parts in use (a stack) */
        struct kpart     *kp;   /* owned; nkp used of capkp */
        size_t            nkp, capkp;
        struct slot      *map;  /* owned; open addressing, mapcap a power of two */
        size_t            mapcap, mapn;
        json_t          **pend; /* owned array of borrowed tables in state PENDING */
        size_t            npend, cappend;
};

/* ---- errors ---------------------------------------------------------- */

static bool fail(struct tp *t, prc_errclass c, const char *what)
{
        return prc_err_at(t->err, c, t->i, "%s", what);
}

static bool oom(struct tp *t)
{
        return prc_err_oom(t->err, "a TOML document");
}

/* ---- structural map -------------------------------------------------- */

static size_t hash_ptr(const json_t *v, size_t cap)
{
        uint64_t h = (uint64_t)(uintptr_t)v;

        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        return (size_t)h & (cap - 1);
}

static uint8_t map_get(const struct tp *t, const json_t *v)
{
        size_t h;

        if (t->mapcap == 0)
                return S_NONE;
        for (h = hash_ptr(v, t->mapcap);; h = (h + 1) & (t->mapcap - 1)) {
                if (t->map[h].node == v)
                        return t->map[h].state;
                if (t->map[h].node == NULL)
                        return S_NONE;
        }
}

static bool map_set(struct tp *t, const json_t *v, uint8_t state)
{
        size_t h;

        if ((t->mapn + 1) * 2 > t->mapcap) {
                size_t ncap = t->mapcap ? t->mapcap * 2 : 64;
                struct slot *nm = calloc(ncap, sizeof(*nm));
                if (nm == NULL)
                        return oom(t);
                for (size_t k = 0; k < t->mapcap; k++) {
                        if (t->map[k].node == NULL)
                                continue;
                        for (h = hash_ptr(t->map[k].node, ncap); nm[h].node != NULL; h = (h + 1) & (ncap - 1))
                                ;
                        nm[h] = t->map[k];
                }
                free(t->map);
                t->map = nm;
                t->mapcap = ncap;
        }
        for (h = hash_ptr(v, t->mapcap);; h = (h + 1) & (t->mapcap - 1)) {
                if (t->map[h].node == v) {
                        t->map[h].state = state;
                        return true;
                }
                if (t->map[h].node == NULL) {
                        t->map[h].node = v;
                        t->map[h].state = state;
                        t->mapn++;
                        return true;
                }
        }
}

static bool pend_push(struct tp *t, json_t *v)
{
        if (t->npend == t->cappend) {
                size_t ncap = t->cappend ? t->cappend * 2 : 16;
                json_t **np = realloc(t->pend, ncap * sizeof(*np));
                if (np == NULL)
                        return oom(t);
                t->pend = np;
                t->cappend = ncap;
        }
        t->pend[t->npend++] = v;
        return map_set(t, v, S_PENDING);
}

/* A new header ends the section: its dotted-key tables become DEFINED. */
static bool pend_finalize(struct tp *t)
{
        for (size_t k = 0; k < t->npend; k++)
                if (!map_set(t, t->pend[k], S_DEFINED))
                        return false;
        t->npend = 0;
        return true;
}

/* ---- node creation --------------------------------------------------- */

static bool count_node(struct tp *t)
{
        if (++t->nodes > t->lim->nodes_max)
                return fail(t, PRC_E_NODES_LIMIT, "more values than the node limit");
        return true;
}

static bool check_depth(struct tp *t, uint64_t depth)
{
        if (depth > t->lim->depth_max)
                return prc_err_at(t->err, PRC_E_DEPTH_LIMIT, t->i, "nesting deeper than %" PRIu32,
                                  t->lim->depth_max);
        return true;
}

static json_t *new_object(struct tp *t)
{
        json_t *o;

        if (!count_node(t))
                return NULL;
        o = json_object();
        if (o == NULL)
                oom(t);
        return o;
}

static json_t *new_array(struct tp *t)
{
        json_t *a;

        if (!count_node(t))
                return NULL;
        a = json_array();
        if (a == NULL)
                oom(t);
        return a;
}

/* Insert v (reference stolen) under key; the caller checked the key is absent. */
static bool obj_put(struct tp *t, json_t *obj, const char *k, size_t klen, json_t *v)
{
        if (json_object_size(obj) >= t->lim->keys_max) {
                json_decref(v);
                return fail(t, PRC_E_NODES_LIMIT, "more keys in one table than the key limit");
        }
        if (json_object_setn_new_nocheck(obj, k, klen, v) != 0)
                return oom(t);
        return true;
}

static bool arr_put(struct tp *t, json_t *arr, json_t *v)
{
        if (json_array_append_new(arr, v) != 0)
                return oom(t);
        return true;
}

/* {tkey: type, vkey: text} as a new object; NULL (out-of-memory recorded) on failure. */
static json_t *pair(struct tp *t, const char *tkey, const char *type, const char *vkey, const char *text,
                    size_t len)
{
        json_t *o = json_object();

        /* json_object_set_new_nocheck steals the value even when it fails. */
        if (o == NULL || json_object_set_new_nocheck(o, tkey, json_string_nocheck(type)) != 0 ||
            json_object_set_new_nocheck(o, vkey, json_stringn_nocheck(text, len)) != 0) {
                json_decref(o);
                oom(t);
                return NULL;
        }
        return o;
}

/*
 * A leaf value.  type is the toml-test type name; text/len is the string
 * value (for strings: the unescaped bytes; for others: the source text).
 */
static json_t *leaf_tagged(struct tp *t, const char *type, const char *text, size_t len)
{
        return pair(t, "type", type, "value", text, len);
}

static json_t *leaf_typed(struct tp *t, const char *type, const char *text, size_t len)
{
        if (t->flags & PRC_TOML_TAGGED)
                return leaf_tagged(t, type, text, len);
        return pair(t, "$toml", type, "text", text, len);
}

static json_t *leaf_string(struct tp *t, const char *s, size_t len)
{
        json_t *v;

        if (!count_node(t))
                return NULL;
        if (t->flags & PRC_TOML_TAGGED)
                return leaf_tagged(t, "string", s, len);
        v = json_stringn_nocheck(s, len);
        if (v == NULL)
                oom(t);
        return v;
}

/* ---- lexical helpers ------------------------------------------------- */

static inline int peek(const struct tp *t, size_t k)
{
        return t->i + k < t->n ? t->p[t->i + k] : -1;
}

static void skip_ws(struct tp *t)
{
        while (t->i < t->n && (t->p[t->i] == ' ' || t->p[t->i] == '\t'))
                t->i++;
}

/* A control character that TOML forbids at t->i: NUL gets its own class. */
static bool bad_control(struct tp *t)
{
        uint8_t c = t->p[t->i];

        if (c == 0)
                return fail(t, PRC_E_NUL_BYTE, "NUL byte in TOML input");
        if (c == '\r')
                return fail(t, PRC_E_TOML_CONTROL_CHAR, "bare carriage return (not part of CRLF)");
        return prc_err_at(t->err, PRC_E_TOML_CONTROL_CHAR, t->i, "control character 0x%02x", c);
}

static inline bool is_ctl(uint8_t c)
{
        return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* At '#': consume the comment up to (not including) the newline. */
static bool comment(struct tp *t)
{
        t->i++;
        while (t->i < t->n) {
                uint8_t c = t->p[t->i];
                if (c == '\n')
                        return true;
                if (c == '\r' && peek(t, 1) == '\n')
                        return true;
                if (is_ctl(c))
                        return bad_control(t);
                t->i++;
        }
        return true;
}

/* Consume one newline if there is one; bare CR is an error. */
static int newline(struct tp *t)
{
        if (t->i < t->n && t->p[t->i] == '\n') {
                t->i++;
                return 1;
        }
        if (t->i < t->n && t->p[t->i] == '\r') {
                if (peek(t, 1) == '\n') {
                        t->i += 2;
                        return 1;
                }
                bad_control(t);
                return -1;
        }
        return 0;
}

/* After an expression: ws [comment] then newline or end of input. */
static bool end_of_line(struct tp *t, const char *after)
{
        skip_ws(t);
        if (t->i < t->n && t->p[t->i] == '#' && !comment(t))
                return false;
        if (t->i >= t->n)
                return true;
        switch (newline(t)) {
        case 1:
                return true;
        case -1:
                return false;
        default:
                if (is_ctl(t->p[t->i]))
                        return bad_control(t);
                return prc_err_at(t->err, PRC_E_TOML_SYNTAX, t->i, "expected a newline after %s", after);
        }
}

/* Whitespace, comments and newlines (inside arrays). */
static bool ws_comment_nl(struct tp *t)
{
        for (;;) {
                int r;
                skip_ws(t);
                if (t->i < t->n && t->p[t->i] == '#' && !comment(t))
                        return false;
                r = newline(t);
                if (r < 0)
                        return false;
                if (r == 0)
                        return true;
        }
}

static int hexval(int c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

/* ---- strings --------------------------------------------------------- */

/* Append a run of input bytes [from, to) to out. */
static bool put_run(struct tp *t, prc_buf *out, size_t from, size_t to)
{
        if (to > from && !prc_buf_put(out, t->p + from, to - from, t->err))
                return false;
        return true;
}

/* At a backslash inside a basic string: decode one escape into out. */
static bool escape(struct tp *t, prc_buf *out, bool multiline)
{
        int c = peek(t, 1);
        uint32_t cp = 0;
        int ndig;
        uint8_t enc[4];

        switch (c) {
        case 'b': t->i += 2; return prc_buf_putc(out, '\b', t->err);
        case 't': t->i += 2; return prc_buf_putc(out, '\t', t->err);
        case 'n': t->i += 2; return prc_buf_putc(out, '\n', t->err);
        case 'f': t->i += 2; return prc_buf_putc(out, '\f', t->err);
        case 'r': t->i += 2; return prc_buf_putc(out, '\r', t->err);
        case '"': t->i += 2; return prc_buf_putc(out, '"', t->err);
        case '\\': t->i += 2; return prc_buf_putc(out, '\\', t->err);
        case 'u': ndig = 4; break;
        case 'U': ndig = 8; break;
        default:
                if (multiline && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
                        /* Line-ending backslash: ws, a newline, then all ws and newlines go. */
                        size_t save = t->i;
                        int r;
                        t->i++;
                        skip_ws(t);
                        r = newline(t);
                        if (r < 0)
                                return false;
                        if (r == 0) {
                                t->i = save;
                                return fail(t, PRC_E_TOML_INVALID_ESCAPE, "backslash followed by whitespace "
                                            "but no newline");
                        }
                        for (;;) {
                                skip_ws(t);
                                r = newline(t);
                                if (r < 0)
                                        return false;
                                if (r == 0)
                                        return true;
                        }
                }
                return fail(t, PRC_E_TOML_INVALID_ESCAPE, "escape sequence not defined by TOML 1.0");
        }
        for (int k = 0; k < ndig; k++) {
                int h = hexval(peek(t, 2 + (size_t)k));
                if (h < 0)
                        return fail(t, PRC_E_TOML_INVALID_ESCAPE, "\\u or \\U needs exactly 4 or 8 hex digits");
                cp = cp << 4 | (uint32_t)h;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return fail(t, PRC_E_TOML_INVALID_ESCAPE, "escape is not a Unicode scalar value");
        if (cp == 0 && !(t->flags & PRC_TOML_ALLOW_NUL))
                return fail(t, PRC_E_NUL_BYTE, "\\u0000 escape (NUL) in a TOML string");
        t->i += 2 + (size_t)ndig;
        return prc_buf_put(out, enc, prc_utf8_encode(cp, enc), t->err);
}

/*
 * At the opening quote(s).  Appends the unescaped value to out.  quote is
 * '"' (basic, escapes) or '\'' (literal); multiline for the tripled forms.
 */
/*
 * Bytes a string body takes as they are: not a quote, a backslash, a line
 * end or another control byte (tab is text).  The loop below skips runs of
 * them a table look-up a byte; every other byte takes the careful path.
 * Lock files are mostly such runs (URLs, hashes): a fifth of a uv.lock's
 * parse went to testing each of their bytes against every case.
 */
static const uint8_t str_plain[256] = {
        ['\t'] = 1,
        [' ' ... '!'] = 1, ['#' ... '&'] = 1, ['(' ... '['] = 1, [']' ... '~'] = 1,
        [0x80 ... 0xff] = 1,
};

static bool string_body(struct tp *t, prc_buf *out, uint8_t quote, bool multiline)
{
        size_t start = out->len;
        size_t run;

        t->i += multiline ? 3 : 1;
        if (multiline) {
                /* A newline right after the opening delimiter is trimmed. */
                if (newline(t) < 0)
                        return false;
        }
        run = t->i;
        for (;;) {
                uint8_t c;

                {
                        const uint8_t *p = t->p;
                        size_t i = t->i, n = t->n;

                        while (i < n && str_plain[p[i]])
                                i++;
                        t->i = i;
                }
                if (t->i >= t->n)
                        return prc_err_at(t->err, PRC_E_TOML_SYNTAX, run, "unterminated string");
                c = t->p[t->i];
                if (c == quote) {
                        size_t q = 1;
                        if (!multiline) {
                                if (!put_run(t, out, run, t->i))
                                        return false;
                                t->i++;
                                break;
                        }
                        while (t->i + q < t->n && t->p[t->i + q] == quote)
                                q++;
                        if (q < 3) {
                                t->i += q;
                                continue;
                        }
                        if (q > 5)
                                return prc_err_at(t->err, PRC_E_TOML_SYNTAX, t->i + 5,
                                                  "too many quotes closing a multi-line string");
                        /* Up to two quotes just inside the closing delimiter belong to the value. */
                        if (!put_run(t, out, run, t->i + q - 3))
                                return false;
                        t->i += q;
                        break;
                }
                if (c == '\\' && quote == '"') {
                        if (!put_run(t, out, run, t->i) || !escape(t, out, multiline))
                                return false;
                        run = t->i;
                        continue;
                }
                if (c == '\n') {
                        if (!multiline)
                                return fail(t, PRC_E_TOML_SYNTAX, "newline in a single-line string");
                        t->i++;
                        continue;
                }
                if (c == '\r' && multiline && peek(t, 1) == '\n') {
                        /* CRLF in a multi-line string reads as LF, as tomllib does. */
                        if (!put_run(t, out, run, t->i))
                                return false;
                        t->i++;
                        run = t->i;
                        continue;
                }
                if (is_ctl(c))
                        return bad_control(t);
                t->i++;
        }
        if (out->len - start > t->lim->scalar_max)
                return prc_err_at(t->err, PRC_E_SCALAR_LIMIT, t->i, "string of %zu bytes exceeds %zu",
                                  out->len - start, t->lim->scalar_max);
        return true;
}

static bool is_string_start(const struct tp *t, uint8_t q)
{
        return peek(t, 1) == q && peek(t, 2) == q;
}

/* ---- keys ------------------------------------------------------------ */

static inline bool is_bare(int c)
{
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/*
 * Parse a (possibly dotted) key; its parts are pushed on t->kp from index
 * *out_first, *out_n of them.  The caller pops them (kp_pop) when done.
 */
static bool parse_key(struct tp *t, size_t *out_first, size_t *out_n)
{
        size_t first = t->nkp;

        for (;;) {
                size_t off = t->kb.len;
                int c = peek(t, 0);

                if (t->nkp - first >= t->lim->depth_max)
                        return prc_err_at(t->err, PRC_E_DEPTH_LIMIT, t->i, "dotted key deeper than %" PRIu32,
                                          t->lim->depth_max);
                if (c == '"' || c == '\'') {
                        if (is_string_start(t, (uint8_t)c))
                                return fail(t, PRC_E_TOML_SYNTAX, "a multi-line string cannot be a key");
                        if (!string_body(t, &t->kb, (uint8_t)c, false))
                                return false;
                } else if (is_bare(c)) {
                        size_t s = t->i;
                        while (t->i < t->n && is_bare(t->p[t->i]))
                                t->i++;
                        if (t->i - s > t->lim->scalar_max)
                                return prc_err_at(t->err, PRC_E_SCALAR_LIMIT, s, "key of %zu bytes exceeds %zu",
                                                  t->i - s, t->lim->scalar_max);
                        if (!prc_buf_put(&t->kb, t->p + s, t->i - s, t->err))
                                return false;
                } else if (c >= 0 && c != '\n' && is_ctl((uint8_t)c) && !(c == '\r' && peek(t, 1) == '\n')) {
                        return bad_control(t);
                } else {
                        return fail(t, PRC_E_TOML_SYNTAX, "expected a key");
                }
                if (!(t->flags & PRC_TOML_TAGGED) && t->kb.len - off == 5 &&
                    memcmp(t->kb.data + off, "$toml", 5) == 0)
                        return fail(t, PRC_E_TOML_RESERVED_KEY, "the key \"$toml\" is reserved for typed values");
                if (t->nkp == t->capkp) {
                        size_t ncap = t->capkp ? t->capkp * 2 : 16;
                        struct kpart *nk = realloc(t->kp, ncap * sizeof(*nk));
                        if (nk == NULL)
                                return oom(t);
                        t->kp = nk;
                        t->capkp = ncap;
                }
                t->kp[t->nkp++] = (struct kpart){ off, t->kb.len - off };
                skip_ws(t);
                if (peek(t, 0) != '.')
                        break;
                t->i++;
                skip_ws(t);
        }
        *out_first = first;
        *out_n = t->nkp - first;
        return true;
}

static void kp_pop(struct tp *t, size_t first)
{
        if (first < t->nkp) {
                t->kb.len = t->kp[first].off;
                t->nkp = first;
        }
}

static const char *kstr(const struct tp *t, size_t k)
{
        return (const char *)t->kb.data + t->kp[k].off;
}

/*
 * A leaf value (not a table or array).  Typed leaves are objects too: in
 * tagged mode {"type": "...", "value": "..."}, where a table's members are
 * never plain strings, so a string "type" member marks a leaf; in default
 * mode {"$toml": ...}, a key no table may hold (toml-reserved-key).
 */
static bool is_leaf(const struct tp *t, const json_t *v)
{
        if (json_is_array(v))
                return false;
        if (!json_is_object(v))
                return true;
        if (t->flags & PRC_TOML_TAGGED)
                return json_is_string(json_object_get(v, "type"));
        return json_object_get(v, "$toml") != NULL;
}

/* ---- values ---------------------------------------------------------- */

static json_t *parse_value(struct tp *t, uint64_t depth);

/*
 * Digits of base with single underscores between them, from *pos; on
 * success *pos is past them.  When acc is not NULL the value accumulates
 * there, and *overflow is set once it would pass limit.
 */
static bool digits(const uint8_t *s, size_t len, size_t *pos, int base, bool *overflow, uint64_t *acc,
                   uint64_t limit)
{
        size_t k = *pos;
        bool any = false, last_us = false;

        while (k < len) {
                int c = s[k], d;
                if (c == '_') {
                        if (!any || last_us)
                                return false;
                        last_us = true;
                        k++;
                        continue;
                }
                d = hexval(c);
                if (d < 0 || d >= base)
                        break;
                if (acc != NULL && !*overflow) {
                        if (*acc > (limit - (uint64_t)d) / (uint64_t)base)
                                *overflow = true;
                        else
                                *acc = *acc * (uint64_t)base + (uint64_t)d;
                }
                any = true;
                last_us = false;
                k++;
        }
        if (!any || last_us)
                return false;
        *pos = k;
        return true;
}

static json_t *parse_number(struct tp *t)
{
        size_t start = t->i, len, k = 0;
        const uint8_t *s;
        bool neg = false, overflow = false, is_float = false;
        uint64_t acc = 0;
        json_t *v;

        while (t->i < t->n) {
                uint8_t c = t->p[t->i];
                if (!(is_bare(c) || c == '+' || c == '.'))
                        break;
                t->i++;
        }
        s = t->p + start;
        len = t->i - start;
        if (len > 0 && (s[0] == '+' || s[0] == '-')) {
                neg = s[0] == '-';
                k = 1;
        }
        if (len - k == 3 && (memcmp(s + k, "inf", 3) == 0 || memcmp(s + k, "nan", 3) == 0)) {
                is_float = true;
                goto done;
        }
        if (len - k >= 2 && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'o' || s[k + 1] == 'b')) {
                int base = s[k + 1] == 'x' ? 16 : s[k + 1] == 'o' ? 8 : 2;
                if (k != 0) {
                        t->i = start;
                        return fail(t, PRC_E_TOML_INVALID_NUMBER, "a sign is not allowed on hex, octal or "
                                    "binary integers"), NULL;
                }
                k += 2;
                if (!digits(s, len, &k, base, &overflow, &acc, INT64_MAX) || k != len) {
                        t->i = start;
                        return fail(t, PRC_E_TOML_INVALID_NUMBER, "malformed integer"), NULL;
                }
                goto done;
        }
        if (k < len && s[k] == '0' && k + 1 < len && (s[k + 1] == '_' || (s[k + 1] >= '0' && s[k + 1] <= '9'))) {
                t->i = start;
                return fail(t, PRC_E_TOML_INVALID_NUMBER, "leading zero in a decimal number"), NULL;
        }
        if (!digits(s, len, &k, 10, &overflow, &acc, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
                t->i = start;
                return fail(t, PRC_E_TOML_INVALID_NUMBER, "malformed number"), NULL;
        }
        if (k < len && s[k] == '.') {
                k++;
                is_float = true;
                if (!digits(s, len, &k, 10, &overflow, NULL, 0)) {
                        t->i = start;
                        return fail(t, PRC_E_TOML_INVALID_NUMBER, "a float needs digits after '.'"), NULL;
                }
        }
        if (k < len && (s[k] == 'e' || s[k] == 'E')) {
                k++;
                is_float = true;
                if (k < len && (s[k] == '+' || s[k] == '-'))
                        k++;
                if (!digits(s, len, &k, 10, &overflow, NULL, 0)) {
                        t->i = start;
                        return fail(t, PRC_E_TOML_INVALID_NUMBER, "malformed exponent"), NULL;
                }
        }
        if (k != len) {
                t->i = start + k;
                return fail(t, PRC_E_TOML_INVALID_NUMBER, "malformed number"), NULL;
        }
done:
        if (!count_node(t))
                return NULL;
        if (is_float) {
                if (t->flags & PRC_TOML_TAGGED) {
                        /* toml-test compares by value: drop the digit separators. */
                        char buf[128];
                        size_t o = 0;
                        for (size_t q = 0; q < len; q++)
                                if (s[q] != '_' && o + 1 < sizeof(buf))
                                        buf[o++] = (char)s[q];
                        if (len >= sizeof(buf))
                                return leaf_typed(t, "float", (const char *)s, len);
                        return leaf_typed(t, "float", buf, o);
                }
                return leaf_typed(t, "float", (const char *)s, len);
        }
        if (overflow) {
                t->i = start;
                return fail(t, PRC_E_TOML_INTEGER_RANGE, "integer outside the signed 64-bit range"), NULL;
        }
        {
                int64_t iv = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
                bool unsafe = iv > PRC_SAFE_INT_MAX || iv < -PRC_SAFE_INT_MAX;
                if ((t->flags & PRC_TOML_TAGGED) || (unsafe && (t->flags & PRC_TOML_UNSAFE_INT_TYPED))) {
                        char buf[32];
                        int m = snprintf(buf, sizeof(buf), "%" PRId64, iv);
                        return leaf_typed(t, "integer", buf, (size_t)m);
                }
                v = json_integer((json_int_t)iv);
                if (v == NULL)
                        oom(t);
                return v;
        }
}

static bool ndigits(const struct tp *t, size_t at, size_t cnt, int *out)
{
        int v = 0;

        for (size_t k = 0; k < cnt; k++) {
                int c = at + k < t->n ? t->p[at + k] : -1;
                if (c < '0' || c > '9')
                        return false;
                v = v * 10 + (c - '0');
        }
        *out = v;
        return true;
}

static bool leap(int y)
{
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* HH:MM:SS[.frac] at t->i; advances past it. */
static bool parse_time(struct tp *t)
{
        int h, m, s;

        if (!ndigits(t, t->i, 2, &h) || peek(t, 2) != ':' || !ndigits(t, t->i + 3, 2, &m) || peek(t, 5) != ':' ||
            !ndigits(t, t->i + 6, 2, &s))
                return fail(t, PRC_E_TOML_INVALID_DATETIME, "a time needs HH:MM:SS");
        if (h > 23 || m > 59 || s > 60)
                return fail(t, PRC_E_TOML_INVALID_DATETIME, "hour, minute or second out of range");
        t->i += 8;
        if (peek(t, 0) == '.') {
                size_t d = t->i + 1;
                while (d < t->n && t->p[d] >= '0' && t->p[d] <= '9')
                        d++;
                if (d == t->i + 1)
                        return fail(t, PRC_E_TOML_INVALID_DATETIME, "fractional seconds need a digit");
                t->i = d;
        }
        return true;
}

static json_t *parse_datetime(struct tp *t, bool is_date)
{
        size_t start = t->i;
        const char *type;

        if (is_date) {
                int y, mo, d;
                static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
                if (!ndigits(t, t->i, 4, &y) || peek(t, 4) != '-' || !ndigits(t, t->i + 5, 2, &mo) ||
                    peek(t, 7) != '-' || !ndigits(t, t->i + 8, 2, &d))
                        return fail(t, PRC_E_TOML_INVALID_DATETIME, "a date needs YYYY-MM-DD"), NULL;
                if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap(y)))
                        return fail(t, PRC_E_TOML_INVALID_DATETIME, "month or day out of range"), NULL;
                t->i += 10;
                type = "date-local";
                if (peek(t, 0) == 'T' || peek(t, 0) == 't' ||
                    (peek(t, 0) == ' ' && peek(t, 1) >= '0' && peek(t, 1) <= '9')) {
                        t->i++;
                        if (!parse_time(t))
                                return NULL;
                        type = "datetime-local";
                        if (peek(t, 0) == 'Z' || peek(t, 0) == 'z') {
                                t->i++;
                                type = "datetime";
                        } else if (peek(t, 0) == '+' || peek(t, 0) == '-') {
                                int oh, om;
                                if (!ndigits(t, t->i + 1, 2, &oh) || peek(t, 3) != ':' ||
                                    !ndigits(t, t->i + 4, 2, &om) || oh > 23 || om > 59)
                                        return fail(t, PRC_E_TOML_INVALID_DATETIME, "malformed time offset"), NULL;
                                t->i += 6;
                                type = "datetime";
                        }
                }
        } else {
                if (!parse_time(t))
                        return NULL;
                type = "time-local";
        }
        if (t->i < t->n && (is_bare(t->p[t->i]) || t->p[t->i] == ':' || t->p[t->i] == '.' || t->p[t->i] == '+'))
                return fail(t, PRC_E_TOML_INVALID_DATETIME, "malformed date or time"), NULL;
        if (!count_node(t))
                return NULL;
        return leaf_typed(t, type, (const char *)t->p + start, t->i - start);
}

static json_t *parse_array(struct tp *t, uint64_t depth)
{
        json_t *arr, *v;

        if (!check_depth(t, depth))
                return NULL;
        arr = new_array(t);
        if (arr == NULL)
                return NULL;
        t->i++;
        for (;;) {
                if (!ws_comment_nl(t))
                        goto fail;
                if (peek(t, 0) == ']') {
                        t->i++;
                        return arr;
                }
                v = parse_value(t, depth + 1);
                if (v == NULL || !arr_put(t, arr, v))
                        goto fail;
                if (!ws_comment_nl(t))
                        goto fail;
                if (peek(t, 0) == ',') {
                        t->i++;
                        continue;
                }
                if (peek(t, 0) == ']') {
                        t->i++;
                        return arr;
                }
                if (t->i >= t->n)
                        fail(t, PRC_E_TOML_SYNTAX, "unterminated array");
                else if (is_ctl(t->p[t->i]))
                        bad_control(t);
                else
                        fail(t, PRC_E_TOML_SYNTAX, "expected ',' or ']' in an array");
                goto fail;
        }
fail:
        json_decref(arr);
        return NULL;
}

/*
 * Walk the parents of a dotted key from tbl, creating tables as needed.
 * inline_mode: inside an inline table (parents are INLINE tables);
 * otherwise a key/value line (parents become PENDING).  *io_depth grows by
 * one per part.
 */
static json_t *walk_dotted(struct tp *t, json_t *tbl, size_t first, size_t nparts, bool inline_mode,
                           uint64_t *io_depth)
{
        for (size_t k = first; k + 1 < first + nparts; k++) {
                json_t *child = json_object_getn(tbl, kstr(t, k), t->kp[k].len);
                uint8_t st;

                *io_depth += 1;
                if (!check_depth(t, *io_depth))
                        return NULL;
                if (child == NULL) {
                        child = new_object(t);
                        if (child == NULL || !obj_put(t, tbl, kstr(t, k), t->kp[k].len, child))
                                return NULL;
                        if (inline_mode ? !map_set(t, child, S_INLINE) : !pend_push(t, child))
                                return NULL;
                        tbl = child;
                        continue;
                }
                if (is_leaf(t, child))
                        return fail(t, PRC_E_TOML_KEY_CONFLICT, "key already holds a value, not a table"), NULL;
                st = map_get(t, child);
                if (inline_mode) {
                        if (st == S_INLINE && json_is_object(child)) {
                                tbl = child;
                                continue;
                        }
                } else if (json_is_object(child)) {
                        if (st == S_PENDING) {
                                tbl = child;
                                continue;
                        }
                        if (st == S_IMPLICIT) {
                                if (!pend_push(t, child))
                                        return NULL;
                                tbl = child;
                                continue;
                        }
                        if (st == S_DEFINED)
                                return fail(t, PRC_E_TOML_TABLE_REDEFINED, "dotted key adds to a table "
                                            "defined elsewhere"), NULL;
                } else if (st == S_AOT) {
                        return fail(t, PRC_E_TOML_TABLE_REDEFINED, "dotted key adds to an array of tables"),
                               NULL;
                }
                return fail(t, PRC_E_TOML_IMMUTABLE, "inline table or array cannot be extended"), NULL;
        }
        return tbl;
}

/* key = value, inserted into tbl (whose depth is depth). */
static bool keyval(struct tp *t, json_t *tbl, uint64_t depth, bool inline_mode)
{
        size_t first, nparts, last;
        json_t *parent, *v;
        size_t at = t->i;

        if (!parse_key(t, &first, &nparts))
                return false;
        if (peek(t, 0) != '=') {
                if (t->i < t->n && is_ctl(t->p[t->i]))
                        return bad_control(t);
                return fail(t, PRC_E_TOML_SYNTAX, "expected '=' after a key");
        }
        t->i++;
        skip_ws(t);
        parent = walk_dotted(t, tbl, first, nparts, inline_mode, &depth);
        if (parent == NULL)
                return false;
        last = first + nparts - 1;
        if (json_object_getn(parent, kstr(t, last), t->kp[last].len) != NULL)
                return prc_err_at(t->err, PRC_E_DUPLICATE_FIELD, at, "key '%.*s' defined twice",
                                  (int)(t->kp[last].len > 64 ? 64 : t->kp[last].len), kstr(t, last));
        if (t->i >= t->n || t->p[t->i] == '\n' || t->p[t->i] == '\r' || t->p[t->i] == '#')
                return fail(t, PRC_E_TOML_SYNTAX, "expected a value after '='");
        v = parse_value(t, depth + 1);
        if (v == NULL)
                return false;
        if (!obj_put(t, parent, kstr(t, last), t->kp[last].len, v))
                return false;
        kp_pop(t, first);
        return true;
}

static json_t *parse_inline(struct tp *t, uint64_t depth)
{
        json_t *obj;

        if (!check_depth(t, depth))
                return NULL;
        obj = new_object(t);
        if (obj == NULL)
                return NULL;
        t->i++;
        skip_ws(t);
        if (peek(t, 0) == '}') {
                t->i++;
                return obj;
        }
        for (;;) {
                skip_ws(t);
                if (!keyval(t, obj, depth, true))
                        goto fail;
                skip_ws(t);
                if (peek(t, 0) == ',') {
                        t->i++;
                        skip_ws(t);
                        if (peek(t, 0) == '}') {
                                fail(t, PRC_E_TOML_SYNTAX, "trailing comma in an inline table (TOML 1.0)");
                                goto fail;
                        }
                        continue;
                }
                if (peek(t, 0) == '}') {
                        t->i++;
                        return obj;
                }
                if (t->i >= t->n)
                        fail(t, PRC_E_TOML_SYNTAX, "unterminated inline table");
                else if (t->p[t->i] == '\n' || t->p[t->i] == '\r')
                        fail(t, PRC_E_TOML_SYNTAX, "newline in an inline table (TOML 1.0)");
                else if (is_ctl(t->p[t->i]))
                        bad_control(t);
                else
                        fail(t, PRC_E_TOML_SYNTAX, "expected ',' or '}' in an inline table");
                goto fail;
        }
fail:
        json_decref(obj);
        return NULL;
}

static json_t *parse_value(struct tp *t, uint64_t depth)
{
        int c = peek(t, 0);

        switch (c) {
        case '"':
        case '\'': {
                json_t *v;
                prc_buf_reset(&t->sb);
                if (!string_body(t, &t->sb, (uint8_t)c, is_string_start(t, (uint8_t)c)))
                        return NULL;
                v = leaf_string(t, (const char *)t->sb.data, t->sb.len);
                return v;
        }
        case '[':
                return parse_array(t, depth);
        case '{':
                return parse_inline(t, depth);
        case 't':
        case 'f': {
                bool b = c == 't';
                size_t len = b ? 4 : 5;
                json_t *v;
                if (t->n - t->i < len || memcmp(t->p + t->i, b ? "true" : "false", len) != 0 ||
                    (t->i + len < t->n && is_bare(t->p[t->i + len])))
                        return fail(t, PRC_E_TOML_SYNTAX, "expected a value"), NULL;
                t->i += len;
                if (!count_node(t))
                        return NULL;
                if (t->flags & PRC_TOML_TAGGED)
                        return leaf_tagged(t, "bool", b ? "true" : "false", len);
                v = json_boolean(b);
                return v;
        }
        default:
                break;
        }
        if (c >= '0' && c <= '9') {
                int d;
                if (ndigits(t, t->i, 4, &d) && peek(t, 4) == '-')
                        return parse_datetime(t, true);
                if (ndigits(t, t->i, 2, &d) && peek(t, 2) == ':')
                        return parse_datetime(t, false);
                return parse_number(t);
        }
        if (c == '+' || c == '-' || c == 'i' || c == 'n')
                return parse_number(t);
        if (c >= 0 && is_ctl((uint8_t)c))
                return bad_control(t), NULL;
        return fail(t, PRC_E_TOML_SYNTAX, "expected a value"), NULL;
}

/* ---- tables ---------------------------------------------------------- */

/* [a.b.c] or [[a.b.c]]: returns the table that following keys go into. */
static json_t *header(struct tp *t, json_t *root, uint64_t *out_depth)
{
        bool aot = peek(t, 1) == '[';
        size_t first, nparts, at = t->i;
        uint64_t depth = 1;
        json_t *tbl = root, *child;
        uint8_t st;

        t->i += aot ? 2 : 1;
        skip_ws(t);
        if (!parse_key(t, &first, &nparts))
                return NULL;
        if (peek(t, 0) != ']' || (aot && peek(t, 1) != ']'))
                return fail(t, PRC_E_TOML_SYNTAX, aot ? "expected ']]' closing a table array header"
                                                      : "expected ']' closing a table header"), NULL;
        t->i += aot ? 2 : 1;
        if (!pend_finalize(t))
                return NULL;
        for (size_t k = first; k < first + nparts; k++) {
                bool last = k + 1 == first + nparts;
                const char *ks = kstr(t, k);
                size_t kl = t->kp[k].len;

                depth++;
                if (!check_depth(t, depth + (aot && last)))
                        return NULL;
                child = json_object_getn(tbl, ks, kl);
                if (child == NULL) {
                        if (last && aot) {
                                json_t *arr = new_array(t), *el;
                                if (arr == NULL || !obj_put(t, tbl, ks, kl, arr) || !map_set(t, arr, S_AOT))
                                        return NULL;
                                el = new_object(t);
                                if (el == NULL || !arr_put(t, arr, el) || !map_set(t, el, S_DEFINED))
                                        return NULL;
                                depth++;
                                tbl = el;
                                break;
                        }
                        child = new_object(t);
                        if (child == NULL || !obj_put(t, tbl, ks, kl, child) ||
                            !map_set(t, child, last ? S_DEFINED : S_IMPLICIT))
                                return NULL;
                        tbl = child;
                        continue;
                }
                if (is_leaf(t, child)) {
                        t->i = at;
                        return fail(t, PRC_E_TOML_KEY_CONFLICT, "key already holds a value, not a table"), NULL;
                }
                st = map_get(t, child);
                if (st == S_AOT) {
                        if (last && !aot) {
                                t->i = at;
                                return fail(t, PRC_E_TOML_KEY_CONFLICT, "table header names an array of tables"),
                                       NULL;
                        }
                        if (last) {
                                json_t *el = new_object(t);
                                if (el == NULL || !arr_put(t, child, el) || !map_set(t, el, S_DEFINED))
                                        return NULL;
                                depth++;
                                tbl = el;
                                break;
                        }
                        depth++;
                        tbl = json_array_get(child, json_array_size(child) - 1);
                        continue;
                }
                if (json_is_object(child) && st != S_NONE) {
                        if (!last) {
                                tbl = child;
                                continue;
                        }
                        if (aot || st != S_IMPLICIT)
                                t->i = at;
                        if (aot)
                                return fail(t, PRC_E_TOML_KEY_CONFLICT, "array of tables names a table"), NULL;
                        if (st != S_IMPLICIT)
                                return fail(t, PRC_E_TOML_TABLE_REDEFINED, "table defined twice"), NULL;
                        if (!map_set(t, child, S_DEFINED))
                                return NULL;
                        tbl = child;
                        continue;
                }
                t->i = at;
                return fail(t, PRC_E_TOML_IMMUTABLE, "inline table or array cannot be extended"), NULL;
        }
        kp_pop(t, first);
        *out_depth = depth;
        return tbl;
}

static bool document(struct tp *t, json_t *root)
{
        json_t *cur = root;
        uint64_t depth = 1;     /* the root table counts, as the top object does in json_strict */

        if (!map_set(t, root, S_DEFINED))
                return false;
        for (;;) {
                int r;

                skip_ws(t);
                if (t->i >= t->n)
                        return true;
                if (t->p[t->i] == '#') {
                        if (!comment(t))
                                return false;
                } else if (t->p[t->i] == '[') {
                        cur = header(t, root, &depth);
                        if (cur == NULL || !end_of_line(t, "a table header"))
                                return false;
                        continue;
                } else if (t->p[t->i] != '\n' && t->p[t->i] != '\r') {
                        if (!keyval(t, cur, depth, false) || !end_of_line(t, "a key/value pair"))
                                return false;
                        continue;
                }
                if (t->i >= t->n)
                        return true;
                r = newline(t);
                if (r < 0)
                        return false;
                if (r == 0)
                        return is_ctl(t->p[t->i]) ? bad_control(t) : fail(t, PRC_E_TOML_SYNTAX, "unexpected character");
        }
}

bool prc_toml_has_typed_int(const json_t *doc)
{
        const char *k;
        json_t *v;
        size_t i;

        if (json_is_array(doc)) {
                json_array_foreach(doc, i, v)
                        if (prc_toml_has_typed_int(v))
                                return true;
                return false;
        }
        if (!json_is_object(doc))
                return false;
        v = json_object_get(doc, "$toml");
        if (v != NULL)
                return json_is_string(v) && strcmp(json_string_value(v), "integer") == 0;
        json_object_foreach((json_t *)doc, k, v)
                if (prc_toml_has_typed_int(v))
                        return true;
        return false;
}

json_t *prc_toml_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct tp t = { .p = p, .n = n, .lim = lim, .flags = flags, .err = err };
        json_t *root = prc_kept_take(PRC_KEPT_TOML, p, n, lim, flags, NULL);
        bool ok = false;

        /* The worker's verdict parse of these very bytes (base/kept.h). */
        if (root != NULL)
                return root;

        if (!prc_text_precheck(p, n, lim, err))
                goto out;
        /* Unescaped strings and keys are never longer than the input. */
        prc_buf_init(&t.sb, n + 16);
        prc_buf_init(&t.kb, n + 16);
        /* Reserve now so data is never NULL: an empty string or key is a valid pointer. */
        if (!prc_buf_reserve(&t.sb, 16, err) || !prc_buf_reserve(&t.kb, 16, err))
                goto out;
        root = json_object();
        if (root == NULL) {
                oom(&t);
                goto out;
        }
        t.nodes = 1;
        /* toml-test accepts a leading UTF-8 byte order mark; it is not part of the document. */
        if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
                t.i = 3;
        ok = document(&t, root);
out:
        prc_buf_clear(&t.sb);
        prc_buf_clear(&t.kb);
        free(t.kp);
        free(t.map);
        free(t.pend);
        if (!ok) {
                json_decref(root);
                prc_text_err_locate(err, p, n, false);
                return NULL;
        }
        return root;
}
