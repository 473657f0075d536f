/*
 * aur.h - the AUR family's analyses (aur.c: PKGBUILD metadata checks;
 * aur_shell.c: what PKGBUILD functions and install scripts run) and the
 * helpers the scan and the family share.
 *
 * Trust: engine-side; reads checked token documents only (sh.h).
 */
#ifndef PRC_ANALYSIS_AUR_H
#define PRC_ANALYSIS_AUR_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/analysis.h"

/* The analyses (registered in registry.c). */
bool prc_aur_checksums(prc_actx *cx, prc_err *err);
bool prc_aur_source_url(prc_actx *cx, prc_err *err);
bool prc_aur_bin_host(prc_actx *cx, prc_err *err);
bool prc_aur_srcinfo_drift(prc_actx *cx, prc_err *err);
bool prc_aur_install_hooks(prc_actx *cx, prc_err *err);
bool prc_aur_remote_exec(prc_actx *cx, prc_err *err);
bool prc_aur_toplevel_code(prc_actx *cx, prc_err *err);
bool prc_aur_obfuscation(prc_actx *cx, prc_err *err);

/*
 * The install scripts a PKGBUILD names (install= at the top level and in
 * package functions), for the scan to tokenize.  Calls fn with the path
 * relative to the tree (dir is the PKGBUILD's directory, "" at the root) for
 * each static value, or with path NULL and why set for a value that is not
 * static.  A value that leaves the package directory ("../x", "/etc/x") is
 * reported with why "leaves the package directory".  Returns false when fn
 * does (err set by it).
 */
typedef bool (*prc_aur_install_fn)(void *ctx, const char *path, uint32_t line, const char *why, prc_err *err);
bool prc_aur_install_targets(const json_t *pkgbuild, const char *dir, prc_aur_install_fn fn, void *ctx,
                             prc_err *err) PRC_MUST_CHECK;

/* --- shared decisions (unit-tested; aur.c) --- */

/* The host of a URL (lowercase, without userinfo or port) into out; false when it has none. */
bool prc_aur_url_host(const char *url, char *out, size_t outsz);
/* The URL part of a source entry ("name::url" -> "url"; a VCS prefix "git+" kept). */
const char *prc_aur_source_url_of(const char *entry);
/* A VCS source (git+, hg+, svn+, bzr+, fossil+, git://, svn://)? */
bool prc_aur_source_is_vcs(const char *entry);
/* A local file of the package (no "scheme://")? */
bool prc_aur_source_is_local(const char *entry);
/* Why host is risky as a source host ("raw IP address", "URL shortener", ...) or NULL. */
const char *prc_aur_risky_host(const char *host);
/* Do the two URLs name the same publisher (registrable domain; owner on code forges)? */
bool prc_aur_same_publisher(const char *url_a, const char *url_b);

#endif
