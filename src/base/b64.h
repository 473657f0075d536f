/*
 * b64.h - base64 decoding (RFC 4648), one implementation for every reader:
 * signatures and trust keys (strict), archive listings from the worker
 * (strict: the worker's encoder is canonical), and lockfile integrity
 * values for the SBOM (url-safe alphabet and missing padding accepted).
 * Trust: pure functions over bounded input; no allocation.
 */
#ifndef PRC_BASE_B64_H
#define PRC_BASE_B64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
        PRC_B64_URLSAFE = 1u << 0,      /* also accept '-' and '_' (RFC 4648 section 5) */
        PRC_B64_NOPAD   = 1u << 1,      /* a final group of 2 or 3 characters without '=' is complete */
};

/*
 * Decode s[0..n) into out (at most cap bytes).  Without flags: standard
 * alphabet, padding required, unused bits zero, no whitespace.  Returns the
 * decoded length, or -1 when s is not such base64 or would decode to more
 * than cap bytes.  *out_partial (may be NULL) is set when s is valid text
 * cut short (a final group of 2 or 3 characters without padding, and
 * PRC_B64_NOPAD not given).
 */
long prc_b64_decode(const char *s, size_t n, uint8_t *out, size_t cap, unsigned flags, bool *out_partial);

/* The most bytes n characters of base64 can decode to. */
static inline size_t prc_b64_max_decoded(size_t n)
{
        return (n + 3) / 4 * 3;
}

#endif
