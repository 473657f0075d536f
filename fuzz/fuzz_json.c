/*
 * fuzz_json.c - libFuzzer harness for the strict JSON reader and the JCS
 * writer.  Invariants: exactly one outcome per parse (a document or an
 * error, never both or neither); a parsed document is writable as canonical
 * JSON, or fails not-canonical only when floats were allowed; the canonical
 * form parses again and is a fixed point; a nodes-limit refusal is real
 * (the tree built without that limit is too big); and the reader's fast
 * path changes nothing: prc_json_parse and the jansson path
 * (prc_json_parse_jansson) give the same tree, member order and integer
 * and real bits included, or the same refusal (class, offset, line,
 * column, pointer, message); every flag only widens acceptance (an
 * accepted input gives the same tree under all flags); a tree kept for its
 * own bytes, limits and flags (base/kept.h, the worker's JSON verdict) is
 * what the next parse of that key, or of it with more flags, returns, once.
 * Seeds: fuzz/corpus/json/.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/kept.h"
#include "fuzz.h"

/* Values in a tree and the widest object, counted the simple way. */
static uint64_t count(const json_t *v, size_t *widest)
{
        uint64_t c = 1;
        const char *k;
        json_t *e;
        size_t i;

        if (json_is_array(v)) {
                json_array_foreach(v, i, e)
                        c += count(e, widest);
        } else if (json_is_object(v)) {
                if (json_object_size(v) > *widest)
                        *widest = json_object_size(v);
                json_object_foreach((json_t *)v, k, e)
                        c += count(e, widest);
        }
        return c;
}

/*
 * nodes-limit must be earned: with the node and key limits lifted the same
 * input must really hold more values (or a wider object) than allowed.
 * This checks the reader's cheap pre-scan count against the real tree.
 */
static void check_nodes_refusal(const uint8_t *p, size_t n, unsigned flags)
{
        prc_limits big = prc_limits_fuzz;
        size_t widest = 0;
        prc_err e;
        json_t *v;

        big.nodes_max = UINT32_MAX;
        big.keys_max = UINT32_MAX;
        prc_err_init(&e);
        v = prc_json_parse(p, n, &big, flags, &e);
        if (v == NULL)
                return;         /* refused for another reason too */
        if (count(v, &widest) <= prc_limits_fuzz.nodes_max && widest <= prc_limits_fuzz.keys_max)
                __builtin_trap();
        json_decref(v);
}

/* The fast path and the jansson path agree on p[0..n) under lim and flags. */
static void check_paths(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags)
{
        prc_err ef, ej;
        json_t *vf, *vj;

        prc_err_init(&ef);
        prc_err_init(&ej);
        vf = prc_json_parse(p, n, lim, flags, &ef);
        vj = prc_json_parse_jansson(p, n, lim, flags, &ej);
        if ((vf == NULL) != (vj == NULL))
                __builtin_trap();
        if (vf == NULL && !prc_err_same(&ef, &ej))
                __builtin_trap();
        if (vf != NULL && !prc_json_same(vf, vj))
                __builtin_trap();
        json_decref(vf);
        json_decref(vj);
}

enum { ALL_FLAGS = PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT | PRC_JSON_ALLOW_NUL };

static void one(const uint8_t *p, size_t n, unsigned flags)
{
        prc_err err, e2;
        prc_buf out, again;
        json_t *v, *w;

        prc_err_init(&err);
        v = prc_json_parse(p, n, &prc_limits_fuzz, flags, &err);
        if ((v == NULL) != (err.cls != PRC_E_OK))       /* exactly one outcome */
                __builtin_trap();
        if (v == NULL) {
                if (err.cls == PRC_E_NODES_LIMIT)
                        check_nodes_refusal(p, n, flags);
                return;
        }
        /* Every flag only widens acceptance: with all of them the same bytes give the same tree. */
        prc_err_init(&e2);
        w = prc_json_parse(p, n, &prc_limits_fuzz, ALL_FLAGS, &e2);
        if (w == NULL || !prc_json_same(v, w))
                __builtin_trap();
        json_decref(w);
        /* The worker's kept verdict (base/kept.h): the same bytes and limits, these flags or more, take it, once. */
        prc_kept_put(PRC_KEPT_JSON, p, n, &prc_limits_fuzz, flags, json_incref(v), NULL, NULL);
        prc_err_init(&e2);
        w = prc_json_parse(p, n, &prc_limits_fuzz, ALL_FLAGS, &e2);
        if (w != v || !prc_kept_taken() || prc_kept_take(PRC_KEPT_JSON, p, n, &prc_limits_fuzz, flags, NULL) != NULL)
                __builtin_trap();
        json_decref(w);
        prc_buf_init(&out, 1u << 20);
        if (!prc_jcs_write(v, &out, &err)) {
                if (!(flags & PRC_JSON_ALLOW_FLOAT) || err.cls != PRC_E_NOT_CANONICAL)
                        __builtin_trap();
                goto out;
        }
        /* Canonical text is never longer than its source, so the same limits hold. */
        prc_err_init(&e2);
        w = prc_json_parse(out.data, out.len, &prc_limits_fuzz, flags, &e2);
        if (w == NULL)
                __builtin_trap();
        prc_buf_init(&again, 1u << 20);
        if (!prc_jcs_write(w, &again, &e2) || again.len != out.len || memcmp(again.data, out.data, out.len) != 0)
                __builtin_trap();
        prc_buf_clear(&again);
        json_decref(w);
out:
        prc_buf_clear(&out);
        json_decref(v);
}

PRC_FUZZ_TARGET(json)
{
        static const unsigned modes[] = { 0, PRC_JSON_ALLOW_FLOAT,
                                          PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT | PRC_JSON_ALLOW_NUL };

        one(p, n, 0);
        one(p, n, PRC_JSON_ALLOW_FLOAT);
        for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
                check_paths(p, n, &prc_limits_fuzz, modes[i]);
                check_paths(p, n, &prc_limits_default, modes[i]);
        }
        return 0;
}
