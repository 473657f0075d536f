/*
 * client.h - the trusted side of the content worker: starts workers,
 * frames requests, turns every failure into a named refusal, caches parses.
 *
 * Callers get a document or a refusal, never a partial or empty stand-in;
 * the manifest layer records a refusal as a coverage gap.  Worker-level
 * refusals: worker-dead, worker-denied-syscall, worker-limit,
 * worker-timeout, worker-start, reply-too-large, invalid-frame,
 * request-too-large, floor-unavailable.  After any of these (and after
 * out-of-memory) the worker is killed and reaped; the next request starts
 * a fresh one.  Parser refusals (invalid-json, the yaml-* classes, ...)
 * keep the worker.
 *
 * Fork safety: a client used in a process other than the one that started
 * its worker abandons that worker (closes its copies of the pipes; never
 * reads, writes, signals or waits for it) and starts its own.
 * Not thread-safe: one client per thread.
 */
#ifndef PRC_CLIENT_H
#define PRC_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "base/limits.h"
#include "content/dispatch.h"
#include "content/floor.h"

typedef struct prc_client prc_client;   /* opaque */

/*
 * Bytes the parse cache charges for each entry beyond its reply payload
 * (entry block, hash slots, heap overhead): cache_max bounds the memory
 * the cache holds, so many tiny replies cannot exceed it either.
 */
enum { PRC_CACHE_ENTRY_OVERHEAD = 160 };

typedef struct prc_client_opts {
        const char        *worker_path;  /* borrowed; NULL: /proc/self/exe (this prc binary) */
        const char *const *worker_args;  /* borrowed; extra "key=value" words (test builds), NULL-terminated */
        uint32_t           req_max;      /* framed-request cap (PRC_REQ_MAX) */
        uint32_t           reply_max;    /* reply cap (PRC_REPLY_MAX) */
        unsigned           timeout_ms;   /* wall clock per request, write through reply (10 s) */
        unsigned           start_ms;     /* spawn to the worker's first frame (5 s) */
        size_t             cache_max;    /* parse cache bound in bytes: each entry is charged its reply
                                          * payload plus PRC_CACHE_ENTRY_OVERHEAD; 0 disables (64 MiB) */
        uint64_t           as_bytes;     /* worker RLIMIT_AS (1 GiB) */
        unsigned           cpu_seconds;  /* worker RLIMIT_CPU (60 s) */
        unsigned           max_requests; /* replace a worker after this many requests (1000); it is also
                                          * replaced once its time on requests plus timeout_ms reaches
                                          * cpu_seconds, so RLIMIT_CPU never ends a request within its deadline */
        prc_limits         lim;          /* decoder limits sent with each request (prc_limits_default) */
        prc_floor_level    floor;        /* the floor workers must apply (PRC_FLOOR_STRICT; --content-floor) */
        bool               packed_deps;  /* extractions give "dependencies" as a table (mdoc_pack.h; prc sbom) */
        bool               slim_details; /* extractions give "details" slim (PRC_REQ_SLIM_DETAILS, frame.h; prc sbom) */
} prc_client_opts;

/* Fill opts with the defaults given above. */
void prc_client_opts_default(prc_client_opts *opts);

/* A client; starts no worker yet (lazy).  opts is copied.  NULL on out-of-memory. */
prc_client *prc_client_new(const prc_client_opts *opts, prc_err *err);
/* Stop the worker (if this process owns it) and free everything.  Accepts NULL. */
void prc_client_free(prc_client *c);

/*
 * Parse bytes[0..len) as fmt through the worker.  On success *out gets a
 * new reference (transfers).  On refusal returns false with err set to the
 * named class; err->file is set to path (which only labels the request).
 * Repeated identical requests are answered from the cache.
 */
bool prc_client_parse(prc_client *c, uint16_t fmt, const char *path, const uint8_t *bytes, size_t len,
                      json_t **out, prc_err *err) PRC_MUST_CHECK;

/*
 * Any operation of the dispatch table: op, its format or sub-code, request
 * flags, op arguments (args, may be NULL) and input.  cacheable lets the
 * reply be cached and served from the cache.  Contract as prc_client_parse.
 */
bool prc_client_call(prc_client *c, uint16_t op, uint16_t format, uint32_t flags, const char *path,
                     const void *args, size_t args_len, const uint8_t *input, size_t len, bool cacheable,
                     json_t **out, prc_err *err) PRC_MUST_CHECK;

/*
 * Extract a manifest through the worker (PRC_OP_EXTRACT): format names the
 * extractor ("npm-package-lock"), or NULL to let path's file name choose.
 * The reply is decoded as hostile bytes like any document, then checked
 * against the ManifestDoc schema (prc_mdoc_check: every key and type, the
 * path sent, the format asked for, details by its format's shape with its
 * token documents); a document that fails is refused as manifest-doc-invalid
 * or manifest-doc-details-invalid and its worker is ended.  Refusals as
 * prc_client_call, plus the extractors' own classes (extract-*, the
 * parsers', the families').  Cached like parses.
 */
bool prc_client_extract(prc_client *c, const char *format, const char *path, const uint8_t *bytes, size_t len,
                        json_t **out, prc_err *err) PRC_MUST_CHECK;

/*
 * The parse of bytes as parse_fmt (a PRC_FMT_* code, verdict only) and then
 * the extraction by path's name, in one round trip (PRC_REQ_PARSE_FIRST):
 * the parse's refusal when it refuses (the very one prc_client_call of
 * PRC_OP_PARSE with PRC_REQ_VERDICT gets), else as prc_client_extract with
 * format NULL.  What a scan that both parses and extracts a file asks.
 */
bool prc_client_parse_extract(prc_client *c, uint16_t parse_fmt, const char *path, const uint8_t *bytes, size_t len,
                              json_t **out, prc_err *err) PRC_MUST_CHECK;

/*
 * One file of prc_client_parse_extract_many: what prc_client_parse_extract
 * takes (parse_fmt 0: prc_client_extract's, format NULL), and its answer.
 */
typedef struct prc_client_xitem {
        uint16_t       parse_fmt;
        const char    *path;
        const uint8_t *bytes;
        size_t         len;
        bool           ok;      /* out: md holds the ManifestDoc (the caller's), else err says why */
        json_t        *md;
        prc_err        err;
} prc_client_xitem;

/*
 * prc_client_parse_extract of each item (prc_client_extract by path when
 * its parse_fmt is 0), in order, every answer the one that call gives; but
 * the requests of several small files go to the worker in one write (a
 * run), and it answers them one after the other without waiting for us in
 * between (a round trip between two processes on two cores is some 40 us
 * of CPU on the VMs measured, docs/extraction/peers.md).  A run holds only
 * what the request pipe takes at once, so the write never waits for the
 * worker; as many requests as prc_client_call would send this worker
 * before retiring it (max_requests, and the CPU budget with timeout_ms for
 * each); none with a reply cache (each item is then a call of its own).
 * What a RETIRE, a dead, killed or timed-out worker leaves unanswered goes
 * to a fresh worker, as the next call would.
 */
void prc_client_parse_extract_many(prc_client *c, prc_client_xitem *items, size_t n);

/* Start the worker now if none is running (sandbox probe, benchmarks).  Errors: as above. */
bool prc_client_start(prc_client *c, prc_err *err) PRC_MUST_CHECK;

/* Borrowed: the running worker's READY details ({"floor","landlock_abi","protocol","syscalls"}), or NULL. */
const json_t *prc_client_ready(const prc_client *c);

/*
 * The floor this client's workers served under, for run results and
 * evidence (issue 23): the READY floor record (prc_floor_record) with
 * "worker": "served"; or {"level", "worker": "refused"} when workers were
 * refused for floor-unavailable and none served; or {"level", "worker":
 * "not-started"} when no worker was needed.  Every worker of a client must
 * report the same floor: one that does not is refused (invalid-frame).
 * Returns a new reference (transfers), NULL on out-of-memory.
 */
json_t *prc_client_floor_record(const prc_client *c);

typedef struct prc_client_stats {
        uint64_t round_trips;     /* requests sent to a worker */
        uint64_t cache_hits;
        uint64_t workers_started;
        uint64_t restarts;        /* replies the worker started over (PRC_RE_RESTART: a streamed YAML fell back) */
        uint64_t retirements;     /* requests a worker left to a fresh one (PRC_RE_RETIRE: it kept memory) */
        uint64_t packed_from_tree; /* packed_deps: dependencies the table reader declined, packed from the tree */
        uint64_t runs;            /* writes that carried several requests (prc_client_parse_extract_many) */
        size_t   cache_bytes, cache_entries;   /* cache_bytes: as charged (payloads + overhead) */
        pid_t    worker_pid;      /* 0 when none is running */
} prc_client_stats;
void prc_client_get_stats(const prc_client *c, prc_client_stats *out);

#endif
