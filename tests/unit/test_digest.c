/*
 * test_digest.c - prc's SHA-256 on both its paths (SHA-NI and portable C):
 * the FIPS 180-2 vectors, streaming in odd chunk sizes equals one-shot, every
 * length across the padding's cases against libcrypto's digest; hex
 * encoding, strict digest parsing, and libcrypto's table (base/crypto.h):
 * loaded on first use, refused once sealed, while hashing needs no library.
 */
#include "t.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/crypto.h"
#include "base/digest.h"

static void hex_of(const void *p, size_t n, char out[PRC_SHA256_HEX + 1])
{
        prc_err e;

        prc_err_init(&e);
        if (!prc_sha256_hex_once(p, n, out, &e))
                t_fail(__FILE__, __LINE__, "sha256 failed: %s", e.msg);
}

/*
 * Each hashing test runs body on the CPU's path and then on the portable one
 * (the same path twice on a CPU without the SHA extensions).
 */
static void on_both_paths(void (*body)(void))
{
        body();
        prc_sha256_test_portable(true);
        body();
        prc_sha256_test_portable(false);
}

static void known_vectors(void)
{
        static const char nist448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        static const char nist896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                                      "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
        char hex[PRC_SHA256_HEX + 1];

        hex_of("", 0, hex);
        T_EQ_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        hex_of(NULL, 0, hex);   /* an empty message may come as NULL */
        T_EQ_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        hex_of("abc", 3, hex);
        T_EQ_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        T_EQ_INT(strlen(nist448) * 8, 448);
        hex_of(nist448, strlen(nist448), hex);
        T_EQ_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        T_EQ_INT(strlen(nist896) * 8, 896);
        hex_of(nist896, strlen(nist896), hex);
        T_EQ_STR(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_digest__known_vectors(void)
{
        on_both_paths(known_vectors);
}

static void million_a(void)
{
        static const size_t chunks[] = { 1, 3, 63, 64, 65, 127, 4099 };
        uint8_t md[PRC_SHA256_LEN];
        char hex[PRC_SHA256_HEX + 1];
        char a[4099];
        size_t done = 0, k = 0;
        prc_sha256 *h;
        prc_err e;

        prc_err_init(&e);
        memset(a, 'a', sizeof(a));
        h = prc_sha256_new(&e);
        T_ASSERT(h != NULL);
        while (done < 1000000) {
                size_t n = chunks[k++ % PRC_ARRAY_LEN(chunks)];
                if (n > 1000000 - done)
                        n = 1000000 - done;
                T_ASSERT(prc_sha256_update(h, a, n, &e));
                done += n;
        }
        T_ASSERT(prc_sha256_final(h, md, &e));
        prc_hex_encode(md, sizeof(md), hex);
        T_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        prc_sha256_free(h);
}

static void test_digest__million_a_streamed_in_odd_chunks(void)
{
        on_both_paths(million_a);
}

static void mib_streamed(void)
{
        size_t n = 1u << 20;
        uint8_t *p = malloc(n), one[PRC_SHA256_LEN], st[PRC_SHA256_LEN], again[PRC_SHA256_LEN];
        prc_sha256 *h;
        prc_err e;
        size_t off = 0, step = 1;

        T_ASSERT(p != NULL);
        for (size_t i = 0; i < n; i++)
                p[i] = (uint8_t)(i * 2654435761u >> 13);
        prc_err_init(&e);
        T_ASSERT(prc_sha256_once(p, n, one, &e));
        h = prc_sha256_new(&e);
        T_ASSERT(h != NULL);
        while (off < n) {                       /* chunk sizes 1, 8, 27, ... odd and even, crossing blocks */
                size_t c = step * step * step % 9973 + 1;
                if (c > n - off)
                        c = n - off;
                T_ASSERT(prc_sha256_update(h, p + off, c, &e));
                off += c;
                step++;
        }
        T_ASSERT(prc_sha256_update(h, NULL, 0, &e));
        T_ASSERT(prc_sha256_final(h, st, &e));
        T_EQ_INT(memcmp(one, st, sizeof(one)), 0);
        /* final resets: the same context digests the next message from scratch */
        T_ASSERT(prc_sha256_update(h, p, n, &e));
        T_ASSERT(prc_sha256_final(h, again, &e));
        T_EQ_INT(memcmp(one, again, sizeof(one)), 0);
        /* an explicit reset drops a half-fed message */
        T_ASSERT(prc_sha256_update(h, "junk", 4, &e));
        T_ASSERT(prc_sha256_reset(h, &e));
        T_ASSERT(prc_sha256_update(h, p, n, &e));
        T_ASSERT(prc_sha256_final(h, again, &e));
        T_EQ_INT(memcmp(one, again, sizeof(one)), 0);
        T_NOERR(e);
        prc_sha256_free(h);
        prc_sha256_free(NULL);
        free(p);
}

static void test_digest__mib_streamed_equals_one_shot_and_reuse(void)
{
        on_both_paths(mib_streamed);
}

/*
 * Every length from 0 to 1,100 bytes (each padding case: 55, 56, 63, 64 and
 * 119 bytes into a block, and many blocks), one-shot and streamed in three
 * uneven pieces, on both paths, against libcrypto's EVP_Digest of the same
 * bytes: the differential fuzz_sha256 runs, pinned in the suite.
 */
static void test_digest__every_length_agrees_with_libcrypto(void)
{
        enum { MAX = 1100 };
        uint8_t *p = malloc(MAX), want[EVP_MAX_MD_SIZE], one[PRC_SHA256_LEN], st[PRC_SHA256_LEN];
        const prc_crypto *cr;
        prc_sha256 *h;
        unsigned int wn;
        prc_err e;

        T_ASSERT(p != NULL);
        for (size_t i = 0; i < MAX; i++)
                p[i] = (uint8_t)((i * 2654435761u) >> 11 ^ i);
        prc_err_init(&e);
        cr = prc_crypto_load(&e);
        T_ASSERT(cr != NULL);
        h = prc_sha256_new(&e);
        T_ASSERT(h != NULL);
        for (int path = 0; path < 2; path++) {
                prc_sha256_test_portable(path == 1);
                for (size_t n = 0; n <= MAX; n++) {
                        size_t a = n / 3, b = n / 3 + (n % 7);

                        if (b > n)
                                b = n;
                        T_ASSERT(cr->EVP_Digest(p, n, want, &wn, cr->EVP_sha256(), NULL) == 1 && wn == 32);
                        T_ASSERT(prc_sha256_once(p, n, one, &e));
                        T_ASSERT(prc_sha256_update(h, p, a, &e) && prc_sha256_update(h, p + a, b - a, &e) &&
                                 prc_sha256_update(h, p + b, n - b, &e) && prc_sha256_final(h, st, &e));
                        if (memcmp(one, want, 32) != 0 || memcmp(st, want, 32) != 0)
                                t_fail(__FILE__, __LINE__, "%s path: %zu bytes differ from libcrypto's digest",
                                       path == 1 ? "portable" : "CPU's", n);
                }
        }
        prc_sha256_test_portable(false);
        prc_sha256_free(h);
        free(p);
}

static void test_digest__hex_encode(void)
{
        static const uint8_t in[] = { 0x00, 0x0f, 0xf0, 0xab, 0xff };
        char out[11];

        prc_hex_encode(in, sizeof(in), out);
        T_EQ_STR(out, "000ff0abff");
        prc_hex_encode(in, 0, out);
        T_EQ_STR(out, "");
}

#define ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static void test_digest__parse_accepts_lowercase_64(void)
{
        uint8_t d[PRC_SHA256_LEN], want[PRC_SHA256_LEN];
        char back[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_digest_parse(ABC, 64, d, &e));
        T_ASSERT(prc_sha256_once("abc", 3, want, &e));
        T_EQ_INT(memcmp(d, want, sizeof(d)), 0);
        prc_hex_encode(d, sizeof(d), back);
        T_EQ_STR(back, ABC);
        T_ASSERT(prc_digest_valid(ABC));
        T_ASSERT(prc_digest_parse_prefixed("sha256:" ABC, d, &e));
        T_EQ_INT(memcmp(d, want, sizeof(d)), 0);
        T_NOERR(e);
}

static void expect_bad(const char *s, size_t len, int line)
{
        uint8_t d[PRC_SHA256_LEN], keep[PRC_SHA256_LEN];
        prc_err e;

        memset(d, 0x5a, sizeof(d));
        memcpy(keep, d, sizeof(d));
        prc_err_init(&e);
        if (prc_digest_parse(s, len, d, &e))
                t_fail(__FILE__, line, "accepted '%.*s'", (int)len, s);
        if (e.cls != PRC_E_INVALID_DIGEST)
                t_fail(__FILE__, line, "class %s, want invalid-digest", prc_err_name(e.cls));
        if (memcmp(d, keep, sizeof(d)) != 0)
                t_fail(__FILE__, line, "output written on failure");
}

static void test_digest__parse_rejects_case_length_and_junk(void)
{
        char s[80];
        prc_err e;

        /* upper case, anywhere */
        snprintf(s, sizeof(s), "%s", ABC);
        s[0] = 'B';
        expect_bad(s, 64, __LINE__);
        snprintf(s, sizeof(s), "%s", ABC);
        s[63] = 'D';
        expect_bad(s, 64, __LINE__);
        /* short and long */
        expect_bad(ABC, 63, __LINE__);
        expect_bad(ABC "0", 65, __LINE__);
        expect_bad("", 0, __LINE__);
        /* non-hex: g, space, NUL inside the length */
        snprintf(s, sizeof(s), "%s", ABC);
        s[10] = 'g';
        expect_bad(s, 64, __LINE__);
        s[10] = ' ';
        expect_bad(s, 64, __LINE__);
        s[10] = '\0';
        expect_bad(s, 64, __LINE__);
        /* the prefixed form is not accepted by the bare parser */
        expect_bad("sha256:" ABC, 71, __LINE__);
        T_ASSERT(!prc_digest_valid(NULL));
        T_ASSERT(!prc_digest_valid(ABC "\n"));
        /* offset of the first bad character */
        snprintf(s, sizeof(s), "%s", ABC);
        s[5] = 'X';
        prc_err_init(&e);
        T_ASSERT(!prc_digest_parse(s, 64, (uint8_t[PRC_SHA256_LEN]){ 0 }, &e));
        T_EQ_INT(e.off, 5);
}

static void test_digest__prefixed_form_is_strict(void)
{
        static const char *const bad[] = {
                ABC,                            /* bare */
                "SHA256:" ABC,                  /* prefix case */
                "sha256: " ABC,                 /* space */
                "sha-256:" ABC,
                "sha512:" ABC,
                "sha256:",
                "sha256:" ABC "0",
                "sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
                "sha256:sha256:" ABC,
                "",
        };
        uint8_t d[PRC_SHA256_LEN];

        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err e;
                prc_err_init(&e);
                if (prc_digest_parse_prefixed(bad[i], d, &e))
                        t_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
                T_ERR(e, PRC_E_INVALID_DIGEST);
        }
}

static void test_digest__context_allocation_failure_is_oom(void)
{
        prc_sha256 *h;
        prc_err e;

        prc_err_init(&e);
        prc_fault_arm(1, false);
        h = prc_sha256_new(&e);
        prc_fault_arm(0, false);
        T_ASSERT(h == NULL);
        T_ERR(e, PRC_E_OUT_OF_MEMORY);
}

/* Every slot filled, the same table each time, and its digest is the FIPS 180-2 "abc" vector. */
static void test_digest__libcrypto_table_loads_whole(void)
{
        const prc_crypto *cr;
        unsigned char md[EVP_MAX_MD_SIZE];
        char hex[PRC_SHA256_HEX + 1];
        unsigned int n = 0;
        prc_err e;

        prc_err_init(&e);
        cr = prc_crypto_load(&e);
        T_NOERR(e);
        T_ASSERT(cr != NULL && cr == prc_cr);
        T_ASSERT(prc_crypto_loaded());
#define SLOT_SET(name) T_ASSERT(cr->name != NULL);
        PRC_CR_FUNCS(SLOT_SET)
#undef SLOT_SET
        T_ASSERT(prc_crypto_load(&e) == cr);
        T_ASSERT(strncmp(cr->OpenSSL_version(OPENSSL_VERSION), "OpenSSL 3.", 10) == 0);
        T_ASSERT(cr->EVP_Digest("abc", 3, md, &n, cr->EVP_sha256(), NULL) == 1 && n == PRC_SHA256_LEN);
        prc_hex_encode(md, PRC_SHA256_LEN, hex);
        T_EQ_STR(hex, ABC);
}

/*
 * In a forked child, as a content worker: the table forgotten, then sealed
 * as worker.c does before its floor.  Every hashing entry point works, and
 * none loads libcrypto; loading it is refused.  Exit codes say which check
 * failed; a signal would mean it died.
 */
static int sealed_child(void)
{
        char hex[PRC_SHA256_HEX + 1];
        uint8_t md[PRC_SHA256_LEN];
        prc_sha256 *h;
        prc_err e;

        prc_crypto_test_forget();
        if (prc_crypto_loaded())
                return 10;
        prc_crypto_seal();
        prc_err_init(&e);
        if (!prc_sha256_hex_once("abc", 3, hex, &e) || strcmp(hex, ABC) != 0)
                return 11;
        if (!prc_sha256_once("abc", 3, md, &e) || memcmp(md, "\xba\x78\x16\xbf", 4) != 0)
                return 12;
        h = prc_sha256_new(&e);
        if (h == NULL || !prc_sha256_update(h, "abc", 3, &e) || !prc_sha256_final(h, md, &e) ||
            memcmp(md, "\xba\x78\x16\xbf", 4) != 0) {
                prc_sha256_free(h);
                return 13;
        }
        prc_sha256_free(h);
        if (prc_crypto_load(&e) != NULL || e.cls != PRC_E_LIBRARY_UNAVAILABLE ||
            strcmp(e.msg, "this worker was started without libcrypto") != 0)
                return 14;
        /* No dlopen ran: the table is still empty. */
        if (prc_crypto_loaded() || prc_cr->EVP_Digest != NULL)
                return 15;
        return 0;
}

static void test_digest__a_sealed_worker_hashes_without_libcrypto(void)
{
        int status;
        pid_t pid;

        fflush(NULL);
        pid = fork();
        T_ASSERT(pid >= 0);
        if (pid == 0)
                _exit(sealed_child());
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        if (!WIFEXITED(status))
                t_fail(__FILE__, __LINE__, "the sealed child died (status %#x)", status);
        T_EQ_INT(WEXITSTATUS(status), 0);
}

/* Loaded before the seal: the table stays, and serves after it. */
static void test_digest__loaded_before_the_seal_keeps_its_table(void)
{
        int status;
        pid_t pid;

        fflush(NULL);
        pid = fork();
        T_ASSERT(pid >= 0);
        if (pid == 0) {
                unsigned char md[EVP_MAX_MD_SIZE];
                unsigned int n = 0;
                prc_err e;
                prc_crypto_test_forget();
                prc_err_init(&e);
                if (prc_crypto_load(&e) == NULL)
                        _exit(10);
                prc_crypto_seal();
                if (prc_crypto_load(&e) != prc_cr)
                        _exit(11);
                if (prc_cr->EVP_Digest("abc", 3, md, &n, prc_cr->EVP_sha256(), NULL) != 1 || n != 32)
                        _exit(12);
                _exit(memcmp(md, "\xba\x78\x16\xbf", 4) == 0 ? 0 : 13);
        }
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        T_ASSERT(WIFEXITED(status));
        T_EQ_INT(WEXITSTATUS(status), 0);
}

static const prc_test tests[] = {
        T(test_digest__known_vectors),
        T(test_digest__million_a_streamed_in_odd_chunks),
        T(test_digest__mib_streamed_equals_one_shot_and_reuse),
        T(test_digest__every_length_agrees_with_libcrypto),
        T(test_digest__hex_encode),
        T(test_digest__parse_accepts_lowercase_64),
        T(test_digest__parse_rejects_case_length_and_junk),
        T(test_digest__prefixed_form_is_strict),
        T(test_digest__context_allocation_failure_is_oom),
        T(test_digest__libcrypto_table_loads_whole),
        T(test_digest__a_sealed_worker_hashes_without_libcrypto),
        T(test_digest__loaded_before_the_seal_keeps_its_table),
};
PRC_SUITE(digest, tests)
