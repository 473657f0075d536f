/*
 * testkeep.h - test builds only: keep a copy of every run result, batch
 * index and execution record prc makes, so the suite can check each one
 * against its schema with an independent validator (issue 22,
 * docs/reports.md "Machine output is validated").
 *
 * With PRC_TESTING, prc_test_keep writes the document's canonical JSON to a
 * new file in $PRC_TEST_RESULT_DIR when that variable is set, and does
 * nothing otherwise.  A release build has no such code: the call is an empty
 * inline, so no variable can make an installed prc write anywhere else.
 */
#ifndef PRC_BASE_TESTKEEP_H
#define PRC_BASE_TESTKEEP_H

#include <jansson.h>

#define PRC_TEST_RESULT_DIR_ENV "PRC_TEST_RESULT_DIR"

#if defined(PRC_TESTING) && PRC_TESTING
/* kind names the file ("run", "index", "record"); a failure is said on stderr, never fatal. */
void prc_test_keep(const char *kind, const json_t *doc);
#else
static inline void prc_test_keep(const char *kind, const json_t *doc)
{
        (void)kind;
        (void)doc;
}
#endif

#endif
