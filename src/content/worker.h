/*
 * worker.h - the content worker's entry point: prc re-executes itself as
 *   /proc/self/exe __worker [as=BYTES] [cpu=SECONDS] [req=BYTES] [reply=BYTES]
 *                           [archive=0|1] [floor=strict|landlock|seccomp]
 * with its request pipe on fd 3 and its reply pipe on fd 4.  The word is
 * hidden from 'prc help'.  tests/helpers/worker.c is the same entry point
 * in a standalone binary built with PRC_TESTING (the test operations and
 * the test-only arguments below exist only there).
 *
 * Trust: this process holds the hostile parsers.  It applies the floor
 * before reading anything, never writes to fds 0-2 (they are /dev/null),
 * and speaks only frames: first PRC_RE_READY (or a floor refusal), then one
 * reply per request.  A malformed or over-cap request ends it.
 */
#ifndef PRC_WORKER_H
#define PRC_WORKER_H

#define PRC_WORKER_ARG "__worker"
enum { PRC_WORKER_FD_IN = 3, PRC_WORKER_FD_OUT = 4 };

/*
 * Run the worker; returns the process exit status (0 after a clean end of
 * requests, 1 after a refusal that ended the conversation, 2 for bad
 * arguments).  PRC_TESTING builds also take landlock_abi=N (the required
 * ABI, to force a floor refusal), allow=NAME (repeatable: a syscall
 * added to the allowlist) and nofile=N (RLIMIT_NOFILE), so a test can
 * reach the layer behind the one it bypasses; and test_landlock_abi=N|none
 * and test_userns=denied, which make the floor see a host below the strict
 * floor (issue 23).  READY carries {"floor": prc_floor_record, ...}.
 */
int prc_worker_main(int argc, char **argv);

#endif
