/*
 * gha.h - helpers shared by the GitHub Actions and container extractors
 * (actions.c, gha_expr.c, dockerfile.c); not an API outside extract/.
 * Trust: inputs are hostile bytes inside the content worker.
 */
#ifndef PRC_EXTRACT_GHA_H
#define PRC_EXTRACT_GHA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "content/extract/extract.h"

/* Bytes of one expression's text, and references / functions kept per expression. */
#define PRC_GHA_EXPR_MAX   PRC_MD_STR_MAX
#define PRC_GHA_REFS_MAX   256u

/*
 * Parse one GitHub Actions expression (the text between "${{" and "}}", or
 * a whole `if:`).  On success fills refs with {"path", "flows"} objects and
 * funcs with lower-case function names (first use order, no repeats) and
 * returns true.  On a syntax error returns false with a short reason in
 * why (refs and funcs are then unspecified: the caller drops them).
 * Paths are lower-case (contexts are case-insensitive), property and
 * literal-string indexes as ".name", numeric indexes "[N]", "[*]" and ".*"
 * filters as written, any other index "[?]".  "flows" tells whether the
 * referenced value can become (part of) the expression's result: false
 * when it is only compared, negated, used as an index, or passed to a
 * function whose result is a boolean or a hash.  Returns false with
 * out-of-memory set in err only on allocation failure.
 */
bool prc_gha_expr_parse(const char *s, size_t n, json_t *refs, json_t *funcs, char *why, size_t whylen,
                        prc_err *err);

/*
 * An image reference ("ghcr.io/o/x:1@sha256:ab..") as a new object
 * {"raw", "registry", "repository", "tag", "digest", "valid"}: registry
 * "docker.io" and repository "library/x" when the reference names none,
 * tag and digest null when absent, valid false when it does not follow the
 * distribution reference grammar (the parts are then best effort).  NULL
 * with err set (extract-limit, out-of-memory).
 */
json_t *prc_x_image_ref(const char *raw, prc_err *err);
/* The pkg:docker purl of a parsed image (malloc'ed; NULL for an invalid one or out of memory). */
char *prc_x_image_purl(const json_t *img);
/* Append the image as a dependency of md (scope, group as given); false with err set. */
bool prc_x_image_dep(json_t *md, const json_t *img, const char *scope, const char *group, uint32_t line,
                     prc_err *err) PRC_MUST_CHECK;

/*
 * The shell tokenizer bounds each script by its own size; a file of many
 * small scripts (workflow steps, RUN lines) could still multiply that.
 * Adds doc's cost (string bytes plus 16 per value) to *used and refuses
 * (extract-limit) past PRC_SHELL_OUTPUT_FACTOR times the file plus
 * PRC_SHELL_OUTPUT_SLACK: the tokenizer's per-script bound, per file.
 */
bool prc_x_tokens_budget(size_t *used, const json_t *doc, size_t file_n, prc_err *err) PRC_MUST_CHECK;

/* The extractors of this family (the table in extract.c lists them). */
json_t *prc_extract_gha_workflow(const prc_xin *in, prc_err *err);
json_t *prc_extract_gha_action(const prc_xin *in, prc_err *err);
json_t *prc_extract_dockerfile(const prc_xin *in, prc_err *err);

/* Is s exactly 40 hex digits (a full commit SHA)? */
bool prc_x_is_sha40(const char *s);

#endif
