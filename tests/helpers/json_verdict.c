/*
 * json_verdict.c - test helper: the strict JSON reader's verdict on files.
 *
 *   json_verdict FILE...
 *
 * For each FILE prints one line "FILE<TAB>float=V<TAB>int=V" where V is
 * "accept" or "reject:<class>": float is PRC_JSON_ALLOW_FLOAT with the
 * default limits, int is the default integer-only mode.  An accepted
 * document must also be writable as canonical JSON (or fail not-canonical
 * when it holds floats), every call must have exactly one outcome, and
 * the reader's fast path and its jansson path must agree
 * (prc_json_parse_jansson); a broken invariant prints "BUG" and exits 1.  Used by
 * tests/conformance/json-test-suite.sh; built in the sanitizer build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"

/* prc_json_parse's fast path and its jansson path: the same document (json_equal) or the same refusal. */
static bool paths_agree(const uint8_t *p, size_t n, unsigned flags)
{
        prc_err ef, ej;
        json_t *vf, *vj;
        bool same;

        prc_err_init(&ef);
        prc_err_init(&ej);
        vf = prc_json_parse(p, n, &prc_limits_default, flags, &ef);
        vj = prc_json_parse_jansson(p, n, &prc_limits_default, flags, &ej);
        same = vf != NULL && vj != NULL ? json_equal(vf, vj) != 0
                                        : vf == NULL && vj == NULL && ef.cls == ej.cls && ef.off == ej.off &&
                                                  ef.line == ej.line && strcmp(ef.msg, ej.msg) == 0 &&
                                                  strcmp(ef.ptr, ej.ptr) == 0;
        json_decref(vf);
        json_decref(vj);
        return same;
}

static int verdict(const uint8_t *p, size_t n, unsigned flags, char *out, size_t cap)
{
        prc_err e;
        json_t *v;
        prc_buf b;

        if (!paths_agree(p, n, flags)) {
                snprintf(out, cap, "BUG:paths-differ");
                return 1;
        }
        prc_err_init(&e);
        v = prc_json_parse(p, n, &prc_limits_default, flags, &e);
        if ((v == NULL) != (e.cls != PRC_E_OK)) {
                snprintf(out, cap, "BUG:outcome");
                return 1;
        }
        if (v == NULL) {
                snprintf(out, cap, "reject:%s", prc_err_name(e.cls));
                return 0;
        }
        prc_buf_init(&b, 64u << 20);
        if (!prc_jcs_write(v, &b, &e) && !((flags & PRC_JSON_ALLOW_FLOAT) && e.cls == PRC_E_NOT_CANONICAL)) {
                snprintf(out, cap, "BUG:jcs-%s", prc_err_name(e.cls));
                prc_buf_clear(&b);
                json_decref(v);
                return 1;
        }
        prc_buf_clear(&b);
        json_decref(v);
        snprintf(out, cap, "accept");
        return 0;
}

int main(int argc, char **argv)
{
        int bad = 0;

        for (int i = 1; i < argc; i++) {
                char vf[64], vi[64];
                prc_buf b;
                prc_err e;

                prc_err_init(&e);
                prc_buf_init(&b, prc_limits_default.input_max + 1);
                if (!prc_file_read(argv[i], prc_limits_default.input_max + 1, 0, &b, &e)) {
                        fprintf(stderr, "json_verdict: %s: %s\n", argv[i], e.msg);
                        return 2;
                }
                bad |= verdict(b.data ? b.data : (const uint8_t *)"", b.len, PRC_JSON_ALLOW_FLOAT, vf, sizeof(vf));
                bad |= verdict(b.data ? b.data : (const uint8_t *)"", b.len, 0, vi, sizeof(vi));
                printf("%s\tfloat=%s\tint=%s\n", argv[i], vf, vi);
                prc_buf_clear(&b);
        }
        return bad;
}
