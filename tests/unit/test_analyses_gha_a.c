/*
 * test_analyses_gha_a.c - the shared decisions of the GitHub Actions
 * analyses (workflows.c): which expression contexts a stranger writes,
 * which name the pull request's code, and which runs-on values name a
 * self-hosted runner.  The analyses themselves are tested over fixtures
 * (tests/cli/test_analyses_gha-a.sh).
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gha.h"
#include "analysis/workflows.h"
#include "base/file.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "engine/policy.h"

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


static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The checked ManifestDocs of dir's .github/workflows (paths relative to dir, sorted), appended to mdocs. */
static size_t repo_workflows(const char *dir, json_t *mdocs)
{
        char wf[3200], *names[512];
        size_t n = 0;
        struct dirent *de;
        DIR *dp;

        snprintf(wf, sizeof(wf), "%s/.github/workflows", dir);
        dp = opendir(wf);
        if (dp == NULL)
                return 0;
        while ((de = readdir(dp)) != NULL && n < PRC_ARRAY_LEN(names))
                if (de->d_name[0] != '.' || strlen(de->d_name) > 5)
                        names[n++] = strdup(de->d_name);
        closedir(dp);
        qsort(names, n, sizeof(names[0]), cmp_str);
        for (size_t i = 0; i < n; i++) {
                char rel[512], path[3800];
                const prc_extractor *x;
                prc_buf b;
                prc_err e;
                json_t *md;
                snprintf(rel, sizeof(rel), ".github/workflows/%s", names[i]);
                snprintf(path, sizeof(path), "%s/%s", dir, rel);
                free(names[i]);
                x = prc_extractor_for_path(rel);
                if (x == NULL || strcmp(x->format, "gha-workflow") != 0)
                        continue;
                prc_err_init(&e);
                prc_buf_init(&b, 8u << 20);
                T_ASSERT(prc_file_read(path, 8u << 20, 0, &b, &e));
                {
                        prc_xin in = { rel, b.data, b.len, &prc_limits_default };
                        md = x->fn(&in, &e);
                }
                prc_buf_clear(&b);
                T_NOERR(e);
                T_ASSERT(prc_mdoc_check(md, rel, x->format, &e));
                T_ASSERT(json_array_append_new(mdocs, md) == 0);
        }
        return json_array_size(mdocs);
}

/*
 * Every workflow of ../shared/corpora/manifests, extracted in this process
 * and judged by the five analyses, repository by repository: under ASan,
 * with the same ManifestDocs a scan gives them.  The unpinned uses are the
 * 314 a plain grep of the corpus finds (docs/analyses.md).
 */
static void test_analyses_gha_a__corpus_workflows_are_judged(void)
{
        static const char *const ids[] = {
                "gha-unpinned-uses", "gha-dangerous-trigger", "gha-template-injection", "gha-env-injection",
                "gha-self-hosted-pr",
        };
        const char *c = t_corpora();
        char top[1024];
        size_t files = 0, found[PRC_ARRAY_LEN(ids)] = { 0 };
        struct dirent *eco;
        DIR *de;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "corpora absent: this test needs ../shared/corpora/manifests");
        snprintf(top, sizeof(top), "%s/manifests", c);
        de = opendir(top);
        T_ASSERT(de != NULL);
        while ((eco = readdir(de)) != NULL) {
                char ed[1400];
                struct dirent *rp;
                DIR *dr;
                if (eco->d_name[0] == '.')
                        continue;
                snprintf(ed, sizeof(ed), "%s/%s", top, eco->d_name);
                dr = opendir(ed);
                if (dr == NULL)
                        continue;
                while ((rp = readdir(dr)) != NULL) {
                        char rd[3000];
                        json_t *mdocs;
                        if (rp->d_name[0] == '.')
                                continue;
                        mdocs = json_array();
                        T_ASSERT(mdocs != NULL);
                        snprintf(rd, sizeof(rd), "%s/%s", ed, rp->d_name);
                        files += repo_workflows(rd, mdocs);
                        for (size_t k = 0; json_array_size(mdocs) > 0 && k < PRC_ARRAY_LEN(ids); k++) {
                                prc_ainput in = { NULL, 0, NULL, 0, NULL, 0, mdocs, NULL };
                                prc_obs_list l;
                                bool gap = false;
                                prc_err e;
                                memset(&l, 0, sizeof(l));
                                prc_err_init(&e);
                                T_ASSERT(prc_analysis_run(prc_analysis_find(ids[k]), &in, &l, &gap, &e));
                                T_ASSERT(!gap);
                                for (size_t o = 0; o < l.n; o++)
                                        if (l.items[o].outcome == PRC_OUT_FOUND)
                                                found[k] += json_array_size(l.items[o].locations);
                                prc_obs_list_clear(&l);
                        }
                        json_decref(mdocs);
                }
                closedir(dr);
        }
        closedir(de);
        T_EQ_INT(files, 252);
        T_EQ_INT(found[0], 314);
}

/* Details are not shape-checked by the client: mistyped members read as absent, and bad run: tokens as Unknown. */
/* One pass over the triggers answers as asking for each event in turn does, in the events' order. */
static void test_analyses_gha_a__first_trigger_in_the_events_order(void)
{
        static const char *const ev[] = { "workflow_run", "pull_request_target", "issue_comment", NULL };
        static const char *const none[] = { "schedule", NULL };
        json_error_t je;
        json_t *md = json_loads("{\"details\":{\"triggers\":[{\"event\":\"push\"},{\"event\":7},{\"line\":2},"
                                "{\"event\":\"pull_request_target\"},{\"event\":\"workflow_run\"}]}}", 0, &je);
        json_t *many = json_loads("{\"details\":{\"triggers\":[]}}", 0, &je), *ts;
        json_t *bare = json_loads("{\"details\":{}}", 0, &je);

        T_ASSERT(md != NULL && many != NULL && bare != NULL);
        T_EQ_STR(prc_gha_first_trigger(md, ev), "workflow_run");
        T_EQ_STR(prc_gha_first_trigger(md, ev + 1), "pull_request_target");
        T_ASSERT(prc_gha_first_trigger(md, ev + 2) == NULL);
        T_ASSERT(prc_gha_first_trigger(md, none) == NULL);
        T_ASSERT(prc_gha_first_trigger(bare, ev) == NULL);
        /* More triggers than one pass keeps: the same answers. */
        ts = json_object_get(json_object_get(many, "details"), "triggers");
        for (int i = 0; i < 40; i++) {
                char e[32];
                snprintf(e, sizeof(e), "event_%d", i);
                T_ASSERT(json_array_append_new(ts, json_pack("{s:s}", "event", e)) == 0);
        }
        T_ASSERT(json_array_append_new(ts, json_pack("{s:s}", "event", "issue_comment")) == 0);
        T_EQ_STR(prc_gha_first_trigger(many, ev), "issue_comment");
        T_ASSERT(prc_gha_first_trigger(many, none) == NULL);
        for (size_t k = 0; ev[k] != NULL; k++)
                T_EQ_INT(prc_gha_trigger(md, ev[k]) != NULL, strcmp(ev[k], "issue_comment") != 0);
        json_decref(md);
        json_decref(many);
        json_decref(bare);
}

static void test_analyses_gha_a__mistyped_details_never_crash(void)
{
        static const char *const ids[] = {
                "gha-unpinned-uses", "gha-dangerous-trigger", "gha-template-injection", "gha-env-injection",
                "gha-self-hosted-pr",
        };
        json_error_t je;
        json_t *mdocs = json_loads(
                "[{\"path\": \".github/workflows/x.yml\", \"ecosystem\": \"github-actions\", "
                "\"format\": \"gha-workflow\", \"details\": {\"triggers\": [{\"event\": \"pull_request_target\"}, 7], "
                "\"env\": 3, \"expressions\": {}, \"jobs\": [7, {\"id\": 5, \"runs_on\": {\"value\": [1, null]}, "
                "\"env\": [{\"name\": 1}], \"strategy\": {\"value\": {\"matrix\": 4}}, \"uses\": {\"kind\": 1}, "
                "\"steps\": [3, {\"uses\": {\"kind\": \"action\", \"raw\": 3, \"ref\": null}, "
                "\"with\": [{\"name\": \"ref\", \"value\": 5}], "
                "\"run\": {\"tokens\": {\"commands\": [{\"body\": [{\"line\": 1, \"tokens\": [1, null]}]}]}}, "
                "\"expressions\": [{\"field\": \"run\", \"text\": 4, "
                "\"contexts\": [{\"path\": 5, \"flows\": true}]}]}]}]}}]",
                0, &je);
        size_t unsupported = 0;

        T_ASSERT(mdocs != NULL);
        for (size_t k = 0; k < PRC_ARRAY_LEN(ids); k++) {
                prc_ainput in = { NULL, 0, NULL, 0, NULL, 0, mdocs, NULL };
                prc_obs_list l;
                bool gap = false;
                prc_err e;
                memset(&l, 0, sizeof(l));
                prc_err_init(&e);
                T_ASSERT(prc_analysis_run(prc_analysis_find(ids[k]), &in, &l, &gap, &e));
                for (size_t o = 0; o < l.n; o++)
                        if (l.items[o].outcome == PRC_OUT_UNSUPPORTED)
                                unsupported++;
                        else
                                T_EQ_INT(l.items[o].outcome, PRC_OUT_NOT_FOUND);
                prc_obs_list_clear(&l);
        }
        /* dangerous-trigger and env-injection read the tokens; self-hosted-pr cannot read runs-on [1, null]. */
        T_EQ_INT(unsupported, 3);
        json_decref(mdocs);
}

static const prc_test tests[] = {
        T(test_analyses_gha_a__free_text_contexts_are_untrusted),
        T(test_analyses_gha_a__numbers_shas_booleans_and_logins_are_not),
        T(test_analyses_gha_a__pull_request_code_contexts),
        T(test_analyses_gha_a__self_hosted_runner_labels),
        T(test_analyses_gha_a__corpus_workflows_are_judged),
        T(test_analyses_gha_a__mistyped_details_never_crash),
        T(test_analyses_gha_a__first_trigger_in_the_events_order),
};
PRC_SUITE(analyses_gha_a, tests)
