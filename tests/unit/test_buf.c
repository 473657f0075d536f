/*
 * test_buf.c - the bounded byte buffer: ceiling, overflow, unchanged
 * contents after a failed append, NUL termination, take/reset/truncate,
 * and allocation fault injection over growth.
 */
#include "t.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "base/alloc.h"
#include "base/buf.h"

/* The runner's children end with _exit, which skips LSan's exit check: ask now. */
static void check_leaks(void)
{
#if defined(__SANITIZE_ADDRESS__)
        if (__lsan_do_recoverable_leak_check() != 0)
                t_fail(__FILE__, __LINE__, "LeakSanitizer found leaks (report above)");
#endif
}

static void test_buf__put_up_to_cap_exactly_succeeds(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 8);
        T_ASSERT(prc_buf_put(&b, "abcd", 4, &e));
        T_ASSERT(prc_buf_put(&b, "efgh", 4, &e));
        T_NOERR(e);
        T_EQ_INT(b.len, 8);
        T_EQ_STR(prc_buf_cstr(&b), "abcdefgh");
        T_ASSERT(b.cap <= b.max);
        prc_buf_clear(&b);
}

static void test_buf__put_one_past_cap_fails_and_keeps_contents(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 8);
        T_ASSERT(prc_buf_put(&b, "abcdefg", 7, &e));
        T_ASSERT(!prc_buf_put(&b, "xy", 2, &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 7);
        T_EQ_STR(prc_buf_cstr(&b), "abcdefg");
        prc_buf_clear(&b);
}

static void test_buf__zero_cap_holds_only_empty(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 0);
        T_ASSERT(prc_buf_put(&b, NULL, 0, &e));
        T_ASSERT(prc_buf_reserve(&b, 0, &e));
        T_NOERR(e);
        T_ASSERT(!prc_buf_putc(&b, 'x', &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 0);
        T_EQ_STR(prc_buf_cstr(&b), "");
        prc_buf_clear(&b);
}

static void test_buf__reserve_size_overflow_is_buffer_limit(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, SIZE_MAX);
        T_ASSERT(prc_buf_puts(&b, "ab", &e));
        /* len + n wraps around: must be refused, not turned into a tiny allocation */
        T_ASSERT(!prc_buf_reserve(&b, SIZE_MAX - 1, &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        prc_err_init(&e);
        T_ASSERT(!prc_buf_reserve(&b, SIZE_MAX, &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_STR(prc_buf_cstr(&b), "ab");
        prc_buf_clear(&b);
}

static void test_buf__failed_realloc_is_out_of_memory_and_unchanged(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, SIZE_MAX);
        T_ASSERT(prc_buf_putc(&b, 'a', &e));
        /* Within the ceiling but the allocator says no: a class, never an abort. */
        prc_fault_arm(1, false);
        T_ASSERT(!prc_buf_reserve(&b, 4096, &e));
        prc_fault_arm(0, false);
        T_ERR(e, PRC_E_OUT_OF_MEMORY);
        T_EQ_INT(b.len, 1);
        T_EQ_STR(prc_buf_cstr(&b), "a");
        prc_buf_clear(&b);
}

static void test_buf__growth_keeps_nul_and_invariant(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 100000);
        for (int i = 0; i < 10000; i++) {
                T_ASSERT(prc_buf_putc(&b, (uint8_t)('a' + i % 26), &e));
                T_ASSERT(b.len <= b.cap && b.cap <= b.max);
                T_EQ_INT(b.data[b.len], 0);
        }
        T_EQ_INT(strlen(prc_buf_cstr(&b)), 10000);
        prc_buf_clear(&b);
        T_ASSERT(b.data == NULL && b.len == 0 && b.max == 100000);
}

static void test_buf__self_append_survives_realloc(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "0123456789", &e));
        for (int i = 0; i < 12; i++)
                T_ASSERT(prc_buf_put(&b, b.data, b.len, &e));   /* doubles every time */
        T_EQ_INT(b.len, 10u << 12);
        for (size_t i = 0; i < b.len; i++)
                if (b.data[i] != '0' + i % 10)
                        t_fail(__FILE__, __LINE__, "byte %zu is %c", i, b.data[i]);
        prc_buf_clear(&b);
}

static void test_buf__printf_short_and_long(void)
{
        prc_buf b;
        prc_err e;
        char big[600];

        prc_err_init(&e);
        memset(big, 'x', sizeof(big) - 1);
        big[sizeof(big) - 1] = 0;
        prc_buf_init(&b, 4096);
        T_ASSERT(prc_buf_printf(&b, &e, "n=%d ", 42));
        T_ASSERT(prc_buf_printf(&b, &e, "%s|", big));   /* past the 256-byte fast path */
        T_EQ_INT(b.len, 5 + 599 + 1);
        T_EQ_INT(memcmp(b.data, "n=42 xxx", 8), 0);
        T_EQ_INT(b.data[b.len - 1], '|');
        T_EQ_INT(b.data[b.len], 0);
        prc_buf_clear(&b);
}

static void test_buf__printf_past_cap_fails_unchanged(void)
{
        prc_buf b;
        prc_err e;
        char big[400];

        prc_err_init(&e);
        memset(big, 'y', sizeof(big) - 1);
        big[sizeof(big) - 1] = 0;
        prc_buf_init(&b, 300);
        T_ASSERT(prc_buf_puts(&b, "keep", &e));
        T_ASSERT(!prc_buf_printf(&b, &e, "%s", big));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_STR(prc_buf_cstr(&b), "keep");
        prc_buf_clear(&b);
}

static void test_buf__take_hands_out_storage(void)
{
        prc_buf b;
        prc_err e;
        uint8_t *p;
        size_t n = 99;

        prc_err_init(&e);
        prc_buf_init(&b, 64);
        p = prc_buf_take(&b, &n, &e);           /* empty: still a NUL-terminated block */
        T_ASSERT(p != NULL);
        T_EQ_INT(n, 0);
        T_EQ_INT(p[0], 0);
        free(p);
        T_ASSERT(prc_buf_puts(&b, "hello", &e));
        p = prc_buf_take(&b, &n, &e);
        T_EQ_INT(n, 5);
        T_EQ_STR((char *)p, "hello");
        T_ASSERT(b.data == NULL && b.len == 0 && b.max == 64);
        free(p);
        T_NOERR(e);
}

static void test_buf__reset_and_truncate_keep_nul(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 64);
        prc_buf_reset(&b);      /* on an unallocated buffer: no crash */
        T_ASSERT(prc_buf_puts(&b, "abcdef", &e));
        prc_buf_truncate(&b, 3);
        T_EQ_STR(prc_buf_cstr(&b), "abc");
        prc_buf_truncate(&b, 10);
        T_EQ_INT(b.len, 3);
        prc_buf_reset(&b);
        T_EQ_INT(b.len, 0);
        T_EQ_STR(prc_buf_cstr(&b), "");
        prc_buf_clear(&b);
}

static void test_buf__first_error_wins_across_appends(void)
{
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 2);
        T_ASSERT(!prc_buf_puts(&b, "abc", &e));
        T_ASSERT(!prc_buf_puts(&b, "abcd", &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_STR(e.msg, "buffer cap 2 bytes reached");
        prc_buf_clear(&b);
}

/* Every allocation during growth fails in turn: out-of-memory, contents intact, no leak. */
static void test_buf__fault_sweep_over_growth(void)
{
        unsigned long total;
        prc_buf b;
        prc_err e;

        /* Count the allocations of a clean run first. */
        prc_fault_arm(0, false);
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        for (int i = 0; i < 2000; i++)
                T_ASSERT(prc_buf_puts(&b, "0123456789", &e));
        total = prc_fault_count();
        prc_buf_clear(&b);
        T_ASSERT(total >= 5);
        for (unsigned long nth = 1; nth <= total; nth++) {
                size_t len_before = 0;
                bool failed = false;

                prc_err_init(&e);
                prc_buf_init(&b, 1 << 20);
                prc_fault_arm(nth, false);
                for (int i = 0; i < 2000 && !failed; i++) {
                        len_before = b.len;
                        if (!prc_buf_puts(&b, "0123456789", &e))
                                failed = true;
                }
                prc_fault_arm(0, false);
                if (!failed)
                        t_fail(__FILE__, __LINE__, "allocation %lu of %lu failed silently", nth, total);
                T_ERR(e, PRC_E_OUT_OF_MEMORY);
                T_EQ_INT(b.len, len_before);
                for (size_t i = 0; i < b.len; i++)
                        T_ASSERT(b.data[i] == '0' + i % 10);
                prc_buf_clear(&b);
        }
        check_leaks();
}

static void test_buf__fault_in_take_of_empty(void)
{
        prc_buf b;
        prc_err e;
        size_t n = 7;

        prc_err_init(&e);
        prc_buf_init(&b, 8);
        prc_fault_arm(1, false);
        T_ASSERT(prc_buf_take(&b, &n, &e) == NULL);
        prc_fault_arm(0, false);
        T_ERR(e, PRC_E_OUT_OF_MEMORY);
        T_EQ_INT(n, 7);         /* outputs untouched on failure */
}

static const prc_test tests[] = {
        T(test_buf__put_up_to_cap_exactly_succeeds),
        T(test_buf__put_one_past_cap_fails_and_keeps_contents),
        T(test_buf__zero_cap_holds_only_empty),
        T(test_buf__reserve_size_overflow_is_buffer_limit),
        T(test_buf__failed_realloc_is_out_of_memory_and_unchanged),
        T(test_buf__growth_keeps_nul_and_invariant),
        T(test_buf__self_append_survives_realloc),
        T(test_buf__printf_short_and_long),
        T(test_buf__printf_past_cap_fails_unchanged),
        T(test_buf__take_hands_out_storage),
        T(test_buf__reset_and_truncate_keep_nul),
        T(test_buf__first_error_wins_across_appends),
        T(test_buf__fault_sweep_over_growth),
        T(test_buf__fault_in_take_of_empty),
};
PRC_SUITE(buf, tests)
