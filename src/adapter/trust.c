/*
 * trust.c - publisher trust store loader (see trust.h).
 * Trust: operator input selected with --trust-store; validated strictly
 * because a mistake here silently widens who may sign what.
 */
#include "adapter/trust.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/crypto.h"
#include "base/doc.h"
#include "base/json_strict.h"
#include "base/limits.h"

struct prc_trust_store {
        prc_trust_key *keys;    /* owned */
        size_t         nkeys;
        char         **ids;     /* owned: publisher ids, each owned; keys[].publisher_id borrows them */
        size_t         nids;
};

bool prc_trust_id_valid(const char *s, size_t n)
{
        if (n == 0 || n > PRC_SIG_ID_MAX || strlen(s) != n)
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      strchr("._:/@+-", c) != NULL))
                        return false;
        }
        return true;
}

void prc_trust_free(prc_trust_store *ts)
{
        if (ts == NULL)
                return;
        for (size_t i = 0; i < ts->nids; i++)
                free(ts->ids[i]);
        free(ts->ids);
        free(ts->keys);
        free(ts);
}

/* out = base + "/" + key, as a JSON pointer (truncated, never overflowing). */
static void jp(char out[128], const char *base, const char *key)
{
        snprintf(out, 128, "%.127s", base);
        prc_jptr_push(out, 128, key);
}

static bool at(prc_err *err, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(err, c, "%s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

static bool load_key(prc_trust_store *ts, const char *pubid, const json_t *kobj, const char *ptr, prc_err *err)
{
        static const prc_field fields[] = {
                { "public_key", PRC_JT_STRING, true },
                { "scopes", PRC_JT_ARRAY, true },
        };
        const json_t *pk, *scopes, *sv;
        prc_trust_key *k = &ts->keys[ts->nkeys];
        char fp[128];
        size_t i;
        bool partial;
        long len;
        const prc_crypto *cr;
        EVP_PKEY *probe;

        if (!prc_json_fields(kobj, ptr, fields, PRC_ARRAY_LEN(fields), err))
                return false;
        pk = json_object_get(kobj, "public_key");
        scopes = json_object_get(kobj, "scopes");
        jp(fp, ptr, "public_key");
        memset(k, 0, sizeof(*k));
        len = prc_b64_decode(json_string_value(pk), json_string_length(pk), k->pub, sizeof(k->pub), 0, &partial);
        if (len != PRC_ED25519_PUB_LEN)
                return at(err, PRC_E_TRUST_BAD_KEY, fp, "public_key is not canonical base64 of a raw 32-byte Ed25519 key");
        /* OpenSSL checks only the length here; the point itself is checked when a signature is verified. */
        cr = prc_crypto_load(err);
        if (cr == NULL)
                return false;
        probe = cr->EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, k->pub, sizeof(k->pub));
        if (probe == NULL)
                return at(err, PRC_E_TRUST_BAD_KEY, fp, "OpenSSL refuses this Ed25519 public key");
        cr->EVP_PKEY_free(probe);
        if (!prc_sha256_hex_once(k->pub, sizeof(k->pub), k->key_sha256, err))
                return false;
        for (size_t j = 0; j < ts->nkeys; j++) {
                if (memcmp(ts->keys[j].pub, k->pub, sizeof(k->pub)) == 0) {
                        prc_err_set(err, PRC_E_TRUST_DUPLICATE_KEY, "key %s is listed twice (also for '%s')",
                                    k->key_sha256, ts->keys[j].publisher_id);
                        prc_err_set_ptr(err, fp);
                        return false;
                }
        }
        jp(fp, ptr, "scopes");
        if (json_array_size(scopes) == 0)
                return at(err, PRC_E_INVALID_VALUE, fp, "a key must be allowed at least one scope");
        json_array_foreach(scopes, i, sv) {
                prc_sig_scope s;
                char ip[128];
                snprintf(ip, sizeof(ip), "%s", fp);
                prc_jptr_index(ip, sizeof(ip), i);
                if (!json_is_string(sv))
                        return at(err, PRC_E_WRONG_TYPE, ip, "a scope must be a string");
                if (!prc_sig_scope_parse(json_string_value(sv), &s))
                        return at(err, PRC_E_TRUST_UNKNOWN_SCOPE, ip, "scope is not 'registry' or 'manifest'");
                if (k->scopes & (unsigned)s)
                        return at(err, PRC_E_TRUST_UNKNOWN_SCOPE, ip, "scope is listed twice");
                k->scopes |= (unsigned)s;
        }
        k->publisher_id = pubid;
        ts->nkeys++;
        return true;
}

prc_trust_store *prc_trust_from_doc(const json_t *doc, prc_err *err)
{
        static const prc_field root_fields[] = {
                { "schema", PRC_JT_STRING, true },
                { "publishers", PRC_JT_ARRAY, true },
        };
        static const prc_field pub_fields[] = {
                { "id", PRC_JT_STRING, true },
                { "keys", PRC_JT_ARRAY, true },
        };
        prc_trust_store *ts = NULL;
        const json_t *pubs, *p;
        size_t i, total = 0;

        if (!prc_json_fields(doc, "", root_fields, PRC_ARRAY_LEN(root_fields), err))
                return NULL;
        if (strcmp(json_string_value(json_object_get(doc, "schema")), PRC_TRUST_SCHEMA) != 0) {
                at(err, PRC_E_INVALID_VALUE, "/schema", "schema is not '" PRC_TRUST_SCHEMA "'");
                return NULL;
        }
        pubs = json_object_get(doc, "publishers");
        if (json_array_size(pubs) > PRC_TRUST_PUBLISHERS_MAX) {
                at(err, PRC_E_INVALID_VALUE, "/publishers", "more publishers than the limit of 256");
                return NULL;
        }
        json_array_foreach(pubs, i, p) {
                /* A publisher over the per-publisher limit fails before any of its keys is stored. */
                const json_t *keys = json_object_get(p, "keys");
                size_t nk = json_is_array(keys) ? json_array_size(keys) : 0;
                total += nk < PRC_TRUST_KEYS_MAX ? nk : PRC_TRUST_KEYS_MAX;
        }
        ts = calloc(1, sizeof(*ts));
        if (ts == NULL)
                goto oom;
        /* Sized from the document up front (bounded by the limits below), so key pointers never move. */
        ts->keys = calloc(total ? total : 1, sizeof(*ts->keys));
        ts->ids = calloc(json_array_size(pubs) ? json_array_size(pubs) : 1, sizeof(*ts->ids));
        if (ts->keys == NULL || ts->ids == NULL)
                goto oom;
        json_array_foreach(pubs, i, p) {
                char ptr[128] = "/publishers", fp[128];
                const json_t *id, *keys, *kobj;
                size_t j;

                prc_jptr_index(ptr, sizeof(ptr), i);
                if (!prc_json_fields(p, ptr, pub_fields, PRC_ARRAY_LEN(pub_fields), err))
                        goto fail;
                id = json_object_get(p, "id");
                keys = json_object_get(p, "keys");
                jp(fp, ptr, "id");
                if (!prc_trust_id_valid(json_string_value(id), json_string_length(id))) {
                        at(err, PRC_E_INVALID_VALUE, fp, "publisher id must be 1-128 of [A-Za-z0-9._:/@+-]");
                        goto fail;
                }
                for (size_t q = 0; q < ts->nids; q++) {
                        if (strcmp(ts->ids[q], json_string_value(id)) == 0) {
                                prc_err_set(err, PRC_E_TRUST_DUPLICATE_PUBLISHER, "publisher '%s' is listed twice",
                                            json_string_value(id));
                                prc_err_set_ptr(err, fp);
                                goto fail;
                        }
                }
                ts->ids[ts->nids] = strdup(json_string_value(id));
                if (ts->ids[ts->nids] == NULL)
                        goto oom;
                ts->nids++;
                jp(fp, ptr, "keys");
                if (json_array_size(keys) == 0 || json_array_size(keys) > PRC_TRUST_KEYS_MAX) {
                        at(err, PRC_E_INVALID_VALUE, fp, "a publisher needs 1 to 16 keys");
                        goto fail;
                }
                json_array_foreach(keys, j, kobj) {
                        char kp[128];
                        snprintf(kp, sizeof(kp), "%s", fp);
                        prc_jptr_index(kp, sizeof(kp), j);
                        if (!load_key(ts, ts->ids[ts->nids - 1], kobj, kp, err))
                                goto fail;
                }
        }
        return ts;
oom:
        prc_err_oom(err, "a trust store");
fail:
        prc_trust_free(ts);
        return NULL;
}

prc_trust_store *prc_trust_load(const char *path, prc_err *err)
{
        json_t *doc = prc_doc_load(path, PRC_DOC_AUTO, &prc_limits_operator, err);
        prc_trust_store *ts;

        if (doc == NULL)
                return NULL;
        ts = prc_trust_from_doc(doc, err);
        if (ts == NULL)
                prc_err_set_file(err, path);
        json_decref(doc);
        return ts;
}

const prc_trust_key *prc_trust_find(const prc_trust_store *ts, const char *key_sha256)
{
        for (size_t i = 0; i < ts->nkeys; i++)
                if (strcmp(ts->keys[i].key_sha256, key_sha256) == 0)
                        return &ts->keys[i];
        return NULL;
}

size_t prc_trust_nkeys(const prc_trust_store *ts)
{
        return ts->nkeys;
}

const prc_trust_key *prc_trust_key_at(const prc_trust_store *ts, size_t i)
{
        return i < ts->nkeys ? &ts->keys[i] : NULL;
}
