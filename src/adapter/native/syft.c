/*
 * syft.c - prc-adapter-syft-cyclonedx-json-v1 normalizer (issue 10; seed
 * 000; FORMATS.md section 2.2).
 * Trust: the document is hostile.  It must have exactly the envelope Syft
 * 1.51.0 writes for a dir: scan; every component, property, hash and
 * dependency is checked for shape; the result drops the per-run values
 * (serial number, timestamp, source bom-ref) and is canonically ordered, so
 * the same sealed inventory always gives the same bytes.
 */
#include "adapter/native/syft.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/path.h"

#define S PRC_JT_STRING
#define I PRC_JT_INT
#define O PRC_JT_OBJECT
#define A PRC_JT_ARRAY

enum { PROPS_MAX = 4096, DEPS_MAX = 100000 };

static const prc_field top_fields[] = {
        { "$schema", S, true }, { "bomFormat", S, true }, { "specVersion", S, true },
        { "serialNumber", S, true }, { "version", I, true }, { "metadata", O, true },
        { "components", A, true }, { "dependencies", A, false },
};
static const prc_field meta_fields[] = {
        { "timestamp", S, true }, { "tools", PRC_JT_ANY, true }, { "component", O, false },
        { "properties", A, false },
};
static const prc_field tool_fields[] = {
        { "type", S, true }, { "author", S, true }, { "name", S, true }, { "version", S, true },
};
/* no version or supplier: the scanner-owned command passes no --source-version / --source-supplier */
static const prc_field source_fields[] = {
        { "bom-ref", S, true }, { "type", S, true }, { "name", S, true },
};
static const prc_field comp_fields[] = {
        { "bom-ref", S, true }, { "type", S, true }, { "author", S, false },
        { "publisher", S, false }, { "group", S, false }, { "name", S, true }, { "version", S, false },
        { "description", S, false }, { "hashes", A | PRC_JT_NULL, false }, { "licenses", A, false },
        { "cpe", S, false }, { "purl", S, false }, { "swid", O, false }, { "externalReferences", A, false },
        { "properties", A, false },
};
static const prc_field prop_fields[] = { { "name", S, true }, { "value", S, true } };
static const prc_field hash_fields[] = { { "alg", S, true }, { "content", S, true } };
static const prc_field swid_fields[] = { { "tagId", S, true }, { "name", S, true }, { "version", S, false } };
static const prc_field extref_fields[] = {
        { "url", S, true }, { "type", S, true }, { "comment", S, false }, { "hashes", A, false },
};
static const prc_field dep_fields[] = { { "ref", S, true }, { "dependsOn", A, true } };

#define FIELDS(o, ptr, t) prc_native_fields(o, ptr, t, PRC_ARRAY_LEN(t), err)

static bool fail(prc_err *err, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(err, c, "%s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

static void sub(char *out, size_t cap, const char *base, const char *key)
{
        snprintf(out, cap, "%s", base);
        prc_jptr_push(out, cap, key);
}

static const char *str(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static bool hexn(const char *s, size_t n)
{
        size_t i;

        if (s == NULL || strlen(s) != n)
                return false;
        for (i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
                        return false;
        return true;
}

/* urn:uuid: + lowercase RFC 4122 version-4 UUID. */
static bool serial_ok(const char *s)
{
        static const char pre[] = "urn:uuid:";
        const char *u;
        size_t i;

        if (strncmp(s, pre, sizeof(pre) - 1) != 0 || strlen(s) != sizeof(pre) - 1 + 36)
                return false;
        u = s + sizeof(pre) - 1;
        for (i = 0; i < 36; i++) {
                bool dash = i == 8 || i == 13 || i == 18 || i == 23;
                if (dash ? u[i] != '-' : !hexn((char[]){ u[i], 0 }, 1))
                        return false;
        }
        return u[14] == '4' && strchr("89ab", u[19]) != NULL;
}

static bool printable(const char *s)
{
        for (; *s; s++)
                if ((unsigned char)*s <= 0x20 || *s == 0x7f)
                        return false;
        return true;
}

bool prc_purl_valid(const char *s)
{
        const char *p, *end;
        size_t n;

        if (s == NULL || strncmp(s, "pkg:", 4) != 0 || !printable(s) || strlen(s) > 4096)
                return false;
        p = s + 4;
        /* type: a letter, then letters, digits, '.', '+', '-' */
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
                return false;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
               *p == '+' || *p == '-')
                p++;
        if (*p != '/')
                return false;
        p++;
        /* namespace/name up to '@', '?' or '#'; no empty segment, name non-empty */
        end = p + strcspn(p, "@?#");
        if (end == p || *p == '/' || end[-1] == '/' || memmem(p, (size_t)(end - p), "//", 2) != NULL)
                return false;
        p = end;
        if (*p == '@') {
                n = strcspn(p + 1, "?#");
                if (n == 0)
                        return false;
                p += 1 + n;
        }
        if (*p == '?') {
                /* key=value pairs joined by '&', keys non-empty */
                p++;
                for (;;) {
                        size_t k = strcspn(p, "=&#"), v;
                        if (k == 0 || p[k] != '=')
                                return false;
                        v = strcspn(p + k + 1, "&#");
                        if (v == 0)
                                return false;
                        p += k + 1 + v;
                        if (*p != '&')
                                break;
                        p++;
                }
        }
        if (*p == '#')
                return p[1] != '\0';
        return *p == '\0';
}

/* bom-ref of a package: 16 hex, or its PURL with a package-id=<16 hex> qualifier added. */
static bool pkg_ref_ok(const char *ref)
{
        const char *q;

        if (hexn(ref, 16))
                return true;
        if (!prc_purl_valid(ref))
                return false;
        q = strstr(ref, "package-id=");
        return q != NULL && (q[-1] == '?' || q[-1] == '&') && strspn(q + 11, "0123456789abcdef") == 16 && (q[27] == '\0' || q[27] == '&' || q[27] == '#');
}

/* A dir-source location: rooted at the scan root with a leading '/', inside it, outside .prc/. */
static bool location_ok(const char *v)
{
        prc_err e2;

        prc_err_init(&e2);
        return v[0] == '/' && prc_path_check_str(v + 1, &e2) && strncmp(v + 1, ".prc/", 5) != 0;
}

/* "syft:location:<i>:path" */
static bool is_location_path(const char *name)
{
        static const char pre[] = "syft:location:";
        size_t d;

        if (strncmp(name, pre, sizeof(pre) - 1) != 0)
                return false;
        d = strspn(name + sizeof(pre) - 1, "0123456789");
        return d > 0 && strcmp(name + sizeof(pre) - 1 + d, ":path") == 0;
}

/*
 * The sealed-inventory binding (ctx.paths given): the snapshot holds exactly
 * the inventory's regular files plus the excluded .prc/, so every path Syft
 * reports must be one of them.  "/x" -> the inventory entry of "x" or NULL.
 */
static const json_t *inv_entry(const json_t *paths, const char *v)
{
        return json_object_get(paths, v + 1);
}

static bool check_props(const json_t *props, const char *ptr, const json_t *paths, prc_err *err)
{
        size_t i;
        const json_t *v;
        char p[128];

        if (json_array_size(props) > PROPS_MAX)
                return fail(err, PRC_E_NATIVE_COUNT_LIMIT, ptr, "too many properties");
        json_array_foreach(props, i, v) {
                snprintf(p, sizeof(p), "%s", ptr);
                prc_jptr_index(p, sizeof(p), i);
                if (!FIELDS(v, p, prop_fields))
                        return false;
                if (strncmp(str(v, "name"), "syft:", 5) != 0 || str(v, "value")[0] == '\0')
                        return fail(err, PRC_E_NATIVE_COMPONENT, p, "a property that syft does not write");
                if (is_location_path(str(v, "name")) && !location_ok(str(v, "value")))
                        return fail(err, PRC_E_NATIVE_PATH_OUTSIDE, p, "a location outside the snapshot");
                if (is_location_path(str(v, "name")) && paths != NULL && inv_entry(paths, str(v, "value")) == NULL)
                        return fail(err, PRC_E_NATIVE_PATH_OUTSIDE, p,
                                    "a location that is not in the sealed inventory");
        }
        return true;
}

static bool check_hashes(const json_t *hs, const char *ptr, prc_err *err)
{
        static const struct { const char *alg; size_t hex; } algs[] = {
                { "MD5", 32 }, { "SHA-1", 40 }, { "SHA-256", 64 }, { "SHA-384", 96 }, { "SHA-512", 128 },
                { "BLAKE2b-256", 64 }, { "BLAKE2b-384", 96 }, { "BLAKE2b-512", 128 }, { "BLAKE3", 64 },
        };
        size_t i, k;
        const json_t *v;
        char p[128];

        json_array_foreach(hs, i, v) {
                snprintf(p, sizeof(p), "%s", ptr);
                prc_jptr_index(p, sizeof(p), i);
                if (!FIELDS(v, p, hash_fields))
                        return false;
                for (k = 0; k < PRC_ARRAY_LEN(algs); k++)
                        if (strcmp(algs[k].alg, str(v, "alg")) == 0)
                                break;
                if (k == PRC_ARRAY_LEN(algs) || !hexn(str(v, "content"), algs[k].hex))
                        return fail(err, PRC_E_NATIVE_COMPONENT, p, "a malformed hash");
        }
        return true;
}

static bool check_licenses(const json_t *ls, const char *ptr, prc_err *err)
{
        size_t i;
        const json_t *v;
        char p[128];

        json_array_foreach(ls, i, v) {
                const json_t *l = json_object_get(v, "license");
                snprintf(p, sizeof(p), "%s", ptr);
                prc_jptr_index(p, sizeof(p), i);
                if (!json_is_object(v) || json_object_size(v) != 1 ||
                    (l == NULL && !json_is_string(json_object_get(v, "expression"))) ||
                    (l != NULL && (!json_is_object(l) || (!json_is_string(json_object_get(l, "id")) &&
                                                          !json_is_string(json_object_get(l, "name"))))))
                        return fail(err, PRC_E_NATIVE_COMPONENT, p, "a malformed license");
        }
        return true;
}

/* A file component's SHA-256 (when Syft computed one) must be the inventory's digest of that file. */
static bool file_bound(const json_t *c, const char *ptr, const json_t *paths, prc_err *err)
{
        const json_t *e = inv_entry(paths, str(c, "name")), *h;
        size_t i;

        if (e == NULL)
                return fail(err, PRC_E_NATIVE_PATH_OUTSIDE, ptr,
                            "a file component that is not in the sealed inventory");
        json_array_foreach(json_object_get(c, "hashes"), i, h) {
                char p[128];
                if (strcmp(str(h, "alg"), "SHA-256") != 0 || !json_is_string(e) ||
                    strcmp(str(h, "content"), json_string_value(e)) == 0)
                        continue;
                sub(p, sizeof(p), ptr, "hashes");
                prc_jptr_index(p, sizeof(p), i);
                return fail(err, PRC_E_NATIVE_INVENTORY_MISMATCH, p,
                            "the file's SHA-256 differs from the sealed inventory's");
        }
        return true;
}

static bool check_component(const json_t *c, const char *ptr, const json_t *paths, prc_err *err)
{
        const char *type, *ref;
        const json_t *v, *e;
        char p[128];
        size_t i;
        bool pkg;

        if (!FIELDS(c, ptr, comp_fields))
                return false;
        type = str(c, "type");
        ref = str(c, "bom-ref");
        pkg = strcmp(type, "library") == 0 || strcmp(type, "application") == 0 ||
              strcmp(type, "machine-learning-model") == 0;
        if (str(c, "name")[0] == '\0')
                return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a component without a name");
        if (pkg) {
                if (!pkg_ref_ok(ref))
                        return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a package bom-ref that syft does not write");
                if (json_object_get(c, "hashes") != NULL || json_object_get(c, "swid") != NULL)
                        return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a package with file or os fields");
        } else if (strcmp(type, "operating-system") == 0) {
                sub(p, sizeof(p), ptr, "swid");
                if (strncmp(ref, "os:", 3) != 0 || !json_is_object(json_object_get(c, "swid")))
                        return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a malformed operating-system component");
                if (!FIELDS(json_object_get(c, "swid"), p, swid_fields))
                        return false;
        } else if (strcmp(type, "file") == 0) {
                if (!hexn(ref, 16) || json_object_get(c, "hashes") == NULL)
                        return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a malformed file component");
                if (!location_ok(str(c, "name")))
                        return fail(err, PRC_E_NATIVE_PATH_OUTSIDE, ptr, "a file component outside the snapshot");
                sub(p, sizeof(p), ptr, "hashes");
                if (!check_hashes(json_object_get(c, "hashes"), p, err))
                        return false;
                if (paths != NULL && !file_bound(c, ptr, paths, err))
                        return false;
        } else {
                return fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a component type that syft does not write");
        }
        v = json_object_get(c, "purl");
        if (v != NULL && !prc_purl_valid(json_string_value(v))) {
                sub(p, sizeof(p), ptr, "purl");
                return fail(err, PRC_E_NATIVE_PURL, p, "not a package URL");
        }
        v = json_object_get(c, "cpe");
        if (v != NULL && strncmp(json_string_value(v), "cpe:2.3:", 8) != 0) {
                sub(p, sizeof(p), ptr, "cpe");
                return fail(err, PRC_E_NATIVE_COMPONENT, p, "not a CPE 2.3 formatted string");
        }
        v = json_object_get(c, "licenses");
        sub(p, sizeof(p), ptr, "licenses");
        if (v != NULL && !check_licenses(v, p, err))
                return false;
        v = json_object_get(c, "externalReferences");
        json_array_foreach(v, i, e) {
                char q[128];
                sub(q, sizeof(q), ptr, "externalReferences");
                prc_jptr_index(q, sizeof(q), i);
                if (!FIELDS(e, q, extref_fields))
                        return false;
        }
        return true;
}

static bool check_metadata(const json_t *md, prc_err *err)
{
        const json_t *tools, *list, *t, *src;
        int64_t when;

        if (!FIELDS(md, "/metadata", meta_fields))
                return false;
        if (!prc_native_time(str(md, "timestamp"), &when) || strchr(str(md, "timestamp"), '.') != NULL)
                return fail(err, PRC_E_NATIVE_METADATA, "/metadata/timestamp", "not an RFC 3339 time in seconds");
        tools = json_object_get(md, "tools");
        if (!json_is_object(tools) || json_object_size(tools) != 1 ||
            !json_is_array(json_object_get(tools, "components")))
                return fail(err, PRC_E_NATIVE_ENVELOPE, "/metadata/tools",
                            "tools is not the CycloneDX 1.5+ {components:[...]} object syft 1.51.0 writes");
        list = json_object_get(tools, "components");
        if (json_array_size(list) != 1)
                return fail(err, PRC_E_NATIVE_TOOL_IDENTITY, "/metadata/tools/components", "not exactly one tool");
        t = json_array_get(list, 0);
        if (!FIELDS(t, "/metadata/tools/components/0", tool_fields))
                return false;
        if (strcmp(str(t, "type"), "application") != 0 || strcmp(str(t, "author"), "anchore") != 0 ||
            strcmp(str(t, "name"), "syft") != 0 || strcmp(str(t, "version"), "1.51.0") != 0)
                return fail(err, PRC_E_NATIVE_TOOL_IDENTITY, "/metadata/tools/components/0",
                            "the tool is not anchore syft 1.51.0");
        if (json_object_get(md, "properties") != NULL)
                return fail(err, PRC_E_NATIVE_METADATA, "/metadata/properties", "image properties in a dir scan");
        src = json_object_get(md, "component");
        if (src == NULL)
                return fail(err, PRC_E_NATIVE_METADATA, "/metadata/component", "no source component");
        if (!FIELDS(src, "/metadata/component", source_fields))
                return false;
        if (!hexn(str(src, "bom-ref"), 16) || strcmp(str(src, "type"), "file") != 0 ||
            strcmp(str(src, "name"), PRC_SYFT_SOURCE_NAME) != 0)
                return fail(err, PRC_E_NATIVE_METADATA, "/metadata/component",
                            "the source component is not the scanner-owned dir source");
        return true;
}

/* Dependencies: refs and dependsOn entries name package components; no duplicates, none empty. */
static bool check_deps(const json_t *deps, const json_t *pkgs, prc_err *err)
{
        json_t *seen = json_object();
        size_t i, j;
        const json_t *d, *r;
        char p[128];
        bool ok = false;

        if (seen == NULL)
                return prc_err_oom(err, "dependencies");
        if (json_array_size(deps) > DEPS_MAX) {
                fail(err, PRC_E_NATIVE_COUNT_LIMIT, "/dependencies", "too many dependencies");
                goto out;
        }
        json_array_foreach(deps, i, d) {
                json_t *inner = NULL;
                snprintf(p, sizeof(p), "/dependencies");
                prc_jptr_index(p, sizeof(p), i);
                if (!FIELDS(d, p, dep_fields) || !prc_native_strings(json_object_get(d, "dependsOn"), p, err))
                        goto out;
                if (json_object_get(pkgs, str(d, "ref")) == NULL || json_object_get(seen, str(d, "ref")) != NULL ||
                    json_array_size(json_object_get(d, "dependsOn")) == 0) {
                        fail(err, PRC_E_NATIVE_DEPENDENCY, p, "an unknown, repeated or empty dependency ref");
                        goto out;
                }
                if (json_object_set_new(seen, str(d, "ref"), json_true()) != 0) {
                        prc_err_oom(err, "dependencies");
                        goto out;
                }
                inner = json_object();
                if (inner == NULL) {
                        prc_err_oom(err, "dependencies");
                        goto out;
                }
                json_array_foreach(json_object_get(d, "dependsOn"), j, r) {
                        const char *to = json_string_value(r);
                        if (json_object_get(pkgs, to) == NULL || json_object_get(inner, to) != NULL) {
                                json_decref(inner);
                                fail(err, PRC_E_NATIVE_DEPENDENCY, p, "an unknown or repeated dependsOn ref");
                                goto out;
                        }
                        if (json_object_set_new(inner, to, json_true()) != 0) {
                                json_decref(inner);
                                prc_err_oom(err, "dependencies");
                                goto out;
                        }
                }
                json_decref(inner);
        }
        ok = true;
out:
        json_decref(seen);
        return ok;
}

static int str_cmp(const void *a, const void *b)
{
        return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

/* Sort an array of strings in place. */
static bool sort_strings(json_t *arr, prc_err *err)
{
        size_t i, n = json_array_size(arr);
        json_t **v = malloc((n ? n : 1) * sizeof(*v));

        if (v == NULL)
                return prc_err_oom(err, "sort");
        for (i = 0; i < n; i++)
                v[i] = json_incref(json_array_get(arr, i));
        qsort(v, n, sizeof(*v), str_cmp);
        json_array_clear(arr);
        for (i = 0; i < n; i++)
                if (json_array_append_new(arr, v[i]) != 0) {
                        for (; i < n; i++)
                                json_decref(v[i]);
                        free(v);
                        return prc_err_oom(err, "sort");
                }
        free(v);
        return true;
}

static int ref_cmp(const void *a, const void *b)
{
        return strcmp(str(*(json_t *const *)a, "bom-ref"), str(*(json_t *const *)b, "bom-ref"));
}

static int dep_cmp(const void *a, const void *b)
{
        return strcmp(str(*(json_t *const *)a, "ref"), str(*(json_t *const *)b, "ref"));
}

/* Sort an array of objects by one string key, via cmp. */
static bool sort_by(json_t *arr, int (*cmp)(const void *, const void *), prc_err *err)
{
        size_t i, n = json_array_size(arr);
        json_t **v = malloc((n ? n : 1) * sizeof(*v));

        if (v == NULL)
                return prc_err_oom(err, "sort");
        for (i = 0; i < n; i++)
                v[i] = json_incref(json_array_get(arr, i));
        qsort(v, n, sizeof(*v), cmp);
        json_array_clear(arr);
        for (i = 0; i < n; i++)
                if (json_array_append_new(arr, v[i]) != 0) {
                        for (; i < n; i++)
                                json_decref(v[i]);
                        free(v);
                        return prc_err_oom(err, "sort");
                }
        free(v);
        return true;
}

bool prc_syft_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                        prc_native_result *out, prc_err *err)
{
        uint32_t max = ctx->max_items ? ctx->max_items : s->max_items;
        json_t *doc, *comps, *deps, *refs = NULL, *pkgs = NULL, *c, *obs = NULL, *o;
        size_t i;
        char ptr[128];
        bool ok = false;

        doc = prc_json_parse(p, n, &prc_native_limits, 0, err);
        if (doc == NULL)
                return false;
        if (!FIELDS(doc, "", top_fields))
                goto out;
        if (strcmp(str(doc, "$schema"), "http://cyclonedx.org/schema/bom-1.7.schema.json") != 0 ||
            strcmp(str(doc, "bomFormat"), "CycloneDX") != 0 || strcmp(str(doc, "specVersion"), "1.7") != 0 ||
            json_integer_value(json_object_get(doc, "version")) != 1) {
                fail(err, PRC_E_NATIVE_ENVELOPE, "", "not a CycloneDX 1.7 version-1 document");
                goto out;
        }
        if (!serial_ok(str(doc, "serialNumber"))) {
                fail(err, PRC_E_NATIVE_METADATA, "/serialNumber", "not urn:uuid: and a random lowercase UUID");
                goto out;
        }
        if (!check_metadata(json_object_get(doc, "metadata"), err))
                goto out;
        comps = json_object_get(doc, "components");
        if (json_array_size(comps) > max) {
                prc_err_set(err, PRC_E_NATIVE_COUNT_LIMIT, "%zu components, more than the cap %" PRIu32,
                            json_array_size(comps), max);
                goto out;
        }
        refs = json_object();
        pkgs = json_object();
        if (refs == NULL || pkgs == NULL) {
                prc_err_oom(err, "components");
                goto out;
        }
        json_array_foreach(comps, i, c) {
                const char *type;
                snprintf(ptr, sizeof(ptr), "/components");
                prc_jptr_index(ptr, sizeof(ptr), i);
                if (!check_component(c, ptr, ctx->paths, err))
                        goto out;
                if (json_object_get(refs, str(c, "bom-ref")) != NULL) {
                        fail(err, PRC_E_NATIVE_COMPONENT, ptr, "a repeated bom-ref");
                        goto out;
                }
                type = str(c, "type");
                if (json_object_set_new(refs, str(c, "bom-ref"), json_true()) != 0 ||
                    ((strcmp(type, "library") == 0 || strcmp(type, "application") == 0 ||
                      strcmp(type, "machine-learning-model") == 0) &&
                     json_object_set_new(pkgs, str(c, "bom-ref"), json_true()) != 0)) {
                        prc_err_oom(err, "components");
                        goto out;
                }
                prc_jptr_push(ptr, sizeof(ptr), "properties");
                if (json_object_get(c, "properties") != NULL &&
                    !check_props(json_object_get(c, "properties"), ptr, ctx->paths, err))
                        goto out;
        }
        deps = json_object_get(doc, "dependencies");
        if (deps != NULL && !check_deps(deps, pkgs, err))
                goto out;
        /* Normalize: drop per-run values, then order everything canonically. */
        json_object_del(doc, "serialNumber");
        json_object_del(json_object_get(doc, "metadata"), "timestamp");
        json_object_del(json_object_get(json_object_get(doc, "metadata"), "component"), "bom-ref");
        json_array_foreach(comps, i, c) {
                json_t *v = json_object_get(c, "properties");
                if ((v != NULL && !prc_native_sort(v, err)) ||
                    (json_is_array(json_object_get(c, "hashes")) && !prc_native_sort(json_object_get(c, "hashes"), err)))
                        goto out;
        }
        if (!sort_by(comps, ref_cmp, err))
                goto out;
        if (deps != NULL) {
                json_array_foreach(deps, i, c)
                        if (!sort_strings(json_object_get(c, "dependsOn"), err))
                                goto out;
                if (!sort_by(deps, dep_cmp, err))
                        goto out;
        }
        obs = json_array();
        if (obs == NULL || !prc_native_finish(s, doc, obs, p, n, out, err)) {
                if (obs == NULL)
                        prc_err_oom(err, "observation");
                goto out;
        }
        o = json_pack("{s:s,s:s,s:s,s:{s:s,s:s,s:I},s:s}", "id", "syft.sbom", "kind", s->kind, "outcome", "value",
                      "value", "generated", PRC_SBOM_GENERATED, "sha256", out->artifact_sha256,
                      "components", (json_int_t)json_array_size(comps), "artifact", s->tool);
        if (o == NULL || json_array_append_new(obs, o) != 0) {
                prc_native_result_clear(out);
                prc_err_oom(err, "observation");
                goto out;
        }
        ok = true;
out:
        json_decref(obs);
        json_decref(refs);
        json_decref(pkgs);
        json_decref(doc);
        return ok;
}
