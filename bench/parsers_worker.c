/*
 * parsers_worker.c - throughput of every content-worker operation, in
 * process and through the sandboxed worker, side by side in one run.
 *
 *   parsers_worker PRC_BINARY KIND:FILE[:MEMBER]...
 *
 * KIND is yaml, json, jsonc, toml, ini, xml (PRC_OP_PARSE), pkgbuild,
 * srcinfo (PRC_OP_TOKENIZE) or archive (PRC_OP_WALK; MEMBER, if given, is
 * requested by name as {"wanted":[MEMBER]}).  For each input both paths
 * run the same dispatch entry with the same limits the client sends:
 *   in process      prc_dispatch_run on the bytes (the handler alone);
 *   through worker  prc_client_call: framing, the pipe, the handler in the
 *                   floored worker, the streamed binary reply and the client's
 *                   strict decoding into a jansson tree (what a caller gets).
 * One sample is K back-to-back operations (K chosen so that an in-process
 * sample lasts about 20 ms; tiny files need many); in-process and worker
 * samples alternate, 5 of each, after one warm-up of each.  Reported: the
 * median MB/s (10^6 bytes of input per second) of each and their ratio.
 * Each document is freed as soon as it is timed, outside the clock.  Not a
 * test: numbers only.
 *
 * Trust: benchmark inputs are the shared corpora, but the in-process side
 * runs parsers outside the sandbox, so this program is for the bench only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/frame.h"
#include "bench_time.h"

enum { SAMPLES = 5, K_MAX = 2000 };

static const struct {
        const char *kind;
        uint16_t    op, sub;
} kinds[] = {
        { "yaml", PRC_OP_PARSE, PRC_FMT_YAML },         { "json", PRC_OP_PARSE, PRC_FMT_JSON },
        { "jsonc", PRC_OP_PARSE, PRC_FMT_JSONC },       { "toml", PRC_OP_PARSE, PRC_FMT_TOML },
        { "ini", PRC_OP_PARSE, PRC_FMT_INI },           { "xml", PRC_OP_PARSE, PRC_FMT_XML },
        { "pkgbuild", PRC_OP_TOKENIZE, PRC_TOK_PKGBUILD }, { "srcinfo", PRC_OP_TOKENIZE, PRC_TOK_SRCINFO },
        { "archive", PRC_OP_WALK, 0 },
};

static void die(const char *what, const char *file, const prc_err *e)
{
        fprintf(stderr, "parsers_worker: %s %s: %s: %s\n", what, file, prc_err_name(e->cls), e->msg);
        exit(1);
}

/*
 * Seconds for k operations in process (c == NULL) or through c; exits on a
 * refusal.  Each document is freed at once (so the heap is reused, as a
 * caller that handles one file at a time reuses it) but outside the clock.
 */
static double sample(prc_client *c, const prc_req *r, const char *file, size_t k)
{
        double total = 0;
        prc_err err;

        for (size_t i = 0; i < k; i++) {
                json_t *doc = NULL;
                double t0;

                prc_err_init(&err);
                t0 = bench_now();
                if (c == NULL)
                        doc = prc_dispatch_run(r, &err);
                else if (!prc_client_call(c, r->op, r->format, 0, file, r->args, r->args_len, r->input,
                                          r->input_len, false, &doc, &err))
                        doc = NULL;
                total += bench_now() - t0;
                if (doc == NULL)
                        die(c == NULL ? "in process" : "through the worker", file, &err);
                json_decref(doc);
        }
        return total;
}

static const char *label_of(const char *path)
{
        /* The corpus layout is ecosystem/owner__repo/path: keep the last two parts. */
        const char *end = path + strlen(path), *q = end;
        int slashes = 0;

        while (q > path && slashes < 2) {
                q--;
                if (*q == '/')
                        slashes++;
        }
        if (slashes == 2)
                q++;
        return end - q > 46 ? end - 46 : q;
}

int main(int argc, char **argv)
{
        prc_client_opts co;
        prc_client *c;
        prc_err err;
        double sum_in = 0, sum_w = 0;

        if (argc < 3) {
                fprintf(stderr, "usage: parsers_worker PRC_BINARY KIND:FILE[:MEMBER]...\n");
                return 2;
        }
        prc_client_opts_default(&co);
        co.worker_path = argv[1];
        co.cache_max = 0;       /* every operation is a real round trip */
        prc_err_init(&err);
        c = prc_client_new(&co, &err);
        if (c == NULL || !prc_client_start(c, &err))
                die("start", argv[1], &err);
        printf("%-9s %-46s %9s %5s %12s %12s %8s\n", "parser", "input", "bytes", "K", "in-proc MB/s",
               "worker MB/s", "ratio");
        for (int a = 2; a < argc; a++) {
                char spec[4096], *file, *member;
                double tin[SAMPLES], tw[SAMPLES], t1, min, mw;
                prc_buf bytes, args;
                prc_req r = { 0 };
                size_t i, k;

                snprintf(spec, sizeof(spec), "%s", argv[a]);
                file = strchr(spec, ':');
                if (file == NULL) {
                        fprintf(stderr, "parsers_worker: '%s' is not KIND:FILE\n", argv[a]);
                        return 2;
                }
                *file++ = 0;
                member = strchr(file, ':');
                if (member != NULL)
                        *member++ = 0;
                for (i = 0; i < PRC_ARRAY_LEN(kinds) && strcmp(kinds[i].kind, spec) != 0; i++)
                        ;
                if (i == PRC_ARRAY_LEN(kinds)) {
                        fprintf(stderr, "parsers_worker: unknown kind '%s'\n", spec);
                        return 2;
                }
                prc_buf_init(&bytes, co.lim.input_max);
                prc_buf_init(&args, PRC_FRAME_ARGS_MAX);
                if (!prc_file_read(file, co.lim.input_max, 0, &bytes, &err))
                        die("read", file, &err);
                if (member != NULL) {
                        json_t *o = json_pack("{s:[s]}", "wanted", member);
                        if (o == NULL || !prc_jcs_write(o, &args, &err))
                                die("args", file, &err);
                        json_decref(o);
                }
                r.op = kinds[i].op;
                r.format = kinds[i].sub;
                r.lim = co.lim;
                r.path = "bench";
                r.path_len = 5;
                r.args = args.data;
                r.args_len = args.len;
                r.input = bytes.data;
                r.input_len = bytes.len;

                /* Warm-up of both paths, then K from one in-process run. */
                (void)sample(c, &r, file, 1);
                (void)sample(NULL, &r, file, 1);
                t1 = sample(NULL, &r, file, 1);
                k = t1 > 0 ? (size_t)(0.02 / t1) + 1 : K_MAX;
                k = k > K_MAX ? K_MAX : k;
                for (int s = 0; s < SAMPLES; s++) {
                        tin[s] = sample(NULL, &r, file, k);
                        tw[s] = sample(c, &r, file, k);
                }
                qsort(tin, SAMPLES, sizeof(tin[0]), bench_cmp_d);
                qsort(tw, SAMPLES, sizeof(tw[0]), bench_cmp_d);
                min = (double)bytes.len * (double)k / 1e6 / tin[SAMPLES / 2];
                mw = (double)bytes.len * (double)k / 1e6 / tw[SAMPLES / 2];
                sum_in += tin[SAMPLES / 2] / (double)k;
                sum_w += tw[SAMPLES / 2] / (double)k;
                printf("%-9s %-46s %9zu %5zu %12.1f %12.1f %7.2fx\n", spec, label_of(file), bytes.len, k, min, mw,
                       mw / min);
                fflush(stdout);
                prc_buf_clear(&args);
                prc_buf_clear(&bytes);
        }
        printf("ratio = worker MB/s / in-process MB/s (medians of %d samples; 1.00x means no cost for the "
               "sandbox)\n", SAMPLES);
        printf("one pass over every input: in process %.1f ms, through the worker %.1f ms\n", sum_in * 1e3,
               sum_w * 1e3);
        prc_client_free(c);
        return 0;
}
