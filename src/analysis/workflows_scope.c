/*
 * workflows_scope.c - GitHub Actions analyses of what a workflow grants and
 * keeps: gha-excessive-permissions, gha-persisted-credentials,
 * gha-cache-poisoning, gha-secrets-exposure and gha-insecure-commands
 * (docs/analyses.md, "GitHub Actions: scope", gives each decision rule).
 *
 * Trust: engine-side.  Reads ManifestDocs the client checked (mdoc_check.c)
 * and still treats a missing member as absent; run-script tokens are
 * checked here before they are walked.  A setting that is an expression
 * (known only at run time) is never guessed: it is reported as unresolved,
 * or, for a cache switch in a release job, as a cache that may be restored;
 * the literals ${{ true }} and ${{ false }} are read as the booleans.
 */
#include "analysis/workflows_scope.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/gha.h"
#include "analysis/sh.h"
#include "base/compiler.h"

/* --- reading a workflow or action --- */

static const char *md_path(const json_t *md)
{
        return json_string_value(json_object_get(md, "path"));
}

/*
 * The value of with.<name> as written (any JSON type), or NULL; *line its
 * line.  When with: is itself an expression (one entry named null), that
 * expression is the answer: it may set any input.
 */
static const json_t *with_value(const json_t *step, const char *name, uint32_t *line)
{
        const json_t *w, *whole = NULL;
        size_t i;

        json_array_foreach(json_object_get(step, "with"), i, w) {
                const char *n = json_string_value(json_object_get(w, "name"));
                if (n == NULL && whole == NULL)
                        whole = w;
                if (n != NULL && strcmp(n, name) == 0) {
                        if (line != NULL)
                                *line = prc_gha_line(w);
                        return json_object_get(w, "value");
                }
        }
        if (whole == NULL)
                return NULL;
        if (line != NULL)
                *line = prc_gha_line(whole);
        return json_object_get(whole, "value");
}

static const char *uses_raw(const json_t *step)
{
        const char *r = json_string_value(json_object_get(json_object_get(step, "uses"), "raw"));
        return r != NULL ? r : "";
}

static uint32_t uses_line(const json_t *step)
{
        uint32_t l = prc_gha_line(json_object_get(step, "uses"));
        return l != 0 ? l : prc_gha_line(step);
}

static const char *job_id(const json_t *job)
{
        const char *id = json_string_value(json_object_get(job, "id"));
        return id != NULL ? id : "?";
}

/* Text of a value as written, for locations: strings as they are, scalars in YAML spelling. */
static void value_text(const json_t *v, char *out, size_t outsz)
{
        if (json_is_string(v))
                snprintf(out, outsz, "%s", json_string_value(v));
        else if (json_is_true(v) || json_is_false(v))
                snprintf(out, outsz, "%s", json_is_true(v) ? "true" : "false");
        else if (json_is_integer(v))
                snprintf(out, outsz, "%lld", (long long)json_integer_value(v));
        else if (json_is_null(v) || v == NULL)
                snprintf(out, outsz, "null");
        else
                snprintf(out, outsz, "(a collection)");
}

/* --- shared decisions --- */

/* s without blanks around it equals "${{ word }}" with blanks inside the braces. */
static bool is_literal_expr(const char *s, const char *word)
{
        size_t n = strlen(word);

        while (isspace((unsigned char)*s))
                s++;
        if (strncmp(s, "${{", 3) != 0)
                return false;
        s += 3;
        while (isspace((unsigned char)*s))
                s++;
        if (strncasecmp(s, word, n) != 0)
                return false;
        s += n;
        while (isspace((unsigned char)*s))
                s++;
        if (strncmp(s, "}}", 2) != 0)
                return false;
        s += 2;
        while (isspace((unsigned char)*s))
                s++;
        return *s == 0;
}

enum prc_gha_bool prc_gha_bool_of(const json_t *v)
{
        const char *s;

        if (v == NULL)
                return PRC_GHA_ABSENT;
        if (json_is_true(v))
                return PRC_GHA_TRUE;
        if (json_is_false(v))
                return PRC_GHA_FALSE;
        s = json_string_value(v);
        if (s == NULL)
                return PRC_GHA_OTHER;
        /* Action inputs are strings; @actions/core's getBooleanInput reads true/True/TRUE and false/.... */
        if (strcasecmp(s, "true") == 0 || is_literal_expr(s, "true"))
                return PRC_GHA_TRUE;
        if (strcasecmp(s, "false") == 0 || is_literal_expr(s, "false"))
                return PRC_GHA_FALSE;
        if (strstr(s, "${{") != NULL)
                return PRC_GHA_EXPR;
        return PRC_GHA_OTHER;
}

int prc_gha_ref_major(const char *ref)
{
        long v;
        char *end;

        if (ref == NULL)
                return -1;
        if (*ref == 'v' || *ref == 'V')
                ref++;
        if (!isdigit((unsigned char)*ref))
                return -1;
        v = strtol(ref, &end, 10);
        if ((*end != 0 && *end != '.') || v > 1000)
                return -1;
        /* A 40-hex commit that starts with digits is no version. */
        return strlen(ref) >= 40 ? -1 : (int)v;
}

/* --- gha-excessive-permissions --- */

/* Is workflow_call the only trigger?  Then the caller's token caps every job. */
static bool reusable_only(const json_t *md)
{
        const json_t *t = json_object_get(prc_gha_details(md), "triggers");
        const char *e = json_string_value(json_object_get(json_array_get(t, 0), "event"));

        return json_array_size(t) == 1 && e != NULL && strcmp(e, "workflow_call") == 0;
}

/* The permissions value as written, or NULL when the key is absent. */
static const json_t *perms_of(const json_t *obj, uint32_t *line)
{
        const json_t *w = json_object_get(obj, "permissions");

        if (!json_is_object(w))
                return NULL;
        *line = prc_gha_line(w);
        return json_object_get(w, "value");
}

static bool perms_write_all(const json_t *v)
{
        return json_is_string(v) && strcmp(json_string_value(v), "write-all") == 0;
}

/* A string that is neither read-all nor write-all (an expression): GitHub's meaning is unknown here. */
static bool perms_unknown(const json_t *v)
{
        const char *s = json_string_value(v);

        return s != NULL && strcmp(s, "read-all") != 0 && strcmp(s, "write-all") != 0;
}

static bool ep_workflow(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *path = md_path(md);
        const json_t *jobs = prc_gha_jobs(md), *job, *top, *scope;
        const char *name;
        uint32_t tline = 0, jline;
        bool reusable = reusable_only(md);
        char inherit[160], text[300], msg[400];
        size_t i, o = 0, ninherit = 0;

        top = perms_of(prc_gha_details(md), &tline);
        inherit[0] = 0;
        json_array_foreach(jobs, i, job) {
                const json_t *jp = perms_of(job, &jline);
                if (jp == NULL) {
                        ninherit++;
                        if (o < sizeof(inherit))
                                o += (size_t)snprintf(inherit + o, sizeof(inherit) - o, "%s%s", o ? ", " : "",
                                                      job_id(job));
                        /*
                         * Nothing at either level: the repository's default token, read-write on older
                         * repositories.  In a reusable workflow the caller's grant caps a job, but a call
                         * to another reusable workflow hands that whole grant on.
                         */
                        if (top == NULL && (!reusable || json_is_object(json_object_get(job, "uses")))) {
                                snprintf(text, sizeof(text), "%s: no permissions", job_id(job));
                                if (!prc_act_found(cx, path, prc_gha_line(job), text,
                                                   "no permissions: in the job nor at the workflow level: the "
                                                   "token gets the repository's default permissions", err))
                                        return false;
                        }
                        continue;
                }
                if (perms_write_all(jp)) {
                        snprintf(msg, sizeof(msg), "job %s grants every scope write access", job_id(job));
                        if (!prc_act_found(cx, path, jline, "permissions: write-all", msg, err))
                                return false;
                } else if (perms_unknown(jp) &&
                           !prc_act_unresolved(cx, path, jline, "job permissions are an expression", err)) {
                        return false;
                }
        }
        if (top == NULL)
                return true;
        if (perms_write_all(top))
                return prc_act_found(cx, path, tline, "permissions: write-all",
                                     "the workflow grants every scope write access to all its jobs", err);
        if (perms_unknown(top))
                return prc_act_unresolved(cx, path, tline, "workflow permissions are an expression", err);
        /*
         * Write scopes at the top are excessive when more than one job
         * inherits them: in a one-job workflow the top is that job's own
         * grant, and a reusable workflow's grant is capped by its caller.
         */
        if (ninherit == 0 || json_array_size(jobs) < 2 || reusable)
                return true;
        json_object_foreach((json_t *)top, name, scope) {
                if (!json_is_string(scope) || strcmp(json_string_value(scope), "write") != 0)
                        continue;
                snprintf(text, sizeof(text), "%s: write", name);
                snprintf(msg, sizeof(msg), "%s: write at the workflow level is inherited by %zu jobs that do not "
                         "set their own permissions (%s)", name, ninherit, inherit);
                if (!prc_act_found(cx, path, tline, text, msg, err))
                        return false;
        }
        return true;
}

bool prc_gha_excessive_permissions(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++)
                if (prc_gha_is_workflow(md) && !ep_workflow(cx, md, err))
                        return false;
        return true;
}

/* --- gha-persisted-credentials --- */

static bool pc_steps(prc_actx *cx, const char *path, const json_t *steps, prc_err *err)
{
        const json_t *step, *v;
        uint32_t line = 0;
        char text[300], val[200];
        size_t i;

        json_array_foreach(steps, i, step) {
                if (!prc_gha_step_uses(step, "actions/checkout"))
                        continue;
                v = with_value(step, "persist-credentials", &line);
                snprintf(text, sizeof(text), "uses: %s", uses_raw(step));
                switch (prc_gha_bool_of(v)) {
                case PRC_GHA_FALSE:
                        break;
                case PRC_GHA_EXPR:
                        if (!prc_act_unresolved(cx, path, line,
                                                "persist-credentials (or the whole with:) is an expression", err))
                                return false;
                        break;
                case PRC_GHA_ABSENT:
                        if (!prc_act_found(cx, path, uses_line(step), text,
                                           "checkout keeps the job's token in the repository's git config "
                                           "(persist-credentials defaults to true)", err))
                                return false;
                        break;
                case PRC_GHA_TRUE:
                case PRC_GHA_OTHER:
                default:
                        value_text(v, val, sizeof(val));
                        snprintf(text, sizeof(text), "persist-credentials: %s", val);
                        if (!prc_act_found(cx, path, line, text, "checkout keeps the job's token in the repository's "
                                           "git config", err))
                                return false;
                        break;
                }
        }
        return true;
}

bool prc_gha_persisted_credentials(prc_actx *cx, prc_err *err)
{
        const json_t *md, *job;
        size_t j;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                if (!prc_gha_is_workflow(md)) {
                        if (!pc_steps(cx, md_path(md), prc_gha_steps(md, NULL), err))
                                return false;
                        continue;
                }
                json_array_foreach(prc_gha_jobs(md), j, job)
                        if (!pc_steps(cx, md_path(md), prc_gha_steps(md, job), err))
                                return false;
        }
        return true;
}

/* --- gha-cache-poisoning --- */

/* An opt-in switch: on when true; dynamic when an expression. */
static bool opt_in(const json_t *step, const char *input, bool dflt, bool *dynamic)
{
        switch (prc_gha_bool_of(with_value(step, input, NULL))) {
        case PRC_GHA_TRUE:
                return true;
        case PRC_GHA_FALSE:
                return false;
        case PRC_GHA_EXPR:
                *dynamic = true;
                return false;
        case PRC_GHA_ABSENT:
                return dflt;
        case PRC_GHA_OTHER:
        default:
                return true;
        }
}

/* A cache named by a string input (setup-node's cache: npm): on when non-empty. */
static bool named_cache(const json_t *step, const char *input, bool *dynamic)
{
        const json_t *v = with_value(step, input, NULL);
        const char *s = json_string_value(v);

        if (v == NULL || json_is_false(v) || json_is_null(v))
                return false;
        if (s == NULL)
                return true;
        if (prc_gha_bool_of(v) == PRC_GHA_EXPR) {
                *dynamic = true;
                return false;
        }
        return s[0] != 0 && strcasecmp(s, "false") != 0;
}

const char *prc_gha_cache_restore(const json_t *step, bool *dynamic)
{
        const json_t *u = json_object_get(step, "uses");
        const char *upath = json_string_value(json_object_get(u, "path"));
        const char *ref = json_string_value(json_object_get(u, "ref"));
        int major = prc_gha_ref_major(ref);
        const char *s;

        *dynamic = false;
        if (json_string_value(json_object_get(u, "owner")) == NULL)
                return NULL;    /* a run: step: every check below needs an action's owner */
        if (prc_gha_step_uses(step, "actions/cache")) {
                /* cache/save only writes; the whole action and cache/restore read. */
                if (upath != NULL && strcasecmp(upath, "save") == 0)
                        return NULL;
                return opt_in(step, "lookup-only", false, dynamic) || *dynamic ? NULL : "restores a cache";
        }
        if (prc_gha_step_uses(step, "actions/setup-node")) {
                if (named_cache(step, "cache", dynamic))
                        return "caches the package manager's store (cache:)";
                /* From v5 it caches npm by itself when package.json names it; a commit is taken as current. */
                if ((major < 0 || major >= 5) && opt_in(step, "package-manager-cache", true, dynamic))
                        return "setup-node v5 and later cache npm by default (package-manager-cache)";
                return NULL;
        }
        if (prc_gha_step_uses(step, "actions/setup-python") && named_cache(step, "cache", dynamic))
                return "caches the package manager's store (cache:)";
        if (prc_gha_step_uses(step, "actions/setup-java") && named_cache(step, "cache", dynamic))
                return "caches the build tool's store (cache:)";
        if (prc_gha_step_uses(step, "actions/setup-go"))
                return opt_in(step, "cache", major < 0 || major >= 4, dynamic) ?
                               "setup-go caches modules and the build cache (on by default from v4)" : NULL;
        if (prc_gha_step_uses(step, "actions/setup-dotnet"))
                return opt_in(step, "cache", false, dynamic) ? "caches NuGet packages (cache: true)" : NULL;
        if (prc_gha_step_uses(step, "astral-sh/setup-uv")) {
                /* enable-cache defaults to "auto" from v5: on on GitHub's runners, off for releases from v10. */
                bool before10 = major < 10;     /* a commit or a branch: taken to cache, like v5-v9 */
                s = json_string_value(with_value(step, "enable-cache", NULL));
                if (s != NULL && strcasecmp(s, "auto") == 0)
                        return before10 ? "enable-cache: auto caches on GitHub-hosted runners" : NULL;
                return opt_in(step, "enable-cache", major < 0 || (major >= 5 && before10), dynamic) ?
                               "caches uv's store (enable-cache)" : NULL;
        }
        if (prc_gha_step_uses(step, "Swatinem/rust-cache"))
                return opt_in(step, "lookup-only", false, dynamic) || *dynamic ? NULL : "restores a cargo cache";
        if (prc_gha_step_uses(step, "ruby/setup-ruby"))
                return opt_in(step, "bundler-cache", false, dynamic) ? "caches installed gems (bundler-cache)" : NULL;
        if (prc_gha_step_uses(step, "gradle/actions") || prc_gha_step_uses(step, "gradle/gradle-build-action")) {
                if (prc_gha_step_uses(step, "gradle/actions") && (upath == NULL || strcasecmp(upath, "setup-gradle")))
                        return NULL;
                return opt_in(step, "cache-disabled", false, dynamic) || *dynamic ? NULL :
                               "restores the Gradle user home cache";
        }
        if (prc_gha_step_uses(step, "actions-rust-lang/setup-rust-toolchain"))
                return opt_in(step, "cache", true, dynamic) ? "restores a cargo cache (cache defaults to true)" : NULL;
        if (prc_gha_step_uses(step, "jdx/mise-action"))
                return opt_in(step, "cache", true, dynamic) ? "restores mise's tool cache (cache defaults to true)"
                                                            : NULL;
        if (prc_gha_step_uses(step, "Mozilla-Actions/sccache-action"))
                return "sccache reads compiled objects from the Actions cache";
        if (prc_gha_step_uses(step, "docker/build-push-action")) {
                const json_t *v = with_value(step, "cache-from", NULL);
                s = json_string_value(v);
                if (s != NULL && strstr(s, "type=gha") != NULL)
                        return "builds with cache-from: type=gha (layers from the Actions cache)";
                /* Only when the cache type itself is not written down is the answer unknown. */
                if (s != NULL && strstr(s, "${{") != NULL && strstr(s, "type=") == NULL)
                        *dynamic = true;
                return NULL;
        }
        return NULL;
}

/* Actions that publish a release, a package or an image. */
static const char *const publisher_actions[] = {
        "pypa/gh-action-pypi-publish", "softprops/action-gh-release", "goreleaser/goreleaser-action",
        "ncipollo/release-action", "rubygems/release-gem", "jreleaser/release-action",
        "redhat-actions/push-to-registry", "JS-DevTools/npm-publish", "svenstaro/upload-release-action",
        "actions/create-release", "actions/upload-release-asset", "cargo-bins/release-pr", NULL,
};

/* How a command's argument is matched. */
enum { M_EXACT, M_PREFIX, M_SUBSTR };

/*
 * Commands that publish: program, the word among its arguments that makes it
 * publish (NULL: always), and, when set, the words one of which must follow
 * it ("gh release download" reads; "gh release upload" publishes).
 */
static const struct { const char *prog, *word; int how; const char *then; } publisher_cmds[] = {
        /* npm-family scripts are named freely: cipublish, publish:ci, release */
        { "npm", "publish", M_SUBSTR, NULL }, { "pnpm", "publish", M_SUBSTR, NULL },
        { "yarn", "publish", M_SUBSTR, NULL }, { "bun", "publish", M_SUBSTR, NULL },
        { "npx", "publish", M_SUBSTR, NULL }, { "npm", "release", M_EXACT, NULL },
        { "pnpm", "release", M_EXACT, NULL }, { "yarn", "release", M_EXACT, NULL },
        { "bun", "release", M_EXACT, NULL }, { "lerna", "publish", M_EXACT, NULL },
        { "changeset", "publish", M_EXACT, NULL }, { "nx", "publish", M_EXACT, NULL },
        { "vsce", "publish", M_EXACT, NULL }, { "ovsx", "publish", M_EXACT, NULL },
        { "twine", "upload", M_EXACT, NULL }, { "poetry", "publish", M_EXACT, NULL },
        { "uv", "publish", M_EXACT, NULL }, { "flit", "publish", M_EXACT, NULL },
        { "hatch", "publish", M_EXACT, NULL }, { "pdm", "publish", M_EXACT, NULL },
        { "cargo", "publish", M_EXACT, NULL }, { "gem", "push", M_EXACT, NULL },
        { "goreleaser", NULL, M_EXACT, NULL }, { "docker", "push", M_EXACT, NULL },
        { "docker", "--push", M_EXACT, NULL }, { "podman", "push", M_EXACT, NULL },
        { "buildah", "push", M_EXACT, NULL }, { "skopeo", "copy", M_EXACT, NULL },
        { "gh", "release", M_EXACT, "create|upload|edit" }, { "dotnet", "push", M_EXACT, NULL },
        { "nuget", "push", M_EXACT, NULL }, { "mvn", "deploy", M_PREFIX, NULL }, { "mvnw", "deploy", M_PREFIX, NULL },
        { "gradle", "publish", M_PREFIX, NULL }, { "gradlew", "publish", M_PREFIX, NULL },
        { "semantic-release", NULL, M_EXACT, NULL }, { "npx", "semantic-release", M_EXACT, NULL },
};

/* Is w one of the '|'-separated words of alts? */
static bool one_of(const char *w, const char *alts)
{
        size_t n = strlen(w);

        for (const char *p = alts; *p != 0; p += strcspn(p, "|"), p += *p == '|') {
                if (strncmp(p, w, n) == 0 && (p[n] == '|' || p[n] == 0))
                        return true;
        }
        return false;
}

static bool arg_matches(const char *arg, const char *word, int how)
{
        switch (how) {
        case M_PREFIX:
                return strncmp(arg, word, strlen(word)) == 0;
        case M_SUBSTR:
                return strstr(arg, word) != NULL;
        default:
                return strcmp(arg, word) == 0;
        }
}

struct pub {
        char     *what;
        size_t    whatsz;
        uint32_t  line;
};

static bool pub_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct pub *pb = ctx;

        (void)err;
        if (pb->what[0] != 0)
                return true;
        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                for (size_t k = 0; k < PRC_ARRAY_LEN(publisher_cmds); k++) {
                        const char *w = publisher_cmds[k].word, *then = publisher_cmds[k].then;
                        size_t a = 1;
                        bool hit = false;
                        if (c->n == 0 || strcmp(c->name, publisher_cmds[k].prog) != 0)
                                continue;
                        for (; w != NULL && a < c->n && !hit; a++)
                                hit = c->w[a].val[0] != '-' || w[0] == '-' ?
                                              arg_matches(c->w[a].val, w, publisher_cmds[k].how) : false;
                        if (hit && then != NULL) {
                                bool next = false;
                                for (; a < c->n && !next; a++)
                                        next = one_of(c->w[a].val, then);
                                hit = next;
                        }
                        if (w == NULL || hit) {
                                snprintf(pb->what, pb->whatsz, "%s%s%s", c->name, w ? " " : "", w ? w : "");
                                pb->line = p->line;
                                return true;
                        }
                }
        }
        return true;
}

/*
 * The run script's tokens come from the worker and the ManifestDoc check
 * does not look inside details: check them as the shell tokens they are
 * before walking them (the same check as a PKGBUILD's, which names a format).
 */
static bool tokens_ok(const json_t *tokens, prc_err *err)
{
        return prc_sh_check_tokens(tokens, err);
}

bool prc_gha_step_publishes(const json_t *step, char *what, size_t whatsz, uint32_t *line, prc_err *err)
{
        const json_t *tokens = json_object_get(json_object_get(step, "run"), "tokens"), *x;
        struct pub pb = { what, whatsz, 0 };
        size_t i;

        what[0] = 0;
        /* The uses: checks below all need an action's owner: a run: step skips them. */
        if (json_object_get(json_object_get(step, "uses"), "owner") == NULL)
                goto run_script;
        for (i = 0; publisher_actions[i] != NULL; i++) {
                if (prc_gha_step_uses(step, publisher_actions[i])) {
                        snprintf(what, whatsz, "%s", publisher_actions[i]);
                        *line = uses_line(step);
                        return true;
                }
        }
        /* changesets/action publishes only when given a publish command. */
        if (prc_gha_step_uses(step, "changesets/action")) {
                if (with_value(step, "publish", NULL) != NULL) {
                        snprintf(what, whatsz, "changesets/action with publish:");
                        *line = uses_line(step);
                }
                return true;
        }
        /* build-push-action publishes only with push: true. */
        if (prc_gha_step_uses(step, "docker/build-push-action")) {
                if (prc_gha_bool_of(with_value(step, "push", NULL)) == PRC_GHA_TRUE) {
                        snprintf(what, whatsz, "docker/build-push-action with push: true");
                        *line = uses_line(step);
                }
                return true;
        }
run_script:
        if (!json_is_object(tokens))
                return true;
        if (!tokens_ok(tokens, err))
                return false;
        json_array_foreach(json_object_get(tokens, "commands"), i, x) {
                if (!prc_sh_walk(json_object_get(x, "body"), NULL, pub_cb, &pb, err))
                        return false;
                if (what[0] != 0)
                        break;
        }
        json_array_foreach(json_object_get(tokens, "functions"), i, x) {
                if (what[0] != 0)
                        break;
                if (!prc_sh_walk(json_object_get(x, "body"), NULL, pub_cb, &pb, err))
                        return false;
        }
        if (what[0] != 0)
                *line = pb.line;
        return true;
}

/* Does a filter list hold a pattern that is not a negation?  tags: ['!**'] matches no tag. */
static bool some_positive(const json_t *patterns)
{
        const json_t *p;
        size_t i;

        json_array_foreach(patterns, i, p) {
                const char *s = json_string_value(p);
                if (s != NULL && s[0] != '!')
                        return true;
        }
        return false;
}

/* Why this workflow is a release workflow by its triggers ("on: release"), or NULL; *line the trigger's line. */
static const char *release_trigger(const json_t *md, uint32_t *line)
{
        const json_t *t, *b;
        size_t i, k;

        json_array_foreach(json_object_get(prc_gha_details(md), "triggers"), i, t) {
                const char *e = json_string_value(json_object_get(t, "event"));
                *line = prc_gha_line(t);
                if (e == NULL)
                        continue;
                if (strcmp(e, "release") == 0)
                        return "on: release";
                if (strcmp(e, "push") != 0)
                        continue;
                if (some_positive(json_object_get(t, "tags")) ||
                    json_array_size(json_object_get(t, "tags_ignore")) > 0)
                        return "on: push of tags";
                json_array_foreach(json_object_get(t, "branches"), k, b) {
                        const char *s = json_string_value(b);
                        if (s != NULL && s[0] != '!' && strcasestr(s, "release") != NULL)
                                return "on: push to release branches";
                }
        }
        return NULL;
}

static bool cp_job(prc_actx *cx, const char *path, const json_t *steps, const char *why, prc_err *err)
{
        const json_t *step;
        size_t i;

        json_array_foreach(steps, i, step) {
                bool dynamic = false;
                const char *r = prc_gha_cache_restore(step, &dynamic);
                char text[300], msg[400];
                /* A switch known only at run time can turn caching on for a release: that is the risk. */
                if (dynamic)
                        r = "its cache setting is an expression, which can turn caching on";
                if (r == NULL)
                        continue;
                snprintf(text, sizeof(text), "uses: %s", uses_raw(step));
                snprintf(msg, sizeof(msg), "%s, in a job that %s", r, why);
                if (!prc_act_found(cx, path, uses_line(step), text, msg, err))
                        return false;
        }
        return true;
}

/* The cache-mode in effect for a job (its own, else the workflow's) as written, or NULL (GitHub's default). */
static const json_t *cache_mode(const json_t *md, const json_t *job)
{
        const json_t *w = json_object_get(job, "cache_mode");

        if (!json_is_object(w))
                w = json_object_get(prc_gha_details(md), "cache_mode");
        return json_is_object(w) ? w : NULL;
}

static bool mode_is(const json_t *w, const char *mode)
{
        const char *s = json_string_value(json_object_get(w, "value"));

        return s != NULL && strcmp(s, mode) == 0;
}

/* Triggers whose runs take outside input with the base repository's rights, where GitHub defaults caches to read. */
static const char *low_trust_trigger(const json_t *md)
{
        static const char *const ev[] = { "pull_request_target", "workflow_run", "issue_comment", NULL };

        return prc_gha_first_trigger(md, ev);
}

/* The other side of the attack: a low-trust run given write access to the caches release jobs restore. */
static bool cp_write_side(prc_actx *cx, const json_t *md, const json_t *job, prc_err *err)
{
        const json_t *w = cache_mode(md, job);
        const char *ev = low_trust_trigger(md);
        char text[120], msg[300];

        if (ev == NULL || w == NULL || !(mode_is(w, "write") || mode_is(w, "write-only")))
                return true;
        snprintf(text, sizeof(text), "cache-mode: %s", json_string_value(json_object_get(w, "value")));
        snprintf(msg, sizeof(msg), "job %s runs on %s and may save caches that other workflows, releases "
                 "included, restore", job_id(job), ev);
        return prc_act_found(cx, md_path(md), prc_gha_line(w), text, msg, err);
}

static bool cp_workflow(prc_actx *cx, const json_t *md, prc_err *err)
{
        const json_t *job, *step, *mode;
        uint32_t tline = 0, pline = 0;
        const char *trig = release_trigger(md, &tline);
        char why[300], what[160];
        size_t j, i;

        json_array_foreach(prc_gha_jobs(md), j, job) {
                const json_t *steps = prc_gha_steps(md, job);
                if (!cp_write_side(cx, md, job, err))
                        return false;
                /* cache-mode none or write-only: the cache service refuses every restore of this job. */
                mode = cache_mode(md, job);
                if (mode != NULL && (mode_is(mode, "none") || mode_is(mode, "write-only")))
                        continue;
                if (trig != NULL) {
                        snprintf(why, sizeof(why), "runs for a release (%s, line %u)", trig, tline);
                } else {
                        what[0] = 0;
                        json_array_foreach(steps, i, step) {
                                if (!prc_gha_step_publishes(step, what, sizeof(what), &pline, err))
                                        return false;
                                if (what[0] != 0)
                                        break;
                        }
                        if (what[0] == 0)
                                continue;
                        snprintf(why, sizeof(why), "publishes (%s, line %u)", what, pline);
                }
                if (!cp_job(cx, md_path(md), steps, why, err))
                        return false;
        }
        return true;
}

bool prc_gha_cache_poisoning(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++)
                if (prc_gha_is_workflow(md) && !cp_workflow(cx, md, err))
                        return false;
        return true;
}

/* --- gha-secrets-exposure --- */

/* Does this context path hand the runner every secret?  secrets, secrets.*, secrets[*], secrets[?]. */
static const char *whole_secrets(const char *p)
{
        if (strcmp(p, "secrets") == 0)
                return "the whole secrets context";
        if (strncmp(p, "secrets[?]", 10) == 0)
                return "a secret chosen at run time (a computed index)";
        if (strncmp(p, "secrets.*", 9) == 0 || strncmp(p, "secrets[*]", 10) == 0)
                return "every secret (a filter)";
        return NULL;
}

static bool se_exprs(prc_actx *cx, const char *path, const json_t *exprs, prc_err *err)
{
        const json_t *e, *c;
        size_t i, k;

        json_array_foreach(exprs, i, e) {
                json_array_foreach(json_object_get(e, "contexts"), k, c) {
                        const char *p = json_string_value(json_object_get(c, "path"));
                        const char *why = p != NULL ? whole_secrets(p) : NULL;
                        char text[300], msg[300];
                        if (why == NULL)
                                continue;
                        snprintf(text, sizeof(text), "${{ %s }}", json_string_value(json_object_get(e, "text")));
                        snprintf(msg, sizeof(msg), "%s reads %s, so the runner receives every secret",
                                 json_string_value(json_object_get(e, "field")), why);
                        if (!prc_act_found(cx, path, prc_gha_line(e), text, msg, err))
                                return false;
                        break;
                }
        }
        return true;
}

static bool se_steps(prc_actx *cx, const char *path, const json_t *steps, prc_err *err)
{
        const json_t *step;
        size_t i;

        json_array_foreach(steps, i, step)
                if (!se_exprs(cx, path, json_object_get(step, "expressions"), err))
                        return false;
        return true;
}

static bool se_doc(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *path = md_path(md);
        const json_t *job;
        size_t j;

        if (!se_exprs(cx, path, json_object_get(prc_gha_details(md), "expressions"), err))
                return false;
        if (!prc_gha_is_workflow(md))
                return se_steps(cx, path, prc_gha_steps(md, NULL), err);
        json_array_foreach(prc_gha_jobs(md), j, job) {
                const char *s = json_string_value(json_object_get(job, "secrets"));
                if (s != NULL && strcmp(s, "inherit") == 0) {
                        char msg[400];
                        json_int_t l = json_integer_value(json_object_get(job, "secrets_line"));
                        snprintf(msg, sizeof(msg), "job %s passes every secret of the repository to %s", job_id(job),
                                 uses_raw(job));
                        if (!prc_act_found(cx, path, l > 0 && l <= UINT32_MAX ? (uint32_t)l : prc_gha_line(job),
                                           "secrets: inherit", msg, err))
                                return false;
                }
                if (!se_exprs(cx, path, json_object_get(job, "expressions"), err) ||
                    !se_steps(cx, path, prc_gha_steps(md, job), err))
                        return false;
        }
        return true;
}

bool prc_gha_secrets_exposure(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++)
                if (!se_doc(cx, md, err))
                        return false;
        return true;
}

/* --- gha-insecure-commands --- */

static const char unsecure[] = "ACTIONS_ALLOW_UNSECURE_COMMANDS";

/* Does a value as written hold an expression anywhere? */
static bool has_expr(const json_t *v)
{
        const char *k;
        const json_t *x;
        size_t i;

        if (json_is_string(v))
                return strstr(json_string_value(v), "${{") != NULL;
        if (json_is_array(v)) {
                json_array_foreach(v, i, x)
                        if (has_expr(x))
                                return true;
        }
        if (json_is_object(v)) {
                json_object_foreach((json_t *)v, k, x)
                        if (has_expr(x))
                                return true;
        }
        return false;
}

/* A value the switch takes somewhere in a static matrix (turned on), or NULL. */
static const json_t *matrix_turns_on(const json_t *v)
{
        const char *k;
        const json_t *x, *r;
        size_t i;

        if (json_is_array(v)) {
                json_array_foreach(v, i, x)
                        if ((r = matrix_turns_on(x)) != NULL)
                                return r;
        }
        if (json_is_object(v)) {
                json_object_foreach((json_t *)v, k, x) {
                        if (strcasecmp(k, unsecure) == 0 && prc_gha_bool_of(x) == PRC_GHA_TRUE)
                                return x;
                        if ((r = matrix_turns_on(x)) != NULL)
                                return r;
                }
        }
        return NULL;
}

/* Does the expression of field read only matrix values? */
static bool reads_only_matrix(const json_t *exprs, const char *field)
{
        const json_t *e, *c;
        size_t i, k;
        bool any = false;

        json_array_foreach(exprs, i, e) {
                const char *f = json_string_value(json_object_get(e, "field"));
                if (f == NULL || strcmp(f, field) != 0)
                        continue;
                if (json_object_get(e, "contexts") == NULL || json_is_null(json_object_get(e, "contexts")))
                        return false;
                json_array_foreach(json_object_get(e, "contexts"), k, c) {
                        const char *p = json_string_value(json_object_get(c, "path"));
                        if (p == NULL || strncmp(p, "matrix.", 7) != 0)
                                return false;
                        any = true;
                }
        }
        return any;
}

struct ic_owner {
        const json_t *exprs;    /* the owner's expressions (env: ${{ }} is field "env") */
        const json_t *strategy; /* the job's strategy as written, or NULL */
        const char   *where;
};

/* env: ${{ matrix.x }} over a matrix written in the file is judged through the matrix; anything else is unknown. */
static bool ic_whole_env(prc_actx *cx, const char *path, const json_t *e, const struct ic_owner *o, prc_err *err)
{
        const json_t *on;
        char text[300], msg[300], val[200];

        if (o->strategy == NULL || has_expr(o->strategy) || !reads_only_matrix(o->exprs, "env")) {
                snprintf(msg, sizeof(msg), "the env of %s is an expression", o->where);
                return prc_act_unresolved(cx, path, prc_gha_line(e), msg, err);
        }
        on = matrix_turns_on(o->strategy);
        if (on == NULL)
                return true;
        value_text(on, val, sizeof(val));
        snprintf(text, sizeof(text), "%s: %s (from the matrix)", unsecure, val);
        snprintf(msg, sizeof(msg), "%s re-enables the set-env and add-path workflow commands", o->where);
        return prc_act_found(cx, path, prc_gha_line(e), text, msg, err);
}

static bool ic_env(prc_actx *cx, const char *path, const json_t *env, const struct ic_owner *o, prc_err *err)
{
        const json_t *e;
        size_t i;

        json_array_foreach(env, i, e) {
                const char *n = json_string_value(json_object_get(e, "name"));
                const json_t *v = json_object_get(e, "value");
                char val[200], text[300], msg[300];
                if (n == NULL) {
                        if (!ic_whole_env(cx, path, e, o, err))
                                return false;
                        continue;
                }
                if (strcasecmp(n, unsecure) != 0)
                        continue;
                switch (prc_gha_bool_of(v)) {
                case PRC_GHA_TRUE:
                        value_text(v, val, sizeof(val));
                        snprintf(text, sizeof(text), "%s: %s", n, val);
                        snprintf(msg, sizeof(msg), "%s re-enables the set-env and add-path workflow commands",
                                 o->where);
                        if (!prc_act_found(cx, path, prc_gha_line(e), text, msg, err))
                                return false;
                        break;
                case PRC_GHA_EXPR:
                        snprintf(msg, sizeof(msg), "%s of %s is an expression", unsecure, o->where);
                        if (!prc_act_unresolved(cx, path, prc_gha_line(e), msg, err))
                                return false;
                        break;
                default:
                        break;
                }
        }
        return true;
}

static bool ic_steps(prc_actx *cx, const char *path, const json_t *steps, const json_t *strategy, prc_err *err)
{
        const json_t *step;
        char where[200];
        size_t i;

        json_array_foreach(steps, i, step) {
                struct ic_owner o = { json_object_get(step, "expressions"), strategy, where };
                snprintf(where, sizeof(where), "the step at line %u", prc_gha_line(step));
                if (!ic_env(cx, path, json_object_get(step, "env"), &o, err))
                        return false;
        }
        return true;
}

static bool ic_doc(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *path = md_path(md);
        const json_t *d = prc_gha_details(md), *job;
        char where[200];
        size_t j;

        if (!prc_gha_is_workflow(md)) {
                struct ic_owner o = { json_object_get(d, "expressions"), NULL, "the action" };
                return ic_env(cx, path, json_object_get(json_object_get(d, "runs"), "env"), &o, err) &&
                       ic_steps(cx, path, prc_gha_steps(md, NULL), NULL, err);
        }
        {
                struct ic_owner o = { json_object_get(d, "expressions"), NULL, "the workflow" };
                if (!ic_env(cx, path, json_object_get(d, "env"), &o, err))
                        return false;
        }
        json_array_foreach(prc_gha_jobs(md), j, job) {
                const json_t *st = json_object_get(json_object_get(job, "strategy"), "value");
                struct ic_owner o = { json_object_get(job, "expressions"), st, where };
                snprintf(where, sizeof(where), "job %s", job_id(job));
                if (!ic_env(cx, path, json_object_get(job, "env"), &o, err) ||
                    !ic_steps(cx, path, prc_gha_steps(md, job), st, err))
                        return false;
        }
        return true;
}

bool prc_gha_insecure_commands(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++)
                if (!ic_doc(cx, md, err))
                        return false;
        return true;
}
