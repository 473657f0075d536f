/*
 * fuzz_mdoc_pack.c - prc sbom's reading of a reply's dependencies into a
 * table (mdoc_pack.h), against the tree: the input is a reply document,
 * either its bytes (first byte even) or a ManifestDoc as JSON, encoded
 * counted (first byte 1 mod 4) or open (3 mod 4).  Invariants: the reader
 * with the table hook, whole and as a stream of small pieces in a moving
 * buffer, and the plain reader then prc_mdoc_check, give the same verdict
 * with the same error (class, message, pointer; the stream's class); an accepted document has
 * the tree's values, its table holds the tree's dependencies and is byte
 * for byte the table packed from the checked tree.
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
        if (r->doc != NULL && !prc_mdp_check(r->doc, hc.made, NULL, NULL, &from_tree, &r->err)) {
                json_decref(r->doc);
                r->doc = NULL;
        }
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

PRC_FUZZ_TARGET(mdoc_pack)
{
        struct reading g, k, ks;
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
                json_t *md = prc_json_parse(p + 1, n - 1, &prc_limits_fuzz,
                                            PRC_JSON_ALLOW_NUL | PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT,
                                            &err);
                bool ok = md != NULL && (p[0] % 4 == 1 ? prc_docbin_write(md, &enc, &err)
                                                       : prc_docbin_write_open(md, &enc, &err));
                json_decref(md);
                if (!ok) {
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
        if ((g.doc == NULL) != (k.doc == NULL) || (g.doc == NULL) != (ks.doc == NULL))
                __builtin_trap();
        if (g.doc == NULL) {
                same_error(&g.err, &k.err);
                /* a stream's messages count the bytes it was handed: its class is the same */
                if (ks.err.cls != g.err.cls)
                        __builtin_trap();
        } else {
                same_doc(g.doc, k.doc);
                same_doc(g.doc, ks.doc);
        }
        json_decref(g.doc);
        json_decref(k.doc);
        json_decref(ks.doc);
        prc_buf_clear(&enc);
        return 0;
}
