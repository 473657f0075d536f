/*
 * test_ini.c - the INI reader against configparser's semantics (defaults,
 * strict mode), its limits, and the shared attack and manifest corpora.
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>

#include "content/parsers/ini.h"
#include "text_corpus.h"

static json_t *parse(const char *s, prc_err *e)
{
        prc_err_init(e);
        return prc_ini_parse((const uint8_t *)s, strlen(s), &prc_limits_default, 0, e);
}

#define REFUSE(s, c)                                                                    \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), &e_);                                           \
                if (v_ != NULL)                                                         \
                        t_fail(__FILE__, __LINE__, "accepted: %s", (s));                \
                T_ERR(e_, (c));                                                         \
        } while (0)

#define DUMPS(s, want)                                                                  \
        do {                                                                            \
                prc_err e_;                                                             \
                json_t *v_ = parse((s), &e_);                                           \
                char *d_;                                                               \
                T_NOERR(e_);                                                            \
                d_ = json_dumps(v_, JSON_COMPACT | JSON_SORT_KEYS);                     \
                T_EQ_STR(d_, (want));                                                   \
                free(d_);                                                               \
                json_decref(v_);                                                        \
        } while (0)

static void test_ini__sections_options_and_delimiters(void)
{
        DUMPS("[metadata]\nName = demo\nversion: 1.0\n  \n[options]\npython_requires = >=3.8\nempty =\n", 
              "{\"metadata\":{\"name\":\"demo\",\"version\":\"1.0\"},\"options\":{\"empty\":\"\",\"python_requires\":"
              "\">=3.8\"}}");
        /* The first '=' or ':' splits; the value keeps the rest. */
        DUMPS("[s]\nurl = http://x:80/?a=b\nk:v=w\n", "{\"s\":{\"k\":\"v=w\",\"url\":\"http://x:80/?a=b\"}}");
}

static void test_ini__comments_are_full_line_only(void)
{
        DUMPS("# top\n; also\n[s]\n  # indented comment\na = 1 # not a comment\nb = x ; kept\n",
              "{\"s\":{\"a\":\"1 # not a comment\",\"b\":\"x ; kept\"}}");
}

static void test_ini__continuation_lines(void)
{
        /* Comment lines inside a value are skipped; blank ones are kept, trailing ones dropped. */
        DUMPS("[options]\ninstall_requires =\n    requests>=2\n    # why\n\n    click\n\n\nnext = 1\n",
              "{\"options\":{\"install_requires\":\"\\nrequests>=2\\n\\nclick\",\"next\":\"1\"}}");
        /* An indented option line is a continuation of the previous option. */
        DUMPS("[s]\na = 1\n  b = 2\n", "{\"s\":{\"a\":\"1\\nb = 2\"}}");
        /* Indentation is measured against the option's own line. */
        DUMPS("[s]\n  a = 1\n  b = 2\n    c\n", "{\"s\":{\"a\":\"1\",\"b\":\"2\\nc\"}}");
}

static void test_ini__line_endings(void)
{
        DUMPS("[s]\r\na = 1\r\n\tmore\rb = 2\r", "{\"s\":{\"a\":\"1\\nmore\",\"b\":\"2\"}}");
}

static void test_ini__keys_lower_cased_sections_kept(void)
{
        DUMPS("[Tox Env]\nCommands = pytest\n", "{\"Tox Env\":{\"commands\":\"pytest\"}}");
        REFUSE("[s]\nKey = 1\nkey = 2\n", PRC_E_INI_DUPLICATE_OPTION);
        REFUSE("[s]\n\xc3\x89 = 1\n", PRC_E_INI_UNSUPPORTED_KEY);
        DUMPS("[\xc3\x89t\xc3\xa9]\nk = \xc3\xa9\n", "{\"\xc3\x89t\xc3\xa9\":{\"k\":\"\xc3\xa9\"}}");
}

static void test_ini__strict_duplicates(void)
{
        REFUSE("[a]\nx = 1\n[b]\n[a]\n", PRC_E_INI_DUPLICATE_SECTION);
        REFUSE("[a]\nx = 1\nx: 2\n", PRC_E_INI_DUPLICATE_OPTION);
        /* DEFAULT is reopened, as configparser does, but its options stay unique. */
        DUMPS("[DEFAULT]\na = 1\n[s]\nb = 2\n[DEFAULT]\nc = 3\n",
              "{\"DEFAULT\":{\"a\":\"1\",\"c\":\"3\"},\"s\":{\"b\":\"2\"}}");
        REFUSE("[DEFAULT]\na = 1\n[DEFAULT]\na = 2\n", PRC_E_INI_DUPLICATE_OPTION);
}

static void test_ini__section_header_forms(void)
{
        /* configparser's \[(.+)\]: up to the last ']', anything after it ignored. */
        DUMPS("[a] ; note\nx = 1\n[b]c]\ny = 2\n", "{\"a\":{\"x\":\"1\"},\"b]c\":{\"y\":\"2\"}}");
        REFUSE("[]\n", PRC_E_INI_MISSING_SECTION);
        REFUSE("[s]\n[]\n", PRC_E_INI_SYNTAX);
}

static void test_ini__errors(void)
{
        REFUSE("a = 1\n[s]\n", PRC_E_INI_MISSING_SECTION);
        REFUSE("  indented = 1\n", PRC_E_INI_MISSING_SECTION);
        REFUSE("[s]\nno delimiter\n", PRC_E_INI_SYNTAX);
        REFUSE("[s]\n = value\n", PRC_E_INI_SYNTAX);
        REFUSE("[s]\na = \xff\n", PRC_E_INVALID_UTF8);
}

static void test_ini__values_are_raw_no_interpolation(void)
{
        DUMPS("[s]\na = %(b)s%(b)s\nb = ${c}\n", "{\"s\":{\"a\":\"%(b)s%(b)s\",\"b\":\"${c}\"}}");
}

static void test_ini__unicode_whitespace_is_stripped_like_python(void)
{
        /* U+00A0 and U+3000 are str.isspace() in Python, so strip() removes them. */
        DUMPS("[s]\nk = \xc2\xa0v\xe3\x80\x80\n", "{\"s\":{\"k\":\"v\"}}");
}

static void test_ini__nul_is_refused_with_location(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_ini_parse((const uint8_t *)"[s]\na = x\0y\n", 11, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.off, 9);
        T_EQ_INT(e.line, 2);
        T_EQ_INT(e.col, 6);
}

static void test_ini__error_line(void)
{
        prc_err e;

        T_ASSERT(parse("[s]\r\na = 1\r\n\r\nA = 2\r\n", &e) == NULL);
        T_ERR(e, PRC_E_INI_DUPLICATE_OPTION);
        T_EQ_INT(e.line, 4);
        T_EQ_INT(e.col, 1);
}

static void test_ini__limits(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        const char *s;

        lim.keys_max = 1;
        prc_err_init(&e);
        s = "[s]\na = 1\nb = 2\n";
        T_ASSERT(prc_ini_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        prc_err_init(&e);
        s = "[s]\n[t]\n";
        T_ASSERT(prc_ini_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.scalar_max = 3;
        prc_err_init(&e);
        s = "[s]\na = 12\n  34\n";
        T_ASSERT(prc_ini_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        lim = prc_limits_default;
        lim.nodes_max = 2;
        prc_err_init(&e);
        s = "[s]\na = 1\nb = 2\n";
        T_ASSERT(prc_ini_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.input_max = 3;
        prc_err_init(&e);
        s = "[s]\n";
        T_ASSERT(prc_ini_parse((const uint8_t *)s, strlen(s), &lim, 0, &e) == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
}

static void test_ini__truncation_and_bit_flip_sweep(void)
{
        const char *valid = "# c\r\n[metadata]\nName = x\n[options]\ninstall_requires =\n    a>=1\n\n    b\n"
                            "[DEFAULT]\nk: v\n";

        T_ASSERT(tc_sweep(prc_ini_parse, 0, valid) > 500);
}

static void test_ini__allocation_failures_are_refusals_without_leaks(void)
{
        const char *valid = "# c\r\n[metadata]\nName = x\n[options]\ninstall_requires =\n    a>=1\n\n    b\n"
                            "[DEFAULT]\nk: v\n";

        T_ASSERT(tc_oom_sweep(prc_ini_parse, 0, valid) > 10);
}

static const tc_expect attacks[] = {
        { "ini/dup-section.cfg", "ini-duplicate-section", NULL },
        { "ini/dup-option.cfg", "ini-duplicate-option", NULL },
        { "ini/dup-option-case.cfg", "ini-duplicate-option", NULL },
        { "ini/huge-continuation.cfg", "ok", NULL },
        { "ini/interpolation-bomb.cfg", "ok", NULL },
        { "ini/interpolation-recursive.cfg", "ok", NULL },
        { "ini/extended-interpolation-bomb.cfg", "ok", NULL },
        { "ini/long-line-256KiB.cfg", "ok", NULL },
        { "ini/many-sections.cfg", "ok", NULL },
        { "ini/no-section.cfg", "ini-missing-section", NULL },
        { "utf8/nul-in-ini.cfg", "nul-byte", NULL },
};

static void test_ini__attack_corpus_in_place(void)
{
        static const char *const formats[] = { "ini", NULL };

        T_EQ_INT(tc_attacks(formats, attacks, PRC_ARRAY_LEN(attacks), prc_ini_parse, 0), PRC_ARRAY_LEN(attacks));
}

static void test_ini__interpolation_bomb_stays_small(void)
{
        size_t n;
        char *b = tc_read("parsers/attacks/ini/interpolation-bomb.cfg", &n);
        prc_err e;
        json_t *v;
        char *d;

        prc_err_init(&e);
        v = prc_ini_parse((const uint8_t *)b, n, &prc_limits_default, 0, &e);
        T_NOERR(e);
        d = json_dumps(v, JSON_COMPACT);
        T_ASSERT(d != NULL && strlen(d) < 2 * n);       /* nothing was expanded */
        free(d);
        json_decref(v);
        free(b);
}

static bool ini_kind(const char *kind, const char *path)
{
        size_t n = strlen(path);

        return strcmp(kind, "setup.cfg") == 0 || (n >= 7 && strcmp(path + n - 7, "tox.ini") == 0);
}

static void test_ini__real_setup_cfg_parses(void)
{
        size_t n;
        char *b;
        prc_err e;
        json_t *v;

        T_ASSERT(tc_manifests(ini_kind, prc_ini_parse, 0) >= 1);
        /* celery's setup.cfg: a continuation value with comment lines between its items. */
        b = tc_read("manifests/python/celery__celery/setup.cfg", &n);
        prc_err_init(&e);
        v = prc_ini_parse((const uint8_t *)b, n, &prc_limits_default, 0, &e);
        T_NOERR(e);
        T_EQ_STR(json_string_value(json_object_get(json_object_get(v, "flake8"), "extend-ignore")),
                 "\nE203,\nD102,\nD104,\nD105,\nD107,\nD401,\nD412,\nE741,\nE742,");
        json_decref(v);
        free(b);
}

static const prc_test tests[] = {
        T(test_ini__sections_options_and_delimiters),
        T(test_ini__comments_are_full_line_only),
        T(test_ini__continuation_lines),
        T(test_ini__line_endings),
        T(test_ini__keys_lower_cased_sections_kept),
        T(test_ini__strict_duplicates),
        T(test_ini__section_header_forms),
        T(test_ini__errors),
        T(test_ini__values_are_raw_no_interpolation),
        T(test_ini__unicode_whitespace_is_stripped_like_python),
        T(test_ini__nul_is_refused_with_location),
        T(test_ini__error_line),
        T(test_ini__limits),
        T(test_ini__truncation_and_bit_flip_sweep),
        T(test_ini__allocation_failures_are_refusals_without_leaks),
        T(test_ini__attack_corpus_in_place),
        T(test_ini__interpolation_bomb_stays_small),
        T(test_ini__real_setup_cfg_parses),
};

PRC_SUITE(ini, tests)
