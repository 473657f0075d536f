/*
 * test_extract_npm.c - the npm family's extractors, in process, per format
 * and lockfile version (tests/fixtures/extract/npm), and the client's
 * ManifestDoc shape check (mdoc_check.c) that every reply goes through.
 */
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/npm.h"
#include "mdoc_t.h"

/* Extract text as format; the document also passes the client's shape check. */
static json_t *xs(const char *format, const char *path, const char *text, prc_err *e)
{
        const prc_extractor *x = prc_extractor_by_format(format);
        prc_xin in = { path, (const uint8_t *)text, strlen(text), &prc_limits_default };
        json_t *md;
        prc_err ce;

        T_ASSERT(x != NULL);
        prc_err_init(e);
        md = x->fn(&in, e);
        T_ASSERT((md == NULL) == prc_err_is_set(e));
        if (md != NULL) {
                prc_err_init(&ce);
                if (!prc_mdoc_check(md, path, format, &ce))
                        t_fail(__FILE__, __LINE__, "shape check: %s at %s", ce.msg, ce.ptr);
        }
        return md;
}

/* Extract a fixture of tests/fixtures/extract/npm (the path is its inventory path). */
static json_t *xf(const char *format, const char *rel)
{
        char path[4200];
        char *text;
        json_t *md;
        prc_err e;

        snprintf(path, sizeof(path), "%s/tests/fixtures/extract/npm/%s", t_root(), rel);
        text = t_read(path, NULL);
        md = xs(format, rel, text, &e);
        free(text);
        if (md == NULL)
                t_fail(__FILE__, __LINE__, "%s refused: %s: %s", rel, prc_err_name(e.cls), e.msg);
        return md;
}

/* The i-th dependency named name (i counts from 0), or NULL. */
static const json_t *dep(const json_t *md, const char *name, int nth)
{
        const json_t *d;
        size_t i;

        json_array_foreach(json_object_get(md, "dependencies"), i, d)
                if (strcmp(json_string_value(json_object_get(d, "name")), name) == 0 && nth-- == 0)
                        return d;
        return NULL;
}

static const char *sget(const json_t *o, const char *path)
{
        char key[64];
        const char *dot;

        while ((dot = strchr(path, '.')) != NULL) {
                snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
                o = json_object_get(o, key);
                path = dot + 1;
        }
        o = json_object_get(o, path);
        return json_is_null(o) ? "(null)" : json_is_string(o) ? json_string_value(o) : json_is_true(o) ? "true"
                                                                 : json_is_false(o) ? "false" : "(other)";
}

static long line_of(const json_t *d)
{
        return (long)json_integer_value(json_object_get(d, "line"));
}

static const json_t *install_scripts(const json_t *md)
{
        return json_object_get(json_object_get(md, "details"), "install_scripts");
}

static size_t ndeps(const json_t *md)
{
        return json_array_size(json_object_get(md, "dependencies"));
}

/* The targets of the nth dependency named name (mdoc_t.h). */
static const char *edges(const json_t *md, const char *name, int nth)
{
        const json_t *d = dep(md, name, nth);

        T_ASSERT(d != NULL);
        return t_md_edges(md, d);
}

#define unresolved t_md_unresolved

static void test_extract_npm__package_json_every_kind_source_and_hook(void)
{
        json_t *md = xf("npm-package-json", "package.json");
        const json_t *d, *det = json_object_get(md, "details"), *h;
        char *s;

        T_EQ_STR(sget(md, "package.name"), "@acme/web");
        T_EQ_STR(sget(md, "package.purl"), "pkg:npm/%40acme/web@1.2.3");
        T_EQ_INT(ndeps(md), 11);
        d = dep(md, "lodash", 0);
        T_EQ_STR(sget(d, "requirement"), "^4.17.21");
        T_EQ_STR(sget(d, "scope"), "runtime");
        T_EQ_STR(sget(d, "purl"), "pkg:npm/lodash");
        T_EQ_INT(line_of(d), 14);
        T_EQ_STR(sget(dep(md, "@babel/core", 0), "purl"), "pkg:npm/%40babel/core");
        /* an npm: alias installs another package: the purl names it */
        T_EQ_STR(sget(dep(md, "left-pad", 0), "purl"), "pkg:npm/%40acme/left-pad");
        T_EQ_STR(sget(dep(md, "utils", 0), "source.type"), "workspace");
        T_EQ_STR(sget(dep(md, "utils", 0), "purl"), "(null)");
        T_EQ_STR(sget(dep(md, "local-lib", 0), "source.type"), "path");
        T_EQ_STR(sget(dep(md, "local-lib", 0), "source.url"), "file:../local-lib");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.type"), "git");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.url"), "git+https://github.com/acme/gitdep.git");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.ref"), "v1.0.0");
        T_EQ_STR(sget(dep(md, "shorty", 0), "source.type"), "git");
        T_EQ_STR(sget(dep(md, "shorty", 0), "source.ref"), "main");
        T_EQ_STR(sget(dep(md, "tarball", 0), "source.type"), "url");
        T_EQ_STR(sget(dep(md, "typescript", 0), "scope"), "dev");
        T_EQ_STR(sget(dep(md, "fsevents", 0), "scope"), "optional");
        T_EQ_STR(sget(dep(md, "react", 0), "scope"), "peer");
        T_EQ_STR(sget(dep(md, "react", 0), "direct"), "true");
        /* install-time lifecycle scripts are hooks; "build" is not */
        T_EQ_INT(json_array_size(json_object_get(md, "hooks")), 3);
        h = json_array_get(json_object_get(md, "hooks"), 1);
        T_EQ_STR(sget(h, "name"), "postinstall");
        T_ASSERT(strstr(sget(h, "command"), "curl -s") != NULL);
        T_EQ_INT(line_of(h), 10);
        s = json_dumps(det, JSON_COMPACT | JSON_SORT_KEYS);
        T_ASSERT(strstr(s, "\"scripts\":[\"build\"]") != NULL);
        T_ASSERT(strstr(s, "\"workspaces\":[\"packages/*\",\"tools/cli\"]") != NULL);
        T_ASSERT(strstr(s, "\"optional_peers\":[\"react\"]") != NULL);
        T_ASSERT(strstr(s, "\"bundled\":[\"lodash\"]") != NULL);
        T_ASSERT(strstr(s, "\"package_manager\":\"pnpm@9.1.0\"") != NULL);
        T_ASSERT(strstr(s, "\"selector\":\"foo>bar\",\"source\":\"overrides\",\"value\":\"1.0.0\"") != NULL);
        T_ASSERT(strstr(s, "\"selector\":\"foo>.\",\"source\":\"overrides\",\"value\":\"2.0.0\"") != NULL);
        T_ASSERT(strstr(s, "\"selector\":\"minimist\",\"source\":\"resolutions\",\"value\":\"1.2.8\"") != NULL);
        free(s);
        json_decref(md);
}

static void test_extract_npm__package_json_refusals(void)
{
        prc_err e;

        T_ASSERT(xs("npm-package-json", "package.json", "[1]", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(xs("npm-package-json", "package.json", "{\"dependencies\": {\"a\": 1}}", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(xs("npm-package-json", "package.json", "{\n\"scripts\": []}", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 2);
        /* the parser's own class passes through */
        T_ASSERT(xs("npm-package-json", "package.json", "{\"a\":1,\"a\":2}", &e) == NULL);
        T_ERR(e, PRC_E_DUPLICATE_FIELD);
        T_ASSERT(xs("npm-package-json", "package.json", "{", &e) == NULL);
        T_ERR(e, PRC_E_INVALID_JSON);
        /*
         * A dependency named "" (npm refuses the name): refused at its line,
         * not a document the client refuses (fuzz find, session 10) nor an
         * out-of-memory from the purl.
         */
        T_ASSERT(xs("npm-package-json", "package.json", "{\n\"optionalDependencies\": {\n\"\": \"1/2.8\"}}",
                    &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 3);
        T_ASSERT(xs("npm-package-json", "package.json", "{\"dependencies\": {\"\": \"^1.0.0\"}}", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 1);
}

static void test_extract_npm__package_lock_v1_nested_and_git(void)
{
        json_t *md = xf("npm-package-lock", "lock-v1/package-lock.json");

        T_EQ_INT(ndeps(md), 4);
        T_EQ_STR(sget(dep(md, "@scope/pkg", 0), "resolved"), "2.0.0");
        T_EQ_STR(sget(dep(md, "@scope/pkg", 0), "integrity.algorithm"), "sha512");
        T_EQ_STR(sget(dep(md, "ms", 0), "resolved"), "2.0.0");         /* nested under @scope/pkg */
        T_EQ_STR(sget(dep(md, "ms", 0), "integrity.algorithm"), "sha1");
        T_EQ_INT(line_of(dep(md, "ms", 0)), 15);
        T_EQ_STR(sget(dep(md, "ms", 1), "resolved"), "2.1.3");
        T_EQ_STR(sget(dep(md, "ms", 1), "scope"), "dev");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.type"), "git");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "resolved"), "(null)");
        T_EQ_STR(sget(md, "details.direct_known"), "false");
        T_EQ_STR(sget(dep(md, "@scope/pkg", 0), "direct"), "false");
        json_decref(md);
}

static void test_extract_npm__package_lock_v2_direct_and_dev(void)
{
        json_t *md = xf("npm-package-lock", "lock-v2/package-lock.json");

        T_EQ_INT(ndeps(md), 2);         /* "packages" only: the v1 section of a v2 file is the same set */
        T_EQ_STR(sget(dep(md, "lodash", 0), "direct"), "true");
        T_EQ_STR(sget(dep(md, "lodash", 0), "purl"), "pkg:npm/lodash@4.17.21");
        T_EQ_STR(sget(dep(md, "lodash", 0), "source.type"), "registry");
        T_EQ_STR(sget(dep(md, "typescript", 0), "scope"), "dev");
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(md, "details"), "lockfile_version")), 2);
        json_decref(md);
}

static void test_extract_npm__package_lock_v3_alias_link_workspace(void)
{
        json_t *md = xf("npm-package-lock", "lock-v3/package-lock.json");

        T_EQ_INT(ndeps(md), 6);
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "direct"), "true");
        T_EQ_STR(sget(dep(md, "ms", 0), "direct"), "false");            /* nested: transitive */
        T_EQ_STR(sget(dep(md, "alias", 0), "purl"), "pkg:npm/real-pkg@3.1.0");
        T_EQ_STR(sget(dep(md, "a", 0), "source.type"), "workspace");
        T_EQ_STR(sget(dep(md, "a", 0), "source.url"), "packages/a");
        T_EQ_STR(sget(dep(md, "a", 1), "resolved"), "0.1.0");
        T_EQ_STR(sget(dep(md, "fsevents", 0), "scope"), "optional");
        T_EQ_STR(sget(md, "package.name"), "mono");
        /* hasInstallScript: the entry's index and line in details.install_scripts */
        T_EQ_INT(json_array_size(install_scripts(md)), 1);
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(install_scripts(md), 0), "dependency")), 0);
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(install_scripts(md), 0), "line")), 17);
        /* inBundle: shipped inside its parent's tarball */
        T_EQ_INT(json_array_size(json_object_get(json_object_get(md, "details"), "in_bundle")), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(md, "dependencies"),
                (size_t)json_integer_value(json_object_get(json_array_get(json_object_get(json_object_get(md,
                "details"), "in_bundle"), 0), "dependency"))), "name")), "ms");
        json_decref(md);
        md = xf("npm-package-lock", "lock-v2/package-lock.json");
        T_ASSERT(json_object_get(json_object_get(md, "details"), "install_scripts") == NULL);
        json_decref(md);
        md = xf("npm-shrinkwrap", "shrinkwrap/npm-shrinkwrap.json");
        T_EQ_STR(sget(md, "format"), "npm-shrinkwrap");
        T_EQ_INT(ndeps(md), 6);
        json_decref(md);
}

static void test_extract_npm__package_lock_unknown_version_is_refused(void)
{
        static const char *const bad[] = { "{\"lockfileVersion\": 4, \"packages\": {}}", "{\"packages\": {}}",
                                           "{\"lockfileVersion\": \"3\"}", "{\"lockfileVersion\": 0}" };
        prc_err e;

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                T_ASSERT(xs("npm-package-lock", "package-lock.json", bad[i], &e) == NULL);
                T_ERR(e, PRC_E_EXTRACT_VERSION);
        }
        T_ASSERT(xs("npm-package-lock", "package-lock.json", "{\"lockfileVersion\": 3}", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void test_extract_npm__yarn_classic(void)
{
        json_t *md = xf("yarn-lock", "yarn-classic/yarn.lock");
        const json_t *d;

        T_EQ_INT(ndeps(md), 3);
        d = dep(md, "@babel/code-frame", 0);
        T_EQ_STR(sget(d, "requirement"), "@babel/code-frame@^7.0.0, @babel/code-frame@^7.10.4");
        T_EQ_STR(sget(d, "resolved"), "7.12.13");
        T_EQ_STR(sget(d, "purl"), "pkg:npm/%40babel/code-frame@7.12.13");
        T_EQ_STR(sget(d, "source.url"), "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-7.12.13.tgz");
        T_EQ_INT(line_of(d), 5);
        /* no integrity field: the tarball URL's fragment is its SHA-1 */
        T_EQ_STR(sget(dep(md, "left-pad", 0), "integrity.algorithm"), "sha1");
        T_EQ_STR(sget(dep(md, "left-pad", 0), "integrity.value"), "5b8a3a7765dfe001261dde915589e782f8c94d1e");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.type"), "url");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "purl"), "(null)");
        T_EQ_STR(sget(md, "details.lockfile_version"), "yarn-v1");
        json_decref(md);
}

static void test_extract_npm__yarn_berry(void)
{
        json_t *md = xf("yarn-lock", "yarn-berry/yarn.lock");
        prc_err e;

        T_EQ_INT(ndeps(md), 4);
        T_EQ_STR(sget(dep(md, "app", 0), "source.type"), "workspace");
        T_EQ_STR(sget(dep(md, "app", 0), "direct"), "false");
        T_EQ_STR(sget(dep(md, "lodash", 0), "direct"), "true");
        T_EQ_STR(sget(dep(md, "lodash", 0), "purl"), "pkg:npm/lodash@4.17.21");
        T_EQ_STR(sget(dep(md, "lodash", 0), "integrity.algorithm"), "sha512");
        T_ASSERT(strncmp(sget(dep(md, "lodash", 0), "integrity.value"), "d8cbea07", 8) == 0);  /* "10c0/" gone */
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.type"), "git");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_STR(sget(dep(md, "ms", 0), "direct"), "false");
        T_EQ_INT(line_of(dep(md, "ms", 0)), 31);
        json_decref(md);
        T_ASSERT(xs("yarn-lock", "yarn.lock", "__metadata:\n  version: 7\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_ASSERT(xs("yarn-lock", "yarn.lock", "# some file\nfoo@^1:\n  version \"1\"\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        /* the fuzzer's first find: a resolution without '@' read past the end of the string */
        T_ASSERT(xs("yarn-lock", "yarn.lock", "__metadata:\n  version: 8\n\"a@npm:1\":\n  version: 1\n"
                                              "  resolution: \"abc\"\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        /* the fuzzer's second find: a checksum of only the cache key ("10c0/") gave an empty integrity value */
        T_ASSERT(xs("yarn-lock", "yarn.lock", "__metadata:\n  version: 8\n\"a@npm:1\":\n  version: 1\n"
                                              "  resolution: \"a@npm:1\"\n  checksum: 10c0/\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(xs("yarn-lock", "yarn.lock", "# yarn lockfile v1\n  version \"1\"\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 2);
}

static void test_extract_npm__pnpm_v5_v6_v9(void)
{
        json_t *md = xf("pnpm-lock", "pnpm-v5/pnpm-lock.yaml");
        prc_err e;

        T_EQ_INT(ndeps(md), 4);
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "resolved"), "1.0.1");       /* peer suffix "_react@18.2.0" gone */
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "direct"), "true");
        T_EQ_STR(sget(dep(md, "typescript", 0), "scope"), "dev");
        T_EQ_STR(sget(dep(md, "fsevents", 0), "scope"), "optional");
        T_EQ_STR(sget(dep(md, "fsevents", 0), "direct"), "false");
        T_EQ_STR(sget(md, "details.lockfile_version"), "5.4");
        json_decref(md);

        md = xf("pnpm-lock", "pnpm-v6/pnpm-lock.yaml");
        T_EQ_INT(ndeps(md), 3);
        /* requiresBuild: true */
        T_EQ_INT(json_array_size(install_scripts(md)), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(md, "dependencies"),
                (size_t)json_integer_value(json_object_get(json_array_get(install_scripts(md), 0), "dependency"))),
                "name")), "@scope/x");
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "scope"), "dev");
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "direct"), "true");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "resolved"), "1.0.0");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "source.type"), "url");
        T_EQ_STR(sget(dep(md, "gitdep", 0), "purl"), "(null)");
        T_EQ_STR(sget(dep(md, "lodash", 0), "purl"), "pkg:npm/lodash@4.17.21");
        json_decref(md);

        md = xf("pnpm-lock", "pnpm-v9/pnpm-lock.yaml");
        T_EQ_INT(ndeps(md), 5);
        T_EQ_STR(sget(dep(md, "typescript", 0), "scope"), "dev");
        /* v9 keeps no flags: scope by what reaches a package from the importers' lists */
        T_EQ_STR(sget(dep(md, "ms", 0), "scope"), "runtime");
        T_EQ_STR(sget(dep(md, "ms", 0), "direct"), "false");
        T_EQ_STR(sget(dep(md, "react", 0), "scope"), "runtime");
        T_EQ_STR(sget(dep(md, "@scope/x", 0), "direct"), "true");
        T_EQ_INT(line_of(dep(md, "ms", 0)), 26);
        json_decref(md);

        T_ASSERT(xs("pnpm-lock", "pnpm-lock.yaml", "lockfileVersion: '7.0'\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_ASSERT(xs("pnpm-lock", "pnpm-lock.yaml", "packages: {}\n", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_ASSERT(xs("pnpm-lock", "pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n  nameonly: {}\n", &e) ==
                 NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void test_extract_npm__npmrc_credentials_by_key_only(void)
{
        json_t *md = xf("npmrc", "npmrc/.npmrc");
        char *s = json_dumps(md, JSON_COMPACT | JSON_SORT_KEYS);
        static const char *const secrets[] = { "npm_SECRETTOKENVALUE123", "dXNlcjpTRUNSRVRQQVNT", "s3cr3tpass",
                                               "deploy", "dev@example.invalid" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(secrets); i++)
                if (strstr(s, secrets[i]) != NULL)
                        t_fail(__FILE__, __LINE__, "the secret %s is in the ManifestDoc", secrets[i]);
        T_ASSERT(strstr(s, "{\"key\":\"//npm.acme.invalid/:_authToken\",\"line\":4}") != NULL);
        T_ASSERT(strstr(s, "{\"key\":\"_auth\",\"line\":5}") != NULL);
        T_ASSERT(strstr(s, "{\"line\":3,\"name\":\"registry\",\"scope\":\"@acme\","
                           "\"url\":\"https://npm.acme.invalid/\"}") != NULL);
        T_ASSERT(strstr(s, "\"settings\":{\"ignore-scripts\":\"true\",\"strict-ssl\":\"false\"}") != NULL);
        T_ASSERT(strstr(s, "\"other_keys\":[\"email\"]") != NULL);
        free(s);
        json_decref(md);
}

/* Edges resolve as Node resolves a require: the nearest node_modules up from the requiring folder. */
static void test_extract_npm__package_lock_v3_edges_nearest_folder(void)
{
        static const char lock[] =
                "{\"name\": \"app\", \"lockfileVersion\": 3, \"packages\": {\n"
                "\"\": {\"name\": \"app\", \"dependencies\": {\"a\": \"^1\", \"c\": \"^1\"}},\n"
                "\"node_modules/a\": {\"version\": \"1.0.0\", \"dependencies\": {\"b\": \"^2\"}},\n"
                "\"node_modules/a/node_modules/b\": {\"version\": \"2.0.0\"},\n"
                "\"node_modules/a/node_modules/d\": {\"version\": \"1.0.0\", \"dependencies\": {\"b\": \"^2\"},"
                " \"peerDependencies\": {\"c\": \"*\", \"absent-peer\": \"*\"}},\n"
                "\"node_modules/b\": {\"version\": \"1.0.0\"},\n"
                "\"node_modules/c\": {\"version\": \"1.0.0\", \"dependencies\": {\"b\": \"^1\", \"gone\": \"^3\"},"
                " \"optionalDependencies\": {\"fsevents\": \"^2\"}},\n"
                "\"node_modules/w\": {\"resolved\": \"packages/w\", \"link\": true},\n"
                "\"packages/w\": {\"name\": \"w\", \"version\": \"0.1.0\", \"dependencies\": {\"a\": \"^1\"},"
                " \"devDependencies\": {\"c\": \"^1\"}}\n"
                "}}\n";
        prc_err e;
        json_t *md = xs("npm-package-lock", "package-lock.json", lock, &e);

        T_ASSERT(md != NULL);
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0");
        T_EQ_STR(edges(md, "d", 0), "b@2.0.0 c@1.0.0");       /* a/node_modules/b, then the root's c */
        T_EQ_STR(edges(md, "b", 0), "");                        /* the file states none */
        T_EQ_STR(edges(md, "c", 0), "b@1.0.0");                 /* optional fsevents not installed: no edge */
        T_EQ_STR(edges(md, "w", 0), "w@0.1.0");                 /* the link, to its folder */
        T_EQ_STR(edges(md, "w", 1), "a@1.0.0 c@1.0.0");         /* a workspace's devDependencies are installed */
        T_EQ_STR(unresolved(md), "c@1.0.0 on gone ^3");
        json_decref(md);
}

static void test_extract_npm__package_lock_v1_edges_from_requires(void)
{
        static const char lock[] =
                "{\"lockfileVersion\": 1, \"dependencies\": {\n"
                "\"a\": {\"version\": \"1.0.0\", \"requires\": {\"b\": \"^2\"},\n"
                "  \"dependencies\": {\"b\": {\"version\": \"2.0.0\", \"requires\": {\"c\": \"^1\"}}}},\n"
                "\"b\": {\"version\": \"1.0.0\"},\n"
                "\"c\": {\"version\": \"1.0.0\", \"requires\": {\"b\": \"^1\", \"nope\": \"1\"}}\n"
                "}}\n";
        prc_err e;
        json_t *md = xs("npm-package-lock", "package-lock.json", lock, &e);

        T_ASSERT(md != NULL);
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0");
        T_EQ_STR(edges(md, "b", 0), "c@1.0.0");         /* a's own b requires the root's c */
        T_EQ_STR(edges(md, "c", 0), "b@1.0.0");
        T_EQ_STR(unresolved(md), "c@1.0.0 on nope 1");
        json_decref(md);
}

static void test_extract_npm__yarn_edges_classic_and_berry(void)
{
        static const char classic[] =
                "# yarn lockfile v1\n\n"
                "\"@s/a@^1.0.0\", \"@s/a@^1.1.0\":\n  version \"1.1.0\"\n  dependencies:\n"
                "    \"@s/b\" \"^2\"\n    c \"~1.0\"\n  optionalDependencies:\n    fsevents \"^2\"\n\n"
                "\"@s/b@^2\":\n  version \"2.0.0\"\n  dependencies:\n    \"@s/a\" \"^1.0.0\"\n    lost \"^9\"\n\n"
                "c@~1.0:\n  version \"1.0.3\"\n";
        static const char berry[] =
                "__metadata:\n  version: 8\n\n"
                "\"app@workspace:.\":\n  version: 0.0.0-use.local\n  resolution: \"app@workspace:.\"\n"
                "  dependencies:\n    a: \"npm:^1.0.0\"\n    t: \"npm:0.0.1\"\n"
                "    opt: \"npm:^1\"\n  dependenciesMeta:\n    opt:\n      optional: true\n"
                "  languageName: unknown\n  linkType: soft\n\n"
                "\"a@npm:^1.0.0, a@npm:^1.1.0\":\n  version: 1.1.0\n  resolution: \"a@npm:1.1.0\"\n"
                "  dependencies:\n    b: ^2.0.0\n  peerDependencies:\n    app: \"*\"\n"
                "  languageName: node\n  linkType: hard\n\n"
                "\"b@npm:^2.0.0\":\n  version: 2.0.0\n  resolution: \"b@npm:2.0.0\"\n"
                "  languageName: node\n  linkType: hard\n\n"
                "\"t@npm:1.0.1\":\n  version: 1.0.1\n  resolution: \"t@npm:1.0.1\"\n"
                "  languageName: node\n  linkType: hard\n";
        prc_err e;
        json_t *md = xs("yarn-lock", "yarn.lock", classic, &e);

        T_ASSERT(md != NULL);
        T_EQ_STR(edges(md, "@s/a", 0), "@s/b@2.0.0 c@1.0.3");  /* optional fsevents not locked: no edge */
        T_EQ_STR(edges(md, "@s/b", 0), "@s/a@1.1.0");          /* a cycle, by the second descriptor */
        T_EQ_STR(edges(md, "c", 0), "");
        T_EQ_STR(unresolved(md), "@s/b@2.0.0 on lost ^9");
        json_decref(md);
        md = xs("yarn-lock", "yarn.lock", berry, &e);
        T_ASSERT(md != NULL);
        /* "npm:" written or not; t's range rewritten by a resolutions override: its only entry */
        T_EQ_STR(edges(md, "app", 0), "a@1.1.0 t@1.0.1");
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0");                /* a peer is its dependent's: no edge */
        T_EQ_STR(unresolved(md), "");
        json_decref(md);
}

/* A classic alias entry ("alias@npm:real@range") installs the real package: the purl names it (sbom_compare). */
static void test_extract_npm__yarn_classic_alias_purl_names_the_real_package(void)
{
        static const char classic[] =
                "# yarn lockfile v1\n\n"
                "\"string-width-cjs@npm:string-width@^4.2.0\":\n  version \"4.2.3\"\n"
                "  resolved \"https://registry.yarnpkg.com/string-width/-/string-width-4.2.3.tgz#aa\"\n\n"
                "\"react-loadable@npm:@docusaurus/react-loadable@5.5.2\":\n  version \"5.5.2\"\n\n"
                "plain@^1:\n  version \"1.0.0\"\n";
        prc_err e;
        json_t *md = xs("yarn-lock", "yarn.lock", classic, &e);

        T_ASSERT(md != NULL);
        T_EQ_STR(sget(dep(md, "string-width-cjs", 0), "purl"), "pkg:npm/string-width@4.2.3");
        T_EQ_STR(sget(dep(md, "react-loadable", 0), "purl"), "pkg:npm/%40docusaurus/react-loadable@5.5.2");
        T_EQ_STR(sget(dep(md, "plain", 0), "purl"), "pkg:npm/plain@1.0.0");
        json_decref(md);
        /* package-lock v1 writes an alias's version as "npm:real@version" */
        md = xs("npm-package-lock", "package-lock.json",
                "{\"lockfileVersion\": 1, \"dependencies\": {\"alias\": {\"version\": \"npm:@s/real@3.1.0\"}}}\n",
                &e);
        T_ASSERT(md != NULL);
        T_EQ_STR(sget(dep(md, "alias", 0), "resolved"), "3.1.0");
        T_EQ_STR(sget(dep(md, "alias", 0), "purl"), "pkg:npm/%40s/real@3.1.0");
        json_decref(md);
}

/*
 * A package.json alias spec "npm:" with nothing after it names no other
 * package: the purl is the key's, and the scan stays inside the string
 * (fuzz_extract_npm find, session 11: strchr began one byte past its end).
 */
static void test_extract_npm__package_json_empty_npm_alias(void)
{
        prc_err e;
        json_t *md = xs("npm-package-json", "package.json",
                        "{\"dependencies\": {\"a\": \"npm:\", \"b\": \"npm:@\", \"c\": \"npm:r@1\"}}\n", &e);

        T_ASSERT(md != NULL);
        T_EQ_STR(sget(dep(md, "a", 0), "requirement"), "npm:");
        T_EQ_STR(sget(dep(md, "a", 0), "purl"), "pkg:npm/a");
        T_EQ_STR(sget(dep(md, "b", 0), "purl"), "pkg:npm/%40");
        T_EQ_STR(sget(dep(md, "c", 0), "purl"), "pkg:npm/r");
        json_decref(md);
}

static void test_extract_npm__pnpm_edges_v5_v6_v9(void)
{
        static const char v5[] =
                "lockfileVersion: 5.4\nimporters:\n  .:\n    specifiers:\n      a: ^1\n    dependencies:\n"
                "      a: 1.0.0_react@18.2.0\npackages:\n"
                "  /a/1.0.0_react@18.2.0:\n    resolution: {integrity: sha512-AA==}\n    dependencies:\n"
                "      react: 18.2.0\n      al: /b/2.0.0\n      w: link:../w\n    optionalDependencies:\n"
                "      fsevents: 2.3.3\n"
                "  /b/2.0.0:\n    resolution: {integrity: sha512-BB==}\n"
                "  /react/18.2.0:\n    resolution: {integrity: sha512-CC==}\n    dependencies:\n      nope: 1.0.0\n";
        static const char v6[] =
                "lockfileVersion: '6.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: ^1\n"
                "        version: 1.0.0(react@18.2.0)\npackages:\n"
                "  /a@1.0.0(react@18.2.0):\n    resolution: {integrity: sha512-AA==}\n    dependencies:\n"
                "      react: 18.2.0\n      al: /b@2.0.0\n"
                "  /b@2.0.0:\n    resolution: {integrity: sha512-BB==}\n"
                "  /react@18.2.0:\n    resolution: {integrity: sha512-CC==}\n";
        static const char v9[] =
                "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: ^1\n"
                "        version: 1.0.0(react@18.2.0)\npackages:\n"
                "  a@1.0.0:\n    resolution: {integrity: sha512-AA==}\n"
                "  b@2.0.0:\n    resolution: {integrity: sha512-BB==}\n"
                "  react@18.2.0:\n    resolution: {integrity: sha512-CC==}\n"
                "snapshots:\n  a@1.0.0(react@18.2.0):\n    dependencies:\n      react: 18.2.0\n"
                "  a@1.0.0(react@17.0.0):\n    dependencies:\n      al: b@2.0.0\n"
                "  b@2.0.0: {}\n  react@18.2.0: {}\n";
        prc_err e;
        json_t *md = xs("pnpm-lock", "pnpm-lock.yaml", v5, &e);

        T_ASSERT(md != NULL);
        /* an alias by its key; a workspace link and an uninstalled optional are no edges */
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0 react@18.2.0");
        T_EQ_STR(unresolved(md), "react@18.2.0 on nope 1.0.0");
        json_decref(md);
        md = xs("pnpm-lock", "pnpm-lock.yaml", v6, &e);
        T_ASSERT(md != NULL);
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0 react@18.2.0");
        T_EQ_STR(edges(md, "react", 0), "");
        json_decref(md);
        md = xs("pnpm-lock", "pnpm-lock.yaml", v9, &e);
        T_ASSERT(md != NULL);
        T_EQ_STR(edges(md, "a", 0), "b@2.0.0 react@18.2.0");  /* every peer variant's snapshot */
        T_EQ_STR(unresolved(md), "");
        json_decref(md);
}

/* The client's check: a real extractor output passes; each way a worker could bend it is refused and located. */
/* The table's exact names: each row has a base name or a match function, and a base owns only that name. */
static void test_extract_npm__table_exact_names(void)
{
        static const struct {
                const char *path, *format;
        } cases[] = {
                { "package.json", "npm-package-json" },
                { "a/b/package.json", "npm-package-json" },
                { "package-lock.json", "npm-package-lock" },
                { "npm-shrinkwrap.json", "npm-shrinkwrap" },
                { "web/yarn.lock", "yarn-lock" },
                { "pnpm-lock.yaml", "pnpm-lock" },
                { "home/.npmrc", "npmrc" },
        };
        static const char *const none[] = { "package.json.bak", "Package.json", "xpackage.json", "package.json/x",
                                            "yarn.lock~", "a/.npmrc.d", "" };

        for (size_t i = 0; i < prc_extractor_count; i++) {
                const prc_extractor *x = &prc_extractors[i];

                if ((x->base == NULL) == (x->match == NULL) || (x->base != NULL && strchr(x->base, '/') != NULL))
                        t_fail(__FILE__, __LINE__, "%s: needs one of an exact base name or a match", x->format);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                const prc_extractor *x = prc_extractor_for_path(cases[i].path);

                if (x == NULL || strcmp(x->format, cases[i].format) != 0)
                        t_fail(__FILE__, __LINE__, "%s is not owned by %s", cases[i].path, cases[i].format);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(none); i++)
                if (prc_extractor_for_path(none[i]) != NULL)
                        t_fail(__FILE__, __LINE__, "%s is claimed by %s", none[i],
                               prc_extractor_for_path(none[i])->format);
}

static void test_extract_npm__mdoc_check_refuses_every_bent_shape(void)
{
        static const struct {
                const char *patch, *ptr;        /* JSON merged into dependencies[0] ("dep:") or the top */
        } cases[] = {
                { "{\"extra\": 1}", "/" },
                { "{\"schema\": \"prc-manifest-doc-v2\"}", "/schema" },
                { "{\"kind\": \"lockfile\"}", "/ecosystem" },
                { "{\"format\": \"no-such-format\"}", "/format" },
                { "{\"format\": \"cargo-lock\"}", "/ecosystem" },      /* a real format of another family */
                { "{\"path\": \"other/package.json\"}", "/path" },
                { "{\"details\": []}", "/details" },
                { "{\"hooks\": [{\"name\": \"x\", \"command\": \"y\", \"line\": 0}]}", "/hooks/0/line" },
                { "{\"credentials\": [{\"key\": \"k\", \"line\": 1, \"value\": \"s\"}]}", "/credentials/0" },
                { "dep:{\"scope\": \"prod\"}", "/dependencies/0/scope" },
                { "dep:{\"direct\": 1}", "/dependencies/0/direct" },
                { "dep:{\"purl\": \"npm/lodash\"}", "/dependencies/0/purl" },
                { "dep:{\"line\": -3}", "/dependencies/0/line" },
                { "dep:{\"name\": \"\"}", "/dependencies/0/name" },
                { "dep:{\"source\": {\"type\": \"registry\", \"url\": null, \"ref\": null}}",
                  "/dependencies/0/source" },
                { "dep:{\"integrity\": {\"algorithm\": \"sha1\"}}", "/dependencies/0/integrity" },
                { "dep:{\"depends_on\": 1}", "/dependencies/0/depends_on" },
                { "dep:{\"depends_on\": [0]}", "/dependencies/0/depends_on" },            /* itself */
                { "dep:{\"depends_on\": [2, 1]}", "/dependencies/0/depends_on" },         /* not ascending */
                { "dep:{\"depends_on\": [1, 1]}", "/dependencies/0/depends_on" },         /* twice */
                { "dep:{\"depends_on\": [99999]}", "/dependencies/0/depends_on" },        /* no such dependency */
                { "dep:{\"depends_on\": [-1]}", "/dependencies/0/depends_on" },
                { "dep:{\"depends_on\": [\"1\"]}", "/dependencies/0/depends_on" },
                { "dep:{\"depends_on\": null, \"deps\": []}", "/dependencies/0" },
        };
        json_t *md = xf("npm-package-json", "package.json"), *bent, *patch;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_mdoc_check(md, "package.json", NULL, &e));
        T_ASSERT(!prc_mdoc_check(md, "package.json", "npm-package-lock", &e));
        T_ERR(e, PRC_E_MANIFEST_DOC_INVALID);
        /* details has its format's shape (mdoc_details.c; test_mdoc_details.c bends each family's) */
        bent = json_deep_copy(md);
        T_ASSERT(json_object_set_new(json_object_get(bent, "details"), "anything", json_pack("[i]", 1)) == 0);
        prc_err_init(&e);
        T_ASSERT(!prc_mdoc_check(bent, "package.json", NULL, &e));
        T_ERR(e, PRC_E_MANIFEST_DOC_DETAILS);
        T_EQ_STR(e.ptr, "/details");
        json_decref(bent);
        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                bool on_dep = strncmp(cases[i].patch, "dep:", 4) == 0;
                json_error_t je;

                bent = json_deep_copy(md);
                patch = json_loads(cases[i].patch + (on_dep ? 4 : 0), 0, &je);
                T_ASSERT(patch != NULL);
                T_ASSERT(json_object_update(on_dep ? json_array_get(json_object_get(bent, "dependencies"), 0) : bent,
                                            patch) == 0);
                prc_err_init(&e);
                if (prc_mdoc_check(bent, "package.json", NULL, &e))
                        t_fail(__FILE__, __LINE__, "case %zu (%s) passed the check", i, cases[i].patch);
                T_ERR(e, PRC_E_MANIFEST_DOC_INVALID);
                T_EQ_STR(e.ptr, cases[i].ptr);
                json_decref(patch);
                json_decref(bent);
        }
        json_decref(md);
}

/* The byte-by-byte cursor search npm_cur_find did before memmem, kept as the reference. */
static uint32_t ref_cur_find(const prc_xin *in, npm_cur *c, const char *needle)
{
        size_t nl = strlen(needle), i;
        uint32_t line = c->line;

        if (nl == 0 || in->n < nl)
                return 0;
        for (i = c->off; i + nl <= in->n; i++) {
                if (in->p[i] == (uint8_t)needle[0] && memcmp(in->p + i, needle, nl) == 0) {
                        c->off = i;
                        c->line = line;
                        return line;
                }
                line += in->p[i] == '\n';
        }
        return 0;
}

/* A walk of needles in turn (some absent, some at the cursor, some starting with a line feed): the same lines and cursor. */
static void test_extract_npm__cursor_search_agrees_with_the_byte_scan(void)
{
        static const char src[] = "{\n  \"packages\": {\n    \"\": {},\n    \"node_modules/a\": {\n\n"
                                  "      \"version\": \"1\"},\n    \"node_modules/a\": {}\n}\npackages:\n";
        static const char *const needles[] = { "\"packages\"", "\"node_modules/a\": {", "\"node_modules/a\": {",
                                                "\"version\"", "zzz", "\npackages:", "}", "\n", "{", "\"\": {}" };
        prc_xin in = { "package-lock.json", (const uint8_t *)src, sizeof(src) - 1, &prc_limits_default };

        for (size_t start = 0; start < PRC_ARRAY_LEN(needles); start++) {
                npm_cur a = { 0, 1 }, b = { 0, 1 };
                for (size_t k = 0; k < PRC_ARRAY_LEN(needles); k++) {
                        const char *nd = needles[(start + k) % PRC_ARRAY_LEN(needles)];
                        T_EQ_INT(npm_cur_find(&in, &a, nd), ref_cur_find(&in, &b, nd));
                        T_EQ_INT(a.off, b.off);
                        T_EQ_INT(a.line, b.line);
                }
        }
        /* a cursor past the end finds nothing and stays */
        {
                npm_cur a = { sizeof(src) + 5, 9 };
                T_EQ_INT(npm_cur_find(&in, &a, "}"), 0);
                T_EQ_INT(a.off, sizeof(src) + 5);
        }
}

static const prc_test tests[] = {
        T(test_extract_npm__package_json_every_kind_source_and_hook),
        T(test_extract_npm__package_json_refusals),
        T(test_extract_npm__package_lock_v1_nested_and_git),
        T(test_extract_npm__package_lock_v2_direct_and_dev),
        T(test_extract_npm__package_lock_v3_alias_link_workspace),
        T(test_extract_npm__package_lock_unknown_version_is_refused),
        T(test_extract_npm__yarn_classic),
        T(test_extract_npm__yarn_berry),
        T(test_extract_npm__pnpm_v5_v6_v9),
        T(test_extract_npm__package_lock_v3_edges_nearest_folder),
        T(test_extract_npm__package_lock_v1_edges_from_requires),
        T(test_extract_npm__yarn_edges_classic_and_berry),
        T(test_extract_npm__yarn_classic_alias_purl_names_the_real_package),
        T(test_extract_npm__package_json_empty_npm_alias),
        T(test_extract_npm__pnpm_edges_v5_v6_v9),
        T(test_extract_npm__npmrc_credentials_by_key_only),
        T(test_extract_npm__mdoc_check_refuses_every_bent_shape),
        T(test_extract_npm__table_exact_names),
        T(test_extract_npm__cursor_search_agrees_with_the_byte_scan),
};
PRC_SUITE(extract_npm, tests)
