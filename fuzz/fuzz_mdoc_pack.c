/*
 * fuzz_mdoc_pack.c - prc sbom's reading of a reply's dependencies into a
 * table (mdoc_pack.h), against the tree: the input is a reply document,
 * either its bytes (first byte even) or a ManifestDoc as JSON, encoded
 * counted (first byte 1 mod 4) or open (3 mod 4).  Invariants: the reader
 * with the table hook, whole and as a stream of small pieces in a moving
 * buffer, and the plain reader then prc_mdoc_check, give the same verdict
 * with the same error (class, message, pointer; the stream's class); an accepted document has
 * the tree's values, its table holds the tree's dependencies and is byte
 * for byte the table packed from the checked tree.  A worker's table (a
 * blob, protocol version 7), which the plain reader refuses as an unknown
 * tag: one the hook takes holds dependencies prc_mdoc_check takes (its tree,
 * put in the document's place, reads and checks back to the same values).
 * And for a ManifestDoc as JSON: the worker's packer (prc_mdp_pack_checked)
 * packs every dependency array the tree reading accepts, to the same bytes
 * as prc_mdp_from_tree, into a table prc_mdp_table_check takes; sent as a
 * blob, the document reads as the tree does (the same verdict and error).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "content/docenc.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"
#include "fuzz.h"

struct piecewise {
        const uint8_t *p;
        size_t         n;
        uint8_t       *buf;     /* owned: a new buffer on every call, as the client's may move */
        size_t         have;    /* bytes handed over */
};

static bool fill5(void *ctx, const uint8_t **buf, size_t have, size_t need, size_t *out_have, prc_err *err)
{
        struct piecewise *s = ctx;
        size_t to = need + 5 < s->n ? need + 5 : s->n;
        uint8_t *nb = malloc(to + 1);

        if (nb == NULL)
                return prc_err_oom(err, "fuzz buffer");
        if (have > 0)
                memcpy(nb, s->buf, have);
        memcpy(nb + have, s->p + have, to - have);
        free(s->buf);
        s->buf = nb;
        *buf = nb;
        *out_have = s->have = to;
        return true;
}

struct reading {
        json_t *doc;
        prc_err err;
};

static void packed(const uint8_t *p, size_t n, bool stream, struct reading *r)
{
        prc_mdp_hook_ctx hc = { 0 };
        prc_docbin_hook h = { .key = "dependencies", .read = prc_mdp_hook_read, .ctx = &hc };
        struct piecewise s = { .p = p, .n = n };
        bool from_tree;

        prc_err_init(&r->err);
        r->doc = stream ? prc_docbin_read_stream_hook(NULL, n, 0, fill5, &s, &prc_limits_fuzz, &h, &r->err)
                        : prc_docbin_read_stream_hook(p, n, n, NULL, NULL, &prc_limits_fuzz, &h, &r->err);
        free(s.buf);
        /* The stream reader stops where the document ends; bytes after it are for the source to refuse. */
        if (stream && r->doc != NULL && s.have != n) {
                json_decref(r->doc);
                r->doc = NULL;
                prc_err_set(&r->err, PRC_E_INVALID_FRAME, "bytes after the document");
        }
        if (r->doc != NULL && !prc_mdp_check(r->doc, hc.made, NULL, NULL, false, &from_tree, &r->err)) {
                json_decref(r->doc);
                r->doc = NULL;
        }
}

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        (void)last;
        return prc_buf_put(ctx, p, n, err);
}

static void same_error(const prc_err *a, const prc_err *b)
{
        if (a->cls != b->cls || strcmp(a->msg, b->msg) != 0 || strcmp(a->ptr, b->ptr) != 0)
                __builtin_trap();
}

/* k (a table reading) holds g's values (g: the tree reading, accepted). */
static void same_doc(const json_t *g, const json_t *k)
{
        json_t *tab = prc_mdp_from_tree(json_object_get(g, "dependencies")), *back, *rg, *rk;
        const json_t *kd = json_object_get(k, "dependencies");
        prc_mdp view;

        if (tab == NULL || !prc_mdp_view(kd, &view) || (back = prc_mdp_to_tree(&view)) == NULL)
                __builtin_trap();
        if (!json_equal(back, json_object_get(g, "dependencies")) || json_string_length(tab) != json_string_length(kd) ||
            memcmp(json_string_value(tab), json_string_value(kd), json_string_length(kd)) != 0)
                __builtin_trap();
        rg = json_deep_copy(g);
        rk = json_deep_copy(k);
        if (rg == NULL || rk == NULL)
                __builtin_trap();
        json_object_del(rg, "dependencies");
        json_object_del(rk, "dependencies");
        if (!json_equal(rg, rk))
                __builtin_trap();
        json_decref(rg);
        json_decref(rk);
        json_decref(back);
        json_decref(tab);
}

static bool limit_class(prc_errclass c)
{
        return c == PRC_E_NODES_LIMIT || c == PRC_E_SCALAR_LIMIT || c == PRC_E_DEPTH_LIMIT;
}

/* k (read with the hook, holding a table) against its own tree put back: the plain reader and prc_mdoc_check agree. */
static void blob_taken(const json_t *k)
{
        const json_t *kd = json_object_get(k, "dependencies");
        json_t *t = json_deep_copy(k), *back, *g2;
        prc_buf enc;
        prc_mdp view;
        prc_err err;

        if (t == NULL || !prc_mdp_view(kd, &view) || (back = prc_mdp_to_tree(&view)) == NULL ||
            json_object_set_new(t, "dependencies", back) != 0)
                __builtin_trap();
        prc_err_init(&err);
        prc_buf_init(&enc, (size_t)64 << 20);
        if (!prc_docbin_write(t, &enc, &err))
                __builtin_trap();
        /* The default limits: a table's dependencies cost no nodes, so their tree may pass the fuzzer's. */
        g2 = prc_docbin_read(enc.data, enc.len, &prc_limits_default, &err);
        if (g2 == NULL || !prc_mdoc_check(g2, NULL, NULL, &err) ||
            !json_equal(json_object_get(g2, "dependencies"), json_object_get(t, "dependencies")))
                __builtin_trap();
        json_decref(g2);
        json_decref(t);
        prc_buf_clear(&enc);
}

/* A ManifestDoc as JSON (md), read as a tree into g: the worker's packer and the blob it sends. */
static void worker_table(const json_t *md, const struct reading *g)
{
        const json_t *deps = json_object_get(md, "dependencies");
        json_t *t, *ft;
        struct reading k;
        size_t at;
        prc_buf chunk, enc;
        uint64_t sent = 0;
        prc_err err;

        prc_err_init(&err);
        t = prc_mdp_pack_checked(deps, &err);
        if (t == NULL) {
                /* Declined: never a dependency array the tree reading takes (out of memory aside). */
                if (g->doc != NULL && !prc_err_is_set(&err))
                        __builtin_trap();
                return;
        }
        if (prc_mdp_table_check((const uint8_t *)json_string_value(t), json_string_length(t), &at) != NULL)
                __builtin_trap();
        if (g->doc != NULL) {
                ft = prc_mdp_from_tree(json_object_get(g->doc, "dependencies"));
                if (ft == NULL || json_string_length(ft) != json_string_length(t) ||
                    memcmp(json_string_value(ft), json_string_value(t), json_string_length(t)) != 0)
                        __builtin_trap();
                json_decref(ft);
        }
        prc_buf_init(&chunk, (size_t)64 << 20);
        prc_buf_init(&enc, (size_t)64 << 20);
        if (!prc_docbin_stream_blob(md, "dependencies", (const uint8_t *)json_string_value(t), json_string_length(t),
                                    &chunk, collect, &enc, &sent, &err)) {
                json_decref(t);
                prc_buf_clear(&chunk);
                prc_buf_clear(&enc);
                return;         /* a document the worker could not encode (not UTF-8 elsewhere): never sent */
        }
        packed(enc.data, enc.len, false, &k);
        if (k.doc != NULL)
                blob_taken(k.doc);
        /* The same verdict and error, but where the tree met a limit (nodes, long strings) a table does not have. */
        if (g->doc != NULL ? k.doc == NULL
                           : !limit_class(g->err.cls) && (k.doc != NULL || !prc_err_same(&g->err, &k.err)))
                __builtin_trap();
        json_decref(k.doc);
        json_decref(t);
        prc_buf_clear(&chunk);
        prc_buf_clear(&enc);
}

PRC_FUZZ_TARGET(mdoc_pack)
{
        struct reading g, k, ks;
        json_t *md = NULL;
        prc_buf enc;
        prc_err err;

        if (n == 0)
                return 0;
        prc_buf_init(&enc, (size_t)16 << 20);
        prc_err_init(&err);
        if (p[0] % 2 == 0) {
                if (!prc_buf_put(&enc, p + 1, n - 1, &err))
                        return 0;
        } else {
                bool ok;
                md = prc_json_parse(p + 1, n - 1, &prc_limits_fuzz,
                                    PRC_JSON_ALLOW_NUL | PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT, &err);
                ok = md != NULL && (p[0] % 4 == 1 ? prc_docbin_write(md, &enc, &err)
                                                  : prc_docbin_write_open(md, &enc, &err));
                if (!ok) {
                        json_decref(md);
                        prc_buf_clear(&enc);
                        return 0;
                }
        }
        prc_err_init(&g.err);
        g.doc = prc_docbin_read(enc.data, enc.len, &prc_limits_fuzz, &g.err);
        if (g.doc != NULL && !prc_mdoc_check(g.doc, NULL, NULL, &g.err)) {
                json_decref(g.doc);
                g.doc = NULL;
        }
        packed(enc.data, enc.len, false, &k);
        packed(enc.data, enc.len, true, &ks);
        if (g.doc == NULL && g.err.cls == PRC_E_INVALID_FRAME &&
            strncmp(g.err.msg, "unknown value tag 0x0b", 22) == 0) {
                /* A blob: the plain reader never takes one; what the hook takes must be what check_dep takes. */
                if ((k.doc == NULL) != (ks.doc == NULL))
                        __builtin_trap();
                if (k.doc != NULL) {
                        blob_taken(k.doc);
                        blob_taken(ks.doc);
                }
        } else if ((g.doc == NULL) != (k.doc == NULL) || (g.doc == NULL) != (ks.doc == NULL)) {
                __builtin_trap();
        } else if (g.doc == NULL) {
                same_error(&g.err, &k.err);
                /* a stream's messages count the bytes it was handed: its class is the same */
                if (ks.err.cls != g.err.cls)
                        __builtin_trap();
        } else {
                same_doc(g.doc, k.doc);
                same_doc(g.doc, ks.doc);
        }
        if (md != NULL)
                worker_table(md, &g);
        json_decref(md);
        json_decref(g.doc);
        json_decref(k.doc);
        json_decref(ks.doc);
        prc_buf_clear(&enc);
        return 0;
}
