/*
 * data.h - external data directories for adapters (seed 000 "Capability
 * manifest", external data; issue 8).
 *
 * A manifest declares named, bounded directories; the operator binds each
 * one with --data NAME=DIR; the runner mounts it read-only at
 * /prc-inputs/NAME.  Before planning every file is hashed and the content
 * identity (digest of the sorted listing, file count, byte count,
 * destination) is sealed into the plan; right before and right after the
 * run it is computed again.  The host path is kept for the mount only and
 * never enters a plan digest or a record.
 *
 * Trust: the directory is operator input, validated and then trusted for
 * the run; it may still change underneath us, which is an execution error
 * (data-changed), never evidence.
 */
#ifndef PRC_ADAPTER_DATA_H
#define PRC_ADAPTER_DATA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter/manifest.h"
#include "base/digest.h"
#include "base/err.h"

#define PRC_DATA_MOUNT_PREFIX "/prc-inputs/"
enum { PRC_DATA_NAME_MAX = 64, PRC_DATA_BINDINGS_MAX = 16 };

/* One operator binding, as given on the command line.  Borrowed strings. */
typedef struct prc_data_binding {
        const char *name;
        const char *path;
} prc_data_binding;

/* One sealed data input. */
typedef struct prc_data_input {
        char     name[PRC_DATA_NAME_MAX + 1];
        char    *host_path;     /* owned: for the mount only, never recorded */
        char     sha256[PRC_SHA256_HEX + 1];   /* digest of the canonical listing */
        uint64_t files;
        uint64_t bytes;
        char     destination[sizeof(PRC_DATA_MOUNT_PREFIX) + PRC_DATA_NAME_MAX];
} prc_data_input;

/*
 * Split "NAME=DIR" (arg is borrowed: out points into it).  Errors: usage
 * (no '=', empty name or path).
 */
bool prc_data_parse_arg(char *arg, prc_data_binding *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Check the bindings against m's declarations and hash every bound
 * directory.  On success *out (transfers; free with prc_data_free) holds one
 * input per declaration, sorted by name, and *out_n their count (0 and NULL
 * when the manifest declares none).  Errors: usage (too many bindings),
 * data-undeclared, data-duplicate, data-missing, data-not-directory,
 * data-empty, data-too-large, data-too-many-files, data-symlink,
 * data-not-regular, inventory-unreadable, io-error, out-of-memory.
 */
bool prc_data_prepare(const prc_manifest *m, const prc_data_binding *b, size_t n, prc_data_input **out,
                      size_t *out_n, prc_err *err) PRC_MUST_CHECK;

/*
 * Hash every input again and compare with its sealed identity.  Errors:
 * data-changed (names the input), and the classes above for a directory
 * that became invalid.
 */
bool prc_data_recheck(const prc_manifest *m, const prc_data_input *d, size_t n, prc_err *err) PRC_MUST_CHECK;

/* The identities as [{"name","sha256","files","bytes","destination"}] (new reference) or NULL (oom). */
json_t *prc_data_identity_json(const prc_data_input *d, size_t n);

void prc_data_free(prc_data_input *d, size_t n);

#endif
