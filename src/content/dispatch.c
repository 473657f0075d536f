/*
 * dispatch.c - the content worker's operation table (dispatch.h).
 * Trust: every handler runs inside the floored worker on hostile bytes.
 * The test-only operations exist only in PRC_TESTING builds: the release
 * prc binary cannot be asked to misbehave.
 */
#include "content/dispatch.h"

#include <string.h>

#include "base/json_strict.h"
#include "base/yaml.h"
#include "content/extract/extract.h"
#include "content/parsers/archive.h"
#include "content/parsers/ini.h"
#include "content/parsers/jsonc.h"
#include "content/parsers/shell.h"
#include "content/parsers/toml.h"
#include "content/parsers/xml.h"

#if defined(PRC_TESTING) && PRC_TESTING
#include "base/digest.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "content/worker.h"
#endif

/* Parse-op input cap: files above 10 MiB are inventoried but not analyzed (DESIGN.md). */
#define PARSE_INPUT_MAX ((size_t)10 << 20)

static const char *const format_names[] = {
        [PRC_FMT_NONE] = NULL,   [PRC_FMT_JSON] = "json", [PRC_FMT_YAML] = "yaml", [PRC_FMT_TOML] = "toml",
        [PRC_FMT_INI] = "ini",   [PRC_FMT_XML] = "xml",   [PRC_FMT_JSONC] = "jsonc",
};

const char *prc_format_name(uint16_t fmt)
{
        return fmt < PRC_ARRAY_LEN(format_names) ? format_names[fmt] : NULL;
}

uint16_t prc_format_by_name(const char *name)
{
        for (uint16_t i = 1; i < PRC_ARRAY_LEN(format_names); i++)
                if (format_names[i] != NULL && strcmp(format_names[i], name) == 0)
                        return i;
        return PRC_FMT_NONE;
}

static json_t *op_ping(const prc_req *req, prc_err *err)
{
        (void)req;
        json_t *v = json_string("pong");
        if (v == NULL)
                prc_err_oom(err, "ping reply");
        return v;
}

#if defined(PRC_TESTING) && PRC_TESTING
/* {"errno":N} when the attempt was refused, {"escaped":true} when it was not. */
static json_t *outcome(int rc, prc_err *err)
{
        json_t *v = rc < 0 ? json_pack("{s:i}", "errno", errno) : json_pack("{s:b}", "escaped", 1);
        if (v == NULL)
                prc_err_oom(err, "test outcome");
        return v;
}

static long args_num(const prc_req *req)
{
        char tmp[32];
        size_t n = req->args_len < sizeof(tmp) - 1 ? req->args_len : sizeof(tmp) - 1;

        memcpy(tmp, req->args, n);
        tmp[n] = 0;
        return strtol(tmp, NULL, 10);
}

static volatile unsigned long spin_sink;

struct mapped {
        const char *soname;     /* borrowed: a string literal */
        bool        found;
};

/* dl_iterate_phdr callback: the link map walk needs no system call. */
static int has_library(struct dl_phdr_info *info, size_t size, void *ctx)
{
        struct mapped *m = ctx;

        (void)size;
        if (info->dlpi_name != NULL && strstr(info->dlpi_name, m->soname) != NULL)
                m->found = true;
        return 0;
}
static void *volatile leak_sink;       /* PRC_T_LEAK: still referenced, as a library's lost buffer is not */

struct blk {
        struct blk *next;
};

static json_t *op_test(const prc_req *req, prc_err *err)
{
        static const uint8_t garbage[PRC_FRAME_HDR] = "GARBAGEFRAME";
        uint8_t hdr[PRC_FRAME_HDR];
        int fd;

        switch (req->format) {
        case PRC_T_OPEN_FILE:
                return outcome(open("/etc/passwd", O_RDONLY | O_CLOEXEC), err);
        case PRC_T_SOCKET: {
                struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(80) };
                inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
                fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
                if (fd < 0)
                        return outcome(fd, err);
                return outcome(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), err);
        }
        case PRC_T_EXECVE: {
                char *const argv[] = { (char *)"/bin/true", NULL };
                return outcome(execve("/bin/true", argv, argv + 1), err);
        }
        case PRC_T_FORK: {
                pid_t pid = fork();
                if (pid == 0)
                        _exit(0);
                return outcome(pid < 0 ? -1 : 0, err);
        }
        case PRC_T_WRITE_FILE:
                fd = open("/tmp/prc-worker-escape", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
                if (fd < 0)
                        return outcome(fd, err);
                return outcome(write(fd, "x", 1) == 1 ? 0 : -1, err);
        case PRC_T_KILL_PARENT:
                return outcome(kill((pid_t)args_num(req), SIGTERM), err);
        case PRC_T_ABSTRACT_UNIX: {
                struct sockaddr_un sa = { .sun_family = AF_UNIX };
                size_t n = req->args_len < sizeof(sa.sun_path) - 1 ? req->args_len : sizeof(sa.sun_path) - 1;
                memcpy(sa.sun_path + 1, req->args, n);      /* leading NUL: abstract namespace */
                fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
                if (fd < 0)
                        return outcome(fd, err);
                return outcome(connect(fd, (struct sockaddr *)&sa,
                                       (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)), err);
        }
        case PRC_T_SPIN:
                for (;;)
                        spin_sink++;
        case PRC_T_ALLOC: {
                struct blk *head = NULL;
                unsigned long mib = 0;
                for (;;) {
                        struct blk *b = malloc(1u << 20);
                        if (b == NULL)
                                break;
                        memset(b, 0xa5, 1u << 20);      /* touch it: really use the memory */
                        b->next = head;
                        head = b;
                        mib++;
                }
                while (head != NULL) {
                        struct blk *n = head->next;
                        free(head);
                        head = n;
                }
                prc_err_set(err, PRC_E_OUT_OF_MEMORY, "allocation failed after %lu MiB", mib);
                return NULL;
        }
        case PRC_T_GARBAGE:
                if (write(PRC_WORKER_FD_OUT, garbage, sizeof(garbage)) < 0)
                        prc_err_set(err, PRC_E_IO, "write failed");
                break;
        case PRC_T_OVERCAP:
                prc_frame_hdr_encode(hdr, PRC_RE_DOC, UINT32_MAX);
                if (write(PRC_WORKER_FD_OUT, hdr, sizeof(hdr)) < 0)
                        prc_err_set(err, PRC_E_IO, "write failed");
                break;
        case PRC_T_EXIT_MID_REPLY: {
                /* A well-formed start (an array of 5 values, 2 of them sent), then the end of the worker. */
                static const uint8_t part[] = { 0x06, 0, 0, 0, 5, 0x00, 0x00 };
                prc_frame_hdr_encode(hdr, PRC_RE_DOC, 1000);
                if (write(PRC_WORKER_FD_OUT, hdr, sizeof(hdr)) < 0 || write(PRC_WORKER_FD_OUT, part, sizeof(part)) < 0)
                        _exit(2);
                _exit(0);
        }
        case PRC_T_BIG_DOC: {
                size_t n = (size_t)args_num(req);
                char *s = malloc(n ? n : 1);
                json_t *v;
                if (s == NULL) {
                        prc_err_oom(err, "big document");
                        return NULL;
                }
                memset(s, 'a', n);
                v = json_stringn_nocheck(s, n);
                free(s);
                if (v == NULL)
                        prc_err_oom(err, "big document");
                return v;
        }
        case PRC_T_EXEC_MMAP: {
                void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                return outcome(p == MAP_FAILED ? -1 : 0, err);
        }
        case PRC_T_RAISE_RLIMIT: {
                struct rlimit rl = { 64, 64 };
                return outcome(setrlimit(RLIMIT_NOFILE, &rl), err);
        }
        case PRC_T_ABORT:
                abort();
        case PRC_T_BAD_DOC:
                prc_frame_hdr_encode(hdr, PRC_RE_DOC, 6);
                if (write(PRC_WORKER_FD_OUT, hdr, sizeof(hdr)) < 0 || write(PRC_WORKER_FD_OUT, "{\"a\":1", 6) < 0)
                        prc_err_set(err, PRC_E_IO, "write failed");
                break;
        case PRC_T_PIECES_OVER_CAP: {
                /* Each header is within the cap; together they are not (an array of 10 nulls, 5 sent). */
                static const uint8_t part[] = { 0x06, 0, 0, 0, 10, 0, 0, 0, 0, 0 };
                if (!prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, part, sizeof(part), PRC_NO_DEADLINE, err))
                        _exit(2);
                prc_frame_hdr_encode(hdr, PRC_RE_DOC_PART, (uint32_t)args_num(req));
                (void)!write(PRC_WORKER_FD_OUT, hdr, sizeof(hdr));
                _exit(0);
        }
        case PRC_T_BYTES_AFTER_DOC:
        case PRC_T_EMPTY_DOC_AFTER: {
                static const uint8_t null_doc[] = { 0x00 };
                bool extra = req->format == PRC_T_BYTES_AFTER_DOC;
                if (!prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, null_doc, 1, PRC_NO_DEADLINE, err) ||
                    !prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC, null_doc, extra ? 1 : 0, PRC_NO_DEADLINE, err))
                        _exit(2);
                _exit(0);       /* the reply is out; the client does not ask this worker again */
        }
        case PRC_T_RESTART: {
                /* The start of an array of 3 nulls, then the restart the args name, then the null document. */
                static const uint8_t part[] = { 0x06, 0, 0, 0, 3, 0x00 }, null_doc[] = { 0x00 };
                char what[16] = { 0 };
                memcpy(what, req->args, req->args_len < sizeof(what) - 1 ? req->args_len : sizeof(what) - 1);
                bool first = strcmp(what, "first") == 0, twice = strcmp(what, "twice") == 0;
                bool ok = true;
                if (!first)
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, part, sizeof(part), PRC_NO_DEADLINE,
                                             err);
                if (ok && strcmp(what, "after") == 0)   /* a whole document, then a restart */
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, null_doc, 1, PRC_NO_DEADLINE, err) &&
                             prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, null_doc, 1, PRC_NO_DEADLINE, err);
                if (ok)
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RESTART, "x", strcmp(what, "payload") == 0,
                                             PRC_NO_DEADLINE, err);
                if (ok && strcmp(what, "retire") == 0)  /* RETIRE is only ever a reply's first frame */
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RETIRE, NULL, 0, PRC_NO_DEADLINE, err);
                if (ok && twice)
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC_PART, part, sizeof(part), PRC_NO_DEADLINE,
                                             err) &&
                             prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RESTART, NULL, 0, PRC_NO_DEADLINE, err);
                if (ok)
                        ok = prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_DOC, null_doc, 1, PRC_NO_DEADLINE, err);
                _exit(ok ? 0 : 2);      /* the reply is out; the client does not ask this worker again */
        }
        case PRC_T_LEAK: {
                size_t n = (size_t)args_num(req);
                char *p = malloc(n ? n : 1);    /* kept on purpose: what a leaking library does */
                if (p == NULL) {
                        prc_err_oom(err, "leak");
                        return NULL;
                }
                memset(p, 0x5a, n);
                leak_sink = p;
                break;
        }
        case PRC_T_LIBARCHIVE:
        case PRC_T_LIBCRYPTO: {
                struct mapped m = { req->format == PRC_T_LIBARCHIVE ? "libarchive.so" : "libcrypto.so", false };
                (void)dl_iterate_phdr(has_library, &m);
                return json_boolean(m.found);
        }
        case PRC_T_SHA256: {
                char hex[PRC_SHA256_HEX + 1];
                if (!prc_sha256_hex_once(req->args, req->args_len, hex, err))
                        return NULL;
                return json_string(hex);
        }
        case PRC_T_FRAGMENT: {
                enum { N = 30000 };
                void **v = malloc(N * sizeof(*v));
                if (v == NULL) {
                        prc_err_oom(err, "fragment");
                        return NULL;
                }
                for (size_t i = 0; i < N; i++)
                        v[i] = malloc(256);
                for (size_t i = 0; i < N; i += 2)
                        free(v[i]);     /* between two kept blocks: nothing coalesces */
                leak_sink = v;
                break;
        }
        case PRC_T_RETIRE: {
                bool payload = req->args_len == 7 && memcmp(req->args, "payload", 7) == 0;
                if (!prc_frame_write(PRC_WORKER_FD_OUT, PRC_RE_RETIRE, "x", payload, PRC_NO_DEADLINE, err))
                        _exit(2);
                _exit(0);
        }
        case PRC_T_TGKILL_PARENT: {
                pid_t pid = (pid_t)args_num(req);
                return outcome((int)syscall(SYS_tgkill, pid, pid, SIGTERM), err);
        }
        case PRC_T_WRITE_STDERR:
                return outcome(write(2, "worker stderr\n", 14) == 14 ? 0 : -1, err);
        default:
                prc_err_set(err, PRC_E_UNKNOWN_OPERATION, "no test operation %u", req->format);
                return NULL;
        }
        return prc_err_is_set(err) ? NULL : json_null();
}
#endif

/*
 * The table.  A parser with the prc_load_fn signature is one line:
 *   { PRC_OP_PARSE, PRC_FMT_TOML, "parse-toml", prc_toml_load, 0, NULL, PARSE_INPUT_MAX },
 * Target documents may hold floats, so loaders keep them (the binary reply carries reals as their bits).
 */
/*
 * Archive walk.  args (JSON, may be empty): {"wanted": ["member/path", ...]}
 * names the members whose contents the caller wants back; {"every": N}
 * asks for every file's contents as well, up to N bytes in all (issue 21:
 * the listing and the reads of a small snapshot in one walk).
 */
enum { WALK_WANTED_MAX = 64 };

static json_t *op_walk(const prc_req *req, prc_err *err)
{
        static const prc_field fields[] = { { "every", PRC_JT_INT, false }, { "wanted", PRC_JT_ARRAY, false } };
        json_int_t every = 0;
        const char *wanted[WALK_WANTED_MAX] = { NULL };
        size_t nwanted = 0, i;
        json_t *args = NULL, *list, *v, *doc;

        if (req->args_len > 0) {
                args = prc_json_parse(req->args, req->args_len, &prc_limits_operator, 0, err);
                if (args == NULL || !prc_json_fields(args, "", fields, PRC_ARRAY_LEN(fields), err)) {
                        json_decref(args);
                        return NULL;
                }
                list = json_object_get(args, "wanted");
                json_array_foreach(list, i, v) {
                        if (!json_is_string(v) || nwanted == WALK_WANTED_MAX) {
                                json_decref(args);
                                prc_err_set(err, PRC_E_INVALID_VALUE, "'wanted' takes at most %d member paths",
                                            WALK_WANTED_MAX);
                                return NULL;
                        }
                        wanted[nwanted++] = json_string_value(v);
                }
                every = json_integer_value(json_object_get(args, "every"));
                if (every < 0) {
                        json_decref(args);
                        prc_err_set(err, PRC_E_INVALID_VALUE, "'every' takes a byte count");
                        return NULL;
                }
        }
        doc = prc_archive_walk_every(req->input, req->input_len, &prc_archive_opts_default, wanted, nwanted,
                                     (uint64_t)every, err);
        json_decref(args);
        return doc;
}

#if defined(PRC_TESTING) && PRC_TESTING
/*
 * A compromised worker, for the client's details check (test_worker.c): a
 * path under "prc-test-bend/key/" gets a details key no format has, one
 * under "prc-test-bend/tokens/" a first job's first run: script whose first
 * command is on line 0.  Every other path is answered as extracted.
 */
static void bend_details(json_t *md, const char *path)
{
        json_t *d = json_object_get(md, "details");
        json_t *step = json_array_get(json_object_get(json_array_get(json_object_get(d, "jobs"), 0), "steps"), 0);
        json_t *cmd = json_array_get(json_object_get(json_object_get(json_object_get(step, "run"), "tokens"),
                                                     "commands"), 0);

        if (strncmp(path, "prc-test-bend/key/", 18) == 0)
                (void)json_object_set_new(d, "bent", json_true());
        else if (strncmp(path, "prc-test-bend/tokens/", 21) == 0)
                (void)json_object_set_new(cmd, "line", json_integer(0));
}

/*
 * A worker that fails in the middle of a run of requests, for the client's
 * runs (test_worker.c): a path under "prc-test-run/die/" ends the worker,
 * one under "prc-test-run/hang/" never answers, one under
 * "prc-test-run/leak/" keeps 16 MiB and is then extracted as ever (so the
 * worker answers its next request with RETIRE).
 */
static void run_bend(const char *path)
{
        enum { LEAK = 16u << 20 };
        char *p;

        if (strncmp(path, "prc-test-run/die/", 17) == 0)
                _exit(3);
        if (strncmp(path, "prc-test-run/hang/", 18) == 0)
                for (;;)
                        spin_sink++;
        if (strncmp(path, "prc-test-run/leak/", 18) == 0 && (p = malloc(LEAK)) != NULL) {
                memset(p, 0x5a, LEAK);
                leak_sink = p;
        }
}
#endif

/*
 * Manifest extraction (docs/extraction.md).  args (JSON, may be empty):
 * {"format": "npm-package-lock"} names the extractor; without it the
 * request's path picks one by name (prc_extractor_for_path).  The path
 * names the file in the ManifestDoc; it is never opened.
 */
static json_t *op_extract(const prc_req *req, prc_err *err)
{
        static const prc_field fields[] = { { "format", PRC_JT_STRING, false } };
        char path[PRC_FRAME_PATH_MAX + 1];
        const prc_extractor *x;
        const char *format = NULL;
        json_t *args = NULL, *md;
        prc_xin in;

        if (req->path_len > 0)
                memcpy(path, req->path, req->path_len);
        path[req->path_len] = 0;
        if (req->args_len > 0) {
                args = prc_json_parse(req->args, req->args_len, &prc_limits_operator, 0, err);
                if (args == NULL || !prc_json_fields(args, "", fields, PRC_ARRAY_LEN(fields), err)) {
                        json_decref(args);
                        return NULL;
                }
                format = json_string_value(json_object_get(args, "format"));
        }
        x = format != NULL ? prc_extractor_by_format(format) : prc_extractor_for_path(path);
        if (x == NULL) {
                prc_err_set(err, PRC_E_EXTRACT_UNKNOWN_FORMAT, "no extractor for %s%s",
                            format != NULL ? "format " : "the file name ", format != NULL ? format : path);
                json_decref(args);
                return NULL;
        }
        in = (prc_xin){ path, req->input, req->input_len, &req->lim };
#if defined(PRC_TESTING) && PRC_TESTING
        run_bend(path);
#endif
        md = x->fn(&in, err);
        json_decref(args);
#if defined(PRC_TESTING) && PRC_TESTING
        bend_details(md, path);
#endif
        return md;
}

const prc_dispatch_entry prc_dispatch_table[] = {
        { PRC_OP_PING,  0,            "ping",       NULL,          0,                    op_ping, 0 },
        { PRC_OP_PARSE, PRC_FMT_JSON, "parse-json", prc_json_parse, PRC_JSON_ALLOW_FLOAT, NULL,   PARSE_INPUT_MAX },
        /* Floats stay as written ("3.10" is not 3.1), so documents stay canonical-JSON writable (digests). */
        { PRC_OP_PARSE, PRC_FMT_YAML, "parse-yaml", prc_yaml_load,  PRC_YAML_FLOAT_AS_STRING, NULL, PARSE_INPUT_MAX },
        /* Integers past 2^53 stay typed text, so documents stay canonical-JSON writable (digests). */
        { PRC_OP_PARSE, PRC_FMT_TOML, "parse-toml", prc_toml_parse, PRC_TOML_UNSAFE_INT_TYPED, NULL, PARSE_INPUT_MAX },
        { PRC_OP_PARSE, PRC_FMT_INI,  "parse-ini",  prc_ini_parse,  0,                    NULL,   PARSE_INPUT_MAX },
        { PRC_OP_PARSE, PRC_FMT_XML,  "parse-xml",  prc_xml_parse,  0,                    NULL,   PARSE_INPUT_MAX },
        /* Numbers exactly as parse-json reads them (issue 16: `"editor.fontSize": 13.5` was a coverage gap). */
        { PRC_OP_PARSE, PRC_FMT_JSONC, "parse-jsonc", prc_jsonc_parse, PRC_JSON_ALLOW_FLOAT, NULL, PARSE_INPUT_MAX },
        { PRC_OP_TOKENIZE, PRC_TOK_PKGBUILD, "tokenize-pkgbuild", prc_shell_tokenize, PRC_SHELL_PKGBUILD, NULL,
          PARSE_INPUT_MAX },
        { PRC_OP_TOKENIZE, PRC_TOK_SRCINFO, "tokenize-srcinfo", prc_shell_tokenize, PRC_SHELL_SRCINFO, NULL,
          PARSE_INPUT_MAX },
        { PRC_OP_WALK,  0,            "walk-archive", NULL,         0,                    op_walk, PARSE_INPUT_MAX },
        { PRC_OP_EXTRACT, 0,          "extract",    NULL,           0,                    op_extract, PARSE_INPUT_MAX },
#if defined(PRC_TESTING) && PRC_TESTING
        /* One entry per test op code (the format field). */
#define PRC_TEST_ENTRY(code) { PRC_OP_TEST, code, "test-" #code, NULL, 0, op_test, 1u << 16 }
        PRC_TEST_ENTRY(PRC_T_OPEN_FILE),     PRC_TEST_ENTRY(PRC_T_SOCKET),
        PRC_TEST_ENTRY(PRC_T_EXECVE),        PRC_TEST_ENTRY(PRC_T_FORK),
        PRC_TEST_ENTRY(PRC_T_WRITE_FILE),    PRC_TEST_ENTRY(PRC_T_KILL_PARENT),
        PRC_TEST_ENTRY(PRC_T_ABSTRACT_UNIX), PRC_TEST_ENTRY(PRC_T_SPIN),
        PRC_TEST_ENTRY(PRC_T_ALLOC),         PRC_TEST_ENTRY(PRC_T_GARBAGE),
        PRC_TEST_ENTRY(PRC_T_OVERCAP),       PRC_TEST_ENTRY(PRC_T_EXIT_MID_REPLY),
        PRC_TEST_ENTRY(PRC_T_BIG_DOC),       PRC_TEST_ENTRY(PRC_T_EXEC_MMAP),
        PRC_TEST_ENTRY(PRC_T_RAISE_RLIMIT),  PRC_TEST_ENTRY(PRC_T_WRITE_STDERR),
        PRC_TEST_ENTRY(PRC_T_ABORT),         PRC_TEST_ENTRY(PRC_T_TGKILL_PARENT),
        PRC_TEST_ENTRY(PRC_T_BAD_DOC),       PRC_TEST_ENTRY(PRC_T_PIECES_OVER_CAP),
        PRC_TEST_ENTRY(PRC_T_BYTES_AFTER_DOC), PRC_TEST_ENTRY(PRC_T_EMPTY_DOC_AFTER),
        PRC_TEST_ENTRY(PRC_T_RESTART),       PRC_TEST_ENTRY(PRC_T_LEAK),
        PRC_TEST_ENTRY(PRC_T_RETIRE),        PRC_TEST_ENTRY(PRC_T_FRAGMENT),
        PRC_TEST_ENTRY(PRC_T_LIBARCHIVE),    PRC_TEST_ENTRY(PRC_T_LIBCRYPTO),
        PRC_TEST_ENTRY(PRC_T_SHA256),
#undef PRC_TEST_ENTRY
#endif
};
const size_t prc_dispatch_count = PRC_ARRAY_LEN(prc_dispatch_table);

const prc_dispatch_entry *prc_dispatch_find(uint16_t op, uint16_t format)
{
        for (size_t i = 0; i < prc_dispatch_count; i++)
                if (prc_dispatch_table[i].op == op && prc_dispatch_table[i].format == format)
                        return &prc_dispatch_table[i];
        return NULL;
}

json_t *prc_dispatch_run(const prc_req *req, prc_err *err)
{
        const prc_dispatch_entry *e = prc_dispatch_find(req->op, req->format);
        json_t *v;

        if (e == NULL) {
                prc_err_set(err, PRC_E_UNKNOWN_OPERATION, "no operation 0x%04x with format %u", req->op, req->format);
                return NULL;
        }
        if (req->input_len > e->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "%s input of %zu bytes exceeds %zu", e->name,
                            req->input_len, e->input_max);
                return NULL;
        }
        v = e->load != NULL ? e->load(req->input, req->input_len, &req->lim, e->load_flags | req->flags, err)
                            : e->call(req, err);
        if ((v == NULL) != prc_err_is_set(err)) {
                /* A handler must give exactly one outcome; never pass a silent NULL on as a document. */
                json_decref(v);
                prc_err_set(err, PRC_E_INTERNAL, "%s gave no document and no error", e->name);
                return NULL;
        }
        return v;
}
