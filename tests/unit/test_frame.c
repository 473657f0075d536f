/*
 * test_frame.c - the content-worker protocol without a worker: headers,
 * bounded frame reads over pipes, request and refusal layouts, the reply
 * document encoding, the dispatch table, and client refusals that need no
 * worker.  Runs under ASan+UBSan.
 */
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/jcs.h"
#include "base/utf8.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/frame.h"

static const uint16_t docs_only[] = { PRC_RE_DOC, PRC_RE_REFUSE };

static void test_frame__header_round_trips(void)
{
        uint8_t h[PRC_FRAME_HDR];
        uint16_t type;
        uint32_t len;
        prc_err err;

        prc_err_init(&err);
        prc_frame_hdr_encode(h, PRC_RE_DOC, 77);
        T_EQ_MEM(h, 4, "PRCW", 4);
        T_ASSERT(prc_frame_hdr_decode(h, docs_only, 2, 100, PRC_E_REPLY_TOO_LARGE, &type, &len, &err));
        T_EQ_INT(type, PRC_RE_DOC);
        T_EQ_INT(len, 77);
}

static void expect_hdr_err(const uint8_t h[PRC_FRAME_HDR], prc_errclass want, uint64_t off)
{
        uint16_t type = 0;
        uint32_t len = 0;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_frame_hdr_decode(h, docs_only, 2, 100, PRC_E_REPLY_TOO_LARGE, &type, &len, &err));
        T_ERR(err, want);
        T_EQ_INT(err.off, off);
        T_EQ_INT(type, 0);
}

static void test_frame__bad_headers_are_refused_by_class(void)
{
        uint8_t h[PRC_FRAME_HDR];

        prc_frame_hdr_encode(h, PRC_RE_DOC, 10);
        h[0] ^= 1;
        expect_hdr_err(h, PRC_E_INVALID_FRAME, 0);
        prc_frame_hdr_encode(h, PRC_RE_DOC, 10);
        h[5] = PRC_FRAME_VERSION + 1;
        expect_hdr_err(h, PRC_E_INVALID_FRAME, 4);
        prc_frame_hdr_encode(h, PRC_RE_READY, 10);     /* a valid type, but not allowed here */
        expect_hdr_err(h, PRC_E_INVALID_FRAME, 6);
        prc_frame_hdr_encode(h, PRC_RE_DOC, 101);
        expect_hdr_err(h, PRC_E_REPLY_TOO_LARGE, 8);
}

/* A child writes bytes one at a time (short reads) and then closes. */
static int feeder(const uint8_t *p, size_t n, pid_t *pid)
{
        int fds[2];

        T_ASSERT(pipe(fds) == 0);
        *pid = fork();
        T_ASSERT(*pid >= 0);
        if (*pid == 0) {
                close(fds[0]);
                for (size_t i = 0; i < n; i++)
                        if (write(fds[1], p + i, 1) != 1)
                                _exit(1);
                _exit(0);
        }
        close(fds[1]);
        return fds[0];
}

static prc_frame_rc read_from(const uint8_t *p, size_t n, prc_buf *payload, uint16_t *type, prc_err *err)
{
        pid_t pid;
        int fd = feeder(p, n, &pid);
        prc_frame_rc rc = prc_frame_read(fd, docs_only, 2, 1000, PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD,
                                         PRC_NO_DEADLINE, type, payload, err);
        close(fd);
        waitpid(pid, NULL, 0);
        return rc;
}

static void test_frame__read_loops_on_short_reads_and_names_eof(void)
{
        uint8_t f[PRC_FRAME_HDR + 5];
        prc_buf b;
        uint16_t type;
        prc_err err;

        prc_buf_init(&b, 1000);
        prc_frame_hdr_encode(f, PRC_RE_DOC, 5);
        memcpy(f + PRC_FRAME_HDR, "[1,2]", 5);
        prc_err_init(&err);
        T_EQ_INT(read_from(f, sizeof(f), &b, &type, &err), PRC_FRAME_OK);
        T_EQ_MEM(b.data, b.len, "[1,2]", 5);
        prc_err_init(&err);
        T_EQ_INT(read_from(f, 0, &b, &type, &err), PRC_FRAME_EOF);
        T_NOERR(err);
        prc_err_init(&err);
        T_EQ_INT(read_from(f, 7, &b, &type, &err), PRC_FRAME_ERR);
        T_ERR(err, PRC_E_WORKER_DEAD);
        prc_err_init(&err);
        T_EQ_INT(read_from(f, sizeof(f) - 1, &b, &type, &err), PRC_FRAME_ERR);
        T_ERR(err, PRC_E_WORKER_DEAD);
        prc_buf_clear(&b);
}

static void test_frame__over_cap_length_is_refused_before_allocating(void)
{
        uint8_t f[PRC_FRAME_HDR];
        prc_buf b;
        uint16_t type;
        prc_err err;

        prc_buf_init(&b, 1000);
        prc_frame_hdr_encode(f, PRC_RE_DOC, UINT32_MAX);
        prc_err_init(&err);
        T_EQ_INT(read_from(f, sizeof(f), &b, &type, &err), PRC_FRAME_ERR);
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        T_EQ_INT(b.cap, 0);     /* nothing was reserved */
        prc_buf_clear(&b);
}

static void test_frame__read_times_out_at_the_deadline(void)
{
        int fds[2];
        prc_buf b;
        uint16_t type;
        prc_err err;
        int64_t t0 = prc_now_ns();

        T_ASSERT(pipe2(fds, O_NONBLOCK) == 0);
        prc_buf_init(&b, 100);
        prc_err_init(&err);
        T_EQ_INT(prc_frame_read(fds[0], docs_only, 2, 100, PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD,
                                t0 + 50000000, &type, &b, &err), PRC_FRAME_ERR);
        T_ERR(err, PRC_E_WORKER_TIMEOUT);
        T_ASSERT(prc_now_ns() - t0 >= 50000000);
        close(fds[0]);
        close(fds[1]);
        prc_buf_clear(&b);
}

static void test_frame__write_to_a_closed_pipe_is_an_error_not_a_signal(void)
{
        int fds[2];
        prc_err err;

        T_ASSERT(pipe2(fds, O_NONBLOCK) == 0);
        close(fds[0]);
        prc_err_init(&err);
        T_ASSERT(!prc_frame_write(fds[1], PRC_OP_PING, "x", 1, prc_now_ns() + 1000000000, &err));
        T_ERR(err, PRC_E_IO);
        T_EQ_INT(err.sys, EPIPE);
        close(fds[1]);
}

/* In its own thread: hold SIGPIPE, then write to a closed pipe twice; *out: 0 when all went as it should. */
static void *held_write(void *arg)
{
        int *out = arg, fds[2];
        sigset_t mask, pending;
        prc_err err;

        *out = 1;
        if (pipe2(fds, O_NONBLOCK) != 0)
                return NULL;
        close(fds[0]);
        prc_frame_hold_sigpipe();
        prc_frame_hold_sigpipe();       /* a second call changes nothing */
        for (int i = 0; i < 2; i++) {
                prc_err_init(&err);
                if (prc_frame_write(fds[1], PRC_OP_PING, "x", 1, prc_now_ns() + 1000000000, &err) ||
                    err.cls != PRC_E_IO || err.sys != EPIPE)
                        return NULL;
        }
        close(fds[1]);
        /* still blocked here, the write's SIGPIPE pending in this thread: it goes with the thread */
        if (pthread_sigmask(SIG_BLOCK, NULL, &mask) != 0 || sigismember(&mask, SIGPIPE) != 1 ||
            sigpending(&pending) != 0 || sigismember(&pending, SIGPIPE) != 1)
                return NULL;
        *out = 0;
        return NULL;
}

/*
 * prc_frame_hold_sigpipe (the scan's lanes): a thread that holds SIGPIPE
 * blocked gets EPIPE from a closed pipe, never the signal, keeps it blocked
 * with the write's SIGPIPE pending in it alone; the caller's mask and
 * pending set are untouched, and its own write still does the whole dance.
 */
static void test_frame__a_thread_that_holds_sigpipe_gets_epipe(void)
{
        sigset_t mask, pending;
        pthread_t t;
        int fds[2], bad = -1;
        prc_err err;

        T_ASSERT(pthread_create(&t, NULL, held_write, &bad) == 0);
        T_ASSERT(pthread_join(t, NULL) == 0);
        T_EQ_INT(bad, 0);
        T_ASSERT(pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, SIGPIPE) == 0);
        T_ASSERT(sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 0);
        T_ASSERT(pipe2(fds, O_NONBLOCK) == 0);
        close(fds[0]);
        prc_err_init(&err);
        T_ASSERT(!prc_frame_write(fds[1], PRC_OP_PING, "x", 1, prc_now_ns() + 1000000000, &err));
        T_EQ_INT(err.sys, EPIPE);
        T_ASSERT(pthread_sigmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, SIGPIPE) == 0);
        T_ASSERT(sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 0);
        close(fds[1]);
}

static void test_frame__request_round_trips(void)
{
        prc_req r = { 0 }, d;
        prc_buf b;
        prc_err err;

        r.op = PRC_OP_PARSE;
        r.format = PRC_FMT_YAML;
        r.flags = 3;
        r.lim = prc_limits_default;
        r.path = "a/b.yaml";
        r.path_len = 8;
        r.args = (const uint8_t *)"{}";
        r.args_len = 2;
        r.input = (const uint8_t *)"k: v\n";
        r.input_len = 5;
        prc_buf_init(&b, 1 << 16);
        prc_err_init(&err);
        T_ASSERT(prc_req_encode(&r, &b, &err));
        T_EQ_INT(b.len, prc_req_size(&r));
        T_ASSERT(prc_req_decode(b.data, b.len, PRC_OP_PARSE, &d, &err));
        T_EQ_INT(d.format, PRC_FMT_YAML);
        T_EQ_INT(d.flags, 3);
        T_EQ_INT(d.lim.nodes_max, prc_limits_default.nodes_max);
        T_EQ_INT(d.lim.input_max, prc_limits_default.input_max);
        T_EQ_MEM(d.path, d.path_len, "a/b.yaml", 8);
        T_EQ_MEM(d.args, d.args_len, "{}", 2);
        T_EQ_MEM(d.input, d.input_len, "k: v\n", 5);
        /* Every truncation is an invalid frame (the input runs to the end, so cut inside the header fields). */
        for (size_t n = 0; n < b.len - r.input_len; n++) {
                prc_err e2;
                prc_err_init(&e2);
                T_ASSERT(!prc_req_decode(b.data, n, PRC_OP_PARSE, &d, &e2));
                T_ERR(e2, PRC_E_INVALID_FRAME);
        }
        prc_buf_clear(&b);
}

static void test_frame__request_path_with_nul_is_refused(void)
{
        prc_req r = { 0 };
        prc_buf b;
        prc_err err;

        r.path = "a\0b";
        r.path_len = 3;
        prc_buf_init(&b, 1 << 16);
        prc_err_init(&err);
        T_ASSERT(!prc_req_encode(&r, &b, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);
        prc_buf_clear(&b);
}

static void test_frame__refusal_crosses_by_name_and_is_sanitized(void)
{
        prc_err e, d, err;
        prc_buf b;

        prc_err_init(&e);
        prc_err_init(&err);
        prc_err_at(&e, PRC_E_DUPLICATE_FIELD, 42, "key \x1b[31m'a' twice");
        prc_err_set_line(&e, 3, 7);
        prc_err_set_ptr(&e, "/a");
        prc_buf_init(&b, 4096);
        T_ASSERT(prc_refusal_encode(&e, &b, &err));
        T_ASSERT(prc_refusal_decode(b.data, b.len, &d, &err));
        T_ERR(d, PRC_E_DUPLICATE_FIELD);
        T_EQ_INT(d.off, 42);
        T_EQ_INT(d.line, 3);
        T_EQ_INT(d.col, 7);
        T_EQ_STR(d.ptr, "/a");
        T_EQ_STR(d.msg, "key ?[31m'a' twice");
        /* Trailing bytes and an unknown class name are invalid frames. */
        T_ASSERT(prc_buf_putc(&b, 0, &err));
        T_ASSERT(!prc_refusal_decode(b.data, b.len, &d, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);
        prc_buf_clear(&b);
        prc_buf_init(&b, 4096);
        memcpy(e.msg, "x", 2);
        prc_err_init(&err);
        T_ASSERT(prc_refusal_encode(&e, &b, &err));
        memcpy(b.data + 4, "zzzzzzzzzzzzzzz", 15);  /* "duplicate-field" -> an unknown name */
        T_ASSERT(!prc_refusal_decode(b.data, b.len, &d, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);
        prc_buf_clear(&b);
}

/*
 * Issue 16: a refusal's pointer and message arrive as raw bytes.  Decoded,
 * they are valid UTF-8 with C0, DEL and C1 characters replaced, as every
 * engine-side error is; otherwise jansson would refuse the string and the
 * gap would vanish from the run result.
 */
static void test_frame__refusal_text_is_made_valid_utf8(void)
{
        prc_err e, d, err;
        prc_buf b;
        size_t at;

        prc_err_init(&e);
        prc_err_init(&err);
        prc_err_set(&e, PRC_E_DUPLICATE_FIELD, "xxxxxxxxxxxxxx");
        prc_err_set_ptr(&e, "/pppp");
        prc_buf_init(&b, 4096);
        T_ASSERT(prc_refusal_encode(&e, &b, &err));
        /* Overwrite the encoded text in place: an invalid byte, a C1 NEL (C2 85), DEL, and a valid e-acute. */
        at = b.len - 14;
        T_ASSERT(memcmp(b.data + at, "xxxxxxxxxxxxxx", 14) == 0);
        memcpy(b.data + at, "a\xff" "b\xc2\x85" "c\x7f" "d\xc3\xa9" "eeee", 14);
        at = b.len - 14 - 4 - 5;
        T_ASSERT(memcmp(b.data + at, "/pppp", 5) == 0);
        memcpy(b.data + at, "/\xfe\x9b" "pp", 5);
        T_ASSERT(prc_refusal_decode(b.data, b.len, &d, &err));
        T_NOERR(err);
        T_EQ_STR(d.msg, "a?b??c?d\xc3\xa9" "eeee");
        T_EQ_STR(d.ptr, "/??pp");
        T_ASSERT(prc_utf8_valid((const uint8_t *)d.msg, strlen(d.msg), NULL));
        prc_buf_clear(&b);
}

static char *enc(const json_t *v)
{
        prc_buf b;
        prc_err err;
        size_t n;

        prc_err_init(&err);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_docenc_write(v, &b, &err));
        return (char *)prc_buf_take(&b, &n, &err);
}

static void test_frame__docenc_is_jcs_without_floats(void)
{
        json_t *v = json_loads("{\"z\":[1,-2,true,null],\"\\u00e9\":\"\\u0001\\\"\",\"a\":{\"\\ud83d\\ude00\":0,\"b\":1}}", 0, NULL);
        prc_buf j;
        prc_err err;
        char *s;

        T_ASSERT(v != NULL);
        prc_err_init(&err);
        prc_buf_init(&j, 1 << 20);
        T_ASSERT(prc_jcs_write(v, &j, &err));
        s = enc(v);
        T_EQ_MEM(s, strlen(s), j.data, j.len);
        free(s);
        prc_buf_clear(&j);
        json_decref(v);
}

static void test_frame__docenc_integers_and_large_objects(void)
{
        static const json_int_t ints[] = { 0, -1, 7, 10, -10, 1234567890123LL, INT64_MAX, INT64_MIN };
        json_t *o = json_object();
        prc_buf j;
        prc_err err;
        char want[32], *s;

        for (size_t i = 0; i < PRC_ARRAY_LEN(ints); i++) {
                json_t *v = json_integer(ints[i]);
                snprintf(want, sizeof(want), "%" JSON_INTEGER_FORMAT, ints[i]);
                s = enc(v);
                T_EQ_STR(s, want);
                free(s);
                json_decref(v);
        }
        /* More keys than the small-object path holds: sorted the same way as JCS. */
        for (int i = 40; i > 0; i--) {
                char k[16];
                snprintf(k, sizeof(k), "k%02d\xc3\xa9%d", i % 7, i);
                json_object_set_new(o, k, json_integer(i));
        }
        prc_err_init(&err);
        prc_buf_init(&j, 1 << 20);
        T_ASSERT(prc_jcs_write(o, &j, &err));
        s = enc(o);
        T_EQ_MEM(s, strlen(s), j.data, j.len);
        free(s);
        prc_buf_clear(&j);
        json_decref(o);
}

static void test_frame__docenc_writes_reals_as_shortest_round_trip(void)
{
        static const struct {
                double      d;
                const char *want;
        } cases[] = {
                { 0.1, "0.1" }, { 1.0, "1.0" }, { -0.0, "-0.0" }, { 2.5e-8, "2.5e-08" }, { 1e21, "1e+21" },
                { 0.30000000000000004, "0.30000000000000004" }, { 123456789012.5, "123456789012.5" },
        };
        prc_err err;

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                json_t *v = json_real(cases[i].d), *back;
                char *s = enc(v);
                T_EQ_STR(s, cases[i].want);
                prc_err_init(&err);
                back = prc_docenc_read((const uint8_t *)s, strlen(s), &prc_limits_default, &err);
                T_ASSERT(back != NULL && json_is_real(back));
                T_ASSERT(json_real_value(back) == cases[i].d);
                json_decref(back);
                json_decref(v);
                free(s);
        }
}

static void test_frame__docenc_read_is_strict(void)
{
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_docenc_read((const uint8_t *)"{\"a\":1,\"a\":1}", 13, &prc_limits_default, &err) == NULL);
        T_ERR(err, PRC_E_DUPLICATE_FIELD);
        prc_err_init(&err);
        T_ASSERT(prc_docenc_read((const uint8_t *)"[1] x", 5, &prc_limits_default, &err) == NULL);
        T_ERR(err, PRC_E_INVALID_JSON);
}

static void test_frame__dispatch_table_is_well_formed(void)
{
        for (size_t i = 0; i < prc_dispatch_count; i++) {
                const prc_dispatch_entry *e = &prc_dispatch_table[i];
                T_ASSERT((e->load == NULL) != (e->call == NULL));
                T_ASSERT(e->name != NULL);
                T_ASSERT(prc_dispatch_find(e->op, e->format) == e);     /* (op, format) is unique */
                if (e->op == PRC_OP_PARSE)
                        T_EQ_INT(prc_format_by_name(prc_format_name(e->format)), e->format);
        }
        T_ASSERT(prc_dispatch_find(PRC_OP_PARSE, PRC_FMT_JSON) != NULL);
        T_ASSERT(prc_dispatch_find(PRC_OP_PARSE, PRC_FMT_YAML) != NULL);
        T_ASSERT(prc_dispatch_find(PRC_OP_PING, 0) != NULL);
        T_EQ_INT(prc_format_by_name("nope"), PRC_FMT_NONE);
}

static void test_frame__dispatch_checks_the_input_cap_and_the_op(void)
{
        prc_req r = { 0 };
        prc_err err;

        r.op = PRC_OP_PING;
        r.input = (const uint8_t *)"x";
        r.input_len = 1;        /* ping takes no input */
        prc_err_init(&err);
        T_ASSERT(prc_dispatch_run(&r, &err) == NULL);
        T_ERR(err, PRC_E_INPUT_TOO_LARGE);
        r.op = PRC_OP_EXTRACT;
        r.format = 1;                /* extraction has no sub-codes: not served */
        prc_err_init(&err);
        T_ASSERT(prc_dispatch_run(&r, &err) == NULL);
        T_ERR(err, PRC_E_UNKNOWN_OPERATION);
        r.format = 0;                /* served; no extractor owns an empty path */
        prc_err_init(&err);
        T_ASSERT(prc_dispatch_run(&r, &err) == NULL);
        T_ERR(err, PRC_E_EXTRACT_UNKNOWN_FORMAT);
}

static void test_frame__client_refuses_an_over_cap_request_without_a_worker(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;
        json_t *doc = NULL;
        prc_err err;
        static uint8_t big[4096];

        prc_client_opts_default(&o);
        o.worker_path = "/nonexistent/prc-worker";
        o.req_max = 1024;
        prc_err_init(&err);
        c = prc_client_new(&o, &err);
        T_ASSERT(c != NULL);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "big.json", big, sizeof(big), &doc, &err));
        T_ERR(err, PRC_E_REQUEST_TOO_LARGE);
        T_EQ_STR(err.file, "big.json");
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 0);
        /* A small request must start a worker, and this one cannot exist. */
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "a.json", big, 10, &doc, &err));
        T_ERR(err, PRC_E_WORKER_START);
        T_ASSERT(doc == NULL);
        prc_client_free(c);
}

/* The bytes a file descriptor received (fd rewound and read whole). */
static size_t file_bytes(int fd, uint8_t *out, size_t cap)
{
        size_t got = 0;
        ssize_t r;

        T_ASSERT(lseek(fd, 0, SEEK_SET) == 0);
        while ((r = read(fd, out + got, cap - got)) > 0)
                got += (size_t)r;
        return got;
}

/*
 * prc_frame_write2 (the client's requests: the head, then the file's bytes
 * from where they are) writes exactly the frame prc_frame_write writes for
 * the two parts joined, at every size around the coalescing limit; and a
 * request's head then its input is prc_req_encode's payload.
 */
static void test_frame__a_frame_in_two_parts_is_the_frame_of_both(void)
{
        static const size_t sizes[] = { 0, 1, 100, 16383, 16384, 16385, 70000 };
        enum { MAXN = 2 * 70000 + PRC_FRAME_HDR };
        uint8_t *src = malloc(MAXN), *want = malloc(MAXN), *got = malloc(MAXN);
        prc_req r = { 0 };
        prc_buf whole, head;
        prc_err err;

        T_ASSERT(src != NULL && want != NULL && got != NULL);
        for (size_t i = 0; i < MAXN; i++)
                src[i] = (uint8_t)(i * 131 + 7);
        prc_err_init(&err);
        for (size_t i = 0; i < PRC_ARRAY_LEN(sizes); i++) {
                for (size_t j = 0; j < PRC_ARRAY_LEN(sizes); j++) {
                        size_t an = sizes[i], bn = sizes[j], nw, ng;
                        FILE *fa = tmpfile(), *fb = tmpfile();
                        T_ASSERT(fa != NULL && fb != NULL);
                        T_ASSERT(prc_frame_write(fileno(fa), PRC_OP_EXTRACT, src, an + bn, PRC_NO_DEADLINE, &err));
                        T_ASSERT(prc_frame_write2(fileno(fb), PRC_OP_EXTRACT, src, an, src + an, bn, PRC_NO_DEADLINE,
                                                  &err));
                        nw = file_bytes(fileno(fa), want, MAXN);
                        ng = file_bytes(fileno(fb), got, MAXN);
                        T_EQ_INT(nw, PRC_FRAME_HDR + an + bn);
                        T_EQ_MEM(got, ng, want, nw);
                        fclose(fa);
                        fclose(fb);
                }
        }
        r.op = PRC_OP_EXTRACT;
        r.lim = prc_limits_default;
        r.path = "pnpm-lock.yaml";
        r.path_len = 14;
        r.input = src;
        r.input_len = 70000;
        prc_buf_init(&whole, 1 << 20);
        prc_buf_init(&head, 1 << 20);
        T_ASSERT(prc_req_encode(&r, &whole, &err));
        T_ASSERT(prc_req_encode_head(&r, &head, &err));
        T_EQ_INT(head.len + r.input_len, whole.len);
        T_EQ_MEM(head.data, head.len, whole.data, head.len);
        prc_buf_clear(&whole);
        prc_buf_clear(&head);
        free(src);
        free(want);
        free(got);
}

static const prc_test tests[] = {
        T(test_frame__a_frame_in_two_parts_is_the_frame_of_both),
        T(test_frame__header_round_trips),
        T(test_frame__bad_headers_are_refused_by_class),
        T(test_frame__read_loops_on_short_reads_and_names_eof),
        T(test_frame__over_cap_length_is_refused_before_allocating),
        T(test_frame__read_times_out_at_the_deadline),
        T(test_frame__write_to_a_closed_pipe_is_an_error_not_a_signal),
        T(test_frame__a_thread_that_holds_sigpipe_gets_epipe),
        T(test_frame__request_round_trips),
        T(test_frame__request_path_with_nul_is_refused),
        T(test_frame__refusal_crosses_by_name_and_is_sanitized),
        T(test_frame__refusal_text_is_made_valid_utf8),
        T(test_frame__docenc_is_jcs_without_floats),
        T(test_frame__docenc_integers_and_large_objects),
        T(test_frame__docenc_writes_reals_as_shortest_round_trip),
        T(test_frame__docenc_read_is_strict),
        T(test_frame__dispatch_table_is_well_formed),
        T(test_frame__dispatch_checks_the_input_cap_and_the_op),
        T(test_frame__client_refuses_an_over_cap_request_without_a_worker),
};
PRC_SUITE(frame, tests)
