/*
 * cmd_content.c - `prc content parse --format FORMAT FILE [--format-out json]`,
 * and the helpers `prc content tokenize` and `prc content archive` share.
 * Trust: FILE is target content.  This process only reads its bytes; the
 * parse happens in the sandboxed content worker, never here.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"

/* Write v (floats allowed, else canonical JSON) and a newline to stdout. */
static bool doc_out(const json_t *v, prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_buf_init(&b, (size_t)1 << 31);
        ok = prc_docenc_write(v, &b, err) && prc_buf_putc(&b, '\n', err);
        if (ok && (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0))
                ok = prc_err_set(err, PRC_E_IO, "cannot write to standard output");
        prc_buf_clear(&b);
        return ok;
}

int cli_content_report(bool ok, const json_t *doc, prc_err *err, const char *format, const char *path, bool wrap)
{
        json_t *w = NULL;
        prc_err e2;

        if (ok && wrap) {
                w = json_pack("{s:O,s:s}", "document", doc, "path", path);
                if (w == NULL || (format != NULL && json_object_set_new(w, "format", json_string(format)) != 0)) {
                        prc_err_oom(err, "output");
                        ok = false;
                }
        }
        if (ok && doc_out(w != NULL ? w : doc, err)) {
                json_decref(w);
                return PRC_EXIT_OK;
        }
        json_decref(w);
        /* Every refusal, the parser's or the worker's, is an execution error: exit 3. */
        if (wrap) {
                json_t *e = json_pack("{s:o,s:s}", "error", cli_err_json(err), "path", path);
                prc_err_init(&e2);
                if (e != NULL && format != NULL && json_object_set_new(e, "format", json_string(format)) != 0) {
                        json_decref(e);
                        e = NULL;
                }
                if (e == NULL)
                        prc_err_oom(&e2, "output");
                if (e == NULL || !cli_json_out(e, &e2))
                        cli_print_err(&e2);
                json_decref(e);
        }
        cli_print_err(err);
        return PRC_EXIT_EXEC;
}

bool cli_content_call(const char *path, uint16_t op, uint16_t sub, const void *args, size_t args_len,
                      json_t **out, prc_err *err)
{
        return cli_content_call_flags(path, op, sub, 0, args, args_len, out, err);
}

bool cli_content_call_flags(const char *path, uint16_t op, uint16_t sub, uint32_t flags, const void *args,
                            size_t args_len, json_t **out, prc_err *err)
{
        prc_client_opts co;
        prc_client *client = NULL;
        prc_buf bytes;
        bool ok = false;

        cli_client_opts(&co);
        prc_buf_init(&bytes, co.lim.input_max);
        if (!prc_file_read(path, co.lim.input_max, PRC_FILE_NOFOLLOW, &bytes, err))
                goto out;
        client = prc_client_new(&co, err);
        if (client == NULL)
                goto out;
        ok = prc_client_call(client, op, sub, flags, path, args, args_len, bytes.data, bytes.len, false, out, err);
out:
        if (!ok && !prc_err_is_set(err))
                prc_err_oom(err, "content client");
        prc_client_free(client);
        prc_buf_clear(&bytes);
        return ok;
}

/*
 * --format auto: the format by file name.  A parser's extensions are one
 * line here; a format without a dispatch entry is never chosen.
 */
static const struct {
        const char *suffix;
        const char *format;
} by_suffix[] = {
        { ".json", "json" },
        { ".yaml", "yaml" },
        { ".yml", "yaml" },
        { ".toml", "toml" },
        { ".ini", "ini" },
        { ".cfg", "ini" },
        { ".xml", "xml" },
        { ".jsonc", "jsonc" },
};

static uint16_t format_by_name_of(const char *path)
{
        size_t n = strlen(path);

        for (size_t i = 0; i < PRC_ARRAY_LEN(by_suffix); i++) {
                size_t k = strlen(by_suffix[i].suffix);
                uint16_t f = prc_format_by_name(by_suffix[i].format);
                if (n > k && strcmp(path + n - k, by_suffix[i].suffix) == 0 &&
                    prc_dispatch_find(PRC_OP_PARSE, f) != NULL)
                        return f;
        }
        return PRC_FMT_NONE;
}

/* The formats are whatever the dispatch table parses: a new parser line makes a new --format. */
static void list_formats(char *out, size_t cap)
{
        size_t n = 0;

        out[0] = 0;
        for (size_t i = 0; i < prc_dispatch_count; i++) {
                const prc_dispatch_entry *e = &prc_dispatch_table[i];
                if (e->op != PRC_OP_PARSE || prc_format_name(e->format) == NULL)
                        continue;
                n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", n ? ", " : "",
                                      prc_format_name(e->format));
                if (n >= cap)
                        break;
        }
}

int cmd_content_parse(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { "format-out", required_argument, NULL, 'o' },
                { NULL, 0, NULL, 0 },
        };
        const char *format = NULL, *format_out = NULL, *path;
        char formats[256];
        json_t *doc = NULL;
        uint16_t fmt;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 'f':
                        format = optarg;
                        break;
                case 'o':
                        format_out = optarg;
                        break;
                default:
                        return cli_usage("content parse", "bad option");
                }
        }
        list_formats(formats, sizeof(formats));
        if (format == NULL)
                return cli_usage("content parse", "--format is required (%s, auto)", formats);
        fmt = prc_format_by_name(format);
        if (strcmp(format, "auto") != 0 && (fmt == PRC_FMT_NONE || prc_dispatch_find(PRC_OP_PARSE, fmt) == NULL))
                return cli_usage("content parse", "unknown --format '%s' (%s, auto)", format, formats);
        if (format_out != NULL && strcmp(format_out, "json") != 0)
                return cli_usage("content parse", "unknown --format-out '%s' (json)", format_out);
        if (optind + 1 != argc)
                return cli_usage("content parse", "expected exactly one FILE");
        path = argv[optind];
        if (strcmp(format, "auto") == 0) {
                fmt = format_by_name_of(path);
                if (fmt == PRC_FMT_NONE)
                        return cli_usage("content parse", "cannot tell the format of '%s' from its name; "
                                         "pass --format (%s)", path, formats);
                format = prc_format_name(fmt);
        }
        if (!cli_content_call(path, PRC_OP_PARSE, fmt, NULL, 0, &doc, &err))
                goto out;
        rc = PRC_EXIT_OK;
out:
        rc = cli_content_report(rc == PRC_EXIT_OK, doc, &err, format, path, format_out != NULL);
        json_decref(doc);
        return rc;
}
