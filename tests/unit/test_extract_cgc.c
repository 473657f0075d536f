/*
 * test_extract_cgc.c - the Rust, Go and PHP extractors (cargo.c, golang.c,
 * composer.c): every format, every Cargo.lock version (1 to 4), the
 * refusals with their classes and lines, and that no credential's value
 * ever reaches the ManifestDoc.  Fixtures: tests/fixtures/extract/{cargo,
 * golang,composer}/.
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "mdoc_t.h"

/* Run the extractor of format over src as inventory path; NULL with *e set on refusal. */
static json_t *xrun(const char *format, const char *path, const char *src, size_t n, prc_err *e)
{
        const prc_extractor *x = prc_extractor_by_format(format);
        prc_xin in = { path, (const uint8_t *)src, n, &prc_limits_default };
        json_t *md;

        T_ASSERT(x != NULL);
        prc_err_init(e);
        md = x->fn(&in, e);
        T_ASSERT((md == NULL) == prc_err_is_set(e));
        return t_md_checked(md, path, format);
}

static json_t *xstr(const char *format, const char *path, const char *src)
{
        prc_err e;
        json_t *md = xrun(format, path, src, strlen(src), &e);

        T_NOERR(e);
        return md;
}

/* Refused with class cls at line (0: do not check the line). */
static void xbad(const char *format, const char *path, const char *src, prc_errclass cls, uint32_t line)
{
        prc_err e;
        json_t *md = xrun(format, path, src, strlen(src), &e);

        if (md != NULL || e.cls != cls || (line > 0 && e.line != line))
                t_fail(__FILE__, __LINE__, "%s: want %s at line %u, got %s at line %u (%s) for:\n%s", format,
                       prc_err_name(cls), line, md != NULL ? "a document" : prc_err_name(e.cls), e.line, e.msg, src);
        json_decref(md);
}

static json_t *xfix(const char *format, const char *path, const char *fixture)
{
        char file[4096];
        size_t n;
        char *src;
        prc_err e;
        json_t *md;

        snprintf(file, sizeof(file), "%s/tests/fixtures/extract/%s", t_root(), fixture);
        src = t_read(file, &n);
        md = xrun(format, path, src, n, &e);
        free(src);
        T_NOERR(e);
        return md;
}

/* A member by a dotted path ("source.url"); array elements by number ("dependencies.3.name"). */
static json_t *jget(json_t *o, const char *path)
{
        char buf[256];
        char *save = NULL, *tok;

        snprintf(buf, sizeof(buf), "%s", path);
        for (tok = strtok_r(buf, ".", &save); tok != NULL && o != NULL; tok = strtok_r(NULL, ".", &save))
                o = json_is_array(o) ? json_array_get(o, strtoul(tok, NULL, 10)) : json_object_get(o, tok);
        return o;
}

static const char *js(json_t *o, const char *path)
{
        return json_string_value(jget(o, path));
}

static long long ji(json_t *o, const char *path)
{
        json_t *v = jget(o, path);

        return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* The n-th dependency named name (0 = first). */
static json_t *dep(json_t *md, const char *name, int nth)
{
        size_t i;
        json_t *d;

        json_array_foreach(json_object_get(md, "dependencies"), i, d)
                if (strcmp(js(d, "name"), name) == 0 && nth-- == 0)
                        return d;
        t_fail(__FILE__, __LINE__, "no dependency '%s'", name);
}

static size_t ndeps(json_t *md)
{
        return json_array_size(json_object_get(md, "dependencies"));
}

/* No secret value anywhere in the document. */
static void no_secret(json_t *md, const char *secret)
{
        char *s = json_dumps(md, JSON_COMPACT);

        T_ASSERT(s != NULL);
        if (strstr(s, secret) != NULL)
                t_fail(__FILE__, __LINE__, "the secret '%s' reached the ManifestDoc", secret);
        free(s);
}

static bool has_credential(json_t *md, const char *key, long long line)
{
        size_t i;
        json_t *c;

        json_array_foreach(json_object_get(md, "credentials"), i, c)
                if (strcmp(js(c, "key"), key) == 0 && ji(c, "line") == line)
                        return true;
        return false;
}

#define SRC(d, type, url, ref, commit)                                  \
        do {                                                            \
                T_EQ_STR(js(d, "source.type"), type);                   \
                T_ASSERT(((url) == NULL) == (js(d, "source.url") == NULL)); \
                if ((url) != NULL)                                      \
                        T_EQ_STR(js(d, "source.url"), (url));           \
                T_ASSERT(((ref) == NULL) == (js(d, "source.ref") == NULL)); \
                if ((ref) != NULL)                                      \
                        T_EQ_STR(js(d, "source.ref"), (ref));           \
                T_ASSERT(((commit) == NULL) == (js(d, "source.commit") == NULL)); \
                if ((commit) != NULL)                                   \
                        T_EQ_STR(js(d, "source.commit"), (commit));     \
        } while (0)

static const char c40[] = "0123456789abcdef0123456789abcdef01234567";
static const char h64a[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/* ---- the table ---- */

static void test_extract_cgc__files_are_owned_by_name(void)
{
        static const char *const cases[][2] = {
                { "Cargo.toml", "cargo-toml" },         { "crates/x/Cargo.toml", "cargo-toml" },
                { "Cargo.lock", "cargo-lock" },         { "svc/go.mod", "go-mod" },
                { "go.sum", "go-sum" },                 { "go.work.sum", "go-sum" },
                { "go.work", "go-work" },               { "web/composer.json", "composer-json" },
                { "composer.lock", "composer-lock" },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                const prc_extractor *x = prc_extractor_for_path(cases[i][0]);

                T_ASSERT(x != NULL);
                T_EQ_STR(x->format, cases[i][1]);
        }
        T_ASSERT(prc_extractor_for_path("cargo.toml") == NULL || strcmp(prc_extractor_for_path("cargo.toml")->format,
                                                                        "cargo-toml") != 0);
        T_ASSERT(prc_extractor_for_path("go.mod.bak") == NULL);
}

/* ---- Cargo.toml ---- */

static void test_extract_cgc__cargo_toml_every_dependency_form(void)
{
        json_t *md = xfix("cargo-toml", "Cargo.toml", "cargo/Cargo.toml"), *d;

        T_EQ_STR(js(md, "ecosystem"), "cargo");
        T_EQ_STR(js(md, "kind"), "manifest");
        T_EQ_STR(js(md, "package.name"), "demo-app");
        T_EQ_STR(js(md, "package.version"), "0.3.1");
        T_EQ_STR(js(md, "package.purl"), "pkg:cargo/demo-app@0.3.1");
        T_EQ_INT(ji(md, "package.line"), 2);
        /* the build script is a hook */
        T_EQ_STR(js(md, "hooks.0.name"), "build");
        T_EQ_STR(js(md, "hooks.0.command"), "build.rs");
        T_EQ_INT(ji(md, "hooks.0.line"), 6);
        T_EQ_INT(ndeps(md), 17);

        d = dep(md, "serde", 0);
        T_EQ_STR(js(d, "requirement"), "1.0");
        T_EQ_STR(js(d, "scope"), "runtime");
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_EQ_STR(js(d, "purl"), "pkg:cargo/serde");
        T_EQ_INT(ji(d, "line"), 9);
        SRC(d, "registry", NULL, NULL, NULL);
        T_EQ_STR(js(dep(md, "serde_json", 0), "requirement"), "1.0.100");
        T_EQ_STR(js(dep(md, "rand", 0), "scope"), "optional");
        d = dep(md, "local-util", 0);
        SRC(d, "path", "../local-util", NULL, NULL);
        T_EQ_STR(js(d, "requirement"), "0.1");
        SRC(dep(md, "mygit", 0), "git", "https://github.com/o/mygit", "main", NULL);
        SRC(dep(md, "tagged", 0), "git", "https://github.com/o/tagged.git", "v1.2.0", NULL);
        /* a full commit as rev is the resolved commit too */
        SRC(dep(md, "pinned", 0), "git", "https://github.com/o/pinned", c40, c40);
        /* a renamed dependency is the crate the registry knows; the key is in details.renamed */
        d = dep(md, "serde_json", 1);
        T_EQ_STR(js(d, "requirement"), "0.9");
        T_EQ_INT(ji(d, "line"), 16);
        T_EQ_STR(js(md, "details.renamed.0.key"), "json1");
        T_EQ_STR(js(md, "details.renamed.0.package"), "serde_json");
        T_EQ_STR(js(md, "details.dependency_registries.0.name"), "private");
        T_EQ_STR(js(md, "details.dependency_registries.0.registry"), "corp");
        /* registry-index with userinfo: stored without it, the credential only by key */
        SRC(dep(md, "indexed", 0), "registry", "https://registry.corp.example/index", NULL, NULL);
        T_ASSERT(has_credential(md, "dependency source URL userinfo", 18));
        no_secret(md, "hunter2");
        no_secret(md, "deploy");
        d = dep(md, "shared", 0);
        SRC(d, "workspace", NULL, NULL, NULL);
        T_ASSERT(json_is_null(jget(d, "requirement")));
        T_EQ_INT(ji(d, "line"), 19);
        T_EQ_INT(ji(dep(md, "tokio", 0), "line"), 21);
        T_EQ_STR(js(dep(md, "tokio", 0), "requirement"), "1.35");
        T_EQ_STR(js(dep(md, "proptest", 0), "scope"), "dev");
        T_EQ_STR(js(dep(md, "cc", 0), "scope"), "build");
        d = dep(md, "winapi", 0);
        T_EQ_STR(js(d, "group"), "cfg(windows)");
        T_EQ_INT(ji(d, "line"), 32);
        d = dep(md, "libc", 0);
        T_EQ_STR(js(d, "group"), "x86_64-unknown-linux-gnu");
        T_EQ_STR(js(d, "scope"), "dev");
        T_EQ_INT(ji(d, "line"), 35);
        /* [workspace.dependencies] are declared for the members */
        d = dep(md, "shared", 1);
        T_EQ_STR(js(d, "group"), "workspace");
        T_EQ_STR(js(d, "requirement"), "4.1");
        T_EQ_INT(ji(d, "line"), 42);
        T_EQ_STR(js(md, "details.workspace.members.0"), "crates/*");
        T_EQ_STR(js(md, "details.workspace.exclude.0"), "old");
        /* [patch] is named, never silently dropped */
        T_EQ_STR(js(md, "not_extracted.0.what"), "patch.crates-io.serde");
        T_EQ_INT(ji(md, "not_extracted.0.line"), 45);
        json_decref(md);
}

static void test_extract_cgc__cargo_toml_virtual_workspace_and_inherited_version(void)
{
        json_t *md = xstr("cargo-toml", "Cargo.toml",
                          "[workspace]\nmembers = [\"a\"]\n[workspace.dependencies]\nlog = \"0.4\"\n");

        T_ASSERT(json_is_null(json_object_get(md, "package")));
        T_EQ_INT(ndeps(md), 1);
        T_EQ_INT(ji(dep(md, "log", 0), "line"), 4);
        json_decref(md);
        md = xstr("cargo-toml", "Cargo.toml", "[package]\nname = \"m\"\nversion.workspace = true\n");
        T_EQ_STR(js(md, "package.name"), "m");
        T_ASSERT(json_is_null(jget(md, "package.version")));
        T_EQ_STR(js(md, "package.purl"), "pkg:cargo/m");
        T_ASSERT(json_is_true(jget(md, "details.version_from_workspace")));
        json_decref(md);
        /* an inline dependency table: the line of the table */
        md = xstr("cargo-toml", "Cargo.toml", "# x\ndependencies = { log = \"0.4\" }\n");
        T_EQ_INT(ji(dep(md, "log", 0), "line"), 2);
        json_decref(md);
}

static void test_extract_cgc__cargo_toml_refusals(void)
{
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\nserde = 1\n", PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\na = { version = 1 }\n", PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\nb = { git = \"u\", path = \"p\" }\n", PRC_E_EXTRACT_SHAPE,
             2);
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\nc = { branch = \"main\" }\n", PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\nd = { workspace = false }\n", PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-toml", "Cargo.toml", "[dependencies]\ne = { workspace = true, version = \"1\" }\n",
             PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-toml", "Cargo.toml", "dependencies = 3\n", PRC_E_EXTRACT_SHAPE, 1);
        xbad("cargo-toml", "Cargo.toml", "[package]\nversion = \"1\"\n", PRC_E_EXTRACT_SHAPE, 1);
        /* the TOML reader's own classes pass through */
        xbad("cargo-toml", "Cargo.toml", "[dependencies\nx = 1\n", PRC_E_TOML_SYNTAX, 1);
}

/* ---- Cargo.lock, versions 1 to 4 ---- */

static void test_extract_cgc__cargo_lock_v1_metadata_checksums(void)
{
        json_t *md = xfix("cargo-lock", "Cargo.lock", "cargo/lock-v1.lock"), *d;

        T_EQ_STR(js(md, "kind"), "lockfile");
        T_EQ_INT(ji(md, "details.lockfile_version"), 1);
        T_EQ_INT(ndeps(md), 4);
        d = dep(md, "demo", 0);
        SRC(d, "path", NULL, NULL, NULL);
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_EQ_INT(ji(d, "line"), 1);
        d = dep(md, "serde", 0);
        T_EQ_STR(js(d, "resolved"), "1.0.100");
        T_ASSERT(json_is_null(jget(d, "requirement")));
        T_EQ_STR(js(d, "integrity.algorithm"), "sha256");
        T_EQ_STR(js(d, "integrity.value"), h64a);
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_EQ_STR(js(d, "purl"), "pkg:cargo/serde@1.0.100");
        SRC(d, "registry", NULL, NULL, NULL);
        /* "<none>" is no checksum; a package only another crate needs is transitive */
        d = dep(md, "serde_derive", 0);
        T_ASSERT(json_is_null(jget(d, "integrity")));
        T_ASSERT(json_is_false(jget(d, "direct")));
        d = dep(md, "mygit", 0);
        SRC(d, "git", "https://github.com/o/mygit", "main", c40);
        T_EQ_STR(js(d, "purl"), "pkg:cargo/mygit@0.2.0?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Fo%2Fmygit%40"
                                "0123456789abcdef0123456789abcdef01234567");
        T_EQ_INT(ji(d, "line"), 9);
        /* the graph: demo -> mygit, serde; serde -> serde_derive */
        T_EQ_INT(ji(md, "dependencies.0.depends_on.0"), 1);
        T_EQ_INT(ji(md, "dependencies.0.depends_on.1"), 2);
        T_EQ_INT(ji(md, "dependencies.2.depends_on.0"), 3);
        T_EQ_STR(t_md_edges(md, dep(md, "serde_derive", 0)), "");    /* a leaf: none, stated */
        json_decref(md);
}

static void test_extract_cgc__cargo_lock_v1_root_table(void)
{
        json_t *md = xstr("cargo-lock", "Cargo.lock",
                          "[root]\nname = \"old\"\nversion = \"0.1.0\"\ndependencies = [\n"
                          " \"libc 0.2.0 (registry+https://github.com/rust-lang/crates.io-index)\",\n]\n\n"
                          "[[package]]\nname = \"libc\"\nversion = \"0.2.0\"\n"
                          "source = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[metadata]\n");

        T_EQ_INT(ji(md, "details.lockfile_version"), 1);
        T_EQ_INT(ndeps(md), 2);
        T_EQ_STR(js(md, "dependencies.0.name"), "old");
        T_EQ_INT(ji(md, "dependencies.0.line"), 1);
        T_EQ_INT(ji(md, "dependencies.1.line"), 8);
        T_ASSERT(json_is_true(jget(md, "dependencies.1.direct")));
        json_decref(md);
}

static void test_extract_cgc__cargo_lock_v2_short_dependency_entries(void)
{
        json_t *md = xfix("cargo-lock", "Cargo.lock", "cargo/lock-v2.lock"), *d;

        T_EQ_INT(ji(md, "details.lockfile_version"), 2);
        T_EQ_INT(ndeps(md), 4);
        /* "rand 0.7.3" and "rand 0.8.5" each pick their package */
        T_EQ_INT(ji(md, "dependencies.0.depends_on.0"), 1);
        T_EQ_INT(ji(md, "dependencies.0.depends_on.1"), 2);
        T_EQ_INT(ji(md, "dependencies.0.depends_on.2"), 3);
        d = dep(md, "rand", 1);
        T_EQ_STR(js(d, "resolved"), "0.8.5");
        T_EQ_STR(js(d, "integrity.value"), "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_EQ_INT(ji(d, "line"), 18);
        json_decref(md);
}

static void test_extract_cgc__cargo_lock_v3_private_registry_credential(void)
{
        json_t *md = xfix("cargo-lock", "Cargo.lock", "cargo/lock-v3.lock"), *d;

        T_EQ_INT(ji(md, "details.lockfile_version"), 3);
        d = dep(md, "corp-lib", 0);
        SRC(d, "registry", "https://registry.corp.example/git/index", NULL, NULL);
        T_EQ_STR(js(d, "purl"), "pkg:cargo/corp-lib@2.0.0?repository_url=https%3A%2F%2Fregistry.corp.example%2Fgit"
                                "%2Findex");
        T_ASSERT(has_credential(md, "dependency source URL userinfo", 13));
        no_secret(md, "s3cret");
        no_secret(md, "ci:");
        /* a path dependency of the workspace (no source) is a local package, and direct */
        d = dep(md, "helper", 0);
        SRC(d, "path", NULL, NULL, NULL);
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_ASSERT(json_is_null(jget(d, "integrity")));
        json_decref(md);
}

static void test_extract_cgc__cargo_lock_v4_sparse_and_git_refs(void)
{
        json_t *md = xfix("cargo-lock", "Cargo.lock", "cargo/lock-v4.lock"), *d;

        T_EQ_INT(ji(md, "details.lockfile_version"), 4);
        T_EQ_INT(ndeps(md), 5);
        /* crates.io's sparse index is the default registry */
        d = dep(md, "anyhow", 0);
        SRC(d, "registry", NULL, NULL, NULL);
        T_EQ_STR(js(d, "purl"), "pkg:cargo/anyhow@1.0.86");
        T_EQ_STR(js(d, "integrity.value"), h64a);
        SRC(dep(md, "sparse-lib", 0), "registry", "sparse+https://cargo.corp.example/api/v1/crates/", NULL, NULL);
        SRC(dep(md, "pinned", 0), "git", "https://github.com/o/pinned", "0123456", c40);
        SRC(dep(md, "tagged", 0), "git", "https://github.com/o/tagged.git", "v1.2.0", c40);
        T_ASSERT(json_is_null(jget(dep(md, "tagged", 0), "integrity")));
        T_EQ_INT(ji(dep(md, "tagged", 0), "line"), 32);
        json_decref(md);
}

static void test_extract_cgc__cargo_lock_unknown_version_is_refused(void)
{
        xbad("cargo-lock", "Cargo.lock", "version = 5\n", PRC_E_EXTRACT_VERSION, 1);
        /* cargo never writes 1 or 2: their marker is the absence of one */
        xbad("cargo-lock", "Cargo.lock", "# x\nversion = 2\n", PRC_E_EXTRACT_VERSION, 2);
        xbad("cargo-lock", "Cargo.lock", "version = \"3\"\n", PRC_E_EXTRACT_SHAPE, 1);
}

static void test_extract_cgc__cargo_lock_refusals(void)
{
        static const char pre[] = "version = 3\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n";
        char src[512];

        snprintf(src, sizeof(src), "%sdependencies = [\"nothere\"]\n", pre);
        xbad("cargo-lock", "Cargo.lock", src, PRC_E_CARGO_LOCK_DEPENDENCY, 2);
        /* two versions of b and an entry that does not say which */
        snprintf(src, sizeof(src), "%sdependencies = [\"b\"]\n[[package]]\nname = \"b\"\nversion = \"1.0.0\"\n"
                 "[[package]]\nname = \"b\"\nversion = \"2.0.0\"\n", pre);
        xbad("cargo-lock", "Cargo.lock", src, PRC_E_CARGO_LOCK_DEPENDENCY, 2);
        snprintf(src, sizeof(src), "%sdependencies = [\"b 1.0.0 registry\"]\n", pre);
        xbad("cargo-lock", "Cargo.lock", src, PRC_E_CARGO_LOCK_DEPENDENCY, 2);
        snprintf(src, sizeof(src), "%ssource = \"svn+https://x\"\n", pre);
        xbad("cargo-lock", "Cargo.lock", src, PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-lock", "Cargo.lock", "version = 3\n[[package]]\nname = \"a\"\n", PRC_E_EXTRACT_SHAPE, 2);
        xbad("cargo-lock", "Cargo.lock", "version = 3\npackage = 1\n", PRC_E_EXTRACT_SHAPE, 0);
        snprintf(src, sizeof(src), "%schecksum = 7\n", pre);
        xbad("cargo-lock", "Cargo.lock", src, PRC_E_EXTRACT_SHAPE, 2);
}

/* ---- go.mod, go.sum, go.work ---- */

static void test_extract_cgc__go_mod_every_directive(void)
{
        json_t *md = xfix("go-mod", "go.mod", "golang/go.mod"), *d;

        T_EQ_STR(js(md, "ecosystem"), "golang");
        T_EQ_STR(js(md, "package.name"), "example.com/Demo");
        T_EQ_STR(js(md, "package.purl"), "pkg:golang/example.com/demo");
        T_EQ_INT(ji(md, "package.line"), 2);
        T_EQ_STR(js(md, "details.deprecated"), "use example.com/demo/v2 instead.");
        T_EQ_STR(js(md, "details.go"), "1.22.1");
        T_EQ_STR(js(md, "details.toolchain"), "go1.23.4");
        T_EQ_STR(js(md, "details.godebug.1.key"), "panicnil");
        T_EQ_STR(js(md, "details.godebug.1.value"), "1");
        T_EQ_INT(ndeps(md), 5);
        d = dep(md, "github.com/BurntSushi/toml", 0);
        T_EQ_STR(t_md_edges(md, d), "null");   /* go.mod states no module graph */
        T_EQ_STR(js(d, "requirement"), "v1.3.2");
        T_EQ_STR(js(d, "resolved"), "v1.3.2");
        T_ASSERT(json_is_true(jget(d, "direct")));
        /* purl-spec golang: namespace is the module path minus its last segment, lower-cased */
        T_EQ_STR(js(d, "purl"), "pkg:golang/github.com/burntsushi/toml@v1.3.2");
        T_EQ_INT(ji(d, "line"), 13);
        d = dep(md, "github.com/old/thing", 0);
        T_ASSERT(json_is_false(jget(d, "direct")));
        T_EQ_STR(js(d, "purl"), "pkg:golang/github.com/old/thing@v2.0.0%2Bincompatible");
        /* a directory replacement becomes the requirement's source */
        SRC(d, "path", "../thing", NULL, NULL);
        T_ASSERT(json_is_false(jget(dep(md, "gopkg.in/yaml.v3", 0), "direct")));
        d = dep(md, "github.com/quoted/mod", 0);
        T_ASSERT(json_is_true(jget(d, "direct")));
        T_EQ_INT(ji(d, "line"), 17);
        SRC(d, "path", "./vendor/quoted", NULL, NULL);
        /* a module replacement stays as required and is listed */
        SRC(dep(md, "golang.org/x/mod", 0), "registry", NULL, NULL, NULL);
        T_EQ_STR(js(md, "details.replace.1.new_name"), "github.com/fork/mod");
        T_EQ_STR(js(md, "details.replace.1.new_version"), "v0.17.1");
        T_EQ_STR(js(md, "details.replace.1.version"), "v0.17.0");
        T_EQ_INT(ji(md, "details.replace.1.line"), 25);
        T_EQ_STR(js(md, "details.exclude.0.name"), "github.com/bad/dep");
        T_EQ_STR(js(md, "details.exclude.0.version"), "v1.2.3");
        T_EQ_STR(js(md, "details.retract.0.low"), "v1.0.0");
        T_EQ_STR(js(md, "details.retract.0.rationale"), "The v1.0.0 tag was published by mistake.");
        T_EQ_STR(js(md, "details.retract.1.low"), "v1.1.0");
        T_EQ_STR(js(md, "details.retract.1.high"), "v1.1.5");
        T_EQ_STR(js(md, "details.retract.1.rationale"), "broken build");
        T_EQ_STR(js(md, "details.tool.0.name"), "golang.org/x/tools/cmd/stringer");
        T_EQ_INT(json_array_size(json_object_get(md, "not_extracted")), 0);
        json_decref(md);
}

static void test_extract_cgc__go_mod_syntax_errors_carry_their_line(void)
{
        static const struct {
                const char *src;
                uint32_t    line;
        } bad[] = {
                { "module m\nrequire (\n\ta v1.0.0\n", 2 },             /* block never closed */
                { "module m\nrequire a master\n", 2 },                  /* not a version */
                { "module m\nrequire a\n", 2 },                         /* missing version */
                { "module m\nreplace a b v1.0.0\n", 2 },                /* no => */
                { "module m\nreplace a => ./dir v1.0.0\n", 2 },         /* directory with a version */
                { "module m\nreplace a => b\n", 2 },                    /* module without a version */
                { "module m\nmodule n\n", 2 },
                { "module \"m\n", 1 },                                  /* unterminated string */
                { "module m\n)\n", 2 },
                { "module m\nrequire ( a v1.0.0\n)\n", 2 },
                { "module m\nrequire (\n) x\n", 3 },
                { "module m\ngo 1.21\ngo 1.22\n", 3 },
                { "module m\ngo one\n", 2 },
                { "module m\nrequire a/*b v1.0.0\n", 2 },
                { "module m\nretract [v1.0.0 v1.1.0]\n", 2 },
                { "module m\ngodebug nokey\n", 2 },
                { "module m\nexclude a\n", 2 },
                { "module m\nmodule (\n)\n", 2 },
                { "require a v1.0.0\n", 1 },                            /* requirements without a module */
                { "module m\nrequire a\x01 v1.0.0\n", 2 },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++)
                xbad("go-mod", "go.mod", bad[i].src, PRC_E_GOMOD_SYNTAX, bad[i].line);
        xbad("go-mod", "go.mod", "module m\n// \xff\n", PRC_E_INVALID_UTF8, 2);
}

static void test_extract_cgc__go_mod_unknown_directive_is_named(void)
{
        json_t *md = xstr("go-mod", "go.mod", "module m\n\nfrobnicate x y\nfuture (\n\ta b\n)\nrequire a v1.0.0\n");

        T_EQ_INT(json_array_size(json_object_get(md, "not_extracted")), 2);
        T_EQ_STR(js(md, "not_extracted.0.what"), "frobnicate");
        T_EQ_INT(ji(md, "not_extracted.0.line"), 3);
        T_EQ_STR(js(md, "not_extracted.1.what"), "future");
        T_EQ_INT(ji(md, "not_extracted.1.line"), 4);
        T_EQ_INT(ndeps(md), 1);
        T_EQ_INT(ji(md, "dependencies.0.line"), 7);
        json_decref(md);
        /* an empty file is a module-less go.mod with nothing in it, and an empty block is allowed */
        md = xstr("go-mod", "go.mod", "");
        T_EQ_INT(ndeps(md), 0);
        json_decref(md);
        md = xstr("go-mod", "go.mod", "module m\r\nrequire ()\r\nrequire `a/b` v1.0.0 // indirect\r\n");
        T_EQ_INT(ndeps(md), 1);
        T_EQ_STR(js(md, "dependencies.0.name"), "a/b");
        T_ASSERT(json_is_false(jget(md, "dependencies.0.direct")));
        json_decref(md);
}

static void test_extract_cgc__go_sum_hashes_and_go_mod_lines(void)
{
        json_t *md = xfix("go-sum", "go.sum", "golang/go.sum"), *d;

        T_EQ_STR(js(md, "kind"), "lockfile");
        T_EQ_INT(ndeps(md), 3);
        T_ASSERT(json_is_false(jget(md, "details.direct_known")));
        d = dep(md, "github.com/BurntSushi/toml", 0);
        T_EQ_STR(js(d, "resolved"), "v1.3.2");
        T_EQ_STR(js(d, "integrity.algorithm"), "h1");
        T_EQ_STR(js(d, "integrity.value"), "o7IhLm0Msx3BaB+n3Ag7L8EVlByGnpq14C4YWiu/gL8=");
        T_ASSERT(json_is_null(jget(d, "group")));
        T_ASSERT(json_is_false(jget(d, "direct")));
        T_EQ_INT(ji(d, "line"), 1);
        T_EQ_STR(js(d, "purl"), "pkg:golang/github.com/burntsushi/toml@v1.3.2");
        /* a version stated only by its go.mod hash */
        d = dep(md, "github.com/only/gomod", 0);
        T_EQ_STR(js(d, "group"), "go.mod");
        T_EQ_STR(js(d, "integrity.value"), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
        T_EQ_INT(ji(d, "line"), 3);
        T_EQ_STR(json_string_value(json_object_get(jget(md, "details.go_mod_hashes"), "golang.org/x/mod@v0.17.0")),
                 "h1:hTbmBsO62+eylJbnUtE2MGJUyE7QWk4xUqPFrRgJ+7c=");
        /* the repeated line is tolerated, as the go command does */
        T_EQ_INT(ji(dep(md, "golang.org/x/mod", 0), "line"), 5);
        json_decref(md);
        /* the go.mod line first, the files' hash after: the files' hash wins, with its line */
        md = xstr("go-sum", "go.sum", "a v1.0.0/go.mod h1:X=\na v1.0.0 h1:Y=\n");
        T_EQ_INT(ndeps(md), 1);
        T_EQ_STR(js(md, "dependencies.0.integrity.value"), "Y=");
        T_ASSERT(json_is_null(jget(md, "dependencies.0.group")));
        T_EQ_INT(ji(md, "dependencies.0.line"), 2);
        json_decref(md);
}

static void test_extract_cgc__go_sum_refusals(void)
{
        xbad("go-sum", "go.sum", "a v1.0.0 h1:X=\nb v1.0.0\n", PRC_E_GOSUM_SYNTAX, 2);
        xbad("go-sum", "go.sum", "a v1.0.0 h1:X= extra\n", PRC_E_GOSUM_SYNTAX, 1);
        xbad("go-sum", "go.sum", "a 1.0.0 h1:X=\n", PRC_E_GOSUM_SYNTAX, 1);
        xbad("go-sum", "go.sum", "a v/go.mod h1:X=\n", PRC_E_GOSUM_SYNTAX, 1);
        xbad("go-sum", "go.sum", "a v1.0.0 nohash\n", PRC_E_GOSUM_SYNTAX, 1);
        xbad("go-sum", "go.sum", "a v1.0.0 h1:X=\na v1.0.0 h1:Z=\n", PRC_E_GOSUM_CONFLICT, 2);
        xbad("go-sum", "go.sum", "a v1.0.0/go.mod h1:X=\n\na v1.0.0/go.mod h1:Z=\n", PRC_E_GOSUM_CONFLICT, 3);
}

static void test_extract_cgc__go_work(void)
{
        json_t *md = xfix("go-work", "go.work", "golang/go.work");

        T_EQ_STR(js(md, "format"), "go-work");
        T_EQ_INT(ndeps(md), 0);
        T_EQ_STR(js(md, "details.go"), "1.22");
        T_EQ_STR(js(md, "details.toolchain"), "go1.22.5");
        T_EQ_STR(js(md, "details.use.0.path"), "./app");
        T_EQ_STR(js(md, "details.use.2.path"), "./tools/gen");
        T_EQ_INT(ji(md, "details.use.2.line"), 8);
        T_EQ_STR(js(md, "details.replace.0.path"), "./lib");
        json_decref(md);
        /* require is not a go.work directive */
        md = xstr("go-work", "go.work", "go 1.22\nrequire a v1.0.0\n");
        T_EQ_STR(js(md, "not_extracted.0.what"), "require");
        json_decref(md);
        xbad("go-work", "go.work", "use (\n./a\n", PRC_E_GOMOD_SYNTAX, 1);
}

static void test_extract_cgc__go_limits(void)
{
        prc_limits small = prc_limits_default;
        prc_xin in = { "go.mod", (const uint8_t *)"module m\n", 9, &small };
        char *big = malloc(PRC_MD_STR_MAX + 64);
        prc_err e;

        prc_err_init(&e);
        small.input_max = 4;
        T_ASSERT(prc_extractor_by_format("go-mod")->fn(&in, &e) == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        /* a module path past PRC_MD_STR_MAX */
        T_ASSERT(big != NULL);
        memcpy(big, "module m\nrequire ", 17);
        memset(big + 17, 'a', PRC_MD_STR_MAX + 1);
        memcpy(big + 17 + PRC_MD_STR_MAX + 1, " v1.0.0\n", 9);
        xbad("go-mod", "go.mod", big, PRC_E_EXTRACT_LIMIT, 0);
        free(big);
}

/* ---- composer.json, composer.lock ---- */

static void test_extract_cgc__composer_json(void)
{
        json_t *md = xfix("composer-json", "composer.json", "composer/composer.json"), *d;

        T_EQ_STR(js(md, "ecosystem"), "composer");
        T_EQ_STR(js(md, "package.name"), "Acme/Demo-App");
        T_EQ_STR(js(md, "package.version"), "1.4.0");
        /* purl-spec composer: vendor and name lower-cased */
        T_EQ_STR(js(md, "package.purl"), "pkg:composer/acme/demo-app@1.4.0");
        T_EQ_INT(ndeps(md), 6);
        d = dep(md, "php", 0);
        T_EQ_STR(js(d, "group"), "platform");
        T_ASSERT(json_is_null(jget(d, "purl")));
        T_EQ_STR(js(d, "requirement"), ">=8.1");
        T_EQ_STR(js(dep(md, "ext-json", 0), "group"), "platform");
        d = dep(md, "monolog/monolog", 0);
        T_EQ_STR(js(d, "requirement"), "^3.5");
        T_EQ_STR(js(d, "purl"), "pkg:composer/monolog/monolog");
        T_EQ_STR(js(d, "scope"), "runtime");
        T_EQ_INT(ji(d, "line"), 8);
        d = dep(md, "phpunit/phpunit", 0);
        T_EQ_STR(js(d, "scope"), "dev");
        T_EQ_INT(ji(d, "line"), 13);
        /* repositories: the registry's scope is composer's repository type; userinfo is a credential */
        T_EQ_INT(json_array_size(json_object_get(md, "registries")), 3);
        T_EQ_STR(js(md, "registries.0.scope"), "vcs");
        T_EQ_STR(js(md, "registries.0.url"), "https://github.com/acme/private-lib");
        T_EQ_STR(js(md, "registries.1.url"), "https://repo.acme.example");
        T_EQ_INT(ji(md, "registries.1.line"), 17);
        T_EQ_STR(js(md, "registries.2.scope"), "path");
        T_ASSERT(has_credential(md, "registry URL userinfo", 17));
        T_ASSERT(json_is_true(jget(md, "details.packagist_disabled")));
        T_EQ_STR(js(md, "not_extracted.0.what"), "package");
        /* config auth: by key, never the value */
        T_ASSERT(has_credential(md, "config.github-oauth.github.com", 23));
        T_ASSERT(has_credential(md, "config.http-basic.repo.acme.example", 24));
        no_secret(md, "SeCrEt99");
        no_secret(md, "ghp_notarealtoken");
        no_secret(md, "hunter2");
        /* events composer fires are hooks; other scripts are only named */
        T_EQ_INT(json_array_size(json_object_get(md, "hooks")), 3);
        T_EQ_STR(js(md, "hooks.0.name"), "post-install-cmd");
        T_EQ_STR(js(md, "hooks.0.command"), "@php artisan optimize");
        T_EQ_STR(js(md, "hooks.1.command"), "Acme\\Installer::postInstall");
        T_EQ_STR(js(md, "hooks.2.name"), "pre-update-cmd");
        T_EQ_INT(ji(md, "hooks.2.line"), 29);
        T_EQ_STR(js(md, "details.scripts.0.name"), "test");
        T_EQ_STR(json_string_value(json_object_get(jget(md, "details.replace"), "acme/old-name")), "self.version");
        json_decref(md);
}

static void test_extract_cgc__composer_lock(void)
{
        json_t *md = xfix("composer-lock", "composer.lock", "composer/composer.lock"), *d;

        T_EQ_STR(js(md, "kind"), "lockfile");
        T_EQ_INT(ndeps(md), 5);
        T_EQ_STR(js(md, "details.content_hash"), "0123456789abcdef0123456789abcdef");
        T_EQ_STR(js(md, "details.plugin_api_version"), "2.6.0");
        T_ASSERT(json_is_false(jget(md, "details.direct_known")));
        /* from packagist: the default registry, with the commit composer resolved */
        d = dep(md, "Monolog/Monolog", 0);
        T_EQ_STR(js(d, "resolved"), "3.5.0");
        T_EQ_STR(js(d, "purl"), "pkg:composer/monolog/monolog@3.5.0");
        SRC(d, "registry", NULL, NULL, "c915e2634718dbc8a4a15c61b0e62e7a44e14448");
        T_ASSERT(json_is_null(jget(d, "integrity")));
        T_EQ_INT(ji(d, "line"), 8);
        T_ASSERT(json_is_false(jget(d, "direct")));
        /* git with a token in its URL: stripped, the credential by key */
        d = dep(md, "acme/private-lib", 0);
        SRC(d, "git", "https://git.acme.example/private-lib.git", NULL, "abc1234abc1234abc1234abc1234abc1234abc12");
        T_EQ_INT(ji(d, "line"), 25);
        T_ASSERT(has_credential(md, "dependency source URL userinfo", 25));
        no_secret(md, "tok3n");
        T_EQ_STR(js(md, "details.plugins.0.name"), "acme/private-lib");
        SRC(dep(md, "acme/local", 0), "path", "../packages/local", NULL, "ffffffffffffffffffffffffffffffffffffffff");
        d = dep(md, "acme/zipped", 0);
        SRC(d, "url", "https://downloads.acme.example/zipped-2.1.0.zip", NULL, NULL);
        T_EQ_STR(js(d, "integrity.algorithm"), "sha1");
        T_EQ_STR(js(d, "integrity.value"), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        d = dep(md, "phpunit/phpunit", 0);
        T_EQ_STR(js(d, "scope"), "dev");
        T_EQ_INT(ji(d, "line"), 55);
        T_EQ_STR(json_string_value(json_object_get(jget(md, "details.platform"), "php")), ">=8.1");
        json_decref(md);
}

/* Each package's "require" by name (any case), or to the package that provides or replaces it; php is none. */
static void test_extract_cgc__composer_lock_edges(void)
{
        json_t *md = xstr("composer-lock", "composer.lock",
                          "{\"packages\": [\n"
                          "{\"name\": \"a/a\", \"version\": \"1.0.0\", \"require\": {\"php\": \">=8\", "
                          "\"ext-json\": \"*\", \"B/B\": \"^2\", \"c/virt\": \"^1\", \"gone/x\": \"^3\"}},\n"
                          "{\"name\": \"b/b\", \"version\": \"2.0.0\"},\n"
                          "{\"name\": \"d/d\", \"version\": \"4.0.0\", \"provide\": {\"c/virt\": \"1.0\"}}],\n"
                          "\"packages-dev\": [\n"
                          "{\"name\": \"t/t\", \"version\": \"9.0.0\", \"require\": {\"a/a\": \"^1\"}, "
                          "\"require-dev\": {\"nowhere/y\": \"1\"}}]}\n");
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_mdoc_check(md, "composer.lock", "composer-lock", &e));
        T_EQ_STR(t_md_edges(md, dep(md, "a/a", 0)), "b/b@2.0.0 d/d@4.0.0");
        T_EQ_STR(t_md_edges(md, dep(md, "b/b", 0)), "");
        T_EQ_STR(t_md_edges(md, dep(md, "t/t", 0)), "a/a@1.0.0");    /* require-dev is not installed */
        T_EQ_STR(t_md_unresolved(md), "a/a@1.0.0 on gone/x ^3");
        json_decref(md);
        xbad("composer-lock", "composer.lock",
             "{\"packages\": [\n{\"name\": \"a/a\", \"version\": \"1.0.0\", \"require\": [\"b/b\"]}]}\n",
             PRC_E_EXTRACT_SHAPE, 2);
}

static void test_extract_cgc__composer_refusals(void)
{
        xbad("composer-json", "composer.json", "[]", PRC_E_EXTRACT_SHAPE, 1);
        xbad("composer-json", "composer.json", "{\n\"require\": [\"a/b\"]\n}", PRC_E_EXTRACT_SHAPE, 2);
        xbad("composer-json", "composer.json", "{\n\"require\": {\n\"a/b\": 1\n}}", PRC_E_EXTRACT_SHAPE, 3);
        xbad("composer-json", "composer.json", "{\"name\": 5}", PRC_E_EXTRACT_SHAPE, 1);
        xbad("composer-json", "composer.json", "{\"repositories\": [{\"url\": \"x\"}]}", PRC_E_EXTRACT_SHAPE, 1);
        xbad("composer-json", "composer.json", "{\"scripts\": {\"post-install-cmd\": [1]}}", PRC_E_EXTRACT_SHAPE, 1);
        xbad("composer-json", "composer.json", "{\"a\": 1,}", PRC_E_INVALID_JSON, 0);
        /* the JSON reader's offset becomes a line (found by fuzz_extract_cgc) */
        xbad("composer-json", "composer.json", "\xff{}", PRC_E_INVALID_UTF8, 1);
        xbad("composer-lock", "composer.lock", "{}\n\xff", PRC_E_INVALID_UTF8, 2);
        xbad("composer-json", "composer.json", "{\"a\": 1, \"a\": 2}", PRC_E_DUPLICATE_FIELD, 0);
        xbad("composer-lock", "composer.lock", "{\"content-hash\": \"x\"}", PRC_E_EXTRACT_SHAPE, 0);
        xbad("composer-lock", "composer.lock", "{\"packages\": [{\"name\": \"a/b\"}]}", PRC_E_EXTRACT_SHAPE, 0);
        xbad("composer-lock", "composer.lock", "{\"packages\": [], \"packages-dev\": {}}", PRC_E_EXTRACT_SHAPE, 0);
        xbad("composer-lock", "composer.lock",
             "{\"packages\": [{\"name\": \"a/b\", \"version\": \"1\", \"dist\": {\"shasum\": 1}}]}",
             PRC_E_EXTRACT_SHAPE, 0);
}

static const prc_test tests[] = {
        T(test_extract_cgc__files_are_owned_by_name),
        T(test_extract_cgc__cargo_toml_every_dependency_form),
        T(test_extract_cgc__cargo_toml_virtual_workspace_and_inherited_version),
        T(test_extract_cgc__cargo_toml_refusals),
        T(test_extract_cgc__cargo_lock_v1_metadata_checksums),
        T(test_extract_cgc__cargo_lock_v1_root_table),
        T(test_extract_cgc__cargo_lock_v2_short_dependency_entries),
        T(test_extract_cgc__cargo_lock_v3_private_registry_credential),
        T(test_extract_cgc__cargo_lock_v4_sparse_and_git_refs),
        T(test_extract_cgc__cargo_lock_unknown_version_is_refused),
        T(test_extract_cgc__cargo_lock_refusals),
        T(test_extract_cgc__go_mod_every_directive),
        T(test_extract_cgc__go_mod_syntax_errors_carry_their_line),
        T(test_extract_cgc__go_mod_unknown_directive_is_named),
        T(test_extract_cgc__go_sum_hashes_and_go_mod_lines),
        T(test_extract_cgc__go_sum_refusals),
        T(test_extract_cgc__go_work),
        T(test_extract_cgc__go_limits),
        T(test_extract_cgc__composer_json),
        T(test_extract_cgc__composer_lock),
        T(test_extract_cgc__composer_lock_edges),
        T(test_extract_cgc__composer_refusals),
};
PRC_SUITE(extract_cgc, tests)
