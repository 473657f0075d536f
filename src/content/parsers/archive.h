/*
 * archive.h - bounded walk of a tar or tar.gz archive held in memory.
 *
 * Trust: the archive is hostile (AUR-style snapshot archives); this runs
 * only inside the sandboxed content worker, on bytes in memory (libarchive's
 * archive_read_open_memory; no file is ever opened or written).  Nothing is
 * extracted and no link is ever followed: the walk lists members and hands
 * back the bytes of the regular files the caller names.
 *
 * Formats: tar (ustar, pax, GNU) and one gzip or zstd layer around it.  Anything
 * else, including a second compression layer, is archive-format.
 *
 * Policy (docs/parsers-xml-shell-archive.md): limits and damaged archives
 * refuse the whole archive with a named class.  Dangerous members do not:
 * they are listed with "rejected" naming the reason (a path-* class for a
 * path that does not normalize, archive-link-escape, archive-special,
 * archive-duplicate, archive-through-link), so a reviewer sees them, and
 * their contents are never returned.
 *
 * Document shape:
 *   {"format": "tar" | "tar.gz" | "tar.zst",
 *    "members": [{"index": i, "path": "a/b", "type": "file", "size": n,
 *                 "sha256": "...", "mode": 420, "link": "...", "setid": true,
 *                 "rejected": "class"} ...],
 *    "rejected": count,
 *    "contents": {"a/b": {"encoding": "utf8" | "base64", "data": "..."}},
 *    "unavailable": {"name": "not-found" | "rejected" | "duplicate" |
 *                    "not-a-file" | "too-large"}}
 * "path" is the normalized path (leading "./" and a directory's trailing
 * "/" removed) when it normalizes; otherwise the raw name, or "path_hex"
 * when the raw name is not UTF-8, cut to 256 bytes ("path_cut": true).
 * "sha256" is present for regular files, "link" for symlinks and hardlinks,
 * "setid" when the setuid or setgid bit is set.  Member contents are a
 * JSON string when they are valid UTF-8, else base64 (RFC 4648).
 */
#ifndef PRC_ARCHIVE_H
#define PRC_ARCHIVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef struct prc_archive_opts {
        size_t   input_max;         /* bytes of the archive as given (compressed) */
        uint32_t members_max;       /* members, directories and links included */
        uint64_t member_bytes_max;  /* one member's size */
        uint64_t total_bytes_max;   /* the expanded tar stream, headers included */
        uint32_t ratio_max;         /* expanded / compressed, checked once past ratio_floor */
        uint64_t ratio_floor;       /* expanded bytes below which the ratio is not checked */
        uint64_t want_bytes_max;    /* total bytes of requested member contents returned */
} prc_archive_opts;

/* AUR snapshots: tens of small files.  limits in archive.c say why. */
extern const prc_archive_opts prc_archive_opts_default;
/* Fuzzing: small so every limit is reached often. */
extern const prc_archive_opts prc_archive_opts_fuzz;

/*
 * Walk the archive p[0..n).  wanted[0..nwanted) are member paths (as
 * normalized) whose contents the caller wants.  Returns the document above
 * (new reference, transfers) or NULL with err set: input-too-large,
 * archive-format, archive-malformed, archive-truncated, archive-trailing,
 * archive-members-limit, archive-member-size-limit, archive-total-limit,
 * archive-ratio-limit, out-of-memory.  When the error concerns a member,
 * err->ptr names it ("/members/N") and err->off is the offset in the
 * expanded tar stream.
 */
json_t *prc_archive_walk(const uint8_t *p, size_t n, const prc_archive_opts *opts, const char *const *wanted,
                         size_t nwanted, prc_err *err) PRC_MUST_CHECK;
/*
 * The same, and besides the wanted members the contents of every accepted
 * regular file, in archive order, while their total stays within
 * every_max (and the options' want_bytes_max; 0: none): a scan of a small
 * snapshot gets its listing and the members it will read in one walk
 * (issue 21).  A file past the budget is simply not in "contents".
 */
json_t *prc_archive_walk_every(const uint8_t *p, size_t n, const prc_archive_opts *opts,
                               const char *const *wanted, size_t nwanted, uint64_t every_max,
                               prc_err *err) PRC_MUST_CHECK;

/*
 * Call once in the worker before the sandbox floor goes on: runs one walk of
 * a tiny in-memory pax archive with a non-ASCII name, so that what is read
 * from disk on first use is read now, while open() is allowed: glibc's
 * charset-conversion cache (libarchive converts pax names), OpenSSL's
 * configuration (SHA-256) and jansson's hash seed (/dev/urandom).
 * Returns false with err set if the warm-up walk fails (internal, out-of-memory).
 */
bool prc_archive_prepare(prc_err *err) PRC_MUST_CHECK;

#endif
