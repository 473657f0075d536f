/*
 * result_out.c - every view of a run result, for prc scan, prc verify and
 * prc report: text for a terminal, the JSON record, SARIF and HTML.  Each
 * is made from the one run result (issue 22), so they cannot disagree.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "content/floor.h"
#include "engine/html.h"
#include "engine/sarif.h"

/* Locations listed under one assertion on a terminal; the JSON and HTML reports list them all. */
enum { TEXT_LOCATIONS_MAX = 10, TEXT_GAPS_PER_CLASS_MAX = 20 };

/* Most bytes of an HTML report (evidence of a large tree stays far below). */
#define HTML_MAX ((size_t)512 << 20)

static bool colors;

static const char *sget(const json_t *o, const char *k)
{
        const char *s = json_string_value(json_object_get(o, k));
        return s != NULL ? s : "";
}

static long long iget(const json_t *o, const char *k)
{
        return (long long)json_integer_value(json_object_get(o, k));
}

static const char *color(const char *state)
{
        if (!colors)
                return "";
        if (strcmp(state, "Pass") == 0)
                return "\033[32m";
        if (strcmp(state, "Fail") == 0)
                return "\033[1;31m";
        if (strcmp(state, "Blocked") == 0)
                return "\033[35m";
        return "\033[33m";
}

static const char *reset(void)
{
        return colors ? "\033[0m" : "";
}

static const char *dim(void)
{
        return colors ? "\033[2m" : "";
}

/* Issue 23: the summary always says which floor the content worker ran under, and what a lower one gave up. */
static void print_floor(const json_t *f)
{
        const char *level = json_string_value(json_object_get(f, "level"));
        const char *worker = json_string_value(json_object_get(f, "worker"));

        if (level == NULL || worker == NULL)
                return;
        if (strcmp(worker, "served") != 0)
                printf("content floor %s: %s\n", level, strcmp(worker, "refused") == 0 ?
                       "refused on this host, so every manifest is a coverage gap; the gaps name the layer and the "
                       "--content-floor level that would serve (docs/sandbox.md)" :
                       "no worker was needed");
        else if (strcmp(level, "strict") == 0)
                printf("content floor strict (Landlock ABI %lld with scopes, seccomp, namespaces, rlimits)\n",
                       iget(f, "landlock_abi"));
        else if (strcmp(level, "landlock") == 0)
                printf("content floor landlock (chosen): Landlock ABI %lld%s, seccomp, namespaces, rlimits\n",
                       iget(f, "landlock_abi"), iget(f, "landlock_abi") < PRC_LANDLOCK_ABI_MIN ?
                       " without the signal and abstract-socket scopes" : "");
        else
                printf("content floor seccomp (chosen): no Landlock; seccomp, namespaces and rlimits only\n");
}

static void print_target(const json_t *r)
{
        const json_t *t = json_object_get(r, "target");
        const json_t *ar = json_object_get(t, "archive"), *aur = json_object_get(t, "aur");
        const char *root = json_string_value(json_object_get(ar, "root"));

        printf("target inventory %s (%lld files)\n", sget(t, "inventory_digest"), iget(t, "files"));
        if (aur != NULL)
                printf("AUR package %s from %s\n", sget(aur, "package"), sget(aur, "url"));
        if (ar != NULL)
                printf("archive %s sha256 %s, %lld members%s%s, %zu rejected\n", sget(ar, "format"),
                       sget(ar, "sha256"), iget(ar, "members"), root != NULL ? ", package root " : "",
                       root != NULL ? root : "", json_array_size(json_object_get(ar, "rejected")));
}

/* Under an assertion that did not pass: where its evidence is, file:line first. */
static void print_locations(const json_t *row)
{
        const json_t *env, *l;
        size_t i, j, shown = 0, total = 0;

        json_array_foreach(json_object_get(row, "evidence"), i, env) {
                const json_t *obs = json_object_get(env, "observation");
                json_array_foreach(json_object_get(obs, "locations"), j, l) {
                        const char *text = sget(l, "text"), *detail = sget(l, "detail");
                        total++;
                        if (shown == TEXT_LOCATIONS_MAX)
                                continue;
                        shown++;
                        printf("    %s", sget(l, "path"));
                        if (iget(l, "line") > 0)
                                printf(":%lld", iget(l, "line"));
                        if (*text != '\0')
                                printf(": %s%s%s", dim(), text, reset());
                        if (*detail != '\0')
                                printf("%s%s", *text != '\0' ? " - " : ": ", detail);
                        else if (json_is_string(json_object_get(l, "refusal")))
                                printf(": %s", sget(l, "refusal"));
                        else if (json_is_string(json_object_get(l, "format")))
                                printf(": %s", sget(l, "format"));
                        printf("\n");
                }
        }
        if (total > shown)
                printf("    ... %zu more (--format json or html lists every one)\n", total - shown);
}

/* The gaps grouped by class, each class once, in the order it first appears. */
static void print_gaps(const json_t *gaps)
{
        const json_t *g, *h;
        size_t i, j;

        if (json_array_size(gaps) == 0)
                return;
        printf("\ncoverage gaps (%zu): what prc could not analyze, by class\n", json_array_size(gaps));
        json_array_foreach(gaps, i, g) {
                size_t n = 0, shown = 0;
                bool seen = false;
                for (j = 0; j < i && !seen; j++)
                        seen = strcmp(sget(json_array_get(gaps, j), "class"), sget(g, "class")) == 0;
                if (seen)
                        continue;
                json_array_foreach(gaps, j, h)
                        n += strcmp(sget(h, "class"), sget(g, "class")) == 0;
                printf("  %s%s%s (%zu)\n", color("Unknown"), sget(g, "class"), reset(), n);
                json_array_foreach(gaps, j, h) {
                        if (j < i || strcmp(sget(h, "class"), sget(g, "class")) != 0)
                                continue;
                        if (shown++ == TEXT_GAPS_PER_CLASS_MAX) {
                                printf("    ... %zu more of this class (--format json or html lists every one)\n",
                                       n - TEXT_GAPS_PER_CLASS_MAX);
                                break;
                        }
                        printf("    %s: %s\n", sget(h, "path"), sget(h, "reason"));
                }
        }
}

static bool has_state(const json_t *rows, const char *state, bool reported_only)
{
        const json_t *row;
        size_t i;

        json_array_foreach(rows, i, row)
                if (strcmp(sget(row, "state"), state) == 0 &&
                    (!reported_only || !json_is_false(json_object_get(row, "reported"))))
                        return true;
        return false;
}

/* The last line: what to do next, from the most urgent state down. */
static void print_next(const json_t *r)
{
        const json_t *rows = json_object_get(r, "assertions"), *row, *tr = json_object_get(r, "triage");
        const char *first = NULL;
        size_t i;

        json_array_foreach(rows, i, row)
                if (first == NULL && strcmp(sget(row, "state"), "Fail") == 0 &&
                    !json_is_false(json_object_get(row, "reported")))
                        first = sget(row, "id");
        if (tr != NULL && iget(tr, "reported") == 0)
                printf("next: nothing new or worse than the baseline and suppressions; the exit status is 0\n");
        else if (first != NULL)
                printf("next: fix the failing assertions (each one's remediation: prc explain %s), then scan again; "
                       "--format html writes a report to hand on\n", first);
        else if (has_state(rows, "Unknown", true) || has_state(rows, "Conflicting", true))
                printf("next: nothing failed, but some evidence is incomplete: resolve the coverage gaps and errors "
                       "above (prc explain ID says what each assertion reads), then scan again\n");
        else if (has_state(rows, "Blocked", true))
                printf("next: the Blocked assertions need their adapters: scan with --mode verify-local (prc verify "
                       "DIR runs the bundled Gitleaks adapter)\n");
        else
                printf("next: nothing to do; keep this result to compare later scans with --baseline\n");
}

static void print_text(const json_t *r, const char *what)
{
        const json_t *rows = json_object_get(r, "assertions"), *row, *sum = json_object_get(r, "summary");
        const json_t *tr = json_object_get(r, "triage");
        const char *nc = getenv("NO_COLOR");
        size_t i;

        colors = isatty(STDOUT_FILENO) && (nc == NULL || nc[0] == '\0');
        printf("prc %s: profile %s, mode %s, catalog %s r%lld\n", what, sget(r, "profile"), sget(r, "mode"),
               sget(json_object_get(r, "catalog"), "id"), iget(json_object_get(r, "catalog"), "revision"));
        print_target(r);
        print_floor(json_object_get(r, "content_floor"));
        if (colors)
                printf("%sPass%s verified  %sFail%s a finding  %sUnknown%s evidence incomplete  %sConflicting%s "
                       "evidence disagrees  %sBlocked%s not run in this mode\n", color("Pass"), reset(),
                       color("Fail"), reset(), color("Unknown"), reset(), color("Conflicting"), reset(),
                       color("Blocked"), reset());
        printf("\n%-16s %-12s %s\n", "ASSERTION", "STATE", "REASON");
        json_array_foreach(rows, i, row) {
                const char *st = sget(row, "state");
                const json_t *rep = json_object_get(row, "reported");
                printf("%-16s %s%-12s%s %s%s\n", sget(row, "id"), color(st), st, reset(), sget(row, "reason"),
                       json_is_false(rep) ? " (in the baseline or suppressed)" : "");
                if (strcmp(st, "Pass") != 0)
                        print_locations(row);
        }
        print_gaps(json_object_get(r, "coverage_gaps"));
        printf("\n%lld assertions: %lld pass, %lld fail, %lld unknown, %lld conflicting, %lld blocked\n",
               iget(sum, "total"), iget(sum, "pass"), iget(sum, "fail"), iget(sum, "unknown"),
               iget(sum, "conflicting"), iget(sum, "blocked"));
        if (tr != NULL) {
                const json_t *s, *sup = json_object_get(tr, "suppressions");
                if (json_object_get(tr, "baseline") != NULL)
                        printf("baseline %s: %lld assertions new or worse\n",
                               sget(json_object_get(tr, "baseline"), "id"), iget(tr, "reported"));
                json_array_foreach(json_object_get(sup, "entries"), i, s)
                        if (strcmp(sget(s, "status"), "applied") != 0)
                                printf("suppression %s of %s: %s (expires %s)\n", sget(s, "digest"),
                                       sget(s, "assertion"), sget(s, "status"), sget(s, "expires"));
        }
        printf("result %s\n", sget(r, "id"));
        print_next(r);
}

bool cli_result_out(const json_t *r, const char *format, const char *what, prc_err *err)
{
        bool ok;

        if (strcmp(format, "json") == 0)
                return cli_json_out(r, err);
        if (strcmp(format, "sarif") == 0) {
                json_t *sarif = prc_sarif_from_run(r, err);
                ok = sarif != NULL && cli_json_out(sarif, err);
                json_decref(sarif);
                return ok;
        }
        if (strcmp(format, "html") == 0) {
                prc_buf b;
                prc_buf_init(&b, HTML_MAX);
                ok = prc_html_from_run(r, &b, err) && fflush(stdout) == 0 && prc_fd_write_all(STDOUT_FILENO, b.data, b.len, err);
                prc_buf_clear(&b);
                return ok;
        }
        print_text(r, what);
        return fflush(stdout) == 0 || prc_err_set(err, PRC_E_IO, "writing the report to stdout failed");
}
