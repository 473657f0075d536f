/*
 * oci_native.h - the OCI runner's glue for the three native-output
 * protocols (issue 10 through issue 8's runner): manifest gate, scanner-owned
 * snapshot files, the standard input the protocol wants (the Gitleaks
 * ruleset), bounded stdout capture, accepted exit statuses and the
 * normalizer.  oci.c calls these as small hooks; nothing here starts a
 * process.
 *
 * Trust: the manifest and the ruleset path are operator input, the
 * captured stdout is hostile (the normalizer judges it); the stand-in
 * image gate exists only in PRC_TESTING builds.
 */
#ifndef PRC_ADAPTER_OCI_NATIVE_H
#define PRC_ADAPTER_OCI_NATIVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/native/native.h"
#include "base/buf.h"
#include "base/err.h"

/* Environment default of prc_oci_request.ruleset_path (the CLI's --gitleaks-ruleset wins). */
#define PRC_OCI_RULESET_ENV "PRC_GITLEAKS_RULESET"
/*
 * Production test-image override (seed 000): a nonempty value that is not
 * the protocol's reviewed digest is an error (native-image-unreviewed).
 */
#define PRC_OCI_NATIVE_OVERRIDE_ENV "PRC_NATIVE_TEST_IMAGE"
/*
 * PRC_TESTING builds only: the digests ("sha256:...", comma-separated) of
 * the stand-in images the test built; a manifest pinned to one of them
 * passes prc_native_check_standin instead of prc_native_check_manifest.
 * Release builds ignore it.
 */
#define PRC_OCI_STANDIN_ENV "PRC_TEST_NATIVE_STANDIN"

struct prc_oci_request;
struct prc_inventory;
struct prc_snapshot;

typedef struct prc_oci_native {
        const prc_native_spec *spec;    /* NULL: not a native protocol (the jsonl path) */
        prc_buf                in;      /* the container's standard input */
        prc_buf                out;     /* stdout, max = the manifest's stdout_bytes */
        bool                   over;    /* stdout passed stdout_bytes */
        bool                   relocated;
        json_t                *rule_ids;
        json_t                *paths;
        json_t                *db;      /* Grype: the mounted database's identity (prc_grype_db_check) */
        int64_t                now;
        prc_native_result      res;     /* filled by finish when accepted */
        bool                   have_res;
        char                   stdout_sha256[PRC_SHA256_HEX + 1];
} prc_oci_native;

/*
 * Start: n->spec is set when rq->m's protocol is native, else n is left
 * inert (every other call is then a no-op returning true).  For a native
 * manifest: the override and manifest gates, the ruleset (rq->ruleset_path,
 * else $PRC_GITLEAKS_RULESET) when the spec reads it on stdin, and the
 * Grype database check.  Errors: native-image-unreviewed,
 * native-command-mismatch, native-ruleset-missing, native-ruleset-mismatch,
 * invalid-value (stdin larger than stdin_bytes; Grype data missing), the
 * database check's classes, io-error, out-of-memory.  Clear n on failure
 * too.
 */
bool prc_oci_native_begin(prc_oci_native *n, const struct prc_oci_request *rq, prc_err *err) PRC_MUST_CHECK;

/*
 * The manifest gate alone (override, reviewed digest or PRC_TESTING
 * stand-in, exact command), as prc_oci_native_begin applies it; true for a
 * manifest of no native protocol.  Errors: native-image-unreviewed,
 * native-command-mismatch.
 */
bool prc_oci_native_gate(const prc_manifest *m, prc_err *err) PRC_MUST_CHECK;

/* Before seal: the protocol's owned files (prc_native_add_owned) and the inventory path set. */
bool prc_oci_native_owned(prc_oci_native *n, const struct prc_inventory *inv, struct prc_snapshot *snap,
                          prc_err *err) PRC_MUST_CHECK;

/* One stdout chunk; false once stdout passed stdout_bytes (the caller stops reading). */
bool prc_oci_native_feed(prc_oci_native *n, const uint8_t *p, size_t len);

/*
 * After the container ended (and nothing went wrong in the runner): the
 * exit status must be one the spec accepts, stdout within its bound, and
 * the report must normalize.  Returns true when accepted; otherwise
 * *out_cls is the class (stdout-limit, adapter-exit-status, or the
 * normalizer's) and *out_msg a static-free description copied into msg.
 */
bool prc_oci_native_finish(prc_oci_native *n, int exit_status, prc_errclass *out_cls, char *msg, size_t msgcap);

/* The record's observations for an accepted run, in the jsonl shape (new reference; [] otherwise; NULL on OOM). */
json_t *prc_oci_native_observations(const prc_oci_native *n);

/* The record's "artifacts" entry list for an accepted run (new reference; [] otherwise, NULL on OOM). */
json_t *prc_oci_native_artifacts(const prc_oci_native *n);

/* The stdout stream identity for the record (bytes read, SHA-256 of them). */
uint64_t prc_oci_native_stdout_bytes(const prc_oci_native *n);
/* SHA-256 (hex) of the captured bytes, computed once; NULL with err set on failure (out-of-memory). */
const char *prc_oci_native_stdout_sha256(prc_oci_native *n, prc_err *err);

void prc_oci_native_clear(prc_oci_native *n);

#endif
