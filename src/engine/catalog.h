/*
 * catalog.h - the operator-trusted catalog: controls, assertions, profiles.
 *
 * Trust: the catalog is operator input, validated and then trusted.  It is
 * loaded with the bounded YAML loader from CATALOG_ROOT/catalog.yaml; the
 * root and the file must not be symlinks.  Its canonical digest is recorded
 * in every result.  Schema: schemas/catalog.schema.json; docs/catalog.md.
 */
#ifndef PRC_ENGINE_CATALOG_H
#define PRC_ENGINE_CATALOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/digest.h"
#include "base/err.h"
#include "engine/policy.h"

typedef struct prc_catalog prc_catalog;        /* opaque */

typedef struct prc_binding {
        const char        *adapter_id;        /* borrowed from the catalog document */
        const char        *manifest_sha256;
        const char        *observation_kind;
        prc_outcome_policy policy;
} prc_binding;

typedef struct prc_assertion {
        const char        *id, *control, *title, *rationale, *remediation, *severity;  /* borrowed */
        const char        *analysis;          /* built-in analysis id, or NULL when adapter-bound */
        prc_outcome_policy analysis_policy;   /* policy of the built-in analysis */
        const prc_binding *bindings;          /* borrowed; nbindings entries */
        size_t             nbindings;
} prc_assertion;

/* Load CATALOG_ROOT/catalog.yaml.  Errors: catalog-*, unknown-analysis, the YAML and field classes. */
prc_catalog *prc_catalog_load(const char *root, prc_err *err);
/* Parse a catalog from bytes (tests, fuzzing). */
prc_catalog *prc_catalog_parse(const uint8_t *p, size_t n, prc_err *err);
void prc_catalog_free(prc_catalog *c);

const char *prc_catalog_id(const prc_catalog *c);
int64_t prc_catalog_revision(const prc_catalog *c);
const char *prc_catalog_sha256(const prc_catalog *c);

/*
 * The assertions of profile, in catalog order.  *out is borrowed (valid
 * until prc_catalog_free).  Errors: unknown-profile.
 */
bool prc_catalog_profile(const prc_catalog *c, const char *profile, const prc_assertion *const **out,
                         size_t *out_n, prc_err *err) PRC_MUST_CHECK;
/* Default profile id. */
#define PRC_PROFILE_DEFAULT "prc/core"

/* Every assertion of the catalog, in catalog order (prc explain); i < prc_catalog_count. */
size_t prc_catalog_count(const prc_catalog *c);
const prc_assertion *prc_catalog_at(const prc_catalog *c, size_t i);

/*
 * An assertion's decision rule in words (issue 22): which analysis or
 * adapter observations it reads and the outcome policy applied to them.
 * Always NUL-terminated; truncated to cap.
 */
void prc_assertion_rule(const prc_assertion *a, char *out, size_t cap);

/* Is id a built-in analysis this engine implements? (builtin.c) */
bool prc_builtin_known(const char *id);
/* What analysis id reads and reports, in one line (prc explain); NULL when it is not one. */
const char *prc_builtin_doc(const char *id);

#endif
