/*
 * aur_shell.c - AUR analyses of what a package runs: aur-remote-exec,
 * aur-toplevel-code and aur-obfuscation, over the tokens of a PKGBUILD's
 * functions, its top-level commands and the install scripts it names
 * (docs/analyses.md gives each decision rule).
 * Trust: engine-side.  Works on checked token documents through the walk
 * of sh.h; nothing is evaluated, substitutions are read as the worker
 * tokenized them.
 */
#include "analysis/aur.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sh.h"
#include "analysis/shell.h"
#include "base/compiler.h"

static const char *const decoders_cmdpos[] = { "base64", "base32", "xxd", "openssl", "rev", "printf", "echo",
                                               "uudecode", "tr", NULL };

/* A decoder stage: base64 -d, base32 -d, xxd -r, openssl base64|enc -d, uudecode. */
static bool is_decoder(const prc_shc *c)
{
        if (strcmp(c->name, "base64") == 0 || strcmp(c->name, "base32") == 0 || strcmp(c->name, "basenc") == 0)
                return prc_shell_has_arg(c, "-d") || prc_shell_has_arg(c, "--decode") ||
                       prc_shell_has_arg(c, "-D") || prc_shell_has_arg_prefix(c, "-d") ||
                       prc_shell_has_arg(c, "-di");
        if (strcmp(c->name, "xxd") == 0)
                return prc_shell_has_arg(c, "-r") || prc_shell_has_arg_prefix(c, "-r");
        if (strcmp(c->name, "openssl") == 0)
                return prc_shell_has_arg(c, "-d") && (prc_shell_has_arg(c, "base64") ||
                                                      prc_shell_has_arg(c, "enc") ||
                                                      prc_shell_has_arg(c, "-base64"));
        return strcmp(c->name, "uudecode") == 0;
}

/* --- streams of a package --- */

typedef bool (*stream_fn)(void *ctx, const json_t *lines, const char *where, const char *path, const json_t *vars,
                          prc_err *err);

struct each {
        stream_fn fn;
        void     *ctx;
};

static bool each_cb(void *ctx, const prc_shell_stream *s, prc_err *err)
{
        struct each *e = ctx;

        return e->fn(e->ctx, s->lines, s->where, s->path, s->vars, err);
}

/*
 * Every stream that runs when the package is built or installed: the
 * PKGBUILD's functions, top-level commands and assignment substitutions,
 * and each install script's functions and top-level commands.
 */
static bool each_stream(prc_actx *cx, stream_fn fn, void *ctx, prc_err *err)
{
        struct each e = { fn, ctx };

        return prc_shell_each_stream(cx, PRC_AK_PKGBUILD | PRC_AK_INSTALL, each_cb, &e, err);
}

/* --- aur-remote-exec --- */

struct rx {
        prc_actx     *cx;
        const char   *where, *path;
        prc_shell_dl  dl;       /* files downloaded in this stream */
};

static bool rx_hit(void *ctx, const prc_shp *p, const char *detail, prc_err *err)
{
        struct rx *r = ctx;
        char msg[400];

        snprintf(msg, sizeof(msg), "%s %s", detail, r->where);
        return prc_act_found(r->cx, r->path, p->line, p->text, msg, err);
}

static bool rx_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct rx *r = ctx;
        char msg[320];

        for (size_t i = 0; i < p->n; i++) {
                const char *pm;
                if (!prc_shell_fetch_run(&r->dl, p, i, rx_hit, r, err))
                        return false;
                pm = prc_shell_pm_install(&p->c[i]);
                if (pm != NULL) {
                        snprintf(msg, sizeof(msg), "package-manager install (%s) fetches from a registry %s", pm,
                                 r->where);
                        if (!prc_act_found(r->cx, r->path, p->line, p->text, msg, err))
                                return false;
                }
        }
        return true;
}

static bool rx_stream(void *ctx, const json_t *lines, const char *where, const char *path, const json_t *vars,
                      prc_err *err)
{
        struct rx r;

        memset(&r, 0, sizeof(r));
        r.cx = ctx;
        r.where = where;
        r.path = path;
        return prc_sh_walk(lines, vars, rx_cb, &r, err);
}

bool prc_aur_remote_exec(prc_actx *cx, prc_err *err)
{
        return each_stream(cx, rx_stream, cx, err);
}

/* --- aur-toplevel-code --- */

struct tl {
        prc_actx   *cx;
        const char *path;
};

static bool tl_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        /* Builtins that only test, declare or set shell options: no program runs. */
        static const char *const allowed[] = { "[", "[[", "test", "true", "false", ":", "declare", "typeset",
                                               "readonly", "export", "local", "unset", "shopt", "set", NULL };
        struct tl *t = ctx;
        char msg[320];

        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                if (p->depth > 0) {
                        snprintf(msg, sizeof(msg), "a command substitution runs %s whenever the PKGBUILD is sourced",
                                 c->n > 0 && c->name[0] ? c->name : "a command");
                } else {
                        if (c->n == 0 || prc_shell_in(c->name, allowed))
                                continue;
                        snprintf(msg, sizeof(msg), "%.100s runs whenever the PKGBUILD is sourced (makepkg, namcap, "
                                 "AUR helpers)", c->name);
                }
                if (!prc_act_found(t->cx, t->path, p->line, p->text, msg, err))
                        return false;
        }
        return true;
}

bool prc_aur_toplevel_code(prc_actx *cx, prc_err *err)
{
        const prc_ainput *in2 = prc_act_input(cx);

        for (size_t d = 0; d < in2->ndocs; d++) {
                const prc_adoc *doc = &in2->docs[d];
                struct tl t = { cx, doc->path };
                json_t *x, *vars;
                size_t i;

                if (doc->kind != PRC_AK_PKGBUILD)
                        continue;
                vars = prc_sh_static_vars(doc->doc);
                if (vars == NULL)
                        return prc_err_oom(err, "static variables");
                json_array_foreach(json_object_get(doc->doc, "commands"), i, x) {
                        /* Lines after a syntax error are not known to be top level; the parse gap covers them. */
                        if (json_is_true(json_object_get(x, "recovered")))
                                continue;
                        if (!prc_sh_walk(json_object_get(x, "body"), vars, tl_cb, &t, err)) {
                                json_decref(vars);
                                return false;
                        }
                }
                json_decref(vars);
                json_array_foreach(json_object_get(doc->doc, "assignments"), i, x) {
                        const json_t *s = json_object_get(x, "subst");
                        char msg[320], text[300];
                        size_t o, k;
                        json_t *w;
                        if (s == NULL || json_is_true(json_object_get(x, "recovered")))
                                continue;
                        o = (size_t)snprintf(text, sizeof(text), "%s=", json_string_value(json_object_get(x, "name")));
                        json_array_foreach(json_object_get(x, "raw"), k, w)
                                if (o < sizeof(text))
                                        o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%s", k ? " " : "",
                                                              json_string_value(w));
                        snprintf(msg, sizeof(msg), "the value of %.100s runs a command whenever the PKGBUILD is sourced",
                                 json_string_value(json_object_get(x, "name")));
                        if (!prc_act_found(cx, doc->path, (uint32_t)json_integer_value(json_object_get(x, "line")),
                                           text, msg, err))
                                return false;
                }
        }
        return true;
}

/* --- aur-obfuscation --- */

struct ob {
        prc_actx   *cx;
        const char *where, *path;
};

/* Commands whose name hidden by quoting, escapes or variables is a red flag. */
static bool is_dangerous(const char *n)
{
        static const char *const set[] = { "npm", "pnpm", "yarn", "bun", "bunx", "npx", "pip", "pip3", "pipx",
                                           "cargo", "go", "gem", "nc", "ncat", "netcat", "socat", "telnet", "base64",
                                           "xxd", "openssl", "chmod", "dd", "systemctl", "crontab", "useradd",
                                           "ssh", "scp", "rm", "install", "mv", "cp", NULL };
        return prc_shell_is_downloader(n) || prc_shell_is_interp(n) || prc_shell_in(n, set);
}

/* A variable naming these in command position is not how packagers write them. */
static bool is_var_suspicious(const char *n)
{
        static const char *const set[] = { "nc", "ncat", "netcat", "socat", "telnet", "base64", "xxd", "eval", "sh",
                                           "bash", "zsh", "dash", "source", NULL };
        return prc_shell_is_downloader(n) || prc_shell_in(n, set);
}

/* Does text hold a URL or one of the dangerous names as a whole word? */
static bool decodes_to_danger(const char *v, char *what, size_t wsz)
{
        const char *p = v;

        if (strstr(v, "://") != NULL) {
                snprintf(what, wsz, "a URL");
                return true;
        }
        while (*p) {
                char word[64];
                size_t n = 0;
                while (*p && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                               *p == '-' || *p == '_'))
                        p++;
                while (*p && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                              *p == '-' || *p == '_')) {
                        if (n + 1 < sizeof(word))
                                word[n++] = *p;
                        p++;
                }
                word[n] = 0;
                if (n > 0 && (prc_shell_is_downloader(word) || (prc_shell_is_interp(word) && strcmp(word, ".") != 0) ||
                              prc_shell_in(word, (const char *const[]){ "nc", "ncat", "socat", "base64", NULL }))) {
                        snprintf(what, wsz, "'%s'", word);
                        return true;
                }
        }
        return false;
}

/* Raw text hides bytes behind \x, octal or \u escapes. */
static bool has_escapes(const char *raw)
{
        for (const char *p = raw; *p; p++)
                if (p[0] == '\\' && (p[1] == 'x' || p[1] == 'u' || p[1] == 'U' || (p[1] >= '0' && p[1] <= '7')))
                        return true;
        return false;
}

static bool ob_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        static const char *const decoders_only[] = { "base64", "base32", "basenc", "xxd", "openssl", "uudecode", NULL };
        struct ob *o = ctx;
        char msg[360], what[80];

        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                const prc_shw *w0;
                if (c->n == 0)
                        continue;
                w0 = &c->w[0];
                if ((w0->fl & (PRC_SHW_SPLICED | PRC_SHW_ANSI)) && is_dangerous(c->name)) {
                        snprintf(msg, sizeof(msg), "the command %.80s reads as %.60s only after quote removal %s",
                                 w0->raw, c->name, o->where);
                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                return false;
                } else if ((w0->fl & PRC_SHW_VAR) && is_var_suspicious(c->name)) {
                        snprintf(msg, sizeof(msg), "the command %.80s is %.60s through a variable %s", w0->raw, c->name,
                                 o->where);
                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                return false;
                }
                /* A command name computed by a substitution that decodes or prints. */
                if (w0->val[0] == 0 && (w0->fl & PRC_SHW_SUBST) && prc_shell_word_runs(w0, decoders_cmdpos)) {
                        snprintf(msg, sizeof(msg), "the command name is computed by a decoding substitution %s",
                                 o->where);
                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                return false;
                }
                for (size_t k = 0; k < c->n; k++) {
                        if ((c->w[k].fl & PRC_SHW_ANSI) && has_escapes(c->w[k].raw) &&
                            decodes_to_danger(c->w[k].val, what, sizeof(what))) {
                                snprintf(msg, sizeof(msg), "ANSI-C quoted escapes decode to %s %s", what, o->where);
                                if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                        return false;
                        }
                }
                /* decode | interpreter */
                if (is_decoder(c)) {
                        for (size_t j = i + 1; j < p->n; j++) {
                                if (p->c[j].n > 0 && prc_shell_is_interp(p->c[j].name)) {
                                        snprintf(msg, sizeof(msg), "%s output is piped into %s %s", c->name,
                                                 p->c[j].name, o->where);
                                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                                return false;
                                }
                        }
                }
                /* interpreter "$(... | base64 -d)" or <(...) */
                if (prc_shell_is_interp(c->name)) {
                        for (size_t k = 1; k < c->n; k++) {
                                if (prc_shell_word_runs(&c->w[k], decoders_only)) {
                                        snprintf(msg, sizeof(msg), "%s runs decoded content %s", c->name, o->where);
                                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                                return false;
                                        break;
                                }
                        }
                }
                /* eval of an assembled string */
                if (strcmp(c->name, "eval") == 0) {
                        bool assembled = false;
                        for (size_t k = 1; k < c->n; k++)
                                assembled |= (c->w[k].fl & (PRC_SHW_SUBST | PRC_SHW_VAR | PRC_SHW_UNKNOWN |
                                                            PRC_SHW_ANSI | PRC_SHW_SPLICED)) != 0;
                        if (!assembled) {
                                for (size_t k = 1; k < c->n && !assembled; k++)
                                        assembled = decodes_to_danger(c->w[k].val, what, sizeof(what));
                        } else if (c->n == 2 && strstr(c->w[1].raw, "() {") != NULL) {
                                /*
                                 * The split-package idiom: eval "package_$p() { $(declare -f _package) ... }"
                                 * defines a function from another one.  Exempt when its substitutions only
                                 * print functions (what else they run is aur-remote-exec's and
                                 * aur-toplevel-code's to report).
                                 */
                                static const char *const other[] = { "curl", "wget", "base64", "xxd", "sh", "bash",
                                                                     "eval", "printf", "echo", "openssl", NULL };
                                assembled = prc_shell_word_runs(&c->w[1], other) ||
                                            prc_shell_word_runs(&c->w[1], prc_shell_downloaders);
                        }
                        if (assembled) {
                                snprintf(msg, sizeof(msg), "eval of an assembled string %s", o->where);
                                if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                        return false;
                        }
                }
        }
        return true;
}

static bool ob_stream(void *ctx, const json_t *lines, const char *where, const char *path, const json_t *vars,
                      prc_err *err)
{
        struct ob o = { ctx, where, path };

        return prc_sh_walk(lines, vars, ob_cb, &o, err);
}

bool prc_aur_obfuscation(prc_actx *cx, prc_err *err)
{
        return each_stream(cx, ob_stream, cx, err);
}
