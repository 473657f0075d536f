/*
 * record.c - execution records: seal (v0.3), strict check (v0.1-v0.3),
 * load, and the evidence door that stays shut.
 * Trust: records read back are untrusted; every field is checked.
 */
#include "adapter/record.h"

#include <string.h>

#include "adapter/resolution.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "base/testkeep.h"

/* Fields common to every version; the version tables below add to them. */
#define RECORD_V01_FIELDS                                                                         \
        { "schema", PRC_JT_STRING, true }, { "id", PRC_JT_STRING, false },                        \
        { "adapter_id", PRC_JT_STRING, true }, { "manifest_sha256", PRC_JT_STRING, true },        \
        { "inventory_digest", PRC_JT_STRING, true }, { "snapshot_sha256", PRC_JT_STRING, true },  \
        { "plan_sha256", PRC_JT_STRING, true }, { "runtime", PRC_JT_OBJECT, true },               \
        { "image", PRC_JT_STRING, true }, { "limits", PRC_JT_OBJECT, true },                      \
        { "disposition", PRC_JT_STRING, true }, { "error_class", PRC_JT_STRING | PRC_JT_NULL, true }, \
        { "exit_status", PRC_JT_INT | PRC_JT_NULL, true }, { "timed_out", PRC_JT_BOOL, true },    \
        { "summary_status", PRC_JT_STRING | PRC_JT_NULL, true },                                  \
        { "observations", PRC_JT_ARRAY, true }, { "stdout", PRC_JT_OBJECT, true },                \
        { "stderr", PRC_JT_OBJECT, true }
#define RECORD_V02_FIELDS RECORD_V01_FIELDS, { "resolution", PRC_JT_OBJECT, true }, \
        { "artifacts", PRC_JT_ARRAY, true }
#define RECORD_V03_FIELDS RECORD_V02_FIELDS, { "data_inputs", PRC_JT_ARRAY, true }, \
        { "snapshot", PRC_JT_OBJECT, true }

static const prc_field v01_fields[] = { RECORD_V01_FIELDS };
static const prc_field v02_fields[] = { RECORD_V02_FIELDS };
static const prc_field v03_fields[] = { RECORD_V03_FIELDS };

static const prc_field runtime_fields[] = {
        { "kind", PRC_JT_STRING, true }, { "version", PRC_JT_STRING, true }, { "sha256", PRC_JT_STRING, true },
};
static const prc_field stream_fields[] = {
        { "bytes", PRC_JT_INT, true }, { "sha256", PRC_JT_STRING, true },
};
static const prc_field obs_fields[] = {
        { "id", PRC_JT_STRING, true }, { "kind", PRC_JT_STRING, true }, { "outcome", PRC_JT_STRING, true },
        { "locations", PRC_JT_ARRAY, true }, { "value", PRC_JT_ANY, true },
};
static const prc_field data_fields[] = {
        { "name", PRC_JT_STRING, true }, { "sha256", PRC_JT_STRING, true }, { "files", PRC_JT_INT, true },
        { "bytes", PRC_JT_INT, true }, { "destination", PRC_JT_STRING, true },
};
static const prc_field snap_fields[] = {
        { "sha256", PRC_JT_STRING, true }, { "files", PRC_JT_INT, true }, { "bytes", PRC_JT_INT, true },
};

static bool digest_at(const json_t *o, const char *key, const char *ptr, prc_err *err)
{
        const char *s = json_string_value(json_object_get(o, key));
        if (s == NULL || !prc_digest_valid(s)) {
                char p[128];
                snprintf(p, sizeof(p), "%s/%s", ptr, key);
                prc_err_set(err, PRC_E_INVALID_DIGEST, "'%s' is not 64 lowercase hex", key);
                prc_err_set_ptr(err, p);
                return false;
        }
        return true;
}

/*
 * REGISTRY/PATH@sha256:<64 hex>, the schema's pattern: a record names the exact image it ran, so a
 * record of a tag or a short digest is refused whatever its version.
 */
static bool image_pinned(const char *s, prc_err *err)
{
        const char *at = strchr(s, '@'), *slash = strchr(s, '/');

        if (slash == NULL || slash == s || at == NULL || at < slash + 2 || strchr(at + 1, '@') != NULL ||
            strncmp(at, "@sha256:", 8) != 0 || !prc_digest_valid(at + 8)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "the image is not pinned as REGISTRY/PATH@sha256:<64 hex>");
                prc_err_set_ptr(err, "/image");
                return false;
        }
        return true;
}

static bool nonneg(const json_t *o, const char *key, prc_err *err)
{
        if (json_integer_value(json_object_get(o, key)) < 0)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "'%s' is negative", key);
        return true;
}

static bool check_list(const json_t *a, const char *ptr, const prc_field *f, size_t nf, prc_err *err)
{
        size_t i;
        json_t *v;
        json_array_foreach(a, i, v) {
                char p[128];
                snprintf(p, sizeof(p), "%s/%zu", ptr, i);
                if (!prc_json_fields(v, p, f, nf, err))
                        return false;
        }
        return true;
}

bool prc_record_check(const json_t *rec, bool check_id, int *out_version, prc_err *err)
{
        const char *schema = json_string_value(json_object_get(rec, "schema"));
        const prc_field *f;
        size_t nf;
        int ver;

        if (!json_is_object(rec))
                return prc_err_set(err, PRC_E_NOT_AN_OBJECT, "an execution record is a JSON object");
        if (schema == NULL)
                return prc_err_set(err, PRC_E_MISSING_FIELD, "record has no 'schema'");
        if (strcmp(schema, PRC_RECORD_SCHEMA_V01) == 0) {
                f = v01_fields, nf = PRC_ARRAY_LEN(v01_fields), ver = 1;
        } else if (strcmp(schema, PRC_RECORD_SCHEMA_V02) == 0) {
                f = v02_fields, nf = PRC_ARRAY_LEN(v02_fields), ver = 2;
        } else if (strcmp(schema, PRC_RECORD_SCHEMA_V03) == 0) {
                f = v03_fields, nf = PRC_ARRAY_LEN(v03_fields), ver = 3;
        } else {
                return prc_err_set(err, PRC_E_UNKNOWN_SCHEMA_VERSION, "not an execution record schema prc reads");
        }
        if (!prc_json_fields(rec, "", f, nf, err))
                return false;
        if (!digest_at(rec, "manifest_sha256", "", err) || !digest_at(rec, "inventory_digest", "", err) ||
            !digest_at(rec, "snapshot_sha256", "", err) || !digest_at(rec, "plan_sha256", "", err))
                return false;
        if (!image_pinned(json_string_value(json_object_get(rec, "image")), err))
                return false;
        const json_t *rt = json_object_get(rec, "runtime");
        if (!prc_json_fields(rt, "/runtime", runtime_fields, PRC_ARRAY_LEN(runtime_fields), err) ||
            !digest_at(rt, "sha256", "/runtime", err))
                return false;
        const char *kind = json_string_value(json_object_get(rt, "kind"));
        if (strcmp(kind, "docker") != 0 && strcmp(kind, "podman") != 0)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "runtime kind is not docker or podman");
        const char *disp = json_string_value(json_object_get(rec, "disposition"));
        bool accepted = strcmp(disp, "accepted") == 0;
        if (!accepted && strcmp(disp, "rejected") != 0 && strcmp(disp, "execution-error") != 0)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "disposition is not accepted, rejected or execution-error");
        const json_t *ec = json_object_get(rec, "error_class");
        if (accepted != json_is_null(ec))
                return prc_err_set(err, PRC_E_INVALID_VALUE, "error_class must be null exactly when accepted");
        if (!accepted && json_array_size(json_object_get(rec, "observations")) != 0)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "a record that was not accepted carries no observation");
        static const char *const streams[] = { "stdout", "stderr" };
        for (size_t i = 0; i < 2; i++) {
                char p[16];
                const json_t *s = json_object_get(rec, streams[i]);
                snprintf(p, sizeof(p), "/%s", streams[i]);
                if (!prc_json_fields(s, p, stream_fields, PRC_ARRAY_LEN(stream_fields), err) ||
                    !digest_at(s, "sha256", p, err) || !nonneg(s, "bytes", err))
                        return false;
        }
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)json_object_get(rec, "limits"), k, v) {
                if (!json_is_integer(v) || json_integer_value(v) < 0)
                        return prc_err_set(err, PRC_E_WRONG_TYPE, "limit '%.64s' is not a non-negative integer", k);
        }
        if (!check_list(json_object_get(rec, "observations"), "/observations", obs_fields,
                        PRC_ARRAY_LEN(obs_fields), err))
                return false;
        if (ver >= 2) {
                prc_resolution r;
                if (!prc_resolution_from_json(json_object_get(rec, "resolution"), &r, err))
                        return false;
                if (strcmp(r.manifest_sha256, json_string_value(json_object_get(rec, "manifest_sha256"))) != 0)
                        return prc_err_set(err, PRC_E_INVALID_VALUE, "the resolution grants another manifest digest");
        }
        if (ver >= 3) {
                const json_t *d = json_object_get(rec, "data_inputs");
                size_t i;
                json_t *e;
                if (!check_list(d, "/data_inputs", data_fields, PRC_ARRAY_LEN(data_fields), err))
                        return false;
                json_array_foreach(d, i, e) {
                        if (!digest_at(e, "sha256", "/data_inputs", err))
                                return false;
                }
                const json_t *s = json_object_get(rec, "snapshot");
                if (!prc_json_fields(s, "/snapshot", snap_fields, PRC_ARRAY_LEN(snap_fields), err) ||
                    !digest_at(s, "sha256", "/snapshot", err))
                        return false;
                if (strcmp(json_string_value(json_object_get(s, "sha256")),
                           json_string_value(json_object_get(rec, "snapshot_sha256"))) != 0)
                        return prc_err_set(err, PRC_E_INVALID_VALUE, "snapshot.sha256 differs from snapshot_sha256");
        }
        if (check_id) {
                char want[PRC_SHA256_HEX + 1];
                const char *id = json_string_value(json_object_get(rec, "id"));
                if (id == NULL)
                        return prc_err_set(err, PRC_E_MISSING_FIELD, "record has no 'id'");
                if (!prc_jcs_id(rec, "id", want, err))
                        return false;
                if (strcmp(want, id) != 0)
                        return prc_err_set(err, PRC_E_RECORD_ID_MISMATCH,
                                           "the id is not the digest of the record without its id");
        }
        if (out_version != NULL)
                *out_version = ver;
        return true;
}

bool prc_record_seal(json_t *rec, prc_err *err)
{
        char id[PRC_SHA256_HEX + 1];
        if (!prc_record_check(rec, false, NULL, err))
                return false;
        if (strcmp(json_string_value(json_object_get(rec, "schema")), PRC_RECORD_SCHEMA) != 0)
                return prc_err_set(err, PRC_E_INTERNAL, "only %s records are written", PRC_RECORD_SCHEMA);
        if (!prc_jcs_id(rec, "id", id, err))
                return false;
        if (json_object_set_new(rec, "id", json_string(id)) != 0)
                return prc_err_oom(err, "record id");
        prc_test_keep("record", rec);
        return true;
}

json_t *prc_record_load(const char *path, int *out_version, prc_err *err)
{
        prc_buf b;
        json_t *v = NULL;
        prc_buf_init(&b, PRC_RECORD_MAX_BYTES);
        if (!prc_file_read(path, PRC_RECORD_MAX_BYTES, PRC_FILE_NOFOLLOW, &b, err))
                goto out;
        v = prc_json_parse(b.data, b.len, &prc_limits_default, 0, err);
        if (v == NULL)
                goto out;
        if (!prc_record_check(v, true, out_version, err)) {
                json_decref(v);
                v = NULL;
        }
out:
        if (v == NULL)
                prc_err_set_file(err, path);
        prc_buf_clear(&b);
        return v;
}

bool prc_record_import_evidence(const json_t *rec, prc_err *err)
{
        if (!prc_record_check(rec, true, NULL, err))
                return false;
        return prc_err_set(err, PRC_E_RECORD_NOT_EVIDENCE,
                           "an execution record is not evidence for a new scan: run the adapter in this scan");
}
