/*
 * test_extract_python.c - the Python (pypi) extractors: the PEP 508 reader,
 * PEP 503 names and purls, and every format and lockfile version over the
 * fixtures in tests/fixtures/extract/python/ (written for these tests).
 */
#include "t.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "mdoc_t.h"
#include "content/extract/python.h"

/* Run the extractor that owns path over the fixture file; NULL with e set on refusal. */
static json_t *run_fixture(const char *fixture, const char *path, prc_err *e)
{
        char full[512];
        size_t n;
        char *src;
        const prc_extractor *x = prc_extractor_for_path(path);
        prc_xin in;
        json_t *md;

        snprintf(full, sizeof(full), "%s/tests/fixtures/extract/python/%s", t_root(), fixture);
        src = t_read(full, &n);
        T_ASSERT(x != NULL);
        in = (prc_xin){ path, (const uint8_t *)src, n, &prc_limits_default };
        prc_err_init(e);
        md = x->fn(&in, e);
        free(src);
        return t_md_checked(md, path, x->format);
}

static json_t *run_bytes(const char *path, const char *text, size_t n, prc_err *e)
{
        const prc_extractor *x = prc_extractor_for_path(path);
        prc_xin in = { path, (const uint8_t *)text, n, &prc_limits_default };

        T_ASSERT(x != NULL);
        prc_err_init(e);
        return t_md_checked(x->fn(&in, e), path, x->format);
}

static json_t *run_text(const char *path, const char *text, prc_err *e)
{
        return run_bytes(path, text, strlen(text), e);
}

static json_t *dep(const json_t *md, size_t i)
{
        json_t *d = json_array_get(json_object_get(md, "dependencies"), i);

        T_ASSERT(d != NULL);
        return d;
}

static size_t ndeps(const json_t *md)
{
        return json_array_size(json_object_get(md, "dependencies"));
}

static const char *s(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static const char *src(const json_t *d, const char *k)
{
        return json_string_value(json_object_get(json_object_get(d, "source"), k));
}

static long line(const json_t *o)
{
        return (long)json_integer_value(json_object_get(o, "line"));
}

/* The dependency named name (first), or a failure. */
static json_t *named(const json_t *md, const char *name)
{
        for (size_t i = 0; i < ndeps(md); i++)
                if (strcmp(s(dep(md, i), "name"), name) == 0)
                        return dep(md, i);
        t_fail(__FILE__, __LINE__, "no dependency %s", name);
}

static void no_secret(const json_t *md, const char *secret)
{
        char *dump = json_dumps(md, JSON_COMPACT);

        T_ASSERT(dump != NULL);
        if (strstr(dump, secret) != NULL)
                t_fail(__FILE__, __LINE__, "the secret %s is in the ManifestDoc", secret);
        free(dump);
}

static void test_extract_python__pep508_reader(void)
{
        py_req r;
        const char *why = NULL;

        static const char r1[] = "requests [security , socks] (>= 2.0 , < 3) ; python_version<'3.9'";
        static const char r2[] = "pip @ https://x.example/pip.zip ; os_name == \"nt\"";
        static const char r3[] = "a.b-c_d===1.0+local.7";

        T_EQ_INT(py_req_parse(r1, strlen(r1), &r, &why), PY_OK);
        T_EQ_STR(r.name, "requests");
        T_EQ_STR(r.extras, "security,socks");
        T_EQ_STR(r.spec, ">=2.0,<3");
        T_EQ_STR(r.marker, "python_version<'3.9'");
        py_req_free(&r);
        T_EQ_INT(py_req_parse(r2, strlen(r2), &r, &why), PY_OK);
        T_EQ_STR(r.url, "https://x.example/pip.zip");
        T_EQ_STR(r.marker, "os_name == \"nt\"");
        T_ASSERT(r.spec == NULL);
        py_req_free(&r);
        T_EQ_INT(py_req_parse(r3, strlen(r3), &r, &why), PY_OK);
        T_EQ_STR(r.spec, "===1.0+local.7");
        py_req_free(&r);
        /* garbage is refused with a reason, never taken in part */
        static const char *const bad[] = {
                "", "-foo", "foo-", "foo bar", "foo >= ", "foo[", "foo[a b]", "foo (>=1", "foo ; ",
                "foo ; python_version", "foo ; python_version >= '3", "foo ; bogus_var == '1'",
                "foo ; python_version >= '3' and", "foo @ ", "foo >=1 garbage", "foo ; (os_name == 'nt'",
                "foo=1.0", "foo ; os_name notin 'x'",
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                why = NULL;
                if (py_req_parse(bad[i], strlen(bad[i]), &r, &why) != PY_BAD || why == NULL)
                        t_fail(__FILE__, __LINE__, "\"%s\" was read as a requirement", bad[i]);
                py_req_free(&r);
        }
        static const char m[] = "extra == 'x' or (os_name not in 'nt posix' and python_version > \"3\")";

        T_ASSERT(py_marker_valid(m, strlen(m)));
        T_ASSERT(!py_marker_valid("os_name == 'a' or", 17));
        /* a NUL inside a quoted marker value is refused, not cut (found by fuzz_extract_python) */
        T_EQ_INT(py_req_parse("a ; os_name == 'x\0y'", 20, &r, &why), PY_BAD);
        py_req_free(&r);
        T_ASSERT(!py_marker_valid("os_name == 'x\0y'", 16));
}

static void test_extract_python__names_and_purls(void)
{
        char *n = py_norm("Zope__Interface..x-_-Y");
        char *p = py_purl("Typing_Extensions", "4.10.0+local");

        T_EQ_STR(n, "zope-interface-x-y");
        T_EQ_STR(p, "pkg:pypi/typing-extensions@4.10.0%2Blocal");
        free(n);
        free(p);
        p = py_pinned("==1.2");
        T_EQ_STR(p, "1.2");
        free(p);
        T_ASSERT(py_pinned("==1.*") == NULL && py_pinned(">=1") == NULL && py_pinned("==1,<2") == NULL);
}

/* Every lockfile reader refuses a version it does not read the same way: what it found, what it reads, where. */
static void test_extract_python__lockfile_version_refusals_say_what_prc_reads(void)
{
        static const struct {
                const char *path, *text, *msg;
                uint32_t line;
        } cases[] = {
                { "Pipfile.lock", "{\"_meta\": {\"pipfile-spec\": 5}}",
                  "Pipfile.lock pipfile-spec other than 6 (prc reads 6)", 1 },
                { "Pipfile.lock", "{\"_meta\": {}}", "Pipfile.lock pipfile-spec missing or not an integer (prc reads 6)",
                  0 },
                { "uv.lock", "x = 1\nversion = \"1\"\n", "uv.lock version missing or not an integer (prc reads 1)", 2 },
                { "uv.lock", "version = 2\n", "uv.lock version other than 1 (prc reads 1)", 1 },
                { "poetry.lock", "[metadata]\nlock-version = \"3.0\"\n",
                  "poetry.lock lock-version \"3.0\" (prc reads 1.0, 1.1, 2.0, 2.1)", 2 },
                { "poetry.lock", "[metadata]\nlock-version = 2\n",
                  "poetry.lock lock-version missing (prc reads 1.0, 1.1, 2.0, 2.1)", 2 },
                { "pdm.lock", "[metadata]\nlock_version = \"4.4.x\"\n",
                  "pdm.lock lock_version \"4.4.x\" (prc reads 4.0 to 4.5)", 2 },
                { "pylock.toml", "x = 1\n", "pylock.toml lock-version missing (prc reads 1.x)", 0 },
                { "pylock.toml", "lock-version = \"2.0\"\n", "pylock.toml lock-version \"2.0\" (prc reads 1.x)", 1 },
        };
        prc_err e;

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                T_ASSERT(run_text(cases[i].path, cases[i].text, &e) == NULL);
                T_ERR(e, PRC_E_EXTRACT_VERSION);
                T_EQ_STR(e.msg, cases[i].msg);
                T_EQ_INT(e.line, cases[i].line);
        }
}

static void test_extract_python__matching_names(void)
{
        static const struct {
                const char *path, *format;
        } cases[] = {
                { "requirements.txt", "pypi-requirements" },
                { "a/requirements-dev.txt", "pypi-requirements" },
                { "a/dev-requirements.in", "pypi-requirements" },
                { "constraints.txt", "pypi-requirements" },
                { "requirements/default.txt", "pypi-requirements" },
                { "x/requirements/test.in", "pypi-requirements" },
                { "deps/tools.in", "pypi-requirements" },
                { "pyproject.toml", "pypi-pyproject" },
                { "setup.cfg", "pypi-setup-cfg" },
                { "Pipfile", "pypi-pipfile" },
                { "Pipfile.lock", "pypi-pipfile-lock" },
                { "poetry.lock", "pypi-poetry-lock" },
                { "uv.lock", "pypi-uv-lock" },
                { "pdm.lock", "pypi-pdm-lock" },
                { "pylock.toml", "pypi-pylock" },
                { "pylock.dev.toml", "pypi-pylock" },
                { "etc/pip.conf", "pypi-pip-conf" },
                { "pip.ini", "pypi-pip-conf" },
        };
        static const char *const not_python[] = { "MANIFEST.in", "Makefile.in", "config.h.in", "setup.py.in",
                                                   "notes.txt", "pylock.a.b.toml", "docs/index.txt" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                const prc_extractor *x = prc_extractor_for_path(cases[i].path);

                if (x == NULL || strcmp(x->format, cases[i].format) != 0)
                        t_fail(__FILE__, __LINE__, "%s is not owned by %s", cases[i].path, cases[i].format);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(not_python); i++) {
                const prc_extractor *x = prc_extractor_for_path(not_python[i]);

                if (x != NULL && strcmp(x->ecosystem, "pypi") == 0)
                        t_fail(__FILE__, __LINE__, "%s is claimed by %s", not_python[i], x->format);
        }
}

static void test_extract_python__requirements_every_form(void)
{
        prc_err e;
        json_t *md = run_fixture("requirements.txt", "app/requirements.txt", &e), *d, *a;

        T_NOERR(e);
        T_EQ_STR(s(md, "format"), "pypi-requirements");
        T_EQ_STR(s(md, "kind"), "manifest");
        T_EQ_INT(ndeps(md), 11);
        d = named(md, "requests");
        T_EQ_STR(s(d, "requirement"), ">=2.31.0,<3");
        T_ASSERT(json_is_null(json_object_get(d, "resolved")));
        T_EQ_STR(s(d, "purl"), "pkg:pypi/requests");
        T_EQ_INT(line(d), 10);
        d = named(md, "Django");
        T_EQ_STR(s(d, "resolved"), "4.2.11");
        T_EQ_STR(s(d, "purl"), "pkg:pypi/django@4.2.11");
        T_EQ_STR(s(json_object_get(d, "integrity"), "algorithm"), "sha256");
        T_EQ_INT(line(d), 11);
        T_EQ_STR(s(named(md, "zope.interface"), "purl"), "pkg:pypi/zope-interface");
        d = named(md, "click");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "url"), "https://github.com/pallets/click.git");
        T_EQ_STR(src(d, "ref"), "8.1.7");
        d = named(md, "acme-widgets");
        T_EQ_STR(src(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_STR(src(d, "url"), "https://github.com/acme/widgets.git");
        d = named(md, "Some_Pkg");
        T_EQ_STR(src(d, "type"), "url");
        d = named(md, "localpkg");
        T_EQ_STR(src(d, "type"), "path");
        T_EQ_STR(src(d, "url"), "./vendor/localpkg");
        T_EQ_STR(src(named(md, "pytz"), "url"), "https://files.example/pytz-2024.1.tar.gz");
        T_EQ_INT(line(named(md, "numpy")), 23);
        /* name@URL without blanks is PEP 508, as pip reads it, though the text holds a '/' */
        d = named(md, "attrs");
        T_EQ_STR(src(d, "url"), "https://files.example/attrs-23.2.0.tar.gz");
        T_EQ_INT(line(d), 24);
        /* -r and -c are references with their line, followed by the scan inside the inventory only */
        a = json_object_get(prc_md_details(md), "includes");
        T_EQ_INT(json_array_size(a), 2);
        T_EQ_STR(s(json_array_get(a, 0), "kind"), "requirement");
        T_EQ_STR(s(json_array_get(a, 0), "path"), "base.txt");
        T_EQ_INT(line(json_array_get(a, 0)), 7);
        T_EQ_STR(s(json_array_get(a, 1), "kind"), "constraint");
        /* index options are registries; the userinfo is a credential by key */
        a = json_object_get(md, "registries");
        T_EQ_INT(json_array_size(a), 3);
        T_EQ_STR(s(json_array_get(a, 0), "url"), "https://pypi.corp.example/simple");
        T_EQ_STR(s(json_array_get(a, 1), "name"), "extra-index-url");
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 2);
        no_secret(md, "s3cr3t-index");
        no_secret(md, "tok3n");
        /* what could not be read is listed with its line */
        a = json_object_get(md, "not_extracted");
        T_EQ_INT(json_array_size(a), 2);
        T_EQ_INT(line(json_array_get(a, 0)), 21);
        T_EQ_STR(s(json_array_get(a, 1), "what"), "this is not a requirement");
        T_EQ_INT(line(json_array_get(a, 1)), 22);
        /* extras, markers and the editable flag */
        a = json_object_get(prc_md_details(md), "requirements");
        T_EQ_STR(json_string_value(json_array_get(json_object_get(json_array_get(a, 0), "extras"), 1)), "socks");
        T_ASSERT(json_is_true(json_object_get(json_array_get(a, 1), "editable")));
        json_decref(md);
}

static void test_extract_python__requirements_refusals(void)
{
        prc_err e;
        json_t *md = run_fixture("tools.in", "scripts/tools.in", &e);

        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_PYTHON_NOT_REQUIREMENTS);
        T_EQ_INT(e.line, 2);
        md = run_bytes("requirements.txt", "ok==1\nbad\0line\n", 15, &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_NUL_BYTE);
        md = run_text("requirements.txt", "ok==1\n\xff\xfe\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_INVALID_UTF8);
        T_EQ_INT(e.line, 2);
        /* an option pip does not know is not extracted, with its line; the file still counts */
        md = run_text("requirements.txt", "a\n--frobnicate x\nb --hash=sha256:00 --bogus\n", &e);
        T_NOERR(e);
        T_EQ_INT(ndeps(md), 1);
        T_EQ_INT(json_array_size(json_object_get(md, "not_extracted")), 2);
        json_decref(md);
        /* a logical line over the scalar limit (continuations included) is a named limit, with its line */
        {
                static char big[6000];
                prc_xin in = { "requirements.txt", (const uint8_t *)big, 0, &prc_limits_fuzz };

                memcpy(big, "a==1\nb \\\n", 9);
                memset(big + 9, 'x', 5000);
                in.n = 5009;
                prc_err_init(&e);
                T_ASSERT(prc_x_py_requirements(&in, &e) == NULL);
                T_ERR(e, PRC_E_EXTRACT_LIMIT);
                T_EQ_INT(e.line, 2);
        }
        /* an empty file (or comments only) declares nothing, truly */
        md = run_text("requirements.txt", "# nothing\n\n", &e);
        T_NOERR(e);
        T_EQ_INT(ndeps(md), 0);
        json_decref(md);
}

static void test_extract_python__constraints_role(void)
{
        prc_err e;
        json_t *md = run_fixture("constraints.txt", "constraints.txt", &e);

        T_NOERR(e);
        T_EQ_STR(s(prc_md_details(md), "role"), "constraints");
        T_EQ_INT(ndeps(md), 2);
        T_EQ_STR(s(dep(md, 0), "resolved"), "2.2.1");
        json_decref(md);
}

static void test_extract_python__pyproject_pep621_and_groups(void)
{
        prc_err e;
        json_t *md = run_fixture("pyproject.toml", "pyproject.toml", &e), *p, *d;
        unsigned ruff = 0, mypy = 0;

        T_NOERR(e);
        p = json_object_get(md, "package");
        T_EQ_STR(s(p, "name"), "Example_Project");
        T_EQ_STR(s(p, "purl"), "pkg:pypi/example-project@1.4.0");
        d = named(md, "setuptools");
        T_EQ_STR(s(d, "scope"), "build");
        T_EQ_INT(line(d), 2);
        d = named(md, "attrs");
        T_EQ_STR(s(d, "resolved"), "23.2.0");
        T_EQ_INT(line(d), 10);
        d = named(md, "rich");
        T_EQ_STR(s(d, "scope"), "optional");
        T_EQ_STR(s(d, "group"), "cli");
        /* include-group expands: Dev holds test's pytest and typing's mypy */
        for (size_t i = 0; i < ndeps(md); i++) {
                d = dep(md, i);
                if (strcmp(s(d, "name"), "mypy") == 0) {
                        mypy++;
                        T_EQ_STR(s(d, "scope"), "dev");
                        T_EQ_INT(line(d), 19);
                }
                ruff += strcmp(s(d, "name"), "ruff") == 0 && strcmp(s(d, "group"), "Dev") == 0;
        }
        T_EQ_INT(mypy, 3);      /* in test (via typing), typing, Dev (via test) */
        T_EQ_INT(ruff, 1);
        T_EQ_INT(json_array_size(json_object_get(md, "not_extracted")), 1);
        T_EQ_INT(line(json_array_get(json_object_get(md, "not_extracted"), 0)), 11);
        json_decref(md);
        md = run_fixture("pyproject-cycle.toml", "pyproject.toml", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_PYTHON_DEPENDENCY_GROUP);
        md = run_fixture("pyproject-missing-group.toml", "pyproject.toml", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_PYTHON_DEPENDENCY_GROUP);
        md = run_text("pyproject.toml", "[project]\nname = \"x\"\ndependencies = \"requests\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        md = run_text("pyproject.toml", "[project\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_TOML_SYNTAX);
}

static void test_extract_python__pyproject_poetry(void)
{
        prc_err e;
        json_t *md = run_fixture("pyproject-poetry.toml", "pyproject.toml", &e), *d;

        T_NOERR(e);
        T_EQ_STR(s(json_object_get(md, "package"), "name"), "poetry-demo");
        T_EQ_STR(s(prc_md_details(md), "python"), "^3.10");
        d = named(md, "requests");
        T_EQ_STR(s(d, "requirement"), "^2.31");
        T_ASSERT(json_is_null(json_object_get(d, "resolved")));
        T_EQ_STR(s(named(md, "pendulum"), "requirement"), "~2.1.2");
        T_EQ_STR(s(named(md, "exact"), "resolved"), "1.0.0");
        d = named(md, "mylib");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "ref"), "v1.2.0");
        T_EQ_STR(src(named(md, "locallib"), "type"), "path");
        T_EQ_STR(src(named(md, "wheelpkg"), "type"), "url");
        T_EQ_STR(src(named(md, "private"), "url"), "https://pypi.corp.example/simple/");
        T_EQ_STR(s(named(md, "opt"), "scope"), "optional");
        d = named(md, "pytest");
        T_EQ_STR(s(d, "scope"), "dev");
        T_EQ_STR(s(d, "group"), "test");
        T_EQ_STR(s(named(md, "black"), "scope"), "dev");
        T_EQ_INT(line(named(md, "tomli")), 15);
        /* python is the interpreter, not a dependency; multi gives one entry per constraint */
        T_EQ_INT(ndeps(md), 13);
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 1);
        no_secret(md, "hunter2");
        /* sources with their priority (no URL: the registry of the same name has it, without credentials) */
        d = json_array_get(json_object_get(prc_md_details(md), "poetry_sources"), 0);
        T_EQ_STR(s(d, "name"), "corp");
        T_EQ_STR(s(d, "priority"), "supplemental");
        T_EQ_INT(line(d), 5);
        T_ASSERT(json_object_get(d, "url") == NULL);
        json_decref(md);
        /* the flags Poetry 1.5 deprecated, and no priority at all (primary) */
        md = run_text("pyproject.toml",
                      "[[tool.poetry.source]]\nname = \"a\"\nurl = \"https://a.example/simple\"\nsecondary = true\n\n"
                      "[[tool.poetry.source]]\nname = \"b\"\nurl = \"https://b.example/simple\"\ndefault = true\n\n"
                      "[[tool.poetry.source]]\nname = \"c\"\nurl = \"https://c.example/simple\"\n",
                      &e);
        T_NOERR(e);
        d = json_object_get(prc_md_details(md), "poetry_sources");
        T_EQ_INT(json_array_size(d), 3);
        T_EQ_STR(s(json_array_get(d, 0), "priority"), "secondary");
        T_EQ_STR(s(json_array_get(d, 1), "priority"), "default");
        T_ASSERT(json_is_null(json_object_get(json_array_get(d, 2), "priority")));
        T_EQ_INT(line(json_array_get(d, 2)), 11);
        json_decref(md);
        /* Poetry's group "main" is the runtime dependencies, not a dev group */
        md = run_text("pyproject.toml", "[tool.poetry.group.main.dependencies]\nidna = \"^3\"\n", &e);
        T_NOERR(e);
        T_EQ_STR(s(dep(md, 0), "scope"), "runtime");
        T_ASSERT(json_is_null(json_object_get(dep(md, 0), "group")));
        json_decref(md);
}

static void test_extract_python__setup_cfg(void)
{
        prc_err e;
        json_t *md = run_fixture("setup.cfg", "setup.cfg", &e), *d;

        T_NOERR(e);
        T_EQ_STR(s(json_object_get(md, "package"), "purl"), "pkg:pypi/setup-demo@2.0.1");
        T_EQ_INT(ndeps(md), 6);
        T_EQ_INT(line(named(md, "packaging")), 9);
        T_EQ_STR(s(named(md, "setuptools_scm"), "scope"), "build");
        T_EQ_STR(s(named(md, "pytest"), "scope"), "test");
        d = named(md, "sphinx-rtd-theme");
        T_EQ_STR(s(d, "scope"), "optional");
        T_EQ_STR(s(d, "group"), "docs");
        T_EQ_INT(line(d), 16);
        json_decref(md);
        /* extras and markers go to details.requirements as in the other formats (CI's fuzz smoke found the
         * client refusing them: setup.cfg's details allowed no key) */
        md = run_text("setup.cfg", "[options]\ninstall_requires =\n    a[x]\n    b; python_version<'3.9'\n", &e);
        T_NOERR(e);
        T_EQ_INT(json_array_size(json_object_get(json_object_get(md, "details"), "requirements")), 2);
        json_decref(md);
        md = run_text("setup.cfg", "[options]\ninstall_requires = file: reqs.txt\n", &e);
        T_NOERR(e);
        T_EQ_INT(json_array_size(json_object_get(md, "not_extracted")), 1);
        json_decref(md);
        md = run_text("setup.cfg", "[options]\ninstall_requires = a\ninstall_requires = b\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_INI_DUPLICATE_OPTION);
}

static void test_extract_python__pipfile(void)
{
        prc_err e;
        json_t *md = run_fixture("Pipfile", "Pipfile", &e), *d;

        T_NOERR(e);
        T_EQ_INT(ndeps(md), 7);
        T_EQ_STR(s(named(md, "flask"), "resolved"), "3.0.2");
        T_EQ_STR(s(named(md, "requests"), "requirement"), "*");
        T_EQ_STR(src(named(md, "internal"), "url"), "https://nexus.example/repository/pypi/simple");
        d = named(md, "gitdep");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "ref"), "main");
        T_EQ_STR(s(named(md, "pytest"), "scope"), "dev");
        T_EQ_STR(s(named(md, "sphinx"), "group"), "docs");
        T_EQ_INT(json_array_size(json_object_get(md, "registries")), 2);
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 1);
        no_secret(md, "t0ken");
        T_EQ_STR(s(json_object_get(prc_md_details(md), "requires"), "python_version"), "3.12");
        json_decref(md);
        md = run_text("Pipfile", "[packages]\n\"bad name\" = \"*\"\nok = \"*\"\n", &e);
        T_NOERR(e);
        T_EQ_INT(ndeps(md), 1);
        T_EQ_INT(line(json_array_get(json_object_get(md, "not_extracted"), 0)), 2);
        json_decref(md);
}

static void test_extract_python__pipfile_lock(void)
{
        prc_err e;
        json_t *md = run_fixture("Pipfile.lock", "Pipfile.lock", &e), *d;

        T_NOERR(e);
        T_EQ_STR(s(md, "kind"), "lockfile");
        T_EQ_INT(ndeps(md), 4);
        d = named(md, "certifi");
        T_EQ_STR(s(d, "resolved"), "2024.2.2");
        T_ASSERT(!json_is_true(json_object_get(d, "direct")));
        T_EQ_INT(line(d), 12);
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc");
        T_EQ_STR(src(named(md, "internal"), "url"), "https://nexus.example/simple");
        T_EQ_STR(src(named(md, "gitdep"), "commit"), "89abcdef0123456789abcdef0123456789abcdef");
        T_EQ_STR(s(named(md, "pytest"), "scope"), "dev");
        no_secret(md, "t0ken");
        json_decref(md);
        md = run_fixture("Pipfile-spec7.lock", "Pipfile.lock", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 4);
        md = run_text("Pipfile.lock", "[]", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void check_poetry_1x(const char *fixture, const char *version)
{
        prc_err e;
        json_t *md = run_fixture(fixture, "poetry.lock", &e), *d;

        T_NOERR(e);
        T_EQ_STR(s(prc_md_details(md), "lock_version"), version);
        T_EQ_INT(ndeps(md), 3);
        d = named(md, "requests");
        T_EQ_STR(s(d, "purl"), "pkg:pypi/requests@2.31.0");
        T_EQ_INT(line(d), 4);
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
        T_EQ_STR(s(named(md, "pytest"), "scope"), "dev");
        T_ASSERT(json_is_null(json_object_get(named(md, "pytest"), "integrity")));
        T_EQ_STR(s(named(md, "certifi"), "scope"), "optional");
        T_EQ_STR(s(json_array_get(json_object_get(prc_md_details(md), "edges"), 0), "from"), "requests");
        T_EQ_STR(t_md_edges(md, named(md, "requests")), "certifi@2024.2.2");   /* details.edges resolved */
        T_EQ_STR(t_md_edges(md, named(md, "pytest")), "");
        json_decref(md);
}

static void test_extract_python__poetry_lock_every_version(void)
{
        prc_err e;
        json_t *md, *d;

        check_poetry_1x("poetry-1.0.lock", "1.0");
        check_poetry_1x("poetry-1.1.lock", "1.1");
        md = run_fixture("poetry-2.0.lock", "poetry.lock", &e);
        T_NOERR(e);
        T_EQ_INT(ndeps(md), 3);
        d = named(md, "mylib");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "ref"), "v1.2.0");
        T_EQ_STR(src(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_STR(s(named(md, "Typing_Extensions"), "purl"), "pkg:pypi/typing-extensions@4.10.0");
        T_EQ_STR(src(named(md, "private"), "url"), "https://pypi.corp.example/simple");
        T_EQ_INT(line(named(md, "private")), 29);
        json_decref(md);
        md = run_fixture("poetry-2.1.lock", "poetry.lock", &e);
        T_NOERR(e);
        d = named(md, "black");
        T_EQ_STR(s(d, "scope"), "dev");
        T_EQ_STR(s(d, "group"), "dev");
        d = named(md, "click");
        T_EQ_STR(s(d, "scope"), "runtime");
        T_EQ_STR(s(d, "group"), "main,dev");
        T_ASSERT(json_is_null(json_object_get(named(md, "localpkg"), "group")));
        T_EQ_STR(src(named(md, "localpkg"), "type"), "path");
        json_decref(md);
        md = run_fixture("poetry-3.0.lock", "poetry.lock", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 44);
        md = run_text("poetry.lock", "[[package]]\nname = \"a\"\nversion = \"1\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        md = run_text("poetry.lock", "[[package]]\nname = \"a\"\n[metadata]\nlock-version = \"2.0\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 2);
}

static void test_extract_python__uv_lock(void)
{
        prc_err e;
        json_t *md = run_fixture("uv.lock", "uv.lock", &e), *d;

        T_NOERR(e);
        T_EQ_INT(json_integer_value(json_object_get(prc_md_details(md), "revision")), 2);
        T_EQ_STR(s(json_object_get(md, "package"), "name"), "app");
        T_EQ_INT(ndeps(md), 7);
        d = named(md, "anyio");
        T_ASSERT(json_is_true(json_object_get(d, "direct")));
        T_EQ_INT(line(d), 6);
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "5555555555555555555555555555555555555555555555555555555555555555");
        d = named(md, "idna");
        T_ASSERT(json_is_false(json_object_get(d, "direct")));
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "7777777777777777777777777777777777777777777777777777777777777777");
        d = named(md, "corp-utils");
        T_EQ_STR(src(d, "type"), "registry");
        T_EQ_STR(src(d, "url"), "https://pypi.corp.example/simple");
        no_secret(md, "pa55");
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 1);
        d = named(md, "mylib");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "url"), "https://github.com/acme/mylib.git");
        T_EQ_STR(src(d, "ref"), "v1.2.0");
        T_EQ_STR(src(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        d = named(md, "member");
        T_EQ_STR(src(d, "type"), "workspace");
        T_EQ_STR(src(d, "url"), "packages/member");
        T_EQ_STR(src(named(md, "vendored"), "type"), "path");
        d = named(md, "pytest");
        T_EQ_STR(src(d, "type"), "url");
        T_EQ_STR(s(d, "scope"), "dev");
        T_ASSERT(json_is_true(json_object_get(d, "direct")));
        T_ASSERT(json_array_size(json_object_get(prc_md_details(md), "edges")) == 3);
        json_decref(md);
        /* CRLF line ends: the package's own line, not an earlier inline { name = "idna" } */
        md = run_text("uv.lock", "version = 1\r\n[[package]]\r\nname = \"a\"\r\nversion = \"1\"\r\n"
                      "source = { registry = \"https://pypi.org/simple\" }\r\n"
                      "dependencies = [{ name = \"idna\" }]\r\n\r\n[[package]]\r\nname = \"idna\"\r\n"
                      "version = \"3.6\"\r\nsource = { registry = \"https://pypi.org/simple\" }\r\n", &e);
        T_NOERR(e);
        T_EQ_INT(line(named(md, "idna")), 9);
        T_EQ_STR(t_md_edges(md, named(md, "a")), "idna@3.6");
        json_decref(md);
        /* a name the lock holds in two versions (a fork by marker) or not at all is not graphed */
        md = run_text("uv.lock", "version = 1\n[[package]]\nname = \"A.B\"\nversion = \"1\"\n"
                      "source = { registry = \"https://pypi.org/simple\" }\n"
                      "dependencies = [{ name = \"a-b\" }, { name = \"c\" }, { name = \"d_e\" }, { name = \"x\" }]\n\n"
                      "[[package]]\nname = \"c\"\nversion = \"1\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n"
                      "[[package]]\nname = \"c\"\nversion = \"2\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n"
                      "[[package]]\nname = \"D.e\"\nversion = \"3\"\nsource = { registry = \"https://pypi.org/simple\" }\n",
                      &e);
        T_NOERR(e);
        T_EQ_STR(t_md_edges(md, named(md, "A.B")), "D.e@3");
        json_decref(md);
        md = run_fixture("uv-v2.lock", "uv.lock", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 1);
        md = run_text("uv.lock", "version = 1\n[[package]]\nname = \"a\"\nversion = \"1\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        md = run_text("uv.lock", "version = 1\n[[package]]\nname = \"a b\"\nsource = { virtual = \"x\" }\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 3);
        md = run_text("uv.lock", "version = 1\npackage = 3\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void test_extract_python__pdm_lock_every_version(void)
{
        prc_err e;
        json_t *md = run_fixture("pdm.lock", "pdm.lock", &e), *d;

        T_NOERR(e);
        T_EQ_INT(ndeps(md), 3);
        d = named(md, "pytest");
        T_EQ_STR(s(d, "scope"), "dev");
        T_EQ_STR(s(d, "group"), "test");
        T_EQ_INT(line(d), 21);
        d = named(md, "mylib");
        T_EQ_STR(src(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        T_EQ_STR(src(d, "ref"), "v1.2.0");
        json_decref(md);
        md = run_fixture("pdm-4.0.lock", "pdm.lock", &e);
        T_NOERR(e);
        T_EQ_STR(s(json_object_get(dep(md, 0), "integrity"), "value"),
                 "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd");
        json_decref(md);
        md = run_text("pdm.lock", "[metadata]\nlock_version = \"4.5.0\"\n", &e);
        T_NOERR(e);
        json_decref(md);
        md = run_fixture("pdm-5.0.lock", "pdm.lock", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        T_EQ_INT(e.line, 7);
        md = run_text("pdm.lock", "[metadata]\nlock_version = \"4.6\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        /* groups that are not a list of strings: refused at the package (fuzz_extract_python found a table there) */
        md = run_text("pdm.lock", "[metadata]\nlock_version = \"4.4\"\n\n[[package]]\nname = \"a\"\n"
                      "version = \"1\"\ngroups = [\"default\", {file = \"x\"}]\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
        T_EQ_INT(e.line, 5);    /* the package's name, as its dependency rows are placed */
        md = run_text("pdm.lock", "[metadata]\nlock_version = \"4.4\"\n\n[[package]]\nname = \"a\"\n"
                      "version = \"1\"\ngroups = \"default\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void test_extract_python__pylock(void)
{
        prc_err e;
        json_t *md = run_fixture("pylock.toml", "pylock.toml", &e), *d;

        T_NOERR(e);
        T_EQ_INT(ndeps(md), 4);
        d = named(md, "attrs");
        T_EQ_STR(s(d, "resolved"), "23.2.0");
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "1212121212121212121212121212121212121212121212121212121212121212");
        T_ASSERT(json_is_null(json_object_get(json_object_get(d, "source"), "url")));
        d = named(md, "mylib");
        T_EQ_STR(src(d, "type"), "git");
        T_EQ_STR(src(d, "commit"), "0123456789abcdef0123456789abcdef01234567");
        d = named(md, "localpkg");
        T_EQ_STR(src(d, "type"), "path");
        T_ASSERT(json_is_null(json_object_get(d, "resolved")));
        d = named(md, "corp");
        T_EQ_STR(src(d, "url"), "https://pypi.corp.example/simple");
        T_EQ_STR(s(json_object_get(d, "integrity"), "value"),
                 "3434343434343434343434343434343434343434343434343434343434343434");
        T_EQ_INT(line(d), 26);
        json_decref(md);
        md = run_fixture("pylock-2.0.toml", "pylock.toml", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_VERSION);
        md = run_text("pylock.toml", "lock-version = \"1.0\"\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_EXTRACT_SHAPE);
}

static void test_extract_python__pip_conf(void)
{
        prc_err e;
        json_t *md = run_fixture("pip.conf", "pip.conf", &e), *a;

        T_NOERR(e);
        T_EQ_STR(s(md, "kind"), "registry-config");
        a = json_object_get(md, "registries");
        T_EQ_INT(json_array_size(a), 4);
        T_EQ_STR(s(json_array_get(a, 0), "url"), "https://pypi.corp.example/simple");
        T_EQ_STR(s(json_array_get(a, 0), "scope"), "global");
        T_EQ_INT(line(json_array_get(a, 0)), 2);
        T_EQ_STR(s(json_array_get(a, 2), "url"), "https://second.example/simple");
        T_EQ_STR(s(json_array_get(a, 3), "scope"), "install");
        T_EQ_INT(json_array_size(json_object_get(md, "credentials")), 1);
        T_EQ_INT(line(json_array_get(json_object_get(md, "credentials"), 0)), 2);
        no_secret(md, "pa55w0rd");
        no_secret(md, "builder");
        json_decref(md);
        /* index-url's line is its own, not that of an extra-index-url above it */
        md = run_text("pip.conf", "[global]\nextra-index-url = https://a.example/\nindex-url = https://b.example/\n",
                      &e);
        T_NOERR(e);
        T_EQ_INT(line(json_array_get(json_object_get(md, "registries"), 1)), 3);
        json_decref(md);
        md = run_text("pip.conf", "index-url = https://x/\n", &e);
        T_ASSERT(md == NULL);
        T_ERR(e, PRC_E_INI_MISSING_SECTION);
        T_EQ_INT(e.line, 1);
}

/* A --hash without NAME: or with no value is refused (pip refuses it too), never a document the client rejects. */
static void test_extract_python__requirements_hash_without_a_name_is_refused(void)
{
        static const char *const bad[] = { "a==1 --hash=aaaaaaaa\n", "a==1 --hash=sha256:\n" };
        prc_err e;

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                json_t *md = run_text("requirements.txt", bad[i], &e);
                if (md != NULL)
                        t_fail(__FILE__, __LINE__, "%s: extracted", bad[i]);
                T_ERR(e, PRC_E_EXTRACT_SHAPE);
                T_EQ_INT(e.line, 1);
        }
}

/* An empty requirement is skipped with a note that names something (the client refuses an empty what). */
static void test_extract_python__requirements_empty_option_value_is_noted(void)
{
        prc_err e, ce;
        json_t *md = run_text("requirements.txt", "-e= \"linux\"\nrequests==2.31.0\n", &e);

        T_NOERR(e);
        prc_err_init(&ce);
        if (!prc_mdoc_check(md, "requirements.txt", NULL, &ce))
                t_fail(__FILE__, __LINE__, "shape check: %s at %s", ce.msg, ce.ptr);
        json_decref(md);
        /* the fuzzer's third find: the same in pyproject.toml (the fix is in prc_md_not_extracted) */
        md = run_text("pyproject.toml", "[build-system]\nrequires = [\"\"]\n", &e);
        T_NOERR(e);
        prc_err_init(&ce);
        if (!prc_mdoc_check(md, "pyproject.toml", NULL, &ce))
                t_fail(__FILE__, __LINE__, "shape check: %s at %s", ce.msg, ce.ptr);
        json_decref(md);
}

/*
 * "-r=" and "-c=" name no file: the line is noted as not extracted (pip cannot open ""), never an
 * include with an empty path, which the client refuses (the extract_python harness, session 10).
 */
static void test_extract_python__requirements_empty_include_is_noted(void)
{
        static const char *const texts[] = { "requests\n-r=\n", "-c= \"3.8\"  # HTTP\nrequests\n",
                                             "--requirement=\nrequests\n", "--constraint= \nrequests\n" };
        /* the second line goes on after the option, as any option line does: "3.8" is an unknown option */
        static const size_t skipped[] = { 1, 2, 1, 1 };

        for (size_t i = 0; i < PRC_ARRAY_LEN(texts); i++) {
                prc_err e, ce;
                json_t *md = run_text("requirements.txt", texts[i], &e);

                T_NOERR(e);
                prc_err_init(&ce);
                if (!prc_mdoc_check(md, "requirements.txt", NULL, &ce))
                        t_fail(__FILE__, __LINE__, "case %zu: shape check: %s at %s", i, ce.msg, ce.ptr);
                T_ASSERT(json_array_size(json_object_get(json_object_get(md, "details"), "includes")) == 0);
                T_ASSERT(json_array_size(json_object_get(md, "not_extracted")) == skipped[i]);
                json_decref(md);
        }
}

static const prc_test tests[] = {
        T(test_extract_python__requirements_empty_include_is_noted),
        T(test_extract_python__requirements_empty_option_value_is_noted),
        T(test_extract_python__requirements_hash_without_a_name_is_refused),
        T(test_extract_python__pep508_reader),
        T(test_extract_python__names_and_purls),
        T(test_extract_python__matching_names),
        T(test_extract_python__lockfile_version_refusals_say_what_prc_reads),
        T(test_extract_python__requirements_every_form),
        T(test_extract_python__requirements_refusals),
        T(test_extract_python__constraints_role),
        T(test_extract_python__pyproject_pep621_and_groups),
        T(test_extract_python__pyproject_poetry),
        T(test_extract_python__setup_cfg),
        T(test_extract_python__pipfile),
        T(test_extract_python__pipfile_lock),
        T(test_extract_python__poetry_lock_every_version),
        T(test_extract_python__uv_lock),
        T(test_extract_python__pdm_lock_every_version),
        T(test_extract_python__pylock),
        T(test_extract_python__pip_conf),
};
PRC_SUITE(extract_python, tests)
