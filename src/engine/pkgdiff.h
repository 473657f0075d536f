/*
 * pkgdiff.h - what a reviewer must see between two versions of an AUR
 * package (issue 20, "Version diffs"): `prc diff OLD NEW`.
 *
 * Pure functions over the content worker's token documents (PRC_OP_TOKENIZE
 * of the PKGBUILD, .SRCINFO and install scripts): no file is read and no
 * text is interpreted here beyond the tokens (the PKGBUILD's static
 * assignments are taken as bash leaves them: the last one of a name, +=
 * appending).  First each version is reduced to facts (prc_pkgdiff_facts),
 * then two fact sets are compared (prc_pkgdiff_compare).
 *
 * Facts document (one version):
 *   {"url": s|null, "version": s|null,
 *    "hosts": {host: {"path","line","source"}},
 *    "sources": [{"arch","index","source","vcs","checked","path","line"}],
 *    "checksum_arrays": {name: {"path","line"}},
 *    "commands": {"scope|kind|word": {"path","line","scope","kind","word","excerpt"}},
 *    "install": {"declared": s|null, "files": [path...]},
 *    "hooks": {"file:function": {"path","line","function"}},
 *    "unanalyzed": [{"path","class","reason"}]}
 * kinds: "network" (curl, wget, nc, /dev/tcp, ...), "exec" (a shell, eval,
 * interpreter -c/-e, base64 -d, systemctl, ...), "package-manager" (npm,
 * bun, pip, cargo, go, gem ... installs).
 *
 * Changes (prc_pkgdiff_compare): {"changes": [{"kind","risky","path","line",
 * "detail", "old"?, "new"?}], "risky": n} in a fixed order.  Risky kinds:
 * source-host-added, checksum-removed, checksum-skip, network-added,
 * exec-added, package-manager-added, install-script-added,
 * install-hook-added, url-changed, unanalyzed.  Informational:
 * version-changed.
 */
#ifndef PRC_ENGINE_PKGDIFF_H
#define PRC_ENGINE_PKGDIFF_H

#include <jansson.h>

#include "base/err.h"

/*
 * Facts of one version.  pkgbuild and srcinfo are token documents (the
 * worker's "document" objects) or NULL when absent; installs maps an install
 * script's path to its token document; unanalyzed is an array of
 * {"path","class","reason"} (files the worker refused, a missing PKGBUILD),
 * borrowed and copied.  Returns a new reference (transfers), NULL with err
 * set (out-of-memory).
 */
json_t *prc_pkgdiff_facts(const json_t *pkgbuild, const json_t *srcinfo, const json_t *installs,
                          const json_t *unanalyzed, prc_err *err);

/* Compare two fact documents.  Returns a new reference (transfers), NULL with err set (out-of-memory). */
json_t *prc_pkgdiff_compare(const json_t *old_facts, const json_t *new_facts, prc_err *err);

/* The host of a source entry ("name::", "git+" and the scheme stripped), lowercased, into out; false if none. */
bool prc_pkgdiff_source_host(const char *source, char *out, size_t cap);

#endif
