/*
 * gzip.h - prc's own deterministic gzip writer (issue 17).
 *
 * Why our own: the stored form of the pinned Gitleaks ruleset is checked by
 * its SHA-256, so it must be the same bytes on every host.  gzip(1) and zlib
 * make no such promise across versions and builds (FORMATS.md: "other gzip
 * builds may differ").  This writer uses only stored deflate blocks (RFC
 * 1951 3.2.4), a fixed header (RFC 1952: no name, mtime 0, XFL 0, OS 255
 * "unknown") and the CRC-32 and size trailer, so its output is a function
 * of the input bytes alone and any gzip reader decompresses it.
 *
 * Trust: the input is trusted (prc writes only bytes it has already
 * verified); nothing here reads gzip.
 */
#ifndef PRC_GZIP_H
#define PRC_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

/* Bytes of header, per-block overhead and trailer. */
enum { PRC_GZIP_HEADER = 10, PRC_GZIP_BLOCK_OVERHEAD = 5, PRC_GZIP_TRAILER = 8, PRC_GZIP_BLOCK_MAX = 65535 };

/* The exact size prc_gzip_write produces for n input bytes (at least one block, even when n is 0). */
size_t prc_gzip_size(size_t n);

/*
 * Append the deterministic gzip form of p[0..n) to out.  Inputs of 4 GiB or
 * more are refused (ISIZE is the size modulo 2^32, and prc has no use for
 * them).  Errors: input-too-large, out-of-memory (from out's cap).
 */
bool prc_gzip_write(const uint8_t *p, size_t n, prc_buf *out, prc_err *err) PRC_MUST_CHECK;

/* CRC-32 (ISO 3309, as gzip uses it) of p[0..n), continuing from crc (0 to start). */
uint32_t prc_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif
