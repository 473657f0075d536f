/*
 * grype.c - prc-adapter-grype-json-v1 normalizer and grype-db checks
 * (issue 10; seed 000; FORMATS.md section 3).
 * Trust: the report is hostile.  It must come from grype 0.116.1 with the
 * scanner-owned configuration in effect, against a schema-v6 database from
 * the official archive URL with a SHA-256 checksum, built at most 120 hours
 * before --now, with NVD, EPSS and KEV provenance.  The normalized artifact
 * keeps integers and strings only: scores (floats) and bulk metadata are
 * dropped, so report timestamps and raw vendor data never reach its digest.
 */
#include "adapter/native/grype.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/native/syft.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/json_strict.h"
#include "base/path.h"
#include "base/xxh64.h"

#define S PRC_JT_STRING
#define I PRC_JT_INT
#define O PRC_JT_OBJECT
#define A PRC_JT_ARRAY
#define B PRC_JT_BOOL
#define N PRC_JT_NULL
#define ANY (PRC_JT_ANY | PRC_NT_NUMBER)
#define NUM PRC_NT_NUMBER

#define FIELDS(o, ptr, t) prc_native_fields(o, ptr, t, PRC_ARRAY_LEN(t), err)

static const prc_field top_fields[] = {
        { "matches", A, true }, { "ignoredMatches", A, false }, { "alertsByPackage", A, false },
        { "source", O | N, true }, { "distro", O, true }, { "descriptor", O, true },
};
static const prc_field desc_fields[] = {
        { "name", S, true }, { "version", S, true }, { "configuration", O, true }, { "db", O, true },
        { "timestamp", S, false },
};
static const prc_field db_fields[] = { { "status", O, true }, { "providers", O, true } };
static const prc_field status_fields[] = {
        { "schemaVersion", S, true }, { "from", S, true }, { "built", S, true }, { "path", S, false },
        { "valid", B, true }, { "error", S, false },
};
static const prc_field prov_fields[] = { { "captured", S, true }, { "input", S, true } };
static const prc_field match_fields[] = {
        { "vulnerability", O, true }, { "relatedVulnerabilities", A, true }, { "matchDetails", A, true },
        { "artifact", O, true },
};
static const prc_field vuln_fields[] = {
        { "id", S, true }, { "dataSource", S, true }, { "namespace", S, false }, { "severity", S, false },
        { "urls", A | N, true }, { "description", S, false }, { "cvss", A | N, true }, { "knownExploited", A, false },
        { "epss", A, false }, { "cwes", A, false }, { "fix", O, true }, { "advisories", A, true },
        { "risk", NUM, true },
};
static const prc_field related_fields[] = {
        { "id", S, true }, { "dataSource", S, true }, { "namespace", S, false }, { "severity", S, false },
        { "urls", A | N, true }, { "description", S, false }, { "cvss", A | N, true }, { "knownExploited", A, false },
        { "epss", A, false }, { "cwes", A, false },
};
static const prc_field fix_fields[] = { { "versions", A, true }, { "state", S, true }, { "available", A, false } };
static const prc_field cvss_fields[] = {
        { "source", S, false }, { "type", S, false }, { "version", S, true }, { "vector", S, true },
        { "metrics", O, true }, { "vendorMetadata", ANY, true },
};
static const prc_field metrics_fields[] = {
        { "baseScore", NUM, true }, { "exploitabilityScore", NUM, false }, { "impactScore", NUM, false },
};
static const prc_field epss_fields[] = {
        { "cve", S, true }, { "epss", NUM, true }, { "percentile", NUM, true }, { "date", S, true },
};
static const prc_field kev_fields[] = {
        { "cve", S, true }, { "vendorProject", S, false }, { "product", S, false }, { "dateAdded", S, false },
        { "requiredAction", S, false }, { "dueDate", S, false }, { "knownRansomwareCampaignUse", S, true },
        { "notes", S, false }, { "urls", A, false }, { "cwes", A, false },
};
static const prc_field detail_fields[] = {
        { "type", S, true }, { "matcher", S, true }, { "searchedBy", O, true }, { "found", O, true },
        { "fix", O, false },
};
static const prc_field pkg_fields[] = {
        { "id", S, true }, { "name", S, true }, { "version", S, true }, { "type", S, true },
        { "locations", A | N, true }, { "language", S, true }, { "licenses", A, true }, { "cpes", A, true },
        { "purl", S, true }, { "upstreams", A, true }, { "metadataType", S, false }, { "metadata", O, false },
        { "annotations", O, false },
};
static const prc_field loc_fields[] = {
        { "path", S, true }, { "layerID", S, false }, { "accessPath", S, true }, { "annotations", O, false },
};
static const prc_field distro_fields[] = {
        { "name", S, true }, { "version", S, true }, { "idLike", A | N, true }, { "channels", A, false },
};
static const prc_field source_fields[] = { { "type", S, true }, { "target", ANY, true } };
static const prc_field import_fields[] = {
        { "digest", S, true }, { "source", S, true }, { "client_version", S, true },
};

static const char *const match_types[] = { "exact-direct-match", "exact-indirect-match", "cpe-match", NULL };
static const char *const matchers[] = {
        "apk-matcher", "dpkg-matcher", "rpm-matcher", "java-matcher", "go-module-matcher", "python-matcher",
        "javascript-matcher", "dotnet-matcher", "ruby-gem-matcher", "rust-matcher", "hex-matcher", "stock-matcher",
        "msrc-matcher", "portage-matcher", "bitnami-matcher", "pacman-matcher", "openvex-matcher",
        "csafvex-matcher", NULL,
};
static const char *const fix_states[] = { "fixed", "not-fixed", "wont-fix", "unknown", "", NULL };
static const char *const severities[] = { "Unknown", "Negligible", "Low", "Medium", "High", "Critical", NULL };

static bool fail(prc_err *err, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(err, c, "%s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

static const char *str(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static bool one_of(const char *s, const char *const *set)
{
        for (; s != NULL && *set != NULL; set++)
                if (strcmp(s, *set) == 0)
                        return true;
        return false;
}

static bool hexn(const char *s, size_t n)
{
        return s != NULL && strlen(s) == n && strspn(s, "0123456789abcdef") == n;
}

static void sub(char *out, size_t cap, const char *base, const char *key)
{
        snprintf(out, cap, "%s", base);
        prc_jptr_push(out, cap, key);
}

static void idx(char *out, size_t cap, const char *base, size_t i)
{
        snprintf(out, cap, "%s", base);
        prc_jptr_index(out, cap, i);
}

/* "v6.R.A" with decimal R and A. */
static bool schema_v6(const char *s)
{
        size_t r, a;

        if (s == NULL || strncmp(s, "v6.", 3) != 0)
                return false;
        r = strspn(s + 3, "0123456789");
        if (r == 0 || r > 4 || s[3 + r] != '.')
                return false;
        a = strspn(s + 4 + r, "0123456789");
        return a > 0 && a <= 4 && s[4 + r + a] == '\0';
}

bool prc_grype_db_url(const char *url, char *out_schema, size_t cap, int64_t *out_built,
                      char out_sha[PRC_SHA256_HEX + 1], prc_err *err)
{
        static const char pre[] = PRC_GRYPE_DB_URL_PREFIX;
        static const char q[] = ".tar.zst?checksum=sha256%3A";
        const char *p, *u1, *u2, *qs;
        char ver[32], cap_time[40];
        int64_t built = 0, t;
        size_t i;

        if (url == NULL || strncmp(url, pre, sizeof(pre) - 1) != 0)
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database source is not the official archive URL");
        p = url + sizeof(pre) - 1;
        u1 = strchr(p, '_');
        u2 = u1 ? strchr(u1 + 1, '_') : NULL;
        qs = u2 ? strstr(u2, q) : NULL;
        if (u1 == NULL || u2 == NULL || qs == NULL || (size_t)(u1 - p) >= sizeof(ver) ||
            (size_t)(u2 - u1 - 1) >= sizeof(cap_time))
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database archive name is not the v6 form");
        memcpy(ver, p, (size_t)(u1 - p));
        ver[u1 - p] = '\0';
        memcpy(cap_time, u1 + 1, (size_t)(u2 - u1 - 1));
        cap_time[u2 - u1 - 1] = '\0';
        if (!schema_v6(ver) || !prc_native_time(cap_time, &t))
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database archive is not schema v6");
        if (qs == u2 + 1 || qs - u2 - 1 > 12)
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database archive has no build epoch");
        for (i = 1; u2 + i < qs; i++) {
                if (u2[i] < '0' || u2[i] > '9')
                        return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database archive has no build epoch");
                built = built * 10 + (u2[i] - '0');
        }
        if (!hexn(qs + sizeof(q) - 1, PRC_SHA256_HEX))
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "database URL has no sha256 checksum");
        if (strlen(ver) + 1 > cap)
                return prc_err_set(err, PRC_E_BUFFER_LIMIT, "schema version buffer");
        memcpy(out_schema, ver, strlen(ver) + 1);
        memcpy(out_sha, qs + sizeof(q) - 1, PRC_SHA256_HEX + 1);
        *out_built = built;
        return true;
}

static bool age_ok(int64_t built, int64_t now, prc_err *err)
{
        if (now <= 0)
                return prc_err_set(err, PRC_E_NATIVE_DB_STALE, "no --now: the database age cannot be checked");
        if (built > now)
                return prc_err_set(err, PRC_E_NATIVE_DB_STALE, "database built after --now");
        if (now - built > PRC_GRYPE_DB_MAX_AGE)
                return prc_err_set(err, PRC_E_NATIVE_DB_STALE, "database built %" PRId64 " s before --now, more than 120 h",
                                   now - built);
        return true;
}

static bool fmt_time(int64_t t, char out[64])
{
        int64_t z = t / 86400 + 719468, era, doe, yoe, y, doy, mp, d, m, s = t % 86400;

        if (t < 0 || t > (int64_t)253402300799)        /* 9999-12-31T23:59:59Z */
                return false;
        era = z / 146097;
        doe = z - era * 146097;
        yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        y = yoe + era * 400;
        doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        mp = (5 * doy + 2) / 153;
        d = doy - (153 * mp + 2) / 5 + 1;
        m = mp < 10 ? mp + 3 : mp - 9;
        y += m <= 2;
        snprintf(out, 64, "%04" PRId64 "-%02" PRId64 "-%02" PRId64 "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 "Z", y, m,
                 d, s / 3600, s / 60 % 60, s % 60);
        return true;
}

/*
 * Does vulnerability.db hash to the xxh64 import.json records?  Grype
 * checks the same before a scan; prc checks it too so that a directory
 * whose import.json describes some other database is refused here, with
 * its path, not by the container.  Read without following a symlink.
 */
static bool db_matches_import(const char *path, const char *want_hex, prc_err *err)
{
        uint8_t chunk[1u << 15];
        char got[17];
        prc_xxh64 h;
        ssize_t n;
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

        if (fd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open 6/vulnerability.db");
        prc_xxh64_init(&h);
        while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0) {
                        close(fd);
                        return prc_err_sys(err, PRC_E_IO, errno, "cannot read 6/vulnerability.db");
                }
                prc_xxh64_update(&h, chunk, (size_t)n);
        }
        close(fd);
        snprintf(got, sizeof(got), "%016llx", (unsigned long long)prc_xxh64_final(&h));
        if (strcmp(got, want_hex) != 0)
                return prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY,
                                   "6/vulnerability.db has xxh64 %s, import.json records %s", got, want_hex);
        return true;
}

bool prc_grype_db_check(const char *dir, int64_t now, json_t **out_identity, prc_err *err)
{
        char path[PRC_PATH_MAX], ver[32], sha[PRC_SHA256_HEX + 1], when[64];
        prc_buf b;
        json_t *doc = NULL, *id;
        int64_t built;
        struct stat st;
        bool ok = false;

        snprintf(path, sizeof(path), "%s/6/vulnerability.db", dir);
        /* a regular file (the runner seals its SHA-256); its xxh64 is checked against import.json below */
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
                prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "no regular, non-empty 6/vulnerability.db");
                prc_err_set_file(err, path);
                return false;
        }
        snprintf(path, sizeof(path), "%s/6/import.json", dir);
        prc_buf_init(&b, 1u << 16);
        if (!prc_file_read_as(path, "6/import.json of the grype-db directory", 1u << 16, PRC_FILE_NOFOLLOW, &b, err))
                goto out;
        doc = prc_json_parse(b.data, b.len, &prc_limits_operator, 0, err);
        if (doc == NULL || !FIELDS(doc, "", import_fields))
                goto out;
        if (strncmp(str(doc, "digest"), "xxh64:", 6) != 0 || !hexn(str(doc, "digest") + 6, 16)) {
                fail(err, PRC_E_NATIVE_DB_IDENTITY, "/digest", "import digest is not xxh64:<16 hex>");
                goto out;
        }
        snprintf(path, sizeof(path), "%s/6/vulnerability.db", dir);
        if (!db_matches_import(path, str(doc, "digest") + 6, err))
                goto out;
        snprintf(path, sizeof(path), "%s/6/import.json", dir);
        if (!schema_v6(str(doc, "client_version"))) {
                fail(err, PRC_E_NATIVE_DB_IDENTITY, "/client_version", "not hydrated by a schema v6 client");
                goto out;
        }
        if (!prc_grype_db_url(str(doc, "source"), ver, sizeof(ver), &built, sha, err) || !age_ok(built, now, err))
                goto out;
        if (!fmt_time(built, when)) {
                prc_err_set(err, PRC_E_NATIVE_DB_IDENTITY, "build time out of range");
                goto out;
        }
        if (out_identity != NULL) {
                id = json_pack("{s:s,s:s,s:s,s:s}", "schema_version", ver, "built", when, "source_sha256", sha,
                               "digest", str(doc, "digest"));
                if (id == NULL) {
                        prc_err_oom(err, "db identity");
                        goto out;
                }
                *out_identity = id;
        }
        ok = true;
out:
        if (!ok && err->file[0] == '\0')
                prc_err_set_file(err, path);
        json_decref(doc);
        prc_buf_clear(&b);
        return ok;
}

/* A finite number within [lo, hi] (floats are allowed in the report, never kept). */
static bool number_in(const json_t *v, double lo, double hi, const char *ptr, prc_err *err)
{
        double d;

        if (!json_is_number(v))
                return fail(err, PRC_E_WRONG_TYPE, ptr, "a number was required");
        d = json_number_value(v);
        if (!isfinite(d) || d < lo || d > hi)
                return fail(err, PRC_E_UNSAFE_NUMBER, ptr, "a number outside its range");
        return true;
}

/* Vulnerability metadata common to vulnerability and relatedVulnerabilities. */
static bool check_meta(const json_t *v, const char *ptr, const prc_field *t, size_t nt, const json_t *providers,
                       prc_err *err)
{
        const json_t *e, *arr;
        size_t i;
        char p[128], q[128];

        if (!prc_native_fields(v, ptr, t, nt, err))
                return false;
        if (str(v, "id")[0] == '\0')
                return fail(err, PRC_E_NATIVE_INCOMPLETE_EVIDENCE, ptr, "a vulnerability without an id");
        if (json_object_get(v, "severity") != NULL && !one_of(str(v, "severity"), severities)) {
                sub(p, sizeof(p), ptr, "severity");
                return fail(err, PRC_E_INVALID_VALUE, p, "an unknown severity");
        }
        if (json_object_get(v, "namespace") != NULL) {
                char prov[64];
                size_t k = strcspn(str(v, "namespace"), ":");
                sub(p, sizeof(p), ptr, "namespace");
                if (k == 0 || k >= sizeof(prov))
                        return fail(err, PRC_E_NATIVE_DB_PROVENANCE, p, "a namespace without a provider");
                memcpy(prov, str(v, "namespace"), k);
                prov[k] = '\0';
                if (json_object_get(providers, prov) == NULL)
                        return fail(err, PRC_E_NATIVE_DB_PROVENANCE, p, "a namespace whose provider the database lacks");
        }
        sub(p, sizeof(p), ptr, "urls");
        if (json_is_array(json_object_get(v, "urls")) && !prc_native_strings(json_object_get(v, "urls"), p, err))
                return false;
        arr = json_object_get(v, "cvss");
        json_array_foreach(arr, i, e) {
                sub(p, sizeof(p), ptr, "cvss");
                prc_jptr_index(p, sizeof(p), i);
                if (!prc_native_fields(e, p, cvss_fields, PRC_ARRAY_LEN(cvss_fields), err))
                        return false;
                sub(q, sizeof(q), p, "metrics");
                if (!prc_native_fields(json_object_get(e, "metrics"), q, metrics_fields, PRC_ARRAY_LEN(metrics_fields),
                                     err))
                        return false;
                sub(p, sizeof(p), q, "baseScore");
                if (!number_in(json_object_get(json_object_get(e, "metrics"), "baseScore"), 0, 10, p, err))
                        return false;
                for (size_t k = 0; k < 2; k++) {
                        const char *name = k ? "impactScore" : "exploitabilityScore";
                        const json_t *x = json_object_get(json_object_get(e, "metrics"), name);
                        sub(p, sizeof(p), q, name);
                        if (x != NULL && !number_in(x, 0, 10, p, err))
                                return false;
                }
        }
        arr = json_object_get(v, "epss");
        json_array_foreach(arr, i, e) {
                sub(p, sizeof(p), ptr, "epss");
                prc_jptr_index(p, sizeof(p), i);
                if (!prc_native_fields(e, p, epss_fields, PRC_ARRAY_LEN(epss_fields), err))
                        return false;
                sub(q, sizeof(q), p, "epss");
                if (!number_in(json_object_get(e, "epss"), 0, 1, q, err))
                        return false;
                sub(q, sizeof(q), p, "percentile");
                if (!number_in(json_object_get(e, "percentile"), 0, 1, q, err))
                        return false;
        }
        arr = json_object_get(v, "knownExploited");
        json_array_foreach(arr, i, e) {
                sub(p, sizeof(p), ptr, "knownExploited");
                prc_jptr_index(p, sizeof(p), i);
                if (!prc_native_fields(e, p, kev_fields, PRC_ARRAY_LEN(kev_fields), err))
                        return false;
        }
        return true;
}

/* A location path reported by grype for a dir: scan: "/" + a normalized path outside .prc/. */
static bool loc_path(const char *s, const char *ptr, prc_err *err)
{
        prc_err e2;

        prc_err_init(&e2);
        if (s[0] == '/')
                s++;
        if (!prc_path_check_str(s, &e2) || strncmp(s, ".prc/", 5) == 0)
                return fail(err, PRC_E_NATIVE_PATH_OUTSIDE, ptr, "a location outside the snapshot");
        return true;
}

/* One match -> normalized finding (new reference). */
static json_t *one(const json_t *m, const char *ptr, const json_t *providers, const json_t *paths, prc_err *err)
{
        const json_t *v, *a, *d, *e;
        json_t *types = NULL, *locs = NULL, *fixv = NULL, *o = NULL;
        size_t i;
        char p[128], q[128];

        if (!FIELDS(m, ptr, match_fields))
                return NULL;
        v = json_object_get(m, "vulnerability");
        a = json_object_get(m, "artifact");
        sub(p, sizeof(p), ptr, "vulnerability");
        if (!check_meta(v, p, vuln_fields, PRC_ARRAY_LEN(vuln_fields), providers, err))
                return NULL;
        sub(q, sizeof(q), p, "risk");
        if (!number_in(json_object_get(v, "risk"), 0, 1e6, q, err))
                return NULL;
        sub(q, sizeof(q), p, "fix");
        if (!FIELDS(json_object_get(v, "fix"), q, fix_fields))
                return NULL;
        if (!one_of(str(json_object_get(v, "fix"), "state"), fix_states))
                return fail(err, PRC_E_INVALID_VALUE, q, "an unknown fix state"), NULL;
        if (!prc_native_strings(json_object_get(json_object_get(v, "fix"), "versions"), q, err))
                return NULL;
        json_array_foreach(json_object_get(m, "relatedVulnerabilities"), i, e) {
                sub(p, sizeof(p), ptr, "relatedVulnerabilities");
                prc_jptr_index(p, sizeof(p), i);
                if (!check_meta(e, p, related_fields, PRC_ARRAY_LEN(related_fields), providers, err))
                        return NULL;
        }
        d = json_object_get(m, "matchDetails");
        sub(p, sizeof(p), ptr, "matchDetails");
        if (json_array_size(d) == 0)
                return fail(err, PRC_E_NATIVE_INCOMPLETE_EVIDENCE, p, "a match without match details"), NULL;
        types = json_array();
        locs = json_array();
        if (types == NULL || locs == NULL)
                goto oom;
        json_array_foreach(d, i, e) {
                idx(q, sizeof(q), p, i);
                if (!FIELDS(e, q, detail_fields))
                        goto fail;
                if (!one_of(str(e, "type"), match_types) || !one_of(str(e, "matcher"), matchers) ||
                    json_object_size(json_object_get(e, "searchedBy")) == 0 ||
                    json_object_size(json_object_get(e, "found")) == 0) {
                        fail(err, PRC_E_NATIVE_INCOMPLETE_EVIDENCE, q, "match details without type, matcher or evidence");
                        goto fail;
                }
                {
                        /* the evidence names the vulnerability matched: this one or a related record */
                        const char *fid = json_string_value(json_object_get(json_object_get(e, "found"),
                                                                            "vulnerabilityID"));
                        const json_t *rv;
                        size_t j;
                        bool same = fid != NULL && strcmp(fid, str(v, "id")) == 0;
                        json_array_foreach(json_object_get(m, "relatedVulnerabilities"), j, rv)
                                same = same || (fid != NULL && strcmp(fid, str(rv, "id")) == 0);
                        if (!same) {
                                fail(err, PRC_E_NATIVE_INCOMPLETE_EVIDENCE, q,
                                     "match evidence does not name the matched vulnerability");
                                goto fail;
                        }
                }
                if (json_array_append_new(types, json_pack("{s:s,s:s}", "type", str(e, "type"), "matcher",
                                                           str(e, "matcher"))) != 0)
                        goto oom;
        }
        sub(p, sizeof(p), ptr, "artifact");
        if (!FIELDS(a, p, pkg_fields))
                goto fail;
        if (!hexn(str(a, "id"), 16) || str(a, "name")[0] == '\0' || str(a, "type")[0] == '\0') {
                fail(err, PRC_E_NATIVE_INCOMPLETE_EVIDENCE, p, "a package without its id, name or type");
                goto fail;
        }
        sub(q, sizeof(q), p, "purl");
        if (str(a, "purl")[0] != '\0' && !prc_purl_valid(str(a, "purl"))) {
                fail(err, PRC_E_NATIVE_PURL, q, "not a package URL");
                goto fail;
        }
        sub(q, sizeof(q), p, "cpes");
        if (!prc_native_strings(json_object_get(a, "cpes"), q, err))
                goto fail;
        sub(q, sizeof(q), p, "licenses");
        if (!prc_native_strings(json_object_get(a, "licenses"), q, err))
                goto fail;
        json_array_foreach(json_object_get(a, "locations"), i, e) {
                sub(q, sizeof(q), p, "locations");
                prc_jptr_index(q, sizeof(q), i);
                if (!FIELDS(e, q, loc_fields) || !loc_path(str(e, "path"), q, err) ||
                    !loc_path(str(e, "accessPath"), q, err))
                        goto fail;
                /* the snapshot holds only the inventory's regular files (and the excluded .prc/) */
                if (paths != NULL &&
                    json_object_get(paths, str(e, "path")[0] == '/' ? str(e, "path") + 1 : str(e, "path")) == NULL) {
                        fail(err, PRC_E_NATIVE_PATH_OUTSIDE, q, "a location that is not in the sealed inventory");
                        goto fail;
                }
                if (json_array_append_new(locs, json_string(str(e, "path")[0] == '/' ? str(e, "path") + 1
                                                                                    : str(e, "path"))) != 0)
                        goto oom;
        }
        fixv = json_deep_copy(json_object_get(json_object_get(v, "fix"), "versions"));
        if (fixv == NULL || !prc_native_sort(types, err) || !prc_native_sort(locs, err))
                goto oom;
        o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:b,s:{s:s,s:s,s:s,s:s,s:s},s:O,s:O}", "vulnerability_id", str(v, "id"),
                      "namespace", json_object_get(v, "namespace") ? str(v, "namespace") : "", "severity",
                      json_object_get(v, "severity") ? str(v, "severity") : "", "fix_state",
                      str(json_object_get(v, "fix"), "state"), "fix_versions", fixv, "known_exploited",
                      json_array_size(json_object_get(v, "knownExploited")) > 0, "package", "id", str(a, "id"),
                      "name", str(a, "name"), "version", str(a, "version"), "type", str(a, "type"), "purl",
                      str(a, "purl"), "match", types, "locations", locs);
        fixv = NULL;
        if (o == NULL)
                goto oom;
        json_decref(types);
        json_decref(locs);
        return o;
oom:
        prc_err_oom(err, "finding");
fail:
        json_decref(fixv);
        json_decref(types);
        json_decref(locs);
        return NULL;
}

/* The scanner-owned settings must be the ones in effect (FORMATS.md 3.2: durations in nanoseconds). */
static bool check_config(const json_t *c, prc_err *err)
{
        const json_t *db = json_object_get(c, "db"), *v;
        static const char *const lists[] = { "ignore", "vex-documents", "vex-add" };
        size_t i;

        if (!json_is_false(json_object_get(c, "check-for-app-update")) || !json_is_object(db) ||
            !json_is_false(json_object_get(db, "auto-update")) || !json_is_true(json_object_get(db, "validate-age")) ||
            json_integer_value(json_object_get(db, "max-allowed-built-age")) != PRC_GRYPE_DB_MAX_AGE * 1000000000LL ||
            !json_is_false(json_object_get(json_object_get(c, "externalSources"), "enable")) ||
            !json_is_false(json_object_get(json_object_get(c, "alerts"), "enable-eol-distro-warnings")) ||
            strcmp(json_string_value(json_object_get(db, "cache-dir")) ? json_string_value(json_object_get(db, "cache-dir")) : "",
                   "/prc-inputs/" PRC_NATIVE_GRYPE_DB_DATA) != 0)
                return fail(err, PRC_E_INVALID_VALUE, "/descriptor/configuration",
                            "the scanner-owned grype configuration was not in effect");
        for (i = 0; i < PRC_ARRAY_LEN(lists); i++) {
                v = json_object_get(c, lists[i]);
                if (!(json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0)))
                        return fail(err, PRC_E_INVALID_VALUE, "/descriptor/configuration",
                                    "ignore rules or VEX were configured");
        }
        return true;
}

/* The report's database must be the one the runner mounted (prc_grype_db_check's identity). */
static bool same_db(const json_t *mounted, const char *ver, int64_t built, const char *sha, prc_err *err)
{
        int64_t t;

        if (mounted == NULL)
                return true;
        if (strcmp(ver, str(mounted, "schema_version") ? str(mounted, "schema_version") : "") != 0 ||
            !prc_native_time(str(mounted, "built"), &t) || t != built ||
            strcmp(sha, str(mounted, "source_sha256") ? str(mounted, "source_sha256") : "") != 0)
                return fail(err, PRC_E_NATIVE_DB_IDENTITY, "/descriptor/db/status/from",
                            "the report names another database than the mounted grype-db");
        return true;
}

static bool check_db(const json_t *db, int64_t now, const json_t *mounted, json_t **out_db, prc_err *err)
{
        static const char *const required[] = { "nvd", "epss", "kev" };
        const json_t *st, *provs, *pv;
        const char *k;
        char ver[32], sha[PRC_SHA256_HEX + 1], p[128];
        int64_t url_built, built, cap;
        json_t *pl;
        size_t i;

        if (!FIELDS(db, "/descriptor/db", db_fields))
                return false;
        st = json_object_get(db, "status");
        provs = json_object_get(db, "providers");
        if (!FIELDS(st, "/descriptor/db/status", status_fields))
                return false;
        if (!schema_v6(str(st, "schemaVersion")) || !json_is_true(json_object_get(st, "valid")) ||
            json_object_get(st, "error") != NULL)
                return fail(err, PRC_E_NATIVE_DB_IDENTITY, "/descriptor/db/status", "not a valid schema v6 database");
        if (!prc_grype_db_url(str(st, "from"), ver, sizeof(ver), &url_built, sha, err)) {
                prc_err_set_ptr(err, "/descriptor/db/status/from");
                return false;
        }
        if (strcmp(ver, str(st, "schemaVersion")) != 0)
                return fail(err, PRC_E_NATIVE_DB_IDENTITY, "/descriptor/db/status",
                            "the archive URL names another schema version");
        if (!prc_native_time(str(st, "built"), &built) || built != url_built)
                return fail(err, PRC_E_NATIVE_DB_IDENTITY, "/descriptor/db/status/built",
                            "build time is malformed or differs from the archive's");
        if (!age_ok(built, now, err)) {
                prc_err_set_ptr(err, "/descriptor/db/status/built");
                return false;
        }
        if (!same_db(mounted, ver, built, sha, err))
                return false;
        pl = json_object();
        if (pl == NULL)
                return prc_err_oom(err, "providers");
        json_object_foreach((json_t *)provs, k, pv) {
                sub(p, sizeof(p), "/descriptor/db/providers", k);
                if (!FIELDS(pv, p, prov_fields))
                        goto fail;
                if (!prc_native_time(str(pv, "captured"), &cap) || cap > built ||
                    strncmp(str(pv, "input"), "xxh64:", 6) != 0 || !hexn(str(pv, "input") + 6, 16)) {
                        fail(err, PRC_E_NATIVE_DB_PROVENANCE, p, "provider capture time or input digest is malformed");
                        goto fail;
                }
                if (json_object_set_new(pl, k, json_pack("{s:s,s:s}", "captured", str(pv, "captured"), "input",
                                                         str(pv, "input"))) != 0) {
                        prc_err_oom(err, "providers");
                        goto fail;
                }
        }
        for (i = 0; i < PRC_ARRAY_LEN(required); i++)
                if (json_object_get(provs, required[i]) == NULL) {
                        prc_err_set(err, PRC_E_NATIVE_DB_PROVENANCE, "the database has no %s provider", required[i]);
                        prc_err_set_ptr(err, "/descriptor/db/providers");
                        goto fail;
                }
        *out_db = json_pack("{s:s,s:s,s:s,s:o}", "schema_version", ver, "built", str(st, "built"), "archive_sha256",
                            sha, "providers", pl);
        if (*out_db == NULL)
                return prc_err_oom(err, "db");
        return true;
fail:
        json_decref(pl);
        return false;
}

bool prc_grype_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                         prc_native_result *out, prc_err *err)
{
        uint32_t max = ctx->max_items ? ctx->max_items : s->max_items;
        json_t *doc, *desc, *src, *dist, *m, *findings = NULL, *obs = NULL, *norm = NULL, *dbj = NULL;
        char ptr[64], now_s[64];
        size_t i;
        bool ok = false;

        doc = prc_json_parse(p, n, &prc_native_limits, PRC_JSON_ALLOW_FLOAT, err);
        if (doc == NULL)
                return false;
        if (!json_is_object(doc)) {
                prc_err_set(err, PRC_E_NOT_AN_OBJECT, "a grype JSON report is an object");
                goto out;
        }
        /* the policy-bearing keys first: they name the attack, not just an unknown shape */
        if (json_object_get(doc, "ignoredMatches") != NULL) {
                fail(err, PRC_E_NATIVE_IGNORED_MATCHES, "/ignoredMatches", "matches were ignored");
                goto out;
        }
        if (json_object_get(doc, "alertsByPackage") != NULL) {
                fail(err, PRC_E_NATIVE_PACKAGE_ALERTS, "/alertsByPackage", "package alerts present");
                goto out;
        }
        if (!FIELDS(doc, "", top_fields))
                goto out;
        desc = json_object_get(doc, "descriptor");
        if (!json_is_string(json_object_get(desc, "name")) || !json_is_string(json_object_get(desc, "version")) ||
            strcmp(str(desc, "name"), "grype") != 0 || strcmp(str(desc, "version"), s->tool_version) != 0) {
                fail(err, PRC_E_NATIVE_TOOL_IDENTITY, "/descriptor", "the report is not from grype 0.116.1");
                goto out;
        }
        if (!FIELDS(desc, "/descriptor", desc_fields) || !check_config(json_object_get(desc, "configuration"), err) ||
            !check_db(json_object_get(desc, "db"), ctx->now, ctx->db, &dbj, err))
                goto out;
        src = json_object_get(doc, "source");
        if (!FIELDS(src, "/source", source_fields))
                goto out;
        if (strcmp(str(src, "type"), "directory") != 0 || !json_is_string(json_object_get(src, "target")) ||
            strcmp(str(src, "target"), PRC_NATIVE_SNAPSHOT_MOUNT) != 0) {
                fail(err, PRC_E_NATIVE_PATH_OUTSIDE, "/source", "the source is not the sealed snapshot");
                goto out;
        }
        dist = json_object_get(doc, "distro");
        if (!FIELDS(dist, "/distro", distro_fields))
                goto out;
        m = json_object_get(doc, "matches");
        if (json_array_size(m) > max) {
                prc_err_set(err, PRC_E_NATIVE_COUNT_LIMIT, "%zu matches, more than the cap %" PRIu32,
                            json_array_size(m), max);
                goto out;
        }
        findings = json_array();
        obs = json_array();
        if (findings == NULL || obs == NULL)
                goto oom;
        for (i = 0; i < json_array_size(m); i++) {
                json_t *f;
                snprintf(ptr, sizeof(ptr), "/matches");
                prc_jptr_index(ptr, sizeof(ptr), i);
                f = one(json_array_get(json_object_get(doc, "matches"), i), ptr,
                        json_object_get(json_object_get(desc, "db"), "providers"), ctx->paths, err);
                if (f == NULL)
                        goto out;
                if (json_array_append_new(findings, f) != 0)
                        goto oom;
        }
        if (!prc_native_sort(findings, err))
                goto out;
        if (!fmt_time(ctx->now, now_s)) {
                prc_err_set(err, PRC_E_NATIVE_DB_STALE, "--now is outside years 1970-9999");
                goto out;
        }
        /* not_found is evidence only for this database and clock: the value records both. */
        if (json_array_size(findings) == 0 &&
            json_array_append_new(obs, json_pack("{s:s,s:s,s:s,s:{s:s,s:s}}", "id", "grype", "kind", s->kind, "outcome",
                                                 "not_found", "value", "db_built",
                                                 json_string_value(json_object_get(dbj, "built")), "now", now_s)) != 0)
                goto oom;
        json_array_foreach(findings, i, m) {
                char id[48];
                json_t *locs = json_array(), *l;
                size_t k;
                snprintf(id, sizeof(id), "grype.match:%zu", i + 1);
                json_array_foreach(json_object_get(m, "locations"), k, l)
                        if (locs != NULL && json_array_append_new(locs, json_pack("{s:O}", "path", l)) != 0) {
                                json_decref(locs);
                                locs = NULL;
                        }
                if (locs == NULL ||
                    json_array_append_new(obs, json_pack("{s:s,s:s,s:s,s:o,s:{s:O,s:O,s:s}}", "id", id, "kind",
                                                         s->kind, "outcome", "found", "locations", locs, "value",
                                                         "vulnerability_id", json_object_get(m, "vulnerability_id"),
                                                         "package", json_object_get(m, "package"), "db_built",
                                                         json_string_value(json_object_get(dbj, "built")))) != 0)
                        goto oom;
        }
        norm = json_pack("{s:s,s:{s:s,s:s},s:O,s:s,s:O}", "schema", "prc.native.grype-findings/v1", "tool", "name",
                         s->tool, "version", s->tool_version, "db", dbj, "now", now_s, "findings", findings);
        if (norm == NULL)
                goto oom;
        ok = prc_native_finish(s, norm, obs, p, n, out, err);
        goto out;
oom:
        prc_err_oom(err, "normalized report");
out:
        json_decref(norm);
        json_decref(dbj);
        json_decref(obs);
        json_decref(findings);
        json_decref(doc);
        return ok;
}
