/*
 * kept.h - one parse's tree kept for a second parse of the same bytes.
 *
 * The content worker answers PRC_REQ_PARSE_FIRST by parsing a file for the
 * verdict and then running the extractor, which parses the same bytes
 * again (docs/content-protocol.md).  The worker leaves the verdict's tree
 * here, and the parser's next call on the same input, limits and flags
 * takes it instead of parsing: one parse per file.  YAML keeps its
 * position table with the tree (yaml.h prc_yaml_keep).  A JSON verdict
 * makes a tree to keep only for an extractor that reads the file with the
 * verdict's own reader under its flags or more (extract.h json_tree); any
 * other JSON verdict streams, with no tree (content/json_stream.h).
 *
 * The slot is thread-local and holds one tree (a second put drops the
 * first); it is taken once (the taker owns it) or dropped with the
 * request's arena (prc_kept_drop).  The key is the parser, the input's
 * address and length, the limits and the flags, so a tree is never handed
 * to a parse of other bytes, under other limits or for another shape.
 * Trust: the tree is the worker's own, made by prc's parser from the
 * hostile bytes; nothing here reads it.
 */
#ifndef PRC_KEPT_H
#define PRC_KEPT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"

typedef enum { PRC_KEPT_YAML = 1, PRC_KEPT_XML, PRC_KEPT_TOML, PRC_KEPT_JSON } prc_kept_kind;

/*
 * Keep doc (taken over) as kind's parse of p[0..n) under *lim and flags,
 * with extra (taken over, may be NULL; extra_free frees it); whatever was
 * kept before goes.
 */
void prc_kept_put(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, json_t *doc,
                  void *extra, void (*extra_free)(void *));

/*
 * The kept tree when (kind, p, n, *lim, flags) is its key (the caller owns
 * it, the slot is empty); else NULL, the slot as it was.  extra NULL: the
 * extra is not wanted (freed); otherwise only a slot that holds one is
 * taken, and *extra gets it.
 */
json_t *prc_kept_take(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                      void **extra);

/*
 * prc_kept_take, but the kept tree's flags need only be among flags: for a
 * parser each of whose flags only widens what it accepts, leaving the tree
 * of an input it accepted without that flag as it was (JSON's, json_strict.h:
 * a tree made under fewer flags is the tree the same bytes give under more).
 */
json_t *prc_kept_take_within(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags);

/* Let the kept tree and its extra go, if any (the worker: before the request's arena is reset). */
void prc_kept_drop(void);

/* Was a tree taken since the last put or drop?  (The worker's test builds: was the file parsed once?) */
bool prc_kept_taken(void);

#endif
