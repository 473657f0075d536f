/*
 * setup.c - the library side of `prc setup native` (see setup.h).
 * Trust: downloaded bytes are only counted, hashed and compared before they
 * are trusted; inspect output is parsed by the strict JSON reader.
 */
#include "adapter/setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/native/gitleaks.h"
#include "adapter/native/native.h"
#include "base/buf.h"
#include "base/datadir.h"
#include "base/digest.h"
#include "base/gzip.h"
#include "base/json_strict.h"
#include "base/limits.h"

static bool add_ref(prc_setup_images *out, const char *s, size_t len, prc_err *err)
{
        uint8_t md[PRC_SHA256_LEN];
        const char *at;

        if (out->n >= PRC_SETUP_IMAGES_MAX || len >= PRC_SETUP_REF_MAX)
                return prc_err_set(err, PRC_E_INVALID_VALUE, "too many or too long image references");
        memcpy(out->ref[out->n], s, len);
        out->ref[out->n][len] = '\0';
        at = strchr(out->ref[out->n], '@');
        if (at == NULL || at == out->ref[out->n] || !prc_digest_parse_prefixed(at + 1, md, err))
                return prc_err_set(err, PRC_E_INVALID_VALUE, "'%.200s' is not NAME@sha256:<64 hex>", out->ref[out->n]);
        out->n++;
        return true;
}

bool prc_setup_images_list(prc_setup_images *out, prc_err *err)
{
        static const prc_native_proto order[] = { PRC_NATIVE_GITLEAKS, PRC_NATIVE_SYFT, PRC_NATIVE_GRYPE };

        memset(out, 0, sizeof(*out));
#if defined(PRC_TESTING) && PRC_TESTING
        const char *t = getenv(PRC_SETUP_TEST_IMAGES_ENV);
        if (t != NULL && t[0] != '\0') {
                while (*t != '\0') {
                        size_t len = strcspn(t, ",");
                        if (!add_ref(out, t, len, err))
                                return false;
                        t += len;
                        if (*t == ',')
                                t++;
                }
                return true;
        }
#endif
        for (size_t i = 0; i < PRC_ARRAY_LEN(order); i++) {
                const prc_native_spec *s = prc_native_spec_of(order[i]);
                char ref[PRC_SETUP_REF_MAX];
                int k;
                if (s == NULL || s->image_digest == NULL)
                        continue;       /* a protocol without a reviewed image has nothing to pull */
                k = snprintf(ref, sizeof(ref), "%s/%s@%s", s->image_registry, s->image_repository, s->image_digest);
                if (k < 0 || (size_t)k >= sizeof(ref) || !add_ref(out, ref, (size_t)k, err))
                        return prc_err_set(err, PRC_E_INTERNAL, "pinned image reference does not fit");
        }
        return true;
}

/* "docker.io/library/x" and "x", "docker.io/a/b" and "a/b" name the same repository. */
static const char *repo_norm(const char *s, size_t *len)
{
        if (*len > 10 && strncmp(s, "docker.io/", 10) == 0) {
                s += 10;
                *len -= 10;
        }
        if (*len > 8 && strncmp(s, "library/", 8) == 0) {
                s += 8;
                *len -= 8;
        }
        return s;
}

bool prc_setup_inspect_ok(const char *ref, const char *json, size_t n, prc_err *err)
{
        const char *at = strrchr(ref, '@'), *want, *got;
        size_t wlen, glen, i;
        json_t *arr, *v;
        prc_err perr;
        bool found = false;

        if (at == NULL)
                return prc_err_set(err, PRC_E_INTERNAL, "reference without a digest");
        wlen = (size_t)(at - ref);
        want = repo_norm(ref, &wlen);
        prc_err_init(&perr);
        arr = prc_json_parse((const uint8_t *)json, n, &prc_limits_default, 0, &perr);
        if (arr == NULL || !json_is_array(arr)) {
                json_decref(arr);
                return prc_err_set(err, PRC_E_SETUP_IMAGE_MISMATCH,
                                   "image inspect of %.200s did not give a list of repository digests", ref);
        }
        json_array_foreach(arr, i, v) {
                const char *s = json_string_value(v), *a;
                if (s == NULL || (a = strrchr(s, '@')) == NULL)
                        continue;
                glen = (size_t)(a - s);
                got = repo_norm(s, &glen);
                if (glen == wlen && memcmp(got, want, wlen) == 0 && strcmp(a, at) == 0)
                        found = true;
        }
        json_decref(arr);
        if (!found)
                return prc_err_set(err, PRC_E_SETUP_IMAGE_MISMATCH,
                                   "after the pull, no local image has the repository digest %.300s", ref);
        return true;
}

bool prc_setup_ruleset(const char *url, const prc_https_opts *o, char *stored_path, size_t cap, prc_err *err)
{
        prc_https_opts oo = *o;
        prc_https_result r;
        prc_buf body, gz, check;
        int dirfd = -1;
        bool ok = false;

        prc_buf_init(&body, PRC_GITLEAKS_RULESET_SIZE);
        prc_buf_init(&gz, PRC_GITLEAKS_RULESET_GZ_SIZE);
        prc_buf_init(&check, PRC_GITLEAKS_RULESET_SIZE);
        if (!prc_datadir_file(PRC_GITLEAKS_RULESET_FILE, stored_path, cap, err))
                goto out;
        /* The pinned size is the cap: a longer body is refused while it streams. */
        oo.max_bytes = PRC_GITLEAKS_RULESET_SIZE;
        if (!prc_https_get(url, &oo, &body, &r, err))
                goto out;
        if (body.len != PRC_GITLEAKS_RULESET_SIZE || strcmp(r.sha256, PRC_GITLEAKS_RULESET_SHA256) != 0) {
                prc_err_set(err, PRC_E_FETCH_DIGEST_MISMATCH,
                            "the download is %zu bytes with sha256 %.16s..., not the pinned Gitleaks v8.30.0 ruleset "
                            "(%u bytes, %.16s...); discarded, nothing stored",
                            body.len, r.sha256, PRC_GITLEAKS_RULESET_SIZE, PRC_GITLEAKS_RULESET_SHA256);
                goto out;
        }
        /* Store exactly what prc verify checks: the same function decides here and there. */
        if (!prc_gzip_write(body.data, body.len, &gz, err) || !prc_gitleaks_ruleset_check(gz.data, gz.len, &check, err))
                goto out;
        dirfd = prc_datadir_open(true, err);
        if (dirfd < 0)
                goto out;
        ok = prc_datadir_store(dirfd, PRC_GITLEAKS_RULESET_FILE, gz.data, gz.len, err);
out:
        if (dirfd >= 0)
                close(dirfd);
        prc_buf_clear(&body);
        prc_buf_clear(&gz);
        prc_buf_clear(&check);
        return ok;
}

bool prc_setup_stored_ruleset(char *out, size_t cap)
{
        struct stat st;
        prc_err e;

        prc_err_init(&e);
        if (!prc_datadir_file(PRC_GITLEAKS_RULESET_FILE, out, cap, &e) || lstat(out, &st) != 0) {
                if (cap > 0)
                        out[0] = '\0';
                return false;
        }
        return true;
}
