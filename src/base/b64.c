/*
 * b64.c - base64 decoding (see b64.h).
 */
#include "base/b64.h"

static int b64val(unsigned char c, unsigned flags)
{
        if (c >= 'A' && c <= 'Z')
                return c - 'A';
        if (c >= 'a' && c <= 'z')
                return c - 'a' + 26;
        if (c >= '0' && c <= '9')
                return c - '0' + 52;
        if (c == '+' || (c == '-' && (flags & PRC_B64_URLSAFE)))
                return 62;
        if (c == '/' || (c == '_' && (flags & PRC_B64_URLSAFE)))
                return 63;
        return -1;
}

long prc_b64_decode(const char *s, size_t n, uint8_t *out, size_t cap, unsigned flags, bool *out_partial)
{
        size_t o = 0, i = 0;

        if (out_partial != NULL)
                *out_partial = false;
        while (i < n) {
                int v[4] = { 0, 0, 0, 0 };
                size_t have = n - i < 4 ? n - i : 4, pad = 0, bytes;
                uint32_t w;

                for (size_t k = 0; k < have; k++) {
                        unsigned char c = (unsigned char)s[i + k];
                        if (c == '=' && i + 4 >= n && k >= 2) {
                                pad++;
                                continue;
                        }
                        if (pad > 0)
                                return -1;      /* data after '=' */
                        v[k] = b64val(c, flags);
                        if (v[k] < 0)
                                return -1;
                }
                if (have < 4) {
                        if (pad > 0 || have < 2)
                                return -1;      /* a short group with '=', or one lone character */
                        if (!(flags & PRC_B64_NOPAD)) {
                                /* Alphabet-only text ending mid-group was cut short. */
                                if (out_partial != NULL)
                                        *out_partial = true;
                                return -1;
                        }
                        pad = 4 - have;
                }
                w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
                if ((pad == 1 && (w & 0xff) != 0) || (pad == 2 && (w & 0xffff) != 0))
                        return -1;      /* non-zero unused bits: not canonical */
                bytes = 3 - pad;
                if (o + bytes > cap)
                        return -1;
                for (size_t k = 0; k < bytes; k++)
                        out[o++] = (uint8_t)(w >> (16 - 8 * k));
                i += 4;
        }
        return (long)o;
}
