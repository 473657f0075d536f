/*
 * fuzz.h - declare a fuzz target once; it becomes LLVMFuzzerTestOneInput in
 * the clang libFuzzer build (one harness per binary) and a registered entry
 * of the corpus replayer in the gcc sanitizer build (all harnesses linked).
 *
 *   PRC_FUZZ_TARGET(json) { ... return 0; }   // body sees p and n
 */
#ifndef PRC_FUZZ_H
#define PRC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

typedef int (*prc_fuzz_fn)(const uint8_t *p, size_t n);
void prc_fuzz_register(const char *name, prc_fuzz_fn fn);

#if defined(PRC_FUZZING) && PRC_FUZZING
#define PRC_FUZZ_GLUE(name)                                                     \
        int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);                 \
        int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)                  \
        {                                                                       \
                return prc_fuzz_##name(p, n);                                   \
        }
#else
#define PRC_FUZZ_GLUE(name)                                                     \
        __attribute__((constructor)) static void prc_fuzz_reg_##name(void)      \
        {                                                                       \
                prc_fuzz_register(#name, prc_fuzz_##name);                      \
        }
#endif

#define PRC_FUZZ_TARGET(name)                                   \
        int prc_fuzz_##name(const uint8_t *p, size_t n);        \
        PRC_FUZZ_GLUE(name)                                     \
        int prc_fuzz_##name(const uint8_t *p, size_t n)

#endif
