/*
 * docenc.h - the reply encoding of a document: deterministic JSON text.
 *
 * Without floats the bytes are exactly RFC 8785 canonical JSON (jcs.h).
 * Target documents may hold floats, which records never do, so reals are
 * allowed here and written as the shortest "%.{15,16,17}g" form that reads
 * back to the same double, always with a '.' or an exponent so that the
 * reader keeps them real.  Integers are written whole (any int64).
 */
#ifndef PRC_DOCENC_H
#define PRC_DOCENC_H

#include <jansson.h>
#include <stdbool.h>

#include "base/buf.h"
#include "base/limits.h"

/* Append the encoding of v.  Errors: not-canonical (invalid UTF-8), depth-limit, buffer-limit, out-of-memory. */
bool prc_docenc_write(const json_t *v, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Decode an encoded document (the client side of a reply): the strict JSON
 * reader with floats, any int64 and NUL inside strings allowed, bounded by
 * lim.  Returns a new reference (transfers) or NULL with err set (the
 * json_strict classes).
 */
json_t *prc_docenc_read(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err);

#endif
