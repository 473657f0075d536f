/*
 * fuzz_xml.c - libFuzzer harness for the bounded XML reader.
 * Invariant: exactly one outcome (a document, or NULL with a class), and a
 * document is always canonical JSON.
 */
#include <jansson.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "content/parsers/xml.h"
#include "fuzz.h"

PRC_FUZZ_TARGET(xml)
{
        prc_err err, e2;
        json_t *d;

        prc_err_init(&err);
        d = prc_xml_parse(p, n, &prc_limits_fuzz, n > 0 && (p[0] & 1) ? PRC_XML_KEEP_WHITESPACE : 0, &err);
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
