#!/bin/bash
# scan.sh - issue 19 "Speed": what the analyses add to `prc scan`, side by side with them off.
#
#   bash bench/scan.sh [ROUNDS]     default 5 rounds; prints medians and ratios
#
# Off and on are two profiles of one catalog, so the only difference is the analyses:
#   off = prc/core, exactly as bundled (no issue-19 analysis);
#   on  = bench/analyses: prc/core's assertions plus every assertion of the bundled catalog whose
#         analysis is an issue-19 analysis (the PRC-A-SC-0NN assertions with an `analysis:`;
#         the adapter-bound SC-001/SC-002 stay out: inspect mode never runs them).
# The bench copies catalog/ to a temporary --catalog-root and appends that one profile; the
# bundled catalog is not changed and no switch in prc turns analyses off.  Extraction runs in
# both: `prc scan` tokenizes and extracts every recognized manifest whatever the profile
# (src/engine/scan.c, content_analysis), so both sides pay for reading, the worker, the
# ManifestDocs; "on" adds running the analyses and their evidence.
#
# Part 1: every repository of ../shared/corpora/manifests (one `prc scan --target REPO`
# per repository and profile, release build, --format json to /dev/null); rounds interleave
# off and on for each repository so machine load hits both alike.  Reported: the median over
# rounds of the summed wall time of all repositories, per profile, and their ratio (aim <= 1.10),
# the median of the per-repository on/off ratios, and the CPU time of prc and its worker summed
# over all scans (less sensitive to load from other processes than wall time).
# Part 2: a repository of 200 workflows made from the corpus's workflow files (the first 200 in
# path order, renamed w000.yml ...), scanned with the "on" profile: median wall time (aim < 1 s),
# and the same tree with "off" beside it.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
PRC=${PRC:-build/prc}
CORPORA=${PRC_CORPORA:-../shared/corpora}
[ -d "$CORPORA/manifests" ] || { echo "bench/scan.sh: $CORPORA/manifests is absent" >&2; exit 1; }
[ -x "$PRC" ] || { echo "bench/scan.sh: $PRC is not built (run make)" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-scan-XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir "$W/catalog" "$W/wf200" "$W/wf200/.github" "$W/wf200/.github/workflows"
/usr/bin/python3 - catalog/catalog.yaml "$W/catalog/catalog.yaml" <<'PY'
import sys, yaml
src = open(sys.argv[1]).read()
cat = yaml.safe_load(src)
core = [p for p in cat["profiles"] if p["id"] == "prc/core"][0]["assertions"]
extra = [a["id"] for a in cat["assertions"]
         if a["id"].startswith("PRC-A-SC-") and "analysis" in a and a["id"] not in core]
if not extra:
    sys.exit("bench/scan.sh: the catalog has no issue-19 analysis assertion")
# Append the profile as text: the bundled file stays byte-identical above it.
with open(sys.argv[2], "w") as f:
    f.write(src.rstrip("\n") + "\n  - id: bench/analyses\n    title: prc/core plus the issue-19 analyses (bench only)\n"
            "    assertions:\n" + "".join(f"      - {i}\n" for i in core + extra))
print(f"profile bench/analyses: prc/core ({len(core)}) + {len(extra)} analysis assertions: {' '.join(extra)}")
PY
n=0
while IFS= read -r f; do
        [ "$n" -lt 200 ] || break
        cp "$f" "$W/wf200/.github/workflows/$(printf 'w%03d.yml' "$n")"
        n=$((n + 1))
done < <(find "$CORPORA/manifests" -path '*/.github/workflows/*' \( -name '*.yml' -o -name '*.yaml' \) | sort)
echo "workflow repository: $n workflows ($(cat "$W"/wf200/.github/workflows/* | wc -c) bytes); load: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$PRC" "$W" "$ROUNDS" "$CORPORA/manifests" <<'PY'
import os, resource, statistics, subprocess, sys, time
prc, w, rounds, man = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
repos = sorted(os.path.join(man, e, r) for e in os.listdir(man) if os.path.isdir(os.path.join(man, e))
               for r in os.listdir(os.path.join(man, e)))
prof = {"off": "prc/core", "on": "bench/analyses"}
cpu = {"off": [], "on": []}
def scan(target, p):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([prc, "scan", "--target", target, "--catalog-root", w + "/catalog", "--profile", prof[p],
                        "--format", "json"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode > 1:
        sys.exit(f"bench/scan.sh: prc scan {target} --profile {prof[p]} exited {r.returncode}")
    t = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu[p].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return t
tot = {"off": [], "on": []}
per = {r: {"off": [], "on": []} for r in repos}
for k in range(rounds):
    s = {"off": 0.0, "on": 0.0}
    for r in repos:
        for p in (("off", "on") if k % 2 == 0 else ("on", "off")):
            t = scan(r, p)
            s[p] += t
            per[r][p].append(t)
    for p in s:
        tot[p].append(s[p])
m = {p: statistics.median(v) for p, v in tot.items()}
ratios = [statistics.median(per[r]["on"]) / statistics.median(per[r]["off"]) for r in repos]
print(f"corpus: {len(repos)} repositories x {rounds} rounds")
print(f"  all repositories, median of round totals: off {m['off']:.3f} s  on {m['on']:.3f} s  "
      f"ratio {m['on'] / m['off']:.3f} (aim <= 1.10)")
print(f"  per repository on/off: median {statistics.median(ratios):.3f}  max {max(ratios):.3f}")
print(f"  CPU (prc and its worker) summed over all scans: off {sum(cpu['off']):.2f} s  on {sum(cpu['on']):.2f} s  "
      f"ratio {sum(cpu['on']) / sum(cpu['off']):.3f}")
wf = {"off": [], "on": []}
for k in range(max(rounds, 7)):
    for p in (("off", "on") if k % 2 == 0 else ("on", "off")):
        wf[p].append(scan(w + "/wf200", p))
print(f"200 workflows: on median {statistics.median(wf['on']) * 1000:.0f} ms (max {max(wf['on']) * 1000:.0f} ms, "
      f"aim < 1000 ms); off median {statistics.median(wf['off']) * 1000:.0f} ms; "
      f"ratio {statistics.median(wf['on']) / statistics.median(wf['off']):.3f}")
PY
