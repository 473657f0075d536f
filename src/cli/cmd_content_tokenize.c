/*
 * cmd_content_tokenize.c - `prc content tokenize FILE [--pkgbuild|--srcinfo]
 * [--format json]`: a PKGBUILD or .SRCINFO as the shell tokenizer sees it.
 * Trust: FILE is target content (AUR packages are hostile).  This process
 * only reads its bytes; tokenizing and static expansion happen in the
 * sandboxed content worker, never here, and nothing is ever executed.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <string.h>

#include "content/dispatch.h"
#include "content/parsers/shell.h"

/* makepkg writes .SRCINFO; the attack corpus and AUR mirrors use NAME.SRCINFO too. */
static bool srcinfo_by_name(const char *path)
{
        const char *base = strrchr(path, '/');
        size_t n, k = strlen(".SRCINFO");

        base = base != NULL ? base + 1 : path;
        n = strlen(base);
        return n >= k && strcmp(base + n - k, ".SRCINFO") == 0;
}

int cmd_content_tokenize(int argc, char **argv)
{
        static const struct option opts[] = {
                { "pkgbuild", no_argument, NULL, 'p' },
                { "srcinfo", no_argument, NULL, 's' },
                { "format", required_argument, NULL, 'f' },
                { "recover", no_argument, NULL, 'r' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text", *path, *kind;
        int c, as = 0, rc = PRC_EXIT_EXEC;
        uint32_t flags = 0;
        json_t *doc = NULL;
        prc_err err;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'p':
                case 's':
                        if (as != 0 && as != c)
                                return cli_usage("content tokenize", "--pkgbuild and --srcinfo exclude each other");
                        as = c;
                        break;
                case 'f':
                        format = optarg;
                        break;
                case 'r':
                        flags |= PRC_SHELL_RECOVER;
                        break;
                default:
                        return cli_usage("content tokenize", "bad option");
                }
        }
        if (!cli_format_ok("content tokenize", format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 1 != argc)
                return cli_usage("content tokenize", "expected exactly one FILE");
        path = argv[optind];
        if (as == 0)
                as = srcinfo_by_name(path) ? 's' : 'p';
        kind = as == 's' ? "srcinfo" : "pkgbuild";
        if (cli_content_call_flags(path, PRC_OP_TOKENIZE, as == 's' ? PRC_TOK_SRCINFO : PRC_TOK_PKGBUILD, flags,
                                   NULL, 0, &doc, &err))
                rc = PRC_EXIT_OK;
        rc = cli_content_report(rc == PRC_EXIT_OK, doc, &err, kind, path, strcmp(format, "json") == 0);
        json_decref(doc);
        return rc;
}
