/*
 * nuget.c - the .NET family (ecosystem "nuget"): SDK project files
 * (*.csproj, *.fsproj, *.vbproj, Directory.Build.props/.targets),
 * Directory.Packages.props (central package management), packages.config,
 * packages.lock.json (versions 1 and 2) and NuGet.config.
 * Trust: runs in the content worker on hostile bytes, through prc_xml_parse
 * and prc_json_parse with in->lim.  MSBuild is never run: a $(Property) is
 * resolved only from unconditional <PropertyGroup>s of the same file, and
 * whatever else a build would bring in (imports, SDK defaults, central
 * versions) stays unresolved and is listed in not_extracted.  Credentials
 * in NuGet.config are recorded by key, never by value.
 */
#include "content/extract/mng.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json_strict.h"

#define FMT_PROJECT "nuget-msbuild-project"
#define FMT_CENTRAL "nuget-central-packages"
#define FMT_PKGCFG  "nuget-packages-config"
#define FMT_LOCK    "nuget-packages-lock"
#define FMT_CONFIG  "nuget-config"

static bool ends_with_i(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static bool at_line(prc_err *err, uint32_t line)
{
        prc_err_set_line(err, line, 0);
        return false;
}
#define shape(err, line, ...) (prc_err_set((err), PRC_E_EXTRACT_SHAPE, __VA_ARGS__) || at_line((err), (line)))

/*
 * The exact version a NuGet version string pins, or NULL: "1.2.3" (NuGet
 * restores the lowest version that satisfies ">= 1.2.3", which is 1.2.3
 * itself whenever it is published) and "[1.2.3]"; not a range, a floating
 * version ("1.*") or anything with a property left in it.
 */
static const char *exact_version(json_t *scratch, const char *v, prc_err *err)
{
        size_t n;

        if (v == NULL || *v == '\0' || strchr(v, '*') != NULL || strchr(v, '$') != NULL || strchr(v, ',') != NULL)
                return NULL;
        n = strlen(v);
        if (v[0] == '[' && v[n - 1] == ']' && n > 2)
                return prc_mx_keep(scratch, v + 1, n - 2, err);
        if (strchr("[(", v[0]) != NULL || strchr(")]", v[n - 1]) != NULL)
                return NULL;
        for (size_t i = 0; i < n; i++)
                if (isspace((unsigned char)v[i]))
                        return NULL;
        return v;
}

static bool set_purl(json_t *d, const char *name, const char *version, prc_err *err)
{
        return prc_md_take_purl(d, prc_purl("nuget", NULL, name, version, NULL, NULL), err);
}

/* ---- MSBuild project files ---------------------------------------------- */

typedef struct proj {
        const prc_xin *in;
        json_t        *md;
        json_t        *scratch;         /* owned */
        json_t        *props;           /* owned: lower-cased name -> value (unconditional definitions) */
        prc_err       *err;
        prc_mx_loc     loc;
} proj;

static const char *msbuild_prop(void *ctx, char *name)
{
        const proj *st = ctx;

        /* $([System.IO.Path]::...) is a property function: never evaluated. */
        if (name[0] == '[')
                return NULL;
        for (char *c = name; *c != '\0'; c++)
                *c = (char)tolower((unsigned char)*c);
        return json_string_value(json_object_get(st->props, name));
}

static bool interpolate(proj *st, const char *raw, const char **out, const char **unres)
{
        return prc_mx_interpolate(raw, "$(", ')', msbuild_prop, st, st->scratch, out, unres, st->err);
}

/* Unconditional <PropertyGroup> children, in file order (a later definition wins, as in MSBuild). */
static bool collect_props(proj *st, const json_t *root)
{
        for (size_t i = 0; i < prc_mx_nkids(root); i++) {
                const json_t *g = prc_mx_kid(root, i);

                if (!json_is_object(g) || strcmp(prc_mx_local(g), "PropertyGroup") != 0 ||
                    prc_mx_attr(g, "Condition") != NULL)
                        continue;
                for (size_t j = 0; j < prc_mx_nkids(g); j++) {
                        const json_t *p = prc_mx_kid(g, j);
                        char key[256];
                        const char *n = prc_mx_local(p), *v;
                        size_t len = strlen(n);

                        if (!json_is_object(p) || prc_mx_attr(p, "Condition") != NULL || len >= sizeof(key))
                                continue;
                        if (!prc_mx_only_text(p))
                                continue;       /* a property holding XML is not a version */
                        if (!prc_mx_text(p, st->scratch, &v, st->err))
                                return false;
                        for (size_t k = 0; k <= len; k++)
                                key[k] = (char)tolower((unsigned char)n[k]);
                        if (json_object_set_new(st->props, key, json_string(v)) != 0)
                                return prc_err_oom(st->err, "properties");
                }
        }
        return true;
}

/* An attribute, or else a child element of the same name (<Version>1.0</Version>). */
static bool meta(proj *st, const json_t *el, const char *name, const char **out)
{
        *out = prc_mx_attr(el, name);
        if (*out != NULL)
                return true;
        return prc_mx_child_text(el, name, st->scratch, out, st->err);
}

static uint32_t locate_attr(proj *st, const char *attr, const char *val)
{
        const char *n;
        uint32_t line;

        n = prc_mx_keepf(st->scratch, st->err, "%s=\"%s\"", attr, val);
        if (n == NULL)
                return 0;
        line = prc_mx_locate(&st->loc, n);
        if (line == 0 && (n = prc_mx_keepf(st->scratch, st->err, "%s='%s'", attr, val)) != NULL)
                line = prc_mx_locate(&st->loc, n);
        return line;
}

static bool unresolved_note(json_t *md, const char *what, const char *written, const char *unres, uint32_t line,
                            prc_err *err)
{
        char reason[512];

        snprintf(reason, sizeof(reason),
                 "'%.128s' uses property '%.128s', which this file does not define unconditionally (an imported "
                 "file, the SDK or the command line may): left unresolved", written, unres);
        return prc_md_not_extracted(md, what, reason, line, err);
}

static const char *cond_of(proj *st, const char *outer, const json_t *el)
{
        const char *c = prc_mx_attr(el, "Condition");
        char *t;
        size_t n;

        if (c == NULL)
                return outer;
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
                c++;
        n = strlen(c);
        while (n > 0 && strchr(" \t\r\n", c[n - 1]) != NULL)
                n--;
        if (outer != NULL)
                return prc_mx_keepf(st->scratch, st->err, "%s and %.*s", outer, (int)n, c);
        t = (char *)prc_mx_keep(st->scratch, c, n, st->err);
        return t;
}

/* PackageReference, GlobalPackageReference, PackageVersion, PackageDownload. */
static bool emit_item(proj *st, const json_t *it, const char *kind, const char *cond)
{
        const char *inc = prc_mx_attr(it, "Include"), *upd = prc_mx_attr(it, "Update"), *ver, *over, *priv,
                   *name, *nu, *vi, *vu, *resolved, *scope, *group;
        uint32_t line;
        json_t *d;
        char what[PRC_MD_STR_MAX + 32];

        if (inc == NULL && upd == NULL) {
                if (prc_mx_attr(it, "Remove") != NULL)
                        return prc_md_not_extracted(st->md, kind, "a Remove item takes a package away from items "
                                                    "an imported file adds: not applied",
                                                    locate_attr(st, "Remove", prc_mx_attr(it, "Remove")), st->err);
                return shape(st->err, prc_mx_line(&st->loc), "a <%s> without Include", kind);
        }
        if (!meta(st, it, "Version", &ver) || !meta(st, it, "VersionOverride", &over) ||
            !meta(st, it, "PrivateAssets", &priv))
                return false;
        if (over != NULL)
                ver = over;
        if (inc == NULL) {
                /* Update changes items an imported file adds: a version policy, kept in details. */
                json_t *u = json_object(), *list = PRC_JGET(prc_md_details(st->md), "updates");

                line = locate_attr(st, "Update", upd);
                if (json_array_size(list) >= PRC_MD_LIST_MAX)
                        return prc_err_set(st->err, PRC_E_EXTRACT_LIMIT, "more than %u Update items",
                                           PRC_MD_LIST_MAX);
                if (u == NULL || json_array_append_new(list, u) != 0)
                        return prc_err_oom(st->err, "updates");
                return prc_md_set_str(u, "name", upd, st->err) && prc_md_set_str(u, "version", ver, st->err) &&
                       prc_md_set_str(u, "item", kind, st->err) &&
                       json_object_set_new(u, "line", line ? json_integer(line) : json_null()) == 0;
        }
        line = locate_attr(st, "Include", inc);
        if (!interpolate(st, inc, &name, &nu) || !interpolate(st, ver, &vi, &vu))
                return false;
        if (*name == '\0')
                return shape(st->err, line, "a <%s> with an empty Include", kind);
        /* PrivateAssets=all: the package does not flow to consumers (analyzers, build tools), like a dev dependency. */
        scope = (priv != NULL && strcasestr(priv, "all") != NULL) ? "dev" : "runtime";
        if (strcmp(kind, "GlobalPackageReference") == 0)
                scope = priv != NULL && strcasestr(priv, "all") == NULL ? "runtime" : "dev";
        if (strcmp(kind, "PackageDownload") == 0)
                scope = "build";
        group = cond;
        if (strcmp(kind, "PackageVersion") == 0)
                group = cond != NULL ? prc_mx_keepf(st->scratch, st->err, "central: %s", cond) : "central";
        d = prc_md_add_dep(st->md, name, scope, true, line, st->err);
        if (d == NULL || !prc_md_set_str(d, "requirement", ver, st->err) || !prc_md_set_str(d, "group", group, st->err))
                return false;
        resolved = vu == NULL ? exact_version(st->scratch, vi, st->err) : NULL;
        if (!prc_md_set_str(d, "resolved", resolved, st->err) ||
            !set_purl(d, nu == NULL ? name : inc, resolved, st->err))
                return false;
        snprintf(what, sizeof(what), "version of %.4000s", name);
        if (vu != NULL && !unresolved_note(st->md, what, ver, vu, line, st->err))
                return false;
        if (ver == NULL && strcmp(kind, "PackageReference") == 0 &&
            !prc_md_not_extracted(st->md, what, "no version here: it is set centrally (Directory.Packages.props) "
                                  "or by an imported file, extracted on its own", line, st->err))
                return false;
        if (nu != NULL && !unresolved_note(st->md, kind, inc, nu, line, st->err))
                return false;
        return true;
}

static bool walk_items(proj *st, const json_t *el, const char *cond, unsigned depth)
/* depth: bounded by the XML parser's depth limit */
{
        static const char *const items[] = { "PackageReference", "GlobalPackageReference", "PackageVersion",
                                             "PackageDownload" };
        json_t *refs = PRC_JGET(prc_md_details(st->md), "project_references"),
               *imps = PRC_JGET(prc_md_details(st->md), "imports");

        for (size_t i = 0; i < prc_mx_nkids(el); i++) {
                const json_t *k = prc_mx_kid(el, i);
                const char *n = prc_mx_local(k), *c;
                bool item = false;

                if (!json_is_object(k))
                        continue;
                for (size_t j = 0; j < PRC_ARRAY_LEN(items); j++)
                        item |= strcmp(n, items[j]) == 0;
                if (item) {
                        if ((c = cond_of(st, cond, k)) == NULL && prc_err_is_set(st->err))
                                return false;
                        if (!emit_item(st, k, n, c))
                                return false;
                } else if (strcmp(n, "ProjectReference") == 0 && prc_mx_attr(k, "Include") != NULL) {
                        c = prc_mx_attr(k, "Include");
                        if (!prc_mx_list_str(refs, c, strlen(c), st->err))
                                return false;
                } else if (strcmp(n, "Import") == 0 && prc_mx_attr(k, "Project") != NULL) {
                        c = prc_mx_attr(k, "Project");
                        if (!prc_mx_list_str(imps, c, strlen(c), st->err))
                                return false;
                } else if (strcmp(n, "ItemGroup") == 0 || strcmp(n, "Choose") == 0 || strcmp(n, "When") == 0 ||
                           strcmp(n, "Otherwise") == 0) {
                        if ((c = cond_of(st, cond, k)) == NULL && prc_err_is_set(st->err))
                                return false;
                        if (!walk_items(st, k, c, depth + 1))
                                return false;
                } else if (strcmp(n, "Target") == 0 && prc_mx_child(k, "ItemGroup") != NULL) {
                        if (!prc_md_not_extracted(st->md, "Target", "items inside a <Target> are added when the "
                                                  "target runs during a build: not read", prc_mx_line(&st->loc),
                                                  st->err))
                                return false;
                }
        }
        return true;
}

static bool project_details(proj *st, const json_t *root)
{
        json_t *d = prc_md_details(st->md);
        const char *tf, *tfs, *cpm;

        tf = json_string_value(PRC_JGET(st->props, "targetframework"));
        tfs = json_string_value(PRC_JGET(st->props, "targetframeworks"));
        cpm = json_string_value(PRC_JGET(st->props, "managepackageversionscentrally"));
        if (json_object_set_new(d, "project_references", json_array()) != 0 ||
            json_object_set_new(d, "imports", json_array()) != 0 ||
            json_object_set_new(d, "updates", json_array()) != 0)
                return prc_err_oom(st->err, "details");
        return prc_md_set_str(d, "sdk", prc_mx_attr(root, "Sdk"), st->err) &&
               prc_md_set_str(d, "target_frameworks", tfs != NULL ? tfs : tf, st->err) &&
               prc_md_set_str(d, "central_package_management", cpm, st->err);
}

static json_t *msbuild(const prc_xin *in, const char *format, prc_err *err)
{
        proj st = { .in = in, .err = err };
        json_t *doc, *md = NULL;

        doc = prc_mx_parse(in, "Project", err);
        if (doc == NULL)
                return NULL;
        st.scratch = json_array();
        st.props = json_object();
        if (st.scratch == NULL || st.props == NULL) {
                prc_err_oom(err, "project");
                goto fail;
        }
        prc_mx_loc_init(&st.loc, in, true);
        md = st.md = prc_md_new(in, format, "nuget", "manifest", err);
        if (md == NULL || !collect_props(&st, doc) || !project_details(&st, doc) || !walk_items(&st, doc, NULL, 0))
                goto fail;
        json_decref(doc);
        json_decref(st.scratch);
        json_decref(st.props);
        return md;
fail:
        json_decref(md);
        json_decref(doc);
        json_decref(st.scratch);
        json_decref(st.props);
        return NULL;
}

bool prc_xn_project_match(const char *path, const char *base)
{
        (void)path;
        return ends_with_i(base, ".csproj") || ends_with_i(base, ".fsproj") || ends_with_i(base, ".vbproj") ||
               prc_mx_ieq(base, "Directory.Build.props") || prc_mx_ieq(base, "Directory.Build.targets");
}

json_t *prc_xn_project(const prc_xin *in, prc_err *err)
{
        return msbuild(in, FMT_PROJECT, err);
}

bool prc_xn_central_match(const char *path, const char *base)
{
        (void)path;
        return prc_mx_ieq(base, "Directory.Packages.props");
}

json_t *prc_xn_central(const prc_xin *in, prc_err *err)
{
        return msbuild(in, FMT_CENTRAL, err);
}

/* ---- packages.config ---------------------------------------------------- */

bool prc_xn_config_pkgs_match(const char *path, const char *base)
{
        (void)path;
        return prc_mx_ieq(base, "packages.config");
}

json_t *prc_xn_config_pkgs(const prc_xin *in, prc_err *err)
{
        json_t *doc, *md = NULL, *scratch = json_array();
        prc_mx_loc loc;

        if (scratch == NULL) {
                prc_err_oom(err, "packages.config");
                return NULL;
        }
        doc = prc_mx_parse(in, "packages", err);
        if (doc == NULL)
                goto fail;
        prc_mx_loc_init(&loc, in, true);
        md = prc_md_new(in, FMT_PKGCFG, "nuget", "manifest", err);
        if (md == NULL)
                goto fail;
        for (size_t i = 0; i < prc_mx_nkids(doc); i++) {
                const json_t *p = prc_mx_kid(doc, i);
                const char *id, *ver, *dev, *tfm, *res, *n;
                uint32_t line;
                json_t *d;

                if (!json_is_object(p) || strcmp(prc_mx_local(p), "package") != 0)
                        continue;
                id = prc_mx_attr(p, "id");
                ver = prc_mx_attr(p, "version");
                dev = prc_mx_attr(p, "developmentDependency");
                tfm = prc_mx_attr(p, "targetFramework");
                line = 0;
                if (id != NULL && (n = prc_mx_keepf(scratch, err, "id=\"%s\"", id)) != NULL &&
                    (line = prc_mx_locate(&loc, n)) == 0 && (n = prc_mx_keepf(scratch, err, "id='%s'", id)) != NULL)
                        line = prc_mx_locate(&loc, n);
                if (id == NULL || *id == '\0' || ver == NULL || *ver == '\0') {
                        (void)shape(err, line ? line : prc_mx_line(&loc), "a <package> without id or version");
                        goto fail;
                }
                d = prc_md_add_dep(md, id, dev != NULL && strcasecmp(dev, "true") == 0 ? "dev" : "runtime", true,
                                   line, err);
                res = exact_version(scratch, ver, err);
                if (d == NULL || !prc_md_set_str(d, "requirement", ver, err) ||
                    !prc_md_set_str(d, "resolved", res, err) || !prc_md_set_str(d, "group", tfm, err) ||
                    !set_purl(d, id, res, err))
                        goto fail;
        }
        json_decref(doc);
        json_decref(scratch);
        return md;
fail:
        json_decref(md);
        json_decref(doc);
        json_decref(scratch);
        return NULL;
}

/* ---- packages.lock.json ------------------------------------------------- */

bool prc_xn_lock_match(const char *path, const char *base)
{
        (void)path;
        return prc_mx_ieq(base, "packages.lock.json");
}

static const char *jstr(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

/* "tfm\x1fid" with the id lower-cased: NuGet ids are case-insensitive. */
static void lock_key(char *out, size_t cap, const char *tfm, size_t tn, const char *id)
{
        size_t k = (size_t)snprintf(out, cap, "%.*s\x1f%s", (int)tn, tfm, id);

        for (size_t i = tn + 1; i < k && i < cap; i++)
                if (out[i] >= 'A' && out[i] <= 'Z')
                        out[i] = (char)(out[i] - 'A' + 'a');
}

/*
 * The edges: a package's "dependencies" name packages of its own target framework; a runtime
 * section ("net8.0/linux-x64") lists only what differs there, so its packages also reach its
 * framework's ("net8.0").  rows holds [tfm, dependencies] per dependency index.
 */
static bool lock_edges(json_t *md, const json_t *rows, prc_err *err)
{
        json_t *at = json_object();
        const json_t *row, *v, *ix;
        const char *id;
        char key[2 * PRC_MD_STR_MAX + 8];
        size_t i;

        if (at == NULL)
                return prc_err_oom(err, "packages.lock.json edges");
        json_array_foreach(rows, i, row) {
                const char *tfm = json_string_value(json_array_get(row, 0));
                lock_key(key, sizeof(key), tfm, strlen(tfm),
                         json_string_value(json_object_get(json_array_get(PRC_JGET(md, "dependencies"), i),
                                                           "name")));
                if (json_object_set_new(at, key, json_integer((json_int_t)i)) != 0) {
                        json_decref(at);
                        return prc_err_oom(err, "packages.lock.json edges");
                }
        }
        json_array_foreach(rows, i, row) {
                const char *tfm = json_string_value(json_array_get(row, 0));
                json_object_foreach(json_array_get(row, 1), id, v) {
                        lock_key(key, sizeof(key), tfm, strlen(tfm), id);
                        ix = json_object_get(at, key);
                        if (ix == NULL && strchr(tfm, '/') != NULL) {
                                lock_key(key, sizeof(key), tfm, (size_t)(strchr(tfm, '/') - tfm), id);
                                ix = json_object_get(at, key);
                        }
                        if (ix != NULL ? !prc_md_edge(md, i, (size_t)json_integer_value(ix), err)
                                       : !prc_md_edge_unresolved(md, i, id, json_string_value(v), err)) {
                                json_decref(at);
                                return false;
                        }
                }
        }
        json_decref(at);
        return prc_md_edges_finish(md, err);
}

json_t *prc_xn_lock(const prc_xin *in, prc_err *err)
{
        json_t *rows = json_array();
        json_t *doc, *md = NULL, *scratch = json_array(), *requires = json_object(), *tfms = json_array();
        const json_t *ver, *deps, *pkgs;
        const char *tfm;
        prc_mx_loc loc;

        if (scratch == NULL || requires == NULL || tfms == NULL || rows == NULL) {
                prc_err_oom(err, "packages.lock.json");
                json_decref(rows);
                json_decref(scratch);
                json_decref(requires);
                json_decref(tfms);
                return NULL;
        }
        doc = prc_json_parse(in->p, in->n, in->lim, 0, err);
        if (doc == NULL)
                goto fail;
        ver = PRC_JGET(doc, "version");
        if (!json_is_object(doc) || !json_is_integer(ver)) {
                (void)shape(err, 1, "packages.lock.json without an integer \"version\"");
                goto fail;
        }
        /* 1: the original format; 2: adds CentralTransitive entries (central package management). */
        if (json_integer_value(ver) != 1 && json_integer_value(ver) != 2) {
                prc_err_set(err, PRC_E_EXTRACT_VERSION, "packages.lock.json version %lld (prc reads 1 and 2)",
                            (long long)json_integer_value(ver));
                prc_err_set_line(err, prc_x_find_line(in, "\"version\"", 1), 0);
                goto fail;
        }
        deps = PRC_JGET(doc, "dependencies");
        if (!json_is_object(deps)) {
                (void)shape(err, prc_x_find_line(in, "\"dependencies\"", 1), "\"dependencies\" is not an object");
                goto fail;
        }
        md = prc_md_new(in, FMT_LOCK, "nuget", "lockfile", err);
        if (md == NULL || json_object_set(prc_md_details(md), "version", (json_t *)ver) != 0 ||
            json_object_set(prc_md_details(md), "target_frameworks", tfms) != 0 ||
            json_object_set(prc_md_details(md), "requires", requires) != 0) {
                prc_err_oom(err, "packages.lock.json");
                goto fail;
        }
        prc_mx_loc_init(&loc, in, false);
        json_object_foreach((json_t *)deps, tfm, pkgs) {
                const char *name, *n;
                const json_t *e;

                n = prc_mx_keepf(scratch, err, "\"%s\"", tfm);
                if (n == NULL)
                        goto fail;
                (void)prc_mx_locate(&loc, n);
                if (!json_is_object(pkgs)) {
                        (void)shape(err, prc_mx_line(&loc), "the entry of target '%.200s' is not an object", tfm);
                        goto fail;
                }
                if (!prc_mx_list_str(tfms, tfm, strlen(tfm), err))
                        goto fail;
                json_object_foreach((json_t *)pkgs, name, e) {
                        const char *type, *req, *res, *hash;
                        const json_t *sub;
                        uint32_t line;
                        json_t *d;
                        bool direct, project;

                        line = 0;
                        if ((n = prc_mx_keepf(scratch, err, "\"%s\": {", name)) != NULL)
                                line = prc_mx_locate(&loc, n);
                        if (!json_is_object(e) || (type = jstr(e, "type")) == NULL) {
                                (void)shape(err, line, "package '%.200s' is not an object with a \"type\"", name);
                                goto fail;
                        }
                        project = strcmp(type, "Project") == 0;
                        direct = strcmp(type, "Direct") == 0;
                        if (!project && !direct && strcmp(type, "Transitive") != 0 &&
                            strcmp(type, "CentralTransitive") != 0) {
                                (void)shape(err, line, "package '%.200s' has an unknown type", name);
                                goto fail;
                        }
                        req = jstr(e, "requested");
                        res = jstr(e, "resolved");
                        hash = jstr(e, "contentHash");
                        if (!project && res == NULL) {
                                (void)shape(err, line, "package '%.200s' has no \"resolved\" version", name);
                                goto fail;
                        }
                        d = prc_md_add_dep(md, name, "runtime", direct || project, line, err);
                        if (d == NULL || !prc_md_set_str(d, "requirement", req, err) ||
                            !prc_md_set_str(d, "resolved", res, err) || !prc_md_set_str(d, "group", tfm, err))
                                goto fail;
                        if (project) {
                                /* a project of the same solution, not a package */
                                if (!prc_md_set_source(d, "workspace", NULL, NULL, NULL, err))
                                        goto fail;
                        } else if (!set_purl(d, name, res, err)) {
                                goto fail;
                        }
                        if (hash != NULL && !prc_md_set_integrity(d, "sha512", hash, err))
                                goto fail;
                        sub = PRC_JGET(e, "dependencies");
                        if (sub != NULL) {
                                const char *k;
                                const json_t *v;

                                if (!json_is_object(sub)) {
                                        (void)shape(err, line, "the dependencies of '%.200s' are not an object", name);
                                        goto fail;
                                }
                                json_object_foreach((json_t *)sub, k, v) {
                                        if (!json_is_string(v) || json_string_length(v) > PRC_MD_STR_MAX ||
                                            strlen(k) > PRC_MD_STR_MAX) {
                                                (void)shape(err, line, "a dependency range of '%.200s' is not a "
                                                            "string", name);
                                                goto fail;
                                        }
                                }
                                n = prc_mx_keepf(scratch, err, "%s/%s", tfm, name);
                                if (n == NULL || json_object_set(requires, n, (json_t *)sub) != 0) {
                                        prc_err_oom(err, "requires");
                                        goto fail;
                                }
                        }
                        if (json_array_append_new(rows, json_pack("[sO?]", tfm, sub)) != 0) {
                                prc_err_oom(err, "packages.lock.json edges");
                                goto fail;
                        }
                }
        }
        if (!lock_edges(md, rows, err))
                goto fail;
        json_decref(rows);
        json_decref(doc);
        json_decref(scratch);
        json_decref(requires);
        json_decref(tfms);
        return md;
fail:
        json_decref(rows);
        json_decref(md);
        json_decref(doc);
        json_decref(scratch);
        json_decref(requires);
        json_decref(tfms);
        return NULL;
}

/* ---- NuGet.config ------------------------------------------------------- */

bool prc_xn_nugetconfig_match(const char *path, const char *base)
{
        (void)path;
        return prc_mx_ieq(base, "NuGet.config");
}

typedef struct ncfg {
        json_t    *md, *scratch;
        prc_err   *err;
        prc_mx_loc loc;
} ncfg;

static uint32_t ncfg_line(ncfg *c, const char *attr, const char *val)
{
        const char *n;
        uint32_t line = 0;

        if (val == NULL)
                return 0;
        if ((n = prc_mx_keepf(c->scratch, c->err, "%s=\"%s\"", attr, val)) != NULL)
                line = prc_mx_locate(&c->loc, n);
        if (line == 0 && (n = prc_mx_keepf(c->scratch, c->err, "%s='%s'", attr, val)) != NULL)
                line = prc_mx_locate(&c->loc, n);
        return line;
}

static bool list_str(json_t *list, const char *s, prc_err *err)
{
        return prc_mx_list_str(list, s, strlen(s), err);
}

/* Keys under <config> whose value is a secret or may carry one. */
static bool secret_config_key(const char *k)
{
        return strcasestr(k, "password") != NULL || strcasestr(k, "token") != NULL ||
               strcasestr(k, "apikey") != NULL || strcasestr(k, "secret") != NULL;
}

static bool ncfg_sources(ncfg *c, const json_t *sec)
{
        json_t *d = prc_md_details(c->md);

        for (size_t i = 0; i < prc_mx_nkids(sec); i++) {
                const json_t *a = prc_mx_kid(sec, i);
                const char *n = prc_mx_local(a), *k = prc_mx_attr(a, "key"), *v = prc_mx_attr(a, "value");

                if (!json_is_object(a))
                        continue;
                if (strcmp(n, "clear") == 0) {
                        /* <clear/>: sources from machine and user configs no longer apply */
                        if (json_object_set_new(d, "clear", json_true()) != 0)
                                return prc_err_oom(c->err, "NuGet.config");
                } else if (strcmp(n, "add") == 0) {
                        uint32_t line = ncfg_line(c, "key", k);

                        if (k == NULL || v == NULL)
                                return shape(c->err, line ? line : prc_mx_line(&c->loc),
                                             "a package source without key or value");
                        if (!prc_md_add_registry(c->md, k, NULL, v, line, c->err))
                                return false;
                } else if (strcmp(n, "remove") == 0 && k != NULL) {
                        if (!list_str(PRC_JGET(d, "removed_sources"), k, c->err))
                                return false;
                }
        }
        return true;
}

static bool ncfg_mapping(ncfg *c, const json_t *sec)
{
        json_t *list = PRC_JGET(prc_md_details(c->md), "package_source_mapping");

        for (size_t i = 0; i < prc_mx_nkids(sec); i++) {
                const json_t *s = prc_mx_kid(sec, i);
                const char *key = prc_mx_attr(s, "key");
                json_t *o, *pats;
                uint32_t line;

                if (!json_is_object(s))
                        continue;
                if (strcmp(prc_mx_local(s), "clear") == 0)
                        continue;
                if (strcmp(prc_mx_local(s), "packageSource") != 0 || key == NULL)
                        return shape(c->err, prc_mx_line(&c->loc), "a packageSourceMapping entry that is not "
                                     "<packageSource key=...>");
                line = ncfg_line(c, "key", key);
                o = json_object();
                pats = json_array();
                if (o == NULL || pats == NULL || json_array_size(list) >= PRC_MD_LIST_MAX ||
                    json_array_append_new(list, o) != 0 || json_object_set_new(o, "patterns", pats) != 0) {
                        json_decref(pats);
                        return prc_err_set(c->err, PRC_E_EXTRACT_LIMIT, "too many package source mappings");
                }
                if (!prc_md_set_str(o, "source", key, c->err) ||
                    json_object_set_new(o, "line", line ? json_integer(line) : json_null()) != 0)
                        return false;
                for (size_t j = 0; j < prc_mx_nkids(s); j++) {
                        const json_t *p = prc_mx_kid(s, j);
                        const char *pat = prc_mx_attr(p, "pattern");

                        if (!json_is_object(p) || strcmp(prc_mx_local(p), "package") != 0)
                                continue;
                        if (pat == NULL)
                                return shape(c->err, line, "a <package> mapping without pattern");
                        if (!list_str(pats, pat, c->err))
                                return false;
                }
        }
        return true;
}

/* packageSourceCredentials: <SourceName><add key="Username|Password|ClearTextPassword" value=.../></SourceName> */
static bool ncfg_credentials(ncfg *c, const json_t *sec)
{
        for (size_t i = 0; i < prc_mx_nkids(sec); i++) {
                const json_t *s = prc_mx_kid(sec, i);
                const char *src = prc_mx_local(s);

                if (!json_is_object(s))
                        continue;
                for (size_t j = 0; j < prc_mx_nkids(s); j++) {
                        const json_t *a = prc_mx_kid(s, j);
                        const char *k = prc_mx_attr(a, "key"), *key;

                        if (!json_is_object(a) || k == NULL)
                                continue;
                        key = prc_mx_keepf(c->scratch, c->err, "packageSourceCredentials/%.2000s/%.2000s", src, k);
                        if (key == NULL || !prc_md_add_credential(c->md, key, ncfg_line(c, "key", k), c->err))
                                return false;
                }
        }
        return true;
}

/* <apikeys> (push keys, per source URL) and secret-looking <config> keys: present, by key only. */
static bool ncfg_keyed(ncfg *c, const json_t *sec, const char *section, bool all_secret)
{
        json_t *keys = PRC_JGET(prc_md_details(c->md), "config_keys");

        for (size_t i = 0; i < prc_mx_nkids(sec); i++) {
                const json_t *a = prc_mx_kid(sec, i);
                const char *k = prc_mx_attr(a, "key"), *v = prc_mx_attr(a, "value"), *key;
                uint32_t line;

                if (!json_is_object(a) || strcmp(prc_mx_local(a), "add") != 0 || k == NULL)
                        continue;
                line = ncfg_line(c, "key", k);
                if (all_secret || secret_config_key(k)) {
                        bool had = false;
                        char *clean = prc_md_url_strip(k, &had);

                        if (clean == NULL)
                                return prc_err_oom(c->err, "NuGet.config");
                        key = prc_mx_keepf(c->scratch, c->err, "%s/%.4000s", section, clean);
                        free(clean);
                        if (key == NULL || !prc_md_add_credential(c->md, key, line, c->err))
                                return false;
                        continue;
                }
                if (!list_str(keys, k, c->err))
                        return false;
                /* A proxy or source URL in <config> may carry user:password@: present, by key. */
                if (v != NULL && strstr(v, "://") != NULL) {
                        bool had = false;
                        char *clean = prc_md_url_strip(v, &had);

                        free(clean);
                        if (!had)
                                continue;
                        key = prc_mx_keepf(c->scratch, c->err, "config/%.4000s URL userinfo", k);
                        if (key == NULL || !prc_md_add_credential(c->md, key, line, c->err))
                                return false;
                }
        }
        return true;
}

json_t *prc_xn_nugetconfig(const prc_xin *in, prc_err *err)
{
        ncfg c = { .err = err };
        json_t *doc, *d;

        c.scratch = json_array();
        if (c.scratch == NULL) {
                prc_err_oom(err, "NuGet.config");
                return NULL;
        }
        doc = prc_mx_parse(in, "configuration", err);
        if (doc == NULL)
                goto fail;
        prc_mx_loc_init(&c.loc, in, true);
        c.md = prc_md_new(in, FMT_CONFIG, "nuget", "registry-config", err);
        if (c.md == NULL)
                goto fail;
        d = prc_md_details(c.md);
        if (json_object_set_new(d, "clear", json_false()) != 0 ||
            json_object_set_new(d, "removed_sources", json_array()) != 0 ||
            json_object_set_new(d, "disabled_sources", json_array()) != 0 ||
            json_object_set_new(d, "package_source_mapping", json_array()) != 0 ||
            json_object_set_new(d, "config_keys", json_array()) != 0) {
                prc_err_oom(err, "NuGet.config");
                goto fail;
        }
        for (size_t i = 0; i < prc_mx_nkids(doc); i++) {
                const json_t *sec = prc_mx_kid(doc, i);
                const char *n = prc_mx_local(sec);
                bool ok = true;

                if (!json_is_object(sec))
                        continue;
                if (strcmp(n, "packageSources") == 0) {
                        ok = ncfg_sources(&c, sec);
                } else if (strcmp(n, "packageSourceMapping") == 0) {
                        ok = ncfg_mapping(&c, sec);
                } else if (strcmp(n, "packageSourceCredentials") == 0) {
                        ok = ncfg_credentials(&c, sec);
                } else if (strcmp(n, "apikeys") == 0) {
                        ok = ncfg_keyed(&c, sec, "apikeys", true);
                } else if (strcmp(n, "config") == 0) {
                        ok = ncfg_keyed(&c, sec, "config", false);
                } else if (strcmp(n, "disabledPackageSources") == 0) {
                        for (size_t j = 0; ok && j < prc_mx_nkids(sec); j++) {
                                const json_t *a = prc_mx_kid(sec, j);
                                const char *k = prc_mx_attr(a, "key"), *v = prc_mx_attr(a, "value");

                                if (json_is_object(a) && k != NULL && v != NULL && strcasecmp(v, "true") == 0)
                                        ok = list_str(PRC_JGET(d, "disabled_sources"), k, err);
                        }
                } else {
                        ok = prc_md_not_extracted(c.md, n, "a NuGet.config section that names no source, mapping "
                                                  "or credential", prc_mx_line(&c.loc), err);
                }
                if (!ok)
                        goto fail;
        }
        json_decref(doc);
        json_decref(c.scratch);
        return c.md;
fail:
        json_decref(c.md);
        json_decref(doc);
        json_decref(c.scratch);
        return NULL;
}
