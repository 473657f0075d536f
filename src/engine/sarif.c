/*
 * sarif.c - SARIF 2.1.0 from a run result (see sarif.h).
 * Pure: no I/O, no clock.  Everything comes from the run result.
 */
#include "engine/sarif.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"

/* A string member, "" when absent: the views read checked results, and never crash on others (fuzz_report). */
static const char *sget(const json_t *o, const char *k)
{
        const char *s = json_string_value(json_object_get(o, k));
        return s != NULL ? s : "";
}

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define FINGERPRINT_KEY "prcFindingDigest/v1"

/*
 * A Fail's level follows its severity.  Unknown, Conflicting and Blocked
 * are warnings whatever the severity: a code-scanning UI must not show
 * them as clean, nor hide them among notes (docs/reports.md).
 */
static const char *level_for(const char *state, const char *severity)
{
        if (strcmp(state, "Fail") != 0)
                return "warning";
        if (strcmp(severity, "high") == 0 || strcmp(severity, "critical") == 0)
                return "error";
        return strcmp(severity, "medium") == 0 ? "warning" : "note";
}

/* GitHub's security-severity: a CVSS-like score per catalog severity. */
static const char *score_for(const char *severity)
{
        static const char *const map[][2] = {
                { "critical", "9.5" }, { "high", "8.0" }, { "medium", "5.5" }, { "low", "3.0" }, { "info", "0.0" },
        };

        for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
                if (strcmp(map[i][0], severity) == 0)
                        return map[i][1];
        return "0.0";
}

/* A target path as a relative URI reference: every byte but unreserved ones and '/' percent-encoded. */
static json_t *uri_of(const char *path)
{
        static const char hex[] = "0123456789ABCDEF";
        char out[3 * 4096 + 1];
        size_t o = 0;

        for (const unsigned char *p = (const unsigned char *)path; *p != '\0' && o + 4 < sizeof(out); p++) {
                if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                    strchr("-._~/", *p) != NULL) {
                        out[o++] = (char)*p;
                } else {
                        out[o++] = '%';
                        out[o++] = hex[*p >> 4];
                        out[o++] = hex[*p & 15];
                }
        }
        out[o] = '\0';
        return json_string(out);
}

static json_t *rule_of(const json_t *row)
{
        const char *title = sget(row, "title");
        const char *rat = sget(row, "rationale");
        const char *rem = sget(row, "remediation");
        const char *dec = sget(row, "decision_rule");
        const char *sev = sget(row, "severity");
        char text[8192], md[8192];

        snprintf(text, sizeof(text), "%s\n\nRationale: %s\n\nRemediation: %s\n\nDecision rule: %s", title, rat, rem,
                 dec);
        snprintf(md, sizeof(md), "**%s**\n\n**Rationale.** %s\n\n**Remediation.** %s\n\n**Decision rule.** %s",
                 title, rat, rem, dec);
        return json_pack("{s:s,s:{s:s},s:{s:s},s:{s:s,s:s},s:{s:s},s:{s:s,s:s,s:s,s:[s,s]}}", "id",
                         sget(row, "id"), "shortDescription", "text", title,
                         "fullDescription", "text", rat, "help", "text", text, "markdown", md,
                         "defaultConfiguration", "level", level_for("Fail", sev), "properties", "severity", sev,
                         "control", sget(row, "control"), "security-severity",
                         score_for(sev), "tags", "security", "supply-chain");
}

/* The evidence location a finding names (its envelope, then the first location with the same path and line). */
static const json_t *location_of(const json_t *row, const json_t *f)
{
        const char *ev = sget(f, "evidence");
        const json_t *env, *l;
        size_t i, j;

        if (*ev == '\0')
                return NULL;
        json_array_foreach(json_object_get(row, "evidence"), i, env) {
                if (strcmp(sget(env, "id"), ev) != 0)
                        continue;
                json_array_foreach(json_object_get(json_object_get(env, "observation"), "locations"), j, l)
                        if (json_equal(json_object_get(l, "path"), json_object_get(f, "path")) &&
                            (json_object_get(f, "line") == NULL ||
                             json_equal(json_object_get(l, "line"), json_object_get(f, "line"))))
                                return l;
        }
        return NULL;
}

static const json_t *observation_of(const json_t *row, const json_t *f)
{
        const char *ev = sget(f, "evidence");
        const json_t *env;
        size_t i;

        json_array_foreach(json_object_get(row, "evidence"), i, env)
                if (*ev != '\0' && strcmp(sget(env, "id"), ev) == 0)
                        return json_object_get(env, "observation");
        return NULL;
}

/* The reason of the applied suppression of finding f of assertion id, or NULL. */
static const char *suppression_of(const json_t *run, const char *id, const json_t *f)
{
        const json_t *e;
        size_t i;

        json_array_foreach(json_object_get(json_object_get(json_object_get(run, "triage"), "suppressions"), "entries"),
                           i, e)
                if (strcmp(sget(e, "assertion"), id) == 0 && strcmp(sget(e, "digest"), sget(f, "digest")) == 0 &&
                    strcmp(sget(e, "status"), "applied") == 0)
                        return sget(e, "reason");
        return NULL;
}

static json_t *result_of(const json_t *run, const json_t *row, size_t rule_index, const json_t *f)
{
        const char *state = sget(row, "state");
        const char *sev = sget(row, "severity");
        const char *reason = sget(row, "reason");
        const json_t *loc = location_of(row, f), *obs = observation_of(row, f);
        const char *detail = sget(loc, "detail");
        const char *status = sget(f, "status");
        char text[2048];
        json_t *r, *locs;

        if (*detail == '\0' && loc == NULL)
                detail = sget(obs, "message");
        snprintf(text, sizeof(text), "%s: %s%s%s", state, reason, *detail != '\0' ? ". " : "", detail);
        r = json_pack("{s:s,s:I,s:s,s:{s:s},s:{s:s},s:{s:s}}", "ruleId", sget(row, "id"),
                      "ruleIndex", (json_int_t)rule_index, "level", level_for(state, sev), "message", "text", text,
                      "partialFingerprints", FINGERPRINT_KEY, sget(f, "digest"),
                      "properties", "state", state);
        locs = json_array();
        if (r == NULL || locs == NULL) {
                json_decref(r);
                json_decref(locs);
                return NULL;
        }
        if (json_is_string(json_object_get(f, "path"))) {
                json_t *pl = json_pack("{s:{s:o,s:s}}", "artifactLocation", "uri", uri_of(sget(f, "path")),
                                       "uriBaseId", "%SRCROOT%");
                if (pl != NULL && json_integer_value(json_object_get(f, "line")) > 0) {
                        json_t *region = json_pack("{s:O}", "startLine", json_object_get(f, "line"));
                        if (region != NULL && json_is_string(json_object_get(loc, "text")))
                                json_object_set_new(region, "snippet", json_pack("{s:s}", "text", sget(loc, "text")));
                        json_object_set_new(pl, "region", region);
                }
                /* What is at that place, said where a code-scanning UI shows the location. */
                if (*sget(loc, "detail") != '\0')
                        json_array_append_new(locs, json_pack("{s:o,s:{s:s}}", "physicalLocation", pl, "message",
                                                              "text", sget(loc, "detail")));
                else
                        json_array_append_new(locs, json_pack("{s:o}", "physicalLocation", pl));
        } else {
                /* No file (an absent README, a Blocked assertion): the target's root, since GitHub refuses a
                 * whole upload when one result has no location. */
                json_array_append_new(locs, json_pack("{s:{s:{s:s,s:s}},s:{s:s}}", "physicalLocation",
                                                      "artifactLocation", "uri", ".", "uriBaseId", "%SRCROOT%",
                                                      "message", "text", "the target as a whole"));
        }
        json_object_set_new(r, "locations", locs);
        if (json_is_string(json_object_get(f, "evidence")))
                json_object_set(json_object_get(r, "properties"), "evidence", json_object_get(f, "evidence"));
        /* Against a baseline: what is new (docs/reports.md). */
        if (json_object_get(json_object_get(run, "triage"), "baseline") != NULL &&
            (strcmp(status, "new") == 0 || strcmp(status, "baseline") == 0))
                json_object_set_new(r, "baselineState", json_string(strcmp(status, "new") == 0 ? "new" :
                                                                    "unchanged"));
        /* A suppressed finding stays a result, saying who accepted it and why. */
        if (strcmp(status, "suppressed") == 0) {
                const char *why = suppression_of(run, sget(row, "id"), f);
                json_object_set_new(r, "suppressions", json_pack("[{s:s,s:s,s:s}]", "kind", "external", "status",
                                                                 "accepted", "justification",
                                                                 why != NULL ? why : "suppressed"));
        }
        return r;
}

/* The run's provenance: which inputs made the result the SARIF is a view of. */
static json_t *provenance(const json_t *run)
{
        const json_t *t = json_object_get(run, "target");
        json_t *p = json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "prc_run_id", json_object_get(run, "id"),
                              "prc_version", json_object_get(run, "prc_version"), "mode", json_object_get(run, "mode"),
                              "profile", json_object_get(run, "profile"), "inventory_digest",
                              json_object_get(t, "inventory_digest"), "catalog", json_object_get(run, "catalog"),
                              "summary", json_object_get(run, "summary"));
        static const char *const optional[] = { "content_floor", "now", "triage" };

        for (size_t i = 0; p != NULL && i < sizeof(optional) / sizeof(optional[0]); i++)
                if (json_object_get(run, optional[i]) != NULL)
                        json_object_set(p, strcmp(optional[i], "content_floor") == 0 ? "prc_content_floor" :
                                        optional[i], json_object_get(run, optional[i]));
        if (p != NULL && json_object_get(t, "archive") != NULL)
                json_object_set(p, "archive_sha256", json_object_get(json_object_get(t, "archive"), "sha256"));
        return p;
}

json_t *prc_sarif_from_run(const json_t *run, prc_err *err)
{
        json_t *rules = json_array(), *results = json_array(), *row, *f, *doc = NULL;
        size_t i, j;
        bool ok = rules != NULL && results != NULL;
        char category[512];

        /* GitHub reads "CATEGORY/": one category per profile, so profiles do not replace each other's alerts. */
        snprintf(category, sizeof(category), "%s/", sget(run, "profile"));

        json_array_foreach(json_object_get(run, "assertions"), i, row) {
                ok = ok && json_array_append_new(rules, rule_of(row)) == 0;
                if (strcmp(sget(row, "state"), "Pass") == 0)
                        continue;
                json_array_foreach(json_object_get(row, "findings"), j, f)
                        ok = ok && json_array_append_new(results, result_of(run, row, i, f)) == 0;
        }
        if (ok)
                doc = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:O,s:s,s:s,s:o}},s:{s:{s:{s:s}}},s:{s:s},s:s,s:o,s:o}]}",
                                "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name", "prc",
                                "version", json_object_get(run, "prc_version"), "informationUri",
                                "https://prc.invalid/", "organization", "prc", "rules", rules,
                                "originalUriBaseIds", "%SRCROOT%", "description", "text",
                                "the root of the scanned target", "automationDetails", "id",
                                category, "columnKind", "unicodeCodePoints",
                                "results", results, "properties", provenance(run));
        else {
                json_decref(rules);
                json_decref(results);
        }
        if (doc == NULL)
                prc_err_oom(err, "the SARIF report");
        return doc;
}
