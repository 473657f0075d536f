/*
 * test_archive_fixture.h - in-memory tar / tar.gz fixtures written with
 * libarchive's writer (test code only), for the archive walker's suite and
 * the worker suite's archive requests.  Defined in test_archive.c.
 */
#ifndef PRC_TEST_ARCHIVE_FIXTURE_H
#define PRC_TEST_ARCHIVE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

enum { F_GZIP = 1, F_GNU = 2, F_ZSTD = 4 };

struct fx_mem {
        char   type;            /* f file, d dir, l symlink, h hardlink, c char device, p fifo */
        const char *name;
        const char *data;       /* file contents, or link target */
        size_t len;             /* file length (0: strlen(data)) */
        int    mode;
};

/* A pax archive of ms (gzip-filtered with F_GZIP, zstd with F_ZSTD) in a malloc'd buffer; the caller frees it. */
uint8_t *fx_archive(const struct fx_mem *ms, size_t n, unsigned flags, size_t *out_len);

#endif
