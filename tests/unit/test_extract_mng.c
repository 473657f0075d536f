/*
 * test_extract_mng.c - the Maven, NuGet and RubyGems extractors (maven.c,
 * nuget.c, gem.c) on the fixtures in tests/fixtures/extract/{maven,nuget,gem}:
 * every format and lockfile version the issue names, interpolation and what
 * stays unresolved, scopes, sources, integrity, lines, credentials by key,
 * and the named refusals.
 */
#include "t.h"

#include <stdlib.h>
#include <string.h>

#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "mdoc_t.h"
#include "content/extract/mng.h"

static json_t *run_mem(const char *format, const char *path, const char *src, size_t n, prc_err *e)
{
        const prc_extractor *x = prc_extractor_by_format(format);
        prc_xin in = { path, (const uint8_t *)src, n, &prc_limits_default };

        T_ASSERT(x != NULL);
        prc_err_init(e);
        return t_md_checked(x->fn(&in, e), path, format);
}

/* Run the extractor for format over a fixture; the input is freed before returning (nothing borrows it). */
static json_t *run(const char *format, const char *fixture, prc_err *e)
{
        char path[4096];
        size_t n;
        char *b;
        json_t *md;

        snprintf(path, sizeof(path), "%s/tests/fixtures/extract/%s", t_root(), fixture);
        b = t_read(path, &n);
        md = run_mem(format, fixture, b, n, e);
        free(b);
        return md;
}

/* The nth (0-based) dependency named name. */
static json_t *dep(json_t *md, const char *name, size_t nth)
{
        size_t i;
        json_t *d;

        json_array_foreach(json_object_get(md, "dependencies"), i, d)
                if (strcmp(json_string_value(json_object_get(d, "name")), name) == 0 && nth-- == 0)
                        return d;
        t_fail(__FILE__, __LINE__, "no dependency '%s'", name);
}

static const char *s_(json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static long long line_(json_t *o)
{
        return json_integer_value(json_object_get(o, "line"));
}

static const char *src_(json_t *d, const char *k)
{
        return json_string_value(json_object_get(json_object_get(d, "source"), k));
}

#define T_NULL(o, k) T_ASSERT(json_is_null(json_object_get((o), (k))))

/* A not_extracted entry whose "what" is what, at line (0: any). */
static bool has_note(json_t *md, const char *what, long long line)
{
        size_t i;
        json_t *x;

        json_array_foreach(json_object_get(md, "not_extracted"), i, x)
                if (strcmp(s_(x, "what"), what) == 0 && (line == 0 || line_(x) == line))
                        return true;
        return false;
}

static void no_secret(json_t *md, const char *secret)
{
        char *s = json_dumps(md, JSON_COMPACT);

        T_ASSERT(s != NULL);
        if (strstr(s, secret) != NULL)
                t_fail(__FILE__, __LINE__, "the value '%s' leaked into the ManifestDoc", secret);
        free(s);
}

/* ---- Maven -------------------------------------------------------------- */

static void test_extract_mng__pom_interpolates_from_the_same_file(void)
{
        prc_err e;
        json_t *md = run("maven-pom", "maven/interpolation.pom.xml", &e), *d, *pkg;

        T_NOERR(e);
        pkg = json_object_get(md, "package");
        /* groupId falls back to the parent's; version is the project's own */
        T_EQ_STR(s_(pkg, "name"), "org.example:demo");
        T_EQ_STR(s_(pkg, "version"), "1.2.0");
        T_EQ_STR(s_(pkg, "purl"), "pkg:maven/org.example/demo@1.2.0");
        T_EQ_INT(line_(pkg), 9);
        /* ${alias.version} -> ${guava.version} -> 33.0-jre; the commented-out artifactId is not its line */
        d = dep(md, "com.google.guava:guava", 0);
        T_EQ_STR(s_(d, "requirement"), "${alias.version}");
        T_EQ_STR(s_(d, "resolved"), "33.0-jre");
        T_EQ_STR(s_(d, "purl"), "pkg:maven/com.google.guava/guava@33.0-jre");
        T_EQ_INT(line_(d), 29);
        T_ASSERT(json_is_true(json_object_get(d, "direct")));
        d = dep(md, "org.example:demo-core", 0);
        T_EQ_STR(s_(d, "resolved"), "1.2.0");
        /* no version: the one dependencyManagement in this file gives */
        d = dep(md, "org.slf4j:slf4j-api", 0);
        T_NULL(d, "requirement");
        T_EQ_STR(s_(d, "resolved"), "2.0.9");
        json_decref(md);
}

static void test_extract_mng__pom_unresolved_stays_unresolved_and_says_so(void)
{
        prc_err e;
        json_t *md = run("maven-pom", "maven/interpolation.pom.xml", &e), *d;

        T_NOERR(e);
        d = dep(md, "junit:junit", 0);
        T_EQ_STR(s_(d, "requirement"), "${junit.version}");
        T_NULL(d, "resolved");
        T_EQ_STR(s_(d, "purl"), "pkg:maven/junit/junit");
        T_ASSERT(has_note(md, "version of junit:junit", 43));
        /* managed by the parent, which is never read */
        d = dep(md, "org.example:managed-elsewhere", 0);
        T_NULL(d, "requirement");
        T_NULL(d, "resolved");
        T_ASSERT(has_note(md, "version of org.example:managed-elsewhere", 62));
        /* a range is a requirement, not a pin */
        d = dep(md, "jakarta.servlet:jakarta.servlet-api", 0);
        T_EQ_STR(s_(d, "requirement"), "[6.0,7.0)");
        T_NULL(d, "resolved");
        json_decref(md);
}

static void test_extract_mng__pom_scopes_plugins_profiles_registries(void)
{
        prc_err e;
        json_t *md = run("maven-pom", "maven/interpolation.pom.xml", &e), *d, *det, *r;

        T_NOERR(e);
        T_EQ_STR(s_(dep(md, "junit:junit", 0), "scope"), "test");
        T_EQ_STR(s_(dep(md, "jakarta.servlet:jakarta.servlet-api", 0), "scope"), "peer");
        d = dep(md, "org.example:extras", 0);
        T_EQ_STR(s_(d, "scope"), "optional");
        T_EQ_STR(s_(d, "purl"), "pkg:maven/org.example/extras@1.0?classifier=linux");
        /* a plugin without groupId is org.apache.maven.plugins's, and runs at build time */
        d = dep(md, "org.apache.maven.plugins:maven-compiler-plugin", 0);
        T_EQ_STR(s_(d, "scope"), "build");
        T_EQ_STR(s_(d, "group"), "plugin");
        T_EQ_STR(s_(dep(md, "org.example:fast-path", 0), "group"), "profile:fast");
        /* dependencyManagement is details, not a dependency */
        det = prc_md_details(md);
        T_EQ_INT(json_array_size(json_object_get(det, "dependency_management")), 1);
        T_EQ_STR(s_(json_array_get(json_object_get(det, "dependency_management"), 0), "resolved"), "2.0.9");
        T_EQ_STR(s_(json_object_get(det, "parent"), "purl"), "pkg:maven/org.example/example-parent@7");
        T_EQ_INT(json_array_size(json_object_get(md, "dependencies")), 9);
        r = json_array_get(json_object_get(md, "registries"), 0);
        T_EQ_STR(s_(r, "url"), "https://maven.corp.example/releases");
        T_EQ_STR(s_(json_array_get(json_object_get(md, "credentials"), 0), "key"), "registry URL userinfo");
        no_secret(md, "s3cr3tpass");
        json_decref(md);
}

static void test_extract_mng__pom_refusals(void)
{
        static const char doctype[] = "<?xml version=\"1.0\"?>\n<!DOCTYPE project [<!ENTITY x \"y\">]>\n"
                                      "<project><artifactId>&x;</artifactId></project>\n";
        static const char notpom[] = "<settings><x/></settings>";
        static const char textwanted[] = "<project><artifactId>a</artifactId><dependencies><dependency>"
                                         "<groupId>g</groupId><artifactId><b/></artifactId></dependency>"
                                         "</dependencies></project>";
        prc_err e;

        T_ASSERT(run("maven-pom", "maven/no-artifact.pom.xml", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 9);
        T_ASSERT(run("maven-pom", "maven/model-5.pom.xml", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 2);
        T_ASSERT(run_mem("maven-pom", "pom.xml", doctype, sizeof(doctype) - 1, &e) == NULL);
        T_ERR(e, PRC_E_XML_DOCTYPE);
        T_ASSERT(run_mem("maven-pom", "pom.xml", notpom, sizeof(notpom) - 1, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(run_mem("maven-pom", "pom.xml", textwanted, sizeof(textwanted) - 1, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(run_mem("maven-pom", "pom.xml", "", 0, &e) == NULL);
        T_ASSERT(e.cls != PRC_E_OK);
}

static void test_extract_mng__pom_property_cycle_is_unresolved_not_a_hang(void)
{
        static const char src[] =
                "<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version><properties>"
                "<a>${b}</a><b>${a}</b><x>${x}${x}${x}${x}${x}${x}${x}${x}</x><m><i/></m></properties><dependencies>"
                "<dependency><groupId>g</groupId><artifactId>e</artifactId><version>${m}</version></dependency>"
                "<dependency><groupId>g</groupId><artifactId>c</artifactId><version>${a}</version></dependency>"
                "<dependency><groupId>g</groupId><artifactId>d</artifactId><version>${x}</version></dependency>"
                "</dependencies></project>";
        prc_err e;
        json_t *md = run_mem("maven-pom", "pom.xml", src, sizeof(src) - 1, &e);

        T_NOERR(e);
        T_NULL(dep(md, "g:c", 0), "resolved");
        T_NULL(dep(md, "g:d", 0), "resolved");
        T_ASSERT(has_note(md, "version of g:c", 0));
        T_ASSERT(has_note(md, "version of g:d", 0));
        /* a property holding markup is no value: unresolved, not a refusal */
        T_NULL(dep(md, "g:e", 0), "resolved");
        T_ASSERT(has_note(md, "version of g:e", 0));
        json_decref(md);
}

static void test_extract_mng__gradle_lockfile(void)
{
        prc_err e;
        json_t *md = run("gradle-lockfile", "maven/gradle.lockfile", &e), *d;

        T_NOERR(e);
        T_EQ_STR(s_(md, "kind"), "lockfile");
        T_EQ_INT(json_array_size(json_object_get(md, "dependencies")), 3);
        d = dep(md, "com.google.code.gson:gson", 0);
        T_EQ_STR(s_(d, "resolved"), "2.10.1");
        T_EQ_STR(s_(d, "scope"), "runtime");
        T_EQ_STR(s_(d, "purl"), "pkg:maven/com.google.code.gson/gson@2.10.1");
        T_EQ_INT(line_(d), 4);
        T_ASSERT(json_is_false(json_object_get(d, "direct")));
        T_EQ_STR(s_(dep(md, "junit:junit", 0), "scope"), "test");
        T_EQ_STR(s_(dep(md, "com.google.auto.value:auto-value", 0), "scope"), "build");
        T_EQ_INT(json_array_size(json_object_get(prc_md_details(md), "empty_configurations")), 2);
        json_decref(md);
        T_ASSERT(run("gradle-lockfile", "maven/bad.gradle.lockfile", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 3);
}

static void test_extract_mng__gradle_version_catalog(void)
{
        prc_err e;
        json_t *md = run("gradle-version-catalog", "maven/libs.versions.toml", &e), *d, *al;

        T_NOERR(e);
        d = dep(md, "org.codehaus.groovy:groovy", 0);
        T_EQ_STR(s_(d, "resolved"), "3.0.5");
        T_EQ_INT(line_(d), 6);
        T_EQ_STR(s_(dep(md, "org.codehaus.groovy:groovy-json", 0), "resolved"), "3.0.5");
        d = dep(md, "org.apache.commons:commons-lang3", 0);
        T_EQ_STR(s_(d, "requirement"), "[3.8, 4.0[");
        T_NULL(d, "resolved");          /* prefer is not a pin */
        d = dep(md, "com.mycompany:alias", 0);
        T_EQ_STR(s_(d, "resolved"), "1.2");
        T_EQ_INT(line_(d), 9);          /* a quoted key */
        T_ASSERT(has_note(md, "version of no-version", 10));
        T_ASSERT(has_note(md, "version of dangling", 12));
        d = dep(md, "com.github.ben-manes.versions:com.github.ben-manes.versions.gradle.plugin", 0);
        T_EQ_STR(s_(d, "scope"), "build");
        T_EQ_STR(s_(d, "purl"), "pkg:maven/com.github.ben-manes.versions/"
                                "com.github.ben-manes.versions.gradle.plugin@0.45.0");
        T_EQ_STR(s_(dep(md, "org.jetbrains.kotlin.jvm:org.jetbrains.kotlin.jvm.gradle.plugin", 0), "resolved"),
                 "1.9.22");
        al = json_object_get(prc_md_details(md), "aliases");
        T_EQ_INT(json_integer_value(json_object_get(al, "groovy-json")), 1);
        T_EQ_INT(json_integer_value(json_object_get(al, "plugins.versions")), 7);
        T_EQ_INT(json_array_size(json_object_get(json_object_get(prc_md_details(md), "bundles"), "groovy")), 2);
        json_decref(md);
        {
                static const char bad[] = "[libraries]\nx = \"nocolon\"\n";

                T_ASSERT(run_mem("gradle-version-catalog", "gradle/libs.versions.toml", bad, sizeof(bad) - 1, &e) ==
                         NULL);
                T_ERR(e, PRC_E_EXTRACT_SHAPE);
                T_EQ_INT(e.line, 2);
        }
}

/* ---- NuGet -------------------------------------------------------------- */

static void test_extract_mng__msbuild_project(void)
{
        prc_err e;
        json_t *md = run("nuget-msbuild-project", "nuget/App.csproj", &e), *d, *det;

        T_NOERR(e);
        d = dep(md, "Newtonsoft.Json", 0);
        T_EQ_STR(s_(d, "resolved"), "13.0.3");
        T_EQ_STR(s_(d, "purl"), "pkg:nuget/Newtonsoft.Json@13.0.3");
        T_EQ_INT(line_(d), 10);
        d = dep(md, "Serilog", 0);
        T_EQ_STR(s_(d, "requirement"), "$(SerilogVersion)");
        T_EQ_STR(s_(d, "resolved"), "3.1.1");
        T_EQ_STR(s_(dep(md, "Polly", 0), "resolved"), "8.2.0");         /* <Version> child element */
        T_EQ_STR(s_(dep(md, "StyleCop.Analyzers", 0), "scope"), "dev"); /* PrivateAssets=all */
        T_NULL(dep(md, "Floating", 0), "resolved");
        /* defined only under a Condition: not resolved, and said */
        T_NULL(dep(md, "Unknown.Prop", 0), "resolved");
        T_ASSERT(has_note(md, "version of Unknown.Prop", 17));
        T_ASSERT(has_note(md, "version of Central.Only", 18));
        d = dep(md, "System.ValueTuple", 0);
        T_EQ_STR(s_(d, "resolved"), "4.5.0");
        T_EQ_STR(s_(d, "group"), "'$(TargetFramework)' == 'net48'");
        det = prc_md_details(md);
        T_EQ_STR(s_(json_array_get(json_object_get(det, "updates"), 0), "name"), "Some.Transitive");
        T_EQ_STR(json_string_value(json_array_get(json_object_get(det, "project_references"), 0)),
                 "..\\Lib\\Lib.csproj");
        T_EQ_STR(s_(det, "target_frameworks"), "net8.0");
        T_EQ_INT(json_array_size(json_object_get(md, "dependencies")), 8);
        json_decref(md);
}

static void test_extract_mng__central_package_management(void)
{
        prc_err e;
        json_t *md = run("nuget-central-packages", "nuget/Directory.Packages.props", &e), *d;

        T_NOERR(e);
        d = dep(md, "Central.Only", 0);
        T_EQ_STR(s_(d, "resolved"), "4.0.1");
        T_EQ_STR(s_(d, "group"), "central");
        T_EQ_STR(s_(dep(md, "Nerdbank.GitVersioning", 0), "scope"), "dev");
        T_EQ_STR(s_(prc_md_details(md), "central_package_management"), "true");
        json_decref(md);
}

static void test_extract_mng__packages_config(void)
{
        prc_err e;
        json_t *md = run("nuget-packages-config", "nuget/packages.config", &e), *d;

        T_NOERR(e);
        d = dep(md, "NUnit", 0);
        T_EQ_STR(s_(d, "scope"), "dev");
        T_EQ_STR(s_(d, "resolved"), "3.13.0");
        T_EQ_STR(s_(d, "group"), "net45");
        T_EQ_INT(line_(d), 4);
        json_decref(md);
        T_ASSERT(run("nuget-packages-config", "nuget/bad-packages.config", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 3);
}

static void test_extract_mng__packages_lock_v1(void)
{
        prc_err e;
        json_t *md = run("nuget-packages-lock", "nuget/packages.lock.v1.json", &e), *d;

        T_NOERR(e);
        d = dep(md, "Newtonsoft.Json", 0);
        T_ASSERT(json_is_true(json_object_get(d, "direct")));
        T_EQ_STR(s_(d, "requirement"), "[13.0.3, )");
        T_EQ_STR(s_(d, "resolved"), "13.0.3");
        T_EQ_STR(s_(json_object_get(d, "integrity"), "algorithm"), "sha512");
        T_EQ_STR(s_(json_object_get(d, "integrity"), "value"), "HrC5BXdl00IP9zeV+0Z848QWPAoCr9P3bDEZguI+gkLcBKAOxix/"
                                                               "tLEAAHC+UvDNPv4a2d18lOReHMOagPa+zQ==");
        T_EQ_INT(line_(d), 5);
        d = dep(md, "System.Runtime", 0);
        T_ASSERT(json_is_false(json_object_get(d, "direct")));
        T_EQ_INT(line_(d), 11);
        d = dep(md, "mylib", 0);
        T_EQ_STR(src_(d, "type"), "workspace");
        T_NULL(d, "purl");
        T_EQ_INT(json_integer_value(json_object_get(prc_md_details(md), "version")), 1);
        json_decref(md);
}

static void test_extract_mng__packages_lock_v2_and_unknown_versions(void)
{
        static const char noversion[] = "{\"dependencies\": {}}";
        prc_err e;
        json_t *md = run("nuget-packages-lock", "nuget/packages.lock.v2.json", &e), *d;

        T_NOERR(e);
        d = dep(md, "System.Text.Json", 0);
        T_ASSERT(json_is_false(json_object_get(d, "direct")));  /* CentralTransitive */
        T_EQ_STR(s_(d, "resolved"), "8.0.0");
        T_EQ_STR(s_(d, "group"), "net8.0");
        json_decref(md);
        T_ASSERT(run("nuget-packages-lock", "nuget/packages.lock.v3.json", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 2);
        T_ASSERT(run_mem("nuget-packages-lock", "packages.lock.json", noversion, sizeof(noversion) - 1, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

/* Dependencies by id (any case) within their target framework; a runtime section reaches its framework's. */
static void test_extract_mng__packages_lock_edges(void)
{
        static const char lock[] =
                "{\"version\": 1, \"dependencies\": {\n"
                "\"net8.0\": {\"A\": {\"type\": \"Direct\", \"resolved\": \"1.0.0\", \"dependencies\": "
                "{\"b\": \"2.0.0\", \"Gone\": \"1.0.0\"}},\n"
                "  \"B\": {\"type\": \"Transitive\", \"resolved\": \"2.0.0\"},\n"
                "  \"app.core\": {\"type\": \"Project\", \"dependencies\": {\"A\": \"[1.0.0, )\"}}},\n"
                "\"net6.0\": {\"B\": {\"type\": \"Direct\", \"resolved\": \"1.5.0\"}},\n"
                "\"net8.0/linux-x64\": {\"R\": {\"type\": \"Transitive\", \"resolved\": \"3.0.0\", "
                "\"dependencies\": {\"B\": \"2.0.0\"}}}}}\n";
        prc_err e;
        json_t *md = run_mem("nuget-packages-lock", "packages.lock.json", lock, sizeof(lock) - 1, &e);

        T_NOERR(e);
        T_ASSERT(prc_mdoc_check(md, "packages.lock.json", "nuget-packages-lock", &e));
        T_EQ_STR(t_md_edges(md, dep(md, "A", 0)), "B@2.0.0");             /* net8.0's B, not net6.0's */
        T_EQ_STR(t_md_edges(md, dep(md, "app.core", 0)), "A@1.0.0");
        T_EQ_STR(t_md_edges(md, dep(md, "R", 0)), "B@2.0.0");
        T_EQ_STR(t_md_edges(md, dep(md, "B", 1)), "");
        T_EQ_STR(t_md_unresolved(md), "A@1.0.0 on Gone 1.0.0");
        json_decref(md);
}

static void test_extract_mng__nuget_config_credentials_by_key_only(void)
{
        static const char *const secrets[] = { "hunter2", "feeduser", "TOPSECRET-cleartext-value", "build-bot",
                                               "AQAAANCMnd8BFdERjHoAwE", "proxy-pass-value" };
        prc_err e;
        json_t *md = run("nuget-config", "nuget/NuGet.config", &e), *regs, *creds, *map, *det;

        T_NOERR(e);
        T_EQ_STR(s_(md, "kind"), "registry-config");
        regs = json_object_get(md, "registries");
        T_EQ_INT(json_array_size(regs), 2);
        T_EQ_STR(s_(json_array_get(regs, 1), "name"), "corp");
        T_EQ_STR(s_(json_array_get(regs, 1), "url"), "https://pkgs.corp.example/nuget/v3/index.json");
        T_EQ_INT(line_(json_array_get(regs, 1)), 6);
        creds = json_object_get(md, "credentials");
        T_EQ_INT(json_array_size(creds), 5);
        T_EQ_STR(s_(json_array_get(creds, 0), "key"), "registry URL userinfo");
        T_EQ_STR(s_(json_array_get(creds, 2), "key"), "packageSourceCredentials/corp/ClearTextPassword");
        T_EQ_INT(line_(json_array_get(creds, 2)), 19);
        T_EQ_STR(s_(json_array_get(creds, 4), "key"), "config/http_proxy.password");
        for (size_t i = 0; i < PRC_ARRAY_LEN(secrets); i++)
                no_secret(md, secrets[i]);
        det = prc_md_details(md);
        T_ASSERT(json_is_true(json_object_get(det, "clear")));
        map = json_array_get(json_object_get(det, "package_source_mapping"), 1);
        T_EQ_STR(s_(map, "source"), "corp");
        T_EQ_STR(json_string_value(json_array_get(json_object_get(map, "patterns"), 0)), "Corp.*");
        T_EQ_STR(json_string_value(json_array_get(json_object_get(det, "disabled_sources"), 0)), "corp-old");
        T_EQ_INT(json_array_size(json_object_get(md, "dependencies")), 0);
        json_decref(md);
}

/* ---- RubyGems ----------------------------------------------------------- */

static void test_extract_mng__gemfile_lock_sources_and_direct_markers(void)
{
        prc_err e;
        json_t *md = run("gem-gemfile-lock", "gem/Gemfile.lock", &e), *d, *det;

        T_NOERR(e);
        d = dep(md, "activesupport", 0);
        T_ASSERT(json_is_true(json_object_get(d, "direct")));
        T_EQ_STR(src_(d, "type"), "git");
        T_EQ_STR(src_(d, "url"), "https://github.com/rails/rails.git");
        T_EQ_STR(src_(d, "ref"), "main");
        T_EQ_STR(src_(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_INT(line_(d), 6);
        d = dep(md, "mygem", 0);
        T_EQ_STR(src_(d, "type"), "path");
        T_EQ_STR(src_(d, "url"), ".");
        d = dep(md, "concurrent-ruby", 0);
        T_ASSERT(json_is_false(json_object_get(d, "direct")));
        T_NULL(json_object_get(d, "source"), "url");    /* rubygems.org: the default */
        d = dep(md, "corp-tools", 0);
        T_EQ_STR(src_(d, "url"), "https://gems.corp.example/");
        d = dep(md, "nokogiri", 1);
        T_EQ_STR(s_(d, "resolved"), "1.16.0");
        T_EQ_STR(s_(d, "requirement"), "~> 1.16");
        T_EQ_STR(s_(d, "purl"), "pkg:gem/nokogiri@1.16.0?platform=arm64-darwin");
        det = prc_md_details(md);
        T_EQ_STR(s_(det, "bundled_with"), "2.5.3");
        T_EQ_INT(json_array_size(json_object_get(det, "platforms")), 2);
        T_EQ_INT(json_array_size(json_object_get(det, "source_pinned")), 2);
        T_EQ_STR(s_(json_array_get(json_object_get(json_object_get(det, "requires"), "nokogiri (1.16.0-x86_64-linux)"),
                                   0), "requirement"), "~> 1.4");
        T_EQ_INT(json_array_size(json_object_get(md, "registries")), 2);
        json_decref(md);
}

/* A spec's nested dependencies by name, to every platform's spec of it; bundler is never a spec. */
static void test_extract_mng__gemfile_lock_edges(void)
{
        static const char lock[] = "GEM\n  remote: https://rubygems.org/\n  specs:\n"
                                   "    a (1.0)\n      bundler (>= 2)\n      n (~> 1.16)\n      gone (>= 0)\n"
                                   "    n (1.16.0-x86_64-linux)\n      r (~> 1.4)\n"
                                   "    n (1.16.0-arm64-darwin)\n      r (~> 1.4)\n    r (1.7.3)\n\n"
                                   "DEPENDENCIES\n  a\n";
        prc_err e;
        json_t *md = run("gem-gemfile-lock", "gem/Gemfile.lock", &e);

        T_NOERR(e);
        T_ASSERT(prc_mdoc_check(md, "gem/Gemfile.lock", "gem-gemfile-lock", &e));
        /* the fixture: mygem (PATH) -> activesupport (GIT) -> concurrent-ruby (GEM) */
        T_EQ_STR(t_md_edges(md, dep(md, "mygem", 0)), "activesupport@8.1.0.alpha");
        T_EQ_STR(t_md_edges(md, dep(md, "activesupport", 0)), "concurrent-ruby@1.3.4");
        T_EQ_STR(t_md_edges(md, dep(md, "rake", 0)), "");
        json_decref(md);
        md = run_mem("gem-gemfile-lock", "Gemfile.lock", lock, sizeof(lock) - 1, &e);
        T_NOERR(e);
        T_EQ_STR(t_md_edges(md, dep(md, "a", 0)), "n@1.16.0 n@1.16.0");
        T_EQ_STR(t_md_edges(md, dep(md, "n", 1)), "r@1.7.3");
        T_EQ_STR(t_md_unresolved(md), "a@1.0 on gone >= 0");
        json_decref(md);
}

static void test_extract_mng__gemfile_lock_checksums(void)
{
        prc_err e;
        json_t *md = run("gem-gemfile-lock", "gem/Gemfile.lock", &e), *d;

        T_NOERR(e);
        d = dep(md, "nokogiri", 0);     /* x86_64-linux: its own checksum, the first algorithm */
        T_EQ_STR(s_(json_object_get(d, "integrity"), "algorithm"), "sha256");
        T_EQ_STR(s_(json_object_get(d, "integrity"), "value"),
                 "2222222222222222222222222222222222222222222222222222222222222222");
        T_NULL(dep(md, "mygem", 0), "integrity");       /* a path gem has no checksum */
        json_decref(md);
}

static void test_extract_mng__gemfile_lock_refusals(void)
{
        static const char tabbed[] = "GEM\n  remote: https://rubygems.org/\n  specs:\n\trake (1)\n";
        static const char nul[] = "GEM\n  remote: x\0\n";
        static const char empty_sum[] = "GEM\n  remote: https://rubygems.org/\n  specs:\n    rake (1)\n\n"
                                        "CHECKSUMS\n  rake (1) sha256=\n";
        prc_err e;

        T_ASSERT(run("gem-gemfile-lock", "gem/bad-spec.Gemfile.lock", &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 5);
        T_ASSERT(run_mem("gem-gemfile-lock", "Gemfile.lock", "", 0, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_ASSERT(run_mem("gem-gemfile-lock", "Gemfile.lock", tabbed, sizeof(tabbed) - 1, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 4);
        T_ASSERT(run_mem("gem-gemfile-lock", "Gemfile.lock", nul, sizeof(nul) - 1, &e) == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        T_ASSERT(run_mem("gem-gemfile-lock", "Gemfile.lock", "GEM\n  \xff\n", 8, &e) == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        /* a checksum with no value is refused at its line, never sent as an empty integrity value */
        T_ASSERT(run_mem("gem-gemfile-lock", "Gemfile.lock", empty_sum, sizeof(empty_sum) - 1, &e) == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 7);
}

static void test_extract_mng__gemfile_static_calls_only(void)
{
        prc_err e;
        json_t *md = run("gem-gemfile", "gem/Gemfile", &e), *d;

        T_NOERR(e);
        d = dep(md, "rails", 0);
        T_EQ_STR(s_(d, "requirement"), "~> 7.1, >= 7.1.2");
        T_NULL(d, "resolved");
        T_EQ_INT(line_(d), 8);
        T_EQ_STR(s_(dep(md, "pg", 0), "resolved"), "1.5.4");
        T_EQ_STR(src_(dep(md, "private-gem", 0), "url"), "https://gems.corp.example");
        d = dep(md, "edge", 0);
        T_EQ_STR(src_(d, "type"), "git");
        T_EQ_STR(src_(d, "url"), "https://github.com/owner/edge.git");
        T_EQ_STR(src_(d, "ref"), "main");
        T_EQ_STR(src_(dep(md, "local", 0), "type"), "path");
        d = dep(md, "multi", 0);                /* continued over three lines */
        T_EQ_STR(s_(d, "resolved"), "2.0.0");
        T_EQ_INT(line_(d), 14);
        d = dep(md, "rspec-rails", 0);
        T_EQ_STR(s_(d, "scope"), "dev");
        T_EQ_STR(s_(d, "group"), "development,test");
        T_EQ_STR(s_(dep(md, "capybara", 0), "scope"), "test");
        T_EQ_STR(s_(dep(md, "yard", 0), "scope"), "optional");
        d = dep(md, "mono-a", 0);
        T_EQ_STR(src_(d, "url"), "https://git.corp.example/mono.git");
        T_EQ_STR(src_(d, "ref"), "v1");
        T_EQ_STR(s_(prc_md_details(md), "ruby"), "3.3.0");
        /* everything else is reported with its line, never silently skipped */
        T_ASSERT(has_note(md, "gemspec", 6));
        T_ASSERT(has_note(md, "if ENV[\"EXTRA\"]", 34));
        T_ASSERT(has_note(md, "gem \"dynamic-#{RUBY_VERSION}\"", 38));
        T_ASSERT(has_note(md, "gem \"computed\", version", 39));
        T_ASSERT(has_note(md, "eval_gemfile \"other.rb\"", 40));
        T_EQ_INT(json_array_size(json_object_get(md, "dependencies")), 12);
        json_decref(md);
}

/* Found by fuzz_extract_mng: a group named by a number gave NULL without an error class. */
static void test_extract_mng__gemfile_group_with_a_non_symbol_name(void)
{
        static const char src[] = "group 9development, :test do\n  gem \"a\"\nend\ngem \"b\"\n";
        prc_err e;
        json_t *md = run_mem("gem-gemfile", "Gemfile", src, sizeof(src) - 1, &e);

        T_NOERR(e);
        T_ASSERT(md != NULL);
        T_ASSERT(has_note(md, "group 9development, :test do", 1));
        T_NULL(dep(md, "a", 0), "group");
        T_EQ_INT(line_(dep(md, "b", 0)), 4);
        json_decref(md);
}

static void test_extract_mng__gem_source_url_credentials_by_key(void)
{
        static const char lock[] = "GIT\n  remote: https://x-access-token:ghp_lockSECRET@github.com/o/r.git\n"
                                   "  revision: 0123456789abcdef0123456789abcdef01234567\n  specs:\n    r (1.0)\n\n"
                                   "DEPENDENCIES\n  r!\n";
        static const char gemfile[] = "source \"https://u:gfSECRET1@gems.example/\"\n"
                                      "gem \"a\", git: \"https://u:gfSECRET2@git.example/a.git\"\n"
                                      "gem \"b\", source: \"https://u:gfSECRET3@gems2.example/\"\n";
        prc_err e;
        json_t *md = run_mem("gem-gemfile-lock", "Gemfile.lock", lock, sizeof(lock) - 1, &e);

        T_NOERR(e);
        T_EQ_STR(src_(dep(md, "r", 0), "url"), "https://github.com/o/r.git");
        T_EQ_STR(s_(json_array_get(json_object_get(md, "credentials"), 0), "key"), "source URL userinfo");
        T_EQ_INT(line_(json_array_get(json_object_get(md, "credentials"), 0)), 2);
        no_secret(md, "lockSECRET");
        no_secret(md, "x-access-token");
        json_decref(md);
        md = run_mem("gem-gemfile", "Gemfile", gemfile, sizeof(gemfile) - 1, &e);
        T_NOERR(e);
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 3);
        no_secret(md, "gfSECRET");
        json_decref(md);
}

/* ---- the table and hostile bytes ---------------------------------------- */

static void test_extract_mng__table_matches_file_names(void)
{
        static const struct { const char *path, *format; } cases[] = {
                { "a/pom.xml", "maven-pom" },
                { "gradle.lockfile", "gradle-lockfile" },
                { "app/buildscript-gradle.lockfile", "gradle-lockfile" },
                { "gradle/dependency-locks/compileClasspath.lockfile", "gradle-lockfile" },
                { "gradle/libs.versions.toml", "gradle-version-catalog" },
                { "src/App.csproj", "nuget-msbuild-project" },
                { "src/Lib.FSPROJ", "nuget-msbuild-project" },
                { "src/Old.vbproj", "nuget-msbuild-project" },
                { "Directory.Build.props", "nuget-msbuild-project" },
                { "Directory.Packages.props", "nuget-central-packages" },
                { "x/packages.config", "nuget-packages-config" },
                { "x/packages.lock.json", "nuget-packages-lock" },
                { "nuget.config", "nuget-config" },
                { "NuGet.Config", "nuget-config" },
                { "Gemfile.lock", "gem-gemfile-lock" },
                { "gems.locked", "gem-gemfile-lock" },
                { "sub/Gemfile", "gem-gemfile" },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                const prc_extractor *x = prc_extractor_for_path(cases[i].path);

                T_ASSERT(x != NULL);
                T_EQ_STR(x->format, cases[i].format);
        }
        T_ASSERT(prc_extractor_for_path("pom.xml.bak") == NULL);
        T_ASSERT(prc_extractor_for_path("Gemfile.lock.orig") == NULL);
}

/* Every prefix and a sweep of byte flips of every fixture: one outcome each (a document or a named class). */
static void test_extract_mng__truncations_and_flips_give_one_outcome(void)
{
        static const struct { const char *format, *fixture; } fx[] = {
                { "maven-pom", "maven/interpolation.pom.xml" },
                { "gradle-lockfile", "maven/gradle.lockfile" },
                { "gradle-version-catalog", "maven/libs.versions.toml" },
                { "nuget-msbuild-project", "nuget/App.csproj" },
                { "nuget-central-packages", "nuget/Directory.Packages.props" },
                { "nuget-packages-config", "nuget/packages.config" },
                { "nuget-packages-lock", "nuget/packages.lock.v1.json" },
                { "nuget-config", "nuget/NuGet.config" },
                { "gem-gemfile-lock", "gem/Gemfile.lock" },
                { "gem-gemfile", "gem/Gemfile" },
        };

        for (size_t f = 0; f < PRC_ARRAY_LEN(fx); f++) {
                char path[4096];
                size_t n;
                char *b, *m;

                snprintf(path, sizeof(path), "%s/tests/fixtures/extract/%s", t_root(), fx[f].fixture);
                b = t_read(path, &n);
                m = malloc(n + 1);
                T_ASSERT(m != NULL);
                for (size_t cut = 0; cut <= n; cut += 5) {
                        prc_err e;
                        json_t *md;

                        memcpy(m, b, cut);
                        md = run_mem(fx[f].format, fx[f].fixture, m, cut, &e);
                        T_ASSERT((md == NULL) == (e.cls != PRC_E_OK));
                        json_decref(md);
                }
                for (size_t at = 0; at < n; at += 3) {
                        static const char flips[] = { '\0', '"', '<', '>', '$', '{', '\n', ' ', ':', '(' };
                        prc_err e;
                        json_t *md;

                        memcpy(m, b, n);
                        m[at] = flips[at % sizeof(flips)];
                        md = run_mem(fx[f].format, fx[f].fixture, m, n, &e);
                        T_ASSERT((md == NULL) == (e.cls != PRC_E_OK));
                        json_decref(md);
                }
                free(m);
                free(b);
        }
}

static const prc_test tests[] = {
        T(test_extract_mng__pom_interpolates_from_the_same_file),
        T(test_extract_mng__pom_unresolved_stays_unresolved_and_says_so),
        T(test_extract_mng__pom_scopes_plugins_profiles_registries),
        T(test_extract_mng__pom_refusals),
        T(test_extract_mng__pom_property_cycle_is_unresolved_not_a_hang),
        T(test_extract_mng__gradle_lockfile),
        T(test_extract_mng__gradle_version_catalog),
        T(test_extract_mng__msbuild_project),
        T(test_extract_mng__central_package_management),
        T(test_extract_mng__packages_config),
        T(test_extract_mng__packages_lock_v1),
        T(test_extract_mng__packages_lock_v2_and_unknown_versions),
        T(test_extract_mng__packages_lock_edges),
        T(test_extract_mng__nuget_config_credentials_by_key_only),
        T(test_extract_mng__gemfile_lock_sources_and_direct_markers),
        T(test_extract_mng__gemfile_lock_edges),
        T(test_extract_mng__gemfile_lock_checksums),
        T(test_extract_mng__gemfile_lock_refusals),
        T(test_extract_mng__gemfile_static_calls_only),
        T(test_extract_mng__gemfile_group_with_a_non_symbol_name),
        T(test_extract_mng__gem_source_url_credentials_by_key),
        T(test_extract_mng__table_matches_file_names),
        T(test_extract_mng__truncations_and_flips_give_one_outcome),
};
PRC_SUITE(extract_mng, tests)
