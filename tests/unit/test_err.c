/*
 * test_err.c - the error record and the closed class table.
 */
#include "t.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
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

static void test_err__display_fields_are_sanitized(void)
{
        prc_err e;
        json_t *o;

        prc_err_init(&e);
        /* hostile bytes quoted into a message: escape sequences, invalid UTF-8, C1 */
        prc_err_set(&e, PRC_E_INVALID_JSON, "near '%s'", "\x1b[2J\xff\xc2\x9b\tok \xc3\xa9");
        T_EQ_STR(e.msg, "near '?[2J???\?ok \xc3\xa9'");
        prc_err_set_file(&e, "dir/\nfile\xe2\x82");
        T_EQ_STR(e.file, "dir/?file??");
        prc_err_set_ptr(&e, "/a\x7f");
        T_EQ_STR(e.ptr, "/a?");
        /* so the JSON error object can always be built */
        o = json_pack("{s:s,s:s,s:s}", "m", e.msg, "f", e.file, "p", e.ptr);
        T_ASSERT(o != NULL);
        json_decref(o);
}

static void test_err__truncated_message_stays_utf8(void)
{
        char longmsg[400];
        prc_err e;

        /* 2-byte characters so the 256-byte cut can fall inside one */
        for (size_t i = 0; i + 2 < sizeof(longmsg); i += 2)
                memcpy(longmsg + i, "\xc3\xa9", 2);
        longmsg[sizeof(longmsg) - 1] = '\0';
        longmsg[sizeof(longmsg) - 2] = 'x';
        prc_err_init(&e);
        prc_err_set(&e, PRC_E_IO, "xy%s", longmsg);     /* odd bytes left: the cut splits a character */
        T_EQ_INT(strlen(e.msg), sizeof(e.msg) - 1);
        T_ASSERT(e.msg[sizeof(e.msg) - 2] == '?');      /* the cut half-character */
        json_t *s = json_string(e.msg);
        T_ASSERT(s != NULL);
        json_decref(s);
}

static void test_err__ok_class_is_never_recorded_as_success(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_err_set(&e, PRC_E_OK, "a caller bug"));
        T_ERR(e, PRC_E_INTERNAL);
        prc_err_init(&e);
        T_ASSERT(!prc_err_set(&e, (prc_errclass)PRC_E__COUNT, "out of range"));
        T_ERR(e, PRC_E_INTERNAL);
        T_ASSERT(!prc_err_set(NULL, PRC_E_IO, "no record: ignored"));
}

static void test_err__format_variants(void)
{
        prc_err e;
        char out[512];

        prc_err_init(&e);
        prc_err_sys(&e, PRC_E_IO, ENOENT, "cannot open '%s'", "x.yaml");
        prc_err_format(&e, out, sizeof(out));
        T_EQ_STR(out, "io-error: cannot open 'x.yaml': No such file or directory");
        prc_err_init(&e);
        prc_err_at(&e, PRC_E_INVALID_DIGEST, 12, "bad digit");
        prc_err_format(&e, out, sizeof(out));
        T_EQ_STR(out, "invalid-digest: @12: bad digit");
        prc_err_format(&e, out, 8);
        T_EQ_STR(out, "invalid");
        T_ASSERT(!prc_err_oom(&e, "x"));        /* first error still wins */
        T_ERR(e, PRC_E_INVALID_DIGEST);
}

/* prc_err_same: class, offset, line, column, pointer and message; errno and file do not count. */
static void test_err__same_refusal(void)
{
        prc_err a, b;

        prc_err_init(&a);
        (void)prc_err_at(&a, PRC_E_INVALID_UTF8, 7, "bad byte");
        b = a;
        T_ASSERT(prc_err_same(&a, &b));
        snprintf(b.file, sizeof(b.file), "other");
        b.sys = 5;
        T_ASSERT(prc_err_same(&a, &b));
        b = a;
        snprintf(b.msg, sizeof(b.msg), "bad byte!");
        T_ASSERT(!prc_err_same(&a, &b));
        b = a;
        b.off++;
        T_ASSERT(!prc_err_same(&a, &b));
        b = a;
        snprintf(b.ptr, sizeof(b.ptr), "/x");
        T_ASSERT(!prc_err_same(&a, &b));
        b = a;
        b.cls = PRC_E_NUL_BYTE;
        T_ASSERT(!prc_err_same(&a, &b));
}

static const prc_test tests[] = {
        T(test_err__same_refusal),
        T(test_err__first_error_wins),
        T(test_err__location_fields_keep_the_first),
        T(test_err__names_are_unique_kebab_case),
        T(test_err__every_class_is_documented),
        T(test_err__display_fields_are_sanitized),
        T(test_err__truncated_message_stays_utf8),
        T(test_err__ok_class_is_never_recorded_as_success),
        T(test_err__format_variants),
};
PRC_SUITE(err, tests)
