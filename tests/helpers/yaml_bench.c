/*
 * yaml_bench.c - in-process throughput of the YAML loader, with the strict
 * JSON reader beside it on the same bytes (bench/yaml.sh drives it).
 *
 *   yaml_bench ROUNDS FILE...
 *
 * For each FILE: ROUNDS timed loads with prc_yaml_load (target limits,
 * floats as text) and, for .json files, ROUNDS with prc_json_parse; prints
 * "FILE BYTES yaml|json MEDIAN_US MB_PER_S" per loader, or "refused CLASS".
 * Trust: test-only.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/json_strict.h"
#include "base/yaml.h"

static double now_us(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return x < y ? -1 : x > y;
}

static void bench(const char *path, const prc_buf *b, bool json, int rounds)
{
        double *t = calloc((size_t)rounds, sizeof(*t)), med;

        for (int r = 0; r < rounds; r++) {
                prc_err e;
                double t0 = now_us();
                json_t *v;
                prc_err_init(&e);
                v = json ? prc_json_parse(b->data, b->len, &prc_limits_default, 0, &e)
                         : prc_yaml_load(b->data, b->len, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &e);
                t[r] = now_us() - t0;
                if (v == NULL) {
                        printf("%s %zu %s refused %s\n", path, b->len, json ? "json" : "yaml", prc_err_name(e.cls));
                        free(t);
                        return;
                }
                json_decref(v);
        }
        qsort(t, (size_t)rounds, sizeof(*t), cmp_double);
        med = t[rounds / 2];
        printf("%s %zu %s %.0f %.1f\n", path, b->len, json ? "json" : "yaml", med, (double)b->len / med);
        free(t);
}

int main(int argc, char **argv)
{
        int rounds;

        if (argc < 3) {
                fprintf(stderr, "usage: yaml_bench ROUNDS FILE...\n");
                return 2;
        }
        rounds = (int)strtol(argv[1], NULL, 10);
        if (rounds < 1)
                rounds = 1;
        for (int i = 2; i < argc; i++) {
                prc_buf b;
                prc_err e;
                size_t n = strlen(argv[i]);

                prc_err_init(&e);
                prc_buf_init(&b, prc_limits_default.input_max);
                if (!prc_file_read(argv[i], prc_limits_default.input_max, 0, &b, &e)) {
                        printf("%s 0 read refused %s\n", argv[i], prc_err_name(e.cls));
                        prc_buf_clear(&b);
                        continue;
                }
                bench(argv[i], &b, false, rounds);
                if (n > 5 && strcmp(argv[i] + n - 5, ".json") == 0)
                        bench(argv[i], &b, true, rounds);
                prc_buf_clear(&b);
        }
        return 0;
}
