/*
 * observe.c - observation list (see observe.h).
 */
#include "engine/observe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prc_obs_list_clear(prc_obs_list *l)
{
        for (size_t i = 0; i < l->n; i++) {
                json_decref(l->items[i].value);
                json_decref(l->items[i].locations);
        }
        free(l->items);
        l->items = NULL;
        l->n = l->cap = 0;
}

bool prc_obs_add(prc_obs_list *l, const char *source, const char *kind, const char *id, unsigned outcome,
                 json_t *value, json_t *locations, const char *message, prc_err *err)
{
        prc_obs *o;

        if (l->n == l->cap) {
                size_t ncap = l->cap ? l->cap * 2 : 16;
                prc_obs *p = realloc(l->items, ncap * sizeof(*p));
                if (p == NULL) {
                        json_decref(value);
                        json_decref(locations);
                        return prc_err_oom(err, "observations");
                }
                l->items = p;
                l->cap = ncap;
        }
        if (locations == NULL)
                locations = json_array();
        if (locations == NULL) {
                json_decref(value);
                return prc_err_oom(err, "observation locations");
        }
        o = &l->items[l->n++];
        memset(o, 0, sizeof(*o));
        snprintf(o->id, sizeof(o->id), "%s", id);
        snprintf(o->source, sizeof(o->source), "%s", source);
        snprintf(o->kind, sizeof(o->kind), "%s", kind);
        snprintf(o->message, sizeof(o->message), "%s", message ? message : "");
        o->outcome = outcome;
        o->value = value;
        o->locations = locations;
        return true;
}

const json_t *prc_tv_mdocs(const prc_target_view *tv)
{
        if (tv->mdocs_read != NULL)
                *tv->mdocs_read = true;
        return tv->mdocs;
}

const json_t *prc_tv_mdoc_for(const prc_target_view *tv, const char *path)
{
        const json_t *a = prc_tv_mdocs(tv), *md;
        size_t lo = 0, hi = json_array_size(a);

        /* sorted by path: binary search */
        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c;
                md = json_array_get(a, mid);
                c = strcmp(json_string_value(json_object_get(md, "path")), path);
                if (c == 0)
                        return md;
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return NULL;
}
