/*
 * protocol.c - prc-adapter-jsonl-v1 decoder, request builder and stderr
 * meter (see protocol.h and docs/adapter-protocol.md).
 *
 * Trust: every byte fed in is hostile.  Per line the checks run in a fixed
 * order and the first failure wins: length cap (while reading), blank line,
 * message count, UTF-8 and NUL, strict JSON (duplicate keys refused), not an
 * object, type, authority claim (every key at every depth, and pass-like
 * outcome or status words), field table, then semantic checks.  Stream
 * checks: stdout ceiling (while reading), nothing after the summary, a
 * final newline, exactly one summary.
 */
#include "adapter/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/authority.h"
#include "adapter/grammar.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/path.h"

enum msg_type { M_LOG, M_ARTIFACT, M_OBSERVATION, M_SUMMARY };

struct prc_decoder {
        const prc_manifest *m;          /* borrowed: outlives the decoder */
        prc_proto_limits    lim;
        prc_limits          jlim;       /* strict-reader limits for one line */
        prc_buf             line;       /* owned: the current partial line, <= lim.line_bytes */
        uint64_t            total;      /* bytes consumed */
        uint64_t            line_start; /* offset of the current line */
        uint64_t            lines;      /* lines completed */
        uint64_t            messages;   /* non-blank lines */
        uint64_t            logs;
        bool                summary;
        bool                finished;
        bool                briefs_only;        /* keep id / kind / outcome only, not the lines */
        prc_disposition     disp;
        prc_err             err;
        prc_sha256         *h;          /* owned */
        char                sha[PRC_SHA256_HEX + 1];
        char                status[16];
        /*
         * Observations are kept compact while decoding: the raw line and the
         * id / kind / outcome, in one arena.  Keeping 100,000 jansson trees
         * alive costs more than parsing them; the full objects are rebuilt
         * on first request, from lines that already passed every check.
         */
        prc_buf             arena;      /* owned: raw lines, then "id\0kind\0" per record */
        struct obs_rec {
                size_t  line_off, line_len, id_off, kind_off;
                uint8_t outcome;        /* index into outcomes[] */
        }                  *recs;       /* owned */
        size_t              nrecs, caprecs;
        struct id_slot {
                uint32_t hash;
                uint32_t rec;           /* index into recs + 1; 0: empty */
        }                  *idset;      /* owned: open addressing, at most half full */
        size_t              idcap;      /* power of two, kept at most half full */
        json_t             *obs;        /* owned: built lazily by prc_decoder_observations */
        json_t             *arts;       /* owned array of the artifact messages */
        json_t             *art_ids;    /* owned: object used as the artifact id set */
        json_t             *empty;              /* owned: [] returned while not accepted */
};

const char *prc_disposition_name(prc_disposition d)
{
        switch (d) {
        case PRC_DISP_ACCEPTED: return "accepted";
        case PRC_DISP_REJECTED: return "rejected";
        default: return "pending";
        }
}

prc_proto_limits prc_proto_limits_of(const prc_manifest *m)
{
        const prc_manifest_limits *l = prc_manifest_limits_of(m);
        prc_proto_limits p = { l->line_bytes, l->messages, l->stdout_bytes };

        return p;
}

prc_decoder *prc_decoder_new(const prc_manifest *m, const prc_proto_limits *lim, prc_err *err)
{
        prc_proto_limits ml;
        prc_decoder *d;

        if (prc_manifest_version(m) != 4) {
                prc_err_set(err, PRC_E_MANIFEST_ARCHIVED, "an archived manifest cannot validate new output");
                return NULL;
        }
        if (strcmp(prc_manifest_protocol(m), PRC_ADAPTER_PROTOCOL_JSONL) != 0) {
                prc_err_set(err, PRC_E_PROTOCOL_MISMATCH, "the manifest's protocol is not %s",
                            PRC_ADAPTER_PROTOCOL_JSONL);
                return NULL;
        }
        ml = prc_proto_limits_of(m);
        if (lim != NULL) {
                if (lim->line_bytes < 1 || lim->line_bytes > ml.line_bytes || lim->messages < 1 ||
                    lim->messages > ml.messages || lim->stdout_bytes < 1 || lim->stdout_bytes > ml.stdout_bytes) {
                        prc_err_set(err, PRC_E_LIMIT_OUT_OF_RANGE, "decoder limits may only lower the manifest's");
                        return NULL;
                }
                ml = *lim;
        }
        d = calloc(1, sizeof(*d));
        if (d == NULL) {
                prc_err_oom(err, "decoder");
                return NULL;
        }
        d->m = m;
        d->lim = ml;
        d->jlim = (prc_limits){
                .input_max = (size_t)ml.line_bytes,
                .scalar_max = (size_t)ml.line_bytes,
                .depth_max = 32,        /* messages are shallow; value objects rarely nest past a few levels */
                .nodes_max = 1000000,   /* bounded by the line cap anyway */
                .keys_max = 10000,
        };
        prc_err_init(&d->err);
        prc_buf_init(&d->line, (size_t)ml.line_bytes);
        d->h = prc_sha256_new(err);
        prc_buf_init(&d->arena, (size_t)ml.stdout_bytes * 2 + 64);
        d->arts = json_array();
        d->art_ids = json_object();
        d->empty = json_array();
        if (d->h == NULL || !d->arts || !d->art_ids || !d->empty) {
                prc_err_oom(err, "decoder");
                prc_decoder_free(d);
                return NULL;
        }
        return d;
}

void prc_decoder_free(prc_decoder *d)
{
        if (d == NULL)
                return;
        prc_buf_clear(&d->line);
        prc_sha256_free(d->h);
        json_decref(d->obs);
        prc_buf_clear(&d->arena);
        free(d->recs);
        json_decref(d->arts);
        free(d->idset);
        json_decref(d->art_ids);
        json_decref(d->empty);
        free(d);
}

/* Record the line's error as the decoder's (first error wins: there is none yet). */
static void reject(prc_decoder *d, const prc_err *le, uint64_t line, uint64_t off)
{
        d->err = *le;
        d->err.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
        if (line == 0)
                d->err.col = 0;
        d->err.off = off;
        d->disp = PRC_DISP_REJECTED;
}

static void reject_cls(prc_decoder *d, prc_errclass c, uint64_t line, uint64_t off, const char *msg)
{
        prc_err e;

        prc_err_init(&e);
        prc_err_set(&e, c, "%s", msg);
        reject(d, &e, line, off);
}

static bool fail(prc_err *e, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(e, c, "%s", msg);
        prc_err_set_ptr(e, ptr);
        return false;
}

static const char *const type_names[] = { "log", "artifact", "observation", "summary" };

#define S PRC_JT_STRING
#define I PRC_JT_INT
static const prc_field log_f[] = {
        { "type", S, true }, { "level", S, true }, { "message", S, true },
};
static const prc_field artifact_f[] = {
        { "type", S, true }, { "id", S, true }, { "path", S, true }, { "media_type", S, true },
        { "size", I, true }, { "sha256", S, true },
};
static const prc_field observation_f[] = {
        { "type", S, true }, { "id", S, true }, { "kind", S, true }, { "outcome", S, true },
        { "locations", PRC_JT_ARRAY, false }, { "value", PRC_JT_OBJECT, false },
        { "artifact", S, false }, { "message", S, false },
};
static const prc_field summary_f[] = {
        { "type", S, true }, { "status", S, true }, { "counters", PRC_JT_OBJECT, true },
};
static const prc_field counters_f[] = {
        { "logs", I, true }, { "observations", I, true }, { "artifacts", I, true },
};
static const prc_field location_f[] = {
        { "path", S, true }, { "start_line", I, true }, { "end_line", I, false },
        { "start_column", I, false }, { "end_column", I, false },
};
#undef S
#undef I

static bool type_ok(const json_t *v, unsigned types)
{
        switch (json_typeof(v)) {
        case JSON_STRING: return types & PRC_JT_STRING;
        case JSON_INTEGER: return types & PRC_JT_INT;
        case JSON_OBJECT: return types & PRC_JT_OBJECT;
        case JSON_ARRAY: return types & PRC_JT_ARRAY;
        default: return false;  /* the protocol has no boolean, null or float fields */
        }
}

/* The common case, without building a JSON pointer per key: true when o passes the table. */
static bool fields_fast(const json_t *o, const prc_field *f, size_t n)
{
        const char *k;
        json_t *v;
        size_t seen = 0;

        if (!json_is_object(o))
                return false;
        json_object_foreach((json_t *)o, k, v) {
                size_t i;
                for (i = 0; i < n; i++)
                        if (strcmp(f[i].name, k) == 0)
                                break;
                if (i == n || !type_ok(v, f[i].types))
                        return false;
                seen += f[i].required;
        }
        for (size_t i = 0; i < n; i++)
                seen -= f[i].required;
        return seen == 0;
}

/* prc_json_fields, with an unknown key's bytes kept out of the message and pointer. */
static bool fields(const json_t *o, const char *ptr, const prc_field *f, size_t n, const char *what, prc_err *e)
{
        /* keys are unique (duplicates were refused), so counting required hits is exact */
        if (fields_fast(o, f, n) || prc_json_fields(o, ptr, f, n, e))
                return true;
        if (e->cls == PRC_E_UNKNOWN_FIELD) {
                snprintf(e->msg, sizeof(e->msg), "%s has a field the protocol does not define", what);
                snprintf(e->ptr, sizeof(e->ptr), "%s", ptr);
        }
        return false;
}
#define FIELDS(o, ptr, tbl, what, e) fields((o), (ptr), (tbl), PRC_ARRAY_LEN(tbl), (what), (e))

static bool in(const char *s, const char *const *set, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(s, set[i]) == 0)
                        return true;
        return false;
}

static const char *const outcomes[] = { "found", "not_found", "value", "unsupported" };
static const char *const statuses[] = { "completed", "unsupported", "failed" };
static const char *const levels[] = { "debug", "info", "warn", "error" };

static bool check_path(const json_t *v, const char *ptr, prc_err *e)
{
        prc_err pe;

        prc_err_init(&pe);
        if (prc_path_check(json_string_value(v), json_string_length(v), &pe))
                return true;
        /* The path-* class says why; the protocol reports one class for every bad path. */
        prc_err_set(e, PRC_E_INVALID_PATH, "not a normalized relative path (%s)", prc_err_name(pe.cls));
        if (ptr != NULL)
                prc_err_set_ptr(e, ptr);
        return false;
}

static bool check_log(prc_decoder *d, const json_t *v, prc_err *e)
{
        if (!FIELDS(v, "", log_f, "a log message", e))
                return false;
        if (!in(json_string_value(json_object_get(v, "level")), levels, PRC_ARRAY_LEN(levels)))
                return fail(e, PRC_E_INVALID_VALUE, "/level", "log level must be debug, info, warn or error");
        d->logs++;
        return true;
}

static bool check_artifact(prc_decoder *d, json_t *v, prc_err *e)
{
        const json_t *id = json_object_get(v, "id"), *mt;

        if (!FIELDS(v, "", artifact_f, "an artifact message", e))
                return false;
        if (!prc_gram_id(json_string_value(id), json_string_length(id)))
                return fail(e, PRC_E_INVALID_ID, "/id", "artifact id must match [a-z0-9][a-z0-9._:-]{0,127}");
        if (json_object_get(d->art_ids, json_string_value(id)) != NULL)
                return fail(e, PRC_E_DUPLICATE_ID, "/id", "artifact id already used by an earlier artifact");
        if (!check_path(json_object_get(v, "path"), "/path", e))
                return false;
        mt = json_object_get(v, "media_type");
        if (!prc_gram_media_type(json_string_value(mt), json_string_length(mt)))
                return fail(e, PRC_E_INVALID_MEDIA_TYPE, "/media_type", "media_type must be type/subtype");
        if (json_integer_value(json_object_get(v, "size")) < 0)
                return fail(e, PRC_E_UNSAFE_NUMBER, "/size", "size must be a non-negative integer");
        if (!prc_digest_valid(json_string_value(json_object_get(v, "sha256"))))
                return fail(e, PRC_E_INVALID_DIGEST, "/sha256", "sha256 must be 64 lowercase hex characters");
        if (json_object_set_new(d->art_ids, json_string_value(id), json_null()) != 0 ||
            json_array_append(d->arts, v) != 0)
                return prc_err_oom(e, "artifact list");
        return true;
}

/* A location error: the pointer is built only when there is one. */
static bool loc_fail(prc_err *e, prc_errclass c, size_t i, const char *field, const char *msg)
{
        char ptr[96];

        if (field != NULL)
                snprintf(ptr, sizeof(ptr), "/locations/%zu/%s", i, field);
        else
                snprintf(ptr, sizeof(ptr), "/locations/%zu", i);
        return fail(e, c, ptr, msg);
}

static bool check_location(const json_t *loc, size_t i, prc_err *e)
{
        static const char *const ints[] = { "start_line", "end_line", "start_column", "end_column" };
        char ptr[64];
        json_int_t sl, el, sc, ec;

        if (!json_is_object(loc))
                return loc_fail(e, PRC_E_NOT_AN_OBJECT, i, NULL, "a location must be an object");
        if (!fields_fast(loc, location_f, PRC_ARRAY_LEN(location_f))) {
                snprintf(ptr, sizeof(ptr), "/locations/%zu", i);
                if (!FIELDS(loc, ptr, location_f, "a location", e))
                        return false;
        }
        if (!check_path(json_object_get(loc, "path"), NULL, e))
                return loc_fail(e, PRC_E_INVALID_PATH, i, "path", "");
        for (size_t k = 0; k < PRC_ARRAY_LEN(ints); k++) {
                const json_t *n = json_object_get(loc, ints[k]);
                if (n != NULL && json_integer_value(n) < 1)
                        return loc_fail(e, PRC_E_INVALID_LOCATION, i, ints[k], "lines and columns are 1-based");
        }
        sl = json_integer_value(json_object_get(loc, "start_line"));
        el = json_object_get(loc, "end_line") ? json_integer_value(json_object_get(loc, "end_line")) : sl;
        sc = json_integer_value(json_object_get(loc, "start_column"));
        ec = json_integer_value(json_object_get(loc, "end_column"));
        if (el < sl)
                return loc_fail(e, PRC_E_INVALID_LOCATION, i, "end_line", "end_line is before start_line");
        if (el == sl && json_object_get(loc, "start_column") && json_object_get(loc, "end_column") && ec < sc)
                return loc_fail(e, PRC_E_INVALID_LOCATION, i, "end_column",
                                "end_column is before start_column on one line");
        return true;
}

static uint32_t hash_id(const char *s, size_t n)
{
        uint64_t h = 1469598103934665603ull;   /* FNV-1a: ids are short and adapter-chosen, the set is ours */

        for (size_t i = 0; i < n; i++)
                h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
        return (uint32_t)(h ^ (h >> 32));
}

/*
 * Slot of id in the set: where it is, or the empty slot where it would go.
 * Each slot keeps the hash beside the record index, so a probe touches the
 * arena only on a full hash match.
 */
static size_t id_slot(const prc_decoder *d, const char *id, size_t n, uint32_t h)
{
        size_t mask = d->idcap - 1, i = h & mask;

        while (d->idset[i].rec != 0) {
                if (d->idset[i].hash == h) {
                        const char *k = (const char *)d->arena.data + d->recs[d->idset[i].rec - 1].id_off;
                        if (strncmp(k, id, n) == 0 && k[n] == '\0')
                                return i;
                }
                i = (i + 1) & mask;
        }
        return i;
}

static bool obs_id_seen(const prc_decoder *d, const json_t *id)
{
        const char *s = json_string_value(id);
        size_t n = json_string_length(id);

        return d->idcap != 0 && d->idset[id_slot(d, s, n, hash_id(s, n))].rec != 0;
}

static bool obs_id_add(prc_decoder *d, size_t rec, prc_err *e)
{
        const char *id = (const char *)d->arena.data + d->recs[rec].id_off;
        size_t n = strlen(id);
        uint32_t h = hash_id(id, n);

        if ((rec + 1) * 2 > d->idcap) {
                size_t cap = d->idcap ? d->idcap * 2 : 1024;
                struct id_slot *old = d->idset, *nt = calloc(cap, sizeof(*nt));
                size_t oldcap = d->idcap;
                if (nt == NULL)
                        return prc_err_oom(e, "observation ids");
                d->idset = nt;
                d->idcap = cap;
                /* ids in the old table are distinct: each needs only an empty slot */
                for (size_t i = 0; i < oldcap; i++) {
                        size_t j = old[i].hash & (cap - 1);
                        if (old[i].rec == 0)
                                continue;
                        while (nt[j].rec != 0)
                                j = (j + 1) & (cap - 1);
                        nt[j] = old[i];
                }
                free(old);
        }
        d->idset[id_slot(d, id, n, h)] = (struct id_slot){ h, (uint32_t)(rec + 1) };
        return true;
}

static bool keep_observation(prc_decoder *d, const json_t *v, const uint8_t *line, size_t n, uint8_t outcome,
                             prc_err *e)
{
        const json_t *id = json_object_get(v, "id"), *kind = json_object_get(v, "kind");
        struct obs_rec r;

        if (d->nrecs == d->caprecs) {
                size_t cap = d->caprecs ? d->caprecs * 2 : 256;
                struct obs_rec *nr = realloc(d->recs, cap * sizeof(*nr));
                if (nr == NULL)
                        return prc_err_oom(e, "observation list");
                d->recs = nr;
                d->caprecs = cap;
        }
        r.line_off = d->arena.len;
        r.line_len = d->briefs_only ? 0 : n;
        r.outcome = outcome;
        if (!d->briefs_only && (!prc_buf_put(&d->arena, line, n, e) || !prc_buf_putc(&d->arena, 0, e)))
                return false;
        r.id_off = d->arena.len;
        if (!prc_buf_put(&d->arena, json_string_value(id), json_string_length(id) + 1, e))
                return false;
        r.kind_off = d->arena.len;
        if (!prc_buf_put(&d->arena, json_string_value(kind), json_string_length(kind) + 1, e))
                return false;
        d->recs[d->nrecs++] = r;
        return obs_id_add(d, d->nrecs - 1, e);
}

static bool check_observation(prc_decoder *d, json_t *v, const uint8_t *line, size_t n, prc_err *e)
{
        const json_t *id = json_object_get(v, "id"), *locs, *art, *kind;
        const char *outcome;
        size_t i;
        json_t *loc;

        if (!FIELDS(v, "", observation_f, "an observation message", e))
                return false;
        if (!prc_gram_id(json_string_value(id), json_string_length(id)))
                return fail(e, PRC_E_INVALID_ID, "/id", "observation id must match [a-z0-9][a-z0-9._:-]{0,127}");
        if (obs_id_seen(d, id))
                return fail(e, PRC_E_DUPLICATE_ID, "/id", "observation id already used by an earlier observation");
        kind = json_object_get(v, "kind");
        if (strlen(json_string_value(kind)) != json_string_length(kind) ||
            !prc_manifest_declares_kind(d->m, json_string_value(kind)))
                return fail(e, PRC_E_UNDECLARED_KIND, "/kind", "the manifest does not declare this observation kind");
        outcome = json_string_value(json_object_get(v, "outcome"));
        if (!in(outcome, outcomes, PRC_ARRAY_LEN(outcomes)))
                return fail(e, PRC_E_INVALID_OUTCOME, "/outcome",
                            "outcome must be found, not_found, value or unsupported");
        if ((strcmp(outcome, "value") == 0) != (json_object_get(v, "value") != NULL))
                return fail(e, PRC_E_VALUE_OUTCOME_MISMATCH, "/value",
                            "value is present exactly when the outcome is value");
        locs = json_object_get(v, "locations");
        json_array_foreach(locs, i, loc) {
                if (!check_location(loc, i, e))
                        return false;
        }
        art = json_object_get(v, "artifact");
        if (art != NULL && json_object_get(d->art_ids, json_string_value(art)) == NULL)
                return fail(e, PRC_E_UNKNOWN_ARTIFACT, "/artifact", "no artifact with this id was emitted before");
        for (i = 0; i < PRC_ARRAY_LEN(outcomes); i++)
                if (strcmp(outcome, outcomes[i]) == 0)
                        break;
        return keep_observation(d, v, line, n, (uint8_t)i, e);
}

static bool check_summary(prc_decoder *d, const json_t *v, prc_err *e)
{
        static const char *const names[] = { "logs", "observations", "artifacts" };
        const char *status;
        const json_t *c;
        uint64_t actual[3];
        char ptr[64];

        if (!FIELDS(v, "", summary_f, "a summary message", e))
                return false;
        status = json_string_value(json_object_get(v, "status"));
        if (!in(status, statuses, PRC_ARRAY_LEN(statuses)))
                return fail(e, PRC_E_INVALID_STATUS, "/status", "status must be completed, unsupported or failed");
        c = json_object_get(v, "counters");
        if (!FIELDS(c, "/counters", counters_f, "the summary counters", e))
                return false;
        actual[0] = d->logs;
        actual[1] = d->nrecs;
        actual[2] = json_array_size(d->arts);
        for (size_t k = 0; k < 3; k++) {
                json_int_t n = json_integer_value(json_object_get(c, names[k]));
                snprintf(ptr, sizeof(ptr), "/counters/%s", names[k]);
                if (n < 0)
                        return fail(e, PRC_E_INVALID_COUNTER, ptr, "counters are non-negative integers");
        }
        for (size_t k = 0; k < 3; k++) {
                json_int_t n = json_integer_value(json_object_get(c, names[k]));
                snprintf(ptr, sizeof(ptr), "/counters/%s", names[k]);
                if ((uint64_t)n != actual[k]) {
                        prc_err_set(e, PRC_E_COUNTER_MISMATCH, "counter %s is %lld but %llu were emitted", names[k],
                                    (long long)n, (unsigned long long)actual[k]);
                        prc_err_set_ptr(e, ptr);
                        return false;
                }
        }
        snprintf(d->status, sizeof(d->status), "%s", status);
        d->summary = true;
        return true;
}

/* One complete line p[0..n) without its '\n'. */
static bool check_line(prc_decoder *d, const uint8_t *p, size_t n, prc_err *e)
{
        const json_t *t;
        const char *ts, *w;
        enum msg_type type;
        json_t *v;
        bool ok = false;
        size_t i;

        for (i = 0; i < n; i++)
                if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                        break;
        if (i == n)
                return prc_err_set(e, PRC_E_BLANK_LINE, "blank line");
        if (++d->messages > d->lim.messages)
                return prc_err_set(e, PRC_E_TOO_MANY_MESSAGES, "more than %llu messages",
                                   (unsigned long long)d->lim.messages);
        v = prc_json_parse(p, n, &d->jlim, 0, e);
        if (v == NULL) {
                /* jansson's text can quote the input: keep only prc's own description */
                snprintf(e->msg, sizeof(e->msg), "%s", prc_err_doc(e->cls));
                e->ptr[0] = '\0';
                return false;
        }
        if (!json_is_object(v)) {
                prc_err_set(e, PRC_E_NOT_AN_OBJECT, "a message must be a JSON object, got %s", prc_json_type_name(v));
                goto out;
        }
        t = json_object_get(v, "type");
        if (t == NULL) {
                fail(e, PRC_E_MISSING_FIELD, "/type", "a message needs a type");
                goto out;
        }
        if (!json_is_string(t)) {
                fail(e, PRC_E_WRONG_TYPE, "/type", "type must be a string");
                goto out;
        }
        ts = json_string_value(t);
        for (type = M_LOG; type <= M_SUMMARY; type++)
                if (strcmp(ts, type_names[type]) == 0)
                        break;
        if (type > M_SUMMARY) {
                fail(e, PRC_E_UNKNOWN_MESSAGE_TYPE, "/type", "type must be log, artifact, observation or summary");
                goto out;
        }
        if (!prc_authority_scan(v, PRC_AUTH_EVALUATOR, type == M_SUMMARY, e))
                goto out;
        if (type == M_OBSERVATION || type == M_SUMMARY) {
                const char *k = type == M_OBSERVATION ? "outcome" : "status";
                const json_t *o = json_object_get(v, k);
                bool known = json_is_string(o) &&
                             (type == M_OBSERVATION ? in(json_string_value(o), outcomes, PRC_ARRAY_LEN(outcomes))
                                                    : in(json_string_value(o), statuses, PRC_ARRAY_LEN(statuses)));
                if (json_is_string(o) && !known &&
                    (w = prc_authority_value(json_string_value(o), json_string_length(o))) != NULL) {
                        prc_err_set(e, PRC_E_AUTHORITY_CLAIM, "%s '%s' is an assessment, not an %s", k, w,
                                    type == M_OBSERVATION ? "observation" : "execution status");
                        prc_err_set_ptr(e, type == M_OBSERVATION ? "/outcome" : "/status");
                        goto out;
                }
        }
        switch (type) {
        case M_LOG: ok = check_log(d, v, e); break;
        case M_ARTIFACT: ok = check_artifact(d, v, e); break;
        case M_OBSERVATION: ok = check_observation(d, v, p, n, e); break;
        case M_SUMMARY: ok = check_summary(d, v, e); break;
        }
out:
        json_decref(v);
        return ok;
}

static void complete_line(prc_decoder *d, const uint8_t *p, size_t n)
{
        prc_err e;

        prc_err_init(&e);
        d->lines++;
        if (!check_line(d, p, n, &e)) {
                uint64_t off = d->line_start + (e.off != PRC_NO_OFF && e.off <= n ? e.off : 0);
                reject(d, &e, d->lines, off);
        }
}

/* Consume p[0..n), already within the stdout ceiling. */
static void consume(prc_decoder *d, const uint8_t *p, size_t n)
{
        size_t pos = 0;

        while (pos < n && d->disp == PRC_DISP_PENDING) {
                const uint8_t *nl;
                size_t seg;

                if (d->summary) {
                        reject_cls(d, PRC_E_MESSAGE_AFTER_SUMMARY, d->lines + 1, d->total,
                                   "output continues after the summary");
                        return;
                }
                nl = memchr(p + pos, '\n', n - pos);
                seg = nl ? (size_t)(nl - (p + pos)) : n - pos;
                /* The cap is checked before buffering: an endless line never grows past it. */
                if ((uint64_t)d->line.len + seg > d->lim.line_bytes) {
                        char msg[96];
                        snprintf(msg, sizeof(msg), "line longer than %llu bytes",
                                 (unsigned long long)d->lim.line_bytes);
                        reject_cls(d, PRC_E_LINE_TOO_LONG, d->lines + 1, d->line_start, msg);
                        return;
                }
                if (nl != NULL && d->line.len == 0) {
                        /* whole line in this chunk: decode in place, no copy */
                        d->total += seg + 1;
                        complete_line(d, p + pos, seg);
                } else {
                        prc_err e;
                        prc_err_init(&e);
                        if (!prc_buf_put(&d->line, p + pos, seg, &e)) {
                                reject(d, &e, d->lines + 1, d->total);
                                return;
                        }
                        d->total += seg;
                        if (nl == NULL)
                                break;
                        d->total++;
                        complete_line(d, d->line.data ? d->line.data : (const uint8_t *)"", d->line.len);
                        prc_buf_reset(&d->line);
                }
                pos += seg + 1;
                d->line_start = d->total;
        }
}

bool prc_decoder_feed(prc_decoder *d, const void *vp, size_t n)
{
        const uint8_t *p = vp;
        uint64_t room;
        size_t take;
        prc_err e;

        if (d->disp != PRC_DISP_PENDING || d->finished)
                return false;
        room = d->lim.stdout_bytes - d->total;
        take = (uint64_t)n > room ? (size_t)room : n;
        prc_err_init(&e);
        if (take > 0 && !prc_sha256_update(d->h, p, take, &e)) {
                reject(d, &e, 0, d->total);
                return false;
        }
        consume(d, p, take);
        if (d->disp == PRC_DISP_PENDING && take < n) {
                if (d->summary)
                        reject_cls(d, PRC_E_MESSAGE_AFTER_SUMMARY, d->lines + 1, d->total,
                                   "output continues after the summary");
                else
                        reject_cls(d, PRC_E_STDOUT_LIMIT, d->lines + 1, d->total,
                                   "standard output is longer than the stdout_bytes limit");
        }
        return d->disp == PRC_DISP_PENDING;
}

bool prc_decoder_finish(prc_decoder *d, const prc_exec_end *end)
{
        uint8_t raw[PRC_SHA256_LEN];
        prc_err e;

        if (d->finished)
                return d->disp == PRC_DISP_ACCEPTED;
        d->finished = true;
        prc_err_init(&e);
        if (prc_sha256_final(d->h, raw, &e))
                prc_hex_encode(raw, sizeof(raw), d->sha);
        else if (d->disp == PRC_DISP_PENDING)
                reject(d, &e, 0, PRC_NO_OFF);
        if (d->disp != PRC_DISP_PENDING)
                return false;
        /* The way the run ended explains a truncated transcript: report the cause, not the symptom. */
        if (end != NULL && end->timed_out)
                reject_cls(d, PRC_E_ADAPTER_TIMED_OUT, 0, PRC_NO_OFF, "the adapter hit its wall-time limit");
        else if (end != NULL && end->memory_limit)
                reject_cls(d, PRC_E_ADAPTER_MEMORY_LIMIT, 0, PRC_NO_OFF, "the adapter was killed at its memory limit");
        else if (d->line.len > 0)
                reject_cls(d, PRC_E_UNTERMINATED_LINE, d->lines + 1, d->line_start,
                           "output ends inside a line (no final newline)");
        else if (!d->summary)
                reject_cls(d, PRC_E_MISSING_SUMMARY, d->lines + 1, d->total, "output ended without a summary");
        else if (end != NULL && end->exit_status != 0)
                reject_cls(d, PRC_E_ADAPTER_EXIT_STATUS, 0, PRC_NO_OFF, "the adapter exited with a nonzero status");
        else
                d->disp = PRC_DISP_ACCEPTED;
        return d->disp == PRC_DISP_ACCEPTED;
}

prc_disposition prc_decoder_disposition(const prc_decoder *d) { return d->disp; }
const prc_err *prc_decoder_error(const prc_decoder *d) { return &d->err; }
uint64_t prc_decoder_log_count(const prc_decoder *d) { return d->logs; }
uint64_t prc_decoder_bytes(const prc_decoder *d) { return d->total; }
uint64_t prc_decoder_lines(const prc_decoder *d) { return d->lines; }
const char *prc_decoder_stdout_sha256(const prc_decoder *d) { return d->sha; }

const char *prc_decoder_summary_status(const prc_decoder *d)
{
        /* like observations: a rejected transcript's summary says nothing */
        return d->summary && d->disp == PRC_DISP_ACCEPTED ? d->status : NULL;
}

const json_t *prc_decoder_observations(const prc_decoder *d)
{
        prc_decoder *w = (prc_decoder *)d;     /* the lazy cache is not part of the observable state */
        prc_err e;

        if (d->disp != PRC_DISP_ACCEPTED || d->briefs_only)
                return d->empty;
        if (d->obs != NULL)
                return d->obs;
        prc_err_init(&e);
        w->obs = json_array();
        for (size_t i = 0; w->obs != NULL && i < d->nrecs; i++) {
                const struct obs_rec *r = &d->recs[i];
                json_t *v = prc_json_parse(d->arena.data + r->line_off, r->line_len, &d->jlim, 0, &e);
                /* these lines passed every check already: a failure here is memory, not input */
                if (v == NULL || json_array_append_new(w->obs, v) != 0) {
                        json_decref(w->obs);
                        w->obs = NULL;
                }
        }
        return d->obs ? d->obs : d->empty;
}

void prc_decoder_keep_briefs_only(prc_decoder *d)
{
        if (d->total == 0)
                d->briefs_only = true;
}

size_t prc_decoder_observation_count(const prc_decoder *d)
{
        return d->disp == PRC_DISP_ACCEPTED ? d->nrecs : 0;
}

bool prc_decoder_observation_brief(const prc_decoder *d, size_t i, const char **out_id, const char **out_kind,
                                   const char **out_outcome)
{
        if (d->disp != PRC_DISP_ACCEPTED || i >= d->nrecs)
                return false;
        *out_id = (const char *)d->arena.data + d->recs[i].id_off;
        *out_kind = (const char *)d->arena.data + d->recs[i].kind_off;
        *out_outcome = outcomes[d->recs[i].outcome];
        return true;
}

const json_t *prc_decoder_artifacts(const prc_decoder *d)
{
        return d->disp == PRC_DISP_ACCEPTED ? d->arts : d->empty;
}

prc_decoder *prc_decode_transcript(const prc_manifest *m, const prc_proto_limits *lim, const void *p, size_t n,
                                   const prc_exec_end *end, prc_err *err)
{
        prc_decoder *d = prc_decoder_new(m, lim, err);

        if (d == NULL)
                return NULL;
        (void)prc_decoder_feed(d, p, n);        /* the disposition says how it went */
        (void)prc_decoder_finish(d, end);
        return d;
}

static bool put_line(const json_t *v, prc_buf *out, prc_err *err)
{
        return v != NULL ? prc_jcs_write(v, out, err) && prc_buf_putc(out, '\n', err)
                         : prc_err_oom(err, "request line");
}

bool prc_proto_write_request(const char *run_id, const char *target_name, const char *inventory_digest,
                             const json_t *facts, const json_t *config, prc_buf *out, prc_err *err)
{
        json_t *hello, *input, *exec;
        size_t mark = out->len;
        bool ok;

        if (!prc_digest_valid(run_id))
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "run_id must be 64 lowercase hex characters");
        if (!prc_digest_valid(inventory_digest))
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "inventory_digest must be 64 lowercase hex characters");
        if (!prc_gram_text(target_name, strlen(target_name), 4096))
                return prc_err_set(err, PRC_E_INVALID_VALUE, "target_name must be non-empty text without control characters");
        if ((facts != NULL && !json_is_object(facts)) || (config != NULL && !json_is_object(config)))
                return prc_err_set(err, PRC_E_WRONG_TYPE, "facts and config must be objects");
        hello = json_pack("{s:s,s:s,s:s}", "type", "hello", "protocol", PRC_ADAPTER_PROTOCOL_JSONL, "run_id", run_id);
        /* "o" steals: hand it a fresh reference either way */
        input = json_pack("{s:s,s:{s:s,s:s},s:o,s:o}", "type", "input", "subject", "target_name", target_name,
                          "inventory_digest", inventory_digest,
                          "facts", facts ? json_incref((json_t *)facts) : json_object(),
                          "config", config ? json_incref((json_t *)config) : json_object());
        exec = json_pack("{s:s}", "type", "execute");
        ok = put_line(hello, out, err) && put_line(input, out, err) && put_line(exec, out, err);
        if (!ok)
                out->len = mark;        /* all three lines or none */
        json_decref(hello);
        json_decref(input);
        json_decref(exec);
        return ok;
}

bool prc_stderr_meter_init(prc_stderr_meter *s, uint64_t cap, prc_err *err)
{
        memset(s, 0, sizeof(*s));
        s->cap = cap;
        s->h = prc_sha256_new(err);
        return s->h != NULL;
}

bool prc_stderr_meter_feed(prc_stderr_meter *s, const void *p, size_t n, prc_err *err)
{
        s->bytes += n;
        return prc_sha256_update(s->h, p, n, err);
}

bool prc_stderr_meter_finish(prc_stderr_meter *s, prc_err *err)
{
        uint8_t raw[PRC_SHA256_LEN];

        if (!prc_sha256_final(s->h, raw, err))
                return false;
        prc_hex_encode(raw, sizeof(raw), s->sha256);
        return true;
}

void prc_stderr_meter_clear(prc_stderr_meter *s)
{
        prc_sha256_free(s->h);
        s->h = NULL;
}
