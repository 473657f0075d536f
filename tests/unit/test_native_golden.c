/*
 * test_native_golden.c - golden outputs of the three native normalizers:
 * every hand-made fixture (tests/golden/native/TOOL/NAME.in) and every
 * real sample in ../shared/corpora/native (read in place).  A case's
 * expectation is <name>.out (canonical JSON: artifact digest and media
 * type, the artifact itself, observations, report descriptor) or <name>.err
 * ("class pointer").  PRC_UPDATE_GOLDEN=1 rewrites them; review the diff.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "native_t.h"

/* The expectation text of one normalization (malloc'd). */
static char *render(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx)
{
        prc_native_result r = { 0 };
        prc_err err;
        prc_buf b;
        char *text;
        size_t len;

        prc_err_init(&err);
        prc_buf_init(&b, 1u << 26);
        if (!prc_native_normalize(s, p, n, ctx, &r, &err)) {
                if (!prc_buf_printf(&b, &err, "%s %s\n", prc_err_name(err.cls), err.ptr[0] ? err.ptr : "-"))
                        t_fail(__FILE__, __LINE__, "render");
        } else {
                prc_err e2;
                json_t *art, *o;
                prc_err_init(&e2);
                art = prc_json_parse(r.artifact, r.artifact_len, &prc_native_limits, 0, &e2);
                T_ASSERT(art != NULL);
                o = json_pack("{s:s,s:s,s:o,s:O,s:O}", "artifact_sha256", r.artifact_sha256, "artifact_media_type",
                              r.artifact_media_type, "artifact", art, "observations", r.observations, "report",
                              r.report);
                T_ASSERT(o != NULL);
                if (!prc_jcs_write(o, &b, &e2) || !prc_buf_putc(&b, '\n', &e2))
                        t_fail(__FILE__, __LINE__, "render: %s", e2.msg);
                json_decref(o);
                {
                        /* the artifact is canonical: re-encoding it gives the same bytes */
                        prc_buf c;
                        json_t *again = prc_json_parse(r.artifact, r.artifact_len, &prc_native_limits, 0, &e2);
                        prc_buf_init(&c, 1u << 26);
                        T_ASSERT(again != NULL && prc_jcs_write(again, &c, &e2));
                        T_EQ_MEM(c.data, c.len, r.artifact, r.artifact_len);
                        prc_buf_clear(&c);
                        json_decref(again);
                }
                prc_native_result_clear(&r);
        }
        text = (char *)prc_buf_take(&b, &len, &err);
        prc_buf_clear(&b);
        T_ASSERT(text != NULL);
        return text;
}

/* Compare with (or, under PRC_UPDATE_GOLDEN=1, write) base.out / base.err; returns 1 on mismatch. */
static int check(const char *base, const char *got)
{
        char out[2100], errp[2100];
        const char *update = getenv("PRC_UPDATE_GOLDEN");
        bool is_err = strchr(got, '{') == NULL;
        char *want;
        size_t n;

        snprintf(out, sizeof(out), "%s.out", base);
        snprintf(errp, sizeof(errp), "%s.err", base);
        if (update != NULL && strcmp(update, "1") == 0) {
                FILE *f;
                (void)unlink(out);
                (void)unlink(errp);
                f = fopen(is_err ? errp : out, "w");
                T_ASSERT(f != NULL);
                fputs(got, f);
                fclose(f);
                return 0;
        }
        if (access(is_err ? errp : out, R_OK) != 0) {
                fprintf(stderr, "  %s: no %s golden for: %s", base, is_err ? ".err" : ".out", got);
                return 1;
        }
        want = t_read(is_err ? errp : out, &n);
        if (n != strlen(got) || memcmp(want, got, n) != 0) {
                fprintf(stderr, "  %s: got %.300s", base, got);
                free(want);
                return 1;
        }
        free(want);
        return 0;
}

static int filter_in(const struct dirent *d)
{
        size_t n = strlen(d->d_name);
        return n > 3 && strcmp(d->d_name + n - 3, ".in") == 0;
}

static void run_tool(const char *tool)
{
        char dir[1024];
        struct dirent **ents;
        int i, k, bad = 0;

        snprintf(dir, sizeof(dir), "%s/tests/golden/native/%s", t_root(), tool);
        k = scandir(dir, &ents, filter_in, alphasort);
        T_ASSERT(k > 0);
        for (i = 0; i < k; i++) {
                char path[2048], base[2048], name[256];
                size_t n;
                char *p, *got;
                prc_native_ctx ctx;
                snprintf(name, sizeof(name), "%.*s", (int)(strlen(ents[i]->d_name) - 3), ents[i]->d_name);
                snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
                snprintf(base, sizeof(base), "%s/%s", dir, name);
                ctx = nt_ctx(name);
                p = t_read(path, &n);
                got = render(nt_spec(tool), (const uint8_t *)p, n, &ctx);
                bad += check(base, got);
                free(got);
                free(p);
                free(ents[i]);
        }
        free(ents);
        if (bad)
                t_fail(__FILE__, __LINE__, "%d %s golden case(s) differ", bad, tool);
}

static void test_native_golden__gitleaks_fixtures(void) { run_tool("gitleaks"); }
static void test_native_golden__syft_fixtures(void) { run_tool("syft"); }
static void test_native_golden__grype_fixtures(void) { run_tool("grype"); }

/* Every real sample in the corpus, under the protocol its format belongs to. */
static const struct real {
        const char *tool, *rel, *golden;
} reals[] = {
        { "gitleaks", "gitleaks/reports/native/json_simple.json", "gitleaks-json_simple" },
        { "gitleaks", "gitleaks/reports/native/baseline.json", "gitleaks-baseline" },
        { "gitleaks", "gitleaks/reports/non-native/template_jsonextra.json", "gitleaks-template_jsonextra" },
        { "syft", "syft/cyclonedx-json/spec-1.7/TestCycloneDxDirectoryEncoder.golden.json", "syft-spec-1.7" },
        { "syft", "syft/cyclonedx-json/legacy-spec-1.6/TestCycloneDxDirectoryEncoder.golden.json", "syft-spec-1.6" },
        { "syft", "syft/cyclonedx-json/decoder-fixtures/identify-1.7.json", "syft-identify-1.7" },
        { "syft", "syft/cyclonedx-json/decoder-fixtures/identify-1.6.json", "syft-identify-1.6" },
        { "syft", "syft/cyclonedx-json/decoder-fixtures/identify-1.5.json", "syft-identify-1.5" },
        { "syft", "grype/cyclonedx/TestCycloneDxPresenterImage.golden.json", "syft-grype-cyclonedx" },
        { "grype", "grype/json/current/TestJsonDirsPresenter.golden.json", "grype-dirs" },
        { "grype", "grype/json/current/TestJsonImgsPresenter.golden.json", "grype-imgs" },
        { "grype", "grype/json/legacy-v5-era/ghsa-test.json", "grype-ghsa-v5" },
        { "grype", "grype/json/legacy-v5-era/chainguard-ruby-test.json", "grype-chainguard-v5" },
};

static void test_native_golden__real_samples(void)
{
        size_t i;
        int bad = 0;

        for (i = 0; i < PRC_ARRAY_LEN(reals); i++) {
                char base[1200];
                size_t n;
                char *p = t_read(nt_corpus(reals[i].rel), &n), *got;
                prc_native_ctx ctx = nt_ctx("");
                snprintf(base, sizeof(base), "%s/tests/golden/native/real/%s", t_root(), reals[i].golden);
                got = render(nt_spec(reals[i].tool), (const uint8_t *)p, n, &ctx);
                bad += check(base, got);
                free(got);
                free(p);
        }
        if (bad)
                t_fail(__FILE__, __LINE__, "%d real-sample golden case(s) differ", bad);
}

/*
 * Hostile-path sweep: every accepted golden input, truncated and with single
 * bits flipped at spread-out offsets, gives exactly one outcome (a result,
 * or an error class) and never crashes.
 */
static void sweep_one(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx)
{
        prc_native_result r = { 0 };
        prc_err err;
        bool ok;

        prc_err_init(&err);
        ok = prc_native_normalize(s, p, n, ctx, &r, &err);
        if (ok != (err.cls == PRC_E_OK) || ok != (r.artifact != NULL))
                t_fail(__FILE__, __LINE__, "not exactly one outcome (%s)", prc_err_name(err.cls));
        prc_native_result_clear(&r);
}

static void test_native_golden__bitflip_and_truncation_sweep(void)
{
        static const char *const tools[] = { "gitleaks", "syft", "grype" };
        size_t t;

        for (t = 0; t < PRC_ARRAY_LEN(tools); t++) {
                char dir[1024];
                struct dirent **ents;
                int i, k;
                snprintf(dir, sizeof(dir), "%s/tests/golden/native/%s", t_root(), tools[t]);
                k = scandir(dir, &ents, filter_in, alphasort);
                T_ASSERT(k > 0);
                for (i = 0; i < k; i++) {
                        char path[2048], outp[2048];
                        size_t n, off, len;
                        char *p;
                        prc_native_ctx ctx = nt_ctx(ents[i]->d_name);
                        len = strlen(ents[i]->d_name);
                        snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
                        snprintf(outp, sizeof(outp), "%s/%.*s.out", dir, (int)(len - 3), ents[i]->d_name);
                        free(ents[i]);
                        if (access(outp, R_OK) != 0)
                                continue;       /* only accepted inputs */
                        p = t_read(path, &n);
                        for (off = 0; off < n; off += 1 + n / 40)
                                sweep_one(nt_spec(tools[t]), (const uint8_t *)p, off, &ctx);
                        for (off = 0; off < n; off += 1 + n / 60) {
                                int bit;
                                for (bit = 0; bit < 8; bit += 3) {
                                        p[off] ^= (char)(1 << bit);
                                        sweep_one(nt_spec(tools[t]), (const uint8_t *)p, n, &ctx);
                                        p[off] ^= (char)(1 << bit);
                                }
                        }
                        free(p);
                }
                free(ents);
        }
}

/*
 * Allocation-failure sweep (prc_fault_arm): for one accepted input per
 * tool, failing the Nth allocation of a normalization must give
 * out-of-memory (never a result, never another class, never a crash).
 */
static void test_native_golden__allocation_failure_sweep(void)
{
        static const char *const cases[][2] = {
                { "gitleaks", "001-findings" }, { "syft", "001-dir" }, { "grype", "001-dir" },
        };
        size_t c;

        for (c = 0; c < PRC_ARRAY_LEN(cases); c++) {
                char path[1024];
                size_t n;
                char *p;
                prc_native_ctx ctx = nt_ctx(cases[c][1]);
                prc_native_result r = { 0 };
                prc_err err;
                unsigned long total, nth;

                snprintf(path, sizeof(path), "%s/tests/golden/native/%s/%s.in", t_root(), cases[c][0], cases[c][1]);
                p = t_read(path, &n);
                prc_err_init(&err);
                prc_fault_arm(0, false);
                T_ASSERT(prc_native_normalize(nt_spec(cases[c][0]), (const uint8_t *)p, n, &ctx, &r, &err));
                total = prc_fault_count();
                prc_native_result_clear(&r);
                T_ASSERT(total > 10);
                for (nth = 1; nth <= total; nth++) {
                        bool ok;
                        prc_err_init(&err);
                        prc_fault_arm(nth, false);
                        ok = prc_native_normalize(nt_spec(cases[c][0]), (const uint8_t *)p, n, &ctx, &r, &err);
                        prc_fault_arm(0, false);
                        if (ok) {
                                prc_native_result_clear(&r);
                                t_fail(__FILE__, __LINE__, "%s: allocation %lu of %lu failed but normalize succeeded",
                                       cases[c][0], nth, total);
                        }
                        if (err.cls != PRC_E_OUT_OF_MEMORY)
                                t_fail(__FILE__, __LINE__, "%s: allocation %lu of %lu: %s (%s)", cases[c][0], nth,
                                       total, prc_err_name(err.cls), err.msg);
                }
                free(p);
        }
}

static const prc_test tests[] = {
        T(test_native_golden__allocation_failure_sweep),
        T(test_native_golden__bitflip_and_truncation_sweep),
        T(test_native_golden__gitleaks_fixtures),
        T(test_native_golden__syft_fixtures),
        T(test_native_golden__grype_fixtures),
        T(test_native_golden__real_samples),
};

PRC_SUITE(native_golden, tests)
