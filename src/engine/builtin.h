/*
 * builtin.h - prc's own analyses over the inventory and content results.
 *
 * Each emits observations with the adapters' vocabulary; the catalog's
 * binding policy, not the analysis, decides what passes.  Analyses read
 * only the inventory listing, magic bytes and license text through the
 * target view (byte comparisons, no format parsing: parsers of target bytes
 * live in the content worker).  docs/analyses.md describes each.
 */
#ifndef PRC_ENGINE_BUILTIN_H
#define PRC_ENGINE_BUILTIN_H

#include "engine/observe.h"

/* Run analysis id over tv, appending its observations to out.  Errors: unknown-analysis, io classes. */
bool prc_builtin_run(const char *id, const prc_target_view *tv, prc_obs_list *out, prc_err *err) PRC_MUST_CHECK;

/* Recognize an SPDX license from license-file text; returns the identifier or NULL. (Exposed for tests.) */
const char *prc_builtin_spdx(const uint8_t *text, size_t n);

/* Executable format by magic bytes: "elf", "pe", "mach-o", or NULL. (Exposed for tests.) */
const char *prc_builtin_binary_kind(const uint8_t *p, size_t n);

#endif
