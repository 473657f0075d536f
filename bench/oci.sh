#!/bin/bash
# oci.sh - overhead of `prc adapter run-oci` over a bare `docker run` of the
# same image and command, on a 10,000-file target (issue 8: aim under 1.3x)
# and on a 2-file target (the runner's fixed overhead).
#
#   bash bench/oci.sh [RUNS]      default 5 runs per side, alternating; prints each and the medians
#   PRC_BASE=/path/to/prc bash bench/oci.sh 5
#                                 adds a third side: another prc build (e.g. main's) on the same runs
#   PHASES=1 bash bench/oci.sh 5  then also the median time of each run-oci phase (build/test/prc,
#                                 PRC_OCI_TRACE=1) on both targets
#   FLOOR=0 bash bench/oci.sh 5   leaves out the floor side (below): the output as before it, plus
#                                 the load average before the runs
#
# The floor side (on by default) runs bench/oci_floor.c on the same target in
# the same rounds, as the same user, into the same snapshot parent: the least
# file work any run-oci satisfying issue 8 must do (walk, inventory, copy with
# re-hash, verify twice, removal; no checks).  It prints the 1.3x budget
# (0.3 x the bare run's median: all the wall time run-oci may add) and
# floor / budget.  Every side's CPU (user+sys of the command and the children
# it waits for: prc, the floor or the docker client, never the engine's
# daemons) is recorded too, and so is the host's busy CPU time during each
# run (/proc/stat, every process, the engine included; other work on the
# machine counts too, so read it at low load).
#
# run-oci does everything the bare run does not: inventory and snapshot
# copy with re-hashing of all 10,000 files, runtime identity and limit
# probe, image check, the pre- and post-run snapshot verification, strict
# decoding, the record and the snapshot's removal.  The bare side binds the
# target read-only at /prc-snapshot with the same working directory, so the
# good adapter does the same work.  Needs the OCI environment
# (scripts/oci-env.sh); as root, every side runs as $PRC_TEST_USER.
#
# The snapshot goes where the runner puts it (a private tmpfs when there is
# one, docs/oci-runner.md); PRC_OCI_TMPDIR=/tmp measures it on ext4.  For
# the phase by phase split use build/test/prc with PRC_OCI_TRACE=1.
set -eu
cd "$(dirname "$0")/.."
export PRC_ROOT=$(pwd)
RUNS=${1:-5}
PRC=${PRC:-$PRC_ROOT/build/prc}
# shellcheck disable=SC1091
source tests/cli/oci_lib.sh
sh scripts/oci-env.sh --check
oci_prepare_user
IMG=$(oci_image good)
W=$(mktemp -d /tmp/prc-bench-oci-XXXXXX)
trap 'chmod -R u+rwX "$W"; rm -rf "$W"' EXIT
chmod 755 "$W"
mkdir -p "$W/t"
for d in $(seq 0 99); do
        mkdir -p "$W/t/d$d"
        for f in $(seq 0 99); do printf 'file %d %d\n' "$d" "$f" >"$W/t/d$d/f$f.txt"; done
done
chmod -R a+rX "$W/t"
oci_manifest "$W/m.yaml" "$IMG"
printf '%s\n' '{"protocol":"prc-adapter-jsonl-v1","run_id":"'"$(printf 'a%.0s' {1..64})"'","type":"hello"}' \
        '{"config":{},"facts":{},"subject":{"inventory_digest":"'"$(printf 'b%.0s' {1..64})"'","target_name":"t"},"type":"input"}' \
        '{"type":"execute"}' >"$W/req"
chmod 644 "$W/req"

FLOOR=${FLOOR:-1}
if [ "$FLOOR" = 1 ]; then
        mkdir -p build/bench
        gcc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -include src/base/banned.h \
                -o build/bench/oci_floor bench/oci_floor.c build/libprc.a $(pkg-config --libs libcrypto) -lpthread
fi

now() { date +%s%N; }
# Busy jiffies of the whole host (user nice system irq softirq steal), from /proc/stat.
host_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
HZ=$(getconf CLK_TCK)
# timed NAME CMD...: run CMD (a function too), append its user+sys seconds to $W/cpu.NAME (bash's
# `time`: the children it waited for, and theirs) and the host's busy ms to $W/host.NAME.
timed() {
        local name=$1 h0 rc=0 TIMEFORMAT='%U %S'; shift
        h0=$(host_busy)
        { time "$@" 2>&4 || rc=$?; } 4>&2 2>>"$W/cpu.$name"
        echo $(( ($(host_busy) - h0) * 1000 / HZ )) >>"$W/host.$name"
        return $rc
}
mkdir -p "$W/small"; printf 'a\n' >"$W/small/a"; printf 'b\n' >"$W/small/b"; chmod -R a+rX "$W/small"
T=$W/t
prc_side() {
        timed prc as_user "$PRC" adapter run-oci --manifest "$W/m.yaml" --target "$T" --runtime docker >/dev/null
}
base_side() {
        timed base as_user "$PRC_BASE" adapter run-oci --manifest "$W/m.yaml" --target "$T" --runtime docker >/dev/null
}
bare_side() {
        timed bare as_user docker run --rm -i --pull=never --network=none \
                --mount "type=bind,source=$T,target=/prc-snapshot,readonly" --workdir=/prc-snapshot \
                --entrypoint= "$IMG" /adapter <"$W/req" >/dev/null 2>&1
}
# The snapshot parent is left to the floor, as to run-oci: $PRC_OCI_TMPDIR (as_user passes it),
# else $XDG_RUNTIME_DIR (as_user clears it), else /dev/shm.  Its phase lines are appended to $W/floor.out.
floor_side() {
        timed floor as_user "$PRC_ROOT/build/bench/oci_floor" "$T" >>"$W/floor.out"
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
# cpu_ms NAME: median user+sys ms of side NAME's runs; host_ms NAME: median host busy ms.
cpu_ms() { median $(awk '{ printf "%d\n", ($1 + $2) * 1000 + 0.5 }' "$W/cpu.$1"); }
host_ms() { median $(cat "$W/host.$1"); }
measure() {
        local label=$1 t0 t1 t2 t3 t4 floor_msg
        prc_side; bare_side     # warm caches (page cache, image layers)
        [ -z "${PRC_BASE:-}" ] || base_side
        [ "$FLOOR" != 1 ] || floor_side
        rm -f "$W"/cpu.* "$W"/host.* "$W/floor.out"     # the warm-up runs do not count
        P=(); B=(); O=(); F=()
        for i in $(seq 1 "$RUNS"); do
                t0=$(now); prc_side; t1=$(now); bare_side; t2=$(now)
                P+=($(( (t1 - t0) / 1000000 ))); B+=($(( (t2 - t1) / 1000000 )))
                floor_msg=
                if [ "$FLOOR" = 1 ]; then
                        t3=$(now); floor_side; t4=$(now); F+=($(( (t4 - t3) / 1000000 )))
                        floor_msg=", floor ${F[-1]} ms"
                fi
                if [ -n "${PRC_BASE:-}" ]; then
                        t2=$(now); base_side; t3=$(now); O+=($(( (t3 - t2) / 1000000 )))
                        echo "$label run $i: run-oci ${P[-1]} ms, bare docker run ${B[-1]} ms, base run-oci ${O[-1]} ms$floor_msg"
                else
                        echo "$label run $i: run-oci ${P[-1]} ms, bare docker run ${B[-1]} ms$floor_msg"
                fi
        done
        mp=$(median "${P[@]}"); mb=$(median "${B[@]}")
        echo "median ($label): run-oci $mp ms, bare docker run $mb ms, ratio $(ratio "$mp" "$mb")x"
        if [ -n "${PRC_BASE:-}" ]; then
                mo=$(median "${O[@]}")
                echo "median ($label): base run-oci $mo ms, ratio $(ratio "$mo" "$mb")x; run-oci is $(ratio "$mo" "$mp")x faster than base"
        fi
        [ "$FLOOR" = 1 ] || return 0
        floor_report "$label" "$mp" "$mb" "$(median "${F[@]}")"
}
# floor_report LABEL RUNOCI BARE FLOOR (median ms): CPU per side, the floor's phases, the budget.
floor_report() {
        local label=$1 mp=$2 mb=$3 mf=$4 fin budget
        echo "cpu ($label), median ms: user+sys of the command and its children / host busy during the run:" \
                "run-oci $(cpu_ms prc) / $(host_ms prc), bare docker run $(cpu_ms bare) / $(host_ms bare)," \
                "floor $(cpu_ms floor) / $(host_ms floor)${PRC_BASE:+, base run-oci $(cpu_ms base) / $(host_ms base)}"
        echo "floor phases ($label), median of $RUNS runs, ms: wall / CPU"
        awk '$1 == "phase" { print $2, $3, $4 } $1 == "total" { print "total(in-process)", $2, $3 }' \
                "$W/floor.out" | awk '{ w[$1] = w[$1] " " $2; c[$1] = c[$1] " " $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
                END { for (i = 1; i <= n; i++) print order[i] "|" w[order[i]] "|" c[order[i]] }' |
                while IFS='|' read -r name ws cs; do
                        printf '  %-20s %8s %8s\n' "$name" "$(median $ws)" "$(median $cs)"
                done
        # The in-process total leaves out runuser and exec, which every side pays alike: the lower figure.
        fin=$(median $(awk '$1 == "total" { print $2 }' "$W/floor.out"))
        budget=$(awk -v b="$mb" 'BEGIN { printf "%.0f", 0.3 * b }')
        echo "median ($label): bare docker run $mb ms, run-oci $mp ms, floor $fin ms in-process ($mf ms as run, runuser included)"
        echo "budget ($label): 1.3x bare = $(awk -v b="$mb" 'BEGIN { printf "%.0f", 1.3 * b }') ms, so run-oci may add" \
                "$budget ms (0.3 x bare); it adds $((mp - mb)) ms ($(ratio $((mp - mb)) "$budget")x the budget);" \
                "floor / budget = $(ratio "$fin" "$budget") (in-process), $(ratio "$mf" "$budget") (as run)"
}
# phases LABEL: for each PRC_OCI_TRACE mark (test build) its median time since the start over
# RUNS runs, in that order, and the difference to the mark before it.  Keyed by the mark's name:
# the probe thread's marks interleave with the copy's in a different order from run to run.
phases() {
        local label=$1 i
        : >"$W/phases"
        for i in $(seq 1 "$RUNS"); do
                as_user env PRC_OCI_TRACE=1 "$PRC_ROOT/build/test/prc" adapter run-oci --manifest "$W/m.yaml" \
                        --target "$T" --runtime docker 2>&1 >/dev/null |
                        awk '$1 == "prc-oci-trace" { print $3, $2 }' >>"$W/phases"
        done
        echo "phases ($label), median of $RUNS runs: ms since start, ms since the mark above"
        awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) print k, v[k] }' "$W/phases" |
                while read -r name vals; do echo "$name $(median $vals)"; done | sort -k2,2n |
                awk '{ printf "  %-28s %8.1f %8.1f\n", $1, $2, $2 - prev; prev = $2 }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
T=$W/t; measure "10,000 files"
T=$W/small; measure "2 files"
if [ -n "${PHASES:-}" ]; then
        T=$W/t; phases "10,000 files"
        T=$W/small; phases "2 files"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
