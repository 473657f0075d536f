/*
 * scan.h - `prc scan`: inventory, content analysis, built-in analyses,
 * (adapters), engine, run result.
 *
 * The result is one canonical JSON object (schemas/run-result.schema.json)
 * whose "id" is the digest of the rest.  No wall-clock time and no host
 * path enters it: two scans of the same tree with the same inputs are
 * byte-identical.
 */
#ifndef PRC_ENGINE_SCAN_H
#define PRC_ENGINE_SCAN_H

#include <jansson.h>
#include <stdbool.h>
#include <time.h>

#include "base/buf.h"
#include "base/err.h"
#include "engine/adapters.h"
#include "inventory/inventory.h"

#define PRC_RUN_SCHEMA "prc.run-result/v1"

typedef enum prc_scan_mode {
        PRC_MODE_INSPECT = 0,   /* never launches containers */
        PRC_MODE_VERIFY_LOCAL,  /* runs the authorized adapter set in the OCI runner */
} prc_scan_mode;

/*
 * Content parse hook: parse p[0..n) (file path, as format) in the content
 * worker.  Returns true when the worker returned a document, and then, when
 * out_doc is not NULL, *out_doc gets it (a new reference, transfers); false
 * with err set to the refusal (any class) otherwise.  The engine turns every
 * false into a coverage gap, never into a clean result.  Shell formats are
 * tokenized with recovery (PRC_SHELL_RECOVER): the engine reports a
 * document's recovered errors as a gap and still analyzes what it holds.
 */
typedef bool (*prc_content_parse_fn)(void *ctx, const char *format, const char *path, const uint8_t *p,
                                     size_t n, json_t **out_doc, prc_err *err);

/*
 * Content extraction hook: the ManifestDoc of p[0..n) through the content
 * worker (PRC_OP_EXTRACT), extracted as format (NULL: the extractor that
 * owns path by name), already checked against the ManifestDoc schema
 * (prc_client_extract).  Returns true with *out_md (transfers), or false
 * with err set to the refusal; the engine turns every false into a
 * coverage gap with that class.
 */
typedef bool (*prc_content_extract_fn)(void *ctx, const char *format, const char *path, const uint8_t *p,
                                       size_t n, json_t **out_md, prc_err *err);

/*
 * Parse-then-extract hook: the parse of p[0..n) as format (a verdict: the
 * tree is not wanted) and then, when it parses, the extraction by path's
 * name, in one trip through the worker (prc_client_parse_extract).
 * Returns as the extraction hook; when the parse refuses, err is the
 * parse's refusal, the very one the parse hook gives: the first refusal,
 * as the two hooks one after the other would make it.
 */
typedef bool (*prc_content_parse_extract_fn)(void *ctx, const char *format, const char *path, const uint8_t *p,
                                             size_t n, json_t **out_md, prc_err *err);

/*
 * One file of the many-files hook: its format, path and bytes, and the
 * answer parse_extract gives it (format NULL: the extract hook's, format
 * NULL too, for a file with an extractor and no parse format).
 */
typedef struct prc_scan_xitem {
        const char    *format;
        const char    *path;
        const uint8_t *p;
        size_t         n;
        bool           ok;      /* out: md (transfers), else err */
        json_t        *md;
        prc_err        err;
} prc_scan_xitem;

/*
 * parse_extract of several small files at once (prc_client_parse_extract_many:
 * one write for their requests): each item's answer is the one the
 * parse_extract hook gives it.
 */
typedef void (*prc_content_parse_extract_many_fn)(void *ctx, prc_scan_xitem *items, size_t n);

/*
 * Adapter execution hook (verify-local): run adapter a over the sealed
 * inventory with the protocol run_id, before the shared deadline (NULL:
 * none).  Returns true with *out_record (transfers) a sealed execution
 * record whatever its disposition; false with err set when the run was
 * refused before a plan existed.  Neither outcome can make anything pass
 * by itself: the engine reads only accepted, completed records.
 */
typedef bool (*prc_adapter_run_fn)(void *ctx, const prc_scan_adapter *a, const prc_inventory *inv,
                                   const char *run_id, const struct timespec *deadline, json_t **out_record,
                                   prc_err *err);

typedef struct prc_scan_opts {
        const char          *target;          /* borrowed: directory to review */
        const char          *catalog_root;    /* borrowed: directory holding catalog.yaml */
        /*
         * Borrowed, may be NULL: a catalog already loaded (prc batch loads it
         * once for every target); catalog_root is then not read.
         */
        const struct prc_catalog *catalog;
        const char          *profile;         /* borrowed: profile id (default prc/core) */
        prc_scan_mode        mode;
        const char          *now;             /* borrowed: RFC 3339 clock input, or NULL */
        prc_content_parse_fn parse;           /* content-worker hook (required) */
        prc_content_extract_fn extract;       /* content-worker extraction hook (required; parse_ctx) */
        prc_content_parse_extract_fn parse_extract;     /* optional: parse and extract in one trip (parse_ctx) */
        /* Optional, with parse_extract: small files parsed and extracted several at once (parse_ctx, lane_ctx). */
        prc_content_parse_extract_many_fn parse_extract_many;
        void                *parse_ctx;
        /*
         * Optional: a second context for parse and extract, used from
         * another thread while parse_ctx is in use (its own content
         * worker).  When set, two manifests go through the worker at once
         * and each is recorded as it finishes; the scan then puts what it
         * recorded in inventory order, so the result does not change
         * (lanes.h; extraction_each below sees the finishing order).
         */
        void                *lane_ctx;
        /*
         * With lane_ctx: the finished trips recorded at once (lanes.h
         * take_batch; 0: the scan's own, 8).  1 records each as it
         * finishes, which tests that make one trip wait for another's
         * recording need.
         */
        size_t               take_batch;
        /*
         * The content floor the parses ran under (required; issue 23), asked
         * after content analysis: a new reference (transfers), NULL on
         * out-of-memory.  Recorded as the run's "content_floor" and in every
         * evidence envelope that depends on the worker, so results made under
         * different floors never share an ID.
         */
        json_t            *(*content_floor)(void *parse_ctx);
        void               (*progress)(const char *stage);  /* optional, stderr progress */
        prc_adapter_set     *adapters;        /* borrowed: resolved set (verify-local), or NULL; sorted here */
        prc_adapter_run_fn   run_adapter;     /* required when adapters has entries */
        /* Called once the set is authorized, before the inventory; false (err set) refuses the scan. */
        bool               (*preflight)(void *ctx, prc_err *err);
        void                *run_ctx;
        unsigned             max_duration_s;  /* one deadline for the whole adapter set; 0: none */
        /*
         * Issue 20: make the inventory other than by walking target (an
         * archive target: its member listing, prc_inventory_from_listing).
         * NULL: walk target.  On success *out_inv (transfers) is the
         * inventory and *out_source (transfers, may stay NULL) is recorded as
         * the target's "archive" object; false with err set refuses the scan.
         */
        bool               (*open_target)(void *ctx, prc_inventory **out_inv, json_t **out_source, prc_err *err);
        void                *target_ctx;
        /* Borrowed, may be NULL: recorded as the target's "aur" object ({"package", "url"}). */
        const json_t        *aur;
        /*
         * prc sbom: when set, the scan stops after content analysis (no
         * catalog, no assessment, *out_result NULL) and stores here (a new
         * reference) {"manifests": the ManifestDocs sorted by path,
         * "coverage_gaps": every gap so far, as the run result lists them}.
         */
        json_t             **extraction_out;
        /*
         * With extraction_out: when set, each ManifestDoc is handed here
         * (borrowed) as the worker returns it, always on the scan's own
         * thread.  With lane_ctx they come in the order the trips finish,
         * not in inventory order: order is the document's place in
         * inventory order (0, 1, ...: the manifests, then the files reached
         * through an include, in the order they were reached), so a fold
         * whose result depends on order can make it that of the inventory
         * (prc sbom's first-seen choices do).  The scan keeps of each only
         * what following its includes needs (path, format,
         * details.includes): "manifests" then holds those stubs.  prc sbom
         * folds each document into its BOM this way instead of holding
         * every document at once.  false (err set) ends the scan.
         */
        bool               (*extraction_each)(void *ctx, const json_t *md, size_t order, prc_err *err);
        void                *extraction_ctx;
        /*
         * Borrowed, may be NULL: the result's canonical bytes (with its id,
         * as prc_jcs_write spells it) are appended here, made in the same
         * pass as the id (prc jcs_id_write): prc batch stores them as they are.
         */
        prc_buf             *canonical_out;
} prc_scan_opts;

/*
 * Run a scan.  On success *out_result is a new reference (transfers) and
 * *out_exit the exit status DESIGN.md gives the result (0 every assertion
 * passed, 1 otherwise).  Errors (the run itself could not be made): the
 * catalog, inventory and I/O classes, unknown-profile.
 */
bool prc_scan_run(const prc_scan_opts *o, json_t **out_result, int *out_exit, prc_err *err) PRC_MUST_CHECK;

#endif
