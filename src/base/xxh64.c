/*
 * xxh64.c - XXH64 with seed 0, written from the published algorithm
 * description (four 64-bit lanes over 32-byte stripes, then the tail and
 * an avalanche).  Byte order: input words are little-endian.
 */
#include "base/xxh64.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static uint64_t rotl(uint64_t x, unsigned r)
{
        return (x << r) | (x >> (64 - r));
}

static uint64_t le64(const uint8_t *p)
{
        uint64_t v = 0;

        for (int i = 7; i >= 0; i--)
                v = (v << 8) | p[i];
        return v;
}

static uint64_t le32(const uint8_t *p)
{
        return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static uint64_t lane(uint64_t acc, uint64_t in)
{
        return rotl(acc + in * P2, 31) * P1;
}

static uint64_t merge(uint64_t h, uint64_t v)
{
        return (h ^ lane(0, v)) * P1 + P4;
}

static void stripe(prc_xxh64 *h, const uint8_t *p)
{
        for (int i = 0; i < 4; i++)
                h->v[i] = lane(h->v[i], le64(p + 8 * i));
}

void prc_xxh64_init(prc_xxh64 *h)
{
        memset(h, 0, sizeof(*h));
        h->v[0] = P1 + P2;
        h->v[1] = P2;
        h->v[2] = 0;
        h->v[3] = 0 - P1;
}

void prc_xxh64_update(prc_xxh64 *h, const void *data, size_t n)
{
        const uint8_t *p = data;

        h->total += n;
        if (h->nbuf > 0) {
                size_t take = 32 - h->nbuf < n ? 32 - h->nbuf : n;
                memcpy(h->buf + h->nbuf, p, take);
                h->nbuf += take;
                p += take;
                n -= take;
                if (h->nbuf < 32)
                        return;
                stripe(h, h->buf);
                h->nbuf = 0;
        }
        for (; n >= 32; p += 32, n -= 32)
                stripe(h, p);
        if (n > 0) {
                memcpy(h->buf, p, n);
                h->nbuf = n;
        }
}

uint64_t prc_xxh64_final(const prc_xxh64 *h)
{
        const uint8_t *p = h->buf;
        size_t n = h->nbuf;
        uint64_t x;

        if (h->total >= 32) {
                x = rotl(h->v[0], 1) + rotl(h->v[1], 7) + rotl(h->v[2], 12) + rotl(h->v[3], 18);
                for (int i = 0; i < 4; i++)
                        x = merge(x, h->v[i]);
        } else {
                x = P5;
        }
        x += h->total;
        for (; n >= 8; p += 8, n -= 8)
                x = rotl(x ^ lane(0, le64(p)), 27) * P1 + P4;
        if (n >= 4) {
                x = rotl(x ^ le32(p) * P1, 23) * P2 + P3;
                p += 4;
                n -= 4;
        }
        for (; n > 0; p++, n--)
                x = rotl(x ^ *p * P5, 11) * P1;
        x ^= x >> 33;
        x *= P2;
        x ^= x >> 29;
        x *= P3;
        x ^= x >> 32;
        return x;
}

uint64_t prc_xxh64_once(const void *p, size_t n)
{
        prc_xxh64 h;

        prc_xxh64_init(&h);
        prc_xxh64_update(&h, p, n);
        return prc_xxh64_final(&h);
}
