#!/bin/bash
# bench/inventory.sh - `prc inventory` against find|xargs sha256sum, serial and
# -P2, side by side on one generated tree (>= 50,000 files, >= 1 GiB), and
# against the SHA-256 throughput limit of this machine's cores.
#
#   bash bench/inventory.sh [REAL_TREE]     (RUNS=5 COLD=0 by default)
#   PRC_BASE=/path/to/older/prc bash bench/inventory.sh   (also times that build)
#
# The limit: bytes / (cores x single-core SHA-256 rate), the rate being the
# higher of `openssl speed -evp sha256` and bench/sha256_speed.c (prc's own
# EVP wrapper) on 1 MiB blocks, both CPU-time rates.  The aim is prc's wall
# time (median of RUNS alternating rounds, warm page cache) <= 1.2x that
# limit.  User+sys CPU of each prc run is recorded too (median), against the
# CPU the hashing alone needs: on a machine shared with other work, CPU time
# says where the cost is when wall time is inflated by the load.
# Warm page cache unless COLD=1 (drops caches before every run; root only).
# REAL_TREE, if given, is timed too.  The tree lives in /tmp and is removed
# on exit.  Not part of tests/run.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
. bench/inventory-tree.sh
PRC=${PRC:-build/prc}
PRC_BASE=${PRC_BASE:-}
[ -x "$PRC" ] || { echo "build $PRC first (make all)" >&2; exit 1; }
CORES=$(nproc)
DIR=$(mktemp -d /tmp/prc-bench-inv-XXXXXX)
trap 'rm -rf "$DIR"' EXIT

mkdir -p build/bench
gcc -std=c17 -D_GNU_SOURCE -O2 -Isrc -include src/base/banned.h -o build/bench/sha256_speed \
        bench/sha256_speed.c build/libprc.a $(pkg-config --libs libcrypto)
gcc -std=c17 -D_GNU_SOURCE -O2 -Isrc -include src/base/banned.h -o build/bench/inventory_floor \
        bench/inventory_floor.c build/libprc.a $(pkg-config --libs libcrypto) -lpthread

echo "generating: $(gen_tree "$DIR/t")"
BYTES=$(find "$DIR/t" -type f -printf "%s\n" | awk "{s += \$1} END {print s}")
FILES=$(find "$DIR/t" -type f | wc -l)

TREE=
# Each prc run appends its user+sys seconds to a file (median taken below).
prc_inv() { /usr/bin/time -a -o "$DIR/cpu.prc" -f '%U %S' "$PRC" inventory --target "$TREE"; }
base_inv() { /usr/bin/time -a -o "$DIR/cpu.base" -f '%U %S' "$PRC_BASE" inventory --target "$TREE"; }
# The floor: open, fstat, read or map, hash and close each file of a ready-made list on $CORES threads; no walk, no checks.
floor() { /usr/bin/time -a -o "$DIR/cpu.floor" -f '%U %S' build/bench/inventory_floor "$DIR/list" "$CORES"; }
serial() { find "$TREE" -type f -print0 | xargs -0 sha256sum; }
par2() { find "$TREE" -type f -print0 | xargs -0 -P2 -n 256 sha256sum; }
cpu_median() { awk '{print $1 + $2}' "$1" | sort -g | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }

# Single-core SHA-256 rate in bytes per CPU second: the higher of openssl and prc's wrapper.
OSSL=$(openssl speed -evp sha256 -bytes 1048576 -seconds 3 -mr 2>/dev/null | awk -F: '/^\+F:/ {print $4}')
OWN=$(build/bench/sha256_speed 1024 1048576)
RATE=$(awk -v a="$OSSL" -v b="$OWN" 'BEGIN {printf "%.0f", (a > b ? a : b)}')
LIMIT=$(awk -v b="$BYTES" -v r="$RATE" -v c="$CORES" 'BEGIN {printf "%.3f", b / (r * c)}')
HASH_CPU=$(awk -v b="$BYTES" -v r="$RATE" 'BEGIN {printf "%.3f", b / r}')

bench_tree() {
        local specs=(prc=prc_inv floor=floor serial=serial par2=par2) cpu
        TREE=$1
        rm -f "$DIR/cpu.prc" "$DIR/cpu.base" "$DIR/cpu.floor"
        find "$TREE" -type f -print0 >"$DIR/list"
        [ -z "$PRC_BASE" ] || specs+=(base=base_inv)
        # one untimed pass of each so that every command sees the same (warm) cache
        [ "$COLD" = 1 ] || { "$PRC" inventory --target "$TREE" >/dev/null; serial >/dev/null; }
        bench_rounds noprep "${specs[@]}"
        cpu=$(cpu_median "$DIR/cpu.prc")
        printf '  %-40s %8.3f s wall   %6.3f s CPU\n' "prc inventory ($PRC)" "$MEDIAN_prc" "$cpu"
        if [ -n "$PRC_BASE" ]; then
                printf '  %-40s %8.3f s wall   %6.3f s CPU   %sx the wall of prc\n' "prc inventory ($PRC_BASE)" \
                        "$MEDIAN_base" "$(cpu_median "$DIR/cpu.base")" "$(ratio "$MEDIAN_base" "$MEDIAN_prc")"
        fi
        FLOOR_T=$MEDIAN_floor
        FLOOR_CPU=$(cpu_median "$DIR/cpu.floor")
        printf '  %-40s %8.3f s wall   %6.3f s CPU   (bench/inventory_floor.c: open+read or map+hash only)\n' \
                "floor: open/read|map/hash/close, no walk" "$FLOOR_T" "$FLOOR_CPU"
        printf '  %-40s %8.3f s wall   prc is %sx faster\n' "find | xargs sha256sum" "$MEDIAN_serial" \
                "$(ratio "$MEDIAN_serial" "$MEDIAN_prc")"
        printf '  %-40s %8.3f s wall   prc is %sx faster\n' "find | xargs -P2 sha256sum" "$MEDIAN_par2" \
                "$(ratio "$MEDIAN_par2" "$MEDIAN_prc")"
        PRC_T=$MEDIAN_prc
        PRC_CPU=$cpu
}

echo "tree: $FILES files, $BYTES bytes; $RUNS alternating rounds, medians; cache: $([ "$COLD" = 1 ] && echo cold || echo warm)"
awk -v o="$OSSL" -v w="$OWN" 'BEGIN {printf "  single-core SHA-256: openssl speed -evp sha256 %.1f MB/s, bench/sha256_speed %.1f MB/s (1 MiB blocks)\n", o / 1e6, w / 1e6}'
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $CORES cores (other work inflates wall times)"
bench_tree "$DIR/t"
printf '  %-40s %8.3f s        = bytes / (%d cores x %.1f MB/s)\n' "SHA-256 limit" "$LIMIT" "$CORES" \
        "$(awk -v r="$RATE" 'BEGIN {print r / 1e6}')"
printf '  %-40s %8.3f s        prc wall at %sx the limit (aim <= 1.2x: %s)\n' "aim: 1.2 x limit" \
        "$(awk -v l="$LIMIT" 'BEGIN {printf "%.3f", 1.2 * l}')" "$(ratio "$PRC_T" "$LIMIT")" \
        "$(awk -v t="$PRC_T" -v l="$LIMIT" 'BEGIN {print t <= 1.2 * l ? "met" : "not met"}')"
printf '  %-40s %8.3f s        floor wall at %sx the limit\n' "" "$LIMIT" "$(ratio "$FLOOR_T" "$LIMIT")"
printf '  %-40s %8.3f s CPU    prc CPU at %sx of it, floor CPU at %sx\n' \
        "SHA-256 CPU for these bytes" "$HASH_CPU" "$(ratio "$PRC_CPU" "$HASH_CPU")" "$(ratio "$FLOOR_CPU" "$HASH_CPU")"
printf '  %-40s %s us per file beyond hashing (floor: %s us; prc over the floor: %s us)\n' "" \
        "$(awk -v c="$PRC_CPU" -v h="$HASH_CPU" -v f="$FILES" 'BEGIN {printf "%.1f", (c - h) / f * 1e6}')" \
        "$(awk -v c="$FLOOR_CPU" -v h="$HASH_CPU" -v f="$FILES" 'BEGIN {printf "%.1f", (c - h) / f * 1e6}')" \
        "$(awk -v c="$PRC_CPU" -v h="$FLOOR_CPU" -v f="$FILES" 'BEGIN {printf "%.1f", (c - h) / f * 1e6}')"
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $# -ge 1 ] && [ -d "$1" ]; then
        echo "real tree: $1 ($(find "$1" -type f | wc -l) files, $(du -sb "$1" | cut -f1) bytes)"
        bench_tree "$1"
fi
