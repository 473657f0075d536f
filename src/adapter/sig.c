/*
 * sig.c - scoped Ed25519 signature verification (see sig.h).
 * Trust: signature files are untrusted; every field is checked before use
 * and the message that is verified is always rebuilt by prc from the scope
 * and digest the caller expects, never taken from the file.
 */
#include "adapter/sig.h"

#include <string.h>

#include "adapter/trust.h"
#include "base/b64.h"
#include "base/crypto.h"
#include "base/doc.h"
#include "base/json_strict.h"
#include "base/limits.h"

const char *prc_sig_scope_name(prc_sig_scope s)
{
        switch (s) {
        case PRC_SIG_REGISTRY:
                return "registry";
        case PRC_SIG_MANIFEST:
                return "manifest";
        }
        return "";
}

bool prc_sig_scope_parse(const char *name, prc_sig_scope *out)
{
        if (strcmp(name, "registry") == 0) {
                *out = PRC_SIG_REGISTRY;
                return true;
        }
        if (strcmp(name, "manifest") == 0) {
                *out = PRC_SIG_MANIFEST;
                return true;
        }
        return false;
}

bool prc_sig_message(prc_sig_scope scope, const char *digest_hex, prc_buf *out, prc_err *err)
{
        const char *name = prc_sig_scope_name(scope);

        if (name[0] == '\0')
                return prc_err_set(err, PRC_E_INTERNAL, "signature scope %u is not exactly one scope", (unsigned)scope);
        if (digest_hex == NULL || !prc_digest_valid(digest_hex))
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "signed digest is not 64 lowercase hex");
        /* NUL separators: no scope contains NUL and the digest has a fixed length, so parts cannot shift. */
        return prc_buf_put(out, PRC_SIG_PREFIX, sizeof(PRC_SIG_PREFIX), err) &&
               prc_buf_put(out, name, strlen(name) + 1, err) &&
               prc_buf_put(out, digest_hex, PRC_SHA256_HEX, err);
}

bool prc_sig_verify_raw(const uint8_t pub[PRC_ED25519_PUB_LEN], prc_sig_scope scope, const char *digest_hex,
                        const uint8_t *sig, size_t siglen, prc_err *err)
{
        const prc_crypto *cr;
        EVP_PKEY *key = NULL;
        EVP_MD_CTX *ctx = NULL;
        prc_buf msg;
        bool ok = false;
        int rc;

        prc_buf_init(&msg, 256);
        if (siglen < PRC_ED25519_SIG_LEN)
                return prc_err_set(err, PRC_E_SIG_TRUNCATED, "signature has %zu bytes, Ed25519 needs %d", siglen,
                                   PRC_ED25519_SIG_LEN);
        if (siglen > PRC_ED25519_SIG_LEN)
                return prc_err_set(err, PRC_E_SIG_MALFORMED, "signature has %zu bytes, Ed25519 needs %d", siglen,
                                   PRC_ED25519_SIG_LEN);
        if (!prc_sig_message(scope, digest_hex, &msg, err))
                goto out;
        cr = prc_crypto_load(err);
        if (cr == NULL)
                goto out;
        key = cr->EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, PRC_ED25519_PUB_LEN);
        if (key == NULL) {
                prc_err_set(err, PRC_E_SIG_INVALID, "OpenSSL refuses the Ed25519 public key");
                goto out;
        }
        ctx = cr->EVP_MD_CTX_new();
        if (ctx == NULL) {
                prc_err_oom(err, "a signature check");
                goto out;
        }
        /* Ed25519 is one-shot (no digest parameter): EVP_DigestVerify over the whole message. */
        if (cr->EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) != 1) {
                prc_err_set(err, PRC_E_SIG_INVALID, "OpenSSL cannot start an Ed25519 check with this key");
                goto out;
        }
        rc = cr->EVP_DigestVerify(ctx, sig, siglen, msg.data, msg.len);
        if (rc != 1) {
                prc_err_set(err, PRC_E_SIG_INVALID, "Ed25519 signature does not verify for scope '%s' and digest %s",
                            prc_sig_scope_name(scope), digest_hex);
                goto out;
        }
        ok = true;
out:
        /* Both NULL unless the table was loaded. */
        if (key != NULL || ctx != NULL) {
                prc_cr->EVP_MD_CTX_free(ctx);
                prc_cr->EVP_PKEY_free(key);
        }
        prc_buf_clear(&msg);
        return ok;
}

static bool malformed(prc_err *err, const char *ptr, const char *what)
{
        prc_err_set(err, PRC_E_SIG_MALFORMED, "signature document: %s", what);
        prc_err_set_ptr(err, ptr);
        return false;
}

bool prc_sig_verify_doc(const json_t *doc, const prc_trust_store *ts, prc_sig_scope scope, const char *digest_hex,
                        prc_sig_info *out, prc_err *err)
{
        static const prc_field fields[] = {
                { "schema", PRC_JT_STRING, true },
                { "scope", PRC_JT_STRING, true },
                { "signed_sha256", PRC_JT_STRING, true },
                { "key_sha256", PRC_JT_STRING, true },
                { "signature", PRC_JT_STRING, true },
        };
        prc_err inner;
        const char *schema, *sscope, *signed_hex, *key_hex, *sigtext;
        const prc_trust_key *k;
        prc_sig_scope claimed;
        uint8_t sig[PRC_ED25519_SIG_LEN];
        bool partial;
        long len;

        prc_err_init(&inner);
        if (!prc_json_fields(doc, "", fields, PRC_ARRAY_LEN(fields), &inner)) {
                prc_err_set(err, PRC_E_SIG_MALFORMED, "signature document: %s: %s", prc_err_name(inner.cls), inner.msg);
                prc_err_set_ptr(err, inner.ptr);
                return false;
        }
        schema = json_string_value(json_object_get(doc, "schema"));
        sscope = json_string_value(json_object_get(doc, "scope"));
        signed_hex = json_string_value(json_object_get(doc, "signed_sha256"));
        key_hex = json_string_value(json_object_get(doc, "key_sha256"));
        sigtext = json_string_value(json_object_get(doc, "signature"));
        if (strcmp(schema, PRC_SIG_SCHEMA) != 0)
                return malformed(err, "/schema", "schema is not '" PRC_SIG_SCHEMA "'");
        if (!prc_digest_valid(signed_hex))
                return malformed(err, "/signed_sha256", "signed_sha256 is not 64 lowercase hex");
        if (!prc_digest_valid(key_hex))
                return malformed(err, "/key_sha256", "key_sha256 is not 64 lowercase hex");
        len = prc_b64_decode(sigtext, json_string_length(json_object_get(doc, "signature")), sig, sizeof(sig), 0,
                             &partial);
        if (len < 0 && partial) {
                prc_err_set(err, PRC_E_SIG_TRUNCATED, "signature text ends in the middle of a base64 group");
                prc_err_set_ptr(err, "/signature");
                return false;
        }
        if (len < 0)
                return malformed(err, "/signature", "signature is not canonical base64 of at most 64 bytes");
        if (len < PRC_ED25519_SIG_LEN) {
                prc_err_set(err, PRC_E_SIG_TRUNCATED, "signature has %ld bytes, Ed25519 needs %d", len,
                            PRC_ED25519_SIG_LEN);
                prc_err_set_ptr(err, "/signature");
                return false;
        }
        /* The claims are checked first only to name the replay; the crypto below never trusts them. */
        if (!prc_sig_scope_parse(sscope, &claimed) || claimed != scope) {
                prc_err_set(err, PRC_E_SIG_SCOPE_MISMATCH, "signature is for scope '%.32s', not '%s'", sscope,
                            prc_sig_scope_name(scope));
                prc_err_set_ptr(err, "/scope");
                return false;
        }
        if (digest_hex == NULL || strcmp(signed_hex, digest_hex) != 0) {
                prc_err_set(err, PRC_E_SIG_DIGEST_MISMATCH, "signature is over %s, not %s", signed_hex,
                            digest_hex ? digest_hex : "(none)");
                prc_err_set_ptr(err, "/signed_sha256");
                return false;
        }
        k = ts != NULL ? prc_trust_find(ts, key_hex) : NULL;
        if (k == NULL) {
                prc_err_set(err, PRC_E_SIG_UNKNOWN_KEY, "key %s is not in the trust store", key_hex);
                prc_err_set_ptr(err, "/key_sha256");
                return false;
        }
        if ((k->scopes & (unsigned)scope) == 0) {
                prc_err_set(err, PRC_E_SIG_SCOPE_NOT_ALLOWED, "publisher '%s' key %s may not sign scope '%s'",
                            k->publisher_id, key_hex, prc_sig_scope_name(scope));
                prc_err_set_ptr(err, "/key_sha256");
                return false;
        }
        if (!prc_sig_verify_raw(k->pub, scope, digest_hex, sig, (size_t)len, err))
                return false;
        memset(out, 0, sizeof(*out));
        out->scope = scope;
        memcpy(out->signed_sha256, digest_hex, PRC_SHA256_HEX + 1);
        memcpy(out->key_sha256, k->key_sha256, PRC_SHA256_HEX + 1);
        snprintf(out->publisher_id, sizeof(out->publisher_id), "%s", k->publisher_id);
        return true;
}

bool prc_sig_verify_file(const char *path, const prc_trust_store *ts, prc_sig_scope scope, const char *digest_hex,
                         prc_sig_info *out, prc_err *err)
{
        prc_err inner;
        json_t *doc;
        bool ok;

        prc_err_init(&inner);
        doc = prc_doc_load(path, PRC_DOC_AUTO, &prc_limits_operator, &inner);
        if (doc == NULL) {
                if (inner.cls == PRC_E_IO || inner.cls == PRC_E_INPUT_TOO_LARGE || inner.cls == PRC_E_OUT_OF_MEMORY) {
                        if (err->cls == PRC_E_OK)
                                *err = inner;   /* keep the I/O cause as it is: first error wins */
                        return false;
                }
                prc_err_set(err, PRC_E_SIG_MALFORMED, "signature file is not a document: %s: %s",
                            prc_err_name(inner.cls), inner.msg);
                prc_err_set_line(err, inner.line, inner.col);
                prc_err_set_file(err, path);
                return false;
        }
        ok = prc_sig_verify_doc(doc, ts, scope, digest_hex, out, err);
        if (!ok)
                prc_err_set_file(err, path);
        json_decref(doc);
        return ok;
}
