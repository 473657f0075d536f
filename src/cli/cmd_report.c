/*
 * cmd_report.c - `prc report RESULT.json`: a view of a stored run result
 * (text, json, sarif, html), and `prc explain ID`: what an assertion or an
 * analysis checks, why, how to fix it and how its state is decided.
 * Trust: the result file is untrusted (strict JSON, its ID recomputed);
 * the catalog is operator input.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "engine/catalog.h"
#include "engine/runfile.h"
#include "engine/triage.h"

int cmd_report(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { "baseline", required_argument, NULL, 'b' },
                { "suppressions", required_argument, NULL, 's' },
                { "now", required_argument, NULL, 'n' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", "sarif", "html", NULL };
        cli_triage_opts to = { 0 };
        const char *format = "text";
        json_t *run;
        prc_err err;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'f': format = optarg; break;
                case 'b': to.baseline = optarg; break;
                case 's': to.suppressions = optarg; break;
                case 'n': to.now = optarg; break;
                default: return cli_usage("report", "bad option");
                }
        }
        if (!cli_format_ok("report", format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 1 != argc)
                return cli_usage("report", "exactly one RESULT.json");
        rc = cli_triage_check("report", &to);
        if (rc != PRC_EXIT_OK)
                return rc;
        run = prc_runfile_load(argv[optind], "the run result", &err);
        if (run == NULL) {
                cli_print_err(&err);
                /* A file that is not a run result is a usage error, one that cannot be read an execution error. */
                return cli_exit_for(&err) == PRC_EXIT_EXEC ? PRC_EXIT_EXEC : PRC_EXIT_USAGE;
        }
        if (json_object_get(run, "triage") != NULL && (to.baseline != NULL || to.suppressions != NULL)) {
                json_decref(run);
                return cli_usage("report", "this result was already compared with a baseline or suppressions");
        }
        rc = cli_triage_apply(&to, run, &err);
        if (rc == PRC_EXIT_OK || rc == PRC_EXIT_FAIL) {
                if (!cli_result_out(run, format, "report", &err)) {
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                }
        } else {
                cli_print_err(&err);
        }
        json_decref(run);
        return rc;
}

static void wrap(const char *label, const char *text)
{
        printf("%s:\n  %s\n", label, text);
}

static bool explain_assertion(const prc_assertion *a)
{
        char rule[2048];

        prc_assertion_rule(a, rule, sizeof(rule));
        printf("%s: %s\n", a->id, a->title);
        printf("control %s, severity %s\n\n", a->control, a->severity);
        wrap("rationale", a->rationale);
        wrap("remediation", a->remediation);
        wrap("decision rule", rule);
        if (a->analysis != NULL && prc_builtin_doc(a->analysis) != NULL)
                wrap("the analysis reads", prc_builtin_doc(a->analysis));
        return true;
}

static bool explain_analysis(const prc_catalog *cat, const char *id)
{
        const char *doc = prc_builtin_doc(id);
        const prc_analysis *an = prc_analysis_find(id);
        size_t n = 0;

        if (doc == NULL)
                return false;
        printf("analysis %s%s%s%s\n\n", id, an != NULL ? " (family " : " (built-in)", an != NULL ? an->family : "",
               an != NULL ? ")" : "");
        wrap("reads and reports", doc);
        for (size_t i = 0; i < prc_catalog_count(cat); i++) {
                const prc_assertion *a = prc_catalog_at(cat, i);
                char rule[2048];
                if (a->analysis == NULL || strcmp(a->analysis, id) != 0)
                        continue;
                prc_assertion_rule(a, rule, sizeof(rule));
                printf("\nassertion %s: %s (severity %s)\n", a->id, a->title, a->severity);
                wrap("rationale", a->rationale);
                wrap("remediation", a->remediation);
                wrap("decision rule", rule);
                n++;
        }
        if (n == 0)
                printf("\nno assertion of catalog %s reads it\n", prc_catalog_id(cat));
        return true;
}

int cmd_explain(int argc, char **argv)
{
        static const struct option opts[] = {
                { "catalog-root", required_argument, NULL, 'c' },
                { NULL, 0, NULL, 0 },
        };
        const char *root = NULL;
        char catbuf[4200];
        prc_catalog *cat;
        prc_err err;
        int c, rc = PRC_EXIT_OK;
        bool found = false;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'c': root = optarg; break;
                default: return cli_usage("explain", "bad option");
                }
        }
        if (optind + 1 != argc)
                return cli_usage("explain", "exactly one ID (an assertion such as PRC-A-CORE-001, or an analysis)");
        cat = prc_catalog_load(root != NULL ? root : cli_default_catalog(catbuf, sizeof(catbuf)), &err);
        if (cat == NULL) {
                cli_print_err(&err);
                return cli_exit_for(&err);
        }
        for (size_t i = 0; i < prc_catalog_count(cat) && !found; i++)
                if (strcmp(prc_catalog_at(cat, i)->id, argv[optind]) == 0)
                        found = explain_assertion(prc_catalog_at(cat, i));
        if (!found)
                found = explain_analysis(cat, argv[optind]);
        if (!found) {
                fprintf(stderr, "prc explain: '%s' is neither an assertion of catalog %s nor an analysis; "
                        "prc scan lists the assertions of a profile\n", argv[optind], prc_catalog_id(cat));
                rc = PRC_EXIT_USAGE;
        }
        prc_catalog_free(cat);
        return rc;
}
