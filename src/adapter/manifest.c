/*
 * manifest.c - adapter capability manifest loader (see manifest.h and
 * docs/adapter-manifest.md).
 *
 * Trust: the file is operator input but never self-trusting.  Everything is
 * checked against a closed field table per schema version; a field that
 * would let the manifest raise its own trust or take evaluator authority is
 * authority-claim.  Archived versions (v0.1-v0.3) load only for reading old
 * records; asking for one to execute or validate new output is
 * manifest-archived.  The identity is the canonical digest of the document.
 */
#include "adapter/manifest.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/authority.h"
#include "adapter/engine_api.h"
#include "adapter/grammar.h"
#include "base/doc.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"

/*
 * Maxima: generous for real analyzers (Grype against a 2 GiB database needs
 * about 4 GiB of memory and minutes of wall time), small enough that one
 * adapter cannot exhaust a CI host.  The stdout ceiling fits a 100,000
 * observation transcript with room to spare.
 */
const prc_manifest_limits prc_manifest_limits_max = {
        .wall_seconds = 3600,                   /* one hour: a scan, not a batch job */
        .memory_bytes = 16ull << 30,
        .cpus_millis  = 16000,
        .pids         = 4096,
        .nofile       = 65536,
        .tmpfs_bytes  = 4ull << 30,             /* the snapshot's own safety ceiling */
        .stdin_bytes  = 64ull << 20,
        .stdout_bytes = 1ull << 30,
        .stderr_bytes = 16ull << 20,
        .line_bytes   = 16ull << 20,
        .messages     = 1000000,
};

const prc_manifest_limits prc_manifest_limits_min = {
        .wall_seconds = 1,
        .memory_bytes = 1ull << 20,
        .cpus_millis  = 10,
        .pids         = 1,
        .nofile       = 3,                      /* stdin, stdout, stderr */
        .tmpfs_bytes  = 0,
        .stdin_bytes  = 1,
        .stdout_bytes = 1,
        .stderr_bytes = 0,
        .line_bytes   = 1,
        .messages     = 1,
};

/* Data directories: a vulnerability database is a few GiB in ~100k files. */
enum { DATA_MAX = 16, KINDS_MAX = 256, COMMAND_MAX = 256, TEXT_MAX = 4096 };
#define DATA_BYTES_MAX (64ull << 30)
#define DATA_FILES_MAX 1000000ull

struct prc_manifest {
        json_t              *doc;       /* owned */
        json_t              *empty;     /* owned: [] for arrays an archived version lacks */
        char                 sha[PRC_SHA256_HEX + 1];
        int                  version;
        prc_manifest_limits  lim;
};

/* Protocols and the output schema, tool and version each one binds. */
static const struct proto {
        const char *name, *output_schema, *tool, *tool_version;
} protos[] = {
        { PRC_ADAPTER_PROTOCOL_JSONL, PRC_ADAPTER_MESSAGE_SCHEMA, NULL, NULL },
        { "prc-adapter-gitleaks-json-v1", "gitleaks.report/v8", "gitleaks", "8.30.0" },
        { "prc-adapter-syft-cyclonedx-json-v1", "cyclonedx.json/v1.7", "syft", "1.51.0" },
        { "prc-adapter-grype-json-v1", "grype.report/v6", "grype", "0.116.1" },
};

static const char *const schemas[] = {
        "prc.adapter-manifest/v0.1", "prc.adapter-manifest/v0.2", "prc.adapter-manifest/v0.3",
        PRC_MANIFEST_SCHEMA_V04,
};

#define S PRC_JT_STRING
#define I PRC_JT_INT
#define O PRC_JT_OBJECT
#define A PRC_JT_ARRAY

static const prc_field top_v1[] = {
        { "schema", S, true }, { "adapter_id", S, true }, { "publisher", S, true },
        { "protocol", S, true }, { "tool", O, true }, { "observation_kinds", A, true },
        { "image", S, true }, { "command", A, true }, { "limits", O, true },
};
static const prc_field top_v2[] = {
        { "schema", S, true }, { "adapter_id", S, true }, { "publisher", O, true },
        { "protocol", S, true }, { "output_schema", S, true }, { "engine_api", O, true },
        { "tool", O, true }, { "observation_kinds", A, true }, { "image", O, true },
        { "command", A, true }, { "limits", O, true },
};
static const prc_field top_v3[] = {
        { "schema", S, true }, { "adapter_id", S, true }, { "publisher", O, true },
        { "owner", O, true }, { "protocol", S, true }, { "output_schema", S, true },
        { "engine_api", O, true }, { "tool", O, true }, { "observation_kinds", A, true },
        { "maintenance", S, true }, { "known_limitations", A, true }, { "image", O, true },
        { "command", A, true }, { "limits", O, true },
};
static const prc_field top_v4[] = {
        { "schema", S, true }, { "adapter_id", S, true }, { "publisher", O, true },
        { "owner", O, true }, { "protocol", S, true }, { "output_schema", S, true },
        { "engine_api", O, true }, { "tool", O, true }, { "observation_kinds", A, true },
        { "maintenance", S, true }, { "known_limitations", A, true }, { "image", O, true },
        { "command", A, true }, { "limits", O, true }, { "data", A, false },
};
static const prc_field publisher_f[] = { { "id", S, true }, { "name", S, true } };
static const prc_field owner_f[] = { { "id", S, true }, { "contact", S, true } };
static const prc_field engine_f[] = { { "min", I, true }, { "max", I, true } };
static const prc_field tool_v1[] = { { "name", S, true }, { "version", S, true } };
static const prc_field tool_v3[] = { { "name", S, true }, { "version", S, true }, { "formats", A, true } };
static const prc_field image_f[] = { { "registry", S, true }, { "repository", S, true }, { "digest", S, true } };
static const prc_field data_f[] = { { "name", S, true }, { "max_bytes", I, true }, { "max_files", I, true } };

/* Limits: name, offset, first version that has it. */
static const struct lim_field {
        const char *name;
        size_t      off;
        int         since;
} lim_fields[] = {
#define L(n, v) { #n, offsetof(prc_manifest_limits, n), v }
        L(wall_seconds, 1), L(memory_bytes, 1), L(cpus_millis, 3), L(pids, 2), L(nofile, 3),
        L(tmpfs_bytes, 3), L(stdin_bytes, 3), L(stdout_bytes, 1), L(stderr_bytes, 2),
        L(line_bytes, 2), L(messages, 2),
#undef L
};

#undef S
#undef I
#undef O
#undef A

static bool at(prc_err *err, const char *ptr)
{
        prc_err_set_ptr(err, ptr);
        return false;
}

static const char *str(const json_t *o, const char *k)
{
        const char *s = json_string_value(json_object_get(o, k));
        return s ? s : "";
}

static bool fields(const json_t *o, const char *ptr, const prc_field *f, size_t n, prc_err *err)
{
        return prc_json_fields(o, ptr, f, n, err);
}
#define FIELDS(o, ptr, tbl, err) fields((o), (ptr), (tbl), PRC_ARRAY_LEN(tbl), (err))

static bool check_text(const json_t *v, const char *ptr, prc_err *err)
{
        if (!prc_gram_text(json_string_value(v), json_string_length(v), TEXT_MAX)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "text must be non-empty, at most %d bytes, without control characters",
                            TEXT_MAX);
                return at(err, ptr);
        }
        return true;
}

static bool check_adapter_id(const char *id, prc_err *err)
{
        const char *a = strrchr(id, '@');

        if (a == NULL || !prc_gram_name(id, (size_t)(a - id))) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "adapter_id must be name@version with a lowercase name");
                return at(err, "/adapter_id");
        }
        if (!prc_gram_release(a + 1, strlen(a + 1))) {
                prc_err_set(err, PRC_E_MUTABLE_VERSION, "adapter_id version must be one immutable release");
                return at(err, "/adapter_id");
        }
        return true;
}

static const struct proto *find_proto(const char *name)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(protos); i++)
                if (strcmp(protos[i].name, name) == 0)
                        return &protos[i];
        return NULL;
}

static bool check_string_array(const json_t *a, const char *ptr, bool nonempty, prc_err *err)
{
        size_t i;
        json_t *e;
        char p[128];

        if (nonempty && json_array_size(a) == 0) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "the list must not be empty");
                return at(err, ptr);
        }
        json_array_foreach(a, i, e) {
                snprintf(p, sizeof(p), "%s", ptr);
                prc_jptr_index(p, sizeof(p), i);
                if (!json_is_string(e)) {
                        prc_err_set(err, PRC_E_WRONG_TYPE, "list entries must be strings, got %s",
                                    prc_json_type_name(e));
                        return at(err, p);
                }
                if (!check_text(e, p, err))
                        return false;
                for (size_t j = 0; j < i; j++)
                        if (json_equal(e, json_array_get(a, j))) {
                                prc_err_set(err, PRC_E_INVALID_VALUE, "list entry %zu repeats entry %zu", i, j);
                                return at(err, p);
                        }
        }
        return true;
}

static bool check_kinds(const json_t *a, prc_err *err)
{
        size_t i;
        json_t *e;
        char p[64];

        if (!check_string_array(a, "/observation_kinds", true, err))
                return false;
        if (json_array_size(a) > KINDS_MAX) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "more than %d observation kinds", KINDS_MAX);
                return at(err, "/observation_kinds");
        }
        json_array_foreach(a, i, e) {
                if (!prc_gram_id(json_string_value(e), json_string_length(e))) {
                        snprintf(p, sizeof(p), "/observation_kinds/%zu", i);
                        prc_err_set(err, PRC_E_INVALID_ID, "an observation kind must match [a-z0-9][a-z0-9._:-]{0,127}");
                        return at(err, p);
                }
        }
        return true;
}

/* split: the v0.2+ image object (pointers per part); else the v0.1 string (one pointer). */
static bool check_image_parts(const char *reg, const char *repo, const char *digest, bool split,
                              prc_err *err)
{
        uint8_t raw[PRC_SHA256_LEN];

        if (!prc_gram_registry(reg, strlen(reg))) {
                prc_err_set(err, PRC_E_INVALID_IMAGE_REF, "the image needs an explicit lowercase registry host "
                            "(with a dot, or localhost), optionally with a port");
                return at(err, split ? "/image/registry" : "/image");
        }
        if (!prc_gram_repository(repo, strlen(repo))) {
                prc_err_set(err, PRC_E_INVALID_IMAGE_REF, "the repository must be lowercase path components "
                            "without a tag or digest");
                return at(err, split ? "/image/repository" : "/image");
        }
        if (!prc_digest_parse_prefixed(digest, raw, err))
                return at(err, split ? "/image/digest" : "/image");
        return true;
}

/* v0.1 spelled the image as one reference string "registry/repository@sha256:hex". */
static bool check_image_string(const char *ref, prc_err *err)
{
        const char *at_sign = strchr(ref, '@'), *slash = strchr(ref, '/');
        char reg[256], repo[256];

        if (at_sign == NULL || slash == NULL || slash > at_sign || (size_t)(slash - ref) >= sizeof(reg) ||
            (size_t)(at_sign - slash - 1) >= sizeof(repo)) {
                prc_err_set(err, PRC_E_INVALID_IMAGE_REF, "the image must be registry/repository@sha256:<hex>");
                return at(err, "/image");
        }
        snprintf(reg, sizeof(reg), "%.*s", (int)(slash - ref), ref);
        snprintf(repo, sizeof(repo), "%.*s", (int)(at_sign - slash - 1), slash + 1);
        return check_image_parts(reg, repo, at_sign + 1, false, err);
}

static bool check_command(const json_t *a, prc_err *err)
{
        static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "csh",
                                              "tcsh", "fish", "busybox", "env", "pwsh", "powershell" };
        size_t i;
        json_t *e;
        char p[64];
        const char *argv0, *base;

        if (json_array_size(a) == 0 || json_array_size(a) > COMMAND_MAX) {
                prc_err_set(err, PRC_E_INVALID_COMMAND, "the command must have 1 to %d arguments", COMMAND_MAX);
                return at(err, "/command");
        }
        json_array_foreach(a, i, e) {
                snprintf(p, sizeof(p), "/command/%zu", i);
                if (!json_is_string(e)) {
                        prc_err_set(err, PRC_E_WRONG_TYPE, "command arguments must be strings, got %s",
                                    prc_json_type_name(e));
                        return at(err, p);
                }
                if (!prc_gram_text(json_string_value(e), json_string_length(e), TEXT_MAX)) {
                        prc_err_set(err, PRC_E_INVALID_COMMAND, "a command argument is empty, too long "
                                    "or holds a control character");
                        return at(err, p);
                }
        }
        /* argv, never a shell: a shell would reinterpret every later argument */
        argv0 = json_string_value(json_array_get(a, 0));
        base = strrchr(argv0, '/');
        base = base ? base + 1 : argv0;
        for (i = 0; i < PRC_ARRAY_LEN(shells); i++)
                if (strcmp(base, shells[i]) == 0) {
                        prc_err_set(err, PRC_E_INVALID_COMMAND, "the command runs '%s': argv only, no shell",
                                    shells[i]);
                        return at(err, "/command/0");
                }
        return true;
}

static bool check_limits(prc_manifest *m, const json_t *o, prc_err *err)
{
        prc_field tbl[PRC_ARRAY_LEN(lim_fields)];
        size_t n = 0;
        char p[64];

        for (size_t i = 0; i < PRC_ARRAY_LEN(lim_fields); i++)
                if (m->version >= lim_fields[i].since)
                        tbl[n++] = (prc_field){ lim_fields[i].name, PRC_JT_INT, true };
        if (!fields(o, "/limits", tbl, n, err))
                return false;
        for (size_t i = 0; i < PRC_ARRAY_LEN(lim_fields); i++) {
                const struct lim_field *f = &lim_fields[i];
                uint64_t lo = *(const uint64_t *)((const char *)&prc_manifest_limits_min + f->off);
                uint64_t hi = *(const uint64_t *)((const char *)&prc_manifest_limits_max + f->off);
                json_int_t v;

                if (m->version < f->since)
                        continue;
                v = json_integer_value(json_object_get(o, f->name));
                if (v < 0 || (uint64_t)v < lo || (uint64_t)v > hi) {
                        snprintf(p, sizeof(p), "/limits/%s", f->name);
                        prc_err_set(err, PRC_E_LIMIT_OUT_OF_RANGE, "%s is %lld, allowed %llu..%llu", f->name,
                                    (long long)v, (unsigned long long)lo, (unsigned long long)hi);
                        return at(err, p);
                }
                *(uint64_t *)((char *)&m->lim + f->off) = (uint64_t)v;
        }
        return true;
}

static bool check_data(const json_t *a, prc_err *err)
{
        size_t i;
        json_t *e;
        char p[64];

        if (json_array_size(a) > DATA_MAX) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "more than %d data directories", DATA_MAX);
                return at(err, "/data");
        }
        json_array_foreach(a, i, e) {
                json_int_t b, f;
                const char *name;

                snprintf(p, sizeof(p), "/data/%zu", i);
                if (!FIELDS(e, p, data_f, err))
                        return false;
                name = str(e, "name");
                if (!prc_gram_name(name, strlen(name)) || strlen(name) > 64) {
                        snprintf(p, sizeof(p), "/data/%zu/name", i);
                        prc_err_set(err, PRC_E_INVALID_VALUE, "a data name must match [a-z0-9][a-z0-9._-]{0,63}");
                        return at(err, p);
                }
                for (size_t j = 0; j < i; j++)
                        if (strcmp(name, str(json_array_get(a, j), "name")) == 0) {
                                snprintf(p, sizeof(p), "/data/%zu/name", i);
                                prc_err_set(err, PRC_E_INVALID_VALUE, "data name '%s' is declared twice", name);
                                return at(err, p);
                        }
                b = json_integer_value(json_object_get(e, "max_bytes"));
                f = json_integer_value(json_object_get(e, "max_files"));
                if (b < 1 || (uint64_t)b > DATA_BYTES_MAX) {
                        snprintf(p, sizeof(p), "/data/%zu/max_bytes", i);
                        prc_err_set(err, PRC_E_LIMIT_OUT_OF_RANGE, "max_bytes must be 1..%llu",
                                    (unsigned long long)DATA_BYTES_MAX);
                        return at(err, p);
                }
                if (f < 1 || (uint64_t)f > DATA_FILES_MAX) {
                        snprintf(p, sizeof(p), "/data/%zu/max_files", i);
                        prc_err_set(err, PRC_E_LIMIT_OUT_OF_RANGE, "max_files must be 1..%llu",
                                    (unsigned long long)DATA_FILES_MAX);
                        return at(err, p);
                }
        }
        return true;
}

static bool validate(prc_manifest *m, prc_manifest_use use, prc_err *err)
{
        const json_t *d = m->doc, *v;
        const struct proto *proto;
        const char *schema;
        json_int_t lo, hi;
        bool ok;

        if (!json_is_object(d)) {
                prc_err_set(err, PRC_E_NOT_AN_OBJECT, "a manifest is a mapping, got %s", prc_json_type_name(d));
                return at(err, "/");
        }
        v = json_object_get(d, "schema");
        if (v == NULL) {
                prc_err_set(err, PRC_E_MISSING_FIELD, "missing field 'schema'");
                return at(err, "/schema");
        }
        if (!json_is_string(v)) {
                prc_err_set(err, PRC_E_WRONG_TYPE, "field 'schema' has type %s", prc_json_type_name(v));
                return at(err, "/schema");
        }
        schema = json_string_value(v);
        for (size_t i = 0; i < PRC_ARRAY_LEN(schemas); i++)
                if (strcmp(schema, schemas[i]) == 0)
                        m->version = (int)i + 1;
        if (m->version == 0) {
                prc_err_set(err, PRC_E_UNKNOWN_SCHEMA_VERSION, "unknown manifest schema (known: v0.1 to v0.4)");
                return at(err, "/schema");
        }
        if (use == PRC_MANIFEST_EXECUTE && m->version < 4) {
                prc_err_set(err, PRC_E_MANIFEST_ARCHIVED, "'%s' is archived: it is readable for old records "
                            "only and cannot be used to execute or validate new output; use %s", schemas[m->version - 1],
                            PRC_MANIFEST_SCHEMA_V04);
                return at(err, "/schema");
        }
        /* Before the field table: a self-trust field is an attack, not a typo. */
        if (!prc_authority_scan(d, PRC_AUTH_EVALUATOR | PRC_AUTH_TRUST, false, err))
                return false;
        switch (m->version) {
        case 1: ok = FIELDS(d, "", top_v1, err); break;
        case 2: ok = FIELDS(d, "", top_v2, err); break;
        case 3: ok = FIELDS(d, "", top_v3, err); break;
        default: ok = FIELDS(d, "", top_v4, err); break;
        }
        if (!ok || !check_adapter_id(str(d, "adapter_id"), err))
                return false;
        if (m->version == 1) {
                const char *pub = str(d, "publisher");
                if (!prc_gram_name(pub, strlen(pub))) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "publisher must match [a-z0-9][a-z0-9._-]{0,127}");
                        return at(err, "/publisher");
                }
        } else {
                v = json_object_get(d, "publisher");
                if (!FIELDS(v, "/publisher", publisher_f, err))
                        return false;
                if (!prc_gram_name(str(v, "id"), strlen(str(v, "id")))) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "publisher id must match [a-z0-9][a-z0-9._-]{0,127}");
                        return at(err, "/publisher/id");
                }
                if (!check_text(json_object_get(v, "name"), "/publisher/name", err))
                        return false;
        }
        if (m->version >= 3) {
                v = json_object_get(d, "owner");
                if (!FIELDS(v, "/owner", owner_f, err))
                        return false;
                if (!prc_gram_name(str(v, "id"), strlen(str(v, "id")))) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "owner id must match [a-z0-9][a-z0-9._-]{0,127}");
                        return at(err, "/owner/id");
                }
                if (!check_text(json_object_get(v, "contact"), "/owner/contact", err))
                        return false;
        }
        proto = find_proto(str(d, "protocol"));
        if (proto == NULL) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "unknown protocol (known: %s and the three native protocols)",
                            PRC_ADAPTER_PROTOCOL_JSONL);
                return at(err, "/protocol");
        }
        if (m->version >= 2 && strcmp(str(d, "output_schema"), proto->output_schema) != 0) {
                prc_err_set(err, PRC_E_PROTOCOL_MISMATCH, "protocol %s requires output_schema %s", proto->name,
                            proto->output_schema);
                return at(err, "/output_schema");
        }
        if (m->version >= 2) {
                v = json_object_get(d, "engine_api");
                if (!FIELDS(v, "/engine_api", engine_f, err))
                        return false;
                lo = json_integer_value(json_object_get(v, "min"));
                hi = json_integer_value(json_object_get(v, "max"));
                if (lo < 1 || hi < lo) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "engine_api needs 1 <= min <= max");
                        return at(err, "/engine_api");
                }
                if (use == PRC_MANIFEST_EXECUTE && (lo > PRC_ADAPTER_ENGINE_API || hi < PRC_ADAPTER_ENGINE_API)) {
                        prc_err_set(err, PRC_E_ENGINE_INCOMPATIBLE, "engine_api %lld..%lld does not include "
                                    "this prc's engine API %d", (long long)lo, (long long)hi, PRC_ADAPTER_ENGINE_API);
                        return at(err, "/engine_api");
                }
        }
        v = json_object_get(d, "tool");
        if (m->version >= 3 ? !FIELDS(v, "/tool", tool_v3, err) : !FIELDS(v, "/tool", tool_v1, err))
                return false;
        if (!prc_gram_name(str(v, "name"), strlen(str(v, "name")))) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "tool name must match [a-z0-9][a-z0-9._-]{0,127}");
                return at(err, "/tool/name");
        }
        if (!prc_gram_release(str(v, "version"), strlen(str(v, "version")))) {
                prc_err_set(err, PRC_E_MUTABLE_VERSION, "tool version must be one immutable release, "
                            "not a range, a wildcard or a floating name");
                return at(err, "/tool/version");
        }
        if (m->version >= 3 && !check_string_array(json_object_get(v, "formats"), "/tool/formats", true, err))
                return false;
        if (proto->tool != NULL &&
            (strcmp(str(v, "name"), proto->tool) != 0 || strcmp(str(v, "version"), proto->tool_version) != 0)) {
                prc_err_set(err, PRC_E_PROTOCOL_MISMATCH, "protocol %s accepts only %s %s", proto->name,
                            proto->tool, proto->tool_version);
                return at(err, "/tool");
        }
        if (!check_kinds(json_object_get(d, "observation_kinds"), err))
                return false;
        if (m->version >= 3) {
                const char *mt = str(d, "maintenance");
                if (strcmp(mt, "active") != 0 && strcmp(mt, "maintenance") != 0 && strcmp(mt, "deprecated") != 0) {
                        prc_err_set(err, PRC_E_INVALID_VALUE, "maintenance must be active, maintenance or deprecated");
                        return at(err, "/maintenance");
                }
                if (!check_string_array(json_object_get(d, "known_limitations"), "/known_limitations", false, err))
                        return false;
        }
        if (m->version == 1) {
                if (!check_image_string(str(d, "image"), err))
                        return false;
        } else {
                v = json_object_get(d, "image");
                if (!FIELDS(v, "/image", image_f, err) ||
                    !check_image_parts(str(v, "registry"), str(v, "repository"), str(v, "digest"), true, err))
                        return false;
        }
        if (!check_command(json_object_get(d, "command"), err) ||
            !check_limits(m, json_object_get(d, "limits"), err))
                return false;
        v = json_object_get(d, "data");
        if (v != NULL && !check_data(v, err))
                return false;
        return prc_jcs_digest(d, m->sha, err);
}

prc_manifest *prc_manifest_from_doc(json_t *doc, prc_manifest_use use, prc_err *err)
{
        prc_manifest *m = calloc(1, sizeof(*m));

        if (m == NULL) {
                prc_err_oom(err, "manifest");
                return NULL;
        }
        m->doc = json_incref(doc);
        m->empty = json_array();
        if (m->empty == NULL) {
                prc_err_oom(err, "manifest");
                prc_manifest_free(m);
                return NULL;
        }
        if (!validate(m, use, err)) {
                prc_manifest_free(m);
                return NULL;
        }
        return m;
}

prc_manifest *prc_manifest_parse(const uint8_t *p, size_t n, prc_manifest_use use, prc_err *err)
{
        prc_doc_format fmt = PRC_DOC_YAML;
        prc_manifest *m;
        json_t *doc;
        size_t i = 0;

        /* A document that opens with '{' is JSON (a YAML flow mapping reads the same). */
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
                i++;
        if (i < n && p[i] == '{')
                fmt = PRC_DOC_JSON;
        doc = prc_doc_parse(p, n, fmt, &prc_limits_operator, err);
        if (doc == NULL)
                return NULL;
        m = prc_manifest_from_doc(doc, use, err);
        json_decref(doc);
        return m;
}

prc_manifest *prc_manifest_load(const char *path, prc_manifest_use use, prc_err *err)
{
        prc_buf b;
        prc_manifest *m = NULL;

        prc_buf_init(&b, prc_limits_operator.input_max);
        if (prc_file_read(path, prc_limits_operator.input_max, PRC_FILE_NOFOLLOW, &b, err))
                m = prc_manifest_parse(b.data ? b.data : (const uint8_t *)"", b.len, use, err);
        prc_buf_clear(&b);
        if (m == NULL)
                prc_err_set_file(err, path);
        return m;
}

void prc_manifest_free(prc_manifest *m)
{
        if (m == NULL)
                return;
        json_decref(m->doc);
        json_decref(m->empty);
        free(m);
}

const char *prc_manifest_sha256(const prc_manifest *m) { return m->sha; }
const char *prc_manifest_schema(const prc_manifest *m) { return str(m->doc, "schema"); }
const char *prc_manifest_adapter_id(const prc_manifest *m) { return str(m->doc, "adapter_id"); }
int prc_manifest_version(const prc_manifest *m) { return m->version; }
const json_t *prc_manifest_doc(const prc_manifest *m) { return m->doc; }
const prc_manifest_limits *prc_manifest_limits_of(const prc_manifest *m) { return &m->lim; }
const char *prc_manifest_protocol(const prc_manifest *m) { return str(m->doc, "protocol"); }
const char *prc_manifest_output_schema(const prc_manifest *m) { return str(m->doc, "output_schema"); }
const char *prc_manifest_maintenance(const prc_manifest *m) { return str(m->doc, "maintenance"); }

const char *prc_manifest_publisher_id(const prc_manifest *m)
{
        const json_t *p = json_object_get(m->doc, "publisher");

        return json_is_string(p) ? json_string_value(p) : str(p, "id");
}

const char *prc_manifest_publisher_name(const prc_manifest *m)
{
        return str(json_object_get(m->doc, "publisher"), "name");
}

const char *prc_manifest_owner_id(const prc_manifest *m) { return str(json_object_get(m->doc, "owner"), "id"); }
const char *prc_manifest_owner_contact(const prc_manifest *m)
{
        return str(json_object_get(m->doc, "owner"), "contact");
}

int64_t prc_manifest_engine_min(const prc_manifest *m)
{
        return json_integer_value(json_object_get(json_object_get(m->doc, "engine_api"), "min"));
}

int64_t prc_manifest_engine_max(const prc_manifest *m)
{
        return json_integer_value(json_object_get(json_object_get(m->doc, "engine_api"), "max"));
}

const char *prc_manifest_tool_name(const prc_manifest *m) { return str(json_object_get(m->doc, "tool"), "name"); }
const char *prc_manifest_tool_version(const prc_manifest *m)
{
        return str(json_object_get(m->doc, "tool"), "version");
}

static const json_t *array_or_empty(const prc_manifest *m, const json_t *a)
{
        return json_is_array(a) ? a : m->empty;
}

const json_t *prc_manifest_tool_formats(const prc_manifest *m)
{
        return array_or_empty(m, json_object_get(json_object_get(m->doc, "tool"), "formats"));
}

const json_t *prc_manifest_known_limitations(const prc_manifest *m)
{
        return array_or_empty(m, json_object_get(m->doc, "known_limitations"));
}

size_t prc_manifest_kind_count(const prc_manifest *m)
{
        return json_array_size(json_object_get(m->doc, "observation_kinds"));
}

const char *prc_manifest_kind_at(const prc_manifest *m, size_t i)
{
        return json_string_value(json_array_get(json_object_get(m->doc, "observation_kinds"), i));
}

bool prc_manifest_declares_kind(const prc_manifest *m, const char *kind)
{
        size_t i;
        json_t *e;

        json_array_foreach(json_object_get(m->doc, "observation_kinds"), i, e) {
                if (strcmp(json_string_value(e), kind) == 0)
                        return true;
        }
        return false;
}

/* Parts of the v0.2+ image object; "" for a v0.1 reference string. */
static const char *image_part(const prc_manifest *m, const char *k)
{
        const json_t *img = json_object_get(m->doc, "image");

        return json_is_object(img) ? str(img, k) : "";
}

const char *prc_manifest_image_registry(const prc_manifest *m) { return image_part(m, "registry"); }
const char *prc_manifest_image_repository(const prc_manifest *m) { return image_part(m, "repository"); }
const char *prc_manifest_image_digest(const prc_manifest *m) { return image_part(m, "digest"); }

bool prc_manifest_image_ref(const prc_manifest *m, char *out, size_t cap, prc_err *err)
{
        const json_t *img = json_object_get(m->doc, "image");
        int n;

        if (json_is_string(img))
                n = snprintf(out, cap, "%s", json_string_value(img));
        else
                n = snprintf(out, cap, "%s/%s@%s", str(img, "registry"), str(img, "repository"),
                             str(img, "digest"));
        if (n < 0 || (size_t)n >= cap)
                return prc_err_set(err, PRC_E_BUFFER_LIMIT, "image reference longer than %zu bytes", cap);
        return true;
}

size_t prc_manifest_command_len(const prc_manifest *m)
{
        return json_array_size(json_object_get(m->doc, "command"));
}

const char *prc_manifest_command_arg(const prc_manifest *m, size_t i)
{
        return json_string_value(json_array_get(json_object_get(m->doc, "command"), i));
}

size_t prc_manifest_data_count(const prc_manifest *m)
{
        return json_array_size(json_object_get(m->doc, "data"));
}

bool prc_manifest_data_at(const prc_manifest *m, size_t i, prc_manifest_data *out)
{
        const json_t *e = json_array_get(json_object_get(m->doc, "data"), i);

        if (e == NULL)
                return false;
        out->name = str(e, "name");
        out->max_bytes = (uint64_t)json_integer_value(json_object_get(e, "max_bytes"));
        out->max_files = (uint64_t)json_integer_value(json_object_get(e, "max_files"));
        return true;
}

bool prc_manifest_data_find(const prc_manifest *m, const char *name, prc_manifest_data *out)
{
        for (size_t i = 0; i < prc_manifest_data_count(m); i++) {
                prc_manifest_data d;
                if (prc_manifest_data_at(m, i, &d) && strcmp(d.name, name) == 0) {
                        *out = d;
                        return true;
                }
        }
        return false;
}
