/*
 * extract_worker.c - manifest extraction through the sandboxed content
 * worker against the same extraction in process, side by side in one run.
 *
 *   extract_worker PRC_BINARY FILE...
 *
 * Each FILE is extracted by the extractor that owns its name.  One sample
 * extracts every file once: in process, the extractor's function on the
 * bytes (exactly what the worker runs); through the worker,
 * prc_client_extract with the cache off (framing, the pipe, the extractor
 * in the floored worker, the streamed binary reply, the client's strict
 * decoding and the ManifestDoc shape check).  After one warm-up of each,
 * in-process and worker samples alternate, 5 of each; reported: the median
 * wall time of each and their ratio, overall and per format.  Documents
 * are freed outside the clock.  A third column runs the worker side as
 * `prc sbom` sends small files (engine/scan.c make_jobs): consecutive files
 * of at most GROUP_FILE bytes, up to GROUP_MAX of them and GROUP_BYTES in
 * all, in one prc_client_parse_extract_many (one write, answers back to
 * back); the same full documents, so only the round trips differ.  A
 * fourth asks as `prc sbom` asks: grouped, and from a client with
 * packed_deps and slim_details (the worker runs the same extraction; the
 * reply carries the dependencies as a table and only the details the SBOM
 * reads, and the client checks that instead of building trees), against
 * the same in process: the extractor with native rows armed and the table
 * packed, as the worker's dispatch does (content/worker.c), so that ratio
 * is the sandbox's cost on the extraction prc sbom runs.  Both
 * sides run under the malloc settings
 * of `prc sbom`'s parent (base/tune.h's heap, one arena, no fastbins):
 * with glibc's defaults malloc_consolidate was the driver's largest
 * symbol, on both sides (session 24).  Not a test: numbers only.
 *
 * Trust: the in-process side runs extractors outside the sandbox, on the
 * shared corpora: for the bench only.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/tune.h"
#include "content/client.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_pack.h"
#include "bench_time.h"

enum { SAMPLES = 5 };
/* engine/scan.c's TRIP_GROUP_MAX, TRIP_GROUP_FILE and TRIP_GROUP_BYTES. */
enum { GROUP_MAX = 8, GROUP_FILE = 16u << 10, GROUP_BYTES = 48u << 10 };

struct in {
        const char          *path;
        const prc_extractor *x;
        prc_buf              b;
};

static double median(double *v)
{
        qsort(v, SAMPLES, sizeof(*v), bench_cmp_d);
        return v[SAMPLES / 2];
}

/* A pass's clock stopped, then its documents freed outside it; ok passed through. */
static bool pass_end(json_t **docs, size_t n, double t0, double *secs, bool ok)
{
        *secs = bench_now() - t0;
        for (size_t i = 0; i < n; i++)
                json_decref(docs[i]);
        free(docs);
        return ok;
}

static void refused(const char *path, const prc_err *err)
{
        fprintf(stderr, "extract_worker: %s: %s: %s\n", path, prc_err_name(err->cls), err->msg);
}

/* One file's extraction on one side: its document, or NULL with err set. */
typedef json_t *one_fn(const struct in *f, void *ctx, prc_err *err);

/* In process: the extractor's function on the bytes. */
static json_t *one_inproc(const struct in *f, void *ctx, prc_err *err)
{
        prc_xin in = { f->path, f->b.data, f->b.len, &prc_limits_default };

        (void)ctx;
        return f->x->fn(&in, err);
}

/* Through the worker: one prc_client_extract. */
static json_t *one_client(const struct in *f, void *ctx, prc_err *err)
{
        json_t *doc = NULL;

        return prc_client_extract(ctx, NULL, f->path, f->b.data, f->b.len, &doc, err) ? doc : NULL;
}

/* In process as prc sbom's worker extracts (content/worker.c dispatch): native rows packed, else the trees'. */
static json_t *one_packed(const struct in *f, void *ctx, prc_err *err)
{
        prc_mdp_packer *k = ctx;
        json_t *doc;
        int rc = 0;

        prc_md_rows_arm(true);
        doc = one_inproc(f, NULL, err);
        prc_md_rows_arm(false);
        if (prc_md_rows_taken() && (doc == NULL || prc_md_rows_native(doc))) {
                rc = doc != NULL ? prc_md_rows_pack(doc, k, err) : 0;
                if (rc == 0) {
                        /* Declined, or refused after taking rows: again with trees, as the worker does. */
                        json_decref(doc);
                        prc_err_init(err);
                        doc = one_inproc(f, NULL, err);
                }
        }
        if (doc != NULL && rc == 0)
                rc = prc_mdp_pack(k, json_object_get(doc, "dependencies"), err);
        if (rc < 0) {
                json_decref(doc);
                return NULL;
        }
        return doc;
}

/* The worker side, small files grouped as prc sbom groups them (see the top); as pass otherwise. */
static bool pass_grouped(struct in *ins, size_t n, const char *fmt, prc_client *c, double *secs)
{
        json_t **docs = calloc(n, sizeof(*docs));
        prc_client_xitem it[GROUP_MAX];
        size_t at[GROUP_MAX], k = 0, bytes = 0;
        double t0;
        bool ok = true;

        if (docs == NULL)
                return false;
        t0 = bench_now();
        for (size_t i = 0; i <= n; i++) {
                bool small = i < n && ins[i].b.len <= GROUP_FILE;
                prc_err err;

                if (i < n && fmt != NULL && strcmp(ins[i].x->format, fmt) != 0)
                        continue;
                /* A group ends at a large file, the list's end, or where it is full. */
                if (k > 0 && (!small || k == GROUP_MAX || bytes + ins[i].b.len > GROUP_BYTES)) {
                        prc_client_parse_extract_many(c, it, k);
                        for (size_t q = 0; q < k; q++) {
                                docs[at[q]] = it[q].ok ? it[q].md : NULL;
                                if (!it[q].ok) {
                                        refused(it[q].path, &it[q].err);
                                        ok = false;
                                }
                        }
                        k = bytes = 0;
                }
                if (i == n)
                        break;
                if (small) {
                        it[k] = (prc_client_xitem){ .path = ins[i].path, .bytes = ins[i].b.data, .len = ins[i].b.len };
                        prc_err_init(&it[k].err);
                        at[k++] = i;
                        bytes += ins[i].b.len;
                        continue;
                }
                prc_err_init(&err);
                docs[i] = one_client(&ins[i], c, &err);
                if (docs[i] == NULL) {
                        refused(ins[i].path, &err);
                        ok = false;
                }
        }
        return pass_end(docs, n, t0, secs, ok);
}

/* One pass over the files of format fmt (NULL: all), one call of one a file; false if any was refused. */
static bool pass(struct in *ins, size_t n, const char *fmt, one_fn *one, void *ctx, double *secs)
{
        json_t **docs = calloc(n, sizeof(*docs));
        double t0;
        bool ok = true;

        if (docs == NULL)
                return false;
        t0 = bench_now();
        for (size_t i = 0; i < n; i++) {
                prc_err err;

                if (fmt != NULL && strcmp(ins[i].x->format, fmt) != 0)
                        continue;
                prc_err_init(&err);
                docs[i] = one(&ins[i], ctx, &err);
                if (docs[i] == NULL) {
                        refused(ins[i].path, &err);
                        ok = false;
                }
        }
        return pass_end(docs, n, t0, secs, ok);
}

static bool measure(struct in *ins, size_t n, const char *fmt, prc_client *c, prc_client *sb, const char *label)
{
        double ip[SAMPLES], wk[SAMPLES], gr[SAMPLES], as[SAMPLES], pk[SAMPLES], t;
        prc_mdp_packer k;
        size_t files = 0, bytes = 0;

        for (size_t i = 0; i < n; i++)
                if (fmt == NULL || strcmp(ins[i].x->format, fmt) == 0) {
                        files++;
                        bytes += ins[i].b.len;
                }
        if (files == 0)
                return true;
        prc_mdp_packer_init(&k);
        if (!pass(ins, n, fmt, one_inproc, NULL, &t) || !pass(ins, n, fmt, one_client, c, &t) ||
            !pass_grouped(ins, n, fmt, c, &t) || !pass(ins, n, fmt, one_packed, &k, &t) ||
            !pass_grouped(ins, n, fmt, sb, &t))
                return false;
        for (int s = 0; s < SAMPLES; s++)
                if (!pass(ins, n, fmt, one_inproc, NULL, &ip[s]) || !pass(ins, n, fmt, one_client, c, &wk[s]) ||
                    !pass_grouped(ins, n, fmt, c, &gr[s]) || !pass(ins, n, fmt, one_packed, &k, &pk[s]) ||
                    !pass_grouped(ins, n, fmt, sb, &as[s]))
                        return false;
        prc_mdp_packer_clear(&k);
        printf("%-18s %5zu files %6.2f MB | in process %7.2f  worker %7.2f %.2fx  grouped %7.2f %.2fx"
               " | as prc sbom: in process %7.2f  worker %7.2f %.2fx\n", label, files, (double)bytes / 1e6,
               median(ip) * 1e3, median(wk) * 1e3, median(wk) / median(ip), median(gr) * 1e3,
               median(gr) / median(ip), median(pk) * 1e3, median(as) * 1e3, median(as) / median(pk));
        return true;
}

int main(int argc, char **argv)
{
        struct in *ins;
        prc_client_opts co;
        prc_client *c, *sb;
        prc_err err;
        size_t n = 0;
        bool ok = true;

        if (argc < 3) {
                fprintf(stderr, "usage: extract_worker PRC_BINARY FILE...\n");
                return 2;
        }
        /* As cmd_sbom: the heap of tune.h, one malloc arena, no fastbins. */
        prc_tune_heap();
        (void)mallopt(M_ARENA_MAX, 1);
        (void)mallopt(M_MXFAST, 0);
        ins = calloc((size_t)argc, sizeof(*ins));
        prc_client_opts_default(&co);
        co.worker_path = argv[1];
        co.cache_max = 0;       /* every extraction is a real round trip */
        prc_err_init(&err);
        c = prc_client_new(&co, &err);
        if (ins == NULL || c == NULL || !prc_client_start(c, &err)) {
                fprintf(stderr, "extract_worker: %s\n", err.msg);
                return 1;
        }
        /* As cmd_sbom's clients: the dependencies as tables, the details slim. */
        co.packed_deps = true;
        co.slim_details = true;
        sb = prc_client_new(&co, &err);
        if (sb == NULL || !prc_client_start(sb, &err)) {
                fprintf(stderr, "extract_worker: %s\n", err.msg);
                return 1;
        }
        for (int i = 2; i < argc; i++) {
                struct in *p = &ins[n];
                p->path = argv[i];
                p->x = prc_extractor_for_path(argv[i]);
                if (p->x == NULL)
                        continue;
                prc_buf_init(&p->b, co.lim.input_max);
                prc_err_init(&err);
                if (!prc_file_read(argv[i], co.lim.input_max, 0, &p->b, &err)) {
                        fprintf(stderr, "extract_worker: %s: %s\n", argv[i], err.msg);
                        return 1;
                }
                n++;
        }
        ok = measure(ins, n, NULL, c, sb, "all");
        for (size_t k = 0; ok && k < prc_extractor_count; k++)
                ok = measure(ins, n, prc_extractors[k].format, c, sb, prc_extractors[k].format);
        for (size_t i = 0; i < n; i++)
                prc_buf_clear(&ins[i].b);
        free(ins);
        prc_client_free(sb);
        prc_client_free(c);
        return ok ? 0 : 1;
}
