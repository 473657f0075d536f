/*
 * mdoc_check.c - strict shape check of a ManifestDoc read back from the
 * content worker (mdoc_check.h).  Mirrors schemas/manifest-doc.schema.json
 * key for key; tests/cli/test_extract.sh validates every extractor's
 * output against that schema and tests/unit/test_mdoc_check.c this file
 * against the same rules, so the two cannot drift apart unnoticed.
 * Trust: engine-side, on a document from a worker that may be compromised.
 */
#include "content/extract/mdoc_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/strv.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_details.h"

static const char *const ecosystems[] = { "npm", "pypi", "cargo", "golang", "maven", "composer", "gem", "nuget",
                                          "github-actions", "docker", NULL };
static const char *const kinds[] = { "manifest", "lockfile", "workflow", "action", "container", "registry-config",
                                     NULL };
static const char *const scopes[] = { "runtime", "dev", "optional", "peer", "build", "test", NULL };
static const char *const source_types[] = { "registry", "git", "url", "path", "workspace", NULL };

static const char *const top_keys[] = { "schema", "path", "format", "ecosystem", "kind", "package", "dependencies",
                                        "hooks", "registries", "credentials", "not_extracted", "details", NULL };
static const char *const package_keys[] = { "name", "version", "purl", "line", NULL };
static const char *const dep_keys[] = { "name", "requirement", "resolved", "scope", "direct", "source",
                                        "integrity", "purl", "group", "line", "depends_on", NULL };
static const char *const source_keys[] = { "type", "url", "ref", "commit", NULL };
static const char *const integrity_keys[] = { "algorithm", "value", NULL };
static const char *const hook_keys[] = { "name", "command", "line", NULL };
static const char *const registry_keys[] = { "name", "scope", "url", "line", NULL };
static const char *const credential_keys[] = { "key", "line", NULL };
static const char *const not_extracted_keys[] = { "what", "reason", "line", NULL };

enum { NULLABLE = 1, LONG = 2, NONEMPTY = 4 };

static bool bad(prc_err *err, const char *ptr, const char *fmt, ...) PRC_PRINTF(3, 4);
static bool bad(prc_err *err, const char *ptr, const char *fmt, ...)
{
        char msg[200];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_set(err, PRC_E_MANIFEST_DOC_INVALID, "ManifestDoc from the worker: %s", msg);
        prc_err_set_ptr(err, ptr[0] != '\0' ? ptr : "/");
        return false;
}


/* obj is an object with exactly keys. */
static bool exact_keys(const json_t *obj, const char *ptr, const char *const *keys, prc_err *err)
{
        const char *k;
        const json_t *v;

        if (!json_is_object(obj))
                return bad(err, ptr, "expected an object");
        json_object_foreach((json_t *)obj, k, v) {
                if (!prc_strv_has(keys, k))
                        return bad(err, ptr, "unknown key \"%.64s\"", k);
        }
        for (; *keys != NULL; keys++)
                if (json_object_get(obj, *keys) == NULL)
                        return bad(err, ptr, "missing key \"%s\"", *keys);
        return true;
}

static void child(char *out, size_t cap, const char *ptr, const char *key)
{
        snprintf(out, cap, "%s", ptr);
        prc_jptr_push(out, cap, key);
}

/* A string member (or null with NULLABLE), at most PRC_MD_STR_MAX bytes unless LONG, in list when given. */
static bool str_member(const json_t *obj, const char *ptr, const char *key, unsigned how, const char *const *list,
                       prc_err *err)
{
        const json_t *v = json_object_get(obj, key);
        char p[128];

        child(p, sizeof(p), ptr, key);
        if (json_is_null(v) && (how & NULLABLE))
                return true;
        if (!json_is_string(v))
                return bad(err, p, (how & NULLABLE) ? "expected a string or null" : "expected a string");
        if (!(how & LONG) && json_string_length(v) > PRC_MD_STR_MAX)
                return bad(err, p, "a string of %zu bytes (the limit is %u)", json_string_length(v), PRC_MD_STR_MAX);
        if ((how & NONEMPTY) && json_string_length(v) == 0)
                return bad(err, p, "an empty string");
        if (memchr(json_string_value(v), 0, json_string_length(v)) != NULL)
                return bad(err, p, "a string with NUL");
        if (list != NULL && !prc_strv_has(list, json_string_value(v)))
                return bad(err, p, "\"%.64s\" is not one of the values the schema allows", json_string_value(v));
        return true;
}

static bool line_member(const json_t *obj, const char *ptr, prc_err *err)
{
        const json_t *v = json_object_get(obj, "line");
        char p[128];

        child(p, sizeof(p), ptr, "line");
        if (json_is_null(v))
                return true;
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > UINT32_MAX)
                return bad(err, p, "a line is an integer from 1 or null");
        return true;
}

static bool purl_member(const json_t *obj, const char *ptr, prc_err *err)
{
        const json_t *v = json_object_get(obj, "purl");
        char p[128];

        if (!str_member(obj, ptr, "purl", NULLABLE, NULL, err))
                return false;
        child(p, sizeof(p), ptr, "purl");
        if (json_is_string(v) && strncmp(json_string_value(v), "pkg:", 4) != 0)
                return bad(err, p, "a purl starts with \"pkg:\"");
        return true;
}

static bool check_package(const json_t *pkg, prc_err *err)
{
        if (json_is_null(pkg))
                return true;
        return exact_keys(pkg, "/package", package_keys, err) &&
               str_member(pkg, "/package", "name", NULLABLE, NULL, err) &&
               str_member(pkg, "/package", "version", NULLABLE, NULL, err) && purl_member(pkg, "/package", err) &&
               line_member(pkg, "/package", err);
}

static bool check_dep(const json_t *d, const char *p, prc_err *err)
{
        const json_t *src, *integ;
        char sp[128];

        if (!exact_keys(d, p, dep_keys, err) || !str_member(d, p, "name", NONEMPTY, NULL, err) ||
            !str_member(d, p, "requirement", NULLABLE, NULL, err) ||
            !str_member(d, p, "resolved", NULLABLE, NULL, err) || !str_member(d, p, "scope", 0, scopes, err) ||
            !purl_member(d, p, err) || !str_member(d, p, "group", NULLABLE, NULL, err) || !line_member(d, p, err))
                return false;
        if (!json_is_boolean(json_object_get(d, "direct"))) {
                child(sp, sizeof(sp), p, "direct");
                return bad(err, sp, "expected true or false");
        }
        src = json_object_get(d, "source");
        child(sp, sizeof(sp), p, "source");
        if (!exact_keys(src, sp, source_keys, err) || !str_member(src, sp, "type", 0, source_types, err) ||
            !str_member(src, sp, "url", NULLABLE, NULL, err) || !str_member(src, sp, "ref", NULLABLE, NULL, err) ||
            !str_member(src, sp, "commit", NULLABLE, NULL, err))
                return false;
        integ = json_object_get(d, "integrity");
        child(sp, sizeof(sp), p, "integrity");
        if (json_is_null(integ))
                return true;
        return exact_keys(integ, sp, integrity_keys, err) && str_member(integ, sp, "algorithm", NONEMPTY, NULL, err) &&
               str_member(integ, sp, "value", NONEMPTY, NULL, err);
}

/* Every depends_on: null, or indexes of other dependencies, ascending; PRC_MD_EDGES_MAX in all. */
static bool check_edges(const json_t *md, prc_err *err)
{
        const json_t *deps = json_object_get(md, "dependencies"), *d, *a, *v;
        size_t i, k, n = json_array_size(deps), total = 0;
        char p[128];

        json_array_foreach(deps, i, d) {
                json_int_t prev = -1;

                a = json_object_get(d, "depends_on");
                snprintf(p, sizeof(p), "/dependencies");
                prc_jptr_index(p, sizeof(p), i);
                prc_jptr_push(p, sizeof(p), "depends_on");
                if (json_is_null(a))
                        continue;
                if (!json_is_array(a))
                        return bad(err, p, "expected an array or null");
                total += json_array_size(a);
                if (total > PRC_MD_EDGES_MAX)
                        return bad(err, p, "more than %u edges in the document", PRC_MD_EDGES_MAX);
                json_array_foreach(a, k, v) {
                        json_int_t x = json_integer_value(v);
                        if (!json_is_integer(v) || x < 0 || (size_t)x >= n || (size_t)x == i)
                                return bad(err, p, "an edge is the index of another dependency");
                        if (x <= prev)
                                return bad(err, p, "edges are ascending and unique");
                        prev = x;
                }
        }
        return true;
}

typedef bool (*item_fn)(const json_t *item, const char *ptr, prc_err *err);

static bool check_hook(const json_t *h, const char *p, prc_err *err)
{
        return exact_keys(h, p, hook_keys, err) && str_member(h, p, "name", NONEMPTY, NULL, err) &&
               str_member(h, p, "command", LONG, NULL, err) && line_member(h, p, err);
}

static bool check_registry(const json_t *r, const char *p, prc_err *err)
{
        return exact_keys(r, p, registry_keys, err) && str_member(r, p, "name", NULLABLE, NULL, err) &&
               str_member(r, p, "scope", NULLABLE, NULL, err) && str_member(r, p, "url", 0, NULL, err) &&
               line_member(r, p, err);
}

static bool check_credential(const json_t *c, const char *p, prc_err *err)
{
        return exact_keys(c, p, credential_keys, err) && str_member(c, p, "key", NONEMPTY, NULL, err) &&
               line_member(c, p, err);
}

static bool check_not_extracted(const json_t *x, const char *p, prc_err *err)
{
        return exact_keys(x, p, not_extracted_keys, err) && str_member(x, p, "what", NONEMPTY, NULL, err) &&
               str_member(x, p, "reason", NONEMPTY, NULL, err) && line_member(x, p, err);
}

static bool check_list(const json_t *md, const char *key, size_t max, item_fn fn, prc_err *err)
{
        const json_t *a = json_object_get(md, key), *item;
        char p[128], ip[128];
        size_t i;

        child(p, sizeof(p), "", key);
        if (!json_is_array(a))
                return bad(err, p, "expected an array");
        if (json_array_size(a) > max)
                return bad(err, p, "%zu entries (the limit is %zu)", json_array_size(a), max);
        json_array_foreach(a, i, item) {
                snprintf(ip, sizeof(ip), "%s", p);
                prc_jptr_index(ip, sizeof(ip), i);
                if (!fn(item, ip, err))
                        return false;
        }
        return true;
}

bool prc_mdoc_check(const json_t *md, const char *path, const char *format, prc_err *err)
{
        const prc_extractor *x;
        const char *f;

        if (!exact_keys(md, "", top_keys, err) || !str_member(md, "", "schema", 0, NULL, err) ||
            !str_member(md, "", "path", 0, NULL, err) || !str_member(md, "", "format", 0, NULL, err) ||
            !str_member(md, "", "ecosystem", 0, ecosystems, err) || !str_member(md, "", "kind", 0, kinds, err))
                return false;
        if (strcmp(json_string_value(json_object_get(md, "schema")), PRC_MD_SCHEMA) != 0)
                return bad(err, "/schema", "expected \"%s\"", PRC_MD_SCHEMA);
        if (path != NULL && strcmp(json_string_value(json_object_get(md, "path")), path) != 0)
                return bad(err, "/path", "not the path that was sent");
        f = json_string_value(json_object_get(md, "format"));
        if (format != NULL && strcmp(f, format) != 0)
                return bad(err, "/format", "\"%.64s\" is not the format that was asked for (%.64s)", f, format);
        x = prc_extractor_by_format(f);
        if (x == NULL)
                return bad(err, "/format", "\"%.64s\" is no extractor's format", f);
        if (strcmp(x->ecosystem, json_string_value(json_object_get(md, "ecosystem"))) != 0 ||
            strcmp(x->kind, json_string_value(json_object_get(md, "kind"))) != 0)
                return bad(err, "/ecosystem", "ecosystem and kind are not those of format %s (%s, %s)", x->format,
                           x->ecosystem, x->kind);
        if (!json_is_object(json_object_get(md, "details")))
                return bad(err, "/details", "expected an object");
        return check_package(json_object_get(md, "package"), err) &&
               check_list(md, "dependencies", PRC_MD_DEPS_MAX, check_dep, err) && check_edges(md, err) &&
               check_list(md, "hooks", PRC_MD_LIST_MAX, check_hook, err) &&
               check_list(md, "registries", PRC_MD_LIST_MAX, check_registry, err) &&
               check_list(md, "credentials", PRC_MD_LIST_MAX, check_credential, err) &&
               check_list(md, "not_extracted", PRC_MD_LIST_MAX, check_not_extracted, err) &&
               prc_mdoc_details_check(md, err);
}
