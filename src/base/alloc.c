/*
 * alloc.c - allocation fault injection for test builds (see alloc.h).
 * Trust: test-only state; compiled to nothing outside PRC_TESTING.
 */
#include "base/alloc.h"

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

#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int prc_alloc_unused;
#endif
