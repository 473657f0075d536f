/*
 * sarif.h - a SARIF 2.1.0 view of a run result, for code-scanning UIs.
 * One rule per assertion; one result per assertion that did not pass, at
 * the locations of its evidence.  The run result stays the record: SARIF is
 * derived from it and carries its id.
 */
#ifndef PRC_ENGINE_SARIF_H
#define PRC_ENGINE_SARIF_H

#include <jansson.h>

#include "base/err.h"

/* New reference (transfers) or NULL with err set (out-of-memory). */
json_t *prc_sarif_from_run(const json_t *run, prc_err *err);

#endif
