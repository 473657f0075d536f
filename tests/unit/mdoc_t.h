/*
 * mdoc_t.h - reading a ManifestDoc's edges in the extractor tests: the
 * targets of one dependency's depends_on, and the edges the extractor
 * noted as unresolved, each as one comparable string.
 */
#ifndef PRC_TEST_MDOC_T_H
#define PRC_TEST_MDOC_T_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "content/extract/mdoc_check.h"

/* "name@resolved name@resolved" (resolved "-" when null) in depends_on's order; "null" when null. */
static inline const char *t_md_edges(const json_t *md, const json_t *d)
{
        static char out[2048];
        const json_t *deps = json_object_get(md, "dependencies"), *ix;
        size_t i, k = 0;

        if (json_is_null(json_object_get(d, "depends_on")))
                return "null";
        out[0] = 0;
        json_array_foreach(json_object_get(d, "depends_on"), i, ix) {
                const json_t *t = json_array_get(deps, (size_t)json_integer_value(ix));
                const char *v = json_string_value(json_object_get(t, "resolved"));
                k += (size_t)snprintf(out + k, sizeof(out) - k, "%s%s@%s", k ? " " : "",
                                      json_string_value(json_object_get(t, "name")), v ? v : "-");
                if (k >= sizeof(out))
                        break;
        }
        return out;
}

/* The not_extracted entries of unresolved edges, without "the dependency of ", joined by "|". */
static inline const char *t_md_unresolved(const json_t *md)
{
        static char out[4096];
        const json_t *x;
        size_t i, k = 0;

        out[0] = 0;
        json_array_foreach(json_object_get(md, "not_extracted"), i, x) {
                const char *w = json_string_value(json_object_get(x, "what"));
                if (strncmp(w, "the dependency of ", 18) == 0)
                        k += (size_t)snprintf(out + k, sizeof(out) - k, "%s%s", k ? "|" : "", w + 18);
                if (k >= sizeof(out))
                        break;
        }
        return out;
}

/*
 * md, after the client's shape and details check passed on it (the test
 * fails where it does not); NULL stays NULL.  Every extractor test reads its
 * documents through this, so no output the client would refuse goes unseen.
 */
static inline json_t *t_md_checked_at(json_t *md, const char *path, const char *format, const char *file, int line)
{
        prc_err ce;

        prc_err_init(&ce);
        if (md != NULL && !prc_mdoc_check(md, path, format, &ce))
                t_fail(file, line, "the client refuses %s's ManifestDoc: %s at %s", path, ce.msg, ce.ptr);
        return md;
}
#define t_md_checked(md, path, format) t_md_checked_at((md), (path), (format), __FILE__, __LINE__)

#endif
