/*
 * native.c - the native protocol table (argv, owned files, images) and the
 * helpers the three normalizers share.
 * Trust: the table is ours; manifests are checked against it, never the
 * reverse.  Reports are hostile (see gitleaks.c, syft.c, grype.c).
 */
#include "adapter/native/native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/native/gitleaks.h"
#include "adapter/native/grype.h"
#include "adapter/native/syft.h"
#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "inventory/inventory.h"
#include "inventory/snapshot.h"

#define SNAP PRC_NATIVE_SNAPSHOT_MOUNT

/*
 * Gitleaks: the pinned ruleset arrives on standard input (-c /dev/stdin:
 * read by path as TOML), so a target .gitleaks.toml or GITLEAKS_CONFIG never
 * applies.  Every flag is written --flag=value because gitleaks uses only a
 * single positional argument as PATH and silently scans "." otherwise
 * (FORMATS.md 1.1: "--redact 100 /src" scans the working directory).  The
 * ignore path points at a scanner-owned directory whose .gitleaksignore has
 * only a comment; the target's root .gitleaksignore, which gitleaks always
 * honours, is relocated (its bytes are still scanned, under .prc/).  Log
 * level warn: trace logs print discarded secrets.  Exit 42 = findings, so a
 * scan error (exit 1) stays distinguishable.  --max-target-megabytes=11:
 * gitleaks skips files above N * 1,000,000 bytes, and prc analyzes files up
 * to 10 MiB (10,485,760 bytes), so 10 would leave files prc counts as
 * analyzed unscanned (issue 16); files above 11,000,000 bytes (all of them
 * oversized for prc too) become coverage gaps of the secrets assertion.
 */
static const char *const gitleaks_argv[] = {
        "/usr/bin/gitleaks", "dir",
        "--config=/dev/stdin",
        "--redact=100",
        "--report-format=json",
        "--report-path=-",
        "--gitleaks-ignore-path=" SNAP "/.prc/gitleaks",
        "--ignore-gitleaks-allow",
        "--max-archive-depth=0",
        "--max-decode-depth=0",
        "--max-target-megabytes=11",
        "--exit-code=42",
        "--no-banner",
        "--no-color",
        "--log-level=warn",
        SNAP,
        NULL,
};

static const prc_native_owned gitleaks_owned[] = {
        { ".prc/gitleaks/.gitleaksignore", PRC_GITLEAKS_IGNORE_BYTES, PRC_GITLEAKS_IGNORE_SHA256, NULL },
        { PRC_GITLEAKS_RELOCATED, NULL, NULL, ".gitleaksignore" },
};

/*
 * Syft: explicit -c disables the config-file search (./.syft.yaml, ~, XDG);
 * the runner passes no SYFT_* environment.  .prc/ is excluded from the
 * catalog so scanner-owned files never become components.
 */
static const char *const syft_argv[] = {
        "/syft", "scan", "dir:" SNAP,
        "--config=" SNAP "/.prc/syft/config.yaml",
        "--exclude=./.prc/**",
        "--output=cyclonedx-json@1.7",
        "--quiet",
        NULL,
};

static const prc_native_owned syft_owned[] = {
        { ".prc/syft/config.yaml", PRC_SYFT_CONFIG_BYTES, PRC_SYFT_CONFIG_SHA256, NULL },
};

/* Grype: updates, external sources, ignores, VEX and alerts off in the owned config. */
static const char *const grype_argv[] = {
        "/grype", "dir:" SNAP,
        "--config=" SNAP "/.prc/grype/config.yaml",
        "--exclude=./.prc/**",
        "--output=json",
        "--quiet",
        NULL,
};

static const prc_native_owned grype_owned[] = {
        { ".prc/grype/config.yaml", PRC_GRYPE_CONFIG_BYTES, PRC_GRYPE_CONFIG_SHA256, NULL },
};

static const prc_native_spec specs[] = {
        {
                PRC_NATIVE_GITLEAKS, PRC_NATIVE_PROTOCOL_GITLEAKS, "gitleaks", "8.30.0",
                "ghcr.io", "gitleaks/gitleaks",
                "sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9",
                gitleaks_argv, gitleaks_owned, PRC_ARRAY_LEN(gitleaks_owned), NULL, 0, 42, true,
                "gitleaks.secret", PRC_NATIVE_MT_GITLEAKS_REPORT, PRC_NATIVE_MT_GITLEAKS_NORM, 10000,
                11000000,       /* --max-target-megabytes=11 */
        },
        {
                /* issue 17: the official multi-architecture digest of v1.51.0 (docs/native-protocols.md) */
                PRC_NATIVE_SYFT, PRC_NATIVE_PROTOCOL_SYFT, "syft", "1.51.0", "docker.io", "anchore/syft",
                "sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0",
                syft_argv, syft_owned, PRC_ARRAY_LEN(syft_owned), NULL, 0, 0, false,
                "syft.sbom", PRC_NATIVE_MT_SYFT_REPORT, PRC_NATIVE_MT_CYCLONEDX, 100000, 0,
        },
        {
                /* issue 17: the official multi-architecture digest of v0.116.1 (docs/native-protocols.md) */
                PRC_NATIVE_GRYPE, PRC_NATIVE_PROTOCOL_GRYPE, "grype", "0.116.1", "docker.io", "anchore/grype",
                "sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db",
                grype_argv, grype_owned, PRC_ARRAY_LEN(grype_owned), PRC_NATIVE_GRYPE_DB_DATA, 0, 0, false,
                "grype.vulnerability", PRC_NATIVE_MT_GRYPE_REPORT, PRC_NATIVE_MT_GRYPE_NORM, 100000, 0,
        },
};

static bool command_is(const prc_manifest *m, const prc_native_spec *s, prc_err *err);

const prc_native_spec *prc_native_spec_for(const char *protocol)
{
        size_t i;

        for (i = 0; protocol != NULL && i < PRC_ARRAY_LEN(specs); i++)
                if (strcmp(specs[i].protocol, protocol) == 0)
                        return &specs[i];
        return NULL;
}

const prc_native_spec *prc_native_spec_of(prc_native_proto p)
{
        size_t i;

        for (i = 0; i < PRC_ARRAY_LEN(specs); i++)
                if (specs[i].proto == p)
                        return &specs[i];
        return NULL;
}

bool prc_native_check_manifest(const prc_manifest *m, bool for_execution, prc_err *err)
{
        const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));
        prc_manifest_data d;

        if (s == NULL)
                return prc_err_set(err, PRC_E_NATIVE_UNKNOWN_PROTOCOL, "'%s' is not a native protocol",
                                   prc_manifest_protocol(m));
        if (!command_is(m, s, err))
                return false;
        if (strcmp(prc_manifest_image_registry(m), s->image_registry) != 0 ||
            strcmp(prc_manifest_image_repository(m), s->image_repository) != 0) {
                prc_err_set(err, PRC_E_NATIVE_IMAGE_UNREVIEWED, "image is not %s/%s", s->image_registry,
                            s->image_repository);
                prc_err_set_ptr(err, "/image");
                return false;
        }
        if (s->data != NULL && !prc_manifest_data_find(m, s->data, &d)) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "the %s protocol needs the data directory '%s'", s->protocol,
                            s->data);
                prc_err_set_ptr(err, "/data");
                return false;
        }
        if (s->data == NULL && prc_manifest_data_count(m) != 0) {
                prc_err_set(err, PRC_E_INVALID_VALUE, "the %s protocol takes no data directory", s->protocol);
                prc_err_set_ptr(err, "/data");
                return false;
        }
        if (for_execution && (s->image_digest == NULL || strcmp(prc_manifest_image_digest(m), s->image_digest) != 0)) {
                prc_err_set(err, PRC_E_NATIVE_IMAGE_UNREVIEWED, "%s", s->image_digest == NULL
                                    ? "no image digest has been reviewed for this protocol yet"
                                    : "image digest is not the reviewed one");
                prc_err_set_ptr(err, "/image/digest");
                return false;
        }
        return true;
}

bool prc_native_check_override(const prc_native_spec *s, const char *override, prc_err *err)
{
        if (override == NULL || override[0] == '\0')
                return true;
        if (s->image_digest == NULL || strcmp(override, s->image_digest) != 0)
                return prc_err_set(err, PRC_E_NATIVE_IMAGE_UNREVIEWED,
                                   "test-image override differs from the reviewed %s digest", s->tool);
        return true;
}

/* The argv comparison of prc_native_check_manifest. */
static bool command_is(const prc_manifest *m, const prc_native_spec *s, prc_err *err)
{
        size_t i, n = prc_manifest_command_len(m);

        for (i = 0; s->argv[i] != NULL; i++)
                if (i >= n || strcmp(prc_manifest_command_arg(m, i), s->argv[i]) != 0)
                        break;
        if (s->argv[i] != NULL || i != n) {
                prc_err_set(err, PRC_E_NATIVE_COMMAND_MISMATCH,
                            "command differs from the %s scanner-owned argv at argument %zu", s->protocol, i);
                prc_err_set_ptr(err, "/command");
                return false;
        }
        return true;
}

bool prc_native_check_standin(const prc_manifest *m, const char *standin_digest, prc_err *err)
{
        const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));

        if (s == NULL)
                return prc_err_set(err, PRC_E_NATIVE_UNKNOWN_PROTOCOL, "'%s' is not a native protocol",
                                   prc_manifest_protocol(m));
        if (!command_is(m, s, err))
                return false;
        if (standin_digest == NULL || strcmp(prc_manifest_image_digest(m), standin_digest) != 0)
                return prc_err_set(err, PRC_E_NATIVE_IMAGE_UNREVIEWED,
                                   "the test manifest's image is not the stand-in that was built");
        return true;
}

bool prc_native_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                          prc_native_result *out, prc_err *err)
{
        static const prc_native_ctx none;

        if (ctx == NULL)
                ctx = &none;
        switch (s->proto) {
        case PRC_NATIVE_GITLEAKS: return prc_gitleaks_normalize(s, p, n, ctx, out, err);
        case PRC_NATIVE_SYFT: return prc_syft_normalize(s, p, n, ctx, out, err);
        case PRC_NATIVE_GRYPE: return prc_grype_normalize(s, p, n, ctx, out, err);
        }
        return prc_err_set(err, PRC_E_NATIVE_UNKNOWN_PROTOCOL, "unknown native protocol");
}

void prc_native_result_clear(prc_native_result *r)
{
        if (r == NULL)
                return;
        json_decref(r->observations);
        json_decref(r->report);
        free(r->artifact);
        memset(r, 0, sizeof(*r));
}

json_t *prc_native_result_json(const prc_native_result *r)
{
        return json_pack("{s:O,s:{s:s,s:I,s:s},s:O}", "observations", r->observations, "artifact", "media_type",
                         r->artifact_media_type, "size", (json_int_t)r->artifact_len, "sha256", r->artifact_sha256,
                         "report", r->report);
}

/*
 * Native reports: a Grype report of a large image is tens of MiB (bulk
 * metadata), so 256 MiB bounds one report; depth 64 covers Grype's nested
 * vendor metadata (real reports stay under 12); 20M values bounds the work.
 */
const prc_limits prc_native_limits = {
        .input_max  = 256u << 20,
        .scalar_max = 1u << 20,
        .depth_max  = 64,
        .nodes_max  = 20000000,
        .alias_max  = 0,
        .anchor_max = 0,
        .merge_max  = 0,
        .keys_max   = 100000,
};

bool prc_native_finish(const prc_native_spec *s, const json_t *doc, json_t *observations, const uint8_t *p,
                       size_t n, prc_native_result *out, prc_err *err)
{
        prc_buf b;
        char rsha[PRC_SHA256_HEX + 1];
        size_t len;
        uint8_t *bytes;
        json_t *report;

        prc_buf_init(&b, (size_t)1 << 30);
        if (!prc_jcs_write(doc, &b, err) || !prc_sha256_hex_once(b.data, b.len, out->artifact_sha256, err) ||
            !prc_sha256_hex_once(p, n, rsha, err)) {
                prc_buf_clear(&b);
                return false;
        }
        bytes = prc_buf_take(&b, &len, err);
        prc_buf_clear(&b);
        if (bytes == NULL)
                return false;
        report = json_pack("{s:s,s:I,s:s}", "media_type", s->report_media_type, "size", (json_int_t)n, "sha256", rsha);
        if (report == NULL) {
                free(bytes);
                return prc_err_oom(err, "report descriptor");
        }
        out->observations = json_incref(observations);
        out->artifact = bytes;
        out->artifact_len = len;
        out->artifact_media_type = s->artifact_media_type;
        out->report = report;
        return true;
}

typedef struct keyed {
        uint8_t *k;
        size_t   n;
        json_t  *v;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
        const keyed *x = a, *y = b;
        size_t m = x->n < y->n ? x->n : y->n;
        int c = memcmp(x->k, y->k, m);

        return c != 0 ? c : (x->n > y->n) - (x->n < y->n);
}

bool prc_native_sort(json_t *arr, prc_err *err)
{
        size_t i, n = json_array_size(arr);
        keyed *ks = calloc(n ? n : 1, sizeof(*ks));
        bool ok = false;

        if (ks == NULL)
                return prc_err_oom(err, "sort");
        for (i = 0; i < n; i++) {
                prc_buf b;
                prc_buf_init(&b, 1u << 24);
                ks[i].v = json_incref(json_array_get(arr, i));
                if (!prc_jcs_write(ks[i].v, &b, err)) {
                        prc_buf_clear(&b);
                        goto out;
                }
                ks[i].k = prc_buf_take(&b, &ks[i].n, err);
                prc_buf_clear(&b);
                if (ks[i].k == NULL)
                        goto out;
        }
        qsort(ks, n, sizeof(*ks), keyed_cmp);
        json_array_clear(arr);
        for (i = 0; i < n; i++)
                if (json_array_append(arr, ks[i].v) != 0) {
                        prc_err_oom(err, "sort");
                        goto out;
                }
        ok = true;
out:
        for (i = 0; i < n; i++) {
                free(ks[i].k);
                json_decref(ks[i].v);
        }
        free(ks);
        return ok;
}

static bool digits(const char *s, int n, int *out)
{
        int i, v = 0;

        for (i = 0; i < n; i++) {
                if (s[i] < '0' || s[i] > '9')
                        return false;
                v = v * 10 + (s[i] - '0');
        }
        *out = v;
        return true;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's civil algorithm). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
        int64_t era, yoe, doy, doe;

        y -= m <= 2;
        era = (y >= 0 ? y : y - 399) / 400;
        yoe = y - era * 400;
        doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
}

bool prc_native_time(const char *s, int64_t *out_unix)
{
        static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
        int y, mo, d, h, mi, se, oh = 0, om = 0, sign = 0;
        size_t i;
        int64_t t;

        if (s == NULL || strlen(s) < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) ||
            s[7] != '-' || !digits(s + 8, 2, &d) || s[10] != 'T' || !digits(s + 11, 2, &h) || s[13] != ':' ||
            !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &se))
                return false;
        if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || se > 59 ||
            (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)))
                return false;
        i = 19;
        if (s[i] == '.') {
                size_t k = ++i;
                while (s[i] >= '0' && s[i] <= '9' && i - k < 9)
                        i++;
                if (i == k || (s[i] >= '0' && s[i] <= '9'))
                        return false;
        }
        if (s[i] == 'Z' && s[i + 1] == '\0') {
                sign = 0;
        } else if ((s[i] == '+' || s[i] == '-') && strlen(s + i) == 6 && digits(s + i + 1, 2, &oh) &&
                   s[i + 3] == ':' && digits(s + i + 4, 2, &om) && oh <= 23 && om <= 59) {
                sign = s[i] == '+' ? 1 : -1;
        } else {
                return false;
        }
        t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
        *out_unix = t - sign * (oh * 3600 + om * 60);
        return true;
}

bool prc_native_strings(const json_t *arr, const char *ptr, prc_err *err)
{
        size_t i;
        const json_t *v;

        if (!json_is_array(arr)) {
                prc_err_set(err, PRC_E_WRONG_TYPE, "an array of strings was required");
                prc_err_set_ptr(err, ptr);
                return false;
        }
        json_array_foreach(arr, i, v) {
                if (!json_is_string(v)) {
                        char p[128];
                        snprintf(p, sizeof(p), "%s", ptr);
                        prc_jptr_index(p, sizeof(p), i);
                        prc_err_set(err, PRC_E_WRONG_TYPE, "a string was required");
                        prc_err_set_ptr(err, p);
                        return false;
                }
        }
        return true;
}

/* The PRC_JT_* / PRC_NT_NUMBER bit of a value. */
static unsigned type_bit(const json_t *v)
{
        switch (json_typeof(v)) {
        case JSON_STRING: return PRC_JT_STRING;
        case JSON_INTEGER: return PRC_JT_INT | PRC_NT_NUMBER;
        case JSON_REAL: return PRC_NT_NUMBER;
        case JSON_TRUE:
        case JSON_FALSE: return PRC_JT_BOOL;
        case JSON_OBJECT: return PRC_JT_OBJECT;
        case JSON_ARRAY: return PRC_JT_ARRAY;
        case JSON_NULL: return PRC_JT_NULL;
        }
        return 0;
}

bool prc_native_fields(const json_t *obj, const char *ptr, const prc_field *fields, size_t n, prc_err *err)
{
        const char *k;
        const json_t *v;
        char p[128];
        size_t i;

        if (!json_is_object(obj)) {
                prc_err_set(err, PRC_E_NOT_AN_OBJECT, "an object was required");
                prc_err_set_ptr(err, ptr);
                return false;
        }
        json_object_foreach((json_t *)obj, k, v) {
                for (i = 0; i < n; i++)
                        if (strcmp(fields[i].name, k) == 0)
                                break;
                snprintf(p, sizeof(p), "%s", ptr);
                prc_jptr_push(p, sizeof(p), k);
                if (i == n) {
                        prc_err_set(err, PRC_E_UNKNOWN_FIELD, "unknown field");
                        prc_err_set_ptr(err, p);
                        return false;
                }
                if ((type_bit(v) & fields[i].types) == 0) {
                        prc_err_set(err, PRC_E_WRONG_TYPE, "'%s' has the wrong type (%s)", fields[i].name,
                                    prc_json_type_name(v));
                        prc_err_set_ptr(err, p);
                        return false;
                }
        }
        for (i = 0; i < n; i++) {
                if (fields[i].required && json_object_get(obj, fields[i].name) == NULL) {
                        snprintf(p, sizeof(p), "%s", ptr);
                        prc_jptr_push(p, sizeof(p), fields[i].name);
                        prc_err_set(err, PRC_E_MISSING_FIELD, "'%s' is required", fields[i].name);
                        prc_err_set_ptr(err, p);
                        return false;
                }
        }
        return true;
}

bool prc_native_add_owned(const prc_native_spec *s, const struct prc_inventory *inv, struct prc_snapshot *snap,
                          bool *out_relocated, prc_err *err)
{
        bool relocated = false;
        size_t i;

        for (i = 0; i < s->n_owned; i++) {
                const prc_native_owned *o = &s->owned[i];
                if (o->relocated_from != NULL) {
                        long k = prc_inventory_find(inv, o->relocated_from);
                        /* a symlink is not copied into the snapshot, so gitleaks cannot honour it */
                        if (k < 0 || prc_inventory_entry(inv, (size_t)k)->type != PRC_INV_FILE)
                                continue;
                        if (!prc_snapshot_add_owned(snap, o->path, NULL, 0, o->relocated_from, err))
                                return false;
                        relocated = true;
                } else if (!prc_snapshot_add_owned(snap, o->path, o->bytes, strlen(o->bytes), NULL, err)) {
                        return false;
                }
        }
        if (out_relocated != NULL)
                *out_relocated = relocated;
        return true;
}

json_t *prc_native_paths(const struct prc_inventory *inv)
{
        json_t *o = json_object();
        size_t i;

        for (i = 0; o != NULL && i < prc_inventory_count(inv); i++) {
                const prc_inv_entry *e = prc_inventory_entry(inv, i);
                if (e->type == PRC_INV_FILE && json_object_set_new(o, e->path, json_string(e->sha256)) != 0) {
                        json_decref(o);
                        return NULL;
                }
        }
        return o;
}
