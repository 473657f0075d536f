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
 *   landlock      ABI >= 6; every filesystem right of the ABI and every
 *                 network right handled, no rule added (no path at all),
 *                 scopes: abstract unix sockets and signals
 *   seccomp       allowlist (floor.c's table); anything else kills the process
 *   rlimits       AS, CPU, FSIZE 0, NOFILE small, NPROC 0, CORE 0; then a
 *                 second seccomp filter seals prlimit64 and seccomp away
 * A layer that fails makes prc_floor_apply fail with floor-unavailable and
 * a message that starts with the layer name; there is no downgrade.
 *
 * Trust: runs in the worker process before any hostile byte is read.
 * Irreversible: call only in a process that will never do anything else
 * (the worker, or a forked probe or test child).
 */
#ifndef PRC_FLOOR_H
#define PRC_FLOOR_H

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

enum {
        PRC_LANDLOCK_ABI_MIN = 6,       /* scopes (abstract unix sockets, signals) arrived in ABI 6 */
        PRC_FLOOR_NOFILE = 5,           /* fds 0-2 (/dev/null) and the two pipes */
};

typedef struct prc_floor_cfg {
        uint64_t as_bytes;              /* RLIMIT_AS */
        unsigned cpu_seconds;           /* RLIMIT_CPU soft limit (hard is one more) */
        int      landlock_abi_min;      /* PRC_LANDLOCK_ABI_MIN; tests raise it to force a refusal */
        unsigned nofile;                /* RLIMIT_NOFILE: PRC_FLOOR_NOFILE; tests raise it to reach Landlock */
        /* PRC_TESTING only (NULL otherwise): syscall names added to the allowlist so a test can reach the next layer. */
        const char *const *extra_syscalls;
        size_t   nextra;
} prc_floor_cfg;

/* Defaults: 1 GiB of address space, 60 s of CPU, Landlock ABI 6, 5 fds. */
void prc_floor_cfg_default(prc_floor_cfg *cfg);

typedef enum prc_layer_state {
        PRC_LAYER_NOT_TRIED = 0,        /* an earlier layer failed */
        PRC_LAYER_APPLIED,
        PRC_LAYER_FAILED,
} prc_layer_state;

/* What prc_floor_apply did, layer by layer (plain data: it crosses a pipe in the probe). */
typedef struct prc_floor_report {
        uint8_t state[PRC_LAYER__COUNT];        /* prc_layer_state */
        char    detail[PRC_LAYER__COUNT][160];  /* what was applied, or why it failed */
        int     landlock_abi;                   /* kernel's ABI, or -1 */
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
};
extern const prc_syscall_allow prc_floor_allow[];
extern const size_t prc_floor_nallow;

#endif
