/*
 * test_json_stream.c - the worker's streaming JSON reader (json_stream.h)
 * against the strict reader it stands in for: it streams exactly the
 * documents prc_json_parse accepts, as exactly the bytes prc_docbin_write
 * gives for prc_json_parse's tree, and declines everything else (numbers,
 * escapes, UTF-8, duplicate keys, every limit, every flag).  The second
 * suite runs requests through a real floored worker: a refusal found after
 * pieces were sent is still the strict reader's, with its location.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/json_strict.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/json_stream.h"

struct sink {
        prc_buf all;
        size_t  pieces, before_last;    /* pieces handed over; of them not last */
        bool    fail;                   /* refuse the next piece, as a broken pipe would */
};

static bool collect(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err)
{
        struct sink *s = ctx;

        if (s->fail)
                return prc_err_set(err, PRC_E_WORKER_DEAD, "sink refuses");
        s->pieces++;
        if (!last)
                s->before_last++;
        return prc_buf_put(&s->all, p, n, err);
}

/*
 * Run both readers on text under lim and flags.  want is PRC_E_OK when the
 * strict reader must accept (then the stream must be its tree's bytes), else
 * the class it must refuse with (then the stream must decline).
 */
static void agree_n(const char *text, size_t n, const prc_limits *lim, unsigned flags, prc_errclass want)
{
        prc_err err, serr;
        prc_buf chunk, enc;
        struct sink s = { 0 };
        uint64_t size = 0;
        prc_js_rc rc;
        json_t *v;

        prc_err_init(&err);
        prc_err_init(&serr);
        prc_buf_init(&chunk, 64u << 20);
        prc_buf_init(&enc, 64u << 20);
        prc_buf_init(&s.all, 64u << 20);
        v = prc_json_parse((const uint8_t *)text, n, lim, flags, &err);
        rc = prc_json_stream((const uint8_t *)text, n, lim, flags, &chunk, collect, &s, &size, &serr);
        T_NOERR(serr);
        if (want == PRC_E_OK) {
                T_NOERR(err);
                T_ASSERT(v != NULL);
                T_EQ_INT(rc, PRC_JS_DONE);
                T_ASSERT(prc_docbin_write(v, &enc, &err));
                T_EQ_MEM(s.all.data, s.all.len, enc.data, enc.len);
                T_EQ_INT(size, s.all.len);
        } else {
                T_ASSERT(v == NULL);
                T_ERR(err, want);
                T_EQ_INT(rc, PRC_JS_DECLINED);
        }
        json_decref(v);
        prc_buf_clear(&chunk);
        prc_buf_clear(&enc);
        prc_buf_clear(&s.all);
}

static void agree(const char *text, unsigned flags, prc_errclass want)
{
        agree_n(text, strlen(text), &prc_limits_default, flags, want);
}

static void agree_l(const char *text, const prc_limits *lim, unsigned flags, prc_errclass want)
{
        agree_n(text, strlen(text), lim, flags, want);
}

enum { F = PRC_JSON_ALLOW_FLOAT, U = PRC_JSON_ALLOW_UNSAFE_INT, Z = PRC_JSON_ALLOW_NUL };

static void test_json_stream__values_are_the_strict_readers_bytes(void)
{
        agree("null", 0, PRC_E_OK);
        agree(" \t\r\ntrue\n", 0, PRC_E_OK);
        agree("false", 0, PRC_E_OK);
        agree("\"\"", 0, PRC_E_OK);
        agree("[]", 0, PRC_E_OK);
        agree("{}", 0, PRC_E_OK);
        agree("[[],{},[[]],{\"\":{}}]", 0, PRC_E_OK);
        agree("{\"b\":1,\"a\":[true,false,null],\"c\":{\"z\":\"x\",\"y\":[]}}", 0, PRC_E_OK);
        agree(" [ 1 , 2 ,\n3 ] ", 0, PRC_E_OK);
        /* Member order is the document's: the writer sorts nothing. */
        agree("{\"z\":1,\"a\":2,\"m\":3}", 0, PRC_E_OK);
}

static void test_json_stream__numbers_convert_as_jansson_does(void)
{
        agree("0", 0, PRC_E_OK);
        agree("-0", 0, PRC_E_OK);               /* an integer 0, not a real */
        agree("-0.0", F, PRC_E_OK);             /* the real -0.0, its bits kept */
        agree("123456789012345678", 0, PRC_E_UNSAFE_NUMBER);    /* 18 digits, above 2^53 */
        agree("123456789012345678", U, PRC_E_OK);
        agree("9007199254740991", 0, PRC_E_OK);
        agree("-9007199254740991", 0, PRC_E_OK);
        agree("9007199254740992", 0, PRC_E_UNSAFE_NUMBER);
        agree("9007199254740992", U, PRC_E_OK);
        agree("9223372036854775807", U, PRC_E_OK);
        agree("-9223372036854775808", U, PRC_E_OK);
        agree("9223372036854775808", U, PRC_E_UNSAFE_NUMBER);  /* jansson: too big integer */
        agree("-9223372036854775809", U, PRC_E_UNSAFE_NUMBER);
        agree("00012345678901234567890", U, PRC_E_INVALID_JSON);
        agree("1.5", 0, PRC_E_UNSAFE_NUMBER);   /* floats only by flag */
        agree("1.5", F, PRC_E_OK);
        agree("1e2", F, PRC_E_OK);
        agree("1E+2", F, PRC_E_OK);
        agree("1e-2", F, PRC_E_OK);
        agree("0.1", F, PRC_E_OK);
        agree("2.2250738585072011e-308", F, PRC_E_OK);   /* rounds across the normal boundary */
        agree("1e-400", F, PRC_E_OK);           /* underflow to 0 is accepted, as jansson does */
        agree("-1e-400", F, PRC_E_OK);
        agree("1e400", F, PRC_E_UNSAFE_NUMBER); /* overflow is refused: real number overflow */
        agree("-1e400", F, PRC_E_UNSAFE_NUMBER);
        agree("1.00000000000000011102230246251565404236316680908203125", F, PRC_E_OK);
        agree("123456789012345678901234567890.5e-10", F, PRC_E_OK);
        agree("[1.0e0,-0e0,0E0]", F, PRC_E_OK);
        agree("01", 0, PRC_E_INVALID_JSON);
        agree("-", 0, PRC_E_INVALID_JSON);
        agree("-a", 0, PRC_E_INVALID_JSON);
        agree("+1", 0, PRC_E_INVALID_JSON);
        agree("1.", F, PRC_E_INVALID_JSON);
        agree(".5", F, PRC_E_INVALID_JSON);
        agree("1e", F, PRC_E_INVALID_JSON);
        agree("1e+", F, PRC_E_INVALID_JSON);
        agree("1.5.3", F, PRC_E_INVALID_JSON);
        agree("0x10", 0, PRC_E_INVALID_JSON);
        agree("[1true]", 0, PRC_E_INVALID_JSON);
        agree("NaN", F, PRC_E_INVALID_JSON);
        agree("Infinity", F, PRC_E_INVALID_JSON);
}

static void test_json_stream__escapes_and_surrogates(void)
{
        agree("\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", 0, PRC_E_OK);
        agree("\"\\u00e9\\u20AC\\uFFFF\"", 0, PRC_E_OK);
        agree("\"\\ud83d\\ude00\"", 0, PRC_E_OK);               /* a pair: one 4-byte character */
        agree("\"\\uD800\"", 0, PRC_E_INVALID_JSON);            /* lone high */
        agree("\"\\uDC00\"", 0, PRC_E_INVALID_JSON);            /* lone low */
        agree("\"\\uD800\\u0041\"", 0, PRC_E_INVALID_JSON);     /* high then not a low */
        agree("\"\\uD800x\"", 0, PRC_E_INVALID_JSON);
        agree("\"\\uDBFF\\uDFFF\"", 0, PRC_E_OK);
        agree("\"\\u12\"", 0, PRC_E_INVALID_JSON);
        agree("\"\\u12G4\"", 0, PRC_E_INVALID_JSON);
        agree("\"\\x\"", 0, PRC_E_INVALID_JSON);
        agree("\"\\'\"", 0, PRC_E_INVALID_JSON);
        agree("\"tab\there\"", 0, PRC_E_INVALID_JSON);          /* raw control characters */
        agree("\"a\\\\\"", 0, PRC_E_OK);                        /* an escaped backslash before the quote */
        agree("\"a\\\\\\\"\"", 0, PRC_E_OK);
        agree("\"unterminated", 0, PRC_E_INVALID_JSON);
        agree("\"ends in a backslash\\\"", 0, PRC_E_INVALID_JSON);
        /* \u0000: refused unless allowed, and never in a key. */
        agree("\"a\\u0000b\"", 0, PRC_E_NUL_BYTE);
        agree("\"a\\u0000b\"", Z, PRC_E_OK);
        agree("{\"a\\u0000\":1}", Z, PRC_E_NUL_BYTE);
        agree("{\"a\\u0000\":1}", 0, PRC_E_NUL_BYTE);
        agree_n("\"a\0b\"", 5, &prc_limits_default, Z, PRC_E_NUL_BYTE);       /* a raw NUL never */
        agree_n("[1]\0", 4, &prc_limits_default, 0, PRC_E_NUL_BYTE);
}

static void test_json_stream__utf8_is_checked_as_the_strict_reader_does(void)
{
        agree("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", 0, PRC_E_OK);
        agree("\"\xc3\"", 0, PRC_E_INVALID_UTF8);               /* truncated */
        agree("\"\xc0\xaf\"", 0, PRC_E_INVALID_UTF8);           /* overlong */
        agree("\"\xed\xa0\x80\"", 0, PRC_E_INVALID_UTF8);       /* an encoded surrogate */
        agree("\"\xf4\x90\x80\x80\"", 0, PRC_E_INVALID_UTF8);   /* above U+10FFFF */
        agree("{\"\xff\":1}", 0, PRC_E_INVALID_UTF8);
        agree("\xef\xbb\xbf{}", 0, PRC_E_INVALID_JSON);         /* a BOM is not whitespace */
}

static void test_json_stream__grammar(void)
{
        agree("", 0, PRC_E_INVALID_JSON);
        {
                /* No buffer at all, as an empty request's input may be. */
                prc_buf chunk;
                struct sink sk = { 0 };
                uint64_t size = 0;
                prc_err e;
                prc_err_init(&e);
                prc_buf_init(&chunk, 1u << 20);
                T_EQ_INT(prc_json_stream(NULL, 0, &prc_limits_default, 0, &chunk, collect, &sk, &size, &e),
                         PRC_JS_DECLINED);
                T_NOERR(e);
                T_EQ_INT(sk.pieces, 0);
                prc_buf_clear(&chunk);
        }
        agree("   ", 0, PRC_E_INVALID_JSON);
        agree("[1,]", 0, PRC_E_INVALID_JSON);
        agree("[,1]", 0, PRC_E_INVALID_JSON);
        agree("[1 2]", 0, PRC_E_INVALID_JSON);
        agree("{\"a\"}", 0, PRC_E_INVALID_JSON);
        agree("{\"a\":}", 0, PRC_E_INVALID_JSON);
        agree("{\"a\":1,}", 0, PRC_E_INVALID_JSON);
        agree("{a:1}", 0, PRC_E_INVALID_JSON);
        agree("{1:1}", 0, PRC_E_INVALID_JSON);
        agree("[1}", 0, PRC_E_INVALID_JSON);
        agree("{\"a\":1]", 0, PRC_E_INVALID_JSON);
        agree("[", 0, PRC_E_INVALID_JSON);
        agree("]", 0, PRC_E_INVALID_JSON);
        agree("[]]", 0, PRC_E_INVALID_JSON);
        agree("[] []", 0, PRC_E_INVALID_JSON);
        agree("1 2", 0, PRC_E_INVALID_JSON);
        agree("tru", 0, PRC_E_INVALID_JSON);
        agree("truex", 0, PRC_E_INVALID_JSON);
        agree("nulll", 0, PRC_E_INVALID_JSON);
        agree("True", 0, PRC_E_INVALID_JSON);
        agree("[\"a\",\v1]", 0, PRC_E_INVALID_JSON);             /* \v is not JSON whitespace */
        agree("\f[]", 0, PRC_E_INVALID_JSON);
        agree("[\"]\",\"[\",\"{\\\"\"]", 0, PRC_E_OK);          /* brackets inside strings do not count */
        agree("{\"a\":\"}\",\"b\":[\",\"]}", 0, PRC_E_OK);
}

static void test_json_stream__duplicate_keys(void)
{
        char big[4096];
        size_t n = 0;

        agree("{\"a\":1,\"a\":2}", 0, PRC_E_DUPLICATE_FIELD);
        agree("{\"\":1,\"\":2}", 0, PRC_E_DUPLICATE_FIELD);
        agree("{\"a\":1,\"\\u0061\":2}", 0, PRC_E_DUPLICATE_FIELD);      /* the same key spelled twice */
        agree("{\"a\":{\"a\":1},\"b\":{\"a\":1}}", 0, PRC_E_OK);         /* one key in different objects */
        agree("{\"a\":{\"b\":1},\"b\":2}", 0, PRC_E_OK);                  /* a child's key is not the parent's */
        agree("{\"x\":[{\"k\":1},{\"k\":2}],\"k\":3}", 0, PRC_E_OK);
        agree("{\"a\":{\"b\":1,\"b\":2}}", 0, PRC_E_DUPLICATE_FIELD);
        agree("{\"ab\":1,\"a\":2,\"b\":3}", 0, PRC_E_OK);
        /* Large objects use the hash table: a duplicate far apart, and none. */
        n += (size_t)snprintf(big + n, sizeof(big) - n, "{");
        for (int i = 0; i < 100; i++)
                n += (size_t)snprintf(big + n, sizeof(big) - n, "\"k%d\":{\"k%d\":%d},", i, i, i);
        snprintf(big + n, sizeof(big) - n, "\"end\":0}");
        agree(big, 0, PRC_E_OK);
        snprintf(big + n, sizeof(big) - n, "\"k3\":0}");
        agree(big, 0, PRC_E_DUPLICATE_FIELD);
        snprintf(big + n, sizeof(big) - n, "\"k99\":0}");
        agree(big, 0, PRC_E_DUPLICATE_FIELD);
        /* The 16th and 17th keys, where the scan hands over to the table. */
        for (int dup = 0; dup < 18; dup++) {
                n = (size_t)snprintf(big, sizeof(big), "{");
                for (int i = 0; i < 17; i++)
                        n += (size_t)snprintf(big + n, sizeof(big) - n, "\"%d\":0,", i);
                snprintf(big + n, sizeof(big) - n, "\"%d\":1}", dup);
                agree(big, 0, dup < 17 ? PRC_E_DUPLICATE_FIELD : PRC_E_OK);
        }
}

static void nest(char *out, size_t cap, unsigned depth, const char *inner)
{
        size_t n = 0;

        for (unsigned i = 0; i < depth; i++)
                out[n++] = '[';
        n += (size_t)snprintf(out + n, cap - n, "%s", inner);
        for (unsigned i = 0; i < depth; i++)
                out[n++] = ']';
        out[n] = '\0';
}

static void test_json_stream__limits(void)
{
        prc_limits lim = prc_limits_default;
        char buf[2048];

        /* Depth: depth_max containers are fine, one more is not. */
        lim.depth_max = 5;
        nest(buf, sizeof(buf), 5, "1");
        agree_n(buf, strlen(buf), &lim, 0, PRC_E_OK);
        nest(buf, sizeof(buf), 6, "1");
        agree_n(buf, strlen(buf), &lim, 0, PRC_E_DEPTH_LIMIT);
        agree_l("{\"a\":{\"b\":{\"c\":{\"d\":{}}}}}", &lim, 0, PRC_E_OK);
        agree_l("{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":[]}}}}}", &lim, 0, PRC_E_DEPTH_LIMIT);
        /* Deeper than the reader's own bound but within the limits: declined up front, strict reader decides. */
        lim = prc_limits_default;
        lim.depth_max = 1000;
        nest(buf, sizeof(buf), PRC_JS_DEPTH_MAX, "[]");
        {
                prc_buf chunk;
                struct sink s = { 0 };
                uint64_t size = 7;
                prc_err e;
                prc_err_init(&e);
                prc_buf_init(&chunk, 1u << 20);
                prc_buf_init(&s.all, 1u << 20);
                T_EQ_INT(prc_json_stream((const uint8_t *)buf, strlen(buf), &lim, 0, &chunk, collect, &s, &size, &e),
                         PRC_JS_DECLINED);
                T_EQ_INT(size, 0);      /* nothing was sent */
                T_EQ_INT(s.pieces, 0);
                T_NOERR(e);
                prc_buf_clear(&chunk);
                prc_buf_clear(&s.all);
        }
        /* Values: nodes_max of them, then one more. */
        lim = prc_limits_default;
        lim.nodes_max = 4;
        agree_l("[1,[2]]", &lim, 0, PRC_E_OK);                /* four values */
        agree_l("[1,[2],3]", &lim, 0, PRC_E_NODES_LIMIT);
        agree_l("{\"a\":1,\"b\":[2],\"c\":3}", &lim, 0, PRC_E_NODES_LIMIT);
        agree_l("[1,[2,3],4]", &lim, 0, PRC_E_NODES_LIMIT);
        /* Keys of one object. */
        lim = prc_limits_default;
        lim.keys_max = 2;
        agree_l("{\"a\":1,\"b\":{\"c\":1,\"d\":2}}", &lim, 0, PRC_E_OK);
        agree_l("{\"a\":1,\"b\":2,\"c\":3}", &lim, 0, PRC_E_NODES_LIMIT);
        /* String and key bytes after unescaping: \u00e9 is 2 bytes, not 6. */
        lim = prc_limits_default;
        lim.scalar_max = 4;
        agree_l("[\"abcd\",\"\\u00e9\\u00e9\"]", &lim, 0, PRC_E_OK);
        agree_l("[\"abcde\"]", &lim, 0, PRC_E_SCALAR_LIMIT);
        agree_l("[\"\\u00e9\\u00e9x\"]", &lim, 0, PRC_E_SCALAR_LIMIT);
        agree_l("{\"abcd\":1}", &lim, 0, PRC_E_OK);
        agree_l("{\"abcde\":1}", &lim, 0, PRC_E_SCALAR_LIMIT);
        /* The whole input. */
        lim = prc_limits_default;
        lim.input_max = 3;
        agree_l("[1]", &lim, 0, PRC_E_OK);
        agree_l("[1] ", &lim, 0, PRC_E_INPUT_TOO_LARGE);
}

/* A document of about n bytes: an array of small objects, as package records are. */
static char *records(size_t n, size_t *len)
{
        char *t = malloc(n + 256);
        size_t k = 0;

        T_ASSERT(t != NULL);
        t[k++] = '[';
        for (int i = 0; k < n; i++)
                k += (size_t)snprintf(t + k, n + 256 - k,
                                      "%s{\"name\":\"pkg-%d\",\"version\":\"1.%d.0\",\"n\":%d,"
                                      "\"r\":%d.25,\"ok\":true,\"deps\":[\"a\",\"b\\u00e9\"]}",
                                      i ? "," : "", i, i, i, i);
        t[k++] = ']';
        t[k] = '\0';
        *len = k;
        return t;
}

static void test_json_stream__pieces_go_out_while_reading(void)
{
        size_t n;
        char *t = records(1u << 20, &n);
        prc_buf chunk;
        struct sink s = { 0 };
        uint64_t size = 0;
        prc_err e;

        agree_n(t, n, &prc_limits_default, F, PRC_E_OK);
        prc_err_init(&e);
        prc_buf_init(&chunk, 64u << 20);
        prc_buf_init(&s.all, 64u << 20);
        T_EQ_INT(prc_json_stream((const uint8_t *)t, n, &prc_limits_default, F, &chunk, collect, &s, &size, &e),
                 PRC_JS_DONE);
        T_ASSERT(s.before_last >= 10);  /* 1 MiB of text is well over ten 64 KiB pieces */
        T_EQ_INT(s.pieces, s.before_last + 1);
        prc_buf_clear(&s.all);
        /* A bad byte at the very end: declined after pieces went out; the strict reader refuses it. */
        t[n - 1] = '}';
        prc_buf_init(&s.all, 64u << 20);
        s.pieces = s.before_last = 0;
        T_EQ_INT(prc_json_stream((const uint8_t *)t, n, &prc_limits_default, F, &chunk, collect, &s, &size, &e),
                 PRC_JS_DECLINED);
        T_ASSERT(size > 0);
        T_NOERR(e);
        agree_n(t, n, &prc_limits_default, F, PRC_E_INVALID_JSON);
        /* The sink failing is a failure with its class, not a decline. */
        t[n - 1] = ']';
        s.fail = true;
        T_EQ_INT(prc_json_stream((const uint8_t *)t, n, &prc_limits_default, F, &chunk, collect, &s, &size, &e),
                 PRC_JS_FAILED);
        T_ERR(e, PRC_E_WORKER_DEAD);
        prc_buf_clear(&s.all);
        prc_buf_clear(&chunk);
        free(t);
}

/* Run both readers; they must agree whatever the strict reader says. */
static void agree_any(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags)
{
        prc_err err;
        json_t *v;

        prc_err_init(&err);
        v = prc_json_parse(p, n, lim, flags, &err);
        json_decref(v);
        agree_n((const char *)p, n, lim, flags, v != NULL ? PRC_E_OK : err.cls);
}

/* The shared attack corpus (deep, huge, duplicate, NUL, BOM, UTF-16 files): every mode, two limit sets. */
static void test_json_stream__attack_corpus_agrees(void)
{
        const char *corp = t_corpora();
        char dir[4200], path[4500];
        struct dirent *d;
        DIR *dp;
        int files = 0;

        T_ASSERT(corp != NULL);
        snprintf(dir, sizeof(dir), "%s/parsers/attacks/json", corp);
        dp = opendir(dir);
        T_ASSERT(dp != NULL);
        while ((d = readdir(dp)) != NULL) {
                size_t l = strlen(d->d_name);
                prc_buf b;
                prc_err err;
                const uint8_t *p;

                if (l < 5 || strcmp(d->d_name + l - 5, ".json") != 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
                prc_err_init(&err);
                prc_buf_init(&b, 64u << 20);
                T_ASSERT(prc_file_read(path, 64u << 20, 0, &b, &err));
                p = b.data != NULL ? b.data : (const uint8_t *)"";
                static const unsigned modes[] = { 0, F, F | U | Z };
                for (size_t m = 0; m < PRC_ARRAY_LEN(modes); m++) {
                        agree_any(p, b.len, &prc_limits_default, modes[m]);
                        agree_any(p, b.len, &prc_limits_operator, modes[m]);
                }
                prc_buf_clear(&b);
                files++;
        }
        closedir(dp);
        T_ASSERT(files >= 20);
}

/* PRC_JS_ENCODED_PER_BYTE bounds the encoding of every shape, and "0" meets it. */
static void test_json_stream__encoding_is_at_most_nine_bytes_a_byte(void)
{
        static const char *const docs[] = {
                "0", "-1", "[0,0,0,0]", "1e5", "[1.5,2e3]", "\"\"", "\"\\u00e9\\ud83d\\ude00\"", "[]", "{}",
                "[[[[]]]]", "{\"\":0}", "{\"a\":{\"b\":[null,true,false]}}", " 0 ",
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(docs); i++) {
                size_t n = strlen(docs[i]);
                prc_buf b;
                prc_err e;
                json_t *v;

                prc_err_init(&e);
                v = prc_json_parse((const uint8_t *)docs[i], n, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &e);
                T_ASSERT(v != NULL);
                prc_buf_init(&b, 1u << 20);
                T_ASSERT(prc_docbin_write(v, &b, &e));
                if (b.len > (size_t)PRC_JS_ENCODED_PER_BYTE * n)
                        t_fail(__FILE__, __LINE__, "%s: %zu bytes from %zu", docs[i], b.len, n);
                if (i == 0)
                        T_EQ_INT(b.len, PRC_JS_ENCODED_PER_BYTE);
                prc_buf_clear(&b);
                json_decref(v);
        }
}

static const prc_test tests[] = {
        T(test_json_stream__values_are_the_strict_readers_bytes),
        T(test_json_stream__encoding_is_at_most_nine_bytes_a_byte),
        T(test_json_stream__numbers_convert_as_jansson_does),
        T(test_json_stream__escapes_and_surrogates),
        T(test_json_stream__utf8_is_checked_as_the_strict_reader_does),
        T(test_json_stream__grammar),
        T(test_json_stream__duplicate_keys),
        T(test_json_stream__limits),
        T(test_json_stream__pieces_go_out_while_reading),
        T(test_json_stream__attack_corpus_agrees),
};
PRC_SUITE(json_stream, tests)

/* ---- through a real floored worker (build/test/helpers/worker) ---- */

static prc_client *wclient(void)
{
        static char path[4200];
        prc_client_opts o;
        prc_client *c;
        prc_err err;

        snprintf(path, sizeof(path), "%s/build/test/helpers/worker", t_root());
        prc_client_opts_default(&o);
        o.worker_path = path;
        o.cache_max = 0;
        prc_err_init(&err);
        c = prc_client_new(&o, &err);
        T_ASSERT(c != NULL);
        return c;
}

/* The worker's answer must be the strict reader's in process: document, or class and location. */
static void worker_agrees(prc_client *c, const char *t, size_t n)
{
        prc_err we, le;
        json_t *w = NULL, *l;
        bool ok;

        prc_err_init(&we);
        prc_err_init(&le);
        ok = prc_client_parse(c, PRC_FMT_JSON, "doc.json", (const uint8_t *)t, n, &w, &we);
        l = prc_json_parse((const uint8_t *)t, n, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &le);
        T_EQ_INT(ok, l != NULL);
        if (ok) {
                prc_buf a, b;
                prc_err e;
                prc_err_init(&e);
                prc_buf_init(&a, 64u << 20);
                prc_buf_init(&b, 64u << 20);
                T_ASSERT(prc_docbin_write(w, &a, &e) && prc_docbin_write(l, &b, &e));
                T_EQ_MEM(a.data, a.len, b.data, b.len);
                prc_buf_clear(&a);
                prc_buf_clear(&b);
        } else {
                T_ERR(we, le.cls);
                T_EQ_INT(we.off, le.off);
                T_EQ_INT(we.line, le.line);
                T_EQ_INT(we.col, le.col);
                T_EQ_STR(we.ptr, le.ptr);
        }
        json_decref(w);
        json_decref(l);
}

static void test_json_stream_worker__late_refusals_are_the_strict_readers(void)
{
        prc_client *c = wclient();
        prc_client_stats st;
        size_t n;
        char *t = records(1u << 20, &n);
        size_t mid = n / 2;

        worker_agrees(c, t, n);
        /* Each found after many pieces went out; the worker stays usable after each. */
        t[n - 1] = '}';
        worker_agrees(c, t, n);                         /* invalid-json at the last byte */
        t[n - 1] = ']';
        memcpy(t + mid - 8, "\"\\ud800\"", 8);          /* somewhere inside a value: invalid either way */
        worker_agrees(c, t, n);
        free(t);
        /* A duplicate key in the last record. */
        t = records(1u << 20, &n);
        t = realloc(t, n + 32);
        T_ASSERT(t != NULL);
        snprintf(t + n - 1, 33, ",{\"a\":1,\"b\":2,\"a\":3}]");
        n = strlen(t);
        worker_agrees(c, t, n);
        worker_agrees(c, "{\"a\":[1,2.5,\"x\"],\"b\":-0.0}", 26);
        worker_agrees(c, "[9007199254740992]", 18);
        worker_agrees(c, "[1e400]", 7);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);                /* parser refusals keep the worker */
        free(t);
        prc_client_free(c);
}

/*
 * The reply cap: a valid document past it is reply-too-large, as before the
 * streaming reader (also when one string alone is larger than the cap); an
 * invalid one is the strict reader's refusal even when the cap came first.
 */
static void test_json_stream_worker__reply_cap_and_the_strict_readers_word(void)
{
        static char path[4200];
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;
        json_t *doc = NULL;
        prc_err err;
        size_t n = 3 * PRC_DOCBIN_CHUNK;
        char *t = malloc(n + 16);

        T_ASSERT(t != NULL);
        snprintf(path, sizeof(path), "%s/build/test/helpers/worker", t_root());
        prc_client_opts_default(&o);
        o.worker_path = path;
        o.cache_max = 0;
        o.reply_max = 2 * PRC_DOCBIN_CHUNK;
        prc_err_init(&err);
        c = prc_client_new(&o, &err);
        T_ASSERT(c != NULL);
        /* One string of 3 pieces' worth: larger than the cap by itself. */
        t[0] = '"';
        memset(t + 1, 'a', n);
        t[n + 1] = '"';
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "s.json", (const uint8_t *)t, n + 2, &doc, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        /* Many small values past the cap, then a syntax error at the end: invalid-json, where it is. */
        t[0] = '[';
        for (size_t i = 1; i < n; i += 2)
                memcpy(t + i, "1,", 2);
        t[n - 1] = '1';
        t[n] = '}';
        worker_agrees(c, t, n + 1);
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "a.json", (const uint8_t *)t, n + 1, &doc, &err));
        T_ERR(err, PRC_E_INVALID_JSON);
        T_EQ_INT(err.off, n + 1);
        /* The same without the error: past the cap. */
        t[n] = ']';
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "a.json", (const uint8_t *)t, n + 1, &doc, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        T_ASSERT(doc == NULL);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);
        free(t);
        prc_client_free(c);
}

static const prc_test worker_tests[] = {
        T(test_json_stream_worker__late_refusals_are_the_strict_readers),
        T(test_json_stream_worker__reply_cap_and_the_strict_readers_word),
};
PRC_SUITE_NOSAN(json_stream_worker, worker_tests)
