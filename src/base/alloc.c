/*
 * alloc.c - allocation fault injection for test builds, and huge-page
 * mappings (see alloc.h).
 * Trust: the fault state is test-only; compiled to nothing outside PRC_TESTING.
 */
#include "base/alloc.h"

#include <stdint.h>
#include <sys/mman.h>

#if defined(PRC_TESTING) && PRC_TESTING

static unsigned long fault_nth;         /* 0: disarmed */
static unsigned long fault_count;
static bool fault_persist, fault_fired;

bool prc_fault_hit(void)
{
        fault_count++;
        if (fault_nth == 0)
                return false;
        if (fault_count == fault_nth || (fault_persist && fault_count > fault_nth)) {
                fault_fired = true;
                return true;
        }
        return false;
}

void prc_fault_arm(unsigned long nth, bool persist)
{
        fault_nth = nth;
        fault_persist = persist;
        fault_count = 0;
        fault_fired = false;
}

unsigned long prc_fault_count(void)
{
        return fault_count;
}

bool prc_fault_fired(void)
{
        return fault_fired;
}
#endif

void *prc_huge_map(size_t n)
{
        uint8_t  *p;
        uintptr_t at;
        size_t    head;

        if (prc_fault_hit() || n == 0 || n % PRC_HUGE_PAGE != 0 || n > SIZE_MAX - PRC_HUGE_PAGE)
                return NULL;
        /* Map one huge page more and trim to the alignment mmap does not promise. */
        p = mmap(NULL, n + PRC_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
                return NULL;
        at = ((uintptr_t)p + PRC_HUGE_PAGE - 1) & ~(uintptr_t)(PRC_HUGE_PAGE - 1);
        head = at - (uintptr_t)p;
        if (head != 0)
                (void)munmap(p, head);
        (void)munmap((uint8_t *)at + n, PRC_HUGE_PAGE - head);
        (void)madvise((void *)at, n, MADV_HUGEPAGE);    /* advice: without THP it is plain memory */
        return (void *)at;
}

void prc_huge_unmap(void *p, size_t n)
{
        if (p != NULL)
                (void)munmap(p, n);
}
