/*
 * resolution.c - the trust-grant record both resolution paths produce (see
 * resolution.h).  Trust: engine-side; parsing back is strict because
 * records come from the state directory, which prc does not trust blindly.
 */
#include "adapter/resolution.h"

#include <string.h>

#include "adapter/trust.h"
#include "base/json_strict.h"

static const char *const registry_trusts[] = {
        "first-party-sandboxed", "verified-community", "unverified-community", "local",
};

static bool id_into(char *dst, size_t cap, const char *s, const char *what, prc_err *err)
{
        if (s == NULL || !prc_trust_id_valid(s, strlen(s)) || strlen(s) >= cap)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "%s is not 1-128 of [A-Za-z0-9._:/@+-]", what);
        memcpy(dst, s, strlen(s) + 1);
        return true;
}

bool prc_resolution_local(const char *adapter_id, const char *manifest_sha256, const char *publisher_id,
                          prc_resolution *out, prc_err *err)
{
        prc_resolution r;

        memset(&r, 0, sizeof(r));
        r.grant = PRC_GRANT_LOCAL_EXPLICIT;
        if (!id_into(r.adapter_id, sizeof(r.adapter_id), adapter_id, "adapter id", err) ||
            !id_into(r.publisher_id, sizeof(r.publisher_id), publisher_id, "publisher id", err))
                return false;
        if (manifest_sha256 == NULL || !prc_digest_valid(manifest_sha256))
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "manifest digest is not 64 lowercase hex");
        memcpy(r.manifest_sha256, manifest_sha256, PRC_SHA256_HEX + 1);
        snprintf(r.trust, sizeof(r.trust), "local-explicit");
        *out = r;
        return true;
}

bool prc_resolution_from_manifest(const prc_manifest *m, prc_resolution *out, prc_err *err)
{
        return prc_resolution_local(prc_manifest_adapter_id(m), prc_manifest_sha256(m), prc_manifest_publisher_id(m),
                                    out, err);
}

json_t *prc_resolution_json(const prc_resolution *r, prc_err *err)
{
        json_t *o, *reg;

        if (r->grant == PRC_GRANT_REGISTRY)
                reg = json_pack("{s:s,s:I,s:s}", "registry_id", r->registry_id, "revision",
                                (json_int_t)r->registry_revision, "content_sha256", r->registry_sha256);
        else if (r->grant == PRC_GRANT_LOCAL_EXPLICIT)
                reg = json_null();
        else {
                prc_err_set(err, PRC_E_INTERNAL, "resolution record has no grant");
                return NULL;
        }
        o = reg == NULL ? NULL
                        : json_pack("{s:s,s:s,s:s,s:s,s:s,s:o}", "grant",
                                    r->grant == PRC_GRANT_REGISTRY ? "registry" : "local-explicit", "adapter_id",
                                    r->adapter_id, "manifest_sha256", r->manifest_sha256, "publisher_id",
                                    r->publisher_id, "trust", r->trust, "registry", reg);
        if (o == NULL)
                prc_err_oom(err, "a resolution record");
        return o;
}

static bool bad(prc_err *err, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(err, c, "resolution: %s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

bool prc_resolution_from_json(const json_t *v, prc_resolution *out, prc_err *err)
{
        static const prc_field fields[] = {
                { "grant", PRC_JT_STRING, true },
                { "adapter_id", PRC_JT_STRING, true },
                { "manifest_sha256", PRC_JT_STRING, true },
                { "publisher_id", PRC_JT_STRING, true },
                { "trust", PRC_JT_STRING, true },
                { "registry", PRC_JT_OBJECT | PRC_JT_NULL, true },
        };
        static const prc_field reg_fields[] = {
                { "registry_id", PRC_JT_STRING, true },
                { "revision", PRC_JT_INT, true },
                { "content_sha256", PRC_JT_STRING, true },
        };
        prc_resolution r;
        const char *grant, *trust, *sha;
        const json_t *reg;
        bool known = false;

        if (!prc_json_fields(v, "", fields, PRC_ARRAY_LEN(fields), err))
                return false;
        memset(&r, 0, sizeof(r));
        grant = json_string_value(json_object_get(v, "grant"));
        trust = json_string_value(json_object_get(v, "trust"));
        reg = json_object_get(v, "registry");
        if (!id_into(r.adapter_id, sizeof(r.adapter_id), json_string_value(json_object_get(v, "adapter_id")),
                     "adapter_id", err) ||
            !id_into(r.publisher_id, sizeof(r.publisher_id), json_string_value(json_object_get(v, "publisher_id")),
                     "publisher_id", err))
                return false;
        sha = json_string_value(json_object_get(v, "manifest_sha256"));
        if (!prc_digest_valid(sha))
                return bad(err, PRC_E_INVALID_DIGEST, "/manifest_sha256", "manifest_sha256 is not 64 lowercase hex");
        memcpy(r.manifest_sha256, sha, PRC_SHA256_HEX + 1);
        if (strcmp(grant, "local-explicit") == 0) {
                /* The operator grant never carries a registry trust level, nor a registry. */
                if (strcmp(trust, "local-explicit") != 0)
                        return bad(err, PRC_E_INVALID_VALUE, "/trust", "a local-explicit grant has trust 'local-explicit'");
                if (!json_is_null(reg))
                        return bad(err, PRC_E_INVALID_VALUE, "/registry", "a local-explicit grant has no registry");
                r.grant = PRC_GRANT_LOCAL_EXPLICIT;
        } else if (strcmp(grant, "registry") == 0) {
                for (size_t i = 0; i < PRC_ARRAY_LEN(registry_trusts); i++)
                        known = known || strcmp(trust, registry_trusts[i]) == 0;
                if (!known)
                        return bad(err, PRC_E_INVALID_VALUE, "/trust", "trust is not a registry trust level");
                if (!prc_json_fields(reg, "/registry", reg_fields, PRC_ARRAY_LEN(reg_fields), err))
                        return false;
                if (!id_into(r.registry_id, sizeof(r.registry_id),
                             json_string_value(json_object_get(reg, "registry_id")), "registry_id", err))
                        return false;
                r.registry_revision = json_integer_value(json_object_get(reg, "revision"));
                if (r.registry_revision < 1)
                        return bad(err, PRC_E_INVALID_VALUE, "/registry/revision", "revision must be at least 1");
                sha = json_string_value(json_object_get(reg, "content_sha256"));
                if (!prc_digest_valid(sha))
                        return bad(err, PRC_E_INVALID_DIGEST, "/registry/content_sha256",
                                   "content_sha256 is not 64 lowercase hex");
                memcpy(r.registry_sha256, sha, PRC_SHA256_HEX + 1);
                r.grant = PRC_GRANT_REGISTRY;
        } else {
                return bad(err, PRC_E_INVALID_VALUE, "/grant", "grant is not 'registry' or 'local-explicit'");
        }
        snprintf(r.trust, sizeof(r.trust), "%s", trust);
        *out = r;
        return true;
}

bool prc_resolution_paths_check(size_t n_manifests, const char *registry_path, size_t n_ids, prc_err *err)
{
        if (n_manifests > 0 && registry_path != NULL)
                return prc_err_set(err, PRC_E_USAGE, "--adapter-manifest and --adapter-registry are mutually exclusive");
        if (n_ids > 0 && registry_path == NULL)
                return prc_err_set(err, PRC_E_USAGE, "--adapter-id needs --adapter-registry");
        if (registry_path != NULL && n_ids == 0)
                return prc_err_set(err, PRC_E_USAGE, "--adapter-registry needs at least one --adapter-id");
        return true;
}
