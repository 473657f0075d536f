/*
 * xdump.c - test helper: run prc's extractors in process over files.
 *
 *   xdump [-f FORMAT] [-p PATH] FILE...
 *
 * The extractor is the one named by -f, else the one that owns the file by
 * name (-p gives the inventory path to match and record instead of FILE).
 * For each FILE prints one line: "FILE\tok\tJSON" (the ManifestDoc, compact,
 * keys sorted) or "FILE\terr\tCLASS\tLINE:COL\tMESSAGE".  The conformance
 * tests compare these against an independent reading of the same files.
 * Trust: test-only; reads the files it is given, with no sandbox.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/limits.h"
#include "content/extract/extract.h"

static unsigned char *slurp(const char *path, size_t *n)
{
        FILE *f = fopen(path, "rb");
        unsigned char *b = NULL;
        size_t cap = 0, len = 0, got;

        if (f == NULL)
                return NULL;
        do {
                if (len == cap) {
                        unsigned char *nb = realloc(b, cap = cap ? 2 * cap : 65536);

                        if (nb == NULL) {
                                free(b);
                                fclose(f);
                                return NULL;
                        }
                        b = nb;
                }
                got = fread(b + len, 1, cap - len, f);
                len += got;
        } while (got > 0);
        fclose(f);
        *n = len;
        return b;
}

int main(int argc, char **argv)
{
        const char *format = NULL, *path = NULL;
        int opt, rc = 0;

        while ((opt = getopt(argc, argv, "f:p:")) != -1) {
                if (opt == 'f')
                        format = optarg;
                else if (opt == 'p')
                        path = optarg;
                else
                        return 2;
        }
        for (int i = optind; i < argc; i++) {
                const prc_extractor *x;
                prc_xin in = { path != NULL ? path : argv[i], NULL, 0, &prc_limits_default };
                unsigned char *b = slurp(argv[i], &in.n);
                prc_err err;
                json_t *md = NULL;
                char *s;

                prc_err_init(&err);
                if (b == NULL) {
                        fprintf(stderr, "xdump: cannot read %s\n", argv[i]);
                        return 2;
                }
                in.p = b;
                x = format != NULL ? prc_extractor_by_format(format) : prc_extractor_for_path(in.path);
                if (x == NULL)
                        prc_err_set(&err, PRC_E_EXTRACT_UNKNOWN_FORMAT, "no extractor for %s",
                                    format != NULL ? format : in.path);
                else
                        md = x->fn(&in, &err);
                if (md != NULL) {
                        s = json_dumps(md, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
                        printf("%s\tok\t%s\n", argv[i], s != NULL ? s : "null");
                        free(s);
                        json_decref(md);
                } else {
                        printf("%s\terr\t%s\t%u:%u\t%s\n", argv[i], prc_err_name(err.cls), err.line, err.col,
                               err.msg);
                        rc = 1;
                }
                free(b);
        }
        return rc;
}
