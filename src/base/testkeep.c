/*
 * testkeep.c - test builds only (PRC_TESTING): see testkeep.h.
 */
#include "base/testkeep.h"

#if defined(PRC_TESTING) && PRC_TESTING

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"

/* Far above any result the suite makes; a larger one is said, not silently dropped. */
#define KEEP_MAX ((size_t)1 << 30)

void prc_test_keep(const char *kind, const json_t *doc)
{
        static atomic_uint seq;
        const char *dir = getenv(PRC_TEST_RESULT_DIR_ENV);
        char path[4096];
        prc_buf b;
        prc_err e = { 0 };
        int fd = -1;

        if (dir == NULL || *dir == '\0' || doc == NULL)
                return;
        prc_buf_init(&b, KEEP_MAX);
        if (prc_jcs_write(doc, &b, &e) && prc_buf_putc(&b, '\n', &e)) {
                /* Processes of one batch share the directory: pid and a counter, created exclusively. */
                for (unsigned tries = 0; fd < 0 && tries < 64; tries++) {
                        int n = snprintf(path, sizeof(path), "%s/%s.%ld.%u.json", dir, kind, (long)getpid(),
                                         atomic_fetch_add(&seq, 1));
                        if (n < 0 || (size_t)n >= sizeof(path)) {
                                errno = ENAMETOOLONG;
                                break;
                        }
                        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                        if (fd < 0 && errno != EEXIST)
                                break;
                }
                if (fd < 0)
                        prc_err_sys(&e, PRC_E_IO, errno, "cannot create a file");
                else if (!prc_fd_write_all(fd, b.data, b.len, &e))
                        close(fd);
                else if (close(fd) != 0)
                        prc_err_sys(&e, PRC_E_IO, errno, "cannot close a file");
        }
        /* The suite then misses this document: say so, so a test that reads stderr notices. */
        if (prc_err_is_set(&e))
                fprintf(stderr, "prc (test build): could not keep a %s in %s: %s\n", kind,
                        PRC_TEST_RESULT_DIR_ENV, e.msg);
        prc_buf_clear(&b);
}

#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int prc_testkeep_release_build;
#endif
