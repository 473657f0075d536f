/*
 * test_jsonc.c - the JSONC reader: comments and trailing commas, the strict
 * JSON rules underneath, limits, and the shared attack corpus in place.
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>

#include "base/json_strict.h"
#include "content/parsers/jsonc.h"
#include "text_corpus.h"

static json_t *parse(const char *s, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_jsonc_parse((const uint8_t *)s, strlen(s), &prc_limits_default, flags, e);
}

#define REFUSE(s, c)                                                                    \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), 0, &e_);                                        \
                if (v_ != NULL)                                                         \
                        t_fail(__FILE__, __LINE__, "accepted: %s", (s));                \
                T_ERR(e_, (c));                                                         \
        } while (0)

#define DUMPS(s, flags, want)                                                           \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), (flags), &e_);                                  \
                char *d_;                                                               \
                T_NOERR(e_);                                                            \
                d_ = json_dumps(v_, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);   \
                T_EQ_STR(d_, (want));                                                   \
                free(d_);                                                               \
                json_decref(v_);                                                        \
        } while (0)

static void test_jsonc__comments_and_one_trailing_comma(void)
{
        DUMPS("// head\n{\n  \"a\": [1, 2,], /* inline */ \"b\": {\"c\": true,},\n}\n// tail", 0,
              "{\"a\":[1,2],\"b\":{\"c\":true}}");
        DUMPS("/**/[/***/null/* * */]", 0, "[null]");
        DUMPS("{\"a\"/*k*/:/*v*/1}", 0, "{\"a\":1}");
        REFUSE("[1,,]", PRC_E_INVALID_JSON);
        REFUSE("[,]", PRC_E_INVALID_JSON);
        REFUSE("{,}", PRC_E_INVALID_JSON);
        REFUSE("{\"a\":1,,}", PRC_E_INVALID_JSON);
        REFUSE("// only a comment\n", PRC_E_INVALID_JSON);
        REFUSE("[1] /", PRC_E_INVALID_JSON);
        REFUSE("[1 /* open", PRC_E_JSONC_UNTERMINATED_COMMENT);
        REFUSE("/* a /* b */ c */ 1", PRC_E_INVALID_JSON);     /* block comments do not nest */
}

static void test_jsonc__comment_markers_inside_strings_survive(void)
{
        DUMPS("{\"url\": \"http://x/*y*/\", \"c\": \"// not a comment\", \"e\": \"\\\"//\"}", 0,
              "{\"c\":\"// not a comment\",\"e\":\"\\\"//\",\"url\":\"http://x/*y*/\"}");
}

static void test_jsonc__line_comment_ends_at_cr(void)
{
        DUMPS("[1 // c\r,2]", 0, "[1,2]");
}

static void test_jsonc__strict_json_rules(void)
{
        REFUSE("{\"a\":1,\"a\":2}", PRC_E_DUPLICATE_FIELD);
        REFUSE("{\"a\":1,\"\\u0061\":2}", PRC_E_DUPLICATE_FIELD);
        REFUSE("{\"x\":{\"a\":1,\"a\":1}}", PRC_E_DUPLICATE_FIELD);
        REFUSE("{a:1}", PRC_E_INVALID_JSON);
        REFUSE("['a']", PRC_E_INVALID_JSON);
        REFUSE("[0x10]", PRC_E_INVALID_JSON);
        REFUSE("[01]", PRC_E_INVALID_JSON);
        REFUSE("[.5]", PRC_E_INVALID_JSON);
        REFUSE("[NaN]", PRC_E_INVALID_JSON);
        REFUSE("[\"\\x41\"]", PRC_E_INVALID_JSON);
        REFUSE("[\"\\ud800\"]", PRC_E_INVALID_JSON);
        REFUSE("[\"a\tb\"]", PRC_E_INVALID_JSON);
        REFUSE("[1] [2]", PRC_E_INVALID_JSON);
        REFUSE("\xef\xbb\xbf[]", PRC_E_INVALID_JSON);
        REFUSE("[\"\\u0000\"]", PRC_E_NUL_BYTE);
        REFUSE("[1.5]", PRC_E_UNSAFE_NUMBER);
        REFUSE("[9007199254740992]", PRC_E_UNSAFE_NUMBER);
        REFUSE("[\"\xed\xa0\x80\"]", PRC_E_INVALID_UTF8);
        DUMPS("[9007199254740991, -9007199254740991, \"\\ud83d\\ude00\", -0]", 0,
              "[9007199254740991,-9007199254740991,\"\xf0\x9f\x98\x80\",0]");
}

static void test_jsonc__flags_allow_floats_big_integers_and_nul(void)
{
        prc_err e;
        json_t *v;

        DUMPS("[1.5, 1e2]", PRC_JSON_ALLOW_FLOAT, "[1.5,100.0]");
        DUMPS("[9223372036854775807]", PRC_JSON_ALLOW_UNSAFE_INT, "[9223372036854775807]");
        v = parse("[9223372036854775808]", PRC_JSON_ALLOW_UNSAFE_INT, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_UNSAFE_NUMBER);
        v = parse("[1e999]", PRC_JSON_ALLOW_FLOAT, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_UNSAFE_NUMBER);
        v = parse("{\"a\\u0000b\":\"c\\u0000d\"}", PRC_JSON_ALLOW_NUL, &e);
        T_NOERR(e);
        {
                const char *k;
                size_t klen;
                json_t *x;
                json_object_keylen_foreach(v, k, klen, x) {
                        T_EQ_INT(klen, 3);
                        T_EQ_INT(json_string_length(x), 3);     /* not truncated at the NUL */
                }
        }
        json_decref(v);
}

static void test_jsonc__raw_nul_is_refused_with_offset(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_jsonc_parse((const uint8_t *)"[1,\0]", 5, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.off, 3);
        prc_err_init(&e);
        T_ASSERT(prc_jsonc_parse((const uint8_t *)"// \0\n1", 6, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
}

static void test_jsonc__error_line_and_column(void)
{
        prc_err e;

        T_ASSERT(parse("{\n  // x\n  \"a\": 1,\n  \"b\" 2\n}", 0, &e) == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
        T_EQ_INT(e.line, 4);
        T_EQ_INT(e.col, 7);
        T_ASSERT(parse("[\"\xc3\xa9\", tru]", 0, &e) == NULL);
        T_EQ_INT(e.line, 1);
        T_EQ_INT(e.col, 7);
}

static void test_jsonc__limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        const char *s;

        lim.depth_max = 2;
        prc_err_init(&e);
        s = "[[[]]]";
        T_ASSERT(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        prc_err_init(&e);
        s = "[[]]";
        json_decref(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e));
        T_NOERR(e);
        lim = prc_limits_default;
        lim.nodes_max = 3;
        prc_err_init(&e);
        s = "[1,2,3]";
        T_ASSERT(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.keys_max = 1;
        prc_err_init(&e);
        s = "{\"a\":1,\"b\":2}";
        T_ASSERT(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.scalar_max = 2;
        prc_err_init(&e);
        s = "{\"abc\":1}";
        T_ASSERT(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        lim = prc_limits_default;
        lim.input_max = 2;
        prc_err_init(&e);
        s = "[1]";
        T_ASSERT(prc_jsonc_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
}

static void test_jsonc__agrees_with_the_strict_json_reader(void)
{
        /* On plain JSON both readers give the same document or the same class. */
        static const char *const cases[] = {
                "{\"a\":[1,2,{\"b\":null}],\"c\":\"\\u00e9\"}", "[1,2", "{\"a\":1,\"a\":2}", "[1.0]",
                "\"\\ud800\"", "[true,false,null]", "{}", "[]", "12", "\"x\"", "[-0]", "[1e5]",
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                prc_err a, b;
                json_t *x, *y;
                const char *s = cases[i];
                prc_err_init(&a);
                prc_err_init(&b);
                x = prc_jsonc_parse((const uint8_t *)s, strlen(s), &prc_limits_default, 0, &a);
                y = prc_json_parse((const uint8_t *)s, strlen(s), &prc_limits_default, 0, &b);
                if ((x == NULL) != (y == NULL) || (x != NULL && !json_equal(x, y)) || a.cls != b.cls)
                        t_fail(__FILE__, __LINE__, "case %zu '%s': jsonc %s, strict %s", i, s,
                               prc_err_name(a.cls), prc_err_name(b.cls));
                json_decref(x);
                json_decref(y);
        }
}

static void test_jsonc__truncation_and_bit_flip_sweep(void)
{
        const char *valid = "// c\n{\"a\": [1, -2, \"s\\u00e9\\n\", true, null,], /* b */ \"o\": {\"k\": false},}\n";

        T_ASSERT(tc_sweep(prc_jsonc_parse, 0, valid) > 500);
        T_ASSERT(tc_sweep(prc_jsonc_parse, PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_NUL, valid) > 500);
}

static void test_jsonc__allocation_failures_are_refusals_without_leaks(void)
{
        const char *valid = "// c\n{\"a\": [1, -2, \"s\\u00e9\\n\", true, null,], /* b */ \"o\": {\"k\": false},}\n";

        T_ASSERT(tc_oom_sweep(prc_jsonc_parse, 0, valid) > 10);
}

static const tc_expect attacks[] = {
        { "json/deep-array-100000.json", "depth-limit", NULL },
        { "json/deep-object-100000.json", "depth-limit", NULL },
        { "json/deep-array-unclosed-100000.json", "depth-limit", NULL },
        { "json/deep-mixed-10000.json", "depth-limit", NULL },
        { "json/huge-string-1MiB.json", "scalar-limit", NULL },
        { "json/huge-key-256KiB.json", "ok", NULL },
        { "json/huge-escaped-string.json", "ok", NULL },
        { "json/huge-number-200k-digits.json", "unsafe-number", NULL },
        { "json/huge-exponent.json", "unsafe-number", NULL },
        { "json/many-keys-30000.json", "ok", NULL },
        { "json/many-elements-200k.json", "ok", NULL },
        { "json/many-keys-long-common-prefix.json", "ok", NULL },
        { "json/dup-key-simple.json", "duplicate-field", NULL },
        { "json/dup-key-escaped.json", "duplicate-field", NULL },
        { "json/dup-key-nested-dependencies.json", "duplicate-field", NULL },
        { "json/dup-key-nul-suffix.json", "nul-byte", NULL },
        { "json/dup-key-unicode-normalization.json", "ok", NULL },
        { "json/nul-raw-in-string.json", "nul-byte", NULL },
        { "json/nul-raw-after-value.json", "nul-byte", NULL },
        { "json/nul-escaped.json", "nul-byte",
          "\\u0000 is refused by default like json_strict; with PRC_JSON_ALLOW_NUL it is kept whole "
          "(test_jsonc__flags_allow_floats_big_integers_and_nul)" },
        { "json/bom-utf8.json", "invalid-json", NULL },
        { "json/utf16le-bom.json", "invalid-utf8", NULL },
        { "json/lone-surrogate-escape.json", "invalid-json", NULL },
        { "json/jsonc-deep-comments.jsonc", "invalid-json", NULL },
        { "json/jsonc-unterminated-comment.jsonc", "jsonc-unterminated-comment", NULL },
        { "json/jsonc-many-comments.jsonc", "ok", NULL },
        { "json/jsonc-trailing-comma-runs.jsonc", "invalid-json", NULL },
        { "json/jsonc-comment-in-key-position.jsonc", "ok", NULL },
        { "json/jsonc-line-comment-cr-only.jsonc", "invalid-json",
          "the input has no comma between its members; the CR does end the comment "
          "(test_jsonc__cr_row_fails_after_the_comment)" },
        { "utf8/overlong-slash.json", "invalid-utf8", NULL },
        { "utf8/overlong-nul.json", "invalid-utf8", NULL },
        { "utf8/overlong-3byte.json", "invalid-utf8", NULL },
        { "utf8/surrogate-high.json", "invalid-utf8", NULL },
        { "utf8/surrogate-pair-cesu.json", "invalid-utf8", NULL },
        { "utf8/above-10ffff.json", "invalid-utf8", NULL },
        { "utf8/five-byte.json", "invalid-utf8", NULL },
        { "utf8/lone-continuation.json", "invalid-utf8", NULL },
        { "utf8/truncated-3byte.json", "invalid-utf8", NULL },
        { "utf8/truncated-at-eof.json", "invalid-utf8", NULL },
        { "utf8/byte-fe.json", "invalid-utf8", NULL },
        { "utf8/byte-ff.json", "invalid-utf8", NULL },
        { "utf8/invalid-in-key.json", "invalid-utf8", NULL },
        { "utf8/invalid-in-comment.jsonc", "invalid-utf8", NULL },
        { "utf8/utf32-json.json", "nul-byte", NULL },
};

static void test_jsonc__attack_corpus_in_place(void)
{
        static const char *const formats[] = { "json", "jsonc", NULL };

        T_EQ_INT(tc_attacks(formats, attacks, PRC_ARRAY_LEN(attacks), prc_jsonc_parse, 0), PRC_ARRAY_LEN(attacks));
}

static void test_jsonc__cr_row_fails_after_the_comment(void)
{
        size_t n;
        char *b = tc_read("parsers/attacks/json/jsonc-line-comment-cr-only.jsonc", &n);
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_jsonc_parse((const uint8_t *)b, n, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
        T_ASSERT(e.off < n && b[e.off - 1] == '\r');    /* the error is at the token after the CR */
        free(b);
}

static json_t *fixture(const char *name)
{
        char path[4096];
        size_t n;
        char *b;
        prc_err e;
        json_t *v;

        snprintf(path, sizeof(path), "%s/tests/fixtures/jsonc/%s", t_root(), name);
        b = t_read(path, &n);
        prc_err_init(&e);
        v = prc_jsonc_parse((const uint8_t *)b, n, &prc_limits_default, 0, &e);
        free(b);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "%s refused: %s at %u:%u: %s", name, prc_err_name(e.cls), e.line, e.col,
                       e.msg);
        return v;
}

static void test_jsonc__tsconfig_like_fixtures_parse(void)
{
        json_t *v = fixture("tsconfig.json");

        T_EQ_STR(json_string_value(json_object_get(json_object_get(v, "compilerOptions"), "outDir")), "dist");
        T_EQ_STR(json_string_value(json_array_get(json_object_get(json_object_get(json_object_get(v,
                 "compilerOptions"), "paths"), "@app/*"), 0)), "src/*");
        T_EQ_INT(json_array_size(json_object_get(v, "include")), 2);
        json_decref(v);
        v = fixture("devcontainer.json");
        T_ASSERT(json_object_get(v, "postCreateCommand") == NULL);      /* it is commented out */
        T_EQ_INT(json_integer_value(json_array_get(json_object_get(v, "forwardPorts"), 1)), 9229);
        json_decref(v);
        v = fixture("vscode-settings.json");
        T_EQ_STR(json_string_value(json_object_get(v, "url")), "https://example.invalid/*not-a-comment*/");
        json_decref(v);
}

static bool json_kind(const char *kind, const char *path)
{
        size_t n = strlen(path);

        (void)kind;
        return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

static void test_jsonc__real_json_manifests_parse(void)
{
        /* JSON is JSONC: every .json manifest (package.json, lockfiles, composer, global.json) must parse. */
        T_ASSERT(tc_manifests(json_kind, prc_jsonc_parse, 0) >= 70);
}

static const prc_test tests[] = {
        T(test_jsonc__comments_and_one_trailing_comma),
        T(test_jsonc__comment_markers_inside_strings_survive),
        T(test_jsonc__line_comment_ends_at_cr),
        T(test_jsonc__strict_json_rules),
        T(test_jsonc__flags_allow_floats_big_integers_and_nul),
        T(test_jsonc__raw_nul_is_refused_with_offset),
        T(test_jsonc__error_line_and_column),
        T(test_jsonc__limits),
        T(test_jsonc__agrees_with_the_strict_json_reader),
        T(test_jsonc__truncation_and_bit_flip_sweep),
        T(test_jsonc__allocation_failures_are_refusals_without_leaks),
        T(test_jsonc__attack_corpus_in_place),
        T(test_jsonc__cr_row_fails_after_the_comment),
        T(test_jsonc__tsconfig_like_fixtures_parse),
        T(test_jsonc__real_json_manifests_parse),
};

PRC_SUITE(jsonc, tests)
