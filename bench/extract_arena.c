/*
 * extract_arena.c - where a manifest's extraction spends its time and
 * memory in the content worker, per format: the parse alone (the format's
 * loader from the dispatch table, when the file has one), the extraction
 * (the extractor's function, its own parse included), the reply's
 * encoding (prc_docbin_write of the ManifestDoc), the dependency table
 * prc sbom's workers pack from it (prc_mdp_pack, into one packer kept from
 * file to file as the worker keeps its own), and the most arena one file
 * took.  As in the worker (worker.c), every jansson value comes from
 * a bump arena that a free leaves alone, reset after each file, on huge
 * pages (MADV_HUGEPAGE); extractors leave their trees to it
 * (prc_x_drop_by_arena).  In-process timings with glibc's malloc instead
 * overstate jansson's share (its frees) several times over.
 *
 *   extract_arena PASSES FILE...      (FILE: a path relative to the tree, as the inventory names it)
 *
 * Medians over PASSES of each format's sum; arena in MiB ("arena p": the
 * parse alone, "arena x": the extraction); "parsed": the files whose parse
 * alone was timed (a loader of their own that accepts them; a format with
 * none, such as yarn.lock or go.sum, shows "-").  Not a test:
 * numbers only.  Trust: runs extractors outside the sandbox, on the shared
 * corpora: for the bench only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/json_strict.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_pack.h"
#include "engine/manifests.h"
#include "bench_time.h"

enum { PASSES_MAX = 99 };

static char  *arena;
static size_t arena_used, arena_cap = (size_t)4 << 30;

static void *bump(size_t n)
{
        void *p;

        n = (n + 15) & ~(size_t)15;
        if (n > arena_cap - arena_used)
                return NULL;
        p = arena + arena_used;
        arena_used += n;
        return p;
}

static void bump_free(void *p)
{
        (void)p;
}

struct in {
        const char               *path;
        const prc_extractor      *x;
        const prc_dispatch_entry *parse;        /* NULL: a format with no loader of its own (text formats) */
        prc_buf                   b;
};

/* A format's sums for one pass. */
struct row {
        const char *format;
        size_t      files, bytes, parsed_files;
        double      parse[PASSES_MAX], extract[PASSES_MAX], encode[PASSES_MAX], pack[PASSES_MAX];
        size_t      peak_parse, peak_extract;
};

int main(int argc, char **argv)
{
        long passes = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
        size_t n = 0, nrows = 0;
        struct in *ins;
        struct row *rows;
        prc_mdp_packer packer;
        prc_buf enc;

        if (argc < 3 || passes < 1 || passes > PASSES_MAX) {
                fprintf(stderr, "usage: extract_arena PASSES(1-%d) FILE...\n", PASSES_MAX);
                return 2;
        }
        arena = mmap(NULL, arena_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        ins = calloc((size_t)argc, sizeof(*ins));
        rows = calloc((size_t)argc, sizeof(*rows));
        if (arena == MAP_FAILED || ins == NULL || rows == NULL) {
                fprintf(stderr, "extract_arena: out of memory\n");
                return 1;
        }
        (void)madvise(arena, arena_cap, MADV_HUGEPAGE);
        prc_json_alloc_backend(bump, bump_free);
        prc_x_drop_by_arena();
        for (int i = 2; i < argc; i++) {
                struct in *p = &ins[n];
                const char *pf;
                prc_err err;

                p->path = argv[i];
                p->x = prc_extractor_for_path(argv[i]);
                if (p->x == NULL)
                        continue;
                pf = prc_manifest_format_for(argv[i]);
                if (pf == NULL) {
                        /* not a manifest where it lies in the corpus (a workflow below a repository's root): by name */
                        const char *dot = strrchr(argv[i], '.');
                        if (dot != NULL && (strcmp(dot, ".yml") == 0 || strcmp(dot, ".yaml") == 0))
                                pf = "yaml";
                }
                p->parse = pf != NULL && prc_format_by_name(pf) != 0 ? prc_dispatch_find(PRC_OP_PARSE, prc_format_by_name(pf))
                                                                    : NULL;
                if (p->parse != NULL && p->parse->load == NULL)
                        p->parse = NULL;
                prc_err_init(&err);
                prc_buf_init(&p->b, 64u << 20);
                if (!prc_file_read(argv[i], 64u << 20, 0, &p->b, &err)) {
                        fprintf(stderr, "extract_arena: %s: %s\n", argv[i], err.msg);
                        return 1;
                }
                n++;
        }
        prc_buf_init(&enc, (size_t)1 << 31);
        prc_mdp_packer_init(&packer);
        for (long s = 0; s < passes; s++) {
                for (size_t i = 0; i < n; i++) {
                        struct in *p = &ins[i];
                        struct row *r = NULL;
                        prc_xin xin = { p->path, p->b.data, p->b.len, &prc_limits_default };
                        prc_err err;
                        json_t *doc;
                        double t0, t1;

                        for (size_t k = 0; k < nrows && r == NULL; k++)
                                if (strcmp(rows[k].format, p->x->format) == 0)
                                        r = &rows[k];
                        if (r == NULL) {
                                r = &rows[nrows++];
                                r->format = p->x->format;
                        }
                        if (s == 0) {
                                r->files++;
                                r->bytes += p->b.len;
                        }
                        if (p->parse != NULL) {
                                prc_err_init(&err);
                                arena_used = 0;
                                t0 = bench_now();
                                doc = p->parse->load(p->b.data, p->b.len, &prc_limits_default, p->parse->load_flags, &err);
                                t1 = bench_now();
                                r->parse[s] += t1 - t0;
                                r->parsed_files += s == 0 && doc != NULL;
                                if (arena_used > r->peak_parse)
                                        r->peak_parse = arena_used;
                        }
                        prc_err_init(&err);
                        arena_used = 0;
                        t0 = bench_now();
                        doc = p->x->fn(&xin, &err);
                        t1 = bench_now();
                        r->extract[s] += t1 - t0;
                        if (doc != NULL) {
                                prc_buf_reset(&enc);
                                t0 = bench_now();
                                if (!prc_docbin_write(doc, &enc, &err)) {
                                        fprintf(stderr, "extract_arena: %s: %s\n", p->path, err.msg);
                                        return 1;
                                }
                                r->encode[s] += bench_now() - t0;
                                t0 = bench_now();
                                if (prc_mdp_pack(&packer, json_object_get(doc, "dependencies"), &err) < 0) {
                                        fprintf(stderr, "extract_arena: %s: %s\n", p->path, err.msg);
                                        return 1;
                                }
                                r->pack[s] += bench_now() - t0;
                        }
                        if (arena_used > r->peak_extract)
                                r->peak_extract = arena_used;
                }
        }
        printf("%-24s %5s %8s  %6s %10s %10s %10s %8s  %9s %9s\n", "format", "files", "MB", "parsed", "parse ms",
               "extract ms", "encode ms", "pack ms", "arena p", "arena x");
        for (size_t k = 0; k < nrows; k++) {
                struct row *r = &rows[k];
                char parse[32] = "-";

                qsort(r->parse, (size_t)passes, sizeof(double), bench_cmp_d);
                qsort(r->extract, (size_t)passes, sizeof(double), bench_cmp_d);
                qsort(r->encode, (size_t)passes, sizeof(double), bench_cmp_d);
                qsort(r->pack, (size_t)passes, sizeof(double), bench_cmp_d);
                /* the parse alone, of the files with a loader of their own that it accepts ("parsed") */
                if (r->parsed_files > 0)
                        snprintf(parse, sizeof(parse), "%.2f", r->parse[passes / 2] * 1e3);
                printf("%-24s %5zu %8.2f  %6zu %10s %10.2f %10.2f %8.2f  %9.1f %9.1f\n", r->format, r->files,
                       (double)r->bytes / 1e6, r->parsed_files, parse, r->extract[passes / 2] * 1e3, r->encode[passes / 2] * 1e3,
                       r->pack[passes / 2] * 1e3, (double)r->peak_parse / 1048576.0, (double)r->peak_extract / 1048576.0);
        }
        prc_mdp_packer_clear(&packer);
        prc_buf_clear(&enc);
        return 0;
}
