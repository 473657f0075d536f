# bench/inventory-tree.sh - shared by bench/inventory.sh and bench/snapshot.sh
# (sourced, not run).  gen_tree DIR makes a synthetic source tree of at least
# $BENCH_FILES files and $BENCH_MIB MiB: many small files in a few hundred
# directories (like a checkout) plus a few large ones for the volume.
# bench_rounds times commands side by side (medians of $RUNS interleaved rounds).

BENCH_FILES=${BENCH_FILES:-50000}
BENCH_MIB=${BENCH_MIB:-1100}
RUNS=${RUNS:-3}
COLD=${COLD:-0}

gen_tree() {
        /usr/bin/python3 - "$1" "$BENCH_FILES" "$BENCH_MIB" <<'PY'
import os, random, sys
root, nfiles, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(6)
blob = os.urandom(64 << 20)               # sliced, so generation is not the bottleneck
total = 0
for i in range(nfiles):
    d = os.path.join(root, "pkg%03d" % (i % 400), "mod%02d" % (i % 13))
    os.makedirs(d, exist_ok=True)
    n = rng.randint(0, 8192)
    off = rng.randint(0, len(blob) - n)
    with open(os.path.join(d, "f%06d.c" % i), "wb") as f:
        f.write(blob[off:off + n])
    total += n
big = 24 << 20
i = 0
while total < (mib << 20):
    d = os.path.join(root, "assets")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "blob%03d.bin" % i), "wb") as f:
        for k in range(0, big, 8 << 20):
            off = rng.randint(0, len(blob) - (8 << 20))
            f.write(blob[off:off + (8 << 20)])
    total += big
    i += 1
print("%d files, %.2f GiB" % (nfiles + i, total / float(1 << 30)))
PY
}

# Drop the page cache before a run when COLD=1 (needs root; says so if it cannot).
maybe_drop_caches() {
        [ "$COLD" = 1 ] || return 0
        sync
        echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || { echo "cannot drop caches (COLD=1 needs root)" >&2; exit 1; }
}

# bench_rounds PREP_FN NAME=FN...: RUNS rounds; each round runs every FN once
# (PREP_FN untimed before each), interleaved so that drift in the machine or
# the filesystem (a shared host, ext4's allocator after mass deletes) hits
# every command alike.  Sets MEDIAN_<NAME> to the median seconds.
bench_rounds() {
        local prep=$1; shift
        local spec name fn i t0 t1
        declare -gA BENCH_T=()
        for ((i = 0; i < RUNS; i++)); do
                for spec in "$@"; do
                        name=${spec%%=*}; fn=${spec#*=}
                        "$prep"
                        maybe_drop_caches
                        t0=$(date +%s.%N)
                        "$fn" >/dev/null
                        t1=$(date +%s.%N)
                        BENCH_T[$name]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}') "
                done
        done
        for spec in "$@"; do
                name=${spec%%=*}
                printf -v "MEDIAN_$name" '%s' "$(printf '%s\n' ${BENCH_T[$name]} | sort -g |
                        awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}')"
        done
}

noprep() { :; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
