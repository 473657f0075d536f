/*
 * utf8.c - strict UTF-8 validation and decoding.
 * Trust: input is hostile; every read is bounded by n, a truncated or
 * malformed sequence is invalid (never skipped or replaced here).
 */
#include "base/utf8.h"

#include <string.h>

size_t prc_utf8_decode(const uint8_t *p, size_t n, uint32_t *out_cp)
{
        uint32_t cp;
        size_t len;

        if (n == 0)
                return 0;
        if (p[0] < 0x80) {
                *out_cp = p[0];
                return 1;
        }
        if (p[0] >= 0xC2 && p[0] <= 0xDF) {
                len = 2;
                cp = p[0] & 0x1F;
        } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
                len = 3;
                cp = p[0] & 0x0F;
        } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
                len = 4;
                cp = p[0] & 0x07;
        } else {
                return 0;
        }
        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((p[i] & 0xC0) != 0x80)
                        return 0;
                cp = cp << 6 | (p[i] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
                return 0;
        *out_cp = cp;
        return len;
}

bool prc_utf8_valid(const uint8_t *p, size_t n, size_t *out_bad)
{
        size_t i = 0;

        while (i < n) {
                uint32_t cp;
                size_t k;
                uint64_t w;

                /* ASCII, eight bytes at a time, then one at a time */
                if (n - i >= 8 && (memcpy(&w, p + i, 8), (w & 0x8080808080808080u) == 0)) {
                        i += 8;
                        continue;
                }
                if (p[i] < 0x80) {
                        i++;
                        continue;
                }
                k = prc_utf8_decode(p + i, n - i, &cp);
                if (k == 0) {
                        if (out_bad != NULL)
                                *out_bad = i;
                        return false;
                }
                i += k;
        }
        return true;
}

size_t prc_utf8_encode(uint32_t cp, uint8_t out[4])
{
        if (cp < 0x80) {
                out[0] = (uint8_t)cp;
                return 1;
        }
        if (cp < 0x800) {
                out[0] = (uint8_t)(0xC0 | cp >> 6);
                out[1] = (uint8_t)(0x80 | (cp & 0x3F));
                return 2;
        }
        if (cp < 0x10000) {
                out[0] = (uint8_t)(0xE0 | cp >> 12);
                out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
                out[2] = (uint8_t)(0x80 | (cp & 0x3F));
                return 3;
        }
        out[0] = (uint8_t)(0xF0 | cp >> 18);
        out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[3] = (uint8_t)(0x80 | (cp & 0x3F));
        return 4;
}
