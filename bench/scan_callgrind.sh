#!/bin/bash
# scan_callgrind.sh - issue 19 "Speed", deterministic side: instructions of the `prc scan`
# process (not of its content worker, which does the same work whatever the profile) with the
# analyses off and on, counted by callgrind.
#
#   bash bench/scan_callgrind.sh [TARGET...]   default: every repository of ../shared/corpora/manifests
#
# Under valgrind, /proc/self/exe is valgrind's own tool, so the worker prc spawns from it never
# starts and every manifest becomes a worker-start gap: counts taken that way describe another
# scan.  This script builds a copy of the tree (in a temporary directory, release flags) whose
# client takes the worker binary from PRC_PROF_WORKER, runs the worker natively from that copy,
# and checks that each profiled scan printed the same bytes as build/prc does: a count is only
# reported for a real scan.  Profiles as bench/scan.sh (off = prc/core, on = bench/analyses).
# Reported: per target, instructions off and on; the totals and their ratio; the part of them
# spent in SHA-256 (libcrypto's block function), which callgrind counts without SHA-NI and which
# is far cheaper natively, so the ratio without it is printed too.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-../shared/corpora}
command -v valgrind >/dev/null || { echo "bench/scan_callgrind.sh: valgrind is not installed" >&2; exit 1; }
[ -x build/prc ] || { echo "bench/scan_callgrind.sh: build/prc is not built (run make)" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-cg-XXXXXX)
trap 'rm -rf "$W"' EXIT
if [ $# -eq 0 ]; then
        [ -d "$CORPORA/manifests" ] || { echo "bench/scan_callgrind.sh: $CORPORA/manifests is absent" >&2; exit 1; }
        set -- $(find "$CORPORA/manifests" -mindepth 2 -maxdepth 2 -type d | sort)
fi
mkdir "$W/catalog"
. bench/prof_copy.sh
prof_copy bench/scan_callgrind.sh "$W"
# The bench profile, made as bench/scan.sh makes it.
/usr/bin/python3 - catalog/catalog.yaml "$W/catalog/catalog.yaml" <<'PY'
import sys, yaml
src = open(sys.argv[1]).read()
cat = yaml.safe_load(src)
core = [p for p in cat["profiles"] if p["id"] == "prc/core"][0]["assertions"]
extra = [a["id"] for a in cat["assertions"]
         if a["id"].startswith("PRC-A-SC-") and "analysis" in a and a["id"] not in core]
with open(sys.argv[2], "w") as f:
    f.write(src.rstrip("\n") + "\n  - id: bench/analyses\n    title: prc/core plus the issue-19 analyses (bench only)\n"
            "    assertions:\n" + "".join(f"      - {i}\n" for i in core + extra))
PY
count() {       # count TARGET PROFILE -> "instructions sha"
        local out=$W/cg.out
        # A tunable of the user's own is never overridden, so the command does not re-execute itself
        # (/proc/self/exe is valgrind's tool here); instruction counts do not depend on huge pages.
        GLIBC_TUNABLES=glibc.malloc.hugetlb=0 PRC_PROF_WORKER=$P valgrind --tool=callgrind --callgrind-out-file="$out" "$P" scan --target "$1" \
                --catalog-root "$W/catalog" --profile "$2" --format json >"$W/a.json" 2>"$W/vg.log" || [ $? -le 1 ]
        build/prc scan --target "$1" --catalog-root "$W/catalog" --profile "$2" --format json >"$W/b.json" 2>/dev/null ||
                [ $? -le 1 ]
        cmp -s "$W/a.json" "$W/b.json" ||
                { echo "bench/scan_callgrind.sh: the profiled scan of $1 differs from build/prc's" >&2; exit 1; }
        callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
                awk '/PROGRAM TOTALS/ { gsub(",", "", $1); t = $1 } /SHA256_Update \[/ { gsub(",", "", $1); s = $1 }
                     END { print t, s + 0 }'
}
tot_off=0 tot_on=0 sha_off=0 sha_on=0
for t in "$@"; do
        r=$(count "$t" prc/core)
        read -r off soff <<<"$r"
        r=$(count "$t" bench/analyses)
        read -r on son <<<"$r"
        printf '%-60s off %12d  on %12d  ratio %.3f\n' "${t#"$CORPORA/manifests/"}" "$off" "$on" \
                "$(echo "$on / $off" | bc -l)"
        tot_off=$((tot_off + off)) tot_on=$((tot_on + on)) sha_off=$((sha_off + soff)) sha_on=$((sha_on + son))
done
printf 'total: off %d  on %d  ratio %.3f; without SHA-256: off %d  on %d  ratio %.3f\n' "$tot_off" "$tot_on" \
        "$(echo "$tot_on / $tot_off" | bc -l)" $((tot_off - sha_off)) $((tot_on - sha_on)) \
        "$(echo "($tot_on - $sha_on) / ($tot_off - $sha_off)" | bc -l)"
