/*
 * cmd_inventory.c - `prc inventory` (the sealed listing of a target) and
 * `prc snapshot` (a verified private copy of it).
 *
 * Trust: the target is hostile (src/inventory does the careful work); this
 * file parses the operator's command line, prints, and for snapshot owns
 * the SIGINT/SIGTERM handler that makes an interrupted copy remove itself.
 * Names printed come from the validated listing (no control characters);
 * unrepresentable names are printed only in their \xNN-escaped form.
 */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/snapshot.h"

/* Inventory and snapshot failures are execution errors (DESIGN.md: "changed snapshot" is 3). */
static int exit_for(const prc_err *e)
{
        switch (e->cls) {
        case PRC_E_USAGE:
                return PRC_EXIT_USAGE;
        case PRC_E_OK:
                return PRC_EXIT_OK;
        default:
                return PRC_EXIT_EXEC;
        }
}

/* Print err (and with --format json, one {"error":...} document). */
static int fail(const prc_err *err, bool json)
{
        if (json) {
                json_t *o = json_pack("{s:o}", "error", cli_err_json(err));
                prc_err e2;
                prc_err_init(&e2);
                if (o == NULL || !cli_json_out(o, &e2))
                        cli_print_err(&e2);
                json_decref(o);
        }
        cli_print_err(err);
        return exit_for(err);
}

static void print_summary(const prc_inventory *inv)
{
        const prc_inv_skipped *sk = prc_inventory_skipped(inv);
        size_t files = 0, links = 0, over = 0, exec = 0;

        for (size_t i = 0; i < prc_inventory_count(inv); i++) {
                const prc_inv_entry *e = prc_inventory_entry(inv, i);
                if (e->type == PRC_INV_SYMLINK) {
                        links++;
                        continue;
                }
                files++;
                over += e->oversized;
                exec += e->executable;
        }
        printf("inventory_digest %s\n", prc_inventory_digest(inv));
        printf("files            %zu (%" PRIu64 " bytes; %zu executable, %zu oversized)\n", files,
               prc_inventory_total_bytes(inv), exec, over);
        printf("symlinks         %zu (recorded, not followed)\n", links);
        printf("skipped          %" PRIu64 " socket, %" PRIu64 " fifo, %" PRIu64 " char_device, %" PRIu64
               " block_device\n", sk->socket, sk->fifo, sk->char_device, sk->block_device);
        printf("excluded         ");
        if (prc_inventory_excluded_count(inv) == 0)
                printf("(none)");
        for (size_t i = 0; i < prc_inventory_excluded_count(inv); i++)
                printf("%s%s/", i ? ", " : "", prc_inventory_excluded(inv, i));
        printf("\n");
        printf("unrepresentable  %zu\n", prc_inventory_unrep_count(inv));
        for (size_t i = 0; i < prc_inventory_unrep_count(inv); i++) {
                const prc_inv_unrep *u = prc_inventory_unrep(inv, i);
                printf("  %s %s (%s)\n", u->kind, u->raw, u->reason);
        }
}

static bool parse_threads(const char *s, unsigned *out)
{
        char *end;
        long v;

        errno = 0;
        v = strtol(s, &end, 10);
        if (errno != 0 || end == s || *end != '\0' || v < 1 || v > 64)
                return false;
        *out = (unsigned)v;
        return true;
}

int cmd_inventory(int argc, char **argv)
{
        static const struct option opts[] = {
                { "target", required_argument, NULL, 't' },
                { "format", required_argument, NULL, 'f' },
                { "threads", required_argument, NULL, 'j' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *target = NULL, *format = "text";
        prc_inventory_opts io = { 0 };
        prc_inventory *inv = NULL;
        prc_err err;
        bool json;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 't':
                        target = optarg;
                        break;
                case 'f':
                        format = optarg;
                        break;
                case 'j':
                        if (!parse_threads(optarg, &io.threads))
                                return cli_usage("inventory", "--threads takes a number from 1 to 64");
                        break;
                default:
                        return cli_usage("inventory", "bad option");
                }
        }
        if (!cli_format_ok("inventory", format, formats))
                return PRC_EXIT_USAGE;
        if (optind != argc)
                return cli_usage("inventory", "unexpected argument '%s'", argv[optind]);
        if (target == NULL)
                return cli_usage("inventory", "--target DIR is required");
        json = strcmp(format, "json") == 0;
        if (!prc_inventory_build(target, &io, &inv, &err))
                return fail(&err, json);
        if (json) {
                const json_t *doc = prc_inventory_json(inv, &err);

                if (doc == NULL || !cli_json_out(doc, &err)) {
                        prc_inventory_free(inv);
                        cli_print_err(&err);
                        return PRC_EXIT_EXEC;
                }
        } else {
                print_summary(inv);
        }
        /* A listing with names it could not represent is not a clean inventory. */
        rc = PRC_EXIT_OK;
        if (!prc_inventory_complete(inv)) {
                fprintf(stderr, "prc inventory: %zu name(s) could not be represented and were not inventoried\n",
                        prc_inventory_unrep_count(inv));
                rc = PRC_EXIT_FAIL;
        }
        prc_inventory_free(inv);
        return rc;
}

static bool parse_bytes(const char *s, uint64_t *out)
{
        char *end;
        unsigned long long v;

        if (s[0] < '0' || s[0] > '9')
                return false;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno != 0 || *end != '\0')
                return false;
        *out = v;
        return true;
}

int cmd_snapshot(int argc, char **argv)
{
        static const struct option opts[] = {
                { "target", required_argument, NULL, 't' },
                { "out", required_argument, NULL, 'o' },
                { "ceiling", required_argument, NULL, 'c' },
                { "format", required_argument, NULL, 'f' },
                { "verify", no_argument, NULL, 'v' },
                { "threads", required_argument, NULL, 'j' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *target = NULL, *outdir = NULL, *format = "text";
        bool verify = false;
        prc_snapshot_opts so = { .cancel = &cli_interrupted };
        prc_inventory_opts io = { 0 };
        cli_interrupts ints;
        prc_inventory *inv = NULL;
        prc_snapshot *snap = NULL;
        prc_err err;
        bool json, ok;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 't':
                        target = optarg;
                        break;
                case 'o':
                        outdir = optarg;
                        break;
                case 'c':
                        if (!parse_bytes(optarg, &so.ceiling) || so.ceiling == 0 || so.ceiling > PRC_SNAPSHOT_CEILING)
                                return cli_usage("snapshot", "--ceiling takes a byte count from 1 to %llu",
                                                 (unsigned long long)PRC_SNAPSHOT_CEILING);
                        break;
                case 'f':
                        format = optarg;
                        break;
                case 'v':
                        verify = true;
                        break;
                case 'j':
                        if (!parse_threads(optarg, &so.threads))
                                return cli_usage("snapshot", "--threads takes a number from 1 to 64");
                        io.threads = so.threads;
                        break;
                default:
                        return cli_usage("snapshot", "bad option");
                }
        }
        if (!cli_format_ok("snapshot", format, formats))
                return PRC_EXIT_USAGE;
        if (optind != argc)
                return cli_usage("snapshot", "unexpected argument '%s'", argv[optind]);
        if (target == NULL || outdir == NULL)
                return cli_usage("snapshot", "--target DIR and --out DIR are required");
        json = strcmp(format, "json") == 0;

        cli_interrupts_catch(&ints);

        ok = prc_inventory_build(target, &io, &inv, &err) && prc_snapshot_create(inv, outdir, &so, &snap, &err) &&
             prc_snapshot_seal(snap, &err) && (!verify || prc_snapshot_verify(snap, &err));
        if (ok && cli_interrupted) {
                /* A signal that landed after the copy still means "stop and clean up". */
                ok = prc_err_set(&err, PRC_E_SNAP_INTERRUPTED, "interrupted by a signal");
        }
        if (ok) {
                prc_snapshot_keep(snap);        /* the command's product: the caller removes it */
        } else if (snap != NULL && !prc_snapshot_remove(snap, &err)) {
                /* err holds the first cause; the removal failure is secondary but must be said. */
                fprintf(stderr, "prc snapshot: could not remove '%s'\n", prc_snapshot_path(snap));
        }
        if (ok) {
                if (json) {
                        /* The listing stays as sealed (its digest covers it); host facts sit beside it. */
                        json_t *doc = json_pack("{s:O,s:s,s:I}", "listing", prc_snapshot_to_json(snap), "path",
                                                prc_snapshot_path(snap), "total_bytes",
                                                (json_int_t)prc_snapshot_total_bytes(snap));
                        if (doc == NULL) {
                                prc_err_oom(&err, "the snapshot listing");
                                ok = false;
                        } else {
                                ok = cli_json_out(doc, &err);
                        }
                        json_decref(doc);
                } else {
                        printf("snapshot_digest  %s\n", prc_snapshot_digest(snap));
                        printf("inventory_digest %s\n", prc_inventory_digest(inv));
                        printf("path             %s\n", prc_snapshot_path(snap));
                        printf("files            %zu (%" PRIu64 " bytes)\n",
                               json_array_size(json_object_get(prc_snapshot_to_json(snap), "entries")),
                               prc_snapshot_total_bytes(snap));
                }
        }
        rc = ok ? PRC_EXIT_OK : fail(&err, json);
        if (ok && !prc_inventory_complete(inv)) {
                /* Same rule as prc inventory: files that could not be listed are not in the copy either. */
                fprintf(stderr, "prc snapshot: %zu name(s) could not be represented and were not copied\n",
                        prc_inventory_unrep_count(inv));
                rc = PRC_EXIT_FAIL;
        }
        prc_snapshot_free(snap);
        prc_inventory_free(inv);
        cli_interrupts_restore(&ints);
        if (!ok && err.cls == PRC_E_SNAP_INTERRUPTED)
                cli_interrupts_die();
        return rc;
}
