/*
 * text.c - shared helpers of the text-format readers (see text.h).
 * Trust: runs on hostile bytes inside the content worker; no allocation.
 */
#include "content/parsers/text.h"

#include "base/utf8.h"

void prc_text_locate(const uint8_t *p, size_t n, size_t off, bool cr_breaks, uint32_t *out_line,
                     uint32_t *out_col)
{
        uint32_t line = 1, col = 1;

        if (off > n)
                off = n;
        for (size_t i = 0; i < off; i++) {
                uint8_t c = p[i];

                if (c == '\n') {
                        line++;
                        col = 1;
                } else if (c == '\r' && i + 1 < n && p[i + 1] == '\n') {
                        continue;       /* the LF that follows ends the line */
                } else if (c == '\r' && cr_breaks) {
                        line++;
                        col = 1;
                } else if ((c & 0xC0) != 0x80) {
                        col++;          /* count lead bytes only: one per code point */
                }
        }
        *out_line = line;
        *out_col = col;
}

void prc_text_err_locate(prc_err *err, const uint8_t *p, size_t n, bool cr_breaks)
{
        uint32_t line, col;

        if (err->off == PRC_NO_OFF || err->line != 0)
                return;
        prc_text_locate(p, n, (size_t)err->off, cr_breaks, &line, &col);
        prc_err_set_line(err, line, col);
}

bool prc_text_precheck(const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err)
{
        size_t bad;

        if (n > lim->input_max)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "input of %zu bytes exceeds %zu", n,
                                   lim->input_max);
        if (!prc_utf8_valid(p, n, &bad))
                return prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 at byte %zu", bad);
        return true;
}
