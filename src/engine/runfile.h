/*
 * runfile.h - read a run result back from a file (prc report, --baseline).
 * Trust: the file is untrusted input: strict JSON, bounded, its content ID
 * recomputed, and the fields a report reads checked before any is read.
 */
#ifndef PRC_ENGINE_RUNFILE_H
#define PRC_ENGINE_RUNFILE_H

#include <jansson.h>

#include "base/err.h"

/* Largest run result read back (the evidence of a big tree stays far below). */
#define PRC_RUNFILE_MAX ((size_t)256 << 20)

/*
 * Load path (no symlink) as a run result; role names it in messages ("the
 * baseline").  New reference (transfers) or NULL with err set: the I/O and
 * strict-JSON classes, or run-result-invalid (not a prc.run-result/v1, an
 * ID that is not the digest of the rest, a field a report reads missing or
 * of the wrong type).
 */
json_t *prc_runfile_load(const char *path, const char *role, prc_err *err) PRC_MUST_CHECK;

/* The checks of prc_runfile_load on a parsed document.  Errors: run-result-invalid. */
bool prc_runfile_check(const json_t *run, const char *role, prc_err *err) PRC_MUST_CHECK;

#endif
