/*
 * setup.h - what `prc setup native` prepares (issue 17), as library code the
 * CLI drives and the tests call: the pinned images of the bundled native
 * protocols, the check of `image inspect` after a pull, and the download,
 * verification and storage of the pinned Gitleaks ruleset.
 *
 * This is an explicit operator action outside any scan: a scan never pulls
 * and never reaches the network.  Trust: the registry, the download server
 * and the path to them are untrusted; the pinned digests decide, never a
 * name or a URL.
 */
#ifndef PRC_ADAPTER_SETUP_H
#define PRC_ADAPTER_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "net/https.h"

/* Test builds only: a comma-separated list of NAME@sha256:... references replacing the pinned images. */
#define PRC_SETUP_TEST_IMAGES_ENV "PRC_TEST_SETUP_IMAGES"

enum { PRC_SETUP_IMAGES_MAX = 8, PRC_SETUP_REF_MAX = 512 };

typedef struct prc_setup_images {
        size_t n;
        char   ref[PRC_SETUP_IMAGES_MAX][PRC_SETUP_REF_MAX];   /* REGISTRY/REPOSITORY@sha256:HEX */
} prc_setup_images;

/*
 * The images `prc setup native` pulls: every native protocol's reviewed
 * digest, in table order (Gitleaks, Syft, Grype).  A PRC_TESTING build
 * takes PRC_TEST_SETUP_IMAGES instead when it is set (each entry must be a
 * NAME@sha256:<64 hex> reference).  Errors: invalid-value, invalid-digest.
 */
bool prc_setup_images_list(prc_setup_images *out, prc_err *err) PRC_MUST_CHECK;

/*
 * Judge the output of `RUNTIME image inspect --format '{{json .RepoDigests}}'
 * REF`: a JSON array of strings that must hold REF's repository with exactly
 * REF's digest (docker writes Docker Hub names without "docker.io/", podman
 * with it; both are accepted for the same repository).  Pure.  Errors:
 * setup-image-mismatch.
 */
bool prc_setup_inspect_ok(const char *ref, const char *json, size_t n, prc_err *err) PRC_MUST_CHECK;

/*
 * Download the pinned Gitleaks ruleset from url (HTTPS, o's CA, timeouts and
 * redirects; the byte cap is the pinned size), check its exact size and
 * SHA-256, write it in prc's deterministic gzip form, check that form
 * against its own pin, and store it as PRC_GITLEAKS_RULESET_FILE in the data
 * directory (created 0700; the file 0600, atomically).  On any failure
 * nothing is stored and an existing file is left as it was.  stored_path
 * receives the file's path.  Errors: those of prc_https_get,
 * fetch-digest-mismatch, native-ruleset-mismatch, datadir-*, io-error.
 */
bool prc_setup_ruleset(const char *url, const prc_https_opts *o, char *stored_path, size_t cap,
                       prc_err *err) PRC_MUST_CHECK;

/*
 * Where `prc verify` and `prc scan` find the ruleset when neither
 * --gitleaks-ruleset nor PRC_GITLEAKS_RULESET is given: the stored file's
 * path into out when it exists (as any file: its checks come later), else
 * false (nothing set; the caller names `prc setup native`).
 */
bool prc_setup_stored_ruleset(char *out, size_t cap);

#endif
