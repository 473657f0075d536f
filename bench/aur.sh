#!/bin/bash
# aur.sh - issue 20: `prc scan` of AUR snapshot archives made from the real packages of the corpora
# (../shared/corpora/aur and the PKGBUILD directories of ../shared/corpora/manifests/arch), one
# process per package, sandboxed content worker included, side by side with the same package
# scanned as a directory.
#
#   bash bench/aur.sh [ROUNDS]      default 3 rounds over every package; prints medians and p90
#
# Each package directory is copied and packed as NAME.tar.gz with a single top-level NAME/
# directory, as the AUR's cgit snapshots are.  Every scan is a fresh `build/prc scan --target`
# (release build; run `make` first) with --format json to /dev/null: process start, inventory
# (walk or worker listing), member reads, parses in the worker, analyses, result.  Rounds
# interleave archive and directory scans of each package so machine load hits both alike.
# The issue's reference is a regex-only AUR scorer at about 0.5 ms per package (in process, no
# sandbox); its aims are < 20 ms for a single scan and within 2x of that figure in batch use.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
PRC=${PRC:-build/prc}
CORPORA=${PRC_CORPORA:-../shared/corpora}
[ -d "$CORPORA/aur" ] || { echo "bench/aur.sh: $CORPORA/aur is absent" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-aur-XXXXXX)
trap 'chmod -R u+w "$W"; rm -rf "$W"' EXIT
n=0
while IFS= read -r d; do
        n=$((n + 1))
        name=$(printf '%04d-%s' "$n" "$(basename "$d")")
        cp -r "$d" "$W/$name" && chmod -R u+w "$W/$name"
        tar -C "$W" -czf "$W/$name.tar.gz" "$name"
        echo "$name" >>"$W/list"
done < <( (cut -f3 "$CORPORA/aur/INDEX.tsv" | tail -n +2 | sed "s|^|$CORPORA/aur/|";
           find "$CORPORA/manifests/arch" -name PKGBUILD -printf '%h\n' | sort) )
echo "packages: $n (snapshot archives $(cat "$W"/*.tar.gz | wc -c) bytes in all); load: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$PRC" "$W" "$ROUNDS" <<'PY'
import os, statistics, subprocess, sys, time
prc, w, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = open(w + "/list").read().split()
t = {"archive": [], "directory": []}
bad = 0
for r in range(rounds):
    for name in names:
        for kind, target in (("archive", f"{w}/{name}.tar.gz"), ("directory", f"{w}/{name}")):
            t0 = time.perf_counter()
            p = subprocess.run([prc, "scan", "--target", target, "--format", "json"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            t[kind].append((time.perf_counter() - t0) * 1000)
            bad += p.returncode > 1
def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))]
for kind, v in t.items():
    print(f"{kind:9s} scans: {len(v)}  median {statistics.median(v):.1f} ms  p90 {q(v, .9):.1f} ms  "
          f"mean {statistics.fmean(v):.1f} ms  min {min(v):.1f} ms")
print(f"archive/directory median ratio {statistics.median(t['archive']) / statistics.median(t['directory']):.2f}; "
      f"scans that exited above 1: {bad}")
PY
