/*
 * npm.h - helpers shared by the npm family's extractors (npm.c: package.json,
 * package-lock.json, npm-shrinkwrap.json, .npmrc; npm_lock.c: yarn.lock,
 * pnpm-lock.yaml).  docs/extraction/npm.md describes what each reads.
 */
#ifndef PRC_EXTRACT_NPM_H
#define PRC_EXTRACT_NPM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "content/extract/extract.h"

/* A forward-only line cursor: lockfiles state entries in the order the parser returns them. */
typedef struct npm_cur {
        size_t   off;
        uint32_t line;
} npm_cur;

/*
 * Line of the next occurrence of needle at or after the cursor (then the
 * cursor moves there), or 0 with the cursor unchanged.  Linear over a file
 * when entries are searched in file order.
 */
uint32_t npm_cur_find(const prc_xin *in, npm_cur *c, const char *needle);

/* "pkg:npm/%40scope/name@version" for "@scope/name" (version may be NULL).  NULL for an empty name. */
char *npm_purl(const char *name, const char *version);

/* A dependency of md by its row (extract.h prc_md_row_add): row PRC_MDROW_NONE when it could not be added. */
typedef struct npm_dep {
        json_t *md;
        size_t  row;
} npm_dep;

/*
 * Add one dependency: name, scope, direct, line; requirement and resolved
 * as given (NULL: null).  The purl is set for registry dependencies (and
 * whenever a version is resolved).  Returns the dependency (row
 * PRC_MDROW_NONE: not added, err set).
 */
npm_dep npm_add_dep(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                    const char *requirement, const char *resolved, prc_err *err);
/* The dependency just added goes in the details list key ("install_scripts", "in_bundle"). */
bool npm_note_dep(json_t *md, const char *key, uint32_t line, prc_err *err);

/*
 * The source a package.json specifier names (npm-package-arg's rules):
 * git (git+, git://, github:, gitlab:, bitbucket:, gist:, owner/repo),
 * url (http:, https:), path (file:, link:, ./, ../, /, ~/), workspace
 * (workspace:), registry otherwise (ranges, tags, npm: aliases).
 */
bool npm_set_spec_source(npm_dep dep, const char *spec, prc_err *err) PRC_MUST_CHECK;

/* Set integrity from SRI text ("sha512-BASE64", the first of several) or a bare hex digest (algorithm given). */
bool npm_set_integrity(npm_dep dep, const char *sri, const char *hex_alg, prc_err *err) PRC_MUST_CHECK;

/* A resolved location: git URL with "#commit", a tarball URL, or a local path. */
bool npm_set_resolved_source(npm_dep dep, const char *resolved, prc_err *err) PRC_MUST_CHECK;

/* The text of a scalar (string, integer) in buf, or NULL for anything else. */
const char *npm_scalar(const json_t *v, char *buf, size_t cap);

json_t *prc_x_npm_package_json(const prc_xin *in, prc_err *err);
json_t *prc_x_npm_package_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_npm_shrinkwrap(const prc_xin *in, prc_err *err);
json_t *prc_x_npmrc(const prc_xin *in, prc_err *err);
json_t *prc_x_yarn_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_pnpm_lock(const prc_xin *in, prc_err *err);

#endif
