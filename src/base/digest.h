/*
 * digest.h - streaming SHA-256 (prc's own, SHA-NI where the CPU has it),
 * hex encoding, strict parsing.
 * Every digest prc writes is 64 lowercase hex characters; "sha256:<hex>" is
 * the prefixed form used in image references and some schema fields.
 */
#ifndef PRC_DIGEST_H
#define PRC_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

enum { PRC_SHA256_LEN = 32, PRC_SHA256_HEX = 64 };

typedef struct prc_sha256 prc_sha256;   /* opaque: the state and a partial block */

/*
 * NULL with err set: out-of-memory.  Nothing is loaded: a sealed content
 * worker hashes as the parent does.  The calls below cannot fail once a
 * context exists; they keep the bool of a checked API.
 */
prc_sha256 *prc_sha256_new(prc_err *err) PRC_MUST_CHECK;
void prc_sha256_free(prc_sha256 *h);
/* Restart for a new message. */
bool prc_sha256_reset(prc_sha256 *h, prc_err *err) PRC_MUST_CHECK;
bool prc_sha256_update(prc_sha256 *h, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;
/* Finish; h may be reset and reused afterwards. */
bool prc_sha256_final(prc_sha256 *h, uint8_t out[PRC_SHA256_LEN], prc_err *err) PRC_MUST_CHECK;

/* One-shot digest (never fails; p may be NULL when n is 0). */
bool prc_sha256_once(const void *p, size_t n, uint8_t out[PRC_SHA256_LEN], prc_err *err) PRC_MUST_CHECK;
/* One-shot digest as 64 lowercase hex plus NUL. */
bool prc_sha256_hex_once(const void *p, size_t n, char out[PRC_SHA256_HEX + 1], prc_err *err) PRC_MUST_CHECK;

/* Does this CPU take the SHA-NI path (x86-64 with SHA, SSSE3, SSE4.1)?  For the benchmarks and tests. */
bool prc_sha256_hw(void);
#if defined(PRC_TESTING) && PRC_TESTING
/* Tests: every digest from now on by the portable C path (on), or by the CPU's choice again (off). */
void prc_sha256_test_portable(bool on);
#endif

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void prc_hex_encode(const uint8_t *p, size_t n, char *out);

/* Accepts exactly 64 lowercase hex characters.  Errors: invalid-digest. */
bool prc_digest_parse(const char *s, size_t len, uint8_t out[PRC_SHA256_LEN], prc_err *err) PRC_MUST_CHECK;
/* Is s (NUL-terminated) exactly 64 lowercase hex? */
bool prc_digest_valid(const char *s);
/* Accepts "sha256:" then 64 lowercase hex.  Errors: invalid-digest. */
bool prc_digest_parse_prefixed(const char *s, uint8_t out[PRC_SHA256_LEN], prc_err *err) PRC_MUST_CHECK;

#endif
