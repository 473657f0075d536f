#!/bin/bash
# sbom_heap.sh - issue 18 "Speed", the memory side: what `prc sbom`'s parent process (all its threads,
# not its content workers) holds on the heap at its peak over ../shared/corpora/manifests, by owner,
# from valgrind's DHAT ("bytes at the global maximum" of every allocation site, grouped by the first
# frames in prc's own sources).  On this paravirtualized VM a page first touched costs about 1.4 ms a
# MiB (docs/extraction/peers.md, "Page faults and huge pages"): memory held at the peak is memory
# zeroed, so this is a CPU measure too.  Deterministic: no timing, load does not change it.
#
#   bash bench/sbom_heap.sh [TREE] [ROWS]      default: ../shared/corpora/manifests, 16 rows
#
# As bench/sbom_callgrind.sh: under valgrind /proc/self/exe is valgrind's own tool, so a copy of the
# tree (release flags, in a temporary directory) takes its worker binary from PRC_PROF_WORKER, and the
# profiled SBOM must be build/prc's, byte for byte.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-../shared/corpora}
TREE=${1:-$CORPORA/manifests}
ROWS=${2:-16}
command -v valgrind >/dev/null || { echo "bench/sbom_heap.sh: valgrind is not installed" >&2; exit 1; }
[ -x build/prc ] || { echo "bench/sbom_heap.sh: build/prc is not built (run make)" >&2; exit 1; }
[ -d "$TREE" ] || { echo "bench/sbom_heap.sh: $TREE is absent" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-sbomheap-XXXXXX)
trap 'rm -rf "$W"' EXIT
. bench/prof_copy.sh
prof_copy bench/sbom_heap.sh "$W"
echo "# bash bench/sbom_heap.sh   ($(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
# The user's own tunable is never overridden, so the command does not re-execute itself under valgrind.
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 PRC_PROF_WORKER=$P valgrind --tool=dhat --dhat-out-file="$W/dhat.json" "$P" \
        sbom --target "$TREE" --output "$W/a.json" >/dev/null 2>"$W/vg.log" || [ $? -le 1 ]
build/prc sbom --target "$TREE" --output "$W/b.json" >/dev/null 2>&1 || [ $? -le 1 ]
cmp -s "$W/a.json" "$W/b.json" || { echo "bench/sbom_heap.sh: the profiled SBOM differs from build/prc's" >&2; exit 1; }
python3 - "$W/dhat.json" "$ROWS" <<'EOF'
import collections, json, re, sys

d = json.load(open(sys.argv[1]))
frames = d["ftbl"]
ours = re.compile(r"\b([a-z_0-9]+)\.c:(\d+)")
peak = collections.Counter()
allocated = collections.Counter()
for pp in d["pps"]:
    # The first three frames in prc's own sources past its allocation wrappers, innermost first.
    names = []
    for i in pp["fs"]:
        f = frames[i]
        m = ours.search(f)
        if m is None or "vg_replace" in f or m.group(1) in ("buf", "json_strict", "alloc"):
            continue    # a library's frame, valgrind's malloc, or prc's allocation wrappers
        fn = re.sub(r"^0x[0-9A-Fa-f]+: ", "", f).split(" (")[0]
        names.append("%s %s.c:%s" % (fn, m.group(1), m.group(2)))
        if len(names) == 3:
            break
    key = " <- ".join(names) or "(outside prc's sources)"
    peak[key] += pp.get("gb", 0)
    allocated[key] += pp.get("tb", 0)
total = sum(peak.values())
print("heap at the parent's peak: %.1f MiB (all allocations: %.1f MiB)" % (total / 2**20,
      sum(allocated.values()) / 2**20))
print("%9s %6s %11s  %s" % ("at peak", "share", "allocated", "site (innermost of prc's frames first)"))
for key, b in peak.most_common(int(sys.argv[2])):
    print("%7.2f M %5.1f%% %9.1f M  %s" % (b / 2**20, 100 * b / total, allocated[key] / 2**20, key[:150]))
EOF
