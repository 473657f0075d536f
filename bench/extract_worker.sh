#!/bin/bash
# extract_worker.sh - manifest extraction through the sandboxed content worker
# against the same extraction in process, side by side in one run: medians of
# 5 samples and their ratio, over every file of ../shared/corpora/manifests an
# extractor owns (read in place), overall and per format
# (bench/extract_worker.c says what is timed; a third column sends small files
# grouped, as prc sbom does).  The issue's aim: the worker within 1.2x of in
# process.  The driver is built with the Makefile's release
# flags against build/libprc.a; build/prc is the worker, as `prc scan` runs
# it.  Nothing here asserts a time.
#
#   bash bench/extract_worker.sh
#
# EXTRACT_BENCH_BASE=DIR: also the same driver of another checkout (DIR holds
# its src/, bench/extract_worker.c, build/libprc.a and build/prc, e.g. main's), run
# alternately with this one, EXTRACT_BENCH_ROUNDS (3) times each: a change
# and its base side by side in one run, on the same load.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
M=$CORPORA/manifests
[ -d "$M" ] || { echo "extract_worker: the corpora are absent ($M)"; exit 1; }
make -s all
OUT=build/bench
mkdir -p "$OUT"
flags=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^CFLAGS_ALL := //p')
libs=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^LIBS := //p')
[ -n "$flags" ] && [ -n "$libs" ] || { echo "extract_worker: cannot read the Makefile's flags"; exit 1; }
# shellcheck disable=SC2086
gcc $flags -o "$OUT/extract_worker" bench/extract_worker.c build/libprc.a $libs
# Every file an extractor owns, by the same name rules (a file no extractor owns is skipped by the driver).
mapfile -t files < <(find "$M" -type f -not -path '*/node_modules/*' | sort)
echo "# bash bench/extract_worker.sh   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg))"
if [ -z "${EXTRACT_BENCH_BASE:-}" ]; then
        "$OUT/extract_worker" "$(pwd)/build/prc" "${files[@]}"
        exit 0
fi
base=$(cd "$EXTRACT_BENCH_BASE" && pwd)
# shellcheck disable=SC2086
(cd "$base" && gcc $flags -o "$OLDPWD/$OUT/extract_worker.base" bench/extract_worker.c build/libprc.a $libs)
cp build/prc "$OUT/prc.this"
cp "$base/build/prc" "$OUT/prc.base"
for r in $(seq "${EXTRACT_BENCH_ROUNDS:-3}"); do
        echo "## round $r: base ($base)   load average $(cut -d" " -f1-3 /proc/loadavg)"
        "$OUT/extract_worker.base" "$(pwd)/$OUT/prc.base" "${files[@]}"
        echo "## round $r: this checkout   load average $(cut -d" " -f1-3 /proc/loadavg)"
        "$OUT/extract_worker" "$(pwd)/$OUT/prc.this" "${files[@]}"
done
