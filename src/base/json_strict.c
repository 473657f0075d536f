/*
 * json_strict.c - strict JSON reader (see json_strict.h for the rules).
 * Trust: input is hostile (adapter output, target JSON inside the worker).
 */
#include "base/json_strict.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/jcs.h"
#include "base/kept.h"
#include "base/utf8.h"

/* Pointer reconstruction stops here; the pre-scan caps real depth lower. */
enum { PRC_JSON_PTR_DEPTH = 1024 };

/*
 * Lexical pre-scan, before jansson allocates or recurses: bounds nesting,
 * finds the first NUL byte, and counts values so that a flat document of
 * millions of tiny values is refused before it is built (jansson spends
 * tens of bytes per value).  Strings are skipped honouring backslash
 * escapes, so brackets inside strings are not counted.  For valid JSON,
 * values = containers + strings + primitives - keys, and every key is
 * followed by exactly one ':' outside strings.  On invalid JSON the count
 * may be off, which is harmless: jansson refuses that input anyway.
 */
static bool prescan(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err)
{
        uint32_t depth = 0;
        uint64_t starts = 0, colons = 0;
        bool in_str = false;

        for (size_t i = 0; i < n; i++) {
                uint8_t c = p[i];

                if (c == 0)
                        return prc_err_at(err, PRC_E_NUL_BYTE, i, "NUL byte in JSON input");
                if (in_str) {
                        if (c == '\\' && i + 1 < n) {
                                if (p[i + 1] == 0)
                                        return prc_err_at(err, PRC_E_NUL_BYTE, i + 1, "NUL byte in JSON input");
                                i++;
                        } else if (c == '"') {
                                in_str = false;
                        }
                        continue;
                }
                if (c == '"') {
                        in_str = true;
                        starts++;
                } else if (c == '[' || c == '{') {
                        starts++;
                        if (++depth > lim->depth_max)
                                return prc_err_at(err, PRC_E_DEPTH_LIMIT, i,
                                                  "nesting deeper than %u", lim->depth_max);
                } else if ((c == ']' || c == '}') && depth > 0) {
                        depth--;
                } else if (c == ':') {
                        colons++;
                } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ']' &&
                           c != '}') {
                        uint8_t prev = i > 0 ? p[i - 1] : ' ';
                        /* first byte of a number or literal */
                        if (prev == ' ' || prev == '\t' || prev == '\n' || prev == '\r' || prev == ',' ||
                            prev == ':' || prev == '[' || prev == '{')
                                starts++;
                }
                if (starts > colons && starts - colons > lim->nodes_max)
                        return prc_err_at(err, PRC_E_NODES_LIMIT, i, "more than %u values", lim->nodes_max);
        }
        return true;
}

/*
 * JSON pointer of the last object key that ends at or before pos, for a
 * duplicate-key error (jansson reports the offset just past the duplicate
 * key but not where it sits).  p[0..pos) has already been accepted by
 * jansson and depth-bounded by prescan, so a plain token walk suffices;
 * a pointer longer than out is truncated like every prc pointer.
 */
struct plevel {
        bool   obj;
        bool   seg;     /* this level's segment is appended to out */
        size_t idx;     /* array: index of the current element */
        size_t mark;    /* strlen(out) before this level's segment */
};

long prc_json_hex4(const uint8_t *p, size_t avail)
{
        long v = 0;

        if (avail < 4)
                return -1;
        for (size_t k = 0; k < 4; k++) {
                uint8_t c = p[k];
                int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
                        c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                if (d < 0)
                        return -1;
                v = v << 4 | d;
        }
        return v;
}

static size_t key_decode(const uint8_t *p, size_t i, size_t end, char *out, size_t cap)
{
        size_t n = 0;

        /* p[i] is the opening quote; returns the index past the closing one. */
        for (i++; i < end && p[i] != '"'; i++) {
                uint32_t cp = p[i];
                uint8_t enc[4];
                size_t k;

                if (p[i] == '\\' && i + 1 < end) {
                        i++;
                        switch (p[i]) {
                        case 'b': cp = '\b'; break;
                        case 'f': cp = '\f'; break;
                        case 'n': cp = '\n'; break;
                        case 'r': cp = '\r'; break;
                        case 't': cp = '\t'; break;
                        case 'u': {
                                long hi = prc_json_hex4(p + i + 1, end - (i + 1)), lo;
                                if (hi < 0)
                                        break;
                                i += 4;
                                cp = (uint32_t)hi;
                                lo = i + 6 < end && p[i + 1] == '\\' && p[i + 2] == 'u'
                                             ? prc_json_hex4(p + i + 3, end - (i + 3))
                                             : -1;
                                if (hi >= 0xD800 && hi < 0xDC00 && lo >= 0xDC00 && lo < 0xE000) {
                                        cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                                        i += 6;
                                } else if (hi >= 0xD800 && hi < 0xE000) {
                                        cp = 0xFFFD;    /* jansson refuses these; be safe anyway */
                                }
                                break;
                        }
                        default: cp = p[i]; break;
                        }
                        k = prc_utf8_encode(cp, enc);
                        if (n + k < cap) {
                                memcpy(out + n, enc, k);
                                n += k;
                        }
                        continue;
                }
                if (n + 1 < cap)
                        out[n++] = (char)p[i];
        }
        out[n] = '\0';
        return i + 1;
}

static void ptr_at(const uint8_t *p, size_t pos, uint32_t depth_max, char *out, size_t cap)
{
        struct plevel st[PRC_JSON_PTR_DEPTH];
        size_t top = 0;         /* levels in use */
        bool want_key = false;

        out[0] = '\0';
        for (size_t i = 0; i < pos;) {
                uint8_t c = p[i];
                struct plevel *l = top > 0 ? &st[top - 1] : NULL;

                if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':') {
                        i++;
                        continue;
                }
                if (c == ',') {
                        if (l != NULL) {
                                out[l->mark] = '\0';
                                l->seg = false;
                                if (l->obj)
                                        want_key = true;
                                else
                                        l->idx++;
                        }
                        i++;
                        continue;
                }
                if (c == ']' || c == '}') {
                        if (l != NULL) {
                                out[l->mark] = '\0';
                                top--;
                        }
                        want_key = false;
                        i++;
                        continue;
                }
                if (c == '"' && want_key && l != NULL && l->obj) {
                        char key[128];
                        i = key_decode(p, i, pos, key, sizeof(key));
                        out[l->mark] = '\0';
                        prc_jptr_push(out, cap, key);
                        l->seg = true;
                        want_key = false;
                        continue;
                }
                /* The start of a value: an array element gets its index segment. */
                if (l != NULL && !l->obj && !l->seg) {
                        prc_jptr_index(out, cap, l->idx);
                        l->seg = true;
                }
                if (c == '[' || c == '{') {
                        if (top >= PRC_JSON_PTR_DEPTH || top >= depth_max)
                                return;         /* cannot happen after prescan; keep what we have */
                        st[top++] = (struct plevel){ .obj = c == '{', .mark = strlen(out) };
                        want_key = c == '{';
                        i++;
                        continue;
                }
                if (c == '"') {
                        char skip[2];
                        i = key_decode(p, i, pos, skip, sizeof(skip));
                        continue;
                }
                i++;            /* number or literal bytes */
        }
}

static prc_errclass map_jansson(enum json_error_code code)
{
        switch (code) {
        case json_error_out_of_memory:
                return PRC_E_OUT_OF_MEMORY;
        case json_error_duplicate_key:
                return PRC_E_DUPLICATE_FIELD;
        case json_error_invalid_utf8:
                return PRC_E_INVALID_UTF8;
        case json_error_null_character:
        case json_error_null_byte_in_key:
                return PRC_E_NUL_BYTE;
        case json_error_numeric_overflow:
                return PRC_E_UNSAFE_NUMBER;
        case json_error_stack_overflow:
                return PRC_E_DEPTH_LIMIT;
        default:
                return PRC_E_INVALID_JSON;
        }
}

const char *prc_json_type_name(const json_t *v)
{
        switch (json_typeof(v)) {
        case JSON_OBJECT: return "object";
        case JSON_ARRAY: return "array";
        case JSON_STRING: return "string";
        case JSON_INTEGER: return "integer";
        case JSON_REAL: return "float";
        case JSON_TRUE:
        case JSON_FALSE: return "boolean";
        case JSON_NULL: return "null";
        }
        return "unknown";
}

void prc_jptr_push(char *out, size_t cap, const char *key)
{
        size_t n = strnlen(out, cap);

        if (n + 1 >= cap)
                return;
        out[n++] = '/';
        for (const char *k = key; *k != '\0';) {
                unsigned char c = (unsigned char)*k;
                /* bytes this character needs: a long key is cut between characters, never inside one */
                size_t need = c == '~' || c == '/' ? 2 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

                if (n + need + 1 > cap)
                        break;
                if (c == '~' || c == '/') {
                        out[n++] = '~';
                        out[n++] = c == '~' ? '0' : '1';
                        k++;
                        continue;
                }
                for (size_t i = 0; i < need && *k != '\0'; i++)
                        out[n++] = *k++;
        }
        out[n] = '\0';
}

void prc_jptr_index(char *out, size_t cap, size_t index)
{
        size_t n = strnlen(out, cap);

        if (n + 1 < cap)
                snprintf(out + n, cap - n, "/%zu", index);
}

struct walk {
        const prc_limits *lim;
        unsigned          flags;
        uint64_t          nodes;
        uint32_t          depth;        /* containers open around the current value */
        char              ptr[128];
};

static bool walk(struct walk *w, const json_t *v, prc_err *err)
{
        size_t mark = strlen(w->ptr);

        if (++w->nodes > w->lim->nodes_max)
                goto nodes;
        /* Same count as the pre-scan: "[]" is depth 1.  Guards trees from other loaders. */
        if ((json_is_array(v) || json_is_object(v)) && w->depth >= w->lim->depth_max) {
                prc_err_set(err, PRC_E_DEPTH_LIMIT, "nesting deeper than %u", w->lim->depth_max);
                goto fail;
        }
        switch (json_typeof(v)) {
        case JSON_REAL:
                if (!(w->flags & PRC_JSON_ALLOW_FLOAT)) {
                        prc_err_set(err, PRC_E_UNSAFE_NUMBER, "floats are not allowed here");
                        goto fail;
                }
                break;
        case JSON_INTEGER: {
                json_int_t i = json_integer_value(v);
                if (!(w->flags & PRC_JSON_ALLOW_UNSAFE_INT) && (i > PRC_SAFE_INT_MAX || i < -PRC_SAFE_INT_MAX)) {
                        prc_err_set(err, PRC_E_UNSAFE_NUMBER, "integer outside [-(2^53-1), 2^53-1]");
                        goto fail;
                }
                break;
        }
        case JSON_STRING:
                if (json_string_length(v) > w->lim->scalar_max) {
                        prc_err_set(err, PRC_E_SCALAR_LIMIT, "string of %zu bytes exceeds %zu",
                                    json_string_length(v), w->lim->scalar_max);
                        goto fail;
                }
                break;
        case JSON_ARRAY: {
                size_t i;
                json_t *e;
                w->depth++;
                json_array_foreach(v, i, e) {
                        prc_jptr_index(w->ptr, sizeof(w->ptr), i);
                        if (!walk(w, e, err))
                                return false;
                        w->ptr[mark] = '\0';
                }
                w->depth--;
                break;
        }
        case JSON_OBJECT: {
                const char *k;
                size_t klen;
                json_t *e;
                if (json_object_size(v) > w->lim->keys_max) {
                        prc_err_set(err, PRC_E_NODES_LIMIT, "object with %zu keys exceeds %u",
                                    json_object_size(v), w->lim->keys_max);
                        goto fail;
                }
                w->depth++;
                json_object_keylen_foreach((json_t *)v, k, klen, e) {
                        prc_jptr_push(w->ptr, sizeof(w->ptr), k);
                        if (klen > w->lim->scalar_max) {
                                prc_err_set(err, PRC_E_SCALAR_LIMIT, "key of %zu bytes exceeds %zu",
                                            klen, w->lim->scalar_max);
                                goto fail;
                        }
                        if (!walk(w, e, err))
                                return false;
                        w->ptr[mark] = '\0';
                }
                w->depth--;
                break;
        }
        default:
                break;
        }
        return true;
nodes:
        prc_err_set(err, PRC_E_NODES_LIMIT, "more than %u values", w->lim->nodes_max);
fail:
        /* RFC 6901: the root is "", which leaves err->ptr empty (the whole document). */
        prc_err_set_ptr(err, w->ptr);
        return false;
}

bool prc_json_check_tree(const json_t *v, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct walk w = { .lim = lim, .flags = flags };

        return walk(&w, v, err);
}

/*
 * jansson's allocator.  jansson 2.14 does not report allocation failure
 * reliably: measured with fault injection, a failed allocation inside
 * json_loadb surfaces as a syntax error ("invalid token"), as an error with
 * no message, or even as a successful parse of a document that differs from
 * the input.  So prc installs its own allocator, which records any failure
 * in a thread-local flag; a parse during which an allocation failed is
 * discarded and reported as out-of-memory.  It allocates through prc_malloc,
 * so test builds can inject faults into jansson too.
 */
static _Thread_local bool jalloc_failed;
static pthread_once_t jalloc_once = PTHREAD_ONCE_INIT;
static void *(*jback_alloc)(size_t);   /* NULL: prc_malloc and free (prc_json_alloc_backend) */
static void (*jback_free)(void *);

/*
 * Document arenas (prc_json_arena_begin).  A block is a header ending with
 * the chunk it is in (DARENA_HDR bytes), then the caller's bytes, which
 * start 8 bytes past a multiple of 16: malloc never returns such an address (glibc's alignment
 * is 16; jalloc makes sure of it), so jfree tells an arena block from a
 * malloc'd one by its address alone, and jansson's types need no more than
 * 8.  A chunk counts its blocks not yet freed, plus a bias while a thread
 * still hands blocks out of it; whoever takes the count to zero (the last
 * free, in any thread, or the end of the build) frees the chunk.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PRC_DARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRC_DARENA_ASAN 1
#endif
#endif
#ifdef PRC_DARENA_ASAN
/*
 * The sanitizer runtime's (gcc ships no header for it).  A block is
 * poisoned from its free until its chunk is (and a chunk's room until it is
 * handed out), so a use after free inside a chunk is still caught; the
 * header then also holds the block's size.
 */
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
enum { DARENA_HDR = 24 };       /* size, 8 bytes of nothing, chunk */
#else
#define __asan_poison_memory_region(p, n) ((void)(p), (void)(n))
#define __asan_unpoison_memory_region(p, n) ((void)(p), (void)(n))
enum { DARENA_HDR = 8 };        /* chunk */
#endif
enum {
        DARENA_FIRST = 8u << 10,        /* first chunk of a document: most are small */
        DARENA_MAX   = 256u << 10,      /* chunks double up to this */
        DARENA_BIG   = 2u << 10,        /* larger blocks (long strings, big arrays' storage): malloc */
};
#define DARENA_BIAS ((size_t)1 << 62)

typedef struct dchunk {
        _Atomic size_t live;
        size_t         cap;             /* bytes of data */
        max_align_t    data[];
} dchunk;

_Static_assert(offsetof(dchunk, data) % 16 == 0 && DARENA_HDR % 16 == 8, "a block's bytes start 8 past a multiple of 16");

static _Thread_local struct {
        bool    on;
        dchunk *cur;
        size_t  used, cap, made;        /* of cur: bytes used, bytes of data, blocks handed out */
        size_t  next_cap;
} darena;

static void jalloc_install(void);

static void dchunk_put(dchunk *c, size_t n)
{
        if (atomic_fetch_sub_explicit(&c->live, n, memory_order_acq_rel) == n) {
                __asan_unpoison_memory_region(c, sizeof(*c) + c->cap);
                free(c);
        }
}

/* Stop handing out blocks of the current chunk: its count is now its live blocks. */
static void darena_retire(void)
{
        if (darena.cur != NULL)
                dchunk_put(darena.cur, DARENA_BIAS - darena.made);
        darena.cur = NULL;
}

static void *darena_alloc(size_t n)
{
        size_t need = (DARENA_HDR + n + 15) & ~(size_t)15;
        uint8_t *b;

        if (darena.cur == NULL || darena.cap - darena.used < need) {
                size_t cap = darena.next_cap;
                dchunk *c = prc_malloc(sizeof(dchunk) + cap);
                if (c == NULL)
                        return NULL;
                darena_retire();
                atomic_init(&c->live, DARENA_BIAS);
                c->cap = cap;
                __asan_poison_memory_region(c->data, cap);
                darena.cur = c;
                darena.used = darena.made = 0;
                darena.cap = cap;
                darena.next_cap = cap < DARENA_MAX ? 2 * cap : DARENA_MAX;
        }
        b = (uint8_t *)darena.cur->data + darena.used;
        __asan_unpoison_memory_region(b, DARENA_HDR + n);
        memcpy(b + DARENA_HDR - sizeof(dchunk *), &darena.cur, sizeof(dchunk *));
#ifdef PRC_DARENA_ASAN
        memcpy(b, &n, sizeof(n));
#endif
        darena.used += need;
        darena.made++;
        return b + DARENA_HDR;
}

/* Give back a block of the document arena. */
static void darena_free(void *p)
{
        uint8_t *b = (uint8_t *)p - DARENA_HDR;
        dchunk *c;

        memcpy(&c, b + DARENA_HDR - sizeof(dchunk *), sizeof(c));
#ifdef PRC_DARENA_ASAN
        {
                size_t n;
                memcpy(&n, b, sizeof(n));
                __asan_poison_memory_region(b, DARENA_HDR + n);
        }
#endif
        dchunk_put(c, 1);
}

void prc_json_arena_begin(void)
{
        (void)pthread_once(&jalloc_once, jalloc_install);
        darena.on = jback_alloc == NULL;        /* the worker's own arena takes everything */
        darena.next_cap = DARENA_FIRST;
}

void prc_json_arena_end(void)
{
        darena_retire();
        darena.on = false;
}

static void *jalloc_slow(size_t n);

/*
 * jansson's every allocation (a million a large lockfile): the backend's
 * path kept apart from the arena's and malloc's, which need registers
 * saved around their calls; inlined together, every call paid for them.
 */
static void *jalloc(size_t n)
{
        if (jback_alloc != NULL) {
                void *p = jback_alloc(n);

                if (p == NULL)
                        jalloc_failed = true;
                return p;
        }
        return jalloc_slow(n);
}

PRC_NOINLINE static void *jalloc_slow(size_t n)
{
        void *p;

        if (darena.on && n <= DARENA_BIG) {
                p = darena_alloc(n);
        } else {
                p = prc_malloc(n);
                if (p != NULL && ((uintptr_t)p & 15) != 0) {
                        /* Not glibc's alignment: jfree would take it for an arena block. */
                        free(p);
                        p = aligned_alloc(16, (n + 15) & ~(size_t)15);
                }
        }
        if (p == NULL)
                jalloc_failed = true;
        return p;
}

static void jfree(void *p)
{
        if (jback_free != NULL) {
                jback_free(p);
        } else if (((uintptr_t)p & 15) == 8) {
                darena_free(p);
        } else {
                free(p);
        }
}

static void jalloc_install(void)
{
        json_set_alloc_funcs(jalloc, jfree);
}

static void (*jmark)(prc_json_mark *);        /* prc_json_alloc_rewind_hooks */
static void (*jrewind)(const prc_json_mark *);

void prc_json_alloc_rewind_hooks(void (*mark)(prc_json_mark *m), void (*rewind)(const prc_json_mark *m))
{
        jmark = mark;
        jrewind = rewind;
}

void prc_json_alloc_backend(void *(*alloc)(size_t), void (*release)(void *))
{
        (void)pthread_once(&jalloc_once, jalloc_install);
        jback_alloc = alloc;
        jback_free = release;
        jalloc_install();
}

void prc_json_alloc_guard_begin(void)
{
        json_malloc_t m;
        json_free_t f;

        (void)pthread_once(&jalloc_once, jalloc_install);
        json_get_alloc_funcs(&m, &f);
        if (m != jalloc)        /* somebody replaced it: take it back, failures must be seen */
                jalloc_install();
        jalloc_failed = false;
}

bool prc_json_alloc_guard_failed(void)
{
        return jalloc_failed;
}

/*
 * The fast path.  jansson's reader spends most of a lockfile's extraction
 * (a callback per byte, a second pass per string, a lookup per key for
 * duplicates), and the pre-scan and the tree walk read everything twice
 * more.  This one-pass reader builds the same jansson tree from the bytes
 * in place, checking every rule of the strict reader as it goes.  It only
 * ever accepts: on anything it does not take for certain (any refusal,
 * and also every real, every integer outside the safe range, every \u0000)
 * it bails, and prc_json_parse runs the jansson path from the start, so
 * every refusal keeps its class, offset, line and pointer, and a document
 * this path accepts is one the jansson path accepts as the same tree
 * (fuzz/fuzz_json.c checks that on every input).
 */
enum fp_rc { FP_OK, FP_BAIL, FP_OOM };

struct fp {
        const uint8_t    *p, *end;      /* the cursor and the input's end */
        const prc_limits *lim;
        uint32_t          depth_max;
        uint64_t          nodes;
        char             *scratch;      /* owned: unescaped strings, used as a stack (offsets) */
        size_t            slen, scap;
};

/* Bytes a string's scan stops at: the quote, a backslash, controls and every non-ASCII byte. */
static const uint8_t fp_stop[256] = {
        [0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 1,
};

static void fp_ws(struct fp *f)
{
        while (f->p < f->end && (*f->p == ' ' || *f->p == '\n' || *f->p == '\t' || *f->p == '\r'))
                f->p++;
}

static enum fp_rc fp_scratch_put(struct fp *f, const void *b, size_t k)
{
        if (k == 0)
                return FP_OK;   /* memcpy from or to NULL is undefined even for 0 bytes */
        if (f->scap - f->slen < k) {
                size_t cap = f->scap ? f->scap : 256;
                char *q;

                while (cap - f->slen < k)
                        cap *= 2;
                q = prc_realloc(f->scratch, cap);
                if (q == NULL)
                        return FP_OOM;
                f->scratch = q;
                f->scap = cap;
        }
        memcpy(f->scratch + f->slen, b, k);
        f->slen += k;
        return FP_OK;
}

/*
 * The string at f->p (after its opening quote), up to its closing quote.
 * Without escapes *out points into the input; with them, into the scratch
 * stack at *soff (the caller pops it).  Valid UTF-8, no control byte, no
 * \u0000, no lone surrogate; at most scalar_max bytes once unescaped.
 */
static enum fp_rc fp_string(struct fp *f, const char **out, size_t *out_len, size_t *soff)
{
        const uint8_t *run = f->p;
        bool esc = false;
        enum fp_rc rc;

        *soff = f->slen;
        for (;;) {
                const uint8_t *q = f->p;
                uint32_t cp;
                size_t k;

                while (q < f->end && !fp_stop[*q])
                        q++;
                f->p = q;
                if (q >= f->end)
                        return FP_BAIL;
                if (*q == '"')
                        break;
                if (*q >= 0x80) {
                        k = prc_utf8_decode(q, (size_t)(f->end - q), &cp);
                        if (k == 0)
                                return FP_BAIL;
                        f->p = q + k;
                        continue;
                }
                if (*q != '\\')
                        return FP_BAIL;         /* a control byte */
                /* An escape: what came before it goes to the scratch stack, then its value. */
                esc = true;
                if ((rc = fp_scratch_put(f, run, (size_t)(q - run))) != FP_OK)
                        return rc;
                if (q + 1 >= f->end)
                        return FP_BAIL;
                switch (q[1]) {
                case '"': case '\\': case '/': cp = q[1]; break;
                case 'b': cp = '\b'; break;
                case 'f': cp = '\f'; break;
                case 'n': cp = '\n'; break;
                case 'r': cp = '\r'; break;
                case 't': cp = '\t'; break;
                case 'u': {
                        long hi = prc_json_hex4(q + 2, (size_t)(f->end - (q + 2))), lo;

                        if (hi <= 0 || (hi >= 0xDC00 && hi < 0xE000))
                                return FP_BAIL;         /* \u0000 (the jansson path decides), a lone low half */
                        cp = (uint32_t)hi;
                        if (hi >= 0xD800 && hi < 0xDC00) {
                                if (f->end - (q + 6) < 6 || q[6] != '\\' || q[7] != 'u')
                                        return FP_BAIL;
                                lo = prc_json_hex4(q + 8, (size_t)(f->end - (q + 8)));
                                if (lo < 0xDC00 || lo >= 0xE000)
                                        return FP_BAIL;
                                cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                                q += 6;
                        }
                        q += 4;
                        break;
                }
                default:
                        return FP_BAIL;
                }
                {
                        uint8_t enc[4];

                        k = prc_utf8_encode(cp, enc);
                        if ((rc = fp_scratch_put(f, enc, k)) != FP_OK)
                                return rc;
                }
                f->p = q + 2;
                run = f->p;
        }
        if (esc) {
                if ((rc = fp_scratch_put(f, run, (size_t)(f->p - run))) != FP_OK)
                        return rc;
                *out_len = f->slen - *soff;
                *out = NULL;            /* the caller reads it from the scratch stack (it may move) */
        } else {
                *out = (const char *)run;
                *out_len = (size_t)(f->p - run);
        }
        f->p++;                 /* the closing quote */
        return *out_len > f->lim->scalar_max ? FP_BAIL : FP_OK;
}

/* An integer in the safe range, as jansson writes it ("-0" is 0); anything else bails. */
static enum fp_rc fp_number(struct fp *f, json_t **out)
{
        const uint8_t *q = f->p;
        bool neg = q < f->end && *q == '-';
        uint64_t v = 0;
        size_t digits = 0;

        q += neg;
        if (q >= f->end || *q < '0' || *q > '9')
                return FP_BAIL;
        if (*q == '0') {
                q++;
        } else {
                /* 16 digits hold 2^53 - 1; a longer one bails before it can overflow. */
                for (; q < f->end && *q >= '0' && *q <= '9'; q++)
                        if (++digits > 16)
                                return FP_BAIL;
                        else
                                v = v * 10 + (uint64_t)(*q - '0');
        }
        if (v > PRC_SAFE_INT_MAX || (q < f->end && (*q == '.' || *q == 'e' || *q == 'E' || (*q >= '0' && *q <= '9'))))
                return FP_BAIL;
        f->p = q;
        *out = json_integer(neg ? -(json_int_t)v : (json_int_t)v);
        return *out != NULL ? FP_OK : FP_OOM;
}

static enum fp_rc fp_value(struct fp *f, uint32_t depth, json_t **out);

static enum fp_rc fp_array(struct fp *f, uint32_t depth, json_t *a)
{
        enum fp_rc rc;

        fp_ws(f);
        if (f->p < f->end && *f->p == ']') {
                f->p++;
                return FP_OK;
        }
        for (;;) {
                json_t *e;

                if ((rc = fp_value(f, depth, &e)) != FP_OK)
                        return rc;
                if (json_array_append_new(a, e) != 0)
                        return FP_OOM;
                fp_ws(f);
                if (f->p >= f->end)
                        return FP_BAIL;
                if (*f->p == ']') {
                        f->p++;
                        return FP_OK;
                }
                if (*f->p++ != ',')
                        return FP_BAIL;
                fp_ws(f);
        }
}

static enum fp_rc fp_object(struct fp *f, uint32_t depth, json_t *o)
{
        enum fp_rc rc;

        fp_ws(f);
        if (f->p < f->end && *f->p == '}') {
                f->p++;
                return FP_OK;
        }
        for (;;) {
                const char *k;
                size_t klen, soff, size = json_object_size(o);
                json_t *e;

                if (f->p >= f->end || *f->p != '"')
                        return FP_BAIL;
                f->p++;
                if ((rc = fp_string(f, &k, &klen, &soff)) != FP_OK)
                        return rc;
                fp_ws(f);
                if (f->p >= f->end || *f->p++ != ':')
                        return FP_BAIL;
                fp_ws(f);
                if ((rc = fp_value(f, depth, &e)) != FP_OK)
                        return rc;
                /* An unescaped key sits on the scratch stack below whatever the value pushed. */
                if (json_object_setn_new_nocheck(o, k != NULL ? k : f->scratch + soff, klen, e) != 0)
                        return FP_OOM;
                f->slen = soff;
                /* A key seen before replaces its value and leaves the size: a duplicate. */
                if (json_object_size(o) == size || json_object_size(o) > f->lim->keys_max)
                        return FP_BAIL;
                fp_ws(f);
                if (f->p >= f->end)
                        return FP_BAIL;
                if (*f->p == '}') {
                        f->p++;
                        return FP_OK;
                }
                if (*f->p++ != ',')
                        return FP_BAIL;
                fp_ws(f);
        }
}

static enum fp_rc fp_literal(struct fp *f, const char *lit, size_t k, json_t *v, json_t **out)
{
        if ((size_t)(f->end - f->p) < k || memcmp(f->p, lit, k) != 0)
                return FP_BAIL;
        f->p += k;
        *out = v;
        return FP_OK;
}

/* One value at f->p (no whitespace before it); *out is a new reference on FP_OK only. */
static enum fp_rc fp_value(struct fp *f, uint32_t depth, json_t **out)
{
        const char *s;
        size_t len, soff;
        enum fp_rc rc;
        json_t *c;

        if (++f->nodes > f->lim->nodes_max || f->p >= f->end)
                return FP_BAIL;
        switch (*f->p) {
        case '"':
                f->p++;
                if ((rc = fp_string(f, &s, &len, &soff)) != FP_OK)
                        return rc;
                *out = json_stringn_nocheck(s != NULL ? s : f->scratch + soff, len);
                f->slen = soff;
                return *out != NULL ? FP_OK : FP_OOM;
        case '[':
        case '{':
                if (depth >= f->depth_max)
                        return FP_BAIL;
                c = *f->p == '[' ? json_array() : json_object();
                if (c == NULL)
                        return FP_OOM;
                f->p++;
                rc = json_is_array(c) ? fp_array(f, depth + 1, c) : fp_object(f, depth + 1, c);
                if (rc != FP_OK) {
                        json_decref(c);
                        return rc;
                }
                *out = c;
                return FP_OK;
        case 't':
                return fp_literal(f, "true", 4, json_true(), out);
        case 'f':
                return fp_literal(f, "false", 5, json_false(), out);
        case 'n':
                return fp_literal(f, "null", 4, json_null(), out);
        default:
                return fp_number(f, out);
        }
}

static enum fp_rc fast_parse(const uint8_t *p, size_t n, const prc_limits *lim, json_t **out)
{
        struct fp f = { .p = p, .end = p + n, .lim = lim };
        enum fp_rc rc;
        json_t *v = NULL;

        /* jansson's own nesting bound is JSON_PARSER_MAX_DEPTH; "[]" is depth 1, as in the pre-scan. */
        f.depth_max = lim->depth_max < JSON_PARSER_MAX_DEPTH ? lim->depth_max : JSON_PARSER_MAX_DEPTH;
        fp_ws(&f);
        rc = fp_value(&f, 0, &v);
        if (rc == FP_OK) {
                fp_ws(&f);
                if (f.p != f.end)
                        rc = FP_BAIL;
        }
        free(f.scratch);
        if (rc != FP_OK) {
                json_decref(v);
                return rc;
        }
        *out = v;
        return FP_OK;
}

/* The jansson path: pre-scan, json_loadb, the tree walk.  Every refusal is decided here. */
static json_t *parse_jansson(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        json_error_t je;
        json_t *v;
        size_t bad;
        size_t jflags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES;

        if (n > lim->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "input of %zu bytes exceeds %zu", n, lim->input_max);
                return NULL;
        }
        if (!prc_utf8_valid(p, n, &bad)) {
                prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 at byte %zu", bad);
                return NULL;
        }
        if (!prescan(p, n, lim, err))
                return NULL;
        if (flags & PRC_JSON_ALLOW_NUL)
                jflags |= JSON_ALLOW_NUL;
        prc_json_alloc_guard_begin();
        v = json_loadb(n ? (const char *)p : "", n, jflags, &je);
        if (prc_json_alloc_guard_failed()) {
                json_decref(v);
                prc_err_oom(err, "a JSON document");
                return NULL;
        }
        if (v == NULL) {
                prc_errclass cls = map_jansson(json_error_code(&je));

                prc_err_at(err, cls, (uint64_t)je.position, "%s", je.text);
                if (je.line > 0)
                        prc_err_set_line(err, (uint32_t)je.line, je.column > 0 ? (uint32_t)je.column : 0);
                if (cls == PRC_E_DUPLICATE_FIELD && je.position > 0 && (size_t)je.position <= n) {
                        char ptr[sizeof(err->ptr)];
                        ptr_at(p, (size_t)je.position, lim->depth_max, ptr, sizeof(ptr));
                        prc_err_set_ptr(err, ptr);
                }
                return NULL;
        }
        if (!prc_json_check_tree(v, lim, flags, err)) {
                json_decref(v);
                return NULL;
        }
        return v;
}

json_t *prc_json_parse_jansson(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        return parse_jansson(p, n, lim, flags, err);
}

json_t *prc_json_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        json_t *v = NULL;
        size_t bad;
        enum fp_rc rc;
        prc_json_mark m = { 0 };
        bool marked = jmark != NULL && jrewind != NULL;

        /*
         * The worker's verdict of these very bytes, under these limits and
         * flags or fewer, made the tree already: each flag only lets more
         * inputs in (fuzz/fuzz_json.c holds every accepted tree to the one
         * all flags give).
         */
        if ((v = prc_kept_take_within(PRC_KEPT_JSON, p, n, lim, flags)) != NULL)
                return v;
        if (n > lim->input_max)
                return parse_jansson(p, n, lim, flags, err);
        prc_json_alloc_guard_begin();
        if (marked)
                jmark(&m);
        rc = fast_parse(n ? p : (const uint8_t *)"", n, lim, &v);
        if (rc == FP_OK && !prc_json_alloc_guard_failed())
                return v;
        json_decref(v);
        /* Nothing of the fast path's tree is alive: its memory goes back before the jansson path builds. */
        if (marked)
                jrewind(&m);
        if (rc == FP_BAIL && !prc_json_alloc_guard_failed())
                return parse_jansson(p, n, lim, flags, err);
        /* Out of memory: the jansson path's answer, whose checks before its first allocation come first. */
        if (!prc_utf8_valid(p, n, &bad))
                return prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 at byte %zu", bad), NULL;
        if (!prescan(p, n, lim, err))
                return NULL;
        prc_err_oom(err, "a JSON document");
        return NULL;
}

/*
 * A hostile key for a message: at most cap-1 bytes, cut on a UTF-8 boundary
 * with "..." when long (err.c replaces control characters).
 */
static void quote_key(const char *k, char *out, size_t cap)
{
        size_t n = strlen(k), keep = n;

        if (n + 1 > cap) {
                keep = cap - 4;
                while (keep > 0 && ((unsigned char)k[keep] & 0xC0) == 0x80)
                        keep--;
        }
        snprintf(out, cap, "%.*s%s", (int)keep, k, keep < n ? "..." : "");
}

static bool type_ok(const json_t *v, unsigned types)
{
        switch (json_typeof(v)) {
        case JSON_STRING: return types & PRC_JT_STRING;
        case JSON_INTEGER: return types & PRC_JT_INT;
        case JSON_TRUE:
        case JSON_FALSE: return types & PRC_JT_BOOL;
        case JSON_OBJECT: return types & PRC_JT_OBJECT;
        case JSON_ARRAY: return types & PRC_JT_ARRAY;
        case JSON_NULL: return types & PRC_JT_NULL;
        case JSON_REAL: return false;
        }
        return false;
}

bool prc_json_fields(const json_t *obj, const char *ptr, const prc_field *fields, size_t nfields, prc_err *err)
{
        const char *k;
        json_t *v;
        char fp[128];

        if (!json_is_object(obj)) {
                prc_err_set(err, PRC_E_NOT_AN_OBJECT, "expected an object, got %s", prc_json_type_name(obj));
                prc_err_set_ptr(err, ptr);
                return false;
        }
        /* Unknown keys first, in the object's own order, so the first bad key is reported. */
        json_object_foreach((json_t *)obj, k, v) {
                size_t i;
                for (i = 0; i < nfields; i++)
                        if (strcmp(fields[i].name, k) == 0)
                                break;
                snprintf(fp, sizeof(fp), "%s", ptr);
                prc_jptr_push(fp, sizeof(fp), k);
                if (i == nfields) {
                        char q[80];
                        quote_key(k, q, sizeof(q));
                        prc_err_set(err, PRC_E_UNKNOWN_FIELD, "unknown field '%s'", q);
                        prc_err_set_ptr(err, fp);
                        return false;
                }
                if (!type_ok(v, fields[i].types)) {
                        char q[80];
                        quote_key(k, q, sizeof(q));
                        prc_err_set(err, PRC_E_WRONG_TYPE, "field '%s' has type %s", q, prc_json_type_name(v));
                        prc_err_set_ptr(err, fp);
                        return false;
                }
        }
        for (size_t i = 0; i < nfields; i++) {
                if (fields[i].required && json_object_get(obj, fields[i].name) == NULL) {
                        snprintf(fp, sizeof(fp), "%s", ptr);
                        prc_jptr_push(fp, sizeof(fp), fields[i].name);
                        prc_err_set(err, PRC_E_MISSING_FIELD, "missing field '%s'", fields[i].name);
                        prc_err_set_ptr(err, fp);
                        return false;
                }
        }
        return true;
}

/* Exact equality, member order included (json_strict.h). */
bool prc_json_same(const json_t *a, const json_t *b)
{
        if (json_typeof(a) != json_typeof(b))
                return false;
        switch (json_typeof(a)) {
        case JSON_STRING:
                return json_string_length(a) == json_string_length(b) &&
                       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
        case JSON_INTEGER:
                return json_integer_value(a) == json_integer_value(b);
        case JSON_REAL:
                return memcmp(&(double){ json_real_value(a) }, &(double){ json_real_value(b) }, sizeof(double)) == 0;
        case JSON_ARRAY:
                if (json_array_size(a) != json_array_size(b))
                        return false;
                for (size_t i = 0; i < json_array_size(a); i++)
                        if (!prc_json_same(json_array_get(a, i), json_array_get(b, i)))
                                return false;
                return true;
        case JSON_OBJECT: {
                void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
                if (json_object_size(a) != json_object_size(b))
                        return false;
                for (; ia != NULL && ib != NULL;
                     ia = json_object_iter_next((json_t *)a, ia), ib = json_object_iter_next((json_t *)b, ib))
                        if (json_object_iter_key_len(ia) != json_object_iter_key_len(ib) ||
                            memcmp(json_object_iter_key(ia), json_object_iter_key(ib), json_object_iter_key_len(ia)) ||
                            !prc_json_same(json_object_iter_value(ia), json_object_iter_value(ib)))
                                return false;
                return ia == NULL && ib == NULL;
        }
        default:
                return true;
        }
}
