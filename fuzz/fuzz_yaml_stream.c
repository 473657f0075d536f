/*
 * fuzz_yaml_stream.c - the worker's streaming YAML reply against
 * prc_yaml_load, differentially: the same outcome for every input (a
 * refusal with the very same class, offset, line, column, pointer and
 * message, or a document); the same tree; and when it streams, exactly
 * prc_docbin_write_open of prc_yaml_load's tree, in pieces of at least
 * PRC_DOCBIN_CHUNK bytes but the last, which the client's reader decodes
 * to the tree it decodes from the counted encoding.  It may fall back only
 * on a `<<` merge key (or memory).  The first byte picks the flags, the
 * limits (small ones, so every limit is met) and whether positions are
 * composed too (prc_yaml_stream_pos against prc_yaml_load_pos: the same
 * place for every node; the kept tree and table are taken back by the next
 * load of the same key, yaml.h prc_yaml_keep).
 */
#include <jansson.h>
#include <string.h>

#include "base/yaml.h"
#include "content/docenc.h"
#include "content/yaml_stream.h"
#include "fuzz.h"

/* libfyaml's own leak on some syntax-error paths: see fuzz_yaml.c (whose copy wins in the replayer, which links both). */
const char *__lsan_default_suppressions(void) __attribute__((weak));
const char *__lsan_default_suppressions(void)
{
        return "leak:libfyaml.so\n";
}

struct sink {
        prc_buf *all;
        bool     last_seen;
};

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct sink *s = ctx;

        if (s->last_seen || (!last && n < PRC_DOCBIN_CHUNK) || (last && n == 0))
                __builtin_trap();       /* a piece after the last, a short piece before it, an empty last */
        s->last_seen = last;
        return prc_buf_put(s->all, p, n, err);
}

/* The places of v's nodes in a (from id ia) and b (from ib) are the same. */
static bool same_pos(const prc_yaml_pos *a, uint32_t ia, const prc_yaml_pos *b, uint32_t ib, const json_t *v)
{
        prc_yaml_at x, y;
        const char *k;
        json_t *m;
        size_t i;
        bool ok = true;

        if (ia == 0 || ib == 0)
                return ia == ib;
        if (!prc_yaml_pos_get(a, ia, &x) || !prc_yaml_pos_get(b, ib, &y) || x.line != y.line || x.col != y.col ||
            x.key_line != y.key_line || x.key_col != y.key_col || x.style != y.style)
                return false;
        json_object_foreach((json_t *)v, k, m)
                ok = ok && same_pos(a, prc_yaml_pos_key(a, ia, k), b, prc_yaml_pos_key(b, ib, k), m);
        json_array_foreach(v, i, m)
                ok = ok && same_pos(a, prc_yaml_pos_index(a, ia, i), b, prc_yaml_pos_index(b, ib, i), m);
        return ok;
}

static bool same_err(const prc_err *a, const prc_err *b)
{
        return a->cls == b->cls && a->off == b->off && a->line == b->line && a->col == b->col &&
               strcmp(a->ptr, b->ptr) == 0 && strcmp(a->msg, b->msg) == 0;
}

PRC_FUZZ_TARGET(yaml_stream)
{
        prc_limits lim;
        unsigned flags;
        prc_err err, serr, e1, e2;
        prc_buf want, counted, got, chunk;
        struct sink sk = { .all = &got };
        uint64_t size = 0;
        const char *why = NULL;
        prc_ys_rc rc;
        prc_yaml_pos *pl = NULL, *ps = NULL, *pk = NULL;
        json_t *v, *doc = NULL, *d1, *d2;
        bool with_pos;

        if (n == 0)
                return 0;
        flags = p[0] & (PRC_YAML_ALLOW_FLOAT | PRC_YAML_FLOAT_AS_STRING);
        lim = (p[0] & 0x80) ? prc_limits_default : prc_limits_fuzz;
        with_pos = (p[0] & 0x40) != 0;
        p++;
        n--;
        prc_err_init(&err);
        v = with_pos ? prc_yaml_load_pos(p, n, &lim, flags, &pl, &err) : prc_yaml_load(p, n, &lim, flags, &err);
        prc_buf_init(&want, 64u << 20);
        prc_buf_init(&counted, 64u << 20);
        prc_buf_init(&got, 64u << 20);
        prc_buf_init(&chunk, 64u << 20);
        prc_err_init(&serr);
        rc = prc_yaml_stream_pos(p, n, &lim, flags, &chunk, collect, &sk, &size, &doc, with_pos ? &ps : NULL, &why,
                                 &serr);
        if (v == NULL) {
                if (rc != PRC_YS_REFUSED || doc != NULL || ps != NULL || !same_err(&err, &serr))
                        __builtin_trap();       /* not prc_yaml_load's refusal, to the letter */
                goto out;
        }
        if (rc == PRC_YS_REFUSED || doc == NULL || !json_equal(v, doc) || size != got.len)
                __builtin_trap();
        if (with_pos) {
                prc_err ek;
                if (ps == NULL || !same_pos(pl, prc_yaml_pos_root(pl), ps, prc_yaml_pos_root(ps), v))
                        __builtin_trap();       /* not prc_yaml_load_pos's places */
                prc_err_init(&ek);
                prc_yaml_keep(p, n, &lim, flags, doc, ps);
                if (prc_yaml_load_pos(p, n, &lim, flags, &pk, &ek) != doc || pk != ps)
                        __builtin_trap();       /* the kept tree and table are not taken back */
        }
        prc_err_init(&e1);
        if (!prc_docbin_write_open(v, &want, &e1) || !prc_docbin_write(v, &counted, &e1))
                goto out;       /* the tree does not encode (a NUL in a string is fine; memory): nothing to compare */
        if (rc == PRC_YS_FALLBACK) {
                /* Only a merge key may stop a stream that could be written. */
                if (why == NULL || strcmp(why, "a '<<' merge key") != 0 || memmem(p, n, "<<", 2) == NULL)
                        __builtin_trap();
                goto out;
        }
        if (!sk.last_seen || want.len != got.len || memcmp(want.data, got.data, got.len) != 0)
                __builtin_trap();       /* not the bytes of prc_yaml_load's tree */
        /* The client's reader: the same outcome from either spelling, and the same tree. */
        prc_err_init(&e1);
        prc_err_init(&e2);
        d1 = prc_docbin_read(got.data, got.len, &lim, &e1);
        d2 = prc_docbin_read(counted.data, counted.len, &lim, &e2);
        if ((d1 == NULL) != (d2 == NULL) || e1.cls != e2.cls || (d1 != NULL && !json_equal(d1, v)) ||
            (d2 != NULL && !json_equal(d2, v)))
                __builtin_trap();
        json_decref(d1);
        json_decref(d2);
out:
        prc_yaml_pos_free(pl);
        prc_yaml_pos_free(ps);
        json_decref(doc);
        json_decref(v);
        prc_buf_clear(&want);
        prc_buf_clear(&counted);
        prc_buf_clear(&got);
        prc_buf_clear(&chunk);
        return 0;
}
