/*
 * test_docenc.c - the binary reply encoding (docenc.h): exact bytes, round
 * trips that keep member order and the canonical digest, and every
 * rejection of the client's reader (a compromised worker's reply) with its
 * named class.  Runs under ASan+UBSan.
 */
#include "t.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "content/docenc.h"

/* Encode v; the caller clears *b. */
static void bin(const json_t *v, prc_buf *b)
{
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(b, 16u << 20);
        T_ASSERT(prc_docbin_write(v, b, &err));
        T_NOERR(err);
}

/* Decode p[0..n) under lim; it must be refused with want at offset off (PRC_NO_OFF: any). */
static void expect_refused(const void *p, size_t n, const prc_limits *lim, prc_errclass want, uint64_t off)
{
        prc_err err;
        json_t *v;

        prc_err_init(&err);
        v = prc_docbin_read(p, n, lim, &err);
        T_ASSERT(v == NULL);
        T_ERR(err, want);
        if (off != PRC_NO_OFF)
                T_EQ_INT(err.off, off);
}

static void test_docenc__bytes_are_the_documented_layout(void)
{
        /* {"a":[1,"x",null,true,false,0.5]} */
        static const uint8_t want[] = {
                0x07, 0, 0, 0, 1,                       /* object, 1 member */
                0, 0, 0, 1, 'a',                        /* key "a" */
                0x06, 0, 0, 0, 6,                       /* array, 6 values */
                0x03, 0, 0, 0, 0, 0, 0, 0, 1,           /* integer 1 */
                0x05, 0, 0, 0, 1, 'x',                  /* string "x" */
                0x00, 0x02, 0x01,                       /* null, true, false */
                0x04, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0,     /* real 0.5 (IEEE bits 0x3fe0...) */
        };
        json_t *v = json_pack("{s:[i,s,n,b,b,f]}", "a", 1, "x", 1, 0, 0.5);
        prc_buf b;

        T_ASSERT(v != NULL);
        bin(v, &b);
        T_EQ_MEM(b.data, b.len, want, sizeof(want));
        prc_buf_clear(&b);
        json_decref(v);
}

static void test_docenc__round_trip_keeps_values_order_and_digest(void)
{
        static const char text[] = "{\"z\":[1,-2,true,null,{}],\"\\u00e9\":\"\\u0001\\\"\",\"a\":{\"\\ud83d\\ude00\":0,"
                                   "\"b\":[]},\"big\":9223372036854775807,\"small\":-9223372036854775808,"
                                   "\"nul\":\"a\\u0000b\",\"r\":[0.1,-0.0,1e300,-2.5e-308]}";
        json_t *v = json_loads(text, JSON_ALLOW_NUL, NULL), *back;
        prc_buf b, b2, j1, j2;
        const char *k1, *k2;
        json_t *e1, *e2;
        void *it;
        prc_err err;

        T_ASSERT(v != NULL);
        bin(v, &b);
        prc_err_init(&err);
        back = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
        T_NOERR(err);
        T_ASSERT(back != NULL);
        T_ASSERT(json_equal(v, back));
        T_EQ_INT(json_string_length(json_object_get(back, "nul")), 3);
        T_ASSERT(signbit(json_real_value(json_array_get(json_object_get(back, "r"), 1))));
        /* Member order is the document's own, as the in-process parser leaves it. */
        it = json_object_iter(back);
        json_object_foreach(v, k1, e1) {
                T_ASSERT(it != NULL);
                k2 = json_object_iter_key(it);
                e2 = json_object_iter_value(it);
                T_EQ_STR(k2, k1);
                T_ASSERT(json_equal(e1, e2));
                it = json_object_iter_next(back, it);
        }
        T_ASSERT(it == NULL);
        /* The encoding of a tree is unique: re-encoding gives the same bytes. */
        bin(back, &b2);
        T_EQ_MEM(b2.data, b2.len, b.data, b.len);
        /* Callers' digests come from the tree: the canonical text is unchanged (JCS values only). */
        for (size_t i = 0; i < 4; i++) {
                static const char *const not_jcs[] = { "r", "big", "small", "nul" };
                json_object_del(v, not_jcs[i]);
                json_object_del(back, not_jcs[i]);
        }
        prc_buf_init(&j1, 1u << 20);
        prc_buf_init(&j2, 1u << 20);
        T_ASSERT(prc_jcs_write(v, &j1, &err));
        T_ASSERT(prc_jcs_write(back, &j2, &err));
        T_EQ_MEM(j2.data, j2.len, j1.data, j1.len);
        prc_buf_clear(&j1);
        prc_buf_clear(&j2);
        prc_buf_clear(&b);
        prc_buf_clear(&b2);
        json_decref(back);
        json_decref(v);
}

static void test_docenc__every_truncation_is_invalid_frame(void)
{
        json_t *v = json_pack("{s:[i,s,f,{s:n}],s:s}", "k", 7, "str", 1.5, "in", "t", "ing");
        prc_buf b;

        T_ASSERT(v != NULL);
        bin(v, &b);
        for (size_t n = 0; n < b.len; n++)
                expect_refused(b.data, n, &prc_limits_default, PRC_E_INVALID_FRAME, PRC_NO_OFF);
        prc_buf_clear(&b);
        json_decref(v);
}

static void test_docenc__structure_errors_are_invalid_frame(void)
{
        /* 0x08 to 0x0a are the open spelling (its own test below); 0x0b is the first unknown tag. */
        static const uint8_t tag8[] = { 0x0b }, tagff[] = { 0x06, 0, 0, 0, 1, 0xff };
        static const uint8_t trailing[] = { 0x00, 0x00 };
        static const uint8_t nan[] = { 0x04, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0 };
        static const uint8_t inf[] = { 0x04, 0xff, 0xf0, 0, 0, 0, 0, 0, 0 };
        static const uint8_t nulkey[] = { 0x07, 0, 0, 0, 1, 0, 0, 0, 2, 'a', 0, 0x00 };
        /* Counts that the bytes left cannot hold are refused before anything is built. */
        static const uint8_t huge_array[] = { 0x06, 0xff, 0xff, 0xff, 0xff, 0x00 };
        static const uint8_t short_object[] = { 0x07, 0, 0, 0, 2, 0, 0, 0, 0, 0x00 };
        static const uint8_t long_string[] = { 0x05, 0, 0, 0, 9, 'a', 'b' };

        expect_refused(tag8, sizeof(tag8), &prc_limits_default, PRC_E_INVALID_FRAME, 0);
        expect_refused(tagff, sizeof(tagff), &prc_limits_default, PRC_E_INVALID_FRAME, 5);
        expect_refused(trailing, sizeof(trailing), &prc_limits_default, PRC_E_INVALID_FRAME, 1);
        expect_refused(nan, sizeof(nan), &prc_limits_default, PRC_E_INVALID_FRAME, 0);
        expect_refused(inf, sizeof(inf), &prc_limits_default, PRC_E_INVALID_FRAME, 0);
        expect_refused(nulkey, sizeof(nulkey), &prc_limits_default, PRC_E_INVALID_FRAME, 5);
        expect_refused(huge_array, sizeof(huge_array), &prc_limits_default, PRC_E_INVALID_FRAME, 0);
        expect_refused(short_object, sizeof(short_object), &prc_limits_default, PRC_E_INVALID_FRAME, 0);
        expect_refused(long_string, sizeof(long_string), &prc_limits_default, PRC_E_INVALID_FRAME, PRC_NO_OFF);
        expect_refused(NULL, 0, &prc_limits_default, PRC_E_INVALID_FRAME, 0);
}

static void test_docenc__bad_utf8_and_duplicate_keys_are_refused(void)
{
        static const uint8_t bad_str[] = { 0x05, 0, 0, 0, 3, 'a', 0xc3, 0x28 };
        static const uint8_t surrogate[] = { 0x05, 0, 0, 0, 3, 0xed, 0xa0, 0x80 };
        static const uint8_t bad_key[] = { 0x07, 0, 0, 0, 1, 0, 0, 0, 1, 0xff, 0x00 };
        static const uint8_t dup[] = { 0x07, 0, 0, 0, 2, 0, 0, 0, 1, 'a', 0x00, 0, 0, 0, 1, 'a', 0x01 };

        expect_refused(bad_str, sizeof(bad_str), &prc_limits_default, PRC_E_INVALID_UTF8, 6);
        expect_refused(surrogate, sizeof(surrogate), &prc_limits_default, PRC_E_INVALID_UTF8, 5);
        expect_refused(bad_key, sizeof(bad_key), &prc_limits_default, PRC_E_INVALID_UTF8, 9);
        expect_refused(dup, sizeof(dup), &prc_limits_default, PRC_E_DUPLICATE_FIELD, 11);
}

/* depth nested one-element arrays around null. */
static void nested(prc_buf *b, unsigned depth)
{
        static const uint8_t open1[] = { 0x06, 0, 0, 0, 1 };
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(b, 1u << 20);
        for (unsigned i = 0; i < depth; i++)
                T_ASSERT(prc_buf_put(b, open1, sizeof(open1), &err));
        T_ASSERT(prc_buf_putc(b, 0x00, &err));
}

static void test_docenc__limits_are_enforced(void)
{
        prc_limits lim = prc_limits_default;
        prc_err err;
        prc_buf b;
        json_t *v;
        static const uint8_t three[] = { 0x06, 0, 0, 0, 2, 0x00, 0x00 };
        static const uint8_t keys2[] = { 0x07, 0, 0, 0, 2, 0, 0, 0, 1, 'a', 0x00, 0, 0, 0, 1, 'b', 0x00 };
        static const uint8_t str4[] = { 0x05, 0, 0, 0, 4, 'a', 'b', 'c', 'd' };
        static const uint8_t key4[] = { 0x07, 0, 0, 0, 1, 0, 0, 0, 4, 'a', 'b', 'c', 'd', 0x00 };

        /* Depth counts containers: depth_max arrays are fine, one more is not. */
        lim.depth_max = 5;
        nested(&b, 5);
        prc_err_init(&err);
        v = prc_docbin_read(b.data, b.len, &lim, &err);
        T_ASSERT(v != NULL);
        json_decref(v);
        prc_buf_clear(&b);
        nested(&b, 6);
        expect_refused(b.data, b.len, &lim, PRC_E_DEPTH_LIMIT, 25);
        prc_buf_clear(&b);
        /* The reader's own recursion stays bounded whatever the caller's limit. */
        lim.depth_max = UINT32_MAX;
        nested(&b, 600);
        expect_refused(b.data, b.len, &lim, PRC_E_DEPTH_LIMIT, PRC_NO_OFF);
        prc_buf_clear(&b);

        lim = prc_limits_default;
        lim.nodes_max = 2;
        expect_refused(three, sizeof(three), &lim, PRC_E_NODES_LIMIT, 6);
        lim = prc_limits_default;
        lim.keys_max = 1;
        expect_refused(keys2, sizeof(keys2), &lim, PRC_E_NODES_LIMIT, 0);
        lim = prc_limits_default;
        lim.scalar_max = 3;
        expect_refused(str4, sizeof(str4), &lim, PRC_E_SCALAR_LIMIT, 1);
        expect_refused(key4, sizeof(key4), &lim, PRC_E_SCALAR_LIMIT, 5);
}

static void test_docenc__writer_refuses_what_the_reader_would(void)
{
        json_t *s = json_stringn_nocheck("a\xff", 2), *o = json_object(), *big;
        prc_buf b;
        prc_err err;

        T_ASSERT(s != NULL && o != NULL);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_buf_putc(&b, 'x', &err));
        prc_err_init(&err);
        T_ASSERT(!prc_docbin_write(s, &b, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        T_ASSERT(json_object_setn_new_nocheck(o, "a\0b", 3, json_null()) == 0);
        prc_err_init(&err);
        T_ASSERT(!prc_docbin_write(o, &b, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        T_EQ_MEM(b.data, b.len, "x", 1);        /* a failed write leaves the buffer as it was */
        prc_buf_clear(&b);
        /* Over the buffer's ceiling: buffer-limit (the worker's reply-too-large), nothing left behind. */
        big = json_pack("[s,s]", "0123456789", "0123456789");
        prc_buf_init(&b, 20);
        prc_err_init(&err);
        T_ASSERT(!prc_docbin_write(big, &b, &err));
        T_ERR(err, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        json_decref(big);
        json_decref(o);
        json_decref(s);
}

/*
 * The writer reads strings and keys eight bytes at a time: a NUL in a key
 * and a bad byte in a string or key are seen wherever they sit (each
 * offset of lengths 1 to 24, across the word boundaries and in the tail),
 * and a lone byte >= 0x80 among them is found by the UTF-8 check.
 */
static void test_docenc__writer_sees_a_bad_byte_at_every_offset(void)
{
        static const uint8_t bad[] = { 0x00, 0x80, 0xff, 0xc3 };
        char text[32];
        prc_buf b;
        prc_err err;

        prc_buf_init(&b, 1u << 20);
        for (size_t n = 1; n <= 24; n++) {
                for (size_t at = 0; at < n; at++) {
                        for (size_t k = 0; k < PRC_ARRAY_LEN(bad); k++) {
                                json_t *o = json_object(), *s;
                                bool fine = bad[k] == 0;        /* NUL: refused in a key only */

                                memset(text, 'a', n);
                                text[at] = (char)bad[k];
                                s = json_stringn_nocheck(text, n);
                                T_ASSERT(o != NULL && s != NULL);
                                T_ASSERT(json_object_setn_new_nocheck(o, text, n, json_null()) == 0);
                                prc_err_init(&err);
                                if (prc_docbin_write(s, &b, &err) != fine)
                                        t_fail(__FILE__, __LINE__, "string of %zu, byte %#x at %zu: %s", n, bad[k], at,
                                               prc_err_name(err.cls));
                                prc_err_init(&err);
                                T_ASSERT(!prc_docbin_write(o, &b, &err));
                                T_ERR(err, PRC_E_NOT_CANONICAL);
                                json_decref(o);
                                json_decref(s);
                        }
                        /* and a clean one: a two-byte character there */
                        memset(text, 'a', n + 1);
                        memcpy(text + at, "\xc3\xa9", 2);
                        {
                                json_t *o = json_object();
                                T_ASSERT(json_object_setn_new_nocheck(o, text, n + 1, json_stringn(text, n + 1)) == 0);
                                prc_err_init(&err);
                                T_ASSERT(prc_docbin_write(o, &b, &err));
                                json_decref(o);
                        }
                }
        }
        prc_buf_clear(&b);
}

/* b gets a u32, big-endian. */
static void put_u32(prc_buf *b, uint32_t v)
{
        uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_buf_put(b, be, 4, &err));
}

/*
 * The reader too reads strings and keys eight bytes at a time, the last
 * 1 to 7 as one word (read whole where the reply has 8 bytes left there, a
 * byte at a time at its very end): a NUL in a key and a bad byte in a
 * string or key are seen at each offset of lengths 1 to 24, both with the
 * text last in the reply and with more after it; a good two-byte
 * character is taken there; and short strings met again (the reader shares
 * them) read back as written.
 */
static void test_docenc__reader_sees_a_bad_byte_at_every_offset(void)
{
        static const uint8_t bad[] = { 0x00, 0x80, 0xff, 0xc3 };
        prc_buf b;
        prc_err err;
        char text[32];

        prc_buf_init(&b, 1u << 20);
        for (size_t n = 1; n <= 24; n++) {
                for (size_t at = 0; at < n; at++) {
                        for (size_t k = 0; k <= PRC_ARRAY_LEN(bad); k++) {
                                for (unsigned after = 0; after < 2; after++) {
                                        bool good = k == PRC_ARRAY_LEN(bad);
                                        size_t len = good ? n + 1 : n, start;
                                        json_t *v;

                                        memset(text, 'a', len);
                                        if (good)
                                                memcpy(text + at, "\xc3\xa9", 2);
                                        else
                                                text[at] = (char)bad[k];
                                        for (unsigned key = 0; key < 2; key++) {
                                                prc_err_init(&err);
                                                prc_buf_reset(&b);
                                                T_ASSERT(prc_buf_putc(&b, PRC_DOCBIN_ARRAY, &err));
                                                put_u32(&b, after ? 2 : 1);
                                                if (key) {
                                                        T_ASSERT(prc_buf_putc(&b, PRC_DOCBIN_OBJECT, &err));
                                                        put_u32(&b, 1);
                                                } else {
                                                        T_ASSERT(prc_buf_putc(&b, PRC_DOCBIN_STRING, &err));
                                                }
                                                put_u32(&b, (uint32_t)len);
                                                start = b.len;
                                                T_ASSERT(prc_buf_put(&b, text, len, &err));
                                                if (key)
                                                        T_ASSERT(prc_buf_putc(&b, PRC_DOCBIN_NULL, &err));
                                                if (after) {
                                                        T_ASSERT(prc_buf_putc(&b, PRC_DOCBIN_STRING, &err));
                                                        put_u32(&b, 16);
                                                        T_ASSERT(prc_buf_puts(&b, "zzzzzzzzzzzzzzzz", &err));
                                                }
                                                v = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
                                                if (good || (!key && bad[k] == 0)) {
                                                        const json_t *t = json_array_get(v, 0);
                                                        T_ASSERT(v != NULL && t != NULL);
                                                        if (key)
                                                                T_ASSERT(json_object_getn(t, text, len) != NULL);
                                                        else
                                                                T_EQ_MEM(json_string_value(t), json_string_length(t),
                                                                         text, len);
                                                        json_decref(v);
                                                        continue;
                                                }
                                                if (v != NULL)
                                                        t_fail(__FILE__, __LINE__, "%s of %zu, byte %#x at %zu read",
                                                               key ? "key" : "string", n, bad[k], at);
                                                if (bad[k] == 0) {
                                                        T_ERR(err, PRC_E_INVALID_FRAME);
                                                        T_EQ_INT(err.off, start - 4);
                                                } else {
                                                        T_ERR(err, PRC_E_INVALID_UTF8);
                                                        T_EQ_INT(err.off, start + at);
                                                }
                                        }
                                }
                        }
                }
        }
        /* short strings of every length, twice: the second of each is the first's, shared */
        {
                json_t *a = json_array(), *v;
                char s[80];
                prc_buf w;

                for (unsigned round = 0; round < 2; round++)
                        for (size_t n = 0; n <= sizeof(s); n++) {
                                for (size_t i = 0; i < n; i++)
                                        s[i] = (char)('a' + (n + i) % 7);
                                T_ASSERT(json_array_append_new(a, json_stringn(s, n)) == 0);
                        }
                bin(a, &w);
                prc_err_init(&err);
                v = prc_docbin_read(w.data, w.len, &prc_limits_default, &err);
                T_NOERR(err);
                T_ASSERT(json_equal(a, v));
                json_decref(v);
                json_decref(a);
                prc_buf_clear(&w);
        }
        prc_buf_clear(&b);
}

static void test_docenc__allocation_failures_are_out_of_memory(void)
{
        json_t *v = json_pack("{s:[i,s,{s:f}],s:s}", "k", 7, "str", "in", 1.5, "t", "ing");
        prc_buf b;
        unsigned long n;
        bool done = false;

        T_ASSERT(v != NULL);
        bin(v, &b);
        for (n = 1; !done && n < 200; n++) {
                prc_err err;
                json_t *back;
                prc_err_init(&err);
                prc_fault_arm(n, false);
                back = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
                done = !prc_fault_fired();
                prc_fault_arm(0, false);
                if (done) {
                        T_ASSERT(back != NULL && json_equal(back, v));
                } else {
                        T_ASSERT(back == NULL);         /* never a partial tree */
                        T_ERR(err, PRC_E_OUT_OF_MEMORY);
                }
                json_decref(back);
        }
        T_ASSERT(done);
        prc_buf_clear(&b);
        json_decref(v);
}

/* A document of several chunks: {"k0":"v0..", ...} with wide values. */
static json_t *wide_doc(void)
{
        json_t *o = json_object();
        char k[32], v[200];

        T_ASSERT(o != NULL);
        memset(v, 'x', sizeof(v) - 1);
        v[sizeof(v) - 1] = 0;
        for (int i = 0; i < 2000; i++) {
                snprintf(k, sizeof(k), "k%d", i);
                T_ASSERT(json_object_set_new(o, k, i % 3 ? json_string(v) : json_pack("[i,f]", i, i + 0.5)) == 0);
        }
        return o;
}

struct sink {
        prc_buf got;
        size_t  pieces, fail_at;        /* fail the fail_at-th piece (1-based); 0: never */
        size_t  short_pieces;
        bool    saw_last;
};

static bool sink_put(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct sink *s = ctx;

        T_ASSERT(!s->saw_last);
        s->saw_last = last;
        if (++s->pieces == s->fail_at)
                return prc_err_set(err, PRC_E_IO, "sink closed");
        /* A piece is a full chunk plus at most the value that crossed its end; only the last is shorter. */
        T_ASSERT(n > 0 && n < PRC_DOCBIN_CHUNK + 256);
        if (n < PRC_DOCBIN_CHUNK)
                s->short_pieces++;
        return prc_buf_put(&s->got, p, n, err);
}

static void test_docenc__stream_is_the_same_bytes_in_chunks(void)
{
        json_t *v = wide_doc();
        struct sink s = { .fail_at = 0 };
        prc_buf whole, chunk;
        uint64_t sent = 0;
        prc_err err;

        bin(v, &whole);
        prc_err_init(&err);
        prc_buf_init(&s.got, 16u << 20);
        prc_buf_init(&chunk, 16u << 20);
        T_ASSERT(prc_docbin_stream(v, &chunk, sink_put, &s, &sent, &err));
        T_EQ_INT(sent, whole.len);
        T_ASSERT(s.pieces > 3);
        T_EQ_INT(s.short_pieces, 1);
        T_ASSERT(s.saw_last);
        T_EQ_MEM(s.got.data, s.got.len, whole.data, whole.len);
        /* A sink that fails stops the stream with its own error. */
        s.pieces = 0;
        s.fail_at = 2;
        s.saw_last = false;
        prc_buf_reset(&s.got);
        prc_err_init(&err);
        T_ASSERT(!prc_docbin_stream(v, &chunk, sink_put, &s, &sent, &err));
        T_ERR(err, PRC_E_IO);
        T_EQ_INT(s.pieces, 2);
        /* A bad value stops the stream with the writer's class (the worker then sends a refusal). */
        json_object_set_new(v, "bad", json_stringn_nocheck("\xc0\x80", 2));
        s.pieces = 0;
        s.fail_at = 0;
        s.saw_last = false;
        prc_err_init(&err);
        T_ASSERT(!prc_docbin_stream(v, &chunk, sink_put, &s, &sent, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        T_ASSERT(!s.saw_last);
        prc_buf_clear(&chunk);
        prc_buf_clear(&s.got);
        prc_buf_clear(&whole);
        json_decref(v);
}

struct src {
        const uint8_t *p;
        size_t         n, step, calls, fail_after;     /* hand over step bytes per call; fail on call fail_after */
        uint8_t       *buf;                             /* owned: moved on every call, as a growing buffer may be */
};

static bool src_fill(void *ctx, const uint8_t **buf, size_t have, size_t need, size_t *out_have, prc_err *err)
{
        struct src *s = ctx;
        size_t to = have + s->step;
        uint8_t *nb;

        if (++s->calls == s->fail_after)
                return prc_err_set(err, PRC_E_WORKER_DEAD, "source ended");
        T_ASSERT(need > have && *buf == s->buf);
        if (to < need)
                to = need;
        if (to > s->n)
                to = s->n;      /* the stream holds no more */
        nb = malloc(to + 1);
        T_ASSERT(nb != NULL);
        memcpy(nb, s->buf, have);
        memcpy(nb + have, s->p + have, to - have);
        free(s->buf);
        s->buf = nb;
        *buf = nb;
        *out_have = to;
        return true;
}

static json_t *src_read(struct src *s, prc_err *err)
{
        json_t *v;

        s->buf = calloc(1, 1);
        T_ASSERT(s->buf != NULL);
        v = prc_docbin_read_stream(s->buf, 64u << 20, 0, src_fill, s, &prc_limits_default, err);
        free(s->buf);
        return v;
}

static void test_docenc__stream_read_decodes_as_bytes_arrive(void)
{
        json_t *v = wide_doc(), *back;
        struct src s;
        prc_buf b;
        prc_err err;

        bin(v, &b);
        for (size_t step = 1; step <= 100000; step *= 317) {
                s = (struct src){ .p = b.data, .n = b.len, .step = step };
                prc_err_init(&err);
                back = src_read(&s, &err);
                T_NOERR(err);
                T_ASSERT(back != NULL && json_equal(back, v));
                json_decref(back);
        }
        /* The source's failure is the result: no tree, its class. */
        s = (struct src){ .p = b.data, .n = b.len, .step = 4096, .fail_after = 5 };
        prc_err_init(&err);
        T_ASSERT(src_read(&s, &err) == NULL);
        T_ERR(err, PRC_E_WORKER_DEAD);
        /* A stream that ends inside the document: truncated, invalid-frame. */
        s = (struct src){ .p = b.data, .n = b.len - 1, .step = 4096 };
        prc_err_init(&err);
        T_ASSERT(src_read(&s, &err) == NULL);
        T_ERR(err, PRC_E_INVALID_FRAME);
        prc_buf_clear(&b);
        json_decref(v);
}

/* A hook that takes its member's value only as a blob, and keeps its bytes (test_docenc's own). */
struct blob_take {
        prc_buf got;
        size_t  off;
};

static bool blob_read(void *ctx, prc_docbin_cur *cur, json_t **out, prc_err *err)
{
        struct blob_take *t = ctx;
        const uint8_t *p;
        uint8_t tag;
        size_t n;

        if (!prc_docbin_cur_value(cur, &tag))
                return false;
        if (tag != PRC_DOCBIN_BLOB)
                return false;   /* declined: read as any value */
        if (!prc_docbin_cur_blob(cur, &p, &n, &t->off) || !prc_buf_put(&t->got, p, n, err))
                return false;
        *out = json_null();
        return true;
}

/*
 * prc_docbin_stream_blob: the member's value goes as a blob (tag 0x0b, u32
 * length, the bytes), handed over in pieces no larger than a full chunk
 * (a table never sits whole in the piece buffer); a hook reading the member
 * gets the very bytes, whole and as they arrive; every other reader refuses
 * the tag, and the hook sees no blob where the tree has a value.
 */
static void test_docenc__a_blob_streams_in_pieces_to_its_hook(void)
{
        json_t *v = json_pack("{s:i,s:n,s:s}", "a", 1, "dependencies", "z", "x"), *back;
        size_t n = 3 * PRC_DOCBIN_CHUNK + 123;
        uint8_t *blob = malloc(n);
        struct sink s = { .fail_at = 0 };
        struct blob_take t;
        prc_docbin_hook h = { .key = "dependencies", .read = blob_read, .ctx = &t };
        prc_buf chunk;
        uint64_t sent = 0;
        struct src src;
        prc_err err;

        T_ASSERT(v != NULL && blob != NULL);
        for (size_t i = 0; i < n; i++)
                blob[i] = (uint8_t)(i * 7 + 3);      /* raw bytes: not UTF-8, NULs */
        prc_err_init(&err);
        prc_buf_init(&s.got, 16u << 20);
        prc_buf_init(&chunk, 16u << 20);
        T_ASSERT(prc_docbin_stream_blob(v, "dependencies", blob, n, &chunk, sink_put, &s, &sent, &err));
        T_NOERR(err);
        T_EQ_INT(sent, s.got.len);
        T_ASSERT(s.pieces >= 4 && s.saw_last);
        T_ASSERT(chunk.cap < n);        /* never the whole blob at once */
        /* read whole, then as the bytes arrive */
        for (int way = 0; way < 2; way++) {
                prc_buf_init(&t.got, 16u << 20);
                prc_err_init(&err);
                if (way == 0) {
                        back = prc_docbin_read_stream_hook(s.got.data, s.got.len, s.got.len, NULL, NULL,
                                                           &prc_limits_default, &h, &err);
                } else {
                        src = (struct src){ .p = s.got.data, .n = s.got.len, .step = 1000 };
                        src.buf = calloc(1, 1);
                        T_ASSERT(src.buf != NULL);
                        back = prc_docbin_read_stream_hook(src.buf, s.got.len, 0, src_fill, &src,
                                                           &prc_limits_default, &h, &err);
                        free(src.buf);
                }
                T_NOERR(err);
                T_ASSERT(back != NULL);
                T_EQ_INT(json_integer_value(json_object_get(back, "a")), 1);
                T_EQ_STR(json_string_value(json_object_get(back, "z")), "x");
                T_EQ_MEM(t.got.data, t.got.len, blob, n);
                T_EQ_INT(s.got.data[t.off - 5], PRC_DOCBIN_BLOB);
                json_decref(back);
                prc_buf_clear(&t.got);
        }
        /* Without the hook the tag is unknown. */
        prc_err_init(&err);
        T_ASSERT(prc_docbin_read(s.got.data, s.got.len, &prc_limits_default, &err) == NULL);
        T_ERR(err, PRC_E_INVALID_FRAME);
        T_ASSERT(strstr(err.msg, "unknown value tag 0x0b") != NULL);
        /* A hook on a document without a blob declines, and the value reads as any. */
        prc_err_init(&err);
        prc_buf_reset(&s.got);
        T_ASSERT(prc_docbin_write(v, &s.got, &err));
        prc_buf_init(&t.got, 16u << 20);
        back = prc_docbin_read_stream_hook(s.got.data, s.got.len, s.got.len, NULL, NULL, &prc_limits_default, &h,
                                           &err);
        T_NOERR(err);
        T_ASSERT(back != NULL && json_equal(back, v) && t.got.len == 0);
        json_decref(back);
        prc_buf_clear(&t.got);
        prc_buf_clear(&chunk);
        prc_buf_clear(&s.got);
        free(blob);
        json_decref(v);
}

/* A sink that notes the credit as each piece comes (prc_docbin_top.credit). */
struct credit_sink {
        struct sink      s;
        const uint64_t  *credit;
        uint64_t         first, last;
};

static bool credit_put(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct credit_sink *c = ctx;

        if (c->s.pieces == 0)
                c->first = *c->credit;
        c->last = *c->credit;
        return sink_put(&c->s, p, n, last, err);
}

/*
 * prc_docbin_stream_top with a swapped member: the bytes are those of the
 * document with the swap in its place (with and without a blob beside it);
 * the credit is exactly what the member's own encoding takes beyond the
 * swap's, told when the stream meets it (a piece before it saw none); and
 * a member its encoding would refuse (bad UTF-8, a NUL in a key, too deep)
 * is refused with the class and words the whole document's encoding gives.
 */
static void test_docenc__a_swapped_member_is_measured_as_its_encoding(void)
{
        static char piece[200];
        json_t *own, *v, *swap, *slim, *deep, *in, *big = json_array();
        prc_buf whole, chunk;
        uint64_t credit, sent, wsent;
        prc_err err, err2;

        /* more than two pieces' worth, in values shorter than a piece */
        memset(piece, 'b', sizeof(piece) - 1);
        for (int i = 0; big != NULL && i < 800; i++)
                T_ASSERT(json_array_append_new(big, json_string(piece)) == 0);
        own = json_pack("{s:s,s:[i,f,b,n,{s:s,s:[]}],s:{},s:s}", "go", "1.22", "jobs", 7, 0.5, 1, "x",
                        "\xc3\xa9t\xc3\xa9", "y", "steps", "z", "zz");
        swap = json_pack("{s:s}", "go", "1.22");
        T_ASSERT(own != NULL && swap != NULL);
        prc_buf_init(&whole, 64u << 20);
        prc_buf_init(&chunk, 16u << 20);
        for (int blob = 0; blob < 2; blob++) {
                /* a long first member, so a piece goes before the swap is met */
                struct credit_sink c = { .credit = &credit };
                struct sink want = { .fail_at = 0 };
                prc_docbin_top t = { .swap_key = "details", .swap = swap, .credit = &credit };

                v = json_pack("{s:O,s:s,s:O,s:O}", "a", big, "dependencies", "tree", "details", own, "z", big);
                slim = json_pack("{s:O,s:s,s:O,s:O}", "a", big, "dependencies", "tree", "details", swap, "z", big);
                T_ASSERT(v != NULL && slim != NULL);
                if (blob) {
                        t.blob_key = "dependencies";
                        t.blob = (const uint8_t *)"\x00\xff\x01\x02";
                        t.blob_n = 4;
                }
                prc_err_init(&err);
                prc_buf_reset(&whole);
                prc_buf_init(&want.got, 64u << 20);
                T_ASSERT(prc_docbin_write(v, &whole, &err));
                T_ASSERT(blob ? prc_docbin_stream_blob(slim, "dependencies", t.blob, t.blob_n, &chunk, sink_put, &want,
                                                       &wsent, &err)
                              : prc_docbin_stream(slim, &chunk, sink_put, &want, &wsent, &err));
                prc_buf_init(&c.s.got, 64u << 20);
                credit = 0;
                T_ASSERT(prc_docbin_stream_top(v, &t, &chunk, credit_put, &c, &sent, &err));
                T_NOERR(err);
                T_EQ_INT(sent, c.s.got.len);
                T_EQ_MEM(c.s.got.data, c.s.got.len, want.got.data, want.got.len);
                /* the blob takes what "tree" took: the whole document less the swap's saving */
                T_EQ_INT(credit, whole.len - want.got.len);
                T_ASSERT(credit > 0 && c.first == 0 && c.last == credit && c.s.pieces > 2);
                prc_buf_clear(&c.s.got);
                prc_buf_clear(&want.got);
                json_decref(slim);
                json_decref(v);
        }
        /* A member its encoding refuses: the class and words of the whole document's encoding. */
        deep = json_array();
        in = deep;
        for (int d = 0; d < 2000 && in != NULL; d++) {
                json_t *next = json_array();
                T_ASSERT(next != NULL && json_array_append_new(in, next) == 0);
                in = next;
        }
        for (int i = 0; i < 3; i++) {
                struct sink s = { .fail_at = 0 };
                prc_docbin_top t = { .swap_key = "details", .swap = swap, .credit = &credit };
                json_t *m = i == 0 ? json_stringn_nocheck("a\xff", 2) : i == 1 ? json_object() : json_incref(deep);

                T_ASSERT(m != NULL);
                if (i == 1)
                        T_ASSERT(json_object_setn_new_nocheck(m, "a\0b", 3, json_null()) == 0);
                v = json_pack("{s:s,s:o}", "a", "b", "details", m);
                T_ASSERT(v != NULL);
                prc_err_init(&err);
                prc_err_init(&err2);
                prc_buf_reset(&whole);
                T_ASSERT(!prc_docbin_write(v, &whole, &err2));
                T_ASSERT(err2.cls == (i == 2 ? PRC_E_DEPTH_LIMIT : PRC_E_NOT_CANONICAL));
                prc_buf_init(&s.got, 1u << 20);
                credit = 0;
                T_ASSERT(!prc_docbin_stream_top(v, &t, &chunk, sink_put, &s, &sent, &err));
                T_ERR(err, err2.cls);
                T_EQ_STR(err.msg, err2.msg);
                T_EQ_INT(credit, 0);
                prc_buf_clear(&s.got);
                json_decref(v);
        }
        json_decref(deep);
        prc_buf_clear(&chunk);
        prc_buf_clear(&whole);
        json_decref(swap);
        json_decref(own);
        json_decref(big);
}

/* The open spelling (streaming YAML): the documented bytes, the same tree, one encoding per spelling. */
static void test_docenc__open_spelling_is_the_same_tree(void)
{
        /* {"a":[1,"x"]} */
        static const uint8_t want[] = { 0x09, 0x05, 0, 0, 0, 1, 'a', 0x08, 0x03, 0, 0, 0, 0, 0, 0, 0, 1,
                                        0x05, 0, 0, 0, 1, 'x', 0x0a, 0x0a };
        json_t *v = json_pack("{s:[i,s]}", "a", 1, "x"), *back, *w;
        prc_buf b, c;
        prc_err err;

        T_ASSERT(v != NULL);
        prc_err_init(&err);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_docbin_write_open(v, &b, &err));
        T_EQ_MEM(b.data, b.len, want, sizeof(want));
        back = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
        T_NOERR(err);
        T_ASSERT(back != NULL && json_equal(back, v));
        json_decref(back);
        prc_buf_clear(&b);
        /* A wide, deep document: both spellings decode to the same tree, iteration order included. */
        json_decref(v);
        v = wide_doc();
        prc_buf_init(&b, 16u << 20);
        bin(v, &c);
        T_ASSERT(prc_docbin_write_open(v, &b, &err));
        T_ASSERT(b.len != c.len || memcmp(b.data, c.data, b.len) != 0);
        back = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
        w = prc_docbin_read(c.data, c.len, &prc_limits_default, &err);
        T_ASSERT(back != NULL && w != NULL && json_equal(back, w));
        {
                void *i1 = json_object_iter(back), *i2 = json_object_iter(w);
                while (i1 != NULL && i2 != NULL) {
                        T_EQ_STR(json_object_iter_key(i1), json_object_iter_key(i2));
                        i1 = json_object_iter_next(back, i1);
                        i2 = json_object_iter_next(w, i2);
                }
                T_ASSERT(i1 == NULL && i2 == NULL);
        }
        /* Empty containers. */
        {
                static const uint8_t empties[] = { 0x08, 0x09, 0x0a, 0x08, 0x0a, 0x0a };
                json_t *e = prc_docbin_read(empties, sizeof(empties), &prc_limits_default, &err);
                T_ASSERT(e != NULL && json_array_size(e) == 2 && json_object_size(json_array_get(e, 0)) == 0 &&
                         json_array_size(json_array_get(e, 1)) == 0);
                json_decref(e);
        }
        json_decref(back);
        json_decref(w);
        json_decref(v);
        prc_buf_clear(&b);
        prc_buf_clear(&c);
}

/* Every rejection the open spelling adds, and the checks it shares with the counted one. */
static void test_docenc__open_spelling_errors(void)
{
        prc_limits lim = prc_limits_default;
        static const uint8_t end_alone[] = { 0x0a };
        static const uint8_t end_in_counted[] = { 0x06, 0, 0, 0, 1, 0x0a };
        static const uint8_t unterminated[] = { 0x08, 0x00, 0x00 };
        static const uint8_t unterminated_obj[] = { 0x09, 0x05, 0, 0, 0, 1, 'a', 0x00 };
        static const uint8_t bare_key[] = { 0x09, 0, 0, 0, 1, 'a', 0x00, 0x0a };
        static const uint8_t int_key[] = { 0x09, 0x03, 0, 0, 0, 0, 0, 0, 0, 1, 0x00, 0x0a };
        static const uint8_t mixed1[] = { 0x08, 0x06, 0, 0, 0, 0, 0x0a };
        static const uint8_t mixed2[] = { 0x06, 0, 0, 0, 1, 0x08, 0x0a };
        static const uint8_t mixed3[] = { 0x06, 0, 0, 0, 2, 0x06, 0, 0, 0, 0, 0x09, 0x0a };
        static const uint8_t dup[] = { 0x09, 0x05, 0, 0, 0, 1, 'a', 0x00, 0x05, 0, 0, 0, 1, 'a', 0x01, 0x0a };
        static const uint8_t nulkey[] = { 0x09, 0x05, 0, 0, 0, 2, 'a', 0, 0x00, 0x0a };
        static const uint8_t badkey[] = { 0x09, 0x05, 0, 0, 0, 1, 0xff, 0x00, 0x0a };
        static const uint8_t keys2[] = { 0x09, 0x05, 0, 0, 0, 1, 'a', 0x00, 0x05, 0, 0, 0, 1, 'b', 0x00, 0x0a };
        static const uint8_t after[] = { 0x08, 0x0a, 0x00 };
        static const uint8_t nodes3[] = { 0x08, 0x00, 0x00, 0x0a };
        static const uint8_t deep3[] = { 0x08, 0x08, 0x08, 0x0a, 0x0a, 0x0a };

        expect_refused(end_alone, sizeof(end_alone), &lim, PRC_E_INVALID_FRAME, 0);
        expect_refused(end_in_counted, sizeof(end_in_counted), &lim, PRC_E_INVALID_FRAME, 5);
        expect_refused(unterminated, sizeof(unterminated), &lim, PRC_E_INVALID_FRAME, 3);
        expect_refused(unterminated_obj, sizeof(unterminated_obj), &lim, PRC_E_INVALID_FRAME, 8);
        expect_refused(bare_key, sizeof(bare_key), &lim, PRC_E_INVALID_FRAME, 1);
        expect_refused(int_key, sizeof(int_key), &lim, PRC_E_INVALID_FRAME, 1);
        expect_refused(mixed1, sizeof(mixed1), &lim, PRC_E_INVALID_FRAME, 1);
        expect_refused(mixed2, sizeof(mixed2), &lim, PRC_E_INVALID_FRAME, 5);
        expect_refused(mixed3, sizeof(mixed3), &lim, PRC_E_INVALID_FRAME, 10);
        expect_refused(dup, sizeof(dup), &lim, PRC_E_DUPLICATE_FIELD, 8);
        expect_refused(nulkey, sizeof(nulkey), &lim, PRC_E_INVALID_FRAME, 2);
        expect_refused(badkey, sizeof(badkey), &lim, PRC_E_INVALID_UTF8, 6);
        expect_refused(after, sizeof(after), &lim, PRC_E_INVALID_FRAME, 2);
        lim.keys_max = 1;
        expect_refused(keys2, sizeof(keys2), &lim, PRC_E_NODES_LIMIT, 8);
        lim = prc_limits_default;
        lim.nodes_max = 2;
        expect_refused(nodes3, sizeof(nodes3), &lim, PRC_E_NODES_LIMIT, 2);
        lim = prc_limits_default;
        lim.depth_max = 2;
        expect_refused(deep3, sizeof(deep3), &lim, PRC_E_DEPTH_LIMIT, 2);
        lim = prc_limits_default;
        lim.scalar_max = 0;
        expect_refused(keys2, sizeof(keys2), &lim, PRC_E_SCALAR_LIMIT, 2);
        /* Every truncation of a valid open document is refused, never a partial tree. */
        {
                json_t *v = wide_doc();
                prc_buf b;
                prc_err err;
                prc_err_init(&err);
                prc_buf_init(&b, 16u << 20);
                T_ASSERT(prc_docbin_write_open(v, &b, &err));
                for (size_t cut = 0; cut < b.len; cut += 1 + cut / 8)
                        expect_refused(b.data, cut, &prc_limits_default, PRC_E_INVALID_FRAME, PRC_NO_OFF);
                prc_buf_clear(&b);
                json_decref(v);
        }
}

struct owsink {
        prc_buf all;
        size_t  pieces, short_pieces;
        bool    saw_last;
};

static bool ow_put(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct owsink *s = ctx;

        T_ASSERT(!s->saw_last);
        T_ASSERT(n > 0);
        s->pieces++;
        s->short_pieces += n < PRC_DOCBIN_CHUNK;
        s->saw_last = last;
        return prc_buf_put(&s->all, p, n, err);
}

/* The event-by-event writer: the bytes of prc_docbin_write_open, in pieces of at least PRC_DOCBIN_CHUNK. */
static void test_docenc__open_writer_pieces(void)
{
        json_t *v = wide_doc(), *e;
        struct owsink s = { .pieces = 0 };
        prc_docbin_ow w;
        prc_buf chunk, whole;
        prc_err err;
        const char *k;
        size_t klen;

        prc_err_init(&err);
        prc_buf_init(&chunk, 16u << 20);
        prc_buf_init(&whole, 16u << 20);
        prc_buf_init(&s.all, 16u << 20);
        T_ASSERT(prc_docbin_write_open(v, &whole, &err));
        prc_docbin_ow_init(&w, &chunk, ow_put, &s);
        T_ASSERT(prc_docbin_ow_open(&w, true, &err));
        json_object_keylen_foreach(v, k, klen, e)
                T_ASSERT(prc_docbin_ow_key(&w, k, klen, &err) && prc_docbin_ow_value(&w, e, &err));
        T_ASSERT(prc_docbin_ow_close(&w, &err));
        T_ASSERT(prc_docbin_ow_finish(&w, &err));
        T_NOERR(err);
        T_EQ_MEM(s.all.data, s.all.len, whole.data, whole.len);
        T_EQ_INT(w.size, whole.len);
        T_ASSERT(s.pieces > 3 && s.saw_last);
        T_EQ_INT(s.short_pieces, 1);
        /* A key with NUL is refused as the counted writer refuses it. */
        prc_docbin_ow_init(&w, &chunk, ow_put, &s);
        T_ASSERT(!prc_docbin_ow_key(&w, "a\0b", 3, &err));
        T_ERR(err, PRC_E_NOT_CANONICAL);
        prc_buf_clear(&chunk);
        prc_buf_clear(&whole);
        prc_buf_clear(&s.all);
        json_decref(v);
}

/* An arena block: its bytes start 8 past a multiple of 16 (json_strict.c), never malloc's. */
static bool in_arena(const void *p)
{
        return ((uintptr_t)p & 15) == 8;
}

static void *drop_tree(void *v)
{
        json_decref(v);
        return NULL;
}

/*
 * A reply's tree is carved from the reading thread's arena, not a malloc
 * per node (a long string's bytes still are malloc'd); it is freed from
 * another thread as the scan does, a node kept past it stays whole (and its
 * chunk with it, until it goes too: LeakSanitizer checks every chunk is
 * freed), and a tree built after the read is on malloc again.
 */
static void test_docenc__reply_tree_is_carved_from_an_arena(void)
{
        json_t *v = json_array(), *back, *kept, *after;
        char big[3000];
        prc_buf b;
        prc_err err;
        pthread_t th;

        T_ASSERT(v != NULL);
        memset(big, 'x', sizeof(big));
        for (int i = 0; i < 5000; i++)
                T_ASSERT(json_array_append_new(v, json_pack("{s:i,s:s,s:[s]}", "n", i, "k", i % 2 ? "odd" : "even",
                                                            "l", "v")) == 0);
        T_ASSERT(json_array_append_new(v, json_stringn(big, sizeof(big))) == 0);
        bin(v, &b);
        prc_err_init(&err);
        back = prc_docbin_read(b.data, b.len, &prc_limits_default, &err);
        T_NOERR(err);
        T_ASSERT(back != NULL && json_equal(back, v));
        T_ASSERT(in_arena(back) && in_arena(json_array_get(back, 4999)));
        T_ASSERT(in_arena(json_object_get(json_array_get(back, 17), "n")));
        T_ASSERT(in_arena(json_array_get(back, 5000)) && !in_arena(json_string_value(json_array_get(back, 5000))));
        kept = json_incref(json_object_get(json_array_get(back, 4321), "k"));
        T_ASSERT(pthread_create(&th, NULL, drop_tree, back) == 0);
        T_ASSERT(pthread_join(th, NULL) == 0);
        T_EQ_STR(json_string_value(kept), "odd");
        json_decref(kept);
        after = json_pack("{s:s}", "a", "b");
        T_ASSERT(after != NULL && !in_arena(after) && !in_arena(json_object_get(after, "a")));
        json_decref(after);
        prc_buf_clear(&b);
        json_decref(v);
}

static const prc_test tests[] = {
        T(test_docenc__bytes_are_the_documented_layout),
        T(test_docenc__round_trip_keeps_values_order_and_digest),
        T(test_docenc__every_truncation_is_invalid_frame),
        T(test_docenc__structure_errors_are_invalid_frame),
        T(test_docenc__bad_utf8_and_duplicate_keys_are_refused),
        T(test_docenc__limits_are_enforced),
        T(test_docenc__writer_refuses_what_the_reader_would),
        T(test_docenc__writer_sees_a_bad_byte_at_every_offset),
        T(test_docenc__reader_sees_a_bad_byte_at_every_offset),
        T(test_docenc__allocation_failures_are_out_of_memory),
        T(test_docenc__open_spelling_is_the_same_tree),
        T(test_docenc__open_spelling_errors),
        T(test_docenc__open_writer_pieces),
        T(test_docenc__stream_is_the_same_bytes_in_chunks),
        T(test_docenc__stream_read_decodes_as_bytes_arrive),
        T(test_docenc__a_blob_streams_in_pieces_to_its_hook),
        T(test_docenc__a_swapped_member_is_measured_as_its_encoding),
        T(test_docenc__reply_tree_is_carved_from_an_arena),
};
PRC_SUITE(docenc, tests)
