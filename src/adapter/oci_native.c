/*
 * oci_native.c - native-protocol glue of the OCI runner (oci_native.h).
 *
 * Trust: everything the container wrote is hostile and only reaches the
 * normalizer, bounded by the manifest's stdout_bytes; the ruleset is
 * trusted only after prc_gitleaks_ruleset_load matched both its digests.
 */
#include "adapter/oci_native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapter/native/gitleaks.h"
#include "adapter/native/grype.h"
#include "adapter/oci.h"
#include "adapter/setup.h"
#include "inventory/snapshot.h"

/* The digest the stand-in gate compares with, or NULL (release builds: always NULL). */
static const char *standin_digest(void)
{
#if defined(PRC_TESTING) && PRC_TESTING
        const char *s = getenv(PRC_OCI_STANDIN_ENV);
        return s != NULL && s[0] != '\0' ? s : NULL;
#else
        return NULL;
#endif
}

static bool gate(const prc_native_spec *s, const prc_manifest *m, prc_err *err)
{
        const char *sd = standin_digest();

        /* The override is checked first and in every build: a wrong one is an error, never a skip. */
        if (!prc_native_check_override(s, getenv(PRC_OCI_NATIVE_OVERRIDE_ENV), err))
                return false;
        /* A comma-separated list: one scan may run several stand-ins (Syft and Grype), each by its own digest. */
        for (const char *p = sd, *d = prc_manifest_image_digest(m); p != NULL && *p != '\0';) {
                size_t n = strcspn(p, ",");
                if (n == strlen(d) && strncmp(p, d, n) == 0)
                        return prc_native_check_standin(m, d, err);
                p += n + (p[n] == ',');
        }
        return prc_native_check_manifest(m, true, err);
}

bool prc_oci_native_gate(const prc_manifest *m, prc_err *err)
{
        const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));

        return s == NULL || gate(s, m, err);
}

/* The mounted database's identity is kept: the report must name that database, not another one. */
static bool grype_db(const prc_oci_request *rq, int64_t now, json_t **out_id, prc_err *err)
{
        for (size_t i = 0; i < rq->ndata; i++) {
                if (strcmp(rq->data[i].name, PRC_NATIVE_GRYPE_DB_DATA) != 0)
                        continue;
                return prc_grype_db_check(rq->data[i].path, now, out_id, err);
        }
        return prc_err_set(err, PRC_E_INVALID_VALUE, "the Grype protocol needs --adapter-data ID/%s=DIR",
                           PRC_NATIVE_GRYPE_DB_DATA);
}

bool prc_oci_native_begin(prc_oci_native *n, const prc_oci_request *rq, prc_err *err)
{
        const prc_manifest_limits *L = prc_manifest_limits_of(rq->m);

        memset(n, 0, sizeof(*n));
        prc_buf_init(&n->in, (size_t)L->stdin_bytes);
        prc_buf_init(&n->out, (size_t)L->stdout_bytes);
        n->spec = prc_native_spec_for(prc_manifest_protocol(rq->m));
        if (n->spec == NULL)
                return true;
        n->now = rq->now;
        if (!gate(n->spec, rq->m, err))
                return false;
        if (n->spec->stdin_ruleset) {
                const char *path = rq->ruleset_path;
                char stored[4096];
                if (path == NULL || path[0] == '\0')
                        path = getenv(PRC_OCI_RULESET_ENV);
                /* issue 17: else the copy `prc setup native` stored in the user's data directory */
                if ((path == NULL || path[0] == '\0') && prc_setup_stored_ruleset(stored, sizeof(stored)))
                        path = stored;
                if (path == NULL || path[0] == '\0')
                        return prc_err_set(err, PRC_E_NATIVE_RULESET_MISSING,
                                           "the %s protocol reads the pinned Gitleaks ruleset on stdin: run "
                                           "`prc setup native` (or give --gitleaks-ruleset FILE or set "
                                           PRC_OCI_RULESET_ENV ")", n->spec->protocol);
                prc_buf tmp;
                prc_buf_init(&tmp, PRC_GITLEAKS_RULESET_SIZE);
                bool ok = prc_gitleaks_ruleset_load(path, &tmp, err);
                if (ok && tmp.len > n->in.max) {
                        ok = prc_err_set(err, PRC_E_INVALID_VALUE, "the ruleset (%zu bytes) exceeds stdin_bytes",
                                         tmp.len);
                        prc_err_set_ptr(err, "/limits/stdin_bytes");
                }
                if (ok)
                        ok = prc_buf_put(&n->in, tmp.data, tmp.len, err);
                if (ok) {
                        n->rule_ids = prc_gitleaks_rule_ids(tmp.data, tmp.len);
                        if (n->rule_ids == NULL)
                                ok = prc_err_oom(err, "rule ids");
                }
                prc_buf_clear(&tmp);
                if (!ok)
                        return false;
        }
        if (n->spec->data != NULL && strcmp(n->spec->data, PRC_NATIVE_GRYPE_DB_DATA) == 0 &&
            !grype_db(rq, rq->now, &n->db, err))
                return false;
        return true;
}

bool prc_oci_native_owned(prc_oci_native *n, const prc_inventory *inv, prc_snapshot *snap, prc_err *err)
{
        if (n->spec == NULL)
                return true;
        if (!prc_native_add_owned(n->spec, inv, snap, &n->relocated, err))
                return false;
        n->paths = prc_native_paths(inv);
        if (n->paths == NULL)
                return prc_err_oom(err, "inventory paths");
        return true;
}

bool prc_oci_native_feed(prc_oci_native *n, const uint8_t *p, size_t len)
{
        prc_err e = {0};
        if (n->over)
                return false;
        if (!prc_buf_put(&n->out, p, len, &e)) {
                /* buffer-limit or out-of-memory: either way the report is not judged. */
                n->over = true;
                return false;
        }
        return true;
}

static bool reject(prc_errclass c, const char *m, prc_errclass *out_cls, char *msg, size_t cap)
{
        *out_cls = c;
        snprintf(msg, cap, "%s", m);
        return false;
}

bool prc_oci_native_finish(prc_oci_native *n, int exit_status, prc_errclass *out_cls, char *msg, size_t cap)
{
        prc_err e = {0};

        if (n->spec == NULL)
                return reject(PRC_E_INTERNAL, "not a native run", out_cls, msg, cap);
        if (n->over)
                return reject(PRC_E_STDOUT_LIMIT, "the report passed stdout_bytes", out_cls, msg, cap);
        if (exit_status != n->spec->exit_clean && exit_status != n->spec->exit_found)
                return reject(PRC_E_ADAPTER_EXIT_STATUS, "the tool exited with a status its protocol does not accept",
                              out_cls, msg, cap);
        prc_native_ctx ctx = { .now = n->now, .paths = n->paths, .relocated_gitleaksignore = n->relocated,
                               .rule_ids = n->rule_ids, .db = n->db };
        if (!prc_native_normalize(n->spec, n->out.data != NULL ? n->out.data : (const uint8_t *)"", n->out.len,
                                  &ctx, &n->res, &e))
                return reject(e.cls, e.msg, out_cls, msg, cap);
        n->have_res = true;
        /* A clean exit with findings, or the findings status with none, is a tool that lies about itself. */
        if (n->spec->exit_found != n->spec->exit_clean) {
                bool found = false;
                size_t i;
                json_t *o;
                json_array_foreach(n->res.observations, i, o) {
                        const char *oc = json_string_value(json_object_get(o, "outcome"));
                        found |= oc != NULL && strcmp(oc, "found") == 0;
                }
                if (found != (exit_status == n->spec->exit_found)) {
                        prc_native_result_clear(&n->res);
                        n->have_res = false;
                        return reject(PRC_E_ADAPTER_EXIT_STATUS, "the exit status disagrees with the report's findings",
                                      out_cls, msg, cap);
                }
        }
        return true;
}

/*
 * The record's observations: exactly the jsonl shape (id, kind, outcome,
 * locations, value).  Protocol extras (Gitleaks' rule_id) stay in the
 * normalized artifact the record's artifacts[0] names; Syft's value names
 * that artifact by its SHA-256 (the engine checks the two agree).
 */
json_t *prc_oci_native_observations(const prc_oci_native *n)
{
        json_t *a = json_array(), *o;
        size_t i;

        if (a == NULL || !n->have_res)
                return a;
        json_array_foreach(n->res.observations, i, o) {
                json_t *loc = json_object_get(o, "locations"), *val = json_object_get(o, "value");
                json_t *r = json_pack("{s:O,s:O,s:O,s:o,s:o}", "id", json_object_get(o, "id"), "kind",
                                      json_object_get(o, "kind"), "outcome", json_object_get(o, "outcome"),
                                      "locations", loc != NULL ? json_deep_copy(loc) : json_array(), "value",
                                      val != NULL ? json_deep_copy(val) : json_null());
                if (r == NULL || json_array_append_new(a, r) != 0) {
                        json_decref(a);
                        return NULL;
                }
        }
        return a;
}

json_t *prc_oci_native_artifacts(const prc_oci_native *n)
{
        if (!n->have_res)
                return json_array();
        return json_pack("[{s:s,s:s,s:I,s:s,s:O}]", "id", n->spec->tool, "media_type", n->res.artifact_media_type,
                         "size", (json_int_t)n->res.artifact_len, "sha256", n->res.artifact_sha256, "report",
                         n->res.report);
}

uint64_t prc_oci_native_stdout_bytes(const prc_oci_native *n)
{
        return n->out.len;
}

const char *prc_oci_native_stdout_sha256(prc_oci_native *n, prc_err *err)
{
        if (n->stdout_sha256[0] == '\0' &&
            !prc_sha256_hex_once(n->out.data != NULL ? n->out.data : (const uint8_t *)"", n->out.len,
                                 n->stdout_sha256, err))
                return NULL;
        return n->stdout_sha256;
}

void prc_oci_native_clear(prc_oci_native *n)
{
        prc_buf_clear(&n->in);
        prc_buf_clear(&n->out);
        json_decref(n->rule_ids);
        json_decref(n->paths);
        json_decref(n->db);
        prc_native_result_clear(&n->res);
        memset(n, 0, sizeof(*n));
}
