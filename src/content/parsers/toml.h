/*
 * toml.h - prc's own TOML 1.0 reader.
 *
 * Trust: the input is hostile; this runs only inside the sandboxed content
 * worker.  Every allocation is bounded by prc_limits (nodes, depth, keys,
 * scalar bytes) and by the input size.
 *
 * Document model (default mode), see docs/parsers.md:
 *   table -> object, array -> array, string -> string, boolean -> true/false,
 *   integer -> json integer (the whole int64 range is kept; note that the
 *   canonical writer refuses integers outside +-(2^53-1), see
 *   PRC_TOML_UNSAFE_INT_TYPED),
 *   float, offset date-time, local date-time, local date, local time ->
 *   {"$toml": TYPE, "text": SOURCE-SPELLING} with TYPE one of "float",
 *   "datetime", "datetime-local", "date-local", "time-local".
 *   A key named "$toml" is refused (toml-reserved-key) so a typed value can
 *   never be confused with a table.
 * Tagged mode (PRC_TOML_TAGGED) writes toml-test's tagged JSON instead:
 * every leaf is {"type": T, "value": S} with S a string.
 */
#ifndef PRC_TOML_H
#define PRC_TOML_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

enum {
        PRC_TOML_TAGGED    = 1u << 0,   /* toml-test tagged JSON leaves */
        PRC_TOML_ALLOW_NUL = 1u << 1,   /* accept \u0000 escapes in strings and keys */
        /*
         * Default mode: an integer outside +-(2^53-1) becomes {"$toml":
         * "integer", "text": DECIMAL} so that the document stays writable by
         * the canonical (JCS) writer; without it such integers stay JSON
         * integers.
         */
        PRC_TOML_UNSAFE_INT_TYPED = 1u << 2,
};

/*
 * Parse one TOML 1.0 document.  Returns the root table (a new reference,
 * transfers to the caller) or NULL with err set and, when known, err->off,
 * err->line and err->col at the first error.  Classes: input-too-large,
 * invalid-utf8, nul-byte, toml-syntax, toml-control-char,
 * toml-invalid-escape, toml-invalid-number, toml-integer-range,
 * toml-invalid-datetime, toml-table-redefined, toml-immutable,
 * toml-key-conflict, toml-reserved-key, duplicate-field, depth-limit,
 * nodes-limit, scalar-limit, out-of-memory.
 */
json_t *prc_toml_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

/*
 * Does doc, made without PRC_TOML_TAGGED, hold an integer typed by
 * PRC_TOML_UNSAFE_INT_TYPED?  When it does not, the same bytes parsed
 * without that flag give the same tree ("$toml" is a reserved key, so only
 * the parser makes such an object): the worker keeps a verdict's tree for
 * the extractor's parse then (base/kept.h).
 */
bool prc_toml_has_typed_int(const json_t *doc);

#endif
