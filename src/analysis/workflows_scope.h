/*
 * workflows_scope.h - GitHub Actions analyses of what a workflow grants and
 * keeps (workflows_scope.c): token permissions, persisted checkout
 * credentials, caches restored by release jobs, secrets handed out whole,
 * and the insecure workflow commands switch.  docs/analyses.md gives each
 * decision rule.
 *
 * Trust: engine-side; reads checked ManifestDocs only (gha.h).
 */
#ifndef PRC_ANALYSIS_WORKFLOWS_SCOPE_H
#define PRC_ANALYSIS_WORKFLOWS_SCOPE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"

/* The analyses (registered in registry.c). */
bool prc_gha_excessive_permissions(prc_actx *cx, prc_err *err);
bool prc_gha_persisted_credentials(prc_actx *cx, prc_err *err);
bool prc_gha_cache_poisoning(prc_actx *cx, prc_err *err);
bool prc_gha_secrets_exposure(prc_actx *cx, prc_err *err);
bool prc_gha_insecure_commands(prc_actx *cx, prc_err *err);

/* --- decisions shared with the unit tests --- */

/* How a with:/env: value reads as a boolean input. */
enum prc_gha_bool {
        PRC_GHA_ABSENT = 0,
        PRC_GHA_TRUE,           /* true, "true" (any case), ${{ true }} */
        PRC_GHA_FALSE,          /* false, "false" (any case), ${{ false }} */
        PRC_GHA_EXPR,           /* any other ${{ }}: known only at run time */
        PRC_GHA_OTHER,          /* any other value as written ("npm", 18, "") */
};
enum prc_gha_bool prc_gha_bool_of(const json_t *v);

/* The major version of a uses ref ("v4", "v4.1.1", "4"), or -1 (a commit, a branch: unknown). */
int prc_gha_ref_major(const char *ref);

/*
 * Does this step restore a cache?  Returns a short reason ("cache: npm",
 * "setup-go v4+ caches by default") or NULL; *dynamic is set when the
 * setting that decides it is an expression (the answer is then unknown).
 */
const char *prc_gha_cache_restore(const json_t *step, bool *dynamic);

/* What a step publishes ("npm publish", "pypa/gh-action-pypi-publish"), or NULL; *line its line. */
bool prc_gha_step_publishes(const json_t *step, char *what, size_t whatsz, uint32_t *line, prc_err *err)
        PRC_MUST_CHECK;

#endif
