/*
 * replay.c - run every file of fuzz/corpus/<name>/ through harness <name> in
 * the gcc sanitizer build, so corpus regressions are caught without clang.
 *
 *   prc-replay CORPUS_ROOT     prints "N passed, N failed" (one case per file)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* In the replayer, fuzz_*.c harness files are compiled without PRC_FUZZING. */
struct entry {
        const char *name;
        prc_fuzz_fn fn;
};
static struct entry entries[64];
static size_t nentries;

void prc_fuzz_register(const char *name, prc_fuzz_fn fn)
{
        if (nentries < sizeof(entries) / sizeof(entries[0]))
                entries[nentries++] = (struct entry){ name, fn };
}

static unsigned char *slurp(const char *path, size_t *n)
{
        FILE *f = fopen(path, "rb");
        unsigned char *b;
        long len;

        if (f == NULL)
                return NULL;
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        b = malloc(len > 0 ? (size_t)len : 1);
        if (b != NULL && len > 0 && fread(b, 1, (size_t)len, f) != (size_t)len) {
                free(b);
                b = NULL;
        }
        fclose(f);
        *n = len > 0 ? (size_t)len : 0;
        return b;
}

int main(int argc, char **argv)
{
        unsigned files = 0, pass = 0, fail = 0;

        if (argc != 2) {
                fprintf(stderr, "usage: prc-replay CORPUS_ROOT\n");
                return 2;
        }
        for (size_t i = 0; i < nentries; i++) {
                char dir[4096];
                DIR *d;
                struct dirent *de;
                unsigned here = 0, bad = 0;

                snprintf(dir, sizeof(dir), "%s/%s", argv[1], entries[i].name);
                d = opendir(dir);
                while (d != NULL && (de = readdir(d)) != NULL) {
                        char path[8192];
                        unsigned char *b;
                        size_t n;
                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
                        b = slurp(path, &n);
                        if (b == NULL) {
                                fprintf(stderr, "cannot read %s\n", path);
                                bad++;
                                continue;
                        }
                        /* A sanitizer report aborts the process: the failure is loud. */
                        entries[i].fn(b, n);
                        free(b);
                        here++;
                }
                if (d != NULL)
                        closedir(d);
                if (here == 0)
                        fprintf(stderr, "FAIL replay %s: empty or missing corpus %s\n", entries[i].name, dir);
                if (here == 0 || bad)
                        fail++;
                else
                        pass++;
                files += here;
        }
        printf("replayed %u corpus files through %zu harnesses\n", files, nentries);
        printf("%u passed, %u failed\n", pass, fail);
        return fail ? 1 : 0;
}
