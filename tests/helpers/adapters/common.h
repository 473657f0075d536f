/*
 * common.h - shared bits of the static test adapters (tests/helpers/adapters).
 * These are stand-alone programs built with `gcc -static`, NOT linked with
 * libprc: each becomes the only binary (/adapter) of a minimal test image.
 * They play hostile or well-behaved prc-adapter-jsonl-v1 adapters.
 */
#ifndef PRC_TEST_ADAPTER_COMMON_H
#define PRC_TEST_ADAPTER_COMMON_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Read the three request lines (hello, input, execute); returns how many arrived. */
__attribute__((unused)) static int read_request(void)
{
        char c;
        int lines = 0;
        while (lines < 3) {
                ssize_t n = read(0, &c, 1);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                if (c == '\n')
                        lines++;
        }
        return lines;
}

__attribute__((unused)) static void put(int fd, const char *s)
{
        size_t n = strlen(s);
        while (n > 0) {
                ssize_t w = write(fd, s, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0)
                        _exit(3);
                s += w;
                n -= (size_t)w;
        }
}

#endif
