/*
 * test_rd.c - the borrowed reader: exact-length reads, short reads with the
 * caller's class, no movement or output on failure, trailing bytes.
 */
#include "t.h"

#include "base/rd.h"

static const uint8_t frame[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
                                 0x0c, 0x0d, 0x0e, 0x0f };

static void test_rd__big_endian_getters(void)
{
        prc_rd r = prc_rd_make(frame, sizeof(frame), PRC_E_INVALID_VALUE);
        prc_err e;
        uint8_t a;
        uint16_t b;
        uint32_t c;
        uint64_t d;

        prc_err_init(&e);
        T_ASSERT(prc_rd_u8(&r, &a, &e));
        T_ASSERT(prc_rd_u16be(&r, &b, &e));
        T_ASSERT(prc_rd_u32be(&r, &c, &e));
        T_ASSERT(prc_rd_u64be(&r, &d, &e));
        T_EQ_INT(a, 0x01);
        T_EQ_INT(b, 0x0203);
        T_EQ_INT(c, 0x04050607);
        T_ASSERT(d == 0x08090a0b0c0d0e0fULL);
        T_ASSERT(prc_rd_end(&r, &e));
        T_NOERR(e);
}

static void test_rd__short_read_fails_without_moving(void)
{
        prc_rd r = prc_rd_make(frame, 7, PRC_E_INVALID_VALUE);
        prc_err e;
        uint64_t d = 42;
        uint32_t c;

        prc_err_init(&e);
        T_ASSERT(prc_rd_u32be(&r, &c, &e));
        T_ASSERT(!prc_rd_u64be(&r, &d, &e));
        T_ERR(e, PRC_E_INVALID_VALUE);
        T_EQ_INT(e.off, 4);
        T_EQ_INT(r.off, 4);
        T_ASSERT(d == 42);
}

static void test_rd__u32_at_exact_end_then_nothing(void)
{
        prc_rd r = prc_rd_make(frame, 4, PRC_E_INVALID_JSON);
        prc_err e;
        uint32_t c;
        uint8_t a;

        prc_err_init(&e);
        T_ASSERT(prc_rd_u32be(&r, &c, &e));
        T_EQ_INT(prc_rd_left(&r), 0);
        T_ASSERT(!prc_rd_u8(&r, &a, &e));
        T_ERR(e, PRC_E_INVALID_JSON);
}

static void test_rd__bytes_borrow_and_zero_length(void)
{
        prc_rd r = prc_rd_make(frame, sizeof(frame), PRC_E_INVALID_VALUE);
        prc_rd z = prc_rd_make(NULL, 0, PRC_E_INVALID_VALUE);
        const uint8_t *p = NULL;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_rd_bytes(&r, 3, &p, &e));
        T_ASSERT(p == frame);
        T_ASSERT(prc_rd_bytes(&r, 0, &p, &e));
        T_ASSERT(p == frame + 3);
        T_ASSERT(prc_rd_bytes(&z, 0, &p, &e));   /* NULL view of length 0 */
        T_ASSERT(prc_rd_end(&z, &e));
        T_ASSERT(!prc_rd_bytes(&r, sizeof(frame), &p, &e));
        T_ERR(e, PRC_E_INVALID_VALUE);
        T_EQ_INT(r.off, 3);
}

static void test_rd__str_length_prefixed(void)
{
        static const uint8_t in[] = { 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 5, 'x' };
        prc_rd r = prc_rd_make(in, sizeof(in), PRC_E_INVALID_VALUE);
        const uint8_t *s;
        size_t n = 0;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_rd_str(&r, 3, &s, &n, &e));         /* length exactly at max */
        T_EQ_MEM(s, n, "abc", 3);
        T_ASSERT(!prc_rd_str(&r, 100, &s, &n, &e));      /* claims 5, 1 present */
        T_ERR(e, PRC_E_INVALID_VALUE);
        T_EQ_INT(r.off, 7);             /* rewound to the length field */
        T_EQ_INT(n, 3);
}

static void test_rd__str_over_max_is_refused_before_reading(void)
{
        static const uint8_t in[] = { 0, 0, 0, 4, 'a', 'b', 'c', 'd' };
        prc_rd r = prc_rd_make(in, sizeof(in), PRC_E_SCALAR_LIMIT);
        const uint8_t *s;
        size_t n;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_rd_str(&r, 3, &s, &n, &e));        /* one past max */
        T_ERR(e, PRC_E_SCALAR_LIMIT);
        T_EQ_INT(e.off, 0);
        T_EQ_INT(r.off, 0);
}

static void test_rd__huge_length_does_not_wrap(void)
{
        static const uint8_t in[] = { 0xff, 0xff, 0xff, 0xff, 'a' };
        prc_rd r = prc_rd_make(in, sizeof(in), PRC_E_INVALID_VALUE);
        const uint8_t *s;
        size_t n;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(!prc_rd_str(&r, SIZE_MAX, &s, &n, &e));
        T_ERR(e, PRC_E_INVALID_VALUE);
        T_EQ_INT(r.off, 0);
}

static void test_rd__trailing_bytes_are_an_error(void)
{
        prc_rd r = prc_rd_make(frame, 3, PRC_E_INVALID_VALUE);
        prc_err e;
        uint16_t b;

        prc_err_init(&e);
        T_ASSERT(prc_rd_u16be(&r, &b, &e));
        T_ASSERT(!prc_rd_end(&r, &e));
        T_ERR(e, PRC_E_INVALID_VALUE);
        T_EQ_INT(e.off, 2);
        T_EQ_STR(e.msg, "1 trailing bytes");
}

static void test_rd__reader_without_class_records_internal(void)
{
        prc_rd r = prc_rd_make(frame, 0, PRC_E_OK);
        prc_err e;
        uint8_t a;

        prc_err_init(&e);
        T_ASSERT(!prc_rd_u8(&r, &a, &e));
        T_ERR(e, PRC_E_INTERNAL);       /* never "failed" with no error recorded */
}

static const prc_test tests[] = {
        T(test_rd__big_endian_getters),
        T(test_rd__short_read_fails_without_moving),
        T(test_rd__u32_at_exact_end_then_nothing),
        T(test_rd__bytes_borrow_and_zero_length),
        T(test_rd__str_length_prefixed),
        T(test_rd__str_over_max_is_refused_before_reading),
        T(test_rd__huge_length_does_not_wrap),
        T(test_rd__trailing_bytes_are_an_error),
        T(test_rd__reader_without_class_records_internal),
};
PRC_SUITE(rd, tests)
