/*
 * yaml_worker_verdict.c - test helper: YAML verdicts through a real content
 * worker (the streaming YAML reply), checked against prc_yaml_load in process.
 *
 *   yaml_worker_verdict FILE...      (env PRC_WORKER_BIN: the worker, default build/prc)
 *
 * Prints one line per file: "FILE<TAB>accept", "FILE<TAB>reject:CLASS", or
 * "FILE<TAB>BUG:..." when the worker's answer to parse-yaml (the table's
 * flags, default limits) is not prc_yaml_load's in process: the same class,
 * offset, line, column, pointer and message on refusal, the same tree in
 * the same member order (the counted encoding's bytes) on acceptance.  Exits
 * 1 on any BUG.  Also prints, last, "restarts N" (replies the worker started
 * over for a `<<` merge).  Used by tests/conformance/yaml-test-suite-worker.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/yaml.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"

static bool same_bytes(const json_t *a, const json_t *b)
{
        prc_buf x, y;
        prc_err e;
        bool ok;

        prc_err_init(&e);
        prc_buf_init(&x, 64u << 20);
        prc_buf_init(&y, 64u << 20);
        ok = prc_docbin_write(a, &x, &e) && prc_docbin_write(b, &y, &e) && x.len == y.len &&
             memcmp(x.data, y.data, x.len) == 0;
        prc_buf_clear(&x);
        prc_buf_clear(&y);
        return ok;
}

int main(int argc, char **argv)
{
        prc_client_opts o;
        prc_client_stats st;
        prc_client *c;
        prc_err e;
        int bad = 0;

        prc_client_opts_default(&o);
        o.worker_path = getenv("PRC_WORKER_BIN") ? getenv("PRC_WORKER_BIN") : "build/prc";
        o.cache_max = 0;        /* every file is a round trip */
        prc_err_init(&e);
        c = prc_client_new(&o, &e);
        if (c == NULL) {
                fprintf(stderr, "yaml_worker_verdict: %s\n", e.msg);
                return 2;
        }
        for (int i = 1; i < argc; i++) {
                prc_err we, le;
                json_t *w = NULL, *l;
                const uint8_t *p;
                prc_buf b;
                bool got, wrong;

                prc_err_init(&e);
                prc_buf_init(&b, prc_limits_default.input_max + 1);
                if (!prc_file_read(argv[i], prc_limits_default.input_max + 1, 0, &b, &e)) {
                        fprintf(stderr, "yaml_worker_verdict: %s: %s\n", argv[i], e.msg);
                        prc_client_free(c);
                        return 2;
                }
                p = b.data ? b.data : (const uint8_t *)"";
                prc_err_init(&we);
                prc_err_init(&le);
                got = prc_client_parse(c, PRC_FMT_YAML, argv[i], p, b.len, &w, &we);
                l = prc_yaml_load(p, b.len, &prc_limits_default, PRC_YAML_FLOAT_AS_STRING, &le);
                if (got != (l != NULL))
                        wrong = true;
                else if (got)
                        wrong = !json_equal(w, l) || !same_bytes(w, l);
                else
                        wrong = !prc_err_same(&we, &le);
                if (wrong)
                        printf("%s\tBUG:worker-%s-local-%s\n", argv[i], got ? "accept" : prc_err_name(we.cls),
                               l != NULL ? "accept" : prc_err_name(le.cls));
                else if (got)
                        printf("%s\taccept\n", argv[i]);
                else
                        printf("%s\treject:%s\n", argv[i], prc_err_name(le.cls));
                bad |= wrong;
                json_decref(w);
                json_decref(l);
                prc_buf_clear(&b);
        }
        prc_client_get_stats(c, &st);
        printf("restarts %llu\n", (unsigned long long)st.restarts);
        prc_client_free(c);
        return bad;
}
