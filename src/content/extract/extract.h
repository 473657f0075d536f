/*
 * extract.h - manifest extractors: target bytes in, a ManifestDoc out.
 *
 * Extractors run inside the content worker (PRC_OP_EXTRACT) on hostile
 * bytes, exactly like the parsers they call: they never open, never print,
 * and return a whole ManifestDoc or NULL with a named class.  One file per
 * format family under src/content/extract/; the table in extract.c lists
 * every format.  The engine never parses these formats itself: it receives
 * the ManifestDoc through the worker's binary document encoding and checks
 * its shape (schemas/manifest-doc.schema.json is the contract).
 *
 * The ManifestDoc (every key always present, null where the file says
 * nothing; arrays keep the file's order):
 *
 *   {"schema": "prc-manifest-doc-v1",
 *    "path": "web/package.json",          as sent by the parent
 *    "format": "npm-package-json",        the extractor's format id
 *    "ecosystem": "npm",                  npm pypi cargo golang maven composer gem nuget
 *                                         github-actions docker
 *    "kind": "manifest",                  manifest lockfile workflow action container
 *                                         registry-config
 *    "package": {"name", "version", "purl", "line"} | null,
 *    "dependencies": [DEP...],
 *    "hooks": [{"name", "command", "line"}],          install-time hooks (npm lifecycle scripts)
 *    "registries": [{"name", "scope", "url", "line"}], url with any credential removed
 *    "credentials": [{"key", "line"}],                present, by key, NEVER by value
 *    "not_extracted": [{"what", "reason", "line"}],    parts the extractor knowingly left out
 *    "details": {...}}                                 the family's structured extras
 *                                                      (workflow jobs and steps, Dockerfile
 *                                                      stages, lockfile version, workspaces,
 *                                                      overrides); documented per family
 *
 *   DEP = {"name": "lodash",
 *          "requirement": "^4.17.0" | null,          as written
 *          "resolved": "4.17.21" | null,             the exact version the file pins
 *          "scope": "runtime",                       runtime dev optional peer build test
 *          "direct": true,                           false for a lockfile's transitive entries
 *          "source": {"type": "registry", "url": null, "ref": null, "commit": null},
 *                     type: registry (url null: the ecosystem's default) git url path workspace
 *          "integrity": {"algorithm": "sha512", "value": "..."} | null,
 *          "purl": "pkg:npm/lodash@4.17.21" | null,
 *          "group": "docs" | null,                   dependency group, extra, configuration
 *          "line": 12 | null,                        1-based line where the file states it
          "depends_on": [3, 7] | null}              the indexes (into "dependencies") of the packages
                                                    this one depends on, ascending, as the lockfile
                                                    states them; null where the file states no edges
 *
 * Limits are named (extract-limit): PRC_MD_DEPS_MAX dependencies per file,
 * PRC_MD_STR_MAX bytes for a name, version, requirement, URL or key; the
 * parser limits (prc_limits) bound everything else.
 */
#ifndef PRC_EXTRACT_H
#define PRC_EXTRACT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "base/err.h"
#include "base/limits.h"

/*
 * json_object_get for a literal key: its length is known when compiled,
 * so a look-up costs no strlen (six hundred thousand of them extract the
 * manifests corpus).  The same result: jansson's json_object_get is
 * json_object_getn with strlen(key).
 */
#define PRC_JGET(obj, key) json_object_getn((obj), "" key "", sizeof(key) - 1)

#define PRC_MD_SCHEMA   "prc-manifest-doc-v1"
#define PRC_MD_DEPS_MAX 100000u
#define PRC_MD_STR_MAX  4096u
/* hooks, registries, credentials, not_extracted entries per file */
#define PRC_MD_LIST_MAX 10000u
/* dependency edges (every depends_on entry) per file */
#define PRC_MD_EDGES_MAX 1000000u

/* One extraction request, as the worker received it (all borrowed). */
typedef struct prc_xin {
        const char       *path;         /* the inventory path: names the file, never opened */
        const uint8_t    *p;            /* the file's bytes (may be NULL when n is 0) */
        size_t            n;
        const prc_limits *lim;
} prc_xin;

/* Returns a new ManifestDoc (transfers) or NULL with err set. */
typedef json_t *(*prc_extract_fn)(const prc_xin *in, prc_err *err);

typedef struct prc_extractor {
        const char     *format;         /* "npm-package-json": wire id and `--format` value */
        const char     *ecosystem;      /* as in the ManifestDoc */
        const char     *kind;           /* as in the ManifestDoc */
        /*
         * Does this extractor own the file at path (a relative inventory
         * path)?  By name only: base, the exact base name ("uv.lock"), or
         * when base is NULL match, for a pattern.  One of the two is set.
         */
        const char     *base;
        bool          (*match)(const char *path, const char *base);
        prc_extract_fn  fn;
        /*
         * Reads its YAML with prc_yaml_load_pos: a verdict parse of the same
         * bytes before it (the worker's PRC_REQ_PARSE_FIRST) then composes
         * the positions too, so the extractor takes both (yaml.h
         * prc_yaml_keep) instead of parsing again.
         */
        bool            yaml_pos;
        /*
         * Reads the whole file with prc_json_parse under PRC_JSON_ALLOW_FLOAT
         * (the verdict's flags, dispatch.c "parse-json") and perhaps more,
         * which take the verdict's tree as their own (json_strict.h): the
         * worker's PRC_REQ_PARSE_FIRST then makes the verdict from a tree
         * and keeps it for the extractor (base/kept.h) instead of streaming
         * the verdict and parsing again.
         */
        bool            json_tree;
} prc_extractor;

/* The table (extract.c), in match order: the first match owns a file. */
extern const prc_extractor prc_extractors[];
extern const size_t prc_extractor_count;

/*
 * Drop a tree an extractor is done with (the parsed file, its own maps).
 * In the worker every jansson value lives in an arena dropped whole after
 * the reply (worker.c), where a free does nothing: walking the tree to
 * free it (a tenth of a large lockfile's extraction) is skipped there.
 */
void prc_x_drop(json_t *v);
/* Said once by the worker when its arena holds every jansson value from then on. */
void prc_x_drop_by_arena(void);

/* The extractor for a format id, or NULL. */
const prc_extractor *prc_extractor_by_format(const char *format);
/* The extractor that owns path by its name, or NULL. */
const prc_extractor *prc_extractor_for_path(const char *path);

/*
 * Builders shared by every family (mdoc.c).  Strings are copied and
 * checked: valid UTF-8 without NUL, at most PRC_MD_STR_MAX bytes for the
 * short fields (else extract-limit).  A NULL string is JSON null.  Line 0
 * means "unknown" and is written as null.  The functions return false (or
 * NULL) with err set (extract-limit, not-canonical, out-of-memory).
 */

/* A new ManifestDoc with every key present and empty lists. */
json_t *prc_md_new(const prc_xin *in, const char *format, const char *ecosystem, const char *kind,
                   prc_err *err);
/* Set "package" ({"name", "version", "purl", "line"}). */
bool prc_md_set_package(json_t *md, const char *name, const char *version, const char *purl, uint32_t line,
                        prc_err *err) PRC_MUST_CHECK;
/*
 * Append a dependency with source {"type": "registry", all null}, integrity,
 * requirement, resolved, purl and group null.  Returns the new object
 * (borrowed from md) for the setters below, or NULL at PRC_MD_DEPS_MAX.
 */
json_t *prc_md_add_dep(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                       prc_err *err);
/* The same with requirement and resolved (NULL: null) as prc_md_set_str would set them after. */
json_t *prc_md_add_dep_rr(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                          const char *requirement, const char *resolved, prc_err *err);
/*
 * Dependency edges, for formats that state them.  prc_md_edge records that
 * dependency from depends on dependency to (indexes into "dependencies";
 * from == to is no edge); prc_md_edge_unresolved notes in not_extracted an
 * edge whose target the file does not list; prc_md_edges_finish, once every
 * edge is in, sorts and dedupes every depends_on and turns the others from
 * null to [] (the file states edges: a package it gives none has none).
 * More than PRC_MD_EDGES_MAX edges is extract-limit.
 */
bool prc_md_edge(json_t *md, size_t from, size_t to, prc_err *err) PRC_MUST_CHECK;
bool prc_md_edge_unresolved(json_t *md, size_t from, const char *name, const char *requirement,
                            prc_err *err) PRC_MUST_CHECK;
bool prc_md_edges_finish(json_t *md, prc_err *err) PRC_MUST_CHECK;
/*
 * Dependencies by row (the npm family): the same dependencies as
 * prc_md_add_dep_rr and the setters above make, with the same checks and
 * errors, named by their index.  Normally each row is the tree those make
 * (the functions below wrap them).  In a content worker that sends its
 * dependencies as a table (PRC_REQ_PACKED_DEPS), prc_md_rows_arm(true)
 * before the extraction makes the rows of the next document that adds one
 * this way native: a record and its strings, no jansson object, and
 * prc_md_rows_pack then packs them into the table prc_mdp_pack would have
 * made from the trees (mdoc_pack.h), byte for byte; the document's own
 * "dependencies" stay [].  A document of native rows takes no dependency
 * through prc_md_add_dep_rr (internal error).  Why: 3 KB of jansson
 * objects a row in the worker's arena, and their packing after.
 */
#define PRC_MDROW_NONE SIZE_MAX
size_t prc_md_row_add(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                      const char *requirement, const char *resolved, prc_err *err);
/* prc_md_set_str of a row's "purl" or "group"; prc_md_take_purl; prc_md_set_source; prc_md_set_integrity. */
bool prc_md_row_set_str(json_t *md, size_t row, const char *key, const char *val, prc_err *err) PRC_MUST_CHECK;
bool prc_md_row_take_purl(json_t *md, size_t row, char *purl, prc_err *err) PRC_MUST_CHECK;
bool prc_md_row_set_source(json_t *md, size_t row, const char *type, const char *url, const char *ref,
                           const char *commit, prc_err *err) PRC_MUST_CHECK;
bool prc_md_row_set_integrity(json_t *md, size_t row, const char *algorithm, const char *value,
                              prc_err *err) PRC_MUST_CHECK;
/* How many dependencies md has; a row's name and source type (NULL past the end). */
size_t prc_md_row_count(const json_t *md);
const char *prc_md_row_name(const json_t *md, size_t row);
const char *prc_md_row_source_type(const json_t *md, size_t row);
/* Native rows for the next document that adds a row (true), or none (false: the default). */
void prc_md_rows_arm(bool on);
/* Does md hold native rows?  Did a document take some since prc_md_rows_arm(true)? */
bool prc_md_rows_native(const json_t *md);
bool prc_md_rows_taken(void);

/* Set a short string member of any ManifestDoc object (requirement, resolved, purl, group, ...). */
bool prc_md_set_str(json_t *obj, const char *key, const char *val, prc_err *err) PRC_MUST_CHECK;
/* Set obj.purl to purl (malloc'ed, freed here); NULL (prc_purl failed) is out of memory. */
bool prc_md_take_purl(json_t *obj, char *purl, prc_err *err) PRC_MUST_CHECK;
/*
 * Set a dependency's source; type is registry, git, url, path or workspace.
 * url loses any credential; the dependency cannot reach its document, so the
 * caller records the credential by key (prc_md_url_strip tells whether there
 * was one, prc_md_add_credential records it).
 */
bool prc_md_set_source(json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
                       prc_err *err) PRC_MUST_CHECK;
bool prc_md_set_integrity(json_t *dep, const char *algorithm, const char *value, prc_err *err) PRC_MUST_CHECK;
bool prc_md_add_hook(json_t *md, const char *name, const char *command, uint32_t line, prc_err *err) PRC_MUST_CHECK;
/*
 * A registry.  A URL with user information ("https://u:p@host/") is stored
 * without it and adds a credential named by cred_key (e.g. "registry URL
 * userinfo"): the value never enters the ManifestDoc.
 */
bool prc_md_add_registry(json_t *md, const char *name, const char *scope, const char *url, uint32_t line,
                         prc_err *err) PRC_MUST_CHECK;
/* A credential is present under key (never pass its value). */
bool prc_md_add_credential(json_t *md, const char *key, uint32_t line, prc_err *err) PRC_MUST_CHECK;
/* Something in the file the extractor knowingly does not extract, and why. */
bool prc_md_not_extracted(json_t *md, const char *what, const char *reason, uint32_t line,
                          prc_err *err) PRC_MUST_CHECK;
/* The "details" object (borrowed) for family extras. */
json_t *prc_md_details(json_t *md);

/*
 * A URL with any "user:password@" removed (malloc'ed; NULL on out of
 * memory).  *had_cred tells whether there was one.  Not a URL parser: it
 * only strips userinfo between "scheme://" and the first '/', '?' or '#'.
 */
char *prc_md_url_strip(const char *url, bool *had_cred);

/*
 * A package URL (purl spec): "pkg:" type "/" namespace "/" name "@" version
 * "?" qualifiers "#" subpath.  Each namespace segment (split at '/'), the
 * name, the version and every qualifier value are percent-encoded (all but
 * A-Z a-z 0-9 . - _ ~); qualifier keys are given lower-case and are sorted
 * here.  ns, version, subpath may be NULL; qual is NULL or a NULL-terminated
 * list of key, value pairs.  Name normalisation per type (pypi lower-case
 * with '-', ...) is the caller's.  Returns malloc'ed text or NULL (no name,
 * out of memory).
 */
char *prc_purl(const char *type, const char *ns, const char *name, const char *version,
               const char *const *qual, const char *subpath);

/* Line feeds in p[0..n) (memchr's word-wide scan, not a branch per byte). */
uint32_t prc_x_count_lf(const uint8_t *p, size_t n);
/* 1-based line of byte offset off (LF ends a line). */
uint32_t prc_x_line_at(const prc_xin *in, size_t off);
/*
 * 1-based line of the first occurrence of needle (exact bytes) on or after
 * line from (1 = the start), or 0 when it does not occur.  For formats whose
 * parser keeps no positions: callers search for the text they know the
 * file states (a quoted key, "name = \"serde\"").
 */
uint32_t prc_x_find_line(const prc_xin *in, const char *needle, uint32_t from);
/*
 * The same search from a known place, for callers that walk a file
 * forward (a lockfile's packages in order): at is a line and the offset
 * where it starts ({0, 0}: the start of the file); when needle is found
 * at is moved to its line, so the next search does not count the lines
 * before it again.  Returns the line, or 0 (at unchanged).
 */
typedef struct prc_xpos {
        uint32_t line;
        size_t   off;
} prc_xpos;
uint32_t prc_x_find_line_at(const prc_xin *in, const char *needle, prc_xpos *at);
/* Offset of the start of line (1-based); the end of the input past its last line. */
size_t prc_x_line_start(const prc_xin *in, uint32_t line);

#endif
