/*
 * version.c - `prc --version`: what this prc is and what it runs with
 * (issue 24): version, the commit it was built from, where its data is,
 * every library with the version that is actually loaded (each library's
 * own version function, not the headers'), and the strongest content floor
 * this host gives.
 * Trust: no input.  The floor is probed in forked children (prc_floor_probe).
 */
#include "cli/cli.h"

#include <expat.h>
#include <jansson.h>
#include <libfyaml.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>

#include "base/crypto.h"
#include "base/libarchive.h"
#include "buildconf.h"
#include "content/floor.h"
#include "net/https.h"

static void library(const char *name, const char *version, const char *note)
{
        printf("  %-11s %s%s\n", name, version, note);
}

static void loaded_libraries(void)
{
        const struct scmp_version *sv = seccomp_version();
        XML_Expat_Version xv = XML_ExpatVersionInfo();
        const prc_libarchive *la;
        const prc_crypto *cr;
        const char *curl, *las = NULL;
        char buf[64];
        prc_err err;

        printf("libraries:\n");
        library("jansson", jansson_version_str(), "");
        library("libfyaml", fy_library_version(), "");
        snprintf(buf, sizeof(buf), "%d.%d.%d", xv.major, xv.minor, xv.micro);
        library("expat", buf, "");
        prc_err_init(&err);
        cr = prc_crypto_load(&err);
        library("OpenSSL", cr != NULL ? cr->OpenSSL_version(OPENSSL_VERSION_STRING) : "not available",
                cr != NULL ? " (loaded for signature checks)" : "");
        if (cr == NULL)
                printf("              %s\n", err.msg);
        snprintf(buf, sizeof(buf), "%u.%u.%u", sv->major, sv->minor, sv->micro);
        library("libseccomp", buf, "");
        prc_err_init(&err);
        la = prc_libarchive_load(&err);
        if (la != NULL) {
                las = la->version_string();     /* "libarchive 3.6.2" */
                las = strncmp(las, "libarchive ", 11) == 0 ? las + 11 : las;
        }
        library("libarchive", las != NULL ? las : "not available",
                la != NULL ? " (loaded for archives and the Gitleaks ruleset)" : "");
        if (la == NULL)
                printf("              %s\n", err.msg);
        prc_err_init(&err);
        curl = prc_https_library_version(&err);
        library("libcurl", curl != NULL ? curl : "not available",
                curl != NULL ? " (loaded for prc setup native and AUR fetches)" : "");
        if (curl == NULL)
                printf("              %s\n", err.msg);
}

static bool floor_ok(prc_floor_level level, prc_floor_report *rep)
{
        prc_floor_cfg cfg;
        prc_err err;

        prc_err_init(&err);
        prc_floor_cfg_default(&cfg);
        cfg.level = level;
        if (!prc_floor_probe(&cfg, rep, &err))
                return false;
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                if (rep->state[i] != PRC_LAYER_APPLIED && rep->state[i] != PRC_LAYER_SKIPPED)
                        return false;
        return true;
}

/* The strongest level whose every layer applies here, as the scan header names it. */
static void content_floor(void)
{
        prc_floor_report rep, strict;

        if (floor_ok(PRC_FLOOR_STRICT, &strict)) {
                printf("content floor: strict (Landlock ABI %d with scopes, seccomp, namespaces, rlimits)\n",
                       strict.landlock_abi);
                return;
        }
        if (floor_ok(PRC_FLOOR_LANDLOCK, &rep)) {
                printf("content floor: landlock (Landlock ABI %d; strict needs ABI %d): "
                       "--content-floor landlock\n", rep.landlock_abi, PRC_LANDLOCK_ABI_MIN);
                return;
        }
        if (floor_ok(PRC_FLOOR_SECCOMP, &rep)) {
                printf("content floor: seccomp (no Landlock): --content-floor seccomp\n");
                return;
        }
        printf("content floor: none; the content worker cannot start on this host (prc sandbox probe says why)\n");
        for (int i = 0; i < PRC_LAYER__COUNT; i++)
                if (strict.state[i] == PRC_LAYER_FAILED)
                        printf("  %s: %s\n", prc_floor_layer_name((prc_floor_layer)i), strict.detail[i]);
}

int cli_version(void)
{
        char root[4096];

        printf("prc %s (engine API %d)\n", PRC_VERSION, PRC_ENGINE_API);
        printf("commit %s\n", PRC_COMMIT);
        printf("data %s (%s)\n", cli_data_root(root, sizeof(root)),
               cli_data_root_is_source() ? "the source tree this prc was built in" : "installed");
        loaded_libraries();
        content_floor();
        return PRC_EXIT_OK;
}
