/*
 * test_analyses_gha_b.c - the decisions of the GitHub Actions scope
 * analyses (workflows_scope.c): boolean inputs, versions of a uses ref,
 * which steps restore a cache and which publish.
 */
#include "t.h"

#include <jansson.h>

#include "analysis/workflows_scope.h"

static json_t *J(const char *text)
{
        json_error_t je;
        json_t *v = json_loads(text, JSON_DECODE_ANY, &je);

        if (v == NULL)
                t_fail(__FILE__, __LINE__, "bad test JSON: %s", je.text);
        return v;
}

static enum prc_gha_bool B(const char *text)
{
        json_t *v = J(text);
        enum prc_gha_bool b = prc_gha_bool_of(v);

        json_decref(v);
        return b;
}

static void test_analyses_gha_b__boolean_inputs_as_actions_core_reads_them(void)
{
        T_EQ_INT(prc_gha_bool_of(NULL), PRC_GHA_ABSENT);
        T_EQ_INT(B("true"), PRC_GHA_TRUE);
        T_EQ_INT(B("\"TRUE\""), PRC_GHA_TRUE);
        T_EQ_INT(B("\"${{ true }}\""), PRC_GHA_TRUE);
        T_EQ_INT(B("false"), PRC_GHA_FALSE);
        T_EQ_INT(B("\"False\""), PRC_GHA_FALSE);
        T_EQ_INT(B("\"${{false}}\""), PRC_GHA_FALSE);
        T_EQ_INT(B("\"  ${{  FALSE  }} \""), PRC_GHA_FALSE);
        /* Anything else in braces is known only at run time. */
        T_EQ_INT(B("\"${{ inputs.persist }}\""), PRC_GHA_EXPR);
        T_EQ_INT(B("\"${{ false }} and more\""), PRC_GHA_EXPR);
        T_EQ_INT(B("\"${{ !true }}\""), PRC_GHA_EXPR);
        T_EQ_INT(B("\"npm\""), PRC_GHA_OTHER);
        T_EQ_INT(B("18"), PRC_GHA_OTHER);
}

static void test_analyses_gha_b__ref_majors(void)
{
        T_EQ_INT(prc_gha_ref_major("v4"), 4);
        T_EQ_INT(prc_gha_ref_major("v4.1.1"), 4);
        T_EQ_INT(prc_gha_ref_major("5"), 5);
        T_EQ_INT(prc_gha_ref_major("V10.0"), 10);
        T_EQ_INT(prc_gha_ref_major("main"), -1);
        T_EQ_INT(prc_gha_ref_major("release/v1"), -1);
        T_EQ_INT(prc_gha_ref_major("v4-beta"), -1);
        T_EQ_INT(prc_gha_ref_major(NULL), -1);
        /* A commit is no version, even when it starts with digits. */
        T_EQ_INT(prc_gha_ref_major("1234567890abcdef1234567890abcdef12345678"), -1);
}

/* A step as the extractor writes it: uses owner/repo[/path]@ref and with entries. */
static json_t *step(const char *owner, const char *repo, const char *path, const char *ref, const char *with)
{
        json_t *s = J(with != NULL ? with : "[]");
        json_t *st = json_pack("{s:{s:s,s:s,s:s?,s:s,s:s,s:i},s:o,s:i}", "uses", "owner", owner, "repo", repo,
                               "path", path, "ref", ref, "raw", "x", "line", 3, "with", s, "line", 3);
        T_ASSERT(st != NULL);
        return st;
}

/* Does it restore, is it dynamic? */
static const char *R(json_t *st, bool *dyn)
{
        const char *r = prc_gha_cache_restore(st, dyn);

        json_decref(st);
        return r;
}

static void test_analyses_gha_b__which_steps_restore_a_cache(void)
{
        bool dyn;

        T_ASSERT(R(step("actions", "cache", NULL, "v4", NULL), &dyn) != NULL && !dyn);
        T_ASSERT(R(step("actions", "cache", "restore", "v4", NULL), &dyn) != NULL);
        T_ASSERT(R(step("actions", "cache", "save", "v4", NULL), &dyn) == NULL);
        T_ASSERT(R(step("actions", "cache", NULL, "v4", "[{\"name\":\"lookup-only\",\"value\":true}]"), &dyn) == NULL);
        /* setup-go: on by default from v4 and for commits; off before unless asked. */
        T_ASSERT(R(step("actions", "setup-go", NULL, "v5", NULL), &dyn) != NULL);
        T_ASSERT(R(step("actions", "setup-go", NULL, "0aaccfd150d50ccaeb58ebd88d36e91967a5f35b", NULL), &dyn) != NULL);
        T_ASSERT(R(step("actions", "setup-go", NULL, "v3", NULL), &dyn) == NULL);
        T_ASSERT(R(step("actions", "setup-go", NULL, "v3", "[{\"name\":\"cache\",\"value\":true}]"), &dyn) != NULL);
        T_ASSERT(R(step("actions", "setup-go", NULL, "v5", "[{\"name\":\"cache\",\"value\":\"false\"}]"), &dyn) ==
                 NULL);
        /* setup-node: cache: names a manager; v5 caches npm by itself. */
        T_ASSERT(R(step("actions", "setup-node", NULL, "v4", NULL), &dyn) == NULL);
        T_ASSERT(R(step("actions", "setup-node", NULL, "v4", "[{\"name\":\"cache\",\"value\":\"npm\"}]"), &dyn) !=
                 NULL);
        T_ASSERT(R(step("actions", "setup-node", NULL, "v4", "[{\"name\":\"cache\",\"value\":\"\"}]"), &dyn) == NULL);
        T_ASSERT(R(step("actions", "setup-node", NULL, "v5", NULL), &dyn) != NULL);
        T_ASSERT(R(step("actions", "setup-node", NULL, "v5", "[{\"name\":\"package-manager-cache\",\"value\":false}]"),
                   &dyn) == NULL);
        T_ASSERT(R(step("actions", "setup-python", NULL, "v5", "[{\"name\":\"cache\",\"value\":\"${{ inputs.c }}\"}]"),
                   &dyn) == NULL && dyn);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v6", NULL), &dyn) != NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v4", NULL), &dyn) == NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v10.0.0", NULL), &dyn) == NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v10", "[{\"name\":\"enable-cache\",\"value\":\"auto\"}]"),
                   &dyn) == NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v9", "[{\"name\":\"enable-cache\",\"value\":\"auto\"}]"),
                   &dyn) != NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v10", "[{\"name\":\"enable-cache\",\"value\":true}]"),
                   &dyn) != NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "ae62891fec2bb8e7d6c99fc78c9fec3a63790f8d", NULL), &dyn) !=
                 NULL);
        T_ASSERT(R(step("astral-sh", "setup-uv", NULL, "v6", "[{\"name\":\"enable-cache\",\"value\":false}]"), &dyn) ==
                 NULL);
        T_ASSERT(R(step("gradle", "actions", "setup-gradle", "v4", NULL), &dyn) != NULL);
        T_ASSERT(R(step("gradle", "actions", "wrapper-validation", "v4", NULL), &dyn) == NULL);
        T_ASSERT(R(step("docker", "build-push-action", NULL, "v6",
                        "[{\"name\":\"cache-from\",\"value\":\"type=gha\"}]"), &dyn) != NULL);
        T_ASSERT(R(step("docker", "build-push-action", NULL, "v6",
                        "[{\"name\":\"cache-from\",\"value\":\"type=registry,ref=x:${{ matrix.v }}\"}]"),
                   &dyn) == NULL &&
                 !dyn);
        T_ASSERT(R(step("docker", "build-push-action", NULL, "v6",
                        "[{\"name\":\"cache-from\",\"value\":\"${{ inputs.cache }}\"}]"), &dyn) == NULL && dyn);
        T_ASSERT(R(step("someone", "cache", NULL, "v1", NULL), &dyn) == NULL);
}

/* A run step whose script is one line of tokens. */
static bool publishes(const char *tokens, char *what, size_t n)
{
        char doc[1024];
        json_t *st;
        uint32_t line = 0;
        prc_err err;
        bool ok;

        snprintf(doc, sizeof(doc), "{\"line\":5,\"uses\":null,\"with\":[],\"run\":{\"line\":6,\"shell\":null,"
                 "\"tokens\":{\"assignments\":[],\"functions\":[],\"commands\":[{\"line\":6,\"body\":"
                 "[{\"line\":6,\"tokens\":%s}]}]}}}", tokens);
        st = J(doc);
        prc_err_init(&err);
        ok = prc_gha_step_publishes(st, what, n, &line, &err);
        json_decref(st);
        T_ASSERT(ok);
        return what[0] != 0 && line == 6;
}

static void test_analyses_gha_b__which_steps_publish(void)
{
        char w[128];
        json_t *st;
        uint32_t line = 0;
        prc_err err;

        T_ASSERT(publishes("[\"npm\",\"publish\",\"--access\",\"public\"]", w, sizeof(w)));
        T_EQ_STR(w, "npm publish");
        T_ASSERT(publishes("[\"npm\",\"ci\",\"&&\",\"npm\",\"publish\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"python\",\"-m\",\"build\",\"&&\",\"twine\",\"upload\",\"dist/*\"]", w, sizeof(w)));
        T_EQ_STR(w, "twine upload");
        T_ASSERT(publishes("[\"./gradlew\",\"publishToMavenCentral\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"docker\",\"buildx\",\"build\",\"--push\",\".\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"goreleaser\"]", w, sizeof(w)));
        /* npm-family scripts are named freely. */
        T_ASSERT(publishes("[\"pnpm\",\"run\",\"cipublish\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"npx\",\"changeset\",\"publish\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"yarn\",\"release\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"npm\",\"run\",\"release-notes\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"npm\",\"install\",\"--no-publish-x\"]", w, sizeof(w)));
        /* Words of another command, and commands that only read, are no publishing. */
        T_ASSERT(!publishes("[\"echo\",\"npm\",\"publish\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"npm\",\"ci\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"docker\",\"build\",\".\"]", w, sizeof(w)));
        T_ASSERT(publishes("[\"gh\",\"release\",\"upload\",\"v1\",\"dist/x\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"gh\",\"release\",\"download\",\"v1\"]", w, sizeof(w)));
        T_ASSERT(!publishes("[\"gh\",\"release\",\"view\"]", w, sizeof(w)));

        st = step("pypa", "gh-action-pypi-publish", NULL, "release/v1", NULL);
        prc_err_init(&err);
        T_ASSERT(prc_gha_step_publishes(st, w, sizeof(w), &line, &err));
        T_EQ_STR(w, "pypa/gh-action-pypi-publish");
        T_EQ_INT(line, 3);
        json_decref(st);
        st = step("changesets", "action", NULL, "v1", "[{\"name\":\"publish\",\"value\":\"pnpm release\"}]");
        T_ASSERT(prc_gha_step_publishes(st, w, sizeof(w), &line, &err));
        T_EQ_STR(w, "changesets/action with publish:");
        json_decref(st);
        st = step("changesets", "action", NULL, "v1", "[{\"name\":\"version\",\"value\":\"pnpm version\"}]");
        T_ASSERT(prc_gha_step_publishes(st, w, sizeof(w), &line, &err));
        T_EQ_STR(w, "");
        json_decref(st);
        st = step("docker", "build-push-action", NULL, "v6", "[{\"name\":\"push\",\"value\":false}]");
        T_ASSERT(prc_gha_step_publishes(st, w, sizeof(w), &line, &err));
        T_EQ_STR(w, "");
        json_decref(st);
}

/* Run tokens the worker got wrong are refused, never walked. */
static void test_analyses_gha_b__malformed_run_tokens_are_refused(void)
{
        json_t *st = J("{\"line\":5,\"uses\":null,\"with\":[],\"run\":{\"line\":6,\"shell\":null,"
                       "\"tokens\":{\"assignments\":[],\"functions\":[],\"commands\":[{\"line\":6,\"body\":"
                       "[{\"line\":6,\"tokens\":[\"npm\",7]}]}]}}}");
        char w[64];
        uint32_t line = 0;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_gha_step_publishes(st, w, sizeof(w), &line, &err));
        T_EQ_STR(prc_err_name(err.cls), "tokens-invalid");
        json_decref(st);
}

static const prc_test tests[] = {
        T(test_analyses_gha_b__malformed_run_tokens_are_refused),
        T(test_analyses_gha_b__boolean_inputs_as_actions_core_reads_them),
        T(test_analyses_gha_b__ref_majors),
        T(test_analyses_gha_b__which_steps_restore_a_cache),
        T(test_analyses_gha_b__which_steps_publish),
};
PRC_SUITE(analyses_gha_b, tests)
