/*
 * manifest.h - adapter capability manifest (v0.4 for execution; v0.1-v0.3
 * readable for old records only).  Issue 3 implements this header; the
 * registry (issue 7), OCI runner (issue 8) and engine (issue 9) consume it.
 * Functions may be added; do not change these signatures without telling
 * the areas that use them.
 *
 * Trust: a manifest is operator-supplied but never self-trusting: nothing in
 * it can raise its own trust (fields that try are authority-claim).
 */
#ifndef PRC_ADAPTER_MANIFEST_H
#define PRC_ADAPTER_MANIFEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/digest.h"
#include "base/err.h"

typedef struct prc_manifest prc_manifest;      /* opaque: manifest.c */

typedef enum prc_manifest_use {
        PRC_MANIFEST_EXECUTE = 0,   /* v0.4 only: validation of new output, planning, running */
        PRC_MANIFEST_RECORDS,       /* v0.1-v0.4: interpreting archived records */
} prc_manifest_use;

/*
 * Load and validate a manifest file (symlink at the last component refused). NULL + err on failure
 * (err->file set): io-error, input-too-large, the YAML / strict-JSON reader's classes, not-an-object,
 * missing-field, wrong-type, unknown-field, unknown-schema-version, manifest-archived (v0.1-v0.3 with
 * PRC_MANIFEST_EXECUTE), authority-claim, invalid-value, invalid-id, mutable-version, protocol-mismatch,
 * engine-incompatible (execution only), invalid-image-ref, invalid-digest, invalid-command,
 * limit-out-of-range, out-of-memory.  docs/adapter-manifest.md has the rules.
 */
prc_manifest *prc_manifest_load(const char *path, prc_manifest_use use, prc_err *err);
/* The same from bytes: strict JSON when the first non-blank byte is '{', else the bounded YAML loader. */
prc_manifest *prc_manifest_parse(const uint8_t *p, size_t n, prc_manifest_use use, prc_err *err);
void prc_manifest_free(prc_manifest *m);

/* Borrowed: valid until prc_manifest_free. */
const char *prc_manifest_sha256(const prc_manifest *m);        /* canonical digest, 64 hex */
const char *prc_manifest_schema(const prc_manifest *m);        /* e.g. "prc.adapter-manifest/v0.4" */
const char *prc_manifest_adapter_id(const prc_manifest *m);    /* "name@version" */
const char *prc_manifest_publisher_id(const prc_manifest *m);
const char *prc_manifest_protocol(const prc_manifest *m);
const char *prc_manifest_maintenance(const prc_manifest *m);   /* active|maintenance|deprecated */
int64_t prc_manifest_engine_min(const prc_manifest *m);
int64_t prc_manifest_engine_max(const prc_manifest *m);
bool prc_manifest_declares_kind(const prc_manifest *m, const char *kind);
/* The whole validated document (borrowed). */
const json_t *prc_manifest_doc(const prc_manifest *m);

/*
 * Additions (issue 3) for the OCI runner, registry and engine.  Every
 * borrowed pointer below is valid until prc_manifest_free.  For an archived
 * manifest (loaded with PRC_MANIFEST_RECORDS) fields its version does not
 * have read as "" / 0 / empty; such a manifest can never be executed.
 */

/* The known schema identifiers. */
#define PRC_MANIFEST_SCHEMA_V04 "prc.adapter-manifest/v0.4"
#define PRC_ADAPTER_PROTOCOL_JSONL "prc-adapter-jsonl-v1"
#define PRC_ADAPTER_MESSAGE_SCHEMA "prc.adapter-message/v1"

/* Resource limits; every v0.4 manifest has all of them (docs/adapter-manifest.md). */
typedef struct prc_manifest_limits {
        uint64_t wall_seconds;
        uint64_t memory_bytes;
        uint64_t cpus_millis;   /* 1000 = one CPU */
        uint64_t pids;
        uint64_t nofile;
        uint64_t tmpfs_bytes;   /* 0: no scratch tmpfs */
        uint64_t stdin_bytes;
        uint64_t stdout_bytes;
        uint64_t stderr_bytes;
        uint64_t line_bytes;    /* one protocol line, not counting its newline */
        uint64_t messages;      /* protocol lines, the summary included */
} prc_manifest_limits;

/* The documented maxima (and minima) a manifest may declare. */
extern const prc_manifest_limits prc_manifest_limits_max;
extern const prc_manifest_limits prc_manifest_limits_min;

/* Schema minor version: 1..4 for v0.1..v0.4. */
int prc_manifest_version(const prc_manifest *m);
const prc_manifest_limits *prc_manifest_limits_of(const prc_manifest *m);
const char *prc_manifest_output_schema(const prc_manifest *m);
const char *prc_manifest_publisher_name(const prc_manifest *m);
const char *prc_manifest_owner_id(const prc_manifest *m);
const char *prc_manifest_owner_contact(const prc_manifest *m);
const char *prc_manifest_tool_name(const prc_manifest *m);
const char *prc_manifest_tool_version(const prc_manifest *m);
/* Supported tool format versions (array of strings). */
const json_t *prc_manifest_tool_formats(const prc_manifest *m);
size_t prc_manifest_kind_count(const prc_manifest *m);
const char *prc_manifest_kind_at(const prc_manifest *m, size_t i);      /* NULL past the end */
const json_t *prc_manifest_known_limitations(const prc_manifest *m);
/* Image parts: explicit registry host, repository, "sha256:<64 hex>". */
const char *prc_manifest_image_registry(const prc_manifest *m);
const char *prc_manifest_image_repository(const prc_manifest *m);
const char *prc_manifest_image_digest(const prc_manifest *m);
/* "registry/repository@sha256:..." into out; false (err buffer-limit) when it does not fit. */
bool prc_manifest_image_ref(const prc_manifest *m, char *out, size_t cap, prc_err *err) PRC_MUST_CHECK;
/* The argv, no shell. */
size_t prc_manifest_command_len(const prc_manifest *m);
const char *prc_manifest_command_arg(const prc_manifest *m, size_t i);  /* NULL past the end */
/* Declared external data directories (mounted at /prc-inputs/NAME). */
typedef struct prc_manifest_data {
        const char *name;       /* borrowed */
        uint64_t    max_bytes;
        uint64_t    max_files;
} prc_manifest_data;
size_t prc_manifest_data_count(const prc_manifest *m);
bool prc_manifest_data_at(const prc_manifest *m, size_t i, prc_manifest_data *out);
/* Find a declaration by name; false when not declared. */
bool prc_manifest_data_find(const prc_manifest *m, const char *name, prc_manifest_data *out);

/*
 * Validate an already-parsed document as a manifest (the core of
 * prc_manifest_parse; for callers that hold a json_t, e.g. an embedded copy).
 * Takes its own reference to doc.  Errors: as prc_manifest_parse.
 */
prc_manifest *prc_manifest_from_doc(json_t *doc, prc_manifest_use use, prc_err *err);

#endif
