/*
 * safeopen.c - symlink-free resolution beneath a directory (see safeopen.h).
 * Trust: paths come from the inventory (validated), the tree is hostile.
 */
#include "inventory/safeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/path.h"

/* Set once openat2 reported ENOSYS (old kernel, or a seccomp filter that hides it). */
static atomic_bool no_openat2;

#if defined(PRC_TESTING) && PRC_TESTING
void prc_safe_test_force_walk(bool on)
{
        atomic_store(&no_openat2, on);
}
#endif

static int walk_open(int dirfd, const char *rel, int flags, mode_t mode)
{
        char comp[PRC_PATH_MAX + 1];
        const char *p = rel;
        int cur = dirfd, fd, saved;

        for (;;) {
                const char *slash = strchr(p, '/');
                size_t n;

                if (slash == NULL) {
                        fd = openat(cur, p, flags, mode);
                        saved = errno;
                        if (cur != dirfd)
                                close(cur);
                        errno = saved;
                        return fd;
                }
                n = (size_t)(slash - p);
                if (n == 0 || n > PRC_PATH_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
                        if (cur != dirfd)
                                close(cur);
                        errno = EXDEV;
                        return -1;
                }
                memcpy(comp, p, n);
                comp[n] = '\0';
                fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                saved = errno;
                if (cur != dirfd)
                        close(cur);
                if (fd < 0) {
                        errno = saved;
                        return -1;
                }
                cur = fd;
                p = slash + 1;
        }
}

int prc_safe_openat(int dirfd, const char *rel, int flags, mode_t mode)
{
        struct open_how how;
        long fd;

        flags |= O_NOFOLLOW | O_CLOEXEC;
        if (!atomic_load_explicit(&no_openat2, memory_order_relaxed)) {
                memset(&how, 0, sizeof(how));
                how.flags = (uint64_t)(unsigned)flags;
                how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
                how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
                do
                        fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
                while (fd < 0 && errno == EAGAIN);      /* RESOLVE_* races with a rename: retry */
                if (fd >= 0 || errno != ENOSYS)
                        return (int)fd;
                atomic_store_explicit(&no_openat2, true, memory_order_relaxed);
        }
        return walk_open(dirfd, rel, flags, mode);
}

int prc_safe_mkdir_parents(int dirfd, const char *rel, mode_t mode)
{
        char comp[PRC_PATH_MAX + 1];
        const char *p = rel;
        int cur = dirfd, fd, saved;

        for (;;) {
                const char *slash = strchr(p, '/');
                size_t n;

                if (slash == NULL)
                        break;
                n = (size_t)(slash - p);
                if (n == 0 || n > PRC_PATH_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
                        saved = EXDEV;
                        goto fail;
                }
                memcpy(comp, p, n);
                comp[n] = '\0';
                if (mkdirat(cur, comp, mode) != 0 && errno != EEXIST) {
                        saved = errno;
                        goto fail;
                }
                /* O_NOFOLLOW | O_DIRECTORY: an existing non-directory or symlink fails here. */
                fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                saved = errno;
                if (cur != dirfd)
                        close(cur);
                if (fd < 0) {
                        errno = saved;
                        return -1;
                }
                cur = fd;
                p = slash + 1;
        }
        if (cur != dirfd)
                close(cur);
        return 0;
fail:
        if (cur != dirfd)
                close(cur);
        errno = saved;
        return -1;
}
