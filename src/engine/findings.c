/*
 * findings.c - findings of an assertion row and their content digests (see findings.h).
 * Pure: no I/O, no clock.
 */
#include "engine/findings.h"

#include <string.h>

#include "base/digest.h"
#include "base/jcs.h"

int prc_state_rank(const char *state)
{
        static const char *const order[] = { "Pass", "Conflicting", "Unknown", "Blocked", "Fail" };

        for (int i = 0; state != NULL && i < 5; i++)
                if (strcmp(order[i], state) == 0)
                        return i;
        return -1;
}

/* Position fields move with unrelated edits: they name a finding, they are not its content. */
static bool positional(const char *key)
{
        static const char *const keys[] = { "line", "column", "end_line", "end_column", "start_line",
                                            "start_column" };

        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
                if (strcmp(keys[i], key) == 0)
                        return true;
        return false;
}

/* The content part of one finding; new reference or NULL. */
static json_t *content_of(const char *assertion, const json_t *obs, const json_t *loc)
{
        json_t *c = json_pack("{s:s}", "assertion", assertion), *l;
        const char *k;
        json_t *v;

        if (c == NULL)
                return NULL;
        if (obs == NULL) {
                /* An assertion without evidence (Blocked, a gap): its state is all there is. */
                return c;
        }
        json_object_set(c, "kind", json_object_get(obs, "kind"));
        json_object_set(c, "outcome", json_object_get(obs, "outcome"));
        if (loc == NULL) {
                if (json_object_get(obs, "message") != NULL)
                        json_object_set(c, "message", json_object_get(obs, "message"));
                return c;
        }
        l = json_object();
        if (l == NULL) {
                json_decref(c);
                return NULL;
        }
        json_object_foreach((json_t *)loc, k, v)
                if (!positional(k))
                        json_object_set(l, k, v);
        json_object_set_new(c, "location", l);
        return c;
}

struct acc {
        json_t *list;           /* the findings */
        json_t *seen;           /* content digest -> how many so far */
};

static bool add(struct acc *a, const char *assertion, const json_t *env, const json_t *loc, prc_err *err)
{
        const json_t *obs = json_object_get(env, "observation");
        json_t *c = content_of(assertion, env != NULL ? obs : NULL, loc), *f;
        char base[PRC_SHA256_HEX + 1], dig[PRC_SHA256_HEX + 1];
        json_int_t n;

        if (c == NULL)
                return prc_err_oom(err, "a finding");
        if (json_object_get(c, "kind") == NULL && env != NULL)
                json_object_set_new(c, "kind", json_string(""));
        if (!prc_jcs_digest(c, base, err)) {
                json_decref(c);
                return false;
        }
        n = json_integer_value(json_object_get(a->seen, base));
        json_object_set_new(a->seen, base, json_integer(n + 1));
        /* The first of its content is digested as it is: only a repeat is hashed again, with its count. */
        if (n == 0) {
                memcpy(dig, base, sizeof(dig));
        } else if (json_object_set_new(c, "n", json_integer(n)) != 0 || !prc_jcs_digest(c, dig, err)) {
                json_decref(c);
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "a finding");
                return false;
        }
        json_decref(c);
        f = json_pack("{s:s}", "digest", dig);
        if (f == NULL)
                return prc_err_oom(err, "a finding");
        if (env != NULL)
                json_object_set(f, "evidence", json_object_get(env, "id"));
        if (loc != NULL && json_is_string(json_object_get(loc, "path")))
                json_object_set(f, "path", json_object_get(loc, "path"));
        if (loc != NULL && json_is_integer(json_object_get(loc, "line")) &&
            json_integer_value(json_object_get(loc, "line")) > 0)
                json_object_set(f, "line", json_object_get(loc, "line"));
        /* Unbounded here: the evidence is bounded, and a finding left out would hide from a baseline. */
        if (json_array_append_new(a->list, f) != 0)
                return prc_err_oom(err, "a finding");
        return true;
}

bool prc_findings_set(json_t *row, prc_err *err)
{
        const char *id = json_string_value(json_object_get(row, "id"));
        const char *state = json_string_value(json_object_get(row, "state"));
        const json_t *env, *loc;
        struct acc a;
        size_t i, j;
        bool ok = true;

        if (id == NULL || state == NULL || strcmp(state, "Pass") == 0)
                return true;
        a.list = json_array();
        a.seen = json_object();
        if (a.list == NULL || a.seen == NULL) {
                json_decref(a.list);
                json_decref(a.seen);
                return prc_err_oom(err, "the findings");
        }
        json_array_foreach(json_object_get(row, "evidence"), i, env) {
                const json_t *locs = json_object_get(json_object_get(env, "observation"), "locations");
                if (json_array_size(locs) == 0)
                        ok = ok && add(&a, id, env, NULL, err);
                json_array_foreach(locs, j, loc)
                        ok = ok && add(&a, id, env, loc, err);
        }
        if (ok && json_array_size(a.list) == 0)
                ok = add(&a, id, NULL, NULL, err);
        json_decref(a.seen);
        if (ok && json_object_set_new(row, "findings", a.list) != 0)
                return prc_err_oom(err, "the findings");
        if (!ok)
                json_decref(a.list);
        return ok;
}
