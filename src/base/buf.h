/*
 * buf.h - bounded, growable byte buffer.
 *
 * A buffer cannot exist without a ceiling (max).  Growth is overflow-checked
 * and a failed append leaves the contents unchanged.  Invariant:
 * len <= cap <= max, and data is NUL-terminated past len when cap > len so
 * text can be handed to C string functions (the NUL is not counted).
 */
#ifndef PRC_BUF_H
#define PRC_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"

typedef struct prc_buf {
        uint8_t *data;  /* owned: freed by prc_buf_clear */
        size_t   len, cap, max;
} prc_buf;

/* Embed-style init with a hard ceiling of max bytes; allocates nothing. */
void prc_buf_init(prc_buf *b, size_t max);
/* Free the storage; the buffer is empty and reusable with the same max. */
void prc_buf_clear(prc_buf *b);
/* Forget the contents, keep the storage (and the NUL-termination invariant). */
static inline void prc_buf_reset(prc_buf *b)
{
        b->len = 0;
        if (b->data != NULL)
                b->data[0] = 0;
}

/* prc_buf_put and prc_buf_putc when the room is not there yet (they grow b). */
bool prc_buf_put_grow(prc_buf *b, const void *p, size_t n, prc_err *err) PRC_MUST_CHECK;

/*
 * Append n bytes.  p may point into b's own storage.  On failure the
 * contents are unchanged.  Errors: buffer-limit, out-of-memory.  Inline
 * while the room is there (len <= cap <= max: no limit to test): the
 * canonical writers append a few bytes at a time, millions of times a run.
 */
PRC_MUST_CHECK static inline bool prc_buf_put(prc_buf *b, const void *p, size_t n, prc_err *err)
{
        if (b->data != NULL && n != 0 && n <= b->cap - b->len) {
                memmove(b->data + b->len, p, n);        /* p may be inside b; nothing moved it */
                b->len += n;
                b->data[b->len] = 0;
                return true;
        }
        return prc_buf_put_grow(b, p, n, err);
}

PRC_MUST_CHECK static inline bool prc_buf_putc(prc_buf *b, uint8_t c, prc_err *err)
{
        if (b->data != NULL && b->len < b->cap) {
                b->data[b->len++] = c;
                b->data[b->len] = 0;
                return true;
        }
        return prc_buf_put_grow(b, &c, 1, err);
}
bool prc_buf_puts(prc_buf *b, const char *s, prc_err *err) PRC_MUST_CHECK;
/* Append formatted text; the arguments must not point into b.  Errors as prc_buf_put, internal. */
bool prc_buf_printf(prc_buf *b, prc_err *err, const char *fmt, ...) PRC_PRINTF(3, 4) PRC_MUST_CHECK;
/* Make room for n more bytes without changing len.  Errors as prc_buf_put. */
bool prc_buf_reserve(prc_buf *b, size_t n, prc_err *err) PRC_MUST_CHECK;

/*
 * Hand the storage out (transfers; caller frees with free()).  Always
 * returns a NUL-terminated block, even for an empty buffer; *out_len gets
 * len.  NULL on out-of-memory.  The buffer is left empty.
 */
uint8_t *prc_buf_take(prc_buf *b, size_t *out_len, prc_err *err) PRC_MUST_CHECK;

/* Borrowed: valid until the next mutation of b.  "" for an empty buffer. */
const char *prc_buf_cstr(const prc_buf *b);

/* Shorten to n bytes (no-op when n >= len); keeps the storage. */
void prc_buf_truncate(prc_buf *b, size_t n);

#endif
