/*
 * batch.c - target list, shards, resumption records and the batch index
 * (see batch.h).
 * Trust: engine-side; the list and the state dir are the operator's, and
 * whatever is read back from the state dir is checked before it is reused.
 */
#include "engine/batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/testkeep.h"
#include "base/utf8.h"
#include "net/aur.h"

#define TMP_PREFIX ".batch-tmp."
/* A run result of the largest target is some MiB. */
#define RUN_MAX ((size_t)256 << 20)
#define INDEX_MAX ((size_t)2 << 30)

static const char *const state_names[] = { "pass", "fail", "unknown", "conflicting", "blocked" };
enum { NSTATES = 5 };

/* ---- the target list ---- */

static bool blank(uint8_t c)
{
        return c == ' ' || c == '\t';
}

/* Why a target line is malformed, or NULL.  p[0..n) is neither blank nor a comment. */
static const char *line_fault(const uint8_t *p, size_t n)
{
        if (n > PRC_BATCH_LINE_MAX)
                return "the line is longer than 4096 bytes";
        if (!prc_utf8_valid(p, n, NULL))
                return "the line is not valid UTF-8";
        for (size_t i = 0; i < n; i++)
                if (p[i] < 0x20 || p[i] == 0x7f)
                        return p[i] == 0 ? "the line holds a NUL byte" : "the line holds a control character";
        if (blank(p[0]) || blank(p[n - 1]))
                return "blanks around the target are ambiguous; remove them";
        return NULL;
}

static bool add_line(prc_batch_list *l, size_t *cap, uint32_t lineno, const uint8_t *p, size_t n, prc_err *err)
{
        prc_batch_line *ln;
        const char *fault;
        size_t keep = n > PRC_BATCH_LINE_MAX ? PRC_BATCH_LINE_MAX : n;

        if (l->n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                prc_batch_line *v = realloc(l->v, nc * sizeof(*v));
                if (v == NULL)
                        return prc_err_oom(err, "the target list");
                l->v = v;
                *cap = nc;
        }
        ln = &l->v[l->n];
        memset(ln, 0, sizeof(*ln));
        prc_err_init(&ln->err);
        ln->line = lineno;
        ln->text = malloc(keep + 1);
        if (ln->text == NULL)
                return prc_err_oom(err, "the target list");
        memcpy(ln->text, p, keep);
        ln->text[keep] = '\0';
        fault = line_fault(p, n);
        if (fault != NULL) {
                /* The index is JSON: a bad line is listed with its bad bytes as '?' */
                prc_err_sanitize(ln->text);
                prc_err_set(&ln->err, PRC_E_BATCH_LINE_INVALID, "%s", fault);
        } else if (strncmp(ln->text, "aur:", 4) == 0) {
                ln->aur = true;
                if (!prc_aur_name_check(ln->text + 4, &ln->err))
                        ln->aur = false;        /* the bad name stays the line's error */
        }
        prc_err_set_line(&ln->err, lineno, 0);
        l->n++;
        return true;
}

bool prc_batch_list_parse(const uint8_t *p, size_t n, prc_batch_list *out, prc_err *err)
{
        prc_batch_list l = { 0 };
        size_t cap = 0, start = 0;
        uint32_t lineno = 0;

        if (n > PRC_BATCH_LIST_MAX)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "the target list is larger than %zu bytes",
                                   PRC_BATCH_LIST_MAX);
        if (!prc_sha256_hex_once(p, n, l.sha256, err))
                return false;
        while (start < n) {
                const uint8_t *nl = memchr(p + start, '\n', n - start);
                size_t end = nl != NULL ? (size_t)(nl - p) : n, len = end - start, k = 0;

                lineno++;
                if (len > 0 && p[start + len - 1] == '\r')
                        len--;          /* lists written on Windows */
                while (k < len && blank(p[start + k]))
                        k++;
                if (k < len && p[start + k] != '#' && !add_line(&l, &cap, lineno, p + start, len, err)) {
                        prc_batch_list_clear(&l);
                        return false;
                }
                start = end + 1;
        }
        *out = l;
        return true;
}

void prc_batch_list_clear(prc_batch_list *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->v[i].text);
        free(l->v);
        l->v = NULL;
        l->n = 0;
}

/* ---- shards ---- */

uint32_t prc_batch_shard_of(const char *text, uint32_t count)
{
        uint8_t h[PRC_SHA256_LEN];
        uint64_t v = 0;
        prc_err e;

        prc_err_init(&e);
        if (count <= 1 || !prc_sha256_once(text, strlen(text), h, &e))
                return 0;
        for (int i = 0; i < 8; i++)
                v = v << 8 | h[i];
        return (uint32_t)(v % count);
}

static bool read_uint(const char *s, size_t n, uint32_t *out)
{
        uint64_t v = 0;

        if (n == 0 || n > 6 || (n > 1 && s[0] == '0'))
                return false;
        for (size_t i = 0; i < n; i++) {
                if (s[i] < '0' || s[i] > '9')
                        return false;
                v = v * 10 + (uint64_t)(s[i] - '0');
        }
        *out = (uint32_t)v;
        return true;
}

bool prc_batch_shard_parse(const char *s, uint32_t *out_index, uint32_t *out_count, prc_err *err)
{
        const char *slash = strchr(s, '/');
        uint32_t i, n;

        if (slash == NULL || !read_uint(s, (size_t)(slash - s), &i) || !read_uint(slash + 1, strlen(slash + 1), &n))
                return prc_err_set(err, PRC_E_BATCH_SHARD_INVALID, "--shard takes I/N (decimal, e.g. 0/4), not '%s'",
                                   s);
        if (n == 0 || n > PRC_BATCH_SHARDS_MAX)
                return prc_err_set(err, PRC_E_BATCH_SHARD_INVALID, "--shard count %u is not in 1..%u", n,
                                   PRC_BATCH_SHARDS_MAX);
        if (i >= n)
                return prc_err_set(err, PRC_E_BATCH_SHARD_INVALID,
                                   "--shard index %u is not below the count %u (shards count from 0)", i, n);
        *out_index = i;
        *out_count = n;
        return true;
}

/* ---- keys and records ---- */

json_t *prc_batch_inputs(const char *catalog_sha256, const char *profile, const char *prc_version,
                         const json_t *options, json_t *target)
{
        return json_pack("{s:s,s:O,s:s,s:s,s:s,s:o}", "catalog_sha256", catalog_sha256, "options", options,
                         "prc_version", prc_version, "profile", profile, "schema", PRC_BATCH_KEY_SCHEMA, "target",
                         target);
}

/* Write p[0..n) to fd and, with durable, fsync it. */
static bool fill(int fd, const char *name, const void *p, size_t n, bool durable, prc_err *err)
{
        if (!prc_fd_write_all(fd, p, n, err))
                return false;
        if (durable && fsync(fd) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot fsync '%s'", name);
        return true;
}

/*
 * Replace dirfd/name by rename of a complete temporary (TMP_PREFIX: swept
 * by the next batch if a kill leaves one); fsync'ed only with durable.
 * With from_dir/from_name, the temporary is a hard link to that file
 * instead of new bytes.
 */
static bool replace_at(int dirfd, const char *name, const void *p, size_t n, int from_dir, const char *from_name,
                       bool durable, prc_err *err)
{
        char tmp[256];
        int fd = -1;
        bool ok;

        snprintf(tmp, sizeof(tmp), TMP_PREFIX "%ld.%s", (long)getpid(), name);
        (void)unlinkat(dirfd, tmp, 0);  /* our pid's leftover from an earlier life of this pid number */
        if (from_name != NULL) {
                ok = linkat(from_dir, from_name, dirfd, tmp, 0) == 0 ||
                     prc_err_sys(err, PRC_E_IO, errno, "cannot link '%s'", tmp);
        } else {
                fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot create '%s'", tmp);
                ok = fill(fd, tmp, p, n, durable, err);
                if (close(fd) != 0 && ok)
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot close '%s'", tmp);
        }
        if (ok && renameat(dirfd, tmp, dirfd, name) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot rename '%s' to '%s'", tmp, name);
        if (!ok)
                (void)unlinkat(dirfd, tmp, 0);  /* best effort: the failure is already recorded */
        if (ok && durable && fsync(dirfd) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot fsync the directory of '%s'", name);
        return ok;
}

/* Does dirfd/name hold exactly p[0..n)? */
static bool holds(int dirfd, const char *name, const void *p, size_t n)
{
        int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        prc_buf b;
        bool same;
        prc_err e;

        if (fd < 0)
                return false;
        prc_err_init(&e);
        prc_buf_init(&b, n + 1);
        same = prc_fd_read_all(fd, n + 1, &b, &e) && b.len == n && (n == 0 || memcmp(b.data, p, n) == 0);
        close(fd);
        prc_buf_clear(&b);
        return same;
}

/*
 * Create the content-addressed file dirfd/name with p[0..n): an unnamed
 * O_TMPFILE inode linked in once complete, so no name ever shows a partial
 * file and nothing is left behind by a kill (temporary and rename where
 * the filesystem has no O_TMPFILE).  A file already there with the same
 * bytes is kept; one with other bytes (torn by a power cut before the
 * batch's sync) is replaced.
 */
static bool create_at(int dirfd, const char *name, const void *p, size_t n, prc_err *err)
{
        char proc[64];
        int fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        bool ok;

        if (fd < 0)
                return holds(dirfd, name, p, n) || replace_at(dirfd, name, p, n, -1, NULL, false, err);
        ok = fill(fd, name, p, n, false, err);
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
        if (ok && linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) != 0) {
                if (errno == EEXIST)
                        ok = holds(dirfd, name, p, n) || replace_at(dirfd, name, p, n, -1, NULL, false, err);
                else
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot link '%s'", name);
        }
        close(fd);
        return ok;
}

static json_t *states_of(const json_t *run)
{
        const json_t *sum = json_object_get(run, "summary");
        json_t *s = json_object();

        for (int i = 0; s != NULL && i < NSTATES; i++)
                if (json_object_set_new(s, state_names[i],
                                        json_integer(json_integer_value(json_object_get(sum, state_names[i])))) != 0) {
                        json_decref(s);
                        s = NULL;
                }
        return s;
}

static int str_cmp(const void *a, const void *b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The ids of the run's assertions in state Fail, sorted. */
static json_t *failing_of(const json_t *run)
{
        const json_t *rows = json_object_get(run, "assertions"), *row;
        size_t i, n = 0, cap = json_array_size(rows);
        const char **v = malloc((cap ? cap : 1) * sizeof(*v));
        json_t *ids = json_array();

        if (v == NULL || ids == NULL)
                goto fail;
        json_array_foreach(rows, i, row) {
                const char *st = json_string_value(json_object_get(row, "state"));
                const char *id = json_string_value(json_object_get(row, "id"));
                if (st != NULL && id != NULL && strcmp(st, "Fail") == 0)
                        v[n++] = id;
        }
        qsort(v, n, sizeof(*v), str_cmp);
        for (i = 0; i < n; i++)
                if (json_array_append_new(ids, json_string(v[i])) != 0)
                        goto fail;
        free(v);
        return ids;
fail:
        free(v);
        json_decref(ids);
        return NULL;
}

/* The result part of an index entry, from the run itself. */
static json_t *entry_of_run(const char *key, const json_t *run)
{
        return json_pack("{s:o,s:s,s:O,s:o}", "failing", failing_of(run), "key", key, "result",
                         json_object_get(run, "id"), "states", states_of(run));
}

/* Read root/sub/name whole (at most max), or *out_missing when it is not there. */
static bool read_at(int root, const char *sub, const char *name, size_t max, prc_buf *out, bool *out_missing,
                    prc_err *err)
{
        char rel[PRC_SHA256_HEX + 32];
        int fd;
        bool ok;

        snprintf(rel, sizeof(rel), "%s/%s", sub, name);
        *out_missing = false;
        fd = openat(root, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ENOENT) {
                        *out_missing = true;
                        return true;
                }
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open state file '%s'", rel);
        }
        ok = prc_fd_read_all(fd, max, out, err);
        close(fd);
        return ok;
}

/* A run read back: one canonical JSON document whose id is its content's digest. */
static json_t *run_verified(const prc_buf *b)
{
        json_t *run = json_loadb((const char *)b->data, b->len, JSON_REJECT_DUPLICATES, NULL);
        const char *id = json_string_value(json_object_get(run, "id"));
        char dig[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        if (run == NULL || id == NULL || !prc_digest_valid(id) || !prc_jcs_id(run, "id", dig, &e) ||
            strcmp(dig, id) != 0) {
                json_decref(run);
                return NULL;
        }
        return run;
}

bool prc_batch_lookup(int root, const char *key, json_t **out_entry, bool *out_repair, prc_err *err)
{
        char name[PRC_SHA256_HEX + 8];
        prc_buf b;
        json_t *run = NULL;
        bool missing = false, ok = true;

        *out_entry = NULL;
        *out_repair = false;
        snprintf(name, sizeof(name), "%s.json", key);
        prc_buf_init(&b, RUN_MAX);
        if (!read_at(root, "keys", name, RUN_MAX, &b, &missing, err)) {
                /* a file too large to be ours is a bad record, not a failed batch */
                if (err->cls != PRC_E_INPUT_TOO_LARGE && err->cls != PRC_E_BUFFER_LIMIT) {
                        ok = false;
                        goto out;
                }
                prc_err_init(err);
                missing = false;
        }
        if (missing)
                goto out;
        run = run_verified(&b);
        if (run == NULL) {
                *out_repair = true;     /* torn or altered: scanned again and replaced */
                goto out;
        }
        *out_entry = entry_of_run(key, run);
        if (*out_entry == NULL)
                ok = prc_err_oom(err, "a batch index entry");
out:
        json_decref(run);
        prc_buf_clear(&b);
        return ok;
}

/* keys/<key>.json: a second name of runs/<id>.json, replacing an old one (a repaired key). */
static bool link_key(int rdir, const char *rname, int kdir, const char *kname, prc_err *err)
{
        if (linkat(rdir, rname, kdir, kname, 0) == 0)
                return true;
        if (errno != EEXIST)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot link keys/%s", kname);
        return replace_at(kdir, kname, NULL, 0, rdir, rname, false, err);
}

bool prc_batch_store(int root, const char *key, const json_t *run, const prc_buf *canonical, json_t **out_entry,
                     prc_err *err)
{
        const char *id = json_string_value(json_object_get(run, "id"));
        char rname[PRC_SHA256_HEX + 8], kname[PRC_SHA256_HEX + 8];
        int rdir = -1, kdir = -1;
        prc_buf b;
        bool ok = false;

        prc_buf_init(&b, RUN_MAX);
        if (id == NULL || !prc_digest_valid(id)) {
                prc_err_set(err, PRC_E_INTERNAL, "run result has no content id");
                goto out;
        }
        rdir = openat(root, "runs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        kdir = openat(root, "keys", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (rdir < 0 || kdir < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the state dir's runs/ or keys/");
                goto out;
        }
        /* The run first, then the key as a second name of the same file (no second copy, no new inode). */
        snprintf(rname, sizeof(rname), "%s.json", id);
        snprintf(kname, sizeof(kname), "%s.json", key);
        if (canonical != NULL ? !prc_buf_put(&b, canonical->data, canonical->len, err) : !prc_jcs_write(run, &b, err))
                goto out;
        if (!prc_buf_putc(&b, '\n', err) || !create_at(rdir, rname, b.data, b.len, err))
                goto out;
        if (!link_key(rdir, rname, kdir, kname, err))
                goto out;
        *out_entry = entry_of_run(key, run);
        ok = *out_entry != NULL || prc_err_oom(err, "a batch index entry");
out:
        prc_buf_clear(&b);
        if (rdir >= 0)
                close(rdir);
        if (kdir >= 0)
                close(kdir);
        return ok;
}

/* ---- the state dir ---- */

static bool sweep_temps(int root, const char *sub, prc_err *err)
{
        int fd = openat(root, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        DIR *d;
        struct dirent *de;

        if (fd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open state directory '%s'", sub);
        d = fdopendir(fd);
        if (d == NULL) {
                close(fd);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot read state directory '%s'", sub);
        }
        while ((de = readdir(d)) != NULL)
                if (strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX)) == 0)
                        (void)unlinkat(dirfd(d), de->d_name, 0);        /* a dead batch's temporary */
        closedir(d);
        return true;
}

/* mkdir -p: shards' dirs sit under one not yet made (/data/shards/I on a fresh volume). */
static bool make_dirs(const char *dir, prc_err *err)
{
        char p[4096];
        size_t n = strlen(dir);

        if (n == 0 || n >= sizeof(p))
                return prc_err_set(err, PRC_E_IO, "state directory name is empty or too long");
        memcpy(p, dir, n + 1);
        for (size_t i = 1; i <= n; i++) {
                if (p[i] != '/' && p[i] != '\0')
                        continue;
                p[i] = '\0';
                if (mkdir(p, 0700) != 0 && errno != EEXIST)
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot create state directory '%s'", p);
                p[i] = i < n ? '/' : '\0';
        }
        return true;
}

int prc_batch_state_open(const char *dir, prc_err *err)
{
        int root;

        if (!make_dirs(dir, err))
                return -1;
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot create state directory '%s'", dir);
                return -1;
        }
        root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open state directory '%s'", dir);
                return -1;
        }
        if (flock(root, LOCK_EX | LOCK_NB) != 0) {
                if (errno == EWOULDBLOCK)
                        prc_err_set(err, PRC_E_BATCH_STATE_BUSY, "another prc batch or merge is using '%s'", dir);
                else
                        prc_err_sys(err, PRC_E_IO, errno, "cannot lock state directory '%s'", dir);
                goto fail;
        }
        for (int i = 0; i < 2; i++) {
                const char *sub = i == 0 ? "runs" : "keys";
                if (mkdirat(root, sub, 0700) != 0 && errno != EEXIST) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot create state directory '%s/%s'", dir, sub);
                        goto fail;
                }
        }
        if (!sweep_temps(root, ".", err) || !sweep_temps(root, "runs", err) || !sweep_temps(root, "keys", err))
                goto fail;
        return root;
fail:
        close(root);
        return -1;
}

bool prc_batch_sync(int root, prc_err *err)
{
        if (syncfs(root) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot sync the state directory");
        return true;
}

/* ---- the index ---- */

static int entry_cmp(const void *a, const void *b)
{
        const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
        int c = strcmp(json_string_value(json_object_get(x, "target")),
                       json_string_value(json_object_get(y, "target")));
        json_int_t lx = json_integer_value(json_object_get(x, "line"));
        json_int_t ly = json_integer_value(json_object_get(y, "line"));

        if (c != 0)
                return c;
        return (lx > ly) - (lx < ly);
}

static bool malformed(const json_t *e)
{
        const char *cls = json_string_value(json_object_get(json_object_get(e, "error"), "class"));

        return cls != NULL && (strcmp(cls, prc_err_name(PRC_E_BATCH_LINE_INVALID)) == 0 ||
                               strcmp(cls, prc_err_name(PRC_E_AUR_NAME_INVALID)) == 0);
}

int prc_batch_entry_exit(const json_t *entry)
{
        const json_t *st = json_object_get(entry, "states");

        if (json_object_get(entry, "error") != NULL)
                return malformed(entry) ? 2 : 3;
        for (int i = 1; i < NSTATES; i++)
                if (json_integer_value(json_object_get(st, state_names[i])) > 0)
                        return 1;
        return 0;
}

/* Worst state first: a reviewer reads Fail before Conflicting, Unknown and Blocked. */
static const char *const worst_order[] = { "fail", "conflicting", "unknown", "blocked", "pass" };
static const char *const worst_names[] = { "Fail", "Conflicting", "Unknown", "Blocked", "Pass" };

static json_t *summary_of(json_t *const *v, size_t n)
{
        json_int_t tot[NSTATES] = { 0 }, results = 0, errors = 0, bad = 0;
        int exit = 0;
        const char *worst = NULL;
        json_t *states;

        for (size_t i = 0; i < n; i++) {
                int x = prc_batch_entry_exit(v[i]);
                exit = x > exit ? x : exit;
                if (json_object_get(v[i], "error") != NULL) {
                        errors++;
                        bad += malformed(v[i]);
                        continue;
                }
                results++;
                for (int k = 0; k < NSTATES; k++)
                        tot[k] += json_integer_value(json_object_get(json_object_get(v[i], "states"), state_names[k]));
        }
        for (int w = 0; worst == NULL && results > 0 && w < NSTATES; w++)
                for (int k = 0; k < NSTATES; k++)
                        if (strcmp(state_names[k], worst_order[w]) == 0 && (tot[k] > 0 || w == NSTATES - 1))
                                worst = worst_names[w];
        states = json_pack("{s:I,s:I,s:I,s:I,s:I}", "pass", tot[0], "fail", tot[1], "unknown", tot[2], "conflicting",
                           tot[3], "blocked", tot[4]);
        return json_pack("{s:I,s:I,s:I,s:I,s:o,s:s?,s:i}", "targets", (json_int_t)n, "results", results, "errors",
                         errors, "malformed", bad, "states", states, "worst", worst, "exit", exit);
}

static const char *const header_keys[] = { "catalog_sha256", "list_sha256", "options", "prc_version", "profile",
                                            "shard" };

json_t *prc_batch_index(const json_t *header, const json_t *entries, prc_err *err)
{
        size_t n = json_array_size(entries);
        json_t **v = malloc((n ? n : 1) * sizeof(*v)), *idx = NULL, *arr = NULL;

        if (v == NULL)
                goto oom;
        for (size_t i = 0; i < n; i++)
                v[i] = json_array_get(entries, i);
        qsort(v, n, sizeof(*v), entry_cmp);
        idx = json_pack("{s:s,s:o}", "schema", PRC_BATCH_INDEX_SCHEMA, "summary", summary_of(v, n));
        arr = json_array();
        if (idx == NULL || arr == NULL)
                goto oom;
        for (size_t i = 0; i < PRC_ARRAY_LEN(header_keys); i++) {
                json_t *h = json_object_get(header, header_keys[i]);
                if (h != NULL && json_object_set(idx, header_keys[i], h) != 0)
                        goto oom;
        }
        for (size_t i = 0; i < n; i++)
                if (json_array_append(arr, v[i]) != 0)
                        goto oom;
        if (json_object_set_new(idx, "targets", arr) != 0) {
                arr = NULL;
                goto oom;
        }
        free(v);
        return idx;
oom:
        free(v);
        json_decref(arr);
        json_decref(idx);
        prc_err_oom(err, "the batch index");
        return NULL;
}

static bool same_field(const json_t *a, const json_t *b, const char *k)
{
        const json_t *x = json_object_get(a, k), *y = json_object_get(b, k);

        return x != NULL && y != NULL && json_equal(x, y);
}

bool prc_batch_merge(json_t *const *indexes, size_t n, json_t **out, prc_err *err)
{
        static const char *const must_match[] = { "catalog_sha256", "list_sha256", "options", "prc_version",
                                                  "profile" };
        json_t *all = NULL, *header = NULL;
        bool *seen = NULL, ok = false;
        uint32_t count = 0;
        bool sharded;

        if (n == 0)
                return prc_err_set(err, PRC_E_BATCH_MERGE_INCOMPLETE, "no state dir to merge");
        sharded = json_object_get(indexes[0], "shard") != NULL;
        for (size_t i = 0; i < n; i++) {
                for (size_t k = 0; k < PRC_ARRAY_LEN(must_match); k++)
                        if (!same_field(indexes[0], indexes[i], must_match[k]))
                                return prc_err_set(err, PRC_E_BATCH_MERGE_MISMATCH,
                                                   "state dir %zu was made with another %s than the first", i + 1,
                                                   must_match[k]);
                if ((json_object_get(indexes[i], "shard") != NULL) != sharded)
                        return prc_err_set(err, PRC_E_BATCH_MERGE_MISMATCH,
                                           "sharded and unsharded batches cannot be merged together");
        }
        if (!sharded && n > 1)
                return prc_err_set(err, PRC_E_BATCH_MERGE_MISMATCH, "%zu unsharded batches of one list overlap; "
                                   "merge the shards of one sharded batch", n);
        if (sharded) {
                count = (uint32_t)json_integer_value(json_object_get(json_object_get(indexes[0], "shard"), "count"));
                if (count == 0 || count > PRC_BATCH_SHARDS_MAX)
                        return prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "a shard count out of range");
                seen = calloc(count, sizeof(*seen));
                if (seen == NULL)
                        return prc_err_oom(err, "the shard set");
                for (size_t i = 0; i < n; i++) {
                        const json_t *sh = json_object_get(indexes[i], "shard");
                        json_int_t si = json_integer_value(json_object_get(sh, "index"));
                        if (json_integer_value(json_object_get(sh, "count")) != (json_int_t)count) {
                                prc_err_set(err, PRC_E_BATCH_MERGE_MISMATCH, "shards of %u and of %lld cannot be "
                                            "merged", count,
                                            (long long)json_integer_value(json_object_get(sh, "count")));
                                goto out;
                        }
                        if (si < 0 || si >= (json_int_t)count || seen[si]) {
                                prc_err_set(err, PRC_E_BATCH_MERGE_MISMATCH, "shard %lld/%u is given twice or out "
                                            "of range", (long long)si, count);
                                goto out;
                        }
                        seen[si] = true;
                }
                for (uint32_t s = 0; s < count; s++)
                        if (!seen[s]) {
                                prc_err_set(err, PRC_E_BATCH_MERGE_INCOMPLETE, "shard %u/%u is missing: a merge of "
                                            "part of the shards would look like a whole batch", s, count);
                                goto out;
                        }
        }
        all = json_array();
        header = json_deep_copy(indexes[0]);
        if (all == NULL || header == NULL) {
                prc_err_oom(err, "the merged index");
                goto out;
        }
        json_object_del(header, "shard");
        for (size_t i = 0; i < n; i++)
                if (json_array_extend(all, json_object_get(indexes[i], "targets")) != 0) {
                        prc_err_oom(err, "the merged index");
                        goto out;
                }
        *out = prc_batch_index(header, all, err);
        ok = *out != NULL;
out:
        free(seen);
        json_decref(all);
        json_decref(header);
        return ok;
}

static bool copy_one(int from, int to, const char *sub, const char *name, prc_err *err)
{
        prc_buf a, b;
        bool missing = false, ok = false;
        int dfd = -1;

        prc_buf_init(&a, RUN_MAX);
        prc_buf_init(&b, RUN_MAX);
        if (!read_at(from, sub, name, RUN_MAX, &a, &missing, err))
                goto out;
        if (missing) {
                prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "the index names %s/%s, which is not there", sub, name);
                goto out;
        }
        if (!read_at(to, sub, name, RUN_MAX, &b, &missing, err))
                goto out;
        if (!missing) {
                ok = (a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0)) ||
                     prc_err_set(err, PRC_E_STATE_CONFLICT, "%s/%s is already in the merged state dir with other "
                                 "bytes", sub, name);
                goto out;
        }
        dfd = openat(to, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open state directory '%s'", sub);
                goto out;
        }
        ok = create_at(dfd, name, a.data != NULL ? a.data : (const uint8_t *)"", a.len, err);
out:
        if (dfd >= 0)
                close(dfd);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        return ok;
}

bool prc_batch_copy(int from, int to, const json_t *index, prc_err *err)
{
        const json_t *e;
        int rdir = -1, kdir = -1;
        bool ok = false;
        size_t i;

        rdir = openat(to, "runs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        kdir = openat(to, "keys", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (rdir < 0 || kdir < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the merged state dir's runs/ or keys/");
                goto out;
        }
        json_array_foreach(json_object_get(index, "targets"), i, e) {
                const char *key = json_string_value(json_object_get(e, "key"));
                const char *id = json_string_value(json_object_get(e, "result"));
                char rname[PRC_SHA256_HEX + 8], kname[PRC_SHA256_HEX + 8];
                json_t *found = NULL;
                bool repair = false, same;

                if (json_object_get(e, "error") != NULL)
                        continue;
                if (key == NULL || id == NULL || !prc_digest_valid(key) || !prc_digest_valid(id)) {
                        prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "entry %zu of the index has no valid key and "
                                    "result", i);
                        goto out;
                }
                /* Verified where it is, so a merge never spreads a torn or altered result. */
                if (!prc_batch_lookup(from, key, &found, &repair, err))
                        goto out;
                same = found != NULL && json_equal(json_object_get(found, "result"), json_object_get(e, "result")) &&
                       json_equal(json_object_get(found, "states"), json_object_get(e, "states"));
                json_decref(found);
                if (!same) {
                        prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "the result of key %s is missing, does not "
                                    "verify or is not the one the index names", key);
                        goto out;
                }
                snprintf(rname, sizeof(rname), "%s.json", id);
                snprintf(kname, sizeof(kname), "%s.json", key);
                if (!copy_one(from, to, "runs", rname, err) || !link_key(rdir, rname, kdir, kname, err))
                        goto out;
        }
        ok = true;
out:
        if (rdir >= 0)
                close(rdir);
        if (kdir >= 0)
                close(kdir);
        return ok;
}

json_t *prc_batch_index_read(int root, prc_err *err)
{
        int fd = openat(root, "index.json", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        prc_buf b;
        json_t *v = NULL;
        json_error_t je;
        const char *schema;

        if (fd < 0) {
                if (errno == ENOENT)
                        prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "no index.json: the batch did not complete; run "
                                    "it again to finish it");
                else
                        prc_err_sys(err, PRC_E_IO, errno, "cannot open index.json");
                return NULL;
        }
        prc_buf_init(&b, INDEX_MAX);
        if (!prc_fd_read_all(fd, INDEX_MAX, &b, err))
                goto out;
        v = json_loadb((const char *)b.data, b.len, JSON_REJECT_DUPLICATES, &je);
        schema = json_string_value(json_object_get(v, "schema"));
        if (v == NULL || schema == NULL || strcmp(schema, PRC_BATCH_INDEX_SCHEMA) != 0 ||
            !json_is_array(json_object_get(v, "targets"))) {
                json_decref(v);
                v = NULL;
                prc_err_set(err, PRC_E_BATCH_INDEX_INVALID, "index.json is not a %s document", PRC_BATCH_INDEX_SCHEMA);
        }
out:
        close(fd);
        prc_buf_clear(&b);
        return v;
}

bool prc_batch_index_write(int root, const json_t *index, prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_test_keep("index", index);
        prc_buf_init(&b, INDEX_MAX);
        ok = prc_jcs_write(index, &b, err) && prc_buf_putc(&b, '\n', err) &&
             replace_at(root, "index.json", b.data, b.len, -1, NULL, true, err);
        prc_buf_clear(&b);
        return ok;
}
