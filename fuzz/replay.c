/*
 * replay.c - run every file of fuzz/corpus/<name>/ through harness <name> in
 * the gcc sanitizer build, so corpus regressions are caught without clang.
 *
 *   prc-replay CORPUS_ROOT     prints "N passed, N failed" (one case per harness)
 *
 * A harness that traps, or a sanitizer report, ends the process; before it
 * dies the replayer names the corpus file it was running, so the failing
 * input is known from the log alone.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "fuzz.h"

/* The file being replayed, for the crash report (async-signal-safe write only). */
static char current[8400];

static void say_current(void)
{
        static const char pre[] = "FAIL replay: crashed on ";
        size_t n = strnlen(current, sizeof(current));

        if (n == 0)
                return;
        (void)!write(2, pre, sizeof(pre) - 1);
        (void)!write(2, current, n);
        (void)!write(2, "\n", 1);
}

static void on_fatal(int sig)
{
        say_current();
        signal(sig, SIG_DFL);
        raise(sig);
}

static void arm_crash_report(void)
{
        static const int sigs[] = { SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE };

        for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
                signal(sigs[i], on_fatal);
#if defined(__SANITIZE_ADDRESS__)
        __sanitizer_set_death_callback(say_current);
#endif
}

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
        arm_crash_report();
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
                        snprintf(current, sizeof(current), "%s (harness %s)", path, entries[i].name);
                        entries[i].fn(b, n);
                        current[0] = '\0';
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
