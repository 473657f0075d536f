/*
 * oci_floor.c - the least file work any `prc adapter run-oci` satisfying
 * issue 8 must do on a target (bench/oci.sh, the floor side): find the files, read and
 * SHA-256 every one (the inventory), copy each into a fresh private
 * directory while hashing the copied bytes (the snapshot), read and hash
 * every copy twice (the verify right before start and right after the run),
 * then unlink every copy and remove the directories.
 *
 * What it leaves out, on purpose, is every guarantee beyond getting the
 * bytes right: no symlink-safe open (plain openat of one name relative to an
 * already open directory), no fstat identity or size checks, no listing or
 * seal, no ceiling, no signal handling, no mode change after the write (the
 * copy is created 0400 in the same openat), one read loop through a 1 MiB
 * per-thread buffer (the bench tree's files are tiny, so no mmap path).
 * Digests are compared (copy and both verifies against the inventory): a
 * memcmp of 32 bytes, and without it nothing was verified.
 *
 * Threads: the walk and the mkdir of the snapshot's directories run on the
 * main thread (100 directories: too little to split); the inventory, copy,
 * both verifies and the unlinks run on THREADS threads, each taking a whole
 * directory at a time from a shared counter, as prc's pool does (two
 * threads creating or unlinking in one directory would serialize on its
 * lock).  The final rmdirs run on the main thread, children first.
 *
 *   oci_floor SRC [DEST_PARENT [THREADS]]
 *     DEST_PARENT: where the snapshot directory is made (mkdtemp), default
 *     $PRC_OCI_TMPDIR, else $XDG_RUNTIME_DIR, else /dev/shm: the places
 *     run-oci chooses from (docs/oci-runner.md "Where the snapshot lives";
 *     this floor skips run-oci's ownership and free-space checks).
 *     THREADS: default 2.
 * Prints one line per phase, `phase NAME WALL_MS CPU_MS` (CPU: user+sys of
 * the whole process during the phase), then `total WALL_MS CPU_MS FILES
 * BYTES`.  Exits non-zero on any error or digest mismatch.  Not a test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/digest.h"

enum { BUF_LEN = 1 << 20, MAX_THREADS = 64 };

struct dir {
        char  *rel;             /* owned: path relative to SRC, "." for SRC itself */
        size_t first, n;        /* its files: names[first .. first + n) */
};

struct file {
        char    *name;          /* owned: one path component */
        uint8_t  md[PRC_SHA256_LEN];    /* the inventory's digest */
};

static struct dir *dirs;
static size_t ndirs, dirs_cap;
static struct file *files;
static size_t nfiles, files_cap;
static int src_root, dst_root;
static atomic_size_t next_dir;
static atomic_ullong total_bytes;

static void die(const char *what, const char *path)
{
        fprintf(stderr, "oci_floor: %s '%s': %s\n", what, path, strerror(errno));
        exit(1);
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
        if (need <= *cap)
                return p;
        *cap = *cap ? *cap * 2 : 256;
        p = realloc(p, *cap * elem);
        if (p == NULL)
                die("out of memory", "");
        return p;
}

static char *join(const char *a, const char *b)
{
        size_t n = strlen(a) + strlen(b) + 2;
        char *s = malloc(n);

        if (s == NULL)
                die("out of memory", "");
        if (strcmp(a, ".") == 0)
                snprintf(s, n, "%s", b);
        else
                snprintf(s, n, "%s/%s", a, b);
        return s;
}

/*
 * Breadth first, so every directory comes after its parent (mkdir in order,
 * rmdir in reverse) and each directory's files are contiguous.
 */
static void walk(void)
{
        dirs = grow(dirs, &dirs_cap, 1, sizeof(*dirs));
        dirs[0].rel = join(".", ".");
        ndirs = 1;
        for (size_t i = 0; i < ndirs; i++) {
                int fd = openat(src_root, dirs[i].rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                struct dirent *de;
                DIR *d;

                if (fd < 0 || (d = fdopendir(fd)) == NULL)
                        die("cannot open directory", dirs[i].rel);
                dirs[i].first = nfiles;
                while ((de = readdir(d)) != NULL) {
                        unsigned char type = de->d_type;

                        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                                continue;
                        if (type == DT_UNKNOWN) {       /* some filesystems do not fill d_type */
                                struct stat st;
                                if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                                        die("cannot stat", de->d_name);
                                type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
                        }
                        if (type == DT_DIR) {
                                dirs = grow(dirs, &dirs_cap, ndirs + 1, sizeof(*dirs));
                                dirs[ndirs].rel = join(dirs[i].rel, de->d_name);
                                dirs[ndirs].first = dirs[ndirs].n = 0;
                                ndirs++;
                        } else if (type == DT_REG) {    /* run-oci's snapshot holds regular files only */
                                files = grow(files, &files_cap, nfiles + 1, sizeof(*files));
                                files[nfiles].name = strdup(de->d_name);
                                if (files[nfiles].name == NULL)
                                        die("out of memory", "");
                                nfiles++;
                        }
                }
                dirs[i].n = nfiles - dirs[i].first;
                closedir(d);
        }
}

/* Read fd to its end into buf, hashing; also copy to out when out >= 0. */
static void hash_fd(prc_sha256 *h, uint8_t *buf, int fd, int out, uint8_t md[PRC_SHA256_LEN], const char *name)
{
        prc_err e;
        ssize_t r;

        prc_err_init(&e);
        if (!prc_sha256_reset(h, &e))
                die("sha256 reset failed", name);
        while ((r = read(fd, buf, BUF_LEN)) > 0) {
                if (!prc_sha256_update(h, buf, (size_t)r, &e))
                        die("sha256 update failed", name);
                for (ssize_t done = 0; out >= 0 && done < r;) {
                        ssize_t w = write(out, buf + done, (size_t)(r - done));
                        if (w < 0)
                                die("cannot write", name);
                        done += w;
                }
                atomic_fetch_add_explicit(&total_bytes, (unsigned long long)r, memory_order_relaxed);
        }
        if (r < 0)
                die("cannot read", name);
        if (!prc_sha256_final(h, md, &e))
                die("sha256 final failed", name);
}

enum phase { INVENTORY, COPY, VERIFY, UNLINK };

static void do_dir(enum phase ph, const struct dir *d, prc_sha256 *h, uint8_t *buf)
{
        int sfd = -1, dfd = -1;

        if (ph == INVENTORY || ph == COPY) {
                sfd = openat(src_root, d->rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (sfd < 0)
                        die("cannot open directory", d->rel);
        }
        if (ph != INVENTORY) {
                dfd = openat(dst_root, d->rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (dfd < 0)
                        die("cannot open snapshot directory", d->rel);
        }
        for (size_t i = d->first; i < d->first + d->n; i++) {
                struct file *f = &files[i];
                uint8_t md[PRC_SHA256_LEN];
                int in, out;

                switch (ph) {
                case INVENTORY:
                        in = openat(sfd, f->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                        if (in < 0)
                                die("cannot open", f->name);
                        hash_fd(h, buf, in, -1, f->md, f->name);
                        close(in);
                        break;
                case COPY:
                        in = openat(sfd, f->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                        out = openat(dfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
                        if (in < 0 || out < 0)
                                die("cannot open or create", f->name);
                        hash_fd(h, buf, in, out, md, f->name);
                        if (memcmp(md, f->md, sizeof(md)) != 0 || close(out) != 0) {
                                errno = EIO;
                                die("copy differs from the inventory", f->name);
                        }
                        close(in);
                        break;
                case VERIFY:
                        in = openat(dfd, f->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                        if (in < 0)
                                die("cannot open copy", f->name);
                        hash_fd(h, buf, in, -1, md, f->name);
                        if (memcmp(md, f->md, sizeof(md)) != 0) {
                                errno = EIO;
                                die("copy differs from the inventory", f->name);
                        }
                        close(in);
                        break;
                case UNLINK:
                        if (unlinkat(dfd, f->name, 0) != 0)
                                die("cannot unlink", f->name);
                        break;
                }
        }
        if (sfd >= 0)
                close(sfd);
        if (dfd >= 0)
                close(dfd);
}

struct worker {
        pthread_t  tid;
        enum phase ph;
};

static void *work(void *arg)
{
        const struct worker *w = arg;
        uint8_t *buf = malloc(BUF_LEN);
        prc_err e;
        prc_sha256 *h;

        prc_err_init(&e);
        h = prc_sha256_new(&e);
        if (buf == NULL || h == NULL)
                die("out of memory", "");
        for (;;) {
                size_t i = atomic_fetch_add(&next_dir, 1);
                if (i >= ndirs)
                        break;
                do_dir(w->ph, &dirs[i], h, buf);
        }
        prc_sha256_free(h);
        free(buf);
        return NULL;
}

/* Run phase ph on n threads (the caller's among them), directories from a shared counter. */
static void run_threads(enum phase ph, unsigned n)
{
        struct worker w[MAX_THREADS];

        atomic_store(&next_dir, 0);
        for (unsigned t = 0; t < n; t++)
                w[t].ph = ph;
        for (unsigned t = 1; t < n; t++)
                if (pthread_create(&w[t].tid, NULL, work, &w[t]) != 0)
                        die("cannot create a thread", "");
        work(&w[0]);
        for (unsigned t = 1; t < n; t++)
                pthread_join(w[t].tid, NULL);
}

static double now_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);    /* all threads of the process */
        return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double t_mark, c_mark;

static void mark(const char *name)
{
        double t = now_ms(), c = cpu_ms();

        printf("phase %-10s %8.1f %8.1f\n", name, t - t_mark, c - c_mark);
        t_mark = t;
        c_mark = c;
}

int main(int argc, char **argv)
{
        const char *parent = argc > 2 ? argv[2] : NULL;
        unsigned threads = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 2;
        double t0, c0;
        char *snap;
        size_t n;

        if (argc < 2 || threads == 0 || threads > MAX_THREADS) {
                fprintf(stderr, "usage: oci_floor SRC [DEST_PARENT [THREADS]]\n");
                return 2;
        }
        if (parent == NULL || parent[0] == '\0')
                parent = getenv("PRC_OCI_TMPDIR");
        if (parent == NULL || parent[0] == '\0')
                parent = getenv("XDG_RUNTIME_DIR");
        if (parent == NULL || parent[0] == '\0')
                parent = "/dev/shm";
        n = strlen(parent) + sizeof("/prc-floor-XXXXXX");
        snap = malloc(n);
        if (snap == NULL)
                die("out of memory", "");
        snprintf(snap, n, "%s/prc-floor-XXXXXX", parent);

        t0 = t_mark = now_ms();
        c0 = c_mark = cpu_ms();
        src_root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (src_root < 0)
                die("cannot open", argv[1]);
        walk();
        mark("walk");
        run_threads(INVENTORY, threads);
        mark("inventory");

        /* The snapshot's directories, parents first (the walk's order); 0700 as run-oci's. */
        if (mkdtemp(snap) == NULL)
                die("cannot create a directory under", parent);
        dst_root = open(snap, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dst_root < 0)
                die("cannot open", snap);
        for (size_t i = 1; i < ndirs; i++)
                if (mkdirat(dst_root, dirs[i].rel, 0700) != 0)
                        die("cannot create", dirs[i].rel);
        run_threads(COPY, threads);
        mark("copy");
        run_threads(VERIFY, threads);
        mark("verify1");
        run_threads(VERIFY, threads);
        mark("verify2");
        run_threads(UNLINK, threads);
        for (size_t i = ndirs; i-- > 1;)
                if (unlinkat(dst_root, dirs[i].rel, AT_REMOVEDIR) != 0)
                        die("cannot remove", dirs[i].rel);
        close(dst_root);
        if (rmdir(snap) != 0)
                die("cannot remove", snap);
        mark("remove");
        printf("total %8.1f %8.1f %zu %llu\n", now_ms() - t0, cpu_ms() - c0, nfiles,
               (unsigned long long)atomic_load(&total_bytes) / 4);  /* each byte is hashed four times */
        close(src_root);
        for (size_t i = 0; i < nfiles; i++)
                free(files[i].name);
        for (size_t i = 0; i < ndirs; i++)
                free(dirs[i].rel);
        free(files);
        free(dirs);
        free(snap);
        return 0;
}
