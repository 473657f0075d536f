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

static const char *const top_keys[] = { "schema", "path", "format", "ecosystem", "kind", "package", "dependencies",
                                        "hooks", "registries", "credentials", "not_extracted", "details", NULL };
static const char *const package_keys[] = { "name", "version", "purl", "line", NULL };
const char *const prc_md_dep_keys[] = { "name", "requirement", "resolved", "scope", "direct", "source",
                                       "integrity", "purl", "group", "line", "depends_on", NULL };
const char *const prc_md_source_keys[] = { "type", "url", "ref", "commit", NULL };
const char *const prc_md_integrity_keys[] = { "algorithm", "value", NULL };
const char *const prc_md_scopes[] = { "runtime", "dev", "optional", "peer", "build", "test", NULL };
const char *const prc_md_source_types[] = { "registry", "git", "url", "path", "workspace", NULL };
static const char *const hook_keys[] = { "name", "command", "line", NULL };
static const char *const registry_keys[] = { "name", "scope", "url", "line", NULL };
static const char *const credential_keys[] = { "key", "line", NULL };
static const char *const not_extracted_keys[] = { "what", "reason", "line", NULL };

enum { NULLABLE = 1, LONG = 2, NONEMPTY = 4 };

/*
 * Where a value is: a list entry's fields, and its source's or integrity's,
 * named by parts.  The JSON pointer is made only when a check fails: made
 * for every field, it was a sixth of the parent's instructions in
 * `prc sbom` on the corpus (an snprintf per field of 23,000 dependencies).
 */
struct at {
        const char *list;       /* "dependencies", "package", ..., or NULL: the document */
        size_t      idx;        /* the entry's index in list, or NO_INDEX */
        const char *sub;        /* "source", "integrity", or NULL */
};

#define NO_INDEX SIZE_MAX

static const struct at top = { NULL, NO_INDEX, NULL };

static void at_ptr(const struct at *a, const char *key, char *out, size_t cap)
{
        out[0] = '\0';
        if (a->list != NULL)
                prc_jptr_push(out, cap, a->list);
        if (a->idx != NO_INDEX)
                prc_jptr_index(out, cap, a->idx);
        if (a->sub != NULL)
                prc_jptr_push(out, cap, a->sub);
        if (key != NULL)
                prc_jptr_push(out, cap, key);
}

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

/* bad() at a's key (NULL: at a itself). */
static bool bad_at(prc_err *err, const struct at *a, const char *key, const char *fmt, ...) PRC_PRINTF(4, 5);
static bool bad_at(prc_err *err, const struct at *a, const char *key, const char *fmt, ...)
{
        char msg[200], p[128];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        at_ptr(a, key, p, sizeof(p));
        return bad(err, p, "%s", msg);
}

/*
 * obj is an object with exactly the nkeys keys; vals[i] is keys[i]'s value.
 * The first unknown key (in the object's order) is named, else the first
 * missing one (in keys' order).  A member is looked for where the last one
 * was found, plus one: an extractor writes its keys in one order.
 */
static bool take_keys(const json_t *obj, const struct at *a, const char *const *keys, size_t nkeys,
                      const json_t **vals, prc_err *err)
{
        size_t next = 0;

        if (!json_is_object(obj))
                return bad_at(err, a, NULL, "expected an object");
        memset(vals, 0, nkeys * sizeof(*vals));
        /* The iterator itself, not json_object_foreach: that macro turns the key back into an iterator twice. */
        for (void *it = json_object_iter((json_t *)obj); it != NULL; it = json_object_iter_next((json_t *)obj, it)) {
                const char *k = json_object_iter_key(it);
                size_t i = next, tries = 0;

                while (tries < nkeys && strcmp(k, keys[i]) != 0) {
                        i = i + 1 == nkeys ? 0 : i + 1;
                        tries++;
                }
                if (tries == nkeys)
                        return bad_at(err, a, NULL, "unknown key \"%.64s\"", k);
                vals[i] = json_object_iter_value(it);
                next = i + 1 == nkeys ? 0 : i + 1;
        }
        for (size_t i = 0; i < nkeys; i++)
                if (vals[i] == NULL)
                        return bad_at(err, a, NULL, "missing key \"%s\"", keys[i]);
        return true;
}

/* Member v (a's key): a string (or null with NULLABLE), at most PRC_MD_STR_MAX bytes unless LONG, in list if given. */
static bool str_val(const json_t *v, const struct at *a, const char *key, unsigned how, const char *const *list,
                    prc_err *err)
{
        const char *s;
        size_t n;

        if (json_is_null(v) && (how & NULLABLE))
                return true;
        if (!json_is_string(v))
                return bad_at(err, a, key, (how & NULLABLE) ? "expected a string or null" : "expected a string");
        s = json_string_value(v);
        n = json_string_length(v);
        if (!(how & LONG) && n > PRC_MD_STR_MAX)
                return bad_at(err, a, key, "a string of %zu bytes (the limit is %u)", n, PRC_MD_STR_MAX);
        if ((how & NONEMPTY) && n == 0)
                return bad_at(err, a, key, "an empty string");
        if (memchr(s, 0, n) != NULL)
                return bad_at(err, a, key, "a string with NUL");
        if (list != NULL && !prc_strv_has(list, s))
                return bad_at(err, a, key, "\"%.64s\" is not one of the values the schema allows", s);
        return true;
}

static bool line_val(const json_t *v, const struct at *a, prc_err *err)
{
        if (json_is_null(v))
                return true;
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > UINT32_MAX)
                return bad_at(err, a, "line", "a line is an integer from 1 or null");
        return true;
}

static bool purl_val(const json_t *v, const struct at *a, prc_err *err)
{
        if (!str_val(v, a, "purl", NULLABLE, NULL, err))
                return false;
        if (json_is_string(v) && strncmp(json_string_value(v), "pkg:", 4) != 0)
                return bad_at(err, a, "purl", "a purl starts with \"pkg:\"");
        return true;
}

/* The members of one list entry or object, by their index in its key list. */
enum { PK_NAME, PK_VERSION, PK_PURL, PK_LINE, PK_N };
enum { HK_NAME, HK_COMMAND, HK_LINE, HK_N };
enum { RK_NAME, RK_SCOPE, RK_URL, RK_LINE, RK_N };
enum { CK_KEY, CK_LINE, CK_N };
enum { XK_WHAT, XK_REASON, XK_LINE, XK_N };
_Static_assert(PRC_ARRAY_LEN(package_keys) == PK_N + 1 && PRC_ARRAY_LEN(prc_md_dep_keys) == PRC_MD_DK_N + 1 &&
                       PRC_ARRAY_LEN(prc_md_source_keys) == PRC_MD_SK_N + 1 && PRC_ARRAY_LEN(prc_md_integrity_keys) == PRC_MD_IK_N + 1 &&
                       PRC_ARRAY_LEN(hook_keys) == HK_N + 1 && PRC_ARRAY_LEN(registry_keys) == RK_N + 1 &&
                       PRC_ARRAY_LEN(credential_keys) == CK_N + 1 && PRC_ARRAY_LEN(not_extracted_keys) == XK_N + 1,
               "a key list and its index names differ");

static bool check_package(const json_t *pkg, prc_err *err)
{
        static const struct at a = { "package", NO_INDEX, NULL };
        const json_t *m[PK_N];

        if (json_is_null(pkg))
                return true;
        return take_keys(pkg, &a, package_keys, PK_N, m, err) &&
               str_val(m[PK_NAME], &a, "name", NULLABLE, NULL, err) &&
               str_val(m[PK_VERSION], &a, "version", NULLABLE, NULL, err) && purl_val(m[PK_PURL], &a, err) &&
               line_val(m[PK_LINE], &a, err);
}

static bool check_dep(const json_t *d, const struct at *a, prc_err *err)
{
        const json_t *m[PRC_MD_DK_N], *s[PRC_MD_SK_N], *g[PRC_MD_IK_N];
        struct at sa = *a, ia = *a;

        if (!take_keys(d, a, prc_md_dep_keys, PRC_MD_DK_N, m, err) || !str_val(m[PRC_MD_DK_NAME], a, "name", NONEMPTY, NULL, err) ||
            !str_val(m[PRC_MD_DK_REQUIREMENT], a, "requirement", NULLABLE, NULL, err) ||
            !str_val(m[PRC_MD_DK_RESOLVED], a, "resolved", NULLABLE, NULL, err) ||
            !str_val(m[PRC_MD_DK_SCOPE], a, "scope", 0, prc_md_scopes, err) || !purl_val(m[PRC_MD_DK_PURL], a, err) ||
            !str_val(m[PRC_MD_DK_GROUP], a, "group", NULLABLE, NULL, err) || !line_val(m[PRC_MD_DK_LINE], a, err))
                return false;
        if (!json_is_boolean(m[PRC_MD_DK_DIRECT]))
                return bad_at(err, a, "direct", "expected true or false");
        sa.sub = "source";
        if (!take_keys(m[PRC_MD_DK_SOURCE], &sa, prc_md_source_keys, PRC_MD_SK_N, s, err) ||
            !str_val(s[PRC_MD_SK_TYPE], &sa, "type", 0, prc_md_source_types, err) ||
            !str_val(s[PRC_MD_SK_URL], &sa, "url", NULLABLE, NULL, err) ||
            !str_val(s[PRC_MD_SK_REF], &sa, "ref", NULLABLE, NULL, err) ||
            !str_val(s[PRC_MD_SK_COMMIT], &sa, "commit", NULLABLE, NULL, err))
                return false;
        if (json_is_null(m[PRC_MD_DK_INTEGRITY]))
                return true;
        ia.sub = "integrity";
        return take_keys(m[PRC_MD_DK_INTEGRITY], &ia, prc_md_integrity_keys, PRC_MD_IK_N, g, err) &&
               str_val(g[PRC_MD_IK_ALGORITHM], &ia, "algorithm", NONEMPTY, NULL, err) &&
               str_val(g[PRC_MD_IK_VALUE], &ia, "value", NONEMPTY, NULL, err);
}

/* Every depends_on: null, or indexes of other dependencies, ascending; PRC_MD_EDGES_MAX in all. */
static bool check_edges(const json_t *md, prc_err *err)
{
        const json_t *deps = PRC_JGET(md, "dependencies"), *d, *a, *v;
        size_t i, k, n = json_array_size(deps), total = 0;

        json_array_foreach(deps, i, d) {
                struct at at = { "dependencies", i, NULL };
                json_int_t prev = -1;

                a = PRC_JGET(d, "depends_on");
                if (json_is_null(a))
                        continue;
                if (!json_is_array(a))
                        return bad_at(err, &at, "depends_on", "expected an array or null");
                total += json_array_size(a);
                if (total > PRC_MD_EDGES_MAX)
                        return bad_at(err, &at, "depends_on", "more than %u edges in the document",
                                      PRC_MD_EDGES_MAX);
                json_array_foreach(a, k, v) {
                        json_int_t x = json_integer_value(v);
                        if (!json_is_integer(v) || x < 0 || (size_t)x >= n || (size_t)x == i)
                                return bad_at(err, &at, "depends_on", "an edge is the index of another dependency");
                        if (x <= prev)
                                return bad_at(err, &at, "depends_on", "edges are ascending and unique");
                        prev = x;
                }
        }
        return true;
}

typedef bool (*item_fn)(const json_t *item, const struct at *a, prc_err *err);

static bool check_hook(const json_t *h, const struct at *a, prc_err *err)
{
        const json_t *m[HK_N];

        return take_keys(h, a, hook_keys, HK_N, m, err) && str_val(m[HK_NAME], a, "name", NONEMPTY, NULL, err) &&
               str_val(m[HK_COMMAND], a, "command", LONG, NULL, err) && line_val(m[HK_LINE], a, err);
}

static bool check_registry(const json_t *r, const struct at *a, prc_err *err)
{
        const json_t *m[RK_N];

        return take_keys(r, a, registry_keys, RK_N, m, err) &&
               str_val(m[RK_NAME], a, "name", NULLABLE, NULL, err) &&
               str_val(m[RK_SCOPE], a, "scope", NULLABLE, NULL, err) &&
               str_val(m[RK_URL], a, "url", 0, NULL, err) && line_val(m[RK_LINE], a, err);
}

static bool check_credential(const json_t *c, const struct at *a, prc_err *err)
{
        const json_t *m[CK_N];

        return take_keys(c, a, credential_keys, CK_N, m, err) && str_val(m[CK_KEY], a, "key", NONEMPTY, NULL, err) &&
               line_val(m[CK_LINE], a, err);
}

static bool check_not_extracted(const json_t *x, const struct at *a, prc_err *err)
{
        const json_t *m[XK_N];

        return take_keys(x, a, not_extracted_keys, XK_N, m, err) &&
               str_val(m[XK_WHAT], a, "what", NONEMPTY, NULL, err) &&
               str_val(m[XK_REASON], a, "reason", NONEMPTY, NULL, err) && line_val(m[XK_LINE], a, err);
}

static bool check_list(const json_t *a, const char *key, size_t max, item_fn fn, prc_err *err)
{
        struct at at = { key, NO_INDEX, NULL };
        const json_t *item;
        size_t i;

        if (!json_is_array(a))
                return bad_at(err, &at, NULL, "expected an array");
        if (json_array_size(a) > max)
                return bad_at(err, &at, NULL, "%zu entries (the limit is %zu)", json_array_size(a), max);
        json_array_foreach(a, i, item) {
                at.idx = i;
                if (!fn(item, &at, err))
                        return false;
        }
        return true;
}

enum { TK_SCHEMA, TK_PATH, TK_FORMAT, TK_ECOSYSTEM, TK_KIND, TK_PACKAGE, TK_DEPENDENCIES, TK_HOOKS,
       TK_REGISTRIES, TK_CREDENTIALS, TK_NOT_EXTRACTED, TK_DETAILS, TK_N };
_Static_assert(PRC_ARRAY_LEN(top_keys) == TK_N + 1, "top_keys and its index names differ");

/* packed: md's dependencies are a table mdoc_pack.c made from checked values (ndeps of them), else NO_INDEX. */
static bool check_doc(const json_t *md, const char *path, const char *format, size_t packed, bool slim,
                      prc_err *err)
{
        const json_t *m[TK_N];
        const prc_extractor *x;
        const char *f;

        if (!take_keys(md, &top, top_keys, TK_N, m, err) || !str_val(m[TK_SCHEMA], &top, "schema", 0, NULL, err) ||
            !str_val(m[TK_PATH], &top, "path", 0, NULL, err) || !str_val(m[TK_FORMAT], &top, "format", 0, NULL, err) ||
            !str_val(m[TK_ECOSYSTEM], &top, "ecosystem", 0, ecosystems, err) ||
            !str_val(m[TK_KIND], &top, "kind", 0, kinds, err))
                return false;
        if (strcmp(json_string_value(m[TK_SCHEMA]), PRC_MD_SCHEMA) != 0)
                return bad(err, "/schema", "expected \"%s\"", PRC_MD_SCHEMA);
        if (path != NULL && strcmp(json_string_value(m[TK_PATH]), path) != 0)
                return bad(err, "/path", "not the path that was sent");
        f = json_string_value(m[TK_FORMAT]);
        if (format != NULL && strcmp(f, format) != 0)
                return bad(err, "/format", "\"%.64s\" is not the format that was asked for (%.64s)", f, format);
        x = prc_extractor_by_format(f);
        if (x == NULL)
                return bad(err, "/format", "\"%.64s\" is no extractor's format", f);
        if (strcmp(x->ecosystem, json_string_value(m[TK_ECOSYSTEM])) != 0 ||
            strcmp(x->kind, json_string_value(m[TK_KIND])) != 0)
                return bad(err, "/ecosystem", "ecosystem and kind are not those of format %s (%s, %s)", x->format,
                           x->ecosystem, x->kind);
        if (!json_is_object(m[TK_DETAILS]))
                return bad(err, "/details", "expected an object");
        return check_package(m[TK_PACKAGE], err) &&
               (packed != NO_INDEX ||
                (check_list(m[TK_DEPENDENCIES], "dependencies", PRC_MD_DEPS_MAX, check_dep, err) &&
                 check_edges(md, err))) &&
               check_list(m[TK_HOOKS], "hooks", PRC_MD_LIST_MAX, check_hook, err) &&
               check_list(m[TK_REGISTRIES], "registries", PRC_MD_LIST_MAX, check_registry, err) &&
               check_list(m[TK_CREDENTIALS], "credentials", PRC_MD_LIST_MAX, check_credential, err) &&
               check_list(m[TK_NOT_EXTRACTED], "not_extracted", PRC_MD_LIST_MAX, check_not_extracted, err) &&
               (slim ? prc_mdoc_details_check_slim_n
                     : prc_mdoc_details_check_n)(md, packed != NO_INDEX ? packed : json_array_size(m[TK_DEPENDENCIES]),
                                                 err);
}

bool prc_mdoc_check(const json_t *md, const char *path, const char *format, prc_err *err)
{
        return check_doc(md, path, format, NO_INDEX, false, err);
}

bool prc_mdoc_check_packed(const json_t *md, size_t ndeps, const char *path, const char *format, prc_err *err)
{
        return check_doc(md, path, format, ndeps, false, err);
}

_Static_assert(PRC_MDOC_DEPS_ARRAY == NO_INDEX, "the array's mark is check_doc's own");

bool prc_mdoc_check_slim(const json_t *md, size_t ndeps, const char *path, const char *format, prc_err *err)
{
        return check_doc(md, path, format, ndeps, true, err);
}
