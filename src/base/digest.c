/*
 * digest.c - SHA-256 via libcrypto EVP (uses SHA-NI where the CPU has it),
 * through the table of base/crypto.h: the first hash loads libcrypto, and
 * one that cannot (or a worker started without it) is library-unavailable.
 * Trust: engine-side and worker-side; digest strings parsed here come from
 * hostile documents, so the parser accepts exactly one spelling.
 */
#include "base/digest.h"

#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "base/crypto.h"

struct prc_sha256 {
        EVP_MD_CTX *ctx;        /* owned */
};

/*
 * The SHA-256 implementation, fetched once: with OpenSSL 3 every init from
 * EVP_sha256() does an implicit provider fetch under a global lock
 * (measured: 8% of a 10,000-file run-oci's CPU).  Falls back to
 * EVP_sha256() if the fetch fails.
 */
static pthread_once_t md_once = PTHREAD_ONCE_INIT;
static const EVP_MD *md_fetched;

static void md_fetch(void)
{
        md_fetched = prc_cr->EVP_MD_fetch(NULL, "SHA256", NULL);
}

/* Only after prc_crypto_load succeeded (a context exists, or prc_sha256_once checked). */
static const EVP_MD *sha256_md(void)
{
        (void)pthread_once(&md_once, md_fetch);
        return md_fetched != NULL ? md_fetched : prc_cr->EVP_sha256();
}

prc_sha256 *prc_sha256_new(prc_err *err)
{
        prc_sha256 *h;

        if (prc_crypto_load(err) == NULL)
                return NULL;
        h = prc_calloc(1, sizeof(*h));
        if (h == NULL) {
                prc_err_oom(err, "a SHA-256 context");
                return NULL;
        }
        h->ctx = prc_cr->EVP_MD_CTX_new();
        if (h->ctx == NULL || prc_cr->EVP_DigestInit_ex(h->ctx, sha256_md(), NULL) != 1) {
                /* Only the context is memory: an init that fails is libcrypto's (no SHA-256 to be had). */
                if (h->ctx == NULL)
                        prc_err_oom(err, "a SHA-256 context");
                else
                        prc_err_set(err, PRC_E_INTERNAL, "SHA-256 init failed");
                prc_cr->EVP_MD_CTX_free(h->ctx);
                free(h);
                return NULL;
        }
        return h;
}

void prc_sha256_free(prc_sha256 *h)
{
        if (h == NULL)
                return;
        prc_cr->EVP_MD_CTX_free(h->ctx);
        free(h);
}

bool prc_sha256_reset(prc_sha256 *h, prc_err *err)
{
        if (prc_cr->EVP_DigestInit_ex(h->ctx, sha256_md(), NULL) != 1)
                return prc_err_set(err, PRC_E_INTERNAL, "SHA-256 init failed");
        return true;
}

bool prc_sha256_update(prc_sha256 *h, const void *p, size_t n, prc_err *err)
{
        if (n == 0)
                return true;
        if (prc_cr->EVP_DigestUpdate(h->ctx, p, n) != 1)
                return prc_err_set(err, PRC_E_INTERNAL, "SHA-256 update failed");
        return true;
}

bool prc_sha256_final(prc_sha256 *h, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        uint8_t md[EVP_MAX_MD_SIZE];
        unsigned int n = 0;

        /* Outputs are written only on success. */
        if (prc_cr->EVP_DigestFinal_ex(h->ctx, md, &n) != 1 || n != PRC_SHA256_LEN)
                return prc_err_set(err, PRC_E_INTERNAL, "SHA-256 final failed");
        if (!prc_sha256_reset(h, err))
                return false;
        memcpy(out, md, PRC_SHA256_LEN);
        return true;
}

bool prc_sha256_once(const void *p, size_t n, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        uint8_t md[EVP_MAX_MD_SIZE];
        unsigned int len = 0;

        if (prc_crypto_load(err) == NULL)
                return false;
        if (prc_cr->EVP_Digest(n ? p : "", n, md, &len, sha256_md(), NULL) != 1 || len != PRC_SHA256_LEN)
                return prc_err_set(err, PRC_E_INTERNAL, "SHA-256 failed");
        memcpy(out, md, PRC_SHA256_LEN);
        return true;
}

bool prc_sha256_hex_once(const void *p, size_t n, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        uint8_t d[PRC_SHA256_LEN];

        if (!prc_sha256_once(p, n, d, err))
                return false;
        prc_hex_encode(d, sizeof(d), out);
        return true;
}

void prc_hex_encode(const uint8_t *p, size_t n, char *out)
{
        static const char hx[] = "0123456789abcdef";

        for (size_t i = 0; i < n; i++) {
                out[2 * i] = hx[p[i] >> 4];
                out[2 * i + 1] = hx[p[i] & 15];
        }
        out[2 * n] = '\0';
}

static int hexval(unsigned char c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        return -1;      /* upper case is deliberately not a digit here */
}

bool prc_digest_parse(const char *s, size_t len, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        uint8_t tmp[PRC_SHA256_LEN];

        if (s == NULL || len != PRC_SHA256_HEX)
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "digest has %zu characters, want 64", len);
        for (size_t i = 0; i < PRC_SHA256_LEN; i++) {
                int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
                if (hi < 0 || lo < 0)
                        return prc_err_at(err, PRC_E_INVALID_DIGEST, hi < 0 ? 2 * i : 2 * i + 1,
                                          "digest is not 64 lowercase hex characters");
                tmp[i] = (uint8_t)(hi << 4 | lo);
        }
        memcpy(out, tmp, sizeof(tmp));
        return true;
}

bool prc_digest_valid(const char *s)
{
        uint8_t d[PRC_SHA256_LEN];
        prc_err e;

        prc_err_init(&e);
        return s != NULL && prc_digest_parse(s, strlen(s), d, &e);
}

bool prc_digest_parse_prefixed(const char *s, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        if (s == NULL || strncmp(s, "sha256:", 7) != 0)
                return prc_err_set(err, PRC_E_INVALID_DIGEST, "digest does not start with 'sha256:'");
        return prc_digest_parse(s + 7, strlen(s + 7), out, err);
}
