/*
 * test_err.c - the error record and the closed class table.
 */
#include "t.h"

#include <ctype.h>
#include <stdlib.h>

#include "base/err.h"

static void test_err__first_error_wins(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_err_set(&e, PRC_E_DEPTH_LIMIT, "first %d", 1));
        T_ASSERT(!prc_err_set(&e, PRC_E_IO, "second"));
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        T_EQ_STR(e.msg, "first 1");
}

static void test_err__location_fields_keep_the_first(void)
{
        prc_err e;
        char out[512];

        prc_err_init(&e);
        prc_err_at(&e, PRC_E_INVALID_JSON, 7, "bad token");
        prc_err_set_line(&e, 3, 4);
        prc_err_set_line(&e, 9, 9);
        prc_err_set_file(&e, "a.json");
        prc_err_set_file(&e, "b.json");
        prc_err_set_ptr(&e, "/x");
        T_EQ_INT(e.line, 3);
        T_EQ_INT(e.off, 7);
        prc_err_format(&e, out, sizeof(out));
        T_EQ_STR(out, "invalid-json: a.json:3:4: /x: bad token");
}

static void test_err__names_are_unique_kebab_case(void)
{
        for (unsigned i = 1; i < PRC_E__COUNT; i++) {
                const char *n = prc_err_name((prc_errclass)i);
                T_ASSERT(strcmp(n, "unknown-class") != 0);
                for (const char *c = n; *c; c++)
                        T_ASSERT(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-');
                for (unsigned j = i + 1; j < PRC_E__COUNT; j++)
                        if (strcmp(n, prc_err_name((prc_errclass)j)) == 0)
                                t_fail(__FILE__, __LINE__, "class name '%s' is used twice", n);
                T_EQ_INT(prc_err_by_name(n), i);
        }
        T_EQ_STR(prc_err_name(PRC_E__COUNT), "unknown-class");
        T_EQ_INT(prc_err_by_name("no-such-class"), PRC_E_OK);
}

static void test_err__every_class_is_documented(void)
{
        char path[4200], needle[160];
        char *doc;

        snprintf(path, sizeof(path), "%s/docs/errors.md", t_root());
        doc = t_read(path, NULL);
        for (unsigned i = 1; i < PRC_E__COUNT; i++) {
                snprintf(needle, sizeof(needle), "| `%s` |", prc_err_name((prc_errclass)i));
                if (strstr(doc, needle) == NULL)
                        t_fail(__FILE__, __LINE__, "docs/errors.md has no row for '%s'",
                               prc_err_name((prc_errclass)i));
        }
        free(doc);
}

static const prc_test tests[] = {
        T(test_err__first_error_wins),
        T(test_err__location_fields_keep_the_first),
        T(test_err__names_are_unique_kebab_case),
        T(test_err__every_class_is_documented),
};
PRC_SUITE(err, tests)
