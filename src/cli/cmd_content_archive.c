/*
 * cmd_content_archive.c - `prc content archive FILE [--member PATH]...
 * [--format json]`: the members of a tar or tar.gz, and the contents of the
 * members asked for, as the content worker's archive walk reports them.
 * Trust: FILE is target content (a package snapshot).  This process only
 * reads its bytes; decompression and the walk happen in the sandboxed
 * content worker.  Nothing is extracted, no link is followed.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/utf8.h"
#include "content/dispatch.h"
#include "content/frame.h"

/* The walk operation's own bound on requested members (dispatch.c). */
enum { MEMBERS_MAX = 64 };

/* {"wanted":[...]} as canonical JSON into args.  false with err set (out-of-memory). */
static bool walk_args(char *const *members, size_t n, prc_buf *args, prc_err *err)
{
        json_t *o = json_object(), *list = json_array();
        bool ok = o != NULL && list != NULL && json_object_set(o, "wanted", list) == 0;

        for (size_t i = 0; ok && i < n; i++)
                ok = json_array_append_new(list, json_string(members[i])) == 0;
        if (!ok)
                prc_err_oom(err, "archive request");
        ok = ok && prc_jcs_write(o, args, err);
        json_decref(list);
        json_decref(o);
        return ok;
}

int cmd_content_archive(int argc, char **argv)
{
        static const struct option opts[] = {
                { "member", required_argument, NULL, 'm' },
                { "format", required_argument, NULL, 'f' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text", *path;
        char *members[MEMBERS_MAX];
        size_t nmembers = 0;
        int c, rc = PRC_EXIT_EXEC;
        json_t *doc = NULL;
        prc_buf args;
        prc_err err;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'm':
                        if (nmembers == MEMBERS_MAX)
                                return cli_usage("content archive", "at most %d --member options", MEMBERS_MAX);
                        /* Member paths are compared as normalized UTF-8 (archive.h); other bytes never match. */
                        if (!prc_utf8_valid((const uint8_t *)optarg, strlen(optarg), NULL))
                                return cli_usage("content archive", "--member path is not UTF-8");
                        members[nmembers++] = optarg;
                        break;
                case 'f':
                        format = optarg;
                        break;
                default:
                        return cli_usage("content archive", "bad option");
                }
        }
        if (!cli_format_ok("content archive", format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 1 != argc)
                return cli_usage("content archive", "expected exactly one FILE");
        path = argv[optind];
        /* Names past the request's args cap are a buffer-limit refusal here, before any worker starts. */
        prc_buf_init(&args, PRC_FRAME_ARGS_MAX);
        if ((nmembers == 0 || walk_args(members, nmembers, &args, &err)) &&
            cli_content_call(path, PRC_OP_WALK, 0, args.data, args.len, &doc, &err))
                rc = PRC_EXIT_OK;
        rc = cli_content_report(rc == PRC_EXIT_OK, doc, &err, NULL, path, strcmp(format, "json") == 0);
        json_decref(doc);
        prc_buf_clear(&args);
        return rc;
}
