/*
 * fuzz_sha256.c - prc's SHA-256 (base/digest.h) against libcrypto's.  The
 * first byte picks a chunk size (1 to 256) for the streamed digest; the
 * rest is the message.  Invariants: the one-shot digest on the CPU's path,
 * the streamed one, and the one-shot digest on the portable path all equal
 * libcrypto's EVP_Digest of the message, and a context reused after final
 * digests the next message from scratch.
 */
#include "fuzz.h"

#include <string.h>

#include "base/crypto.h"
#include "base/digest.h"

PRC_FUZZ_TARGET(sha256)
{
        static prc_sha256 *h;
        unsigned char want[EVP_MAX_MD_SIZE];
        uint8_t one[PRC_SHA256_LEN], st[PRC_SHA256_LEN], c[PRC_SHA256_LEN];
        const prc_crypto *cr;
        unsigned int wn = 0;
        size_t chunk;
        prc_err err;

        if (n == 0)
                return 0;
        chunk = (size_t)p[0] + 1;
        p++;
        n--;
        prc_err_init(&err);
        cr = prc_crypto_load(&err);
        if (h == NULL)
                h = prc_sha256_new(&err);
        if (cr == NULL || h == NULL)
                __builtin_trap();       /* libcrypto missing or no memory: the harness cannot judge */
        if (cr->EVP_Digest(n > 0 ? p : (const uint8_t *)"", n, want, &wn, cr->EVP_sha256(), NULL) != 1 || wn != 32)
                __builtin_trap();
        if (!prc_sha256_once(p, n, one, &err))
                __builtin_trap();
        /* Half a message first: final must forget it, as every reuse after final relies on. */
        if (!prc_sha256_update(h, p, n / 2, &err) || !prc_sha256_reset(h, &err))
                __builtin_trap();
        for (size_t at = 0; at < n; at += chunk)
                if (!prc_sha256_update(h, p + at, n - at < chunk ? n - at : chunk, &err))
                        __builtin_trap();
        if (!prc_sha256_final(h, st, &err))
                __builtin_trap();
        prc_sha256_test_portable(true);
        if (!prc_sha256_once(p, n, c, &err))
                __builtin_trap();
        prc_sha256_test_portable(false);
        if (memcmp(one, want, 32) != 0 || memcmp(st, want, 32) != 0 || memcmp(c, want, 32) != 0)
                __builtin_trap();
        return 0;
}
