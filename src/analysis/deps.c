/*
 * deps.c - the dependency analyses over ManifestDocs (issue 19):
 * deps-lockfile-missing, deps-lockfile-drift, deps-integrity-missing,
 * deps-non-registry-source, deps-install-scripts, deps-registry-confusion.
 * docs/analyses.md ("Dependencies") gives each decision rule per ecosystem.
 * Trust: engine-side.  Reads checked ManifestDocs and the inventory listing;
 * a lockfile's presence is read from the listing (a refused lockfile is still
 * there, and its refusal is the assertion's coverage gap).
 */
#include "analysis/deps.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { PATHBUF = 4200, TEXT_MAX = 600 };

/* --- reading ManifestDocs --- */

static const char *S(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static uint32_t L(const json_t *o)
{
        json_int_t l = json_integer_value(json_object_get(o, "line"));
        return l > 0 && l <= UINT32_MAX ? (uint32_t)l : 0;
}

static bool is(const char *a, const char *b)
{
        return a != NULL && strcmp(a, b) == 0;
}

static const char *fmt(const json_t *md)
{
        return S(md, "format");
}

static const json_t *det(const json_t *md)
{
        return json_object_get(md, "details");
}

static const char *src_type(const json_t *dep)
{
        return S(json_object_get(dep, "source"), "type");
}

/* Length of path's folder part ("a/b/c.json" -> 3, "c.json" -> 0). */
static size_t dir_len(const char *path)
{
        const char *s = strrchr(path, '/');
        return s != NULL ? (size_t)(s - path) : 0;
}

static const char *base(const char *path)
{
        const char *s = strrchr(path, '/');
        return s != NULL ? s + 1 : path;
}

static bool same_dir(const char *a, const char *b)
{
        size_t n = dir_len(a);
        return n == dir_len(b) && strncmp(a, b, n) == 0;
}

/* Is the folder of anc the folder of p or one above it? */
static bool dir_above(const char *anc, const char *p)
{
        size_t n = dir_len(anc);
        return n == 0 || (dir_len(p) >= n && strncmp(anc, p, n) == 0 && (p[n] == '/'));
}

static int cmp_tfile(const void *k, const void *e)
{
        return strcmp((const char *)k, ((const prc_tfile *)e)->path);
}

/*
 * Is path in the inventory?  A symlinked or oversized lockfile counts: it is
 * there, and its coverage gap keeps the assertion from passing.
 */
static bool inv_has(const prc_actx *cx, const char *path)
{
        const prc_ainput *in = prc_act_input(cx);

        return bsearch(path, in->files, in->nfiles, sizeof(*in->files), cmp_tfile) != NULL;
}

/* Does folder dir[0..dl) hold a file named one of names (NULL-terminated)? */
static bool dir_holds(const prc_actx *cx, const char *dir, size_t dl, const char *const *names)
{
        char p[PATHBUF];

        for (; *names != NULL; names++) {
                if (dl > 0)
                        snprintf(p, sizeof(p), "%.*s/%s", (int)dl, dir, *names);
                else
                        snprintf(p, sizeof(p), "%s", *names);
                if (inv_has(cx, p))
                        return true;
        }
        return false;
}

/* Does the folder of path, or one above it, hold one of names? */
static bool up_holds(const prc_actx *cx, const char *path, const char *const *names)
{
        size_t dl = dir_len(path);

        for (;;) {
                if (dir_holds(cx, path, dl, names))
                        return true;
                if (dl == 0)
                        return false;
                while (dl > 0 && path[dl - 1] != '/')
                        dl--;
                if (dl > 0)
                        dl--;
        }
}

static bool found(prc_actx *cx, const json_t *md, uint32_t line, const char *text, const char *detail, prc_err *err)
{
        return prc_act_found(cx, S(md, "path"), line, text, detail, err);
}

static size_t count_deps(const json_t *md, bool (*keep)(const json_t *dep))
{
        const json_t *d;
        size_t i, n = 0;

        json_array_foreach(json_object_get(md, "dependencies"), i, d)
                if (keep == NULL || keep(d))
                        n++;
        return n;
}

static bool not_peer_or_platform(const json_t *d)
{
        return !is(S(d, "scope"), "peer") && !is(S(d, "scope"), "build") && !is(S(d, "group"), "platform");
}

/* The first line a manifest gives for itself: its package, else its first dependency, else 1. */
static uint32_t head_line(const json_t *md)
{
        uint32_t l = L(json_object_get(md, "package"));

        if (l == 0)
                l = L(json_array_get(json_object_get(md, "dependencies"), 0));
        return l > 0 ? l : 1;
}

/* ================================================================ deps-lockfile-missing */

static const char *const NPM_LOCKS[] = { "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                                         "bun.lock", "bun.lockb", NULL };
static const char *const PY_LOCKS[] = { "poetry.lock", "uv.lock", "pdm.lock", "pylock.toml", "Pipfile.lock", NULL };

/* npm: private or a workspace root is an application; a published library's lock is never used by its users. */
static bool npm_is_app(const json_t *md)
{
        return json_is_true(json_object_get(det(md), "private")) ||
               json_array_size(json_object_get(det(md), "workspaces")) > 0;
}

/* Poetry writes python into details (docs/extraction/python.md); a poetry build backend says so too. */
static bool py_is_poetry(const json_t *md)
{
        const char *bb = S(det(md), "build_backend");
        return json_object_get(det(md), "python") != NULL || (bb != NULL && strncmp(bb, "poetry", 6) == 0);
}

static bool cargo_is_bin(const prc_actx *cx, const json_t *md)
{
        const char *p = S(md, "path");
        size_t dl = dir_len(p);
        const prc_ainput *in = prc_act_input(cx);
        char pre[PATHBUF];
        size_t pl;
        static const char *const main_rs[] = { "src/main.rs", NULL };

        if (json_is_null(json_object_get(md, "package")))
                return false;   /* a virtual workspace: its members say */
        if (dir_holds(cx, p, dl, main_rs))
                return true;
        pl = (size_t)snprintf(pre, sizeof(pre), "%.*s%ssrc/bin/", (int)dl, p, dl > 0 ? "/" : "");
        for (size_t i = 0; i < in->nfiles; i++)
                if (strncmp(in->files[i].path, pre, pl) == 0)
                        return true;
        return false;
}

/* A requirements file beside path whose every requirement carries a --hash: pip's own lockfile. */
static bool hashed_requirements_beside(const prc_actx *cx, const char *path)
{
        const json_t *md, *d;
        size_t k;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                bool all = json_array_size(json_object_get(md, "dependencies")) > 0;
                if (!is(fmt(md), "pypi-requirements") || !same_dir(S(md, "path"), path))
                        continue;
                json_array_foreach(json_object_get(md, "dependencies"), k, d)
                        all = all && json_is_object(json_object_get(d, "integrity"));
                if (all)
                        return true;
        }
        return false;
}

static bool gem_uses_gemspec(const json_t *md)
{
        const json_t *n;
        size_t i;

        json_array_foreach(json_object_get(md, "not_extracted"), i, n)
                if (is(S(n, "what"), "gemspec"))
                        return true;
        return false;
}

static bool lockfile_missing_one(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *f = fmt(md), *p = S(md, "path");
        size_t dl = dir_len(p);
        char text[TEXT_MAX];
        const char *pkg = S(json_object_get(md, "package"), "name");

        snprintf(text, sizeof(text), "%s%s%s", base(p), pkg != NULL ? " of " : "", pkg != NULL ? pkg : "");
        if (is(f, "npm-package-json")) {
                if (!npm_is_app(md) || count_deps(md, not_peer_or_platform) == 0 || up_holds(cx, p, NPM_LOCKS))
                        return true;
                return found(cx, md, head_line(md), text,
                             json_is_true(json_object_get(det(md), "private"))
                                     ? "a private (application) package.json without package-lock.json, "
                                       "npm-shrinkwrap.json, yarn.lock or pnpm-lock.yaml here or in a parent folder"
                                     : "a workspace root without package-lock.json, npm-shrinkwrap.json, yarn.lock or "
                                       "pnpm-lock.yaml",
                             err);
        }
        if (is(f, "pypi-pipfile")) {
                static const char *const pl[] = { "Pipfile.lock", NULL };
                if (count_deps(md, NULL) == 0 || dir_holds(cx, p, dl, pl))
                        return true;
                return found(cx, md, head_line(md), text, "a Pipfile without Pipfile.lock beside it", err);
        }
        if (is(f, "pypi-pyproject")) {
                if (!py_is_poetry(md) || count_deps(md, not_peer_or_platform) == 0 ||
                    dir_holds(cx, p, dl, PY_LOCKS) || hashed_requirements_beside(cx, p))
                        return true;
                return found(cx, md, head_line(md), text,
                             "a Poetry project without poetry.lock (or uv.lock, pdm.lock, pylock.toml, a fully hashed "
                             "requirements file) beside it",
                             err);
        }
        if (is(f, "cargo-toml")) {
                static const char *const cl[] = { "Cargo.lock", NULL };
                if (!cargo_is_bin(cx, md) || up_holds(cx, p, cl))
                        return true;
                return found(cx, md, head_line(md), text,
                             "a crate with a binary (src/main.rs or src/bin/) without Cargo.lock here or in a parent "
                             "folder",
                             err);
        }
        if (is(f, "go-mod")) {
                static const char *const gl[] = { "go.sum", NULL };
                if (count_deps(md, NULL) == 0 || dir_holds(cx, p, dl, gl))
                        return true;
                return found(cx, md, head_line(md), text, "a go.mod with requirements and no go.sum beside it", err);
        }
        if (is(f, "composer-json")) {
                static const char *const cl[] = { "composer.lock", NULL };
                if (!is(S(det(md), "type"), "project") || count_deps(md, not_peer_or_platform) == 0 ||
                    dir_holds(cx, p, dl, cl))
                        return true;
                return found(cx, md, head_line(md), text,
                             "a composer.json of type project without composer.lock beside it", err);
        }
        if (is(f, "gem-gemfile")) {
                static const char *const gl[] = { "Gemfile.lock", "gems.locked", NULL };
                if (count_deps(md, NULL) == 0 || gem_uses_gemspec(md) || dir_holds(cx, p, dl, gl))
                        return true;
                return found(cx, md, head_line(md), text, "a Gemfile (no gemspec) without Gemfile.lock beside it", err);
        }
        return true;
}

bool prc_deps_lockfile_missing(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++)
                if (!lockfile_missing_one(cx, md, err))
                        return false;
        return true;
}

/* ================================================================ deps-lockfile-drift */

/* A name as the ecosystem compares it: PEP 503 for pypi, lower case for composer, as written otherwise. */
static void norm_name(const char *eco, const char *name, char *out, size_t outsz)
{
        size_t o = 0;
        bool py = is(eco, "pypi"), lower = py || is(eco, "composer") || is(eco, "nuget");

        for (const char *s = name; *s != 0 && o + 1 < outsz; s++) {
                char c = lower ? (char)tolower((unsigned char)*s) : *s;
                if (py && (c == '-' || c == '_' || c == '.')) {
                        if (o > 0 && out[o - 1] == '-')
                                continue;
                        c = '-';
                }
                out[o++] = c;
        }
        out[o] = 0;
}

/* The lockfile formats that lock a manifest format (same folder; Cargo: the nearest one above). */
static bool locks(const char *manifest_fmt, const char *lock_fmt)
{
        if (is(manifest_fmt, "npm-package-json"))
                return is(lock_fmt, "npm-package-lock") || is(lock_fmt, "npm-shrinkwrap") ||
                       is(lock_fmt, "yarn-lock") || is(lock_fmt, "pnpm-lock");
        if (is(manifest_fmt, "pypi-pyproject"))
                return is(lock_fmt, "pypi-poetry-lock") || is(lock_fmt, "pypi-uv-lock") ||
                       is(lock_fmt, "pypi-pdm-lock");
        if (is(manifest_fmt, "pypi-pipfile"))
                return is(lock_fmt, "pypi-pipfile-lock");
        if (is(manifest_fmt, "cargo-toml"))
                return is(lock_fmt, "cargo-lock");
        if (is(manifest_fmt, "go-mod"))
                return is(lock_fmt, "go-sum");
        if (is(manifest_fmt, "composer-json"))
                return is(lock_fmt, "composer-lock");
        if (is(manifest_fmt, "gem-gemfile"))
                return is(lock_fmt, "gem-gemfile-lock");
        if (is(manifest_fmt, "nuget-msbuild-project"))
                return is(lock_fmt, "nuget-packages-lock");
        return false;
}

static enum prc_dv_dialect dialect_of(const char *eco)
{
        if (is(eco, "cargo"))
                return PRC_DV_CARGO;
        if (is(eco, "pypi"))
                return PRC_DV_PYPI;
        if (is(eco, "composer"))
                return PRC_DV_COMPOSER;
        if (is(eco, "gem"))
                return PRC_DV_GEM;
        if (is(eco, "nuget"))
                return PRC_DV_NUGET;
        return PRC_DV_NPM;
}

/*
 * name -> [entries] of a lockfile.  npm lockfiles that know their direct
 * entries index only those (a nested copy of a name is another package's).
 */
static json_t *lock_index(const json_t *lock)
{
        json_t *ix = json_object();
        const char *eco = S(lock, "ecosystem");
        bool direct_only = (is(fmt(lock), "npm-package-lock") || is(fmt(lock), "npm-shrinkwrap")) &&
                           !json_is_false(json_object_get(det(lock), "direct_known"));
        const json_t *d;
        size_t i;
        char k[512];

        if (ix == NULL)
                return NULL;
        json_array_foreach(json_object_get(lock, "dependencies"), i, d) {
                json_t *a;
                if (direct_only && !json_is_true(json_object_get(d, "direct")))
                        continue;
                norm_name(eco, S(d, "name"), k, sizeof(k));
                a = json_object_get(ix, k);
                if (a == NULL) {
                        a = json_array();
                        if (a == NULL || json_object_set_new(ix, k, a) != 0) {
                                json_decref(ix);
                                return NULL;
                        }
                }
                if (json_array_append(a, (json_t *)d) != 0) {
                        json_decref(ix);
                        return NULL;
                }
        }
        return ix;
}

/* Is the manifest dependency one the lockfile must hold? */
static bool drift_applies(const json_t *md, const json_t *dep)
{
        const char *st = src_type(dep), *eco = S(md, "ecosystem");

        if (!json_is_true(json_object_get(dep, "direct")) || is(S(dep, "scope"), "peer"))
                return false;           /* peers are the consumer's to install */
        if (is(S(dep, "scope"), "build") && !is(eco, "cargo"))
                return false;           /* build-system requires and PackageDownload are not locked */
        if (is(S(dep, "group"), "platform") || (is(eco, "cargo") && is(S(dep, "group"), "workspace")))
                return false;           /* PHP itself; a workspace's shared table is not a use */
        if (is(eco, "golang"))
                return !is(st, "path");
        return is(st, "registry");
}

/* npm "npm:real@range": the range; a yarn/pnpm protocol other than npm: is not a range. */
static const char *npm_range(const char *req)
{
        if (req != NULL && strncmp(req, "npm:", 4) == 0) {
                const char *at = strrchr(req + 4, '@');
                return at != NULL && at > req + 4 ? at + 1 : "";
        }
        return req;
}

/* yarn.lock: does an entry carry the descriptor name@range (berry: name@npm:range)? */
static bool yarn_has_descriptor(const json_t *entries, const char *name, const char *req)
{
        char a[1200], b[1200];
        const json_t *e;
        size_t i;

        snprintf(a, sizeof(a), "%s@%s", name, req);
        snprintf(b, sizeof(b), "%s@npm:%s", name, req);
        json_array_foreach(entries, i, e) {
                const char *r = S(e, "requirement");
                size_t la = strlen(a), lb = strlen(b);
                if (r == NULL)
                        continue;
                /* requirement is "d1, d2, ..." (classic) or "d1, d2" (berry keys) */
                for (const char *s = r; *s != 0;) {
                        size_t n = strcspn(s, ",");
                        const char *t = s;
                        while (*t == ' ' || *t == '"')
                                t++, n--;
                        while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '"'))
                                n--;
                        if ((n == la && strncmp(t, a, la) == 0) || (n == lb && strncmp(t, b, lb) == 0))
                                return true;
                        s = t + strcspn(t, ",");
                        if (*s == ',')
                                s++;
                }
        }
        return false;
}

/* Composer virtual packages ("psr/log-implementation") are provided by others, never locked by name. */
static bool composer_virtual(const char *name)
{
        size_t n = strlen(name);
        return n > 15 && strcmp(name + n - 15, "-implementation") == 0;
}

/* A Gemfile.lock names a gem it has no spec for (another platform's) in not_extracted. */
static bool lock_mentions(const json_t *lock, const char *name)
{
        const json_t *n;
        size_t i;

        json_array_foreach(json_object_get(lock, "not_extracted"), i, n) {
                const char *w = S(n, "what");
                size_t l = strlen(name);
                if (w != NULL && strncmp(w, name, l) == 0 && (w[l] == 0 || w[l] == ' ' || w[l] == '('))
                        return true;
        }
        return false;
}

/* go.mod: a module replaced by another module is locked under the other's name. */
static bool go_replaced(const json_t *md, const char *name)
{
        const json_t *r;
        size_t i;

        json_array_foreach(json_object_get(det(md), "replace"), i, r)
                if (is(S(r, "name"), name))
                        return true;
        return false;
}

/* package.json overrides name itself (npm overrides, yarn resolutions, pnpm.overrides): the lock may differ. */
static bool npm_overridden(const json_t *md, const char *name)
{
        const json_t *o;
        size_t i;

        json_array_foreach(json_object_get(det(md), "overrides"), i, o) {
                const char *sel = S(o, "selector");
                size_t n = strlen(name);
                /* "foo", "foo@^1" (pnpm), "**\/foo" (yarn) */
                if (sel == NULL)
                        continue;
                if (strncmp(sel, "**/", 3) == 0)
                        sel += 3;
                if (strncmp(sel, name, n) == 0 && (sel[n] == 0 || sel[n] == '@'))
                        return true;
        }
        return false;
}

static bool drift_dep(prc_actx *cx, const json_t *md, const json_t *lock, const json_t *ix, const json_t *dep,
                      prc_err *err)
{
        const char *eco = S(md, "ecosystem"), *name = S(dep, "name"), *req = S(dep, "requirement");
        const json_t *entries, *e;
        char k[512], text[TEXT_MAX], detail[TEXT_MAX], seen[256] = "";
        bool unknown = false;
        size_t i;

        norm_name(eco, name, k, sizeof(k));
        entries = json_object_get(ix, k);
        snprintf(text, sizeof(text), "%s %s", name, req != NULL ? req : "");
        if (json_array_size(entries) == 0) {
                if ((is(eco, "composer") && composer_virtual(name)) || (is(eco, "gem") && lock_mentions(lock, name)) ||
                    (is(eco, "golang") && go_replaced(md, name)))
                        return true;
                snprintf(detail, sizeof(detail), "not in %s", S(lock, "path"));
                return found(cx, md, L(dep), text, detail, err);
        }
        if (is(eco, "golang")) {
                json_array_foreach(entries, i, e)
                        if (is(S(e, "resolved"), S(dep, "resolved")))
                                return true;
                if (go_replaced(md, name))
                        return true;
                snprintf(detail, sizeof(detail), "%s has no hash for %s", S(lock, "path"), S(dep, "resolved"));
                return found(cx, md, L(dep), text, detail, err);
        }
        if (is(fmt(lock), "yarn-lock") && req != NULL) {
                if (yarn_has_descriptor(entries, name, req))
                        return true;
                snprintf(detail, sizeof(detail), "%s has no entry for %s@%s", S(lock, "path"), name, req);
                return found(cx, md, L(dep), text, detail, err);
        }
        if (is(eco, "npm") && npm_overridden(md, name))
                return true;            /* present; its version is the override's */
        if (is(eco, "npm"))
                req = npm_range(req);
        if (req == NULL || *req == 0)
                return true;            /* any version */
        json_array_foreach(entries, i, e) {
                const char *v = S(e, "resolved");
                enum prc_dv_match m;
                if (v == NULL)
                        return true;    /* a workspace or path entry: not a version to judge */
                m = prc_dv_satisfies(dialect_of(eco), req, v);
                if (m == PRC_DV_YES)
                        return true;
                unknown = unknown || m == PRC_DV_UNKNOWN;
                if (seen[0] == 0)
                        snprintf(seen, sizeof(seen), "%s (line %u)", v, L(e));
        }
        if (unknown) {
                snprintf(detail, sizeof(detail), "%s: requirement %s against %s %s is not one prc reads", name, req,
                         S(lock, "path"), seen);
                return prc_act_unresolved(cx, S(md, "path"), L(dep), detail, err);
        }
        snprintf(detail, sizeof(detail), "locked at %s in %s, outside %s", seen, S(lock, "path"), req);
        return found(cx, md, L(dep), text, detail, err);
}

static bool drift_pair(prc_actx *cx, const json_t *md, const json_t *lock, prc_err *err)
{
        json_t *ix = lock_index(lock);
        const json_t *dep;
        size_t i;
        bool ok = true;

        if (ix == NULL)
                return prc_err_oom(err, "a lockfile index");
        json_array_foreach(json_object_get(md, "dependencies"), i, dep) {
                if (!drift_applies(md, dep))
                        continue;
                if (!drift_dep(cx, md, lock, ix, dep, err)) {
                        ok = false;
                        break;
                }
        }
        json_decref(ix);
        return ok;
}

bool prc_deps_lockfile_drift(prc_actx *cx, prc_err *err)
{
        const json_t *md, *lk;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                const json_t *best = NULL;
                if (!is(S(md, "kind"), "manifest"))
                        continue;
                for (size_t j = 0; (lk = prc_act_mdoc(cx, PRC_AK_DEPS, &j)) != NULL; j++) {
                        if (!locks(fmt(md), fmt(lk)))
                                continue;
                        if (same_dir(S(md, "path"), S(lk, "path"))) {
                                if (!drift_pair(cx, md, lk, err))
                                        return false;
                                best = NULL;
                                if (is(fmt(md), "cargo-toml"))
                                        break;
                        } else if (is(fmt(md), "cargo-toml") && dir_above(S(lk, "path"), S(md, "path")) &&
                                   (best == NULL || dir_len(S(lk, "path")) > dir_len(S(best, "path")))) {
                                best = lk;      /* a workspace member: the nearest Cargo.lock above */
                        }
                }
                if (best != NULL && !drift_pair(cx, md, best, err))
                        return false;
        }
        return true;
}

/* ================================================================ deps-integrity-missing */

static bool hex40(const char *s)
{
        if (s == NULL || strlen(s) != 40)
                return false;
        for (int i = 0; i < 40; i++)
                if (!isxdigit((unsigned char)s[i]))
                        return false;
        return true;
}

/* Does a URL name a commit (a path segment, query value or fragment of 40 hex: codeload tarballs)? */
static bool url_names_commit(const char *url)
{
        size_t n;

        if (url == NULL)
                return false;
        for (const char *s = url; *s != 0; s += n + (s[n] != 0)) {
                n = strcspn(s, "/#?=&");
                if (n == 40) {
                        char seg[41];
                        memcpy(seg, s, 40);
                        seg[40] = 0;
                        if (hex40(seg))
                                return true;
                }
        }
        return false;
}


static bool weak_alg(const char *alg)
{
        return alg != NULL && (strcasecmp(alg, "sha1") == 0 || strcasecmp(alg, "md5") == 0);
}

/* A lockfile entry that must carry a strong hash: from a registry or a URL; composer pins a commit instead. */
static bool integrity_applies(const json_t *lock, const json_t *d)
{
        const char *st = src_type(d);

        if (!is(st, "registry") && !is(st, "url"))
                return false;
        if (is(st, "url") && url_names_commit(S(json_object_get(d, "source"), "url")))
                return false;   /* a commit's tarball: pinned like a git source */
        if (is(S(lock, "ecosystem"), "composer") && S(json_object_get(d, "source"), "commit") != NULL)
                return false;
        return true;
}

/* A bitmap of the dependencies a details list names by index (npm "in_bundle"); NULL: out of memory. */
static bool *listed(const json_t *md, const char *key)
{
        size_t n = json_array_size(json_object_get(md, "dependencies")), k;
        bool *b = calloc(n + 1, sizeof(*b));
        const json_t *e;

        if (b == NULL)
                return NULL;
        json_array_foreach(json_object_get(det(md), key), k, e) {
                json_int_t x = json_integer_value(json_object_get(e, "dependency"));
                if (x >= 0 && (size_t)x < n)
                        b[x] = true;
        }
        return b;
}

static bool integrity_one(prc_actx *cx, const json_t *lock, prc_err *err)
{
        const json_t *d;
        size_t i, total = 0, bad = 0;
        uint32_t first = 0;
        char text[TEXT_MAX];
        bool *bundled = listed(lock, "in_bundle"), ok = true;

        if (bundled == NULL)
                return prc_err_oom(err, "a lockfile index");
        json_array_foreach(json_object_get(lock, "dependencies"), i, d) {
                const json_t *ig = json_object_get(d, "integrity");
                if (bundled[i] || !integrity_applies(lock, d))
                        continue;
                total++;
                if (json_is_object(ig) && !weak_alg(S(ig, "algorithm")))
                        continue;
                if (bad++ == 0)
                        first = L(d);
        }
        if (bad == 0)
                goto out;
        if (is(fmt(lock), "gradle-lockfile")) {
                static const char *const vm[] = { "gradle/verification-metadata.xml", NULL };
                size_t dl = dir_len(S(lock, "path"));
                if (dir_holds(cx, S(lock, "path"), dl, vm)) {
                        ok = prc_act_unresolved(cx, S(lock, "path"), 0,
                                                "gradle/verification-metadata.xml holds the hashes and is not "
                                                "extracted",
                                                err);
                        goto out;
                }
        }
        if (bad == total && total > 3) {
                /* The format (or this file) keeps no strong hash at all: one location, not one per entry. */
                snprintf(text, sizeof(text), "%zu of %zu registry entries", bad, total);
                ok = found(cx, lock, first, text, "no entry of this lockfile carries a strong integrity hash", err);
                goto out;
        }
        json_array_foreach(json_object_get(lock, "dependencies"), i, d) {
                const json_t *ig = json_object_get(d, "integrity");
                if (bundled[i] || !integrity_applies(lock, d) || (json_is_object(ig) && !weak_alg(S(ig, "algorithm"))))
                        continue;
                snprintf(text, sizeof(text), "%s %s", S(d, "name"), S(d, "resolved") != NULL ? S(d, "resolved") : "");
                ok = found(cx, lock, L(d), text,
                           json_is_object(ig) ? "only a weak hash (sha1 or md5)" : "no integrity hash", err);
                if (!ok)
                        break;
        }
out:
        free(bundled);
        return ok;
}

bool prc_deps_integrity_missing(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++)
                if (is(S(md, "kind"), "lockfile") && !integrity_one(cx, md, err))
                        return false;
        return true;
}

/* ================================================================ deps-non-registry-source */

/* The host of a URL (lower case, no port), "" when it has none. */
static void url_host(const char *url, char *out, size_t outsz)
{
        const char *h = url != NULL ? strstr(url, "://") : NULL;
        size_t n = 0;

        out[0] = 0;
        if (h == NULL)
                return;
        h += 3;
        if (strchr(h, '@') != NULL && strchr(h, '@') < h + strcspn(h, "/"))
                h = strchr(h, '@') + 1;
        while (h[n] != 0 && h[n] != '/' && h[n] != ':' && h[n] != '?' && h[n] != '#' && n + 1 < outsz) {
                out[n] = (char)tolower((unsigned char)h[n]);
                n++;
        }
        out[n] = 0;
}

/* Does a path dependency written in the file at base_path stay inside the tree? */
static bool path_inside(const char *base_path, const char *p)
{
        int depth = 0;
        size_t dl = dir_len(base_path);

        if (p == NULL)
                return true;    /* the file's own folder (a lockfile's workspace member) */
        if (strncmp(p, "file://", 7) == 0)
                return false;
        if (strncmp(p, "file:", 5) == 0 || strncmp(p, "link:", 5) == 0)
                p += 5;
        if (p[0] == '/' || p[0] == '~' || (isalpha((unsigned char)p[0]) && p[1] == ':'))
                return false;
        for (size_t i = 0; i < dl; i++)
                if (base_path[i] == '/' || i == 0)
                        depth++;
        while (*p != 0) {
                size_t n = strcspn(p, "/\\");
                if (n == 2 && p[0] == '.' && p[1] == '.') {
                        if (--depth < 0)
                                return false;
                } else if (!(n == 1 && p[0] == '.') && n > 0) {
                        depth++;
                }
                p += n;
                if (*p != 0)
                        p++;
        }
        return true;
}

/* Hosts the tree declares: its manifests' and registry configs' registries and registry sources ("eco host"). */
static json_t *declared_hosts(const prc_actx *cx)
{
        json_t *set = json_object();
        const json_t *md, *r;
        char h[256], key[320];
        size_t k;

        if (set == NULL)
                return NULL;
        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                if (is(S(md, "kind"), "lockfile"))
                        continue;       /* a lockfile's own sources are what is being judged */
                json_array_foreach(json_object_get(md, "registries"), k, r) {
                        url_host(S(r, "url"), h, sizeof(h));
                        snprintf(key, sizeof(key), "%s %s", S(md, "ecosystem"), h);
                        if (h[0] != 0 && json_object_set_new(set, key, json_true()) != 0)
                                goto oom;
                }
                json_array_foreach(json_object_get(md, "dependencies"), k, r) {
                        if (!is(src_type(r), "registry"))
                                continue;
                        url_host(S(json_object_get(r, "source"), "url"), h, sizeof(h));
                        snprintf(key, sizeof(key), "%s %s", S(md, "ecosystem"), h);
                        if (h[0] != 0 && json_object_set_new(set, key, json_true()) != 0)
                                goto oom;
                }
        }
        return set;
oom:
        json_decref(set);
        return NULL;
}

/* Is host the ecosystem's public registry or one the tree declares? */
static bool host_declared(const json_t *declared, const char *eco, const char *host)
{
        static const char *const defaults[] = { "registry.npmjs.org", "registry.yarnpkg.com", "registry.npmjs.com",
                                                "pypi.org", "files.pythonhosted.org", "pypi.python.org",
                                                "index.crates.io", "static.crates.io", "rubygems.org",
                                                "api.nuget.org", "repo.packagist.org", "repo.maven.apache.org",
                                                "repo1.maven.org", NULL };
        char key[320];

        for (const char *const *d = defaults; *d != NULL; d++)
                if (strcmp(*d, host) == 0)
                        return true;
        snprintf(key, sizeof(key), "%s %s", eco, host);
        return json_object_get(declared, key) != NULL;
}

/* A lockfile beside md (same ecosystem) pins name to a commit (git) or a hash (url)? */
static bool pinned_by_lock(prc_actx *cx, const json_t *md, const json_t *dep)
{
        const json_t *lk, *d;
        const char *eco = S(md, "ecosystem");
        char a[512], b[512];
        size_t k;

        norm_name(eco, S(dep, "name"), a, sizeof(a));
        for (size_t i = 0; (lk = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                bool here = same_dir(S(lk, "path"), S(md, "path")) ||
                            (is(eco, "cargo") && dir_above(S(lk, "path"), S(md, "path")));
                if (!is(S(lk, "kind"), "lockfile") || !is(S(lk, "ecosystem"), eco) || !here)
                        continue;
                json_array_foreach(json_object_get(lk, "dependencies"), k, d) {
                        norm_name(eco, S(d, "name"), b, sizeof(b));
                        if (strcmp(a, b) != 0)
                                continue;
                        if (is(src_type(d), "git") && hex40(S(json_object_get(d, "source"), "commit")))
                                return true;
                        if (is(src_type(d), "url") && (json_is_object(json_object_get(d, "integrity")) ||
                                                       url_names_commit(S(json_object_get(d, "source"), "url"))))
                                return true;
                }
        }
        return false;
}

static bool nrs_dep(prc_actx *cx, const json_t *declared, const json_t *md, const json_t *d, prc_err *err)
{
        const json_t *src = json_object_get(d, "source");
        const char *st = S(src, "type"), *url = S(src, "url");
        bool lock = is(S(md, "kind"), "lockfile");
        char text[TEXT_MAX], host[256], detail[TEXT_MAX];

        /* A manifest's text is the specifier as written; a lockfile's the location it resolved. */
        snprintf(text, sizeof(text), "%s %s", S(d, "name"),
                 !lock && S(d, "requirement") != NULL ? S(d, "requirement") : url != NULL ? url : "");
        if (is(st, "git")) {
                if (hex40(S(src, "commit")) || hex40(S(src, "ref")) || (!lock && pinned_by_lock(cx, md, d)))
                        return true;
                return found(cx, md, L(d), text,
                             lock ? "a git source without a locked commit" : "a git dependency on a moving ref", err);
        }
        if (is(st, "url")) {
                if (json_is_object(json_object_get(d, "integrity")) || url_names_commit(url) ||
                    (!lock && pinned_by_lock(cx, md, d)))
                        return true;
                return found(cx, md, L(d), text, "a URL source without a hash or a commit", err);
        }
        if (is(st, "path")) {
                if (path_inside(S(md, "path"), url))
                        return true;
                return found(cx, md, L(d), text, "a path outside the tree", err);
        }
        if (is(st, "registry") && lock && url != NULL) {
                url_host(url, host, sizeof(host));
                if (host[0] == 0 || host_declared(declared, S(md, "ecosystem"), host))
                        return true;
                snprintf(detail, sizeof(detail), "resolved from %s, a host no manifest or registry config declares",
                         host);
                return found(cx, md, L(d), text, detail, err);
        }
        return true;
}

bool prc_deps_non_registry_source(prc_actx *cx, prc_err *err)
{
        const json_t *md, *d;
        json_t *declared = declared_hosts(cx);
        size_t k;
        bool ok = true;

        if (declared == NULL)
                return prc_err_oom(err, "the declared registry hosts");
        for (size_t i = 0; ok && (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                json_array_foreach(json_object_get(md, "dependencies"), k, d) {
                        ok = nrs_dep(cx, declared, md, d, err);
                        if (!ok)
                                break;
                }
        }
        json_decref(declared);
        return ok;
}

/* ================================================================ deps-install-scripts */

/* Is ignore-scripts=true set by an .npmrc in the folder of path or above? */
static bool npm_ignores_scripts(const prc_actx *cx, const char *path)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++) {
                const char *v = S(json_object_get(det(md), "settings"), "ignore-scripts");
                if (is(fmt(md), "npmrc") && dir_above(S(md, "path"), path) && is(v, "true"))
                        return true;
        }
        return false;
}

static const char *hook_detail(const char *f)
{
        if (is(f, "npm-package-json"))
                return "npm runs this lifecycle script when the package is installed";
        if (is(f, "cargo-toml"))
                return "cargo compiles and runs this build script on the builder's machine";
        if (is(f, "composer-json"))
                return "composer runs this script on its own event";
        return "runs at install time";
}

static bool own_hooks(prc_actx *cx, const json_t *md, prc_err *err)
{
        const json_t *h;
        size_t k;
        char text[TEXT_MAX];

        json_array_foreach(json_object_get(md, "hooks"), k, h) {
                snprintf(text, sizeof(text), "%s: %s", S(h, "name"), S(h, "command") != NULL ? S(h, "command") : "");
                if (!found(cx, md, L(h), text, hook_detail(fmt(md)), err))
                        return false;
        }
        if (is(fmt(md), "cargo-toml") && json_array_size(json_object_get(md, "hooks")) == 0 &&
            !json_is_null(json_object_get(md, "package"))) {
                static const char *const br[] = { "build.rs", NULL };
                if (dir_holds(cx, S(md, "path"), dir_len(S(md, "path")), br))
                        return found(cx, md, head_line(md), "build.rs",
                                     "cargo compiles and runs build.rs beside Cargo.toml on the builder's machine",
                                     err);
        }
        return true;
}

/* Locked dependencies that declare install scripts: npm hasInstallScript, composer plugins. */
static bool locked_hooks(prc_actx *cx, const json_t *md, prc_err *err)
{
        const json_t *e, *d;
        size_t k;
        char text[TEXT_MAX];

        if ((is(fmt(md), "npm-package-lock") || is(fmt(md), "npm-shrinkwrap") || is(fmt(md), "pnpm-lock")) &&
            !npm_ignores_scripts(cx, S(md, "path"))) {
                json_array_foreach(json_object_get(det(md), "install_scripts"), k, e) {
                        d = json_array_get(json_object_get(md, "dependencies"),
                                           (size_t)json_integer_value(json_object_get(e, "dependency")));
                        if (d == NULL)
                                continue;
                        snprintf(text, sizeof(text), "%s %s", S(d, "name"), S(d, "resolved") ? S(d, "resolved") : "");
                        if (!found(cx, md, L(d), text,
                                   "a locked dependency with install scripts (npm runs them; no ignore-scripts=true "
                                   "in an .npmrc here or above)",
                                   err))
                                return false;
                }
        }
        if (is(fmt(md), "composer-lock")) {
                json_array_foreach(json_object_get(det(md), "plugins"), k, e) {
                        if (!found(cx, md, L(e), S(e, "name"),
                                   "a locked composer plugin: composer runs its code during install", err))
                                return false;
                }
        }
        return true;
}

static bool is_python_manifest(const json_t *md)
{
        return is(S(md, "ecosystem"), "pypi") && is(S(md, "kind"), "manifest");
}

/* setup.py beside a Python manifest (or at the root): pip runs it to build the package from source. */
static bool setup_py(prc_actx *cx, prc_err *err)
{
        const prc_ainput *in = prc_act_input(cx);
        const json_t *md;

        for (size_t i = 0; i < in->nfiles; i++) {
                const char *p = in->files[i].path;
                bool beside = dir_len(p) == 0;
                if (strcmp(base(p), "setup.py") != 0 || in->files[i].symlink)
                        continue;
                for (size_t j = 0; !beside && (md = prc_act_mdoc(cx, PRC_AK_DEPS, &j)) != NULL; j++)
                        beside = is_python_manifest(md) && same_dir(S(md, "path"), p);
                if (beside && !prc_act_found(cx, p, 1, "setup.py",
                                             "pip runs setup.py to build this package from source", err))
                        return false;
        }
        return true;
}

bool prc_deps_install_scripts(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++)
                if (!own_hooks(cx, md, err) || !locked_hooks(cx, md, err))
                        return false;
        return setup_py(cx, err);
}

/* ================================================================ deps-registry-confusion */

static bool in_list(const json_t *arr, const char *s)
{
        const json_t *v;
        size_t i;

        json_array_foreach(arr, i, v)
                if (is(json_string_value(v), s))
                        return true;
        return false;
}

static bool nuget_confusion(prc_actx *cx, const json_t *md, prc_err *err)
{
        const json_t *r, *other = NULL;
        size_t k, n = 0;
        bool nugetorg = false;
        char host[256], text[TEXT_MAX];

        if (json_array_size(json_object_get(det(md), "package_source_mapping")) > 0)
                return true;
        json_array_foreach(json_object_get(md, "registries"), k, r) {
                const char *u = S(r, "url");
                if (in_list(json_object_get(det(md), "disabled_sources"), S(r, "name")))
                        continue;
                if (u == NULL || (strncasecmp(u, "https://", 8) != 0 && strncasecmp(u, "http://", 7) != 0))
                        continue;       /* a local folder feed serves only what was put there (NU1507 counts HTTP) */
                url_host(S(r, "url"), host, sizeof(host));
                if (strcmp(host, "api.nuget.org") == 0)
                        nugetorg = true;
                else if (other == NULL)
                        other = r;
                n++;
        }
        /* Without <clear/>, the user's nuget.org source still applies. */
        if (!json_is_true(json_object_get(det(md), "clear")) && !nugetorg)
                n++;
        if (n < 2 || other == NULL)
                return true;
        snprintf(text, sizeof(text), "%s %s", S(other, "name") != NULL ? S(other, "name") : "",
                 S(other, "url") != NULL ? S(other, "url") : "");
        return found(cx, md, L(other), text,
                     "several package sources without packageSourceMapping: any source may serve any package id",
                     err);
}

/* npm lockfiles: unscoped packages resolved from more than one registry host. */
static bool npm_mixed_hosts(prc_actx *cx, const json_t *md, prc_err *err)
{
        const json_t *d;
        size_t k;
        char first[256] = "", h[256], text[TEXT_MAX], detail[TEXT_MAX];

        json_array_foreach(json_object_get(md, "dependencies"), k, d) {
                const char *n = S(d, "name");
                if (!is(src_type(d), "registry") || n == NULL || n[0] == '@')
                        continue;
                url_host(S(json_object_get(d, "source"), "url"), h, sizeof(h));
                if (h[0] == 0)
                        continue;
                if (strcmp(h, "registry.yarnpkg.com") == 0 || strcmp(h, "registry.npmjs.com") == 0)
                        snprintf(h, sizeof(h), "registry.npmjs.org");   /* the same registry */
                if (first[0] == 0) {
                        snprintf(first, sizeof(first), "%s", h);
                        continue;
                }
                if (strcmp(first, h) == 0)
                        continue;
                snprintf(text, sizeof(text), "%s %s", n, S(json_object_get(d, "source"), "url"));
                snprintf(detail, sizeof(detail),
                         "unscoped packages come from %s and from %s: a name on one can shadow the other", first, h);
                return found(cx, md, L(d), text, detail, err);
        }
        return true;
}

static bool confusion_one(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *f = fmt(md);
        const json_t *r, *first = NULL;
        size_t k;
        char text[TEXT_MAX];

        if (is(f, "pypi-requirements") || is(f, "pypi-pip-conf")) {
                json_array_foreach(json_object_get(md, "registries"), k, r) {
                        if (!is(S(r, "name"), "extra-index-url"))
                                continue;
                        snprintf(text, sizeof(text), "extra-index-url %s", S(r, "url") != NULL ? S(r, "url") : "");
                        if (!found(cx, md, L(r), text,
                                   "pip merges an extra index with the main one and takes the highest version from "
                                   "either",
                                   err))
                                return false;
                }
                return true;
        }
        if (is(f, "pypi-pyproject")) {
                /* Poetry searches a supplemental (or 1.x secondary) source for whatever the primary lacks. */
                json_array_foreach(json_object_get(det(md), "poetry_sources"), k, r) {
                        const char *p = S(r, "priority");
                        if (!is(p, "supplemental") && !is(p, "secondary"))
                                continue;
                        snprintf(text, sizeof(text), "[[tool.poetry.source]] %s, priority %s",
                                 S(r, "name") != NULL ? S(r, "name") : "", p);
                        if (!found(cx, md, L(r), text,
                                   "Poetry looks a name up here only when the primary index lacks it: the same name "
                                   "published there wins (use priority = \"explicit\" and source = on each package)",
                                   err))
                                return false;
                }
                return true;
        }
        if (is(f, "nuget-config"))
                return nuget_confusion(cx, md, err);
        if (is(f, "npmrc")) {
                json_array_foreach(json_object_get(md, "registries"), k, r) {
                        if (S(r, "scope") != NULL)
                                continue;
                        if (first == NULL) {
                                first = r;
                                continue;
                        }
                        snprintf(text, sizeof(text), "registry=%s", S(r, "url") != NULL ? S(r, "url") : "");
                        return found(cx, md, L(r), text,
                                     "a second unscoped registry: which one npm uses depends on order", err);
                }
                return true;
        }
        if (is(f, "npm-package-lock") || is(f, "npm-shrinkwrap") || is(f, "yarn-lock") || is(f, "pnpm-lock"))
                return npm_mixed_hosts(cx, md, err);
        if (is(f, "gem-gemfile")) {
                json_array_foreach(json_object_get(md, "registries"), k, r) {
                        if (S(r, "scope") != NULL)
                                continue;       /* a source block: only its own gems come from it */
                        if (first == NULL) {
                                first = r;
                                continue;
                        }
                        snprintf(text, sizeof(text), "source \"%s\"", S(r, "url") != NULL ? S(r, "url") : "");
                        return found(cx, md, L(r), text,
                                     "a second top-level source: Bundler may take any gem from either (use a source "
                                     "block)",
                                     err);
                }
        }
        return true;
}

bool prc_deps_registry_confusion(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DEPS, &i)) != NULL; i++)
                if (!confusion_one(cx, md, err))
                        return false;
        return true;
}
