/*
 * test_mdoc_pack.c - prc sbom's dependency tables (mdoc_pack.h): read off
 * the reply by the docbin hook, they must be what the tree and
 * prc_mdoc_check give, for every document a worker may send: the same
 * verdict with the same error, and, when accepted, the same dependencies
 * and the same table bytes as packing the checked tree.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "t.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/json_strict.h"
#include "content/docenc.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"

/* One reading of encoded bytes: accepted (doc set) or the error; from_tree as prc_mdp_check says. */
struct reading {
        json_t *doc;
        prc_err err;
        bool    from_tree;
};

static void read_generic(const prc_buf *b, struct reading *r)
{
        prc_err_init(&r->err);
        r->from_tree = false;
        r->doc = prc_docbin_read(b->data, b->len, &prc_limits_default, &r->err);
        if (r->doc != NULL && !prc_mdoc_check(r->doc, NULL, NULL, &r->err)) {
                json_decref(r->doc);
                r->doc = NULL;
        }
}

static void read_packed(const prc_buf *b, struct reading *r)
{
        prc_mdp_hook_ctx hc = { 0 };
        prc_docbin_hook h = { .key = "dependencies", .read = prc_mdp_hook_read, .ctx = &hc };

        prc_err_init(&r->err);
        r->from_tree = false;
        r->doc = prc_docbin_read_stream_hook(b->data, b->len, b->len, NULL, NULL, &prc_limits_default, &h, &r->err);
        if (r->doc != NULL && !prc_mdp_check(r->doc, hc.made, NULL, NULL, false, &r->from_tree, &r->err)) {
                json_decref(r->doc);
                r->doc = NULL;
        }
}

/*
 * Both readings of b agree: the same verdict and error (class, message,
 * pointer), and an accepted document is the tree's with its dependencies
 * as a table holding the same values, byte for byte the table packed from
 * the checked tree.  Returns the packed reading's from_tree (-1: refused).
 */
static int agree(const prc_buf *b)
{
        struct reading g, k;
        prc_mdp view;
        json_t *back, *tab, *rest_g, *rest_k;
        int from_tree;

        read_generic(b, &g);
        read_packed(b, &k);
        if (g.doc == NULL || k.doc == NULL) {
                if (g.doc != NULL || k.doc != NULL)
                        t_fail(__FILE__, __LINE__, "one reading accepts, the other refuses: %s (%s) / %s (%s)",
                               prc_err_name(g.err.cls), g.err.msg, prc_err_name(k.err.cls), k.err.msg);
                json_decref(g.doc);
                json_decref(k.doc);
                T_EQ_STR(prc_err_name(k.err.cls), prc_err_name(g.err.cls));
                T_EQ_STR(k.err.msg, g.err.msg);
                T_EQ_STR(k.err.ptr, g.err.ptr);
                return -1;
        }
        T_ASSERT(prc_mdp_view(json_object_get(k.doc, "dependencies"), &view));
        back = prc_mdp_to_tree(&view);
        T_ASSERT(back != NULL);
        T_ASSERT(json_equal(back, json_object_get(g.doc, "dependencies")));
        tab = prc_mdp_from_tree(json_object_get(g.doc, "dependencies"));
        T_ASSERT(tab != NULL);
        T_EQ_MEM(json_string_value(tab), json_string_length(tab),
                 json_string_value(json_object_get(k.doc, "dependencies")),
                 json_string_length(json_object_get(k.doc, "dependencies")));
        rest_g = json_deep_copy(g.doc);
        rest_k = json_deep_copy(k.doc);
        T_ASSERT(rest_g != NULL && rest_k != NULL);
        json_object_del(rest_g, "dependencies");
        json_object_del(rest_k, "dependencies");
        T_ASSERT(json_equal(rest_g, rest_k));
        from_tree = k.from_tree;
        json_decref(rest_g);
        json_decref(rest_k);
        json_decref(back);
        json_decref(tab);
        json_decref(g.doc);
        json_decref(k.doc);
        return from_tree;
}

/* md in both spellings: each reading agrees, and each gives want (agree's value); false if one does not. */
static bool both_spellings(const json_t *md, int want)
{
        prc_buf b;
        prc_err err;
        bool ok;

        prc_err_init(&err);
        prc_buf_init(&b, (size_t)1 << 30);
        T_ASSERT(prc_docbin_write(md, &b, &err));
        ok = agree(&b) == want;
        prc_buf_reset(&b);
        T_ASSERT(prc_docbin_write_open(md, &b, &err));
        ok = agree(&b) == want && ok;
        prc_buf_clear(&b);
        return ok;
}

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        (void)last;
        return prc_buf_put(ctx, p, n, err);
}

/* md as the worker sends it with PRC_REQ_PACKED_DEPS: its dependencies as the blob of table t. */
static void blob_encode(const json_t *md, const json_t *t, prc_buf *out)
{
        prc_buf chunk;
        uint64_t sent;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&chunk, (size_t)1 << 30);
        T_ASSERT(prc_docbin_stream_blob(md, "dependencies", (const uint8_t *)json_string_value(t),
                                        json_string_length(t), &chunk, collect, out, &sent, &err));
        T_NOERR(err);
        prc_buf_clear(&chunk);
}

/*
 * The worker's side of an accepted md: prc_mdp_pack_checked packs its
 * dependencies to the bytes prc_mdp_from_tree makes, prc_mdp_table_check
 * takes them, and sent as a blob the document reads as the tree does.
 */
static void worker_table_taken(const json_t *md)
{
        const json_t *deps = json_object_get(md, "dependencies");
        json_t *t, *ft, *rest_g, *rest_k, *back;
        struct reading k;
        prc_buf b;
        prc_mdp view;
        size_t at;
        prc_err err;

        prc_err_init(&err);
        t = prc_mdp_pack_checked(deps, &err);
        T_NOERR(err);
        T_ASSERT(t != NULL);
        ft = prc_mdp_from_tree(deps);
        T_ASSERT(ft != NULL);
        T_EQ_MEM(json_string_value(t), json_string_length(t), json_string_value(ft), json_string_length(ft));
        T_ASSERT(prc_mdp_table_check((const uint8_t *)json_string_value(t), json_string_length(t), &at) == NULL);
        prc_buf_init(&b, (size_t)1 << 30);
        blob_encode(md, t, &b);
        read_packed(&b, &k);
        if (k.doc == NULL)
                t_fail(__FILE__, __LINE__, "the blob was refused: %s (%s)", prc_err_name(k.err.cls), k.err.msg);
        T_ASSERT(!k.from_tree);
        T_ASSERT(prc_mdp_view(json_object_get(k.doc, "dependencies"), &view));
        back = prc_mdp_to_tree(&view);
        T_ASSERT(back != NULL && json_equal(back, deps));
        rest_g = json_deep_copy(md);
        rest_k = json_deep_copy(k.doc);
        T_ASSERT(rest_g != NULL && rest_k != NULL);
        json_object_del(rest_g, "dependencies");
        json_object_del(rest_k, "dependencies");
        T_ASSERT(json_equal(rest_g, rest_k));
        json_decref(rest_g);
        json_decref(rest_k);
        json_decref(back);
        json_decref(k.doc);
        json_decref(t);
        json_decref(ft);
        prc_buf_clear(&b);
}

/* Both spellings of md agree, the hook took the dependencies (no tree), and the worker's table reads the same. */
static void both_spellings_taken(const json_t *md)
{
        T_ASSERT(both_spellings(md, 0));
        worker_table_taken(md);
}

/* A document with every dependency field in each of its forms. */
static json_t *fixture(void)
{
        static const char text[] =
                "{\"schema\":\"prc-manifest-doc-v1\",\"path\":\"package-lock.json\",\"format\":\"npm-package-lock\","
                "\"ecosystem\":\"npm\",\"kind\":\"lockfile\","
                "\"package\":{\"name\":\"app\",\"version\":\"1.0.0\",\"purl\":\"pkg:npm/app@1.0.0\",\"line\":1},"
                "\"dependencies\":["
                "{\"name\":\"a\",\"requirement\":\"^1\",\"resolved\":\"1.2.3\",\"scope\":\"runtime\",\"direct\":true,"
                "\"source\":{\"type\":\"registry\",\"url\":\"https://registry.npmjs.org/a/-/a-1.2.3.tgz\",\"ref\":null,"
                "\"commit\":null},\"integrity\":{\"algorithm\":\"sha512\",\"value\":\"q83vEjRWeJA=\"},"
                "\"purl\":\"pkg:npm/a@1.2.3\",\"group\":null,\"line\":7,\"depends_on\":[1,2]},"
                "{\"name\":\"@s/b\",\"requirement\":null,\"resolved\":null,\"scope\":\"dev\",\"direct\":false,"
                "\"source\":{\"type\":\"git\",\"url\":\"https://example.org/b.git\",\"ref\":\"v2\",\"commit\":\"abc\"},"
                "\"integrity\":null,\"purl\":null,\"group\":\"g\",\"line\":null,\"depends_on\":[]},"
                "{\"name\":\"c\\u00e9\",\"requirement\":\"\",\"resolved\":\"2\",\"scope\":\"test\",\"direct\":false,"
                "\"source\":{\"type\":\"workspace\",\"url\":null,\"ref\":null,\"commit\":null},"
                "\"integrity\":null,\"purl\":\"pkg:npm/c%C3%A9@2\",\"group\":null,\"line\":4294967295,"
                "\"depends_on\":null}],"
                "\"hooks\":[],\"registries\":[],\"credentials\":[],\"not_extracted\":[],"
                "\"details\":{\"lockfile_version\":3}}";
        prc_err err;
        json_t *md;

        prc_err_init(&err);
        md = prc_json_parse((const uint8_t *)text, sizeof(text) - 1, &prc_limits_default, 0, &err);
        T_NOERR(err);
        return md;
}

static void test_mdoc_pack__every_field_in_every_form_reads_as_the_tree(void)
{
        json_t *md = fixture();
        prc_mdp view;
        json_t *tab;

        T_ASSERT(prc_mdoc_check(md, NULL, NULL, &(prc_err){ 0 }));
        both_spellings_taken(md);
        /* the table's own view of the fixture */
        tab = prc_mdp_from_tree(json_object_get(md, "dependencies"));
        T_ASSERT(tab != NULL && prc_mdp_view(tab, &view));
        T_EQ_INT(view.ndeps, 3);
        T_EQ_STR(prc_mdp_str(&view, 0, PRC_MDP_INTEG_VALUE), "q83vEjRWeJA=");
        T_ASSERT(prc_mdp_str(&view, 1, PRC_MDP_PURL) == NULL);
        T_EQ_STR(prc_mdp_str(&view, 1, PRC_MDP_SRC_COMMIT), "abc");
        T_EQ_STR(prc_md_scopes[view.deps[2].scope], "test");
        T_EQ_INT(view.deps[2].line, 4294967295u);
        T_EQ_INT(view.deps[0].edges_n, 2);
        T_EQ_INT(view.edges[view.deps[0].edges_off + 1], 2);
        T_EQ_INT(view.deps[1].edges_n, 0);
        T_EQ_INT(view.deps[2].edges_n, PRC_MDP_NULL);
        json_decref(tab);
        json_decref(md);
}

/* md with dependency 0's member key set to the JSON value text (NULL: removed); both readings must refuse alike. */
static void refused_alike(const char *key, const char *text, bool in_source)
{
        json_t *md = fixture(), *dep = json_array_get(json_object_get(md, "dependencies"), 0);
        json_t *where = in_source ? json_object_get(dep, "source") : dep;
        prc_err err;

        prc_err_init(&err);
        if (text == NULL) {
                json_object_del(where, key);
        } else {
                json_t *v = prc_json_parse((const uint8_t *)text, strlen(text), &prc_limits_default,
                                           PRC_JSON_ALLOW_NUL | PRC_JSON_ALLOW_FLOAT, &err);
                T_NOERR(err);
                json_object_set_new(where, key, v);
        }
        if (!both_spellings(md, -1))
                t_fail(__FILE__, __LINE__, "dependency member %s = %s was accepted", key, text ? text : "(removed)");
        /* The worker's packer declines it too (and sends the tree, which the client names). */
        if (prc_mdp_pack_checked(json_object_get(md, "dependencies"), &err) != NULL || prc_err_is_set(&err))
                t_fail(__FILE__, __LINE__, "dependency member %s = %s was packed", key, text ? text : "(removed)");
        json_decref(md);
}

/* The fixture's table with one change made by bend; prc_mdp_table_check and the client's reading refuse it. */
typedef void (*bend_fn)(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d);

static void bent_table_refused(const char *what, bend_fn bend)
{
        json_t *md = fixture(), *t;
        prc_mdp_head h;
        prc_mdp_dep d[3];
        struct reading k;
        uint8_t *p;
        size_t n, at, recs;
        prc_buf b;
        prc_err err;

        prc_err_init(&err);
        t = prc_mdp_pack_checked(json_object_get(md, "dependencies"), &err);
        T_ASSERT(t != NULL);
        n = json_string_length(t);
        p = malloc(n);
        T_ASSERT(p != NULL);
        memcpy(p, json_string_value(t), n);
        memcpy(&h, p, sizeof(h));
        recs = h.recs_off;
        T_EQ_INT(h.ndeps, 3);
        memcpy(d, p + recs, sizeof(d));
        bend(p, &h, d);
        memcpy(p + recs, d, sizeof(d));
        memcpy(p, &h, sizeof(h));
        if (prc_mdp_table_check(p, n, &at) == NULL)
                t_fail(__FILE__, __LINE__, "%s: the table was taken", what);
        json_decref(t);
        t = json_stringn_nocheck((const char *)p, n);
        prc_buf_init(&b, (size_t)1 << 30);
        blob_encode(md, t, &b);
        read_packed(&b, &k);
        T_ASSERT(k.doc == NULL);
        T_ERR(k.err, PRC_E_INVALID_FRAME);
        T_ASSERT(strncmp(k.err.msg, "the dependency table: ", 22) == 0);
        prc_buf_clear(&b);
        json_decref(t);
        json_decref(md);
        free(p);
}

/* The fixture table's string of dependency i in slot k, as a pointer into p. */
static uint8_t *slot(uint8_t *p, const prc_mdp_dep *d, size_t i, unsigned k)
{
        return p + d[i].str[k];
}

static void b_magic(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)d; h->magic ^= 1; }
static void b_size(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)d; h->size--; }
static void b_ndeps(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)d; h->ndeps++; }
static void b_nedges(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)d; h->nedges--; }
static void b_recs(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)d; h->recs_off += 4; }
static void b_scope(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[1].scope = 200; }
static void b_source(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[2].source = 200; }
static void b_direct(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[0].direct = 2; }
static void b_integ(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[0].integrity = 0; }
static void b_integ2(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[1].integrity = 1; }
static void b_noname(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d)
{
        (void)p;
        (void)h;
        d[2].str[PRC_MDP_NAME] = PRC_MDP_NULL;
        d[2].len[PRC_MDP_NAME] = 0;
}
static void b_nulllen(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[1].len[PRC_MDP_PURL] = 3; }
static void b_alias(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d)
{
        (void)p;
        (void)h;
        d[1].str[PRC_MDP_GROUP] = d[0].str[PRC_MDP_NAME];       /* "g" and "a": one byte each */
}
static void b_longer(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[1].len[PRC_MDP_GROUP]++; }
static void b_nul(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)h; slot(p, d, 0, PRC_MDP_PURL)[5] = 0; }
static void b_utf8(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)h; slot(p, d, 0, PRC_MDP_PURL)[5] = 0xff; }
static void b_purl(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)h; slot(p, d, 0, PRC_MDP_PURL)[0] = 'q'; }
static void b_empty(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d)
{
        (void)h;
        /* dependency 0's algorithm "sha512" made empty: its NUL moved, the bytes after it no longer a string */
        slot(p, d, 0, PRC_MDP_INTEG_ALG)[0] = 0;
        d[0].len[PRC_MDP_INTEG_ALG] = 0;
}
static void edge(uint8_t *p, const prc_mdp_head *h, size_t e, uint32_t v) { memcpy(p + h->edges_off + 4 * e, &v, 4); }
static void b_self(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)d; edge(p, h, 0, 0); }
static void b_order(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)d; edge(p, h, 1, 1); }
static void b_range(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)d; edge(p, h, 1, 3); }
static void b_nulloff(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[2].edges_off = 1; }
static void b_edgeoff(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[1].edges_off = 0; }
static void b_edgen(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d) { (void)p; (void)h; d[0].edges_n = 1; }
static void b_pad(uint8_t *p, prc_mdp_head *h, prc_mdp_dep *d)
{
        (void)d;
        /* The string area ends with padding or a NUL: either way that byte is no longer zero. */
        p[h->recs_off - 1] = 'x';
}

/*
 * A table the worker sends is taken only when every rule of check_dep and
 * check_edges holds and its layout is the one the worker's packer makes:
 * one change of each kind is refused, by prc_mdp_table_check and by the
 * client's reading of a reply (invalid-frame, "the dependency table: ...").
 */
static void test_mdoc_pack__a_worker_table_breaking_any_rule_is_refused(void)
{
        static const struct {
                const char *what;
                bend_fn     fn;
        } bends[] = {
                { "magic", b_magic },           { "size", b_size },
                { "dependency count", b_ndeps }, { "edge count", b_nedges },
                { "records offset", b_recs },   { "scope", b_scope },
                { "source type", b_source },    { "direct", b_direct },
                { "integrity flag off", b_integ }, { "integrity flag on", b_integ2 },
                { "no name", b_noname },        { "a null string's length", b_nulllen },
                { "aliased strings", b_alias }, { "a string over its NUL", b_longer },
                { "NUL in a string", b_nul },   { "invalid UTF-8", b_utf8 },
                { "purl prefix", b_purl },      { "empty algorithm", b_empty },
                { "edge to itself", b_self },   { "edges not ascending", b_order },
                { "edge out of range", b_range }, { "null edge list's offset", b_nulloff },
                { "edge list offset", b_edgeoff }, { "edge count of a list", b_edgen },
                { "padding", b_pad },
        };
        json_t *md = fixture(), *t;
        size_t at;
        prc_err err;

        /* The unbent table is taken. */
        prc_err_init(&err);
        t = prc_mdp_pack_checked(json_object_get(md, "dependencies"), &err);
        T_ASSERT(t != NULL);
        T_ASSERT(prc_mdp_table_check((const uint8_t *)json_string_value(t), json_string_length(t), &at) == NULL);
        json_decref(t);
        json_decref(md);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bends); i++)
                bent_table_refused(bends[i].what, bends[i].fn);
}

static void test_mdoc_pack__every_rule_of_check_dep_refuses_alike(void)
{
        char long_name[PRC_MD_STR_MAX + 8];

        refused_alike("name", "\"\"", false);
        refused_alike("name", "null", false);
        refused_alike("name", NULL, false);
        refused_alike("requirement", "1", false);
        refused_alike("resolved", "[]", false);
        refused_alike("scope", "\"prod\"", false);
        refused_alike("scope", "null", false);
        refused_alike("direct", "null", false);
        refused_alike("direct", "1", false);
        refused_alike("purl", "\"npm/a@1\"", false);
        refused_alike("purl", "\"pkg\"", false);
        refused_alike("group", "false", false);
        refused_alike("line", "0", false);
        refused_alike("line", "4294967296", false);
        refused_alike("line", "1.5", false);
        refused_alike("line", "\"7\"", false);
        refused_alike("depends_on", "[0]", false);             /* itself */
        refused_alike("depends_on", "[2,1]", false);           /* not ascending */
        refused_alike("depends_on", "[1,1]", false);           /* not unique */
        refused_alike("depends_on", "[3]", false);             /* no such dependency */
        refused_alike("depends_on", "[-1]", false);
        refused_alike("depends_on", "[\"1\"]", false);
        refused_alike("depends_on", "{}", false);
        refused_alike("integrity", "{\"algorithm\":\"sha1\"}", false);
        refused_alike("integrity", "{\"algorithm\":\"\",\"value\":\"x\"}", false);
        refused_alike("integrity", "{\"algorithm\":\"sha1\",\"value\":\"x\",\"extra\":1}", false);
        refused_alike("integrity", "\"sha1-x\"", false);
        refused_alike("source", "null", false);
        refused_alike("type", "\"svn\"", true);
        refused_alike("url", "7", true);
        refused_alike("commit", NULL, true);
        refused_alike("extra", "1", true);
        refused_alike("extra", "null", false);
        refused_alike("name", "\"a\\u0000b\"", false);
        memset(long_name, 'x', sizeof(long_name));
        long_name[0] = '"';
        long_name[PRC_MD_STR_MAX + 2] = '"';
        long_name[PRC_MD_STR_MAX + 3] = 0;
        refused_alike("name", long_name, false);
}

/* The fixture's dependency 0 with its name set to n raw bytes (jansson takes them unchecked); packed or not. */
static bool packs_with_name(const char *name, size_t n)
{
        json_t *md = fixture(), *deps = json_object_get(md, "dependencies"), *t;
        prc_err err;
        bool packed;

        prc_err_init(&err);
        T_ASSERT(json_object_set_new_nocheck(json_array_get(deps, 0), "name", json_stringn_nocheck(name, n)) == 0);
        t = prc_mdp_pack_checked(deps, &err);
        T_NOERR(err);
        packed = t != NULL;
        json_decref(t);
        json_decref(md);
        return packed;
}

/*
 * The worker's packer checks a string a word at a time first: a bad byte
 * (not UTF-8, or NUL) in any place of the word loop or of its tail is
 * declined, as the client's own check would refuse it; text outside ASCII
 * that is valid UTF-8 is taken.  A member key that only starts as one of
 * the schema's ("name" and a NUL) is no such key.
 */
static void test_mdoc_pack__the_packer_declines_a_bad_byte_anywhere(void)
{
        char name[21];
        json_t *md, *dep;
        prc_err err;

        for (size_t at = 0; at < sizeof(name); at++) {
                memset(name, 'n', sizeof(name));
                T_ASSERT(packs_with_name(name, sizeof(name)));
                name[at] = (char)0xff;
                if (packs_with_name(name, sizeof(name)))
                        t_fail(__FILE__, __LINE__, "0xff at byte %zu was packed", at);
                name[at] = 0;
                if (packs_with_name(name, sizeof(name)))
                        t_fail(__FILE__, __LINE__, "NUL at byte %zu was packed", at);
                if (at + 1 < sizeof(name)) {
                        memcpy(name + at, "\xc3\xa9", 2);        /* U+00E9 */
                        if (!packs_with_name(name, sizeof(name)))
                                t_fail(__FILE__, __LINE__, "U+00E9 at byte %zu was declined", at);
                }
        }
        md = fixture();
        dep = json_array_get(json_object_get(md, "dependencies"), 0);
        prc_err_init(&err);
        T_ASSERT(json_object_del(dep, "name") == 0);
        T_ASSERT(json_object_setn_new_nocheck(dep, "name\0", 5, json_string("a")) == 0);
        T_ASSERT(prc_mdp_pack_checked(json_object_get(md, "dependencies"), &err) == NULL);
        T_NOERR(err);
        json_decref(md);
}

/*
 * A worker that sends a string shaped like a table (the very bytes the
 * parent would make) is refused: a table is only ever the value the hook
 * made, and the schema wants an array.
 */
static void test_mdoc_pack__a_table_sent_by_the_worker_is_refused(void)
{
        json_t *md = fixture(), *none = json_array(), *tab = prc_mdp_from_tree(none);
        struct reading k;
        prc_mdp view;
        uint8_t *at;
        prc_buf b;
        prc_err err;

        /* the table of no dependencies: its header alone, all bytes below 0x80, so valid UTF-8 as a string */
        T_ASSERT(tab != NULL && prc_mdp_view(tab, &view) && json_string_length(tab) == sizeof(prc_mdp_head));
        for (size_t i = 0; i < sizeof(prc_mdp_head); i++)
                T_ASSERT((uint8_t)json_string_value(tab)[i] < 0x80);
        json_object_set_new(md, "dependencies", json_string("@@@@@@@@@@@@@@@@@@@@@@@@"));
        prc_err_init(&err);
        prc_buf_init(&b, (size_t)1 << 30);
        T_ASSERT(prc_docbin_write(md, &b, &err));
        _Static_assert(sizeof(prc_mdp_head) == 24, "the placeholder above has the header's length");
        at = memmem(b.data, b.len, "@@@@@@@@@@@@@@@@@@@@@@@@", 24);
        T_ASSERT(at != NULL);
        memcpy(at, json_string_value(tab), 24);
        read_packed(&b, &k);
        T_ASSERT(k.doc == NULL);
        T_ERR(k.err, PRC_E_MANIFEST_DOC_INVALID);
        T_EQ_STR(k.err.ptr, "/dependencies");
        T_EQ_INT(agree(&b), -1);
        prc_buf_clear(&b);
        json_decref(tab);
        json_decref(none);
        json_decref(md);
}

/*
 * Random damage to both encodings of the fixture (bytes changed, cut,
 * doubled): 30,000 documents, each read both ways with the same verdict,
 * error and values.
 */
static void test_mdoc_pack__damaged_replies_read_alike(void)
{
        json_t *md = fixture();
        uint64_t x = 0x2545f4914f6cdd1du;
        prc_buf enc[2], b;
        prc_err err;
        int taken = 0, refused = 0;

        prc_err_init(&err);
        for (int s = 0; s < 2; s++) {
                prc_buf_init(&enc[s], (size_t)1 << 20);
                T_ASSERT(s == 0 ? prc_docbin_write(md, &enc[s], &err) : prc_docbin_write_open(md, &enc[s], &err));
        }
        prc_buf_init(&b, (size_t)1 << 20);
        for (int round = 0; round < 30000; round++) {
                const prc_buf *e = &enc[round & 1];
                int k;
                prc_buf_reset(&b);
                T_ASSERT(prc_buf_put(&b, e->data, e->len, &err));
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                switch (x % 4) {
                case 0: /* one byte anywhere */
                case 1:
                        b.data[(x >> 8) % b.len] = (uint8_t)(x >> 40);
                        break;
                case 2: /* one byte set to a small value: tags, lengths, counts */
                        b.data[(x >> 8) % b.len] = (uint8_t)((x >> 40) % 12);
                        break;
                default: /* cut */
                        b.len = (x >> 8) % b.len;
                        break;
                }
                k = agree(&b);
                taken += k == 0;
                refused += k == -1;
        }
        /* both kinds of outcome were exercised */
        T_ASSERT(taken > 100 && refused > 100);
        prc_buf_clear(&b);
        prc_buf_clear(&enc[0]);
        prc_buf_clear(&enc[1]);
        json_decref(md);
}

/* fn on every file under dir an extractor takes (r: its inventory path); returns how many. */
typedef void (*file_fn)(const char *p, const char *r, void *ctx);

static size_t each_manifest(const char *dir, const char *rel, file_fn fn, void *ctx)
{
        DIR *d = opendir(dir);
        struct dirent *e;
        size_t files = 0;

        T_ASSERT(d != NULL);
        while ((e = readdir(d)) != NULL) {
                char p[4096], r[4096];
                struct stat st;
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
                snprintf(r, sizeof(r), "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
                T_ASSERT(lstat(p, &st) == 0);
                if (S_ISDIR(st.st_mode)) {
                        files += each_manifest(p, r, fn, ctx);
                } else if (S_ISREG(st.st_mode) && prc_extractor_for_path(r) != NULL) {
                        files++;
                        fn(p, r, ctx);
                }
        }
        closedir(d);
        return files;
}

/* The file extracted here: both readings agree and the hook takes all (ctx: the documents counted). */
static void tree_taken(const char *p, const char *r, void *ctx)
{
        const prc_extractor *x = prc_extractor_for_path(r);
        prc_buf bytes;
        prc_err err;
        json_t *md;

        prc_err_init(&err);
        prc_buf_init(&bytes, 64u << 20);
        T_ASSERT(prc_file_read(p, 64u << 20, 0, &bytes, &err));
        md = x->fn(&(prc_xin){ r, bytes.data, bytes.len, &prc_limits_default }, &err);
        if (md != NULL) {
                both_spellings_taken(md);
                (*(size_t *)ctx)++;
        }
        json_decref(md);
        prc_buf_clear(&bytes);
}

/* each_manifest over ../shared/corpora/manifests (a failure when the corpora are absent). */
static size_t each_corpus_manifest(file_fn fn, void *ctx)
{
        const char *c = t_corpora();
        char dir[4096];

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads its manifests");
        snprintf(dir, sizeof(dir), "%s/manifests", c);
        return each_manifest(dir, "", fn, ctx);
}

static void test_mdoc_pack__every_corpus_manifest_reads_as_its_tree(void)
{
        size_t docs = 0, files = each_corpus_manifest(tree_taken, &docs);

        T_ASSERT(files >= 500);
        T_ASSERT(docs >= 500);
}

/*
 * Native rows (extract.h prc_md_rows_arm) against trees, for the file at
 * path p (inventory path r): the extraction refuses alike, or the table
 * packed from its native rows is byte for byte prc_mdp_pack's of its
 * trees (both declining alike) and the rest of the document is the same.
 * Returns 1 when the document took native rows.
 */
static int rows_agree(const char *p, const char *r)
{
        const prc_extractor *x = prc_extractor_for_path(r);
        prc_mdp_packer kt, kn;
        json_t *tree, *rows, *a, *b;
        prc_err et, en;
        prc_buf bytes;
        int native = 0, rt, rn;

        if (x == NULL)
                return 0;
        prc_err_init(&et);
        prc_err_init(&en);
        prc_buf_init(&bytes, 64u << 20);
        T_ASSERT(prc_file_read(p, 64u << 20, 0, &bytes, &et));
        tree = x->fn(&(prc_xin){ r, bytes.data, bytes.len, &prc_limits_default }, &et);
        T_ASSERT(!prc_md_rows_native(tree));
        prc_md_rows_arm(true);
        rows = x->fn(&(prc_xin){ r, bytes.data, bytes.len, &prc_limits_default }, &en);
        prc_md_rows_arm(false);
        if (tree == NULL || rows == NULL) {
                if ((tree == NULL) != (rows == NULL) || et.cls != en.cls || strcmp(et.msg, en.msg) != 0)
                        t_fail(__FILE__, __LINE__, "%s: trees %s (%s), rows %s (%s)", r, tree ? "made" : "refused",
                               et.msg, rows ? "made" : "refused", en.msg);
                goto out;
        }
        native = prc_md_rows_native(rows);
        if (native) {
                prc_mdp_packer_init(&kt);
                prc_mdp_packer_init(&kn);
                rt = prc_mdp_pack(&kt, json_object_get(tree, "dependencies"), &et);
                rn = prc_md_rows_pack(rows, &kn, &en);
                if (rt != rn)
                        t_fail(__FILE__, __LINE__, "%s: the trees pack %d, the rows %d", r, rt, rn);
                else if (rt == 1 &&
                         (kt.pool.len != kn.pool.len || memcmp(kt.pool.data, kn.pool.data, kt.pool.len) != 0))
                        t_fail(__FILE__, __LINE__, "%s: the rows' table is not the trees'", r);
                T_EQ_INT(json_array_size(json_object_get(rows, "dependencies")), 0);
                prc_mdp_packer_clear(&kt);
                prc_mdp_packer_clear(&kn);
        }
        a = json_deep_copy(tree);
        b = json_deep_copy(rows);
        T_ASSERT(a != NULL && b != NULL);
        if (native) {
                json_object_del(a, "dependencies");
                json_object_del(b, "dependencies");
        }
        if (!json_equal(a, b))
                t_fail(__FILE__, __LINE__, "%s: the documents differ beyond their dependencies", r);
        json_decref(a);
        json_decref(b);
out:
        json_decref(tree);
        json_decref(rows);
        prc_buf_clear(&bytes);
        return native;
}

/* rows_agree as an each_manifest callback (ctx: the native documents counted). */
static void rows_agree_count(const char *p, const char *r, void *ctx)
{
        *(size_t *)ctx += (size_t)rows_agree(p, r);
}

/* The project's own fixtures (every extract and analysis fixture): native rows read as the trees. */
static void test_mdoc_pack__native_rows_pack_as_the_trees_do(void)
{
        char dir[4096];
        size_t native = 0, files;

        snprintf(dir, sizeof(dir), "%s/tests/fixtures", t_root());
        files = each_manifest(dir, "", rows_agree_count, &native);
        T_ASSERT(files >= 100);
        T_ASSERT(native >= 20);         /* the npm family's files take native rows */
        prc_md_rows_release();
}

/* The same on every manifest of ../shared/corpora (the SBOM's own input). */
static void test_mdoc_pack__native_rows_pack_as_the_trees_do_on_the_corpus(void)
{
        size_t native = 0, files = each_corpus_manifest(rows_agree_count, &native);

        T_ASSERT(files >= 500);
        T_ASSERT(native >= 60);
        prc_md_rows_release();
}

/* A minimal document with native rows: the store's own rules, where no extractor reaches. */
static void test_mdoc_pack__native_rows_decline_what_the_trees_would(void)
{
        prc_xin in = { "package-lock.json", (const uint8_t *)"{}", 2, &prc_limits_default };
        prc_mdp_packer k;
        prc_err err;
        json_t *md;
        size_t a, b;

        prc_mdp_packer_init(&k);
        prc_err_init(&err);
        /* Not armed: trees, as always. */
        md = prc_md_new(&in, "npm-package-lock", "npm", "lockfile", &err);
        T_ASSERT(prc_md_row_add(md, "a", "runtime", true, 3, NULL, "1", &err) == 0);
        T_ASSERT(!prc_md_rows_native(md) && prc_md_row_count(md) == 1);
        T_EQ_STR(prc_md_row_name(md, 0), "a");
        T_EQ_STR(prc_md_row_source_type(md, 0), "registry");
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 0);
        json_decref(md);
        /* Armed: native; a purl without "pkg:" is declined, as prc_mdp_pack declines the tree. */
        prc_md_rows_arm(true);
        md = prc_md_new(&in, "npm-package-lock", "npm", "lockfile", &err);
        a = prc_md_row_add(md, "a", "runtime", true, 3, NULL, "1", &err);
        b = prc_md_row_add(md, "b", "dev", false, 0, "^2", "2", &err);
        prc_md_rows_arm(false);
        T_ASSERT(a == 0 && b == 1 && prc_md_rows_native(md) && prc_md_rows_taken());
        T_ASSERT(prc_md_add_dep_rr(md, "c", "runtime", true, 0, NULL, NULL, &err) == NULL);
        T_EQ_INT(err.cls, PRC_E_INTERNAL);
        prc_err_init(&err);
        T_ASSERT(prc_md_row_set_str(md, a, "purl", "npm/a@1", &err));
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 0);
        T_ASSERT(prc_md_row_set_str(md, a, "purl", "pkg:npm/a@1", &err));
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 1);
        /* Edges added and never finished: declined (the tree would hold them unsorted); finished: packed. */
        T_ASSERT(prc_md_edge(md, a, b, &err) && prc_md_edge(md, a, b, &err) && prc_md_edge(md, b, b, &err));
        T_ASSERT(!prc_md_edge(md, a, 2, &err));
        T_EQ_INT(err.cls, PRC_E_INTERNAL);
        prc_err_init(&err);
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 0);
        T_ASSERT(prc_md_edges_finish(md, &err));
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 1);
        {
                prc_mdp view;
                json_t *t = json_stringn_nocheck((const char *)k.pool.data, k.pool.len);
                T_ASSERT(t != NULL && prc_mdp_view(t, &view));
                T_EQ_INT(view.ndeps, 2);
                T_EQ_INT(view.deps[0].edges_n, 1);      /* the edge given twice, once */
                T_EQ_INT(view.edges[view.deps[0].edges_off], 1);
                T_EQ_INT(view.deps[1].edges_n, 0);      /* finished: [] */
                T_EQ_STR(prc_mdp_str(&view, 1, PRC_MDP_REQUIREMENT), "^2");
                T_EQ_STR(prc_md_scopes[view.deps[1].scope], "dev");
                T_EQ_INT(view.deps[0].line, 3);
                json_decref(t);
        }
        /* The setters' checks are the trees': an empty integrity value, a value past the limit. */
        T_ASSERT(!prc_md_row_set_integrity(md, a, "sha512", "", &err));
        T_EQ_INT(err.cls, PRC_E_EXTRACT_SHAPE);
        prc_err_init(&err);
        {
                char big[PRC_MD_STR_MAX + 2];
                memset(big, 'v', sizeof(big) - 1);
                big[sizeof(big) - 1] = 0;
                T_ASSERT(!prc_md_row_set_str(md, b, "group", big, &err));
                T_EQ_INT(err.cls, PRC_E_EXTRACT_LIMIT);
        }
        json_decref(md);
        /* Edges finished with none added (no edge array was ever made): every row [], packed. */
        prc_md_rows_arm(true);
        md = prc_md_new(&in, "pnpm-lock", "npm", "lockfile", &err);
        T_ASSERT(prc_md_row_add(md, "a", "runtime", true, 1, NULL, "1", &err) == 0);
        prc_md_rows_arm(false);
        T_ASSERT(prc_md_edges_finish(md, &err));
        T_EQ_INT(prc_md_rows_pack(md, &k, &err), 1);
        {
                prc_mdp view;
                json_t *t = json_stringn_nocheck((const char *)k.pool.data, k.pool.len);
                T_ASSERT(t != NULL && prc_mdp_view(t, &view));
                T_EQ_INT(view.ndeps, 1);
                T_EQ_INT(view.deps[0].edges_n, 0);
                json_decref(t);
        }
        json_decref(md);
        prc_mdp_packer_clear(&k);
        prc_md_rows_release();
}

static const prc_test tests[] = {
        T(test_mdoc_pack__every_field_in_every_form_reads_as_the_tree),
        T(test_mdoc_pack__every_rule_of_check_dep_refuses_alike),
        T(test_mdoc_pack__the_packer_declines_a_bad_byte_anywhere),
        T(test_mdoc_pack__a_table_sent_by_the_worker_is_refused),
        T(test_mdoc_pack__a_worker_table_breaking_any_rule_is_refused),
        T(test_mdoc_pack__damaged_replies_read_alike),
        T(test_mdoc_pack__every_corpus_manifest_reads_as_its_tree),
        T(test_mdoc_pack__native_rows_pack_as_the_trees_do),
        T(test_mdoc_pack__native_rows_pack_as_the_trees_do_on_the_corpus),
        T(test_mdoc_pack__native_rows_decline_what_the_trees_would),
};
PRC_SUITE(mdoc_pack, tests)
