/*
 * test_mdoc.c - the ManifestDoc builders every extractor shares: purl
 * encoding, credential stripping, limits, line helpers.
 */
#include "t.h"

#include <stdlib.h>
#include <string.h>

#include "content/extract/extract.h"

#define PURL(want, ...)                                 \
        do {                                            \
                char *p_ = prc_purl(__VA_ARGS__);       \
                T_EQ_STR(p_, (want));                   \
                free(p_);                               \
        } while (0)

static void test_mdoc__purl_encodes_each_component(void)
{
        static const char *const q[] = { "vcs_url", "git+https://h/x.git", "arch", "", "classifier", "a b",
                                         NULL };

        PURL("pkg:npm/%40babel/core@7.1.0", "npm", "@babel", "core", "7.1.0", NULL, NULL);
        PURL("pkg:npm/lodash", "npm", NULL, "lodash", NULL, NULL, NULL);
        PURL("pkg:golang/github.com/gorilla/context@v1.1.1", "golang", "github.com/gorilla", "context",
             "v1.1.1", NULL, NULL);
        PURL("pkg:maven/org.apache/commons-io@2.0%2Bbuild", "maven", "org.apache", "commons-io", "2.0+build",
             NULL, NULL);
        /* sorted keys, empty values dropped, values encoded */
        PURL("pkg:gem/rails@7?classifier=a%20b&vcs_url=git%2Bhttps%3A%2F%2Fh%2Fx.git", "gem", NULL, "rails", "7",
             q, NULL);
        PURL("pkg:golang/example.com/m@v1#sub/dir", "golang", "example.com", "m", "v1", NULL, "/sub//dir/");
        T_ASSERT(prc_purl("npm", NULL, "", "1", NULL, NULL) == NULL);
}

static void test_mdoc__url_credentials_are_stripped(void)
{
        bool cred;
        char *u = prc_md_url_strip("https://user:p%40ss@registry.example/x?y=@z", &cred);

        T_EQ_STR(u, "https://registry.example/x?y=@z");
        T_ASSERT(cred);
        free(u);
        u = prc_md_url_strip("https://registry.example/a@b", &cred);
        T_EQ_STR(u, "https://registry.example/a@b");
        T_ASSERT(!cred);
        free(u);
}

static void test_mdoc__registry_userinfo_becomes_a_credential_by_key(void)
{
        static const char src[] = "x";
        prc_xin in = { "a/.npmrc", (const uint8_t *)src, 1, &prc_limits_default };
        prc_err e;
        json_t *md;
        char *dump;

        prc_err_init(&e);
        md = prc_md_new(&in, "npmrc", "npm", "registry-config", &e);
        T_NOERR(e);
        T_ASSERT(prc_md_add_registry(md, NULL, "@corp", "https://tok:secret@npm.corp/", 3, &e));
        dump = json_dumps(md, JSON_COMPACT | JSON_SORT_KEYS);
        T_ASSERT(strstr(dump, "secret") == NULL && strstr(dump, "tok") == NULL);
        T_ASSERT(strstr(dump, "\"credentials\":[{\"key\":\"registry URL userinfo\",\"line\":3}]") != NULL);
        free(dump);
        json_decref(md);
}

static void test_mdoc__dependency_defaults_and_limits(void)
{
        static const char src[] = "{}";
        prc_xin in = { "package.json", (const uint8_t *)src, 2, &prc_limits_default };
        char big[PRC_MD_STR_MAX + 2];
        prc_err e;
        json_t *md, *d;
        char *dump;

        prc_err_init(&e);
        md = prc_md_new(&in, "npm-package-json", "npm", "manifest", &e);
        d = prc_md_add_dep(md, "left-pad", "dev", true, 0, &e);
        T_NOERR(e);
        dump = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
        T_EQ_STR(dump, "{\"depends_on\":null,\"direct\":true,\"group\":null,\"integrity\":null,\"line\":null,\"name\":\"left-pad\","
                       "\"purl\":null,\"requirement\":null,\"resolved\":null,\"scope\":\"dev\",\"source\":"
                       "{\"commit\":null,\"ref\":null,\"type\":\"registry\",\"url\":null}}");
        free(dump);
        memset(big, 'a', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        T_ASSERT(!prc_md_set_str(d, "requirement", big, &e));
        T_ERR(e, PRC_E_EXTRACT_LIMIT);
        prc_err_init(&e);
        T_ASSERT(!prc_md_set_str(d, "requirement", "\xff", &e));
        T_ERR(e, PRC_E_NOT_CANONICAL);
        json_decref(md);
}

/* Edges: ascending, once each, none to itself; a dependency without any gets []; the file's total is bounded. */
static void test_mdoc__edges_sorted_deduped_and_limited(void)
{
        static const char src[] = "{}";
        prc_xin in = { "Cargo.lock", (const uint8_t *)src, 2, &prc_limits_default };
        prc_err e;
        json_t *md;
        char *dump;

        prc_err_init(&e);
        md = prc_md_new(&in, "cargo-lock", "cargo", "lockfile", &e);
        T_ASSERT(prc_md_add_dep(md, "a", "runtime", true, 1, &e) != NULL);
        T_ASSERT(prc_md_add_dep(md, "b", "runtime", false, 2, &e) != NULL);
        T_ASSERT(prc_md_add_dep(md, "c", "runtime", false, 3, &e) != NULL);
        T_ASSERT(prc_md_edge(md, 0, 2, &e) && prc_md_edge(md, 0, 1, &e) && prc_md_edge(md, 0, 2, &e));
        T_ASSERT(prc_md_edge(md, 2, 2, &e));                   /* itself: no edge */
        T_ASSERT(!prc_md_edge(md, 1, 3, &e));                  /* no dependency 3 */
        T_ERR(e, PRC_E_INTERNAL);
        prc_err_init(&e);
        T_ASSERT(prc_md_edge_unresolved(md, 1, "gone", "^1", &e));
        T_ASSERT(prc_md_edges_finish(md, &e));
        T_NOERR(e);
        dump = json_dumps(md, JSON_COMPACT | JSON_SORT_KEYS);
        T_ASSERT(strstr(dump, "\"_edges\"") == NULL);
        free(dump);
        T_EQ_INT(json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(md,
                "dependencies"), 0), "depends_on"), 0)), 1);
        T_EQ_INT(json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(md,
                "dependencies"), 0), "depends_on"), 1)), 2);
        T_EQ_INT(json_array_size(json_object_get(json_array_get(json_object_get(md, "dependencies"), 0),
                                                 "depends_on")), 2);
        T_ASSERT(json_is_array(json_object_get(json_array_get(json_object_get(md, "dependencies"), 2),
                                               "depends_on")));
        T_EQ_INT(json_array_size(json_object_get(json_array_get(json_object_get(md, "dependencies"), 2),
                                                 "depends_on")), 0);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(md, "not_extracted"), 0), "what")),
                 "the dependency of b on gone ^1");
        /* the limit counts every edge stated, before duplicates fold */
        for (unsigned i = 0; i < PRC_MD_EDGES_MAX; i++)
                if (!prc_md_edge(md, 1, 2, &e))
                        t_fail(__FILE__, __LINE__, "edge %u refused: %s", i, e.msg);
        T_ASSERT(!prc_md_edge(md, 1, 0, &e));
        T_ERR(e, PRC_E_EXTRACT_LIMIT);
        json_decref(md);
}

/* prc_md_add_dep_rr: the row with its requirement and resolved version (NULL: null), the rest as prc_md_add_dep's. */
static void test_mdoc__add_dep_rr_puts_both_values(void)
{
        static const char src[] = "{}";
        prc_xin in = { "go.mod", (const uint8_t *)src, 2, &prc_limits_default };
        json_t *md;
        char *d;
        prc_err e;

        prc_err_init(&e);
        md = prc_md_new(&in, "go-mod", "golang", "manifest", &e);
        T_ASSERT(prc_md_add_dep_rr(md, "example.com/m", "runtime", true, 3, "v1.2.3", "v1.2.4", &e) != NULL);
        T_ASSERT(prc_md_add_dep_rr(md, "example.com/n", "dev", false, 0, NULL, "v2", &e) != NULL);
        T_ASSERT(prc_md_add_dep(md, "example.com/p", "test", false, 7, &e) != NULL);
        T_NOERR(e);
        d = json_dumps(json_object_get(md, "dependencies"), JSON_COMPACT | JSON_SORT_KEYS);
        T_EQ_STR(d, "[{\"depends_on\":null,\"direct\":true,\"group\":null,\"integrity\":null,\"line\":3,"
                    "\"name\":\"example.com/m\",\"purl\":null,\"requirement\":\"v1.2.3\",\"resolved\":\"v1.2.4\","
                    "\"scope\":\"runtime\",\"source\":{\"commit\":null,\"ref\":null,\"type\":\"registry\","
                    "\"url\":null}},"
                    "{\"depends_on\":null,\"direct\":false,\"group\":null,\"integrity\":null,\"line\":null,"
                    "\"name\":\"example.com/n\",\"purl\":null,\"requirement\":null,\"resolved\":\"v2\","
                    "\"scope\":\"dev\",\"source\":{\"commit\":null,\"ref\":null,\"type\":\"registry\",\"url\":null}},"
                    "{\"depends_on\":null,\"direct\":false,\"group\":null,\"integrity\":null,\"line\":7,"
                    "\"name\":\"example.com/p\",\"purl\":null,\"requirement\":null,\"resolved\":null,"
                    "\"scope\":\"test\",\"source\":{\"commit\":null,\"ref\":null,\"type\":\"registry\","
                    "\"url\":null}}]");
        free(d);
        /* a value that is not UTF-8 is refused as prc_md_set_str refuses it */
        T_ASSERT(prc_md_add_dep_rr(md, "example.com/o", "runtime", true, 4, "v\xff", NULL, &e) == NULL);
        T_ERR(e, PRC_E_NOT_CANONICAL);
        json_decref(md);
}

/* Two documents built at once (prc_md_edge keeps the last one's lookups): each keeps its own rows, edges and count. */
static void test_mdoc__edges_of_two_documents_at_once(void)
{
        static const char src[] = "{}";
        prc_xin in = { "Cargo.lock", (const uint8_t *)src, 2, &prc_limits_default };
        json_t *a, *b, *da, *db;
        prc_err e;

        prc_err_init(&e);
        a = prc_md_new(&in, "cargo-lock", "cargo", "lockfile", &e);
        b = prc_md_new(&in, "cargo-lock", "cargo", "lockfile", &e);
        T_ASSERT(a != NULL && b != NULL);
        T_ASSERT(prc_md_add_dep(a, "a0", "runtime", true, 1, &e) != NULL);
        T_ASSERT(prc_md_add_dep(b, "b0", "runtime", true, 1, &e) != NULL);
        T_ASSERT(prc_md_add_dep(a, "a1", "runtime", false, 2, &e) != NULL);
        T_ASSERT(prc_md_add_dep(b, "b1", "runtime", false, 2, &e) != NULL);
        T_ASSERT(prc_md_add_dep(b, "b2", "runtime", false, 3, &e) != NULL);
        da = json_object_get(a, "dependencies");
        db = json_object_get(b, "dependencies");
        T_EQ_INT(json_array_size(da), 2);
        T_EQ_INT(json_array_size(db), 3);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(db, 2), "name")), "b2");
        /* a's edge to 2 exists only in b */
        T_ASSERT(prc_md_edge(b, 0, 2, &e) && prc_md_edge(a, 0, 1, &e));
        T_ASSERT(!prc_md_edge(a, 0, 2, &e));
        T_ERR(e, PRC_E_INTERNAL);
        prc_err_init(&e);
        /* a's count reaches the limit while b's edges come in between; b's stay its own */
        for (unsigned i = 1; i < PRC_MD_EDGES_MAX; i++)
                if (!prc_md_edge(a, 1, 0, &e) || (i % 1000 == 0 && !prc_md_edge(b, 1, 0, &e)))
                        t_fail(__FILE__, __LINE__, "edge %u refused: %s", i, e.msg);
        T_ASSERT(!prc_md_edge(a, 1, 0, &e));
        T_ERR(e, PRC_E_EXTRACT_LIMIT);
        prc_err_init(&e);
        T_ASSERT(prc_md_edge(b, 2, 1, &e));
        T_ASSERT(prc_md_edges_finish(a, &e) && prc_md_edges_finish(b, &e));
        T_NOERR(e);
        T_ASSERT(json_object_get(a, "_edges") == NULL && json_object_get(b, "_edges") == NULL);
        T_EQ_INT(json_array_size(json_object_get(json_array_get(da, 0), "depends_on")), 1);
        T_EQ_INT(json_array_size(json_object_get(json_array_get(db, 0), "depends_on")), 1);
        T_EQ_INT(json_integer_value(json_array_get(json_object_get(json_array_get(db, 0), "depends_on"), 0)), 2);
        T_EQ_INT(json_integer_value(json_array_get(json_object_get(json_array_get(db, 2), "depends_on"), 0)), 1);
        json_decref(a);
        json_decref(b);
}

static void test_mdoc__line_helpers(void)
{
        static const char src[] = "a\nname = \"x\"\n\nname = \"y\"";
        prc_xin in = { "Cargo.lock", (const uint8_t *)src, sizeof(src) - 1, &prc_limits_default };

        T_EQ_INT(prc_x_line_at(&in, 0), 1);
        T_EQ_INT(prc_x_line_at(&in, 2), 2);
        T_EQ_INT(prc_x_line_at(&in, 1000), 4);
        T_EQ_INT(prc_x_find_line(&in, "name = ", 1), 2);
        T_EQ_INT(prc_x_find_line(&in, "name = ", 3), 4);
        T_EQ_INT(prc_x_find_line(&in, "\"y\"", 1), 4);
        T_EQ_INT(prc_x_find_line(&in, "zzz", 1), 0);
}

/* The byte-by-byte search prc_x_find_line did before memmem, kept as the reference. */
static uint32_t ref_find_line(const prc_xin *in, const char *needle, uint32_t from)
{
        size_t nl = strlen(needle), i = 0;
        uint32_t line = 1;

        if (nl == 0 || in->n < nl)
                return 0;
        for (; i < in->n && line < from; i++)
                line += in->p[i] == '\n';
        for (; i + nl <= in->n; i++) {
                if (in->p[i] == '\n')
                        line++;
                else if (in->p[i] == (uint8_t)needle[0] && memcmp(in->p + i, needle, nl) == 0)
                        return line;
        }
        return 0;
}

/* Every from line (and past the end), every needle: the same line as the reference; _at walks forward the same. */
static void find_line_agrees(const char *src, size_t n, const char *const *needles, size_t nn)
{
        prc_xin in = { "f", (const uint8_t *)src, n, &prc_limits_default };
        uint32_t lines = prc_x_line_at(&in, n);

        for (size_t k = 0; k < nn; k++) {
                prc_xpos at = { 0, 0 };
                uint32_t l = 0;

                for (uint32_t from = 0; from <= lines + 2; from++)
                        if (prc_x_find_line(&in, needles[k], from) != ref_find_line(&in, needles[k], from))
                                t_fail(__FILE__, __LINE__, "'%s' from line %u: %u, the reference %u", needles[k], from,
                                       prc_x_find_line(&in, needles[k], from), ref_find_line(&in, needles[k], from));
                /* forward from the start, then again from the place it moved to: the same as from that line */
                l = ref_find_line(&in, needles[k], 1);
                T_EQ_INT(prc_x_find_line_at(&in, needles[k], &at), l);
                if (l > 0) {
                        T_EQ_INT(at.line, l);
                        T_EQ_INT(at.off, prc_x_line_start(&in, l));
                        T_EQ_INT(prc_x_find_line_at(&in, needles[k], &at), ref_find_line(&in, needles[k], l));
                }
        }
        for (size_t off = 0; off <= n + 1; off++) {
                uint32_t want = 1;
                for (size_t i = 0; i < off && i < n; i++)
                        want += src[i] == '\n';
                T_EQ_INT(prc_x_line_at(&in, off), want);
        }
}

static void test_mdoc__find_line_agrees_with_the_byte_scan(void)
{
        static const char *const needles[] = { "name = ", "\"y\"", "zzz", "a", "\n", "\nname", "\"", "=", "y\"",
                                                "a\nname = \"x\"\n\nname = \"y\"", "a\nname = \"x\"\n\nname = \"y\"!" };
        static const char *const srcs[] = { "a\nname = \"x\"\n\nname = \"y\"", "", "\n", "\n\n\n", "name = ",
                                            "name = name = \n name = \r\nname = \"y\"\n", "aaaa\na\n\na" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(srcs); i++)
                find_line_agrees(srcs[i], strlen(srcs[i]), needles, PRC_ARRAY_LEN(needles));
        /* a needle at the very end, and one that would run past it */
        find_line_agrees("x\n\"k\":", 6, (const char *const[]){ "\"k\":", "\"k\": " }, 2);
}

/*
 * Dependencies share one default source object: a source set on one never
 * shows in another, and a later document (after the first is freed) gets a
 * source of its own (ASan sees any use of the freed one).
 */
static void test_mdoc__default_source_is_shared_never_changed(void)
{
        static const char src[] = "{}";
        prc_xin in = { "yarn.lock", (const uint8_t *)src, 2, &prc_limits_default };
        static const char reg[] = "{\"commit\":null,\"ref\":null,\"type\":\"registry\",\"url\":null}";
        prc_err e;
        json_t *md, *a, *b, *c;
        char *dump;

        prc_err_init(&e);
        md = prc_md_new(&in, "yarn-lock", "npm", "lockfile", &e);
        a = prc_md_add_dep(md, "a", "runtime", true, 1, &e);
        b = prc_md_add_dep(md, "b", "runtime", true, 2, &e);
        T_ASSERT(a != NULL && b != NULL);
        T_ASSERT(prc_md_set_source(a, "git", "https://u:p@h/a.git", "main", "abc", &e));
        c = prc_md_add_dep(md, "c", "runtime", true, 3, &e);
        T_ASSERT(c != NULL && prc_md_set_source(b, "registry", NULL, NULL, NULL, &e));
        T_NOERR(e);
        dump = json_dumps(json_object_get(a, "source"), JSON_COMPACT | JSON_SORT_KEYS);
        T_EQ_STR(dump, "{\"commit\":\"abc\",\"ref\":\"main\",\"type\":\"git\",\"url\":\"https://h/a.git\"}");
        free(dump);
        for (size_t i = 1; i < 3; i++) {
                dump = json_dumps(json_object_get(json_array_get(json_object_get(md, "dependencies"), i), "source"),
                                  JSON_COMPACT | JSON_SORT_KEYS);
                T_EQ_STR(dump, reg);
                free(dump);
        }
        json_decref(md);
        md = prc_md_new(&in, "yarn-lock", "npm", "lockfile", &e);
        a = prc_md_add_dep(md, "a", "runtime", true, 1, &e);
        T_NOERR(e);
        dump = json_dumps(json_object_get(a, "source"), JSON_COMPACT | JSON_SORT_KEYS);
        T_EQ_STR(dump, reg);
        free(dump);
        json_decref(md);
}

/* Edges stated in order already are kept as they are; a late duplicate still folds. */
static void test_mdoc__edges_in_order_and_a_late_duplicate(void)
{
        static const char src[] = "{}";
        prc_xin in = { "Cargo.lock", (const uint8_t *)src, 2, &prc_limits_default };
        prc_err e;
        json_t *md;
        char *dump;

        prc_err_init(&e);
        md = prc_md_new(&in, "cargo-lock", "cargo", "lockfile", &e);
        for (int i = 0; i < 4; i++)
                T_ASSERT(prc_md_add_dep(md, "d", "runtime", true, 1, &e) != NULL);
        T_ASSERT(prc_md_edge(md, 0, 1, &e) && prc_md_edge(md, 0, 2, &e) && prc_md_edge(md, 0, 3, &e));
        T_ASSERT(prc_md_edge(md, 1, 2, &e) && prc_md_edge(md, 1, 3, &e) && prc_md_edge(md, 1, 3, &e));
        T_ASSERT(prc_md_edges_finish(md, &e));
        T_NOERR(e);
        dump = json_dumps(json_object_get(md, "dependencies"), JSON_COMPACT);
        T_ASSERT(strstr(dump, "\"depends_on\":[1,2,3]") != NULL);
        T_ASSERT(strstr(dump, "\"depends_on\":[2,3]") != NULL);
        T_ASSERT(strstr(dump, "\"depends_on\":[]") != NULL);
        free(dump);
        json_decref(md);
}

static const prc_test tests[] = {
        T(test_mdoc__purl_encodes_each_component),
        T(test_mdoc__url_credentials_are_stripped),
        T(test_mdoc__registry_userinfo_becomes_a_credential_by_key),
        T(test_mdoc__dependency_defaults_and_limits),
        T(test_mdoc__edges_sorted_deduped_and_limited),
        T(test_mdoc__add_dep_rr_puts_both_values),
        T(test_mdoc__edges_of_two_documents_at_once),
        T(test_mdoc__default_source_is_shared_never_changed),
        T(test_mdoc__edges_in_order_and_a_late_duplicate),
        T(test_mdoc__line_helpers),
        T(test_mdoc__find_line_agrees_with_the_byte_scan),
};
PRC_SUITE(mdoc, tests)
