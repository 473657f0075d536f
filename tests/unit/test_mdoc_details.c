/*
 * test_mdoc_details.c - the client's check of a ManifestDoc's details
 * (mdoc_details.c): every extractor format has a shape, real extractor
 * output of every family passes, and each way a worker could bend a
 * family's details is refused as manifest-doc-details-invalid, located.
 */
#include "t.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strv.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_details.h"

/* Extract a fixture of tests/fixtures/extract as format, in process; the path is rel. */
static json_t *xf(const char *format, const char *rel)
{
        const prc_extractor *x = prc_extractor_by_format(format);
        char path[4200];
        size_t n;
        char *text;
        json_t *md;
        prc_err e;

        T_ASSERT(x != NULL);
        snprintf(path, sizeof(path), "%s/tests/fixtures/extract/%s", t_root(), rel);
        text = t_read(path, &n);
        prc_xin in = { rel, (const uint8_t *)text, n, &prc_limits_default };
        prc_err_init(&e);
        md = x->fn(&in, &e);
        free(text);
        if (md == NULL)
                t_fail(__FILE__, __LINE__, "%s refused: %s: %s", rel, prc_err_name(e.cls), e.msg);
        return md;
}

/* The node at JSON pointer p in v (keys without '~' or '/'; numbers index arrays), or NULL. */
static json_t *at(json_t *v, const char *p)
{
        char buf[256], *s, *tok;

        snprintf(buf, sizeof(buf), "%s", p);
        for (tok = strtok_r(buf, "/", &s); tok != NULL && v != NULL; tok = strtok_r(NULL, "/", &s))
                v = json_is_array(v) ? json_array_get(v, strtoul(tok, NULL, 10)) : json_object_get(v, tok);
        return v;
}

/* Set (value JSON) or delete (value NULL) the member at pointer p of md. */
static void bend(json_t *md, const char *p, const char *value)
{
        char parent[256];
        const char *last = strrchr(p, '/');
        json_t *par, *v = NULL;
        json_error_t je;

        snprintf(parent, sizeof(parent), "%.*s", (int)(last - p), p);
        par = at(md, parent);
        if (par == NULL)
                t_fail(__FILE__, __LINE__, "no %s in the document", parent);
        if (value != NULL && strcmp(value, "LONG") == 0) {
                char big[PRC_MD_STR_MAX + 2];
                memset(big, 'a', sizeof(big) - 1);
                big[sizeof(big) - 1] = 0;
                v = json_string(big);
        } else if (value != NULL && (v = json_loads(value, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je)) == NULL)
                t_fail(__FILE__, __LINE__, "bad JSON %s: %s", value, je.text);
        if (json_is_array(par)) {
                size_t i = strtoul(last + 1, NULL, 10);
                T_ASSERT(v != NULL ? json_array_set_new(par, i, v) == 0 : json_array_remove(par, i) == 0);
        } else {
                T_ASSERT(v != NULL ? json_object_set_new(par, last + 1, v) == 0 : json_object_del(par, last + 1) == 0);
        }
}

struct bent {
        const char *format, *fixture, *ptr, *value, *want;     /* value NULL: delete the member */
};

/* Each case on a fresh copy of the fixture's document: the check refuses it, at want. */
static void run_cases(const struct bent *cases, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                json_t *md = xf(cases[i].format, cases[i].fixture);
                prc_err e;

                prc_err_init(&e);
                if (!prc_mdoc_check(md, cases[i].fixture, cases[i].format, &e))
                        t_fail(__FILE__, __LINE__, "%s: the unbent document fails: %s at %s", cases[i].fixture, e.msg,
                               e.ptr);
                bend(md, cases[i].ptr, cases[i].value);
                prc_err_init(&e);
                if (prc_mdoc_check(md, cases[i].fixture, cases[i].format, &e))
                        t_fail(__FILE__, __LINE__, "case %zu (%s = %s) passed the check", i, cases[i].ptr,
                               cases[i].value ? cases[i].value : "(deleted)");
                if (e.cls != PRC_E_MANIFEST_DOC_DETAILS || strcmp(e.ptr, cases[i].want) != 0)
                        t_fail(__FILE__, __LINE__, "case %zu (%s): %s at \"%s\" (%s), want manifest-doc-details-invalid "
                               "at \"%s\"", i, cases[i].ptr, prc_err_name(e.cls), e.ptr, e.msg, cases[i].want);
                json_decref(md);
        }
}

/*
 * No shape names a key twice, with or without a variant's keys: the check
 * takes "as many fields found as the object has members" for "no unknown
 * member", which a repeated key would make wrong.
 */
static void test_mdoc_details__no_shape_repeats_a_key(void)
{
        char what[160];

        if (prc_mdoc_details_repeats_a_key(what, sizeof(what)))
                t_fail(__FILE__, __LINE__, "a key repeated in %s", what);
}

static void test_mdoc_details__every_extractor_format_has_a_shape(void)
{
        for (size_t i = 0; i < prc_extractor_count; i++)
                if (!prc_mdoc_details_known(prc_extractors[i].format))
                        t_fail(__FILE__, __LINE__, "no details shape for %s", prc_extractors[i].format);
        T_ASSERT(!prc_mdoc_details_known("no-such-format"));
}

/* One fixture of every format, [format, file under tests/fixtures/extract]. */
static const char *const fixtures[][2] = {
        { "gha-workflow", "actions/.github/workflows/tricky.yml" }, { "gha-action", "actions/action.yml" },
        { "dockerfile", "docker/Dockerfile" }, { "npm-package-json", "npm/package.json" },
        { "npm-package-lock", "npm/lock-v1/package-lock.json" },
        { "npm-package-lock", "npm/lock-v3/package-lock.json" },
        { "npm-shrinkwrap", "npm/shrinkwrap/npm-shrinkwrap.json" },
        { "yarn-lock", "npm/yarn-classic/yarn.lock" }, { "yarn-lock", "npm/yarn-berry/yarn.lock" },
        { "pnpm-lock", "npm/pnpm-v5/pnpm-lock.yaml" }, { "npmrc", "npm/npmrc/.npmrc" },
        { "pypi-pyproject", "python/pyproject.toml" }, { "pypi-pyproject", "python/pyproject-poetry.toml" },
        { "pypi-requirements", "python/requirements.txt" }, { "pypi-setup-cfg", "python/setup.cfg" },
        { "pypi-pipfile", "python/Pipfile" }, { "pypi-pipfile-lock", "python/Pipfile.lock" },
        { "pypi-poetry-lock", "python/poetry-2.1.lock" }, { "pypi-uv-lock", "python/uv.lock" },
        { "pypi-pdm-lock", "python/pdm.lock" }, { "pypi-pylock", "python/pylock.toml" },
        { "pypi-pip-conf", "python/pip.conf" }, { "cargo-toml", "cargo/Cargo.toml" },
        { "cargo-lock", "cargo/lock-v4.lock" }, { "go-mod", "golang/go.mod" }, { "go-sum", "golang/go.sum" },
        { "go-work", "golang/go.work" }, { "composer-json", "composer/composer.json" },
        { "composer-lock", "composer/composer.lock" }, { "maven-pom", "maven/interpolation.pom.xml" },
        { "gradle-lockfile", "maven/gradle.lockfile" }, { "gradle-version-catalog", "maven/libs.versions.toml" },
        { "nuget-msbuild-project", "nuget/App.csproj" },
        { "nuget-central-packages", "nuget/Directory.Packages.props" },
        { "nuget-packages-config", "nuget/packages.config" },
        { "nuget-packages-lock", "nuget/packages.lock.v2.json" }, { "nuget-config", "nuget/NuGet.config" },
        { "gem-gemfile-lock", "gem/Gemfile.lock" }, { "gem-gemfile", "gem/Gemfile" },
};

/* Real extractor output of every family passes (the CLI test runs every fixture through the worker too). */
static void test_mdoc_details__fixtures_of_every_family_pass(void)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(fixtures); i++) {
                json_t *md = xf(fixtures[i][0], fixtures[i][1]);
                prc_err e;

                prc_err_init(&e);
                if (!prc_mdoc_check(md, fixtures[i][1], fixtures[i][0], &e))
                        t_fail(__FILE__, __LINE__, "%s: %s: %s at %s", fixtures[i][1], prc_err_name(e.cls), e.msg,
                               e.ptr);
                json_decref(md);
        }
}

/* md with its details cut to the members prc_mdoc_slim_keys names (in place; md returned). */
static json_t *slim_cut(json_t *md)
{
        json_t *d = json_object(), *v;

        T_ASSERT(d != NULL);
        for (const char *const *k = prc_mdoc_slim_keys; *k != NULL; k++)
                if ((v = json_object_get(json_object_get(md, "details"), *k)) != NULL)
                        T_ASSERT(json_object_set(d, *k, v) == 0);
        T_ASSERT(json_object_set_new(md, "details", d) == 0);
        return md;
}

struct walk {
        size_t   ok, refused;       /* extracted and checked; refused by the extractor (not our business) */
        unsigned depth;
};

/* Extract (in process) every file under dir an extractor owns; each document must pass the client's check. */
static void walk_tree(const char *dir, const char *rel, struct walk *w)
{
        DIR *d = opendir(dir);
        struct dirent *e;

        if (d == NULL || w->depth > 16) {
                if (d != NULL)
                        closedir(d);
                return;
        }
        while ((e = readdir(d)) != NULL) {
                char path[4096], r[4096];
                const prc_extractor *x;
                struct stat sb;

                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, ".git") == 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
                snprintf(r, sizeof(r), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
                if (lstat(path, &sb) != 0)
                        continue;
                if (S_ISDIR(sb.st_mode)) {
                        w->depth++;
                        walk_tree(path, r, w);
                        w->depth--;
                        continue;
                }
                x = prc_extractor_for_path(r);
                if (S_ISREG(sb.st_mode) && x != NULL && sb.st_size <= 10 << 20) {
                        size_t n;
                        char *bytes = t_read(path, &n);
                        prc_xin in = { r, (const uint8_t *)bytes, n, &prc_limits_default };
                        prc_err err;
                        json_t *md;

                        prc_err_init(&err);
                        md = x->fn(&in, &err);
                        free(bytes);
                        if (md == NULL) {
                                w->refused++;
                                continue;
                        }
                        prc_err_init(&err);
                        if (!prc_mdoc_check(md, r, x->format, &err))
                                t_fail(__FILE__, __LINE__, "%s (%s): %s: %s at %s", r, x->format, prc_err_name(err.cls),
                                       err.msg, err.ptr);
                        /* and slim, as prc sbom gets it */
                        if (!prc_mdoc_check_slim(slim_cut(md), PRC_MDOC_DEPS_ARRAY, r, x->format, &err))
                                t_fail(__FILE__, __LINE__, "%s (%s) slim: %s: %s at %s", r, x->format,
                                       prc_err_name(err.cls), err.msg, err.ptr);
                        w->ok++;
                        json_decref(md);
                }
        }
        closedir(d);
}

/*
 * Every manifest of the real corpus the extractors read passes the check,
 * whole and slim: the tables refuse no real output.
 */
static void test_mdoc_details__corpus_output_passes(void)
{
        const char *c = t_corpora();
        char dir[4096];
        struct walk w = { 0 };

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads its manifests");
        snprintf(dir, sizeof(dir), "%s/manifests", c);
        walk_tree(dir, "", &w);
        /* 550 documents on 2026-12-03, 252 workflows and 12 Dockerfiles among them */
        if (w.ok < 500)
                t_fail(__FILE__, __LINE__, "only %zu documents extracted from %s", w.ok, dir);
}

/*
 * Slim details (PRC_REQ_SLIM_DETAILS): every fixture's document cut to the
 * members prc_mdoc_slim_keys names passes the slim check, with its
 * dependencies as the array or as a count; a whole document with any other
 * member is refused at that member; and a slim member is held to the whole
 * document's shape (a bad value, a member the format does not have).
 */
static void test_mdoc_details__slim_details(void)
{
        static const struct {
                const char *format, *fixture, *member, *value, *want;
        } bent[] = {
                { "go-mod", "golang/go.mod", "go", "5", "/details/go" },
                { "go-mod", "golang/go.mod", "jobs", "[]", "/details/jobs" },
                { "pypi-requirements", "python/requirements.txt", "includes",
                  "[{\"kind\": \"include\", \"path\": \"a.txt\", \"line\": 1}]", "/details/includes/0/kind" },
                { "npm-package-lock", "npm/lock-v3/package-lock.json", "go", "\"1.22\"", "/details/go" },
                { "gha-workflow", "actions/.github/workflows/tricky.yml", "includes", "[]", "/details/includes" },
        };
        size_t whole_refused = 0;

        for (size_t i = 0; i < PRC_ARRAY_LEN(fixtures); i++) {
                json_t *md = xf(fixtures[i][0], fixtures[i][1]), *cut = json_deep_copy(md);
                size_t extra = 0;
                prc_err e;

                T_ASSERT(cut != NULL);
                slim_cut(cut);
                for (void *it = json_object_iter(json_object_get(md, "details")); it != NULL;
                     it = json_object_iter_next(json_object_get(md, "details"), it))
                        extra += !prc_strv_has(prc_mdoc_slim_keys, json_object_iter_key(it));
                prc_err_init(&e);
                if (!prc_mdoc_check_slim(cut, PRC_MDOC_DEPS_ARRAY, fixtures[i][1], fixtures[i][0], &e) ||
                    !prc_mdoc_check_slim(cut, json_array_size(json_object_get(cut, "dependencies")), NULL, NULL, &e))
                        t_fail(__FILE__, __LINE__, "%s slim: %s: %s at %s", fixtures[i][1], prc_err_name(e.cls), e.msg,
                               e.ptr);
                prc_err_init(&e);
                if (prc_mdoc_check_slim(md, PRC_MDOC_DEPS_ARRAY, NULL, NULL, &e) != (extra == 0))
                        t_fail(__FILE__, __LINE__, "%s: the whole document with %zu other members, slim check %s",
                               fixtures[i][1], extra, prc_err_is_set(&e) ? e.msg : "passed");
                if (extra > 0) {
                        T_ERR(e, PRC_E_MANIFEST_DOC_DETAILS);
                        T_ASSERT(strncmp(e.ptr, "/details/", 9) == 0 &&
                                 !prc_strv_has(prc_mdoc_slim_keys, e.ptr + 9));
                        whole_refused++;
                }
                json_decref(cut);
                json_decref(md);
        }
        T_ASSERT(whole_refused > 30);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bent); i++) {
                json_t *md = slim_cut(xf(bent[i].format, bent[i].fixture));
                json_t *v = json_loads(bent[i].value, JSON_DECODE_ANY, NULL);
                prc_err e;

                T_ASSERT(v != NULL && json_object_set_new(json_object_get(md, "details"), bent[i].member, v) == 0);
                prc_err_init(&e);
                T_ASSERT(!prc_mdoc_check_slim(md, PRC_MDOC_DEPS_ARRAY, NULL, NULL, &e));
                T_ERR(e, PRC_E_MANIFEST_DOC_DETAILS);
                if (strcmp(e.ptr, bent[i].want) != 0)
                        t_fail(__FILE__, __LINE__, "case %zu: at %s (%s), want %s", i, e.ptr, e.msg, bent[i].want);
                json_decref(md);
        }
}

#define WF "gha-workflow", "actions/.github/workflows/tricky.yml"
#define JOB0 "/details/jobs/0"
#define STEP1 "/details/jobs/0/steps/1"

static void test_mdoc_details__workflow_bent(void)
{
        static const struct bent cases[] = {
                { WF, "/details/surprise", "1", "/details" },
                { WF, "/details/triggers/0/surprise", "1", "/details/triggers/0" },     /* a nested object's */
                { WF, "/details/jobs", NULL, "/details/jobs" },
                { WF, "/details/jobs", "{}", "/details/jobs" },
                { WF, "/details/triggers/0/event", "7", "/details/triggers/0/event" },
                { WF, "/details/triggers/0/line", "0", "/details/triggers/0/line" },
                { WF, "/details/triggers/0/branches", "[1]", "/details/triggers/0/branches/0" },
                { WF, "/details/permissions", "{\"value\": \"write-all\"}", "/details/permissions/line" },
                { WF, JOB0 "/id", "null", JOB0 "/id" },
                { WF, JOB0 "/secrets", "\"all\"", JOB0 "/secrets" },
                { WF, JOB0 "/steps/0/uses/kind", "\"remote\"", JOB0 "/steps/0/uses/kind" },
                { WF, JOB0 "/steps/0/uses/ref_is_sha", "\"yes\"", JOB0 "/steps/0/uses/ref_is_sha" },
                { WF, JOB0 "/steps/0/uses/owner", "\"" "a\\u0000b" "\"", JOB0 "/steps/0/uses/owner" },
                { WF, JOB0 "/steps/0/index", "5", JOB0 "/steps/0" },
                { WF, STEP1 "/with", "null", STEP1 "/with" },
                { WF, STEP1 "/env/0/line", "-1", STEP1 "/env/0/line" },
                { WF, STEP1 "/expressions/0/contexts/0/flows", "1", STEP1 "/expressions/0/contexts/0/flows" },
                { WF, STEP1 "/expressions/0/error", "\"bad\"", STEP1 "/expressions/0" },
                { WF, STEP1 "/expressions/0/contexts", "null", STEP1 "/expressions/0" },
                /* the run: script's tokens, through prc_sh_check */
                { WF, STEP1 "/run/tokens", "[]", STEP1 "/run/tokens" },
                { WF, STEP1 "/run/tokens/format", "\"pkgbuild\"", STEP1 "/run/tokens" },
                { WF, STEP1 "/run/tokens/commands/0/line", "0", STEP1 "/run/tokens/commands/0" },
                { WF, STEP1 "/run/tokens/commands/0/body/0/tokens", "[1]", STEP1 "/run/tokens/commands/0" },
                { WF, STEP1 "/run/tokens/commands", NULL, STEP1 "/run/tokens" },
                { WF, STEP1 "/run/tokens/extra", "1", STEP1 "/run/tokens" },
        };

        run_cases(cases, PRC_ARRAY_LEN(cases));
}

static void test_mdoc_details__action_bent(void)
{
        static const struct bent cases[] = {
                { "gha-action", "actions/action.yml", "/details/runs", NULL, "/details/runs" },
                { "gha-action", "actions/action.yml", "/details/runs/using", "1", "/details/runs/using" },
                { "gha-action", "actions/action.yml", "/details/runs/steps/0/index", "1", "/details/runs/steps/0" },
                { "gha-action", "actions/action.yml", "/details/inputs/0/deprecated", "null",
                  "/details/inputs/0/deprecated" },
        };

        run_cases(cases, PRC_ARRAY_LEN(cases));
}

#define DF "dockerfile", "docker/Dockerfile"

static void test_mdoc_details__dockerfile_bent(void)
{
        static const struct bent cases[] = {
                { DF, "/details/stages", "[]", "/details/stages" },
                { DF, "/details/stages/0/instructions/0/surprise", "1", "/details/stages/0/instructions/0" },
                { DF, "/details/final_stage", "0", "/details/final_stage" },
                { DF, "/details/stages/0/index", "1", "/details/stages/0" },
                { DF, "/details/stages/0/from_stage", "0", "/details/stages/0" },       /* itself: a loop */
                { DF, "/details/stages/1/from_stage", "7", "/details/stages/1" },
                { DF, "/details/stages/0/image/valid", "\"true\"", "/details/stages/0/image/valid" },
                { DF, "/details/stages/0/user", "\"root\"", "/details/stages/0/user" },
                { DF, "/details/stages/0/base", "LONG", "/details/stages/0/base" },
                { DF, "/details/stages/0/instructions/0/instruction", "\"FETCH\"", "/details/stages/0/instructions/0" },
                { DF, "/details/stages/0/instructions/0/line", "0", "/details/stages/0/instructions/0/line" },
                { DF, "/details/args/0/line", "null", "/details/args/0/line" },
        };

        run_cases(cases, PRC_ARRAY_LEN(cases));
}

static void test_mdoc_details__dependency_families_bent(void)
{
        static const struct bent cases[] = {
                { "npm-package-json", "npm/package.json", "/details/anything", "[1]", "/details" },
                { "npm-package-json", "npm/package.json", "/details/private", "\"yes\"", "/details/private" },
                { "npm-package-json", "npm/package.json", "/details/workspaces", "[null]", "/details/workspaces/0" },
                { "npm-package-lock", "npm/lock-v3/package-lock.json", "/details/lockfile_version", "\"3\"",
                  "/details/lockfile_version" },
                { "npm-package-lock", "npm/lock-v3/package-lock.json", "/details/install_scripts",
                  "[{\"dependency\": 99999, \"line\": 1}]", "/details/install_scripts/0/dependency" },
                { "npmrc", "npm/npmrc/.npmrc", "/details/settings/ignore-scripts", "false",
                  "/details/settings/ignore-scripts" },
                { "pypi-requirements", "python/requirements.txt", "/details/includes",
                  "[{\"kind\": \"include\", \"path\": \"a.txt\", \"line\": 1}]", "/details/includes/0/kind" },
                { "pypi-requirements", "python/requirements.txt", "/details/includes",
                  "[{\"kind\": \"requirement\", \"path\": \"\", \"line\": 1}]", "/details/includes/0/path" },
                { "pypi-requirements", "python/requirements.txt", "/details/role", "\"lock\"", "/details/role" },
                { "pypi-pyproject", "python/pyproject-poetry.toml", "/details/poetry_sources/0/priority", "3",
                  "/details/poetry_sources/0/priority" },
                { "pypi-uv-lock", "python/uv.lock", "/details/edges/0/to", "\"x\"", "/details/edges/0/to" },
                { "cargo-lock", "cargo/lock-v4.lock", "/details/lockfile_version", NULL, "/details/lockfile_version" },
                { "go-mod", "golang/go.mod", "/details/replace/0/line", "0", "/details/replace/0/line" },
                { "go-sum", "golang/go.sum", "/details/direct_known", "0", "/details/direct_known" },
                { "composer-lock", "composer/composer.lock", "/details/plugins", "[{\"name\": \"x\"}]",
                  "/details/plugins/0/line" },
                { "maven-pom", "maven/interpolation.pom.xml", "/details/parent", "[]", "/details/parent" },
                { "gradle-version-catalog", "maven/libs.versions.toml", "/details/aliases/x", "-1",
                  "/details/aliases/x" },
                { "nuget-config", "nuget/NuGet.config", "/details/clear", "\"true\"", "/details/clear" },
                { "nuget-config", "nuget/NuGet.config", "/details/disabled_sources", "[{}]",
                  "/details/disabled_sources/0" },
                { "gem-gemfile-lock", "gem/Gemfile.lock", "/details/requires/x", "[{\"name\": 1}]",
                  "/details/requires/x/0/name" },
        };

        run_cases(cases, PRC_ARRAY_LEN(cases));
}

/*
 * schemas/manifest-doc.schema.json holds the checker's tables as JSON Schema
 * ($defs "details-*" and the allOf that picks one by format), exactly as
 * prc_mdoc_details_schema() writes them.  PRC_MDOC_SCHEMA_OUT=FILE writes
 * the generated part there (to merge into the schema after a table change).
 */
static void test_mdoc_details__schema_holds_the_tables(void)
{
        json_t *gen = prc_mdoc_details_schema(), *file, *fdefs, *v;
        const char *out = getenv("PRC_MDOC_SCHEMA_OUT"), *k;
        char path[4200];
        json_error_t je;
        size_t nd = 0;

        T_ASSERT(gen != NULL);
        if (out != NULL)
                T_ASSERT(json_dump_file(gen, out, JSON_INDENT(2) | JSON_SORT_KEYS) == 0);
        snprintf(path, sizeof(path), "%s/schemas/manifest-doc.schema.json", t_root());
        file = json_load_file(path, 0, &je);
        T_ASSERT(file != NULL);
        fdefs = json_object_get(file, "$defs");
        json_object_foreach(json_object_get(gen, "$defs"), k, v) {
                if (!json_is_object(v))
                        t_fail(__FILE__, __LINE__, "the generated $defs/%s is not a schema", k);
                if (!json_equal(json_object_get(fdefs, k), v))
                        t_fail(__FILE__, __LINE__, "the schema's $defs/%s is not the checker's table", k);
        }
        json_object_foreach(fdefs, k, v)
                nd += strncmp(k, "details-", 8) == 0;
        T_EQ_INT(nd, json_object_size(json_object_get(gen, "$defs")));
        T_ASSERT(json_equal(json_object_get(file, "allOf"), json_object_get(gen, "allOf")));
        json_decref(file);
        json_decref(gen);
}

static const prc_test tests[] = {
        T(test_mdoc_details__schema_holds_the_tables),
        T(test_mdoc_details__every_extractor_format_has_a_shape),
        T(test_mdoc_details__no_shape_repeats_a_key),
        T(test_mdoc_details__fixtures_of_every_family_pass),
        T(test_mdoc_details__slim_details),
        T(test_mdoc_details__corpus_output_passes),
        T(test_mdoc_details__workflow_bent),
        T(test_mdoc_details__action_bent),
        T(test_mdoc_details__dockerfile_bent),
        T(test_mdoc_details__dependency_families_bent),
};
PRC_SUITE(mdoc_details, tests)
