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

/*
 * A character's value plus one (0: not in the alphabet), for the groups
 * before the last: [0] the standard alphabet, [1] with the url-safe one.
 * The table is what b64val says, character by character.
 */
#define B64_STD                                                                                                \
        ['A'] = 1, ['B'] = 2, ['C'] = 3, ['D'] = 4, ['E'] = 5, ['F'] = 6, ['G'] = 7, ['H'] = 8, ['I'] = 9,     \
        ['J'] = 10, ['K'] = 11, ['L'] = 12, ['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16, ['Q'] = 17,        \
        ['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22, ['W'] = 23, ['X'] = 24, ['Y'] = 25,        \
        ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29, ['d'] = 30, ['e'] = 31, ['f'] = 32, ['g'] = 33,        \
        ['h'] = 34, ['i'] = 35, ['j'] = 36, ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41,        \
        ['p'] = 42, ['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48, ['w'] = 49,        \
        ['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54, ['2'] = 55, ['3'] = 56, ['4'] = 57,        \
        ['5'] = 58, ['6'] = 59, ['7'] = 60, ['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64
static const uint8_t b64tab[2][256] = {
        { B64_STD },
        { B64_STD, ['-'] = 63, ['_'] = 64 },
};

long prc_b64_decode(const char *s, size_t n, uint8_t *out, size_t cap, unsigned flags, bool *out_partial)
{
        const uint8_t *t = b64tab[(flags & PRC_B64_URLSAFE) != 0];
        const unsigned char *u = (const unsigned char *)s;
        size_t o = 0, i = 0;

        if (out_partial != NULL)
                *out_partial = false;
        /*
         * Every group but the last by table (the SBOM decodes 12,000
         * integrity values): no padding may stand there, so a character
         * outside the alphabet, '=' too, is a refusal, as in the loop below.
         */
        for (; i + 4 < n; i += 4) {
                uint32_t a = t[u[i]], b = t[u[i + 1]], c = t[u[i + 2]], d = t[u[i + 3]], w;

                if (a == 0 || b == 0 || c == 0 || d == 0 || o + 3 > cap)
                        return -1;
                w = (a - 1) << 18 | (b - 1) << 12 | (c - 1) << 6 | (d - 1);
                out[o] = (uint8_t)(w >> 16);
                out[o + 1] = (uint8_t)(w >> 8);
                out[o + 2] = (uint8_t)w;
                o += 3;
        }
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
