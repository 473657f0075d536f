/*
 * test_file.c - bounded whole-file reads: cap exactly reached and one past,
 * empty files, non-regular files, symlinks with NOFOLLOW, a buffer ceiling
 * below the cap, unchanged buffer on failure, full writes.
 */
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/file.h"

static void test_file__reads_whole_file_at_cap_exactly(void)
{
        const char *p = t_write(t_tmpdir(), "f", "0123456789", 10);
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 10);
        T_ASSERT(prc_file_read(p, 10, 0, &b, &e));
        T_NOERR(e);
        T_EQ_MEM(b.data, b.len, "0123456789", 10);
        T_EQ_INT(b.data[b.len], 0);
        prc_buf_clear(&b);
}

static void test_file__one_byte_past_cap_is_input_too_large(void)
{
        const char *p = t_write(t_tmpdir(), "f", "0123456789", 10);
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 100);
        T_ASSERT(!prc_file_read(p, 9, 0, &b, &e));
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        T_EQ_STR(e.file, p);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
}

static void test_file__empty_file(void)
{
        const char *p = t_write(t_tmpdir(), "empty", "", 0);
        prc_buf b;
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(&b, 0);
        T_ASSERT(prc_file_read(p, 0, 0, &b, &e));
        T_EQ_INT(b.len, 0);
        T_EQ_STR(prc_buf_cstr(&b), "");
        prc_buf_clear(&b);
}

static void test_file__missing_dir_and_fifo_are_io_errors(void)
{
        char fifo[4200];
        prc_buf b;
        prc_err e;

        prc_buf_init(&b, 100);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read("/nonexistent/prc/x", 100, 0, &b, &e));
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, ENOENT);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read(t_tmpdir(), 100, 0, &b, &e));
        T_ERR(e, PRC_E_IO);
        snprintf(fifo, sizeof(fifo), "%s/fifo", t_tmpdir());
        T_ASSERT(mkfifo(fifo, 0600) == 0);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read(fifo, 100, 0, &b, &e));      /* must not block */
        T_ERR(e, PRC_E_IO);
        prc_buf_clear(&b);
}

/* Issue 16: an operator input is named by its role in the message; its path stays in err.file. */
static void test_file__read_as_names_the_role_not_the_path(void)
{
        prc_buf b;
        prc_err e;
        const char *p = t_write(t_tmpdir(), "big", "0123456789", 10);

        prc_buf_init(&b, 100);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read_as("/nonexistent/prc-role-dir/x", "the ruleset", 100, 0, &b, &e));
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, ENOENT);
        T_ASSERT(strstr(e.msg, "the ruleset") != NULL && strstr(e.msg, "prc-role-dir") == NULL);
        T_EQ_STR(e.file, "/nonexistent/prc-role-dir/x");
        prc_err_init(&e);
        T_ASSERT(!prc_file_read_as(p, "the ruleset", 9, 0, &b, &e));
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        T_ASSERT(strstr(e.msg, "the ruleset") != NULL && strstr(e.msg, t_tmpdir()) == NULL);
        T_EQ_INT(b.len, 0);
        T_ASSERT(prc_file_read_as(p, "the ruleset", 10, 0, &b, &e));
        T_EQ_INT(b.len, 10);
        prc_buf_clear(&b);
}

static void test_file__nofollow_refuses_symlink(void)
{
        const char *target = t_write(t_tmpdir(), "real", "data", 4);
        char link[4200];
        prc_buf b;
        prc_err e;

        snprintf(link, sizeof(link), "%s/link", t_tmpdir());
        T_ASSERT(symlink(target, link) == 0);
        prc_buf_init(&b, 100);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read(link, 100, PRC_FILE_NOFOLLOW, &b, &e));
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, ELOOP);
        prc_err_init(&e);
        T_ASSERT(prc_file_read(link, 100, 0, &b, &e));       /* without the flag it follows */
        T_EQ_MEM(b.data, b.len, "data", 4);
        prc_buf_clear(&b);
}

static void test_file__buffer_ceiling_below_cap_is_buffer_limit(void)
{
        const char *small = t_write(t_tmpdir(), "s", "abc", 3);
        const char *big = t_write(t_tmpdir(), "b", "abcdefgh", 8);
        prc_buf b;
        prc_err e;

        prc_buf_init(&b, 5);
        prc_err_init(&e);
        T_ASSERT(prc_file_read(small, 1000, 0, &b, &e));     /* a small file fits a small buffer */
        T_EQ_INT(b.len, 3);
        prc_err_init(&e);
        T_ASSERT(!prc_file_read(big, 1000, 0, &b, &e));
        T_ERR(e, PRC_E_BUFFER_LIMIT);
        T_EQ_MEM(b.data, b.len, "abc", 3);      /* appended data rolled back */
        prc_buf_clear(&b);
}

static void test_file__fd_read_cap_counts_bytes_read_not_buffer(void)
{
        int fds[2];
        prc_buf b;
        prc_err e;

        T_ASSERT(pipe(fds) == 0);
        T_ASSERT(write(fds[1], "12345678", 8) == 8);
        close(fds[1]);
        prc_buf_init(&b, 100);
        prc_err_init(&e);
        T_ASSERT(prc_buf_puts(&b, "prefix:", &e));
        T_ASSERT(!prc_fd_read_all(fds[0], 7, &b, &e));  /* pipe: no size to check up front */
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        T_EQ_STR(prc_buf_cstr(&b), "prefix:");
        close(fds[0]);
        T_ASSERT(pipe(fds) == 0);
        T_ASSERT(write(fds[1], "12345678", 8) == 8);
        close(fds[1]);
        prc_err_init(&e);
        T_ASSERT(prc_fd_read_all(fds[0], 8, &b, &e));
        T_EQ_STR(prc_buf_cstr(&b), "prefix:12345678");
        close(fds[0]);
        prc_buf_clear(&b);
}

static void test_file__large_file_in_many_reads(void)
{
        size_t n = 300000;
        char *data = malloc(n), path[4200];
        prc_buf b;
        prc_err e;
        int fd;

        T_ASSERT(data != NULL);
        for (size_t i = 0; i < n; i++)
                data[i] = (char)('a' + i % 23);
        snprintf(path, sizeof(path), "%s/big", t_tmpdir());
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        T_ASSERT(fd >= 0);
        prc_err_init(&e);
        T_ASSERT(prc_fd_write_all(fd, data, n, &e));
        close(fd);
        prc_buf_init(&b, n);
        T_ASSERT(prc_file_read(path, n, 0, &b, &e));
        T_EQ_INT(b.len, n);
        T_EQ_INT(memcmp(b.data, data, n), 0);
        prc_buf_clear(&b);
        free(data);
}

static void test_file__write_to_closed_pipe_is_io_error(void)
{
        int fds[2];
        prc_err e;

        T_ASSERT(pipe(fds) == 0);
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN);
        prc_err_init(&e);
        T_ASSERT(!prc_fd_write_all(fds[1], "x", 1, &e));
        T_ERR(e, PRC_E_IO);
        T_EQ_INT(e.sys, EPIPE);
        close(fds[1]);
}

/* Each allocation of a growing read fails in turn: out-of-memory, the buffer as it was. */
/* A file written in pieces replaces name only at commit; an abort leaves name as it was and no temporary. */
static void test_file__replace_in_pieces_commit_and_abort(void)
{
        const char *dir = t_tmpdir();
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
        char path[4200];
        prc_buf b;
        prc_err e;
        struct stat st;

        T_ASSERT(dfd >= 0);
        prc_err_init(&e);
        prc_buf_init(&b, 100);
        snprintf(path, sizeof(path), "%s", t_write(dir, "out", "old", 3));
        fd = prc_fd_replace_begin(dfd, ".out.tmp", &e);
        T_ASSERT(fd >= 0);
        T_ASSERT(prc_fd_write_all(fd, "ne", 2, &e) && prc_fd_write_all(fd, "w", 1, &e));
        T_ASSERT(prc_file_read(path, 100, 0, &b, &e));
        T_EQ_MEM(b.data, b.len, "old", 3);                     /* not yet */
        T_ASSERT(prc_fd_replace_begin(dfd, ".out.tmp", &e) < 0);  /* exclusive */
        T_ERR(e, PRC_E_IO);
        prc_err_init(&e);
        T_ASSERT(prc_fd_replace_commit(dfd, fd, ".out.tmp", "out", true, &e));
        prc_buf_reset(&b);
        T_ASSERT(prc_file_read(path, 100, 0, &b, &e));
        T_EQ_MEM(b.data, b.len, "new", 3);
        T_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
        T_ASSERT(fstatat(dfd, ".out.tmp", &st, 0) != 0 && errno == ENOENT);
        fd = prc_fd_replace_begin(dfd, ".out.tmp", &e);
        T_ASSERT(fd >= 0 && prc_fd_write_all(fd, "partial", 7, &e));
        prc_fd_replace_abort(dfd, fd, ".out.tmp");
        prc_buf_reset(&b);
        T_ASSERT(prc_file_read(path, 100, 0, &b, &e));
        T_EQ_MEM(b.data, b.len, "new", 3);
        T_ASSERT(fstatat(dfd, ".out.tmp", &st, 0) != 0 && errno == ENOENT);
        prc_buf_clear(&b);
        close(dfd);
}

static void test_file__fault_sweep_over_read(void)
{
        size_t n = 200000;
        char *data = malloc(n);
        const char *path;
        unsigned long total;
        prc_buf b;
        prc_err e;

        T_ASSERT(data != NULL);
        memset(data, 'z', n);
        path = t_write(t_tmpdir(), "grow", data, n);
        free(data);
        prc_err_init(&e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_buf_puts(&b, "head", &e));
        prc_fault_arm(0, false);
        T_ASSERT(prc_file_read(path, n, 0, &b, &e));
        total = prc_fault_count();
        prc_buf_clear(&b);
        T_ASSERT(total >= 2);
        for (unsigned long nth = 1; nth <= total; nth++) {
                prc_err_init(&e);
                prc_buf_init(&b, 1 << 20);
                T_ASSERT(prc_buf_puts(&b, "head", &e));
                prc_fault_arm(nth, false);
                if (prc_file_read(path, n, 0, &b, &e))
                        t_fail(__FILE__, __LINE__, "allocation %lu of %lu failed silently", nth, total);
                prc_fault_arm(0, false);
                T_ERR(e, PRC_E_OUT_OF_MEMORY);
                T_EQ_STR(e.file, path);
                T_EQ_STR(prc_buf_cstr(&b), "head");
                prc_buf_clear(&b);
        }
}

static const prc_test tests[] = {
        T(test_file__reads_whole_file_at_cap_exactly),
        T(test_file__one_byte_past_cap_is_input_too_large),
        T(test_file__empty_file),
        T(test_file__missing_dir_and_fifo_are_io_errors),
        T(test_file__read_as_names_the_role_not_the_path),
        T(test_file__nofollow_refuses_symlink),
        T(test_file__buffer_ceiling_below_cap_is_buffer_limit),
        T(test_file__fd_read_cap_counts_bytes_read_not_buffer),
        T(test_file__large_file_in_many_reads),
        T(test_file__write_to_closed_pipe_is_io_error),
        T(test_file__replace_in_pieces_commit_and_abort),
        T(test_file__fault_sweep_over_read),
};
PRC_SUITE(file, tests)
