/*
 * test_utf8.c - strict UTF-8 (RFC 3629): boundaries of each sequence
 * length, overlongs, surrogates, above U+10FFFF, truncation, stray bytes,
 * and an encode/decode round trip over every scalar value.
 */
#include "t.h"

#include <string.h>

#include "base/utf8.h"

struct ucase {
        const char *bytes;
        size_t      len;
        bool        ok;
        size_t      bad;        /* offset reported when !ok */
};

static void test_utf8__valid_and_invalid_sequences(void)
{
        static const struct ucase cases[] = {
                { "", 0, true, 0 },
                { "plain ascii", 11, true, 0 },
                { "\x7f", 1, true, 0 },
                { "\xc2\x80", 2, true, 0 },                     /* U+0080, first 2-byte */
                { "\xdf\xbf", 2, true, 0 },                     /* U+07FF */
                { "\xe0\xa0\x80", 3, true, 0 },                 /* U+0800 */
                { "\xed\x9f\xbf", 3, true, 0 },                 /* U+D7FF, below the surrogates */
                { "\xee\x80\x80", 3, true, 0 },                 /* U+E000 */
                { "\xef\xbf\xbf", 3, true, 0 },                 /* U+FFFF (a noncharacter, still valid) */
                { "\xf0\x90\x80\x80", 4, true, 0 },             /* U+10000 */
                { "\xf4\x8f\xbf\xbf", 4, true, 0 },             /* U+10FFFF */
                { "a\x80", 2, false, 1 },                       /* lone continuation */
                { "\xc0\x80", 2, false, 0 },                    /* overlong NUL */
                { "\xc1\xbf", 2, false, 0 },                    /* overlong U+007F */
                { "\xe0\x9f\xbf", 3, false, 0 },                /* overlong U+07FF */
                { "\xf0\x8f\xbf\xbf", 4, false, 0 },            /* overlong U+FFFF */
                { "\xed\xa0\x80", 3, false, 0 },                /* U+D800 surrogate */
                { "\xed\xbf\xbf", 3, false, 0 },                /* U+DFFF surrogate */
                { "\xf4\x90\x80\x80", 4, false, 0 },            /* U+110000 */
                { "\xf5\x80\x80\x80", 4, false, 0 },            /* lead byte past F4 */
                { "\xff", 1, false, 0 },
                { "\xfe", 1, false, 0 },
                { "ab\xe2\x82", 4, false, 2 },                  /* truncated at the end */
                { "\xe2\x28\xa1", 3, false, 0 },                /* bad second byte */
                { "\xe2\x82\x28", 3, false, 0 },                /* bad third byte */
                { "ok\xc3\xa9\xc3", 5, false, 4 },
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(cases); i++) {
                size_t bad = 999;
                bool ok = prc_utf8_valid((const uint8_t *)cases[i].bytes, cases[i].len, &bad);
                if (ok != cases[i].ok)
                        t_fail(__FILE__, __LINE__, "case %zu: valid=%d, want %d", i, ok, cases[i].ok);
                if (!ok && bad != cases[i].bad)
                        t_fail(__FILE__, __LINE__, "case %zu: bad offset %zu, want %zu", i, bad, cases[i].bad);
        }
        T_ASSERT(!prc_utf8_valid((const uint8_t *)"\xc3", 1, NULL));     /* NULL out_bad allowed */
}

static void test_utf8__decode_lengths_and_values(void)
{
        uint32_t cp = 0;

        T_EQ_INT(prc_utf8_decode((const uint8_t *)"A", 1, &cp), 1);
        T_EQ_INT(cp, 'A');
        T_EQ_INT(prc_utf8_decode((const uint8_t *)"\xe2\x82\xac", 3, &cp), 3);
        T_EQ_INT(cp, 0x20ac);
        T_EQ_INT(prc_utf8_decode((const uint8_t *)"\xf0\x9f\x98\x80", 4, &cp), 4);
        T_EQ_INT(cp, 0x1f600);
        cp = 7;
        T_EQ_INT(prc_utf8_decode((const uint8_t *)"\xf0\x9f\x98\x80", 3, &cp), 0);  /* n too short */
        T_EQ_INT(prc_utf8_decode((const uint8_t *)"", 0, &cp), 0);
        T_EQ_INT(cp, 7);        /* untouched on failure */
}

static void test_utf8__round_trip_every_scalar_value(void)
{
        for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
                uint8_t b[4];
                uint32_t back = 0xFFFFFFFF;
                size_t n;

                if (cp >= 0xD800 && cp <= 0xDFFF)
                        continue;
                n = prc_utf8_encode(cp, b);
                if (n != (cp < 0x80 ? 1u : cp < 0x800 ? 2u : cp < 0x10000 ? 3u : 4u) ||
                    prc_utf8_decode(b, n, &back) != n || back != cp || !prc_utf8_valid(b, n, NULL))
                        t_fail(__FILE__, __LINE__, "U+%04X does not round-trip", (unsigned)cp);
        }
}

/* The reading one byte at a time (prc_utf8_decode from each sequence's start): valid, and where it is not. */
static bool valid_slow(const uint8_t *p, size_t n, size_t *bad)
{
        for (size_t i = 0; i < n;) {
                uint32_t cp;
                size_t k = p[i] < 0x80 ? 1 : prc_utf8_decode(p + i, n - i, &cp);
                if (k == 0) {
                        *bad = i;
                        return false;
                }
                i += k;
        }
        return true;
}

/*
 * prc_utf8_valid skips ASCII eight bytes at a time: on 200,000 random
 * texts (mostly ASCII, a multi-byte or broken sequence at any offset and
 * length around the word size), the same verdict and the same first bad
 * offset as the byte-at-a-time reading.
 */
static void test_utf8__word_skip_agrees_with_the_byte_reading(void)
{
        static const char *const pieces[] = { "\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80", "\xc3", "\x80",
                                              "\xe2\x80", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xff" };
        uint64_t x = 0x9e3779b97f4a7c15u;

        for (int t = 0; t < 200000; t++) {
                uint8_t b[40];
                size_t n = 0, bad1 = SIZE_MAX, bad2 = SIZE_MAX;
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                size_t len = x % 33, at = (x >> 8) % 33;
                for (size_t i = 0; i < len && n < sizeof(b) - 4; i++) {
                        if (i == at || ((x >> (i % 60)) & 0x3f) == 1) {
                                const char *pc = pieces[(x >> 20 >> (i % 16)) % PRC_ARRAY_LEN(pieces)];
                                memcpy(b + n, pc, strlen(pc));
                                n += strlen(pc);
                        } else {
                                b[n++] = (uint8_t)(0x20 + (x >> (i % 50)) % 95);
                        }
                }
                bool a = prc_utf8_valid(b, n, &bad1), s = valid_slow(b, n, &bad2);
                T_EQ_INT(a, s);
                if (!a)
                        T_EQ_INT(bad1, bad2);
        }
}

static const prc_test tests[] = {
        T(test_utf8__word_skip_agrees_with_the_byte_reading),
        T(test_utf8__valid_and_invalid_sequences),
        T(test_utf8__decode_lengths_and_values),
        T(test_utf8__round_trip_every_scalar_value),
};
PRC_SUITE(utf8, tests)
