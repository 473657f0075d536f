/*
 * xxh64.h - streaming XXH64 (seed 0), the digest Grype records for its
 * database file in import.json ("xxh64:" + 16 hex, big-endian).  Not a
 * security digest: prc seals the same bytes with SHA-256; this only proves
 * that import.json describes the vulnerability.db beside it.
 */
#ifndef PRC_XXH64_H
#define PRC_XXH64_H

#include <stddef.h>
#include <stdint.h>

typedef struct prc_xxh64 {
        uint64_t v[4];
        uint64_t total;
        uint8_t  buf[32];       /* a partial stripe */
        size_t   nbuf;
} prc_xxh64;

void prc_xxh64_init(prc_xxh64 *h);
void prc_xxh64_update(prc_xxh64 *h, const void *p, size_t n);
uint64_t prc_xxh64_final(const prc_xxh64 *h);
uint64_t prc_xxh64_once(const void *p, size_t n);

#endif
