/*
 * snapshot.h - the private, verified copy of an inventory that adapter
 * containers read (issue 6; seed 000 "Capability manifest"; format in
 * docs/inventory.md).
 *
 * Lifecycle: prc_snapshot_create copies every inventoried regular file into
 * a new private directory, reopening and rehashing each while copying; then
 * zero or more prc_snapshot_add_owned calls add the protocol-owned files
 * (under .prc/); prc_snapshot_seal computes the deterministic snapshot
 * digest; prc_snapshot_verify recomputes it from the files on disk (the OCI
 * runner calls it before and after the container runs).  prc_snapshot_free
 * removes the tree unless prc_snapshot_keep was called; a failed create
 * removes what it wrote.
 *
 * Trust: the source tree is hostile and may change during the copy; the
 * snapshot directory is ours (0700 directories, 0400/0500 files, owned by
 * the invoking user) and nothing in it is ever followed through a symlink.
 */
#ifndef PRC_SNAPSHOT_H
#define PRC_SNAPSHOT_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "inventory/inventory.h"

#define PRC_SNAPSHOT_SCHEMA "prc.snapshot/v1"
#define PRC_SNAPSHOT_CEILING ((uint64_t)4 << 30)        /* seed 000: 4 GiB safety ceiling */
#define PRC_SNAPSHOT_OWNED_PREFIX ".prc/"               /* the inventory-excluded namespace */

typedef struct prc_snapshot prc_snapshot;      /* opaque: snapshot.c */

typedef struct prc_snapshot_opts {
        uint64_t ceiling;       /* total bytes (copied + owned); 0 = PRC_SNAPSHOT_CEILING; never higher */
        unsigned threads;       /* copy workers; 0 = online CPUs (at most 8) */
        /* borrowed, may be NULL: when it becomes non-zero (a signal handler sets it) the copy stops */
        const volatile sig_atomic_t *cancel;
        /* borrowed, may be NULL: an absolute directory for the fresh snapshot when out_dir is NULL
         * (default $TMPDIR or /tmp) */
        const char *parent;
} prc_snapshot_opts;

/* Largest snapshot (bytes) put on tmpfs by prc_snapshot_tmpfs_parent: tmpfs is RAM. */
#define PRC_SNAPSHOT_TMPFS_MAX ((uint64_t)512 << 20)

/*
 * A private tmpfs directory for a snapshot of about `bytes`, or NULL (then
 * the caller uses $TMPDIR): $XDG_RUNTIME_DIR when it is a tmpfs directory
 * (not a symlink) owned by the real uid with no group or other permission
 * bits, else /dev/shm when it is a root-owned sticky (like /tmp) tmpfs
 * directory, in either case one we may create entries in.  Only when
 * bytes <= PRC_SNAPSHOT_TMPFS_MAX and the filesystem has twice that plus
 * 64 MiB free, so a snapshot never takes the last of the machine's memory.
 * Borrowed: the environment or a literal.
 */
const char *prc_snapshot_tmpfs_parent(uint64_t bytes);

/*
 * Copy inv's regular files into out_dir, which must not exist (created
 * 0700); out_dir NULL makes a fresh "prc-snapshot-XXXXXX" under opts->parent,
 * else $TMPDIR, else /tmp.  Symlinks are not copied; excluded paths are not in inv.  Each file
 * is reopened beneath inv's root (no symlink in any component), must still
 * be a regular file of the inventoried size, and the bytes read (hashed as
 * they are written) must have the inventoried SHA-256.  On failure nothing
 * is left on disk.  Names the inventory could not represent are not copied
 * either: the caller reports them (prc_inventory_complete).  Errors:
 * snapshot-source-changed (names the path),
 * snapshot-too-large, snapshot-out-exists, snapshot-interrupted,
 * inventory-unreadable, io-error, out-of-memory.
 */
bool prc_snapshot_create(const prc_inventory *inv, const char *out_dir, const prc_snapshot_opts *opts,
                         prc_snapshot **out, prc_err *err) PRC_MUST_CHECK;

/*
 * The one way to add a protocol-owned file (before seal).  path must be a
 * normalized path under ".prc/" not yet in the snapshot.  Either bytes[0..n)
 * are written there (mode 0400), or, with relocated_from non-NULL (bytes
 * NULL, n 0), the already verified copy of that inventoried file is moved
 * there, so the original path is absent from the snapshot (how the Gitleaks
 * protocol relocates a root .gitleaksignore).  Both appear in the listing's
 * "owned" array.  On failure the snapshot is unchanged except on io-error.
 * Errors: snapshot-owned-path, snapshot-too-large, io-error, internal
 * (called after seal).
 */
bool prc_snapshot_add_owned(prc_snapshot *s, const char *path, const void *bytes, size_t n,
                            const char *relocated_from, prc_err *err) PRC_MUST_CHECK;

/*
 * Compute the listing and digest from what was written (each copied file
 * was hashed as it was written and matched the inventory; owned bytes were
 * hashed when added); no more additions afterwards.  Call verify to check
 * the disk against it.  Errors: out-of-memory, internal (sealed twice).
 */
bool prc_snapshot_seal(prc_snapshot *s, prc_err *err) PRC_MUST_CHECK;
/*
 * Recompute the digest from the files on disk and compare with the sealed
 * one.  Errors: snapshot-changed (names the first differing path), io-error,
 * internal (not sealed).
 */
bool prc_snapshot_verify(const prc_snapshot *s, prc_err *err) PRC_MUST_CHECK;

/* Borrowed: valid until prc_snapshot_free. */
const char *prc_snapshot_path(const prc_snapshot *s);          /* the directory */
const char *prc_snapshot_digest(const prc_snapshot *s);        /* 64 hex after seal, else "" */
const json_t *prc_snapshot_to_json(const prc_snapshot *s);     /* after seal, else NULL */
uint64_t prc_snapshot_total_bytes(const prc_snapshot *s);
uint64_t prc_snapshot_ceiling(const prc_snapshot *s);         /* the effective ceiling */

/* Remove the tree now (idempotent).  Errors: io-error. */
bool prc_snapshot_remove(prc_snapshot *s, prc_err *err) PRC_MUST_CHECK;
/* Leave the tree on disk when s is freed (prc snapshot --out). */
void prc_snapshot_keep(prc_snapshot *s);
/* Free s, removing its tree unless kept.  Accepts NULL. */
void prc_snapshot_free(prc_snapshot *s);

/*
 * Remove the directory tree at dirfd/name (no symlink followed, read-only
 * modes overridden).  Errors: io-error.  Exposed for the CLI and tests.
 */
bool prc_snapshot_rmtree_at(int dirfd, const char *name, prc_err *err) PRC_MUST_CHECK;

#endif
