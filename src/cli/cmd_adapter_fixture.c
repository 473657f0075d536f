/*
 * cmd_adapter_fixture.c - `prc adapter fixture-validate --suite FILE
 * [--format text|json]`: the fixture release suite (seed 000, "Inspect and
 * validate"), evaluated twice without executing an adapter.
 * Trust: the suite is operator input, checked by src/adapter/fixture.c.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "adapter/fixture.h"

static const char *const WHAT = "adapter fixture-validate";

static void print_text(const json_t *r)
{
        const json_t *totals = json_object_get(r, "totals");
        size_t i;
        json_t *c;

        json_array_foreach(json_object_get(r, "cases"), i, c) {
                const json_t *e = json_object_get(c, "expected"), *g = json_array_get(json_object_get(c, "evaluations"), 0);
                bool match = json_is_true(json_object_get(c, "matches"));
                bool same = json_is_true(json_object_get(c, "deterministic"));
                const char *ec = json_string_value(json_object_get(g, "error_class"));
                const char *xc = json_string_value(json_object_get(e, "error_class"));

                if (match && same) {
                        printf("ok    %-40s %s%s%s\n", json_string_value(json_object_get(c, "id")),
                               json_string_value(json_object_get(g, "disposition")), ec ? " " : "", ec ? ec : "");
                        continue;
                }
                printf("DRIFT %-40s expected %s%s%s, got %s%s%s%s\n", json_string_value(json_object_get(c, "id")),
                       json_string_value(json_object_get(e, "disposition")), xc ? " " : "", xc ? xc : "",
                       json_string_value(json_object_get(g, "disposition")), ec ? " " : "", ec ? ec : "",
                       same ? "" : " (the two evaluations differ)");
        }
        printf("manifest %s %s\n", json_string_value(json_object_get(json_object_get(r, "manifest"), "adapter_id")),
               json_string_value(json_object_get(json_object_get(r, "manifest"), "sha256")));
        printf("suite %s, corpus %s\n", json_string_value(json_object_get(json_object_get(r, "suite"), "sha256")),
               json_string_value(json_object_get(json_object_get(r, "corpus"), "sha256")));
        printf("%lld cases: %lld matched, %lld drifted, %lld nondeterministic\n",
               (long long)json_integer_value(json_object_get(totals, "cases")),
               (long long)json_integer_value(json_object_get(totals, "matched")),
               (long long)json_integer_value(json_object_get(totals, "drifted")),
               (long long)json_integer_value(json_object_get(totals, "nondeterministic")));
}

int cmd_adapter_fixture_validate(int argc, char **argv)
{
        static const struct option opts[] = {
                { "suite", required_argument, NULL, 's' },
                { "format", required_argument, NULL, 'F' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *suite = NULL, *format = "text";
        json_t *r;
        prc_err err;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 's': suite = optarg; break;
                case 'F': format = optarg; break;
                default: return cli_usage(WHAT, "bad option");
                }
        }
        if (!cli_format_ok(WHAT, format, formats))
                return PRC_EXIT_USAGE;
        if (suite == NULL)
                return cli_usage(WHAT, "--suite is required");
        if (optind != argc)
                return cli_usage(WHAT, "unexpected argument '%s'", argv[optind]);
        r = prc_fixture_validate(suite, &err);
        if (r == NULL) {
                if (strcmp(format, "json") == 0) {
                        json_t *o = json_pack("{s:b,s:o}", "ok", 0, "error", cli_err_json(&err));
                        prc_err e2;
                        prc_err_init(&e2);
                        if (o == NULL || !cli_json_out(o, &e2))
                                cli_print_err(&e2);
                        json_decref(o);
                }
                cli_print_err(&err);
                return cli_exit_for(&err);
        }
        rc = json_is_true(json_object_get(r, "ok")) ? PRC_EXIT_OK : PRC_EXIT_FAIL;
        if (strcmp(format, "json") == 0) {
                if (!cli_json_out(r, &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                }
        } else {
                print_text(r);
        }
        json_decref(r);
        return rc;
}
