/*
 * yaml.h - bounded YAML loader on libfyaml's event API.
 *
 * Produces the same data model as the strict JSON reader (jansson values:
 * objects, arrays, strings, integers, booleans, null), resolving plain
 * scalars with the YAML 1.2 core schema.  prc composes the events itself so
 * that every limit is counted in its own code: total nodes, aliases, alias
 * expansion (an alias counts every node it stands for), nesting depth,
 * merge-key entries, scalar bytes, exactly one document.  Duplicate keys are
 * rejected, including keys that arrive through a merge (an explicit key
 * overriding a merged one is allowed, as YAML's merge rules say).
 * Floats are refused unless PRC_YAML_ALLOW_FLOAT (then kept as reals);
 * .inf and .nan are always refused.  Keys become strings (plain null, bool
 * and integer keys by their canonical text, other scalars as written);
 * collection keys and tags outside the core schema are refused.  An empty
 * stream is the null document.  The result is a whole document or NULL.
 * The rules and their reasons: docs/yaml.md.
 */
#ifndef PRC_YAML_H
#define PRC_YAML_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

enum {
        PRC_YAML_ALLOW_FLOAT = 1u << 0,    /* core-schema floats become reals (never .inf/.nan) */
        /*
         * Core-schema floats (and .inf/.nan) stay strings, spelled as written:
         * for callers that read values as text and need canonical JSON, e.g.
         * workflow matrices where `python-version: 3.10` means "3.10", not
         * 3.1.  Takes precedence over PRC_YAML_ALLOW_FLOAT.
         */
        PRC_YAML_FLOAT_AS_STRING = 1u << 1,
};

/*
 * Load exactly one YAML document from p[0..n) (p may be NULL when n is 0).
 * err must be initialized (prc_err_init).  Returns a new reference
 * (transfers; aliased subtrees are shared references inside it, so treat
 * the tree as read-only) or NULL with err set: the yaml-* classes,
 * input-too-large, invalid-utf8, nul-byte, depth-limit, nodes-limit,
 * scalar-limit, duplicate-field, unsafe-number, out-of-memory; err->line,
 * err->col and err->off locate the cause, err->ptr names the value when
 * the cause is inside the tree.  libfyaml never writes to stderr.
 */
json_t *prc_yaml_load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

/* A table of the places of a document's nodes (prc_yaml_load_pos below). */
typedef struct prc_yaml_pos prc_yaml_pos;

/*
 * The decoder the loader uses for single-quoted scalars (libfyaml's own text
 * for them cannot be trusted, docs/yaml.md): p[start..end) is the inside of
 * one, after its opening quote and up to its closing quote.  Writes the
 * value, at most end - start bytes, to d and its length to *outn.  False if
 * the bytes hold a lone quote (libfyaml would not have ended the scalar
 * there).  Exposed for the differential test against libfyaml.
 */
bool prc_yaml_squote_decode(const uint8_t *p, size_t start, size_t end, char *d, size_t *outn);

/*
 * The same for double-quoted scalars (YAML 1.2 7.3.1: escapes, escaped line
 * breaks, folding): writes at most (end - start) * 3 / 2 + 2 bytes (\L and
 * \P are 3 bytes for 2).  False on a lone quote or an escape YAML does not
 * have (libfyaml refuses both first).  A \0 escape writes a NUL byte, which
 * the loader then refuses.
 */
bool prc_yaml_dquote_decode(const uint8_t *p, size_t start, size_t end, char *d, size_t *outn);
/* The same for a plain scalar p[start..end) (7.3.3: it folds as a single-quoted one): at most end - start bytes. */
bool prc_yaml_plain_decode(const uint8_t *p, size_t start, size_t end, char *d, size_t *outn);

/*
 * An observer of the composer (the content worker's streaming reply,
 * src/content/yaml_stream.c): told each piece of the document in document
 * order once the composer has accepted it: a collection opens, a key
 * (its final text, after the duplicate check), a value (a scalar, or the
 * whole tree an alias stands for), a collection closes.  Borrowed
 * arguments, valid for the call.  A hook that returns false is told
 * nothing more; neither that nor anything else a sink does changes the
 * composer's result.  A `<<` merge key reorders its mapping after the
 * fact, so on one the composer calls abandon (if set) and then stops
 * telling the sink anything: the sink's output is then incomplete, and the
 * returned tree is the document.  Nesting of the calls is the tree's.
 */
typedef struct prc_yaml_sink {
        bool (*open)(void *ctx, bool map);
        bool (*key)(void *ctx, const char *k, size_t n);
        bool (*value)(void *ctx, const json_t *v);
        bool (*close)(void *ctx);
        void (*abandon)(void *ctx, const char *why);
} prc_yaml_sink;

/*
 * prc_yaml_load, with sink told the document as it is composed (sink NULL:
 * exactly prc_yaml_load), and positions as prc_yaml_load_pos makes them
 * when out_pos is not NULL.
 */
json_t *prc_yaml_load_sink(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                           const prc_yaml_sink *sink, void *ctx, prc_yaml_pos **out_pos, prc_err *err);

/*
 * Positions: prc_yaml_load, plus a table giving the place of every node the
 * stream states (its first character, 1-based line and column) and, for a
 * mapping member, of its key.  Nodes are found by id: the root, then a
 * member by key or an element by index under a collection's id.  The nodes
 * an alias stands for, and keys a `<<` merge brings in, have no entry of
 * their own (lookups return 0): callers use the alias's or the mapping's.
 * The table costs one entry per node, bounded like the nodes themselves;
 * prc_yaml_load builds none.
 */
enum {
        PRC_YAML_STYLE_PLAIN, PRC_YAML_STYLE_SINGLE, PRC_YAML_STYLE_DOUBLE,
        PRC_YAML_STYLE_LITERAL, PRC_YAML_STYLE_FOLDED,  /* block scalars */
        PRC_YAML_STYLE_ALIAS, PRC_YAML_STYLE_MAP, PRC_YAML_STYLE_SEQ,
};

typedef struct prc_yaml_at {
        /*
         * Where the node starts.  A block scalar starts on the line after
         * its '|' or '>' header (where its content, leading empty lines
         * included, begins), column 1: a literal's line k is line + k - 1.
         */
        uint32_t line, col;
        uint32_t key_line, key_col;     /* a mapping member's key; 0 elsewhere */
        int      style;                 /* PRC_YAML_STYLE_* */
} prc_yaml_at;

/* prc_yaml_load and, on success only, *out_pos (transfers; free with prc_yaml_pos_free). */
json_t *prc_yaml_load_pos(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                          prc_yaml_pos **out_pos, prc_err *err);
void prc_yaml_pos_free(prc_yaml_pos *t);

/*
 * One composition for two readers of the same bytes: the content worker's
 * verdict parse before an extraction (PRC_REQ_PARSE_FIRST) composes the
 * very tree the extractor's own prc_yaml_load or prc_yaml_load_pos of
 * those bytes would compose again (about 22 ms of the workers' CPU on the
 * manifests corpus, its two pnpm-locks).  prc_yaml_keep puts doc and pos (both
 * transfer; pos may be NULL) in this thread's one slot under the key (p,
 * n, *lim, flags), p by address; the next prc_yaml_load or
 * prc_yaml_load_pos with exactly that key takes them instead of composing
 * (the composer is deterministic: same bytes, limits and flags, same tree,
 * same positions), and prc_yaml_load_pos only when the slot holds
 * positions.  Any other load leaves the slot alone.  Whoever keeps must
 * keep p[0..n) unchanged until prc_kept_drop (base/kept.h: the slot the
 * XML and TOML verdicts' trees use too), which empties the slot and frees
 * what was not taken; a second keep drops the first.
 */
void prc_yaml_keep(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, json_t *doc, prc_yaml_pos *pos);
/* The root's id (0 for an empty table or NULL). */
uint32_t prc_yaml_pos_root(const prc_yaml_pos *t);
/* The id of member key of mapping id, of element i of sequence id; 0 when the stream states none. */
uint32_t prc_yaml_pos_key(const prc_yaml_pos *t, uint32_t id, const char *key);
uint32_t prc_yaml_pos_index(const prc_yaml_pos *t, uint32_t id, size_t i);
/* The place of node id; false (and *out zeroed) for id 0 or unknown. */
bool prc_yaml_pos_get(const prc_yaml_pos *t, uint32_t id, prc_yaml_at *out);

#if defined(PRC_TESTING) && PRC_TESTING
/* Tests only: skip the explicit-key-tab pre-scan, to reach the guard behind it (yaml.c key_tab_error). */
extern bool prc_yaml_test_skip_key_tab_scan;
/* Tests and fuzzers only: every load composes (no line reader), to compare the two readings. */
extern bool prc_yaml_test_no_line_reader;
/* Tests only: documents this thread's loads took from the line reader. */
extern _Thread_local unsigned long prc_yaml_test_line_reads;
#endif

#endif
