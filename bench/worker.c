/*
 * worker.c - content worker benchmark (run by bench/worker.sh against the
 * release build): start-up to first reply, round trips per second for a
 * small document, and a 1 MiB JSON document parsed in process and through
 * the worker, side by side in one run.  Medians and ratios; no assertions.
 *
 *   worker PRC_BINARY
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "content/client.h"
#include "content/docenc.h"
#include "content/frame.h"

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

int main(int argc, char **argv)
{
        enum { STARTS = 41, SMALL = 2000, BIGREPS = 15 };
        static const char small[] = "{\"name\":\"demo\",\"version\":\"1.2.3\",\"dependencies\":"
                                    "{\"left-pad\":\"^1.3.0\",\"lodash\":\"4.17.21\"},\"private\":true}";
        int64_t st[STARTS];
        prc_client *c;
        prc_buf big;
        prc_err err;
        int64_t t0;
        double in_rate, w_rate, in_big, w_big;

        if (argc != 2) {
                fprintf(stderr, "usage: worker PRC_BINARY\n");
                return 2;
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

        /* 3. 1 MiB JSON document. */
        prc_buf_init(&big, 2u << 20);
        prc_err_init(&err);
        if (!prc_buf_putc(&big, '[', &err))
                die("build", &err);
        for (int i = 0; big.len < (1u << 20) - 200; i++)
                if (!prc_buf_printf(&big, &err, "%s{\"id\":%d,\"name\":\"package-%d\",\"version\":\"%d.%d.%d\","
                                    "\"score\":%d.25,\"tags\":[\"a\",\"b\"],\"ok\":true}", i ? "," : "", i, i,
                                    i % 10, i % 7, i % 13, i % 100))
                        die("build", &err);
        if (!prc_buf_putc(&big, ']', &err))
                die("build", &err);
        in_big = time_parse(NULL, big.data, big.len, BIGREPS);
        w_big = time_parse(c, big.data, big.len, BIGREPS);
        printf("1 MiB JSON (%zu B): in process median %.2f ms, through the worker median %.2f ms, "
               "ratio %.2fx (%+.0f%%)\n", big.len, in_big, w_big, w_big / in_big, (w_big / in_big - 1) * 100);
        {
                /* Where the difference goes: the reply's encoding (worker) and strict decoding (client). */
                int64_t te[BIGREPS], td[BIGREPS];
                json_t *v = prc_json_parse(big.data, big.len, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &err);
                prc_buf enc;
                double e_ms, d_ms, rest;
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
                rest = w_big - in_big - e_ms - d_ms;
                printf("  of which: reply encoding %.2f ms, strict reply decoding %.2f ms, "
                       "transfer and sandbox %.2f ms (%+.0f%% of the in-process parse)\n", e_ms, d_ms, rest,
                       rest / in_big * 100);
                prc_buf_clear(&enc);
                json_decref(v);
        }
        prc_buf_clear(&big);
        prc_client_free(c);
        return 0;
}
