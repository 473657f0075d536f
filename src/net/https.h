/*
 * https.h - the one HTTPS client of prc (issue 17; DESIGN.md: "Fetching is
 * one HTTPS module on libcurl, used only by explicit commands").  `prc
 * setup native` fetches the pinned Gitleaks ruleset with it; later fetchers
 * (AUR snapshots) share it.  A scan never calls it.
 *
 * What it promises, whatever the caller asks:
 * - HTTPS only: the URL and every redirect must be https:// (at most
 *   opts->max_redirects of them, never more than PRC_HTTPS_REDIRECTS_MAX);
 * - TLS 1.2 or later with peer and host-name verification always on, against
 *   the system store or opts->cacert (a private CA);
 * - a byte cap (the body is refused as soon as it would pass it, and from a
 *   Content-Length that announces more), a connect and a whole-transfer
 *   timeout;
 * - nothing from the environment: no proxy variables (they can carry
 *   credentials and would put another party on the path), no .netrc, no
 *   cookies, no content decoding (the body is exactly the bytes the server
 *   sent: no decompressor ever reads downloaded bytes);
 * - the body hashed with SHA-256 while it streams.
 *
 * libcurl (Debian's libcurl4, OpenSSL flavour) is loaded with dlopen on the
 * first fetch, as libarchive is (src/base/libarchive.h): it is never mapped
 * into a content worker, and a prc without libcurl installed still scans.
 *
 * Trust: the server and the path to it are untrusted; the caller decides
 * on the bytes by a pinned digest, never by the URL.
 */
#ifndef PRC_NET_HTTPS_H
#define PRC_NET_HTTPS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/err.h"

enum { PRC_HTTPS_REDIRECTS_MAX = 5 };

typedef struct prc_https_opts {
        const char *cacert;             /* borrowed: PEM file of CAs trusted instead of the system store, or NULL */
        size_t      max_bytes;          /* body cap (required, > 0) */
        long        connect_timeout_ms; /* 0: 10 s */
        long        timeout_ms;         /* whole transfer; 0: 120 s */
        long        max_redirects;      /* 0..PRC_HTTPS_REDIRECTS_MAX */
        const char *user_agent;         /* borrowed: e.g. "prc/0.1.0", or NULL */
} prc_https_opts;

typedef struct prc_https_result {
        char   sha256[PRC_SHA256_HEX + 1];      /* of the body */
        long   status;                          /* final HTTP status */
        long   redirects;                       /* followed */
} prc_https_result;

/*
 * GET url and append the body to out (out's own ceiling applies too).  On
 * any failure out is truncated back to its length at the call: no partial
 * body is left.  Errors: https-scheme-refused, https-tls-failed,
 * https-connect-failed, https-timeout, https-size-cap, https-redirect-limit,
 * https-status, https-transfer-failed, library-unavailable (no libcurl 7.85
 * or later), usage (a malformed URL), out-of-memory.
 */
bool prc_https_get(const char *url, const prc_https_opts *o, prc_buf *out, prc_https_result *res,
                   prc_err *err) PRC_MUST_CHECK;

/*
 * The version of the libcurl prc_https_get would use ("8.14.1"), loading it
 * as a fetch does; NULL with library-unavailable (the reason) when it
 * cannot be loaded or is not usable (prc --version reports it).
 */
const char *prc_https_library_version(prc_err *err);

#endif
