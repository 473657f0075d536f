/*
 * gradle.c - the Gradle half of the Java family (ecosystem "maven"):
 * gradle.lockfile and version catalogs (gradle/libs.versions.toml).
 * Trust: runs in the content worker on hostile bytes; the lockfile is read
 * here line by line after a size, NUL and UTF-8 check, the catalog through
 * prc_toml_parse with in->lim.  Gradle never runs: a version a platform, a
 * BOM or the build script sets stays unresolved and is listed in
 * not_extracted (docs/extraction/maven-nuget-gem.md).
 */
#include "content/extract/mng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/parsers/toml.h"

#define FMT_GLOCK   "gradle-lockfile"
#define FMT_CATALOG "gradle-version-catalog"

static bool ends_with(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- gradle.lockfile ---------------------------------------------------- */

bool prc_xm_gradle_lock_match(const char *path, const char *base)
{
        /* gradle.lockfile, buildscript-gradle.lockfile, settings-gradle.lockfile; Gradle 6's per-configuration files */
        return ends_with(base, "gradle.lockfile") ||
               (ends_with(base, ".lockfile") && strstr(path, "gradle/dependency-locks/") != NULL);
}

static bool conf_is(const char *c, size_t n, const char *prefix)
{
        size_t m = strlen(prefix);

        return n >= m && strncasecmp(c, prefix, m) == 0;
}

/* Scope from the configurations that locked the module (docs: the mapping). */
static const char *gradle_scope(const char *confs)
{
        bool any = false, all_test = true, all_build = true;

        for (const char *c = confs; *c != '\0';) {
                size_t n = strcspn(c, ",");

                if (n > 0) {
                        any = true;
                        if (!conf_is(c, n, "test") && memmem(c, n, "Test", 4) == NULL)
                                all_test = false;
                        if (!conf_is(c, n, "annotationProcessor") && !conf_is(c, n, "kapt") &&
                            !conf_is(c, n, "ksp") && !conf_is(c, n, "classpath") &&
                            memmem(c, n, "AnnotationProcessor", 19) == NULL)
                                all_build = false;
                }
                c += n + (c[n] == ',');
        }
        if (!any)
                return "runtime";
        return all_test ? "test" : all_build ? "build" : "runtime";
}

json_t *prc_xm_gradle_lock(const prc_xin *in, prc_err *err)
{
        json_t *md, *empty;
        size_t off = 0, n;
        const char *s;
        uint32_t line = 0;
        char buf[3 * PRC_MD_STR_MAX + 8];

        if (!prc_mx_check_text(in, err))
                return NULL;
        md = prc_md_new(in, FMT_GLOCK, "maven", "lockfile", err);
        if (md == NULL)
                return NULL;
        empty = json_array();
        if (empty == NULL || json_object_set_new(prc_md_details(md), "empty_configurations", empty) != 0 ||
            json_object_set_new(prc_md_details(md), "direct_known", json_false()) != 0) {
                prc_err_oom(err, "gradle lockfile");
                goto fail;
        }
        while (prc_mx_next_line(in, &off, &s, &n)) {
                char *eq, *c1, *c2, *confs;
                json_t *d;
                char *purl;
                bool ok;

                line++;
                while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
                        n--;
                if (n == 0 || s[0] == '#')
                        continue;
                if (n >= sizeof(buf)) {
                        prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a lockfile line of %zu bytes", n);
                        goto at_line;
                }
                memcpy(buf, s, n);
                buf[n] = '\0';
                eq = strchr(buf, '=');
                confs = eq != NULL ? eq + 1 : buf + n;
                if (eq != NULL)
                        *eq = '\0';
                if (strcmp(buf, "empty") == 0) {
                        for (char *c = confs; *c != '\0';) {
                                size_t m = strcspn(c, ",");

                                if (m > 0 && !prc_mx_list_str(empty, c, m, err))
                                        goto at_line;
                                c += m + (c[m] == ',');
                        }
                        continue;
                }
                c1 = strchr(buf, ':');
                c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
                if (c1 == NULL || c2 == NULL || strchr(c2 + 1, ':') != NULL || c1 == buf || c2 == c1 + 1 ||
                    c2[1] == '\0') {
                        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a lockfile line that is not group:artifact:version");
                        goto at_line;
                }
                *c2 = '\0';
                d = prc_md_add_dep(md, buf, gradle_scope(confs), false, line, err);
                if (d == NULL || !prc_md_set_str(d, "resolved", c2 + 1, err) ||
                    !prc_md_set_str(d, "group", *confs != '\0' ? confs : NULL, err))
                        goto at_line;
                *c1 = '\0';
                purl = prc_purl("maven", buf, c1 + 1, c2 + 1, NULL, NULL);
                if (purl == NULL) {
                        prc_err_oom(err, "purl");
                        goto fail;
                }
                ok = prc_md_set_str(d, "purl", purl, err);
                free(purl);
                if (!ok)
                        goto at_line;
        }
        return md;
at_line:
        prc_err_set_line(err, line, 0);
fail:
        json_decref(md);
        return NULL;
}

/* ---- gradle/libs.versions.toml ------------------------------------------ */

bool prc_xm_catalog_match(const char *path, const char *base)
{
        (void)path;
        return ends_with(base, ".versions.toml");
}

/*
 * TOML keeps no positions: a forward-only cursor over lines finds where each
 * key of a table is written (bare or quoted), in document order, which is
 * the order the parsed tables keep.  Lines scanned are budgeted (a multiple
 * of the file's lines) so misses cannot make this quadratic.
 */
typedef struct tcur {
        const prc_xin *in;
        size_t         off;             /* start of the line after the last hit */
        uint32_t       line;            /* the line at off */
        uint64_t       budget;          /* lines that may still be scanned */
} tcur;

static void tcur_init(tcur *t, const prc_xin *in, uint32_t from)
{
        size_t n;
        const char *s;

        t->in = in;
        t->off = 0;
        t->line = 1;
        t->budget = 0;
        for (size_t i = 0; i < in->n; i++)
                t->budget += in->p[i] == '\n';
        t->budget = 64 * (t->budget + 1);
        while (t->line < from && prc_mx_next_line(in, &t->off, &s, &n))
                t->line++;
}

static uint32_t toml_key_line(tcur *t, const char *key)
{
        size_t off = t->off, n, kl = strlen(key);
        const char *s;
        uint32_t line = t->line;

        while (t->budget > 0 && prc_mx_next_line(t->in, &off, &s, &n)) {
                size_t i = 0;
                bool hit = false;

                t->budget--;
                while (i < n && (s[i] == ' ' || s[i] == '\t'))
                        i++;
                if (i < n && (s[i] == '"' || s[i] == '\''))
                        hit = n - i > kl + 1 && memcmp(s + i + 1, key, kl) == 0 && s[i + 1 + kl] == s[i];
                else
                        hit = n - i >= kl && memcmp(s + i, key, kl) == 0 &&
                              (n - i == kl || strchr(" \t=.", s[i + kl]) != NULL);
                if (hit) {
                        t->off = off;
                        t->line = line + 1;
                        return line;
                }
                line++;
        }
        return 0;
}

typedef struct catalog {
        const prc_xin *in;
        json_t        *md;
        prc_err       *err;
        const json_t  *versions;
} catalog;

/* An extract-shape refusal at line; always false. */
static bool at_line(prc_err *err, uint32_t line)
{
        prc_err_set_line(err, line, 0);
        return false;
}
#define shape(err, line, ...) (prc_err_set((err), PRC_E_EXTRACT_SHAPE, __VA_ARGS__) || at_line((err), (line)))

/*
 * A catalog version: a string, {ref = "x"} (also written version.ref), or a
 * rich version {strictly, require, prefer, reject}.  *req is what the file
 * writes, *res the exact version when it pins one.
 */
static bool catalog_version(catalog *c, const char *alias, const json_t *v, uint32_t line, const char **req,
                            const char **res, unsigned depth)
{
        static const char *const rich[] = { "strictly", "require", "prefer" };

        *req = *res = NULL;
        if (v == NULL)
                return true;
        if (json_is_string(v)) {
                *req = json_string_value(v);
                *res = prc_mx_maven_exact(*req) ? *req : NULL;
                return true;
        }
        if (!json_is_object(v))
                return shape(c->err, line, "the version of '%.200s' is neither a string nor a table", alias);
        if (PRC_JGET(v, "ref") != NULL) {
                const json_t *r = PRC_JGET(v, "ref"), *to;

                if (!json_is_string(r))
                        return shape(c->err, line, "the version.ref of '%.200s' is not a string", alias);
                to = json_object_get(c->versions, json_string_value(r));
                if (to == NULL || depth > 0) {
                        char what[PRC_MD_STR_MAX + 32];

                        snprintf(what, sizeof(what), "version of %.4000s", alias);
                        return prc_md_not_extracted(c->md, what, "version.ref names no entry of [versions]", line,
                                                    c->err);
                }
                return catalog_version(c, alias, to, line, req, res, depth + 1);
        }
        for (size_t i = 0; i < PRC_ARRAY_LEN(rich); i++) {
                const json_t *x = json_object_get(v, rich[i]);

                if (x == NULL)
                        continue;
                if (!json_is_string(x))
                        return shape(c->err, line, "a rich version of '%.200s' that is not a string", alias);
                if (*req == NULL)
                        *req = json_string_value(x);
                /* prefer is a wish another constraint may override: only strictly/require pin */
                if (*res == NULL && i < 2 && prc_mx_maven_exact(json_string_value(x)))
                        *res = json_string_value(x);
        }
        return true;
}

static bool catalog_dep(catalog *c, const char *alias, const char *g, const char *a, const char *req,
                        const char *res, const char *scope, const char *group, uint32_t line)
{
        char name[2 * PRC_MD_STR_MAX + 2];
        json_t *d;
        char *purl;
        bool ok;

        if (strlen(g) + strlen(a) + 2 > sizeof(name))
                return prc_err_set(c->err, PRC_E_EXTRACT_LIMIT, "a library name over %u bytes", PRC_MD_STR_MAX);
        snprintf(name, sizeof(name), "%.4096s:%.4096s", g, a);
        d = prc_md_add_dep(c->md, name, scope, true, line, c->err);
        if (d == NULL || !prc_md_set_str(d, "requirement", req, c->err) ||
            !prc_md_set_str(d, "resolved", res, c->err) || !prc_md_set_str(d, "group", group, c->err))
                return false;
        purl = prc_purl("maven", g, a, res, NULL, NULL);
        if (purl == NULL)
                return prc_err_oom(c->err, "purl");
        ok = prc_md_set_str(d, "purl", purl, c->err);
        free(purl);
        if (!ok)
                return false;
        /* The accessor name (libs.<alias>, libs.plugins.<alias>) -> its index in dependencies. */
        {
                char key[PRC_MD_STR_MAX + 16];
                json_t *aliases = PRC_JGET(prc_md_details(c->md), "aliases");

                snprintf(key, sizeof(key), "%s%.4000s", strcmp(scope, "build") == 0 ? "plugins." : "", alias);
                if (json_object_set_new(aliases, key,
                                        json_integer((json_int_t)json_array_size(json_object_get(c->md,
                                                                                                 "dependencies")) -
                                                     1)) != 0)
                        return prc_err_oom(c->err, "aliases");
        }
        return true;
}

static bool catalog_libraries(catalog *c, const json_t *libs, uint32_t from)
{
        const char *alias;
        const json_t *v;
        tcur t;

        tcur_init(&t, c->in, from);
        json_object_foreach((json_t *)libs, alias, v) {
                uint32_t line = toml_key_line(&t, alias);
                const char *req = NULL, *res = NULL;
                char buf[3 * PRC_MD_STR_MAX + 8];
                const char *g, *a;

                if (json_is_string(v)) {
                        /* "group:artifact:version" or "group:artifact" */
                        char *c1, *c2;

                        if (json_string_length(v) >= sizeof(buf))
                                return prc_err_set(c->err, PRC_E_EXTRACT_LIMIT, "a library over %u bytes",
                                                   PRC_MD_STR_MAX);
                        memcpy(buf, json_string_value(v), json_string_length(v) + 1);
                        c1 = strchr(buf, ':');
                        c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
                        if (c1 == NULL || c1 == buf || c1[1] == '\0' || c1 + 1 == c2 ||
                            (c2 != NULL && (c2[1] == '\0' || strchr(c2 + 1, ':') != NULL)))
                                return shape(c->err, line, "library '%.200s' is not group:artifact[:version]",
                                             alias);
                        *c1 = '\0';
                        if (c2 != NULL) {
                                *c2 = '\0';
                                req = c2 + 1;
                                res = prc_mx_maven_exact(req) ? req : NULL;
                        }
                        g = buf;
                        a = c1 + 1;
                } else if (json_is_object(v)) {
                        const json_t *mod = PRC_JGET(v, "module"), *gr = PRC_JGET(v, "group"),
                                     *nm = PRC_JGET(v, "name");

                        if (mod != NULL) {
                                char *c1;

                                if (!json_is_string(mod) || json_string_length(mod) >= sizeof(buf))
                                        return shape(c->err, line, "the module of '%.200s' is not a string", alias);
                                memcpy(buf, json_string_value(mod), json_string_length(mod) + 1);
                                c1 = strchr(buf, ':');
                                if (c1 == NULL || c1 == buf || c1[1] == '\0' || strchr(c1 + 1, ':') != NULL)
                                        return shape(c->err, line, "the module of '%.200s' is not group:artifact",
                                                     alias);
                                *c1 = '\0';
                                g = buf;
                                a = c1 + 1;
                        } else if (json_is_string(gr) && json_is_string(nm)) {
                                g = json_string_value(gr);
                                a = json_string_value(nm);
                        } else {
                                return shape(c->err, line, "library '%.200s' has neither module nor group and name",
                                             alias);
                        }
                        if (!catalog_version(c, alias, PRC_JGET(v, "version"), line, &req, &res, 0))
                                return false;
                } else {
                        return shape(c->err, line, "library '%.200s' is neither a string nor a table", alias);
                }
                if (!catalog_dep(c, alias, g, a, req, res, "runtime", NULL, line))
                        return false;
                if (req == NULL && !prc_err_is_set(c->err)) {
                        char what[PRC_MD_STR_MAX + 32];

                        snprintf(what, sizeof(what), "version of %.4000s", alias);
                        if (!prc_md_not_extracted(c->md, what, "no version in the catalog: a platform, a BOM or the "
                                                  "build script sets it", line, c->err))
                                return false;
                }
        }
        return true;
}

static bool catalog_plugins(catalog *c, const json_t *plugins, uint32_t from)
{
        const char *alias;
        const json_t *v;
        tcur t;

        tcur_init(&t, c->in, from);
        json_object_foreach((json_t *)plugins, alias, v) {
                uint32_t line = toml_key_line(&t, alias);
                const char *req = NULL, *res = NULL, *id;
                char buf[2 * PRC_MD_STR_MAX + 32];

                if (json_is_string(v)) {
                        char *c1;

                        if (json_string_length(v) >= PRC_MD_STR_MAX)
                                return prc_err_set(c->err, PRC_E_EXTRACT_LIMIT, "a plugin over %u bytes",
                                                   PRC_MD_STR_MAX);
                        memcpy(buf, json_string_value(v), json_string_length(v) + 1);
                        c1 = strchr(buf, ':');
                        if (c1 != NULL) {
                                *c1 = '\0';
                                req = c1 + 1;
                                res = prc_mx_maven_exact(req) ? req : NULL;
                        }
                        id = buf;
                } else if (json_is_object(v) && json_is_string(PRC_JGET(v, "id"))) {
                        id = json_string_value(PRC_JGET(v, "id"));
                        if (!catalog_version(c, alias, PRC_JGET(v, "version"), line, &req, &res, 0))
                                return false;
                } else {
                        return shape(c->err, line, "plugin '%.200s' is neither \"id:version\" nor a table with id",
                                     alias);
                }
                if (*id == '\0' || strlen(id) > PRC_MD_STR_MAX)
                        return shape(c->err, line, "plugin '%.200s' has an empty or oversized id", alias);
                {
                        /* The plugin marker artifact: id:id.gradle.plugin, as the Plugin Portal serves it. */
                        char marker[PRC_MD_STR_MAX + 32];

                        snprintf(marker, sizeof(marker), "%.4096s.gradle.plugin", id);
                        if (!catalog_dep(c, alias, id, marker, req, res, "build", "plugin", line))
                                return false;
                }
        }
        return true;
}

json_t *prc_xm_catalog(const prc_xin *in, prc_err *err)
{
        static const char *const known[] = { "versions", "libraries", "bundles", "plugins" };
        catalog c = { .in = in, .err = err };
        json_t *doc, *md = NULL, *bundles;
        const char *key;
        json_t *v;

        doc = prc_toml_parse(in->p, in->n, in->lim, 0, err);
        if (doc == NULL)
                return NULL;
        md = c.md = prc_md_new(in, FMT_CATALOG, "maven", "manifest", err);
        if (md == NULL)
                goto fail;
        if (json_object_set_new(prc_md_details(md), "aliases", json_object()) != 0) {
                prc_err_oom(err, "aliases");
                goto fail;
        }
        json_object_foreach(doc, key, v) {
                bool ok = false;

                for (size_t i = 0; i < PRC_ARRAY_LEN(known); i++)
                        ok |= strcmp(key, known[i]) == 0;
                if (!json_is_object(v) && ok) {
                        (void)shape(err, prc_x_find_line(in, key, 1), "[%.64s] is not a table", key);
                        goto fail;
                }
                if (!ok && !prc_md_not_extracted(md, key, "not a section of a Gradle version catalog",
                                                 prc_x_find_line(in, key, 1), err))
                        goto fail;
        }
        c.versions = PRC_JGET(doc, "versions");
        {
                char hdr[32];
                uint32_t from;

                snprintf(hdr, sizeof(hdr), "[libraries]");
                from = prc_x_find_line(in, hdr, 1);
                if (PRC_JGET(doc, "libraries") != NULL &&
                    !catalog_libraries(&c, PRC_JGET(doc, "libraries"), from ? from : 1))
                        goto fail;
                from = prc_x_find_line(in, "[plugins]", 1);
                if (PRC_JGET(doc, "plugins") != NULL &&
                    !catalog_plugins(&c, PRC_JGET(doc, "plugins"), from ? from : 1))
                        goto fail;
        }
        bundles = PRC_JGET(doc, "bundles");
        if (bundles != NULL) {
                json_object_foreach(bundles, key, v) {
                        size_t i;
                        json_t *x;

                        if (!json_is_array(v)) {
                                (void)shape(err, prc_x_find_line(in, key, 1), "bundle '%.200s' is not a list", key);
                                goto fail;
                        }
                        json_array_foreach(v, i, x) {
                                if (!json_is_string(x) || json_string_length(x) > PRC_MD_STR_MAX) {
                                        (void)shape(err, prc_x_find_line(in, key, 1), "bundle '%.200s' lists a "
                                              "non-string", key);
                                        goto fail;
                                }
                        }
                }
                if (json_object_set(prc_md_details(md), "bundles", bundles) != 0) {
                        prc_err_oom(err, "bundles");
                        goto fail;
                }
        } else if (json_object_set_new(prc_md_details(md), "bundles", json_object()) != 0) {
                prc_err_oom(err, "bundles");
                goto fail;
        }
        json_decref(doc);
        return md;
fail:
        json_decref(md);
        json_decref(doc);
        return NULL;
}
