/*
 * cmd_setup.c - `prc setup native` (issue 17): the explicit operator action
 * that prepares what the bundled native adapters need, outside any scan.
 * Pulls each reviewed image by digest with the runtime client and checks
 * with `image inspect` that exactly that digest is present; downloads the
 * pinned Gitleaks ruleset over HTTPS and stores it in the data directory.
 * Library side: src/adapter/setup.h.  A scan never does any of this.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapter/native/gitleaks.h"
#include "adapter/oci.h"
#include "adapter/setup.h"
#include "base/buf.h"
#include "base/datadir.h"
#include "base/file.h"

extern char **environ;

#define WHAT "setup native"
#define INSPECT_FORMAT "{{json .RepoDigests}}"
/* `image inspect` of one image prints a short list; anything longer is not what we asked for. */
#define INSPECT_MAX (64u << 10)

/*
 * Run argv (the runtime client, by its resolved path) and wait for it.
 * to_stderr: its stdout goes to our stderr (pull progress is for the
 * operator, stdout is prc's report); else its stdout is captured into cap.
 * Returns the exit status, or -1 with err set.
 */
static int spawn_wait(char *const argv[], bool to_stderr, prc_buf *cap, prc_err *err)
{
        posix_spawn_file_actions_t fa;
        int pfd[2] = { -1, -1 }, st, rc;
        pid_t pid;

        if (!to_stderr && pipe2(pfd, O_CLOEXEC) != 0)
                return prc_err_sys(err, PRC_E_IO, errno, "pipe"), -1;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        if (to_stderr)
                posix_spawn_file_actions_adddup2(&fa, 2, 1);
        else
                posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
        rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (!to_stderr)
                close(pfd[1]);
        if (rc != 0) {
                if (!to_stderr)
                        close(pfd[0]);
                return prc_err_sys(err, PRC_E_OCI_RUNTIME_UNAVAILABLE, rc, "cannot start '%s'", argv[0]), -1;
        }
        if (!to_stderr) {
                prc_err rerr;
                prc_err_init(&rerr);
                if (!prc_fd_read_all(pfd[0], INSPECT_MAX, cap, &rerr))
                        *err = rerr;
                close(pfd[0]);
        }
        while (waitpid(pid, &st, 0) < 0)
                if (errno != EINTR)
                        return prc_err_sys(err, PRC_E_IO, errno, "waitpid"), -1;
        if (prc_err_is_set(err))
                return -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The exact commands, as printed by --dry-run and as run (argv[0] is the resolved client when run). */
static void pull_argv(const char *client, const char *ref, char **argv)
{
        argv[0] = (char *)client;
        argv[1] = (char *)"pull";
        argv[2] = (char *)ref;
        argv[3] = NULL;
}

static void inspect_argv(const char *client, const char *ref, char **argv)
{
        argv[0] = (char *)client;
        argv[1] = (char *)"image";
        argv[2] = (char *)"inspect";
        argv[3] = (char *)"--format";
        argv[4] = (char *)INSPECT_FORMAT;
        argv[5] = (char *)ref;
        argv[6] = NULL;
}

static bool pull_one(const prc_oci_runtime *rt, const char *ref, prc_err *err)
{
        char *argv[8];
        prc_buf out;
        int st;
        bool ok;

        pull_argv(rt->path, ref, argv);
        st = spawn_wait(argv, true, NULL, err);
        if (st < 0)
                return false;
        if (st != 0)
                return prc_err_set(err, PRC_E_SETUP_PULL_FAILED, "'%s pull %.300s' exited %d",
                                   prc_oci_kind_name(rt->kind), ref, st);
        prc_buf_init(&out, INSPECT_MAX);
        inspect_argv(rt->path, ref, argv);
        st = spawn_wait(argv, false, &out, err);
        if (st < 0) {
                ok = false;
        } else if (st != 0) {
                ok = prc_err_set(err, PRC_E_SETUP_IMAGE_MISMATCH, "after the pull, '%s image inspect %.300s' exited %d",
                                 prc_oci_kind_name(rt->kind), ref, st);
        } else {
                ok = prc_setup_inspect_ok(ref, (const char *)out.data, out.len, err);
        }
        prc_buf_clear(&out);
        return ok;
}

static int images(prc_oci_kind kind, bool dry, prc_err *first)
{
        const char *name = prc_oci_kind_name(kind);
        prc_setup_images im;
        prc_oci_runtime rt;
        prc_err err;
        size_t i;
        int failed = 0;

        prc_err_init(&err);
        if (!prc_setup_images_list(&im, &err)) {
                cli_print_err(&err);
                *first = err;
                return 1;
        }
        if (dry) {
                for (i = 0; i < im.n; i++) {
                        printf("  %s pull %s\n", name, im.ref[i]);
                        printf("  %s image inspect --format '%s' %s\n", name, INSPECT_FORMAT, im.ref[i]);
                }
                return 0;
        }
        if (!prc_oci_runtime_find(kind, &rt, &err)) {
                cli_print_err(&err);
                *first = err;
                return 1;
        }
        printf("prc setup native: pulling %zu pinned image%s with %s %s (%s)\n", im.n, im.n == 1 ? "" : "s", name,
               rt.version, rt.path);
        fflush(stdout);
        for (i = 0; i < im.n; i++) {
                prc_err_init(&err);
                if (pull_one(&rt, im.ref[i], &err)) {
                        printf("  present  %s (image inspect shows exactly this digest)\n", im.ref[i]);
                } else {
                        printf("  FAILED   %s: %s\n", im.ref[i], prc_err_name(err.cls));
                        cli_print_err(&err);
                        if (!prc_err_is_set(first))
                                *first = err;
                        failed++;
                }
                fflush(stdout);
        }
        return failed;
}

static int ruleset(const char *url, const prc_https_opts *o, bool dry, prc_err *first)
{
        char path[4096];
        prc_err err;

        prc_err_init(&err);
        if (dry) {
                if (!prc_datadir_file(PRC_GITLEAKS_RULESET_FILE, path, sizeof(path), &err)) {
                        cli_print_err(&err);
                        *first = err;
                        return 1;
                }
                printf("  GET %s (HTTPS only, TLS verified; kept only if it is %u bytes with sha256 %s)\n", url,
                       PRC_GITLEAKS_RULESET_SIZE, PRC_GITLEAKS_RULESET_SHA256);
                printf("  store %s (mode 0600, atomically; prc's gzip form: %u bytes, sha256 %s)\n", path,
                       PRC_GITLEAKS_RULESET_GZ_SIZE, PRC_GITLEAKS_RULESET_GZ_SHA256);
                return 0;
        }
        printf("prc setup native: fetching the Gitleaks v8.30.0 ruleset from %s\n", url);
        fflush(stdout);
        if (!prc_setup_ruleset(url, o, path, sizeof(path), &err)) {
                printf("  FAILED   %s (nothing stored)\n", prc_err_name(err.cls));
                cli_print_err(&err);
                if (!prc_err_is_set(first))
                        *first = err;
                return 1;
        }
        printf("  verified %u bytes, sha256 %s (the pinned upstream file)\n", PRC_GITLEAKS_RULESET_SIZE,
               PRC_GITLEAKS_RULESET_SHA256);
        printf("  stored   %s (%u bytes, sha256 %s)\n", path, PRC_GITLEAKS_RULESET_GZ_SIZE,
               PRC_GITLEAKS_RULESET_GZ_SHA256);
        if (geteuid() == 0)
                printf("  note: stored for root; prc verify never runs as root, so run prc setup native as the user "
                       "who runs prc verify\n");
        return 0;
}

int cmd_setup_native(int argc, char **argv)
{
        static const struct option opts[] = {
                { "runtime", required_argument, NULL, 'r' },
                { "dry-run", no_argument, NULL, 'n' },
                { "only", required_argument, NULL, 'o' },
                { "ruleset-url", required_argument, NULL, 'u' },
                { "cacert", required_argument, NULL, 'c' },
                { "timeout", required_argument, NULL, 't' },
                { NULL, 0, NULL, 0 },
        };
        const char *rtname = "docker", *only = NULL, *url = PRC_GITLEAKS_RULESET_URL;
        prc_https_opts ho = { .max_redirects = 3, .user_agent = "prc/" PRC_VERSION };
        bool dry = false, do_images, do_rules;
        prc_oci_kind kind;
        prc_err err, first;
        int c, failed = 0;

        prc_err_init(&err);
        prc_err_init(&first);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'r': rtname = optarg; break;
                case 'n': dry = true; break;
                case 'o': only = optarg; break;
                case 'u': url = optarg; break;
                case 'c': ho.cacert = optarg; break;
                case 't': {
                        char *end;
                        errno = 0;
                        long s = strtol(optarg, &end, 10);
                        if (errno != 0 || end == optarg || *end != '\0' || s < 1 || s > 3600)
                                return cli_usage(WHAT, "--timeout wants whole seconds from 1 to 3600");
                        ho.timeout_ms = s * 1000;
                        if (ho.timeout_ms < 10000)
                                ho.connect_timeout_ms = ho.timeout_ms;
                        break;
                }
                default: return cli_usage(WHAT, "bad option");
                }
        }
        if (optind != argc)
                return cli_usage(WHAT, "unexpected argument '%s'", argv[optind]);
        if (!prc_oci_kind_parse(rtname, &kind, &err))
                return cli_usage(WHAT, "--runtime must be docker or podman");
        if (only != NULL && strcmp(only, "images") != 0 && strcmp(only, "ruleset") != 0)
                return cli_usage(WHAT, "--only must be images or ruleset");
        if (ho.cacert != NULL && access(ho.cacert, R_OK) != 0)
                return cli_usage(WHAT, "--cacert '%s' is not a readable file", ho.cacert);
        do_images = only == NULL || strcmp(only, "images") == 0;
        do_rules = only == NULL || strcmp(only, "ruleset") == 0;

        if (dry)
                printf("prc setup native --dry-run: would run, in this order (nothing is done):\n");
        if (do_images)
                failed += images(kind, dry, &first);
        if (do_rules)
                failed += ruleset(url, &ho, dry, &first);
        if (dry)
                return failed == 0 ? PRC_EXIT_OK : PRC_EXIT_EXEC;
        if (failed != 0) {
                fprintf(stderr, "prc setup native: %d step%s failed (first: %s); each is named above, nothing partial "
                        "was stored\n", failed,
                        failed == 1 ? "" : "s", prc_err_name(first.cls));
                return first.cls == PRC_E_USAGE ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
        }
        printf("prc setup native: done.  This now works without further flags:\n  prc verify DIR\n");
        return PRC_EXIT_OK;
}
