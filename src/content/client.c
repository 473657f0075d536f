/*
 * client.c - content worker client (client.h): spawn, frames, refusals,
 * fork safety and the parse cache.
 * Trust: engine-side.  Everything read from the worker is hostile: frames
 * are checked before allocation, documents go through the strict binary
 * reader (docenc.h), refusal text is sanitized (frame.c).
 */
#include "content/client.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/json_strict.h"
#include "base/tune.h"
#include "content/docenc.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/mdoc_pack.h"
#include "content/frame.h"
#include "content/worker.h"

extern char **environ;

enum {
        READY_MAX = 4096,       /* the READY frame is a short JSON object */
        ARGV_MAX = 24,
        REAP_GRACE_MS = 1000,   /* a worker that closed its pipe is exiting: it gets this long */
        PIPE_BYTES = 1 << 20,   /* pipe capacity asked for: Linux's default pipe-max-size */
};

typedef struct centry {
        struct centry *prev, *next;     /* LRU list: head is the most recently used */
        struct centry *chain;           /* next entry in the same hash bucket */
        uint8_t        key[PRC_SHA256_LEN];
        uint16_t       type;            /* PRC_RE_DOC or PRC_RE_REFUSE */
        uint8_t       *data;            /* owned: the reply payload */
        size_t         len;
} centry;

/*
 * What one entry costs beyond its payload, charged against cache_max with
 * it (issue 16): without it, a flood of tiny replies (a 10-byte document
 * each) would hold millions of entries whose own blocks dwarf the payload
 * bound.  The figure covers the entry's heap chunk (glibc: the block plus
 * an 8-byte header, in 16-byte granules), the payload chunk's header and
 * rounding (at most 32 bytes: the smallest chunk is 32) and two bucket
 * slots (the table never has more than two per entry the cache has held
 * at once).
 */
_Static_assert((sizeof(centry) + 8 + 15) / 16 * 16 + 32 + 2 * sizeof(centry *) <= PRC_CACHE_ENTRY_OVERHEAD,
               "PRC_CACHE_ENTRY_OVERHEAD no longer covers an entry's own memory");

struct prc_client {
        prc_client_opts o;              /* copy; its pointers are borrowed from the caller */
        pid_t           pid;            /* running worker, or 0 */
        unsigned        owner;          /* the fork generation that started it (fork safety: forks below) */
        int             to_w, from_w;   /* owned: our pipe ends, -1 when none */
        unsigned        served;         /* requests answered by this worker */
        bool            archive_worker; /* the running worker was started with libarchive */
        bool            want_archive;   /* start workers with libarchive: this client walks archives */
        int64_t         busy_ns;        /* wall time this worker spent on requests: bounds its CPU time */
        size_t          req_room;       /* bytes the request pipe holds (F_GETPIPE_SZ): a run fits in it */
        json_t         *ready;          /* owned: READY details of this worker */
        json_t         *floor;          /* owned: the floor record of the first worker that served, or NULL */
        bool            floor_refused;  /* a worker refused to serve for floor-unavailable */
        prc_buf         reqbuf, rep;
        centry         *head, *tail;    /* owned: the cache, in LRU order */
        centry        **buckets;        /* owned array; entries borrowed from the list */
        size_t          nbuckets;       /* power of two, or 0 */
        size_t          cbytes, centries;
        prc_client_stats st;
        /* packed_deps: the table reader, set for the reply of an extraction only (never a parse's) */
        prc_mdp_hook_ctx mdp;
        prc_docbin_hook mdp_hook;
        const prc_docbin_hook *hook;    /* NULL, or &mdp_hook while an extraction's reply is read */
};

void prc_client_opts_default(prc_client_opts *o)
{
        memset(o, 0, sizeof(*o));
        o->req_max = PRC_REQ_MAX;
        o->reply_max = PRC_REPLY_MAX;
        o->timeout_ms = 10000;
        o->start_ms = 5000;
        o->cache_max = 64u << 20;
        o->as_bytes = 1ULL << 30;
        o->cpu_seconds = 60;
        o->max_requests = 1000;
        o->lim = prc_limits_default;
}

/*
 * Forks this process has gone through (each child counts one more than
 * its parent, pthread_atfork): a memory read per request where getpid()
 * was a system call.  A client's worker belongs to the generation that
 * started it.
 */
static atomic_uint forks;
static pthread_once_t forks_once = PTHREAD_ONCE_INIT;

static void forked(void)
{
        atomic_fetch_add(&forks, 1);
}

static void forks_watch(void)
{
        (void)pthread_atfork(NULL, NULL, forked);
}

prc_client *prc_client_new(const prc_client_opts *opts, prc_err *err)
{
        prc_client *c = calloc(1, sizeof(*c));

        if (c == NULL) {
                prc_err_oom(err, "content client");
                return NULL;
        }
        (void)pthread_once(&forks_once, forks_watch);
        c->o = *opts;
        c->to_w = c->from_w = -1;
        c->mdp_hook = (prc_docbin_hook){ .key = "dependencies", .read = prc_mdp_hook_read, .ctx = &c->mdp };
        prc_buf_init(&c->reqbuf, opts->req_max);
        prc_buf_init(&c->rep, opts->reply_max);
        return c;
}

static void close_fds(prc_client *c)
{
        if (c->to_w >= 0)
                close(c->to_w);
        if (c->from_w >= 0)
                close(c->from_w);
        c->to_w = c->from_w = -1;
        json_decref(c->ready);
        c->ready = NULL;
        c->pid = 0;
        c->served = 0;
        c->busy_ns = 0;
}

/* In a forked child: forget the parent's worker without touching it. */
static void check_fork(prc_client *c)
{
        if (c->pid != 0 && c->owner != atomic_load(&forks))
                close_fds(c);   /* our copies only; the parent's worker never notices */
}

/*
 * Wait for our worker to end, at most grace_ms, then SIGKILL it.  Returns
 * true with *status when the kernel reported how it ended by itself.
 */
static bool reap(prc_client *c, unsigned grace_ms, int *status)
{
        int64_t deadline = prc_now_ns() + (int64_t)grace_ms * 1000000;
        pid_t pid = c->pid;
        bool natural = false;

        for (;;) {
                pid_t r = waitpid(pid, status, WNOHANG);
                if (r == pid) {
                        natural = true;
                        break;
                }
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        break;          /* ECHILD: someone else reaped it (SIGCHLD ignored) */
                if (prc_now_ns() >= deadline) {
                        kill(pid, SIGKILL);
                        while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                                ;
                        break;
                }
                struct timespec ts = { 0, 200000 };
                nanosleep(&ts, NULL);
        }
        close_fds(c);
        return natural;
}

/* Retire a healthy worker: EOF on its request pipe makes it exit by itself; reap it. */
static void retire_worker(prc_client *c)
{
        int status;

        close(c->to_w);
        c->to_w = -1;
        (void)reap(c, REAP_GRACE_MS, &status);
}

/* Kill and reap our worker now (timeouts, bad frames, retirement on failure). */
static void kill_worker(prc_client *c)
{
        int status;

        if (c->pid == 0)
                return;
        kill(c->pid, SIGKILL);
        (void)reap(c, REAP_GRACE_MS, &status);  /* how it ended does not matter: we ended it */
}

/* The worker went away (EOF, EPIPE): reap it and name the refusal by how it ended. */
static bool worker_gone(prc_client *c, const prc_err *cause, const char *when, prc_err *err)
{
        int status = 0;
        bool natural = reap(c, REAP_GRACE_MS, &status);

        if (natural && WIFSIGNALED(status)) {
                int sig = WTERMSIG(status);
                if (sig == SIGSYS)
                        return prc_err_set(err, PRC_E_WORKER_DENIED_SYSCALL,
                                           "worker killed by SIGSYS %s: a system call outside the allowlist", when);
                if (sig == SIGXCPU || sig == SIGXFSZ)
                        return prc_err_set(err, PRC_E_WORKER_LIMIT, "worker killed by %s %s: %s limit reached",
                                           sig == SIGXCPU ? "SIGXCPU" : "SIGXFSZ", when,
                                           sig == SIGXCPU ? "CPU time" : "file size");
                return prc_err_set(err, PRC_E_WORKER_DEAD, "worker killed by signal %d (%s) %s", sig,
                                   strsignal(sig), when);
        }
        if (natural && WIFEXITED(status))
                return prc_err_set(err, PRC_E_WORKER_DEAD, "worker exited with status %d %s (%s)",
                                   WEXITSTATUS(status), when, cause->msg);
        return prc_err_set(err, PRC_E_WORKER_DEAD, "worker stopped %s (%s)", when, cause->msg);
}

static bool set_nonblock(int fd)
{
        int fl = fcntl(fd, F_GETFL);
        return fl >= 0 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0;
}

static bool spawn(prc_client *c, prc_err *err)
{
        char as[40], cpu[32], req[32], rep[32], floor[32];
        const char *argv[ARGV_MAX + 1];
        const char *path = c->o.worker_path ? c->o.worker_path : "/proc/self/exe";
        posix_spawn_file_actions_t fa;
        posix_spawnattr_t attr;
        sigset_t none, all;
        int rq[2], rp[2], cr, cw, rc;
        size_t n = 0;
        pid_t pid;

        if (pipe2(rq, O_CLOEXEC) != 0)
                return prc_err_sys(err, PRC_E_WORKER_START, errno, "pipe failed: %s", strerror(errno));
        if (pipe2(rp, O_CLOEXEC) != 0) {
                close(rq[0]);
                close(rq[1]);
                return prc_err_sys(err, PRC_E_WORKER_START, errno, "pipe failed: %s", strerror(errno));
        }
        /*
         * A whole 1 MiB request or reply then fits in the pipe: neither side
         * waits for the other to drain 64 KiB at a time.  Best effort: an
         * unprivileged user over pipe-user-pages-soft keeps the default.
         */
        (void)fcntl(rq[1], F_SETPIPE_SZ, PIPE_BYTES);
        (void)fcntl(rp[1], F_SETPIPE_SZ, PIPE_BYTES);
        /* Move the child's ends above 4 so dup2 onto 3 and 4 cannot clobber one with the other. */
        cr = fcntl(rq[0], F_DUPFD_CLOEXEC, 10);
        cw = fcntl(rp[1], F_DUPFD_CLOEXEC, 10);
        close(rq[0]);
        close(rp[1]);
        snprintf(as, sizeof(as), "as=%llu", (unsigned long long)c->o.as_bytes);
        snprintf(cpu, sizeof(cpu), "cpu=%u", c->o.cpu_seconds);
        snprintf(req, sizeof(req), "req=%u", c->o.req_max);
        snprintf(rep, sizeof(rep), "reply=%u", c->o.reply_max);
        snprintf(floor, sizeof(floor), "floor=%s", prc_floor_level_name(c->o.floor));
        argv[n++] = path;
        argv[n++] = PRC_WORKER_ARG;
        argv[n++] = as;
        argv[n++] = cpu;
        argv[n++] = req;
        argv[n++] = rep;
        argv[n++] = floor;
        if (c->want_archive)
                argv[n++] = "archive=1";
        for (size_t i = 0; c->o.worker_args != NULL && c->o.worker_args[i] != NULL && n < ARGV_MAX; i++)
                argv[n++] = c->o.worker_args[i];
        argv[n] = NULL;
        posix_spawn_file_actions_init(&fa);
        posix_spawnattr_init(&attr);
        sigemptyset(&none);
        sigfillset(&all);
        rc = cr < 0 || cw < 0 ? EMFILE : 0;
        if (rc == 0)
                rc = posix_spawn_file_actions_adddup2(&fa, cr, PRC_WORKER_FD_IN);
        if (rc == 0)
                rc = posix_spawn_file_actions_adddup2(&fa, cw, PRC_WORKER_FD_OUT);
        if (rc == 0)
                rc = posix_spawn_file_actions_addclosefrom_np(&fa, PRC_WORKER_FD_OUT + 1);
        /* Default dispositions and an empty mask: SIGXCPU and SIGPIPE must end the worker. */
        if (rc == 0)
                rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        if (rc == 0)
                rc = posix_spawnattr_setsigmask(&attr, &none);
        if (rc == 0)
                rc = posix_spawnattr_setsigdefault(&attr, &all);
        if (rc == 0) {
                /* The worker's jansson and libfyaml heaps fault 2 MiB at a time (base/tune.h). */
                char **env = prc_tune_env(environ);
                rc = posix_spawn(&pid, path, &fa, &attr, (char *const *)argv, env != NULL ? env : environ);
                prc_tune_env_free(env);
        }
        posix_spawn_file_actions_destroy(&fa);
        posix_spawnattr_destroy(&attr);
        if (cr >= 0)
                close(cr);
        if (cw >= 0)
                close(cw);
        if (rc != 0 || !set_nonblock(rq[1]) || !set_nonblock(rp[0])) {
                if (rc == 0) {
                        rc = errno;
                        kill(pid, SIGKILL);
                        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                                ;
                }
                close(rq[1]);
                close(rp[0]);
                return prc_err_sys(err, PRC_E_WORKER_START, rc, "cannot start worker '%s': %s", path, strerror(rc));
        }
        c->pid = pid;
        {
                int room = fcntl(rq[1], F_GETPIPE_SZ);
                c->req_room = room > 0 ? (size_t)room : 0;
        }
        c->owner = atomic_load(&forks);
        c->to_w = rq[1];
        c->from_w = rp[0];
        c->served = 0;
        c->archive_worker = c->want_archive;
        c->st.workers_started++;
        return true;
}

/*
 * The floor a worker says it applied must be the level asked for, and the
 * same for every worker of this client: a run records one floor.
 */
static bool check_floor(prc_client *c, prc_err *err)
{
        const json_t *f = json_object_get(c->ready, "floor");
        const char *level = json_string_value(json_object_get(f, "level"));

        if (level == NULL || strcmp(level, prc_floor_level_name(c->o.floor)) != 0 ||
            (c->floor != NULL && !json_equal(f, c->floor))) {
                kill_worker(c);
                return prc_err_set(err, PRC_E_INVALID_FRAME, "worker READY frame does not report the floor "
                                   "'%s' this client asked for, or differs from its first worker's",
                                   prc_floor_level_name(c->o.floor));
        }
        if (c->floor == NULL)
                c->floor = json_deep_copy(f);
        return c->floor != NULL || prc_err_oom(err, "the floor record");
}

json_t *prc_client_floor_record(const prc_client *c)
{
        json_t *r;

        if (c->floor != NULL) {
                r = json_deep_copy(c->floor);
                if (r != NULL && json_object_set_new(r, "worker", json_string("served")) != 0) {
                        json_decref(r);
                        r = NULL;
                }
                return r;
        }
        return json_pack("{s:s,s:s}", "level", prc_floor_level_name(c->o.floor), "worker",
                         c->floor_refused ? "refused" : "not-started");
}

bool prc_client_start(prc_client *c, prc_err *err)
{
        static const uint16_t first[] = { PRC_RE_READY, PRC_RE_REFUSE };
        prc_err e;
        uint16_t type;
        prc_frame_rc rc;

        check_fork(c);
        if (c->pid != 0)
                return true;
        if (!spawn(c, err))
                return false;
        prc_err_init(&e);
        rc = prc_frame_read(c->from_w, first, 2, READY_MAX, PRC_E_INVALID_FRAME, PRC_E_WORKER_DEAD,
                            prc_now_ns() + (int64_t)c->o.start_ms * 1000000, &type, &c->rep, &e);
        if (rc != PRC_FRAME_OK) {
                if (rc == PRC_FRAME_EOF || e.cls == PRC_E_WORKER_DEAD || e.cls == PRC_E_IO) {
                        prc_err g;
                        prc_err_init(&g);
                        (void)worker_gone(c, &e, "before its first frame", &g);
                        if (g.cls == PRC_E_WORKER_DEAD)
                                g.cls = PRC_E_WORKER_START;     /* it never came up */
                        if (!prc_err_is_set(err))
                                *err = g;
                        return false;
                }
                kill_worker(c);
                if (e.cls == PRC_E_WORKER_TIMEOUT)
                        return prc_err_set(err, PRC_E_WORKER_START, "worker sent no first frame in %u ms",
                                           c->o.start_ms);
                if (!prc_err_is_set(err))
                        *err = e;
                return false;
        }
        if (type == PRC_RE_REFUSE) {
                prc_err refusal;
                bool decoded = prc_refusal_decode(c->rep.data, c->rep.len, &refusal, &e);
                kill_worker(c);
                if (!decoded) {
                        if (!prc_err_is_set(err))
                                *err = e;
                        return false;
                }
                if (refusal.cls != PRC_E_FLOOR_UNAVAILABLE) {
                        /* Anything else before READY still means no floored worker. */
                        return prc_err_set(err, PRC_E_WORKER_START, "worker refused to start: %s: %s",
                                           prc_err_name(refusal.cls), refusal.msg);
                }
                c->floor_refused = true;
                if (!prc_err_is_set(err))
                        *err = refusal;
                return false;
        }
        c->ready = prc_json_parse(c->rep.data, c->rep.len, &prc_limits_operator, 0, &e);
        if (c->ready == NULL || !json_is_object(c->ready)) {
                kill_worker(c);
                return prc_err_set(err, PRC_E_INVALID_FRAME, "worker READY frame is not a JSON object");
        }
        return check_floor(c, err);
}

const json_t *prc_client_ready(const prc_client *c)
{
        return c->ready;
}

/* ---- cache ---- */

static void cache_unlink(prc_client *c, centry *e)
{
        if (e->prev)
                e->prev->next = e->next;
        else
                c->head = e->next;
        if (e->next)
                e->next->prev = e->prev;
        else
                c->tail = e->prev;
        e->prev = e->next = NULL;
}

static void cache_push_front(prc_client *c, centry *e)
{
        e->prev = NULL;
        e->next = c->head;
        if (c->head)
                c->head->prev = e;
        c->head = e;
        if (c->tail == NULL)
                c->tail = e;
}

/* The key is a SHA-256: any 8 of its bytes are already a uniform hash. */
static size_t bucket_of(const prc_client *c, const uint8_t key[PRC_SHA256_LEN])
{
        uint64_t h;

        memcpy(&h, key, sizeof(h));
        return (size_t)h & (c->nbuckets - 1);
}

static centry *cache_find(prc_client *c, const uint8_t key[PRC_SHA256_LEN])
{
        if (c->nbuckets == 0)
                return NULL;
        for (centry *e = c->buckets[bucket_of(c, key)]; e != NULL; e = e->chain)
                if (memcmp(e->key, key, PRC_SHA256_LEN) == 0) {
                        cache_unlink(c, e);
                        cache_push_front(c, e);
                        return e;
                }
        return NULL;
}

static void bucket_remove(prc_client *c, centry *e)
{
        centry **pp = &c->buckets[bucket_of(c, e->key)];

        while (*pp != e)
                pp = &(*pp)->chain;
        *pp = e->chain;
        e->chain = NULL;
}

static void cache_drop(prc_client *c, centry *e)
{
        bucket_remove(c, e);
        cache_unlink(c, e);
        c->cbytes -= e->len + PRC_CACHE_ENTRY_OVERHEAD;
        c->centries--;
        free(e->data);
        free(e);
}

/* Keep at most one entry per bucket on average; false when the table cannot grow. */
static bool cache_grow(prc_client *c)
{
        size_t n = c->nbuckets ? c->nbuckets * 2 : 64;
        centry **b;

        if (c->centries < c->nbuckets)
                return true;
        b = calloc(n, sizeof(*b));
        if (b == NULL)
                return c->nbuckets > 0;         /* longer chains, still correct */
        free(c->buckets);
        c->buckets = b;
        c->nbuckets = n;
        for (centry *e = c->head; e != NULL; e = e->next) {
                size_t i = bucket_of(c, e->key);
                e->chain = b[i];
                b[i] = e;
        }
        return true;
}

/* Best effort: a cache that cannot grow is only slower. */
static void cache_put(prc_client *c, const uint8_t key[PRC_SHA256_LEN], uint16_t type, const uint8_t *p, size_t n)
{
        centry *e;

        if (n > c->o.cache_max || c->o.cache_max - n < PRC_CACHE_ENTRY_OVERHEAD)
                return;
        if (!cache_grow(c))
                return;
        e = calloc(1, sizeof(*e));
        if (e == NULL)
                return;
        e->data = malloc(n ? n : 1);
        if (e->data == NULL) {
                free(e);
                return;
        }
        memcpy(e->data, p, n);
        memcpy(e->key, key, PRC_SHA256_LEN);
        e->type = type;
        e->len = n;
        cache_push_front(c, e);
        e->chain = c->buckets[bucket_of(c, key)];
        c->buckets[bucket_of(c, key)] = e;
        c->cbytes += n + PRC_CACHE_ENTRY_OVERHEAD;
        c->centries++;
        while (c->cbytes > c->o.cache_max && c->tail != NULL)
                cache_drop(c, c->tail);
}

/* Key: SHA-256 of everything that decides the reply (op, format, flags, limits, args, input). */
static bool cache_key(const prc_req *r, uint8_t key[PRC_SHA256_LEN], prc_err *err)
{
        prc_sha256 *h = prc_sha256_new(err);
        prc_req head = *r;
        prc_buf b;
        bool ok;

        if (h == NULL)
                return false;
        head.input = NULL;
        head.input_len = 0;
        /*
         * The path only labels a parse: same bytes, same document.  An
         * extraction's path picks the extractor and is written into the
         * ManifestDoc, so it stays in the key there.
         */
        if (r->op != PRC_OP_EXTRACT) {
                head.path = NULL;
                head.path_len = 0;
        }
        prc_buf_init(&b, (size_t)PRC_FRAME_ARGS_MAX + 256);
        ok = prc_buf_put(&b, &r->op, sizeof(r->op), err) && prc_req_encode(&head, &b, err) &&
             prc_sha256_update(h, b.data, b.len, err) && prc_sha256_update(h, r->input, r->input_len, err) &&
             prc_sha256_final(h, key, err);
        prc_buf_clear(&b);
        prc_sha256_free(h);
        return ok;
}

/* ---- requests ---- */

/*
 * Refusals after which the worker is not reused (nor the answer cached): an
 * allocator failure may leave library state half-built, and a refusal of
 * the frame itself means the worker is ending the conversation.
 */
static bool ends_worker(prc_errclass cls)
{
        return cls == PRC_E_OUT_OF_MEMORY || cls == PRC_E_INVALID_FRAME || cls == PRC_E_REQUEST_TOO_LARGE ||
               cls == PRC_E_USAGE || cls == PRC_E_INTERNAL;
}

/* A decoded document, or why it is not one: the worker wrote a bad reply and is ended. */
static bool doc_result(prc_client *c, json_t *v, const prc_err *e, json_t **out, prc_err *err)
{
        if (v == NULL) {
                kill_worker(c);
                return prc_err_set(err, PRC_E_INVALID_FRAME, "reply document is malformed: %s: %s",
                                   prc_err_name(e->cls), e->msg);
        }
        *out = v;
        return true;
}

static const uint16_t reply_types[] = { PRC_RE_DOC, PRC_RE_DOC_PART, PRC_RE_REFUSE };
/* A reply's first frame may also be RETIRE: the worker leaves this request unanswered (worker.c). */
static const uint16_t first_types[] = { PRC_RE_DOC, PRC_RE_DOC_PART, PRC_RE_REFUSE, PRC_RE_RETIRE };
/* After a piece, once per reply: the worker may give up streaming and start over (PRC_RE_RESTART). */
static const uint16_t piece_types[] = { PRC_RE_DOC, PRC_RE_DOC_PART, PRC_RE_REFUSE, PRC_RE_RESTART };

/* A document arriving in pieces (DOC_PART frames, then DOC) into c->rep. */
struct fill_ctx {
        prc_client *c;
        int64_t     deadline;
        size_t      left;       /* payload bytes of the current piece not read yet */
        bool        last;       /* the current piece is the DOC frame: nothing follows it */
        bool        failed;     /* the pipe or a frame failed (not the document): io says why */
        bool        refused;    /* a REFUSE came instead of the next piece (left: its length) */
        bool        restart;    /* a RESTART came instead of the next piece: the pieces so far are void */
        bool        restarted;  /* this reply restarted once already: another RESTART is an invalid frame */
        prc_err     io;
};

/* The next piece's header: DOC or DOC_PART extend the document within the reply cap; REFUSE ends it. */
static bool next_piece(struct fill_ctx *f, size_t have)
{
        prc_client *c = f->c;
        uint16_t type;
        uint32_t len;
        prc_frame_rc rc;

        if (f->restarted)
                rc = prc_frame_read_hdr(c->from_w, reply_types, PRC_ARRAY_LEN(reply_types), c->o.reply_max,
                                        PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD, f->deadline, &type, &len, &f->io);
        else
                rc = prc_frame_read_hdr(c->from_w, piece_types, PRC_ARRAY_LEN(piece_types), c->o.reply_max,
                                        PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD, f->deadline, &type, &len, &f->io);
        if (rc == PRC_FRAME_EOF)
                prc_err_set(&f->io, PRC_E_WORKER_DEAD, "stream ended inside a document (%zu bytes in)", have);
        if (rc != PRC_FRAME_OK) {
                f->failed = true;
                return false;
        }
        f->left = len;
        if (type == PRC_RE_REFUSE) {
                f->refused = true;
                return false;
        }
        if (type == PRC_RE_RESTART) {
                if (len != 0) {
                        prc_err_at(&f->io, PRC_E_INVALID_FRAME, 8, "restart frame with a %u-byte payload", len);
                        f->failed = true;
                        return false;
                }
                f->restart = true;
                return false;
        }
        if (len > c->o.reply_max - have) {
                prc_err_set(&f->io, PRC_E_REPLY_TOO_LARGE, "document pieces exceed the reply cap of %u bytes",
                            c->o.reply_max);
                f->failed = true;
                return false;
        }
        f->last = type == PRC_RE_DOC;
        c->rep.len = have;
        if (!prc_buf_reserve(&c->rep, len, &f->io)) {
                f->failed = true;
                return false;
        }
        return true;
}

/* prc_docbin_fill_fn over the reply pipe: read what is ready, at least up to need, across pieces. */
static bool fill_from_pipe(void *ctx, const uint8_t **buf, size_t have, size_t need, size_t *out_have, prc_err *err)
{
        struct fill_ctx *f = ctx;
        prc_client *c = f->c;
        size_t got, want;

        while (have < need) {
                if (f->left == 0) {
                        if (f->last)
                                break;          /* nothing follows: the decoder names the truncation */
                        if (!next_piece(f, have))
                                return prc_err_set(err, f->failed ? f->io.cls : PRC_E_INVALID_FRAME,
                                                   "document reply stopped");
                        *buf = c->rep.data;
                        continue;
                }
                want = need - have < f->left ? need - have : f->left;
                if (!prc_frame_read_some(c->from_w, c->rep.data + have, want, f->left, f->deadline, PRC_E_WORKER_DEAD,
                                         &got, &f->io)) {
                        f->failed = true;
                        return prc_err_set(err, f->io.cls, "document reply stopped");
                }
                have += got;
                f->left -= got;
        }
        c->rep.len = have;
        *out_have = have;
        return true;
}

/*
 * Read one reply.  A document is decoded while its pieces arrive (the
 * worker writes each as soon as it is encoded), so decoding overlaps
 * encoding and the pipe; the checks are those of prc_docbin_read.  On
 * PRC_FRAME_OK *type is DOC with *doc the document (c->rep its bytes) or
 * NULL with *derr saying why it is malformed, or REFUSE with c->rep the
 * refusal payload (pieces before it are dropped).  Otherwise e holds the
 * frame-level failure.
 */
static prc_frame_rc read_reply(prc_client *c, int64_t deadline, uint16_t *type, json_t **doc, prc_err *derr,
                               prc_err *e)
{
        struct fill_ctx f = { .c = c, .deadline = deadline };
        uint32_t len;
        size_t got;
        prc_frame_rc rc;

        *doc = NULL;
        prc_err_init(&f.io);
again:
        prc_buf_reset(&c->rep);
        c->mdp.made = NULL;
        /* RETIRE only as the reply's very first frame, never after a RESTART. */
        if (f.restarted)
                rc = prc_frame_read_hdr(c->from_w, reply_types, PRC_ARRAY_LEN(reply_types), c->o.reply_max,
                                        PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD, deadline, type, &len, e);
        else if (!prc_frame_wait(c->from_w, deadline, e))   /* the request has only just gone */
                rc = PRC_FRAME_ERR;
        else
                rc = prc_frame_read_hdr(c->from_w, first_types, PRC_ARRAY_LEN(first_types), c->o.reply_max,
                                        PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD, deadline, type, &len, e);
        if (rc != PRC_FRAME_OK)
                return rc;
        if (*type == PRC_RE_RETIRE) {
                if (len != 0 || c->served == 0) {
                        prc_err_at(e, PRC_E_INVALID_FRAME, 8, "retire frame %s",
                                   len != 0 ? "with a payload" : "from a worker that has answered nothing");
                        return PRC_FRAME_ERR;
                }
                return PRC_FRAME_OK;
        }
        f.left = len;
        if (*type != PRC_RE_REFUSE) {
                f.last = *type == PRC_RE_DOC;
                if (!prc_buf_reserve(&c->rep, f.left, e))
                        return PRC_FRAME_ERR;
                *doc = prc_docbin_read_stream_hook(c->rep.data, c->o.reply_max, 0, fill_from_pipe, &f, &c->o.lim,
                                                   c->hook, derr);
                if (f.failed) {
                        *e = f.io;
                        return PRC_FRAME_ERR;
                }
                if (f.restart && *doc == NULL) {
                        /* The worker gave up streaming (docs/content-protocol.md): drop what came, read the reply anew. */
                        c->st.restarts++;
                        prc_err_init(derr);
                        f = (struct fill_ctx){ .c = c, .deadline = deadline, .restarted = true };
                        prc_err_init(&f.io);
                        goto again;
                }
                *type = f.refused ? PRC_RE_REFUSE : PRC_RE_DOC;
                if (*doc != NULL && (f.left > 0 || !f.last)) {
                        /* The document is whole: only an empty DOC may still follow. */
                        bool end = f.left == 0 && next_piece(&f, c->rep.len) && f.last && f.left == 0;
                        if (f.failed) {
                                json_decref(*doc);
                                *doc = NULL;
                                *e = f.io;
                                return PRC_FRAME_ERR;
                        }
                        if (!end) {
                                json_decref(*doc);
                                *doc = NULL;
                                prc_err_set(derr, PRC_E_INVALID_FRAME, "bytes after the document");
                        }
                }
                if (*type == PRC_RE_DOC) {
                        if (*doc != NULL)
                                c->rep.data[c->rep.len] = 0;    /* the prc_buf invariant */
                        return PRC_FRAME_OK;    /* a malformed one is never cached: the caller ends the worker */
                }
                prc_buf_reset(&c->rep);
        }
        /* A refusal, first or instead of the next piece: small, read whole. */
        if (!prc_buf_reserve(&c->rep, f.left, e) ||
            !prc_frame_read_some(c->from_w, c->rep.data, f.left, f.left, deadline, PRC_E_WORKER_DEAD, &got, e))
                return PRC_FRAME_ERR;
        c->rep.len = f.left;
        c->rep.data[f.left] = 0;
        return PRC_FRAME_OK;
}

/* Turn a reply payload into the caller's result. */
static bool finish(prc_client *c, uint16_t type, const uint8_t *p, size_t n, const char *path, json_t **out,
                   prc_err *err)
{
        prc_err e;

        prc_err_init(&e);
        if (type == PRC_RE_DOC) {
                c->mdp.made = NULL;
                return doc_result(c, prc_docbin_read_stream_hook(p, n, n, NULL, NULL, &c->o.lim, c->hook, &e), &e, out,
                                  err);
        }
        {
                prc_err refusal;
                if (!prc_refusal_decode(p, n, &refusal, &e)) {
                        kill_worker(c);
                        if (!prc_err_is_set(err))
                                *err = e;
                        return false;
                }
                if (ends_worker(refusal.cls))
                        kill_worker(c);
                if (!prc_err_is_set(err))
                        *err = refusal;
                if (path != NULL)
                        prc_err_set_file(err, path);
                return false;
        }
}

/* The worker stopped reading a request: it may have said why, a REFUSE that ends the conversation (into c->rep). */
static bool refusal_left(prc_client *c, uint16_t *type)
{
        static const uint16_t replies[] = { PRC_RE_DOC, PRC_RE_REFUSE };
        prc_err e;

        prc_err_init(&e);
        return prc_frame_read(c->from_w, replies, 2, c->o.reply_max, PRC_E_REPLY_TOO_LARGE, PRC_E_WORKER_DEAD,
                              prc_now_ns() + 100000000, type, &c->rep, &e) == PRC_FRAME_OK &&
               *type == PRC_RE_REFUSE;
}

/* A request whose reply never came whole (rc, e): the worker is reaped or killed, and err says why, for path. */
static void request_failed(prc_client *c, prc_frame_rc rc, const prc_err *e, const char *path, prc_err *err)
{
        if (rc == PRC_FRAME_EOF || e->cls == PRC_E_WORKER_DEAD || e->cls == PRC_E_IO) {
                (void)worker_gone(c, e, "during the request", err);
        } else {
                kill_worker(c);
                if (e->cls == PRC_E_WORKER_TIMEOUT)
                        prc_err_set(err, PRC_E_WORKER_TIMEOUT, "worker did not answer in %u ms; killed",
                                    c->o.timeout_ms);
                else if (!prc_err_is_set(err))
                        *err = *e;
        }
        prc_err_set_file(err, path ? path : "");
}

/*
 * May this worker serve more requests yet?  Not past max_requests, and not
 * where RLIMIT_CPU could end a good one: it uses CPU only while it serves,
 * so its CPU time is at most busy_ns plus start-up, and each request may
 * take up to timeout_ms.
 */
static bool can_serve(const prc_client *c, size_t more)
{
        return (c->o.max_requests == 0 || c->served + more <= c->o.max_requests) &&
               c->busy_ns + (int64_t)more * c->o.timeout_ms * 1000000 < (int64_t)c->o.cpu_seconds * 1000000000;
}

/* After a request's answer: retire the worker that may serve no other (can_serve); keep no huge reply buffer. */
static void after_answer(prc_client *c)
{
        if (c->pid != 0 && !can_serve(c, 1))
                retire_worker(c);
        if (c->rep.cap > (4u << 20))
                prc_buf_clear(&c->rep);
}

bool prc_client_call(prc_client *c, uint16_t op, uint16_t format, uint32_t flags, const char *path,
                     const void *args, size_t args_len, const uint8_t *input, size_t len, bool cacheable,
                     json_t **out, prc_err *err)
{
        uint8_t key[PRC_SHA256_LEN];
        bool use_cache = cacheable && c->o.cache_max > 0;
        int64_t deadline;
        json_t *doc = NULL;
        prc_req r;
        prc_err e, derr;
        uint16_t type;
        prc_frame_rc rc;
        bool ok;

        check_fork(c);
        memset(&r, 0, sizeof(r));
        r.op = op;
        r.format = format;
        r.flags = flags;
        r.lim = c->o.lim;
        r.path = path ? path : "";
        r.path_len = strlen(r.path);
        if (r.path_len > PRC_FRAME_PATH_MAX)
                r.path_len = PRC_FRAME_PATH_MAX;        /* a label only; the tail is dropped */
        r.args = args;
        r.args_len = args ? args_len : 0;
        r.input = input;
        r.input_len = len;
        /* Refused before anything is sent or started. */
        if (prc_req_size(&r) > c->o.req_max) {
                prc_err_set(err, PRC_E_REQUEST_TOO_LARGE, "request of %zu input bytes exceeds the cap of %u bytes",
                            len, c->o.req_max);
                prc_err_set_file(err, path ? path : "");
                return false;
        }
        if (use_cache) {
                centry *hit = NULL;
                prc_err_init(&e);
                use_cache = cache_key(&r, key, &e);     /* no key (out of memory): just no cache */
                if (use_cache)
                        hit = cache_find(c, key);
                if (hit != NULL) {
                        c->st.cache_hits++;
                        return finish(c, hit->type, hit->data, hit->len, path, out, err);
                }
        }
        if (prc_dispatch_needs_archive(op)) {
                /*
                 * Only an archive worker has libarchive (loaded before its
                 * floor); from now on this client starts those.  A running
                 * worker without it is retired, as after max_requests.
                 */
                c->want_archive = true;
                if (c->pid != 0 && !c->archive_worker)
                        retire_worker(c);
        }
        if (c->pid == 0 && !prc_client_start(c, err)) {
                prc_err_set_file(err, path ? path : "");
                return false;
        }
        prc_buf_reset(&c->reqbuf);
        prc_err_init(&e);
        /* The file's bytes go from the caller's buffer: a copy of every input here was 14 MB on the corpus. */
        if (!prc_req_encode_head(&r, &c->reqbuf, &e)) {
                if (!prc_err_is_set(err))
                        *err = e;
                return false;
        }
resend:
        c->st.round_trips++;
        deadline = prc_now_ns() + (int64_t)c->o.timeout_ms * 1000000;
        ok = prc_frame_write2(c->to_w, op, c->reqbuf.data, c->reqbuf.len, r.input, r.input_len, deadline, &e);
        rc = PRC_FRAME_ERR;
        prc_err_init(&derr);
        if (ok)
                rc = read_reply(c, deadline, &type, &doc, &derr, &e);
        if (!ok && e.cls == PRC_E_IO && refusal_left(c, &type)) {
                rc = PRC_FRAME_OK;
                ok = true;
        }
        if (rc != PRC_FRAME_OK) {
                request_failed(c, rc, &e, path, err);
                return false;
        }
        if (type == PRC_RE_RETIRE) {
                /*
                 * The worker kept memory from earlier requests and leaves this
                 * one to a fresh worker (at most once: a fresh worker that has
                 * answered nothing may not retire).
                 */
                c->st.retirements++;
                retire_worker(c);
                if (!prc_client_start(c, err)) {
                        prc_err_set_file(err, path ? path : "");
                        return false;
                }
                goto resend;
        }
        c->served++;
        c->busy_ns += prc_now_ns() - (deadline - (int64_t)c->o.timeout_ms * 1000000);
        if (type == PRC_RE_DOC)
                ok = doc_result(c, doc, &derr, out, err);
        else
                ok = finish(c, type, c->rep.data, c->rep.len, path, out, err);
        /*
         * Cache documents that decoded and parser refusals; never a reply
         * that failed its checks, a frame-level refusal or an allocator failure.
         */
        if (use_cache) {
                prc_err probe;
                bool cache_it = type == PRC_RE_DOC && ok;
                if (type == PRC_RE_REFUSE) {
                        prc_err_init(&e);
                        cache_it = prc_refusal_decode(c->rep.data, c->rep.len, &probe, &e) &&
                                   !ends_worker(probe.cls);
                }
                if (cache_it)
                        cache_put(c, key, type, c->rep.data, c->rep.len);
        }
        after_answer(c);
        return ok;
}

bool prc_client_parse(prc_client *c, uint16_t fmt, const char *path, const uint8_t *bytes, size_t len,
                      json_t **out, prc_err *err)
{
        return prc_client_call(c, PRC_OP_PARSE, fmt, 0, path, NULL, 0, bytes, len, true, out, err);
}

/*
 * prc_mdoc_check of an extraction's document; with packed_deps, prc_mdp_check (its dependencies end as a table);
 * with slim_details, the slim check of each.
 */
static bool check_extraction(prc_client *c, json_t *md, const char *path, const char *format, prc_err *err)
{
        bool from_tree = false, ok;

        if (!c->o.packed_deps)
                return c->o.slim_details ? prc_mdoc_check_slim(md, PRC_MDOC_DEPS_ARRAY, path, format, err)
                                         : prc_mdoc_check(md, path, format, err);
        ok = prc_mdp_check(md, c->mdp.made, path, format, c->o.slim_details, &from_tree, err);
        c->st.packed_from_tree += from_tree;
        return ok;
}

/* An extraction as format (NULL: by path), after the parse as parse_fmt when that is not 0 (PRC_REQ_PARSE_FIRST). */
static bool extract(prc_client *c, const char *format, uint16_t parse_fmt, const char *path, const uint8_t *bytes,
                    size_t len, json_t **out, prc_err *err)
{
        char *args = NULL;
        json_t *md = NULL, *a;
        uint32_t flags;
        bool ok;

        if (format != NULL) {
                a = json_pack("{s:s}", "format", format);
                args = a != NULL ? json_dumps(a, JSON_COMPACT) : NULL;
                json_decref(a);
                if (args == NULL)
                        return prc_err_oom(err, "extract arguments");
        }
        c->hook = c->o.packed_deps ? &c->mdp_hook : NULL;
        flags = (parse_fmt != 0 ? PRC_REQ_PARSE_FIRST : 0) | (c->o.packed_deps ? PRC_REQ_PACKED_DEPS : 0) |
                (c->o.slim_details ? PRC_REQ_SLIM_DETAILS : 0);
        ok = prc_client_call(c, PRC_OP_EXTRACT, parse_fmt, flags, path, args,
                             args != NULL ? strlen(args) : 0, bytes, len, true, &md, err);
        c->hook = NULL;
        free(args);
        if (!ok)
                return false;
        /* The path the worker saw is the one sent, unless it was cut at the frame's cap (a label only). */
        if (!check_extraction(c, md, path == NULL ? "" : strlen(path) > PRC_FRAME_PATH_MAX ? NULL : path, format,
                              err)) {
                /* Only a broken or compromised worker answers so: it serves no more requests. */
                kill_worker(c);
                json_decref(md);
                prc_err_set_file(err, path != NULL ? path : "");
                return false;
        }
        *out = md;
        return true;
}

bool prc_client_extract(prc_client *c, const char *format, const char *path, const uint8_t *bytes, size_t len,
                        json_t **out, prc_err *err)
{
        return extract(c, format, 0, path, bytes, len, out, err);
}

bool prc_client_parse_extract(prc_client *c, uint16_t parse_fmt, const char *path, const uint8_t *bytes, size_t len,
                              json_t **out, prc_err *err)
{
        if (parse_fmt == 0)
                return prc_err_set(err, PRC_E_INTERNAL, "a parse before the extraction needs a format");
        return extract(c, NULL, parse_fmt, path, bytes, len, out, err);
}

/*
 * Requests in one run (prc_client_parse_extract_many): at most RUN_MAX, and
 * no more bytes than the request pipe holds, so the write is done before
 * the worker reads any of it: were it to wait for the worker to read, the
 * worker could be waiting for us to read its first reply.
 */
enum { RUN_MAX = 16 };

/* The request of an item, as extract() makes it with format NULL and parse_fmt (0: no parse first). */
static prc_req xitem_req(const prc_client *c, const prc_client_xitem *it)
{
        prc_req r = { .op = PRC_OP_EXTRACT, .format = it->parse_fmt, .lim = c->o.lim };

        r.flags = (it->parse_fmt != 0 ? PRC_REQ_PARSE_FIRST : 0) | (c->o.packed_deps ? PRC_REQ_PACKED_DEPS : 0) |
                  (c->o.slim_details ? PRC_REQ_SLIM_DETAILS : 0);
        r.path = it->path != NULL ? it->path : "";
        r.path_len = strlen(r.path);
        if (r.path_len > PRC_FRAME_PATH_MAX)
                r.path_len = PRC_FRAME_PATH_MAX;        /* a label only, as prc_client_call */
        r.input = it->bytes;
        r.input_len = it->len;
        return r;
}

/*
 * How many of it[0..n) go in one run: what the pipe holds, and what the
 * worker may still serve as prc_client_call counts it (each request may
 * take timeout_ms, and RLIMIT_CPU must never end one); 1 runs the item
 * alone.
 */
static size_t run_size(const prc_client *c, const prc_client_xitem *it, size_t n)
{
        size_t k = 0, bytes = 0;

        if (c->pid == 0 || c->o.cache_max > 0 || c->want_archive)
                return 1;
        while (k < n && k < RUN_MAX) {
                prc_req r = xitem_req(c, &it[k]);
                size_t sz = prc_req_size(&r);

                if (sz > c->o.req_max || sz > c->req_room || PRC_FRAME_HDR + sz > c->req_room - bytes)
                        break;
                if (!can_serve(c, k + 1))
                        break;
                bytes += PRC_FRAME_HDR + sz;
                k++;
        }
        return k;
}

/* One item's reply, read: its answer as extract() makes it.  False: the worker is gone (the rest go elsewhere). */
static bool run_answer(prc_client *c, prc_client_xitem *it, uint16_t type, json_t *doc, const prc_err *derr)
{
        const char *path = it->path;
        json_t *md = NULL;

        c->served++;
        it->ok = type == PRC_RE_DOC ? doc_result(c, doc, derr, &md, &it->err)
                                    : finish(c, type, c->rep.data, c->rep.len, path, &md, &it->err);
        if (it->ok && !check_extraction(c, md, path == NULL ? "" : strlen(path) > PRC_FRAME_PATH_MAX ? NULL : path,
                                        NULL, &it->err)) {
                kill_worker(c);
                json_decref(md);
                md = NULL;
                prc_err_set_file(&it->err, path != NULL ? path : "");
                it->ok = false;
        }
        it->md = md;
        return c->pid != 0;
}

/*
 * The run's write failed (e): the run fits the pipe, so the worker had
 * stopped reading before it, and the first item is the request that
 * failed, answered as prc_client_call answers one whose write failed (a
 * refusal the worker left, or the worker gone).  The others are asked again.
 */
static size_t run_unwritten(prc_client *c, prc_client_xitem *it, const prc_err *e)
{
        uint16_t type;
        prc_err none;

        prc_err_init(&none);
        if (e->cls == PRC_E_IO && refusal_left(c, &type))
                (void)run_answer(c, it, type, NULL, &none);
        else
                request_failed(c, PRC_FRAME_ERR, e, it->path, &it->err);
        return 1;
}

/*
 * Write the requests of it[0..k) at once and read their replies in order.
 * Returns how many items have their answer; the others' requests died with
 * their worker (RETIRE, death, a reply that ended it) and are asked again.
 */
static size_t run_many(prc_client *c, prc_client_xitem *it, size_t k)
{
        const int64_t per = (int64_t)c->o.timeout_ms * 1000000;
        int64_t start;
        size_t j;
        prc_err e;

        prc_buf_reset(&c->reqbuf);
        prc_err_init(&e);
        for (j = 0; j < k; j++) {
                prc_req r = xitem_req(c, &it[j]);
                uint8_t hdr[PRC_FRAME_HDR];

                prc_frame_hdr_encode(hdr, PRC_OP_EXTRACT, (uint32_t)prc_req_size(&r));
                if (!prc_buf_put(&c->reqbuf, hdr, sizeof(hdr), &e) || !prc_req_encode(&r, &c->reqbuf, &e)) {
                        it[0].err = e;
                        prc_err_set_file(&it[0].err, it[0].path != NULL ? it[0].path : "");
                        return 1;
                }
        }
        c->st.round_trips += k;
        c->st.runs++;
        start = prc_now_ns();
        if (!prc_frame_write_run(c->to_w, c->reqbuf.data, c->reqbuf.len, start + per, &e))
                return run_unwritten(c, &it[0], &e);
        c->hook = c->o.packed_deps ? &c->mdp_hook : NULL;
        for (j = 0; j < k; j++) {
                uint16_t type;
                json_t *doc = NULL;
                prc_err derr;
                prc_frame_rc rc;
                int64_t now;

                prc_err_init(&derr);
                prc_err_init(&e);
                rc = read_reply(c, start + per, &type, &doc, &derr, &e);
                if (rc != PRC_FRAME_OK) {
                        request_failed(c, rc, &e, it[j].path, &it[j].err);
                        j++;
                        break;
                }
                if (type == PRC_RE_RETIRE) {
                        /* It kept memory: this request and the rest to a fresh worker (read_reply allows it once). */
                        c->st.retirements++;
                        retire_worker(c);
                        break;
                }
                now = prc_now_ns();
                c->busy_ns += now - start;
                start = now;    /* the worker goes on to the next request at once: its time starts now */
                if (!run_answer(c, &it[j], type, doc, &derr)) {
                        j++;
                        break;
                }
        }
        c->hook = NULL;
        after_answer(c);
        return j;
}

void prc_client_parse_extract_many(prc_client *c, prc_client_xitem *items, size_t n)
{
        size_t i = 0, k;

        check_fork(c);
        for (size_t j = 0; j < n; j++) {
                items[j].ok = false;
                items[j].md = NULL;
                prc_err_init(&items[j].err);
        }
        while (i < n) {
                k = run_size(c, items + i, n - i);
                if (k >= 2) {
                        i += run_many(c, items + i, k);
                        continue;
                }
                items[i].ok = items[i].parse_fmt != 0
                                      ? prc_client_parse_extract(c, items[i].parse_fmt, items[i].path,
                                                                 items[i].bytes, items[i].len, &items[i].md,
                                                                 &items[i].err)
                                      : prc_client_extract(c, NULL, items[i].path, items[i].bytes, items[i].len,
                                                           &items[i].md, &items[i].err);
                i++;
        }
}

void prc_client_get_stats(const prc_client *c, prc_client_stats *out)
{
        *out = c->st;
        out->cache_bytes = c->cbytes;
        out->cache_entries = c->centries;
        out->worker_pid = c->pid != 0 && c->owner == atomic_load(&forks) ? c->pid : 0;
}

void prc_client_free(prc_client *c)
{
        if (c == NULL)
                return;
        check_fork(c);
        if (c->pid != 0)
                retire_worker(c);
        close_fds(c);
        while (c->head != NULL)
                cache_drop(c, c->head);
        free(c->buckets);
        json_decref(c->floor);
        prc_buf_clear(&c->reqbuf);
        prc_buf_clear(&c->rep);
        free(c);
}
