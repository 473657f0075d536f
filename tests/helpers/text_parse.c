/*
 * text_parse.c - test helper: run prc's TOML, JSONC or INI reader over files.
 *
 *   text_parse toml-tagged|toml|jsonc|jsonc-syntax|ini FILE...
 *
 * jsonc reads as the worker does (the dispatch table's flags); jsonc-syntax
 * accepts numbers of any size (syntax verdicts only).
 *
 * For each FILE prints one line: "FILE\tok\tJSON" (the document, compact,
 * keys sorted) or "FILE\terr\tCLASS\tLINE:COL\tMESSAGE".  Used by the
 * conformance runners (tests/conformance/toml-test.sh, jsonc.sh), which
 * compare the results in place against the shared corpora.
 * Trust: test-only; reads the files it is given.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "content/dispatch.h"
#include "content/parsers/ini.h"
#include "content/parsers/jsonc.h"
#include "content/parsers/toml.h"

static unsigned char *slurp(const char *path, size_t *n)
{
        FILE *f = fopen(path, "rb");
        unsigned char *b;
        long len;

        if (f == NULL)
                return NULL;
        fseek(f, 0, SEEK_END);
        len = ftell(f);
        fseek(f, 0, SEEK_SET);
        b = malloc(len > 0 ? (size_t)len : 1);
        if (b != NULL && len > 0 && fread(b, 1, (size_t)len, f) != (size_t)len) {
                free(b);
                b = NULL;
        }
        fclose(f);
        *n = len > 0 ? (size_t)len : 0;
        return b;
}

int main(int argc, char **argv)
{
        if (argc < 3) {
                fprintf(stderr, "usage: text_parse toml-tagged|toml|jsonc|jsonc-syntax|ini FILE...\n");
                return 2;
        }
        for (int a = 2; a < argc; a++) {
                size_t n;
                unsigned char *b = slurp(argv[a], &n);
                prc_err err;
                json_t *v = NULL;

                prc_err_init(&err);
                if (b == NULL) {
                        fprintf(stderr, "cannot read %s\n", argv[a]);
                        return 3;
                }
                if (strcmp(argv[1], "toml-tagged") == 0)
                        v = prc_toml_parse(b, n, &prc_limits_default, PRC_TOML_TAGGED | PRC_TOML_ALLOW_NUL, &err);
                else if (strcmp(argv[1], "toml") == 0)
                        v = prc_toml_parse(b, n, &prc_limits_default, 0, &err);
                else if (strcmp(argv[1], "jsonc-syntax") == 0)  /* syntax verdicts: numbers of any size */
                        v = prc_jsonc_parse(b, n, &prc_limits_default, PRC_JSON_ALLOW_FLOAT | PRC_JSON_ALLOW_UNSAFE_INT,
                                            &err);
                else if (strcmp(argv[1], "jsonc") == 0)    /* as the worker reads it: the dispatch table's flags */
                        v = prc_jsonc_parse(b, n, &prc_limits_default,
                                            prc_dispatch_find(PRC_OP_PARSE, PRC_FMT_JSONC)->load_flags, &err);
                else if (strcmp(argv[1], "ini") == 0)
                        v = prc_ini_parse(b, n, &prc_limits_default, 0, &err);
                else
                        return 2;
                if (v != NULL) {
                        char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
                        printf("%s\tok\t%s\n", argv[a], s != NULL ? s : "null");
                        free(s);
                        json_decref(v);
                } else {
                        printf("%s\terr\t%s\t%u:%u\t%s\n", argv[a], prc_err_name(err.cls), err.line, err.col,
                               err.msg);
                }
                free(b);
        }
        return 0;
}
