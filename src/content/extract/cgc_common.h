/*
 * cgc_common.h - small helpers the Rust, Go and PHP extractors share
 * (cargo.c, golang.c, composer.c): family extras in "details", checked.
 * Trust: runs in the content worker on values from hostile files; every
 * list is bounded by PRC_MD_LIST_MAX and every string is checked by the
 * ManifestDoc builders.
 */
#ifndef PRC_CGC_COMMON_H
#define PRC_CGC_COMMON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "content/extract/extract.h"

/* The extractors (extract.h's prc_extract_fn), one per format, listed in extract.c's table. */
json_t *prc_x_cargo_toml(const prc_xin *in, prc_err *err);
json_t *prc_x_cargo_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_go_mod(const prc_xin *in, prc_err *err);
json_t *prc_x_go_sum(const prc_xin *in, prc_err *err);
json_t *prc_x_go_work(const prc_xin *in, prc_err *err);
json_t *prc_x_composer_json(const prc_xin *in, prc_err *err);
json_t *prc_x_composer_lock(const prc_xin *in, prc_err *err);
/* go.sum and go.work.sum (the table, extract.c, holds the exact names of the others). */
bool prc_x_cgc_match_go_sum(const char *path, const char *base);

/* pkg:golang purl of a module path (namespace all but the last segment, lower-cased, as purl-spec says). */
char *prc_go_purl(const char *module, const char *version);

/* Set obj[key] to v (takes v's reference, also on failure): false with out-of-memory. */
bool prc_cgc_put(json_t *obj, const char *key, json_t *v, prc_err *err) PRC_MUST_CHECK;
/* obj["line"]: the 1-based line, or null for 0. */
bool prc_cgc_put_line(json_t *obj, uint32_t line, prc_err *err) PRC_MUST_CHECK;
/*
 * Append a new object to the array details[key] of md (created on first
 * use) and return it (borrowed from md), or NULL with err set:
 * extract-limit past PRC_MD_LIST_MAX entries, out-of-memory.
 */
json_t *prc_cgc_detail_add(json_t *md, const char *key, prc_err *err);
/*
 * prc_md_set_source, and when url carries user information (a token in a
 * git or registry URL) a credential named by key at line: the URL is stored
 * without it, the credential only by key.
 */
bool prc_cgc_source(json_t *md, json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
                    uint32_t line, prc_err *err) PRC_MUST_CHECK;
/* A parser's error with a byte offset but no line gets the line (and column) of that offset. */
void prc_cgc_locate(const prc_xin *in, prc_err *err);
/* Record extract-shape with a formatted message and, when known (not 0), the line.  Returns false. */
bool prc_cgc_shape(prc_err *err, uint32_t line, const char *fmt, ...) PRC_PRINTF(3, 4);
/* A lower-cased (ASCII) copy of s (malloc'ed), or NULL on out of memory. */
char *prc_cgc_lower(const char *s);
/* Is s exactly 40 lower- or upper-case hex digits (a full git commit id)? */
bool prc_cgc_is_commit(const char *s);

#endif
