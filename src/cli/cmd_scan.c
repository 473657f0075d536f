/*
 * cmd_scan.c - `prc scan`: prc's main job.
 * Trust: the target is hostile; the catalog root is operator input.  Target
 * bytes are parsed only in the content worker (through scan_parse below).
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/client.h"
#include "engine/sarif.h"
#include "engine/scan.h"
#include "engine/state.h"

struct parse_ctx {
        prc_client *client;
};

static bool scan_parse(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, prc_err *err)
{
        struct parse_ctx *pc = ctx;
        json_t *doc = NULL;
        uint16_t op = PRC_OP_PARSE, fmt = 0;
        bool ok;

        if (strcmp(format, "shell") == 0) {
                const char *base = strrchr(path, '/');
                op = PRC_OP_TOKENIZE;
                fmt = strcmp(base ? base + 1 : path, ".SRCINFO") == 0 ? PRC_TOK_SRCINFO : PRC_TOK_PKGBUILD;
        }
        else if (strcmp(format, "archive") == 0)
                op = PRC_OP_WALK;
        else
                fmt = prc_format_by_name(format);
        /* An operation the worker does not serve comes back as a named refusal: a gap, never a pass. */
        ok = prc_client_call(pc->client, op, fmt, 0, path, NULL, 0, p, n, true, &doc, err);

        json_decref(doc);
        return ok;
}

static bool tty_colors;

static void on_progress(const char *stage)
{
        if (isatty(STDERR_FILENO))
                fprintf(stderr, "\r\033[K%s...", stage);
}

static void progress_done(void)
{
        if (isatty(STDERR_FILENO))
                fprintf(stderr, "\r\033[K");
}

static const char *color(const char *state)
{
        if (!tty_colors)
                return "";
        if (strcmp(state, "Pass") == 0)
                return "\033[32m";
        if (strcmp(state, "Fail") == 0)
                return "\033[31m";
        if (strcmp(state, "Blocked") == 0)
                return "\033[35m";
        return "\033[33m";
}

static void print_text(const json_t *r)
{
        const json_t *rows = json_object_get(r, "assertions"), *row, *sum = json_object_get(r, "summary");
        const json_t *gaps = json_object_get(r, "coverage_gaps"), *g;
        size_t i;

        tty_colors = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
        printf("prc scan: profile %s, mode %s, catalog %s r%lld\n",
               json_string_value(json_object_get(r, "profile")), json_string_value(json_object_get(r, "mode")),
               json_string_value(json_object_get(json_object_get(r, "catalog"), "id")),
               (long long)json_integer_value(json_object_get(json_object_get(r, "catalog"), "revision")));
        printf("target inventory %s (%lld files)\n\n",
               json_string_value(json_object_get(json_object_get(r, "target"), "inventory_digest")),
               (long long)json_integer_value(json_object_get(json_object_get(r, "target"), "files")));
        printf("%-16s %-12s %s\n", "ASSERTION", "STATE", "REASON");
        json_array_foreach(rows, i, row) {
                const char *st = json_string_value(json_object_get(row, "state"));
                printf("%-16s %s%-12s%s %s\n", json_string_value(json_object_get(row, "id")), color(st), st,
                       tty_colors ? "\033[0m" : "", json_string_value(json_object_get(row, "reason")));
        }
        if (json_array_size(gaps) > 0) {
                printf("\ncoverage gaps:\n");
                json_array_foreach(gaps, i, g)
                        printf("  %s: %s (%s)\n", json_string_value(json_object_get(g, "path")),
                               json_string_value(json_object_get(g, "class")),
                               json_string_value(json_object_get(g, "reason")));
        }
        printf("\n%lld assertions: %lld pass, %lld fail, %lld unknown, %lld conflicting, %lld blocked\n",
               (long long)json_integer_value(json_object_get(sum, "total")),
               (long long)json_integer_value(json_object_get(sum, "pass")),
               (long long)json_integer_value(json_object_get(sum, "fail")),
               (long long)json_integer_value(json_object_get(sum, "unknown")),
               (long long)json_integer_value(json_object_get(sum, "conflicting")),
               (long long)json_integer_value(json_object_get(sum, "blocked")));
        printf("result %s\n", json_string_value(json_object_get(r, "id")));
}

/* Default catalog: PRC_CATALOG_ROOT, else the bundled catalog/ beside the binary's build dir. */
static const char *default_catalog(char *buf, size_t cap)
{
        const char *env = getenv("PRC_CATALOG_ROOT");
        char exe[4096];
        ssize_t n;

        if (env != NULL)
                return env;
        n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        if (n > 0) {
                char *slash;
                exe[n] = '\0';
                /* build/prc or build/<variant>/prc -> repository root */
                for (int up = 0; up < 3; up++) {
                        slash = strrchr(exe, '/');
                        if (slash == NULL)
                                break;
                        *slash = '\0';
                        snprintf(buf, cap, "%s/catalog/catalog.yaml", exe);
                        if (access(buf, R_OK) == 0) {
                                snprintf(buf, cap, "%s/catalog", exe);
                                return buf;
                        }
                }
        }
        return "catalog";
}

static bool rfc3339_ok(const char *s)
{
        /* YYYY-MM-DDTHH:MM:SSZ exactly: the clock is an input, so it has one spelling. */
        static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
        if (strlen(s) != sizeof(shape) - 1)
                return false;
        for (size_t i = 0; shape[i]; i++)
                if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
                        return false;
        return true;
}

static int run_scan(int argc, char **argv, const char *what)
{
        static const struct option opts[] = {
                { "target", required_argument, NULL, 't' },
                { "catalog-root", required_argument, NULL, 'c' },
                { "profile", required_argument, NULL, 'p' },
                { "mode", required_argument, NULL, 'm' },
                { "format", required_argument, NULL, 'f' },
                { "now", required_argument, NULL, 'n' },
                { "state-dir", required_argument, NULL, 's' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", "sarif", NULL };
        const char *state_dir = NULL;
        prc_scan_opts so = { 0 };
        struct parse_ctx pc = { 0 };
        prc_client_opts copts;
        const char *format = "text";
        char catbuf[4200];
        json_t *res = NULL;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 't': so.target = optarg; break;
                case 'c': so.catalog_root = optarg; break;
                case 'p': so.profile = optarg; break;
                case 'f': format = optarg; break;
                case 's': state_dir = optarg; break;
                case 'n':
                        if (!rfc3339_ok(optarg))
                                return cli_usage(what, "--now takes YYYY-MM-DDTHH:MM:SSZ");
                        so.now = optarg;
                        break;
                case 'm':
                        if (strcmp(optarg, "inspect") == 0)
                                so.mode = PRC_MODE_INSPECT;
                        else if (strcmp(optarg, "verify-local") == 0)
                                so.mode = PRC_MODE_VERIFY_LOCAL;
                        else
                                return cli_usage(what, "--mode takes inspect or verify-local");
                        break;
                default:
                        return cli_usage(what, "bad option");
                }
        }
        if (optind != argc)
                return cli_usage(what, "unexpected argument '%s'", argv[optind]);
        if (so.target == NULL)
                return cli_usage(what, "--target DIR is required");
        if (!cli_format_ok(what, format, formats))
                return PRC_EXIT_USAGE;
        if (so.mode == PRC_MODE_VERIFY_LOCAL) {
                fprintf(stderr, "prc %s: --mode verify-local needs the OCI runner, which this build does not have yet\n",
                        what);
                return PRC_EXIT_EXEC;
        }
        if (so.catalog_root == NULL)
                so.catalog_root = default_catalog(catbuf, sizeof(catbuf));
        prc_client_opts_default(&copts);
        pc.client = prc_client_new(&copts, &err);
        if (pc.client == NULL) {
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        so.parse = scan_parse;
        so.parse_ctx = &pc;
        so.progress = on_progress;
        if (!prc_scan_run(&so, &res, &rc, &err)) {
                progress_done();
                cli_print_err(&err);
                rc = err.cls == PRC_E_UNKNOWN_PROFILE ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
                goto out;
        }
        progress_done();
        /* Artifacts (none from built-in analyses) are written before the record that names them. */
        if (state_dir != NULL && !prc_state_write(state_dir, NULL, 0, res, &err)) {
                cli_print_err(&err);
                rc = PRC_EXIT_EXEC;
                goto out;
        }
        if (strcmp(format, "sarif") == 0) {
                json_t *sarif = prc_sarif_from_run(res, &err);
                if (sarif == NULL || !cli_json_out(sarif, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                }
                json_decref(sarif);
        } else if (strcmp(format, "json") == 0) {
                if (!cli_json_out(res, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                }
        } else {
                print_text(res);
        }
out:
        json_decref(res);
        prc_client_free(pc.client);
        return rc;
}

int cmd_scan(int argc, char **argv)
{
        return run_scan(argc, argv, "scan");
}
