#!/bin/bash
# sbom_timeline.sh - where `prc sbom` over ../shared/corpora/manifests spends
# its wall time, per thread: perf record -F 2000 of one run (the parent, its
# lane threads and the workers it starts), then the samples of each thread in
# 25-ms buckets (50 samples fill one core for a bucket) and, per bucket, how
# many cores were busy.  The phases where one core idles show as buckets
# near 1.0 in the "cores" column.  Nothing here asserts a time.
#
#   bash bench/sbom_timeline.sh [PRC]      (PRC: a prc binary, default build/prc;
#                                           TIMELINE_BUCKET_MS=25, TIMELINE_HZ=2000)
#
# Needs perf (Debian package linux-perf) and perf_event_paranoid <= 2.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
TREE=$CORPORA/manifests
PRC=${1:-build/prc}
HZ=${TIMELINE_HZ:-2000}
BUCKET=${TIMELINE_BUCKET_MS:-25}
[ -d "$TREE" ] || { echo "sbom_timeline: the corpora are absent ($TREE)"; exit 1; }
command -v perf >/dev/null || { echo "sbom_timeline: perf is missing (Debian package linux-perf)"; exit 1; }
OUT=$(pwd)/build/bench/timeline
mkdir -p "$OUT"
echo "# bash bench/sbom_timeline.sh $PRC   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores," \
        "load average $(cut -d" " -f1-3 /proc/loadavg))"
perf record -q -F "$HZ" -o "$OUT/perf.data" -- "$PRC" sbom --target "$TREE" --output "$OUT/sbom.json" \
        2>"$OUT/prc.err" >/dev/null || true
[ -s "$OUT/sbom.json" ] || { echo "sbom_timeline: prc wrote no SBOM ($OUT/prc.err)"; exit 1; }
perf script -i "$OUT/perf.data" -F pid,tid,time 2>/dev/null | python3 -c '
import sys
hz, bucket = int(sys.argv[1]), float(sys.argv[2]) / 1000
rows = []
for line in sys.stdin:
    f = line.replace(":", " ").split()
    if len(f) < 2:
        continue
    pid, tid = map(int, f[0].split("/")) if "/" in f[0] else (int(f[0]), int(f[1]))
    rows.append((float(f[-1]), pid, tid))
rows.sort()
t0, root = rows[0][0], rows[0][1]
# Name each thread: the main thread, the parent'"'"'s other threads (lanes), the workers (other processes).
names, lanes, workers = {}, 0, {}
for _, pid, tid in rows:
    if tid in names:
        continue
    if tid == root:
        names[tid] = "main"
    elif pid == root:
        lanes += 1
        names[tid] = f"lane{lanes}"
    else:
        workers.setdefault(pid, len(workers) + 1)
        names[tid] = f"worker{workers[pid]}" + ("" if tid == pid else f".{tid}")
cols = list(names)
nb = int((rows[-1][0] - t0) / bucket) + 1
grid = [[0] * len(cols) for _ in range(nb)]
for t, _, tid in rows:
    grid[int((t - t0) / bucket)][cols.index(tid)] += 1
full = hz * bucket
print("%6s " % "ms" + " ".join(f"{names[c]:>8}" for c in cols) + " %6s" % "cores")
for b, g in enumerate(grid):
    print(f"{b * bucket * 1000:>6.0f} " + " ".join(f"{v:>8}" for v in g) + f" {sum(g) / full:>6.2f}")
span = rows[-1][0] - t0
cpu = len(rows) / hz
print(f"# span {span * 1000:.0f} ms, CPU sampled {cpu * 1000:.0f} ms ({cpu / span:.2f} cores on average);"
      f" buckets under 1.5 cores: {sum(1 for g in grid if sum(g) / full < 1.5)} of {nb}")
print("# samples: " + ", ".join(f"{names[c]} {sum(g[i] for g in grid)}" for i, c in enumerate(cols)))
' "$HZ" "$BUCKET"
