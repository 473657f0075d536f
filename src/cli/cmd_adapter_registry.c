/*
 * cmd_adapter_registry.c - `prc adapter registry-validate`: validate a
 * registry lockfile, every manifest it pins and, on request, its detached
 * signature, without executing anything.
 * Trust: the lockfile, trust store and manifests are operator input; this
 * command only reads them and reports the default resolution decisions.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "adapter/engine_api.h"
#include "adapter/registry.h"
#include "adapter/trust.h"

_Static_assert(PRC_ADAPTER_ENGINE_API == PRC_ENGINE_API, "engine API constants disagree");

#define WHAT "adapter registry-validate"

typedef struct report {
        json_t  *errors;        /* owned: array of error objects */
        prc_err  first;         /* first error, for the exit status */
} report;

static void add_error(report *r, const prc_err *e)
{
        json_t *o = cli_err_json(e);

        if (o != NULL)
                json_array_append_new(r->errors, o);
        if (r->first.cls == PRC_E_OK)
                r->first = *e;
        cli_print_err(e);
}

static json_t *entry_json(prc_registry *reg, size_t i, report *r)
{
        const prc_registry_entry *e = prc_registry_entry_at(reg, i);
        prc_resolution res;
        json_t *o, *rec = json_null();
        prc_err err;
        bool admitted;

        prc_err_init(&err);
        admitted = prc_registry_decide(reg, i, &err);
        if (!admitted && !prc_registry_policy_reason(err.cls))
                add_error(r, &err);     /* a broken entry makes the registry invalid; a denied one does not */
        if (admitted) {
                prc_err e2;
                prc_err_init(&e2);
                if (prc_registry_resolve(reg, e->adapter_id, &res, &e2))
                        rec = prc_resolution_json(&res, &e2);
                if (rec == NULL || e2.cls != PRC_E_OK) {
                        add_error(r, &e2);
                        rec = json_null();
                }
        }
        o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:o}", "adapter_id", e->adapter_id, "manifest_sha256",
                      e->manifest_sha256, "publisher_id", e->publisher_id, "trust", prc_registry_trust_name(e->trust),
                      "status", prc_registry_status_name(e->status), "manifest_path", e->manifest_path, "decision",
                      admitted ? "admitted" : "denied", "reason",
                      admitted ? json_null() : json_string(prc_err_name(err.cls)), "resolution", rec);
        return o;
}

static json_t *signature_json(const prc_registry *reg, const char *store_path, const char *sig_path, report *r)
{
        prc_trust_store *ts;
        prc_sig_info info;
        prc_err err;
        json_t *o;

        if (sig_path == NULL)
                return json_pack("{s:s,s:s,s:n,s:n,s:n}", "status", "absent", "scope", "registry", "reason",
                                 "publisher_id", "key_sha256");
        prc_err_init(&err);
        ts = prc_trust_load(store_path, &err);
        if (ts == NULL || !prc_registry_verify_signature(reg, ts, sig_path, &info, &err)) {
                add_error(r, &err);
                o = json_pack("{s:s,s:s,s:s,s:n,s:n}", "status", "rejected", "scope", "registry", "reason",
                              prc_err_name(err.cls), "publisher_id", "key_sha256");
        } else {
                o = json_pack("{s:s,s:s,s:n,s:s,s:s}", "status", "verified", "scope", "registry", "reason",
                              "publisher_id", info.publisher_id, "key_sha256", info.key_sha256);
        }
        prc_trust_free(ts);
        return o;
}

static void print_text(const json_t *out)
{
        const json_t *sig = json_object_get(out, "signature"), *entries = json_object_get(out, "entries"), *e;
        size_t i;

        if (json_is_string(json_object_get(out, "registry_id"))) {
                printf("registry %s revision %lld\n", json_string_value(json_object_get(out, "registry_id")),
                       (long long)json_integer_value(json_object_get(out, "revision")));
                printf("content sha256 %s\n", json_string_value(json_object_get(out, "content_sha256")));
        }
        if (strcmp(json_string_value(json_object_get(sig, "status")), "verified") == 0)
                printf("signature: verified, publisher %s, key %s\n",
                       json_string_value(json_object_get(sig, "publisher_id")),
                       json_string_value(json_object_get(sig, "key_sha256")));
        else if (json_is_string(json_object_get(sig, "reason")))
                printf("signature: rejected (%s)\n", json_string_value(json_object_get(sig, "reason")));
        else
                printf("signature: %s\n", json_string_value(json_object_get(sig, "status")));
        json_array_foreach(entries, i, e) {
                const json_t *reason = json_object_get(e, "reason");
                printf("%-8s %s %s %s %s%s%s\n", json_string_value(json_object_get(e, "decision")),
                       json_string_value(json_object_get(e, "adapter_id")),
                       json_string_value(json_object_get(e, "trust")), json_string_value(json_object_get(e, "status")),
                       json_string_value(json_object_get(e, "manifest_sha256")), json_is_string(reason) ? " " : "",
                       json_is_string(reason) ? json_string_value(reason) : "");
        }
        printf("%s\n", json_is_true(json_object_get(out, "valid")) ? "valid" : "invalid");
}

int cmd_adapter_registry_validate(int argc, char **argv)
{
        static const struct option opts[] = {
                { "file", required_argument, NULL, 'f' },
                { "trust-store", required_argument, NULL, 't' },
                { "signature", required_argument, NULL, 's' },
                { "format", required_argument, NULL, 'o' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *file = NULL, *store = NULL, *sig = NULL, *format = "text";
        prc_registry *reg = NULL;
        json_t *out = NULL, *entries = NULL, *sigj = NULL;
        report r;
        prc_err err;
        int c, rc;

        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'f':
                        file = optarg;
                        break;
                case 't':
                        store = optarg;
                        break;
                case 's':
                        sig = optarg;
                        break;
                case 'o':
                        format = optarg;
                        break;
                default:
                        return cli_usage(WHAT, "bad option");
                }
        }
        if (!cli_format_ok(WHAT, format, formats))
                return PRC_EXIT_USAGE;
        if (optind != argc)
                return cli_usage(WHAT, "unexpected argument '%s'", argv[optind]);
        if (file == NULL)
                return cli_usage(WHAT, "--file REGISTRY is required");
        if ((store == NULL) != (sig == NULL))
                return cli_usage(WHAT, "--trust-store and --signature go together");

        prc_err_init(&err);
        prc_err_init(&r.first);
        r.errors = json_array();
        entries = json_array();
        if (r.errors == NULL || entries == NULL) {
                prc_err_oom(&err, "the report");
                cli_print_err(&err);
                json_decref(r.errors);
                json_decref(entries);
                return PRC_EXIT_EXEC;
        }
        reg = prc_registry_load(file, &err);
        if (reg == NULL) {
                add_error(&r, &err);
                /* A requested signature over a document that did not load was never checked. */
                out = json_pack("{s:b,s:n,s:n,s:n,s:{s:s,s:s,s:n,s:n,s:n},s:o,s:O}", "valid", 0, "registry_id",
                                "revision", "content_sha256", "signature", "status",
                                sig != NULL ? "unchecked" : "absent", "scope", "registry",
                                "reason", "publisher_id", "key_sha256", "entries", entries, "errors", r.errors);
        } else {
                for (size_t i = 0; i < prc_registry_nentries(reg); i++) {
                        json_t *e = entry_json(reg, i, &r);
                        if (e != NULL)
                                json_array_append_new(entries, e);
                }
                sigj = signature_json(reg, store, sig, &r);
                out = json_pack("{s:b,s:s,s:I,s:s,s:o,s:o,s:O}", "valid", json_array_size(r.errors) == 0,
                                "registry_id", prc_registry_id(reg), "revision", (json_int_t)prc_registry_revision(reg),
                                "content_sha256", prc_registry_sha256(reg), "signature", sigj, "entries", entries,
                                "errors", r.errors);
        }
        if (out == NULL) {
                prc_err_init(&err);
                prc_err_oom(&err, "the report");
                cli_print_err(&err);
                rc = PRC_EXIT_EXEC;
                goto done;
        }
        if (strcmp(format, "json") == 0) {
                prc_err_init(&err);
                if (!cli_json_out(out, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                        goto done;
                }
        } else {
                print_text(out);
        }
        rc = r.first.cls == PRC_E_OK ? PRC_EXIT_OK : cli_exit_for(&r.first);
done:
        json_decref(out);
        json_decref(r.errors);
        prc_registry_free(reg);
        return rc;
}
