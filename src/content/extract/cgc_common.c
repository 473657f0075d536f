/*
 * cgc_common.c - helpers shared by the Rust, Go and PHP extractors
 * (cgc_common.h).  Trust: runs in the content worker; bounded lists.
 */
#include "content/extract/cgc_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

bool prc_cgc_put(json_t *obj, const char *key, json_t *v, prc_err *err)
{
        if (v == NULL || json_object_set_new(obj, key, v) != 0)
                return prc_err_oom(err, "manifest document");
        return true;
}

bool prc_cgc_put_line(json_t *obj, uint32_t line, prc_err *err)
{
        return prc_cgc_put(obj, "line", line > 0 ? json_integer(line) : json_null(), err);
}

json_t *prc_cgc_detail_add(json_t *md, const char *key, prc_err *err)
{
        json_t *d = prc_md_details(md), *a = json_object_get(d, key), *o;

        if (a == NULL) {
                if (!prc_cgc_put(d, key, json_array(), err))
                        return NULL;
                a = json_object_get(d, key);
        }
        if (json_array_size(a) >= PRC_MD_LIST_MAX) {
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u '%s' entries in one file", PRC_MD_LIST_MAX,
                            key);
                return NULL;
        }
        o = json_object();
        if (o == NULL || json_array_append_new(a, o) != 0) {
                prc_err_oom(err, "manifest document");
                return NULL;
        }
        return o;
}

bool prc_cgc_source(json_t *md, json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
                    uint32_t line, prc_err *err)
{
        bool cred = false;

        if (url != NULL) {
                char *clean = prc_md_url_strip(url, &cred);

                if (clean == NULL)
                        return prc_err_oom(err, "source URL");
                free(clean);
        }
        if (!prc_md_set_source(dep, type, url, ref, commit, err))
                return false;
        return !cred || prc_md_add_credential(md, "dependency source URL userinfo", line, err);
}

void prc_cgc_locate(const prc_xin *in, prc_err *err)
{
        size_t off, start;

        if (err->off == PRC_NO_OFF || err->line != 0)
                return;
        off = err->off < in->n ? (size_t)err->off : in->n;
        for (start = off; start > 0 && in->p[start - 1] != '\n'; start--)
                ;
        prc_err_set_line(err, prc_x_line_at(in, off), (uint32_t)(off - start + 1));
}

bool prc_cgc_shape(prc_err *err, uint32_t line, const char *fmt, ...)
{
        char msg[sizeof(err->msg)];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "%s", msg);
        if (line > 0)
                prc_err_set_line(err, line, 0);
        return false;
}

char *prc_cgc_lower(const char *s)
{
        size_t n = strlen(s);
        char *o = prc_malloc(n + 1);

        if (o == NULL)
                return NULL;
        for (size_t i = 0; i <= n; i++)
                o[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
        return o;
}

bool prc_cgc_is_commit(const char *s)
{
        size_t i = 0;

        for (; s[i] != '\0'; i++)
                if (strchr("0123456789abcdefABCDEF", s[i]) == NULL)
                        return false;
        return i == 40;
}

/* File names the three families own: by base name only, as the go, cargo and composer commands look them up. */
bool prc_x_cgc_match_go_sum(const char *path, const char *base)
{
        /* go.work.sum has go.sum's syntax: the hashes of a workspace's extra modules. */
        (void)path;
        return strcmp(base, "go.sum") == 0 || strcmp(base, "go.work.sum") == 0;
}

