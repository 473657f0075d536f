/*
 * sig.h - scoped, detached Ed25519 signatures (verification only).
 *
 * A prc signature never covers raw file bytes.  It covers a domain-separated
 * message built from three parts:
 *
 *     "prc.signature/v1" NUL <scope> NUL <64 lowercase hex digest>
 *
 * where the digest is the canonical (RFC 8785) SHA-256 of the signed
 * document and the scope names what the signer vouches for ("registry" for
 * a registry lockfile, "manifest" for an adapter manifest).  A signature
 * made for one scope or one object therefore cannot verify for another,
 * whatever a signature file claims about itself.
 *
 * Signature files are prc.signature/v1 documents (YAML or JSON; see
 * docs/adapter-registry.md): they name the scope and digest they were made
 * for, the SHA-256 of the signing key's raw 32 bytes, and the 64-byte
 * signature in base64.  The claims only give better reasons; the
 * cryptographic check always uses the scope and digest the caller expects.
 *
 * Trust: the signature file is untrusted input; the trust store is operator
 * input selected explicitly (--trust-store).  Errors: the signature-* classes.
 */
#ifndef PRC_ADAPTER_SIG_H
#define PRC_ADAPTER_SIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/err.h"

enum {
        PRC_ED25519_PUB_LEN = 32,
        PRC_ED25519_SIG_LEN = 64,
        PRC_SIG_ID_MAX = 128,           /* publisher ids, as in the registry */
};

#define PRC_SIG_PREFIX "prc.signature/v1"
#define PRC_SIG_SCHEMA "prc.signature/v1"

/* Signing scopes: a closed set, used as bits in a trust-store key's allowed scopes. */
typedef enum prc_sig_scope {
        PRC_SIG_REGISTRY = 1u << 0,     /* a registry lockfile's content digest */
        PRC_SIG_MANIFEST = 1u << 1,     /* an adapter manifest's canonical digest */
} prc_sig_scope;
#define PRC_SIG_SCOPES_ALL (PRC_SIG_REGISTRY | PRC_SIG_MANIFEST)

typedef struct prc_trust_store prc_trust_store;        /* trust.h */

/* Name of one scope ("registry", "manifest"); "" for anything else. */
const char *prc_sig_scope_name(prc_sig_scope s);
/* Scope for a name; false when the name is not a scope. */
bool prc_sig_scope_parse(const char *name, prc_sig_scope *out);

/*
 * Append the domain-separated message for (scope, digest_hex) to out.
 * digest_hex must be 64 lowercase hex (invalid-digest otherwise).  Errors
 * also: buffer-limit, out-of-memory, internal (not exactly one scope bit).
 */
bool prc_sig_message(prc_sig_scope scope, const char *digest_hex, prc_buf *out, prc_err *err) PRC_MUST_CHECK;


/*
 * Verify a raw 64-byte signature by the raw 32-byte public key pub over
 * the message for (scope, digest_hex).  Errors: signature-truncated (fewer
 * than 64 bytes), signature-malformed (more), signature-invalid (does not
 * verify, or OpenSSL refuses the key), invalid-digest, out-of-memory,
 * library-unavailable (libcrypto cannot be loaded, base/crypto.h).
 */
bool prc_sig_verify_raw(const uint8_t pub[PRC_ED25519_PUB_LEN], prc_sig_scope scope, const char *digest_hex,
                        const uint8_t *sig, size_t siglen, prc_err *err) PRC_MUST_CHECK;

/* What a verified signature established. */
typedef struct prc_sig_info {
        prc_sig_scope scope;
        char          signed_sha256[PRC_SHA256_HEX + 1];
        char          key_sha256[PRC_SHA256_HEX + 1];    /* SHA-256 of the raw public key */
        char          publisher_id[PRC_SIG_ID_MAX + 1];  /* from the trust store, never the file */
} prc_sig_info;

/*
 * Verify a parsed prc.signature/v1 document for the object whose canonical
 * digest is digest_hex, in scope, against ts.  Checks run in this order and
 * the first failure is the reason: signature-malformed (document shape,
 * schema, encodings), signature-truncated, signature-scope-mismatch (the
 * document was made for another scope), signature-digest-mismatch (for
 * another object), signature-unknown-key (key not in ts),
 * signature-scope-not-allowed (ts does not let that key sign scope),
 * signature-invalid (the Ed25519 check over prc's message fails).
 * On success *out is filled and true returned.
 */
bool prc_sig_verify_doc(const json_t *doc, const prc_trust_store *ts, prc_sig_scope scope, const char *digest_hex,
                        prc_sig_info *out, prc_err *err) PRC_MUST_CHECK;

/*
 * The same for a signature file (symlink at the last component refused).
 * A file that cannot be read keeps its io-error / input-too-large class; a
 * file that is not a document is signature-malformed.  err->file is set.
 */
bool prc_sig_verify_file(const char *path, const prc_trust_store *ts, prc_sig_scope scope, const char *digest_hex,
                         prc_sig_info *out, prc_err *err) PRC_MUST_CHECK;

#endif
