/*
 * test_yaml_stream.c - the worker's streaming YAML reply (yaml_stream.h)
 * against prc_yaml_load, whose composer it observes: the same refusal to
 * the letter (class, offset, line, column, pointer, message), the same
 * tree, and, when it streams, exactly prc_docbin_write_open of that tree;
 * it falls back only where a `<<` merge reorders a mapping.  Anchors,
 * aliases, merges, tags, keys, every limit, errors after many pieces,
 * empty and multi-document streams, big scalars across pieces, the attack
 * corpus.  The second suite goes through a real floored worker, restarts
 * included, and the client's handling of a misused RESTART.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/jcs.h"
#include "base/yaml.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/yaml_stream.h"

#define S PRC_YAML_FLOAT_AS_STRING
#define F PRC_YAML_ALLOW_FLOAT

struct sink {
        prc_buf all;
        size_t  pieces, before_last;
};

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct sink *s = ctx;

        T_ASSERT(n > 0);
        T_ASSERT(last || n >= PRC_DOCBIN_CHUNK);
        s->pieces++;
        if (!last)
                s->before_last++;
        return prc_buf_put(&s->all, p, n, err);
}

static void same_refusal(const prc_err *a, const prc_err *b)
{
        T_EQ_STR(prc_err_name(a->cls), prc_err_name(b->cls));
        T_EQ_INT(a->off, b->off);
        T_EQ_INT(a->line, b->line);
        T_EQ_INT(a->col, b->col);
        T_EQ_STR(a->ptr, b->ptr);
        T_EQ_STR(a->msg, b->msg);
}

/*
 * Both on text under lim and flags.  want: PRC_E_OK (a document; rc says
 * whether it must stream or fall back) or the class prc_yaml_load refuses
 * with.  Returns the pieces handed over.
 */
/* The positions of v's nodes in a (from id ia) and b (from ib) are the same, node by node. */
static void same_positions(const prc_yaml_pos *a, uint32_t ia, const prc_yaml_pos *b, uint32_t ib, const json_t *v)
{
        prc_yaml_at x, y;
        const char *k;
        json_t *m;
        size_t i;

        T_EQ_INT(ia == 0, ib == 0);
        if (ia == 0)
                return;
        T_ASSERT(prc_yaml_pos_get(a, ia, &x) && prc_yaml_pos_get(b, ib, &y));
        T_ASSERT(x.line == y.line && x.col == y.col && x.key_line == y.key_line && x.key_col == y.key_col &&
                 x.style == y.style);
        json_object_foreach((json_t *)v, k, m)
                same_positions(a, prc_yaml_pos_key(a, ia, k), b, prc_yaml_pos_key(b, ib, k), m);
        json_array_foreach(v, i, m)
                same_positions(a, prc_yaml_pos_index(a, ia, i), b, prc_yaml_pos_index(b, ib, i), m);
}

/*
 * prc_yaml_stream_pos (the worker's verdict parse for an extractor that
 * reads positions) streams what prc_yaml_stream does and composes what
 * prc_yaml_load_pos does: the same refusal, or the same tree and the same
 * place for every node.
 */
static void agree_pos(const char *text, size_t n, const prc_limits *lim, unsigned flags)
{
        prc_err err, serr, serr2;
        prc_buf chunk;
        struct sink s = { .pieces = 0 }, s2 = { .pieces = 0 };
        uint64_t size = 0, size2 = 0;
        prc_yaml_pos *pl = NULL, *ps = NULL;
        prc_ys_rc rc, rc2;
        json_t *v, *doc = NULL, *doc2 = NULL;

        prc_err_init(&err);
        prc_err_init(&serr);
        prc_err_init(&serr2);
        prc_buf_init(&chunk, 64u << 20);
        prc_buf_init(&s.all, 64u << 20);
        prc_buf_init(&s2.all, 64u << 20);
        v = prc_yaml_load_pos((const uint8_t *)text, n, lim, flags, &pl, &err);
        rc = prc_yaml_stream_pos((const uint8_t *)text, n, lim, flags, &chunk, collect, &s, &size, &doc, &ps, NULL,
                                 &serr);
        prc_buf_reset(&chunk);
        rc2 = prc_yaml_stream((const uint8_t *)text, n, lim, flags, &chunk, collect, &s2, &size2, &doc2, NULL, &serr2);
        same_refusal(&serr, &serr2);
        T_EQ_INT(rc, rc2);
        T_EQ_INT(s.all.len, s2.all.len);
        T_ASSERT(s.all.len == 0 || memcmp(s.all.data, s2.all.data, s.all.len) == 0);
        if (v == NULL) {
                T_ASSERT(doc == NULL && ps == NULL && rc == PRC_YS_REFUSED);
                same_refusal(&serr, &err);
        } else {
                T_ASSERT(doc != NULL && ps != NULL && json_equal(v, doc));
                same_positions(pl, prc_yaml_pos_root(pl), ps, prc_yaml_pos_root(ps), v);
        }
        prc_yaml_pos_free(pl);
        prc_yaml_pos_free(ps);
        json_decref(v);
        json_decref(doc);
        json_decref(doc2);
        prc_buf_clear(&chunk);
        prc_buf_clear(&s.all);
        prc_buf_clear(&s2.all);
}

static size_t agree_n(const char *text, size_t n, const prc_limits *lim, unsigned flags, prc_errclass want,
                      prc_ys_rc want_rc)
{
        agree_pos(text, n, lim, flags);

        prc_err err, serr, e;
        prc_buf chunk, enc, cnt;
        struct sink s = { .pieces = 0 };
        uint64_t size = 0;
        const char *why = NULL;
        prc_ys_rc rc;
        json_t *v, *doc = NULL, *back;
        size_t pieces;

        prc_err_init(&err);
        prc_err_init(&serr);
        prc_err_init(&e);
        prc_buf_init(&chunk, 64u << 20);
        prc_buf_init(&enc, 64u << 20);
        prc_buf_init(&cnt, 64u << 20);
        prc_buf_init(&s.all, 64u << 20);
        v = prc_yaml_load((const uint8_t *)text, n, lim, flags, &err);
        rc = prc_yaml_stream((const uint8_t *)text, n, lim, flags, &chunk, collect, &s, &size, &doc, &why, &serr);
        T_EQ_INT(size, s.all.len);
        if (want != PRC_E_OK) {
                T_ASSERT(v == NULL && doc == NULL);
                T_ERR(err, want);
                T_EQ_INT(rc, PRC_YS_REFUSED);
                same_refusal(&serr, &err);
        } else {
                T_NOERR(err);
                T_NOERR(serr);
                T_ASSERT(v != NULL && doc != NULL);
                T_ASSERT(json_equal(v, doc));
                T_EQ_INT(rc, want_rc);
                T_ASSERT(prc_docbin_write(v, &cnt, &e));
                if (rc == PRC_YS_STREAMED) {
                        T_ASSERT(why == NULL);
                        T_ASSERT(prc_docbin_write_open(v, &enc, &e));
                        T_EQ_MEM(s.all.data, s.all.len, enc.data, enc.len);
                        T_EQ_INT(s.pieces, s.before_last + 1);
                        /* The client's reader gives back the tree, member order included. */
                        back = prc_docbin_read(s.all.data, s.all.len, lim, &e);
                        T_NOERR(e);
                        T_ASSERT(back != NULL && json_equal(back, v));
                        prc_buf_reset(&enc);
                        T_ASSERT(prc_docbin_write(back, &enc, &e));
                        T_EQ_MEM(enc.data, enc.len, cnt.data, cnt.len);
                        json_decref(back);
                } else {
                        T_EQ_STR(why, "a '<<' merge key");
                        T_EQ_INT(s.pieces, s.before_last);      /* the last piece never went out */
                }
        }
        pieces = s.pieces;
        json_decref(v);
        json_decref(doc);
        prc_buf_clear(&chunk);
        prc_buf_clear(&enc);
        prc_buf_clear(&cnt);
        prc_buf_clear(&s.all);
        return pieces;
}

static void ok(const char *text, unsigned flags)
{
        (void)agree_n(text, strlen(text), &prc_limits_default, flags, PRC_E_OK, PRC_YS_STREAMED);
}

static void falls_back(const char *text)
{
        (void)agree_n(text, strlen(text), &prc_limits_default, S, PRC_E_OK, PRC_YS_FALLBACK);
}

static void refused_l(const char *text, const prc_limits *lim, unsigned flags, prc_errclass cls)
{
        (void)agree_n(text, strlen(text), lim, flags, cls, PRC_YS_REFUSED);
}

static void refused(const char *text, unsigned flags, prc_errclass cls)
{
        refused_l(text, &prc_limits_default, flags, cls);
}

static void test_yaml_stream__scalars_tags_and_keys(void)
{
        ok("a: 1\nb: [x, 'y', \"z\", ~, true, False, 0x1f, 0o17, -3]\nc: {d: null}\n", 0);
        ok("plain\n", 0);
        ok("42\n", 0);
        ok("[]\n", 0);
        ok("{}\n", 0);
        ok("a: 3.10\nb: .inf\n", S);
        ok("a: 3.10\nb: -1e3\n", F);
        refused("a: 3.10\n", 0, PRC_E_YAML_FLOAT_NOT_ALLOWED);
        refused("a: .nan\n", F, PRC_E_YAML_FLOAT_NOT_FINITE);
        refused("a: 9007199254740993\n", 0, PRC_E_UNSAFE_NUMBER);
        ok("a: !!str 1\nb: !!int \"7\"\nc: !!bool 'true'\nd: !!null ''\ne: ! 12\nf: !!float 1\n", F);
        ok("!!map {a: !!seq [1]}\n", 0);
        refused("a: !!int x\n", 0, PRC_E_YAML_TAG_MISMATCH);
        refused("a: !!seq x\n", 0, PRC_E_YAML_TAG_MISMATCH);
        refused("a: !!map [1]\n", 0, PRC_E_YAML_TAG_MISMATCH);
        refused("a: !custom x\n", 0, PRC_E_YAML_UNSUPPORTED_TAG);
        /* !!binary is not in the core schema: refused, as in process. */
        refused("a: !!binary aGVsbG8=\n", 0, PRC_E_YAML_UNSUPPORTED_TAG);
        /* Keys: null, booleans and integers by their canonical text; the rest as written. */
        ok("null: 1\ntrue: 2\n0x10: 3\n1.5: 4\n'q': 5\n? |\n  block\n: 6\n", 0);
        refused("[a]: 1\n", 0, PRC_E_YAML_COMPLEX_KEY);
        refused("{a: 1}: 1\n", 0, PRC_E_YAML_COMPLEX_KEY);
        refused("a: \"x\\0y\"\n", 0, PRC_E_NUL_BYTE);
        refused("\"a\\0\": 1\n", 0, PRC_E_NUL_BYTE);
        refused("a: [1, 2\n", 0, PRC_E_YAML_SYNTAX);
        refused("a: \"\\uD800\"\n", 0, PRC_E_YAML_SYNTAX);            /* libfyaml's own check */
}

static void test_yaml_stream__anchors_and_aliases(void)
{
        ok("a: &x 1\nb: *x\n", 0);
        ok("a: &m {k: [1, 2], j: {z: y}}\nb: *m\nc: [*m, *m]\n", 0);
        ok("a: &s [1, [2, [3]]]\nb: *s\n", 0);
        ok("base: &k name\n*k : 1\n", 0);                   /* an alias as a key: its text */
        ok("&r [1, 2]\n", 0);                               /* an anchor on the root */
        ok("a: &x 1\nb: &x 2\nc: *x\n", 0);                 /* a redefined anchor: the latest */
        refused("a: *nope\n", 0, PRC_E_YAML_UNDEFINED_ALIAS);
        refused("a: &x [1, *x]\n", 0, PRC_E_YAML_ALIAS_CYCLE);
        refused("a: &m {k: 1}\n*m : 2\n", 0, PRC_E_YAML_COMPLEX_KEY);
}

static void test_yaml_stream__merges_fall_back_with_the_same_tree(void)
{
        falls_back("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  c: 3\n");
        falls_back("base: &b {a: 1, b: 2}\nx:\n  c: 3\n  <<: *b\n  a: 9\n");
        falls_back("a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n");
        /* Nested: a merged mapping that itself merges, and a merge inside a merge source. */
        falls_back("base: &b {a: 1, b: 2}\nmid: &m\n  <<: *b\n  c: 3\nleaf:\n  <<: [*m, {d: 4}]\n  a: 9\n");
        falls_back("x: {<<: {<<: {deep: 1}, mid: 2}, top: 3}\n");
        falls_back("x:\n  <<: []\n");
        /* A plain "<<" that is quoted or tagged is an ordinary key: no merge, it streams. */
        ok("x:\n  '<<': 1\n", 0);
        ok("x:\n  !!str <<: 1\n", 0);
        refused("x:\n  <<: 1\n", 0, PRC_E_YAML_INVALID_MERGE);
        refused("x:\n  <<: [1]\n", 0, PRC_E_YAML_INVALID_MERGE);
        refused("b: &b {a: 1}\nx:\n  <<: *b\n  <<: *b\n", 0, PRC_E_DUPLICATE_FIELD);
        refused("b: &b {a: 1}\nx:\n  <<: *b\n  c: 1\n  c: 2\n", 0, PRC_E_DUPLICATE_FIELD);
}

static void test_yaml_stream__duplicate_keys(void)
{
        refused("a: 1\nb: 2\na: 3\n", 0, PRC_E_DUPLICATE_FIELD);
        refused("1: a\n0x1: b\n", 0, PRC_E_DUPLICATE_FIELD);
        refused("null: a\n~: b\n", 0, PRC_E_DUPLICATE_FIELD);
        refused("x: {k: 1, k: 2}\n", 0, PRC_E_DUPLICATE_FIELD);
        refused("k: &k a\n*k : 2\na: 3\n", 0, PRC_E_DUPLICATE_FIELD);
        ok("x: {k: 1}\ny: {k: 1}\n", 0);                    /* the same key in two mappings */
}

static void test_yaml_stream__limits(void)
{
        prc_limits lim = prc_limits_default;

        lim.depth_max = 3;
        (void)agree_n("a: {b: [1]}\n", 12, &lim, 0, PRC_E_OK, PRC_YS_STREAMED);
        refused_l("a: {b: [[1]]}\n", &lim, 0, PRC_E_DEPTH_LIMIT);
        lim = prc_limits_default;
        lim.alias_max = 2;
        refused_l("a: &x 1\nb: [*x, *x, *x]\n", &lim, 0, PRC_E_YAML_ALIAS_LIMIT);
        lim = prc_limits_default;
        lim.anchor_max = 1;
        refused_l("a: &x 1\nb: &y 2\n", &lim, 0, PRC_E_YAML_ANCHOR_LIMIT);
        lim = prc_limits_default;
        lim.nodes_max = 5;
        refused_l("[1, 2, 3, 4, 5, 6]\n", &lim, 0, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.keys_max = 2;
        refused_l("{a: 1, b: 2, c: 3}\n", &lim, 0, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.scalar_max = 4;
        refused_l("a: abcde\n", &lim, 0, PRC_E_SCALAR_LIMIT);
        lim = prc_limits_default;
        lim.merge_max = 1;
        refused_l("b: &b {a: 1, c: 2}\nx:\n  <<: *b\n", &lim, 0, PRC_E_YAML_MERGE_LIMIT);
        lim = prc_limits_default;
        lim.input_max = 4;
        refused_l("a: 12345\n", &lim, 0, PRC_E_INPUT_TOO_LARGE);
        /* The alias bomb: every level doubles; the node count stops it before any expansion. */
        refused("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\ne: &e [*d, *d]\nf: &f [*e, *e]\n"
                "g: &g [*f, *f]\nh: &h [*g, *g]\ni: &i [*h, *h]\nj: &j [*i, *i]\nk: &k [*j, *j]\nl: &l [*k, *k]\n"
                "m: &m [*l, *l]\nn: &n [*m, *m]\no: &o [*n, *n]\np: &p [*o, *o]\nq: &q [*p, *p]\nr: &r [*q, *q]\n"
                "s: [*r, *r, *r, *r, *r, *r, *r, *r]\n", 0, PRC_E_NODES_LIMIT);
}

static void test_yaml_stream__streams_and_raw_bytes(void)
{
        /* An empty stream, or only comments: the null document, streamed as one byte. */
        ok("", 0);
        ok("# nothing\n", 0);
        ok("---\n", 0);
        ok("--- a\n...\n", 0);
        refused("a: 1\n---\nb: 2\n", 0, PRC_E_YAML_MULTIPLE_DOCUMENTS);
        refused("--- 1\n--- 2\n", 0, PRC_E_YAML_MULTIPLE_DOCUMENTS);
        (void)agree_n("a: 1\n\0", 6, &prc_limits_default, 0, PRC_E_NUL_BYTE, PRC_YS_REFUSED);
        (void)agree_n("a: \xc3\x28\n", 7, &prc_limits_default, 0, PRC_E_INVALID_UTF8, PRC_YS_REFUSED);
        refused("a: \x01\n", 0, PRC_E_YAML_SYNTAX);
}

/* Block YAML of package records, about n bytes. */
static char *records(size_t n, size_t *len)
{
        char *t = malloc(n + 256);
        size_t o = 0;

        T_ASSERT(t != NULL);
        o += (size_t)snprintf(t, 32, "packages:\n");
        for (unsigned i = 0; o < n; i++)
                o += (size_t)snprintf(t + o, 256,
                                      "  - name: pkg-%u\n    version: \"1.%u.0\"\n    deps: [a, b-%u]\n    ok: %s\n",
                                      i, i, i % 7, i % 2 ? "true" : "false");
        *len = o;
        return t;
}

static void test_yaml_stream__pieces_and_late_refusals(void)
{
        size_t n, pieces;
        char *t = records(1u << 20, &n), *u;

        /* A 1 MiB document leaves in many pieces, each at least PRC_DOCBIN_CHUNK but the last. */
        pieces = agree_n(t, n, &prc_limits_default, S, PRC_E_OK, PRC_YS_STREAMED);
        T_ASSERT(pieces >= 10);
        /* Refusals found after many pieces went out: to the letter, at the end and in the middle. */
        u = realloc(t, n + 64);
        T_ASSERT(u != NULL);
        t = u;
        memcpy(t + n, "packages: again\n", 17);
        T_ASSERT(agree_n(t, n + 16, &prc_limits_default, S, PRC_E_DUPLICATE_FIELD, PRC_YS_REFUSED) >= 10);
        memcpy(t + n, "  - [1, 2\n", 11);
        T_ASSERT(agree_n(t, n + 10, &prc_limits_default, S, PRC_E_YAML_SYNTAX, PRC_YS_REFUSED) >= 10);
        memcpy(t + n, "  - *nope\n", 11);
        T_ASSERT(agree_n(t, n + 10, &prc_limits_default, S, PRC_E_YAML_UNDEFINED_ALIAS, PRC_YS_REFUSED) >= 10);
        memcpy(strstr(t + n / 2, "name: pkg-") + 6, "!!bad ", 6);      /* "name: !!bad 3" */
        T_ASSERT(agree_n(t, n, &prc_limits_default, S, PRC_E_YAML_UNSUPPORTED_TAG, PRC_YS_REFUSED) >= 4);
        free(t);
        /* A merge late in the document: the stream gives up after many pieces; the tree is the same. */
        t = records(1u << 20, &n);
        u = realloc(t, n + 64);
        T_ASSERT(u != NULL);
        t = u;
        memcpy(t + n, "m: &m {a: 1}\nx: {<<: *m, b: 2}\n", 32);
        T_ASSERT(agree_n(t, n + 31, &prc_limits_default, S, PRC_E_OK, PRC_YS_FALLBACK) >= 10);
        free(t);
}

/* Scalars of several pieces' worth, between small values: one long piece each, the bytes unchanged. */
static void test_yaml_stream__big_scalars_cross_pieces(void)
{
        size_t big = 3 * PRC_DOCBIN_CHUNK + 17, o = 0;
        char *t = malloc(4 * big + 256);

        T_ASSERT(t != NULL);
        o += (size_t)snprintf(t + o, 64, "a: 1\nlit: |\n");
        for (size_t i = 0; i < big / 64; i++) {
                memcpy(t + o, "  ", 2);
                memset(t + o + 2, 'a' + (char)(i % 26), 61);
                t[o + 63] = '\n';
                o += 64;
        }
        o += (size_t)snprintf(t + o, 64, "b: ");
        memset(t + o, 'p', big);
        o += big;
        o += (size_t)snprintf(t + o, 64, "\nc: &c \"");
        memset(t + o, 'q', big);
        o += big;
        o += (size_t)snprintf(t + o, 64, "\"\nd: [*c, *c]\n");
        T_ASSERT(agree_n(t, o, &prc_limits_default, S, PRC_E_OK, PRC_YS_STREAMED) >= 4);
        free(t);
}

/* The shared attack corpus and yaml-test-suite inputs: the same outcome, tree and bytes for each. */
static void agree_file(const char *path)
{
        prc_buf b;
        prc_err err;
        json_t *v;
        static const unsigned modes[] = { 0, S, F };

        prc_err_init(&err);
        prc_buf_init(&b, 64u << 20);
        T_ASSERT(prc_file_read(path, 64u << 20, 0, &b, &err));
        for (size_t m = 0; m < PRC_ARRAY_LEN(modes); m++) {
                const char *p = b.data != NULL ? (const char *)b.data : "";
                prc_err_init(&err);
                v = prc_yaml_load((const uint8_t *)p, b.len, &prc_limits_default, modes[m], &err);
                json_decref(v);
                (void)agree_n(p, b.len, &prc_limits_default, modes[m], v != NULL ? PRC_E_OK : err.cls,
                              v != NULL && memmem(p, b.len, "<<", 2) != NULL ? PRC_YS_FALLBACK : PRC_YS_STREAMED);
        }
        prc_buf_clear(&b);
}

static void test_yaml_stream__attack_corpus_agrees(void)
{
        const char *corp = t_corpora();
        char dir[4200], path[4500];
        struct dirent *d;
        DIR *dp;
        int files = 0;

        T_ASSERT(corp != NULL);
        snprintf(dir, sizeof(dir), "%s/parsers/attacks/yaml", corp);
        dp = opendir(dir);
        T_ASSERT(dp != NULL);
        while ((d = readdir(dp)) != NULL) {
                size_t l = strlen(d->d_name);
                if (l < 5 || strcmp(d->d_name + l - 5, ".yaml") != 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
                agree_file(path);
                files++;
        }
        closedir(dp);
        T_ASSERT(files >= 10);
}

static const prc_test tests[] = {
        T(test_yaml_stream__scalars_tags_and_keys),
        T(test_yaml_stream__anchors_and_aliases),
        T(test_yaml_stream__merges_fall_back_with_the_same_tree),
        T(test_yaml_stream__duplicate_keys),
        T(test_yaml_stream__limits),
        T(test_yaml_stream__streams_and_raw_bytes),
        T(test_yaml_stream__pieces_and_late_refusals),
        T(test_yaml_stream__big_scalars_cross_pieces),
        T(test_yaml_stream__attack_corpus_agrees),
};
PRC_SUITE(yaml_stream, tests)

/* ---- through a real floored worker (build/test/helpers/worker) ---- */

static prc_client *wclient_cap(uint32_t reply_max)
{
        static char path[4200];
        prc_client_opts o;
        prc_client *c;
        prc_err err;

        snprintf(path, sizeof(path), "%s/build/test/helpers/worker", t_root());
        prc_client_opts_default(&o);
        o.worker_path = path;
        o.cache_max = 0;
        if (reply_max != 0)
                o.reply_max = reply_max;
        prc_err_init(&err);
        c = prc_client_new(&o, &err);
        T_ASSERT(c != NULL);
        return c;
}

static uint64_t restarts(prc_client *c)
{
        prc_client_stats st;

        prc_client_get_stats(c, &st);
        return st.restarts;
}

static uint64_t retirements(prc_client *c)
{
        prc_client_stats st;

        prc_client_get_stats(c, &st);
        return st.retirements;
}

/* The worker's answer is prc_yaml_load's in process (the table's flags): the tree in its order, or the refusal. */
static void worker_agrees(prc_client *c, const char *t, size_t n)
{
        prc_err we, le;
        json_t *w = NULL, *l;
        bool ok;

        prc_err_init(&we);
        prc_err_init(&le);
        ok = prc_client_parse(c, PRC_FMT_YAML, "doc.yaml", (const uint8_t *)t, n, &w, &we);
        l = prc_yaml_load((const uint8_t *)t, n, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &le);
        T_EQ_INT(ok, l != NULL);
        if (ok) {
                prc_buf a, b;
                prc_err e;
                prc_err_init(&e);
                prc_buf_init(&a, 64u << 20);
                prc_buf_init(&b, 64u << 20);
                T_ASSERT(prc_docbin_write(w, &a, &e) && prc_docbin_write(l, &b, &e));
                T_EQ_MEM(a.data, a.len, b.data, b.len);
                prc_buf_clear(&a);
                prc_buf_clear(&b);
        } else {
                T_ERR(we, le.cls);
                T_EQ_INT(we.off, le.off);
                T_EQ_INT(we.line, le.line);
                T_EQ_INT(we.col, le.col);
                T_EQ_STR(we.ptr, le.ptr);
                T_EQ_STR(we.msg, le.msg);
        }
        json_decref(w);
        json_decref(l);
}

static void test_yaml_stream_worker__documents_refusals_and_restarts(void)
{
        prc_client *c = wclient_cap(0);
        prc_client_stats st;
        size_t n;
        char *t = records(1u << 20, &n), *u;

        worker_agrees(c, t, n);
        T_EQ_INT(restarts(c), 0);
        u = realloc(t, n + 64);
        T_ASSERT(u != NULL);
        t = u;
        /* Refusals after many pieces: the client dropped them; prc_yaml_load's refusal, located. */
        memcpy(t + n, "packages: again\n", 17);
        worker_agrees(c, t, n + 16);
        memcpy(t + n, "  - [1, 2\n", 11);
        worker_agrees(c, t, n + 10);
        /* A merge at the end: the worker restarts after many pieces and sends the tree. */
        memcpy(t + n, "m: &m {a: 1}\nx: {<<: *m, b: 2}\n", 32);
        worker_agrees(c, t, n + 31);
        T_EQ_INT(restarts(c), 1);
        /* A merge in the first piece: nothing went out yet, so no restart is needed. */
        worker_agrees(c, "b: &b {a: 1}\nx:\n  <<: *b\n  c: 2\n", 31);
        T_EQ_INT(restarts(c), 1);
        worker_agrees(c, "", 0);
        worker_agrees(c, "a: 1\n---\nb: 2\n", 14);
        worker_agrees(c, "a: &x [1, 2]\nb: [*x, *x]\nc: 3.10\n", 32);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);        /* parser refusals and restarts keep the worker */
        free(t);
        prc_client_free(c);
}

/*
 * The reply cap applies as before the streaming reply: a document whose
 * open spelling passes the cap while its counted one fits is restarted and
 * sent counted; one that fits neither is reply-too-large.
 */
static void test_yaml_stream_worker__reply_cap(void)
{
        /* Mappings of many tiny members: the open spelling costs a byte more per key, 4 bytes less per container. */
        size_t members = 100000, o = 0, open_len, counted_len;
        char *t = malloc(members * 24 + 64);
        prc_client *c;
        prc_buf a, b;
        prc_err err;
        json_t *v, *doc = NULL;

        T_ASSERT(t != NULL);
        for (size_t i = 0; i < members; i++) {
                if (i % 10000 == 0)
                        o += (size_t)snprintf(t + o, 24, "m%zu:\n", i);
                o += (size_t)snprintf(t + o, 24, "  k%zu: 1\n", i);
        }
        prc_err_init(&err);
        v = prc_yaml_load((const uint8_t *)t, o, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &err);
        T_ASSERT(v != NULL);
        prc_buf_init(&a, 64u << 20);
        prc_buf_init(&b, 64u << 20);
        T_ASSERT(prc_docbin_write_open(v, &a, &err) && prc_docbin_write(v, &b, &err));
        open_len = a.len;
        counted_len = b.len;
        T_ASSERT(open_len > counted_len + PRC_DOCBIN_CHUNK);
        /* Between the two: restarted, and the document arrives whole. */
        c = wclient_cap((uint32_t)(counted_len + (open_len - counted_len) / 2));
        worker_agrees(c, t, o);
        T_EQ_INT(restarts(c), 1);
        prc_client_free(c);
        /* Below both: reply-too-large, as before. */
        c = wclient_cap((uint32_t)(counted_len - 1));
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_YAML, "m.yaml", (const uint8_t *)t, o, &doc, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        T_ASSERT(doc == NULL);
        prc_client_free(c);
        json_decref(v);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        free(t);
}

/* RESTART is one step at one place: after a piece, empty, once per reply; anything else ends the worker. */
static void test_yaml_stream_worker__restart_misuse_is_invalid_frame(void)
{
        static const char *const bad[] = { "first", "twice", "payload", "after", "retire" };
        prc_client *c = wclient_cap(0);
        json_t *doc = NULL;
        uint64_t before;
        prc_err err;

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err_init(&err);
                T_ASSERT(!prc_client_call(c, PRC_OP_TEST, PRC_T_RESTART, 0, "t", bad[i], strlen(bad[i]), NULL, 0,
                                          false, &doc, &err));
                T_ERR(err, PRC_E_INVALID_FRAME);
                T_ASSERT(doc == NULL);
                worker_agrees(c, "a: 1\n", 5);      /* a fresh worker serves the next request */
        }
        T_EQ_INT(retirements(c), 0);    /* a RETIRE after a RESTART is not one */
        /* A good one: the pieces before it are dropped, the document after it is the reply. */
        before = restarts(c);
        prc_err_init(&err);
        T_ASSERT(prc_client_call(c, PRC_OP_TEST, PRC_T_RESTART, 0, "t", "ok", 2, NULL, 0, false, &doc, &err));
        T_NOERR(err);
        T_ASSERT(json_is_null(doc));
        T_EQ_INT(restarts(c), before + 1);
        json_decref(doc);
        prc_client_free(c);
}

static const prc_test worker_tests[] = {
        T(test_yaml_stream_worker__documents_refusals_and_restarts),
        T(test_yaml_stream_worker__reply_cap),
        T(test_yaml_stream_worker__restart_misuse_is_invalid_frame),
};
PRC_SUITE_NOSAN(yaml_stream_worker, worker_tests)
