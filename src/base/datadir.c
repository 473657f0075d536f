/*
 * datadir.c - the per-user data directory of datadir.h.
 * Trust: environment and filesystem are the operator's; the checks keep a
 * mistake (a directory others may write) from going unnoticed.
 */
#include "base/datadir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"

bool prc_datadir_path(char *out, size_t cap, prc_err *err)
{
        const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
        int n;

        /* XDG Base Directory: a relative path "should be considered invalid" (ignored). */
        if (x != NULL && x[0] == '/')
                n = snprintf(out, cap, "%s/prc", x);
        else if (h != NULL && h[0] == '/')
                n = snprintf(out, cap, "%s/.local/share/prc", h);
        else
                return prc_err_set(err, PRC_E_DATADIR_UNAVAILABLE,
                                   "set XDG_DATA_HOME or HOME to an absolute path: prc keeps its data there");
        if (n < 0 || (size_t)n >= cap)
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "the data directory path is too long");
        return true;
}

bool prc_datadir_file(const char *name, char *out, size_t cap, prc_err *err)
{
        size_t k;

        if (!prc_datadir_path(out, cap, err))
                return false;
        k = strlen(out);
        if (k + 1 + strlen(name) >= cap)
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "the data directory path is too long");
        out[k] = '/';
        memcpy(out + k + 1, name, strlen(name) + 1);
        return true;
}

/* mkdir -p with 0700 for what is missing (the XDG rule for directories an application creates). */
static bool make_parents(char *path, prc_err *err)
{
        for (char *s = path + 1; *s != '\0'; s++) {
                if (*s != '/')
                        continue;
                *s = '\0';
                if (mkdir(path, 0700) != 0 && errno != EEXIST) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot create '%s'", path);
                        *s = '/';
                        return false;
                }
                *s = '/';
        }
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot create '%s'", path);
        return true;
}

int prc_datadir_open(bool create, prc_err *err)
{
        char path[4096];
        struct stat st;
        int fd;

        if (!prc_datadir_path(path, sizeof(path), err))
                return -1;
        if (create && !make_parents(path, err))
                return -1;
        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ELOOP || errno == ENOTDIR)
                        prc_err_set(err, PRC_E_DATADIR_UNSAFE, "'%s' is not a directory (a symlink is refused)", path);
                else
                        prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", path);
                return -1;
        }
        if (fstat(fd, &st) != 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", path);
                goto fail;
        }
        if (st.st_uid != geteuid()) {
                prc_err_set(err, PRC_E_DATADIR_UNSAFE, "'%s' is owned by uid %ld, not by this user", path,
                            (long)st.st_uid);
                goto fail;
        }
        if ((st.st_mode & 07777) != 0700 && fchmod(fd, 0700) != 0) {
                prc_err_sys(err, PRC_E_DATADIR_UNSAFE, errno, "cannot make '%s' 0700", path);
                goto fail;
        }
        return fd;
fail:
        close(fd);
        return -1;
}

bool prc_datadir_store(int dirfd, const char *name, const void *p, size_t n, prc_err *err)
{
        char tmp[512];

        if (snprintf(tmp, sizeof(tmp), ".%s.tmp.%ld", name, (long)getpid()) >= (int)sizeof(tmp))
                return prc_err_set(err, PRC_E_PATH_TOO_LONG, "file name too long");
        /* a temporary left by a killed run of the same pid: never written through, replaced */
        (void)unlinkat(dirfd, tmp, 0);
        return prc_fd_replace_at(dirfd, tmp, name, p, n, true, err);
}
