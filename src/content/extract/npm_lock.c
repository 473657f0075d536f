/*
 * npm_lock.c - the npm family's other lockfiles: yarn.lock (classic v1,
 * and berry, which is YAML) and pnpm-lock.yaml (lockfile versions 5, 6
 * and 9).  docs/extraction/npm.md says what is read.
 * Trust: runs in the content worker on hostile bytes; YAML only through
 * prc_yaml_load, bounded by in->lim; the classic yarn format by a line
 * reader that copies nothing longer than PRC_MD_STR_MAX.
 */
#include "content/extract/npm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/yaml.h"

static bool shape_at(prc_err *err, uint32_t line, const char *msg)
{
        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "%s", msg);
        prc_err_set_line(err, line, 0);
        return false;
}

/* Append s[0..n) to out at *o, cut where snprintf would cut (cap - 1 bytes in all). */
static void kput(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
        size_t room = cap - 1 - *o;

        if (n > room)
                n = room;
        memcpy(out + *o, s, n);
        *o += n;
}

/*
 * out = a b c[0..cn), exactly as snprintf(out, cap, "%s%s%.*s", a, b, (int)cn, c) writes it with
 * cn <= strlen(c), without the formatter: the lockfiles build tens of thousands of such keys.
 */
static void kjoin(char *out, size_t cap, const char *a, const char *b, const char *c, size_t cn)
{
        size_t o = 0;

        kput(out, cap, &o, a, strlen(a));
        kput(out, cap, &o, b, strlen(b));
        kput(out, cap, &o, c, cn);
        out[o] = '\0';
}

/* The package name of a descriptor "name@range" ("@scope/name@npm:1.0.0"): up to the first '@' after the start. */
static bool desc_name(const char *desc, size_t n, char *out, size_t cap)
{
        const char *at = n > 1 ? memchr(desc + 1, '@', n - 1) : NULL;
        size_t k = at != NULL ? (size_t)(at - desc) : n;

        if (k == 0 || k >= cap)
                return false;
        memcpy(out, desc, k);
        out[k] = 0;
        return true;
}

/* ------------------------------------------------------------------ yarn.lock edges (both formats) */

/* Map each descriptor of an entry's key ("a@^1, a@^1.2", as written, unquoted) to the entry's index. */
static bool ydesc_map(json_t *map, const char *specs, size_t index, prc_err *err)
{
        char one[PRC_MD_STR_MAX + 1];

        while (*specs != '\0') {
                size_t n = strcspn(specs, ",");
                const char *s = specs;
                size_t m = n;

                while (m > 0 && (*s == ' ' || *s == '"')) {
                        s++;
                        m--;
                }
                while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '"'))
                        m--;
                if (m > 0 && m < sizeof(one)) {
                        memcpy(one, s, m);
                        one[m] = 0;
                        if (json_object_set_new(map, one, json_integer((json_int_t)index)) != 0)
                                return prc_err_oom(err, "yarn.lock edges");
                }
                specs += n + (specs[n] == ',');
        }
        return true;
}

/*
 * The edge from entry from to the entry whose key holds the descriptor "name@range" (berry writes
 * "npm:" in keys and may leave it out of a dependency's range), else to the only entry of that name
 * (a "resolutions" override in package.json rewrote the range).  An optional dependency the lockfile
 * does not hold was not installed (another platform's): no edge, nothing to note.
 */
/*
 * *names: each dependency name -> its index, or null when more entries
 * than one have it; made on the first edge that needs it (every entry is
 * known by then), so an unmatched range costs a look-up, not a walk of
 * every entry.
 */
static bool ynames(json_t *md, json_t **names, prc_err *err)
{
        const json_t *seen;
        size_t i, n_rows = prc_md_row_count(md);

        *names = json_object();
        if (*names == NULL)
                return prc_err_oom(err, "yarn.lock edges");
        for (i = 0; i < n_rows; i++) {
                const char *n = prc_md_row_name(md, i);

                seen = json_object_get(*names, n);
                if (seen != NULL ? json_is_integer(seen) && json_object_set_new(*names, n, json_null()) != 0
                                 : json_object_set_new(*names, n, json_integer((json_int_t)i)) != 0)
                        return prc_err_oom(err, "yarn.lock edges");
        }
        return true;
}

static bool yedge(json_t *md, const json_t *map, json_t **names, size_t from, const char *name, const char *range,
                  bool optional, prc_err *err)
{
        char key[2 * PRC_MD_STR_MAX + 8];
        const json_t *ix;

        kjoin(key, sizeof(key), name, "@", range, strlen(range));
        ix = json_object_get(map, key);
        if (ix == NULL) {
                kjoin(key, sizeof(key), name, "@npm:", range, strlen(range));
                ix = json_object_get(map, key);
        }
        if (ix != NULL)
                return prc_md_edge(md, from, (size_t)json_integer_value(ix), err);
        /* package.json "resolutions" rewrite a range in place: the one entry of that name is the target. */
        if (*names == NULL && !ynames(md, names, err))
                return false;
        ix = json_object_get(*names, name);
        if (json_is_integer(ix))
                return prc_md_edge(md, from, (size_t)json_integer_value(ix), err);
        return optional || prc_md_edge_unresolved(md, from, name, range, err);
}

/* ------------------------------------------------------------------ yarn.lock, classic */

struct yentry {
        uint32_t line;
        char     name[PRC_MD_STR_MAX + 1];
        char     specs[PRC_MD_STR_MAX + 1];     /* the header as written, without the ':' */
        char     version[PRC_MD_STR_MAX + 1];
        char     resolved[PRC_MD_STR_MAX + 1];
        char     integrity[PRC_MD_STR_MAX + 1];
        bool     open;
        int      block;         /* 0 none, 1 dependencies:, 2 optionalDependencies:, 3 another block */
        json_t  *map;           /* descriptor -> dependency index */
        json_t  *pend;          /* [from, name, range, optional] until every entry is known */
};

/* Copy a value (quoted or bare) into out; false when it does not fit. */
static bool yvalue(const char *s, size_t n, char *out, size_t cap)
{
        if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
                s++;
                n -= 2;
        }
        if (n >= cap)
                return false;
        memcpy(out, s, n);
        out[n] = 0;
        return true;
}

/* The header's descriptors without their quotes, ", "-separated: "a@^1, a@^1.2". */
static bool yspecs(const char *s, size_t n, char *out, size_t cap)
{
        size_t o = 0;

        for (size_t i = 0; i < n; i++) {
                if (s[i] == '"')
                        continue;
                if (o + 1 >= cap)
                        return false;
                out[o++] = s[i];
        }
        out[o] = 0;
        return true;
}

/*
 * The package an entry installs: an alias ("alias@npm:real@^1", the first
 * descriptor) installs real, whose name the purl must carry; else name.
 * Returns a pointer into a static buffer or name.
 */
static const char *yreal(const char *specs, const char *name)
{
        static _Thread_local char real[PRC_MD_STR_MAX + 1];
        size_t nl = strlen(name), n = strcspn(specs, ",");
        const char *r, *at;

        if (n <= nl + 5 || strncmp(specs, name, nl) != 0 || strncmp(specs + nl, "@npm:", 5) != 0)
                return name;
        r = specs + nl + 5;
        n -= nl + 5;
        at = n > 1 ? memchr(r + 1, '@', n - 1) : NULL;     /* the version's '@', never a scope's */
        n = at != NULL ? (size_t)(at - r) : n;
        if (n == 0 || n >= sizeof(real))
                return name;
        memcpy(real, r, n);
        real[n] = 0;
        return real;
}

static bool yflush(json_t *md, struct yentry *e, prc_err *err)
{
        npm_dep d;
        char *hash;

        if (!e->open)
                return true;
        e->open = false;
        if (e->version[0] == '\0')
                return shape_at(err, e->line, "a yarn.lock entry without a version");
        if (!ydesc_map(e->map, e->specs, prc_md_row_count(md), err))
                return false;
        d = npm_add_dep(md, e->name, "runtime", false, e->line, e->specs, e->version, err);
        if (d.row == PRC_MDROW_NONE)
                return false;
        if (e->resolved[0] != '\0') {
                /* "URL#sha1": the fragment of a tarball URL is its SHA-1, not part of where it lives. */
                hash = strchr(e->resolved, '#');
                if (hash != NULL && strncmp(e->resolved, "git", 3) != 0 && strstr(e->resolved, "/-/") != NULL) {
                        *hash = 0;
                        if (e->integrity[0] == '\0' && hash[1] != '\0' && !npm_set_integrity(d, hash + 1, "sha1", err))
                                return false;
                }
                if (!npm_set_resolved_source(d, e->resolved, err))
                        return false;
        }
        if (e->integrity[0] != '\0' && !npm_set_integrity(d, e->integrity, NULL, err))
                return false;
        {
                const char *t = prc_md_row_source_type(d.md, d.row);
                char *purl;
                bool ok;
                if (strcmp(t, "registry") != 0)
                        return true;
                purl = npm_purl(yreal(e->specs, e->name), e->version);
                if (purl == NULL)
                        return prc_err_oom(err, "purl");
                ok = prc_md_row_set_str(d.md, d.row, "purl", purl, err);
                free(purl);
                return ok;
        }
}

/* One line of a dependencies block: `name range`, either quoted ("@a/b" "^1"), kept for the edges. */
/*
 * [dependency, name, range, optional]: built directly, not by json_pack,
 * whose format is read anew for each of a lockfile's thousands of edges.
 * NULL on out of memory or a name or range that is not UTF-8 (as json_pack).
 */
static json_t *pend_row(json_int_t at, const char *name, const char *range, bool optional)
{
        json_t *r = json_array();

        if (r == NULL || json_array_append_new(r, json_integer(at)) != 0 ||
            json_array_append_new(r, json_string(name)) != 0 || json_array_append_new(r, json_string(range)) != 0 ||
            json_array_append_new(r, json_boolean(optional)) != 0) {
                json_decref(r);
                return NULL;
        }
        return r;
}

static bool ypend(struct yentry *e, json_t *md, const char *s, size_t n, uint32_t ln, prc_err *err)
{
        char name[PRC_MD_STR_MAX + 1], range[PRC_MD_STR_MAX + 1];
        /* The line is not NUL-terminated: every search stays inside its n bytes. */
        const char *q = s[0] == '"' ? (n > 1 ? memchr(s + 1, '"', n - 1) : NULL) : memchr(s, ' ', n);
        size_t k = q == NULL ? n : s[0] == '"' ? (size_t)(q - s) + 1 : (size_t)(q - s);
        size_t v = k;

        while (v < n && s[v] == ' ')
                v++;
        if (v == n || k == v)
                return shape_at(err, ln, "a yarn.lock dependency line without a name and a range");
        if (!yvalue(s, k, name, sizeof(name)) || !yvalue(s + v, n - v, range, sizeof(range))) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a yarn.lock value over the byte limit");
                prc_err_set_line(err, ln, 1);
                return false;
        }
        if (json_array_append_new(e->pend, pend_row((json_int_t)prc_md_row_count(md),
                                                    name, range, e->block == 2)) != 0)
                return prc_err_oom(err, "yarn.lock edges");
        return true;
}

static json_t *yarn_classic(const prc_xin *in, prc_err *err)
{
        json_t *md = prc_md_new(in, "yarn-lock", "npm", "lockfile", err), *map = json_object(), *pend = json_array();
        json_t *names = NULL;
        struct yentry *e = calloc(1, sizeof(*e));
        size_t off = 0, pi;
        uint32_t ln = 0;
        const json_t *pe;

        if (md == NULL || e == NULL || map == NULL || pend == NULL) {
                if (md != NULL)
                        prc_err_oom(err, "yarn.lock");
                goto fail;
        }
        e->map = map;
        e->pend = pend;
        if (json_object_set_new(prc_md_details(md), "lockfile_version", json_string("yarn-v1")) != 0 ||
            json_object_set_new(prc_md_details(md), "direct_known", json_false()) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        while (off < in->n) {
                const uint8_t *nl = memchr(in->p + off, '\n', in->n - off);
                size_t n = nl != NULL ? (size_t)(nl - in->p) - off : in->n - off, ind = 0;
                const char *s = (const char *)in->p + off;

                ln++;
                off += n + (nl != NULL);
                if (n > 0 && s[n - 1] == '\r')
                        n--;
                while (ind < n && s[ind] == ' ')
                        ind++;
                if (ind == n || s[ind] == '#')
                        continue;
                if (ind == 0) {
                        /* A header: "spec, spec:" */
                        if (!yflush(md, e, err))
                                goto fail;
                        if (s[n - 1] != ':') {
                                shape_at(err, ln, "a yarn.lock entry header that does not end with ':'");
                                goto fail;
                        }
                        /* The strings are read up to their NUL: clearing their first bytes is enough (not 20 KB). */
                        e->name[0] = e->specs[0] = e->version[0] = e->resolved[0] = e->integrity[0] = '\0';
                        e->block = 0;
                        e->line = ln;
                        e->open = true;
                        if (!yspecs(s, n - 1, e->specs, sizeof(e->specs))) {
                                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "an entry header over %u bytes", PRC_MD_STR_MAX);
                                prc_err_set_line(err, ln, 1);
                                goto fail;
                        }
                        {
                                /* The name: the first descriptor's, without its quotes. */
                                const char *d = s;
                                size_t dn = strcspn(s, ",:");
                                if (dn > n)
                                        dn = n;
                                if (dn >= 2 && d[0] == '"') {
                                        d++;
                                        dn -= 2;
                                }
                                if (!desc_name(d, dn, e->name, sizeof(e->name))) {
                                        shape_at(err, ln, "a yarn.lock entry header that names no package");
                                        goto fail;
                                }
                        }
                        continue;
                }
                if (!e->open) {
                        shape_at(err, ln, "an indented line outside any yarn.lock entry");
                        goto fail;
                }
                if (ind == 2) {
                        const char *k = s + 2, *sp = memchr(k, ' ', n - 2);
                        size_t kn = sp != NULL ? (size_t)(sp - k) : n - 2;
                        const char *v = sp != NULL ? sp + 1 : NULL;
                        size_t vn = sp != NULL ? n - (size_t)(v - s) : 0;
                        char *dst = NULL;

                        e->block = 0;
                        if (sp == NULL && k[kn - 1] == ':') {
                                /* dependencies:, optionalDependencies: the edges */
                                e->block = kn == 13 && memcmp(k, "dependencies:", 13) == 0           ? 1
                                           : kn == 21 && memcmp(k, "optionalDependencies:", 21) == 0 ? 2
                                                                                                      : 3;
                                continue;
                        }
                        if (kn == 7 && memcmp(k, "version", 7) == 0)
                                dst = e->version;
                        else if (kn == 8 && memcmp(k, "resolved", 8) == 0)
                                dst = e->resolved;
                        else if (kn == 9 && memcmp(k, "integrity", 9) == 0)
                                dst = e->integrity;
                        if (dst != NULL && (v == NULL || !yvalue(v, vn, dst, PRC_MD_STR_MAX + 1))) {
                                prc_err_set(err, v == NULL ? PRC_E_EXTRACT_SHAPE : PRC_E_EXTRACT_LIMIT,
                                            v == NULL ? "a yarn.lock field without a value"
                                                      : "a yarn.lock value over the byte limit");
                                prc_err_set_line(err, ln, 3);
                                goto fail;
                        }
                        continue;
                }
                if (e->block == 0) {
                        shape_at(err, ln, "a yarn.lock line indented deeper than its entry allows");
                        goto fail;
                }
                if (e->block < 3 && !ypend(e, md, s + ind, n - ind, ln, err))
                        goto fail;
        }
        if (!yflush(md, e, err))
                goto fail;
        json_array_foreach(pend, pi, pe)
                if (!yedge(md, map, &names, (size_t)json_integer_value(json_array_get(pe, 0)),
                           json_string_value(json_array_get(pe, 1)), json_string_value(json_array_get(pe, 2)),
                           json_is_true(json_array_get(pe, 3)), err))
                        goto fail;
        if (!prc_md_edges_finish(md, err))
                goto fail;
        free(e);
        prc_x_drop(map);
        prc_x_drop(pend);
        prc_x_drop(names);
        return md;
fail:
        free(e);
        prc_x_drop(map);
        prc_x_drop(pend);
        prc_x_drop(names);
        json_decref(md);
        return NULL;
}

/* ------------------------------------------------------------------ yarn.lock, berry (YAML) */

/*
 * Berry entries list dependencies (optional ones too, flagged in dependenciesMeta) in the order of
 * the entries the loop above added.  peerDependencies are not edges of the entry: the package that
 * depends on it provides them.
 */
static bool berry_edges(json_t *md, const json_t *doc, const json_t *map, prc_err *err)
{
        const char *key, *name;
        const json_t *e, *v;
        json_t *names = NULL;
        size_t i = 0;

        json_object_foreach((json_t *)doc, key, e) {
                const json_t *meta = PRC_JGET(e, "dependenciesMeta");
                if (strcmp(key, "__metadata") == 0)
                        continue;
                json_object_foreach(PRC_JGET(e, "dependencies"), name, v) {
                        char vb[64];
                        const char *range = npm_scalar(v, vb, sizeof(vb));
                        bool opt = json_is_true(PRC_JGET(json_object_get(meta, name), "optional"));
                        if (range == NULL || !yedge(md, map, &names, i, name, range, opt, err)) {
                                prc_x_drop(names);
                                return range == NULL ? shape_at(err, 0, "a yarn.lock dependency range that is not a string")
                                                     : false;
                        }
                }
                i++;
        }
        prc_x_drop(names);
        return prc_md_edges_finish(md, err);
}

static json_t *yarn_berry(const prc_xin *in, json_t *doc, prc_err *err)
{
        json_t *md = prc_md_new(in, "yarn-lock", "npm", "lockfile", err), *direct = json_object();
        json_t *map = json_object();
        const json_t *meta = PRC_JGET(doc, "__metadata"), *e, *v;
        const char *key, *k;
        char buf[32], name[PRC_MD_STR_MAX + 1];
        const char *ver;
        npm_cur cur = { 0, 1 };
        long lv;

        if (md == NULL || direct == NULL || map == NULL) {
                if (md != NULL)
                        prc_err_oom(err, "yarn.lock");
                goto fail;
        }
        ver = npm_scalar(PRC_JGET(meta, "version"), buf, sizeof(buf));
        lv = ver != NULL ? strtol(ver, NULL, 10) : 0;
        /* Yarn 2 wrote 4, Yarn 3 5 and 6, Yarn 4 8 and (since 4.2) 10; the fields are the same in all. */
        if (lv != 4 && lv != 5 && lv != 6 && lv != 8 && lv != 10) {
                prc_err_set(err, PRC_E_EXTRACT_VERSION,
                            "yarn.lock __metadata.version %s (prc reads 4, 5, 6, 8 and 10)",
                            ver != NULL ? ver : "missing");
                prc_err_set_line(err, prc_x_find_line(in, "__metadata", 1), 0);
                goto fail;
        }
        if (json_object_set_new(prc_md_details(md), "lockfile_version", json_integer(lv)) != 0) {
                prc_err_oom(err, "details");
                goto fail;
        }
        /* Direct: what the workspaces (entries resolved as "workspace:") declare. */
        json_object_foreach(doc, key, e) {
                const char *res = json_string_value(PRC_JGET(e, "resolution"));
                if (res == NULL || strstr(res, "@workspace:") == NULL)
                        continue;
                json_object_foreach(PRC_JGET(e, "dependencies"), k, v)
                        json_object_set_new(direct, k, json_true());
        }
        json_object_foreach(doc, key, e) {
                const char *res, *version, *checksum, *proto, *link;
                char vb[32];
                npm_dep d;
                uint32_t line;
                bool ws;

                if (strcmp(key, "__metadata") == 0)
                        continue;
                line = npm_cur_find(in, &cur, key);
                if (!json_is_object(e)) {
                        shape_at(err, line, "a yarn.lock entry that is not a mapping");
                        goto fail;
                }
                res = json_string_value(PRC_JGET(e, "resolution"));
                version = npm_scalar(PRC_JGET(e, "version"), vb, sizeof(vb));
                checksum = json_string_value(PRC_JGET(e, "checksum"));
                link = json_string_value(PRC_JGET(e, "linkType"));
                if (res == NULL || version == NULL) {
                        shape_at(err, line, "a yarn.lock entry without a resolution or a version");
                        goto fail;
                }
                /* "name@protocol:..." (a resolution without '@' names no locator: the fuzzer's first find). */
                if (!desc_name(res, strlen(res), name, sizeof(name)) || strlen(name) == strlen(res)) {
                        shape_at(err, line, "a yarn.lock resolution that is not name@locator");
                        goto fail;
                }
                proto = res + strlen(name) + 1;
                ws = strncmp(proto, "workspace:", 10) == 0;
                d = npm_add_dep(md, name, "runtime", !ws && json_object_get(direct, name) != NULL, line, key,
                                version, err);
                if (d.row == PRC_MDROW_NONE)
                        goto fail;
                if (ws) {
                        if (!prc_md_row_set_source(d.md, d.row, "workspace", proto + 10, NULL, NULL, err))
                                goto fail;
                } else if (strncmp(proto, "npm:", 4) == 0) {
                        char *purl = npm_purl(name, version);
                        bool ok = purl != NULL && prc_md_row_set_str(d.md, d.row, "purl", purl, err);
                        free(purl);
                        if (!ok) {
                                if (!prc_err_is_set(err))
                                        prc_err_oom(err, "purl");
                                goto fail;
                        }
                } else if (strncmp(proto, "git", 3) == 0 || strncmp(proto, "github:", 7) == 0 ||
                           strstr(proto, ".git#") != NULL) {
                        const char *h = strstr(proto, "#commit=");
                        char url[PRC_MD_STR_MAX + 1];
                        size_t un = strcspn(proto, "#");
                        if (un > PRC_MD_STR_MAX)
                                un = PRC_MD_STR_MAX;
                        memcpy(url, proto, un);
                        url[un] = 0;
                        if (!prc_md_row_set_source(d.md, d.row, "git", url, NULL, h != NULL ? h + 8 : NULL, err))
                                goto fail;
                } else if (strncmp(proto, "http", 4) == 0) {
                        if (!prc_md_row_set_source(d.md, d.row, "url", proto, NULL, NULL, err))
                                goto fail;
                } else {
                        /* file:, link:, portal:, patch: (a local change to another locator) */
                        if (!prc_md_row_set_source(d.md, d.row, "path", NULL, proto, NULL, err))
                                goto fail;
                }
                if (checksum != NULL && *checksum != '\0') {
                        /* Yarn 4 prefixes the cache key: "10c0/HEX".  The digest is SHA-512, hex. */
                        const char *slash = strchr(checksum, '/');
                        if (!npm_set_integrity(d, slash != NULL ? slash + 1 : checksum, "sha512", err))
                                goto fail;
                }
                if (link != NULL && strcmp(link, "soft") == 0 && !ws &&
                    !prc_md_not_extracted(md, name, "a soft link (link: or portal:) to a folder: its own "
                                          "dependencies are in that folder's package.json", line, err))
                        goto fail;
                if (!ydesc_map(map, key, prc_md_row_count(md) - 1, err))
                        goto fail;
        }
        if (!berry_edges(md, doc, map, err))
                goto fail;
        prc_x_drop(map);
        prc_x_drop(direct);
        return md;
fail:
        prc_x_drop(map);
        prc_x_drop(direct);
        json_decref(md);
        return NULL;
}

json_t *prc_x_yarn_lock(const prc_xin *in, prc_err *err)
{
        json_t *doc, *md;

        /* Berry lockfiles are YAML and begin with __metadata; classic ones say "# yarn lockfile v1". */
        if (prc_x_find_line(in, "__metadata:", 1) == 0) {
                if (prc_x_find_line(in, "# yarn lockfile v1", 1) == 0) {
                        prc_err_set(err, PRC_E_EXTRACT_VERSION,
                                    "yarn.lock is neither \"# yarn lockfile v1\" nor a berry lockfile (__metadata)");
                        prc_err_set_line(err, 1, 1);
                        return NULL;
                }
                return yarn_classic(in, err);
        }
        doc = prc_yaml_load(in->p, in->n, in->lim, PRC_YAML_FLOAT_AS_STRING, err);
        if (doc == NULL)
                return NULL;
        if (!json_is_object(doc)) {
                prc_x_drop(doc);
                shape_at(err, 1, "a berry yarn.lock that is not a mapping");
                return NULL;
        }
        md = yarn_berry(in, doc, err);
        prc_x_drop(doc);
        return md;
}

/* ------------------------------------------------------------------ pnpm-lock.yaml */

struct pnpm {
        const prc_xin *in;
        json_t        *doc, *md;
        int            major;
        json_t        *direct;          /* "name@version" -> scope of the importer list that names it */
        json_t        *reach;           /* v9: "name@version" -> "runtime" | "dev" | "optional" */
        json_t        *at;              /* packages key -> dependency index */
};

/* Strip a peer suffix: v6/v9 "(peer@1)", v5 "_peer@1". */
static size_t bare_len(const char *v, int major)
{
        size_t n = strcspn(v, "(");

        if (major == 5) {
                size_t u = strcspn(v, "_");
                if (u < n)
                        n = u;
        }
        return n;
}

/* name and version of a packages key: v5 "/name/1.0.0_peer", v6 "/name@1.0.0(peer)", v9 "name@1.0.0". */
static bool pnpm_key(const char *key, int major, char *name, char *version, size_t cap)
{
        const char *k = key[0] == '/' ? key + 1 : key, *sep;
        size_t n = bare_len(k, major);

        if (major == 5) {
                const char *first = memchr(k, '/', n);
                if (first == NULL)
                        return false;
                sep = k[0] == '@' ? memchr(first + 1, '/', n - (size_t)(first + 1 - k)) : first;
                if (sep == NULL)
                        return false;
                /* A key may hold more segments (a tarball host path): the version is the last one. */
                {
                        const char *last = sep;
                        for (const char *q = sep; q < k + n; q++)
                                if (*q == '/')
                                        last = q;
                        sep = last;
                }
        } else {
                sep = n > 1 ? memchr(k + 1, '@', n - 1) : NULL;
                if (sep == NULL)
                        return false;
        }
        if ((size_t)(sep - k) >= cap || (size_t)(k + n - sep - 1) >= cap || sep == k || sep + 1 == k + n)
                return false;
        memcpy(name, k, (size_t)(sep - k));
        name[sep - k] = 0;
        memcpy(version, sep + 1, (size_t)(k + n - sep - 1));
        version[k + n - sep - 1] = 0;
        return true;
}

/* An importer's version of a dependency: v5 a string, v6/v9 {"specifier", "version"}. */
static const char *imp_version(const json_t *v)
{
        return json_is_object(v) ? json_string_value(PRC_JGET(v, "version")) : json_string_value(v);
}

static bool pnpm_direct(struct pnpm *p, const json_t *imp, prc_err *err)
{
        static const struct {
                const char *key, *scope;
        } lists[] = { { "dependencies", "runtime" }, { "devDependencies", "dev" },
                      { "optionalDependencies", "optional" } };
        char id[2 * PRC_MD_STR_MAX + 2];

        for (size_t i = 0; i < PRC_ARRAY_LEN(lists); i++) {
                const json_t *o = json_object_get(imp, lists[i].key), *v;
                const char *name;
                json_object_foreach((json_t *)o, name, v) {
                        const char *ver = imp_version(v);
                        if (ver == NULL)
                                continue;
                        if (ver[0] == '/')      /* v5: "/other/1.0.0" for an alias */
                                continue;
                        kjoin(id, sizeof(id), name, "@", ver, bare_len(ver, p->major));
                        if (json_object_get(p->direct, id) == NULL &&
                            json_object_set_new(p->direct, id, json_string(lists[i].scope)) != 0)
                                return prc_err_oom(err, "pnpm importers");
                }
        }
        return true;
}

/*
 * v9 keeps no dev/optional flag on packages: walk the snapshots from each
 * importer's lists; a package is runtime if a runtime root reaches it, else
 * optional, else dev.
 */
static bool pnpm_reach(struct pnpm *p, prc_err *err)
{
        static const char *const order[] = { "runtime", "optional", "dev" };
        const json_t *snaps = PRC_JGET(p->doc, "snapshots");
        json_t *queue = json_array(), *index = json_object();
        const char *sk0;
        const json_t *snap0;
        char n0[PRC_MD_STR_MAX + 1], v0[PRC_MD_STR_MAX + 1], b0[2 * PRC_MD_STR_MAX + 2];
        bool ok = true;

        if (queue == NULL || index == NULL) {
                json_decref(queue);
                json_decref(index);
                return prc_err_oom(err, "pnpm snapshots");
        }
        /* bare "name@version" -> the snapshots of it (one per peer set) */
        json_object_foreach((json_t *)snaps, sk0, snap0) {
                json_t *l;
                if (!pnpm_key(sk0, 9, n0, v0, sizeof(n0)))
                        continue;
                kjoin(b0, sizeof(b0), n0, "@", v0, strlen(v0));
                l = json_object_get(index, b0);
                if (l == NULL && (json_object_set_new(index, b0, l = json_array()) != 0 || l == NULL)) {
                        json_decref(queue);
                        json_decref(index);
                        return prc_err_oom(err, "pnpm snapshots");
                }
                json_array_append(l, (json_t *)snap0);
        }
        for (size_t o = 0; ok && o < PRC_ARRAY_LEN(order); o++) {
                const char *id;
                const json_t *sc;
                json_object_foreach(p->direct, id, sc)
                        if (strcmp(json_string_value(sc), order[o]) == 0)
                                json_array_append_new(queue, json_string(id));
                /* ids here are bare "name@version"; snapshot keys carry peers: match by bare prefix. */
                while (ok && json_array_size(queue) > 0) {
                        json_t *cur = json_incref(json_array_get(queue, json_array_size(queue) - 1));
                        const char *cid = json_string_value(cur);
                        const json_t *snap;
                        char bid[2 * PRC_MD_STR_MAX + 2];
                        size_t si;

                        json_array_remove(queue, json_array_size(queue) - 1);
                        if (json_object_get(p->reach, cid) != NULL) {
                                json_decref(cur);
                                continue;
                        }
                        if (json_object_set_new(p->reach, cid, json_string(order[o])) != 0) {
                                json_decref(cur);
                                ok = prc_err_oom(err, "pnpm snapshots");
                                break;
                        }
                        json_array_foreach(json_object_get(index, cid), si, snap) {
                                const char *dn;
                                const json_t *dv;
                                for (int l = 0; l < 2; l++)
                                        json_object_foreach(json_object_get(snap, l ? "optionalDependencies"
                                                                                    : "dependencies"),
                                                            dn, dv) {
                                                const char *x = json_string_value(dv);
                                                if (x == NULL)
                                                        continue;
                                                kjoin(bid, sizeof(bid), dn, "@", x, bare_len(x, 9));
                                                if (json_object_get(p->reach, bid) == NULL)
                                                        json_array_append_new(queue, json_string(bid));
                                        }
                        }
                        json_decref(cur);
                }
        }
        json_decref(queue);
        json_decref(index);
        return ok;
}

/*
 * The edges: v5 and v6 packages, v9 snapshots (a package's peer variants together) list
 * dependencies and optionalDependencies by name and version ("1.0.0", "1.0.0(peer@2)" or "_peer@2"),
 * an alias by its key ("/other/1.0.0", v9 "other@1.0.0"), a workspace link as "link:..." (not a
 * package of the lockfile: no edge).  at maps each packages key to its dependency index.
 */
static bool pnpm_edges(struct pnpm *p, const json_t *at, prc_err *err)
{
        const json_t *rows = json_object_get(p->doc, p->major == 9 ? "snapshots" : "packages"), *e, *v, *ix;
        const char *key, *name;
        char n0[PRC_MD_STR_MAX + 1], v0[PRC_MD_STR_MAX + 1], k[2 * PRC_MD_STR_MAX + 8];

        json_object_foreach((json_t *)rows, key, e) {
                size_t from;

                if (p->major == 9) {
                        if (!pnpm_key(key, 9, n0, v0, sizeof(n0)))
                                continue;
                        kjoin(k, sizeof(k), n0, "@", v0, strlen(v0));
                        ix = json_object_get(at, k);
                } else {
                        ix = json_object_get(at, key);
                }
                if (ix == NULL)
                        continue;       /* v9: a snapshot of no package (the packages section lists them all) */
                from = (size_t)json_integer_value(ix);
                for (int l = 0; l < 2; l++)
                        json_object_foreach(json_object_get(e, l ? "optionalDependencies" : "dependencies"), name, v) {
                                const char *x = json_string_value(v);
                                size_t b;
                                if (x == NULL || strncmp(x, "link:", 5) == 0)
                                        continue;
                                b = bare_len(x, p->major);
                                if (x[0] == '/' || (p->major == 9 && b > 1 && memchr(x + 1, '@', b - 1) != NULL))
                                        kjoin(k, sizeof(k), "", "", x, p->major == 9 ? b : strlen(x));
                                else if (p->major == 9)
                                        kjoin(k, sizeof(k), name, "@", x, b);
                                else {
                                        k[0] = '/';
                                        kjoin(k + 1, sizeof(k) - 1, name, p->major == 5 ? "/" : "@", x, strlen(x));
                                }
                                ix = json_object_get(at, k);
                                if (ix == NULL && x[0] != '/' && p->major != 9)
                                        ix = json_object_get(at, k + 1);        /* a key written without '/' */
                                if (ix != NULL ? !prc_md_edge(p->md, from, (size_t)json_integer_value(ix), err)
                                               : l == 0 && !prc_md_edge_unresolved(p->md, from, name, x, err))
                                        return false;
                        }
        }
        return prc_md_edges_finish(p->md, err);
}

static json_t *pnpm_extract(struct pnpm *p, prc_err *err)
{
        const json_t *imps = PRC_JGET(p->doc, "importers"), *pkgs = PRC_JGET(p->doc, "packages"), *e;
        const char *key;
        npm_cur cur = { 0, 1 };
        char name[PRC_MD_STR_MAX + 1], version[PRC_MD_STR_MAX + 1], id[2 * PRC_MD_STR_MAX + 2];

        if (imps != NULL) {
                const char *ik;
                const json_t *iv;
                if (!json_is_object(imps))
                        return shape_at(err, prc_x_find_line(p->in, "importers:", 1), "importers is not a mapping"),
                               NULL;
                json_object_foreach((json_t *)imps, ik, iv)
                        if (!pnpm_direct(p, iv, err))
                                return NULL;
        } else if (!pnpm_direct(p, p->doc, err)) {
                return NULL;
        }
        if (p->major == 9 && !pnpm_reach(p, err))
                return NULL;
        if (pkgs != NULL && !json_is_object(pkgs))
                return shape_at(err, prc_x_find_line(p->in, "packages:", 1), "packages is not a mapping"), NULL;
        (void)npm_cur_find(p->in, &cur, "\npackages:");
        json_object_foreach((json_t *)pkgs, key, e) {
                const json_t *res = PRC_JGET(e, "resolution");
                const char *n2 = json_string_value(PRC_JGET(e, "name"));
                const char *v2 = json_string_value(PRC_JGET(e, "version"));
                const char *scope = "runtime", *sc, *integ;
                bool keyed = pnpm_key(key, p->major, name, version, sizeof(name));
                uint32_t line = npm_cur_find(p->in, &cur, key);
                npm_dep d;

                if (!json_is_object(e))
                        return shape_at(err, line, "a pnpm-lock.yaml package that is not a mapping"), NULL;
                /* Non-registry packages carry their own name and version; a key never overrides them. */
                if (n2 != NULL && strlen(n2) <= PRC_MD_STR_MAX)
                        snprintf(name, sizeof(name), "%s", n2);
                if (v2 != NULL && strlen(v2) <= PRC_MD_STR_MAX)
                        snprintf(version, sizeof(version), "%s", v2);
                if ((!keyed && (n2 == NULL || v2 == NULL)) || name[0] == '\0')
                        return shape_at(err, line, "a pnpm-lock.yaml package key that names no package and version"),
                               NULL;
                kjoin(id, sizeof(id), name, "@", version, strlen(version));
                if (p->major == 9) {
                        sc = json_string_value(json_object_get(p->reach, id));
                        scope = sc != NULL ? sc : "runtime";
                } else if (json_is_true(PRC_JGET(e, "dev"))) {
                        scope = "dev";
                } else if (json_is_true(PRC_JGET(e, "optional"))) {
                        scope = "optional";
                }
                d = npm_add_dep(p->md, name, scope, json_object_get(p->direct, id) != NULL, line, NULL, version, err);
                if (d.row == PRC_MDROW_NONE)
                        return NULL;
                if (json_object_set_new(p->at, key, json_integer((json_int_t)d.row)) != 0)
                        return prc_err_oom(err, "pnpm edges"), NULL;
                if (json_is_true(PRC_JGET(e, "requiresBuild")) &&
                    !npm_note_dep(p->md, "install_scripts", line, err))
                        return NULL;
                integ = json_string_value(PRC_JGET(res, "integrity"));
                if (integ != NULL && !npm_set_integrity(d, integ, NULL, err))
                        return NULL;
                if (json_string_value(PRC_JGET(res, "commit")) != NULL) {
                        if (!prc_md_row_set_source(d.md, d.row, "git", json_string_value(PRC_JGET(res, "repo")), NULL,
                                                   json_string_value(PRC_JGET(res, "commit")), err))
                                return NULL;
                } else if (json_string_value(PRC_JGET(res, "directory")) != NULL) {
                        if (!prc_md_row_set_source(d.md, d.row, "path",
                                                   json_string_value(PRC_JGET(res, "directory")), NULL, NULL, err))
                                return NULL;
                } else if (json_string_value(PRC_JGET(res, "tarball")) != NULL) {
                        const char *t = json_string_value(PRC_JGET(res, "tarball"));
                        if (!prc_md_row_set_source(d.md, d.row, strncmp(t, "file:", 5) == 0 ? "path" : "url", t,
                                                   NULL, NULL, err))
                                return NULL;
                } else {
                        char *purl = npm_purl(name, version);
                        bool ok = purl != NULL && prc_md_row_set_str(d.md, d.row, "purl", purl, err);
                        free(purl);
                        if (!ok)
                                return prc_err_is_set(err) ? NULL : (prc_err_oom(err, "purl"), NULL);
                }
        }
        if (!pnpm_edges(p, p->at, err))
                return NULL;
        return p->md;
}

json_t *prc_x_pnpm_lock(const prc_xin *in, prc_err *err)
{
        struct pnpm p = { .in = in };
        const char *lv;
        char buf[32];
        json_t *md = NULL;

        p.doc = prc_yaml_load(in->p, in->n, in->lim, PRC_YAML_FLOAT_AS_STRING, err);
        if (p.doc == NULL)
                return NULL;
        if (!json_is_object(p.doc)) {
                shape_at(err, 1, "pnpm-lock.yaml is not a mapping");
                goto out;
        }
        lv = npm_scalar(PRC_JGET(p.doc, "lockfileVersion"), buf, sizeof(buf));
        p.major = lv != NULL ? (int)strtol(lv, NULL, 10) : 0;
        if (p.major != 5 && p.major != 6 && p.major != 9) {
                prc_err_set(err, PRC_E_EXTRACT_VERSION, "pnpm lockfileVersion %.32s (prc reads 5.x, 6.x and 9.x)",
                            lv != NULL ? lv : "missing");
                prc_err_set_line(err, prc_x_find_line(in, "lockfileVersion", 1), 0);
                goto out;
        }
        p.md = prc_md_new(in, "pnpm-lock", "npm", "lockfile", err);
        p.direct = json_object();
        p.reach = json_object();
        p.at = json_object();
        if (p.md == NULL || p.direct == NULL || p.reach == NULL || p.at == NULL ||
            !prc_md_set_str(prc_md_details(p.md), "lockfile_version", lv, err)) {
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "pnpm-lock.yaml");
                goto out;
        }
        md = pnpm_extract(&p, err);
out:
        if (md == NULL)
                json_decref(p.md);
        prc_x_drop(p.direct);
        prc_x_drop(p.reach);
        prc_x_drop(p.at);
        prc_x_drop(p.doc);
        return md;
}
