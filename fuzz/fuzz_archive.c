/*
 * fuzz_archive.c - libFuzzer harness for the tar / tar.gz walker, asking for
 * a few member names so the contents path runs too, and (for inputs of odd
 * length) every member's contents up to a budget (issue 21's one-walk listing).
 * Invariant: exactly one outcome, and a document is always canonical JSON.
 */
#include <jansson.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "content/parsers/archive.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(archive)
{
        static const char *const want[] = { "PKGBUILD", "pkg/PKGBUILD", ".SRCINFO", "a" };
        prc_err err, e2;
        json_t *d;

        prc_err_init(&err);
        d = prc_archive_walk_every(p, n, &prc_archive_opts_fuzz, want, 4, n % 2 ? 4096 : 0, &err);
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
