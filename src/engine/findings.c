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

/* Append ",\"key\":" then v's canonical form. */
static bool member(prc_buf *b, const char *key, const json_t *v, prc_err *err)
{
        return prc_buf_putc(b, ',', err) && prc_jcs_write_string(key, strlen(key), b, err) &&
               prc_buf_putc(b, ':', err) && prc_jcs_write(v, b, err);
}

/*
 * The content of one finding, canonical and hashed: {assertion} for an
 * assertion without evidence (Blocked, a gap), else with the observation's
 * kind ("" when it has none) and outcome, and its location without the
 * positional fields (or, without a location, its message); n counts the
 * earlier findings of the same content.  Spelled in key order directly
 * rather than built as a document and canonicalized.
 */
static bool content_digest(const char *assertion, const json_t *env, const json_t *loc, json_int_t n, prc_buf *b,
                           char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        const json_t *obs = json_object_get(env, "observation");
        const json_t *kind = json_object_get(obs, "kind"), *msg = json_object_get(obs, "message");
        const json_t *outcome = json_object_get(obs, "outcome");
        bool ok;

        prc_buf_reset(b);
        ok = prc_buf_puts(b, "{\"assertion\":", err) && prc_jcs_write_string(assertion, strlen(assertion), b, err);
        if (ok && kind != NULL)
                ok = member(b, "kind", kind, err);
        else if (ok && env != NULL)
                ok = prc_buf_puts(b, ",\"kind\":\"\"", err);
        if (ok && obs != NULL && loc != NULL)
                ok = prc_buf_puts(b, ",\"location\":", err) && prc_jcs_write_without(loc, positional, b, err);
        if (ok && obs != NULL && loc == NULL && msg != NULL)
                ok = member(b, "message", msg, err);
        if (ok && n > 0)
                ok = prc_buf_puts(b, ",\"n\":", err) && prc_jcs_write_uint((uint64_t)n, b, err);
        if (ok && outcome != NULL)
                ok = member(b, "outcome", outcome, err);
        return ok && prc_buf_putc(b, '}', err) && prc_sha256_hex_once(b->data, b->len, out, err);
}

struct acc {
        json_t *list;           /* the findings */
        json_t *seen;           /* content digest -> how many so far */
        prc_buf buf;            /* one finding's canonical content */
};

static bool add(struct acc *a, const char *assertion, const json_t *env, const json_t *loc, prc_err *err)
{
        char base[PRC_SHA256_HEX + 1], dig[PRC_SHA256_HEX + 1];
        json_t *f;
        json_int_t n;

        if (!content_digest(assertion, env, loc, 0, &a->buf, base, err))
                return false;
        n = json_integer_value(json_object_get(a->seen, base));
        json_object_set_new(a->seen, base, json_integer(n + 1));
        /* The first of its content is digested as it is: only a repeat is hashed again, with its count. */
        if (n == 0)
                memcpy(dig, base, sizeof(dig));
        else if (!content_digest(assertion, env, loc, n, &a->buf, dig, err))
                return false;
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
        prc_buf_init(&a.buf, (size_t)1 << 30);
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
        prc_buf_clear(&a.buf);
        if (ok && json_object_set_new(row, "findings", a.list) != 0)
                return prc_err_oom(err, "the findings");
        if (!ok)
                json_decref(a.list);
        return ok;
}
