/*
 * jsonc.h - prc's own JSONC reader (tsconfig.json, devcontainer.json, .vscode).
 *
 * Trust: the input is hostile; this runs only inside the sandboxed content
 * worker.  JSONC is JSON (RFC 8259) plus `//` line comments (ended by LF or
 * CR), `/ * * /` block comments (not nested), and one trailing comma before
 * `]` or `}`.  Everything else follows the strict JSON rules of
 * base/json_strict.h: UTF-8 only, no NUL, duplicate keys rejected at every
 * depth, floats and integers outside +-(2^53-1) rejected unless a flag
 * allows them, depth, node, key and scalar limits from prc_limits.
 * The reader is a single pass over the bytes (no pre-pass that strips
 * comments), so a string holding `//` or `/ *` is an ordinary string.
 */
#ifndef PRC_JSONC_H
#define PRC_JSONC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/json_strict.h"
#include "base/limits.h"

/*
 * Parse one JSONC value.  flags: PRC_JSON_ALLOW_FLOAT,
 * PRC_JSON_ALLOW_UNSAFE_INT, PRC_JSON_ALLOW_NUL (json_strict.h).  Returns a
 * new reference (transfers) or NULL with err set at the first error
 * (offset, line, column).  Classes: input-too-large, invalid-utf8,
 * nul-byte, invalid-json, jsonc-unterminated-comment, duplicate-field,
 * depth-limit, nodes-limit, scalar-limit, unsafe-number, out-of-memory.
 */
json_t *prc_jsonc_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

#endif
