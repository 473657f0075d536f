/*
 * test_utf8.c - strict UTF-8 (RFC 3629): boundaries of each sequence
 * length, overlongs, surrogates, above U+10FFFF, truncation, stray bytes,
 * and an encode/decode round trip over every scalar value.
 */
#include "t.h"

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

static const prc_test tests[] = {
        T(test_utf8__valid_and_invalid_sequences),
        T(test_utf8__decode_lengths_and_values),
        T(test_utf8__round_trip_every_scalar_value),
};
PRC_SUITE(utf8, tests)
