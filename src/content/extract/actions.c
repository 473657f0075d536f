/*
 * actions.c - GitHub Actions workflows (.github/workflows/NAME.yml or .yaml) and
 * action metadata (action.yml|yaml): triggers, permissions, jobs, steps,
 * uses references, run scripts tokenized by the worker's shell
 * tokenizer, and every ${{ }} expression parsed into the contexts it reads,
 * all with lines.  Each remote action, reusable workflow and image a file
 * uses is a dependency.  The details shape: docs/extraction/actions-docker.md.
 * Trust: hostile bytes inside the content worker; everything is bounded by
 * the YAML loader's limits, PRC_MD_* and the shell tokenizer's budget.
 */
#include "content/extract/extract.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/yaml.h"
#include "content/extract/gha.h"
#include "content/parsers/shell.h"

typedef struct gx {
        const prc_xin      *in;
        json_t             *md;         /* borrowed: the ManifestDoc being built */
        const prc_yaml_pos *pos;        /* borrowed */
        prc_err            *err;
        size_t              tok_used;   /* token bytes kept so far (prc_x_tokens_budget) */
        uint32_t            near_line;  /* the line of the job (or runs:) being read: see run_obj */
} gx;

/* ---- small helpers ------------------------------------------------------- */

static uint32_t node_line(const gx *g, uint32_t id)
{
        prc_yaml_at a;

        return prc_yaml_pos_get(g->pos, id, &a) ? a.line : 0;
}

/* The line of a mapping member: its key's line (the value may start lines later). */
static uint32_t member_line(const gx *g, uint32_t parent, const char *key)
{
        prc_yaml_at a;

        if (!prc_yaml_pos_get(g->pos, prc_yaml_pos_key(g->pos, parent, key), &a))
                return node_line(g, parent);
        return a.key_line ? a.key_line : a.line;
}

static bool oomj(gx *g, json_t *v, const char *what)
{
        if (v != NULL)
                return true;
        return prc_err_oom(g->err, what);
}

static bool setn(gx *g, json_t *o, const char *k, json_t *v)
{
        if (v == NULL || json_object_set_new(o, k, v) != 0)
                return prc_err_oom(g->err, "a workflow detail");
        return true;
}

static bool at_line(prc_err *err, uint32_t line)
{
        prc_err_set_line(err, line, 0);
        return false;
}

/* An extract-shape refusal at line (a macro, so that the format is checked). */
#define shape(g, line, fmt, what) (prc_err_set((g)->err, PRC_E_EXTRACT_SHAPE, fmt, what), at_line((g)->err, line))

/* A scalar as a short checked string member (strings as written; numbers, booleans by their text). */
static bool set_scalar(gx *g, json_t *o, const char *k, const json_t *v, uint32_t line, const char *what)
{
        char num[48];

        if (v == NULL || json_is_null(v))
                return setn(g, o, k, json_null());
        if (json_is_string(v))
                return prc_md_set_str(o, k, json_string_value(v), g->err);
        if (json_is_integer(v)) {
                snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
                return prc_md_set_str(o, k, num, g->err);
        }
        if (json_is_boolean(v))
                return prc_md_set_str(o, k, json_is_true(v) ? "true" : "false", g->err);
        return shape(g, line, "'%s' must be a string", what);
}

bool prc_x_is_sha40(const char *s)
{
        size_t i;

        for (i = 0; s[i] != '\0'; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
                        return false;
        return i == 40;
}

/* ---- expressions ------------------------------------------------------- */

/* The file line of byte off of a scalar that starts as at says. */
static uint32_t scalar_line(const prc_yaml_at *at, const char *s, size_t off)
{
        uint32_t nl = 0;

        if (at->line == 0)
                return 0;
        if (at->style != PRC_YAML_STYLE_LITERAL)
                return at->line;        /* folded and flow scalars fold their lines: the first one */
        for (size_t i = 0; i < off; i++)
                nl += s[i] == '\n';
        return at->line + nl;
}

/* Add one expression entry (text s[0..n)) to list. */
static bool add_expr(gx *g, json_t *list, const char *field, const char *s, size_t n, uint32_t line)
{
        json_t *e, *refs = json_array(), *funcs = json_array();
        char why[160], *text = NULL;
        bool ok;

        if (refs == NULL || funcs == NULL) {
                json_decref(refs);
                json_decref(funcs);
                return prc_err_oom(g->err, "an expression");
        }
        if (json_array_size(list) >= PRC_MD_LIST_MAX) {
                json_decref(refs);
                json_decref(funcs);
                prc_err_set(g->err, PRC_E_EXTRACT_LIMIT, "more than %u expressions in one place", PRC_MD_LIST_MAX);
                prc_err_set_line(g->err, line, 0);
                return false;
        }
        if (n > PRC_GHA_EXPR_MAX) {
                json_decref(refs);
                json_decref(funcs);
                prc_err_set(g->err, PRC_E_EXTRACT_LIMIT, "expression of %zu bytes, limit %u", n, PRC_GHA_EXPR_MAX);
                prc_err_set_line(g->err, line, 0);
                return false;
        }
        ok = prc_gha_expr_parse(s, n, refs, funcs, why, sizeof(why), g->err);
        if (prc_err_is_set(g->err)) {
                json_decref(refs);
                json_decref(funcs);
                return false;
        }
        text = strndup(s, n);
        e = json_object();
        if (text == NULL || e == NULL || json_array_append_new(list, e) != 0) {
                free(text);
                json_decref(refs);
                json_decref(funcs);
                return prc_err_oom(g->err, "an expression");
        }
        if (!prc_md_set_str(e, "field", field, g->err) || !prc_md_set_str(e, "text", text, g->err) ||
            !setn(g, e, "line", line ? json_integer(line) : json_null())) {
                free(text);
                json_decref(refs);
                json_decref(funcs);
                return false;
        }
        free(text);
        if (!ok) {
                json_decref(refs);
                json_decref(funcs);
                return setn(g, e, "contexts", json_null()) && setn(g, e, "functions", json_null()) &&
                       prc_md_set_str(e, "error", why, g->err) &&
                       prc_md_not_extracted(g->md, field, "an expression that does not parse", line, g->err);
        }
        return setn(g, e, "contexts", refs) && setn(g, e, "functions", funcs) && setn(g, e, "error", json_null());
}

/*
 * Every "${{ ... }}" in s.  The closing "}}" is the first one outside a
 * string literal, as GitHub reads it; an unterminated one is recorded as
 * an expression that does not parse.
 */
static bool scan_string(gx *g, json_t *list, const char *field, const char *s, const prc_yaml_at *at)
{
        size_t n = strlen(s);

        for (size_t i = 0; i + 2 < n; i++) {
                size_t j, start;
                bool quoted = false, closed = false;
                if (s[i] != '$' || s[i + 1] != '{' || s[i + 2] != '{')
                        continue;
                start = i + 3;
                for (j = start; j < n; j++) {
                        if (s[j] == '\'')
                                quoted = !quoted;
                        else if (!quoted && s[j] == '}' && j + 1 < n && s[j + 1] == '}') {
                                closed = true;
                                break;
                        }
                }
                if (!closed) {
                        /* Recorded with empty text (the rest of the value is no expression) and its error. */
                        if (!add_expr(g, list, field, "", 0, scalar_line(at, s, i)))
                                return false;
                        return prc_md_set_str(json_array_get(list, json_array_size(list) - 1), "error",
                                              "'${{' without a closing '}}'", g->err);
                }
                {
                        /* The text is the expression without the blanks around it. */
                        size_t a = start, b = j;
                        while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n' || s[a] == '\r'))
                                a++;
                        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\n' || s[b - 1] == '\r'))
                                b--;
                        if (!add_expr(g, list, field, s + a, b - a, scalar_line(at, s, i)))
                                return false;
                }
                i = j + 1;
        }
        return true;
}

/* Field names: "with.script", "env.FOO", "strategy.matrix.os[2]" (bounded; a cut name is still a name). */
static void field_child(char *out, size_t cap, const char *parent, const char *key, long idx)
{
        if (idx >= 0)
                snprintf(out, cap, "%s[%ld]", parent, idx);
        else if (parent[0] == '\0')
                snprintf(out, cap, "%s", key != NULL ? key : "");
        else
                snprintf(out, cap, "%s.%s", parent, key != NULL ? key : "");
}

/* Can v hold an expression?  Most leaves cannot: skip them before naming them or finding their node. */
static bool may_hold_expr(const json_t *v)
{
        return json_is_object(v) || json_is_array(v) || (json_is_string(v) && strstr(json_string_value(v), "${{"));
}

/* Every expression in the tree v (node id) except under the members skip lists (at the top only). */
static bool scan_tree(gx *g, json_t *list, const char *field, const json_t *v, uint32_t id,
                      const char *const *skip, unsigned depth)
{
        char child[256];
        prc_yaml_at at;

        /* The loader refused anything deeper; this only keeps the recursion bounded if that ever changes. */
        if (depth > g->in->lim->depth_max) {
                prc_err_set(g->err, PRC_E_DEPTH_LIMIT, "'%s' nests deeper than %u", field, g->in->lim->depth_max);
                return false;
        }
        if (json_is_string(v)) {
                if (!prc_yaml_pos_get(g->pos, id, &at))
                        memset(&at, 0, sizeof(at));
                return scan_string(g, list, field, json_string_value(v), &at);
        }
        if (json_is_object(v)) {
                const char *k;
                json_t *m;
                json_object_foreach((json_t *)v, k, m) {
                        bool skipped = false;
                        for (size_t j = 0; skip != NULL && skip[j] != NULL; j++)
                                skipped |= strcmp(skip[j], k) == 0;
                        if (skipped || !may_hold_expr(m))
                                continue;
                        field_child(child, sizeof(child), field, k, -1);
                        if (!scan_tree(g, list, child, m, prc_yaml_pos_key(g->pos, id, k), NULL, depth + 1))
                                return false;
                }
        } else if (json_is_array(v)) {
                size_t i;
                json_t *m;
                json_array_foreach(v, i, m) {
                        if (!may_hold_expr(m))
                                continue;
                        field_child(child, sizeof(child), field, NULL, (long)i);
                        if (!scan_tree(g, list, child, m, prc_yaml_pos_index(g->pos, id, i), NULL, depth + 1))
                                return false;
                }
        }
        return true;
}

/* An `if:` is an expression even without "${{ }}". */
static bool scan_if(gx *g, json_t *list, const json_t *v, uint32_t id)
{
        const char *s;
        prc_yaml_at at;

        if (!json_is_string(v))
                return true;
        s = json_string_value(v);
        if (!prc_yaml_pos_get(g->pos, id, &at))
                memset(&at, 0, sizeof(at));
        if (strstr(s, "${{") != NULL)
                return scan_string(g, list, "if", s, &at);
        return add_expr(g, list, "if", s, strlen(s), at.line);
}

/* ---- `uses` ------------------------------------------------------------ */

static bool add_action_dep(gx *g, const char *name, const char *owner, const char *repo, const char *path,
                           const char *ref, const char *group, uint32_t line)
{
        char *purl = NULL, *url = NULL, *pname = NULL, *ns = NULL;
        size_t rl = strlen(repo), pl = path != NULL ? strlen(path) : 0;
        json_t *d = prc_md_add_dep(g->md, name, "build", true, line, g->err);
        bool ok = false, sha = prc_x_is_sha40(ref);

        if (d == NULL)
                return false;
        /* purl-spec githubactions: namespace and repository lower-cased, the path kept (encoded with the name). */
        ns = strdup(owner);
        pname = malloc(rl + pl + 2);
        url = malloc(strlen(owner) + rl + 21);
        if (ns == NULL || pname == NULL || url == NULL) {
                prc_err_oom(g->err, "an action dependency");
                goto out;
        }
        for (char *c = ns; *c; c++)
                *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        for (size_t i = 0; i < rl; i++)
                pname[i] = (char)(repo[i] >= 'A' && repo[i] <= 'Z' ? repo[i] + 32 : repo[i]);
        pname[rl] = '\0';
        if (pl > 0) {
                pname[rl] = '/';
                memcpy(pname + rl + 1, path, pl + 1);
        }
        snprintf(url, strlen(owner) + rl + 21, "https://github.com/%s/%s", owner, repo);
        purl = prc_purl("githubactions", ns, pname, ref, NULL, NULL);
        if (purl == NULL) {
                prc_err_oom(g->err, "a purl");
                goto out;
        }
        ok = prc_md_set_str(d, "requirement", ref, g->err) && prc_md_set_str(d, "resolved", sha ? ref : NULL, g->err) &&
             prc_md_set_source(d, "git", url, ref, sha ? ref : NULL, g->err) &&
             prc_md_set_str(d, "purl", purl, g->err) && prc_md_set_str(d, "group", group, g->err);
out:
        free(purl);
        free(url);
        free(pname);
        free(ns);
        return ok;
}

/*
 * The `uses` object: {"raw", "kind", "owner", "repo", "path", "ref",
 * "ref_is_sha", "image", "error", "line"}; kind is action, workflow
 * (a reusable workflow, job level), docker or local.
 */
static json_t *parse_uses(gx *g, const json_t *v, uint32_t id, bool job_level, const char *group)
{
        const char *raw, *at_sign, *rest;
        char *name = NULL, *owner = NULL, *repo = NULL, *path = NULL;
        const char *kind = job_level ? "workflow" : "action", *error = NULL;
        uint32_t line = node_line(g, id);
        json_t *u = NULL, *img = NULL;

        if (!json_is_string(v)) {
                shape(g, line, "'%s' must be a string", "uses");
                return NULL;
        }
        raw = json_string_value(v);
        u = json_object();
        if (!oomj(g, u, "a uses reference"))
                return NULL;
        if (!prc_md_set_str(u, "raw", raw, g->err) || !setn(g, u, "line", line ? json_integer(line) : json_null()))
                goto bad;
        if (strncmp(raw, "docker://", 9) == 0) {
                kind = "docker";
                img = prc_x_image_ref(raw + 9, g->err);
                if (img == NULL)
                        goto bad;
                if (!json_is_true(PRC_JGET(img, "valid")))
                        error = "not a valid image reference";
                else if (!prc_x_image_dep(g->md, img, "build", group, line, g->err))
                        goto bad;
        } else if (strncmp(raw, "./", 2) == 0 || strncmp(raw, "../", 3) == 0) {
                kind = "local";
                path = strdup(raw);
                if (path == NULL)
                        goto oom;
        } else {
                at_sign = strrchr(raw, '@');
                if (at_sign == NULL || at_sign[1] == '\0') {
                        error = "no '@ref'";
                        at_sign = raw + strlen(raw);
                }
                name = strndup(raw, (size_t)(at_sign - raw));
                if (name == NULL)
                        goto oom;
                rest = strchr(name, '/');
                if (rest == NULL || rest == name || rest[1] == '\0' || rest[1] == '/') {
                        error = error ? error : "not 'owner/repo[/path]@ref'";
                } else {
                        const char *p2 = strchr(rest + 1, '/');
                        owner = strndup(name, (size_t)(rest - name));
                        repo = p2 ? strndup(rest + 1, (size_t)(p2 - rest - 1)) : strdup(rest + 1);
                        path = p2 && p2[1] ? strdup(p2 + 1) : NULL;
                        if (owner == NULL || repo == NULL || (p2 && p2[1] && path == NULL))
                                goto oom;
                        if (!job_level && path != NULL && strstr(path, ".github/workflows/") == path)
                                kind = "workflow";
                }
                if (error == NULL &&
                    !add_action_dep(g, name, owner, repo, path, at_sign + 1, group, line))
                        goto bad;
                if (!prc_md_set_str(u, "ref", *at_sign ? at_sign + 1 : NULL, g->err))
                        goto bad;
        }
        if (!prc_md_set_str(u, "kind", kind, g->err) || !prc_md_set_str(u, "owner", owner, g->err) ||
            !prc_md_set_str(u, "repo", repo, g->err) || !prc_md_set_str(u, "path", path, g->err) ||
            !prc_md_set_str(u, "error", error, g->err))
                goto bad;
        if (PRC_JGET(u, "ref") == NULL && !setn(g, u, "ref", json_null()))
                goto bad;
        if (!setn(g, u, "ref_is_sha",
                  json_boolean(json_is_string(PRC_JGET(u, "ref")) &&
                               prc_x_is_sha40(json_string_value(PRC_JGET(u, "ref"))))))
                goto bad;
        if (!setn(g, u, "image", img != NULL ? img : json_null()))
                goto bad_noimg;
        if (error != NULL && !prc_md_not_extracted(g->md, raw, error, line, g->err))
                goto bad_noimg;
        free(name);
        free(owner);
        free(repo);
        free(path);
        return u;
oom:
        prc_err_oom(g->err, "a uses reference");
bad:
        json_decref(img);
bad_noimg:
        json_decref(u);
        free(name);
        free(owner);
        free(repo);
        free(path);
        return NULL;
}

/* ---- maps as lists ------------------------------------------------------- */

/*
 * A mapping of names to scalars (env, with, outputs, secrets) as
 * [{"name", "value", "line"}]: values as written (a JSON scalar, or a
 * collection where the file has one).  A string in place of the mapping
 * (an expression such as ${{ fromJSON(...) }}) is one entry named null.
 */
static json_t *name_values(gx *g, const json_t *v, uint32_t id, const char *what)
{
        json_t *out = json_array();
        const char *k;
        json_t *m;

        if (!oomj(g, out, what))
                return NULL;
        if (v == NULL || json_is_null(v))
                return out;
        if (json_is_string(v)) {
                json_t *e = json_pack("{s:n, s:O, s:o}", "name", "value", v, "line",
                                      node_line(g, id) ? json_integer(node_line(g, id)) : json_null());
                if (e == NULL || json_array_append_new(out, e) != 0) {
                        json_decref(out);
                        prc_err_oom(g->err, what);
                        return NULL;
                }
                return out;
        }
        if (!json_is_object(v)) {
                json_decref(out);
                shape(g, node_line(g, id), "'%s' must be a mapping", what);
                return NULL;
        }
        json_object_foreach((json_t *)v, k, m) {
                uint32_t line = member_line(g, id, k);
                json_t *e = json_object();
                if (e == NULL || json_array_append_new(out, e) != 0) {
                        json_decref(out);
                        prc_err_oom(g->err, what);
                        return NULL;
                }
                if (!prc_md_set_str(e, "name", k, g->err) || !setn(g, e, "value", json_incref(m)) ||
                    !setn(g, e, "line", line ? json_integer(line) : json_null())) {
                        json_decref(out);
                        return NULL;
                }
        }
        return out;
}

/* A value as written with its line ({"value", "line"}), or null when absent. */
static json_t *as_written(gx *g, const json_t *parent, uint32_t pid, const char *key)
{
        const json_t *v = json_object_get(parent, key);
        uint32_t line;

        if (v == NULL)
                return json_null();
        line = member_line(g, pid, key);
        return json_pack("{s:O, s:o}", "value", v, "line", line ? json_integer(line) : json_null());
}

/* Append v to out as set_scalar renders it (through a scratch object: set_scalar writes members). */
static bool append_scalar(gx *g, json_t *out, const json_t *v, uint32_t line, const char *what)
{
        json_t *one = json_object();
        bool ok = one != NULL && set_scalar(g, one, "x", v, line, what) &&
                  json_array_append(out, PRC_JGET(one, "x")) == 0;

        json_decref(one);
        return ok;
}

static json_t *str_list(gx *g, const json_t *v, uint32_t line, const char *what)
{
        json_t *out;
        size_t i;
        json_t *m;

        if (v == NULL || json_is_null(v))
                return json_null();
        out = json_array();
        if (out == NULL)
                return NULL;
        if (json_is_string(v) || json_is_integer(v) || json_is_boolean(v)) {
                if (!append_scalar(g, out, v, line, what)) {
                        json_decref(out);
                        return NULL;
                }
                return out;
        }
        if (!json_is_array(v)) {
                json_decref(out);
                shape(g, line, "'%s' must be a string or a list", what);
                return NULL;
        }
        json_array_foreach(v, i, m) {
                if (!append_scalar(g, out, m, line, what)) {
                        json_decref(out);
                        return NULL;
                }
        }
        return out;
}

/* ---- run scripts ---------------------------------------------------------- */

/* Shift every "line" in the tokenizer's document from script lines to file lines. */
static void shift_lines(json_t *v, const prc_yaml_at *at, unsigned depth)
{
        const char *k;
        json_t *m;
        size_t i;

        if (depth > 16)
                return;
        if (json_is_object(v)) {
                json_object_foreach(v, k, m) {
                        if (strcmp(k, "line") == 0 && json_is_integer(m)) {
                                json_int_t l = json_integer_value(m);
                                json_integer_set(m, at->style == PRC_YAML_STYLE_LITERAL ? at->line + l - 1
                                                                                        : at->line);
                        } else {
                                shift_lines(m, at, depth + 1);
                        }
                }
        } else if (json_is_array(v)) {
                json_array_foreach(v, i, m)
                        shift_lines(m, at, depth + 1);
        }
}

/* Is the shell (as `shell:` names it, or the runner default) one the POSIX tokenizer reads? */
static bool posix_shell(const char *shell)
{
        static const char *const names[] = { "bash", "sh", NULL };

        for (size_t i = 0; names[i] != NULL; i++) {
                size_t k = strlen(names[i]);
                if (strncmp(shell, names[i], k) == 0 && (shell[k] == '\0' || shell[k] == ' '))
                        return true;
        }
        return false;
}

/*
 * The run object {"line", "shell", "tokens"}: line is the script's first
 * line in the file, shell the effective shell when known (the step's, else
 * the defaults', else null: the runner's default), tokens the tokenizer's
 * {"assignments", "functions", "commands"} with file lines, or null when
 * the shell is not POSIX or the script does not tokenize (then a
 * not_extracted entry says why).
 */
static json_t *run_obj(gx *g, const json_t *v, uint32_t id, const char *shell, bool windows, const char *where)
{
        prc_yaml_at at;
        json_t *r, *doc = NULL;
        const char *s;
        char why[320];
        prc_err te;

        if (!json_is_string(v)) {
                shape(g, node_line(g, id), "'%s' must be a string", "run");
                return NULL;
        }
        s = json_string_value(v);
        if (!prc_yaml_pos_get(g->pos, id, &at))
                memset(&at, 0, sizeof(at));
        r = json_object();
        if (!oomj(g, r, "a run script"))
                return NULL;
        if (!setn(g, r, "line", at.line ? json_integer(at.line) : json_null()) ||
            !prc_md_set_str(r, "shell", shell, g->err)) {
                json_decref(r);
                return NULL;
        }
        if ((shell != NULL && !posix_shell(shell)) || (shell == NULL && windows)) {
                snprintf(why, sizeof(why), "the shell '%s' is not a POSIX shell; the script is not tokenized",
                         shell != NULL ? shell : "pwsh (Windows runner default)");
                if (!prc_md_not_extracted(g->md, where, why, at.line, g->err) || !setn(g, r, "tokens", json_null())) {
                        json_decref(r);
                        return NULL;
                }
                return r;
        }
        prc_err_init(&te);
        doc = prc_shell_tokenize((const uint8_t *)s, strlen(s), g->in->lim, PRC_SHELL_PKGBUILD, &te);
        if (doc == NULL) {
                if (te.cls == PRC_E_OUT_OF_MEMORY) {
                        json_decref(r);
                        *g->err = te;
                        return NULL;
                }
                snprintf(why, sizeof(why), "the script does not tokenize as shell (%s at script line %u: %s)",
                         prc_err_name(te.cls), te.line, te.msg);
                if (!prc_md_not_extracted(g->md, where, why, at.line, g->err) || !setn(g, r, "tokens", json_null())) {
                        json_decref(r);
                        return NULL;
                }
                return r;
        }
        json_object_del(doc, "format");
        if (!prc_x_tokens_budget(&g->tok_used, doc, g->in->n, g->err)) {
                json_decref(doc);
                json_decref(r);
                prc_err_set_line(g->err, at.line, 0);
                return NULL;
        }
        if (at.line == 0) {
                /*
                 * A script that came through a `<<` merge has no position of its own (the loader keeps
                 * the alias's), but token lines are file lines: every one takes the enclosing job's.
                 */
                at.line = g->near_line ? g->near_line : 1;
                at.style = PRC_YAML_STYLE_PLAIN;
        }
        shift_lines(doc, &at, 0);
        if (!setn(g, r, "tokens", doc)) {
                json_decref(r);
                return NULL;
        }
        return r;
}

/* ---- steps and jobs ------------------------------------------------------- */

static const char *defaults_shell(const json_t *defaults)
{
        const json_t *s = PRC_JGET(PRC_JGET(defaults, "run"), "shell");

        return json_is_string(s) ? json_string_value(s) : NULL;
}

static json_t *step_obj(gx *g, const json_t *st, uint32_t id, size_t idx, const char *group, const char *dshell,
                        bool windows, const char *where)
{
        static const char *const skip[] = { "if", NULL };
        json_t *o, *exprs;
        const json_t *v;
        char here[256];
        uint32_t line = node_line(g, id);

        if (!json_is_object(st)) {
                shape(g, line, "%s: a step must be a mapping", where);
                return NULL;
        }
        snprintf(here, sizeof(here), "%s.steps[%zu]", where, idx);
        o = json_object();
        exprs = json_array();
        if (o == NULL || exprs == NULL) {
                json_decref(o);
                json_decref(exprs);
                prc_err_oom(g->err, "a step");
                return NULL;
        }
        if (!setn(g, o, "index", json_integer((json_int_t)idx)) ||
            !setn(g, o, "line", line ? json_integer(line) : json_null()) ||
            !set_scalar(g, o, "id", PRC_JGET(st, "id"), line, "id") ||
            !set_scalar(g, o, "name", PRC_JGET(st, "name"), line, "name") ||
            !setn(g, o, "if", as_written(g, st, id, "if")) ||
            !set_scalar(g, o, "shell", PRC_JGET(st, "shell"), line, "shell") ||
            !set_scalar(g, o, "working_directory", PRC_JGET(st, "working-directory"), line,
                        "working-directory") ||
            !setn(g, o, "continue_on_error", as_written(g, st, id, "continue-on-error")) ||
            !setn(g, o, "timeout_minutes", as_written(g, st, id, "timeout-minutes")))
                goto bad;
        v = PRC_JGET(st, "uses");
        if (v != NULL) {
                json_t *u = parse_uses(g, v, prc_yaml_pos_key(g->pos, id, "uses"), false, group);
                if (u == NULL || !setn(g, o, "uses", u))
                        goto bad;
        } else if (!setn(g, o, "uses", json_null())) {
                goto bad;
        }
        if (!setn(g, o, "with", name_values(g, PRC_JGET(st, "with"), prc_yaml_pos_key(g->pos, id, "with"), "with")) ||
            !setn(g, o, "env", name_values(g, PRC_JGET(st, "env"), prc_yaml_pos_key(g->pos, id, "env"), "env")))
                goto bad;
        v = PRC_JGET(st, "run");
        if (v != NULL) {
                const char *sh = json_is_string(PRC_JGET(st, "shell")) ?
                                 json_string_value(PRC_JGET(st, "shell")) : dshell;
                char rw[300];
                json_t *r;
                snprintf(rw, sizeof(rw), "%s.run", here);
                r = run_obj(g, v, prc_yaml_pos_key(g->pos, id, "run"), sh, windows, rw);
                if (r == NULL || !setn(g, o, "run", r))
                        goto bad;
        } else if (!setn(g, o, "run", json_null())) {
                goto bad;
        }
        if (!scan_if(g, exprs, PRC_JGET(st, "if"), prc_yaml_pos_key(g->pos, id, "if")) ||
            !scan_tree(g, exprs, "", st, id, skip, 0))
                goto bad;
        if (!setn(g, o, "expressions", exprs))
                goto bad_noexpr;
        return o;
bad:
        json_decref(exprs);
bad_noexpr:
        json_decref(o);
        return NULL;
}

static json_t *steps_list(gx *g, const json_t *steps, uint32_t id, const char *group, const char *dshell,
                          bool windows, const char *where)
{
        json_t *out = json_array();
        size_t i;
        json_t *st;

        if (!oomj(g, out, "steps"))
                return NULL;
        if (steps == NULL)
                return out;
        if (!json_is_array(steps)) {
                json_decref(out);
                shape(g, node_line(g, id), "%s: 'steps' must be a list", where);
                return NULL;
        }
        json_array_foreach(steps, i, st) {
                json_t *o = step_obj(g, st, prc_yaml_pos_index(g->pos, id, i), i, group, dshell, windows, where);
                if (o == NULL || json_array_append_new(out, o) != 0) {
                        json_decref(out);
                        return o == NULL ? NULL : (prc_err_oom(g->err, "steps"), NULL);
                }
        }
        return out;
}

/* An image member (container, services.x): {"image": IMG|null, "raw", "line", "credentials"}. */
static json_t *image_member(gx *g, const json_t *v, uint32_t id, const char *group, const char *where)
{
        const json_t *img = json_is_object(v) ? PRC_JGET(v, "image") : v;
        uint32_t iid = json_is_object(v) ? prc_yaml_pos_key(g->pos, id, "image") : id;
        uint32_t line = node_line(g, iid);
        const json_t *cred = json_is_object(v) ? PRC_JGET(v, "credentials") : NULL;
        json_t *o = json_object(), *parsed = json_null();

        if (!oomj(g, o, "an image"))
                return NULL;
        if (img != NULL && !json_is_string(img)) {
                json_decref(o);
                shape(g, line, "'%s' image must be a string", where);
                return NULL;
        }
        if (img != NULL && strstr(json_string_value(img), "${{") != NULL) {
                if (!prc_md_not_extracted(g->md, where, "the image is an expression, known only at run time", line,
                                          g->err)) {
                        json_decref(o);
                        return NULL;
                }
        } else if (img != NULL && json_string_length(img) > 0) {
                json_decref(parsed);
                parsed = prc_x_image_ref(json_string_value(img), g->err);
                if (parsed == NULL) {
                        json_decref(o);
                        return NULL;
                }
                if (json_is_true(PRC_JGET(parsed, "valid")) ?
                    !prc_x_image_dep(g->md, parsed, "build", group, line, g->err) :
                    !prc_md_not_extracted(g->md, where, "not a valid image reference", line, g->err)) {
                        json_decref(parsed);
                        json_decref(o);
                        return NULL;
                }
        }
        if (!setn(g, o, "image", parsed) || !set_scalar(g, o, "raw", img, line, "image") ||
            !setn(g, o, "line", line ? json_integer(line) : json_null()) ||
            !setn(g, o, "credentials", json_boolean(cred != NULL))) {
                json_decref(o);
                return NULL;
        }
        /* A literal password (not an expression) is a credential in the file: by key, never by value. */
        if (json_is_object(cred) && json_is_string(PRC_JGET(cred, "password")) &&
            strstr(json_string_value(PRC_JGET(cred, "password")), "${{") == NULL) {
                char key[300];
                snprintf(key, sizeof(key), "%s.credentials.password", where);
                if (!prc_md_add_credential(g->md, key, member_line(g, prc_yaml_pos_key(g->pos, id, "credentials"),
                                                                   "password"), g->err)) {
                        json_decref(o);
                        return NULL;
                }
        }
        return o;
}

static bool runs_on_windows(const json_t *ro)
{
        size_t i;
        json_t *m;

        if (json_is_string(ro))
                return strstr(json_string_value(ro), "windows") != NULL;
        if (json_is_array(ro))
                json_array_foreach(ro, i, m)
                        if (json_is_string(m) && strstr(json_string_value(m), "windows") != NULL)
                                return true;
        return false;
}

static bool add_perm(gx *g, json_t *o, const json_t *parent, uint32_t pid)
{
        const json_t *p = PRC_JGET(parent, "permissions");

        if (p != NULL && !json_is_string(p) && !json_is_object(p))
                return shape(g, member_line(g, pid, "permissions"), "'%s' must be a string or a mapping",
                             "permissions");
        return setn(g, o, "permissions", as_written(g, parent, pid, "permissions"));
}

static json_t *job_obj(gx *g, const char *jid, const json_t *j, uint32_t id, const char *wshell)
{
        static const char *const skip[] = { "steps", "if", NULL };
        json_t *o, *exprs = NULL, *svc;
        const json_t *v;
        char where[300];
        const char *dshell;
        uint32_t line = node_line(g, id);
        bool windows;

        snprintf(where, sizeof(where), "jobs.%s", jid);
        if (!json_is_object(j)) {
                shape(g, line, "job '%s' must be a mapping", jid);
                return NULL;
        }
        g->near_line = line ? line : member_line(g, prc_yaml_pos_root(g->pos), "jobs");
        o = json_object();
        if (!oomj(g, o, "a job"))
                return NULL;
        windows = runs_on_windows(PRC_JGET(j, "runs-on"));
        dshell = defaults_shell(PRC_JGET(j, "defaults"));
        if (dshell == NULL)
                dshell = wshell;
        if (!prc_md_set_str(o, "id", jid, g->err) || !setn(g, o, "line", line ? json_integer(line) : json_null()) ||
            !set_scalar(g, o, "name", PRC_JGET(j, "name"), line, "name") ||
            !setn(g, o, "runs_on", as_written(g, j, id, "runs-on")) ||
            !setn(g, o, "needs", str_list(g, PRC_JGET(j, "needs"), member_line(g, id, "needs"), "needs")) ||
            !setn(g, o, "if", as_written(g, j, id, "if")) ||
            !setn(g, o, "environment", as_written(g, j, id, "environment")) || !add_perm(g, o, j, id) ||
            !setn(g, o, "concurrency", as_written(g, j, id, "concurrency")) ||
            !setn(g, o, "cache_mode", as_written(g, j, id, "cache-mode")) ||
            !setn(g, o, "strategy", as_written(g, j, id, "strategy")) ||
            !setn(g, o, "defaults", as_written(g, j, id, "defaults")) ||
            !setn(g, o, "timeout_minutes", as_written(g, j, id, "timeout-minutes")) ||
            !setn(g, o, "continue_on_error", as_written(g, j, id, "continue-on-error")) ||
            !setn(g, o, "env", name_values(g, PRC_JGET(j, "env"), prc_yaml_pos_key(g->pos, id, "env"), "env")) ||
            !setn(g, o, "outputs", name_values(g, PRC_JGET(j, "outputs"),
                                               prc_yaml_pos_key(g->pos, id, "outputs"), "outputs")) ||
            !setn(g, o, "with", name_values(g, PRC_JGET(j, "with"), prc_yaml_pos_key(g->pos, id, "with"),
                                            "with")))
                goto bad;
        v = PRC_JGET(j, "secrets");
        if (json_is_string(v) && strcmp(json_string_value(v), "inherit") == 0) {
                if (!setn(g, o, "secrets", json_string("inherit")))
                        goto bad;
        } else if (v != NULL) {
                if (!setn(g, o, "secrets", name_values(g, v, prc_yaml_pos_key(g->pos, id, "secrets"), "secrets")))
                        goto bad;
        } else if (!setn(g, o, "secrets", json_null())) {
                goto bad;
        }
        if (!setn(g, o, "secrets_line", v != NULL ? json_integer(member_line(g, id, "secrets")) : json_null()))
                goto bad;
        v = PRC_JGET(j, "uses");
        if (v != NULL) {
                json_t *u = parse_uses(g, v, prc_yaml_pos_key(g->pos, id, "uses"), true, jid);
                if (u == NULL || !setn(g, o, "uses", u))
                        goto bad;
        } else if (!setn(g, o, "uses", json_null())) {
                goto bad;
        }
        v = PRC_JGET(j, "container");
        if (v != NULL) {
                char w2[320];
                json_t *c;
                snprintf(w2, sizeof(w2), "%s.container", where);
                c = image_member(g, v, prc_yaml_pos_key(g->pos, id, "container"), jid, w2);
                if (c == NULL || !setn(g, o, "container", c))
                        goto bad;
        } else if (!setn(g, o, "container", json_null())) {
                goto bad;
        }
        svc = json_array();
        if (!setn(g, o, "services", svc))
                goto bad;
        v = PRC_JGET(j, "services");
        if (v != NULL) {
                const char *sid;
                json_t *sv;
                uint32_t sidn = prc_yaml_pos_key(g->pos, id, "services");
                if (!json_is_object(v)) {
                        shape(g, member_line(g, id, "services"), "'%s' must be a mapping", "services");
                        goto bad;
                }
                json_object_foreach((json_t *)v, sid, sv) {
                        char w2[320];
                        json_t *c;
                        snprintf(w2, sizeof(w2), "%s.services.%s", where, sid);
                        c = image_member(g, sv, prc_yaml_pos_key(g->pos, sidn, sid), jid, w2);
                        if (c == NULL)
                                goto bad;
                        if (json_array_append_new(svc, c) != 0 || !prc_md_set_str(c, "id", sid, g->err))
                                goto bad;
                }
        }
        v = PRC_JGET(j, "steps");
        {
                json_t *s = steps_list(g, v, prc_yaml_pos_key(g->pos, id, "steps"), jid, dshell, windows, where);
                if (s == NULL || !setn(g, o, "steps", s))
                        goto bad;
        }
        exprs = json_array();
        if (!oomj(g, exprs, "expressions") || !setn(g, o, "expressions", exprs) ||
            !scan_if(g, exprs, PRC_JGET(j, "if"), prc_yaml_pos_key(g->pos, id, "if")) ||
            !scan_tree(g, exprs, "", j, id, skip, 0))
                goto bad;
        return o;
bad:
        json_decref(o);
        return NULL;
}

/* ---- triggers ------------------------------------------------------------ */

static const char *const filter_keys[][2] = {
        { "branches", "branches" }, { "branches-ignore", "branches_ignore" }, { "tags", "tags" },
        { "tags-ignore", "tags_ignore" }, { "paths", "paths" }, { "paths-ignore", "paths_ignore" },
        { "types", "types" }, { "workflows", "workflows" },
};

/*
 * One trigger: {"event", "line", "branches", "branches_ignore", "tags",
 * "tags_ignore", "paths", "paths_ignore", "types", "workflows" (lists or
 * null), "cron" (schedule), "inputs" and "secrets" (workflow_call and
 * workflow_dispatch names), "config" (the event's value as written)}.
 */
static json_t *trigger(gx *g, const char *ev, const json_t *cfg, uint32_t id, uint32_t line)
{
        json_t *t = json_object();
        size_t i;

        if (!oomj(g, t, "a trigger"))
                return NULL;
        if (!prc_md_set_str(t, "event", ev, g->err) || !setn(g, t, "line", line ? json_integer(line) : json_null()) ||
            !setn(g, t, "config", cfg != NULL ? json_incref((json_t *)cfg) : json_null()))
                goto bad;
        if (cfg != NULL && !json_is_null(cfg) && !json_is_object(cfg) && !json_is_array(cfg)) {
                shape(g, line, "trigger '%s' must be a mapping, a list or empty", ev);
                goto bad;
        }
        for (i = 0; i < PRC_ARRAY_LEN(filter_keys); i++) {
                const json_t *f = json_is_object(cfg) ? json_object_get(cfg, filter_keys[i][0]) : NULL;
                if (!setn(g, t, filter_keys[i][1], f != NULL ? str_list(g, f, member_line(g, id, filter_keys[i][0]),
                                                                        filter_keys[i][0]) : json_null()))
                        goto bad;
        }
        {
                json_t *cron = json_null();
                if (strcmp(ev, "schedule") == 0 && json_is_array(cfg)) {
                        json_t *m;
                        json_decref(cron);
                        cron = json_array();
                        if (!oomj(g, cron, "a schedule"))
                                goto bad;
                        json_array_foreach(cfg, i, m) {
                                const json_t *c = PRC_JGET(m, "cron");
                                if (json_is_string(c) && json_array_append(cron, (json_t *)c) != 0) {
                                        json_decref(cron);
                                        prc_err_oom(g->err, "a schedule");
                                        goto bad;
                                }
                        }
                }
                if (!setn(g, t, "cron", cron))
                        goto bad;
        }
        for (i = 0; i < 2; i++) {
                const char *k = i == 0 ? "inputs" : "secrets";
                const json_t *m = json_is_object(cfg) ? json_object_get(cfg, k) : NULL;
                json_t *names = json_null();
                if (json_is_object(m)) {
                        const char *name;
                        json_t *x;
                        json_decref(names);
                        names = json_array();
                        if (!oomj(g, names, "trigger inputs"))
                                goto bad;
                        json_object_foreach((json_t *)m, name, x) {
                                (void)x;
                                if (json_array_append_new(names, json_string(name)) != 0) {
                                        json_decref(names);
                                        prc_err_oom(g->err, "trigger inputs");
                                        goto bad;
                                }
                        }
                }
                if (!setn(g, t, k, names))
                        goto bad;
        }
        return t;
bad:
        json_decref(t);
        return NULL;
}

/* `on:` as a string, a list of strings or a mapping of events. */
static json_t *triggers(gx *g, const json_t *on, uint32_t id)
{
        json_t *out = json_array();
        uint32_t line = node_line(g, id);
        size_t i;
        json_t *m;

        if (!oomj(g, out, "triggers"))
                return NULL;
        if (json_is_string(on)) {
                json_t *t = trigger(g, json_string_value(on), NULL, 0, line);
                if (t == NULL || json_array_append_new(out, t) != 0)
                        goto bad;
        } else if (json_is_array(on)) {
                json_array_foreach(on, i, m) {
                        json_t *t;
                        if (!json_is_string(m)) {
                                shape(g, line, "'%s' list entries must be event names", "on");
                                goto bad;
                        }
                        t = trigger(g, json_string_value(m), NULL, 0, node_line(g, prc_yaml_pos_index(g->pos, id, i)));
                        if (t == NULL || json_array_append_new(out, t) != 0)
                                goto bad;
                }
        } else if (json_is_object(on)) {
                const char *ev;
                json_object_foreach((json_t *)on, ev, m) {
                        json_t *t = trigger(g, ev, m, prc_yaml_pos_key(g->pos, id, ev), member_line(g, id, ev));
                        if (t == NULL || json_array_append_new(out, t) != 0)
                                goto bad;
                }
        } else {
                shape(g, line, "'%s' must be an event name, a list or a mapping", "on");
                goto bad;
        }
        return out;
bad:
        if (!prc_err_is_set(g->err))
                prc_err_oom(g->err, "triggers");
        json_decref(out);
        return NULL;
}

/* ---- entry points ------------------------------------------------------------ */

static json_t *load(const prc_xin *in, prc_yaml_pos **pos, prc_err *err)
{
        /* Floats stay as written: `python-version: 3.10` means "3.10". */
        json_t *root = prc_yaml_load_pos(in->p, in->n, in->lim, PRC_YAML_FLOAT_AS_STRING, pos, err);

        if (root != NULL && !json_is_object(root)) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "the document is %s, not a mapping", prc_json_type_name(root));
                prc_err_set_line(err, 1, 1);
                json_decref(root);
                prc_yaml_pos_free(*pos);
                *pos = NULL;
                return NULL;
        }
        return root;
}

static json_t *extract_workflow(const prc_xin *in, prc_err *err)
{
        static const char *const skip[] = { "jobs", "on", NULL };
        prc_yaml_pos *pos = NULL;
        json_t *root = load(in, &pos, err), *md = NULL, *det, *jobs, *exprs;
        const json_t *on, *jv;
        const char *jid, *wshell;
        uint32_t rid, jid_n;
        gx g;

        if (root == NULL)
                return NULL;
        g = (gx){ in, NULL, pos, err, 0, 1 };
        rid = prc_yaml_pos_root(pos);
        on = PRC_JGET(root, "on");
        jv = PRC_JGET(root, "jobs");
        if (on == NULL || jv == NULL) {
                prc_err_set(err, PRC_E_GHA_NOT_WORKFLOW, "no '%s' key: GitHub would not run this file as a workflow",
                            on == NULL ? "on" : "jobs");
                prc_err_set_line(err, 1, 1);
                goto out;
        }
        if (!json_is_object(jv)) {
                shape(&g, member_line(&g, rid, "jobs"), "'%s' must be a mapping", "jobs");
                goto out;
        }
        md = prc_md_new(in, "gha-workflow", "github-actions", "workflow", err);
        if (md == NULL)
                goto out;
        g.md = md;
        det = prc_md_details(md);
        wshell = defaults_shell(PRC_JGET(root, "defaults"));
        if (!set_scalar(&g, det, "name", PRC_JGET(root, "name"), 1, "name") ||
            !setn(&g, det, "run_name", as_written(&g, root, rid, "run-name")) ||
            !setn(&g, det, "triggers", triggers(&g, on, prc_yaml_pos_key(pos, rid, "on"))) ||
            !add_perm(&g, det, root, rid) || !setn(&g, det, "concurrency", as_written(&g, root, rid, "concurrency")) ||
            !setn(&g, det, "cache_mode", as_written(&g, root, rid, "cache-mode")) ||
            !setn(&g, det, "defaults", as_written(&g, root, rid, "defaults")) ||
            !setn(&g, det, "env", name_values(&g, PRC_JGET(root, "env"), prc_yaml_pos_key(pos, rid, "env"), "env")))
                goto fail;
        jobs = json_array();
        if (!setn(&g, det, "jobs", jobs))
                goto fail;
        jid_n = prc_yaml_pos_key(pos, rid, "jobs");
        json_object_foreach((json_t *)jv, jid, on) {
                json_t *j = job_obj(&g, jid, on, prc_yaml_pos_key(pos, jid_n, jid), wshell);
                if (j == NULL)
                        goto fail;
                if (json_array_append_new(jobs, j) != 0) {
                        prc_err_oom(err, "jobs");
                        goto fail;
                }
        }
        exprs = json_array();
        if (!setn(&g, det, "expressions", exprs) || !scan_tree(&g, exprs, "", root, rid, skip, 0))
                goto fail;
        goto out;
fail:
        json_decref(md);
        md = NULL;
out:
        prc_yaml_pos_free(pos);
        json_decref(root);
        return md;
}

/*
 * action.yml: {"name", "description", "inputs": [{"name", "required",
 * "default", "deprecated", "line"}], "outputs", "runs": {"using", "line",
 * "main", "pre", "post", "pre_if", "post_if", "image" (IMG for docker://, else
 * null), "image_raw", "entrypoint", "args", "env", "steps" (composite)},
 * "expressions"}.
 */
static json_t *extract_action(const prc_xin *in, prc_err *err)
{
        static const char *const skip[] = { "runs", NULL };
        static const char *const rskip[] = { "steps", NULL };
        prc_yaml_pos *pos = NULL;
        json_t *root = load(in, &pos, err), *md = NULL, *det, *runs, *inputs, *exprs;
        const json_t *rv, *iv;
        uint32_t rid, runs_id;
        gx g;

        if (root == NULL)
                return NULL;
        g = (gx){ in, NULL, pos, err, 0, 1 };
        rid = prc_yaml_pos_root(pos);
        rv = PRC_JGET(root, "runs");
        if (!json_is_object(rv)) {
                prc_err_set(err, PRC_E_GHA_NOT_ACTION, "no 'runs' mapping: not a GitHub Action metadata file");
                prc_err_set_line(err, rv != NULL ? member_line(&g, rid, "runs") : 1, 1);
                goto out;
        }
        runs_id = prc_yaml_pos_key(pos, rid, "runs");
        g.near_line = member_line(&g, rid, "runs");
        md = prc_md_new(in, "gha-action", "github-actions", "action", err);
        if (md == NULL)
                goto out;
        g.md = md;
        det = prc_md_details(md);
        if (!set_scalar(&g, det, "name", PRC_JGET(root, "name"), 1, "name") ||
            !set_scalar(&g, det, "description", PRC_JGET(root, "description"), 1, "description") ||
            !setn(&g, det, "outputs", name_values(&g, PRC_JGET(root, "outputs"),
                                                  prc_yaml_pos_key(pos, rid, "outputs"), "outputs")))
                goto fail;
        inputs = json_array();
        if (!setn(&g, det, "inputs", inputs))
                goto fail;
        iv = PRC_JGET(root, "inputs");
        if (iv != NULL && !json_is_object(iv)) {
                shape(&g, member_line(&g, rid, "inputs"), "'%s' must be a mapping", "inputs");
                goto fail;
        }
        if (iv != NULL) {
                const char *k;
                json_t *m;
                uint32_t iid = prc_yaml_pos_key(pos, rid, "inputs");
                json_object_foreach((json_t *)iv, k, m) {
                        uint32_t l = member_line(&g, iid, k);
                        json_t *e = json_pack("{s:s, s:O, s:O, s:O, s:o}", "name", k, "required",
                                              json_is_object(m) && PRC_JGET(m, "required") ?
                                              PRC_JGET(m, "required") : json_null(),
                                              "default", json_is_object(m) && PRC_JGET(m, "default") ?
                                              PRC_JGET(m, "default") : json_null(),
                                              "deprecated", json_is_object(m) &&
                                              PRC_JGET(m, "deprecationMessage") ? json_true() : json_false(),
                                              "line", l ? json_integer(l) : json_null());
                        if (e == NULL || json_array_append_new(inputs, e) != 0) {
                                prc_err_oom(err, "inputs");
                                goto fail;
                        }
                }
        }
        runs = json_object();
        if (!setn(&g, det, "runs", runs))
                goto fail;
        {
                const json_t *using = PRC_JGET(rv, "using");
                const json_t *image = PRC_JGET(rv, "image");
                const char *dshell = NULL;
                json_t *img = json_null(), *steps;
                uint32_t ul = member_line(&g, runs_id, "using");
                if (!json_is_string(using)) {
                        shape(&g, ul, "'%s' must be a string", "runs.using");
                        goto fail;
                }
                if (!prc_md_set_str(runs, "using", json_string_value(using), err) ||
                    !setn(&g, runs, "line", json_integer(member_line(&g, rid, "runs"))) ||
                    !set_scalar(&g, runs, "main", PRC_JGET(rv, "main"), ul, "main") ||
                    !set_scalar(&g, runs, "pre", PRC_JGET(rv, "pre"), ul, "pre") ||
                    !set_scalar(&g, runs, "post", PRC_JGET(rv, "post"), ul, "post") ||
                    !setn(&g, runs, "pre_if", as_written(&g, rv, runs_id, "pre-if")) ||
                    !setn(&g, runs, "post_if", as_written(&g, rv, runs_id, "post-if")) ||
                    !set_scalar(&g, runs, "image_raw", image, ul, "image") ||
                    !setn(&g, runs, "entrypoint", as_written(&g, rv, runs_id, "entrypoint")) ||
                    !setn(&g, runs, "args", as_written(&g, rv, runs_id, "args")) ||
                    !setn(&g, runs, "env", name_values(&g, PRC_JGET(rv, "env"),
                                                       prc_yaml_pos_key(pos, runs_id, "env"), "env")))
                        goto fail;
                /* `image: Dockerfile` builds from the action's own Dockerfile; only docker:// names an image. */
                if (json_is_string(image) && strncmp(json_string_value(image), "docker://", 9) == 0) {
                        uint32_t il = member_line(&g, runs_id, "image");
                        json_decref(img);
                        img = prc_x_image_ref(json_string_value(image) + 9, err);
                        if (img == NULL)
                                goto fail;
                        if (json_is_true(PRC_JGET(img, "valid")) &&
                            !prc_x_image_dep(md, img, "build", NULL, il, err)) {
                                json_decref(img);
                                goto fail;
                        }
                }
                if (!setn(&g, runs, "image", img))
                        goto fail;
                steps = steps_list(&g, PRC_JGET(rv, "steps"), prc_yaml_pos_key(pos, runs_id, "steps"), NULL,
                                   dshell, false, "runs");
                if (steps == NULL || !setn(&g, runs, "steps", steps))
                        goto fail;
        }
        exprs = json_array();
        if (!setn(&g, det, "expressions", exprs) || !scan_tree(&g, exprs, "", root, rid, skip, 0) ||
            !scan_tree(&g, exprs, "runs", rv, runs_id, rskip, 0))
                goto fail;
        goto out;
fail:
        json_decref(md);
        md = NULL;
out:
        prc_yaml_pos_free(pos);
        json_decref(root);
        return md;
}

json_t *prc_extract_gha_workflow(const prc_xin *in, prc_err *err)
{
        return extract_workflow(in, err);
}

json_t *prc_extract_gha_action(const prc_xin *in, prc_err *err)
{
        return extract_action(in, err);
}
