/*
 * tune.c - huge pages for the heap (tune.h).
 */
#include "base/tune.h"

#include <malloc.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/alloc.h"

static const char tunables[] = "GLIBC_TUNABLES=";

/* Does the tunables list v name the tunable key (klen bytes up to and with its '=')? */
static bool names(const char *v, const char *key, size_t klen)
{
        for (const char *p = v; p != NULL && *p != '\0';) {
                if (strncmp(p, key, klen) == 0)
                        return true;
                p = strchr(p, ':');
                if (p != NULL)
                        p++;
        }
        return false;
}

char *prc_tune_value(const char *orig)
{
        static const char all[] = PRC_TUNE_ALL, hugetlb[] = "glibc.malloc.hugetlb=";
        size_t n, len;
        char  *v;

        if (orig == NULL || *orig == '\0')
                orig = NULL;
        if (orig != NULL && names(orig, hugetlb, sizeof(hugetlb) - 1))
                return NULL;
        n = (orig != NULL ? strlen(orig) + 1 : 0) + sizeof(all);
        v = prc_malloc(n);
        if (v == NULL)
                return NULL;
        len = (size_t)snprintf(v, n, "%s", orig != NULL ? orig : "");
        /* Each of ours the user has not named, in PRC_TUNE_ALL's order. */
        for (const char *t = all; *t != '\0';) {
                const char *end = strchr(t, ':'), *eq = strchr(t, '=');
                size_t tl = end != NULL ? (size_t)(end - t) : strlen(t);

                if (orig == NULL || !names(orig, t, (size_t)(eq - t) + 1))
                        len += (size_t)snprintf(v + len, n - len, "%s%.*s", len > 0 ? ":" : "", (int)tl, t);
                t += tl + (end != NULL);
        }
        return v;
}

char **prc_tune_env(char *const *env)
{
        size_t n = 0, at = SIZE_MAX, len;
        char **out, *val, *ent;

        for (; env[n] != NULL; n++)
                if (strncmp(env[n], tunables, sizeof(tunables) - 1) == 0)
                        at = n;
        val = prc_tune_value(at != SIZE_MAX ? env[at] + sizeof(tunables) - 1 : NULL);
        if (val == NULL)
                return NULL;
        len = sizeof(tunables) + strlen(val);
        ent = prc_malloc(len);
        out = prc_calloc(n + 2, sizeof(*out));
        if (ent == NULL || out == NULL) {
                free(val);
                free(ent);
                free(out);
                return NULL;
        }
        snprintf(ent, len, "%s%s", tunables, val);
        free(val);
        memcpy(out, env, n * sizeof(*out));
        /* The added entry goes last, where prc_tune_env_free finds it. */
        if (at != SIZE_MAX) {
                memmove(out + at, out + at + 1, (n - at - 1) * sizeof(*out));
                n--;
        }
        out[n] = ent;
        out[n + 1] = NULL;
        return out;
}

void prc_tune_env_free(char **tuned)
{
        size_t n = 0;

        if (tuned == NULL)
                return;
        while (tuned[n] != NULL)
                n++;
        if (n > 0)
                free(tuned[n - 1]);
        free(tuned);
}

/* The heap advised so far: [heap_lo, heap_hi); heap_lo 0 while prc_tune_heap has not tuned this process. */
static uintptr_t heap_lo;
static _Atomic uintptr_t heap_hi;

static uintptr_t page_down(uintptr_t a)
{
        return a & ~(uintptr_t)4095;
}

static uintptr_t page_up(uintptr_t a)
{
        return (a + 4095) & ~(uintptr_t)4095;
}

/* The break now, or 0 (sbrk(0) reads the break glibc keeps: no system call). */
static uintptr_t brk_now(void)
{
        void *b = sbrk(0);

        return b == (void *)-1 ? 0 : (uintptr_t)b;
}

void prc_tune_heap(void)
{
        static const char hugetlb[] = "glibc.malloc.hugetlb=", mmap_t[] = "glibc.malloc.mmap_threshold=",
                          trim_t[] = "glibc.malloc.trim_threshold=", top_pad[] = "glibc.malloc.top_pad=";
        const char *orig = getenv("GLIBC_TUNABLES");
        bool own_pad = orig != NULL && names(orig, top_pad, sizeof(top_pad) - 1);
        uintptr_t cur, hi;
        void *p;

        /* glibc ignores a set-id process's tunables: then the user's setting cannot be known, and nothing is done. */
        if (getauxval(AT_SECURE) != 0 || heap_lo != 0 || (orig != NULL && names(orig, hugetlb, sizeof(hugetlb) - 1)))
                return;
        /* Each tunable the user named stands: glibc applied it at the start. */
        if (orig == NULL || !names(orig, mmap_t, sizeof(mmap_t) - 1))
                (void)mallopt(M_MMAP_THRESHOLD, PRC_TUNE_MMAP_THRESHOLD);
        if (orig == NULL || !names(orig, trim_t, sizeof(trim_t) - 1))
                (void)mallopt(M_TRIM_THRESHOLD, PRC_TUNE_TRIM_THRESHOLD);
        if (!own_pad)
                (void)mallopt(M_TOP_PAD, PRC_TUNE_HEAP_RESERVE);
        /*
         * The heap from a huge-page boundary, so its first 2 MiB are one huge
         * page too: a break moved before malloc's first use is where its heap
         * starts, and one moved after it only leaves a gap below that glibc
         * steps over (it takes the break as foreign).
         */
        cur = brk_now();
        if (cur != 0 && (cur & (PRC_HUGE_PAGE - 1)) != 0)
                (void)sbrk((intptr_t)(PRC_HUGE_PAGE - (cur & (PRC_HUGE_PAGE - 1))));
        /* The first block reserves the heap (the top pad); it is advised from there to the break. */
        p = malloc(1);
        hi = brk_now();
        /*
         * Later growth pads as the workers' does and is advised as it comes
         * (prc_tune_heap_grown): under a data or address-space limit another
         * 64 MiB might not fit where the block asked for would.
         */
        if (!own_pad)
                (void)mallopt(M_TOP_PAD, PRC_TUNE_TOP_PAD);
        if (p == NULL || hi <= (uintptr_t)p) {
                free(p);
                return;         /* no reserve (a limit), or no heap from the break: tuned as far as mallopt goes */
        }
        heap_lo = page_down((uintptr_t)p);
        (void)madvise((void *)heap_lo, page_up(hi) - heap_lo, MADV_HUGEPAGE);
        atomic_store(&heap_hi, page_up(hi));
        free(p);
}

void prc_tune_heap_grown(void)
{
        uintptr_t was = atomic_load(&heap_hi), hi;

        if (heap_lo == 0 || (hi = page_up(brk_now())) <= was)
                return;
        /* One caller advises each stretch; one that loses the race finds it done. */
        if (atomic_compare_exchange_strong(&heap_hi, &was, hi))
                (void)madvise((void *)was, hi - was, MADV_HUGEPAGE);
}
