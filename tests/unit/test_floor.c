/*
 * test_floor.c - the sandbox floor applied in forked children: the
 * allowlist table, each layer's effect, and refusal when a layer fails.
 * NOSAN: seccomp and RLIMIT_AS cannot run under ASan.
 */
#include "t.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <expat.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "content/floor.h"

static void test_floor__allowlist_is_sorted_and_resolvable(void)
{
        T_ASSERT(prc_floor_nallow > 0);
        for (size_t i = 0; i < prc_floor_nallow; i++) {
                const prc_syscall_allow *a = &prc_floor_allow[i];
                T_ASSERT(seccomp_syscall_resolve_name(a->name) != __NR_SCMP_ERROR);
                if (i > 0 && strcmp(prc_floor_allow[i - 1].name, a->name) >= 0)
                        t_fail(__FILE__, __LINE__, "'%s' is out of order after '%s'", a->name,
                               prc_floor_allow[i - 1].name);
                /* An entry with an argument rule is odd by definition: it must say why. */
                if (a->arg_rule != PRC_SC_PLAIN)
                        T_ASSERT(a->why != NULL && a->why[0] != 0);
        }
}

static void test_floor__allowlist_has_no_escape_hatch(void)
{
        static const char *const never[] = { "socket", "execve", "execveat", "fork", "vfork", "clone", "clone3",
                                             "open", "openat", "openat2", "ptrace", "bpf", "kill", "connect",
                                             "setrlimit", "unshare", "setns", "mount" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(never); i++)
                for (size_t j = 0; j < prc_floor_nallow; j++)
                        if (strcmp(never[i], prc_floor_allow[j].name) == 0)
                                t_fail(__FILE__, __LINE__, "'%s' is on the allowlist", never[i]);
}

/* Fork, apply the floor with extra syscalls, run body; the child's exit status is the result. */
static int in_floored_child(const char *const *extra, size_t nextra, int (*body)(void))
{
        prc_floor_cfg cfg;
        pid_t pid;
        int status;

        prc_floor_cfg_default(&cfg);
        cfg.extra_syscalls = extra;
        cfg.nextra = nextra;
        pid = fork();
        T_ASSERT(pid >= 0);
        if (pid == 0) {
                prc_err err;
                prc_err_init(&err);
                if (!prc_floor_apply(&cfg, NULL, &err))
                        _exit(100);
                _exit(body());
        }
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        if (WIFSIGNALED(status))
                return -WTERMSIG(status);
        return WEXITSTATUS(status);
}

static int call_getppid(void)
{
        (void)syscall(SYS_getppid);
        return 0;
}

static void test_floor__denied_call_kills_a_forked_child(void)
{
        T_EQ_INT(in_floored_child(NULL, 0, call_getppid), -SIGSYS);
}

static int isatty_only(void)
{
        int n = 0;

        /* isatty() is allowed and answers "no" ... */
        if (isatty(2) || errno != ENOTTY)
                return 1;
        /* ... any other ioctl request kills. */
        (void)ioctl(0, FIONREAD, &n);
        return 2;
}

static void test_floor__ioctl_is_allowed_for_isatty_only(void)
{
        T_EQ_INT(in_floored_child(NULL, 0, isatty_only), -SIGSYS);
}

/* A tar.gz built before the floor, read after it: libarchive must work from memory alone. */
static char tgz[4096];
static size_t tgz_len;

static int parser_libraries(void)
{
        static const char xml[] = "<a b='1'><c>text</c></a>";
        XML_Parser x = XML_ParserCreate(NULL);
        struct archive *a;
        struct archive_entry *en;
        char data[16];
        int ok;

        /* expat salts its hash with getrandom (allowed) instead of opening /dev/urandom. */
        if (x == NULL)
                return 1;
        ok = XML_Parse(x, xml, (int)strlen(xml), 1) == XML_STATUS_OK;
        XML_ParserFree(x);
        if (!ok)
                return 2;
        a = archive_read_new();
        if (a == NULL || archive_read_support_format_tar(a) != ARCHIVE_OK ||
            archive_read_support_filter_gzip(a) != ARCHIVE_OK || archive_read_open_memory(a, tgz, tgz_len) != ARCHIVE_OK)
                return 3;
        if (archive_read_next_header(a, &en) != ARCHIVE_OK || strcmp(archive_entry_pathname(en), "a.txt") != 0)
                return 4;
        if (archive_read_data(a, data, sizeof(data)) != 5 || memcmp(data, "hello", 5) != 0)
                return 5;
        if (archive_read_next_header(a, &en) != ARCHIVE_EOF)
                return 6;
        archive_read_free(a);
        return 0;
}

static void test_floor__parser_libraries_work_under_the_floor(void)
{
        struct archive *w = archive_write_new();
        struct archive_entry *en = archive_entry_new();

        T_ASSERT(w != NULL && en != NULL);
        T_ASSERT(archive_write_set_format_ustar(w) == ARCHIVE_OK);
        T_ASSERT(archive_write_add_filter_gzip(w) == ARCHIVE_OK);
        T_ASSERT(archive_write_open_memory(w, tgz, sizeof(tgz), &tgz_len) == ARCHIVE_OK);
        archive_entry_set_pathname(en, "a.txt");
        archive_entry_set_size(en, 5);
        archive_entry_set_filetype(en, AE_IFREG);
        archive_entry_set_perm(en, 0644);
        T_ASSERT(archive_write_header(w, en) == ARCHIVE_OK);
        T_ASSERT(archive_write_data(w, "hello", 5) == 5);
        T_ASSERT(archive_write_close(w) == ARCHIVE_OK);
        archive_entry_free(en);
        archive_write_free(w);
        T_EQ_INT(in_floored_child(NULL, 0, parser_libraries), 0);
}

static int read_state(void)
{
        struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
        struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
        struct rlimit rl;
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(53) };
        int fd;

        if (syscall(SYS_getuid) != 65534 || syscall(SYS_getgid) != 65534)
                return 1;
        if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
                return 2;
        if (syscall(SYS_capget, &hdr, data) != 0)
                return 3;
        for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
                if (data[i].effective || data[i].permitted || data[i].inheritable)
                        return 4;
        if (prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0 ||
            prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_NET_RAW, 0, 0) != 0)
                return 5;
        if (syscall(SYS_getrlimit, RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur != 0 || rl.rlim_max != 0)
                return 6;
        if (syscall(SYS_getrlimit, RLIMIT_NPROC, &rl) != 0 || rl.rlim_max != 0)
                return 7;
        if (syscall(SYS_getrlimit, RLIMIT_CORE, &rl) != 0 || rl.rlim_max != 0)
                return 8;
        if (syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max != PRC_FLOOR_NOFILE)
                return 9;
        if (syscall(SYS_getrlimit, RLIMIT_AS, &rl) != 0 || rl.rlim_max != (1ULL << 30))
                return 10;
        if (syscall(SYS_getrlimit, RLIMIT_CPU, &rl) != 0 || rl.rlim_cur != 60 || rl.rlim_max != 61)
                return 11;
        /* UDP is outside Landlock's network rights: only the empty netns stops it (its loopback is down: no route). */
        inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
        fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return 12;
        if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno != ENETUNREACH)
                return 13;
        return 0;
}

static void test_floor__every_layer_reads_back_in_the_child(void)
{
        static const char *const extra[] = { "getuid", "getgid", "prctl", "capget", "getrlimit", "socket",
                                             "connect" };
        T_EQ_INT(in_floored_child(extra, PRC_ARRAY_LEN(extra), read_state), 0);
}

static void test_floor__probe_reports_every_layer_applied(void)
{
        prc_floor_cfg cfg;
        prc_floor_report rep;
        prc_err err;

        prc_err_init(&err);
        prc_floor_cfg_default(&cfg);
        T_ASSERT(prc_floor_probe(&cfg, &rep, &err));
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                if (rep.state[i] != PRC_LAYER_APPLIED)
                        t_fail(__FILE__, __LINE__, "layer %s: %s", prc_floor_layer_name((prc_floor_layer)i),
                               rep.detail[i]);
        T_ASSERT(rep.landlock_abi >= PRC_LANDLOCK_ABI_MIN);
        T_EQ_INT(rep.nsyscalls, prc_floor_nallow);
        /* The probe changed nothing here. */
        T_EQ_INT(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 0);
}

static void test_floor__a_failed_layer_stops_the_floor_and_is_named(void)
{
        prc_floor_cfg cfg;
        prc_floor_report rep;
        prc_err err;

        prc_err_init(&err);
        prc_floor_cfg_default(&cfg);
        cfg.landlock_abi_min = 99;
        T_ASSERT(prc_floor_probe(&cfg, &rep, &err));
        T_EQ_INT(rep.state[PRC_LAYER_USERNS], PRC_LAYER_APPLIED);
        T_EQ_INT(rep.state[PRC_LAYER_CAPS], PRC_LAYER_APPLIED);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_FAILED);
        T_EQ_INT(rep.state[PRC_LAYER_SECCOMP], PRC_LAYER_NOT_TRIED);
        T_EQ_INT(rep.state[PRC_LAYER_RLIMITS], PRC_LAYER_NOT_TRIED);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "below the required 99") != NULL);
}

static void test_floor__apply_fails_with_floor_unavailable(void)
{
        pid_t pid = fork();
        int status;

        T_ASSERT(pid >= 0);
        if (pid == 0) {
                prc_floor_cfg cfg;
                prc_err err;
                prc_err_init(&err);
                prc_floor_cfg_default(&cfg);
                cfg.landlock_abi_min = 99;
                if (prc_floor_apply(&cfg, NULL, &err))
                        _exit(1);
                if (err.cls != PRC_E_FLOOR_UNAVAILABLE || strncmp(err.msg, "landlock: ", 10) != 0)
                        _exit(2);
                _exit(0);
        }
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        T_ASSERT(WIFEXITED(status));
        T_EQ_INT(WEXITSTATUS(status), 0);
}

static const prc_test tests[] = {
        T(test_floor__allowlist_is_sorted_and_resolvable),
        T(test_floor__allowlist_has_no_escape_hatch),
        T(test_floor__denied_call_kills_a_forked_child),
        T(test_floor__ioctl_is_allowed_for_isatty_only),
        T(test_floor__every_layer_reads_back_in_the_child),
        T(test_floor__parser_libraries_work_under_the_floor),
        T(test_floor__probe_reports_every_layer_applied),
        T(test_floor__a_failed_layer_stops_the_floor_and_is_named),
        T(test_floor__apply_fails_with_floor_unavailable),
};
PRC_SUITE_NOSAN(floor, tests)
