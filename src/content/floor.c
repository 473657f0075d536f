/*
 * floor.c - the content worker's sandbox floor (floor.h), layer by layer.
 * Trust: runs before the first hostile byte; every step is checked and a
 * failure names its layer.  No libcap: capabilities go through the raw
 * capset syscall; Landlock's ABI 4-7 constants are defined here because
 * Debian 12's kernel headers stop at ABI 3.
 */
#include "content/floor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Landlock UAPI (include/uapi/linux/landlock.h), our own copy up to ABI 7 ---- */
struct prc_ll_ruleset_attr {
        uint64_t handled_access_fs;
        uint64_t handled_access_net;    /* ABI 4 */
        uint64_t scoped;                /* ABI 6 */
};
#define PRC_LL_CREATE_RULESET_VERSION   (1U << 0)
#define PRC_LL_FS_ABI1  ((1ULL << 13) - 1)      /* EXECUTE .. MAKE_SYM: 13 rights */
#define PRC_LL_FS_REFER         (1ULL << 13)    /* ABI 2 */
#define PRC_LL_FS_TRUNCATE      (1ULL << 14)    /* ABI 3 */
#define PRC_LL_FS_IOCTL_DEV     (1ULL << 15)    /* ABI 5 */
#define PRC_LL_NET_BIND_TCP     (1ULL << 0)     /* ABI 4 */
#define PRC_LL_NET_CONNECT_TCP  (1ULL << 1)     /* ABI 4 */
#define PRC_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)   /* ABI 6 */
#define PRC_LL_SCOPE_SIGNAL     (1ULL << 1)     /* ABI 6 */
/* ABI 7 added audit-logging flags only: no new right to handle. */
enum { PRC_LL_ABI_KNOWN = 7 };

static const char *const layer_names[PRC_LAYER__COUNT] = {
        "userns", "netns", "no-new-privs", "capabilities", "landlock", "seccomp", "rlimits",
};

const char *prc_floor_layer_name(prc_floor_layer l)
{
        return (unsigned)l < PRC_LAYER__COUNT ? layer_names[l] : "unknown-layer";
}

void prc_floor_cfg_default(prc_floor_cfg *cfg)
{
        memset(cfg, 0, sizeof(*cfg));
        /* Parsing a 10 MiB document with 2M nodes needs a few hundred MiB of jansson values. */
        cfg->as_bytes = 1ULL << 30;
        /* The wall-clock timeout per request is the tight bound; this one caps a worker's lifetime. */
        cfg->cpu_seconds = 60;
        cfg->landlock_abi_min = PRC_LANDLOCK_ABI_MIN;
        cfg->nofile = PRC_FLOOR_NOFILE;
}

/*
 * The allowlist: what the serve loop (read, write, exit) and glibc's
 * allocator need after the floor is on.  Sorted by name (a test checks).
 */
const prc_syscall_allow prc_floor_allow[] = {
        { "brk",           PRC_SC_PLAIN,        "allocator: main heap" },
        { "clock_gettime", PRC_SC_PLAIN,        "vDSO fallback" },
        { "exit",          PRC_SC_PLAIN,        NULL },
        { "exit_group",    PRC_SC_PLAIN,        NULL },
        { "futex",         PRC_SC_PLAIN,        "glibc locks (malloc, stdio) when contended" },
        { "getpid",        PRC_SC_PLAIN,        "abort(): raise() signals its own process" },
        { "getrandom",     PRC_SC_PLAIN,        "expat salts its hash tables (else it would open /dev/urandom)" },
        { "gettid",        PRC_SC_PLAIN,        "abort(): raise() signals its own thread" },
        { "madvise",       PRC_SC_PLAIN,        "free() returns pages with MADV_DONTNEED" },
        { "mmap",          PRC_SC_NO_PROT_EXEC, "allocator: large blocks; never executable" },
        { "mprotect",      PRC_SC_NO_PROT_EXEC, "allocator: heap growth; never executable" },
        { "mremap",        PRC_SC_PLAIN,        "realloc of large blocks" },
        { "munmap",        PRC_SC_PLAIN,        NULL },
        { "prlimit64",     PRC_SC_SELF_ONLY,    "the rlimits layer itself; sealed by the second filter" },
        { "read",          PRC_SC_PLAIN,        "requests (fd 3)" },
        { "rt_sigprocmask", PRC_SC_PLAIN,       "abort() blocks signals around raise()" },
        { "rt_sigreturn",  PRC_SC_PLAIN,        "return from a signal frame" },
        { "seccomp",       PRC_SC_FILTER_ONLY,  "loading the seal filter; sealed by it" },
        { "sysinfo",       PRC_SC_PLAIN,        "glibc qsort sizes its buffer from physical memory" },
        { "tgkill",        PRC_SC_OWN_TGID,     "abort(): SIGABRT to itself only, so a crash reads as a crash" },
        { "write",         PRC_SC_PLAIN,        "replies (fd 4)" },
};
const size_t prc_floor_nallow = sizeof(prc_floor_allow) / sizeof(prc_floor_allow[0]);

static bool fail(prc_floor_report *rep, prc_floor_layer l, prc_err *err, int sys, const char *fmt, ...)
        PRC_PRINTF(5, 6);

static bool fail(prc_floor_report *rep, prc_floor_layer l, prc_err *err, int sys, const char *fmt, ...)
{
        char why[160];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(why, sizeof(why), fmt, ap);
        va_end(ap);
        if (sys != 0) {
                size_t n = strlen(why);
                snprintf(why + n, sizeof(why) - n, ": %s", strerror(sys));
        }
        rep->state[l] = PRC_LAYER_FAILED;
        snprintf(rep->detail[l], sizeof(rep->detail[l]), "%s", why);
        return prc_err_sys(err, PRC_E_FLOOR_UNAVAILABLE, sys, "%s: %s", layer_names[l], why);
}

static void applied(prc_floor_report *rep, prc_floor_layer l, const char *fmt, ...) PRC_PRINTF(3, 4);

static void applied(prc_floor_report *rep, prc_floor_layer l, const char *fmt, ...)
{
        va_list ap;

        rep->state[l] = PRC_LAYER_APPLIED;
        va_start(ap, fmt);
        vsnprintf(rep->detail[l], sizeof(rep->detail[l]), fmt, ap);
        va_end(ap);
}

static bool write_at(int dir, const char *name, const char *text)
{
        int fd = openat(dir, name, O_WRONLY | O_CLOEXEC);
        size_t n = strlen(text);
        bool ok;

        if (fd < 0)
                return false;
        ok = write(fd, text, n) == (ssize_t)n;
        if (!ok) {
                int e = errno;
                close(fd);
                errno = e;
                return false;
        }
        return close(fd) == 0;
}

static bool map_ids(int proc, uid_t uid, gid_t gid, prc_floor_report *rep, prc_err *err)
{
        char map[64];

        /* One id each way: the only mapping an unprivileged process may write. */
        snprintf(map, sizeof(map), "65534 %u 1\n", (unsigned)uid);
        if (!write_at(proc, "uid_map", map))
                return fail(rep, PRC_LAYER_USERNS, err, errno, "writing uid_map");
        if (!write_at(proc, "setgroups", "deny"))
                return fail(rep, PRC_LAYER_USERNS, err, errno, "writing setgroups");
        snprintf(map, sizeof(map), "65534 %u 1\n", (unsigned)gid);
        if (!write_at(proc, "gid_map", map))
                return fail(rep, PRC_LAYER_USERNS, err, errno, "writing gid_map");
        return true;
}

static bool layer_userns(prc_floor_report *rep, prc_err *err)
{
        uid_t uid = geteuid();
        gid_t gid = getegid();
        bool ok;
        /*
         * Our /proc directory, opened before unsharing: after it, any
         * capability that let us walk '/' belongs to the old namespace, and
         * the maps are reached from this fd with no path walk at all.
         */
        int proc = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);

        if (proc < 0)
                return fail(rep, PRC_LAYER_USERNS, err, errno, "opening /proc/self");
        if (unshare(CLONE_NEWUSER) != 0) {
                int e = errno;
                close(proc);
                return fail(rep, PRC_LAYER_USERNS, err, e, "unshare(CLONE_NEWUSER)");
        }
        ok = map_ids(proc, uid, gid, rep, err);
        close(proc);
        if (!ok)
                return false;
        if (getuid() != 65534 || getgid() != 65534)
                return fail(rep, PRC_LAYER_USERNS, err, 0, "uid %u gid %u after mapping, want 65534",
                            (unsigned)getuid(), (unsigned)getgid());
        applied(rep, PRC_LAYER_USERNS, "uid %u and gid %u mapped to 65534", (unsigned)uid, (unsigned)gid);
        return true;
}

static bool layer_netns(prc_floor_report *rep, prc_err *err)
{
        if (unshare(CLONE_NEWNET) != 0)
                return fail(rep, PRC_LAYER_NETNS, err, errno, "unshare(CLONE_NEWNET)");
        applied(rep, PRC_LAYER_NETNS, "private network namespace, loopback down");
        return true;
}

static bool layer_nnp(prc_floor_report *rep, prc_err *err)
{
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
                return fail(rep, PRC_LAYER_NNP, err, errno, "prctl(PR_SET_NO_NEW_PRIVS)");
        if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
                return fail(rep, PRC_LAYER_NNP, err, 0, "no_new_privs did not stick");
        applied(rep, PRC_LAYER_NNP, "no_new_privs set");
        return true;
}

static bool layer_caps(prc_floor_report *rep, prc_err *err)
{
        struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
        struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
        int cap;

        /* The bounding set first: dropping it needs CAP_SETPCAP, which capset removes below. */
        for (cap = 0;; cap++) {
                int rc = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
                if (rc < 0 && errno == EINVAL)
                        break;          /* past the kernel's last capability */
                if (rc < 0)
                        return fail(rep, PRC_LAYER_CAPS, err, errno, "PR_CAPBSET_READ %d", cap);
                if (rc == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
                        return fail(rep, PRC_LAYER_CAPS, err, errno, "PR_CAPBSET_DROP %d", cap);
        }
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
                return fail(rep, PRC_LAYER_CAPS, err, errno, "clearing ambient capabilities");
        memset(data, 0, sizeof(data));
        if (syscall(SYS_capset, &hdr, data) != 0)
                return fail(rep, PRC_LAYER_CAPS, err, errno, "capset");
        /* Verify rather than trust: every set must read back empty. */
        if (syscall(SYS_capget, &hdr, data) != 0)
                return fail(rep, PRC_LAYER_CAPS, err, errno, "capget");
        for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
                if (data[i].effective || data[i].permitted || data[i].inheritable)
                        return fail(rep, PRC_LAYER_CAPS, err, 0, "capabilities remain after capset");
        for (int c = 0; c < cap; c++)
                if (prctl(PR_CAPBSET_READ, c, 0, 0, 0) != 0 ||
                    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, c, 0, 0) != 0)
                        return fail(rep, PRC_LAYER_CAPS, err, 0, "capability %d remains", c);
        applied(rep, PRC_LAYER_CAPS, "%d capabilities dropped from every set", cap);
        return true;
}

int prc_landlock_abi(void)
{
        long v = syscall(SYS_landlock_create_ruleset, NULL, 0, PRC_LL_CREATE_RULESET_VERSION);
        return v < 0 ? -1 : (int)v;
}

static bool layer_landlock(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        struct prc_ll_ruleset_attr attr;
        int abi = prc_landlock_abi(), fd;

        rep->landlock_abi = abi;
        if (abi < 0)
                return fail(rep, PRC_LAYER_LANDLOCK, err, errno, "not available");
        if (abi < cfg->landlock_abi_min)
                return fail(rep, PRC_LAYER_LANDLOCK, err, 0, "kernel ABI %d is below the required %d", abi,
                            cfg->landlock_abi_min);
        memset(&attr, 0, sizeof(attr));
        /* Every right the ABI knows (ABI >= 6 here, so all through IOCTL_DEV). */
        attr.handled_access_fs = PRC_LL_FS_ABI1 | PRC_LL_FS_REFER | PRC_LL_FS_TRUNCATE | PRC_LL_FS_IOCTL_DEV;
        attr.handled_access_net = PRC_LL_NET_BIND_TCP | PRC_LL_NET_CONNECT_TCP;
        attr.scoped = PRC_LL_SCOPE_ABSTRACT_UNIX_SOCKET | PRC_LL_SCOPE_SIGNAL;
        fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
        if (fd < 0)
                return fail(rep, PRC_LAYER_LANDLOCK, err, errno, "landlock_create_ruleset");
        /* No landlock_add_rule: the worker may open no path at all. */
        if (syscall(SYS_landlock_restrict_self, fd, 0) != 0) {
                int e = errno;
                close(fd);
                return fail(rep, PRC_LAYER_LANDLOCK, err, e, "landlock_restrict_self");
        }
        close(fd);
        applied(rep, PRC_LAYER_LANDLOCK,
                "ABI %d%s: 16 filesystem and 2 network rights handled, no path granted, "
                "abstract-unix and signal scopes", abi, abi > PRC_LL_ABI_KNOWN ? " (newer than prc knows)" : "");
        return true;
}

static bool add_allow(scmp_filter_ctx ctx, const prc_syscall_allow *a, prc_err *err)
{
        int nr = seccomp_syscall_resolve_name(a->name);
        int rc;

        if (nr == __NR_SCMP_ERROR)
                return prc_err_set(err, PRC_E_FLOOR_UNAVAILABLE, "seccomp: unknown syscall '%s'", a->name);
        /* Designated initializers: libseccomp's SCMP_An macros leave datum_b implicit. */
        switch (a->arg_rule) {
        case PRC_SC_NO_PROT_EXEC: {
                struct scmp_arg_cmp cmp = { .arg = 2, .op = SCMP_CMP_MASKED_EQ, .datum_a = PROT_EXEC, .datum_b = 0 };
                rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1, &cmp);
                break;
        }
        case PRC_SC_SELF_ONLY: {
                struct scmp_arg_cmp cmp = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = 0, .datum_b = 0 };
                rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1, &cmp);
                break;
        }
        case PRC_SC_OWN_TGID: {
                struct scmp_arg_cmp cmp = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = (scmp_datum_t)getpid(),
                                            .datum_b = 0 };
                rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1, &cmp);
                break;
        }
        case PRC_SC_FILTER_ONLY: {
                struct scmp_arg_cmp cmp = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = SECCOMP_SET_MODE_FILTER,
                                            .datum_b = 0 };
                rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1, &cmp);
                break;
        }
        default:
                rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
        }
        if (rc != 0)
                return prc_err_sys(err, PRC_E_FLOOR_UNAVAILABLE, -rc, "seccomp: rule for '%s'", a->name);
        return true;
}

static bool layer_seccomp(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
        prc_err e;
        int rc;

        prc_err_init(&e);
        if (ctx == NULL)
                return fail(rep, PRC_LAYER_SECCOMP, err, 0, "seccomp_init failed");
        /* A syscall of another ABI (i386, x32) kills too. */
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
        for (size_t i = 0; rc == 0 && i < prc_floor_nallow; i++)
                if (!add_allow(ctx, &prc_floor_allow[i], &e))
                        break;
#if defined(PRC_TESTING) && PRC_TESTING
        for (size_t i = 0; rc == 0 && !prc_err_is_set(&e) && i < cfg->nextra; i++) {
                prc_syscall_allow a = { cfg->extra_syscalls[i], PRC_SC_PLAIN, "test" };
                if (!add_allow(ctx, &a, &e))
                        break;
        }
#else
        (void)cfg;
#endif
        if (rc == 0 && !prc_err_is_set(&e))
                rc = seccomp_load(ctx);
        seccomp_release(ctx);
        if (prc_err_is_set(&e))
                return fail(rep, PRC_LAYER_SECCOMP, err, e.sys, "%s", e.msg + strlen("seccomp: "));
        if (rc != 0)
                return fail(rep, PRC_LAYER_SECCOMP, err, -rc, "loading the allowlist");
        rep->nsyscalls = (unsigned)prc_floor_nallow;
        applied(rep, PRC_LAYER_SECCOMP, "%zu syscalls allowed, anything else kills the process", prc_floor_nallow);
        return true;
}

/* The seal: a second filter (filters stack, the strictest wins) that takes away what the floor itself used. */
static bool seal(prc_floor_report *rep, prc_err *err)
{
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
        int rc;

        if (ctx == NULL)
                return fail(rep, PRC_LAYER_RLIMITS, err, 0, "seal: seccomp_init failed");
        /* libseccomp would call prctl(NO_NEW_PRIVS), which the allowlist kills; it is set already. */
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
        if (rc == 0)
                rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(prlimit64), 0);
        if (rc == 0)
                rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(seccomp), 0);
        if (rc == 0)
                rc = seccomp_load(ctx);
        seccomp_release(ctx);
        if (rc != 0)
                return fail(rep, PRC_LAYER_RLIMITS, err, -rc, "seal filter");
        return true;
}

static bool layer_rlimits(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        static const struct {
                int         res;
                const char *name;
        } names[] = {
                { RLIMIT_AS, "AS" }, { RLIMIT_CPU, "CPU" }, { RLIMIT_FSIZE, "FSIZE" },
                { RLIMIT_NOFILE, "NOFILE" }, { RLIMIT_NPROC, "NPROC" }, { RLIMIT_CORE, "CORE" },
        };
        struct rlimit want[6] = {
                { cfg->as_bytes, cfg->as_bytes },
                /* Soft below hard: SIGXCPU (reported as worker-limit) comes before SIGKILL. */
                { cfg->cpu_seconds, (rlim_t)cfg->cpu_seconds + 1 },
                { 0, 0 },
                { cfg->nofile, cfg->nofile },
                { 0, 0 },
                { 0, 0 },
        };

        for (size_t i = 0; i < 6; i++)
                if (setrlimit(names[i].res, &want[i]) != 0)
                        return fail(rep, PRC_LAYER_RLIMITS, err, errno, "RLIMIT_%s", names[i].name);
        if (!seal(rep, err))
                return false;
        applied(rep, PRC_LAYER_RLIMITS, "AS %llu, CPU %u s, FSIZE 0, NOFILE %u, NPROC 0, CORE 0; sealed",
                (unsigned long long)cfg->as_bytes, cfg->cpu_seconds, cfg->nofile);
        return true;
}

bool prc_floor_apply(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        prc_floor_report local;

        if (rep == NULL)
                rep = &local;
        memset(rep, 0, sizeof(*rep));
        rep->landlock_abi = -1;
        return layer_userns(rep, err) && layer_netns(rep, err) && layer_nnp(rep, err) && layer_caps(rep, err) &&
               layer_landlock(cfg, rep, err) && layer_seccomp(cfg, rep, err) && layer_rlimits(cfg, rep, err);
}

bool prc_floor_probe(const prc_floor_cfg *cfg, prc_floor_report *out, prc_err *err)
{
        int fds[2];
        pid_t pid;
        int status;
        size_t got = 0;

        if (pipe2(fds, O_CLOEXEC) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "pipe failed");
        pid = fork();
        if (pid < 0) {
                int e = errno;
                close(fds[0]);
                close(fds[1]);
                return prc_err_sys(err, PRC_E_IO, e, "fork failed");
        }
        if (pid == 0) {
                prc_floor_report rep;
                prc_err e;
                const uint8_t *p = (const uint8_t *)&rep;
                size_t n = sizeof(rep);

                prc_err_init(&e);
                close(fds[0]);
                if (!prc_floor_apply(cfg, &rep, &e))
                        rep.nsyscalls = 0;      /* the report says which layer failed */
                while (n > 0) {
                        ssize_t w = write(fds[1], p, n);
                        if (w <= 0)
                                _exit(1);
                        p += w;
                        n -= (size_t)w;
                }
                _exit(0);
        }
        close(fds[1]);
        while (got < sizeof(*out)) {
                ssize_t r = read(fds[0], (uint8_t *)out + got, sizeof(*out) - got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        break;
                got += (size_t)r;
        }
        close(fds[0]);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (got != sizeof(*out))
                return prc_err_set(err, PRC_E_IO, "the probe child died before reporting (status 0x%x)", status);
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                out->detail[i][sizeof(out->detail[i]) - 1] = 0;
        return true;
}
