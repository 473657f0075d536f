/*
 * syft.h - prc-adapter-syft-cyclonedx-json-v1: the Syft 1.51.0 CycloneDX 1.7
 * JSON normalizer and its scanner-owned configuration (issue 10).
 * Trust: the document is hostile; the config bytes are ours, digest-bound.
 */
#ifndef PRC_ADAPTER_NATIVE_SYFT_H
#define PRC_ADAPTER_NATIVE_SYFT_H

#include "adapter/native/native.h"

/*
 * Injected at .prc/syft/config.yaml and passed with -c, so no .syft.yaml,
 * home or XDG file is searched; only settings that change nothing but
 * egress and output shape are set.
 */
#define PRC_SYFT_CONFIG_BYTES                                   \
        "# prc: scanner-owned Syft 1.51.0 configuration\n"      \
        "check-for-app-update: false\n"                         \
        "enrich: []\n"                                          \
        "format:\n"                                             \
        "  pretty: false\n"
#define PRC_SYFT_CONFIG_SHA256 "ff198b0dbb5f98f8003f5645c0000c0b91551f2e7e98c0c3fe0f6230c6131ab5"

/* The source component name of a dir scan: the PATH argument as given. */
#define PRC_SYFT_SOURCE_NAME PRC_NATIVE_SNAPSHOT_MOUNT

/*
 * Normalize a CycloneDX document (see prc_native_normalize): the envelope
 * must be Syft 1.51.0's CycloneDX 1.7 shape; serialNumber, timestamp and the
 * source component's bom-ref are removed; components (by bom-ref), their
 * properties and hashes, and dependencies are ordered canonically.  Errors,
 * beyond the strict JSON ones: native-envelope, native-tool-identity,
 * native-metadata, native-component, native-purl, native-dependency,
 * native-count-limit, unknown-field, missing-field, wrong-type; and with
 * ctx->paths (the sealed inventory) native-path-outside for a location or
 * file component that is not an inventory file, native-inventory-mismatch
 * for a file component whose SHA-256 is not the inventory's.
 */
bool prc_syft_normalize(const prc_native_spec *s, const uint8_t *p, size_t n, const prc_native_ctx *ctx,
                        prc_native_result *out, prc_err *err) PRC_MUST_CHECK;

/* pkg:type/[namespace/]name[@version][?qualifiers][#subpath], with our byte rules. */
bool prc_purl_valid(const char *s);

#endif
