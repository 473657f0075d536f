/*
 * test_yaml.c - the bounded YAML loader: core schema, tags, anchors and
 * aliases, merges, keys, every limit with its class, raw-byte checks, error
 * locations, silence of libfyaml, and the attack corpus read in place.
 */
#include "t.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <libfyaml.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/kept.h"
#include "base/utf8.h"
#include "base/yaml.h"

static json_t *load_lim(const char *s, const prc_limits *lim, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_yaml_load((const uint8_t *)s, strlen(s), lim, flags, e);
}

/* Canonical JSON of v (static storage, overwritten by the next call). */
static const char *canon(const json_t *v)
{
        static char out[8192];
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, sizeof(out) - 1);
        if (!prc_jcs_write(v, &b, &e))
                t_fail(__FILE__, __LINE__, "cannot canonicalize: %s: %s", prc_err_name(e.cls), e.msg);
        memcpy(out, b.data, b.len);
        out[b.len] = '\0';
        prc_buf_clear(&b);
        return out;
}

#define YAML_OK_FLAGS(src, flags, want)                                                         \
        do {                                                                                    \
                prc_err e_;                                                                     \
                json_t *v_ = load_lim((src), &prc_limits_default, (flags), &e_);                \
                if (v_ == NULL)                                                                 \
                        t_fail(__FILE__, __LINE__, "refused %s: %s", prc_err_name(e_.cls), e_.msg); \
                T_EQ_STR(canon(v_), (want));                                                    \
                json_decref(v_);                                                                \
        } while (0)
#define YAML_OK(src, want) YAML_OK_FLAGS(src, 0, want)

#define YAML_ERR_LIM(src, lim, flags, cls)                                                      \
        do {                                                                                    \
                prc_err e_;                                                                     \
                json_t *v_ = load_lim((src), (lim), (flags), &e_);                              \
                T_ASSERT(v_ == NULL);                                                           \
                T_ERR(e_, (cls));                                                               \
        } while (0)
#define YAML_ERR(src, cls) YAML_ERR_LIM(src, &prc_limits_default, 0, cls)

static void test_yaml__core_schema_null_bool_int(void)
{
        YAML_OK("- ~\n- null\n- Null\n- NULL\n-\n- nULL\n", "[null,null,null,null,null,\"nULL\"]");
        YAML_OK("[true, True, TRUE, false, False, FALSE, yes, no, on, tRUE]",
                "[true,true,true,false,false,false,\"yes\",\"no\",\"on\",\"tRUE\"]");
        YAML_OK("[0, -12, +7, 007, 0o17, 0x1F, 0xff, 0o8, 0x, 1_000, 0b11]",
                "[0,-12,7,7,15,31,255,\"0o8\",\"0x\",\"1_000\",\"0b11\"]");
        YAML_OK("[9007199254740991, -9007199254740991]", "[9007199254740991,-9007199254740991]");
        YAML_OK("key:\n", "{\"key\":null}");
}

static void test_yaml__integers_outside_the_safe_range_are_unsafe(void)
{
        YAML_ERR("9007199254740992", PRC_E_UNSAFE_NUMBER);
        YAML_ERR("-9007199254740992", PRC_E_UNSAFE_NUMBER);
        YAML_ERR("0x20000000000000", PRC_E_UNSAFE_NUMBER);
        YAML_ERR("a: 123456789012345678901234567890", PRC_E_UNSAFE_NUMBER);
}

static void test_yaml__quoted_and_block_scalars_are_strings(void)
{
        YAML_OK("[\"1\", '2', \"true\", 'null', \"1.5\"]", "[\"1\",\"2\",\"true\",\"null\",\"1.5\"]");
        YAML_OK("a: |\n  12\nb: >\n  true\n", "{\"a\":\"12\\n\",\"b\":\"true\\n\"}");
        YAML_OK("a: \"\\x41\\u00e9\\t\"", "{\"a\":\"A\xc3\xa9\\t\"}");
}

/*
 * libfyaml 0.7.12 returns bytes it never wrote for some single-quoted
 * scalars with runs of '' (docs/yaml.md): prc decodes them from the input.
 * The value must be exact and the same on every load, whatever the heap
 * held before (here: after loads that leave other bytes behind).
 */
static void test_yaml__single_quoted_runs_of_quotes_decode_exactly(void)
{
        static const char repro[] = "\n'''''''lo&'";
        char big[4096];

        for (int round = 0; round < 4; round++) {
                YAML_OK(repro, "\"'''lo&\"");
                YAML_OK("k: '''''''lo&'\n", "{\"k\":\"'''lo&\"}");
                YAML_OK("['''''''\t\xe2\x80\xa8']", "[\"'''\\t\xe2\x80\xa8\"]");
                YAML_OK("{k: '''''''#\xc2\x85'}", "{\"k\":\"'''#\xc2\x85\"}");
                /* dirty the heap with another document between rounds */
                memset(big, 'A' + round, sizeof(big) - 1);
                big[0] = '\'';
                big[sizeof(big) - 2] = '\'';
                big[sizeof(big) - 1] = '\0';
                {
                        prc_err e;
                        json_t *v = load_lim(big, &prc_limits_default, 0, &e);
                        T_ASSERT(v != NULL);
                        json_decref(v);
                }
        }
}

/* YAML 1.2 7.3.2 and 6.5: '' is a quote, lines fold, white space at line ends is not content. */
static void test_yaml__single_quoted_scalars_fold_per_spec(void)
{
        YAML_OK("'a''b'", "\"a'b\"");
        YAML_OK("''''", "\"'\"");
        YAML_OK("''", "\"\"");
        YAML_OK("' a \t'", "\" a \\t\"");
        YAML_OK("'a  \n   b'", "\"a b\"");
        YAML_OK("'a \t\n\t b'", "\"a b\"");
        YAML_OK("'a\n\n  b'", "\"a\\nb\"");
        YAML_OK("'a\n \t\n\n\tb'", "\"a\\n\\nb\"");
        YAML_OK("'a\r\n  b\r\n\r\n c'", "\"a b\\nc\"");
        /* libfyaml folds one CR LF before the closing quote to a newline; YAML, and prc, to a space */
        YAML_OK("'a\r\n'", "\"a \"");
        YAML_OK("k: 'a\r\n  '\r\n", "{\"k\":\"a \"}");
        YAML_OK("'a\rb'", "\"a b\"");
        YAML_OK("'a\n'", "\"a \"");
        YAML_OK("'a\n\n'", "\"a\\n\"");
        YAML_OK("'a\n  '", "\"a \"");
        YAML_OK("'  \n a'", "\" a\"");
        YAML_OK("'\n'", "\" \"");
        YAML_OK("'# not a comment'", "\"# not a comment\"");
        YAML_OK("- 'a\n  b'\n- 'c'''\n", "[\"a b\",\"c'\"]");
        YAML_OK("{ 'k''': 'x\n y' }", "{\"k'\":\"x y\"}");
        YAML_OK("'k': |\n  ''\n", "{\"k\":\"''\\n\"}");
        /* YAML 1.2 line breaks only: NEL, LS and PS are content, whatever %YAML claims. */
        YAML_OK("'a\xc2\x85" "b'", "\"a\xc2\x85" "b\"");
        YAML_OK("%YAML 1.1\n---\n'a\xc2\x85" "b'", "\"a\xc2\x85" "b\"");
        YAML_OK("%YAML 1.1\n---\n'a\xe2\x80\xa8 b'", "\"a\xe2\x80\xa8 b\"");
        YAML_OK("\xef\xbb\xbf'a''b'", "\"a'b\"");
}

/*
 * libfyaml 0.7.12 returns bytes it never wrote for a double-quoted scalar
 * with an escaped space right before a line break, and cuts short one whose
 * escaped break is followed by empty lines (docs/yaml.md): prc decodes
 * double-quoted scalars from the input too.  Exact, and the same on every
 * load whatever the heap held before.
 */
static void test_yaml__double_quoted_escaped_space_before_a_break_decodes_exactly(void)
{
        char big[4096];

        for (int round = 0; round < 4; round++) {
                YAML_OK("\"a\\ \nb\"", "\"a  b\"");
                YAML_OK("k: \"a\\ \n  b\\ \n\n  c\"\n", "{\"k\":\"a  b \\nc\"}");
                YAML_OK("[\"x\\ \r\n y\"]", "[\"x  y\"]");
                YAML_OK("\"a \\\n  \n\n b\"", "\"a \\n\\nb\"");
                memset(big, 'a' + round, sizeof(big) - 1);
                big[0] = '"';
                big[sizeof(big) - 2] = '"';
                big[sizeof(big) - 1] = '\0';
                {
                        prc_err e;
                        json_t *v = load_lim(big, &prc_limits_default, 0, &e);
                        T_ASSERT(v != NULL);
                        json_decref(v);
                }
        }
}

/* YAML 1.2 7.3.1 and 5.7: every escape, escaped breaks, folding, white space at line ends. */
static void test_yaml__double_quoted_scalars_decode_per_spec(void)
{
        YAML_OK("\"x\\a\\b\\t\\\tx\\n\\v\\f\\r\\e\\ \\\"\\/\\\\\"",
                "\"x\\u0007\\b\\t\\tx\\n\\u000b\\f\\r\\u001b \\\"/\\\\\"");
        YAML_OK("\"\\N\\_\\L\\P\"", "\"\xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9\"");
        YAML_OK("\"\\x41\\x7e\\xe9\\u00E9\\u20ac\\U0001F600\\U0010ffff\"",
                "\"A~\xc3\xa9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"");
        YAML_OK("\"\"", "\"\"");
        YAML_OK("\" a \t\"", "\" a \\t\"");
        YAML_OK("\"a  \n   b\"", "\"a b\"");
        YAML_OK("\"a \t\n\t b\"", "\"a b\"");
        YAML_OK("\"a\n\n  b\"", "\"a\\nb\"");
        YAML_OK("\"a\r\n  b\r\n\r\n c\"", "\"a b\\nc\"");
        YAML_OK("\"a\\t\n b\"", "\"a\\t b\"");
        YAML_OK("\"a\\x20\n b\"", "\"a  b\"");
        YAML_OK("\"a\\_\n b\"", "\"a\xc2\xa0 b\"");
        YAML_OK("\"a \\\n  b\"", "\"a b\"");
        YAML_OK("\"a\\\n\\\n b\"", "\"ab\"");
        YAML_OK("\"a\\\r\n b\"", "\"ab\"");
        YAML_OK("\"a\\\n\n \n b\"", "\"a\\n\\nb\"");
        YAML_OK("\"  \n a \n\"", "\" a \"");
        /* libfyaml folds one CR LF before the closing quote to a newline; YAML, and prc, to a space */
        YAML_OK("\"a\r\n\"", "\"a \"");
        YAML_OK("\"a\n\"", "\"a \"");
        YAML_OK("\"a\rb\"", "\"a b\"");
        YAML_OK("\"# not a comment\"", "\"# not a comment\"");
        YAML_OK("{ \"k\\\"\": \"x\n y\" }", "{\"k\\\"\":\"x y\"}");
        YAML_OK("\"a\xc2\x85" "b\"", "\"a\xc2\x85" "b\"");
        YAML_OK("%YAML 1.1\n---\n\"a\xe2\x80\xa8 b\"", "\"a\xe2\x80\xa8 b\"");
        YAML_ERR("\"\\0\"", PRC_E_NUL_BYTE);
        YAML_ERR("\"\\uD800\"", PRC_E_YAML_SYNTAX);
        YAML_ERR("\"\\U00110000\"", PRC_E_YAML_SYNTAX);
        YAML_ERR("\"\\q\"", PRC_E_YAML_SYNTAX);
}

/*
 * libfyaml 0.7.12 returns unwritten bytes for block scalars with an
 * indentation indicator and white-space-only lines longer than the
 * indentation, and a NUL for an empty block scalar at the end of the input
 * (docs/yaml.md): prc decodes block scalars from the input.
 */
static void test_yaml__block_scalars_with_indicators_decode_exactly(void)
{
        for (int round = 0; round < 4; round++) {
                YAML_OK("k: |2\n   \n  \t\n", "{\"k\":\" \\n\\t\\n\"}");
                YAML_OK("k: |2\n   \n   \n", "{\"k\":\" \\n \\n\"}");
                YAML_OK("k: |2\n  \n  \t\n", "{\"k\":\"\\n\\t\\n\"}");
                YAML_OK("- k: >-1\n     \n   \t\n  j: 1\n", "[{\"j\":1,\"k\":\"  \\n\\t\"}]");
                YAML_OK("k: |\n", "{\"k\":\"\"}");
                YAML_OK("k: >+\n", "{\"k\":\"\"}");
        }
}

/* YAML 1.2 8.1: headers, indentation, folding, chomping; libfyaml's end-of-input rules. */
static void test_yaml__block_scalars_decode_per_spec(void)
{
        YAML_OK("k: >\n  a\n  b\n\n  c\n   d\n  e\n", "{\"k\":\"a b\\nc\\n d\\ne\\n\"}");
        YAML_OK("k: |-\n  a\n\n", "{\"k\":\"a\"}");
        YAML_OK("k: |+\n  a\n\n", "{\"k\":\"a\\n\\n\"}");
        YAML_OK("k: |\n  a\n\n", "{\"k\":\"a\\n\"}");
        YAML_OK("k: >\n\n  a\n\n\n  b\n", "{\"k\":\"\\na\\n\\nb\\n\"}");
        YAML_OK("\"a|b\": |2\n   x\n", "{\"a|b\":\" x\\n\"}");
        YAML_OK("k: &a !!str |2 # c|\n   x\n", "{\"k\":\" x\\n\"}");
        YAML_OK("- k: |\n   x\n  j: &b |2\n     y\n", "[{\"j\":\" y\\n\",\"k\":\"x\\n\"}]");
        YAML_OK("? |\n  x\n: >\n  y\n", "{\"x\\n\":\"y\\n\"}");
        YAML_OK("- - |\n    x\n", "[[\"x\\n\"]]");
        YAML_OK("|1\n x\n", "\"x\\n\"");
        YAML_OK("--- >-\n x\n", "\"x\"");
        YAML_OK("k: |\r\n  a\r\n  b\r\n", "{\"k\":\"a\\nb\\n\"}");
        /* libfyaml's header forms: a comment with no space before it, a byte order mark before it */
        YAML_OK("&k: |1+#\n :;   a", "\":;   a\"");
        YAML_OK("\xef\xbb\xbf- |\n\n\n", "[\"\"]");
        /* an empty key before the header (its '>' is not the header) */
        YAML_ERR(" 2]]x1F, 0m1>, .0z1Fx1F, 0m .i-.i1_,: : >\n 1   ", PRC_E_YAML_SYNTAX);
        /* the end of the input: clip still ends in a newline, keep adds none */
        YAML_OK("k: |\n  x", "{\"k\":\"x\\n\"}");
        YAML_OK("k: |+\n  x", "{\"k\":\"x\"}");
        YAML_OK("k: |\n  x\n   ", "{\"k\":\"x\\n \\n\"}");
        YAML_OK("k: |+\n  x\n  ", "{\"k\":\"x\\n\"}");
        YAML_OK("- |+\n   ", "[\"\\n\"]");
}

/*
 * libfyaml takes a line at the indentation of the collection holding an
 * auto-indented block scalar as its content (`a:\n  x: |\n  y: 1` gives x
 * "y: 1\n"); YAML reads the scalar as empty and the line as the next node.
 * Refused at that line, not read either way.
 */
static void test_yaml__block_scalar_at_its_collections_indentation_is_refused(void)
{
        static const struct {
                const char *src;
                uint32_t line, col;
        } bad[] = {
                { "a:\n  x: |\n  y: 1", 3, 3 },
                { "a:\n  k: |\n\n  j: 1\n", 4, 3 },
                { "- k: |+ # c\n  w\n       \tq\n", 2, 3 },
                { "- k: >\n  w", 2, 3 },
                { "a:\n  k: |\r\n\r\n  j: 1\r\n", 4, 3 },
        };

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                prc_err e;
                json_t *v = load_lim(bad[i].src, &prc_limits_default, 0, &e);
                T_ASSERT(v == NULL);
                T_ERR(e, PRC_E_YAML_BLOCK_INDENT);
                if (e.line != bad[i].line || e.col != bad[i].col)
                        t_fail(__FILE__, __LINE__, "case %zu: at %u:%u, want %u:%u", i, e.line, e.col, bad[i].line,
                               bad[i].col);
        }
        /* more indented than the collection, or at the top level: content */
        YAML_OK("a:\n  x: |\n   y: 1\n", "{\"a\":{\"x\":\"y: 1\\n\"}}");
        YAML_OK("x: |\n y: 1\n", "{\"x\":\"y: 1\\n\"}");
        YAML_OK("k: |\nj: 1\n", "{\"j\":1,\"k\":\"\"}");
}

/*
 * libfyaml 0.7.12 corrupts its heap (SIGSEGV in fy_parser_destroy) after a
 * tab between a key's ':' and an indicator inside an explicit key; the
 * pre-scan refuses the pattern, at the tab, before libfyaml sees it.
 */
static void test_yaml__explicit_key_tab_is_refused_before_libfyaml(void)
{
        static const struct {
                const char *src;
                uint32_t line, col;
        } bad[] = {
                { "? a:\t:", 1, 5 },
                { "? a:\t-", 1, 5 },
                { "? a:\t?", 1, 5 },
                { "? a: \t\t- b\n", 1, 6 },
                { "? a:\t|\n    text\n", 1, 5 },
                { "? 'a':\t>\n", 1, 7 },
                { "? &x a:\t:x", 1, 8 },
                { "a:\n  ? b:\t:\n", 2, 7 },
                { "- ? - a:\t:\n", 1, 9 },
                { "? a: b\n  c:\t-\n", 2, 5 },
                { "x:\n  ?\n  - a:\t:\n", 3, 7 },
                { "? *x[]:\t |\n", 1, 8 },
                { "? a\t:\t:\n", 1, 6 },
                { "? |\n    x\n  r:\t:\n", 3, 5 },    /* the block scalar ends at a line less indented than its first */
                /* a quote inside a flow collection's plain scalar opens nothing: the lines after are structure */
                { "k: [a'b]\n? x:\t:\n", 2, 5 },
                { "k: {a\"b: c}\n? x:\t:\n", 2, 5 },
                { "k: [a,\n b'c]\n? x:\t:\n", 3, 5 },
                { "k: [a:'b]\n? x:\t:\n", 2, 5 },
                { "k: [a\n  'b]\n? x:\t:\n", 3, 5 },
                { "k: [ab'\n  ]\n? x:\t:\n", 3, 5 },
                /* nor does one on a line that continues a block plain scalar */
                { "k: a\n  'b\n? x:\t:\n", 3, 5 },
                { "k: a\n\n  \"b\n? x:\t:\n", 4, 5 },
                { "? ? a'\n  \t&x 'y\n? x:\t:\n", 3, 5 },
                { "k: a\n  [b\n? x:\t:\n", 3, 5 },
        };
        prc_err e;

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                json_t *v = load_lim(bad[i].src, &prc_limits_default, 0, &e);
                T_ASSERT(v == NULL);
                if (e.cls != PRC_E_YAML_EXPLICIT_KEY_TAB || e.line != bad[i].line || e.col != bad[i].col)
                        t_fail(__FILE__, __LINE__, "case %zu: %s at %u:%u, want yaml-explicit-key-tab at %u:%u", i,
                               prc_err_name(e.cls), e.line, e.col, bad[i].line, bad[i].col);
        }
}

/*
 * Behind the pre-scan, the guard: whatever makes libfyaml report its tab
 * error in an input with a tab and a '?', its parser is never destroyed
 * (that is where it corrupts its heap; under ASan a destroy would be a use
 * after free here) and the load is refused with libfyaml's syntax error.
 * The kept parsers stay reachable: LeakSanitizer reports no leak.
 */
static void test_yaml__a_key_tab_the_pre_scan_misses_is_refused_without_destroying_the_parser(void)
{
        static const char *const bad[] = {
                "? a:\t:", "? a: \t\t- b\n", "a:\n  ? b:\t:\n", "k: [a'b]\n? x:\t:\n", "k: a\n  'b\n? x:\t:\n",
                /* fuzz_yaml, session 13: a plain scalar on its own line, continued at its own indentation */
                "on: push\njobs:\n  cak\\u00e9 \\t \\\n  'b]\n? x:\t:\n 'b]\n?? x\n\t[0:\n: ya:F0o, ~, 0F\n1@o,  ",
        };
        prc_err e;

        prc_yaml_test_skip_key_tab_scan = true;
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                json_t *v = load_lim(bad[i], &prc_limits_default, 0, &e);
                T_ASSERT(v == NULL);
                if (e.cls != PRC_E_YAML_SYNTAX || strstr(e.msg, "cannot use tab for indentation") == NULL)
                        t_fail(__FILE__, __LINE__, "case %zu: %s (%s), want libfyaml's tab error", i,
                               prc_err_name(e.cls), e.msg);
        }
        prc_yaml_test_skip_key_tab_scan = false;
        /* The fuzz find passes the pre-scan: the guard refuses it with the scan on too. */
        T_ASSERT(load_lim(bad[PRC_ARRAY_LEN(bad) - 1], &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_YAML_SYNTAX);
        T_ASSERT(strstr(e.msg, "cannot use tab for indentation") != NULL);
        /* Without a '?' no input reaches the guard: its parser is destroyed as always. */
        T_ASSERT(load_lim("a:\n  - b\n\t- c\n", &prc_limits_default, 0, &e) == NULL);
}

/* The same bytes where they are not that pattern load as before. */
static void test_yaml__explicit_key_tab_prescan_spares_the_rest(void)
{
        YAML_OK("a:\t|\n  x\n", "{\"a\":\"x\\n\"}");
        YAML_OK("a:\t-1\n", "{\"a\":-1}");
        YAML_OK("k: '? a:\t:'\n", "{\"k\":\"? a:\\t:\"}");
        YAML_OK("k: \"? a:\t:\"\n", "{\"k\":\"? a:\\t:\"}");
        YAML_OK("# ? a:\t:\nk: 1\n", "{\"k\":1}");
        YAML_OK("run: |\n  ? a:\t:\n", "{\"run\":\"? a:\\t:\\n\"}");
        YAML_OK("? |\n  a:\t:\n", "{\"a:\\t:\\n\":null}");
        YAML_OK("? a\n: b\nc:\t|\n  x\n", "{\"a\":\"b\",\"c\":\"x\\n\"}");
        YAML_OK("- ? a\n- b:\t|\n   x\n", "[{\"a\":null},{\"b\":\"x\\n\"}]");
        YAML_OK("? a\n: b:\t|\n    x\n", "{\"a\":{\"b\":\"x\\n\"}}");
        YAML_OK("k: [? a:\tb]\n", "{\"k\":[{\"a\":\"b\"}]}");
        /* quoted scalars inside flow collections still hide what they hold */
        YAML_OK("[ 'a]\n? x:\t:', b]\n", "[\"a] ? x:\\t:\",\"b\"]");
        YAML_OK("{k: \"x]\n? y:\t:\"}\n", "{\"k\":\"x] ? y:\\t:\"}");
        YAML_OK("[&x 'a]\n? x:\t:']\n", "[\"a] ? x:\\t:\"]");
        YAML_OK("[a,\n 'b]\n? x:\t:']\n", "[\"a\",\"b] ? x:\\t:\"]");
        YAML_OK("k: a\n  'b\nj: 'c'\n", "{\"j\":\"c\",\"k\":\"a 'b\"}");
        YAML_OK("k: 'a\n  ? x:\t:'\n", "{\"k\":\"a ? x:\\t:\"}");
        YAML_OK("k: a # c\nj: 'b\n  ? x:\t:'\n", "{\"j\":\"b ? x:\\t:\",\"k\":\"a\"}");
        /* block scalar content, an indentation indicator counting as libfyaml counts it */
        YAML_OK("?\n  |2\n    x:\t-\n", "{\"  x:\\t-\\n\":null}");
        YAML_OK("? |2\n   x:\t-\n", "{\" x:\\t-\\n\":null}");
}

static void test_yaml__floats_are_refused_unless_allowed(void)
{
        prc_err e;
        json_t *v;

        YAML_ERR("1.5", PRC_E_YAML_FLOAT_NOT_ALLOWED);
        YAML_ERR("[1e3]", PRC_E_YAML_FLOAT_NOT_ALLOWED);
        YAML_ERR("a: .5", PRC_E_YAML_FLOAT_NOT_ALLOWED);
        YAML_ERR("a: -1.", PRC_E_YAML_FLOAT_NOT_ALLOWED);
        YAML_OK("[1.2.3, 1e, e3, .]", "[\"1.2.3\",\"1e\",\"e3\",\".\"]");
        v = load_lim("[1.5, -2e2, .25]", &prc_limits_default, PRC_YAML_ALLOW_FLOAT, &e);
        T_ASSERT(v != NULL);
        T_ASSERT(json_is_real(json_array_get(v, 0)));
        T_ASSERT(json_real_value(json_array_get(v, 0)) == 1.5);
        T_ASSERT(json_real_value(json_array_get(v, 1)) == -200.0);
        T_ASSERT(json_real_value(json_array_get(v, 2)) == 0.25);
        json_decref(v);
}

static void test_yaml__infinity_and_nan_are_refused_even_with_floats(void)
{
        YAML_ERR_LIM(".inf", &prc_limits_default, PRC_YAML_ALLOW_FLOAT, PRC_E_YAML_FLOAT_NOT_FINITE);
        YAML_ERR_LIM("-.Inf", &prc_limits_default, PRC_YAML_ALLOW_FLOAT, PRC_E_YAML_FLOAT_NOT_FINITE);
        YAML_ERR_LIM("[.NaN]", &prc_limits_default, PRC_YAML_ALLOW_FLOAT, PRC_E_YAML_FLOAT_NOT_FINITE);
        YAML_ERR_LIM("1e999", &prc_limits_default, PRC_YAML_ALLOW_FLOAT, PRC_E_YAML_FLOAT_NOT_FINITE);
        YAML_ERR(".nan", PRC_E_YAML_FLOAT_NOT_FINITE);
        YAML_OK("[.infinity, '.inf']", "[\".infinity\",\".inf\"]");
}

static void test_yaml__floats_as_strings_keep_their_spelling(void)
{
        YAML_OK_FLAGS("python: [3.10, 3.9, .inf, 1e3, !!float 2, \"4.0\", 7]", PRC_YAML_FLOAT_AS_STRING,
                      "{\"python\":[\"3.10\",\"3.9\",\".inf\",\"1e3\",\"2\",\"4.0\",7]}");
        YAML_OK_FLAGS("v: 3.10", PRC_YAML_FLOAT_AS_STRING | PRC_YAML_ALLOW_FLOAT, "{\"v\":\"3.10\"}");
}

static void test_yaml__core_tags_are_honoured(void)
{
        YAML_OK("[!!str 1, !!str true, !!int \"12\", !!bool \"true\", !!null \"\", ! 12]",
                "[\"1\",\"true\",12,true,null,\"12\"]");
        YAML_OK("!!map {a: !!seq [1]}", "{\"a\":[1]}");
        YAML_OK("!<tag:yaml.org,2002:str> 5", "\"5\"");
        YAML_ERR("!!float 1", PRC_E_YAML_FLOAT_NOT_ALLOWED);
}

static void test_yaml__mismatched_core_tags_are_refused(void)
{
        YAML_ERR("!!int abc", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!bool 1", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!null x", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!map [1]", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!seq {a: 1}", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!seq x", PRC_E_YAML_TAG_MISMATCH);
        YAML_ERR("!!str [1]", PRC_E_YAML_TAG_MISMATCH);
}

static void test_yaml__other_tags_are_refused(void)
{
        YAML_ERR("!foo x", PRC_E_YAML_UNSUPPORTED_TAG);
        YAML_ERR("a: !!binary aGk=", PRC_E_YAML_UNSUPPORTED_TAG);
        YAML_ERR("!!set {a}", PRC_E_YAML_UNSUPPORTED_TAG);
        YAML_ERR("- !!python/object/apply:os.system [ls]", PRC_E_YAML_UNSUPPORTED_TAG);
        YAML_ERR("%TAG !e! tag:evil.example,2024:\n---\n!e!x {}\n", PRC_E_YAML_UNSUPPORTED_TAG);
        /* A %TAG that redefines !! does not make a foreign tag look like a core one. */
        YAML_ERR("%TAG !! tag:example.com,2000:\n---\n!!int 1\n", PRC_E_YAML_UNSUPPORTED_TAG);
}

static void test_yaml__alias_shares_the_anchored_value(void)
{
        prc_err e;
        json_t *v = load_lim("a: &x {k: [1, 2]}\nb: *x\nc: [*x, *x]\n", &prc_limits_default, 0, &e);

        T_ASSERT(v != NULL);
        T_EQ_STR(canon(v), "{\"a\":{\"k\":[1,2]},\"b\":{\"k\":[1,2]},\"c\":[{\"k\":[1,2]},{\"k\":[1,2]}]}");
        /* A reference, never a deep copy. */
        T_ASSERT(json_object_get(v, "a") == json_object_get(v, "b"));
        T_ASSERT(json_array_get(json_object_get(v, "c"), 1) == json_object_get(v, "a"));
        json_decref(v);
        YAML_OK("- &s hello\n- *s\n- &n 5\n- *n\n", "[\"hello\",\"hello\",5,5]");
}

static void test_yaml__redefined_anchor_takes_the_latest(void)
{
        YAML_OK("[&a 1, *a, &a 2, *a]", "[1,1,2,2]");
        /* The inner anchor is defined after the outer one started: it wins afterwards. */
        YAML_OK("[&a [&a x, *a], *a]", "[[\"x\",\"x\"],\"x\"]");
}

static void test_yaml__undefined_and_cyclic_aliases_are_refused(void)
{
        YAML_ERR("a: *nope", PRC_E_YAML_UNDEFINED_ALIAS);
        YAML_ERR("- *later\n- &later 1\n", PRC_E_YAML_UNDEFINED_ALIAS);
        YAML_ERR("&a [*a]", PRC_E_YAML_ALIAS_CYCLE);
        YAML_ERR("a: &a\n  x: 1\n  <<: *a\n", PRC_E_YAML_ALIAS_CYCLE);
}

static void test_yaml__aliases_count_the_nodes_they_stand_for(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;
        /* a: 1 (seq) + 4 scalars = 5 nodes, key 'a' 1, map 1; each alias adds 5. */
        const char *doc = "a: &x [1, 2, 3, 4]\nb: [*x, *x]\n";

        lim.nodes_max = 1 + 1 + 5 + 1 + 1 + 10;
        v = load_lim(doc, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        lim.nodes_max--;
        YAML_ERR_LIM(doc, &lim, 0, PRC_E_NODES_LIMIT);
}

static void test_yaml__alias_and_anchor_limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.alias_max = 3;
        v = load_lim("[&a 1, *a, *a, *a]", &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        YAML_ERR_LIM("[&a 1, *a, *a, *a, *a]", &lim, 0, PRC_E_YAML_ALIAS_LIMIT);
        lim.anchor_max = 2;
        v = load_lim("[&a 1, &b 2]", &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        YAML_ERR_LIM("[&a 1, &b 2, &c 3]", &lim, 0, PRC_E_YAML_ANCHOR_LIMIT);
        /* A redefinition is a definition too. */
        YAML_ERR_LIM("[&a 1, &a 2, &a 3]", &lim, 0, PRC_E_YAML_ANCHOR_LIMIT);
}

static void test_yaml__merge_key_semantics(void)
{
        /* One source; explicit keys override merged ones wherever they stand. */
        YAML_OK("b: &b {x: 1, y: 2}\nm:\n  x: 0\n  <<: *b\n  z: 3\n",
                "{\"b\":{\"x\":1,\"y\":2},\"m\":{\"x\":0,\"y\":2,\"z\":3}}");
        /* A sequence of sources: the earlier source wins. */
        YAML_OK("p: &p {k: p, a: 1}\nq: &q {k: q, b: 2}\nm: {<<: [*p, *q]}\n",
                "{\"m\":{\"a\":1,\"b\":2,\"k\":\"p\"},\"p\":{\"a\":1,\"k\":\"p\"},\"q\":{\"b\":2,\"k\":\"q\"}}");
        /* An inline mapping as source, and an empty sequence. */
        YAML_OK("{<<: {a: 1}, b: 2}", "{\"a\":1,\"b\":2}");
        YAML_OK("{<<: [], b: 2}", "{\"b\":2}");
        /* Merges of merges resolve level by level. */
        YAML_OK("a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n",
                "{\"a\":{\"x\":1},\"b\":{\"x\":1,\"y\":2},\"c\":{\"x\":1,\"y\":2,\"z\":3}}");
        /* A quoted '<<' is an ordinary key. */
        YAML_OK("{\"<<\": {a: 1}}", "{\"<<\":{\"a\":1}}");
}

static void test_yaml__merge_does_not_share_a_mutated_source(void)
{
        prc_err e;
        json_t *v = load_lim("b: &b {x: 1}\nm: {<<: *b, y: 2}\n", &prc_limits_default, 0, &e);

        T_ASSERT(v != NULL);
        /* The merged mapping is a new object; the anchored source is unchanged. */
        T_EQ_INT(json_object_size(json_object_get(v, "b")), 1);
        T_EQ_INT(json_object_size(json_object_get(v, "m")), 2);
        json_decref(v);
}

static void test_yaml__invalid_merge_values_are_refused(void)
{
        YAML_ERR("{<<: 1}", PRC_E_YAML_INVALID_MERGE);
        YAML_ERR("{<<: [{a: 1}, 2]}", PRC_E_YAML_INVALID_MERGE);
        YAML_ERR("{<<: ~}", PRC_E_YAML_INVALID_MERGE);
        YAML_ERR("{<<: {a: 1}, <<: {b: 2}}", PRC_E_DUPLICATE_FIELD);
}

static void test_yaml__every_merged_copy_counts_against_merge_max(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;
        const char *doc = "s: &s {a: 1, b: 2}\ne: &e {}\nm: {<<: [*s, *s, *e]}\n";

        lim.merge_max = 5;      /* 2 + 2 + 1 for the empty source */
        v = load_lim(doc, &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        lim.merge_max = 4;
        YAML_ERR_LIM(doc, &lim, 0, PRC_E_YAML_MERGE_LIMIT);
}

static void test_yaml__duplicate_keys_are_refused(void)
{
        YAML_ERR("a: 1\na: 2\n", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("{a: 1, 'a': 2}", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("{\"\\x61\": 1, a: 2}", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("{1: a, 0x1: b}", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("{~: a, null: b}", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("{true: a, True: b}", PRC_E_DUPLICATE_FIELD);
        /* An explicit key overriding a merged one is not a duplicate; two explicit ones are. */
        YAML_ERR("b: &b {x: 1}\nm: {<<: *b, x: 2, x: 3}\n", PRC_E_DUPLICATE_FIELD);
        YAML_ERR("- a: 1\n  b:\n    c: 1\n    c: 2\n", PRC_E_DUPLICATE_FIELD);
}

static void test_yaml__scalar_keys_become_strings(void)
{
        YAML_OK("{1: a, 0x10: b, true: c, ~: d, 1.5: e, \"2\": f, 9007199254740993: g}",
                "{\"1\":\"a\",\"1.5\":\"e\",\"16\":\"b\",\"2\":\"f\",\"9007199254740993\":\"g\","
                "\"null\":\"d\",\"true\":\"c\"}");
        YAML_OK("- &k key\n- {*k : v}\n", "[\"key\",{\"key\":\"v\"}]");
        YAML_OK("? explicit\n: v\n", "{\"explicit\":\"v\"}");
}

static void test_yaml__complex_keys_are_refused(void)
{
        YAML_ERR("? [a]\n: v\n", PRC_E_YAML_COMPLEX_KEY);
        YAML_ERR("{? {a: 1} : v}", PRC_E_YAML_COMPLEX_KEY);
        YAML_ERR("- &s [a]\n- {*s : v}\n", PRC_E_YAML_COMPLEX_KEY);
}

static void test_yaml__keys_are_bounded(void)
{
        prc_limits lim = prc_limits_default;
        char doc[2100];
        prc_err e;
        json_t *v;

        memset(doc, 'k', 1024);
        memcpy(doc + 1024, ": v\n", 5);
        v = load_lim(doc, &prc_limits_default, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        memset(doc, 'k', 1025);
        memcpy(doc + 1025, ": v\n", 5);
        YAML_ERR(doc, PRC_E_SCALAR_LIMIT);
        lim.keys_max = 2;
        v = load_lim("{a: 1, b: 2}", &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        YAML_ERR_LIM("{a: 1, b: 2, c: 3}", &lim, 0, PRC_E_NODES_LIMIT);
        /* Merged keys count too. */
        YAML_ERR_LIM("x: &x {a: 1, b: 2}\ny: {<<: *x, c: 3}\n", &lim, 0, PRC_E_NODES_LIMIT);
}

static void test_yaml__depth_limit_is_exact(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.depth_max = 3;
        v = load_lim("[[[1]]]", &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        YAML_ERR_LIM("[[[[1]]]]", &lim, 0, PRC_E_DEPTH_LIMIT);
        YAML_ERR_LIM("a:\n  b:\n    c:\n      d: 1\n", &lim, 0, PRC_E_DEPTH_LIMIT);
}

/*
 * The pre-scan skips plain ASCII eight bytes at a time: every byte it must
 * stop at (a control byte, DEL, a non-ASCII byte, NUL) is found at its own
 * offset wherever it falls in a word, and every bracket counts, at any
 * offset (a stride of 7, and runs of 8 to 15, put them at each of the eight).
 */
static void test_yaml__prescan_finds_each_byte_at_any_offset(void)
{
        static const uint8_t stop[] = { 0x01, 0x1f, 0x7f, 0xff, 0xc3, 0x00 };
        enum { RUN = 24, N = 10001 };
        char *doc = malloc((size_t)N * 30 + 16);
        prc_err e;
        json_t *v;

        T_ASSERT(doc != NULL);
        for (size_t b = 0; b < sizeof(stop); b++) {
                prc_errclass first = PRC_E_OK;

                for (size_t k = 0; k < RUN; k++) {
                        uint8_t in[3 + RUN + 2];

                        memcpy(in, "a: ", 3);
                        memset(in + 3, 'x', RUN);
                        memcpy(in + 3 + RUN, "\n", 2);
                        in[3 + k] = stop[b];
                        prc_err_init(&e);
                        v = prc_yaml_load(in, sizeof(in), &prc_limits_default, 0, &e);
                        if (v != NULL || e.off != 3 + k)
                                t_fail(__FILE__, __LINE__, "byte %02x at offset %zu: %s at %llu", stop[b], 3 + k,
                                       v != NULL ? "loaded" : prc_err_name(e.cls), (unsigned long long)e.off);
                        json_decref(v);
                        if (k == 0)
                                first = e.cls;
                        else if (e.cls != first)
                                t_fail(__FILE__, __LINE__, "byte %02x: %s at offset %zu, %s at 3", stop[b],
                                       prc_err_name(e.cls), 3 + k, prc_err_name(first));
                }
        }
        /* Openers every 7 bytes: each one counts. */
        for (const char *o = "[{"; *o != '\0'; o++) {
                for (size_t i = 0; i < N; i++) {
                        memset(doc + i * 7, 'x', 7);
                        doc[i * 7] = *o;
                }
                doc[(size_t)N * 7] = '\0';
                YAML_ERR(doc, PRC_E_DEPTH_LIMIT);
        }
        /*
         * A closer after 8 to 15 plain bytes (in a quoted scalar: the
         * pre-scan counts brackets there too) ends up at each offset of a
         * word with nothing else to stop at: each one counts, so the depth
         * never grows past one.
         */
        {
                size_t at = 0;

                for (size_t i = 0; i < N; i++) {
                        size_t k = 8 + i % 8;

                        memcpy(doc + at, "- '", 3);
                        doc[at + 3] = i % 2 ? '{' : '[';
                        memset(doc + at + 4, 'p', k + 9);
                        doc[at + 4 + k] = i % 2 ? '}' : ']';
                        memcpy(doc + at + 4 + k + 9, "'\n", 2);
                        at += 4 + k + 9 + 2;
                }
                doc[at] = '\0';
        }
        v = load_lim(doc, &prc_limits_default, 0, &e);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "refused %s: %s", prc_err_name(e.cls), e.msg);
        T_EQ_INT(json_array_size(v), N);
        T_EQ_STR(json_string_value(json_array_get(v, 1)), "{ppppppppp}pppppppp");
        json_decref(v);
        free(doc);
}

static void test_yaml__flow_brackets_are_prescanned(void)
{
        size_t n = 10001;
        char *doc = malloc(n + 16);
        prc_err e;
        json_t *v;

        T_ASSERT(doc != NULL);
        /* 10001 openers: refused before libfyaml buffers them. */
        memset(doc, '[', n);
        doc[n] = '\0';
        YAML_ERR(doc, PRC_E_DEPTH_LIMIT);
        /* 9999 inside a quoted scalar stay under the pre-scan bound and are text. */
        doc[0] = 'a';
        doc[1] = ':';
        doc[2] = ' ';
        doc[3] = '\'';
        memset(doc + 4, '[', 9999);
        memcpy(doc + 4 + 9999, "'\n", 3);
        v = load_lim(doc, &prc_limits_default, 0, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(json_string_length(json_object_get(v, "a")), 9999);
        json_decref(v);
        /* Balanced brackets never accumulate. */
        for (size_t i = 0; i + 2 <= n; i += 2)
                memcpy(doc + i, "[]", 2);
        doc[n - 1] = '\0';
        YAML_ERR(doc, PRC_E_YAML_SYNTAX);
        free(doc);
}

static void test_yaml__crowded_flow_lines_are_prescanned(void)
{
        size_t entries = 65536, n = 1 + entries * 3 + 2;
        char *doc = malloc(n + 1);
        prc_err e;
        json_t *v;

        T_ASSERT(doc != NULL);
        /* '[' plus 65535 ", 1" separators: exactly at the bound, loads. */
        doc[0] = '[';
        doc[1] = '1';
        for (size_t i = 1; i < entries; i++)
                memcpy(doc + 2 + (i - 1) * 3, ", 1", 3);
        memcpy(doc + 2 + (entries - 1) * 3, "]", 2);
        v = load_lim(doc, &prc_limits_default, 0, &e);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "refused %s: %s", prc_err_name(e.cls), e.msg);
        T_EQ_INT(json_array_size(v), entries);
        json_decref(v);
        /* One more entry on the line is refused. */
        memcpy(doc + 2 + (entries - 1) * 3, ",1]", 4);
        YAML_ERR(doc, PRC_E_YAML_LINE_LIMIT);
        /* The same entries over several lines stream through libfyaml and load. */
        for (size_t i = 1; i < entries; i += 1000)
                doc[2 + (i - 1) * 3 + 1] = '\n';
        v = load_lim(doc, &prc_limits_default, 0, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(json_array_size(v), entries + 1);
        json_decref(v);
        free(doc);
}

static void test_yaml__scalar_and_input_limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.scalar_max = 4;
        v = load_lim("abcd", &lim, 0, &e);
        T_ASSERT(v != NULL);
        json_decref(v);
        YAML_ERR_LIM("abcde", &lim, 0, PRC_E_SCALAR_LIMIT);
        YAML_ERR_LIM("\"ab\\x41cd\"", &lim, 0, PRC_E_SCALAR_LIMIT);
        lim.input_max = 3;
        YAML_ERR_LIM("abcd", &lim, 0, PRC_E_INPUT_TOO_LARGE);
}

static void test_yaml__exactly_one_document(void)
{
        YAML_ERR("a\n---\nb\n", PRC_E_YAML_MULTIPLE_DOCUMENTS);
        YAML_ERR("--- a\n...\n--- b\n", PRC_E_YAML_MULTIPLE_DOCUMENTS);
        YAML_OK("--- a\n...\n", "\"a\"");
        YAML_OK("%YAML 1.2\n---\nk: v\n", "{\"k\":\"v\"}");
}

static void test_yaml__empty_stream_is_null(void)
{
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_yaml_load(NULL, 0, &prc_limits_default, 0, &e);

        T_ASSERT(v != NULL && json_is_null(v));
        json_decref(v);
        YAML_OK("# only a comment\n\n", "null");
        YAML_OK("...\n", "null");
        YAML_OK("---\n", "null");
}

static void test_yaml__raw_bytes_are_checked_first(void)
{
        prc_err e;
        json_t *v;

        YAML_ERR("a: \xc0\xaf", PRC_E_INVALID_UTF8);
        YAML_ERR("# \xff\na: 1", PRC_E_INVALID_UTF8);
        YAML_ERR("a: \xed\xa0\x80", PRC_E_INVALID_UTF8);
        YAML_ERR("a: b\x01", PRC_E_YAML_SYNTAX);
        YAML_ERR("a: b\x7f", PRC_E_YAML_SYNTAX);
        YAML_ERR("a: \xc2\x80", PRC_E_YAML_SYNTAX);
        YAML_ERR("a: 1\n\xef\xbb\xbf b: 2\n", PRC_E_YAML_SYNTAX);
        YAML_OK("\xef\xbb\xbf" "a: 1\n", "{\"a\":1}");
        prc_err_init(&e);
        v = prc_yaml_load((const uint8_t *)"a: b\0c", 6, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.off, 4);
        T_EQ_INT(e.line, 1);
        T_EQ_INT(e.col, 5);
}

static void test_yaml__escapes_cannot_smuggle_nul_or_bad_utf8(void)
{
        YAML_ERR("a: \"x\\0y\"", PRC_E_NUL_BYTE);
        YAML_ERR("\"k\\0\": v", PRC_E_NUL_BYTE);
        /* libfyaml itself refuses an escaped lone surrogate. */
        YAML_ERR("a: \"\\ud800\"", PRC_E_YAML_SYNTAX);
}

static void test_yaml__errors_carry_line_column_and_pointer(void)
{
        prc_err e;
        json_t *v = load_lim("top:\n  list:\n    - a: 1\n      a: 2\n", &prc_limits_default, 0, &e);

        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_EQ_INT(e.line, 4);
        T_EQ_INT(e.col, 7);
        T_EQ_STR(e.ptr, "/top/list/0/a");
        v = load_lim("a: [1, 2\nb: 3\n", &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_YAML_SYNTAX);
        T_ASSERT(e.line >= 2);
        T_ASSERT(e.msg[0] != '\0');
}

static void test_yaml__messages_never_carry_control_characters(void)
{
        prc_err e;
        json_t *v = load_lim("\"k\\e[31m\": 1\n\"k\\e[31m\": 2\n", &prc_limits_default, 0, &e);
        char key[80];

        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_ASSERT(strchr(e.msg, 0x1b) == NULL && strchr(e.ptr, 0x1b) == NULL);
        T_ASSERT(strstr(e.msg, "k?[31m") != NULL);
        /* A key cut inside a multi-byte character still leaves valid UTF-8. */
        memset(key, 'a', 63);
        memcpy(key + 63, "\xc3\xa9: 1\n", 7);
        memcpy(key + 70, "\0", 1);
        {
                char doc[200];
                snprintf(doc, sizeof(doc), "%s%s", key, key);
                v = load_lim(doc, &prc_limits_default, 0, &e);
        }
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_ASSERT(prc_utf8_valid((const uint8_t *)e.msg, strlen(e.msg), NULL));
}

static void test_yaml__libfyaml_never_writes_to_stderr(void)
{
        static const char *const bad[] = { "a: [1, 2\n", "\"unterminated", "a:\n- b\n c: d\n", "{a: 1,,}",
                                           "- !<!bar baz", "%FOO bar\n---\na" };
        const char *path = t_write(t_tmpdir(), "stderr.txt", "", 0);
        int fd = open(path, O_WRONLY | O_TRUNC), saved = dup(2);
        size_t n;
        char *got;

        T_ASSERT(fd >= 0 && saved >= 0);
        T_ASSERT(dup2(fd, 2) == 2);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err e;
                json_t *v = load_lim(bad[i], &prc_limits_default, 0, &e);
                json_decref(v);
        }
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        close(fd);
        got = t_read(path, &n);
        if (n != 0)
                t_fail(__FILE__, __LINE__, "libfyaml wrote %zu bytes to stderr: %.200s", n, got);
        free(got);
}

static void test_yaml__json_documents_load_as_yaml(void)
{
        YAML_OK("{\"a\": [1, true, null, \"x\"], \"b\": {\"c\": -3}}",
                "{\"a\":[1,true,null,\"x\"],\"b\":{\"c\":-3}}");
        YAML_ERR("{\"a\": 1, \"a\": 2}", PRC_E_DUPLICATE_FIELD);
}

static void test_yaml__workflow_with_anchors_and_merges_loads(void)
{
        YAML_OK("on: push\n"
                "x-defaults: &defaults\n"
                "  runs-on: ubuntu-latest\n"
                "  timeout-minutes: 10\n"
                "jobs:\n"
                "  build:\n"
                "    <<: *defaults\n"
                "    steps: &steps\n"
                "      - uses: actions/checkout@v4\n"
                "      - run: make\n"
                "  test:\n"
                "    <<: *defaults\n"
                "    timeout-minutes: 30\n"
                "    steps: *steps\n",
                "{\"jobs\":{\"build\":{\"runs-on\":\"ubuntu-latest\",\"steps\":[{\"uses\":\"actions/checkout@v4\"},"
                "{\"run\":\"make\"}],\"timeout-minutes\":10},\"test\":{\"runs-on\":\"ubuntu-latest\",\"steps\":"
                "[{\"uses\":\"actions/checkout@v4\"},{\"run\":\"make\"}],\"timeout-minutes\":30}},\"on\":\"push\","
                "\"x-defaults\":{\"runs-on\":\"ubuntu-latest\",\"timeout-minutes\":10}}");
}

/* ---- the attack corpus, read in place ---------------------------------------- */

struct attack {
        const char  *path;      /* under parsers/attacks/ */
        prc_errclass want;      /* PRC_E_OK: must load */
};

static const struct attack attacks[] = {
        { "yaml/billion-laughs-9x9.yaml", PRC_E_NODES_LIMIT },
        { "yaml/alias-fanout-binary-40.yaml", PRC_E_NODES_LIMIT },
        { "yaml/alias-fanout-as-mapping-key.yaml", PRC_E_NODES_LIMIT },
        { "yaml/merge-key-fanout-dup-alias-22.yaml", PRC_E_OK },
        { "yaml/merge-key-fanout-issue897-levels10.yaml", PRC_E_OK },
        { "yaml/merge-key-quadratic-2000x2000.yaml", PRC_E_NODES_LIMIT },
        { "yaml/merge-key-empty-sources-1000x1000.yaml", PRC_E_YAML_MERGE_LIMIT },
        { "yaml/merge-undefined-alias-libfyaml347.yaml", PRC_E_YAML_UNDEFINED_ALIAS },
        { "yaml/recursive-alias-seq.yaml", PRC_E_YAML_ALIAS_CYCLE },
        { "yaml/recursive-alias-merge.yaml", PRC_E_YAML_ALIAS_CYCLE },
        { "yaml/many-anchors-30000.yaml", PRC_E_YAML_ANCHOR_LIMIT },
        { "yaml/deep-flow-seq-100000.yaml", PRC_E_DEPTH_LIMIT },
        { "yaml/deep-flow-seq-unclosed-100000.yaml", PRC_E_DEPTH_LIMIT },
        { "yaml/deep-flow-map-50000.yaml", PRC_E_DEPTH_LIMIT },
        { "yaml/deep-block-seq-one-line-10000.yaml", PRC_E_DEPTH_LIMIT },
        { "yaml/deep-block-map-700.yaml", PRC_E_DEPTH_LIMIT },
        { "yaml/huge-plain-scalar-1MiB.yaml", PRC_E_SCALAR_LIMIT },
        { "yaml/huge-implicit-key-256KiB.yaml", PRC_E_SCALAR_LIMIT },
        { "yaml/huge-explicit-key-256KiB.yaml", PRC_E_SCALAR_LIMIT },
        { "yaml/huge-folded-scalar-many-lines.yaml", PRC_E_OK },
        { "yaml/dup-key-simple.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/dup-key-quoted-vs-plain.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/dup-key-escaped.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/dup-key-flow.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/dup-key-null.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/dup-key-merge-override.yaml", PRC_E_OK },
        { "yaml/dup-key-int-forms.yaml", PRC_E_DUPLICATE_FIELD },
        { "yaml/many-keys-30000.yaml", PRC_E_OK },
        { "yaml/many-documents-30000.yaml", PRC_E_YAML_MULTIPLE_DOCUMENTS },
        { "yaml/python-object-tag.yaml", PRC_E_YAML_UNSUPPORTED_TAG },
        { "yaml/ruby-object-tag.yaml", PRC_E_YAML_UNSUPPORTED_TAG },
        { "yaml/custom-tag-directive.yaml", PRC_E_YAML_UNSUPPORTED_TAG },
        { "yaml/pnpm-lock-shaped-alias-bomb.yaml", PRC_E_NODES_LIMIT },
        { "yaml/workflow-shaped-merge-chain.yml", PRC_E_OK },
        { "utf8/overlong-slash.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/overlong-nul.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/overlong-3byte.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/surrogate-high.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/surrogate-pair-cesu.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/above-10ffff.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/five-byte.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/lone-continuation.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/truncated-3byte.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/truncated-at-eof.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/byte-fe.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/byte-ff.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/invalid-in-comment.yaml", PRC_E_INVALID_UTF8 },
        { "utf8/bom-in-middle.yaml", PRC_E_YAML_SYNTAX },
        { "utf8/nul-in-yaml.yaml", PRC_E_NUL_BYTE },
        { "utf8/nul-in-yaml-key.yaml", PRC_E_NUL_BYTE },
        { "utf8/utf16-yaml.yaml", PRC_E_INVALID_UTF8 },
};

static const char *attacks_dir(void)
{
        static char dir[8300];
        const char *c = t_corpora();

        /* Missing corpora are a failure, in CI and out of it: this test has nothing else to read. */
        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent (set PRC_CORPORA)%s",
                       getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? " and CI must have it" : "");
        snprintf(dir, sizeof(dir), "%s/parsers/attacks", c);
        return dir;
}

static void load_attack(const struct attack *a, const prc_limits *lim)
{
        char path[8500];
        size_t n;
        char *bytes;
        prc_err e;
        json_t *v;

        snprintf(path, sizeof(path), "%s/%s", attacks_dir(), a->path);
        bytes = t_read(path, &n);
        prc_err_init(&e);
        v = prc_yaml_load((const uint8_t *)bytes, n, lim, 0, &e);
        if ((v == NULL) != (e.cls != PRC_E_OK))
                t_fail(__FILE__, __LINE__, "%s: not exactly one outcome", a->path);
        if (e.cls != a->want)
                t_fail(__FILE__, __LINE__, "%s: got %s (%s), want %s", a->path, prc_err_name(e.cls), e.msg,
                       prc_err_name(a->want));
        json_decref(v);
        free(bytes);
}

static void test_yaml__attack_corpus_outcomes(void)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(attacks); i++)
                load_attack(&attacks[i], &prc_limits_default);
}

static void test_yaml__attack_table_covers_every_yaml_row_of_the_index(void)
{
        char path[8500];
        char *idx, *line, *save = NULL;
        size_t rows = 0;

        snprintf(path, sizeof(path), "%s/INDEX.tsv", attacks_dir());
        idx = t_read(path, NULL);
        for (line = strtok_r(idx, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *tab = strchr(line, '\t');
                bool found = false;
                if (tab == NULL || strncmp(tab + 1, "yaml\t", 5) != 0)
                        continue;
                *tab = '\0';
                rows++;
                for (size_t i = 0; i < PRC_ARRAY_LEN(attacks); i++)
                        found = found || strcmp(attacks[i].path, line) == 0;
                if (!found)
                        t_fail(__FILE__, __LINE__, "INDEX.tsv lists %s, which the attack table lacks", line);
        }
        T_EQ_INT(rows, PRC_ARRAY_LEN(attacks));
        free(idx);
}

static void test_yaml__merge_fanout_resolves_to_its_distinct_keys(void)
{
        char path[8500];
        size_t n;
        char *bytes;
        prc_err e;
        json_t *v, *t;

        snprintf(path, sizeof(path), "%s/yaml/merge-key-fanout-dup-alias-22.yaml", attacks_dir());
        bytes = t_read(path, &n);
        prc_err_init(&e);
        v = prc_yaml_load((const uint8_t *)bytes, n, &prc_limits_default, 0, &e);
        T_ASSERT(v != NULL);
        t = json_object_get(v, "target");
        T_EQ_STR(canon(t), "{\"k0\":\"v0\"}");
        json_decref(v);
        free(bytes);
}

/*
 * Differential: on every plain, single- and double-quoted scalar of the YAML the
 * shared corpora hold (yaml-test-suite inputs, workflows, lockfiles,
 * attacks), prc's decoders give what libfyaml gives, where libfyaml is right.  The corpora hold none
 * of the patterns libfyaml gets wrong, so every scalar must agree.
 */
static size_t sq_files, sq_scalars, dq_scalars, pl_scalars;
static char sq_bad[600];

static bool yaml_like(const char *path, const char *bytes, size_t n)
{
        const char *base = strrchr(path, '/');
        size_t l = strlen(path);

        base = base ? base + 1 : path;
        if ((l > 5 && strcmp(path + l - 5, ".yaml") == 0) || (l > 4 && strcmp(path + l - 4, ".yml") == 0))
                return true;
        /* yarn berry lockfiles are YAML under a classic name */
        return strcmp(base, "yarn.lock") == 0 && memmem(bytes, n, "__metadata:", 11) != NULL;
}

static void sq_discard(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
        (void)diag;
        (void)user;
        (void)buf;
        (void)len;
}

static void sq_diff_file(const char *path, const char *bytes, size_t n)
{
        struct fy_parse_cfg cfg = { .flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_JSON_NONE };
        struct fy_diag_cfg dcfg;
        struct fy_diag *diag;
        struct fy_parser *fyp;
        struct fy_event *ev;
        char *d = malloc(n + n / 2 + 4);

        T_ASSERT(d != NULL);
        memset(&dcfg, 0, sizeof(dcfg));
        dcfg.output_fn = sq_discard;
        dcfg.level = FYET_ERROR;
        diag = fy_diag_create(&dcfg);
        T_ASSERT(diag != NULL);
        fy_diag_set_collect_errors(diag, true);
        cfg.diag = diag;
        fyp = fy_parser_create(&cfg);
        T_ASSERT(fyp != NULL && fy_parser_set_string(fyp, bytes, n) == 0);
        sq_files++;
        while ((ev = fy_parser_parse(fyp)) != NULL) {
                enum fy_scalar_style st = ev->type == FYET_SCALAR ? fy_token_scalar_style(ev->scalar.value) : FYSS_ANY;
                if (st == FYSS_PLAIN && ev->scalar.value != NULL) {
                        struct fy_token *t = ev->scalar.value;
                        size_t ln, dn, s = fy_token_start_mark(t)->input_pos, e = fy_token_end_mark(t)->input_pos;
                        const char *lt = fy_token_get_text(t, &ln);
                        bool ok = lt != NULL && s <= e && e <= n &&
                                  prc_yaml_plain_decode((const uint8_t *)bytes, s, e, d, &dn) && dn == ln &&
                                  memcmp(d, lt, ln) == 0;
                        pl_scalars++;
                        if (!ok && sq_bad[0] == '\0')
                                snprintf(sq_bad, sizeof(sq_bad), "%s: offset %zu: libfyaml '%.*s', prc '%.*s'", path,
                                         s, (int)(ln > 80 ? 80 : ln), lt ? lt : "", (int)(dn > 80 ? 80 : dn), d);
                } else if (st == FYSS_SINGLE_QUOTED || st == FYSS_DOUBLE_QUOTED) {
                        struct fy_token *t = ev->scalar.value;
                        size_t ln, dn, s = fy_token_start_mark(t)->input_pos, e = fy_token_end_mark(t)->input_pos;
                        const char *lt = fy_token_get_text(t, &ln);
                        char q = st == FYSS_SINGLE_QUOTED ? '\'' : '"';
                        bool ok = lt != NULL && s > 0 && s <= e && e < n && bytes[s - 1] == q && bytes[e] == q &&
                                  (q == '\'' ? prc_yaml_squote_decode((const uint8_t *)bytes, s, e, d, &dn)
                                            : prc_yaml_dquote_decode((const uint8_t *)bytes, s, e, d, &dn)) &&
                                  dn == ln && memcmp(d, lt, ln) == 0;
                        if (q == '\'')
                                sq_scalars++;
                        else
                                dq_scalars++;
                        if (!ok && sq_bad[0] == '\0')
                                snprintf(sq_bad, sizeof(sq_bad), "%s: offset %zu: libfyaml '%.*s', prc '%.*s'", path,
                                         s, (int)(ln > 80 ? 80 : ln), lt ? lt : "", (int)(dn > 80 ? 80 : dn), d);
                }
                fy_parser_event_free(fyp, ev);
        }
        fy_parser_destroy(fyp);
        fy_diag_destroy(diag);
        free(d);
}

static int sq_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
        char *bytes;
        size_t n;

        (void)ftw;
        if (type != FTW_F || !S_ISREG(st->st_mode) || st->st_size > (64 << 20))
                return 0;
        bytes = t_read(path, &n);
        if (yaml_like(path, bytes, n))
                sq_diff_file(path, bytes, n);
        free(bytes);
        return 0;
}

static void test_yaml__quoted_decoding_matches_libfyaml_on_the_corpora(void)
{
        char dir[8300];

        (void)attacks_dir();    /* fails when the corpora are absent */
        snprintf(dir, sizeof(dir), "%s", t_corpora());
        sq_files = sq_scalars = dq_scalars = pl_scalars = 0;
        sq_bad[0] = '\0';
        T_ASSERT(nftw(dir, sq_visit, 32, FTW_PHYS) == 0);
        if (sq_bad[0] != '\0')
                t_fail(__FILE__, __LINE__, "%s", sq_bad);
        fprintf(stderr, "    %zu YAML files: %zu single-quoted, %zu double-quoted and %zu plain scalars agree\n",
                sq_files, sq_scalars, dq_scalars, pl_scalars);
        T_ASSERT(sq_files > 500 && sq_scalars > 1000 && dq_scalars > 1000 && pl_scalars > 1000);
}

/*
 * Every committed YAML manifest in the corpus (workflows, pnpm lockfiles,
 * compose, dependabot) loads with the target limits.  Without a float flag
 * the only refusals allowed are floats (version numbers such as 3.10).
 */
static void test_yaml__real_manifests_load(void)
{
        const char *c = t_corpora();
        char path[8500];
        char *idx, *line, *save = NULL;
        size_t files = 0, floats = 0;

        (void)attacks_dir();
        snprintf(path, sizeof(path), "%s/manifests/INDEX.tsv", c);
        idx = t_read(path, NULL);
        for (line = strtok_r(idx, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *f[6], *tab = line, *bytes;
                size_t nf = 0, n, plen;
                prc_err e;
                json_t *v;

                while (nf < 6) {
                        f[nf++] = tab;
                        tab = strchr(tab, '\t');
                        if (tab == NULL)
                                break;
                        *tab++ = '\0';
                }
                if (nf < 6 || strcmp(f[0], "ecosystem") == 0)
                        continue;
                plen = strlen(f[3]);
                if (!(plen > 4 && strcmp(f[3] + plen - 4, ".yml") == 0) &&
                    !(plen > 5 && strcmp(f[3] + plen - 5, ".yaml") == 0))
                        continue;
                for (char *s = f[1]; *s; s++)
                        if (*s == '/') {
                                *s = '\0';
                                snprintf(path, sizeof(path), "%s/manifests/%s/%s__%s/%s", c, f[0], f[1], s + 1,
                                         f[3]);
                                break;
                        }
                bytes = t_read(path, &n);
                prc_err_init(&e);
                v = prc_yaml_load((const uint8_t *)bytes, n, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &e);
                if (v == NULL)
                        t_fail(__FILE__, __LINE__, "%s refused: %s %u:%u %s", path, prc_err_name(e.cls), e.line,
                               e.col, e.msg);
                json_decref(v);
                prc_err_init(&e);
                v = prc_yaml_load((const uint8_t *)bytes, n, &prc_limits_default, 0, &e);
                if (v == NULL && e.cls != PRC_E_YAML_FLOAT_NOT_ALLOWED)
                        t_fail(__FILE__, __LINE__, "%s refused without floats: %s", path, prc_err_name(e.cls));
                floats += v == NULL;
                json_decref(v);
                free(bytes);
                files++;
        }
        free(idx);
        T_ASSERT(files >= 200);
        T_ASSERT(floats < files / 10);
}

/* Exactly one outcome, and a loaded result that can be canonicalized or names why not. */
static void one_outcome(const uint8_t *p, size_t n, const char *what, size_t where)
{
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_yaml_load(p, n, &prc_limits_fuzz, 0, &e);
        if ((v == NULL) != (e.cls != PRC_E_OK))
                t_fail(__FILE__, __LINE__, "%s at %zu: not exactly one outcome", what, where);
        if (v != NULL) {
                prc_buf b;
                prc_err e2;
                prc_err_init(&e2);
                prc_buf_init(&b, (size_t)16 << 20);
                if (!prc_jcs_write(v, &b, &e2))
                        t_fail(__FILE__, __LINE__, "%s at %zu: loaded but not canonical: %s", what, where,
                               prc_err_name(e2.cls));
                prc_buf_clear(&b);
        }
        json_decref(v);
}

/* Hostile paths (STYLE.md): every truncation and every single-bit flip of each valid seed input. */
static void test_yaml__truncation_and_bit_flip_sweep(void)
{
        static const char *const dirs[] = { "tests/golden/doc", "fuzz/corpus/yaml" };
        size_t inputs = 0;

        for (size_t d = 0; d < PRC_ARRAY_LEN(dirs); d++) {
                char dir[4200];
                struct dirent *de;
                DIR *dh;

                snprintf(dir, sizeof(dir), "%s/%s", t_root(), dirs[d]);
                dh = opendir(dir);
                T_ASSERT(dh != NULL);
                while ((de = readdir(dh)) != NULL) {
                        char path[4500];
                        size_t n;
                        uint8_t *buf;
                        const char *dot = strrchr(de->d_name, '.');
                        if (de->d_name[0] == '.' || (dot != NULL && (strcmp(dot, ".out") == 0 ||
                                                                       strcmp(dot, ".err") == 0)))
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                        buf = (uint8_t *)t_read(path, &n);
                        for (size_t i = 0; i <= n; i++)
                                one_outcome(buf, i, de->d_name, i);
                        for (size_t i = 0; i < n; i++)
                                for (unsigned bit = 0; bit < 8; bit++) {
                                        buf[i] ^= (uint8_t)(1u << bit);
                                        one_outcome(buf, n, de->d_name, i);
                                        buf[i] ^= (uint8_t)(1u << bit);
                                }
                        free(buf);
                        inputs++;
                }
                closedir(dh);
        }
        T_ASSERT(inputs >= 20);
}

/*
 * The kept composition (prc_yaml_keep): the next load of exactly the same
 * bytes (by address), limits and flags takes the kept tree, and only a
 * load with positions takes kept positions; any other load composes anew
 * and leaves the slot alone; a dropped or taken slot serves nobody.
 */
static void test_yaml__a_kept_tree_serves_exactly_its_own_key(void)
{
        static const char y[] = "a: 1.5\nb:\n  - x\n  - {k: v}\n";
        const uint8_t *p = (const uint8_t *)y;
        const size_t n = sizeof(y) - 1;
        const unsigned S = PRC_YAML_FLOAT_AS_STRING;
        char copy[sizeof(y)];
        prc_limits lim = prc_limits_default;
        prc_yaml_pos *pos = NULL, *got = NULL;
        prc_yaml_at at;
        prc_err e;
        json_t *kept, *v;

        memcpy(copy, y, sizeof(y));
        prc_err_init(&e);
        kept = prc_yaml_load_pos(p, n, &lim, S, &pos, &e);
        T_NOERR(e);
        prc_yaml_keep(p, n, &lim, S, kept, pos);
        /* Another address, another length, other flags, other limits: composed anew, the slot kept. */
        v = prc_yaml_load((const uint8_t *)copy, n, &lim, S, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        v = prc_yaml_load(p, n - 1, &lim, S, &e);
        T_ASSERT(v != NULL && v != kept);
        json_decref(v);
        v = prc_yaml_load(p, n, &lim, PRC_YAML_ALLOW_FLOAT, &e);
        T_ASSERT(v != NULL && v != kept && json_is_real(json_object_get(v, "a")));     /* the flags matter */
        json_decref(v);
        lim.nodes_max--;
        v = prc_yaml_load(p, n, &lim, S, &e);
        T_ASSERT(v != NULL && v != kept);
        json_decref(v);
        lim.nodes_max++;
        /* The key itself: taken once, positions included. */
        v = prc_yaml_load_pos(p, n, &lim, S, &got, &e);
        T_NOERR(e);
        T_ASSERT(v == kept && got == pos);
        T_ASSERT(prc_yaml_pos_get(got, prc_yaml_pos_key(got, prc_yaml_pos_root(got), "b"), &at));
        T_EQ_INT(at.key_line, 2);
        v = prc_yaml_load(p, n, &lim, S, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        json_decref(kept);
        prc_yaml_pos_free(got);
        /* Without positions kept, a load with positions composes; a load without takes it. */
        kept = prc_yaml_load(p, n, &lim, S, &e);
        prc_yaml_keep(p, n, &lim, S, kept, NULL);
        got = NULL;
        v = prc_yaml_load_pos(p, n, &lim, S, &got, &e);
        T_ASSERT(v != NULL && v != kept && got != NULL);
        json_decref(v);
        prc_yaml_pos_free(got);
        v = prc_yaml_load(p, n, &lim, S, &e);
        T_ASSERT(v == kept);
        json_decref(v);
        /* Dropped: composed anew (and under ASan, nothing leaks nor is freed twice). */
        kept = prc_yaml_load(p, n, &lim, S, &e);
        prc_yaml_keep(p, n, &lim, S, kept, NULL);
        prc_kept_drop();
        v = prc_yaml_load(p, n, &lim, S, &e);
        T_ASSERT(v != NULL && json_array_size(json_object_get(v, "b")) == 2);
        json_decref(v);
        prc_kept_drop();   /* an empty slot drops nothing */
}

/* Both readings of p[0..n) (the line reader allowed, and always composing) under flags: the same outcome. */
static bool same_both_ways(const uint8_t *p, size_t n, unsigned flags, const char *what)
{
        prc_err a, b;
        json_t *v, *w;
        bool same;

        prc_err_init(&a);
        prc_err_init(&b);
        v = prc_yaml_load(p, n, &prc_limits_default, flags, &a);
        prc_yaml_test_no_line_reader = true;
        w = prc_yaml_load(p, n, &prc_limits_default, flags, &b);
        prc_yaml_test_no_line_reader = false;
        same = (v == NULL) == (w == NULL) && (v == NULL ? prc_err_same(&a, &b) : json_equal(v, w));
        if (!same)
                t_fail(__FILE__, __LINE__, "%s: the line reader %s (%s), the composer %s (%s)", what,
                       v != NULL ? "loads" : "refuses", prc_err_name(a.cls), w != NULL ? "loads" : "refuses",
                       prc_err_name(b.cls));
        json_decref(v);
        json_decref(w);
        return same;
}

/*
 * The line reader (yaml.c lr_load) takes block YAML as lockfile generators
 * write it and declines the rest, which is composed as before: either way
 * the document or the refusal is the composer's.  The first group is taken
 * by the line reader, the second declined (each for one of its reasons).
 */
static void test_yaml__the_line_reader_changes_no_outcome(void)
{
        static const char *const taken[] = {
                "a: 1\nb:\n  - x\n  - 'y'''\n  - {k: v, l: [1, 2], m: {}}\nc: \"q\"\n",
                "# head\n\na: b # c\nd: b#c\ne:    \nf: []\n'g h': ~\n",
                "0x10: a\ntrue: b\nnull: c\n+1: d\n1.5: e\n'': f\n",
                "- a\n- -1\n- [x, 'y']\n- ''\n",
                "a : 1\nb: 'x' # c\n",
                "a:\n  b:\n    c: d\n  e: f\ng: h\n",
                "a: https://x/y?z=1&w=2\nb: 3.56.5(encoding@0.1.13)(typescript@5.8.3)\nc: x:y\n",
                "'@babel/core@7.0.0':\n  resolution: {integrity: sha512-ab+/c==, tarball: https://r/x.tgz}\n"
                "  engines: {node: '>=12'}\n  cpu: [x64]\n",
                "\"@a/b@npm:^1.0.0, @a/b@npm:^1.1.0\":\n  version: 1.1.0\n  dependencies:\n    c: \"npm:^2.0.0\"\n",
        };
        static const char *const declined[] = {
                "a: b\n  c\n", "a:\n- x\n", "a: &x 1\nb: *x\n", "a: |\n  x\n", "a: 1\na: 2\n", "a: 1.5\n",
                "a: 'x' y\n", "? a\n: b\n", "a: [b, c]d\n", "{a: b}\n", "a: -\n", "a: b: c\n", "a: !!str 1\n",
                "a: 1\n---\nb: 2\n", "a: 1\r\nb: 2\r\n", "a:\tb\n", "a: \"x\\ty\"\n", "- a: b\n", "a: [b,\n  c]\n",
                "<<: {a: 1}\n", "x: {<<: {a: 1}, b: 2}\n", "x: [{<<: {a: 1}}]\n", "a: 9007199254740993\n",
                "a: .inf\n", "  a: 1\n", "a: 1\n b: 2\n", "a: [b: c]\n", "a: {b: 1, b: 2}\n", "a: [1, ]\n",
                "a: @x\n", "a: '\n", "a: 'x'# c\n", "'a':b\n", "-x ?:\n-''':: t\n';,':r '\n",
                "\xef\xbb\xbf" "a: 1\n", "a: x\xc2\x85y\n", "",
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(taken); i++) {
                unsigned long before = prc_yaml_test_line_reads;
                T_ASSERT(same_both_ways((const uint8_t *)taken[i], strlen(taken[i]), PRC_YAML_FLOAT_AS_STRING,
                                        taken[i]));
                if (prc_yaml_test_line_reads != before + 1)
                        t_fail(__FILE__, __LINE__, "the line reader did not take %s", taken[i]);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(declined); i++) {
                unsigned long before = prc_yaml_test_line_reads;
                T_ASSERT(same_both_ways((const uint8_t *)declined[i], strlen(declined[i]), 0, declined[i]));
                if (prc_yaml_test_line_reads != before)
                        t_fail(__FILE__, __LINE__, "the line reader took %s", declined[i]);
        }
}

/* Each regular file under dir (name ending in suffix) both ways under both flag sets; adds to *files. */
static unsigned long both_ways_tree(const char *dir, const char *suffix, size_t *files)
{
        unsigned long before = prc_yaml_test_line_reads;
        DIR *d = opendir(dir);
        struct dirent *de;

        T_ASSERT(d != NULL);
        while ((de = readdir(d)) != NULL) {
                char path[4096];
                struct stat st;
                size_t len = strlen(de->d_name), sl = strlen(suffix);
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                if (lstat(path, &st) != 0)
                        continue;
                if (S_ISDIR(st.st_mode)) {
                        both_ways_tree(path, suffix, files);
                } else if (S_ISREG(st.st_mode) && len >= sl && strcmp(de->d_name + len - sl, suffix) == 0 &&
                           st.st_size <= (off_t)prc_limits_default.input_max) {
                        prc_buf in;
                        prc_err err;
                        prc_err_init(&err);
                        prc_buf_init(&in, prc_limits_default.input_max);
                        T_ASSERT(prc_file_read(path, prc_limits_default.input_max, 0, &in, &err));
                        same_both_ways(in.data, in.len, 0, path);
                        same_both_ways(in.data, in.len, PRC_YAML_FLOAT_AS_STRING, path);
                        prc_buf_clear(&in);
                        (*files)++;
                }
        }
        closedir(d);
        return prc_yaml_test_line_reads - before;
}

/* prc's own lockfile fixtures: the pnpm and yarn berry locks are taken by the line reader, to the same trees. */
static void test_yaml__the_line_reader_takes_the_lockfile_fixtures(void)
{
        char dir[4096];
        size_t files = 0;
        unsigned long took = 0;

        snprintf(dir, sizeof(dir), "%s/tests/fixtures/extract/npm", t_root());
        took += both_ways_tree(dir, "pnpm-lock.yaml", &files);
        took += both_ways_tree(dir, "yarn.lock", &files);
        T_ASSERT(files >= 5);
        /* Three pnpm locks and the berry lock, each under two flag sets; a classic yarn.lock is no YAML. */
        T_ASSERT(took >= 8);
}

/*
 * Over the YAML test suite, the attack inputs and every YAML file and
 * yarn.lock of the manifests corpus: the same outcome both ways; the
 * corpus's pnpm and berry locks are taken.
 */
static void test_yaml__the_line_reader_changes_no_outcome_over_the_corpora(void)
{
        static const struct {
                const char *dir, *suffix;
        } trees[] = {
                { "parsers/yaml-test-suite", "" }, { "parsers/attacks/yaml", "" }, { "manifests", ".yaml" },
                { "manifests", ".yml" },           { "manifests", "yarn.lock" },
        };
        const char *c = t_corpora();
        size_t files = 0;
        unsigned long took = 0;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads its YAML suites");
        for (size_t i = 0; c != NULL && i < PRC_ARRAY_LEN(trees); i++) {
                char dir[4096];
                snprintf(dir, sizeof(dir), "%s/%s", c, trees[i].dir);
                took += both_ways_tree(dir, trees[i].suffix, &files);
        }
        T_ASSERT(files >= 1000);
        T_ASSERT(took >= 100);
}

static const prc_test tests[] = {
        T(test_yaml__a_kept_tree_serves_exactly_its_own_key),
        T(test_yaml__the_line_reader_changes_no_outcome),
        T(test_yaml__the_line_reader_takes_the_lockfile_fixtures),
        T(test_yaml__the_line_reader_changes_no_outcome_over_the_corpora),
        T(test_yaml__core_schema_null_bool_int),
        T(test_yaml__integers_outside_the_safe_range_are_unsafe),
        T(test_yaml__quoted_and_block_scalars_are_strings),
        T(test_yaml__single_quoted_runs_of_quotes_decode_exactly),
        T(test_yaml__single_quoted_scalars_fold_per_spec),
        T(test_yaml__double_quoted_escaped_space_before_a_break_decodes_exactly),
        T(test_yaml__double_quoted_scalars_decode_per_spec),
        T(test_yaml__block_scalars_with_indicators_decode_exactly),
        T(test_yaml__block_scalars_decode_per_spec),
        T(test_yaml__block_scalar_at_its_collections_indentation_is_refused),
        T(test_yaml__explicit_key_tab_is_refused_before_libfyaml),
        T(test_yaml__explicit_key_tab_prescan_spares_the_rest),
        T(test_yaml__a_key_tab_the_pre_scan_misses_is_refused_without_destroying_the_parser),
        T(test_yaml__floats_are_refused_unless_allowed),
        T(test_yaml__infinity_and_nan_are_refused_even_with_floats),
        T(test_yaml__floats_as_strings_keep_their_spelling),
        T(test_yaml__core_tags_are_honoured),
        T(test_yaml__mismatched_core_tags_are_refused),
        T(test_yaml__other_tags_are_refused),
        T(test_yaml__alias_shares_the_anchored_value),
        T(test_yaml__redefined_anchor_takes_the_latest),
        T(test_yaml__undefined_and_cyclic_aliases_are_refused),
        T(test_yaml__aliases_count_the_nodes_they_stand_for),
        T(test_yaml__alias_and_anchor_limits),
        T(test_yaml__merge_key_semantics),
        T(test_yaml__merge_does_not_share_a_mutated_source),
        T(test_yaml__invalid_merge_values_are_refused),
        T(test_yaml__every_merged_copy_counts_against_merge_max),
        T(test_yaml__duplicate_keys_are_refused),
        T(test_yaml__scalar_keys_become_strings),
        T(test_yaml__complex_keys_are_refused),
        T(test_yaml__keys_are_bounded),
        T(test_yaml__depth_limit_is_exact),
        T(test_yaml__flow_brackets_are_prescanned),
        T(test_yaml__prescan_finds_each_byte_at_any_offset),
        T(test_yaml__crowded_flow_lines_are_prescanned),
        T(test_yaml__scalar_and_input_limits),
        T(test_yaml__exactly_one_document),
        T(test_yaml__empty_stream_is_null),
        T(test_yaml__raw_bytes_are_checked_first),
        T(test_yaml__escapes_cannot_smuggle_nul_or_bad_utf8),
        T(test_yaml__errors_carry_line_column_and_pointer),
        T(test_yaml__messages_never_carry_control_characters),
        T(test_yaml__libfyaml_never_writes_to_stderr),
        T(test_yaml__json_documents_load_as_yaml),
        T(test_yaml__workflow_with_anchors_and_merges_loads),
        T(test_yaml__attack_corpus_outcomes),
        T(test_yaml__attack_table_covers_every_yaml_row_of_the_index),
        T(test_yaml__merge_fanout_resolves_to_its_distinct_keys),
        T(test_yaml__real_manifests_load),
        T(test_yaml__quoted_decoding_matches_libfyaml_on_the_corpora),
        T(test_yaml__truncation_and_bit_flip_sweep),
};
PRC_SUITE(yaml, tests)

/*
 * Memory bound (issue 2 item 7): the alias and merge bombs (and the deep
 * and wide documents) are handled under 64 MiB.  RLIMIT_AS is set to what the process maps now plus 64 MiB,
 * so any allocation past the bound fails and the load reports
 * out-of-memory instead of the expected class.  No ASan: it reserves
 * terabytes of shadow address space.
 */
static size_t vm_size(void)
{
        FILE *f = fopen("/proc/self/status", "r");
        char line[256];
        size_t kb = 0;

        /* /proc files report size 0: read them line by line, never by their size. */
        while (f != NULL && fgets(line, sizeof(line), f) != NULL)
                if (strncmp(line, "VmSize:", 7) == 0)
                        kb = strtoul(line + 7, NULL, 10);
        if (f != NULL)
                fclose(f);
        if (kb == 0)
                t_fail(__FILE__, __LINE__, "cannot read VmSize from /proc/self/status");
        return kb * 1024;
}

static void test_yaml_bounds__bombs_are_refused_under_64_mib(void)
{
        static const char *const bombs[] = {
                "yaml/billion-laughs-9x9.yaml", "yaml/alias-fanout-binary-40.yaml",
                "yaml/alias-fanout-as-mapping-key.yaml", "yaml/merge-key-fanout-dup-alias-22.yaml",
                "yaml/merge-key-fanout-issue897-levels10.yaml", "yaml/merge-key-quadratic-2000x2000.yaml",
                "yaml/merge-key-empty-sources-1000x1000.yaml", "yaml/pnpm-lock-shaped-alias-bomb.yaml",
                "yaml/deep-flow-seq-100000.yaml", "yaml/deep-flow-map-50000.yaml",
                "yaml/deep-flow-seq-unclosed-100000.yaml", "yaml/many-anchors-30000.yaml",
                "yaml/many-keys-30000.yaml", "yaml/many-documents-30000.yaml",
        };
        struct rlimit rl;

        (void)attacks_dir();    /* fail early, before the limit, if the corpora are absent */
        rl.rlim_cur = rl.rlim_max = vm_size() + ((size_t)64 << 20);
        T_ASSERT(setrlimit(RLIMIT_AS, &rl) == 0);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bombs); i++)
                for (size_t j = 0; j < PRC_ARRAY_LEN(attacks); j++)
                        if (strcmp(attacks[j].path, bombs[i]) == 0)
                                load_attack(&attacks[j], &prc_limits_default);
        /* The worst line the pre-scan lets through: 65536 flow entries libfyaml buffers whole. */
        {
                size_t entries = 32767, n = 1 + entries * 5 + 2;
                char *doc = malloc(n + 1);
                prc_err e;
                json_t *v;
                T_ASSERT(doc != NULL);
                doc[0] = '[';
                for (size_t i = 0; i < entries; i++)
                        memcpy(doc + 1 + i * 5, "[1], ", 5);
                memcpy(doc + 1 + entries * 5, "1]", 3);
                v = load_lim(doc, &prc_limits_default, 0, &e);
                if (v == NULL)
                        t_fail(__FILE__, __LINE__, "crowded line: %s: %s", prc_err_name(e.cls), e.msg);
                json_decref(v);
                free(doc);
        }
}

/*
 * Inside the worker only its reply pipe may be written and no file opened:
 * the loader (libfyaml included) must make no ioctl, open or write system
 * call, on success or on any refusal.  A seccomp filter kills the test
 * process if it does.  jansson seeds its hash from /dev/urandom on first
 * use, so the test (like the worker) makes one object before the filter.
 */
static void test_yaml_bounds__loader_makes_no_file_system_calls(void)
{
        static const char *const docs[] = {
                "a: &a {x: [1, 2]}\nb: {<<: *a, y: 3}\n", "a: [1, 2\n", "a: 1\na: 2\n", "!foo x",
                "\"\\ud800\"", "a\n---\nb\n", "a: *nope", "- !!float 1.5", "%FOO x\n---\na",
        };
        static const int denied[] = { SCMP_SYS(ioctl), SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(write),
                                      SCMP_SYS(writev), SCMP_SYS(socket), SCMP_SYS(execve) };
        scmp_filter_ctx ctx;
        json_t *seed = json_object();

        json_decref(seed);
        ctx = seccomp_init(SCMP_ACT_ALLOW);
        T_ASSERT(ctx != NULL);
        for (size_t i = 0; i < PRC_ARRAY_LEN(denied); i++)
                T_ASSERT(seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, denied[i], 0) == 0);
        T_ASSERT(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
        T_ASSERT(seccomp_load(ctx) == 0);
        seccomp_release(ctx);
        for (size_t i = 0; i < PRC_ARRAY_LEN(docs); i++) {
                prc_err e;
                json_t *v = load_lim(docs[i], &prc_limits_default, 0, &e);
                if ((v == NULL) == (e.cls == PRC_E_OK))
                        _exit(3);       /* no t_fail: it would write */
                json_decref(v);
        }
}

static const prc_test bounds_tests[] = {
        T(test_yaml_bounds__bombs_are_refused_under_64_mib),
        T(test_yaml_bounds__loader_makes_no_file_system_calls),
};
PRC_SUITE_NOSAN(yaml_bounds, bounds_tests)
