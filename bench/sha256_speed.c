/*
 * sha256_speed.c - prc's streaming SHA-256 throughput (bench/digest.sh).
 *
 *   sha256_speed MIB CHUNK     prints bytes per second of hashing MIB MiB
 *                              fed in CHUNK-byte updates
 *   sha256_speed 0 CHUNK path  prints the path taken: SHA-NI or portable
 * Time is process CPU time, as `openssl speed` measures by default, so a
 * busy shared machine does not skew the comparison.  Not a test: timings
 * never decide pass or fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/digest.h"

int main(int argc, char **argv)
{
        size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
        size_t chunk = argc > 2 ? strtoul(argv[2], NULL, 10) : 16384;
        size_t total = mib << 20, done = 0;
        uint8_t *buf = malloc(chunk), md[PRC_SHA256_LEN];
        struct timespec t0, t1;
        prc_sha256 *h;
        prc_err e;
        double secs;

        prc_err_init(&e);
        if (argc > 3) {
                puts(prc_sha256_hw() ? "SHA-NI" : "portable");
                return 0;
        }
        if (buf == NULL || chunk == 0)
                return 1;
        h = prc_sha256_new(&e);
        if (h == NULL)
                return 1;
        for (size_t i = 0; i < chunk; i++)
                buf[i] = (uint8_t)(i * 131);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        while (done < total) {
                if (!prc_sha256_update(h, buf, chunk, &e))
                        return 1;
                done += chunk;
        }
        if (!prc_sha256_final(h, md, &e))
                return 1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("%.0f\n", (double)done / secs);
        prc_sha256_free(h);
        free(buf);
        return 0;
}
