/*
 * sarif.c - SARIF 2.1.0 from a run result (see sarif.h).
 */
#include "engine/sarif.h"

#include <string.h>

static const char *level_for(const char *state, const char *severity)
{
        if (strcmp(state, "Fail") != 0)
                return "warning";       /* Unknown, Conflicting, Blocked: not shown to pass */
        return strcmp(severity, "high") == 0 || strcmp(severity, "critical") == 0 ? "error" : "warning";
}

/* One SARIF location: the file, and when the evidence says them, the line, the offending text and what it is. */
static json_t *location_of(const json_t *l)
{
        const char *p = json_string_value(json_object_get(l, "path"));
        const char *text = json_string_value(json_object_get(l, "text"));
        const char *detail = json_string_value(json_object_get(l, "detail"));
        json_int_t line = json_integer_value(json_object_get(l, "line"));
        json_t *loc = json_pack("{s:{s:{s:s}}}", "physicalLocation", "artifactLocation", "uri", p), *region;

        if (loc == NULL || line < 1)
                return loc;
        region = json_pack("{s:I}", "startLine", line);
        if (region != NULL && text != NULL)
                json_object_set_new(region, "snippet", json_pack("{s:s}", "text", text));
        json_object_set_new(json_object_get(loc, "physicalLocation"), "region", region);
        if (detail != NULL)
                json_object_set_new(loc, "message", json_pack("{s:s}", "text", detail));
        return loc;
}

static json_t *locations_of(const json_t *row)
{
        json_t *locs = json_array(), *env, *l;
        size_t i, j;

        json_array_foreach(json_object_get(row, "evidence"), i, env) {
                json_array_foreach(json_object_get(json_object_get(env, "observation"), "locations"), j, l) {
                        if (json_string_value(json_object_get(l, "path")) != NULL && json_array_size(locs) < 100)
                                json_array_append_new(locs, location_of(l));
                }
        }
        return locs;
}

json_t *prc_sarif_from_run(const json_t *run, prc_err *err)
{
        json_t *rules = json_array(), *results = json_array(), *row, *doc;
        size_t i;

        json_array_foreach(json_object_get(run, "assertions"), i, row) {
                const char *id = json_string_value(json_object_get(row, "id"));
                const char *state = json_string_value(json_object_get(row, "state"));
                const char *sev = json_string_value(json_object_get(row, "severity"));
                char text[600];

                json_array_append_new(rules, json_pack("{s:s,s:{s:s},s:{s:s}}", "id", id, "shortDescription", "text",
                                                       json_string_value(json_object_get(row, "title")),
                                                       "properties", "severity", sev));
                if (strcmp(state, "Pass") == 0)
                        continue;
                snprintf(text, sizeof(text), "%s: %s", state, json_string_value(json_object_get(row, "reason")));
                json_array_append_new(results, json_pack("{s:s,s:s,s:{s:s},s:o,s:{s:s}}", "ruleId", id, "level",
                                                         level_for(state, sev), "message", "text", text,
                                                         "locations", locations_of(row), "properties", "state",
                                                         state));
        }
        doc = json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:o}},s:o,s:{s:s}}]}", "$schema",
                        "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool", "driver",
                        "name", "prc", "version", json_string_value(json_object_get(run, "prc_version")),
                        "informationUri", "https://prc.invalid/", "rules", rules, "results", results,
                        "properties", "prc_run_id", json_string_value(json_object_get(run, "id")));
        /* Issue 23: a reader of the SARIF sees which sandbox floor the content analysis ran under. */
        if (doc != NULL && json_object_get(run, "content_floor") != NULL &&
            json_object_set(json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "properties"),
                            "prc_content_floor", json_object_get(run, "content_floor")) != 0) {
                json_decref(doc);
                doc = NULL;
        }
        if (doc == NULL)
                prc_err_oom(err, "the SARIF report");
        return doc;
}
