/*
 * json_strict.h - strict JSON reader on jansson, and a field-table checker.
 *
 * Rules: the size cap is checked before parsing; the whole input must be
 * valid UTF-8 with no NUL; nesting is bounded (checked by a pre-scan, so
 * jansson's recursion never sees a deep input); duplicate keys are rejected
 * at every depth; floats and integers outside [-(2^53-1), 2^53-1] are
 * rejected unless the caller allows them; strings, keys and node counts are
 * bounded by prc_limits.  The result is a whole document or NULL.
 */
#ifndef PRC_JSON_STRICT_H
#define PRC_JSON_STRICT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

/*
 * Each flag only widens what the reader accepts: an input accepted without
 * one gives the same tree with it (the worker's kept verdict relies on it).
 */
enum {
        PRC_JSON_ALLOW_FLOAT = 1u << 0,   /* keep reals (e.g. vendor reports); records never do */
        PRC_JSON_ALLOW_UNSAFE_INT = 1u << 1,
        PRC_JSON_ALLOW_NUL = 1u << 2,     /* \u0000 inside strings */
};

/*
 * Parse one JSON value (any type at the top).  Returns a new reference
 * (transfers) or NULL with err set: input-too-large, invalid-utf8,
 * nul-byte, invalid-json, duplicate-field, depth-limit, nodes-limit,
 * scalar-limit, unsafe-number, out-of-memory.  err->off / line / col point
 * at the cause; err->ptr names the offending value when known.
 */
json_t *prc_json_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
        PRC_MUST_CHECK;

/*
 * prc_json_parse without its fast path: the same answer for every input
 * (prc_json_parse falls back to this for every refusal), only slower.  For
 * the differential fuzzer and tests.
 */
json_t *prc_json_parse_jansson(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
        PRC_MUST_CHECK;

/*
 * Check that a parsed tree stays within lim and flags (the post-parse half
 * of prc_json_parse; exported for documents built by other loaders).
 */
bool prc_json_check_tree(const json_t *v, const prc_limits *lim, unsigned flags, prc_err *err) PRC_MUST_CHECK;

/* Field table types: a bitmask, so a field may accept e.g. string or null. */
enum {
        PRC_JT_STRING = 1u << 0,
        PRC_JT_INT    = 1u << 1,
        PRC_JT_BOOL   = 1u << 2,
        PRC_JT_OBJECT = 1u << 3,
        PRC_JT_ARRAY  = 1u << 4,
        PRC_JT_NULL   = 1u << 5,
        PRC_JT_ANY    = 0x3f,
};

typedef struct prc_field {
        const char *name;
        unsigned    types;      /* PRC_JT_* mask */
        bool        required;
} prc_field;

/*
 * Check obj against a field table: it must be an object (not-an-object),
 * hold no key outside the table (unknown-field), every required key
 * (missing-field), and each key's type in its mask (wrong-type).  ptr is the
 * JSON pointer of obj ("" for the root); the error's ptr names the field.
 */
bool prc_json_fields(const json_t *obj, const char *ptr, const prc_field *fields, size_t nfields,
                     prc_err *err) PRC_MUST_CHECK;

/* Append "/" + escaped key (RFC 6901) to the pointer in out (cap bytes, always terminated). */
void prc_jptr_push(char *out, size_t cap, const char *key);
/* Append "/" + index. */
void prc_jptr_index(char *out, size_t cap, size_t index);

/*
 * jansson allocation guard.  prc installs jansson's allocator (nobody else
 * may call json_set_alloc_funcs) so that a failed allocation is never lost:
 * jansson itself may report it as a syntax error or not at all.  A loader
 * that builds a jansson tree calls _begin before and checks _failed after;
 * when it returns true the tree must be discarded as out-of-memory.  The
 * flag is per thread.  prc_json_parse does this itself.
 */
void prc_json_alloc_guard_begin(void);
bool prc_json_alloc_guard_failed(void);
/*
 * Document arena, per thread: from _begin to _end every jansson allocation
 * of this thread up to 2 KiB is carved from chunks (8 KiB, doubling to
 * 256 KiB) instead of taken from malloc, and each chunk is freed once every
 * block in it is (json_decref as ever, in any thread).  For a tree that is
 * built in one go and dropped whole: the client's reply documents, a
 * million small nodes a `prc sbom` run.  A node kept after its tree is
 * dropped keeps its whole chunk: copy what outlives the tree.  No-op where
 * a backend is set (the worker), and no backend may be set while an arena
 * tree is alive (its blocks would go to the backend's free).  Not nested.
 */
void prc_json_arena_begin(void);
void prc_json_arena_end(void);
/*
 * Where that allocator takes memory from (NULL, NULL: prc_malloc and free).
 * Process-wide and for good: the content worker points it at its
 * per-request arena (content/worker.c) before it builds any tree.
 */
void prc_json_alloc_backend(void *(*alloc)(size_t), void (*release)(void *));
/*
 * For a backend whose free is a no-op (the worker's arena): a place in it,
 * and giving back everything allocated after that place at once.
 * prc_json_parse marks before its fast path and rewinds when the fast path
 * gives up, after dropping its tree, so the jansson path that follows does
 * not need room for two trees.  Set both with the backend (NULL, NULL:
 * none); single-threaded use only, like the backend itself.
 */
typedef struct prc_json_mark {
        void    *block;
        size_t   used;
        uint64_t seq;
} prc_json_mark;
void prc_json_alloc_rewind_hooks(void (*mark)(prc_json_mark *m), void (*rewind)(const prc_json_mark *m));

/* The value of the four hex digits of a \u escape at p (avail bytes readable, no NUL needed), or -1. */
long prc_json_hex4(const uint8_t *p, size_t avail);

/*
 * The same tree: types, values, string bytes and member order (json_equal
 * ignores the order).  How the tests and the differential fuzzer compare
 * the fast path's tree with the jansson path's.
 */
bool prc_json_same(const json_t *a, const json_t *b);

/* Name of a jansson type for messages ("string", "integer", ...). */
const char *prc_json_type_name(const json_t *v);

#endif
