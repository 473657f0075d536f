/*
 * native.h - the three closed native-output protocols (issue 10; seed 000
 * "Manifest v0.4 also defines two closed native-output protocols"):
 * prc-adapter-gitleaks-json-v1, prc-adapter-syft-cyclonedx-json-v1 and
 * prc-adapter-grype-json-v1.  What the OCI runner needs per protocol (the
 * exact argv, scanner-owned snapshot files, data mounts, expected exit
 * statuses) and one pure entry point: native report bytes -> observations +
 * normalized artifact bytes, or an error class.
 *
 * Trust: the report is written by an untrusted tool in a container; every
 * byte is hostile.  The manifest is operator input and never self-trusting:
 * its command and image must equal what this file pins.
 */
#ifndef PRC_ADAPTER_NATIVE_H
#define PRC_ADAPTER_NATIVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "base/digest.h"
#include "base/err.h"
#include "base/json_strict.h"
#include "base/limits.h"

#define PRC_NATIVE_PROTOCOL_GITLEAKS "prc-adapter-gitleaks-json-v1"
#define PRC_NATIVE_PROTOCOL_SYFT "prc-adapter-syft-cyclonedx-json-v1"
#define PRC_NATIVE_PROTOCOL_GRYPE "prc-adapter-grype-json-v1"

/* Where the runner mounts the sealed snapshot (read-only) inside the container. */
#define PRC_NATIVE_SNAPSHOT_MOUNT "/prc-snapshot"
/* The one external data directory of the Grype protocol: /prc-inputs/grype-db. */
#define PRC_NATIVE_GRYPE_DB_DATA "grype-db"

/* The value.generated of the Syft protocol's observation (the engine binds it to its artifact). */
#define PRC_SBOM_GENERATED "repository-inventory-sbom"

/* Media types of the artifacts. */
#define PRC_NATIVE_MT_GITLEAKS_REPORT "application/vnd.gitleaks.report+json;version=8.30.0"
#define PRC_NATIVE_MT_GITLEAKS_NORM "application/vnd.prc.gitleaks-findings+json;version=1"
#define PRC_NATIVE_MT_SYFT_REPORT "application/vnd.cyclonedx+json;version=1.7;producer=syft-1.51.0"
#define PRC_NATIVE_MT_CYCLONEDX "application/vnd.cyclonedx+json;version=1.7"
#define PRC_NATIVE_MT_GRYPE_REPORT "application/vnd.grype.report+json;version=0.116.1"
#define PRC_NATIVE_MT_GRYPE_NORM "application/vnd.prc.grype-findings+json;version=1"

typedef enum prc_native_proto {
        PRC_NATIVE_GITLEAKS = 1,
        PRC_NATIVE_SYFT,
        PRC_NATIVE_GRYPE,
} prc_native_proto;

/* A scanner-owned file the runner adds to the snapshot (prc_snapshot_add_owned). */
typedef struct prc_native_owned {
        const char *path;               /* under ".prc/" */
        const char *bytes;              /* NUL-terminated text; NULL for a relocation */
        const char *sha256;             /* pinned digest of bytes (checked by the unit tests) */
        const char *relocated_from;     /* inventory path moved here, or NULL */
} prc_native_owned;

typedef struct prc_native_spec {
        prc_native_proto   proto;
        const char        *protocol;
        const char        *tool, *tool_version;
        const char        *image_registry, *image_repository;
        const char        *image_digest;        /* reviewed "sha256:..."; NULL: none reviewed yet */
        const char *const *argv;                /* NULL-terminated; argv[0] is the entrypoint */
        const prc_native_owned *owned;          /* owned files, count n_owned */
        size_t             n_owned;
        const char        *data;                /* required data mount name, or NULL */
        int                exit_clean, exit_found;      /* accepted exit statuses (found may equal clean) */
        bool               stdin_ruleset;       /* stdin = prc_gitleaks_ruleset_load() bytes; else empty */
        const char        *kind;                /* observation kind */
        const char        *report_media_type, *artifact_media_type;
        uint32_t           max_items;           /* findings / components / matches cap */
        /*
         * Largest file the command scans (bytes), 0: no per-file ceiling.  The
         * engine names every inventoried file above it as a coverage gap of
         * this adapter's assertions (issue 16); it must be at least
         * PRC_INV_OVERSIZED so that no file prc analyzes is skipped.
         */
        uint64_t           max_file_bytes;
} prc_native_spec;

/* The spec of a native protocol id, or NULL (not native, e.g. prc-adapter-jsonl-v1). */
const prc_native_spec *prc_native_spec_for(const char *protocol);
const prc_native_spec *prc_native_spec_of(prc_native_proto p);

/*
 * Check a loaded manifest against its native protocol: the command must be
 * exactly spec->argv (native-command-mismatch), the image repository and
 * registry the official ones, and, when for_execution, the digest the
 * reviewed one (native-image-unreviewed; always refused while none is
 * reviewed).  A data declaration named spec->data must be present for
 * Grype (invalid-value).  Errors: also native-unknown-protocol.
 */
bool prc_native_check_manifest(const prc_manifest *m, bool for_execution, prc_err *err) PRC_MUST_CHECK;

/*
 * The production-image test override (seed 000: "a nonempty test-image
 * override that differs from the reviewed digest is an error, not a
 * skipped test"): override NULL or "" means none; otherwise it must equal
 * the protocol's reviewed digest, else native-image-unreviewed (also when
 * no digest is reviewed yet).
 */
bool prc_native_check_override(const prc_native_spec *s, const char *override, prc_err *err) PRC_MUST_CHECK;

/*
 * A test-only manifest for a stand-in image (a static program that prints a
 * recorded report): the command must still be exactly the protocol's
 * (native-command-mismatch), and the image digest must be the stand-in's own
 * digest, which the test computed when it built the image
 * (native-image-unreviewed otherwise).  Never used outside tests.
 */
bool prc_native_check_standin(const prc_manifest *m, const char *standin_digest, prc_err *err) PRC_MUST_CHECK;

/*
 * Add s's scanner-owned files to an unsealed snapshot of inv
 * (prc_snapshot_add_owned): the digest-bound config bytes, and for Gitleaks
 * the relocation of a root .gitleaksignore when inv has one as a regular
 * file (*out_relocated then true: pass it on in prc_native_ctx).  Errors:
 * those of prc_snapshot_add_owned.
 */
struct prc_inventory;
struct prc_snapshot;
bool prc_native_add_owned(const prc_native_spec *s, const struct prc_inventory *inv, struct prc_snapshot *snap,
                          bool *out_relocated, prc_err *err) PRC_MUST_CHECK;
/* The inventory's regular-file paths as an object {path: "<sha256 hex>"} for prc_native_ctx.paths (new reference). */
json_t *prc_native_paths(const struct prc_inventory *inv);

/* Context of one normalization (all optional). */
typedef struct prc_native_ctx {
        int64_t       now;      /* --now, Unix seconds; Grype age check (0: refuse, no clock) */
        const json_t *paths;    /* borrowed: keys are the inventory's regular-file paths, a string value is
                                 * that file's SHA-256 hex (prc_native_paths); NULL: syntax only */
        bool          relocated_gitleaksignore; /* the runner relocated a root .gitleaksignore */
        const json_t *rule_ids; /* borrowed: Gitleaks rule ids of the verified ruleset; NULL: syntax only */
        uint32_t      max_items;        /* 0: the protocol default */
        const json_t *db;       /* borrowed: prc_grype_db_check identity of the mounted grype-db; NULL: not compared */
} prc_native_ctx;

typedef struct prc_native_result {
        json_t   *observations;         /* owned: observation objects as in prc-adapter-jsonl-v1 */
        uint8_t  *artifact;             /* owned: normalized artifact (canonical JSON) */
        size_t    artifact_len;
        char      artifact_sha256[PRC_SHA256_HEX + 1];
        const char *artifact_media_type;        /* static */
        json_t   *report;               /* owned: {media_type, size, sha256} of the native bytes */
} prc_native_result;

/*
 * Normalize one native report.  Pure: reads only p[0..n) and ctx.  On
 * success out is filled (free with prc_native_result_clear); on failure out
 * is untouched and err holds the first cause: the protocol's classes, or
 * invalid-json, duplicate-field, unknown-field, missing-field, wrong-type,
 * depth-limit, nodes-limit, input-too-large, unsafe-number, invalid-location,
 * out-of-memory.
 */
bool prc_native_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                          prc_native_result *out, prc_err *err) PRC_MUST_CHECK;
void prc_native_result_clear(prc_native_result *r);

/* The result as one JSON object (new reference; NULL on OOM): observations, artifact descriptor, report. */
json_t *prc_native_result_json(const prc_native_result *r);

/*
 * Helpers shared by the three normalizers (native.c).  Each sets err and
 * returns false on failure.
 */
/*
 * Write doc canonically as out's artifact (s's media types), take a
 * reference to observations and describe the native bytes p[0..n).
 */
bool prc_native_finish(const prc_native_spec *s, const json_t *doc, json_t *observations, const uint8_t *p,
                       size_t n, prc_native_result *out, prc_err *err) PRC_MUST_CHECK;
/* Sort arr in place by the canonical bytes of its elements (a total, tool-independent order). */
bool prc_native_sort(json_t *arr, prc_err *err) PRC_MUST_CHECK;
/* Decoder limits for native reports (native.c says why). */
extern const prc_limits prc_native_limits;
/* Parse an RFC 3339 time ("...Z" or "+hh:mm"), optional fraction; false if malformed. */
bool prc_native_time(const char *s, int64_t *out_unix);
/* A field type for prc_native_fields: integer or real (the tools' floats; never kept). */
#define PRC_NT_NUMBER (1u << 6)
/*
 * prc_json_fields with one addition: a PRC_NT_NUMBER field accepts an
 * integer or a real.  Errors: not-an-object, unknown-field, missing-field,
 * wrong-type (ptr names the field).
 */
bool prc_native_fields(const json_t *obj, const char *ptr, const prc_field *fields, size_t n, prc_err *err)
        PRC_MUST_CHECK;
/* Every entry of arr must be a string (wrong-type with ptr). */
bool prc_native_strings(const json_t *arr, const char *ptr, prc_err *err) PRC_MUST_CHECK;

#endif
