/*
 * triage_opt.c - --baseline and --suppressions for prc scan, prc verify
 * and prc report (engine/triage.h): read the operator's files, triage the
 * run result, name every suppression that expired or matched nothing.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "engine/runfile.h"
#include "engine/triage.h"

int cli_triage_check(const char *what, const cli_triage_opts *to)
{
        if (to->suppressions != NULL && to->now == NULL)
                return cli_usage(what, "--suppressions needs --now YYYY-MM-DDTHH:MM:SSZ: entries expire, and the "
                                 "clock is an input");
        if (to->now != NULL && !cli_rfc3339_ok(to->now))
                return cli_usage(what, "--now takes YYYY-MM-DDTHH:MM:SSZ");
        return PRC_EXIT_OK;
}

/* A malformed operator file is a usage error (2), an unreadable one an execution error (3). */
static int exit_for_input(const prc_err *e)
{
        int rc = cli_exit_for(e);
        return rc == PRC_EXIT_EXEC ? rc : PRC_EXIT_USAGE;
}

int cli_triage_apply(const cli_triage_opts *to, json_t *run, prc_err *err)
{
        json_t *base = NULL, *supp = NULL;
        char sha[PRC_SHA256_HEX + 1] = "";
        const json_t *row, *e;
        int rc = PRC_EXIT_OK;
        size_t i;

        if (to->baseline == NULL && to->suppressions == NULL) {
                json_array_foreach(json_object_get(run, "assertions"), i, row)
                        if (strcmp(json_string_value(json_object_get(row, "state")), "Pass") != 0)
                                rc = PRC_EXIT_FAIL;
                return rc;
        }
        if (to->baseline != NULL && (base = prc_runfile_load(to->baseline, "the baseline", err)) == NULL)
                return exit_for_input(err);
        if (to->suppressions != NULL && (supp = prc_suppressions_load(to->suppressions, sha, err)) == NULL) {
                json_decref(base);
                return exit_for_input(err);
        }
        if (!prc_triage_apply(run, base, supp, sha, to->now, &rc, err))
                rc = cli_exit_for(err) == PRC_EXIT_USAGE ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
        json_decref(base);
        json_decref(supp);
        if (rc > PRC_EXIT_FAIL)
                return rc;
        /* Named on stderr whatever the format: an expired or stray suppression is the operator's to fix. */
        json_array_foreach(json_object_get(json_object_get(json_object_get(run, "triage"), "suppressions"),
                                           "entries"), i, e) {
                const char *st = json_string_value(json_object_get(e, "status"));
                if (strcmp(st, "expired") == 0)
                        fprintf(stderr, "prc: suppression %zu (%s, finding %s) expired on %s: the finding counts "
                                "again\n", i, json_string_value(json_object_get(e, "assertion")),
                                json_string_value(json_object_get(e, "digest")),
                                json_string_value(json_object_get(e, "expires")));
                else if (strcmp(st, "unmatched") == 0)
                        fprintf(stderr, "prc: suppression %zu (%s, finding %s) matched no finding of this run\n", i,
                                json_string_value(json_object_get(e, "assertion")),
                                json_string_value(json_object_get(e, "digest")));
        }
        return rc;
}
