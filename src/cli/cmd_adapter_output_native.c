/*
 * cmd_adapter_output_native.c - the native-protocol branch of `prc adapter
 * validate-output`: run the protocol's normalizer on a recorded native
 * report (Gitleaks JSON, Syft CycloneDX, Grype JSON) instead of the JSONL
 * decoder.
 * Trust: the manifest is operator input (checked against the protocol's
 * scanner-owned command); the report is hostile.  Report bytes are never
 * echoed: only prc's error vocabulary, observation ids, kinds and outcomes,
 * and digests.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "adapter/manifest.h"
#include "adapter/native/native.h"
#include "base/buf.h"
#include "base/file.h"

int cli_adapter_output_native(const prc_manifest *m, const char *path, const char *format, const char *now);

/* The JSON report (new reference) of one native normalization. */
static json_t *report_json(const prc_manifest *m, const prc_native_result *r, const prc_err *e, size_t bytes,
                           const char *sha)
{
        json_t *ol = json_array(), *v, *o;
        size_t i;

        if (ol == NULL)
                return NULL;
        if (r != NULL) {
                json_array_foreach(r->observations, i, v) {
                        if (json_array_append_new(ol, json_pack("{s:O,s:O,s:O}", "id", json_object_get(v, "id"),
                                                                "kind", json_object_get(v, "kind"), "outcome",
                                                                json_object_get(v, "outcome"))) != 0) {
                                json_decref(ol);
                                return NULL;
                        }
                }
        }
        o = json_pack("{s:s,s:o,s:o,s:s,s:s,s:s,s:o,s:o,s:{s:I,s:s}}", "disposition", r ? "accepted" : "rejected",
                      "error_class", e->cls ? json_string(prc_err_name(e->cls)) : json_null(), "error",
                      e->cls ? cli_err_json(e) : json_null(), "manifest_sha256", prc_manifest_sha256(m),
                      "adapter_id", prc_manifest_adapter_id(m), "protocol", prc_manifest_protocol(m),
                      "observations", ol, "artifact",
                      r ? json_pack("{s:s,s:I,s:s}", "media_type", r->artifact_media_type, "size",
                                    (json_int_t)r->artifact_len, "sha256", r->artifact_sha256)
                        : json_null(),
                      "report", "size", (json_int_t)bytes, "sha256", sha);
        return o;
}

int cli_adapter_output_native(const prc_manifest *m, const char *path, const char *format, const char *now)
{
        const prc_native_spec *s = prc_native_spec_for(prc_manifest_protocol(m));
        prc_native_ctx ctx = { 0 };
        prc_native_result r = { 0 };
        prc_err err, nerr;
        prc_buf b;
        char sha[PRC_SHA256_HEX + 1] = "";
        bool ok;
        int rc;

        prc_err_init(&err);
        prc_err_init(&nerr);
        if (now != NULL) {
                if (!prc_native_time(now, &ctx.now))
                        return cli_usage("adapter validate-output", "--now takes an RFC 3339 time");
        } else {
                ctx.now = (int64_t)time(NULL);
        }
        /* validation of a recorded report: the command must match; the image review is for execution */
        if (s == NULL || !prc_native_check_manifest(m, false, &err)) {
                cli_print_err(&err);
                return cli_exit_for(&err);
        }
        prc_buf_init(&b, (size_t)prc_manifest_limits_of(m)->stdout_bytes);
        if (!prc_file_read(path, (size_t)prc_manifest_limits_of(m)->stdout_bytes, PRC_FILE_NOFOLLOW, &b, &err)) {
                prc_buf_clear(&b);
                if (err.cls == PRC_E_INPUT_TOO_LARGE)
                        err.cls = PRC_E_STDOUT_LIMIT;   /* the recorded report is over the manifest's stdout cap */
                if (err.cls == PRC_E_IO) {
                        cli_print_err(&err);
                        return cli_exit_for(&err);
                }
                nerr = err;
                ok = false;
        } else {
                if (!prc_sha256_hex_once(b.data, b.len, sha, &err)) {
                        prc_buf_clear(&b);
                        cli_print_err(&err);
                        return PRC_EXIT_EXEC;
                }
                ok = prc_native_normalize(s, b.data, b.len, &ctx, &r, &nerr);
        }
        if (strcmp(format, "json") == 0) {
                json_t *o = report_json(m, ok ? &r : NULL, &nerr, b.len, sha);
                if (o == NULL || !cli_json_out(o, &err)) {
                        if (o == NULL)
                                prc_err_oom(&err, "report");
                        cli_print_err(&err);
                        json_decref(o);
                        prc_native_result_clear(&r);
                        prc_buf_clear(&b);
                        return PRC_EXIT_EXEC;
                }
                json_decref(o);
        } else if (ok) {
                printf("accepted: %zu observations; artifact %s %zu bytes sha256 %s\n",
                       json_array_size(r.observations), r.artifact_media_type, r.artifact_len, r.artifact_sha256);
                printf("manifest %s %s\n", prc_manifest_adapter_id(m), prc_manifest_sha256(m));
        } else {
                char line[1024];
                prc_err_format(&nerr, line, sizeof(line));
                printf("rejected: %s\n", line);
        }
        rc = ok ? PRC_EXIT_OK : PRC_EXIT_FAIL;
        prc_native_result_clear(&r);
        prc_buf_clear(&b);
        return rc;
}
