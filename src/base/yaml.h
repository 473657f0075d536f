/*
 * yaml.h - bounded YAML loader on libfyaml's event API.
 *
 * Produces the same data model as the strict JSON reader (jansson values:
 * objects, arrays, strings, integers, booleans, null), resolving plain
 * scalars with the YAML 1.2 core schema.  prc composes the events itself so
 * that every limit is counted in its own code: total nodes, aliases, alias
 * expansion (an alias counts every node it stands for), nesting depth,
 * merge-key entries, scalar bytes, exactly one document.  Duplicate keys are
 * rejected, including keys that arrive through a merge (an explicit key
 * overriding a merged one is allowed, as YAML's merge rules say).
 * Floats are refused unless PRC_YAML_ALLOW_FLOAT (then kept as reals).
 * The result is a whole document or NULL.
 */
#ifndef PRC_YAML_H
#define PRC_YAML_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

enum {
        PRC_YAML_ALLOW_FLOAT = 1u << 0,
};

/*
 * Load exactly one YAML document from p[0..n).  Returns a new reference
 * (transfers) or NULL with err set (the yaml-* classes, input-too-large,
 * invalid-utf8, nul-byte, depth-limit, nodes-limit, scalar-limit,
 * duplicate-field, unsafe-number, out-of-memory) and err->line/col set.
 */
json_t *prc_yaml_load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

#endif
