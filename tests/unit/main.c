/*
 * main.c - unit test runner.
 *
 *   prc-tests [-s SUITE]... [-t NAME-SUBSTRING] [-N] [-l] [-v]
 *
 * -N runs only the suites marked PRC_SUITE_NOSAN (the sandbox suites).
 *
 * Runs each test in a forked child with a 120 s deadline and its own
 * temporary directory, then prints "N passed, N failed".
 */
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>

/*
 * libfyaml 0.7.12 leaks a 1 KiB buffer on some syntax-error paths (see
 * fuzz/fuzz_yaml.c); its frames carry no frame pointers, so it can only be
 * matched by module.  prc's own allocations are still checked.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
        return "leak:libfyaml.so\n";
}
#endif

static prc_suite *suites;
static char tmpdir[4096];
static char rootdir[4096];
static char corpora[8192];

void prc_suite_register(prc_suite *s)
{
        /* Insert sorted by name so the run order is deterministic. */
        prc_suite **pp = &suites;
        while (*pp != NULL && strcmp((*pp)->name, s->name) < 0)
                pp = &(*pp)->next;
        s->next = *pp;
        *pp = s;
}

void t_fail(const char *file, int line, const char *fmt, ...)
{
        va_list ap;

        fprintf(stderr, "    %s:%d: ", file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
        fflush(stderr);
        _exit(1);
}

const char *t_root(void)
{
        return rootdir;
}

const char *t_corpora(void)
{
        struct stat st;

        if (corpora[0] == '\0')
                return NULL;
        return stat(corpora, &st) == 0 && S_ISDIR(st.st_mode) ? corpora : NULL;
}

const char *t_tmpdir(void)
{
        return tmpdir;
}

const char *t_write(const char *dir, const char *name, const void *data, size_t n)
{
        static char paths[8][4096];
        static unsigned slot;
        char *p = paths[slot++ % 8];
        int fd;

        snprintf(p, 4096, "%s/%s", dir, name);
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
                t_fail(__FILE__, __LINE__, "cannot create %s: %s", p, strerror(errno));
        if (n > 0 && write(fd, data, n) != (ssize_t)n)
                t_fail(__FILE__, __LINE__, "cannot write %s", p);
        close(fd);
        return p;
}

char *t_read(const char *path, size_t *out_len)
{
        FILE *f = fopen(path, "rb");
        char *buf;
        long n;

        if (f == NULL)
                t_fail(__FILE__, __LINE__, "cannot open %s: %s", path, strerror(errno));
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)n + 1);
        if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n)
                t_fail(__FILE__, __LINE__, "cannot read %s", path);
        buf[n] = '\0';
        fclose(f);
        if (out_len != NULL)
                *out_len = (size_t)n;
        return buf;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)ftw;
        /*
         * Snapshot tests leave read-only trees.  Never through a symlink:
         * chmod follows it, and fixtures link to /etc/passwd and the like
         * (this made the host's /etc/passwd and / mode 0700).
         */
        if (flag != FTW_SL && flag != FTW_SLN && !S_ISLNK(st->st_mode))
                chmod(p, 0700);
        return remove(p);
}

static void rm_rf(const char *p)
{
        /* Two passes: the first makes directories writable on the way down. */
        nftw(p, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

static bool run_one(const prc_suite *s, const prc_test *t, bool verbose)
{
        char base[] = "/tmp/prc-test-XXXXXX";
        pid_t pid;
        int status = 0;

        if (mkdtemp(base) == NULL) {
                fprintf(stderr, "cannot make a temporary directory: %s\n", strerror(errno));
                return false;
        }
        chmod(base, 0755);      /* tests that drop to an unprivileged user read fixtures here */
        snprintf(tmpdir, sizeof(tmpdir), "%s", base);
        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if (pid == 0) {
                setpgid(0, 0);
                alarm(120);
                t->fn();
                fflush(stdout);
#if defined(__SANITIZE_ADDRESS__)
                /* _exit skips LeakSanitizer's exit-time check: run it here, per test. */
                if (__lsan_do_recoverable_leak_check() != 0) {
                        fprintf(stderr, "    LeakSanitizer found leaks in this test\n");
                        _exit(1);
                }
#endif
                _exit(0);
        }
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        kill(-pid, SIGKILL);    /* any stray grandchild of the test */
        rm_rf(base);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                if (verbose)
                        printf("ok   %s.%s\n", s->name, t->name);
                return true;
        }
        if (WIFSIGNALED(status))
                printf("FAIL %s.%s (signal %d%s)\n", s->name, t->name, WTERMSIG(status),
                       WTERMSIG(status) == SIGALRM ? ", timed out" : "");
        else
                printf("FAIL %s.%s\n", s->name, t->name);
        return false;
}

static bool selected(const char *name, char **list, int n)
{
        if (n == 0)
                return true;
        for (int i = 0; i < n; i++)
                if (strcmp(list[i], name) == 0)
                        return true;
        return false;
}

int main(int argc, char **argv)
{
        char *only[64];
        int nonly = 0, opt;
        const char *filter = NULL, *env;
        bool list = false, verbose = false, nosan_only = false;
        unsigned passed = 0, failed = 0;

        while ((opt = getopt(argc, argv, "s:t:Nlv")) != -1) {
                switch (opt) {
                case 's':
                        if (nonly < 64)
                                only[nonly++] = optarg;
                        break;
                case 't':
                        filter = optarg;
                        break;
                case 'N':
                        nosan_only = true;
                        break;
                case 'l':
                        list = true;
                        break;
                case 'v':
                        verbose = true;
                        break;
                default:
                        fprintf(stderr, "usage: prc-tests [-s SUITE]... [-t SUBSTRING] [-N] [-l] [-v]\n");
                        return 2;
                }
        }
        env = getenv("PRC_ROOT");
        if (env == NULL && getcwd(rootdir, sizeof(rootdir)) == NULL)
                return 2;
        if (env != NULL)
                snprintf(rootdir, sizeof(rootdir), "%s", env);
        env = getenv("PRC_CORPORA");
        if (env != NULL)
                snprintf(corpora, sizeof(corpora), "%s", env);
        else
                snprintf(corpora, sizeof(corpora), "%s/../shared/corpora", rootdir);
        for (prc_suite *s = suites; s != NULL; s = s->next) {
                if (!selected(s->name, only, nonly) || (nosan_only && !s->nosan))
                        continue;
                for (size_t i = 0; i < s->n; i++) {
                        if (filter != NULL && strstr(s->tests[i].name, filter) == NULL)
                                continue;
                        if (list) {
                                printf("%s.%s\n", s->name, s->tests[i].name);
                                continue;
                        }
                        if (run_one(s, &s->tests[i], verbose))
                                passed++;
                        else
                                failed++;
                }
        }
        if (!list)
                printf("%u passed, %u failed\n", passed, failed);
        return failed ? 1 : 0;
}
