/*
 * test_sig.c - scoped Ed25519 verification and the trust store.
 * Every key is generated here with libcrypto; nothing secret is committed.
 */
#include "t.h"

#include <stdlib.h>

#include "adapter/sig.h"
#include "base/b64.h"
#include "adapter/trust.h"
#include "sigtest.h"

#define DA "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define DB "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static prc_trust_store *store1(const t_key *k, const char *scopes)
{
        prc_err err;
        json_t *d = t_store_doc1("example.org", k, scopes);
        prc_trust_store *ts;

        prc_err_init(&err);
        ts = prc_trust_from_doc(d, &err);
        json_decref(d);
        T_NOERR(err);
        T_ASSERT(ts != NULL);
        return ts;
}

/* Verify doc against a store holding k with scopes; returns the error class. */
static prc_errclass verify(const t_key *k, const char *scopes, const json_t *doc, prc_sig_scope scope,
                           const char *digest)
{
        prc_trust_store *ts = store1(k, scopes);
        prc_sig_info info;
        prc_err err;
        bool ok;

        prc_err_init(&err);
        ok = prc_sig_verify_doc(doc, ts, scope, digest, &info, &err);
        T_EQ_INT(ok, err.cls == PRC_E_OK);
        prc_trust_free(ts);
        return err.cls;
}

static void set_str(json_t *doc, const char *k, const char *v)
{
        T_ASSERT(json_object_set_new(doc, k, json_string(v)) == 0);
}

static void test_sig__message_is_prefix_scope_digest(void)
{
        prc_buf b;
        prc_err err;
        static const char want[] = "prc.signature/v1\0registry\0" DA;

        prc_err_init(&err);
        prc_buf_init(&b, 1024);
        T_ASSERT(prc_sig_message(PRC_SIG_REGISTRY, DA, &b, &err));
        T_EQ_MEM(b.data, b.len, want, sizeof(want) - 1);
        prc_buf_reset(&b);
        T_ASSERT(!prc_sig_message(PRC_SIG_REGISTRY, "AA", &b, &err));
        T_ERR(err, PRC_E_INVALID_DIGEST);
        prc_err_init(&err);
        T_ASSERT(!prc_sig_message(PRC_SIG_SCOPES_ALL, DA, &b, &err));
        T_ERR(err, PRC_E_INTERNAL);
        prc_buf_clear(&b);
}

static void test_sig__base64_is_strict(void)
{
        uint8_t out[8];
        bool partial;

        T_EQ_INT(prc_b64_decode("TWFu", 4, out, sizeof(out), 0, &partial), 3);
        T_EQ_MEM(out, 3, "Man", 3);
        T_EQ_INT(prc_b64_decode("TWE=", 4, out, sizeof(out), 0, &partial), 2);
        T_EQ_INT(prc_b64_decode("TQ==", 4, out, sizeof(out), 0, &partial), 1);
        T_EQ_INT(prc_b64_decode("", 0, out, sizeof(out), 0, &partial), 0);
        T_EQ_INT(prc_b64_decode("TWF=", 4, out, sizeof(out), 0, &partial), -1);   /* non-zero unused bits */
        T_EQ_INT(prc_b64_decode("TR==", 4, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("T===", 4, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("TQ=A", 4, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("TQ==TWFu", 8, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("TW u", 4, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("TWFu\n", 5, out, sizeof(out), 0, &partial), -1);
        T_ASSERT(!partial);
        T_EQ_INT(prc_b64_decode("TWFuTW", 6, out, sizeof(out), 0, &partial), -1);
        T_ASSERT(partial);
        T_EQ_INT(prc_b64_decode("TWFuTWFuTWFu", 12, out, sizeof(out), 0, &partial), -1);   /* over cap */
        T_ASSERT(!partial);
        /* The standard alphabet only, unless url-safe is asked for (SRI values in lockfiles). */
        T_EQ_INT(prc_b64_decode("-_8=", 4, out, sizeof(out), 0, &partial), -1);
        T_EQ_INT(prc_b64_decode("-_8=", 4, out, sizeof(out), PRC_B64_URLSAFE, NULL), 2);
        T_EQ_MEM(out, 2, "\xfb\xff", 2);
        /* Missing padding is complete only when asked; a lone character or '=' in a short group never is. */
        T_EQ_INT(prc_b64_decode("TWFuTQ", 6, out, sizeof(out), PRC_B64_NOPAD, NULL), 4);
        T_EQ_INT(prc_b64_decode("TQ", 2, out, sizeof(out), PRC_B64_NOPAD, NULL), 1);
        T_EQ_INT(prc_b64_decode("TR", 2, out, sizeof(out), PRC_B64_NOPAD, NULL), -1);     /* unused bits */
        T_EQ_INT(prc_b64_decode("TWFuT", 5, out, sizeof(out), PRC_B64_NOPAD, NULL), -1);
        T_EQ_INT(prc_b64_decode("TQ=", 3, out, sizeof(out), PRC_B64_NOPAD, NULL), -1);
        T_EQ_INT(prc_b64_max_decoded(6), 6);
}

/*
 * The rule b64.h states, one character at a time, written plainly: the
 * oracle for the decoder's table over every group but the last.
 */
static long b64_oracle(const char *s, size_t n, uint8_t *out, size_t cap, unsigned flags, bool *partial)
{
        static const char std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        size_t o = 0;

        *partial = false;
        for (size_t i = 0; i < n; i += 4) {
                size_t have = n - i < 4 ? n - i : 4, pad = 0;
                uint32_t w = 0;

                for (size_t k = 0; k < 4; k++) {
                        int v = 0;
                        if (k < have) {
                                char c = s[i + k];
                                const char *at = c != 0 ? strchr(std, c) : NULL;
                                if (c == '=' && i + 4 >= n && k >= 2) {
                                        pad++;
                                } else if (pad > 0) {
                                        return -1;
                                } else if (at != NULL) {
                                        v = (int)(at - std);
                                } else if ((flags & PRC_B64_URLSAFE) && (c == '-' || c == '_')) {
                                        v = c == '-' ? 62 : 63;
                                } else {
                                        return -1;
                                }
                        }
                        w = w << 6 | (uint32_t)v;
                }
                if (have < 4) {
                        if (pad > 0 || have < 2)
                                return -1;
                        if (!(flags & PRC_B64_NOPAD)) {
                                *partial = true;
                                return -1;
                        }
                        pad = 4 - have;
                }
                if ((pad == 1 && (w & 0xff) != 0) || (pad == 2 && (w & 0xffff) != 0) || o + 3 - pad > cap)
                        return -1;
                for (size_t k = 0; k < 3 - pad; k++)
                        out[o++] = (uint8_t)(w >> (16 - 8 * k));
        }
        return (long)o;
}

/* The decoder against the oracle: 200,000 random texts over the alphabets, '=', and bytes outside them. */
static void test_sig__base64_decoder_equals_the_per_character_rule(void)
{
        static const char pool[] = "ABCZabcz0189+/-_=  \n\x80\xff.";
        uint64_t x = 0x9e3779b97f4a7c15u;
        uint8_t a[32], b[32];
        char s[40];

        for (int round = 0; round < 200000; round++) {
                size_t n, cap;
                unsigned flags;
                bool pa = false, pb = false;
                long ga, gb;

                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                n = x % 30;
                cap = (x >> 8) % 26;
                flags = (unsigned)(x >> 16) & 3u;
                for (size_t i = 0; i < n; i++) {
                        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                        /* mostly the alphabet, so that long valid prefixes are common */
                        s[i] = (x & 7) != 0 ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(x >> 8) % 64]
                                            : pool[(x >> 8) % (sizeof(pool) - 1)];
                }
                memset(a, 0xaa, sizeof(a));
                memset(b, 0xaa, sizeof(b));
                ga = prc_b64_decode(s, n, a, cap, flags, &pa);
                gb = b64_oracle(s, n, b, cap, flags, &pb);
                if (ga != gb || pa != pb || (ga > 0 && memcmp(a, b, (size_t)ga) != 0)) {
                        T_EQ_INT(ga, gb);
                        T_EQ_INT(pa, pb);
                        T_EQ_MEM(a, ga > 0 ? (size_t)ga : 0, b, gb > 0 ? (size_t)gb : 0);
                }
        }
}

static void test_sig__valid_signature_verifies_and_names_the_store_publisher(void)
{
        t_key k;
        prc_trust_store *ts;
        prc_sig_info info;
        prc_err err;
        json_t *doc;

        t_key_new(&k);
        ts = store1(&k, "[\"registry\"]");
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
        prc_err_init(&err);
        T_ASSERT(prc_sig_verify_doc(doc, ts, PRC_SIG_REGISTRY, DA, &info, &err));
        T_NOERR(err);
        T_EQ_STR(info.publisher_id, "example.org");
        T_EQ_STR(info.key_sha256, k.key_sha256);
        T_EQ_STR(info.signed_sha256, DA);
        T_EQ_INT(info.scope, PRC_SIG_REGISTRY);
        json_decref(doc);
        prc_trust_free(ts);
        t_key_free(&k);
}

static void test_sig__key_not_in_store_is_unknown_key(void)
{
        t_key signer, other;
        json_t *doc;

        t_key_new(&signer);
        t_key_new(&other);
        doc = t_sig_doc(&signer, PRC_SIG_REGISTRY, DA);
        T_EQ_INT(verify(&other, "[\"registry\",\"manifest\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_UNKNOWN_KEY);
        /* A file that names a store key but was signed by another key fails the crypto. */
        set_str(doc, "key_sha256", other.key_sha256);
        T_EQ_INT(verify(&other, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_INVALID);
        json_decref(doc);
        t_key_free(&signer);
        t_key_free(&other);
}

static void test_sig__scope_the_key_may_not_sign_is_refused(void)
{
        t_key k;
        json_t *doc;

        t_key_new(&k);
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
        T_EQ_INT(verify(&k, "[\"manifest\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_SCOPE_NOT_ALLOWED);
        T_EQ_INT(verify(&k, "[\"manifest\",\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_OK);
        json_decref(doc);
        t_key_free(&k);
}

static void test_sig__replay_across_scope_fails(void)
{
        t_key k;
        json_t *doc;

        t_key_new(&k);
        /* Made as a manifest signature over the same digest, presented for a registry. */
        doc = t_sig_doc(&k, PRC_SIG_MANIFEST, DA);
        T_EQ_INT(verify(&k, "[\"registry\",\"manifest\"]", doc, PRC_SIG_MANIFEST, DA), PRC_E_OK);
        T_EQ_INT(verify(&k, "[\"registry\",\"manifest\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_SCOPE_MISMATCH);
        /* Rewriting the claim does not help: the message prc verifies carries the scope. */
        set_str(doc, "scope", "registry");
        T_EQ_INT(verify(&k, "[\"registry\",\"manifest\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_INVALID);
        set_str(doc, "scope", "catalog");
        T_EQ_INT(verify(&k, "[\"registry\",\"manifest\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_SCOPE_MISMATCH);
        json_decref(doc);
        t_key_free(&k);
}

static void test_sig__replay_across_objects_fails(void)
{
        t_key k;
        json_t *doc;

        t_key_new(&k);
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DB);
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_DIGEST_MISMATCH);
        set_str(doc, "signed_sha256", DA);
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_INVALID);
        json_decref(doc);
        t_key_free(&k);
}

static void test_sig__malformed_documents_are_malformed(void)
{
        static const char *const bad_fields[][2] = {
                { "schema", "prc.signature/v2" },
                { "signed_sha256", "AAAA" },
                { "key_sha256", "" },
                { "signature", "!!!!" },
                { "signature", "AAAA====" },
        };
        t_key k;
        json_t *doc;
        uint8_t big[PRC_ED25519_SIG_LEN + 3] = { 0 };

        t_key_new(&k);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad_fields); i++) {
                doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
                set_str(doc, bad_fields[i][0], bad_fields[i][1]);
                T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_MALFORMED);
                json_decref(doc);
        }
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
        T_ASSERT(json_object_set_new(doc, "trusted", json_true()) == 0);
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_MALFORMED);
        json_object_del(doc, "trusted");
        json_object_del(doc, "key_sha256");
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_MALFORMED);
        json_decref(doc);
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
        set_str(doc, "signature", t_b64(big, sizeof(big)));
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_MALFORMED);
        json_decref(doc);
        doc = json_pack("[s]", "not an object");
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_MALFORMED);
        json_decref(doc);
        t_key_free(&k);
}

static void test_sig__truncated_signature_is_truncated(void)
{
        t_key k;
        json_t *doc;
        uint8_t sig[PRC_ED25519_SIG_LEN];
        char cut[128];

        t_key_new(&k);
        t_key_sign(&k, PRC_SIG_REGISTRY, DA, sig);
        doc = t_sig_doc(&k, PRC_SIG_REGISTRY, DA);
        set_str(doc, "signature", t_b64(sig, 63));
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_TRUNCATED);
        set_str(doc, "signature", "");
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_TRUNCATED);
        /* The base64 text itself cut mid-group. */
        snprintf(cut, sizeof(cut), "%.82s", t_b64(sig, sizeof(sig)));
        set_str(doc, "signature", cut);
        T_EQ_INT(verify(&k, "[\"registry\"]", doc, PRC_SIG_REGISTRY, DA), PRC_E_SIG_TRUNCATED);
        json_decref(doc);
        t_key_free(&k);
}

static void test_sig__flipped_bit_is_invalid(void)
{
        t_key k;
        prc_err err;
        uint8_t sig[PRC_ED25519_SIG_LEN];

        t_key_new(&k);
        t_key_sign(&k, PRC_SIG_MANIFEST, DA, sig);
        prc_err_init(&err);
        T_ASSERT(prc_sig_verify_raw(k.pub, PRC_SIG_MANIFEST, DA, sig, sizeof(sig), &err));
        for (size_t i = 0; i < sizeof(sig); i += 7) {
                sig[i] ^= 0x10;
                prc_err_init(&err);
                T_ASSERT(!prc_sig_verify_raw(k.pub, PRC_SIG_MANIFEST, DA, sig, sizeof(sig), &err));
                T_ERR(err, PRC_E_SIG_INVALID);
                sig[i] ^= 0x10;
        }
        prc_err_init(&err);
        T_ASSERT(!prc_sig_verify_raw(k.pub, PRC_SIG_MANIFEST, DA, sig, 10, &err));
        T_ERR(err, PRC_E_SIG_TRUNCATED);
        t_key_free(&k);
}

static void test_sig__signature_file_that_is_not_a_document_is_malformed(void)
{
        t_key k;
        prc_trust_store *ts;
        prc_sig_info info;
        prc_err err;
        const char *p;
        char path[4200];

        t_key_new(&k);
        ts = store1(&k, "[\"registry\"]");
        p = t_write(t_tmpdir(), "sig.json", "{\"schema\":", 10);
        prc_err_init(&err);
        T_ASSERT(!prc_sig_verify_file(p, ts, PRC_SIG_REGISTRY, DA, &info, &err));
        T_ERR(err, PRC_E_SIG_MALFORMED);
        T_EQ_STR(err.file, p);
        snprintf(path, sizeof(path), "%s/absent.json", t_tmpdir());
        prc_err_init(&err);
        T_ASSERT(!prc_sig_verify_file(path, ts, PRC_SIG_REGISTRY, DA, &info, &err));
        T_ERR(err, PRC_E_IO);
        prc_trust_free(ts);
        t_key_free(&k);
}

static prc_errclass store_err(const char *json)
{
        prc_err err;
        json_error_t je;
        json_t *d = json_loads(json, 0, &je);
        prc_trust_store *ts;

        if (d == NULL)
                t_fail(__FILE__, __LINE__, "bad test json: %s", je.text);
        prc_err_init(&err);
        ts = prc_trust_from_doc(d, &err);
        T_EQ_INT(ts == NULL, err.cls != PRC_E_OK);
        prc_trust_free(ts);
        json_decref(d);
        return err.cls;
}

static void test_sig__trust_store_rejections_have_their_own_class(void)
{
        t_key a, b;
        char j[2048];
        uint8_t short_key[31] = { 1 };

        t_key_new(&a);
        t_key_new(&b);
#define STORE(...) (snprintf(j, sizeof(j), __VA_ARGS__), store_err(j))
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]}]}", a.pub_b64), PRC_E_OK);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[]}"), PRC_E_OK);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v2\",\"publishers\":[]}"), PRC_E_INVALID_VALUE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[],\"default\":true}"), PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\"}"), PRC_E_MISSING_FIELD);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]},{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]}]}", a.pub_b64, b.pub_b64),
                 PRC_E_TRUST_DUPLICATE_PUBLISHER);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]},{\"id\":\"q\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"manifest\"]}]}]}", a.pub_b64, a.pub_b64),
                 PRC_E_TRUST_DUPLICATE_KEY);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]}]}", t_b64(short_key, 31)),
                 PRC_E_TRUST_BAD_KEY);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"not base64\",\"scopes\":[\"registry\"]}]}]}"), PRC_E_TRUST_BAD_KEY);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"catalog\"]}]}]}", a.pub_b64), PRC_E_TRUST_UNKNOWN_SCOPE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\",\"registry\"]}]}]}", a.pub_b64),
                 PRC_E_TRUST_UNKNOWN_SCOPE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[]}]}]}", a.pub_b64), PRC_E_INVALID_VALUE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":[]}]}"),
                 PRC_E_INVALID_VALUE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"bad id\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"]}]}]}", a.pub_b64), PRC_E_INVALID_VALUE);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[\"registry\"],\"trust\":\"first-party\"}]}]}",
                       a.pub_b64), PRC_E_UNKNOWN_FIELD);
        T_EQ_INT(STORE("{\"schema\":\"prc.trust-store/v1\",\"publishers\":[{\"id\":\"p\",\"keys\":"
                       "[{\"public_key\":\"%s\",\"scopes\":[1]}]}]}", a.pub_b64), PRC_E_WRONG_TYPE);
#undef STORE
        {
                /* 17 keys for one publisher: over the limit (each key distinct, so only the count is wrong). */
                json_t *keys = json_array(), *d;
                prc_trust_store *ts;
                prc_err err;
                for (int i = 0; i <= PRC_TRUST_KEYS_MAX; i++) {
                        t_key k;
                        t_key_new(&k);
                        json_array_append_new(keys, json_pack("{s:s,s:[s]}", "public_key", k.pub_b64, "scopes",
                                                              "registry"));
                        t_key_free(&k);
                }
                d = json_pack("{s:s,s:[{s:s,s:o}]}", "schema", "prc.trust-store/v1", "publishers", "id", "p", "keys",
                              keys);
                prc_err_init(&err);
                ts = prc_trust_from_doc(d, &err);
                T_ASSERT(ts == NULL);
                T_ERR(err, PRC_E_INVALID_VALUE);
                T_EQ_STR(err.ptr, "/publishers/0/keys");
                json_decref(d);
        }
        t_key_free(&a);
        t_key_free(&b);
}

static void test_sig__trust_store_finds_keys_by_fingerprint(void)
{
        t_key a, b;
        prc_trust_store *ts;
        const prc_trust_key *k;

        t_key_new(&a);
        t_key_new(&b);
        ts = store1(&a, "[\"manifest\",\"registry\"]");
        T_EQ_INT(prc_trust_nkeys(ts), 1);
        k = prc_trust_find(ts, a.key_sha256);
        T_ASSERT(k != NULL && k == prc_trust_key_at(ts, 0));
        T_EQ_STR(k->publisher_id, "example.org");
        T_EQ_INT(k->scopes, PRC_SIG_SCOPES_ALL);
        T_EQ_MEM(k->pub, sizeof(k->pub), a.pub, sizeof(a.pub));
        T_ASSERT(prc_trust_find(ts, b.key_sha256) == NULL);
        T_ASSERT(prc_trust_key_at(ts, 1) == NULL);
        prc_trust_free(ts);
        t_key_free(&a);
        t_key_free(&b);
}

static const prc_test tests[] = {
        T(test_sig__message_is_prefix_scope_digest),
        T(test_sig__base64_is_strict),
        T(test_sig__base64_decoder_equals_the_per_character_rule),
        T(test_sig__valid_signature_verifies_and_names_the_store_publisher),
        T(test_sig__key_not_in_store_is_unknown_key),
        T(test_sig__scope_the_key_may_not_sign_is_refused),
        T(test_sig__replay_across_scope_fails),
        T(test_sig__replay_across_objects_fails),
        T(test_sig__malformed_documents_are_malformed),
        T(test_sig__truncated_signature_is_truncated),
        T(test_sig__flipped_bit_is_invalid),
        T(test_sig__signature_file_that_is_not_a_document_is_malformed),
        T(test_sig__trust_store_rejections_have_their_own_class),
        T(test_sig__trust_store_finds_keys_by_fingerprint),
};
PRC_SUITE(sig, tests)
