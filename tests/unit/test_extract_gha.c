/*
 * test_extract_gha.c - the GitHub Actions and container extractors
 * (actions.c, gha_expr.c, dockerfile.c) and the YAML position table they
 * stand on.
 */
#include "t.h"

#include <stdlib.h>
#include <string.h>

#include "base/yaml.h"
#include "content/extract/extract.h"
#include "content/extract/gha.h"
#include "mdoc_t.h"

/* The value at a '/'-separated path of keys and indexes ("details/jobs/0/id"), or NULL. */
static json_t *at(json_t *v, const char *path)
{
        char buf[256], *save = NULL, *seg;

        snprintf(buf, sizeof(buf), "%s", path);
        for (seg = strtok_r(buf, "/", &save); seg != NULL && v != NULL; seg = strtok_r(NULL, "/", &save))
                v = json_is_array(v) ? json_array_get(v, strtoul(seg, NULL, 10)) : json_object_get(v, seg);
        return v;
}

static const char *s_at(json_t *v, const char *path)
{
        return json_string_value(at(v, path));
}

static long long i_at(json_t *v, const char *path)
{
        return (long long)json_integer_value(at(v, path));
}

static json_t *run(const char *path, const char *text, prc_err *e)
{
        prc_xin in = { path, (const uint8_t *)text, strlen(text), &prc_limits_default };
        const prc_extractor *x = prc_extractor_for_path(path);

        prc_err_init(e);
        if (x == NULL)
                return NULL;
        return t_md_checked(x->fn(&in, e), path, x->format);
}

/* The expression of list whose text is text, or NULL. */
static json_t *expr(json_t *list, const char *text)
{
        size_t i;
        json_t *e;

        json_array_foreach(list, i, e)
                if (strcmp(json_string_value(json_object_get(e, "text")), text) == 0)
                        return e;
        return NULL;
}

static bool has_ref(json_t *e, const char *path, bool flows)
{
        size_t i;
        json_t *r;

        json_array_foreach(json_object_get(e, "contexts"), i, r)
                if (strcmp(json_string_value(json_object_get(r, "path")), path) == 0)
                        return json_is_true(json_object_get(r, "flows")) == flows;
        return false;
}

static void test_extract_gha__yaml_positions(void)
{
        static const char y[] = "a: 1\nb:\n  - x\n  - k: |\n      line1\n      line2\n\"on\": &an [p]\nc: *an\n";
        prc_yaml_pos *pos = NULL;
        prc_yaml_at a;
        prc_err e;
        json_t *v, *w;
        uint32_t root, b, item;

        prc_err_init(&e);
        v = prc_yaml_load_pos((const uint8_t *)y, sizeof(y) - 1, &prc_limits_default, 0, &pos, &e);
        T_NOERR(e);
        root = prc_yaml_pos_root(pos);
        T_ASSERT(prc_yaml_pos_get(pos, prc_yaml_pos_key(pos, root, "a"), &a));
        T_EQ_INT(a.line, 1);
        T_EQ_INT(a.key_line, 1);
        b = prc_yaml_pos_key(pos, root, "b");
        T_ASSERT(prc_yaml_pos_get(pos, b, &a));
        T_EQ_INT(a.key_line, 2);
        T_EQ_INT(a.style, PRC_YAML_STYLE_SEQ);
        T_ASSERT(prc_yaml_pos_get(pos, prc_yaml_pos_index(pos, b, 0), &a));
        T_EQ_INT(a.line, 3);
        item = prc_yaml_pos_index(pos, b, 1);
        T_ASSERT(prc_yaml_pos_get(pos, prc_yaml_pos_key(pos, item, "k"), &a));
        /* a block scalar starts where its content does: the line after the '|' */
        T_EQ_INT(a.key_line, 4);
        T_EQ_INT(a.line, 5);
        T_EQ_INT(a.style, PRC_YAML_STYLE_LITERAL);
        /* the quoted "on" is a plain string key, and so is a plain one (YAML 1.2 core schema) */
        T_ASSERT(prc_yaml_pos_get(pos, prc_yaml_pos_key(pos, root, "on"), &a));
        T_EQ_INT(a.key_line, 7);
        T_ASSERT(prc_yaml_pos_get(pos, prc_yaml_pos_key(pos, root, "c"), &a));
        T_EQ_INT(a.style, PRC_YAML_STYLE_ALIAS);
        T_EQ_INT(prc_yaml_pos_index(pos, prc_yaml_pos_key(pos, root, "c"), 0), 0);
        T_EQ_INT(prc_yaml_pos_key(pos, root, "zz"), 0);
        /* the default loader gives the same tree */
        w = prc_yaml_load((const uint8_t *)y, sizeof(y) - 1, &prc_limits_default, 0, &e);
        T_ASSERT(json_equal(v, w));
        json_decref(w);
        json_decref(v);
        prc_yaml_pos_free(pos);
        prc_err_init(&e);
        w = prc_yaml_load((const uint8_t *)"on: push\n", 9, &prc_limits_default, 0, &e);
        T_ASSERT(json_is_string(json_object_get(w, "on")));
        json_decref(w);
        /* a failed load hands out no table, also when the bytes are refused before parsing (ASan checks leaks) */
        pos = NULL;
        T_ASSERT(prc_yaml_load_pos((const uint8_t *)"a: [", 4, &prc_limits_default, 0, &pos, &e) == NULL);
        T_ASSERT(pos == NULL);
        prc_err_init(&e);
        T_ASSERT(prc_yaml_load_pos((const uint8_t *)"a: \xff", 4, &prc_limits_default, 0, &pos, &e) == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_ASSERT(pos == NULL);
}

static void test_extract_gha__expressions(void)
{
        json_t *refs = json_array(), *funcs = json_array();
        char why[128];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_gha_expr_parse("github.event.pull_request.title", 31, refs, funcs, why, sizeof(why), &e));
        T_EQ_STR(s_at(refs, "0/path"), "github.event.pull_request.title");
        T_ASSERT(json_is_true(at(refs, "0/flows")));
        json_array_clear(refs);
#define P(s) prc_gha_expr_parse(s, strlen(s), refs, funcs, why, sizeof(why), &e)
        T_ASSERT(P("contains(github.event.issue.labels.*.name, 'bug') && github.event.issue.title"));
        T_EQ_STR(s_at(refs, "0/path"), "github.event.issue.labels.*.name");
        T_ASSERT(json_is_false(at(refs, "0/flows")));
        T_EQ_STR(s_at(refs, "1/path"), "github.event.issue.title");
        T_ASSERT(json_is_true(at(refs, "1/flows")));
        T_EQ_STR(s_at(funcs, "0"), "contains");
        json_array_clear(refs);
        T_ASSERT(P("format('{0} ''}}'' {1}', Github.Head_Ref, steps['my-step'].outputs.x)"));
        T_EQ_STR(s_at(refs, "0/path"), "github.head_ref");
        T_EQ_STR(s_at(refs, "1/path"), "steps.my-step.outputs.x");
        T_ASSERT(json_is_true(at(refs, "1/flows")));
        json_array_clear(refs);
        T_ASSERT(P("secrets[format('T_{0}', matrix.os)]"));
        T_EQ_STR(s_at(refs, "0/path"), "matrix.os");
        T_ASSERT(json_is_false(at(refs, "0/flows")));
        T_EQ_STR(s_at(refs, "1/path"), "secrets[?]");
        json_array_clear(refs);
        T_ASSERT(P("!(github.event.pull_request.number == 1) || fromJSON(needs.a.outputs.m)[0] >= 2.5e1"));
        T_ASSERT(json_is_false(at(refs, "0/flows")));
        T_EQ_STR(s_at(refs, "1/path"), "needs.a.outputs.m");
        T_ASSERT(json_is_false(at(refs, "1/flows")));
        json_array_clear(refs);
        T_ASSERT(P("toJSON(github.event.commits[*].message)"));
        T_EQ_STR(s_at(refs, "0/path"), "github.event.commits[*].message");
        T_ASSERT(json_is_true(at(refs, "0/flows")));
        T_ASSERT(!P("github.event.("));
        T_ASSERT(strlen(why) > 0);
        T_ASSERT(!P("'unterminated"));
        T_ASSERT(!P("a ="));
        T_ASSERT(!P(""));
        T_ASSERT(!P("a b"));
#undef P
        T_NOERR(e);
        json_decref(refs);
        json_decref(funcs);
}

static const char WORKFLOW[] =
        "name: tricky\n"                                                        /* 1 */
        "\"on\":\n"
        "  pull_request_target:\n"
        "    types: [opened, synchronize]\n"
        "    branches: main\n"                                                  /* 5 */
        "  workflow_run:\n"
        "    workflows: [\"CI\"]\n"
        "    types: completed\n"
        "permissions:\n"
        "  contents: read\n"                                                    /* 10 */
        "defaults: &defs\n"
        "  run:\n"
        "    shell: bash\n"
        "jobs:\n"
        "  build:\n"                                                            /* 15 */
        "    runs-on: ${{ matrix.os }}\n"
        "    permissions: write-all\n"
        "    strategy:\n"
        "      matrix:\n"
        "        python: [3.10, \"3.11\"]\n"                                    /* 20 */
        "    container:\n"
        "      image: ghcr.io/org/b:1@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
        "      credentials:\n"
        "        username: u\n"
        "        password: hunter2-literal\n"                                   /* 25 */
        "    steps:\n"
        "      - uses: actions/checkout@8f4b7f84864484a7bf31766abe9204da3cbe65b3 # v4.1.1\n"
        "        with:\n"
        "          ref: ${{ github.event.pull_request.head.sha }}\n"
        "      - id: t\n"                                                       /* 30 */
        "        if: contains(github.event.pull_request.labels.*.name, 'ok')\n"
        "        env:\n"
        "          TITLE: ${{ github.event.pull_request.title }}\n"
        "        run: |\n"
        "          echo \"title: ${{ github.event.pull_request.title }}\"\n"   /* 35 */
        "          echo \"$TITLE\" \\\n"
        "            >> \"$GITHUB_ENV\"\n"
        "      - uses: docker://alpine:3.19\n"
        "      - uses: ./local/action\n"
        "      - uses: Org/Mono/sub/path@main\n"                                /* 40 */
        "        with:\n"
        "          s: ${{ secrets[format('T_{0}', matrix.os)] }}\n"
        "  call:\n"
        "    needs: build\n"
        "    uses: org/shared/.github/workflows/release.yml@v1\n"             /* 45 */
        "    secrets: inherit\n"
        "  win:\n"
        "    runs-on: windows-latest\n"
        "    defaults: *defs\n"
        "    steps:\n"                                                          /* 50 */
        "      - run: Write-Host hi\n"
        "        shell: pwsh\n"
        "      - run: echo default-windows\n";

static void test_extract_gha__workflow(void)
{
        prc_err e;
        json_t *md = run(".github/workflows/ci.yml", WORKFLOW, &e), *d, *steps, *x;
        char *dump;

        T_NOERR(e);
        T_ASSERT(md != NULL);
        T_EQ_STR(s_at(md, "kind"), "workflow");
        T_EQ_STR(s_at(md, "ecosystem"), "github-actions");
        d = at(md, "details");
        T_EQ_STR(s_at(d, "triggers/0/event"), "pull_request_target");
        T_EQ_INT(i_at(d, "triggers/0/line"), 3);
        T_EQ_STR(s_at(d, "triggers/0/types/1"), "synchronize");
        T_EQ_STR(s_at(d, "triggers/0/branches/0"), "main");
        T_EQ_STR(s_at(d, "triggers/1/workflows/0"), "CI");
        T_EQ_STR(s_at(d, "triggers/1/types/0"), "completed");
        T_EQ_STR(s_at(d, "permissions/value/contents"), "read");
        T_EQ_INT(i_at(d, "permissions/line"), 9);
        T_EQ_STR(s_at(d, "jobs/0/id"), "build");
        T_EQ_STR(s_at(d, "jobs/0/permissions/value"), "write-all");
        /* floats stay as written */
        T_EQ_STR(s_at(d, "jobs/0/strategy/value/matrix/python/0"), "3.10");
        T_EQ_STR(s_at(d, "jobs/0/container/image/tag"), "1");
        T_EQ_STR(s_at(d, "jobs/0/container/image/registry"), "ghcr.io");
        steps = at(d, "jobs/0/steps");
        T_EQ_STR(s_at(steps, "0/uses/owner"), "actions");
        T_EQ_STR(s_at(steps, "0/uses/repo"), "checkout");
        T_ASSERT(json_is_true(at(steps, "0/uses/ref_is_sha")));
        T_EQ_INT(i_at(steps, "0/uses/line"), 27);
        T_EQ_INT(i_at(steps, "1/line"), 30);
        T_EQ_INT(i_at(steps, "1/run/line"), 35);
        /* the multi-line run: its lines are the file's, a continuation stays one command */
        T_EQ_INT(i_at(steps, "1/run/tokens/commands/0/line"), 35);
        T_EQ_INT(i_at(steps, "1/run/tokens/commands/1/line"), 36);
        T_EQ_STR(s_at(steps, "1/run/tokens/commands/1/body/0/tokens/2"), ">>");
        x = expr(at(steps, "1/expressions"), "github.event.pull_request.title");
        T_ASSERT(x != NULL);
        x = NULL;
        {
                size_t i;
                json_t *ex;
                json_array_foreach(at(steps, "1/expressions"), i, ex)
                        if (strcmp(s_at(ex, "field"), "run") == 0)
                                x = ex;
        }
        T_ASSERT(x != NULL);
        T_EQ_INT(i_at(x, "line"), 35);
        T_ASSERT(has_ref(x, "github.event.pull_request.title", true));
        x = expr(at(steps, "1/expressions"), "contains(github.event.pull_request.labels.*.name, 'ok')");
        T_ASSERT(x != NULL);
        T_EQ_STR(s_at(x, "field"), "if");
        T_EQ_INT(i_at(x, "line"), 31);
        T_ASSERT(has_ref(x, "github.event.pull_request.labels.*.name", false));
        T_EQ_STR(s_at(steps, "1/env/0/name"), "TITLE");
        T_EQ_INT(i_at(steps, "1/env/0/line"), 33);
        T_EQ_STR(s_at(steps, "2/uses/kind"), "docker");
        T_EQ_STR(s_at(steps, "2/uses/image/repository"), "library/alpine");
        T_EQ_STR(s_at(steps, "3/uses/kind"), "local");
        T_ASSERT(json_is_null(at(steps, "3/uses/ref")));
        T_EQ_STR(s_at(steps, "4/uses/path"), "sub/path");
        x = at(steps, "4/expressions/0");
        T_EQ_STR(s_at(x, "field"), "with.s");
        T_ASSERT(has_ref(x, "secrets[?]", true));
        T_EQ_STR(s_at(d, "jobs/1/uses/kind"), "workflow");
        T_EQ_STR(s_at(d, "jobs/1/secrets"), "inherit");
        T_EQ_STR(s_at(d, "jobs/1/needs/0"), "build");
        /* pwsh is not tokenized, and says so; the anchored defaults make the next step bash on Windows too */
        T_ASSERT(json_is_null(at(d, "jobs/2/steps/0/run/tokens")));
        T_EQ_STR(s_at(d, "jobs/2/steps/0/run/shell"), "pwsh");
        T_EQ_STR(s_at(d, "jobs/2/steps/1/run/shell"), "bash");
        T_EQ_STR(s_at(d, "jobs/2/steps/1/run/tokens/commands/0/body/0/tokens/1"), "default-windows");
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 1);
        T_EQ_STR(s_at(md, "not_extracted/0/what"), "jobs.win.steps[0].run");
        /* dependencies: checkout, the container, alpine, the monorepo action, the reusable workflow */
        T_EQ_INT(json_array_size(at(md, "dependencies")), 5);
        T_EQ_STR(s_at(md, "dependencies/0/name"), "ghcr.io/org/b");
        T_EQ_STR(s_at(md, "dependencies/1/name"), "actions/checkout");
        T_EQ_STR(s_at(md, "dependencies/1/resolved"), "8f4b7f84864484a7bf31766abe9204da3cbe65b3");
        T_EQ_STR(s_at(md, "dependencies/1/source/type"), "git");
        T_EQ_STR(s_at(md, "dependencies/1/source/url"), "https://github.com/actions/checkout");
        T_EQ_STR(s_at(md, "dependencies/1/purl"), "pkg:githubactions/actions/checkout@8f4b7f84864484a7bf31766abe9204da3cbe65b3");
        T_EQ_INT(i_at(md, "dependencies/1/line"), 27);
        T_EQ_STR(s_at(md, "dependencies/2/purl"), "pkg:docker/alpine@3.19");
        T_EQ_STR(s_at(md, "dependencies/3/name"), "Org/Mono/sub/path");
        T_EQ_STR(s_at(md, "dependencies/3/purl"), "pkg:githubactions/org/mono%2Fsub%2Fpath@main");
        T_ASSERT(json_is_null(at(md, "dependencies/3/resolved")));
        T_EQ_STR(s_at(md, "dependencies/4/name"), "org/shared/.github/workflows/release.yml");
        /* the literal registry password is present by key, never by value */
        T_EQ_STR(s_at(md, "credentials/0/key"), "jobs.build.container.credentials.password");
        T_EQ_INT(i_at(md, "credentials/0/line"), 25);
        dump = json_dumps(md, JSON_COMPACT);
        T_ASSERT(strstr(dump, "hunter2") == NULL);
        free(dump);
        json_decref(md);
}

/* cache-mode (GitHub's least-privilege cache access) is kept as written, at the workflow and in each job. */
static void test_extract_gha__cache_mode(void)
{
        prc_err e;
        json_t *md = run(".github/workflows/r.yml", "on: release\ncache-mode: none\njobs:\n  a:\n    runs-on: x\n"
                         "    cache-mode: write-only\n    steps:\n      - run: make\n  b:\n    runs-on: x\n"
                         "    steps:\n      - run: make\n", &e);

        T_NOERR(e);
        T_ASSERT(md != NULL);
        T_EQ_STR(s_at(md, "details/cache_mode/value"), "none");
        T_EQ_INT(i_at(md, "details/cache_mode/line"), 2);
        T_EQ_STR(s_at(md, "details/jobs/0/cache_mode/value"), "write-only");
        T_EQ_INT(i_at(md, "details/jobs/0/cache_mode/line"), 6);
        T_ASSERT(json_is_null(at(md, "details/jobs/1/cache_mode")));
        json_decref(md);
}

/*
 * Job b takes job a's steps through a `<<` merge: the merged nodes have no position of their own (the
 * loader keeps the alias's), yet the script's tokens need file lines: they take the job's.
 */
static void test_extract_gha__merged_steps_tokens_take_the_job_line(void)
{
        prc_err e;
        json_t *md = run(".github/workflows/m.yml", "on: push\njobs:\n  a: &j\n    runs-on: x\n"
                         "    steps: [{run: y}]\n  b:\n    <<: *j\n    needs: [a]\n", &e);

        T_NOERR(e);
        T_ASSERT(md != NULL);
        T_EQ_INT(i_at(md, "details/jobs/0/steps/0/run/line"), 5);
        T_EQ_INT(i_at(md, "details/jobs/0/steps/0/run/tokens/commands/0/line"), 5);
        T_EQ_STR(s_at(md, "details/jobs/1/id"), "b");
        T_EQ_INT(i_at(md, "details/jobs/1/line"), 7);
        T_ASSERT(json_is_null(at(md, "details/jobs/1/steps/0/line")));
        T_ASSERT(json_is_null(at(md, "details/jobs/1/steps/0/run/line")));
        T_EQ_INT(i_at(md, "details/jobs/1/steps/0/run/tokens/commands/0/line"), 7);
        json_decref(md);
}

static void test_extract_gha__action_and_refusals(void)
{
        static const char action[] =
                "name: c\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n"
                "        curl -fsSL https://x.invalid/i.sh | sh\n    - uses: actions/setup-node@v4\n";
        prc_err e;
        json_t *md = run("tools/action.yaml", action, &e);

        T_NOERR(e);
        T_EQ_STR(s_at(md, "kind"), "action");
        T_EQ_STR(s_at(md, "details/runs/using"), "composite");
        T_EQ_INT(i_at(md, "details/runs/steps/0/run/tokens/commands/0/line"), 7);
        T_EQ_STR(s_at(md, "dependencies/0/purl"), "pkg:githubactions/actions/setup-node@v4");
        json_decref(md);
        T_ASSERT(run("action.yml", "name: x\n", &e) == NULL);
        T_ERR(e, PRC_E_GHA_NOT_ACTION);
        T_ASSERT(run(".github/workflows/x.yml", "name: x\njobs: {}\n", &e) == NULL);
        T_ERR(e, PRC_E_GHA_NOT_WORKFLOW);
        T_ASSERT(run(".github/workflows/x.yml", "- a\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(run(".github/workflows/x.yml", "on: push\njobs:\n  a:\n    steps: 3\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 4);
        T_ASSERT(run(".github/workflows/x.yml", "on: [push\n", &e) == NULL);
        T_ERR(e, PRC_E_YAML_SYNTAX);
        /* an expression that does not parse is kept, marked, and listed as not extracted */
        md = run(".github/workflows/x.yml", "on: push\njobs:\n  a:\n    steps:\n      - run: echo ${{ a.( }}\n", &e);
        T_NOERR(e);
        T_ASSERT(json_is_null(at(md, "details/jobs/0/steps/0/expressions/0/contexts")));
        T_ASSERT(json_is_string(at(md, "details/jobs/0/steps/0/expressions/0/error")));
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 1);
        json_decref(md);
        /* the Windows runner's default shell is PowerShell: not tokenized */
        md = run(".github/workflows/x.yml", "on: push\njobs:\n  a:\n    runs-on: windows-2022\n    steps:\n"
                 "      - run: dir\n", &e);
        T_NOERR(e);
        T_ASSERT(json_is_null(at(md, "details/jobs/0/steps/0/run/tokens")));
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 1);
        json_decref(md);
        /* an image given by an expression is known only at run time: not extracted, and said */
        md = run(".github/workflows/x.yml", "on: push\njobs:\n  a:\n    container: ${{ matrix.img }}\n", &e);
        T_NOERR(e);
        T_EQ_STR(s_at(md, "not_extracted/0/what"), "jobs.a.container");
        T_EQ_INT(i_at(md, "not_extracted/0/line"), 4);
        json_decref(md);
        /* uses without a ref: recorded with its error, not a dependency */
        md = run(".github/workflows/x.yml", "on: push\njobs:\n  a:\n    steps:\n      - uses: actions/checkout\n", &e);
        T_NOERR(e);
        T_EQ_STR(s_at(md, "details/jobs/0/steps/0/uses/error"), "no '@ref'");
        T_EQ_INT(json_array_size(at(md, "dependencies")), 0);
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 1);
        json_decref(md);
}

/* Many small scripts that each expand within the tokenizer's own bound still meet the per-file budget. */
static void test_extract_gha__token_budget_per_file(void)
{
        static const char head[] = "on: push\njobs:\n  a:\n    steps:\n";
        static const char step[] = "      - run: x=({a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b})\n";
        size_t n = 3000, len = strlen(head) + n * strlen(step);
        char *y = malloc(len + 1);
        size_t off = strlen(head);
        prc_err e;
        json_t *md;

        T_ASSERT(y != NULL);
        memcpy(y, head, off);
        for (size_t i = 0; i < n; i++, off += strlen(step))
                memcpy(y + off, step, strlen(step));
        y[off] = '\0';
        md = run(".github/workflows/x.yml", y, &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_LIMIT);
        T_ASSERT(e.line > 4);
        free(y);
}

static void test_extract_gha__matching(void)
{
        T_EQ_STR(prc_extractor_for_path(".github/workflows/ci.yml")->format, "gha-workflow");
        T_EQ_STR(prc_extractor_for_path("a/b/.github/workflows/ci.yaml")->format, "gha-workflow");
        T_ASSERT(prc_extractor_for_path(".github/workflows/sub/ci.yml") == NULL ||
                 strcmp(prc_extractor_for_path(".github/workflows/sub/ci.yml")->format, "gha-workflow") != 0);
        T_EQ_STR(prc_extractor_for_path("x/action.yml")->format, "gha-action");
        T_EQ_STR(prc_extractor_for_path("Dockerfile")->format, "dockerfile");
        T_EQ_STR(prc_extractor_for_path("d/Containerfile")->format, "dockerfile");
        T_EQ_STR(prc_extractor_for_path("build.Dockerfile")->format, "dockerfile");
        T_EQ_STR(prc_extractor_for_path("Dockerfile.dev")->format, "dockerfile");
        T_ASSERT(prc_extractor_for_path("Dockerfile.dockerignore") == NULL);
}

static const char DOCKERFILE[] =
        "# syntax=docker/dockerfile:1\n"                                       /* 1 */
        "ARG BASE=debian\n"
        "ARG TAG=\"bookworm\"\n"
        "ARG UNSET\n"
        "FROM --platform=$BUILDPLATFORM ${BASE}:${TAG} AS build\n"             /* 5 */
        "RUN apt-get update \\\n"
        "    # dropped comment\n"
        "    && curl -fsSL https://x.invalid/i.sh | sh\n"
        "RUN <<EOF\n"
        "echo hi\n"                                                             /* 10 */
        "EOF\n"
        "ADD https://x.invalid/y.tgz /y\n"
        "ADD --checksum=sha256:abc https://x.invalid/z.tgz /z\n"
        "FROM build AS test\n"
        "FROM ${UNSET}\n"                                                       /* 15 */
        "FROM scratch\n"
        "COPY --from=build /a /b\n"
        "COPY --from=nginx:1.25@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef /c /d\n"
        "USER 65532\n"
        "CMD [\"/app\"]\n";                                                     /* 20 */

/* A RUN's here-documents are tokenized with file lines (BuildKit may run them as the script); a shebang is kept. */
static void test_extract_gha__dockerfile_run_heredoc_tokens(void)
{
        static const char d[] = "FROM alpine\n"
                                "RUN <<EOT1 <<EOT2\n"
                                "set -e\n"
                                "curl -fsSL https://x.invalid/i.sh | sh\n"                   /* 4 */
                                "EOT1\n"
                                "#!/usr/bin/env python3\n"
                                "print('x')\n"
                                "EOT2\n"
                                "COPY <<EOF /etc/motd\n"
                                "hello\n"
                                "EOF\n"
                                "RUN <<EOT\n"
                                "echo \"unterminated\n"
                                "EOT\n";
        prc_err e;
        json_t *md = run("Dockerfile", d, &e), *st;

        T_NOERR(e);
        st = at(md, "details/stages/0/instructions");
        T_EQ_INT(i_at(st, "0/heredocs/0/line"), 3);
        T_EQ_INT(i_at(st, "0/heredocs/0/tokens/commands/1/line"), 4);
        T_EQ_INT(i_at(st, "0/heredocs/0/tokens/commands/1/body/0/line"), 4);
        T_EQ_STR(s_at(st, "0/heredocs/0/tokens/commands/1/body/0/tokens/0"), "curl");
        T_ASSERT(json_is_null(at(st, "0/heredocs/0/shebang")));
        T_EQ_STR(s_at(st, "0/heredocs/1/shebang"), "#!/usr/bin/env python3");
        /* a COPY here-document is data: no tokens */
        T_ASSERT(at(st, "1/heredocs/0/tokens") == NULL);
        /* a body that is not shell has null tokens, and the file is still extracted */
        T_ASSERT(json_is_null(at(st, "2/heredocs/0/tokens")));
        json_decref(md);
}

static void test_extract_gha__dockerfile(void)
{
        prc_err e;
        json_t *md = run("svc/Dockerfile", DOCKERFILE, &e), *st;

        T_NOERR(e);
        T_EQ_STR(s_at(md, "kind"), "container");
        st = at(md, "details/stages");
        T_EQ_INT(json_array_size(st), 4);
        T_EQ_STR(s_at(st, "0/base"), "debian:bookworm");
        T_EQ_STR(s_at(st, "0/name"), "build");
        T_EQ_STR(s_at(st, "0/platform"), "$BUILDPLATFORM");
        T_EQ_INT(i_at(st, "0/line"), 5);
        T_EQ_INT(i_at(st, "0/instructions/0/tokens/commands/0/body/0/line"), 6);
        T_EQ_STR(s_at(st, "0/instructions/0/tokens/commands/0/body/0/tokens/3"), "curl");
        T_EQ_STR(s_at(st, "0/instructions/1/heredocs/0/body"), "echo hi\n");
        T_EQ_STR(s_at(st, "0/instructions/2/sources/0/kind"), "url");
        T_ASSERT(json_is_null(at(st, "0/instructions/2/checksum")));
        T_EQ_STR(s_at(st, "0/instructions/3/checksum"), "sha256:abc");
        T_EQ_INT(i_at(st, "1/from_stage"), 0);
        T_EQ_STR(s_at(st, "2/unresolved/0"), "UNSET");
        T_ASSERT(json_is_true(at(st, "3/scratch")));
        T_EQ_INT(i_at(st, "3/instructions/0/from_stage"), 0);
        T_EQ_STR(s_at(st, "3/user/value"), "65532");
        T_EQ_STR(s_at(st, "3/instructions/3/exec/0"), "/app");
        T_EQ_INT(i_at(md, "details/final_stage"), 3);
        /* debian (build) and the COPY --from image; the unresolved FROM is not extracted, and says so */
        T_EQ_INT(json_array_size(at(md, "dependencies")), 2);
        T_EQ_STR(s_at(md, "dependencies/0/purl"), "pkg:docker/debian@bookworm");
        T_EQ_STR(s_at(md, "dependencies/0/scope"), "build");
        T_EQ_STR(s_at(md, "dependencies/1/name"), "nginx");
        T_EQ_STR(s_at(md, "dependencies/1/resolved"),
                 "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 1);
        T_EQ_INT(i_at(md, "not_extracted/0/line"), 15);
        json_decref(md);

        md = run("Dockerfile", "# escape=`\nFROM alpine:3 `\n  AS x\nRUN echo a `\n  b\n", &e);
        T_NOERR(e);
        T_EQ_STR(s_at(md, "details/stages/0/name"), "x");
        T_EQ_STR(s_at(md, "details/stages/0/instructions/0/tokens/commands/0/body/0/tokens/2"), "b");
        T_EQ_STR(s_at(md, "dependencies/0/scope"), "runtime");
        json_decref(md);
        /* SHELL stops tokenizing, and a stage built on that one keeps it; HEALTHCHECK's CMD word is no token */
        md = run("Dockerfile", "FROM mcr.microsoft.com/windows:ltsc AS w\nSHELL [\"powershell\", \"-c\"]\n"
                 "RUN Get-Thing\nFROM w\nRUN Get-Other\nFROM alpine\nHEALTHCHECK --retries=3 CMD wget -q x || exit 1\n", &e);
        T_NOERR(e);
        T_ASSERT(json_is_null(at(md, "details/stages/0/instructions/1/tokens")));
        T_ASSERT(json_is_null(at(md, "details/stages/1/instructions/0/tokens")));
        T_EQ_STR(s_at(md, "details/stages/1/shell/0"), "powershell");
        T_EQ_INT(json_array_size(at(md, "not_extracted")), 2);
        T_EQ_STR(s_at(md, "details/stages/2/instructions/0/tokens/commands/0/body/0/tokens/0"), "wget");
        T_EQ_INT(i_at(md, "details/stages/2/instructions/0/tokens/commands/0/body/0/line"), 7);
        json_decref(md);

        /* "<<" inside quotes or arithmetic is no here-document; a byte order mark is no part of FROM */
        md = run("Dockerfile", "\xef\xbb\xbf" "FROM a\nRUN echo \"x<<y\" && echo $((1<<2))\nCOPY --from=$V /a /b\n", &e);
        T_NOERR(e);
        T_EQ_STR(s_at(md, "details/stages/0/base"), "a");
        T_EQ_INT(json_array_size(at(md, "details/stages/0/instructions/0/heredocs")), 0);
        T_EQ_STR(s_at(md, "not_extracted/0/what"), "$V");
        T_EQ_INT(json_array_size(at(md, "dependencies")), 1);
        json_decref(md);
        T_ASSERT(run("Dockerfile", "# escape=`\n# escape=\\\nFROM a\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_SYNTAX);
        T_EQ_INT(e.line, 2);
        T_ASSERT(run("Dockerfile", "# just a comment\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_NO_STAGE);
        T_ASSERT(run("Dockerfile", "RUN x\nFROM a\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_NO_STAGE);
        T_EQ_INT(e.line, 1);
        T_ASSERT(run("Dockerfile", "FROM a\nFROB x\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_SYNTAX);
        T_EQ_INT(e.line, 2);
        T_ASSERT(run("Dockerfile", "FROM a\nRUN <<EOT\nnever closed\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_SYNTAX);
        T_ASSERT(run("Dockerfile", "# escape=x\nFROM a\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_SYNTAX);
        T_ASSERT(run("Dockerfile", "FROM a b\n", &e) == NULL);
        T_ERR(e, PRC_E_DOCKER_SYNTAX);
        T_ASSERT(run("Dockerfile", "FROM a\n\xff\n", &e) == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
}

static const prc_test tests[] = {
        T(test_extract_gha__yaml_positions),
        T(test_extract_gha__expressions),
        T(test_extract_gha__workflow),
        T(test_extract_gha__cache_mode),
        T(test_extract_gha__merged_steps_tokens_take_the_job_line),
        T(test_extract_gha__action_and_refusals),
        T(test_extract_gha__token_budget_per_file),
        T(test_extract_gha__matching),
        T(test_extract_gha__dockerfile),
        T(test_extract_gha__dockerfile_run_heredoc_tokens),
};
PRC_SUITE(extract_gha, tests)
