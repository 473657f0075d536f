/*
 * https.c - the HTTPS client of https.h over libcurl, loaded with dlopen.
 * Trust: server bytes are untrusted; they are counted, capped and hashed,
 * never parsed here.
 */
#include "net/https.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#define PRC_CURL_SONAME "libcurl.so.4"
/* CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR appeared in 7.85.0. */
#define PRC_CURL_MIN 0x075500

#define PRC_CURL_FUNCS(X) \
        X(global_init) X(version_info) X(easy_init) X(easy_setopt) X(easy_perform) X(easy_getinfo) \
        X(easy_cleanup) X(easy_strerror)

#define PRC_CURL_SLOT(name) __typeof__(&curl_##name) name;
static struct {
        PRC_CURL_FUNCS(PRC_CURL_SLOT)
} cu;
#undef PRC_CURL_SLOT

static pthread_once_t cu_once = PTHREAD_ONCE_INIT;
static atomic_bool cu_ok;
static char cu_why[160];

#define CU_SYM(name)                                                                                    \
        do {                                                                                            \
                void *p_ = dlsym(h, "curl_" #name);                                                     \
                if (p_ == NULL) {                                                                       \
                        snprintf(cu_why, sizeof(cu_why), "%s has no curl_%s", PRC_CURL_SONAME, #name);  \
                        return;                                                                         \
                }                                                                                       \
                memcpy(&cu.name, &p_, sizeof(p_));                                                      \
        } while (0);

static void cu_load(void)
{
        const curl_version_info_data *v;
        void *h = dlopen(PRC_CURL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);

        if (h == NULL) {
                const char *e = dlerror();
                snprintf(cu_why, sizeof(cu_why), "cannot load %s (Debian: libcurl4): %s", PRC_CURL_SONAME,
                         e ? e : "unknown error");
                return;
        }
        PRC_CURL_FUNCS(CU_SYM)
        v = cu.version_info(CURLVERSION_NOW);
        if (v == NULL || v->version_num < PRC_CURL_MIN) {
                snprintf(cu_why, sizeof(cu_why), "%s is older than 7.85.0", PRC_CURL_SONAME);
                return;
        }
        if (!(v->features & CURL_VERSION_SSL)) {
                snprintf(cu_why, sizeof(cu_why), "%s has no TLS support", PRC_CURL_SONAME);
                return;
        }
        /* once per process, before any handle (curl_global_init is not thread-safe in every version) */
        if (cu.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
                snprintf(cu_why, sizeof(cu_why), "curl_global_init failed");
                return;
        }
        atomic_store(&cu_ok, true);
}

const char *prc_https_library_version(prc_err *err)
{
        const curl_version_info_data *v;

        if (pthread_once(&cu_once, cu_load) != 0 || !atomic_load(&cu_ok)) {
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "%s", cu_why[0] ? cu_why : "libcurl could not be loaded");
                return NULL;
        }
        v = cu.version_info(CURLVERSION_NOW);
        return v != NULL && v->version != NULL ? v->version : "unknown";
}

typedef struct sink {
        prc_buf    *out;
        size_t      start, max;
        prc_sha256 *h;
        bool        over;       /* the body passed the cap */
        prc_err     err;        /* a buffer or hash failure inside the callback */
} sink;

static size_t on_body(char *p, size_t size, size_t nmemb, void *arg)
{
        sink *s = arg;
        size_t n = size * nmemb;

        if (n > s->max - (s->out->len - s->start)) {
                s->over = true;
                return 0;       /* CURLE_WRITE_ERROR: the transfer stops here */
        }
        if (!prc_buf_put(s->out, p, n, &s->err) || !prc_sha256_update(s->h, p, n, &s->err))
                return 0;
        return n;
}

/* Which class a libcurl result is. */
static prc_errclass class_of(CURLcode rc)
{
        switch (rc) {
        case CURLE_UNSUPPORTED_PROTOCOL: return PRC_E_HTTPS_SCHEME_REFUSED;
        case CURLE_URL_MALFORMAT: return PRC_E_USAGE;
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_CONNECT: return PRC_E_HTTPS_CONNECT_FAILED;
        case CURLE_OPERATION_TIMEDOUT: return PRC_E_HTTPS_TIMEOUT;
        case CURLE_FILESIZE_EXCEEDED: return PRC_E_HTTPS_SIZE_CAP;
        case CURLE_TOO_MANY_REDIRECTS: return PRC_E_HTTPS_REDIRECT_LIMIT;
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_SSL_INVALIDCERTSTATUS:
        case CURLE_SSL_ENGINE_INITFAILED:
        case CURLE_SSL_CRL_BADFILE:
        case CURLE_SSL_CLIENTCERT: return PRC_E_HTTPS_TLS_FAILED;
        default: return PRC_E_HTTPS_TRANSFER_FAILED;
        }
}

/* The scheme check before anything is loaded or sent (libcurl checks again, for redirects too). */
static bool https_url(const char *url)
{
        return strncasecmp(url, "https://", 8) == 0 && url[8] != '\0';
}

bool prc_https_get(const char *url, const prc_https_opts *o, prc_buf *out, prc_https_result *res, prc_err *err)
{
        char ebuf[CURL_ERROR_SIZE] = "";
        uint8_t md[PRC_SHA256_LEN];
        sink s = { .out = out, .start = out->len, .max = o->max_bytes };
        CURL *c = NULL;
        CURLcode rc;
        bool ok = false;

        memset(res, 0, sizeof(*res));
        prc_err_init(&s.err);
        if (url == NULL || !https_url(url))
                return prc_err_set(err, PRC_E_HTTPS_SCHEME_REFUSED, "only https:// URLs are fetched: '%.200s'",
                                   url ? url : "");
        if (o->max_bytes == 0 || o->max_redirects < 0 || o->max_redirects > PRC_HTTPS_REDIRECTS_MAX)
                return prc_err_set(err, PRC_E_INTERNAL, "https options out of range");
        if (pthread_once(&cu_once, cu_load) != 0 || !atomic_load(&cu_ok))
                return prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "%s",
                                   cu_why[0] ? cu_why : "libcurl could not be loaded");
        s.h = prc_sha256_new(err);
        if (s.h == NULL)
                return false;
        c = cu.easy_init();
        if (c == NULL) {
                prc_err_oom(err, "curl handle");
                goto out;
        }
        /*
         * Each option below is one promise of https.h.  Long options take a
         * long, string options a char *, the _LARGE one a curl_off_t: the
         * variadic call is only as safe as these types.
         */
        if (cu.easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_URL, url) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https") != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https") != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_FOLLOWLOCATION, o->max_redirects > 0 ? 1L : 0L) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_MAXREDIRS, o->max_redirects) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2) != CURLE_OK ||
            (o->cacert != NULL && cu.easy_setopt(c, CURLOPT_CAINFO, o->cacert) != CURLE_OK) ||
            cu.easy_setopt(c, CURLOPT_PROXY, "") != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 10000L) !=
                    CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms > 0 ? o->timeout_ms : 120000L) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_bytes) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
            cu.easy_setopt(c, CURLOPT_WRITEDATA, &s) != CURLE_OK ||
            (o->user_agent != NULL && cu.easy_setopt(c, CURLOPT_USERAGENT, o->user_agent) != CURLE_OK)) {
                prc_err_set(err, PRC_E_LIBRARY_UNAVAILABLE, "libcurl refused a required option");
                goto out;
        }
        rc = cu.easy_perform(c);
        (void)cu.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &res->status);
        (void)cu.easy_getinfo(c, CURLINFO_REDIRECT_COUNT, &res->redirects);
        if (s.over) {
                prc_err_set(err, PRC_E_HTTPS_SIZE_CAP, "the body is larger than %zu bytes", o->max_bytes);
                goto out;
        }
        if (prc_err_is_set(&s.err)) {
                *err = s.err;
                goto out;
        }
        if (rc != CURLE_OK) {
                prc_err_set(err, class_of(rc), "%.200s", ebuf[0] ? ebuf : cu.easy_strerror(rc));
                goto out;
        }
        if (res->status != 200) {
                prc_err_set(err, PRC_E_HTTPS_STATUS, "HTTP status %ld, not 200", res->status);
                goto out;
        }
        if (!prc_sha256_final(s.h, md, err))
                goto out;
        prc_hex_encode(md, sizeof(md), res->sha256);
        ok = true;
out:
        if (c != NULL)
                cu.easy_cleanup(c);
        prc_sha256_free(s.h);
        if (!ok)
                prc_buf_truncate(out, s.start);
        return ok;
}
