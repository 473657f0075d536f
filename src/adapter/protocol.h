/*
 * protocol.h - prc-adapter-jsonl-v1: the strict streaming decoder of adapter
 * output, the builder of the three scanner-to-adapter lines, and the
 * standard-error meter.  The contract is docs/adapter-protocol.md and
 * schemas/adapter-message.schema.json.
 *
 * Trust: adapter output is hostile.  The decoder never buffers more than one
 * line (at most the manifest's line_bytes), enforces every manifest limit
 * while bytes arrive, stops at the first error (which keeps its 1-based
 * line), and never copies adapter bytes into an error message: messages
 * name prc's own vocabulary, lengths and offsets only.  Only an accepted
 * transcript yields observations; a summary is an execution status, never a
 * control result.
 */
#ifndef PRC_ADAPTER_PROTOCOL_H
#define PRC_ADAPTER_PROTOCOL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "base/buf.h"
#include "base/digest.h"
#include "base/err.h"

/* The ceilings the decoder enforces (from the manifest; a fixture case may lower them). */
typedef struct prc_proto_limits {
        uint64_t line_bytes;    /* bytes in one line, not counting its '\n' */
        uint64_t messages;      /* non-blank lines, the summary included */
        uint64_t stdout_bytes;  /* every byte of standard output */
} prc_proto_limits;

/* The manifest's own protocol ceilings. */
prc_proto_limits prc_proto_limits_of(const prc_manifest *m);

typedef enum prc_disposition {
        PRC_DISP_PENDING = 0,   /* still reading */
        PRC_DISP_ACCEPTED,
        PRC_DISP_REJECTED,
} prc_disposition;

/* Stable lowercase name: "pending", "accepted", "rejected". */
const char *prc_disposition_name(prc_disposition d);

/* How the recorded execution ended (the OCI runner fills it in; fixtures declare it). */
typedef struct prc_exec_end {
        int  exit_status;       /* 0 for a clean exit */
        bool timed_out;         /* killed at wall_seconds */
        bool memory_limit;      /* killed at memory_bytes */
} prc_exec_end;

typedef struct prc_decoder prc_decoder;        /* opaque: protocol.c */

/*
 * New decoder for output of manifest m (borrowed: must outlive the decoder;
 * loaded with PRC_MANIFEST_EXECUTE, which is what checks engine compatibility)
 * under lim (NULL: the manifest's limits).  lim may only lower the
 * manifest's ceilings.  Returns NULL with err set: manifest-archived (m is
 * a v0.1-v0.3 manifest), protocol-mismatch (m is not a jsonl adapter),
 * limit-out-of-range (lim raises or zeroes a ceiling), out-of-memory.
 */
prc_decoder *prc_decoder_new(const prc_manifest *m, const prc_proto_limits *lim, prc_err *err);
void prc_decoder_free(prc_decoder *d);

/*
 * Feed the next n bytes of standard output, in any chunking.  Returns false
 * once the output is rejected (later calls do nothing and return false).
 */
bool prc_decoder_feed(prc_decoder *d, const void *p, size_t n);

/*
 * End of stream.  end (NULL: exit status 0) says how the execution ended: a
 * timeout or memory kill rejects the output as adapter-timed-out or
 * adapter-memory-limit unless an earlier line already failed; then a
 * partial line is unterminated-line, no summary is missing-summary, and a
 * nonzero exit is adapter-exit-status.  Returns true when accepted.
 */
bool prc_decoder_finish(prc_decoder *d, const prc_exec_end *end);

prc_disposition prc_decoder_disposition(const prc_decoder *d);
/* Borrowed.  cls is PRC_E_OK unless rejected; line is 1-based (0 when not about one line). */
const prc_err *prc_decoder_error(const prc_decoder *d);
/* "completed" | "unsupported" | "failed" once accepted, else NULL.  Borrowed. */
const char *prc_decoder_summary_status(const prc_decoder *d);
/*
 * The decoded observation / artifact messages (JSON arrays of the objects
 * as received, in order).  Borrowed: valid until prc_decoder_free.  Empty
 * unless the transcript was accepted: rejected output is never evidence.
 * The observation array is built on first call (the decoder keeps lines
 * compactly); an empty array after acceptance with observations means the
 * rebuild ran out of memory.
 */
const json_t *prc_decoder_observations(const prc_decoder *d);
/*
 * Before the first feed: keep only each observation's id, kind and outcome
 * (prc_decoder_observations then stays empty).  For callers that report
 * but do not hand observations on, such as validate-output and fixtures.
 */
void prc_decoder_keep_briefs_only(prc_decoder *d);
/* Count and id / kind / outcome of accepted observations, without building JSON (0 / false otherwise). */
size_t prc_decoder_observation_count(const prc_decoder *d);
/* Borrowed strings, valid until prc_decoder_free. */
bool prc_decoder_observation_brief(const prc_decoder *d, size_t i, const char **out_id, const char **out_kind,
                                   const char **out_outcome);
const json_t *prc_decoder_artifacts(const prc_decoder *d);
uint64_t prc_decoder_log_count(const prc_decoder *d);
/* Bytes consumed and lines completed so far. */
uint64_t prc_decoder_bytes(const prc_decoder *d);
uint64_t prc_decoder_lines(const prc_decoder *d);
/* SHA-256 of the bytes consumed (64 hex); valid after prc_decoder_finish. */
const char *prc_decoder_stdout_sha256(const prc_decoder *d);

/*
 * One-shot: decode a whole transcript buffer and finish with end.  Returns a
 * finished decoder (check its disposition), or NULL when the decoder could
 * not be made (err set as prc_decoder_new).
 */
prc_decoder *prc_decode_transcript(const prc_manifest *m, const prc_proto_limits *lim, const void *p,
                                   size_t n, const prc_exec_end *end, prc_err *err);

/*
 * The scanner's three lines, hello / input / execute, each canonical JSON
 * plus '\n', appended to out (whose ceiling should be the manifest's
 * stdin_bytes).  facts and config may be NULL (empty objects).  Errors:
 * invalid-digest (run_id or inventory_digest not 64 lowercase hex),
 * invalid-value (empty target name or one with control characters),
 * wrong-type (facts or config not objects), not-canonical, buffer-limit.
 */
bool prc_proto_write_request(const char *run_id, const char *target_name, const char *inventory_digest,
                             const json_t *facts, const json_t *config, prc_buf *out,
                             prc_err *err) PRC_MUST_CHECK;

/*
 * Standard error is diagnostic text that may hold secrets: it is never
 * printed or stored.  The meter keeps only its byte count and SHA-256, and
 * says when the byte count passed the manifest's stderr_bytes.
 */
typedef struct prc_stderr_meter {
        prc_sha256 *h;          /* owned */
        uint64_t    bytes;
        uint64_t    cap;
        char        sha256[PRC_SHA256_HEX + 1];  /* set by _finish */
} prc_stderr_meter;

bool prc_stderr_meter_init(prc_stderr_meter *s, uint64_t cap, prc_err *err) PRC_MUST_CHECK;
bool prc_stderr_meter_feed(prc_stderr_meter *s, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;
static inline bool prc_stderr_meter_over(const prc_stderr_meter *s) { return s->bytes > s->cap; }
bool prc_stderr_meter_finish(prc_stderr_meter *s, prc_err *err) PRC_MUST_CHECK;
void prc_stderr_meter_clear(prc_stderr_meter *s);

#endif
