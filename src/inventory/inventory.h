/*
 * inventory.h - the sealed inventory of a target tree (issue 6; DESIGN.md
 * data flow step 1; format in docs/inventory.md).
 *
 * Walks the target below one directory descriptor without following any
 * symlink, records every regular file (normalized relative path, size,
 * SHA-256, executable bit, oversized flag) and every symlink (path only,
 * never read), counts and skips sockets, fifos and devices, leaves out the
 * root's .git directory and .prc (issue 16: nothing else), and reports every
 * name that is not a valid normalized path instead of dropping it.  Files
 * are hashed by a worker pool; the listing is sorted bytewise by path and
 * its canonical JSON (minus the digest field) gives the inventory digest.
 *
 * Trust: the tree is hostile and may change while it is walked.  A
 * directory swapped between stat and open, a file replaced before hashing,
 * or a file whose size or mtime moves while it is read makes the whole
 * build fail with a named class: an inventory is never partly wrong.
 */
#ifndef PRC_INVENTORY_H
#define PRC_INVENTORY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/err.h"

#define PRC_INVENTORY_SCHEMA "prc.inventory/v1"

enum {
        PRC_INV_OVERSIZED = 10u << 20,          /* DESIGN.md: files above 10 MiB are not analyzed */
        PRC_INV_MAX_ENTRIES = 1000000,          /* default: 20x a large monorepo checkout */
        PRC_INV_HEAD = 4096,                    /* head of a file with its own digest: magic-byte reads */
};

typedef struct prc_inventory prc_inventory;    /* opaque: inventory.c */

typedef enum prc_inv_type {
        PRC_INV_FILE = 1,
        PRC_INV_SYMLINK = 2,
} prc_inv_type;

/* One listing entry.  Borrowed from the inventory: valid until prc_inventory_free. */
typedef struct prc_inv_entry {
        const char  *path;              /* normalized relative path (base/path.h rules) */
        prc_inv_type type;
        uint64_t     size;              /* files only; 0 for symlinks */
        char         sha256[PRC_SHA256_HEX + 1];   /* files only; "" for symlinks */
        bool         executable;        /* files: owner execute bit (git's rule) */
        bool         oversized;         /* files: size > PRC_INV_OVERSIZED */
} prc_inv_entry;

/* Special files: counted, never opened, never listed. */
typedef struct prc_inv_skipped {
        uint64_t socket, fifo, char_device, block_device;
} prc_inv_skipped;

/* A name that is not a valid normalized relative path: reported, never silently skipped. */
typedef struct prc_inv_unrep {
        const char *raw;        /* the relative path with every byte outside 0x21-0x7e and '\' as \xNN */
        const char *reason;     /* the path-* class name the validator gave */
        const char *kind;       /* "file", "symlink", "directory" (not descended) */
} prc_inv_unrep;

/*
 * Which files the caller will read whole (prc_inventory_read), by path:
 * called from the hashing threads, so it must be safe to call from several
 * threads at once.
 */
typedef bool (*prc_inv_keep_fn)(const char *path);

typedef struct prc_inventory_opts {
        unsigned threads;       /* hashing workers; 0 = online CPUs (at most 8) */
        size_t   max_entries;   /* 0 = PRC_INV_MAX_ENTRIES */
        bool     no_exclude;    /* walk the root's .git/.prc too (snapshot verification) */
        /*
         * NULL, or the files to keep in memory as they were hashed, up to
         * PRC_INV_KEEP_FILE bytes each and PRC_INV_KEEP_TOTAL in all (the
         * first hashed first): prc_inventory_read then gives those bytes
         * without opening, reading and hashing the file again.  They are
         * the bytes the digest was made of, so the read is bound to the
         * seal as a read from disk is (docs/inventory.md, "Kept files").
         */
        prc_inv_keep_fn keep;
} prc_inventory_opts;

enum {
        PRC_INV_KEEP_FILE = 16u << 10,          /* a kept file's bytes, at most */
        PRC_INV_KEEP_TOTAL = 4u << 20,          /* all kept files' bytes, at most */
};

/*
 * Inventory the tree at root (the operator's path: symlinks in it are
 * resolved once, nothing below it is followed).  opts may be NULL.  On
 * success *out owns the inventory and the root directory descriptor
 * (prc_inventory_free closes it).  Errors: io-error (root cannot be opened
 * or is not a directory), inventory-tree-changed, inventory-file-changed,
 * inventory-unreadable, inventory-too-many-entries, out-of-memory.
 */
bool prc_inventory_build(const char *root, const prc_inventory_opts *opts, prc_inventory **out,
                         prc_err *err) PRC_MUST_CHECK;
/* The same below an open directory descriptor (duplicated: the caller keeps dirfd). */
bool prc_inventory_build_at(int dirfd, const prc_inventory_opts *opts, prc_inventory **out,
                            prc_err *err) PRC_MUST_CHECK;
void prc_inventory_free(prc_inventory *inv);

/*
 * Issue 20: an inventory made from a listing instead of a walk (an archive
 * target's members, as the content worker reported them).  The listing is
 * untrusted data: every path must pass the foundation's validator and be
 * unique, every file must carry a 64-hex SHA-256.  Excluded root names
 * follow the directory rules (".git" when it holds members, ".prc" always);
 * rejected[] names members the walk refused (traversal, links that escape,
 * devices): they go to "unrepresentable", so the inventory is not complete
 * and whole-tree assertions cannot pass.  The digest rule is the
 * directory's: the same canonical listing.
 *
 * Reads (prc_inventory_read, prc_inventory_read_head, the snapshot copy)
 * go through read(ctx, path, max, out, err), which must put the member's
 * bytes in out; the inventory then checks size and SHA-256 exactly as for a
 * file on disk (inventory-mismatch).  read and ctx are borrowed and must
 * outlive the inventory; read is called only from the thread that calls the
 * read functions.  Errors: inventory-listing-invalid (names the member),
 * inventory-too-many-entries, out-of-memory.
 */
typedef bool (*prc_inv_source_read_fn)(void *ctx, const char *path, size_t max, prc_buf *out, prc_err *err);

typedef struct prc_inv_member {
        const char  *path;              /* borrowed: normalized relative path */
        prc_inv_type type;
        uint64_t     size;              /* files */
        const char  *sha256;            /* files: 64 lowercase hex */
        bool         executable;        /* files: owner execute bit of the member's mode */
        bool         under_dir;         /* the path's first segment is a directory (a ".git" rule) */
} prc_inv_member;

bool prc_inventory_from_listing(const prc_inv_member *members, size_t n, const prc_inv_unrep *rejected,
                                size_t nrejected, prc_inv_source_read_fn read, void *ctx, prc_inventory **out,
                                prc_err *err) PRC_MUST_CHECK;
/* Was inv made by prc_inventory_from_listing (no root directory; reads go through its source)? */
bool prc_inventory_is_listing(const prc_inventory *inv);

/* Number of entries (files and symlinks), sorted bytewise by path. */
size_t prc_inventory_count(const prc_inventory *inv);
/* Borrowed: valid until prc_inventory_free.  i < prc_inventory_count. */
const prc_inv_entry *prc_inventory_entry(const prc_inventory *inv, size_t i);
/* Index of the entry with exactly this path, or -1. */
long prc_inventory_find(const prc_inventory *inv, const char *path);

const prc_inv_skipped *prc_inventory_skipped(const prc_inventory *inv);
size_t prc_inventory_unrep_count(const prc_inventory *inv);
/* Borrowed: valid until prc_inventory_free.  Sorted bytewise by raw. */
const prc_inv_unrep *prc_inventory_unrep(const prc_inventory *inv, size_t i);
/* Names found at the root and left out (".git" as a directory, ".prc"; sorted); borrowed. */
size_t prc_inventory_excluded_count(const prc_inventory *inv);
const char *prc_inventory_excluded(const prc_inventory *inv, size_t i);
/* Did every name of the tree make it into the listing (no unrepresentable name)? */
bool prc_inventory_complete(const prc_inventory *inv);
/* Total bytes of the regular files. */
uint64_t prc_inventory_total_bytes(const prc_inventory *inv);

/* The inventory digest: 64 lowercase hex; borrowed. */
const char *prc_inventory_digest(const prc_inventory *inv);
/*
 * The whole listing as a JSON document (docs/inventory.md), including
 * "inventory_digest", built on the first call (safe from several threads).
 * Borrowed: valid until prc_inventory_free; do not modify (json_deep_copy
 * it to edit).  NULL with err set on out-of-memory.
 */
const json_t *prc_inventory_json(const prc_inventory *inv, prc_err *err);
/* The same without an error record (NULL on out-of-memory). */
const json_t *prc_inventory_to_json(const prc_inventory *inv);
/*
 * Append the canonical listing the digest covers (the document without
 * "inventory_digest", as prc_jcs_write would write it) to out.  On failure
 * out is unchanged.  Errors: not-canonical, buffer-limit, out-of-memory.
 */
bool prc_inventory_canonical(const prc_inventory *inv, prc_buf *out, prc_err *err) PRC_MUST_CHECK;
/* The root directory descriptor (borrowed: closed by prc_inventory_free); -1 for a listing. */
int prc_inventory_root_fd(const prc_inventory *inv);

/*
 * Read the inventoried regular file path again, beneath the inventory's
 * root descriptor with no symlink in any component, into out (at most max
 * bytes), and check it is still a regular file with the inventoried size
 * and SHA-256.  On failure out is left empty.  Safe to call from several
 * threads at once on one inventory.  Errors: inventory-no-such-entry,
 * inventory-mismatch (type, size or digest differ, or the path now
 * resolves through a symlink), inventory-unreadable, input-too-large,
 * io-error, out-of-memory.
 */
bool prc_inventory_read(const prc_inventory *inv, const char *path, size_t max, prc_buf *out,
                        prc_err *err) PRC_MUST_CHECK;

/*
 * Read the first max bytes of the inventoried regular file path into out,
 * with the same checks as prc_inventory_read (issue 16): beneath the root
 * with no symlink, still a regular file of the inventoried size, and the
 * bytes bound by a digest the inventory took.  A file of at most max bytes
 * is read whole (prc_inventory_read).  For max <= PRC_INV_HEAD the first
 * PRC_INV_HEAD bytes must have the head digest the inventory computed
 * while it hashed the file (under the same change checks); a larger max
 * reads the whole file through SHA-256 against the inventoried digest.
 * On failure out is left empty.  Errors as prc_inventory_read.
 */
bool prc_inventory_read_head(const prc_inventory *inv, const char *path, size_t max, prc_buf *out,
                             prc_err *err) PRC_MUST_CHECK;

/*
 * Bytewise escape used for unrepresentable names: bytes 0x21-0x7e except
 * '\' stay, everything else becomes \xNN (lowercase).  Returns a malloc'd
 * string (transfers) or NULL on out-of-memory.
 */
char *prc_inventory_escape(const char *p, size_t n);

/* Test hook points (the hook itself exists only in PRC_TESTING builds). */
enum {
        PRC_INV_HOOK_DIR_STATED = 1,    /* walk: a directory was lstat'ed, not yet opened */
        PRC_INV_HOOK_HASH_READ = 2,     /* inventory: first chunk of a file was read */
        PRC_INV_HOOK_COPY_READ = 3,     /* snapshot: first chunk of a file was read and written */
        PRC_INV_HOOK_HASH_OPEN = 4,     /* inventory: a file is about to be opened for hashing */
};
#if defined(PRC_TESTING) && PRC_TESTING
typedef void (*prc_inv_hook_fn)(int point, const char *rel, void *arg);
/* Install (or with NULL remove) the hook; it may run on worker threads. */
void prc_inventory_set_test_hook(prc_inv_hook_fn fn, void *arg);
/* Type every entry with an lstat, as on filesystems whose d_type or d_ino cannot be used. */
void prc_inventory_test_force_lstat(bool on);
/* Make the snapshot copy through user space, as where copy_file_range is unavailable. */
void prc_inventory_test_force_stream_copy(bool on);
/* Hash every file with read(), as where a file cannot be mapped (large files are mapped otherwise). */
void prc_inventory_test_force_read(bool on);
/* The most directory-listing names walks held at once since the last call (which resets it). */
size_t prc_inventory_test_listed_peak(void);
#endif

#endif
