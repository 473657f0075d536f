/*
 * gzip.c - the deterministic gzip writer of gzip.h.
 * Trust: writes only bytes the caller has verified; reads no gzip.
 */
#include "base/gzip.h"

/* RFC 1952 2.3: ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=255 (unknown: no host enters the bytes). */
static const uint8_t header[PRC_GZIP_HEADER] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };

size_t prc_gzip_size(size_t n)
{
        size_t blocks = n == 0 ? 1 : (n + PRC_GZIP_BLOCK_MAX - 1) / PRC_GZIP_BLOCK_MAX;

        return PRC_GZIP_HEADER + blocks * PRC_GZIP_BLOCK_OVERHEAD + n + PRC_GZIP_TRAILER;
}

uint32_t prc_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
        /* Bitwise over the reflected polynomial: a few ms for the ruleset, no table to get wrong. */
        crc = ~crc;
        while (n-- > 0) {
                crc ^= *p++;
                for (int k = 0; k < 8; k++)
                        crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
        return ~crc;
}

static void le32(uint8_t *b, uint32_t v)
{
        b[0] = (uint8_t)v;
        b[1] = (uint8_t)(v >> 8);
        b[2] = (uint8_t)(v >> 16);
        b[3] = (uint8_t)(v >> 24);
}

bool prc_gzip_write(const uint8_t *p, size_t n, prc_buf *out, prc_err *err)
{
        uint8_t blk[PRC_GZIP_BLOCK_OVERHEAD], tail[PRC_GZIP_TRAILER];
        size_t off = 0;

        if ((uint64_t)n >= (uint64_t)1 << 32)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "gzip input of %zu bytes (4 GiB or more)", n);
        if (!prc_buf_reserve(out, prc_gzip_size(n), err) || !prc_buf_put(out, header, sizeof(header), err))
                return false;
        do {
                /* RFC 1951 3.2.4: BFINAL/BTYPE=00 in the first byte (so the block starts byte-aligned), LEN, NLEN. */
                size_t k = n - off > PRC_GZIP_BLOCK_MAX ? PRC_GZIP_BLOCK_MAX : n - off;
                blk[0] = off + k == n ? 1 : 0;
                blk[1] = (uint8_t)k;
                blk[2] = (uint8_t)(k >> 8);
                blk[3] = (uint8_t)~k;
                blk[4] = (uint8_t)(~k >> 8);
                if (!prc_buf_put(out, blk, sizeof(blk), err) || (k > 0 && !prc_buf_put(out, p + off, k, err)))
                        return false;
                off += k;
        } while (off < n);
        le32(tail, prc_crc32(0, p, n));
        le32(tail + 4, (uint32_t)n);
        return prc_buf_put(out, tail, sizeof(tail), err);
}
