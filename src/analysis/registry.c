/*
 * registry.c - the one table of analyses (analysis.h).  Adding an analysis
 * is one line here, one function in its family's file, a catalog assertion
 * and a section of docs/analyses.md.
 * Trust: engine-side.
 */
#include "analysis/analysis.h"

#include "analysis/aur.h"
#include "analysis/containers.h"
#include "analysis/deps.h"
#include "analysis/shell.h"
#include "analysis/workflows.h"
#include "analysis/workflows_scope.h"
#include "base/compiler.h"

#define PB PRC_AK_PKGBUILD
#define SI PRC_AK_SRCINFO
#define IN PRC_AK_INSTALL
#define WF PRC_AK_WORKFLOW
#define DF PRC_AK_DOCKERFILE
#define DP PRC_AK_DEPS

const prc_analysis prc_analysis_table[] = {
        /* id, family, doc, needs, requires, run */
        { "aur-checksums", "aur", "every source has a well-formed strong checksum; SKIP only for VCS sources",
          PB, PB, prc_aur_checksums },
        { "aur-source-url", "aur", "no plain http/ftp sources, none on raw IPs, shorteners, paste sites, dynamic DNS "
          "or onion hosts", PB, PB, prc_aur_source_url },
        { "aur-bin-host", "aur", "a -bin package's binaries come from the publisher named by url=", PB, PB,
          prc_aur_bin_host },
        { "aur-remote-exec", "aur", "no download-and-execute and no package-manager installs in functions or "
          "install hooks", PB | IN, PB, prc_aur_remote_exec },
        { "aur-toplevel-code", "aur", "the PKGBUILD runs nothing at its top level beyond assignments and "
          "conditionals over them", PB, PB, prc_aur_toplevel_code },
        { "aur-srcinfo-drift", "aur", ".SRCINFO agrees with the PKGBUILD's static values", PB | SI, PB,
          prc_aur_srcinfo_drift },
        { "aur-obfuscation", "aur", "no dangerous command that appears only after normalization (quote splicing, "
          "variables, ANSI-C quoting, base64 -d | sh, eval)", PB | IN, PB, prc_aur_obfuscation },
        { "aur-install-hooks", "aur", "the install script the package ships and its hooks, for the reviewer",
          PB | IN, PB, prc_aur_install_hooks },
        { "gha-unpinned-uses", "workflows", "every remote uses: is pinned to a full commit, every docker:// image to "
          "a digest", WF, WF, prc_gha_unpinned_uses },
        { "gha-dangerous-trigger", "workflows", "no pull_request_target, workflow_run or issue_comment job checks out "
          "the pull request's code and then runs it, or runs the triggering run's artifacts", WF, WF,
          prc_gha_dangerous_trigger },
        { "gha-template-injection", "workflows", "no attacker-written text (titles, bodies, branch names, commit "
          "messages) expanded by ${{ }} into a run: script or a github-script", WF, WF, prc_gha_template_injection },
        { "gha-env-injection", "workflows", "no attacker-written text appended to GITHUB_ENV or GITHUB_PATH in a "
          "privileged trigger", WF, WF, prc_gha_env_injection },
        { "gha-self-hosted-pr", "workflows", "no job reachable from pull requests runs on a self-hosted runner", WF,
          WF, prc_gha_self_hosted_pr },
        { "gha-excessive-permissions", "workflows_scope", "no workflow without permissions, no write-all, no write "
          "scopes at the workflow level that several jobs inherit", WF, WF, prc_gha_excessive_permissions },
        { "gha-persisted-credentials", "workflows_scope", "actions/checkout sets persist-credentials: false", WF, WF,
          prc_gha_persisted_credentials },
        { "gha-cache-poisoning", "workflows_scope", "no release or publishing job restores a cache", WF, WF,
          prc_gha_cache_poisoning },
        { "gha-secrets-exposure", "workflows_scope", "no secrets: inherit, toJSON(secrets) or secrets[computed]", WF,
          WF, prc_gha_secrets_exposure },
        { "gha-insecure-commands", "workflows_scope", "ACTIONS_ALLOW_UNSECURE_COMMANDS is never turned on", WF, WF,
          prc_gha_insecure_commands },
        /* containers (issue 19) */
        { "docker-unpinned-base", "containers", "every FROM and COPY --from image is pinned by @sha256 digest "
          "(scratch and earlier stages exempt)", DF, DF, prc_docker_unpinned_base },
        { "docker-root-user", "containers", "the final stage runs as a user other than root", DF, DF,
          prc_docker_root_user },
        { "docker-remote-add", "containers", "no ADD of an http(s) URL without --checksum, nor of a git URL at a "
          "moving ref", DF, DF, prc_docker_remote_add },
        /* shell, wherever prc tokenizes it (issue 19, issue 20) */
        { "shell-download-exec", "shell", "no fetched content piped into a shell or interpreter, or saved and run, "
          "without a digest check", WF | DF | PB | IN, WF | DF | PB, prc_shell_download_exec },
        { "shell-unpinned-install", "shell", "no pip, npm, yarn, pnpm, bun, go, gem or cargo install that is not "
          "pinned to exact versions and hashes or a lockfile", WF | DF | PB | IN, WF | DF | PB,
          prc_shell_unpinned_install },
        { "deps-lockfile-missing", "deps", "an application manifest has its ecosystem's lockfile", DP, DP,
          prc_deps_lockfile_missing },
        { "deps-lockfile-drift", "deps", "every direct dependency is in the lockfile, at a version inside its range",
          DP, DP, prc_deps_lockfile_drift },
        { "deps-integrity-missing", "deps", "every registry entry of a lockfile carries a strong integrity hash", DP,
          DP, prc_deps_integrity_missing },
        { "deps-non-registry-source", "deps", "git, URL and path sources are pinned to a commit or hash and stay in "
          "the tree; lock entries come from declared registries", DP, DP, prc_deps_non_registry_source },
        { "deps-install-scripts", "deps", "no install-time scripts of the package or of its locked dependencies", DP,
          DP, prc_deps_install_scripts },
        { "deps-registry-confusion", "deps", "no extra index mixed with the main one (pip --extra-index-url, "
          "unscoped extra npm registries, NuGet sources without packageSourceMapping)", DP, DP,
          prc_deps_registry_confusion },
};
const size_t prc_analysis_count = PRC_ARRAY_LEN(prc_analysis_table);
