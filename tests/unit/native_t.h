/*
 * native_t.h - helpers shared by the test_native_* suites: normalize one
 * golden fixture (tests/golden/native/<tool>/<name>.in) or one real corpus
 * sample, and expect an error class or success.
 */
#ifndef PRC_NATIVE_T_H
#define PRC_NATIVE_T_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/native/native.h"
#include "base/gzip.h"
#include "t.h"

/* --now of every golden case: 2026-07-22T12:00:00Z. */
#define NT_NOW ((int64_t)1784721600)

static inline const prc_native_spec *nt_spec(const char *tool)
{
        if (strcmp(tool, "gitleaks") == 0)
                return prc_native_spec_of(PRC_NATIVE_GITLEAKS);
        if (strcmp(tool, "syft") == 0)
                return prc_native_spec_of(PRC_NATIVE_SYFT);
        return prc_native_spec_of(PRC_NATIVE_GRYPE);
}

/* The context a golden case runs with: fixed --now; relocation when the name says so. */
static inline prc_native_ctx nt_ctx(const char *name)
{
        prc_native_ctx c = { 0 };

        c.now = NT_NOW;
        c.relocated_gitleaksignore = strstr(name, "relocated") != NULL;
        return c;
}

/* Normalize tool/name.in; returns true on success (out filled), else err set. */
static inline bool nt_run(const char *tool, const char *name, prc_native_result *out, prc_err *err)
{
        char path[1024];
        size_t n;
        char *p;
        prc_native_ctx ctx = nt_ctx(name);
        bool ok;

        snprintf(path, sizeof(path), "%s/tests/golden/native/%s/%s.in", t_root(), tool, name);
        p = t_read(path, &n);
        prc_err_init(err);
        ok = prc_native_normalize(nt_spec(tool), (const uint8_t *)p, n, &ctx, out, err);
        free(p);
        return ok;
}

static inline void nt_expect_err(const char *tool, const char *name, prc_errclass cls)
{
        prc_native_result r = { 0 };
        prc_err err;

        if (nt_run(tool, name, &r, &err)) {
                prc_native_result_clear(&r);
                t_fail(__FILE__, __LINE__, "%s/%s was accepted, want %s", tool, name, prc_err_name(cls));
        }
        if (err.cls != cls)
                t_fail(__FILE__, __LINE__, "%s/%s: %s (%s), want %s", tool, name, prc_err_name(err.cls), err.msg,
                       prc_err_name(cls));
}

/* Path of a corpus file (fails the test when the corpora are absent). */
static inline const char *nt_corpus(const char *rel)
{
        static char path[1024];
        const char *c = t_corpora();

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; the native suites need it");
        snprintf(path, sizeof(path), "%s/native/%s", c, rel);
        return path;
}

/*
 * The pinned ruleset file as `prc setup native` stores it (issue 17): prc's
 * deterministic gzip form of the corpus's decompressed gitleaks.toml, in
 * this test's temporary directory.
 */
static inline const char *nt_ruleset_gz(void)
{
        size_t n;
        char *toml = t_read(nt_corpus("gitleaks/config/gitleaks.toml"), &n);
        prc_buf gz;
        prc_err err;
        const char *path;

        prc_err_init(&err);
        prc_buf_init(&gz, 1u << 20);
        if (!prc_gzip_write((const uint8_t *)toml, n, &gz, &err))
                t_fail(__FILE__, __LINE__, "gzip: %s", err.msg);
        path = t_write(t_tmpdir(), "gitleaks-v8.30.0.toml.gz", gz.data, gz.len);
        prc_buf_clear(&gz);
        free(toml);
        return path;
}

#endif
