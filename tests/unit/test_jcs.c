/*
 * test_jcs.c - canonical JSON (RFC 8785, integer-only): the RFC's own string
 * escaping and key-ordering examples, integer form and safe-range bounds,
 * floats refused, nested sorting, non-ASCII keys, invalid UTF-8, content
 * IDs without their ID field, and the golden files in tests/golden/jcs/.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "base/alloc.h"
#include "base/doc.h"
#include "base/jcs.h"
#include "base/json_strict.h"

/* Parse text strictly (flags as given) and write it canonically; fails the test on error. */
static char *canon(const char *text, unsigned flags)
{
        prc_err e;
        prc_buf b;
        json_t *v;
        size_t n;
        uint8_t *out;

        prc_err_init(&e);
        v = prc_json_parse((const uint8_t *)text, strlen(text), &prc_limits_default, flags, &e);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "parse failed: %s %s", prc_err_name(e.cls), e.msg);
        prc_buf_init(&b, 1 << 20);
        if (!prc_jcs_write(v, &b, &e))
                t_fail(__FILE__, __LINE__, "jcs failed: %s %s", prc_err_name(e.cls), e.msg);
        json_decref(v);
        out = prc_buf_take(&b, &n, &e);
        T_ASSERT(out != NULL);
        return (char *)out;
}

static prc_errclass canon_err(const json_t *v)
{
        prc_err e;
        prc_buf b;

        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "prefix", &e));
        if (prc_jcs_write(v, &b, &e))
                t_fail(__FILE__, __LINE__, "jcs accepted: %s", prc_buf_cstr(&b));
        /* a failed write leaves what was there before, NUL-terminated */
        T_EQ_STR(prc_buf_cstr(&b), "prefix");
        prc_buf_clear(&b);
        return e.cls;
}

static void test_jcs__rfc8785_string_escaping_example(void)
{
        /* RFC 8785 section 3.2.2.2: "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/" */
        char *s = canon("\"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\"", 0);

        T_EQ_STR(s, "\"\xe2\x82\xac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"");
        free(s);
}

static void test_jcs__rfc8785_sorting_example(void)
{
        /* RFC 8785 section 3.2.3, keys sorted by UTF-16 code units */
        char *s = canon("{\n"
                        "  \"\\u20ac\": \"Euro Sign\",\n"
                        "  \"\\r\": \"Carriage Return\",\n"
                        "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n"
                        "  \"1\": \"One\",\n"
                        "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n"
                        "  \"\\u0080\": \"Control\",\n"
                        "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n"
                        "}", 0);

        T_EQ_STR(s, "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\","
                    "\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\",\"\xe2\x82\xac\":\"Euro Sign\","
                    "\"\xf0\x9f\x98\x80\":\"Emoji: Grinning Face\","
                    "\"\xef\xac\xb3\":\"Hebrew Letter Dalet With Dagesh\"}");
        free(s);
}

static void test_jcs__sorting_with_script_and_newline_keys(void)
{
        /* The same keys plus "</script>" and "\n", as in the JCS reference test data. */
        char *s = canon("{\"\\u20ac\":1,\"\\r\":2,\"\\n\":3,\"1\":4,\"</script>\":5,\"\\u0080\":6,"
                        "\"\\ud83d\\ude02\":7,\"\\u00f6\":8,\"\\ufb33\":9}", 0);

        T_EQ_STR(s, "{\"\\n\":3,\"\\r\":2,\"1\":4,\"</script>\":5,\"\xc2\x80\":6,\"\xc3\xb6\":8,"
                    "\"\xe2\x82\xac\":1,\"\xf0\x9f\x98\x82\":7,\"\xef\xac\xb3\":9}");
        free(s);
}

static void test_jcs__rfc8785_floats_are_not_canonical_here(void)
{
        /* The RFC's sample document has floats: prc's integer-only JCS refuses it. */
        static const char doc[] = "{\"numbers\":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"
                                  "\"literals\":[null,true,false]}";
        prc_err e;
        json_t *v;

        prc_err_init(&e);
        v = prc_json_parse((const uint8_t *)doc, strlen(doc), &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &e);
        T_ASSERT(v != NULL);
        T_EQ_INT(canon_err(v), PRC_E_NOT_CANONICAL);
        json_decref(v);
        v = json_real(1.0);     /* even an integral real */
        T_EQ_INT(canon_err(v), PRC_E_NOT_CANONICAL);
        json_decref(v);
}

static void test_jcs__literals_and_whitespace(void)
{
        char *s = canon(" [ null , true ,\tfalse ,\r\n{ } , [ ] , \"\" ] ", 0);

        T_EQ_STR(s, "[null,true,false,{},[],\"\"]");
        free(s);
}

static void test_jcs__integers_plain_decimal(void)
{
        char *s = canon("[0,-0,7,-7,1000000,9007199254740991,-9007199254740991]", 0);

        /* no exponent, no leading zeros, no plus sign; -0 is the integer 0 */
        T_EQ_STR(s, "[0,0,7,-7,1000000,9007199254740991,-9007199254740991]");
        free(s);
}

static void test_jcs__safe_range_bounds(void)
{
        static const json_int_t ok[] = { PRC_SAFE_INT_MAX, -PRC_SAFE_INT_MAX };
        static const json_int_t bad[] = { PRC_SAFE_INT_MAX + 1, -PRC_SAFE_INT_MAX - 1, INT64_MAX, INT64_MIN };
        prc_err e;

        for (size_t i = 0; i < PRC_ARRAY_LEN(ok); i++) {
                json_t *v = json_integer(ok[i]);
                prc_buf b;
                prc_buf_init(&b, 64);
                prc_err_init(&e);
                T_ASSERT(prc_jcs_write(v, &b, &e));
                T_EQ_STR(prc_buf_cstr(&b), i == 0 ? "9007199254740991" : "-9007199254740991");
                prc_buf_clear(&b);
                json_decref(v);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                json_t *v = json_pack("{s:[I]}", "n", bad[i]);
                T_EQ_INT(canon_err(v), PRC_E_NOT_CANONICAL);
                json_decref(v);
        }
}

static void test_jcs__control_characters_and_minimal_escapes(void)
{
        char in[40], *want = "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                             "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                             "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f \x7f/\xe2\x80\xa8\"";
        json_t *v;
        prc_buf b;
        prc_err e;

        for (int i = 0; i < 32; i++)
                in[i] = (char)i;
        memcpy(in + 32, " \x7f/\xe2\x80\xa8", 7);       /* DEL, '/' and U+2028 stay raw */
        v = json_stringn(in, 38);
        T_ASSERT(v != NULL);
        prc_err_init(&e);
        prc_buf_init(&b, 1024);
        T_ASSERT(prc_jcs_write(v, &b, &e));
        T_EQ_STR(prc_buf_cstr(&b), want);
        prc_buf_clear(&b);
        json_decref(v);
}

static void test_jcs__nested_objects_sorted_at_every_level(void)
{
        char *s = canon("{\"b\":[{\"z\":1,\"a\":{\"y\":true,\"x\":null}}],\"a\":{\"d\":[3,2,1],\"c\":\"\"},"
                        "\"aa\":0,\"B\":1}", 0);

        /* arrays keep their order; "B" (0x42) < "a" < "aa" < "b" */
        T_EQ_STR(s, "{\"B\":1,\"a\":{\"c\":\"\",\"d\":[3,2,1]},\"aa\":0,\"b\":[{\"a\":{\"x\":null,\"y\":true},\"z\":1}]}");
        free(s);
}

static void test_jcs__key_order_is_utf16_not_code_point(void)
{
        /* U+FB33 is EF AC B3 in UTF-8 and 0xFB33 in UTF-16; U+1F600 is F0.. and 0xD83D.. */
        T_ASSERT(prc_jcs_keycmp("\xef\xac\xb3", 3, "\xf0\x9f\x98\x80", 4) > 0);
        T_ASSERT(prc_jcs_keycmp("\xf0\x9f\x98\x80", 4, "\xef\xac\xb3", 3) < 0);
        T_ASSERT(prc_jcs_keycmp("\xed\x9f\xbf", 3, "\xf0\x90\x80\x80", 4) < 0);   /* U+D7FF < U+10000 */
        T_ASSERT(prc_jcs_keycmp("a", 1, "ab", 2) < 0);
        T_ASSERT(prc_jcs_keycmp("ab", 2, "a", 1) > 0);
        T_ASSERT(prc_jcs_keycmp("", 0, "", 0) == 0);
        T_ASSERT(prc_jcs_keycmp("a\0b", 3, "a\0c", 3) < 0);      /* lengths, not NUL-termination */
        /* The same after a shared ASCII prefix (compared bytewise), and ASCII against non-ASCII. */
        T_ASSERT(prc_jcs_keycmp("key\xef\xac\xb3", 6, "key\xf0\x9f\x98\x80", 7) > 0);
        T_ASSERT(prc_jcs_keycmp("key\xf0\x9f\x98\x80z", 8, "key\xef\xac\xb3" "a", 7) < 0);
        T_ASSERT(prc_jcs_keycmp("ke\x7f", 3, "ke\xc2\x80", 4) < 0);
        T_ASSERT(prc_jcs_keycmp("ke\xc2\x80", 4, "ke\x7f", 3) > 0);
        T_ASSERT(prc_jcs_keycmp("same\xc3\xa9", 6, "same\xc3\xa9", 6) == 0);
        T_ASSERT(prc_jcs_keycmp("\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x81", 4) < 0);
}

static void test_jcs__non_ascii_keys_written_raw(void)
{
        char *s = canon("{\"\\u00e9t\\u00e9\":1,\"\xe6\x97\xa5\":2,\"e\":3}", 0);

        T_EQ_STR(s, "{\"e\":3,\"\xc3\xa9t\xc3\xa9\":1,\"\xe6\x97\xa5\":2}");
        free(s);
}

static void test_jcs__invalid_utf8_string_or_key_refused(void)
{
        json_t *v = json_stringn_nocheck("ok\xff", 3);
        json_t *o = json_object();

        T_EQ_INT(canon_err(v), PRC_E_NOT_CANONICAL);
        json_decref(v);
        T_ASSERT(json_object_set_new_nocheck(o, "\xed\xa0\x80", json_integer(1)) == 0);   /* surrogate key */
        T_EQ_INT(canon_err(o), PRC_E_NOT_CANONICAL);
        json_decref(o);
}

static void test_jcs__depth_guard(void)
{
        json_t *root = json_array(), *cur = root;

        for (int i = 0; i < 600; i++) {
                json_t *next = json_array();
                json_array_append_new(cur, next);
                cur = next;
        }
        T_EQ_INT(canon_err(root), PRC_E_DEPTH_LIMIT);
        json_decref(root);
}

static void test_jcs__output_cap_is_buffer_limit(void)
{
        json_t *v = json_pack("{s:s}", "key", "a value longer than ten bytes");
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 10);
        T_ASSERT(!prc_jcs_write(v, &b, &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        json_decref(v);
}

static void test_jcs__digest_and_id_omit_only_top_level_id(void)
{
        json_t *rec = json_pack("{s:s,s:i,s:{s:s}}", "id", "whatever", "a", 1, "inner", "id", "kept");
        json_t *bare = json_pack("{s:i,s:{s:s}}", "a", 1, "inner", "id", "kept");
        char id[PRC_SHA256_HEX + 1], d[PRC_SHA256_HEX + 1], id2[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_jcs_id(rec, "id", id, &e));
        T_ASSERT(prc_jcs_digest(bare, d, &e));
        T_EQ_STR(id, d);
        /* The digest of {"a":1,"inner":{"id":"kept"}} */
        T_ASSERT(prc_sha256_hex_once("{\"a\":1,\"inner\":{\"id\":\"kept\"}}", 29, d, &e));
        T_EQ_STR(id, d);
        /* changing the ID field does not change the ID; changing any other field does */
        json_object_set_new(rec, "id", json_string(id));
        T_ASSERT(prc_jcs_id(rec, "id", id2, &e));
        T_EQ_STR(id, id2);
        json_object_set_new(rec, "a", json_integer(2));
        T_ASSERT(prc_jcs_id(rec, "id", id2, &e));
        T_ASSERT(strcmp(id, id2) != 0);
        /* the digest with the field differs from the ID */
        T_ASSERT(prc_jcs_digest(rec, d, &e));
        T_ASSERT(strcmp(d, id2) != 0);
        T_NOERR(e);
        /* an ID needs an object and a field name */
        json_t *arr = json_array();
        T_ASSERT(!prc_jcs_id(arr, "id", id, &e));
        T_ERR(e, PRC_E_NOT_AN_OBJECT);
        prc_err_init(&e);
        T_ASSERT(!prc_jcs_id(rec, NULL, id, &e));
        T_ERR(e, PRC_E_INTERNAL);
        json_decref(arr);
        json_decref(rec);
        json_decref(bare);
}

static bool skip_b(const char *key)
{
        return strcmp(key, "b") == 0;
}

/* A document's part without some members: the bytes of the document with them removed. */
static void test_jcs__write_without_members(void)
{
        json_t *v = json_pack("{s:i,s:{s:i},s:[s],s:s}", "c", 1, "b", "b", 2, "a", "x", "d", "\xc3\xa9");
        json_t *bad = json_pack("{s:i,s:o}", "a", 1, "z", json_stringn_nocheck("\xff", 1)), *s = json_string("s");
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(v != NULL && s != NULL && bad != NULL);
        T_ASSERT(prc_jcs_write_without(v, skip_b, &b, &e));
        T_EQ_STR((const char *)b.data, "{\"a\":[\"x\"],\"c\":1,\"d\":\"\xc3\xa9\"}");
        prc_buf_reset(&b);
        T_ASSERT(prc_jcs_write_without(s, skip_b, &b, &e));
        T_EQ_STR((const char *)b.data, "{}");
        prc_buf_reset(&b);
        T_ASSERT(prc_buf_puts(&b, "keep", &e));
        T_ASSERT(!prc_jcs_write_without(bad, skip_b, &b, &e));
        T_ERR(e, PRC_E_NOT_CANONICAL);
        T_EQ_STR((const char *)b.data, "keep");
        prc_buf_clear(&b);
        json_decref(v);
        json_decref(bad);
        json_decref(s);
}

/* Objects identified through a memo are written from their kept bytes: the same ID and bytes as without. */
static void test_jcs__memo_gives_the_same_bytes(void)
{
        prc_jcs_memo *m = prc_jcs_memo_new();
        json_t *doc = json_pack("{s:s,s:[]}", "schema", "s", "evidence"), *env[3];
        char id[PRC_SHA256_HEX + 1], want_id[PRC_SHA256_HEX + 1], rid[PRC_SHA256_HEX + 1], rid2[PRC_SHA256_HEX + 1];
        prc_buf a, b;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(m != NULL && doc != NULL);
        for (int i = 0; i < 3; i++) {
                env[i] = json_pack("{s:s,s:{s:i,s:[s,{s:b}]},s:s}", "schema", "prc.evidence/v1", "observation", "n", i,
                                   "locations", "p\xc3\xa9", "zz", 1, "a", "x");
                T_ASSERT(env[i] != NULL);
                T_ASSERT(prc_jcs_id(env[i], "id", want_id, &e));
                T_ASSERT(prc_jcs_memo_id(m, env[i], "id", id, &e));
                T_EQ_STR(id, want_id);
                T_ASSERT(json_object_set_new(env[i], "id", json_string(id)) == 0);
                T_ASSERT(json_array_append(json_object_get(doc, "evidence"), env[i]) == 0);
        }
        /* The same object twice, and one nested deeper. */
        T_ASSERT(json_array_append(json_object_get(doc, "evidence"), env[0]) == 0);
        T_ASSERT(json_object_set_new(doc, "deep", json_pack("{s:[O]}", "x", env[2])) == 0);
        prc_buf_init(&a, 1 << 20);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_jcs_id_write(doc, "id", &a, rid, &e));
        T_ASSERT(prc_jcs_id_write_memo(doc, "id", m, &b, rid2, &e));
        T_EQ_STR(rid, rid2);
        T_EQ_INT(a.len, b.len);
        T_ASSERT(memcmp(a.data, b.data, a.len) == 0);
        /* A memo of NULL identifies without keeping. */
        T_ASSERT(prc_jcs_memo_id(NULL, env[1], "id", id, &e));
        T_ASSERT(prc_jcs_id(env[1], "id", want_id, &e));
        T_EQ_STR(id, want_id);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        for (int i = 0; i < 3; i++)
                json_decref(env[i]);
        json_decref(doc);
        prc_jcs_memo_free(m);
}

static void test_jcs__same_document_any_order_same_bytes(void)
{
        char *a = canon("{\"x\":{\"q\":[1,{\"k\":2,\"j\":3}],\"p\":\"s\"},\"w\":false}", 0);
        char *b = canon("{ \"w\" : false , \"x\" : { \"p\" : \"s\" , \"q\" : [ 1 , { \"j\" : 3 , \"k\" : 2 } ] } }", 0);

        T_EQ_STR(a, b);
        free(a);
        free(b);
}

/* Every allocation of a canonical write fails in turn: out-of-memory, output rolled back. */
static void test_jcs__fault_sweep_over_write(void)
{
        json_t *v = json_pack("{s:[i,{s:s,s:[b,n]}],s:{s:{s:s}},s:s}", "b", 1, "y", "long enough string value",
                              "x", 1, "a", "c", "d", "e", "z", "last");
        unsigned long total;
        prc_buf b;
        prc_err e;

        /* Objects of more than 16 members sort their keys in allocated arrays (smaller ones on the stack). */
        for (int o = 0; o < 2; o++) {
                json_t *big = json_object();
                for (int k = 0; k < 17 + 3 * o; k++) {
                        char key[16];
                        snprintf(key, sizeof(key), "k%02d", 40 - k);
                        T_ASSERT(json_object_set_new(big, key, json_integer(k)) == 0);
                }
                T_ASSERT(json_object_set_new(v, o == 0 ? "big" : "bigger", big) == 0);
        }
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "keep", &e));        /* the same start as each pass below */
        prc_fault_arm(0, false);
        T_ASSERT(prc_jcs_write(v, &b, &e));
        total = prc_fault_count();
        prc_buf_clear(&b);
        T_ASSERT(total >= 3);           /* the output buffer and the key arrays */
        for (unsigned long nth = 1; nth <= total; nth++) {
                prc_err_init(&e);
                prc_buf_init(&b, 1 << 20);
                T_ASSERT(prc_buf_puts(&b, "keep", &e));
                prc_fault_arm(nth, false);
                if (prc_jcs_write(v, &b, &e))
                        t_fail(__FILE__, __LINE__, "allocation %lu of %lu failed silently", nth, total);
                prc_fault_arm(0, false);
                T_ERR(e, PRC_E_OUT_OF_MEMORY);
                T_EQ_STR(prc_buf_cstr(&b), "keep");
                prc_buf_clear(&b);
        }
        json_decref(v);
#if defined(__SANITIZE_ADDRESS__)
        T_ASSERT(__lsan_do_recoverable_leak_check() == 0);
#endif
}

/* The document digest, through the JSON path of doc.c (the YAML path is tested with the loader). */
static void test_jcs__document_digest_of_json_file(void)
{
        static const char ta[] = "{\"b\": [1, 2], \"a\": \"x\"}\n", tb[] = "{\"a\":\"x\",\"b\":[1,2]}",
                          td[] = "{\"a\":1,\"a\":2}";
        const char *a = t_write(t_tmpdir(), "a.json", ta, strlen(ta));
        const char *b = t_write(t_tmpdir(), "b.json", tb, strlen(tb));
        const char *d = t_write(t_tmpdir(), "d.json", td, strlen(td));
        char ha[PRC_SHA256_HEX + 1], hb[PRC_SHA256_HEX + 1], want[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_doc_digest_file(a, PRC_DOC_JSON, &prc_limits_operator, ha, &e));
        T_ASSERT(prc_doc_digest_file(b, PRC_DOC_AUTO, &prc_limits_operator, hb, &e));
        T_EQ_STR(ha, hb);       /* formatting and key order do not change the digest */
        T_ASSERT(prc_sha256_hex_once(tb, strlen(tb), want, &e));
        T_EQ_STR(ha, want);
        T_NOERR(e);
        T_ASSERT(!prc_doc_digest_file(d, PRC_DOC_JSON, &prc_limits_operator, ha, &e));
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_EQ_STR(e.file, d);
        T_EQ_STR(e.ptr, "/a");
}

/*
 * Golden files: tests/golden/jcs/NNN-slug.in is strict JSON; .out holds its
 * canonical form, or .err holds "class line offset" when it is refused
 * (0 where the reader knows no position).
 * PRC_UPDATE_GOLDEN=1 rewrites them (review the diff).
 */
static void test_jcs__golden_files(void)
{
        char dir[4200];
        const char *update = getenv("PRC_UPDATE_GOLDEN");
        struct dirent **names;
        int n, seen = 0;

        snprintf(dir, sizeof(dir), "%s/tests/golden/jcs", t_root());
        n = scandir(dir, &names, NULL, alphasort);
        T_ASSERT(n > 0);
        for (int i = 0; i < n; i++) {
                char in[4600], out[4600], errp[4600], got[4096];
                const char *name = names[i]->d_name;
                size_t len = strlen(name), inlen;
                char *text, *want;
                prc_err e;
                prc_buf b;
                json_t *v;
                bool ok;

                if (len < 4 || strcmp(name + len - 3, ".in") != 0) {
                        free(names[i]);
                        continue;
                }
                snprintf(in, sizeof(in), "%s/%s", dir, name);
                snprintf(out, sizeof(out), "%s/%.*s.out", dir, (int)(len - 3), name);
                snprintf(errp, sizeof(errp), "%s/%.*s.err", dir, (int)(len - 3), name);
                text = t_read(in, &inlen);
                prc_err_init(&e);
                prc_buf_init(&b, 1 << 20);
                v = prc_json_parse((const uint8_t *)text, inlen, &prc_limits_default, 0, &e);
                ok = v != NULL && prc_jcs_write(v, &b, &e);
                if (ok)
                        snprintf(got, sizeof(got), "%s\n", prc_buf_cstr(&b));
                else
                        snprintf(got, sizeof(got), "%s %u %llu\n", prc_err_name(e.cls), (unsigned)e.line,
                                 e.off == PRC_NO_OFF ? 0ULL : (unsigned long long)e.off);
                if (update != NULL && strcmp(update, "1") == 0) {
                        remove(ok ? errp : out);
                        t_write(dir, strrchr(ok ? out : errp, '/') + 1, got, strlen(got));
                }
                want = t_read(ok ? out : errp, NULL);
                if (strcmp(want, got) != 0)
                        t_fail(__FILE__, __LINE__, "%s: got '%s', want '%s'", name, got, want);
                free(want);
                free(text);
                json_decref(v);
                prc_buf_clear(&b);
                free(names[i]);
                seen++;
        }
        free(names);
        T_ASSERT(seen >= 5);
}

/* The pieces the listing writers use spell exactly what prc_jcs_write spells. */
static void test_jcs__string_and_uint_pieces_match_the_document_writer(void)
{
        static const char *const strs[] = { "", "plain", "q\"b\\s", "\b\t\n\f\r", "\x01\x1f\x7f",
                                            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "a/b" };
        static const uint64_t ints[] = { 0, 7, 10, 4294967296ull, 9007199254740991ull };
        prc_buf a, b;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&a, 1u << 16);
        prc_buf_init(&b, 1u << 16);
        for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
                json_t *v = json_string(strs[i]);
                prc_buf_reset(&a);
                prc_buf_reset(&b);
                T_ASSERT(v != NULL);
                T_ASSERT(prc_jcs_write(v, &a, &err));
                T_ASSERT(prc_jcs_write_string(strs[i], strlen(strs[i]), &b, &err));
                T_ASSERT(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
                json_decref(v);
        }
        for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
                json_t *v = json_integer((json_int_t)ints[i]);
                prc_buf_reset(&a);
                prc_buf_reset(&b);
                T_ASSERT(prc_jcs_write(v, &a, &err));
                T_ASSERT(prc_jcs_write_uint(ints[i], &b, &err));
                T_ASSERT(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
                json_decref(v);
        }
        T_ASSERT(!prc_jcs_write_uint(9007199254740992ull, &b, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        prc_err_init(&err);
        T_ASSERT(!prc_jcs_write_string("\xff", 1, &b, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
}

/* The spelling RFC 8785 gives one byte of an ASCII string (the reference for the writer's word-wide path). */
static void ref_byte(prc_buf *b, unsigned char c)
{
        char esc[8];
        prc_err e;

        prc_err_init(&e);
        if (c == '"' || c == '\\')
                snprintf(esc, sizeof(esc), "\\%c", c);
        else if (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r')
                snprintf(esc, sizeof(esc), "\\%c",
                         c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' : c == '\f' ? 'f' : 'r');
        else if (c < 0x20)
                snprintf(esc, sizeof(esc), "\\u%04x", c);
        else
                snprintf(esc, sizeof(esc), "%c", c);
        T_ASSERT(prc_buf_puts(b, esc, &e));
}

/*
 * Strings are checked eight bytes at a time: every byte value at every
 * place of strings of 0 to 24 bytes (both sides of each word edge, and in
 * the tail), in plain text and beside another escape, is spelled as one
 * byte at a time spells it, and a byte that starts no valid UTF-8 is refused.
 */
static void test_jcs__every_byte_at_every_place_of_a_word(void)
{
        prc_buf a, b;
        prc_err err;
        char s[32];

        prc_buf_init(&a, 1u << 16);
        prc_buf_init(&b, 1u << 16);
        for (size_t n = 1; n <= 24; n++) {
                for (size_t at = 0; at < n; at++) {
                        for (unsigned c = 0; c < 256; c++) {
                                for (unsigned other = 0; other < 2; other++) {
                                        memset(s, 'a' + (int)(n % 26), n);
                                        if (other)
                                                s[(at + 5) % n] = '\n';
                                        s[at] = (char)c;
                                        prc_err_init(&err);
                                        prc_buf_reset(&a);
                                        prc_buf_reset(&b);
                                        if (c >= 0x80) {
                                                T_ASSERT(!prc_jcs_write_string(s, n, &a, &err));
                                                T_ERR(err, PRC_E_NOT_CANONICAL);
                                                continue;
                                        }
                                        T_ASSERT(prc_jcs_write_string(s, n, &a, &err));
                                        T_ASSERT(prc_buf_putc(&b, '"', &err));
                                        for (size_t i = 0; i < n; i++)
                                                ref_byte(&b, (unsigned char)s[i]);
                                        T_ASSERT(prc_buf_putc(&b, '"', &err));
                                        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                                                t_fail(__FILE__, __LINE__, "byte 0x%02x at %zu of %zu: %s, not %s", c,
                                                       at, n, prc_buf_cstr(&a), prc_buf_cstr(&b));
                                }
                        }
                }
        }
        prc_err_init(&err);
        prc_buf_reset(&a);
        T_ASSERT(prc_jcs_write_string("", 0, &a, &err));
        T_EQ_STR(prc_buf_cstr(&a), "\"\"");
        prc_buf_clear(&a);
        prc_buf_clear(&b);
}

/* Issue 21: one serialization gives the ID and the bytes of the document with it. */
static void test_jcs__id_write_equals_id_then_write(void)
{
        static const char *const docs[] = {
                "{}", "{\"a\":1}", "{\"z\":1}", "{\"id\":\"stale\"}", "{\"a\":1,\"id\":\"old\",\"z\":[1,{\"b\":2}]}",
                "{\"i\":1,\"ida\":2,\"\u00e9\":3,\"I\":4}", "{\"x\":{\"id\":\"inner ids stay\"}}",
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(docs); i++) {
                json_t *v = json_loads(docs[i], 0, NULL), *w;
                char id1[PRC_SHA256_HEX + 1], id2[PRC_SHA256_HEX + 1];
                prc_buf a, b;
                prc_err e;

                T_ASSERT(v != NULL);
                prc_err_init(&e);
                prc_buf_init(&a, 1 << 16);
                prc_buf_init(&b, 1 << 16);
                T_ASSERT(prc_buf_puts(&a, "prefix", &e));
                T_ASSERT(prc_jcs_id_write(v, "id", &a, id1, &e));
                T_ASSERT(prc_jcs_id(v, "id", id2, &e));
                T_EQ_STR(id1, id2);
                w = json_deep_copy(v);
                json_object_set_new(w, "id", json_string(id2));
                T_ASSERT(prc_buf_puts(&b, "prefix", &e));
                T_ASSERT(prc_jcs_write(w, &b, &e));
                T_EQ_MEM(a.data, a.len, b.data, b.len);
                prc_buf_clear(&a);
                prc_buf_clear(&b);
                json_decref(w);
                json_decref(v);
        }
}

static const prc_test tests[] = {
        T(test_jcs__id_write_equals_id_then_write),
        T(test_jcs__string_and_uint_pieces_match_the_document_writer),
        T(test_jcs__every_byte_at_every_place_of_a_word),
        T(test_jcs__rfc8785_string_escaping_example),
        T(test_jcs__rfc8785_sorting_example),
        T(test_jcs__sorting_with_script_and_newline_keys),
        T(test_jcs__rfc8785_floats_are_not_canonical_here),
        T(test_jcs__literals_and_whitespace),
        T(test_jcs__integers_plain_decimal),
        T(test_jcs__safe_range_bounds),
        T(test_jcs__control_characters_and_minimal_escapes),
        T(test_jcs__nested_objects_sorted_at_every_level),
        T(test_jcs__key_order_is_utf16_not_code_point),
        T(test_jcs__write_without_members),
        T(test_jcs__memo_gives_the_same_bytes),
        T(test_jcs__non_ascii_keys_written_raw),
        T(test_jcs__invalid_utf8_string_or_key_refused),
        T(test_jcs__depth_guard),
        T(test_jcs__output_cap_is_buffer_limit),
        T(test_jcs__digest_and_id_omit_only_top_level_id),
        T(test_jcs__same_document_any_order_same_bytes),
        T(test_jcs__fault_sweep_over_write),
        T(test_jcs__document_digest_of_json_file),
        T(test_jcs__golden_files),
};
PRC_SUITE(jcs, tests)
