/*
 * pkgdiff.c - version diffs of AUR packages (see pkgdiff.h).
 * Trust: engine-side, over validated token documents.  Tokens are matched,
 * never run; a construct this file does not understand is not a change it
 * can vouch for, which is why the whole command compares what each version
 * shows (a new use of a command is flagged even when older ones are not).
 */
#include "engine/pkgdiff.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { WORD_MAX = 256, EXCERPT_MAX = 160, SUB_TOKENS_MAX = 256, DEPTH_MAX = 4 };

static const char *const net_cmds[] = { "curl", "wget", "aria2c", "axel", "nc", "ncat", "netcat", "socat",
                                        "telnet", "ftp", "tftp", "scp", "sftp", "rsync", "ssh", "lynx", "fetch",
                                        NULL };
static const char *const shell_cmds[] = { "sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "source", ".",
                                          "systemctl", "crontab", "at", "nohup", "setsid", "disown", NULL };
static const char *const interp_cmds[] = { "python", "python2", "python3", "perl", "ruby", "node", "php",
                                           "deno", NULL };
/* Command prefixes that run the next word: the word after them is the command. */
static const char *const prefixes[] = { "sudo", "doas", "env", "command", "builtin", "exec", "time", "nice",
                                        "xargs", "nohup", "setsid", "stdbuf", "timeout", NULL };
static const char *const seps[] = { "|", "||", "&&", ";", "&", "|&", "(", ")", "{", "}", "then", "do", "else",
                                    "elif", "if", "while", "until", "!", ";;", "fi", "done", "esac", NULL };

static bool in(const char *w, const char *const *list)
{
        for (size_t i = 0; list[i] != NULL; i++)
                if (strcmp(w, list[i]) == 0)
                        return true;
        return false;
}

/* Quotes and backslashes removed ('b''u''n' is bun), cut to cap - 1 bytes. */
static void dequote(const char *t, char *out, size_t cap)
{
        size_t o = 0;

        if (t[0] == '$' && t[1] == '\'')
                t++;
        for (; *t != '\0' && o + 1 < cap; t++)
                if (*t != '\'' && *t != '"' && *t != '\\')
                        out[o++] = *t;
        out[o] = '\0';
}

static const char *base_name(const char *w)
{
        const char *s = strrchr(w, '/');
        return s != NULL && s[1] != '\0' ? s + 1 : w;
}

static bool is_assignment(const char *w)
{
        const char *eq = strchr(w, '=');

        if (eq == NULL || eq == w || !(isalpha((unsigned char)w[0]) || w[0] == '_'))
                return false;
        for (const char *p = w; p < eq; p++)
                if (!(isalnum((unsigned char)*p) || *p == '_' || (*p == '+' && p + 1 == eq)))
                        return false;
        return true;
}

struct collect {
        json_t     *facts;      /* borrowed: facts->commands receives */
        const char *path;       /* borrowed */
        const char *scope;      /* borrowed */
        json_int_t  line;
        const char *excerpt;    /* borrowed */
        prc_err    *err;
        bool        ok;
};

static void note(struct collect *c, const char *kind, const char *word)
{
        char key[WORD_MAX * 3];
        json_t *cmds = json_object_get(c->facts, "commands"), *v;

        snprintf(key, sizeof(key), "%s|%s|%s", c->scope, kind, word);
        if (json_object_get(cmds, key) != NULL)
                return;         /* the first place it appears is the one shown */
        v = json_pack("{s:s,s:I,s:s,s:s,s:s,s:s%}", "path", c->path, "line", c->line, "scope", c->scope, "kind",
                      kind, "word", word, "excerpt", c->excerpt, strnlen(c->excerpt, EXCERPT_MAX));
        if (v == NULL || json_object_set_new(cmds, key, v) != 0) {
                c->ok = false;
                prc_err_oom(c->err, "the diff facts");
        }
}

/* The package-manager verbs that install (npm i, pip install, cargo install, go get, ...). */
static bool pm_install(const char *cmd, const char *verb, const char *verb2)
{
        if (strcmp(cmd, "npx") == 0 || strcmp(cmd, "bunx") == 0 || strcmp(cmd, "pnpx") == 0 ||
            strcmp(cmd, "pipx") == 0)
                return true;
        if (verb == NULL)
                return strcmp(cmd, "yarn") == 0;
        if (strcmp(cmd, "npm") == 0 || strcmp(cmd, "pnpm") == 0)
                return strcmp(verb, "install") == 0 || strcmp(verb, "i") == 0 || strcmp(verb, "ci") == 0 ||
                       strcmp(verb, "add") == 0 || strcmp(verb, "exec") == 0 || strcmp(verb, "x") == 0 ||
                       strcmp(verb, "dlx") == 0;
        if (strcmp(cmd, "yarn") == 0)
                return strcmp(verb, "add") == 0 || strcmp(verb, "install") == 0 || strcmp(verb, "dlx") == 0 ||
                       verb[0] == '-';
        if (strcmp(cmd, "bun") == 0)
                return strcmp(verb, "install") == 0 || strcmp(verb, "i") == 0 || strcmp(verb, "add") == 0 ||
                       strcmp(verb, "x") == 0;
        if (strcmp(cmd, "pip") == 0 || strcmp(cmd, "pip3") == 0 || strcmp(cmd, "cargo") == 0 ||
            strcmp(cmd, "gem") == 0)
                return strcmp(verb, "install") == 0;
        if (strcmp(cmd, "uv") == 0)
                return verb2 != NULL && strcmp(verb2, "install") == 0;
        if (strcmp(cmd, "go") == 0)
                return strcmp(verb, "install") == 0 || strcmp(verb, "get") == 0;
        if (strcmp(cmd, "composer") == 0)
                return strcmp(verb, "require") == 0 || strcmp(verb, "install") == 0;
        return false;
}

static void statement(struct collect *c, const char *const *toks, size_t n, int depth);

/* Command and process substitutions inside a token ("$(curl ...)", `...`, "<(...)"): their words, split. */
static void substitutions(struct collect *c, const char *tok, int depth)
{
        const char *p = tok;

        if (depth >= DEPTH_MAX)
                return;
        while ((p = strpbrk(p, "$`<>")) != NULL) {
                char buf[1024], *words[SUB_TOKENS_MAX], *save = NULL, *w;
                size_t nw = 0, k = 0;
                const char *start = NULL;
                if ((p[0] == '$' || p[0] == '<' || p[0] == '>') && p[1] == '(')
                        start = p + 2;
                else if (p[0] == '`')
                        start = p + 1;
                if (start == NULL) {
                        p++;
                        continue;
                }
                /* Up to the end of the token: closing characters become separators. */
                for (const char *q = start; *q != '\0' && k + 3 < sizeof(buf); q++) {
                        if (*q == ')' || *q == '`' || *q == '|' || *q == ';' || *q == '&') {
                                buf[k++] = ' ';
                                buf[k++] = *q == ')' || *q == '`' ? ';' : *q;
                                buf[k++] = ' ';
                        } else {
                                buf[k++] = *q;
                        }
                }
                buf[k] = '\0';
                for (w = strtok_r(buf, " \t\n", &save); w != NULL && nw < SUB_TOKENS_MAX;
                     w = strtok_r(NULL, " \t\n", &save))
                        words[nw++] = w;
                statement(c, (const char *const *)words, nw, depth + 1);
                p = start;
        }
}

/* One token stream (a line of a function body): find the command words and classify them. */
static void statement(struct collect *c, const char *const *toks, size_t n, int depth)
{
        bool at_start = true, after_pipe = false;
        size_t i = 0;

        while (i < n && c->ok) {
                char w[WORD_MAX];
                const char *t = toks[i];

                if (strstr(t, "/dev/tcp/") != NULL || strstr(t, "/dev/udp/") != NULL)
                        note(c, "network", "/dev/tcp");
                substitutions(c, t, depth);
                if (in(t, seps)) {
                        after_pipe = strcmp(t, "|") == 0 || strcmp(t, "|&") == 0;
                        at_start = true;
                        i++;
                        continue;
                }
                if (!at_start) {
                        i++;
                        continue;
                }
                dequote(t, w, sizeof(w));
                if (is_assignment(w) || w[0] == '\0') {
                        i++;
                        continue;
                }
                {
                        const char *cmd = base_name(w);
                        if (in(cmd, prefixes)) {
                                /* The prefix's own options and NAME=value words come before the command. */
                                i++;
                                while (i < n && (toks[i][0] == '-' || is_assignment(toks[i])))
                                        i++;
                                continue;
                        }
                        char v1[WORD_MAX] = "", v2[WORD_MAX] = "";
                        if (i + 1 < n)
                                dequote(toks[i + 1], v1, sizeof(v1));
                        if (i + 2 < n)
                                dequote(toks[i + 2], v2, sizeof(v2));
                        if (in(cmd, net_cmds))
                                note(c, "network", cmd);
                        else if (in(cmd, shell_cmds))
                                note(c, "exec", after_pipe ? "pipe-to-shell" : cmd);
                        else if (in(cmd, interp_cmds) && (strcmp(v1, "-c") == 0 || strcmp(v1, "-e") == 0))
                                note(c, "exec", cmd);
                        else if (in(cmd, interp_cmds) && strcmp(v1, "-m") == 0 && strncmp(v2, "pip", 3) == 0)
                                note(c, "package-manager", "pip");
                        else if (in(cmd, interp_cmds) && after_pipe)
                                note(c, "exec", "pipe-to-shell");
                        else if (strcmp(cmd, "base64") == 0 && (strcmp(v1, "-d") == 0 || strcmp(v1, "--decode") == 0))
                                note(c, "exec", "base64-decode");
                        else if (pm_install(cmd, i + 1 < n ? v1 : NULL, i + 2 < n ? v2 : NULL))
                                note(c, "package-manager", cmd);
                }
                at_start = false;
                after_pipe = false;
                i++;
        }
}

/* Every line of body (an array of {"line","tokens"}) under scope. */
static bool body(json_t *facts, const char *path, const char *scope, const json_t *lines, prc_err *err)
{
        const json_t *ln;
        size_t i;

        json_array_foreach(lines, i, ln) {
                const json_t *toks = json_object_get(ln, "tokens"), *t;
                const char *v[SUB_TOKENS_MAX];
                char excerpt[EXCERPT_MAX + 1];
                size_t n = 0, k, e = 0;
                json_array_foreach(toks, k, t) {
                        const char *s = json_string_value(t);
                        if (s == NULL || n == SUB_TOKENS_MAX)
                                continue;
                        v[n++] = s;
                        e += (size_t)snprintf(excerpt + e, sizeof(excerpt) - e, "%s%s", n > 1 ? " " : "", s);
                        if (e >= sizeof(excerpt))
                                e = sizeof(excerpt) - 1;
                }
                excerpt[e] = '\0';
                struct collect c = { facts, path, scope, json_integer_value(json_object_get(ln, "line")), excerpt,
                                     err, true };
                statement(&c, v, n, 0);
                if (!c.ok)
                        return false;
        }
        return true;
}

/* Functions and top-level commands of one shell document. */
static bool shell_doc(json_t *facts, const char *path, const json_t *doc, bool hooks, prc_err *err)
{
        const json_t *f;
        size_t i;
        char scope[WORD_MAX * 2];

        json_array_foreach(json_object_get(doc, "functions"), i, f) {
                const char *name = json_string_value(json_object_get(f, "name"));
                if (name == NULL)
                        continue;
                snprintf(scope, sizeof(scope), hooks ? "%s:%s" : "%s()", hooks ? path : name, name);
                /* The function is kept apart: a long path cuts the key short. */
                if (hooks && json_object_set_new(json_object_get(facts, "hooks"), scope,
                                                 json_pack("{s:s,s:O,s:s}", "path", path, "line",
                                                           json_object_get(f, "line"), "function", name)) != 0)
                        return prc_err_oom(err, "the diff facts");
                if (!body(facts, path, scope, json_object_get(f, "body"), err))
                        return false;
        }
        snprintf(scope, sizeof(scope), "%s:top-level", path);
        json_array_foreach(json_object_get(doc, "commands"), i, f)
                if (!body(facts, path, scope, json_object_get(f, "body"), err))
                        return false;
        return true;
}

bool prc_pkgdiff_source_host(const char *src, char *out, size_t cap)
{
        const char *p = strstr(src, "::"), *h, *e;
        size_t n;

        if (p != NULL)
                src = p + 2;
        p = strstr(src, "://");
        if (p == NULL)
                return false;   /* a local file */
        h = p + 3;
        e = h + strcspn(h, "/?#");
        /* user:password@ is not part of the host */
        for (const char *a = h; a < e; a++)
                if (*a == '@')
                        h = a + 1;
        n = (size_t)(e - h);
        if (n == 0 || n + 1 > cap)
                return false;
        for (size_t i = 0; i < n; i++)
                out[i] = (char)tolower((unsigned char)h[i]);
        out[n] = '\0';
        /* A port is part of where the bytes come from; keep it. */
        return true;
}

static bool vcs_source(const char *s)
{
        const char *p = strstr(s, "::");

        if (p != NULL)
                s = p + 2;
        return strncmp(s, "git+", 4) == 0 || strncmp(s, "hg+", 3) == 0 || strncmp(s, "svn+", 4) == 0 ||
               strncmp(s, "bzr+", 4) == 0 || strncmp(s, "fossil+", 7) == 0 || strncmp(s, "git://", 6) == 0;
}

static const char *const sum_names[] = { "ck", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "b2", NULL };

/* "sha256sums_x86_64" -> true with *arch "x86_64" ("" for the plain array; "sha256sums_" is none). */
static bool checksum_name(const char *name, const char **arch)
{
        for (size_t i = 0; sum_names[i] != NULL; i++) {
                size_t l = strlen(sum_names[i]);
                if (strncmp(name, sum_names[i], l) != 0 || strncmp(name + l, "sums", 4) != 0)
                        continue;
                if (name[l + 4] == '\0') {
                        *arch = "";
                        return true;
                }
                if (name[l + 4] == '_' && name[l + 5] != '\0') {
                        *arch = name + l + 5;
                        return true;
                }
        }
        return false;
}

struct arrays {
        json_t *sources;        /* arch -> {"arch", "values", "path", "line", "lines"?} */
        json_t *sums;           /* arch -> [ [values of one algorithm], ... ] */
};

/* "source_x86_64" -> true with *arch "x86_64" ("" for "source"); a bare "source_" is no array makepkg reads. */
static bool source_name(const char *name, const char **arch)
{
        if (strcmp(name, "source") == 0)
                *arch = "";
        else if (strncmp(name, "source_", 7) == 0 && name[7] != '\0')
                *arch = name + 7;
        else
                return false;
        return true;
}

/*
 * One static array: a PKGBUILD array as bash leaves it (line: its last
 * assignment, lines: the line of each value) or a .SRCINFO field (lines
 * NULL: every value at line).
 */
static bool take_array(json_t *facts, struct arrays *a, const char *path, json_int_t line, const json_t *lines,
                       const char *name, const json_t *vals, prc_err *err)
{
        const char *arch;

        if (source_name(name, &arch)) {
                json_t *o = json_pack("{s:s,s:O,s:s,s:I}", "arch", arch, "values", vals, "path", path, "line", line);
                /* .SRCINFO after the PKGBUILD: both are kept when they differ (a drift is shown too). */
                json_t *prev = json_object_get(a->sources, arch);
                if (o != NULL && lines != NULL && json_object_set(o, "lines", (json_t *)lines) != 0) {
                        json_decref(o);
                        o = NULL;
                }
                if (prev != NULL && json_equal(json_object_get(prev, "values"), vals)) {
                        json_decref(o);
                        return true;
                }
                if (prev != NULL) {
                        char k[WORD_MAX];
                        snprintf(k, sizeof(k), "%s\x01%s", arch, path);
                        return o != NULL && json_object_set_new(a->sources, k, o) == 0 ? true
                                                                                         : prc_err_oom(err, "diff");
                }
                return o != NULL && json_object_set_new(a->sources, arch, o) == 0 ? true : prc_err_oom(err, "diff");
        }
        if (checksum_name(name, &arch)) {
                json_t *list = json_object_get(a->sums, arch);
                if (list == NULL) {
                        list = json_array();
                        if (list == NULL || json_object_set_new(a->sums, arch, list) != 0)
                                return prc_err_oom(err, "diff");
                }
                if (json_array_append(list, (json_t *)vals) != 0 ||
                    json_object_set_new(json_object_get(facts, "checksum_arrays"), name,
                                        json_pack("{s:s,s:I}", "path", path, "line", line)) != 0)
                        return prc_err_oom(err, "diff");
        }
        return true;
}

static bool set_scalar(json_t *facts, const char *key, const json_t *v)
{
        if (!json_is_string(v) || !json_is_null(json_object_get(facts, key)))
                return true;
        return json_object_set(facts, key, (json_t *)v) == 0;
}

/*
 * One static assignment onto e ({"values", "lines", "array", "line"}), as
 * bash does it: name=(...) replaces the array, name+=(...) appends to it;
 * name=word sets the string, or element 0 of an array, and name+=word
 * extends it.  lines holds the line of each value.
 */
static bool assign(json_t *e, const json_t *as)
{
        const json_t *v = json_object_get(as, "value"), *w;
        json_t *vals = json_object_get(e, "values"), *lines = json_object_get(e, "lines"), *nw;
        json_t *line = json_integer(json_integer_value(json_object_get(as, "line")));
        bool append = json_is_true(json_object_get(as, "append")), ok = line != NULL;
        size_t i;

        if (ok && json_is_array(v)) {
                if (!append)
                        ok = json_array_clear(vals) == 0 && json_array_clear(lines) == 0;
                json_array_foreach(v, i, w)
                        ok = ok && json_array_append(vals, (json_t *)w) == 0 &&
                             json_array_append(lines, line) == 0;
                ok = ok && json_object_set_new(e, "array", json_true()) == 0;
        } else if (ok) {
                w = json_array_get(vals, 0);
                nw = append && json_is_string(w) ? json_sprintf("%s%s", json_string_value(w), json_string_value(v))
                                                 : json_incref((json_t *)v);
                if (json_array_size(vals) == 0)
                        ok = json_array_append_new(vals, nw) == 0 && json_array_append(lines, line) == 0;
                else
                        ok = json_array_set_new(vals, 0, nw) == 0 && json_array_set(lines, 0, line) == 0;
        }
        ok = ok && json_object_set(e, "line", line) == 0;
        json_decref(line);
        return ok;
}

/*
 * The PKGBUILD's static assignments as bash leaves them at the end of the
 * file (a later one replaces an earlier one, += appends), by name in the
 * order names are first assigned.  An assignment whose value is not static
 * (conditional, a command substitution, ...) is not evaluated: the values
 * before it stay.  NULL on out-of-memory.
 */
static json_t *pkgbuild_values(const json_t *pkgbuild)
{
        json_t *vars = json_object(), *as, *e;
        size_t i;

        json_array_foreach(json_object_get(pkgbuild, "assignments"), i, as) {
                const char *name = json_string_value(json_object_get(as, "name"));
                const json_t *v = json_object_get(as, "value");
                if (vars == NULL)
                        break;
                if (name == NULL || !json_is_true(json_object_get(as, "static")) ||
                    !(json_is_string(v) || json_is_array(v)))
                        continue;
                e = json_object_get(vars, name);
                if (e == NULL && json_object_set_new(vars, name, e = json_pack("{s:[],s:[],s:b}", "values", "lines",
                                                                              "array", false)) != 0)
                        e = NULL;
                if (e == NULL || !assign(e, as)) {
                        json_decref(vars);
                        vars = NULL;
                }
        }
        return vars;
}

/* Sources against their checksums: each source entry with its host and whether a non-SKIP value pins it. */
static bool judge_sources(json_t *facts, struct arrays *a, prc_err *err)
{
        const char *key;
        json_t *src;

        json_object_foreach(a->sources, key, src) {
                const char *arch = json_string_value(json_object_get(src, "arch"));
                const json_t *vals = json_object_get(src, "values"), *v, *sums = json_object_get(a->sums, arch);
                size_t i;
                json_array_foreach(vals, i, v) {
                        const char *s = json_string_value(v);
                        const json_t *line = json_array_get(json_object_get(src, "lines"), i);
                        char host[WORD_MAX];
                        bool checked = false;
                        const json_t *alg;
                        size_t k;
                        if (s == NULL)
                                continue;
                        if (line == NULL)
                                line = json_object_get(src, "line");
                        json_array_foreach(sums, k, alg) {
                                const char *c = json_string_value(json_array_get(alg, i));
                                if (c != NULL && strcmp(c, "SKIP") != 0 && c[0] != '\0')
                                        checked = true;
                        }
                        if (json_array_append_new(json_object_get(facts, "sources"),
                                                  json_pack("{s:s,s:I,s:s,s:b,s:b,s:O,s:O}", "arch", arch, "index",
                                                            (json_int_t)i, "source", s, "vcs", vcs_source(s),
                                                            "checked", checked, "path", json_object_get(src, "path"),
                                                            "line", line)) != 0)
                                return prc_err_oom(err, "diff");
                        if (prc_pkgdiff_source_host(s, host, sizeof(host)) &&
                            json_object_get(json_object_get(facts, "hosts"), host) == NULL &&
                            json_object_set_new(json_object_get(facts, "hosts"), host,
                                                json_pack("{s:O,s:O,s:s}", "path", json_object_get(src, "path"),
                                                          "line", line, "source", s)) != 0)
                                return prc_err_oom(err, "diff");
                }
        }
        return true;
}

json_t *prc_pkgdiff_facts(const json_t *pkgbuild, const json_t *srcinfo, const json_t *installs,
                          const json_t *unanalyzed, prc_err *err)
{
        json_t *f = json_pack("{s:n,s:n,s:{},s:[],s:{},s:{},s:{s:n,s:[]},s:{},s:O}", "url", "version", "hosts",
                              "sources", "checksum_arrays", "commands", "install", "declared", "files", "hooks",
                              "unanalyzed", unanalyzed);
        struct arrays a = { json_object(), json_object() };
        json_t *vars = NULL, *as;
        const json_t *v;
        const char *key;
        size_t i;
        bool ok = f != NULL && a.sources != NULL && a.sums != NULL;

        if (!ok)
                goto out;
        vars = pkgbuild_values(pkgbuild);
        if (vars == NULL) {
                ok = false;
                goto out;
        }
        json_object_foreach(vars, key, as) {
                const json_t *val = json_object_get(as, "values");
                /* A scalar is its string; an array assigned a string keeps being an array. */
                const json_t *one = json_is_true(json_object_get(as, "array")) ? NULL : json_array_get(val, 0);
                if (strcmp(key, "url") == 0)
                        ok = set_scalar(f, "url", one);
                else if (strcmp(key, "pkgver") == 0)
                        ok = set_scalar(f, "version", one);
                else if (strcmp(key, "install") == 0)
                        ok = set_scalar(json_object_get(f, "install"), "declared", one);
                else if (one == NULL)
                        ok = take_array(f, &a, "PKGBUILD", json_integer_value(json_object_get(as, "line")),
                                        json_object_get(as, "lines"), key, val, err);
                if (!ok)
                        goto out;
        }
        if (pkgbuild != NULL && !shell_doc(f, "PKGBUILD", pkgbuild, false, err)) {
                ok = false;
                goto out;
        }
        /* .SRCINFO: pkgbase and every package's fields (a split package may add sources). */
        {
                const json_t *base = json_object_get(json_object_get(srcinfo, "pkgbase"), "fields"), *pkg;
                json_object_foreach((json_t *)base, key, v) {
                        if (strcmp(key, "url") == 0)
                                ok = set_scalar(f, "url", json_array_get(v, 0));
                        else if (strcmp(key, "pkgver") == 0)
                                ok = set_scalar(f, "version", json_array_get(v, 0));
                        else if (strcmp(key, "install") == 0)
                                ok = set_scalar(json_object_get(f, "install"), "declared", json_array_get(v, 0));
                        else
                                ok = take_array(f, &a, ".SRCINFO",
                                                json_integer_value(json_object_get(json_object_get(srcinfo, "pkgbase"),
                                                                                   "line")),
                                                NULL, key, v, err);
                        if (!ok)
                                goto out;
                }
                json_array_foreach(json_object_get(srcinfo, "packages"), i, pkg) {
                        const json_t *fields = json_object_get(pkg, "fields");
                        const json_t *inst = json_array_get(json_object_get(fields, "install"), 0);
                        if (inst != NULL && !set_scalar(json_object_get(f, "install"), "declared", inst)) {
                                ok = false;
                                goto out;
                        }
                }
        }
        if (!judge_sources(f, &a, err)) {
                ok = false;
                goto out;
        }
        json_object_foreach((json_t *)installs, key, v) {
                json_t *files = json_object_get(json_object_get(f, "install"), "files");
                if (json_array_append_new(files, json_string(key)) != 0 ||
                    !shell_doc(f, key, v, true, err)) {
                        ok = false;
                        goto out;
                }
        }
out:
        json_decref(vars);
        json_decref(a.sources);
        json_decref(a.sums);
        if (!ok) {
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "the diff facts");
                json_decref(f);
                return NULL;
        }
        return f;
}

static bool change(json_t *list, const char *kind, bool risky, const char *path, json_int_t line, const char *detail,
                   const json_t *oldv, const json_t *newv)
{
        json_t *c = json_pack("{s:s,s:b,s:s,s:I,s:s}", "kind", kind, "risky", risky, "path", path ? path : "",
                              "line", line, "detail", detail);

        if (c == NULL)
                return false;
        if (oldv != NULL)
                json_object_set(c, "old", (json_t *)oldv);
        if (newv != NULL)
                json_object_set(c, "new", (json_t *)newv);
        return json_array_append_new(list, c) == 0;
}

/*
 * The old source at the same place: same file (the PKGBUILD and the
 * .SRCINFO each list the sources, so an index alone names two), same
 * architecture suffix, same index.  There is one: a PKGBUILD array counts
 * once, as bash leaves it (pkgbuild_values).
 */
static const json_t *old_source_at(const json_t *old, const char *path, const char *arch, json_int_t index)
{
        const json_t *s;
        size_t i;

        json_array_foreach(json_object_get(old, "sources"), i, s)
                if (strcmp(json_string_value(json_object_get(s, "arch")), arch) == 0 &&
                    json_integer_value(json_object_get(s, "index")) == index &&
                    path != NULL && json_is_string(json_object_get(s, "path")) &&
                    strcmp(json_string_value(json_object_get(s, "path")), path) == 0)
                        return s;
        return NULL;
}

json_t *prc_pkgdiff_compare(const json_t *old, const json_t *nw, prc_err *err)
{
        json_t *list = json_array(), *res;
        const json_t *v, *ov;
        const char *key;
        size_t i, risky = 0;
        char detail[512];
        bool ok = list != NULL;

#define LINE(o) json_integer_value(json_object_get((o), "line"))
#define PATH(o) json_string_value(json_object_get((o), "path"))
        json_array_foreach(json_object_get(nw, "unanalyzed"), i, v) {
                snprintf(detail, sizeof(detail), "the new version's %s could not be analyzed (%s): %s", PATH(v),
                         json_string_value(json_object_get(v, "class")),
                         json_string_value(json_object_get(v, "reason")));
                ok = ok && change(list, "unanalyzed", true, PATH(v), 0, detail, NULL, NULL);
        }
        ov = json_object_get(old, "url");
        v = json_object_get(nw, "url");
        if (ok && !json_equal(ov, v)) {
                snprintf(detail, sizeof(detail), "url= changed from %s to %s",
                         json_is_string(ov) ? json_string_value(ov) : "(none)",
                         json_is_string(v) ? json_string_value(v) : "(none)");
                ok = change(list, "url-changed", true, "PKGBUILD", 0, detail, ov, v);
        }
        json_object_foreach(json_object_get(nw, "hosts"), key, v) {
                if (!ok || json_object_get(json_object_get(old, "hosts"), key) != NULL)
                        continue;
                snprintf(detail, sizeof(detail), "sources now come from %s (%s)", key,
                         json_string_value(json_object_get(v, "source")));
                ok = change(list, "source-host-added", true, PATH(v), LINE(v), detail, NULL,
                            json_object_get(v, "source"));
        }
        json_object_foreach(json_object_get(old, "checksum_arrays"), key, v) {
                if (!ok || json_object_get(json_object_get(nw, "checksum_arrays"), key) != NULL)
                        continue;
                snprintf(detail, sizeof(detail), "the checksum array %s was removed", key);
                ok = change(list, "checksum-removed", true, PATH(v), LINE(v), detail, NULL, NULL);
        }
        json_array_foreach(json_object_get(nw, "sources"), i, v) {
                const json_t *o;
                const char *arch = json_string_value(json_object_get(v, "arch"));
                if (!ok || json_is_true(json_object_get(v, "checked")) || json_is_true(json_object_get(v, "vcs")))
                        continue;
                o = old_source_at(old, PATH(v), arch, json_integer_value(json_object_get(v, "index")));
                /* Unverified before at the same place: not new.  Checked before, or new: a reviewer must see it. */
                if (o != NULL && !json_is_true(json_object_get(o, "checked")) &&
                    !json_is_true(json_object_get(o, "vcs")))
                        continue;
                snprintf(detail, sizeof(detail), "%s%s%s has no checksum or SKIP%s",
                         json_string_value(json_object_get(v, "source")), arch[0] ? " for " : "", arch,
                         o != NULL ? " (it had one before)" : "");
                ok = change(list, "checksum-skip", true, PATH(v), LINE(v), detail,
                            o ? json_object_get(o, "source") : NULL,
                            json_object_get(v, "source"));
        }
        json_object_foreach(json_object_get(nw, "commands"), key, v) {
                char kind[64];
                if (!ok || json_object_get(json_object_get(old, "commands"), key) != NULL)
                        continue;
                snprintf(kind, sizeof(kind), "%s-added", json_string_value(json_object_get(v, "kind")));
                snprintf(detail, sizeof(detail), "new %s command %s in %s: %s",
                         json_string_value(json_object_get(v, "kind")), json_string_value(json_object_get(v, "word")),
                         json_string_value(json_object_get(v, "scope")),
                         json_string_value(json_object_get(v, "excerpt")));
                ok = change(list, kind, true, PATH(v), LINE(v), detail, NULL, NULL);
        }
        {
                const json_t *oi = json_object_get(old, "install"), *ni = json_object_get(nw, "install");
                bool had = !json_is_null(json_object_get(oi, "declared")) ||
                           json_array_size(json_object_get(oi, "files")) > 0;
                bool has = !json_is_null(json_object_get(ni, "declared")) ||
                           json_array_size(json_object_get(ni, "files")) > 0;
                if (ok && has && !had) {
                        snprintf(detail, sizeof(detail), "the package now ships an install script%s%s",
                                 json_is_string(json_object_get(ni, "declared")) ? ": " : "",
                                 json_is_string(json_object_get(ni, "declared")) ?
                                 json_string_value(json_object_get(ni, "declared")) : "");
                        ok = change(list, "install-script-added", true, "PKGBUILD", 0, detail, NULL,
                                    json_object_get(ni, "declared"));
                }
                if (ok && has && had && !json_equal(json_object_get(oi, "declared"), json_object_get(ni, "declared"))) {
                        snprintf(detail, sizeof(detail), "install= now names another script");
                        ok = change(list, "install-script-added", true, "PKGBUILD", 0, detail,
                                    json_object_get(oi, "declared"), json_object_get(ni, "declared"));
                }
        }
        json_object_foreach(json_object_get(nw, "hooks"), key, v) {
                const char *fn = json_string_value(json_object_get(v, "function"));
                bool seen = false;
                const char *ok_key;
                const json_t *o;
                if (!ok)
                        break;
                /* By hook name, whatever the script is called: a renamed script with the same hooks is not new. */
                json_object_foreach(json_object_get(old, "hooks"), ok_key, o) {
                        const char *ofn = json_string_value(json_object_get(o, "function"));
                        seen |= ofn != NULL && fn != NULL && strcmp(ofn, fn) == 0;
                }
                if (seen)
                        continue;
                snprintf(detail, sizeof(detail), "new install hook %s", key);
                ok = change(list, "install-hook-added", true, PATH(v), LINE(v), detail, NULL, NULL);
        }
        ov = json_object_get(old, "version");
        v = json_object_get(nw, "version");
        if (ok && !json_equal(ov, v)) {
                snprintf(detail, sizeof(detail), "pkgver %s -> %s", json_is_string(ov) ? json_string_value(ov) : "?",
                         json_is_string(v) ? json_string_value(v) : "?");
                ok = change(list, "version-changed", false, "PKGBUILD", 0, detail, ov, v);
        }
#undef LINE
#undef PATH
        if (!ok) {
                json_decref(list);
                prc_err_oom(err, "the diff");
                return NULL;
        }
        json_array_foreach(list, i, v)
                risky += json_is_true(json_object_get(v, "risky"));
        res = json_pack("{s:o,s:I}", "changes", list, "risky", (json_int_t)risky);
        if (res == NULL)
                prc_err_oom(err, "the diff");
        return res;
}
