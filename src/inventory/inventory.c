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
 * Regular files are hashed by the pool while the walk goes on (entries are
 * published to it as they are recorded), each reopened beneath the root
 * with no symlink in any component and checked against the walk's dev/ino.
 * Memory: one small record per entry (paths in an arena) plus the pool's
 * buffers.
 */
#include "inventory/inventory.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/jcs.h"
#include "base/path.h"
#include "inventory/pool.h"
#include "inventory/safeopen.h"

/*
 * Names left out, only as direct children of the root (docs/inventory.md;
 * issue 16): the checkout's own git metadata (".git", and only when it is
 * a directory: a gitfile or a symlink named .git is inventoried like any
 * other entry), and ".prc", the namespace where the protocols place
 * scanner-owned files in the snapshot, whatever its type.  Every name left
 * out is listed in the document's "excluded" array; the scan names every
 * one but the root .git directory as a coverage gap (src/engine/scan.c).
 */
static const char *const excluded_names[] = { ".git", ".prc" };

struct ent {
        prc_inv_entry pub;
        char         *path;     /* in the path arena; pub.path borrows it */
        dev_t         dev;
        ino_t         ino;
        uint8_t       head[PRC_SHA256_LEN];     /* files above PRC_INV_HEAD: digest of the first PRC_INV_HEAD bytes */
        const uint8_t *kept;    /* NULL, or the pub.size bytes hashed (opts.keep), in the keep blocks */
};

struct unrep {
        prc_inv_unrep pub;
        char         *raw;      /* owned; pub.raw borrows it */
};

/*
 * During the walk entries live in segments that never move (segment k holds
 * ENT_SEG0 << k entries), so pool workers can hash published entries while
 * the walk appends more; afterwards they are copied into one sorted array.
 */
enum { ENT_SEG0 = 1024, ENT_NSEG = 48, ARENA_BLOCK = 256u << 10, PUBLISH_EVERY = 64 };

struct arena_block {
        struct arena_block *next;
        size_t              used, cap;
        char                data[];
};

struct prc_inventory {
        int              rootfd;        /* owned */
        struct ent      *seg[ENT_NSEG]; /* owned, during the build only */
        struct ent      *ents;          /* owned, nents used, sorted by path after build */
        size_t           nents;
        struct arena_block *arena;      /* owned: every entry's path */
        struct unrep    *unreps;        /* owned */
        size_t           nunreps, capu;
        const char      *excluded[PRC_ARRAY_LEN(excluded_names)];  /* borrowed from the static table */
        size_t           nexcluded;
        prc_inv_skipped  skipped;
        uint64_t         total_bytes;
        size_t           max_entries;
        size_t           listed;        /* names held by the listings of the directories being walked */
        prc_pool_feed   *feed;          /* during the build: hashes published entries */
        size_t           published;
        uint8_t         *dents;         /* walk scratch: getdents64 buffer (DENTS_BUF) */
        pthread_mutex_t  doc_mu;        /* guards the lazy doc */
        json_t          *doc;           /* owned, built on first prc_inventory_json */
        char             digest[PRC_SHA256_HEX + 1];
        prc_inv_source_read_fn source;  /* listing inventories: borrowed reader of member bytes */
        void            *source_ctx;    /* borrowed */
        prc_inv_keep_fn  keep;          /* the build's opts.keep (NULL: none) */
        pthread_mutex_t  keep_mu;       /* guards the keep blocks and kept_bytes (hashing threads) */
        struct arena_block *keep_blocks;        /* owned: the kept files' bytes */
        size_t           kept_bytes;
};

/* Entry i of the walk's segments (i < the number recorded). */
static struct ent *seg_ent(const prc_inventory *inv, size_t i)
{
        size_t q = i / ENT_SEG0 + 1;
        unsigned k = 63u - (unsigned)__builtin_clzll((unsigned long long)q);

        return &inv->seg[k][i - ENT_SEG0 * (((size_t)1 << k) - 1)];
}

/* n bytes of room at the front block of the list *head (a new block when it has none), or NULL. */
static char *block_room(struct arena_block **head, size_t n)
{
        struct arena_block *b = *head;
        char *out;

        if (b == NULL || b->cap - b->used < n) {
                size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
                b = malloc(sizeof(*b) + cap);
                if (b == NULL)
                        return NULL;
                b->next = *head;
                b->used = 0;
                b->cap = cap;
                *head = b;
        }
        out = b->data + b->used;
        b->used += n;
        return out;
}

static void blocks_free(struct arena_block **head)
{
        while (*head != NULL) {
                struct arena_block *next = (*head)->next;
                free(*head);
                *head = next;
        }
}

static char *arena_dup(prc_inventory *inv, const char *p, size_t n)
{
        char *out = block_room(&inv->arena, n + 1);

        if (out == NULL)
                return NULL;
        memcpy(out, p, n);
        out[n] = '\0';
        return out;
}

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

static void publish(prc_inventory *inv)
{
        if (inv->feed != NULL && inv->nents > inv->published) {
                prc_pool_feed_publish(inv->feed, inv->nents);
                inv->published = inv->nents;
        }
}

static bool add_entry(prc_inventory *inv, const char *path, size_t len, const struct stat *st,
                      prc_inv_type type, prc_err *err)
{
        struct ent *e;
        size_t q;
        unsigned k;

        if (inv->nents >= inv->max_entries)
                return prc_err_set(err, PRC_E_INV_TOO_MANY, "the target has more than %zu entries",
                                   inv->max_entries);
        q = inv->nents / ENT_SEG0 + 1;
        k = 63u - (unsigned)__builtin_clzll((unsigned long long)q);
        if (k >= ENT_NSEG)
                return prc_err_set(err, PRC_E_INV_TOO_MANY, "the target has more than %zu entries", inv->nents);
        if (inv->seg[k] == NULL) {
                inv->seg[k] = malloc(((size_t)ENT_SEG0 << k) * sizeof(struct ent));
                if (inv->seg[k] == NULL)
                        return prc_err_oom(err, "the inventory");
        }
        e = seg_ent(inv, inv->nents);
        memset(e, 0, sizeof(*e));
        e->path = arena_dup(inv, path, len);
        if (e->path == NULL)
                return prc_err_oom(err, "the inventory");
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
        /* Hand entries to the hashing workers in small batches (one lock per batch). */
        if (inv->feed != NULL && inv->nents - inv->published >= PUBLISH_EVERY)
                publish(inv);
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

/* Is the root's child name (lstat'ed or typed by its directory entry as st) left out? */
static bool is_excluded(const char *name, const struct stat *st)
{
        if (strcmp(name, ".git") == 0)
                return S_ISDIR(st->st_mode);
        return strcmp(name, ".prc") == 0;
}

struct name {
        size_t        off;      /* where the name starts in names.buf */
        uint64_t      ino;      /* d_ino */
        unsigned char type;     /* d_type (DT_UNKNOWN where the filesystem gives none) */
};

/* Names of one directory, read completely before any child is looked at. */
struct names {
        char        *buf;       /* owned: the names, each NUL-terminated, back to back */
        size_t       len, cap;
        struct name *v;         /* owned */
        size_t       n, capn;
};

enum { DENTS_BUF = 64u << 10 };

static void names_free(struct names *ns)
{
        free(ns->buf);
        free(ns->v);
}

static bool names_add(struct names *ns, const struct dirent64 *de, size_t n)
{
        const char *name = de->d_name;

        if (ns->n == ns->capn) {
                size_t ncap = ns->capn ? ns->capn * 2 : 32;
                struct name *nv = realloc(ns->v, ncap * sizeof(*nv));
                if (nv == NULL)
                        return false;
                ns->v = nv;
                ns->capn = ncap;
        }
        if (ns->cap - ns->len < n + 1) {
                size_t ncap = ns->cap ? ns->cap * 2 : 1024;
                char *nb;
                while (ncap - ns->len < n + 1)
                        ncap *= 2;
                nb = realloc(ns->buf, ncap);
                if (nb == NULL)
                        return false;
                ns->buf = nb;
                ns->cap = ncap;
        }
        memcpy(ns->buf + ns->len, name, n + 1);
        ns->v[ns->n].off = ns->len;
        ns->v[ns->n].ino = de->d_ino;
        ns->v[ns->n].type = de->d_type;
        ns->n++;
        ns->len += n + 1;
        return true;
}

#if defined(PRC_TESTING) && PRC_TESTING
static atomic_size_t listed_peak;

size_t prc_inventory_test_listed_peak(void)
{
        return atomic_exchange(&listed_peak, 0);
}
#endif

/*
 * List directory fd.  fresh: fd is shared with the caller (the root), so
 * list through a new open file description (a dup would share and move
 * the read position); otherwise fd is the walk's own and is read directly.
 * The entry cap is checked per name as the names are read (issue 16): the
 * listings held on the walk's current path count against it, so a
 * directory of millions of names is refused after max_entries of them,
 * never read whole first.
 */
static bool read_names(prc_inventory *inv, int dfd, bool fresh, const char *rel, struct names *ns, prc_err *err)
{
        int fd = fresh ? openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : dfd;
        bool ok = false;

        if (fd < 0)
                return prc_err_sys(err, errno == EACCES ? PRC_E_INV_UNREADABLE : PRC_E_IO, errno,
                                   "cannot read directory '%s'", rel);
        for (;;) {
                ssize_t got = getdents64(fd, inv->dents, DENTS_BUF);

                if (got < 0 && errno == EINTR)
                        continue;
                if (got < 0) {
                        int e = errno;
                        if (e == EACCES || e == EPERM)
                                prc_err_sys(err, PRC_E_INV_UNREADABLE, e, "cannot list '%s'", rel);
                        else
                                prc_err_sys(err, PRC_E_IO, e, "cannot list '%s'", rel);
                        goto out;
                }
                if (got == 0)
                        break;
                for (ssize_t off = 0; off < got;) {
                        const struct dirent64 *de = (const struct dirent64 *)(inv->dents + off);
                        const char *name = de->d_name;
                        size_t n = strlen(name);

                        off += de->d_reclen;
                        if ((n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.'))
                                continue;
                        if (inv->listed >= inv->max_entries) {
                                prc_err_set(err, PRC_E_INV_TOO_MANY,
                                            "cannot list '%s': it and the directories above it hold more than "
                                            "%zu names", rel, inv->max_entries);
                                goto out;
                        }
                        if (!names_add(ns, de, n)) {
                                prc_err_oom(err, "a directory listing");
                                goto out;
                        }
                        inv->listed++;
#if defined(PRC_TESTING) && PRC_TESTING
                        if (inv->listed > atomic_load(&listed_peak))
                                atomic_store(&listed_peak, inv->listed);
#endif
                }
        }
        ok = true;
out:
        if (fresh)
                close(fd);
        return ok;
}

/* The st_mode a directory entry type stands for, or 0 where the walk must lstat. */
static mode_t dirent_mode(unsigned char type, bool dino_trusted)
{
        switch (type) {
        case DT_REG: return dino_trusted ? S_IFREG : 0;
        case DT_LNK: return S_IFLNK;
        case DT_SOCK: return S_IFSOCK;
        case DT_FIFO: return S_IFIFO;
        case DT_CHR: return S_IFCHR;
        case DT_BLK: return S_IFBLK;
        default: return 0;      /* directories (opened and checked below) and DT_UNKNOWN */
        }
}

#if defined(PRC_TESTING) && PRC_TESTING
static atomic_bool force_lstat;

void prc_inventory_test_force_lstat(bool on)
{
        atomic_store(&force_lstat, on);
}
#endif

enum { DINO_UNPROVED, DINO_TRUSTED, DINO_UNTRUSTED };

/*
 * rel holds the directory's path (len bytes, "" for the root); room for
 * PRC_PATH_MAX + NAME_MAX + 2.  dev: st_dev of the directory dfd.  Entries are typed by their directory
 * entry where that says as much as an lstat would: symlinks and special
 * files (only counted, or recorded by path) always; regular files once one
 * lstat in this directory has shown that d_ino is the st_ino the hash will
 * see (so the identity the hash checks is the walk's, as with an lstat).
 * Directories, DT_UNKNOWN and every entry of a directory that fails that
 * proof are lstat'ed.
 */
static bool walk_dir(prc_inventory *inv, int dfd, dev_t dev, char *rel, size_t len, bool no_exclude,
                     prc_err *err)
{
        struct names ns = { 0 };
        int dino = DINO_UNPROVED;
        bool ok = false, lstat_all = false;

#if defined(PRC_TESTING) && PRC_TESTING
        lstat_all = atomic_load(&force_lstat);
#endif
        if (!read_names(inv, dfd, len == 0, len ? rel : ".", &ns, err))
                goto out;
        for (size_t i = 0; i < ns.n; i++) {
                const char *name = ns.buf + ns.v[i].off;
                mode_t dmode = lstat_all ? 0 : dirent_mode(ns.v[i].type, dino == DINO_TRUSTED);
                size_t nlen = strlen(name), plen = len ? len + 1 + nlen : nlen;
                struct stat st, st2;
                prc_err perr;
                int cfd;
                bool valid;

                if (len)
                        rel[len] = '/';
                memcpy(rel + (len ? len + 1 : 0), name, nlen);
                rel[plen] = '\0';
                prc_err_init(&perr);
                valid = prc_path_check(rel, plen, &perr);
                if (dmode != 0) {
                        memset(&st, 0, sizeof(st));
                        st.st_mode = dmode;
                        st.st_dev = dev;
                        st.st_ino = (ino_t)ns.v[i].ino;
                } else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
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
                } else if (dino == DINO_UNPROVED && ns.v[i].type == DT_REG) {
                        dino = S_ISREG(st.st_mode) && st.st_ino == (ino_t)ns.v[i].ino && st.st_dev == dev
                               ? DINO_TRUSTED : DINO_UNTRUSTED;
                }
                if (len == 0 && !no_exclude && is_excluded(name, &st)) {
                        for (size_t k = 0; k < PRC_ARRAY_LEN(excluded_names); k++)
                                if (strcmp(name, excluded_names[k]) == 0)
                                        inv->excluded[inv->nexcluded++] = excluded_names[k];
                        continue;
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
                ok = walk_dir(inv, cfd, st2.st_dev, rel, plen, no_exclude, err);
                close(cfd);
                if (!ok)
                        goto out;
                ok = false;
                rel[len] = '\0';
        }
        ok = true;
out:
        /* The directory's files go to the hashing workers before its subdirectories' are found. */
        publish(inv);
        inv->listed -= ns.n;
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

/*
 * The digest of the first PRC_INV_HEAD bytes of a larger file, read after
 * the fstat at open and before the whole-file hash, so the closing fstat's
 * change checks cover it as they cover the hash.  Head reads are checked
 * against it (prc_inventory_read_head, issue 16) without rehashing the file.
 */
static bool head_digest(prc_pool_worker *w, int fd, struct ent *e, prc_err *err)
{
        size_t got = 0;

        while (got < PRC_INV_HEAD) {
                ssize_t r = pread(fd, w->buf + got, PRC_INV_HEAD - got, (off_t)got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return prc_err_sys(err, errno == EACCES || errno == EPERM ? PRC_E_INV_UNREADABLE : PRC_E_IO,
                                           errno, "cannot read '%s'", e->path);
                if (r == 0)
                        return prc_err_set(err, PRC_E_INV_FILE_CHANGED, "'%s' shrank while it was read", e->path);
                got += (size_t)r;
        }
        return prc_sha256_reset(w->h, err) && prc_sha256_update(w->h, w->buf, got, err) &&
               prc_sha256_final(w->h, e->head, err);
}

/*
 * Keep e's bytes, whole in w->buf after its hash (opts.keep), when they fit
 * the limits; a file not kept is read from disk again, so running out of
 * room or memory only costs that read.
 */
static void keep_bytes(prc_inventory *inv, struct ent *e, const prc_pool_worker *w)
{
        size_t n = (size_t)e->pub.size;
        char *room;

        if (inv->keep == NULL || !w->whole || n > PRC_INV_KEEP_FILE || !inv->keep(e->path))
                return;
        pthread_mutex_lock(&inv->keep_mu);
        if (inv->kept_bytes + n <= PRC_INV_KEEP_TOTAL && (room = block_room(&inv->keep_blocks, n)) != NULL) {
                memcpy(room, w->buf, n);
                e->kept = (const uint8_t *)room;
                inv->kept_bytes += n;
        }
        pthread_mutex_unlock(&inv->keep_mu);
}

/* Pool job: hash entry job of the walk (if it is a regular file) beneath the root. */
static bool hash_job(void *ctx, size_t job, prc_pool_worker *w)
{
        prc_inventory *inv = ctx;
        struct ent *e = seg_ent(inv, job);
        uint8_t d[PRC_SHA256_LEN];
        struct stat st;
        bool ok;
        int fd;

        if (e->pub.type != PRC_INV_FILE)
                return true;
        prc_inv_hook_call(PRC_INV_HOOK_HASH_OPEN, e->path);
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
        if (e->pub.size > PRC_INV_HEAD && !head_digest(w, fd, e, &w->err)) {
                close(fd);
                return false;
        }
        ok = prc_pool_stream(w, fd, &st, -1, e->path, PRC_E_INV_FILE_CHANGED, PRC_INV_HOOK_HASH_READ, d, &w->err);
        close(fd);
        if (ok) {
                prc_hex_encode(d, sizeof(d), e->pub.sha256);
                keep_bytes(inv, e, w);
        }
        return ok;
}

/* The listing as jansson values, for prc_inventory_json (the digest is already known). */
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
        for (size_t i = 0; i < inv->nents; i++) {
                const prc_inv_entry *e = &inv->ents[i].pub;
                json_t *o;
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
        /* The digest (of the canonical writer's bytes) covers every field but itself. */
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

/*
 * The canonical listing (RFC 8785 as base/jcs.c writes it) written
 * directly from the entries, without building jansson values: keys in
 * their fixed sorted order, JCS string escaping, integers checked against
 * the safe range.  tests/unit/test_inventory.c proves the bytes equal
 * prc_jcs_write of the jansson document minus "inventory_digest".
 */
struct canon {
        prc_sha256 *h;          /* NULL: b is the caller's output, kept whole */
        prc_buf    *b;
        prc_err    *err;
        bool        ok;
};

enum { CANON_CHUNK = 16384 };   /* hashing: feed SHA-256 in pieces of about this size */

static void canon_flush(struct canon *c)
{
        if (c->h == NULL || !c->ok || c->b->len == 0)
                return;
        if (!prc_sha256_update(c->h, c->b->data, c->b->len, c->err))
                c->ok = false;
        prc_buf_reset(c->b);
}

static void canon_put(struct canon *c, const void *p, size_t n)
{
        if (c->ok && !prc_buf_put(c->b, p, n, c->err))
                c->ok = false;
}

#define CANON_LIT(c, s) canon_put((c), (s), sizeof(s) - 1)

static void canon_str(struct canon *c, const char *s)
{
        if (c->ok && !prc_jcs_write_string(s, strlen(s), c->b, c->err))
                c->ok = false;
}

static void canon_uint(struct canon *c, uint64_t v)
{
        if (c->ok && !prc_jcs_write_uint(v, c->b, c->err))
                c->ok = false;
}

static void canon_listing(const prc_inventory *inv, struct canon *c)
{
        CANON_LIT(c, "{\"entries\":[");
        for (size_t i = 0; i < inv->nents; i++) {
                const prc_inv_entry *e = &inv->ents[i].pub;
                if (i > 0)
                        CANON_LIT(c, ",");
                if (e->type == PRC_INV_FILE) {
                        if (e->executable)
                                CANON_LIT(c, "{\"executable\":true,\"oversized\":");
                        else
                                CANON_LIT(c, "{\"executable\":false,\"oversized\":");
                        if (e->oversized)
                                CANON_LIT(c, "true,\"path\":");
                        else
                                CANON_LIT(c, "false,\"path\":");
                        canon_str(c, e->path);
                        CANON_LIT(c, ",\"sha256\":");
                        canon_str(c, e->sha256);
                        CANON_LIT(c, ",\"size\":");
                        canon_uint(c, e->size);
                        CANON_LIT(c, ",\"type\":\"file\"}");
                } else {
                        CANON_LIT(c, "{\"path\":");
                        canon_str(c, e->path);
                        CANON_LIT(c, ",\"type\":\"symlink\"}");
                }
                if (c->b->len >= CANON_CHUNK)
                        canon_flush(c);
        }
        CANON_LIT(c, "],\"excluded\":[");
        for (size_t i = 0; i < inv->nexcluded; i++) {
                if (i > 0)
                        CANON_LIT(c, ",");
                canon_str(c, inv->excluded[i]);
        }
        CANON_LIT(c, "],\"schema\":");
        canon_str(c, PRC_INVENTORY_SCHEMA);
        CANON_LIT(c, ",\"skipped\":{\"block_device\":");
        canon_uint(c, inv->skipped.block_device);
        CANON_LIT(c, ",\"char_device\":");
        canon_uint(c, inv->skipped.char_device);
        CANON_LIT(c, ",\"fifo\":");
        canon_uint(c, inv->skipped.fifo);
        CANON_LIT(c, ",\"socket\":");
        canon_uint(c, inv->skipped.socket);
        CANON_LIT(c, "},\"unrepresentable\":[");
        for (size_t i = 0; i < inv->nunreps; i++) {
                const prc_inv_unrep *u = &inv->unreps[i].pub;
                if (i > 0)
                        CANON_LIT(c, ",");
                CANON_LIT(c, "{\"kind\":");
                canon_str(c, u->kind);
                CANON_LIT(c, ",\"raw\":");
                canon_str(c, u->raw);
                CANON_LIT(c, ",\"reason\":");
                canon_str(c, u->reason);
                CANON_LIT(c, "}");
        }
        CANON_LIT(c, "]}");
        canon_flush(c);
}

bool prc_inventory_canonical(const prc_inventory *inv, prc_buf *out, prc_err *err)
{
        struct canon c = { .h = NULL, .b = out, .err = err, .ok = true };
        size_t len0 = out->len;

        canon_listing(inv, &c);
        if (!c.ok)
                out->len = len0;
        return c.ok;
}

/* inv->digest = SHA-256 of the canonical listing (docs/inventory.md). */
static bool seal(prc_inventory *inv, prc_err *err)
{
        prc_buf b;
        struct canon c = { .b = &b, .err = err };
        uint8_t d[PRC_SHA256_LEN];
        bool ok;

        prc_buf_init(&b, SIZE_MAX);
        c.h = prc_sha256_new(err);
        c.ok = c.h != NULL;
        canon_listing(inv, &c);
        ok = c.ok && prc_sha256_final(c.h, d, err);
        prc_sha256_free(c.h);
        prc_buf_clear(&b);
        if (ok)
                prc_hex_encode(d, sizeof(d), inv->digest);
        return ok;
}

static int cstr_cmp(const void *a, const void *b)
{
        return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Move the walk's segments into one array sorted by path (pub.path keeps pointing into the arena). */
static bool flatten(prc_inventory *inv, prc_err *err)
{
        inv->ents = malloc((inv->nents ? inv->nents : 1) * sizeof(*inv->ents));
        if (inv->ents == NULL)
                return prc_err_oom(err, "the inventory");
        for (size_t i = 0, k = 0; i < inv->nents; k++) {
                size_t n = (size_t)ENT_SEG0 << k;
                if (n > inv->nents - i)
                        n = inv->nents - i;
                memcpy(inv->ents + i, inv->seg[k], n * sizeof(*inv->ents));
                i += n;
        }
        for (size_t k = 0; k < ENT_NSEG; k++) {
                free(inv->seg[k]);
                inv->seg[k] = NULL;
        }
        if (inv->nents > 1)
                qsort(inv->ents, inv->nents, sizeof(*inv->ents), ent_cmp);
        inv->total_bytes = 0;
        for (size_t i = 0; i < inv->nents; i++)
                if (inv->ents[i].pub.type == PRC_INV_FILE)
                        inv->total_bytes += inv->ents[i].pub.size;
        return true;
}

bool prc_inventory_build_at(int dirfd, const prc_inventory_opts *opts, prc_inventory **out, prc_err *err)
{
        static const prc_inventory_opts defaults = { 0 };
        prc_inventory *inv;
        char *rel = NULL;
        struct stat st;
        prc_pool_feed *feed;
        unsigned threads;
        bool ok = false, walked;

        if (opts == NULL)
                opts = &defaults;
        threads = opts->threads ? opts->threads : prc_pool_default_threads();
        inv = calloc(1, sizeof(*inv));
        if (inv == NULL)
                return prc_err_oom(err, "the inventory");
        inv->doc_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
        inv->keep_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
        inv->keep = opts->keep;
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
        inv->dents = malloc(DENTS_BUF);
        if (rel == NULL || inv->dents == NULL) {
                prc_err_oom(err, "the inventory");
                goto out;
        }
        rel[0] = '\0';
        /*
         * threads - 1 workers hash what the walk has recorded while it goes
         * on; then this thread joins them (with one thread it hashes
         * everything after the walk).
         */
        inv->feed = prc_pool_feed_start(threads, hash_job, inv, err);
        if (inv->feed == NULL)
                goto out;
        walked = walk_dir(inv, inv->rootfd, st.st_dev, rel, 0, opts->no_exclude, err);
        publish(inv);
        feed = inv->feed;
        inv->feed = NULL;
        /* A walk error wins over hashing errors: it is the same on every run. */
        if (!prc_pool_feed_finish(feed, !walked, err) || !walked)
                goto out;
        if (!flatten(inv, err))
                goto out;
        if (inv->nunreps > 1)
                qsort(inv->unreps, inv->nunreps, sizeof(*inv->unreps), unrep_cmp);
        if (inv->nexcluded > 1)
                qsort(inv->excluded, inv->nexcluded, sizeof(inv->excluded[0]), cstr_cmp);
        if (!seal(inv, err))
                goto out;
        ok = true;
out:
        free(rel);
        free(inv->dents);
        inv->dents = NULL;
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

static bool hex64(const char *s)
{
        size_t i;

        for (i = 0; s != NULL && s[i] != '\0'; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
                        return false;
        return s != NULL && i == PRC_SHA256_HEX;
}

bool prc_inventory_from_listing(const prc_inv_member *members, size_t n, const prc_inv_unrep *rejected,
                                size_t nrejected, prc_inv_source_read_fn read, void *ctx, prc_inventory **out,
                                prc_err *err)
{
        prc_inventory *inv = calloc(1, sizeof(*inv));
        struct stat st;
        bool ok = false;

        if (inv == NULL)
                return prc_err_oom(err, "the inventory");
        memset(&st, 0, sizeof(st));
        inv->doc_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
        inv->keep_mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
        inv->max_entries = PRC_INV_MAX_ENTRIES;
        inv->rootfd = -1;
        inv->source = read;
        inv->source_ctx = ctx;
        for (size_t i = 0; i < n; i++) {
                const prc_inv_member *m = &members[i];
                const char *slash = strchr(m->path, '/');
                size_t first = slash != NULL ? (size_t)(slash - m->path) : strlen(m->path);
                prc_err pe;
                bool excl = false;

                prc_err_init(&pe);
                if (!prc_path_check(m->path, strlen(m->path), &pe)) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member path '%.200s' is not a normalized path (%s)",
                                    m->path, prc_err_name(pe.cls));
                        goto out;
                }
                if (m->type != PRC_INV_FILE && m->type != PRC_INV_SYMLINK) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member '%.200s' has no inventory type", m->path);
                        goto out;
                }
                if (m->type == PRC_INV_FILE && !hex64(m->sha256)) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member '%.200s' has no SHA-256", m->path);
                        goto out;
                }
                /* The directory rules for root names (docs/inventory.md, "Exclusions"). */
                if (first == 4 && memcmp(m->path, ".prc", 4) == 0)
                        excl = true;
                else if (first == 4 && memcmp(m->path, ".git", 4) == 0 && (slash != NULL || m->under_dir))
                        excl = true;
                if (excl) {
                        const char *name = first == 4 && m->path[1] == 'p' ? excluded_names[1] : excluded_names[0];
                        bool have = false;
                        for (size_t k = 0; k < inv->nexcluded; k++)
                                have |= inv->excluded[k] == name;
                        if (!have)
                                inv->excluded[inv->nexcluded++] = name;
                        continue;
                }
                st.st_mode = m->executable ? 0755 : 0644;
                st.st_size = (off_t)m->size;
                if (m->size > (uint64_t)INT64_MAX) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member '%.200s' is too large", m->path);
                        goto out;
                }
                if (!add_entry(inv, m->path, strlen(m->path), &st, m->type, err))
                        goto out;
                if (m->type == PRC_INV_FILE)
                        memcpy(seg_ent(inv, inv->nents - 1)->pub.sha256, m->sha256, PRC_SHA256_HEX + 1);
        }
        for (size_t i = 0; i < nrejected; i++) {
                struct unrep *u;
                if (!add_unrep(inv, rejected[i].raw, strlen(rejected[i].raw), PRC_E_OK, rejected[i].kind, err))
                        goto out;
                /* The reason is the walk's class name (static, from the class table). */
                u = &inv->unreps[inv->nunreps - 1];
                u->pub.reason = rejected[i].reason;
        }
        if (!flatten(inv, err))
                goto out;
        for (size_t i = 1; i < inv->nents; i++)
                if (strcmp(inv->ents[i - 1].path, inv->ents[i].path) == 0) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member '%.200s' is listed twice", inv->ents[i].path);
                        goto out;
                }
        if (inv->nunreps > 1)
                qsort(inv->unreps, inv->nunreps, sizeof(*inv->unreps), unrep_cmp);
        if (inv->nexcluded > 1)
                qsort(inv->excluded, inv->nexcluded, sizeof(inv->excluded[0]), cstr_cmp);
        if (!seal(inv, err))
                goto out;
        ok = true;
out:
        if (!ok) {
                prc_inventory_free(inv);
                return false;
        }
        *out = inv;
        return true;
}

bool prc_inventory_is_listing(const prc_inventory *inv)
{
        return inv->source != NULL;
}

void prc_inventory_free(prc_inventory *inv)
{
        if (inv == NULL)
                return;
        blocks_free(&inv->arena);
        blocks_free(&inv->keep_blocks);
        for (size_t k = 0; k < ENT_NSEG; k++)
                free(inv->seg[k]);
        for (size_t i = 0; i < inv->nunreps; i++)
                free(inv->unreps[i].raw);
        free(inv->ents);
        free(inv->unreps);
        json_decref(inv->doc);
        pthread_mutex_destroy(&inv->doc_mu);
        pthread_mutex_destroy(&inv->keep_mu);
        if (inv->rootfd >= 0)
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

const json_t *prc_inventory_json(const prc_inventory *cinv, prc_err *err)
{
        /* The document is a cache of what the entries already say: filling it in is not a change. */
        prc_inventory *inv = (prc_inventory *)cinv;
        const json_t *doc;

        pthread_mutex_lock(&inv->doc_mu);
        if (inv->doc == NULL)
                (void)build_doc(inv, err);
        doc = inv->doc;
        pthread_mutex_unlock(&inv->doc_mu);
        return doc;
}

const json_t *prc_inventory_to_json(const prc_inventory *inv)
{
        prc_err err;

        prc_err_init(&err);
        return prc_inventory_json(inv, &err);
}

int prc_inventory_root_fd(const prc_inventory *inv)
{
        return inv->rootfd;
}

/*
 * Open path under the target root for a read bound to the seal: it must still
 * be a regular file of the inventoried size.  Returns the descriptor (the
 * caller closes it), or -1 with err set (inventory-unreadable,
 * inventory-mismatch, io).
 */
static int open_inventoried(const prc_inventory *inv, const char *path, uint64_t size, prc_err *err)
{
        struct stat st;
        int fd;

        fd = prc_safe_openat(inv->rootfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
        if (fd < 0) {
                if (errno == EACCES || errno == EPERM)
                        (void)prc_err_sys(err, PRC_E_INV_UNREADABLE, errno, "cannot open '%s'", path);
                else if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
                        (void)prc_err_sys(err, PRC_E_INV_MISMATCH, errno, "'%s' is no longer the inventoried file",
                                          path);
                else
                        (void)prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", path);
                return -1;
        }
        if (fstat(fd, &st) != 0) {
                (void)prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", path);
                close(fd);
                return -1;
        }
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != size) {
                (void)prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried type or size", path);
                close(fd);
                return -1;
        }
        return fd;
}

/*
 * The file's n inventoried bytes into out (empty), asking for one more (a
 * file that grew shows so) and stopping once n are in: no probe for the
 * end of a file that gave them all, since the digest check after it binds
 * exactly those n bytes.  The extra byte lands in the buffer's NUL slot
 * (buf.h: one byte is always held back).  Errors: inventory-mismatch (it
 * grew), io-error, inventory-unreadable, buffer-limit, out-of-memory.
 */
static bool read_sized(int fd, const char *path, size_t n, prc_buf *out, prc_err *err)
{
        size_t got = 0;

        if (!prc_buf_reserve(out, n, err))
                return false;
        while (got <= n) {
                ssize_t r = read(fd, out->data + got, n + 1 - got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return prc_err_sys(err, errno == EACCES || errno == EPERM ? PRC_E_INV_UNREADABLE : PRC_E_IO,
                                           errno, "cannot read '%s'", path);
                if (r == 0)
                        break;
                got += (size_t)r;
                if (got == n)
                        break;
        }
        if (got > n) {
                out->data[0] = 0;
                return prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' changed size since the inventory", path);
        }
        out->len = got;
        out->data[got] = 0;
        return true;
}

bool prc_inventory_read(const prc_inventory *inv, const char *path, size_t max, prc_buf *out, prc_err *err)
{
        long i = prc_inventory_find(inv, path);
        const prc_inv_entry *e;
        char hex[PRC_SHA256_HEX + 1];
        int fd;
        bool ok;

        if (i < 0 || inv->ents[i].pub.type != PRC_INV_FILE)
                return prc_err_set(err, PRC_E_INV_NO_SUCH_ENTRY, "'%s' is not a file of the inventory", path);
        e = &inv->ents[i].pub;
        if (e->size > max)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "'%s' has %llu bytes, more than %zu", path,
                                   (unsigned long long)e->size, max);
        prc_buf_reset(out);
        if (inv->ents[i].kept != NULL) {
                /* The bytes the digest was made of (opts.keep): no second read, nothing to check again. */
                if (!prc_buf_put(out, inv->ents[i].kept, (size_t)e->size, err)) {
                        prc_buf_reset(out);
                        return false;
                }
                return true;
        }
        if (inv->source != NULL) {
                /* A listing's member comes from its source; the same size and digest checks bind it. */
                ok = inv->source(inv->source_ctx, path, (size_t)e->size, out, err);
        } else {
                fd = open_inventoried(inv, path, e->size, err);
                if (fd < 0)
                        return false;
                ok = read_sized(fd, path, (size_t)e->size, out, err);
                close(fd);
        }
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

enum { HEAD_CHUNK = 256u << 10 };

/* prc_inventory_read_head for max <= PRC_INV_HEAD < the file's size: check the head digest. */
static bool read_head_digest(const prc_inventory *inv, const struct ent *en, size_t max, prc_buf *out, prc_err *err)
{
        const char *path = en->path;
        uint8_t head[PRC_INV_HEAD], d[PRC_SHA256_LEN];
        size_t got = 0;
        bool ok;
        int fd;

        if (en->pub.size <= PRC_INV_HEAD) {
                /* Unreachable from the analyses (max == PRC_INV_HEAD), kept correct: read whole, keep max. */
                prc_buf tmp;
                prc_buf_init(&tmp, PRC_INV_HEAD);
                ok = prc_inventory_read(inv, path, PRC_INV_HEAD, &tmp, err);
                prc_buf_reset(out);
                ok = ok && prc_buf_put(out, tmp.data, max, err);
                prc_buf_clear(&tmp);
                if (!ok)
                        prc_buf_reset(out);
                return ok;
        }
        fd = open_inventoried(inv, path, en->pub.size, err);
        if (fd < 0)
                return false;
        while (got < PRC_INV_HEAD) {
                ssize_t r = read(fd, head + got, PRC_INV_HEAD - got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        int e = errno;
                        close(fd);
                        return prc_err_sys(err, e == EACCES || e == EPERM ? PRC_E_INV_UNREADABLE : PRC_E_IO, e,
                                           "cannot read '%s'", path);
                }
                if (r == 0)
                        break;
                got += (size_t)r;
        }
        close(fd);
        prc_buf_reset(out);
        if (got != PRC_INV_HEAD)
                return prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' changed size since the inventory", path);
        if (!prc_sha256_once(head, got, d, err))
                return false;
        if (memcmp(d, en->head, sizeof(d)) != 0)
                return prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried head", path);
        return prc_buf_put(out, head, max, err);        /* out stays empty on failure */
}

bool prc_inventory_read_head(const prc_inventory *inv, const char *path, size_t max, prc_buf *out, prc_err *err)
{
        long i = prc_inventory_find(inv, path);
        const prc_inv_entry *e;
        char hex[PRC_SHA256_HEX + 1];
        uint8_t d[PRC_SHA256_LEN], *chunk = NULL;
        prc_sha256 *h = NULL;
        uint64_t total = 0;
        struct stat st;
        int fd = -1;
        bool ok = false;

        if (i < 0 || inv->ents[i].pub.type != PRC_INV_FILE)
                return prc_err_set(err, PRC_E_INV_NO_SUCH_ENTRY, "'%s' is not a file of the inventory", path);
        e = &inv->ents[i].pub;
        if (e->size <= max)
                return prc_inventory_read(inv, path, max, out, err);
        if (inv->source != NULL) {
                /* A listing keeps no head digests: read the whole member (digest-checked), keep the head. */
                prc_buf tmp;
                bool got;
                prc_buf_init(&tmp, (size_t)e->size);
                got = prc_inventory_read(inv, path, (size_t)e->size, &tmp, err);
                prc_buf_reset(out);
                got = got && prc_buf_put(out, tmp.data, max, err);
                prc_buf_clear(&tmp);
                if (!got)
                        prc_buf_reset(out);
                return got;
        }
        if (max <= PRC_INV_HEAD)
                return read_head_digest(inv, &inv->ents[i], max, out, err);
        prc_buf_reset(out);
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
                prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", path);
                goto out;
        }
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != e->size) {
                prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried type or size", path);
                goto out;
        }
        chunk = malloc(HEAD_CHUNK);
        h = prc_sha256_new(err);
        if (chunk == NULL) {
                prc_err_oom(err, "a read buffer");
                goto out;
        }
        if (h == NULL || !prc_buf_reserve(out, max, err))
                goto out;
        /*
         * The whole file goes through SHA-256, the first max bytes into out:
         * the head handed to an analysis is vouched for by the same digest as
         * a whole-file read (issue 16), not only by type and size.
         */
        for (;;) {
                ssize_t r = read(fd, chunk, HEAD_CHUNK);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        prc_err_sys(err, errno == EACCES || errno == EPERM ? PRC_E_INV_UNREADABLE : PRC_E_IO, errno,
                                    "cannot read '%s'", path);
                        goto out;
                }
                if (r == 0)
                        break;
                total += (uint64_t)r;
                if (total > e->size) {
                        prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' changed size since the inventory", path);
                        goto out;
                }
                if (!prc_sha256_update(h, chunk, (size_t)r, err))
                        goto out;
                if (out->len < max) {
                        size_t take = max - out->len < (size_t)r ? max - out->len : (size_t)r;
                        if (!prc_buf_put(out, chunk, take, err))
                                goto out;
                }
        }
        if (total != e->size) {
                prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' changed size since the inventory", path);
                goto out;
        }
        if (!prc_sha256_final(h, d, err))
                goto out;
        prc_hex_encode(d, sizeof(d), hex);
        if (strcmp(hex, e->sha256) != 0) {
                prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' no longer has the inventoried SHA-256", path);
                goto out;
        }
        ok = true;
out:
        if (!ok)
                prc_buf_reset(out);
        prc_sha256_free(h);
        free(chunk);
        close(fd);
        return ok;
}
