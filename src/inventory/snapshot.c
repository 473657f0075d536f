/*
 * snapshot.c - private verified copy of an inventory (see snapshot.h and
 * docs/inventory.md).
 *
 * Trust: the source tree is hostile and may change during the copy: every
 * source file is reopened beneath the inventory's root descriptor with no
 * symlink in any component, and its bytes are hashed as they are written,
 * so the copy is exactly the bytes the inventory describes or the create
 * fails.  The snapshot tree is ours and private (0700); it is addressed
 * through descriptors, and removed without following anything in it.
 */
#include "inventory/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/path.h"
#include "inventory/pool.h"
#include "inventory/safeopen.h"

struct owned {
        char    *path;  /* owned */
        char    *from;  /* owned; NULL for bytes added by a protocol */
        uint64_t size;
        char     sha256[PRC_SHA256_HEX + 1];
        bool     executable;
};

/* One sealed entry: what verify expects on disk. */
struct mem_ent {
        const char *path;       /* in s->arena after seal (borrowed while it is built) */
        uint64_t    size;
        const char *sha256;
        bool        executable;
};

struct prc_snapshot {
        const prc_inventory *inv;       /* borrowed: must outlive the snapshot */
        char         *path;             /* owned: the directory as given or made */
        int           parentfd;         /* owned: the directory holding it */
        char         *name;             /* owned: its name in parentfd */
        int           fd;               /* owned: the snapshot directory */
        dev_t         dev;              /* its filesystem */
        uint64_t      ceiling;
        atomic_uint_least64_t total;    /* bytes written so far */
        unsigned      threads;
        struct owned *owned;            /* owned, nowned used */
        size_t        nowned;
        bool          sealed, kept, removed;
        json_t       *doc;              /* owned, after seal */
        struct mem_ent *exp;            /* owned, after seal: the entries in path order */
        char         *arena;            /* owned: the strings exp points to */
        size_t        nexp;
        char          digest[PRC_SHA256_HEX + 1];
};

/* ---- removal ---------------------------------------------------------- */

static bool rm_contents(int fd, int depth, prc_err *err)
{
        int dfd;
        DIR *d;
        struct dirent *de;
        char **names = NULL;
        size_t n = 0, cap = 0;
        bool ok = false;

        if (depth > PRC_PATH_DEPTH_MAX + 1)
                return prc_err_set(err, PRC_E_IO, "snapshot tree deeper than %d levels", PRC_PATH_DEPTH_MAX);
        dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);   /* own read position */
        if (dfd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot duplicate a descriptor");
        d = fdopendir(dfd);
        if (d == NULL) {
                close(dfd);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot list a snapshot directory");
        }
        while ((de = readdir(d)) != NULL) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (n == cap) {
                        size_t ncap = cap ? cap * 2 : 32;
                        char **nn = realloc(names, ncap * sizeof(*nn));
                        if (nn == NULL) {
                                prc_err_oom(err, "a directory listing");
                                goto out;
                        }
                        names = nn;
                        cap = ncap;
                }
                names[n] = strdup(de->d_name);
                if (names[n] == NULL) {
                        prc_err_oom(err, "a directory listing");
                        goto out;
                }
                n++;
        }
        for (size_t i = 0; i < n; i++) {
                int cfd;
                if (unlinkat(fd, names[i], 0) == 0)
                        continue;
                if (errno != EISDIR && errno != EPERM) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot remove '%s' from the snapshot", names[i]);
                        goto out;
                }
                cfd = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (cfd < 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s' in the snapshot", names[i]);
                        goto out;
                }
                (void)fchmod(cfd, 0700);        /* best effort: a failure shows up as the unlink's error */
                ok = rm_contents(cfd, depth + 1, err);
                close(cfd);
                if (!ok)
                        goto out;
                ok = false;
                if (unlinkat(fd, names[i], AT_REMOVEDIR) != 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot remove directory '%s' from the snapshot", names[i]);
                        goto out;
                }
        }
        ok = true;
out:
        for (size_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
        closedir(d);
        return ok;
}

bool prc_snapshot_rmtree_at(int dirfd, const char *name, prc_err *err)
{
        int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        bool ok;

        if (fd < 0) {
                if (errno == ENOENT)
                        return true;
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open snapshot directory '%s'", name);
        }
        (void)fchmod(fd, 0700);         /* best effort, as in rm_contents */
        ok = rm_contents(fd, 0, err);
        close(fd);
        if (ok && unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot remove snapshot directory '%s'", name);
        return ok;
}

static void unlink_sealed(prc_snapshot *s);

bool prc_snapshot_remove(prc_snapshot *s, prc_err *err)
{
        if (s->removed)
                return true;
        if (s->fd >= 0 && s->sealed)
                unlink_sealed(s);       /* the bulk, on the pool; the tree walk below removes the rest */
        if (s->fd >= 0) {
                close(s->fd);
                s->fd = -1;
        }
        if (!prc_snapshot_rmtree_at(s->parentfd, s->name, err))
                return false;
        s->removed = true;
        return true;
}

void prc_snapshot_keep(prc_snapshot *s)
{
        s->kept = true;
}

void prc_snapshot_free(prc_snapshot *s)
{
        if (s == NULL)
                return;
        if (!s->kept && !s->removed && s->name != NULL && s->parentfd >= 0) {
                prc_err e;
                prc_err_init(&e);
                if (!prc_snapshot_remove(s, &e)) {
                        /* A destructor has no one to report to; the tree stays private (0700). */
                }
        }
        if (s->fd >= 0)
                close(s->fd);
        if (s->parentfd >= 0)
                close(s->parentfd);
        for (size_t i = 0; i < s->nowned; i++) {
                free(s->owned[i].path);
                free(s->owned[i].from);
        }
        free(s->owned);
        free(s->exp);
        free(s->arena);
        json_decref(s->doc);
        free(s->path);
        free(s->name);
        free(s);
}

/* ---- create ----------------------------------------------------------- */

static bool reserve(prc_snapshot *s, uint64_t n, const char *what, prc_err *err)
{
        uint64_t before = atomic_fetch_add(&s->total, n);

        if (before + n < before || before + n > s->ceiling)
                return prc_err_set(err, PRC_E_SNAP_TOO_LARGE, "adding '%s' would take the snapshot past %llu bytes",
                                   what, (unsigned long long)s->ceiling);
        return true;
}

/* Create rel beneath s->fd for writing (O_EXCL), making its parent directories 0700. */
static int create_dst(prc_snapshot *s, const char *rel, prc_err *err)
{
        int fd = prc_safe_openat(s->fd, rel, O_RDWR | O_CREAT | O_EXCL, 0600);

        if (fd < 0 && errno == ENOENT) {
                if (prc_safe_mkdir_parents(s->fd, rel, 0700) != 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot create the directories of '%s' in the snapshot", rel);
                        return -1;
                }
                fd = prc_safe_openat(s->fd, rel, O_RDWR | O_CREAT | O_EXCL, 0600);
        }
        if (fd < 0)
                prc_err_sys(err, errno == EEXIST || errno == ENOTDIR ? PRC_E_SNAP_OWNED_PATH : PRC_E_IO, errno,
                            "cannot create '%s' in the snapshot", rel);
        return fd;
}

/*
 * The copy runs per directory: a job is up to COPY_CHUNK consecutive
 * inventory files of one directory (path order).  The job opens that
 * source directory once beneath the inventory root and the snapshot
 * directory once beneath the snapshot (prc_safe_openat: no symlink, no
 * "..", no escape), then each file by its single name relative to those
 * descriptors with O_NOFOLLOW.  Equally safe as resolving every path from
 * the root: a single validated name cannot leave the directory, and
 * O_NOFOLLOW refuses a final symlink, so every component was still opened
 * without following a link; only the per-file multi-component lookups go.
 */
enum { COPY_CHUNK = 256 };

struct cchunk {
        size_t start, end;      /* copy->idx[start..end) */
        size_t dirlen;          /* bytes of the directory prefix; 0 = the root */
};

struct copy {
        prc_snapshot  *s;
        size_t        *idx;     /* borrowed: inventory indices of the files, path order */
        struct cchunk *chunks;
        size_t         nchunks;
};

static size_t dir_len(const char *path)
{
        const char *slash = strrchr(path, '/');
        return slash ? (size_t)(slash - path) : 0;
}

/* Open the directory rel[0..len) beneath root (root itself when len is 0: a private duplicate). */
static int open_dir_prefix(int root, const char *rel, size_t len)
{
        char *dir;
        int fd;

        if (len == 0)
                return openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dir = strndup(rel, len);
        if (dir == NULL) {
                errno = ENOMEM;
                return -1;
        }
        fd = prc_safe_openat(root, dir, O_RDONLY | O_DIRECTORY, 0);
        free(dir);
        return fd;
}

static bool source_open_error(prc_pool_worker *w, int e, const char *path)
{
        if (e == EACCES || e == EPERM)
                return prc_err_sys(&w->err, PRC_E_INV_UNREADABLE, e, "cannot open '%s'", path);
        if (e == ENOENT || e == ELOOP || e == ENOTDIR || e == EXDEV)
                return prc_err_sys(&w->err, PRC_E_SNAP_SOURCE_CHANGED, e,
                                   "'%s' was removed or now resolves through a symlink", path);
        return prc_err_sys(&w->err, PRC_E_IO, e, "cannot open '%s'", path);
}

static bool copy_file(prc_snapshot *s, const prc_inv_entry *e, int sdfd, int ddfd, const char *name,
                      prc_pool_worker *w)
{
        uint8_t d[PRC_SHA256_LEN];
        char hex[PRC_SHA256_HEX + 1];
        struct stat st;
        int src, dst = -1;
        bool ok = false;

        src = openat(sdfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
        if (src < 0)
                return source_open_error(w, errno, e->path);
        if (fstat(src, &st) != 0) {
                prc_err_sys(&w->err, PRC_E_IO, errno, "cannot stat '%s'", e->path);
                goto out;
        }
        if (!S_ISREG(st.st_mode)) {
                prc_err_set(&w->err, PRC_E_SNAP_SOURCE_CHANGED, "'%s' is no longer a regular file", e->path);
                goto out;
        }
        if ((uint64_t)st.st_size != e->size) {
                prc_err_set(&w->err, PRC_E_SNAP_SOURCE_CHANGED, "'%s' has %llu bytes, the inventory says %llu",
                            e->path, (unsigned long long)st.st_size, (unsigned long long)e->size);
                goto out;
        }
        if (!reserve(s, e->size, e->path, &w->err))
                goto out;
        dst = openat(ddfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (dst < 0) {
                prc_err_sys(&w->err, errno == EEXIST ? PRC_E_SNAP_OWNED_PATH : PRC_E_IO, errno,
                            "cannot create '%s' in the snapshot", e->path);
                goto out;
        }
        /*
         * Across filesystems (the source on disk, the snapshot on tmpfs) the
         * kernel refuses copy_file_range with EXDEV: go through user space at
         * once instead of paying the refused call per file.
         */
        if (!(st.st_dev != s->dev
                      ? prc_pool_stream(w, src, &st, dst, e->path, PRC_E_SNAP_SOURCE_CHANGED, PRC_INV_HOOK_COPY_READ, d,
                                        &w->err)
                      : prc_pool_copy(w, src, &st, dst, e->path, PRC_E_SNAP_SOURCE_CHANGED, PRC_INV_HOOK_COPY_READ, d,
                                      &w->err)))
                goto out;
        prc_hex_encode(d, sizeof(d), hex);
        if (strcmp(hex, e->sha256) != 0) {
                prc_err_set(&w->err, PRC_E_SNAP_SOURCE_CHANGED, "'%s' no longer has the inventoried SHA-256", e->path);
                goto out;
        }
        if (fchmod(dst, e->executable ? 0500 : 0400) != 0) {
                prc_err_sys(&w->err, PRC_E_IO, errno, "cannot set the mode of '%s' in the snapshot", e->path);
                goto out;
        }
        ok = true;
out:
        if (dst >= 0 && close(dst) != 0 && ok)
                ok = prc_err_sys(&w->err, PRC_E_IO, errno, "cannot write '%s' in the snapshot", e->path);
        close(src);
        return ok;
}

/* tmpfs's statfs magic (linux/magic.h), spelled out to keep that header out. */
enum { SNAP_TMPFS_MAGIC = 0x01021994 };

static bool private_tmpfs(const char *dir, bool own, uint64_t bytes)
{
        struct stat st;
        struct statfs fs;
        uint64_t avail;

        if (dir == NULL || dir[0] != '/' || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
                return false;
        if (own ? st.st_uid != getuid() || (st.st_mode & 077) != 0
                : st.st_uid != 0 || (st.st_mode & S_ISVTX) == 0)
                return false;
        if (statfs(dir, &fs) != 0 || (unsigned long)fs.f_type != SNAP_TMPFS_MAGIC)
                return false;
        if (access(dir, W_OK | X_OK) != 0)      /* a read-only /dev/shm falls back to $TMPDIR, not an error */
                return false;
        avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize;
        return bytes <= PRC_SNAPSHOT_TMPFS_MAX && avail / 2 >= bytes + ((uint64_t)32 << 20);
}

const char *prc_snapshot_tmpfs_parent(uint64_t bytes)
{
        const char *xdg = getenv("XDG_RUNTIME_DIR");

        if (private_tmpfs(xdg, true, bytes))
                return xdg;
        if (private_tmpfs("/dev/shm", false, bytes))
                return "/dev/shm";
        return NULL;
}

static bool copy_job(void *ctx, size_t job, prc_pool_worker *w)
{
        const struct copy *c = ctx;
        const struct cchunk *ch = &c->chunks[job];
        prc_snapshot *s = c->s;
        const prc_inv_entry *first = prc_inventory_entry(s->inv, c->idx[ch->start]);
        int sdfd, ddfd;
        bool ok = true;

        sdfd = open_dir_prefix(prc_inventory_root_fd(s->inv), first->path, ch->dirlen);
        if (sdfd < 0)
                return source_open_error(w, errno, first->path);
        if (ch->dirlen > 0 && prc_safe_mkdir_parents(s->fd, first->path, 0700) != 0) {
                prc_err_sys(&w->err, errno == ENOTDIR || errno == EEXIST ? PRC_E_SNAP_OWNED_PATH : PRC_E_IO, errno,
                            "cannot create the directories of '%s' in the snapshot", first->path);
                close(sdfd);
                return false;
        }
        ddfd = open_dir_prefix(s->fd, first->path, ch->dirlen);
        if (ddfd < 0) {
                prc_err_sys(&w->err, PRC_E_IO, errno, "cannot open the directory of '%s' in the snapshot",
                            first->path);
                close(sdfd);
                return false;
        }
        for (size_t i = ch->start; ok && i < ch->end; i++) {
                const prc_inv_entry *e = prc_inventory_entry(s->inv, c->idx[i]);
                if (w->cancel != NULL && *w->cancel)
                        ok = prc_err_set(&w->err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                else
                        ok = copy_file(s, e, sdfd, ddfd, e->path + (ch->dirlen ? ch->dirlen + 1 : 0), w);
        }
        close(ddfd);
        close(sdfd);
        return ok;
}

/*
 * Issue 20: an archive target's inventory has no directory to copy from.
 * Its files are built from the members, one at a time on this thread (the
 * source reads through the content worker's client, which is not
 * thread-safe): each read is checked against the inventoried size and
 * SHA-256 by prc_inventory_read, then written here.  Nothing is ever
 * extracted from the archive on the host.
 */
static bool copy_listing(prc_snapshot *s, const volatile sig_atomic_t *cancel, prc_err *err)
{
        prc_buf b;
        bool ok = true;

        prc_buf_init(&b, PRC_SNAPSHOT_CEILING);
        for (size_t i = 0; ok && i < prc_inventory_count(s->inv); i++) {
                const prc_inv_entry *e = prc_inventory_entry(s->inv, i);
                size_t off = 0;
                int dst;

                if (e->type != PRC_INV_FILE)
                        continue;
                if (cancel != NULL && *cancel) {
                        ok = prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                        break;
                }
                if (!reserve(s, e->size, e->path, err) ||
                    !prc_inventory_read(s->inv, e->path, (size_t)e->size, &b, err)) {
                        ok = false;
                        break;
                }
                dst = create_dst(s, e->path, err);
                if (dst < 0) {
                        ok = false;
                        break;
                }
                while (ok && off < b.len) {
                        ssize_t w = write(dst, b.data + off, b.len - off);
                        if (w < 0 && errno == EINTR)
                                continue;
                        if (w <= 0)
                                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot write '%s' in the snapshot", e->path);
                        else
                                off += (size_t)w;
                }
                if (ok && fchmod(dst, e->executable ? 0500 : 0400) != 0)
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot set the mode of '%s' in the snapshot",
                                         e->path);
                if (close(dst) != 0 && ok)
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot write '%s' in the snapshot", e->path);
        }
        prc_buf_clear(&b);
        return ok;
}

/* Make the snapshot directory: out_dir must not exist; NULL = mkdtemp under parent, $TMPDIR or /tmp. */
static bool make_dir(prc_snapshot *s, const char *out_dir, const char *tmp, prc_err *err)
{
        char *copy, *slash;
        const char *parent;

        if (out_dir == NULL) {
                size_t n;
                if (tmp == NULL || tmp[0] != '/')
                        tmp = getenv("TMPDIR");
                if (tmp == NULL || tmp[0] != '/')
                        tmp = "/tmp";
                n = strlen(tmp) + sizeof("/prc-snapshot-XXXXXX");
                s->path = malloc(n);
                if (s->path == NULL)
                        return prc_err_oom(err, "the snapshot path");
                snprintf(s->path, n, "%s/prc-snapshot-XXXXXX", tmp);
                if (mkdtemp(s->path) == NULL) {
                        /* The parent by its role: the message can reach a run result (issue 16). */
                        prc_err_sys(err, PRC_E_IO, errno, "cannot create a snapshot directory in the snapshot's "
                                    "parent directory");
                        prc_err_set_file(err, tmp);
                        return false;
                }
        } else {
                size_t n = strlen(out_dir);
                while (n > 1 && out_dir[n - 1] == '/')
                        n--;
                s->path = strndup(out_dir, n);
                if (s->path == NULL)
                        return prc_err_oom(err, "the snapshot path");
        }
        copy = strdup(s->path);
        if (copy == NULL)
                return prc_err_oom(err, "the snapshot path");
        slash = strrchr(copy, '/');
        if (slash == NULL) {
                parent = ".";
                s->name = strdup(copy);
        } else {
                s->name = strdup(slash + 1);
                *slash = '\0';
                parent = slash == copy ? "/" : copy;
        }
        if (s->name == NULL) {
                free(copy);
                return prc_err_oom(err, "the snapshot path");
        }
        if (s->name[0] == '\0' || strcmp(s->name, ".") == 0 || strcmp(s->name, "..") == 0) {
                free(copy);
                free(s->name);
                s->name = NULL;
                return prc_err_set(err, PRC_E_SNAP_OUT_EXISTS, "'%s' names an existing directory", s->path);
        }
        s->parentfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (s->parentfd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the snapshot's parent directory");
                prc_err_set_file(err, parent);
                free(copy);
                free(s->name);
                s->name = NULL;         /* nothing of ours to remove */
                return false;
        }
        free(copy);
        if (out_dir != NULL && mkdirat(s->parentfd, s->name, 0700) != 0) {
                int e = errno;
                free(s->name);
                s->name = NULL;         /* not ours: never remove it */
                if (e == EEXIST)
                        return prc_err_set(err, PRC_E_SNAP_OUT_EXISTS, "'%s' already exists", s->path);
                return prc_err_sys(err, PRC_E_IO, e, "cannot create '%s'", s->path);
        }
        s->fd = openat(s->parentfd, s->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        /* The snapshot by its role, its path only in err->file: a message can reach a run result. */
        struct stat st;
        const char *failed = NULL;
        int e = 0;
        if (s->fd < 0)
                failed = "open", e = errno;
        else if (fchmod(s->fd, 0700) != 0)
                failed = "set the mode of", e = errno;
        else if (fstat(s->fd, &st) != 0)
                failed = "stat", e = errno;
        if (failed != NULL) {
                prc_err_sys(err, PRC_E_IO, e, "cannot %s the snapshot directory", failed);
                prc_err_set_file(err, s->path);
                return false;
        }
        s->dev = st.st_dev;
        return true;
}

bool prc_snapshot_create(const prc_inventory *inv, const char *out_dir, const prc_snapshot_opts *opts,
                         prc_snapshot **out, prc_err *err)
{
        static const prc_snapshot_opts defaults = { 0 };
        prc_snapshot *s;
        size_t nfiles = 0, *order = NULL, n = prc_inventory_count(inv), nchunks = 0;
        struct cchunk *chunks = NULL;
        bool ok = false;

        if (opts == NULL)
                opts = &defaults;
        s = calloc(1, sizeof(*s));
        if (s == NULL)
                return prc_err_oom(err, "the snapshot");
        s->inv = inv;
        s->fd = -1;
        s->parentfd = -1;
        s->ceiling = opts->ceiling && opts->ceiling < PRC_SNAPSHOT_CEILING ? opts->ceiling : PRC_SNAPSHOT_CEILING;
        s->threads = opts->threads ? opts->threads : prc_pool_default_threads();
        atomic_init(&s->total, 0);
        if (opts->cancel != NULL && *opts->cancel) {
                prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                goto out;
        }
        /* Fail before writing anything when the inventory alone is over the ceiling. */
        if (prc_inventory_total_bytes(inv) > s->ceiling) {
                prc_err_set(err, PRC_E_SNAP_TOO_LARGE, "the inventory holds %llu bytes, the snapshot ceiling is %llu",
                            (unsigned long long)prc_inventory_total_bytes(inv), (unsigned long long)s->ceiling);
                goto out;
        }
        if (!make_dir(s, out_dir, opts->parent, err))
                goto out;
        if (prc_inventory_is_listing(inv)) {
                ok = copy_listing(s, opts->cancel, err);
                goto out;
        }
        order = malloc((n ? n : 1) * sizeof(*order));
        if (order == NULL) {
                prc_err_oom(err, "the copy order");
                goto out;
        }
        /*
         * Path order, not largest first: files of one directory are created
         * together, which is what the filesystem's inode allocator is good
         * at (measured: half the system time of size order on ext4).
         */
        for (size_t i = 0; i < n; i++)
                if (prc_inventory_entry(inv, i)->type == PRC_INV_FILE)
                        order[nfiles++] = i;
        chunks = malloc((nfiles ? nfiles : 1) * sizeof(*chunks));
        if (chunks == NULL) {
                prc_err_oom(err, "the copy order");
                goto out;
        }
        for (size_t i = 0; i < nfiles; i++) {
                const char *path = prc_inventory_entry(inv, order[i])->path;
                size_t dl = dir_len(path);
                struct cchunk *last = nchunks ? &chunks[nchunks - 1] : NULL;
                if (last != NULL && last->dirlen == dl && last->end - last->start < COPY_CHUNK &&
                    strncmp(prc_inventory_entry(inv, order[last->start])->path, path, dl) == 0)
                        last->end = i + 1;
                else
                        chunks[nchunks++] = (struct cchunk){ i, i + 1, dl };
        }
        struct copy cp = { .s = s, .idx = order, .chunks = chunks, .nchunks = nchunks };
        if (!prc_pool_run(s->threads, nchunks, NULL, copy_job, &cp, opts->cancel, err))
                goto out;
        if (opts->cancel != NULL && *opts->cancel) {
                prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                goto out;
        }
        ok = true;
out:
        free(order);
        free(chunks);
        if (!ok) {
                prc_snapshot_free(s);   /* removes what was written */
                return false;
        }
        *out = s;
        return true;
}

/* ---- protocol-owned files ---------------------------------------------- */

bool prc_snapshot_add_owned(prc_snapshot *s, const char *path, const void *bytes, size_t n,
                            const char *relocated_from, prc_err *err)
{
        size_t plen = strlen(PRC_SNAPSHOT_OWNED_PREFIX);
        struct owned *no, o = { 0 };
        prc_err perr;

        if (s->sealed)
                return prc_err_set(err, PRC_E_INTERNAL, "the snapshot is sealed; '%s' cannot be added", path);
        prc_err_init(&perr);
        if (!prc_path_check_str(path, &perr))
                return prc_err_set(err, PRC_E_SNAP_OWNED_PATH, "owned path is not a normalized path (%s)",
                                   prc_err_name(perr.cls));
        if (strncmp(path, PRC_SNAPSHOT_OWNED_PREFIX, plen) != 0 || path[plen] == '\0')
                return prc_err_set(err, PRC_E_SNAP_OWNED_PATH, "owned path '%s' is not under '%s'", path,
                                   PRC_SNAPSHOT_OWNED_PREFIX);
        for (size_t i = 0; i < s->nowned; i++) {
                if (strcmp(s->owned[i].path, path) == 0)
                        return prc_err_set(err, PRC_E_SNAP_OWNED_PATH, "owned path '%s' was added already", path);
                if (relocated_from != NULL && s->owned[i].from != NULL && strcmp(s->owned[i].from, relocated_from) == 0)
                        return prc_err_set(err, PRC_E_SNAP_OWNED_PATH, "'%s' was relocated already", relocated_from);
        }
        no = realloc(s->owned, (s->nowned + 1) * sizeof(*no));
        if (no == NULL)
                return prc_err_oom(err, "the owned file list");
        s->owned = no;
        o.path = strdup(path);
        if (o.path == NULL)
                return prc_err_oom(err, "the owned file list");
        if (relocated_from != NULL) {
                long i = prc_inventory_find(s->inv, relocated_from);
                if (bytes != NULL || n != 0 || i < 0 || prc_inventory_entry(s->inv, (size_t)i)->type != PRC_INV_FILE) {
                        free(o.path);
                        return prc_err_set(err, PRC_E_SNAP_OWNED_PATH,
                                           "'%s' is not an inventoried file that can be relocated", relocated_from);
                }
                o.size = prc_inventory_entry(s->inv, (size_t)i)->size;
                o.executable = prc_inventory_entry(s->inv, (size_t)i)->executable;
                memcpy(o.sha256, prc_inventory_entry(s->inv, (size_t)i)->sha256, sizeof(o.sha256));
                o.from = strdup(relocated_from);
                if (o.from == NULL) {
                        free(o.path);
                        return prc_err_oom(err, "the owned file list");
                }
                if (prc_safe_mkdir_parents(s->fd, path, 0700) != 0 ||
                    renameat2(s->fd, relocated_from, s->fd, path, RENAME_NOREPLACE) != 0) {
                        int e = errno;
                        free(o.path);
                        free(o.from);
                        return prc_err_sys(err, e == EEXIST || e == ENOTDIR ? PRC_E_SNAP_OWNED_PATH : PRC_E_IO, e,
                                           "cannot relocate '%s' to '%s'", relocated_from, path);
                }
        } else {
                int fd;
                bool ok;
                o.size = n;
                if (!prc_sha256_hex_once(bytes, n, o.sha256, err)) {
                        free(o.path);
                        return false;
                }
                if (!reserve(s, n, path, err)) {
                        free(o.path);
                        return false;
                }
                fd = create_dst(s, path, err);
                if (fd < 0) {
                        free(o.path);
                        return false;
                }
                ok = prc_fd_write_all(fd, bytes, n, err);
                if (ok && fchmod(fd, 0400) != 0)
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot set the mode of '%s'", path);
                if (close(fd) != 0 && ok)
                        ok = prc_err_sys(err, PRC_E_IO, errno, "cannot write '%s'", path);
                if (!ok) {
                        free(o.path);
                        return false;
                }
        }
        s->owned[s->nowned++] = o;
        return true;
}

/* ---- listing, seal, verify --------------------------------------------- */

static int owned_cmp(const void *a, const void *b)
{
        return strcmp(((const struct owned *)a)->path, ((const struct owned *)b)->path);
}

static json_t *entry_json(const char *path, uint64_t size, const char *sha256, bool executable)
{
        return json_pack("{s:s,s:I,s:s,s:b}", "path", path, "size", (json_int_t)size, "sha256", sha256,
                         "executable", executable);
}

static int mem_cmp(const void *a, const void *b)
{
        return strcmp(((const struct mem_ent *)a)->path, ((const struct mem_ent *)b)->path);
}

/*
 * The entries as written: every copied file was hashed while it was
 * written and matched the inventory, and owned bytes were hashed when
 * added, so sealing need not read the tree back; verify does that.  The
 * sorted table goes to s->exp (with its strings in s->arena, so verify and
 * removal do not depend on the inventory's lifetime).
 */
static bool seal_table(prc_snapshot *s, prc_err *err)
{
        size_t n = prc_inventory_count(s->inv), k = 0, bytes = 1;
        struct mem_ent *v = malloc((n + s->nowned + 1) * sizeof(*v));
        char *at;

        if (v == NULL)
                return prc_err_oom(err, "the snapshot listing");
        for (size_t i = 0; i < n; i++) {
                const prc_inv_entry *e = prc_inventory_entry(s->inv, i);
                bool moved = false;
                if (e->type != PRC_INV_FILE)
                        continue;
                for (size_t j = 0; j < s->nowned && !moved; j++)
                        moved = s->owned[j].from != NULL && strcmp(s->owned[j].from, e->path) == 0;
                if (!moved)
                        v[k++] = (struct mem_ent){ e->path, e->size, e->sha256, e->executable };
        }
        for (size_t j = 0; j < s->nowned; j++)
                v[k++] = (struct mem_ent){ s->owned[j].path, s->owned[j].size, s->owned[j].sha256,
                                           s->owned[j].executable };
        if (k > 1)
                qsort(v, k, sizeof(*v), mem_cmp);
        for (size_t i = 0; i < k; i++)
                bytes += strlen(v[i].path) + 1 + PRC_SHA256_HEX + 1;
        s->arena = malloc(bytes);
        if (s->arena == NULL) {
                free(v);
                return prc_err_oom(err, "the snapshot listing");
        }
        at = s->arena;
        for (size_t i = 0; i < k; i++) {
                size_t pl = strlen(v[i].path) + 1;
                memcpy(at, v[i].path, pl);
                v[i].path = at;
                at += pl;
                memcpy(at, v[i].sha256, PRC_SHA256_HEX + 1);
                v[i].sha256 = at;
                at += PRC_SHA256_HEX + 1;
        }
        s->exp = v;
        s->nexp = k;
        return true;
}

static json_t *entries_json(const prc_snapshot *s)
{
        json_t *ents = json_array();

        for (size_t i = 0; ents != NULL && i < s->nexp; i++)
                if (json_array_append_new(ents, entry_json(s->exp[i].path, s->exp[i].size, s->exp[i].sha256,
                                                           s->exp[i].executable)) != 0) {
                        json_decref(ents);
                        ents = NULL;
                }
        return ents;
}

static bool canon_string(prc_buf *b, const char *str, prc_err *err)
{
        return prc_jcs_write_string(str, strlen(str), b, err);
}

/* ,"size":N} */
static bool put_size(prc_buf *b, uint64_t v, prc_err *err)
{
        return prc_buf_puts(b, ",\"size\":", err) && prc_jcs_write_uint(v, b, err) && prc_buf_putc(b, '}', err);
}

/*
 * The listing without "snapshot_digest" in canonical form, written
 * directly (keys in code-unit order: entries, inventory_digest, owned,
 * schema; executable, path, sha256, size; path, relocated_from).  The
 * digest test in tests/unit/test_snapshot.c checks it against prc_jcs of
 * the document prc_snapshot_to_json builds.
 */
static bool canonical_listing(const prc_snapshot *s, prc_buf *b, prc_err *err)
{
        bool ok = prc_buf_puts(b, "{\"entries\":[", err);

        for (size_t i = 0; ok && i < s->nexp; i++) {
                const struct mem_ent *e = &s->exp[i];
                ok = prc_buf_puts(b, i ? ",{\"executable\":" : "{\"executable\":", err) &&
                     prc_buf_puts(b, e->executable ? "true,\"path\":" : "false,\"path\":", err) &&
                     canon_string(b, e->path, err) && prc_buf_puts(b, ",\"sha256\":", err) &&
                     canon_string(b, e->sha256, err) &&
                     put_size(b, e->size, err);
        }
        ok = ok && prc_buf_puts(b, "],\"inventory_digest\":", err) &&
             canon_string(b, prc_inventory_digest(s->inv), err) && prc_buf_puts(b, ",\"owned\":[", err);
        for (size_t i = 0; ok && i < s->nowned; i++) {
                ok = prc_buf_puts(b, i ? ",{\"path\":" : "{\"path\":", err) && canon_string(b, s->owned[i].path, err);
                if (ok && s->owned[i].from != NULL)
                        ok = prc_buf_puts(b, ",\"relocated_from\":", err) && canon_string(b, s->owned[i].from, err);
                ok = ok && prc_buf_putc(b, '}', err);
        }
        return ok && prc_buf_puts(b, "],\"schema\":", err) && canon_string(b, PRC_SNAPSHOT_SCHEMA, err) &&
               prc_buf_putc(b, '}', err);
}

/* The listing document (without its digest) around an entries array (stolen). */
static json_t *listing(const prc_snapshot *s, json_t *ents, prc_err *err)
{
        json_t *doc = NULL, *owned = NULL;

        if (ents == NULL)
                return NULL;
        owned = json_array();
        if (owned == NULL)
                goto oom;
        for (size_t i = 0; i < s->nowned; i++) {
                json_t *o = json_pack("{s:s}", "path", s->owned[i].path);
                if (o == NULL || (s->owned[i].from != NULL &&
                                  json_object_set_new(o, "relocated_from", json_string(s->owned[i].from)) != 0) ||
                    json_array_append_new(owned, o) != 0)
                        goto oom;
        }
        doc = json_pack("{s:s,s:s,s:o,s:o}", "schema", PRC_SNAPSHOT_SCHEMA, "inventory_digest",
                        prc_inventory_digest(s->inv), "entries", ents, "owned", owned);
        ents = owned = NULL;
        if (doc == NULL)
                goto oom;
        return doc;
oom:
        prc_err_oom(err, "the snapshot listing");
        json_decref(ents);
        json_decref(owned);
        return NULL;
}

bool prc_snapshot_seal(prc_snapshot *s, prc_err *err)
{
        prc_buf b;
        bool ok;

        if (s->sealed)
                return prc_err_set(err, PRC_E_INTERNAL, "the snapshot is sealed already");
        if (s->nowned > 1)
                qsort(s->owned, s->nowned, sizeof(*s->owned), owned_cmp);
        if (!seal_table(s, err))
                return false;
        prc_buf_init(&b, SIZE_MAX);
        ok = canonical_listing(s, &b, err) && prc_sha256_hex_once(b.data, b.len, s->digest, err);
        prc_buf_clear(&b);
        if (!ok) {
                free(s->exp);
                free(s->arena);
                s->exp = NULL;
                s->arena = NULL;
                s->nexp = 0;
                return false;
        }
        s->sealed = true;
        return true;
}

/*
 * Verify.  The sealed listing is a function of the entries (path, size,
 * SHA-256, executable bit) and of metadata held in memory (schema,
 * inventory digest, owned list), so recomputing its digest from disk is
 * the same test as: the tree holds exactly the sealed paths, each a
 * regular file (no symlink, no special file) of the sealed size, bit and
 * bytes.  That is checked directly, in two passes:
 *   1. walk: every directory is opened relative to its parent's descriptor
 *      by one name with O_NOFOLLOW | O_DIRECTORY and listed; every name
 *      must be a sealed file or a directory; every sealed file must be seen;
 *   2. hash, on the pool: per run of up to VERIFY_CHUNK files of one
 *      directory, that directory is opened once beneath the snapshot
 *      (prc_safe_openat: no symlink, no escape) and each file by its single
 *      name with O_NOFOLLOW, then fstat'ed and hashed.
 * No multi-component path is resolved per file, so the cost is one openat
 * and one read per small file, on every core.
 */
enum { VERIFY_CHUNK = 256 };

struct vchunk {
        size_t start, end;      /* s->exp[start..end): one directory */
        size_t dirlen;          /* bytes of the directory prefix; 0 = the snapshot root */
};

struct verify {
        const prc_snapshot *s;
        unsigned char *seen;    /* owned: one flag per s->exp entry */
        char          *first;   /* owned: the smallest differing path found by the walk */
        bool           special; /* the walk found a symlink or special file (first names it) */
        struct vchunk *chunks;  /* owned */
        size_t         nchunks;
};

static int exp_find(const prc_snapshot *s, const char *path)
{
        size_t lo = 0, hi = s->nexp;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = strcmp(s->exp[mid].path, path);
                if (c == 0)
                        return (int)mid;
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return -1;
}

/* Note a difference at path (keeps the smallest, so the message does not depend on listing order). */
static bool note_diff(struct verify *v, const char *path, bool special, prc_err *err)
{
        /* A symlink or special file outranks an added or missing name; then the smaller path wins. */
        if (v->first != NULL && (v->special > special || (v->special == special && strcmp(path, v->first) >= 0)))
                return true;
        free(v->first);
        v->first = strdup(path);
        v->special = special;
        return v->first != NULL || prc_err_oom(err, "the snapshot check");
}

static bool walk_dir(struct verify *v, int dfd, char *rel, size_t len, int depth, prc_err *err)
{
        int lfd;
        DIR *d;
        struct dirent *de;
        bool ok = true;

        /* Checked before the open: returning here once leaked that descriptor on every verify (issue 16). */
        if (depth > PRC_PATH_DEPTH_MAX + 1)
                return note_diff(v, rel, false, err);
        lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);     /* fdopendir takes it */
        if (lfd < 0)
                return prc_err_sys(err, PRC_E_SNAP_CHANGED, errno, "cannot list '%s' in the snapshot", len ? rel : ".");
        d = fdopendir(lfd);
        if (d == NULL) {
                close(lfd);
                return prc_err_sys(err, PRC_E_IO, errno, "cannot list a snapshot directory");
        }
        while (ok && (errno = 0, de = readdir(d)) != NULL) {
                size_t nl = strlen(de->d_name), l2 = len ? len + 1 + nl : nl;
                unsigned char t = de->d_type;
                struct stat st;
                int i;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (l2 > PRC_PATH_MAX) {
                        ok = note_diff(v, "(a path longer than PRC_PATH_MAX)", false, err);
                        continue;
                }
                if (len)
                        rel[len] = '/';
                memcpy(rel + (len ? len + 1 : 0), de->d_name, nl + 1);
                if (t == DT_UNKNOWN) {
                        if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                                ok = note_diff(v, rel, false, err);
                                goto next;
                        }
                        t = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : S_ISLNK(st.st_mode) ? DT_LNK
                                                                                                          : DT_FIFO;
                }
                if (t == DT_DIR) {
                        int cfd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (cfd < 0) {
                                ok = note_diff(v, rel, errno == ELOOP || errno == ENOTDIR, err);
                                goto next;
                        }
                        ok = walk_dir(v, cfd, rel, l2, depth + 1, err);
                        close(cfd);
                } else if (t == DT_REG && (i = exp_find(v->s, rel)) >= 0) {
                        v->seen[i] = 1;
                } else {
                        ok = note_diff(v, rel, t != DT_REG, err);
                }
next:
                rel[len] = '\0';
        }
        if (ok && errno != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot list a snapshot directory");
        closedir(d);
        return ok;
}

/* Split s->exp into runs of up to VERIFY_CHUNK files of one directory; out holds s->nexp. */
static size_t exp_chunks(const prc_snapshot *s, struct vchunk *out)
{
        size_t n = 0;

        for (size_t i = 0; i < s->nexp; i++) {
                size_t dl = dir_len(s->exp[i].path);
                struct vchunk *last = n ? &out[n - 1] : NULL;
                if (last != NULL && last->dirlen == dl && last->end - last->start < VERIFY_CHUNK &&
                    strncmp(s->exp[last->start].path, s->exp[i].path, dl) == 0)
                        last->end = i + 1;
                else
                        out[n++] = (struct vchunk){ i, i + 1, dl };
        }
        return n;
}

static bool verify_job(void *ctx, size_t job, prc_pool_worker *w)
{
        const struct verify *v = ctx;
        const struct vchunk *c = &v->chunks[job];
        const prc_snapshot *s = v->s;
        int dfd = s->fd;
        bool ok = true;

        if (c->dirlen > 0) {
                char *dir = strndup(s->exp[c->start].path, c->dirlen);
                if (dir == NULL)
                        return prc_err_oom(&w->err, "the snapshot check");
                dfd = prc_safe_openat(s->fd, dir, O_RDONLY | O_DIRECTORY, 0);
                if (dfd < 0)
                        prc_err_sys(&w->err, PRC_E_SNAP_CHANGED, errno, "the snapshot changed at '%s'", dir);
                free(dir);
                if (dfd < 0)
                        return false;
        }
        for (size_t i = c->start; ok && i < c->end; i++) {
                const struct mem_ent *e = &s->exp[i];
                const char *name = e->path + (c->dirlen ? c->dirlen + 1 : 0);
                uint8_t d[PRC_SHA256_LEN];
                char hex[PRC_SHA256_HEX + 1];
                struct stat st;
                int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

                if (fd < 0) {
                        ok = errno == ELOOP ? prc_err_set(&w->err, PRC_E_SNAP_CHANGED,
                                                          "the snapshot holds a symlink at '%s'", e->path)
                                            : prc_err_sys(&w->err, PRC_E_SNAP_CHANGED, errno,
                                                          "the snapshot changed at '%s'", e->path);
                        break;
                }
                if (fstat(fd, &st) != 0)
                        ok = prc_err_sys(&w->err, PRC_E_IO, errno, "cannot stat '%s' in the snapshot", e->path);
                else if (!S_ISREG(st.st_mode))
                        ok = prc_err_set(&w->err, PRC_E_SNAP_CHANGED, "the snapshot holds a special file at '%s'",
                                         e->path);
                else if ((uint64_t)st.st_size != e->size || ((st.st_mode & S_IXUSR) != 0) != e->executable)
                        ok = prc_err_set(&w->err, PRC_E_SNAP_CHANGED,
                                         "the snapshot changed at '%s' (size or executable bit)", e->path);
                else if (!prc_pool_stream(w, fd, &st, -1, e->path, PRC_E_SNAP_CHANGED, PRC_INV_HOOK_HASH_READ, d,
                                          &w->err))
                        ok = false;
                else {
                        prc_hex_encode(d, sizeof(d), hex);
                        if (strcmp(hex, e->sha256) != 0)
                                ok = prc_err_set(&w->err, PRC_E_SNAP_CHANGED,
                                                 "the snapshot changed at '%s' (SHA-256 %s, sealed %s)", e->path,
                                                 hex, e->sha256);
                }
                close(fd);
        }
        if (dfd != s->fd)
                close(dfd);
        return ok;
}

static bool verify_disk(const prc_snapshot *s, prc_err *err)
{
        struct verify v = { .s = s };
        char *rel = malloc(PRC_PATH_MAX + 1);
        bool ok = false;

        v.seen = calloc(s->nexp ? s->nexp : 1, 1);
        v.chunks = malloc((s->nexp ? s->nexp : 1) * sizeof(*v.chunks));
        if (rel == NULL || v.seen == NULL || v.chunks == NULL) {
                prc_err_oom(err, "the snapshot check");
                goto out;
        }
        rel[0] = '\0';
        if (!walk_dir(&v, s->fd, rel, 0, 0, err))
                goto out;
        for (size_t i = 0; i < s->nexp; i++)
                if (!v.seen[i] && !note_diff(&v, s->exp[i].path, false, err))
                        goto out;
        if (v.first != NULL) {
                prc_err_set(err, PRC_E_SNAP_CHANGED, v.special ? "the snapshot holds a symlink or special file at '%s'"
                                                               : "the snapshot changed at '%s' (added or removed)",
                            v.first);
                goto out;
        }
        v.nchunks = exp_chunks(s, v.chunks);
        ok = prc_pool_run(s->threads, v.nchunks, NULL, verify_job, &v, NULL, err);
out:
        free(rel);
        free(v.seen);
        free(v.first);
        free(v.chunks);
        return ok;
}

struct unlinks {
        const prc_snapshot  *s;
        const struct vchunk *chunks;
};

/* Best effort: what fails here (a mode someone changed) is left to rmtree. */
static bool unlink_job(void *ctx, size_t job, prc_pool_worker *w)
{
        const struct unlinks *u = ctx;
        const struct vchunk *c = &u->chunks[job];
        const prc_snapshot *s = u->s;
        int dfd = open_dir_prefix(s->fd, s->exp[c->start].path, c->dirlen);

        (void)w;
        if (dfd < 0)
                return true;
        for (size_t i = c->start; i < c->end; i++)
                (void)unlinkat(dfd, s->exp[i].path + (c->dirlen ? c->dirlen + 1 : 0), 0);
        close(dfd);
        return true;
}

/*
 * Unlink the sealed files by directory run on the pool before the tree
 * walk removes what is left (directories, owned or foreign files): unlinkat
 * of one name never follows anything, and each directory is opened beneath
 * the snapshot without symlinks, as everywhere else.
 */
static void unlink_sealed(prc_snapshot *s)
{
        struct vchunk *chunks = malloc((s->nexp ? s->nexp : 1) * sizeof(*chunks));
        struct unlinks u = { .s = s, .chunks = chunks };
        prc_err e;

        if (chunks == NULL)
                return;
        prc_err_init(&e);
        if (!prc_pool_run(s->threads, exp_chunks(s, chunks), NULL, unlink_job, &u, NULL, &e)) {
                /* Only out-of-memory can get here; the tree walk still removes everything. */
        }
        free(chunks);
}

bool prc_snapshot_verify(const prc_snapshot *s, prc_err *err)
{
        if (!s->sealed)
                return prc_err_set(err, PRC_E_INTERNAL, "the snapshot is not sealed");
        if (s->removed || s->fd < 0)
                return prc_err_set(err, PRC_E_SNAP_CHANGED, "the snapshot was removed");
        if (verify_disk(s, err))
                return true;
        /* A snapshot that cannot even be read has changed; keep the cause in the message. */
        if (err != NULL && err->cls != PRC_E_SNAP_CHANGED && err->cls != PRC_E_OUT_OF_MEMORY) {
                prc_err e2;
                prc_err_init(&e2);
                prc_err_set(&e2, PRC_E_SNAP_CHANGED, "the snapshot changed: %s: %s", prc_err_name(err->cls), err->msg);
                *err = e2;
        }
        return false;
}

const char *prc_snapshot_path(const prc_snapshot *s)
{
        return s->path;
}

const char *prc_snapshot_digest(const prc_snapshot *s)
{
        return s->digest;
}

const json_t *prc_snapshot_to_json(const prc_snapshot *s)
{
        prc_snapshot *w = (prc_snapshot *)s;   /* the document is a cache, built on first use */
        prc_err e;
        json_t *doc;

        if (s->doc != NULL || !s->sealed)
                return s->doc;
        prc_err_init(&e);
        doc = listing(s, entries_json(s), &e);
        if (doc == NULL || json_object_set_new(doc, "snapshot_digest", json_string(s->digest)) != 0) {
                json_decref(doc);
                return NULL;
        }
        w->doc = doc;
        return doc;
}

uint64_t prc_snapshot_total_bytes(const prc_snapshot *s)
{
        return atomic_load(&s->total);
}

uint64_t prc_snapshot_ceiling(const prc_snapshot *s)
{
        return s->ceiling;
}
