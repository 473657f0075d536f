/*
 * test_worker.c - the content worker end to end: a REAL floored worker
 * (build/test/helpers/worker, the same dispatch table as `prc __worker` plus
 * the PRC_TESTING escape operations) driven through the client.
 * NOSAN: the floor's seccomp and RLIMIT_AS cannot run under ASan; the
 * "client" suite at the end repeats the client-side cases under ASan.
 */
#include "t.h"
#include "test_archive_fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <malloc.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/json_strict.h"
#include "base/yaml.h"
#include "content/client.h"
#include "content/extract/mdoc_details.h"
#include "content/extract/mdoc_pack.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/frame.h"

static const char *worker_path(void)
{
        static char p[4200];
        snprintf(p, sizeof(p), "%s/build/test/helpers/worker", t_root());
        return p;
}

static void opts(prc_client_opts *o)
{
        prc_client_opts_default(o);
        o->worker_path = worker_path();
}

static prc_client *client_with(const prc_client_opts *o)
{
        prc_err err;
        prc_client *c;

        prc_err_init(&err);
        c = prc_client_new(o, &err);
        T_ASSERT(c != NULL);
        return c;
}

static prc_client *client(void)
{
        prc_client_opts o;
        opts(&o);
        return client_with(&o);
}

/* Canonical text of a document (floats allowed); caller frees. */
static char *text(const json_t *v)
{
        prc_buf b;
        prc_err err;
        size_t n;

        prc_err_init(&err);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_docenc_write(v, &b, &err));
        return (char *)prc_buf_take(&b, &n, &err);
}

static void expect_doc(prc_client *c, const char *in, const char *want)
{
        json_t *doc = NULL;
        prc_err err;
        char *s;

        prc_err_init(&err);
        if (!prc_client_parse(c, PRC_FMT_JSON, "t.json", (const uint8_t *)in, strlen(in), &doc, &err))
                t_fail(__FILE__, __LINE__, "parse refused: %s: %s", prc_err_name(err.cls), err.msg);
        s = text(doc);
        T_EQ_STR(s, want);
        free(s);
        json_decref(doc);
}

static void expect_ping(prc_client *c)
{
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(prc_client_call(c, PRC_OP_PING, 0, 0, "ping", NULL, 0, NULL, 0, false, &doc, &err));
        T_NOERR(err);
        T_EQ_STR(json_string_value(doc), "pong");
        json_decref(doc);
}

/* Run a test op; returns false with err set on refusal, or the document in *out. */
static bool test_op(prc_client *c, int op, const char *args, json_t **out, prc_err *err)
{
        return prc_client_call(c, PRC_OP_TEST, (uint16_t)op, 0, "test", args, args ? strlen(args) : 0, NULL, 0,
                               false, out, err);
}

static uint64_t started(prc_client *c)
{
        prc_client_stats st;
        prc_client_get_stats(c, &st);
        return st.workers_started;
}

/* Under the full floor the op kills the worker (seccomp); the next request gets a fresh worker. */
static void expect_killed(int op, const char *args)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        expect_ping(c);
        T_ASSERT(!test_op(c, op, args, &doc, &err));
        T_ASSERT(doc == NULL);
        T_ERR(err, PRC_E_WORKER_DENIED_SYSCALL);
        expect_ping(c);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__parses_json_through_a_floored_worker(void)
{
        prc_client *c = client();
        prc_client_stats st;

        expect_doc(c, "{\"b\":[1,2.5,-0.0,1e300],\"a\":\"x\\u0001y\"}", "{\"a\":\"x\\u0001y\",\"b\":[1,2.5,-0.0,1e+300]}");
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 1);
        T_EQ_INT(st.workers_started, 1);
        T_ASSERT(st.worker_pid > 0);
        T_ASSERT(json_integer_value(json_object_get(prc_client_ready(c), "landlock_abi")) >= 6);
        prc_client_free(c);
}

/* Caller's tree and the in-process tree: the same values in the same member order (same encoding). */
static void expect_same_tree(const json_t *got, const json_t *want)
{
        prc_buf a, b;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&a, 16u << 20);
        prc_buf_init(&b, 16u << 20);
        T_ASSERT(prc_docbin_write(want, &a, &err) && prc_docbin_write(got, &b, &err));
        T_ASSERT(a.len > 4 * PRC_DOCBIN_CHUNK);
        T_EQ_MEM(b.data, b.len, a.data, a.len);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
}

/*
 * Replies of many PRC_DOCBIN_CHUNK pieces, decoded while they stream,
 * several in a row on one worker (its arena is reused between requests):
 * the caller gets the tree the in-process parser builds, member order
 * included, for JSON and YAML.
 */
static void test_worker__large_documents_stream_to_the_in_process_tree(void)
{
        prc_client *c = client();
        prc_client_stats st;
        prc_buf in;
        prc_err err;
        json_t *doc, *want;

        for (int round = 0; round < 4; round++) {
                bool yaml = round % 2 == 1;
                prc_err_init(&err);
                prc_buf_init(&in, 4u << 20);
                T_ASSERT(yaml || prc_buf_putc(&in, '[', &err));
                for (int i = 0; in.len < 600000; i++) {
                        int k = i + round * 7;
                        static const char yfmt[] = "- z: %d\n  name: \"p\\u00e9-%d\"\n  a: [%d.5, null, true]\n";
                        static const char jfmt[] = "%s{\"z\":%d,\"name\":\"p\\u00e9-%d\",\"a\":[%d.5,null,true]}";
                        T_ASSERT(yaml ? prc_buf_printf(&in, &err, yfmt, k, k, k)
                                      : prc_buf_printf(&in, &err, jfmt, i ? "," : "", k, k, k));
                }
                T_ASSERT(yaml || prc_buf_putc(&in, ']', &err));
                want = yaml ? prc_yaml_load(in.data, in.len, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &err)
                            : prc_json_parse(in.data, in.len, &prc_limits_default, PRC_JSON_ALLOW_FLOAT, &err);
                T_ASSERT(want != NULL);
                doc = NULL;
                T_ASSERT(prc_client_parse(c, yaml ? PRC_FMT_YAML : PRC_FMT_JSON, "big", in.data, in.len, &doc, &err));
                T_NOERR(err);
                expect_same_tree(doc, want);
                prc_buf_clear(&in);
                json_decref(doc);
                json_decref(want);
        }
        expect_ping(c);         /* the worker is still in step */
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);
        prc_client_free(c);
}

/* Past the cap after some pieces went out: the worker refuses, the client drops the pieces, the worker stays. */
static void test_worker__reply_cap_reached_mid_stream_is_reply_too_large(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;
        prc_buf in;
        prc_err err;
        json_t *doc = NULL;

        opts(&o);
        o.reply_max = 3 * PRC_DOCBIN_CHUNK;
        c = client_with(&o);
        prc_err_init(&err);
        prc_buf_init(&in, 4u << 20);
        T_ASSERT(prc_buf_putc(&in, '[', &err));
        for (int i = 0; i < 40000; i++)
                T_ASSERT(prc_buf_printf(&in, &err, "%s%d", i ? "," : "", i));      /* 40000 x 9 bytes encoded */
        T_ASSERT(prc_buf_putc(&in, ']', &err));
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "big.json", in.data, in.len, &doc, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        T_ASSERT(doc == NULL);
        prc_client_get_stats(c, &st);
        expect_ping(c);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);        /* a refusal, not a broken conversation */
        prc_buf_clear(&in);
        prc_client_free(c);
}

/* A verdict-only parse (PRC_REQ_VERDICT) of in: the document `true`, or false with err. */
static bool verdict(prc_client *c, uint16_t fmt, const char *in, prc_err *err)
{
        json_t *doc = NULL;
        bool ok = prc_client_call(c, PRC_OP_PARSE, fmt, PRC_REQ_VERDICT, "v", NULL, 0, (const uint8_t *)in,
                                  strlen(in), true, &doc, err);

        T_ASSERT(!ok || doc == json_true());
        json_decref(doc);
        return ok;
}

/*
 * PRC_REQ_VERDICT: the worker makes and checks the whole document but
 * answers `true` in its place, and refuses exactly what a full parse
 * refuses: a syntax error, a duplicate key, a document over the reply cap
 * (streamed JSON, streamed YAML, a YAML merge that restarts the stream, a
 * tree encoded the counted way).  The worker stays for the next request.
 */
static void test_worker__verdict_only_parse_is_true_with_the_same_refusals(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_buf big, bigy;
        prc_err err;

        opts(&o);
        o.reply_max = 3 * PRC_DOCBIN_CHUNK;
        c = client_with(&o);
        prc_err_init(&err);
        prc_buf_init(&big, 4u << 20);
        prc_buf_init(&bigy, 4u << 20);
        T_ASSERT(prc_buf_putc(&big, '[', &err));
        for (int i = 0; i < 40000; i++) {
                T_ASSERT(prc_buf_printf(&big, &err, "%s%d", i ? "," : "", i));
                T_ASSERT(prc_buf_printf(&bigy, &err, "- %d\n", i));
        }
        T_ASSERT(prc_buf_putc(&big, ']', &err));
        T_ASSERT(verdict(c, PRC_FMT_JSON, "{\"a\":[1,2.5]}", &err));
        T_ASSERT(verdict(c, PRC_FMT_YAML, "b: &x {k: 1}\na: {<<: *x, j: 2}\n", &err));
        T_ASSERT(verdict(c, PRC_FMT_TOML, "a = 1\n[t]\nb = \"x\"\n", &err));
        T_NOERR(err);
        T_ASSERT(!verdict(c, PRC_FMT_JSON, "{\"a\":1,\"a\":2}", &err));
        T_ERR(err, PRC_E_DUPLICATE_FIELD);
        prc_err_init(&err);
        T_ASSERT(!verdict(c, PRC_FMT_YAML, "a: [\n", &err));
        T_ERR(err, PRC_E_YAML_SYNTAX);
        prc_err_init(&err);
        T_ASSERT(!verdict(c, PRC_FMT_JSON, (const char *)big.data, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        prc_err_init(&err);
        T_ASSERT(!verdict(c, PRC_FMT_YAML, (const char *)bigy.data, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        expect_ping(c);
        T_EQ_INT(started(c), 1);
        prc_buf_clear(&big);
        prc_buf_clear(&bigy);
        prc_client_free(c);
}

/*
 * Issue 16: JSONC reads numbers exactly as parse-json does (the worker
 * streams JSON through its own number reader, JSONC builds a tree): for
 * each input the same refusal class, or documents with the same encoding
 * (so -0.0, subnormals and rounding are compared bit for bit).
 */
static void test_worker__jsonc_numbers_are_read_as_parse_json_reads_them(void)
{
        static const char *const nums[] = {
                "0", "-0", "7", "-7", "13.5", "-0.0", "0.1", "1.0", "2.50", "1e2", "1E2", "1e+2", "1e-2",
                "-1.5E-3", "123456789.123456789", "0.30000000000000004", "9007199254740991",
                "-9007199254740991", "9007199254740992", "-9007199254740992", "9223372036854775807",
                "12345678901234567890", "100000000000000000000.0", "1.7976931348623157e308", "2e308",
                "-2e308", "4.9e-324", "1e-400", "2.2250738585072011e-308", "01", "1.", ".5", "-", "+1", "1e",
                "1e+", "0x10", "Infinity", "NaN", "1.5.2", "-01.0", "1_000",
        };
        prc_client *c = client();
        prc_buf a, b;
        char in[96];

        prc_buf_init(&a, 1u << 16);
        prc_buf_init(&b, 1u << 16);
        for (size_t i = 0; i < 2 * PRC_ARRAY_LEN(nums); i++) {
                const char *n = nums[i / 2];
                json_t *dj = NULL, *dc = NULL;
                prc_err ej, ec;
                bool okj, okc;
                if (i % 2 == 0)
                        snprintf(in, sizeof(in), "%s", n);
                else
                        snprintf(in, sizeof(in), "{\"editor.fontSize\": [%s, {\"n\": %s}]}", n, n);
                prc_err_init(&ej);
                prc_err_init(&ec);
                okj = prc_client_parse(c, PRC_FMT_JSON, "t.json", (const uint8_t *)in, strlen(in), &dj, &ej);
                okc = prc_client_parse(c, PRC_FMT_JSONC, "t.jsonc", (const uint8_t *)in, strlen(in), &dc, &ec);
                if (okj != okc || ej.cls != ec.cls)
                        t_fail(__FILE__, __LINE__, "'%s': json %s, jsonc %s (%s)", in, prc_err_name(ej.cls),
                               prc_err_name(ec.cls), ec.msg);
                if (okj) {
                        prc_err e;
                        prc_err_init(&e);
                        prc_buf_reset(&a);
                        prc_buf_reset(&b);
                        T_ASSERT(prc_docbin_write(dj, &a, &e) && prc_docbin_write(dc, &b, &e));
                        T_EQ_MEM(b.data, b.len, a.data, a.len);
                }
                json_decref(dj);
                json_decref(dc);
        }
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        prc_client_free(c);
}

static void test_worker__parser_refusal_is_named_and_keeps_the_worker(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "bad.json", (const uint8_t *)"{\"a\":1,\"a\":2}", 13, &doc, &err));
        T_ERR(err, PRC_E_DUPLICATE_FIELD);
        T_EQ_STR(err.file, "bad.json");
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "bad.json", (const uint8_t *)"[1,\n}", 5, &doc, &err));
        T_ERR(err, PRC_E_INVALID_JSON);
        T_EQ_INT(err.line, 2);
        expect_doc(c, "[true]", "[true]");
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

static void test_worker__parses_yaml_through_a_floored_worker(void)
{
        static const char y[] = "b: &x {k: [1, 2.5, true, null]}\na: *x\n";
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;
        char *s;

        prc_err_init(&err);
        T_ASSERT(prc_client_parse(c, PRC_FMT_YAML, "w.yaml", (const uint8_t *)y, sizeof(y) - 1, &doc, &err));
        s = text(doc);
        /* Target floats stay as written (PRC_YAML_FLOAT_AS_STRING): "3.10" must not become 3.1. */
        T_EQ_STR(s, "{\"a\":{\"k\":[1,\"2.5\",true,null]},\"b\":{\"k\":[1,\"2.5\",true,null]}}");
        free(s);
        json_decref(doc);
        /* A syntax error is the loader's named refusal, with its line, and the worker stays. */
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_YAML, "bad.yaml", (const uint8_t *)"a: [\n", 5, &doc, &err));
        T_ERR(err, PRC_E_YAML_SYNTAX);
        T_EQ_INT(err.line, 2);
        T_EQ_STR(err.file, "bad.yaml");
        expect_ping(c);
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

/* Served means: a document, or a refusal from the handler; never a failure of the worker itself. */
static void expect_served(prc_client *c, uint16_t op, uint16_t fmt, const char *in)
{
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        if (prc_client_call(c, op, fmt, 0, "x", NULL, 0, (const uint8_t *)in, strlen(in), false, &doc, &err)) {
                T_ASSERT(doc != NULL);
                json_decref(doc);
                return;
        }
        switch (err.cls) {
        case PRC_E_WORKER_DEAD:
        case PRC_E_WORKER_DENIED_SYSCALL:
        case PRC_E_WORKER_LIMIT:
        case PRC_E_WORKER_TIMEOUT:
        case PRC_E_WORKER_START:
        case PRC_E_INVALID_FRAME:
        case PRC_E_UNKNOWN_OPERATION:
                t_fail(__FILE__, __LINE__, "op %u format %u: %s: %s", op, fmt, prc_err_name(err.cls), err.msg);
        default:
                break;
        }
}

static void test_worker__every_table_entry_is_served_under_the_floor(void)
{
        static const struct {
                uint16_t    fmt;
                const char *in;
        } parse[] = {
                { PRC_FMT_JSON, "{\"a\":[1,2.5]}" }, { PRC_FMT_YAML, "a: [1, 2.5]\n" },
                { PRC_FMT_TOML, "a = 1\n[t]\nb = 2.5\n" }, { PRC_FMT_INI, "[s]\nk = v\n" },
                { PRC_FMT_XML, "<a b='1'><c>t</c></a>" }, { PRC_FMT_JSONC, "{/* c */ \"a\": 1,}" },
        };
        prc_client *c = client();

        /* Every parse entry, with a document it accepts. */
        for (size_t i = 0; i < PRC_ARRAY_LEN(parse); i++) {
                json_t *doc = NULL;
                prc_err err;
                if (prc_dispatch_find(PRC_OP_PARSE, parse[i].fmt) == NULL)
                        continue;       /* not wired in this build */
                prc_err_init(&err);
                if (!prc_client_parse(c, parse[i].fmt, "x", (const uint8_t *)parse[i].in, strlen(parse[i].in), &doc,
                                      &err))
                        t_fail(__FILE__, __LINE__, "%s: %s: %s", prc_format_name(parse[i].fmt),
                               prc_err_name(err.cls), err.msg);
                json_decref(doc);
        }
        /* Every other entry: served (a document or the handler's refusal), whatever the input. */
        for (size_t i = 0; i < prc_dispatch_count; i++) {
                const prc_dispatch_entry *e = &prc_dispatch_table[i];
                if (e->op == PRC_OP_TEST || e->op == PRC_OP_PARSE)
                        continue;
                expect_served(c, e->op, e->format, e->input_max > 0 ? "pkgname=x\n" : "");
        }
        T_EQ_INT(started(c), 2);        /* the walk needs an archive worker; the rest share the first one */
        prc_client_free(c);
}

static void test_worker__unknown_format_is_unknown_operation(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, 999, "x", (const uint8_t *)"{}", 2, &doc, &err));
        T_ERR(err, PRC_E_UNKNOWN_OPERATION);
        expect_ping(c);
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

static void test_worker__escape_open_file_is_killed(void) { expect_killed(PRC_T_OPEN_FILE, NULL); }
static void test_worker__escape_socket_is_killed(void) { expect_killed(PRC_T_SOCKET, NULL); }
static void test_worker__escape_execve_is_killed(void) { expect_killed(PRC_T_EXECVE, NULL); }
static void test_worker__escape_fork_is_killed(void) { expect_killed(PRC_T_FORK, NULL); }
static void test_worker__escape_write_file_is_killed(void) { expect_killed(PRC_T_WRITE_FILE, NULL); }
static void test_worker__escape_exec_mmap_is_killed(void) { expect_killed(PRC_T_EXEC_MMAP, NULL); }
static void test_worker__escape_raise_rlimit_after_seal_is_killed(void) { expect_killed(PRC_T_RAISE_RLIMIT, NULL); }

static void test_worker__escape_kill_parent_is_killed(void)
{
        char pid[32];
        snprintf(pid, sizeof(pid), "%d", (int)getpid());
        expect_killed(PRC_T_KILL_PARENT, pid);
}

static void test_worker__escape_tgkill_parent_is_killed(void)
{
        char pid[32];
        snprintf(pid, sizeof(pid), "%d", (int)getpid());
        expect_killed(PRC_T_TGKILL_PARENT, pid);        /* tgkill is allowed for the worker itself only */
}

static void test_worker__abort_is_a_dead_worker_not_a_denied_syscall(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_ABORT, NULL, &doc, &err));
        T_ERR(err, PRC_E_WORKER_DEAD);
        T_ASSERT(strstr(err.msg, "signal 6") != NULL);
        expect_ping(c);
        prc_client_free(c);
}

static void test_worker__escape_abstract_unix_is_killed(void)
{
        expect_killed(PRC_T_ABSTRACT_UNIX, "prc-test-none");
}

/*
 * The layers behind seccomp: with the syscall added to the allowlist (test
 * builds only), the next layer must still deny it, and the parent survives.
 */
static long errno_behind_seccomp(int op, const char *args, const char *const *allow)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL, *e;
        prc_err err;
        long v;

        opts(&o);
        o.worker_args = allow;
        c = client_with(&o);
        prc_err_init(&err);
        if (!test_op(c, op, args, &doc, &err))
                t_fail(__FILE__, __LINE__, "op %d refused: %s: %s", op, prc_err_name(err.cls), err.msg);
        e = json_object_get(doc, "errno");
        if (e == NULL)
                t_fail(__FILE__, __LINE__, "op %d was not denied by the layer behind seccomp", op);
        v = (long)json_integer_value(e);
        json_decref(doc);
        expect_ping(c);
        prc_client_free(c);
        return v;
}

static void test_worker__landlock_denies_open_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=openat", "nofile=16", NULL };
        T_EQ_INT(errno_behind_seccomp(PRC_T_OPEN_FILE, NULL, allow), EACCES);
        T_EQ_INT(errno_behind_seccomp(PRC_T_WRITE_FILE, NULL, allow), EACCES);
}

static void test_worker__nofile_denies_open_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=openat", NULL };
        /* With the default RLIMIT_NOFILE every fd number is taken: no new descriptor at all. */
        T_EQ_INT(errno_behind_seccomp(PRC_T_OPEN_FILE, NULL, allow), EMFILE);
}

static void test_worker__landlock_denies_tcp_connect_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=socket", "allow=connect", "nofile=16", NULL };
        T_EQ_INT(errno_behind_seccomp(PRC_T_SOCKET, NULL, allow), EACCES);
}

static void test_worker__landlock_denies_execve_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=execve", NULL };
        T_EQ_INT(errno_behind_seccomp(PRC_T_EXECVE, NULL, allow), EACCES);
}

/*
 * RLIMIT_NPROC 0 stops fork for an ordinary user.  The kernel exempts the
 * real root user from RLIMIT_NPROC, even inside a user namespace, so as root
 * only seccomp stops fork (docs/sandbox.md says so).
 */
static void nproc_body(void)
{
        static const char *const allow[] = { "allow=clone", "allow=clone3", NULL };
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.worker_args = allow;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_FORK, NULL, &doc, &err));
        if (getuid() == 0)
                T_ASSERT(json_is_true(json_object_get(doc, "escaped")));
        else
                T_EQ_INT(json_integer_value(json_object_get(doc, "errno")), EAGAIN);
        json_decref(doc);
        prc_client_free(c);
}

static void test_worker__nproc_behind_seccomp_depends_on_the_real_uid(void)
{
        nproc_body();
}

static void test_worker__signal_scope_denies_kill_parent_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=kill", NULL };
        char pid[32];

        snprintf(pid, sizeof(pid), "%d", (int)getpid());
        T_EQ_INT(errno_behind_seccomp(PRC_T_KILL_PARENT, pid, allow), EPERM);
}

static void test_worker__netns_hides_abstract_unix_sockets_behind_seccomp(void)
{
        static const char *const allow[] = { "allow=socket", "allow=connect", "nofile=16", NULL };
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        char name[64];
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        size_t n;

        /* A real listener outside the worker, so only the Landlock scope can refuse the connect. */
        snprintf(name, sizeof(name), "prc-test-%d", (int)getpid());
        n = strlen(name);
        memcpy(sa.sun_path + 1, name, n);
        T_ASSERT(fd >= 0);
        T_ASSERT(bind(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) == 0);
        T_ASSERT(listen(fd, 1) == 0);
        /*
         * Abstract names live per network namespace: the worker's private one
         * has no such listener, so the netns answers before the Landlock
         * scope (the second guard) is consulted.
         */
        T_EQ_INT(errno_behind_seccomp(PRC_T_ABSTRACT_UNIX, name, allow), ECONNREFUSED);
        close(fd);
}

static void test_worker__spin_forever_is_a_timeout(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;
        int64_t t0;

        opts(&o);
        o.timeout_ms = 300;
        c = client_with(&o);
        prc_err_init(&err);
        t0 = prc_now_ns();
        T_ASSERT(!test_op(c, PRC_T_SPIN, NULL, &doc, &err));
        T_ERR(err, PRC_E_WORKER_TIMEOUT);
        T_ASSERT(prc_now_ns() - t0 < 3000000000LL);    /* within its bound, not the CPU limit */
        expect_ping(c);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__spin_forever_meets_the_cpu_limit(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.cpu_seconds = 1;
        o.timeout_ms = 20000;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_SPIN, NULL, &doc, &err));
        T_ERR(err, PRC_E_WORKER_LIMIT);
        T_ASSERT(strstr(err.msg, "SIGXCPU") != NULL);
        expect_ping(c);
        prc_client_free(c);
}

static void test_worker__unbounded_allocation_meets_rlimit_as(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.as_bytes = 128u << 20;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_ALLOC, NULL, &doc, &err));
        T_ERR(err, PRC_E_OUT_OF_MEMORY);
        /* That worker was retired: the next request runs on a fresh one. */
        expect_ping(c);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void expect_bad_reply(int op, const char *args, prc_errclass want)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!test_op(c, op, args, &doc, &err));
        T_ERR(err, want);
        expect_ping(c);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__garbage_frame_is_invalid_frame(void) { expect_bad_reply(PRC_T_GARBAGE, NULL, PRC_E_INVALID_FRAME); }
static void test_worker__overcap_reply_is_reply_too_large(void) { expect_bad_reply(PRC_T_OVERCAP, NULL, PRC_E_REPLY_TOO_LARGE); }
static void test_worker__malformed_document_reply_is_invalid_frame(void) { expect_bad_reply(PRC_T_BAD_DOC, NULL, PRC_E_INVALID_FRAME); }
static void test_worker__pieces_over_the_reply_cap_are_reply_too_large(void)
{
        char cap[32];

        snprintf(cap, sizeof(cap), "%u", (unsigned)PRC_REPLY_MAX);
        expect_bad_reply(PRC_T_PIECES_OVER_CAP, cap, PRC_E_REPLY_TOO_LARGE);
}

static void test_worker__bytes_after_a_streamed_document_are_invalid_frame(void)
{
        expect_bad_reply(PRC_T_BYTES_AFTER_DOC, NULL, PRC_E_INVALID_FRAME);
}

/* A document that ends with a DOC_PART, then an empty DOC: a valid reply. */
static void test_worker__empty_doc_after_a_whole_document_is_accepted(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_EMPTY_DOC_AFTER, NULL, &doc, &err));
        T_NOERR(err);
        T_ASSERT(json_is_null(doc));
        json_decref(doc);
        prc_client_free(c);
}

static void test_worker__exit_mid_reply_is_worker_dead(void) { expect_bad_reply(PRC_T_EXIT_MID_REPLY, NULL, PRC_E_WORKER_DEAD); }

static void test_worker__worker_killed_between_requests_is_worker_dead_not_sigpipe(void)
{
        prc_client *c = client();
        prc_client_stats st;
        json_t *doc = NULL;
        prc_err err;
        size_t n = 1u << 20;
        char *big = malloc(n);

        T_ASSERT(big != NULL);
        memset(big, ' ', n);
        big[0] = '1';
        expect_ping(c);
        prc_client_get_stats(c, &st);
        T_EQ_INT(kill(st.worker_pid, SIGKILL), 0);
        /* 1 MiB cannot fit a pipe: the write meets EPIPE, which must not raise SIGPIPE here. */
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "big.json", (const uint8_t *)big, n, &doc, &err));
        T_ERR(err, PRC_E_WORKER_DEAD);
        T_ASSERT(strstr(err.msg, "signal 9") != NULL);
        json_decref(doc);
        doc = NULL;
        T_ASSERT(prc_client_parse(c, PRC_FMT_JSON, "big.json", (const uint8_t *)big, n, &doc, &err));
        T_EQ_INT(json_integer_value(doc), 1);
        json_decref(doc);
        T_EQ_INT(started(c), 2);
        free(big);
        prc_client_free(c);
}

static void test_worker__document_over_the_reply_cap_is_refused_by_the_worker(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.reply_max = 4096;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_BIG_DOC, "10000", &doc, &err));
        T_ERR(err, PRC_E_REPLY_TOO_LARGE);
        T_ASSERT(test_op(c, PRC_T_BIG_DOC, "100", &doc, &err));
        T_EQ_INT(json_string_length(doc), 100);
        json_decref(doc);
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

static void test_worker__request_over_the_cap_is_refused_before_sending(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;
        char big[2048];
        prc_client_stats st;

        memset(big, ' ', sizeof(big));
        big[0] = '1';
        opts(&o);
        o.req_max = 1024;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "big.json", (const uint8_t *)big, sizeof(big), &doc, &err));
        T_ERR(err, PRC_E_REQUEST_TOO_LARGE);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 0);
        T_EQ_INT(st.round_trips, 0);
        prc_client_free(c);
}

static void test_worker__cache_hit_costs_no_round_trip(void)
{
        prc_client *c = client();
        prc_client_stats st;
        json_t *doc = NULL;
        prc_err err;

        expect_doc(c, "{\"k\":[1,2]}", "{\"k\":[1,2]}");
        expect_doc(c, "{\"k\":[1,2]}", "{\"k\":[1,2]}");
        /* A parser refusal is cached too: it is the same answer for the same bytes. */
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "a", (const uint8_t *)"[", 1, &doc, &err));
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "b", (const uint8_t *)"[", 1, &doc, &err));
        T_ERR(err, PRC_E_INVALID_JSON);
        T_EQ_STR(err.file, "b");
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 2);
        T_EQ_INT(st.cache_hits, 2);
        T_EQ_INT(st.cache_entries, 2);
        /* Same bytes as another format is another key. */
        T_ASSERT(!prc_client_parse(c, PRC_FMT_YAML, "a", (const uint8_t *)"{\"k\":[1,2]}", 11, &doc, &err) || doc != NULL);
        json_decref(doc);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 3);
        prc_client_free(c);
}

static void test_worker__cache_evicts_least_recently_used_by_bytes(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;

        opts(&o);
        /* Each reply below is 23 bytes (array, two integers), charged with its entry's overhead: two fit, three do not. */
        o.cache_max = 2 * (23 + PRC_CACHE_ENTRY_OVERHEAD) + 50;
        c = client_with(&o);
        expect_doc(c, "[1,111]", "[1,111]");
        expect_doc(c, "[2,222]", "[2,222]");
        expect_doc(c, "[1,111]", "[1,111]");    /* hit: A becomes most recent */
        expect_doc(c, "[3,333]", "[3,333]");    /* evicts B, the least recent */
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 3);
        T_EQ_INT(st.cache_hits, 1);
        T_EQ_INT(st.cache_entries, 2);
        T_EQ_INT(st.cache_bytes, 2 * (23 + PRC_CACHE_ENTRY_OVERHEAD));
        expect_doc(c, "[1,111]", "[1,111]");    /* still cached */
        expect_doc(c, "[2,222]", "[2,222]");    /* was evicted: a round trip */
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 4);
        T_EQ_INT(st.cache_hits, 2);
        prc_client_free(c);
}

static void test_worker__cache_holds_many_entries(void)
{
        prc_client *c = client();
        prc_client_stats st;
        char in[32];

        /* Enough entries to grow the hash table several times; then every one is a hit. */
        for (int round = 0; round < 2; round++)
                for (int i = 0; i < 300; i++) {
                        snprintf(in, sizeof(in), "[%d]", i);
                        expect_doc(c, in, in);
                }
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.round_trips, 300);
        T_EQ_INT(st.cache_hits, 300);
        T_EQ_INT(st.cache_entries, 300);
        prc_client_free(c);
}

/*
 * Issue 16: the bound counts each entry's own memory, not only reply bytes,
 * so a flood of tiny replies cannot hold more than cache_max.  Where the
 * heap can be measured (not under ASan), the memory the flood leaves held
 * must be within the bound too.
 */
static void test_worker__cache_bound_holds_for_many_tiny_entries(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;
        char in[32];
#if !defined(__SANITIZE_ADDRESS__)
        struct mallinfo2 before, after;
#endif

        opts(&o);
        o.cache_max = 16u << 10;
        c = client_with(&o);
        expect_doc(c, "[0]", "[0]");    /* the worker, its READY details and the buffers exist from here on */
#if !defined(__SANITIZE_ADDRESS__)
        before = mallinfo2();
#endif
        /* Below max_requests, so one worker serves them all. */
        for (int i = 1; i < 900; i++) {
                snprintf(in, sizeof(in), "[%d]", i);
                expect_doc(c, in, in);
        }
#if !defined(__SANITIZE_ADDRESS__)
        after = mallinfo2();
        T_ASSERT(after.uordblks <= before.uordblks + o.cache_max);
#endif
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 1);
        T_ASSERT(st.cache_bytes <= o.cache_max);
        T_ASSERT(st.cache_entries >= 50);
        T_ASSERT(st.cache_entries <= o.cache_max / PRC_CACHE_ENTRY_OVERHEAD);
        prc_client_free(c);
}

static void test_worker__a_binary_that_is_not_a_worker_is_worker_start(void)
{
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.worker_path = "/bin/false";
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "a.json", (const uint8_t *)"[]", 2, &doc, &err));
        T_ERR(err, PRC_E_WORKER_START);
        T_ASSERT(strstr(err.msg, "exited with status 1") != NULL);
        prc_client_free(c);
}

static void test_worker__forked_child_uses_its_own_worker(void)
{
        prc_client *c = client();
        prc_client_stats st;
        pid_t parent_worker, child;
        int status;

        expect_doc(c, "[1]", "[1]");
        prc_client_get_stats(c, &st);
        parent_worker = st.worker_pid;
        T_ASSERT(parent_worker > 0);
        child = fork();
        T_ASSERT(child >= 0);
        if (child == 0) {
                prc_client_stats cs;
                prc_client_get_stats(c, &cs);
                if (cs.worker_pid != 0)
                        _exit(10);      /* the child must not see the parent's worker as its own */
                expect_doc(c, "[2]", "[2]");
                prc_client_get_stats(c, &cs);
                if (cs.worker_pid == 0 || cs.worker_pid == parent_worker || cs.workers_started != 2)
                        _exit(11);
                prc_client_free(c);
                _exit(0);
        }
        T_ASSERT(waitpid(child, &status, 0) == child);
        T_ASSERT(WIFEXITED(status));
        T_EQ_INT(WEXITSTATUS(status), 0);
        T_EQ_INT(kill(parent_worker, 0), 0);    /* the parent's worker is alive and untouched */
        expect_doc(c, "[3]", "[3]");
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.worker_pid, parent_worker);
        T_EQ_INT(st.workers_started, 1);
        prc_client_free(c);
}

static void test_worker__floor_refusal_names_the_layer(void)
{
        static const char *const args[] = { "landlock_abi=99", NULL };
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.worker_args = args;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "x.json", (const uint8_t *)"[]", 2, &doc, &err));
        T_ASSERT(doc == NULL);
        T_ERR(err, PRC_E_FLOOR_UNAVAILABLE);
        T_ASSERT(strncmp(err.msg, "landlock: ", 10) == 0);
        T_ASSERT(strstr(err.msg, "99") != NULL);
        prc_client_free(c);
}

static void test_worker__stderr_as_a_log_file_is_not_written(void)
{
        char path[4200];
        int fd, saved = dup(2);
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;
        size_t n;
        char *log;

        /* CI logs are regular files: RLIMIT_FSIZE 0 would kill a worker that wrote to one. */
        snprintf(path, sizeof(path), "%s/stderr.log", t_tmpdir());
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        T_ASSERT(fd >= 0 && saved >= 0);
        T_ASSERT(dup2(fd, 2) == 2);
        c = client();
        prc_err_init(&err);
        /* Issue 16: write() is pinned to the reply pipe, so even fd 2 (/dev/null) is a denied call. */
        T_ASSERT(!test_op(c, PRC_T_WRITE_STDERR, NULL, &doc, &err));
        dup2(saved, 2);
        T_ERR(err, PRC_E_WORKER_DENIED_SYSCALL);
        T_ASSERT(doc == NULL);
        expect_doc(c, "[1]", "[1]");
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
        close(fd);
        log = t_read(path, &n);
        T_EQ_INT(n, 0);
        free(log);
}

/* Issue 23: READY says which floor the worker applied; a client asking for a level gets exactly it. */
static const json_t *ready_floor(prc_client *c)
{
        expect_ping(c);
        return json_object_get(prc_client_ready(c), "floor");
}

static void test_worker__ready_records_the_strict_floor(void)
{
        prc_client *c = client();
        const json_t *f = ready_floor(c);
        json_t *r;

        T_EQ_STR(json_string_value(json_object_get(f, "level")), "strict");
        T_EQ_INT(json_integer_value(json_object_get(f, "landlock_abi")), PRC_LANDLOCK_ABI_RIGHTS);
        T_EQ_STR(json_string_value(json_object_get(json_object_get(f, "layers"), "landlock")), "applied");
        r = prc_client_floor_record(c);
        T_EQ_STR(json_string_value(json_object_get(r, "worker")), "served");
        T_EQ_STR(json_string_value(json_object_get(r, "level")), "strict");
        json_decref(r);
        prc_client_free(c);
}

static prc_client *client_floor(prc_floor_level level, const char *const *args)
{
        prc_client_opts o;

        opts(&o);
        o.floor = level;
        o.worker_args = args;
        return client_with(&o);
}

static void test_worker__an_older_abi_is_refused_by_default_and_served_by_choice(void)
{
        static const char *const abi4[] = { "test_landlock_abi=4", NULL };
        prc_client *c = client_floor(PRC_FLOOR_STRICT, abi4);
        json_t *doc = NULL, *r;
        const json_t *f;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "x.json", (const uint8_t *)"[]", 2, &doc, &err));
        T_ERR(err, PRC_E_FLOOR_UNAVAILABLE);
        T_ASSERT(strstr(err.msg, "landlock: kernel ABI 4 is below the required 6; --content-floor landlock") != NULL);
        r = prc_client_floor_record(c);
        T_EQ_STR(json_string_value(json_object_get(r, "worker")), "refused");
        json_decref(r);
        prc_client_free(c);

        c = client_floor(PRC_FLOOR_LANDLOCK, abi4);
        f = ready_floor(c);
        T_EQ_STR(json_string_value(json_object_get(f, "level")), "landlock");
        T_EQ_INT(json_integer_value(json_object_get(f, "landlock_abi")), 4);
        expect_doc(c, "[1]", "[1]");
        prc_client_free(c);
}

static void test_worker__without_landlock_the_seccomp_level_serves_and_says_so(void)
{
        static const char *const none[] = { "test_landlock_abi=none", NULL };
        prc_client *c = client_floor(PRC_FLOOR_LANDLOCK, none);
        json_t *doc = NULL;
        const json_t *f;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "x.json", (const uint8_t *)"[]", 2, &doc, &err));
        T_ERR(err, PRC_E_FLOOR_UNAVAILABLE);
        T_ASSERT(strstr(err.msg, "--content-floor seccomp") != NULL);
        prc_client_free(c);

        c = client_floor(PRC_FLOOR_SECCOMP, none);
        f = ready_floor(c);
        T_EQ_STR(json_string_value(json_object_get(f, "level")), "seccomp");
        T_EQ_INT(json_integer_value(json_object_get(f, "landlock_abi")), 0);
        T_EQ_STR(json_string_value(json_object_get(json_object_get(f, "layers"), "landlock")), "skipped");
        expect_doc(c, "[2]", "[2]");
        /* Seccomp still kills what Landlock would also have stopped. */
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_OPEN_FILE, NULL, &doc, &err));
        T_ERR(err, PRC_E_WORKER_DENIED_SYSCALL);
        prc_client_free(c);
}

static void test_worker__no_user_namespace_is_refused_at_every_level(void)
{
        static const char *const denied[] = { "test_userns=denied", NULL };

        for (int l = 0; l < PRC_FLOOR__COUNT; l++) {
                prc_client *c = client_floor((prc_floor_level)l, denied);
                json_t *doc = NULL;
                prc_err err;

                prc_err_init(&err);
                T_ASSERT(!prc_client_parse(c, PRC_FMT_JSON, "x.json", (const uint8_t *)"[]", 2, &doc, &err));
                T_ERR(err, PRC_E_FLOOR_UNAVAILABLE);
                T_ASSERT(strncmp(err.msg, "userns: unshare(CLONE_NEWUSER)", 30) == 0);
                prc_client_free(c);
        }
}

static void test_worker__retires_a_worker_after_max_requests(void)
{
        prc_client_opts o;
        prc_client *c;

        opts(&o);
        o.max_requests = 2;
        c = client_with(&o);
        expect_ping(c);
        expect_ping(c);
        expect_ping(c);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__retires_a_worker_before_its_cpu_limit(void)
{
        prc_client_opts o;
        prc_client *c;

        /* A deadline as long as the CPU limit: no worker may serve a second request. */
        opts(&o);
        o.cpu_seconds = 1;
        o.timeout_ms = 1000;
        c = client_with(&o);
        expect_ping(c);
        expect_ping(c);
        expect_ping(c);
        T_EQ_INT(started(c), 3);
        prc_client_free(c);
}

static uint64_t retirements(prc_client *c)
{
        prc_client_stats st;
        prc_client_get_stats(c, &st);
        return st.retirements;
}

static pid_t worker_pid(prc_client *c)
{
        prc_client_stats st;
        prc_client_get_stats(c, &st);
        return st.worker_pid;
}

/* A worker left holding 16 MiB answers the next request with RETIRE: a fresh worker answers it. */
static void test_worker__a_worker_that_kept_memory_retires_before_the_next_request(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;
        pid_t first;

        prc_err_init(&err);
        expect_ping(c);
        first = worker_pid(c);
        T_ASSERT(test_op(c, PRC_T_LEAK, "16777216", &doc, &err));
        T_ASSERT(json_is_null(doc));
        json_decref(doc);
        T_EQ_INT(retirements(c), 0);    /* the request that leaked is answered by its worker */
        expect_ping(c);
        T_EQ_INT(retirements(c), 1);
        T_EQ_INT(started(c), 2);
        T_ASSERT(worker_pid(c) != first);
        expect_ping(c);                 /* the fresh worker keeps serving */
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

/* A heap left in 15,000 free pieces (4 MB kept, under the byte bound) retires the worker too. */
static void test_worker__a_fragmented_heap_retires_the_worker(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_FRAGMENT, NULL, &doc, &err));
        json_decref(doc);
        expect_ping(c);
        T_EQ_INT(retirements(c), 1);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__memory_under_the_retire_bound_keeps_the_worker(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_LEAK, "1048576", &doc, &err));
        json_decref(doc);
        for (int i = 0; i < 5; i++)
                expect_ping(c);
        T_EQ_INT(retirements(c), 0);
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

/*
 * The leak the retire bound was first met with, for real: libfyaml 0.7.12
 * kept about 32 MiB formatting one single-quoted scalar of 500,000 ''
 * escapes (fuzz/lsan_libfyaml.c), which retired the worker.  prc now
 * decodes single-quoted scalars from the input itself (docs/yaml.md), so
 * the same request gets the right string and leaves the worker as it was;
 * the retire path itself is covered by the PRC_T_LEAK tests above.
 */
static void test_worker__libfyaml_quote_leak_no_longer_grows_the_worker(void)
{
        enum { PAIRS = 500000 };
        size_t n = 3 + 2 * PAIRS + 2;
        char *in = malloc(n + 1);
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        T_ASSERT(in != NULL);
        memcpy(in, "- '", 3);
        memset(in + 3, '\'', 2 * PAIRS);
        memcpy(in + 3 + 2 * PAIRS, "x'", 2);
        in[n] = 0;
        prc_err_init(&err);
        if (!prc_client_parse(c, PRC_FMT_YAML, "q.yaml", (const uint8_t *)in, n, &doc, &err))
                t_fail(__FILE__, __LINE__, "parse refused: %s: %s", prc_err_name(err.cls), err.msg);
        T_ASSERT(json_is_array(doc) && json_array_size(doc) == 1);
        T_EQ_INT(json_string_length(json_array_get(doc, 0)), PAIRS + 1);
        T_ASSERT(strspn(json_string_value(json_array_get(doc, 0)), "'") == PAIRS);
        json_decref(doc);
        expect_ping(c);
        T_EQ_INT(retirements(c), 0);
        T_EQ_INT(started(c), 1);
        free(in);
        prc_client_free(c);
}

/* RETIRE is believed only from a worker that has answered before, only empty, and once per request. */
static void test_worker__retire_misuse_is_invalid_frame(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_RETIRE, NULL, &doc, &err));  /* a fresh worker's first reply */
        T_ERR(err, PRC_E_INVALID_FRAME);
        T_ASSERT(doc == NULL);
        T_EQ_INT(retirements(c), 0);
        expect_ping(c);
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_RETIRE, "payload", &doc, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);
        T_EQ_INT(retirements(c), 0);
        expect_ping(c);
        /* Believed once; the fresh worker that gets the request retires too: invalid. */
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_RETIRE, NULL, &doc, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);
        T_EQ_INT(retirements(c), 1);
        expect_ping(c);
        T_EQ_INT(started(c), 5);
        prc_client_free(c);
}

static bool libarchive_mapped(prc_client *c)
{
        json_t *doc = NULL;
        prc_err err;
        bool mapped;

        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_LIBARCHIVE, NULL, &doc, &err));
        T_ASSERT(json_is_boolean(doc));
        mapped = json_is_true(doc);
        json_decref(doc);
        return mapped;
}

static bool walk(prc_client *c, json_t **doc, prc_err *err)
{
        static const struct fx_mem one[] = { { 'f', "a", "x", 0, 0 } };
        size_t n;
        uint8_t *tar = fx_archive(one, 1, 0, &n);
        bool ok = prc_client_call(c, PRC_OP_WALK, 0, 0, "t.tar", NULL, 0, tar, n, false, doc, err);

        free(tar);
        return ok;
}

/* Document workers never map libarchive (about 5 ms of start-up); a walk brings an archive worker. */
static void test_worker__only_archive_workers_load_libarchive(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        expect_ping(c);
        T_ASSERT(!libarchive_mapped(c));
        prc_err_init(&err);
        if (!walk(c, &doc, &err))
                t_fail(__FILE__, __LINE__, "walk refused: %s: %s", prc_err_name(err.cls), err.msg);
        T_ASSERT(json_is_object(doc));
        json_decref(doc);
        T_EQ_INT(started(c), 2);        /* the document worker was retired for an archive worker */
        T_ASSERT(libarchive_mapped(c));
        expect_ping(c);                 /* it serves everything else too, and later workers are archive workers */
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

/* A walk that reaches a worker without libarchive is refused by it, and the worker lives on. */
static void test_worker__a_walk_on_a_worker_without_libarchive_is_library_unavailable(void)
{
        static const char *const no_archive[] = { "archive=0", NULL };
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        opts(&o);
        o.worker_args = no_archive;     /* after the client's archive=1: the worker ignores the client */
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(!walk(c, &doc, &err));
        T_ERR(err, PRC_E_LIBRARY_UNAVAILABLE);
        T_ASSERT(doc == NULL);
        T_ASSERT(!libarchive_mapped(c));
        expect_ping(c);
        T_EQ_INT(started(c), 1);
        prc_client_free(c);
}

static bool libcrypto_mapped(prc_client *c)
{
        json_t *doc = NULL;
        prc_err err;
        bool mapped;

        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_LIBCRYPTO, NULL, &doc, &err));
        T_ASSERT(json_is_boolean(doc));
        mapped = json_is_true(doc);
        json_decref(doc);
        return mapped;
}

/*
 * No worker maps libcrypto (about 3 ms of start-up, base/crypto.h), a
 * document worker nor an archive worker, and both hash (prc's own SHA-256,
 * base/digest.h): the FIPS 180-2 "abc" vector, after the floor.
 */
static void test_worker__no_worker_loads_libcrypto_and_each_hashes(void)
{
        static const char abc[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        expect_ping(c);
        T_ASSERT(!libcrypto_mapped(c));
        prc_err_init(&err);
        T_ASSERT(test_op(c, PRC_T_SHA256, "abc", &doc, &err));
        T_EQ_STR(json_string_value(doc), abc);
        json_decref(doc);
        doc = NULL;
        T_ASSERT(!libcrypto_mapped(c));
        T_EQ_INT(started(c), 1);
        if (!walk(c, &doc, &err))
                t_fail(__FILE__, __LINE__, "walk refused: %s: %s", prc_err_name(err.cls), err.msg);
        json_decref(doc);
        doc = NULL;
        T_EQ_INT(started(c), 2);        /* the walk's archive worker */
        T_ASSERT(!libcrypto_mapped(c));
        T_ASSERT(test_op(c, PRC_T_SHA256, "abc", &doc, &err));
        T_EQ_STR(json_string_value(doc), abc);
        json_decref(doc);
        T_EQ_INT(started(c), 2);
        prc_client_free(c);
}

static void test_worker__release_binary_has_no_test_operations(void)
{
        char path[4200];
        prc_client_opts o;
        prc_client *c;
        json_t *doc = NULL;
        prc_err err;

        snprintf(path, sizeof(path), "%s/build/prc", t_root());
        T_ASSERT(access(path, X_OK) == 0);
        opts(&o);
        o.worker_path = path;
        c = client_with(&o);
        expect_doc(c, "{\"z\":1,\"a\":2}", "{\"a\":2,\"z\":1}");
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_OPEN_FILE, NULL, &doc, &err));
        T_ERR(err, PRC_E_INVALID_FRAME);        /* the op code is not in its table at all */
        prc_client_free(c);
}

/* The whole story as an ordinary user: parse, an escape, a refusal. */
static void unprivileged_body(void)
{
        prc_client *c = client();
        json_t *doc = NULL;
        prc_err err;

        expect_doc(c, "{\"u\":[1]}", "{\"u\":[1]}");
        prc_err_init(&err);
        T_ASSERT(!test_op(c, PRC_T_OPEN_FILE, NULL, &doc, &err));
        T_ERR(err, PRC_E_WORKER_DENIED_SYSCALL);
        expect_ping(c);
        prc_client_free(c);
        nproc_body();
}

/*
 * Some sandboxes give '/' mode 0700: no other user can reach any binary.
 * There the child keeps exactly one capability, CAP_DAC_READ_SEARCH, as an
 * ambient capability so that exec can walk '/'; the worker's floor drops it
 * with everything else, and every other rule an ordinary user meets (the
 * one-id uid_map, RLIMIT_NPROC) still applies.
 */
static bool host_blocks_other_users(void)
{
        struct stat st;

        return stat("/", &st) == 0 && (st.st_mode & S_IXOTH) == 0;
}

static bool keep_search_cap(void)
{
        struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
        struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

        memset(data, 0, sizeof(data));
        data[0].effective = data[0].permitted = data[0].inheritable = 1u << CAP_DAC_READ_SEARCH;
        return syscall(SYS_capset, &hdr, data) == 0 &&
               prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_DAC_READ_SEARCH, 0, 0) == 0;
}

static void test_worker__floored_worker_runs_as_an_unprivileged_user(void)
{
        const char *user = getenv("PRC_TEST_USER");
        struct passwd *pw;
        pid_t pid;
        int status;

        if (geteuid() != 0) {
                unprivileged_body();    /* already an ordinary user */
                return;
        }
        /* As root: drop to PRC_TEST_USER (tests/run creates it), else to nobody, which always exists. */
        pw = getpwnam(user != NULL ? user : "nobody");
        if (pw == NULL)
                t_fail(__FILE__, __LINE__, "no user '%s'", user != NULL ? user : "nobody");
        T_ASSERT(pw->pw_uid != 0);
        pid = fork();
        T_ASSERT(pid >= 0);
        if (pid == 0) {
                bool blocked = host_blocks_other_users();
                if (blocked && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0)
                        _exit(22);
                if (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
                        _exit(20);
                if (getuid() == 0 || geteuid() == 0)
                        _exit(21);
                if (blocked && !keep_search_cap())
                        _exit(23);
                unprivileged_body();
                _exit(0);
        }
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        T_ASSERT(WIFEXITED(status));
        T_EQ_INT(WEXITSTATUS(status), 0);
}

/*
 * A worker that bends a ManifestDoc's details (the test worker's
 * "prc-test-bend/" paths, dispatch.c) is answered as a compromised one: the
 * reply is refused as manifest-doc-details-invalid at the bent field, the
 * worker is ended, and the next request gets a fresh worker and a clean
 * document.
 */
static void test_worker__bent_details_are_refused_and_the_worker_ended(void)
{
        static const char wf[] = "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n"
                                 "          curl -fsSL https://example.org/x.sh | sh\n";
        static const struct {
                const char *path, *ptr;
        } bent[] = {
                { "prc-test-bend/key/.github/workflows/x.yml", "/details" },
                { "prc-test-bend/tokens/.github/workflows/x.yml", "/details/jobs/0/steps/0/run/tokens/commands/0" },
        };
        prc_client_opts o;
        prc_client *c;
        prc_client_stats st;
        json_t *md = NULL;
        prc_err err;

        opts(&o);
        o.cache_max = 0;        /* each clean request is answered by a worker, not the cache */
        c = client_with(&o);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bent); i++) {
                prc_err_init(&err);
                T_ASSERT(prc_client_extract(c, "gha-workflow", ".github/workflows/x.yml", (const uint8_t *)wf,
                                            sizeof(wf) - 1, &md, &err));
                json_decref(md);
                md = NULL;
                prc_client_get_stats(c, &st);
                T_ASSERT(st.worker_pid > 0);
                prc_err_init(&err);
                T_ASSERT(!prc_client_extract(c, "gha-workflow", bent[i].path, (const uint8_t *)wf, sizeof(wf) - 1,
                                             &md, &err));
                T_ASSERT(md == NULL);
                T_ERR(err, PRC_E_MANIFEST_DOC_DETAILS);
                T_EQ_STR(err.ptr, bent[i].ptr);
                T_EQ_STR(err.file, bent[i].path);
                prc_client_get_stats(c, &st);
                T_EQ_INT(st.worker_pid, 0);
        }
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.workers_started, 2);
        prc_client_free(c);
}

/*
 * prc sbom's packed dependencies (PRC_REQ_PACKED_DEPS): the worker sends its
 * table, which reads as the tree a plain extraction gives; a worker that
 * bends a byte of it (the test worker's "prc-test-bend/table/" paths) is
 * refused as invalid-frame and ended, and the next request is clean.
 */
static void test_worker__packed_dependencies_and_a_bent_table(void)
{
        static const char lock[] = "{\"name\":\"app\",\"version\":\"1.0.0\",\"lockfileVersion\":3,\"packages\":{"
                                   "\"\":{\"name\":\"app\",\"version\":\"1.0.0\",\"dependencies\":{\"a\":\"^1\"}},"
                                   "\"node_modules/a\":{\"version\":\"1.2.3\",\"resolved\":"
                                   "\"https://registry.npmjs.org/a/-/a-1.2.3.tgz\",\"integrity\":\"sha512-q83vEjRWeJA=\"}}}";
        prc_client_opts o;
        prc_client *plain, *c;
        prc_client_stats st;
        json_t *md = NULL, *tree = NULL, *back;
        prc_mdp view;
        prc_err err;

        opts(&o);
        o.cache_max = 0;
        plain = client_with(&o);
        o.packed_deps = true;
        c = client_with(&o);
        prc_err_init(&err);
        T_ASSERT(prc_client_extract(plain, NULL, "package-lock.json", (const uint8_t *)lock, sizeof(lock) - 1, &tree,
                                    &err));
        T_ASSERT(prc_client_extract(c, NULL, "package-lock.json", (const uint8_t *)lock, sizeof(lock) - 1, &md, &err));
        T_NOERR(err);
        T_ASSERT(prc_mdp_view(json_object_get(md, "dependencies"), &view));
        T_EQ_INT(view.ndeps, 1);
        back = prc_mdp_to_tree(&view);
        T_ASSERT(back != NULL && json_equal(back, json_object_get(tree, "dependencies")));
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.packed_from_tree, 0);       /* the worker's table, not the tree packed here */
        json_decref(back);
        json_decref(md);
        md = NULL;
        T_ASSERT(!prc_client_extract(c, NULL, "prc-test-bend/table/package-lock.json", (const uint8_t *)lock,
                                     sizeof(lock) - 1, &md, &err));
        T_ASSERT(md == NULL);
        T_ERR(err, PRC_E_INVALID_FRAME);
        T_ASSERT(strstr(err.msg, "the dependency table: a scope, source type or flag out of range") != NULL);
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.worker_pid, 0);
        prc_err_init(&err);
        T_ASSERT(prc_client_extract(c, NULL, "package-lock.json", (const uint8_t *)lock, sizeof(lock) - 1, &md, &err));
        T_ASSERT(prc_mdp_view(json_object_get(md, "dependencies"), &view) && view.ndeps == 1);
        json_decref(md);
        md = NULL;
        /*
         * Native rows that decline (the test worker's "prc-test-rows-decline/" paths) make the
         * worker extract again with trees: the same table, still the worker's.
         */
        T_ASSERT(prc_client_extract(c, NULL, "prc-test-rows-decline/package-lock.json", (const uint8_t *)lock,
                                    sizeof(lock) - 1, &md, &err));
        T_NOERR(err);
        T_ASSERT(prc_mdp_view(json_object_get(md, "dependencies"), &view) && view.ndeps == 1);
        back = prc_mdp_to_tree(&view);
        T_ASSERT(back != NULL && json_equal(back, json_object_get(tree, "dependencies")));
        prc_client_get_stats(c, &st);
        T_EQ_INT(st.packed_from_tree, 0);
        json_decref(back);
        json_decref(md);
        json_decref(tree);
        prc_client_free(c);
        prc_client_free(plain);
}

/*
 * A refusal after the native rows took some (a yarn.lock entry without a
 * version after good ones) is the plain extraction's, class and message:
 * the worker runs it again with trees.
 */
static void test_worker__packed_refusal_is_the_plain_one(void)
{
        static const char yarn[] = "# yarn lockfile v1\n\n\"a@^1\":\n  version \"1.0.0\"\n\n"
                                   "\"b@^2\":\n  resolved \"https://registry.yarnpkg.com/b/-/b-2.0.0.tgz\"\n";
        prc_client_opts o;
        prc_client *plain, *c;
        json_t *md = NULL;
        prc_err e1, e2;

        opts(&o);
        o.cache_max = 0;
        plain = client_with(&o);
        o.packed_deps = true;
        c = client_with(&o);
        prc_err_init(&e1);
        prc_err_init(&e2);
        T_ASSERT(!prc_client_extract(plain, NULL, "yarn.lock", (const uint8_t *)yarn, sizeof(yarn) - 1, &md, &e1));
        T_ASSERT(!prc_client_extract(c, NULL, "yarn.lock", (const uint8_t *)yarn, sizeof(yarn) - 1, &md, &e2));
        T_ERR(e1, PRC_E_EXTRACT_SHAPE);
        T_ERR(e2, PRC_E_EXTRACT_SHAPE);
        T_EQ_STR(e2.msg, e1.msg);
        T_EQ_INT(e2.line, e1.line);
        prc_client_free(c);
        prc_client_free(plain);
}

/* md with its details cut to the members prc_mdoc_slim_keys names (a new reference). */
static json_t *slimmed(const json_t *md)
{
        json_t *d = json_object(), *out = json_deep_copy(md), *v;

        T_ASSERT(d != NULL && out != NULL);
        for (const char *const *k = prc_mdoc_slim_keys; *k != NULL; k++)
                if ((v = json_object_get(json_object_get(md, "details"), *k)) != NULL)
                        T_ASSERT(json_object_set(d, *k, v) == 0);
        T_ASSERT(json_object_set_new(out, "details", d) == 0);
        return out;
}

/*
 * prc sbom's slim details (PRC_REQ_SLIM_DETAILS): a workflow, a
 * requirements file with its includes and a go.mod come back as the plain
 * extraction with details cut to what the SBOM reads, with or without the
 * packed table; the reply cap is the whole document's (a cap one byte
 * under its encoding refuses the slim reply too, as reply-too-large, and
 * one at it serves it); a worker that sends a member slim details never
 * hold (the test worker's "prc-test-bend/slim/" paths) is refused at that
 * member and ended, and the next request is clean.
 */
static void test_worker__slim_details_are_the_sboms_and_counted_whole(void)
{
        static const struct {
                const char *path, *text, *kept;
        } files[] = {
                { ".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                  "      - uses: actions/checkout@v4\n      - run: |\n          make ${{ github.ref }}\n", NULL },
                { "requirements.txt", "-r base.txt\n-c pins.txt\nrequests==2.31.0\n", "includes" },
                { "go.mod", "module example.org/m\n\ngo 1.22\n\ntoolchain go1.22.1\n\n"
                  "require golang.org/x/text v0.14.0\n", "go" },
        };
        prc_client_opts o;
        prc_client *plain, *slim, *both, *capped;
        prc_client_stats st;
        json_t *full = NULL, *md = NULL, *want;
        prc_buf enc;
        prc_mdp view;
        prc_err err;

        opts(&o);
        o.cache_max = 0;
        plain = client_with(&o);
        o.slim_details = true;
        slim = client_with(&o);
        o.packed_deps = true;
        both = client_with(&o);
        for (size_t i = 0; i < PRC_ARRAY_LEN(files); i++) {
                const uint8_t *b = (const uint8_t *)files[i].text;
                size_t n = strlen(files[i].text);

                prc_err_init(&err);
                T_ASSERT(prc_client_extract(plain, NULL, files[i].path, b, n, &full, &err));
                T_ASSERT(json_object_size(json_object_get(full, "details")) > (files[i].kept != NULL ? 1u : 0u));
                want = slimmed(full);
                T_EQ_INT(json_object_size(json_object_get(want, "details")), files[i].kept != NULL);
                T_ASSERT(prc_client_extract(slim, NULL, files[i].path, b, n, &md, &err));
                T_NOERR(err);
                T_ASSERT(json_equal(md, want));
                json_decref(md);
                T_ASSERT(prc_client_extract(both, NULL, files[i].path, b, n, &md, &err));
                T_ASSERT(prc_mdp_view(json_object_get(md, "dependencies"), &view));
                T_EQ_INT(view.ndeps, json_array_size(json_object_get(full, "dependencies")));
                T_ASSERT(json_equal(json_object_get(md, "details"), json_object_get(want, "details")));
                json_decref(md);
                /* the cap: the whole document's bytes, not the slim reply's */
                prc_buf_init(&enc, 1u << 24);
                T_ASSERT(prc_docbin_write(full, &enc, &err));
                for (int at = 0; at < 2; at++) {
                        prc_client_opts oc;
                        opts(&oc);
                        oc.cache_max = 0;
                        oc.slim_details = true;
                        oc.reply_max = (uint32_t)enc.len - (at == 0 ? 1 : 0);
                        capped = client_with(&oc);
                        prc_err_init(&err);
                        md = NULL;
                        T_ASSERT(prc_client_extract(capped, NULL, files[i].path, b, n, &md, &err) == (at == 1));
                        if (at == 0)
                                T_ERR(err, PRC_E_REPLY_TOO_LARGE);
                        else
                                T_ASSERT(json_equal(md, want));
                        json_decref(md);
                        prc_client_free(capped);
                }
                prc_buf_clear(&enc);
                json_decref(want);
                json_decref(full);
        }
        /* A member slim details never hold: refused there, the worker ended, the next request clean. */
        prc_err_init(&err);
        md = NULL;
        T_ASSERT(!prc_client_extract(both, NULL, "prc-test-bend/slim/go.mod", (const uint8_t *)files[2].text,
                                     strlen(files[2].text), &md, &err));
        T_ASSERT(md == NULL);
        T_ERR(err, PRC_E_MANIFEST_DOC_DETAILS);
        T_EQ_STR(err.ptr, "/details/jobs");
        prc_client_get_stats(both, &st);
        T_EQ_INT(st.worker_pid, 0);
        prc_err_init(&err);
        T_ASSERT(prc_client_extract(both, NULL, "go.mod", (const uint8_t *)files[2].text, strlen(files[2].text), &md,
                                    &err));
        T_EQ_STR(json_string_value(json_object_get(json_object_get(md, "details"), "go")), "1.22");
        json_decref(md);
        prc_client_free(both);
        prc_client_free(slim);
        prc_client_free(plain);
}


/* ---- Runs of requests (prc_client_parse_extract_many) ---- */

struct rfile {
        const char *name, *text;
        uint16_t    fmt;        /* the parse before the extraction; 0: extracted alone */
};

/* Small manifests that extract, refuse at the parse, refuse at the extraction, or have no parse format. */
static const struct rfile run_files[] = {
        { "a/package.json", "{\"name\":\"a\",\"version\":\"1.0.0\",\"dependencies\":{\"left-pad\":\"^1.3.0\"}}",
          PRC_FMT_JSON },
        { "b/Cargo.toml", "[package]\nname = \"b\"\nversion = \"0.1.0\"\n[dependencies]\nserde = \"1\"\n",
          PRC_FMT_TOML },
        { "c/requirements.txt", "requests==2.31.0\nflask>=2.0\n", 0 },
        { "d/package.json", "{\"name\":", PRC_FMT_JSON },
        { "e/package.json", "[1,2]", PRC_FMT_JSON },
        { "f/go.mod", "module example.com/f\n\ngo 1.21\n\nrequire github.com/x/y v1.2.3\n", 0 },
        { "g/pyproject.toml", "[project]\nname = \"g\"\nversion = \"1\"\ndependencies = [\"attrs>=22\"]\n",
          PRC_FMT_TOML },
};

static prc_client *run_client(unsigned timeout_ms)
{
        prc_client_opts o;

        opts(&o);
        o.cache_max = 0;        /* runs are for clients without a reply cache */
        o.packed_deps = true;   /* as prc sbom asks */
        if (timeout_ms != 0)
                o.timeout_ms = timeout_ms;
        return client_with(&o);
}

static void run_items(prc_client_xitem *x, const struct rfile *const *f, size_t n)
{
        for (size_t i = 0; i < n; i++)
                x[i] = (prc_client_xitem){ .parse_fmt = f[i]->fmt, .path = f[i]->name,
                                           .bytes = (const uint8_t *)f[i]->text, .len = strlen(f[i]->text) };
}

/* Item i's answer is what one call of its own, on a client of the same options, answers. */
static void expect_one_by_one(prc_client *one, const prc_client_xitem *x)
{
        json_t *md = NULL;
        prc_err err;
        bool ok;

        prc_err_init(&err);
        ok = x->parse_fmt != 0 ? prc_client_parse_extract(one, x->parse_fmt, x->path, x->bytes, x->len, &md, &err)
                               : prc_client_extract(one, NULL, x->path, x->bytes, x->len, &md, &err);
        if (ok != x->ok)
                t_fail(__FILE__, __LINE__, "%s: alone %s (%s: %s), in a run %s (%s: %s)", x->path,
                       ok ? "extracts" : "refuses", prc_err_name(err.cls), err.msg, x->ok ? "extracts" : "refuses",
                       prc_err_name(x->err.cls), x->err.msg);
        /* json_equal: with packed_deps the dependencies are a table's bytes, compared byte for byte. */
        if (ok && x->ok && !json_equal(md, x->md))
                t_fail(__FILE__, __LINE__, "%s: the ManifestDocs differ", x->path);
        if (!ok && !x->ok && (!prc_err_same(&err, &x->err) || strcmp(err.file, x->err.file) != 0))
                t_fail(__FILE__, __LINE__, "%s: alone %s (%s), in a run %s (%s)", x->path, prc_err_name(err.cls),
                       err.msg, prc_err_name(x->err.cls), x->err.msg);
        json_decref(md);
}

static uint64_t runs(prc_client *c)
{
        prc_client_stats st;
        prc_client_get_stats(c, &st);
        return st.runs;
}

/* Every kind of answer, twice over, in runs: each the answer of its own call. */
static void test_worker__a_run_answers_as_one_call_each(void)
{
        enum { N = 2 * PRC_ARRAY_LEN(run_files) };
        const struct rfile *f[N];
        prc_client_xitem x[N];
        prc_client *c = run_client(0), *one = run_client(0);
        prc_client_stats st;

        for (size_t i = 0; i < N; i++)
                f[i] = &run_files[i % PRC_ARRAY_LEN(run_files)];
        expect_ping(c);         /* a running worker: the first file goes in a run too */
        run_items(x, f, N);
        prc_client_parse_extract_many(c, x, N);
        for (size_t i = 0; i < N; i++) {
                expect_one_by_one(one, &x[i]);
                json_decref(x[i].md);
        }
        T_ASSERT(x[0].ok && !x[3].ok && !x[4].ok && x[5].ok);
        prc_client_get_stats(c, &st);
        T_ASSERT(st.runs >= 1);
        T_EQ_INT(st.round_trips, N + 1);
        T_EQ_INT(st.workers_started, 1);
        prc_client_free(c);
        prc_client_free(one);
}

/*
 * A file the worker dies on, hangs on, or keeps memory after, in the
 * middle of a run: that file's answer is what it is alone (worker-dead,
 * worker-timeout, a document), and the files after it are answered by a
 * fresh worker exactly as alone.
 */
static void run_with(const char *bent, unsigned timeout_ms, prc_errclass want, uint64_t retired)
{
        const struct rfile mid = { bent, run_files[0].text, PRC_FMT_JSON };
        const struct rfile *f[] = { &run_files[0], &run_files[1], &mid,         &run_files[2],
                                    &run_files[5], &run_files[6], &run_files[0] };
        prc_client_xitem x[PRC_ARRAY_LEN(f)];
        prc_client *c = run_client(timeout_ms), *one = run_client(0);

        expect_ping(c);
        run_items(x, f, PRC_ARRAY_LEN(f));
        prc_client_parse_extract_many(c, x, PRC_ARRAY_LEN(f));
        for (size_t i = 0; i < PRC_ARRAY_LEN(f); i++) {
                if (i == 2 && want != PRC_E_OK) {
                        T_ASSERT(!x[i].ok);
                        T_ERR(x[i].err, want);
                        T_EQ_STR(x[i].err.file, bent);
                } else {
                        T_ASSERT(x[i].ok);
                        expect_one_by_one(one, &x[i]);
                }
                json_decref(x[i].md);
        }
        T_ASSERT(runs(c) >= 2);
        T_EQ_INT(started(c), 2);
        T_EQ_INT(retirements(c), retired);
        prc_client_free(c);
        prc_client_free(one);
}

static void test_worker__a_worker_dead_mid_run_fails_that_file_alone(void)
{
        run_with("prc-test-run/die/package.json", 0, PRC_E_WORKER_DEAD, 0);
}

static void test_worker__a_worker_hung_mid_run_times_out_that_file_alone(void)
{
        run_with("prc-test-run/hang/package.json", 400, PRC_E_WORKER_TIMEOUT, 0);
}

static void test_worker__a_worker_that_kept_memory_mid_run_leaves_the_rest_to_a_fresh_one(void)
{
        run_with("prc-test-run/leak/package.json", 0, PRC_E_OK, 1);
}

/*
 * A run holds no more than the worker may still serve: max_requests, and
 * timeout_ms for each request within the CPU budget (a budget of three
 * deadlines: runs of two; of one deadline: no run, one worker a request).
 * A client with a reply cache makes no runs.
 */
static void test_worker__runs_keep_to_max_requests_the_cpu_budget_and_the_cache(void)
{
        enum { N = PRC_ARRAY_LEN(run_files) };
        const struct rfile *f[N];
        prc_client_xitem x[N];
        prc_client_opts o;
        prc_client *c;

        for (size_t i = 0; i < N; i++)
                f[i] = &run_files[i];
        for (int mode = 0; mode < 4; mode++) {
                prc_client *one = run_client(0);

                opts(&o);
                o.packed_deps = true;
                o.cache_max = mode == 3 ? o.cache_max : 0;
                if (mode == 0)
                        o.max_requests = 3;
                if (mode == 1 || mode == 2) {
                        o.cpu_seconds = mode == 1 ? 3 : 1;
                        o.timeout_ms = 1000;
                }
                c = client_with(&o);
                run_items(x, f, N);
                prc_client_parse_extract_many(c, x, N);
                for (size_t i = 0; i < N; i++) {
                        expect_one_by_one(one, &x[i]);
                        json_decref(x[i].md);
                }
                /* 7 requests: 3 workers of at most 3; one worker, runs of 2 after the first; one a request. */
                T_EQ_INT(started(c), mode == 0 ? 3 : mode == 2 ? N : 1);
                if (mode == 0)
                        T_ASSERT(runs(c) >= 1);
                else if (mode == 1)
                        T_EQ_INT(runs(c), 3);
                else
                        T_EQ_INT(runs(c), 0);
                prc_client_free(c);
                prc_client_free(one);
        }
}

static const prc_test tests[] = {
        T(test_worker__packed_dependencies_and_a_bent_table),
        T(test_worker__packed_refusal_is_the_plain_one),
        T(test_worker__slim_details_are_the_sboms_and_counted_whole),
        T(test_worker__bent_details_are_refused_and_the_worker_ended),
        T(test_worker__parses_json_through_a_floored_worker),
        T(test_worker__large_documents_stream_to_the_in_process_tree),
        T(test_worker__reply_cap_reached_mid_stream_is_reply_too_large),
        T(test_worker__parser_refusal_is_named_and_keeps_the_worker),
        T(test_worker__jsonc_numbers_are_read_as_parse_json_reads_them),
        T(test_worker__parses_yaml_through_a_floored_worker),
        T(test_worker__every_table_entry_is_served_under_the_floor),
        T(test_worker__unknown_format_is_unknown_operation),
        T(test_worker__escape_open_file_is_killed),
        T(test_worker__escape_socket_is_killed),
        T(test_worker__escape_execve_is_killed),
        T(test_worker__escape_fork_is_killed),
        T(test_worker__escape_write_file_is_killed),
        T(test_worker__escape_exec_mmap_is_killed),
        T(test_worker__escape_raise_rlimit_after_seal_is_killed),
        T(test_worker__escape_kill_parent_is_killed),
        T(test_worker__escape_abstract_unix_is_killed),
        T(test_worker__escape_tgkill_parent_is_killed),
        T(test_worker__abort_is_a_dead_worker_not_a_denied_syscall),
        T(test_worker__landlock_denies_open_behind_seccomp),
        T(test_worker__landlock_denies_tcp_connect_behind_seccomp),
        T(test_worker__landlock_denies_execve_behind_seccomp),
        T(test_worker__nproc_behind_seccomp_depends_on_the_real_uid),
        T(test_worker__nofile_denies_open_behind_seccomp),
        T(test_worker__signal_scope_denies_kill_parent_behind_seccomp),
        T(test_worker__netns_hides_abstract_unix_sockets_behind_seccomp),
        T(test_worker__spin_forever_is_a_timeout),
        T(test_worker__spin_forever_meets_the_cpu_limit),
        T(test_worker__unbounded_allocation_meets_rlimit_as),
        T(test_worker__garbage_frame_is_invalid_frame),
        T(test_worker__overcap_reply_is_reply_too_large),
        T(test_worker__exit_mid_reply_is_worker_dead),
        T(test_worker__pieces_over_the_reply_cap_are_reply_too_large),
        T(test_worker__bytes_after_a_streamed_document_are_invalid_frame),
        T(test_worker__empty_doc_after_a_whole_document_is_accepted),
        T(test_worker__malformed_document_reply_is_invalid_frame),
        T(test_worker__worker_killed_between_requests_is_worker_dead_not_sigpipe),
        T(test_worker__document_over_the_reply_cap_is_refused_by_the_worker),
        T(test_worker__request_over_the_cap_is_refused_before_sending),
        T(test_worker__cache_hit_costs_no_round_trip),
        T(test_worker__cache_evicts_least_recently_used_by_bytes),
        T(test_worker__cache_holds_many_entries),
        T(test_worker__cache_bound_holds_for_many_tiny_entries),
        T(test_worker__a_binary_that_is_not_a_worker_is_worker_start),
        T(test_worker__forked_child_uses_its_own_worker),
        T(test_worker__floor_refusal_names_the_layer),
        T(test_worker__stderr_as_a_log_file_is_not_written),
        T(test_worker__ready_records_the_strict_floor),
        T(test_worker__an_older_abi_is_refused_by_default_and_served_by_choice),
        T(test_worker__without_landlock_the_seccomp_level_serves_and_says_so),
        T(test_worker__no_user_namespace_is_refused_at_every_level),
        T(test_worker__retires_a_worker_after_max_requests),
        T(test_worker__retires_a_worker_before_its_cpu_limit),
        T(test_worker__a_worker_that_kept_memory_retires_before_the_next_request),
        T(test_worker__memory_under_the_retire_bound_keeps_the_worker),
        T(test_worker__a_fragmented_heap_retires_the_worker),
        T(test_worker__libfyaml_quote_leak_no_longer_grows_the_worker),
        T(test_worker__retire_misuse_is_invalid_frame),
        T(test_worker__a_run_answers_as_one_call_each),
        T(test_worker__a_worker_dead_mid_run_fails_that_file_alone),
        T(test_worker__a_worker_hung_mid_run_times_out_that_file_alone),
        T(test_worker__a_worker_that_kept_memory_mid_run_leaves_the_rest_to_a_fresh_one),
        T(test_worker__runs_keep_to_max_requests_the_cpu_budget_and_the_cache),
        T(test_worker__only_archive_workers_load_libarchive),
        T(test_worker__a_walk_on_a_worker_without_libarchive_is_library_unavailable),
        T(test_worker__no_worker_loads_libcrypto_and_each_hashes),
        T(test_worker__release_binary_has_no_test_operations),
        T(test_worker__floored_worker_runs_as_an_unprivileged_user),
};
PRC_SUITE_NOSAN(worker, tests)

/*
 * The client's own code under ASan+UBSan: these cases run in build/asan's
 * test binary too, still against the non-sanitized floored worker from
 * build/test (only the worker needs to live without ASan).
 */
static const prc_test client_tests[] = {
        T(test_worker__parses_json_through_a_floored_worker),
        T(test_worker__large_documents_stream_to_the_in_process_tree),
        T(test_worker__reply_cap_reached_mid_stream_is_reply_too_large),
        T(test_worker__verdict_only_parse_is_true_with_the_same_refusals),
        T(test_worker__parser_refusal_is_named_and_keeps_the_worker),
        T(test_worker__jsonc_numbers_are_read_as_parse_json_reads_them),
        T(test_worker__escape_open_file_is_killed),
        T(test_worker__spin_forever_is_a_timeout),
        T(test_worker__garbage_frame_is_invalid_frame),
        T(test_worker__overcap_reply_is_reply_too_large),
        T(test_worker__exit_mid_reply_is_worker_dead),
        T(test_worker__pieces_over_the_reply_cap_are_reply_too_large),
        T(test_worker__bytes_after_a_streamed_document_are_invalid_frame),
        T(test_worker__empty_doc_after_a_whole_document_is_accepted),
        T(test_worker__malformed_document_reply_is_invalid_frame),
        T(test_worker__worker_killed_between_requests_is_worker_dead_not_sigpipe),
        T(test_worker__document_over_the_reply_cap_is_refused_by_the_worker),
        T(test_worker__slim_details_are_the_sboms_and_counted_whole),
        T(test_worker__cache_hit_costs_no_round_trip),
        T(test_worker__cache_evicts_least_recently_used_by_bytes),
        T(test_worker__cache_holds_many_entries),
        T(test_worker__cache_bound_holds_for_many_tiny_entries),
        T(test_worker__forked_child_uses_its_own_worker),
        T(test_worker__floor_refusal_names_the_layer),
        T(test_worker__retires_a_worker_after_max_requests),
        T(test_worker__a_worker_that_kept_memory_retires_before_the_next_request),
        T(test_worker__retire_misuse_is_invalid_frame),
        T(test_worker__a_run_answers_as_one_call_each),
        T(test_worker__a_worker_dead_mid_run_fails_that_file_alone),
        T(test_worker__a_worker_hung_mid_run_times_out_that_file_alone),
        T(test_worker__a_worker_that_kept_memory_mid_run_leaves_the_rest_to_a_fresh_one),
        T(test_worker__runs_keep_to_max_requests_the_cpu_budget_and_the_cache),
        T(test_worker__only_archive_workers_load_libarchive),
};
PRC_SUITE(client, client_tests)
