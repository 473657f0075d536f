/*
 * aur.h - AUR snapshot fetches (issue 20): `prc aur fetch NAME` and `prc
 * scan --aur NAME` download BASE/cgit/aur.git/snapshot/NAME.tar.gz with the
 * one HTTPS client (net/https.h).  The name's syntax is checked before any
 * request; the body is capped at what the content worker's walk takes.
 * Trust: the server is untrusted; the bytes are only counted and hashed
 * here, and walked in the content worker by whoever scans them.
 */
#ifndef PRC_NET_AUR_H
#define PRC_NET_AUR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "net/https.h"

#define PRC_AUR_DEFAULT_BASE "https://aur.archlinux.org"
enum {
        PRC_AUR_NAME_MAX = 200,
        PRC_AUR_URL_MAX = 2048,
        PRC_AUR_SNAPSHOT_MAX = 10u << 20,       /* the walk's input cap (content/archive_target.h) */
        PRC_AUR_COMMIT_MIN = 7,                 /* git's default abbreviation */
        PRC_AUR_COMMIT_MAX = 40,                /* a full SHA-1 object name */
};

/* Is name a valid AUR package name?  Errors: aur-name-invalid. */
bool prc_aur_name_check(const char *name, prc_err *err) PRC_MUST_CHECK;

/* Is commit 7 to 40 lowercase hex digits?  Errors: aur-commit-invalid. */
bool prc_aur_commit_check(const char *commit, prc_err *err) PRC_MUST_CHECK;

/*
 * The snapshot URL of name under base (NULL: PRC_AUR_DEFAULT_BASE; trailing
 * slashes dropped) into out[PRC_AUR_URL_MAX].  Errors: aur-name-invalid,
 * aur-url-invalid.
 */
bool prc_aur_snapshot_url(const char *base, const char *name, char *out, prc_err *err) PRC_MUST_CHECK;

/*
 * The snapshot URL of commit in the AUR's one repository (cgit resolves it
 * in aur.git, which holds every package): BASE/cgit/aur.git/snapshot/
 * COMMIT.tar.gz (docs/aur.md says why not aur-COMMIT.tar.gz).  name is
 * checked but is not part of the URL.  Errors: aur-name-invalid,
 * aur-commit-invalid, aur-url-invalid.
 */
bool prc_aur_commit_url(const char *base, const char *name, const char *commit, char *out,
                        prc_err *err) PRC_MUST_CHECK;

typedef struct prc_aur_opts {
        const char *base;               /* borrowed, NULL: the AUR */
        const char *commit;             /* borrowed, NULL: the current snapshot */
        const char *cacert;             /* borrowed, NULL: the system store */
        long        timeout_ms;         /* whole transfer; 0: 60 s */
        size_t      max_bytes;          /* 0: PRC_AUR_SNAPSHOT_MAX (never more) */
} prc_aur_opts;

/*
 * Download name's snapshot (of o->commit when set) into out (its contents replaced; empty on
 * failure), its URL into url[PRC_AUR_URL_MAX] and the transfer's digest and
 * status into res.  The name, commit and base are checked before any
 * request.  Errors: aur-name-invalid, aur-commit-invalid, aur-url-invalid,
 * the https-* classes,
 * library-unavailable, out-of-memory.
 */
bool prc_aur_fetch(const char *name, const prc_aur_opts *o, prc_buf *out, char *url, prc_https_result *res,
                   prc_err *err) PRC_MUST_CHECK;

#endif
