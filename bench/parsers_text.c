/*
 * parsers_text.c - throughput of prc's TOML and JSONC readers against
 * jansson, in process, side by side in one run.
 *
 *   parsers_text [-t SECONDS] FILE...
 *
 * Per file (by suffix: .toml/.lock -> TOML, .json/.jsonc -> JSONC) it times:
 * prc's reader; jansson's json_loadb (and prc_json_parse) on JSON of the
 * same content (the document re-rendered with two-space indentation, so the
 * bytes are of comparable size); and for JSON inputs jansson on the file
 * itself.  The three readers run interleaved, one run each per round, for
 * about SECONDS (default 0.5); each reports the median MB/s over its runs.
 * Not a test: numbers, no asserts.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/limits.h"
#include "content/parsers/jsonc.h"
#include "content/parsers/toml.h"
#include "bench_time.h"

enum which { W_TOML, W_JSONC, W_JANSSON, W_STRICT };

static json_t *run(enum which w, const uint8_t *p, size_t n)
{
        prc_err e;
        json_error_t je;

        prc_err_init(&e);
        switch (w) {
        case W_TOML: return prc_toml_parse(p, n, &prc_limits_default, 0, &e);
        case W_JSONC: return prc_jsonc_parse(p, n, &prc_limits_default, 0, &e);
        case W_STRICT: return prc_json_parse(p, n, &prc_limits_default, 0, &e);
        case W_JANSSON: return json_loadb((const char *)p, n, JSON_REJECT_DUPLICATES, &je);
        }
        return NULL;
}

/*
 * Median MB/s of each of k readers, their runs interleaved (one run of each
 * per round) so that a change in machine load hits all of them alike.
 * out[i] is -1 if reader i refuses its input.
 */
struct job {
        enum which     w;
        const uint8_t *p;
        size_t         n;
};

static double rounds[3][5000];

static void measure(const struct job *jobs, size_t k, double secs, double *out)
{
        size_t r = 0;
        double start = bench_now();

        for (size_t i = 0; i < k; i++)
                out[i] = 0;
        while (r < 5 || (bench_now() - start < secs && r < PRC_ARRAY_LEN(rounds[0]))) {
                for (size_t i = 0; i < k; i++) {
                        double a = bench_now(), b;
                        json_t *v = run(jobs[i].w, jobs[i].p, jobs[i].n);
                        b = bench_now();
                        if (v == NULL)
                                out[i] = -1;
                        json_decref(v);
                        rounds[i][r] = b - a;
                }
                r++;
        }
        for (size_t i = 0; i < k; i++) {
                qsort(rounds[i], r, sizeof(rounds[i][0]), bench_cmp_d);
                if (out[i] == 0)
                        out[i] = (double)jobs[i].n / 1e6 / rounds[i][r / 2];
        }
}

static unsigned char *slurp(const char *path, size_t *n)
{
        FILE *f = fopen(path, "rb");
        unsigned char *b;
        long len;

        if (f == NULL)
                return NULL;
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        b = malloc(len > 0 ? (size_t)len : 1);
        if (b != NULL && len > 0 && fread(b, 1, (size_t)len, f) != (size_t)len) {
                free(b);
                b = NULL;
        }
        fclose(f);
        *n = len > 0 ? (size_t)len : 0;
        return b;
}

static bool ends(const char *s, const char *suf)
{
        size_t a = strlen(s), b = strlen(suf);

        return a >= b && strcmp(s + a - b, suf) == 0;
}

int main(int argc, char **argv)
{
        double secs = 0.5;
        int a = 1;

        if (argc > 2 && strcmp(argv[1], "-t") == 0) {
                secs = strtod(argv[2], NULL);
                a = 3;
        }
        printf("%-44s %9s %-6s %9s %13s %13s %7s\n", "file", "bytes", "reader", "MB/s", "jansson MB/s",
               "strict MB/s", "ratio");
        for (; a < argc; a++) {
                size_t n, jn;
                unsigned char *b = slurp(argv[a], &n);
                bool toml = ends(argv[a], ".toml") || ends(argv[a], ".lock");
                enum which w = toml ? W_TOML : W_JSONC;
                double mine, jan, strict;
                json_t *doc;
                char *json;
                const char *base = strrchr(argv[a], '/');
                char label[64];

                if (b == NULL) {
                        fprintf(stderr, "cannot read %s\n", argv[a]);
                        return 3;
                }
                /* The last two path parts name the file (repo__name/file). */
                base = base != NULL ? base : argv[a];
                {
                        const char *q = base;
                        while (q > argv[a] && q[-1] != '/')
                                q--;
                        if (q > argv[a]) {
                                q--;
                                while (q > argv[a] && q[-1] != '/')
                                        q--;
                        }
                        snprintf(label, sizeof(label), "%s", strlen(q) > 43 ? q + strlen(q) - 43 : q);
                }
                doc = run(w, b, n);
                if (doc == NULL) {
                        printf("%-44s refused by prc's reader\n", label);
                        free(b);
                        continue;
                }
                /* JSON of the same content; for a JSON input, the input itself. */
                json = toml ? json_dumps(doc, JSON_INDENT(2)) : NULL;
                jn = json != NULL ? strlen(json) : n;
                {
                        const uint8_t *jp = json != NULL ? (const uint8_t *)json : b;
                        struct job jobs[3] = { { w, b, n }, { W_JANSSON, jp, jn }, { W_STRICT, jp, jn } };
                        double r[3];
                        measure(jobs, 3, secs, r);
                        mine = r[0];
                        jan = r[1];
                        strict = r[2];
                }
                printf("%-44s %9zu %-6s %9.1f %13.1f %13.1f %6.2fx\n", label, n, toml ? "toml" : "jsonc", mine,
                       jan, strict, mine / jan);
                if (json != NULL)
                        printf("%-44s %9zu (JSON rendering used for the jansson columns)\n", "", jn);
                json_decref(doc);
                free(json);
                free(b);
        }
        printf("ratio = prc reader MB/s / jansson json_loadb MB/s (medians; >= 1.00 means at least as fast)\n");
        return 0;
}
