/*
 * sigtest.h - test-only Ed25519 helpers shared by test_sig.c and
 * test_registry.c: keys are generated per test with libcrypto, never stored.
 */
#ifndef PRC_TEST_SIGTEST_H
#define PRC_TEST_SIGTEST_H

#include <jansson.h>
#include <openssl/evp.h>
#include <stdint.h>

#include "adapter/sig.h"

typedef struct t_key {
        EVP_PKEY *pkey;                         /* owned: t_key_free */
        uint8_t   pub[PRC_ED25519_PUB_LEN];
        char      pub_b64[64];
        char      key_sha256[PRC_SHA256_HEX + 1];
} t_key;

/* A fresh Ed25519 key pair (fails the test on error). */
void t_key_new(t_key *k);
void t_key_free(t_key *k);
/* Sign prc's message for (scope, digest) into sig (64 bytes). */
void t_key_sign(const t_key *k, prc_sig_scope scope, const char *digest_hex, uint8_t sig[PRC_ED25519_SIG_LEN]);
/* Base64 (standard, padded) of n bytes into out (static per call slot). */
const char *t_b64(const uint8_t *p, size_t n);
/* A prc.signature/v1 document (new reference) claiming scope_name and digest, signed by k for (scope, digest). */
json_t *t_sig_doc(const t_key *k, prc_sig_scope scope, const char *digest_hex);
/* A trust-store document with one publisher per (id, key, scopes) triple; scopes is a JSON array text. */
json_t *t_store_doc1(const char *id, const t_key *k, const char *scopes_json);

#endif
