/*
 * test_kept.c - the worker's kept XML, TOML and JSON trees (base/kept.h): the
 * parser's next call on exactly the same bytes (by address), limits and
 * flags takes the kept tree, any other call parses anew and leaves the slot
 * alone, a taken or dropped slot serves nobody; and the TOML check that
 * decides whether a verdict's tree (typed unsafe integers) may be kept.
 */
#include "t.h"

#include <string.h>

#include "base/json_strict.h"
#include "base/kept.h"
#include "content/parsers/toml.h"
#include "content/parsers/xml.h"

static void test_kept__an_xml_tree_serves_exactly_its_own_key(void)
{
        static const char x[] = "<project><a>1</a><b k=\"v\"/></project>";
        const uint8_t *p = (const uint8_t *)x;
        const size_t n = sizeof(x) - 1;
        char copy[sizeof(x)];
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *kept, *v;

        memcpy(copy, x, sizeof(x));
        prc_err_init(&e);
        kept = prc_xml_parse(p, n, &lim, 0, &e);
        T_NOERR(e);
        T_ASSERT(kept != NULL);
        prc_kept_put(PRC_KEPT_XML, p, n, &lim, 0, kept, NULL, NULL);
        /* Another address, length, flags or limits, or another parser: parsed anew, the slot kept. */
        v = prc_xml_parse((const uint8_t *)copy, n, &lim, 0, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        v = prc_xml_parse(p, n - 1, &lim, 0, &e);      /* cut inside the end tag: refused */
        T_ASSERT(v == NULL);
        T_ASSERT(prc_err_is_set(&e));
        prc_err_init(&e);
        v = prc_xml_parse(p, n, &lim, PRC_XML_KEEP_WHITESPACE, &e);
        T_ASSERT(v != NULL && v != kept);
        json_decref(v);
        lim.depth_max--;
        v = prc_xml_parse(p, n, &lim, 0, &e);
        T_ASSERT(v != NULL && v != kept);
        json_decref(v);
        lim.depth_max++;
        T_ASSERT(prc_kept_take(PRC_KEPT_TOML, p, n, &lim, 0, NULL) == NULL);
        /* The key itself: taken once. */
        v = prc_xml_parse(p, n, &lim, 0, &e);
        T_NOERR(e);
        T_ASSERT(v == kept);
        v = prc_xml_parse(p, n, &lim, 0, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        json_decref(kept);
        /* Dropped, or replaced by another put: that tree goes (under ASan nothing leaks nor is freed twice). */
        prc_kept_put(PRC_KEPT_XML, p, n, &lim, 0, prc_xml_parse(p, n, &lim, 0, &e), NULL, NULL);
        prc_kept_drop();
        T_ASSERT(prc_kept_take(PRC_KEPT_XML, p, n, &lim, 0, NULL) == NULL);
        prc_kept_put(PRC_KEPT_XML, p, n, &lim, 0, prc_xml_parse(p, n, &lim, 0, &e), NULL, NULL);
        prc_kept_put(PRC_KEPT_XML, p, n, &lim, 0, prc_xml_parse(p, n, &lim, 0, &e), NULL, NULL);
        v = prc_kept_take(PRC_KEPT_XML, p, n, &lim, 0, NULL);
        T_ASSERT(v != NULL);
        json_decref(v);
        prc_kept_drop();        /* an empty slot drops nothing */
}

static void test_kept__a_toml_tree_serves_exactly_its_own_key(void)
{
        static const char t[] = "[package]\nname = \"a\"\nversion = \"1.0.0\"\n";
        const uint8_t *p = (const uint8_t *)t;
        const size_t n = sizeof(t) - 1;
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *kept, *v;

        prc_err_init(&e);
        kept = prc_toml_parse(p, n, &lim, 0, &e);
        T_NOERR(e);
        prc_kept_put(PRC_KEPT_TOML, p, n, &lim, 0, kept, NULL, NULL);
        T_ASSERT(prc_kept_take(PRC_KEPT_XML, p, n, &lim, 0, NULL) == NULL);
        v = prc_toml_parse(p, n, &lim, PRC_TOML_UNSAFE_INT_TYPED, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        v = prc_toml_parse(p, n, &lim, 0, &e);
        T_ASSERT(v == kept);
        json_decref(v);
        v = prc_toml_parse(p, n, &lim, 0, &e);
        T_ASSERT(v != NULL && v != kept);
        json_decref(v);
}

/*
 * JSON's: prc_json_parse takes it for its bytes and limits under its flags or more, nothing else;
 * prc_kept_taken says whether it was taken since the put.
 */
static void test_kept__a_json_tree_serves_exactly_its_own_key(void)
{
        static const char j[] = "{\"a\": [1, 2.5, \"x\"], \"b\": {}}";
        const uint8_t *p = (const uint8_t *)j;
        const size_t n = sizeof(j) - 1;
        prc_limits lim = prc_limits_default;
        prc_err e;
        json_t *kept, *v;

        prc_err_init(&e);
        kept = prc_json_parse(p, n, &lim, PRC_JSON_ALLOW_FLOAT, &e);
        T_NOERR(e);
        prc_kept_put(PRC_KEPT_JSON, p, n, &lim, PRC_JSON_ALLOW_FLOAT, kept, NULL, NULL);
        T_ASSERT(!prc_kept_taken());
        T_ASSERT(prc_kept_take(PRC_KEPT_TOML, p, n, &lim, PRC_JSON_ALLOW_FLOAT, NULL) == NULL);
        /* Other flags (here: no reals, so refused) or limits: parsed anew, the slot kept. */
        v = prc_json_parse(p, n, &lim, 0, &e);
        T_ASSERT(v == NULL && prc_err_is_set(&e));
        prc_err_init(&e);
        lim.nodes_max--;
        v = prc_json_parse(p, n, &lim, PRC_JSON_ALLOW_FLOAT, &e);
        T_ASSERT(v != NULL && v != kept && json_equal(v, kept));
        json_decref(v);
        lim.nodes_max++;
        T_ASSERT(!prc_kept_taken());
        /* These flags, or more (each only widens what the reader accepts): taken, once. */
        v = prc_json_parse(p, n, &lim, PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT, &e);
        T_NOERR(e);
        T_ASSERT(v == kept);
        T_ASSERT(prc_kept_taken());
        json_decref(v);
        /* Its own flags take it too; then the slot is empty. */
        kept = prc_json_parse(p, n, &lim, PRC_JSON_ALLOW_FLOAT, &e);
        prc_kept_put(PRC_KEPT_JSON, p, n, &lim, PRC_JSON_ALLOW_FLOAT, kept, NULL, NULL);
        v = prc_json_parse(p, n, &lim, PRC_JSON_ALLOW_FLOAT, &e);
        T_NOERR(e);
        T_ASSERT(v == kept);
        T_ASSERT(prc_kept_take_within(PRC_KEPT_JSON, p, n, &lim, PRC_JSON_ALLOW_FLOAT) == NULL);
        json_decref(v);
        prc_kept_drop();
        T_ASSERT(!prc_kept_taken());
}

/*
 * A tree made with PRC_TOML_UNSAFE_INT_TYPED holds a typed integer exactly
 * when the bytes hold one beyond +-(2^53-1), wherever it sits; without one
 * it equals the tree made without the flag (what the worker relies on to
 * keep the verdict's tree for the extractor).
 */
static void test_kept__toml_typed_integers_are_found_wherever_they_sit(void)
{
        static const struct {
                const char *text;
                bool        typed;
        } cases[] = {
                { "a = 9007199254740991\nb = -9007199254740991\n", false },
                { "a = 9007199254740992\n", true },
                { "a = -9007199254740992\n", true },
                { "[x.y]\nz = [1, [2, {w = 0x7fffffffffffffff}]]\n", true },
                { "[[p]]\nq = 1\n[[p]]\nq = 9223372036854775807\n", true },
                { "d = 1979-05-27\nf = 1.5\nt = 07:32:00\ns = \"9007199254740993\"\n", false },
                { "[[p]]\nq = 1.0e300\nr = { s = [ 1979-05-27T07:32:00Z ] }\n", false },
        };
        prc_limits lim = prc_limits_default;

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                const uint8_t *p = (const uint8_t *)cases[i].text;
                size_t n = strlen(cases[i].text);
                prc_err e;
                json_t *typed, *plain;

                prc_err_init(&e);
                typed = prc_toml_parse(p, n, &lim, PRC_TOML_UNSAFE_INT_TYPED, &e);
                T_NOERR(e);
                plain = prc_toml_parse(p, n, &lim, 0, &e);
                T_NOERR(e);
                if (prc_toml_has_typed_int(typed) != cases[i].typed)
                        t_fail(__FILE__, __LINE__, "case %zu: typed %d", i, !cases[i].typed);
                T_ASSERT(!prc_toml_has_typed_int(plain));
                T_ASSERT(json_equal(typed, plain) == !cases[i].typed);
                json_decref(typed);
                json_decref(plain);
        }
}

static const prc_test tests[] = {
        T(test_kept__an_xml_tree_serves_exactly_its_own_key),
        T(test_kept__a_toml_tree_serves_exactly_its_own_key),
        T(test_kept__a_json_tree_serves_exactly_its_own_key),
        T(test_kept__toml_typed_integers_are_found_wherever_they_sit),
};
PRC_SUITE(kept, tests)
