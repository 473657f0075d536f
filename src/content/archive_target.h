/*
 * archive_target.h - an archive snapshot (.tar, .tar.gz/.tgz, .tar.zst) as
 * a scan target (issue 20; seed 001: the parent never opens the archive).
 *
 * The parent holds the archive's bytes and their SHA-256 and nothing else:
 * the content worker walks them under the archive bounds (PRC_OP_WALK) and
 * returns the member listing with sizes and SHA-256, which becomes the
 * inventory (prc_inventory_from_listing: the directory's canonical digest
 * rules); member bytes are read for analysis through the same client and
 * checked against the listing.  A single top-level directory (NAME/, as the
 * AUR's snapshots have) is the package root: inventory paths are relative to
 * it.  Members the walk rejected (traversal, links that escape, devices,
 * duplicates) are named and make the inventory incomplete.
 *
 * Trust: the archive and every reply about it are hostile; the listing is
 * validated here before it becomes an inventory.  Not thread-safe (the
 * client is not).
 */
#ifndef PRC_ARCHIVE_TARGET_H
#define PRC_ARCHIVE_TARGET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "content/client.h"
#include "inventory/inventory.h"

/* The walk operation's input cap (dispatch.c): a larger archive is refused before any request. */
#define PRC_ARCHIVE_TARGET_MAX ((size_t)10 << 20)

typedef struct prc_archive_target prc_archive_target;  /* opaque */

/*
 * Walk bytes[0..n) (copied) through client c (borrowed: must outlive the
 * target and every inventory made from it).  On success *out owns the
 * target.  Errors: input-too-large, the worker's refusals (archive-*,
 * worker-*), inventory-listing-invalid (a reply that is not a valid
 * listing), out-of-memory.
 */
bool prc_archive_target_open(prc_client *c, const uint8_t *bytes, size_t n, prc_archive_target **out,
                             prc_err *err) PRC_MUST_CHECK;
/* Read the file at path (operator input, at most PRC_ARCHIVE_TARGET_MAX bytes) and open it as above. */
bool prc_archive_target_open_file(prc_client *c, const char *path, prc_archive_target **out,
                                  prc_err *err) PRC_MUST_CHECK;
/*
 * A target from a walk document already in hand, without a client (the
 * fuzz harness and the unit tests of the listing validation): member reads
 * fail with inventory-mismatch.  Errors: inventory-listing-invalid,
 * out-of-memory.
 */
bool prc_archive_target_from_listing(const json_t *doc, prc_archive_target **out, prc_err *err) PRC_MUST_CHECK;
void prc_archive_target_free(prc_archive_target *t);

/*
 * A new inventory of the members (transfers; reads go through t, which must
 * outlive it).  Errors: as prc_inventory_from_listing.
 */
bool prc_archive_target_inventory(prc_archive_target *t, prc_inventory **out, prc_err *err) PRC_MUST_CHECK;

/*
 * What the run result records about the archive (new reference, transfers;
 * NULL on out-of-memory): {"format", "sha256" (of the archive's bytes),
 * "bytes", "members", "root" (when there is one), "rejected": [{"path",
 * "class", "type"}]}.  No host path.
 */
json_t *prc_archive_target_json(const prc_archive_target *t);

/*
 * An opened target as a scan's input (the open callback of cmd_scan.c and
 * cmd_batch.c): a new inventory of its members, as
 * prc_archive_target_inventory, and its record, as prc_archive_target_json;
 * both transfer, or neither is made.
 */
bool prc_archive_target_scan_input(prc_archive_target *t, prc_inventory **out_inv, json_t **out_record,
                                   prc_err *err) PRC_MUST_CHECK;

/* Borrowed: the archive digest (64 hex) and the package root ("" when none). */
const char *prc_archive_target_sha256(const prc_archive_target *t);
const char *prc_archive_target_root(const prc_archive_target *t);

#endif
