/*
 * ini.h - INI reader with Python configparser semantics (setup.cfg, tox.ini).
 *
 * Trust: the input is hostile; this runs only inside the sandboxed content
 * worker.  The rules are those of configparser.ConfigParser() with its
 * defaults, strict mode on, read from a UTF-8 file (see docs/parsers.md):
 *   - lines end at LF, CRLF or CR (Python's universal newlines);
 *   - `[name]` is a section header (name as written, case kept); a second
 *     header of the same name is ini-duplicate-section, except DEFAULT,
 *     which configparser reopens;
 *   - `key = value` or `key: value` at the first '=' or ':'; the key is
 *     stripped and lower-cased (optionxform), the value stripped; a key that
 *     repeats in its section is ini-duplicate-option;
 *   - lines whose first non-blank character is '#' or ';' are comments and
 *     are skipped (inline comments are not recognised: configparser's
 *     default has none);
 *   - a line indented deeper than its option's line continues the value;
 *     blank lines inside a value are kept, trailing ones dropped;
 *   - no interpolation: values are returned raw (`%(x)s` stays as written);
 *   - DEFAULT is kept as its own section, not merged into the others.
 * Output: {"section": {"key": "value"}}.  NUL is refused (nul-byte).
 */
#ifndef PRC_INI_H
#define PRC_INI_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

/*
 * Parse one INI file.  flags: none defined yet (pass 0).  Returns a new
 * reference (transfers) or NULL with err set at the first error (offset,
 * line, column).  Classes: input-too-large, invalid-utf8, nul-byte,
 * ini-missing-section, ini-syntax, ini-duplicate-section,
 * ini-duplicate-option, ini-unsupported-key, nodes-limit, scalar-limit,
 * out-of-memory.
 */
json_t *prc_ini_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

#endif
