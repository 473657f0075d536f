/*
 * xst_check.c - test-only driver of the XML reader, shell tokenizer and
 * archive walker, in process (the conformance runner, the bench and manual
 * checks use it; the worker is not involved).
 *
 *   xst_check MODE [--json] [--want NAME]... [FILE...]
 *     MODE: xml | shell | srcinfo | archive
 *     Without FILE, reads one path per line from stdin (batch mode).
 *   Per file prints "ok<TAB>PATH" (archives: then <TAB> the rejected members'
 *   classes, comma-separated, or "-") or "err<TAB>CLASS<TAB>LINE:COL<TAB>PATH<TAB>MESSAGE";
 *   with --json prints the canonical document (or the error line) instead.
 *   xst_check bench MODE REPEAT FILE... (MODE may also be "expat": expat
 *   alone, the baseline): parses the concatenated files REPEAT
 *   times each and prints "bytes seconds" (CPU time) for the bench script.
 *   XST_PREPARE=1 in the environment runs prc_archive_prepare first, as the
 *   worker does before its floor (strace then shows that parses open nothing).
 * Trust: test code; reads files named by the caller.
 */
#include <expat.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "content/parsers/archive.h"
#include "content/parsers/shell.h"
#include "content/parsers/xml.h"

static const char *wanted[64];
static size_t nwanted;

/* Bench baseline: expat alone, no handlers and no tree (what the reader adds is the difference). */
static json_t *expat_only(const uint8_t *p, size_t n, prc_err *err)
{
        XML_Parser xp = XML_ParserCreate(NULL);
        enum XML_Status st;

        if (xp == NULL) {
                prc_err_oom(err, "expat");
                return NULL;
        }
        st = XML_Parse(xp, (const char *)p, (int)n, XML_TRUE);
        if (st != XML_STATUS_OK)
                prc_err_set(err, PRC_E_XML_SYNTAX, "%s", XML_ErrorString(XML_GetErrorCode(xp)));
        XML_ParserFree(xp);
        return st == XML_STATUS_OK ? json_true() : NULL;
}

static json_t *run(const char *mode, const uint8_t *p, size_t n, prc_err *err)
{
        if (strcmp(mode, "expat") == 0)
                return expat_only(p, n, err);
        if (strcmp(mode, "xml") == 0)
                return prc_xml_parse(p, n, &prc_limits_default, 0, err);
        if (strcmp(mode, "shell") == 0)
                return prc_shell_tokenize(p, n, &prc_limits_default, PRC_SHELL_PKGBUILD, err);
        if (strcmp(mode, "srcinfo") == 0)
                return prc_shell_tokenize(p, n, &prc_limits_default, PRC_SHELL_SRCINFO, err);
        if (strcmp(mode, "archive") == 0)
                return prc_archive_walk(p, n, &prc_archive_opts_default, wanted, nwanted, err);
        fprintf(stderr, "unknown mode %s\n", mode);
        exit(2);
}

static int one(const char *mode, const char *path, bool as_json)
{
        prc_buf b;
        prc_err err;
        json_t *doc;
        int rc = 0;

        prc_err_init(&err);
        prc_buf_init(&b, (size_t)64 << 20);
        if (!prc_file_read(path, (size_t)64 << 20, 0, &b, &err)) {
                printf("err\t%s\t0:0\t%s\t%s\n", prc_err_name(err.cls), path, err.msg);
                prc_buf_clear(&b);
                return 1;
        }
        doc = run(mode, b.data, b.len, &err);
        if ((doc == NULL) != prc_err_is_set(&err)) {
                fprintf(stderr, "BUG: %s: result and error disagree\n", path);
                abort();
        }
        if (doc == NULL) {
                printf("err\t%s\t%u:%u\t%s\t%s\n", prc_err_name(err.cls), err.line, err.col, path, err.msg);
                rc = 1;
        } else if (as_json) {
                prc_buf out;
                prc_err e2;
                prc_err_init(&e2);
                prc_buf_init(&out, (size_t)1 << 30);
                if (!prc_jcs_write(doc, &out, &e2)) {
                        printf("err\t%s\t0:0\t%s\t(writing) %s\n", prc_err_name(e2.cls), path, e2.msg);
                        rc = 1;
                } else {
                        fwrite(out.data, 1, out.len, stdout);
                        putchar('\n');
                }
                prc_buf_clear(&out);
        } else {
                /* Archives: also the classes of rejected members, in member order ("-" for none). */
                json_t *ms = json_object_get(doc, "members");
                size_t k;
                json_t *m;
                bool any = false;
                printf("ok\t%s", path);
                if (ms != NULL) {
                        putchar('\t');
                        json_array_foreach(ms, k, m) {
                                const char *r = json_string_value(json_object_get(m, "rejected"));
                                if (r != NULL) {
                                        printf("%s%s", any ? "," : "", r);
                                        any = true;
                                }
                        }
                        if (!any)
                                putchar('-');
                }
                putchar('\n');
        }
        json_decref(doc);
        prc_buf_clear(&b);
        return rc;
}

static double now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);   /* CPU time: the bench machine is shared */
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Time REPEAT parses of each file (read once); prints total bytes and seconds. */
static int bench(const char *mode, int repeat, int nfiles, char **files)
{
        size_t total = 0;
        double t = 0;

        for (int i = 0; i < nfiles; i++) {
                prc_buf b;
                prc_err err;
                prc_err_init(&err);
                prc_buf_init(&b, (size_t)64 << 20);
                if (!prc_file_read(files[i], (size_t)64 << 20, 0, &b, &err)) {
                        fprintf(stderr, "cannot read %s\n", files[i]);
                        return 1;
                }
                double t0 = now();
                for (int r = 0; r < repeat; r++) {
                        json_t *d = run(mode, b.data, b.len, &err);
                        if (d == NULL) {
                                fprintf(stderr, "%s: %s: %s\n", files[i], prc_err_name(err.cls), err.msg);
                                return 1;
                        }
                        json_decref(d);
                }
                t += now() - t0;
                total += b.len * (size_t)repeat;
                prc_buf_clear(&b);
        }
        printf("%zu %.6f\n", total, t);
        return 0;
}

int main(int argc, char **argv)
{
        const char *mode;
        bool as_json = false;
        int i = 2, rc = 0;

        if (argc < 2) {
                fprintf(stderr, "usage: xst_check MODE [--json] [--want NAME]... [FILE...]\n");
                return 2;
        }
        mode = argv[1];
        if (getenv("XST_PREPARE") != NULL) {
                /* As the worker would, before its floor: later walks must open no file. */
                prc_err pe;
                prc_err_init(&pe);
                if (!prc_archive_prepare(&pe)) {
                        fprintf(stderr, "prepare: %s\n", pe.msg);
                        return 1;
                }
                fprintf(stderr, "XST_PREPARED\n");
        }
        if (strcmp(mode, "bench") == 0) {
                if (argc < 5)
                        return 2;
                return bench(argv[2], (int)strtol(argv[3], NULL, 10), argc - 4, argv + 4);
        }
        for (; i < argc; i++) {
                if (strcmp(argv[i], "--json") == 0)
                        as_json = true;
                else if (strcmp(argv[i], "--want") == 0 && i + 1 < argc && nwanted < 64)
                        wanted[nwanted++] = argv[++i];
                else
                        break;
        }
        if (i < argc) {
                for (; i < argc; i++)
                        rc |= one(mode, argv[i], as_json);
                return rc;
        }
        {
                char line[8192];
                while (fgets(line, sizeof(line), stdin) != NULL) {
                        size_t l = strlen(line);
                        if (l && line[l - 1] == '\n')
                                line[--l] = 0;
                        if (l == 0)
                                continue;
                        (void)one(mode, line, as_json);
                        fflush(stdout);
                }
        }
        return 0;
}
