/*
 * fuzz_aur.c - libFuzzer harness for the AUR analysis path: the tokenizer
 * with recovery (what prc scan asks the worker for), the engine's shape
 * check of its document, and every registered analysis over it (as a
 * PKGBUILD and as an install script).  Invariants: the tokenizer gives
 * exactly one outcome; a document it produced always passes prc_sh_check
 * (the worker and the engine agree on the shape); every analysis runs to an
 * outcome without a sanitizer report.  An input starting with "pkgbase" is
 * also read as a .SRCINFO beside the PKGBUILD.
 */
#include <jansson.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/sh.h"
#include "content/parsers/shell.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(aur)
{
        prc_err err;
        json_t *d, *si = NULL;
        prc_adoc docs[3];
        size_t nd = 0;

        prc_err_init(&err);
        d = prc_shell_tokenize(p, n, &prc_limits_fuzz, PRC_SHELL_RECOVER, &err);
        if ((d == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (d == NULL)
                return 0;
        if (!prc_sh_check(d, false, &err))
                __builtin_trap();
        if (n >= 7 && memcmp(p, "pkgbase", 7) == 0) {
                prc_err_init(&err);
                si = prc_shell_tokenize(p, n, &prc_limits_fuzz, PRC_SHELL_RECOVER | PRC_SHELL_SRCINFO, &err);
                if (si != NULL && !prc_sh_check(si, true, &err))
                        __builtin_trap();
        }
        docs[nd++] = (prc_adoc){ ".SRCINFO", PRC_AK_SRCINFO, si };
        docs[nd++] = (prc_adoc){ "PKGBUILD", PRC_AK_PKGBUILD, d };
        docs[nd++] = (prc_adoc){ "x.install", PRC_AK_INSTALL, d };
        for (size_t i = 0; i < prc_analysis_count; i++) {
                prc_ainput in = { NULL, 0, si != NULL ? docs : docs + 1, si != NULL ? 3 : 2, NULL, 0, NULL, NULL };
                prc_obs_list l = { 0 };
                bool gap = false;
                prc_err_init(&err);
                if (!prc_analysis_run(&prc_analysis_table[i], &in, &l, &gap, &err) && err.cls != PRC_E_OUT_OF_MEMORY)
                        __builtin_trap();
                prc_obs_list_clear(&l);
        }
        json_decref(si);
        json_decref(d);
        return 0;
}
