/*
 * oci.h - the OCI runner: plan (a pure function from a sealed spec to the
 * exact argv) and run (seal, authorize, plan, recheck, execute under the
 * manifest's limits, decode, recheck, record).  Issue 8; seed 000
 * "Capability manifest"; the adapter contract is docs/oci-runner.md.
 *
 * Trust: the runtime (docker or podman) is a security control, not proof of
 * isolation; the image and everything it writes are hostile.  The runner
 * never pulls, never runs as root, passes no environment, names its
 * container itself and on timeout or a cap removes exactly that container.
 * Stdout goes through the strict protocol decoder as it arrives; stderr is
 * only counted and hashed.  Any change of plan, manifest, runtime binary,
 * snapshot or data between authorization and the end of the run is an
 * execution error, never evidence.
 */
#ifndef PRC_ADAPTER_OCI_H
#define PRC_ADAPTER_OCI_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "adapter/data.h"
#include "adapter/manifest.h"
#include "adapter/resolution.h"
#include "base/digest.h"
#include "base/err.h"
#include "inventory/inventory.h"

#define PRC_OCI_PLAN_SCHEMA "prc.oci-plan/v1"
#define PRC_OCI_SNAPSHOT_MOUNT "/prc-snapshot"

typedef enum prc_oci_kind {
        PRC_OCI_DOCKER = 1,
        PRC_OCI_PODMAN = 2,
} prc_oci_kind;

/* "docker" / "podman" (static). */
const char *prc_oci_kind_name(prc_oci_kind k);
/* Errors: usage (not docker or podman). */
bool prc_oci_kind_parse(const char *s, prc_oci_kind *out, prc_err *err) PRC_MUST_CHECK;

/* The runtime client's identity.  path is a host path: plan only, never in a digest or record. */
typedef struct prc_oci_runtime {
        prc_oci_kind kind;
        char         path[4096];
        char         sha256[PRC_SHA256_HEX + 1];
        char         version[64];
} prc_oci_runtime;

/*
 * Find the client binary ("docker" or "podman" on $PATH, resolved to its
 * real path), hash it and read its version from `--version`.  Errors:
 * oci-runtime-unavailable, io-error, out-of-memory.
 */
bool prc_oci_runtime_find(prc_oci_kind kind, prc_oci_runtime *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Decide from the runtime's own report (the output of `docker info
 * --format ...` / `podman info --format ...` as documented in oci.c) whether
 * memory, swap, pids and CPU limits are enforced.  Pure; exposed for tests.
 * Errors: oci-limits-ignored (names what is missing, e.g. rootless podman
 * on cgroup v1).
 */
bool prc_oci_limits_report_ok(prc_oci_kind kind, const char *report, prc_err *err) PRC_MUST_CHECK;

/* Everything a plan is a function of.  All pointers borrowed. */
typedef struct prc_oci_spec {
        const prc_oci_runtime *rt;
        const prc_manifest    *m;               /* loaded with PRC_MANIFEST_EXECUTE */
        const char            *snapshot_path;   /* host path of the sealed snapshot */
        const char            *snapshot_sha256;
        uint64_t               snapshot_files;
        uint64_t               snapshot_bytes;
        const prc_data_input  *data;            /* sorted by name */
        size_t                 ndata;
        uint32_t               uid, gid;        /* the invoking non-root user */
        const char            *container_name;  /* scanner-generated, [a-z0-9-] */
        uint64_t               host_nofile_max; /* the host's hard limit */
        uint64_t               host_nproc_max;  /* the user's hard RLIMIT_NPROC, at most pid_max; UINT64_MAX: unlimited */
} prc_oci_spec;

/*
 * The plan (new reference, transfers):
 *   {"schema","plan_sha256","argv":[...],"runtime":{"kind","path","sha256","version"},
 *    "image","container_name","snapshot":{"sha256","files","bytes"},"data":[...],
 *    "limits":{...},"sealed":{...}}
 * "sealed" is the content-addressed part: the argv template (host paths and
 * the container name replaced by ${snapshot}, ${data:NAME}, ${name},
 * ${runtime}) plus runtime identity, image, manifest digest, snapshot and
 * data identities and the chosen limits; plan_sha256 is its canonical
 * digest.  "argv" is exactly what run executes: the template with the
 * bindings substituted.  Pure: the same spec gives the same plan.  Errors:
 * oci-ulimit-exceeds-host, manifest-archived, invalid-value (a bad
 * container name, a NUL-free but unusable path), out-of-memory.
 */
json_t *prc_oci_plan(const prc_oci_spec *s, prc_err *err) PRC_MUST_CHECK;

/*
 * Test hook points, PRC_TESTING builds only: $PRC_TEST_OCI_HOOK (sh -c) runs
 * just before the pre-start recheck, $PRC_TEST_OCI_HOOK_AFTER just after the
 * container ended and before the post-run recheck; both see
 * $PRC_HOOK_SNAPSHOT and $PRC_HOOK_CONTAINER (the generated name).
 *
 * Phase trace, PRC_TESTING builds only: with $PRC_OCI_TRACE non-empty each
 * phase of a run prints "prc-oci-trace <ms since the first mark> <phase>"
 * to stderr (how docs/oci-runner.md's phase table was measured).
 */
#if defined(PRC_TESTING) && PRC_TESTING
void prc_oci_trace(const char *phase);
#else
static inline void prc_oci_trace(const char *phase)
{
        (void)phase;
}
#endif

/*
 * Authorization as the runner applies it: r must grant exactly m's adapter
 * id, manifest digest and publisher, as a local-explicit operator grant or
 * a registry grant with first-party-sandboxed or verified-community trust.
 * Errors: oci-not-authorized.
 */
bool prc_oci_authorize(const prc_manifest *m, const prc_resolution *r, prc_err *err) PRC_MUST_CHECK;

/*
 * The runner's host check: not root (uid or euid 0: oci-root-refused), not
 * in root's group (gid or egid 0: oci-root-group-refused).
 */
bool prc_oci_refuse_root(prc_err *err) PRC_MUST_CHECK;

/*
 * The pids limit the plan gives m: PRC_OCI_GENERIC_PIDS (the adapter
 * process itself, no fork) for a generic prc-adapter-jsonl-v1 adapter; the
 * manifest's pids for the three reviewed native protocols.  Pure.
 */
#define PRC_OCI_GENERIC_PIDS 1u
uint64_t prc_oci_pids_limit(const prc_manifest *m);

/*
 * Everything the runner decides about an adapter without touching the host:
 * a v0.4 manifest (manifest-archived), prc_oci_authorize, and for a native
 * protocol its gate (prc_oci_native_gate: reviewed digest, exact command).
 * A scan applies it to the complete set before any runtime is invoked
 * (issue 16).  Errors: manifest-archived, oci-not-authorized,
 * native-image-unreviewed, native-command-mismatch.
 */
bool prc_oci_gate(const prc_manifest *m, const prc_resolution *r, prc_err *err) PRC_MUST_CHECK;

/* A run request (the scan engine's verify-local entry point and run-oci). */
typedef struct prc_oci_request {
        const prc_manifest     *m;              /* loaded with PRC_MANIFEST_EXECUTE */
        const char             *manifest_path;  /* reloaded and compared before start; NULL: no file */
        const prc_resolution   *resolution;     /* the grant that authorized m */
        const prc_inventory    *inv;            /* the sealed target inventory */
        const char             *target_name;    /* protocol input's target_name */
        const prc_data_binding *data;
        size_t                  ndata;
        prc_oci_kind            runtime;
        const char             *run_id;         /* 64 hex; NULL: the plan digest */
        const struct timespec  *deadline;       /* CLOCK_MONOTONIC, shared by the scan; NULL: none */
        /*
         * Set by the caller's SIGINT/SIGTERM handler (NULL: none): the snapshot
         * copy stops, a running container is removed by its name, the snapshot
         * is removed, and the run ends as oci-interrupted.
         */
        const volatile sig_atomic_t *cancel;
        /* Native protocols only (oci_native.h): */
        const char             *ruleset_path;   /* Gitleaks ruleset (gzip); NULL: $PRC_GITLEAKS_RULESET */
        int64_t                 now;            /* Unix seconds for the normalizer (Grype age); 0: none */
        struct prc_buf         *artifact_out;   /* non-NULL: an accepted native run appends its normalized
                                                 * artifact bytes here (the record's artifacts[0]) */
} prc_oci_request;

/*
 * Plan without running: the same checks as prc_oci_run up to the plan
 * (root refused, authorization, data, runtime identity, ulimits; not the
 * runtime's limit enforcement, which only a run asks about), with a
 * snapshot that is sealed and then removed.  *out_plan transfers.  Errors:
 * as prc_oci_run's refusals.
 */
bool prc_oci_plan_request(const prc_oci_request *rq, json_t **out_plan, prc_err *err) PRC_MUST_CHECK;

/*
 * Run.  Returns false with err set, and no record, when the run was refused
 * before a plan existed: oci-root-refused, oci-not-authorized, data-*,
 * oci-runtime-unavailable, oci-limits-ignored, oci-ulimit-exceeds-host,
 * oci-image-absent, snapshot-*, inventory-*, io-error, out-of-memory.
 * Otherwise returns true with *out_record (transfers) a sealed v0.3
 * record whose disposition is accepted, rejected (the decoder's class) or
 * execution-error (oci-plan-changed, oci-manifest-changed,
 * oci-runtime-changed, snapshot-changed, data-changed, oci-runtime-failed,
 * oci-stderr-limit, oci-deadline, adapter-timed-out,
 * adapter-memory-limit).  The record's "observations" are the decoded
 * observations ({"id","kind","outcome","locations","value"}), empty unless
 * accepted.  A native-protocol manifest (oci_native.h) is gated first
 * (native-image-unreviewed, native-command-mismatch, native-ruleset-missing,
 * native-ruleset-mismatch refuse before a plan), gets its stdin and owned
 * snapshot files from the protocol, and its stdout is judged by the
 * normalizer (rejected: stdout-limit, adapter-exit-status or the
 * normalizer's class); the normalized artifact goes to rq->artifact_out.
 */
bool prc_oci_run(const prc_oci_request *rq, json_t **out_record, prc_err *err) PRC_MUST_CHECK;

#endif
