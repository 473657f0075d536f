/*
 * test_json_strict.c - the strict JSON reader and the field-table checker:
 * size cap before parsing, UTF-8 and NUL, duplicate keys at every depth
 * with their JSON pointer, depth (100000 '[' refused fast), numbers,
 * scalar/node/key limits, field tables, allocation fault injection over
 * jansson, and a bit-flip and truncation sweep.
 */
#include "t.h"

#include <dirent.h>
#include <ftw.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "base/alloc.h"
#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"

static json_t *parse_l(const char *s, size_t n, const prc_limits *lim, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_json_parse((const uint8_t *)s, n, lim, flags, e);
}

static json_t *parse(const char *s, unsigned flags, prc_err *e)
{
        return parse_l(s, strlen(s), &prc_limits_default, flags, e);
}

/* Parse must fail with class c (and pointer ptr when not NULL). */
static void refuse(const char *s, size_t n, unsigned flags, prc_errclass c, const char *ptr, int line)
{
        prc_err e;
        json_t *v = parse_l(s, n, &prc_limits_default, flags, &e);

        if (v != NULL)
                t_fail(__FILE__, line, "accepted '%.80s'", s);
        if (e.cls != c)
                t_fail(__FILE__, line, "'%.80s': class %s (%s), want %s", s, prc_err_name(e.cls), e.msg,
                       prc_err_name(c));
        if (ptr != NULL && strcmp(e.ptr, ptr) != 0)
                t_fail(__FILE__, line, "'%.80s': pointer '%s', want '%s'", s, e.ptr, ptr);
}
#define REFUSE(s, flags, c, ptr) refuse((s), strlen(s), (flags), (c), (ptr), __LINE__)

static void check_leaks(void)
{
#if defined(__SANITIZE_ADDRESS__)
        if (__lsan_do_recoverable_leak_check() != 0)
                t_fail(__FILE__, __LINE__, "LeakSanitizer found leaks (report above)");
#endif
}

static void test_json_strict__accepts_every_value_type(void)
{
        static const char *const ok[] = { "null", "true", "false", "0", "-1", "\"\"", "\"x\"", "[]", "{}",
                                          " [1,\"a\",{\"b\":[null]}] ", "\n{\"\":0}\n" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(ok); i++) {
                prc_err e;
                json_t *v = parse(ok[i], 0, &e);
                if (v == NULL)
                        t_fail(__FILE__, __LINE__, "refused '%s': %s", ok[i], e.msg);
                T_NOERR(e);
                json_decref(v);
        }
}

static void test_json_strict__size_cap_checked_before_parsing(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.input_max = 7;
        v = parse_l("[1,2,3]", 7, &lim, 0, &e);          /* exactly at the cap */
        T_ASSERT(v != NULL);
        json_decref(v);
        v = parse_l("[1,2,3] ", 8, &lim, 0, &e);         /* one past */
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        v = parse_l("\xff\xff\xff\xff\xff\xff\xff\xff", 8, &lim, 0, &e);   /* cap wins over content */
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
}

static void test_json_strict__utf8_and_nul(void)
{
        prc_err e;
        json_t *v;

        refuse("\"a\xff\"", 4, 0, PRC_E_INVALID_UTF8, NULL, __LINE__);
        refuse("\"\xc0\xaf\"", 4, 0, PRC_E_INVALID_UTF8, NULL, __LINE__);       /* overlong */
        refuse("\"\xed\xa0\x80\"", 5, 0, PRC_E_INVALID_UTF8, NULL, __LINE__);   /* raw surrogate */
        refuse("{\"k\xf4\x90\x80\x80\":1}", 10, 0, PRC_E_INVALID_UTF8, NULL, __LINE__);
        refuse("[1]\xfe", 4, 0, PRC_E_INVALID_UTF8, NULL, __LINE__);            /* outside strings too */
        v = parse_l("[\"ok\", \"\xe2\x82\"]", 14, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_EQ_INT(e.off, 8);
        refuse("[\"a\0\"]", 6, 0, PRC_E_NUL_BYTE, NULL, __LINE__);
        refuse("[\"\\\0\"]", 5, 0, PRC_E_NUL_BYTE, NULL, __LINE__);         /* NUL right after a backslash */
        refuse("[1]\0", 4, PRC_JSON_ALLOW_NUL, PRC_E_NUL_BYTE, NULL, __LINE__); /* raw NUL never */
        REFUSE("\"a\\u0000b\"", 0, PRC_E_NUL_BYTE, NULL);
        REFUSE("{\"a\\u0000\":1}", PRC_JSON_ALLOW_NUL, PRC_E_NUL_BYTE, NULL);  /* never in keys */
        v = parse("\"a\\u0000b\"", PRC_JSON_ALLOW_NUL, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(json_string_length(v), 3);
        json_decref(v);
        /* escaped lone surrogates are not text */
        REFUSE("\"\\ud800\"", 0, PRC_E_INVALID_JSON, NULL);
        REFUSE("\"\\udc00\\ud800\"", 0, PRC_E_INVALID_JSON, NULL);
        v = parse("\"\\ud83d\\ude00\"", 0, &e);
        T_ASSERT(v != NULL);
        T_EQ_STR(json_string_value(v), "\xf0\x9f\x98\x80");
        json_decref(v);
}

static void test_json_strict__duplicate_keys_at_every_depth_with_pointer(void)
{
        REFUSE("{\"a\":1,\"a\":2}", 0, PRC_E_DUPLICATE_FIELD, "/a");
        REFUSE("{\"a\":1,\"b\":{\"c\":1,\"c\":2}}", 0, PRC_E_DUPLICATE_FIELD, "/b/c");
        REFUSE("{\"x\":[{\"a\":1,\"a\":2}]}", 0, PRC_E_DUPLICATE_FIELD, "/x/0/a");
        REFUSE("[0,[1,2],{\"k\":{\"m\":[],\"n\":\"}\",\"m\":{}}}]", 0, PRC_E_DUPLICATE_FIELD, "/2/k/m");
        REFUSE("[[],[[],[{\"q\":1,\"q\":1}]]]", 0, PRC_E_DUPLICATE_FIELD, "/1/1/0/q");
        /* same value, escaped spelling, or pointer escapes */
        REFUSE("{\"a\":1,\"\\u0061\":1}", 0, PRC_E_DUPLICATE_FIELD, "/a");
        REFUSE("{\"a/b\":1,\"a\\/b\":2}", 0, PRC_E_DUPLICATE_FIELD, "/a~1b");
        REFUSE("{\"~\":{\"\":1,\"\":2}}", 0, PRC_E_DUPLICATE_FIELD, "/~0/");
        REFUSE("{\"\\u00e9\":{\"\\ud83d\\ude00\":1,\"\xf0\x9f\x98\x80\":2}}", 0, PRC_E_DUPLICATE_FIELD,
               "/\xc3\xa9/\xf0\x9f\x98\x80");
        REFUSE("{ \"s\" : \"{\\\"a\\\":1}\" , \"t\" : [ { \"u\" : 0 , \"u\" : 0 } ] }", 0,
               PRC_E_DUPLICATE_FIELD, "/t/0/u");
        /* a key repeated in different objects is not a duplicate */
        prc_err e;
        json_t *v = parse("[{\"a\":1},{\"a\":2},{\"b\":{\"a\":3}}]", 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
}

static void test_json_strict__depth_at_limit_and_one_past(void)
{
        prc_limits lim = prc_limits_default;
        char s[1000];
        prc_err e;
        json_t *v;
        size_t n = 0;

        lim.depth_max = 128;
        for (int i = 0; i < 128; i++)
                s[n++] = '[';
        for (int i = 0; i < 128; i++)
                s[n++] = ']';
        v = parse_l(s, n, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        n = 0;
        for (int i = 0; i < 129; i++)
                s[n++] = '[';
        for (int i = 0; i < 129; i++)
                s[n++] = ']';
        v = parse_l(s, n, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        T_EQ_INT(e.off, 128);
        /* objects count the same; brackets inside strings do not count */
        n = 0;
        for (int i = 0; i < 129; i++)
                n += (size_t)snprintf(s + n, sizeof(s) - n, "{\"a\":");
        v = parse_l(s, n, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        lim.depth_max = 2;
        v = parse_l("[[\"[[[{{\\\"[[\"],{\"[\":\"{{\"}]", 26, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
}

static void test_json_strict__hundred_thousand_brackets_refused_fast(void)
{
        size_t n = 100000;
        char *s = malloc(n);
        prc_err e;
        json_t *v;

        T_ASSERT(s != NULL);
        memset(s, '[', n);
        /* The pre-scan stops at depth_max + 1: jansson never recurses into it. */
        v = parse_l(s, n, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        T_EQ_INT(e.off, prc_limits_default.depth_max);
        free(s);
}

static void test_json_strict__check_tree_bounds_depth_of_foreign_trees(void)
{
        json_t *root = json_array(), *cur = root;
        prc_limits lim = prc_limits_default;
        prc_err e;

        for (int i = 0; i < 200; i++) {
                json_t *next = json_object();
                json_array_append_new(cur, next);
                cur = json_array();
                json_object_set_new(next, "k", cur);
        }
        prc_err_init(&e);
        T_ASSERT(!prc_json_check_tree(root, &lim, 0, &e));
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        T_ASSERT(strncmp(e.ptr, "/0/k/0/k/", 9) == 0);
        lim.depth_max = 401;    /* 1 + 200 * 2 containers */
        prc_err_init(&e);
        T_ASSERT(prc_json_check_tree(root, &lim, 0, &e));
        lim.depth_max = 400;
        T_ASSERT(!prc_json_check_tree(root, &lim, 0, &e));
        json_decref(root);
}

static void test_json_strict__numbers(void)
{
        prc_err e;
        json_t *v;

        v = parse("[9007199254740991,-9007199254740991,0,-0]", 0, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(json_integer_value(json_array_get(v, 3)), 0);
        json_decref(v);
        REFUSE("[1, 9007199254740992]", 0, PRC_E_UNSAFE_NUMBER, "/1");
        REFUSE("{\"n\":-9007199254740992}", 0, PRC_E_UNSAFE_NUMBER, "/n");
        REFUSE("9223372036854775808", PRC_JSON_ALLOW_UNSAFE_INT, PRC_E_UNSAFE_NUMBER, NULL);
        v = parse("9223372036854775807", PRC_JSON_ALLOW_UNSAFE_INT, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        /* floats, including integral spellings, are floats */
        REFUSE("{\"a\":{\"b\":1.5}}", 0, PRC_E_UNSAFE_NUMBER, "/a/b");
        REFUSE("1e2", 0, PRC_E_UNSAFE_NUMBER, "");
        REFUSE("1.0", 0, PRC_E_UNSAFE_NUMBER, "");
        REFUSE("-0.0", 0, PRC_E_UNSAFE_NUMBER, "");
        v = parse("[1.5,1e2,-0.0]", PRC_JSON_ALLOW_FLOAT, &e);
        T_ASSERT(v != NULL && json_is_real(json_array_get(v, 1)));
        json_decref(v);
        REFUSE("1e400", PRC_JSON_ALLOW_FLOAT, PRC_E_UNSAFE_NUMBER, NULL);
        /* not JSON numbers at all */
        REFUSE("01", 0, PRC_E_INVALID_JSON, NULL);
        REFUSE("+1", 0, PRC_E_INVALID_JSON, NULL);
        REFUSE(".5", PRC_JSON_ALLOW_FLOAT, PRC_E_INVALID_JSON, NULL);
        REFUSE("1.", PRC_JSON_ALLOW_FLOAT, PRC_E_INVALID_JSON, NULL);
        REFUSE("0x10", 0, PRC_E_INVALID_JSON, NULL);
        REFUSE("NaN", PRC_JSON_ALLOW_FLOAT, PRC_E_INVALID_JSON, NULL);
        REFUSE("-Infinity", PRC_JSON_ALLOW_FLOAT, PRC_E_INVALID_JSON, NULL);
}

static void test_json_strict__syntax_errors_with_position(void)
{
        static const char *const bad[] = { "", " ", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a:1}", "'x'",
                                           "[1] [2]", "tru", "nul", "[\"a\\x\"]", "\"tab\there\"", "/* c */ 1",
                                           "[1] // c", "{\"a\":1", "]" };
        prc_err e;
        json_t *v;

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++)
                refuse(bad[i], strlen(bad[i]), 0, PRC_E_INVALID_JSON, NULL, __LINE__);
        v = parse("{\n  \"a\": 1,\n  \"b\": ]\n}", 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
        T_EQ_INT(e.line, 3);
        T_ASSERT(e.off != PRC_NO_OFF && e.off > 10);
}

static void test_json_strict__scalar_node_and_key_limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.scalar_max = 4;
        v = parse_l("[\"abcd\",{\"wxyz\":1}]", 19, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        v = parse_l("[\"abcd\",\"abcde\"]", 16, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        T_EQ_STR(e.ptr, "/1");
        v = parse_l("{\"vwxyz\":1}", 11, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        T_EQ_STR(e.ptr, "/vwxyz");
        /* a limit counts bytes after unescaping: 4 escapes are 4 bytes */
        v = parse_l("\"\\u0041\\u0042\\u0043\\u0044\"", 26, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);

        lim = prc_limits_default;
        lim.nodes_max = 5;
        v = parse_l("[1,2,3,4]", 9, &lim, 0, &e);            /* 5 values */
        T_ASSERT(v != NULL);
        json_decref(v);
        v = parse_l("[1,2,3,4,5]", 11, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);

        /* keys are not values: object, 1, 2, array, true, null = 6 */
        lim.nodes_max = 6;
        v = parse_l("{\"a\":1,\"b\":2,\"c\":[true,null]}", 29, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        lim.nodes_max = 5;
        v = parse_l("{\"a\":1,\"b\":2,\"c\":[true,null]}", 29, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);

        lim = prc_limits_default;
        lim.keys_max = 2;
        v = parse_l("{\"a\":1,\"b\":{\"c\":1,\"d\":2}}", 25, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        v = parse_l("{\"a\":1,\"b\":{\"c\":1,\"d\":2,\"e\":3}}", 31, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        T_EQ_STR(e.ptr, "/b");
}

static void test_json_strict__flat_value_flood_refused_before_building(void)
{
        prc_limits lim = prc_limits_default;
        size_t n = 1u << 20;
        char *s = malloc(n);
        prc_err e;
        json_t *v;

        T_ASSERT(s != NULL);
        s[0] = '[';
        for (size_t i = 1; i + 1 < n; i += 2)
                memcpy(s + i, "0,", 2);
        s[n - 2] = '0';
        s[n - 1] = ']';
        lim.nodes_max = 1000;
        v = parse_l(s, n, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        /* refused by the pre-scan near value 1001, not after building 500000 */
        T_ASSERT(e.off != PRC_NO_OFF && e.off < 2100);
        free(s);
}

static const prc_field manifest_fields[] = {
        { "name", PRC_JT_STRING, true },
        { "version", PRC_JT_INT, true },
        { "note", PRC_JT_STRING | PRC_JT_NULL, false },
        { "items", PRC_JT_ARRAY, false },
};

static prc_errclass fields_of(const char *text, const char *ptr, prc_err *e)
{
        json_t *v = parse(text, 0, e);
        bool ok;

        if (v == NULL)
                t_fail(__FILE__, __LINE__, "fixture does not parse: %s", e->msg);
        ok = prc_json_fields(v, ptr, manifest_fields, PRC_ARRAY_LEN(manifest_fields), e);
        json_decref(v);
        T_ASSERT(ok == (e->cls == PRC_E_OK));
        return e->cls;
}

static void test_json_strict__field_table(void)
{
        prc_err e;

        T_EQ_INT(fields_of("{\"name\":\"x\",\"version\":1}", "", &e), PRC_E_OK);
        T_EQ_INT(fields_of("{\"name\":\"x\",\"version\":1,\"note\":null,\"items\":[]}", "", &e), PRC_E_OK);
        T_EQ_INT(fields_of("{\"name\":\"x\",\"version\":1,\"extra\":0}", "", &e), PRC_E_UNKNOWN_FIELD);
        T_EQ_STR(e.ptr, "/extra");
        T_EQ_INT(fields_of("{\"name\":\"x\"}", "/adapters/3", &e), PRC_E_MISSING_FIELD);
        T_EQ_STR(e.ptr, "/adapters/3/version");
        T_EQ_INT(fields_of("{\"name\":\"x\",\"version\":\"1\"}", "/m", &e), PRC_E_WRONG_TYPE);
        T_EQ_STR(e.ptr, "/m/version");
        T_EQ_STR(e.msg, "field 'version' has type string");
        T_EQ_INT(fields_of("{\"name\":null,\"version\":1}", "", &e), PRC_E_WRONG_TYPE);
        T_EQ_STR(e.ptr, "/name");
        T_EQ_INT(fields_of("[]", "", &e), PRC_E_NOT_AN_OBJECT);
        T_EQ_STR(e.ptr, "");            /* the root's RFC 6901 pointer */
        T_EQ_INT(fields_of("1", "/x", &e), PRC_E_NOT_AN_OBJECT);
        T_EQ_STR(e.ptr, "/x");
        /* the first bad key in document order is the one reported */
        T_EQ_INT(fields_of("{\"version\":true,\"zzz\":1}", "", &e), PRC_E_WRONG_TYPE);
        T_EQ_INT(fields_of("{\"zzz\":1,\"version\":true}", "", &e), PRC_E_UNKNOWN_FIELD);
        /* pointer escapes and a hostile key in the message */
        T_EQ_INT(fields_of("{\"a/b~\\u001b[2J\":1}", "", &e), PRC_E_UNKNOWN_FIELD);
        T_EQ_STR(e.ptr, "/a~1b~0?[2J");
        T_EQ_STR(e.msg, "unknown field 'a/b~?[2J'");
}

static void test_json_strict__pointer_helpers(void)
{
        char p[16] = "";

        prc_jptr_push(p, sizeof(p), "a/b");
        prc_jptr_index(p, sizeof(p), 12);
        prc_jptr_push(p, sizeof(p), "~");
        T_EQ_STR(p, "/a~1b/12/~0");
        prc_jptr_push(p, sizeof(p), "overflowing-key");
        T_ASSERT(strlen(p) < sizeof(p));        /* truncated, always terminated */
        T_ASSERT(strncmp(p, "/a~1b/12/~0/", 12) == 0);
        T_EQ_STR(prc_json_type_name(json_true()), "boolean");
        /* a cut falls between characters: 8 bytes left, three 3-byte characters offered */
        char q[10] = "";
        prc_jptr_push(q, sizeof(q), "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
        T_EQ_STR(q, "/\xe2\x82\xac\xe2\x82\xac");
        char r[4] = "/ab";
        prc_jptr_push(r, sizeof(r), "x");       /* full: unchanged */
        T_EQ_STR(r, "/ab");
}

/* Fault injection: each jansson allocation fails in turn; every outcome is out-of-memory, no leak. */
static void test_json_strict__fault_sweep_over_parse(void)
{
        static const char doc[] = "{\"name\":\"prc\",\"list\":[1,2,{\"k\":\"v\",\"deep\":[[[\"x\"]]]}],"
                                  "\"s\":\"\\u00e9\\ud83d\\ude00 long enough to need a second chunk\",\"n\":null}";
        unsigned long total;
        prc_err e;
        json_t *v;

        /* prc's own jansson allocator goes through prc_malloc, where the fault hook sits. */
        prc_fault_arm(0, false);
        v = parse(doc, 0, &e);
        total = prc_fault_count();
        T_ASSERT(v != NULL);
        json_decref(v);
        T_ASSERT(total > 10);
        for (int persist = 0; persist < 2; persist++) {
                for (unsigned long nth = 1; nth <= total; nth++) {
                        prc_fault_arm(nth, persist);
                        v = parse(doc, 0, &e);
                        prc_fault_arm(0, false);
                        if (v != NULL)
                                t_fail(__FILE__, __LINE__, "allocation %lu of %lu failed but parse succeeded",
                                       nth, total);
                        if (e.cls != PRC_E_OUT_OF_MEMORY)
                                t_fail(__FILE__, __LINE__, "allocation %lu of %lu: class %s (%s)", nth, total,
                                       prc_err_name(e.cls), e.msg);
                }
        }
        check_leaks();
}

/* The same sweep through the other refusal paths: floats kept, a duplicate found late. */
static void test_json_strict__fault_sweep_over_float_and_duplicate_paths(void)
{
        static const char *const docs[] = {
                "{\"f\":[1.5,-2e3,{\"g\":0.25}],\"s\":\"text\"}",
                "{\"a\":{\"b\":[1,{\"c\":\"x\",\"c\":\"y\"}]}}",
        };
        static const prc_errclass clean[] = { PRC_E_OK, PRC_E_DUPLICATE_FIELD };

        for (size_t d = 0; d < PRC_ARRAY_LEN(docs); d++) {
                unsigned long total;
                prc_err e;
                json_t *v;

                prc_fault_arm(0, false);
                v = parse(docs[d], PRC_JSON_ALLOW_FLOAT, &e);
                total = prc_fault_count();
                T_ERR(e, clean[d]);
                json_decref(v);
                for (unsigned long nth = 1; nth <= total; nth++) {
                        prc_fault_arm(nth, false);
                        v = parse(docs[d], PRC_JSON_ALLOW_FLOAT, &e);
                        prc_fault_arm(0, false);
                        if (v != NULL || e.cls != PRC_E_OUT_OF_MEMORY)
                                t_fail(__FILE__, __LINE__, "doc %zu, allocation %lu of %lu: %s", d, nth, total,
                                       prc_err_name(e.cls));
                }
        }
        check_leaks();
}

/* Someone replacing jansson's allocator must not blind the guard. */
static void test_json_strict__guard_survives_replaced_allocator(void)
{
        prc_err e;
        json_t *v;

        json_set_alloc_funcs(malloc, free);
        prc_fault_arm(2, false);
        v = parse("[\"abc\",{\"k\":[1]}]", 0, &e);
        prc_fault_arm(0, false);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_OUT_OF_MEMORY);
}

static void paths_agree(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, const char *what,
                        int line);

/* One input through both modes: exactly one outcome; a parsed document is JCS-writable; both paths agree. */
static void one_outcome(const uint8_t *p, size_t n)
{
        static const unsigned modes[] = { 0, PRC_JSON_ALLOW_FLOAT };

        for (size_t m = 0; m < PRC_ARRAY_LEN(modes); m++) {
                prc_err e;
                prc_buf b;
                json_t *v;

                prc_err_init(&e);
                paths_agree(p, n, &prc_limits_fuzz, modes[m], "a swept input", __LINE__);
                v = prc_json_parse(p, n, &prc_limits_fuzz, modes[m], &e);
                if ((v == NULL) != (e.cls != PRC_E_OK))
                        t_fail(__FILE__, __LINE__, "not exactly one outcome for %zu bytes", n);
                if (v == NULL)
                        continue;
                prc_buf_init(&b, 1 << 20);
                if (!prc_jcs_write(v, &b, &e) && !(modes[m] && e.cls == PRC_E_NOT_CANONICAL))
                        t_fail(__FILE__, __LINE__, "parsed document not writable: %s", prc_err_name(e.cls));
                prc_buf_clear(&b);
                json_decref(v);
        }
}

static void sweep(const uint8_t *in, size_t n)
{
        uint8_t *p = malloc(n ? n : 1);

        T_ASSERT(p != NULL);
        for (size_t k = 0; k <= n; k++) {       /* every truncation, in a buffer of exactly k bytes */
                uint8_t *t = malloc(k ? k : 1);
                memcpy(t, in, k);
                one_outcome(t, k);
                free(t);
        }
        for (size_t i = 0; i < n; i++) {        /* every single-bit flip */
                for (int bit = 0; bit < 8; bit++) {
                        memcpy(p, in, n);
                        p[i] ^= (uint8_t)(1u << bit);
                        one_outcome(p, n);
                }
        }
        free(p);
}

static void test_json_strict__bitflip_and_truncation_sweep(void)
{
        static const char *const inputs[] = {
                "{\"a\":[1,-2,{\"b\":\"c\\n\\u00e9\"}],\"d\":true,\"e\":null}",
                "[\"\\ud83d\\ude00\",0,9007199254740991,{\"\":{}}]",
                "{\"k\":1.5e3,\"s\":\"\xe2\x82\xac\"}",
        };
        char dir[4200];
        struct dirent **names;
        int n, files = 0;

        for (size_t i = 0; i < PRC_ARRAY_LEN(inputs); i++)
                sweep((const uint8_t *)inputs[i], strlen(inputs[i]));
        /* and every golden JSON input */
        snprintf(dir, sizeof(dir), "%s/tests/golden/jcs", t_root());
        n = scandir(dir, &names, NULL, alphasort);
        for (int i = 0; i < n; i++) {
                size_t len = strlen(names[i]->d_name);
                if (len > 3 && strcmp(names[i]->d_name + len - 3, ".in") == 0) {
                        char path[4600];
                        size_t flen;
                        char *text;
                        snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
                        text = t_read(path, &flen);
                        sweep((const uint8_t *)text, flen);
                        free(text);
                        files++;
                }
                free(names[i]);
        }
        free(names);
        T_ASSERT(files >= 5);
        check_leaks();
}

/* prc_json_parse (fast path first) and prc_json_parse_jansson agree: the same tree or the same refusal. */
static void paths_agree(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, const char *what, int line)
{
        prc_err ef, ej;
        json_t *vf, *vj;

        prc_err_init(&ef);
        prc_err_init(&ej);
        vf = prc_json_parse(p, n, lim, flags, &ef);
        vj = prc_json_parse_jansson(p, n, lim, flags, &ej);
        if ((vf == NULL) != (vj == NULL))
                t_fail(__FILE__, line, "%.80s (flags %u): fast path %s, jansson path %s", what, flags,
                       vf ? "accepts" : prc_err_name(ef.cls), vj ? "accepts" : prc_err_name(ej.cls));
        if (vf == NULL && !prc_err_same(&ef, &ej))
                t_fail(__FILE__, line, "%.80s (flags %u): refusals differ: %s '%s' at %llu '%s' / %s '%s' at %llu '%s'",
                       what, flags, prc_err_name(ef.cls), ef.msg, (unsigned long long)ef.off, ef.ptr,
                       prc_err_name(ej.cls), ej.msg, (unsigned long long)ej.off, ej.ptr);
        if (vf != NULL && !prc_json_same(vf, vj))
                t_fail(__FILE__, line, "%.80s (flags %u): the trees differ", what, flags);
        json_decref(vf);
        json_decref(vj);
}

static void agree_all_modes(const uint8_t *p, size_t n, const char *what, int line)
{
        static const unsigned modes[] = { 0, PRC_JSON_ALLOW_FLOAT,
                                          PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT | PRC_JSON_ALLOW_NUL };
        const prc_limits *lims[] = { &prc_limits_default, &prc_limits_operator, &prc_limits_fuzz };

        for (size_t m = 0; m < PRC_ARRAY_LEN(modes); m++)
                for (size_t l = 0; l < PRC_ARRAY_LEN(lims); l++)
                        paths_agree(p, n, lims[l], modes[m], what, line);
}
#define AGREE(s) agree_all_modes((const uint8_t *)(s), sizeof(s) - 1, (s), __LINE__)

/* Built at a limit and one past it: the fast path must bail exactly where the jansson path refuses. */
static void agree_at_limits(void)
{
        prc_limits lim = prc_limits_fuzz;
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        for (uint32_t extra = 0; extra < 2; extra++) {
                /* depth: depth_max nested arrays, then one more */
                prc_buf_init(&b, 1u << 20);
                for (uint32_t i = 0; i < lim.depth_max + extra; i++)
                        T_ASSERT(prc_buf_putc(&b, '[', &e));
                for (uint32_t i = 0; i < lim.depth_max + extra; i++)
                        T_ASSERT(prc_buf_putc(&b, ']', &e));
                paths_agree(b.data, b.len, &lim, 0, "depth", __LINE__);
                prc_buf_clear(&b);
                /* nodes: an array of nodes_max - 1 values (nodes_max values with the array), then one more */
                T_ASSERT(prc_buf_putc(&b, '[', &e));
                for (uint32_t i = 0; i + 1 < lim.nodes_max + extra; i++)
                        T_ASSERT(prc_buf_puts(&b, i ? ",1" : "1", &e));
                T_ASSERT(prc_buf_putc(&b, ']', &e));
                paths_agree(b.data, b.len, &lim, 0, "nodes", __LINE__);
                prc_buf_clear(&b);
                /* keys: keys_max members, then one more */
                T_ASSERT(prc_buf_putc(&b, '{', &e));
                for (uint32_t i = 0; i < lim.keys_max + extra; i++) {
                        char m[32];
                        snprintf(m, sizeof(m), "%s\"k%u\":0", i ? "," : "", i);
                        T_ASSERT(prc_buf_puts(&b, m, &e));
                }
                T_ASSERT(prc_buf_putc(&b, '}', &e));
                paths_agree(b.data, b.len, &lim, 0, "keys", __LINE__);
                prc_buf_clear(&b);
                /* scalar: scalar_max bytes once unescaped (written with escapes, so longer), as a value and a key */
                for (int key = 0; key < 2; key++) {
                        T_ASSERT(prc_buf_puts(&b, key ? "{\"" : "\"", &e));
                        size_t left = lim.scalar_max + extra;
                        for (; left >= 2; left -= 2)
                                T_ASSERT(prc_buf_puts(&b, "\\u00e9", &e));
                        if (left > 0)
                                T_ASSERT(prc_buf_putc(&b, 'a', &e));
                        T_ASSERT(prc_buf_puts(&b, key ? "\":1}" : "\"", &e));
                        paths_agree(b.data, b.len, &lim, 0, "scalar", __LINE__);
                        prc_buf_clear(&b);
                }
        }
}

static void test_json_strict__fast_path_agrees_with_the_jansson_path(void)
{
        AGREE("");
        AGREE(" ");
        AGREE("{\"a\":[1,-2,0,-0,9007199254740991,-9007199254740991,{\"b\":\"c\"}],\"d\":true,\"e\":null,\"f\":false}");
        AGREE("[9007199254740992,-9007199254740992,12345678901234567890,99999999999999999999999]");
        AGREE("[1.5,-2e3,1E2,0.0,-0.0,1e400,-1e-400,2.,.5,01,-01,00,-,+1,1e,1e+,0x10]");
        AGREE("[\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\\b\\f\\r\",\"\xe2\x82\xac\xf0\x9f\x98\x80\"]");
        AGREE("[\"\\ud83d\"]");
        AGREE("[\"\\ude00\"]");
        AGREE("[\"\\ud83d\\u0041\"]");
        AGREE("[\"\\ud83dx\"]");
        AGREE("[\"\\u0000\"]");
        AGREE("{\"\\u0000\":1}");
        AGREE("[\"\\u00\"]");
        AGREE("[\"\\x41\"]");
        AGREE("[\"a\tb\"]");
        AGREE("[\"\xc3\x28\"]");
        AGREE("[\"\xed\xa0\x80\"]");
        AGREE("[\"\xc0\xaf\"]");
        AGREE("\xef\xbb\xbf[]");
        AGREE("{\"a\":1,\"a\":2}");
        AGREE("{\"a\":1,\"\\u0061\":2}");
        AGREE("{\"x\":{\"b\":[1,{\"c\":\"x\",\"c\":\"y\"}]}}");
        AGREE("{\"\\u00e9\\n\":{\"\\u00e9\\n\":[\"\\u00e9\\n\"]},\"k\\\"q\":\"v\\\"w\"}");
        AGREE("[1,2,]");
        AGREE("{\"a\":1,}");
        AGREE("{\"a\" 1}");
        AGREE("{a:1}");
        AGREE("[1] x");
        AGREE("[1]\n\r\t ");
        AGREE("[true,false,null,truex,nul]");
        AGREE("[tru]");
        AGREE("[\"abc");
        AGREE("[\"abc\\");
        AGREE("{\"abc\"");
        AGREE("[1 2]");
        AGREE("[\"a\" \"b\"]");
        AGREE("[\"a\x00b\"]");
        AGREE("[1]\x00");
        AGREE("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"deep\"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
        agree_at_limits();
        check_leaks();
}

static int agree_files;

/* Every JSON file of the shared corpora (the attack files and the manifests), both paths. */
static int agree_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
        size_t l = strlen(path);
        char *text;
        size_t n;

        (void)st;
        (void)ftw;
        if (type != FTW_F || strstr(path, "/node_modules/") != NULL ||
            !((l > 5 && strcmp(path + l - 5, ".json") == 0) || (l > 5 && strcmp(path + l - 5, ".lock") == 0)))
                return 0;
        text = t_read(path, &n);
        agree_all_modes((const uint8_t *)text, n, path, __LINE__);
        free(text);
        agree_files++;
        return 0;
}

static void test_json_strict__fast_path_agrees_on_the_corpora(void)
{
        const char *c = t_corpora();
        char dir[4200];

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "the shared corpora are absent (set PRC_CORPORA or check ../shared)");
        agree_files = 0;
        snprintf(dir, sizeof(dir), "%s/parsers/attacks/json", c);
        T_ASSERT(nftw(dir, agree_file, 16, FTW_PHYS) == 0);
        snprintf(dir, sizeof(dir), "%s/manifests", c);
        T_ASSERT(nftw(dir, agree_file, 16, FTW_PHYS) == 0);
        T_ASSERT(agree_files > 100);
        check_leaks();
}

/* A bump arena like the worker's: free is a no-op, and a mark is an offset. */
static uint8_t *ta_mem;
static size_t ta_used, ta_peak, ta_cap;
static unsigned ta_rewinds;

static void *ta_alloc(size_t n)
{
        void *p;

        n = (n + 15) & ~(size_t)15;
        if (ta_cap - ta_used < n)
                return NULL;
        p = ta_mem + ta_used;
        ta_used += n;
        if (ta_used > ta_peak)
                ta_peak = ta_used;
        return p;
}

static void ta_free(void *p)
{
        (void)p;
}

static void ta_mark(prc_json_mark *m)
{
        *m = (prc_json_mark){ .used = ta_used };
}

static void ta_rewind(const prc_json_mark *m)
{
        ta_used = m->used;
        ta_rewinds++;
}

/*
 * On an arena, a fast path that gives up late gives its memory back before
 * the jansson path builds its own tree: the peak is the jansson path's
 * alone, not two trees (20000 objects, then trailing garbage or a float).
 */
static void test_json_strict__fast_path_gives_the_arena_back_when_it_gives_up(void)
{
        static const char *const tails[] = { "] x", ",1.5]" };
        prc_buf b;
        prc_err e;

        ta_cap = 64u << 20;
        ta_mem = malloc(ta_cap);
        T_ASSERT(ta_mem != NULL);
        prc_json_alloc_backend(ta_alloc, ta_free);
        prc_json_alloc_rewind_hooks(ta_mark, ta_rewind);
        for (size_t t = 0; t < PRC_ARRAY_LEN(tails); t++) {
                size_t with, alone;
                prc_err ej;
                json_t *v, *w;

                prc_err_init(&e);
                prc_buf_init(&b, 1u << 20);
                T_ASSERT(prc_buf_putc(&b, '[', &e));
                for (int i = 0; i < 20000; i++)
                        T_ASSERT(prc_buf_puts(&b, i ? ",{\"k\":[1]}" : "{\"k\":[1]}", &e));
                T_ASSERT(prc_buf_puts(&b, tails[t], &e));
                ta_used = ta_peak = 0;
                ta_rewinds = 0;
                v = prc_json_parse(b.data, b.len, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &e);
                with = ta_peak;
                T_EQ_INT(ta_rewinds, 1);
                ta_used = ta_peak = 0;
                prc_err_init(&ej);
                w = prc_json_parse_jansson(b.data, b.len, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &ej);
                alone = ta_peak;
                T_ASSERT((v == NULL) == (w == NULL));
                T_ASSERT(v == NULL ? e.cls == ej.cls && e.off == ej.off : prc_json_same(v, w));
                /* without the rewind the peak was the two trees: about twice the jansson path's */
                if (with > alone + alone / 10)
                        t_fail(__FILE__, __LINE__, "tail '%s': peak %zu bytes with the fast path, %zu alone", tails[t],
                               with, alone);
                prc_buf_clear(&b);
        }
        /* a document the fast path takes is whole (no rewind) */
        ta_used = ta_peak = 0;
        ta_rewinds = 0;
        {
                json_t *v = parse("{\"a\":[1,{\"b\":\"c\"}]}", 0, &e);
                T_ASSERT(v != NULL && ta_rewinds == 0);
                T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(v, "a"), 1), "b")), "c");
        }
        prc_json_alloc_rewind_hooks(NULL, NULL);
        prc_json_alloc_backend(NULL, NULL);
        free(ta_mem);
}

/* prc_json_same tells member order, real bits and string bytes apart, where json_equal does not see order. */
static void test_json_strict__same_sees_order_and_bytes(void)
{
        json_t *a = json_pack("{s:i, s:[s, f]}", "a", 1, "b", "x", 0.5);
        json_t *b = json_pack("{s:[s, f], s:i}", "b", "x", 0.5, "a", 1);
        json_t *c = json_pack("{s:i, s:[s, f]}", "a", 1, "b", "x", 0.5);
        json_t *d = json_pack("{s:i, s:[s#, f]}", "a", 1, "b", "x\0", (int)2, 0.5);

        T_ASSERT(a != NULL && b != NULL && c != NULL && d != NULL);
        T_ASSERT(json_equal(a, b));
        T_ASSERT(!prc_json_same(a, b));
        T_ASSERT(prc_json_same(a, c));
        T_ASSERT(!prc_json_same(a, d));
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(d);
}

static const prc_test tests[] = {
        T(test_json_strict__same_sees_order_and_bytes),
        T(test_json_strict__accepts_every_value_type),
        T(test_json_strict__size_cap_checked_before_parsing),
        T(test_json_strict__utf8_and_nul),
        T(test_json_strict__duplicate_keys_at_every_depth_with_pointer),
        T(test_json_strict__depth_at_limit_and_one_past),
        T(test_json_strict__hundred_thousand_brackets_refused_fast),
        T(test_json_strict__check_tree_bounds_depth_of_foreign_trees),
        T(test_json_strict__numbers),
        T(test_json_strict__syntax_errors_with_position),
        T(test_json_strict__scalar_node_and_key_limits),
        T(test_json_strict__flat_value_flood_refused_before_building),
        T(test_json_strict__field_table),
        T(test_json_strict__pointer_helpers),
        T(test_json_strict__fault_sweep_over_parse),
        T(test_json_strict__fault_sweep_over_float_and_duplicate_paths),
        T(test_json_strict__guard_survives_replaced_allocator),
        T(test_json_strict__bitflip_and_truncation_sweep),
        T(test_json_strict__fast_path_agrees_with_the_jansson_path),
        T(test_json_strict__fast_path_agrees_on_the_corpora),
        T(test_json_strict__fast_path_gives_the_arena_back_when_it_gives_up),
};
PRC_SUITE(json_strict, tests)
