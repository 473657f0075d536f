/*
 * runfile.c - a run result read back from a file (see runfile.h).
 */
#include "engine/runfile.h"

#include <string.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "engine/findings.h"
#include "engine/scan.h"

static bool bad(prc_err *err, const char *role, const char *ptr, const char *why)
{
        prc_err_set(err, PRC_E_RUN_RESULT_INVALID, "%s is not a prc run result: %s", role, why);
        prc_err_set_ptr(err, ptr);
        return false;
}

static bool strings(const json_t *o, const char *const *keys, const char *role, const char *ptr, prc_err *err)
{
        for (size_t i = 0; keys[i] != NULL; i++)
                if (!json_is_string(json_object_get(o, keys[i]))) {
                        char p[128];
                        snprintf(p, sizeof(p), "%s/%s", ptr, keys[i]);
                        return bad(err, role, p, "a required string is missing");
                }
        return true;
}

static bool row_ok(const json_t *row, size_t i, const char *role, prc_err *err)
{
        static const char *const keys[] = { "id", "title", "control", "severity", "state", "reason", "rationale",
                                            "remediation", "decision_rule", NULL };
        const json_t *f;
        char ptr[64];
        size_t j;

        snprintf(ptr, sizeof(ptr), "/assertions/%zu", i);
        if (!json_is_object(row))
                return bad(err, role, ptr, "an assertion is not an object");
        if (!strings(row, keys, role, ptr, err))
                return false;
        if (prc_state_rank(json_string_value(json_object_get(row, "state"))) < 0)
                return bad(err, role, ptr, "an assertion's state is not one of the five");
        if (!json_is_array(json_object_get(row, "evidence")))
                return bad(err, role, ptr, "an assertion's evidence is not a list");
        if ((strcmp(json_string_value(json_object_get(row, "state")), "Pass") != 0) !=
            json_is_array(json_object_get(row, "findings")))
                return bad(err, role, ptr, "findings are listed exactly when the state is not Pass");
        json_array_foreach(json_object_get(row, "findings"), j, f)
                if (!prc_digest_valid(json_string_value(json_object_get(f, "digest"))))
                        return bad(err, role, ptr, "a finding's digest is not a SHA-256");
        return true;
}

bool prc_runfile_check(const json_t *run, const char *role, prc_err *err)
{
        static const char *const keys[] = { "id", "schema", "prc_version", "mode", "profile", NULL };
        const json_t *row;
        char id[PRC_SHA256_HEX + 1];
        size_t i;

        if (!json_is_object(run))
                return bad(err, role, "", "not an object");
        if (!strings(run, keys, role, "", err))
                return false;
        if (strcmp(json_string_value(json_object_get(run, "schema")), PRC_RUN_SCHEMA) != 0)
                return bad(err, role, "/schema", "the schema is not " PRC_RUN_SCHEMA);
        if (!prc_jcs_id(run, "id", id, err))
                return false;
        if (strcmp(id, json_string_value(json_object_get(run, "id"))) != 0)
                return bad(err, role, "/id", "its id is not the digest of its content (edited, or not a result)");
        if (!json_is_array(json_object_get(run, "assertions")) || !json_is_array(json_object_get(run, "coverage_gaps")) ||
            !json_is_object(json_object_get(run, "summary")) || !json_is_object(json_object_get(run, "target")) ||
            !json_is_object(json_object_get(run, "catalog")))
                return bad(err, role, "", "assertions, coverage_gaps, summary, target or catalog is missing");
        json_array_foreach(json_object_get(run, "assertions"), i, row)
                if (!row_ok(row, i, role, err))
                        return false;
        return true;
}

json_t *prc_runfile_load(const char *path, const char *role, prc_err *err)
{
        prc_limits lim = prc_limits_default;
        json_t *v = NULL;
        prc_buf b;

        lim.input_max = PRC_RUNFILE_MAX;
        prc_buf_init(&b, PRC_RUNFILE_MAX);
        if (prc_file_read_as(path, role, PRC_RUNFILE_MAX, PRC_FILE_NOFOLLOW, &b, err))
                v = prc_json_parse(b.data != NULL ? b.data : (const uint8_t *)"", b.len, &lim, 0, err);
        if (v != NULL && !prc_runfile_check(v, role, err)) {
                json_decref(v);
                v = NULL;
        }
        if (v == NULL)
                prc_err_set_file(err, path);
        prc_buf_clear(&b);
        return v;
}
