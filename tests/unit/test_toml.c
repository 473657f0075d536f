/*
 * test_toml.c - the TOML 1.0 reader: document model, table rules, values,
 * limits, and the shared attack and manifest corpora in place.
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>

#include "content/parsers/toml.h"
#include "text_corpus.h"

static json_t *parse(const char *s, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_toml_parse((const uint8_t *)s, strlen(s), &prc_limits_default, flags, e);
}

/* The document must be refused with class c. */
#define REFUSE(s, c)                                                                    \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), 0, &e_);                                        \
                if (v_ != NULL)                                                         \
                        t_fail(__FILE__, __LINE__, "accepted: %s", (s));                \
                T_ERR(e_, (c));                                                         \
        } while (0)

/* The document must parse and its compact sorted dump must equal want. */
#define DUMPS(s, flags, want)                                                           \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), (flags), &e_);                                  \
                char *d_;                                                               \
                T_NOERR(e_);                                                            \
                d_ = json_dumps(v_, JSON_COMPACT | JSON_SORT_KEYS);                     \
                T_EQ_STR(d_, (want));                                                   \
                free(d_);                                                               \
                json_decref(v_);                                                        \
        } while (0)

/*
 * A basic string's plain bytes are skipped eight at a time: each byte that
 * ends the run (a quote, a backslash escape, a tab, a control byte, DEL)
 * is taken at whichever offset of a word it falls on.
 */
static void test_toml__string_runs_stop_at_each_byte_at_any_offset(void)
{
        enum { RUN = 24 };

        for (size_t k = 0; k < RUN; k++) {
                char doc[RUN + 32], want[RUN + 8];
                size_t at = 0;
                prc_err e;
                json_t *v;

                /* a = "xx...\"xx..." with the escaped quote at offset k of the run */
                at = (size_t)snprintf(doc, sizeof(doc), "a = \"");
                memset(doc + at, 'x', RUN + 1);
                memcpy(doc + at + k, "\\\"", 2);
                memcpy(doc + at + RUN + 1, "\"\n", 3);
                memset(want, 'x', RUN);
                want[k] = '"';
                want[RUN] = '\0';
                v = parse(doc, 0, &e);
                T_NOERR(e);
                T_EQ_STR(json_string_value(json_object_get(v, "a")), want);
                json_decref(v);
                /* a tab is text; a closing quote ends the string there */
                doc[at + k] = '\t';
                doc[at + k + 1] = 'x';
                v = parse(doc, 0, &e);
                T_NOERR(e);
                T_EQ_INT(json_string_length(json_object_get(v, "a")), RUN + 1);
                T_ASSERT(json_string_value(json_object_get(v, "a"))[k] == '\t');
                json_decref(v);
                doc[at + k] = '"';
                REFUSE(doc, PRC_E_TOML_SYNTAX);         /* the rest of the run follows the string */
                /* a control byte and DEL are refused where they stand */
                for (const char *c = "\x01\x1f\x7f"; *c != '\0'; c++) {
                        doc[at + k] = *c;
                        v = parse(doc, 0, &e);
                        if (v != NULL || e.off != at + k)
                                t_fail(__FILE__, __LINE__, "byte %02x at %zu: %s at %llu", (unsigned)(uint8_t)*c,
                                       at + k, v != NULL ? "accepted" : prc_err_name(e.cls),
                                       (unsigned long long)e.off);
                        json_decref(v);
                }
                doc[at + k] = 'x';
        }
}

static void test_toml__document_model(void)
{
        DUMPS("s = 'lit'\nb = \"x\\ty\"\ni = 0xff\nt = true\nf = 1_000.5e3\nd = 1979-05-27\n"
              "dt = 1979-05-27 07:32:00Z\nl = 07:32:00.5\na = [1, 'two', [3]]\nin = { x = 1, y.z = 2 }\n",
              0,
              "{\"a\":[1,\"two\",[3]],\"b\":\"x\\ty\",\"d\":{\"$toml\":\"date-local\",\"text\":\"1979-05-27\"},"
              "\"dt\":{\"$toml\":\"datetime\",\"text\":\"1979-05-27 07:32:00Z\"},"
              "\"f\":{\"$toml\":\"float\",\"text\":\"1_000.5e3\"},\"i\":255,\"in\":{\"x\":1,\"y\":{\"z\":2}},"
              "\"l\":{\"$toml\":\"time-local\",\"text\":\"07:32:00.5\"},\"s\":\"lit\",\"t\":true}");
}

static void test_toml__tagged_mode_is_toml_test_json(void)
{
        DUMPS("i = -7\nf = -inf\nb = false\ns = \"\"\n[t]\nx = 1987-07-05T17:45:00", PRC_TOML_TAGGED,
              "{\"b\":{\"type\":\"bool\",\"value\":\"false\"},\"f\":{\"type\":\"float\",\"value\":\"-inf\"},"
              "\"i\":{\"type\":\"integer\",\"value\":\"-7\"},\"s\":{\"type\":\"string\",\"value\":\"\"},"
              "\"t\":{\"x\":{\"type\":\"datetime-local\",\"value\":\"1987-07-05T17:45:00\"}}}");
}

static void test_toml__array_of_tables_and_subtables(void)
{
        DUMPS("[[p]]\nn = 1\n[p.d]\nx = 1\n[[p]]\nn = 2\n[p.d]\nx = 2\n[[p.s]]\n", 0,
              "{\"p\":[{\"d\":{\"x\":1},\"n\":1},{\"d\":{\"x\":2},\"n\":2,\"s\":[{}]}]}");
}

static void test_toml__table_defined_twice_is_refused(void)
{
        REFUSE("[a]\nx = 1\n[a]\ny = 2\n", PRC_E_TOML_TABLE_REDEFINED);
        REFUSE("[a.b]\n[a]\n[a]\n", PRC_E_TOML_TABLE_REDEFINED);
}

static void test_toml__implicit_table_may_be_defined_once(void)
{
        DUMPS("[a.b.c]\nz = 1\n[a]\nx = 1\n", 0, "{\"a\":{\"b\":{\"c\":{\"z\":1}},\"x\":1}}");
        /* A parent created by a header may still get dotted keys in its parent's section. */
        DUMPS("[a.b.c]\n[a]\nb.d = 1\n", 0, "{\"a\":{\"b\":{\"c\":{},\"d\":1}}}");
}

static void test_toml__dotted_keys_define_tables(void)
{
        /* fruit.apple is defined by dotted keys: a header for it is a redefinition ... */
        REFUSE("[fruit]\napple.color = 'red'\n[fruit.apple]\n", PRC_E_TOML_TABLE_REDEFINED);
        REFUSE("a.b = 1\n[a]\n", PRC_E_TOML_TABLE_REDEFINED);
        /* ... but a sub-table header is allowed (TOML 1.0, "Table"). */
        DUMPS("[fruit]\napple.color = 'red'\n[fruit.apple.texture]\nsmooth = true\n", 0,
              "{\"fruit\":{\"apple\":{\"color\":\"red\",\"texture\":{\"smooth\":true}}}}");
        /* Dotted keys of one section may add to each other. */
        DUMPS("a.b = 1\na.c = 2\n", 0, "{\"a\":{\"b\":1,\"c\":2}}");
}

static void test_toml__dotted_keys_cannot_add_to_a_header_table(void)
{
        REFUSE("[a.b.c]\nz = 9\n[a]\nb.c.t = 9\n", PRC_E_TOML_TABLE_REDEFINED);
}

static void test_toml__inline_tables_and_static_arrays_are_immutable(void)
{
        REFUSE("a = {x = 1}\n[a]\ny = 2\n", PRC_E_TOML_IMMUTABLE);
        REFUSE("a = {x = 1}\na.y = 2\n", PRC_E_TOML_IMMUTABLE);
        REFUSE("a = {x = {y = 1}}\n[a.x.z]\n", PRC_E_TOML_IMMUTABLE);
        REFUSE("a = [1]\n[[a]]\n", PRC_E_TOML_IMMUTABLE);
        REFUSE("a = {b = {c = 1}, b.d = 2}\n", PRC_E_TOML_IMMUTABLE);
        DUMPS("a = {b.c = 1, b.d = 2}\n", 0, "{\"a\":{\"b\":{\"c\":1,\"d\":2}}}");
}

static void test_toml__key_and_table_conflicts(void)
{
        REFUSE("a = 1\n[a]\n", PRC_E_TOML_KEY_CONFLICT);
        REFUSE("a = 1\na.b = 2\n", PRC_E_TOML_KEY_CONFLICT);
        REFUSE("[[a]]\n[a]\n", PRC_E_TOML_KEY_CONFLICT);
        REFUSE("[a]\n[[a]]\n", PRC_E_TOML_KEY_CONFLICT);
        REFUSE("a = 1\na = 2\n", PRC_E_DUPLICATE_FIELD);
        REFUSE("a = 1\n'a' = 2\n", PRC_E_DUPLICATE_FIELD);
        REFUSE("[a.b]\n[a]\nb = 1\n", PRC_E_DUPLICATE_FIELD);
        REFUSE("x = {a = 1, a = 2}\n", PRC_E_DUPLICATE_FIELD);
}

static void test_toml__integers(void)
{
        DUMPS("a = 0xDEAD_beef\nb = 0o755\nc = 0b1101\nd = +1_000\ne = -0\n", 0,
              "{\"a\":3735928559,\"b\":493,\"c\":13,\"d\":1000,\"e\":0}");
        DUMPS("max = 9223372036854775807\nmin = -9223372036854775808\n", 0,
              "{\"max\":9223372036854775807,\"min\":-9223372036854775808}");
        REFUSE("a = 9223372036854775808\n", PRC_E_TOML_INTEGER_RANGE);
        REFUSE("a = -9223372036854775809\n", PRC_E_TOML_INTEGER_RANGE);
        REFUSE("a = 0x8000000000000000\n", PRC_E_TOML_INTEGER_RANGE);
        REFUSE("a = 012\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = 1__0\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = _1\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = 1_\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = +0x1\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = 0X1\n", PRC_E_TOML_INVALID_NUMBER);
}

static void test_toml__floats_keep_their_text(void)
{
        DUMPS("a = -0.0\nb = 6.626e-34\nc = +inf\nd = nan\n", 0,
              "{\"a\":{\"$toml\":\"float\",\"text\":\"-0.0\"},\"b\":{\"$toml\":\"float\",\"text\":\"6.626e-34\"},"
              "\"c\":{\"$toml\":\"float\",\"text\":\"+inf\"},\"d\":{\"$toml\":\"float\",\"text\":\"nan\"}}");
        REFUSE("a = 1.\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = .5\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = 1.e5\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = 1e_5\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = 01.5\n", PRC_E_TOML_INVALID_NUMBER);
        REFUSE("a = Inf\n", PRC_E_TOML_SYNTAX);
}

static void test_toml__dates_and_times(void)
{
        DUMPS("a = 2024-02-29\nb = 0000-01-01\nc = 1990-12-31T23:59:60z\nd = 1979-05-27T00:32:00.999999-07:00\n",
              0,
              "{\"a\":{\"$toml\":\"date-local\",\"text\":\"2024-02-29\"},\"b\":{\"$toml\":\"date-local\",\"text\":"
              "\"0000-01-01\"},\"c\":{\"$toml\":\"datetime\",\"text\":\"1990-12-31T23:59:60z\"},\"d\":{\"$toml\":"
              "\"datetime\",\"text\":\"1979-05-27T00:32:00.999999-07:00\"}}");
        REFUSE("a = 2023-02-29\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 2023-13-01\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 24:00:00\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 07:32\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 07:32:00Z\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 1979-05-27T07:32:00+7:00\n", PRC_E_TOML_INVALID_DATETIME);
        REFUSE("a = 1979-05-27T07:32:00.\n", PRC_E_TOML_INVALID_DATETIME);
}

static void test_toml__strings(void)
{
        DUMPS("a = \"\"\"\nline1\\\n    line2\"\"\"\nb = '''\n''quoted'' '''\nc = \"\"\"\"x\"\"\"\"\nd = \"# not a comment\"\n"
              "e = \"\\u00e9\\U0001F600\"\n",
              0,
              "{\"a\":\"line1line2\",\"b\":\"''quoted'' \",\"c\":\"\\\"x\\\"\",\"d\":\"# not a comment\","
              "\"e\":\"\xc3\xa9\xf0\x9f\x98\x80\"}");
        DUMPS("a = \"\"\"x\r\ny\"\"\"\n", 0, "{\"a\":\"x\\ny\"}");
        REFUSE("a = \"\\e\"\n", PRC_E_TOML_INVALID_ESCAPE);
        REFUSE("a = \"\\x41\"\n", PRC_E_TOML_INVALID_ESCAPE);
        REFUSE("a = \"\\uD800\"\n", PRC_E_TOML_INVALID_ESCAPE);
        REFUSE("a = \"\\U00110000\"\n", PRC_E_TOML_INVALID_ESCAPE);
        REFUSE("a = \"open\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = \"\"\"x\"\"\"\"\"\"\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = '\t\x01'\n", PRC_E_TOML_CONTROL_CHAR);
}

static void test_toml__nul_escape_needs_a_flag(void)
{
        prc_err e;
        json_t *v;

        REFUSE("a = \"x\\u0000y\"\n", PRC_E_NUL_BYTE);
        v = parse("a = \"x\\u0000y\"\n", PRC_TOML_ALLOW_NUL, &e);
        T_NOERR(e);
        T_EQ_INT(json_string_length(json_object_get(v, "a")), 3);     /* not truncated */
        json_decref(v);
        prc_err_init(&e);
        T_ASSERT(prc_toml_parse((const uint8_t *)"a = \"x\0y\"\n", 10, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.off, 6);
}

static void test_toml__control_characters(void)
{
        REFUSE("a = 1\r b = 2\n", PRC_E_TOML_CONTROL_CHAR);
        REFUSE("# del \x7f\n", PRC_E_TOML_CONTROL_CHAR);
        REFUSE("a = 1 # \x1b\n", PRC_E_TOML_CONTROL_CHAR);
        DUMPS("a = 1\r\nb = 2 # tab\there\r\n", 0, "{\"a\":1,\"b\":2}");
}

static void test_toml__syntax_rules(void)
{
        REFUSE("a = 1 b = 2\n", PRC_E_TOML_SYNTAX);
        REFUSE("a =\n1\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = {x = 1,}\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = {x = 1,\ny = 2}\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = [1,,]\n", PRC_E_TOML_SYNTAX);
        REFUSE("a = [,]\n", PRC_E_TOML_SYNTAX);
        REFUSE("[a\n", PRC_E_TOML_SYNTAX);
        REFUSE("[[a]\n", PRC_E_TOML_SYNTAX);
        REFUSE("= 1\n", PRC_E_TOML_SYNTAX);
        REFUSE("\"\"\"k\"\"\" = 1\n", PRC_E_TOML_SYNTAX);
        DUMPS("a = [\n  1, # one\n  2,\n]\n\"\" = 3\n", 0, "{\"\":3,\"a\":[1,2]}");
}

static void test_toml__typed_leaves_are_values_not_tables(void)
{
        prc_err e;

        /* Found by fuzz_toml: a tagged leaf is an object, but a key holding one is still a value. */
        T_ASSERT(parse("a = 0\na.q.d = 1\n", PRC_TOML_TAGGED, &e) == NULL);
        T_ERR(e, PRC_E_TOML_KEY_CONFLICT);
        T_ASSERT(parse("a = 0\n[a.b]\n", PRC_TOML_TAGGED, &e) == NULL);
        T_ERR(e, PRC_E_TOML_KEY_CONFLICT);
        REFUSE("a = 0\na.q.d = 1\n", PRC_E_TOML_KEY_CONFLICT);
        /* Also found by fuzz_toml: a typed float or date in default mode is a value as well. */
        REFUSE("a = 13E2\na.b = 2\n", PRC_E_TOML_KEY_CONFLICT);
        REFUSE("a = 1979-05-27\n[a.b]\n", PRC_E_TOML_KEY_CONFLICT);
        T_ASSERT(parse("a = 13E2\na.b = 2\n", PRC_TOML_TAGGED, &e) == NULL);
        T_ERR(e, PRC_E_TOML_KEY_CONFLICT);
}

static void test_toml__reserved_key(void)
{
        prc_err e;
        json_t *v;

        REFUSE("\"$toml\" = 'float'\n", PRC_E_TOML_RESERVED_KEY);
        REFUSE("[a.\"$toml\"]\n", PRC_E_TOML_RESERVED_KEY);
        v = parse("\"$toml\" = 'x'\n", PRC_TOML_TAGGED, &e);    /* tagged mode has no typed objects */
        T_NOERR(e);
        json_decref(v);
}

static void test_toml__error_line_and_column(void)
{
        prc_err e;

        T_ASSERT(parse("a = 1\nb = 2\n  b = 3\n", 0, &e) == NULL);
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_EQ_INT(e.line, 3);
        T_EQ_INT(e.col, 3);
        T_EQ_INT(e.off, 14);
        T_ASSERT(parse("k = \"\xc3\xa9\xc3\xa9\\q\"\n", 0, &e) == NULL);
        T_ERR(e, PRC_E_TOML_INVALID_ESCAPE);
        T_EQ_INT(e.line, 1);
        T_EQ_INT(e.col, 8);     /* code points, not bytes */
}

static void test_toml__limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        const char *s;

        lim.depth_max = 3;
        prc_err_init(&e);
        s = "a = [[[1]]]\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        prc_err_init(&e);
        s = "[a.b.c.d]\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        prc_err_init(&e);
        s = "a.b.c.d = 1\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        lim = prc_limits_default;
        lim.nodes_max = 4;
        prc_err_init(&e);
        s = "a = [1, 2, 3, 4]\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.keys_max = 2;
        prc_err_init(&e);
        s = "a = 1\nb = 2\nc = 3\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.scalar_max = 3;
        prc_err_init(&e);
        s = "a = 'abcd'\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        prc_err_init(&e);
        s = "abcd = 1\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        lim = prc_limits_default;
        lim.input_max = 4;
        prc_err_init(&e);
        s = "a = 1\n";
        T_ASSERT(prc_toml_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
}

static void test_toml__invalid_utf8_is_refused_with_offset(void)
{
        prc_err e;

        T_ASSERT(parse("a = 'ok'\nb = '\xc0\xaf'\n", 0, &e) == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_EQ_INT(e.off, 14);
        T_EQ_INT(e.line, 2);
}

static void test_toml__unsafe_integers_are_kept(void)
{
        prc_err e;
        json_t *v = parse("big = 9007199254740993\n", 0, &e);

        T_NOERR(e);
        T_EQ_INT(json_integer_value(json_object_get(v, "big")), 9007199254740993LL);
        json_decref(v);
        DUMPS("big = 9_007_199_254_740_993\nneg = -9223372036854775807\nsafe = 9007199254740991\n",
              PRC_TOML_UNSAFE_INT_TYPED,
              "{\"big\":{\"$toml\":\"integer\",\"text\":\"9007199254740993\"},\"neg\":{\"$toml\":\"integer\","
              "\"text\":\"-9223372036854775807\"},\"safe\":9007199254740991}");
}

static void test_toml__truncation_and_bit_flip_sweep(void)
{
        const char *valid = "# lock\n[[package]]\nname = \"a\"\nv = 'x'\nd = [{ n = 1, o.p = 0x1f },]\n"
                            "[package.s]\nt = 1979-05-27T07:32:00Z\nf = -1.5e3\nm = \"\"\"\nq\\\n r\"\"\"\n";

        T_ASSERT(tc_sweep(prc_toml_parse, 0, valid) > 1000);
        T_ASSERT(tc_sweep(prc_toml_parse, PRC_TOML_TAGGED, valid) > 1000);
}

static void test_toml__allocation_failures_are_refusals_without_leaks(void)
{
        const char *valid = "# lock\n[[package]]\nname = \"a\"\nv = 'x'\nd = [{ n = 1, o.p = 0x1f },]\n"
                            "[package.s]\nt = 1979-05-27T07:32:00Z\nf = -1.5e3\nm = \"\"\"\nq\\\n r\"\"\"\n";

        T_ASSERT(tc_oom_sweep(prc_toml_parse, 0, valid) > 10);
}

static const tc_expect attacks[] = {
        { "toml/deep-inline-tables-50000.toml", "depth-limit", NULL },
        { "toml/deep-arrays-50000.toml", "depth-limit", NULL },
        { "toml/deep-dotted-key-10000.toml", "depth-limit", NULL },
        { "toml/deep-table-header-10000.toml", "depth-limit", NULL },
        { "toml/many-deep-headers-2000x100.toml", "ok", NULL },
        { "toml/many-array-of-tables-100000.toml", "ok", NULL },
        { "toml/many-keys-30000.toml", "ok", NULL },
        { "toml/huge-basic-string-1MiB.toml", "scalar-limit", NULL },
        { "toml/huge-multiline-string.toml", "ok", NULL },
        { "toml/huge-bare-key-256KiB.toml", "ok", NULL },
        { "toml/huge-integer-digits.toml", "toml-integer-range", NULL },
        { "toml/int64-overflow.toml", "toml-integer-range", NULL },
        { "toml/dup-key.toml", "duplicate-field", NULL },
        { "toml/dup-key-quoted.toml", "duplicate-field", NULL },
        { "toml/dup-key-escaped.toml", "duplicate-field", NULL },
        { "toml/dup-table.toml", "toml-table-redefined", NULL },
        { "toml/dup-table-via-dotted.toml", "toml-table-redefined", NULL },
        { "toml/inline-table-extend.toml", "toml-immutable", NULL },
        { "toml/aot-vs-table.toml", "toml-key-conflict", NULL },
        { "toml/static-array-append.toml", "toml-immutable", NULL },
        { "toml/nul-in-string.toml", "nul-byte", NULL },
        { "toml/nul-in-comment.toml", "nul-byte", NULL },
        { "toml/cr-only-newlines.toml", "toml-control-char", NULL },
        { "toml/del-in-string.toml", "toml-control-char", NULL },
        { "toml/escape-surrogate.toml", "toml-invalid-escape", NULL },
        /* a (year 0000) and b (second 60) are RFC 3339 and accepted; c (30 February) is refused. */
        { "toml/datetime-extreme.toml", "toml-invalid-datetime", NULL },
        { "utf8/overlong-slash.toml", "invalid-utf8", NULL },
        { "utf8/overlong-nul.toml", "invalid-utf8", NULL },
        { "utf8/overlong-3byte.toml", "invalid-utf8", NULL },
        { "utf8/surrogate-high.toml", "invalid-utf8", NULL },
        { "utf8/surrogate-pair-cesu.toml", "invalid-utf8", NULL },
        { "utf8/above-10ffff.toml", "invalid-utf8", NULL },
        { "utf8/five-byte.toml", "invalid-utf8", NULL },
        { "utf8/lone-continuation.toml", "invalid-utf8", NULL },
        { "utf8/truncated-3byte.toml", "invalid-utf8", NULL },
        { "utf8/truncated-at-eof.toml", "invalid-utf8", NULL },
        { "utf8/byte-fe.toml", "invalid-utf8", NULL },
        { "utf8/byte-ff.toml", "invalid-utf8", NULL },
        { "utf8/invalid-in-comment.toml", "invalid-utf8", NULL },
};

static void test_toml__attack_corpus_in_place(void)
{
        static const char *const formats[] = { "toml", NULL };

        T_EQ_INT(tc_attacks(formats, attacks, PRC_ARRAY_LEN(attacks), prc_toml_parse, 0), PRC_ARRAY_LEN(attacks));
}

static bool toml_kind(const char *kind, const char *path)
{
        (void)path;
        return strcmp(kind, "uv.lock") == 0 || strcmp(kind, "Cargo.lock") == 0 || strcmp(kind, "Cargo.toml") == 0 ||
               strcmp(kind, "poetry.lock") == 0 || strcmp(kind, "Pipfile") == 0 || strncmp(kind, "pyproject", 9) == 0;
}

static void test_toml__real_manifests_parse(void)
{
        /* 64 TOML manifests in the shared corpus (INDEX.tsv kinds above). */
        T_ASSERT(tc_manifests(toml_kind, prc_toml_parse, 0) >= 60);
}

static const prc_test tests[] = {
        T(test_toml__document_model),
        T(test_toml__tagged_mode_is_toml_test_json),
        T(test_toml__array_of_tables_and_subtables),
        T(test_toml__table_defined_twice_is_refused),
        T(test_toml__implicit_table_may_be_defined_once),
        T(test_toml__dotted_keys_define_tables),
        T(test_toml__dotted_keys_cannot_add_to_a_header_table),
        T(test_toml__inline_tables_and_static_arrays_are_immutable),
        T(test_toml__key_and_table_conflicts),
        T(test_toml__integers),
        T(test_toml__floats_keep_their_text),
        T(test_toml__dates_and_times),
        T(test_toml__strings),
        T(test_toml__nul_escape_needs_a_flag),
        T(test_toml__control_characters),
        T(test_toml__syntax_rules),
        T(test_toml__typed_leaves_are_values_not_tables),
        T(test_toml__reserved_key),
        T(test_toml__error_line_and_column),
        T(test_toml__limits),
        T(test_toml__invalid_utf8_is_refused_with_offset),
        T(test_toml__unsafe_integers_are_kept),
        T(test_toml__truncation_and_bit_flip_sweep),
        T(test_toml__allocation_failures_are_refusals_without_leaks),
        T(test_toml__string_runs_stop_at_each_byte_at_any_offset),
        T(test_toml__attack_corpus_in_place),
        T(test_toml__real_manifests_parse),
};

PRC_SUITE(toml, tests)
