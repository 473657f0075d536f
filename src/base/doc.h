/*
 * doc.h - load an operator or target document (YAML or JSON) and digest it.
 *
 * The canonical digest of a document is the SHA-256 of its canonical JSON
 * (jcs.h).  This is how manifests, registries and catalogs are pinned: two
 * files that differ only in formatting, key order or YAML style have the
 * same digest.
 */
#ifndef PRC_DOC_H
#define PRC_DOC_H

#include <jansson.h>

#include "base/digest.h"
#include "base/limits.h"

typedef enum prc_doc_format {
        PRC_DOC_AUTO = 0,       /* by file name: .json is JSON, everything else YAML */
        PRC_DOC_JSON,
        PRC_DOC_YAML,
} prc_doc_format;

/* Parse bytes as fmt (AUTO means YAML, which accepts JSON too).  Returns a new reference or NULL. */
json_t *prc_doc_parse(const uint8_t *p, size_t n, prc_doc_format fmt, const prc_limits *lim, prc_err *err);
/* Read and parse a file (symlinks at the last component refused).  err->file is set. */
json_t *prc_doc_load(const char *path, prc_doc_format fmt, const prc_limits *lim, prc_err *err);
/* Canonical digest of a document file. */
bool prc_doc_digest_file(const char *path, prc_doc_format fmt, const prc_limits *lim,
                         char out[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;

#endif
