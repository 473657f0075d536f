/*
 * buf.c - bounded byte buffer (see buf.h for the invariant).
 * Trust: engine-side and worker-side; sizes may come from hostile input, so
 * every size computation is overflow-checked against the ceiling first.
 */
#include "base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void prc_buf_init(prc_buf *b, size_t max)
{
        b->data = NULL;
        b->len = 0;
        b->cap = 0;
        b->max = max;
}

void prc_buf_clear(prc_buf *b)
{
        free(b->data);
        prc_buf_init(b, b->max);
}

/*
 * Grow so that at least need+1 bytes are stored (the +1 keeps room for the
 * NUL).  The caller guarantees need <= max and need < SIZE_MAX, so need + 1
 * cannot wrap.  Storage never exceeds max + 1 bytes.
 */
static bool grow(prc_buf *b, size_t need, prc_err *err)
{
        size_t want = need + 1, limit = b->max < SIZE_MAX ? b->max + 1 : SIZE_MAX;
        size_t ncap = b->data != NULL ? b->cap + 1 : 64;
        uint8_t *p;

        while (ncap < want)
                ncap = ncap > SIZE_MAX / 2 ? want : ncap * 2;
        if (ncap > limit)
                ncap = limit;
        p = prc_realloc(b->data, ncap);
        if (p == NULL)
                return prc_err_oom(err, "a byte buffer");      /* old storage is untouched */
        if (b->data == NULL)
                p[0] = 0;
        b->data = p;
        b->cap = ncap - 1;      /* one byte always held back for the NUL */
        return true;
}

bool prc_buf_reserve(prc_buf *b, size_t n, prc_err *err)
{
        size_t need;

        /* need == SIZE_MAX would leave no byte for the NUL. */
        if (__builtin_add_overflow(b->len, n, &need) || need > b->max || need == SIZE_MAX)
                return prc_err_set(err, PRC_E_BUFFER_LIMIT, "buffer cap %zu bytes reached", b->max);
        if (need > b->cap || b->data == NULL)
                return grow(b, need, err);
        return true;
}

bool prc_buf_put_grow(prc_buf *b, const void *p, size_t n, prc_err *err)
{
        uintptr_t src = (uintptr_t)p, base = (uintptr_t)b->data;
        bool inside = b->data != NULL && src >= base && src <= base + b->cap;
        size_t at = inside ? (size_t)(src - base) : 0;

        if (n == 0)
                return true;    /* memcpy from NULL is UB even for 0 */
        if (!prc_buf_reserve(b, n, err))
                return false;
        if (inside)             /* self-append: realloc may have moved the source */
                p = b->data + at;
        memmove(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = 0;
        return true;
}

bool prc_buf_puts(prc_buf *b, const char *s, prc_err *err)
{
        return prc_buf_put(b, s, strlen(s), err);
}

bool prc_buf_printf(prc_buf *b, prc_err *err, const char *fmt, ...)
{
        va_list ap;
        int n;
        char small[256];

        va_start(ap, fmt);
        n = vsnprintf(small, sizeof(small), fmt, ap);
        va_end(ap);
        if (n < 0)
                return prc_err_set(err, PRC_E_INTERNAL, "format failed");
        if ((size_t)n < sizeof(small))
                return prc_buf_put(b, small, (size_t)n, err);
        if (!prc_buf_reserve(b, (size_t)n, err))
                return false;
        va_start(ap, fmt);
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        b->len += (size_t)n;
        return true;
}

uint8_t *prc_buf_take(prc_buf *b, size_t *out_len, prc_err *err)
{
        uint8_t *p;

        if (b->data == NULL) {
                p = prc_malloc(1);
                if (p == NULL) {
                        prc_err_oom(err, "an empty buffer");
                        return NULL;
                }
                p[0] = 0;
                *out_len = 0;
                return p;
        }
        p = b->data;
        *out_len = b->len;
        prc_buf_init(b, b->max);
        return p;
}

const char *prc_buf_cstr(const prc_buf *b)
{
        return b->data ? (const char *)b->data : "";
}

void prc_buf_truncate(prc_buf *b, size_t n)
{
        if (n >= b->len)
                return;
        b->len = n;
        b->data[n] = 0;
}
