/*
 * mdoc_check.h - the client's strict check of a ManifestDoc that came back
 * from the content worker (schemas/manifest-doc.schema.json in C).
 *
 * Trust: engine-side.  The document was decoded from a worker that may be
 * compromised; before the engine reads one field of it, every key must be
 * present with its type, every enum one of its values, every line a
 * positive integer or null, every short string within PRC_MD_STR_MAX, every
 * list within its limit, no key unknown; and "details" by its format's
 * shape (mdoc_details.h: keys, types, bounds, indexes, token documents).
 */
#ifndef PRC_MDOC_CHECK_H
#define PRC_MDOC_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/*
 * Check md.  path, when not NULL, must equal md's "path"; format, when not
 * NULL, must equal its "format".  The format must be one of the extractor
 * table's, with that entry's ecosystem and kind.  Errors: manifest-doc-invalid,
 * manifest-doc-details-invalid (err->ptr is the JSON pointer of the first bad
 * field), out-of-memory.
 */
bool prc_mdoc_check(const json_t *md, const char *path, const char *format, prc_err *err) PRC_MUST_CHECK;

/*
 * prc_mdoc_check of a document whose "dependencies" is a table mdoc_pack.c
 * made (its ndeps dependencies were checked as they were packed): every
 * other rule, with ndeps for the details' dependency indexes.
 */
bool prc_mdoc_check_packed(const json_t *md, size_t ndeps, const char *path, const char *format,
                           prc_err *err) PRC_MUST_CHECK;

#endif
