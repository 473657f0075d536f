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
BYTES=$(du -sb "$DIR/t" | cut -f1)
FILES=$(find "$DIR/t" -type f | wc -l)

prc_inv() { "$PRC" inventory --target "$1"; }
serial() { find "$1" -type f -print0 | xargs -0 sha256sum; }
par2() { find "$1" -type f -print0 | xargs -0 -P2 -n 256 sha256sum; }

bench_tree() {
        local t=$1 a b c
        # one untimed pass of each so that every command sees the same (warm) cache
        [ "$COLD" = 1 ] || { prc_inv "$t" >/dev/null; serial "$t" >/dev/null; }
        a=$(time_median noprep prc_inv "$t")
        b=$(time_median noprep serial "$t")
        c=$(time_median noprep par2 "$t")
        printf '  %-34s %8.3f s\n' "prc inventory" "$a"
        printf '  %-34s %8.3f s   prc is %sx faster\n' "find | xargs sha256sum" "$b" "$(ratio "$b" "$a")"
        printf '  %-34s %8.3f s   prc is %sx faster\n' "find | xargs -P2 sha256sum" "$c" "$(ratio "$c" "$a")"
        PRC_T=$a
}

# SHA-256 limit: openssl's single-core EVP rate on 1 MiB blocks, times the cores.
RATE_K=$(openssl speed -evp sha256 -bytes 1048576 -seconds 3 2>/dev/null | awk '/^sha256/ {print $2}' | tr -d k)
LIMIT=$(awk -v b="$BYTES" -v r="$RATE_K" -v c="$CORES" 'BEGIN {printf "%.3f", b / (r * 1000 * c)}')

echo "tree: $FILES files, $BYTES bytes; $RUNS runs each, median; cache: $([ "$COLD" = 1 ] && echo cold || echo warm)"
bench_tree "$DIR/t"
printf '  %-34s %8.3f s   prc at %sx of the limit (target <= 1.2x)\n' \
        "SHA-256 limit ($CORES cores x ${RATE_K}k/s)" "$LIMIT" "$(ratio "$PRC_T" "$LIMIT")"
if [ $# -ge 1 ] && [ -d "$1" ]; then
        echo "real tree: $1 ($(find "$1" -type f | wc -l) files, $(du -sb "$1" | cut -f1) bytes)"
        bench_tree "$1"
fi
