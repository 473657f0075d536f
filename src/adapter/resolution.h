/*
 * resolution.h - how an adapter came to be trusted: the one record both
 * resolution paths produce and execution records embed.
 *
 * Two grants exist and they are mutually exclusive for one run:
 *   registry        the adapter id was resolved through a registry lockfile;
 *                   the record binds the registry id, revision and content
 *                   digest, and the trust the registry assigned.
 *   local-explicit  the operator named the manifest file on the command line
 *                   (--adapter-manifest); the record binds the manifest's
 *                   publisher and says "local-explicit" as its trust.
 * Either way the record names the exact adapter id and manifest digest.
 * Changing any field changes the content ID of a record that embeds it.
 *
 * Trust: built by the engine from validated inputs; parsed back strictly.
 */
#ifndef PRC_ADAPTER_RESOLUTION_H
#define PRC_ADAPTER_RESOLUTION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "adapter/sig.h"
#include "base/digest.h"
#include "base/err.h"

typedef enum prc_grant {
        PRC_GRANT_REGISTRY = 1,
        PRC_GRANT_LOCAL_EXPLICIT = 2,
} prc_grant;

enum { PRC_RESOLUTION_ID_MAX = PRC_SIG_ID_MAX };

typedef struct prc_resolution {
        prc_grant grant;
        char      adapter_id[PRC_RESOLUTION_ID_MAX + 1];
        char      manifest_sha256[PRC_SHA256_HEX + 1];
        char      publisher_id[PRC_RESOLUTION_ID_MAX + 1];
        char      trust[32];                /* registry-assigned trust, or "local-explicit" */
        /* Registry grants only ("" and 0 for local-explicit). */
        char      registry_id[PRC_RESOLUTION_ID_MAX + 1];
        int64_t   registry_revision;
        char      registry_sha256[PRC_SHA256_HEX + 1];
} prc_resolution;

/*
 * Fill *out with a local-explicit operator grant for a manifest the
 * operator named.  Errors: invalid-value (bad id), invalid-digest.
 */
bool prc_resolution_local(const char *adapter_id, const char *manifest_sha256, const char *publisher_id,
                          prc_resolution *out, prc_err *err) PRC_MUST_CHECK;

/*
 * The same for a manifest the operator named with --adapter-manifest and
 * that prc loaded for execution: adapter id, canonical digest and
 * publisher come from the validated manifest.  Errors as above.
 */
bool prc_resolution_from_manifest(const prc_manifest *m, prc_resolution *out, prc_err *err) PRC_MUST_CHECK;

/*
 * The record as JSON (new reference, transfers), with exactly these keys:
 *   {"grant":"registry"|"local-explicit","adapter_id","manifest_sha256",
 *    "publisher_id","trust","registry":{"registry_id","revision",
 *    "content_sha256"} | null}
 * NULL with out-of-memory or internal (an unfilled record).
 */
json_t *prc_resolution_json(const prc_resolution *r, prc_err *err);

/*
 * Parse that JSON back (e.g. from an execution record), strictly: unknown,
 * missing or mistyped fields, a bad grant/trust pairing, bad ids or digests
 * are refused (unknown-field, missing-field, wrong-type, invalid-value,
 * invalid-digest).
 */
bool prc_resolution_from_json(const json_t *v, prc_resolution *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Command-line rule shared by every command that resolves adapters:
 * --adapter-manifest (n_manifests) and --adapter-registry (registry_path
 * non-NULL) are mutually exclusive, and --adapter-id (n_ids) goes only with
 * a registry, which needs at least one.  Errors: usage.
 */
bool prc_resolution_paths_check(size_t n_manifests, const char *registry_path, size_t n_ids,
                                prc_err *err) PRC_MUST_CHECK;

#endif
