/*
 * shell.c - the shell family's analyses, shell-download-exec and
 * shell-unpinned-install, over every shell text prc tokenizes, and the
 * decisions about shell commands they share with aur_shell.c (see shell.h;
 * docs/analyses.md gives each decision rule).
 * Trust: engine-side.  Works on checked token documents through the walk of
 * sh.h; nothing is evaluated, substitutions are read as the worker
 * tokenized them.
 */
#include "analysis/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gha.h"
#include "base/compiler.h"

const char *const prc_shell_downloaders[] = { "curl", "wget", "fetch", "aria2c", "axel", "lwp-download", "lwp-request",
                                              "GET", "xh", "curlie", "http", "https", "Invoke-WebRequest", "iwr",
                                              "Invoke-RestMethod", "irm", NULL };

bool prc_shell_in(const char *name, const char *const *set)
{
        for (size_t i = 0; set[i] != NULL; i++)
                if (name[0] == set[i][0] && strcmp(name, set[i]) == 0)
                        return true;
        return false;
}

bool prc_shell_is_downloader(const char *n)
{
        return prc_shell_in(n, prc_shell_downloaders);
}

bool prc_shell_is_interp(const char *n)
{
        static const char *const set[] = { "sh", "bash", "zsh", "dash", "ksh", "mksh", "yash", "fish", "csh", "tcsh",
                                           "source", ".", "eval", "perl", "ruby", "node", "nodejs", "php", "lua",
                                           "pwsh", "deno", "bun", "osascript", "iex", "Invoke-Expression", NULL };
        return prc_shell_in(n, set) || strncmp(n, "python", 6) == 0 || strncmp(n, "perl5", 5) == 0 ||
               strncmp(n, "ruby", 4) == 0 || strncmp(n, "php", 3) == 0 || strncmp(n, "lua", 3) == 0;
}

bool prc_shell_has_arg(const prc_shc *c, const char *a)
{
        for (size_t k = 1; k < c->n; k++)
                if (strcmp(c->w[k].val, a) == 0)
                        return true;
        return false;
}

bool prc_shell_has_arg_prefix(const prc_shc *c, const char *a)
{
        for (size_t k = 1; k < c->n; k++)
                if (strncmp(c->w[k].val, a, strlen(a)) == 0)
                        return true;
        return false;
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

bool prc_shell_word_runs(const prc_shw *w, const char *const *names)
{
        json_t *s = word_subst(w);
        bool hit = s != NULL && prc_sh_mentions(s, names);

        json_decref(s);
        return hit;
}

bool prc_shell_is_check(const prc_shc *c)
{
        static const char *const sums[] = { "sha256sum", "sha512sum", "sha384sum", "sha224sum", "sha1sum", "b2sum",
                                            "md5sum", "shasum", "cksum", NULL };
        if (prc_shell_in(c->name, sums))
                return prc_shell_has_arg(c, "-c") || prc_shell_has_arg(c, "--check") ||
                       prc_shell_has_arg_prefix(c, "--check=");
        if (strcmp(c->name, "gpg") == 0 || strcmp(c->name, "gpg2") == 0)
                return prc_shell_has_arg(c, "--verify");
        return strcmp(c->name, "gpgv") == 0 || strcmp(c->name, "minisign") == 0 || strcmp(c->name, "signify") == 0 ||
               strcmp(c->name, "cosign") == 0;
}

/* --- package managers --- */

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

static bool ends_with(const char *v, const char *suf)
{
        size_t l = strlen(v), s = strlen(suf);
        return l > s && strcmp(v + l - s, suf) == 0;
}

/* A local path, archive or wheel, or a value prc cannot see (aur-remote-exec's leniency). */
static bool local_arg(const prc_shw *w)
{
        const char *v = w->val;

        return strchr(v, '/') != NULL || v[0] == '.' || (w->fl & PRC_SHW_UNKNOWN) ||
               ends_with(v, ".whl") || ends_with(v, ".tar.gz") || ends_with(v, ".zip") || ends_with(v, ".gem") ||
               ends_with(v, ".tgz") || strchr(v, '*') != NULL;
}

static bool only_local_args(const prc_shc *c, size_t from)
{
        bool any = false;

        for (size_t k = from; k < c->n; k++) {
                const char *v = c->w[k].val;
                if (v[0] == '-' || v[0] == 0)
                        continue;
                any = true;
                if (!local_arg(&c->w[k]))
                        return false;
        }
        return any;
}

/* For a pip-like command: the index of the word after "pip" ("install" is looked for from there), or 0. */
static size_t pip_from(const prc_shc *c)
{
        const char *n = c->name, *sub;
        size_t at = 0;

        if (strncmp(n, "python", 6) == 0) {
                for (size_t k = 1; k + 1 < c->n; k++)
                        if (strcmp(c->w[k].val, "-m") == 0 && strcmp(c->w[k + 1].val, "pip") == 0)
                                return k + 2;
                return 0;
        }
        if (strcmp(n, "uv") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL || (strcmp(sub, "pip") != 0 && strcmp(sub, "tool") != 0))
                        return 0;
                return at + 1;
        }
        if (strcmp(n, "pip") == 0 || strcmp(n, "pipx") == 0 || strncmp(n, "pip3", 4) == 0 || strncmp(n, "pip2", 4) == 0)
                return 1;
        return 0;
}

const char *prc_shell_pm_install(const prc_shc *c)
{
        const char *n = c->name, *sub;
        size_t at = 0, from;

        if (c->n == 0)
                return NULL;
        if (strcmp(n, "npx") == 0 || strcmp(n, "bunx") == 0 || strcmp(n, "pnpx") == 0)
                return n;
        if (strcmp(n, "npm") == 0 || strcmp(n, "pnpm") == 0 || strcmp(n, "yarn") == 0 || strcmp(n, "bun") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL)
                        return strcmp(n, "yarn") == 0 && !prc_shell_has_arg(c, "--frozen-lockfile") &&
                                               !prc_shell_has_arg(c, "--immutable")
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
                        if (prc_shell_has_arg(c, "--frozen-lockfile") || prc_shell_has_arg(c, "--immutable") ||
                            prc_shell_has_arg(c, "--offline"))
                                return NULL;
                        return n;
                }
                return NULL;
        }
        if (strncmp(n, "pip", 3) == 0 || strcmp(n, "uv") == 0 || strncmp(n, "python", 6) == 0) {
                from = pip_from(c);
                if (from == 0)
                        return NULL;
                sub = operand(c, from, &at);
                if (sub == NULL || strcmp(sub, "install") != 0)
                        return NULL;
                if (prc_shell_has_arg(c, "--no-index") ||
                    (prc_shell_has_arg(c, "--no-deps") && only_local_args(c, at + 1)))
                        return NULL;
                return "pip install";
        }
        if (strcmp(n, "cargo") == 0) {
                sub = operand(c, 1, &at);
                if (sub == NULL || strcmp(sub, "install") != 0)
                        return NULL;
                if (prc_shell_has_arg(c, "--path") || prc_shell_has_arg_prefix(c, "--path=") ||
                    prc_shell_has_arg(c, "--offline"))
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
                if (sub != NULL && strcmp(sub, "install") == 0 && !prc_shell_has_arg(c, "--local") &&
                    !prc_shell_has_arg(c, "-l") &&
                    !(prc_shell_has_arg(c, "--ignore-dependencies") && only_local_args(c, at + 1)))
                        return "gem install";
        }
        return NULL;
}

/* --- shell-unpinned-install's decision --- */

static bool is_hex(const char *v, size_t n)
{
        size_t i;

        for (i = 0; v[i] != 0; i++)
                if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f') || (v[i] >= 'A' && v[i] <= 'F')))
                        return false;
        return i == n;
}

/* An exact Go module version: vMAJOR.MINOR.PATCH (pseudo-versions and pre-releases included) or a full commit. */
static bool go_exact(const char *v)
{
        int dots = 0;

        if (is_hex(v, 40))
                return true;
        if (v[0] != 'v' || v[1] < '0' || v[1] > '9')
                return false;
        for (const char *p = v + 1; *p && *p != '-' && *p != '+'; p++) {
                if (*p == '.')
                        dots++;
                else if (*p < '0' || *p > '9')
                        return false;
        }
        return dots == 2;
}

/* Does option word v of a pip command take the next word as its value? */
static bool pip_opt_takes_value(const char *v)
{
        static const char *const opts[] = { "-r", "--requirement", "-c", "--constraint", "-i", "--index-url",
                                            "--extra-index-url", "-t", "--target", "--prefix", "--root", "-f",
                                            "--find-links", "--trusted-host", "--python-version", "--platform",
                                            "--upgrade-strategy", "--cache-dir", "--log", "--src", "--implementation",
                                            "--abi", "--python", "-p", "--progress-bar", "--only-binary",
                                            "--no-binary", "--config-settings", "-C", "--global-option", "--group",
                                            NULL };
        return prc_shell_in(v, opts);
}

/* An editable or direct operand that is the project itself or another local tree. */
static bool local_path(const char *v)
{
        return v[0] == '.' || v[0] == '/' || v[0] == '~' || (strchr(v, '/') != NULL && strstr(v, "://") == NULL &&
                                                             strchr(v, '@') == NULL) ||
               ((ends_with(v, ".whl") || ends_with(v, ".tar.gz") || ends_with(v, ".zip")) && strstr(v, "://") == NULL);
}

/* A VCS requirement pinned to a full commit: git+https://host/o/r.git@<40 hex>[#egg=...]. */
static bool vcs_commit(const char *v)
{
        const char *scheme = strstr(v, "://"), *at = strrchr(v, '@');
        size_t n = 0;

        if (scheme == NULL || at == NULL || at < scheme)
                return false;
        for (at++; (at[n] >= '0' && at[n] <= '9') || (at[n] >= 'a' && at[n] <= 'f') || (at[n] >= 'A' && at[n] <= 'F');
             n++)
                ;
        return n == 40 && (at[n] == 0 || at[n] == '#');
}

static const char *pip_unpinned(const prc_shc *c, size_t from, bool hashless_tool)
{
        size_t at = 0;
        const char *sub = operand(c, from, &at), *reqfile = NULL;

        if (sub == NULL || strcmp(sub, "install") != 0)
                return NULL;
        if (prc_shell_has_arg(c, "--require-hashes"))
                return NULL;
        for (size_t k = at + 1; k < c->n; k++) {
                const char *v = c->w[k].val;
                if (strcmp(v, "-e") == 0 || strcmp(v, "--editable") == 0) {
                        /*
                         * The project itself (-e .): what it depends on is the project's own declaration.  A
                         * remote source is pinned only at a full commit and without its dependencies.
                         */
                        if (k + 1 < c->n && !local_path(c->w[k + 1].val) &&
                            !(vcs_commit(c->w[k + 1].val) && prc_shell_has_arg(c, "--no-deps")))
                                return "an editable install from a remote source without --require-hashes";
                        k++;
                        continue;
                }
                if ((strcmp(v, "-r") == 0 || strcmp(v, "--requirement") == 0) && k + 1 < c->n) {
                        reqfile = c->w[++k].val;
                        continue;
                }
                if (strncmp(v, "-r", 2) == 0 && v[2] != 0 && v[2] != '-') {
                        reqfile = v + 2;
                        continue;
                }
                if (strncmp(v, "--requirement=", 14) == 0) {
                        reqfile = v + 14;
                        continue;
                }
                if (v[0] == '-') {
                        if (pip_opt_takes_value(v))
                                k++;
                        continue;
                }
                if (v[0] == 0 || (c->w[k].fl & PRC_SHW_UNKNOWN) || local_path(v))
                        continue;
                if (hashless_tool) {
                        if (strstr(v, "==") == NULL)
                                return "a tool installed without an exact == version";
                        continue;
                }
                return strstr(v, "==") != NULL ? "an == pin without --require-hashes (no hash is checked)"
                                               : "a package without an == pin and --require-hashes";
        }
        if (reqfile != NULL && !hashless_tool)
                return "a requirements file without --require-hashes";
        return NULL;
}

static const char *node_unpinned(const prc_shc *c, unsigned env)
{
        const char *n = c->name, *sub;
        size_t at = 0;
        bool frozen = prc_shell_has_arg(c, "--frozen-lockfile") || prc_shell_has_arg(c, "--immutable");
        /* Yarn 2+ and pnpm turn immutable installs on by themselves when CI is set, as GitHub's runners set it. */
        bool ci_frozen = (env & PRC_SHELL_CI) &&
                         (strcmp(n, "pnpm") == 0 || (strcmp(n, "yarn") == 0 && (env & PRC_SHELL_YARN_BERRY)));

        sub = operand(c, 1, &at);
        if (sub != NULL && strcmp(sub, "global") == 0)
                sub = operand(c, at + 1, &at);
        if (sub == NULL)
                return strcmp(n, "yarn") == 0 && !frozen && !ci_frozen ? "yarn without --frozen-lockfile or --immutable"
                                                                       : NULL;
        if (strcmp(sub, "add") == 0 || strcmp(sub, "update") == 0 || strcmp(sub, "up") == 0 ||
            strcmp(sub, "upgrade") == 0)
                return "a package added or updated at build time (not from the lockfile)";
        if (strcmp(sub, "install") != 0 && strcmp(sub, "i") != 0 && strcmp(sub, "in") != 0 &&
            strcmp(sub, "isntall") != 0 && strcmp(sub, "install-test") != 0 && strcmp(sub, "it") != 0)
                return NULL;
        if (strcmp(n, "npm") == 0)
                return "npm install resolves afresh (npm ci installs the lockfile)";
        if (frozen || (ci_frozen && operand(c, at + 1, NULL) == NULL))
                return NULL;
        return strcmp(n, "yarn") == 0 ? "yarn install without --frozen-lockfile or --immutable"
                                      : "an install without --frozen-lockfile";
}

static const char *go_unpinned(const prc_shc *c)
{
        size_t at = 0;
        const char *sub = operand(c, 1, &at);

        if (sub == NULL || (strcmp(sub, "install") != 0 && strcmp(sub, "get") != 0))
                return NULL;
        for (size_t k = at + 1; k < c->n; k++) {
                const char *v = c->w[k].val, *ver, *slash;
                if (v[0] == '-' || v[0] == 0 || v[0] == '.' || v[0] == '/' || (c->w[k].fl & PRC_SHW_UNKNOWN))
                        continue;
                /* A module path's first element has a dot (github.com/...); std and local packages do not. */
                slash = strchr(v, '/');
                if (memchr(v, '.', slash != NULL ? (size_t)(slash - v) : strlen(v)) == NULL)
                        continue;
                ver = strrchr(v, '@');
                if (ver == NULL)
                        return "a module without a version (@latest is taken)";
                if (!go_exact(ver + 1))
                        return strcmp(ver + 1, "latest") == 0 ? "@latest" : "a module at a branch or a moving version";
        }
        return NULL;
}

static const char *gem_unpinned(const prc_shc *c)
{
        size_t at = 0;
        const char *sub = operand(c, 1, &at), *ver = NULL;
        bool named = false;

        if (sub == NULL || strcmp(sub, "install") != 0)
                return NULL;
        for (size_t k = at + 1; k < c->n; k++) {
                const char *v = c->w[k].val;
                if ((strcmp(v, "-v") == 0 || strcmp(v, "--version") == 0) && k + 1 < c->n) {
                        ver = c->w[++k].val;
                } else if (strncmp(v, "--version=", 10) == 0) {
                        ver = v + 10;
                } else if (strcmp(v, "-i") == 0 || strcmp(v, "--install-dir") == 0 || strcmp(v, "-n") == 0 ||
                           strcmp(v, "--bindir") == 0 || strcmp(v, "-s") == 0 || strcmp(v, "--source") == 0 ||
                           strcmp(v, "--platform") == 0) {
                        k++;
                } else if (v[0] != '-' && v[0] != 0 && !ends_with(v, ".gem") && !(c->w[k].fl & PRC_SHW_UNKNOWN)) {
                        /* name:version is gem's own pin syntax */
                        if (strchr(v, ':') == NULL)
                                named = true;
                }
        }
        if (!named)
                return NULL;
        if (ver == NULL)
                return "a gem without -v";
        if (ver[0] == '~' || ver[0] == '>' || ver[0] == '<')
                return "a gem with a version range";
        return NULL;
}

static const char *cargo_unpinned(const prc_shc *c)
{
        size_t at = 0;
        const char *sub = operand(c, 1, &at);
        bool path = prc_shell_has_arg(c, "--path") || prc_shell_has_arg_prefix(c, "--path=");
        bool git = prc_shell_has_arg(c, "--git") || prc_shell_has_arg_prefix(c, "--git=");
        bool version = prc_shell_has_arg(c, "--version") || prc_shell_has_arg_prefix(c, "--version=") ||
                       prc_shell_has_arg(c, "--vers");

        if (sub == NULL || strcmp(sub, "install") != 0)
                return NULL;
        if (!prc_shell_has_arg(c, "--locked"))
                return "cargo install without --locked (dependencies resolved afresh)";
        if (git && !prc_shell_has_arg(c, "--rev") && !prc_shell_has_arg_prefix(c, "--rev="))
                return "cargo install --git without --rev";
        if (!path && !git && !version) {
                for (size_t k = at + 1; k < c->n; k++)
                        if (c->w[k].val[0] != '-' && strchr(c->w[k].val, '@') != NULL)
                                return NULL;
                return "a crate without --version";
        }
        return NULL;
}

const char *prc_shell_unpinned(const prc_shc *c, unsigned env)
{
        const char *n = c->name;
        size_t from;

        if (c->n == 0)
                return NULL;
        if (strcmp(n, "npm") == 0 || strcmp(n, "pnpm") == 0 || strcmp(n, "yarn") == 0 || strcmp(n, "bun") == 0)
                return node_unpinned(c, env);
        if (strncmp(n, "pip", 3) == 0 || strcmp(n, "uv") == 0 || strncmp(n, "python", 6) == 0) {
                from = pip_from(c);
                if (from == 0)
                        return NULL;
                /* pipx and uv tool have no hash mode: an exact version is the pin they offer. */
                return pip_unpinned(c, from, strcmp(n, "pipx") == 0 ||
                                                     (strcmp(n, "uv") == 0 && strcmp(c->w[from - 1].val, "tool") == 0));
        }
        if (strcmp(n, "go") == 0)
                return go_unpinned(c);
        if (strcmp(n, "gem") == 0)
                return gem_unpinned(c);
        if (strcmp(n, "cargo") == 0)
                return cargo_unpinned(c);
        return NULL;
}

/* --- download-then-run tracking --- */

static const char *base_name(const char *p)
{
        const char *b = strrchr(p, '/');
        return b != NULL && b[1] != 0 ? b + 1 : p;
}

static void pend(prc_shell_dl *dl, const char *file)
{
        const char *b = base_name(file);

        if (b[0] == 0 || strcmp(b, "-") == 0 || strcmp(b, "/dev/null") == 0 || dl->npend >= PRC_SHELL_PENDING_MAX)
                return;
        snprintf(dl->pending[dl->npend++], sizeof(dl->pending[0]), "%s", b);
}

/* The file a downloader writes, from its options (curl -o/-O, wget -O/default), into the pending list. */
static void note_download(prc_shell_dl *dl, const prc_shc *c)
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
                pend(dl, out);
        else if (remote_name && url != NULL)
                pend(dl, url);
        else if (c->out_file != NULL && to_stdout)
                pend(dl, c->out_file);
        if (c->out_file != NULL && !to_stdout && out != NULL && strcmp(out, "-") == 0)
                pend(dl, c->out_file);
}

/*
 * Does c run a file of the pending list: as the command, or as the script an
 * interpreter is given (its first operand: `node build.js data.json` runs
 * build.js, not the data)?
 */
static const char *runs_pending(const prc_shell_dl *dl, const prc_shc *c)
{
        const char *script = NULL;

        if (prc_shell_is_interp(c->name))
                script = operand(c, 1, NULL);
        for (size_t p = 0; p < dl->npend; p++) {
                if (strcmp(c->name, dl->pending[p]) == 0)
                        return dl->pending[p];
                if (script != NULL && strcmp(base_name(script), dl->pending[p]) == 0)
                        return dl->pending[p];
        }
        return NULL;
}

bool prc_shell_fetch_run(prc_shell_dl *dl, const prc_shp *p, size_t i, prc_shell_hit_fn hit, void *ctx, prc_err *err)
{
        const prc_shc *c = &p->c[i];
        const char *f;
        char msg[320];

        if (c->n == 0)
                return true;
        if (prc_shell_is_check(c))
                dl->npend = 0;
        /* fetch | interpreter; fetch | tee FILE saves it too */
        if (prc_shell_is_downloader(c->name)) {
                for (size_t j = i + 1; j < p->n; j++) {
                        const prc_shc *d = &p->c[j];
                        if (d->n > 0 && prc_shell_is_interp(d->name)) {
                                snprintf(msg, sizeof(msg), "%s piped into %s", c->name, d->name);
                                if (!hit(ctx, p, msg, err))
                                        return false;
                        }
                        for (size_t k = 1; strcmp(d->name, "tee") == 0 && k < d->n; k++)
                                if (d->w[k].val[0] != '-')
                                        pend(dl, d->w[k].val);
                }
                note_download(dl, c);
        }
        /* interpreter "$(fetch)" / <(fetch), or a command name that is the output of a fetch */
        for (size_t k = 0; k < c->n; k++) {
                if ((k == 0 || prc_shell_is_interp(c->name)) && prc_shell_word_runs(&c->w[k], prc_shell_downloaders)) {
                        snprintf(msg, sizeof(msg), "%s runs downloaded content",
                                 k == 0 ? "a command substitution" : c->name);
                        if (!hit(ctx, p, msg, err))
                                return false;
                }
        }
        f = runs_pending(dl, c);
        if (f != NULL) {
                snprintf(msg, sizeof(msg), "%s was downloaded and then run without a digest check", f);
                if (!hit(ctx, p, msg, err))
                        return false;
        }
        return true;
}

/* --- streams --- */

/* A name for a place in a message ("?" when the document has none). */
static const char *name_of(const json_t *o, const char *key)
{
        const char *v = json_string_value(json_object_get(o, key));
        return v != NULL ? v : "?";
}

/*
 * The streams of one token document (a run: script, a RUN, a here-document
 * body): its functions one by one, its top-level commands as one stream
 * (one walk over the script, so an assignment reaches the lines after it),
 * its assignment substitutions.  s->new_scope is cleared once a stream was
 * handed to fn.
 */
static bool tokens_streams(const json_t *tokens, prc_shell_stream *s, prc_shell_stream_fn fn, void *ctx,
                           prc_err *err)
{
        json_t *all = json_array(), *x;
        size_t i;
        bool ok = true;

        if (all == NULL)
                return prc_err_oom(err, "a script's lines");
        json_array_foreach(json_object_get(tokens, "commands"), i, x) {
                const json_t *body = json_object_get(x, "body");
                if (json_is_array(body) && json_array_extend(all, (json_t *)body) != 0) {
                        json_decref(all);
                        return prc_err_oom(err, "a script's lines");
                }
        }
        json_array_foreach(json_object_get(tokens, "functions"), i, x) {
                s->lines = json_object_get(x, "body");
                if (!(ok = fn(ctx, s, err)))
                        goto out;
                s->new_scope = false;
        }
        if (json_array_size(all) > 0) {
                s->lines = all;
                if (!(ok = fn(ctx, s, err)))
                        goto out;
                s->new_scope = false;
        }
        json_array_foreach(json_object_get(tokens, "assignments"), i, x) {
                s->lines = json_object_get(x, "subst");
                if (s->lines == NULL)
                        continue;
                if (!(ok = fn(ctx, s, err)))
                        goto out;
                s->new_scope = false;
        }
out:
        s->lines = NULL;
        json_decref(all);
        return ok;
}

/* PKGBUILDs and install scripts: every function, top-level command and assignment substitution on its own. */
static bool pkgbuild_streams(prc_actx *cx, const prc_adoc *doc, prc_shell_stream_fn fn, void *ctx, prc_err *err)
{
        bool install = doc->kind == PRC_AK_INSTALL, ok = true;
        json_t *vars = install ? json_object() : prc_sh_static_vars(doc->doc), *x;
        prc_shell_stream s = { .path = doc->path, .new_scope = true, .kind = doc->kind };
        char where[200];
        size_t i;

        (void)cx;
        if (vars == NULL)
                return prc_err_oom(err, "static variables");
        s.vars = vars;
        s.where = where;
        json_array_foreach(json_object_get(doc->doc, "functions"), i, x) {
                snprintf(where, sizeof(where), "%s %.100s()", install ? "in install hook" : "in",
                         name_of(x, "name"));
                s.lines = json_object_get(x, "body");
                if (!(ok = fn(ctx, &s, err)))
                        goto out;
        }
        json_array_foreach(json_object_get(doc->doc, "commands"), i, x) {
                bool rec = json_is_true(json_object_get(x, "recovered"));
                snprintf(where, sizeof(where), "%s%s",
                         install ? "at the top level of the install script" : "at the top level",
                         rec ? " (in lines recovered after a syntax error)" : "");
                s.lines = json_object_get(x, "body");
                if (!(ok = fn(ctx, &s, err)))
                        goto out;
        }
        json_array_foreach(json_object_get(doc->doc, "assignments"), i, x) {
                s.lines = json_object_get(x, "subst");
                if (s.lines == NULL)
                        continue;
                snprintf(where, sizeof(where), "in the value of %.100s", name_of(x, "name"));
                if (!(ok = fn(ctx, &s, err)))
                        goto out;
        }
out:
        json_decref(vars);
        return ok;
}

/*
 * The tokens of a run: step or a RUN come inside a ManifestDoc, whose check
 * (mdoc_check.c) does not look into details: check them as sh.h checks a
 * PKGBUILD's before the walk reads them (a malformed one is not read, and
 * says so).  Returns false only on out-of-memory; *ok says whether to walk.
 */
static bool tokens_checked(prc_actx *cx, const json_t *tok, const char *path, uint32_t line, bool *ok, prc_err *err)
{
        prc_err ce;

        *ok = true;
        if (prc_act_tokens_known(cx, tok))
                return true;    /* another analysis of this run checked them */
        prc_err_init(&ce);
        *ok = prc_sh_check_tokens(tok, &ce);
        if (*ok) {
                prc_act_tokens_good(cx, tok);
                return true;
        }
        if (ce.cls == PRC_E_OUT_OF_MEMORY) {
                *err = ce;
                return false;
        }
        return prc_act_unresolved(cx, path, line, ce.msg, err);
}

/* A job's (or a composite action's) steps: one scope, each run: script in turn. */
static bool steps_streams(prc_actx *cx, const json_t *md, const json_t *steps, const char *job,
                          prc_shell_stream_fn fn, void *ctx, prc_err *err)
{
        const char *path = json_string_value(json_object_get(md, "path"));
        prc_shell_stream s = { .path = path, .new_scope = true, .kind = PRC_AK_WORKFLOW };
        char where[200];
        const json_t *st;
        size_t i;
        bool ok;

        s.where = where;
        json_array_foreach(steps, i, st) {
                const json_t *run = json_object_get(st, "run"), *tok;
                if (!json_is_object(run))
                        continue;
                tok = json_object_get(run, "tokens");
                if (!json_is_object(tok)) {
                        if (!prc_act_unresolved(cx, path, prc_gha_line(run),
                                                "a run: script prc does not tokenize (not a POSIX shell, or not "
                                                "valid shell: see not_extracted)", err))
                                return false;
                        continue;
                }
                if (!tokens_checked(cx, tok, path, prc_gha_line(run), &ok, err))
                        return false;
                if (!ok)
                        continue;
                if (job != NULL)
                        snprintf(where, sizeof(where), "in job %.80s, step %zu", job, i + 1);
                else
                        snprintf(where, sizeof(where), "in the action's step %zu", i + 1);
                if (!tokens_streams(tok, &s, fn, ctx, err))
                        return false;
        }
        return true;
}

static bool workflow_streams(prc_actx *cx, const json_t *md, prc_shell_stream_fn fn, void *ctx, prc_err *err)
{
        const json_t *job;
        size_t i;

        if (!prc_gha_is_workflow(md))
                return steps_streams(cx, md, prc_gha_steps(md, NULL), NULL, fn, ctx, err);
        json_array_foreach(prc_gha_jobs(md), i, job) {
                if (!steps_streams(cx, md, prc_gha_steps(md, job), name_of(job, "id"), fn, ctx, err))
                        return false;
        }
        return true;
}

/*
 * An exec-form RUN's words as one line of tokens (new reference): plain words as they are, others
 * single-quoted, so the walk reads every word verbatim.
 */
static json_t *exec_lines(const json_t *exec, uint32_t line)
{
        static const char PLAIN[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";
        json_t *toks = json_array(), *l;
        const json_t *w;
        size_t i;

        if (toks == NULL)
                return NULL;
        json_array_foreach(exec, i, w) {
                const char *v = json_string_value(w);
                size_t n = strlen(v != NULL ? v : ""), o = 0;
                char *q = malloc(4 * n + 3);
                if (q == NULL)
                        goto oom;
                if (n > 0 && strspn(v, PLAIN) == n) {
                        free(q);
                        if (json_array_append_new(toks, json_string(v)) != 0)
                                goto oom;
                        continue;
                }
                q[o++] = '\'';
                for (size_t k = 0; k < n; k++) {
                        if (v[k] == '\'') {
                                memcpy(q + o, "'\\''", 4);
                                o += 4;
                        } else {
                                q[o++] = v[k];
                        }
                }
                q[o++] = '\'';
                q[o] = 0;
                if (json_array_append_new(toks, json_string(q)) != 0) {
                        free(q);
                        goto oom;
                }
                free(q);
        }
        l = json_pack("[{s:I,s:o}]", "line", (json_int_t)line, "tokens", toks);
        return l;
oom:
        json_decref(toks);
        return NULL;
}

/* Does a pipeline run a here-document as a script (a bare here-document, or one fed to a shell)? */
static bool is_shell_name(const char *n)
{
        static const char *const shells[] = { "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "source",
                                              ".", "eval", NULL };
        return prc_shell_in(n, shells);
}

static bool heredoc_script_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        bool *script = ctx;

        (void)err;
        for (size_t i = 0; i < p->n; i++)
                if (p->c[i].heredoc && (p->c[i].n == 0 || is_shell_name(p->c[i].name)))
                        *script = true;
        return true;
}

/* Is a here-document's shebang ("#!/bin/bash -e", "#!/usr/bin/env -S sh") a POSIX shell? */
static bool shebang_is_shell(const char *sb)
{
        const char *p = sb + 2;
        char w[128];

        for (;;) {
                const char *b;
                size_t n = 0;
                while (*p == ' ' || *p == '\t')
                        p++;
                while (*p && *p != ' ' && *p != '\t' && n + 1 < sizeof(w))
                        w[n++] = *p++;
                w[n] = 0;
                if (n == 0)
                        return false;
                b = strrchr(w, '/');
                b = b != NULL ? b + 1 : w;
                if (strcmp(b, "env") == 0 || w[0] == '-')
                        continue;       /* env [-S] NAME: the interpreter is the next word */
                return is_shell_name(b) && strcmp(b, "source") != 0 && strcmp(b, ".") != 0 && strcmp(b, "eval") != 0;
        }
}

/*
 * The here-documents a RUN runs as its script: each body with tokens is a
 * stream of the stage's scope; a body that does not tokenize is not read
 * (unsupported); one whose shebang names another interpreter is not shell.
 */
static bool heredoc_streams(prc_actx *cx, const json_t *in, prc_shell_stream *s, prc_shell_stream_fn fn, void *ctx,
                            prc_err *err)
{
        const json_t *tok = json_object_get(in, "tokens"), *h;
        bool script = false, ok;
        size_t i;

        for (size_t p = 0; p < 2; p++) {
                const json_t *x;
                size_t k;
                json_array_foreach(json_object_get(tok, p == 0 ? "commands" : "functions"), k, x)
                        if (!prc_sh_walk(json_object_get(x, "body"), NULL, heredoc_script_cb, &script, err))
                                return false;
        }
        if (!script)
                return true;
        json_array_foreach(json_object_get(in, "heredocs"), i, h) {
                const char *sb = json_string_value(json_object_get(h, "shebang"));
                const json_t *ht = json_object_get(h, "tokens");
                uint32_t line = prc_gha_line(h);
                if (sb != NULL && !shebang_is_shell(sb))
                        continue;
                if (!json_is_object(ht)) {
                        if (!prc_act_unresolved(cx, s->path, line, "a RUN here-document script does not tokenize as "
                                                "shell", err))
                                return false;
                        continue;
                }
                if (!tokens_checked(cx, ht, s->path, line, &ok, err))
                        return false;
                if (ok && !tokens_streams(ht, s, fn, ctx, err))
                        return false;
        }
        return true;
}

static bool dockerfile_streams(prc_actx *cx, const json_t *md, prc_shell_stream_fn fn, void *ctx, prc_err *err)
{
        const char *path = json_string_value(json_object_get(md, "path"));
        const json_t *stage, *in;
        size_t i, k;
        char where[200];
        bool ok;

        json_array_foreach(json_object_get(json_object_get(md, "details"), "stages"), i, stage) {
                prc_shell_stream s = { .path = path, .where = where, .new_scope = true, .kind = PRC_AK_DOCKERFILE };
                const char *name = json_string_value(json_object_get(stage, "name"));

                if (name != NULL)
                        snprintf(where, sizeof(where), "in RUN of stage %.100s", name);
                else
                        snprintf(where, sizeof(where), "in RUN of stage %zu", i);
                json_array_foreach(json_object_get(stage, "instructions"), k, in) {
                        const char *ins = json_string_value(json_object_get(in, "instruction"));
                        const char *form = json_string_value(json_object_get(in, "form"));
                        const json_t *tok = json_object_get(in, "tokens");
                        if (ins == NULL || strcmp(ins, "RUN") != 0)
                                continue;
                        if (form != NULL && strcmp(form, "exec") == 0) {
                                json_t *l = exec_lines(json_object_get(in, "exec"), prc_gha_line(in));
                                if (l == NULL)
                                        return prc_err_oom(err, "an exec-form RUN");
                                s.lines = l;
                                ok = fn(ctx, &s, err);
                                json_decref(l);
                                if (!ok)
                                        return false;
                                s.new_scope = false;
                                continue;
                        }
                        if (!json_is_object(tok)) {
                                if (!prc_act_unresolved(cx, path, prc_gha_line(in),
                                                        "a RUN prc does not tokenize (the stage's SHELL is not "
                                                        "POSIX, or not valid shell: see not_extracted)", err))
                                        return false;
                                continue;
                        }
                        if (!tokens_checked(cx, tok, path, prc_gha_line(in), &ok, err))
                                return false;
                        if (!ok)
                                continue;
                        s.heredocs_read = true;
                        if (!tokens_streams(tok, &s, fn, ctx, err) || !heredoc_streams(cx, in, &s, fn, ctx, err))
                                return false;
                        s.heredocs_read = false;
                }
        }
        return true;
}

bool prc_shell_each_stream(prc_actx *cx, unsigned kinds, prc_shell_stream_fn fn, void *ctx, prc_err *err)
{
        const prc_ainput *in = prc_act_input(cx);
        const json_t *md;

        for (size_t d = 0; d < in->ndocs; d++) {
                const prc_adoc *doc = &in->docs[d];
                if ((doc->kind & kinds & (PRC_AK_PKGBUILD | PRC_AK_INSTALL)) == 0)
                        continue;
                if (!pkgbuild_streams(cx, doc, fn, ctx, err))
                        return false;
        }
        for (size_t i = 0; (md = prc_act_mdoc(cx, kinds & (PRC_AK_WORKFLOW | PRC_AK_DOCKERFILE), &i)) != NULL; i++) {
                bool wf = prc_analysis_mdoc_kind(json_string_value(json_object_get(md, "ecosystem"))) ==
                          PRC_AK_WORKFLOW;
                if (!(wf ? workflow_streams(cx, md, fn, ctx, err) : dockerfile_streams(cx, md, fn, ctx, err)))
                        return false;
        }
        return true;
}

/* --- the analyses --- */

enum { ALL_SHELL = PRC_AK_WORKFLOW | PRC_AK_DOCKERFILE | PRC_AK_PKGBUILD | PRC_AK_INSTALL };

/*
 * A script the walk cannot read: a here-document or here-string fed to a
 * shell (bash <<EOF) in a workflow, PKGBUILD or install script, whose
 * tokenizer keeps such bodies as text, so what they run is unknown: report
 * it, never pass it.  (A Dockerfile RUN's here-documents are tokenized by
 * the extractor and read as streams: heredoc_streams.)
 */
static bool untokenized_script(prc_actx *cx, const prc_shell_stream *s, const prc_shp *p, prc_err *err)
{
        char why[200];

        if (s->heredocs_read)
                return true;    /* the RUN's here-documents were read as streams of their own */
        for (size_t i = 0; i < p->n; i++) {
                const prc_shc *c = &p->c[i];
                if (!c->heredoc || c->n == 0 || !is_shell_name(c->name))
                        continue;
                snprintf(why, sizeof(why), "a here-document run by %.40s is not tokenized %s", c->name, s->where);
                if (!prc_act_unresolved(cx, s->path, p->line, why, err))
                        return false;
        }
        return true;
}

struct dx {
        prc_actx               *cx;
        const prc_shell_stream *s;
        prc_shell_dl            dl;
};

static bool dx_hit(void *ctx, const prc_shp *p, const char *detail, prc_err *err)
{
        struct dx *d = ctx;
        char msg[400];

        snprintf(msg, sizeof(msg), "%s %s", detail, d->s->where);
        return prc_act_found(d->cx, d->s->path, p->line, p->text, msg, err);
}

static bool dx_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct dx *d = ctx;

        for (size_t i = 0; i < p->n; i++)
                if (!prc_shell_fetch_run(&d->dl, p, i, dx_hit, d, err))
                        return false;
        return untokenized_script(d->cx, d->s, p, err);
}

static bool dx_stream(void *ctx, const prc_shell_stream *s, prc_err *err)
{
        struct dx *d = ctx;

        if (s->new_scope)
                d->dl.npend = 0;
        d->s = s;
        return prc_sh_walk(s->lines, s->vars, dx_cb, d, err);
}

bool prc_shell_download_exec(prc_actx *cx, prc_err *err)
{
        struct dx *d = calloc(1, sizeof(*d));
        bool ok;

        if (d == NULL)
                return prc_err_oom(err, "shell-download-exec");
        d->cx = cx;
        ok = prc_shell_each_stream(cx, ALL_SHELL, dx_stream, d, err);
        free(d);
        return ok;
}

struct ux {
        prc_actx               *cx;
        const prc_shell_stream *s;
        unsigned                berry;  /* PRC_SHELL_YARN_BERRY or 0 */
};

/* Does the tree use Yarn 2+: a .yarnrc.yml anywhere, or a package.json whose packageManager is yarn@2 or later? */
static bool yarn_berry(const prc_actx *cx)
{
        const prc_ainput *in = prc_act_input(cx);
        const json_t *md;

        for (size_t i = 0; i < in->nfiles; i++) {
                const char *b = strrchr(in->files[i].path, '/');
                if (strcmp(b != NULL ? b + 1 : in->files[i].path, ".yarnrc.yml") == 0)
                        return true;
        }
        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                const char *pm = json_string_value(json_object_get(json_object_get(md, "details"), "package_manager"));
                if (pm != NULL && strncmp(pm, "yarn@", 5) == 0 && pm[5] >= '2' && pm[5] <= '9')
                        return true;
                if (pm != NULL && strncmp(pm, "yarn@", 5) == 0 && pm[5] == '1' && pm[6] >= '0' && pm[6] <= '9')
                        return true;    /* yarn@10 and later */
        }
        return false;
}

static bool ux_cb(void *ctx, const prc_shp *p, prc_err *err)
{
        struct ux *u = ctx;
        char msg[400];

        for (size_t i = 0; i < p->n; i++) {
                const char *why = prc_shell_unpinned(&p->c[i], (u->s->kind == PRC_AK_WORKFLOW ? PRC_SHELL_CI : 0) |
                                                                       u->berry);
                if (why == NULL)
                        continue;
                snprintf(msg, sizeof(msg), "%s: %s %s", p->c[i].name, why, u->s->where);
                if (!prc_act_found(u->cx, u->s->path, p->line, p->text, msg, err))
                        return false;
        }
        return untokenized_script(u->cx, u->s, p, err);
}

static bool ux_stream(void *ctx, const prc_shell_stream *s, prc_err *err)
{
        struct ux *u = ctx;

        u->s = s;
        return prc_sh_walk(s->lines, s->vars, ux_cb, u, err);
}

bool prc_shell_unpinned_install(prc_actx *cx, prc_err *err)
{
        struct ux u = { cx, NULL, yarn_berry(cx) ? PRC_SHELL_YARN_BERRY : 0 };

        return prc_shell_each_stream(cx, ALL_SHELL, ux_stream, &u, err);
}
