/*
 * fuzz_record.c - the execution-record reader (strict JSON, then the
 * version-specific field check and the content-ID check).
 * Invariants: exactly one outcome per check; an accepted record has a
 * version 1..3; a record is never accepted as evidence.
 */
#include "fuzz.h"

#include <jansson.h>

#include "adapter/record.h"
#include "base/json_strict.h"
#include "base/limits.h"

PRC_FUZZ_TARGET(record)
{
        prc_err err;
        int ver = 0;

        prc_err_init(&err);
        json_t *v = prc_json_parse(p, n, &prc_limits_fuzz, 0, &err);
        if ((v == NULL) != (err.cls != PRC_E_OK))       /* exactly one outcome */
                __builtin_trap();
        if (v == NULL)
                return 0;
        bool ok = prc_record_check(v, true, &ver, &err);
        if (ok != (err.cls == PRC_E_OK))
                __builtin_trap();
        if (ok && (ver < 1 || ver > 3))
                __builtin_trap();
        prc_err ev;
        prc_err_init(&ev);
        if (prc_record_import_evidence(v, &ev) || ev.cls == PRC_E_OK)
                __builtin_trap();               /* the evidence door stays shut */
        if (ok && ev.cls != PRC_E_RECORD_NOT_EVIDENCE)
                __builtin_trap();
        json_decref(v);
        return 0;
}
