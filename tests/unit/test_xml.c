/*
 * test_xml.c - the bounded XML reader: document shape, the no-DTD policy,
 * encodings, every limit with its class and location.
 */
#include "t.h"

#include <stdlib.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "content/parsers/xml.h"

static json_t *parse(const char *s, unsigned flags, prc_err *e)
{
        prc_err_init(e);
        return prc_xml_parse((const uint8_t *)s, strlen(s), &prc_limits_default, flags, e);
}

/* Canonical JSON of v into a static buffer (test convenience). */
static const char *canon(const json_t *v)
{
        static char out[8192];
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

static void expect_err(const char *doc, prc_errclass cls, uint32_t line)
{
        prc_err e;
        json_t *v = parse(doc, 0, &e);

        if (v != NULL)
                t_fail(__FILE__, __LINE__, "accepted: %s", doc);
        T_ERR(e, cls);
        if (line != 0)
                T_EQ_INT(e.line, line);
}

static void test_xml__element_shape_with_namespaces_and_text(void)
{
        prc_err e;
        json_t *v = parse("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                          "<project xmlns=\"urn:m\" xmlns:x=\"urn:x\" x:a=\"1\" b=\"&lt;2&gt;\">\n"
                          "  <dep>g:a&amp;b&#x41;</dep>\n"
                          "  <x:e/><!-- gone --><?pi gone?>\n"
                          "</project>\n", 0, &e);

        T_NOERR(e);
        T_ASSERT(v != NULL);
        T_EQ_STR(canon(v), "{\"attrs\":{\"b\":\"<2>\",\"x:a\":\"1\",\"xmlns\":\"urn:m\",\"xmlns:x\":\"urn:x\"},"
                           "\"children\":[{\"children\":[\"g:a&bA\"],\"name\":\"dep\",\"ns\":\"urn:m\"},"
                           "{\"name\":\"x:e\",\"ns\":\"urn:x\"}],"
                           "\"name\":\"project\",\"ns\":\"urn:m\"}");
        json_decref(v);
}

static void test_xml__no_namespace_has_no_ns_field(void)
{
        prc_err e;
        json_t *v = parse("<packages><package id=\"A\" version=\"1.0\"/></packages>", 0, &e);

        T_NOERR(e);
        T_EQ_STR(canon(v), "{\"children\":[{\"attrs\":{\"id\":\"A\",\"version\":\"1.0\"},"
                           "\"name\":\"package\"}],\"name\":\"packages\"}");
        json_decref(v);
}

static void test_xml__cdata_and_text_merge_and_whitespace_is_dropped(void)
{
        prc_err e;
        json_t *v = parse("<a>\n  <b>x<![CDATA[<y>]]>z</b>\n</a>", 0, &e);

        T_NOERR(e);
        T_EQ_STR(canon(v), "{\"children\":[{\"children\":[\"x<y>z\"],\"name\":\"b\"}],\"name\":\"a\"}");
        json_decref(v);
        v = parse("<a>\n <b/></a>", PRC_XML_KEEP_WHITESPACE, &e);
        T_NOERR(e);
        T_EQ_STR(canon(v), "{\"children\":[\"\\n \",{\"name\":\"b\"}],\"name\":\"a\"}");
        json_decref(v);
}

static void test_xml__utf8_bom_is_accepted(void)
{
        prc_err e;
        json_t *v = parse("\xEF\xBB\xBF<a>\xC3\xA9</a>", 0, &e);

        T_NOERR(e);
        T_EQ_STR(canon(v), "{\"children\":[\"\xC3\xA9\"],\"name\":\"a\"}");
        json_decref(v);
}

static void test_xml__every_doctype_is_refused(void)
{
        expect_err("<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY x \"lol\">]>\n<a>&x;</a>", PRC_E_XML_DOCTYPE, 2);
        expect_err("<!DOCTYPE a>\n<a/>", PRC_E_XML_DOCTYPE, 1);
        expect_err("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>", PRC_E_XML_DOCTYPE, 1);
        expect_err("<!DOCTYPE a [<!ENTITY % p SYSTEM \"http://127.0.0.1/\"> %p;]><a/>", PRC_E_XML_DOCTYPE, 1);
}

static void test_xml__undeclared_entity_is_xml_entity(void)
{
        expect_err("<a>\n&foo;</a>", PRC_E_XML_ENTITY, 2);
        expect_err("<a b=\"&foo;\"/>", PRC_E_XML_ENTITY, 1);
}

/* UTF-16 with a byte order mark, built unit by unit. */
struct u16b {
        uint8_t b[512];
        size_t  n;
        bool    be;
};

static void u16_unit(struct u16b *w, unsigned u)
{
        w->b[w->n++] = (uint8_t)(w->be ? u >> 8 : u & 0xFF);
        w->b[w->n++] = (uint8_t)(w->be ? u & 0xFF : u >> 8);
}

static void u16_str(struct u16b *w, const char *ascii)
{
        while (*ascii)
                u16_unit(w, (unsigned char)*ascii++);
}

static void u16_init(struct u16b *w, bool be)
{
        w->n = 0;
        w->be = be;
        u16_unit(w, 0xFEFF);
}

static json_t *parse16(const struct u16b *w, size_t n, prc_err *e)
{
        prc_err_init(e);
        return prc_xml_parse(w->b, n, &prc_limits_default, 0, e);
}

/*
 * Issue 16: encodings expat decodes itself are read, and the document is
 * UTF-8: ISO-8859-1 and US-ASCII by their declaration, UTF-16 after a byte
 * order mark (with or without a declaration, big- or little-endian).
 */
static void test_xml__encodings_expat_decodes_are_read_as_utf8(void)
{
        static const char *const latin1[] = { "ISO-8859-1", "iso-8859-1" };
        struct u16b w;
        prc_err e;
        json_t *v;
        char doc[200];

        for (size_t i = 0; i < PRC_ARRAY_LEN(latin1); i++) {
                snprintf(doc, sizeof(doc), "<?xml version=\"1.0\" encoding=\"%s\"?>\n<caf\xE9 n=\"\xFF\">\xE0 \x85</caf\xE9>",
                         latin1[i]);
                v = parse(doc, 0, &e);
                T_NOERR(e);
                T_ASSERT(v != NULL);
                T_EQ_STR(canon(v), "{\"attrs\":{\"n\":\"\xC3\xBF\"},\"children\":[\"\xC3\xA0 \xC2\x85\"],"
                                   "\"name\":\"caf\xC3\xA9\"}");
                json_decref(v);
        }
        v = parse("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a>x</a>", 0, &e);
        T_NOERR(e);
        T_EQ_STR(canon(v), "{\"children\":[\"x\"],\"name\":\"a\"}");
        json_decref(v);
        for (int be = 0; be < 2; be++) {
                u16_init(&w, be);
                if (be == 0)
                        u16_str(&w, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>");
                u16_str(&w, "<a b=\"");
                u16_unit(&w, 0xE9);
                u16_str(&w, "\">");
                u16_unit(&w, 0xD83D);   /* U+1F600 as a surrogate pair */
                u16_unit(&w, 0xDE00);
                u16_unit(&w, 0x4E2D);
                u16_str(&w, "</a>");
                v = parse16(&w, w.n, &e);
                T_NOERR(e);
                T_ASSERT(v != NULL);
                T_EQ_STR(canon(v), "{\"attrs\":{\"b\":\"\xC3\xA9\"},\"children\":[\"\xF0\x9F\x98\x80\xE4\xB8\xAD\"],"
                                   "\"name\":\"a\"}");
                json_decref(v);
        }
}

/* What expat cannot decode is still refused by name (xml-encoding). */
static void test_xml__encodings_expat_cannot_decode_are_refused_by_name(void)
{
        struct u16b w;
        prc_err e;

        expect_err("<?xml version=\"1.0\" encoding=\"x-evil\"?><a/>", PRC_E_XML_ENCODING, 1);
        expect_err("<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>\x80</a>", PRC_E_XML_ENCODING, 1);
        expect_err("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a/>", PRC_E_XML_ENCODING, 1);
        /* 8-bit bytes that declare UTF-16 (expat: the declared encoding is incorrect). */
        expect_err("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>", PRC_E_XML_ENCODING, 1);
        /* A UTF-8 byte order mark contradicting the declaration (expat would switch to Latin-1). */
        expect_err("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xE9</a>", PRC_E_XML_ENCODING, 1);
        /* A UTF-16 declaration without a byte order mark; other NUL bytes stay nul-byte. */
        prc_err_init(&e);
        T_ASSERT(prc_xml_parse((const uint8_t *)"<\0?\0x\0m\0l\0 \0?\0>\0", 18, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_XML_ENCODING);
        prc_err_init(&e);
        T_ASSERT(prc_xml_parse((const uint8_t *)"\0<\0?\0x\0m\0l\0 \0?\0>", 18, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_XML_ENCODING);
        prc_err_init(&e);
        T_ASSERT(prc_xml_parse((const uint8_t *)"\0<doc/>", 7, &prc_limits_default, 0, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        /* A UTF-16 byte order mark under a declaration of UTF-8. */
        u16_init(&w, false);
        u16_str(&w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>");
        T_ASSERT(parse16(&w, w.n, &e) == NULL);
        T_ERR(e, PRC_E_XML_ENCODING);
}

/*
 * Ill-formed UTF-16 is refused before expat decodes it: expat 2.5 turns a
 * high surrogate followed by any unit into some other character.
 */
static void test_xml__ill_formed_utf16_is_refused_with_its_place(void)
{
        struct u16b w;
        prc_err e;

        u16_init(&w, false);
        u16_str(&w, "<a>\nx");
        u16_unit(&w, 0xD83D);
        u16_str(&w, "x</a>");
        T_ASSERT(parse16(&w, w.n, &e) == NULL);
        T_ERR(e, PRC_E_XML_INVALID_UTF16);
        T_EQ_INT(e.off, 12);
        T_EQ_INT(e.line, 2);
        T_EQ_INT(e.col, 2);
        u16_init(&w, true);
        u16_str(&w, "<a>");
        u16_unit(&w, 0xDE00);
        u16_str(&w, "</a>");
        T_ASSERT(parse16(&w, w.n, &e) == NULL);
        T_ERR(e, PRC_E_XML_INVALID_UTF16);
        u16_init(&w, true);
        u16_str(&w, "<a/>");
        u16_unit(&w, 0xD800);   /* a high surrogate as the last unit */
        T_ASSERT(parse16(&w, w.n, &e) == NULL);
        T_ERR(e, PRC_E_XML_INVALID_UTF16);
        u16_init(&w, false);
        u16_str(&w, "<a/>");
        T_ASSERT(parse16(&w, w.n - 1, &e) == NULL);
        T_ERR(e, PRC_E_XML_INVALID_UTF16);
        u16_init(&w, false);
        u16_str(&w, "<a>\n\n");
        u16_unit(&w, 0);
        u16_str(&w, "</a>");
        T_ASSERT(parse16(&w, w.n, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.line, 3);
}

/* Declared UTF-8 (or US-ASCII, or nothing): the input is still checked whole, with the old class and place. */
static void test_xml__declared_utf8_is_still_checked_before_parsing(void)
{
        prc_err e;
        json_t *v;

        v = parse("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\n x\xC0\xAF</a>", 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_EQ_INT(e.line, 3);
        T_EQ_INT(e.col, 3);
        expect_err("<?xml version=\"1.0\"?><a>\xE9</a>", PRC_E_INVALID_UTF8, 1);
        expect_err("<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a b='\xE9'/>", PRC_E_INVALID_UTF8, 1);
        /* Invalid UTF-8 before a malformed declaration's end: still invalid-utf8, as before issue 16. */
        expect_err("<?xml version=\"1.0\" encoding=\"\xE9\"?><a/>", PRC_E_INVALID_UTF8, 1);
        /* A processing instruction whose target starts with "xml" is no declaration. */
        expect_err("<?xml-stylesheet href=\"a\"?><a>\xE9</a>", PRC_E_INVALID_UTF8, 1);
}

static void test_xml__invalid_utf8_and_nul_are_located(void)
{
        prc_err e;
        json_t *v;

        expect_err("<a>\n\n x\xC0\xAF</a>", PRC_E_INVALID_UTF8, 3);
        prc_err_init(&e);
        v = parse("<a>\n\n x\xED\xA0\x80</a>", 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_EQ_INT(e.off, 7);
        T_EQ_INT(e.col, 3);
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)"<a>\nx\0</a>", 10, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_EQ_INT(e.line, 2);
        T_EQ_INT(e.off, 5);
        expect_err("<a>&#0;</a>", PRC_E_XML_SYNTAX, 1);
}

static void test_xml__not_well_formed_is_xml_syntax_with_location(void)
{
        prc_err e;
        json_t *v;

        expect_err("<a>\n<b></a>", PRC_E_XML_SYNTAX, 2);
        expect_err("<a/><b/>", PRC_E_XML_SYNTAX, 1);
        expect_err("", PRC_E_XML_SYNTAX, 0);
        expect_err("<a x=\"1\" x=\"2\"/>", PRC_E_XML_SYNTAX, 1);
        /* Same expanded name through two prefixes: a namespace well-formedness error. */
        expect_err("<a xmlns:p=\"u\" xmlns:q=\"u\" p:x=\"1\" q:x=\"2\"/>", PRC_E_XML_SYNTAX, 1);
        expect_err("<a><![CDATA[x</a>", PRC_E_XML_SYNTAX, 1);
        prc_err_init(&e);
        v = parse("<a>\n  <b>\n</a>", 0, &e);
        T_ASSERT(v == NULL);
        T_EQ_INT(e.line, 3);
        T_EQ_INT(e.col, 3);
}

static void test_xml__depth_limit(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;
        const char *ok = "<a><b><c/></b></a>", *deep = "<a><b><c><d/></c></b></a>";

        lim.depth_max = 3;
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)ok, strlen(ok), &lim, 0, &e);
        T_NOERR(e);
        json_decref(v);
        v = prc_xml_parse((const uint8_t *)deep, strlen(deep), &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_DEPTH_LIMIT);
        T_EQ_INT(e.line, 1);
}

static void test_xml__nodes_limit_counts_elements_and_text(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;
        const char *three = "<a><b/>t</a>", *four = "<a><b/>t<c/></a>";

        lim.nodes_max = 3;
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)three, strlen(three), &lim, 0, &e);
        T_NOERR(e);
        json_decref(v);
        v = prc_xml_parse((const uint8_t *)four, strlen(four), &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
}

static void test_xml__attribute_count_limit(void)
{
        prc_buf b;
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "<a", &e));
        for (int i = 0; i < PRC_XML_ATTRS_MAX; i++)
                T_ASSERT(prc_buf_printf(&b, &e, " a%d=\"v\"", i));
        T_ASSERT(prc_buf_puts(&b, "/>", &e));
        v = prc_xml_parse(b.data, b.len, &prc_limits_default, 0, &e);
        T_NOERR(e);
        T_EQ_INT(json_object_size(json_object_get(v, "attrs")), PRC_XML_ATTRS_MAX);
        json_decref(v);
        b.len -= 2;
        T_ASSERT(prc_buf_puts(&b, " z=\"1\"/>", &e));
        v = prc_xml_parse(b.data, b.len, &prc_limits_default, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_XML_ATTRS_LIMIT);
        prc_buf_clear(&b);
}

static void test_xml__scalar_limit_on_text_attribute_and_name(void)
{
        prc_limits lim = prc_limits_default;
        const char *cases[] = { "<a>0123456789abcdefX</a>", "<a v=\"0123456789abcdefX\"/>",
                                "<a0123456789abcdefX/>", "<a>01234567<![CDATA[89abcdefX]]></a>" };
        prc_err e;
        json_t *v;

        lim.scalar_max = 16;
        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                prc_err_init(&e);
                v = prc_xml_parse((const uint8_t *)cases[i], strlen(cases[i]), &lim, 0, &e);
                if (v != NULL)
                        t_fail(__FILE__, __LINE__, "accepted %s", cases[i]);
                T_ERR(e, PRC_E_SCALAR_LIMIT);
        }
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)"<a>0123456789abcdef</a>", 23, &lim, 0, &e);
        T_NOERR(e);
        json_decref(v);
}

static void test_xml__tree_budget_refuses_a_flood_of_tiny_elements(void)
{
        prc_limits lim = prc_limits_default;
        size_t n = 512u << 10, k;
        uint8_t *p = malloc(n + 16);
        prc_err e;
        json_t *v;

        /* 4-byte elements cost ~500 heap bytes each: past 32x + 16 MiB long before nodes_max. */
        T_ASSERT(p != NULL);
        memcpy(p, "<r>", 3);
        for (k = 3; k + 4 <= n; k += 4)
                memcpy(p + k, "<a/>", 4);
        memcpy(p + k, "</r>", 4);
        lim.input_max = n + 16;
        prc_err_init(&e);
        v = prc_xml_parse(p, k + 4, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_NODES_LIMIT);
        T_ASSERT(strstr(e.msg, "document tree") != NULL);
        free(p);
}

static void test_xml__input_cap_and_flags(void)
{
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *v;

        lim.input_max = 4;
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)"<a/> ", 5, &lim, 0, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)"<a/>", 4, &prc_limits_default, 1u << 7, &e);
        T_ASSERT(v == NULL);
        T_ERR(e, PRC_E_USAGE);
}

static void test_xml__real_pom_shape_for_extractors(void)
{
        char path[4096];
        const char *c = t_corpora();
        char *text;
        size_t n;
        prc_err e;
        json_t *v, *ch;
        size_t i;
        bool saw_deps = false;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "corpora absent: test_xml needs manifests/java");
        snprintf(path, sizeof(path), "%s/manifests/java/google__gson/pom.xml", c);
        text = t_read(path, &n);
        prc_err_init(&e);
        v = prc_xml_parse((const uint8_t *)text, n, &prc_limits_default, 0, &e);
        T_NOERR(e);
        T_EQ_STR(json_string_value(json_object_get(v, "name")), "project");
        T_EQ_STR(json_string_value(json_object_get(v, "ns")), "http://maven.apache.org/POM/4.0.0");
        json_array_foreach(json_object_get(v, "children"), i, ch)
                if (json_is_object(ch) && strcmp(json_string_value(json_object_get(ch, "name")), "modules") == 0)
                        saw_deps = true;
        T_ASSERT(saw_deps);
        json_decref(v);
        free(text);
}

/* Every truncation and every single-bit flip of a valid document: exactly one outcome, no crash. */
static void test_xml__truncation_and_bitflip_sweep(void)
{
        static const char doc[] =
                "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                "<project xmlns=\"urn:m\" xmlns:x=\"urn:x\" x:a=\"1\">\n"
                "  <dependencies><dependency><groupId>g&amp;h</groupId>\n"
                "  <version>[1.0,2.0)</version><![CDATA[<c>]]><!-- c --><?pi x?></dependency></dependencies>\n"
                "</project>\n";
        size_t n = sizeof(doc) - 1;
        uint8_t buf[sizeof(doc)];
        unsigned ok = 0, refused = 0;

        for (size_t len = 0; len <= n; len++) {
                prc_err e;
                json_t *v;
                prc_err_init(&e);
                v = prc_xml_parse((const uint8_t *)doc, len, &prc_limits_default, 0, &e);
                T_ASSERT((v == NULL) == prc_err_is_set(&e));
                json_decref(v);
        }
        for (size_t i = 0; i < n; i++) {
                for (int bit = 0; bit < 8; bit++) {
                        prc_err e;
                        json_t *v;
                        memcpy(buf, doc, n);
                        buf[i] ^= (uint8_t)(1u << bit);
                        prc_err_init(&e);
                        v = prc_xml_parse(buf, n, &prc_limits_default, 0, &e);
                        T_ASSERT((v == NULL) == prc_err_is_set(&e));
                        if (v != NULL)
                                ok++;
                        else
                                refused++;
                        json_decref(v);
                }
        }
        /* Both outcomes occur, so the sweep exercises the success and the error paths. */
        T_ASSERT(ok > 0 && refused > 0);
}

static const prc_test tests[] = {
        T(test_xml__element_shape_with_namespaces_and_text),
        T(test_xml__no_namespace_has_no_ns_field),
        T(test_xml__cdata_and_text_merge_and_whitespace_is_dropped),
        T(test_xml__utf8_bom_is_accepted),
        T(test_xml__every_doctype_is_refused),
        T(test_xml__undeclared_entity_is_xml_entity),
        T(test_xml__encodings_expat_decodes_are_read_as_utf8),
        T(test_xml__encodings_expat_cannot_decode_are_refused_by_name),
        T(test_xml__ill_formed_utf16_is_refused_with_its_place),
        T(test_xml__declared_utf8_is_still_checked_before_parsing),
        T(test_xml__invalid_utf8_and_nul_are_located),
        T(test_xml__not_well_formed_is_xml_syntax_with_location),
        T(test_xml__depth_limit),
        T(test_xml__nodes_limit_counts_elements_and_text),
        T(test_xml__attribute_count_limit),
        T(test_xml__scalar_limit_on_text_attribute_and_name),
        T(test_xml__tree_budget_refuses_a_flood_of_tiny_elements),
        T(test_xml__input_cap_and_flags),
        T(test_xml__real_pom_shape_for_extractors),
        T(test_xml__truncation_and_bitflip_sweep),
};
PRC_SUITE(xml, tests)
