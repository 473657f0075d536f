/*
 * composer.c - PHP extractors: composer.json and composer.lock.
 *
 * Trust: runs in the content worker on hostile bytes, read by the strict
 * JSON reader (prc_json_parse, bounded by in->lim; numbers of any kind are
 * allowed because composer.json's "extra" may hold them, and none of them
 * is extracted).  Lines come from searching the bytes for the text composer
 * writes ("vendor/name", "name": "vendor/name").  Errors: the JSON
 * classes, extract-shape, extract-limit, out-of-memory.
 * docs/extraction/cargo-go-composer.md says what each field means.
 */
#include "content/extract/cgc_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_strict.h"

/*
 * Events composer fires by itself during install, update, create-project,
 * autoload dumps and the other commands (getcomposer.org "Scripts"): their
 * scripts run without anyone asking, so they are hooks.  Any other script
 * name runs only through `composer run-script NAME`.
 */
static const char *const events[] = {
        "pre-install-cmd", "post-install-cmd", "pre-update-cmd", "post-update-cmd", "pre-status-cmd",
        "post-status-cmd", "pre-archive-cmd", "post-archive-cmd", "pre-autoload-dump", "post-autoload-dump",
        "post-root-package-install", "post-create-project-cmd", "pre-operations-exec", "pre-package-install",
        "post-package-install", "pre-package-update", "post-package-update", "pre-package-uninstall",
        "post-package-uninstall", "init", "command", "pre-file-download", "post-file-download",
        "pre-command-run", "pre-pool-create",
};

/* Authentication that composer.json's "config" may hold (normally in auth.json): recorded by key only. */
static const char *const auth_keys[] = {
        "http-basic", "github-oauth", "gitlab-oauth", "gitlab-token", "bitbucket-oauth", "bearer", "forgejo-token",
        "client-certificate",
};

/* Platform packages are requirements on PHP itself, its extensions and libraries, not packages to fetch. */
static bool is_platform(const char *n)
{
        return strcmp(n, "php") == 0 || strncmp(n, "php-", 4) == 0 || strncmp(n, "ext-", 4) == 0 ||
               strncmp(n, "lib-", 4) == 0 || strcmp(n, "hhvm") == 0 || strcmp(n, "composer") == 0 ||
               strcmp(n, "composer-plugin-api") == 0 || strcmp(n, "composer-runtime-api") == 0;
}

/* pkg:composer/vendor/name@version: purl-spec's composer type lower-cases vendor and name. */
static bool set_purl(json_t *obj, const char *name, const char *version, bool package, const char *pkgver,
                     uint32_t line, prc_err *err)
{
        char *low = prc_cgc_lower(name), *slash, *p;
        bool ok;

        if (low == NULL)
                return prc_err_oom(err, "purl");
        slash = strchr(low, '/');
        if (slash != NULL) {
                *slash = '\0';
                p = prc_purl("composer", low, slash + 1, version, NULL, NULL);
        } else {
                p = prc_purl("composer", NULL, low, version, NULL, NULL);
        }
        free(low);
        if (p == NULL)
                return prc_err_oom(err, "purl");
        ok = package ? prc_md_set_package(obj, name, pkgver, p, line, err) : prc_md_set_str(obj, "purl", p, err);
        free(p);
        return ok;
}

/* The line of "needle" as a quoted JSON string at or after line from, else from itself (or 0). */
static uint32_t qline(const prc_xin *in, const char *needle, uint32_t from, bool key)
{
        char q[PRC_MD_STR_MAX + 16];
        uint32_t l;

        snprintf(q, sizeof(q), key ? "\"%s\":" : "\"%s\"", needle);
        l = prc_x_find_line(in, q, from > 0 ? from : 1);
        if (l == 0 && key) {
                /* "key" : with a space before the colon */
                snprintf(q, sizeof(q), "\"%s\"", needle);
                l = prc_x_find_line(in, q, from > 0 ? from : 1);
        }
        return l;
}

static const json_t *opt_type(const json_t *o, const char *key, bool (*is)(const json_t *), const char *what,
                              uint32_t line, prc_err *err, bool *ok)
{
        const json_t *v = json_object_get(o, key);

        *ok = true;
        if (v != NULL && !json_is_null(v) && !is(v)) {
                *ok = prc_cgc_shape(err, line, "'%s' is not %s", key, what);
                return NULL;
        }
        return json_is_null(v) ? NULL : v;
}

static bool is_obj(const json_t *v) { return json_is_object(v); }
static bool is_str(const json_t *v) { return json_is_string(v); }

/* require / require-dev: "vendor/name": "constraint". */
static bool requires(const prc_xin *in, json_t *md, const json_t *root, const char *key, const char *scope,
                     prc_err *err)
{
        uint32_t sl = qline(in, key, 1, true), at = sl;
        const json_t *r;
        const char *name;
        json_t *v;
        bool ok;

        r = opt_type(root, key, is_obj, "an object", sl, err, &ok);
        if (!ok)
                return false;
        json_object_foreach((json_t *)r, name, v) {
                bool plat = is_platform(name);
                uint32_t line = qline(in, name, at, true);
                json_t *d;

                /* keys come in file order (duplicates are refused), so each search starts at the last find */
                if (line > 0)
                        at = line;
                if (!json_is_string(v))
                        return prc_cgc_shape(err, line, "the constraint of '%.200s' in '%s' is not a string", name,
                                             key);
                d = prc_md_add_dep(md, name, scope, true, line, err);
                if (d == NULL || !prc_md_set_str(d, "requirement", json_string_value(v), err) ||
                    !prc_md_set_str(d, "group", plat ? "platform" : NULL, err) ||
                    (!plat && !set_purl(d, name, NULL, false, NULL, 0, err)))
                        return false;
        }
        return true;
}

/* An object of strings (replace, provide, conflict, platform) copied into details under the same key. */
static bool str_map(const json_t *root, const char *key, json_t *md, uint32_t line, prc_err *err)
{
        const json_t *o = json_object_get(root, key);
        const char *k;
        json_t *v, *dst;

        /* composer writes an empty list where it has nothing ("platform": []) */
        if (o == NULL || json_is_null(o) || (json_is_array(o) && json_array_size(o) == 0))
                return true;
        if (!json_is_object(o))
                return prc_cgc_shape(err, line, "'%s' is not an object", key);
        if (!prc_cgc_put(prc_md_details(md), key, json_object(), err))
                return false;
        dst = json_object_get(prc_md_details(md), key);
        json_object_foreach((json_t *)o, k, v) {
                if (!json_is_string(v))
                        return prc_cgc_shape(err, line, "a value of '%s' is not a string", key);
                if (json_object_size(dst) >= PRC_MD_LIST_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u entries in '%s'",
                                           PRC_MD_LIST_MAX, key);
                if (strlen(k) > PRC_MD_STR_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a key of %zu bytes in '%s'", strlen(k), key);
                if (!prc_md_set_str(dst, k, json_string_value(v), err))
                        return false;
        }
        return true;
}

static bool repository(const prc_xin *in, json_t *md, const char *key, const json_t *r, uint32_t sl, prc_err *err)
{
        const char *type, *url, *name = key;
        uint32_t line = sl;
        bool ok;

        if (json_is_false(r) && key != NULL && (strcmp(key, "packagist.org") == 0 || strcmp(key, "packagist") == 0))
                return prc_cgc_put(prc_md_details(md), "packagist_disabled", json_true(), err);
        if (!json_is_object(r))
                return prc_cgc_shape(err, sl, "a repository is not an object");
        if (json_object_size(r) == 1 && json_is_false(PRC_JGET(r, "packagist.org")))
                return prc_cgc_put(prc_md_details(md), "packagist_disabled", json_true(), err);
        if (!json_is_string(PRC_JGET(r, "type")))
                return prc_cgc_shape(err, sl, "a repository has no string 'type'");
        type = json_string_value(PRC_JGET(r, "type"));
        if (json_is_string(PRC_JGET(r, "name")))
                name = json_string_value(PRC_JGET(r, "name"));
        opt_type(r, "url", is_str, "a string", sl, err, &ok);
        if (!ok)
                return false;
        url = json_string_value(PRC_JGET(r, "url"));
        if (url != NULL && qline(in, url, sl, false) > 0)
                line = qline(in, url, sl, false);
        if (strcmp(type, "package") == 0 || url == NULL)
                return prc_md_not_extracted(md, type, url == NULL ? "a repository without a url (an inline package "
                                                                    "definition): its packages are not listed"
                                                                  : "an inline package definition: its packages "
                                                                    "are not listed",
                                            line, err);
        /* The registry's "scope" holds composer's repository type (composer, vcs, git, path, artifact, ...). */
        return prc_md_add_registry(md, name, type, url, line, err);
}

/*
 * Parse a composer file (numbers of any kind are kept) that must be a JSON
 * object, and start its document: the root, with *md, or NULL with err.
 */
static json_t *open_doc(const prc_xin *in, const char *file, const char *fmt, const char *kind, json_t **md,
                        prc_err *err)
{
        json_t *root = prc_json_parse(in->p, in->n, in->lim, PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT, err);

        *md = NULL;
        if (root == NULL) {
                prc_cgc_locate(in, err);
                return NULL;
        }
        if (!json_is_object(root)) {
                prc_cgc_shape(err, 1, "%s is not an object", file);
        } else if ((*md = prc_md_new(in, fmt, "composer", kind, err)) != NULL) {
                return root;
        }
        json_decref(root);
        return NULL;
}

json_t *prc_x_composer_json(const prc_xin *in, prc_err *err)
{
        json_t *root, *md = NULL, *v;
        json_t *repos;
        const json_t *scripts, *config;
        const char *key, *name = NULL, *ver = NULL;
        uint32_t sl;
        bool ok;

        if ((root = open_doc(in, "composer.json", "composer-json", "manifest", &md, err)) == NULL)
                return NULL;
        opt_type(root, "name", is_str, "a string", qline(in, "name", 1, true), err, &ok);
        if (ok)
                opt_type(root, "version", is_str, "a string", qline(in, "version", 1, true), err, &ok);
        if (!ok)
                goto fail;
        name = json_string_value(PRC_JGET(root, "name"));
        ver = json_string_value(PRC_JGET(root, "version"));
        if (name != NULL && !set_purl(md, name, ver, true, ver, qline(in, "name", 1, true), err))
                goto fail;
        if (!requires(in, md, root, "require", "runtime", err) || !requires(in, md, root, "require-dev", "dev", err))
                goto fail;
        sl = qline(in, "repositories", 1, true);
        repos = PRC_JGET(root, "repositories");
        if (json_is_array(repos)) {
                size_t i;

                json_array_foreach(repos, i, v) {
                        const char *k = NULL;
                        json_t *only;

                        /* [{"packagist.org": false}] and [{"name": {...}}] are composer's list spellings too */
                        if (json_is_object(v) && json_object_size(v) == 1 &&
                            !json_is_string(PRC_JGET(v, "type"))) {
                                k = json_object_iter_key(json_object_iter(v));
                                only = json_object_iter_value(json_object_iter(v));
                                if (json_is_object(only))
                                        v = only;
                                else
                                        v = json_is_false(only) ? only : v;
                        }
                        if (!repository(in, md, k, v, sl, err))
                                goto fail;
                }
        } else if (json_is_object(repos)) {
                json_object_foreach(repos, key, v)
                        if (!repository(in, md, key, v, sl, err))
                                goto fail;
        } else if (repos != NULL && !json_is_null(repos)) {
                prc_cgc_shape(err, sl, "'repositories' is neither a list nor an object");
                goto fail;
        }
        sl = qline(in, "scripts", 1, true);
        scripts = opt_type(root, "scripts", is_obj, "an object", sl, err, &ok);
        if (!ok)
                goto fail;
        json_object_foreach((json_t *)scripts, key, v) {
                bool hook = false;
                uint32_t line = qline(in, key, sl, true);

                if (line > 0)
                        sl = line;      /* file order: the next script is further down */

                for (size_t i = 0; i < PRC_ARRAY_LEN(events); i++)
                        hook |= strcmp(events[i], key) == 0;
                if (!json_is_string(v) && !json_is_array(v)) {
                        prc_cgc_shape(err, line, "script '%.200s' is neither a string nor a list", key);
                        goto fail;
                }
                if (!hook) {
                        /* Run only on request (composer run-script): named, not hooks. */
                        json_t *s = prc_cgc_detail_add(md, "scripts", err);

                        if (s == NULL || !prc_md_set_str(s, "name", key, err) || !prc_cgc_put_line(s, line, err))
                                goto fail;
                        continue;
                }
                if (json_is_string(v)) {
                        if (!prc_md_add_hook(md, key, json_string_value(v), line, err))
                                goto fail;
                } else {
                        size_t i;
                        json_t *c;

                        json_array_foreach(v, i, c) {
                                if (!json_is_string(c)) {
                                        prc_cgc_shape(err, line, "a command of script '%.200s' is not a string", key);
                                        goto fail;
                                }
                                if (!prc_md_add_hook(md, key, json_string_value(c), line, err))
                                        goto fail;
                        }
                }
        }
        sl = qline(in, "config", 1, true);
        config = opt_type(root, "config", is_obj, "an object", sl, err, &ok);
        if (!ok)
                goto fail;
        for (size_t i = 0; config != NULL && i < PRC_ARRAY_LEN(auth_keys); i++) {
                const json_t *a = json_object_get(config, auth_keys[i]);
                char k[PRC_MD_STR_MAX];

                if (a == NULL)
                        continue;
                if (!json_is_object(a)) {
                        /* "bearer" and friends are keyed by host; a bare value is still a credential. */
                        snprintf(k, sizeof(k), "config.%s", auth_keys[i]);
                        if (!prc_md_add_credential(md, k, qline(in, auth_keys[i], sl, true), err))
                                goto fail;
                        continue;
                }
                json_object_foreach((json_t *)a, key, v) {
                        snprintf(k, sizeof(k), "config.%s.%.3000s", auth_keys[i], key);
                        if (!prc_md_add_credential(md, k, qline(in, key, qline(in, auth_keys[i], sl, true), true),
                                                   err))
                                goto fail;
                }
        }
        {
                static const char *const plain[] = { "type", "minimum-stability", "license" };

                for (size_t i = 0; i < PRC_ARRAY_LEN(plain); i++)
                        if (json_is_string(json_object_get(root, plain[i])) &&
                            !prc_md_set_str(prc_md_details(md), plain[i],
                                            json_string_value(json_object_get(root, plain[i])), err))
                                goto fail;
                if (json_is_boolean(PRC_JGET(root, "prefer-stable")) &&
                    !prc_cgc_put(prc_md_details(md), "prefer-stable",
                                 json_boolean(json_is_true(PRC_JGET(root, "prefer-stable"))), err))
                        goto fail;
        }
        if (!str_map(root, "replace", md, qline(in, "replace", 1, true), err) ||
            !str_map(root, "provide", md, qline(in, "provide", 1, true), err) ||
            !str_map(root, "conflict", md, qline(in, "conflict", 1, true), err))
                goto fail;
        json_decref(root);
        return md;
fail:
        json_decref(root);
        json_decref(md);
        return NULL;
}

/*
 * One composer.lock package.  Its source: the default registry when
 * packagist.org notified it (every packagist package carries its
 * notification-url), a path when its dist is a path, else git (source) or
 * the dist URL; the commit is the source's (or dist's) reference either way.
 */
static bool lock_pkg(const prc_xin *in, json_t *md, const json_t *p, const char *scope, prc_xpos *from, prc_err *err)
{
        const json_t *src, *dist = NULL;
        const char *name, *ver, *note, *ref = NULL, *shasum = NULL, *stype = NULL, *surl = NULL, *dtype = NULL;
        const char *durl = NULL;
        char needle[PRC_MD_STR_MAX + 16];
        uint32_t line;
        json_t *d;
        bool ok;

        if (!json_is_object(p) || !json_is_string(PRC_JGET(p, "name")) ||
            !json_is_string(PRC_JGET(p, "version")))
                return prc_cgc_shape(err, from->line, "a package of '%s' has no string 'name' and 'version'",
                                     strcmp(scope, "dev") == 0 ? "packages-dev" : "packages");
        name = json_string_value(PRC_JGET(p, "name"));
        ver = json_string_value(PRC_JGET(p, "version"));
        snprintf(needle, sizeof(needle), "\"name\": \"%s\"", name);
        /* from the last package's line on, not from the start of the file each time */
        line = prc_x_find_line_at(in, needle, from);
        src = opt_type(p, "source", is_obj, "an object", line, err, &ok);
        if (ok)
                dist = opt_type(p, "dist", is_obj, "an object", line, err, &ok);
        if (ok)
                opt_type(p, "notification-url", is_str, "a string", line, err, &ok);
        for (size_t i = 0; ok && i < 3; i++) {
                static const char *const k[] = { "type", "url", "reference" };

                opt_type(src, k[i], is_str, "a string", line, err, &ok);
                if (ok)
                        opt_type(dist, k[i], is_str, "a string", line, err, &ok);
        }
        if (ok)
                opt_type(dist, "shasum", is_str, "a string", line, err, &ok);
        if (!ok)
                return false;
        note = json_string_value(PRC_JGET(p, "notification-url"));
        stype = json_string_value(PRC_JGET(src, "type"));
        surl = json_string_value(PRC_JGET(src, "url"));
        dtype = json_string_value(PRC_JGET(dist, "type"));
        durl = json_string_value(PRC_JGET(dist, "url"));
        ref = json_string_value(PRC_JGET(src, "reference"));
        if (ref == NULL)
                ref = json_string_value(PRC_JGET(dist, "reference"));
        shasum = json_string_value(PRC_JGET(dist, "shasum"));
        d = prc_md_add_dep_rr(md, name, scope, false, line, NULL, ver, err);
        if (d == NULL || !set_purl(d, name, ver, false, NULL, 0, err))
                return false;
        if (note != NULL && strncmp(note, "https://packagist.org/", 22) == 0)
                ok = prc_md_set_source(d, "registry", NULL, NULL, ref, err);
        else if (dtype != NULL && strcmp(dtype, "path") == 0)
                ok = prc_md_set_source(d, "path", durl, NULL, ref, err);
        else if (stype != NULL && strcmp(stype, "git") == 0 && surl != NULL)
                ok = prc_cgc_source(md, d, "git", surl, NULL, ref, line, err);
        else if (durl != NULL)
                ok = prc_cgc_source(md, d, "url", durl, NULL, ref, line, err);
        else if (surl != NULL)
                ok = prc_cgc_source(md, d, "url", surl, NULL, ref, line, err);
        if (!ok)
                return false;
        /* composer writes "shasum": "" when the dist has none */
        if (shasum != NULL && shasum[0] != '\0' && !prc_md_set_integrity(d, "sha1", shasum, err))
                return false;
        if (json_is_string(PRC_JGET(p, "type")) &&
            strcmp(json_string_value(PRC_JGET(p, "type")), "composer-plugin") == 0) {
                /* A plugin's code runs inside composer during install: the lockfile's install-time hook. */
                json_t *pl = prc_cgc_detail_add(md, "plugins", err);

                if (pl == NULL || !prc_md_set_str(pl, "name", name, err) || !prc_cgc_put_line(pl, line, err))
                        return false;
        }
        return true;
}

static void lower(char *out, size_t cap, const char *s)
{
        size_t i = 0;

        for (; s[i] != '\0' && i + 1 < cap; i++)
                out[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] - 'A' + 'a' : s[i]);
        out[i] = 0;
}

/*
 * The edges: each package's "require" (its "require-dev" is not installed), by name (composer names are
 * case-insensitive) to the package of that name, else to the package that "replace"s or "provide"s it.
 * Platform requirements (php, ext-*, ...) are no packages.  pkgs holds every package in the order they
 * became dependencies.
 */
static bool lock_edges(json_t *md, const json_t *pkgs, prc_err *err)
{
        static const char *const virt[] = { "replace", "provide" };
        json_t *at = json_object();
        const json_t *p, *ix, *v;
        const char *name;
        char key[PRC_MD_STR_MAX + 1];
        size_t i;
        bool ok = at != NULL || prc_err_oom(err, "composer.lock edges");

        for (int pass = 0; ok && pass < 3; pass++)
                json_array_foreach(pkgs, i, p) {
                        if (pass == 0) {
                                lower(key, sizeof(key), json_string_value(PRC_JGET(p, "name")));
                                ok = json_object_set_new(at, key, json_integer((json_int_t)i)) == 0;
                                continue;
                        }
                        json_object_foreach(json_object_get(p, virt[pass - 1]), name, v) {
                                lower(key, sizeof(key), name);
                                if (ok && json_object_get(at, key) == NULL)
                                        ok = json_object_set_new(at, key, json_integer((json_int_t)i)) == 0;
                        }
                }
        if (!ok) {
                json_decref(at);
                return prc_err_is_set(err) || prc_err_oom(err, "composer.lock edges");
        }
        json_array_foreach(pkgs, i, p) {
                const json_t *req = PRC_JGET(p, "require");
                if (req != NULL && !json_is_object(req)) {
                        json_decref(at);
                        return prc_cgc_shape(err, (uint32_t)json_integer_value(json_object_get(
                                                          json_array_get(PRC_JGET(md, "dependencies"), i),
                                                          "line")),
                                             "'require' of %.200s is not an object",
                                             json_string_value(PRC_JGET(p, "name")));
                }
                json_object_foreach((json_t *)req, name, v) {
                        if (is_platform(name))
                                continue;
                        lower(key, sizeof(key), name);
                        ix = json_object_get(at, key);
                        if (ix != NULL ? !prc_md_edge(md, i, (size_t)json_integer_value(ix), err)
                                       : !prc_md_edge_unresolved(md, i, name, json_string_value(v), err)) {
                                json_decref(at);
                                return false;
                        }
                }
        }
        json_decref(at);
        return prc_md_edges_finish(md, err);
}

json_t *prc_x_composer_lock(const prc_xin *in, prc_err *err)
{
        static const char *const sect[][2] = { { "packages", "runtime" }, { "packages-dev", "dev" } };
        json_t *root, *md = NULL, *v, *all = json_array();
        bool ok;

        if (all == NULL) {
                prc_err_oom(err, "composer.lock");
                return NULL;
        }
        if ((root = open_doc(in, "composer.lock", "composer-lock", "lockfile", &md, err)) == NULL) {
                json_decref(all);
                return NULL;
        }
        /* composer writes "packages" always: a lock without it is not one composer made */
        if (!json_is_array(PRC_JGET(root, "packages"))) {
                prc_cgc_shape(err, qline(in, "packages", 1, true), "'packages' is missing or not a list");
                goto fail;
        }
        for (size_t s = 0; s < PRC_ARRAY_LEN(sect); s++) {
                uint32_t l = qline(in, sect[s][0], 1, true);
                prc_xpos from = { l, l > 0 ? prc_x_line_start(in, l) : 0 };
                const json_t *a = json_object_get(root, sect[s][0]);
                size_t i;

                if (a != NULL && !json_is_null(a) && !json_is_array(a)) {
                        prc_cgc_shape(err, l, "'%s' is not a list", sect[s][0]);
                        goto fail;
                }
                json_array_foreach(a, i, v)
                        if (!lock_pkg(in, md, v, sect[s][1], &from, err) || json_array_append(all, v) != 0)
                                goto fail;
        }
        if (!lock_edges(md, all, err))
                goto fail;
        /* composer.lock does not say which packages composer.json required: every entry is direct: false. */
        if (!prc_cgc_put(prc_md_details(md), "direct_known", json_false(), err))
                goto fail;
        opt_type(root, "content-hash", is_str, "a string", qline(in, "content-hash", 1, true), err, &ok);
        if (ok)
                opt_type(root, "plugin-api-version", is_str, "a string", 0, err, &ok);
        if (!ok || !prc_md_set_str(prc_md_details(md), "content_hash",
                                   json_string_value(PRC_JGET(root, "content-hash")), err) ||
            !prc_md_set_str(prc_md_details(md), "plugin_api_version",
                            json_string_value(PRC_JGET(root, "plugin-api-version")), err) ||
            !str_map(root, "platform", md, qline(in, "platform", 1, true), err) ||
            !str_map(root, "platform-dev", md, qline(in, "platform-dev", 1, true), err))
                goto fail;
        json_decref(all);
        json_decref(root);
        return md;
fail:
        if (!prc_err_is_set(err))
                prc_err_oom(err, "composer.lock");
        json_decref(all);
        json_decref(root);
        json_decref(md);
        return NULL;
}
