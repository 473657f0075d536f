/*
 * inventory_floor.c - the least work an inventory that opens and reads
 * every file must do (bench/inventory.sh): open, fstat, read in 1 MiB
 * chunks into a per-thread buffer (files under 256 KiB) or map in 16 MiB
 * windows (larger ones, as prc does), SHA-256 (prc's EVP wrapper) and
 * close every file of a list, on THREADS threads taking files from a
 * shared counter.  No walk (the
 * list is made beforehand), no symlink-safe open, no identity or change
 * checks (one fstat, not two), no SIGBUS guard, no listing: what is left
 * between this and `prc inventory` is the cost of those guarantees; what
 * is left between this and the SHA-256 limit is the kernel's per-file cost
 * (and the copy to user space of the small files).
 *
 *   inventory_floor LIST THREADS    LIST: NUL-separated paths (find -print0)
 * Prints the number of files and bytes hashed.  Not a test.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/digest.h"

static char **paths;
static size_t npaths;
static atomic_size_t next_path;
static atomic_ullong total;

static void *run(void *arg)
{
        uint8_t *buf = malloc(1u << 20), md[PRC_SHA256_LEN];
        prc_sha256 *h;
        prc_err e;

        (void)arg;
        prc_err_init(&e);
        h = prc_sha256_new(&e);
        if (buf == NULL || h == NULL)
                exit(1);
        for (;;) {
                size_t i = atomic_fetch_add(&next_path, 1);
                struct stat st;
                ssize_t r = 0;
                int fd;

                if (i >= npaths)
                        break;
                fd = open(paths[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
                if (fd < 0 || fstat(fd, &st) != 0 || !prc_sha256_reset(h, &e))
                        exit(1);
                if (st.st_size >= (256 << 10)) {
                        for (off_t off = 0; off < st.st_size; off += 16 << 20) {
                                size_t len = st.st_size - off > (16 << 20) ? (16u << 20) : (size_t)(st.st_size - off);
                                uint8_t *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, off);

                                if (p == MAP_FAILED)
                                        exit(1);
                                for (size_t at = 0; at < len; at += 1u << 20)
                                        if (!prc_sha256_update(h, p + at, len - at > (1u << 20) ? (1u << 20) : len - at, &e))
                                                exit(1);
                                munmap(p, len);
                        }
                        atomic_fetch_add(&total, (unsigned long long)st.st_size);
                } else {
                        while ((r = read(fd, buf, 1u << 20)) > 0) {
                                if (!prc_sha256_update(h, buf, (size_t)r, &e))
                                        exit(1);
                                atomic_fetch_add(&total, (unsigned long long)r);
                        }
                }
                if (r < 0 || !prc_sha256_final(h, md, &e))
                        exit(1);
                close(fd);
        }
        prc_sha256_free(h);
        free(buf);
        return NULL;
}

int main(int argc, char **argv)
{
        unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2;
        size_t cap = 1024, len = 0, got;
        char *list = malloc(cap);
        pthread_t tid[64];
        FILE *f;

        if (argc < 2 || list == NULL || threads == 0 || threads > 64)
                return 2;
        f = fopen(argv[1], "rb");
        if (f == NULL)
                return 1;
        while ((got = fread(list + len, 1, cap - len, f)) > 0) {
                len += got;
                if (len == cap) {
                        cap *= 2;
                        list = realloc(list, cap);
                        if (list == NULL)
                                return 1;
                }
        }
        fclose(f);
        for (size_t i = 0; i < len; i++)
                npaths += list[i] == '\0';
        paths = malloc((npaths ? npaths : 1) * sizeof(*paths));
        if (paths == NULL)
                return 1;
        for (size_t i = 0, k = 0; i < len; i += strlen(list + i) + 1)
                paths[k++] = list + i;
        for (unsigned t = 1; t < threads; t++)
                if (pthread_create(&tid[t], NULL, run, NULL) != 0)
                        return 1;
        run(NULL);
        for (unsigned t = 1; t < threads; t++)
                pthread_join(tid[t], NULL);
        printf("%zu files, %llu bytes\n", npaths, (unsigned long long)atomic_load(&total));
        return 0;
}
