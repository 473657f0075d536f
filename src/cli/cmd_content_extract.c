/*
 * cmd_content_extract.c - `prc content extract [--format F] FILE`: the
 * file's ManifestDoc (docs/extraction.md) as canonical JSON.
 * Trust: FILE is target content.  This process only reads its bytes; the
 * extraction happens in the sandboxed content worker, and the reply is
 * checked against the ManifestDoc schema before it is printed.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "content/client.h"
#include "content/extract/extract.h"

static void list_formats(char *out, size_t cap)
{
        size_t n = 0;

        out[0] = 0;
        for (size_t i = 0; i < prc_extractor_count && n < cap; i++)
                n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "", prc_extractors[i].format);
}

int cmd_content_extract(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { NULL, 0, NULL, 0 },
        };
        const char *format = NULL, *path;
        char formats[1024];
        prc_client_opts co;
        prc_client *client = NULL;
        prc_buf bytes;
        json_t *md = NULL;
        prc_err err;
        int c, rc;
        bool ok = false;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                if (c != 'f')
                        return cli_usage("content extract", "bad option");
                format = optarg;
        }
        list_formats(formats, sizeof(formats));
        if (format != NULL && prc_extractor_by_format(format) == NULL)
                return cli_usage("content extract", "unknown --format '%s' (%s)", format, formats);
        if (optind + 1 != argc)
                return cli_usage("content extract", "expected exactly one FILE");
        path = argv[optind];
        if (format == NULL && prc_extractor_for_path(path) == NULL)
                return cli_usage("content extract", "no extractor owns the name of '%s'; pass --format (%s)", path,
                                 formats);
        cli_client_opts(&co);
        prc_buf_init(&bytes, co.lim.input_max);
        if (!prc_file_read(path, co.lim.input_max, PRC_FILE_NOFOLLOW, &bytes, &err))
                goto out;
        client = prc_client_new(&co, &err);
        if (client == NULL)
                goto out;
        ok = prc_client_extract(client, format, path, bytes.data, bytes.len, &md, &err);
out:
        if (!ok && !prc_err_is_set(&err))
                prc_err_oom(&err, "content client");
        prc_client_free(client);
        prc_buf_clear(&bytes);
        rc = cli_content_report(ok, md, &err, format, path, false);
        json_decref(md);
        return rc;
}
