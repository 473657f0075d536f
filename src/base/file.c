/*
 * file.c - bounded whole-file reads and full writes.
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

bool prc_fd_read_all(int fd, size_t max, prc_buf *out, prc_err *err)
{
        for (;;) {
                ssize_t r;
                size_t want = 1u << 16;

                if (out->len == max) {
                        uint8_t probe;
                        r = read(fd, &probe, 1);
                        if (r < 0 && errno == EINTR)
                                continue;
                        if (r < 0)
                                return prc_err_sys(err, PRC_E_IO, errno, "read failed");
                        if (r > 0)
                                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "input exceeds %zu bytes", max);
                        return true;
                }
                if (want > max - out->len)
                        want = max - out->len;
                if (!prc_buf_reserve(out, want, err))
                        return false;
                r = read(fd, out->data + out->len, want);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "read failed");
                if (r == 0)
                        break;
                out->len += (size_t)r;
                out->data[out->len] = 0;
        }
        return true;
}

bool prc_file_read(const char *path, size_t max, unsigned flags, prc_buf *out, prc_err *err)
{
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

bool prc_fd_write_all(int fd, const void *p, size_t n, prc_err *err)
{
        const uint8_t *q = p;

        while (n > 0) {
                ssize_t w = write(fd, q, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0)
                        return prc_err_sys(err, PRC_E_IO, errno, "write failed");
                q += w;
                n -= (size_t)w;
        }
        return true;
}
