/*
 * yaml_stream.h - the worker's streaming YAML reply: prc_yaml_load's own
 * composer (src/base/yaml.c, through its prc_yaml_sink) tells each accepted
 * piece of the document as the events arrive, and it goes out at once in
 * the open spelling of the binary encoding (docenc.h), so the client
 * decodes the first pieces while libfyaml is still parsing the rest.
 *
 * Acceptance, refusals and the tree are prc_yaml_load's, because it is
 * prc_yaml_load's composer that runs (the sink observes; it decides
 * nothing).  What the stream cannot say in one pass (a mapping with a `<<`
 * merge key, whose members are reordered at its end), or a piece that
 * cannot go out, makes it fall back: the composer still finishes, and the
 * caller sends its tree the counted way after telling the client to drop
 * what it received (PRC_RE_RESTART).  docs/content-protocol.md "Streaming
 * YAML" says why this is as strong as parsing the tree first.
 *
 * Trust: input is hostile target bytes, inside the floored worker.
 */
#ifndef PRC_YAML_STREAM_H
#define PRC_YAML_STREAM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/limits.h"
#include "base/yaml.h"
#include "content/docenc.h"

typedef enum prc_ys_rc {
        PRC_YS_STREAMED = 0,    /* the whole document went through put, the last piece with last set */
        PRC_YS_FALLBACK,        /* *doc is the document; the stream stopped short (*out_size bytes went out) */
        PRC_YS_REFUSED,         /* err holds prc_yaml_load's refusal (*out_size bytes went out before it) */
} prc_ys_rc;

/*
 * Compose p[0..n) exactly as prc_yaml_load(p, n, lim, flags, err), writing
 * the document through chunk and put (a piece every PRC_DOCBIN_CHUNK bytes)
 * as it is composed.  Unless REFUSED, *doc gets prc_yaml_load's tree
 * (transfers).  *why (may be NULL) gets why a FALLBACK fell back (static text).
 */
prc_ys_rc prc_yaml_stream(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                          prc_docbin_put_fn put, void *ctx, uint64_t *out_size, json_t **doc, const char **why,
                          prc_err *err);
/*
 * prc_yaml_stream, composing as prc_yaml_load_pos does: unless REFUSED,
 * *out_pos gets its position table too (transfers; the worker keeps both
 * for an extractor that reads positions, yaml.h prc_yaml_keep).
 */
prc_ys_rc prc_yaml_stream_pos(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                              prc_docbin_put_fn put, void *ctx, uint64_t *out_size, json_t **doc,
                              prc_yaml_pos **out_pos, const char **why, prc_err *err);

#endif
