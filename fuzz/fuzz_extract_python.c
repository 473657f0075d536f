/*
 * fuzz_extract_python.c - libFuzzer harness for the Python (pypi)
 * extractors and their PEP 508 reader.  The first byte picks the format
 * (requirements, pyproject, setup.cfg, Pipfile, Pipfile.lock, poetry.lock,
 * uv.lock, pdm.lock, pylock.toml, pip.conf), the rest is the file.
 * Invariants: exactly one outcome (a ManifestDoc or an error class); a
 * refusal with an offset has a line; a ManifestDoc has every key, pypi
 * dependencies with a name, a known scope, a pkg:pypi purl and a line inside
 * the file; no URL left in it carries user information; the whole input,
 * read as one requirement, is either refused with a reason or yields a
 * valid name and marker.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "content/extract/python.h"

static const char *const paths[] = { "requirements.txt", "pyproject.toml", "setup.cfg", "Pipfile", "Pipfile.lock",
                                     "poetry.lock", "uv.lock", "pdm.lock", "pylock.toml", "pip.conf" };

static void no_userinfo(const char *url)
{
        bool cred;
        char *c;

        if (url == NULL)
                return;
        c = prc_md_url_strip(url, &cred);
        if (c == NULL)
                return;
        free(c);
        if (cred)
                __builtin_trap();
}

static void check_doc(const json_t *md, const prc_xin *in)
{
        static const char *const keys[] = { "schema", "path", "format", "ecosystem", "kind", "package",
                                            "dependencies", "hooks", "registries", "credentials", "not_extracted",
                                            "details" };
        static const char *const scopes[] = { "runtime", "dev", "optional", "peer", "build", "test" };
        uint32_t lines = prc_x_line_at(in, in->n);
        size_t i;
        json_t *d, *r;
        char *dump;

        for (size_t k = 0; k < PRC_ARRAY_LEN(keys); k++)
                if (json_object_get(md, keys[k]) == NULL)
                        __builtin_trap();
        if (strcmp(json_string_value(json_object_get(md, "ecosystem")), "pypi") != 0)
                __builtin_trap();
        json_array_foreach(json_object_get(md, "dependencies"), i, d) {
                const char *scope = json_string_value(json_object_get(d, "scope"));
                const char *purl = json_string_value(json_object_get(d, "purl"));
                json_t *l = json_object_get(d, "line");
                bool known = false;

                if (!json_is_string(json_object_get(d, "name")) || scope == NULL || purl == NULL ||
                    strncmp(purl, "pkg:pypi/", 9) != 0)
                        __builtin_trap();
                for (size_t k = 0; k < PRC_ARRAY_LEN(scopes); k++)
                        known = known || strcmp(scope, scopes[k]) == 0;
                if (!known)
                        __builtin_trap();
                if (!json_is_null(l) && (json_integer_value(l) < 1 || json_integer_value(l) > lines))
                        __builtin_trap();
                no_userinfo(json_string_value(json_object_get(json_object_get(d, "source"), "url")));
        }
        json_array_foreach(json_object_get(md, "registries"), i, r)
                no_userinfo(json_string_value(json_object_get(r, "url")));
        dump = json_dumps(md, JSON_COMPACT);
        if (dump == NULL)
                __builtin_trap();
        free(dump);
}

PRC_FUZZ_TARGET(extract_python)
{
        const prc_extractor *x;
        prc_xin in;
        prc_err e;
        json_t *md;
        py_req r;
        const char *why = NULL;
        int rc;

        if (n == 0)
                return 0;
        x = prc_extractor_for_path(paths[p[0] % PRC_ARRAY_LEN(paths)]);
        if (x == NULL)
                __builtin_trap();
        in = (prc_xin){ paths[p[0] % PRC_ARRAY_LEN(paths)], p + 1, n - 1, &prc_limits_fuzz };
        prc_err_init(&e);
        md = x->fn(&in, &e);
        if ((md == NULL) != (e.cls != PRC_E_OK))
                __builtin_trap();
        if (md == NULL && e.off != PRC_NO_OFF && e.line == 0)
                __builtin_trap();
        if (md != NULL) {
                check_doc(md, &in);
                prc_err_init(&e);
                if (!prc_mdoc_check(md, in.path, x->format, &e))        /* the client's check, edges included */
                        __builtin_trap();
        }
        json_decref(md);

        rc = py_req_parse((const char *)p + 1, n - 1, &r, &why);
        if (rc == PY_BAD && why == NULL)
                __builtin_trap();
        if (rc == PY_OK && (!py_name_valid(r.name, strlen(r.name)) ||
                            (r.marker != NULL && !py_marker_valid(r.marker, strlen(r.marker)))))
                __builtin_trap();
        py_req_free(&r);
        return 0;
}
