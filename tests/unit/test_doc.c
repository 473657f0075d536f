/*
 * test_doc.c - document loading (YAML or JSON, by name or by request) and
 * canonical digests, with the golden files in tests/golden/doc/.
 *
 * Golden: each NNN-slug.{yaml,yml,json} has a .out (its digest line) or a
 * .err ("class line offset").  PRC_UPDATE_GOLDEN=1 rewrites them; review
 * the diff.  Files meant to be the same document in other spellings are
 * listed in same_docs[] and must have equal digests.
 */
#include "t.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/doc.h"
#include "base/jcs.h"

/* SHA-256 of the 7 bytes {"a":1}, computed independently (sha256sum). */
#define DIGEST_A1 "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"

static void test_doc__digest_is_sha256_of_canonical_json(void)
{
        const char *dir = t_tmpdir();
        char hex[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_doc_digest_file(t_write(dir, "a.yaml", "# c\na:   1\n", 11), PRC_DOC_AUTO,
                                     &prc_limits_operator, hex, &e));
        T_EQ_STR(hex, DIGEST_A1);
        T_ASSERT(prc_doc_digest_file(t_write(dir, "a.json", "{ \"a\" : 1 }", 11), PRC_DOC_AUTO,
                                     &prc_limits_operator, hex, &e));
        T_EQ_STR(hex, DIGEST_A1);
        T_NOERR(e);
}

static void test_doc__format_follows_the_file_name(void)
{
        const char *dir = t_tmpdir();
        prc_err e;
        json_t *v;

        /* YAML in a .json file is refused by the strict JSON reader. */
        prc_err_init(&e);
        v = prc_doc_load(t_write(dir, "x.json", "a: 1\n", 5), PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
        /* The same bytes in any other name are YAML. */
        prc_err_init(&e);
        v = prc_doc_load(t_write(dir, "x.conf", "a: 1\n", 5), PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(json_integer_value(json_object_get(v, "a")), 1);
        json_decref(v);
        /* An explicit format wins over the name. */
        prc_err_init(&e);
        v = prc_doc_load(t_write(dir, "y.json", "a: 1\n", 5), PRC_DOC_YAML, &prc_limits_operator, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        prc_err_init(&e);
        v = prc_doc_load(t_write(dir, "y.yaml", "a: 1\n", 5), PRC_DOC_JSON, &prc_limits_operator, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
}

static void test_doc__parse_from_memory(void)
{
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_doc_parse((const uint8_t *)"[1, 2]", 6, PRC_DOC_JSON, &prc_limits_operator, &e);
        T_ASSERT(v != NULL && json_array_size(v) == 2);
        json_decref(v);
        v = prc_doc_parse((const uint8_t *)"- 1\n- 2\n", 8, PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v != NULL && json_array_size(v) == 2);
        json_decref(v);
        T_NOERR(e);
}

static void test_doc__errors_name_the_file(void)
{
        const char *dir = t_tmpdir();
        const char *p = t_write(dir, "dup.yaml", "a: 1\na: 2\n", 10);
        char hex[PRC_SHA256_HEX + 1] = "";
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_doc_digest_file(p, PRC_DOC_AUTO, &prc_limits_operator, hex, &e));
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_EQ_STR(e.file, p);
        T_EQ_INT(e.line, 2);
        T_EQ_STR(hex, "");      /* outputs are written only on success */
}

static void test_doc__operator_limits_apply(void)
{
        const char *dir = t_tmpdir();
        size_t n = prc_limits_operator.input_max + 1;
        char *big = malloc(n);
        prc_err e;
        json_t *v;

        T_ASSERT(big != NULL);
        memset(big, ' ', n);
        big[0] = 'a';
        prc_err_init(&e);
        v = prc_doc_load(t_write(dir, "big.yaml", big, n), PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        free(big);
}

static void test_doc__symlink_is_refused(void)
{
        const char *dir = t_tmpdir();
        char link[4200];
        prc_err e;
        json_t *v;

        t_write(dir, "real.yaml", "a: 1\n", 5);
        snprintf(link, sizeof(link), "%s/link.yaml", dir);
        T_ASSERT(symlink("real.yaml", link) == 0);
        prc_err_init(&e);
        v = prc_doc_load(link, PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, ELOOP);
}

static void test_doc__missing_file_is_io_error(void)
{
        char path[4200];
        prc_err e;
        json_t *v;

        snprintf(path, sizeof(path), "%s/none.yaml", t_tmpdir());
        prc_err_init(&e);
        v = prc_doc_load(path, PRC_DOC_AUTO, &prc_limits_operator, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, ENOENT);
}

/* ---- golden files ------------------------------------------------------------- */

static bool is_input(const char *name)
{
        const char *dot = strrchr(name, '.');

        return name[0] != '.' && dot != NULL &&
               (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0 || strcmp(dot, ".json") == 0);
}

static int cmp_names(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The expected line for one golden input: "digest\n" or "class line offset\n". */
static void actual_line(const char *path, char *out, size_t cap, bool *out_ok)
{
        char hex[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        *out_ok = prc_doc_digest_file(path, PRC_DOC_AUTO, &prc_limits_operator, hex, &e);
        if (*out_ok)
                snprintf(out, cap, "%s\n", hex);
        else
                snprintf(out, cap, "%s %u %lld\n", prc_err_name(e.cls), e.line,
                         e.off == PRC_NO_OFF ? -1LL : (long long)e.off);
}

static void sibling(const char *path, const char *ext, char *out, size_t cap)
{
        const char *dot = strrchr(path, '.');

        snprintf(out, cap, "%.*s%s", (int)(dot - path), path, ext);
}

static void test_doc__golden_digests(void)
{
        char dirpath[4200];
        char *names[256];
        size_t n = 0, checked = 0;
        bool update = getenv("PRC_UPDATE_GOLDEN") && strcmp(getenv("PRC_UPDATE_GOLDEN"), "1") == 0;
        struct dirent *de;
        DIR *d;

        snprintf(dirpath, sizeof(dirpath), "%s/tests/golden/doc", t_root());
        d = opendir(dirpath);
        T_ASSERT(d != NULL);
        while ((de = readdir(d)) != NULL && n < PRC_ARRAY_LEN(names))
                if (is_input(de->d_name))
                        names[n++] = strdup(de->d_name);
        closedir(d);
        qsort(names, n, sizeof(names[0]), cmp_names);
        for (size_t i = 0; i < n; i++) {
                char path[4500], out[4600], err[4600], want_path[4600], line[600];
                struct stat st;
                bool ok;
                char *want;

                snprintf(path, sizeof(path), "%s/%s", dirpath, names[i]);
                sibling(path, ".out", out, sizeof(out));
                sibling(path, ".err", err, sizeof(err));
                actual_line(path, line, sizeof(line), &ok);
                snprintf(want_path, sizeof(want_path), "%s", ok ? out : err);
                if (update) {
                        unlink(ok ? err : out);
                        t_write(dirpath, strrchr(want_path, '/') + 1, line, strlen(line));
                }
                if (stat(want_path, &st) != 0)
                        t_fail(__FILE__, __LINE__, "%s: no %s (got '%.*s')", names[i], ok ? ".out" : ".err",
                               (int)strlen(line) - 1, line);
                want = t_read(want_path, NULL);
                if (strcmp(want, line) != 0)
                        t_fail(__FILE__, __LINE__, "%s: got '%.*s', golden '%s'", names[i],
                               (int)strlen(line) - 1, line, want);
                free(want);
                free(names[i]);
                checked++;
        }
        T_ASSERT(checked >= 10);
}

static void test_doc__spellings_of_one_document_share_a_digest(void)
{
        static const char *const same_docs[][3] = {
                { "001-workflow.yaml", "002-workflow.json", "003-workflow-flow.yaml" },
                { "004-anchors-merge.yaml", "005-anchors-expanded.json", NULL },
                { "006-scalars.yaml", "007-scalars.json", NULL },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(same_docs); i++) {
                char first[PRC_SHA256_HEX + 1] = "";
                for (size_t j = 0; j < 3 && same_docs[i][j] != NULL; j++) {
                        char path[4500], hex[PRC_SHA256_HEX + 1];
                        prc_err e;
                        snprintf(path, sizeof(path), "%s/tests/golden/doc/%s", t_root(), same_docs[i][j]);
                        prc_err_init(&e);
                        if (!prc_doc_digest_file(path, PRC_DOC_AUTO, &prc_limits_operator, hex, &e))
                                t_fail(__FILE__, __LINE__, "%s refused: %s: %s", same_docs[i][j],
                                       prc_err_name(e.cls), e.msg);
                        if (j == 0)
                                memcpy(first, hex, sizeof(first));
                        else
                                T_EQ_STR(hex, first);
                }
        }
}

static const prc_test tests[] = {
        T(test_doc__digest_is_sha256_of_canonical_json),
        T(test_doc__format_follows_the_file_name),
        T(test_doc__parse_from_memory),
        T(test_doc__errors_name_the_file),
        T(test_doc__operator_limits_apply),
        T(test_doc__symlink_is_refused),
        T(test_doc__missing_file_is_io_error),
        T(test_doc__golden_digests),
        T(test_doc__spellings_of_one_document_share_a_digest),
};
PRC_SUITE(doc, tests)
