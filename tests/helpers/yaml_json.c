/*
 * yaml_json.c - test helper for the yaml-test-suite runner: load files and
 * print one line per file, so one process serves a whole suite.
 *
 *   yaml_json [--float] [--float-text] [--json] FILE...
 *
 * Default: each FILE through prc_yaml_load with prc_limits_default.
 * --json: each FILE as a JSON stream (yaml-test-suite's in.json holds one
 * value per document); more than one value prints "multi N".
 * --float: allow floats (PRC_YAML_ALLOW_FLOAT); a real is printed inside
 * the canonical JSON as the string "\u0001real:%.17g", so equal doubles
 * compare equal whichever file spelled them.  --float-text: floats stay
 * strings (PRC_YAML_FLOAT_AS_STRING).
 *
 * Output per file: "ok <canonical JSON>" or "error <class> <line>:<col> <message>".
 * Trust: test-only; reads suite files that nobody here wrote, under the
 * same limits as target files.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/yaml.h"

/* A copy of v with every real replaced by its marker string; new reference or NULL. */
static json_t *mark_reals(json_t *v)
{
        json_t *out, *e;
        const char *k;
        size_t i, klen;
        char buf[64];

        switch (json_typeof(v)) {
        case JSON_REAL:
                snprintf(buf, sizeof(buf), "\001real:%.17g", json_real_value(v));
                return json_string(buf);
        case JSON_ARRAY:
                out = json_array();
                json_array_foreach(v, i, e) {
                        if (out == NULL || json_array_append_new(out, mark_reals(e)) != 0) {
                                json_decref(out);
                                return NULL;
                        }
                }
                return out;
        case JSON_OBJECT:
                out = json_object();
                json_object_keylen_foreach(v, k, klen, e) {
                        if (out == NULL || json_object_setn_new(out, k, klen, mark_reals(e)) != 0) {
                                json_decref(out);
                                return NULL;
                        }
                }
                return out;
        default:
                return json_incref(v);
        }
}

static void print_ok(json_t *v)
{
        prc_buf b;
        prc_err e;
        json_t *m = mark_reals(v);

        prc_err_init(&e);
        prc_buf_init(&b, (size_t)256 << 20);
        if (m == NULL || !prc_jcs_write(m, &b, &e)) {
                printf("error %s 0:0 cannot write canonical JSON: %s\n", prc_err_name(e.cls), e.msg);
        } else {
                printf("ok ");
                fwrite(b.data, 1, b.len, stdout);
                putchar('\n');
        }
        json_decref(m);
        prc_buf_clear(&b);
}

static void print_err(const prc_err *e)
{
        char msg[sizeof(e->msg)];

        snprintf(msg, sizeof(msg), "%s", e->msg);
        for (char *c = msg; *c; c++)
                if (*c == '\n')
                        *c = ' ';
        printf("error %s %u:%u %s\n", prc_err_name(e->cls), e->line, e->col, msg);
}

static void json_stream(const prc_buf *b)
{
        json_t *vals[2] = { NULL, NULL };
        json_error_t je;
        size_t off = 0, count = 0;
        const char *p = b->data ? (const char *)b->data : "";

        for (;;) {
                json_t *v;
                while (off < b->len && strchr(" \t\r\n", p[off]) != NULL)
                        off++;
                if (off >= b->len)
                        break;
                v = json_loadb(p + off, b->len - off,
                               JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
                if (v == NULL) {
                        printf("error invalid-json %d:%d %s\n", je.line, je.column, je.text);
                        goto out;
                }
                off += je.position;
                if (count < 2)
                        vals[count] = v;
                else
                        json_decref(v);
                count++;
        }
        if (count == 1)
                print_ok(vals[0]);
        else
                printf("multi %zu\n", count);
out:
        json_decref(vals[0]);
        json_decref(vals[1]);
}

int main(int argc, char **argv)
{
        unsigned flags = 0;
        bool as_json = false;
        int i = 1;

        for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
                if (strcmp(argv[i], "--float") == 0)
                        flags |= PRC_YAML_ALLOW_FLOAT;
                else if (strcmp(argv[i], "--float-text") == 0)
                        flags |= PRC_YAML_FLOAT_AS_STRING;
                else if (strcmp(argv[i], "--json") == 0)
                        as_json = true;
                else {
                        fprintf(stderr, "usage: yaml_json [--float] [--float-text] [--json] FILE...\n");
                        return 2;
                }
        }
        for (; i < argc; i++) {
                prc_buf b;
                prc_err e;

                prc_err_init(&e);
                prc_buf_init(&b, prc_limits_default.input_max);
                if (!prc_file_read(argv[i], prc_limits_default.input_max, 0, &b, &e)) {
                        print_err(&e);
                } else if (as_json) {
                        json_stream(&b);
                } else {
                        json_t *v = prc_yaml_load(b.data ? b.data : (const uint8_t *)"", b.len,
                                                  &prc_limits_default, flags, &e);
                        if (v == NULL)
                                print_err(&e);
                        else
                                print_ok(v);
                        json_decref(v);
                }
                prc_buf_clear(&b);
                fflush(stdout);
        }
        return 0;
}
