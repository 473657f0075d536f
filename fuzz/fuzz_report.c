/*
 * fuzz_report.c - libFuzzer harness for issue 22's readers and views: a
 * run result read back (prc report, --baseline), the suppressions file,
 * the HTML and SARIF views and triage.  The input is JSON; its content ID
 * is filled in first so the shape checks are reached.  Invariants: one
 * outcome per check (ok, or an error with a class); the HTML view of any
 * object is made and holds exactly one script element (nothing in the input
 * becomes markup); a result that passes the checks, triaged against
 * itself, reports nothing when its assertion IDs are distinct; a row's
 * findings computed twice are the same.  Seeds: fuzz/corpus/report/.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "engine/findings.h"
#include "engine/html.h"
#include "engine/runfile.h"
#include "engine/sarif.h"
#include "engine/triage.h"
#include "fuzz.h"

static size_t count(const uint8_t *p, size_t n, const char *needle)
{
        size_t c = 0, k = strlen(needle);

        for (size_t i = 0; i + k <= n; i++)
                c += memcmp(p + i, needle, k) == 0;
        return c;
}

static bool ids_distinct(const json_t *run)
{
        const json_t *a, *b;
        size_t i, j;

        json_array_foreach(json_object_get(run, "assertions"), i, a)
                json_array_foreach(json_object_get(run, "assertions"), j, b)
                        if (j < i && json_equal(json_object_get(a, "id"), json_object_get(b, "id")))
                                return false;
        return true;
}

static void views(const json_t *v)
{
        prc_buf b;
        prc_err err;
        json_t *s;

        prc_buf_init(&b, (size_t)64 << 20);
        prc_err_init(&err);
        if (!prc_html_from_run(v, &b, &err)) {
                if (err.cls != PRC_E_BUFFER_LIMIT && err.cls != PRC_E_OUT_OF_MEMORY)
                        __builtin_trap();
        } else if (count(b.data, b.len, "<script") != 1 || count(b.data, b.len, "<img") != 0) {
                __builtin_trap();       /* something from the input became markup */
        }
        prc_buf_clear(&b);
        prc_err_init(&err);
        s = prc_sarif_from_run(v, &err);
        if ((s == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        json_decref(s);
}

/* Every row's findings, computed twice from its evidence: the same digests (no hidden state). */
static void findings_again(const json_t *run)
{
        const json_t *row;
        size_t i;

        json_array_foreach(json_object_get(run, "assertions"), i, row) {
                json_t *a = json_deep_copy(row), *b = json_deep_copy(row);
                prc_err ea, eb;
                prc_err_init(&ea);
                prc_err_init(&eb);
                if (a != NULL && b != NULL) {
                        json_object_del(a, "findings");
                        json_object_del(b, "findings");
                        bool oka = prc_findings_set(a, &ea), okb = prc_findings_set(b, &eb);
                        if (oka != okb || (oka && !json_equal(a, b)))
                                __builtin_trap();
                }
                json_decref(a);
                json_decref(b);
        }
}

PRC_FUZZ_TARGET(report)
{
        char id[PRC_SHA256_HEX + 1];
        prc_err err;
        json_t *v;
        int rc = -1;

        prc_err_init(&err);
        v = prc_json_parse(p, n, &prc_limits_fuzz, 0, &err);
        if ((v == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (v == NULL)
                return 0;
        views(v);
        prc_err_init(&err);
        if (prc_suppressions_check(v, &err) != (err.cls == PRC_E_OK))
                __builtin_trap();
        if (json_is_object(v) && prc_jcs_id(v, "id", id, &err))
                json_object_set_new(v, "id", json_string(id));
        prc_err_init(&err);
        bool ok = prc_runfile_check(v, "the input", &err);
        if (ok != (err.cls == PRC_E_OK))
                __builtin_trap();
        if (ok)
                findings_again(v);
        if (ok && ids_distinct(v)) {
                json_t *copy = json_deep_copy(v);
                if (copy != NULL && prc_triage_apply(copy, v, NULL, NULL, NULL, &rc, &err) && rc != 0)
                        __builtin_trap();       /* a result is never new or worse than itself */
                if (copy != NULL)
                        views(copy);
                json_decref(copy);
        }
        json_decref(v);
        return 0;
}
