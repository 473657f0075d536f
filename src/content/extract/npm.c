/*
 * npm.c - the npm family: package.json, package-lock.json and
 * npm-shrinkwrap.json (lockfile versions 1 to 3), .npmrc, and the helpers
 * npm_lock.c shares (npm.h).  docs/extraction/npm.md is the reference.
 * Trust: runs in the content worker on hostile bytes; parses only through
 * prc_json_parse, bounded by in->lim.
 */
#include "content/extract/npm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/utf8.h"

uint32_t npm_cur_find(const prc_xin *in, npm_cur *c, const char *needle)
{
        size_t nl = strlen(needle);
        const uint8_t *hit;

        if (nl == 0 || in->n < nl || c->off > in->n)
                return 0;
        hit = memmem(in->p + c->off, in->n - c->off, needle, nl);
        if (hit == NULL)
                return 0;
        c->line += prc_x_count_lf(in->p + c->off, (size_t)(hit - (in->p + c->off)));
        c->off = (size_t)(hit - in->p);
        return c->line;
}

char *npm_purl(const char *name, const char *version)
{
        const char *slash;
        char ns[PRC_MD_STR_MAX + 1];

        if (name == NULL || *name == '\0')
                return NULL;
        slash = name[0] == '@' ? strchr(name, '/') : NULL;
        if (slash == NULL || slash[1] == '\0' || (size_t)(slash - name) > PRC_MD_STR_MAX)
                return prc_purl("npm", NULL, name, version, NULL, NULL);
        memcpy(ns, name, (size_t)(slash - name));
        ns[slash - name] = 0;
        return prc_purl("npm", ns, slash + 1, version, NULL, NULL);
}

npm_dep npm_add_dep(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                    const char *requirement, const char *resolved, prc_err *err)
{
        return (npm_dep){ md, prc_md_row_add(md, name, scope, direct, line, requirement, resolved, err) };
}

static bool starts(const char *s, const char *p)
{
        return strncmp(s, p, strlen(p)) == 0;
}

/* The dependency's purl: its name with the version it resolves to, if any; an alias names the real package. */
static bool set_purl(npm_dep dep, const char *name, const char *version, prc_err *err)
{
        return prc_md_row_take_purl(dep.md, dep.row, npm_purl(name, version), err);
}

/* "owner/repo" or "owner/repo#ref": npm's GitHub shorthand (not a scoped name, not a path). */
static bool github_shorthand(const char *s)
{
        const char *slash = strchr(s, '/');

        if (slash == NULL || s[0] == '@' || s[0] == '.' || s[0] == '/' || s[0] == '~' || slash == s ||
            slash[1] == '\0' || strchr(s, ':') != NULL)
                return false;
        return strchr(slash + 1, '/') == NULL || strchr(slash + 1, '#') < strchr(slash + 1, '/');
}

/* Split "url#ref" into a source of type: ref and url copied (bounded). */
static bool set_with_ref(npm_dep dep, const char *type, const char *spec, bool commit_ref, prc_err *err)
{
        char url[PRC_MD_STR_MAX + 1];
        const char *hash = strchr(spec, '#'), *ref = NULL;
        size_t n = hash != NULL ? (size_t)(hash - spec) : strlen(spec);

        if (n > PRC_MD_STR_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a URL of %zu bytes (the limit is %u)", n,
                                   PRC_MD_STR_MAX);
        memcpy(url, spec, n);
        url[n] = 0;
        if (hash != NULL && hash[1] != '\0')
                ref = hash + 1;
        return prc_md_row_set_source(dep.md, dep.row, type, url, commit_ref ? NULL : ref, commit_ref ? ref : NULL, err);
}

bool npm_set_spec_source(npm_dep dep, const char *spec, prc_err *err)
{
        static const char *const git_prefixes[] = { "git+", "git://", "github:", "gitlab:", "bitbucket:", "gist:" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(git_prefixes); i++)
                if (starts(spec, git_prefixes[i]))
                        return set_with_ref(dep, "git", spec, false, err);
        if (github_shorthand(spec))
                return set_with_ref(dep, "git", spec, false, err);
        if (starts(spec, "http://") || starts(spec, "https://"))
                return prc_md_row_set_source(dep.md, dep.row, "url", spec, NULL, NULL, err);
        if (starts(spec, "file:") || starts(spec, "link:") || starts(spec, "./") || starts(spec, "../") ||
            starts(spec, "/") || starts(spec, "~/") || strcmp(spec, ".") == 0 || strcmp(spec, "..") == 0)
                return prc_md_row_set_source(dep.md, dep.row, "path", spec, NULL, NULL, err);
        if (starts(spec, "workspace:"))
                return prc_md_row_set_source(dep.md, dep.row, "workspace", NULL, spec + 10, NULL, err);
        return true;    /* a range, a tag or an npm: alias: the registry */
}

bool npm_set_resolved_source(npm_dep dep, const char *resolved, prc_err *err)
{
        if (starts(resolved, "git+") || starts(resolved, "git://") || starts(resolved, "github:"))
                return set_with_ref(dep, "git", resolved, true, err);
        if (starts(resolved, "http://") || starts(resolved, "https://")) {
                /* A registry tarball stays "registry" with its URL; any other URL is a url source. */
                bool reg = strstr(resolved, "/-/") != NULL;
                return prc_md_row_set_source(dep.md, dep.row, reg ? "registry" : "url", resolved, NULL, NULL, err);
        }
        if (starts(resolved, "file:") || starts(resolved, "link:"))
                return prc_md_row_set_source(dep.md, dep.row, "path", resolved, NULL, NULL, err);
        return prc_md_row_set_source(dep.md, dep.row, "path", resolved, NULL, NULL, err);
}

bool npm_set_integrity(npm_dep dep, const char *sri, const char *hex_alg, prc_err *err)
{
        char alg[32];
        const char *dash, *val;
        char *copy;
        size_t n;
        bool ok;

        if (hex_alg != NULL && *sri == '\0')   /* "10c0/" and nothing after it: the fuzzer's second find */
                return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "an empty %s checksum", hex_alg);
        if (hex_alg != NULL)
                return prc_md_row_set_integrity(dep.md, dep.row, hex_alg, sri, err);
        dash = strchr(sri, '-');
        if (dash == NULL || dash == sri || (size_t)(dash - sri) >= sizeof(alg))
                return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "integrity \"%.40s\" is not algorithm-value", sri);
        memcpy(alg, sri, (size_t)(dash - sri));
        alg[dash - sri] = 0;
        val = dash + 1;
        n = strcspn(val, " \t\n?");     /* several hashes: the first; an option suffix is not the value */
        if (n == 0)
                return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "integrity \"%.40s\" has no value", sri);
        copy = strndup(val, n);
        if (copy == NULL)
                return prc_err_oom(err, "integrity");
        ok = prc_md_row_set_integrity(dep.md, dep.row, alg, copy, err);
        free(copy);
        return ok;
}

const char *npm_scalar(const json_t *v, char *buf, size_t cap)
{
        if (json_is_string(v))
                return json_string_value(v);
        if (json_is_integer(v)) {
                snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
                return buf;
        }
        return NULL;
}

/* Append a copy of s (valid UTF-8, at most PRC_MD_STR_MAX bytes) to arr, at most PRC_MD_LIST_MAX entries. */
static bool push_str(json_t *arr, const char *s, const char *what, prc_err *err)
{
        size_t n = strlen(s), bad;

        if (json_array_size(arr) >= PRC_MD_LIST_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u %s", PRC_MD_LIST_MAX, what);
        if (n > PRC_MD_STR_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "one of %s is %zu bytes (the limit is %u)", what, n,
                                   PRC_MD_STR_MAX);
        if (!prc_utf8_valid((const uint8_t *)s, n, &bad))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "one of %s is not valid UTF-8", what);
        if (json_array_append_new(arr, json_stringn(s, n)) != 0)
                return prc_err_oom(err, what);
        return true;
}

static json_t *parse_json(const prc_xin *in, prc_err *err)
{
        json_t *doc = prc_json_parse(in->p, in->n, in->lim, PRC_JSON_ALLOW_FLOAT, err);

        if (doc != NULL && !json_is_object(doc)) {
                prc_x_drop(doc);
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "the top level is not an object");
                prc_err_set_line(err, 1, 1);
                return NULL;
        }
        return doc;
}

static bool shape(prc_err *err, uint32_t line, const char *fmt, ...) PRC_PRINTF(3, 4);
static bool shape(prc_err *err, uint32_t line, const char *fmt, ...)
{
        char msg[200];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "%s", msg);
        prc_err_set_line(err, line, 0);
        return false;
}

/* A member that must be a string when present (else extract-shape); NULL when absent. */
static bool opt_str(const json_t *obj, const char *key, const char **out, const prc_xin *in, prc_err *err)
{
        const json_t *v = json_object_get(obj, key);
        char q[80];

        *out = NULL;
        if (v == NULL || json_is_null(v))
                return true;
        if (!json_is_string(v)) {
                snprintf(q, sizeof(q), "\"%s\"", key);
                return shape(err, prc_x_find_line(in, q, 1), "\"%s\" is not a string", key);
        }
        *out = json_string_value(v);
        return true;
}

/* ------------------------------------------------------------------ package.json */

/* npm runs these on `npm install` (docs.npmjs.com "scripts", life cycle operation order). */
static const char *const install_hooks[] = { "preinstall", "install", "postinstall", "prepublish", "preprepare",
                                             "prepare", "postprepare", "dependencies" };

static bool pj_deps(json_t *md, const prc_xin *in, const json_t *doc, const char *key, const char *scope,
                    prc_err *err)
{
        const json_t *obj = json_object_get(doc, key), *v;
        const char *name;
        char q[PRC_MD_STR_MAX + 8];
        npm_cur cur = { 0, 1 };
        uint32_t kl;

        if (obj == NULL)
                return true;
        snprintf(q, sizeof(q), "\"%s\"", key);
        kl = npm_cur_find(in, &cur, q);
        if (!json_is_object(obj))
                return shape(err, kl, "\"%s\" is not an object of name: specifier", key);
        json_object_foreach((json_t *)obj, name, v) {
                const char *spec = json_string_value(v), *real = name;
                char alias[PRC_MD_STR_MAX + 1];
                npm_dep d;
                uint32_t line;

                if (!json_is_string(v))
                        return shape(err, kl, "a specifier in \"%s\" is not a string", key);
                snprintf(q, sizeof(q), "\"%.*s\"", (int)PRC_MD_STR_MAX, name);
                line = npm_cur_find(in, &cur, q);
                d = npm_add_dep(md, name, scope, true, line, spec, NULL, err);
                if (d.row == PRC_MDROW_NONE || !npm_set_spec_source(d, spec, err))
                        return false;
                /*
                 * "npm:real@range" installs another package under this name: the purl names the real one.
                 * A bare "npm:" names none (and spec + 5 would be past its end).
                 */
                if (starts(spec, "npm:") && spec[4] != '\0' && strlen(spec + 4) <= PRC_MD_STR_MAX) {
                        const char *at = strchr(spec + 5, '@');
                        size_t n = at != NULL ? (size_t)(at - spec - 4) : strlen(spec + 4);
                        memcpy(alias, spec + 4, n);
                        alias[n] = 0;
                        real = alias;
                }
                if (strcmp(prc_md_row_source_type(d.md, d.row), "registry") ==
                            0 &&
                    !set_purl(d, real, NULL, err))
                        return false;
        }
        return true;
}

/*
 * Overrides (npm, nested), resolutions (yarn), pnpm.overrides: flattened to
 * {selector, value, source, line}; needle is the quoted key that states them.
 */
static bool pj_overrides(json_t *list, const prc_xin *in, const json_t *obj, const char *prefix, const char *from,
                         const char *needle, int depth, prc_err *err)
{
        const char *k;
        const json_t *v;
        char sel[PRC_MD_STR_MAX + 1], q[PRC_MD_STR_MAX + 8];

        if (!json_is_object(obj))
                return shape(err, prc_x_find_line(in, needle, 1), "\"%s\" is not an object", from);
        if (depth > 32)
                return shape(err, prc_x_find_line(in, needle, 1), "\"%s\" nests deeper than 32 levels", from);
        json_object_foreach((json_t *)obj, k, v) {
                json_t *o;
                uint32_t line;
                int n = prefix[0] != '\0' ? snprintf(sel, sizeof(sel), "%s>%s", prefix, k)
                                          : snprintf(sel, sizeof(sel), "%s", k);

                if (n < 0 || (size_t)n >= sizeof(sel))
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "an override selector over %u bytes",
                                           PRC_MD_STR_MAX);
                if (json_is_object(v)) {
                        if (!pj_overrides(list, in, v, sel, from, needle, depth + 1, err))
                                return false;
                        continue;
                }
                if (!json_is_string(v))
                        return shape(err, prc_x_find_line(in, needle, 1), "a value in \"%s\" is not a string", from);
                if (json_array_size(list) >= PRC_MD_LIST_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u overrides", PRC_MD_LIST_MAX);
                snprintf(q, sizeof(q), "\"%.*s\"", (int)PRC_MD_STR_MAX, k);
                /* the key's first mention after the section's own key (a name may also be a dependency) */
                line = prc_x_find_line(in, q, prc_x_find_line(in, needle, 1));
                o = json_object();
                if (o == NULL || json_array_append_new(list, o) != 0 ||
                    json_object_set_new(o, "source", json_string(from)) != 0)
                        return prc_err_oom(err, "overrides");
                if (!prc_md_set_str(o, "selector", sel, err) ||
                    !prc_md_set_str(o, "value", json_string_value(v), err) ||
                    json_object_set_new(o, "line", line > 0 ? json_integer(line) : json_null()) != 0)
                        return prc_err_oom(err, "overrides");
        }
        return true;
}

static bool str_array(const json_t *a, json_t *out, const prc_xin *in, const char *what, prc_err *err)
{
        const json_t *v;
        size_t i;

        if (!json_is_array(a))
                return shape(err, prc_x_find_line(in, what, 1), "%s is not an array of strings", what);
        json_array_foreach(a, i, v) {
                if (!json_is_string(v))
                        return shape(err, prc_x_find_line(in, what, 1), "%s is not an array of strings", what);
                if (!push_str(out, json_string_value(v), what, err))
                        return false;
        }
        return true;
}

json_t *prc_x_npm_package_json(const prc_xin *in, prc_err *err)
{
        static const struct {
                const char *key, *scope;
        } kinds[] = {
                { "dependencies", "runtime" },
                { "devDependencies", "dev" },
                { "optionalDependencies", "optional" },
                { "peerDependencies", "peer" },
        };
        json_t *doc = parse_json(in, err), *md = NULL, *det, *ov, *ws, *other, *bundled;
        const json_t *v;
        const char *name, *version, *k;
        char *purl = NULL;

        if (doc == NULL)
                return NULL;
        md = prc_md_new(in, "npm-package-json", "npm", "manifest", err);
        if (md == NULL || !opt_str(doc, "name", &name, in, err) || !opt_str(doc, "version", &version, in, err))
                goto fail;
        if (name != NULL || version != NULL) {
                purl = name != NULL && *name != '\0' ? npm_purl(name, version) : NULL;
                if (!prc_md_set_package(md, name, version, purl, prc_x_find_line(in, "\"name\"", 1), err))
                        goto fail;
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(kinds); i++)
                if (!pj_deps(md, in, doc, kinds[i].key, kinds[i].scope, err))
                        goto fail;
        det = prc_md_details(md);
        /* peerDependenciesMeta {"x": {"optional": true}}: the optional peers, by name. */
        v = PRC_JGET(doc, "peerDependenciesMeta");
        if (v != NULL) {
                json_t *opt = json_array(), *m;
                if (opt == NULL || json_object_set_new(det, "optional_peers", opt) != 0 || !json_is_object(v)) {
                        if (opt != NULL && json_is_object(v))
                                prc_err_oom(err, "details");
                        else
                                shape(err, prc_x_find_line(in, "\"peerDependenciesMeta\"", 1),
                                      "%s is not an object", "\"peerDependenciesMeta\"");
                        goto fail;
                }
                json_object_foreach((json_t *)v, k, m)
                        if (json_is_true(PRC_JGET(m, "optional")) && !push_str(opt, k, "optional peers", err))
                                goto fail;
        }
        /* bundleDependencies: an array of names, or true for all of dependencies. */
        v = PRC_JGET(doc, "bundleDependencies");
        if (v == NULL)
                v = PRC_JGET(doc, "bundledDependencies");
        bundled = json_array();
        if (bundled == NULL || json_object_set_new(det, "bundled", bundled) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        if (json_is_true(v)) {
                json_object_foreach(PRC_JGET(doc, "dependencies"), k, other)
                        if (!push_str(bundled, k, "bundled dependencies", err))
                                goto fail;
        } else if (v != NULL && !json_is_false(v) && !json_is_null(v) &&
                   !str_array(v, bundled, in, "\"bundleDependencies\"", err)) {
                goto fail;
        }
        ov = json_array();
        if (ov == NULL || json_object_set_new(det, "overrides", ov) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        if ((v = PRC_JGET(doc, "overrides")) != NULL &&
            !pj_overrides(ov, in, v, "", "overrides", "\"overrides\"", 0, err))
                goto fail;
        if ((v = PRC_JGET(doc, "resolutions")) != NULL &&
            !pj_overrides(ov, in, v, "", "resolutions", "\"resolutions\"", 0, err))
                goto fail;
        if ((v = PRC_JGET(PRC_JGET(doc, "pnpm"), "overrides")) != NULL &&
            !pj_overrides(ov, in, v, "", "pnpm.overrides", "\"overrides\"", 0, err))
                goto fail;
        /* workspaces: ["packages/x"] or {"packages": [...], "nohoist": [...]} */
        ws = json_array();
        if (ws == NULL || json_object_set_new(det, "workspaces", ws) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        v = PRC_JGET(doc, "workspaces");
        if (json_is_object(v))
                v = PRC_JGET(v, "packages");
        if (v != NULL && !str_array(v, ws, in, "\"workspaces\"", err))
                goto fail;
        /* Lifecycle scripts npm runs at install are hooks; the other scripts are listed by name. */
        other = json_array();
        if (other == NULL || json_object_set_new(det, "scripts", other) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        v = PRC_JGET(doc, "scripts");
        if (v != NULL && !json_is_object(v)) {
                shape(err, prc_x_find_line(in, "\"scripts\"", 1), "%s is not an object", "\"scripts\"");
                goto fail;
        }
        {
                npm_cur cur = { 0, 1 };
                const json_t *cmd;
                char q[PRC_MD_STR_MAX + 8];
                bool hook;

                (void)npm_cur_find(in, &cur, "\"scripts\"");
                json_object_foreach((json_t *)v, k, cmd) {
                        uint32_t line;
                        if (!json_is_string(cmd)) {
                                shape(err, cur.line, "a script in %s is not a string", "\"scripts\"");
                                goto fail;
                        }
                        snprintf(q, sizeof(q), "\"%.*s\"", (int)PRC_MD_STR_MAX, k);
                        line = npm_cur_find(in, &cur, q);
                        hook = false;
                        for (size_t i = 0; i < PRC_ARRAY_LEN(install_hooks); i++)
                                hook |= strcmp(k, install_hooks[i]) == 0;
                        if (hook ? !prc_md_add_hook(md, k, json_string_value(cmd), line, err)
                                 : !push_str(other, k, "scripts", err))
                                goto fail;
                }
        }
        /* npm runs `node-gyp rebuild` at install for a package with binding.gyp: not visible from this file. */
        {
                const char *pm = NULL;
                if (!opt_str(doc, "packageManager", &pm, in, err) ||
                    !prc_md_set_str(det, "package_manager", pm, err))
                        goto fail;
        }
        if (PRC_JGET(doc, "private") != NULL &&
            json_object_set_new(det, "private", json_boolean(json_is_true(PRC_JGET(doc, "private")))) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        free(purl);
        prc_x_drop(doc);
        return md;
fail:
        free(purl);
        json_decref(md);
        prc_x_drop(doc);
        return NULL;
}

/* ------------------------------------------------------------------ package-lock.json / npm-shrinkwrap.json */

struct lock {
        const prc_xin *in;
        json_t        *md;
        json_t        *direct;  /* borrowed: root's declared names (name -> scope) */
        npm_cur        cur;
        json_t        *at;      /* install folder ("node_modules/a/node_modules/b") -> dependency index */
        json_t        *rows;    /* per dependency: [folder, entry] (v1 folders are built the same way) */
};

/* Remember where dependency (the last added) is installed, for the edges. */
static bool lock_row(struct lock *l, const char *folder, const json_t *e, prc_err *err)
{
        size_t i = prc_md_row_count(l->md) - 1;

        if (json_object_set_new(l->at, folder, json_integer((json_int_t)i)) != 0 ||
            json_array_append_new(l->rows, json_pack("[sO]", folder, e)) != 0)
                return prc_err_oom(err, "lockfile edges");
        return true;
}

/*
 * The dependency name required from folder resolves as Node does: folder/node_modules/name, then
 * each enclosing node_modules up to the root's.  -1 when no folder of the lockfile holds it.
 */
/* Append s to dst (len bytes of cap used) as snprintf would: cut at cap - 1, always terminated. */
static size_t cat(char *dst, size_t cap, size_t len, const char *s)
{
        size_t n = strlen(s);

        if (n > cap - 1 - len)
                n = cap - 1 - len;
        memcpy(dst + len, s, n);
        dst[len + n] = '\0';
        return len + n;
}

static long lock_find(const struct lock *l, const char *folder, const char *name)
{
        char cur[2 * PRC_MD_STR_MAX + 32], key[3 * PRC_MD_STR_MAX + 64];
        const json_t *ix;

        (void)cat(cur, sizeof(cur), 0, folder);
        for (;;) {
                char *nm;
                /* snprintf's "%s%snode_modules/%s" without its cost: this runs once per edge and level */
                size_t k = cat(key, sizeof(key), 0, cur);
                k = cat(key, sizeof(key), k, cur[0] ? "/node_modules/" : "node_modules/");
                (void)cat(key, sizeof(key), k, name);
                if ((ix = json_object_get(l->at, key)) != NULL)
                        return (long)json_integer_value(ix);
                if (cur[0] == '\0')
                        return -1;
                /* up: drop the last "node_modules/NAME" (or a workspace folder) */
                nm = NULL;
                for (char *q = strstr(cur, "node_modules/"); q != NULL; q = strstr(q + 1, "node_modules/"))
                        nm = q;
                if (nm == NULL || nm == cur)
                        cur[0] = '\0';
                else
                        nm[-1] = '\0';
        }
}

/*
 * Edges: v2/v3 entries list dependencies, optionalDependencies and peerDependencies (and a workspace
 * folder its devDependencies); v1 entries list "requires".  A link points at its folder.  An optional or
 * peer dependency the lockfile does not hold was not installed: no edge, nothing to note.
 */
static bool lock_edges(struct lock *l, int lv, prc_err *err)
{
        static const char *const lists[] = { "dependencies", "optionalDependencies", "peerDependencies",
                                             "devDependencies" };
        const json_t *row;
        size_t i;

        json_array_foreach(l->rows, i, row) {
                const char *folder = json_string_value(json_array_get(row, 0));
                const json_t *e = json_array_get(row, 1), *ix;
                bool ws = strstr(folder, "node_modules/") == NULL;

                if (json_is_true(PRC_JGET(e, "link"))) {
                        const json_t *res = PRC_JGET(e, "resolved");

                        ix = json_object_get(l->at, json_is_string(res) ? json_string_value(res) : "");
                        if (ix != NULL && !prc_md_edge(l->md, i, (size_t)json_integer_value(ix), err))
                                return false;
                        continue;
                }
                for (size_t k = 0; k < (lv == 1 ? 1 : ws ? 4u : 3u); k++) {
                        const json_t *o = json_object_get(e, lv == 1 ? "requires" : lists[k]), *req;
                        const char *name;
                        json_object_foreach((json_t *)o, name, req) {
                                long t = lock_find(l, folder, name);
                                if (t >= 0 ? !prc_md_edge(l->md, i, (size_t)t, err)
                                           : (lv == 1 || k == 0 || k == 3) &&
                                                     !prc_md_edge_unresolved(l->md, i, name, json_string_value(req),
                                                                             err))
                                        return false;
                        }
                }
        }
        return prc_md_edges_finish(l->md, err);
}

/*
 * Note the dependency just added in the details list key ("install_scripts":
 * package-lock hasInstallScript, pnpm requiresBuild; "in_bundle": inBundle,
 * shipped inside its parent's tarball): {"dependency": its index, "line"}.
 */
bool npm_note_dep(json_t *md, const char *key, uint32_t line, prc_err *err)
{
        json_t *det = prc_md_details(md), *a = json_object_get(det, key);
        size_t idx = prc_md_row_count(md);

        if (idx == 0)
                return true;
        if (a == NULL) {
                a = json_array();
                if (a == NULL || json_object_set_new(det, key, a) != 0)
                        return prc_err_oom(err, "details");
        }
        if (json_array_size(a) >= PRC_MD_LIST_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u '%s' entries", PRC_MD_LIST_MAX, key);
        if (json_array_append_new(a, json_pack("{s:I,s:o}", "dependency", (json_int_t)(idx - 1), "line",
                                               line > 0 ? json_integer(line) : json_null())) != 0)
                return prc_err_oom(err, "details");
        return true;
}

/* The scope a lockfile entry carries: dev, optional, devOptional (dev), peer; runtime otherwise. */
static const char *entry_scope(const json_t *e)
{
        if (json_is_true(PRC_JGET(e, "dev")) || json_is_true(PRC_JGET(e, "devOptional")))
                return "dev";
        if (json_is_true(PRC_JGET(e, "optional")))
                return "optional";
        if (json_is_true(PRC_JGET(e, "peer")))
                return "peer";
        return "runtime";
}

static bool lock_entry(struct lock *l, const char *name, const json_t *e, bool direct, uint32_t line, prc_err *err)
{
        const char *version, *resolved, *integrity, *real;
        char alias_real[PRC_MD_STR_MAX + 1];
        npm_dep d;

        if (!json_is_object(e))
                return shape(err, line, "the lockfile entry for %s is not an object", name);
        if (!opt_str(e, "version", &version, l->in, err) || !opt_str(e, "resolved", &resolved, l->in, err) ||
            !opt_str(e, "integrity", &integrity, l->in, err) || !opt_str(e, "name", &real, l->in, err))
                return false;
        if (json_is_true(PRC_JGET(e, "link"))) {
                /* A workspace member linked into node_modules: resolved is its folder. */
                d = npm_add_dep(l->md, name, entry_scope(e), direct, line, NULL, NULL, err);
                return d.row != PRC_MDROW_NONE &&
                       prc_md_row_set_source(d.md, d.row, "workspace", resolved, NULL, NULL, err);
        }
        /* v1 writes an alias's version as "npm:real@1.0.0": the real package and its version. */
        if (version != NULL && starts(version, "npm:")) {
                const char *r = version + 4, *at = r[0] != '\0' ? strchr(r + 1, '@') : NULL;
                if (at != NULL && (size_t)(at - r) < sizeof(alias_real)) {
                        memcpy(alias_real, r, (size_t)(at - r));
                        alias_real[at - r] = 0;
                        real = alias_real;
                        version = at + 1;
                }
        }
        /* v1 "version" of a non-registry entry is its location ("git+https://...#commit", "file:..."). */
        if (version != NULL && (starts(version, "git") || starts(version, "file:") || starts(version, "http"))) {
                if (resolved == NULL)
                        resolved = version;
                version = NULL;
        }
        d = npm_add_dep(l->md, name, entry_scope(e), direct, line, NULL, version, err);
        if (d.row == PRC_MDROW_NONE || (resolved != NULL && !npm_set_resolved_source(d, resolved, err)) ||
            (integrity != NULL && !npm_set_integrity(d, integrity, NULL, err)))
                return false;
        if (version != NULL && !set_purl(d, real != NULL ? real : name, version, err))
                return false;
        if (json_is_true(PRC_JGET(e, "hasInstallScript")) && !npm_note_dep(l->md, "install_scripts", line, err))
                return false;
        if (json_is_true(PRC_JGET(e, "inBundle")) && !npm_note_dep(l->md, "in_bundle", line, err))
                return false;
        return true;
}

/* v1: "dependencies" nested by "dependencies"; every level's names are keys (installed in folder). */
static bool lock_v1(struct lock *l, const json_t *deps, const char *folder, int depth, prc_err *err)
{
        const char *name;
        const json_t *e;
        char q[PRC_MD_STR_MAX + 8], *sub = NULL;

        if (!json_is_object(deps))
                return shape(err, l->cur.line, "%s is not an object", "\"dependencies\"");
        if (depth > 256)
                return shape(err, l->cur.line, "%s nests deeper than 256 levels", "\"dependencies\"");
        json_object_foreach((json_t *)deps, name, e) {
                uint32_t line;
                snprintf(q, sizeof(q), "\"%.*s\": {", (int)PRC_MD_STR_MAX, name);
                line = npm_cur_find(l->in, &l->cur, q);
                if (!lock_entry(l, name, e, depth == 0 && json_object_get(l->direct, name) != NULL, line, err))
                        return false;
                if (asprintf(&sub, "%s%snode_modules/%s", folder, folder[0] ? "/" : "", name) < 0)
                        return prc_err_oom(err, "lockfile edges");
                if (!lock_row(l, sub, e, err) ||
                    (PRC_JGET(e, "dependencies") != NULL &&
                     !lock_v1(l, PRC_JGET(e, "dependencies"), sub, depth + 1, err))) {
                        free(sub);
                        return false;
                }
                free(sub);
        }
        return true;
}

/* v2, v3: "packages" keyed by install folder ("node_modules/a/node_modules/b"); "" is the root. */
static bool lock_packages(struct lock *l, const json_t *pkgs, prc_err *err)
{
        const char *key;
        const json_t *e;
        char q[PRC_MD_STR_MAX + 8];

        if (!json_is_object(pkgs))
                return shape(err, l->cur.line, "%s is not an object", "\"packages\"");
        json_object_foreach((json_t *)pkgs, key, e) {
                const char *nm = NULL, *p = key, *name;
                uint32_t line;
                bool direct;

                snprintf(q, sizeof(q), "\"%.*s\": {", (int)PRC_MD_STR_MAX, key);
                line = npm_cur_find(l->in, &l->cur, q);
                if (key[0] == '\0')
                        continue;       /* the root package: the package, not a dependency */
                while ((p = strstr(p, "node_modules/")) != NULL) {
                        nm = p + 13;
                        p = nm;
                }
                if (nm == NULL) {
                        /* A workspace member's own folder ("packages/a"): named by its "name". */
                        const char *wname = json_string_value(PRC_JGET(e, "name"));
                        npm_dep d;
                        if (!json_is_object(e))
                                return shape(err, line, "the lockfile entry for %s is not an object", key);
                        d = npm_add_dep(l->md, wname != NULL && *wname != '\0' ? wname : key, "runtime", false, line,
                                        NULL, json_string_value(PRC_JGET(e, "version")), err);
                        if (d.row == PRC_MDROW_NONE ||
                            !prc_md_row_set_source(d.md, d.row, "workspace", key, NULL, NULL, err) ||
                            !lock_row(l, key, e, err))
                                return false;
                        continue;
                }
                name = nm;
                if (*name == '\0')
                        return shape(err, line, "the lockfile key %s names no package", key);
                direct = strchr(name, '/') == NULL || (name[0] == '@' && strchr(strchr(name, '/') + 1, '/') == NULL);
                direct = direct && nm == key + 13 && json_object_get(l->direct, name) != NULL;
                if (!lock_entry(l, name, e, direct, line, err) || !lock_row(l, key, e, err))
                        return false;
        }
        return true;
}

static json_t *lock_extract(const prc_xin *in, const char *format, prc_err *err)
{
        static const char *const root_lists[] = { "dependencies", "devDependencies", "optionalDependencies",
                                                  "peerDependencies" };
        json_t *doc = parse_json(in, err), *md = NULL, *direct = json_object(), *det;
        const json_t *ver, *root;
        const char *name, *version;
        char *purl = NULL;
        struct lock l = { 0 };
        json_int_t lv;

        if (doc == NULL || direct == NULL)
                goto fail;
        ver = PRC_JGET(doc, "lockfileVersion");
        if (!json_is_integer(ver) || json_integer_value(ver) < 1 || json_integer_value(ver) > 3) {
                prc_err_set(err, PRC_E_EXTRACT_VERSION, "lockfileVersion %s (prc reads 1, 2 and 3)",
                            ver == NULL ? "missing" : json_is_integer(ver) ? "unknown" : "not an integer");
                prc_err_set_line(err, prc_x_find_line(in, "\"lockfileVersion\"", 1), 0);
                goto fail;
        }
        lv = json_integer_value(ver);
        md = prc_md_new(in, format, "npm", "lockfile", err);
        if (md == NULL || !opt_str(doc, "name", &name, in, err) || !opt_str(doc, "version", &version, in, err))
                goto fail;
        if (name != NULL || version != NULL) {
                purl = name != NULL && *name != '\0' ? npm_purl(name, version) : NULL;
                if (!prc_md_set_package(md, name, version, purl, prc_x_find_line(in, "\"name\"", 1), err))
                        goto fail;
        }
        det = prc_md_details(md);
        if (json_object_set_new(det, "lockfile_version", json_integer(lv)) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        /* Direct: what the root declares (v2, v3: packages[""]; v1: "requires" of the root is not kept). */
        root = PRC_JGET(PRC_JGET(doc, "packages"), "");
        for (size_t i = 0; i < PRC_ARRAY_LEN(root_lists); i++) {
                const json_t *o = json_object_get(root, root_lists[i]), *s;
                const char *k;
                json_object_foreach((json_t *)o, k, s)
                        json_object_set_new(direct, k, json_true());
        }
        l = (struct lock){ in, md, direct, { 0, 1 }, json_object(), json_array() };
        if (l.at == NULL || l.rows == NULL) {
                prc_err_oom(err, "lockfile edges");
                goto fail;
        }
        if (lv >= 2) {
                if (PRC_JGET(doc, "packages") == NULL) {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "lockfileVersion %d without \"packages\"", (int)lv);
                        goto fail;
                }
                (void)npm_cur_find(in, &l.cur, "\"packages\"");
                if (!lock_packages(&l, PRC_JGET(doc, "packages"), err))
                        goto fail;
        } else {
                /* v1 keeps no list of what the root declares: every entry is transitive-or-unknown. */
                if (json_object_set_new(det, "direct_known", json_false()) != 0) {
                        prc_err_oom(err, "details");
                        goto fail;
                }
                (void)npm_cur_find(in, &l.cur, "\"dependencies\"");
                if (PRC_JGET(doc, "dependencies") != NULL &&
                    !lock_v1(&l, PRC_JGET(doc, "dependencies"), "", 0, err))
                        goto fail;
        }
        if (!lock_edges(&l, (int)lv, err))
                goto fail;
        json_decref(l.at);
        json_decref(l.rows);
        free(purl);
        prc_x_drop(direct);
        prc_x_drop(doc);
        return md;
fail:
        json_decref(l.at);
        json_decref(l.rows);
        free(purl);
        prc_x_drop(direct);
        json_decref(md);
        prc_x_drop(doc);
        return NULL;
}

json_t *prc_x_npm_package_lock(const prc_xin *in, prc_err *err)
{
        return lock_extract(in, "npm-package-lock", err);
}

json_t *prc_x_npm_shrinkwrap(const prc_xin *in, prc_err *err)
{
        return lock_extract(in, "npm-shrinkwrap", err);
}

/* ------------------------------------------------------------------ .npmrc */

/* Settings whose values are never secret and change what an install runs or trusts. */
static const char *const npmrc_settings[] = { "ignore-scripts", "strict-ssl", "always-auth", "engine-strict",
                                              "package-lock", "legacy-peer-deps", "save-exact", "audit",
                                              "script-shell", "node-options", "git", "cafile", "ca",
                                              "registry-strict", "omit", "include", "install-strategy" };

/* The credential keys npm reads, bare or after "//host/path/:". */
static bool npmrc_secret(const char *key)
{
        static const char *const suffixes[] = { "_authToken", "_auth", "_password", "password", "certfile",
                                                "keyfile", "cert", "key", "token" };
        const char *colon = strrchr(key, ':');
        const char *last = colon != NULL ? colon + 1 : key;

        for (size_t i = 0; i < PRC_ARRAY_LEN(suffixes); i++)
                if (strcmp(last, suffixes[i]) == 0)
                        return true;
        return false;
}

static char *trim(char *s)
{
        char *e;

        while (*s == ' ' || *s == '\t')
                s++;
        e = s + strlen(s);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                *--e = 0;
        return s;
}

json_t *prc_x_npmrc(const prc_xin *in, prc_err *err)
{
        json_t *md = prc_md_new(in, "npmrc", "npm", "registry-config", err), *settings, *keys;
        char line[2 * PRC_MD_STR_MAX + 2];
        size_t off = 0;
        uint32_t ln = 0;

        if (md == NULL)
                return NULL;
        settings = json_object();
        keys = json_array();
        if (settings == NULL || keys == NULL || json_object_set_new(prc_md_details(md), "settings", settings) != 0 ||
            json_object_set_new(prc_md_details(md), "other_keys", keys) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        if (memchr(in->p, 0, in->n) != NULL) {
                prc_err_set(err, PRC_E_NUL_BYTE, "a NUL byte in .npmrc");
                goto fail;
        }
        while (off < in->n) {
                const uint8_t *nl = memchr(in->p + off, '\n', in->n - off);
                size_t n = nl != NULL ? (size_t)(nl - in->p) - off : in->n - off;
                char *s, *eq, *key, *val;

                ln++;
                if (n >= sizeof(line)) {
                        prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a line of %zu bytes (the limit is %zu)", n,
                                    sizeof(line) - 1);
                        prc_err_set_line(err, ln, 0);
                        goto fail;
                }
                memcpy(line, in->p + off, n);
                line[n] = 0;
                off += n + (nl != NULL);
                s = trim(line);
                if (*s == '\0' || *s == '#' || *s == ';')
                        continue;
                eq = strchr(s, '=');
                if (eq == NULL) {
                        /* npm's ini reader takes a bare key as "true". */
                        key = s;
                        val = (char *)"true";
                } else {
                        *eq = 0;
                        key = trim(s);
                        val = trim(eq + 1);
                }
                if (strlen(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[strlen(val) - 1] == val[0]) {
                        val[strlen(val) - 1] = 0;
                        val++;
                }
                if (*key == '\0') {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a setting without a key");
                        prc_err_set_line(err, ln, 1);
                        goto fail;
                }
                if (npmrc_secret(key)) {
                        if (!prc_md_add_credential(md, key, ln, err))
                                goto fail;
                        continue;
                }
                if (strcmp(key, "registry") == 0) {
                        if (!prc_md_add_registry(md, "registry", NULL, val, ln, err))
                                goto fail;
                        continue;
                }
                if (key[0] == '@' && strlen(key) > 9 && strcmp(key + strlen(key) - 9, ":registry") == 0) {
                        key[strlen(key) - 9] = 0;
                        if (!prc_md_add_registry(md, "registry", key, val, ln, err))
                                goto fail;
                        continue;
                }
                {
                        bool known = false;
                        for (size_t i = 0; i < PRC_ARRAY_LEN(npmrc_settings); i++)
                                known |= strcmp(key, npmrc_settings[i]) == 0;
                        if (known) {
                                char *clean;
                                bool cred;
                                if (json_object_size(settings) >= PRC_MD_LIST_MAX) {
                                        prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u settings",
                                                    PRC_MD_LIST_MAX);
                                        goto fail;
                                }
                                /* A URL-valued setting (ca, git) may carry userinfo: never its value. */
                                clean = prc_md_url_strip(val, &cred);
                                if (clean == NULL) {
                                        prc_err_oom(err, "settings");
                                        goto fail;
                                }
                                if (!prc_md_set_str(settings, key, clean, err) ||
                                    (cred && !prc_md_add_credential(md, key, ln, err))) {
                                        free(clean);
                                        goto fail;
                                }
                                free(clean);
                                continue;
                        }
                }
                /* Any other key is listed without its value: an unknown key's value may be a secret. */
                if (!push_str(keys, key, "settings", err))
                        goto fail;
        }
        return md;
fail:
        json_decref(md);
        return NULL;
}
