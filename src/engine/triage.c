/*
 * triage.c - baselines and suppressions (see triage.h).
 * Pure but for prc_suppressions_load's read of the operator's file.
 */
#include "engine/triage.h"

#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "base/testkeep.h"
#include "engine/findings.h"

static bool invalid(prc_err *err, const char *ptr, const char *why)
{
        prc_err_set(err, PRC_E_SUPPRESSIONS_INVALID, "the suppressions file: %s", why);
        prc_err_set_ptr(err, ptr);
        return false;
}

/* YYYY-MM-DD with a month of 01-12 and a day of 01-31. */
static bool date_ok(const char *s)
{
        static const char shape[] = "dddd-dd-dd";
        int mon, day;

        if (s == NULL || strlen(s) != sizeof(shape) - 1)
                return false;
        for (size_t i = 0; shape[i]; i++)
                if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
                        return false;
        mon = (s[5] - '0') * 10 + (s[6] - '0');
        day = (s[8] - '0') * 10 + (s[9] - '0');
        return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

bool prc_suppressions_check(const json_t *doc, prc_err *err)
{
        static const prc_field top[] = {
                { "schema", PRC_JT_STRING, true },
                { "suppressions", PRC_JT_ARRAY, true },
        };
        static const prc_field entry[] = {
                { "assertion", PRC_JT_STRING, true },
                { "digest", PRC_JT_STRING, true },
                { "reason", PRC_JT_STRING, true },
                { "expires", PRC_JT_STRING, true },
        };
        const json_t *e, *f;
        size_t i, j;
        prc_err fe;

        prc_err_init(&fe);
        if (!prc_json_fields(doc, "", top, PRC_ARRAY_LEN(top), &fe))
                return invalid(err, fe.ptr, fe.msg);
        if (strcmp(json_string_value(json_object_get(doc, "schema")), PRC_SUPPRESSIONS_SCHEMA) != 0)
                return invalid(err, "/schema", "the schema is not " PRC_SUPPRESSIONS_SCHEMA);
        if (json_array_size(json_object_get(doc, "suppressions")) > PRC_SUPPRESSIONS_MAX)
                return invalid(err, "/suppressions", "more than 10000 entries");
        json_array_foreach(json_object_get(doc, "suppressions"), i, e) {
                char ptr[64];
                snprintf(ptr, sizeof(ptr), "/suppressions/%zu", i);
                if (!prc_json_fields(e, ptr, entry, PRC_ARRAY_LEN(entry), &fe))
                        return invalid(err, fe.ptr, fe.msg);
                if (!prc_digest_valid(json_string_value(json_object_get(e, "digest"))))
                        return invalid(err, ptr, "digest is not a finding digest (64 lowercase hex)");
                if (!date_ok(json_string_value(json_object_get(e, "expires"))))
                        return invalid(err, ptr, "expires is not a date YYYY-MM-DD");
                if (json_string_length(json_object_get(e, "reason")) == 0 ||
                    json_string_length(json_object_get(e, "assertion")) == 0)
                        return invalid(err, ptr, "the assertion and the reason must not be empty");
                for (j = 0; j < i; j++) {
                        f = json_array_get(json_object_get(doc, "suppressions"), j);
                        if (json_equal(json_object_get(f, "assertion"), json_object_get(e, "assertion")) &&
                            json_equal(json_object_get(f, "digest"), json_object_get(e, "digest")))
                                return invalid(err, ptr, "the same assertion and digest are suppressed twice");
                }
        }
        return true;
}

json_t *prc_suppressions_load(const char *path, char out_sha256[PRC_SHA256_HEX + 1], prc_err *err)
{
        prc_limits lim = prc_limits_default;
        char sha[PRC_SHA256_HEX + 1];
        json_t *v = NULL;
        prc_buf b;

        lim.input_max = PRC_SUPPRESSIONS_MAX_BYTES;
        prc_buf_init(&b, PRC_SUPPRESSIONS_MAX_BYTES);
        if (prc_file_read_as(path, "the suppressions file", PRC_SUPPRESSIONS_MAX_BYTES, PRC_FILE_NOFOLLOW, &b, err) &&
            prc_sha256_hex_once(b.data != NULL ? b.data : (const uint8_t *)"", b.len, sha, err))
                v = prc_json_parse(b.data != NULL ? b.data : (const uint8_t *)"", b.len, &lim, 0, err);
        if (v != NULL && !prc_suppressions_check(v, err)) {
                json_decref(v);
                v = NULL;
        }
        if (v == NULL)
                prc_err_set_file(err, path);
        else
                memcpy(out_sha256, sha, sizeof(sha));
        prc_buf_clear(&b);
        return v;
}

static const json_t *row_of(const json_t *run, const char *id)
{
        const json_t *row;
        size_t i;

        json_array_foreach(json_object_get(run, "assertions"), i, row)
                if (strcmp(json_string_value(json_object_get(row, "id")), id) == 0)
                        return row;
        return NULL;
}

static bool listed(const json_t *row, const char *digest)
{
        const json_t *f;
        size_t i;

        json_array_foreach(json_object_get(row, "findings"), i, f)
                if (strcmp(json_string_value(json_object_get(f, "digest")), digest) == 0)
                        return true;
        return false;
}

/* The entry naming (id, digest), or NULL. */
static json_t *entry_for(json_t *entries, const char *id, const char *digest)
{
        json_t *e;
        size_t i;

        json_array_foreach(entries, i, e)
                if (strcmp(json_string_value(json_object_get(e, "assertion")), id) == 0 &&
                    strcmp(json_string_value(json_object_get(e, "digest")), digest) == 0)
                        return e;
        return NULL;
}

/* Triage one row; true when it is reported. */
static bool triage_row(json_t *row, const json_t *baseline, json_t *entries, const char *today)
{
        const char *id = json_string_value(json_object_get(row, "id"));
        const json_t *old = baseline != NULL ? row_of(baseline, id) : NULL;
        size_t i, nsup = 0, nnew = 0, n = json_array_size(json_object_get(row, "findings"));
        bool worse;
        json_t *f;

        json_array_foreach(json_object_get(row, "findings"), i, f) {
                const char *dig = json_string_value(json_object_get(f, "digest"));
                json_t *e = entries != NULL ? entry_for(entries, id, dig) : NULL;
                const char *st = "new";
                if (e != NULL && strcmp(today, json_string_value(json_object_get(e, "expires"))) < 0) {
                        json_object_set_new(e, "status", json_string("applied"));
                        st = "suppressed";
                        nsup++;
                } else {
                        if (e != NULL)
                                json_object_set_new(e, "status", json_string("expired"));
                        if (old != NULL && listed(old, dig))
                                st = "baseline";
                        else
                                nnew++;
                }
                json_object_set_new(f, "status", json_string(st));
        }
        worse = baseline != NULL && (old == NULL || prc_state_rank(json_string_value(json_object_get(row, "state"))) >
                                                    prc_state_rank(json_string_value(json_object_get(old, "state"))));
        return nnew > 0 || (worse && nsup < n);
}

bool prc_triage_apply(json_t *run, const json_t *baseline, const json_t *supp, const char *supp_sha256,
                      const char *now, int *out_exit, prc_err *err)
{
        json_t *tr = json_object(), *entries = NULL, *row, *e;
        char today[11] = "", id[PRC_SHA256_HEX + 1];
        json_int_t reported = 0;
        size_t i;

        if (tr == NULL)
                return prc_err_oom(err, "the triage");
        if (supp != NULL) {
                if (now == NULL || strlen(now) < 10) {
                        json_decref(tr);
                        return prc_err_set(err, PRC_E_USAGE, "suppressions expire: give the clock with --now");
                }
                memcpy(today, now, 10);
                entries = json_deep_copy(json_object_get(supp, "suppressions"));
                json_array_foreach(entries, i, e)
                        json_object_set_new(e, "status", json_string("unmatched"));
                json_object_set_new(tr, "suppressions", json_pack("{s:s,s:o}", "sha256", supp_sha256, "entries",
                                                                   entries));
        }
        if (baseline != NULL)
                json_object_set_new(tr, "baseline", json_pack("{s:O,s:O}", "id", json_object_get(baseline, "id"),
                                                              "inventory_digest",
                                                              json_object_get(json_object_get(baseline, "target"),
                                                                              "inventory_digest")));
        json_array_foreach(json_object_get(run, "assertions"), i, row) {
                bool rep;
                if (strcmp(json_string_value(json_object_get(row, "state")), "Pass") == 0)
                        continue;
                rep = triage_row(row, baseline, entries, today);
                json_object_set_new(row, "reported", json_boolean(rep));
                reported += rep;
        }
        json_object_set_new(tr, "reported", json_integer(reported));
        if (json_object_set_new(run, "triage", tr) != 0)
                return prc_err_oom(err, "the triage");
        if (!prc_jcs_id(run, "id", id, err))
                return false;
        if (json_object_set_new(run, "id", json_string(id)) != 0)
                return prc_err_oom(err, "the run result");
        prc_test_keep("run", run);
        *out_exit = reported > 0 ? 1 : 0;
        return true;
}
