/*
 * fixture.c - fixture release suite runner (see fixture.h).
 * Trust: operator input; every path is opened component by component from
 * the suite's directory with symlinks refused, so the files hashed are the
 * files decoded.
 */
#include "adapter/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/authority.h"
#include "adapter/grammar.h"
#include "adapter/manifest.h"
#include "adapter/protocol.h"
#include "base/doc.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/path.h"

enum { TRANSCRIPT_MAX = 64u << 20, CASES_MAX = 4096 };

static const char *const categories[] = {
        "completed", "unsupported", "failed", "timeout", "malformed", "resource-limit", "undeclared-output",
        "authority-attack",
};

#define S PRC_JT_STRING
#define I PRC_JT_INT
#define O PRC_JT_OBJECT
#define A PRC_JT_ARRAY
#define B PRC_JT_BOOL
#define N PRC_JT_NULL
static const prc_field suite_f[] = { { "schema", S, true }, { "manifest", O, true }, { "cases", A, true } };
static const prc_field manifest_f[] = { { "path", S, true }, { "sha256", S, true } };
static const prc_field case_f[] = {
        { "id", S, true }, { "category", S, true }, { "description", S, false }, { "transcript", S, true },
        { "sha256", S, true }, { "limits", O, false }, { "execution", O, false }, { "expect", O, true },
};
static const prc_field limits_f[] = { { "line_bytes", I, false }, { "messages", I, false }, { "stdout_bytes", I, false } };
static const prc_field exec_f[] = { { "exit_status", I, true }, { "timed_out", B, true }, { "memory_limit", B, true } };
static const prc_field expect_f[] = {
        { "disposition", S, true }, { "summary_status", S | N, true }, { "error_class", S | N, true },
        { "line", I | N, true }, { "observations", A, true },
};
static const prc_field obs_f[] = { { "id", S, true }, { "kind", S, true }, { "outcome", S, true } };
#undef S
#undef I
#undef O
#undef A
#undef B
#undef N

static bool at(prc_err *err, const char *ptr)
{
        prc_err_set_ptr(err, ptr);
        return false;
}

/*
 * Open rel (a normalized relative path) under dirfd one component at a
 * time, refusing symlinks; read it whole (at most max bytes) into out.
 */
static bool read_under(int dirfd, const char *rel, size_t max, prc_buf *out, prc_err *err)
{
        char comp[PRC_PATH_MAX + 1];
        const char *p = rel;
        int fd = dup(dirfd);
        bool ok = false;

        if (fd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot duplicate the suite directory");
        for (;;) {
                const char *slash = strchr(p, '/');
                size_t n = slash ? (size_t)(slash - p) : strlen(p);
                struct stat st;
                int next;

                snprintf(comp, sizeof(comp), "%.*s", (int)n, p);
                if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s' in the suite", rel);
                        goto out;
                }
                if (S_ISLNK(st.st_mode)) {
                        prc_err_set(err, PRC_E_FIXTURE_SYMLINK, "'%s' is or passes through a symbolic link", rel);
                        goto out;
                }
                /* a FIFO or device would block or lie: only directories on the way, a regular file at the end */
                if (slash ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
                        prc_err_set(err, PRC_E_IO, "'%s' is not a regular file under directories", rel);
                        goto out;
                }
                next = openat(fd, comp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK |
                                                (slash ? O_DIRECTORY : 0));
                if (next < 0) {
                        if (errno == ELOOP)
                                prc_err_set(err, PRC_E_FIXTURE_SYMLINK, "'%s' is or passes through a symbolic link", rel);
                        else
                                prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s' in the suite", rel);
                        goto out;
                }
                close(fd);
                fd = next;
                if (slash == NULL)
                        break;
                p = slash + 1;
        }
        {
                struct stat st;
                if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                        prc_err_set(err, PRC_E_IO, "'%s' is not a regular file", rel);
                        goto out;
                }
        }
        ok = prc_fd_read_all(fd, max, out, err);
out:
        close(fd);
        return ok;
}

/* A suite path: normalized, relative, inside the suite. */
static bool check_rel(const json_t *v, const char *ptr, prc_err *err)
{
        prc_err pe;

        prc_err_init(&pe);
        if (prc_path_check(json_string_value(v), json_string_length(v), &pe))
                return true;
        if (pe.cls == PRC_E_PATH_ABSOLUTE || pe.cls == PRC_E_PATH_DOTDOT)
                prc_err_set(err, PRC_E_FIXTURE_OUTSIDE, "suite paths must stay inside the suite's directory");
        else
                prc_err_set(err, PRC_E_INVALID_PATH, "not a normalized relative path (%s)", prc_err_name(pe.cls));
        return at(err, ptr);
}

static bool check_expect(const json_t *e, const char *ptr, prc_err *err)
{
        char p[160];
        const json_t *v;
        size_t i;
        json_t *o;

        if (!prc_json_fields(e, ptr, expect_f, PRC_ARRAY_LEN(expect_f), err))
                return false;
        v = json_object_get(e, "disposition");
        if (strcmp(json_string_value(v), "accepted") != 0 && strcmp(json_string_value(v), "rejected") != 0) {
                snprintf(p, sizeof(p), "%s/disposition", ptr);
                prc_err_set(err, PRC_E_INVALID_VALUE, "disposition must be accepted or rejected");
                return at(err, p);
        }
        v = json_object_get(e, "error_class");
        if (json_is_string(v) && prc_err_by_name(json_string_value(v)) == PRC_E_OK) {
                snprintf(p, sizeof(p), "%s/error_class", ptr);
                prc_err_set(err, PRC_E_INVALID_VALUE, "'%s' is not an error class (docs/errors.md)",
                            json_string_value(v));
                return at(err, p);
        }
        json_array_foreach(json_object_get(e, "observations"), i, o) {
                snprintf(p, sizeof(p), "%s/observations/%zu", ptr, i);
                if (!prc_json_fields(o, p, obs_f, PRC_ARRAY_LEN(obs_f), err))
                        return false;
        }
        return true;
}

/* Lowered limits from the case, or the manifest's; refuses raises. */
static bool case_limits(const json_t *c, const char *ptr, const prc_manifest *m, prc_proto_limits *out, prc_err *err)
{
        static const char *const names[] = { "line_bytes", "messages", "stdout_bytes" };
        const json_t *l = json_object_get(c, "limits");
        prc_proto_limits ml = prc_proto_limits_of(m);
        uint64_t *slots[] = { &out->line_bytes, &out->messages, &out->stdout_bytes };
        const uint64_t caps[] = { ml.line_bytes, ml.messages, ml.stdout_bytes };
        char p[160];

        *out = ml;
        if (l == NULL)
                return true;
        snprintf(p, sizeof(p), "%s/limits", ptr);
        /* Only the three protocol ceilings exist here; anything else (wall_seconds, kinds) is unknown. */
        if (!prc_json_fields(l, p, limits_f, PRC_ARRAY_LEN(limits_f), err))
                return false;
        for (size_t k = 0; k < 3; k++) {
                const json_t *v = json_object_get(l, names[k]);
                json_int_t n;
                if (v == NULL)
                        continue;
                n = json_integer_value(v);
                snprintf(p, sizeof(p), "%s/limits/%s", ptr, names[k]);
                if (n < 1) {
                        prc_err_set(err, PRC_E_LIMIT_OUT_OF_RANGE, "%s must be at least 1", names[k]);
                        return at(err, p);
                }
                if ((uint64_t)n > caps[k]) {
                        prc_err_set(err, PRC_E_FIXTURE_LIMIT_RAISED, "%s %lld raises the manifest's %llu: a case may "
                                    "only lower a ceiling", names[k], (long long)n, (unsigned long long)caps[k]);
                        return at(err, p);
                }
                *slots[k] = (uint64_t)n;
        }
        return true;
}

static bool case_exec(const json_t *c, const char *ptr, prc_exec_end *out, prc_err *err)
{
        const json_t *x = json_object_get(c, "execution");
        char p[160];
        json_int_t st;

        *out = (prc_exec_end){ 0, false, false };
        if (x == NULL)
                return true;
        snprintf(p, sizeof(p), "%s/execution", ptr);
        if (!prc_json_fields(x, p, exec_f, PRC_ARRAY_LEN(exec_f), err))
                return false;
        st = json_integer_value(json_object_get(x, "exit_status"));
        if (st < 0 || st > 255) {
                snprintf(p, sizeof(p), "%s/execution/exit_status", ptr);
                prc_err_set(err, PRC_E_INVALID_VALUE, "exit_status must be 0..255");
                return at(err, p);
        }
        out->exit_status = (int)st;
        out->timed_out = json_is_true(json_object_get(x, "timed_out"));
        out->memory_limit = json_is_true(json_object_get(x, "memory_limit"));
        return true;
}

/* One evaluation: decode and describe the result in the expectation's shape. */
static json_t *evaluate(const prc_manifest *m, const prc_proto_limits *lim, const prc_buf *t, const prc_exec_end *end,
                        prc_err *err)
{
        prc_decoder *d = prc_decoder_new(m, lim, err);
        const prc_err *e;
        const char *st;
        json_t *r = NULL, *obs;
        size_t i;

        if (d == NULL)
                return NULL;
        prc_decoder_keep_briefs_only(d);        /* the report compares id, kind and outcome */
        (void)prc_decoder_feed(d, t->data ? t->data : (const uint8_t *)"", t->len);
        (void)prc_decoder_finish(d, end);
        e = prc_decoder_error(d);
        st = prc_decoder_summary_status(d);
        obs = json_array();
        for (i = 0; obs != NULL && i < prc_decoder_observation_count(d); i++) {
                const char *id, *kind, *outcome;
                if (!prc_decoder_observation_brief(d, i, &id, &kind, &outcome) ||
                    json_array_append_new(obs, json_pack("{s:s,s:s,s:s}", "id", id, "kind", kind, "outcome",
                                                         outcome)) != 0) {
                        json_decref(obs);
                        obs = NULL;
                }
        }
        if (obs != NULL)
                r = json_pack("{s:s,s:o,s:o,s:o,s:o}", "disposition",
                              prc_disposition_name(prc_decoder_disposition(d)),
                              "summary_status", st ? json_string(st) : json_null(),
                              "error_class", e->cls ? json_string(prc_err_name(e->cls)) : json_null(),
                              "line", e->cls && e->line ? json_integer(e->line) : json_null(),
                              "observations", obs);
        if (r == NULL)
                prc_err_oom(err, "evaluation");
        prc_decoder_free(d);
        return r;
}

static int by_path(const void *a, const void *b)
{
        const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;

        return strcmp(json_string_value(json_object_get(x, "path")), json_string_value(json_object_get(y, "path")));
}

/* Corpus identity: canonical digest of the sorted [{path, sha256, bytes}] of every file the suite names. */
static bool corpus_digest(json_t *files, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        size_t n = json_array_size(files);
        json_t **v = calloc(n ? n : 1, sizeof(*v)), *sorted = json_array();
        bool ok = v != NULL && sorted != NULL;

        for (size_t i = 0; ok && i < n; i++)
                v[i] = json_array_get(files, i);
        if (ok)
                qsort(v, n, sizeof(*v), by_path);
        for (size_t i = 0; ok && i < n; i++)
                ok = json_array_append(sorted, v[i]) == 0;
        ok = ok ? prc_jcs_digest(sorted, out, err) : prc_err_oom(err, "corpus listing");
        free(v);
        json_decref(sorted);
        return ok;
}

static bool add_file(json_t *files, const char *path, const char *sha, size_t bytes, prc_err *err)
{
        size_t i;
        json_t *f;

        json_array_foreach(files, i, f) {
                if (strcmp(json_string_value(json_object_get(f, "path")), path) == 0)
                        return true;
        }
        if (json_array_append_new(files, json_pack("{s:s,s:s,s:I}", "path", path, "sha256", sha,
                                                   "bytes", (json_int_t)bytes)) != 0)
                return prc_err_oom(err, "corpus listing");
        return true;
}

static int open_suite_dir(const char *suite_path, char *base, size_t cap, prc_err *err)
{
        const char *slash = strrchr(suite_path, '/');
        char dir[4096];
        struct stat st;
        int fd;

        if (slash == NULL) {
                snprintf(dir, sizeof(dir), ".");
                snprintf(base, cap, "%s", suite_path);
        } else {
                snprintf(dir, sizeof(dir), "%.*s", (int)(slash - suite_path == 0 ? 1 : slash - suite_path),
                         suite_path);
                snprintf(base, cap, "%s", slash + 1);
        }
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the suite's directory");
                return -1;
        }
        if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                prc_err_set(err, PRC_E_FIXTURE_SYMLINK, "the suite file is a symbolic link");
                close(fd);
                return -1;
        }
        return fd;
}

json_t *prc_fixture_validate(const char *suite_path, prc_err *err)
{
        char base[1024], raw_sha[PRC_SHA256_HEX + 1], canon_sha[PRC_SHA256_HEX + 1], corpus_sha[PRC_SHA256_HEX + 1];
        char ptr[64];
        const char *schema;
        prc_buf sb, mb, tb;
        json_t *suite = NULL, *report = NULL, *files = json_array(), *out_cases = json_array(), *c, *ids = json_object();
        const json_t *mref;
        prc_manifest *m = NULL;
        size_t i, matched = 0, drifted = 0, nondet = 0;
        int dirfd;
        prc_doc_format fmt;

        prc_buf_init(&sb, prc_limits_operator.input_max);
        prc_buf_init(&mb, prc_limits_operator.input_max);
        prc_buf_init(&tb, TRANSCRIPT_MAX);
        if (files == NULL || out_cases == NULL || ids == NULL) {
                prc_err_oom(err, "fixture report");
                goto fail_nodir;
        }
        dirfd = open_suite_dir(suite_path, base, sizeof(base), err);
        if (dirfd < 0)
                goto fail_nodir;
        if (!read_under(dirfd, base, prc_limits_operator.input_max, &sb, err) ||
            !prc_sha256_hex_once(sb.data ? sb.data : (const uint8_t *)"", sb.len, raw_sha, err))
                goto fail;
        fmt = strlen(base) > 5 && strcmp(base + strlen(base) - 5, ".json") == 0 ? PRC_DOC_JSON : PRC_DOC_YAML;
        suite = prc_doc_parse(sb.data ? sb.data : (const uint8_t *)"", sb.len, fmt, &prc_limits_operator, err);
        if (suite == NULL || !prc_jcs_digest(suite, canon_sha, err))
                goto fail;
        if (!json_is_object(suite)) {
                prc_err_set(err, PRC_E_NOT_AN_OBJECT, "a fixture suite is a mapping");
                goto fail;
        }
        schema = json_string_value(json_object_get(suite, "schema"));
        if (schema != NULL && strcmp(schema, PRC_FIXTURE_SUITE_SCHEMA) != 0) {
                prc_err_set(err, PRC_E_UNKNOWN_SCHEMA_VERSION, "unknown suite schema (expected %s)",
                            PRC_FIXTURE_SUITE_SCHEMA);
                at(err, "/schema");
                goto fail;
        }
        /* A case cannot grant itself trust or evaluator authority either. */
        if (!prc_authority_scan(suite, PRC_AUTH_EVALUATOR | PRC_AUTH_TRUST, false, err) ||
            !prc_json_fields(suite, "", suite_f, PRC_ARRAY_LEN(suite_f), err))
                goto fail;
        mref = json_object_get(suite, "manifest");
        if (!prc_json_fields(mref, "/manifest", manifest_f, PRC_ARRAY_LEN(manifest_f), err) ||
            !check_rel(json_object_get(mref, "path"), "/manifest/path", err))
                goto fail;
        if (!prc_digest_valid(json_string_value(json_object_get(mref, "sha256")))) {
                prc_err_set(err, PRC_E_INVALID_DIGEST, "the manifest sha256 must be 64 lowercase hex characters");
                at(err, "/manifest/sha256");
                goto fail;
        }
        if (!read_under(dirfd, json_string_value(json_object_get(mref, "path")), prc_limits_operator.input_max, &mb, err))
                goto fail;
        m = prc_manifest_parse(mb.data ? mb.data : (const uint8_t *)"", mb.len, PRC_MANIFEST_EXECUTE, err);
        if (m == NULL) {
                prc_err_set_file(err, json_string_value(json_object_get(mref, "path")));
                goto fail;
        }
        if (strcmp(prc_manifest_sha256(m), json_string_value(json_object_get(mref, "sha256"))) != 0) {
                prc_err_set(err, PRC_E_FIXTURE_DIGEST_MISMATCH, "the manifest's canonical digest is %s, the suite "
                            "binds another", prc_manifest_sha256(m));
                at(err, "/manifest/sha256");
                goto fail;
        }
        {
                char msha[PRC_SHA256_HEX + 1];
                if (!prc_sha256_hex_once(mb.data ? mb.data : (const uint8_t *)"", mb.len, msha, err) ||
                    !add_file(files, json_string_value(json_object_get(mref, "path")), msha, mb.len, err))
                        goto fail;
        }
        if (json_array_size(json_object_get(suite, "cases")) == 0 ||
            json_array_size(json_object_get(suite, "cases")) > CASES_MAX) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "a suite has 1 to %d cases", CASES_MAX);
                at(err, "/cases");
                goto fail;
        }
        json_array_foreach(json_object_get(suite, "cases"), i, c) {
                const char *id, *cat, *tpath, *tsha;
                char sha[PRC_SHA256_HEX + 1], p2[96];
                prc_proto_limits lim;
                prc_exec_end end;
                json_t *ev[2], *exp, *row;
                bool same, match;
                size_t k;

                snprintf(ptr, sizeof(ptr), "/cases/%zu", i);
                if (!prc_json_fields(c, ptr, case_f, PRC_ARRAY_LEN(case_f), err))
                        goto fail;
                id = json_string_value(json_object_get(c, "id"));
                snprintf(p2, sizeof(p2), "%s/id", ptr);
                if (!prc_gram_id(id, strlen(id))) {
                        prc_err_set(err, PRC_E_INVALID_ID, "a case id must match [a-z0-9][a-z0-9._:-]{0,127}");
                        at(err, p2);
                        goto fail;
                }
                if (json_object_get(ids, id) != NULL) {
                        prc_err_set(err, PRC_E_DUPLICATE_ID, "case id '%s' is used twice", id);
                        at(err, p2);
                        goto fail;
                }
                if (json_object_set_new(ids, id, json_null()) != 0) {
                        prc_err_oom(err, "case ids");
                        goto fail;
                }
                cat = json_string_value(json_object_get(c, "category"));
                for (k = 0; k < PRC_ARRAY_LEN(categories); k++)
                        if (strcmp(cat, categories[k]) == 0)
                                break;
                if (k == PRC_ARRAY_LEN(categories)) {
                        snprintf(p2, sizeof(p2), "%s/category", ptr);
                        prc_err_set(err, PRC_E_INVALID_VALUE, "unknown case category");
                        at(err, p2);
                        goto fail;
                }
                snprintf(p2, sizeof(p2), "%s/transcript", ptr);
                if (!check_rel(json_object_get(c, "transcript"), p2, err))
                        goto fail;
                tpath = json_string_value(json_object_get(c, "transcript"));
                tsha = json_string_value(json_object_get(c, "sha256"));
                snprintf(p2, sizeof(p2), "%s/expect", ptr);
                if (!case_limits(c, ptr, m, &lim, err) || !case_exec(c, ptr, &end, err) ||
                    !check_expect(json_object_get(c, "expect"), p2, err))
                        goto fail;
                prc_buf_reset(&tb);
                if (!read_under(dirfd, tpath, TRANSCRIPT_MAX, &tb, err)) {
                        prc_err_set_file(err, tpath);
                        goto fail;
                }
                if (!prc_sha256_hex_once(tb.data ? tb.data : (const uint8_t *)"", tb.len, sha, err))
                        goto fail;
                if (strcmp(sha, tsha) != 0) {
                        prc_err_set(err, PRC_E_FIXTURE_DIGEST_MISMATCH, "transcript '%s' has SHA-256 %s, the case "
                                    "binds another", tpath, sha);
                        snprintf(p2, sizeof(p2), "%s/sha256", ptr);
                        at(err, p2);
                        goto fail;
                }
                if (!add_file(files, tpath, sha, tb.len, err))
                        goto fail;
                /* Twice, from scratch: a decoder that kept state between runs would show here. */
                ev[0] = evaluate(m, &lim, &tb, &end, err);
                ev[1] = ev[0] ? evaluate(m, &lim, &tb, &end, err) : NULL;
                if (ev[1] == NULL) {
                        json_decref(ev[0]);
                        goto fail;
                }
                exp = json_object_get(c, "expect");
                same = json_equal(ev[0], ev[1]);
                match = json_equal(ev[0], exp) && json_equal(ev[1], exp);
                matched += match && same;
                drifted += !match;
                nondet += !same;
                row = json_pack("{s:s,s:s,s:s,s:s,s:O,s:[o,o],s:b,s:b}", "id", id, "category", cat, "transcript", tpath,
                                "transcript_sha256", sha, "expected", exp, "evaluations", ev[0], ev[1],
                                "deterministic", same, "matches", match);
                if (row == NULL || json_array_append_new(out_cases, row) != 0) {
                        prc_err_oom(err, "fixture report");
                        goto fail;
                }
        }
        if (!corpus_digest(files, corpus_sha, err))
                goto fail;
        {
                size_t nfiles = json_array_size(files);
                json_int_t bytes = 0;
                json_t *f;
                json_array_foreach(files, i, f)
                        bytes += json_integer_value(json_object_get(f, "bytes"));
                report = json_pack("{s:s,s:s,s:{s:s,s:s,s:I},s:{s:s,s:s,s:s},s:{s:s,s:I,s:I},s:O,"
                                   "s:{s:I,s:I,s:I,s:I},s:b}",
                                   "schema", PRC_FIXTURE_REPORT_SCHEMA, "scope", "protocol-compatibility",
                                   "suite", "sha256", raw_sha, "canonical_sha256", canon_sha, "cases",
                                   (json_int_t)json_array_size(out_cases),
                                   "manifest", "path", json_string_value(json_object_get(mref, "path")),
                                   "adapter_id", prc_manifest_adapter_id(m), "sha256", prc_manifest_sha256(m),
                                   "corpus", "sha256", corpus_sha, "files", (json_int_t)nfiles, "bytes", bytes,
                                   "cases", out_cases,
                                   "totals", "cases", (json_int_t)json_array_size(out_cases), "matched",
                                   (json_int_t)matched, "drifted", (json_int_t)drifted, "nondeterministic",
                                   (json_int_t)nondet, "ok", drifted == 0 && nondet == 0);
                if (report == NULL)
                        prc_err_oom(err, "fixture report");
        }
fail:
        close(dirfd);
fail_nodir:
        if (report == NULL)
                prc_err_set_file(err, suite_path);
        prc_buf_clear(&sb);
        prc_buf_clear(&mb);
        prc_buf_clear(&tb);
        prc_manifest_free(m);
        json_decref(suite);
        json_decref(files);
        json_decref(out_cases);
        json_decref(ids);
        return report;
}
