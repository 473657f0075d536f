/*
 * python_locks.c - Python lockfiles: Pipfile.lock, poetry.lock (1.x, 2.x),
 * uv.lock (version 1), pdm.lock (4.x) and pylock.toml (PEP 751, 1.x).
 * Every entry a lockfile pins is a dependency with its resolved version;
 * a lockfile version prc does not know is refused (extract-version).  See
 * docs/extraction/python.md.
 */
#include "content/extract/python.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/json_strict.h"
#include "content/parsers/toml.h"

bool prc_x_py_match_pylock(const char *path, const char *base)
{
        size_t n = strlen(base);

        (void)path;
        /* PEP 751: pylock.toml or pylock.NAME.toml */
        return strcmp(base, "pylock.toml") == 0 ||
               (n > 12 && strncmp(base, "pylock.", 7) == 0 && strcmp(base + n - 5, ".toml") == 0 &&
                memchr(base + 7, '.', n - 12) == NULL);
}

/* The line of "[[HDR]]\nname = \"NAME\"" (the name's line), else of "name = \"NAME\"". */
static uint32_t entry_line(py_cur *c, const char *hdr, const char *name)
{
        char *needle;
        size_t n = strlen(hdr) + strlen(name) + 32;
        uint32_t l;

        if ((needle = prc_malloc(n)) == NULL)
                return 0;
        snprintf(needle, n, "%s\nname = \"%s\"", hdr, name);
        l = py_cur_find(c, needle);
        if (l == 0) {
                snprintf(needle, n, "%s\r\nname = \"%s\"", hdr, name);
                l = py_cur_find(c, needle);
        }
        if (l > 0) {
                l++;
        } else {
                snprintf(needle, n, "name = \"%s\"", name);
                l = py_cur_find(c, needle);
        }
        free(needle);
        return l;
}

static const char *need_str(const json_t *o, const char *key, const char *what, uint32_t line, prc_err *err)
{
        const char *s = py_str(o, key);

        if (s == NULL) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "%s without a string \"%s\"", what, key);
                prc_err_set_line(err, line, 0);
        }
        return s;
}

/* details.edges: {"from", "version", "to": [names]} for a locked package's dependency list. */
static bool edge(json_t *md, const char *from, const char *version, json_t *to, prc_err *err)
{
        json_t *a, *o;

        if (json_array_size(to) == 0) {
                json_decref(to);
                return true;
        }
        if ((a = py_det_array(md, "edges", err)) == NULL) {
                json_decref(to);
                return false;
        }
        if ((o = json_object()) == NULL || json_array_append_new(a, o) != 0 ||
            json_object_set_new(o, "to", to) != 0)
                return py_oom(err);
        return prc_md_set_str(o, "from", from, err) && prc_md_set_str(o, "version", version, err);
}

/* The PEP 503 name a details.edges target starts with (a name, or a PEP 508 string's name part). */
static char *edge_name(const char *s)
{
        size_t n = 0;

        while (s[n] != '\0' && (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_' || s[n] == '.'))
                n++;
        {
                char *cut = py_dupn(s, n), *out;
                if (cut == NULL)
                        return NULL;
                out = py_norm(cut);
                free(cut);
                return out;
        }
}

/*
 * depends_on from details.edges: the source is the dependency of that name and version (an edge from
 * the project itself, which is no dependency, is not graphed); a target is the one dependency of that
 * name.  A name the lock does not hold (a dependency under a marker or extra the resolver left out) or
 * holds in several versions (uv forks by marker) is not graphed.
 */
static bool link_edges(json_t *md, prc_err *err)
{
        json_t *byname = json_object(), *deps = PRC_JGET(md, "dependencies"), *d, *l;
        const json_t *e, *t;
        size_t i, k;
        bool ok = byname != NULL || py_oom(err);

        json_array_foreach(deps, i, d) {
                char *n = py_norm(json_string_value(PRC_JGET(d, "name")));
                if (!ok || n == NULL) {
                        free(n);
                        ok = ok && py_oom(err);
                        break;
                }
                l = json_object_get(byname, n);
                if (l == NULL && (json_object_set_new(byname, n, l = json_array()) != 0 || l == NULL))
                        ok = py_oom(err);
                else if (json_array_append_new(l, json_integer((json_int_t)i)) != 0)
                        ok = py_oom(err);
                free(n);
        }
        json_array_foreach(ok ? PRC_JGET(prc_md_details(md), "edges") : NULL, i, e) {
                const char *fv = json_string_value(PRC_JGET(e, "version"));
                char *fn = edge_name(json_string_value(PRC_JGET(e, "from")));
                long from = -1;

                if (fn == NULL) {
                        ok = py_oom(err);
                        break;
                }
                json_array_foreach(json_object_get(byname, fn), k, t) {
                        const char *v = json_string_value(json_object_get(
                                json_array_get(deps, (size_t)json_integer_value(t)), "resolved"));
                        if (fv == NULL || (v != NULL && strcmp(v, fv) == 0))
                                from = (long)json_integer_value(t);
                }
                free(fn);
                if (from < 0)
                        continue;
                json_array_foreach(PRC_JGET(e, "to"), k, t) {
                        char *tn = edge_name(json_string_value(t));
                        if (tn == NULL) {
                                ok = py_oom(err);
                                break;
                        }
                        l = json_object_get(byname, tn);
                        free(tn);
                        if (json_array_size(l) == 1 &&
                            !prc_md_edge(md, (size_t)from, (size_t)json_integer_value(json_array_get(l, 0)), err)) {
                                ok = false;
                                break;
                        }
                }
                if (!ok)
                        break;
        }
        json_decref(byname);
        return ok && prc_md_edges_finish(md, err);
}

static bool version_detail(json_t *md, const char *key, json_t *v, prc_err *err)
{
        return json_object_set(prc_md_details(md), key, v) == 0 || py_oom(err);
}

/* How a lockfile states its own format version, the first thing each reader checks. */
struct lock_version {
        const char *format;     /* the ManifestDoc's format */
        const char *what;       /* "uv.lock version", for the refusal */
        const char *needle;     /* finds the version's line */
        const char *reads;      /* the versions prc reads, for the refusal */
        const char *detail;     /* the details key that records it */
        bool        integer;    /* an integer version (else a string) */
};

/*
 * The ManifestDoc of a lockfile whose version v prc reads (known), the
 * version recorded in its details; else the refusal (extract-version at the
 * version's line, naming what prc reads).
 */
static json_t *lock_doc(const prc_xin *in, const struct lock_version *lv, json_t *v, bool known, prc_err *err)
{
        const char *s = json_string_value(v);
        json_t *md;

        if (!known) {
                if (lv->integer && json_is_integer(v))
                        prc_err_set(err, PRC_E_EXTRACT_VERSION, "%s other than %s (prc reads %s)", lv->what, lv->reads,
                                    lv->reads);
                else if (lv->integer)
                        prc_err_set(err, PRC_E_EXTRACT_VERSION, "%s missing or not an integer (prc reads %s)",
                                    lv->what, lv->reads);
                else if (s != NULL)
                        prc_err_set(err, PRC_E_EXTRACT_VERSION, "%s \"%s\" (prc reads %s)", lv->what, s, lv->reads);
                else
                        prc_err_set(err, PRC_E_EXTRACT_VERSION, "%s missing (prc reads %s)", lv->what, lv->reads);
                prc_err_set_line(err, prc_x_find_line(in, lv->needle, 1), 0);
                return NULL;
        }
        md = prc_md_new(in, lv->format, "pypi", "lockfile", err);
        if (md != NULL && !version_detail(md, lv->detail, v, err)) {
                json_decref(md);
                return NULL;
        }
        return md;
}

/* ---------------------------------------------------------------- Pipfile.lock */

json_t *prc_x_py_pipfile_lock(const prc_xin *in, prc_err *err)
{
        static const struct lock_version lockv = { "pypi-pipfile-lock", "Pipfile.lock pipfile-spec",
                                                   "\"pipfile-spec\"", "6", "pipfile_spec", true };
        json_t *doc = prc_json_parse(in->p, in->n, in->lim, 0, err), *md = NULL, *meta, *spec, *cat, *e;
        const json_t *sources;
        const char *ck, *name;
        py_cur cur;
        size_t i;
        json_t *s;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        if (!json_is_object(doc) || !json_is_object(meta = PRC_JGET(doc, "_meta"))) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a Pipfile.lock is a JSON object with a \"_meta\" object");
                goto fail;
        }
        spec = PRC_JGET(meta, "pipfile-spec");
        md = lock_doc(in, &lockv, spec, json_is_integer(spec) && json_integer_value(spec) == 6, err);
        if (md == NULL)
                goto fail;
        sources = PRC_JGET(meta, "sources");
        json_array_foreach(sources, i, s) {
                const char *url = py_str(s, "url");

                if (url != NULL && !py_registry(md, py_str(s, "name"), NULL, url, prc_x_find_line(in, url, 1), err))
                        goto fail;
        }
        py_cur_init(&cur, in);
        json_object_foreach(doc, ck, cat) {
                char key[256];

                if (strcmp(ck, "_meta") == 0)
                        continue;
                if (!py_want(cat, JSON_OBJECT, "a Pipfile.lock category", err))
                        goto fail;
                snprintf(key, sizeof(key), "\"%s\": {", ck);
                py_cur_find(&cur, key);
                json_object_foreach(cat, name, e) {
                        char *needle;
                        const char *ver, *git, *path, *ref, *idx;
                        json_t *d, *h;
                        uint32_t l;
                        size_t nn = strlen(name) + 8;
                        char *pin = NULL;

                        if ((needle = prc_malloc(nn)) == NULL) {
                                py_oom(err);
                                goto fail;
                        }
                        snprintf(needle, nn, "\"%s\": {", name);
                        l = py_cur_find(&cur, needle);
                        free(needle);
                        if (!py_want(e, JSON_OBJECT, "a Pipfile.lock entry", err)) {
                                prc_err_set_line(err, l, 0);
                                goto fail;
                        }
                        ver = py_str(e, "version");
                        if (ver != NULL && strncmp(ver, "==", 2) == 0)
                                pin = py_dupn(ver + 2, strlen(ver + 2));
                        d = py_dep(md, name, ver, pin, strcmp(ck, "develop") == 0 ? "dev" : "runtime", false,
                                   strcmp(ck, "default") == 0 || strcmp(ck, "develop") == 0 ? NULL : ck, l, err);
                        free(pin);
                        if (d == NULL)
                                goto fail;
                        git = py_str(e, "git");
                        path = py_str(e, "path");
                        if (path == NULL)
                                path = py_str(e, "file");
                        ref = py_str(e, "ref");
                        idx = py_str(e, "index");
                        if (git != NULL) {
                                bool hex = ref != NULL && strlen(ref) == 40 && strspn(ref, "0123456789abcdef") == 40;

                                if (!py_source(md, d, "git", git, ref, hex ? ref : NULL, l, err))
                                        goto fail;
                        } else if (path != NULL) {
                                if (strstr(path, "://") != NULL ? !py_set_url_source(md, d, path, l, err)
                                                                : !prc_md_set_source(d, "path", path, NULL, NULL, err))
                                        goto fail;
                        } else if (idx != NULL) {
                                size_t j;

                                json_array_foreach(sources, j, s) {
                                        const char *sn = py_str(s, "name");

                                        if (sn != NULL && strcmp(sn, idx) == 0 && py_str(s, "url") != NULL &&
                                            strcmp(py_str(s, "url"), "https://pypi.org/simple") != 0 &&
                                            !prc_md_set_source(d, "registry", py_str(s, "url"), NULL, NULL, err))
                                                goto fail;
                                }
                        }
                        h = json_array_get(PRC_JGET(e, "hashes"), 0);
                        if (json_is_string(h) && !py_set_hash(d, json_string_value(h), err))
                                goto fail;
                }
        }
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}

/* ---------------------------------------------------------------- poetry.lock */

/* The first "sha256:..." of a files list ([{file, hash}]). */
static const char *first_hash(const json_t *files)
{
        size_t i;
        json_t *f;

        json_array_foreach(files, i, f) {
                const char *h = py_str(f, "hash");

                if (h != NULL && *h != '\0')
                        return h;
        }
        return NULL;
}

static json_t *dep_names(const json_t *deps)
{
        json_t *to = json_array();
        const char *k;
        json_t *v;
        size_t i;

        if (to == NULL)
                return NULL;
        if (json_is_object(deps))
                json_object_foreach((json_t *)deps, k, v) json_array_append_new(to, json_string(k));
        else
                json_array_foreach(deps, i, v) {
                        const char *n = json_is_string(v) ? json_string_value(v) : py_str(v, "name");

                        if (n != NULL)
                                json_array_append_new(to, json_string(n));
                }
        return to;
}

json_t *prc_x_py_poetry_lock(const prc_xin *in, prc_err *err)
{
        static const char *const known[] = { "1.0", "1.1", "2.0", "2.1" };
        static const struct lock_version lockv = { "pypi-poetry-lock", "poetry.lock lock-version",
                                                   "lock-version", "1.0, 1.1, 2.0, 2.1", "lock_version",
                                                   false };
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md = NULL, *pkgs, *p, *lv;
        const json_t *mfiles;
        const char *lvs;
        bool ok = false, v1;
        py_cur cur;
        size_t i;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        lv = PRC_JGET(PRC_JGET(doc, "metadata"), "lock-version");
        lvs = json_string_value(lv);
        for (size_t k = 0; lvs != NULL && k < PRC_ARRAY_LEN(known); k++)
                ok = ok || strcmp(lvs, known[k]) == 0;
        md = lock_doc(in, &lockv, lv, ok, err);
        if (md == NULL)
                goto fail;
        v1 = lvs[0] == '1';
        mfiles = PRC_JGET(PRC_JGET(doc, "metadata"), "files");
        pkgs = PRC_JGET(doc, "package");
        if (pkgs != NULL && !py_want(pkgs, JSON_ARRAY, "poetry.lock package", err))
                goto fail;
        py_cur_init(&cur, in);
        json_array_foreach(pkgs, i, p) {
                const char *name, *ver, *cat, *scope = "runtime", *h, *group = NULL;
                const json_t *src, *files, *groups;
                char *gjoin = NULL;
                json_t *d;
                uint32_t l;

                if (!py_want(p, JSON_OBJECT, "a poetry.lock package", err) ||
                    (name = need_str(p, "name", "a poetry.lock package", 0, err)) == NULL)
                        goto fail;
                l = entry_line(&cur, "[[package]]", name);
                if ((ver = need_str(p, "version", "a poetry.lock package", l, err)) == NULL)
                        goto fail;
                cat = py_str(p, "category");
                if (cat != NULL && strcmp(cat, "dev") == 0)
                        scope = "dev";
                groups = PRC_JGET(p, "groups");
                if (json_is_array(groups) && json_array_size(groups) > 0) {
                        /* 2.x: the groups that need it; "main" alone is the runtime */
                        size_t j, len = 0;
                        json_t *g;
                        bool main = false;

                        json_array_foreach(groups, j, g) if (json_is_string(g)) {
                                main = main || strcmp(json_string_value(g), "main") == 0;
                                len += json_string_length(g) + 1;
                        }
                        if (!main)
                                scope = "dev";
                        if (!(main && json_array_size(groups) == 1)) {
                                if ((gjoin = prc_malloc(len + 1)) == NULL) {
                                        py_oom(err);
                                        goto fail;
                                }
                                gjoin[0] = '\0';
                                len = 0;
                                json_array_foreach(groups, j, g) if (json_is_string(g)) {
                                        size_t gl = json_string_length(g);

                                        if (len > 0)
                                                gjoin[len++] = ',';
                                        memcpy(gjoin + len, json_string_value(g), gl);
                                        len += gl;
                                        gjoin[len] = '\0';
                                }
                                group = gjoin;
                        }
                }
                if (json_is_true(PRC_JGET(p, "optional")))
                        scope = "optional";
                d = py_dep(md, name, NULL, ver, scope, false, group, l, err);
                free(gjoin);
                if (d == NULL)
                        goto fail;
                src = PRC_JGET(p, "source");
                if (json_is_object(src)) {
                        const char *t = py_str(src, "type"), *url = py_str(src, "url");
                        const char *ref = py_str(src, "reference"), *res = py_str(src, "resolved_reference");
                        bool set = true;

                        if (t == NULL)
                                set = true;
                        else if (strcmp(t, "git") == 0)
                                set = py_source(md, d, "git", url, ref, res, l, err);
                        else if (strcmp(t, "directory") == 0 || strcmp(t, "file") == 0)
                                set = py_source(md, d, "path", url, NULL, NULL, l, err);
                        else if (strcmp(t, "url") == 0)
                                set = py_source(md, d, "url", url, NULL, NULL, l, err);
                        else if (strcmp(t, "legacy") == 0)
                                set = py_source(md, d, "registry", url, NULL, NULL, l, err);
                        else
                                set = prc_md_not_extracted(md, t, "a poetry.lock source type prc does not know; "
                                                           "the default registry is assumed", l, err);
                        if (!set)
                                goto fail;
                }
                files = PRC_JGET(p, "files");
                if (files == NULL)
                        files = json_object_get(mfiles, name);
                h = first_hash(files);
                if (h != NULL && !py_set_hash(d, h, err))
                        goto fail;
                if (!edge(md, name, ver, dep_names(PRC_JGET(p, "dependencies")), err))
                        goto fail;
        }
        (void)v1;
        if (!link_edges(md, err))
                goto fail;
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}

/* ---------------------------------------------------------------- uv.lock */

/* An array of strings only (in_list's strcmp takes each). */
static bool str_list(const json_t *a)
{
        size_t i;
        json_t *v;

        if (!json_is_array(a))
                return false;
        json_array_foreach(a, i, v) if (!json_is_string(v))
                return false;
        return true;
}

static bool in_list(const json_t *names, const char *n)
{
        size_t i;
        json_t *v;

        json_array_foreach(names, i, v) if (strcmp(json_string_value(v), n) == 0)
                return true;
        return false;
}

/* Names of a root package's dependency lists (dependencies, optional-dependencies, dev-dependencies). */
static void root_names(const json_t *p, json_t *run, json_t *dev)
{
        static const char *const keys[] = { "optional-dependencies", "dev-dependencies" };
        json_t *v = PRC_JGET(p, "dependencies"), *e, *grp;
        const char *k;
        size_t i;

        json_array_foreach(v, i, e) if (py_str(e, "name") != NULL)
                json_array_append_new(run, json_string(py_str(e, "name")));
        for (size_t j = 0; j < PRC_ARRAY_LEN(keys); j++)
                json_object_foreach(json_object_get(p, keys[j]), k, grp) json_array_foreach(grp, i, e)
                        if (py_str(e, "name") != NULL)
                                json_array_append_new(j == 0 ? run : dev, json_string(py_str(e, "name")));
}

/* uv git URL: "https://host/x.git?rev=v1#COMMIT" (or tag=, branch=). */
static bool uv_git(json_t *dep, const char *url, prc_err *err)
{
        const char *q = strchr(url, '?'), *h = strchr(url, '#'), *ref = NULL;
        size_t bn = q != NULL ? (size_t)(q - url) : h != NULL ? (size_t)(h - url) : strlen(url);
        char *base = py_dupn(url, bn), *refs = NULL;
        bool ok;

        if (base == NULL)
                return py_oom(err);
        if (q != NULL) {
                const char *e = h != NULL ? h : q + strlen(q);

                for (const char *k = q + 1; k < e; k += strcspn(k, "&") + (*(k + strcspn(k, "&")) == '&')) {
                        if (strncmp(k, "rev=", 4) == 0 || strncmp(k, "tag=", 4) == 0)
                                ref = k + 4;
                        else if (strncmp(k, "branch=", 7) == 0)
                                ref = k + 7;
                        if (ref != NULL) {
                                size_t rl = strcspn(ref, "&#");

                                refs = py_dupn(ref, rl);
                                if (refs == NULL) {
                                        free(base);
                                        return py_oom(err);
                                }
                                break;
                        }
                        if (*(k + strcspn(k, "&")) == '\0')
                                break;
                }
        }
        ok = prc_md_set_source(dep, "git", base, refs, h != NULL && h[1] != '\0' ? h + 1 : NULL, err);
        free(base);
        free(refs);
        return ok;
}

json_t *prc_x_py_uv_lock(const prc_xin *in, prc_err *err)
{
        static const struct lock_version lockv = { "pypi-uv-lock", "uv.lock version", "version", "1", "version",
                                                   true };
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md = NULL, *pkgs, *p, *ver;
        json_t *run = json_array(), *dev = json_array();
        py_cur cur;
        size_t i;

        if (doc == NULL || run == NULL || dev == NULL) {
                if (doc != NULL)
                        py_oom(err);
                else
                        py_parse_failed(in, err);
                goto fail;
        }
        ver = PRC_JGET(doc, "version");
        md = lock_doc(in, &lockv, ver, json_is_integer(ver) && json_integer_value(ver) == 1, err);
        if (md == NULL)
                goto fail;
        if (PRC_JGET(doc, "revision") != NULL && !version_detail(md, "revision",
                                                                        PRC_JGET(doc, "revision"), err))
                goto fail;
        pkgs = PRC_JGET(doc, "package");
        if (pkgs != NULL && !py_want(pkgs, JSON_ARRAY, "uv.lock package", err))
                goto fail;
        /* workspace members (editable or virtual sources) are the roots; what they name is direct */
        json_array_foreach(pkgs, i, p) {
                const json_t *src = PRC_JGET(p, "source");

                if (!py_want(p, JSON_OBJECT, "a uv.lock package", err))
                        goto fail;
                if (PRC_JGET(src, "editable") != NULL || PRC_JGET(src, "virtual") != NULL)
                        root_names(p, run, dev);
        }
        py_cur_init(&cur, in);
        json_array_foreach(pkgs, i, p) {
                const json_t *src = PRC_JGET(p, "source"), *sd, *wh;
                const char *name, *version, *v, *h = NULL, *member = NULL;
                bool direct, is_root;
                json_t *d;
                uint32_t l;

                if ((name = need_str(p, "name", "a uv.lock package", 0, err)) == NULL)
                        goto fail;
                l = entry_line(&cur, "[[package]]", name);
                version = py_str(p, "version");
                is_root = (member = py_str(src, "editable")) != NULL || (member = py_str(src, "virtual")) != NULL;
                if (is_root && strcmp(member, ".") == 0 && json_is_null(PRC_JGET(md, "package"))) {
                        char *purl = py_purl(name, version);
                        bool ok = purl != NULL && prc_md_set_package(md, name, version, purl, l, err);

                        if (purl == NULL)
                                py_oom(err);
                        free(purl);
                        if (!ok)
                                goto fail;
                        if (!edge(md, name, version, dep_names(PRC_JGET(p, "dependencies")), err))
                                goto fail;
                        continue;
                }
                direct = in_list(run, name) || in_list(dev, name);
                d = py_dep(md, name, NULL, version, in_list(dev, name) && !in_list(run, name) ? "dev" : "runtime",
                           direct, NULL, l, err);
                if (d == NULL)
                        goto fail;
                if (!json_is_object(src)) {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "uv.lock package \"%s\" without a source table", name);
                        prc_err_set_line(err, l, 0);
                        goto fail;
                }
                if ((v = py_str(src, "registry")) != NULL) {
                        if (strcmp(v, "https://pypi.org/simple") != 0 &&
                            !py_source(md, d, "registry", v, NULL, NULL, l, err))
                                goto fail;
                } else if ((v = py_str(src, "git")) != NULL) {
                        if (!py_source(md, d, "url", v, NULL, NULL, l, err) || !uv_git(d, v, err))
                                goto fail;
                } else if ((v = py_str(src, "url")) != NULL) {
                        if (!py_set_url_source(md, d, v, l, err))
                                goto fail;
                } else if ((v = py_str(src, "path")) != NULL || (v = py_str(src, "directory")) != NULL) {
                        if (!prc_md_set_source(d, "path", v, NULL, NULL, err))
                                goto fail;
                } else if (is_root) {
                        if (!prc_md_set_source(d, "workspace", member, NULL, NULL, err))
                                goto fail;
                } else {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "uv.lock package \"%s\" with a source prc does "
                                    "not know", name);
                        prc_err_set_line(err, l, 0);
                        goto fail;
                }
                sd = PRC_JGET(p, "sdist");
                wh = PRC_JGET(p, "wheels");
                h = py_str(sd, "hash");
                if (h == NULL)
                        h = py_str(json_array_get(wh, 0), "hash");
                if (h != NULL && !py_set_hash(d, h, err))
                        goto fail;
                if (!edge(md, name, version, dep_names(PRC_JGET(p, "dependencies")), err))
                        goto fail;
        }
        if (!link_edges(md, err))
                goto fail;
        json_decref(run);
        json_decref(dev);
        json_decref(doc);
        return md;
fail:
        json_decref(run);
        json_decref(dev);
        json_decref(doc);
        json_decref(md);
        return NULL;
}

/* ---------------------------------------------------------------- pdm.lock */

json_t *prc_x_py_pdm_lock(const prc_xin *in, prc_err *err)
{
        static const struct lock_version lockv = { "pypi-pdm-lock", "pdm.lock lock_version", "lock_version",
                                                   "4.0 to 4.5", "lock_version", false };
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md = NULL, *pkgs, *p, *lv, *meta;
        const json_t *mfiles;
        const char *lvs;
        py_cur cur;
        size_t i;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        meta = PRC_JGET(doc, "metadata");
        lv = PRC_JGET(meta, "lock_version");
        lvs = json_string_value(lv);
        /* 4.0 to 4.5 (with a patch level since 4.4.1) are the versions PDM 2 writes */
        md = lock_doc(in, &lockv, lv,
                      !(lvs == NULL || strncmp(lvs, "4.", 2) != 0 || lvs[2] < '0' || lvs[2] > '5' ||
                        (lvs[3] != '\0' && (lvs[3] != '.' || lvs[4] < '0' || lvs[4] > '9' ||
                                             strspn(lvs + 4, "0123456789") != strlen(lvs + 4)))),
                      err);
        if (md == NULL)
                goto fail;
        if (PRC_JGET(meta, "groups") != NULL && !version_detail(md, "groups", PRC_JGET(meta, "groups"),
                                                                        err))
                goto fail;
        mfiles = PRC_JGET(meta, "files");
        pkgs = PRC_JGET(doc, "package");
        if (pkgs != NULL && !py_want(pkgs, JSON_ARRAY, "pdm.lock package", err))
                goto fail;
        py_cur_init(&cur, in);
        json_array_foreach(pkgs, i, p) {
                const char *name, *version, *git, *path, *url, *h, *scope = "runtime";
                const json_t *files, *groups;
                json_t *d;
                uint32_t l;

                if (!py_want(p, JSON_OBJECT, "a pdm.lock package", err) ||
                    (name = need_str(p, "name", "a pdm.lock package", 0, err)) == NULL)
                        goto fail;
                l = entry_line(&cur, "[[package]]", name);
                version = py_str(p, "version");
                groups = PRC_JGET(p, "groups");
                if (groups != NULL && !str_list(groups)) {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "pdm.lock package \"%s\" with groups that are not a "
                                    "list of strings", name);
                        prc_err_set_line(err, l, 0);
                        goto fail;
                }
                if (json_array_size(groups) > 0 && !in_list(groups, "default"))
                        scope = "dev";
                d = py_dep(md, name, NULL, version, scope, false, NULL, l, err);
                if (d == NULL)
                        goto fail;
                if (json_is_array(groups) && json_array_size(groups) > 0 &&
                    !prc_md_set_str(d, "group", json_string_value(json_array_get(groups, 0)), err))
                        goto fail;
                git = py_str(p, "git");
                path = py_str(p, "path");
                url = py_str(p, "url");
                if (git != NULL) {
                        const char *ref = py_str(p, "ref"), *rev = py_str(p, "revision");

                        if (!py_source(md, d, "git", git, ref, rev, l, err))
                                goto fail;
                } else if (path != NULL) {
                        if (!prc_md_set_source(d, "path", path, NULL, NULL, err))
                                goto fail;
                } else if (url != NULL) {
                        if (!py_set_url_source(md, d, url, l, err))
                                goto fail;
                }
                files = PRC_JGET(p, "files");
                if (files == NULL) {
                        char key[PRC_MD_STR_MAX + 64];

                        snprintf(key, sizeof(key), "%s %s", name, version != NULL ? version : "");
                        files = json_object_get(mfiles, key);
                }
                h = first_hash(files);
                if (h != NULL && !py_set_hash(d, h, err))
                        goto fail;
                if (!edge(md, name, version, dep_names(PRC_JGET(p, "dependencies")), err))
                        goto fail;
        }
        if (!link_edges(md, err))
                goto fail;
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}

/* ---------------------------------------------------------------- pylock.toml */

/* The sha256 of a hashes table, else its first member, as "algo:value" into buf. */
static bool pylock_hash(json_t *dep, const json_t *hashes, prc_err *err)
{
        const char *k;
        json_t *v;

        if (json_is_string(PRC_JGET(hashes, "sha256")))
                return prc_md_set_integrity(dep, "sha256", py_str(hashes, "sha256"), err);
        json_object_foreach((json_t *)hashes, k, v) if (json_is_string(v))
                return prc_md_set_integrity(dep, k, json_string_value(v), err);
        return true;
}

json_t *prc_x_py_pylock(const prc_xin *in, prc_err *err)
{
        static const struct lock_version lockv = { "pypi-pylock", "pylock.toml lock-version", "lock-version",
                                                   "1.x", "lock_version", false };
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md = NULL, *pkgs, *p, *lv;
        const char *lvs;
        py_cur cur;
        size_t i;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        lv = PRC_JGET(doc, "lock-version");
        lvs = json_string_value(lv);
        /* PEP 751: an unknown major version is an error; 1.x minor versions stay readable */
        md = lock_doc(in, &lockv, lv,
                      lvs != NULL && strncmp(lvs, "1.", 2) == 0 && lvs[2] >= '0' && lvs[2] <= '9', err);
        if (md == NULL)
                goto fail;
        if (json_is_string(PRC_JGET(doc, "created-by")) &&
            !version_detail(md, "created_by", PRC_JGET(doc, "created-by"), err))
                goto fail;
        pkgs = PRC_JGET(doc, "packages");
        if (!py_want(pkgs, JSON_ARRAY, "pylock.toml packages", err))
                goto fail;
        py_cur_init(&cur, in);
        json_array_foreach(pkgs, i, p) {
                const json_t *vcs, *dir, *arch, *sd, *wh;
                const char *name, *idx;
                json_t *d;
                uint32_t l;

                if (!py_want(p, JSON_OBJECT, "a pylock.toml package", err) ||
                    (name = need_str(p, "name", "a pylock.toml package", 0, err)) == NULL)
                        goto fail;
                l = entry_line(&cur, "[[packages]]", name);
                d = py_dep(md, name, NULL, py_str(p, "version"), "runtime", false, NULL, l, err);
                if (d == NULL)
                        goto fail;
                vcs = PRC_JGET(p, "vcs");
                dir = PRC_JGET(p, "directory");
                arch = PRC_JGET(p, "archive");
                sd = PRC_JGET(p, "sdist");
                wh = json_array_get(PRC_JGET(p, "wheels"), 0);
                idx = py_str(p, "index");
                if (vcs != NULL) {
                        const char *u = py_str(vcs, "url") != NULL ? py_str(vcs, "url") : py_str(vcs, "path");
                        const char *t = py_str(vcs, "type");

                        if (!py_source(md, d, t != NULL && strcmp(t, "git") == 0 ? "git" : "url", u,
                                       py_str(vcs, "requested-revision"), py_str(vcs, "commit-id"), l, err))
                                goto fail;
                } else if (dir != NULL) {
                        if (!prc_md_set_source(d, "path", py_str(dir, "path"), NULL, NULL, err))
                                goto fail;
                } else if (arch != NULL) {
                        const char *u = py_str(arch, "url");

                        if (u != NULL ? !py_set_url_source(md, d, u, l, err)
                                      : !prc_md_set_source(d, "path", py_str(arch, "path"), NULL, NULL, err))
                                goto fail;
                        if (!pylock_hash(d, PRC_JGET(arch, "hashes"), err))
                                goto fail;
                } else if (idx != NULL && strcmp(idx, "https://pypi.org/simple") != 0 &&
                           strcmp(idx, "https://pypi.org/simple/") != 0) {
                        if (!py_source(md, d, "registry", idx, NULL, NULL, l, err))
                                goto fail;
                }
                if (json_is_null(PRC_JGET(d, "integrity")) &&
                    !pylock_hash(d, PRC_JGET(sd != NULL ? sd : wh, "hashes"), err))
                        goto fail;
        }
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}
