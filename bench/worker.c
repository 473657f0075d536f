/*
 * worker.c - content worker benchmark (run by bench/worker.sh against the
 * release build): start-up to first reply, round trips per second for a
 * small document, and 1 MiB JSON and YAML documents parsed in process
 * (the dispatch entry the worker runs, with the limits the client sends)
 * and through the worker (what a caller gets: a jansson tree), alternating
 * sides in one run.  Medians and ratios; no assertions.
 *
 *   worker PRC_BINARY
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "base/yaml.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/frame.h"
#include "content/json_stream.h"
#include "content/yaml_stream.h"

/* A sink that only counts: the streaming reader's own time. */
static bool discard(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        (void)p;
        (void)last;
        (void)err;
        *(size_t *)ctx += n;
        return true;
}

static int cmp_i64(const void *a, const void *b)
{
        int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
        return x < y ? -1 : x > y;
}

static double median_ms(int64_t *v, size_t n)
{
        qsort(v, n, sizeof(*v), cmp_i64);
        return (n % 2 ? (double)v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0) / 1e6;
}

static prc_client *mk(const char *bin)
{
        prc_client_opts o;
        prc_err err;

        prc_client_opts_default(&o);
        o.worker_path = bin;
        o.cache_max = 0;        /* every request is a real round trip */
        o.max_requests = 0;
        prc_err_init(&err);
        return prc_client_new(&o, &err);
}

static void die(const char *what, const prc_err *e)
{
        fprintf(stderr, "bench: %s: %s: %s\n", what, prc_err_name(e->cls), e->msg);
        exit(1);
}

/* Median of reps timings of one parse, in process or through c. */
static double time_parse(prc_client *c, const uint8_t *p, size_t n, int reps)
{
        int64_t t[64];
        prc_err err;

        for (int i = 0; i < reps; i++) {
                json_t *v = NULL;
                int64_t t0 = prc_now_ns();
                prc_err_init(&err);
                if (c == NULL)
                        v = prc_json_parse(p, n, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &err);
                else if (!prc_client_parse(c, 1, "bench.json", p, n, &v, &err))
                        v = NULL;
                if (v == NULL)
                        die("parse", &err);
                t[i] = prc_now_ns() - t0;
                json_decref(v);
        }
        return median_ms(t, (size_t)reps);
}

/*
 * A bump arena like the worker's (content/worker.c), to time the parser in
 * process with the allocator the worker gives jansson: it tells the
 * allocator's share of the difference from the sandbox's.
 */
static uint8_t *bench_arena;
static size_t bench_used, bench_cap;

static void *bench_alloc(size_t n)
{
        size_t at = (bench_used + 15) & ~(size_t)15;

        if (n > bench_cap - at)
                return NULL;
        bench_used = at + n;
        return bench_arena + at;
}

static void bench_free(void *p)
{
        (void)p;
}

/* One parse through the dispatch entry in process (c == NULL) or through c; nanoseconds. */
static int64_t time_one(prc_client *c, const prc_req *r)
{
        prc_err err;
        json_t *v = NULL;
        int64_t t0, t;

        prc_err_init(&err);
        t0 = prc_now_ns();
        if (c == NULL)
                v = prc_dispatch_run(r, &err);
        else if (!prc_client_parse(c, r->format, "bench", r->input, r->input_len, &v, &err))
                v = NULL;
        t = prc_now_ns() - t0;
        if (v == NULL)
                die("parse", &err);
        json_decref(v);         /* outside the clock on both sides */
        return t;
}

/* About 1 MiB of package records, as JSON or as block YAML (the same records). */
static void build_doc(prc_buf *b, uint16_t fmt)
{
        prc_err err;
        bool ok = true;

        prc_err_init(&err);
        if (fmt == PRC_FMT_JSON)
                ok = prc_buf_putc(b, '[', &err);
        for (int i = 0; ok && b->len < (1u << 20) - 200; i++) {
                if (fmt == PRC_FMT_JSON)
                        ok = prc_buf_printf(b, &err, "%s{\"id\":%d,\"name\":\"package-%d\",\"version\":\"%d.%d.%d\","
                                            "\"score\":%d.25,\"tags\":[\"a\",\"b\"],\"ok\":true}", i ? "," : "", i, i,
                                            i % 10, i % 7, i % 13, i % 100);
                else
                        ok = prc_buf_printf(b, &err, "- id: %d\n  name: package-%d\n  version: \"%d.%d.%d\"\n"
                                            "  score: %d.25\n  tags: [a, b]\n  ok: true\n", i, i, i % 10, i % 7,
                                            i % 13, i % 100);
        }
        if (ok && fmt == PRC_FMT_JSON)
                ok = prc_buf_putc(b, ']', &err);
        if (!ok)
                die("build", &err);
}

int main(int argc, char **argv)
{
        enum { STARTS = 41, SMALL = 2000, BIGREPS = 31 };
        static const char small[] = "{\"name\":\"demo\",\"version\":\"1.2.3\",\"dependencies\":"
                                    "{\"left-pad\":\"^1.3.0\",\"lodash\":\"4.17.21\"},\"private\":true}";
        int64_t st[STARTS];
        prc_client *c;
        prc_err err;
        int64_t t0;
        double in_rate, w_rate;

        if (argc != 2) {
                fprintf(stderr, "usage: worker PRC_BINARY\n");
                return 2;
        }
        bench_cap = 256u << 20;
        bench_arena = malloc(bench_cap);
        if (bench_arena == NULL) {
                fprintf(stderr, "bench: no memory for the arena\n");
                return 1;
        }
        /* 1. Start-up: spawn, floor, READY, one ping reply. */
        for (int i = 0; i < STARTS; i++) {
                json_t *v = NULL;
                c = mk(argv[1]);
                prc_err_init(&err);
                t0 = prc_now_ns();
                if (!prc_client_call(c, PRC_OP_PING, 0, 0, "ping", NULL, 0, NULL, 0, false, &v, &err))
                        die("ping", &err);
                st[i] = prc_now_ns() - t0;
                json_decref(v);
                prc_client_free(c);
        }
        printf("start-up to first reply: median %.2f ms over %d workers\n", median_ms(st, STARTS), STARTS);

        /* 2. Small document: round trips per second against in-process parses. */
        c = mk(argv[1]);
        t0 = prc_now_ns();
        for (int i = 0; i < SMALL; i++)
                (void)time_parse(NULL, (const uint8_t *)small, sizeof(small) - 1, 1);
        in_rate = SMALL / ((prc_now_ns() - t0) / 1e9);
        (void)time_parse(c, (const uint8_t *)small, sizeof(small) - 1, 1);     /* start the worker first */
        t0 = prc_now_ns();
        for (int i = 0; i < SMALL; i++)
                (void)time_parse(c, (const uint8_t *)small, sizeof(small) - 1, 1);
        w_rate = SMALL / ((prc_now_ns() - t0) / 1e9);
        printf("small document (%zu B): in process %.0f/s, through the worker %.0f round trips/s, "
               "ratio %.1fx slower\n", sizeof(small) - 1, in_rate, w_rate, in_rate / w_rate);

        /* 3. 1 MiB JSON and YAML documents, in process and through the worker, alternating. */
        for (int f = 0; f < 2; f++) {
                uint16_t fmt = f == 0 ? PRC_FMT_JSON : PRC_FMT_YAML;
                prc_buf big;
                int64_t tin[BIGREPS], tw[BIGREPS], ta[BIGREPS], te[BIGREPS], td[BIGREPS];
                double in_big, w_big, e_ms, d_ms;
                prc_req r;
                json_t *v;
                prc_buf enc;

                prc_buf_init(&big, 2u << 20);
                build_doc(&big, fmt);
                memset(&r, 0, sizeof(r));
                r.op = PRC_OP_PARSE;
                r.format = fmt;
                r.lim = prc_limits_default;    /* what the client sends (prc_client_opts_default) */
                r.input = big.data;
                r.input_len = big.len;
                (void)time_one(NULL, &r);       /* warm-up of both sides */
                (void)time_one(c, &r);
                for (int i = 0; i < BIGREPS; i++) {
                        /* Alternate which side goes first, so drift on the host hits both alike. */
                        if (i % 2 == 0) {
                                tin[i] = time_one(NULL, &r);
                                tw[i] = time_one(c, &r);
                        } else {
                                tw[i] = time_one(c, &r);
                                tin[i] = time_one(NULL, &r);
                        }
                        /* The same parse in process on the worker's kind of arena (dropped outside the clock). */
                        prc_json_alloc_backend(bench_alloc, bench_free);
                        bench_used = 0;
                        ta[i] = time_one(NULL, &r);
                        prc_json_alloc_backend(NULL, NULL);
                }
                in_big = median_ms(tin, BIGREPS);
                w_big = median_ms(tw, BIGREPS);
                printf("1 MiB %s (%zu B): in process median %.2f ms, through the worker median %.2f ms, "
                       "ratio %.2fx (%+.0f%%)\n", f == 0 ? "JSON" : "YAML", big.len, in_big, w_big, w_big / in_big,
                       (w_big / in_big - 1) * 100);
                printf("  in process with jansson on an arena as in the worker: median %.2f ms "
                       "(worker / that: %.2fx)\n",
                       median_ms(ta, BIGREPS), w_big / median_ms(ta, BIGREPS));
                {
                        /* A worker that retires (kept memory, docs/content-protocol.md) would add start-ups here. */
                        prc_client_stats st;
                        prc_client_get_stats(c, &st);
                        printf("  workers started so far: %llu, retirements: %llu\n",
                               (unsigned long long)st.workers_started, (unsigned long long)st.retirements);
                }
                /* Where the difference goes: the reply's encoding (worker) and decoding (client), alone. */
                prc_err_init(&err);
                v = prc_dispatch_run(&r, &err);
                if (v == NULL)
                        die("parse", &err);
                prc_buf_init(&enc, 64u << 20);
                for (int i = 0; i < BIGREPS; i++) {
                        json_t *back;
                        prc_buf_reset(&enc);
                        t0 = prc_now_ns();
                        if (!prc_docbin_write(v, &enc, &err))
                                die("encode", &err);
                        te[i] = prc_now_ns() - t0;
                        t0 = prc_now_ns();
                        back = prc_docbin_read(enc.data, enc.len, &prc_limits_default, &err);
                        if (back == NULL)
                                die("decode", &err);
                        td[i] = prc_now_ns() - t0;
                        json_decref(back);
                }
                e_ms = median_ms(te, BIGREPS);
                d_ms = median_ms(td, BIGREPS);
                printf("  reply of %zu B: encoding %.2f ms, decoding %.2f ms (medians, alone; the worker streams, so "
                       "they overlap)\n", enc.len, e_ms, d_ms);
                if (fmt == PRC_FMT_JSON) {
                        /* What the worker runs for parse-json: text straight to the encoding, no tree. */
                        for (int i = 0; i < BIGREPS; i++) {
                                size_t got = 0;
                                uint64_t size;
                                prc_buf_reset(&enc);
                                t0 = prc_now_ns();
                                if (prc_json_stream(big.data, big.len, &r.lim, PRC_JSON_ALLOW_FLOAT, &enc, discard,
                                                    &got, &size, &err) != PRC_JS_DONE)
                                        die("stream", &err);
                                te[i] = prc_now_ns() - t0;
                        }
                        printf("  streaming reader alone (the worker's side of parse-json, text to the encoding): "
                               "median %.2f ms\n", median_ms(te, BIGREPS));
                } else {
                        /* What the worker runs for parse-yaml: prc_yaml_load's composer, writing the open spelling. */
                        size_t got = 0;
                        for (int i = 0; i < BIGREPS; i++) {
                                json_t *tree = NULL, *back;
                                uint64_t size;
                                prc_buf_reset(&enc);
                                got = 0;
                                t0 = prc_now_ns();
                                if (prc_yaml_stream(big.data, big.len, &r.lim, PRC_YAML_FLOAT_AS_STRING, &enc, discard,
                                                    &got, &size, &tree, NULL, &err) != PRC_YS_STREAMED)
                                        die("stream", &err);
                                te[i] = prc_now_ns() - t0;
                                json_decref(tree);
                                prc_buf_reset(&enc);
                                if (!prc_docbin_write_open(v, &enc, &err))
                                        die("encode", &err);
                                t0 = prc_now_ns();
                                back = prc_docbin_read(enc.data, enc.len, &prc_limits_default, &err);
                                if (back == NULL)
                                        die("decode", &err);
                                td[i] = prc_now_ns() - t0;
                                json_decref(back);
                        }
                        printf("  streaming composer alone (the worker's side of parse-yaml, to the %zu-B open "
                               "encoding): median %.2f ms; decoding that alone %.2f ms\n", got, median_ms(te, BIGREPS),
                               median_ms(td, BIGREPS));
                }
                prc_buf_clear(&enc);
                json_decref(v);
                prc_buf_clear(&big);
        }
        prc_client_free(c);
        free(bench_arena);
        return 0;
}
