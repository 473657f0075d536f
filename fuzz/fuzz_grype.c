/*
 * fuzz_grype.c - the grype native normalizer on hostile report bytes
 * (invariants in fuzz_native.h).
 */
#include "fuzz.h"
#include "fuzz_native.h"

PRC_FUZZ_TARGET(grype)
{
        return prc_fuzz_native(PRC_NATIVE_GRYPE, p, n);
}
