#!/bin/bash
# bench/snapshot.sh - `prc snapshot` (inventory, then copy while rehashing,
# then seal) against `cp -a` followed by sha256sum of the copy (serial and
# -P2), side by side on one generated tree (>= 50,000 files, >= 1 GiB).
#
#   bash bench/snapshot.sh            (make all first; RUNS=3 COLD=0 by default)
#
# Medians of RUNS runs; outputs are removed between runs (untimed).  The
# trees live in /tmp and are removed on exit.  Not part of tests/run.
set -eu
cd "$(dirname "$0")/.."
. bench/inventory-tree.sh
PRC=${PRC:-build/prc}
[ -x "$PRC" ] || { echo "build $PRC first (make all)" >&2; exit 1; }
DIR=$(mktemp -d /tmp/prc-bench-snap-XXXXXX)
trap 'chmod -R u+rwX "$DIR" 2>/dev/null; rm -rf "$DIR"' EXIT

echo "generating: $(gen_tree "$DIR/t")"
clean() { chmod -R u+rwX "$DIR/out" 2>/dev/null || true; rm -rf "$DIR/out"; }
prc_snap() { "$PRC" snapshot --target "$DIR/t" --out "$DIR/out"; }
prc_snap_verify() { "$PRC" snapshot --target "$DIR/t" --out "$DIR/out" --verify; }
cp_hash() { cp -a "$DIR/t" "$DIR/out" && find "$DIR/out" -type f -print0 | xargs -0 sha256sum; }
cp_hash2() { cp -a "$DIR/t" "$DIR/out" && find "$DIR/out" -type f -print0 | xargs -0 -P2 -n 256 sha256sum; }

echo "$RUNS interleaved rounds, median; cache: $([ "$COLD" = 1 ] && echo cold || echo warm)"
clean; [ "$COLD" = 1 ] || cp_hash >/dev/null      # warm the source cache for everyone
bench_rounds clean prc=prc_snap verify=prc_snap_verify cp=cp_hash cp2=cp_hash2
clean
a=$MEDIAN_prc
printf '  %-42s %8.3f s\n' "prc snapshot (inventory + copy + seal)" "$a"
printf '  %-42s %8.3f s\n' "prc snapshot --verify (+ reread)" "$MEDIAN_verify"
printf '  %-42s %8.3f s   prc is %sx faster\n' "cp -a && find | xargs sha256sum" "$MEDIAN_cp" "$(ratio "$MEDIAN_cp" "$a")"
printf '  %-42s %8.3f s   prc is %sx faster\n' "cp -a && find | xargs -P2 sha256sum" "$MEDIAN_cp2" \
        "$(ratio "$MEDIAN_cp2" "$a")"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (a shared machine inflates wall times)"
