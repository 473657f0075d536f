/*
 * text.h - helpers shared by prc's own text-format readers (TOML, JSONC, INI).
 * Trust: pure functions over hostile bytes; they never allocate.
 */
#ifndef PRC_PARSERS_TEXT_H
#define PRC_PARSERS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

/*
 * 1-based line and column of byte offset off in p[0..n).  Lines end at LF,
 * CRLF, or (when cr_breaks) a lone CR.  The column counts code points, as
 * jansson's does, so every reader reports positions the same way.
 */
void prc_text_locate(const uint8_t *p, size_t n, size_t off, bool cr_breaks, uint32_t *out_line,
                     uint32_t *out_col);

/* If err holds an offset and no line yet, fill line and column from it. */
void prc_text_err_locate(prc_err *err, const uint8_t *p, size_t n, bool cr_breaks);

/*
 * The checks every reader makes before parsing: size against lim->input_max
 * (input-too-large) and strict UTF-8 (invalid-utf8, with the offset).
 */
bool prc_text_precheck(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err) PRC_MUST_CHECK;

#endif
