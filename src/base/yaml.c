/*
 * yaml.c - bounded YAML loader: libfyaml's event parser, composed by prc.
 *
 * Trust: the input is hostile (target manifests and workflows, in the
 * content worker; operator files in process).  libfyaml only scans and
 * parses; every value, anchor, alias, merge and key is composed here and
 * counted against prc_limits before it is kept, so no library default
 * decides how much work a document may cause.  Aliases share the anchored
 * jansson value (a reference, never a deep copy) but count every node they
 * stand for.  libfyaml's diagnostics go to a silent collector: a library
 * writing to a file-backed stderr inside the worker (RLIMIT_FSIZE 0) would
 * kill it with SIGXFSZ.  Rules and their reasons: docs/yaml.md.
 */
#include "base/yaml.h"

#include <inttypes.h>
#include <libfyaml.h>
#include <math.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jcs.h"
#include "base/kept.h"
#include "base/json_strict.h"
#include "base/swar.h"
#include "base/utf8.h"

/*
 * YAML 1.2 limits an implicit key to 1024 characters (spec 7.4.2); prc
 * applies it to every key, explicit ones included, so a key never costs
 * more than that to hash and compare.  Real keys (pnpm caps its own at
 * 1000) stay below it.
 */
#define KEY_CHARS_MAX 1024

#define TAG_PREFIX "tag:yaml.org,2002:"

typedef struct anchor {
        char     *name;         /* owned */
        size_t    len;
        json_t   *v;            /* owned reference; NULL while its node is being composed */
        uint64_t  nodes;        /* nodes the anchored node stands for */
} anchor;

typedef struct frame {
        json_t   *v;            /* owned: the array, or the object of explicit keys */
        json_t   *srcs;         /* owned: merge sources (objects) in order, or NULL */
        char     *key;          /* owned: the pending key, NUL-terminated; the buffer outlives the frame */
        size_t    klen, kcap;   /* kcap: the buffer's size, kept for the next mapping at this depth */
        uint64_t  nodes;        /* nodes this collection stands for so far */
        long      anchor;       /* index into composer.anchors, or -1 */
        bool      map;
        bool      have_key;     /* map: key read, its value pending */
        bool      merge_key;    /* map: the pending key is `<<` */
        bool      merged;       /* map: a `<<` entry was seen already */
        uint32_t  pid;          /* position-table id of this collection (0 without a table) */
        uint32_t  key_line;     /* map: 1-based line and column of the pending key */
        uint32_t  key_col;
        int       col;          /* 0-based column of its start: a block collection's indentation */
} frame;

/*
 * The position table (yaml.h prc_yaml_pos): one entry per node the events
 * state, found by (parent id, key or index).  Only built when asked for, so
 * prc_yaml_load pays one NULL test per event.
 */
typedef struct pos_ent {
        uint32_t  parent;       /* id of the parent collection, 0 for the root */
        uint32_t  index;        /* sequence index (mapping members: 0) */
        size_t    koff;         /* mapping member: its key at keys + koff (NUL-terminated) */
        size_t    klen;
        bool      has_key;      /* false in a sequence */
        prc_yaml_at at;
} pos_ent;

struct prc_yaml_pos {
        pos_ent  *e;            /* owned; id i is e[i - 1] */
        size_t    n, cap;
        char     *keys;         /* owned: every member key, one arena (no allocation per node) */
        size_t    kused, kcap;
        uint32_t *slots;        /* owned: open hash of id, 0 = empty */
        size_t    scap;
};

/* Node counts of finished collections, by address (merges need the count of each merged value). */
typedef struct count_tab {
        const json_t **keys;    /* owned array; entries borrowed */
        uint64_t      *vals;    /* owned */
        size_t         cap, used;
} count_tab;

typedef struct composer {
        const prc_limits *lim;
        unsigned          flags;
        prc_err          *err;
        frame            *stack;        /* owned, depth frames in use */
        uint32_t          depth, stack_cap;
        anchor           *anchors;      /* owned */
        size_t            nanchors, anchors_cap;
        uint32_t         *names;        /* owned: open hash of anchor index + 1, 0 = empty */
        size_t            names_cap;
        count_tab         counts;
        uint64_t          nodes, aliases, merges;
        unsigned          docs;
        json_t           *root;         /* owned */
        bool              have_root;
        struct fy_mark    at;           /* start of the event being handled */
        const uint8_t    *in;           /* borrowed: the input libfyaml parses */
        size_t            in_len;
        char             *sq;           /* owned: the last quoted or block scalar decoded (quoted_decode, block_decode) */
        size_t            sq_cap;
        const prc_yaml_sink *sink;      /* borrowed; NULL once it stops listening (or never had one) */
        prc_yaml_pos     *pos;          /* owned until handed out; NULL unless positions were asked for */
        void             *sink_ctx;
        size_t            last_end;     /* end of the last scalar or alias token: a block header lies past it */
} composer;

/* ---- errors ---------------------------------------------------------- */

static void where(composer *c, char *out, size_t cap)
{
        out[0] = '\0';
        for (uint32_t i = 0; i < c->depth; i++) {
                const frame *f = &c->stack[i];
                if (f->map && f->have_key)
                        prc_jptr_push(out, cap, f->key);
                else if (!f->map)
                        prc_jptr_index(out, cap, json_array_size(f->v));
        }
}

/*
 * Messages and pointers quote keys, tags and names from the input, cut at
 * a byte count: make them valid UTF-8 without control characters, so a
 * `\x1b` escape in a key cannot reach a terminal and a cut character cannot
 * break the JSON error record.
 */
static void printable(char *s)
{
        size_t n = strlen(s);

        for (size_t i = 0; i < n;) {
                uint32_t cp;
                size_t len = prc_utf8_decode((const uint8_t *)s + i, n - i, &cp);
                if (len == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f)) {
                        len = len ? len : 1;
                        memset(s + i, '?', len);
                }
                i += len;
        }
}

static bool fail(composer *c, prc_errclass cls, const char *fmt, ...) PRC_PRINTF(3, 4);
static bool fail(composer *c, prc_errclass cls, const char *fmt, ...)
{
        char msg[sizeof(c->err->msg)], ptr[sizeof(c->err->ptr)];
        va_list ap;

        if (prc_err_is_set(c->err))
                return false;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        printable(msg);
        prc_err_at(c->err, cls, c->at.input_pos, "%s", msg);
        prc_err_set_line(c->err, (uint32_t)c->at.line + 1, (uint32_t)c->at.column + 1);
        where(c, ptr, sizeof(ptr));
        printable(ptr);
        if (ptr[0] != '\0')
                prc_err_set_ptr(c->err, ptr);
        return false;
}

static bool oom(composer *c, const char *what)
{
        return fail(c, PRC_E_OUT_OF_MEMORY, "out of memory building %s", what);
}

/* ---- the observer (yaml.h prc_yaml_sink): never changes the result ---- */

static void sink_stop(composer *c, bool ok)
{
        if (!ok)
                c->sink = NULL;
}

static void sink_open(composer *c, bool map)
{
        if (c->sink != NULL)
                sink_stop(c, c->sink->open(c->sink_ctx, map));
}

static void sink_key(composer *c, const char *k, size_t n)
{
        if (c->sink != NULL)
                sink_stop(c, c->sink->key(c->sink_ctx, k, n));
}

static void sink_value(composer *c, const json_t *v)
{
        if (c->sink != NULL)
                sink_stop(c, c->sink->value(c->sink_ctx, v));
}

static void sink_close(composer *c)
{
        if (c->sink != NULL)
                sink_stop(c, c->sink->close(c->sink_ctx));
}

static void sink_abandon(composer *c, const char *why)
{
        if (c->sink != NULL && c->sink->abandon != NULL)
                c->sink->abandon(c->sink_ctx, why);
        c->sink = NULL;
}

/* ---- node counts by address ------------------------------------------ */

static size_t ptr_hash(const void *p)
{
        uint64_t x = (uint64_t)(uintptr_t)p;

        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        return (size_t)x;
}

static bool counts_put(composer *c, const json_t *v, uint64_t n)
{
        count_tab *t = &c->counts;
        size_t i;

        if ((t->used + 1) * 2 > t->cap) {
                size_t ncap = t->cap ? t->cap * 2 : 256;
                const json_t **nk = calloc(ncap, sizeof(*nk));
                uint64_t *nv = calloc(ncap, sizeof(*nv));
                if (nk == NULL || nv == NULL) {
                        free(nk);
                        free(nv);
                        return oom(c, "node counts");
                }
                for (size_t j = 0; j < t->cap; j++) {
                        if (t->keys[j] == NULL)
                                continue;
                        for (i = ptr_hash(t->keys[j]) & (ncap - 1); nk[i] != NULL; i = (i + 1) & (ncap - 1))
                                ;
                        nk[i] = t->keys[j];
                        nv[i] = t->vals[j];
                }
                free(t->keys);
                free(t->vals);
                t->keys = nk;
                t->vals = nv;
                t->cap = ncap;
        }
        for (i = ptr_hash(v) & (t->cap - 1); t->keys[i] != NULL && t->keys[i] != v; i = (i + 1) & (t->cap - 1))
                ;
        if (t->keys[i] == NULL)
                t->used++;
        /* An address reused after a free is overwritten here, before anyone can look it up. */
        t->keys[i] = v;
        t->vals[i] = n;
        return true;
}

static uint64_t count_of(const composer *c, const json_t *v)
{
        const count_tab *t = &c->counts;

        if (!json_is_object(v) && !json_is_array(v))
                return 1;
        if (t->cap == 0)
                return 1;
        for (size_t i = ptr_hash(v) & (t->cap - 1); t->keys[i] != NULL; i = (i + 1) & (t->cap - 1))
                if (t->keys[i] == v)
                        return t->vals[i];
        return 1;       /* unreachable for collections the composer finished */
}

/* ---- anchors ----------------------------------------------------------- */

static uint64_t name_hash(const char *s, size_t n)
{
        uint64_t h = 0xcbf29ce484222325ULL;    /* FNV-1a */

        for (size_t i = 0; i < n; i++) {
                h ^= (uint8_t)s[i];
                h *= 0x100000001b3ULL;
        }
        return h;
}

static void name_slot(composer *c, const char *s, size_t n, size_t *out_slot)
{
        size_t i = (size_t)name_hash(s, n) & (c->names_cap - 1);

        for (; c->names[i] != 0; i = (i + 1) & (c->names_cap - 1)) {
                const anchor *a = &c->anchors[c->names[i] - 1];
                if (a->len == n && memcmp(a->name, s, n) == 0)
                        break;
        }
        *out_slot = i;
}

static long anchor_find(composer *c, const char *s, size_t n)
{
        size_t slot;

        if (c->names_cap == 0)
                return -1;
        name_slot(c, s, n, &slot);
        return c->names[slot] ? (long)c->names[slot] - 1 : -1;
}

/* Define an anchor (a redefinition hides the earlier one from later aliases). */
static bool anchor_define(composer *c, struct fy_token *tok, long *out_idx)
{
        size_t n, slot;
        const char *s = fy_token_get_text(tok, &n);
        anchor *a;

        if (s == NULL)
                return oom(c, "an anchor name");
        if (c->nanchors >= c->lim->anchor_max)
                return fail(c, PRC_E_YAML_ANCHOR_LIMIT, "more than %" PRIu32 " anchors", c->lim->anchor_max);
        if (c->nanchors == c->anchors_cap) {
                size_t ncap = c->anchors_cap ? c->anchors_cap * 2 : 16;
                anchor *na = realloc(c->anchors, ncap * sizeof(*na));
                if (na == NULL)
                        return oom(c, "the anchor table");
                c->anchors = na;
                c->anchors_cap = ncap;
        }
        if ((c->nanchors + 1) * 2 > c->names_cap) {
                size_t ncap = c->names_cap ? c->names_cap * 2 : 32;
                uint32_t *nn = calloc(ncap, sizeof(*nn));
                if (nn == NULL)
                        return oom(c, "the anchor table");
                free(c->names);
                c->names = nn;
                c->names_cap = ncap;
                /* Rehash in definition order so each name ends on its latest anchor. */
                for (size_t j = 0; j < c->nanchors; j++) {
                        name_slot(c, c->anchors[j].name, c->anchors[j].len, &slot);
                        c->names[slot] = (uint32_t)j + 1;
                }
        }
        a = &c->anchors[c->nanchors];
        a->name = malloc(n + 1);
        if (a->name == NULL)
                return oom(c, "an anchor name");
        memcpy(a->name, s, n);
        a->name[n] = '\0';
        a->len = n;
        a->v = NULL;
        a->nodes = 0;
        c->nanchors++;
        name_slot(c, s, n, &slot);
        c->names[slot] = (uint32_t)c->nanchors;
        *out_idx = (long)c->nanchors - 1;
        return true;
}

static void anchor_complete(composer *c, long idx, json_t *v, uint64_t nodes)
{
        if (idx < 0)
                return;
        c->anchors[idx].v = json_incref(v);
        c->anchors[idx].nodes = nodes;
}

/* ---- limits -------------------------------------------------------------- */

static bool add_nodes(composer *c, uint64_t n)
{
        if (n > c->lim->nodes_max || c->nodes + n > c->lim->nodes_max)
                return fail(c, PRC_E_NODES_LIMIT, "more than %" PRIu32 " nodes (aliases expanded)",
                            c->lim->nodes_max);
        c->nodes += n;
        return true;
}

/* ---- scalars ------------------------------------------------------------- */

enum rkind { R_NULL, R_TRUE, R_FALSE, R_INT, R_INT_UNSAFE, R_FLOAT, R_NONFINITE, R_STR };

/* A word with its length: versions ("1.2.3") are tested against eleven words, a strlen each was a tenth of it. */
struct word {
        const char *s;
        size_t      n;
};
#define WORD(lit) { "" lit "", sizeof(lit) - 1 }

static bool is_one_of(const char *s, size_t n, const struct word *words)
{
        for (size_t i = 0; words[i].s != NULL; i++)
                if (words[i].n == n && memcmp(words[i].s, s, n) == 0)
                        return true;
        return false;
}

static int digit_val(char ch, unsigned base)
{
        int d;

        if (ch >= '0' && ch <= '9')
                d = ch - '0';
        else if (ch >= 'a' && ch <= 'f')
                d = ch - 'a' + 10;
        else if (ch >= 'A' && ch <= 'F')
                d = ch - 'A' + 10;
        else
                return -1;
        return (unsigned)d < base ? d : -1;
}

/* Digits s[0..n) in base, n >= 1: R_INT with *out, R_INT_UNSAFE past 2^53-1, R_STR if not all digits. */
static enum rkind parse_digits(const char *s, size_t n, unsigned base, bool neg, int64_t *out)
{
        uint64_t v = 0;
        bool big = false;

        if (n == 0)
                return R_STR;
        for (size_t i = 0; i < n; i++) {
                int d = digit_val(s[i], base);
                if (d < 0)
                        return R_STR;
                if (!big) {
                        v = v * base + (unsigned)d;
                        big = v > (uint64_t)PRC_SAFE_INT_MAX;
                }
        }
        if (big)
                return R_INT_UNSAFE;
        *out = neg ? -(int64_t)v : (int64_t)v;
        return R_INT;
}

/* The YAML 1.2 core schema float pattern, without the special values. */
static bool is_float_text(const char *s, size_t n)
{
        size_t i = 0, intd = 0, fracd = 0;

        if (i < n && (s[i] == '-' || s[i] == '+'))
                i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
                i++;
                intd++;
        }
        if (i < n && s[i] == '.') {
                i++;
                while (i < n && s[i] >= '0' && s[i] <= '9') {
                        i++;
                        fracd++;
                }
        }
        if (intd == 0 && fracd == 0)
                return false;
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
                size_t expd = 0;
                i++;
                if (i < n && (s[i] == '-' || s[i] == '+'))
                        i++;
                while (i < n && s[i] >= '0' && s[i] <= '9') {
                        i++;
                        expd++;
                }
                if (expd == 0)
                        return false;
        }
        return i == n;
}

/* Resolve a plain scalar by the YAML 1.2 core schema (spec 10.3.2). */
static enum rkind resolve_plain(const char *s, size_t n, int64_t *out_int)
{
        static const struct word nulls[] = { WORD(""), WORD("~"), WORD("null"), WORD("Null"), WORD("NULL"), { 0 } };
        static const struct word trues[] = { WORD("true"), WORD("True"), WORD("TRUE"), { 0 } };
        static const struct word falses[] = { WORD("false"), WORD("False"), WORD("FALSE"), { 0 } };
        static const struct word specials[] = {
                WORD(".inf"), WORD(".Inf"), WORD(".INF"), WORD("+.inf"), WORD("+.Inf"), WORD("+.INF"), WORD("-.inf"),
                WORD("-.Inf"), WORD("-.INF"), WORD(".nan"), WORD(".NaN"), WORD(".NAN"), { 0 },
        };
        enum rkind k;

        /* Most plain scalars are names: only these first characters can start a non-string. */
        if (n > 0 && strchr("~nNtTfF0123456789+-.", s[0]) == NULL)
                return R_STR;
        if (is_one_of(s, n, nulls))
                return R_NULL;
        if (is_one_of(s, n, trues))
                return R_TRUE;
        if (is_one_of(s, n, falses))
                return R_FALSE;
        if (n > 2 && s[0] == '0' && s[1] == 'o')
                return parse_digits(s + 2, n - 2, 8, false, out_int);
        if (n > 2 && s[0] == '0' && s[1] == 'x')
                return parse_digits(s + 2, n - 2, 16, false, out_int);
        if (n > 1 && (s[0] == '-' || s[0] == '+'))
                k = parse_digits(s + 1, n - 1, 10, s[0] == '-', out_int);
        else
                k = parse_digits(s, n, 10, false, out_int);
        if (k != R_STR)
                return k;
        if (is_one_of(s, n, specials))
                return R_NONFINITE;
        if (is_float_text(s, n))
                return R_FLOAT;
        return R_STR;
}

static bool tag_is(const char *tag, size_t tlen, const char *name)
{
        size_t pl = strlen(TAG_PREFIX), nl = strlen(name);

        return tlen == pl + nl && memcmp(tag, TAG_PREFIX, pl) == 0 && memcmp(tag + pl, name, nl) == 0;
}

/*
 * Resolve a scalar event's text: its kind, honouring core-schema tags.
 * Quoted and block scalars are strings unless a tag says otherwise.
 */
static bool scalar_kind(composer *c, const char *s, size_t n, enum fy_scalar_style style,
                        struct fy_token *tagtok, enum rkind *out, int64_t *out_int)
{
        const char *tag = NULL;
        size_t tlen = 0;
        enum rkind k;

        if (tagtok != NULL) {
                tag = fy_token_get_text(tagtok, &tlen);
                if (tag == NULL)
                        return oom(c, "a tag");
        }
        if (tag == NULL) {
                *out = style == FYSS_PLAIN ? resolve_plain(s, n, out_int) : R_STR;
                return true;
        }
        if ((tlen == 1 && tag[0] == '!') || tag_is(tag, tlen, "str")) {
                *out = R_STR;   /* the non-specific '!' makes a scalar a string */
                return true;
        }
        k = resolve_plain(s, n, out_int);
        if (tag_is(tag, tlen, "null")) {
                if (k != R_NULL)
                        return fail(c, PRC_E_YAML_TAG_MISMATCH, "'!!null' on a scalar that is not null");
        } else if (tag_is(tag, tlen, "bool")) {
                if (k != R_TRUE && k != R_FALSE)
                        return fail(c, PRC_E_YAML_TAG_MISMATCH, "'!!bool' on a scalar that is not a boolean");
        } else if (tag_is(tag, tlen, "int")) {
                if (k != R_INT && k != R_INT_UNSAFE)
                        return fail(c, PRC_E_YAML_TAG_MISMATCH, "'!!int' on a scalar that is not an integer");
        } else if (tag_is(tag, tlen, "float")) {
                if (k == R_INT || k == R_INT_UNSAFE)
                        k = R_FLOAT;
                if (k != R_FLOAT && k != R_NONFINITE)
                        return fail(c, PRC_E_YAML_TAG_MISMATCH, "'!!float' on a scalar that is not a number");
        } else if (tag_is(tag, tlen, "map") || tag_is(tag, tlen, "seq")) {
                return fail(c, PRC_E_YAML_TAG_MISMATCH, "collection tag '%.*s' on a scalar",
                            (int)(tlen > 64 ? 64 : tlen), tag);
        } else {
                return fail(c, PRC_E_YAML_UNSUPPORTED_TAG, "unsupported tag '%.*s'",
                            (int)(tlen > 64 ? 64 : tlen), tag);
        }
        *out = k;
        return true;
}

static json_t *scalar_json(composer *c, const char *s, size_t n, enum rkind k, int64_t iv)
{
        json_t *v = NULL;

        if ((k == R_FLOAT || k == R_NONFINITE) && (c->flags & PRC_YAML_FLOAT_AS_STRING))
                k = R_STR;

        switch (k) {
        case R_NULL:
                v = json_null();
                break;
        case R_TRUE:
                v = json_true();
                break;
        case R_FALSE:
                v = json_false();
                break;
        case R_INT:
                v = json_integer(iv);
                break;
        case R_INT_UNSAFE:
                fail(c, PRC_E_UNSAFE_NUMBER, "integer outside [-(2^53-1), 2^53-1]");
                return NULL;
        case R_NONFINITE:
                fail(c, PRC_E_YAML_FLOAT_NOT_FINITE, "'%.*s' is not a finite number", (int)(n > 16 ? 16 : n), s);
                return NULL;
        case R_FLOAT: {
                char buf[128];
                double d;
                if (!(c->flags & PRC_YAML_ALLOW_FLOAT)) {
                        fail(c, PRC_E_YAML_FLOAT_NOT_ALLOWED, "float '%.*s' where only integers are allowed",
                             (int)(n > 32 ? 32 : n), s);
                        return NULL;
                }
                if (n >= sizeof(buf)) {
                        fail(c, PRC_E_UNSAFE_NUMBER, "float literal longer than %zu bytes", sizeof(buf) - 1);
                        return NULL;
                }
                memcpy(buf, s, n);
                buf[n] = '\0';
                d = strtod(buf, NULL);
                if (!isfinite(d)) {
                        fail(c, PRC_E_YAML_FLOAT_NOT_FINITE, "float '%s' overflows", buf);
                        return NULL;
                }
                v = json_real(d);
                break;
        }
        case R_STR:
                v = json_stringn_nocheck(s, n);     /* UTF-8 checked by the caller */
                break;
        }
        if (v == NULL)
                oom(c, "a scalar");
        return v;
}

/*
 * The string form of a key.  JSON keys are strings: a plain key that the
 * core schema reads as null, a boolean or a safe integer becomes that
 * value's canonical text ("null", "true", "1" for 0x1), so keys equal in
 * YAML are equal here and collide as duplicates; every other scalar key,
 * floats included, is its text as written.
 */
static bool key_text(composer *c, frame *f, const char *s, size_t n, enum rkind k, int64_t iv)
{
        char num[32];
        const char *src = s;
        size_t len = n;

        switch (k) {
        case R_NULL:
                src = "null";
                break;
        case R_TRUE:
                src = "true";
                break;
        case R_FALSE:
                src = "false";
                break;
        case R_INT:
                snprintf(num, sizeof(num), "%" PRId64, iv);
                src = num;
                break;
        default:
                break;
        }
        if (src != s)
                len = strlen(src);
        /* The frame's buffer serves every key of the mapping (and of later ones at its depth). */
        if (len + 1 > f->kcap) {
                size_t ncap = f->kcap * 2 > len + 1 ? f->kcap * 2 : len + 1 < 64 ? 64 : len + 1;
                char *nk = realloc(f->key, ncap);
                if (nk == NULL)
                        return oom(c, "a key");
                f->key = nk;
                f->kcap = ncap;
        }
        if (len > 0)
                memcpy(f->key, src, len);
        f->key[len] = '\0';
        f->klen = len;
        return true;
}

/* The key for an aliased node: scalars as above, collections refused. */
static bool key_from_value(composer *c, frame *f, const json_t *v)
{
        char num[40];

        switch (json_typeof(v)) {
        case JSON_STRING:
                return key_text(c, f, json_string_value(v), json_string_length(v), R_STR, 0);
        case JSON_INTEGER:
                return key_text(c, f, "", 0, R_INT, (int64_t)json_integer_value(v));
        case JSON_TRUE:
                return key_text(c, f, "", 0, R_TRUE, 0);
        case JSON_FALSE:
                return key_text(c, f, "", 0, R_FALSE, 0);
        case JSON_NULL:
                return key_text(c, f, "", 0, R_NULL, 0);
        case JSON_REAL:
                snprintf(num, sizeof(num), "%.17g", json_real_value(v));
                return key_text(c, f, num, strlen(num), R_STR, 0);
        default:
                return fail(c, PRC_E_YAML_COMPLEX_KEY, "an alias to a collection used as a mapping key");
        }
}

/* ---- composing ------------------------------------------------------------ */

static frame *top(composer *c)
{
        return c->depth ? &c->stack[c->depth - 1] : NULL;
}

static bool awaiting_key(composer *c)
{
        frame *f = top(c);

        return f != NULL && f->map && !f->have_key;
}

/* Drop a frame's values; its key buffer stays with the stack slot for the next mapping at this depth. */
static void frame_clear(frame *f)
{
        char *key = f->key;
        size_t kcap = f->kcap;

        json_decref(f->v);
        json_decref(f->srcs);
        memset(f, 0, sizeof(*f));
        f->key = key;
        f->kcap = kcap;
}

/* ---- positions (prc_yaml_load_pos) -------------------------------------- */

static uint64_t pos_hash(uint32_t parent, uint32_t index, const char *key, size_t klen)
{
        uint64_t h = 0xcbf29ce484222325ULL ^ ((uint64_t)parent << 32 | index);    /* FNV-1a over the key */

        h *= 0x100000001b3ULL;
        for (size_t i = 0; i < klen; i++) {
                h ^= (uint8_t)key[i];
                h *= 0x100000001b3ULL;
        }
        h ^= h >> 33;
        return h;
}

static bool pos_same(const prc_yaml_pos *t, const pos_ent *e, uint32_t parent, uint32_t index, const char *key,
                     size_t klen)
{
        if (e->parent != parent || e->index != index || e->has_key != (key != NULL))
                return false;
        return key == NULL || (e->klen == klen && memcmp(t->keys + e->koff, key, klen) == 0);
}

static size_t pos_slot(const prc_yaml_pos *t, uint32_t parent, uint32_t index, const char *key, size_t klen)
{
        size_t i = (size_t)pos_hash(parent, index, key, klen) & (t->scap - 1);

        for (; t->slots[i] != 0; i = (i + 1) & (t->scap - 1))
                if (pos_same(t, &t->e[t->slots[i] - 1], parent, index, key, klen))
                        break;
        return i;
}

/* Copy a member key into the table's arena (its offset through out). */
static bool pos_keep_key(composer *c, const char *key, size_t klen, size_t *out)
{
        prc_yaml_pos *t = c->pos;

        if (klen + 1 > t->kcap - t->kused) {
                size_t ncap = t->kcap ? t->kcap : 1024;
                char *nk;
                while (klen + 1 > ncap - t->kused)
                        ncap *= 2;
                nk = realloc(t->keys, ncap);
                if (nk == NULL)
                        return oom(c, "the position table");
                t->keys = nk;
                t->kcap = ncap;
        }
        memcpy(t->keys + t->kused, key, klen + 1);
        *out = t->kused;
        t->kused += klen + 1;
        return true;
}

/*
 * Record the node that starts at c->at under the top frame (its pending key
 * or next index), or as the root.  Returns its id through out_id (0 without
 * a table).  Bounded: one entry per node event, and nodes are counted.
 */
static bool pos_add(composer *c, int style, uint32_t *out_id)
{
        prc_yaml_pos *t = c->pos;
        const frame *f = top(c);
        pos_ent *e;
        size_t slot;

        *out_id = 0;
        if (t == NULL)
                return true;
        if (t->n >= UINT32_MAX - 1)
                return fail(c, PRC_E_NODES_LIMIT, "too many nodes for the position table");
        if (t->n == t->cap) {
                size_t ncap = t->cap ? t->cap * 2 : 64;
                pos_ent *ne = realloc(t->e, ncap * sizeof(*ne));
                if (ne == NULL)
                        return oom(c, "the position table");
                t->e = ne;
                t->cap = ncap;
        }
        if ((t->n + 1) * 2 > t->scap) {
                size_t ncap = t->scap ? t->scap * 2 : 128;
                uint32_t *ns = calloc(ncap, sizeof(*ns));
                if (ns == NULL)
                        return oom(c, "the position table");
                free(t->slots);
                t->slots = ns;
                t->scap = ncap;
                for (size_t j = 0; j < t->n; j++) {
                        const pos_ent *o = &t->e[j];
                        slot = pos_slot(t, o->parent, o->index, o->has_key ? t->keys + o->koff : NULL, o->klen);
                        t->slots[slot] = (uint32_t)j + 1;
                }
        }
        e = &t->e[t->n];
        memset(e, 0, sizeof(*e));
        if (f != NULL) {
                e->parent = f->pid;
                if (f->map) {
                        if (!pos_keep_key(c, f->key, f->klen, &e->koff))
                                return false;
                        e->klen = f->klen;
                        e->has_key = true;
                        e->at.key_line = f->key_line;
                        e->at.key_col = f->key_col;
                } else {
                        e->index = (uint32_t)json_array_size(f->v);
                }
        }
        e->at.line = (uint32_t)c->at.line + 1;
        e->at.col = (uint32_t)c->at.column + 1;
        e->at.style = style;
        t->n++;
        /* A later node under the same parent and key (a merge source never is one) replaces the earlier. */
        slot = pos_slot(t, e->parent, e->index, e->has_key ? t->keys + e->koff : NULL, e->klen);
        t->slots[slot] = (uint32_t)t->n;
        *out_id = (uint32_t)t->n;
        return true;
}

static void pos_key(composer *c)
{
        frame *f = top(c);

        if (c->pos != NULL && f != NULL) {
                f->key_line = (uint32_t)c->at.line + 1;
                f->key_col = (uint32_t)c->at.column + 1;
        }
}

static int scalar_style(enum fy_scalar_style s)
{
        switch (s) {
        case FYSS_SINGLE_QUOTED:
                return PRC_YAML_STYLE_SINGLE;
        case FYSS_DOUBLE_QUOTED:
                return PRC_YAML_STYLE_DOUBLE;
        case FYSS_LITERAL:
                return PRC_YAML_STYLE_LITERAL;
        case FYSS_FOLDED:
                return PRC_YAML_STYLE_FOLDED;
        default:
                return PRC_YAML_STYLE_PLAIN;
        }
}

void prc_yaml_pos_free(prc_yaml_pos *t)
{
        if (t == NULL)
                return;
        free(t->keys);
        free(t->e);
        free(t->slots);
        free(t);
}

uint32_t prc_yaml_pos_root(const prc_yaml_pos *t)
{
        return t != NULL && t->n > 0 ? 1 : 0;
}

uint32_t prc_yaml_pos_key(const prc_yaml_pos *t, uint32_t id, const char *key)
{
        size_t slot;

        if (t == NULL || id == 0 || t->n == 0 || key == NULL)
                return 0;
        slot = pos_slot(t, id, 0, key, strlen(key));
        return t->slots[slot];
}

uint32_t prc_yaml_pos_index(const prc_yaml_pos *t, uint32_t id, size_t i)
{
        size_t slot;

        if (t == NULL || id == 0 || t->n == 0 || i >= UINT32_MAX)
                return 0;
        slot = pos_slot(t, id, (uint32_t)i, NULL, 0);
        return t->slots[slot];
}

bool prc_yaml_pos_get(const prc_yaml_pos *t, uint32_t id, prc_yaml_at *out)
{
        if (t == NULL || id == 0 || id > t->n) {
                memset(out, 0, sizeof(*out));
                return false;
        }
        *out = t->e[id - 1].at;
        return true;
}

/* Take the key key_text left in the top mapping's buffer. */
static bool take_key(composer *c, bool merge)
{
        frame *f = top(c);
        const char *key = f->key;
        size_t chars = 0, klen = f->klen;

        for (size_t i = 0; i < klen; i++)
                chars += ((uint8_t)key[i] & 0xc0) != 0x80;
        if (chars > KEY_CHARS_MAX)
                return fail(c, PRC_E_SCALAR_LIMIT, "key longer than %d characters", KEY_CHARS_MAX);
        if (memchr(key, '\0', klen) != NULL)
                return fail(c, PRC_E_NUL_BYTE, "key contains a NUL character");
        f->have_key = true;
        f->merge_key = merge;
        if (merge) {
                /* finish_map puts merged keys before the explicit ones already told: the order is no longer the events'. */
                sink_abandon(c, "a '<<' merge key");
                if (f->merged)
                        return fail(c, PRC_E_DUPLICATE_FIELD, "second '<<' merge key in one mapping");
                return true;
        }
        if (json_object_getn(f->v, key, klen) != NULL)
                return fail(c, PRC_E_DUPLICATE_FIELD, "duplicate key '%.*s'", (int)(klen > 64 ? 64 : klen), key);
        if (json_object_size(f->v) >= c->lim->keys_max)
                return fail(c, PRC_E_NODES_LIMIT, "more than %" PRIu32 " keys in one mapping", c->lim->keys_max);
        sink_key(c, key, klen);
        return true;
}

/* Record the merge sources of a `<<` value (v: borrowed). */
static bool add_merge(composer *c, frame *f, json_t *v)
{
        size_t n = json_is_array(v) ? json_array_size(v) : 1;

        if (!json_is_object(v) && !json_is_array(v))
                return fail(c, PRC_E_YAML_INVALID_MERGE, "'<<' takes a mapping or a sequence of mappings, not %s",
                            prc_json_type_name(v));
        f->srcs = json_array();
        if (f->srcs == NULL)
                return oom(c, "merge sources");
        if (n == 0) {
                /* `<<: []` merges nothing but still costs one. */
                if (c->merges >= c->lim->merge_max)
                        return fail(c, PRC_E_YAML_MERGE_LIMIT, "more than %" PRIu32 " merged keys",
                                    c->lim->merge_max);
                c->merges++;
        }
        for (size_t i = 0; i < n; i++) {
                json_t *s = json_is_array(v) ? json_array_get(v, i) : v;
                size_t k;
                if (!json_is_object(s))
                        return fail(c, PRC_E_YAML_INVALID_MERGE, "'<<' sequence holds %s, not a mapping",
                                    prc_json_type_name(s));
                /* Every copy counts, and an empty source counts one: fan-out is refused before any work. */
                k = json_object_size(s) ? json_object_size(s) : 1;
                if (k > c->lim->merge_max - c->merges)
                        return fail(c, PRC_E_YAML_MERGE_LIMIT, "more than %" PRIu32 " merged keys",
                                    c->lim->merge_max);
                c->merges += k;
                if (json_array_append(f->srcs, s) != 0)
                        return oom(c, "merge sources");
        }
        f->merged = true;
        return true;
}

/* Hand a finished value to its parent (v: transfers). */
static bool deliver(composer *c, json_t *v, uint64_t nodes)
{
        frame *f = top(c);
        bool ok = true;

        if (f == NULL) {
                c->root = v;
                c->have_root = true;
                return true;
        }
        if (!f->map) {
                if (json_array_append_new(f->v, v) != 0)
                        return oom(c, "a sequence");
                f->nodes += nodes;
                return true;
        }
        if (f->merge_key) {
                ok = add_merge(c, f, v);
                json_decref(v);
                f->nodes += 1;
        } else {
                /* The key is valid UTF-8: its scalar was checked, or it is a number's or a string value's text. */
                if (json_object_setn_new_nocheck(f->v, f->key, f->klen, v) != 0)
                        return oom(c, "a mapping");
                f->nodes += 1 + nodes;
        }
        f->klen = 0;
        f->have_key = false;
        f->merge_key = false;
        return ok;
}

/* The mapping's final object: merged keys first (earlier source wins), explicit keys override. */
static json_t *finish_map(composer *c, frame *f)
{
        json_t *res, *val;
        const char *k;
        size_t klen, idx;
        json_t *src;
        uint64_t nodes = 1;

        if (f->srcs == NULL) {
                res = f->v;
                f->v = NULL;
                return res;
        }
        res = json_object();
        if (res == NULL) {
                oom(c, "a mapping");
                return NULL;
        }
        json_array_foreach(f->srcs, idx, src) {
                json_object_keylen_foreach(src, k, klen, val) {
                        if (json_object_getn(res, k, klen) != NULL || json_object_getn(f->v, k, klen) != NULL)
                                continue;
                        if (json_object_size(res) + json_object_size(f->v) >= c->lim->keys_max) {
                                fail(c, PRC_E_NODES_LIMIT, "more than %" PRIu32 " keys in one mapping",
                                     c->lim->keys_max);
                                goto bad;
                        }
                        if (json_object_setn_new_nocheck(res, k, klen, json_incref(val)) != 0) {
                                oom(c, "a mapping");
                                goto bad;
                        }
                        nodes += 1 + count_of(c, val);
                }
        }
        /* f->nodes already holds the explicit entries and one per '<<' key; drop the latter. */
        nodes += f->nodes - 2;
        json_object_keylen_foreach(f->v, k, klen, val) {
                if (json_object_setn_new_nocheck(res, k, klen, json_incref(val)) != 0) {
                        oom(c, "a mapping");
                        goto bad;
                }
        }
        f->nodes = nodes;
        return res;
bad:
        json_decref(res);
        return NULL;
}

static bool check_collection_tag(composer *c, struct fy_token *tagtok, bool map)
{
        const char *tag;
        size_t tlen;

        if (tagtok == NULL)
                return true;
        tag = fy_token_get_text(tagtok, &tlen);
        if (tag == NULL)
                return oom(c, "a tag");
        if ((tlen == 1 && tag[0] == '!') || tag_is(tag, tlen, map ? "map" : "seq"))
                return true;
        if (tag_is(tag, tlen, map ? "seq" : "map") || tag_is(tag, tlen, "str") || tag_is(tag, tlen, "int") ||
            tag_is(tag, tlen, "bool") || tag_is(tag, tlen, "null") || tag_is(tag, tlen, "float"))
                return fail(c, PRC_E_YAML_TAG_MISMATCH, "tag '%.*s' on a %s", (int)(tlen > 64 ? 64 : tlen), tag,
                            map ? "mapping" : "sequence");
        return fail(c, PRC_E_YAML_UNSUPPORTED_TAG, "unsupported tag '%.*s'", (int)(tlen > 64 ? 64 : tlen), tag);
}

static bool on_start(composer *c, bool map, struct fy_token *anc, struct fy_token *tag)
{
        frame *f;
        uint32_t pid;

        if (awaiting_key(c))
                return fail(c, PRC_E_YAML_COMPLEX_KEY, "a %s used as a mapping key", map ? "mapping" : "sequence");
        if (!check_collection_tag(c, tag, map) || !add_nodes(c, 1))
                return false;
        if (c->depth >= c->lim->depth_max)
                return fail(c, PRC_E_DEPTH_LIMIT, "nesting deeper than %" PRIu32, c->lim->depth_max);
        if (!pos_add(c, map ? PRC_YAML_STYLE_MAP : PRC_YAML_STYLE_SEQ, &pid))
                return false;
        if (c->depth == c->stack_cap) {
                uint32_t ncap = c->stack_cap ? c->stack_cap * 2 : 16;
                frame *ns = realloc(c->stack, (size_t)ncap * sizeof(*ns));
                if (ns == NULL)
                        return oom(c, "the nesting stack");
                memset(ns + c->stack_cap, 0, (size_t)(ncap - c->stack_cap) * sizeof(*ns));
                c->stack = ns;
                c->stack_cap = ncap;
        }
        f = &c->stack[c->depth];
        frame_clear(f);         /* an empty slot, or one a finished collection left (its key buffer kept) */
        f->anchor = -1;
        f->map = map;
        f->col = c->at.column;
        f->nodes = 1;
        f->pid = pid;
        f->v = map ? json_object() : json_array();
        if (f->v == NULL)
                return oom(c, map ? "a mapping" : "a sequence");
        c->depth++;
        if (anc != NULL && !anchor_define(c, anc, &f->anchor))
                return false;
        sink_open(c, map);
        return true;
}

static bool on_end(composer *c)
{
        frame *f = top(c);
        json_t *v;
        uint64_t nodes;
        long anc;

        if (f == NULL)
                return fail(c, PRC_E_INTERNAL, "collection end without a start");
        if (f->map) {
                v = finish_map(c, f);
                if (v == NULL)
                        return false;
        } else {
                v = f->v;
                f->v = NULL;
        }
        nodes = f->nodes;
        anc = f->anchor;
        frame_clear(f);
        c->depth--;
        if (!counts_put(c, v, nodes)) {
                json_decref(v);
                return false;
        }
        anchor_complete(c, anc, v, nodes);
        sink_close(c);
        return deliver(c, v, nodes);
}

/* ---- single-quoted scalars, decoded from the input ------------------------ */

/*
 * libfyaml 0.7.12 formats some single-quoted scalars with runs of '' wrongly
 * and hands back heap bytes it never wrote (docs/yaml.md).  So prc takes only
 * the scalar's place from libfyaml (its token marks run from after the
 * opening quote to the closing one) and decodes the input bytes itself, by
 * YAML 1.2 7.3.2: '' is one quote; a line break between content folds to a
 * space, n + 1 breaks to n newlines, and spaces and tabs next to a break are
 * not content (6.5).  Only CR, LF and CR LF break lines (5.4), whatever a
 * %YAML directive claims: NEL, LS and PS are content.
 */
static bool is_white(uint8_t ch)
{
        return ch == ' ' || ch == '\t';
}

static bool is_break(uint8_t ch)
{
        return ch == '\n' || ch == '\r';
}

/* The offset after the line break at p[i] (CR LF, CR or LF). */
static size_t skip_break(const uint8_t *p, size_t i, size_t end)
{
        return p[i] == '\r' && i + 1 < end && p[i + 1] == '\n' ? i + 2 : i + 1;
}

/* Fold the line break at p[*i] and the empty lines after it; leave *i at the next line's content. */
static size_t fold_breaks(const uint8_t *p, size_t *i, size_t end, char *d)
{
        size_t breaks = 1, j;

        *i = skip_break(p, *i, end);
        for (;;) {
                for (j = *i; j < end && is_white(p[j]); j++)
                        ;
                if (j == end || !is_break(p[j]))
                        break;
                *i = skip_break(p, j, end);
                breaks++;
        }
        *i = j;
        if (breaks == 1) {
                d[0] = ' ';
                return 1;
        }
        memset(d, '\n', breaks - 1);
        return breaks - 1;
}

static bool fold_decode(const uint8_t *p, size_t i, size_t end, bool quotes, char *d, size_t *outn);

bool prc_yaml_squote_decode(const uint8_t *p, size_t i, size_t end, char *d, size_t *outn)
{
        return fold_decode(p, i, end, true, d, outn);
}

/* A plain scalar folds the same way, with no quotes (7.3.3); its marks hold no white space at either end. */
bool prc_yaml_plain_decode(const uint8_t *p, size_t i, size_t end, char *d, size_t *outn)
{
        return fold_decode(p, i, end, false, d, outn);
}

static bool fold_decode(const uint8_t *p, size_t i, size_t end, bool quotes, char *d, size_t *outn)
{
        size_t o = 0;

        for (;;) {
                size_t le = i, ce;

                while (le < end && !is_break(p[le]))
                        le++;
                ce = le;
                if (le < end)
                        while (ce > i && is_white(p[ce - 1]))
                                ce--;
                for (; i < ce; i++) {
                        if (quotes && p[i] == '\'' && (++i == ce || p[i] != '\''))
                                return false;   /* a lone quote would have closed the scalar */
                        d[o++] = (char)p[i];
                }
                if (le == end)
                        break;
                i = le;
                o += fold_breaks(p, &i, end, d + o);
        }
        *outn = o;
        return true;
}

/* ---- double-quoted scalars, decoded from the input ------------------------ */

/*
 * libfyaml 0.7.12 also gets some double-quoted scalars wrong: an escaped
 * space before a line break leaves unwritten bytes in the text, and white
 * space, an escaped break and empty lines can cut the text short.  So these
 * are decoded from the input too, by YAML 1.2 7.3.1 and 5.7: every escape;
 * a line break between content folds as in a single-quoted scalar, and the
 * white space before it is not content; a backslash right before a break
 * drops the break but keeps the white space before the backslash, and each
 * empty line after it is a newline; leading white space of a continuation
 * line is not content.  Escaped white space (\t, \<space>) is content.
 */
static int hex_val(uint8_t ch)
{
        if (ch >= '0' && ch <= '9')
                return ch - '0';
        if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
                return (ch | 0x20) - 'a' + 10;
        return -1;
}

static bool hex_digits(const uint8_t *p, size_t *i, size_t end, size_t digits, uint32_t *cp)
{
        if (end - *i < digits)
                return false;
        for (size_t k = 0; k < digits; k++) {
                int v = hex_val(p[(*i)++]);
                if (v < 0)
                        return false;
                *cp = *cp << 4 | (uint32_t)v;
        }
        return true;
}

/* The escape after the backslash at p[*i] (\x, \u, \U take 2, 4, 8 digits); 0 if not one. */
static size_t dq_escape(const uint8_t *p, size_t *i, size_t end, char *d)
{
        static const char from[] = "0abtnvfre \"/\\\t";
        static const char to[] = "\0\a\b\t\n\v\f\r\x1b \"/\\\t";
        uint32_t cp = 0;
        size_t digits = 0;
        const char *hit;
        uint8_t ch;

        if (*i + 1 >= end)
                return 0;
        ch = p[*i + 1];
        *i += 2;
        hit = memchr(from, ch, sizeof(from) - 1);
        if (hit != NULL) {
                d[0] = to[hit - from];
                return 1;
        }
        switch (ch) {
        case 'N': cp = 0x85; break;
        case '_': cp = 0xa0; break;
        case 'L': cp = 0x2028; break;
        case 'P': cp = 0x2029; break;
        case 'x': digits = 2; break;
        case 'u': digits = 4; break;
        case 'U': digits = 8; break;
        default: return 0;
        }
        if (digits > 0 && !hex_digits(p, i, end, digits, &cp))
                return 0;
        /* libfyaml, like JSON, joins a \u high surrogate and a \u low one right after it */
        if (ch == 'u' && cp >= 0xd800 && cp <= 0xdbff && end - *i >= 6 && p[*i] == '\\' && p[*i + 1] == 'u') {
                uint32_t lo = 0;
                *i += 2;
                if (!hex_digits(p, i, end, 4, &lo) || lo < 0xdc00 || lo > 0xdfff)
                        return 0;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return prc_utf8_encode(cp, (uint8_t *)d);
}

/* The escaped line break at p[*i] and the empty lines after it: one newline for each of those. */
static size_t dq_escaped_break(const uint8_t *p, size_t *i, size_t end, char *d)
{
        size_t o = 0, j;

        *i = skip_break(p, *i, end);
        for (;;) {
                for (j = *i; j < end && is_white(p[j]); j++)
                        ;
                if (j == end || !is_break(p[j]))
                        break;
                *i = skip_break(p, j, end);
                d[o++] = '\n';
        }
        *i = j;
        return o;
}

bool prc_yaml_dquote_decode(const uint8_t *p, size_t i, size_t end, char *d, size_t *outn)
{
        size_t o = 0, white = SIZE_MAX; /* white: where the white space before the next break began */

        while (i < end) {
                uint8_t ch = p[i];
                size_t k;

                if (is_white(ch)) {
                        if (white == SIZE_MAX)
                                white = o;
                        d[o++] = (char)ch;
                        i++;
                        continue;
                }
                if (is_break(ch)) {
                        o = white != SIZE_MAX ? white : o;
                        o += fold_breaks(p, &i, end, d + o);
                } else if (ch == '"') {
                        return false;   /* it would have closed the scalar */
                } else if (ch != '\\') {
                        d[o++] = (char)ch;
                        i++;
                } else if (i + 1 < end && is_break(p[i + 1])) {
                        i++;
                        o += dq_escaped_break(p, &i, end, d + o);
                } else if ((k = dq_escape(p, &i, end, d + o)) == 0) {
                        return false;
                } else {
                        o += k;
                }
                white = SIZE_MAX;
        }
        *outn = o;
        return true;
}

/* The inside of a quoted scalar, by its token marks: just after the opening quote to the closing one. */
static bool quoted_place(composer *c, struct fy_token *tok, uint8_t q, size_t *start, size_t *end)
{
        const struct fy_mark *sm = fy_token_start_mark(tok), *em = fy_token_end_mark(tok);

        if (sm == NULL || em == NULL)
                return fail(c, PRC_E_INTERNAL, "libfyaml gave a quoted scalar no place");
        *start = sm->input_pos;
        *end = em->input_pos;
        if (*start == 0 || *start > *end || *end >= c->in_len || c->in[*start - 1] != q || c->in[*end] != q)
                return fail(c, PRC_E_INTERNAL, "libfyaml placed a quoted scalar outside its quotes");
        return true;
}

/*
 * A quoted scalar's value, decoded from the input.  Most need no decoding
 * (no escape, quote or line break inside): those are the input bytes
 * themselves, with no copy.
 */
static bool quoted_decode(composer *c, struct fy_token *tok, bool dq, const char **out, size_t *outn)
{
        const uint8_t q = dq ? '"' : '\'';
        const uint8_t esc = dq ? '\\' : '\'';
        size_t start = 0, end = 0, cap, i;
        bool ok;

        if (!quoted_place(c, tok, q, &start, &end))
                return false;
        for (i = start; i < end && c->in[i] != esc && c->in[i] != q && !is_break(c->in[i]); i++)
                ;
        if (i == end) {
                *out = (const char *)c->in + start;
                *outn = end - start;
                return true;
        }
        /* \L and \P write 3 bytes for 2; nothing else writes more than it reads */
        cap = end - start + (dq ? (end - start) / 2 + 4 : 1);
        if (cap > c->sq_cap) {
                char *nb = realloc(c->sq, cap);
                if (nb == NULL)
                        return oom(c, "a scalar");
                c->sq = nb;
                c->sq_cap = cap;
        }
        ok = dq ? prc_yaml_dquote_decode(c->in, start, end, c->sq, outn)
                : prc_yaml_squote_decode(c->in, start, end, c->sq, outn);
        if (!ok)
                return fail(c, PRC_E_INTERNAL, "a %s scalar libfyaml accepted does not decode",
                            dq ? "double-quoted" : "single-quoted");
        *out = c->sq;
        return true;
}

/* ---- block scalars, decoded from the input -------------------------------- */

/*
 * libfyaml 0.7.12 hands back unwritten bytes for block scalars with an
 * explicit indentation indicator and white-space-only lines (and a NUL for
 * an empty block scalar at the end of its input; docs/yaml.md).  So prc
 * takes only the scalar's place from libfyaml (its token marks run from the
 * line after the header to the end of its content) and reads the header
 * and the lines itself, by YAML 1.2 8.1.
 */
typedef struct bhead {
        char   chomp;           /* '-' strip, '+' keep, 0 clip */
        int    indent;          /* explicit indentation indicator, 0 when auto-detected */
        bool   folded;
} bhead;

/* The offset where the line holding p[i] starts. */
static size_t line_start(const uint8_t *p, size_t i)
{
        while (i > 0 && !is_break(p[i - 1]))
                i--;
        return i;
}

/*
 * The header of the block scalar whose content starts at p[start]: the
 * first '|' or '>' on its header line past lb (nothing but indicators,
 * white space and a comment can follow it there).  False if there is none.
 */
static bool block_header(const uint8_t *p, size_t lb, size_t start, bhead *h)
{
        size_t hs, he = start, i;

        if (start > 0 && is_break(p[start - 1])) {
                he = start - 1;
                if (he > 0 && p[he] == '\n' && p[he - 1] == '\r')
                        he--;
        }
        hs = line_start(p, he);
        i = lb > hs ? lb : hs;
        if (i == 0 && he >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
                i = 3;  /* a byte order mark (only ever at offset 0, check_bytes) */
        /* only indicators and white space lie between what came before and the header (a quoted key's end is its quote) */
        for (; i < he && p[i] != '|' && p[i] != '>'; i++)
                if (!is_white(p[i]) && strchr(":-?'\"", p[i]) == NULL)
                        return false;
        if (i == he)
                return false;
        h->folded = p[i++] == '>';
        h->chomp = 0;
        h->indent = 0;
        for (int k = 0; k < 2 && i < he; k++, i++) {
                if ((p[i] == '-' || p[i] == '+') && h->chomp == 0)
                        h->chomp = (char)p[i];
                else if (p[i] >= '1' && p[i] <= '9' && h->indent == 0)
                        h->indent = p[i] - '0';
                else
                        break;
        }
        return i == he || is_white(p[i]) || p[i] == '#';     /* libfyaml takes `|#` as a header and a comment */
}

typedef struct bline {
        size_t  s, e;           /* the line's bytes, its break excluded */
        size_t  spaces;         /* leading spaces */
        bool    blank;          /* nothing but spaces */
        bool    brk;            /* ended by a line break (not by the end of the scalar) */
} bline;

static size_t next_line(const uint8_t *p, size_t i, size_t end, bline *l)
{
        l->s = i;
        while (i < end && p[i] == ' ')
                i++;
        l->spaces = i - l->s;
        while (i < end && !is_break(p[i]))
                i++;
        l->e = i;
        l->blank = l->s + l->spaces == i;
        l->brk = i < end;
        return i < end ? skip_break(p, i, end) : end;
}

/*
 * The first line with something other than spaces sets the indentation
 * (8.1.1.1): its offset in *at.  SIZE_MAX if none does (every line is empty).
 */
static size_t block_auto_indent(const uint8_t *p, size_t i, size_t end, size_t *at)
{
        bline l;

        while (i < end) {
                i = next_line(p, i, end, &l);
                if (!l.blank) {
                        *at = l.s + l.spaces;
                        return l.spaces;
                }
        }
        return SIZE_MAX;
}

/* Refuse libfyaml's reading of a line at or left of the parent's indentation as content, at that line. */
static bool block_misread(composer *c, size_t at, int parent)
{
        size_t ls = line_start(c->in, at);

        for (size_t i = c->at.input_pos; i < ls; i++)
                if (c->in[i] == '\n' || (c->in[i] == '\r' && (i + 1 == ls || c->in[i + 1] != '\n')))
                        c->at.line++;
        c->at.input_pos = at;
        c->at.column = (int)(at - ls);
        return fail(c, PRC_E_YAML_BLOCK_INDENT,
                    "a block scalar's content line is indented %zu, not past its collection's %d: libfyaml 0.7.12 "
                    "reads it as content, YAML as the next node", at - ls, parent);
}

/*
 * Decode the lines of p[i..end) at content indentation ind (8.1.2, 8.1.3).
 * A line of no more than ind spaces is empty; a content line keeps what
 * follows its ind spaces.  In a folded scalar two text lines (not starting
 * with white space) with nothing between fold to a space and with k empty
 * lines between to k newlines; every other break is kept.  Chomping decides
 * the final break and the trailing empty lines.  The end of the input ends
 * a line (yaml-test-suite L24T, JEF9) and, like libfyaml, clip adds a
 * newline there but keep does not, and an empty line there counts only as
 * the scalar's first; elsewhere the scalar
 * ends after its last break (libfyaml's end mark can hold the next line's
 * indentation).  False if a line is indented
 * less than ind and is not empty (libfyaml would have ended the scalar).
 */
static bool block_lines(const uint8_t *p, size_t i, size_t end, bool eof, size_t ind, const bhead *h, char *d,
                        size_t *outn)
{
        size_t o = 0, empty = 0;
        int prev = 0;           /* the last content line: 0 none, 1 text, 2 starting with white space */
        bool last_brk = false;  /* the last content line ends in a line break */
        const size_t first = i;
        bline l;

        while (i < end) {
                int kind;

                size_t ls = i;

                i = next_line(p, i, end, &l);
                if (!l.brk && !eof) {
                        if (!l.blank)
                                return false;
                        break;  /* the next node's indentation, after the last break */
                }
                /* libfyaml: an empty last line without a break is a line only when it is the first */
                if (!l.brk && l.blank && l.spaces <= ind && ls != first)
                        break;
                if (l.blank && l.spaces <= ind) {
                        empty++;
                        continue;
                }
                if (l.spaces < ind)
                        return false;
                kind = is_white(p[l.s + ind]) ? 2 : 1;
                if (prev == 1 && kind == 1 && h->folded) {
                        if (empty == 0)
                                d[o++] = ' ';
                } else if (prev != 0) {
                        d[o++] = '\n';
                }
                memset(d + o, '\n', empty);
                o += empty;
                empty = 0;
                memcpy(d + o, p + l.s + ind, l.e - l.s - ind);
                o += l.e - l.s - ind;
                prev = kind;
                last_brk = l.brk;
        }
        /* like libfyaml: at the end of the input clip still ends in a newline, keep keeps only breaks it has */
        if (prev != 0 && (h->chomp == 0 || (h->chomp == '+' && last_brk)))
                d[o++] = '\n';
        if (h->chomp == '+') {
                memset(d + o, '\n', empty);
                o += empty;
        }
        *outn = o;
        return true;
}

/* A plain scalar's value: its input bytes, with no copy, unless it runs over lines and folds. */
static bool plain_decode(composer *c, struct fy_token *tok, const char **out, size_t *outn)
{
        const struct fy_mark *sm, *em;
        size_t start, end;

        if (tok == NULL) {      /* an empty node (`k:`, `- `, a lone property) has no token */
                *out = "";
                *outn = 0;
                return true;
        }
        sm = fy_token_start_mark(tok);
        em = fy_token_end_mark(tok);
        if (sm == NULL || em == NULL)
                return fail(c, PRC_E_INTERNAL, "libfyaml gave a plain scalar no place");
        start = sm->input_pos;
        end = em->input_pos;
        if (start > end || end > c->in_len)
                return fail(c, PRC_E_INTERNAL, "libfyaml placed a plain scalar outside the input");
        if (memchr(c->in + start, '\n', end - start) == NULL && memchr(c->in + start, '\r', end - start) == NULL) {
                *out = (const char *)c->in + start;
                *outn = end - start;
                return true;
        }
        if (end - start > c->sq_cap) {
                char *nb = realloc(c->sq, end - start);
                if (nb == NULL)
                        return oom(c, "a scalar");
                c->sq = nb;
                c->sq_cap = end - start;
        }
        (void)prc_yaml_plain_decode(c->in, start, end, c->sq, outn);
        *out = c->sq;
        return true;
}

static size_t token_end(struct fy_token *t)
{
        const struct fy_mark *m = t != NULL ? fy_token_end_mark(t) : NULL;

        return m != NULL ? m->input_pos : 0;
}

/*
 * The content indentation: an indicator counts from the indentation of the
 * collection that holds the scalar (libfyaml: from 0 at the top level);
 * otherwise the first non-empty line sets it.  libfyaml 0.7.12 also takes as
 * content lines indented no more than that collection (`a:\n  x: |\n  y: 1`
 * gives x the text "y: 1\n"), where YAML ends the scalar and reads the next
 * key: that is refused, not read either way.
 */
static bool block_decode(composer *c, struct fy_event_scalar_data *sd, const char **out, size_t *outn)
{
        const struct fy_mark *sm = fy_token_start_mark(sd->value), *em = fy_token_end_mark(sd->value);
        int parent = c->depth > 0 ? top(c)->col : -1;
        size_t start, end, lb, ind;
        bhead h;

        if (sm == NULL || em == NULL)
                return fail(c, PRC_E_INTERNAL, "libfyaml gave a block scalar no place");
        start = sm->input_pos;
        end = em->input_pos;
        lb = c->last_end;
        if (token_end(sd->anchor) > lb)
                lb = token_end(sd->anchor);
        if (token_end(sd->tag) > lb)
                lb = token_end(sd->tag);
        if (start > end || end > c->in_len || !block_header(c->in, lb, start, &h) ||
            h.folded != (fy_token_scalar_style(sd->value) == FYSS_FOLDED))
                return fail(c, PRC_E_INTERNAL, "libfyaml placed a block scalar where no header is before it");
        if (h.indent > 0) {
                ind = (size_t)(parent > 0 ? parent : 0) + (size_t)h.indent;
        } else {
                size_t at = 0;
                ind = block_auto_indent(c->in, start, end, &at);
                if (parent >= 0 && ind <= (size_t)parent)
                        return block_misread(c, at, parent);
        }
        if (end - start + 2 > c->sq_cap) {
                char *nb = realloc(c->sq, end - start + 2);
                if (nb == NULL)
                        return oom(c, "a scalar");
                c->sq = nb;
                c->sq_cap = end - start + 2;
        }
        if (!block_lines(c->in, start, end, end == c->in_len, ind, &h, c->sq, outn))
                return fail(c, PRC_E_INTERNAL, "a line of a block scalar libfyaml accepted is indented too little");
        *out = c->sq;
        return true;
}

static bool on_scalar(composer *c, struct fy_event_scalar_data *sd)
{
        enum fy_scalar_style style = fy_token_scalar_style(sd->value);
        enum rkind k = R_STR;
        int64_t iv = 0;
        long anc = -1;
        uint32_t id;
        const char *s = NULL;
        size_t n = 0;
        json_t *v;

        if (style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) {
                if (!quoted_decode(c, sd->value, style == FYSS_DOUBLE_QUOTED, &s, &n))
                        return false;
        } else if (style == FYSS_LITERAL || style == FYSS_FOLDED) {
                if (!block_decode(c, sd, &s, &n))
                        return false;
        } else if (style == FYSS_PLAIN) {
                if (!plain_decode(c, sd->value, &s, &n))
                        return false;
        } else {
                return fail(c, PRC_E_INTERNAL, "libfyaml gave a scalar of no known style");
        }
        if (s == NULL)
                return oom(c, "a scalar");
        if (n > c->lim->scalar_max)
                return fail(c, PRC_E_SCALAR_LIMIT, "scalar of %zu bytes, limit %zu", n, c->lim->scalar_max);
        /* Escapes (\0, \uD800) can produce what the raw-input check never saw. */
        if (!prc_utf8_valid((const uint8_t *)s, n, NULL))
                return fail(c, PRC_E_INVALID_UTF8, "scalar is not valid UTF-8 after unescaping");
        if (memchr(s, '\0', n) != NULL)
                return fail(c, PRC_E_NUL_BYTE, "scalar contains a NUL character (\\0 escape)");
        if (!add_nodes(c, 1) || !scalar_kind(c, s, n, style, sd->tag, &k, &iv))
                return false;
        if (sd->anchor != NULL && !anchor_define(c, sd->anchor, &anc))
                return false;
        if (awaiting_key(c)) {
                bool merge = style == FYSS_PLAIN && sd->tag == NULL && n == 2 && memcmp(s, "<<", 2) == 0;
                if (anc >= 0) {
                        v = scalar_json(c, s, n, k, iv);
                        if (v == NULL)
                                return false;
                        anchor_complete(c, anc, v, 1);
                        json_decref(v);
                }
                if (!key_text(c, top(c), s, n, k, iv))
                        return false;
                pos_key(c);
                return take_key(c, merge);
        }
        v = scalar_json(c, s, n, k, iv);
        if (v == NULL)
                return false;
        anchor_complete(c, anc, v, 1);
        if (!pos_add(c, scalar_style(style), &id)) {
                json_decref(v);
                return false;
        }
        sink_value(c, v);
        return deliver(c, v, 1);
}

static bool on_alias(composer *c, struct fy_token *tok)
{
        size_t n;
        const char *s = fy_token_get_text(tok, &n);
        long idx;
        uint32_t id;
        const anchor *a;

        if (s == NULL)
                return oom(c, "an alias");
        if (c->aliases >= c->lim->alias_max)
                return fail(c, PRC_E_YAML_ALIAS_LIMIT, "more than %" PRIu32 " aliases", c->lim->alias_max);
        c->aliases++;
        idx = anchor_find(c, s, n);
        if (idx < 0)
                return fail(c, PRC_E_YAML_UNDEFINED_ALIAS, "alias '*%.*s' names no anchor defined before it",
                            (int)(n > 64 ? 64 : n), s);
        a = &c->anchors[idx];
        if (a->v == NULL)
                return fail(c, PRC_E_YAML_ALIAS_CYCLE, "alias '*%.*s' refers to a node that contains it",
                            (int)(n > 64 ? 64 : n), s);
        /* An alias stands for every node of its anchor: billion laughs stops here. */
        if (!add_nodes(c, a->nodes))
                return false;
        if (awaiting_key(c)) {
                if (!key_from_value(c, top(c), a->v))
                        return false;
                pos_key(c);
                return take_key(c, false);
        }
        /* The alias itself has a place; the nodes it stands for keep none (callers use the alias's). */
        if (!pos_add(c, PRC_YAML_STYLE_ALIAS, &id))
                return false;
        sink_value(c, a->v);
        return deliver(c, json_incref(a->v), a->nodes);
}

/* last_end past every token seen so far (NULL: an empty node, which has no place). */
static void seen(composer *c, struct fy_token *t)
{
        size_t e = token_end(t);

        if (e > c->last_end)
                c->last_end = e;
}

static bool on_event(composer *c, struct fy_event *ev)
{
        const struct fy_mark *m = fy_event_start_mark(ev);
        bool ok;

        if (m != NULL)
                c->at = *m;
        switch (ev->type) {
        case FYET_DOCUMENT_START:
                if (++c->docs > 1)
                        return fail(c, PRC_E_YAML_MULTIPLE_DOCUMENTS, "a second document in the stream");
                return true;
        case FYET_MAPPING_START:
                seen(c, ev->mapping_start.anchor);
                seen(c, ev->mapping_start.tag);
                return on_start(c, true, ev->mapping_start.anchor, ev->mapping_start.tag);
        case FYET_SEQUENCE_START:
                seen(c, ev->sequence_start.anchor);
                seen(c, ev->sequence_start.tag);
                return on_start(c, false, ev->sequence_start.anchor, ev->sequence_start.tag);
        case FYET_MAPPING_END:
        case FYET_SEQUENCE_END:
                seen(c, ev->type == FYET_MAPPING_END ? ev->mapping_end.mapping_end : ev->sequence_end.sequence_end);
                return on_end(c);
        case FYET_SCALAR:
                ok = on_scalar(c, &ev->scalar);
                seen(c, ev->scalar.value);      /* a block header comes after all of these */
                seen(c, ev->scalar.anchor);
                seen(c, ev->scalar.tag);
                return ok;
        case FYET_ALIAS:
                seen(c, ev->alias.anchor);
                return on_alias(c, ev->alias.anchor);
        default:
                return true;
        }
}

/* ---- raw input ------------------------------------------------------------ */

static void line_col(const uint8_t *p, size_t off, uint32_t *line, uint32_t *col)
{
        uint32_t l = 1, cl = 1;

        for (size_t i = 0; i < off; i++) {
                if (p[i] == '\n') {
                        l++;
                        cl = 1;
                } else if ((p[i] & 0xc0) != 0x80) {
                        cl++;
                }
        }
        *line = l;
        *col = cl;
}

static bool raw_fail(const uint8_t *p, size_t off, prc_err *err, prc_errclass cls, const char *what, uint32_t cp)
{
        uint32_t line, col;

        if (cls != PRC_E_YAML_SYNTAX || cp == 0)
                prc_err_at(err, cls, off, "%s", what);
        else
                prc_err_at(err, cls, off, "%s U+%04" PRIX32, what, cp);
        line_col(p, off, &line, &col);
        prc_err_set_line(err, line, col);
        return false;
}

/*
 * libfyaml reads a flow node that could be an implicit key (at a block key
 * position, or inside a flow collection) to its end or to the end of its
 * line before it emits the node's first event, and it does not stop at
 * YAML's 1024-character key limit: it buffers about 300-600 bytes per
 * nesting level and about 400 bytes per flow entry on that line, before
 * prc's own limits are ever consulted ('[' x 100000 costs 58 MB, one line
 * '[1, 1, ...' of 300000 entries 124 MB).  The pre-scan bounds both: '['
 * and '{' counted against ']' and '}' may not nest past FLOW_SCAN_DEPTH_MAX,
 * and one line may not hold more than FLOW_SCAN_LINE_MAX of '[', '{' and
 * ','.  Quotes and comments are not parsed here, so both can only
 * over-count; both are far beyond hand-written or generated YAML.
 */
#define FLOW_SCAN_DEPTH_MAX 10000
#define FLOW_SCAN_LINE_MAX  65536

/*
 * Check the bytes before libfyaml sees them: strict UTF-8, no NUL, no
 * character outside YAML's printable set (spec 5.1), a byte order mark
 * only at the very start (spec 5.2), and flow brackets neither nested nor
 * crowded on one line past what libfyaml can buffer cheaply.
 */
/*
 * Printable ASCII other than '[', '{', ',', ']' and '}', one bit per byte
 * value below 0x80: bytes with nothing to check or count (most of a file),
 * skipped with one test each.
 */
static const uint64_t plain_ascii[2] = { 0xffffefff00000000ULL, 0x57ffffffd7ffffffULL };

/*
 * Eight bytes at once, all in plain_ascii's set: none at or above 0x80,
 * below 0x20 or DEL, and none of ',', '[' or '{', ']' or '}' (a byte or'd
 * with 0x20 is '{' only for '[' and '{', '}' only for ']' and '}').  The
 * zero-byte tests are exact as yes or no: a word they doubt goes byte by
 * byte.  A third of the YAML read's own instructions went to the byte loop.
 */
static bool plain_word(uint64_t w)
{
        uint64_t y = w | 0x20u * PRC_SWAR_ONES;

        return ((w & PRC_SWAR_HIGHS) | prc_swar_lt(w, 0x20) | prc_swar_eq(w, 0x7f) | prc_swar_eq(w, ',') |
                prc_swar_eq(y, '{') | prc_swar_eq(y, '}')) == 0;
}

/* *tabs: a tab seen; *breaks: CR, NEL, LS or PS seen (what the line reader leaves to the composer). */
static bool check_bytes(const uint8_t *p, size_t n, bool *tabs, bool *breaks, prc_err *err)
{
        size_t i = 0;
        uint32_t flow = 0, on_line = 0;

        while (i < n) {
                uint32_t cp;
                size_t len;

                for (uint64_t w; n - i >= 8 && (memcpy(&w, p + i, 8), plain_word(w));)
                        i += 8;
                while (i < n && p[i] < 0x80 && (plain_ascii[p[i] >> 6] >> (p[i] & 63) & 1))
                        i++;
                if (i == n)
                        break;
                if (p[i] >= 0x20 && p[i] < 0x7f) {
                        if (p[i] == '[' || p[i] == '{' || p[i] == ',') {
                                if (++on_line > FLOW_SCAN_LINE_MAX)
                                        return raw_fail(p, i, err, PRC_E_YAML_LINE_LIMIT,
                                                        "more flow entries on one line than the pre-scan allows", 0);
                                if (p[i] != ',' && ++flow > FLOW_SCAN_DEPTH_MAX)
                                        return raw_fail(p, i, err, PRC_E_DEPTH_LIMIT,
                                                        "flow brackets nest deeper than the pre-scan allows", 0);
                        } else if ((p[i] == ']' || p[i] == '}') && flow > 0) {
                                flow--;
                        }
                        i++;
                        continue;
                }
                if (p[i] == 0)
                        return raw_fail(p, i, err, PRC_E_NUL_BYTE, "NUL byte in YAML input", 0);
                if (p[i] == '\n' || p[i] == '\r')
                        on_line = 0;
                if (p[i] == '\n' || p[i] == '\r' || p[i] == '\t') {
                        *tabs |= p[i] == '\t';
                        *breaks |= p[i] == '\r';
                        i++;
                        continue;
                }
                len = prc_utf8_decode(p + i, n - i, &cp);
                if (len == 0)
                        return raw_fail(p, i, err, PRC_E_INVALID_UTF8, "invalid UTF-8 in YAML input", 0);
                if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f && cp != 0x85) || cp == 0xfffe ||
                    cp == 0xffff)
                        return raw_fail(p, i, err, PRC_E_YAML_SYNTAX, "non-printable character", cp);
                if (cp == 0xfeff && i != 0)
                        return raw_fail(p, i, err, PRC_E_YAML_SYNTAX, "byte order mark inside the stream", cp);
                *breaks |= cp == 0x85 || cp == 0x2028 || cp == 0x2029;
                i += len;
        }
        return true;
}

/*
 * libfyaml 0.7.12 corrupts its heap (fy_parser_destroy then writes through
 * a freed list: SIGSEGV) after it reports "cannot use tab for indentation of
 * block entry" inside the content of an explicit key: a mapping value
 * indicator that follows a key, then white space holding a tab, then ':',
 * '?', '|', '>' or a '-' entry ("? a:<TAB>:", docs/yaml.md).  This lexer
 * finds that pattern before libfyaml sees it.  It reads block structure as
 * libfyaml does, just enough to know where a '?' opens a key and where
 * bytes are not structure: quoted scalars (across lines), comments, flow
 * collections (where the pattern is harmless), plain scalars (which run on
 * over blanks and quotes), properties, and block scalar content (lines
 * indented past the column before the node that holds the header, as
 * libfyaml counts it, at least column 1).  A key's content is the rest of
 * the '?' line and the lines indented past the '?', or at its column when
 * they are '-' entries; the latest '?' counts.
 */
enum kmode { K_NODE, K_PLAIN, K_AFTER, K_PROP };

typedef struct kscan {
        const uint8_t *p;
        size_t         ls, le;          /* the line being read: p[ls..le) */
        size_t         cpos, col;       /* col: the column (characters) of p[cpos] */
        long           bs;              /* >= 0: in a block scalar, whose lines are indented past bs */
        long           bm;              /* its content's indentation once known (its first line's), or -1 */
        long           region;          /* column of the '?' whose content this may be, or -1 */
        uint32_t       flow;            /* open flow collections */
        bool           fnode;           /* in a flow collection, a node may start here (a quote opens one) */
        bool           fjson;           /* in a flow collection, a quoted scalar or a collection just ended */
        bool           pmore;           /* the line before ended in a block plain scalar, which may run on */
        long           pind;            /* its first line's indentation (-1: it started a line at column 0) */
        uint8_t        quote;           /* the open quoted scalar's quote, or 0 */
        enum kmode     mode;
} kscan;

static bool k_blank(uint8_t ch)
{
        return ch == ' ' || ch == '\t';
}

/* p[i] stands alone: a blank or the end of the line follows. */
static bool k_alone(const kscan *k, size_t i)
{
        return i + 1 >= k->le || k_blank(k->p[i + 1]);
}

static long k_col(kscan *k, size_t i)
{
        for (; k->cpos < i; k->cpos++)
                if ((k->p[k->cpos] & 0xc0) != 0x80)
                        k->col++;
        return (long)k->col;
}

/* After a key's ':' at p[i]: the offset of a tab before an indicator libfyaml fails on, or 0. */
static size_t k_tab_after_value(const kscan *k, size_t i)
{
        size_t j, tab = 0;

        if (k->region < 0)
                return 0;
        for (j = i + 1; j < k->le && k_blank(k->p[j]); j++)
                if (k->p[j] == '\t' && tab == 0)
                        tab = j;
        if (tab == 0 || j == k->le)
                return 0;
        if (strchr(":?|>", k->p[j]) != NULL || (k->p[j] == '-' && k_alone(k, j)))
                return tab;
        return 0;
}

/* Where the line's structure starts (ls + indentation), or le when it has none to read. */
static size_t k_line_start(kscan *k, size_t ind)
{
        const uint8_t *p = k->p;
        size_t r = k->ls + ind, len = k->le - k->ls;

        while (r < k->le && k_blank(p[r]))
                r++;
        if (k->bs >= 0) {
                if (r == k->le)
                        return k->le;           /* white space only: block scalar content */
                if (k->bm < 0 && (long)ind > k->bs)
                        k->bm = (long)ind;      /* the first content line sets the indentation */
                if (k->bm >= 0 && (long)ind >= k->bm)
                        return k->le;
                k->bs = -1;
        }
        if (k->quote != 0 || k->flow != 0)
                return k->ls;
        if (r == k->le)
                return k->le;
        /*
         * A line indented past the first line of a plain scalar that ran to
         * the end of the line before continues it: its quotes and brackets
         * are text ("a: b\n  'c" is the scalar "b 'c"), and reading one as
         * an opening would hide the lines after it from the scan.
         */
        if (k->pmore && p[r] != '#' && (long)ind > k->pind &&
            !(ind == 0 && len >= 3 && (memcmp(p + k->ls, "---", 3) == 0 || memcmp(p + k->ls, "...", 3) == 0))) {
                k->mode = K_PLAIN;
                return r;
        }
        k->pmore = false;
        if (p[r] == '#' || (ind == 0 && p[k->ls] == '%'))
                return k->le;
        if (k->region >= 0 && ((long)ind < k->region ||
                               ((long)ind == k->region && !(p[r] == '-' && k_alone(k, r)))))
                k->region = -1;
        k->mode = K_NODE;
        if (ind == 0 && len >= 3 && (memcmp(p + k->ls, "---", 3) == 0 || memcmp(p + k->ls, "...", 3) == 0) &&
            (len == 3 || k_blank(p[k->ls + 3]))) {
                k->region = -1;
                return k->ls + 3;
        }
        return k->ls + ind;
}

static size_t k_name_end(const kscan *k, size_t i);

static bool k_flow_ind(uint8_t ch)
{
        return ch == ',' || ch == '[' || ch == ']' || ch == '{' || ch == '}';
}

/*
 * In a quoted scalar or a flow collection: step past p[i].  In a flow
 * collection a quote opens a scalar only where a node starts (after '[',
 * '{', ',', a '?' or ':' indicator, or properties); inside a plain scalar
 * ("[a'b]", "[a:'b']") it is text, and reading it as an opening would hide
 * the lines after the collection from the scan.
 */
static size_t k_inside(kscan *k, size_t i)
{
        uint8_t ch = k->p[i];
        bool    json = k->fjson;

        if (k->quote != 0) {
                if (ch == '\\' && k->quote == '"')
                        return i + 2;
                if (ch != k->quote)
                        return i + 1;
                if (ch == '\'' && i + 1 < k->le && k->p[i + 1] == '\'')
                        return i + 2;
                k->quote = 0;
                if (k->flow == 0)
                        k->mode = K_AFTER;
                k->fnode = false;
                k->fjson = true;
                return i + 1;
        }
        if (k_blank(ch))
                return i + 1;
        k->fjson = false;
        if ((ch == '\'' || ch == '"') && k->fnode) {
                k->quote = ch;
        } else if (ch == '[' || ch == '{') {
                k->flow++;
                k->fnode = true;
        } else if (ch == ']' || ch == '}') {
                if (--k->flow == 0)
                        k->mode = K_AFTER;
                k->fnode = false;
                k->fjson = true;
        } else if (ch == ',') {
                k->fnode = true;
        } else if ((ch == ':' || (ch == '?' && k->fnode)) &&
                   ((ch == ':' && json) || i + 1 >= k->le || k_blank(k->p[i + 1]) || k_flow_ind(k->p[i + 1]))) {
                k->fnode = true;        /* an indicator ('?' only where a node starts): its node follows */
        } else if ((ch == '&' || ch == '!') && k->fnode) {
                return k_name_end(k, i);        /* properties: the node still starts after them */
        } else {
                k->fnode = false;       /* a plain scalar's text */
        }
        return i + 1;
}

/* The end of the anchor, alias or tag at p[i]: a blank or a flow indicator ends it, '>' a verbatim tag. */
static size_t k_name_end(const kscan *k, size_t i)
{
        const uint8_t *p = k->p;

        if (p[i] == '!' && i + 1 < k->le && p[i + 1] == '<') {
                while (i < k->le && p[i] != '>')
                        i++;
                return i < k->le ? i + 1 : i;
        }
        while (i < k->le && !k_blank(p[i]) && p[i] != ',' && p[i] != '[' && p[i] != ']' && p[i] != '{' &&
               p[i] != '}')
                i++;
        return i;
}

/*
 * A block scalar's header at p[i], on a line indented ind, in the node that
 * starts at column entry (-1: the header starts the line).  libfyaml takes
 * the lines indented past max(entry - 1, 0); an indentation indicator m
 * counts from there, or from 0 for a header alone on its line (whose
 * parent's column the line does not tell): more lines rather than fewer.
 */
static void k_block_header(kscan *k, size_t i, long entry, size_t ind)
{
        long n = entry > 1 ? entry - 1 : 0, m = 0;

        for (i++; i < k->le && (k->p[i] == '+' || k->p[i] == '-' || (k->p[i] >= '1' && k->p[i] <= '9')); i++)
                if (k->p[i] != '+' && k->p[i] != '-')
                        m = k->p[i] - '0';
        if (entry < 0)
                n = m != 0 ? 0 : ((long)ind > 1 ? (long)ind - 1 : 0);
        k->bs = n;
        k->bm = m != 0 ? n + m : -1;
}

/* Read one line; the offset of the tab libfyaml fails on, or 0. */
static size_t k_line(kscan *k)
{
        const uint8_t *p = k->p;
        size_t ind = 0, i;
        long entry = -1;        /* column of the node or indicator that holds what follows */
        bool prop = false;      /* the node under way has properties (entry is theirs) */
        bool comment = false;   /* the line ends in a comment (which ends a plain scalar) */

        while (k->ls + ind < k->le && p[k->ls + ind] == ' ')
                ind++;
        k->cpos = k->ls;
        k->col = 0;
        for (i = k_line_start(k, ind); i < k->le;) {
                uint8_t ch = p[i];

                /* A comment, wherever no quoted scalar is open; it also ends a plain scalar. */
                if (ch == '#' && k->quote == 0 && (i == k->ls || k_blank(p[i - 1]))) {
                        comment = true;
                        break;
                }
                if (k->quote != 0 || k->flow != 0) {
                        i = k_inside(k, i);
                        continue;
                }
                if (k->mode == K_PLAIN) {
                        if (ch == ':' && k_alone(k, i)) {
                                size_t tab = k_tab_after_value(k, i);
                                if (tab != 0)
                                        return tab;
                                k->mode = K_NODE;
                        }
                        i++;
                        continue;
                }
                if (k_blank(ch)) {
                        i++;
                        continue;
                }
                if (k->mode == K_PROP)
                        k->mode = ch == ':' && k_alone(k, i) ? K_PLAIN : K_NODE;    /* an empty node as key */
                if (k->mode == K_AFTER)
                        k->mode = K_PLAIN;      /* read again as after a key */
                if (k->mode == K_PLAIN)
                        continue;
                if (ch == '|' || ch == '>') {
                        k_block_header(k, i, entry, ind);
                        break;
                }
                if ((ch == '?' || ch == '-' || ch == ':') && k_alone(k, i)) {
                        entry = k_col(k, i);
                        if (ch == '?')
                                k->region = entry;
                        i++;
                        continue;
                }
                if (!prop)
                        entry = k_col(k, i);
                if (ch == '&' || ch == '!' || ch == '*') {
                        i = k_name_end(k, i);
                        prop = ch != '*';
                        k->mode = ch == '*' ? K_AFTER : K_PROP;
                        continue;
                }
                prop = false;
                if (ch == '\'' || ch == '"') {
                        k->quote = ch;
                } else if (ch == '[' || ch == '{') {
                        k->flow = 1;
                        k->fnode = true;
                        k->fjson = false;
                } else {
                        k->mode = K_PLAIN;
                        k->pind = i == k->ls ? -1 : (long)ind;
                }
                i++;
        }
        k->pmore = k->mode == K_PLAIN && !comment && k->quote == 0 && k->flow == 0 && k->bs < 0;
        return 0;
}

/* The offset of a tab libfyaml 0.7.12 would corrupt its heap on, or 0 (offset 0 is never one). */
static size_t explicit_key_tab(const uint8_t *p, size_t n)
{
        kscan k = { .p = p, .bs = -1, .bm = -1, .region = -1, .mode = K_NODE };

        for (size_t ls = 0; ls <= n;) {
                size_t tab;
                k.ls = ls;
                for (k.le = ls; k.le < n && p[k.le] != '\n' && p[k.le] != '\r'; k.le++)
                        ;
                tab = k_line(&k);
                if (tab != 0)
                        return tab;
                if (k.le == n)
                        break;
                ls = p[k.le] == '\r' && k.le + 1 < n && p[k.le + 1] == '\n' ? k.le + 2 : k.le + 1;
        }
        return 0;
}

/* ---- entry ----------------------------------------------------------------- */

static void discard_diag(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
        (void)diag;
        (void)user;
        (void)buf;
        (void)len;
}

static void syntax_error(composer *c, struct fy_diag *diag)
{
        void *it = NULL;
        struct fy_diag_error *de = fy_diag_errors_iterate(diag, &it);
        char msg[sizeof(c->err->msg)];

        if (prc_err_is_set(c->err))
                return;
        if (de == NULL) {
                fail(c, PRC_E_YAML_SYNTAX, "YAML syntax error");
                return;
        }
        snprintf(msg, sizeof(msg), "%s", de->msg ? de->msg : "YAML syntax error");
        printable(msg);         /* libfyaml may quote the input */
        if (de->fyt != NULL && fy_token_start_mark(de->fyt) != NULL)
                prc_err_at(c->err, PRC_E_YAML_SYNTAX, fy_token_start_mark(de->fyt)->input_pos, "%s", msg);
        else
                prc_err_set(c->err, PRC_E_YAML_SYNTAX, "%s", msg);
        if (de->line > 0)
                prc_err_set_line(c->err, (uint32_t)de->line, de->column > 0 ? (uint32_t)de->column : 0);
}

/*
 * The error libfyaml 0.7.12 reports before fy_parser_destroy corrupts its
 * heap, when the pre-scan above missed the pattern (docs/yaml.md).  Parsing
 * up to it is clean under valgrind; only the destroy writes through freed
 * memory.  So a parser whose diagnostics hold it, in an input with a tab
 * and a '?' (the pattern needs both), is never destroyed: it is kept on a
 * list, a bounded cost (the worker counts its heap after every reply and
 * retires past 8 MiB kept), and reachable, so LeakSanitizer does not call
 * it lost.  The refusal is libfyaml's own syntax error, as before.
 */
static bool key_tab_error(struct fy_diag *diag)
{
        static const char msg[] = "cannot use tab for indentation of block entry";
        void *it = NULL;
        struct fy_diag_error *de;

        while ((de = fy_diag_errors_iterate(diag, &it)) != NULL)
                if (de->msg != NULL && strcmp(de->msg, msg) == 0)
                        return true;
        return false;
}

struct kept_parser {
        struct kept_parser *next;
        struct fy_parser   *fyp;
};

static struct kept_parser *_Atomic kept_parsers;

static void keep_parser_forever(struct fy_parser *fyp)
{
        struct kept_parser *k = malloc(sizeof(*k));

        if (k == NULL)
                return;         /* still not destroyed; only LeakSanitizer's view of it is lost */
        k->fyp = fyp;
        k->next = atomic_load(&kept_parsers);
        while (!atomic_compare_exchange_weak(&kept_parsers, &k->next, k))
                ;
}

#if defined(PRC_TESTING) && PRC_TESTING
bool prc_yaml_test_skip_key_tab_scan;
bool prc_yaml_test_no_line_reader;
_Thread_local unsigned long prc_yaml_test_line_reads;
#else
static const bool prc_yaml_test_skip_key_tab_scan = false;
static const bool prc_yaml_test_no_line_reader = false;
#endif

static void composer_clear(composer *c)
{
        while (c->depth > 0)
                frame_clear(&c->stack[--c->depth]);
        for (uint32_t i = 0; i < c->stack_cap; i++)
                free(c->stack[i].key);
        free(c->stack);
        for (size_t i = 0; i < c->nanchors; i++) {
                free(c->anchors[i].name);
                json_decref(c->anchors[i].v);
        }
        free(c->anchors);
        free(c->names);
        free(c->counts.keys);
        free(c->counts.vals);
        free(c->sq);
        json_decref(c->root);
        prc_yaml_pos_free(c->pos);
}

static json_t *load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, const prc_yaml_sink *sink,
                    void *ctx, prc_yaml_pos **out_pos, prc_err *err);

/* ---- the kept composition (yaml.h prc_yaml_keep) ------------------------- */

static void pos_free(void *t)
{
        prc_yaml_pos_free(t);
}

void prc_yaml_keep(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, json_t *doc, prc_yaml_pos *pos)
{
        prc_kept_put(PRC_KEPT_YAML, p, n, lim, flags, doc, pos, pos_free);
}

json_t *prc_yaml_load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        json_t *doc = prc_kept_take(PRC_KEPT_YAML, p, n, lim, flags, NULL);

        return doc != NULL ? doc : load(p, n, lim, flags, NULL, NULL, NULL, err);
}

json_t *prc_yaml_load_sink(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                           const prc_yaml_sink *sink, void *ctx, prc_yaml_pos **out_pos, prc_err *err)
{
        return load(p, n, lim, flags, sink, ctx, out_pos, err);
}

json_t *prc_yaml_load_pos(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                          prc_yaml_pos **out_pos, prc_err *err)
{
        void *pos = NULL;
        json_t *doc = prc_kept_take(PRC_KEPT_YAML, p, n, lim, flags, &pos);

        if (doc == NULL)
                return load(p, n, lim, flags, NULL, NULL, out_pos, err);
        *out_pos = pos;
        return doc;
}

/* ---- the line reader: block YAML as lockfile generators write it ---------- */

/*
 * pnpm-lock.yaml and yarn (berry) yarn.lock are YAML that programs write:
 * block mappings and sequences indented by spaces, one entry a line, flow
 * collections closed on their line, plain and quoted scalars of one line.
 * libfyaml and the composer above take some 30 us a KiB of that; this reader
 * takes it line by line into the very tree the composer makes, or declines,
 * and load() then reads the bytes as before.  It declines whatever it does
 * not read exactly as the composer would: tabs, CR, a byte order mark,
 * directives and document markers, anchors, aliases, tags, block scalars,
 * explicit and merge keys, escapes, scalars or flow collections over more
 * than one line, an entry indented past its parent's or a sequence at its
 * key's column, a mapping inside a sequence entry, duplicate keys, floats
 * it would have to convert, unsafe numbers, and every limit before it is
 * reached; so every refusal is still the composer's.  No positions: loads
 * that want them compose.  fuzz/fuzz_yaml.c holds the two readings to the
 * same tree on every input the line reader takes.
 */
typedef struct lr {
        composer      *c;       /* flags, limits, err (out of memory only) */
        const uint8_t *p;
        size_t         n, next; /* next: where the line after the current one starts */
        size_t         ls, le;  /* the current line's content, after its indentation, before its break */
        long           ind;     /* its indentation; -1: no line left */
        uint64_t       nodes;
        frame          kf;      /* only its key buffer: key_text's text of the key being added */
        bool           no;      /* declined */
} lr;

static json_t *lr_decline(lr *r)
{
        r->no = true;
        return NULL;
}

/* The next line with content (not blank, not only a comment); column 0 may not hold a document marker. */
static void lr_line(lr *r)
{
        while (r->next < r->n) {
                const uint8_t *e = memchr(r->p + r->next, '\n', r->n - r->next);
                size_t s = r->next, le = e != NULL ? (size_t)(e - r->p) : r->n, i = s;
                r->next = e != NULL ? le + 1 : r->n;
                while (i < le && r->p[i] == ' ')
                        i++;
                if (i == le || r->p[i] == '#')
                        continue;
                if (i == s && (r->p[i] == '%' || (le - i >= 3 && (memcmp(r->p + i, "---", 3) == 0 ||
                                                                  memcmp(r->p + i, "...", 3) == 0)))) {
                        r->no = true;
                        break;
                }
                r->ls = i;
                r->le = le;
                r->ind = (long)(i - s);
                return;
        }
        r->ind = -1;
}

static bool lr_count(lr *r)
{
        if (r->nodes >= r->c->lim->nodes_max)
                return false;
        r->nodes++;
        return true;
}

static bool lr_space(uint8_t ch)
{
        return ch == ' ';
}

/* After a node on the line: spaces, then the line's end or a comment (after a space). */
static bool lr_rest_empty(const lr *r, size_t j)
{
        size_t k = j;

        while (k < r->le && lr_space(r->p[k]))
                k++;
        return k == r->le || (r->p[k] == '#' && k > 0 && lr_space(r->p[k - 1]));
}

/*
 * A scalar at p[j..le): quoted (closed on the line, single quotes doubled,
 * no escape in double quotes) or plain.  A plain one may not start with an
 * indicator; it ends at the line's end, at " #", at ':' before a space or
 * the end (key: the key's end; otherwise declined) and, in flow, at ',',
 * ']' and '}' ('[' and '{' inside decline).  *s, *n: its text (in buf when
 * decoded); *plain; *end: the first byte after it (trailing spaces of a
 * plain one are not its own).  False: declined.
 */
static bool lr_scalar(lr *r, size_t j, bool flow, bool key, prc_buf *buf, const char **s, size_t *n, bool *plain,
                      size_t *end)
{
        const uint8_t *p = r->p;
        size_t le = r->le, k;
        uint8_t q = p[j];

        if (q == '\'' || q == '"') {
                bool doubled = false;
                for (k = j + 1; k < le; k++) {
                        if (q == '"' && p[k] == '\\')
                                return false;
                        if (p[k] == q) {
                                if (q == '\'' && k + 1 < le && p[k + 1] == '\'') {
                                        doubled = true;
                                        k++;
                                        continue;
                                }
                                break;
                        }
                }
                if (k >= le)
                        return false;
                *plain = false;
                *end = k + 1;
                if (!doubled) {
                        *s = (const char *)p + j + 1;
                        *n = k - j - 1;
                        return true;
                }
                prc_buf_reset(buf);
                for (size_t m = j + 1; m < k; m++) {
                        if (!prc_buf_putc(buf, p[m], r->c->err))
                                return false;
                        if (p[m] == '\'')
                                m++;
                }
                *s = (const char *)buf->data;
                *n = buf->len;
                return true;
        }
        if (strchr(",[]{}#&*!|>%@`", q) != NULL ||
            ((q == '-' || q == '?' || q == ':') && (j + 1 == le || lr_space(p[j + 1]) ||
                                                     (flow && strchr(",[]{}", p[j + 1]) != NULL))))
                return false;
        for (k = j; k < le; k++) {
                uint8_t ch = p[k];
                if (ch == ':' && (k + 1 == le || lr_space(p[k + 1]) || (flow && strchr(",[]{}", p[k + 1]) != NULL))) {
                        if (!key)
                                return false;
                        break;
                }
                if (ch == '#' && lr_space(p[k - 1]))
                        break;
                if (flow && (ch == ',' || ch == ']' || ch == '}'))
                        break;
                if (flow && (ch == '[' || ch == '{'))
                        return false;
        }
        *end = k;
        while (k > j && lr_space(p[k - 1]))
                k--;
        *plain = true;
        *s = (const char *)p + j;
        *n = k - j;
        return *n > 0;
}

/* A new collection at depth (counted as on_start counts it); NULL: declined, or out of memory (err). */
static json_t *lr_open(lr *r, bool map, uint32_t depth)
{
        json_t *v;

        if (depth >= r->c->lim->depth_max || !lr_count(r))
                return lr_decline(r);
        v = map ? json_object() : json_array();
        if (v == NULL)
                oom(r->c, map ? "a mapping" : "a sequence");
        return v;
}

/* A plain `<<`: a merge key, which the composer merges (declined here). */
static bool lr_merge_key(const char *s, size_t n, bool plain)
{
        return plain && n == 2 && memcmp(s, "<<", 2) == 0;
}

/* A value scalar's node, as on_scalar makes it; NULL: declined (r->no) or out of memory (err). */
static json_t *lr_value(lr *r, const char *s, size_t n, bool plain)
{
        enum rkind k = R_STR;
        int64_t iv = 0;

        if (n > r->c->lim->scalar_max || !lr_count(r))
                return lr_decline(r);
        if (plain)
                k = resolve_plain(s, n, &iv);
        if (k == R_INT_UNSAFE || k == R_NONFINITE || (k == R_FLOAT && !(r->c->flags & PRC_YAML_FLOAT_AS_STRING)))
                return lr_decline(r);
        return scalar_json(r->c, s, n, k, iv);
}

/* Add key s[0..n) (its text as key_text makes it) with v (taken) to o. */
static bool lr_member(lr *r, json_t *o, const char *s, size_t n, bool plain, json_t *v)
{
        enum rkind k = R_STR;
        int64_t iv = 0;
        size_t chars = 0;

        if (plain)
                k = resolve_plain(s, n, &iv);
        if (!key_text(r->c, &r->kf, s, n, k, iv)) {
                json_decref(v);
                return false;
        }
        s = r->kf.key;
        n = r->kf.klen;
        for (size_t i = 0; i < n; i++)
                chars += ((uint8_t)s[i] & 0xc0) != 0x80;
        if (chars > KEY_CHARS_MAX || json_object_getn(o, s, n) != NULL || json_object_size(o) >= r->c->lim->keys_max) {
                json_decref(v);
                r->no = true;
                return false;
        }
        if (json_object_setn_new_nocheck(o, s, n, v) != 0) {
                oom(r->c, "a mapping");
                return false;
        }
        return true;
}

static json_t *lr_flow(lr *r, size_t j, uint32_t depth, prc_buf *buf, size_t *end);

/*
 * A key's text stays where it is while its value is read, unless it was
 * decoded into buf, which the value reuses: then *copy holds it (free it).
 */
static bool lr_key_keep(lr *r, const prc_buf *buf, const char **ks, size_t kn, char **copy)
{
        *copy = NULL;
        if (*ks != (const char *)buf->data)
                return true;
        *copy = malloc(kn ? kn : 1);
        if (*copy == NULL)
                return oom(r->c, "a key");
        memcpy(*copy, *ks, kn);
        *ks = *copy;
        return true;
}

/* A node that starts at p[j] on the line: a flow collection or a scalar (a key's value: no ': ' after it). */
static json_t *lr_inline(lr *r, size_t j, bool flow, uint32_t depth, prc_buf *buf, size_t *end)
{
        const char *s;
        size_t n;
        bool plain;

        if (r->p[j] == '[' || r->p[j] == '{')
                return lr_flow(r, j, depth, buf, end);
        if (!lr_scalar(r, j, flow, false, buf, &s, &n, &plain, end))
                return lr_decline(r);
        return lr_value(r, s, n, plain);
}

/* A flow collection at p[j], closed on its line. */
static json_t *lr_flow(lr *r, size_t j, uint32_t depth, prc_buf *buf, size_t *end)
{
        bool map = r->p[j] == '{';
        uint8_t close = map ? '}' : ']';
        json_t *v = lr_open(r, map, depth);
        size_t k = j + 1;

        if (v == NULL)
                return NULL;
        while (k < r->le && lr_space(r->p[k]))
                k++;
        if (k < r->le && r->p[k] == close) {
                *end = k + 1;
                return v;
        }
        for (;;) {
                const char *ks = NULL;
                size_t kn = 0, e;
                bool kplain = false;
                char *kcopy = NULL;
                json_t *x;

                if (k >= r->le)
                        goto no;
                if (map) {
                        if (!lr_scalar(r, k, true, true, buf, &ks, &kn, &kplain, &e) || e >= r->le ||
                            r->p[e] != ':' || e + 1 >= r->le || !lr_space(r->p[e + 1]) || kn > r->c->lim->scalar_max ||
                            lr_merge_key(ks, kn, kplain) || !lr_count(r))
                                goto no;
                        if (!lr_key_keep(r, buf, &ks, kn, &kcopy)) {
                                json_decref(v);
                                return NULL;
                        }
                        k = e + 1;
                        while (k < r->le && lr_space(r->p[k]))
                                k++;
                        if (k >= r->le || r->p[k] == ',' || r->p[k] == '}') {
                                free(kcopy);
                                goto no;
                        }
                }
                x = lr_inline(r, k, true, depth + 1, buf, &e);
                if (x == NULL) {
                        free(kcopy);
                        json_decref(v);
                        return NULL;
                }
                if (map) {
                        bool ok = lr_member(r, v, ks, kn, kplain, x);
                        free(kcopy);
                        if (!ok) {
                                json_decref(v);
                                return NULL;
                        }
                } else if (json_array_append_new(v, x) != 0) {
                        json_decref(v);
                        oom(r->c, "a sequence");
                        return NULL;
                }
                k = e;
                while (k < r->le && lr_space(r->p[k]))
                        k++;
                if (k < r->le && r->p[k] == close) {
                        *end = k + 1;
                        return v;
                }
                /* An implicit pair in a sequence (`[a: b]`), a trailing comma, anything else: declined. */
                if (k >= r->le || r->p[k] != ',')
                        goto no;
                k++;
                while (k < r->le && lr_space(r->p[k]))
                        k++;
                if (k < r->le && r->p[k] == close)
                        goto no;
        }
no:
        json_decref(v);
        return lr_decline(r);
}

static json_t *lr_block(lr *r, uint32_t depth, prc_buf *buf);

/* The value of a key or entry whose line holds nothing more: the lines below, or null. */
static json_t *lr_below(lr *r, long ind, uint32_t depth, prc_buf *buf)
{
        lr_line(r);
        if (r->no)
                return NULL;
        if (r->ind > ind)
                return lr_block(r, depth, buf);
        /* `k:` then `- x` at k's column: a sequence YAML gives k; declined. */
        if (r->ind == ind && r->p[r->ls] == '-' && (r->ls + 1 == r->le || lr_space(r->p[r->ls + 1])))
                return lr_decline(r);
        return lr_value(r, "", 0, true);
}

/* A block sequence at the current line's column: "- " entries of one line each. */
static json_t *lr_seq(lr *r, uint32_t depth, prc_buf *buf)
{
        long ind = r->ind;
        json_t *a = lr_open(r, false, depth);

        if (a == NULL)
                return NULL;
        while (r->ind == ind) {
                size_t j = r->ls + 1, e;
                json_t *x;
                if (r->p[r->ls] != '-' || j >= r->le || !lr_space(r->p[j]))
                        goto no;
                while (j < r->le && lr_space(r->p[j]))
                        j++;
                if (j >= r->le || r->p[j] == '#')
                        goto no;
                x = lr_inline(r, j, false, depth + 1, buf, &e);
                if (x == NULL) {
                        json_decref(a);
                        return NULL;
                }
                if (json_array_append_new(a, x) != 0) {
                        json_decref(a);
                        oom(r->c, "a sequence");
                        return NULL;
                }
                if (!lr_rest_empty(r, e))
                        goto no;
                lr_line(r);
                if (r->no || r->ind > ind)
                        goto no;
        }
        return a;
no:
        json_decref(a);
        return lr_decline(r);
}

/* A block mapping at the current line's column. */
static json_t *lr_map(lr *r, uint32_t depth, prc_buf *buf)
{
        long ind = r->ind;
        json_t *o = lr_open(r, true, depth);

        if (o == NULL)
                return NULL;
        while (r->ind == ind) {
                const char *ks;
                size_t kn, e, j;
                bool kplain;
                char *kcopy;
                json_t *x;
                bool ok;

                if (!lr_scalar(r, r->ls, false, true, buf, &ks, &kn, &kplain, &e) || e >= r->le || r->p[e] != ':' ||
                    (e + 1 < r->le && !lr_space(r->p[e + 1])) || kn > r->c->lim->scalar_max ||
                    lr_merge_key(ks, kn, kplain) || !lr_count(r))
                        goto no;
                if (!lr_key_keep(r, buf, &ks, kn, &kcopy)) {
                        json_decref(o);
                        return NULL;
                }
                j = e + 1;
                while (j < r->le && lr_space(r->p[j]))
                        j++;
                if (j >= r->le || r->p[j] == '#') {
                        x = lr_below(r, ind, depth + 1, buf);
                } else {
                        x = lr_inline(r, j, false, depth + 1, buf, &e);
                        if (x != NULL && !lr_rest_empty(r, e)) {
                                json_decref(x);
                                x = lr_decline(r);
                        }
                        if (x != NULL) {
                                lr_line(r);
                                /* A line indented past the key continues a scalar, or is an error: declined. */
                                if (r->no || r->ind > ind) {
                                        json_decref(x);
                                        x = lr_decline(r);
                                }
                        }
                }
                if (x == NULL) {
                        free(kcopy);
                        json_decref(o);
                        return NULL;
                }
                ok = lr_member(r, o, ks, kn, kplain, x);
                free(kcopy);
                if (!ok) {
                        json_decref(o);
                        return NULL;
                }
        }
        if (r->ind > ind)
                goto no;
        return o;
no:
        json_decref(o);
        return lr_decline(r);
}

/* The block node at the current line (a sequence when it is a "- " entry). */
static json_t *lr_block(lr *r, uint32_t depth, prc_buf *buf)
{
        if (r->p[r->ls] == '-' && (r->ls + 1 == r->le || lr_space(r->p[r->ls + 1])))
                return lr_seq(r, depth, buf);
        return lr_map(r, depth, buf);
}

/*
 * The document by the line reader, or NULL: declined (err unset) or out of
 * memory (err set).  The root is a block collection at column 0 and
 * nothing follows it.
 */
static json_t *lr_load(composer *c, const uint8_t *p, size_t n)
{
        lr r = { .c = c, .p = p, .n = n };
        prc_buf buf;
        json_t *v;

        /* (CR, NEL, LS and PS, which libfyaml may take for breaks, are load()'s to leave to the composer.) */
        if (n == 0 || (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0))
                return NULL;
        prc_buf_init(&buf, c->lim->scalar_max + 1);
        lr_line(&r);
        v = r.no || r.ind != 0 ? NULL : lr_block(&r, 0, &buf);
        prc_buf_clear(&buf);
        free(r.kf.key);
        if (v != NULL && (r.no || r.ind != -1)) {
                json_decref(v);
                v = NULL;
        }
        return v;
}

/* Tell the sink the document the line reader made, as the composer would have (no merges, no aliases). */
static void lr_tell(composer *c, const json_t *v)
{
        const char *k;
        size_t i, kl;
        json_t *x;

        if (c->sink == NULL)
                return;
        if (json_is_object(v)) {
                sink_open(c, true);
                json_object_keylen_foreach((json_t *)v, k, kl, x) {
                        sink_key(c, k, kl);
                        lr_tell(c, x);
                }
                sink_close(c);
        } else if (json_is_array(v)) {
                sink_open(c, false);
                json_array_foreach(v, i, x)
                        lr_tell(c, x);
                sink_close(c);
        } else {
                sink_value(c, v);
        }
}

static json_t *load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, const prc_yaml_sink *sink,
                    void *ctx, prc_yaml_pos **out_pos, prc_err *err)
{
        static const char empty[] = "";
        struct fy_diag_cfg dcfg;
        struct fy_parse_cfg pcfg;
        struct fy_diag *diag = NULL;
        struct fy_parser *fyp = NULL;
        composer c;
        json_t *out = NULL;
        bool tabs = false, key_tab = false, breaks = false;

        memset(&c, 0, sizeof(c));
        c.lim = lim;
        c.flags = flags;
        c.err = err;
        c.sink = sink;
        c.sink_ctx = ctx;
        if (n > lim->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "YAML input of %zu bytes, limit %zu", n, lim->input_max);
                return NULL;
        }
        if (!check_bytes(p, n, &tabs, &breaks, err))
                return NULL;
        /* Only a document with a tab and a '?' can hold the pattern: most pay nothing more. */
        key_tab = tabs && memchr(p, '?', n) != NULL;
        if (key_tab && !prc_yaml_test_skip_key_tab_scan) {
                size_t tab = explicit_key_tab(p, n);
                if (tab != 0) {
                        raw_fail(p, tab, err, PRC_E_YAML_EXPLICIT_KEY_TAB,
                                 "a tab between a key's ':' and an indicator inside an explicit key ('? '), "
                                 "which libfyaml cannot parse safely", 0);
                        return NULL;
                }
        }
        if (out_pos == NULL && !tabs && !breaks && !prc_yaml_test_no_line_reader) {
                out = lr_load(&c, p, n);
                if (out != NULL) {
#if defined(PRC_TESTING) && PRC_TESTING
                        prc_yaml_test_line_reads++;
#endif
                        lr_tell(&c, out);
                }
                if (out != NULL || prc_err_is_set(err))
                        return out;
        }
        if (out_pos != NULL) {
                c.pos = calloc(1, sizeof(*c.pos));
                if (c.pos == NULL) {
                        prc_err_oom(err, "the position table");
                        return NULL;
                }
        }

        /*
         * Filled by hand: fy_diag_cfg_default asks isatty(stderr), an ioctl
         * the worker's seccomp allowlist need not grant.  Errors only, no
         * colour, to a function that drops the text (it is collected).
         */
        memset(&dcfg, 0, sizeof(dcfg));
        dcfg.fp = NULL;
        dcfg.output_fn = discard_diag;
        dcfg.level = FYET_ERROR;
        dcfg.module_mask = (1u << FYEM_MAX) - 1;
        dcfg.colorize = false;
        diag = fy_diag_create(&dcfg);
        if (diag == NULL) {
                prc_err_oom(err, "the YAML diagnostics");
                return NULL;
        }
        fy_diag_set_collect_errors(diag, true);
        memset(&pcfg, 0, sizeof(pcfg));
        /* JSON_NONE: the input is YAML whatever its name; JSON is a YAML subset anyway. */
        pcfg.flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_JSON_NONE;
        pcfg.diag = diag;
        fyp = fy_parser_create(&pcfg);
        c.in = n ? p : (const uint8_t *)empty;
        c.in_len = n;
        if (fyp == NULL || fy_parser_set_string(fyp, (const char *)c.in, n) != 0) {
                prc_err_oom(err, "the YAML parser");
                goto out;
        }
        for (;;) {
                struct fy_event *ev = fy_parser_parse(fyp);
                bool ok;
                if (ev == NULL) {
                        if (fy_parser_get_stream_error(fyp))
                                syntax_error(&c, diag);
                        break;
                }
                ok = on_event(&c, ev);
                fy_parser_event_free(fyp, ev);
                if (!ok)
                        break;
        }
        if (prc_err_is_set(err))
                goto out;
        if (c.depth != 0) {
                fail(&c, PRC_E_INTERNAL, "stream ended inside a collection");
                goto out;
        }
        /* An empty stream (no document, or only comments) is the null document. */
        out = c.have_root ? c.root : json_null();
        c.root = NULL;
        if (out_pos != NULL) {
                *out_pos = c.pos;
                c.pos = NULL;
        }
out:
        composer_clear(&c);
        /* However the loop ended: libfyaml may have met the tab while reading ahead. */
        if (fyp != NULL && key_tab && key_tab_error(diag)) {
                keep_parser_forever(fyp);
                if (out != NULL) {      /* never seen: the error ends the stream; a refusal all the same */
                        json_decref(out);
                        out = NULL;
                        if (out_pos != NULL) {
                                prc_yaml_pos_free(*out_pos);
                                *out_pos = NULL;
                        }
                        prc_err_set(err, PRC_E_YAML_SYNTAX, "cannot use tab for indentation of block entry");
                }
        } else {
                fy_parser_destroy(fyp);
        }
        fy_diag_destroy(diag);
        return out;
}
