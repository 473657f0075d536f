/*
 * golang.c - Go module extractors: go.mod, go.sum, go.work.
 *
 * Trust: runs in the content worker on hostile bytes; never opens, never
 * prints.  go.mod and go.work are not TOML: this file holds prc's own small
 * reader of their line syntax (the go command's modfile rules: "//"
 * comments, bare words, "..." and `...` strings, the punctuation ( ) [ ] ,
 * and "verb (" ... ")" blocks).  Memory is bounded by the input size (one
 * scratch copy) and by the ManifestDoc limits.  Errors: gomod-syntax,
 * gosum-syntax, gosum-conflict, input-too-large, extract-limit,
 * not-canonical, out-of-memory.  docs/extraction/cargo-go-composer.md says
 * what each field means and what is not resolved.
 */
#include "content/extract/cgc_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/utf8.h"

/* Fields on one line: the longest directive (replace a v => b v) has 5, a retract interval 5. */
#define GO_TOK_MAX 8

enum { TK_WORD, TK_STRING, TK_PUNCT };

typedef struct goline {
        uint32_t    line;
        size_t      ntok;
        const char *tok[GO_TOK_MAX];    /* borrowed: the scratch buffer, valid until the next line */
        int         kind[GO_TOK_MAX];
        const char *comment;            /* trailing "//" comment without the slashes, trimmed, or NULL */
} goline;

typedef struct gofile {
        const prc_xin *in;
        json_t        *md;
        bool           work;            /* go.work: its own directive set */
        char          *scratch;         /* owned: decoded tokens of the current line */
        char           above[PRC_MD_STR_MAX + 1];       /* comment lines directly above, joined by '\n' */
        bool           above_cut;       /* above lost text past PRC_MD_STR_MAX */
        bool           seen_module, seen_go, seen_toolchain;
        json_t        *replaces;        /* borrowed: details.replace once one is seen */
} gofile;

static bool syntax(prc_errclass cls, uint32_t line, prc_err *err, const char *what)
{
        prc_err_set(err, cls, "line %u: %s", line, what);
        prc_err_set_line(err, line, 0);
        return false;
}

/* The whole input is UTF-8 (the go command refuses anything else), so every key and value is too. */
static bool check_input(const prc_xin *in, prc_err *err)
{
        size_t bad;

        if (in->n > in->lim->input_max)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "%zu bytes (the limit is %zu)", in->n,
                                   in->lim->input_max);
        if (in->n > 0 && !prc_utf8_valid(in->p, in->n, &bad)) {
                prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 at byte %zu", bad);
                prc_err_set_line(err, prc_x_line_at(in, bad), 0);
                return false;
        }
        return true;
}

static bool is_space(unsigned char c)
{
        return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_punct(unsigned char c)
{
        return c == '(' || c == ')' || c == '[' || c == ']' || c == ',';
}

/* Decode a "..." string starting at p[*i] into out; simple escapes only (module paths never need more). */
static bool lex_quoted(const uint8_t *p, size_t n, size_t *i, char **out, uint32_t line, prc_err *err)
{
        static const char from[] = "abfnrtv\\\"'", to[] = "\a\b\f\n\r\t\v\\\"'";
        size_t j = *i + 1;
        char *o = *out;

        for (; j < n && p[j] != '"'; j++) {
                if (p[j] < 0x20 || p[j] == 0x7f)
                        return syntax(PRC_E_GOMOD_SYNTAX, line, err, "a control character in a string");
                if (p[j] == '\\') {
                        const char *e = j + 1 < n && p[j + 1] != '\0' ? strchr(from, p[j + 1]) : NULL;

                        if (e == NULL)
                                return syntax(PRC_E_GOMOD_SYNTAX, line, err,
                                              "an escape prc does not decode in a string");
                        *o++ = to[e - from];
                        j++;
                        continue;
                }
                *o++ = (char)p[j];
        }
        if (j >= n)
                return syntax(PRC_E_GOMOD_SYNTAX, line, err, "an unterminated string");
        *o++ = '\0';
        *out = o;
        *i = j + 1;
        return true;
}

/*
 * Split one line (without its newline) into tokens written to scratch.
 * The go command's rules: whitespace separates, "//" starts a comment to
 * the end of the line, ( ) [ ] , are tokens of their own, block comments do
 * not exist.
 */
static bool lex_line(gofile *g, const uint8_t *p, size_t n, uint32_t line, goline *l, prc_err *err)
{
        char *o = g->scratch;
        size_t i = 0;

        l->line = line;
        l->ntok = 0;
        l->comment = NULL;
        while (i < n) {
                if (is_space(p[i])) {
                        i++;
                        continue;
                }
                if (p[i] == '/' && i + 1 < n && p[i + 1] == '/') {
                        size_t a = i + 2, b = n;

                        while (a < b && is_space(p[a]))
                                a++;
                        while (b > a && is_space(p[b - 1]))
                                b--;
                        for (size_t k = a; k < b; k++)
                                if (p[k] < 0x20 && p[k] != '\t')
                                        return syntax(PRC_E_GOMOD_SYNTAX, line, err,
                                                      "a control character in a comment");
                        memcpy(o, p + a, b - a);
                        o[b - a] = '\0';
                        l->comment = o;
                        return true;
                }
                if (l->ntok == GO_TOK_MAX)
                        return syntax(PRC_E_GOMOD_SYNTAX, line, err, "too many fields on one line");
                l->tok[l->ntok] = o;
                if (is_punct(p[i])) {
                        l->kind[l->ntok++] = TK_PUNCT;
                        *o++ = (char)p[i++];
                        *o++ = '\0';
                } else if (p[i] == '"') {
                        l->kind[l->ntok++] = TK_STRING;
                        if (!lex_quoted(p, n, &i, &o, line, err))
                                return false;
                } else if (p[i] == '`') {
                        size_t j = i + 1;

                        while (j < n && p[j] != '`' && p[j] >= 0x20)
                                j++;
                        if (j >= n || p[j] != '`')
                                return syntax(PRC_E_GOMOD_SYNTAX, line, err, "an unterminated raw string");
                        l->kind[l->ntok++] = TK_STRING;
                        memcpy(o, p + i + 1, j - i - 1);
                        o += j - i - 1;
                        *o++ = '\0';
                        i = j + 1;
                } else {
                        l->kind[l->ntok++] = TK_WORD;
                        while (i < n && !is_space(p[i]) && !is_punct(p[i]) && p[i] != '"' && p[i] != '`') {
                                if (p[i] < 0x20 || p[i] == 0x7f)
                                        return syntax(PRC_E_GOMOD_SYNTAX, line, err, "a control character");
                                if (p[i] == '/' && i + 1 < n && (p[i + 1] == '/' || p[i + 1] == '*'))
                                        return syntax(PRC_E_GOMOD_SYNTAX, line, err,
                                                      "a comment marker inside a word");
                                *o++ = (char)p[i++];
                        }
                        *o++ = '\0';
                }
        }
        return true;
}

static bool is_arg(const goline *l, size_t i)
{
        return i < l->ntok && l->kind[i] != TK_PUNCT && l->tok[i][0] != '\0';
}

/* A module version as go.mod requires it: "v" then something (v1.2.3, v0.0.0-2020...-abc, v2.0.0+incompatible). */
static bool is_version(const char *v)
{
        return v[0] == 'v' && v[1] != '\0';
}

/* modfile.IsDirectoryPath: a replacement that names a directory, not a module. */
static bool is_dir_path(const char *s)
{
        return strncmp(s, "./", 2) == 0 || strncmp(s, "../", 3) == 0 || s[0] == '/' ||
               strncmp(s, ".\\", 2) == 0 || strncmp(s, "..\\", 3) == 0 || s[0] == '\\' ||
               strcmp(s, ".") == 0 || strcmp(s, "..") == 0 ||
               (((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) && s[1] == ':');
}

/* "// indirect" or "// indirect; ..." (the go command's rule). */
static bool is_indirect(const char *c)
{
        return c != NULL && strncmp(c, "indirect", 8) == 0 && (c[8] == '\0' || c[8] == ';' || c[8] == ' ');
}

char *prc_go_purl(const char *module, const char *version)
{
        char *low = prc_cgc_lower(module), *slash, *p;

        /* purl-spec golang: namespace = the module path minus its last segment, both lower-cased. */
        if (low == NULL)
                return NULL;
        slash = strrchr(low, '/');
        if (slash != NULL) {
                *slash = '\0';
                p = prc_purl("golang", low, slash + 1, version, NULL, NULL);
        } else {
                p = prc_purl("golang", NULL, low, version, NULL, NULL);
        }
        free(low);
        return p;
}

static bool set_purl(json_t *obj, const char *module, const char *version, prc_err *err)
{
        return prc_md_take_purl(obj, prc_go_purl(module, version), err);
}

static bool usage(const goline *l, prc_err *err, const char *u)
{
        char msg[160];

        snprintf(msg, sizeof(msg), "usage: %s", u);
        return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, msg);
}

static bool d_module(gofile *g, const goline *l, size_t a, prc_err *err)
{
        const char *dep;

        if (l->ntok != a + 1 || !is_arg(l, a))
                return usage(l, err, "module module/path");
        if (g->seen_module)
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a second module directive");
        g->seen_module = true;
        {
                char *p = prc_go_purl(l->tok[a], NULL);
                bool ok;

                if (p == NULL)
                        return prc_err_oom(err, "purl");
                ok = prc_md_set_package(g->md, l->tok[a], NULL, p, l->line, err);
                free(p);
                if (!ok)
                        return false;
        }
        /* A "Deprecated:" paragraph in the comments on the module directive deprecates the module. */
        dep = l->comment != NULL && strncmp(l->comment, "Deprecated:", 11) == 0 ? l->comment : NULL;
        if (dep == NULL) {
                const char *s = g->above;

                for (; s != NULL && *s != '\0'; s = strchr(s, '\n') != NULL ? strchr(s, '\n') + 1 : NULL)
                        if (strncmp(s, "Deprecated:", 11) == 0) {
                                dep = s;
                                break;
                        }
        }
        if (dep != NULL) {
                dep += 11;
                while (*dep == ' ')
                        dep++;
                return prc_md_set_str(prc_md_details(g->md), "deprecated", dep, err);
        }
        return true;
}

static bool d_single(gofile *g, const goline *l, size_t a, const char *key, bool *seen, prc_err *err)
{
        char u[64];

        if (l->ntok != a + 1 || !is_arg(l, a)) {
                snprintf(u, sizeof(u), "%s VALUE", key);
                return usage(l, err, u);
        }
        if (*seen) {
                snprintf(u, sizeof(u), "a second %s directive", key);
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, u);
        }
        *seen = true;
        if (strcmp(key, "go") == 0 && !(l->tok[a][0] >= '1' && l->tok[a][0] <= '9'))
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a go version that does not start with a digit");
        return prc_md_set_str(prc_md_details(g->md), key, l->tok[a], err);
}

static bool d_godebug(gofile *g, const goline *l, size_t a, prc_err *err)
{
        const char *eq;
        json_t *o;
        char *key;
        bool ok;

        if (l->ntok != a + 1 || !is_arg(l, a) || (eq = strchr(l->tok[a], '=')) == NULL || eq == l->tok[a])
                return usage(l, err, "godebug key=value");
        o = prc_cgc_detail_add(g->md, "godebug", err);
        if (o == NULL)
                return false;
        key = strndup(l->tok[a], (size_t)(eq - l->tok[a]));
        if (key == NULL)
                return prc_err_oom(err, "godebug key");
        ok = prc_md_set_str(o, "key", key, err) && prc_md_set_str(o, "value", eq + 1, err) &&
             prc_cgc_put_line(o, l->line, err);
        free(key);
        return ok;
}

static bool d_require(gofile *g, const goline *l, size_t a, prc_err *err)
{
        json_t *d;

        if (l->ntok != a + 2 || !is_arg(l, a) || !is_arg(l, a + 1))
                return usage(l, err, "require module/path v1.2.3");
        if (!is_version(l->tok[a + 1]))
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a required version that does not start with 'v'");
        d = prc_md_add_dep_rr(g->md, l->tok[a], "runtime", !is_indirect(l->comment), l->line, l->tok[a + 1],
                              l->tok[a + 1], err);
        return d != NULL && set_purl(d, l->tok[a], l->tok[a + 1], err);
}

/* exclude, tool, ignore, use: one path (and a version for exclude) into a details list. */
static bool d_listed(gofile *g, const goline *l, size_t a, const char *verb, prc_err *err)
{
        bool versioned = strcmp(verb, "exclude") == 0;
        const char *key = strcmp(verb, "use") == 0 || strcmp(verb, "ignore") == 0 ? "path" : "name";
        char u[64];
        json_t *o;

        if (l->ntok != a + 1 + versioned || !is_arg(l, a) || (versioned && !is_arg(l, a + 1))) {
                snprintf(u, sizeof(u), "%s %s", verb, versioned ? "module/path v1.2.3" : "path");
                return usage(l, err, u);
        }
        if (versioned && !is_version(l->tok[a + 1]))
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "an excluded version that does not start with 'v'");
        o = prc_cgc_detail_add(g->md, verb, err);
        return o != NULL && prc_md_set_str(o, key, l->tok[a], err) &&
               (!versioned || prc_md_set_str(o, "version", l->tok[a + 1], err)) &&
               prc_cgc_put_line(o, l->line, err);
}

/* replace old [v] => new [v]: recorded in details.replace, applied to the requirements at the end. */
static bool d_replace(gofile *g, const goline *l, size_t a, prc_err *err)
{
        static const char u[] = "replace module/path [v1.2.3] => other/module v1.4.5 | ./dir";
        size_t arrow, nn;
        const char *oldv = NULL, *newv = NULL, *nw;
        bool dir;
        json_t *o;

        for (arrow = a; arrow < l->ntok; arrow++)
                if (l->kind[arrow] == TK_WORD && strcmp(l->tok[arrow], "=>") == 0)
                        break;
        if (arrow == l->ntok || arrow == a || arrow > a + 2 || !is_arg(l, a))
                return usage(l, err, u);
        if (arrow == a + 2) {
                if (!is_arg(l, a + 1) || !is_version(l->tok[a + 1]))
                        return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a replaced version that is not a version");
                oldv = l->tok[a + 1];
        }
        nn = l->ntok - arrow - 1;
        if (nn < 1 || nn > 2 || !is_arg(l, arrow + 1) || (nn == 2 && !is_arg(l, arrow + 2)))
                return usage(l, err, u);
        nw = l->tok[arrow + 1];
        dir = is_dir_path(nw);
        if (nn == 2)
                newv = l->tok[arrow + 2];
        if (dir && newv != NULL)
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a replacement directory with a version");
        if (!dir && newv == NULL)
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err,
                              "a replacement module without a version (a directory must start with ./ ../ or /)");
        if (newv != NULL && !is_version(newv))
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a replacement version that is not a version");
        o = prc_cgc_detail_add(g->md, "replace", err);
        if (o == NULL || !prc_md_set_str(o, "name", l->tok[a], err) || !prc_md_set_str(o, "version", oldv, err) ||
            !prc_md_set_str(o, dir ? "path" : "new_name", nw, err) ||
            !(dir || prc_md_set_str(o, "new_version", newv, err)) || !prc_cgc_put_line(o, l->line, err))
                return false;
        g->replaces = PRC_JGET(prc_md_details(g->md), "replace");
        return true;
}

/* retract v1.2.3 | retract [v1.0.0, v1.1.0], with the comments as rationale. */
static bool d_retract(gofile *g, const goline *l, size_t a, prc_err *err)
{
        const char *lo, *hi, *why;
        json_t *o;

        if (l->ntok == a + 1 && is_arg(l, a)) {
                lo = hi = l->tok[a];
        } else if (l->ntok == a + 5 && l->kind[a] == TK_PUNCT && l->tok[a][0] == '[' && is_arg(l, a + 1) &&
                   l->kind[a + 2] == TK_PUNCT && l->tok[a + 2][0] == ',' && is_arg(l, a + 3) &&
                   l->kind[a + 4] == TK_PUNCT && l->tok[a + 4][0] == ']') {
                lo = l->tok[a + 1];
                hi = l->tok[a + 3];
        } else {
                return usage(l, err, "retract v1.2.3 | retract [v1.0.0, v1.1.0]");
        }
        if (!is_version(lo) || !is_version(hi))
                return syntax(PRC_E_GOMOD_SYNTAX, l->line, err, "a retracted version that does not start with 'v'");
        why = l->comment != NULL ? l->comment : (g->above[0] != '\0' ? g->above : NULL);
        o = prc_cgc_detail_add(g->md, "retract", err);
        return o != NULL && prc_md_set_str(o, "low", lo, err) && prc_md_set_str(o, "high", hi, err) &&
               prc_md_set_str(o, "rationale", why, err) &&
               prc_cgc_put(o, "rationale_truncated", json_boolean(why == g->above && g->above_cut), err) &&
               prc_cgc_put_line(o, l->line, err);
}

typedef struct goverb {
        const char *name;
        bool        mod, work;  /* valid in go.mod, in go.work */
        bool        block;      /* may open a "verb (" block */
} goverb;

static const goverb verbs[] = {
        { "module", true, false, false },     { "go", true, true, false },
        { "toolchain", true, true, false },   { "godebug", true, true, true },
        { "require", true, false, true },     { "replace", true, true, true },
        { "exclude", true, false, true },     { "retract", true, false, true },
        { "tool", true, false, true },        { "ignore", true, false, true },
        { "use", false, true, true },
};

static const goverb *find_verb(const gofile *g, const char *w)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(verbs); i++)
                if (strcmp(verbs[i].name, w) == 0 && (g->work ? verbs[i].work : verbs[i].mod))
                        return &verbs[i];
        return NULL;
}

static bool directive(gofile *g, const goverb *v, const goline *l, size_t a, prc_err *err)
{
        const char *n = v->name;

        if (strcmp(n, "module") == 0)
                return d_module(g, l, a, err);
        if (strcmp(n, "go") == 0)
                return d_single(g, l, a, "go", &g->seen_go, err);
        if (strcmp(n, "toolchain") == 0)
                return d_single(g, l, a, "toolchain", &g->seen_toolchain, err);
        if (strcmp(n, "godebug") == 0)
                return d_godebug(g, l, a, err);
        if (strcmp(n, "require") == 0)
                return d_require(g, l, a, err);
        if (strcmp(n, "replace") == 0)
                return d_replace(g, l, a, err);
        if (strcmp(n, "retract") == 0)
                return d_retract(g, l, a, err);
        return d_listed(g, l, a, n, err);
}

/* Remember comment-only lines directly above the next directive (deprecation, retraction rationale). */
static void above_add(gofile *g, const char *c)
{
        size_t have = strlen(g->above), add = strlen(c) + (have > 0);

        if (have + add > PRC_MD_STR_MAX) {
                g->above_cut = true;
                return;
        }
        if (have > 0)
                g->above[have++] = '\n';
        memcpy(g->above + have, c, strlen(c) + 1);
}

/*
 * A replace without a version applies to every required version of its
 * module, one with a version to that version only; the last matching
 * replace wins, as in the go command.  A directory replacement makes the
 * requirement's source that path; a module replacement keeps the
 * requirement as written and is listed in details.replace.
 */
static bool apply_replaces(gofile *g, prc_err *err)
{
        json_t *deps = PRC_JGET(g->md, "dependencies");
        size_t i, j;

        for (i = 0; i < json_array_size(deps); i++) {
                json_t *d = json_array_get(deps, i), *hit = NULL;
                const char *name = json_string_value(PRC_JGET(d, "name"));
                const char *ver = json_string_value(PRC_JGET(d, "requirement"));

                for (j = 0; j < json_array_size(g->replaces); j++) {
                        json_t *r = json_array_get(g->replaces, j);
                        const char *rv = json_string_value(PRC_JGET(r, "version"));

                        if (strcmp(json_string_value(PRC_JGET(r, "name")), name) == 0 &&
                            (rv == NULL || strcmp(rv, ver) == 0))
                                hit = r;
                }
                if (hit != NULL && json_is_string(PRC_JGET(hit, "path")) &&
                    !prc_md_set_source(d, "path", json_string_value(PRC_JGET(hit, "path")), NULL, NULL,
                                       err))
                        return false;
        }
        return true;
}

static json_t *gomod_common(const prc_xin *in, const char *format, bool work, prc_err *err)
{
        const char *kind = "manifest";
        gofile *g = NULL;
        const goverb *block = NULL;
        uint32_t line = 0, block_line = 0;
        size_t off = 0;
        json_t *md = NULL;

        if (!check_input(in, err))
                return NULL;
        g = prc_calloc(1, sizeof(*g));
        if (g == NULL || (g->scratch = prc_malloc(in->n + GO_TOK_MAX + 1)) == NULL) {
                prc_err_oom(err, "go.mod reader");
                goto fail;
        }
        g->in = in;
        g->work = work;
        md = g->md = prc_md_new(in, format, "golang", kind, err);
        if (md == NULL)
                goto fail;
        while (off < in->n) {
                const uint8_t *s = in->p + off;
                const uint8_t *nl = memchr(s, '\n', in->n - off);
                size_t len = nl != NULL ? (size_t)(nl - s) : in->n - off;
                const goverb *v;
                goline l;

                off += len + (nl != NULL);
                line++;
                if (!lex_line(g, s, len, line, &l, err))
                        goto fail;
                if (l.ntok == 0) {
                        if (l.comment != NULL)
                                above_add(g, l.comment);
                        else
                                g->above[0] = '\0';
                        if (l.comment == NULL)
                                g->above_cut = false;
                        continue;
                }
                if (block != NULL) {
                        if (l.kind[0] == TK_PUNCT && l.tok[0][0] == ')') {
                                if (l.ntok != 1) {
                                        syntax(PRC_E_GOMOD_SYNTAX, line, err, "text after a block's ')'");
                                        goto fail;
                                }
                                block = NULL;
                        } else if (!directive(g, block, &l, 0, err)) {
                                goto fail;
                        }
                } else if (l.kind[0] != TK_WORD) {
                        syntax(PRC_E_GOMOD_SYNTAX, line, err, "a line that does not start with a directive");
                        goto fail;
                } else if ((v = find_verb(g, l.tok[0])) == NULL) {
                        /* Newer go versions add directives; skip it, but say so (and skip its block). */
                        if (!prc_md_not_extracted(md, l.tok[0], work ? "a go.work directive prc does not know"
                                                                     : "a go.mod directive prc does not know",
                                                  line, err))
                                goto fail;
                        if (l.ntok >= 2 && l.kind[1] == TK_PUNCT && l.tok[1][0] == '(') {
                                while (off < in->n) {
                                        s = in->p + off;
                                        nl = memchr(s, '\n', in->n - off);
                                        len = nl != NULL ? (size_t)(nl - s) : in->n - off;
                                        off += len + (nl != NULL);
                                        line++;
                                        if (!lex_line(g, s, len, line, &l, err))
                                                goto fail;
                                        if (l.ntok == 1 && l.kind[0] == TK_PUNCT && l.tok[0][0] == ')')
                                                break;
                                }
                                if (!(l.ntok == 1 && l.kind[0] == TK_PUNCT && l.tok[0][0] == ')')) {
                                        syntax(PRC_E_GOMOD_SYNTAX, line, err, "an unterminated block");
                                        goto fail;
                                }
                        }
                } else if (l.ntok >= 2 && l.kind[1] == TK_PUNCT && l.tok[1][0] == '(') {
                        if (!v->block) {
                                syntax(PRC_E_GOMOD_SYNTAX, line, err, "a block of a directive that has none");
                                goto fail;
                        }
                        if (l.ntok == 3 && l.kind[2] == TK_PUNCT && l.tok[2][0] == ')')
                                ;       /* "require ()": an empty block */
                        else if (l.ntok != 2) {
                                syntax(PRC_E_GOMOD_SYNTAX, line, err, "text after a block's '('");
                                goto fail;
                        } else {
                                block = v;
                                block_line = line;
                        }
                } else if (!directive(g, v, &l, 1, err)) {
                        goto fail;
                }
                g->above[0] = '\0';
                g->above_cut = false;
        }
        if (block != NULL) {
                syntax(PRC_E_GOMOD_SYNTAX, block_line, err, "a block that is never closed with ')'");
                goto fail;
        }
        if (!work && !g->seen_module && json_array_size(PRC_JGET(md, "dependencies")) > 0) {
                /* The go command refuses a go.mod with requirements but no module path. */
                syntax(PRC_E_GOMOD_SYNTAX, 1, err, "requirements without a module directive");
                goto fail;
        }
        if (g->replaces != NULL && !work && !apply_replaces(g, err))
                goto fail;
        free(g->scratch);
        free(g);
        return md;
fail:
        json_decref(md);
        if (g != NULL)
                free(g->scratch);
        free(g);
        return NULL;
}

json_t *prc_x_go_mod(const prc_xin *in, prc_err *err)
{
        return gomod_common(in, "go-mod", false, err);
}

json_t *prc_x_go_work(const prc_xin *in, prc_err *err)
{
        return gomod_common(in, "go-work", true, err);
}

/* {"dep": d, "zip": null, "mod": null} (json_pack's format, read anew per line, cost more than the object). */
static json_t *seen_row(json_t *d)
{
        json_t *r = json_object();

        if (r == NULL || json_object_set_new_nocheck(r, "dep", json_incref(d)) != 0 ||
            json_object_set_new_nocheck(r, "zip", json_null()) != 0 ||
            json_object_set_new_nocheck(r, "mod", json_null()) != 0) {
                json_decref(r);
                return NULL;
        }
        return r;
}

/*
 * go.sum: "module version hash" per line, the version either a module's
 * ("v1.2.3": the hash of its files) or its go.mod's ("v1.2.3/go.mod").
 * One dependency per module version, in the order of first mention; the
 * hash of its files is its integrity; a version stated only by its go.mod
 * hash (its code is not in the build) gets group "go.mod" and that hash.
 * Every go.mod hash is also kept in details.go_mod_hashes.
 */
json_t *prc_x_go_sum(const prc_xin *in, prc_err *err)
{
        json_t *md, *seen = NULL, *modh;
        uint32_t line = 0;
        size_t off = 0;
        char *buf = NULL;

        if (!check_input(in, err))
                return NULL;
        md = prc_md_new(in, "go-sum", "golang", "lockfile", err);
        if (md == NULL)
                return NULL;
        seen = json_object();
        buf = prc_malloc(in->n + 4);
        /* go.sum does not say which modules go.mod requires directly: every entry is direct: false. */
        if (seen == NULL || buf == NULL || !prc_cgc_put(prc_md_details(md), "go_mod_hashes", json_object(), err) ||
            !prc_cgc_put(prc_md_details(md), "direct_known", json_false(), err)) {
                prc_err_oom(err, "go.sum reader");
                goto fail;
        }
        modh = PRC_JGET(prc_md_details(md), "go_mod_hashes");
        while (off < in->n) {
                const uint8_t *s = in->p + off;
                const uint8_t *nl = memchr(s, '\n', in->n - off);
                size_t len = nl != NULL ? (size_t)(nl - s) : in->n - off, nf = 0, i = 0;
                char *f[3], *o = buf, *ver, *colon, *key;
                bool gomod;
                json_t *d, *e;

                off += len + (nl != NULL);
                line++;
                while (i < len) {
                        if (is_space(s[i])) {
                                i++;
                                continue;
                        }
                        if (nf == 3) {
                                syntax(PRC_E_GOSUM_SYNTAX, line, err, "more than three fields");
                                goto fail;
                        }
                        f[nf++] = o;
                        for (; i < len && !is_space(s[i]); i++) {
                                if (s[i] < 0x20 || s[i] == 0x7f) {
                                        syntax(PRC_E_GOSUM_SYNTAX, line, err, "a control character");
                                        goto fail;
                                }
                                *o++ = (char)s[i];
                        }
                        *o++ = '\0';
                }
                if (nf == 0)
                        continue;       /* the go command skips blank lines */
                if (nf != 3) {
                        syntax(PRC_E_GOSUM_SYNTAX, line, err, "not three fields (module version hash)");
                        goto fail;
                }
                ver = f[1];
                gomod = strlen(ver) > 7 && strcmp(ver + strlen(ver) - 7, "/go.mod") == 0;
                if (gomod)
                        ver[strlen(ver) - 7] = '\0';
                if (!is_version(ver)) {
                        syntax(PRC_E_GOSUM_SYNTAX, line, err, "a version that does not start with 'v'");
                        goto fail;
                }
                colon = strchr(f[2], ':');
                if (colon == NULL || colon == f[2] || colon[1] == '\0') {
                        syntax(PRC_E_GOSUM_SYNTAX, line, err, "a hash that is not NAME:VALUE (h1:...)");
                        goto fail;
                }
                if (asprintf(&key, "%s@%s", f[0], ver) < 0) {
                        prc_err_oom(err, "go.sum reader");
                        goto fail;
                }
                e = json_object_get(seen, key);
                if (e == NULL) {
                        d = prc_md_add_dep_rr(md, f[0], "runtime", false, line, NULL, ver, err);
                        if (d == NULL || !set_purl(d, f[0], ver, err) ||
                            !prc_cgc_put(seen, key, seen_row(d), err)) {
                                free(key);
                                goto fail;
                        }
                        e = json_object_get(seen, key);
                }
                d = PRC_JGET(e, "dep");
                {
                        const char *slot = gomod ? "mod" : "zip";
                        const char *had = json_string_value(json_object_get(e, slot));

                        if (had != NULL && strcmp(had, f[2]) == 0) {
                                free(key);
                                continue;       /* a repeated line */
                        }
                        if (had != NULL && strncmp(had, f[2], (size_t)(colon - f[2]) + 1) == 0) {
                                free(key);
                                syntax(PRC_E_GOSUM_CONFLICT, line, err, "a second, different hash of one kind");
                                goto fail;
                        }
                        if (had != NULL) {
                                /* Another hash algorithm than the first: the go command knows only h1. */
                                free(key);
                                if (!prc_md_not_extracted(md, "a second hash algorithm",
                                                          "prc keeps the first hash of each module version", line,
                                                          err))
                                        goto fail;
                                continue;
                        }
                        if (!prc_md_set_str(e, slot, f[2], err)) {
                                free(key);
                                goto fail;
                        }
                }
                if (gomod) {
                        if (!prc_md_set_str(modh, key, f[2], err)) {
                                free(key);
                                goto fail;
                        }
                        if (json_is_null(PRC_JGET(e, "zip"))) {
                                *colon = '\0';
                                if (!prc_md_set_integrity(d, f[2], colon + 1, err) ||
                                    !prc_md_set_str(d, "group", "go.mod", err)) {
                                        free(key);
                                        goto fail;
                                }
                        }
                } else {
                        /* The files' hash: the integrity, and the version is in the build. */
                        *colon = '\0';
                        if (!prc_md_set_integrity(d, f[2], colon + 1, err) ||
                            !prc_cgc_put(d, "group", json_null(), err) ||
                            !prc_cgc_put_line(d, line, err)) {
                                free(key);
                                goto fail;
                        }
                }
                free(key);
        }
        json_decref(seen);
        free(buf);
        return md;
fail:
        json_decref(seen);
        json_decref(md);
        free(buf);
        return NULL;
}
