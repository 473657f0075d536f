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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
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


/* Issue 16: sysinfo is off the allowlist; glibc's qsort, its only caller, asked before the filter went on. */
static int call_sysinfo(void)
{
        struct sysinfo si;

        (void)syscall(SYS_sysinfo, &si);
        return 0;
}

static void test_floor__sysinfo_kills_a_forked_child(void)
{
        T_EQ_INT(in_floored_child(NULL, 0, call_sysinfo), -SIGSYS);
}

static int cmp_u32(const void *a, const void *b)
{
        uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
        return (x > y) - (x < y);
}

static int sort_large(void)
{
        enum { N = 100000 };
        static uint32_t v[N];

        /* 400 KB: glibc's merge sort sizes its buffer against physical memory for anything over 1 KiB. */
        for (uint32_t i = 0; i < N; i++)
                v[i] = (i * 2654435761u) ^ 0x5bd1e995u;
        qsort(v, N, sizeof(v[0]), cmp_u32);
        for (size_t i = 1; i < N; i++)
                if (v[i - 1] > v[i])
                        return 1;
        return 0;
}

static void test_floor__a_large_qsort_works_under_the_floor(void)
{
        T_EQ_INT(in_floored_child(NULL, 0, sort_large), 0);
}

/*
 * Issue 16: read and write only on the worker's own pipes (fds 3 and 4).
 * The child writes "ok" to its reply pipe on fd 4, then tries fd 2 (which
 * is /dev/null in a worker): that write must kill it.
 */
static int pinned_fd_child(int which)
{
        int p[2], status;
        char buf[8] = { 0 };
        pid_t pid;

        T_ASSERT(pipe(p) == 0);
        pid = fork();
        T_ASSERT(pid >= 0);
        if (pid == 0) {
                prc_floor_cfg cfg;
                prc_err err;
                char c;

                prc_err_init(&err);
                prc_floor_cfg_default(&cfg);
                close(p[0]);
                if (dup2(p[1], PRC_FLOOR_FD_OUT) != PRC_FLOOR_FD_OUT || !prc_floor_apply(&cfg, NULL, &err))
                        _exit(100);
                if (write(PRC_FLOOR_FD_OUT, "ok", 2) != 2)
                        _exit(101);
                if (which == 0)
                        (void)write(2, "x", 1);
                else if (which == 1)
                        (void)read(0, &c, 1);
                else
                        (void)write(PRC_FLOOR_FD_IN, "x", 1);   /* the request pipe is read-only for us */
                _exit(0);
        }
        close(p[1]);
        T_EQ_INT(read(p[0], buf, sizeof(buf)), 2);
        T_EQ_STR(buf, "ok");
        close(p[0]);
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        if (WIFSIGNALED(status))
                return -WTERMSIG(status);
        return WEXITSTATUS(status);
}

static void test_floor__read_and_write_are_pinned_to_the_worker_pipes(void)
{
        T_EQ_INT(pinned_fd_child(0), -SIGSYS);  /* write(2) */
        T_EQ_INT(pinned_fd_child(1), -SIGSYS);  /* read(0) */
        T_EQ_INT(pinned_fd_child(2), -SIGSYS);  /* write(3) */
}

/* Issue 23: each ABI's rights, and a newer kernel gets every right prc knows. */
static void test_floor__landlock_rights_follow_the_abi(void)
{
        static const struct {
                int abi, used, fs, net, scoped;
        } want[] = {
                { 1, 1, 13, 0, 0 }, { 2, 2, 14, 0, 0 }, { 3, 3, 15, 0, 0 }, { 4, 4, 15, 2, 0 },
                { 5, 5, 16, 2, 0 }, { 6, 6, 16, 2, 2 }, { 7, 6, 16, 2, 2 }, { 9, 6, 16, 2, 2 },
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(want); i++) {
                uint64_t fs, net, scoped;
                T_EQ_INT(prc_floor_landlock_rights(want[i].abi, &fs, &net, &scoped), want[i].used);
                T_EQ_INT(__builtin_popcountll(fs), want[i].fs);
                T_EQ_INT(__builtin_popcountll(net), want[i].net);
                T_EQ_INT(__builtin_popcountll(scoped), want[i].scoped);
        }
}

static void probe_as(prc_floor_level level, int fake_abi, bool no_userns, prc_floor_report *rep)
{
        prc_floor_cfg cfg;
        prc_err err;

        prc_err_init(&err);
        prc_floor_cfg_default(&cfg);
        cfg.level = level;
        cfg.test_landlock_abi = fake_abi;
        cfg.test_userns_denied = no_userns;
        T_ASSERT(prc_floor_probe(&cfg, rep, &err));
        T_EQ_INT(rep->level, level);
}

static void expect_all_but_landlock_applied(const prc_floor_report *rep)
{
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                if (i != PRC_LAYER_LANDLOCK && rep->state[i] != PRC_LAYER_APPLIED)
                        t_fail(__FILE__, __LINE__, "layer %s: %s", prc_floor_layer_name((prc_floor_layer)i),
                               rep->detail[i]);
        T_EQ_INT(rep->nsyscalls, prc_floor_nallow);
}

static void test_floor__strict_refuses_an_older_abi_and_names_the_option(void)
{
        prc_floor_report rep;

        probe_as(PRC_FLOOR_STRICT, 4, false, &rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_FAILED);
        T_EQ_INT(rep.state[PRC_LAYER_SECCOMP], PRC_LAYER_NOT_TRIED);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "kernel ABI 4 is below the required 6") != NULL);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "--content-floor landlock") != NULL);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "scopes") != NULL);
}

static void test_floor__landlock_level_serves_an_older_abi_with_its_rights(void)
{
        prc_floor_report rep;
        json_t *r;
        char *s;

        probe_as(PRC_FLOOR_LANDLOCK, 4, false, &rep);
        expect_all_but_landlock_applied(&rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_APPLIED);
        T_EQ_INT(rep.landlock_abi, 4);
        T_EQ_INT(rep.landlock_abi_used, 4);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "rights of ABI 4 handled (15 filesystem, 2 network)") != NULL);
        r = prc_floor_record(&rep);
        s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
        T_EQ_STR(s, "{\"landlock_abi\":4,\"layers\":{\"capabilities\":\"applied\",\"landlock\":\"applied\","
                    "\"netns\":\"applied\",\"no-new-privs\":\"applied\",\"rlimits\":\"applied\",\"seccomp\":\"applied\","
                    "\"userns\":\"applied\"},\"level\":\"landlock\"}");
        free(s);
        json_decref(r);
}

static void test_floor__without_landlock_only_the_seccomp_level_serves(void)
{
        prc_floor_report rep;
        json_t *r;

        probe_as(PRC_FLOOR_STRICT, -1, false, &rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_FAILED);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "--content-floor seccomp") != NULL);
        probe_as(PRC_FLOOR_LANDLOCK, -1, false, &rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_FAILED);
        T_EQ_INT(rep.state[PRC_LAYER_SECCOMP], PRC_LAYER_NOT_TRIED);
        probe_as(PRC_FLOOR_SECCOMP, -1, false, &rep);
        expect_all_but_landlock_applied(&rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_SKIPPED);
        T_EQ_INT(rep.landlock_abi_used, 0);
        r = prc_floor_record(&rep);
        T_EQ_STR(json_string_value(json_object_get(r, "level")), "seccomp");
        T_EQ_STR(json_string_value(json_object_get(json_object_get(r, "layers"), "landlock")), "skipped");
        T_EQ_INT(json_integer_value(json_object_get(r, "landlock_abi")), 0);
        json_decref(r);
}

/* The seccomp level skips Landlock even where the kernel has it: the choice is the user's, and recorded. */
static void test_floor__seccomp_level_skips_landlock_on_a_full_kernel(void)
{
        prc_floor_report rep;

        probe_as(PRC_FLOOR_SECCOMP, 0, false, &rep);
        expect_all_but_landlock_applied(&rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_SKIPPED);
        T_ASSERT(rep.landlock_abi >= PRC_LANDLOCK_ABI_MIN);
}

static void test_floor__a_newer_abi_gets_every_right_prc_knows_and_says_so(void)
{
        prc_floor_report rep;

        probe_as(PRC_FLOOR_STRICT, 9, false, &rep);
        expect_all_but_landlock_applied(&rep);
        T_EQ_INT(rep.state[PRC_LAYER_LANDLOCK], PRC_LAYER_APPLIED);
        T_EQ_INT(rep.landlock_abi, 9);
        T_EQ_INT(rep.landlock_abi_used, PRC_LANDLOCK_ABI_RIGHTS);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "kernel ABI 9, newer than prc knows (7)") != NULL);
        T_ASSERT(strstr(rep.detail[PRC_LAYER_LANDLOCK], "rights of ABI 6 handled") != NULL);
}

/* Every level needs the user namespace: a host without it is refused whatever the user chose. */
static void test_floor__no_user_namespace_is_refused_at_every_level(void)
{
        for (int l = 0; l < PRC_FLOOR__COUNT; l++) {
                prc_floor_report rep;
                probe_as((prc_floor_level)l, 0, true, &rep);
                T_EQ_INT(rep.state[PRC_LAYER_USERNS], PRC_LAYER_FAILED);
                T_EQ_INT(rep.state[PRC_LAYER_SECCOMP], PRC_LAYER_NOT_TRIED);
                T_ASSERT(strstr(rep.detail[PRC_LAYER_USERNS], "unshare(CLONE_NEWUSER)") != NULL);
        }
}

static void put_file(const char *dir, const char *rel, const char *text)
{
        char p[4200];
        FILE *f;

        snprintf(p, sizeof(p), "%s/%s", dir, rel);
        /* Each directory on the way (they may exist already). */
        for (char *slash = strchr(p + strlen(t_tmpdir()) + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
                *slash = 0;
                T_ASSERT(mkdir(p, 0755) == 0 || errno == EEXIST);
                *slash = '/';
        }
        f = fopen(p, "w");
        T_ASSERT(f != NULL);
        fputs(text, f);
        fclose(f);
}

static void test_floor__userns_hint_names_the_sysctl_and_the_profile(void)
{
        char proc[4200], hint[256];

        snprintf(proc, sizeof(proc), "%s/proc-apparmor", t_tmpdir());
        put_file(proc, "sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
        put_file(proc, "self/attr/apparmor/current", "unconfined\n");
        prc_floor_userns_hint(proc, hint, sizeof(hint));
        T_ASSERT(strstr(hint, "kernel.apparmor_restrict_unprivileged_userns=1") != NULL);
        T_ASSERT(strstr(hint, "profile 'unconfined'") != NULL);
        T_ASSERT(strstr(hint, "contrib/apparmor/prc") != NULL);

        snprintf(proc, sizeof(proc), "%s/proc-debian", t_tmpdir());
        put_file(proc, "sys/kernel/apparmor_restrict_unprivileged_userns", "0\n");
        put_file(proc, "sys/kernel/unprivileged_userns_clone", "0\n");
        prc_floor_userns_hint(proc, hint, sizeof(hint));
        T_EQ_STR(hint, "sysctl kernel.unprivileged_userns_clone=0 forbids unprivileged user namespaces");

        snprintf(proc, sizeof(proc), "%s/proc-max", t_tmpdir());
        put_file(proc, "sys/user/max_user_namespaces", "0\n");
        prc_floor_userns_hint(proc, hint, sizeof(hint));
        T_EQ_STR(hint, "sysctl user.max_user_namespaces=0 allows no user namespace");

        snprintf(proc, sizeof(proc), "%s/proc-open", t_tmpdir());
        put_file(proc, "sys/user/max_user_namespaces", "63000\n");
        prc_floor_userns_hint(proc, hint, sizeof(hint));
        T_EQ_STR(hint, "");
}

static void test_floor__levels_parse_and_records_differ(void)
{
        prc_floor_level l = PRC_FLOOR_STRICT;
        prc_floor_report a, b;
        json_t *ra, *rb;

        T_ASSERT(prc_floor_level_parse("seccomp", &l) && l == PRC_FLOOR_SECCOMP);
        T_ASSERT(prc_floor_level_parse("landlock", &l) && l == PRC_FLOOR_LANDLOCK);
        T_ASSERT(prc_floor_level_parse("strict", &l) && l == PRC_FLOOR_STRICT);
        T_ASSERT(!prc_floor_level_parse("none", &l) && l == PRC_FLOOR_STRICT);
        T_ASSERT(!prc_floor_level_parse("Strict", &l));
        probe_as(PRC_FLOOR_STRICT, 0, false, &a);
        probe_as(PRC_FLOOR_LANDLOCK, 0, false, &b);
        ra = prc_floor_record(&a);
        rb = prc_floor_record(&b);
        /* The same protection on this kernel, but the level chosen is part of the record. */
        T_ASSERT(!json_equal(ra, rb));
        T_EQ_INT(json_integer_value(json_object_get(ra, "landlock_abi")), PRC_LANDLOCK_ABI_RIGHTS);
        json_decref(ra);
        json_decref(rb);
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
        T(test_floor__sysinfo_kills_a_forked_child),
        T(test_floor__a_large_qsort_works_under_the_floor),
        T(test_floor__read_and_write_are_pinned_to_the_worker_pipes),
        T(test_floor__landlock_rights_follow_the_abi),
        T(test_floor__strict_refuses_an_older_abi_and_names_the_option),
        T(test_floor__landlock_level_serves_an_older_abi_with_its_rights),
        T(test_floor__without_landlock_only_the_seccomp_level_serves),
        T(test_floor__seccomp_level_skips_landlock_on_a_full_kernel),
        T(test_floor__a_newer_abi_gets_every_right_prc_knows_and_says_so),
        T(test_floor__no_user_namespace_is_refused_at_every_level),
        T(test_floor__userns_hint_names_the_sysctl_and_the_profile),
        T(test_floor__levels_parse_and_records_differ),
};
PRC_SUITE_NOSAN(floor, tests)
