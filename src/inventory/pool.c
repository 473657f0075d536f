/*
 * pool.c - worker pool and streaming reader for inventory and snapshot.
 * Trust: reads hostile files through descriptors opened by the caller with
 * safeopen; never trusts a size it did not re-check at the end.
 */
#include "inventory/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/file.h"

#if defined(PRC_TESTING) && PRC_TESTING
static prc_inv_hook_fn hook_fn;
static void *hook_arg;
static bool force_stream;
static bool force_read;

void prc_inventory_test_force_stream_copy(bool on)
{
        force_stream = on;
}

void prc_inventory_test_force_read(bool on)
{
        force_read = on;
}

void prc_inventory_set_test_hook(prc_inv_hook_fn fn, void *arg)
{
        hook_fn = fn;
        hook_arg = arg;
}

void prc_inv_hook_call(int point, const char *rel)
{
        if (hook_fn != NULL)
                hook_fn(point, rel, hook_arg);
}
#else
void prc_inv_hook_call(int point, const char *rel)
{
        (void)point;
        (void)rel;
}
#endif

unsigned prc_pool_default_threads(void)
{
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        if (n < 1)
                return 1;
        return n > 8 ? 8 : (unsigned)n;
}

struct pool {
        size_t           njobs;
        const size_t    *order;         /* borrowed */
        prc_pool_fn      fn;
        void            *ctx;
        const volatile sig_atomic_t *cancel;
        atomic_size_t    next;          /* next position in order */
        atomic_bool      stop;
        pthread_mutex_t  mu;
        size_t           fail_pos;      /* position of the earliest failure (under mu) */
        prc_err          fail;          /* its error (under mu) */
};

struct worker {
        struct pool    *p;
        prc_pool_worker w;
};

static void record_failure(struct pool *p, size_t pos, const prc_err *e)
{
        pthread_mutex_lock(&p->mu);
        if (pos < p->fail_pos) {
                p->fail_pos = pos;
                p->fail = *e;
        }
        pthread_mutex_unlock(&p->mu);
        atomic_store(&p->stop, true);
}

static void *worker_main(void *arg)
{
        struct worker *wk = arg;
        struct pool *p = wk->p;

        for (;;) {
                size_t pos, job;

                if (atomic_load_explicit(&p->stop, memory_order_relaxed))
                        break;
                pos = atomic_fetch_add(&p->next, 1);
                if (pos >= p->njobs)
                        break;
                if (p->cancel != NULL && *p->cancel) {
                        prc_err_init(&wk->w.err);
                        prc_err_set(&wk->w.err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                        record_failure(p, pos, &wk->w.err);
                        break;
                }
                job = p->order != NULL ? p->order[pos] : pos;
                prc_err_init(&wk->w.err);
                if (!p->fn(p->ctx, job, &wk->w)) {
                        if (!prc_err_is_set(&wk->w.err))
                                prc_err_set(&wk->w.err, PRC_E_INTERNAL, "pool job failed without an error");
                        record_failure(p, pos, &wk->w.err);
                        break;
                }
        }
        return NULL;
}

bool prc_pool_run(unsigned threads, size_t njobs, const size_t *order, prc_pool_fn fn, void *ctx,
                  const volatile sig_atomic_t *cancel, prc_err *err)
{
        struct pool p = { .njobs = njobs, .order = order, .fn = fn, .ctx = ctx, .cancel = cancel,
                          .fail_pos = SIZE_MAX };
        struct worker *wk = NULL;
        pthread_t *tid = NULL;
        unsigned started = 0;
        bool ok = false;

        if (threads == 0)
                threads = 1;
        if (threads > njobs)
                threads = njobs > 0 ? (unsigned)njobs : 1;
        atomic_init(&p.next, 0);
        atomic_init(&p.stop, false);
        prc_err_init(&p.fail);
        if (pthread_mutex_init(&p.mu, NULL) != 0)
                return prc_err_set(err, PRC_E_INTERNAL, "cannot create a mutex");
        wk = calloc(threads, sizeof(*wk));
        tid = calloc(threads, sizeof(*tid));
        if (wk == NULL || tid == NULL) {
                prc_err_oom(err, "the worker pool");
                goto out;
        }
        for (unsigned i = 0; i < threads; i++) {
                wk[i].p = &p;
                wk[i].w.cancel = cancel;
                prc_err_init(&wk[i].w.err);
                wk[i].w.buf = malloc(PRC_POOL_BUF);
                wk[i].w.h = prc_sha256_new(err);
                if (wk[i].w.buf == NULL || wk[i].w.h == NULL) {
                        prc_err_oom(err, "a worker buffer");
                        goto out;
                }
        }
        if (threads == 1) {
                worker_main(&wk[0]);
        } else {
                for (; started < threads; started++) {
                        if (pthread_create(&tid[started], NULL, worker_main, &wk[started]) != 0) {
                                /* Fewer threads is slower, not wrong: run with those we have. */
                                if (started == 0)
                                        worker_main(&wk[0]);
                                break;
                        }
                }
                for (unsigned i = 0; i < started; i++)
                        pthread_join(tid[i], NULL);
        }
        if (p.fail_pos != SIZE_MAX) {
                if (err != NULL && !prc_err_is_set(err))
                        *err = p.fail;
                goto out;
        }
        ok = true;
out:
        if (wk != NULL) {
                for (unsigned i = 0; i < threads; i++) {
                        free(wk[i].w.buf);
                        prc_sha256_free(wk[i].w.h);
                }
        }
        free(wk);
        free(tid);
        pthread_mutex_destroy(&p.mu);
        return ok;
}

struct feed_worker {
        struct prc_pool_feed *f;
        prc_pool_worker       w;
};

struct prc_pool_feed {
        prc_pool_fn         fn;
        void               *ctx;
        unsigned            nslots;     /* worker slots: threads - 1, plus the caller's last */
        unsigned            started;    /* threads running feed_main on slots [0, started) */
        pthread_t          *tid;
        struct feed_worker *wk;         /* nthreads + 1: the last is the caller's */
        atomic_size_t       next;       /* next job to claim */
        atomic_size_t       avail;      /* jobs [0, avail) are published */
        atomic_bool         stop;
        pthread_mutex_t     mu;
        pthread_cond_t      cv;
        bool                closed;     /* under mu: nothing more will be published */
        unsigned            waiting;    /* under mu */
        size_t              fail_pos;   /* under mu */
        prc_err             fail;       /* under mu */
};

static void feed_failure(prc_pool_feed *f, size_t pos, const prc_err *e)
{
        pthread_mutex_lock(&f->mu);
        if (pos < f->fail_pos) {
                f->fail_pos = pos;
                f->fail = *e;
        }
        atomic_store(&f->stop, true);
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
}

static void *feed_main(void *arg)
{
        struct feed_worker *fw = arg;
        prc_pool_feed *f = fw->f;

        /*
         * Each slot's SHA-256 context is made here, by the thread that uses
         * it (memory only since the hash is prc's own).  A failure is every
         * job's, so it is charged to job 0, which any run has claimed or will.
         */
        if (fw->w.h == NULL) {
                prc_err_init(&fw->w.err);
                fw->w.h = prc_sha256_new(&fw->w.err);
                if (fw->w.h == NULL) {
                        feed_failure(f, 0, &fw->w.err);
                        return NULL;
                }
        }
        for (;;) {
                size_t pos;

                if (atomic_load_explicit(&f->stop, memory_order_relaxed))
                        break;
                pos = atomic_fetch_add(&f->next, 1);
                if (pos >= atomic_load_explicit(&f->avail, memory_order_acquire)) {
                        bool have;

                        /* Claimed ahead of the walk: wait for it (claims stay in index order). */
                        pthread_mutex_lock(&f->mu);
                        while (pos >= atomic_load(&f->avail) && !f->closed && !atomic_load(&f->stop)) {
                                f->waiting++;
                                pthread_cond_wait(&f->cv, &f->mu);
                                f->waiting--;
                        }
                        have = pos < atomic_load(&f->avail) && !atomic_load(&f->stop);
                        pthread_mutex_unlock(&f->mu);
                        if (!have)
                                break;
                }
                prc_err_init(&fw->w.err);
                if (!f->fn(f->ctx, pos, &fw->w)) {
                        if (!prc_err_is_set(&fw->w.err))
                                prc_err_set(&fw->w.err, PRC_E_INTERNAL, "pool job failed without an error");
                        feed_failure(f, pos, &fw->w.err);
                        break;
                }
        }
        return NULL;
}

static void feed_free(prc_pool_feed *f)
{
        for (unsigned i = 0; i < f->nslots; i++) {
                free(f->wk[i].w.buf);
                prc_sha256_free(f->wk[i].w.h);
        }
        free(f->wk);
        free(f->tid);
        pthread_cond_destroy(&f->cv);
        pthread_mutex_destroy(&f->mu);
        free(f);
}

prc_pool_feed *prc_pool_feed_start(unsigned threads, prc_pool_fn fn, void *ctx, prc_err *err)
{
        prc_pool_feed *f = calloc(1, sizeof(*f));
        unsigned want = threads > 1 ? threads - 1 : 0;

        if (f == NULL) {
                prc_err_oom(err, "the worker pool");
                return NULL;
        }
        f->fn = fn;
        f->ctx = ctx;
        f->fail_pos = SIZE_MAX;
        atomic_init(&f->next, 0);
        atomic_init(&f->avail, 0);
        atomic_init(&f->stop, false);
        prc_err_init(&f->fail);
        if (pthread_mutex_init(&f->mu, NULL) != 0) {
                free(f);
                prc_err_set(err, PRC_E_INTERNAL, "cannot create a mutex");
                return NULL;
        }
        if (pthread_cond_init(&f->cv, NULL) != 0) {
                pthread_mutex_destroy(&f->mu);
                free(f);
                prc_err_set(err, PRC_E_INTERNAL, "cannot create a condition variable");
                return NULL;
        }
        f->wk = calloc(want + 1, sizeof(*f->wk));
        f->tid = calloc(want + 1, sizeof(*f->tid));
        if (f->wk == NULL || f->tid == NULL) {
                feed_free(f);
                prc_err_oom(err, "the worker pool");
                return NULL;
        }
        f->nslots = want + 1;
        for (unsigned i = 0; i <= want; i++) {
                f->wk[i].f = f;
                prc_err_init(&f->wk[i].w.err);
                f->wk[i].w.buf = malloc(PRC_POOL_BUF);
                if (f->wk[i].w.buf == NULL) {
                        feed_free(f);
                        prc_err_oom(err, "a worker buffer");
                        return NULL;
                }
        }
        /* Fewer threads is slower, not wrong: the caller still runs every job at the end. */
        while (f->started < want && pthread_create(&f->tid[f->started], NULL, feed_main, &f->wk[f->started]) == 0)
                f->started++;
        return f;
}

void prc_pool_feed_publish(prc_pool_feed *f, size_t njobs)
{
        atomic_store_explicit(&f->avail, njobs, memory_order_release);
        /* Under mu: a worker that saw the old count is either not yet waiting or woken here. */
        pthread_mutex_lock(&f->mu);
        if (f->waiting > 0)
                pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
}

bool prc_pool_feed_failed(prc_pool_feed *f)
{
        return atomic_load_explicit(&f->stop, memory_order_relaxed);
}

bool prc_pool_feed_finish(prc_pool_feed *f, bool abort, prc_err *err)
{
        bool ok = true;

        pthread_mutex_lock(&f->mu);
        f->closed = true;
        if (abort)
                atomic_store(&f->stop, true);
        pthread_cond_broadcast(&f->cv);
        pthread_mutex_unlock(&f->mu);
        if (!abort)
                feed_main(&f->wk[f->nslots - 1]);
        for (unsigned i = 0; i < f->started; i++)
                pthread_join(f->tid[i], NULL);
        if (abort) {
                ok = false;
        } else if (f->fail_pos != SIZE_MAX) {
                if (err != NULL && !prc_err_is_set(err))
                        *err = f->fail;
                ok = false;
        }
        feed_free(f);
        return ok;
}

static bool same_times(const struct stat *a, const struct stat *b)
{
        return a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * Hashing large files through a mapping instead of read(): the kernel's
 * copy to user space is an eighth of an inventory's CPU (perf, bench/
 * inventory.sh), and a mapped page-cache page is hashed where it lies.
 * A file truncated while mapped raises SIGBUS on the next page touched;
 * a thread-local guard turns that into the file-changed error of the
 * read path.  The handler is process-wide (installed once, chained to any
 * handler that was there); a SIGBUS outside a guarded window keeps its
 * previous disposition.
 */
enum {
        MAP_MIN = 256u << 10,           /* below this read() is cheaper than mmap+munmap */
        MAP_WINDOW = 16u << 20,         /* address space per thread stays bounded */
};

static _Thread_local sigjmp_buf *bus_guard;
static struct sigaction bus_prev;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;
static bool bus_ready;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
        sigjmp_buf *g = bus_guard;

        if (g != NULL) {
                bus_guard = NULL;
                siglongjmp(*g, 1);
        }
        if ((bus_prev.sa_flags & SA_SIGINFO) && bus_prev.sa_sigaction != NULL) {
                bus_prev.sa_sigaction(sig, si, uc);
                return;
        }
        if (bus_prev.sa_handler != SIG_DFL && bus_prev.sa_handler != SIG_IGN && bus_prev.sa_handler != NULL) {
                bus_prev.sa_handler(sig);
                return;
        }
        /* Not ours: the default action, now (a fault or a kill -BUS alike ends the process). */
        (void)signal(SIGBUS, SIG_DFL);
        (void)raise(SIGBUS);
}

static void bus_install(void)
{
        struct sigaction sa = { 0 };

        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;  /* no mask change: sigsetjmp need not save one */
        sigemptyset(&sa.sa_mask);
        bus_ready = sigaction(SIGBUS, &sa, &bus_prev) == 0;
}

static bool map_wanted(uint64_t want)
{
#if defined(PRC_TESTING) && PRC_TESTING
        if (force_read)
                return false;
#endif
        if (want < MAP_MIN)
                return false;
        (void)pthread_once(&bus_once, bus_install);
        return bus_ready;
}

/*
 * Hash bytes [0, want) of fd through mappings of MAP_WINDOW bytes.  Returns
 * 1 when hashed, 0 with err set, -1 when the kernel refused the mapping
 * (nothing hashed: the caller reads instead).
 */
static int hash_mapped(prc_pool_worker *w, int fd, uint64_t want, const char *rel, prc_errclass changed_cls,
                       int hook_point, prc_err *err)
{
        sigjmp_buf env;
        uint8_t *volatile map = NULL;
        volatile size_t maplen = 0;
        volatile uint64_t off = 0;
        volatile bool hooked = false;

        if (sigsetjmp(env, 0) != 0) {
                /* A page vanished under the mapping: the file was truncated while it was hashed. */
                if (map != NULL)
                        (void)munmap(map, maplen);
                (void)prc_err_set(err, changed_cls, "'%s' shrank while it was read (fstat said %llu bytes)", rel,
                                  (unsigned long long)want);
                return 0;
        }
        while (off < want) {
                uint64_t left = want - off;
                size_t len = left > MAP_WINDOW ? MAP_WINDOW : (size_t)left;
                void *p;

                if (w->cancel != NULL && *w->cancel) {
                        (void)prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                        return 0;
                }
                p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);
                if (p == MAP_FAILED) {
                        if (off == 0 && (errno == ENODEV || errno == EINVAL || errno == EACCES))
                                return -1;
                        (void)prc_err_sys(err, PRC_E_IO, errno, "cannot map '%s'", rel);
                        return 0;
                }
                map = p;
                maplen = len;
                bus_guard = &env;
                for (size_t at = 0; at < len;) {
                        size_t n = len - at > PRC_POOL_BUF ? PRC_POOL_BUF : len - at;

                        if (!prc_sha256_update(w->h, (const uint8_t *)p + at, n, err)) {
                                bus_guard = NULL;
                                (void)munmap(p, len);
                                return 0;
                        }
                        at += n;
                        if (!hooked) {
                                hooked = true;
                                prc_inv_hook_call(hook_point, rel);
                        }
                }
                bus_guard = NULL;
                map = NULL;
                (void)munmap(p, len);
                off = off + len;
        }
        return 1;
}

bool prc_pool_stream(prc_pool_worker *w, int fd, const struct stat *st0, int outfd, const char *rel,
                     prc_errclass changed_cls, int hook_point, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        uint64_t want = (uint64_t)st0->st_size, total = 0;
        struct stat st1;
        bool first = true;
        unsigned reads = 0;

        w->whole = false;
        if (!prc_sha256_reset(w->h, err))
                return false;
        if (outfd < 0 && map_wanted(want)) {
                int r = hash_mapped(w, fd, want, rel, changed_cls, hook_point, err);

                if (r == 0)
                        return false;
                if (r == 1) {
                        total = want;
                        goto hashed;
                }
        }
        if (want > PRC_POOL_BUF)
                (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);  /* a hint: failure is harmless */
        /*
         * Read exactly the fstat size (the last read asks for one byte more,
         * so growth shows without another call); an empty file needs no read
         * at all.  A file that grows after the last read is caught by the
         * closing fstat, and skipping EOF probes halves the syscalls on
         * trees of small files.
         */
        while (total < want) {
                size_t chunk = PRC_POOL_BUF;
                ssize_t r;

                if (w->cancel != NULL && *w->cancel)
                        return prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                if (want - total < chunk && want > total)
                        chunk = (size_t)(want - total) + 1;     /* +1: see growth without another call */
                r = read(fd, w->buf, chunk);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        if (errno == EACCES || errno == EPERM)
                                return prc_err_sys(err, PRC_E_INV_UNREADABLE, errno, "cannot read '%s'", rel);
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot read '%s'", rel);
                }
                if (r == 0)
                        break;
                if ((uint64_t)r > want - total)
                        return prc_err_set(err, changed_cls, "'%s' grew while it was read (fstat said %llu bytes)",
                                           rel, (unsigned long long)want);
                if (!prc_sha256_update(w->h, w->buf, (size_t)r, err))
                        return false;
                if (outfd >= 0 && !prc_fd_write_all(outfd, w->buf, (size_t)r, err))
                        return false;
                total += (uint64_t)r;
                reads++;
                if (first) {
                        first = false;
                        prc_inv_hook_call(hook_point, rel);
                }
        }
        if (total != want)
                return prc_err_set(err, changed_cls, "'%s' shrank while it was read (%llu of %llu bytes)", rel,
                                   (unsigned long long)total, (unsigned long long)want);
hashed:
        if (fstat(fd, &st1) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", rel);
        if (st1.st_size != st0->st_size || !same_times(st0, &st1))
                return prc_err_set(err, changed_cls, "'%s' changed while it was read (size or mtime moved)", rel);
        if (!prc_sha256_final(w->h, out, err))
                return false;
        w->whole = reads == 1 && total > 0;     /* one read into buf from its start: buf holds the file */
        return true;
}

bool prc_pool_copy(prc_pool_worker *w, int src, const struct stat *st0, int dst, const char *rel,
                   prc_errclass changed_cls, int hook_point, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        uint64_t want = (uint64_t)st0->st_size, total = 0, off = 0;
        struct stat st1;
        bool first = true;

#if defined(PRC_TESTING) && PRC_TESTING
        if (force_stream)
                return prc_pool_stream(w, src, st0, dst, rel, changed_cls, hook_point, out, err);
#endif
        while (total < want) {
                uint64_t left = want - total;
                size_t chunk = left > (8u << 20) ? (8u << 20) : (size_t)left;
                ssize_t r;

                if (w->cancel != NULL && *w->cancel)
                        return prc_err_set(err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
                r = copy_file_range(src, NULL, dst, NULL, chunk, 0);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0 && total == 0 &&
                    (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP || errno == EPERM))
                        /* Nothing copied yet, both offsets still 0: copy through user space instead. */
                        return prc_pool_stream(w, src, st0, dst, rel, changed_cls, hook_point, out, err);
                if (r < 0) {
                        if (errno == EACCES)
                                return prc_err_sys(err, PRC_E_INV_UNREADABLE, errno, "cannot read '%s'", rel);
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot copy '%s'", rel);
                }
                if (r == 0)
                        break;
                total += (uint64_t)r;
                if (first) {
                        first = false;
                        prc_inv_hook_call(hook_point, rel);
                }
        }
        if (total != want)
                return prc_err_set(err, changed_cls, "'%s' shrank while it was copied (%llu of %llu bytes)", rel,
                                   (unsigned long long)total, (unsigned long long)want);
        if (fstat(src, &st1) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", rel);
        if (st1.st_size != st0->st_size || !same_times(st0, &st1))
                return prc_err_set(err, changed_cls, "'%s' changed while it was copied (size or mtime moved)", rel);
        /* Hash the copy itself (hot in the page cache): the digest is of the snapshot's bytes. */
        if (!prc_sha256_reset(w->h, err))
                return false;
        while (off < want) {
                size_t chunk = want - off > PRC_POOL_BUF ? PRC_POOL_BUF : (size_t)(want - off);
                ssize_t r = pread(dst, w->buf, chunk, (off_t)off);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot read back the copy of '%s'", rel);
                if (r == 0)
                        return prc_err_set(err, PRC_E_IO, "the copy of '%s' is short", rel);
                if (!prc_sha256_update(w->h, w->buf, (size_t)r, err))
                        return false;
                off += (uint64_t)r;
        }
        return prc_sha256_final(w->h, out, err);
}
