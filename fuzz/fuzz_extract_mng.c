/*
 * fuzz_extract_mng.c - libFuzzer harness for the Maven, NuGet and RubyGems
 * extractors (maven.c, nuget.c, gem.c).  The first byte picks the format
 * (its value modulo the number of formats below), the rest is the file.
 * Invariants: exactly one outcome (a ManifestDoc, or NULL with a class); a
 * ManifestDoc is canonical JSON, names its own format, and every line it
 * gives lies within the input.
 */
#include <jansson.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "content/extract/extract.h"
#include "content/extract/mdoc_check.h"
#include "fuzz.h"

static const char *const formats[] = {
        "maven-pom", "gradle-lockfile", "gradle-version-catalog", "nuget-msbuild-project", "nuget-central-packages",
        "nuget-packages-config", "nuget-packages-lock", "nuget-config", "gem-gemfile-lock", "gem-gemfile",
};

static void check_lines(json_t *list, uint32_t max)
{
        size_t i;
        json_t *o;

        json_array_foreach(list, i, o) {
                json_t *l = json_object_get(o, "line");

                if (!json_is_null(l) && (!json_is_integer(l) || json_integer_value(l) < 1 ||
                                         json_integer_value(l) > max))
                        __builtin_trap();
        }
}

PRC_FUZZ_TARGET(extract_mng)
{
        const prc_extractor *x;
        prc_xin in;
        prc_err err, e2;
        json_t *md;
        uint32_t lines = 1;

        if (n == 0)
                return 0;
        x = prc_extractor_by_format(formats[p[0] % (sizeof(formats) / sizeof(formats[0]))]);
        if (x == NULL)
                __builtin_trap();
        in = (prc_xin){ "fuzz", p + 1, n - 1, &prc_limits_fuzz };
        for (size_t i = 1; i < n; i++)
                lines += p[i] == '\n';
        prc_err_init(&err);
        md = x->fn(&in, &err);
        if ((md == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (md != NULL) {
                static const char *const lists[] = { "dependencies", "registries", "credentials", "not_extracted" };
                prc_buf b;

                if (strcmp(json_string_value(json_object_get(md, "format")), x->format) != 0)
                        __builtin_trap();
                prc_err_init(&e2);
                if (!prc_mdoc_check(md, in.path, x->format, &e2))      /* the client's check, edges included */
                        __builtin_trap();
                for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
                        check_lines(json_object_get(md, lists[i]), lines);
                prc_err_init(&e2);
                prc_buf_init(&b, (size_t)64 << 20);
                if (!prc_jcs_write(md, &b, &e2))
                        __builtin_trap();
                prc_buf_clear(&b);
        }
        json_decref(md);
        return 0;
}
