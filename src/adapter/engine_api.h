/*
 * engine_api.h - the engine API version this prc implements, where library
 * code can see it (the registry checks manifests against it).  cli/cli.h
 * keeps PRC_ENGINE_API for the CLI; cmd_adapter_registry.c asserts at
 * compile time that the two agree.
 */
#ifndef PRC_ADAPTER_ENGINE_API_H
#define PRC_ADAPTER_ENGINE_API_H

#define PRC_ADAPTER_ENGINE_API 1

#endif
