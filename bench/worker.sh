#!/bin/bash
# worker.sh - content worker benchmark against the release build (build/prc
# re-executed as the worker, exactly as `prc content parse` does).
#   bash bench/worker.sh        (builds build/bench/worker, then runs it)
#   RUNS=9 bash bench/worker.sh (runs it 9 times, then the median of each
#                                ratio over the runs: on a noisy host one run's
#                                ratio can be off by 20%)
# Reports medians and ratios; nothing here asserts a time.
set -eu
cd "$(dirname "$0")/.."
make -s all
mkdir -p build/bench
PKGS="jansson libfyaml expat libcrypto libseccomp libarchive"
gcc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -include src/base/banned.h \
        $(pkg-config --cflags $PKGS) -o build/bench/worker bench/worker.c build/libprc.a \
        $(pkg-config --libs $PKGS) -lpthread -ldl
RUNS=${RUNS:-1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$RUNS"); do
        [ "$RUNS" -gt 1 ] && echo "== run $i of $RUNS (load: $(cut -d' ' -f1-3 /proc/loadavg))"
        build/bench/worker "$(pwd)/build/prc" | tee -a "$out"
done
if [ "$RUNS" -gt 1 ]; then
        echo "== medians over $RUNS runs"
        med() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
        echo "start-up to first reply: $(sed -n 's/^start-up to first reply: median \([0-9.]*\) ms.*/\1/p' "$out" | med) ms"
        for f in JSON YAML; do
                echo "1 MiB $f ratio (worker / in process): $(sed -n "s/^1 MiB $f .*ratio \([0-9.]*\)x.*/\1/p" "$out" | med)x"
        done
fi
