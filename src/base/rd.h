/*
 * rd.h - borrowed, bounds-checked reader over a byte range.
 *
 * A prc_rd never allocates and never owns its bytes.  Every getter checks
 * what is left and fails with the class chosen by the caller's context
 * (passed to prc_rd_make; internal if it is PRC_E_OK), so a short input
 * cannot be over-read.  A failed getter writes no output and does not move
 * the offset.  prc_rd_end makes trailing bytes an error.
 */
#ifndef PRC_RD_H
#define PRC_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef struct prc_rd {
        const uint8_t *p;       /* borrowed */
        size_t         len, off;
        prc_errclass   cls;     /* class recorded on a short read */
} prc_rd;

static inline prc_rd prc_rd_make(const void *p, size_t len, prc_errclass cls)
{
        prc_rd r = { (const uint8_t *)p, len, 0, cls };
        return r;
}
static inline size_t prc_rd_left(const prc_rd *r) { return r->len - r->off; }

bool prc_rd_u8(prc_rd *r, uint8_t *out, prc_err *err) PRC_MUST_CHECK;
bool prc_rd_u16be(prc_rd *r, uint16_t *out, prc_err *err) PRC_MUST_CHECK;
bool prc_rd_u32be(prc_rd *r, uint32_t *out, prc_err *err) PRC_MUST_CHECK;
bool prc_rd_u64be(prc_rd *r, uint64_t *out, prc_err *err) PRC_MUST_CHECK;
/* Borrow n bytes. */
bool prc_rd_bytes(prc_rd *r, size_t n, const uint8_t **out, prc_err *err) PRC_MUST_CHECK;
/* u32be length, then that many bytes, length at most max. */
bool prc_rd_str(prc_rd *r, size_t max, const uint8_t **out, size_t *out_len, prc_err *err) PRC_MUST_CHECK;
/* Fails if any byte is left. */
bool prc_rd_end(const prc_rd *r, prc_err *err) PRC_MUST_CHECK;

#endif
