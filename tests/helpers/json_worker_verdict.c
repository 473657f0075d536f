/*
 * json_worker_verdict.c - test helper: JSON verdicts through a real content
 * worker (the streaming reader), checked against the strict reader in process.
 *
 *   json_worker_verdict FILE...      (env PRC_WORKER_BIN: the worker, default build/prc)
 *
 * Prints json_verdict's lines ("FILE<TAB>float=V<TAB>int=V").  float is the
 * worker's answer to parse-json (PRC_JSON_ALLOW_FLOAT, default limits); it
 * must be prc_json_parse's in process: the same class, offset, line, column
 * and pointer on refusal, the same tree with the same member order on
 * acceptance.  int (integer-only mode, which parse-json never uses) is the
 * streaming reader called in process, which must stream exactly when
 * prc_json_parse accepts and then exactly its tree's bytes.  A disagreement
 * prints "BUG" and the helper exits 1.  Used by
 * tests/conformance/json-test-suite-worker.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/json_strict.h"
#include "content/client.h"
#include "content/docenc.h"
#include "content/json_stream.h"

static bool append(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        (void)last;
        return prc_buf_put(ctx, p, n, err);
}

static bool same_bytes(const json_t *a, const json_t *b)
{
        prc_buf x, y;
        prc_err e;
        bool ok;

        prc_err_init(&e);
        prc_buf_init(&x, 64u << 20);
        prc_buf_init(&y, 64u << 20);
        ok = prc_docbin_write(a, &x, &e) && prc_docbin_write(b, &y, &e) && x.len == y.len &&
             memcmp(x.data, y.data, x.len) == 0;
        prc_buf_clear(&x);
        prc_buf_clear(&y);
        return ok;
}

static int via_worker(prc_client *c, const char *path, const uint8_t *p, size_t n, char *out, size_t cap)
{
        prc_err we, le;
        json_t *w = NULL, *l;
        bool got;
        int bad = 0;

        prc_err_init(&we);
        prc_err_init(&le);
        got = prc_client_parse(c, PRC_FMT_JSON, path, p, n, &w, &we);
        l = prc_json_parse(p, n, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &le);
        if (got != (l != NULL))
                bad = 1;
        else if (got)
                bad = !json_equal(w, l) || !same_bytes(w, l);
        else
                bad = we.cls != le.cls || we.off != le.off || we.line != le.line || we.col != le.col ||
                      strcmp(we.ptr, le.ptr) != 0;
        if (bad)
                snprintf(out, cap, "BUG:worker-%s-local-%s", got ? "accept" : prc_err_name(we.cls),
                         l != NULL ? "accept" : prc_err_name(le.cls));
        else if (got)
                snprintf(out, cap, "accept");
        else
                snprintf(out, cap, "reject:%s", prc_err_name(le.cls));
        json_decref(w);
        json_decref(l);
        return bad;
}

static int in_process(const uint8_t *p, size_t n, unsigned flags, char *out, size_t cap)
{
        prc_err le, se;
        prc_buf chunk, all, want;
        uint64_t size;
        json_t *l;
        prc_js_rc rc;
        int bad;

        prc_err_init(&le);
        prc_err_init(&se);
        prc_buf_init(&chunk, 64u << 20);
        prc_buf_init(&all, 64u << 20);
        prc_buf_init(&want, 64u << 20);
        l = prc_json_parse(p, n, &prc_limits_default, flags, &le);
        rc = prc_json_stream(p, n, &prc_limits_default, flags, &chunk, append, &all, &size, &se);
        if (l == NULL)
                bad = rc != PRC_JS_DECLINED;
        else
                bad = rc != PRC_JS_DONE || !prc_docbin_write(l, &want, &le) || want.len != all.len ||
                      memcmp(want.data, all.data, all.len) != 0;
        if (bad)
                snprintf(out, cap, "BUG:stream-%d-local-%s", (int)rc, l != NULL ? "accept" : prc_err_name(le.cls));
        else if (l != NULL)
                snprintf(out, cap, "accept");
        else
                snprintf(out, cap, "reject:%s", prc_err_name(le.cls));
        json_decref(l);
        prc_buf_clear(&chunk);
        prc_buf_clear(&all);
        prc_buf_clear(&want);
        return bad;
}

int main(int argc, char **argv)
{
        prc_client_opts o;
        prc_client *c;
        prc_err e;
        int bad = 0;

        prc_client_opts_default(&o);
        o.worker_path = getenv("PRC_WORKER_BIN") ? getenv("PRC_WORKER_BIN") : "build/prc";
        o.cache_max = 0;        /* every file is a round trip */
        prc_err_init(&e);
        c = prc_client_new(&o, &e);
        if (c == NULL) {
                fprintf(stderr, "json_worker_verdict: %s\n", e.msg);
                return 2;
        }
        for (int i = 1; i < argc; i++) {
                char vf[96], vi[96], vs[96];
                const uint8_t *p;
                prc_buf b;

                prc_err_init(&e);
                prc_buf_init(&b, prc_limits_default.input_max + 1);
                if (!prc_file_read(argv[i], prc_limits_default.input_max + 1, 0, &b, &e)) {
                        fprintf(stderr, "json_worker_verdict: %s: %s\n", argv[i], e.msg);
                        prc_client_free(c);
                        return 2;
                }
                p = b.data ? b.data : (const uint8_t *)"";
                bad |= via_worker(c, argv[i], p, b.len, vf, sizeof(vf));
                bad |= in_process(p, b.len, PRC_JSON_ALLOW_FLOAT, vs, sizeof(vs));
                bad |= in_process(p, b.len, 0, vi, sizeof(vi));
                if (strncmp(vs, "BUG", 3) == 0)
                        memcpy(vf, vs, sizeof(vf));
                printf("%s\tfloat=%s\tint=%s\n", argv[i], vf, vi);
                prc_buf_clear(&b);
        }
        prc_client_free(c);
        return bad;
}
