#!/bin/bash
# yaml.sh - throughput of the bounded YAML loader on real manifests, in
# process, with jansson's strict reader on the same JSON bytes side by side.
#
#   bash bench/yaml.sh [ROUNDS]      (default 15; medians; needs make testbuild)
#
# Through the worker is the content worker's bench (issue 5); this one
# measures the loader alone.  Prints one row per file and loader, then the
# YAML/JSON time ratio for the JSON files (YAML is a JSON superset, so the
# YAML loader reads them too).
set -u
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}
M=${PRC_CORPORA:-$(pwd)/../shared/corpora}/manifests
B=build/test/helpers/yaml_bench
[ -x "$B" ] || { echo "build first: make testbuild"; exit 2; }
[ -d "$M" ] || { echo "corpora absent: $M"; exit 2; }
files=(
        "$M/npm/mermaid-js__mermaid/pnpm-lock.yaml"
        "$M/npm/vuejs__core/pnpm-lock.yaml"
        "$M/npm/axios__axios/.github/workflows/ci.yml"
        "$M/npm/npm__cli/package-lock.json"
        "$M/npm/axios__axios/package-lock.json"
)
printf '%-60s %9s %5s %10s %8s\n' file bytes with median_us MB/s
"$B" "$ROUNDS" "${files[@]}" | while read -r f n how us mbs; do
        printf '%-60s %9s %5s %10s %8s\n' "${f#"$M"/}" "$n" "$how" "$us" "$mbs"
done | tee /tmp/prc-bench-yaml.$$
echo
awk '$3 == "yaml" { y[$1] = $4 } $3 == "json" { j[$1] = $4 }
     END { for (f in j) if (y[f] > 0) printf "%-60s yaml/json time ratio %.1fx\n", f, y[f] / j[f] }' /tmp/prc-bench-yaml.$$
rm -f /tmp/prc-bench-yaml.$$
