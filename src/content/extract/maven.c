/*
 * maven.c - pom.xml, for the Java family (ecosystem "maven"; gradle.c has
 * gradle.lockfile and version catalogs).
 * Trust: runs in the content worker on hostile bytes, through prc_xml_parse
 * and prc_toml_parse with in->lim; never opens a file, never reaches the
 * network: a parent POM, an imported BOM, settings.xml or a property given
 * on the command line is never read, and whatever depends on one stays
 * unresolved and is listed in not_extracted (docs/extraction/maven-nuget-gem.md).
 */
#include "content/extract/mng.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"

#define FMT_POM     "maven-pom"

/* pkg:maven/group/artifact@version with classifier and a non-jar type as qualifiers. */
static bool set_purl(json_t *obj, const char *g, const char *a, const char *v, const char *type, const char *cls,
                     prc_err *err)
{
        const char *q[5] = { NULL };
        size_t nq = 0;

        if (cls != NULL && *cls != '\0') {
                q[nq++] = "classifier";
                q[nq++] = cls;
        }
        if (type != NULL && *type != '\0' && strcmp(type, "jar") != 0) {
                q[nq++] = "type";
                q[nq++] = type;
        }
        if (g == NULL || *g == '\0' || a == NULL || *a == '\0')
                return prc_md_set_str(obj, "purl", NULL, err);
        return prc_md_take_purl(obj, prc_purl("maven", g, a, v, nq > 0 ? q : NULL, NULL), err);
}

/* ---- pom.xml ------------------------------------------------------------ */

typedef struct pom {
        const prc_xin *in;
        json_t        *md;              /* the ManifestDoc being built */
        json_t        *scratch;         /* owned: temporary strings */
        prc_err       *err;
        json_t        *props;           /* owned: <properties> name -> text as written */
        json_t        *managed;         /* owned: "g:a:type:classifier" -> version (string) or null */
        json_t        *pmanaged;        /* owned: plugin "g:a" -> version or null */
        const char    *gid, *aid, *ver; /* the project's coordinates as written (NULL when absent) */
        const char    *pgid, *paid, *pver;
        bool           has_parent, has_import;
        prc_mx_loc     loc;
} pom;

static const char *builtin(const pom *st, const char *name)
{
        static const char *const pre[] = { "project.", "pom.", "" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(pre); i++) {
                size_t n = strlen(pre[i]);

                if (strncmp(name, pre[i], n) != 0)
                        continue;
                if (strcmp(name + n, "version") == 0)
                        return st->ver != NULL ? st->ver : st->pver;
                if (strcmp(name + n, "groupId") == 0)
                        return st->gid != NULL ? st->gid : st->pgid;
                if (strcmp(name + n, "artifactId") == 0)
                        return st->aid;
                if (strcmp(name + n, "parent.version") == 0)
                        return st->pver;
                if (strcmp(name + n, "parent.groupId") == 0)
                        return st->pgid;
                if (strcmp(name + n, "parent.artifactId") == 0)
                        return st->paid;
        }
        return NULL;
}

static const char *pom_prop(void *ctx, char *name)
{
        const pom *st = ctx;
        const char *val = builtin(st, name);

        return val != NULL ? val : json_string_value(json_object_get(st->props, name));
}

/*
 * Interpolate raw (may be NULL) with the project's coordinates and
 * <properties>.  *out is the expansion (properties left as written where
 * unknown); *unres names the first unknown property, or is NULL.
 */
static bool interpolate(pom *st, const char *raw, const char **out, const char **unres)
{
        return prc_mx_interpolate(raw, "${", '}', pom_prop, st, st->scratch, out, unres, st->err);
}

static bool text(pom *st, const json_t *el, const char *local, const char **out)
{
        return prc_mx_child_text(el, local, st->scratch, out, st->err);
}

static const char *line_needle(pom *st, const char *tag, const char *val)
{
        prc_buf b;
        prc_err e;
        const char *s;

        prc_err_init(&e);
        prc_buf_init(&b, 3 * PRC_MD_STR_MAX);
        if (!prc_buf_printf(&b, &e, "<%s>%s</%s>", tag, val, tag)) {
                prc_buf_clear(&b);
                return NULL;
        }
        s = prc_mx_keep(st->scratch, (const char *)b.data, b.len, st->err);
        prc_buf_clear(&b);
        return s;
}

/* Line of <tag>val</tag> at or after the cursor (0 when the file writes it otherwise). */
static uint32_t locate(pom *st, const char *tag, const char *val)
{
        const char *n;

        if (val == NULL || *val == '\0')
                return 0;
        n = line_needle(st, tag, val);
        return n != NULL ? prc_mx_locate(&st->loc, n) : 0;
}

static bool unresolved_note(pom *st, const char *what, const char *written, const char *unres, uint32_t line)
{
        char reason[512];

        snprintf(reason, sizeof(reason),
                 "'%.128s' uses property '%.128s', which this file does not define (a parent POM, a profile, "
                 "settings.xml or the command line may): left unresolved", written, unres);
        return prc_md_not_extracted(st->md, what, reason, line, st->err);
}

/* Maven scope (and <optional>) to the ManifestDoc's; see the mapping in the docs. */
static const char *map_scope(const char *ms, bool optional)
{
        if (ms != NULL && strcmp(ms, "test") == 0)
                return "test";
        if (optional)
                return "optional";
        /* provided: the runtime container supplies it, and it is not shipped: npm's peer contract */
        if (ms != NULL && strcmp(ms, "provided") == 0)
                return "peer";
        return "runtime";
}

typedef struct coords {
        const char *g, *a, *v, *type, *cls, *scope, *optional, *syspath;   /* as written */
        const char *gi, *ai, *vi;                                           /* interpolated */
        const char *gu, *au, *vu;                                           /* unresolved property or NULL */
        char       *name;                                                   /* "g:a" (scratch) */
} coords;

static bool read_coords(pom *st, const json_t *el, const char *what, const char *gdef, coords *c)
{
        memset(c, 0, sizeof(*c));
        if (!text(st, el, "groupId", &c->g) || !text(st, el, "artifactId", &c->a) ||
            !text(st, el, "version", &c->v) || !text(st, el, "type", &c->type) ||
            !text(st, el, "classifier", &c->cls) || !text(st, el, "scope", &c->scope) ||
            !text(st, el, "optional", &c->optional) || !text(st, el, "systemPath", &c->syspath))
                return false;
        if (c->a == NULL || *c->a == '\0') {
                prc_err_set(st->err, PRC_E_EXTRACT_SHAPE, "a <%s> without <artifactId>", what);
                prc_err_set_line(st->err, prc_mx_line(&st->loc), 0);
                return false;
        }
        if (c->g == NULL || *c->g == '\0')
                c->g = gdef;
        if (c->g == NULL) {
                prc_err_set(st->err, PRC_E_EXTRACT_SHAPE, "a <%s> without <groupId> (artifact '%.200s')", what,
                            c->a);
                prc_err_set_line(st->err, prc_mx_line(&st->loc), 0);
                return false;
        }
        if (!interpolate(st, c->g, &c->gi, &c->gu) || !interpolate(st, c->a, &c->ai, &c->au) ||
            !interpolate(st, c->v, &c->vi, &c->vu))
                return false;
        c->name = (char *)prc_mx_keepf(st->scratch, st->err, "%s:%s", c->gi, c->ai);
        return c->name != NULL;
}

static const char *managed_key(pom *st, const coords *c)
{
        return prc_mx_keepf(st->scratch, st->err, "%s:%s:%s", c->name,
                            c->type != NULL && *c->type ? c->type : "jar", c->cls != NULL ? c->cls : "");
}

/* Notes for coordinates that kept a property. */
static bool coord_notes(pom *st, const coords *c, uint32_t line)
{
        char what[PRC_MD_STR_MAX + 32];

        snprintf(what, sizeof(what), "coordinates of %.4000s", c->name);
        if (c->gu != NULL && !unresolved_note(st, what, c->g, c->gu, line))
                return false;
        if (c->au != NULL && !unresolved_note(st, what, c->a, c->au, line))
                return false;
        return true;
}

/*
 * What a POM element is: a dependency (its version may come from
 * dependencyManagement), a plugin (groupId defaults to
 * org.apache.maven.plugins, version from pluginManagement), or a plugin's
 * own dependency or a build extension (neither managed).  The last three run
 * at build time: scope "build".
 */
enum pkind { K_DEP, K_PLUGIN, K_PLUGIN_DEP, K_EXTENSION };

/* A <dependency>, <plugin> or <extension> that the project uses. */
static bool emit_dep(pom *st, const json_t *el, const char *what, const char *group, enum pkind kind)
{
        bool plugin = kind == K_PLUGIN;

        char note[PRC_MD_STR_MAX + 32];
        const char *resolved = NULL, *key, *scope;
        json_t *d, *m;
        coords c;
        uint32_t line;

        if (!read_coords(st, el, what, plugin ? "org.apache.maven.plugins" : NULL, &c))
                return false;
        line = locate(st, "artifactId", c.a);
        scope = kind != K_DEP ? "build" : map_scope(c.scope, c.optional != NULL && strcmp(c.optional, "true") == 0);
        d = prc_md_add_dep(st->md, c.name, scope, true, line, st->err);
        if (d == NULL || !prc_md_set_str(d, "group", group, st->err))
                return false;
        snprintf(note, sizeof(note), "version of %.4000s", c.name);
        if (c.v != NULL) {
                if (!prc_md_set_str(d, "requirement", c.v, st->err))
                        return false;
                if (c.vu != NULL && !unresolved_note(st, note, c.v, c.vu, line))
                        return false;
                resolved = c.vu == NULL && prc_mx_maven_exact(c.vi) ? c.vi : NULL;
        } else {
                key = plugin ? c.name : managed_key(st, &c);
                if (key == NULL)
                        return false;
                m = kind == K_PLUGIN_DEP || kind == K_EXTENSION ? NULL :
                    json_object_get(plugin ? st->pmanaged : st->managed, key);
                if (json_is_string(m)) {
                        resolved = json_string_value(m);
                } else if (m != NULL) {
                        if (!prc_md_not_extracted(st->md, note, "the version managed in this file uses a property "
                                                  "this file does not define: left unresolved", line, st->err))
                                return false;
                } else if (!prc_md_not_extracted(st->md, note, st->has_parent || st->has_import ?
                                                 "no version in this file: it comes from the parent POM, an "
                                                 "imported BOM or a default, which prc does not read" :
                                                 "no version in this file and none managed in it", line,
                                                 st->err)) {
                        return false;
                }
        }
        if (!prc_md_set_str(d, "resolved", resolved, st->err) ||
            !set_purl(d, c.gu ? NULL : c.gi, c.au ? NULL : c.ai, resolved, kind != K_DEP ? NULL : c.type, c.cls,
                      st->err))
                return false;
        if (c.scope != NULL && strcmp(c.scope, "system") == 0 && c.syspath != NULL &&
            !prc_md_set_source(d, "path", c.syspath, NULL, NULL, st->err))
                return false;
        if (!coord_notes(st, &c, line))
                return false;
        /* Exclusions' artifactIds move the cursor so that a later dependency of the same name is not found there. */
        {
                const json_t *ex = prc_mx_child(el, "exclusions");

                for (size_t i = 0; ex != NULL && i < prc_mx_nkids(ex); i++) {
                        const char *a;

                        if (json_is_object(prc_mx_kid(ex, i)) && text(st, prc_mx_kid(ex, i), "artifactId", &a))
                                (void)locate(st, "artifactId", a);      /* a miss only costs a line */
                }
        }
        return !prc_err_is_set(st->err);
}

/* A <dependencyManagement> or <pluginManagement> entry: details, not a dependency (docs). */
static bool emit_managed(pom *st, const json_t *el, const char *what, bool plugin, json_t *list, const char *group)
{
        json_t *o;
        coords c;
        uint32_t line;
        const char *resolved;

        if (!read_coords(st, el, what, plugin ? "org.apache.maven.plugins" : NULL, &c))
                return false;
        line = locate(st, "artifactId", c.a);
        resolved = c.v != NULL && c.vu == NULL && prc_mx_maven_exact(c.vi) ? c.vi : NULL;
        if (json_array_size(list) >= PRC_MD_LIST_MAX)
                return prc_err_set(st->err, PRC_E_EXTRACT_LIMIT, "more than %u managed entries", PRC_MD_LIST_MAX);
        o = json_object();
        if (o == NULL || json_array_append_new(list, o) != 0)
                return prc_err_oom(st->err, "managed entry");
        if (!prc_md_set_str(o, "name", c.name, st->err) || !prc_md_set_str(o, "requirement", c.v, st->err) ||
            !prc_md_set_str(o, "resolved", resolved, st->err) || !prc_md_set_str(o, "scope", c.scope, st->err) ||
            !prc_md_set_str(o, "type", c.type, st->err) || !prc_md_set_str(o, "group", group, st->err) ||
            json_object_set_new(o, "line", line > 0 ? json_integer(line) : json_null()) != 0 ||
            !set_purl(o, c.gu ? NULL : c.gi, c.au ? NULL : c.ai, resolved, plugin ? NULL : c.type, c.cls, st->err))
                return prc_err_oom(st->err, "managed entry");
        if (c.vu != NULL) {
                char note[PRC_MD_STR_MAX + 40];

                snprintf(note, sizeof(note), "managed version of %.4000s", c.name);
                if (!unresolved_note(st, note, c.v, c.vu, line))
                        return false;
        }
        return true;
}

/* Pre-pass (no lines): what interpolation and version management need. */
static bool collect_managed(pom *st, const json_t *dm, json_t *into, bool plugin, const char *what)
{
        const json_t *list = plugin ? prc_mx_child(dm, "plugins") : prc_mx_child(dm, "dependencies");

        for (size_t i = 0; list != NULL && i < prc_mx_nkids(list); i++) {
                const json_t *e = prc_mx_kid(list, i);
                coords c;
                const char *key;

                if (!json_is_object(e) || strcmp(prc_mx_local(e), what) != 0)
                        continue;
                if (!read_coords(st, e, what, plugin ? "org.apache.maven.plugins" : NULL, &c))
                        return false;
                if (!plugin && c.scope != NULL && strcmp(c.scope, "import") == 0)
                        st->has_import = true;
                key = plugin ? c.name : managed_key(st, &c);
                if (key == NULL)
                        return false;
                if (json_object_get(into, key) != NULL)
                        continue;       /* Maven keeps the first declaration */
                if (json_object_set_new(into, key, c.v != NULL && c.vu == NULL && prc_mx_maven_exact(c.vi) ?
                                        json_string(c.vi) : json_null()) != 0)
                        return prc_err_oom(st->err, "managed versions");
        }
        return true;
}

static bool prepass(pom *st, const json_t *root)
{
        const json_t *parent = prc_mx_child(root, "parent"), *props = prc_mx_child(root, "properties"), *b;

        if (!text(st, root, "groupId", &st->gid) || !text(st, root, "artifactId", &st->aid) ||
            !text(st, root, "version", &st->ver))
                return false;
        if (parent != NULL) {
                st->has_parent = true;
                if (!text(st, parent, "groupId", &st->pgid) || !text(st, parent, "artifactId", &st->paid) ||
                    !text(st, parent, "version", &st->pver))
                        return false;
        }
        for (size_t i = 0; props != NULL && i < prc_mx_nkids(props); i++) {
                const json_t *p = prc_mx_kid(props, i);
                const char *v;

                if (!json_is_object(p))
                        continue;
                if (!prc_mx_only_text(p))
                        continue;       /* markup is no property value: left undefined */
                if (!prc_mx_text(p, st->scratch, &v, st->err))
                        return false;
                /* The last definition wins, as in Maven's model builder. */
                if (json_object_set_new(st->props, prc_mx_local(p), json_string(v)) != 0)
                        return prc_err_oom(st->err, "properties");
        }
        if ((b = prc_mx_child(root, "dependencyManagement")) != NULL &&
            !collect_managed(st, b, st->managed, false, "dependency"))
                return false;
        if ((b = prc_mx_child(root, "build")) != NULL && (b = prc_mx_child(b, "pluginManagement")) != NULL &&
            !collect_managed(st, b, st->pmanaged, true, "plugin"))
                return false;
        return true;
}

static bool emit_list(pom *st, const json_t *list, const char *what, const char *group, enum pkind kind)
{
        for (size_t i = 0; list != NULL && i < prc_mx_nkids(list); i++) {
                const json_t *e = prc_mx_kid(list, i);

                if (json_is_object(e) && strcmp(prc_mx_local(e), what) == 0 &&
                    !emit_dep(st, e, what, group, kind))
                        return false;
        }
        return true;
}

static bool emit_managed_list(pom *st, const json_t *list, const char *what, bool plugin, const char *key,
                              const char *group)
{
        json_t *into = json_object_get(prc_md_details(st->md), key);

        for (size_t i = 0; list != NULL && i < prc_mx_nkids(list); i++) {
                const json_t *e = prc_mx_kid(list, i);

                if (json_is_object(e) && strcmp(prc_mx_local(e), what) == 0 &&
                    !emit_managed(st, e, what, plugin, into, group))
                        return false;
        }
        return true;
}

static bool emit_build(pom *st, const json_t *b, const char *profile)
{
        char grp[PRC_MD_STR_MAX + 64];

        for (size_t i = 0; i < prc_mx_nkids(b); i++) {
                const json_t *e = prc_mx_kid(b, i);
                const char *n = prc_mx_local(e);

                if (!json_is_object(e))
                        continue;
                if (strcmp(n, "plugins") == 0) {
                        snprintf(grp, sizeof(grp), "%s%.4000s", profile ? "plugin/" : "plugin",
                                 profile ? profile : "");
                        for (size_t j = 0; j < prc_mx_nkids(e); j++) {
                                const json_t *pl = prc_mx_kid(e, j);

                                if (!json_is_object(pl) || strcmp(prc_mx_local(pl), "plugin") != 0)
                                        continue;
                                if (!emit_dep(st, pl, "plugin", grp, K_PLUGIN) ||
                                    !emit_list(st, prc_mx_child(pl, "dependencies"), "dependency", grp,
                                               K_PLUGIN_DEP))
                                        return false;
                        }
                } else if (strcmp(n, "pluginManagement") == 0) {
                        if (!emit_managed_list(st, prc_mx_child(e, "plugins"), "plugin", true, "plugin_management",
                                               profile))
                                return false;
                } else if (strcmp(n, "extensions") == 0) {
                        if (!emit_list(st, e, "extension", "extension", K_EXTENSION))
                                return false;
                }
        }
        return true;
}

static bool emit_repos(pom *st, const json_t *list, const char *what, const char *scope)
{
        for (size_t i = 0; list != NULL && i < prc_mx_nkids(list); i++) {
                const json_t *r = prc_mx_kid(list, i);
                const char *id, *url, *urli, *unres;
                uint32_t line;

                if (!json_is_object(r) || strcmp(prc_mx_local(r), what) != 0)
                        continue;
                if (!text(st, r, "id", &id) || !text(st, r, "url", &url))
                        return false;
                line = locate(st, "url", url);
                if (url == NULL || *url == '\0') {
                        prc_err_set(st->err, PRC_E_EXTRACT_SHAPE, "a <%s> without <url>", what);
                        prc_err_set_line(st->err, prc_mx_line(&st->loc), 0);
                        return false;
                }
                if (!interpolate(st, url, &urli, &unres))
                        return false;
                if (!prc_md_add_registry(st->md, id, scope, urli, line, st->err))
                        return false;
                if (unres != NULL && !unresolved_note(st, "repository URL", url, unres, line))
                        return false;
        }
        return true;
}

static bool emit_deps_section(pom *st, const json_t *e, const char *n, const char *profile)
{
        if (strcmp(n, "dependencies") == 0)
                return emit_list(st, e, "dependency", profile, K_DEP);
        if (strcmp(n, "dependencyManagement") == 0)
                return emit_managed_list(st, prc_mx_child(e, "dependencies"), "dependency", false,
                                         "dependency_management", profile);
        if (strcmp(n, "build") == 0)
                return emit_build(st, e, profile);
        if (strcmp(n, "reporting") == 0)
                return emit_list(st, prc_mx_child(e, "plugins"), "plugin", "reporting", K_PLUGIN);
        if (strcmp(n, "repositories") == 0)
                return emit_repos(st, e, "repository", NULL);
        if (strcmp(n, "pluginRepositories") == 0)
                return emit_repos(st, e, "pluginRepository", "plugins");
        if (strcmp(n, "distributionManagement") == 0)
                return prc_md_not_extracted(st->md, "distributionManagement", "where the project publishes to, "
                                            "not where it gets dependencies from", prc_mx_line(&st->loc), st->err);
        return true;
}

static bool emit_profiles(pom *st, const json_t *profiles)
{
        json_t *ids = PRC_JGET(prc_md_details(st->md), "profiles");

        for (size_t i = 0; i < prc_mx_nkids(profiles); i++) {
                const json_t *p = prc_mx_kid(profiles, i);
                char grp[PRC_MD_STR_MAX + 16];
                const char *id;

                if (!json_is_object(p) || strcmp(prc_mx_local(p), "profile") != 0)
                        continue;
                if (!text(st, p, "id", &id))
                        return false;
                if (id == NULL)
                        id = "default";
                if (!prc_mx_list_str(ids, id, strlen(id), st->err))
                        return false;
                (void)locate(st, "id", id);
                snprintf(grp, sizeof(grp), "profile:%.4000s", id);
                for (size_t j = 0; j < prc_mx_nkids(p); j++) {
                        const json_t *e = prc_mx_kid(p, j);

                        if (!json_is_object(e))
                                continue;
                        if (strcmp(prc_mx_local(e), "properties") == 0 &&
                            !prc_md_not_extracted(st->md, grp, "a profile's properties apply only when it is active; "
                                                  "they are not used for interpolation", prc_mx_line(&st->loc),
                                                  st->err))
                                return false;
                        if (!emit_deps_section(st, e, prc_mx_local(e), grp))
                                return false;
                }
        }
        return true;
}

static bool pom_details(pom *st, const json_t *root, const char *model)
{
        json_t *d = prc_md_details(st->md), *mods = json_array(), *parent = json_null();
        const json_t *m = prc_mx_child(root, "modules");
        const char *packaging;

        if (mods == NULL || json_object_set_new(d, "modules", mods) != 0 ||
            json_object_set_new(d, "dependency_management", json_array()) != 0 ||
            json_object_set_new(d, "plugin_management", json_array()) != 0 ||
            json_object_set_new(d, "profiles", json_array()) != 0)
                return prc_err_oom(st->err, "details");
        if (!text(st, root, "packaging", &packaging) || !prc_md_set_str(d, "model_version", model, st->err) ||
            !prc_md_set_str(d, "packaging", packaging, st->err))
                return false;
        for (size_t i = 0; m != NULL && i < prc_mx_nkids(m); i++) {
                const char *t;

                if (!json_is_object(prc_mx_kid(m, i)))
                        continue;
                if (!prc_mx_text(prc_mx_kid(m, i), st->scratch, &t, st->err))
                        return false;
                if (!prc_mx_list_str(mods, t, strlen(t), st->err))
                        return false;
        }
        if (st->has_parent) {
                const json_t *pe = prc_mx_child(root, "parent");
                const char *rel;

                parent = json_object();
                if (parent == NULL || json_object_set_new(d, "parent", parent) != 0)
                        return prc_err_oom(st->err, "details");
                if (!text(st, pe, "relativePath", &rel) || !prc_md_set_str(parent, "group_id", st->pgid, st->err) ||
                    !prc_md_set_str(parent, "artifact_id", st->paid, st->err) ||
                    !prc_md_set_str(parent, "version", st->pver, st->err) ||
                    !prc_md_set_str(parent, "relative_path", rel, st->err) ||
                    !set_purl(parent, st->pgid, st->paid, prc_mx_maven_exact(st->pver) ? st->pver : NULL, NULL, NULL,
                              st->err))
                        return false;
                if (json_object_set_new(parent, "line", json_null()) != 0)
                        return prc_err_oom(st->err, "details");
        } else if (json_object_set_new(d, "parent", parent) != 0) {
                return prc_err_oom(st->err, "details");
        }
        return true;
}

json_t *prc_xm_pom(const prc_xin *in, prc_err *err)
{
        pom st = { .in = in, .err = err };
        json_t *doc = NULL, *md = NULL;
        const char *model = NULL, *gi, *ai, *vi, *gu, *au, *vu;
        uint32_t pkg_line = 0;

        doc = prc_mx_parse(in, "project", err);
        if (doc == NULL)
                return NULL;
        st.scratch = json_array();
        st.props = json_object();
        st.managed = json_object();
        st.pmanaged = json_object();
        if (st.scratch == NULL || st.props == NULL || st.managed == NULL || st.pmanaged == NULL) {
                prc_err_oom(err, "pom");
                goto fail;
        }
        prc_mx_loc_init(&st.loc, in, true);
        if (!prc_mx_child_text(doc, "modelVersion", st.scratch, &model, err))
                goto fail;
        /* 4.1.0 is Maven 4's model, a superset read here with the same elements. */
        if (model != NULL && strcmp(model, "4.0.0") != 0 && strcmp(model, "4.1.0") != 0) {
                prc_err_set(err, PRC_E_EXTRACT_VERSION, "modelVersion '%.64s' (prc reads 4.0.0 and 4.1.0)", model);
                prc_err_set_line(err, prc_x_find_line(in, "<modelVersion>", 1), 0);
                goto fail;
        }
        md = st.md = prc_md_new(in, FMT_POM, "maven", "manifest", err);
        if (md == NULL || !prepass(&st, doc) || !pom_details(&st, doc, model))
                goto fail;
        for (size_t i = 0; i < prc_mx_nkids(doc); i++) {
                const json_t *e = prc_mx_kid(doc, i);
                const char *n = prc_mx_local(e);

                if (!json_is_object(e))
                        continue;
                if (strcmp(n, "parent") == 0) {
                        uint32_t l = locate(&st, "artifactId", st.paid);

                        if (l > 0)
                                json_object_set_new(PRC_JGET(prc_md_details(md), "parent"), "line",
                                                    json_integer(l));
                } else if (strcmp(n, "artifactId") == 0) {
                        pkg_line = locate(&st, "artifactId", st.aid);
                } else if (strcmp(n, "profiles") == 0) {
                        if (!emit_profiles(&st, e))
                                goto fail;
                } else if (!emit_deps_section(&st, e, n, NULL)) {
                        goto fail;
                }
        }
        if (st.aid == NULL || *st.aid == '\0' || ((st.gid == NULL || *st.gid == '\0') &&
                                                  (st.pgid == NULL || *st.pgid == '\0'))) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a <project> without <artifactId>, or without <groupId> "
                            "of its own or of its <parent>");
                goto fail;
        }
        if (!interpolate(&st, st.gid != NULL ? st.gid : st.pgid, &gi, &gu) || !interpolate(&st, st.aid, &ai, &au) ||
            !interpolate(&st, st.ver != NULL ? st.ver : st.pver, &vi, &vu))
                goto fail;
        {
                char name[2 * PRC_MD_STR_MAX + 2];
                char *purl = NULL;
                bool ok;

                snprintf(name, sizeof(name), "%s:%s", gi, ai);
                if (gu == NULL && au == NULL) {
                        purl = prc_purl("maven", gi, ai, vu == NULL ? vi : NULL, NULL, NULL);
                        if (purl == NULL) {
                                prc_err_oom(err, "purl");
                                goto fail;
                        }
                }
                ok = prc_md_set_package(md, name, vi, purl, pkg_line, err);
                free(purl);
                if (!ok)
                        goto fail;
                if (vu != NULL && !unresolved_note(&st, "project version", st.ver ? st.ver : st.pver, vu, pkg_line))
                        goto fail;
        }
        json_decref(doc);
        json_decref(st.scratch);
        json_decref(st.props);
        json_decref(st.managed);
        json_decref(st.pmanaged);
        return md;
fail:
        json_decref(md);
        json_decref(doc);
        json_decref(st.scratch);
        json_decref(st.props);
        json_decref(st.managed);
        json_decref(st.pmanaged);
        return NULL;
}
