/*
 * json_stream.h - the worker's streaming JSON reader: reads JSON text and
 * writes the binary reply encoding (docenc.h) as it reads, with no jansson
 * tree, so the client decodes the first pieces while the rest is parsed.
 *
 * It accepts exactly the documents prc_json_parse accepts and writes
 * exactly the bytes prc_docbin_write writes for prc_json_parse's tree
 * (fuzz/fuzz_json_stream.c checks both).  It never refuses on its own: on
 * anything it does not accept it declines, and the caller runs
 * prc_json_parse, whose refusal (class, offset, line, pointer) is the
 * answer.  docs/content-protocol.md "Streaming JSON" says why this is as
 * strong as parsing the tree first.
 *
 * Trust: input is hostile target bytes, inside the floored worker.
 */
#ifndef PRC_JSON_STREAM_H
#define PRC_JSON_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/limits.h"
#include "content/docenc.h"

typedef enum prc_js_rc {
        PRC_JS_DONE = 0,        /* the whole document was handed to put (the last piece with last set) */
        PRC_JS_DECLINED,        /* not a document it accepts; err untouched; *out_size may be > 0 */
        PRC_JS_FAILED,          /* put or the piece buffer failed: err set (buffer-limit, out-of-memory, put's) */
} prc_js_rc;

/*
 * Read p[0..n) as prc_json_parse(p, n, lim, flags) would (flags: the
 * PRC_JSON_ALLOW_* of json_strict.h) and stream its binary encoding through
 * chunk and put as prc_docbin_stream does: a piece every PRC_DOCBIN_CHUNK
 * bytes, at value boundaries.  Nothing is handed to put before the input
 * has passed the checks that decline documents prc_json_parse accepts
 * (nesting deeper than PRC_JS_DEPTH_MAX), so a decline after a piece means
 * prc_json_parse refuses the input.  *out_size gets the bytes handed over.
 */
prc_js_rc prc_json_stream(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_buf *chunk,
                          prc_docbin_put_fn put, void *ctx, uint64_t *out_size, prc_err *err) PRC_MUST_CHECK;

/* Deeper documents are declined up front (the binary writer stops at 512); limits are far lower. */
enum { PRC_JS_DEPTH_MAX = 256 };

/*
 * prc_docbin_write of a tree prc_json_parse made from n bytes of JSON is at
 * most PRC_JS_ENCODED_PER_BYTE * n bytes (an integer: 9 bytes for at least
 * one; a real: 9 for at least three; a string or key: 5 or 4 plus at most
 * its text, quotes included; a container: 5 for at least its two brackets;
 * docs/content-protocol.md, "The parse first").  "0" meets it; the fuzzer
 * holds every document to it.  What fits that bound fits any reply cap
 * above it: the worker's verdict need not count it.
 */
enum { PRC_JS_ENCODED_PER_BYTE = 9 };

#endif
