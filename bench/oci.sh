#!/bin/bash
# oci.sh - overhead of `prc adapter run-oci` over a bare `docker run` of the
# same image and command, on a 10,000-file target (issue 8: aim under 1.3x)
# and on a 2-file target (the runner's fixed overhead).
#
#   bash bench/oci.sh [RUNS]      default 5 runs per side, alternating; prints each and the medians
#   PRC_BASE=/path/to/prc bash bench/oci.sh 5
#                                 adds a third side: another prc build (e.g. main's) on the same runs
#   PHASES=1 bash bench/oci.sh 5  then also the median time of each run-oci phase (build/test/prc,
#                                 PRC_OCI_TRACE=1) on both targets
#
# run-oci does everything the bare run does not: inventory and snapshot
# copy with re-hashing of all 10,000 files, runtime identity and limit
# probe, image check, the pre- and post-run snapshot verification, strict
# decoding, the record and the snapshot's removal.  The bare side binds the
# target read-only at /prc-snapshot with the same working directory, so the
# good adapter does the same work.  Needs the OCI environment
# (scripts/oci-env.sh); as root, every side runs as $PRC_TEST_USER.
#
# The snapshot goes where the runner puts it (a private tmpfs when there is
# one, docs/oci-runner.md); PRC_OCI_TMPDIR=/tmp measures it on ext4.  For
# the phase by phase split use build/test/prc with PRC_OCI_TRACE=1.
set -eu
cd "$(dirname "$0")/.."
export PRC_ROOT=$(pwd)
RUNS=${1:-5}
PRC=${PRC:-$PRC_ROOT/build/prc}
# shellcheck disable=SC1091
source tests/cli/oci_lib.sh
sh scripts/oci-env.sh --check
oci_prepare_user
IMG=$(oci_image good)
W=$(mktemp -d /tmp/prc-bench-oci-XXXXXX)
trap 'chmod -R u+rwX "$W"; rm -rf "$W"' EXIT
chmod 755 "$W"
mkdir -p "$W/t"
for d in $(seq 0 99); do
        mkdir -p "$W/t/d$d"
        for f in $(seq 0 99); do printf 'file %d %d\n' "$d" "$f" >"$W/t/d$d/f$f.txt"; done
done
chmod -R a+rX "$W/t"
oci_manifest "$W/m.yaml" "$IMG"
printf '%s\n' '{"protocol":"prc-adapter-jsonl-v1","run_id":"'"$(printf 'a%.0s' {1..64})"'","type":"hello"}' \
        '{"config":{},"facts":{},"subject":{"inventory_digest":"'"$(printf 'b%.0s' {1..64})"'","target_name":"t"},"type":"input"}' \
        '{"type":"execute"}' >"$W/req"
chmod 644 "$W/req"

now() { date +%s%N; }
mkdir -p "$W/small"; printf 'a\n' >"$W/small/a"; printf 'b\n' >"$W/small/b"; chmod -R a+rX "$W/small"
T=$W/t
prc_side() {
        as_user "$PRC" adapter run-oci --manifest "$W/m.yaml" --target "$T" --runtime docker >/dev/null
}
base_side() {
        as_user "$PRC_BASE" adapter run-oci --manifest "$W/m.yaml" --target "$T" --runtime docker >/dev/null
}
bare_side() {
        as_user docker run --rm -i --pull=never --network=none \
                --mount "type=bind,source=$T,target=/prc-snapshot,readonly" --workdir=/prc-snapshot \
                --entrypoint= "$IMG" /adapter <"$W/req" >/dev/null 2>&1
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
measure() {
        local label=$1 t0 t1 t2 t3
        prc_side; bare_side     # warm caches (page cache, image layers)
        [ -z "${PRC_BASE:-}" ] || base_side
        P=(); B=(); O=()
        for i in $(seq 1 "$RUNS"); do
                t0=$(now); prc_side; t1=$(now); bare_side; t2=$(now)
                P+=($(( (t1 - t0) / 1000000 ))); B+=($(( (t2 - t1) / 1000000 )))
                if [ -n "${PRC_BASE:-}" ]; then
                        base_side; t3=$(now); O+=($(( (t3 - t2) / 1000000 )))
                        echo "$label run $i: run-oci ${P[-1]} ms, bare docker run ${B[-1]} ms, base run-oci ${O[-1]} ms"
                else
                        echo "$label run $i: run-oci ${P[-1]} ms, bare docker run ${B[-1]} ms"
                fi
        done
        mp=$(median "${P[@]}"); mb=$(median "${B[@]}")
        echo "median ($label): run-oci $mp ms, bare docker run $mb ms, ratio $(ratio "$mp" "$mb")x"
        if [ -n "${PRC_BASE:-}" ]; then
                mo=$(median "${O[@]}")
                echo "median ($label): base run-oci $mo ms, ratio $(ratio "$mo" "$mb")x; run-oci is $(ratio "$mo" "$mp")x faster than base"
        fi
}
# phases LABEL: for each PRC_OCI_TRACE mark (test build) its median time since the start over
# RUNS runs, in that order, and the difference to the mark before it.  Keyed by the mark's name:
# the probe thread's marks interleave with the copy's in a different order from run to run.
phases() {
        local label=$1 i
        : >"$W/phases"
        for i in $(seq 1 "$RUNS"); do
                as_user env PRC_OCI_TRACE=1 "$PRC_ROOT/build/test/prc" adapter run-oci --manifest "$W/m.yaml" \
                        --target "$T" --runtime docker 2>&1 >/dev/null |
                        awk '$1 == "prc-oci-trace" { print $3, $2 }' >>"$W/phases"
        done
        echo "phases ($label), median of $RUNS runs: ms since start, ms since the mark above"
        awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) print k, v[k] }' "$W/phases" |
                while read -r name vals; do echo "$name $(median $vals)"; done | sort -k2,2n |
                awk '{ printf "  %-28s %8.1f %8.1f\n", $1, $2, $2 - prev; prev = $2 }'
}
T=$W/t; measure "10,000 files"
T=$W/small; measure "2 files"
if [ -n "${PHASES:-}" ]; then
        T=$W/t; phases "10,000 files"
        T=$W/small; phases "2 files"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
