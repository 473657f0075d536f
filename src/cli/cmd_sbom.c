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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/tune.h"
#include "base/xxh64.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"
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

/*
 * The component key (and bom-ref): the purl itself, else
 * prc:ECOSYSTEM/NAME[@VERSION] made in out (no registry purl exists).
 * NULL when it would take cap bytes or more.
 */
static const char *ref_of(const char *purl, const char *name, const char *ver, const char *eco, char *out,
                          size_t cap)
{
        int n;

        if (purl != NULL)
                return strlen(purl) < cap ? purl : NULL;
        n = snprintf(out, cap, "prc:%s/%s%s%s", eco, name ? name : "", ver ? "@" : "", ver ? ver : "");
        return n >= 0 && (size_t)n < cap ? out : NULL;
}

/* ref_of dependency i of a document. */
static const char *dep_ref(const prc_mdp *m, size_t i, const char *eco, char *out, size_t cap)
{
        return ref_of(prc_mdp_str(m, i, PRC_MDP_PURL), prc_mdp_str(m, i, PRC_MDP_NAME),
                      prc_mdp_str(m, i, PRC_MDP_RESOLVED), eco, out, cap);
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

/* An edge between two components, by their keys in comps (stable for its life). */
struct edge {
        const char *from, *to;
};

/* A component's lists, deduplicated when written. */
enum { L_PATH, L_HASH, L_INTEG, L_N };

/*
 * One such list: shared jansson strings, the first in place and the rest
 * in an array.  Most lists hold one string, and a jansson array for it
 * was two more heap blocks a list (about 2.6 MB of the parent's peak for
 * the corpus's 20,000 lists, DHAT).
 */
struct slist {
        json_t  *one;           /* the first (a reference), or NULL: none yet */
        json_t **more;          /* owned: the others (references), nmore of them */
        uint32_t nmore, cap;
};

/*
 * A component, kept small (a tree of 12,000 is gathered whole before any
 * is written): a struct, not a jansson object, so no member is looked up
 * by name, made or freed one at a time.  The strings are shared jansson
 * strings (an ecosystem's by every component of its document).
 */
struct comp {
        json_t *name;           /* "" when the dependency has none */
        json_t *ver;            /* or NULL */
        json_t *eco;
        struct slist list[L_N]; /* paths, "ALG hex", "alg-value" not mapped */
        int     rank;           /* scope_rank, the strongest of the dependencies naming it */
        size_t  first;          /* the first place (PLACE_DEFERRED) of the documents naming it */
};

/*
 * A component's key (its bom-ref) with its index in cv.  Edges hold the
 * text; the index is found from the text's address (CKEY_OF), never by a
 * second lookup.
 */
struct ckey {
        size_t ix;
        char   text[];
};
#define CKEY_OF(t) ((const struct ckey *)(const void *)((t) - offsetof(struct ckey, text)))

/*
 * The components by key (hashed with XXH64): open addressing with linear
 * probing, at most half full.  A jansson object before (session 14): its bucket walks were
 * a tenth of the main thread, cache misses on 12,000 scattered pairs.
 */
struct cslot {
        uint64_t     h;
        struct ckey *k;         /* NULL: empty */
};
struct cmap {
        struct cslot *slots;
        size_t        cap, n;   /* cap: a power of two, or 0 */
};

/* The slot of key s (n bytes, hash h): its own, or the empty one where it would go. */
static struct cslot *cmap_slot(const struct cmap *m, const char *s, size_t n, uint64_t h)
{
        for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
                struct cslot *sl = &m->slots[i];
                if (sl->k == NULL || (sl->h == h && strncmp(sl->k->text, s, n) == 0 && sl->k->text[n] == '\0'))
                        return sl;
        }
}

static bool cmap_grow(struct cmap *m)
{
        size_t cap = m->cap != 0 ? 2 * m->cap : 1024;
        struct cmap g = { calloc(cap, sizeof(*g.slots)), cap, m->n };

        if (g.slots == NULL)
                return false;
        for (size_t i = 0; i < m->cap; i++) {
                struct cslot *sl = &m->slots[i], *to;
                if (sl->k == NULL)
                        continue;
                for (to = &g.slots[sl->h & (cap - 1)]; to->k != NULL;
                     to = &g.slots[((size_t)(to - g.slots) + 1) & (cap - 1)])
                        ;
                *to = *sl;
        }
        free(m->slots);
        *m = g;
        return true;
}

/* The key equal to s, or NULL. */
static const struct ckey *cmap_find(const struct cmap *m, const char *s)
{
        size_t n = strlen(s);

        return m->cap != 0 ? cmap_slot(m, s, n, prc_xxh64_once(s, n))->k : NULL;
}

/* The key equal to s, added with index ix when there is none (*added); NULL: out of memory. */
static const struct ckey *cmap_put(struct cmap *m, const char *s, size_t ix, bool *added)
{
        size_t n = strlen(s);
        uint64_t h = prc_xxh64_once(s, n);
        struct cslot *sl;
        struct ckey *k;

        *added = false;
        if (2 * (m->n + 1) > m->cap && !cmap_grow(m))
                return NULL;
        sl = cmap_slot(m, s, n, h);
        if (sl->k != NULL)
                return sl->k;
        k = malloc(sizeof(*k) + n + 1);
        if (k == NULL)
                return NULL;
        k->ix = ix;
        memcpy(k->text, s, n + 1);
        *sl = (struct cslot){ h, k };
        m->n++;
        *added = true;
        return k;
}

static void cmap_free(struct cmap *m)
{
        for (size_t i = 0; i < m->cap; i++)
                free(m->slots[i].k);
        free(m->slots);
        *m = (struct cmap){ 0 };
}

/*
 * The BOM being gathered, one ManifestDoc at a time as the scan extracts
 * them (none is kept).  A component's bom-ref (and purl, when it is one)
 * is its key in comps, with its index in cv; its lists are
 * sorted and deduplicated when written.  The documents come in the order
 * the scan's trips finish, so nothing may depend on that order: the lists
 * are sets, the rank is the strongest, the edges are sorted, and the name,
 * ecosystem and version are those of the first document in inventory order
 * that names the component (add_dep), as when the documents came in that
 * order.
 */
struct sbom {
        struct cmap  comps;
        struct comp *cv;
        size_t       ncomps, capcomps;
        struct edge *edges;
        size_t       nedges, capedges;
        json_t      *gomods;    /* directory -> {purl: true} of a go.mod of go 1.17 or later */
        json_t      *gomods_seen;       /* directory -> true: a go.mod was folded there */
        json_t      *gosums;    /* [document, order] held back: a go.sum before its go.mod, Directory.Packages.props */
        json_t      *nuget_refs;        /* lower-cased package ids the tree's MSBuild projects reference */
        struct member *members; /* owned once written: the components, sorted */
        size_t       nmembers;
        struct bg    emptier;   /* empties the written components while the edges are written (sbom_write) */
};

static size_t slist_size(const struct slist *l)
{
        return l->one == NULL ? 0 : 1 + (size_t)l->nmore;
}

static const json_t *slist_get(const struct slist *l, size_t i)
{
        return i == 0 ? l->one : l->more[i - 1];
}

static void slist_clear(struct slist *l)
{
        json_decref(l->one);
        for (uint32_t i = 0; i < l->nmore; i++)
                json_decref(l->more[i]);
        free(l->more);
        *l = (struct slist){ 0 };
}

/* s appended to the list a (shared, not copied); skipped when it is the last one already. */
static bool list_add(struct slist *a, json_t *s, prc_err *err)
{
        size_t n = slist_size(a);

        if (n > 0 && slist_get(a, n - 1) == s)
                return true;
        if (a->one == NULL) {
                a->one = json_incref(s);
                return true;
        }
        if (a->nmore == a->cap) {
                uint32_t cap = a->cap != 0 ? 2 * a->cap : 3;
                json_t **m = a->cap < UINT32_MAX / 2 ? realloc(a->more, cap * sizeof(*m)) : NULL;
                if (m == NULL)
                        return prc_err_oom(err, "the SBOM");
                a->more = m;
                a->cap = cap;
        }
        a->more[a->nmore++] = json_incref(s);
        return true;
}

/*
 * text (len bytes) appended to the list *a; ascii: text is known to be
 * ASCII (no UTF-8 check: the hashes, 12,000 of them).
 */
static bool list_add_new(struct slist *a, const char *text, size_t len, bool ascii, prc_err *err)
{
        size_t n = slist_size(a);
        json_t *s;
        bool ok;

        /* The same hash as the last one (a package in several lockfiles): the write keeps each once anyway. */
        if (n > 0 && strcmp(json_string_value(slist_get(a, n - 1)), text) == 0)
                return true;
        s = ascii ? json_stringn_nocheck(text, len) : json_string(text);
        ok = s != NULL ? list_add(a, s, err) : prc_err_oom(err, "the SBOM");

        json_decref(s);
        return ok;
}

/*
 * a, sep and b into out (cap > 0 bytes), cut at cap - 1 and terminated, as
 * snprintf's "%s%s%s" would be; returns the length written.  snprintf was
 * a seventh of the fold's instructions (16,000 hashes on the corpus).
 */
static size_t join3(char *out, size_t cap, const char *a, const char *sep, const char *b)
{
        const char *part[3] = { a, sep, b };
        size_t len = 0;

        for (size_t i = 0; i < 3; i++) {
                size_t n = strlen(part[i]);
                if (n > cap - 1 - len)
                        n = cap - 1 - len;
                memcpy(out + len, part[i], n);
                len += n;
        }
        out[len] = '\0';
        return len;
}

/* A copy of string s (valid UTF-8 already: no check). */
static json_t *str_copy(const json_t *s)
{
        return json_stringn_nocheck(json_string_value(s), json_string_length(s));
}

/* c's strings and lists let go (twice is harmless). */
static void comp_clear(struct comp *c)
{
        json_decref(c->name);
        json_decref(c->ver);
        json_decref(c->eco);
        for (size_t l = 0; l < L_N; l++)
                slist_clear(&c->list[l]);
        *c = (struct comp){ 0 };
}

/* A component's first place: scan.h extraction_each's order, PLACE_DEFERRED and after for documents held to the end. */
#define PLACE_DEFERRED ((size_t)1 << 40)

/*
 * The name, ecosystem and version of c, from the dependency first naming
 * it.  Copies of the document's strings, not the strings themselves: the
 * document's nodes live in chunks that a node kept would keep whole
 * (prc_json_arena_begin).
 */
static bool comp_names(struct comp *c, const prc_mdp *m, size_t i, json_t *eco)
{
        const char *name = prc_mdp_str(m, i, PRC_MDP_NAME), *ver = prc_mdp_str(m, i, PRC_MDP_RESOLVED);
        json_t *n = json_stringn_nocheck(name, m->deps[i].len[PRC_MDP_NAME]);
        json_t *v = ver != NULL ? json_stringn_nocheck(ver, m->deps[i].len[PRC_MDP_RESOLVED]) : NULL;

        if (n == NULL || (ver != NULL && v == NULL)) {
                json_decref(n);
                json_decref(v);
                return false;
        }
        json_decref(c->name);
        json_decref(c->ver);
        json_decref(c->eco);
        c->name = n;
        c->ver = v;
        c->eco = json_incref(eco);
        return true;
}

/* A new component at the end of cv, first named at place, or NULL (out of memory). */
static struct comp *comp_new(struct sbom *sb, const prc_mdp *m, size_t i, json_t *eco, int rank, size_t place)
{
        struct comp *c;

        if (sb->ncomps == sb->capcomps) {
                size_t cap = sb->capcomps != 0 ? 2 * sb->capcomps : 1024;
                c = realloc(sb->cv, cap * sizeof(*c));
                if (c == NULL)
                        return NULL;
                sb->cv = c;
                sb->capcomps = cap;
        }
        c = &sb->cv[sb->ncomps];
        *c = (struct comp){ .rank = rank, .first = place };
        if (!comp_names(c, m, i, eco))
                return NULL;
        sb->ncomps++;
        return c;
}

/*
 * Fold one dependency of the document at place into the components; *key
 * is its component's key in comps.  A document before the one that named
 * the component first (in inventory order) names it anew: the first in
 * that order wins, whatever order the documents come in, and within one
 * document the first dependency.
 */
static bool add_dep(struct sbom *sb, const prc_mdp *m, size_t i, json_t *path, json_t *eco, size_t place,
                    const char **key, prc_err *err)
{
        char buf[REF_MAX];
        const prc_mdp_dep *dep = &m->deps[i];
        const struct ckey *k;
        const char *ref;
        struct comp *c;
        bool added;
        int rank = scope_rank(prc_md_scopes[dep->scope]);

        ref = dep_ref(m, i, json_string_value(eco), buf, sizeof(buf));
        if (ref == NULL)
                return prc_err_set(err, PRC_E_INTERNAL, "%s: a component reference above %d bytes",
                                   json_string_value(path), REF_MAX);
        k = cmap_put(&sb->comps, ref, sb->ncomps, &added);
        if (k == NULL)
                return prc_err_oom(err, "the SBOM");
        if (added) {
                /* Its index is the next place in cv; a component it holds is let go by sbom_free, with cv. */
                c = comp_new(sb, m, i, eco, rank, place);
                if (c == NULL)
                        return prc_err_oom(err, "the SBOM");
        } else {
                c = &sb->cv[k->ix];
                if (place < c->first) {
                        if (!comp_names(c, m, i, eco))
                                return prc_err_oom(err, "the SBOM");
                        c->first = place;
                }
                if (rank > c->rank)
                        c->rank = rank;
        }
        *key = k->text;
        if (!list_add(&c->list[L_PATH], path, err))
                return false;
        if (dep->integrity) {
                const char *alg = prc_mdp_str(m, i, PRC_MDP_INTEG_ALG);
                const char *val = prc_mdp_str(m, i, PRC_MDP_INTEG_VALUE);
                char hex[2 * 64 + 1], text[8300];
                size_t n;

                for (size_t h = 0; alg != NULL && val != NULL && h < PRC_ARRAY_LEN(hash_algs); h++) {
                        if (strcasecmp(alg, hash_algs[h].file) != 0 ||
                            !digest_hex(val, hash_algs[h].bytes, hex, sizeof(hex)))
                                continue;
                        n = join3(text, sizeof(text), hash_algs[h].cdx, " ", hex);
                        return list_add_new(&c->list[L_HASH], text, n, true, err);
                }
                /* Not a CycloneDX algorithm, or a value of the wrong length: kept as written, never dropped. */
                n = join3(text, sizeof(text), alg ? alg : "", "-", val ? val : "");
                return list_add_new(&c->list[L_INTEG], text, n, false, err);
        }
        return true;
}

/* The key of comps equal to ref (its storage lives as long as comps). */
static const char *comp_key(const struct cmap *comps, const char *ref)
{
        const struct ckey *k = cmap_find(comps, ref);

        return k != NULL ? k->text : NULL;
}

/* Sentinel of dep_key: the dependency's component was looked for and is not in comps. */
static const char no_comp[] = "";

/* The key in comps of dependency i's component, or NULL; keys[i] caches it (fold_doc fills it for what it added). */
static const char *dep_key(const struct sbom *sb, const prc_mdp *m, size_t i, const char *eco, const char **keys)
{
        char ref[REF_MAX];
        const char *k;

        if (keys[i] == NULL) {
                const char *r = dep_ref(m, i, eco, ref, sizeof(ref));

                k = r != NULL ? comp_key(&sb->comps, r) : NULL;
                keys[i] = k != NULL ? k : no_comp;
        }
        return keys[i] != no_comp ? keys[i] : NULL;
}

/* The edges a lockfile states: each dependency's depends_on, indexes into the same document's dependencies. */
static bool doc_edges(struct sbom *sb, const prc_mdp *m, const char *eco, const char **keys, prc_err *err)
{
        for (size_t i = 0; i < m->ndeps; i++) {
                const prc_mdp_dep *d = &m->deps[i];
                const char *from;

                if (d->edges_n == PRC_MDP_NULL || d->edges_n == 0 || (from = dep_key(sb, m, i, eco, keys)) == NULL)
                        continue;
                for (uint32_t k = 0; k < d->edges_n; k++) {
                        uint32_t t = m->edges[d->edges_off + k];
                        const char *to;
                        if (t >= m->ndeps || (to = dep_key(sb, m, t, eco, keys)) == NULL || to == from)
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
static bool note_gomod(struct sbom *sb, const json_t *md, const prc_mdp *m, size_t order, prc_err *err)
{
        const char *go = json_string_value(json_object_get(json_object_get(md, "details"), "go"));
        char dir[4097];
        json_t *set;
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
        for (size_t i = 0; i < m->ndeps; i++)
                if (prc_mdp_str(m, i, PRC_MDP_PURL) != NULL &&
                    json_object_set_new(set, prc_mdp_str(m, i, PRC_MDP_PURL), json_true()) != 0)
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

/*
 * md's dependency table: the client's packed mode (mdoc_pack.h) gives every
 * extraction one, made in this process from checked values.
 */
static bool table_of(const json_t *md, prc_mdp *m, prc_err *err)
{
        if (!prc_mdp_view(json_object_get(md, "dependencies"), m))
                return prc_err_set(err, PRC_E_INTERNAL, "%s: the dependencies are not a packed table",
                                   json_string_value(json_object_get(md, "path")));
        return true;
}

/* Fold md, whose place in inventory order is place (add_dep). */
static bool fold_doc(struct sbom *sb, const json_t *md, size_t place, prc_err *err)
{
        const json_t *only = NULL;
        bool go_sum = strcmp(json_string_value(json_object_get(md, "format")), "go-sum") == 0;
        char dir[4097];
        const char **keys;
        json_t *path, *eco;
        prc_mdp m;
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
        if (!table_of(md, &m, err))
                return false;
        /* Each dependency's component key, for its edges: found once. */
        keys = calloc(m.ndeps + 1, sizeof(*keys));
        if (keys == NULL || path == NULL || eco == NULL) {
                free(keys);
                json_decref(path);
                json_decref(eco);
                return prc_err_oom(err, "the SBOM");
        }
        for (j = 0; j < m.ndeps; j++) {
                const char *group = prc_mdp_str(&m, j, PRC_MDP_GROUP), *purl = prc_mdp_str(&m, j, PRC_MDP_PURL);
                /* go.sum hashes only the go.mod of a module version read for version selection: not built. */
                if (go_sum && group != NULL && strcmp(group, "go.mod") == 0)
                        continue;
                /* a central pin (PackageVersion) is a dependency only where a project references the package */
                if (central && group != NULL && strcmp(group, "central") == 0) {
                        char id[4097];
                        lower_id(prc_mdp_str(&m, j, PRC_MDP_NAME), id, sizeof(id));
                        if (json_object_get(sb->nuget_refs, id) == NULL)
                                continue;
                }
                /* beside a pruned go.mod, a module it does not require is not in the build */
                if (only != NULL && (purl == NULL || json_object_get(only, purl) == NULL))
                        continue;
                if (!add_dep(sb, &m, j, path, eco, place, &keys[j], err))
                        break;
        }
        ok = j == m.ndeps && doc_edges(sb, &m, json_string_value(eco), keys, err);
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
                prc_mdp m;
                dir_of(json_string_value(json_object_get(md, "path")), dir, sizeof(dir));
                return table_of(md, &m, err) && note_gomod(sb, md, &m, order, err) && fold_doc(sb, md, order, err) &&
                       fold_held_gosums(sb, dir, (json_int_t)order, err);
        }
        /* Directory.Packages.props waits for every project: which of its pins are referenced is known only then. */
        if (strcmp(fmt, "nuget-central-packages") == 0)
                return hold(sb, md, order, err);
        if (strcmp(fmt, "nuget-msbuild-project") == 0) {
                prc_mdp m;
                if (!table_of(md, &m, err))
                        return false;
                for (size_t i = 0; i < m.ndeps; i++) {
                        char id[4097];
                        lower_id(prc_mdp_str(&m, i, PRC_MDP_NAME), id, sizeof(id));
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

/* A component with its key (comps' own storage). */
struct member {
        const char        *key;
        const struct comp *c;
};

static int member_cmp(const void *a, const void *b)
{
        return strcmp(((const struct member *)a)->key, ((const struct member *)b)->key);
}

/* Half of the members, sorted on a thread of its own (sorted_members). */
struct half {
        struct member *v;
        size_t         n;
};

static void *half_sort(void *arg)
{
        struct half *h = arg;

        qsort(h->v, h->n, sizeof(*h->v), member_cmp);
        return NULL;
}

/* Halves below this many members are not worth a thread. */
enum { SORT_SPLIT = 2048 };

/*
 * The components, sorted by key (unique, so the order is the keys' alone):
 * no key is looked up again.  Two halves sorted at once and merged: the
 * sort is 4-6 ms of the run's tail, where the other core has little to do.
 */
static struct member *sorted_members(const struct sbom *sb, size_t *n)
{
        struct member *v = calloc(sb->comps.n + 1, sizeof(*v)), *out;
        struct half lo, hi;
        struct bg t = { 0 };
        size_t i = 0, a, b, k;

        if (v == NULL)
                return NULL;
        for (size_t s = 0; s < sb->comps.cap; s++)
                if (sb->comps.slots[s].k != NULL)
                        v[i++] = (struct member){ sb->comps.slots[s].k->text, &sb->cv[sb->comps.slots[s].k->ix] };
        *n = i;
        out = i >= 2 * SORT_SPLIT ? calloc(i + 1, sizeof(*out)) : NULL;
        if (out == NULL) {
                qsort(v, i, sizeof(*v), member_cmp);
                return v;
        }
        lo = (struct half){ v, i / 2 };
        hi = (struct half){ v + i / 2, i - i / 2 };
        bg_run(&t, half_sort, &hi);
        (void)half_sort(&lo);
        bg_wait(&t);
        for (a = 0, b = 0, k = 0; a < lo.n && b < hi.n; k++)
                out[k] = member_cmp(&lo.v[a], &hi.v[b]) < 0 ? lo.v[a++] : hi.v[b++];
        while (a < lo.n)
                out[k++] = lo.v[a++];
        while (b < hi.n)
                out[k++] = hi.v[b++];
        free(v);
        return out;
}

enum { LIST_SMALL = 8 };

/*
 * The strings of a list, sorted, each once (an empty list: none), in small
 * (LIST_SMALL places) when they fit, else in a new array.  Most lists hold
 * one string, and the paths come in the scan's order: a list already
 * ascending is not sorted again.
 */
static const char **sorted_unique(const struct slist *a, const char **small, size_t *n)
{
        size_t len = slist_size(a), i, m = 0;
        const char **v = len <= LIST_SMALL ? small : calloc(len, sizeof(*v));
        bool ascending = true;

        if (v == NULL)
                return NULL;
        for (i = 0; i < len; i++) {
                v[i] = json_string_value(slist_get(a, i));
                ascending = ascending && (i == 0 || strcmp(v[i - 1], v[i]) < 0);
        }
        if (ascending) {
                *n = len;
                return v;
        }
        qsort(v, len, sizeof(*v), str_cmp);
        for (i = 0; i < len; i++)
                if (m == 0 || strcmp(v[m - 1], v[i]) != 0)
                        v[m++] = v[i];
        *n = m;
        return v;
}

/*
 * An edge by its components' places in the sorted component list, from in
 * the high half, to in the low: the keys are unique, so (from, to) in these
 * ranks is (from, to) by strcmp, and 24,000 edges sort on integers, not
 * strings.
 */
#define EDGE_FROM(e) ((size_t)((e) >> 32))
#define EDGE_TO(e) ((size_t)((e) & 0xffffffffu))

/*
 * The rank of the component whose key (comps' own storage, as in struct
 * edge) is key: its index in cv is beside the text, and order maps that
 * to its rank.
 */
static size_t rank_of(const size_t *order, const char *key)
{
        return order[CKEY_OF(key)->ix];
}

/* in[0..e) into out, stably ordered by the rank at shift (ranks below n; count has n + 1 places). */
static void count_sort(const uint64_t *in, uint64_t *out, size_t e, size_t *count, size_t n, unsigned shift)
{
        memset(count, 0, (n + 1) * sizeof(*count));
        for (size_t i = 0; i < e; i++)
                count[((in[i] >> shift) & 0xffffffffu) + 1]++;
        for (size_t r = 1; r <= n; r++)
                count[r] += count[r - 1];
        for (size_t i = 0; i < e; i++)
                out[count[(in[i] >> shift) & 0xffffffffu]++] = in[i];
}

/*
 * The edges in (from, to) order with duplicates (several lockfiles stating
 * one edge) folded: by to and then, stably, by from, two counting sorts
 * over the ranks (no comparison sort).  NULL: out of memory.  Only comps and
 * the ranks are read, never a component (the emptier clears them meanwhile).
 */
static uint64_t *sorted_edges(const struct sbom *sb, const struct member *v, size_t n, size_t *m)
{
        size_t *order = calloc(sb->ncomps + 1, sizeof(*order)), *count = calloc(n + 1, sizeof(*count));
        uint64_t *re = calloc(sb->nedges + 1, sizeof(*re)), *tmp = calloc(sb->nedges + 1, sizeof(*tmp));
        size_t k = 0;

        /* A rank takes 32 bits: more components than that do not fit in memory anyway. */
        if (order == NULL || count == NULL || re == NULL || tmp == NULL || n > 0xffffffffu) {
                free(order);
                free(count);
                free(re);
                free(tmp);
                return NULL;
        }
        for (size_t i = 0; i < n; i++)
                order[v[i].c - sb->cv] = i;
        for (size_t i = 0; i < sb->nedges; i++)
                re[i] = (uint64_t)rank_of(order, sb->edges[i].from) << 32 | rank_of(order, sb->edges[i].to);
        count_sort(re, tmp, sb->nedges, count, n, 0);
        count_sort(tmp, re, sb->nedges, count, n, 32);
        free(order);
        free(count);
        free(tmp);
        for (size_t i = 0; i < sb->nedges; i++)
                if (k == 0 || re[k - 1] != re[i])
                        re[k++] = re[i];
        *m = k;
        return re;
}

/* A string literal appended (its length known here: no strlen per piece, 200,000 pieces a BOM). */
#define PUT_LIT(b, lit, err) prc_buf_put((b), (lit), sizeof(lit) - 1, (err))

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
        return PUT_LIT(b, "{\"name\":", err) && put_str(b, name, err) && PUT_LIT(b, ",\"value\":", err) &&
               put_str(b, value, err) && prc_buf_putc(b, '}', err);
}

/* The sorted, deduplicated list a, in small when it fits (sorted_unique), or NULL (out of memory, err set). */
static const char **list_of(const struct slist *a, const char **small, size_t *n, prc_err *err)
{
        const char **v = sorted_unique(a, small, n);

        if (v == NULL)
                prc_err_oom(err, "the SBOM");
        return v;
}

/* What list_of gave, let go. */
static void list_done(const char **v, const char **small)
{
        if (v != small)
                free(v);
}

/* "hashes":[{"alg","content"}...], from the "ALG hex" strings of v[0..n). */
static bool put_hashes(prc_buf *b, const char **v, size_t n, prc_err *err)
{
        bool ok = PUT_LIT(b, ",\"hashes\":[", err);

        for (size_t i = 0; ok && i < n; i++) {
                const char *sp = strchr(v[i], ' ');
                ok = sep(b, i, err) && PUT_LIT(b, "{\"alg\":", err) &&
                     prc_jcs_write_string(v[i], (size_t)(sp - v[i]), b, err) &&
                     PUT_LIT(b, ",\"content\":", err) && put_str(b, sp + 1, err) && prc_buf_putc(b, '}', err);
        }
        return ok && prc_buf_putc(b, ']', err);
}

/* "properties":[ecosystem, integrity values not mapped to a hash, paths], each list sorted. */
static bool put_props(prc_buf *b, const struct comp *c, const char *eco, prc_err *err)
{
        static const struct {
                int         list;
                const char *name;
        } lists[] = { { L_INTEG, "prc:integrity" }, { L_PATH, "prc:path" } };
        bool ok = PUT_LIT(b, ",\"properties\":[", err) && put_prop(b, "prc:ecosystem", eco, err);

        for (size_t l = 0; ok && l < PRC_ARRAY_LEN(lists); l++) {
                const char *small[LIST_SMALL];
                size_t n = 0;
                const char **v = list_of(&c->list[lists[l].list], small, &n, err);
                ok = v != NULL;
                for (size_t i = 0; ok && i < n; i++)
                        ok = prc_buf_putc(b, ',', err) && put_prop(b, lists[l].name, v[i], err);
                list_done(v, small);
        }
        return ok && prc_buf_putc(b, ']', err);
}

/*
 * One component as canonical JSON, written straight out (12,000 of them:
 * no tree is built per component).  The members in RFC 8785 order:
 * bom-ref, hashes (when any), name, properties, purl (when the ref is
 * one), scope, type, version (when known).
 */
static bool component_write(const char *ref, const struct comp *c, prc_buf *b, prc_err *err)
{
        const char *eco = json_string_value(c->eco), *small[LIST_SMALL];
        const json_t *name = c->name, *ver = c->ver;
        size_t n = 0;
        const char **v = list_of(&c->list[L_HASH], small, &n, err);
        bool ok = v != NULL && PUT_LIT(b, "{\"bom-ref\":", err) && put_str(b, ref, err) &&
                  (n == 0 || put_hashes(b, v, n, err)) && PUT_LIT(b, ",\"name\":", err) &&
                  prc_jcs_write_string(json_string_value(name), json_string_length(name), b, err) &&
                  put_props(b, c, eco, err) &&
                  (strncmp(ref, "pkg:", 4) != 0 || (PUT_LIT(b, ",\"purl\":", err) && put_str(b, ref, err))) &&
                  PUT_LIT(b, ",\"scope\":", err) &&
                  put_str(b, rank_name[c->rank], err) &&
                  prc_buf_puts(b, strcmp(eco, "docker") == 0 ? ",\"type\":\"container\"" : ",\"type\":\"library\"",
                               err) &&
                  (ver == NULL || (PUT_LIT(b, ",\"version\":", err) &&
                                   prc_jcs_write_string(json_string_value(ver), json_string_length(ver), b, err))) &&
                  prc_buf_putc(b, '}', err);

        list_done(v, small);
        return ok;
}

enum { SINK_CHUNK = 1 << 20 };

struct sink;
static bool sink_flush(struct sink *o, prc_buf *b, size_t chunk, prc_err *err);
static bool sink_put(struct sink *o, prc_buf *b, const uint8_t *p, size_t n, prc_err *err);

/* One "dependencies" entry, {"dependsOn":[...],"ref":FROM}: from and the targets e[0..n) (sorted, unique) of v. */
static bool write_edges(const uint64_t *e, size_t n, const struct member *v, prc_buf *b, prc_err *err)
{
        bool ok = PUT_LIT(b, "{\"dependsOn\":[", err);

        for (size_t k = 0; ok && k < n; k++)
                ok = sep(b, k, err) && put_str(b, v[EDGE_TO(e[k])].key, err);
        return ok && PUT_LIT(b, "],\"ref\":", err) && put_str(b, v[EDGE_FROM(e[0])].key, err) &&
               prc_buf_putc(b, '}', err);
}

/*
 * The "dependencies" entries (edge rows), made into b on a thread of their
 * own while the lanes write the components: both only read v and the
 * edges, and the main thread would otherwise make them alone after the
 * last slice (4-13 ms of a 22-28 ms write on the manifests corpus).
 */
struct edges_job {
        const struct sbom   *sb;
        const struct member *v;
        size_t               n;
        prc_buf              b;
        prc_err              err;
        bool                 ok;
};

static void *edges_bg(void *arg)
{
        struct edges_job *ej = arg;
        size_t m = 0, rows = 0, i, k;
        uint64_t *re = sorted_edges(ej->sb, ej->v, ej->n, &m);

        ej->ok = re != NULL || prc_err_oom(&ej->err, "the SBOM");
        for (i = 0; ej->ok && i < m; i = k) {
                for (k = i + 1; k < m && EDGE_FROM(re[k]) == EDGE_FROM(re[i]); k++)
                        ;
                ej->ok = sep(&ej->b, rows++, &ej->err) && write_edges(re + i, k - i, ej->v, &ej->b, &ej->err);
        }
        free(re);
        return NULL;
}

/*
 * The components are written in slices by two lanes (lanes.h) and taken
 * in order here, each slice appended to the BOM and flushed to the sink:
 * both cores write, and at most WRITE_WINDOW slices (a few hundred KiB
 * each) wait, so the BOM is still never whole in memory.  (Emptying each
 * component in its lane once written, to spread the teardown, cost more
 * than it saved: two threads freeing in the one malloc arena contend.)
 */
enum { WRITE_SLICES = 32, WRITE_WINDOW = 4, SLICE_PER_COMP = 1024 };

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
        /*
         * Room for the slice at once (a component is 600 bytes on the corpus):
         * grown by doubling from nothing, each slice was copied again and
         * again (a sixth of the write's instructions).  Room never written is
         * never touched, so it costs no memory.
         */
        sl->ok = prc_buf_reserve(&sl->b, (hi - lo) * SLICE_PER_COMP, &sl->err);
        for (size_t i = lo; sl->ok && i < hi; i++)
                sl->ok = sep(&sl->b, i, &sl->err) && component_write(w->v[i].key, w->v[i].c, &sl->b, &sl->err);
}

static void slice_drop(void *ctx, size_t job, void *slot)
{
        struct wslice *sl = slot;

        (void)ctx;
        (void)job;
        prc_buf_clear(&sl->b);
}

/*
 * Empty each written component (its strings and lists; the key, which the
 * edges name, stays for sbom_free).  Only cv is touched, never comps
 * itself, so the edges may be written meanwhile.
 */
static void *sbom_empty_bg(void *arg)
{
        struct sbom *sb = arg;

        for (size_t i = 0; i < sb->ncomps; i++)
                comp_clear(&sb->cv[i]);
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
        ok = ok && sink_put(w->o, w->b, sl->b.data, sl->b.len, err);
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
        json_t *meta = NULL;
        struct wslices w = { .b = b, .o = o };
        prc_lanes_spec sp = { .nlanes = 2, .window = WRITE_WINDOW, .slot_size = sizeof(struct wslice),
                              .work = slice_write, .done = slice_done, .drop = slice_drop, .ctx = &w };
        struct edges_job ej = { .sb = sb };
        struct bg eb = { 0 };
        size_t n;
        bool ok = false;

        prc_buf_init(&ej.b, b->max);
        prc_err_init(&ej.err);
        if (!PUT_LIT(b, "{\"bomFormat\":\"CycloneDX\",\"components\":[", err))
                goto out;
        if ((v = sorted_members(sb, &n)) == NULL)
                goto oom;
        ej.v = w.v = v;
        ej.n = w.n = n;
        bg_run(&eb, edges_bg, &ej);
        w.nslices = n < WRITE_SLICES ? 1 : WRITE_SLICES;
        if (n > 0 && !prc_lanes_run(&sp, w.nslices, err))
                goto out;
        bg_wait(&eb);
        /* Written: the components' members go on a thread of their own while the rest is written. */
        sb->members = v;
        sb->nmembers = n;
        v = NULL;
        bg_run(&sb->emptier, sbom_empty_bg, sb);
        if (!ej.ok) {
                *err = ej.err;
                goto out;
        }
        if (!PUT_LIT(b, "],\"dependencies\":[", err) || !sink_put(o, b, ej.b.data, ej.b.len, err))
                goto out;
        meta = json_pack("{s:{s:[{s:s,s:s,s:s}]}}", "tools", "components", "type", "application", "name", "prc",
                         "version", PRC_VERSION);
        ok = meta != NULL && PUT_LIT(b, "],\"metadata\":", err) && prc_jcs_write(meta, b, err) &&
             PUT_LIT(b, ",\"specVersion\":\"1.6\",\"version\":1}\n", err);
        if (meta == NULL)
                goto oom;
        goto out;
oom:
        if (!prc_err_is_set(err))
                prc_err_oom(err, "the SBOM");
out:
        bg_wait(&eb);   /* before v goes: the edges are made from it */
        prc_buf_clear(&ej.b);
        free(v);
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

/*
 * What was just written starts on its way to the disk now, while the rest
 * of the BOM is made, so the commit's fsync waits for the last of it only
 * (a hint: a failure is the fsync's to report).
 */
static void sink_started(const struct sink *o)
{
        (void)sync_file_range(o->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

/* Write out what b holds once it passes chunk (0: all of it) and empty b; nothing without a file. */
static bool sink_flush(struct sink *o, prc_buf *b, size_t chunk, prc_err *err)
{
        if (o == NULL || o->fd < 0 || b->len < chunk || b->len == 0)
                return true;
        if (!prc_fd_write_all(o->fd, b->data, b->len, err))
                return false;
        sink_started(o);
        prc_buf_reset(b);
        return true;
}

/*
 * p[0..n) after what b holds.  To a file straight from p, once b is out (no
 * second copy of the BOM's components in b); else into b, as sink_flush.
 */
static bool sink_put(struct sink *o, prc_buf *b, const uint8_t *p, size_t n, prc_err *err)
{
        if (o != NULL && o->fd >= 0) {
                if (!sink_flush(o, b, 0, err) || !prc_fd_write_all(o->fd, p, n, err))
                        return false;
                sink_started(o);
                return true;
        }
        return prc_buf_put(b, p, n, err) && sink_flush(o, b, SINK_CHUNK, err);
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
        for (size_t i = 0; i < sb->ncomps; i++)
                comp_clear(&sb->cv[i]);
        free(sb->cv);
        json_decref(sb->nuget_refs);
        json_decref(sb->gomods_seen);
        cmap_free(&sb->comps);
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
        struct sbom sb = { .gomods = json_object(), .gosums = json_array(),
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
        if (sb.gomods == NULL || sb.gosums == NULL || sb.gomods_seen == NULL || sb.nuget_refs == NULL) {
                json_decref(sb.nuget_refs);
                json_decref(sb.gomods_seen);
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
        /* The dependencies as tables, not trees: a sixth of the parent's work, measured (mdoc_pack.h). */
        copts.packed_deps = true;
        /* Of "details" only what the SBOM reads (frame.h PRC_REQ_SLIM_DETAILS): 2.2 of the corpus's workflows' MB. */
        copts.slim_details = true;
        pc.client = prc_client_new(&copts, &err);
        /* A second worker, so two manifests are extracted at once (scan.h lane_ctx): the SBOM is the same. */
        pc2.client = pc.client != NULL ? prc_client_new(&copts, &err) : NULL;
        if (pc2.client == NULL) {
                prc_client_free(pc.client);
                json_decref(sb.nuget_refs);
                json_decref(sb.gomods_seen);
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
        /* Small manifests several to a write (client.h prc_client_parse_extract_many): the same SBOM. */
        so.parse_extract_many = cli_scan_parse_extract_many;
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
        prc_tune_heap_grown();  /* what the fold took; the write's buffers come next */
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
