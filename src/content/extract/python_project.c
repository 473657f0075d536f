/*
 * python_project.c - pyproject.toml (PEP 621, PEP 735, Poetry, PDM and uv
 * tables, build-system) and Pipfile (docs/extraction/python.md).
 */
#include "content/extract/python.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "content/parsers/toml.h"

/* Line of text at or after from (fallback from itself). */
static uint32_t line_of(const prc_xin *in, const char *text, uint32_t from)
{
        uint32_t l = prc_x_find_line(in, text, from > 0 ? from : 1);

        return l > 0 ? l : from;
}

/* Line of a table header such as "[tool.poetry.dependencies]", else of the key's first mention. */
static uint32_t header_line(const prc_xin *in, const char *hdr, const char *key)
{
        uint32_t l = prc_x_find_line(in, hdr, 1);

        return l > 0 ? l : key != NULL ? prc_x_find_line(in, key, 1) : 0;
}

/* An array of PEP 508 strings. */
static bool pep508_list(json_t *md, const prc_xin *in, const json_t *a, const char *what, const char *scope,
                        const char *group, uint32_t from, prc_err *err)
{
        size_t i;
        json_t *v;

        if (!py_want(a, JSON_ARRAY, what, err))
                return false;
        json_array_foreach(a, i, v) {
                const char *s = json_string_value(v);

                if (s == NULL) {
                        if (!prc_md_not_extracted(md, what, "an entry that is not a string", from, err))
                                return false;
                        continue;
                }
                if (!py_add_pep508(md, s, scope, group, line_of(in, s, from), err))
                        return false;
        }
        return true;
}

/* Does a Poetry or Pipfile version string pin one version ("1.2.3", "==1.2.3")? */
static const char *exact(const char *v)
{
        if (v == NULL)
                return NULL;
        if (strncmp(v, "==", 2) == 0)
                v += 2;
        if (*v < '0' || *v > '9')
                return NULL;
        for (const char *p = v; *p != '\0'; p++)
                if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                      *p == '.' || *p == '+' || *p == '!' || *p == '-' || *p == '_'))
                        return NULL;
        return v;
}

/* The URL a named source has in [[tool.poetry.source]] or [[source]], or NULL. */
static const char *source_url(const json_t *sources, const char *name)
{
        size_t i;
        json_t *s;

        json_array_foreach(sources, i, s) {
                const char *n = py_str(s, "name");

                if (n != NULL && name != NULL && strcmp(n, name) == 0)
                        return py_str(s, "url");
        }
        return NULL;
}

/* extras and markers of a table dependency into details.requirements (shared with PEP 508 entries). */
static bool table_details(json_t *md, const json_t *t, bool editable, prc_err *err)
{
        json_t *ex = PRC_JGET(t, "extras"), *list, *o;
        const char *marker = py_str(t, "markers");
        size_t idx = json_array_size(PRC_JGET(md, "dependencies")) - 1;

        if (!json_is_array(ex))
                ex = NULL;
        if (ex == NULL && marker == NULL && !editable)
                return true;
        if ((list = py_det_array(md, "requirements", err)) == NULL)
                return false;
        if ((o = json_object()) == NULL || json_array_append_new(list, o) != 0)
                return py_oom(err);
        if (json_object_set_new(o, "dependency", json_integer((json_int_t)idx)) != 0 ||
            json_object_set_new(o, "editable", json_boolean(editable)) != 0 ||
            json_object_set_new(o, "extras", ex != NULL ? json_deep_copy(ex) : json_null()) != 0)
                return py_oom(err);
        return prc_md_set_str(o, "marker", marker, err);
}

/*
 * One Poetry or Pipfile dependency: a version string, or a table with
 * version, git (+ branch, tag, rev, ref), path, url, file, extras, markers,
 * optional, editable, source/index.
 */
static bool table_dep(json_t *md, const char *name, const json_t *v, const char *scope, const char *group,
                      const json_t *sources, uint32_t line, prc_err *err)
{
        const char *ver, *git, *path, *url, *ref, *src;
        json_t *d;
        bool editable;

        if (!py_name_valid(name, strlen(name)))
                return prc_md_not_extracted(md, name, "a dependency name that PEP 508 does not allow", line, err);
        if (json_is_string(v)) {
                ver = json_string_value(v);
                return py_dep(md, name, ver, exact(ver), scope, true, group, line, err) != NULL;
        }
        if (!json_is_object(v))
                return prc_md_not_extracted(md, name, "a dependency that is neither a version string nor a table",
                                            line, err);
        ver = py_str(v, "version");
        if (json_is_true(PRC_JGET(v, "optional")) && strcmp(scope, "runtime") == 0)
                scope = "optional";
        d = py_dep(md, name, ver, exact(ver), scope, true, group, line, err);
        if (d == NULL)
                return false;
        git = py_str(v, "git");
        path = py_str(v, "path");
        url = py_str(v, "url");
        if (url == NULL)
                url = py_str(v, "file");
        ref = py_str(v, "rev");
        if (ref == NULL)
                ref = py_str(v, "ref");
        if (ref == NULL)
                ref = py_str(v, "tag");
        if (ref == NULL)
                ref = py_str(v, "branch");
        src = py_str(v, "source");
        if (src == NULL)
                src = py_str(v, "index");
        editable = json_is_true(PRC_JGET(v, "editable")) || json_is_true(PRC_JGET(v, "develop"));
        if (git != NULL) {
                bool hex = ref != NULL && strlen(ref) == 40 && strspn(ref, "0123456789abcdef") == 40;

                if (!py_source(md, d, "git", git, ref, hex ? ref : NULL, line, err))
                        return false;
        } else if (path != NULL) {
                if (!prc_md_set_source(d, "path", path, NULL, NULL, err))
                        return false;
        } else if (url != NULL) {
                if (!py_set_url_source(md, d, url, line, err))
                        return false;
        } else if (src != NULL) {
                const char *su = source_url(sources, src);

                /* the source's credential is reported with the source itself (registries) */
                if (su != NULL && !prc_md_set_source(d, "registry", su, NULL, NULL, err))
                        return false;
        }
        return table_details(md, v, editable, err);
}

/* A table of name = spec (Poetry, Pipfile); an array of tables adds one dependency per constraint. */
static bool dep_table(json_t *md, const prc_xin *in, const json_t *t, const char *what, const char *scope,
                      const char *group, const json_t *sources, uint32_t from, bool skip_python, prc_err *err)
{
        const char *name;
        json_t *v;

        if (!py_want(t, JSON_OBJECT, what, err))
                return false;
        json_object_foreach((json_t *)t, name, v) {
                uint32_t l = line_of(in, name, from);

                if (skip_python && strcmp(name, "python") == 0)
                        continue;
                if (json_is_array(v)) {
                        size_t i;
                        json_t *e;

                        json_array_foreach(v, i, e) if (!table_dep(md, name, e, scope, group, sources, l, err))
                                return false;
                        continue;
                }
                if (!table_dep(md, name, v, scope, group, sources, l, err))
                        return false;
        }
        return true;
}

/* PEP 735: [dependency-groups] with {include-group = "..."} entries, expanded as the PEP says. */
static bool group_norm_eq(const char *a, const char *b)
{
        char *x = py_norm(a), *y = py_norm(b);
        bool eq = x != NULL && y != NULL && strcmp(x, y) == 0;

        free(x);
        free(y);
        return eq;
}

static const json_t *find_group(const json_t *groups, const char *name, const char **key)
{
        const char *k;
        json_t *v;

        json_object_foreach((json_t *)groups, k, v) if (group_norm_eq(k, name)) {
                *key = k;
                return v;
        }
        return NULL;
}

static bool dep_group(json_t *md, const prc_xin *in, const json_t *groups, const char *label, const char *key,
                      const json_t *list, unsigned depth, const char **stack, prc_err *err)
{
        uint32_t from = line_of(in, key, header_line(in, "[dependency-groups]", "dependency-groups"));
        size_t i;
        json_t *v;

        if (!py_want(list, JSON_ARRAY, "a dependency group", err))
                return false;
        for (unsigned k = 0; k < depth; k++)
                if (group_norm_eq(stack[k], key)) {
                        prc_err_set(err, PRC_E_PYTHON_DEPENDENCY_GROUP, "dependency group \"%s\" includes itself",
                                    key);
                        prc_err_set_line(err, from, 0);
                        return false;
                }
        if (depth >= 32) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "dependency groups include each other more than 32 deep");
                return false;
        }
        stack[depth] = key;
        json_array_foreach(list, i, v) {
                const char *inc, *ikey = NULL;
                const json_t *ig;

                if (json_is_string(v)) {
                        const char *s = json_string_value(v);

                        if (!py_add_pep508(md, s, "dev", label, line_of(in, s, from), err))
                                return false;
                        continue;
                }
                if (!json_is_object(v) || (inc = py_str(v, "include-group")) == NULL || json_object_size(v) != 1) {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "dependency group \"%s\" holds an entry that is "
                                    "neither a requirement nor an include-group table", key);
                        prc_err_set_line(err, from, 0);
                        return false;
                }
                if ((ig = find_group(groups, inc, &ikey)) == NULL) {
                        prc_err_set(err, PRC_E_PYTHON_DEPENDENCY_GROUP, "dependency group \"%s\" includes "
                                    "\"%s\", which does not exist", key, inc);
                        prc_err_set_line(err, line_of(in, inc, from), 0);
                        return false;
                }
                if (!dep_group(md, in, groups, label, ikey, ig, depth + 1, stack, err))
                        return false;
        }
        return true;
}

static bool registries(json_t *md, const prc_xin *in, const json_t *a, const char *hdr, prc_err *err)
{
        size_t i;
        json_t *s;
        uint32_t from = prc_x_find_line(in, hdr, 1);

        if (a == NULL)
                return true;
        if (!py_want(a, JSON_ARRAY, hdr, err))
                return false;
        json_array_foreach(a, i, s) {
                const char *url = py_str(s, "url"), *name = py_str(s, "name");
                uint32_t l = url != NULL ? line_of(in, url, from) : from;

                if (url != NULL && !py_registry(md, name, NULL, url, l, err))
                        return false;
                from = l;
        }
        return true;
}

/*
 * [[tool.poetry.source]] with its priority, which decides whether Poetry also
 * searches it for packages that do not name it: details.poetry_sources
 * [{"name", "priority", "line"}] (line: its header's; the URL, without its credentials, is the
 * registry of the same name).  priority is the key as written,
 * else "default" / "secondary" for the flags Poetry 1.5 deprecated, else null
 * (Poetry's default: primary).
 */
static bool poetry_sources(json_t *md, const prc_xin *in, const json_t *a, prc_err *err)
{
        json_t *out, *s;
        size_t i;
        uint32_t next = 1;

        if (a == NULL)
                return true;
        out = json_array();
        if (out == NULL || json_object_set_new(prc_md_details(md), "poetry_sources", out) != 0)
                return py_oom(err);
        json_array_foreach(a, i, s) {
                const char *name = py_str(s, "name"), *pri = py_str(s, "priority");
                /* the line of its own [[tool.poetry.source]] header (null for an inline array) */
                uint32_t l = prc_x_find_line(in, "[[tool.poetry.source]]", next);

                if (i >= PRC_MD_LIST_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u [[tool.poetry.source]] entries",
                                           PRC_MD_LIST_MAX);
                if ((name != NULL && strlen(name) > PRC_MD_STR_MAX) || (pri != NULL && strlen(pri) > PRC_MD_STR_MAX))
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT,
                                           "a [[tool.poetry.source]] name or priority over %u bytes", PRC_MD_STR_MAX);
                if (pri == NULL && json_is_true(PRC_JGET(s, "default")))
                        pri = "default";
                if (pri == NULL && json_is_true(PRC_JGET(s, "secondary")))
                        pri = "secondary";
                if (json_array_append_new(out, json_pack("{s:s?,s:s?,s:o}", "name", name, "priority", pri,
                                                         "line", l > 0 ? json_integer(l) : json_null())) != 0)
                        return py_oom(err);
                next = l > 0 ? l + 1 : next;
        }
        return true;
}

static bool set_package(json_t *md, const prc_xin *in, const char *name, const json_t *ver, const char *hdr,
                        prc_err *err)
{
        const char *version = json_string_value(ver);
        char *purl = py_purl(name, version);
        bool ok;

        if (purl == NULL)
                return py_oom(err);
        ok = prc_md_set_package(md, name, version, purl, line_of(in, "name", header_line(in, hdr, NULL)), err);
        free(purl);
        return ok;
}

static bool poetry(json_t *md, const prc_xin *in, const json_t *po, bool have_pkg, prc_err *err)
{
        const json_t *sources = PRC_JGET(po, "source"), *v, *groups;
        const char *g;

        if (!have_pkg && py_str(po, "name") != NULL &&
            !set_package(md, in, py_str(po, "name"), PRC_JGET(po, "version"), "[tool.poetry]", err))
                return false;
        if (!registries(md, in, sources, "[[tool.poetry.source]]", err) || !poetry_sources(md, in, sources, err))
                return false;
        if ((v = PRC_JGET(po, "dependencies")) != NULL) {
                const char *py = py_str(v, "python");

                if (py != NULL && !prc_md_set_str(prc_md_details(md), "python", py, err))
                        return false;
                if (!dep_table(md, in, v, "tool.poetry.dependencies", "runtime", NULL, sources,
                               header_line(in, "[tool.poetry.dependencies]", "dependencies"), true, err))
                        return false;
        }
        if ((v = PRC_JGET(po, "dev-dependencies")) != NULL &&
            !dep_table(md, in, v, "tool.poetry.dev-dependencies", "dev", NULL, sources,
                       header_line(in, "[tool.poetry.dev-dependencies]", "dev-dependencies"), true, err))
                return false;
        groups = PRC_JGET(po, "group");
        if (groups != NULL && !py_want(groups, JSON_OBJECT, "tool.poetry.group", err))
                return false;
        json_object_foreach((json_t *)groups, g, v) {
                char hdr[200];
                const json_t *deps = PRC_JGET(v, "dependencies");

                if (deps == NULL)
                        continue;
                snprintf(hdr, sizeof(hdr), "[tool.poetry.group.%s.dependencies]", g);
                /* Poetry's "main" group is [tool.poetry.dependencies] itself */
                bool main = strcmp(g, "main") == 0;

                if (!dep_table(md, in, deps, "tool.poetry.group dependencies", main ? "runtime" : "dev",
                               main ? NULL : g, sources, header_line(in, hdr, g), true, err))
                        return false;
        }
        if ((v = PRC_JGET(po, "extras")) != NULL &&
            json_object_set(prc_md_details(md), "poetry_extras", (json_t *)v) != 0)
                return py_oom(err);
        return true;
}

json_t *prc_x_py_pyproject(const prc_xin *in, prc_err *err)
{
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md;
        const json_t *project, *v, *tool, *groups;
        const char *k;
        bool have_pkg = false;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        md = prc_md_new(in, "pypi-pyproject", "pypi", "manifest", err);
        if (md == NULL)
                goto fail;
        project = PRC_JGET(doc, "project");
        if (project != NULL) {
                uint32_t pl = header_line(in, "[project]", NULL);

                if (!py_want(project, JSON_OBJECT, "project", err))
                        goto fail;
                if (py_str(project, "name") != NULL) {
                        if (!set_package(md, in, py_str(project, "name"), PRC_JGET(project, "version"),
                                         "[project]", err))
                                goto fail;
                        have_pkg = true;
                }
                if ((v = PRC_JGET(project, "dependencies")) != NULL &&
                    !pep508_list(md, in, v, "project.dependencies", "runtime", NULL, line_of(in, "dependencies", pl),
                                 err))
                        goto fail;
                if ((v = PRC_JGET(project, "optional-dependencies")) != NULL) {
                        uint32_t ol = header_line(in, "[project.optional-dependencies]", "optional-dependencies");
                        const json_t *e;

                        if (!py_want(v, JSON_OBJECT, "project.optional-dependencies", err))
                                goto fail;
                        json_object_foreach((json_t *)v, k, e) if (!pep508_list(md, in, e,
                                        "project.optional-dependencies", "optional", k, line_of(in, k, ol), err))
                                goto fail;
                }
        }
        if ((v = PRC_JGET(doc, "build-system")) != NULL) {
                if (!py_want(v, JSON_OBJECT, "build-system", err))
                        goto fail;
                if ((v = PRC_JGET(v, "requires")) != NULL &&
                    !pep508_list(md, in, v, "build-system.requires", "build", NULL,
                                 header_line(in, "[build-system]", "requires"), err))
                        goto fail;
                if (json_is_string(PRC_JGET(PRC_JGET(doc, "build-system"), "build-backend")) &&
                    !prc_md_set_str(prc_md_details(md), "build_backend",
                                    py_str(PRC_JGET(doc, "build-system"), "build-backend"), err))
                        goto fail;
        }
        if ((groups = PRC_JGET(doc, "dependency-groups")) != NULL) {
                const char *stack[32];

                if (!py_want(groups, JSON_OBJECT, "dependency-groups", err))
                        goto fail;
                json_object_foreach((json_t *)groups, k, v) if (!dep_group(md, in, groups, k, k, v, 0, stack, err))
                        goto fail;
        }
        tool = PRC_JGET(doc, "tool");
        if (json_is_object(PRC_JGET(tool, "poetry")) &&
            !poetry(md, in, PRC_JGET(tool, "poetry"), have_pkg, err))
                goto fail;
        /* PDM's and uv's own development dependency lists (before PEP 735) */
        v = PRC_JGET(PRC_JGET(tool, "pdm"), "dev-dependencies");
        if (v != NULL) {
                const json_t *e;
                uint32_t dl = header_line(in, "[tool.pdm.dev-dependencies]", "dev-dependencies");

                if (!py_want(v, JSON_OBJECT, "tool.pdm.dev-dependencies", err))
                        goto fail;
                json_object_foreach((json_t *)v, k, e) if (!pep508_list(md, in, e, "tool.pdm.dev-dependencies",
                                                                        "dev", k, line_of(in, k, dl), err))
                        goto fail;
        }
        v = PRC_JGET(PRC_JGET(tool, "uv"), "dev-dependencies");
        if (v != NULL && !pep508_list(md, in, v, "tool.uv.dev-dependencies", "dev", NULL,
                                      header_line(in, "[tool.uv]", "dev-dependencies"), err))
                goto fail;
        v = PRC_JGET(PRC_JGET(tool, "uv"), "index");
        if (v != NULL && !registries(md, in, v, "[[tool.uv.index]]", err))
                goto fail;
        v = PRC_JGET(PRC_JGET(tool, "uv"), "sources");
        if (v != NULL && !prc_md_not_extracted(md, "tool.uv.sources", "uv's per-dependency source overrides are "
                                               "not applied to the dependencies above",
                                               header_line(in, "[tool.uv.sources]", "sources"), err))
                goto fail;
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}

/* Pipfile: [[source]], [packages], [dev-packages], custom categories, [requires]. */
json_t *prc_x_py_pipfile(const prc_xin *in, prc_err *err)
{
        static const char *const not_deps[] = { "source", "requires", "pipenv", "scripts" };
        json_t *doc = prc_toml_parse(in->p, in->n, in->lim, 0, err), *md;
        const json_t *sources, *v;
        const char *k;

        if (doc == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        md = prc_md_new(in, "pypi-pipfile", "pypi", "manifest", err);
        if (md == NULL)
                goto fail;
        sources = PRC_JGET(doc, "source");
        if (!registries(md, in, sources, "[[source]]", err))
                goto fail;
        json_object_foreach(doc, k, v) {
                char hdr[200];
                bool dep = true;

                for (size_t i = 0; i < PRC_ARRAY_LEN(not_deps); i++)
                        dep = dep && strcmp(k, not_deps[i]) != 0;
                if (!dep)
                        continue;
                snprintf(hdr, sizeof(hdr), "[%s]", k);
                if (!dep_table(md, in, v, k, strcmp(k, "dev-packages") == 0 ? "dev" : "runtime",
                               strcmp(k, "packages") == 0 || strcmp(k, "dev-packages") == 0 ? NULL : k, sources,
                               header_line(in, hdr, k), false, err))
                        goto fail;
        }
        if ((v = PRC_JGET(doc, "requires")) != NULL &&
            json_object_set(prc_md_details(md), "requires", (json_t *)v) != 0) {
                py_oom(err);
                goto fail;
        }
        if ((v = PRC_JGET(doc, "scripts")) != NULL &&
            json_object_set(prc_md_details(md), "scripts", (json_t *)v) != 0) {
                py_oom(err);
                goto fail;
        }
        json_decref(doc);
        return md;
fail:
        json_decref(doc);
        json_decref(md);
        return NULL;
}
