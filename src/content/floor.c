/*
 * floor.c - the content worker's sandbox floor (floor.h), layer by layer.
 * Trust: runs before the first hostile byte; every step is checked and a
 * failure names its layer.  No libcap: capabilities go through the raw
 * capset syscall; Landlock's ABI 4-7 constants are defined here because
 * Debian 12's kernel headers stop at ABI 3.  The level (issue 23) decides
 * only how much Landlock a host must give; every other layer is required.
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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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
enum { PRC_LL_ABI_KNOWN = PRC_LANDLOCK_ABI_KNOWN };

static const char *const level_names[PRC_FLOOR__COUNT] = { "strict", "landlock", "seccomp" };

const char *prc_floor_level_name(prc_floor_level l)
{
        return (unsigned)l < PRC_FLOOR__COUNT ? level_names[l] : "unknown-level";
}

bool prc_floor_level_parse(const char *s, prc_floor_level *out)
{
        for (int i = 0; i < PRC_FLOOR__COUNT; i++)
                if (strcmp(s, level_names[i]) == 0) {
                        *out = (prc_floor_level)i;
                        return true;
                }
        return false;
}

const char *prc_layer_state_name(uint8_t s)
{
        switch (s) {
        case PRC_LAYER_APPLIED: return "applied";
        case PRC_LAYER_FAILED:  return "failed";
        case PRC_LAYER_SKIPPED: return "skipped";
        default:                return "not-tried";
        }
}

int prc_floor_landlock_rights(int abi, uint64_t *out_fs, uint64_t *out_net, uint64_t *out_scoped)
{
        uint64_t fs = PRC_LL_FS_ABI1, net = 0, scoped = 0;

        /*
         * Each right the ABI that introduced it: asking a kernel to handle a
         * right it does not know fails, and leaving out one it knows would
         * leave that right allowed.  A kernel newer than prc gets every
         * right prc knows (seccomp denies whatever a newer right guards).
         */
        if (abi > PRC_LANDLOCK_ABI_RIGHTS)
                abi = PRC_LANDLOCK_ABI_RIGHTS;
        if (abi >= 2)
                fs |= PRC_LL_FS_REFER;
        if (abi >= 3)
                fs |= PRC_LL_FS_TRUNCATE;
        if (abi >= 4)
                net = PRC_LL_NET_BIND_TCP | PRC_LL_NET_CONNECT_TCP;
        if (abi >= 5)
                fs |= PRC_LL_FS_IOCTL_DEV;
        if (abi >= 6)
                scoped = PRC_LL_SCOPE_ABSTRACT_UNIX_SOCKET | PRC_LL_SCOPE_SIGNAL;
        *out_fs = fs;
        *out_net = net;
        *out_scoped = scoped;
        return abi;
}

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
        cfg->level = PRC_FLOOR_STRICT;
        cfg->landlock_abi_min = PRC_LANDLOCK_ABI_MIN;
        cfg->nofile = PRC_FLOOR_NOFILE;
        cfg->fd_in = PRC_FLOOR_FD_IN;
        cfg->fd_out = PRC_FLOOR_FD_OUT;
#if defined(PRC_TESTING) && PRC_TESTING
        {
                /* Test builds only: the CLI suites force each lower case through the environment. */
                const char *abi = getenv("PRC_TEST_LANDLOCK_ABI"), *userns = getenv("PRC_TEST_USERNS");
                if (abi != NULL && *abi != 0)
                        cfg->test_landlock_abi = strcmp(abi, "none") == 0 ? -1 : (int)strtol(abi, NULL, 10);
                cfg->test_userns_denied = userns != NULL && strcmp(userns, "denied") == 0;
        }
#endif
}

/*
 * The allowlist: what the serve loop (read, write, exit) and glibc's
 * allocator need after the floor is on.  Sorted by name (a test checks).
 * No sysinfo (issue 16): glibc 2.36's qsort is its only caller here (it
 * sizes a merge buffer from the physical memory), and the seccomp layer
 * makes qsort ask once before the filter goes on (warm_qsort).
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
        { "read",          PRC_SC_FD_IN,        "requests: the request pipe (fd 3) only" },
        { "rt_sigprocmask", PRC_SC_PLAIN,       "abort() blocks signals around raise()" },
        { "rt_sigreturn",  PRC_SC_PLAIN,        "return from a signal frame" },
        { "seccomp",       PRC_SC_FILTER_ONLY,  "loading the seal filter; sealed by it" },
        { "tgkill",        PRC_SC_OWN_TGID,     "abort(): SIGABRT to itself only, so a crash reads as a crash" },
        { "write",         PRC_SC_FD_OUT,       "replies: the reply pipe (fd 4) only, not even /dev/null" },
};
const size_t prc_floor_nallow = sizeof(prc_floor_allow) / sizeof(prc_floor_allow[0]);

static bool fail(prc_floor_report *rep, prc_floor_layer l, prc_err *err, int sys, const char *fmt, ...)
        PRC_PRINTF(5, 6);

static bool fail(prc_floor_report *rep, prc_floor_layer l, prc_err *err, int sys, const char *fmt, ...)
{
        char why[256];
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

/* Returns NULL when the maps are written, else the file that could not be (errno set). */
static const char *map_ids(int proc, uid_t uid, gid_t gid)
{
        char map[64];

        /* One id each way: the only mapping an unprivileged process may write. */
        snprintf(map, sizeof(map), "65534 %u 1\n", (unsigned)uid);
        if (!write_at(proc, "uid_map", map))
                return "writing uid_map";
        if (!write_at(proc, "setgroups", "deny"))
                return "writing setgroups";
        snprintf(map, sizeof(map), "65534 %u 1\n", (unsigned)gid);
        if (!write_at(proc, "gid_map", map))
                return "writing gid_map";
        return NULL;
}

/* The first line of dir/name (newline dropped) into out; false when it cannot be read. */
static bool read_line_at(const char *dir, const char *name, char *out, size_t cap)
{
        char path[512];
        ssize_t n;
        int fd;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return false;
        n = read(fd, out, cap - 1);
        close(fd);
        if (n <= 0)
                return false;
        out[n] = 0;
        out[strcspn(out, "\n")] = 0;
        return true;
}

void prc_floor_userns_hint(const char *proc, char *out, size_t cap)
{
        char v[128], profile[128];

        out[0] = 0;
        /* Ubuntu 23.10 and later: unconfined processes lose userns capabilities unless a profile allows them. */
        if (read_line_at(proc, "sys/kernel/apparmor_restrict_unprivileged_userns", v, sizeof(v)) &&
            strcmp(v, "0") != 0) {
                if (!read_line_at(proc, "self/attr/apparmor/current", profile, sizeof(profile)) &&
                    !read_line_at(proc, "self/attr/current", profile, sizeof(profile)))
                        snprintf(profile, sizeof(profile), "unknown");
                snprintf(out, cap, "AppArmor restricts unprivileged user namespaces "
                         "(kernel.apparmor_restrict_unprivileged_userns=%s) and prc runs under profile '%s': "
                         "load contrib/apparmor/prc (docs/sandbox.md)", v, profile);
                return;
        }
        /* Debian's own switch (kernels before 6.x patched by Debian), and the generic count. */
        if (read_line_at(proc, "sys/kernel/unprivileged_userns_clone", v, sizeof(v)) && strcmp(v, "0") == 0) {
                snprintf(out, cap, "sysctl kernel.unprivileged_userns_clone=0 forbids unprivileged user namespaces");
                return;
        }
        if (read_line_at(proc, "sys/user/max_user_namespaces", v, sizeof(v)) && strcmp(v, "0") == 0)
                snprintf(out, cap, "sysctl user.max_user_namespaces=0 allows no user namespace");
}

/* A userns failure, with the host's reason when it says one (a restriction is not a prc defect). */
static bool userns_failed(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err, int sys, const char *what)
{
        const char *proc = "/proc";
        char hint[200];

#if defined(PRC_TESTING) && PRC_TESTING
        if (cfg->test_userns_denied && getenv("PRC_TEST_PROC") != NULL)
                proc = getenv("PRC_TEST_PROC");
#else
        (void)cfg;
#endif
        prc_floor_userns_hint(proc, hint, sizeof(hint));
        if (hint[0] == 0)
                return fail(rep, PRC_LAYER_USERNS, err, sys, "%s", what);
        return fail(rep, PRC_LAYER_USERNS, err, 0, "%s: %s; %s", what, strerror(sys), hint);
}

static bool layer_userns(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        uid_t uid = geteuid();
        gid_t gid = getegid();
        const char *failed;
        int proc;

#if defined(PRC_TESTING) && PRC_TESTING
        if (cfg->test_userns_denied)
                return userns_failed(cfg, rep, err, EPERM, "unshare(CLONE_NEWUSER)");
#endif
        /*
         * Our /proc directory, opened before unsharing: after it, any
         * capability that let us walk '/' belongs to the old namespace, and
         * the maps are reached from this fd with no path walk at all.
         */
        proc = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (proc < 0)
                return fail(rep, PRC_LAYER_USERNS, err, errno, "opening /proc/self");
        if (unshare(CLONE_NEWUSER) != 0) {
                int e = errno;
                close(proc);
                return userns_failed(cfg, rep, err, e, "unshare(CLONE_NEWUSER)");
        }
        failed = map_ids(proc, uid, gid);
        if (failed != NULL) {
                /* AppArmor's restriction lets the unshare succeed and takes the capability to write the maps. */
                int e = errno;
                close(proc);
                return userns_failed(cfg, rep, err, e, failed);
        }
        close(proc);
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

/* The kernel's ABI, or what a test build pretends it is. */
static int kernel_abi(const prc_floor_cfg *cfg)
{
#if defined(PRC_TESTING) && PRC_TESTING
        if (cfg->test_landlock_abi < 0) {
                errno = EOPNOTSUPP;     /* what a kernel booted without "landlock" in lsm= says */
                return -1;
        }
        if (cfg->test_landlock_abi > 0)
                return cfg->test_landlock_abi;
#else
        (void)cfg;
#endif
        return prc_landlock_abi();
}

static bool layer_landlock(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err)
{
        struct prc_ll_ruleset_attr attr;
        int abi = kernel_abi(cfg), used, fd;
        int min = cfg->level == PRC_FLOOR_STRICT ? cfg->landlock_abi_min : 1;
        char newer[96] = "";

        rep->landlock_abi = abi;
        if (cfg->level == PRC_FLOOR_SECCOMP) {
                /* The user's recorded choice, never a fallback: the record says "skipped". */
                rep->state[PRC_LAYER_LANDLOCK] = PRC_LAYER_SKIPPED;
                snprintf(rep->detail[PRC_LAYER_LANDLOCK], sizeof(rep->detail[0]),
                         "not applied: --content-floor seccomp (kernel ABI %d)", abi);
                return true;
        }
        if (abi < 0)
                return fail(rep, PRC_LAYER_LANDLOCK, err, 0,
                            "not available (%s); --content-floor seccomp serves without Landlock and loses its "
                            "second wall under seccomp (docs/sandbox.md)", strerror(errno));
        if (abi < min)
                return fail(rep, PRC_LAYER_LANDLOCK, err, 0,
                            "kernel ABI %d is below the required %d; --content-floor landlock handles ABI %d's "
                            "rights and loses the signal and abstract-socket scopes, which seccomp denies too "
                            "(docs/sandbox.md)", abi, min, abi);
        memset(&attr, 0, sizeof(attr));
        used = prc_floor_landlock_rights(abi, &attr.handled_access_fs, &attr.handled_access_net, &attr.scoped);
        /* A kernel before ABI 4 knows neither field: its ruleset attribute ends after handled_access_fs. */
        fd = (int)syscall(SYS_landlock_create_ruleset, &attr,
                          used >= 6 ? sizeof(attr) : used >= 4 ? offsetof(struct prc_ll_ruleset_attr, scoped) :
                                                                 offsetof(struct prc_ll_ruleset_attr, handled_access_net),
                          0);
        if (fd < 0)
                return fail(rep, PRC_LAYER_LANDLOCK, err, errno, "landlock_create_ruleset");
        /* No landlock_add_rule: the worker may open no path at all. */
        if (syscall(SYS_landlock_restrict_self, fd, 0) != 0) {
                int e = errno;
                close(fd);
                return fail(rep, PRC_LAYER_LANDLOCK, err, e, "landlock_restrict_self");
        }
        close(fd);
        rep->landlock_abi_used = used;
        if (abi > PRC_LL_ABI_KNOWN)
                snprintf(newer, sizeof(newer), ", newer than prc knows (%d): every right prc knows", PRC_LL_ABI_KNOWN);
        applied(rep, PRC_LAYER_LANDLOCK, "kernel ABI %d%s; rights of ABI %d handled (%d filesystem, %d network), "
                "no path granted%s", abi, newer, used, __builtin_popcountll(attr.handled_access_fs),
                __builtin_popcountll(attr.handled_access_net),
                attr.scoped != 0 ? ", abstract-unix and signal scopes" : ", no scopes (before ABI 6)");
        return true;
}

static bool add_allow(scmp_filter_ctx ctx, const prc_floor_cfg *cfg, const prc_syscall_allow *a, prc_err *err)
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
        case PRC_SC_FD_IN:
        case PRC_SC_FD_OUT: {
                /* Only the worker's own pipe: not fd 0-2 (/dev/null today, whatever a bug leaves there tomorrow). */
                int fd = a->arg_rule == PRC_SC_FD_IN ? cfg->fd_in : cfg->fd_out;
                struct scmp_arg_cmp cmp = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = (scmp_datum_t)fd, .datum_b = 0 };
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

static int cmp_int(const void *a, const void *b)
{
        int x = *(const int *)a, y = *(const int *)b;
        return (x > y) - (x < y);
}

/*
 * glibc 2.36's qsort asks sysinfo for the physical memory the first time
 * it sorts 1 KiB or more, and keeps the answer.  Sort that much once now,
 * while sysinfo is still allowed, so a later sort (the reply encoder sorts
 * the keys of large objects) never makes the call the allowlist kills.
 */
static void warm_qsort(void)
{
        int v[512];

        for (int i = 0; i < (int)PRC_ARRAY_LEN(v); i++)
                v[i] = (int)PRC_ARRAY_LEN(v) - i;
        qsort(v, PRC_ARRAY_LEN(v), sizeof(v[0]), cmp_int);
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
                if (!add_allow(ctx, cfg, &prc_floor_allow[i], &e))
                        break;
#if defined(PRC_TESTING) && PRC_TESTING
        for (size_t i = 0; rc == 0 && !prc_err_is_set(&e) && i < cfg->nextra; i++) {
                prc_syscall_allow a = { cfg->extra_syscalls[i], PRC_SC_PLAIN, "test" };
                if (!add_allow(ctx, cfg, &a, &e))
                        break;
        }
#endif
        if (rc == 0 && !prc_err_is_set(&e)) {
                warm_qsort();
                rc = seccomp_load(ctx);
        }
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
        rep->level = (uint8_t)cfg->level;
        if ((unsigned)cfg->level >= PRC_FLOOR__COUNT)
                return fail(rep, PRC_LAYER_USERNS, err, 0, "unknown floor level %d", (int)cfg->level);
        return layer_userns(cfg, rep, err) && layer_netns(rep, err) && layer_nnp(rep, err) && layer_caps(rep, err) &&
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
                /* write() is pinned to cfg->fd_out under the floor: the report goes out there. */
                if (fds[1] != cfg->fd_out && dup2(fds[1], cfg->fd_out) != cfg->fd_out)
                        _exit(1);
                if (!prc_floor_apply(cfg, &rep, &e))
                        rep.nsyscalls = 0;      /* the report says which layer failed */
                while (n > 0) {
                        ssize_t w = write(cfg->fd_out, p, n);
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

json_t *prc_floor_record(const prc_floor_report *rep)
{
        json_t *layers = json_object(), *r;

        for (int i = 0; layers != NULL && i < PRC_LAYER__COUNT; i++)
                if (json_object_set_new(layers, layer_names[i], json_string(prc_layer_state_name(rep->state[i]))) != 0) {
                        json_decref(layers);
                        layers = NULL;
                }
        if (layers == NULL)
                return NULL;
        r = json_pack("{s:i,s:o,s:s}", "landlock_abi", rep->landlock_abi_used, "layers", layers, "level",
                      prc_floor_level_name((prc_floor_level)rep->level));
        return r;
}
