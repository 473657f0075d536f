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
#include "base/compiler.h"

static const char *const downloaders[] = { "curl", "wget", "fetch", "aria2c", "axel", "lwp-download", "lwp-request",
                                           "GET", "xh", "curlie", "http", "https", NULL };
static const char *const decoders_cmdpos[] = { "base64", "base32", "xxd", "openssl", "rev", "printf", "echo",
                                               "uudecode", "tr", NULL };

static bool in(const char *name, const char *const *set)
{
        for (size_t i = 0; set[i] != NULL; i++)
                if (strcmp(name, set[i]) == 0)
                        return true;
        return false;
}

static bool is_downloader(const char *n)
{
        return in(n, downloaders);
}

/* Programs that run code they are given (on stdin, with -c, or as a file). */
static bool is_interp(const char *n)
{
        static const char *const set[] = { "sh", "bash", "zsh", "dash", "ksh", "mksh", "yash", "fish", "csh", "tcsh",
                                           "source", ".", "eval", "perl", "ruby", "node", "nodejs", "php", "lua",
                                           "pwsh", "deno", "bun", "osascript", NULL };
        return in(n, set) || strncmp(n, "python", 6) == 0 || strncmp(n, "perl5", 5) == 0 ||
               strncmp(n, "ruby", 4) == 0 || strncmp(n, "php", 3) == 0 || strncmp(n, "lua", 3) == 0;
}

static bool has_arg(const prc_shc *c, const char *a)
{
        for (size_t k = 1; k < c->n; k++)
                if (strcmp(c->w[k].val, a) == 0)
                        return true;
        return false;
}

static bool has_arg_prefix(const prc_shc *c, const char *a)
{
        for (size_t k = 1; k < c->n; k++)
                if (strncmp(c->w[k].val, a, strlen(a)) == 0)
                        return true;
        return false;
}

/* A decoder stage: base64 -d, base32 -d, xxd -r, openssl base64|enc -d, uudecode. */
static bool is_decoder(const prc_shc *c)
{
        if (strcmp(c->name, "base64") == 0 || strcmp(c->name, "base32") == 0 || strcmp(c->name, "basenc") == 0)
                return has_arg(c, "-d") || has_arg(c, "--decode") || has_arg(c, "-D") || has_arg_prefix(c, "-d") ||
                       has_arg(c, "-di");
        if (strcmp(c->name, "xxd") == 0)
                return has_arg(c, "-r") || has_arg_prefix(c, "-r");
        if (strcmp(c->name, "openssl") == 0)
                return has_arg(c, "-d") && (has_arg(c, "base64") || has_arg(c, "enc") || has_arg(c, "-base64"));
        return strcmp(c->name, "uudecode") == 0;
}

/* The substitution entries of word w, as an array of lines (new reference), or NULL when it has none. */
static json_t *word_subst(const prc_shw *w)
{
        json_t *arr;

        if (w->subst == NULL || w->s1 <= w->s0)
                return NULL;
        arr = json_array();
        for (size_t k = w->s0; arr != NULL && k < w->s1 && k < json_array_size(w->subst); k++)
                json_array_append(arr, json_array_get(w->subst, k));
        return arr;
}

static bool word_runs(const prc_shw *w, const char *const *names)
{
        json_t *s = word_subst(w);
        bool hit = s != NULL && prc_sh_mentions(s, names);

        json_decref(s);
        return hit;
}

/* --- streams of a package --- */

typedef bool (*stream_fn)(void *ctx, const json_t *lines, const char *where, const char *path, const json_t *vars,
                          prc_err *err);

/*
 * Every stream that runs when the package is built or installed: the
 * PKGBUILD's functions, top-level commands and assignment substitutions,
 * and each install script's functions and top-level commands.
 */
static bool each_stream(prc_actx *cx, stream_fn fn, void *ctx, prc_err *err)
{
        const prc_ainput *in = prc_act_input(cx);

        for (size_t d = 0; d < in->ndocs; d++) {
                const prc_adoc *doc = &in->docs[d];
                json_t *vars, *x;
                size_t i;
                char where[200];
                bool install = doc->kind == PRC_AK_INSTALL;

                if (doc->kind != PRC_AK_PKGBUILD && !install)
                        continue;
                vars = install ? json_object() : prc_sh_static_vars(doc->doc);
                if (vars == NULL)
                        return prc_err_oom(err, "static variables");
                json_array_foreach(json_object_get(doc->doc, "functions"), i, x) {
                        snprintf(where, sizeof(where), "%s %.100s()", install ? "in install hook" : "in",
                                 json_string_value(json_object_get(x, "name")));
                        if (!fn(ctx, json_object_get(x, "body"), where, doc->path, vars, err))
                                goto fail;
                }
                json_array_foreach(json_object_get(doc->doc, "commands"), i, x) {
                        bool rec = json_is_true(json_object_get(x, "recovered"));
                        snprintf(where, sizeof(where), "%s%s",
                                 install ? "at the top level of the install script" : "at the top level",
                                 rec ? " (in lines recovered after a syntax error)" : "");
                        if (!fn(ctx, json_object_get(x, "body"), where, doc->path, vars, err))
                                goto fail;
                }
                json_array_foreach(json_object_get(doc->doc, "assignments"), i, x) {
                        const json_t *s = json_object_get(x, "subst");
                        if (s == NULL)
                                continue;
                        snprintf(where, sizeof(where), "in the value of %.100s",
                                 json_string_value(json_object_get(x, "name")));
                        if (!fn(ctx, s, where, doc->path, vars, err))
                                goto fail;
                }
                json_decref(vars);
                continue;
fail:
                json_decref(vars);
                return false;
        }
        return true;
}

/* --- aur-remote-exec --- */

enum { PENDING_MAX = 16 };

struct rx {
        prc_actx   *cx;
        const char *where, *path;
        char        pending[PENDING_MAX][256];  /* basenames of files downloaded in this stream */
        size_t      npend;
};

static const char *base_name(const char *p)
{
        const char *b = strrchr(p, '/');
        return b != NULL && b[1] != 0 ? b + 1 : p;
}

static void pend(struct rx *r, const char *file)
{
        const char *b = base_name(file);

        if (b[0] == 0 || strcmp(b, "-") == 0 || strcmp(b, "/dev/null") == 0 || r->npend >= PENDING_MAX)
                return;
        snprintf(r->pending[r->npend++], sizeof(r->pending[0]), "%s", b);
}

/* The file a downloader writes, from its options (curl -o/-O, wget -O/default), into r's pending list. */
static void note_download(struct rx *r, const prc_shc *c)
{
        const char *url = NULL, *out = NULL;
        bool remote_name = false, to_stdout = strcmp(c->name, "curl") == 0;

        for (size_t k = 1; k < c->n; k++) {
                const char *v = c->w[k].val;
                if (strstr(v, "://") != NULL && url == NULL)
                        url = v;
                if (strcmp(c->name, "curl") == 0) {
                        size_t l = strlen(v);
                        if ((strcmp(v, "--output") == 0 || (v[0] == '-' && v[1] != '-' && l >= 2 && v[l - 1] == 'o')) &&
                            k + 1 < c->n)
                                out = c->w[k + 1].val;
                        else if (strncmp(v, "--output=", 9) == 0)
                                out = v + 9;
                        else if (strcmp(v, "--remote-name") == 0 || (v[0] == '-' && v[1] != '-' && l >= 2 &&
                                                                     v[l - 1] == 'O'))
                                remote_name = true;
                } else if (strcmp(c->name, "wget") == 0) {
                        if (strcmp(v, "-O") == 0 && k + 1 < c->n)
                                out = c->w[k + 1].val;
                        else if (strncmp(v, "-O", 2) == 0 && v[2] != 0)
                                out = v + 2;
                        else if (strncmp(v, "--output-document=", 18) == 0)
                                out = v + 18;
                }
        }
        if (strcmp(c->name, "wget") == 0 && out == NULL)
                remote_name = true;
        if (out != NULL && strcmp(out, "-") != 0)
                pend(r, out);
        else if (remote_name && url != NULL)
                pend(r, url);
        else if (c->out_file != NULL && to_stdout)
                pend(r, c->out_file);
        if (c->out_file != NULL && !to_stdout && out != NULL && strcmp(out, "-") == 0)
                pend(r, c->out_file);
}

/* Does c run a file of the pending list? */
static const char *runs_pending(const struct rx *r, const prc_shc *c)
{
        for (size_t p = 0; p < r->npend; p++) {
                if (strcmp(c->name, r->pending[p]) == 0)
                        return r->pending[p];
                if (!is_interp(c->name))
                        continue;
                for (size_t k = 1; k < c->n; k++)
                        if (c->w[k].val[0] != '-' && strcmp(base_name(c->w[k].val), r->pending[p]) == 0)
                                return r->pending[p];
        }
        return NULL;
}

/* A content digest or signature check: it vouches for what was downloaded before it. */
static bool is_check(const prc_shc *c)
{
        static const char *const sums[] = { "sha256sum", "sha512sum", "sha384sum", "sha224sum", "sha1sum", "b2sum",
                                            "md5sum", "shasum", "cksum", NULL };
        if (in(c->name, sums))
                return has_arg(c, "-c") || has_arg(c, "--check") || has_arg_prefix(c, "--check=");
        if (strcmp(c->name, "gpg") == 0 || strcmp(c->name, "gpg2") == 0)
                return has_arg(c, "--verify");
        return strcmp(c->name, "gpgv") == 0 || strcmp(c->name, "minisign") == 0 || strcmp(c->name, "signify") == 0 ||
               strcmp(c->name, "cosign") == 0;
}

/* First non-option argument at or after k, or NULL. */
static const char *operand(const prc_shc *c, size_t k, size_t *at)
{
        for (; k < c->n; k++) {
                if (c->w[k].val[0] != '-') {
                        if (at != NULL)
                                *at = k;
                        return c->w[k].val;
                }
        }
        return NULL;
}

static bool only_local_args(const prc_shc *c, size_t from)
{
        bool any = false;

        for (size_t k = from; k < c->n; k++) {
                const char *v = c->w[k].val;
                size_t l = strlen(v);
                if (v[0] == '-' || v[0] == 0)
                        continue;
                any = true;
                if (!(strchr(v, '/') != NULL || v[0] == '.' || (c->w[k].fl & PRC_SHW_UNKNOWN) ||
                      (l > 4 && strcmp(v + l - 4, ".whl") == 0) || (l > 7 && strcmp(v + l - 7, ".tar.gz") == 0) ||
                      (l > 4 && strcmp(v + l - 4, ".zip") == 0) || (l > 4 && strcmp(v + l - 4, ".gem") == 0) ||
                      (l > 4 && strcmp(v + l - 4, ".tgz") == 0) || strchr(v, '*') != NULL))
                        return false;
        }
        return any;
}

/*
 * A package-manager install that fetches from a registry at build time
 * (docs/analyses.md lists what is and is not one).  Returns a short label or NULL.
 */
static const char *pm_install(const prc_shc *c)
{
        const char *n = c->name, *sub;
        size_t at = 0;

        if (c->n == 0)
                return NULL;
        if (strcmp(n, "npx") == 0 || strcmp(n, "bunx") == 0 || strcmp(n, "pnpx") == 0)
                return n;
        if (strcmp(n, "npm") == 0 || strcmp(n, "pnpm") == 0 || strcmp(n, "yarn") == 0 || strcmp(n, "bun") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL)
                        return strcmp(n, "yarn") == 0 && !has_arg(c, "--frozen-lockfile") && !has_arg(c, "--immutable")
                                       ? "yarn (install)" : NULL;
                if (strcmp(sub, "global") == 0)
                        sub = operand(c, at + 1, &at);
                if (sub == NULL)
                        return NULL;
                if (strcmp(sub, "add") == 0 || strcmp(sub, "dlx") == 0 || strcmp(sub, "x") == 0 ||
                    strcmp(sub, "update") == 0 || strcmp(sub, "up") == 0 || strcmp(sub, "upgrade") == 0)
                        return n;
                /* npm exec fetches what is not installed (as npx does); pnpm and yarn exec run local bins. */
                if (strcmp(sub, "exec") == 0 && strcmp(n, "npm") == 0)
                        return n;
                if (strcmp(sub, "install") == 0 || strcmp(sub, "i") == 0 || strcmp(sub, "isntall") == 0) {
                        if (has_arg(c, "--frozen-lockfile") || has_arg(c, "--immutable") || has_arg(c, "--offline"))
                                return NULL;
                        return n;
                }
                return NULL;
        }
        if (strncmp(n, "pip", 3) == 0 || strcmp(n, "pipx") == 0 || strcmp(n, "uv") == 0 ||
            (strncmp(n, "python", 6) == 0 && has_arg(c, "-m") && has_arg(c, "pip"))) {
                size_t from = 1;
                if (strncmp(n, "python", 6) == 0) {
                        for (size_t k = 1; k + 1 < c->n; k++)
                                if (strcmp(c->w[k].val, "pip") == 0)
                                        from = k + 1;
                } else if (strcmp(n, "uv") == 0) {
                        sub = operand(c, 1, &at);
                        if (sub == NULL || (strcmp(sub, "pip") != 0 && strcmp(sub, "tool") != 0))
                                return NULL;
                        from = at + 1;
                } else if (strcmp(n, "pip") != 0 && strcmp(n, "pipx") != 0 && strncmp(n, "pip3", 4) != 0 &&
                           strncmp(n, "pip2", 4) != 0) {
                        return NULL;
                }
                sub = operand(c, from, &at);
                if (sub == NULL || strcmp(sub, "install") != 0)
                        return NULL;
                if (has_arg(c, "--no-index") || (has_arg(c, "--no-deps") && only_local_args(c, at + 1)))
                        return NULL;
                return "pip install";
        }
        if (strcmp(n, "cargo") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL || strcmp(sub, "install") != 0)
                        return NULL;
                if (has_arg(c, "--path") || has_arg_prefix(c, "--path=") || has_arg(c, "--offline"))
                        return NULL;
                return "cargo install";
        }
        if (strcmp(n, "go") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL)
                        return NULL;
                if (strcmp(sub, "get") == 0)
                        return "go get";
                if (strcmp(sub, "install") == 0) {
                        for (size_t k = at + 1; k < c->n; k++)
                                if (strchr(c->w[k].val, '@') != NULL)
                                        return "go install";
                }
                return NULL;
        }
        if (strcmp(n, "gem") == 0) {
                sub = operand(c, 1, &at);
                /* A .gem from source= installed without its dependencies fetches nothing. */
                if (sub != NULL && strcmp(sub, "install") == 0 && !has_arg(c, "--local") && !has_arg(c, "-l") &&
                    !(has_arg(c, "--ignore-dependencies") && only_local_args(c, at + 1)))
                        return "gem install";
        }
        return NULL;
}

static bool rx_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct rx *r = ctx;
        char msg[320];

        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                const char *pm, *f;
                if (c->n == 0)
                        continue;
                if (is_check(c))
                        r->npend = 0;
                /* fetch | interpreter */
                if (is_downloader(c->name)) {
                        for (size_t j = i + 1; j < p->n; j++) {
                                if (p->c[j].n > 0 && is_interp(p->c[j].name)) {
                                        snprintf(msg, sizeof(msg), "%s piped into %s %s", c->name, p->c[j].name,
                                                 r->where);
                                        if (!prc_act_found(r->cx, r->path, p->line, p->text, msg, err))
                                                return false;
                                }
                        }
                        note_download(r, c);
                }
                /* interpreter "$(fetch)" / <(fetch), or a command name that is the output of a fetch */
                for (size_t k = 0; k < c->n; k++) {
                        if ((k == 0 || is_interp(c->name)) && word_runs(&c->w[k], downloaders)) {
                                snprintf(msg, sizeof(msg), "%s runs downloaded content %s",
                                         k == 0 ? "a command substitution" : c->name, r->where);
                                if (!prc_act_found(r->cx, r->path, p->line, p->text, msg, err))
                                        return false;
                        }
                }
                f = runs_pending(r, c);
                if (f != NULL) {
                        snprintf(msg, sizeof(msg), "%s was downloaded and then run without a digest check %s", f,
                                 r->where);
                        if (!prc_act_found(r->cx, r->path, p->line, p->text, msg, err))
                                return false;
                }
                pm = pm_install(c);
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
                        if (c->n == 0 || in(c->name, allowed))
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
        return is_downloader(n) || is_interp(n) || in(n, set);
}

/* A variable naming these in command position is not how packagers write them. */
static bool is_var_suspicious(const char *n)
{
        static const char *const set[] = { "nc", "ncat", "netcat", "socat", "telnet", "base64", "xxd", "eval", "sh",
                                           "bash", "zsh", "dash", "source", NULL };
        return is_downloader(n) || in(n, set);
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
                if (n > 0 && (is_downloader(word) || (is_interp(word) && strcmp(word, ".") != 0) ||
                              in(word, (const char *const[]){ "nc", "ncat", "socat", "base64", NULL }))) {
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
                if (w0->val[0] == 0 && (w0->fl & PRC_SHW_SUBST) && word_runs(w0, decoders_cmdpos)) {
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
                                if (p->c[j].n > 0 && is_interp(p->c[j].name)) {
                                        snprintf(msg, sizeof(msg), "%s output is piped into %s %s", c->name,
                                                 p->c[j].name, o->where);
                                        if (!prc_act_found(o->cx, o->path, p->line, p->text, msg, err))
                                                return false;
                                }
                        }
                }
                /* interpreter "$(... | base64 -d)" or <(...) */
                if (is_interp(c->name)) {
                        for (size_t k = 1; k < c->n; k++) {
                                if (word_runs(&c->w[k], decoders_only)) {
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
                                assembled = word_runs(&c->w[1], other) || word_runs(&c->w[1], downloaders);
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
