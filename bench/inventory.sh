#!/bin/bash
# bench/inventory.sh - `prc inventory` against find|xargs sha256sum, serial and
# -P2, side by side on one generated tree (>= 50,000 files, >= 1 GiB), plus the
# SHA-256 throughput limit of this machine's cores from `openssl speed`.
#
#   bash bench/inventory.sh [REAL_TREE]     (make all first; RUNS=3 COLD=0 by default)
#
# Medians of RUNS runs.  Warm page cache unless COLD=1 (drops caches before
# every run; root only).  REAL_TREE, if given, is timed too (a real checkout).
# The tree lives in /tmp and is removed on exit.  Not part of tests/run.
set -eu
cd "$(dirname "$0")/.."
. bench/inventory-tree.sh
PRC=${PRC:-build/prc}
[ -x "$PRC" ] || { echo "build $PRC first (make all)" >&2; exit 1; }
CORES=$(nproc)
DIR=$(mktemp -d /tmp/prc-bench-inv-XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "generating: $(gen_tree "$DIR/t")"
BYTES=$(find "$DIR/t" -type f -printf "%s\n" | awk "{s += \$1} END {print s}")
FILES=$(find "$DIR/t" -type f | wc -l)

TREE=
prc_inv() { "$PRC" inventory --target "$TREE"; }
serial() { find "$TREE" -type f -print0 | xargs -0 sha256sum; }
par2() { find "$TREE" -type f -print0 | xargs -0 -P2 -n 256 sha256sum; }

bench_tree() {
        TREE=$1
        # one untimed pass of each so that every command sees the same (warm) cache
        [ "$COLD" = 1 ] || { prc_inv >/dev/null; serial >/dev/null; }
        bench_rounds noprep prc=prc_inv serial=serial par2=par2
        printf '  %-36s %8.3f s\n' "prc inventory" "$MEDIAN_prc"
        printf '  %-36s %8.3f s   prc is %sx faster\n' "find | xargs sha256sum" "$MEDIAN_serial" \
                "$(ratio "$MEDIAN_serial" "$MEDIAN_prc")"
        printf '  %-36s %8.3f s   prc is %sx faster\n' "find | xargs -P2 sha256sum" "$MEDIAN_par2" \
                "$(ratio "$MEDIAN_par2" "$MEDIAN_prc")"
        # CPU seconds of one prc run: what the 1.2x target means on a loaded shared host
        /usr/bin/time -o "$DIR/cpu" -f '%U %S' "$PRC" inventory --target "$TREE" >/dev/null
        PRC_CPU=$(awk '{printf "%.3f", $1 + $2}' "$DIR/cpu")
        printf '  %-36s %8.3f s   (user+sys of one prc run)\n' "prc inventory CPU time" "$PRC_CPU"
        PRC_T=$MEDIAN_prc
}

# SHA-256 limit: openssl's single-core EVP rate on 1 MiB blocks, times the cores.
RATE_K=$(openssl speed -evp sha256 -bytes 1048576 -seconds 3 2>/dev/null | awk '/^sha256/ {print $2}' | tr -d k)
LIMIT=$(awk -v b="$BYTES" -v r="$RATE_K" -v c="$CORES" 'BEGIN {printf "%.3f", b / (r * 1000 * c)}')

echo "tree: $FILES files, $BYTES bytes; $RUNS runs each, median; cache: $([ "$COLD" = 1 ] && echo cold || echo warm)"
bench_tree "$DIR/t"
printf '  %-36s %8.3f s   prc wall at %sx of the limit (target <= 1.2x)\n' \
        "SHA-256 limit ($CORES cores x ${RATE_K}k/s)" "$LIMIT" "$(ratio "$PRC_T" "$LIMIT")"
CPU_LIMIT=$(awk -v b="$BYTES" -v r="$RATE_K" 'BEGIN {printf "%.3f", b / (r * 1000)}')
printf '  %-36s %8.3f s   prc CPU at %sx of it\n' "SHA-256 CPU time for these bytes" "$CPU_LIMIT" \
        "$(ratio "$PRC_CPU" "$CPU_LIMIT")"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores (a shared machine inflates wall times)"
if [ $# -ge 1 ] && [ -d "$1" ]; then
        echo "real tree: $1 ($(find "$1" -type f | wc -l) files, $(du -sb "$1" | cut -f1) bytes)"
        bench_tree "$1"
fi
