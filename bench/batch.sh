#!/bin/bash
# batch.sh - issue 21: `prc batch` over 2,000 AUR snapshot archives made from the real packages of
# ../shared/corpora/aur, side by side with `prc scan` once per archive.
#
#   bash bench/batch.sh [COUNT]     default 2000; memory is measured at 500, 1000 and COUNT
#
# The 460-odd packages are packed as NAME.tar.gz with a single top-level NAME/ directory, as the
# AUR's cgit snapshots are; to reach COUNT they are packed again with a variation (a comment line
# "# bench variant R" appended to the PKGBUILD), so every archive has its own digest and no result
# can be reused.  Each figure is the median of 3 runs, warm (the archives in the page cache; one
# untimed batch first), each batch into a fresh state dir (nothing resumed):
#   batch: build/prc batch --jobs 2 --profile prc/aur (release build; run `make` first)
#   scan:  build/prc scan --profile prc/aur --format json, once per archive, two at a time
#          (xargs -P 2, the same two cores), on the first 500 archives
# CPU is user+system of every process (prc, its jobs and their sandboxed content workers) from
# wait4(2); peak RSS is the largest single process's.  The batch's state dir is on the disk and,
# for comparison, on tmpfs.  On a loaded machine compare ratios.
set -eu
cd "$(dirname "$0")/.."
COUNT=${1:-2000}
PRC=$(pwd)/${PRC:-build/prc}
CORPORA=${PRC_CORPORA:-../shared/corpora}
[ -d "$CORPORA/aur" ] || { echo "bench/batch.sh: $CORPORA/aur is absent" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-batch-XXXXXX)
trap 'rm -rf "$W"' EXIT
/usr/bin/python3 - "$CORPORA/aur" "$W" "$COUNT" <<'PY'
import io, os, sys, tarfile
src, w, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
dirs = [l.split("\t")[2] for l in open(f"{src}/INDEX.tsv").read().splitlines()[1:]]
os.makedirs(f"{w}/a")
names = []
r = 0
while len(names) < count:
    for d in dirs:
        if len(names) == count:
            break
        pkg = os.path.basename(d)
        name = f"{len(names):05d}-{pkg}.tar.gz"
        with tarfile.open(f"{w}/a/{name}", "w:gz") as t:
            for root, _, files in sorted(os.walk(f"{src}/{d}")):
                for f in sorted(files):
                    p = os.path.join(root, f)
                    rel = os.path.join(pkg, os.path.relpath(p, f"{src}/{d}"))
                    data = open(p, "rb").read()
                    if r > 0 and f == "PKGBUILD":
                        data += f"\n# bench variant {r}\n".encode()
                    ti = tarfile.TarInfo(rel)
                    ti.size, ti.mode, ti.mtime = len(data), 0o644, 0
                    t.addfile(ti, io.BytesIO(data))
        names.append(name)
    r += 1
for n in sorted({500, 1000, count}):
    if n <= count:
        open(f"{w}/list{n}", "w").write("".join(f"a/{x}\n" for x in names[:n]))
print(f"archives: {count} from {len(dirs)} packages ({r} rounds), "
      f"{sum(os.path.getsize(f'{w}/a/{x}') for x in names)} bytes")
PY
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc)"
/usr/bin/python3 - "$PRC" "$W" "$COUNT" <<'PY'
import os, statistics, subprocess, sys, time
prc, w, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
def timed(argv, stdin=None):
    # wait4 gives the CPU and peak RSS of the process and everything it waited for
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        if stdin is not None:
            os.dup2(os.open(stdin, os.O_RDONLY), 0)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status)
n_state = [0]
# State dirs on the disk (under /tmp) and, for comparison, on tmpfs (/dev/shm): ext4's inode
# allocation is a visible part of a batch's cost.  They are removed only at the end, so no run
# allocates inodes among ones just freed by the previous one.
bases = [("disk", w)] + ([("tmpfs", "/dev/shm")] if os.path.isdir("/dev/shm") else [])
made = []
def batch(n, base):
    n_state[0] += 1
    sd = f"{base}/prc-bench-state-{os.getpid()}-{n_state[0]}"
    made.append(sd)
    r = timed([prc, "batch", "--targets", f"{w}/list{n}", "--state-dir", sd, "--profile", "prc/aur",
               "--jobs", "2"])
    if r[3] > 1:
        sys.exit(f"batch exited {r[3]}")
    return r
try:
    batch(count, w)                                 # warm-up, untimed
    rows = []
    for where, base in bases:
        for n in sorted(x for x in {500, 1000, count} if x <= count):
            rs = [batch(n, base) for _ in range(3)]
            wall = statistics.median(r[0] for r in rs)
            cpu = statistics.median(r[1] for r in rs)
            rss = max(r[2] for r in rs)
            rows.append((n, wall, cpu, rss))
            print(f"batch  {n:5d} archives, state on {where:5s}: {n / wall:6.0f} pkg/s  wall {wall:6.2f} s  "
                  f"CPU/pkg {cpu / n * 1000:5.2f} ms  peak RSS {rss / 1024:5.1f} MiB")
finally:
    subprocess.run(["rm", "-rf"] + made)
# prc scan once per archive, two at a time, on the first 500
scan_n = min(500, count)
sl = f"{w}/list{scan_n}"
xs = [timed(["/usr/bin/xargs", "-P", "2", "-I{}", prc, "scan", "--target", w + "/{}", "--profile", "prc/aur",
             "--format", "json"], stdin=sl) for _ in range(3)]
wall = statistics.median(x[0] for x in xs)
cpu = statistics.median(x[1] for x in xs)
print(f"scan   {scan_n:5d} archives: {scan_n / wall:7.0f} pkg/s  wall {wall:6.2f} s  CPU/pkg {cpu / scan_n * 1000:6.2f} ms"
      f"  (one prc scan per archive, xargs -P 2)")
n, bw, bc, _ = [r for r in rows if r[0] == count][0]      # the disk figure
print(f"batch/scan: {(n / bw) / (scan_n / wall):.1f}x the rate, {(cpu / scan_n) / (bc / n):.1f}x less CPU per package")
PY
