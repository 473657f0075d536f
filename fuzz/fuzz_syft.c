/*
 * fuzz_syft.c - the syft native normalizer on hostile report bytes
 * (invariants in fuzz_native.h).
 */
#include "fuzz.h"
#include "fuzz_native.h"

PRC_FUZZ_TARGET(syft)
{
        return prc_fuzz_native(PRC_NATIVE_SYFT, p, n);
}
