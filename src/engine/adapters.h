/*
 * adapters.h - the adapter set of one scan: resolution, authorization, order.
 *
 * Seed 000: a scan may execute up to 16 adapters when applicable assertions
 * bind every exact adapter id, manifest digest and observation kind.
 * --adapter-manifest (explicit local operator grant) and --adapter-registry
 * (registry-assigned trust) are mutually exclusive; paths and ids cannot
 * repeat; registry approval cannot authorize a catalog-unbound adapter.  The
 * complete set is resolved, validated and authorized before any runtime is
 * invoked, then executed in (adapter id, manifest digest) order.
 */
#ifndef PRC_ENGINE_ADAPTERS_H
#define PRC_ENGINE_ADAPTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "adapter/manifest.h"
#include "adapter/resolution.h"
#include "base/err.h"
#include "engine/catalog.h"

enum { PRC_SCAN_ADAPTERS_MAX = 16 };

typedef struct prc_scan_adapter {
        prc_manifest  *manifest;        /* owned */
        prc_resolution res;
        const char    *path;            /* borrowed: the --adapter-manifest path (re-checked before
                                           start), or NULL for a registry grant */
} prc_scan_adapter;

typedef struct prc_adapter_set {
        prc_scan_adapter items[PRC_SCAN_ADAPTERS_MAX];
        size_t           n;
} prc_adapter_set;

void prc_adapter_set_clear(prc_adapter_set *s);

/*
 * Load explicit manifests (v0.4, for execution) as local-explicit grants.
 * Errors: adapter-repeated, adapter-set-limit, the manifest classes.
 */
bool prc_adapters_from_manifests(const char *const *paths, size_t n, prc_adapter_set *out, prc_err *err) PRC_MUST_CHECK;
/*
 * The registry lockfile's detached signature (issue 16).  With trust_store
 * NULL nothing is verified.  Otherwise the signature file (signature, or
 * REGISTRY.sig when NULL) is verified over the loaded lockfile's content
 * digest in scope "registry" before any id is resolved; a present signature
 * that does not verify is always refused.  A missing one is refused when
 * require is set or the path was given explicitly (signature-required).
 * All pointers borrowed.
 */
typedef struct prc_registry_sig_opts {
        const char *trust_store;        /* operator-selected prc.trust-store/v1 file, or NULL */
        const char *signature;          /* prc.signature/v1 file, or NULL: REGISTRY.sig */
        bool        require;            /* --require-signature */
} prc_registry_sig_opts;

/*
 * Resolve ids through a registry lockfile by default policy, after its
 * signature check (sig may be NULL: none).  Errors: the registry classes, as
 * above; trust-*, signature-* and signature-required.
 */
bool prc_adapters_from_registry(const char *registry, const prc_registry_sig_opts *sig, const char *const *ids,
                                size_t n, prc_adapter_set *out, prc_err *err) PRC_MUST_CHECK;
/*
 * Every adapter must be bound by an assertion of the profile: same adapter
 * id, same manifest digest, and an observation kind the manifest declares;
 * and pass the runner's gate (prc_oci_gate: trust, a native protocol's
 * reviewed digest and exact command).  Sorts the set into execution order.
 * Errors: adapter-unbound, prc_oci_gate's classes.
 */
bool prc_adapters_authorize(prc_adapter_set *s, const prc_assertion *const *as, size_t nas, prc_err *err) PRC_MUST_CHECK;
/* The adapter of the set a binding names (id and digest), or NULL. */
const prc_scan_adapter *prc_adapters_for_binding(const prc_adapter_set *s, const prc_binding *b);

#endif
