#!/bin/bash
# native_normalize.sh - time `prc adapter validate-output` (native branch) on
# a generated Gitleaks report of 10,000 redacted findings (the protocol cap)
# and a Grype report of 5,000 matches, side by side with
# bench/native_normalize_floor.c (jansson parsing the same bytes and nothing
# else), so the ratio shows what the normalizer's checks cost.
#
#   bash bench/native_normalize.sh [RUNS]     default 5 runs; prints medians and ratios
#
# Uses the release build (build/prc; run `make` first).
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
PRC=${PRC:-build/prc}
W=$(mktemp -d /tmp/prc-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
/usr/bin/python3 - "$W" <<'PY'
import copy, json, sys
w = sys.argv[1]
snap = "/prc-snapshot"
fs = []
for i in range(10000):
    f = f"{snap}/src/m{i % 300}/file{i}.py"
    fs.append({"RuleID": "generic-api-key", "Description": "Detected a Generic API Key", "StartLine": i + 1,
               "EndLine": i + 1, "StartColumn": 5, "EndColumn": 40, "Match": "key = \"REDACTED\"",
               "Secret": "REDACTED", "File": f, "SymlinkFile": "", "Commit": "", "Entropy": 4.1, "Author": "",
               "Email": "", "Date": "", "Message": "", "Tags": [], "Fingerprint": f"{f}:generic-api-key:{i + 1}"})
json.dump(fs, open(w + "/gitleaks.json", "w"), indent=1)
g = json.load(open("tests/golden/native/grype/001-dir.in"))
m0 = g["matches"][0]
ms = []
for i in range(5000):
    m = copy.deepcopy(m0)
    m["vulnerability"]["id"] = f"CVE-2026-{i:05d}"
    m["artifact"]["id"] = f"{i:016x}"
    ms.append(m)
g["matches"] = ms
json.dump(g, open(w + "/grype.json", "w"))
PY
cc -O2 -o "$W/floor" bench/native_normalize_floor.c $(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
sed 's/^  stdout_bytes: .*/  stdout_bytes: 268435456/' adapters/gitleaks-v8.30.0.yaml > "$W/g.yaml"
sed 's/^  stdout_bytes: .*/  stdout_bytes: 268435456/' adapters/grype-v0.116.1.yaml > "$W/y.yaml"

t() {   # median wall seconds of RUNS runs of "$@"
        local i s e ts=()
        for ((i = 0; i < RUNS; i++)); do
                s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
                ts+=("$(echo "$e - $s" | bc)")
        done
        printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}
for case in "gitleaks g.yaml gitleaks.json" "grype y.yaml grype.json"; do
        set -- $case
        a=$(t "$PRC" adapter validate-output --manifest "$W/$2" --file "$W/$3" --now 2026-07-22T12:00:00Z)
        "$PRC" adapter validate-output --manifest "$W/$2" --file "$W/$3" --now 2026-07-22T12:00:00Z >/dev/null
        b=$(t "$W/floor" "$W/$3")
        printf '%-8s %8d bytes  normalize median %.3f s   jansson parse median %.3f s   ratio %.2f\n' \
                "$1" "$(stat -c %s "$W/$3")" "$a" "$b" "$(echo "$a / $b" | bc -l)"
done
