/*
 * inventory.c - walk, hash and seal a target tree (see inventory.h and
 * docs/inventory.md).
 *
 * Trust: the tree is hostile.  The walk holds a descriptor per directory
 * level and names children relative to it (fstatat AT_SYMLINK_NOFOLLOW,
 * openat O_NOFOLLOW | O_DIRECTORY), so no path string is ever resolved
 * through a symlink.  A directory is opened only after lstat said
 * "directory", and the opened descriptor must have the lstat's dev/ino:
 * anything else means the tree changed under us and the build fails.
 * Regular files are hashed afterwards by the pool, each reopened beneath
 * the root with no symlink in any component and checked against the walk's
 * dev/ino.  Memory: one small record per entry plus the pool's buffers.
 */
#include "inventory/inventory.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/jcs.h"
#include "base/path.h"
#include "inventory/pool.h"
#include "inventory/safeopen.h"

/* Scanner-owned names, excluded only as direct children of the root (docs/inventory.md). */
static const char *const excluded_names[] = { ".git", ".hg", ".prc", ".svn" };

struct ent {
        prc_inv_entry pub;
        char         *path;     /* owned; pub.path borrows it */
        dev_t         dev;
        ino_t         ino;
};

struct unrep {
        prc_inv_unrep pub;
        char         *raw;      /* owned; pub.raw borrows it */
};

struct prc_inventory {
        int              rootfd;        /* owned */
        struct ent      *ents;          /* owned, nents used, sorted by path after build */
        size_t           nents, cap;
        struct unrep    *unreps;        /* owned */
        size_t           nunreps, capu;
        const char      *excluded[PRC_ARRAY_LEN(excluded_names)];  /* borrowed from the static table */
        size_t           nexcluded;
        prc_inv_skipped  skipped;
        uint64_t         total_bytes;
        size_t           max_entries;
        json_t          *doc;           /* owned */
        char             digest[PRC_SHA256_HEX + 1];
};

char *prc_inventory_escape(const char *p, size_t n)
{
        static const char hx[] = "0123456789abcdef";
        char *out = malloc(4 * n + 1), *o = out;

        if (out == NULL)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)p[i];
                if (c > 0x20 && c < 0x7f && c != '\\') {
                        *o++ = (char)c;
                } else {
                        *o++ = '\\';
                        *o++ = 'x';
                        *o++ = hx[c >> 4];
                        *o++ = hx[c & 15];
                }
        }
        *o = '\0';
        return out;
}

static bool add_entry(prc_inventory *inv, const char *path, size_t len, const struct stat *st,
                      prc_inv_type type, prc_err *err)
{
        struct ent *e;

        if (inv->nents >= inv->max_entries)
                return prc_err_set(err, PRC_E_INV_TOO_MANY, "the target has more than %zu entries",
                                   inv->max_entries);
        if (inv->nents == inv->cap) {
                size_t ncap = inv->cap ? inv->cap * 2 : 256;
                struct ent *n = realloc(inv->ents, ncap * sizeof(*n));
                if (n == NULL)
                        return prc_err_oom(err, "the inventory");
                inv->ents = n;
                inv->cap = ncap;
        }
        e = &inv->ents[inv->nents];
        memset(e, 0, sizeof(*e));
        e->path = malloc(len + 1);
        if (e->path == NULL)
                return prc_err_oom(err, "the inventory");
        memcpy(e->path, path, len);
        e->path[len] = '\0';
        e->pub.path = e->path;
        e->pub.type = type;
        e->dev = st->st_dev;
        e->ino = st->st_ino;
        if (type == PRC_INV_FILE) {
                e->pub.size = (uint64_t)st->st_size;
                e->pub.executable = (st->st_mode & S_IXUSR) != 0;
                e->pub.oversized = e->pub.size > PRC_INV_OVERSIZED;
        }
        inv->nents++;
        return true;
}

static bool add_unrep(prc_inventory *inv, const char *path, size_t len, prc_errclass why, const char *kind,
                      prc_err *err)
{
        struct unrep *u;

        if (inv->nents + inv->nunreps >= inv->max_entries)
                return prc_err_set(err, PRC_E_INV_TOO_MANY, "the target has more than %zu entries",
                                   inv->max_entries);
        if (inv->nunreps == inv->capu) {
                size_t ncap = inv->capu ? inv->capu * 2 : 16;
                struct unrep *n = realloc(inv->unreps, ncap * sizeof(*n));
                if (n == NULL)
                        return prc_err_oom(err, "the inventory");
                inv->unreps = n;
                inv->capu = ncap;
        }
        u = &inv->unreps[inv->nunreps];
        u->raw = prc_inventory_escape(path, len);
        if (u->raw == NULL)
                return prc_err_oom(err, "the inventory");
        u->pub.raw = u->raw;
        u->pub.reason = prc_err_name(why);
        u->pub.kind = kind;
        inv->nunreps++;
        return true;
}

static bool is_excluded(const char *name)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(excluded_names); i++)
                if (strcmp(name, excluded_names[i]) == 0)
                        return true;
        return false;
}

/* Names of one directory, read completely before any child is looked at. */
struct names {
        char  **v;      /* owned, each owned */
        size_t  n, cap;
};

static void names_free(struct names *ns)
{
        for (size_t i = 0; i < ns->n; i++)
                free(ns->v[i]);
        free(ns->v);
}

static bool read_names(int dfd, const char *rel, struct names *ns, prc_err *err)
{
        /* A new open file description: a dup would share (and inherit) the read position. */
        int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d;
        struct dirent *de;

        if (fd < 0)
                return prc_err_sys(err, errno == EACCES ? PRC_E_INV_UNREADABLE : PRC_E_IO, errno,
                                   "cannot read directory '%s'", rel);
        d = fdopendir(fd);
        if (d == NULL) {
                close(fd);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot read directory '%s'", rel);
        }
        for (;;) {
                errno = 0;
                de = readdir(d);
                if (de == NULL)
                        break;
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (ns->n == ns->cap) {
                        size_t ncap = ns->cap ? ns->cap * 2 : 32;
                        char **nv = realloc(ns->v, ncap * sizeof(*nv));
                        if (nv == NULL) {
                                closedir(d);
                                return prc_err_oom(err, "a directory listing");
                        }
                        ns->v = nv;
                        ns->cap = ncap;
                }
                ns->v[ns->n] = strdup(de->d_name);
                if (ns->v[ns->n] == NULL) {
                        closedir(d);
                        return prc_err_oom(err, "a directory listing");
                }
                ns->n++;
        }
        if (errno != 0) {
                int e = errno;
                closedir(d);
                if (e == EACCES || e == EPERM)
                        return prc_err_sys(err, PRC_E_INV_UNREADABLE, e, "cannot list '%s'", rel);
                return prc_err_sys(err, PRC_E_IO, e, "cannot list '%s'", rel);
        }
        closedir(d);
        return true;
}

/* rel holds the directory's path (len bytes, "" for the root); room for PRC_PATH_MAX + NAME_MAX + 2. */
static bool walk_dir(prc_inventory *inv, int dfd, char *rel, size_t len, bool no_exclude, prc_err *err)
{
        struct names ns = { 0 };
        bool ok = false;

        if (!read_names(dfd, len ? rel : ".", &ns, err))
                goto out;
        for (size_t i = 0; i < ns.n; i++) {
                const char *name = ns.v[i];
                size_t nlen = strlen(name), plen = len ? len + 1 + nlen : nlen;
                struct stat st, st2;
                prc_err perr;
                int cfd;
                bool valid;

                if (len == 0 && !no_exclude && is_excluded(name)) {
                        for (size_t k = 0; k < PRC_ARRAY_LEN(excluded_names); k++)
                                if (strcmp(name, excluded_names[k]) == 0)
                                        inv->excluded[inv->nexcluded++] = excluded_names[k];
                        continue;
                }
                if (len)
                        rel[len] = '/';
                memcpy(rel + (len ? len + 1 : 0), name, nlen);
                rel[plen] = '\0';
                prc_err_init(&perr);
                valid = prc_path_check(rel, plen, &perr);
                if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                        int e = errno;
                        /* Never put raw control bytes of a hostile name into a message. */
                        char *shown = valid ? NULL : prc_inventory_escape(rel, plen);
                        const char *p = shown != NULL ? shown : valid ? rel : "(unprintable name)";
                        if (e == ENOENT)
                                prc_err_set(err, PRC_E_INV_TREE_CHANGED, "'%s' vanished during the walk", p);
                        else if (e == EACCES || e == EPERM)
                                prc_err_sys(err, PRC_E_INV_UNREADABLE, e, "cannot stat '%s'", p);
                        else
                                prc_err_sys(err, PRC_E_IO, e, "cannot stat '%s'", p);
                        free(shown);
                        goto out;
                }
                if (S_ISSOCK(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
                        /* Counted, never opened: opening a fifo could block, a device could be anything. */
                        if (S_ISSOCK(st.st_mode))
                                inv->skipped.socket++;
                        else if (S_ISFIFO(st.st_mode))
                                inv->skipped.fifo++;
                        else if (S_ISCHR(st.st_mode))
                                inv->skipped.char_device++;
                        else
                                inv->skipped.block_device++;
                        continue;
                }
                if (!valid) {
                        const char *kind = S_ISDIR(st.st_mode) ? "directory" : S_ISLNK(st.st_mode) ? "symlink" : "file";
                        if (!add_unrep(inv, rel, plen, perr.cls, kind, err))
                                goto out;
                        continue;
                }
                if (S_ISLNK(st.st_mode)) {
                        if (!add_entry(inv, rel, plen, &st, PRC_INV_SYMLINK, err))
                                goto out;
                        continue;
                }
                if (S_ISREG(st.st_mode)) {
                        if (!add_entry(inv, rel, plen, &st, PRC_INV_FILE, err))
                                goto out;
                        continue;
                }
                if (!S_ISDIR(st.st_mode)) {
                        prc_err_set(err, PRC_E_INTERNAL, "'%s' has an unknown file type 0%o", rel,
                                    (unsigned)(st.st_mode & S_IFMT));
                        goto out;
                }
                prc_inv_hook_call(PRC_INV_HOOK_DIR_STATED, rel);
                cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
                if (cfd < 0) {
                        if (errno == ELOOP || errno == ENOTDIR || errno == ENOENT)
                                prc_err_sys(err, PRC_E_INV_TREE_CHANGED, errno,
                                            "directory '%s' was replaced between stat and open", rel);
                        else if (errno == EACCES || errno == EPERM)
                                prc_err_sys(err, PRC_E_INV_UNREADABLE, errno, "cannot open directory '%s'", rel);
                        else
                                prc_err_sys(err, PRC_E_IO, errno, "cannot open directory '%s'", rel);
                        goto out;
                }
                if (fstat(cfd, &st2) != 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
                        close(cfd);
                        prc_err_set(err, PRC_E_INV_TREE_CHANGED, "directory '%s' was replaced between stat and open",
                                    rel);
                        goto out;
                }
                ok = walk_dir(inv, cfd, rel, plen, no_exclude, err);
                close(cfd);
                if (!ok)
                        goto out;
                ok = false;
                rel[len] = '\0';
        }
        ok = true;
out:
        names_free(&ns);
        return ok;
}

static int ent_cmp(const void *a, const void *b)
{
        return strcmp(((const struct ent *)a)->path, ((const struct ent *)b)->path);
}

static int unrep_cmp(const void *a, const void *b)
{
        return strcmp(((const struct unrep *)a)->raw, ((const struct unrep *)b)->raw);
}

/* Pool job: hash regular file ents[job] beneath the root. */
static bool hash_job(void *ctx, size_t job, prc_pool_worker *w)
{
        prc_inventory *inv = ctx;
        struct ent *e = &inv->ents[job];
        uint8_t d[PRC_SHA256_LEN];
        struct stat st;
        bool ok;
        int fd;

        fd = prc_safe_openat(inv->rootfd, e->path, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
        if (fd < 0) {
                if (errno == EACCES || errno == EPERM)
                        return prc_err_sys(&w->err, PRC_E_INV_UNREADABLE, errno, "cannot open '%s'", e->path);
                if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
                        return prc_err_sys(&w->err, PRC_E_INV_TREE_CHANGED, errno,
                                           "'%s' was replaced or removed before it was hashed", e->path);
                return prc_err_sys(&w->err, PRC_E_IO, errno, "cannot open '%s'", e->path);
        }
        if (fstat(fd, &st) != 0) {
                close(fd);
                return prc_err_sys(&w->err, PRC_E_IO, errno, "cannot stat '%s'", e->path);
        }
        if (!S_ISREG(st.st_mode) || st.st_dev != e->dev || st.st_ino != e->ino) {
                close(fd);
                return prc_err_set(&w->err, PRC_E_INV_TREE_CHANGED, "'%s' was replaced before it was hashed",
                                   e->path);
        }
        /* The size hashed is the size at open; the walk's lstat may be older. */
        e->pub.size = (uint64_t)st.st_size;
        e->pub.executable = (st.st_mode & S_IXUSR) != 0;
        e->pub.oversized = e->pub.size > PRC_INV_OVERSIZED;
        ok = prc_pool_stream(w, fd, &st, -1, e->path, PRC_E_INV_FILE_CHANGED, PRC_INV_HOOK_HASH_READ, d, &w->err);
        close(fd);
        if (ok)
                prc_hex_encode(d, sizeof(d), e->pub.sha256);
        return ok;
}

static int order_cmp(const void *a, const void *b, void *arg)
{
        const struct ent *ents = arg;
        uint64_t sa = ents[*(const size_t *)a].pub.size, sb = ents[*(const size_t *)b].pub.size;

        if (sa != sb)
                return sa > sb ? -1 : 1;
        return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static bool hash_all(prc_inventory *inv, unsigned threads, prc_err *err)
{
        size_t nfiles = 0, *order;
        bool ok;

        order = malloc((inv->nents ? inv->nents : 1) * sizeof(*order));
        if (order == NULL)
                return prc_err_oom(err, "the hashing order");
        for (size_t i = 0; i < inv->nents; i++)
                if (inv->ents[i].pub.type == PRC_INV_FILE)
                        order[nfiles++] = i;
        /* Largest first: the last job to finish is a small one, so both cores stay busy. */
        if (nfiles > 1)
                qsort_r(order, nfiles, sizeof(*order), order_cmp, inv->ents);
        ok = prc_pool_run(threads, nfiles, order, hash_job, inv, NULL, err);
        free(order);
        return ok;
}

static bool build_doc(prc_inventory *inv, prc_err *err)
{
        json_t *doc = NULL, *ents = NULL, *unreps = NULL, *excl = NULL, *skipped = NULL;
        bool ok = false;

        ents = json_array();
        unreps = json_array();
        excl = json_array();
        skipped = json_pack("{s:I,s:I,s:I,s:I}", "block_device", (json_int_t)inv->skipped.block_device,
                            "char_device", (json_int_t)inv->skipped.char_device, "fifo",
                            (json_int_t)inv->skipped.fifo, "socket", (json_int_t)inv->skipped.socket);
        if (ents == NULL || unreps == NULL || excl == NULL || skipped == NULL)
                goto oom;
        inv->total_bytes = 0;
        for (size_t i = 0; i < inv->nents; i++) {
                const prc_inv_entry *e = &inv->ents[i].pub;
                json_t *o;
                if (e->type == PRC_INV_FILE)
                        inv->total_bytes += e->size;
                if (e->type == PRC_INV_FILE)
                        o = json_pack("{s:s,s:s,s:I,s:s,s:b,s:b}", "path", e->path, "type", "file", "size",
                                      (json_int_t)e->size, "sha256", e->sha256, "executable", e->executable,
                                      "oversized", e->oversized);
                else
                        o = json_pack("{s:s,s:s}", "path", e->path, "type", "symlink");
                if (o == NULL || json_array_append_new(ents, o) != 0)
                        goto oom;
        }
        for (size_t i = 0; i < inv->nunreps; i++) {
                const prc_inv_unrep *u = &inv->unreps[i].pub;
                json_t *o = json_pack("{s:s,s:s,s:s}", "raw", u->raw, "reason", u->reason, "kind", u->kind);
                if (o == NULL || json_array_append_new(unreps, o) != 0)
                        goto oom;
        }
        for (size_t i = 0; i < inv->nexcluded; i++)
                if (json_array_append_new(excl, json_string(inv->excluded[i])) != 0)
                        goto oom;
        doc = json_pack("{s:s,s:o,s:o,s:o,s:o}", "schema", PRC_INVENTORY_SCHEMA, "entries", ents, "skipped",
                        skipped, "excluded", excl, "unrepresentable", unreps);
        ents = unreps = excl = skipped = NULL;  /* json_pack "o" steals even on failure */
        if (doc == NULL)
                goto oom;
        /* The digest covers every field but itself (docs/inventory.md). */
        if (!prc_jcs_digest(doc, inv->digest, err))
                goto out;
        if (json_object_set_new(doc, "inventory_digest", json_string(inv->digest)) != 0)
                goto oom;
        inv->doc = doc;
        doc = NULL;
        ok = true;
        goto out;
oom:
        prc_err_oom(err, "the inventory document");
out:
        json_decref(doc);
        json_decref(ents);
        json_decref(unreps);
        json_decref(excl);
        json_decref(skipped);
        return ok;
}

static int cstr_cmp(const void *a, const void *b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool prc_inventory_build_at(int dirfd, const prc_inventory_opts *opts, prc_inventory **out, prc_err *err)
{
        static const prc_inventory_opts defaults = { 0 };
        prc_inventory *inv;
        char *rel = NULL;
        struct stat st;
        bool ok = false;

        if (opts == NULL)
                opts = &defaults;
        inv = calloc(1, sizeof(*inv));
        if (inv == NULL)
                return prc_err_oom(err, "the inventory");
        inv->max_entries = opts->max_entries ? opts->max_entries : PRC_INV_MAX_ENTRIES;
        inv->rootfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
        if (inv->rootfd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot duplicate the root descriptor");
                goto out;
        }
        if (fstat(inv->rootfd, &st) != 0 || !S_ISDIR(st.st_mode)) {
                prc_err_set(err, PRC_E_IO, "the target root is not a directory");
                goto out;
        }
        /* The walk never descends into a directory whose path is invalid, so this bounds rel. */
        rel = malloc(PRC_PATH_MAX + NAME_MAX + 2);
        if (rel == NULL) {
                prc_err_oom(err, "the inventory");
                goto out;
        }
        rel[0] = '\0';
        if (!walk_dir(inv, inv->rootfd, rel, 0, opts->no_exclude, err))
                goto out;
        if (inv->nents > 1)
                qsort(inv->ents, inv->nents, sizeof(*inv->ents), ent_cmp);
        if (inv->nunreps > 1)
                qsort(inv->unreps, inv->nunreps, sizeof(*inv->unreps), unrep_cmp);
        if (inv->nexcluded > 1)
                qsort(inv->excluded, inv->nexcluded, sizeof(inv->excluded[0]), cstr_cmp);
        if (!hash_all(inv, opts->threads ? opts->threads : prc_pool_default_threads(), err))
                goto out;
        if (!build_doc(inv, err))
                goto out;
        ok = true;
out:
        free(rel);
        if (!ok) {
                prc_inventory_free(inv);
                return false;
        }
        *out = inv;
        return true;
}

bool prc_inventory_build(const char *root, const prc_inventory_opts *opts, prc_inventory **out, prc_err *err)
{
        int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
        bool ok;

        if (fd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open target directory '%s'", root);
                prc_err_set_file(err, root);
                return false;
        }
        ok = prc_inventory_build_at(fd, opts, out, err);
        close(fd);
        return ok;
}

void prc_inventory_free(prc_inventory *inv)
{
        if (inv == NULL)
                return;
        for (size_t i = 0; i < inv->nents; i++)
                free(inv->ents[i].path);
        for (size_t i = 0; i < inv->nunreps; i++)
                free(inv->unreps[i].raw);
        free(inv->ents);
        free(inv->unreps);
        json_decref(inv->doc);
        if (inv->rootfd > 0)
                close(inv->rootfd);
        free(inv);
}

size_t prc_inventory_count(const prc_inventory *inv)
{
        return inv->nents;
}

const prc_inv_entry *prc_inventory_entry(const prc_inventory *inv, size_t i)
{
        if (i >= inv->nents)
                prc_bug("inventory entry index out of range");
        return &inv->ents[i].pub;
}

long prc_inventory_find(const prc_inventory *inv, const char *path)
{
        size_t lo = 0, hi = inv->nents;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = strcmp(inv->ents[mid].path, path);
                if (c == 0)
                        return (long)mid;
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return -1;
}

const prc_inv_skipped *prc_inventory_skipped(const prc_inventory *inv)
{
        return &inv->skipped;
}

size_t prc_inventory_unrep_count(const prc_inventory *inv)
{
        return inv->nunreps;
}

const prc_inv_unrep *prc_inventory_unrep(const prc_inventory *inv, size_t i)
{
        if (i >= inv->nunreps)
                prc_bug("unrepresentable index out of range");
        return &inv->unreps[i].pub;
}

size_t prc_inventory_excluded_count(const prc_inventory *inv)
{
        return inv->nexcluded;
}

const char *prc_inventory_excluded(const prc_inventory *inv, size_t i)
{
        if (i >= inv->nexcluded)
                prc_bug("excluded index out of range");
        return inv->excluded[i];
}

bool prc_inventory_complete(const prc_inventory *inv)
{
        return inv->nunreps == 0;
}

uint64_t prc_inventory_total_bytes(const prc_inventory *inv)
{
        return inv->total_bytes;
}

const char *prc_inventory_digest(const prc_inventory *inv)
{
        return inv->digest;
}

const json_t *prc_inventory_to_json(const prc_inventory *inv)
{
        return inv->doc;
}

int prc_inventory_root_fd(const prc_inventory *inv)
{
        return inv->rootfd;
}

bool prc_inventory_read(const prc_inventory *inv, const char *path, size_t max, prc_buf *out, prc_err *err)
{
        long i = prc_inventory_find(inv, path);
        const prc_inv_entry *e;
        char hex[PRC_SHA256_HEX + 1];
        struct stat st;
        int fd;
        bool ok;

        if (i < 0 || inv->ents[i].pub.type != PRC_INV_FILE)
                return prc_err_set(err, PRC_E_INV_NO_SUCH_ENTRY, "'%s' is not a file of the inventory", path);
        e = &inv->ents[i].pub;
        if (e->size > max)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "'%s' has %llu bytes, more than %zu", path,
                                   (unsigned long long)e->size, max);
        fd = prc_safe_openat(inv->rootfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
        if (fd < 0) {
                if (errno == EACCES || errno == EPERM)
                        return prc_err_sys(err, PRC_E_INV_UNREADABLE, errno, "cannot open '%s'", path);
                if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
                        return prc_err_sys(err, PRC_E_INV_MISMATCH, errno, "'%s' is no longer the inventoried file",
                                           path);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", path);
        }
        if (fstat(fd, &st) != 0) {
                close(fd);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", path);
        }
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != e->size) {
                close(fd);
                return prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried type or size", path);
        }
        prc_buf_reset(out);
        /* One byte more than the inventoried size: a file that grew is seen as a mismatch. */
        ok = prc_fd_read_all(fd, (size_t)e->size + 1, out, err);
        close(fd);
        if (ok && out->len != e->size)
                ok = prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' changed size since the inventory", path);
        if (ok)
                ok = prc_sha256_hex_once(out->data, out->len, hex, err);
        if (ok && strcmp(hex, e->sha256) != 0)
                ok = prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried SHA-256", path);
        if (!ok)
                prc_buf_reset(out);
        return ok;
}
