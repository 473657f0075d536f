/*
 * state.c - atomic, ordered writes of the state directory (see state.h).
 * Trust: engine-side; the state dir is the operator's.
 */
#include "engine/state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"
#include "base/jcs.h"

#if defined(PRC_TESTING) && PRC_TESTING
static void (*test_hook)(void);
void prc_state_set_test_hook(void (*fn)(void))
{
        test_hook = fn;
}
#endif

static int open_dir_at(int at, const char *name, prc_err *err)
{
        int fd;

        if (mkdirat(at, name, 0700) != 0 && errno != EEXIST) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot create state directory '%s'", name);
                return -1;
        }
        fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                prc_err_sys(err, PRC_E_IO, errno, "cannot open state directory '%s'", name);
        return fd;
}

bool prc_atomic_write_at(int dirfd, const char *name, const void *p, size_t n, prc_err *err)
{
        char tmp[512];

        snprintf(tmp, sizeof(tmp), ".tmp.%ld.%s", (long)getpid(), name);
        return prc_fd_replace_at(dirfd, tmp, name, p, n, false, err);
}

/* An artifact already stored must hold exactly the bytes its name promises. */
static bool same_bytes(int dirfd, const char *name, const prc_artifact_bytes *a, bool *out_same, prc_err *err)
{
        int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        prc_buf b;
        bool ok;

        if (fd < 0) {
                if (errno == ENOENT) {
                        *out_same = false;
                        return true;
                }
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open artifact '%s'", name);
        }
        prc_buf_init(&b, a->len);
        ok = prc_fd_read_all(fd, a->len, &b, err);
        close(fd);
        if (ok && (b.len != a->len || (a->len > 0 && memcmp(b.data, a->data, a->len) != 0)))
                ok = prc_err_set(err, PRC_E_STATE_CONFLICT, "stored artifact '%s' has other bytes", name);
        prc_buf_clear(&b);
        *out_same = ok;
        return ok;
}

bool prc_state_write(const char *dir, const prc_artifact_bytes *arts, size_t narts, const json_t *run,
                     prc_err *err)
{
        int root = -1, adir = -1, rdir = -1;
        prc_buf b;
        char name[PRC_SHA256_HEX + 8];
        const char *id = json_string_value(json_object_get(run, "id"));
        bool ok = false;

        prc_buf_init(&b, (size_t)1 << 30);
        if (id == NULL || !prc_digest_valid(id)) {
                prc_err_set(err, PRC_E_INTERNAL, "run result has no content id");
                goto out;
        }
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot create state directory '%s'", dir);
                goto out;
        }
        root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (root < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open state directory '%s'", dir);
                goto out;
        }
        adir = open_dir_at(root, "artifacts", err);
        rdir = adir < 0 ? -1 : open_dir_at(root, "runs", err);
        if (adir < 0 || rdir < 0)
                goto out;
        for (size_t i = 0; i < narts; i++) {
                bool same = false;
                if (!prc_sha256_hex_once(arts[i].data, arts[i].len, name, err) ||
                    !same_bytes(adir, name, &arts[i], &same, err))
                        goto out;
                if (!same && !prc_atomic_write_at(adir, name, arts[i].data, arts[i].len, err))
                        goto out;
        }
#if defined(PRC_TESTING) && PRC_TESTING
        if (test_hook != NULL)
                test_hook();
#endif
        if (!prc_jcs_write(run, &b, err) || !prc_buf_putc(&b, '\n', err))
                goto out;
        snprintf(name, sizeof(name), "%s.json", id);
        ok = prc_atomic_write_at(rdir, name, b.data, b.len, err);
out:
        prc_buf_clear(&b);
        if (rdir >= 0)
                close(rdir);
        if (adir >= 0)
                close(adir);
        if (root >= 0)
                close(root);
        return ok;
}
