/*
 * test_xxh64.c - XXH64 against digests printed by Debian's xxhsum -H64
 * (recorded here), and streaming in every split equals one-shot.
 */
#include "t.h"

#include "base/xxh64.h"

static void test_xxh64__vectors_from_xxhsum(void)
{
        static uint8_t seq[256 * 4 + 7];
        static uint8_t xs[100];

        for (size_t i = 0; i < 256 * 4; i++)
                seq[i] = (uint8_t)i;
        memcpy(seq + 256 * 4, "tail!!7", 7);
        memset(xs, 'x', sizeof(xs));
        T_ASSERT(prc_xxh64_once("", 0) == 0xef46db3751d8e999ull);
        T_ASSERT(prc_xxh64_once("a", 1) == 0xd24ec4f1a98c6e5bull);
        T_ASSERT(prc_xxh64_once("abc", 3) == 0x44bc2cf5ad770999ull);
        T_ASSERT(prc_xxh64_once("SQLite format 3", 16) == 0x5280979724fbe7ecull);       /* with its NUL */
        T_ASSERT(prc_xxh64_once(seq, sizeof(seq)) == 0x893db0b927a734a6ull);
        T_ASSERT(prc_xxh64_once(xs, sizeof(xs)) == 0x92f0de5a88a3c094ull);
}

static void test_xxh64__every_split_equals_one_shot(void)
{
        uint8_t in[131];

        for (size_t i = 0; i < sizeof(in); i++)
                in[i] = (uint8_t)(i * 37 + 11);
        for (size_t n = 0; n <= sizeof(in); n++) {
                uint64_t want = prc_xxh64_once(in, n);
                for (size_t cut = 0; cut <= n; cut++) {
                        prc_xxh64 h;
                        prc_xxh64_init(&h);
                        prc_xxh64_update(&h, in, cut);
                        prc_xxh64_update(&h, in + cut, 0);
                        prc_xxh64_update(&h, in + cut, n - cut);
                        T_ASSERT(prc_xxh64_final(&h) == want);
                }
        }
}

static void test_xxh64__one_byte_change_changes_the_digest(void)
{
        uint8_t in[64] = { 0 };
        uint64_t a = prc_xxh64_once(in, sizeof(in));

        in[63] = 1;
        T_ASSERT(prc_xxh64_once(in, sizeof(in)) != a);
}

static const prc_test tests[] = {
        T(test_xxh64__vectors_from_xxhsum),
        T(test_xxh64__every_split_equals_one_shot),
        T(test_xxh64__one_byte_change_changes_the_digest),
};
PRC_SUITE(xxh64, tests)
