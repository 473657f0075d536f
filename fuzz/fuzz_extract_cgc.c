/*
 * fuzz_extract_cgc.c - the Rust, Go and PHP extractors (Cargo.toml,
 * Cargo.lock, go.mod, go.sum, go.work, composer.json, composer.lock) on
 * the same hostile bytes, each with prc_limits_fuzz.  Invariants: exactly
 * one outcome (a ManifestDoc or an error class); an error with an offset
 * has a line; a ManifestDoc has every key of its shape, names its own
 * format, and each dependency has a name, a known scope and source type, a
 * boolean direct and a line inside the input (or null); the extraction is
 * deterministic (a second run gives the same document).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"

static const char *const formats[] = { "cargo-toml", "cargo-lock", "go-mod", "go-sum",
                                       "go-work",    "composer-json", "composer-lock" };

static bool in_set(const char *s, const char *const *set)
{
        for (; s != NULL && *set != NULL; set++)
                if (strcmp(s, *set) == 0)
                        return true;
        return false;
}

static void check_doc(json_t *md, const char *format, size_t lines)
{
        static const char *const keys[] = { "schema", "path", "format", "ecosystem", "kind", "package",
                                            "dependencies", "hooks", "registries", "credentials",
                                            "not_extracted", "details", NULL };
        static const char *const scopes[] = { "runtime", "dev", "optional", "peer", "build", "test", NULL };
        static const char *const types[] = { "registry", "git", "url", "path", "workspace", NULL };
        size_t i;
        json_t *d;

        for (i = 0; keys[i] != NULL; i++)
                if (json_object_get(md, keys[i]) == NULL)
                        __builtin_trap();
        if (strcmp(json_string_value(json_object_get(md, "format")), format) != 0)
                __builtin_trap();
        /* the client's strict check (edges included): no extractor output is ever manifest-doc-invalid */
        {
                prc_err ce;

                prc_err_init(&ce);
                if (!prc_mdoc_check(md, "fuzz", format, &ce))
                        __builtin_trap();
        }
        json_array_foreach(json_object_get(md, "dependencies"), i, d) {
                json_t *line = json_object_get(d, "line");

                if (!json_is_string(json_object_get(d, "name")) ||
                    !in_set(json_string_value(json_object_get(d, "scope")), scopes) ||
                    !in_set(json_string_value(json_object_get(json_object_get(d, "source"), "type")), types) ||
                    !json_is_boolean(json_object_get(d, "direct")))
                        __builtin_trap();
                if (!json_is_null(line) && (!json_is_integer(line) || json_integer_value(line) < 1 ||
                                            (size_t)json_integer_value(line) > lines))
                        __builtin_trap();
        }
}

PRC_FUZZ_TARGET(extract_cgc)
{
        size_t lines = 1;

        for (size_t i = 0; i < n; i++)
                lines += p[i] == '\n';
        for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
                const prc_extractor *x = prc_extractor_by_format(formats[f]);
                prc_xin in = { "fuzz", p, n, &prc_limits_fuzz };
                prc_err a, b;
                json_t *m1, *m2;

                if (x == NULL)
                        __builtin_trap();
                prc_err_init(&a);
                prc_err_init(&b);
                m1 = x->fn(&in, &a);
                if ((m1 == NULL) != (a.cls != PRC_E_OK))
                        __builtin_trap();
                if (m1 == NULL && a.off != PRC_NO_OFF && a.line == 0)
                        __builtin_trap();
                m2 = x->fn(&in, &b);
                if (b.cls != a.cls || (m2 == NULL) != (m1 == NULL) || (m1 != NULL && !json_equal(m1, m2)))
                        __builtin_trap();
                if (m1 != NULL)
                        check_doc(m1, formats[f], lines);
                json_decref(m1);
                json_decref(m2);
        }
        return 0;
}
