/*
 * cmd_sandbox.c - `prc sandbox probe [--format text|json]`: which layers of
 * the content worker's floor this host supports, and whether a real worker
 * comes up and answers a ping.
 * Trust: no target input.  The floor is applied in a forked child
 * (prc_floor_probe), never to this process.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "content/client.h"
#include "content/floor.h"


int cmd_sandbox_probe(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text";
        prc_floor_cfg cfg;
        prc_floor_report rep;
        prc_client_opts co;
        prc_client *client;
        json_t *pong = NULL, *out, *layers;
        prc_err err, werr;
        bool all = true, worker_ok;
        int c;

        prc_err_init(&err);
        prc_err_init(&werr);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                if (c != 'f')
                        return cli_usage("sandbox probe", "bad option");
                format = optarg;
        }
        if (!cli_format_ok("sandbox probe", format, formats))
                return PRC_EXIT_USAGE;
        if (optind != argc)
                return cli_usage("sandbox probe", "takes no arguments");
        prc_floor_cfg_default(&cfg);
        cfg.level = cli_content_floor;
        if (!prc_floor_probe(&cfg, &rep, &err)) {
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                all = all && (rep.state[i] == PRC_LAYER_APPLIED || rep.state[i] == PRC_LAYER_SKIPPED);
        cli_client_opts(&co);
        co.cache_max = 0;
        client = prc_client_new(&co, &werr);
        worker_ok = client != NULL &&
                    prc_client_call(client, PRC_OP_PING, 0, 0, "ping", NULL, 0, NULL, 0, false, &pong, &werr) &&
                    json_is_string(pong) && strcmp(json_string_value(pong), "pong") == 0;
        if (!worker_ok && !prc_err_is_set(&werr))
                prc_err_set(&werr, PRC_E_INVALID_FRAME, "ping answered with something other than \"pong\"");
        json_decref(pong);
        if (strcmp(format, "json") == 0) {
                bool ok;
                layers = json_array();
                for (int i = 0; layers != NULL && i < PRC_LAYER__COUNT; i++)
                        json_array_append_new(layers, json_pack("{s:s,s:s,s:s}", "layer",
                                                                prc_floor_layer_name((prc_floor_layer)i), "state",
                                                                prc_layer_state_name(rep.state[i]), "detail", rep.detail[i]));
                out = json_pack("{s:o,s:i,s:i,s:s,s:o,s:{s:b,s:o?},s:b}", "layers", layers, "landlock_abi",
                                rep.landlock_abi, "landlock_abi_used", rep.landlock_abi_used, "level",
                                prc_floor_level_name(cli_content_floor), "floor", prc_floor_record(&rep), "worker",
                                "ping", worker_ok, "error", worker_ok ? NULL : cli_err_json(&werr), "ok",
                                all && worker_ok);
                ok = out != NULL && cli_json_out(out, &err);
                json_decref(out);
                if (!ok) {
                        cli_print_err(&err);
                        prc_client_free(client);
                        return PRC_EXIT_EXEC;
                }
        } else {
                printf("%-14s %-10s %s\n", "layer", "state", "detail");
                for (int i = 0; i < PRC_LAYER__COUNT; i++)
                        printf("%-14s %-10s %s\n", prc_floor_layer_name((prc_floor_layer)i), prc_layer_state_name(rep.state[i]),
                               rep.detail[i][0] ? rep.detail[i] : "-");
                printf("floor level:   %s%s\n", prc_floor_level_name(cli_content_floor),
                       cli_content_floor == PRC_FLOOR_STRICT ? "" : " (chosen with --content-floor or PRC_CONTENT_FLOOR)");
                if (rep.landlock_abi < 0)
                        printf("landlock ABI:  none (kernel without Landlock)\n");
                else if (rep.landlock_abi_used > 0)
                        printf("landlock ABI:  kernel %d%s; rights of ABI %d handled (strict requires %d)\n",
                               rep.landlock_abi, rep.landlock_abi > PRC_LANDLOCK_ABI_KNOWN ? ", newer than prc knows" : "",
                               rep.landlock_abi_used, PRC_LANDLOCK_ABI_MIN);
                else
                        printf("landlock ABI:  kernel %d; not used (strict requires %d)\n", rep.landlock_abi,
                               PRC_LANDLOCK_ABI_MIN);
                if (worker_ok) {
                        printf("worker:        started under the floor and answered ping\n");
                } else {
                        char line[600];
                        prc_err_format(&werr, line, sizeof(line));
                        printf("worker:        did not answer: %s\n", line);
                }
        }
        prc_client_free(client);
        return all && worker_ok ? PRC_EXIT_OK : PRC_EXIT_EXEC;
}
