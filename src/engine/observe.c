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
