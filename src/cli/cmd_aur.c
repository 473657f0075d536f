/*
 * cmd_aur.c - `prc aur fetch NAME [--out FILE] [--aur-url BASE] [--cacert
 * FILE] [--timeout SECONDS] [--format text|json]` (issue 20): download an
 * AUR package's snapshot archive over HTTPS (net/aur.h) and store it.
 * Trust: the download is untrusted bytes: counted, capped, hashed and
 * written; never decompressed or walked here (`prc scan --target FILE` or
 * `prc scan --aur NAME` walk it in the content worker).
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "net/aur.h"

/* Parse the options every AUR fetch takes; returns 0, or the usage exit status (printed). */
int cli_aur_option(const char *what, int c, const char *arg, struct prc_aur_opts *o)
{
        char *end;
        unsigned long v;

        switch (c) {
        case 'u':
                o->base = arg;
                return 0;
        case 'C':
                if (access(arg, R_OK) != 0)
                        return cli_usage(what, "--cacert '%s' is not a readable file", arg);
                o->cacert = arg;
                return 0;
        case 'W':
                v = strtoul(arg, &end, 10);
                if (*arg == '\0' || *end != '\0' || v == 0 || v > 3600)
                        return cli_usage(what, "--timeout takes 1 to 3600 seconds");
                o->timeout_ms = (long)v * 1000;
                return 0;
        default:
                return cli_usage(what, "bad option");
        }
}

/* Write the bytes to path atomically: a private temporary beside it, then rename. */
static bool store(const char *path, const prc_buf *b, prc_err *err)
{
        size_t n = strlen(path) + sizeof(".prc-XXXXXX");
        char *tmp = malloc(n);
        int fd;
        bool ok;

        if (tmp == NULL)
                return prc_err_oom(err, "a path");
        snprintf(tmp, n, "%s.prc-XXXXXX", path);
        fd = mkstemp(tmp);
        if (fd < 0) {
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot create a file beside '%s'", path);
                free(tmp);
                return ok;
        }
        ok = prc_fd_write_all(fd, b->data ? b->data : (const uint8_t *)"", b->len, err) && fchmod(fd, 0644) == 0 &&
             fsync(fd) == 0;
        if (close(fd) != 0 && ok)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot write '%s'", path);
        if (ok && rename(tmp, path) != 0)
                ok = prc_err_sys(err, PRC_E_IO, errno, "cannot rename into '%s'", path);
        else if (!ok && !prc_err_is_set(err))
                prc_err_sys(err, PRC_E_IO, errno, "cannot write '%s'", path);
        if (!ok)
                unlink(tmp);
        free(tmp);
        return ok;
}

int cmd_aur_fetch(int argc, char **argv)
{
        static const struct option opts[] = {
                { "out", required_argument, NULL, 'o' },
                { "aur-url", required_argument, NULL, 'u' },
                { "cacert", required_argument, NULL, 'C' },
                { "timeout", required_argument, NULL, 'W' },
                { "format", required_argument, NULL, 'f' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text", *out = NULL, *name;
        char url[PRC_AUR_URL_MAX], outbuf[PRC_AUR_NAME_MAX + 16];
        prc_aur_opts ao = { 0 };
        prc_https_result res;
        prc_buf b;
        prc_err err;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                if (c == 'o') {
                        out = optarg;
                } else if (c == 'f') {
                        format = optarg;
                } else {
                        rc = cli_aur_option("aur fetch", c, optarg, &ao);
                        if (rc != 0)
                                return rc;
                }
        }
        if (!cli_format_ok("aur fetch", format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 1 != argc)
                return cli_usage("aur fetch", "expected exactly one package NAME");
        name = argv[optind];
        /* Checked before anything else happens: a bad name never becomes a request or a file name. */
        if (!prc_aur_name_check(name, &err)) {
                cli_print_err(&err);
                return PRC_EXIT_USAGE;
        }
        if (out == NULL) {
                snprintf(outbuf, sizeof(outbuf), "%s.tar.gz", name);
                out = outbuf;
        }
        prc_buf_init(&b, PRC_AUR_SNAPSHOT_MAX);
        rc = PRC_EXIT_EXEC;
        if (!prc_aur_fetch(name, &ao, &b, url, &res, &err) || !store(out, &b, &err)) {
                if (err.cls == PRC_E_AUR_URL_INVALID)
                        rc = PRC_EXIT_USAGE;
                cli_print_err(&err);
                goto out;
        }
        if (strcmp(format, "json") == 0) {
                json_t *j = json_pack("{s:s,s:s,s:s,s:I,s:s}", "package", name, "url", url, "sha256", res.sha256,
                                      "bytes", (json_int_t)b.len, "out", out);
                bool ok = j != NULL && cli_json_out(j, &err);
                json_decref(j);
                if (!ok) {
                        cli_print_err(&err);
                        goto out;
                }
        } else {
                printf("fetched %s from %s: %zu bytes, sha256 %s -> %s\n", name, url, b.len, res.sha256, out);
        }
        rc = PRC_EXIT_OK;
out:
        prc_buf_clear(&b);
        return rc;
}
