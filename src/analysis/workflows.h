/*
 * workflows.h - GitHub Actions analyses over gha-workflow and gha-action
 * ManifestDocs (workflows.c): unpinned uses, pwn-request triggers, template
 * and GITHUB_ENV injection, self-hosted runners on pull requests
 * (docs/analyses.md, "GitHub Actions workflows", gives each decision rule).
 *
 * Trust: engine-side; reads checked ManifestDocs only (gha.h).
 */
#ifndef PRC_ANALYSIS_WORKFLOWS_H
#define PRC_ANALYSIS_WORKFLOWS_H

#include <stdbool.h>

#include "analysis/analysis.h"

/* The analyses (registered in registry.c). */
bool prc_gha_unpinned_uses(prc_actx *cx, prc_err *err);
bool prc_gha_dangerous_trigger(prc_actx *cx, prc_err *err);
bool prc_gha_template_injection(prc_actx *cx, prc_err *err);
bool prc_gha_env_injection(prc_actx *cx, prc_err *err);
bool prc_gha_self_hosted_pr(prc_actx *cx, prc_err *err);

/* --- shared decisions (unit-tested) --- */

/* What an expression context (a path as the extractor writes it: "github.event.commits[0].message") carries. */
enum prc_gha_taint {
        PRC_GHA_TRUSTED = 0,    /* fixed by the repository or GitHub, or a number, SHA, boolean, login */
        PRC_GHA_UNTRUSTED,      /* free text a stranger writes: a title, body, branch name, commit message */
        PRC_GHA_HOLDS_UNTRUSTED,/* an object holding such text (github.event.pull_request): unsafe through toJSON */
};
enum prc_gha_taint prc_gha_context_taint(const char *path);

/* Does the context name the pull request's own code (its head SHA or branch, its fork, its merge commit)? */
bool prc_gha_context_pr_code(const char *path);

/*
 * The runner labels of a runs-on value as written (a string, a list of
 * strings, or {group, labels}): 1 when they name a self-hosted runner, 0
 * when they do not, -1 when that cannot be told (a runner group without
 * the self-hosted label, an expression).
 */
int prc_gha_self_hosted(const json_t *runs_on);

#endif
