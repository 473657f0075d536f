/*
 * cargo.c - Rust extractors: Cargo.toml and Cargo.lock (versions 1 to 4).
 *
 * Trust: runs in the content worker on hostile bytes; the TOML is read by
 * prc's own reader (prc_toml_parse, bounded by in->lim), and a line index
 * built here in one pass over the bytes gives each dependency the line that
 * states it (the TOML document keeps no positions).  Errors: the TOML
 * classes, extract-shape, extract-version, cargo-lock-dependency,
 * extract-limit, out-of-memory.  docs/extraction/cargo-go-composer.md says
 * what each field means and what is not resolved.
 */
#include "content/extract/cgc_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "content/parsers/toml.h"

/* Deepest key path the line index records: target.'cfg(x)'.dependencies.NAME has four segments. */
#define LX_DEPTH 4
#define LX_SEP   '\x1f'

static const char crates_io_git[] = "https://github.com/rust-lang/crates.io-index";
static const char crates_io_sparse[] = "https://index.crates.io/";

#define shape prc_cgc_shape

/*
 * The line index: for every table header and key line, the first line at
 * which each prefix (up to LX_DEPTH segments) of its full key path is
 * stated, keyed by the segments joined with LX_SEP; and the lines of the
 * [[package]] headers in order.  Multi-line strings are skipped; keys with
 * escapes other than \" and \\ are not found (their line stays null).
 */
typedef struct lindex {
        json_t *first;          /* owned: path -> line */
        json_t *packages;       /* owned: lines of [[package]] headers */
} lindex;

static bool bare(unsigned char c)
{
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* Parse a dotted key at s[*i] (up to the first non-key text); append segments to path (LX_SEP-joined). */
static size_t lx_key(const char *s, size_t n, size_t *i, char *path, size_t *plen, size_t depth)
{
        size_t j = *i;

        for (;;) {
                size_t start;

                while (j < n && (s[j] == ' ' || s[j] == '\t'))
                        j++;
                if (j >= n)
                        return 0;
                if (depth > 0)
                        path[(*plen)++] = LX_SEP;
                if (s[j] == '"' || s[j] == '\'') {
                        char q = s[j++];

                        for (start = j; j < n && s[j] != q; j++) {
                                if (q == '"' && s[j] == '\\' && j + 1 < n) {
                                        if (s[j + 1] != '"' && s[j + 1] != '\\')
                                                return 0;
                                        j++;
                                }
                                path[(*plen)++] = s[j];
                        }
                        if (j >= n)
                                return 0;
                        j++;
                } else {
                        for (start = j; j < n && bare((unsigned char)s[j]); j++)
                                path[(*plen)++] = s[j];
                        if (j == start)
                                return 0;
                }
                depth++;
                while (j < n && (s[j] == ' ' || s[j] == '\t'))
                        j++;
                if (j < n && s[j] == '.') {
                        j++;
                        continue;
                }
                *i = j;
                return depth;
        }
}

static bool lx_record(lindex *x, const char *path, size_t plen, uint32_t line, prc_err *err)
{
        size_t segs = 0;

        /* Every prefix ending at a separator, and the whole path, up to LX_DEPTH segments. */
        for (size_t k = 0; k <= plen && segs < LX_DEPTH; k++) {
                if (k == plen || path[k] == LX_SEP) {
                        char *key = strndup(path, k);
                        bool ok = true;

                        if (key == NULL)
                                return prc_err_oom(err, "line index");
                        if (json_object_get(x->first, key) == NULL)
                                ok = prc_cgc_put(x->first, key, json_integer(line), err);
                        free(key);
                        if (!ok)
                                return false;
                        segs++;
                }
        }
        return true;
}

static bool lx_build(const prc_xin *in, lindex *x, prc_err *err)
{
        char *hdr = NULL, *path = NULL;
        size_t hlen = 0, hdepth = 0, off = 0;
        const char *ml = NULL;          /* the closing delimiter of an open multi-line string */
        uint32_t line = 0;
        bool ok = false;

        x->first = json_object();
        x->packages = json_array();
        hdr = prc_malloc(in->n + 1);
        path = prc_malloc(2 * in->n + 2);
        if (x->first == NULL || x->packages == NULL || hdr == NULL || path == NULL) {
                prc_err_oom(err, "line index");
                goto out;
        }
        while (off < in->n) {
                const char *s = (const char *)in->p + off;
                const char *nl = memchr(s, '\n', in->n - off);
                size_t n = nl != NULL ? (size_t)(nl - s) : in->n - off, i = 0, plen, d;

                off += n + (nl != NULL);
                line++;
                if (ml != NULL) {
                        if (memmem(s, n, ml, 3) != NULL)
                                ml = NULL;
                        continue;
                }
                /* A line that opens a multi-line string and does not close it. */
                for (const char *const *q = (const char *const[]){ "\"\"\"", "'''", NULL }; *q != NULL; q++) {
                        const char *a = memmem(s, n, *q, 3);

                        if (a != NULL && memmem(a + 3, n - (size_t)(a + 3 - s), *q, 3) == NULL)
                                ml = *q;
                }
                while (i < n && (s[i] == ' ' || s[i] == '\t'))
                        i++;
                if (i >= n || s[i] == '#')
                        continue;
                if (s[i] == '[') {
                        bool array = i + 1 < n && s[i + 1] == '[';

                        i += 1 + array;
                        hlen = 0;
                        hdepth = lx_key(s, n, &i, hdr, &hlen, 0);
                        if (hdepth == 0 || i >= n || s[i] != ']') {
                                hdepth = 0;     /* not a header we can read: its keys get no lines */
                                hlen = 0;
                                continue;
                        }
                        if (!lx_record(x, hdr, hlen, line, err))
                                goto out;
                        if (array && hdepth == 1 && hlen == 7 && memcmp(hdr, "package", 7) == 0 &&
                            json_array_append_new(x->packages, json_integer(line)) != 0) {
                                prc_err_oom(err, "line index");
                                goto out;
                        }
                        continue;
                }
                memcpy(path, hdr, hlen);
                plen = hlen;
                d = lx_key(s, n, &i, path, &plen, hdepth);
                if (d == 0 || i >= n || s[i] != '=')
                        continue;
                if (!lx_record(x, path, plen, line, err))
                        goto out;
        }
        ok = true;
out:
        free(hdr);
        free(path);
        return ok;
}

static void lx_free(lindex *x)
{
        json_decref(x->first);
        json_decref(x->packages);
}

/* The line of a key path given as segments (NULL-terminated), or 0. */
static uint32_t lx_line(const lindex *x, const char *const *seg)
{
        char key[4 * PRC_MD_STR_MAX + 8];
        size_t k = 0;

        for (size_t i = 0; seg[i] != NULL; i++) {
                size_t l = strlen(seg[i]);

                if (k + l + 2 > sizeof(key))
                        return 0;
                if (i > 0)
                        key[k++] = LX_SEP;
                memcpy(key + k, seg[i], l);
                k += l;
        }
        key[k] = '\0';
        return (uint32_t)json_integer_value(json_object_get(x->first, key));
}

static bool set_cargo_purl(json_t *obj, const char *name, const char *version, const char *const *qual,
                           prc_err *err)
{
        return prc_md_take_purl(obj, prc_purl("cargo", NULL, name, version, qual, NULL), err);
}

/* An optional string member: true with *out NULL when absent, extract-shape when not a string. */
static bool opt_str(const json_t *o, const char *key, const char **out, uint32_t line, const char *where,
                    prc_err *err)
{
        const json_t *v = json_object_get(o, key);
        char what[160];

        *out = NULL;
        if (v == NULL)
                return true;
        if (!json_is_string(v)) {
                snprintf(what, sizeof(what), "'%s' of %.100s", key, where);
                return shape(err, line, "%s is not a string", what);
        }
        *out = json_string_value(v);
        return true;
}

/*
 * One dependency of a Cargo.toml table: "name = REQ" or a table with
 * version, git (branch | tag | rev), path, registry, registry-index,
 * package (a rename), optional, workspace = true.
 */
static bool toml_dep(json_t *md, const lindex *x, const char *const *tpath, const char *key, const json_t *v,
                     const char *scope, const char *group, prc_err *err)
{
        const char *seg[LX_DEPTH + 2];
        const char *req = NULL, *git = NULL, *branch = NULL, *tag = NULL, *rev = NULL, *path = NULL;
        const char *reg = NULL, *regidx = NULL, *pkg = NULL, *name;
        const json_t *opt, *ws;
        uint32_t line;
        size_t k = 0;
        json_t *d;

        for (; tpath[k] != NULL; k++)
                seg[k] = tpath[k];
        seg[k] = key;
        seg[k + 1] = NULL;
        line = lx_line(x, seg);
        if (line == 0)
                line = lx_line(x, tpath);       /* an inline table: "dependencies = { serde = "1" }" */
        if (json_is_string(v)) {
                req = json_string_value(v);
        } else if (json_is_object(v)) {
                if (!opt_str(v, "version", &req, line, key, err) || !opt_str(v, "git", &git, line, key, err) ||
                    !opt_str(v, "branch", &branch, line, key, err) || !opt_str(v, "tag", &tag, line, key, err) ||
                    !opt_str(v, "rev", &rev, line, key, err) || !opt_str(v, "path", &path, line, key, err) ||
                    !opt_str(v, "registry", &reg, line, key, err) ||
                    !opt_str(v, "registry-index", &regidx, line, key, err) ||
                    !opt_str(v, "package", &pkg, line, key, err))
                        return false;
                opt = PRC_JGET(v, "optional");
                ws = PRC_JGET(v, "workspace");
                if ((opt != NULL && !json_is_boolean(opt)) || (ws != NULL && !json_is_boolean(ws)))
                        return shape(err, line, "'optional' or 'workspace' of %.100s is not a boolean", key);
                if (json_is_true(opt) && strcmp(scope, "runtime") == 0)
                        scope = "optional";
                if (ws != NULL && !json_is_true(ws))
                        return shape(err, line, "'workspace' of %.100s must be true when present", key);
                if (json_is_true(ws) && (req != NULL || git != NULL || path != NULL || reg != NULL))
                        return shape(err, line, "%.100s inherits from the workspace and states a source too", key);
                if ((branch != NULL) + (tag != NULL) + (rev != NULL) > 1 || ((branch || tag || rev) && !git))
                        return shape(err, line, "%.100s: at most one of branch, tag, rev, and only with git", key);
                if (git != NULL && path != NULL)
                        return shape(err, line, "%.100s has both git and path", key);
        } else {
                return shape(err, line, "dependency %.100s is neither a version string nor a table", key);
        }
        /* The crate the registry knows: a renamed dependency's "package", else the key. */
        name = pkg != NULL ? pkg : key;
        d = prc_md_add_dep(md, name, scope, true, line, err);
        if (d == NULL || !prc_md_set_str(d, "requirement", req, err) || !prc_md_set_str(d, "group", group, err))
                return false;
        if (json_is_true(PRC_JGET(v, "workspace"))) {
                if (!prc_md_set_source(d, "workspace", NULL, NULL, NULL, err))
                        return false;
        } else if (git != NULL) {
                const char *ref = branch != NULL ? branch : tag != NULL ? tag : rev;

                if (!prc_cgc_source(md, d, "git", git, ref, rev != NULL && prc_cgc_is_commit(rev) ? rev : NULL, line,
                                    err))
                        return false;
        } else if (path != NULL) {
                if (!prc_md_set_source(d, "path", path, NULL, NULL, err))
                        return false;
        } else if (regidx != NULL) {
                if (!prc_cgc_source(md, d, "registry", regidx, NULL, NULL, line, err))
                        return false;
        }
        if (!set_cargo_purl(d, name, NULL, NULL, err))
                return false;
        if (pkg != NULL) {
                json_t *r = prc_cgc_detail_add(md, "renamed", err);

                if (r == NULL || !prc_md_set_str(r, "key", key, err) || !prc_md_set_str(r, "package", pkg, err) ||
                    !prc_cgc_put_line(r, line, err))
                        return false;
        }
        if (reg != NULL) {
                /* The registry's URL is in .cargo/config.toml, not here: its name is all this file says. */
                json_t *r = prc_cgc_detail_add(md, "dependency_registries", err);

                if (r == NULL || !prc_md_set_str(r, "name", name, err) || !prc_md_set_str(r, "registry", reg, err) ||
                    !prc_cgc_put_line(r, line, err))
                        return false;
        }
        return true;
}

static bool toml_table(json_t *md, const lindex *x, const json_t *root, const char *const *tpath, const char *scope,
                       const char *group, prc_err *err)
{
        const json_t *t = root;
        const char *key;
        json_t *v;

        for (size_t i = 0; tpath[i] != NULL && t != NULL; i++)
                t = json_object_get(t, tpath[i]);
        if (t == NULL)
                return true;
        if (!json_is_object(t))
                return shape(err, lx_line(x, tpath), "'%s' is not a table", tpath[0]);
        json_object_foreach((json_t *)t, key, v)
                if (!toml_dep(md, x, tpath, key, v, scope, group, err))
                        return false;
        return true;
}

/* dependencies, dev-dependencies, build-dependencies (and their old underscore spellings) of one table. */
static bool toml_kinds(json_t *md, const lindex *x, const json_t *root, const char *pre0, const char *pre1,
                       const char *group, prc_err *err)
{
        static const char *const kinds[][2] = {
                { "dependencies", "runtime" },       { "dev-dependencies", "dev" },
                { "dev_dependencies", "dev" },       { "build-dependencies", "build" },
                { "build_dependencies", "build" },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(kinds); i++) {
                const char *p[4] = { kinds[i][0], NULL, NULL, NULL };

                if (pre0 != NULL) {
                        p[0] = pre0;
                        p[1] = pre1;
                        p[2] = kinds[i][0];
                }
                if (!toml_table(md, x, root, p, kinds[i][1], group, err))
                        return false;
        }
        return true;
}

static bool str_list(json_t *dst, const char *key, const json_t *a, uint32_t line, prc_err *err)
{
        size_t i;
        json_t *v, *out;

        if (a == NULL)
                return true;
        if (!json_is_array(a))
                return shape(err, line, "'workspace.%s' is not an array", key);
        if (!prc_cgc_put(dst, key, json_array(), err))
                return false;
        out = json_object_get(dst, key);
        json_array_foreach(a, i, v) {
                if (!json_is_string(v))
                        return shape(err, line, "an entry of 'workspace.%s' is not a string", key);
                if (json_string_length(v) > PRC_MD_STR_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a workspace member of %zu bytes",
                                           json_string_length(v));
                if (i >= PRC_MD_LIST_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u workspace members",
                                           PRC_MD_LIST_MAX);
                if (json_array_append(out, v) != 0)
                        return prc_err_oom(err, "manifest document");
        }
        return true;
}

json_t *prc_x_cargo_toml(const prc_xin *in, prc_err *err)
{
        lindex x = { NULL, NULL };
        json_t *root, *md = NULL, *pkg, *ws, *tgt, *v;
        const char *key;

        root = prc_toml_parse(in->p, in->n, in->lim, 0, err);
        if (root == NULL) {
                prc_cgc_locate(in, err);
                return NULL;
        }
        if (!lx_build(in, &x, err) || (md = prc_md_new(in, "cargo-toml", "cargo", "manifest", err)) == NULL)
                goto fail;
        pkg = PRC_JGET(root, "package");
        if (pkg == NULL)
                pkg = PRC_JGET(root, "project");         /* the pre-2018 name of [package] */
        if (pkg != NULL) {
                const char *name, *ver = NULL, *build = NULL;
                uint32_t pl = lx_line(&x, (const char *const[]){ "package", NULL });
                const json_t *pv, *pb;

                if (pl == 0)
                        pl = lx_line(&x, (const char *const[]){ "project", NULL });
                if (!json_is_object(pkg) || !json_is_string(PRC_JGET(pkg, "name"))) {
                        shape(err, pl, "%s has no string 'name'", "[package]");
                        goto fail;
                }
                name = json_string_value(PRC_JGET(pkg, "name"));
                pv = PRC_JGET(pkg, "version");
                if (json_is_string(pv)) {
                        ver = json_string_value(pv);
                } else if (json_is_object(pv) && json_is_true(PRC_JGET(pv, "workspace"))) {
                        if (!prc_cgc_put(prc_md_details(md), "version_from_workspace", json_true(), err))
                                goto fail;
                } else if (pv != NULL) {
                        shape(err, pl, "%s is neither a string nor {workspace = true}", "[package] version");
                        goto fail;
                }
                {
                        char *p = prc_purl("cargo", NULL, name, ver, NULL, NULL);
                        bool ok = p != NULL && prc_md_set_package(md, name, ver, p, pl, err);

                        if (p == NULL)
                                prc_err_oom(err, "purl");
                        free(p);
                        if (!ok)
                                goto fail;
                }
                /* A build script runs at build time with the builder's rights: a hook, as npm's install scripts. */
                pb = PRC_JGET(pkg, "build");
                if (pb != NULL && !json_is_boolean(pb) && !opt_str(pkg, "build", &build, pl, "[package]", err))
                        goto fail;
                if (build != NULL &&
                    !prc_md_add_hook(md, "build", build,
                                     lx_line(&x, (const char *const[]){ "package", "build", NULL }), err))
                        goto fail;
        }
        if (!toml_kinds(md, &x, root, NULL, NULL, NULL, err))
                goto fail;
        tgt = PRC_JGET(root, "target");
        if (tgt != NULL && !json_is_object(tgt)) {
                shape(err, 0, "%s is not a table", "'target'");
                goto fail;
        }
        json_object_foreach(tgt, key, v) {
                if (!json_is_object(v)) {
                        shape(err, lx_line(&x, (const char *const[]){ "target", key, NULL }), "%s is not a table",
                              "a [target] entry");
                        goto fail;
                }
                if (!toml_kinds(md, &x, root, "target", key, key, err))
                        goto fail;
        }
        ws = PRC_JGET(root, "workspace");
        if (ws != NULL) {
                json_t *wd;

                if (!json_is_object(ws)) {
                        shape(err, 0, "%s is not a table", "'workspace'");
                        goto fail;
                }
                if (!prc_cgc_put(prc_md_details(md), "workspace", json_object(), err))
                        goto fail;
                wd = PRC_JGET(prc_md_details(md), "workspace");
                if (!str_list(wd, "members", PRC_JGET(ws, "members"), 0, err) ||
                    !str_list(wd, "exclude", PRC_JGET(ws, "exclude"), 0, err) ||
                    !str_list(wd, "default-members", PRC_JGET(ws, "default-members"), 0, err))
                        goto fail;
                if (!toml_table(md, &x, root, (const char *const[]){ "workspace", "dependencies", NULL }, "runtime",
                                "workspace", err))
                        goto fail;
        }
        /* [patch.REGISTRY] and [replace] override where crates come from; listed, not applied. */
        {
                json_t *patch = PRC_JGET(root, "patch"), *rep = PRC_JGET(root, "replace"), *t;
                const char *reg, *name;

                if ((patch != NULL && !json_is_object(patch)) || (rep != NULL && !json_is_object(rep))) {
                        shape(err, 0, "%s is not a table", "'patch' or 'replace'");
                        goto fail;
                }
                json_object_foreach(patch, reg, t) {
                        if (!json_is_object(t)) {
                                shape(err, 0, "%s is not a table", "a [patch] entry");
                                goto fail;
                        }
                        json_object_foreach(t, name, v) {
                                char what[PRC_MD_STR_MAX / 2];

                                snprintf(what, sizeof(what), "patch.%.1000s.%.1000s", reg, name);
                                if (!prc_md_not_extracted(md, what, "a [patch] source override; not applied to the "
                                                          "dependencies",
                                                          lx_line(&x, (const char *const[]){ "patch", reg, name,
                                                                                             NULL }),
                                                          err))
                                        goto fail;
                        }
                }
                json_object_foreach(rep, name, v) {
                        char what[PRC_MD_STR_MAX / 2];

                        snprintf(what, sizeof(what), "replace.%.1000s", name);
                        if (!prc_md_not_extracted(md, what, "a [replace] source override; not applied to the "
                                                  "dependencies",
                                                  lx_line(&x, (const char *const[]){ "replace", name, NULL }), err))
                                goto fail;
                }
        }
        json_decref(root);
        lx_free(&x);
        return md;
fail:
        json_decref(root);
        json_decref(md);
        lx_free(&x);
        return NULL;
}

/*
 * Cargo.lock.  A package's "source" is "registry+URL", "sparse+URL" or
 * "git+URL?branch=B#COMMIT"; a package without one is a workspace member or
 * a path dependency.  A dependency entry is "name", "name version" or
 * "name version (source)", as short as still unambiguous (version 2 on).
 */
typedef struct lockpkg {
        const char *name, *version, *source;    /* borrowed: the TOML document */
        uint32_t    line;
} lockpkg;

/* The dependency's source; *vcs gets the purl's vcs_url for a git package (malloc'ed, credential-free). */
static bool lock_source(json_t *md, json_t *d, const lockpkg *p, char **vcs, prc_err *err)
{
        const char *s = p->source;
        char *url, *hash, *q, *ref = NULL, *clean;
        bool ok, cred;

        *vcs = NULL;
        if (s == NULL)
                return prc_md_set_source(d, "path", NULL, NULL, NULL, err);
        if (strncmp(s, "registry+", 9) == 0) {
                if (strcmp(s + 9, crates_io_git) == 0)
                        return true;
                return prc_cgc_source(md, d, "registry", s + 9, NULL, NULL, p->line, err);
        }
        if (strncmp(s, "sparse+", 7) == 0) {
                /* cargo's index URL keeps "sparse+": it names the protocol. */
                if (strcmp(s + 7, crates_io_sparse) == 0)
                        return true;
                return prc_cgc_source(md, d, "registry", s, NULL, NULL, p->line, err);
        }
        if (strncmp(s, "git+", 4) != 0)
                return shape(err, p->line, "package source '%.200s' is of a kind prc does not know", s);
        url = strdup(s + 4);
        if (url == NULL)
                return prc_err_oom(err, "git source");
        hash = strchr(url, '#');
        if (hash != NULL)
                *hash++ = '\0';
        q = strchr(url, '?');
        if (q != NULL) {
                *q++ = '\0';
                /* branch=, tag= or rev=: the ref as Cargo.toml wrote it */
                ref = strchr(q, '=');
                ref = ref != NULL ? ref + 1 : q;
        }
        ok = prc_cgc_source(md, d, "git", url, ref, hash, p->line, err);
        clean = ok ? prc_md_url_strip(url, &cred) : NULL;
        if (ok && (clean == NULL ||
                   asprintf(vcs, "git+%s%s%s", clean, hash != NULL ? "@" : "", hash != NULL ? hash : "") < 0)) {
                *vcs = NULL;
                ok = prc_err_oom(err, "purl");
        }
        free(clean);
        free(url);
        return ok;
}

/* Index package i under "name", "name\x1fversion" and, with a source, "name\x1fversion\x1fsource". */
static bool lock_index(json_t *byname, const lockpkg *q, size_t i, prc_err *err)
{
        for (int form = 0; form < 3; form++) {
                char *k = NULL;
                json_t *list;
                bool ok;

                if (form == 2 && q->source == NULL)
                        break;
                if (asprintf(&k, "%s%s%s%s%s", q->name, form > 0 ? "\x1f" : "", form > 0 ? q->version : "",
                             form > 1 ? "\x1f" : "", form > 1 ? q->source : "") < 0)
                        return prc_err_oom(err, "lockfile");
                list = json_object_get(byname, k);
                ok = true;
                if (list == NULL) {
                        ok = prc_cgc_put(byname, k, json_array(), err);
                        list = json_object_get(byname, k);
                }
                free(k);
                if (!ok)
                        return false;
                if (json_array_append_new(list, json_integer((json_int_t)i)) != 0)
                        return prc_err_oom(err, "lockfile");
        }
        return true;
}

/* Index of the package a dependency entry names, or -1 with cargo-lock-dependency. */
static long lock_resolve(const lockpkg *pk, const json_t *byname, const char *ent, uint32_t line,
                         prc_err *err)
{
        char *e = strdup(ent), *ver = NULL, *src = NULL, *sp;
        const json_t *cands, *iv;
        long hit = -1;
        size_t i, nhits = 0;

        if (e == NULL) {
                prc_err_oom(err, "dependency entry");
                return -1;
        }
        sp = strchr(e, ' ');
        if (sp != NULL) {
                *sp = '\0';
                ver = sp + 1;
                sp = strchr(ver, ' ');
                if (sp != NULL) {
                        *sp = '\0';
                        src = sp + 1;
                        if (src[0] != '(' || src[strlen(src) - 1] != ')' || strlen(src) < 2) {
                                free(e);
                                prc_err_set(err, PRC_E_CARGO_LOCK_DEPENDENCY, "dependency '%.200s' is not "
                                            "\"name version (source)\"", ent);
                                prc_err_set_line(err, line, 0);
                                return -1;
                        }
                        src++;
                        src[strlen(src) - 1] = '\0';
                }
        }
        /* The candidates of the entry's own form: "name", "name version" or all three (see lock_index). */
        {
                char *k = NULL;

                if (asprintf(&k, "%s%s%s%s%s", e, ver != NULL ? "\x1f" : "", ver != NULL ? ver : "",
                             src != NULL ? "\x1f" : "", src != NULL ? src : "") < 0) {
                        free(e);
                        prc_err_oom(err, "dependency entry");
                        return -1;
                }
                cands = json_object_get(byname, k);
                free(k);
        }
        json_array_foreach(cands, i, iv) {
                const lockpkg *p = &pk[json_integer_value(iv)];

                /* the keys could collide on a name holding \x1f: check each field */
                if (strcmp(p->name, e) != 0 || (ver != NULL && strcmp(p->version, ver) != 0) ||
                    (src != NULL && (p->source == NULL || strcmp(p->source, src) != 0)))
                        continue;
                hit = (long)json_integer_value(iv);
                if (++nhits > 1)
                        break;          /* ambiguous: no need to count further */
        }
        free(e);
        if (nhits != 1) {
                prc_err_set(err, PRC_E_CARGO_LOCK_DEPENDENCY, "dependency '%.200s' names %s package of the lockfile",
                            ent, nhits == 0 ? "no" : "more than one");
                prc_err_set_line(err, line, 0);
                return -1;
        }
        return hit;
}

json_t *prc_x_cargo_lock(const prc_xin *in, prc_err *err)
{
        lindex x = { NULL, NULL };
        json_t *root, *md = NULL, *pkgs, *meta, *ver, *byname = NULL, *graph = NULL, *rootpkg, *all = NULL;
        lockpkg *pk = NULL;
        long version;
        size_t np, i, j, off;
        bool *direct = NULL;

        root = prc_toml_parse(in->p, in->n, in->lim, 0, err);
        if (root == NULL) {
                prc_cgc_locate(in, err);
                return NULL;
        }
        if (!lx_build(in, &x, err) || (md = prc_md_new(in, "cargo-lock", "cargo", "lockfile", err)) == NULL)
                goto fail;
        ver = PRC_JGET(root, "version");
        meta = PRC_JGET(root, "metadata");
        if (meta != NULL && !json_is_object(meta)) {
                shape(err, lx_line(&x, (const char *const[]){ "metadata", NULL }), "%s is not a table",
                      "[metadata]");
                goto fail;
        }
        if (ver == NULL) {
                /* No marker: version 1 keeps checksums in [metadata], version 2 on each package (cargo's rule). */
                version = meta != NULL ? 1 : 2;
        } else if (!json_is_integer(ver)) {
                shape(err, lx_line(&x, (const char *const[]){ "version", NULL }), "%s is not an integer",
                      "the lockfile 'version'");
                goto fail;
        } else {
                version = (long)json_integer_value(ver);
                /* Cargo writes the marker from version 3 on and refuses any other number. */
                if (version != 3 && version != 4) {
                        prc_err_set(err, PRC_E_EXTRACT_VERSION, "Cargo.lock version %lld (prc knows 1 to 4)",
                                    (long long)json_integer_value(ver));
                        prc_err_set_line(err, lx_line(&x, (const char *const[]){ "version", NULL }), 0);
                        goto fail;
                }
        }
        if (!prc_cgc_put(prc_md_details(md), "lockfile_version", json_integer(version), err))
                goto fail;
        pkgs = PRC_JGET(root, "package");
        rootpkg = PRC_JGET(root, "root");       /* the oldest version 1 files: the root package */
        if ((pkgs != NULL && !json_is_array(pkgs)) || (rootpkg != NULL && !json_is_object(rootpkg))) {
                shape(err, 0, "%s is not an array of tables", "'package' (or 'root')");
                goto fail;
        }
        all = json_array();
        if (all == NULL || (rootpkg != NULL && json_array_append(all, rootpkg) != 0) ||
            (pkgs != NULL && json_array_extend(all, pkgs) != 0)) {
                prc_err_oom(err, "lockfile");
                goto fail;
        }
        np = json_array_size(all);
        off = rootpkg != NULL;
        if (np > PRC_MD_DEPS_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u packages in one file", PRC_MD_DEPS_MAX);
                goto fail;
        }
        pk = prc_calloc(np + 1, sizeof(*pk));
        direct = prc_calloc(np + 1, sizeof(*direct));
        byname = json_object();
        graph = json_array();
        if (pk == NULL || direct == NULL || byname == NULL || graph == NULL) {
                prc_err_oom(err, "lockfile");
                goto fail;
        }
        for (i = 0; i < np; i++) {
                json_t *p = json_array_get(all, i), *list;
                lockpkg *q = &pk[i];

                if (i < off)
                        q->line = lx_line(&x, (const char *const[]){ "root", NULL });
                else if (json_array_size(x.packages) == np - off)
                        q->line = (uint32_t)json_integer_value(json_array_get(x.packages, i - off));
                if (!json_is_object(p) || !json_is_string(PRC_JGET(p, "name")) ||
                    !json_is_string(PRC_JGET(p, "version"))) {
                        shape(err, q->line, "%s has no string 'name' and 'version'", "a [[package]]");
                        goto fail;
                }
                q->name = json_string_value(PRC_JGET(p, "name"));
                q->version = json_string_value(PRC_JGET(p, "version"));
                if (!opt_str(p, "source", &q->source, q->line, q->name, err))
                        goto fail;
                if (!lock_index(byname, q, i, err))
                        goto fail;
                list = PRC_JGET(p, "dependencies");
                if (list != NULL && !json_is_array(list)) {
                        shape(err, q->line, "'dependencies' of %.200s is not an array", q->name);
                        goto fail;
                }
        }
        /* Edges, and which packages are direct: the workspace's own (no source) and what they name. */
        for (i = 0; i < np; i++) {
                json_t *list = PRC_JGET(json_array_get(all, i), "dependencies"), *e, *out = json_array();

                if (out == NULL || json_array_append_new(graph, out) != 0) {
                        prc_err_oom(err, "lockfile");
                        goto fail;
                }
                if (pk[i].source == NULL)
                        direct[i] = true;
                json_array_foreach(list, j, e) {
                        long t;

                        if (!json_is_string(e)) {
                                shape(err, pk[i].line, "an entry of 'dependencies' of %.200s is not a string",
                                      pk[i].name);
                                goto fail;
                        }
                        t = lock_resolve(pk, byname, json_string_value(e), pk[i].line, err);
                        if (t < 0)
                                goto fail;
                        if (pk[i].source == NULL)
                                direct[t] = true;
                        if (json_array_append_new(out, json_integer(t)) != 0) {
                                prc_err_oom(err, "lockfile");
                                goto fail;
                        }
                }
        }
        for (i = 0; i < np; i++) {
                json_t *p = json_array_get(all, i), *d;
                const char *sum = NULL, *rep = NULL;
                const char *qual[3] = { NULL, NULL, NULL };
                char *vcs = NULL;
                bool ok;

                d = prc_md_add_dep_rr(md, pk[i].name, "runtime", direct[i], pk[i].line, NULL, pk[i].version, err);
                if (d == NULL || !lock_source(md, d, &pk[i], &vcs, err))
                        goto fail;
                if (!opt_str(p, "checksum", &sum, pk[i].line, pk[i].name, err) ||
                    !opt_str(p, "replace", &rep, pk[i].line, pk[i].name, err)) {
                        free(vcs);
                        goto fail;
                }
                if (sum == NULL && meta != NULL && pk[i].source != NULL) {
                        /* Version 1: "checksum NAME VERSION (SOURCE)" = "HEX" in [metadata]. */
                        char *k = NULL;

                        if (asprintf(&k, "checksum %s %s (%s)", pk[i].name, pk[i].version, pk[i].source) < 0) {
                                free(vcs);
                                prc_err_oom(err, "lockfile");
                                goto fail;
                        }
                        if (!opt_str(meta, k, &sum, pk[i].line, "[metadata]", err)) {
                                free(k);
                                free(vcs);
                                goto fail;
                        }
                        free(k);
                        if (sum != NULL && strcmp(sum, "<none>") == 0)
                                sum = NULL;
                }
                if (vcs != NULL) {
                        qual[0] = "vcs_url";
                        qual[1] = vcs;
                } else if (pk[i].source != NULL && json_is_string(json_object_get(PRC_JGET(d, "source"),
                                                                                  "url"))) {
                        qual[0] = "repository_url";
                        qual[1] = json_string_value(PRC_JGET(PRC_JGET(d, "source"), "url"));
                }
                ok = (sum == NULL || prc_md_set_integrity(d, "sha256", sum, err)) &&
                     set_cargo_purl(d, pk[i].name, pk[i].version, qual, err);
                free(vcs);
                if (!ok)
                        goto fail;
                if (rep != NULL) {
                        json_t *r = prc_cgc_detail_add(md, "replaced", err);

                        if (r == NULL || !prc_cgc_put(r, "dependency", json_integer((json_int_t)i), err) ||
                            !prc_md_set_str(r, "by", rep, err))
                                goto fail;
                }
        }
        for (i = 0; i < np; i++) {
                json_t *e;
                json_array_foreach(json_array_get(graph, i), j, e)
                        if (!prc_md_edge(md, i, (size_t)json_integer_value(e), err))
                                goto fail;
        }
        if (!prc_md_edges_finish(md, err))
                goto fail;
        {
                json_t *patch = PRC_JGET(root, "patch"), *un;

                un = PRC_JGET(patch, "unused");
                if (patch != NULL && (!json_is_object(patch) || (un != NULL && !json_is_array(un)))) {
                        shape(err, 0, "%s is not a table of arrays", "[patch]");
                        goto fail;
                }
                json_array_foreach(un, j, ver)
                        if (!prc_md_not_extracted(md, "patch.unused", "a [patch] entry the resolver did not use",
                                                  lx_line(&x, (const char *const[]){ "patch", "unused", NULL }),
                                                  err))
                                goto fail;
        }
        json_decref(root);
        json_decref(all);
        json_decref(byname);
        json_decref(graph);
        free(pk);
        free(direct);
        lx_free(&x);
        return md;
fail:
        json_decref(root);
        json_decref(all);
        json_decref(md);
        json_decref(byname);
        json_decref(graph);
        free(pk);
        free(direct);
        lx_free(&x);
        return NULL;
}
