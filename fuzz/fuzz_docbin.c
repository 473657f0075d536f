/*
 * fuzz_docbin.c - the client's reader of binary reply documents (what a
 * compromised worker controls): exactly one outcome, and whatever it
 * accepts re-encodes to exactly the bytes it read (the encoding of a tree
 * is unique, so the reader cannot accept two spellings of one document).
 */
#include <jansson.h>
#include <string.h>

#include "content/docenc.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(docbin)
{
        prc_err err;
        prc_buf b;
        json_t *v;

        prc_err_init(&err);
        v = prc_docbin_read(p, n, &prc_limits_fuzz, &err);
        if ((v == NULL) != prc_err_is_set(&err))
                __builtin_trap();
        if (v != NULL) {
                prc_err_init(&err);
                prc_buf_init(&b, n + 64);
                if (!prc_docbin_write(v, &b, &err) || b.len != n || memcmp(b.data, p, n) != 0)
                        __builtin_trap();
                prc_buf_clear(&b);
        }
        json_decref(v);
        return 0;
}
