/*
 * registry.h - adapter registry lockfile: registry-assigned trust,
 * lifecycle, revocation and default resolution.
 *
 * A lockfile (prc.adapter-registry/v1, YAML or JSON; the machine contract is
 * schemas/adapter-registry.schema.json) is the operator's local trust root
 * for adapters.  Each entry pins an adapter id, the canonical SHA-256 of its
 * manifest, the publisher id, the trust the registry assigns, a lifecycle
 * status and the manifest's normalized relative path.  Trust is never read
 * from a manifest: nothing a manifest says can change a decision here.
 *
 * Loading validates the document only.  prc_registry_check then opens each
 * referenced manifest beneath the lockfile's directory, component by
 * component without following symlinks, and checks its canonical digest,
 * adapter id, publisher, lifecycle and engine API against the entry.
 * Revoked entries are never opened: a revocation needs no manifest file and
 * stays in force when the file is gone.
 *
 * Default resolution admits an entry only when it is active, its manifest
 * checks pass, and its trust is first-party-sandboxed or verified-community.
 * Every denial has a named reason (an error class): registry-revoked,
 * registry-deprecated, registry-trust-unverified-community,
 * registry-trust-local, or the manifest check that failed.
 *
 * Trust: the lockfile is operator input (validated, then trusted); the
 * manifests it references are checked against it before any use.
 * A registry caches each entry's check, so it is not for concurrent use.
 */
#ifndef PRC_ADAPTER_REGISTRY_H
#define PRC_ADAPTER_REGISTRY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "adapter/resolution.h"
#include "adapter/sig.h"
#include "adapter/trust.h"
#include "base/doc.h"
#include "base/err.h"
#include "base/limits.h"

#define PRC_REGISTRY_SCHEMA "prc.adapter-registry/v1"

enum {
        /* A local trust root lists the adapters one organisation reviewed: hundreds, not thousands. */
        PRC_REGISTRY_ENTRIES_MAX = 1024,
        /* Seed 000: one scan executes at most 16 adapters. */
        PRC_REGISTRY_RESOLVE_MAX = 16,
};

typedef enum prc_registry_trust {
        PRC_RT_FIRST_PARTY_SANDBOXED = 0,
        PRC_RT_VERIFIED_COMMUNITY,
        PRC_RT_UNVERIFIED_COMMUNITY,
        PRC_RT_LOCAL,
} prc_registry_trust;

typedef enum prc_registry_status {
        PRC_RS_ACTIVE = 0,
        PRC_RS_DEPRECATED,
        PRC_RS_REVOKED,
} prc_registry_status;

/* Stable names as written in lockfiles ("verified-community", "revoked", ...). */
const char *prc_registry_trust_name(prc_registry_trust t);
const char *prc_registry_status_name(prc_registry_status s);

/* One entry.  All strings are borrowed from the registry: valid until prc_registry_free. */
typedef struct prc_registry_entry {
        const char         *adapter_id;
        const char         *manifest_sha256;
        const char         *publisher_id;
        const char         *manifest_path;      /* normalized relative, against the lockfile's directory */
        prc_registry_trust  trust;
        prc_registry_status status;
} prc_registry_entry;

typedef struct prc_registry prc_registry;      /* opaque */

/*
 * Load a lockfile.  The file's directory is opened first and kept (the
 * manifests are resolved against that descriptor, so renaming the
 * directory later changes nothing); the file itself is opened beneath it
 * without following a symlink.  .json files are strict JSON, anything else
 * YAML.  Returns a new registry (prc_registry_free) or NULL with err:
 * io-error, input-too-large, the YAML/JSON loader classes (duplicate keys
 * are duplicate-field), and the document classes of prc_registry_parse.
 * err->file is the path; err->ptr names the bad field.
 */
prc_registry *prc_registry_load(const char *path, prc_err *err);

/*
 * Validate a lockfile document from bytes, with no directory (manifest
 * checks then fail with internal; revocation and policy still work).
 * Document errors: not-an-object, unknown-field, missing-field, wrong-type,
 * invalid-value (schema, ids, revision, trust, status), invalid-digest,
 * the path-* classes (manifest_path), registry-entries-limit,
 * registry-duplicate-entry (same adapter id, or same manifest digest).
 */
prc_registry *prc_registry_parse(const uint8_t *p, size_t n, prc_doc_format fmt, const prc_limits *lim,
                                 prc_err *err);
void prc_registry_free(prc_registry *reg);

/* Borrowed: valid until prc_registry_free. */
const char *prc_registry_id(const prc_registry *reg);
int64_t prc_registry_revision(const prc_registry *reg);
const char *prc_registry_sha256(const prc_registry *reg);      /* canonical digest of the lockfile document */
size_t prc_registry_nentries(const prc_registry *reg);
const prc_registry_entry *prc_registry_entry_at(const prc_registry *reg, size_t i);
/* Entry with this adapter id, or NULL (and its index in *out_i when found and out_i non-NULL). */
const prc_registry_entry *prc_registry_find(const prc_registry *reg, const char *adapter_id, size_t *out_i);

/*
 * Run entry i's manifest checks (once; the result is cached).  A revoked
 * entry passes without opening anything.  Returns false with err set to
 * the first failure: registry-manifest-missing, registry-manifest-symlink,
 * registry-manifest-not-regular, io-error, input-too-large, the document
 * loader's classes, registry-digest-mismatch, the manifest loader's
 * classes (v0.4 for execution: archived versions and self-trust fields are
 * refused there), registry-adapter-id-drift, registry-publisher-drift,
 * registry-lifecycle-drift, engine-incompatible (the manifest
 * loader's class, checked against PRC_ADAPTER_ENGINE_API).
 * err->file is the entry's manifest_path, err->ptr the entry field at fault.
 */
bool prc_registry_check(prc_registry *reg, size_t i, prc_err *err) PRC_MUST_CHECK;

/*
 * Default resolution decision for entry i: true when admitted; otherwise
 * false with the reason in err (registry-revoked first, then a failed
 * manifest check, then registry-deprecated, registry-trust-unverified-
 * community, registry-trust-local).
 */
bool prc_registry_decide(prc_registry *reg, size_t i, prc_err *err) PRC_MUST_CHECK;

/* Is cls one of the policy reasons (an entry denied by design, not a broken one)? */
bool prc_registry_policy_reason(prc_errclass cls);

/*
 * Resolve adapter_id through the registry by default policy.  On success
 * *out is a registry grant (registry id, revision, content digest, the
 * entry's trust, adapter id, manifest digest, publisher).  Errors:
 * registry-adapter-not-found, and the reasons of prc_registry_decide.
 */
bool prc_registry_resolve(prc_registry *reg, const char *adapter_id, prc_resolution *out,
                          prc_err *err) PRC_MUST_CHECK;

/*
 * The same, also handing out the manifest validated from exactly the bytes
 * that were digested and checked (transfers: prc_manifest_free), so the
 * caller never re-reads a file that may have changed since.  out_m is set
 * only on success.
 */
bool prc_registry_resolve_manifest(prc_registry *reg, const char *adapter_id, prc_resolution *out,
                                   prc_manifest **out_m, prc_err *err) PRC_MUST_CHECK;

/*
 * Resolve a whole --adapter-id set, all or nothing: ids may not repeat and
 * there may be at most PRC_REGISTRY_RESOLVE_MAX (usage); the first id that
 * does not resolve is the error (classes of prc_registry_resolve).  On
 * success out[0..n) holds the grants in execution order: by adapter id,
 * then manifest digest (byte order), independent of the order given.
 */
bool prc_registry_resolve_set(prc_registry *reg, const char *const *ids, size_t n, prc_resolution *out,
                              prc_err *err) PRC_MUST_CHECK;

/* Is this manifest digest pinned by a revoked entry?  (A revoked digest never resolves.) */
bool prc_registry_digest_revoked(const prc_registry *reg, const char *manifest_sha256);

/*
 * Verify a detached signature file over this registry's content digest in
 * scope "registry" against ts (see prc_sig_verify_file for the classes).
 */
bool prc_registry_verify_signature(const prc_registry *reg, const prc_trust_store *ts, const char *sig_path,
                                   prc_sig_info *out, prc_err *err) PRC_MUST_CHECK;

#endif
