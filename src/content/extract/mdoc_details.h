/*
 * mdoc_details.h - the client's strict check of a ManifestDoc's "details",
 * the per-format object (docs/extraction/<family>.md) that mdoc_check.c
 * leaves to this file.
 *
 * Trust: engine-side, on a document from a worker that may be compromised.
 * Every format of the extractor table has a shape here: each key known,
 * required keys present, types, enums, short strings within PRC_MD_STR_MAX,
 * lines integers from 1 (or null where the extractor may not know one),
 * lists and maps within PRC_MD_DEPS_MAX, indexes into "dependencies" in
 * range, Dockerfile stage indexes consistent, workflow step indexes in
 * order, and every shell token document (workflow run:, Dockerfile RUN,
 * CMD, ENTRYPOINT, HEALTHCHECK and RUN here-documents) valid as
 * prc_sh_check says.  After it passes, analyses may read details by shape.
 */
#ifndef PRC_MDOC_DETAILS_H
#define PRC_MDOC_DETAILS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"

/*
 * Check md's "details" for md's "format" (both already checked as an object
 * and a table format by prc_mdoc_check, which calls this last).  Errors:
 * manifest-doc-details-invalid (err->ptr is the JSON pointer of the first
 * bad field), out-of-memory.
 */
bool prc_mdoc_details_check(const json_t *md, prc_err *err) PRC_MUST_CHECK;
/* The same, with the document's dependency count given (a packed document, mdoc_pack.h). */
bool prc_mdoc_details_check_n(const json_t *md, size_t ndeps, prc_err *err) PRC_MUST_CHECK;

/*
 * The members of "details" prc sbom reads (cmd_sbom.c note_gomod: "go";
 * scan.c follow_includes: "includes"), NULL-terminated: with
 * PRC_REQ_SLIM_DETAILS (frame.h) the worker sends only these.
 */
extern const char *const prc_mdoc_slim_keys[];
/*
 * prc_mdoc_details_check_n of a slim document: "details" holds no member
 * but those prc_mdoc_slim_keys names, and each one it holds (and each the
 * format requires) is checked as in the whole document.  Errors: as
 * prc_mdoc_details_check.
 */
bool prc_mdoc_details_check_slim_n(const json_t *md, size_t ndeps, prc_err *err) PRC_MUST_CHECK;

/* Does the checker know format (a test asserts every extractor's)? */
bool prc_mdoc_details_known(const char *format);

/*
 * The same shapes as JSON Schema 2020-12: {"$defs": {"details-...": ...},
 * "allOf": [{"if": format F, "then": details is "details-F"}]}, which
 * schemas/manifest-doc.schema.json holds (tests/unit/test_mdoc_details.c
 * compares them).  What JSON Schema cannot say (an index names a
 * dependency or an earlier stage, a token document passes prc_sh_check, an
 * expression has contexts or an error) only the checker enforces.  A new
 * reference; NULL only on out-of-memory.
 */
json_t *prc_mdoc_details_schema(void);

#if defined(PRC_TESTING) && PRC_TESTING
/*
 * Does a shape of the tables name one key twice (in its fields, or in its
 * fields with one variant's)?  The checker counts on it not (a member
 * count that equals the fields found means no unknown member).  True with
 * the first such key in out.
 */
bool prc_mdoc_details_repeats_a_key(char *out, size_t cap);
#endif

#endif
