/*
 * cmd_batch.c - `prc batch` and `prc batch merge` (issue 21): many targets,
 * resumable, in N scanning processes, shardable across machines.
 *
 * Processes: the parent parses the list, loads the catalog once and forks
 * --jobs scanning processes ("jobs").  Each job owns one content-worker
 * client for its whole life, so the sandboxed worker is reused from target
 * to target and replaced only under the client's own retirement rules
 * (max_requests, CPU time, a refusal that ends it).  The parent hands out
 * one target at a time over a pipe and collects one index entry per target;
 * a job that dies is replaced, and its target is reported, not lost.
 * Trust: the targets are hostile (read only as scan reads them: the
 * inventory walk, the content worker); the list and the state dir are the
 * operator's.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"
#include "base/jcs.h"
#include "content/archive_target.h"
#include "engine/batch.h"
#include "engine/catalog.h"
#include "engine/scan.h"
#include "net/aur.h"

#define JOBS_MAX 256
/* An index entry: a few ids and counts; the cap only guards the parent against a confused job. */
#define ENTRY_MAX ((uint32_t)1 << 20)
#define PROGRESS_EVERY_S 5
#define STOP_JOB UINT32_MAX
#define BATCH_CACHE_MAX ((size_t)4 << 20)

enum { FLAG_SCANNED = 1, FLAG_REPAIRED = 2 };

struct batch {
        prc_batch_list list;
        char          *list_dir;        /* owned: relative target paths resolve against it */
        prc_catalog   *cat;             /* owned; loaded once, shared by every job (copy-on-write) */
        const char    *profile;         /* borrowed from argv */
        json_t        *options;         /* owned: the options that change a result (resumption key) */
        int            root;            /* the state dir, locked */
        prc_aur_opts   aur;
        bool           sharded;
        uint32_t       shard_i, shard_n;
};

/* ---- one target, in a job ---- */

struct job_ctx {
        struct cli_parse_ctx pc;        /* the job's client, created on its first scan */
        prc_client_opts      copts;
};

struct open_ctx {
        prc_client         *client;     /* borrowed */
        const prc_buf      *bytes;      /* an archive's bytes, or NULL for a directory */
        prc_inventory      *inv;        /* a directory's inventory, handed to the scan */
        prc_archive_target *t;          /* owned: outlives the scan's inventory */
};

static bool open_prepared(void *ctx, prc_inventory **out_inv, json_t **out_source, prc_err *err)
{
        struct open_ctx *oc = ctx;

        if (oc->bytes == NULL) {
                *out_inv = oc->inv;     /* transfers */
                oc->inv = NULL;
                return true;
        }
        return prc_archive_target_open(oc->client, oc->bytes->data != NULL ? oc->bytes->data : (const uint8_t *)"",
                                       oc->bytes->len, &oc->t, err) &&
               prc_archive_target_scan_input(oc->t, out_inv, out_source, err);
}

static json_t *error_entry(const prc_batch_line *ln, const prc_err *e)
{
        return json_pack("{s:i,s:s,s:{s:s,s:s}}", "line", (int)ln->line, "target", ln->text, "error", "class",
                         prc_err_name(e->cls), "message", e->msg);
}

/* What, besides its file digests, changes a directory's result: the names the inventory left out. */
static json_t *directory_target(const prc_inventory *inv)
{
        const prc_inv_skipped *sk = prc_inventory_skipped(inv);
        json_t *ex = json_array(), *un = json_array();

        for (size_t i = 0; ex != NULL && i < prc_inventory_excluded_count(inv); i++)
                json_array_append_new(ex, json_string(prc_inventory_excluded(inv, i)));
        for (size_t i = 0; un != NULL && i < prc_inventory_unrep_count(inv); i++) {
                const prc_inv_unrep *u = prc_inventory_unrep(inv, i);
                json_array_append_new(un, json_pack("{s:s,s:s,s:s}", "path", u->raw, "reason", u->reason, "kind",
                                                    u->kind));
        }
        return json_pack("{s:s,s:s,s:o,s:o,s:[I,I,I,I]}", "kind", "directory", "digest", prc_inventory_digest(inv),
                         "excluded", ex, "unrepresentable", un, "skipped", (json_int_t)sk->socket,
                         (json_int_t)sk->fifo, (json_int_t)sk->char_device, (json_int_t)sk->block_device);
}

static char *target_path(const struct batch *b, const char *text)
{
        size_t n = strlen(b->list_dir) + strlen(text) + 2;
        char *p = malloc(n);

        if (p != NULL)
                snprintf(p, n, "%s/%s", text[0] == '/' ? "" : b->list_dir, text);
        if (p != NULL && text[0] == '/')
                memmove(p, p + 1, n - 1);
        return p;
}

/*
 * Read the target and say what it is: its bytes (archive, aur) or its
 * inventory (directory), and the "target" part of the resumption key.
 * Messages name the target by its line, never by a resolved host path.
 */
static bool prepare(const struct batch *b, const prc_batch_line *ln, prc_buf *bytes, prc_inventory **out_inv,
                    json_t **out_target, json_t **out_aur, prc_err *err)
{
        char sha[PRC_SHA256_HEX + 1];
        struct stat st;
        char *path;
        bool ok = false;

        if (ln->aur) {
                char url[PRC_AUR_URL_MAX];
                prc_https_result hr;
                if (!prc_aur_fetch(ln->text + 4, &b->aur, bytes, url, &hr, err) ||
                    !prc_sha256_hex_once(bytes->data != NULL ? bytes->data : (const uint8_t *)"", bytes->len, sha,
                                         err))
                        return false;
                /* The package and the URL are recorded in the result, so they are inputs. */
                *out_aur = json_pack("{s:s,s:s}", "package", ln->text + 4, "url", url);
                *out_target = json_pack("{s:s,s:s,s:s,s:s}", "kind", "aur", "digest", sha, "package", ln->text + 4,
                                        "url", url);
                return (*out_aur != NULL && *out_target != NULL) || prc_err_oom(err, "the target record");
        }
        path = target_path(b, ln->text);
        if (path == NULL)
                return prc_err_oom(err, "a target path");
        if (stat(path, &st) != 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the target: %s", strerror(errno));
                goto out;
        }
        if (S_ISDIR(st.st_mode)) {
                prc_inventory_opts io = { .threads = 1 };       /* the jobs are the parallelism */
                if (!prc_inventory_build(path, &io, out_inv, err))
                        goto out;
                *out_target = directory_target(*out_inv);
        } else if (S_ISREG(st.st_mode)) {
                prc_err re;
                prc_err_init(&re);
                if (!prc_file_read(path, PRC_ARCHIVE_TARGET_MAX, 0, bytes, &re)) {
                        /* the same class, without the host path */
                        prc_err_sys(err, re.cls, re.sys, "cannot read the target archive: %s",
                                    re.cls == PRC_E_IO && re.sys != 0 ? strerror(re.sys) : re.msg);
                        goto out;
                }
                if (!prc_sha256_hex_once(bytes->data != NULL ? bytes->data : (const uint8_t *)"", bytes->len, sha,
                                         err))
                        goto out;
                *out_target = json_pack("{s:s,s:s}", "kind", "archive", "digest", sha);
        } else {
                prc_err_set(err, PRC_E_BATCH_TARGET_KIND, "the target is neither a directory nor a regular file");
                goto out;
        }
        ok = *out_target != NULL || prc_err_oom(err, "the target record");
out:
        free(path);
        return ok;
}

/* The scan itself, as prc scan --target would make it, with the batch's catalog and the job's client. */
static bool scan_target(const struct batch *b, struct job_ctx *jc, const prc_buf *bytes, prc_inventory **inv,
                        const json_t *aur, json_t **out_res, prc_buf *canonical, prc_err *err)
{
        struct open_ctx oc = { 0 };
        prc_scan_opts so = { 0 };
        int rc = 0;
        bool ok;

        if (jc->pc.client == NULL) {
                jc->pc.client = prc_client_new(&jc->copts, err);
                if (jc->pc.client == NULL)
                        return false;
        }
        oc.client = jc->pc.client;
        oc.bytes = *inv != NULL ? NULL : bytes;
        oc.inv = *inv;
        *inv = NULL;
        so.target = "batch";    /* a label only: the inventory comes from open_prepared */
        so.catalog = b->cat;
        so.profile = b->profile;
        so.mode = PRC_MODE_INSPECT;
        so.parse = cli_scan_parse;
        so.extract = cli_scan_extract;
        so.parse_extract = cli_scan_parse_extract;
        so.parse_ctx = &jc->pc;
        so.content_floor = cli_scan_floor;
        so.open_target = open_prepared;
        so.target_ctx = &oc;
        so.aur = aur;
        so.canonical_out = canonical;
        ok = prc_scan_run(&so, out_res, &rc, err);
        prc_inventory_free(oc.inv);
        prc_archive_target_free(oc.t);
        return ok;
}

/* One target: its index entry (new reference), or NULL when a signal cut it short (nothing written). */
static json_t *run_target(const struct batch *b, struct job_ctx *jc, const prc_batch_line *ln, uint8_t *flags)
{
        prc_buf bytes, canonical;
        prc_inventory *inv = NULL;
        json_t *target = NULL, *aur = NULL, *inputs = NULL, *found = NULL, *res = NULL, *entry = NULL;
        char key[PRC_SHA256_HEX + 1];
        bool repair = false;
        prc_err err;

        *flags = 0;
        prc_err_init(&err);
        prc_buf_init(&bytes, ln->aur ? PRC_AUR_SNAPSHOT_MAX : PRC_ARCHIVE_TARGET_MAX);
        prc_buf_init(&canonical, (size_t)256 << 20);
        if (!prepare(b, ln, &bytes, &inv, &target, &aur, &err))
                goto fail;
        inputs = prc_batch_inputs(prc_catalog_sha256(b->cat), b->profile, PRC_VERSION, b->options, target);
        target = NULL;
        if (inputs == NULL) {
                prc_err_oom(&err, "the resumption key");
                goto fail;
        }
        if (!prc_jcs_digest(inputs, key, &err) || !prc_batch_lookup(b->root, key, &found, &repair, &err))
                goto fail;
        if (found == NULL) {
                if (!scan_target(b, jc, &bytes, &inv, aur, &res, &canonical, &err))
                        goto fail;
                /* A scan a signal may have disturbed (its worker killed) is not a result: write nothing. */
                if (cli_interrupted)
                        goto out;
                if (!prc_batch_store(b->root, key, res, &canonical, &found, &err))
                        goto fail;
                *flags |= FLAG_SCANNED | (repair ? FLAG_REPAIRED : 0);
        }
        if (json_object_set_new(found, "line", json_integer(ln->line)) != 0 ||
            json_object_set_new(found, "target", json_string(ln->text)) != 0) {
                prc_err_oom(&err, "an index entry");
                goto fail;
        }
        entry = found;
        found = NULL;
        goto out;
fail:
        entry = error_entry(ln, &err);
out:
        json_decref(found);
        json_decref(res);
        json_decref(inputs);
        json_decref(target);
        json_decref(aur);
        prc_inventory_free(inv);
        prc_buf_clear(&bytes);
        prc_buf_clear(&canonical);
        return entry;
}

/* ---- jobs ---- */

struct job {
        pid_t  pid;
        int    to, from;        /* the parent's ends of the two pipes; -1 when closed */
        size_t cur;             /* index into todo of the target in flight, or SIZE_MAX */
};

static bool read_full(int fd, void *p, size_t n)
{
        size_t got = 0;

        while (got < n) {
                ssize_t r = read(fd, (char *)p + got, n - got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        return false;
                got += (size_t)r;
        }
        return true;
}

static bool write_full(int fd, const void *p, size_t n)
{
        size_t put = 0;

        while (put < n) {
                ssize_t w = write(fd, (const char *)p + put, n - put);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0)
                        return false;
                put += (size_t)w;
        }
        return true;
}

/* The job's loop: a u32 line index in, a u32 length, a flags byte and the canonical entry out. */
static PRC_NORETURN void job_main(const struct batch *b, int in, int out)
{
        struct job_ctx jc = { 0 };
        prc_buf buf;
        uint32_t idx;
        prc_err err;

        cli_client_opts(&jc.copts);
        /* Hits across targets are rare (every snapshot differs): a small cache keeps a long batch's memory flat. */
        jc.copts.cache_max = BATCH_CACHE_MAX;
        prc_buf_init(&buf, ENTRY_MAX);
        while (!cli_interrupted && read_full(in, &idx, sizeof(idx)) && idx != STOP_JOB && idx < b->list.n) {
                uint8_t flags = 0;
                json_t *e = run_target(b, &jc, &b->list.v[idx], &flags);
                uint32_t len;

                if (e == NULL)
                        break;          /* interrupted: the parent hears EOF */
                prc_err_init(&err);
                prc_buf_reset(&buf);
                if (!prc_jcs_write(e, &buf, &err)) {
                        json_decref(e);
                        break;
                }
                json_decref(e);
                len = (uint32_t)buf.len;
                if (!write_full(out, &len, sizeof(len)) || !write_full(out, &flags, 1) ||
                    !write_full(out, buf.data, buf.len))
                        break;
        }
        prc_buf_clear(&buf);
        prc_client_free(jc.pc.client);
        _exit(0);
}

static bool job_start(const struct batch *b, struct job *jobs, size_t njobs, size_t k)
{
        int down[2], up[2];
        pid_t pid;

        if (pipe2(down, O_CLOEXEC) != 0)
                return false;
        if (pipe2(up, O_CLOEXEC) != 0) {
                close(down[0]);
                close(down[1]);
                return false;
        }
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
                close(down[0]);
                close(down[1]);
                close(up[0]);
                close(up[1]);
                return false;
        }
        if (pid == 0) {
                /* Only this job's ends stay open, so the parent sees EOF when any one job ends. */
                for (size_t i = 0; i < njobs; i++) {
                        if (jobs[i].to >= 0)
                                close(jobs[i].to);
                        if (jobs[i].from >= 0)
                                close(jobs[i].from);
                }
                close(down[1]);
                close(up[0]);
                job_main(b, down[0], up[1]);
        }
        close(down[0]);
        close(up[1]);
        jobs[k] = (struct job){ .pid = pid, .to = down[1], .from = up[0], .cur = SIZE_MAX };
        return true;
}

static void job_close(struct job *j, int *out_status)
{
        int st = 0;

        if (j->to >= 0)
                close(j->to);
        if (j->from >= 0)
                close(j->from);
        j->to = j->from = -1;
        while (j->pid > 0 && waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
                ;
        j->pid = 0;
        if (out_status != NULL)
                *out_status = st;
}

/* ---- progress and the summary ---- */

struct run {
        const struct batch *b;
        size_t  *todo;          /* owned: indexes into b->list.v of this shard's lines */
        size_t   ntodo, next, done;
        json_t **entries;       /* owned: one per todo, NULL until answered */
        size_t   scanned, reused, repaired;
        struct timespec t0, last;
        bool     tty;
};

static double since(const struct timespec *a, const struct timespec *b)
{
        return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress(struct run *r, bool force)
{
        struct timespec now;
        double el, rate;

        clock_gettime(CLOCK_MONOTONIC, &now);
        if (!force && !r->tty && since(&r->last, &now) < PROGRESS_EVERY_S)
                return;
        if (!force && r->tty && since(&r->last, &now) < 0.2)
                return;
        r->last = now;
        el = since(&r->t0, &now);
        rate = el > 0 ? (double)r->done / el : 0;
        if (r->tty)
                fprintf(stderr, "\r\033[Kprc batch: %zu/%zu done, %.0f/s, %.0f s left", r->done, r->ntodo, rate,
                        rate > 0 ? (double)(r->ntodo - r->done) / rate : 0.0);
        else
                fprintf(stderr, "prc batch: %zu/%zu done, %.0f/s, %.0f s left\n", r->done, r->ntodo, rate,
                        rate > 0 ? (double)(r->ntodo - r->done) / rate : 0.0);
}

static void report_error(const struct run *r, const char *list, const json_t *e)
{
        const json_t *er = json_object_get(e, "error");

        /* on a terminal, over the live progress line, not after it */
        fprintf(stderr, "%sprc batch: %s:%lld: %s: %s: %s\n", r->tty ? "\r\033[K" : "", list,
                (long long)json_integer_value(json_object_get(e, "line")),
                json_string_value(json_object_get(er, "class")), json_string_value(json_object_get(e, "target")),
                json_string_value(json_object_get(er, "message")));
}

struct count {
        const char *id;
        size_t      n;
};

static int count_cmp(const void *a, const void *b)
{
        const struct count *x = a, *y = b;

        if (x->n != y->n)
                return x->n < y->n ? 1 : -1;
        return strcmp(x->id, y->id);
}

/* The end: targets, states, errors and the worst finding, from the index alone. */
static void summary(const struct run *r, const json_t *index, const char *dir)
{
        const json_t *sum = json_object_get(index, "summary"), *st = json_object_get(sum, "states"), *e, *id;
        const char *worst = json_string_value(json_object_get(sum, "worst"));
        struct count *c = NULL;
        size_t nc = 0, worst_targets = 0, i, k;
        struct timespec now;
        double el;

        clock_gettime(CLOCK_MONOTONIC, &now);
        el = since(&r->t0, &now);
        fprintf(stderr, "prc batch: %lld targets: %lld results (%zu scanned, %zu reused), %lld errors (%lld malformed "
                "lines) in %.1f s, %.0f targets/s\n", (long long)json_integer_value(json_object_get(sum, "targets")),
                (long long)json_integer_value(json_object_get(sum, "results")), r->scanned, r->reused,
                (long long)json_integer_value(json_object_get(sum, "errors")),
                (long long)json_integer_value(json_object_get(sum, "malformed")), el,
                el > 0 ? (double)r->done / el : 0.0);
        if (r->repaired > 0)
                fprintf(stderr, "prc batch: %zu stored records did not verify and were scanned again\n", r->repaired);
        fprintf(stderr, "prc batch: assertions: %lld pass, %lld fail, %lld unknown, %lld conflicting, %lld blocked\n",
                (long long)json_integer_value(json_object_get(st, "pass")),
                (long long)json_integer_value(json_object_get(st, "fail")),
                (long long)json_integer_value(json_object_get(st, "unknown")),
                (long long)json_integer_value(json_object_get(st, "conflicting")),
                (long long)json_integer_value(json_object_get(st, "blocked")));
        json_array_foreach(json_object_get(index, "targets"), i, e) {
                const json_t *f = json_object_get(e, "failing");
                worst_targets += json_array_size(f) > 0;
                json_array_foreach(f, k, id) {
                        size_t m;
                        for (m = 0; m < nc && strcmp(c[m].id, json_string_value(id)) != 0; m++)
                                ;
                        if (m == nc) {
                                struct count *nv = realloc(c, (nc + 1) * sizeof(*c));
                                if (nv == NULL)
                                        break;
                                c = nv;
                                c[nc++] = (struct count){ json_string_value(id), 0 };
                        }
                        c[m].n++;
                }
        }
        if (worst != NULL && strcmp(worst, "Fail") == 0) {
                qsort(c, nc, sizeof(*c), count_cmp);
                fprintf(stderr, "prc batch: worst: Fail, in %zu targets; most failed:", worst_targets);
                for (size_t m = 0; m < nc && m < 5; m++)
                        fprintf(stderr, " %s (%zu)", c[m].id, c[m].n);
                fputc('\n', stderr);
        } else {
                fprintf(stderr, "prc batch: worst: %s\n", worst != NULL ? worst : "no result");
        }
        fprintf(stderr, "prc batch: index %s/index.json\n", dir);
        free(c);
}

/* ---- the batch ---- */

static void take_entry(struct run *r, size_t t, json_t *e, uint8_t flags, const char *list)
{
        r->entries[t] = e;
        r->done++;
        if (json_object_get(e, "error") != NULL)
                report_error(r, list, e);
        else if (flags & FLAG_SCANNED)
                r->scanned++;
        else
                r->reused++;
        r->repaired += (flags & FLAG_REPAIRED) != 0;
}

/* Answer from job j: true when an entry came, false when the job is gone (EOF, a short or bad reply). */
static bool job_reply(struct run *r, struct job *j, const char *list)
{
        uint32_t len;
        uint8_t flags;
        char *p;
        json_t *e;

        if (!read_full(j->from, &len, sizeof(len)) || len == 0 || len > ENTRY_MAX || !read_full(j->from, &flags, 1))
                return false;
        p = malloc(len);
        if (p == NULL || !read_full(j->from, p, len)) {
                free(p);
                return false;
        }
        e = json_loadb(p, len, 0, NULL);
        free(p);
        if (e == NULL || j->cur == SIZE_MAX) {
                json_decref(e);
                return false;
        }
        take_entry(r, j->cur, e, flags, list);
        j->cur = SIZE_MAX;
        return true;
}

/* A job that ended with a target in flight: that target is reported, never dropped. */
static void job_lost(struct run *r, struct job *j, const char *list)
{
        const prc_batch_line *ln;
        int st = 0;
        prc_err e;

        job_close(j, &st);
        if (j->cur == SIZE_MAX || cli_interrupted)
                return;
        ln = &r->b->list.v[r->todo[j->cur]];
        prc_err_init(&e);
        if (WIFSIGNALED(st))
                prc_err_set(&e, PRC_E_BATCH_JOB_DIED, "the scanning process was killed by signal %d while scanning "
                            "this target", WTERMSIG(st));
        else
                prc_err_set(&e, PRC_E_BATCH_JOB_DIED, "the scanning process ended (status %d) while scanning this "
                            "target", WEXITSTATUS(st));
        take_entry(r, j->cur, error_entry(ln, &e), 0, list);
        j->cur = SIZE_MAX;
}

/* Give job j its next target, skipping malformed lines (answered here). */
static bool job_feed(struct run *r, struct job *j, const char *list)
{
        while (r->next < r->ntodo) {
                size_t t = r->next++;
                const prc_batch_line *ln = &r->b->list.v[r->todo[t]];
                uint32_t idx = (uint32_t)r->todo[t];

                if (prc_err_is_set(&ln->err)) {
                        take_entry(r, t, error_entry(ln, &ln->err), 0, list);
                        continue;
                }
                j->cur = t;
                return write_full(j->to, &idx, sizeof(idx));
        }
        return false;
}

static void run_jobs(struct run *r, unsigned njobs, const char *list)
{
        struct job jobs[JOBS_MAX];
        struct pollfd pf[JOBS_MAX];
        size_t live = 0;

        for (unsigned k = 0; k < njobs; k++)
                jobs[k] = (struct job){ .pid = 0, .to = -1, .from = -1, .cur = SIZE_MAX };
        for (unsigned k = 0; k < njobs && r->next < r->ntodo; k++) {
                if (!job_start(r->b, jobs, njobs, k))
                        break;
                live++;
                if (!job_feed(r, &jobs[k], list)) {
                        job_close(&jobs[k], NULL);
                        live--;
                }
        }
        while (live > 0) {
                int n;
                for (unsigned k = 0; k < njobs; k++)
                        pf[k] = (struct pollfd){ .fd = jobs[k].from, .events = POLLIN };
                n = poll(pf, njobs, 1000);
                if (n < 0 && errno != EINTR)
                        break;
                if (cli_interrupted) {
                        /* Stop handing out work; each job ends after (or abandons) its target. */
                        for (unsigned k = 0; k < njobs; k++)
                                if (jobs[k].pid > 0) {
                                        kill(jobs[k].pid, SIGTERM);
                                        if (jobs[k].to >= 0)
                                                close(jobs[k].to);
                                        jobs[k].to = -1;
                                }
                }
                for (unsigned k = 0; n > 0 && k < njobs; k++) {
                        struct job *j = &jobs[k];
                        if (j->from < 0 || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                                continue;
                        if (job_reply(r, j, list) && !cli_interrupted && job_feed(r, j, list))
                                continue;
                        if (j->cur != SIZE_MAX || cli_interrupted) {
                                job_lost(r, j, list);
                                live--;
                                /* a replacement, under the same rules, when work remains */
                                if (!cli_interrupted && r->next < r->ntodo && job_start(r->b, jobs, njobs, k)) {
                                        live++;
                                        if (!job_feed(r, &jobs[k], list)) {
                                                job_close(&jobs[k], NULL);
                                                live--;
                                        }
                                }
                                continue;
                        }
                        /* no more work: let it go */
                        job_close(j, NULL);
                        live--;
                }
                progress(r, false);
        }
        for (unsigned k = 0; k < njobs; k++)
                if (jobs[k].pid > 0)
                        job_close(&jobs[k], NULL);
        /* Malformed lines after the last target still go in the index. */
        while (!cli_interrupted && r->next < r->ntodo) {
                size_t t = r->next++;
                const prc_batch_line *ln = &r->b->list.v[r->todo[t]];
                prc_err e;
                prc_err_init(&e);
                if (!prc_err_is_set(&ln->err))
                        prc_err_set(&e, PRC_E_BATCH_JOB_DIED, "no scanning process could be started for this target");
                take_entry(r, t, error_entry(ln, prc_err_is_set(&ln->err) ? &ln->err : &e), 0, list);
        }
}

static unsigned default_jobs(void)
{
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        return n < 1 ? 1 : n > JOBS_MAX ? JOBS_MAX : (unsigned)n;
}

static json_t *header_of(const struct batch *b)
{
        json_t *h = json_pack("{s:s,s:s,s:O,s:s,s:s}", "catalog_sha256", prc_catalog_sha256(b->cat), "list_sha256",
                              b->list.sha256, "options", b->options, "prc_version", PRC_VERSION, "profile", b->profile);

        if (h != NULL && b->sharded &&
            json_object_set_new(h, "shard", json_pack("{s:i,s:i}", "index", (int)b->shard_i, "count",
                                                      (int)b->shard_n)) != 0) {
                json_decref(h);
                return NULL;
        }
        return h;
}

static int finish(struct run *r, const char *dir, prc_err *err)
{
        json_t *entries = json_array(), *header = header_of(r->b), *index = NULL;
        int rc = PRC_EXIT_EXEC;

        if (entries == NULL || header == NULL) {
                prc_err_oom(err, "the batch index");
                goto out;
        }
        for (size_t t = 0; t < r->ntodo; t++)
                if (r->entries[t] == NULL || json_array_append(entries, r->entries[t]) != 0) {
                        prc_err_set(err, PRC_E_INTERNAL, "target %zu has no entry", t);
                        goto out;
                }
        index = prc_batch_index(header, entries, err);
        /* Durable in one step: every record, then the index that lists them. */
        if (index == NULL || !prc_batch_sync(r->b->root, err) || !prc_batch_index_write(r->b->root, index, err))
                goto out;
        summary(r, index, dir);
        rc = (int)json_integer_value(json_object_get(json_object_get(index, "summary"), "exit"));
out:
        json_decref(index);
        json_decref(header);
        json_decref(entries);
        return rc;
}

static int usage_err(const prc_err *e)
{
        cli_print_err(e);
        return PRC_EXIT_USAGE;
}

int cmd_batch(int argc, char **argv)
{
        static const struct option opts[] = {
                { "targets", required_argument, NULL, 'T' },
                { "state-dir", required_argument, NULL, 's' },
                { "profile", required_argument, NULL, 'p' },
                { "catalog-root", required_argument, NULL, 'c' },
                { "jobs", required_argument, NULL, 'j' },
                { "shard", required_argument, NULL, 'S' },
                { "aur-url", required_argument, NULL, 'u' },
                { "cacert", required_argument, NULL, 'C' },
                { NULL, 0, NULL, 0 },
        };
        const char *what = "batch", *list_path = NULL, *dir = NULL, *catalog_root = NULL;
        struct batch b = { .root = -1, .profile = PRC_PROFILE_DEFAULT };
        struct run r = { .b = &b };
        unsigned njobs = default_jobs();
        const prc_assertion *const *as;
        size_t nas;
        char catbuf[4200];
        prc_client_opts copts;
        cli_interrupts ints;
        prc_buf lb;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'T': list_path = optarg; break;
                case 's': dir = optarg; break;
                case 'p': b.profile = optarg; break;
                case 'c': catalog_root = optarg; break;
                case 'j': {
                        char *end;
                        unsigned long v = strtoul(optarg, &end, 10);
                        if (*optarg == '\0' || *end != '\0' || v == 0 || v > JOBS_MAX)
                                return cli_usage(what, "--jobs takes 1 to %d", JOBS_MAX);
                        njobs = (unsigned)v;
                        break;
                }
                case 'S':
                        if (!prc_batch_shard_parse(optarg, &b.shard_i, &b.shard_n, &err))
                                return usage_err(&err);
                        b.sharded = true;
                        break;
                case 'u':
                case 'C': {
                        int urc = cli_aur_option(what, c, optarg, &b.aur);
                        if (urc != 0)
                                return urc;
                        break;
                }
                default:
                        return cli_usage(what, "bad option");
                }
        }
        if (optind != argc)
                return cli_usage(what, "unexpected argument '%s'", argv[optind]);
        if (list_path == NULL || dir == NULL)
                return cli_usage(what, "--targets FILE and --state-dir DIR are required");
        prc_buf_init(&lb, PRC_BATCH_LIST_MAX);
        if (!prc_file_read(list_path, PRC_BATCH_LIST_MAX, 0, &lb, &err) ||
            !prc_batch_list_parse(lb.data != NULL ? lb.data : (const uint8_t *)"", lb.len, &b.list, &err)) {
                prc_buf_clear(&lb);
                prc_err_set_file(&err, list_path);
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        prc_buf_clear(&lb);
        {
                const char *slash = strrchr(list_path, '/');
                b.list_dir = slash == NULL ? strdup(".")
                                           : strndup(list_path, slash == list_path ? 1 : (size_t)(slash - list_path));
        }
        if (catalog_root == NULL)
                catalog_root = cli_default_catalog(catbuf, sizeof(catbuf));
        b.cat = prc_catalog_load(catalog_root, &err);
        if (b.list_dir == NULL || b.cat == NULL) {
                if (b.list_dir == NULL)
                        prc_err_oom(&err, "the list's directory");
                cli_print_err(&err);
                goto out;
        }
        if (!prc_catalog_profile(b.cat, b.profile, &as, &nas, &err)) {
                rc = usage_err(&err);
                goto out;
        }
        cli_client_opts(&copts);
        /* The options that change a result: a new one here is a new key, so old results are not reused. */
        b.options = json_pack("{s:s,s:s}", "content_floor", prc_floor_level_name(copts.floor), "mode", "inspect");
        r.todo = malloc((b.list.n ? b.list.n : 1) * sizeof(*r.todo));
        r.entries = calloc(b.list.n ? b.list.n : 1, sizeof(*r.entries));
        if (b.options == NULL || r.todo == NULL || r.entries == NULL) {
                prc_err_oom(&err, "the batch");
                cli_print_err(&err);
                goto out;
        }
        for (size_t i = 0; i < b.list.n; i++)
                if (!b.sharded || prc_batch_shard_of(b.list.v[i].text, b.shard_n) == b.shard_i)
                        r.todo[r.ntodo++] = i;
        b.root = prc_batch_state_open(dir, &err);
        if (b.root < 0) {
                cli_print_err(&err);
                goto out;
        }
        signal(SIGPIPE, SIG_IGN);       /* a job that died is seen as EOF or EPIPE, not a signal */
        r.tty = isatty(STDERR_FILENO);
        clock_gettime(CLOCK_MONOTONIC, &r.t0);
        r.last = r.t0;
        cli_interrupts_catch(&ints);
        run_jobs(&r, njobs, list_path);
        cli_interrupts_restore(&ints);
        if (r.tty)
                fprintf(stderr, "\r\033[K");
        if (cli_interrupted) {
                prc_err se;
                prc_err_init(&se);
                if (!prc_batch_sync(b.root, &se))       /* what is written stays written; say if not durable */
                        cli_print_err(&se);
                fprintf(stderr, "prc batch: interrupted by a signal after %zu of %zu targets (%zu scanned); every "
                        "result written is complete, none is partial; run the same command to resume\n", r.done,
                        r.ntodo, r.scanned);
                rc = PRC_EXIT_EXEC;
                goto out;
        }
        rc = finish(&r, dir, &err);
        if (prc_err_is_set(&err))
                cli_print_err(&err);
out:
        for (size_t t = 0; r.entries != NULL && t < r.ntodo; t++)
                json_decref(r.entries[t]);
        free(r.entries);
        free(r.todo);
        json_decref(b.options);
        prc_catalog_free(b.cat);
        free(b.list_dir);
        prc_batch_list_clear(&b.list);
        if (b.root >= 0)
                close(b.root);
        cli_interrupts_die();
        return rc;
}

int cmd_batch_merge(int argc, char **argv)
{
        static const struct option opts[] = {
                { "state-dir", required_argument, NULL, 's' },
                { NULL, 0, NULL, 0 },
        };
        const char *what = "batch merge", *out_dir = NULL;
        json_t **idx = NULL, *merged = NULL;
        int *roots = NULL, out = -1, c, rc = PRC_EXIT_EXEC;
        size_t n = 0;
        prc_err err;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                if (c != 's')
                        return cli_usage(what, "bad option");
                out_dir = optarg;
        }
        if (out_dir == NULL || optind >= argc)
                return cli_usage(what, "--state-dir OUT and at least one shard state DIR are required");
        n = (size_t)(argc - optind);
        idx = calloc(n, sizeof(*idx));
        roots = malloc(n * sizeof(*roots));
        if (idx == NULL || roots == NULL) {
                prc_err_oom(&err, "the merge");
                goto out;
        }
        for (size_t i = 0; i < n; i++)
                roots[i] = -1;
        for (size_t i = 0; i < n; i++) {
                /* Locked like a batch: a shard still being written is not merged. */
                roots[i] = prc_batch_state_open(argv[optind + i], &err);
                if (roots[i] < 0)
                        goto out;
                idx[i] = prc_batch_index_read(roots[i], &err);
                if (idx[i] == NULL) {
                        prc_err_set_file(&err, argv[optind + i]);
                        goto out;
                }
        }
        if (!prc_batch_merge(idx, n, &merged, &err))
                goto out;
        out = prc_batch_state_open(out_dir, &err);
        if (out < 0)
                goto out;
        for (size_t i = 0; i < n; i++)
                if (!prc_batch_copy(roots[i], out, idx[i], &err)) {
                        prc_err_set_file(&err, argv[optind + i]);
                        goto out;
                }
        if (!prc_batch_sync(out, &err) || !prc_batch_index_write(out, merged, &err))
                goto out;
        {
                const json_t *sum = json_object_get(merged, "summary");
                fprintf(stderr, "prc batch merge: %zu state dirs, %lld targets (%lld results, %lld errors) into "
                        "%s/index.json\n", n, (long long)json_integer_value(json_object_get(sum, "targets")),
                        (long long)json_integer_value(json_object_get(sum, "results")),
                        (long long)json_integer_value(json_object_get(sum, "errors")), out_dir);
                fprintf(stderr, "prc batch merge: worst outcome of the merged batch: exit %lld\n",
                        (long long)json_integer_value(json_object_get(sum, "exit")));
                rc = PRC_EXIT_OK;
        }
out:
        if (prc_err_is_set(&err)) {
                cli_print_err(&err);
                /* dirs that are not one whole batch are judged and refused (1); I/O and locks are 3 */
                rc = err.cls == PRC_E_BATCH_MERGE_MISMATCH || err.cls == PRC_E_BATCH_MERGE_INCOMPLETE ||
                     err.cls == PRC_E_BATCH_INDEX_INVALID || err.cls == PRC_E_STATE_CONFLICT ? PRC_EXIT_FAIL
                                                                                            : PRC_EXIT_EXEC;
        }
        for (size_t i = 0; idx != NULL && i < n; i++) {
                json_decref(idx[i]);
                if (roots[i] >= 0)
                        close(roots[i]);
        }
        free(idx);
        free(roots);
        json_decref(merged);
        if (out >= 0)
                close(out);
        return rc;
}
