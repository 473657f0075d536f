/*
 * mdoc_pack.c - a ManifestDoc's dependencies as one flat table (mdoc_pack.h).
 * Trust: engine-side, on a reply from a worker that may be compromised:
 * every rule of mdoc_check.c's check_dep and check_edges holds for a value
 * taken here; anything else is declined, never refused here, so the
 * reader and prc_mdoc_check name it as they always do.
 */
#include "content/extract/mdoc_pack.h"

#include <string.h>

#include "base/buf.h"
#include "base/strv.h"
#include "base/utf8.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"

enum { NULLABLE = 1, NONEMPTY = 2 };

void prc_mdp_packer_init(prc_mdp_packer *b)
{
        prc_buf_init(&b->recs, (size_t)1 << 31);
        prc_buf_init(&b->edges, (size_t)1 << 31);
        prc_buf_init(&b->pool, (size_t)1 << 31);
        b->ndeps = b->total_edges = 0;
}

void prc_mdp_packer_clear(prc_mdp_packer *b)
{
        prc_buf_clear(&b->recs);
        prc_buf_clear(&b->edges);
        prc_buf_clear(&b->pool);
}

/* Start a table in b, keeping its buffers' room. */
static bool pk_start(prc_mdp_packer *b, prc_err *err)
{
        static const prc_mdp_head none;

        prc_buf_reset(&b->recs);
        prc_buf_reset(&b->edges);
        prc_buf_reset(&b->pool);
        b->ndeps = b->total_edges = 0;
        return prc_buf_put(&b->pool, &none, sizeof(none), err);
}

static bool pk_init(prc_mdp_packer *b, prc_err *err)
{
        prc_mdp_packer_init(b);
        return pk_start(b, err);
}

/* Is key (NUL-terminated, ours) exactly k[0..klen)?  No strlen: the loop stops at key's NUL. */
static bool key_is(const char *key, const char *k, size_t klen)
{
        size_t j = 0;

        while (j < klen && key[j] != '\0' && key[j] == k[j])
                j++;
        return j == klen && key[j] == '\0';
}

/*
 * Which of n keys k (klen bytes) is, or n.  The one after the last found
 * is tried first (hint): an extractor writes a dependency's keys in one
 * order, so that is nearly always the one.
 */
static size_t key_index(const char *const *keys, size_t n, const char *k, size_t klen, size_t hint)
{
        if (hint < n && key_is(keys[hint], k, klen))
                return hint;
        for (size_t i = 0; i < n; i++)
                if (key_is(keys[i], k, klen))
                        return i;
        return n;
}

/*
 * s (n bytes) as mdoc_check's str_val takes it (how: NULLABLE is handled
 * by the caller; NONEMPTY; in list when list is not NULL, *idx its index):
 * false when it would refuse it.
 */
static bool str_ok(const char *s, size_t n, unsigned how, const char *const *list, uint8_t *idx)
{
        if (n > PRC_MD_STR_MAX || ((how & NONEMPTY) && n == 0) || memchr(s, 0, n) != NULL)
                return false;
        if (list != NULL) {
                for (size_t i = 0; list[i] != NULL; i++)
                        if (n > 0 && key_is(list[i], s, n)) {
                                *idx = (uint8_t)i;
                                return true;
                        }
                return false;
        }
        return true;
}

/* s (n bytes, no NUL) into the pool as slot k of d; false: out of memory (err set). */
static bool put_str(prc_mdp_packer *b, prc_mdp_dep *d, unsigned k, const char *s, size_t n, prc_err *err)
{
        if (b->pool.len + n + 1 > UINT32_MAX)
                return prc_err_oom(err, "a dependency table");
        if (!prc_buf_reserve(&b->pool, n + 1, err))
                return false;
        d->str[k] = (uint32_t)b->pool.len;
        d->len[k] = (uint32_t)n;
        /* the text and its NUL in one step (prc_buf_put's own terminator follows) */
        memcpy(b->pool.data + b->pool.len, s, n);
        b->pool.data[b->pool.len + n] = 0;
        b->pool.len += n + 1;
        b->pool.data[b->pool.len] = 0;
        return true;
}

static void dep_init(prc_mdp_dep *d)
{
        memset(d, 0, sizeof(*d));
        for (unsigned k = 0; k < PRC_MDP_NSTR; k++)
                d->str[k] = PRC_MDP_NULL;
        d->edges_n = PRC_MDP_NULL;
}

/* purl_val's rule for d's purl, its strings at base: null, or starting with "pkg:". */
static bool purl_ok(const uint8_t *base, const prc_mdp_dep *d)
{
        return d->str[PRC_MDP_PURL] == PRC_MDP_NULL ||
               (d->len[PRC_MDP_PURL] >= 4 && memcmp(base + d->str[PRC_MDP_PURL], "pkg:", 4) == 0);
}

/* The edge x of dependency i: what check_edges would take so far (ascending, not i, not negative). */
static bool edge_ok(prc_mdp_packer *b, const prc_mdp_dep *d, size_t i, int64_t x)
{
        uint32_t prev;

        if (x < 0 || (uint64_t)x == i || x >= (int64_t)PRC_MD_DEPS_MAX)
                return false;
        if (d->edges_n != PRC_MDP_NULL && d->edges_n > 0) {
                memcpy(&prev, b->edges.data + b->edges.len - sizeof(prev), sizeof(prev));
                if ((uint32_t)x <= prev)
                        return false;
        }
        return ++b->total_edges <= PRC_MD_EDGES_MAX;
}

static bool put_edge(prc_mdp_packer *b, prc_mdp_dep *d, int64_t x, prc_err *err)
{
        uint32_t v = (uint32_t)x;

        if (d->edges_n == PRC_MDP_NULL) {
                d->edges_n = 0;
                d->edges_off = (uint32_t)(b->edges.len / sizeof(v));
        }
        d->edges_n++;
        return prc_buf_put(&b->edges, &v, sizeof(v), err);
}

/* The table, in pool: header, strings, records (at a multiple of 4), edges; false: out of memory or too large. */
static bool pk_close(prc_mdp_packer *b)
{
        static const uint8_t pad[4];
        prc_mdp_head h = { .magic = PRC_MDP_MAGIC, .ndeps = (uint32_t)b->ndeps,
                           .nedges = (uint32_t)(b->edges.len / sizeof(uint32_t)) };
        size_t recs_off = (b->pool.len + 3) & ~(size_t)3, edges_off = recs_off + b->recs.len;
        size_t size = edges_off + b->edges.len;
        prc_err err;

        prc_err_init(&err);
        if (size > UINT32_MAX || !prc_buf_put(&b->pool, pad, recs_off - b->pool.len, &err) ||
            !prc_buf_put(&b->pool, b->recs.data, b->recs.len, &err) ||
            !prc_buf_put(&b->pool, b->edges.data, b->edges.len, &err))
                return false;
        h.size = (uint32_t)size;
        h.recs_off = (uint32_t)recs_off;
        h.edges_off = (uint32_t)edges_off;
        memcpy(b->pool.data, &h, sizeof(h));
        return true;
}

/* The table as a string value; NULL: out of memory or too large. */
static json_t *pk_finish(prc_mdp_packer *b)
{
        return pk_close(b) ? json_stringn_nocheck((const char *)b->pool.data, b->pool.len) : NULL;
}

/*
 * ---- The hook: the reply's dependencies, off the cursor. ----
 * Each read returns 1 taken, 0 declined (the value is not what check_dep
 * takes), -1 failed (err set: the reader's own error, or out of memory).
 */
#define TRY(x)                                                                                                 \
        do {                                                                                                   \
                int rc_ = (x);                                                                                 \
                if (rc_ != 1)                                                                                  \
                        return rc_;                                                                            \
        } while (0)
#define CUR(x) TRY((x) ? 1 : -1)

/*
 * Does a container of count members (or PRC_DOCBIN_CUR_OPEN) have one more
 * after m of them?  1 yes, 0 no (an open one's end tag read), -1 failed.
 */
static int more(prc_docbin_cur *c, int64_t count, size_t m)
{
        bool end;

        if (count != PRC_DOCBIN_CUR_OPEN)
                return (int64_t)m < count;
        return prc_docbin_cur_end(c, &end) ? !end : -1;
}

/* A string member (or null with NULLABLE) into slot k; idx for a listed one. */
static int rd_str(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, int k, unsigned how,
                  const char *const *list, uint8_t *idx, prc_err *err)
{
        const char *s;
        size_t n;
        uint8_t tag;

        CUR(prc_docbin_cur_value(c, &tag));
        if (tag == PRC_DOCBIN_NULL && (how & NULLABLE))
                return 1;
        if (tag != PRC_DOCBIN_STRING)
                return 0;
        CUR(prc_docbin_cur_text(c, &s, &n));
        if (!str_ok(s, n, how, list, idx))
                return 0;
        if (k >= 0)
                CUR(put_str(b, d, (unsigned)k, s, n, err));
        return 1;
}

/*
 * An object of exactly the nkeys keys at depth (or null, with nullable:
 * *got false), each member read by fn in whatever order they come; a key
 * twice or unknown, or one missing, declines.
 */
typedef int (*member_fn)(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, size_t key, prc_err *err);

static int rd_object(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, uint32_t depth, bool nullable,
                     const char *const *keys, size_t nkeys, member_fn fn, bool *got, prc_err *err)
{
        uint32_t seen = 0;
        size_t hint = 0;
        int64_t count;
        uint8_t tag;
        bool open;

        *got = false;
        CUR(prc_docbin_cur_value(c, &tag));
        if (tag == PRC_DOCBIN_NULL && nullable)
                return 1;
        if (tag != PRC_DOCBIN_OBJECT && tag != PRC_DOCBIN_OBJECT_OPEN)
                return 0;
        CUR(prc_docbin_cur_container(c, tag, depth, &count));
        open = count == PRC_DOCBIN_CUR_OPEN;
        for (size_t m = 0;; m++) {
                const char *k;
                size_t klen, key;
                int rc = more(c, count, m);
                if (rc <= 0) {
                        if (rc < 0)
                                return -1;
                        break;
                }
                CUR(prc_docbin_cur_key(c, open, m, &k, &klen));
                key = klen > 0 ? key_index(keys, nkeys, k, klen, hint) : nkeys;
                hint = key + 1;
                if (key == nkeys || (seen & (1u << key)))
                        return 0;
                seen |= 1u << key;
                TRY(fn(b, c, d, i, key, err));
        }
        *got = true;
        return seen == (1u << nkeys) - 1 ? 1 : 0;
}

static int source_member(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, size_t key, prc_err *err)
{
        (void)i;
        switch (key) {
        case PRC_MD_SK_TYPE: return rd_str(b, c, d, -1, 0, prc_md_source_types, &d->source, err);
        case PRC_MD_SK_URL: return rd_str(b, c, d, PRC_MDP_SRC_URL, NULLABLE, NULL, NULL, err);
        case PRC_MD_SK_REF: return rd_str(b, c, d, PRC_MDP_SRC_REF, NULLABLE, NULL, NULL, err);
        default: return rd_str(b, c, d, PRC_MDP_SRC_COMMIT, NULLABLE, NULL, NULL, err);
        }
}

static int integrity_member(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, size_t key, prc_err *err)
{
        (void)i;
        return rd_str(b, c, d, key == PRC_MD_IK_ALGORITHM ? PRC_MDP_INTEG_ALG : PRC_MDP_INTEG_VALUE, NONEMPTY, NULL, NULL,
                      err);
}

static int rd_edges(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, prc_err *err)
{
        int64_t count, x;
        uint8_t tag;

        CUR(prc_docbin_cur_value(c, &tag));
        if (tag == PRC_DOCBIN_NULL)
                return 1;
        if (tag != PRC_DOCBIN_ARRAY && tag != PRC_DOCBIN_ARRAY_OPEN)
                return 0;
        CUR(prc_docbin_cur_container(c, tag, 3, &count));
        d->edges_n = 0;
        d->edges_off = (uint32_t)(b->edges.len / sizeof(uint32_t));
        for (size_t m = 0;; m++) {
                int rc = more(c, count, m);
                if (rc <= 0) {
                        if (rc < 0)
                                return -1;
                        break;
                }
                CUR(prc_docbin_cur_value(c, &tag));
                if (tag != PRC_DOCBIN_INT)
                        return 0;
                CUR(prc_docbin_cur_i64(c, &x));
                if (!edge_ok(b, d, i, x))
                        return 0;
                CUR(put_edge(b, d, x, err));
        }
        return 1;
}

static int dep_member(prc_mdp_packer *b, prc_docbin_cur *c, prc_mdp_dep *d, size_t i, size_t key, prc_err *err)
{
        uint8_t tag;
        int64_t x;
        bool got;

        switch (key) {
        case PRC_MD_DK_NAME: return rd_str(b, c, d, PRC_MDP_NAME, NONEMPTY, NULL, NULL, err);
        case PRC_MD_DK_REQUIREMENT: return rd_str(b, c, d, PRC_MDP_REQUIREMENT, NULLABLE, NULL, NULL, err);
        case PRC_MD_DK_RESOLVED: return rd_str(b, c, d, PRC_MDP_RESOLVED, NULLABLE, NULL, NULL, err);
        case PRC_MD_DK_SCOPE: return rd_str(b, c, d, -1, 0, prc_md_scopes, &d->scope, err);
        case PRC_MD_DK_GROUP: return rd_str(b, c, d, PRC_MDP_GROUP, NULLABLE, NULL, NULL, err);
        case PRC_MD_DK_PURL:
                TRY(rd_str(b, c, d, PRC_MDP_PURL, NULLABLE, NULL, NULL, err));
                return purl_ok(b->pool.data, d) ? 1 : 0;
        case PRC_MD_DK_DIRECT:
                CUR(prc_docbin_cur_value(c, &tag));
                if (tag != PRC_DOCBIN_TRUE && tag != PRC_DOCBIN_FALSE)
                        return 0;
                d->direct = tag == PRC_DOCBIN_TRUE;
                return 1;
        case PRC_MD_DK_LINE:
                CUR(prc_docbin_cur_value(c, &tag));
                if (tag == PRC_DOCBIN_NULL)
                        return 1;
                if (tag != PRC_DOCBIN_INT)
                        return 0;
                CUR(prc_docbin_cur_i64(c, &x));
                if (x < 1 || x > (int64_t)UINT32_MAX)
                        return 0;
                d->line = (uint32_t)x;
                return 1;
        case PRC_MD_DK_SOURCE: return rd_object(b, c, d, i, 3, false, prc_md_source_keys, PRC_MD_SK_N, source_member, &got, err);
        case PRC_MD_DK_INTEGRITY:
                TRY(rd_object(b, c, d, i, 3, true, prc_md_integrity_keys, PRC_MD_IK_N, integrity_member, &got, err));
                d->integrity = got;
                return 1;
        default: return rd_edges(b, c, d, i, err);
        }
}

/* The dependencies array (its tag read) at the cursor into b. */
static int rd_deps(prc_mdp_packer *b, prc_docbin_cur *c, uint8_t tag, prc_err *err)
{
        int64_t count;
        bool got;

        if (tag != PRC_DOCBIN_ARRAY && tag != PRC_DOCBIN_ARRAY_OPEN)
                return 0;
        CUR(prc_docbin_cur_container(c, tag, 1, &count));
        if (count > (int64_t)PRC_MD_DEPS_MAX)
                return 0;
        for (size_t i = 0;; i++) {
                prc_mdp_dep d;
                int rc = more(c, count, i);
                if (rc <= 0) {
                        if (rc < 0)
                                return -1;
                        break;
                }
                if (i >= PRC_MD_DEPS_MAX)       /* an open array: counted ones are refused above */
                        return 0;
                dep_init(&d);
                TRY(rd_object(b, c, &d, i, 2, false, prc_md_dep_keys, PRC_MD_DK_N, dep_member, &got, err));
                CUR(prc_buf_put(&b->recs, &d, sizeof(d), err));
                b->ndeps++;
        }
        return 1;
}

/* Every edge names a dependency of the document (check_edges' last rule, known only now). */
static bool edges_in_range(const prc_mdp_packer *b)
{
        for (size_t e = 0; e < b->edges.len / sizeof(uint32_t); e++) {
                uint32_t x;
                memcpy(&x, b->edges.data + e * sizeof(x), sizeof(x));
                if (x >= b->ndeps)
                        return false;
        }
        return true;
}

bool prc_mdp_hook_read(void *ctx, prc_docbin_cur *cur, json_t **out, prc_err *err)
{
        prc_mdp_hook_ctx *hc = ctx;
        prc_mdp_packer b;
        uint8_t tag;
        int rc;

        hc->made = NULL;
        if (!prc_docbin_cur_value(cur, &tag))
                return false;
        if (tag == PRC_DOCBIN_BLOB) {
                /* The worker's own table (prc_mdp_pack_checked): taken only when every rule holds. */
                const uint8_t *p;
                const char *why;
                size_t n, off, at;
                if (!prc_docbin_cur_blob(cur, &p, &n, &off))
                        return false;
                why = prc_mdp_table_check(p, n, &at);
                if (why != NULL)
                        return prc_err_at(err, PRC_E_INVALID_FRAME, off + at, "the dependency table: %s", why);
                *out = json_stringn_nocheck((const char *)p, n);
                if (*out == NULL)
                        return prc_err_oom(err, "a dependency table");
                hc->made = *out;
                return true;
        }
        rc = pk_init(&b, err) ? rd_deps(&b, cur, tag, err) : -1;
        if (rc == 1 && edges_in_range(&b)) {
                *out = pk_finish(&b);
                if (*out == NULL)
                        prc_err_oom(err, "a dependency table");
                hc->made = *out;
        }
        prc_mdp_packer_clear(&b);
        return hc->made != NULL;
}

/* ---- The worker's side: a checked tree's dependencies as a table, to send as a blob. ---- */

/* A string member of a tree as rd_str takes one off the reply: 1 taken, 0 not what check_dep takes, -1 failed. */
static int tree_chk_str(prc_mdp_packer *b, prc_mdp_dep *d, int k, const json_t *v, unsigned how, const char *const *list,
                        uint8_t *idx, prc_err *err)
{
        const char *s;
        size_t n;

        if (json_is_null(v) && (how & NULLABLE))
                return 1;
        if (!json_is_string(v))
                return 0;
        s = json_string_value(v);
        n = json_string_length(v);
        if (!str_ok(s, n, how, list, idx) ||
            (!prc_docbin_text_plain((const uint8_t *)s, n) && !prc_utf8_valid((const uint8_t *)s, n, NULL)))
                return 0;
        return k < 0 || put_str(b, d, (unsigned)k, s, n, err) ? 1 : -1;
}

static int tree_chk_source(prc_mdp_packer *b, prc_mdp_dep *d, const json_t *v, prc_err *err)
{
        static const int slot[] = { -1, PRC_MDP_SRC_URL, PRC_MDP_SRC_REF, PRC_MDP_SRC_COMMIT };

        if (!json_is_object(v) || json_object_size(v) != PRC_MD_SK_N)
                return 0;
        for (void *it = json_object_iter((json_t *)v); it != NULL; it = json_object_iter_next((json_t *)v, it)) {
                size_t key = key_index(prc_md_source_keys, PRC_MD_SK_N, json_object_iter_key(it),
                                       json_object_iter_key_len(it), 0);
                json_t *x = json_object_iter_value(it);
                if (key == PRC_MD_SK_N)
                        return 0;
                TRY(tree_chk_str(b, d, slot[key], x, key == PRC_MD_SK_TYPE ? 0 : NULLABLE,
                                 key == PRC_MD_SK_TYPE ? prc_md_source_types : NULL, &d->source, err));
        }
        return 1;
}

static int tree_chk_integrity(prc_mdp_packer *b, prc_mdp_dep *d, const json_t *v, prc_err *err)
{
        if (json_is_null(v))
                return 1;
        if (!json_is_object(v) || json_object_size(v) != PRC_MD_IK_N)
                return 0;
        for (void *it = json_object_iter((json_t *)v); it != NULL; it = json_object_iter_next((json_t *)v, it)) {
                size_t key = key_index(prc_md_integrity_keys, PRC_MD_IK_N, json_object_iter_key(it),
                                       json_object_iter_key_len(it), 0);
                json_t *x = json_object_iter_value(it);
                if (key == PRC_MD_IK_N)
                        return 0;
                TRY(tree_chk_str(b, d, key == PRC_MD_IK_ALGORITHM ? PRC_MDP_INTEG_ALG : PRC_MDP_INTEG_VALUE, x,
                                 NONEMPTY, NULL, NULL, err));
        }
        d->integrity = 1;
        return 1;
}

static int tree_chk_edges(prc_mdp_packer *b, prc_mdp_dep *d, size_t i, const json_t *v, prc_err *err)
{
        json_t *x;
        size_t e;

        if (json_is_null(v))
                return 1;
        if (!json_is_array(v))
                return 0;
        d->edges_n = 0;
        d->edges_off = (uint32_t)(b->edges.len / sizeof(uint32_t));
        json_array_foreach(v, e, x) {
                if (!json_is_integer(x) || !edge_ok(b, d, i, json_integer_value(x)))
                        return 0;
                CUR(put_edge(b, d, json_integer_value(x), err));
        }
        return 1;
}

/* Dependency i of a tree: exactly the members check_dep takes, in any order. */
static int tree_chk_dep(prc_mdp_packer *b, const json_t *dep, size_t i, prc_err *err)
{
        prc_mdp_dep d;
        size_t key = PRC_MD_DK_N;
        json_int_t line;

        if (!json_is_object(dep) || json_object_size(dep) != PRC_MD_DK_N)
                return 0;
        dep_init(&d);
        /* The iterator itself (keys with their lengths); the key after the last is tried first (key_index). */
        for (void *it = json_object_iter((json_t *)dep); it != NULL; it = json_object_iter_next((json_t *)dep, it)) {
                const json_t *v = json_object_iter_value(it);
                key = key_index(prc_md_dep_keys, PRC_MD_DK_N, json_object_iter_key(it), json_object_iter_key_len(it),
                                key + 1);
                switch (key) {
                case PRC_MD_DK_NAME: TRY(tree_chk_str(b, &d, PRC_MDP_NAME, v, NONEMPTY, NULL, NULL, err)); break;
                case PRC_MD_DK_REQUIREMENT:
                        TRY(tree_chk_str(b, &d, PRC_MDP_REQUIREMENT, v, NULLABLE, NULL, NULL, err));
                        break;
                case PRC_MD_DK_RESOLVED:
                        TRY(tree_chk_str(b, &d, PRC_MDP_RESOLVED, v, NULLABLE, NULL, NULL, err));
                        break;
                case PRC_MD_DK_SCOPE: TRY(tree_chk_str(b, &d, -1, v, 0, prc_md_scopes, &d.scope, err)); break;
                case PRC_MD_DK_GROUP: TRY(tree_chk_str(b, &d, PRC_MDP_GROUP, v, NULLABLE, NULL, NULL, err)); break;
                case PRC_MD_DK_PURL:
                        TRY(tree_chk_str(b, &d, PRC_MDP_PURL, v, NULLABLE, NULL, NULL, err));
                        if (!purl_ok(b->pool.data, &d))
                                return 0;
                        break;
                case PRC_MD_DK_DIRECT:
                        if (!json_is_boolean(v))
                                return 0;
                        d.direct = json_is_true(v);
                        break;
                case PRC_MD_DK_LINE:
                        if (json_is_null(v))
                                break;
                        line = json_is_integer(v) ? json_integer_value(v) : 0;
                        if (line < 1 || line > (json_int_t)UINT32_MAX)
                                return 0;
                        d.line = (uint32_t)line;
                        break;
                case PRC_MD_DK_SOURCE: TRY(tree_chk_source(b, &d, v, err)); break;
                case PRC_MD_DK_INTEGRITY: TRY(tree_chk_integrity(b, &d, v, err)); break;
                case PRC_MD_DK_DEPENDS_ON: TRY(tree_chk_edges(b, &d, i, v, err)); break;
                default: return 0;
                }
        }
        CUR(prc_buf_put(&b->recs, &d, sizeof(d), err));
        b->ndeps++;
        return 1;
}

static size_t list_len(const char *const *list);

/* Row i's string in slot k, in the order tree_chk_dep meets it: 1 taken, 0 not what check_dep takes, -1 failed. */
static int row_chk_str(prc_mdp_packer *b, prc_mdp_dep *out, const prc_mdp_dep *d, const char *pool, unsigned k,
                       unsigned how, prc_err *err)
{
        const char *s;

        if (d->str[k] == PRC_MDP_NULL)
                return (how & NULLABLE) ? 1 : 0;
        s = pool + d->str[k];
        if (!str_ok(s, d->len[k], how, NULL, NULL) ||
            (!prc_docbin_text_plain((const uint8_t *)s, d->len[k]) &&
             !prc_utf8_valid((const uint8_t *)s, d->len[k], NULL)))
                return 0;
        return put_str(b, out, k, s, d->len[k], err) ? 1 : -1;
}

int prc_mdp_pack_rows(prc_mdp_packer *b, const prc_mdp_rows *r, prc_err *err)
{
        static const struct {
                unsigned k, how;
        } order[] = {
                /* a row's members in the order the tree holds them (prc_md_add_dep_rr), source's and integrity's */
                { PRC_MDP_NAME, NONEMPTY },          { PRC_MDP_REQUIREMENT, NULLABLE },
                { PRC_MDP_RESOLVED, NULLABLE },      { PRC_MDP_SRC_URL, NULLABLE },
                { PRC_MDP_SRC_REF, NULLABLE },       { PRC_MDP_SRC_COMMIT, NULLABLE },
                { PRC_MDP_INTEG_ALG, NONEMPTY },     { PRC_MDP_INTEG_VALUE, NONEMPTY },
                { PRC_MDP_PURL, NULLABLE },          { PRC_MDP_GROUP, NULLABLE },
        };
        size_t nscopes = list_len(prc_md_scopes), ntypes = list_len(prc_md_source_types);

        if (r->ndeps > PRC_MD_DEPS_MAX)
                return 0;
        if (!pk_start(b, err))
                return -1;
        for (size_t i = 0; i < r->ndeps; i++) {
                const prc_mdp_dep *d = &r->deps[i];
                prc_mdp_dep rec;

                if (d->scope >= nscopes || d->source >= ntypes || d->direct > 1 || d->integrity > 1)
                        return 0;
                dep_init(&rec);
                rec.scope = d->scope;
                rec.source = d->source;
                rec.direct = d->direct;
                rec.integrity = d->integrity;
                rec.line = d->line;
                for (size_t j = 0; j < PRC_ARRAY_LEN(order); j++) {
                        unsigned k = order[j].k, how = order[j].how;
                        /* integrity's strings are there with the integrity, null without it */
                        if ((k == PRC_MDP_INTEG_ALG || k == PRC_MDP_INTEG_VALUE) &&
                            (d->integrity == 0) != (d->str[k] == PRC_MDP_NULL))
                                return 0;
                        if ((k == PRC_MDP_INTEG_ALG || k == PRC_MDP_INTEG_VALUE) && d->integrity == 0)
                                continue;
                        TRY(row_chk_str(b, &rec, d, r->pool, k, how, err));
                }
                if (!purl_ok(b->pool.data, &rec))
                        return 0;
                if (r->edge_first != NULL) {
                        rec.edges_n = 0;
                        rec.edges_off = (uint32_t)(b->edges.len / sizeof(uint32_t));
                        for (uint32_t e = r->edge_first[i]; e < r->edge_first[i + 1]; e++) {
                                if (!edge_ok(b, &rec, i, r->edges[e]))
                                        return 0;
                                CUR(put_edge(b, &rec, r->edges[e], err));
                        }
                }
                CUR(prc_buf_put(&b->recs, &rec, sizeof(rec), err));
                b->ndeps++;
        }
        if (!edges_in_range(b))
                return 0;
        return pk_close(b) ? 1 : (prc_err_oom(err, "a dependency table"), -1);
}

int prc_mdp_pack(prc_mdp_packer *b, const json_t *deps, prc_err *err)
{
        const json_t *dep;
        int rc = 1;
        size_t i;

        if (!json_is_array(deps) || json_array_size(deps) > PRC_MD_DEPS_MAX)
                return 0;
        if (!pk_start(b, err))
                return -1;
        json_array_foreach(deps, i, dep)
                if ((rc = tree_chk_dep(b, dep, i, err)) != 1)
                        return rc;
        if (!edges_in_range(b))
                return 0;
        return pk_close(b) ? 1 : (prc_err_oom(err, "a dependency table"), -1);
}

json_t *prc_mdp_pack_checked(const json_t *deps, prc_err *err)
{
        prc_mdp_packer b;
        json_t *v = NULL;

        prc_mdp_packer_init(&b);
        if (prc_mdp_pack(&b, deps, err) == 1) {
                v = json_stringn_nocheck((const char *)b.pool.data, b.pool.len);
                if (v == NULL)
                        prc_err_oom(err, "a dependency table");
        }
        prc_mdp_packer_clear(&b);
        return v;
}

json_t *prc_mdp_from_tree(const json_t *deps)
{
        prc_err err;

        /* A tree prc_mdoc_check accepted is one the checked packer packs (fuzz/fuzz_mdoc_pack.c holds them together). */
        prc_err_init(&err);
        return prc_mdp_pack_checked(deps, &err);
}

/* ---- A table the worker sent (protocol version 7): checked whole before it is taken. ---- */

static size_t list_len(const char *const *list)
{
        size_t n = 0;

        while (list[n] != NULL)
                n++;
        return n;
}

/*
 * One string of a table: valid UTF-8 without NUL, at most PRC_MD_STR_MAX
 * bytes, starting where the one before it ended (*next) and followed by its
 * NUL inside the string area (below recs_off).
 */
static const char *table_str(const uint8_t *p, uint32_t recs_off, uint32_t off, uint32_t len, size_t *next)
{
        if (off != *next)
                return "a string not right after the one before it (or overlapping it)";
        if (len > PRC_MD_STR_MAX)
                return "a string longer than the ManifestDoc allows";
        if ((uint64_t)off + len + 1 > recs_off)
                return "a string past the string area";
        if (p[off + len] != 0)
                return "a string without its NUL, or with one inside";
        if (!prc_docbin_text_plain(p + off, len)) {
                if (memchr(p + off, 0, len) != NULL)
                        return "a string without its NUL, or with one inside";
                if (!prc_utf8_valid(p + off, len, NULL))
                        return "a string that is not valid UTF-8";
        }
        *next = (size_t)off + len + 1;
        return NULL;
}

/* Dependency i's record (at rec): every rule check_dep and check_edges apply, and the canonical layout. */
static const char *table_dep(const uint8_t *p, const prc_mdp_head *h, size_t i, const prc_mdp_dep *d, size_t *next,
                             uint32_t *next_edge)
{
        static const unsigned nonempty = 1u << PRC_MDP_NAME | 1u << PRC_MDP_INTEG_ALG | 1u << PRC_MDP_INTEG_VALUE;
        unsigned order[PRC_MDP_NSTR], n = 0;
        const char *why;

        if (d->scope >= list_len(prc_md_scopes) || d->source >= list_len(prc_md_source_types) || d->direct > 1 ||
            d->integrity > 1)
                return "a scope, source type or flag out of range";
        if (d->str[PRC_MDP_NAME] == PRC_MDP_NULL)
                return "a dependency without a name";
        if ((d->str[PRC_MDP_INTEG_ALG] != PRC_MDP_NULL) != d->integrity ||
            (d->str[PRC_MDP_INTEG_VALUE] != PRC_MDP_NULL) != d->integrity)
                return "an integrity without both its strings, or strings without an integrity";
        for (unsigned k = 0; k < PRC_MDP_NSTR; k++) {
                if (d->str[k] == PRC_MDP_NULL) {
                        if (d->len[k] != 0)
                                return "a null string with a length";
                        continue;
                }
                if (((nonempty >> k) & 1) && d->len[k] == 0)
                        return "an empty name or integrity string";
                /* In the order of their offsets (at most ten: insertion). */
                unsigned j = n++;
                while (j > 0 && d->str[order[j - 1]] > d->str[k]) {
                        order[j] = order[j - 1];
                        j--;
                }
                order[j] = k;
        }
        for (unsigned j = 0; j < n; j++)
                if ((why = table_str(p, h->recs_off, d->str[order[j]], d->len[order[j]], next)) != NULL)
                        return why;
        if (!purl_ok(p, d))
                return "a purl that does not start with pkg:";
        if (d->edges_n == PRC_MDP_NULL)
                return d->edges_off == 0 ? NULL : "a null edge list with an offset";
        if (d->edges_off != *next_edge || d->edges_n > h->nedges - *next_edge)
                return "an edge list not right after the one before it, or past the edges";
        for (uint32_t e = 0; e < d->edges_n; e++) {
                uint32_t x, prev = 0;
                memcpy(&x, p + h->edges_off + ((size_t)d->edges_off + e) * sizeof(x), sizeof(x));
                if (e > 0)
                        memcpy(&prev, p + h->edges_off + ((size_t)d->edges_off + e - 1) * sizeof(x), sizeof(x));
                if (x >= h->ndeps || x == i || (e > 0 && x <= prev))
                        return "an edge out of range, to itself, or not ascending";
        }
        *next_edge += d->edges_n;
        return NULL;
}

const char *prc_mdp_table_check(const uint8_t *p, size_t n, size_t *at)
{
        prc_mdp_head h;
        size_t next = sizeof(h);
        uint32_t next_edge = 0;
        const char *why;

        *at = 0;
        if (n < sizeof(h))
                return "shorter than its header";
        memcpy(&h, p, sizeof(h));
        if (h.magic != PRC_MDP_MAGIC || h.size != n)
                return "not a table (magic or size)";
        if (h.ndeps > PRC_MD_DEPS_MAX || h.nedges > PRC_MD_EDGES_MAX)
                return "more dependencies or edges than a ManifestDoc allows";
        if (h.recs_off < sizeof(h) || h.recs_off % 4 != 0 ||
            (uint64_t)h.recs_off + (uint64_t)h.ndeps * sizeof(prc_mdp_dep) != h.edges_off ||
            (uint64_t)h.edges_off + (uint64_t)h.nedges * sizeof(uint32_t) != n)
                return "its parts do not add up to its size";
        for (size_t i = 0; i < h.ndeps; i++) {
                prc_mdp_dep d;
                *at = h.recs_off + i * sizeof(d);
                memcpy(&d, p + *at, sizeof(d));
                if ((why = table_dep(p, &h, i, &d, &next, &next_edge)) != NULL)
                        return why;
        }
        *at = next;
        if (h.recs_off - next >= 4)
                return "bytes between the strings and the records";
        for (size_t k = next; k < h.recs_off; k++)
                if (p[k] != 0)
                        return "padding that is not zero";
        *at = h.edges_off;
        return next_edge == h.nedges ? NULL : "edges no dependency holds";
}

/* ---- Reading a table. ---- */

bool prc_mdp_view(const json_t *v, prc_mdp *out)
{
        prc_mdp_head h;
        const uint8_t *p;
        size_t n;

        if (!json_is_string(v))
                return false;
        p = (const uint8_t *)json_string_value(v);
        n = json_string_length(v);
        if (n < sizeof(h) || (uintptr_t)p % _Alignof(prc_mdp_dep) != 0)
                return false;
        memcpy(&h, p, sizeof(h));
        if (h.magic != PRC_MDP_MAGIC || h.size != n || h.recs_off < sizeof(h) || h.recs_off % 4 != 0 ||
            (uint64_t)h.recs_off + (uint64_t)h.ndeps * sizeof(prc_mdp_dep) != h.edges_off ||
            (uint64_t)h.edges_off + (uint64_t)h.nedges * sizeof(uint32_t) != n)
                return false;
        out->base = p;
        out->deps = (const prc_mdp_dep *)(const void *)(p + h.recs_off);
        out->edges = (const uint32_t *)(const void *)(p + h.edges_off);
        out->ndeps = h.ndeps;
        return true;
}

static json_t *str_or_null(const prc_mdp *m, size_t i, unsigned k)
{
        const char *s = prc_mdp_str(m, i, k);

        return s != NULL ? json_stringn(s, m->deps[i].len[k]) : json_null();
}

json_t *prc_mdp_to_tree(const prc_mdp *m)
{
        json_t *a = json_array();

        for (size_t i = 0; a != NULL && i < m->ndeps; i++) {
                const prc_mdp_dep *d = &m->deps[i];
                json_t *edges = json_null(), *integ = json_null(), *o;

                if (d->edges_n != PRC_MDP_NULL) {
                        edges = json_array();
                        for (uint32_t e = 0; edges != NULL && e < d->edges_n; e++)
                                json_array_append_new(edges, json_integer(m->edges[d->edges_off + e]));
                }
                if (d->integrity)
                        integ = json_pack("{s:o,s:o}", "algorithm", str_or_null(m, i, PRC_MDP_INTEG_ALG), "value",
                                          str_or_null(m, i, PRC_MDP_INTEG_VALUE));
                o = json_pack("{s:o,s:o,s:o,s:s,s:b,s:{s:s,s:o,s:o,s:o},s:o,s:o,s:o,s:o,s:o}", "name",
                              str_or_null(m, i, PRC_MDP_NAME), "requirement", str_or_null(m, i, PRC_MDP_REQUIREMENT),
                              "resolved", str_or_null(m, i, PRC_MDP_RESOLVED), "scope", prc_md_scopes[d->scope],
                              "direct", d->direct, "source", "type", prc_md_source_types[d->source], "url",
                              str_or_null(m, i, PRC_MDP_SRC_URL), "ref", str_or_null(m, i, PRC_MDP_SRC_REF), "commit",
                              str_or_null(m, i, PRC_MDP_SRC_COMMIT), "integrity", integ, "purl",
                              str_or_null(m, i, PRC_MDP_PURL), "group", str_or_null(m, i, PRC_MDP_GROUP), "line",
                              d->line != 0 ? json_integer(d->line) : json_null(), "depends_on", edges);
                if (o == NULL || json_array_append_new(a, o) != 0) {
                        json_decref(a);
                        return NULL;
                }
        }
        return a;
}

bool prc_mdp_check(json_t *md, const json_t *made, const char *path, const char *format, bool slim,
                   bool *from_tree, prc_err *err)
{
        const json_t *deps = PRC_JGET(md, "dependencies");
        prc_mdp view;
        json_t *t;

        *from_tree = false;
        if (made != NULL && deps == made && prc_mdp_view(deps, &view))
                return slim ? prc_mdoc_check_slim(md, view.ndeps, path, format, err)
                            : prc_mdoc_check_packed(md, view.ndeps, path, format, err);
        if (!(slim ? prc_mdoc_check_slim(md, PRC_MDOC_DEPS_ARRAY, path, format, err)
                   : prc_mdoc_check(md, path, format, err)))
                return false;
        *from_tree = true;
        t = prc_mdp_from_tree(deps);
        if (t == NULL || json_object_set_new(md, "dependencies", t) != 0)
                return prc_err_oom(err, "a dependency table");
        return true;
}
