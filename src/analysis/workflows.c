/*
 * workflows.c - GitHub Actions analyses: gha-unpinned-uses,
 * gha-dangerous-trigger, gha-template-injection, gha-env-injection and
 * gha-self-hosted-pr (docs/analyses.md, "GitHub Actions workflows").
 *
 * Trust: engine-side.  Reads ManifestDocs only: USES objects, the
 * per-place expression lists with their context paths and flows flags, and
 * the run: scripts' shell tokens.  The client checked every ManifestDoc,
 * details included, but these do not lean on it (defence in depth): every
 * member is read as possibly absent or mistyped, and run: tokens pass
 * prc_sh_check_tokens before the shell walk reads them.  Every scan is linear in the documents (a variable is looked
 * up in at most three env lists; callers of reusable workflows and local
 * actions are indexed once per run).
 */
#include "analysis/workflows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/gha.h"
#include "analysis/sh.h"
#include "base/compiler.h"
#include "base/strv.h"

/* --- context paths --- */

/* path with every [index] written as .* ("commits[0].message" -> "commits.*.message"), cut to cap. */
static void norm_path(const char *p, char *out, size_t cap)
{
        size_t o = 0;

        for (size_t i = 0; p[i] != 0 && o + 3 < cap; i++) {
                if (p[i] == '[') {
                        while (p[i] != 0 && p[i] != ']')
                                i++;
                        out[o++] = '.';
                        out[o++] = '*';
                        if (p[i] == 0)
                                break;
                        continue;
                }
                out[o++] = p[i];
        }
        out[o] = 0;
}

/* 0: unrelated; 1: path is pat or lies below it; 2: path is an object above pat.  '*' matches any segment. */
static int seg_match(const char *pat, const char *path)
{
        for (;;) {
                const char *pe = strchrnul(pat, '.'), *qe = strchrnul(path, '.');
                size_t pl = (size_t)(pe - pat), ql = (size_t)(qe - path);
                bool eq = (pl == 1 && pat[0] == '*') || (ql == 1 && path[0] == '*') ||
                          (pl == ql && memcmp(pat, path, pl) == 0);
                if (!eq)
                        return 0;
                if (*qe == 0)
                        return *pe == 0 ? 1 : 2;
                if (*pe == 0)
                        return 1;
                pat = pe + 1;
                path = qe + 1;
        }
}

/*
 * Free text of the events a stranger can raise (GitHub's webhook payloads):
 * what a fork's author, an issue or comment writer, or a committer types.
 * Numbers, SHAs, booleans, logins (alphanumerics and '-') and repository
 * names are not here: they cannot carry shell syntax.
 */
static const char *const untrusted_ctx[] = {
        "github.head_ref",
        "github.event.issue.title", "github.event.issue.body",
        "github.event.pull_request.title", "github.event.pull_request.body",
        "github.event.pull_request.head.ref", "github.event.pull_request.head.label",
        "github.event.pull_request.head.repo.default_branch", "github.event.pull_request.head.repo.description",
        "github.event.pull_request.head.repo.homepage",
        "github.event.comment.body", "github.event.review.body", "github.event.review_comment.body",
        "github.event.discussion.title", "github.event.discussion.body",
        "github.event.changes.title.from", "github.event.changes.body.from",
        "github.event.pages.*.page_name",
        "github.event.commits.*.message", "github.event.commits.*.author.email", "github.event.commits.*.author.name",
        "github.event.commits.*.committer.email", "github.event.commits.*.committer.name",
        "github.event.head_commit.message", "github.event.head_commit.author.email",
        "github.event.head_commit.author.name", "github.event.head_commit.committer.email",
        "github.event.head_commit.committer.name",
        "github.event.workflow_run.head_branch", "github.event.workflow_run.display_title",
        "github.event.workflow_run.head_commit.message", "github.event.workflow_run.head_commit.author.email",
        "github.event.workflow_run.head_commit.author.name", "github.event.workflow_run.head_commit.committer.email",
        "github.event.workflow_run.head_commit.committer.name", "github.event.workflow_run.pull_requests.*.head.ref",
        "github.event.workflow_run.head_repository.description",
        "github.event.check_suite.head_branch", "github.event.check_run.check_suite.head_branch",
        NULL,
};

enum prc_gha_taint prc_gha_context_taint(const char *path)
{
        char n[512];
        bool holds = false;

        norm_path(path, n, sizeof(n));
        for (size_t i = 0; untrusted_ctx[i] != NULL; i++) {
                int m = seg_match(untrusted_ctx[i], n);
                if (m == 1)
                        return PRC_GHA_UNTRUSTED;
                holds |= m == 2;
        }
        return holds ? PRC_GHA_HOLDS_UNTRUSTED : PRC_GHA_TRUSTED;
}

/* The pull request's own code: its head (SHA, branch, fork), its merge commit, the head of the triggering run. */
static const char *const pr_code_ctx[] = {
        "github.head_ref",
        "github.event.pull_request.head",
        "github.event.pull_request.merge_commit_sha",
        "github.event.workflow_run.head_sha",
        "github.event.workflow_run.head_branch",
        "github.event.workflow_run.head_commit.id",
        "github.event.workflow_run.head_repository",
        "github.event.workflow_run.pull_requests.*.head",
        NULL,
};

bool prc_gha_context_pr_code(const char *path)
{
        char n[512];

        norm_path(path, n, sizeof(n));
        for (size_t i = 0; pr_code_ctx[i] != NULL; i++)
                if (seg_match(pr_code_ctx[i], n) == 1)
                        return true;
        return false;
}

/* --- runner labels --- */

static int label_self_hosted(const json_t *v)
{
        const char *s = json_string_value(v);

        if (s == NULL)
                return -1;
        if (strstr(s, "${{") != NULL) {
                char low[256];
                size_t k;
                for (k = 0; s[k] != 0 && k + 1 < sizeof(low); k++)
                        low[k] = (char)((s[k] >= 'A' && s[k] <= 'Z') ? s[k] + 32 : s[k]);
                low[k] = 0;
                /* A literal in the expression (cond && 'self-hosted' || 'ubuntu-latest') is one of the outcomes. */
                return strstr(low, "'self-hosted'") != NULL ? 1 : -1;
        }
        return strcasecmp(s, "self-hosted") == 0 ? 1 : 0;
}

static int labels_self_hosted(const json_t *v)
{
        const json_t *e;
        size_t i;
        int r = 0;

        if (!json_is_array(v))
                return label_self_hosted(v);
        json_array_foreach(v, i, e) {
                int x = label_self_hosted(e);
                if (x == 1)
                        return 1;
                if (x < 0)
                        r = -1;
        }
        return r;
}

int prc_gha_self_hosted(const json_t *runs_on)
{
        if (json_is_object(runs_on)) {
                const json_t *l = json_object_get(runs_on, "labels");
                int r = l != NULL ? labels_self_hosted(l) : 0;
                if (r == 1)
                        return 1;
                /* A runner group can hold self-hosted runners or GitHub's larger ones: not visible here. */
                return json_object_get(runs_on, "group") != NULL ? -1 : r;
        }
        return labels_self_hosted(runs_on);
}

/* --- documents --- */

static const char *md_path(const json_t *md)
{
        const char *p = json_string_value(json_object_get(md, "path"));
        return p != NULL ? p : "";
}

static const char *str_of(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

/* The string at o[k], or "" (details are not shape-checked by the client: absent and mistyped read as empty). */
static const char *str_or(const json_t *o, const char *k)
{
        const char *v = str_of(o, k);
        return v != NULL ? v : "";
}

/* Token i of a tokens array, or "". */
static const char *tok(const json_t *toks, size_t i)
{
        const char *v = json_string_value(json_array_get(toks, i));
        return v != NULL ? v : "";
}

static bool expr_calls(const json_t *x, const char *fn)
{
        const json_t *f;
        size_t i;

        json_array_foreach(json_object_get(x, "functions"), i, f)
                if (json_is_string(f) && strcmp(json_string_value(f), fn) == 0)
                        return true;
        return false;
}

/*
 * Are the run: script's tokens of step, if any, in the tokenizer's shape?
 * The shell walk trusts that shape and the client does not check inside
 * details, so each is checked here (prc_sh_check, tokens-invalid) before
 * anything reads it; one that fails leaves the verdict Unknown.
 */
static bool run_tokens_ok(prc_actx *cx, const char *path, const json_t *step, bool *out_ok, prc_err *err)
{
        const json_t *t = json_object_get(json_object_get(step, "run"), "tokens");
        prc_err e;
        char why[400];

        *out_ok = true;
        if (t == NULL || json_is_null(t) || prc_act_tokens_known(cx, t))
                return true;
        prc_err_init(&e);
        *out_ok = prc_sh_check_tokens(t, &e);
        if (*out_ok) {
                prc_act_tokens_good(cx, t);
                return true;
        }
        if (e.cls == PRC_E_OUT_OF_MEMORY) {
                *err = e;
                return false;
        }
        snprintf(why, sizeof(why), "run: tokens have the wrong shape (%s: %.200s at %.100s)", prc_err_name(e.cls),
                 e.msg, e.ptr);
        return prc_act_unresolved(cx, path, prc_gha_line(step), why, err);
}

/*
 * Walk a step's run: script (every top-level command's lines, in order) in
 * one shell walk: the walk's state is large, so one per script, not one per
 * command.  A step without tokens calls nothing.
 */
static bool walk_script(const json_t *step, prc_sh_fn fn, void *ctx, prc_err *err)
{
        const json_t *cmd;
        json_t *lines;
        size_t i;
        bool ok;

        if (!json_is_array(json_object_get(json_object_get(json_object_get(step, "run"), "tokens"), "commands")))
                return true;
        lines = json_array();
        if (lines == NULL)
                return prc_err_oom(err, "a run: script");
        json_array_foreach(json_object_get(json_object_get(json_object_get(step, "run"), "tokens"), "commands"), i,
                           cmd) {
                if (json_is_array(json_object_get(cmd, "body")) &&
                    json_array_extend(lines, json_object_get(cmd, "body")) != 0) {
                        json_decref(lines);
                        return prc_err_oom(err, "a run: script");
                }
        }
        ok = prc_sh_walk(lines, NULL, fn, ctx, err);
        json_decref(lines);
        return ok;
}

/* --- what an expression carries, through env: --- */

/* The places whose env a step's expressions see: the step, its job, the workflow (any may be NULL). */
struct scope {
        const json_t *lv[3];
        json_t       *sh;       /* shell variables of the script so far that carry attacker text: name -> context */
};

enum want { W_UNTRUSTED, W_PR_CODE };

static bool ctx_wanted(const char *path, const json_t *x, enum want w)
{
        enum prc_gha_taint t;

        if (w == W_PR_CODE)
                return prc_gha_context_pr_code(path);
        t = prc_gha_context_taint(path);
        return t == PRC_GHA_UNTRUSTED || (t == PRC_GHA_HOLDS_UNTRUSTED && expr_calls(x, "tojson"));
}

static const char *env_carries(const struct scope *sc, unsigned lv, const char *name, bool ci, enum want w,
                               unsigned depth);

/* The first context whose value can become x's result and carries what w asks for (directly or through env.X). */
static const char *expr_carries(const struct scope *sc, unsigned lv, const json_t *x, enum want w, unsigned depth)
{
        const json_t *c;
        size_t i;

        json_array_foreach(json_object_get(x, "contexts"), i, c) {
                const char *p = str_of(c, "path");
                if (p == NULL || !json_is_true(json_object_get(c, "flows")))
                        continue;
                if (ctx_wanted(p, x, w))
                        return p;
                if (strncmp(p, "env.", 4) == 0 && depth < 4) {
                        const char *q = env_carries(sc, lv, p + 4, true, w, depth + 1);
                        if (q != NULL)
                                return q;
                }
        }
        return NULL;
}

/*
 * Does the variable name, as the place at level lv and outward sees it,
 * carry what w asks for?  Returns the context it carries, or NULL.  The
 * innermost place that defines it decides (a step's env shadows its
 * job's).  ci: the env context, whose names GitHub matches without case;
 * the shell's $NAME matches exactly.
 */
static const char *env_carries(const struct scope *sc, unsigned lv, const char *name, bool ci, enum want w,
                               unsigned depth)
{
        for (unsigned l = lv; l < PRC_ARRAY_LEN(sc->lv); l++) {
                const json_t *nv, *x;
                bool defined = false;
                size_t i;

                json_array_foreach(json_object_get(sc->lv[l], "env"), i, nv) {
                        const char *n = str_of(nv, "name");
                        if (n != NULL && (ci ? strcasecmp(n, name) : strcmp(n, name)) == 0)
                                defined = true;
                }
                if (!defined)
                        continue;
                json_array_foreach(json_object_get(sc->lv[l], "expressions"), i, x) {
                        const char *f = str_of(x, "field"), *p;
                        if (f == NULL || strncmp(f, "env.", 4) != 0 ||
                            (ci ? strcasecmp(f + 4, name) : strcmp(f + 4, name)) != 0)
                                continue;
                        p = expr_carries(sc, l + 1, x, w, depth);
                        if (p != NULL)
                                return p;
                }
                return NULL;
        }
        return NULL;
}

/* The step's run-field expression written exactly as text (between the braces, blanks trimmed), or NULL. */
static const json_t *run_expr(const json_t *step, const char *text, size_t n)
{
        const json_t *x;
        size_t i;

        json_array_foreach(json_object_get(step, "expressions"), i, x) {
                const char *f = str_of(x, "field"), *t = str_of(x, "text");
                if (f != NULL && t != NULL && strcmp(f, "run") == 0 && strlen(t) == n && memcmp(t, text, n) == 0)
                        return x;
        }
        return NULL;
}

/*
 * A script that reads the event payload itself (jq FILTER "$GITHUB_EVENT_PATH"):
 * the first filter of s (.pull_request.title, '.comment.body') that names
 * attacker-written text, as a github.event path written into buf; NULL when
 * s does not name the payload file or no filter does.
 */
static const char *payload_carries(const char *s, char *buf, size_t bufsz)
{
        if (strstr(s, "GITHUB_EVENT_PATH") == NULL)
                return NULL;
        for (size_t k = 0; s[k] != 0; k++) {
                size_t n = 0;
                char path[400];
                if (s[k] != '.' || (k > 0 && s[k - 1] != ' ' && s[k - 1] != '\'' && s[k - 1] != '"' &&
                                    s[k - 1] != '('))
                        continue;
                n = strspn(s + k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]*");
                if (n < 2 || n >= sizeof(path) - 16)
                        continue;
                snprintf(path, sizeof(path), "github.event%.*s", (int)n, s + k);
                /* jq's .a[] and .a[0] read like the expression's .a[*] and .a[0] (norm_path makes both .*). */
                if (prc_gha_context_taint(path) == PRC_GHA_UNTRUSTED) {
                        snprintf(buf, bufsz, "%s via GITHUB_EVENT_PATH", path);
                        return buf;
                }
                k += n - 1;
        }
        return NULL;
}

/*
 * Does the shell text s (a token as written, or a here-document body) of
 * a run: script carry what w asks for: a ${{ }} expression that does (GitHub
 * substitutes it as text, in any quoting), or a $NAME / ${NAME...} outside
 * single quotes whose env: value does (vars false: a quoted here-document)?
 * Returns what carries it (borrowed from the document, or name copied into
 * buf), or NULL.
 */
static const char *text_carries(const struct scope *sc, const json_t *step, const char *s, bool vars, enum want w,
                                char *buf, size_t bufsz)
{
        bool sq = false, dq = false;

        if (s == NULL)
                return NULL;
        if (w == W_UNTRUSTED && payload_carries(s, buf, bufsz) != NULL)
                return buf;
        for (size_t k = 0; s[k] != 0; k++) {
                if (s[k] == '$' && s[k + 1] == '{' && s[k + 2] == '{') {
                        const char *b = s + k + 3, *e = strstr(b, "}}");
                        const json_t *x;
                        const char *p;
                        if (e == NULL)
                                break;
                        k = (size_t)(e - s) + 1;
                        while (*b == ' ' || *b == '\t' || *b == '\n')
                                b++;
                        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
                                e--;
                        x = run_expr(step, b, (size_t)(e - b));
                        p = x != NULL ? expr_carries(sc, 0, x, w, 0) : NULL;
                        if (p != NULL)
                                return p;
                        continue;
                }
                if (s[k] == '"' && !sq) {
                        dq = !dq;
                        continue;
                }
                if (s[k] == '\'' && vars && !dq) {
                        sq = !sq;
                        continue;
                }
                if (s[k] == '\\' && s[k + 1] != 0) {
                        k++;
                        continue;
                }
                if (s[k] == '$' && !sq && vars) {
                        size_t j = k + 1, n = 0;
                        if (s[j] == '{')
                                j++;
                        if (!((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= 'a' && s[j] <= 'z') || s[j] == '_'))
                                continue;
                        char name[128];
                        const char *p;
                        while (((s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= 'a' && s[j] <= 'z') || s[j] == '_' ||
                                (s[j] >= '0' && s[j] <= '9')) && n + 1 < sizeof(name))
                                name[n++] = s[j++];
                        name[n] = 0;
                        p = w == W_UNTRUSTED ? json_string_value(json_object_get(sc->sh, name)) : NULL;
                        if (p == NULL)
                                p = env_carries(sc, 0, name, false, w, 0);
                        /* The runner sets GITHUB_HEAD_REF to github.head_ref in every step. */
                        if (p == NULL && strcmp(name, "GITHUB_HEAD_REF") == 0 && ctx_wanted("github.head_ref", NULL, w))
                                p = "github.head_ref";
                        if (p != NULL) {
                                snprintf(buf, bufsz, "$%s (from %s)", name, p);
                                return buf;
                        }
                }
        }
        return NULL;
}

/* --- triggers --- */

/*
 * The array of map (path -> [...]) for the local reusable workflow job calls, created empty on first
 * use; *slot is NULL when job calls no local workflow.  false: out of memory.
 */
static bool callee_slot(json_t *map, const json_t *job, json_t **slot)
{
        const json_t *u = json_object_get(job, "uses");
        const char *p = str_of(u, "path"), *k = str_of(u, "kind");

        *slot = NULL;
        if (p == NULL || k == NULL || strcmp(k, "local") != 0)
                return true;
        if (strncmp(p, "./", 2) == 0)
                p += 2;
        *slot = json_object_get(map, p);
        if (*slot == NULL) {
                *slot = json_array();
                if (*slot == NULL || json_object_set_new(map, p, *slot) != 0)
                        return false;
        }
        return true;
}

/*
 * The events that reach each local reusable workflow from the workflows of
 * the run that call it (one level): path -> [event names].  New reference.
 */
static json_t *caller_events(const prc_actx *cx)
{
        json_t *map = json_object();
        const json_t *md;

        if (map == NULL)
                return NULL;
        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job, *t;
                size_t j, k;
                if (!prc_gha_is_workflow(md))
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        json_t *ev;
                        if (!callee_slot(map, job, &ev)) {
                                json_decref(map);
                                return NULL;
                        }
                        if (ev == NULL)
                                continue;
                        json_array_foreach(json_object_get(prc_gha_details(md), "triggers"), k, t)
                                if (json_is_string(json_object_get(t, "event")))
                                        json_array_append(ev, json_object_get(t, "event"));
                }
        }
        return map;
}

/* The first of events (NULL-terminated) that triggers md, itself or through a local caller; NULL: none. */
static const char *wf_event(const json_t *callers, const json_t *md, const char *const *events)
{
        const json_t *ev;
        size_t i;

        const char *first = prc_gha_first_trigger(md, events);

        if (first != NULL)
                return first;
        if (prc_gha_trigger(md, "workflow_call") == NULL)
                return NULL;
        json_array_foreach(json_object_get(callers, md_path(md)), i, ev)
                for (size_t e = 0; events[e] != NULL; e++)
                        if (strcmp(json_string_value(ev), events[e]) == 0)
                                return events[e];
        return NULL;
}

/* --- gha-unpinned-uses --- */

static bool is_hex(const char *s)
{
        if (*s == 0)
                return false;
        for (; *s != 0; s++)
                if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
                        return false;
        return true;
}

static bool judge_uses(prc_actx *cx, const char *path, const json_t *u, prc_err *err)
{
        const char *kind = str_of(u, "kind"), *raw = str_of(u, "raw"), *ref = str_of(u, "ref");
        uint32_t line = prc_gha_line(u);
        char detail[160];

        if (u == NULL || kind == NULL || raw == NULL || strcmp(kind, "local") == 0)
                return true;
        if (str_of(u, "error") != NULL) {
                snprintf(detail, sizeof(detail), "uses is not a reference GitHub accepts (%s)", str_of(u, "error"));
                return prc_act_unresolved(cx, path, line, detail, err);
        }
        if (strcmp(kind, "docker") == 0) {
                const json_t *img = json_object_get(u, "image");
                if (!json_is_object(img))
                        return prc_act_unresolved(cx, path, line, "docker image named by an expression", err);
                if (str_of(img, "digest") != NULL)
                        return true;
                return prc_act_found(cx, path, line, raw, "docker image without an @sha256 digest", err);
        }
        if (json_is_true(json_object_get(u, "ref_is_sha")))
                return true;
        if (ref == NULL || strstr(ref, "${{") != NULL)
                return prc_act_unresolved(cx, path, line, "uses ref is an expression", err);
        if (is_hex(ref) && strlen(ref) >= 7)
                snprintf(detail, sizeof(detail), "ref '%.64s' is a short commit, not a full 40-hex commit", ref);
        else
                snprintf(detail, sizeof(detail), "ref '%.64s' is a tag or branch, not a full 40-hex commit", ref);
        return prc_act_found(cx, path, line, raw, detail, err);
}

bool prc_gha_unpinned_uses(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const char *path = md_path(md);
                const json_t *job, *st;
                size_t j, k;

                if (!prc_gha_is_workflow(md)) {
                        const json_t *runs = json_object_get(prc_gha_details(md), "runs");
                        const char *img = str_of(runs, "image_raw");
                        json_array_foreach(prc_gha_steps(md, NULL), k, st)
                                if (!judge_uses(cx, path, json_object_get(st, "uses"), err))
                                        return false;
                        if (img != NULL && strncmp(img, "docker://", 9) == 0) {
                                const json_t *im = json_object_get(runs, "image");
                                if (!json_is_object(im)) {
                                        if (!prc_act_unresolved(cx, path, prc_gha_line(runs),
                                                                "docker image not a valid reference", err))
                                                return false;
                                } else if (str_of(im, "digest") == NULL &&
                                           !prc_act_found(cx, path, prc_gha_line(runs), img,
                                                          "docker image without an @sha256 digest", err)) {
                                        return false;
                                }
                        }
                        continue;
                }
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        if (!judge_uses(cx, path, json_object_get(job, "uses"), err))
                                return false;
                        json_array_foreach(prc_gha_steps(md, job), k, st)
                                if (!judge_uses(cx, path, json_object_get(st, "uses"), err))
                                        return false;
                }
        }
        return true;
}

/* --- gha-template-injection --- */

static bool inject_step(prc_actx *cx, const char *path, const struct scope *sc, const json_t *step, prc_err *err)
{
        const json_t *x;
        size_t i;
        bool script = prc_gha_step_uses(step, "actions/github-script");

        json_array_foreach(json_object_get(step, "expressions"), i, x) {
                const char *f = str_of(x, "field"), *p;
                char text[PRC_ACT_TEXT_MAX + 8], detail[640];
                if (f == NULL || !(strcmp(f, "run") == 0 || (script && strcmp(f, "with.script") == 0)))
                        continue;
                if (!json_is_array(json_object_get(x, "contexts"))) {
                        /* The extractor could not parse it (not_extracted says why): what it reads is unknown. */
                        snprintf(detail, sizeof(detail), "expression in %s does not parse (%.200s)", f,
                                 str_or(x, "error"));
                        if (!prc_act_unresolved(cx, path, prc_gha_line(x), detail, err))
                                return false;
                        continue;
                }
                p = expr_carries(sc, 0, x, W_UNTRUSTED, 0);
                if (p == NULL)
                        continue;
                snprintf(text, sizeof(text), "${{ %.200s }}", str_or(x, "text"));
                snprintf(detail, sizeof(detail), "%.500s expanded into %s", p,
                         strcmp(f, "run") == 0 ? "a run: script" : "an actions/github-script script");
                if (!prc_act_found(cx, path, prc_gha_line(x), text, detail, err))
                        return false;
        }
        return true;
}

bool prc_gha_template_injection(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job, *st;
                size_t j, k;
                struct scope sc = { .lv = { NULL, NULL, NULL } };

                if (!prc_gha_is_workflow(md)) {
                        json_array_foreach(prc_gha_steps(md, NULL), k, st) {
                                sc.lv[0] = st;
                                if (!inject_step(cx, md_path(md), &sc, st, err))
                                        return false;
                        }
                        continue;
                }
                sc.lv[2] = prc_gha_details(md);
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        sc.lv[1] = job;
                        json_array_foreach(prc_gha_steps(md, job), k, st) {
                                sc.lv[0] = st;
                                if (!inject_step(cx, md_path(md), &sc, st, err))
                                        return false;
                        }
                }
        }
        return true;
}

/* --- gha-env-injection --- */

/* Events whose runs hold secrets or a write token while a stranger wrote the event's text. */
static const char *const privileged_events[] = {
        "pull_request_target", "workflow_run", "issue_comment", "issues", "discussion", "discussion_comment",
        "pull_request_review", "pull_request_review_comment", NULL,
};

/* Which file a logical line appends to: "GITHUB_ENV", "GITHUB_PATH" (a > or >> target, or a tee argument), or NULL. */
static const char *line_writes_env(const json_t *line)
{
        const json_t *toks = json_object_get(line, "tokens");
        bool tee = false;
        size_t n = json_array_size(toks);

        for (size_t i = 0; i < n; i++)
                if (strcmp(tok(toks, i), "tee") == 0)
                        tee = true;
        for (size_t i = 0; i < n; i++) {
                const char *t = tok(toks, i);
                const char *prev = i > 0 ? tok(toks, i - 1) : "";
                const char *f = strstr(t, "GITHUB_ENV") != NULL ? "GITHUB_ENV" :
                                strstr(t, "GITHUB_PATH") != NULL ? "GITHUB_PATH" : NULL;
                if (f != NULL && (tee || strcmp(prev, ">>") == 0 || strcmp(prev, ">") == 0 || strcmp(prev, ">|") == 0))
                        return f;
        }
        return NULL;
}

/* The line's tokens joined by blanks, cut to cap. */
static void line_text(const json_t *line, char *out, size_t cap)
{
        const json_t *t;
        size_t i, o = 0;

        out[0] = 0;
        json_array_foreach(json_object_get(line, "tokens"), i, t) {
                int n = snprintf(out + o, cap - o, "%s%s", o > 0 ? " " : "", tok(json_object_get(line, "tokens"), i));
                if (n < 0 || (size_t)n >= cap - o)
                        break;
                o += (size_t)n;
        }
}

/* What in the logical line (its tokens and here-documents) carries untrusted text, or NULL. */
static const char *line_carries(const struct scope *sc, const json_t *step, const json_t *line, char *buf, size_t bsz)
{
        const json_t *toks = json_object_get(line, "tokens"), *t, *h;
        bool quoted_doc = false;
        const char *p;
        size_t i;

        json_array_foreach(toks, i, t) {
                const char *s = tok(toks, i);
                const char *prev = i > 0 ? tok(toks, i - 1) : "";
                if ((strcmp(prev, "<<") == 0 || strcmp(prev, "<<-") == 0) && strpbrk(s, "'\"\\") != NULL)
                        quoted_doc = true;
                p = text_carries(sc, step, s, true, W_UNTRUSTED, buf, bsz);
                if (p != NULL)
                        return p;
        }
        {
                char text[1024];
                line_text(line, text, sizeof(text));
                if (payload_carries(text, buf, bsz) != NULL)
                        return buf;
        }
        json_array_foreach(json_object_get(line, "heredocs"), i, h) {
                p = json_is_string(h) ? text_carries(sc, step, json_string_value(h), !quoted_doc, W_UNTRUSTED, buf,
                                                     bsz) : NULL;
                if (p != NULL)
                        return p;
        }
        return NULL;
}

/* The context behind what text_carries returned ("$X (from github.head_ref)" -> "github.head_ref"). */
static void origin_of(const char *p, char *out, size_t cap)
{
        const char *f = strstr(p, "(from ");
        size_t n;

        while (f != NULL && strstr(f + 6, "(from ") != NULL)
                f = strstr(f + 6, "(from ");
        if (f == NULL) {
                snprintf(out, cap, "%s", p);
                return;
        }
        f += 6;
        n = strcspn(f, ")");
        snprintf(out, cap, "%.*s", (int)n, f);
}

/*
 * Shell assignments at the start of each command of the line (NAME=VALUE,
 * also after export, local, declare, readonly): a value that carries
 * attacker text makes NAME carry it for the rest of the script
 * (message=$(echo "$TITLE" | sed ...)); any other value clears it.
 */
static bool note_assignments(struct scope *sc, const json_t *step, const json_t *line, prc_err *err)
{
        const json_t *toks = json_object_get(line, "tokens");
        bool start = true;

        for (size_t i = 0; i < json_array_size(toks); i++) {
                const char *t = tok(toks, i), *eq = strchr(t, '=');
                char name[128], buf[700], org[512];
                size_t n = eq != NULL ? (size_t)(eq - t) : 0;
                const char *p;
                bool ident = n > 0 && n < sizeof(name) && (eq[-1] != '+' || n > 1);
                for (size_t k = 0; ident && k < n - (eq[-1] == '+'); k++)
                        ident = t[k] == '_' || (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= 'a' && t[k] <= 'z') ||
                                (k > 0 && t[k] >= '0' && t[k] <= '9');
                if (strcmp(t, ";") == 0 || strcmp(t, "&&") == 0 || strcmp(t, "||") == 0 || strcmp(t, "|") == 0 ||
                    strcmp(t, "{") == 0 || strcmp(t, "(") == 0 || strcmp(t, "then") == 0 || strcmp(t, "do") == 0 ||
                    strcmp(t, "else") == 0) {
                        start = true;
                        continue;
                }
                if (start && (strcmp(t, "export") == 0 || strcmp(t, "local") == 0 || strcmp(t, "declare") == 0 ||
                              strcmp(t, "readonly") == 0 || strcmp(t, "typeset") == 0 || t[0] == '-'))
                        continue;
                if (!start || !ident) {
                        start = false;
                        continue;
                }
                n -= eq[-1] == '+';
                memcpy(name, t, n);
                name[n] = 0;
                p = text_carries(sc, step, eq + 1, true, W_UNTRUSTED, buf, sizeof(buf));
                if (p == NULL) {
                        if (eq[-1] != '+')
                                json_object_del(sc->sh, name);
                        continue;
                }
                origin_of(p, org, sizeof(org));
                if (json_object_set_new(sc->sh, name, json_string(org)) != 0)
                        return prc_err_oom(err, "a shell variable");
        }
        return true;
}

/*
 * The script's top-level assignments (the tokenizer keeps them apart from
 * commands) up to line, from *pos on, in order: as note_assignments.  A
 * conditional one only adds (it may not run).
 */
static bool top_assignments(struct scope *sc, const json_t *step, const json_t *as, size_t *pos, uint32_t line,
                            prc_err *err)
{
        for (; *pos < json_array_size(as); (*pos)++) {
                const json_t *x = json_array_get(as, *pos), *r;
                const char *name = str_of(x, "name"), *p = NULL;
                char buf[700], org[512];
                size_t k;
                if (prc_gha_line(x) > line)
                        break;
                if (name == NULL)
                        continue;
                json_array_foreach(json_object_get(x, "raw"), k, r)
                        if (p == NULL)
                                p = text_carries(sc, step, json_string_value(r), true, W_UNTRUSTED, buf, sizeof(buf));
                if (p == NULL) {
                        if (!json_is_true(json_object_get(x, "conditional")) &&
                            !json_is_true(json_object_get(x, "append")))
                                json_object_del(sc->sh, name);
                        continue;
                }
                origin_of(p, org, sizeof(org));
                if (json_object_set_new(sc->sh, name, json_string(org)) != 0)
                        return prc_err_oom(err, "a shell variable");
        }
        return true;
}

static bool env_step(prc_actx *cx, const char *path, const char *event, const struct scope *outer,
                     const json_t *step, prc_err *err)
{
        const json_t *cmd, *as;
        size_t i, apos = 0;
        bool shaped, ok = true;
        struct scope scv = *outer, *sc = &scv;

        if (!run_tokens_ok(cx, path, step, &shaped, err))
                return false;
        if (!shaped)
                return true;
        scv.sh = json_object();
        if (scv.sh == NULL)
                return prc_err_oom(err, "gha-env-injection");
        as = json_object_get(json_object_get(json_object_get(step, "run"), "tokens"), "assignments");
        json_array_foreach(json_object_get(json_object_get(json_object_get(step, "run"), "tokens"), "commands"), i,
                           cmd) {
                const json_t *body = json_object_get(cmd, "body"), *line;
                size_t j;
                json_array_foreach(body, j, line) {
                        const char *f, *p = NULL, *first;
                        char buf[700], text[PRC_ACT_TEXT_MAX + 1], detail[700];
                        if (!top_assignments(sc, step, as, &apos, prc_gha_line(line), err) ||
                            !note_assignments(sc, step, line, err)) {
                                ok = false;
                                goto out;
                        }
                        f = line_writes_env(line);
                        if (f == NULL)
                                continue;
                        first = json_string_value(json_array_get(json_object_get(line, "tokens"), 0));
                        if (first != NULL && (strcmp(first, "}") == 0 || strcmp(first, "done") == 0 ||
                                              strcmp(first, "fi") == 0 || strcmp(first, ")") == 0)) {
                                /* A group or loop redirected as a whole: all of its lines write to the file. */
                                const json_t *l2;
                                size_t k;
                                json_array_foreach(body, k, l2) {
                                        if (k > j || p != NULL)
                                                break;
                                        p = line_carries(sc, step, l2, buf, sizeof(buf));
                                }
                        } else {
                                p = line_carries(sc, step, line, buf, sizeof(buf));
                        }
                        if (p == NULL)
                                continue;
                        line_text(line, text, sizeof(text));
                        snprintf(detail, sizeof(detail), "%.500s written to %s in a workflow triggered by %s", p, f,
                                 event);
                        if (!prc_act_found(cx, path, prc_gha_line(line), text, detail, err)) {
                                ok = false;
                                goto out;
                        }
                }
        }
out:
        json_decref(scv.sh);
        return ok;
}

/*
 * The local composite actions (by directory) that steps of privileged
 * workflows of the run use: dir -> the first privileged event.  New
 * reference.
 */
static json_t *privileged_actions(const prc_actx *cx, const json_t *callers)
{
        json_t *map = json_object();
        const json_t *md;

        for (size_t i = 0; map != NULL && (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const char *ev = prc_gha_is_workflow(md) ? wf_event(callers, md, privileged_events) : NULL;
                const json_t *job, *st;
                size_t j, k;
                if (ev == NULL)
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        json_array_foreach(prc_gha_steps(md, job), k, st) {
                                const json_t *u = json_object_get(st, "uses");
                                char dir[512];
                                size_t n;
                                if (strcmp(str_or(u, "kind"), "local") != 0)
                                        continue;
                                snprintf(dir, sizeof(dir), "%s", str_or(u, "path"));
                                n = strlen(dir);
                                while (n > 0 && dir[n - 1] == '/')
                                        dir[--n] = 0;
                                if (json_object_get(map, dir + (strncmp(dir, "./", 2) == 0 ? 2 : 0)) == NULL &&
                                    json_object_set_new(map, dir + (strncmp(dir, "./", 2) == 0 ? 2 : 0),
                                                        json_string(ev)) != 0) {
                                        json_decref(map);
                                        return NULL;
                                }
                        }
                }
        }
        return map;
}

/* The event under which a composite action of the tree runs privileged (NULL: none seen). */
static const char *action_event(const json_t *actions, const json_t *md)
{
        const char *p = md_path(md), *slash = strrchr(p, '/');
        char dir[512];

        snprintf(dir, sizeof(dir), "%.*s", slash != NULL ? (int)(slash - p) : 0, p);
        return json_string_value(json_object_get(actions, dir));
}

bool prc_gha_env_injection(prc_actx *cx, prc_err *err)
{
        const json_t *md;
        json_t *callers = caller_events(cx), *actions = callers != NULL ? privileged_actions(cx, callers) : NULL;
        bool ok = true;

        if (callers == NULL || actions == NULL) {
                json_decref(callers);
                return prc_err_oom(err, "gha-env-injection");
        }
        for (size_t i = 0; ok && (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job, *st;
                size_t j, k;
                struct scope sc = { .lv = { NULL, NULL, prc_gha_details(md) } };
                const char *ev;

                if (!prc_gha_is_workflow(md)) {
                        ev = action_event(actions, md);
                        if (ev == NULL)
                                continue;
                        sc.lv[2] = NULL;
                        json_array_foreach(prc_gha_steps(md, NULL), k, st) {
                                sc.lv[0] = st;
                                ok = ok && env_step(cx, md_path(md), ev, &sc, st, err);
                        }
                        continue;
                }
                ev = wf_event(callers, md, privileged_events);
                if (ev == NULL)
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        sc.lv[1] = job;
                        json_array_foreach(prc_gha_steps(md, job), k, st) {
                                sc.lv[0] = st;
                                ok = ok && env_step(cx, md_path(md), ev, &sc, st, err);
                        }
                }
        }
        json_decref(callers);
        json_decref(actions);
        return ok;
}

/* --- gha-self-hosted-pr --- */

static const char *const pr_events[] = {
        "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment", NULL,
};

/* Follow rest ("os" or "a.b") through objects from v; NULL when a member is missing. */
static const json_t *dig(const json_t *v, const char *rest)
{
        char k[128];

        while (v != NULL && *rest != 0) {
                const char *e = strchrnul(rest, '.');
                size_t n = (size_t)(e - rest);
                if (n >= sizeof(k) || !json_is_object(v))
                        return NULL;
                memcpy(k, rest, n);
                k[n] = 0;
                v = json_object_get(v, k);
                rest = *e != 0 ? e + 1 : e;
        }
        return v;
}

/* Fold one matrix value into r (1 wins, then -1). */
static int fold_sh(int r, const json_t *v)
{
        int s = v != NULL ? prc_gha_self_hosted(v) : 0;

        return r == 1 || s == 1 ? 1 : (r < 0 || s < 0 ? -1 : 0);
}

/*
 * A runs-on that is exactly ${{ matrix.NAME[.FIELD...] }}: every value it
 * takes in the job's literal matrix (its rows and include entries).  1 / 0 /
 * -1 as prc_gha_self_hosted; -1 too when the matrix is not literal.
 */
static int matrix_self_hosted(const json_t *job, const json_t *x)
{
        const json_t *c = json_array_get(json_object_get(x, "contexts"), 0), *m, *v, *inc, *e;
        const char *p = str_of(c, "path"), *dot;
        char key[128];
        size_t i, n;
        int r = 0;

        if (p == NULL || json_array_size(json_object_get(x, "contexts")) != 1 || strncmp(p, "matrix.", 7) != 0 ||
            strchr(p, '[') != NULL || !json_is_true(json_object_get(c, "flows")))
                return -1;
        p += 7;
        dot = strchrnul(p, '.');
        n = (size_t)(dot - p);
        if (n == 0 || n >= sizeof(key))
                return -1;
        memcpy(key, p, n);
        key[n] = 0;
        p = *dot != 0 ? dot + 1 : dot;
        m = json_object_get(json_object_get(json_object_get(job, "strategy"), "value"), "matrix");
        if (!json_is_object(m))
                return -1;
        v = json_object_get(m, key);
        inc = json_object_get(m, "include");
        if ((v != NULL && !json_is_array(v)) || (inc != NULL && !json_is_array(inc)) || (v == NULL && inc == NULL))
                return -1;
        json_array_foreach(v, i, e)
                r = fold_sh(r, dig(e, p));
        json_array_foreach(inc, i, e) {
                if (!json_is_object(e))
                        return -1;
                r = fold_sh(r, dig(json_object_get(e, key), p));
        }
        return r;
}

/* Can only literals of x become its result (every context compared, negated or tested)? */
static bool literal_result(const json_t *x)
{
        const json_t *c;
        size_t i;

        if (!json_is_array(json_object_get(x, "contexts")))
                return false;
        json_array_foreach(json_object_get(x, "contexts"), i, c)
                if (json_is_true(json_object_get(c, "flows")))
                        return false;
        return true;
}

/* A runs-on expression x of job: 1 / 0 / -1 (literal outcomes, then the job's literal matrix). */
static int expr_self_hosted(const json_t *job, const json_t *x, const json_t *v)
{
        if (literal_result(x))
                return label_self_hosted(v) == 1;
        return matrix_self_hosted(job, x);
}

/*
 * The local reusable workflows called from pull-request workflows of the run:
 * path -> [the calling jobs].  New reference.
 */
static json_t *caller_jobs(const prc_actx *cx)
{
        json_t *map = json_object();
        const json_t *md;

        for (size_t i = 0; map != NULL && (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job;
                size_t j;
                bool pr = false;
                pr = prc_gha_first_trigger(md, pr_events) != NULL;
                if (!pr || !prc_gha_is_workflow(md))
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        json_t *a;
                        if (!callee_slot(map, job, &a)) {
                                json_decref(map);
                                return NULL;
                        }
                        if (a != NULL && json_array_append(a, (json_t *)job) != 0) {
                                json_decref(map);
                                return NULL;
                        }
                }
        }
        return map;
}

/*
 * A reusable workflow's runs-on that is ${{ inputs.NAME }}: what every
 * calling job passes as with.NAME (a literal, or an expression judged in
 * the caller's matrix).  A caller that passes nothing leaves the input's
 * default, which the extractor does not give: -1.
 */
static int input_self_hosted(const json_t *calling, const json_t *x)
{
        const json_t *c = json_array_get(json_object_get(x, "contexts"), 0), *cj;
        const char *p = str_of(c, "path");
        size_t i;
        int r = 0;

        if (p == NULL || json_array_size(json_object_get(x, "contexts")) != 1 || strncmp(p, "inputs.", 7) != 0 ||
            json_array_size(calling) == 0)
                return -1;
        p += 7;
        json_array_foreach(calling, i, cj) {
                const json_t *w, *e;
                size_t k;
                int s = -1;
                json_array_foreach(json_object_get(cj, "with"), k, w) {
                        const char *n = str_of(w, "name"), *v = str_of(w, "value");
                        if (n == NULL || strcasecmp(n, p) != 0)
                                continue;
                        s = v != NULL && strstr(v, "${{") == NULL ? prc_gha_self_hosted(json_object_get(w, "value"))
                                                                  : -1;
                        json_array_foreach(json_object_get(cj, "expressions"), k, e) {
                                const char *f = str_of(e, "field");
                                if (v != NULL && f != NULL && strncmp(f, "with.", 5) == 0 && strcasecmp(f + 5, p) == 0)
                                        s = expr_self_hosted(cj, e, json_object_get(w, "value"));
                        }
                        break;
                }
                r = s == 1 || r == 1 ? 1 : (s < 0 || r < 0 ? -1 : 0);
        }
        return r;
}

bool prc_gha_self_hosted_pr(prc_actx *cx, prc_err *err)
{
        const json_t *md;
        json_t *callers = caller_events(cx), *calls = caller_jobs(cx);
        bool ok = true;

        if (callers == NULL || calls == NULL) {
                json_decref(callers);
                json_decref(calls);
                return prc_err_oom(err, "gha-self-hosted-pr");
        }
        for (size_t i = 0; ok && (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job;
                size_t j;
                const char *ev = prc_gha_is_workflow(md) ? wf_event(callers, md, pr_events) : NULL;

                if (ev == NULL)
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        const json_t *ro = json_object_get(job, "runs_on"), *v = json_object_get(ro, "value");
                        char text[PRC_ACT_TEXT_MAX + 1], detail[160];
                        int s;
                        if (v == NULL)
                                continue;       /* a reusable-workflow call: its jobs are judged in its file */
                        s = prc_gha_self_hosted(v);
                        if (s < 0 && json_is_string(v)) {
                                const json_t *x;
                                size_t k;
                                json_array_foreach(json_object_get(job, "expressions"), k, x) {
                                        if (str_of(x, "field") == NULL || strcmp(str_of(x, "field"), "runs-on") != 0)
                                                continue;
                                        s = expr_self_hosted(job, x, v);
                                        if (s < 0)
                                                s = input_self_hosted(json_object_get(calls, md_path(md)), x);
                                }
                        }
                        if (s == 0)
                                continue;
                        if (json_is_string(v)) {
                                snprintf(text, sizeof(text), "runs-on: %.190s", json_string_value(v));
                        } else {
                                char *d = json_dumps(v, JSON_COMPACT);
                                snprintf(text, sizeof(text), "runs-on: %.190s", d != NULL ? d : "");
                                free(d);
                        }
                        if (s < 0) {
                                snprintf(detail, sizeof(detail), "runner of job '%.64s' (reachable from %s) is "
                                         "not static or is a runner group", str_or(job, "id"), ev);
                                ok = prc_act_unresolved(cx, md_path(md), prc_gha_line(ro), detail, err);
                                if (!ok)
                                        break;
                                continue;
                        }
                        snprintf(detail, sizeof(detail), "self-hosted runner for job '%.64s', reachable from %s",
                                 str_or(job, "id"), ev);
                        ok = prc_act_found(cx, md_path(md), prc_gha_line(ro), text, detail, err);
                        if (!ok)
                                break;
                }
        }
        json_decref(callers);
        json_decref(calls);
        return ok;
}

/* --- gha-dangerous-trigger --- */

static const char *const pwn_events[] = { "pull_request_target", "workflow_run", "issue_comment", NULL };

/* Actions that run code of the checked-out tree (owner/repo, then the path under it or NULL for any). */
static const char *const exec_actions[][2] = {
        { "pre-commit/action", NULL }, { "oxsecurity/megalinter", NULL }, { "docker/build-push-action", NULL },
        { "goreleaser/goreleaser-action", NULL }, { "cypress-io/github-action", NULL },
        { "bahmutov/npm-install", NULL }, { "borales/actions-yarn", NULL }, { "gradle/gradle-build-action", NULL },
        { "github/codeql-action", "autobuild" }, { "pnpm/action-setup", NULL },
};

static const char *const interpreters[] = {
        "sh", "bash", "zsh", "dash", "source", ".", "python", "python3", "node", "perl", "ruby", "pwsh", "php",
        "deno", "bun", NULL,
};

static const char *const builders[] = {
        "npm", "npx", "yarn", "pnpm", "make", "cmake", "pip", "pip3", "cargo", "go", "mvn", "gradle", "bundle",
        "rake", "tox", "nox", "poetry", "uv", "composer", "dotnet", NULL,
};


/* Is the step's with.<name> true (a YAML boolean or the string "true")? */
static bool with_true(const json_t *step, const char *name)
{
        const json_t *x;
        size_t i;

        json_array_foreach(json_object_get(step, "with"), i, x) {
                const char *n = str_of(x, "name"), *v = str_of(x, "value");
                if (n != NULL && strcmp(n, name) == 0)
                        return json_is_true(json_object_get(x, "value")) || (v != NULL && strcmp(v, "true") == 0);
        }
        return false;
}

/* What a job has done so far, in step order. */
struct pwn {
        prc_actx     *cx;
        const char   *path, *event;
        const struct scope *sc;
        const json_t *step, *job;
        uint32_t      co_line;          /* the pull request's code was checked out here (0: not yet) */
        char          co_path[256];     /* into this directory ("" the workspace) */
        char          co_text[PRC_ACT_TEXT_MAX + 1];
        bool          co_here;          /* ... by a command of the step being walked */
        uint32_t      unres_line;       /* a checkout of a ref computed at run time */
        bool          checkout;         /* any checkout of the repository so far */
        bool          art;              /* artifacts of the triggering run downloaded */
        char          art_path[256];    /* where ("" the workspace) */
        uint32_t      art_line;
        bool          done;             /* reported for this job */
};

static bool pwn_report(struct pwn *w, uint32_t line, const char *what, prc_err *err)
{
        char detail[600];

        w->done = true;
        snprintf(detail, sizeof(detail), "pull request code checked out in a workflow triggered by %s, then run: "
                 "%.400s (line %u)", w->event, what, (unsigned)line);
        return prc_act_found(w->cx, w->path, w->co_line, w->co_text, detail, err);
}

/* Is word (normalized) a path inside dir ("" the workspace, where any relative path is)? */
static bool under(const char *word, const char *dir)
{
        size_t n = strlen(dir);

        if (strncmp(word, "./", 2) == 0)
                word += 2;
        if (*dir == 0)
                return *word != 0 && *word != '/' && *word != '-' && *word != '$';
        return strncmp(word, dir, n) == 0 && (word[n] == '/' || word[n] == 0);
}

/* Does text name the directory dir as a path component ("pr", "./pr/x", "--cwd=pr"; not "prod")? */
static bool names_dir(const char *text, const char *dir)
{
        size_t n = strlen(dir);

        for (const char *q = strstr(text, dir); n > 0 && q != NULL; q = strstr(q + 1, dir)) {
                char before = q > text ? q[-1] : 0, after = q[n];
                if ((before == 0 || strchr("/=\"' :", before) != NULL) && (after == 0 || after == '/' || after == '"' ||
                                                                            after == '\'' || after == ' '))
                        return true;
        }
        return false;
}

/* Commands that read or move files but run nothing of the tree they are in. */
static const char *const inert[] = {
        "echo", "printf", "cat", "grep", "egrep", "fgrep", "rg", "git", "gh", "jq", "yq", "sed", "awk", "head",
        "tail", "wc", "sort", "uniq", "cut", "tr", "test", "[", "true", "false", ":", "ls", "find", "diff", "cmp",
        "mkdir", "rm", "cp", "mv", "touch", "tee", "set", "export", "unset", "exit", "return", "cd", "pushd", "popd",
        "read", "sleep", "date", "basename", "dirname", "realpath", "readlink", "stat", "file", "du", "df",
        "printenv", "which", "type", "shift", "local", "declare", "continue", "break", "curl", "wget", "zip",
        "unzip", "tar", "gzip", "gunzip", "sha256sum", "sha1sum", "md5sum", "chmod", "ln", "column", "base64",
        NULL,
};

struct runs {
        const char *dir;        /* the checkout directory ("" the workspace) */
        bool        mentions;   /* a word names dir */
        bool        runs;       /* a command outside the inert list */
        char        text[PRC_ACT_TEXT_MAX + 1]; /* the first such pipeline */
        uint32_t    line;
};

static bool runs_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct runs *r = ctx;

        (void)err;
        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                if (c->n > 0 && !prc_strv_has(inert, c->name) && !r->runs) {
                        r->runs = true;
                        r->line = p->line;
                        snprintf(r->text, sizeof(r->text), "%.200s", p->text);
                }
                for (size_t j = 0; r->dir[0] != 0 && j < c->n; j++)
                        if (names_dir(c->w[j].val, r->dir))
                                r->mentions = true;
        }
        return true;
}

/*
 * Does this step, after the pull request's code was checked out into dir,
 * run it: a run: script with a command outside the inert list that works
 * in dir (the workspace, a working-directory in dir, or a word naming dir);
 * a local action under dir; a known builder action; ruby/setup-ruby with
 * bundler-cache (bundle install evaluates the Gemfile).  A script that is
 * not POSIX shell (tokens null) counts as running.
 */
static bool step_runs_tree(const struct pwn *w, const json_t *step, prc_err *err, bool *out, char *what,
                           size_t wsz, uint32_t *wline)
{
        const json_t *u = json_object_get(step, "uses"), *run = json_object_get(step, "run");
        const char *kind = str_of(u, "kind"), *dir = w->co_path, *wd = str_of(step, "working_directory");
        struct runs r = { .dir = dir };
        size_t i;

        *out = false;
        snprintf(what, wsz, "%s", str_of(u, "raw") != NULL ? str_of(u, "raw") : "a script that is not POSIX shell");
        *wline = prc_gha_line(step);
        if (json_is_object(run)) {
                const json_t *cmds = json_object_get(json_object_get(run, "tokens"), "commands");
                if (!json_is_array(cmds)) {
                        *out = true;
                        return true;
                }
                if (!walk_script(step, runs_cb, &r, err))
                        return false;
                *out = r.runs && (dir[0] == 0 || r.mentions || (wd != NULL && under(wd, dir)));
                snprintf(what, wsz, "%s", r.text);
                *wline = r.line;
                return true;
        }
        if (kind == NULL)
                return true;
        if (strcmp(kind, "local") == 0) {
                *out = under(str_of(u, "path") != NULL ? str_of(u, "path") : "", dir);
                return true;
        }
        for (size_t k = 0; k < PRC_ARRAY_LEN(exec_actions); k++) {
                const char *sub = str_of(u, "path");
                if (prc_gha_step_uses(step, exec_actions[k][0]) &&
                    (exec_actions[k][1] == NULL || (sub != NULL && strstr(sub, exec_actions[k][1]) != NULL)))
                        *out = true;
        }
        /* bundle install evaluates the Gemfile, which is Ruby code. */
        if (prc_gha_step_uses(step, "ruby/setup-ruby") && with_true(step, "bundler-cache"))
                *out = true;
        if (*out && dir[0] != 0) {
                const json_t *x;
                bool named = false;
                json_array_foreach(json_object_get(step, "with"), i, x)
                        if (names_dir(str_or(x, "value"), dir))
                                named = true;
                *out = named;
        }
        return true;
}

/* Does a command of the run: script fetch the pull request's code (git with a PR ref, gh pr checkout)? */
static bool cmd_checks_out(const struct pwn *w, const prc_shc *c)
{
        char buf[700];

        if (c->n >= 3 && (strcmp(c->name, "gh") == 0 || strcmp(c->name, "hub") == 0) &&
            strcmp(c->w[1].val, "pr") == 0 && strcmp(c->w[2].val, "checkout") == 0)
                return true;
        if (c->n < 2 || strcmp(c->name, "git") != 0 ||
            !prc_strv_has((const char *const[]){ "fetch", "checkout", "switch", "pull", "merge", "reset",
                                                 "worktree", "clone", NULL }, c->w[1].val))
                return false;
        for (size_t i = 2; i < c->n; i++) {
                const char *r = c->w[i].raw;
                if (strstr(r, "refs/pull/") != NULL ||
                    (strstr(r, "pull/") != NULL && (strstr(r, "/head") != NULL || strstr(r, "/merge") != NULL)))
                        return true;
                if (text_carries(w->sc, w->step, r, true, W_PR_CODE, buf, sizeof(buf)) != NULL)
                        return true;
        }
        return false;
}

/* Does a command run what the artifact download brought? */
static bool cmd_runs_artifact(const struct pwn *w, const prc_shc *c)
{
        const char *wd = str_of(w->step, "working_directory");

        if (c->n == 0)
                return false;
        if (strchr(c->w[0].val, '/') != NULL && under(c->w[0].val, w->art_path) &&
            (w->art_path[0] != 0 || !w->checkout))
                return true;
        if (prc_strv_has(interpreters, c->name)) {
                for (size_t i = 1; i < c->n; i++) {
                        if (c->w[i].val[0] == '-')
                                continue;
                        return under(c->w[i].val, w->art_path) && (w->art_path[0] != 0 || !w->checkout);
                }
                return false;
        }
        if (prc_strv_has(builders, c->name))
                return w->art_path[0] == 0 ? !w->checkout : wd != NULL && under(wd, w->art_path);
        return false;
}

static bool pwn_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct pwn *w = ctx;

        for (size_t i = 0; i < p->n && !w->done; i++) {
                const prc_shc *c = &p->c[i];
                if (c->n == 0)
                        continue;
                if (w->co_here) {
                        if (prc_strv_has(inert, c->name))
                                continue;
                        return pwn_report(w, p->line, p->text, err);
                }
                if (w->co_line == 0 && cmd_checks_out(w, c)) {
                        w->co_line = p->line;
                        w->co_here = true;
                        w->co_path[0] = 0;
                        snprintf(w->co_text, sizeof(w->co_text), "%.200s", p->text);
                        w->checkout = true;
                        continue;
                }
                if (w->art && cmd_runs_artifact(w, c)) {
                        char detail[600];
                        w->done = true;
                        snprintf(detail, sizeof(detail), "runs what the artifact downloaded at line %u from the "
                                 "triggering run brought, in a workflow triggered by %s", (unsigned)w->art_line,
                                 w->event);
                        return prc_act_found(w->cx, w->path, p->line, p->text, detail, err);
                }
        }
        return true;
}

/*
 * Does this actions/checkout refuse a fork's head in pull_request_target and
 * workflow_run runs?  It does from v7 (and in the v5 and v6 lines once the
 * guard was backported, which their major tags follow) unless
 * allow-unsafe-pr-checkout is true.  A commit pin or an older tag may predate
 * the guard: not known, so not guarded.
 */
static bool checkout_guarded(const json_t *step)
{
        const char *ref = str_of(json_object_get(step, "uses"), "ref");
        unsigned long major;
        char *end;

        if (with_true(step, "allow-unsafe-pr-checkout") || ref == NULL || ref[0] != 'v' || ref[1] < '0' ||
            ref[1] > '9')
                return false;
        major = strtoul(ref + 1, &end, 10);
        return (*end == 0 && major >= 5) || (*end == '.' && major >= 7);
}

/* Where the pull request's code went: dir without "./" and a trailing '/' ("" the workspace). */
static void set_dir(struct pwn *w, const char *dir)
{
        size_t n;

        snprintf(w->co_path, sizeof(w->co_path), "%s", dir);
        n = strlen(w->co_path);
        if (n > 0 && w->co_path[n - 1] == '/')
                w->co_path[n - 1] = 0;
}

/* What a step that looks a pull request's head up writes: the CLI's, the REST API's and the payload's names. */
static const char *const head_lookup[] = {
        "headRefOid", "headRefName", "head.sha", "head.ref", "head_sha", "head_ref", "/pulls/", "pulls.get",
        "pr view", "refs/pull/", NULL,
};

static bool mentions_head(const char *s)
{
        for (size_t i = 0; s != NULL && head_lookup[i] != NULL; i++)
                if (strstr(s, head_lookup[i]) != NULL)
                        return true;
        return false;
}

/*
 * Does "ID.outputs.NAME" come from a step of the job that looks the pull
 * request's head up (gh pr view --json headRefOid, the pulls REST API, the
 * payload's head SHA)?  The step's script and its github-script code are
 * searched for those names; a step that does not is left to the caller
 * (unresolved).
 */
static bool output_names_pr_head(const json_t *job, const char *ref)
{
        const char *dot = strchr(ref, '.');
        const json_t *st;
        size_t i;

        if (dot == NULL)
                return false;
        json_array_foreach(json_object_get(job, "steps"), i, st) {
                const char *id = str_of(st, "id");
                const json_t *cmd, *x;
                size_t c;
                if (id == NULL || strlen(id) != (size_t)(dot - ref) || strncmp(id, ref, (size_t)(dot - ref)) != 0)
                        continue;
                if (mentions_head(prc_gha_with(st, "script", NULL)))
                        return true;
                json_array_foreach(json_object_get(st, "expressions"), c, x) {
                        const json_t *ctx;
                        size_t k;
                        json_array_foreach(json_object_get(x, "contexts"), k, ctx)
                                if (str_of(ctx, "path") != NULL && prc_gha_context_pr_code(str_of(ctx, "path")))
                                        return true;
                }
                json_array_foreach(json_object_get(json_object_get(json_object_get(st, "run"), "tokens"),
                                                   "commands"), c, cmd) {
                        const json_t *l;
                        size_t j;
                        json_array_foreach(json_object_get(cmd, "body"), j, l) {
                                char text[1024];
                                line_text(l, text, sizeof(text));
                                if (mentions_head(text))
                                        return true;
                        }
                }
                return false;
        }
        return false;
}

/* An actions/checkout of the pull request's code: the ref or repository reads its head, or names refs/pull/. */
static void checkout_step(struct pwn *w, const json_t *step)
{
        const json_t *x;
        size_t i;
        const char *dir = prc_gha_with(step, "path", NULL);

        if (dir == NULL || strcmp(dir, ".") == 0)
                dir = "";
        if (strncmp(dir, "./", 2) == 0)
                dir += 2;
        if (checkout_guarded(step))
                return;

        w->checkout = true;
        json_array_foreach(json_object_get(step, "with"), i, x) {
                const char *n = str_of(x, "name"), *v = str_of(x, "value");
                if (n == NULL || v == NULL || (strcmp(n, "ref") != 0 && strcmp(n, "repository") != 0))
                        continue;
                if (strstr(v, "refs/pull/") != NULL) {
                        w->co_line = prc_gha_line(x);
                        snprintf(w->co_text, sizeof(w->co_text), "%s: %.180s", n, v);
                        set_dir(w, dir);
                        return;
                }
        }
        json_array_foreach(json_object_get(step, "expressions"), i, x) {
                const char *f = str_of(x, "field");
                const json_t *c;
                size_t k;
                if (f == NULL || (strcmp(f, "with.ref") != 0 && strcmp(f, "with.repository") != 0))
                        continue;
                if (expr_carries(w->sc, 0, x, W_PR_CODE, 0) != NULL) {
                        w->co_line = prc_gha_line(x);
                        snprintf(w->co_text, sizeof(w->co_text), "%s: ${{ %.180s }}", f + 5, str_or(x, "text"));
                        set_dir(w, dir);
                        return;
                }
                json_array_foreach(json_object_get(x, "contexts"), k, c) {
                        const char *p = str_of(c, "path");
                        if (p == NULL || !json_is_true(json_object_get(c, "flows")))
                                continue;
                        if (strncmp(p, "steps.", 6) == 0 && output_names_pr_head(w->job, p + 6)) {
                                w->co_line = prc_gha_line(x);
                                snprintf(w->co_text, sizeof(w->co_text), "%s: ${{ %.180s }}", f + 5,
                                         str_or(x, "text"));
                                set_dir(w, dir);
                                return;
                        }
                        if (strncmp(p, "steps.", 6) == 0 || strncmp(p, "needs.", 6) == 0)
                                w->unres_line = prc_gha_line(x);
                }
        }
}

/* A download of the triggering run's artifacts (a run-id names another run; dawidd6's action always does). */
static bool is_artifact_download(const json_t *step)
{
        if (prc_gha_step_uses(step, "actions/download-artifact"))
                return prc_gha_with(step, "run-id", NULL) != NULL;
        return prc_gha_step_uses(step, "dawidd6/action-download-artifact");
}

static bool pwn_job(prc_actx *cx, const char *path, const char *event, struct scope *sc, const json_t *md,
                    const json_t *job, prc_err *err)
{
        struct pwn w;
        const json_t *st;
        size_t k;

        memset(&w, 0, sizeof(w));
        w.cx = cx;
        w.path = path;
        w.event = event;
        w.sc = sc;
        w.job = job;
        json_array_foreach(prc_gha_steps(md, job), k, st) {
                const json_t *run = json_object_get(st, "run");
                bool shaped;
                sc->lv[0] = st;
                w.step = st;
                w.co_here = false;
                if (!run_tokens_ok(cx, path, st, &shaped, err))
                        return false;
                if (!shaped)
                        continue;
                if (w.co_line != 0 || w.unres_line != 0) {
                        bool runs;
                        char what[PRC_ACT_TEXT_MAX + 1];
                        uint32_t wl;
                        if (!step_runs_tree(&w, st, err, &runs, what, sizeof(what), &wl))
                                return false;
                        if (runs && w.co_line != 0)
                                return pwn_report(&w, wl, what, err);
                        if (runs)
                                return prc_act_unresolved(cx, path, w.unres_line, "checkout ref computed at run "
                                                          "time (steps or needs outputs), then code is run", err);
                }
                if (prc_gha_step_uses(st, "actions/checkout")) {
                        checkout_step(&w, st);
                        continue;
                }
                if (strcmp(event, "workflow_run") == 0 && is_artifact_download(st)) {
                        const char *p = prc_gha_with(st, "path", NULL);
                        w.art = true;
                        w.art_line = prc_gha_line(st);
                        if (p == NULL || strcmp(p, ".") == 0 || strcmp(p, "./") == 0)
                                p = "";
                        if (strncmp(p, "./", 2) == 0)
                                p += 2;
                        snprintf(w.art_path, sizeof(w.art_path), "%s", p);
                        if (w.art_path[0] != 0 && w.art_path[strlen(w.art_path) - 1] == '/')
                                w.art_path[strlen(w.art_path) - 1] = 0;
                        continue;
                }
                if (json_is_object(run) && !walk_script(st, pwn_cb, &w, err))
                        return false;
                if (w.done)
                        return true;
        }
        return true;
}

bool prc_gha_dangerous_trigger(prc_actx *cx, prc_err *err)
{
        const json_t *md;
        json_t *callers = caller_events(cx);
        bool ok = true;

        if (callers == NULL)
                return prc_err_oom(err, "gha-dangerous-trigger");
        for (size_t i = 0; ok && (md = prc_act_mdoc(cx, PRC_AK_WORKFLOW, &i)) != NULL; i++) {
                const json_t *job;
                size_t j;
                struct scope sc = { .lv = { NULL, NULL, prc_gha_details(md) } };
                const char *ev = prc_gha_is_workflow(md) ? wf_event(callers, md, pwn_events) : NULL;

                if (ev == NULL)
                        continue;
                json_array_foreach(prc_gha_jobs(md), j, job) {
                        sc.lv[1] = job;
                        if (!pwn_job(cx, md_path(md), ev, &sc, md, job, err)) {
                                ok = false;
                                break;
                        }
                }
        }
        json_decref(callers);
        return ok;
}
