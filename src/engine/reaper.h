/*
 * reaper.h - jansson trees released by a thread of their own.
 *
 * Freeing a big tree is a walk over every node (a ManifestDoc of a 1.7 MB
 * lockfile, the SBOM's 12,000 components): on the thread that records the
 * scan in order, or at the end of a command, that walk is time when the
 * other core may be idle.  A reaper takes the last reference to a tree
 * and drops it on its own thread, while the caller goes on.  jansson's
 * reference counts are atomic, so a tree may share values with trees the
 * caller keeps, as long as the caller only reads those it does not own.
 * Trust: no input of its own.
 */
#ifndef PRC_ENGINE_REAPER_H
#define PRC_ENGINE_REAPER_H

#include <jansson.h>

typedef struct prc_reaper prc_reaper;   /* opaque */

/*
 * A reaper and its thread; NULL when either cannot be had (prc_reaper_put
 * then frees inline).  budget bounds what waits for the thread, in the
 * weights put gives (a tree's file bytes, say): on a starved thread, trees
 * do not pile up.
 */
prc_reaper *prc_reaper_new(size_t budget);
/*
 * Take over v (its reference; NULL is fine) and drop it on the reaper's
 * thread, or now: without a reaper, or when v's weight would take what
 * waits past the budget (one tree always may wait, whatever its weight).
 */
void prc_reaper_put(prc_reaper *r, json_t *v, size_t weight);
/* Drop everything put so far, wait for the thread and free the reaper.  Accepts NULL. */
void prc_reaper_free(prc_reaper *r);

#endif
