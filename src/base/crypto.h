/*
 * crypto.h - libcrypto (OpenSSL 3), loaded on first use instead of linked.
 *
 * Why: binding libcrypto.so.3 at exec (about 21,000 relocations and 4,200
 * symbol lookups) cost about 3 ms of CPU in every prc process: the parent
 * and each content worker, which is a fresh exec of prc.  SHA-256 is prc's
 * own (base/digest.h), so libcrypto serves the Ed25519 signature checks
 * only (adapter/sig.c, adapter/trust.c), and the tests' and fuzz_sha256's
 * digests that prc's are held to; no content worker loads it.  The
 * library is still Debian's shared libssl3, so its security updates apply
 * as before.
 *
 * The table holds exactly the functions prc calls, typed from the
 * declarations of <openssl/evp.h> and <openssl/crypto.h>.
 *
 * Loading initializes the library without its configuration file
 * (OPENSSL_INIT_NO_LOAD_CONFIG): prc uses the default provider only, so
 * openssl.cnf, or a file OPENSSL_CONF names, is never read, and whatever
 * provider or engine modules such a file lists never load into prc.  It is
 * also about a millisecond less per process (measured).
 */
#ifndef PRC_CRYPTO_H
#define PRC_CRYPTO_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdbool.h>

#include "base/err.h"

/* Every function prc calls, by its full name: one list makes the table and its loading. */
#define PRC_CR_FUNCS(X)                                                                                 \
        X(EVP_Digest) X(EVP_DigestVerify) X(EVP_DigestVerifyInit) X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) \
        X(EVP_PKEY_free) X(EVP_PKEY_new_raw_public_key) X(EVP_sha256) X(OPENSSL_init_crypto) X(OpenSSL_version)

/* Each slot has the type of OpenSSL's own declaration. */
#define PRC_CR_SLOT(name) __typeof__(&name) name;
typedef struct prc_crypto {
        PRC_CR_FUNCS(PRC_CR_SLOT)
} prc_crypto;
#undef PRC_CR_SLOT

/*
 * libcrypto's functions as linked (src/base/crypto_linked.c), for a program
 * linked statically against libcrypto.a, where there is no libcrypto.so.3
 * to load: the OCI stand-ins, which run in scratch images.  Such a program
 * adds crypto_linked.c to its link; prc_crypto_load then takes this table
 * and loads nothing.  prc itself never links it (a weak reference: NULL).
 */
extern const prc_crypto prc_crypto_linked;

/*
 * prc_crypto_load: the table, loading libcrypto.so.3 on the first call
 * (thread-safe; later calls return the same table).  NULL with
 * library-unavailable when the library or one of the functions is missing,
 * it is older than the headers prc was built with, or prc_crypto_seal ran
 * first.  Needs open() the first time: a worker calls it before its floor.
 */
const prc_crypto *prc_crypto_load(prc_err *err) PRC_MUST_CHECK;

/*
 * The same table, for code that already had prc_crypto_load succeed (its
 * slots are filled once, under pthread_once, before that call returns).
 */
extern const prc_crypto *const prc_cr;

/* True once prc_crypto_load has loaded the library in this process. */
bool prc_crypto_loaded(void);

/*
 * No dlopen from now on: a later prc_crypto_load that has not loaded yet
 * refuses with library-unavailable ("this worker was started without
 * libcrypto").  A content worker calls it just before its floor, where a
 * dlopen (open, mmap PROT_EXEC) would be killed by seccomp.
 */
void prc_crypto_seal(void);

#if defined(PRC_TESTING) && PRC_TESTING
/* Tests only, in a forked child: the table as if never loaded and not sealed (the library stays mapped). */
void prc_crypto_test_forget(void);
#endif

#endif
