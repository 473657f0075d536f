/*
 * frame.h - the content-worker wire protocol: frame header, payload layouts,
 * and deadline-bounded frame I/O.  docs/content-protocol.md is the spec; a
 * change to either one bumps PRC_FRAME_VERSION.
 *
 * Trust: both directions are checked.  The client (trusted) reads replies
 * from the worker, which contains hostile parsers, so reply decoding is
 * strict: magic, version, type and length are checked before a byte of
 * payload is reserved.  The worker checks requests the same way, because
 * a confused client must not make the worker allocate without bound.
 */
#ifndef PRC_FRAME_H
#define PRC_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/limits.h"

/* Header, big-endian: u32 magic | u16 version | u16 type | u32 len; then len bytes. */
enum { PRC_FRAME_MAGIC = 0x50524357, PRC_FRAME_VERSION = 8, PRC_FRAME_HDR = 12 };
/* Default hard caps: a 10 MiB file (the analysis ceiling) fits a request; replies may expand. */
enum { PRC_REQ_MAX = 16u << 20, PRC_REPLY_MAX = 64u << 20 };

enum prc_frame_type {
        PRC_OP_PARSE    = 1,        /* request: parse input as a format */
        PRC_OP_EXTRACT  = 2,        /* request: extract a manifest into a ManifestDoc */
        PRC_OP_TOKENIZE = 3,        /* request: tokenize shell text (reserved) */
        PRC_OP_WALK     = 4,        /* request: walk an archive (reserved) */
        PRC_OP_PING     = 5,        /* request: answer with the document "pong" */
        PRC_OP_TEST     = 0x7f00,   /* request: test-only escape ops (PRC_TESTING builds) */
        PRC_RE_DOC      = 0x101,    /* reply: the document's last (or only) piece (docenc.h binary encoding) */
        PRC_RE_REFUSE   = 0x102,    /* reply: a refusal (prc_refusal layout below) */
        PRC_RE_READY    = 0x103,    /* worker's first frame: the floor is on; JSON details */
        PRC_RE_DOC_PART = 0x104,    /* reply: a piece of the document, more follow (then DOC or REFUSE) */
        PRC_RE_RESTART  = 0x105,    /* reply, empty, after a DOC_PART: drop the pieces; the reply starts over, once */
        PRC_RE_RETIRE   = 0x106,    /* reply, empty, instead of any other: unanswered, ask a fresh worker; the worker exits */
};

/* Field caps inside payloads: each bounds one allocation or copy. */
enum {
        PRC_FRAME_PATH_MAX  = 4096,
        PRC_FRAME_ARGS_MAX  = 64u << 10,
        PRC_FRAME_CLASS_MAX = 64,
        PRC_FRAME_PTR_MAX   = 127,
        PRC_FRAME_MSG_MAX   = 255,
};

/* Encode a header into out. */
void prc_frame_hdr_encode(uint8_t out[PRC_FRAME_HDR], uint16_t type, uint32_t len);

/*
 * Decode and check a header: magic and version must match, type must be in
 * allowed[0..nallowed), len at most max (else class overcap).  Errors:
 * invalid-frame, overcap.
 */
bool prc_frame_hdr_decode(const uint8_t in[PRC_FRAME_HDR], const uint16_t *allowed, size_t nallowed,
                          uint32_t max, prc_errclass overcap, uint16_t *out_type, uint32_t *out_len,
                          prc_err *err) PRC_MUST_CHECK;

/*
 * Deadline for frame I/O: CLOCK_MONOTONIC nanoseconds, or PRC_NO_DEADLINE.
 * With a deadline the fd should be O_NONBLOCK: the I/O loop polls for the
 * rest of the time; without one it blocks (the worker, whose seccomp
 * allowlist has no poll).
 */
#define PRC_NO_DEADLINE INT64_MAX
int64_t prc_now_ns(void);

/* Outcome of a frame read. */
typedef enum prc_frame_rc {
        PRC_FRAME_OK = 0,
        PRC_FRAME_EOF,          /* clean end of stream before any header byte */
        PRC_FRAME_ERR,          /* err set: invalid-frame, overcap, worker-timeout, io-error, worker-dead */
} prc_frame_rc;

/*
 * Write one frame (header and payload) in full, looping on short writes and
 * EINTR.  A closed peer (EPIPE) does not raise SIGPIPE in the caller.
 * Errors: io-error (peer closed: sys EPIPE), worker-timeout.
 */
bool prc_frame_write(int fd, uint16_t type, const void *p, size_t n, int64_t deadline, prc_err *err) PRC_MUST_CHECK;
/* Bytes that are whole frames already (several requests, each header and payload), written as one frame is. */
bool prc_frame_write_run(int fd, const void *p, size_t n, int64_t deadline, prc_err *err) PRC_MUST_CHECK;
/*
 * Wait until fd is readable (or hung up) or the deadline passes: for a
 * reply that cannot be there yet, a poll before the read saves the read
 * that would only say EAGAIN.  Errors: worker-timeout, io-error.
 */
bool prc_frame_wait(int fd, int64_t deadline, prc_err *err) PRC_MUST_CHECK;
/*
 * The calling thread keeps SIGPIPE blocked from now until it ends (the
 * scan's lanes: engine/lanes.h lane_start): its frame writes then skip the
 * three system calls a write otherwise spends blocking SIGPIPE around it
 * and checking what was pending (a third of a small file's trip on this
 * host's paravirtualized syscalls).  A SIGPIPE its writes raise stays
 * pending, blocked, in the thread and goes with it.  Once per thread: a
 * second call costs nothing.
 */
void prc_frame_hold_sigpipe(void);
/*
 * The same frame with the payload a[0..an) then b[0..bn), written from
 * where they are: only what goes out with the header in its first write
 * (a of at most 16 KiB, and b too when the whole payload fits) is copied.
 */
bool prc_frame_write2(int fd, uint16_t type, const void *a, size_t an, const void *b, size_t bn, int64_t deadline,
                      prc_err *err) PRC_MUST_CHECK;

/*
 * Read one frame: header checked as prc_frame_hdr_decode, then exactly len
 * bytes into payload (reset first; its max must be >= max).  EOF inside a
 * frame is class eof_cls (worker-dead for the client).  Errors: as above,
 * io-error, worker-timeout, out-of-memory.
 */
prc_frame_rc prc_frame_read(int fd, const uint16_t *allowed, size_t nallowed, uint32_t max,
                            prc_errclass overcap, prc_errclass eof_cls, int64_t deadline,
                            uint16_t *out_type, prc_buf *payload, prc_err *err);

/*
 * A frame read in pieces, for a payload consumed while it crosses:
 * read_hdr (the header checks of prc_frame_read), then read_some until the
 * header's length has arrived.
 */
prc_frame_rc prc_frame_read_hdr(int fd, const uint16_t *allowed, size_t nallowed, uint32_t max,
                                prc_errclass overcap, prc_errclass eof_cls, int64_t deadline,
                                uint16_t *out_type, uint32_t *out_len, prc_err *err);
/*
 * Read at least min and at most max bytes into p (fewer than min only on
 * error: EOF is class eof_cls); *got counts them.  Errors: eof_cls,
 * io-error, worker-timeout.
 */
bool prc_frame_read_some(int fd, uint8_t *p, size_t min, size_t max, int64_t deadline, prc_errclass eof_cls,
                         size_t *got, prc_err *err) PRC_MUST_CHECK;

/*
 * Request payload (every op):
 *   u16 format | u32 flags | limits | str path | str args | input (to the end)
 * limits = u64 input_max | u64 scalar_max | u32 depth | nodes | alias | anchor | merge | keys.
 * str = u32 length then bytes.  Pointers are borrowed from the payload.
 */
typedef struct prc_req {
        uint16_t       op;
        uint16_t       format;
        uint32_t       flags;
        prc_limits     lim;
        const char    *path;    /* borrowed; not NUL-terminated; no NUL inside */
        size_t         path_len;
        const uint8_t *args;    /* borrowed; op-specific (JSON text), may be empty */
        size_t         args_len;
        const uint8_t *input;   /* borrowed */
        size_t         input_len;
} prc_req;

/*
 * Request flag of every op, never passed on to a loader: the client wants
 * the verdict only.  The worker makes, checks and counts the document as
 * usual (so every refusal, the reply cap's included, is the one the whole
 * document gets) but sends the document `true` in its place: a parse whose
 * tree the caller would throw away costs neither the pipe nor a decode.
 */
#define PRC_REQ_VERDICT (1u << 31)
/*
 * Request flag of PRC_OP_EXTRACT (protocol version 6), never passed on to
 * a loader (nor heeded by other ops): `format` is then a PRC_FMT_* code,
 * and the worker first parses the input as that format exactly as a
 * PRC_OP_PARSE with PRC_REQ_VERDICT would (so its refusal, if any, is the
 * very one that request gets, and is the answer), and only then extracts
 * (as with `format` 0).  One round trip for a file the scan both parses
 * and extracts: the first refusal is the parse's, as with two requests.
 */
#define PRC_REQ_PARSE_FIRST (1u << 30)
/*
 * Request flag of PRC_OP_EXTRACT (protocol version 7), never passed on to
 * an extractor: the ManifestDoc's "dependencies" may come as one blob
 * (docenc.h) holding the packed table (mdoc_pack.h) instead of the array;
 * the worker sends the array when its dependencies are not exactly what
 * the ManifestDoc's rules take.  The client checks every byte of a table.
 */
#define PRC_REQ_PACKED_DEPS (1u << 29)
/*
 * Request flag of PRC_OP_EXTRACT (protocol version 8), never passed on to
 * an extractor: the client reads of "details" only the members
 * prc_mdoc_slim_keys names (mdoc_details.h; prc sbom).  The worker makes
 * the whole document, and measures and counts it against the reply cap as
 * if it sent it whole (so every refusal is the one the whole document
 * gets), but sends "details" with those members only.
 */
#define PRC_REQ_SLIM_DETAILS (1u << 28)

/* Bytes prc_req_encode will produce (to refuse an over-cap request before building it). */
size_t prc_req_size(const prc_req *r);
/* Append the payload to out.  Errors: invalid-frame (path or args over cap), buffer-limit, out-of-memory. */
bool prc_req_encode(const prc_req *r, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/*
 * The payload but its input, which comes last: prc_req_encode is this and
 * then the input's bytes, so the client writes the input from where it is
 * (prc_frame_write2) instead of copying it.  Errors as prc_req_encode.
 */
bool prc_req_encode_head(const prc_req *r, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Decode p[0..n) (borrowed into out).  Errors: invalid-frame. */
bool prc_req_decode(const uint8_t *p, size_t n, uint16_t op, prc_req *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Refusal payload:
 *   str class-name | u64 offset | u32 line | u32 col | str pointer | str message
 * The class crosses by name, so a client and worker of different builds
 * cannot mislabel a refusal; an unknown name is an invalid frame.
 */
bool prc_refusal_encode(const prc_err *e, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* Decode into refusal (initialized here).  Errors (in err): invalid-frame. */
bool prc_refusal_decode(const uint8_t *p, size_t n, prc_err *refusal, prc_err *err) PRC_MUST_CHECK;

#endif
