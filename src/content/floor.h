/*
 * floor.h - the sandbox floor the content worker applies to itself before
 * it reads its first request (issue 4, seed 001).  docs/sandbox.md says
 * what each layer does and does not protect.
 *
 * Layers, in the order they are applied:
 *   userns        a new user namespace; the caller's uid and gid are mapped
 *                 to 65534 ("nobody") inside, setgroups denied
 *   netns         a private network namespace: only a loopback that is down
 *   no-new-privs  PR_SET_NO_NEW_PRIVS
 *   capabilities  bounding, ambient, effective, permitted, inheritable: empty
 *   landlock      strict level: ABI >= 6; every filesystem right of the ABI
 *                 and every network right handled, no rule added (no path at
 *                 all), scopes: abstract unix sockets and signals.  landlock
 *                 level: any ABI, every right that ABI knows.  seccomp level:
 *                 skipped (issue 23; docs/sandbox.md says what that trades)
 *   seccomp       allowlist (floor.c's table), read and write pinned to the
 *                 worker's two pipes; anything else kills the process
 *   rlimits       AS, CPU, FSIZE 0, NOFILE small, NPROC 0, CORE 0; then a
 *                 second seccomp filter seals prlimit64 and seccomp away
 * A layer that fails makes prc_floor_apply fail with floor-unavailable and
 * a message that starts with the layer name; there is no silent downgrade:
 * only the level the caller chose (--content-floor) decides what is skipped.
 *
 * Trust: runs in the worker process before any hostile byte is read.
 * Irreversible: call only in a process that will never do anything else
 * (the worker, or a forked probe or test child).
 */
#ifndef PRC_FLOOR_H
#define PRC_FLOOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef enum prc_floor_layer {
        PRC_LAYER_USERNS,
        PRC_LAYER_NETNS,
        PRC_LAYER_NNP,
        PRC_LAYER_CAPS,
        PRC_LAYER_LANDLOCK,
        PRC_LAYER_SECCOMP,
        PRC_LAYER_RLIMITS,
        PRC_LAYER__COUNT
} prc_floor_layer;

/* Stable name of a layer ("userns", "landlock", ...); never NULL. */
const char *prc_floor_layer_name(prc_floor_layer l);

/*
 * The floor levels (issue 23), weakest last.  Every level keeps the user
 * and network namespaces, no_new_privs, no capabilities, the seccomp
 * allowlist and the rlimits; a host that cannot give one of those is
 * refused at every level.  Only Landlock differs.
 */
typedef enum prc_floor_level {
        PRC_FLOOR_STRICT = 0,           /* Landlock ABI >= 6 with the scopes: the seed's floor, the default */
        PRC_FLOOR_LANDLOCK,             /* any Landlock ABI, every right that ABI knows */
        PRC_FLOOR_SECCOMP,              /* no Landlock at all */
        PRC_FLOOR__COUNT
} prc_floor_level;

/* "strict", "landlock", "seccomp"; never NULL. */
const char *prc_floor_level_name(prc_floor_level l);
/* The level named s; false (out untouched) for any other word. */
bool prc_floor_level_parse(const char *s, prc_floor_level *out) PRC_MUST_CHECK;

enum {
        PRC_LANDLOCK_ABI_MIN = 6,       /* scopes (abstract unix sockets, signals) arrived in ABI 6 */
        PRC_LANDLOCK_ABI_KNOWN = 7,     /* the newest ABI prc knows (7 added audit flags, no right) */
        PRC_LANDLOCK_ABI_RIGHTS = 6,    /* the newest ABI that added a right or scope prc handles */
        PRC_FLOOR_NOFILE = 5,           /* fds 0-2 (/dev/null) and the two pipes */
        PRC_FLOOR_FD_IN = 3,            /* the only descriptor read() may use after the floor */
        PRC_FLOOR_FD_OUT = 4,           /* the only descriptor write() may use after the floor */
};

/*
 * The Landlock rights prc handles for a kernel of ABI abi (>= 1): every
 * right that ABI knows, up to PRC_LANDLOCK_ABI_RIGHTS for a newer one.
 * Returns the ABI whose rights these are (min(abi, PRC_LANDLOCK_ABI_RIGHTS)).
 */
int prc_floor_landlock_rights(int abi, uint64_t *out_fs, uint64_t *out_net, uint64_t *out_scoped);

typedef struct prc_floor_cfg {
        uint64_t as_bytes;              /* RLIMIT_AS */
        unsigned cpu_seconds;           /* RLIMIT_CPU soft limit (hard is one more) */
        prc_floor_level level;          /* PRC_FLOOR_STRICT unless the user chose otherwise */
        int      landlock_abi_min;      /* strict level: PRC_LANDLOCK_ABI_MIN; tests raise it to force a refusal */
        unsigned nofile;                /* RLIMIT_NOFILE: PRC_FLOOR_NOFILE; tests raise it to reach Landlock */
        int      fd_in, fd_out;         /* the descriptors read and write stay allowed on (3 and 4) */
        /*
         * PRC_TESTING only (ignored otherwise): pretend the host is below the
         * strict floor, so each lower case runs on a kernel that has it all.
         * test_landlock_abi: 0 the kernel's word, -1 Landlock absent, N > 0
         * the kernel's ABI is N.  test_userns_denied: unshare(CLONE_NEWUSER)
         * fails with EPERM.  prc_floor_cfg_default reads them from
         * PRC_TEST_LANDLOCK_ABI and PRC_TEST_USERNS=denied, in test builds only.
         */
        int      test_landlock_abi;
        bool     test_userns_denied;
        /* PRC_TESTING only (NULL otherwise): syscall names added to the allowlist so a test can reach the next layer. */
        const char *const *extra_syscalls;
        size_t   nextra;
} prc_floor_cfg;

/* Defaults: strict, 1 GiB of address space, 60 s of CPU, Landlock ABI 6, 5 fds, fds 3 and 4. */
void prc_floor_cfg_default(prc_floor_cfg *cfg);

typedef enum prc_layer_state {
        PRC_LAYER_NOT_TRIED = 0,        /* an earlier layer failed */
        PRC_LAYER_APPLIED,
        PRC_LAYER_FAILED,
        PRC_LAYER_SKIPPED,              /* left out by the chosen level (landlock at the seccomp level) */
} prc_layer_state;

/* "applied", "failed", "not-tried", "skipped"; never NULL. */
const char *prc_layer_state_name(uint8_t s);

/* What prc_floor_apply did, layer by layer (plain data: it crosses a pipe in the probe). */
typedef struct prc_floor_report {
        uint8_t state[PRC_LAYER__COUNT];        /* prc_layer_state */
        uint8_t level;                          /* prc_floor_level asked for */
        char    detail[PRC_LAYER__COUNT][256];  /* what was applied, or why it failed */
        int     landlock_abi;                   /* kernel's ABI, or -1 */
        int     landlock_abi_used;              /* the ABI whose rights were handled; 0 when not applied */
        unsigned nsyscalls;                     /* allowlist entries */
} prc_floor_report;

/*
 * Apply every layer in order.  On success the process is floored for good.
 * Errors: floor-unavailable ("LAYER: reason"); rep (if not NULL) says which
 * layers were applied, which failed and which were not tried.
 */
bool prc_floor_apply(const prc_floor_cfg *cfg, prc_floor_report *rep, prc_err *err) PRC_MUST_CHECK;

/* The kernel's Landlock ABI (landlock_create_ruleset VERSION), or -1 with errno set. */
int prc_landlock_abi(void);

/*
 * Why unprivileged user namespaces are unavailable, when the host says so
 * (issue 23): writes one sentence naming the sysctl and the AppArmor
 * profile into out, or "" when no known restriction is set.  proc is the
 * procfs root ("/proc"; tests pass a directory of their own).
 */
void prc_floor_userns_hint(const char *proc, char *out, size_t cap);

/*
 * The floor as it is recorded (run results, evidence envelopes, READY):
 * {"landlock_abi": N, "layers": {"userns": "applied", ...}, "level": L}.
 * Host facts that differ between machines with the same protection (uids,
 * the kernel's ABI beyond the rights handled) are left out.  NULL on
 * out-of-memory.  Returns a new reference (transfers).
 */
json_t *prc_floor_record(const prc_floor_report *rep);

/*
 * Apply the floor in a forked child and bring the report back, without
 * changing the caller.  Returns false only when the child could not run
 * (io-error); the report's states say what this host supports.
 */
bool prc_floor_probe(const prc_floor_cfg *cfg, prc_floor_report *out, prc_err *err) PRC_MUST_CHECK;

/* The seccomp allowlist, for tests and docs: sorted by name, a reason beside each odd entry. */
typedef struct prc_syscall_allow {
        const char *name;
        int         arg_rule;           /* PRC_SC_* */
        const char *why;
} prc_syscall_allow;
enum {
        PRC_SC_PLAIN = 0,
        PRC_SC_NO_PROT_EXEC,            /* arg 2 (prot) must not have PROT_EXEC */
        PRC_SC_SELF_ONLY,               /* arg 0 (pid) must be 0: this process */
        PRC_SC_FILTER_ONLY,             /* arg 0 must be SECCOMP_SET_MODE_FILTER */
        PRC_SC_OWN_TGID,                /* arg 0 (tgid) must be this process: signals to itself only */
        PRC_SC_FD_IN,                   /* arg 0 (fd) must be cfg->fd_in: the request pipe */
        PRC_SC_FD_OUT,                  /* arg 0 (fd) must be cfg->fd_out: the reply pipe */
};
extern const prc_syscall_allow prc_floor_allow[];
extern const size_t prc_floor_nallow;

#endif
