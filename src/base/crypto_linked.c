/*
 * crypto_linked.c - libcrypto's functions as linked, for a statically
 * linked program that has no libcrypto.so.3 to load (base/crypto.h
 * prc_crypto_linked; the OCI stand-ins).  Its strong references pull the
 * functions out of libcrypto.a; prc, which never links this file, loads
 * the shared library instead.
 */
#include "base/crypto.h"

#define PRC_CR_LINKED(name) .name = name,
const prc_crypto prc_crypto_linked = { PRC_CR_FUNCS(PRC_CR_LINKED) };
