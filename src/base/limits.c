/*
 * limits.c - default decoder limits, with the reason for each size.
 * Trust: prc's own constants; every decoder of hostile bytes takes one of
 * these (or a caller's tighter copy), never unbounded defaults.
 */
#include "base/limits.h"

const prc_limits prc_limits_default = {
        /* The inventory analyzes files up to 10 MiB (DESIGN.md); larger are oversized. */
        .input_max  = 10u << 20,
        /* The largest real scalar seen in the corpus lockfiles is under 64 KiB (integrity hashes,
         * long descriptions); 1 MiB keeps a wide margin while bounding a single allocation. */
        .scalar_max = 1u << 20,
        /* toml-test suggests 128-256; yaml-test-suite and real workflows stay far below 64. */
        .depth_max  = 128,
        /* 1.7 MB package-lock.json has about 100k values; 2M bounds work at ~20x that. */
        .nodes_max  = 2000000,
        /* Real workflows use a handful of aliases; 10k is generous and stops fan-out early. */
        .alias_max  = 10000,
        .anchor_max = 10000,
        /* Merge entries counted per merged key (fan-out counts every copy). */
        .merge_max  = 100000,
        /* Large lockfiles have maps of tens of thousands of packages. */
        .keys_max   = 200000,
};

const prc_limits prc_limits_operator = {
        /* Catalogs, registries and manifests are small hand-written YAML. */
        .input_max  = 4u << 20,
        .scalar_max = 64u << 10,
        .depth_max  = 64,
        .nodes_max  = 200000,
        .alias_max  = 1000,
        .anchor_max = 1000,
        .merge_max  = 10000,
        .keys_max   = 20000,
};

const prc_limits prc_limits_fuzz = {
        .input_max  = 64u << 10,
        .scalar_max = 4096,
        .depth_max  = 32,
        .nodes_max  = 20000,
        .alias_max  = 64,
        .anchor_max = 64,
        .merge_max  = 256,
        .keys_max   = 1000,
};
