/*
 * cmd_doc.c - `prc doc digest FILE [--format text|json]`: canonical digest of
 * a YAML or JSON document (how manifests, registries and catalogs are pinned).
 * Trust: the file is operator input, loaded with the operator limits.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/doc.h"

int cmd_doc_digest(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { "as", required_argument, NULL, 'a' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text", *as = "auto";
        prc_doc_format fmt = PRC_DOC_AUTO;
        char hex[PRC_SHA256_HEX + 1];
        prc_err err;
        int c;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'f':
                        format = optarg;
                        break;
                case 'a':
                        as = optarg;
                        break;
                default:
                        return cli_usage("doc digest", "bad option");
                }
        }
        if (!cli_format_ok("doc digest", format, formats))
                return PRC_EXIT_USAGE;
        if (strcmp(as, "json") == 0)
                fmt = PRC_DOC_JSON;
        else if (strcmp(as, "yaml") == 0)
                fmt = PRC_DOC_YAML;
        else if (strcmp(as, "auto") != 0)
                return cli_usage("doc digest", "--as takes yaml, json or auto");
        if (optind + 1 != argc)
                return cli_usage("doc digest", "expected exactly one FILE");
        if (!prc_doc_digest_file(argv[optind], fmt, &prc_limits_operator, hex, &err)) {
                if (strcmp(format, "json") == 0) {
                        json_t *o = json_pack("{s:o,s:n}", "error", cli_err_json(&err), "sha256");
                        prc_err e2;
                        prc_err_init(&e2);
                        if (o == NULL || !cli_json_out(o, &e2))
                                cli_print_err(&e2);
                        json_decref(o);
                }
                cli_print_err(&err);
                return cli_exit_for(&err);
        }
        if (strcmp(format, "json") == 0) {
                json_t *o = json_pack("{s:s,s:s}", "path", argv[optind], "sha256", hex);
                bool ok = o != NULL && cli_json_out(o, &err);
                json_decref(o);
                if (!ok) {
                        cli_print_err(&err);
                        return PRC_EXIT_EXEC;
                }
                return PRC_EXIT_OK;
        }
        printf("%s\n", hex);
        return PRC_EXIT_OK;
}
