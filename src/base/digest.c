/*
 * digest.c - SHA-256 of prc's own (FIPS 180-4), with the x86 SHA extensions
 * where the CPU has them, hex encoding, strict parsing.
 * Trust: engine-side and worker-side; digest strings parsed here come from
 * hostile documents, so the parser accepts exactly one spelling.
 *
 * Why not libcrypto's: loading libcrypto.so.3 took 5-11 ms at the start of
 * every inventory (dlopen, relocations, the provider fetch, most of it pages
 * the host had taken back), while the walk waited for its first hash
 * (docs/extraction/peers.md, session 24).  The compression function is
 * short and fully pinned by the FIPS vectors, the tests and fuzz_sha256,
 * which holds both paths to libcrypto's digest of every input.  SHA-256
 * handles no secret here, so timing is not a concern.
 */
#include "base/digest.h"

#include <stdatomic.h>
#include <string.h>

#include "base/alloc.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

struct prc_sha256 {
        uint32_t        h[8];
        uint64_t        bytes;          /* message length so far */
        size_t          fill;           /* bytes waiting in buf */
        uint8_t         buf[64];
};

static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t H0[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t ror(uint32_t x, unsigned n)
{
        return x >> n | x << (32 - n);
}

static uint32_t be32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* nblocks 64-byte blocks into h, in portable C (FIPS 180-4 section 6.2.2). */
static void blocks_c(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
        uint32_t w[64];

        for (; nblocks > 0; nblocks--, p += 64) {
                uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];

                for (int t = 0; t < 16; t++)
                        w[t] = be32(p + 4 * t);
                for (int t = 16; t < 64; t++) {
                        uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ w[t - 15] >> 3;
                        uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ w[t - 2] >> 10;
                        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
                }
                for (int t = 0; t < 64; t++) {
                        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
                        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
                        k = g;
                        g = f;
                        f = e;
                        e = d + t1;
                        d = c;
                        c = b;
                        b = a;
                        a = t1 + t2;
                }
                h[0] += a;
                h[1] += b;
                h[2] += c;
                h[3] += d;
                h[4] += e;
                h[5] += f;
                h[6] += g;
                h[7] += k;
        }
}

#if defined(__x86_64__)
/*
 * The same with SHA-NI: the state lives as two vectors, ABEF and CDGH (the
 * order sha256rnds2 takes), each instruction doing two rounds; msg1/msg2
 * extend the schedule four words at a time (Intel's "New Instructions
 * Supporting the Secure Hash Algorithm on Intel Architecture Processors").
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_ni(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
        const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
        __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
        __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
        __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
        __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
        __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

        for (; nblocks > 0; nblocks--, p += 64) {
                const __m128i abef0 = abef, cdgh0 = cdgh;
                __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
                __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
                __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
                __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
                __m128i m;

/* Four rounds with schedule words W (K's words from k). */
#define ROUNDS4(W, k)                                                                   \
        do {                                                                            \
                m = _mm_add_epi32((W), _mm_loadu_si128((const __m128i *)&K[(k)]));      \
                cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);                            \
                abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0E));   \
        } while (0)
/* The next four words into A from the last sixteen, A B C D oldest first: sigma0, the words 7 back, sigma1. */
#define SCHEDULE(A, B, C, D) \
        (A) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((A), (B)), _mm_alignr_epi8((D), (C), 4)), (D))

                ROUNDS4(w0, 0);
                ROUNDS4(w1, 4);
                ROUNDS4(w2, 8);
                ROUNDS4(w3, 12);
                for (int k = 16; k < 64; k += 16) {
                        SCHEDULE(w0, w1, w2, w3);
                        ROUNDS4(w0, k);
                        SCHEDULE(w1, w2, w3, w0);
                        ROUNDS4(w1, k + 4);
                        SCHEDULE(w2, w3, w0, w1);
                        ROUNDS4(w2, k + 8);
                        SCHEDULE(w3, w0, w1, w2);
                        ROUNDS4(w3, k + 12);
                }
#undef SCHEDULE
#undef ROUNDS4
                abef = _mm_add_epi32(abef, abef0);
                cdgh = _mm_add_epi32(cdgh, cdgh0);
        }
        {
                __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
                __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);

                _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
                _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
        }
}
#endif

typedef void blocks_fn(uint32_t h[8], const uint8_t *p, size_t nblocks);

/* The path taken: SHA-NI when CPUID says SHA, SSSE3 and SSE4.1 (valgrind's CPU says no SHA). */
static blocks_fn *pick(void)
{
#if defined(__x86_64__)
        unsigned a, b, c, d;

        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
            __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA))
                return blocks_ni;
#endif
        return blocks_c;
}

/* Chosen on first use; two threads choosing at once choose alike. */
static _Atomic(blocks_fn *) chosen;
#if defined(PRC_TESTING) && PRC_TESTING
static _Atomic bool force_c;
#endif

static blocks_fn *blocks(void)
{
        blocks_fn *f = atomic_load_explicit(&chosen, memory_order_relaxed);

#if defined(PRC_TESTING) && PRC_TESTING
        if (atomic_load(&force_c))
                return blocks_c;
#endif
        if (f == NULL) {
                f = pick();
                atomic_store_explicit(&chosen, f, memory_order_relaxed);
        }
        return f;
}

bool prc_sha256_hw(void)
{
        return blocks() != blocks_c;
}

#if defined(PRC_TESTING) && PRC_TESTING
void prc_sha256_test_portable(bool on)
{
        atomic_store(&force_c, on);
}
#endif

static void init(prc_sha256 *s)
{
        memcpy(s->h, H0, sizeof(H0));
        s->bytes = 0;
        s->fill = 0;
}

static void update(prc_sha256 *s, const uint8_t *p, size_t n)
{
        blocks_fn *f = blocks();

        s->bytes += n;
        if (s->fill > 0) {
                size_t take = 64 - s->fill < n ? 64 - s->fill : n;

                memcpy(s->buf + s->fill, p, take);
                s->fill += take;
                p += take;
                n -= take;
                if (s->fill < 64)
                        return;
                f(s->h, s->buf, 1);
                s->fill = 0;
        }
        if (n >= 64) {
                f(s->h, p, n / 64);
                p += n / 64 * 64;
                n %= 64;
        }
        if (n > 0)
                memcpy(s->buf, p, n);
        s->fill = n;
}

/* The padding (a 1 bit, zeros, the length in bits, big-endian) and the digest; s is then unusable until init. */
static void finish(prc_sha256 *s, uint8_t out[PRC_SHA256_LEN])
{
        uint64_t bits = s->bytes * 8;
        uint8_t pad[72] = { 0x80 };
        size_t npad = (s->fill < 56 ? 56 : 120) - s->fill;

        for (int i = 0; i < 8; i++)
                pad[npad + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
        update(s, pad, npad + 8);
        for (int i = 0; i < 8; i++) {
                out[4 * i] = (uint8_t)(s->h[i] >> 24);
                out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
                out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
                out[4 * i + 3] = (uint8_t)s->h[i];
        }
}

prc_sha256 *prc_sha256_new(prc_err *err)
{
        prc_sha256 *h = prc_calloc(1, sizeof(*h));

        if (h == NULL) {
                prc_err_oom(err, "a SHA-256 context");
                return NULL;
        }
        init(h);
        return h;
}

void prc_sha256_free(prc_sha256 *h)
{
        free(h);
}

bool prc_sha256_reset(prc_sha256 *h, prc_err *err)
{
        (void)err;
        init(h);
        return true;
}

bool prc_sha256_update(prc_sha256 *h, const void *p, size_t n, prc_err *err)
{
        (void)err;
        if (n > 0)
                update(h, p, n);
        return true;
}

bool prc_sha256_final(prc_sha256 *h, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        (void)err;
        finish(h, out);
        init(h);
        return true;
}

bool prc_sha256_once(const void *p, size_t n, uint8_t out[PRC_SHA256_LEN], prc_err *err)
{
        prc_sha256 s;

        (void)err;
        init(&s);
        if (n > 0)
                update(&s, p, n);
        finish(&s, out);
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
