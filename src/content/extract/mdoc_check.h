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
#include <stdint.h>

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
 * The schema's lists for a dependency, kept once (mdoc_pack.c reads
 * replies by them too): its members, its source's and its integrity's, each
 * NULL-terminated in the order extractors write them, with their indexes
 * below; and the values scope and source.type may take.
 */
enum { PRC_MD_DK_NAME, PRC_MD_DK_REQUIREMENT, PRC_MD_DK_RESOLVED, PRC_MD_DK_SCOPE, PRC_MD_DK_DIRECT,
       PRC_MD_DK_SOURCE, PRC_MD_DK_INTEGRITY, PRC_MD_DK_PURL, PRC_MD_DK_GROUP, PRC_MD_DK_LINE, PRC_MD_DK_DEPENDS_ON,
       PRC_MD_DK_N };
enum { PRC_MD_SK_TYPE, PRC_MD_SK_URL, PRC_MD_SK_REF, PRC_MD_SK_COMMIT, PRC_MD_SK_N };
enum { PRC_MD_IK_ALGORITHM, PRC_MD_IK_VALUE, PRC_MD_IK_N };
extern const char *const prc_md_dep_keys[];
extern const char *const prc_md_source_keys[];
extern const char *const prc_md_integrity_keys[];
extern const char *const prc_md_scopes[];
extern const char *const prc_md_source_types[];

/*
 * prc_mdoc_check of a document whose "dependencies" is a table mdoc_pack.c
 * made (its ndeps dependencies were checked as they were packed): every
 * other rule, with ndeps for the details' dependency indexes.
 */
bool prc_mdoc_check_packed(const json_t *md, size_t ndeps, const char *path, const char *format,
                           prc_err *err) PRC_MUST_CHECK;

/*
 * The check of a slim document (PRC_REQ_SLIM_DETAILS, frame.h): every rule
 * of prc_mdoc_check, but "details" holds only members prc_mdoc_slim_keys
 * names (mdoc_details.h), each checked as in the whole document.  ndeps:
 * the table's count as prc_mdoc_check_packed takes it, or
 * PRC_MDOC_DEPS_ARRAY when "dependencies" is the array, checked here.
 */
#define PRC_MDOC_DEPS_ARRAY SIZE_MAX
bool prc_mdoc_check_slim(const json_t *md, size_t ndeps, const char *path, const char *format,
                         prc_err *err) PRC_MUST_CHECK;

#endif
