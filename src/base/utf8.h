/*
 * utf8.h - strict UTF-8 (RFC 3629): no overlongs, no surrogates, <= U+10FFFF.
 * No errors are recorded here: callers map a failure to their own class.
 */
#ifndef PRC_UTF8_H
#define PRC_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode one code point; returns its byte length, or 0 if invalid or truncated. */
size_t prc_utf8_decode(const uint8_t *p, size_t n, uint32_t *out_cp);
/* Whole buffer valid?  On failure *out_bad (if not NULL) gets the offset. */
bool prc_utf8_valid(const uint8_t *p, size_t n, size_t *out_bad);
/* Encode cp (must be a scalar value) into out[4]; returns the length. */
size_t prc_utf8_encode(uint32_t cp, uint8_t out[4]);

#endif
