/*
 * mdoc.c - ManifestDoc builders, purl and line helpers shared by every
 * extractor family (extract.h).  Runs in the worker on values taken from
 * hostile files, so every string is checked before it enters the document.
 */
#include "content/extract/extract.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/utf8.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"

static bool oom(prc_err *err)
{
        return prc_err_oom(err, "manifest document");
}

/*
 * Most names, versions and hashes are ASCII: one word-wide pass, and the
 * decoder per byte only for the rest (where it also finds the bad byte).
 */
static bool text_ok(const char *s, size_t n, size_t *bad)
{
        const uint64_t highs = 0x8080808080808080u;
        uint64_t acc = 0, w;
        uint8_t tail = 0;
        size_t i = 0;

        for (; i + 8 <= n; i += 8) {
                memcpy(&w, s + i, 8);
                acc |= w;
        }
        for (; i < n; i++)
                tail |= (uint8_t)s[i];
        if ((acc & highs) == 0 && (tail & 0x80) == 0)
                return true;
        return prc_utf8_valid((const uint8_t *)s, n, bad);
}

/* Take a new reference into obj[key] (key: one of ours, n bytes); jansson frees v on failure. */
static bool putn(json_t *obj, const char *key, size_t n, json_t *v, prc_err *err)
{
        if (v == NULL || json_object_setn_new_nocheck(obj, key, n, v) != 0)
                return oom(err);
        return true;
}

/* A key of ours, a literal: its length is known here, and it needs no check. */
#define put(obj, key, v, err) putn(obj, "" key "", sizeof(key) - 1, v, err)

/* A checked short string (or null for NULL). */
static json_t *str(const char *s, prc_err *err)
{
        size_t n, bad;
        json_t *v;

        if (s == NULL) {
                v = json_null();
                goto out;
        }
        n = strlen(s);
        if (n > PRC_MD_STR_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a value of %zu bytes (the limit is %u)", n,
                            PRC_MD_STR_MAX);
                return NULL;
        }
        if (!text_ok(s, n, &bad)) {
                prc_err_set(err, PRC_E_NOT_CANONICAL, "a value that is not valid UTF-8 (byte %zu)", bad);
                return NULL;
        }
        v = json_stringn_nocheck(s, n);        /* checked just above: jansson need not check again */
out:
        if (v == NULL)
                oom(err);
        return v;
}

static json_t *line_v(uint32_t line)
{
        return line > 0 ? json_integer(line) : json_null();
}

/* prc_md_set_str for a key of ours (a literal). */
#define set_lit(obj, key, val, err) set_litn(obj, "" key "", sizeof(key) - 1, val, err)

static bool set_litn(json_t *obj, const char *key, size_t n, const char *val, prc_err *err)
{
        json_t *v = str(val, err);

        return v != NULL && putn(obj, key, n, v, err);
}

/*
 * The default source, {"type": "registry", all null}: most dependencies
 * have it, so they share one object instead of each building its own (a
 * jansson object costs an allocation and a hash insert per member: that
 * was a third of prc_md_add_dep).  Nothing changes a source in place:
 * prc_md_set_source replaces it.  The shared one is made anew for each
 * document (prc_md_new lets the last one go): in the worker every jansson
 * value lives in the request's arena, which takes it back with the rest.
 * This reference is the cache's own, so the object outlives the
 * dependencies that drop it.
 */
static _Thread_local json_t *default_source;
/* Its destructor lets a thread's last one go when the thread ends (the scan's lanes extract in process in tests). */
static pthread_key_t default_source_key;
static pthread_once_t default_source_once = PTHREAD_ONCE_INIT;
static bool default_source_keyed;

static void default_source_drop(void)
{
        prc_x_drop(default_source);     /* in the worker's arena: gone with its request already */
        default_source = NULL;
}

static void default_source_at_exit(void *unused)
{
        (void)unused;
        default_source_drop();
}

static void default_source_key_make(void)
{
        default_source_keyed = pthread_key_create(&default_source_key, default_source_at_exit) == 0;
}

static bool set_default_source(json_t *dep, prc_err *err)
{
        json_t *s = default_source;

        if (s == NULL) {
                s = json_object();
                if (s == NULL)
                        return oom(err);
                if (!put(s, "type", json_string_nocheck("registry"), err) || !put(s, "url", json_null(), err) ||
                    !put(s, "ref", json_null(), err) || !put(s, "commit", json_null(), err)) {
                        json_decref(s);
                        return false;
                }
                default_source = s;
                /* Any non-NULL value arms the destructor; without a key a thread's last source is only kept. */
                (void)pthread_once(&default_source_once, default_source_key_make);
                if (default_source_keyed)
                        (void)pthread_setspecific(default_source_key, &default_source_keyed);
        }
        return put(dep, "source", json_incref(s), err);
}

bool prc_md_set_str(json_t *obj, const char *key, const char *val, prc_err *err)
{
        json_t *v = str(val, err);
        size_t n;

        if (v == NULL)
                return false;
        /* The caller's key may come from the file: checked as jansson's json_object_set_new would. */
        n = strlen(key);
        if (!text_ok(key, n, NULL)) {
                json_decref(v);
                return oom(err);
        }
        return json_object_setn_new_nocheck(obj, key, n, v) == 0 || oom(err);
}

bool prc_md_take_purl(json_t *obj, char *purl, prc_err *err)
{
        bool ok;

        if (purl == NULL)
                return prc_err_oom(err, "purl");
        ok = set_lit(obj, "purl", purl, err);
        free(purl);
        return ok;
}

/* Append to md[list] unless it holds PRC_MD_LIST_MAX already. */
static json_t *list_add(json_t *md, const char *list, prc_err *err)
{
        json_t *a = json_object_get(md, list), *o;

        if (json_array_size(a) >= PRC_MD_LIST_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u %s in one file", PRC_MD_LIST_MAX, list);
                return NULL;
        }
        o = json_object();
        if (o == NULL || json_array_append_new(a, o) != 0) {
                oom(err);
                return NULL;
        }
        return o;
}

/*
 * The last document's "dependencies" and hidden edge count, so a row and
 * an edge do not look them up by key each (a lockfile states thousands of
 * both: two hash lookups an edge).  Only prc_md_new makes a document, and
 * it forgets them, as prc_md_edges_finish does when it drops the count; the
 * array and the count stay the same objects while the document lives.
 */
static _Thread_local struct {
        const json_t *md;
        json_t       *deps, *count;
} md_last;

static json_t *md_deps(json_t *md)
{
        if (md_last.md != md) {
                md_last.md = md;
                md_last.deps = PRC_JGET(md, "dependencies");
                md_last.count = PRC_JGET(md, "_edges");
        }
        return md_last.deps;
}

/*
 * Native rows (extract.h prc_md_rows_arm): one store a thread, for the one
 * document that took them.  A record per dependency (mdoc_pack.h's, its
 * string offsets into pool), the edges as added; its buffers kept from one
 * document to the next (a worker's pages stay touched).
 */
static _Thread_local struct {
        bool          armed;
        const json_t *md;               /* the document of these rows, or NULL */
        prc_mdp_dep  *deps;             /* owned; str[k]: offset into pool, or PRC_MDP_NULL */
        size_t        n, cap;
        prc_buf       pool;             /* each string followed by its NUL */
        uint64_t     *pairs;            /* owned: from << 32 | to, as added */
        size_t        npairs, cappairs;
        bool          finished;         /* prc_md_edges_finish was called */
        bool          pool_init;
        bool          taken;            /* a document took native rows since prc_md_rows_arm(true) */
} nr;

static void rows_forget(void)
{
        nr.md = NULL;
}

static bool rows_native(const json_t *md)
{
        return md != NULL && nr.md == md;
}

void prc_md_rows_arm(bool on)
{
        if (on)
                nr.taken = false;
        nr.armed = on;
}

bool prc_md_rows_taken(void)
{
        return nr.taken;
}

bool prc_md_rows_native(const json_t *md)
{
        return rows_native(md);
}

size_t prc_md_rows_kept(void)
{
        return nr.cap * sizeof(*nr.deps) + nr.cappairs * sizeof(*nr.pairs) + (nr.pool_init ? nr.pool.cap : 0);
}

void prc_md_rows_release(void)
{
        free(nr.deps);
        free(nr.pairs);
        if (nr.pool_init)
                prc_buf_clear(&nr.pool);
        nr.deps = NULL;
        nr.pairs = NULL;
        nr.n = nr.cap = nr.npairs = nr.cappairs = 0;
        nr.pool_init = false;
        nr.md = NULL;
}

/* md's rows become native: armed, and md has no dependency yet. */
static bool rows_take(json_t *md)
{
        if (rows_native(md))
                return true;
        if (!nr.armed || json_array_size(md_deps(md)) != 0)
                return false;
        if (!nr.pool_init) {
                prc_buf_init(&nr.pool, (size_t)UINT32_MAX - 1);
                nr.pool_init = true;
        }
        prc_buf_reset(&nr.pool);
        nr.md = md;
        nr.taken = true;
        nr.n = nr.npairs = 0;
        nr.finished = false;
        return true;
}

/* s as slot k of row d: the checks str() makes, the text into pool; NULL is null. */
static bool row_str(prc_mdp_dep *d, unsigned k, const char *s, prc_err *err)
{
        size_t n, bad;

        if (s == NULL) {
                d->str[k] = PRC_MDP_NULL;
                d->len[k] = 0;
                return true;
        }
        n = strlen(s);
        if (n > PRC_MD_STR_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a value of %zu bytes (the limit is %u)", n,
                                   PRC_MD_STR_MAX);
        if (!text_ok(s, n, &bad))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "a value that is not valid UTF-8 (byte %zu)", bad);
        if (nr.pool.len > UINT32_MAX - n - 2)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more text in dependencies than a table holds");
        d->str[k] = (uint32_t)nr.pool.len;
        d->len[k] = (uint32_t)n;
        return prc_buf_put(&nr.pool, s, n + 1, err);   /* with its NUL */
}

/* The index of s in list (NULL-terminated), or 255: a value no table holds (rows_pack declines it). */
static uint8_t list_index(const char *const *list, const char *s)
{
        for (size_t i = 0; s != NULL && list[i] != NULL; i++)
                if (strcmp(list[i], s) == 0)
                        return (uint8_t)i;
        return 255;
}

/* A row index past the document's dependencies (a caller's mistake). */
static bool no_dep(size_t row, prc_err *err)
{
        return prc_err_set(err, PRC_E_INTERNAL, "no dependency %zu", row);
}

static prc_mdp_dep *row_at(size_t row)
{
        return row < nr.n ? &nr.deps[row] : NULL;
}

json_t *prc_md_new(const prc_xin *in, const char *format, const char *ecosystem, const char *kind, prc_err *err)
{
        json_t *md;

        md_last.md = NULL;
        rows_forget();          /* a new document: native rows only once it adds one (prc_md_row_add) */
        default_source_drop();  /* a new document: its dependencies share a source of its own */
        md = json_object();
        if (md == NULL) {
                oom(err);
                return NULL;
        }
        if (!put(md, "schema", json_string(PRC_MD_SCHEMA), err) || !set_lit(md, "path", in->path, err) ||
            !set_lit(md, "format", format, err) || !set_lit(md, "ecosystem", ecosystem, err) ||
            !set_lit(md, "kind", kind, err) || !put(md, "package", json_null(), err) ||
            !put(md, "details", json_object(), err) || !put(md, "dependencies", json_array(), err) ||
            !put(md, "hooks", json_array(), err) || !put(md, "registries", json_array(), err) ||
            !put(md, "credentials", json_array(), err) || !put(md, "not_extracted", json_array(), err))
                goto fail;
        return md;
fail:
        json_decref(md);
        return NULL;
}

bool prc_md_set_package(json_t *md, const char *name, const char *version, const char *purl, uint32_t line,
                        prc_err *err)
{
        json_t *p = json_object();

        if (!put(md, "package", p, err))
                return false;
        return set_lit(p, "name", name, err) && set_lit(p, "version", version, err) &&
               set_lit(p, "purl", purl, err) && put(p, "line", line_v(line), err);
}

json_t *prc_md_add_dep(json_t *md, const char *name, const char *scope, bool direct, uint32_t line, prc_err *err)
{
        return prc_md_add_dep_rr(md, name, scope, direct, line, NULL, NULL, err);
}

/*
 * The requirement and the resolved version are put in as the object is
 * made, in their places: setting them after (null, then the value) hashed
 * each key twice, and most lockfile rows state both.
 */
json_t *prc_md_add_dep_rr(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                          const char *requirement, const char *resolved, prc_err *err)
{
        json_t *deps = md_deps(md), *d;

        if (rows_native(md)) {
                prc_err_set(err, PRC_E_INTERNAL, "a dependency added as a tree to a document of native rows");
                return NULL;
        }
        if (json_array_size(deps) >= PRC_MD_DEPS_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u dependencies in one file", PRC_MD_DEPS_MAX);
                return NULL;
        }
        /* the client refuses an empty name: say so here, at the line that states it */
        if (name == NULL || name[0] == '\0') {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a dependency with an empty name");
                prc_err_set_line(err, line, 0);
                return NULL;
        }
        d = json_object();
        if (d == NULL || json_array_append_new(deps, d) != 0) {
                oom(err);
                return NULL;
        }
        if (!set_lit(d, "name", name, err) || !set_lit(d, "requirement", requirement, err) ||
            !set_lit(d, "resolved", resolved, err) || !set_lit(d, "scope", scope, err) ||
            !put(d, "direct", json_boolean(direct), err) ||
            !prc_md_set_source(d, "registry", NULL, NULL, NULL, err) || !put(d, "integrity", json_null(), err) ||
            !put(d, "purl", json_null(), err) || !put(d, "group", json_null(), err) ||
            !put(d, "line", line_v(line), err) || !put(d, "depends_on", json_null(), err))
                return NULL;
        return d;
}

size_t prc_md_row_add(json_t *md, const char *name, const char *scope, bool direct, uint32_t line,
                      const char *requirement, const char *resolved, prc_err *err)
{
        prc_mdp_dep *d;

        if (!rows_take(md))
                return prc_md_add_dep_rr(md, name, scope, direct, line, requirement, resolved, err) != NULL
                       ? json_array_size(md_deps(md)) - 1 : PRC_MDROW_NONE;
        /* prc_md_add_dep_rr's checks, in its order */
        if (nr.n >= PRC_MD_DEPS_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u dependencies in one file", PRC_MD_DEPS_MAX);
                return PRC_MDROW_NONE;
        }
        if (name == NULL || name[0] == '\0') {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a dependency with an empty name");
                prc_err_set_line(err, line, 0);
                return PRC_MDROW_NONE;
        }
        if (nr.n == nr.cap) {
                size_t cap = nr.cap != 0 ? 2 * nr.cap : 256;
                prc_mdp_dep *g = realloc(nr.deps, cap * sizeof(*g));
                if (g == NULL) {
                        oom(err);
                        return PRC_MDROW_NONE;
                }
                nr.deps = g;
                nr.cap = cap;
        }
        d = &nr.deps[nr.n];
        memset(d, 0, sizeof(*d));
        for (unsigned k = 0; k < PRC_MDP_NSTR; k++)
                d->str[k] = PRC_MDP_NULL;
        d->edges_n = PRC_MDP_NULL;
        if (!row_str(d, PRC_MDP_NAME, name, err) || !row_str(d, PRC_MDP_REQUIREMENT, requirement, err) ||
            !row_str(d, PRC_MDP_RESOLVED, resolved, err))
                return PRC_MDROW_NONE;
        /* A scope no table holds (255) makes prc_md_rows_pack decline, as prc_mdp_pack would the tree. */
        d->scope = list_index(prc_md_scopes, scope);
        d->source = 0;          /* registry, url, ref and commit null: set_default_source */
        d->direct = direct;
        d->line = line;
        return nr.n++;
}

/* A row's dependency object (a tree document), or NULL. */
static json_t *tree_row(json_t *md, size_t row)
{
        return json_array_get(md_deps(md), row);
}

bool prc_md_row_set_str(json_t *md, size_t row, const char *key, const char *val, prc_err *err)
{
        prc_mdp_dep *d;
        unsigned k;

        if (!rows_native(md)) {
                json_t *t = tree_row(md, row);
                return t != NULL ? prc_md_set_str(t, key, val, err)
                                 : no_dep(row, err);
        }
        if ((d = row_at(row)) == NULL)
                return no_dep(row, err);
        if (strcmp(key, "purl") == 0)
                k = PRC_MDP_PURL;
        else if (strcmp(key, "group") == 0)
                k = PRC_MDP_GROUP;
        else if (strcmp(key, "requirement") == 0)
                k = PRC_MDP_REQUIREMENT;
        else if (strcmp(key, "resolved") == 0)
                k = PRC_MDP_RESOLVED;
        else
                return prc_err_set(err, PRC_E_INTERNAL, "a dependency member '%.64s' a row does not hold", key);
        return row_str(d, k, val, err);
}

bool prc_md_row_take_purl(json_t *md, size_t row, char *purl, prc_err *err)
{
        bool ok;

        if (!rows_native(md)) {
                json_t *t = tree_row(md, row);
                if (t == NULL) {
                        free(purl);
                        return no_dep(row, err);
                }
                return prc_md_take_purl(t, purl, err);
        }
        if (purl == NULL)
                return prc_err_oom(err, "purl");
        ok = prc_md_row_set_str(md, row, "purl", purl, err);
        free(purl);
        return ok;
}

bool prc_md_row_set_source(json_t *md, size_t row, const char *type, const char *url, const char *ref,
                           const char *commit, prc_err *err)
{
        prc_mdp_dep *d;
        char *clean = NULL;
        bool cred = false, ok;
        uint8_t t;

        if (!rows_native(md)) {
                json_t *tr = tree_row(md, row);
                return tr != NULL ? prc_md_set_source(tr, type, url, ref, commit, err)
                                  : no_dep(row, err);
        }
        if ((d = row_at(row)) == NULL)
                return no_dep(row, err);
        t = list_index(prc_md_source_types, type);
        if (t == 255)
                return prc_err_set(err, PRC_E_INTERNAL, "a source type '%.64s' outside the ManifestDoc's",
                                   type != NULL ? type : "(null)");
        /* prc_md_set_source's order: the URL stripped (out of memory), then type, url, ref, commit checked */
        if (url != NULL && (clean = prc_md_url_strip(url, &cred)) == NULL)
                return oom(err);
        d->source = t;
        ok = row_str(d, PRC_MDP_SRC_URL, clean, err) && row_str(d, PRC_MDP_SRC_REF, ref, err) &&
             row_str(d, PRC_MDP_SRC_COMMIT, commit, err);
        free(clean);
        return ok;
}

bool prc_md_row_set_integrity(json_t *md, size_t row, const char *algorithm, const char *value, prc_err *err)
{
        prc_mdp_dep *d;

        if (!rows_native(md)) {
                json_t *t = tree_row(md, row);
                return t != NULL ? prc_md_set_integrity(t, algorithm, value, err)
                                 : no_dep(row, err);
        }
        if ((d = row_at(row)) == NULL)
                return no_dep(row, err);
        if (algorithm == NULL || value == NULL || algorithm[0] == '\0' || value[0] == '\0')
                return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "an integrity entry with an empty %s",
                                   algorithm == NULL || algorithm[0] == '\0' ? "algorithm" : "value");
        d->integrity = 1;
        return row_str(d, PRC_MDP_INTEG_ALG, algorithm, err) && row_str(d, PRC_MDP_INTEG_VALUE, value, err);
}

size_t prc_md_row_count(const json_t *md)
{
        return rows_native(md) ? nr.n : json_array_size(json_object_get(md, "dependencies"));
}

/* Slot k of a row as a C string, or NULL (null, or no such row). */
static const char *row_text(const json_t *md, size_t row, unsigned k, const char *key)
{
        const prc_mdp_dep *d;

        if (!rows_native(md))
                return json_string_value(json_object_get(json_array_get(json_object_get(md, "dependencies"), row),
                                                         key));
        d = row_at(row);
        return d != NULL && d->str[k] != PRC_MDP_NULL ? (const char *)nr.pool.data + d->str[k] : NULL;
}

const char *prc_md_row_name(const json_t *md, size_t row)
{
        return row_text(md, row, PRC_MDP_NAME, "name");
}

const char *prc_md_row_source_type(const json_t *md, size_t row)
{
        const prc_mdp_dep *d;

        if (!rows_native(md))
                return json_string_value(json_object_get(
                        json_object_get(json_array_get(json_object_get(md, "dependencies"), row), "source"), "type"));
        d = row_at(row);
        return d != NULL && d->source < 255 ? prc_md_source_types[d->source] : NULL;
}

static int pair_cmp(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

        return (x > y) - (x < y);
}

int prc_md_rows_pack(const json_t *md, prc_mdp_packer *k, prc_err *err)
{
        prc_mdp_rows r = { .deps = nr.deps, .ndeps = nr.n, .pool = (const char *)nr.pool.data };
        uint32_t *first = NULL, *to = NULL;
        size_t m = 0;
        int rc;

        if (!rows_native(md))
                return 0;
        /* Edges added but never finished: the tree would hold them unsorted, and a hidden count. */
        if (!nr.finished && nr.npairs != 0)
                return 0;
        if (nr.finished) {
                /* prc_md_edges_finish's order: each row's targets ascending, once each; a row without any, []. */
                first = calloc(nr.n + 1, sizeof(*first));
                to = malloc((nr.npairs + 1) * sizeof(*to));
                if (first == NULL || to == NULL) {
                        free(first);
                        free(to);
                        return prc_err_oom(err, "a dependency table"), -1;
                }
                if (nr.npairs > 1)      /* none: no array was ever made (qsort of NULL is undefined) */
                        qsort(nr.pairs, nr.npairs, sizeof(*nr.pairs), pair_cmp);
                for (size_t i = 0; i < nr.npairs; i++) {
                        if (i > 0 && nr.pairs[i] == nr.pairs[i - 1])
                                continue;
                        first[(nr.pairs[i] >> 32) + 1]++;
                        to[m++] = (uint32_t)nr.pairs[i];
                }
                for (size_t i = 0; i < nr.n; i++)
                        first[i + 1] += first[i];
                r.edge_first = first;
                r.edges = to;
        }
        rc = prc_mdp_pack_rows(k, &r, err);
        free(first);
        free(to);
        return rc;
}

/* prc_md_edge for native rows: the same checks, in the same order; the pair kept for rows_pack. */
static bool row_edge(size_t from, size_t to, prc_err *err)
{
        if (from >= nr.n || to >= nr.n)
                return prc_err_set(err, PRC_E_INTERNAL, "an edge between dependencies %zu and %zu of %zu", from, to,
                                   nr.n);
        if (from == to)
                return true;
        if (nr.npairs >= PRC_MD_EDGES_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u dependency edges in one file", PRC_MD_EDGES_MAX);
                return false;
        }
        if (nr.npairs == nr.cappairs) {
                size_t cap = nr.cappairs != 0 ? 2 * nr.cappairs : 1024;
                uint64_t *g = realloc(nr.pairs, cap * sizeof(*g));
                if (g == NULL)
                        return oom(err);
                nr.pairs = g;
                nr.cappairs = cap;
        }
        nr.pairs[nr.npairs++] = (uint64_t)from << 32 | (uint64_t)to;
        return true;
}

bool prc_md_edge(json_t *md, size_t from, size_t to, prc_err *err)
{
        json_t *deps, *d, *a, *count;

        if (rows_native(md))
                return row_edge(from, to, err);
        deps = md_deps(md);
        d = json_array_get(deps, from);
        count = md_last.count;

        if (d == NULL || to >= json_array_size(deps))
                return prc_err_set(err, PRC_E_INTERNAL, "an edge between dependencies %zu and %zu of %zu", from, to,
                                   json_array_size(deps));
        if (from == to)
                return true;    /* a package that names itself (a cycle of one) is no edge */
        a = PRC_JGET(d, "depends_on");
        if (!json_is_array(a) && !put(d, "depends_on", a = json_array(), err))
                return false;
        /* Counted in a hidden member until prc_md_edges_finish: the limit is on the file, not on one row. */
        if (count == NULL && !put(md, "_edges", md_last.count = count = json_integer(0), err))
                return false;
        if (json_integer_value(count) >= PRC_MD_EDGES_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u dependency edges in one file", PRC_MD_EDGES_MAX);
                return false;
        }
        json_integer_set(count, json_integer_value(count) + 1);
        return json_array_append_new(a, json_integer((json_int_t)to)) == 0 || oom(err);
}

bool prc_md_edge_unresolved(json_t *md, size_t from, const char *name, const char *requirement, prc_err *err)
{
        const json_t *d = json_array_get(PRC_JGET(md, "dependencies"), from);
        const char *fn = row_text(md, from, PRC_MDP_NAME, "name");
        const char *fv = row_text(md, from, PRC_MDP_RESOLVED, "resolved");
        const json_t *line = PRC_JGET(d, "line");
        uint32_t ln = json_is_integer(line) ? (uint32_t)json_integer_value(line) : 0;
        char what[3 * 256 + 64];

        if (rows_native(md))
                ln = row_at(from) != NULL ? row_at(from)->line : 0;

        snprintf(what, sizeof(what), "the dependency of %.256s%s%.256s on %.256s%s%.256s", fn ? fn : "",
                 fv ? "@" : "", fv ? fv : "", name, requirement ? " " : "", requirement ? requirement : "");
        return prc_md_not_extracted(md, what, "it names no package of this lockfile: not graphed", ln, err);
}

static int idx_cmp(const void *a, const void *b)
{
        json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;

        return (x > y) - (x < y);
}

/* Are a's indexes ascending and unique already (as most files state them)? */
static bool edges_sorted(const json_t *a)
{
        json_int_t last = -1;
        size_t k;
        json_t *v;

        json_array_foreach(a, k, v) {
                if (json_integer_value(v) <= last)
                        return false;
                last = json_integer_value(v);
        }
        return true;
}

bool prc_md_edges_finish(json_t *md, prc_err *err)
{
        json_t *d, *a, *v;
        size_t i, k, n, m;
        json_int_t *ix;

        json_object_del(md, "_edges");
        md_last.md = NULL;
        if (rows_native(md)) {
                nr.finished = true;     /* sorted and made unique as the table is packed (prc_md_rows_pack) */
                return true;
        }
        json_array_foreach(PRC_JGET(md, "dependencies"), i, d) {
                a = PRC_JGET(d, "depends_on");
                if (!json_is_array(a)) {
                        if (!put(d, "depends_on", json_array(), err))
                                return false;
                        continue;
                }
                if (edges_sorted(a))
                        continue;
                n = json_array_size(a);
                ix = calloc(n + 1, sizeof(*ix));
                if (ix == NULL)
                        return oom(err);
                json_array_foreach(a, k, v)
                        ix[k] = json_integer_value(v);
                qsort(ix, n, sizeof(*ix), idx_cmp);
                /* Ascending and unique: the client checks exactly that. */
                for (k = 0, m = 0; k < n; k++)
                        if (m == 0 || ix[m - 1] != ix[k])
                                ix[m++] = ix[k];
                json_array_clear(a);
                for (k = 0; k < m; k++)
                        if (json_array_append_new(a, json_integer(ix[k])) != 0) {
                                free(ix);
                                return oom(err);
                        }
                free(ix);
        }
        return true;
}

char *prc_md_url_strip(const char *url, bool *had_cred)
{
        const char *auth = strstr(url, "://"), *end, *at = NULL;
        size_t n = strlen(url);
        char *out;

        *had_cred = false;
        if (auth != NULL) {
                auth += 3;
                end = auth + strcspn(auth, "/?#");
                for (const char *q = auth; q < end; q++)
                        if (*q == '@')
                                at = q;         /* the last '@' ends the userinfo */
                if (at != NULL) {
                        *had_cred = true;
                        out = prc_malloc(n + 1);
                        if (out == NULL)
                                return NULL;
                        memcpy(out, url, (size_t)(auth - url));
                        memcpy(out + (auth - url), at + 1, n - (size_t)(at + 1 - url) + 1);
                        return out;
                }
        }
        out = prc_malloc(n + 1);
        if (out != NULL)
                memcpy(out, url, n + 1);
        return out;
}

bool prc_md_set_source(json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
                       prc_err *err)
{
        json_t *s;
        char *clean = NULL;
        bool cred = false, ok;

        if (url == NULL && ref == NULL && commit == NULL && type != NULL && strcmp(type, "registry") == 0)
                return set_default_source(dep, err);
        s = json_object();
        if (!put(dep, "source", s, err))
                return false;
        if (url != NULL && (clean = prc_md_url_strip(url, &cred)) == NULL)
                return oom(err);
        ok = set_lit(s, "type", type, err) && set_lit(s, "url", clean, err) &&
             set_lit(s, "ref", ref, err) && set_lit(s, "commit", commit, err);
        free(clean);
        return ok;
}

bool prc_md_set_integrity(json_t *dep, const char *algorithm, const char *value, prc_err *err)
{
        json_t *i;

        /* the client refuses an empty algorithm or value: say so here, where the file is known */
        if (algorithm == NULL || value == NULL || algorithm[0] == '\0' || value[0] == '\0')
                return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "an integrity entry with an empty %s",
                                   algorithm == NULL || algorithm[0] == '\0' ? "algorithm" : "value");
        if (!put(dep, "integrity", i = json_object(), err))
                return false;
        return set_lit(i, "algorithm", algorithm, err) && set_lit(i, "value", value, err);
}

bool prc_md_add_hook(json_t *md, const char *name, const char *command, uint32_t line, prc_err *err)
{
        json_t *h = list_add(md, "hooks", err);
        size_t bad;

        if (h == NULL || !set_lit(h, "name", name, err))
                return false;
        /* A hook's command is a script, not a short field: bounded by the parser's scalar limit. */
        if (!prc_utf8_valid((const uint8_t *)command, strlen(command), &bad))
                return prc_err_set(err, PRC_E_NOT_CANONICAL, "a hook command that is not valid UTF-8");
        return put(h, "command", json_string(command), err) && put(h, "line", line_v(line), err);
}

bool prc_md_add_credential(json_t *md, const char *key, uint32_t line, prc_err *err)
{
        json_t *c = list_add(md, "credentials", err);

        return c != NULL && set_lit(c, "key", key, err) && put(c, "line", line_v(line), err);
}

bool prc_md_add_registry(json_t *md, const char *name, const char *scope, const char *url, uint32_t line,
                         prc_err *err)
{
        json_t *r = list_add(md, "registries", err);
        char *clean;
        bool cred, ok;

        if (r == NULL)
                return false;
        if ((clean = prc_md_url_strip(url, &cred)) == NULL)
                return oom(err);
        ok = set_lit(r, "name", name, err) && set_lit(r, "scope", scope, err) &&
             set_lit(r, "url", clean, err) && put(r, "line", line_v(line), err);
        if (ok && cred)
                ok = prc_md_add_credential(md, "registry URL userinfo", line, err);
        free(clean);
        return ok;
}

bool prc_md_not_extracted(json_t *md, const char *what, const char *reason, uint32_t line, prc_err *err)
{
        json_t *x = list_add(md, "not_extracted", err);

        /* what names the part of the file ("-e=", an empty key): an empty one still says something was skipped */
        if (what == NULL || what[0] == '\0')
                what = "(an empty value)";
        return x != NULL && set_lit(x, "what", what, err) && set_lit(x, "reason", reason, err) &&
               put(x, "line", line_v(line), err);
}

json_t *prc_md_details(json_t *md)
{
        return PRC_JGET(md, "details");
}

static bool unreserved(unsigned char c)
{
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
               c == '-' || c == '_' || c == '~';
}

static bool pct(prc_buf *b, const char *s, size_t n, prc_err *err)
{
        static const char hex[] = "0123456789ABCDEF";
        size_t i = 0, run;

        while (i < n) {
                unsigned char c;

                /* Names and versions are mostly unreserved: copied a run at a time. */
                for (run = i; run < n && unreserved((unsigned char)s[run]); run++)
                        ;
                if (run > i && !prc_buf_put(b, s + i, run - i, err))
                        return false;
                if (run == n)
                        return true;
                c = (unsigned char)s[run];
                if (!prc_buf_putc(b, '%', err) || !prc_buf_putc(b, (uint8_t)hex[c >> 4], err) ||
                    !prc_buf_putc(b, (uint8_t)hex[c & 15], err))
                        return false;
                i = run + 1;
        }
        return true;
}

/*
 * Each '/'-separated segment encoded on its own, empty segments dropped
 * (purl spec); lead: a '/' before the first segment too (namespace), not
 * for a subpath.
 */
static bool segments(prc_buf *b, const char *s, bool lead, prc_err *err)
{
        while (*s != '\0') {
                size_t n = strcspn(s, "/");

                if (n > 0) {
                        if ((lead && !prc_buf_putc(b, '/', err)) || !pct(b, s, n, err))
                                return false;
                        lead = true;
                }
                s += n + (s[n] == '/');
        }
        return true;
}

static int qual_cmp(const void *a, const void *b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *prc_purl(const char *type, const char *ns, const char *name, const char *version,
               const char *const *qual, const char *subpath)
{
        const char *keys[16];
        size_t nq = 0, len;
        prc_buf b;
        prc_err err;
        bool ok;

        if (name == NULL || *name == '\0' || type == NULL)
                return NULL;
        prc_err_init(&err);
        prc_buf_init(&b, 4u * PRC_MD_STR_MAX);
        ok = prc_buf_puts(&b, "pkg:", &err) && prc_buf_puts(&b, type, &err);
        if (ok && ns != NULL)
                ok = segments(&b, ns, true, &err);
        ok = ok && prc_buf_putc(&b, '/', &err) && pct(&b, name, strlen(name), &err);
        if (ok && version != NULL && *version != '\0')
                ok = prc_buf_putc(&b, '@', &err) && pct(&b, version, strlen(version), &err);
        /* Qualifiers sorted by key; a pair with an empty value is dropped, as the spec says. */
        for (; ok && qual != NULL && qual[2 * nq] != NULL && nq < PRC_ARRAY_LEN(keys); nq++)
                keys[nq] = qual[2 * nq];
        if (ok && nq > 0) {
                qsort(keys, nq, sizeof(keys[0]), qual_cmp);
                for (size_t i = 0, first = 1; ok && i < nq; i++) {
                        const char *v = NULL;

                        for (size_t j = 0; j < nq; j++)
                                if (qual[2 * j] == keys[i])
                                        v = qual[2 * j + 1];
                        if (v == NULL || *v == '\0')
                                continue;
                        ok = prc_buf_putc(&b, first ? '?' : '&', &err) && prc_buf_puts(&b, keys[i], &err) &&
                             prc_buf_putc(&b, '=', &err) && pct(&b, v, strlen(v), &err);
                        first = 0;
                }
        }
        if (ok && subpath != NULL && *subpath != '\0')
                ok = prc_buf_putc(&b, '#', &err) && segments(&b, subpath, false, &err);
        if (!ok) {
                prc_buf_clear(&b);
                return NULL;
        }
        return (char *)prc_buf_take(&b, &len, &err);
}

uint32_t prc_x_count_lf(const uint8_t *p, size_t n)
{
        const uint8_t *end = p + n;
        uint32_t k = 0;

        while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
                k++;
                p++;
        }
        return k;
}

uint32_t prc_x_line_at(const prc_xin *in, size_t off)
{
        if (off > in->n)
                off = in->n;
        return 1 + prc_x_count_lf(in->p, off);
}

size_t prc_x_line_start(const prc_xin *in, uint32_t line)
{
        const uint8_t *p = in->p, *end = in->p + in->n;

        for (uint32_t l = 1; l < line && p < end; l++) {
                const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
                p = nl != NULL ? nl + 1 : end;
        }
        return (size_t)(p - in->p);
}

uint32_t prc_x_find_line_at(const prc_xin *in, const char *needle, prc_xpos *at)
{
        size_t nl = strlen(needle), i = at->line > 0 ? at->off : 0;
        uint32_t line = at->line > 0 ? at->line : 1;
        const uint8_t *hit, *start;

        if (nl == 0 || in->n < nl || i > in->n)
                return 0;
        if (needle[0] == '\n') {
                /* the byte-wise rule: a line feed only counts lines, so such a needle never matches */
                return 0;
        }
        hit = memmem(in->p + i, in->n - i, needle, nl);
        if (hit == NULL)
                return 0;
        line += prc_x_count_lf(in->p + i, (size_t)(hit - (in->p + i)));
        for (start = hit; start > in->p + i && start[-1] != '\n'; start--)
                ;
        *at = (prc_xpos){ line, (size_t)(start - in->p) };
        return line;
}

uint32_t prc_x_find_line(const prc_xin *in, const char *needle, uint32_t from)
{
        prc_xpos at = { from > 1 ? from : 1, 0 };

        if (strlen(needle) == 0 || in->n < strlen(needle))
                return 0;
        at.off = prc_x_line_start(in, at.line);        /* past the last line: the end, where nothing matches */
        return prc_x_find_line_at(in, needle, &at);
}
