/*
 * batch.h - `prc batch` (issue 21): the target list, shard assignment, the
 * resumption key and its record, and the batch index (DIR/index.json) with
 * its merge.  Pure functions over bytes and JSON plus the state-dir files
 * of a batch; the scanning itself (processes, content workers) is the
 * command's (cli/cmd_batch.c).
 *
 * Layout added to a state dir (engine/state.h has runs/ and artifacts/):
 *   DIR/keys/<key>.json   a hard link to runs/<id>.json: the result of the
 *                         target whose inputs (prc_batch_inputs) digest to
 *                         <key>; a second name costs no copy and no inode
 *   DIR/index.json        every target line of the last complete batch, sorted
 *   DIR/.batch.lock       flock'ed for the whole batch or merge
 * Every name appears only on a complete file (an O_TMPFILE inode linked in,
 * or a rename of a complete .batch-tmp.* temporary), so no reader ever sees
 * a partial one; temporaries a killed batch left behind are removed by the
 * next batch on that dir, under the lock.  Files are not fsync'ed one by
 * one: one syncfs before index.json is written makes the batch durable,
 * and a file torn by a power cut before then fails verification and is
 * scanned again.
 *
 * Trust: the target list and the state dir are the operator's.  A record
 * read back is still checked (one canonical document whose id is the
 * digest of its content) before a result is reused: a corrupt or torn file
 * means "scan again", never a result taken on trust.
 */
#ifndef PRC_ENGINE_BATCH_H
#define PRC_ENGINE_BATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/err.h"

#define PRC_BATCH_INDEX_SCHEMA "prc.batch-index/v1"
#define PRC_BATCH_KEY_SCHEMA "prc.batch-key/v1"
/* A target line longer than this is malformed (paths are at most PATH_MAX). */
#define PRC_BATCH_LINE_MAX 4096
/* The list file itself (about 25 bytes a line: 10 million targets). */
#define PRC_BATCH_LIST_MAX ((size_t)256 << 20)
#define PRC_BATCH_SHARDS_MAX 65536u

typedef struct prc_batch_line {
        uint32_t line;          /* 1-based line number in the list */
        char    *text;          /* owned: the target as written (a trailing CR removed) */
        bool     aur;           /* "aur:NAME": text + 4 is the package name */
        prc_err  err;           /* malformed: cls is set (batch-line-invalid, aur-name-invalid) */
} prc_batch_line;

typedef struct prc_batch_list {
        prc_batch_line *v;      /* owned: target lines in file order (blank lines and comments dropped) */
        size_t          n;
        char            sha256[PRC_SHA256_HEX + 1];    /* of the list file's bytes */
} prc_batch_list;

/*
 * Parse a target list.  Lines end at LF; blank lines (spaces and tabs only)
 * and lines whose first non-blank byte is '#' are ignored.  Every other
 * line is a target, "aur:NAME" or a path; a malformed one is kept with its
 * error (invalid UTF-8, a control character, a NUL, surrounding blanks,
 * longer than PRC_BATCH_LINE_MAX, a bad AUR name) so the batch reports it
 * and goes on.  Errors (the whole list): input-too-large, out-of-memory.
 */
bool prc_batch_list_parse(const uint8_t *p, size_t n, prc_batch_list *out, prc_err *err) PRC_MUST_CHECK;
void prc_batch_list_clear(prc_batch_list *l);

/*
 * Shards (docs/batch.md): a line belongs to shard
 *   u64be(SHA-256(text)[0..8)) mod count
 * where text is the line as written (without its LF and a trailing CR).
 * prc_batch_shard_parse reads "I/N" (decimal, 0 <= I < N <= 65536, no sign,
 * no blanks, no leading zeros).  Errors: batch-shard-invalid.
 */
uint32_t prc_batch_shard_of(const char *text, uint32_t count);
bool prc_batch_shard_parse(const char *s, uint32_t *out_index, uint32_t *out_count, prc_err *err) PRC_MUST_CHECK;

/*
 * Everything that can change a target's result, as one object:
 * {"catalog_sha256", "options", "prc_version", "profile", "schema",
 * "target": {"kind": "archive"|"directory"|"aur", "digest", ...}}.  The key
 * is its canonical digest (prc_jcs_digest).  New reference or NULL (oom).
 */
json_t *prc_batch_inputs(const char *catalog_sha256, const char *profile, const char *prc_version,
                         const json_t *options, json_t *target /* transfers */);

/*
 * Look key up in the state dir (root: an open descriptor of DIR).  Returns
 * true with *out_entry (transfers) the result part of an index entry
 * ({"key", "result", "states", "failing"}) when keys/<key>.json is there
 * and verifies; true with *out_entry NULL when there is none or it does not
 * verify (*out_repair then says one was there but was rejected).
 * Errors: io-error other than a missing file, out-of-memory.
 */
bool prc_batch_lookup(int root, const char *key, json_t **out_entry, bool *out_repair, prc_err *err) PRC_MUST_CHECK;

/*
 * Store a scan's result: runs/<id>.json (canonical JSON + LF: canonical,
 * when not NULL, holds run's canonical bytes already), then
 * keys/<key>.json as a second name of it (replacing an old one).  No fsync
 * per file (prc_batch_sync makes the batch durable once, at the end).  On
 * success *out_entry (transfers) is as prc_batch_lookup's.  Errors:
 * io-error, not-canonical, out-of-memory.
 */
bool prc_batch_store(int root, const char *key, const json_t *run, const prc_buf *canonical, json_t **out_entry,
                     prc_err *err) PRC_MUST_CHECK;

/*
 * Open (creating) DIR and its missing parents, runs/ and keys/, take the batch lock (exclusive, not
 * waiting) and remove temporaries a killed batch left.  Returns the root
 * descriptor (the lock lives as long as it is open), or -1 with err set:
 * io-error, batch-state-busy (another batch or merge holds it).
 */
int prc_batch_state_open(const char *dir, prc_err *err);
/* syncfs(2) the state dir's filesystem.  Errors: io-error. */
bool prc_batch_sync(int root, prc_err *err) PRC_MUST_CHECK;

/*
 * The index of a batch: header (borrowed; its keys are copied: "schema",
 * "list_sha256", "profile", "catalog_sha256", "prc_version", "options" and,
 * for a shard, "shard" {"index","count"}) plus entries (borrowed; each
 * {"line","target"} with either the result part or "error" {"class",
 * "message"}), sorted by target text (bytewise) then line, and a "summary"
 * computed from them alone (so a merge recomputes it exactly).  New
 * reference, NULL on out-of-memory.
 */
json_t *prc_batch_index(const json_t *header, const json_t *entries, prc_err *err);

/*
 * The exit status an entry stands for: 0 every assertion passed, 1 some
 * did not, 2 a malformed line, 3 the target could not be scanned.
 */
int prc_batch_entry_exit(const json_t *entry);

/*
 * Merge shard indexes into the index one unsharded batch would have
 * written, byte for byte: every index must have the same list, profile,
 * catalog, version and options, and either all are shards of one count
 * with each index in 0..count-1 exactly once, or there is exactly one
 * unsharded index.  Errors: batch-merge-mismatch, batch-merge-incomplete,
 * batch-index-invalid, out-of-memory.
 */
bool prc_batch_merge(json_t *const *indexes, size_t n, json_t **out, prc_err *err) PRC_MUST_CHECK;

/*
 * Copy what index (of the batch at from, an open descriptor) references
 * into the state dir at to: each result's runs/<id>.json, verified first
 * (as prc_batch_lookup checks it), and its keys/<key>.json link.  A run
 * already in `to` must hold the same bytes.  Errors:
 * batch-index-invalid (a referenced file is missing or does not verify),
 * state-conflict, io-error, out-of-memory.
 */
bool prc_batch_copy(int from, int to, const json_t *index, prc_err *err) PRC_MUST_CHECK;

/* Read and check DIR's index.json (from an open root).  Errors: batch-index-invalid, io-error. */
json_t *prc_batch_index_read(int root, prc_err *err);
/* Write index.json canonically (fsync'ed, atomic).  Errors: io-error, not-canonical. */
bool prc_batch_index_write(int root, const json_t *index, prc_err *err) PRC_MUST_CHECK;

#endif
