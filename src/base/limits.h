/*
 * limits.h - the one limits struct every decoder of untrusted bytes takes.
 * limits.c says why each default has its size.
 */
#ifndef PRC_LIMITS_H
#define PRC_LIMITS_H

#include <stddef.h>
#include <stdint.h>

typedef struct prc_limits {
        size_t   input_max;     /* bytes in one file */
        size_t   scalar_max;    /* bytes in one scalar or key, after unescaping */
        uint32_t depth_max;     /* nested maps / sequences / elements */
        uint32_t nodes_max;     /* values in one document, aliases expanded */
        uint32_t alias_max;     /* YAML alias uses */
        uint32_t anchor_max;    /* YAML anchors defined */
        uint32_t merge_max;     /* YAML `<<` entries, counting every merged key */
        uint32_t keys_max;      /* keys in one mapping */
} prc_limits;

/* Manifests, workflows, lockfiles from the target: hostile. */
extern const prc_limits prc_limits_default;
/* Operator files (catalog, registry, manifests): smaller, still bounded. */
extern const prc_limits prc_limits_operator;
/* Fuzzing: small so that every limit is reached often. */
extern const prc_limits prc_limits_fuzz;

#endif
