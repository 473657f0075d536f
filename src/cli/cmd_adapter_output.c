/*
 * cmd_adapter_output.c - `prc adapter validate-output --manifest M --file T
 * [--format text|json]`: decode a recorded adapter transcript under the
 * exact manifest, without executing anything.
 * Trust: the manifest is operator input (never self-trusting); the
 * transcript is adapter output, hostile, streamed through the decoder.
 * Adapter bytes are never echoed: only prc's own error vocabulary, the
 * observation ids, kinds and outcomes of an accepted transcript, and digests.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "adapter/manifest.h"
#include "adapter/native/native.h"
#include "adapter/protocol.h"

/* Native protocols (cmd_adapter_output_native.c). */
int cli_adapter_output_native(const prc_manifest *m, const char *path, const char *format, const char *now);

static const char *const WHAT = "adapter validate-output";

/* Stream the file through the decoder; false (err set) only on an I/O error. */
static bool feed_file(prc_decoder *d, const char *path, prc_err *err)
{
        static uint8_t chunk[1 << 20];  /* the decoder copies nothing but a line split across reads */
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);

        if (fd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", path);
                prc_err_set_file(err, path);
                return false;
        }
        for (;;) {
                ssize_t r = read(fd, chunk, sizeof(chunk));
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0) {
                        prc_err_sys(err, PRC_E_IO, errno, "cannot read '%s'", path);
                        prc_err_set_file(err, path);
                        close(fd);
                        return false;
                }
                /* stop reading once rejected: a hostile file may be endless */
                if (r == 0 || !prc_decoder_feed(d, chunk, (size_t)r))
                        break;
        }
        close(fd);
        return true;
}

/* The JSON report of one decoded transcript (new reference, NULL on OOM). */
json_t *cli_adapter_output_json(const prc_manifest *m, const prc_decoder *d);
json_t *cli_adapter_output_json(const prc_manifest *m, const prc_decoder *d)
{
        const prc_err *e = prc_decoder_error(d);
        const json_t *arts = prc_decoder_artifacts(d);
        size_t nobs = prc_decoder_observation_count(d);
        const char *status = prc_decoder_summary_status(d);
        json_t *o, *ol = json_array(), *al = json_array();
        size_t i;
        json_t *v;

        if (ol == NULL || al == NULL)
                goto oom;
        for (i = 0; i < nobs; i++) {
                const char *id, *kind, *outcome;
                if (!prc_decoder_observation_brief(d, i, &id, &kind, &outcome) ||
                    json_array_append_new(ol, json_pack("{s:s,s:s,s:s}", "id", id, "kind", kind, "outcome",
                                                        outcome)) != 0)
                        goto oom;
        }
        json_array_foreach(arts, i, v) {
                if (json_array_append_new(al, json_pack("{s:O,s:O,s:O,s:O}", "id", json_object_get(v, "id"),
                                                        "media_type", json_object_get(v, "media_type"), "size",
                                                        json_object_get(v, "size"), "sha256",
                                                        json_object_get(v, "sha256"))) != 0)
                        goto oom;
        }
        o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:{s:I,s:I,s:s},s:{s:I,s:I,s:I},s:o}",
                      "disposition", prc_disposition_name(prc_decoder_disposition(d)),
                      "error_class", e->cls ? json_string(prc_err_name(e->cls)) : json_null(),
                      "line", e->cls && e->line ? json_integer(e->line) : json_null(),
                      "summary_status", status ? json_string(status) : json_null(),
                      "observations", ol, "artifacts", al,
                      "manifest_sha256", prc_manifest_sha256(m), "adapter_id", prc_manifest_adapter_id(m),
                      "transcript", "bytes", (json_int_t)prc_decoder_bytes(d), "lines",
                      (json_int_t)prc_decoder_lines(d), "sha256", prc_decoder_stdout_sha256(d),
                      "counters", "logs", (json_int_t)(prc_decoder_disposition(d) == PRC_DISP_ACCEPTED
                                                               ? prc_decoder_log_count(d) : 0),
                      "observations", (json_int_t)nobs, "artifacts",
                      (json_int_t)json_array_size(arts),
                      "error", e->cls ? cli_err_json(e) : json_null());
        return o;
oom:
        json_decref(ol);
        json_decref(al);
        return NULL;
}

static int refused(const char *format, const prc_err *err)
{
        if (strcmp(format, "json") == 0) {
                json_t *o = json_pack("{s:n,s:s,s:o}", "disposition", "error_class", prc_err_name(err->cls), "error",
                                      cli_err_json(err));
                prc_err e2;
                prc_err_init(&e2);
                if (o == NULL || !cli_json_out(o, &e2))
                        cli_print_err(&e2);
                json_decref(o);
        }
        cli_print_err(err);
        return cli_exit_for(err);
}

int cmd_adapter_validate_output(int argc, char **argv)
{
        static const struct option opts[] = {
                { "manifest", required_argument, NULL, 'm' },
                { "file", required_argument, NULL, 'f' },
                { "format", required_argument, NULL, 'F' },
                { "now", required_argument, NULL, 'n' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *mpath = NULL, *tpath = NULL, *format = "text", *now = NULL;
        prc_manifest *m = NULL;
        prc_decoder *d = NULL;
        prc_err err;
        int c, rc;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'm': mpath = optarg; break;
                case 'f': tpath = optarg; break;
                case 'F': format = optarg; break;
                case 'n': now = optarg; break;
                default: return cli_usage(WHAT, "bad option");
                }
        }
        if (!cli_format_ok(WHAT, format, formats))
                return PRC_EXIT_USAGE;
        if (mpath == NULL || tpath == NULL)
                return cli_usage(WHAT, "--manifest and --file are required");
        if (optind != argc)
                return cli_usage(WHAT, "unexpected argument '%s'", argv[optind]);
        m = prc_manifest_load(mpath, PRC_MANIFEST_EXECUTE, &err);
        if (m == NULL)
                return refused(format, &err);
        if (prc_native_spec_for(prc_manifest_protocol(m)) != NULL) {
                rc = cli_adapter_output_native(m, tpath, format, now);
                prc_manifest_free(m);
                return rc;
        }
        d = prc_decoder_new(m, NULL, &err);
        if (d != NULL)
                prc_decoder_keep_briefs_only(d);        /* the report lists id, kind and outcome only */
        if (d == NULL || !feed_file(d, tpath, &err)) {
                rc = refused(format, &err);
                goto out;
        }
        (void)prc_decoder_finish(d, NULL);      /* the disposition is the answer */
        if (strcmp(format, "json") == 0) {
                json_t *o = cli_adapter_output_json(m, d);
                bool ok = o != NULL && cli_json_out(o, &err);
                json_decref(o);
                if (!ok) {
                        if (o == NULL)
                                prc_err_oom(&err, "report");
                        cli_print_err(&err);
                        rc = PRC_EXIT_EXEC;
                        goto out;
                }
        } else if (prc_decoder_disposition(d) == PRC_DISP_ACCEPTED) {
                printf("accepted: %zu observations, %zu artifacts, %llu logs; summary %s\n",
                       prc_decoder_observation_count(d), json_array_size(prc_decoder_artifacts(d)),
                       (unsigned long long)prc_decoder_log_count(d), prc_decoder_summary_status(d));
                printf("manifest %s %s\n", prc_manifest_adapter_id(m), prc_manifest_sha256(m));
        } else {
                char line[1024];
                prc_err_format(prc_decoder_error(d), line, sizeof(line));
                printf("rejected: %s\n", line);
        }
        rc = prc_decoder_disposition(d) == PRC_DISP_ACCEPTED ? PRC_EXIT_OK : PRC_EXIT_FAIL;
out:
        prc_decoder_free(d);
        prc_manifest_free(m);
        return rc;
}
