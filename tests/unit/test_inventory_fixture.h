/*
 * test_inventory_fixture.h - tree-building helpers shared by the inventory
 * and snapshot suites (static functions: each test file gets its own copy).
 */
#ifndef PRC_TEST_INVENTORY_FIXTURE_H
#define PRC_TEST_INVENTORY_FIXTURE_H

#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* "<tmpdir>/<rel>" in one of 8 rotating slots. */
static __attribute__((unused)) const char *fx_path(const char *rel)
{
        static char slots[8][8192];
        static unsigned n;
        char *p = slots[n++ % 8];

        snprintf(p, 8192, "%s/%s", t_tmpdir(), rel);
        return p;
}

/* mkdir -p of rel (a directory) under the tmpdir. */
static __attribute__((unused)) void fx_mkdir(const char *rel)
{
        char buf[8192];
        size_t n;

        snprintf(buf, sizeof(buf), "%s/%s", t_tmpdir(), rel);
        n = strlen(t_tmpdir()) + 1;
        for (size_t i = n; buf[i] != '\0'; i++) {
                if (buf[i] != '/')
                        continue;
                buf[i] = '\0';
                if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                        t_fail(__FILE__, __LINE__, "mkdir %s: %s", buf, strerror(errno));
                buf[i] = '/';
        }
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                t_fail(__FILE__, __LINE__, "mkdir %s: %s", buf, strerror(errno));
}

/* Write a file under the tmpdir (parents created) with mode. */
static __attribute__((unused)) void fx_file(const char *rel, const void *data, size_t n, mode_t mode)
{
        char dir[8192], *slash;
        const char *p = fx_path(rel);
        int fd;

        snprintf(dir, sizeof(dir), "%s", rel);
        slash = strrchr(dir, '/');
        if (slash != NULL) {
                *slash = '\0';
                fx_mkdir(dir);
        }
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
                t_fail(__FILE__, __LINE__, "create %s: %s", p, strerror(errno));
        if (n > 0 && write(fd, data, n) != (ssize_t)n)
                t_fail(__FILE__, __LINE__, "write %s", p);
        if (fchmod(fd, mode) != 0)
                t_fail(__FILE__, __LINE__, "chmod %s", p);
        close(fd);
}

static __attribute__((unused)) void fx_text(const char *rel, const char *text)
{
        fx_file(rel, text, strlen(text), 0644);
}

static __attribute__((unused)) void fx_symlink(const char *target, const char *rel)
{
        if (symlink(target, fx_path(rel)) != 0)
                t_fail(__FILE__, __LINE__, "symlink %s: %s", rel, strerror(errno));
}

/* A file of n bytes with a position-dependent pattern (not sparse: real reads). */
static __attribute__((unused)) void fx_big_fill(unsigned char *b, size_t n)
{
        for (size_t i = 0; i < n; i++)
                b[i] = (unsigned char)(i * 2654435761u >> 13);
}

static __attribute__((unused)) void fx_big(const char *rel, size_t n)
{
        unsigned char *b = malloc(n ? n : 1);

        if (b == NULL)
                t_fail(__FILE__, __LINE__, "out of memory");
        fx_big_fill(b, n);
        fx_file(rel, b, n, 0644);
        free(b);
}

/* The tmpdir, opened before fx_run_unprivileged drops root (see there). */
static int fx_rootfd = -1;

/*
 * Run fn as an unprivileged user when we are root (PRC_TEST_USER from
 * tests/run, else "nobody"), so that permission bits really stop reads.
 * fn's failures (t_fail) end the child with status 1, which fails the test.
 * fn reaches the tree through fx_rootfd, opened while still root: on hosts
 * where "/" itself is 0700 an unprivileged process cannot walk to /tmp, but
 * permission checks below the descriptor still apply, which is the point.
 */
static __attribute__((unused)) void fx_run_unprivileged(void (*fn)(void))
{
        const char *name = getenv("PRC_TEST_USER");
        struct passwd *pw;
        pid_t pid;
        int st = 0;

        fx_rootfd = open(t_tmpdir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fx_rootfd < 0)
                t_fail(__FILE__, __LINE__, "cannot open the tmpdir: %s", strerror(errno));
        if (geteuid() != 0) {
                fn();
                return;
        }
        pw = getpwnam(name != NULL && name[0] ? name : "nobody");
        if (pw == NULL || pw->pw_uid == 0)
                t_fail(__FILE__, __LINE__, "no unprivileged user to run as (set PRC_TEST_USER)");
        pid = fork();
        if (pid == 0) {
                if (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
                        t_fail(__FILE__, __LINE__, "cannot drop to %s: %s", pw->pw_name, strerror(errno));
                if (geteuid() == 0)
                        t_fail(__FILE__, __LINE__, "still root after setuid");
                fn();
                fflush(stdout);
                _exit(0);
        }
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
                t_fail(__FILE__, __LINE__, "unprivileged part failed (status 0x%x)", st);
}

#endif
