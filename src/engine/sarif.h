/*
 * sarif.h - a SARIF 2.1.0 view of a run result, for code-scanning UIs.
 * One rule per assertion, with its rationale, remediation and decision
 * rule as help; one result per finding (findings.h) of each assertion that
 * did not pass, at its file and line, fingerprinted by the finding's
 * content digest.  The run result stays the record: SARIF is derived from
 * it alone and carries its provenance (docs/reports.md).
 */
#ifndef PRC_ENGINE_SARIF_H
#define PRC_ENGINE_SARIF_H

#include <jansson.h>

#include "base/err.h"

/* New reference (transfers) or NULL with err set (out-of-memory). */
json_t *prc_sarif_from_run(const json_t *run, prc_err *err);

#endif
