/*
 * fuzz_shell.c - libFuzzer harness for the PKGBUILD tokenizer and the
 * .SRCINFO reader (an input starting with "pkgbase" is read as .SRCINFO).
 * Invariant: exactly one outcome, and a document is always canonical JSON.
 */
#include <jansson.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "content/parsers/shell.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(shell)
{
        prc_err err, e2;
        json_t *d;
        unsigned flags = n >= 7 && memcmp(p, "pkgbase", 7) == 0 ? PRC_SHELL_SRCINFO : PRC_SHELL_PKGBUILD;

        /* Recovery (issue 20) on half the inputs: the last byte's low bit, so both paths see every shape. */
        if (n > 0 && (p[n - 1] & 1))
                flags |= PRC_SHELL_RECOVER;

        prc_err_init(&err);
        d = prc_shell_tokenize(p, n, &prc_limits_fuzz, flags, &err);
        if ((d == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (d != NULL) {
                prc_buf b;
                prc_err_init(&e2);
                prc_buf_init(&b, (size_t)64 << 20);
                if (!prc_jcs_write(d, &b, &e2))
                        __builtin_trap();
                prc_buf_clear(&b);
        }
        json_decref(d);
        return 0;
}
