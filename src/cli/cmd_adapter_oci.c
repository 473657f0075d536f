/*
 * cmd_adapter_oci.c - `prc adapter plan-oci` and `prc adapter run-oci`
 * (--manifest M --target DIR --runtime docker|podman [--data NAME=DIR]...
 * [--format text|json]).
 * Trust: the manifest is operator input granted local-explicit trust by
 * being named here; the target is hostile; the adapter's output is never
 * echoed (the record holds only counts and digests of it).
 */
#include "cli/cli.h"

#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/data.h"
#include "adapter/manifest.h"
#include "adapter/oci.h"
#include "adapter/resolution.h"
#include "inventory/inventory.h"

/* DESIGN.md exit statuses for the runner's refusals. */
static int exit_for(const prc_err *e)
{
        switch (e->cls) {
        case PRC_E_OCI_ROOT_REFUSED:
        case PRC_E_OCI_ROOT_GROUP_REFUSED:
        case PRC_E_OCI_NOT_AUTHORIZED:
                return PRC_EXIT_POLICY;
        case PRC_E_OCI_RUNTIME_UNAVAILABLE:
        case PRC_E_OCI_LIMITS_IGNORED:
        case PRC_E_OCI_IMAGE_ABSENT:
        case PRC_E_OCI_RUNTIME_FAILED:
        case PRC_E_SNAP_SOURCE_CHANGED:
        case PRC_E_SNAP_TOO_LARGE:
        case PRC_E_SNAP_CHANGED:
        case PRC_E_SNAP_INTERRUPTED:
        case PRC_E_INV_TREE_CHANGED:
        case PRC_E_INV_FILE_CHANGED:
        case PRC_E_INV_UNREADABLE:
                return PRC_EXIT_EXEC;
        default:
                return cli_exit_for(e);
        }
}

static int refused(const char *format, const prc_err *err)
{
        if (strcmp(format, "json") == 0) {
                json_t *o = json_pack("{s:s,s:s,s:o}", "disposition", "refused", "error_class",
                                      prc_err_name(err->cls), "error", cli_err_json(err));
                prc_err e2;
                prc_err_init(&e2);
                if (o == NULL || !cli_json_out(o, &e2))
                        cli_print_err(&e2);
                json_decref(o);
        }
        cli_print_err(err);
        return exit_for(err);
}

static int run(int argc, char **argv, bool execute)
{
        static const struct option opts[] = {
                { "manifest", required_argument, NULL, 'm' },
                { "target", required_argument, NULL, 't' },
                { "runtime", required_argument, NULL, 'r' },
                { "data", required_argument, NULL, 'd' },
                { "format", required_argument, NULL, 'F' },
                { "gitleaks-ruleset", required_argument, NULL, 'G' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *what = execute ? "adapter run-oci" : "adapter plan-oci";
        const char *mpath = NULL, *target = NULL, *rtname = NULL, *format = "text", *ruleset = NULL;
        prc_data_binding data[PRC_DATA_BINDINGS_MAX];
        size_t ndata = 0;
        prc_manifest *m = NULL;
        prc_inventory *inv = NULL;
        prc_resolution res;
        prc_oci_kind kind;
        json_t *out = NULL;
        char tname[256];
        prc_err err;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'm': mpath = optarg; break;
                case 't': target = optarg; break;
                case 'r': rtname = optarg; break;
                case 'F': format = optarg; break;
                case 'G': ruleset = optarg; break;
                case 'd':
                        if (ndata == PRC_DATA_BINDINGS_MAX)
                                return cli_usage(what, "at most %d --data bindings", PRC_DATA_BINDINGS_MAX);
                        if (!prc_data_parse_arg(optarg, &data[ndata], &err))
                                return cli_usage(what, "--data wants NAME=DIR");
                        ndata++;
                        break;
                default: return cli_usage(what, "bad option");
                }
        }
        if (!cli_format_ok(what, format, formats))
                return PRC_EXIT_USAGE;
        if (mpath == NULL || target == NULL || rtname == NULL)
                return cli_usage(what, "--manifest, --target and --runtime are required");
        if (optind != argc)
                return cli_usage(what, "unexpected argument '%s'", argv[optind]);
        if (!prc_oci_kind_parse(rtname, &kind, &err))
                return cli_usage(what, "--runtime must be docker or podman");

        prc_oci_trace("start");
        m = prc_manifest_load(mpath, PRC_MANIFEST_EXECUTE, &err);
        if (m == NULL) {
                rc = refused(format, &err);
                goto out;
        }
        /* Naming the manifest here is the operator's explicit local grant. */
        if (!prc_resolution_from_manifest(m, &res, &err) || !prc_inventory_build(target, NULL, &inv, &err)) {
                rc = refused(format, &err);
                goto out;
        }
        prc_oci_trace("inventoried");
        /* The protocol's target_name: the directory's last component, never the whole host path. */
        snprintf(tname, sizeof(tname), "%s", target);
        const char *base = basename(tname);
        prc_oci_request rq = {
                .m = m, .manifest_path = mpath, .resolution = &res, .inv = inv,
                .target_name = (base[0] == '\0' || strcmp(base, "/") == 0 || strcmp(base, ".") == 0) ? "target" : base,
                .data = data, .ndata = ndata, .runtime = kind, .ruleset_path = ruleset,
                .cancel = &cli_interrupted,
        };
        cli_interrupts ints;
        cli_interrupts_catch(&ints);
        bool ok = execute ? prc_oci_run(&rq, &out, &err) : prc_oci_plan_request(&rq, &out, &err);
        cli_interrupts_restore(&ints);
        if (!ok) {
                rc = refused(format, &err);
                goto out;
        }
        if (strcmp(format, "json") == 0) {
                if (!cli_json_out(out, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                        goto out;
                }
        } else if (!execute) {
                size_t i;
                json_t *v;
                printf("plan %s\n", json_string_value(json_object_get(out, "plan_sha256")));
                printf("image %s\n", json_string_value(json_object_get(out, "image")));
                printf("snapshot %s\n", json_string_value(json_object_get(json_object_get(out, "snapshot"), "sha256")));
                printf("argv:\n");
                json_array_foreach(json_object_get(out, "argv"), i, v)
                        printf("  %s\n", json_string_value(v));
        } else {
                const json_t *ec = json_object_get(out, "error_class");
                const json_t *st = json_object_get(out, "exit_status");
                char exit_s[32];
                if (json_is_integer(st))
                        snprintf(exit_s, sizeof(exit_s), "%lld", (long long)json_integer_value(st));
                else
                        snprintf(exit_s, sizeof(exit_s), "none");
                printf("%s%s%s: %zu observations; exit %s; record %s\n",
                       json_string_value(json_object_get(out, "disposition")), json_is_string(ec) ? " " : "",
                       json_is_string(ec) ? json_string_value(ec) : "",
                       json_array_size(json_object_get(out, "observations")), exit_s,
                       json_string_value(json_object_get(out, "id")));
        }
        if (!execute) {
                rc = PRC_EXIT_OK;
        } else {
                const char *disp = json_string_value(json_object_get(out, "disposition"));
                rc = strcmp(disp, "accepted") == 0 ? PRC_EXIT_OK
                     : strcmp(disp, "rejected") == 0 ? PRC_EXIT_FAIL : PRC_EXIT_EXEC;
                if (rc != PRC_EXIT_OK)
                        fprintf(stderr, "prc: %s: %s\n", disp,
                                json_string_value(json_object_get(out, "error_class")));
        }
out:
        json_decref(out);
        prc_inventory_free(inv);
        prc_manifest_free(m);
        cli_interrupts_die();   /* after the container, the snapshot and the record are dealt with */
        return rc;
}

int cmd_adapter_plan_oci(int argc, char **argv)
{
        return run(argc, argv, false);
}

int cmd_adapter_run_oci(int argc, char **argv)
{
        return run(argc, argv, true);
}
