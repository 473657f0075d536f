#!/bin/bash
# sbom_parent.sh - issue 18 "Speed": the CPU of `prc sbom`'s parent process (inventory, the lanes'
# reads, decoding and checks, the fold into the BOM, the write) apart from its content workers', for
# one or more prc binaries side by side in one run (each round runs every binary once, in turn).
#
#   bash bench/sbom_parent.sh [PRC...]     default: build/prc; SBOM_PARENT_RUNS=5 rounds
#
# Each run is sampled by `perf record -e task-clock -F 999` over the whole process tree: samples of
# the workers (started from /proc/self/exe: comm "exe") and of the rest (the parent and its
# threads), in CPU milliseconds; wall time and peak RSS by /usr/bin/time.  Printed: medians per binary
# of each, of the parent's CPU over the workers' in the same run (the workers do the same work
# whatever the parent: on a loaded host this ratio moves far less than either CPU time), and the
# ratio of each parent's median CPU to the first binary's.  Every binary must write the same SBOM
# bytes as the first (a faster parent that changes the BOM is no result).  Nothing here asserts a
# time; on a loaded host compare the binaries of one run only, and quote the load average.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
TREE=$CORPORA/manifests
RUNS=${SBOM_PARENT_RUNS:-5}
[ -d "$TREE" ] || { echo "sbom_parent: the corpora are absent ($TREE)"; exit 1; }
command -v perf >/dev/null || { echo "sbom_parent: perf is not installed (Debian package linux-perf)"; exit 1; }
[ -x /usr/bin/time ] || { echo "sbom_parent: /usr/bin/time is missing (Debian package time)"; exit 1; }
[ $# -gt 0 ] || set -- build/prc
BINS=("$@")
OUT=$(pwd)/build/bench/sbom-parent
mkdir -p "$OUT"
: >"$OUT/samples"
# The binaries this run measures, copied (a rebuild during the run changes none of them).
n=0
for b in "$@"; do
        [ -x "$b" ] || { echo "sbom_parent: $b is not an executable"; exit 1; }
        cp "$b" "$OUT/prc-$n"
        n=$((n + 1))
done
echo "# bash bench/sbom_parent.sh $*   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average" \
        "$(cut -d" " -f1-3 /proc/loadavg)); $RUNS rounds"
for r in $(seq "$RUNS"); do
        for i in $(seq 0 $((n - 1))); do
                rm -f "$OUT/sbom-$i.json"
                /usr/bin/time -f "%e %M" -o "$OUT/time" perf record -q -e task-clock -F 999 -o "$OUT/perf.data" \
                        "$OUT/prc-$i" sbom --target "$TREE" --output "$OUT/sbom-$i.json" >/dev/null 2>"$OUT/err" || true
                [ -s "$OUT/sbom-$i.json" ] || { echo "sbom_parent: prc-$i wrote no SBOM ($OUT/err)"; exit 1; }
                [ "$i" -eq 0 ] || cmp -s "$OUT/sbom-0.json" "$OUT/sbom-$i.json" ||
                        { echo "sbom_parent: ${BINS[i]} wrote another SBOM than ${BINS[0]}"; exit 1; }
                perf report -i "$OUT/perf.data" --sort comm --stdio -F sample,comm 2>/dev/null |
                        awk -v i="$i" -v t="$(tail -1 "$OUT/time")" '
                                $1 !~ /^[0-9]+$/ { next } $2 == "exe" { w += $1; next } { p += $1 }
                                END { printf "%s %.0f %.0f %s %.4f\n", i, p * 1000 / 999, w * 1000 / 999, t, p / w }' >>"$OUT/samples"
        done
done
# median of column c for binary i
med() { awk -v i="$1" -v c="$2" '$1 == i { print $c }' "$OUT/samples" | sort -n |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-34s %5s %11s %11s %8s %10s %14s %11s\n' binary runs "parent CPU" "worker CPU" wall "peak RSS" "parent/worker" "parent/1st"
p0=$(med 0 2)
i=0
for b in "$@"; do
        p=$(med $i 2)
        printf '%-34s %5d %8.0f ms %8.0f ms %6.2f s %6.1f MiB %14.3f %10.2fx\n' "$b" "$RUNS" "$p" "$(med $i 3)" \
                "$(med $i 4)" "$(echo "$(med $i 5) / 1024" | bc -l)" "$(med $i 6)" "$(echo "$p / $p0" | bc -l)"
        i=$((i + 1))
done
