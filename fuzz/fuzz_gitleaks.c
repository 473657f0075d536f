/*
 * fuzz_gitleaks.c - the gitleaks native normalizer on hostile report bytes
 * (invariants in fuzz_native.h).
 */
#include "fuzz.h"
#include "fuzz_native.h"

PRC_FUZZ_TARGET(gitleaks)
{
        return prc_fuzz_native(PRC_NATIVE_GITLEAKS, p, n);
}
