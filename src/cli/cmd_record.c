/*
 * cmd_record.c - `prc record show FILE [--format text|json]`: read an
 * execution record of any readable version (v0.1-v0.3), check it strictly
 * and its content ID, and print it.  Reading is interpretation only: a
 * record never becomes evidence for a scan (record.h).
 * Trust: the file is untrusted.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "adapter/record.h"

static const char *const WHAT = "record show";

int cmd_record_show(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'F' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text";
        prc_err err;
        int c, ver = 0, rc = PRC_EXIT_OK;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'F': format = optarg; break;
                default: return cli_usage(WHAT, "bad option");
                }
        }
        if (!cli_format_ok(WHAT, format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 1 != argc)
                return cli_usage(WHAT, "exactly one FILE");
        json_t *rec = prc_record_load(argv[optind], &ver, &err);
        if (rec == NULL) {
                cli_print_err(&err);
                return cli_exit_for(&err);
        }
        if (strcmp(format, "json") == 0) {
                if (!cli_json_out(rec, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                }
        } else {
                const json_t *ec = json_object_get(rec, "error_class");
                printf("record %s (%s)\n", json_string_value(json_object_get(rec, "id")),
                       json_string_value(json_object_get(rec, "schema")));
                printf("adapter %s manifest %s\n", json_string_value(json_object_get(rec, "adapter_id")),
                       json_string_value(json_object_get(rec, "manifest_sha256")));
                printf("disposition %s%s%s\n", json_string_value(json_object_get(rec, "disposition")),
                       json_is_string(ec) ? " " : "", json_is_string(ec) ? json_string_value(ec) : "");
                printf("inventory %s snapshot %s\n", json_string_value(json_object_get(rec, "inventory_digest")),
                       json_string_value(json_object_get(rec, "snapshot_sha256")));
                printf("observations %zu\n", json_array_size(json_object_get(rec, "observations")));
                printf("interpretation only: a record is not evidence for a new scan\n");
        }
        json_decref(rec);
        return rc;
}
