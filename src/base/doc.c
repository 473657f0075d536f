/*
 * doc.c - document loading and canonical digests (see doc.h).
 */
#include "base/doc.h"

#include <string.h>

#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/yaml.h"

json_t *prc_doc_parse(const uint8_t *p, size_t n, prc_doc_format fmt, const prc_limits *lim, prc_err *err)
{
        if (fmt == PRC_DOC_JSON)
                return prc_json_parse(p, n, lim, 0, err);
        return prc_yaml_load(p, n, lim, 0, err);
}

static prc_doc_format by_name(const char *path)
{
        size_t n = strlen(path);

        if (n >= 5 && strcmp(path + n - 5, ".json") == 0)
                return PRC_DOC_JSON;
        return PRC_DOC_YAML;
}

json_t *prc_doc_load(const char *path, prc_doc_format fmt, const prc_limits *lim, prc_err *err)
{
        prc_buf b;
        json_t *v = NULL;

        prc_buf_init(&b, lim->input_max);
        if (!prc_file_read(path, lim->input_max, PRC_FILE_NOFOLLOW, &b, err))
                goto out;
        v = prc_doc_parse(b.data ? b.data : (const uint8_t *)"", b.len,
                          fmt == PRC_DOC_AUTO ? by_name(path) : fmt, lim, err);
        if (v == NULL)
                prc_err_set_file(err, path);
out:
        prc_buf_clear(&b);
        return v;
}

bool prc_doc_digest_file(const char *path, prc_doc_format fmt, const prc_limits *lim,
                         char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        json_t *v = prc_doc_load(path, fmt, lim, err);
        bool ok;

        if (v == NULL)
                return false;
        ok = prc_jcs_digest(v, out, err);
        json_decref(v);
        return ok;
}
