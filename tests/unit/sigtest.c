/*
 * sigtest.c - test-only Ed25519 helpers (see sigtest.h).  Not a test suite:
 * it registers no tests; it lives here so both suites can link it.
 */
#include "sigtest.h"

#include <stdio.h>

#include "base/buf.h"
#include "t.h"

void t_key_new(t_key *k)
{
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
        size_t len = sizeof(k->pub);
        prc_err err;

        prc_err_init(&err);
        memset(k, 0, sizeof(*k));
        if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_keygen(ctx, &k->pkey) != 1)
                t_fail(__FILE__, __LINE__, "cannot generate an Ed25519 key");
        EVP_PKEY_CTX_free(ctx);
        if (EVP_PKEY_get_raw_public_key(k->pkey, k->pub, &len) != 1 || len != sizeof(k->pub))
                t_fail(__FILE__, __LINE__, "cannot read the raw public key");
        snprintf(k->pub_b64, sizeof(k->pub_b64), "%s", t_b64(k->pub, sizeof(k->pub)));
        if (!prc_sha256_hex_once(k->pub, sizeof(k->pub), k->key_sha256, &err))
                t_fail(__FILE__, __LINE__, "sha256 failed");
}

void t_key_free(t_key *k)
{
        EVP_PKEY_free(k->pkey);
        k->pkey = NULL;
}

void t_key_sign(const t_key *k, prc_sig_scope scope, const char *digest_hex, uint8_t sig[PRC_ED25519_SIG_LEN])
{
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        size_t len = PRC_ED25519_SIG_LEN;
        prc_buf msg;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&msg, 256);
        if (!prc_sig_message(scope, digest_hex, &msg, &err))
                t_fail(__FILE__, __LINE__, "message: %s", err.msg);
        if (ctx == NULL || EVP_DigestSignInit(ctx, NULL, NULL, NULL, k->pkey) != 1 ||
            EVP_DigestSign(ctx, sig, &len, msg.data, msg.len) != 1 || len != PRC_ED25519_SIG_LEN)
                t_fail(__FILE__, __LINE__, "cannot sign");
        EVP_MD_CTX_free(ctx);
        prc_buf_clear(&msg);
}

const char *t_b64(const uint8_t *p, size_t n)
{
        static char slots[4][256];
        static unsigned slot;
        char *out = slots[slot++ % 4];

        if (n > 180)
                t_fail(__FILE__, __LINE__, "t_b64 input too long");
        EVP_EncodeBlock((unsigned char *)out, p, (int)n);
        return out;
}

json_t *t_sig_doc(const t_key *k, prc_sig_scope scope, const char *digest_hex)
{
        uint8_t sig[PRC_ED25519_SIG_LEN];

        t_key_sign(k, scope, digest_hex, sig);
        return json_pack("{s:s,s:s,s:s,s:s,s:s}", "schema", PRC_SIG_SCHEMA, "scope", prc_sig_scope_name(scope),
                         "signed_sha256", digest_hex, "key_sha256", k->key_sha256, "signature",
                         t_b64(sig, sizeof(sig)));
}

json_t *t_store_doc1(const char *id, const t_key *k, const char *scopes_json)
{
        json_t *scopes = json_loads(scopes_json, 0, NULL);

        if (scopes == NULL)
                t_fail(__FILE__, __LINE__, "bad scopes json");
        return json_pack("{s:s,s:[{s:s,s:[{s:s,s:o}]}]}", "schema", "prc.trust-store/v1", "publishers", "id", id,
                         "keys", "public_key", k->pub_b64, "scopes", scopes);
}
