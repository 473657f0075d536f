/*
 * trust.h - publisher trust store: which Ed25519 keys may sign which scopes.
 *
 * A trust store is a prc.trust-store/v1 document (YAML or JSON; schema
 * schemas/adapter-trust-store.schema.json) that the operator selects
 * explicitly with --trust-store.  prc ships none and never falls back to a
 * default: without a store nothing is verified.  Each publisher has an id
 * and keys; each key is the raw 32-byte Ed25519 public key in standard
 * base64 and the non-empty list of scopes it may sign.  A key is looked up
 * by the SHA-256 of its raw bytes (what signature files name).
 *
 * Trust: operator input, validated strictly (unknown fields, duplicate keys,
 * duplicate publishers or keys, unknown scopes are refused), then trusted.
 */
#ifndef PRC_ADAPTER_TRUST_H
#define PRC_ADAPTER_TRUST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/sig.h"
#include "base/digest.h"
#include "base/err.h"

#define PRC_TRUST_SCHEMA "prc.trust-store/v1"

enum {
        PRC_TRUST_PUBLISHERS_MAX = 256,   /* a store is a reviewed list, not a key server */
        PRC_TRUST_KEYS_MAX = 16,          /* per publisher: rotation needs a few, not hundreds */
};

/* One key of the store.  Borrowed from its store: valid until prc_trust_free. */
typedef struct prc_trust_key {
        const char *publisher_id;
        uint8_t     pub[PRC_ED25519_PUB_LEN];
        char        key_sha256[PRC_SHA256_HEX + 1];
        unsigned    scopes;                     /* prc_sig_scope bits */
} prc_trust_key;

/*
 * Validate a parsed document and build a store (the document is not kept).
 * Returns a new store (caller frees with prc_trust_free) or NULL with err:
 * not-an-object, unknown-field, missing-field, wrong-type, invalid-value
 * (schema, ids, empty lists, limits), trust-duplicate-publisher,
 * trust-duplicate-key, trust-bad-key, trust-unknown-scope, out-of-memory,
 * library-unavailable (libcrypto cannot be loaded, base/crypto.h).
 * err->ptr names the offending field.
 */
prc_trust_store *prc_trust_from_doc(const json_t *doc, prc_err *err);
/* Load a trust-store file (operator limits; symlink at the last component refused). */
prc_trust_store *prc_trust_load(const char *path, prc_err *err);
void prc_trust_free(prc_trust_store *ts);

/* Key whose raw-bytes SHA-256 is key_sha256, or NULL.  Borrowed. */
const prc_trust_key *prc_trust_find(const prc_trust_store *ts, const char *key_sha256);
/* Number of keys, and key i (borrowed). */
size_t prc_trust_nkeys(const prc_trust_store *ts);
const prc_trust_key *prc_trust_key_at(const prc_trust_store *ts, size_t i);

/* Shared id rule for publisher and registry ids: 1-128 of [A-Za-z0-9._:/@+-]. */
bool prc_trust_id_valid(const char *s, size_t n);

#endif
