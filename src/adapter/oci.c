/*
 * oci.c - the OCI runner: runtime identity, the pure planner, and the run
 * loop (oci.h).
 *
 * Trust: the image and its output are hostile; the runtime client is a
 * host binary we hash and re-hash; the operator's inputs are validated
 * (manifest, resolution, data) before they shape the plan.  Nothing the
 * adapter writes is echoed: stdout goes to the decoder, stderr to a meter.
 */
#include "adapter/oci.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapter/oci_native.h"
#include "adapter/protocol.h"
#include "adapter/record.h"
#include "adapter/setup.h"
#include "base/buf.h"
#include "base/jcs.h"
#include "inventory/snapshot.h"

enum { CAPTURE_MAX = 64u << 10, CHUNK = 64u << 10 };
/* Client calls that only ask the runtime something (version, info, image inspect). */
enum { QUERY_TIMEOUT_MS = 30000, RM_TIMEOUT_MS = 30000, CLIENT_WAIT_MS = 10000 };

const char *prc_oci_kind_name(prc_oci_kind k)
{
        return k == PRC_OCI_PODMAN ? "podman" : "docker";
}

bool prc_oci_kind_parse(const char *s, prc_oci_kind *out, prc_err *err)
{
        if (s != NULL && strcmp(s, "docker") == 0)
                *out = PRC_OCI_DOCKER;
        else if (s != NULL && strcmp(s, "podman") == 0)
                *out = PRC_OCI_PODMAN;
        else
                return prc_err_set(err, PRC_E_USAGE, "--runtime must be docker or podman");
        return true;
}

#if defined(PRC_TESTING) && PRC_TESTING
void prc_oci_trace(const char *phase)
{
        static int on = -1;
        static struct timespec t0;
        struct timespec t;
        const char *v;

        if (on < 0) {
                v = getenv("PRC_OCI_TRACE");
                on = v != NULL && *v != '\0';
                clock_gettime(CLOCK_MONOTONIC, &t0);
        }
        if (!on)
                return;
        clock_gettime(CLOCK_MONOTONIC, &t);
        fprintf(stderr, "prc-oci-trace %.1f %s\n",
                (double)(t.tv_sec - t0.tv_sec) * 1e3 + (double)(t.tv_nsec - t0.tv_nsec) / 1e6, phase);
}
#endif

/* ---- child processes ---------------------------------------------------- */

static int64_t now_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The client's environment: a fixed PATH and the few variables that tell a
 * client where its engine and its own state are.  Nothing reaches the
 * container: the plan passes no --env and docker/podman pass none by default.
 */
static char **client_env(void)
{
        static const char *const keep[] = { "HOME", "DOCKER_HOST", "DOCKER_CONFIG", "XDG_RUNTIME_DIR",
                                            "CONTAINER_HOST", "TMPDIR" };
        static char *envv[PRC_ARRAY_LEN(keep) + 2];
        static char path[] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
        size_t n = 0;
        envv[n++] = path;
        for (size_t i = 0; i < PRC_ARRAY_LEN(keep); i++) {
                size_t kl = strlen(keep[i]);
                for (char **e = environ; *e != NULL; e++)
                        if (strncmp(*e, keep[i], kl) == 0 && (*e)[kl] == '=') {
                                envv[n++] = *e;
                                break;
                        }
        }
        envv[n] = NULL;
        return envv;
}

/*
 * The runtime client, opened once: hashed through this descriptor and
 * executed through it (execveat AT_EMPTY_PATH), so the path cannot be
 * swapped between the check and an exec.  id is the fstat identity taken
 * when it was opened; every exec first checks that it still holds (dev,
 * inode, mode, size, mtime, ctime: any write to the file moves its ctime,
 * which no unprivileged call can set back).  docs/oci-runner.md argues it.
 */
typedef struct rtexe {
        int         fd;         /* O_RDONLY | O_CLOEXEC; -1: none */
        struct stat id;
} rtexe;

static bool same_ts(const struct timespec *a, const struct timespec *b)
{
        return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static bool same_id(const struct stat *a, const struct stat *b)
{
        return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_mode == b->st_mode &&
               a->st_size == b->st_size && same_ts(&a->st_mtim, &b->st_mtim) && same_ts(&a->st_ctim, &b->st_ctim);
}

/* The client file still is what was opened and hashed. */
static bool rtexe_holds(const rtexe *x)
{
        struct stat st;
        return x->fd >= 0 && fstat(x->fd, &st) == 0 && same_id(&st, &x->id);
}

/*
 * fork + exec argv with the given descriptors as 0/1/2 (-1: /dev/null):
 * through x's descriptor when x is non-NULL (argv[0] is then only the
 * name the client sees), else by argv[0]'s path.  Errors:
 * oci-runtime-changed (x no longer holds), oci-runtime-failed.
 */
static pid_t spawn(const rtexe *x, char *const *argv, int in, int out, int errfd, prc_err *err)
{
        char **envv = client_env();
        if (x != NULL && !rtexe_holds(x))
                return prc_err_set(err, PRC_E_OCI_RUNTIME_CHANGED,
                                   "the runtime client file changed after it was hashed"), -1;
        pid_t pid = fork();
        if (pid < 0)
                return prc_err_sys(err, PRC_E_OCI_RUNTIME_FAILED, errno, "cannot fork the runtime client"), -1;
        if (pid == 0) {
                int null = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (null < 0)
                        _exit(127);
                if (dup2(in >= 0 ? in : null, 0) < 0 || dup2(out >= 0 ? out : null, 1) < 0 ||
                    dup2(errfd >= 0 ? errfd : null, 2) < 0)
                        _exit(127);
                /* Our other descriptors are CLOEXEC or closed here (x->fd is CLOEXEC too). */
                for (int fd = 3; fd < 1024; fd++)
                        if (x == NULL || fd != x->fd)
                                (void)close(fd);
                signal(SIGPIPE, SIG_DFL);
                if (x == NULL) {
                        execve(argv[0], argv, envv);
                } else {
                        /* Once more at the last moment before the exec itself. */
                        struct stat st;
                        if (fstat(x->fd, &st) != 0 || !same_id(&st, &x->id))
                                _exit(126);
                        execveat(x->fd, "", argv, envv, AT_EMPTY_PATH);
                }
                _exit(127);
        }
        return pid;
}

/* Wait for pid until deadline_ms (monotonic); SIGKILL it past the deadline.  Returns the wait status. */
static int wait_bounded(pid_t pid, int64_t deadline_ms, bool *out_killed)
{
        int st = 0;
        long nap_ns = 100 * 1000;
        for (;;) {
                pid_t r = waitpid(pid, &st, WNOHANG);
                if (r == pid)
                        return st;
                if (r < 0 && errno != EINTR)
                        return -1;
                if (now_ms() >= deadline_ms) {
                        (void)kill(pid, SIGKILL);
                        if (out_killed != NULL)
                                *out_killed = true;
                        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                                ;
                        return st;
                }
                /* A client that closed its output is usually gone within microseconds. */
                struct timespec ts = { 0, nap_ns };
                nanosleep(&ts, NULL);
                if (nap_ns < 5 * 1000 * 1000)
                        nap_ns *= 2;
        }
}

/* A query child: its stdout pipe and the time it must be done by. */
typedef struct capture {
        pid_t   pid;
        int     fd;
        int64_t deadline;
} capture;

/* Start argv (through x, see spawn) with stdout on a pipe (stderr discarded).  On failure c->pid is -1. */
static bool capture_start(const rtexe *x, char *const *argv, int timeout_ms, capture *c, prc_err *err)
{
        int p[2];

        c->pid = -1;
        c->fd = -1;
        c->deadline = now_ms() + timeout_ms;
        if (pipe2(p, O_CLOEXEC) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "pipe");
        c->pid = spawn(x, argv, -1, p[1], -1, err);
        close(p[1]);
        if (c->pid < 0) {
                close(p[0]);
                return false;
        }
        c->fd = p[0];
        (void)fcntl(c->fd, F_SETFL, O_NONBLOCK);
        return true;
}

/*
 * Read at most CAPTURE_MAX bytes of c's stdout into out until it closes or
 * the deadline passes, then reap it.  Returns the exit status (0-255), or -1
 * when it was not started or was killed.
 */
static int capture_finish(capture *c, prc_buf *out)
{
        if (c->pid < 0)
                return -1;
        for (;;) {
                int64_t left = c->deadline - now_ms();
                struct pollfd pf = { c->fd, POLLIN, 0 };
                if (left <= 0)
                        break;
                int r = poll(&pf, 1, (int)left);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        break;
                uint8_t tmp[4096];
                ssize_t n = read(c->fd, tmp, sizeof(tmp));
                if (n < 0 && (errno == EINTR || errno == EAGAIN))
                        continue;
                if (n <= 0)
                        break;
                prc_err ignore = {0};
                /* Past the cap the rest is dropped: callers only need the first words. */
                if (out->len + (size_t)n <= CAPTURE_MAX && !prc_buf_put(out, tmp, (size_t)n, &ignore))
                        break;
        }
        close(c->fd);
        c->fd = -1;
        bool killed = false;
        int st = wait_bounded(c->pid, c->deadline, &killed);
        c->pid = -1;
        if (killed || st < 0 || !WIFEXITED(st))
                return -1;
        return WEXITSTATUS(st);
}

/* capture_start + capture_finish; -1 with err set when it could not start. */
static int run_capture(const rtexe *x, char *const *argv, prc_buf *out, int timeout_ms, prc_err *err)
{
        capture c;

        if (!capture_start(x, argv, timeout_ms, &c, err))
                return -1;
        return capture_finish(&c, out);
}

/* ---- runtime identity ---------------------------------------------------- */

/*
 * Open the client at path and hash it through that descriptor.  The file
 * must be a regular file whose fstat identity is the same before and after
 * the hash, and whose ctime is older than the moment it was opened (by
 * RECENT_MS): a write in the same timestamp tick as the first fstat could
 * otherwise leave ctime unchanged on a kernel with coarse timestamps, so a
 * file changed that recently is waited for and opened again.
 */
enum { RECENT_MS = 50, OPEN_TRIES = 5 };

static bool hash_fd(int fd, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        uint8_t buf[CHUNK], md[PRC_SHA256_LEN];
        prc_sha256 *h = prc_sha256_new(err);
        bool ok = false;
        off_t off = 0;

        if (h == NULL)
                return false;
        for (;;) {
                ssize_t n = pread(fd, buf, sizeof(buf), off);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot read the runtime client");
                        goto out;
                }
                if (n == 0)
                        break;
                off += n;
                if (!prc_sha256_update(h, buf, (size_t)n, err))
                        goto out;
        }
        if (!prc_sha256_final(h, md, err))
                goto out;
        prc_hex_encode(md, sizeof(md), out);
        ok = true;
out:
        prc_sha256_free(h);
        return ok;
}

static bool rtexe_open(const char *path, rtexe *x, prc_err *err)
{
        for (int tries = 0;; tries++) {
                struct timespec now;
                clock_gettime(CLOCK_REALTIME, &now);
                x->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (x->fd < 0)
                        return prc_err_sys(err, PRC_E_OCI_RUNTIME_UNAVAILABLE, errno, "cannot open the runtime client");
                if (fstat(x->fd, &x->id) != 0 || !S_ISREG(x->id.st_mode)) {
                        close(x->fd);
                        x->fd = -1;
                        return prc_err_set(err, PRC_E_OCI_RUNTIME_UNAVAILABLE, "the runtime client is not a regular file");
                }
                int64_t age_ms = ((int64_t)now.tv_sec - x->id.st_ctim.tv_sec) * 1000 +
                                 ((int64_t)now.tv_nsec - x->id.st_ctim.tv_nsec) / 1000000;
                if (age_ms >= RECENT_MS)
                        return true;
                close(x->fd);
                x->fd = -1;
                if (tries + 1 == OPEN_TRIES)
                        return prc_err_set(err, PRC_E_OCI_RUNTIME_UNAVAILABLE, "the runtime client is being modified");
                struct timespec ts = { 0, (RECENT_MS + 10) * 1000000L };
                nanosleep(&ts, NULL);
        }
}

static void rtexe_close(rtexe *x)
{
        if (x->fd >= 0)
                close(x->fd);
        x->fd = -1;
}

static bool find_on_path(const char *name, char *out, size_t cap)
{
        const char *path = getenv("PATH");
        if (path == NULL || *path == '\0')
                path = "/usr/local/bin:/usr/bin:/bin";
        while (*path != '\0') {
                const char *colon = strchr(path, ':');
                size_t len = colon ? (size_t)(colon - path) : strlen(path);
                char cand[PATH_MAX];
                if (len > 0 && len < sizeof(cand) - strlen(name) - 2) {
                        struct stat st;
                        snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, path, name);
                        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
                                char real[PATH_MAX];
                                if (realpath(cand, real) == NULL || strlen(real) >= cap)
                                        return false;
                                snprintf(out, cap, "%s", real);
                                return true;
                        }
                }
                path += len;
                if (*path == ':')
                        path++;
        }
        return false;
}

/* "Docker version 20.10.24+dfsg1, build 297e128" / "podman version 4.3.1": the third word, up to ','. */
static bool parse_version(const char *s, char *out, size_t cap)
{
        const char *p = strstr(s, "version ");
        size_t n = 0;
        if (p == NULL)
                return false;
        p += strlen("version ");
        while (p[n] != '\0' && p[n] != ',' && p[n] != '\n' && p[n] != ' ' && n + 1 < cap) {
                if (p[n] < 0x21 || p[n] > 0x7e)
                        return false;
                n++;
        }
        if (n == 0)
                return false;
        snprintf(out, cap, "%.*s", (int)n, p);
        return true;
}

/*
 * docker: `docker info --format '{{.MemoryLimit}} {{.SwapLimit}} {{.PidsLimit}} {{.CPUCfsQuota}}'`
 *         must be "true true true true".
 * podman: `podman info --format '{{.Host.Security.Rootless}} {{.Host.CgroupsVersion}} {{.Host.CgroupControllers}}'`
 *         rootless on cgroup v1 ignores every limit (podman says so itself);
 *         otherwise the controller list must hold memory, pids and cpu.
 */
#define DOCKER_INFO_FMT "{{.MemoryLimit}} {{.SwapLimit}} {{.PidsLimit}} {{.CPUCfsQuota}}"
#define PODMAN_INFO_FMT "{{.Host.Security.Rootless}} {{.Host.CgroupsVersion}} {{.Host.CgroupControllers}}"

static bool has_word(const char *list, const char *w)
{
        size_t wl = strlen(w);
        for (const char *p = list; (p = strstr(p, w)) != NULL; p += wl) {
                bool start = p == list || p[-1] == ' ' || p[-1] == '[';
                bool end = p[wl] == ' ' || p[wl] == ']' || p[wl] == '\0' || p[wl] == '\n';
                if (start && end)
                        return true;
        }
        return false;
}

bool prc_oci_limits_report_ok(prc_oci_kind kind, const char *report, prc_err *err)
{
        if (kind == PRC_OCI_DOCKER) {
                if (strncmp(report, "true true true true", 19) != 0 || (report[19] != '\0' && report[19] != '\n'))
                        return prc_err_set(err, PRC_E_OCI_LIMITS_IGNORED,
                                           "docker reports that memory, swap, pids or CPU limits are not enforced");
                return true;
        }
        if (strncmp(report, "true v1", 7) == 0)
                return prc_err_set(err, PRC_E_OCI_LIMITS_IGNORED,
                                   "rootless podman on cgroup v1 ignores resource limits; run rootful or on cgroup v2");
        if (strncmp(report, "true ", 5) != 0 && strncmp(report, "false ", 6) != 0)
                return prc_err_set(err, PRC_E_OCI_LIMITS_IGNORED, "podman info did not say how limits are enforced");
        static const char *const need[] = { "memory", "pids", "cpu" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(need); i++)
                if (!has_word(report, need[i]))
                        return prc_err_set(err, PRC_E_OCI_LIMITS_IGNORED, "podman has no '%s' cgroup controller",
                                           need[i]);
        return true;
}

static void podman_globals(char **argv, size_t *n)
{
        /* crun refuses this class of hybrid-cgroup host; runc with cgroupfs works (issue 8). */
        argv[(*n)++] = (char *)"--runtime";
        argv[(*n)++] = (char *)"runc";
        argv[(*n)++] = (char *)"--cgroup-manager";
        argv[(*n)++] = (char *)"cgroupfs";
}

/* The argv prefix of a client query: the binary and, for podman, its globals. */
static size_t query_argv(const prc_oci_runtime *rt, char **argv)
{
        size_t n = 0;
        argv[n++] = (char *)rt->path;
        if (rt->kind == PRC_OCI_PODMAN)
                podman_globals(argv, &n);
        return n;
}

/*
 * Everything the runner asks of the runtime before planning, in one go: the
 * client's identity (real path, SHA-256, `--version`), and for a run
 * whether it enforces limits (`info`) and whether the image is present
 * (`image inspect`).  The three queries run as concurrent children while
 * the binary is hashed; the answers are judged in that fixed order, so the
 * error does not depend on which child was faster.
 */
typedef struct probe {
        prc_oci_kind    kind;
        bool            limits;         /* ask `info` */
        const char     *image;          /* borrowed, may be NULL: ask `image inspect` */
        prc_oci_runtime rt;
        rtexe           exe;            /* rt.path opened; transfers to the caller when ok */
        bool            ok;             /* rt is valid and limits (if asked) are enforced; else err */
        prc_err         err;
        bool            image_ok;       /* image asked and present; else image_err when ok */
        prc_err         image_err;
} probe;

/* Is ref the reviewed image of a native protocol (the ones `prc setup native` pulls)? */
static bool native_pinned(const char *ref)
{
        prc_setup_images im;
        prc_err e;

        prc_err_init(&e);
        if (!prc_setup_images_list(&im, &e))
                return false;
        for (size_t i = 0; i < im.n; i++)
                if (strcmp(im.ref[i], ref) == 0)
                        return true;
        return false;
}

static void probe_run(probe *pr)
{
        capture qv = { .pid = -1 }, qi = { .pid = -1 }, qm = { .pid = -1 };
        prc_buf bv, bi, bm;
        char *argv[16];
        size_t n;
        const char *name = prc_oci_kind_name(pr->kind);
        prc_err herr, serr;
        bool hashed;
        int sv, si = -1, sm = -1;

        prc_err_init(&pr->err);
        prc_err_init(&pr->image_err);
        prc_err_init(&herr);
        prc_err_init(&serr);
        pr->ok = pr->image_ok = false;
        pr->rt = (prc_oci_runtime){ .kind = pr->kind };
        pr->exe.fd = -1;
        prc_buf_init(&bv, CAPTURE_MAX);
        prc_buf_init(&bi, CAPTURE_MAX + 1);
        prc_buf_init(&bm, CAPTURE_MAX + 1);
        if (!find_on_path(name, pr->rt.path, sizeof(pr->rt.path))) {
                prc_err_set(&pr->err, PRC_E_OCI_RUNTIME_UNAVAILABLE, "no executable '%s' on PATH", name);
                goto out;
        }
        if (!rtexe_open(pr->rt.path, &pr->exe, &pr->err))
                goto out;
        argv[0] = pr->rt.path;
        argv[1] = (char *)"--version";
        argv[2] = NULL;
        if (capture_start(&pr->exe, argv, QUERY_TIMEOUT_MS, &qv, &serr) && pr->limits) {
                n = query_argv(&pr->rt, argv);
                argv[n++] = (char *)"info";
                argv[n++] = (char *)"--format";
                argv[n++] = (char *)(pr->kind == PRC_OCI_PODMAN ? PODMAN_INFO_FMT : DOCKER_INFO_FMT);
                argv[n] = NULL;
                if (capture_start(&pr->exe, argv, QUERY_TIMEOUT_MS, &qi, &serr) && pr->image != NULL) {
                        n = query_argv(&pr->rt, argv);
                        argv[n++] = (char *)"image";
                        argv[n++] = (char *)"inspect";
                        argv[n++] = (char *)"--format";
                        argv[n++] = (char *)"{{.Id}}";
                        argv[n++] = (char *)pr->image;
                        argv[n] = NULL;
                        (void)capture_start(&pr->exe, argv, QUERY_TIMEOUT_MS, &qm, &serr);
                }
        }
        prc_oci_trace("probe:started");
        hashed = hash_fd(pr->exe.fd, pr->rt.sha256, &herr);
        /* The bytes hashed are the file's only if nothing wrote it meanwhile. */
        if (hashed && !rtexe_holds(&pr->exe))
                hashed = prc_err_set(&herr, PRC_E_OCI_RUNTIME_UNAVAILABLE,
                                     "the runtime client changed while it was hashed");
        prc_oci_trace("probe:hashed");
        sv = capture_finish(&qv, &bv);
        prc_oci_trace("probe:version");
        si = capture_finish(&qi, &bi);
        prc_oci_trace("probe:info");
        sm = capture_finish(&qm, &bm);
        prc_oci_trace("probe:image");
        if (!hashed) {
                pr->err = herr;
                goto out;
        }
        if (prc_err_is_set(&serr)) {
                pr->err = serr;
                goto out;
        }
        if (sv != 0 || !prc_buf_putc(&bv, 0, &pr->err) ||
            !parse_version((const char *)bv.data, pr->rt.version, sizeof(pr->rt.version))) {
                prc_err_init(&pr->err);
                prc_err_set(&pr->err, PRC_E_OCI_RUNTIME_UNAVAILABLE, "'%s --version' did not give a version", name);
                goto out;
        }
        if (pr->limits) {
                if (si != 0) {
                        prc_err_set(&pr->err, PRC_E_OCI_RUNTIME_UNAVAILABLE,
                                    "'%s info' failed (exit %d): is the engine running?", name, si);
                        goto out;
                }
                if (!prc_buf_putc(&bi, 0, &pr->err) ||
                    !prc_oci_limits_report_ok(pr->kind, (const char *)bi.data, &pr->err))
                        goto out;
        }
        pr->ok = true;
        if (pr->image != NULL) {
                if (sm == 0)
                        pr->image_ok = true;
                else
                        prc_err_set(&pr->image_err, PRC_E_OCI_IMAGE_ABSENT,
                                    "image '%.200s' is not present locally and the runner never pulls "
                                    "(--pull=never); %s", pr->image, native_pinned(pr->image)
                                    ? "`prc setup native` pulls it" : "pull exactly that reference first");
        }
out:
        if (!pr->ok)
                rtexe_close(&pr->exe);
        prc_buf_clear(&bv);
        prc_buf_clear(&bi);
        prc_buf_clear(&bm);
}

static void *probe_thread(void *arg)
{
        probe_run(arg);
        return NULL;
}

bool prc_oci_runtime_find(prc_oci_kind kind, prc_oci_runtime *out, prc_err *err)
{
        probe pr = { .kind = kind };

        probe_run(&pr);
        if (!pr.ok) {
                *err = pr.err;
                return false;
        }
        rtexe_close(&pr.exe);
        *out = pr.rt;
        return true;
}

/* ---- the planner (pure) -------------------------------------------------- */

uint64_t prc_oci_pids_limit(const prc_manifest *m)
{
        /*
         * Seed 000: "no child processes for generic JSONL adapters".  The pids
         * cgroup counts the container's first process itself (it is the
         * adapter: --entrypoint= and no --init), so 1 lets the adapter run and
         * makes its first fork (or thread) fail with EAGAIN; 0 would mean no
         * limit to docker.  Only the three reviewed native protocols keep the
         * manifest's PID-bounded allowance (their Go binaries need OS tasks).
         */
        if (prc_native_spec_for(prc_manifest_protocol(m)) == NULL)
                return PRC_OCI_GENERIC_PIDS;
        return prc_manifest_limits_of(m)->pids;
}

static bool name_ok(const char *s)
{
        size_t n = strlen(s);
        if (n == 0 || n > 64)
                return false;
        for (size_t i = 0; i < n; i++)
                if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
                        return false;
        return true;
}

/* A mount source that docker's --mount syntax cannot carry (',' or '=' split fields; '"' quotes). */
static bool mount_path_ok(const char *p)
{
        if (p == NULL || p[0] != '/')
                return false;
        for (const char *c = p; *c != '\0'; c++)
                if (*c == ',' || *c == '"' || *c == '\n' || (unsigned char)*c < 0x20)
                        return false;
        return true;
}

typedef struct argv_pair {
        json_t *tmpl;   /* with placeholders */
        json_t *real;   /* with bindings */
        bool    oom;
} argv_pair;

static void add2(argv_pair *a, const char *tmpl, const char *real)
{
        if (json_array_append_new(a->tmpl, json_string(tmpl)) != 0 ||
            json_array_append_new(a->real, json_string(real)) != 0)
                a->oom = true;
}
static void add(argv_pair *a, const char *s)
{
        add2(a, s, s);
}
static void addf(argv_pair *a, const char *fmt, ...) PRC_PRINTF(2, 3);
static void addf(argv_pair *a, const char *fmt, ...)
{
        char s[512];
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(s, sizeof(s), fmt, ap);
        va_end(ap);
        if (n < 0 || (size_t)n >= sizeof(s)) {
                a->oom = true;
                return;
        }
        add(a, s);
}

json_t *prc_oci_plan(const prc_oci_spec *s, prc_err *err)
{
        const prc_manifest *m = s->m;
        const prc_manifest_limits *L;
        char image[512], buf[PATH_MAX + 128], tbuf[256];
        argv_pair a = { json_array(), json_array(), false };
        json_t *plan = NULL, *sealed = NULL, *limits = NULL, *data = NULL;
        char digest[PRC_SHA256_HEX + 1];

        if (a.tmpl == NULL || a.real == NULL) {
                prc_err_oom(err, "plan");
                goto fail;
        }
        if (prc_manifest_version(m) != 4) {
                prc_err_set(err, PRC_E_MANIFEST_ARCHIVED, "only a v0.4 manifest can be planned");
                goto fail;
        }
        if (!name_ok(s->container_name)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "container name must be 1-64 of [a-z0-9-]");
                goto fail;
        }
        if (!mount_path_ok(s->snapshot_path) || !prc_digest_valid(s->snapshot_sha256)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "snapshot path or digest unusable for a mount");
                goto fail;
        }
        if (!mount_path_ok(s->rt->path)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "runtime path unusable");
                goto fail;
        }
        if (s->uid == 0) {
                prc_err_set(err, PRC_E_OCI_ROOT_REFUSED, "the container user must not be root");
                goto fail;
        }
        /* Group 0 owns much of a host (and of an image): the container never runs in it (issue 16). */
        if (s->gid == 0) {
                prc_err_set(err, PRC_E_OCI_ROOT_GROUP_REFUSED, "the container group must not be root's (gid 0)");
                goto fail;
        }
        L = prc_manifest_limits_of(m);
        uint64_t pids = prc_oci_pids_limit(m);
        /*
         * RLIMIT_NPROC is checked against every task of the container's uid
         * on the host (no user namespace: the invoking user's), not against
         * the container's: any value below the user's own limit lets the
         * user's unrelated processes (the client's threads, other runs, a
         * desktop session) make runc's Go threads or the adapter's exec fail
         * with EAGAIN.  The pids cgroup bounds the container; nproc only keeps
         * the user's own cap (host_nproc; UINT64_MAX, unlimited without a
         * pid_max: the engine's default).
         */
        uint64_t nproc = s->host_nproc_max;
        if (L->nofile > s->host_nofile_max) {
                prc_err_set(err, PRC_E_OCI_ULIMIT_EXCEEDS_HOST,
                            "manifest nofile %" PRIu64 " is above the host's hard limit %" PRIu64, L->nofile,
                            s->host_nofile_max);
                goto fail;
        }
        if (!prc_manifest_image_ref(m, image, sizeof(image), err))
                goto fail;

        add2(&a, "${runtime}", s->rt->path);
        if (s->rt->kind == PRC_OCI_PODMAN) {
                add(&a, "--runtime");
                add(&a, "runc");
                add(&a, "--cgroup-manager");
                add(&a, "cgroupfs");
        }
        add(&a, "run");
        add(&a, "--rm");
        add(&a, "-i");
        add(&a, "--pull=never");
        add2(&a, "--name=${name}", (snprintf(buf, sizeof(buf), "--name=%s", s->container_name), buf));
        add(&a, "--network=none");
        add(&a, "--read-only");
        if (s->rt->kind == PRC_OCI_PODMAN)
                add(&a, "--read-only-tmpfs=false");     /* podman would add writable tmpfs mounts */
        add(&a, "--cap-drop=ALL");
        add(&a, "--security-opt=no-new-privileges");
        addf(&a, "--user=%" PRIu32 ":%" PRIu32, s->uid, s->gid);
        addf(&a, "--memory=%" PRIu64 "b", L->memory_bytes);
        /* memory-swap equal to memory: no swap beyond the ceiling. */
        addf(&a, "--memory-swap=%" PRIu64 "b", L->memory_bytes);
        addf(&a, "--cpus=%" PRIu64 ".%03" PRIu64, L->cpus_millis / 1000, L->cpus_millis % 1000);
        addf(&a, "--pids-limit=%" PRIu64, pids);
        addf(&a, "--ulimit=nofile=%" PRIu64 ":%" PRIu64, L->nofile, L->nofile);
        if (nproc != UINT64_MAX)
                addf(&a, "--ulimit=nproc=%" PRIu64 ":%" PRIu64, nproc, nproc);
        add(&a, "--log-driver=none");   /* the engine keeps no copy of adapter output */
        if (L->tmpfs_bytes > 0)
                addf(&a, "--tmpfs=/tmp:rw,noexec,nosuid,nodev,size=%" PRIu64, L->tmpfs_bytes);
        snprintf(buf, sizeof(buf), "--mount=type=bind,source=%s,target=%s,readonly", s->snapshot_path,
                 PRC_OCI_SNAPSHOT_MOUNT);
        snprintf(tbuf, sizeof(tbuf), "--mount=type=bind,source=${snapshot},target=%s,readonly",
                 PRC_OCI_SNAPSHOT_MOUNT);
        add2(&a, tbuf, buf);
        for (size_t i = 0; i < s->ndata; i++) {
                if (!mount_path_ok(s->data[i].host_path)) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "data '%s': path unusable for a mount", s->data[i].name);
                        goto fail;
                }
                snprintf(buf, sizeof(buf), "--mount=type=bind,source=%s,target=%s,readonly", s->data[i].host_path,
                         s->data[i].destination);
                snprintf(tbuf, sizeof(tbuf), "--mount=type=bind,source=${data:%s},target=%s,readonly",
                         s->data[i].name, s->data[i].destination);
                add2(&a, tbuf, buf);
        }
        addf(&a, "--workdir=%s", PRC_OCI_SNAPSHOT_MOUNT);
        add(&a, "--entrypoint=");       /* the manifest's command is the whole argv */
        add(&a, image);
        for (size_t i = 0; i < prc_manifest_command_len(m); i++)
                add(&a, prc_manifest_command_arg(m, i));
        if (a.oom) {
                prc_err_oom(err, "plan argv");
                goto fail;
        }

        limits = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "wall_seconds",
                           (json_int_t)L->wall_seconds, "memory_bytes", (json_int_t)L->memory_bytes, "cpus_millis",
                           (json_int_t)L->cpus_millis, "pids", (json_int_t)pids, "nofile", (json_int_t)L->nofile,
                           "tmpfs_bytes", (json_int_t)L->tmpfs_bytes, "stdin_bytes", (json_int_t)L->stdin_bytes,
                           "stdout_bytes", (json_int_t)L->stdout_bytes, "stderr_bytes", (json_int_t)L->stderr_bytes,
                           "line_bytes", (json_int_t)L->line_bytes, "messages", (json_int_t)L->messages);
        /* No "nproc" when the user has no cap: the record says only what was applied. */
        if (limits != NULL && nproc != UINT64_MAX &&
            json_object_set_new(limits, "nproc", json_integer((json_int_t)nproc)) != 0) {
                json_decref(limits);
                limits = NULL;
        }
        data = prc_data_identity_json(s->data, s->ndata);
        sealed = json_pack("{s:s,s:O,s:{s:s,s:s,s:s},s:s,s:s,s:{s:s,s:I,s:I},s:O,s:O}", "schema",
                           PRC_OCI_PLAN_SCHEMA, "argv_template", a.tmpl, "runtime", "kind",
                           prc_oci_kind_name(s->rt->kind), "sha256", s->rt->sha256, "version", s->rt->version,
                           "image", image, "manifest_sha256", prc_manifest_sha256(m), "snapshot", "sha256",
                           s->snapshot_sha256, "files", (json_int_t)s->snapshot_files, "bytes",
                           (json_int_t)s->snapshot_bytes, "data", data, "limits", limits);
        if (limits == NULL || data == NULL || sealed == NULL) {
                prc_err_oom(err, "plan");
                goto fail;
        }
        if (!prc_jcs_digest(sealed, digest, err))
                goto fail;
        plan = json_pack("{s:s,s:s,s:O,s:{s:s,s:s,s:s,s:s},s:s,s:s,s:O,s:O,s:O,s:O}", "schema",
                         PRC_OCI_PLAN_SCHEMA, "plan_sha256", digest, "argv", a.real, "runtime", "kind",
                         prc_oci_kind_name(s->rt->kind), "path", s->rt->path, "sha256", s->rt->sha256, "version",
                         s->rt->version, "image", image, "container_name", s->container_name, "snapshot",
                         json_object_get(sealed, "snapshot"), "data", data, "limits", limits, "sealed", sealed);
        if (plan == NULL)
                prc_err_oom(err, "plan");
fail:
        json_decref(a.tmpl);
        json_decref(a.real);
        json_decref(limits);
        json_decref(data);
        json_decref(sealed);
        return plan;
}

/* ---- the run ------------------------------------------------------------- */

typedef struct prep {
        prc_manifest_limits lim;
        prc_snapshot       *snap;
        prc_data_input     *data;
        size_t              ndata;
        prc_oci_runtime     rt;
        rtexe               exe;        /* rt.path, opened and hashed once (spawn) */
        prc_oci_spec        spec;
        char                name[32];
        json_t             *plan;
        uint64_t            files;
        prc_oci_native      nat;        /* native protocols only (nat.spec non-NULL) */
        bool                image_ok;   /* a run only: the image is present; else image_err */
        prc_err             image_err;
} prep;

static void prep_clear(prep *p)
{
        json_decref(p->plan);
        prc_snapshot_free(p->snap);
        prc_data_free(p->data, p->ndata);
        prc_oci_native_clear(&p->nat);
        rtexe_close(&p->exe);
        memset(p, 0, sizeof(*p));
        p->exe.fd = -1;
}

static bool host_hard(int res, uint64_t *out)
{
        struct rlimit rl;
        if (getrlimit(res, &rl) != 0)
                return false;
        *out = rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_max;
        return true;
}

/*
 * The container's nproc (prc_oci_plan): the user's own hard RLIMIT_NPROC,
 * at most the kernel's pid_max.  No uid can hold more tasks than there are
 * PIDs, so a larger limit bounds nothing; and a runtime that cannot raise
 * limits holds its own at pid_max (podman 4.3 as root without
 * CAP_SYS_RESOURCE: asked for more, runc fails "setting rlimit type 6").
 */
static bool host_nproc(uint64_t *out)
{
        FILE *f;
        unsigned long long pid_max;

        if (!host_hard(RLIMIT_NPROC, out))
                return false;
        f = fopen("/proc/sys/kernel/pid_max", "re");
        if (f == NULL)
                return true;    /* no procfs: the user's limit alone */
        if (fscanf(f, "%llu", &pid_max) == 1 && pid_max > 0 && pid_max < *out)
                *out = pid_max;
        fclose(f);
        return true;
}

bool prc_oci_refuse_root(prc_err *err)
{
        if (geteuid() == 0 || getuid() == 0)
                return prc_err_set(err, PRC_E_OCI_ROOT_REFUSED,
                                   "the OCI runner refuses to run as root: run it as an unprivileged user in the "
                                   "runtime's group");
        /* The container runs as the invoking uid:gid, so group 0 would follow it in (issue 16). */
        if (getegid() == 0 || getgid() == 0)
                return prc_err_set(err, PRC_E_OCI_ROOT_GROUP_REFUSED,
                                   "the OCI runner refuses to run with group 0 (real %u, effective %u): run it with "
                                   "the user's own primary group", (unsigned)getgid(), (unsigned)getegid());
        return true;
}

bool prc_oci_authorize(const prc_manifest *m, const prc_resolution *r, prc_err *err)
{
        if (r == NULL)
                return prc_err_set(err, PRC_E_OCI_NOT_AUTHORIZED, "no resolution grants this manifest");
        if (strcmp(r->manifest_sha256, prc_manifest_sha256(m)) != 0 ||
            strcmp(r->adapter_id, prc_manifest_adapter_id(m)) != 0 ||
            strcmp(r->publisher_id, prc_manifest_publisher_id(m)) != 0)
                return prc_err_set(err, PRC_E_OCI_NOT_AUTHORIZED,
                                   "the resolution grants another adapter, manifest digest or publisher");
        if (r->grant == PRC_GRANT_LOCAL_EXPLICIT)
                return true;
        if (r->grant == PRC_GRANT_REGISTRY &&
            (strcmp(r->trust, "first-party-sandboxed") == 0 || strcmp(r->trust, "verified-community") == 0))
                return true;
        return prc_err_set(err, PRC_E_OCI_NOT_AUTHORIZED, "registry trust '%.31s' may not run by default", r->trust);
}

bool prc_oci_gate(const prc_manifest *m, const prc_resolution *r, prc_err *err)
{
        if (prc_manifest_version(m) != 4)
                return prc_err_set(err, PRC_E_MANIFEST_ARCHIVED, "only a v0.4 manifest can be executed");
        return prc_oci_authorize(m, r, err) && prc_oci_native_gate(m, err);
}

/* Everything up to the plan; on failure p is cleared. */
static bool prepare(const prc_oci_request *rq, prep *p, bool for_run, prc_err *err)
{
        uint8_t rnd[12];
        uint64_t nofile = 0, nproc = 0;

        memset(p, 0, sizeof(*p));
        p->exe.fd = -1;
#ifndef __linux__
        return prc_err_set(err, PRC_E_OCI_ROOT_REFUSED, "the OCI runner runs on Linux hosts only");
#endif
        if (!prc_oci_refuse_root(err))
                return false;
        if (prc_manifest_version(rq->m) != 4)
                return prc_err_set(err, PRC_E_MANIFEST_ARCHIVED, "only a v0.4 manifest can be executed");
        if (!prc_oci_authorize(rq->m, rq->resolution, err))
                return false;
        prc_oci_trace("prepare");
        if (!prc_data_prepare(rq->m, rq->data, rq->ndata, &p->data, &p->ndata, err))
                return false;
        prc_oci_trace("data-prepared");
        /*
         * Ask the runtime (identity; for a run also limit enforcement and the
         * image: planning starts nothing, so only a run asks) on a thread while
         * this one copies the snapshot: the queries are mostly waiting for the
         * engine.  The errors keep their order: the runtime's first, then the
         * copy's, the plan's, and the image's last.
         */
        char image[512];
        prc_err ierr = {0};
        probe pr = { .kind = rq->runtime, .limits = for_run,
                     .image = for_run && prc_manifest_image_ref(rq->m, image, sizeof(image), &ierr) ? image : NULL };
        pthread_t th;
        bool threaded = pthread_create(&th, NULL, probe_thread, &pr) == 0;
        if (!threaded)
                probe_run(&pr);         /* no thread: the same work, one after the other */
        bool local = true;
        if (!host_hard(RLIMIT_NOFILE, &nofile) || !host_nproc(&nproc))
                local = prc_err_sys(err, PRC_E_IO, errno, "getrlimit");
        local = local && prc_oci_native_begin(&p->nat, rq, err);
        prc_oci_trace("native-begun");
        /*
         * The snapshot's directory: $PRC_OCI_TMPDIR, else a private tmpfs
         * (prc_snapshot_tmpfs_parent), else $TMPDIR.  Measured: creating and
         * removing 10,000 files costs ext4 seconds (inode allocation skips
         * recently deleted inodes; O_CREAT in one directory serializes on
         * its lock), tmpfs about 0.15 s.
         */
        const char *parent = getenv("PRC_OCI_TMPDIR");
        if (parent == NULL || parent[0] != '/')
                parent = prc_snapshot_tmpfs_parent(prc_inventory_total_bytes(rq->inv));
        prc_snapshot_opts so = { .parent = parent, .cancel = rq->cancel };
        local = local && prc_snapshot_create(rq->inv, NULL, &so, &p->snap, err);
        prc_oci_trace("snapshot-copied");
        local = local && prc_oci_native_owned(&p->nat, rq->inv, p->snap, err) && prc_snapshot_seal(p->snap, err);
        prc_oci_trace("snapshot-sealed");
        if (threaded)
                (void)pthread_join(th, NULL);
        prc_oci_trace("runtime-probed");
        if (!pr.ok) {
                prc_err_init(err);
                *err = pr.err;
                goto fail;
        }
        p->exe = pr.exe;        /* p owns the descriptor now (prep_clear closes it) */
        pr.exe.fd = -1;
        if (!local)
                goto fail;
        p->rt = pr.rt;
        p->image_ok = pr.image_ok;
        p->image_err = pr.image_err;
        for (size_t i = 0; i < prc_inventory_count(rq->inv); i++)
                p->files += prc_inventory_entry(rq->inv, i)->type == PRC_INV_FILE;
        if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
                prc_err_sys(err, PRC_E_IO, errno, "getrandom");
                goto fail;
        }
        memcpy(p->name, "prc-", 4);
        prc_hex_encode(rnd, sizeof(rnd), p->name + 4);
        p->spec = (prc_oci_spec){
                .rt = &p->rt, .m = rq->m, .snapshot_path = prc_snapshot_path(p->snap),
                .snapshot_sha256 = prc_snapshot_digest(p->snap), .snapshot_files = p->files,
                .snapshot_bytes = prc_snapshot_total_bytes(p->snap), .data = p->data, .ndata = p->ndata,
                .uid = (uint32_t)getuid(), .gid = (uint32_t)getgid(), .container_name = p->name,
                .host_nofile_max = nofile, .host_nproc_max = nproc,
        };
        p->plan = prc_oci_plan(&p->spec, err);
        if (p->plan == NULL)
                goto fail;
        p->lim = *prc_manifest_limits_of(rq->m);
        prc_oci_trace("planned");
        return true;
fail:
        prep_clear(p);
        return false;
}

bool prc_oci_plan_request(const prc_oci_request *rq, json_t **out_plan, prc_err *err)
{
        prep p;
        if (!prepare(rq, &p, false, err))
                return false;
        *out_plan = json_incref(p.plan);
        prep_clear(&p);
        return true;
}

#if defined(PRC_TESTING) && PRC_TESTING
static void test_hook(const prep *p, const char *var)
{
        const char *cmd = getenv(var);
        if (cmd == NULL || *cmd == '\0')
                return;
        /* The hook sees the snapshot path; it runs as the invoking user. */
        if (setenv("PRC_HOOK_SNAPSHOT", prc_snapshot_path(p->snap), 1) != 0 ||
            setenv("PRC_HOOK_CONTAINER", p->name, 1) != 0)
                return;
        char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)cmd, NULL };
        pid_t pid = fork();
        if (pid == 0) {
                execve(argv[0], argv, environ);
                _exit(127);
        }
        if (pid > 0)
                (void)wait_bounded(pid, now_ms() + 60000, NULL);
}
#endif

/*
 * Immediately before start: manifest, runtime binary, plan, snapshot, data,
 * reported in that order.  The runtime binary is not hashed again: it was
 * hashed through the descriptor every client is executed through, and each
 * exec checks that the file's identity still holds (spawn); here the path
 * must also still name that same file, so a plan printed for an operator
 * would run what was hashed.
 */
static bool recheck_before(const prc_oci_request *rq, prep *p, prc_err *err)
{
        struct stat st;
        bool ok;

        if (rq->manifest_path != NULL) {
                prc_manifest *again = prc_manifest_load(rq->manifest_path, PRC_MANIFEST_EXECUTE, err);
                bool same = again != NULL && strcmp(prc_manifest_sha256(again), prc_manifest_sha256(rq->m)) == 0;
                prc_manifest_free(again);
                prc_err_init(err);
                if (!same)
                        return prc_err_set(err, PRC_E_OCI_MANIFEST_CHANGED,
                                           "the manifest file changed after authorization");
        }
        prc_oci_trace("before:manifest");
        if (!rtexe_holds(&p->exe) || stat(p->rt.path, &st) != 0 || !same_id(&st, &p->exe.id))
                return prc_err_set(err, PRC_E_OCI_RUNTIME_CHANGED, "the %s client binary changed after planning",
                                   prc_oci_kind_name(p->rt.kind));
        prc_oci_trace("before:runtime-checked");
        json_t *again = prc_oci_plan(&p->spec, err);
        bool same = again != NULL && json_equal(again, p->plan);
        json_decref(again);
        prc_err_init(err);
        if (!same)
                ok = prc_err_set(err, PRC_E_OCI_PLAN_CHANGED, "the plan rebuilt before start differs");
        else
                ok = prc_snapshot_verify(p->snap, err) && prc_data_recheck(rq->m, p->data, p->ndata, err);
        prc_oci_trace("before:snapshot-verified");
        return ok;
}

/* `RUNTIME rm -f NAME`: only the container this run named. */
/*
 * Remove exactly the container this run named.  A timeout can fire while
 * the runtime is still creating it, and then one `rm -f` finds nothing and
 * the container appears afterwards: so remove, then ask whether the name
 * still exists, and repeat until it does not (bounded by RM_TIMEOUT_MS).
 */
static bool remove_container(const prep *p)
{
        int64_t until = now_ms() + RM_TIMEOUT_MS;

        for (;;) {
                char *argv[12];
                size_t n = 0;
                prc_err e = {0};
                prc_buf out;
                int st;
                pid_t pid;

                argv[n++] = (char *)p->rt.path;
                if (p->rt.kind == PRC_OCI_PODMAN)
                        podman_globals(argv, &n);
                argv[n++] = (char *)"rm";
                argv[n++] = (char *)"-f";
                argv[n++] = (char *)p->name;
                argv[n] = NULL;
                pid = spawn(&p->exe, argv, -1, -1, -1, &e);
                if (pid > 0)
                        (void)wait_bounded(pid, until, NULL);
                /* A client that changed is never executed, not even to clean up: --rm then
                 * removes the container when it ends (docs/oci-runner.md). */
                if (e.cls == PRC_E_OCI_RUNTIME_CHANGED)
                        return false;
                /* `container inspect NAME` fails once no container has that name. */
                n = 0;
                argv[n++] = (char *)p->rt.path;
                if (p->rt.kind == PRC_OCI_PODMAN)
                        podman_globals(argv, &n);
                argv[n++] = (char *)"container";
                argv[n++] = (char *)"inspect";
                argv[n++] = (char *)"--format";
                argv[n++] = (char *)"{{.Id}}";
                argv[n++] = (char *)p->name;
                argv[n] = NULL;
                prc_buf_init(&out, 4096);
                st = run_capture(&p->exe, argv, &out, QUERY_TIMEOUT_MS, &e);
                prc_buf_clear(&out);
                if (e.cls == PRC_E_OCI_RUNTIME_CHANGED)
                        return false;
                if (st > 0 || now_ms() >= until)
                        return true;
                struct timespec ts = { 0, 200 * 1000 * 1000 };
                nanosleep(&ts, NULL);
        }
}

typedef struct outcome {
        prc_errclass exec_cls;          /* an execution error of the runner's own, or OK */
        char         exec_msg[256];
        bool         timed_out;
        bool         killed;            /* we removed the container */
        int          exit_status;       /* -1 when none */
} outcome;

static void set_exec(outcome *o, prc_errclass c, const char *msg)
{
        if (o->exec_cls != PRC_E_OK)
                return;
        o->exec_cls = c;
        snprintf(o->exec_msg, sizeof(o->exec_msg), "%s", msg);
}

/* Remove our container (a timeout, a cap, a signal): the run no longer reads it. */
static void kill_named(const prep *p, outcome *o)
{
        if (!remove_container(p))
                set_exec(o, PRC_E_OCI_RUNTIME_CHANGED, "the runtime client changed during the run");
        o->killed = true;
}

static bool cancelled(const prc_oci_request *rq)
{
        return rq->cancel != NULL && *rq->cancel != 0;
}

static void execute(const prc_oci_request *rq, prep *p, const prc_buf *req, prc_decoder *dec,
                    prc_stderr_meter *meter, outcome *o)
{
        /* A native report is captured whole (bounded) for its normalizer; jsonl is decoded as it comes. */
        prc_oci_native *nat = p->nat.spec != NULL ? &p->nat : NULL;
        int in[2] = { -1, -1 }, out[2] = { -1, -1 }, errp[2] = { -1, -1 };
        size_t argc = json_array_size(json_object_get(p->plan, "argv"));
        char **argv = calloc(argc + 1, sizeof(*argv));
        prc_err e = {0};
        pid_t pid = -1;
        size_t sent = 0;
        int64_t deadline = now_ms() + (int64_t)p->lim.wall_seconds * 1000;

        o->exit_status = -1;
        if (rq->deadline != NULL) {
                int64_t shared = (int64_t)rq->deadline->tv_sec * 1000 + rq->deadline->tv_nsec / 1000000;
                if (shared < deadline)
                        deadline = shared;
                if (shared <= now_ms()) {
                        set_exec(o, PRC_E_OCI_DEADLINE, "the shared scan deadline has passed");
                        goto out;
                }
        }
        if (argv == NULL) {
                set_exec(o, PRC_E_OUT_OF_MEMORY, "argv");
                goto out;
        }
        for (size_t i = 0; i < argc; i++)
                argv[i] = (char *)json_string_value(json_array_get(json_object_get(p->plan, "argv"), i));
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
                set_exec(o, PRC_E_IO, "pipe");
                goto out;
        }
        if (cancelled(rq)) {
                set_exec(o, PRC_E_OCI_INTERRUPTED, "interrupted by a signal before the container started");
                goto out;
        }
        prc_oci_trace("execute:spawn");
        pid = spawn(&p->exe, argv, in[0], out[1], errp[1], &e);
        close(in[0]), close(out[1]), close(errp[1]);
        in[0] = out[1] = errp[1] = -1;
        if (pid < 0) {
                set_exec(o, e.cls == PRC_E_OCI_RUNTIME_CHANGED ? e.cls : PRC_E_OCI_RUNTIME_FAILED,
                         e.cls == PRC_E_OCI_RUNTIME_CHANGED ? e.msg : "cannot start the runtime client");
                goto out;
        }
        /* An adapter that exits before reading its request must be EPIPE here, not our end. */
        struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
        sigemptyset(&ign.sa_mask);
        bool pipe_saved = sigaction(SIGPIPE, &ign, &old_pipe) == 0;
        (void)fcntl(in[1], F_SETFL, O_NONBLOCK);
        (void)fcntl(out[0], F_SETFL, O_NONBLOCK);
        (void)fcntl(errp[0], F_SETFL, O_NONBLOCK);
        uint8_t *chunk = malloc(CHUNK);
        if (chunk == NULL) {
                set_exec(o, PRC_E_OUT_OF_MEMORY, "read buffer");
                kill_named(p, o);
                goto reap;
        }
        while (out[0] >= 0 || errp[0] >= 0) {
                struct pollfd pf[3];
                int np = 0, iw = -1, io = -1, ie = -1;
                if (in[1] >= 0)
                        iw = np, pf[np++] = (struct pollfd){ in[1], POLLOUT, 0 };
                if (out[0] >= 0)
                        io = np, pf[np++] = (struct pollfd){ out[0], POLLIN, 0 };
                if (errp[0] >= 0)
                        ie = np, pf[np++] = (struct pollfd){ errp[0], POLLIN, 0 };
                if (cancelled(rq)) {
                        set_exec(o, PRC_E_OCI_INTERRUPTED, "interrupted by a signal");
                        kill_named(p, o);
                        break;
                }
                int64_t left = deadline - now_ms();
                if (left <= 0) {
                        o->timed_out = true;
                        break;
                }
                int r = poll(pf, (nfds_t)np, left > 1000 ? 1000 : (int)left);
                if (r < 0 && errno != EINTR) {
                        set_exec(o, PRC_E_IO, "poll");
                        break;
                }
                if (r <= 0)
                        continue;
                if (iw >= 0 && (pf[iw].revents & (POLLOUT | POLLERR | POLLHUP))) {
                        ssize_t n = write(in[1], req->data + sent, req->len - sent);
                        if (n > 0)
                                sent += (size_t)n;
                        if ((n < 0 && errno != EAGAIN && errno != EINTR) || sent == req->len) {
                                /* An adapter that stops reading early is its own business; the
                                 * decoder still judges what it wrote. */
                                close(in[1]);
                                in[1] = -1;
                        }
                }
                if (io >= 0 && (pf[io].revents & (POLLIN | POLLHUP | POLLERR))) {
                        ssize_t n = read(out[0], chunk, CHUNK);
                        if (n > 0) {
                                if (nat != NULL ? !prc_oci_native_feed(nat, chunk, (size_t)n)
                                                : !prc_decoder_feed(dec, chunk, (size_t)n))
                                        break;  /* rejected: nothing more is read */
                        } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                                close(out[0]);
                                out[0] = -1;
                        }
                }
                if (ie >= 0 && (pf[ie].revents & (POLLIN | POLLHUP | POLLERR))) {
                        ssize_t n = read(errp[0], chunk, CHUNK);
                        if (n > 0) {
                                if (!prc_stderr_meter_feed(meter, chunk, (size_t)n, &e)) {
                                        set_exec(o, e.cls, e.msg);
                                        break;
                                }
                                if (prc_stderr_meter_over(meter)) {
                                        set_exec(o, PRC_E_OCI_STDERR_LIMIT, "standard error passed stderr_bytes");
                                        break;
                                }
                        } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                                close(errp[0]);
                                errp[0] = -1;
                        }
                }
        }
        free(chunk);
        prc_oci_trace("execute:streams-closed");
        if (out[0] >= 0 || errp[0] >= 0) {
                /*
                 * Stopped early (timeout, a cap, a rejection).  Close our ends first: a
                 * client blocked writing to a pipe nobody reads would hold the
                 * container's attach open.  Then remove exactly our container.
                 */
                int *fds[] = { &in[1], &out[0], &errp[0] };
                for (size_t k = 0; k < PRC_ARRAY_LEN(fds); k++)
                        if (*fds[k] >= 0) {
                                close(*fds[k]);
                                *fds[k] = -1;
                        }
                kill_named(p, o);
        }
reap:;
        bool sigkilled = false;
        int st = -1;
        if (!o->killed) {
                /* Both streams closed; the container may still run: the deadline still holds. */
                for (;;) {
                        pid_t r = waitpid(pid, &st, WNOHANG);
                        if (r == pid)
                                break;
                        if (r < 0 && errno != EINTR) {
                                st = -1;
                                break;
                        }
                        if (cancelled(rq)) {
                                set_exec(o, PRC_E_OCI_INTERRUPTED, "interrupted by a signal");
                                kill_named(p, o);
                                st = wait_bounded(pid, now_ms() + CLIENT_WAIT_MS, &sigkilled);
                                break;
                        }
                        if (now_ms() >= deadline) {
                                o->timed_out = true;
                                kill_named(p, o);
                                st = wait_bounded(pid, now_ms() + CLIENT_WAIT_MS, &sigkilled);
                                break;
                        }
                        struct timespec ts = { 0, 2 * 1000 * 1000 };
                        nanosleep(&ts, NULL);
                }
        } else {
                st = wait_bounded(pid, now_ms() + CLIENT_WAIT_MS, &sigkilled);
        }
        /*
         * The client is gone now.  On a slow engine it may have created or
         * started the container after the first removal (seen under load with a
         * 2 s deadline), so remove the same name once more: nothing we named
         * outlives the run.
         */
        if (o->killed && !remove_container(p))
                set_exec(o, PRC_E_OCI_RUNTIME_CHANGED, "the runtime client changed during the run");
        if (!o->killed && !sigkilled && st >= 0 && WIFEXITED(st)) {
                o->exit_status = WEXITSTATUS(st);
        } else if (!o->killed) {
                /*
                 * The client ended by a signal prc did not send, or the wait
                 * failed: nobody knows how the adapter ended, so it is an
                 * execution error, never exit 0 (issue 16).  The container may
                 * outlive its client: remove it by its name.
                 */
                set_exec(o, PRC_E_OCI_EXIT_UNKNOWN,
                         st >= 0 && WIFSIGNALED(st) ? "the runtime client was killed by a signal prc did not send"
                                                    : "the runtime client's exit status could not be read");
                kill_named(p, o);
        }
        if (pipe_saved)
                (void)sigaction(SIGPIPE, &old_pipe, NULL);
        prc_oci_trace("execute:client-exited");
out:
        for (int i = 0; i < 2; i++) {
                if (in[i] >= 0)
                        close(in[i]);
                if (out[i] >= 0)
                        close(out[i]);
                if (errp[i] >= 0)
                        close(errp[i]);
        }
        free(argv);
}

static json_t *observations_of(const prc_decoder *d)
{
        const json_t *src = prc_decoder_observations(d);
        json_t *a = json_array();
        size_t i;
        json_t *o;
        if (a == NULL)
                return NULL;
        json_array_foreach(src, i, o) {
                json_t *loc = json_object_get(o, "locations");
                json_t *val = json_object_get(o, "value");
                json_t *n = json_pack("{s:O,s:O,s:O,s:o,s:o}", "id", json_object_get(o, "id"), "kind",
                                      json_object_get(o, "kind"), "outcome", json_object_get(o, "outcome"),
                                      "locations", loc ? json_incref(loc) : json_array(), "value",
                                      val ? json_incref(val) : json_null());
                if (n == NULL || json_array_append_new(a, n) != 0) {
                        json_decref(a);
                        return NULL;
                }
        }
        return a;
}

bool prc_oci_run(const prc_oci_request *rq, json_t **out_record, prc_err *err)
{
        prep p;
        prc_decoder *dec = NULL;
        prc_stderr_meter meter = {0};
        prc_buf req;
        outcome o = { .exit_status = -1 };
        json_t *rec = NULL, *obs = NULL, *res = NULL, *data = NULL;
        bool ok = false;
        const char *plan_sha;

        prc_buf_init(&req, 0);
        /*
         * With the shared deadline already spent nothing will start: plan (the
         * record needs the plan and snapshot identities) but do not ask the
         * engine anything more; execute() records oci-deadline.
         */
        bool expired = false;
        if (rq->deadline != NULL) {
                int64_t shared = (int64_t)rq->deadline->tv_sec * 1000 + rq->deadline->tv_nsec / 1000000;
                expired = shared <= now_ms();
        }
        if (!prepare(rq, &p, !expired, err))
                return false;
        plan_sha = json_string_value(json_object_get(p.plan, "plan_sha256"));
        if (!expired && !p.image_ok) {
                *err = p.image_err;
                goto out;
        }
        prc_oci_trace("image-present");
        dec = p.nat.spec != NULL ? NULL : prc_decoder_new(rq->m, NULL, err);
        if ((dec == NULL && p.nat.spec == NULL) || !prc_stderr_meter_init(&meter, p.lim.stderr_bytes, err))
                goto out;
        prc_buf_init(&req, (size_t)p.lim.stdin_bytes);
        if (p.nat.spec == NULL && !prc_proto_write_request(rq->run_id ? rq->run_id : plan_sha,
                                     rq->target_name ? rq->target_name : "target", prc_inventory_digest(rq->inv),
                                     NULL, NULL, &req, err))
                goto out;

#if defined(PRC_TESTING) && PRC_TESTING
        test_hook(&p, "PRC_TEST_OCI_HOOK");
#endif
        prc_err rerr = {0};
        prc_oci_trace("before");
        if (!recheck_before(rq, &p, &rerr))
                set_exec(&o, rerr.cls, rerr.msg);
        else
                execute(rq, &p, p.nat.spec != NULL ? &p.nat.in : &req, dec, &meter, &o);
        /* Immediately after: the bytes the adapter read must still be the sealed ones. */
#if defined(PRC_TESTING) && PRC_TESTING
        test_hook(&p, "PRC_TEST_OCI_HOOK_AFTER");
#endif
        if (o.exec_cls == PRC_E_OK) {
                prc_err_init(&rerr);
                if (!prc_snapshot_verify(p.snap, &rerr) || !prc_data_recheck(rq->m, p.data, p.ndata, &rerr))
                        set_exec(&o, rerr.cls, rerr.msg);
        }
        prc_oci_trace("after:verified");
        /* No status (-1) is not a clean exit: the decoder never accepts it. */
        prc_exec_end end = { .exit_status = o.exit_status, .timed_out = o.timed_out,
                             /* Inside the container only the kernel's OOM killer sends SIGKILL
                              * (exit 137) unless we removed it ourselves. */
                             .memory_limit = !o.killed && o.exit_status == 137 };
        if (o.exit_status == 125 || o.exit_status == 126 || o.exit_status == 127)
                set_exec(&o, PRC_E_OCI_RUNTIME_FAILED, "the runtime client could not create or start the container");
        if (o.timed_out)
                set_exec(&o, PRC_E_ADAPTER_TIMED_OUT, "the adapter ran past wall_seconds");
        else if (end.memory_limit)
                set_exec(&o, PRC_E_ADAPTER_MEMORY_LIMIT, "the adapter was killed at memory_bytes");
        prc_errclass ncls = PRC_E_OK;
        char nmsg[256];
        bool accepted = p.nat.spec == NULL ? prc_decoder_finish(dec, &end)
                        : o.exec_cls == PRC_E_OK &&
                                  prc_oci_native_finish(&p.nat, o.exit_status, &ncls, nmsg, sizeof(nmsg));
        const char *out_sha = p.nat.spec == NULL ? prc_decoder_stdout_sha256(dec)
                                                 : prc_oci_native_stdout_sha256(&p.nat, err);
        if (out_sha == NULL || !prc_stderr_meter_finish(&meter, err))
                goto out;
        const char *disp, *cls;
        if (o.exec_cls != PRC_E_OK) {
                disp = "execution-error";
                cls = prc_err_name(o.exec_cls);
                accepted = false;
        } else if (accepted) {
                disp = "accepted";
                cls = NULL;
        } else {
                disp = "rejected";
                cls = prc_err_name(p.nat.spec != NULL ? ncls : prc_decoder_error(dec)->cls);
        }
        if (p.nat.spec != NULL)
                obs = accepted ? prc_oci_native_observations(&p.nat) : json_array();
        else
                obs = accepted ? observations_of(dec) : json_array();
        res = prc_resolution_json(rq->resolution, err);
        data = prc_data_identity_json(p.data, p.ndata);
        if (obs == NULL || res == NULL || data == NULL) {
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "record");
                goto out;
        }
        const json_t *sealed = json_object_get(p.plan, "sealed");
        json_t *arts = p.nat.spec != NULL ? prc_oci_native_artifacts(&p.nat)
                       : accepted ? json_deep_copy(prc_decoder_artifacts(dec)) : json_array();
        rec = json_pack("{s:s,s:s,s:s,s:O,s:s,s:s,s:O,s:s,s:O,s:O,s:O,s:s,s:s?,s:o,s:b,s:s?,s:O,s:o,s:O,"
                        "s:{s:I,s:s},s:{s:I,s:s}}",
                        "schema", PRC_RECORD_SCHEMA, "adapter_id", prc_manifest_adapter_id(rq->m), "manifest_sha256",
                        prc_manifest_sha256(rq->m), "resolution", res, "inventory_digest",
                        prc_inventory_digest(rq->inv), "snapshot_sha256", prc_snapshot_digest(p.snap), "snapshot",
                        json_object_get(sealed, "snapshot"), "plan_sha256", plan_sha, "runtime",
                        json_object_get(sealed, "runtime"), "image", json_object_get(sealed, "image"), "limits",
                        json_object_get(sealed, "limits"), "disposition", disp, "error_class", cls, "exit_status",
                        o.exit_status < 0 ? json_null() : json_integer(o.exit_status), "timed_out", o.timed_out,
                        "summary_status",
                        !accepted ? NULL : p.nat.spec != NULL ? "completed" : prc_decoder_summary_status(dec),
                        "observations", obs,
                        "artifacts", arts, "data_inputs", data,
                        "stdout", "bytes",
                        (json_int_t)(p.nat.spec != NULL ? prc_oci_native_stdout_bytes(&p.nat) : prc_decoder_bytes(dec)),
                        "sha256", out_sha, "stderr", "bytes", (json_int_t)meter.bytes, "sha256",
                        meter.sha256);
        if (rec == NULL) {
                prc_err_oom(err, "record");
                goto out;
        }
        if (!prc_record_seal(rec, err)) {
                json_decref(rec);
                rec = NULL;
                goto out;
        }
        if (accepted && p.nat.spec != NULL && rq->artifact_out != NULL &&
            !prc_buf_put(rq->artifact_out, p.nat.res.artifact, p.nat.res.artifact_len, err)) {
                json_decref(rec);
                rec = NULL;
                goto out;
        }
        *out_record = rec;
        ok = true;
        prc_oci_trace("record");
out:
        json_decref(obs);
        json_decref(res);
        json_decref(data);
        prc_decoder_free(dec);
        prc_stderr_meter_clear(&meter);
        prc_buf_clear(&req);
        prep_clear(&p);
        prc_oci_trace("snapshot-removed");
        return ok;
}
