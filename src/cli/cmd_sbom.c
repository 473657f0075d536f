/*
 * cmd_sbom.c - `prc sbom --target DIR [--output FILE]`: a CycloneDX 1.6 JSON
 * SBOM of what the tree's manifests declare (docs/extraction.md, "prc sbom").
 * Trust: the target is hostile.  This process never parses its bytes: the
 * scan's inventory and extraction run exactly as in `prc scan` (every
 * manifest through the sandboxed content worker) and only the checked
 * ManifestDocs are read here.  The output is deterministic: no timestamp, no
 * serial number, components and lists sorted, canonical JSON.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "engine/lanes.h"
#include "engine/scan.h"

/* Scope strength: a component required by any manifest is required. */
static int scope_rank(const char *scope)
{
        if (scope == NULL)
                return 2;
        if (strcmp(scope, "runtime") == 0 || strcmp(scope, "peer") == 0)
                return 2;
        if (strcmp(scope, "optional") == 0)
                return 1;
        return 0;       /* dev, test, build: not part of what runs */
}

static const char *const rank_name[] = { "excluded", "optional", "required" };

/* CycloneDX hash algorithm names and digest sizes, from the lowercase spelling files use. */
static const struct {
        const char *file, *cdx;
        size_t bytes;
} hash_algs[] = {
        { "md5", "MD5", 16 },           { "sha1", "SHA-1", 20 },        { "sha256", "SHA-256", 32 },
        { "sha384", "SHA-384", 48 },    { "sha512", "SHA-512", 64 },    { "sha3-256", "SHA3-256", 32 },
        { "sha3-384", "SHA3-384", 48 }, { "sha3-512", "SHA3-512", 64 },
};

/* value as lowercase hex of exactly want bytes: already hex, or base64 (npm's SRI); false if neither. */
static bool digest_hex(const char *value, size_t want, char *out, size_t cap)
{
        size_t n = strlen(value);
        uint8_t raw[64];
        long got;

        if (2 * want + 1 > cap || want > sizeof(raw))
                return false;
        if (n == 2 * want && strspn(value, "0123456789abcdefABCDEF") == n) {
                for (size_t i = 0; i <= n; i++)
                        out[i] = (char)tolower((unsigned char)value[i]);
                return true;
        }
        got = prc_b64_decode(value, n, raw, want, PRC_B64_URLSAFE | PRC_B64_NOPAD, NULL);
        if (got != (long)want)
                return false;
        for (size_t i = 0; i < want; i++) {
                out[2 * i] = "0123456789abcdef"[raw[i] >> 4];
                out[2 * i + 1] = "0123456789abcdef"[raw[i] & 15];
        }
        out[2 * want] = 0;
        return true;
}

/* The component key (and bom-ref): the purl, else prc:ECOSYSTEM/NAME[@VERSION] (no registry purl exists). */
static bool dep_ref(const json_t *dep, const char *eco, char *out, size_t cap)
{
        const char *purl = json_string_value(json_object_get(dep, "purl"));
        const char *name = json_string_value(json_object_get(dep, "name"));
        const char *ver = json_string_value(json_object_get(dep, "resolved"));
        size_t len;
        int n;

        /* Once a dependency, twice with edges: the purl is copied, not formatted. */
        if (purl != NULL) {
                len = strlen(purl);
                if (len >= cap)
                        return false;
                memcpy(out, purl, len + 1);
                return true;
        }
        n = snprintf(out, cap, "prc:%s/%s%s%s", eco, name ? name : "", ver ? "@" : "", ver ? ver : "");
        return n >= 0 && (size_t)n < cap;
}

enum { REF_MAX = 3 * 4096 + 64 };

/*
 * The end of the command, off its critical path: each worker is let go
 * (it exits, is reaped) and the BOM's trees are freed on threads of their
 * own while this one writes, commits and reports; joined before return,
 * so nothing is leaked.  Should a thread not start, the work is done here.
 */
struct bg {
        pthread_t tid;
        bool      on;
};

static void bg_run(struct bg *t, void *(*fn)(void *), void *arg)
{
        t->on = pthread_create(&t->tid, NULL, fn, arg) == 0;
        if (!t->on)
                (void)fn(arg);
}

static void bg_wait(struct bg *t)
{
        if (t->on)
                pthread_join(t->tid, NULL);
        t->on = false;
}

struct member;

/* An edge between two components, by their keys in the comps object (stable for its life). */
struct edge {
        const char *from, *to;
};

/*
 * The BOM being gathered, one ManifestDoc at a time as the scan extracts
 * them (none is kept).  A component is kept small (a tree of 12,000 is
 * gathered whole before any is written): its bom-ref (and purl, when it is
 * one) is its key in comps; {"n": name, "v": version, "e": ecosystem, "r":
 * scope rank and first place (RANK_BITS), "p": [paths], "h": ["ALG hex"],
 * "u": ["alg-value" not mapped]}, the lists sorted and deduplicated when
 * written.  The documents come in the order the scan's trips finish, so
 * nothing may depend on that order: the lists are sets, the rank is the
 * strongest, the edges are sorted, and the name, ecosystem and version are
 * those of the first document in inventory order that names the component
 * (add_dep), as when the documents came in that order.
 */
struct sbom {
        json_t      *comps;
        struct edge *edges;
        size_t       nedges, capedges;
        json_t      *gomods;    /* directory -> {purl: true} of a go.mod of go 1.17 or later */
        json_t      *gomods_seen;       /* directory -> true: a go.mod was folded there */
        json_t      *gosums;    /* [document, order] held back: a go.sum before its go.mod, Directory.Packages.props */
        json_t      *nuget_refs;        /* lower-cased package ids the tree's MSBuild projects reference */
        struct member *members; /* owned once written: the components, sorted, emptied by emptier */
        size_t       nmembers;
        struct bg    emptier;   /* empties the written components while the edges are written (sbom_write) */
};

/* a list member of c, appended (s is shared, not copied); a path is skipped when it is the last one already. */
static bool list_add(json_t *c, const char *list, json_t *s, prc_err *err)
{
        json_t *a = json_object_get(c, list);

        if (a == NULL && (json_object_set_new(c, list, a = json_array()) != 0 || a == NULL))
                return prc_err_oom(err, "the SBOM");
        if (json_array_size(a) > 0 && json_array_get(a, json_array_size(a) - 1) == s)
                return true;
        return json_array_append(a, s) == 0 || prc_err_oom(err, "the SBOM");
}

/* text appended to list of c; ascii: text is known to be ASCII (no UTF-8 check: the hashes, 12,000 of them). */
static bool list_add_new(json_t *c, const char *list, const char *text, bool ascii, prc_err *err)
{
        json_t *s = ascii ? json_stringn_nocheck(text, strlen(text)) : json_string(text);
        bool ok = s != NULL ? list_add(c, list, s, err) : prc_err_oom(err, "the SBOM");

        json_decref(s);
        return ok;
}

/* A copy of string s (valid UTF-8 already: no check). */
static json_t *str_copy(const json_t *s)
{
        return json_stringn_nocheck(json_string_value(s), json_string_length(s));
}

/*
 * A component's "r": its scope rank in the low RANK_BITS, above them the
 * first place (scan.h extraction_each's order; PLACE_DEFERRED and after
 * for the documents held to the end) of the documents naming it.
 */
enum { RANK_BITS = 2, RANK_MASK = (1 << RANK_BITS) - 1 };
#define PLACE_DEFERRED ((size_t)1 << 40)

/*
 * The name, ecosystem and version of c, from the dependency first naming
 * it.  Copies of the document's strings, not the strings themselves: the
 * document's nodes live in chunks that a node kept would keep whole
 * (prc_json_arena_begin).
 */
static bool comp_names(json_t *c, const json_t *name, json_t *eco, const json_t *ver)
{
        if (json_object_set_new(c, "n", name != NULL ? str_copy(name) : json_string("")) != 0 ||
            json_object_set(c, "e", eco) != 0)
                return false;
        if (ver == NULL) {
                (void)json_object_del(c, "v");  /* -1 when it had none */
                return true;
        }
        return json_object_set_new(c, "v", str_copy(ver)) == 0;
}

/* A new component; r as RANK_BITS says. */
static json_t *new_comp(const json_t *name, json_t *eco, json_int_t r, const json_t *ver)
{
        json_t *c = json_object();

        if (c == NULL || !comp_names(c, name, eco, ver) || json_object_set_new(c, "r", json_integer(r)) != 0) {
                json_decref(c);
                return NULL;
        }
        return c;
}

/*
 * Fold one dependency of the document at place into comps; *key is its
 * component's key in comps.  A document before the one that named the
 * component first (in inventory order) names it anew: the first in that
 * order wins, whatever order the documents come in, and within one
 * document the first dependency.
 */
static bool add_dep(json_t *comps, const json_t *dep, json_t *path, json_t *eco, size_t place, const char **key,
                    prc_err *err)
{
        char ref[REF_MAX];
        const json_t *name = json_object_get(dep, "name"), *ver = json_object_get(dep, "resolved");
        const json_t *integ = json_object_get(dep, "integrity");
        json_t *c;
        void *it;
        int rank = scope_rank(json_string_value(json_object_get(dep, "scope")));

        if (!json_is_string(name))
                name = NULL;
        if (!json_is_string(ver))
                ver = NULL;
        if (!dep_ref(dep, json_string_value(eco), ref, sizeof(ref)))
                return prc_err_set(err, PRC_E_INTERNAL, "%s: a component reference above %d bytes",
                                   json_string_value(path), REF_MAX);
        it = json_object_iter_at(comps, ref);
        if (it == NULL) {
                c = new_comp(name, eco, (json_int_t)place << RANK_BITS | rank, ver);
                if (c == NULL || json_object_set_new(comps, ref, c) != 0 ||
                    (it = json_object_iter_at(comps, ref)) == NULL)
                        return prc_err_oom(err, "the SBOM");
        } else {
                json_t *r;
                json_int_t was, first;

                c = json_object_iter_value(it);
                r = json_object_get(c, "r");
                was = json_integer_value(r);
                first = was >> RANK_BITS;
                if ((json_int_t)place < first) {
                        if (!comp_names(c, name, eco, ver))
                                return prc_err_oom(err, "the SBOM");
                        first = (json_int_t)place;
                }
                if (rank < (was & RANK_MASK))
                        rank = (int)(was & RANK_MASK);
                json_integer_set(r, first << RANK_BITS | rank);
        }
        *key = json_object_iter_key(it);
        if (!list_add(c, "p", path, err))
                return false;
        if (json_is_object(integ)) {
                const char *alg = json_string_value(json_object_get(integ, "algorithm"));
                const char *val = json_string_value(json_object_get(integ, "value"));
                char hex[2 * 64 + 1], text[8300];

                for (size_t i = 0; alg != NULL && val != NULL && i < PRC_ARRAY_LEN(hash_algs); i++) {
                        if (strcasecmp(alg, hash_algs[i].file) != 0 ||
                            !digest_hex(val, hash_algs[i].bytes, hex, sizeof(hex)))
                                continue;
                        snprintf(text, sizeof(text), "%s %s", hash_algs[i].cdx, hex);
                        return list_add_new(c, "h", text, true, err);
                }
                /* Not a CycloneDX algorithm, or a value of the wrong length: kept as written, never dropped. */
                snprintf(text, sizeof(text), "%s-%s", alg ? alg : "", val ? val : "");
                return list_add_new(c, "u", text, false, err);
        }
        return true;
}

/* The key of comps equal to ref (its storage lives as long as the entry). */
static const char *comp_key(const json_t *comps, const char *ref)
{
        void *it = json_object_iter_at((json_t *)comps, ref);

        return it != NULL ? json_object_iter_key(it) : NULL;
}

/* Sentinel of dep_key: the dependency's component was looked for and is not in comps. */
static const char no_comp[] = "";

/* The key in comps of deps[i]'s component, or NULL; keys[i] caches it (fold_doc fills it for what it added). */
static const char *dep_key(const struct sbom *sb, const json_t *deps, size_t i, const char *eco, const char **keys)
{
        char ref[REF_MAX];
        const char *k;

        if (keys[i] == NULL) {
                k = dep_ref(json_array_get(deps, i), eco, ref, sizeof(ref)) ? comp_key(sb->comps, ref) : NULL;
                keys[i] = k != NULL ? k : no_comp;
        }
        return keys[i] != no_comp ? keys[i] : NULL;
}

/* The edges a lockfile states: each dependency's depends_on, indexes into the same document's dependencies. */
static bool doc_edges(struct sbom *sb, const json_t *deps, const char *eco, const char **keys, prc_err *err)
{
        const json_t *d, *ix;
        size_t i, k;

        json_array_foreach(deps, i, d) {
                const json_t *row = json_object_get(d, "depends_on");
                const char *from;

                if (json_array_size(row) == 0 || (from = dep_key(sb, deps, i, eco, keys)) == NULL)
                        continue;
                json_array_foreach(row, k, ix) {
                        json_int_t t = json_integer_value(ix);
                        const char *to;
                        if (t < 0 || (size_t)t >= json_array_size(deps) ||
                            (to = dep_key(sb, deps, (size_t)t, eco, keys)) == NULL || to == from)
                                continue;
                        if (sb->nedges == sb->capedges) {
                                size_t cap = sb->capedges ? 2 * sb->capedges : 4096;
                                struct edge *e = realloc(sb->edges, cap * sizeof(*e));
                                if (e == NULL)
                                        return prc_err_oom(err, "the SBOM's edges");
                                sb->edges = e;
                                sb->capedges = cap;
                        }
                        sb->edges[sb->nedges++] = (struct edge){ from, to };
                }
        }
        return true;
}

/* The directory part of path ("" at the root), as an object key. */
static void dir_of(const char *path, char *out, size_t cap)
{
        const char *slash = strrchr(path, '/');

        snprintf(out, cap, "%.*s", slash != NULL ? (int)(slash - path) : 0, path);
}

/*
 * A go.mod whose go directive is 1.17 or later lists every module the
 * build needs (module graph pruning): remember what it requires, by
 * directory, for the go.sum beside it.
 */
static bool note_gomod(struct sbom *sb, const json_t *md, size_t order, prc_err *err)
{
        const char *go = json_string_value(json_object_get(json_object_get(md, "details"), "go"));
        char dir[4097];
        json_t *set, *dep;
        size_t i;
        long major, minor = 0;
        char *end;

        dir_of(json_string_value(json_object_get(md, "path")), dir, sizeof(dir));
        if (json_object_set_new(sb->gomods_seen, dir, json_integer((json_int_t)order)) != 0)
                return prc_err_oom(err, "the SBOM");
        if (go == NULL)
                return true;
        major = strtol(go, &end, 10);
        if (*end == '.')
                minor = strtol(end + 1, NULL, 10);
        if (major < 1 || (major == 1 && minor < 17))
                return true;
        set = json_object();
        if (set == NULL || json_object_set_new(sb->gomods, dir, set) != 0)
                return prc_err_oom(err, "the SBOM");
        json_array_foreach(json_object_get(md, "dependencies"), i, dep)
                if (json_is_string(json_object_get(dep, "purl")) &&
                    json_object_set_new(set, json_string_value(json_object_get(dep, "purl")), json_true()) != 0)
                        return prc_err_oom(err, "the SBOM");
        return true;
}

static void lower_id(const char *s, char *out, size_t cap)
{
        size_t i = 0;

        for (; s != NULL && s[i] != '\0' && i + 1 < cap; i++)
                out[i] = (char)tolower((unsigned char)s[i]);
        out[i] = 0;
}

/* Fold md, whose place in inventory order is place (add_dep). */
static bool fold_doc(struct sbom *sb, const json_t *md, size_t place, prc_err *err)
{
        const json_t *deps = json_object_get(md, "dependencies"), *dep, *only = NULL;
        bool go_sum = strcmp(json_string_value(json_object_get(md, "format")), "go-sum") == 0;
        char dir[4097];
        const char **keys;
        json_t *path, *eco;
        size_t j;
        bool ok;

        bool central = strcmp(json_string_value(json_object_get(md, "format")), "nuget-central-packages") == 0;

        if (go_sum) {
                dir_of(json_string_value(json_object_get(md, "path")), dir, sizeof(dir));
                only = json_object_get(sb->gomods, dir);
        }
        /* path and ecosystem outlive md: copied once, shared by every component of this document. */
        path = str_copy(json_object_get(md, "path"));
        eco = str_copy(json_object_get(md, "ecosystem"));
        /* Each dependency's component key, for its edges: found once. */
        keys = calloc(json_array_size(deps) + 1, sizeof(*keys));
        if (keys == NULL || path == NULL || eco == NULL) {
                free(keys);
                json_decref(path);
                json_decref(eco);
                return prc_err_oom(err, "the SBOM");
        }
        json_array_foreach(deps, j, dep) {
                /* go.sum hashes only the go.mod of a module version read for version selection: not built. */
                if (go_sum && json_is_string(json_object_get(dep, "group")) &&
                    strcmp(json_string_value(json_object_get(dep, "group")), "go.mod") == 0)
                        continue;
                /* a central pin (PackageVersion) is a dependency only where a project references the package */
                if (central && json_is_string(json_object_get(dep, "group")) &&
                    strcmp(json_string_value(json_object_get(dep, "group")), "central") == 0) {
                        char id[4097];
                        lower_id(json_string_value(json_object_get(dep, "name")), id, sizeof(id));
                        if (json_object_get(sb->nuget_refs, id) == NULL)
                                continue;
                }
                /* beside a pruned go.mod, a module it does not require is not in the build */
                if (only != NULL && (!json_is_string(json_object_get(dep, "purl")) ||
                                     json_object_get(only, json_string_value(json_object_get(dep, "purl"))) == NULL))
                        continue;
                if (!add_dep(sb->comps, dep, path, eco, place, &keys[j], err))
                        break;
        }
        ok = j == json_array_size(deps) && doc_edges(sb, deps, json_string_value(eco), keys, err);
        free(keys);
        json_decref(path);
        json_decref(eco);
        return ok;
}

/* Hold md (a new reference) with its order, to be folded later. */
static bool hold(struct sbom *sb, const json_t *md, size_t order, prc_err *err)
{
        return json_array_append_new(sb->gosums, json_pack("[O,I]", md, (json_int_t)order)) == 0 ||
               prc_err_oom(err, "the SBOM");
}

/*
 * A go.sum's place, its directory's go.mod at order gomod: its own when
 * that go.mod comes before it in inventory order (in order it is then
 * folded as it comes), else after every document (in order it was held to
 * the end).
 */
static size_t gosum_place(json_int_t gomod, size_t order)
{
        return gomod >= 0 && (size_t)gomod < order ? order : PLACE_DEFERRED + order;
}

/* The go.sums held for dir's go.mod (at order gomod), folded now it has come. */
static bool fold_held_gosums(struct sbom *sb, const char *dir, json_int_t gomod, prc_err *err)
{
        char d[4097];

        for (size_t i = 0; i < json_array_size(sb->gosums);) {
                const json_t *h = json_array_get(sb->gosums, i), *md = json_array_get(h, 0);

                dir_of(json_string_value(json_object_get(md, "path")), d, sizeof(d));
                if (strcmp(json_string_value(json_object_get(md, "format")), "go-sum") != 0 || strcmp(d, dir) != 0) {
                        i++;
                        continue;
                }
                if (!fold_doc(sb, md, gosum_place(gomod, (size_t)json_integer_value(json_array_get(h, 1))), err))
                        return false;
                json_array_remove(sb->gosums, i);
        }
        return true;
}

/*
 * Fold one document (scan.h extraction_each), in whatever order they come:
 * order is its place in inventory order.
 */
static bool sbom_fold(void *ctx, const json_t *md, size_t order, prc_err *err)
{
        struct sbom *sb = ctx;
        const char *fmt = json_string_value(json_object_get(md, "format"));
        char dir[4097];

        /*
         * A go.sum is folded with what its directory's go.mod requires: one
         * whose go.mod has not come yet waits for it, or for the end when
         * there is none.
         */
        if (strcmp(fmt, "go-sum") == 0) {
                const json_t *gomod;

                dir_of(json_string_value(json_object_get(md, "path")), dir, sizeof(dir));
                gomod = json_object_get(sb->gomods_seen, dir);
                if (gomod == NULL)
                        return hold(sb, md, order, err);
                return fold_doc(sb, md, gosum_place(json_integer_value(gomod), order), err);
        }
        if (strcmp(fmt, "go-mod") == 0) {
                dir_of(json_string_value(json_object_get(md, "path")), dir, sizeof(dir));
                return note_gomod(sb, md, order, err) && fold_doc(sb, md, order, err) &&
                       fold_held_gosums(sb, dir, (json_int_t)order, err);
        }
        /* Directory.Packages.props waits for every project: which of its pins are referenced is known only then. */
        if (strcmp(fmt, "nuget-central-packages") == 0)
                return hold(sb, md, order, err);
        if (strcmp(fmt, "nuget-msbuild-project") == 0) {
                const json_t *dep;
                size_t i;
                json_array_foreach(json_object_get(md, "dependencies"), i, dep) {
                        char id[4097];
                        lower_id(json_string_value(json_object_get(dep, "name")), id, sizeof(id));
                        if (json_object_set_new(sb->nuget_refs, id, json_true()) != 0)
                                return prc_err_oom(err, "the SBOM");
                }
        }
        return fold_doc(sb, md, order, err);
}

/*
 * The documents held back by sbom_fold to the end (a go.sum without a
 * go.mod, Directory.Packages.props): after every other document, as when
 * the documents come in inventory order.
 */
static bool sbom_fold_gosums(struct sbom *sb, prc_err *err)
{
        const json_t *h;
        size_t i;

        json_array_foreach(sb->gosums, i, h)
                if (!fold_doc(sb, json_array_get(h, 0), PLACE_DEFERRED + (size_t)json_integer_value(json_array_get(h, 1)),
                              err))
                        return false;
        json_array_clear(sb->gosums);
        return true;
}

static int str_cmp(const void *a, const void *b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A member of an object: its key (the object's own storage) and value. */
struct member {
        const char   *key;
        const json_t *val;
};

static int member_cmp(const void *a, const void *b)
{
        return strcmp(((const struct member *)a)->key, ((const struct member *)b)->key);
}

/* The members of an object, sorted by key (jansson keeps insertion order): no key is looked up again. */
static struct member *sorted_members(const json_t *o, size_t *n)
{
        struct member *v = calloc(json_object_size(o) + 1, sizeof(*v));
        const char *k;
        json_t *val;
        size_t i = 0;

        if (v == NULL)
                return NULL;
        json_object_foreach((json_t *)o, k, val)
                v[i++] = (struct member){ k, val };
        qsort(v, i, sizeof(*v), member_cmp);
        *n = i;
        return v;
}

/* The strings of a list, sorted, each once (NULL list: none). */
static const char **sorted_unique(const json_t *a, size_t *n)
{
        const char **v = calloc(json_array_size(a) + 1, sizeof(*v));
        const json_t *s;
        size_t i, m = 0;

        if (v == NULL)
                return NULL;
        json_array_foreach(a, i, s)
                v[i] = json_string_value(s);
        qsort(v, json_array_size(a), sizeof(*v), str_cmp);
        for (i = 0; i < json_array_size(a); i++)
                if (m == 0 || strcmp(v[m - 1], v[i]) != 0)
                        v[m++] = v[i];
        *n = m;
        return v;
}

/*
 * An edge by its components' places in the sorted component list: the
 * keys are unique, so (from, to) in these ranks is (from, to) by strcmp,
 * and 24,000 edges sort on integers, not strings.
 */
struct redge {
        size_t from, to;
        const struct edge *e;
};

static int redge_cmp(const void *a, const void *b)
{
        const struct redge *x = a, *y = b;

        if (x->from != y->from)
                return x->from < y->from ? -1 : 1;
        return x->to < y->to ? -1 : x->to > y->to;
}

/* A component key (its storage, as in struct edge) and its rank. */
struct krank {
        const char *key;
        size_t      rank;
};

static int krank_cmp(const void *a, const void *b)
{
        uintptr_t x = (uintptr_t)((const struct krank *)a)->key, y = (uintptr_t)((const struct krank *)b)->key;

        return x < y ? -1 : x > y;
}

/* The rank of key, by its storage's address in kr[0..n) (sorted so); every edge's key is there. */
static size_t rank_of(const struct krank *kr, size_t n, const char *key)
{
        struct krank k = { key, 0 };
        const struct krank *hit = bsearch(&k, kr, n, sizeof(*kr), krank_cmp);

        return hit != NULL ? hit->rank : SIZE_MAX;
}

/* The edges in (from, to) order with duplicates (several lockfiles stating one edge) folded; NULL: out of memory. */
static struct redge *sorted_edges(const struct sbom *sb, const struct member *v, size_t n, size_t *m)
{
        struct krank *kr = calloc(n + 1, sizeof(*kr));
        struct redge *re = calloc(sb->nedges + 1, sizeof(*re));
        size_t k = 0;

        if (kr == NULL || re == NULL) {
                free(kr);
                free(re);
                return NULL;
        }
        for (size_t i = 0; i < n; i++)
                kr[i] = (struct krank){ v[i].key, i };
        qsort(kr, n, sizeof(*kr), krank_cmp);
        for (size_t i = 0; i < sb->nedges; i++)
                re[i] = (struct redge){ rank_of(kr, n, sb->edges[i].from), rank_of(kr, n, sb->edges[i].to),
                                        &sb->edges[i] };
        free(kr);
        if (sb->nedges > 0)
                qsort(re, sb->nedges, sizeof(*re), redge_cmp);
        for (size_t i = 0; i < sb->nedges; i++)
                if (k == 0 || redge_cmp(&re[k - 1], &re[i]) != 0)
                        re[k++] = re[i];
        *m = k;
        return re;
}

/* ",": between array members. */
static bool sep(prc_buf *b, size_t i, prc_err *err)
{
        return i == 0 || prc_buf_putc(b, ',', err);
}

/* A C string as canonical JSON (prc_jcs_write_string: what prc_jcs_write makes of the same string). */
static bool put_str(prc_buf *b, const char *s, prc_err *err)
{
        return prc_jcs_write_string(s, strlen(s), b, err);
}

/* {"name":NAME,"value":VALUE}: one CycloneDX property. */
static bool put_prop(prc_buf *b, const char *name, const char *value, prc_err *err)
{
        return prc_buf_puts(b, "{\"name\":", err) && put_str(b, name, err) && prc_buf_puts(b, ",\"value\":", err) &&
               put_str(b, value, err) && prc_buf_putc(b, '}', err);
}

/* The sorted, deduplicated list of c, or NULL (out of memory, err set). */
static const char **list_of(const json_t *c, const char *list, size_t *n, prc_err *err)
{
        const char **v = sorted_unique(json_object_get(c, list), n);

        if (v == NULL)
                prc_err_oom(err, "the SBOM");
        return v;
}

/* "hashes":[{"alg","content"}...], from the "ALG hex" strings of v[0..n). */
static bool put_hashes(prc_buf *b, const char **v, size_t n, prc_err *err)
{
        bool ok = prc_buf_puts(b, ",\"hashes\":[", err);

        for (size_t i = 0; ok && i < n; i++) {
                const char *sp = strchr(v[i], ' ');
                ok = sep(b, i, err) && prc_buf_puts(b, "{\"alg\":", err) &&
                     prc_jcs_write_string(v[i], (size_t)(sp - v[i]), b, err) &&
                     prc_buf_puts(b, ",\"content\":", err) && put_str(b, sp + 1, err) && prc_buf_putc(b, '}', err);
        }
        return ok && prc_buf_putc(b, ']', err);
}

/* "properties":[ecosystem, integrity values not mapped to a hash, paths], each list sorted. */
static bool put_props(prc_buf *b, const json_t *c, const char *eco, prc_err *err)
{
        static const struct {
                const char *list, *name;
        } lists[] = { { "u", "prc:integrity" }, { "p", "prc:path" } };
        bool ok = prc_buf_puts(b, ",\"properties\":[", err) && put_prop(b, "prc:ecosystem", eco, err);

        for (size_t l = 0; ok && l < PRC_ARRAY_LEN(lists); l++) {
                size_t n = 0;
                const char **v = list_of(c, lists[l].list, &n, err);
                ok = v != NULL;
                for (size_t i = 0; ok && i < n; i++)
                        ok = prc_buf_putc(b, ',', err) && put_prop(b, lists[l].name, v[i], err);
                free(v);
        }
        return ok && prc_buf_putc(b, ']', err);
}

/*
 * One component as canonical JSON, written straight out (12,000 of them:
 * no tree is built per component).  The members in RFC 8785 order:
 * bom-ref, hashes (when any), name, properties, purl (when the ref is
 * one), scope, type, version (when known).
 */
static bool component_write(const char *ref, const json_t *c, prc_buf *b, prc_err *err)
{
        const char *eco = json_string_value(json_object_get(c, "e"));
        const json_t *name = json_object_get(c, "n"), *ver = json_object_get(c, "v");
        size_t n = 0;
        const char **v = list_of(c, "h", &n, err);
        bool ok = v != NULL && prc_buf_puts(b, "{\"bom-ref\":", err) && put_str(b, ref, err) &&
                  (n == 0 || put_hashes(b, v, n, err)) && prc_buf_puts(b, ",\"name\":", err) &&
                  prc_jcs_write_string(json_string_value(name), json_string_length(name), b, err) &&
                  put_props(b, c, eco, err) &&
                  (strncmp(ref, "pkg:", 4) != 0 || (prc_buf_puts(b, ",\"purl\":", err) && put_str(b, ref, err))) &&
                  prc_buf_puts(b, ",\"scope\":", err) &&
                  put_str(b, rank_name[json_integer_value(json_object_get(c, "r")) & RANK_MASK], err) &&
                  prc_buf_puts(b, strcmp(eco, "docker") == 0 ? ",\"type\":\"container\"" : ",\"type\":\"library\"",
                               err) &&
                  (ver == NULL || (prc_buf_puts(b, ",\"version\":", err) &&
                                   prc_jcs_write_string(json_string_value(ver), json_string_length(ver), b, err))) &&
                  prc_buf_putc(b, '}', err);

        free(v);
        return ok;
}

enum { SINK_CHUNK = 1 << 20 };

struct sink;
static bool sink_flush(struct sink *o, prc_buf *b, size_t chunk, prc_err *err);

/* One "dependencies" entry, {"dependsOn":[...],"ref":FROM}: from and the targets e[0..n) (sorted, unique). */
static bool write_edges(const struct redge *e, size_t n, prc_buf *b, prc_err *err)
{
        bool ok = prc_buf_puts(b, "{\"dependsOn\":[", err);

        for (size_t k = 0; ok && k < n; k++)
                ok = sep(b, k, err) && put_str(b, e[k].e->to, err);
        return ok && prc_buf_puts(b, "],\"ref\":", err) && put_str(b, e[0].e->from, err) && prc_buf_putc(b, '}', err);
}

/*
 * The components are written in slices by two lanes (lanes.h) and taken
 * in order here, each slice appended to the BOM and flushed to the sink:
 * both cores write, and at most WRITE_WINDOW slices (a few hundred KiB
 * each) wait, so the BOM is still never whole in memory.  (Emptying each
 * component in its lane once written, to spread the teardown, cost more
 * than it saved: two threads freeing in the one malloc arena contend.)
 */
enum { WRITE_SLICES = 32, WRITE_WINDOW = 4 };

struct wslices {
        const struct member *v;
        size_t               n, nslices;
        prc_buf             *b;
        struct sink         *o;
};

struct wslice {
        prc_buf b;
        prc_err err;
        bool    ok;
};

/* Slice job's components as canonical JSON, each after a comma but the very first (prc_lane_work_fn). */
static void slice_write(void *ctx, unsigned lane, size_t job, void *slot)
{
        const struct wslices *w = ctx;
        struct wslice *sl = slot;
        size_t lo = job * w->n / w->nslices, hi = (job + 1) * w->n / w->nslices;

        (void)lane;
        prc_buf_init(&sl->b, w->b->max);
        prc_err_init(&sl->err);
        sl->ok = true;
        for (size_t i = lo; sl->ok && i < hi; i++)
                sl->ok = sep(&sl->b, i, &sl->err) && component_write(w->v[i].key, w->v[i].val, &sl->b, &sl->err);
}

static void slice_drop(void *ctx, size_t job, void *slot)
{
        struct wslice *sl = slot;

        (void)ctx;
        (void)job;
        prc_buf_clear(&sl->b);
}

/*
 * Empty each written component (its members; the key, which the edges
 * name, and an empty object stay for sbom_free).  Only the values are
 * touched, never comps itself, so the edges may be written meanwhile.
 */
static void *sbom_empty_bg(void *arg)
{
        struct sbom *sb = arg;

        for (size_t i = 0; i < sb->nmembers; i++)
                json_object_clear((json_t *)sb->members[i].val);
        return NULL;
}

/* The slice after the ones before it (prc_lane_done_fn). */
static bool slice_done(void *ctx, size_t job, void *slot, prc_err *err)
{
        const struct wslices *w = ctx;
        struct wslice *sl = slot;
        bool ok = sl->ok;

        if (!ok)
                *err = sl->err;
        ok = ok && prc_buf_put(w->b, sl->b.data, sl->b.len, err) && sink_flush(w->o, w->b, SINK_CHUNK, err);
        slice_drop(ctx, job, slot);
        return ok;
}

/*
 * The BOM as canonical JSON, written a slice of components at a time (the
 * whole BOM is never one tree): the members in RFC 8785 order (bomFormat,
 * components, dependencies, metadata, specVersion, version), each component
 * and edge list canonical on its own, so the bytes are those of the whole
 * tree.
 */
static bool sbom_write(struct sbom *sb, prc_buf *b, struct sink *o, prc_err *err)
{
        struct member *v = NULL;
        struct redge *re = NULL;
        json_t *meta = NULL;
        struct wslices w = { .b = b, .o = o };
        prc_lanes_spec sp = { .nlanes = 2, .window = WRITE_WINDOW, .slot_size = sizeof(struct wslice),
                              .work = slice_write, .done = slice_done, .drop = slice_drop, .ctx = &w };
        size_t i, n, m = 0, rows = 0;
        bool ok = false;

        if (!prc_buf_puts(b, "{\"bomFormat\":\"CycloneDX\",\"components\":[", err))
                return false;
        if ((v = sorted_members(sb->comps, &n)) == NULL)
                goto oom;
        w.v = v;
        w.n = n;
        w.nslices = n < WRITE_SLICES ? 1 : WRITE_SLICES;
        if (n > 0 && !prc_lanes_run(&sp, w.nslices, err))
                goto out;
        /* Written: the components' members go on a thread of their own while the edges are written. */
        sb->members = v;
        sb->nmembers = n;
        v = NULL;
        bg_run(&sb->emptier, sbom_empty_bg, sb);
        if ((re = sorted_edges(sb, sb->members, n, &m)) == NULL)
                goto oom;
        if (!prc_buf_puts(b, "],\"dependencies\":[", err))
                goto out;
        for (i = 0; i < m; i = n) {
                for (n = i + 1; n < m && re[n].from == re[i].from; n++)
                        ;
                if (!sep(b, rows++, err) || !write_edges(re + i, n - i, b, err) ||
                    !sink_flush(o, b, SINK_CHUNK, err))
                        goto out;
        }
        meta = json_pack("{s:{s:[{s:s,s:s,s:s}]}}", "tools", "components", "type", "application", "name", "prc",
                         "version", PRC_VERSION);
        ok = meta != NULL && prc_buf_puts(b, "],\"metadata\":", err) && prc_jcs_write(meta, b, err) &&
             prc_buf_puts(b, ",\"specVersion\":\"1.6\",\"version\":1}\n", err);
        if (meta == NULL)
                goto oom;
        goto out;
oom:
        if (!prc_err_is_set(err))
                prc_err_oom(err, "the SBOM");
out:
        free(v);
        free(re);
        json_decref(meta);
        return ok;
}

/*
 * Where the BOM goes.  --output FILE: a temporary in FILE's directory,
 * written in pieces as the BOM is made (so the BOM is never whole in
 * memory), then fsync and a rename over FILE: readers see the old file or
 * the new, and a failure leaves no partial file.  Standard output: the BOM
 * is written only once it is whole.
 */
struct sink {
        int  dirfd, fd;
        char tmp[512];
        const char *name;
};

static bool sink_open(struct sink *o, const char *file, prc_err *err)
{
        const char *slash = strrchr(file, '/');
        char dir[4097];

        if (slash != NULL && (size_t)(slash - file) + 1 > sizeof(dir))
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "%s: path too long", file);
        snprintf(dir, sizeof(dir), "%.*s", slash == NULL ? 1 : slash == file ? 1 : (int)(slash - file),
                 slash == NULL ? "." : file);
        o->name = slash ? slash + 1 : file;
        if (snprintf(o->tmp, sizeof(o->tmp), ".%s.tmp.%ld", o->name, (long)getpid()) >= (int)sizeof(o->tmp))
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "%s: file name too long", file);
        o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (o->dirfd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open the directory of '%s'", file);
        (void)unlinkat(o->dirfd, o->tmp, 0);    /* a temporary a killed run of the same pid left */
        o->fd = prc_fd_replace_begin(o->dirfd, o->tmp, err);
        if (o->fd < 0) {
                close(o->dirfd);
                o->dirfd = -1;
                return false;
        }
        return true;
}

/* Write out what b holds once it passes chunk (0: all of it) and empty b; nothing without a file. */
static bool sink_flush(struct sink *o, prc_buf *b, size_t chunk, prc_err *err)
{
        if (o == NULL || o->fd < 0 || b->len < chunk || b->len == 0)
                return true;
        if (!prc_fd_write_all(o->fd, b->data, b->len, err))
                return false;
        prc_buf_reset(b);
        return true;
}

static bool sink_commit(struct sink *o, prc_buf *b, prc_err *err)
{
        bool ok;

        if (!sink_flush(o, b, 0, err)) {
                prc_fd_replace_abort(o->dirfd, o->fd, o->tmp);
                ok = false;
        } else {
                ok = prc_fd_replace_commit(o->dirfd, o->fd, o->tmp, o->name, true, err);
        }
        o->fd = -1;
        close(o->dirfd);
        o->dirfd = -1;
        return ok;
}

static void sink_abort(struct sink *o)
{
        if (o->fd >= 0)
                prc_fd_replace_abort(o->dirfd, o->fd, o->tmp);
        if (o->dirfd >= 0)
                close(o->dirfd);
        o->fd = o->dirfd = -1;
}

static void *client_free_bg(void *c)
{
        prc_client_free(c);
        return NULL;
}

static void sbom_free(struct sbom *sb)
{
        bg_wait(&sb->emptier);
        free(sb->members);
        json_decref(sb->nuget_refs);
        json_decref(sb->gomods_seen);
        json_decref(sb->comps);
        json_decref(sb->gomods);
        json_decref(sb->gosums);
        free(sb->edges);
        *sb = (struct sbom){ 0 };
}

static void *sbom_free_bg(void *sb)
{
        sbom_free(sb);
        return NULL;
}

int cmd_sbom(int argc, char **argv)
{
        static const struct option opts[] = {
                { "target", required_argument, NULL, 't' },
                { "output", required_argument, NULL, 'o' },
                { NULL, 0, NULL, 0 },
        };
        const char *what = "sbom", *output = NULL;
        prc_scan_opts so = { .mode = PRC_MODE_INSPECT };
        struct cli_parse_ctx pc = { 0 }, pc2 = { 0 };
        prc_client_opts copts;
        json_t *ex = NULL, *res = NULL, *g;
        struct sbom sb = { .comps = json_object(), .gomods = json_object(), .gosums = json_array(),
                           .gomods_seen = json_object(), .nuget_refs = json_object() };
        struct sink sink = { .dirfd = -1, .fd = -1 };
        struct bg bg_w1 = { 0 }, bg_w2 = { 0 }, bg_sb = { 0 };
        prc_buf b;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC, scan_rc = 0;
        size_t i;
        bool ok;

        prc_err_init(&err);
        prc_buf_init(&b, (size_t)1 << 31);
        opterr = 0;
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 't': so.target = optarg; break;
                case 'o': output = optarg; break;
                default: return cli_usage(what, "bad option");
                }
        }
        if (optind != argc)
                return cli_usage(what, "unexpected argument '%s'", argv[optind]);
        if (so.target == NULL)
                return cli_usage(what, "--target DIR is required");
        if (output != NULL && (output[0] == '\0' || output[strlen(output) - 1] == '/'))
                return cli_usage(what, "--output takes a file name");
        if (sb.comps == NULL || sb.gomods == NULL || sb.gosums == NULL || sb.gomods_seen == NULL ||
            sb.nuget_refs == NULL) {
                json_decref(sb.nuget_refs);
                json_decref(sb.gomods_seen);
                json_decref(sb.comps);
                json_decref(sb.gomods);
                json_decref(sb.gosums);
                prc_err_oom(&err, "the SBOM");
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        /*
         * One malloc arena for both lanes: a document is made in a lane and
         * freed here, and a second arena would hold its own free memory (a
         * quarter more peak RSS, measured) for no gain.
         */
        (void)mallopt(M_ARENA_MAX, 1);
        /*
         * No fastbins: every document is a burst of small blocks freed at
         * once, and with fastbins each large free then walked them all back
         * together (malloc_consolidate, a sixth of the parent's time in
         * perf); tcache still serves the small sizes.  About a tenth less
         * CPU in all, measured side by side (docs/extraction/peers.md).
         */
        (void)mallopt(M_MXFAST, 0);
        cli_client_opts(&copts);
        copts.cache_max = 0;    /* every file is extracted once: a reply cache would only hold memory */
        pc.client = prc_client_new(&copts, &err);
        /* A second worker, so two manifests are extracted at once (scan.h lane_ctx): the SBOM is the same. */
        pc2.client = pc.client != NULL ? prc_client_new(&copts, &err) : NULL;
        if (pc2.client == NULL) {
                prc_client_free(pc.client);
                json_decref(sb.nuget_refs);
                json_decref(sb.gomods_seen);
                json_decref(sb.comps);
                json_decref(sb.gomods);
                json_decref(sb.gosums);
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        /* Both workers come up while the target is inventoried. */
        cli_parse_prestart(&pc);
        cli_parse_prestart(&pc2);
        so.parse = cli_scan_parse;
        so.extract = cli_scan_extract;
        so.parse_extract = cli_scan_parse_extract;
        so.content_floor = cli_scan_floor;
        so.parse_ctx = &pc;
        so.lane_ctx = &pc2;
        so.extraction_out = &ex;
        so.extraction_each = sbom_fold;
        so.extraction_ctx = &sb;
        ok = prc_scan_run(&so, &res, &scan_rc, &err);
        cli_parse_ready(&pc);   /* a tree without manifests never asked */
        cli_parse_ready(&pc2);
        /* Every manifest is extracted: the workers go while the BOM is written. */
        bg_run(&bg_w1, client_free_bg, pc.client);
        bg_run(&bg_w2, client_free_bg, pc2.client);
        pc.client = pc2.client = NULL;
        if (!ok || !sbom_fold_gosums(&sb, &err) || (output != NULL && !sink_open(&sink, output, &err)) ||
            !sbom_write(&sb, &b, output != NULL ? &sink : NULL, &err)) {
                sink_abort(&sink);
                cli_print_err(&err);
                rc = cli_exit_for(&err) == PRC_EXIT_USAGE ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
                goto out;
        }
        /* Written: the components' trees go while the BOM is committed and the gaps are listed. */
        bg_run(&bg_sb, sbom_free_bg, &sb);
        if (output != NULL ? !sink_commit(&sink, &b, &err)
                           : fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
                if (!prc_err_is_set(&err))
                        prc_err_set(&err, PRC_E_IO, "cannot write to standard output");
                cli_print_err(&err);
                goto out;
        }
        /* An SBOM with a manifest missing must not look complete: every gap is named and the exit says so. */
        rc = 0;
        json_array_foreach(json_object_get(ex, "coverage_gaps"), i, g) {
                fprintf(stderr, "prc sbom: coverage gap: %s: %s: %s\n", json_string_value(json_object_get(g, "path")),
                        json_string_value(json_object_get(g, "class")),
                        json_string_value(json_object_get(g, "reason")));
                rc = 1;
        }
        if (rc != 0)
                fprintf(stderr, "prc sbom: the SBOM is incomplete: %zu coverage gap(s) above\n",
                        json_array_size(json_object_get(ex, "coverage_gaps")));
out:
        bg_wait(&bg_sb);
        sbom_free(&sb);         /* nothing left when the thread had it */
        json_decref(res);
        json_decref(ex);
        prc_buf_clear(&b);
        bg_wait(&bg_w2);
        bg_wait(&bg_w1);
        prc_client_free(pc2.client);    /* NULL once handed to a thread */
        prc_client_free(pc.client);
        return rc;
}
