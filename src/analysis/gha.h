/*
 * gha.h - reading GitHub Actions ManifestDocs (format gha-workflow and
 * gha-action, docs/extraction/actions.md) for the workflow analyses
 * (workflows*.c).  Accessors only: every decision lives in an analysis.
 *
 * Trust: engine-side; the documents were checked by the client
 * (mdoc_check.c), so shapes are as the schema says, and these functions
 * still treat a missing member as absent rather than trusting it.
 */
#ifndef PRC_ANALYSIS_GHA_H
#define PRC_ANALYSIS_GHA_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* details of a workflow or action ManifestDoc (never NULL for a checked doc). */
const json_t *prc_gha_details(const json_t *md);
/* Is md a workflow (not a composite action)? */
bool prc_gha_is_workflow(const json_t *md);

/* The trigger entry for event ("pull_request_target"), or NULL. */
const json_t *prc_gha_trigger(const json_t *md, const char *event);
/*
 * The first of events (NULL-terminated, in that order) md has a trigger
 * for, or NULL: what calling prc_gha_trigger for each in turn gives, in
 * one pass over the triggers.
 */
const char *prc_gha_first_trigger(const json_t *md, const char *const *events);

/* The jobs array; the steps of a job, or of a composite action (job NULL).  NULL when absent: jansson's
 * json_array_foreach and json_array_size take NULL as empty. */
const json_t *prc_gha_jobs(const json_t *md);
const json_t *prc_gha_steps(const json_t *md, const json_t *job);

/* Does step use owner/repo (any path, any ref; case-insensitive like GitHub)?  e.g. "actions/checkout". */
bool prc_gha_step_uses(const json_t *step, const char *owner_repo);
/* The value of the step's with.<name> (string as written), or NULL; *line its line. */
const char *prc_gha_with(const json_t *step, const char *name, uint32_t *line);
/* The line of a member that carries {"line": N} (0 when absent). */
uint32_t prc_gha_line(const json_t *obj);

#endif
