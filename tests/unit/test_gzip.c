/*
 * test_gzip.c - prc's deterministic gzip writer (issue 17): exact bytes,
 * block boundaries read back by an independent reader (libarchive, linked
 * into the tests), and the pinned ruleset form reproduced from the
 * upstream file.
 */
#include "t.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>

#include "adapter/native/gitleaks.h"
#include "base/buf.h"
#include "base/digest.h"
#include "base/gzip.h"

static void test_gzip__empty_input_is_one_final_stored_block(void)
{
        static const uint8_t want[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff,     /* header, mtime 0, OS 255 */
                                        1, 0, 0, 0xff, 0xff,                       /* final stored block, LEN 0 */
                                        0, 0, 0, 0, 0, 0, 0, 0 };                   /* CRC-32 0, ISIZE 0 */
        prc_buf b;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&b, 1024);
        T_ASSERT(prc_gzip_write(NULL, 0, &b, &err));
        T_EQ_MEM(b.data, b.len, want, sizeof(want));
        T_EQ_INT(prc_gzip_size(0), sizeof(want));
        prc_buf_clear(&b);
}

static void test_gzip__abc_exact_bytes(void)
{
        static const uint8_t want[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 3, 0, 0xfc, 0xff, 'a', 'b', 'c',
                                        0xc2, 0x41, 0x24, 0x35, 3, 0, 0, 0 };
        prc_buf b;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&b, 1024);
        T_ASSERT(prc_gzip_write((const uint8_t *)"abc", 3, &b, &err));
        T_EQ_MEM(b.data, b.len, want, sizeof(want));
        prc_buf_clear(&b);
}

static void test_gzip__crc32_check_value(void)
{
        /* the CRC-32 catalogue's check value for "123456789" */
        T_EQ_INT(prc_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926u);
        /* continuing equals one pass */
        T_EQ_INT(prc_crc32(prc_crc32(0, (const uint8_t *)"1234", 4), (const uint8_t *)"56789", 5), 0xcbf43926u);
}

/* Decompress with libarchive (zlib): an independent reader of what we wrote. */
static uint8_t *gunzip(const uint8_t *gz, size_t n, size_t *out_len)
{
        struct archive *a = archive_read_new();
        struct archive_entry *e;
        size_t cap = 1u << 20, len = 0;
        uint8_t *out = malloc(cap);
        la_ssize_t r;

        T_ASSERT(a != NULL && out != NULL);
        T_ASSERT(archive_read_support_filter_gzip(a) == ARCHIVE_OK);
        T_ASSERT(archive_read_support_format_raw(a) == ARCHIVE_OK);
        T_ASSERT(archive_read_open_memory(a, gz, n) == ARCHIVE_OK);
        T_ASSERT(archive_read_next_header(a, &e) == ARCHIVE_OK);
        while ((r = archive_read_data(a, out + len, cap - len)) > 0) {
                len += (size_t)r;
                T_ASSERT(len < cap);
        }
        T_ASSERT(r == 0);
        archive_read_free(a);
        *out_len = len;
        return out;
}

static void test_gzip__block_boundaries_read_back(void)
{
        static const size_t sizes[] = { 1, 65534, 65535, 65536, 131070, 131071, 200000 };
        size_t i, j;

        for (i = 0; i < PRC_ARRAY_LEN(sizes); i++) {
                uint8_t *in = malloc(sizes[i]), *back;
                size_t blen;
                prc_buf b;
                prc_err err;

                T_ASSERT(in != NULL);
                for (j = 0; j < sizes[i]; j++)
                        in[j] = (uint8_t)(j * 131 + (j >> 9));
                prc_err_init(&err);
                prc_buf_init(&b, 1u << 20);
                T_ASSERT(prc_gzip_write(in, sizes[i], &b, &err));
                T_EQ_INT(b.len, prc_gzip_size(sizes[i]));
                back = gunzip(b.data, b.len, &blen);
                T_EQ_MEM(back, blen, in, sizes[i]);
                free(back);
                free(in);
                prc_buf_clear(&b);
        }
}

static void test_gzip__four_gib_refused_before_reading(void)
{
        prc_buf b;
        prc_err err;

        if (sizeof(size_t) < 8)
                return;
        prc_err_init(&err);
        prc_buf_init(&b, 1024);
        T_ASSERT(!prc_gzip_write((const uint8_t *)"", (size_t)1 << 32, &b, &err));
        T_ERR(err, PRC_E_INPUT_TOO_LARGE);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
}

static void test_gzip__cap_of_the_output_buffer_is_kept(void)
{
        prc_buf b;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&b, 20);
        T_ASSERT(!prc_gzip_write((const uint8_t *)"abc", 3, &b, &err));
        T_ASSERT(err.cls != PRC_E_OK);
        prc_buf_clear(&b);
}

/* The upstream ruleset gives exactly the pinned gzip form, twice (issue 17). */
static void test_gzip__pinned_ruleset_form_reproduced(void)
{
        const char *c = t_corpora();
        char path[4096], hex[PRC_SHA256_HEX + 1];
        prc_buf a, b;
        prc_err err;
        size_t n;
        char *toml;

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads native/gitleaks/config");
        snprintf(path, sizeof(path), "%s/native/gitleaks/config/gitleaks.toml", c);
        toml = t_read(path, &n);
        prc_err_init(&err);
        prc_buf_init(&a, 1u << 20);
        prc_buf_init(&b, 1u << 20);
        T_ASSERT(prc_gzip_write((const uint8_t *)toml, n, &a, &err));
        T_ASSERT(prc_gzip_write((const uint8_t *)toml, n, &b, &err));
        T_EQ_MEM(a.data, a.len, b.data, b.len);
        T_EQ_INT(a.len, PRC_GITLEAKS_RULESET_GZ_SIZE);
        T_ASSERT(prc_sha256_hex_once(a.data, a.len, hex, &err));
        T_EQ_STR(hex, PRC_GITLEAKS_RULESET_GZ_SHA256);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        free(toml);
}

static const prc_test tests[] = {
        T(test_gzip__empty_input_is_one_final_stored_block),
        T(test_gzip__abc_exact_bytes),
        T(test_gzip__crc32_check_value),
        T(test_gzip__block_boundaries_read_back),
        T(test_gzip__four_gib_refused_before_reading),
        T(test_gzip__cap_of_the_output_buffer_is_kept),
        T(test_gzip__pinned_ruleset_form_reproduced),
};
PRC_SUITE(gzip, tests)
