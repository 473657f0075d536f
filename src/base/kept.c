/*
 * kept.c - one parse's tree kept for a second parse of the same bytes (kept.h).
 */
#include "base/kept.h"

#include <string.h>

static _Thread_local struct {
        prc_kept_kind  kind;
        const uint8_t *p;
        size_t         n;
        prc_limits     lim;
        unsigned       flags;
        json_t        *doc;     /* owned; NULL: the slot is empty */
} slot;

_Static_assert(sizeof(prc_limits) == 2 * sizeof(size_t) + 6 * sizeof(uint32_t), "prc_limits has no padding");

void prc_kept_drop(void)
{
        json_decref(slot.doc);
        slot.doc = NULL;
}

void prc_kept_put(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, json_t *doc)
{
        prc_kept_drop();
        slot.kind = kind;
        slot.p = p;
        slot.n = n;
        slot.lim = *lim;
        slot.flags = flags;
        slot.doc = doc;
}

json_t *prc_kept_take(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags)
{
        json_t *doc = slot.doc;

        /* prc_limits has no padding (asserted above), so memcmp compares the fields. */
        if (doc == NULL || slot.kind != kind || slot.p != p || slot.n != n || slot.flags != flags ||
            memcmp(&slot.lim, lim, sizeof(*lim)) != 0)
                return NULL;
        slot.doc = NULL;
        return doc;
}
