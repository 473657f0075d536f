/*
 * docenc.h - document encodings: the binary reply encoding of the content
 * worker (prc_docbin_*, docs/content-protocol.md "Document encoding") and
 * deterministic JSON text for people (prc_docenc_*, `prc content parse`).
 *
 * The text form: without floats the bytes are exactly RFC 8785 canonical JSON (jcs.h).
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
 * Read the text form back (tests and tools): the strict JSON
 * reader with floats, any int64 and NUL inside strings allowed, bounded by
 * lim.  Returns a new reference (transfers) or NULL with err set (the
 * json_strict classes).
 */
json_t *prc_docenc_read(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err);

/*
 * Binary reply encoding (PRC_RE_DOC payloads).  One value, then nothing:
 *   0x00 null | 0x01 false | 0x02 true
 *   0x03 integer: 8 bytes, two's complement, big-endian
 *   0x04 real:    8 bytes, IEEE 754 binary64 bits, big-endian; finite
 *   0x05 string:  u32 length, bytes (UTF-8, NUL allowed)
 *   0x06 array:   u32 count, count values
 *   0x07 object:  u32 count, count times (u32 key length, key bytes (UTF-8, no NUL), value)
 * and, for writers that learn a container's size only at its end (the
 * streaming YAML composer), the open spelling of the same two containers:
 *   0x08 array:   values, then 0x0a
 *   0x09 object:  members (0x05, u32 key length, key bytes (UTF-8, no NUL), value), then 0x0a
 *   0x0a end of an open container (nowhere else)
 * One document uses one spelling for all its containers (the reader refuses
 * a mix), so each spelling has exactly one encoding of a tree.
 *   0x0b blob:    u32 length, bytes (raw): only as the value of the
 *                 top-level member a caller's hook reads and asked the
 *                 writer for (a ManifestDoc's packed dependencies,
 *                 mdoc_pack.h, protocol version 7); the reader refuses it
 *                 anywhere else as an unknown tag.
 * Members keep the document's own order; the writer sorts nothing.
 */
enum {
        PRC_DOCBIN_NULL = 0, PRC_DOCBIN_FALSE, PRC_DOCBIN_TRUE, PRC_DOCBIN_INT, PRC_DOCBIN_REAL,
        PRC_DOCBIN_STRING, PRC_DOCBIN_ARRAY, PRC_DOCBIN_OBJECT,
        PRC_DOCBIN_ARRAY_OPEN, PRC_DOCBIN_OBJECT_OPEN, PRC_DOCBIN_END, PRC_DOCBIN_BLOB,
};

/* The streaming writer hands over this much at a time (the last piece may be shorter). */
enum { PRC_DOCBIN_CHUNK = 64u << 10 };

/*
 * Append the binary encoding of v (the worker side).  On failure out is as
 * it was.  Errors: not-canonical (a string or key that is not valid UTF-8,
 * a key with NUL, a non-finite real), depth-limit, buffer-limit,
 * out-of-memory.
 */
/* Is p[0..n) ASCII without a NUL byte (the encoder's own word-wide scan of a text)? */
bool prc_docbin_text_plain(const uint8_t *p, size_t n);

bool prc_docbin_write(const json_t *v, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/* prc_docbin_write with every container in the open spelling (tests, fuzzers, aliases in a stream). */
bool prc_docbin_write_open(const json_t *v, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Decode a binary-encoded document from a worker that may be compromised
 * (the client side).  Bounded by lim: depth_max (containers, "[]" is 1),
 * nodes_max (values), keys_max (members of one object), scalar_max (bytes of
 * one string or key); a count larger than the bytes left is refused before
 * anything is reserved.  Returns a new reference (transfers) or NULL with
 * err set, never a partial tree: invalid-frame (truncated, unknown tag,
 * trailing bytes, a non-finite real, NUL in a key, an open object member
 * that does not start with 0x05, both spellings in one document), depth-limit,
 * nodes-limit, scalar-limit, invalid-utf8, duplicate-field, out-of-memory.
 * err->off is the payload offset of the cause.
 */
json_t *prc_docbin_read(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err);

/*
 * Streaming writer's sink: take p[0..n) (borrowed for the call); last marks
 * the final piece (never empty: the last value is in it).  Errors: the
 * sink's own.
 */
typedef bool (*prc_docbin_put_fn)(void *ctx, const uint8_t *p, size_t n, bool last, prc_err *err);

/*
 * Encode v through chunk (reset first; its max bounds one piece), handing
 * every PRC_DOCBIN_CHUNK bytes to put as they are produced, so the reader
 * can decode while the rest is encoded.  *out_size gets the bytes handed
 * over (also on failure).  Errors: as prc_docbin_write, and put's.
 */
bool prc_docbin_stream(const json_t *v, prc_buf *chunk, prc_docbin_put_fn put, void *ctx, uint64_t *out_size,
                       prc_err *err) PRC_MUST_CHECK;

/*
 * prc_docbin_stream of an object v whose top-level member key is written
 * as a blob of the n bytes at p instead of its value in v (the worker's
 * packed dependencies; key must be a member of v).  Errors: as
 * prc_docbin_stream; buffer-limit for a blob over 4 GiB.
 */
bool prc_docbin_stream_blob(const json_t *v, const char *key, const uint8_t *p, size_t n, prc_buf *chunk,
                            prc_docbin_put_fn put, void *ctx, uint64_t *out_size, prc_err *err) PRC_MUST_CHECK;

/*
 * What prc_docbin_stream_top writes in place of up to two top-level
 * members of an object v (a key NULL: none; else a member of v):
 * blob_key's value as the blob of blob_n bytes at blob (as
 * prc_docbin_stream_blob), swap_key's as the value swap.  When swap_key is
 * met, v's own value there is measured first, with every refusal its
 * encoding would give, and the bytes it would have taken beyond swap's are
 * added to *credit before anything after it is handed to put (the worker's
 * slim details count against the reply cap as the whole document would).
 */
typedef struct prc_docbin_top {
        const char    *blob_key;
        const uint8_t *blob;
        size_t         blob_n;
        const char    *swap_key;
        const json_t  *swap;
        uint64_t      *credit;
} prc_docbin_top;

/* prc_docbin_stream of an object v with t's members in place of its own.  Errors: as prc_docbin_stream_blob. */
bool prc_docbin_stream_top(const json_t *v, const prc_docbin_top *t, prc_buf *chunk, prc_docbin_put_fn put,
                           void *ctx, uint64_t *out_size, prc_err *err) PRC_MUST_CHECK;

/*
 * An open-spelling document written event by event (the streaming YAML
 * composer): open, key, value and close in document order, every piece
 * handed to put once it holds PRC_DOCBIN_CHUNK bytes (checked before each
 * value, key and end, so the last byte is always left for finish).  The
 * caller keeps the structure right; the client's reader checks it anyway.
 */
typedef struct prc_docbin_ow {
        prc_buf          *chunk;        /* borrowed; its max bounds one piece */
        prc_docbin_put_fn put;
        void             *ctx;
        uint64_t          size;         /* bytes handed to put so far */
} prc_docbin_ow;

void prc_docbin_ow_init(prc_docbin_ow *w, prc_buf *chunk, prc_docbin_put_fn put, void *ctx);
/* Errors of all five: as prc_docbin_write (not-canonical for bad UTF-8 or a NUL in a key), and put's. */
bool prc_docbin_ow_open(prc_docbin_ow *w, bool map, prc_err *err) PRC_MUST_CHECK;
bool prc_docbin_ow_key(prc_docbin_ow *w, const char *k, size_t n, prc_err *err) PRC_MUST_CHECK;
/* A whole value (a scalar, or an aliased subtree, written open). */
bool prc_docbin_ow_value(prc_docbin_ow *w, const json_t *v, prc_err *err) PRC_MUST_CHECK;
bool prc_docbin_ow_close(prc_docbin_ow *w, prc_err *err) PRC_MUST_CHECK;
/* Hand over the rest as the last piece. */
bool prc_docbin_ow_finish(prc_docbin_ow *w, prc_err *err) PRC_MUST_CHECK;

/*
 * Source of a streaming read: bytes [0, have) of *buf are present and the
 * decoder needs [have, need) too.  Append what is ready (at least up to
 * need, unless the stream holds no more), moving *buf if it must grow;
 * *out_have gets the new count.  A source with nothing more returns true
 * with *out_have < need (the document is truncated: invalid-frame).  On
 * failure sets err with the source's own class (the client's I/O classes).
 */
typedef bool (*prc_docbin_fill_fn)(void *ctx, const uint8_t **buf, size_t have, size_t need, size_t *out_have,
                                   prc_err *err);

/*
 * prc_docbin_read while the bytes arrive: buf holds have bytes, n bounds
 * the whole document (the reply cap; counts are checked against it), and
 * fill brings more as the decoder needs them.  Same checks, classes and
 * result as prc_docbin_read, plus fill's classes.  On success the document
 * ended exactly at the last byte fill delivered; whether the stream holds
 * more is the source's to check.
 */
json_t *prc_docbin_read_stream(const uint8_t *buf, size_t n, size_t have, prc_docbin_fill_fn fill, void *ctx,
                               const prc_limits *lim, prc_err *err);

/*
 * A caller's own decoder for one member of the document's top-level object
 * (prc sbom reads a ManifestDoc's dependencies into a table, mdoc_pack.h,
 * instead of a tree).  read is called with the cursor at the member's
 * value and either reads the whole value, giving *out (a new reference,
 * stored as the member's value), or fails: with err set the document is
 * refused with that error; with err clear the hook declines, and the value
 * is read again from its first byte as any other value, so every value the
 * hook does not take exactly as it expects gets the reader's own checks and
 * errors.  The cursor's reads are the reader's own steps (the same limits,
 * node count and classes at the same bytes).
 */
typedef struct prc_docbin_cur prc_docbin_cur;
typedef struct prc_docbin_hook {
        const char *key;
        bool      (*read)(void *ctx, prc_docbin_cur *cur, json_t **out, prc_err *err);
        void       *ctx;
} prc_docbin_hook;

/* prc_docbin_read_stream with hook (may be NULL) for the top-level object's member hook->key. */
json_t *prc_docbin_read_stream_hook(const uint8_t *buf, size_t n, size_t have, prc_docbin_fill_fn fill, void *ctx,
                                    const prc_limits *lim, const prc_docbin_hook *hook, prc_err *err);

/*
 * The cursor.  Every call returns false with err set on a failure the
 * reader itself would report at the same byte (truncated input, a limit,
 * invalid UTF-8, a malformed container) and never sets it otherwise.
 *   value:     the next value's tag (counted as a node, as the reader does); *at its offset
 *   container: after a container tag: the depth and spelling checks, and the
 *              count of a counted container (*count), or PRC_DOCBIN_CUR_OPEN
 *   end:       in an open container: true (consumed) when the end tag is next
 *   key:       the next member's key in an object at member index i (open: its 0x05 first)
 *   text:      a string value's bytes (after its tag); borrowed until the next cursor call
 *   i64:       an integer value (after its tag)
 *   blob:      a blob's bytes (after its tag) and the offset of the first; borrowed until the next call
 * depth is the container's own, as the reader counts it: the top-level
 * object is 0, its members' values 1.
 */
enum { PRC_DOCBIN_CUR_OPEN = -1 };
bool prc_docbin_cur_value(prc_docbin_cur *c, uint8_t *tag) PRC_MUST_CHECK;
bool prc_docbin_cur_container(prc_docbin_cur *c, uint8_t tag, uint32_t depth, int64_t *count) PRC_MUST_CHECK;
bool prc_docbin_cur_end(prc_docbin_cur *c, bool *end) PRC_MUST_CHECK;
bool prc_docbin_cur_key(prc_docbin_cur *c, bool open, size_t i, const char **s, size_t *n) PRC_MUST_CHECK;
bool prc_docbin_cur_text(prc_docbin_cur *c, const char **s, size_t *n) PRC_MUST_CHECK;
bool prc_docbin_cur_i64(prc_docbin_cur *c, int64_t *v) PRC_MUST_CHECK;
bool prc_docbin_cur_blob(prc_docbin_cur *c, const uint8_t **p, size_t *n, size_t *off) PRC_MUST_CHECK;

#endif
