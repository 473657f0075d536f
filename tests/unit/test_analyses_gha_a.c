/*
 * test_analyses_gha_a.c - the shared decisions of the GitHub Actions
 * analyses (workflows.c): which expression contexts a stranger writes,
 * which name the pull request's code, and which runs-on values name a
 * self-hosted runner.  The analyses themselves are tested over fixtures
 * (tests/cli/test_analyses_gha-a.sh).
 */
#include "t.h"

#include "analysis/workflows.h"

static void test_analyses_gha_a__free_text_contexts_are_untrusted(void)
{
        static const char *const bad[] = {
                "github.event.issue.title", "github.event.issue.body", "github.event.pull_request.title",
                "github.event.pull_request.body", "github.event.pull_request.head.ref",
                "github.event.pull_request.head.label", "github.event.pull_request.head.repo.default_branch",
                "github.event.comment.body", "github.event.review.body", "github.event.review_comment.body",
                "github.event.discussion.title", "github.event.pages[0].page_name", "github.event.pages.*.page_name",
                "github.event.commits[*].message", "github.event.commits[?].author.email",
                "github.event.head_commit.message", "github.event.head_commit.author.name", "github.head_ref",
                "github.event.workflow_run.head_branch", "github.event.workflow_run.head_commit.message",
                "github.event.workflow_run.pull_requests[0].head.ref", "github.event.pull_request.*",
                NULL,
        };
        for (size_t i = 0; bad[i] != NULL; i++)
                if (prc_gha_context_taint(bad[i]) != PRC_GHA_UNTRUSTED)
                        t_fail(__FILE__, __LINE__, "'%s' is not untrusted", bad[i]);
}

static void test_analyses_gha_a__numbers_shas_booleans_and_logins_are_not(void)
{
        static const char *const ok[] = {
                "github.event.pull_request.number", "github.event.pull_request.head.sha", "github.event.number",
                "github.event.pull_request.merged", "github.event.pull_request.draft", "github.event.issue.number",
                "github.actor", "github.sha", "github.ref", "github.repository", "github.event.pull_request.user.login",
                "github.event.pull_request.head.repo.full_name", "github.event.workflow_run.head_sha",
                "github.event.pull_request.labels.*.name", "inputs.title", "steps.x.outputs.y", "matrix.os",
                "github.event.issue.title_length", "github.event.issues.title", NULL,
        };
        for (size_t i = 0; ok[i] != NULL; i++)
                if (prc_gha_context_taint(ok[i]) != PRC_GHA_TRUSTED)
                        t_fail(__FILE__, __LINE__, "'%s' is not trusted", ok[i]);
        /* Objects that hold free text: unsafe only when serialized (toJSON), which the analysis checks. */
        T_EQ_INT(prc_gha_context_taint("github.event"), PRC_GHA_HOLDS_UNTRUSTED);
        T_EQ_INT(prc_gha_context_taint("github.event.pull_request"), PRC_GHA_HOLDS_UNTRUSTED);
        T_EQ_INT(prc_gha_context_taint("github.event.commits"), PRC_GHA_HOLDS_UNTRUSTED);
        T_EQ_INT(prc_gha_context_taint("github"), PRC_GHA_HOLDS_UNTRUSTED);
}

static void test_analyses_gha_a__pull_request_code_contexts(void)
{
        T_ASSERT(prc_gha_context_pr_code("github.event.pull_request.head.sha"));
        T_ASSERT(prc_gha_context_pr_code("github.event.pull_request.head.ref"));
        T_ASSERT(prc_gha_context_pr_code("github.event.pull_request.head.repo.full_name"));
        T_ASSERT(prc_gha_context_pr_code("github.event.pull_request.merge_commit_sha"));
        T_ASSERT(prc_gha_context_pr_code("github.head_ref"));
        T_ASSERT(prc_gha_context_pr_code("github.event.workflow_run.head_sha"));
        T_ASSERT(prc_gha_context_pr_code("github.event.workflow_run.head_branch"));
        T_ASSERT(prc_gha_context_pr_code("github.event.workflow_run.pull_requests[0].head.sha"));
        T_ASSERT(!prc_gha_context_pr_code("github.event.pull_request.base.sha"));
        T_ASSERT(!prc_gha_context_pr_code("github.sha"));
        T_ASSERT(!prc_gha_context_pr_code("github.ref"));
        T_ASSERT(!prc_gha_context_pr_code("github.event.pull_request.number"));
        T_ASSERT(!prc_gha_context_pr_code("github.event.pull_request"));
}

static int sh(const char *json)
{
        json_error_t je;
        json_t *v = json_loads(json, JSON_DECODE_ANY, &je);
        int r;

        T_ASSERT(v != NULL);
        r = prc_gha_self_hosted(v);
        json_decref(v);
        return r;
}

static void test_analyses_gha_a__self_hosted_runner_labels(void)
{
        T_EQ_INT(sh("\"self-hosted\""), 1);
        T_EQ_INT(sh("\"Self-Hosted\""), 1);
        T_EQ_INT(sh("[\"linux\", \"self-hosted\"]"), 1);
        T_EQ_INT(sh("{\"group\": \"g\", \"labels\": [\"self-hosted\"]}"), 1);
        T_EQ_INT(sh("{\"labels\": \"self-hosted\"}"), 1);
        T_EQ_INT(sh("\"${{ cond && 'self-hosted' || 'ubuntu-latest' }}\""), 1);
        T_EQ_INT(sh("\"ubuntu-latest\""), 0);
        T_EQ_INT(sh("[\"ubuntu-22.04\"]"), 0);
        T_EQ_INT(sh("\"self-hosted-like\""), 0);
        T_EQ_INT(sh("{\"group\": \"large\"}"), -1);
        T_EQ_INT(sh("\"${{ inputs.runner }}\""), -1);
        T_EQ_INT(sh("[\"linux\", \"${{ matrix.arch }}\"]"), -1);
}

static const prc_test tests[] = {
        T(test_analyses_gha_a__free_text_contexts_are_untrusted),
        T(test_analyses_gha_a__numbers_shas_booleans_and_logins_are_not),
        T(test_analyses_gha_a__pull_request_code_contexts),
        T(test_analyses_gha_a__self_hosted_runner_labels),
};
PRC_SUITE(analyses_gha_a, tests)
