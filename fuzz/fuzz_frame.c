/*
 * fuzz_frame.c - the client's view of a hostile worker: header checks,
 * refusal and request payload decoding, and the binary reply document reader,
 * each with the "exactly one outcome" invariant.
 */
#include <jansson.h>
#include <string.h>

#include "base/utf8.h"
#include "content/docenc.h"
#include "content/frame.h"
#include "fuzz.h"

static bool display_ok(const char *s)
{
        const uint8_t *u = (const uint8_t *)s;
        size_t n = strlen(s);

        for (size_t i = 0; i < n;) {
                uint32_t cp;
                size_t k = prc_utf8_decode(u + i, n - i, &cp);
                if (k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
                        return false;
                i += k;
        }
        return true;
}

PRC_FUZZ_TARGET(frame)
{
        static const uint16_t replies[] = { PRC_RE_DOC, PRC_RE_REFUSE, PRC_RE_READY };
        prc_err err, refusal;
        prc_req req;
        uint16_t type;
        uint32_t len;
        json_t *v;
        bool ok;

        if (n >= PRC_FRAME_HDR) {
                prc_err_init(&err);
                ok = prc_frame_hdr_decode(p, replies, 3, 1u << 20, PRC_E_REPLY_TOO_LARGE, &type, &len, &err);
                if (ok == prc_err_is_set(&err))
                        __builtin_trap();
        }
        prc_err_init(&err);
        ok = prc_refusal_decode(p, n, &refusal, &err);
        if (ok == prc_err_is_set(&err) || (ok && refusal.cls == PRC_E_OK))
                __builtin_trap();
        /* Issue 16: decoded text is valid UTF-8 with no C0, DEL or C1 character. */
        if (ok && (!display_ok(refusal.msg) || !display_ok(refusal.ptr)))
                __builtin_trap();
        prc_err_init(&err);
        ok = prc_req_decode(p, n, PRC_OP_PARSE, &req, &err);
        if (ok == prc_err_is_set(&err) || (ok && req.input + req.input_len != p + n))
                __builtin_trap();
        prc_err_init(&err);
        v = prc_docbin_read(p, n, &prc_limits_fuzz, &err);
        if ((v == NULL) != prc_err_is_set(&err))
                __builtin_trap();
        json_decref(v);
        return 0;
}
