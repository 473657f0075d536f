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
        void          *extra;   /* owned, may be NULL */
        void         (*extra_free)(void *);
        bool           taken;   /* since the last put or drop */
} slot;

_Static_assert(sizeof(prc_limits) == 2 * sizeof(size_t) + 6 * sizeof(uint32_t), "prc_limits has no padding");

static void free_extra(void)
{
        if (slot.extra != NULL)
                slot.extra_free(slot.extra);
        slot.extra = NULL;
}

void prc_kept_drop(void)
{
        json_decref(slot.doc);
        slot.doc = NULL;
        slot.taken = false;
        free_extra();
}

void prc_kept_put(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, json_t *doc,
                  void *extra, void (*extra_free)(void *))
{
        prc_kept_drop();
        slot.kind = kind;
        slot.p = p;
        slot.n = n;
        slot.lim = *lim;
        slot.flags = flags;
        slot.doc = doc;
        slot.extra = extra;
        slot.extra_free = extra_free;
}

bool prc_kept_taken(void)
{
        return slot.taken;
}

json_t *prc_kept_take_within(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags)
{
        /* The slot's own flags, when they are among flags, make the key match exactly. */
        return (slot.flags & ~flags) == 0 ? prc_kept_take(kind, p, n, lim, slot.flags, NULL) : NULL;
}

json_t *prc_kept_take(prc_kept_kind kind, const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                      void **extra)
{
        json_t *doc = slot.doc;

        /* prc_limits has no padding (asserted above), so memcmp compares the fields. */
        if (doc == NULL || slot.kind != kind || slot.p != p || slot.n != n || slot.flags != flags ||
            memcmp(&slot.lim, lim, sizeof(*lim)) != 0 || (extra != NULL && slot.extra == NULL))
                return NULL;
        if (extra != NULL) {
                *extra = slot.extra;
                slot.extra = NULL;
        } else {
                free_extra();
        }
        slot.doc = NULL;
        slot.taken = true;
        return doc;
}
