/*
 * file.c - bounded whole-file reads and full writes.
 * Trust: the file's size and contents are hostile; the cap is enforced on
 * the bytes actually read (a file may grow after fstat), and a failed read
 * leaves the caller's buffer as it was.
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read one byte to learn whether more input follows.  1: more, 0: end, -1: error set. */
static int probe_more(int fd, prc_err *err)
{
        uint8_t c;

        for (;;) {
                ssize_t r = read(fd, &c, 1);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "read failed");
                        return -1;
                }
                return r > 0;
        }
}

bool prc_fd_read_all(int fd, size_t max, prc_buf *out, prc_err *err)
{
        size_t mark = out->len, got = 0;

        for (;;) {
                size_t want = 1u << 16, room = out->max - out->len;
                ssize_t r;

                if (want > max - got)
                        want = max - got;
                if (want > room)
                        want = room;
                if (want == 0) {
                        int more = probe_more(fd, err);
                        if (more < 0)
                                goto fail;
                        if (more == 0)
                                return true;
                        if (got == max)
                                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "input exceeds %zu bytes", max);
                        else
                                prc_err_set(err, PRC_E_BUFFER_LIMIT, "buffer cap %zu bytes reached", out->max);
                        goto fail;
                }
                if (!prc_buf_reserve(out, want, err))
                        goto fail;
                r = read(fd, out->data + out->len, want);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "read failed");
                        goto fail;
                }
                if (r == 0)
                        return true;
                out->len += (size_t)r;
                out->data[out->len] = 0;
                got += (size_t)r;
        }
fail:
        prc_buf_truncate(out, mark);
        return false;
}

bool prc_file_read(const char *path, size_t max, unsigned flags, prc_buf *out, prc_err *err)
{
        /* O_NONBLOCK: opening a FIFO must not hang; fstat then refuses it. */
        int oflags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
        struct stat st;
        int fd;
        bool ok;

        if (flags & PRC_FILE_NOFOLLOW)
                oflags |= O_NOFOLLOW;
        fd = open(path, oflags);
        if (fd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", path);
                prc_err_set_file(err, path);
                return false;
        }
        if (fstat(fd, &st) != 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s'", path);
                prc_err_set_file(err, path);
                close(fd);
                return false;
        }
        if (!S_ISREG(st.st_mode)) {
                prc_err_set(err, PRC_E_IO, "'%s' is not a regular file", path);
                prc_err_set_file(err, path);
                close(fd);
                return false;
        }
        if ((uint64_t)st.st_size > max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "'%s' has %lld bytes, cap is %zu", path,
                            (long long)st.st_size, max);
                prc_err_set_file(err, path);
                close(fd);
                return false;
        }
        ok = prc_fd_read_all(fd, max, out, err);
        close(fd);
        if (!ok)
                prc_err_set_file(err, path);
        return ok;
}

bool prc_file_read_as(const char *path, const char *role, size_t max, unsigned flags, prc_buf *out, prc_err *err)
{
        prc_err fe;

        prc_err_init(&fe);
        if (prc_file_read(path, max, flags, out, &fe))
                return true;
        if (fe.cls == PRC_E_INPUT_TOO_LARGE)
                prc_err_set(err, fe.cls, "%s is larger than %zu bytes", role, max);
        else if (fe.cls == PRC_E_IO)
                prc_err_sys(err, fe.cls, fe.sys, "cannot read %s", role);
        else
                prc_err_set(err, fe.cls, "cannot read %s", role);
        prc_err_set_file(err, path);
        return false;
}

bool prc_fd_write_all(int fd, const void *p, size_t n, prc_err *err)
{
        const uint8_t *q = p;

        while (n > 0) {
                ssize_t w = write(fd, q, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "write failed");
                if (w == 0)     /* no progress and no errno: do not spin */
                        return prc_err_set(err, PRC_E_IO, "write made no progress");
                q += w;
                n -= (size_t)w;
        }
        return true;
}

int prc_fd_replace_begin(int dirfd, const char *tmp, prc_err *err)
{
        int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

        if (fd < 0)
                prc_err_sys(err, PRC_E_IO, errno, "cannot create '%s'", tmp);
        return fd;
}

bool prc_fd_replace_at(int dirfd, const char *tmp, const char *name, const void *p, size_t n, bool exact_0600,
                       prc_err *err)
{
        int fd = prc_fd_replace_begin(dirfd, tmp, err);

        if (fd < 0)
                return false;
        if (!prc_fd_write_all(fd, p, n, err)) {
                prc_fd_replace_abort(dirfd, fd, tmp);
                return false;
        }
        return prc_fd_replace_commit(dirfd, fd, tmp, name, exact_0600, err);
}

void prc_fd_replace_abort(int dirfd, int fd, const char *tmp)
{
        (void)close(fd);
        (void)unlinkat(dirfd, tmp, 0);  /* best effort: the failure is already recorded */
}

bool prc_fd_replace_commit(int dirfd, int fd, const char *tmp, const char *name, bool exact_0600, prc_err *err)
{
        bool ok = true;

        /* the umask can only take bits away from 0600; fchmod makes the mode exactly 0600 */
        if (exact_0600 && fchmod(fd, 0600) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot chmod '%s'", tmp);
        if (ok && fsync(fd) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot fsync '%s'", tmp);
        if (close(fd) != 0 && ok)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot close '%s'", tmp);
        if (ok && renameat(dirfd, tmp, dirfd, name) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot rename '%s' to '%s'", tmp, name);
        if (!ok) {
                (void)unlinkat(dirfd, tmp, 0);  /* best effort: the failure is already recorded */
                return false;
        }
        if (fsync(dirfd) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot fsync the directory of '%s'", name);
        return true;
}
