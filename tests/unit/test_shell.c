/*
 * test_shell.c - the PKGBUILD tokenizer (assignments, static expansion and
 * its bounds, function and command token streams) and the .SRCINFO reader.
 */
#include "t.h"

#include <stdlib.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "content/parsers/shell.h"

static json_t *tok(const char *s, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_shell_tokenize((const uint8_t *)s, strlen(s), &prc_limits_default, flags, e);
}

static const char *canon(const json_t *v)
{
        static char out[1 << 16];
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, sizeof(out) - 1);
        if (!prc_jcs_write(v, &b, &e))
                t_fail(__FILE__, __LINE__, "jcs: %s", e.msg);
        memcpy(out, b.data, b.len);
        out[b.len] = 0;
        prc_buf_clear(&b);
        return out;
}

/* The i-th assignment named name (0 = first). */
static json_t *assign(json_t *doc, const char *name, int nth)
{
        size_t i;
        json_t *a;

        json_array_foreach(json_object_get(doc, "assignments"), i, a)
                if (strcmp(json_string_value(json_object_get(a, "name")), name) == 0 && nth-- == 0)
                        return a;
        t_fail(__FILE__, __LINE__, "no assignment %s", name);
}

static const char *value_of(json_t *doc, const char *name, int nth)
{
        json_t *a = assign(doc, name, nth), *v = json_object_get(a, "value");

        if (v == NULL)
                return "(dynamic)";
        return canon(v);
}

static void expect_err(const char *src, unsigned flags, prc_errclass cls, uint32_t line)
{
        prc_err e;
        json_t *v = tok(src, flags, &e);

        if (v != NULL)
                t_fail(__FILE__, __LINE__, "accepted: %.80s", src);
        T_ERR(e, cls);
        if (line)
                T_EQ_INT(e.line, line);
}

static void test_shell__scalars_arrays_and_quoting(void)
{
        prc_err e;
        json_t *d = tok("# c\npkgname=foo\npkgver='1.0'\npkgdesc=\"A \\\"b\\\" c\"\n"
                        "arch=('x86_64' aarch64) # trailing\n"
                        "depends=(\n  'a>=1'   # one\n  \"b\"\n  c\\ d\n)\nurl=\nempty=()\nx=1; y=2\n", 0, &e);

        T_NOERR(e);
        T_EQ_STR(value_of(d, "pkgname", 0), "\"foo\"");
        T_EQ_STR(value_of(d, "pkgver", 0), "\"1.0\"");
        T_EQ_STR(value_of(d, "pkgdesc", 0), "\"A \\\"b\\\" c\"");
        T_EQ_STR(value_of(d, "arch", 0), "[\"x86_64\",\"aarch64\"]");
        T_EQ_STR(value_of(d, "depends", 0), "[\"a>=1\",\"b\",\"c d\"]");
        T_EQ_STR(value_of(d, "url", 0), "\"\"");
        T_EQ_STR(value_of(d, "x", 0), "\"1\"");
        T_EQ_STR(value_of(d, "y", 0), "\"2\"");
        T_EQ_INT(json_array_size(json_object_get(d, "commands")), 0);
        T_EQ_STR(value_of(d, "empty", 0), "[]");
        T_EQ_STR(canon(json_object_get(assign(d, "depends", 0), "raw")), "[\"'a>=1'\",\"\\\"b\\\"\",\"c\\\\ d\"]");
        T_EQ_INT(json_integer_value(json_object_get(assign(d, "depends", 0), "line")), 6);
        T_EQ_INT(json_integer_value(json_object_get(assign(d, "url", 0), "line")), 11);
        json_decref(d);
}

static void test_shell__parameter_expansion_is_static_when_known(void)
{
        prc_err e;
        json_t *d = tok("pkgname=foo-git\npkgver=1_2_3\n_e=\n"
                        "a=$pkgname\nb=${pkgname}x\nc=${unset:-dflt}\nd=${_e:-dflt}\ne=${_e-dflt}\n"
                        "f=${pkgver/_/.}\ng=${pkgver//_/.}\nh=${#pkgname}\ni=${pkgname%-git}\nj=${pkgname#foo-}\n"
                        "k=${pkgname:+set}\nl=\"${pkgver//_}\"\nm=${pkgver/#1/X}\n", 0, &e);

        T_NOERR(e);
        T_EQ_STR(value_of(d, "a", 0), "\"foo-git\"");
        T_EQ_STR(value_of(d, "b", 0), "\"foo-gitx\"");
        /* An unknown variable is not "empty": makepkg or the environment may set it. */
        T_EQ_STR(value_of(d, "c", 0), "(dynamic)");
        T_EQ_STR(canon(json_object_get(assign(d, "c", 0), "dynamic")), "[\"unknown-variable:unset\"]");
        T_EQ_STR(value_of(d, "d", 0), "\"dflt\"");
        T_EQ_STR(value_of(d, "e", 0), "\"\"");
        T_EQ_STR(value_of(d, "f", 0), "\"1.2_3\"");
        T_EQ_STR(value_of(d, "g", 0), "\"1.2.3\"");
        T_EQ_STR(value_of(d, "h", 0), "\"7\"");
        T_EQ_STR(value_of(d, "i", 0), "\"foo\"");
        T_EQ_STR(value_of(d, "j", 0), "\"git\"");
        T_EQ_STR(value_of(d, "k", 0), "\"set\"");
        T_EQ_STR(value_of(d, "l", 0), "\"123\"");
        T_EQ_STR(value_of(d, "m", 0), "(dynamic)");
        json_decref(d);
}

static void test_shell__brace_expansion_in_arrays_only(void)
{
        prc_err e;
        json_t *d = tok("pkgver=2\nsource=(\"f-$pkgver.tar.gz\"{,.sig} {a,b}{1,2} x{1..3} {a..c} {1..10..4} {x} '{q,r}')\n"
                        "s={a,b}\n", 0, &e);

        T_NOERR(e);
        T_EQ_STR(value_of(d, "source", 0),
                 "[\"f-2.tar.gz\",\"f-2.tar.gz.sig\",\"a1\",\"a2\",\"b1\",\"b2\",\"x1\",\"x2\",\"x3\",\"a\",\"b\",\"c\","
                 "\"1\",\"5\",\"9\",\"{x}\",\"{q,r}\"]");
        T_EQ_STR(value_of(d, "s", 0), "\"{a,b}\"");
        json_decref(d);
}

static void test_shell__dynamic_constructs_are_marked_never_run(void)
{
        prc_err e;
        json_t *d = tok("a=$(touch /tmp/x)\nb=`id`\nc=$((1+2))\nd=$srcdir/x\ne=$'\\x00'\nf=(~root)\ng=(/*)\n"
                        "h=\"${x[@]}\"\ni=${!x}\nj=$1\nk=${x:0:1}\nl=(<(cat /etc/passwd))\n", 0, &e);
        static const char *const want[][2] = {
                { "a", "[\"command-substitution\"]" }, { "b", "[\"command-substitution\"]" },
                { "c", "[\"arithmetic\"]" },           { "d", "[\"unknown-variable:srcdir\"]" },
                { "e", "[\"ansi-c-quoting\"]" },       { "f", "[\"tilde\"]" },
                { "g", "[\"glob\"]" },                 { "h", "[\"array-expansion:x\"]" },
                { "i", "[\"indirect-expansion\"]" },   { "j", "[\"special-parameter:1\"]" },
                { "k", "[\"unsupported-expansion:x\"]" }, { "l", "[\"process-substitution\"]" },
        };

        T_NOERR(e);
        for (size_t i = 0; i < PRC_ARRAY_LEN(want); i++) {
                json_t *a = assign(d, want[i][0], 0);
                T_ASSERT(json_is_false(json_object_get(a, "static")));
                T_ASSERT(json_object_get(a, "value") == NULL);
                T_EQ_STR(canon(json_object_get(a, "dynamic")), want[i][1]);
        }
        json_decref(d);
}

static void test_shell__conditional_assignment_poisons_the_variable(void)
{
        prc_err e;
        json_t *d = tok("v=1\nif [[ $CARCH == x ]]; then\n  v=2\nfi\nw=$v\ncase $x in a) z=1;; esac\n"
                        "[[ -n $x ]] && c=1\nu=1\n", 0, &e);
        json_t *a;

        T_NOERR(e);
        a = assign(d, "v", 1);
        T_ASSERT(json_is_true(json_object_get(a, "conditional")));
        T_ASSERT(json_is_false(json_object_get(a, "static")));
        T_EQ_INT(json_integer_value(json_object_get(a, "line")), 3);
        T_EQ_STR(value_of(d, "w", 0), "(dynamic)");
        T_EQ_STR(canon(json_object_get(assign(d, "w", 0), "dynamic")), "[\"dynamic-variable:v\"]");
        T_ASSERT(json_is_true(json_object_get(assign(d, "z", 0), "conditional")));
        T_ASSERT(json_is_true(json_object_get(assign(d, "c", 0), "conditional")));
        T_ASSERT(json_is_false(json_object_get(assign(d, "u", 0), "conditional")));
        T_EQ_INT(json_array_size(json_object_get(d, "commands")), 3);
        json_decref(d);
}

static void test_shell__append_extends_static_values(void)
{
        prc_err e;
        json_t *d = tok("a=(x)\na+=(y z)\ns=ab\ns+=cd\nt=$a\n", 0, &e);

        T_NOERR(e);
        T_ASSERT(json_is_true(json_object_get(assign(d, "a", 1), "append")));
        T_EQ_STR(value_of(d, "s", 1), "\"cd\"");
        /* $arr is the first element; the table holds the whole appended array. */
        T_EQ_STR(value_of(d, "t", 0), "\"x\"");
        json_decref(d);
        d = tok("s=ab\ns+=cd\nt=$s\n", 0, &e);
        T_EQ_STR(value_of(d, "t", 0), "\"abcd\"");
        json_decref(d);
}

static void test_shell__functions_are_token_streams_with_lines(void)
{
        prc_err e;
        json_t *d = tok("pkgname=x\nbuild() {\n  cd \"$srcdir\" && make \\\n    -j2\n  cat <<EOF > f\nbody $x\nEOF\n}\n"
                        "function package {\n  install -Dm644 a b; }\necho done\n", 0, &e);
        json_t *fs, *f0, *f1;

        T_NOERR(e);
        fs = json_object_get(d, "functions");
        T_EQ_INT(json_array_size(fs), 2);
        f0 = json_array_get(fs, 0);
        f1 = json_array_get(fs, 1);
        T_EQ_STR(canon(f0), "{\"body\":[{\"line\":2,\"tokens\":[\"{\"]},"
                            "{\"line\":3,\"tokens\":[\"cd\",\"\\\"$srcdir\\\"\",\"&&\",\"make\",\"-j2\"]},"
                            "{\"heredocs\":[\"body $x\\n\"],\"line\":5,\"tokens\":[\"cat\",\"<<\",\"EOF\",\">\",\"f\"]},"
                            "{\"line\":8,\"tokens\":[\"}\"]}],\"line\":2,\"name\":\"build\"}");
        T_EQ_STR(json_string_value(json_object_get(f1, "name")), "package");
        T_EQ_STR(canon(json_object_get(d, "commands")),
                 "[{\"body\":[{\"line\":11,\"tokens\":[\"echo\",\"done\"]}],\"line\":11}]");
        json_decref(d);
}

static void test_shell__case_patterns_subshells_and_closers(void)
{
        prc_err e;
        json_t *d = tok("f() {\n  case \"$1\"\n  in done) x ;; (fi|esac) y ;;\n  *) { while true; do :; done }\n  esac\n"
                        "  ( cd a; make )\n  arr=(a b)\n}\ng() ( echo sub )\nv=${(M)zsh}\nk=1\n", 0, &e);
        json_t *fs;

        T_NOERR(e);
        fs = json_object_get(d, "functions");
        T_EQ_INT(json_array_size(fs), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(fs, 0), "name")), "f");
        T_EQ_INT(json_array_size(json_object_get(json_array_get(fs, 0), "body")), 8);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(fs, 1), "name")), "g");
        /* Not bash syntax: never evaluated, so not an error, but not static either. */
        T_EQ_STR(canon(json_object_get(assign(d, "v", 0), "dynamic")), "[\"unsupported-expansion\"]");
        T_ASSERT(json_is_false(json_object_get(assign(d, "k", 0), "conditional")));
        json_decref(d);
        expect_err("a=1\n)\n", 0, PRC_E_SHELL_SYNTAX, 2);
        expect_err("fi\n", 0, PRC_E_SHELL_SYNTAX, 1);
}

static void test_shell__unterminated_constructs(void)
{
        expect_err("a=1\nb='x\n\n", 0, PRC_E_SHELL_UNTERMINATED, 2);
        expect_err("a=1\nb=\"x\n", 0, PRC_E_SHELL_UNTERMINATED, 2);
        expect_err("a=(x\ny\n", 0, PRC_E_SHELL_UNTERMINATED, 1);
        expect_err("x\ncat <<EOF\nline\n", 0, PRC_E_SHELL_UNTERMINATED, 2);
        expect_err("a=$(echo\n", 0, PRC_E_SHELL_UNTERMINATED, 1);
        expect_err("a=${x\n", 0, PRC_E_SHELL_UNTERMINATED, 1);
        expect_err("a=`id\n", 0, PRC_E_SHELL_UNTERMINATED, 1);
        expect_err("f() {\n echo\n", 0, PRC_E_SHELL_UNTERMINATED, 0);
        expect_err("if true; then\n", 0, PRC_E_SHELL_UNTERMINATED, 0);
}

static void test_shell__nesting_is_bounded(void)
{
        prc_buf b;
        prc_err e;
        json_t *v;
        const char *const open[] = { "${x:-", "$(", "{a,", "$((" };
        const char *const close[] = { "}", ")", "}", "))" };

        for (size_t k = 0; k < PRC_ARRAY_LEN(open); k++) {
                prc_err_init(&e);
                prc_buf_init(&b, 1 << 20);
                T_ASSERT(prc_buf_puts(&b, k == 2 ? "a=(" : "a=\"", &e));
                for (int i = 0; i < 200; i++)
                        T_ASSERT(prc_buf_puts(&b, open[k], &e));
                for (int i = 0; i < 200; i++)
                        T_ASSERT(prc_buf_puts(&b, close[k], &e));
                T_ASSERT(prc_buf_puts(&b, k == 2 ? ")\n" : "\"\n", &e));
                v = prc_shell_tokenize(b.data, b.len, &prc_limits_default, 0, &e);
                if (v != NULL)
                        t_fail(__FILE__, __LINE__, "nesting of '%s' accepted", open[k]);
                T_ERR(e, PRC_E_SHELL_NESTING_LIMIT);
                prc_buf_clear(&b);
        }
}

static void test_shell__expansion_count_and_bytes_are_bounded(void)
{
        prc_buf b;
        prc_err e;

        expect_err("a=({1..99999999999})\n", 0, PRC_E_SHELL_EXPANSION_LIMIT, 1);
        expect_err("a=({-9223372036854775808..9223372036854775807})\n", 0, PRC_E_SHELL_EXPANSION_LIMIT, 1);
        /* A product reaches the byte bound (4x the input + 64 KiB) before the word count. */
        expect_err("a=({a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"
                   "{a,b}{a,b})\n", 0, PRC_E_SHELL_OUTPUT_LIMIT, 1);
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "a=lol\n", &e));
        for (int i = 0; i < 40; i++)
                T_ASSERT(prc_buf_puts(&b, "a=\"$a$a\"\n", &e));
        {
                json_t *v = prc_shell_tokenize(b.data, b.len, &prc_limits_default, 0, &e);
                T_ASSERT(v == NULL);
                T_ERR(e, PRC_E_SHELL_OUTPUT_LIMIT);
        }
        prc_buf_clear(&b);
}

static void test_shell__nul_invalid_utf8_limits_and_flags(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_shell_tokenize((const uint8_t *)"a=1\nb='x\0y'\n", 12, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.line, 2);
        expect_err("a=1\nb='\xFF'\n", 0, PRC_E_INVALID_UTF8, 2);
        lim.scalar_max = 8;
        prc_err_init(&e);
        v = prc_shell_tokenize((const uint8_t *)"a=123456789\n", 12, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        lim = prc_limits_default;
        lim.nodes_max = 4;
        prc_err_init(&e);
        v = prc_shell_tokenize((const uint8_t *)"a=(1 2 3 4 5)\n", 14, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        lim = prc_limits_default;
        lim.input_max = 3;
        prc_err_init(&e);
        v = prc_shell_tokenize((const uint8_t *)"a=1\n", 4, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        prc_err_init(&e);
        v = prc_shell_tokenize((const uint8_t *)"a=1\n", 4, &prc_limits_default, 1u << 5, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_USAGE);
}

static void test_shell__document_budget_refuses_a_flood_of_tiny_tokens(void)
{
        prc_buf b;
        prc_err e;
        json_t *v;

        /* 200k one-byte lines: each line entry costs ~600 heap bytes, past 32x + 16 MiB. */
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 22);
        T_ASSERT(prc_buf_puts(&b, "f() {\n", &e));
        for (int i = 0; i < 200000; i++)
                T_ASSERT(prc_buf_puts(&b, "a\n", &e));
        T_ASSERT(prc_buf_puts(&b, "}\n", &e));
        v = prc_shell_tokenize(b.data, b.len, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        T_ASSERT(strstr(e.msg, "document would exceed") != NULL);
        prc_buf_clear(&b);
}

static void test_shell__srcinfo_sections_and_fields(void)
{
        prc_err e;
        json_t *d = tok("# generated\npkgbase = foo\n\tpkgver = 1.0\n\tdepends = a\n\tdepends = b>=2\n\n"
                        "pkgname = foo\n\tdepends = c\n\npkgname = foo-docs\n", PRC_SHELL_SRCINFO, &e);

        T_NOERR(e);
        T_EQ_STR(canon(d), "{\"format\":\"srcinfo\",\"packages\":[{\"fields\":{\"depends\":[\"c\"]},\"line\":7,"
                           "\"name\":\"foo\"},{\"fields\":{},\"line\":10,\"name\":\"foo-docs\"}],"
                           "\"pkgbase\":{\"fields\":{\"depends\":[\"a\",\"b>=2\"],\"pkgver\":[\"1.0\"]},\"line\":2,"
                           "\"name\":\"foo\"}}");
        json_decref(d);
}

static void test_shell__srcinfo_errors(void)
{
        expect_err("pkgname = x\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_SYNTAX, 1);
        expect_err("\tpkgver = 1\npkgbase = x\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_SYNTAX, 1);
        expect_err("pkgbase = x\npkgname = y\npkgname = y\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_DUPLICATE, 3);
        expect_err("pkgbase = x\npkgbase = y\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_DUPLICATE, 2);
        expect_err("pkgbase = x\n\tno equals here\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_SYNTAX, 2);
        expect_err("# only a comment\n", PRC_SHELL_SRCINFO, PRC_E_SRCINFO_SYNTAX, 0);
}

static void test_shell__every_real_pkgbuild_and_srcinfo_tokenizes(void)
{
        char path[4096];
        const char *c = t_corpora();
        FILE *idx;
        char line[8192];
        unsigned n = 0;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "corpora absent: test_shell needs manifests/INDEX.tsv");
        snprintf(path, sizeof(path), "%s/manifests/INDEX.tsv", c);
        idx = fopen(path, "r");
        T_ASSERT(idx != NULL);
        while (fgets(line, sizeof(line), idx) != NULL) {
                char *f[6], *s = line, *slash;
                size_t len;
                char *text;
                prc_err e;
                json_t *v;
                int k;
                for (k = 0; k < 6 && s != NULL; k++) {
                        f[k] = s;
                        s = strchr(s, '\t');
                        if (s != NULL)
                                *s++ = 0;
                }
                if (k < 6)
                        continue;
                f[5][strcspn(f[5], "\n")] = 0;
                if (strcmp(f[5], "PKGBUILD") != 0 && strcmp(f[5], ".SRCINFO") != 0)
                        continue;
                slash = strchr(f[1], '/');
                T_ASSERT(slash != NULL);
                *slash = 0;
                snprintf(path, sizeof(path), "%s/manifests/%s/%s__%s/%s", c, f[0], f[1], slash + 1, f[3]);
                text = t_read(path, &len);
                prc_err_init(&e);
                v = prc_shell_tokenize((const uint8_t *)text, len, &prc_limits_default,
                                       f[5][0] == '.' ? PRC_SHELL_SRCINFO : PRC_SHELL_PKGBUILD, &e);
                if (v == NULL)
                        t_fail(__FILE__, __LINE__, "%s: %s line %u: %s", path, prc_err_name(e.cls), e.line, e.msg);
                json_decref(v);
                free(text);
                n++;
        }
        fclose(idx);
        T_ASSERT(n >= 40);
}

/* Every truncation and every single-bit flip of a valid PKGBUILD and .SRCINFO: one outcome, no crash. */
static void test_shell__truncation_and_bitflip_sweep(void)
{
        static const char pkgbuild[] =
                "pkgname=foo-git\npkgver=1_2\n_tag=v${pkgver//_/.}\narch=('x86_64' aarch64)\n"
                "depends=(\"bar>=${pkgver%_*}\" baz) # c\nsource=(\"$pkgname::git+https://e.org/${pkgname%-git}.git\" "
                "p{,.sig} {1..3})\nx=$(date) y=`id` z=$((1+2))\nif [[ $CARCH == x86_64 ]]; then depends+=(q); fi\n"
                "package() {\n  cat <<-EOF > \"$pkgdir/x\"\n\tbody ${x:-y}\n\tEOF\n  case $1 in a) b ;; esac\n}\n";
        static const char srcinfo[] = "pkgbase = foo\n\tpkgver = 1\n\tdepends = a\n\npkgname = foo\n\tdepends = b\n";
        const char *const docs[] = { pkgbuild, srcinfo };
        const unsigned flags[] = { PRC_SHELL_PKGBUILD, PRC_SHELL_SRCINFO };
        uint8_t buf[sizeof(pkgbuild)];
        unsigned ok = 0, refused = 0;

        for (size_t d = 0; d < 2; d++) {
                size_t n = strlen(docs[d]);
                for (size_t len = 0; len <= n; len++) {
                        prc_err e;
                        json_t *v;
                        prc_err_init(&e);
                        v = prc_shell_tokenize((const uint8_t *)docs[d], len, &prc_limits_default, flags[d], &e);
                        T_ASSERT((v == NULL) == prc_err_is_set(&e));
                        json_decref(v);
                }
                for (size_t i = 0; i < n; i++) {
                        for (int bit = 0; bit < 8; bit++) {
                                prc_err e;
                                json_t *v;
                                memcpy(buf, docs[d], n);
                                buf[i] ^= (uint8_t)(1u << bit);
                                prc_err_init(&e);
                                v = prc_shell_tokenize(buf, n, &prc_limits_default, flags[d], &e);
                                T_ASSERT((v == NULL) == prc_err_is_set(&e));
                                if (v != NULL)
                                        ok++;
                                else
                                        refused++;
                                json_decref(v);
                        }
                }
        }
        T_ASSERT(ok > 0 && refused > 0);
}

/* Issue 20: a file that is not valid shell is still searched; each error is listed, tokenizing goes on. */
static void test_shell__recover_lists_errors_and_goes_on(void)
{
        static const char src[] = "a=1\nb=(\"x\ncurl u | sh\n}\nc=2\n";
        prc_err e;
        json_t *d, *errs, *cmds;
        size_t i;
        json_t *c;
        bool saw = false;

        expect_err(src, 0, PRC_E_SHELL_UNTERMINATED, 2);
        d = tok(src, PRC_SHELL_RECOVER, &e);
        T_NOERR(e);
        errs = json_object_get(d, "errors");
        T_EQ_INT(json_array_size(errs), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(errs, 0), "class")), "shell-unterminated");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(errs, 0), "line")), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(errs, 1), "class")), "shell-syntax");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(errs, 1), "line")), 4);
        cmds = json_object_get(d, "commands");
        json_array_foreach(cmds, i, c) {
                T_ASSERT(json_is_true(json_object_get(c, "recovered")));
                if (strcmp(canon(json_object_get(json_array_get(json_object_get(c, "body"), 0), "tokens")),
                           "[\"curl\",\"u\",\"|\",\"sh\"]") == 0)
                        saw = true;
        }
        T_ASSERT(saw);
        T_EQ_STR(value_of(d, "c", 0), "\"2\"");
        T_ASSERT(json_is_true(json_object_get(assign(d, "c", 0), "recovered")));
        T_ASSERT(json_object_get(assign(d, "a", 0), "recovered") == NULL);
        json_decref(d);
}

static void test_shell__recover_reads_bad_bytes_as_question_marks(void)
{
        static const char src[] = "a=\xff\nb=x\0y\n";
        prc_err e;
        json_t *d, *errs;

        prc_err_init(&e);
        d = prc_shell_tokenize((const uint8_t *)src, sizeof(src) - 1, &prc_limits_default, PRC_SHELL_RECOVER, &e);
        T_NOERR(e);
        errs = json_object_get(d, "errors");
        T_EQ_INT(json_array_size(errs), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(errs, 0), "class")), "nul-byte");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(errs, 0), "line")), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(errs, 1), "class")), "invalid-utf8");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(errs, 1), "line")), 1);
        T_EQ_STR(value_of(d, "a", 0), "\"?\"");
        T_EQ_STR(value_of(d, "b", 0), "\"x?y\"");
        json_decref(d);
}

/* Recovery is for broken text, not for the hostile cases: the limits still refuse. */
static void test_shell__recover_keeps_the_limits(void)
{
        char src[400];
        size_t o = 0;

        o += (size_t)snprintf(src + o, sizeof(src) - o, "x=");
        for (int k = 0; k < 80; k++)
                o += (size_t)snprintf(src + o, sizeof(src) - o, "$(");
        for (int k = 0; k < 80; k++)
                o += (size_t)snprintf(src + o, sizeof(src) - o, ")");
        expect_err(src, PRC_SHELL_RECOVER, PRC_E_SHELL_NESTING_LIMIT, 1);
        expect_err("x=({1..1000000})\n", PRC_SHELL_RECOVER, PRC_E_SHELL_EXPANSION_LIMIT, 1);
}

static void test_shell__substitution_bodies_are_tokenized(void)
{
        prc_err e;
        json_t *d = tok("pkgver=$(curl -s u)\nbuild() {\n  bash -c \"$(wget -O- v | sh)\" `id -u`\n  x=<(cat f)\n}\n",
                        0, &e);
        json_t *line;

        T_NOERR(e);
        T_EQ_STR(canon(json_object_get(assign(d, "pkgver", 0), "subst")),
                 "[{\"line\":1,\"tokens\":[\"curl\",\"-s\",\"u\"]}]");
        line = json_array_get(json_object_get(json_array_get(json_object_get(d, "functions"), 0), "body"), 1);
        T_EQ_STR(canon(json_object_get(line, "subst")),
                 "[{\"line\":3,\"tokens\":[\"wget\",\"-O-\",\"v\",\"|\",\"sh\"]},{\"line\":3,\"tokens\":[\"id\",\"-u\"]}]");
        line = json_array_get(json_object_get(json_array_get(json_object_get(d, "functions"), 0), "body"), 2);
        T_EQ_STR(canon(json_object_get(line, "subst")), "[{\"line\":4,\"tokens\":[\"cat\",\"f\"]}]");
        json_decref(d);
        /* Substitutions nest: each body carries its own. */
        d = tok("build() { a \"$(b \"$(c)\")\"; }\n", 0, &e);
        T_NOERR(e);
        line = json_array_get(json_object_get(json_array_get(json_object_get(d, "functions"), 0), "body"), 0);
        T_EQ_STR(canon(json_object_get(json_array_get(json_object_get(line, "subst"), 0), "subst")),
                 "[{\"line\":1,\"tokens\":[\"c\"]}]");
        json_decref(d);
}

static void test_shell__srcinfo_recover_skips_bad_lines(void)
{
        prc_err e;
        json_t *d = tok("pkgbase = x\n\tpkgver = 1\nnot a field\npkgname = x\npkgname = x\n", PRC_SHELL_SRCINFO |
                        PRC_SHELL_RECOVER, &e);

        T_NOERR(e);
        T_EQ_INT(json_array_size(json_object_get(d, "errors")), 2);
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(json_object_get(d, "errors"), 0), "line")), 3);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(d, "errors"), 1), "class")),
                 "srcinfo-duplicate");
        T_EQ_INT(json_array_size(json_object_get(d, "packages")), 1);
        json_decref(d);
}

static const prc_test tests[] = {
        T(test_shell__scalars_arrays_and_quoting),
        T(test_shell__parameter_expansion_is_static_when_known),
        T(test_shell__brace_expansion_in_arrays_only),
        T(test_shell__dynamic_constructs_are_marked_never_run),
        T(test_shell__conditional_assignment_poisons_the_variable),
        T(test_shell__append_extends_static_values),
        T(test_shell__functions_are_token_streams_with_lines),
        T(test_shell__case_patterns_subshells_and_closers),
        T(test_shell__unterminated_constructs),
        T(test_shell__nesting_is_bounded),
        T(test_shell__expansion_count_and_bytes_are_bounded),
        T(test_shell__nul_invalid_utf8_limits_and_flags),
        T(test_shell__document_budget_refuses_a_flood_of_tiny_tokens),
        T(test_shell__srcinfo_sections_and_fields),
        T(test_shell__srcinfo_errors),
        T(test_shell__every_real_pkgbuild_and_srcinfo_tokenizes),
        T(test_shell__truncation_and_bitflip_sweep),
        T(test_shell__recover_lists_errors_and_goes_on),
        T(test_shell__recover_reads_bad_bytes_as_question_marks),
        T(test_shell__recover_keeps_the_limits),
        T(test_shell__substitution_bodies_are_tokenized),
        T(test_shell__srcinfo_recover_skips_bad_lines),
};
PRC_SUITE(shell, tests)
