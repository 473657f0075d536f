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
#include <stdint.h>

#include "base/digest.h"
#include "base/err.h"

typedef struct prc_manifest prc_manifest;      /* opaque: manifest.c */

typedef enum prc_manifest_use {
        PRC_MANIFEST_EXECUTE = 0,   /* v0.4 only: validation of new output, planning, running */
        PRC_MANIFEST_RECORDS,       /* v0.1-v0.4: interpreting archived records */
} prc_manifest_use;

/* Load and validate a manifest file (symlink at the last component refused). NULL + err on failure. */
prc_manifest *prc_manifest_load(const char *path, prc_manifest_use use, prc_err *err);
/* The same from bytes (YAML or JSON). */
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

#endif
