/*
 * gha.c - accessors over GitHub Actions ManifestDocs (see gha.h).
 * Trust: engine-side; reads checked ManifestDocs only.
 */
#include "analysis/gha.h"

#include <string.h>
#include <strings.h>

const json_t *prc_gha_details(const json_t *md)
{
        return json_object_get(md, "details");
}

bool prc_gha_is_workflow(const json_t *md)
{
        const char *f = json_string_value(json_object_get(md, "format"));
        return f != NULL && strcmp(f, "gha-workflow") == 0;
}

const json_t *prc_gha_trigger(const json_t *md, const char *event)
{
        const json_t *t;
        size_t i;

        json_array_foreach(json_object_get(prc_gha_details(md), "triggers"), i, t) {
                const char *e = json_string_value(json_object_get(t, "event"));
                if (e != NULL && strcmp(e, event) == 0)
                        return t;
        }
        return NULL;
}

const char *prc_gha_first_trigger(const json_t *md, const char *const *events)
{
        const json_t *t;
        const char *have[32];
        size_t i, n = 0;

        json_array_foreach(json_object_get(prc_gha_details(md), "triggers"), i, t) {
                const char *e = json_string_value(json_object_get(t, "event"));
                if (e == NULL)
                        continue;
                if (n == sizeof(have) / sizeof(have[0]))
                        goto each;      /* more events than kept: ask for each */
                have[n++] = e;
        }
        for (size_t k = 0; events[k] != NULL; k++)
                for (i = 0; i < n; i++)
                        if (strcmp(have[i], events[k]) == 0)
                                return events[k];
        return NULL;
each:
        for (size_t k = 0; events[k] != NULL; k++)
                if (prc_gha_trigger(md, events[k]) != NULL)
                        return events[k];
        return NULL;
}

const json_t *prc_gha_jobs(const json_t *md)
{
        return json_object_get(prc_gha_details(md), "jobs");
}

const json_t *prc_gha_steps(const json_t *md, const json_t *job)
{
        /* A composite action keeps its steps under runs: (action.yml's own layout). */
        return json_object_get(job != NULL ? job : json_object_get(prc_gha_details(md), "runs"), "steps");
}

bool prc_gha_step_uses(const json_t *step, const char *owner_repo)
{
        const json_t *u = json_object_get(step, "uses");
        const char *owner = json_string_value(json_object_get(u, "owner")), *repo;
        const char *slash = strchr(owner_repo, '/');

        /* The owner first: callers ask about many actions per step, and most differ there. */
        if (owner == NULL || slash == NULL || strlen(owner) != (size_t)(slash - owner_repo) ||
            strncasecmp(owner, owner_repo, (size_t)(slash - owner_repo)) != 0)
                return false;
        repo = json_string_value(json_object_get(u, "repo"));
        return repo != NULL && strcasecmp(repo, slash + 1) == 0;
}

const char *prc_gha_with(const json_t *step, const char *name, uint32_t *line)
{
        const json_t *w;
        size_t i;

        json_array_foreach(json_object_get(step, "with"), i, w) {
                const char *n = json_string_value(json_object_get(w, "name"));
                if (n != NULL && strcmp(n, name) == 0) {
                        if (line != NULL)
                                *line = prc_gha_line(w);
                        return json_string_value(json_object_get(w, "value"));
                }
        }
        return NULL;
}

uint32_t prc_gha_line(const json_t *obj)
{
        json_int_t l = json_integer_value(json_object_get(obj, "line"));
        return l > 0 && l <= UINT32_MAX ? (uint32_t)l : 0;
}
