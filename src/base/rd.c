/*
 * rd.c - bounds-checked reader (see rd.h).
 * Trust: the bytes are hostile; every getter checks what is left first and
 * moves the offset only on success.
 */
#include "base/rd.h"

/* The class a short read records; a reader made without one is prc's own bug. */
static prc_errclass rd_class(const prc_rd *r)
{
        return r->cls != PRC_E_OK && (unsigned)r->cls < PRC_E__COUNT ? r->cls : PRC_E_INTERNAL;
}

static bool need(prc_rd *r, size_t n, prc_err *err)
{
        if (r->off > r->len)
                return prc_err_at(err, PRC_E_INTERNAL, r->off, "reader offset past its end");
        if (prc_rd_left(r) < n)
                return prc_err_at(err, rd_class(r), r->off, "short input: need %zu bytes, %zu left",
                                  n, prc_rd_left(r));
        return true;
}

bool prc_rd_u8(prc_rd *r, uint8_t *out, prc_err *err)
{
        if (!need(r, 1, err))
                return false;
        *out = r->p[r->off++];
        return true;
}

bool prc_rd_u16be(prc_rd *r, uint16_t *out, prc_err *err)
{
        if (!need(r, 2, err))
                return false;
        *out = (uint16_t)((r->p[r->off] << 8) | r->p[r->off + 1]);
        r->off += 2;
        return true;
}

bool prc_rd_u32be(prc_rd *r, uint32_t *out, prc_err *err)
{
        const uint8_t *q;

        if (!need(r, 4, err))
                return false;
        q = r->p + r->off;
        *out = ((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) | ((uint32_t)q[2] << 8) | q[3];
        r->off += 4;
        return true;
}

bool prc_rd_u64be(prc_rd *r, uint64_t *out, prc_err *err)
{
        uint32_t hi, lo;

        if (!need(r, 8, err) || !prc_rd_u32be(r, &hi, err) || !prc_rd_u32be(r, &lo, err))
                return false;
        *out = ((uint64_t)hi << 32) | lo;
        return true;
}

bool prc_rd_bytes(prc_rd *r, size_t n, const uint8_t **out, prc_err *err)
{
        if (!need(r, n, err))
                return false;
        *out = r->p != NULL ? r->p + r->off : r->p;     /* NULL + 0 is UB */
        r->off += n;
        return true;
}

bool prc_rd_str(prc_rd *r, size_t max, const uint8_t **out, size_t *out_len, prc_err *err)
{
        uint32_t n;
        size_t start = r->off;

        if (!prc_rd_u32be(r, &n, err))
                return false;
        if (n > max) {
                r->off = start;
                return prc_err_at(err, rd_class(r), start, "field of %u bytes exceeds %zu", n, max);
        }
        if (!prc_rd_bytes(r, n, out, err)) {
                r->off = start;
                return false;
        }
        *out_len = n;
        return true;
}

bool prc_rd_end(const prc_rd *r, prc_err *err)
{
        if (r->off > r->len)
                return prc_err_at(err, PRC_E_INTERNAL, r->off, "reader offset past its end");
        if (r->off != r->len)
                return prc_err_at(err, rd_class(r), r->off, "%zu trailing bytes", r->len - r->off);
        return true;
}
