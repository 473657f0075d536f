/*
 * alloc.h - the allocation wrappers base modules use, with fault injection
 * in test builds (SQLite's faultsim, curl's torture mode).
 *
 * Out of memory is an error class, not an abort (hostile input can cause
 * it), so every allocation failure path must be reachable in a test.  In a
 * PRC_TESTING build prc_fault_arm(N) makes the Nth allocation through these
 * wrappers fail; outside test builds the wrappers are plain malloc/realloc
 * and the hook does not exist.  The counter is process-global and not
 * thread-safe: only single-threaded tests arm it.  jansson allocates
 * through prc_malloc too (json_strict.c installs its allocator).
 */
#ifndef PRC_ALLOC_H
#define PRC_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#if defined(PRC_TESTING) && PRC_TESTING
/* Counts one allocation attempt; true when it must fail. */
bool prc_fault_hit(void);
/*
 * Arm: the nth allocation from now (1-based) fails; with persist every later
 * one fails too.  nth == 0 disarms.  Resets the attempt counter.
 */
void prc_fault_arm(unsigned long nth, bool persist);
/* Allocation attempts counted since the last prc_fault_arm. */
unsigned long prc_fault_count(void);
/* Did an injected failure happen since the last prc_fault_arm? */
bool prc_fault_fired(void);
#else
static inline bool prc_fault_hit(void) { return false; }
#endif

/* Like malloc/realloc/calloc; NULL on failure (real or injected). */
static inline void *prc_malloc(size_t n) { return prc_fault_hit() ? NULL : malloc(n); }
static inline void *prc_realloc(void *p, size_t n) { return prc_fault_hit() ? NULL : realloc(p, n); }
static inline void *prc_calloc(size_t n, size_t size) { return prc_fault_hit() ? NULL : calloc(n, size); }


/*
 * Huge-page memory for arenas that live long and are filled at once (the
 * worker's jansson arena): n bytes (a multiple of PRC_HUGE_PAGE), aligned
 * to PRC_HUGE_PAGE, advised MADV_HUGEPAGE so the kernel backs it with
 * transparent huge pages where it can (one fault per 2 MiB instead of 512;
 * a fault costs ~10 us on paravirtualized VMs).  NULL on failure (real or
 * injected); give it back with prc_huge_unmap(p, n).  Outside malloc: the
 * allocator's counts and LeakSanitizer do not see it.
 */
enum { PRC_HUGE_PAGE = 2u << 20 };
void *prc_huge_map(size_t n);
void  prc_huge_unmap(void *p, size_t n);

#endif
