#!/bin/bash
# adapter_decode.sh - time `prc adapter validate-output` on a generated
# transcript of 100,000 valid observations (issue 3: "well under a second").
#
#   bash bench/adapter_decode.sh [RUNS]      default 5 runs; prints each and the median
#
# Uses the release build (build/prc; run `make` first).  The manifest is the
# fixture manifest with messages and stdout_bytes raised to fit the transcript.
# Side by side: bench/adapter_decode_floor.c, jansson parsing the same lines
# and nothing else, so the ratio shows what the protocol checks cost.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
N=100000
PRC=${PRC:-build/prc}
W=$(mktemp -d /tmp/prc-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
/usr/bin/python3 - "$W" "$N" <<'PY'
import json, sys, yaml
w, n = sys.argv[1], int(sys.argv[2])
m = yaml.safe_load(open("fixtures/adapters/fixture-adapter.yaml"))
m["limits"]["messages"] = n + 10
m["limits"]["stdout_bytes"] = 256 << 20
json.dump(m, open(w + "/m.json", "w"))
kinds = ["fixture.secret", "fixture.license", "fixture.sbom"]
with open(w + "/t.jsonl", "w") as f:
    f.write('{"type":"artifact","id":"report","path":"reports/r.json","media_type":"application/json","size":1,"sha256":"%s"}\n' % ("ab" * 32))
    for i in range(n):
        k = kinds[i % 3]
        if k == "fixture.sbom":
            o = {"type": "observation", "id": "obs-%d" % i, "kind": k, "outcome": "value", "value": {"components": i, "name": "pkg-%d" % i}}
        else:
            o = {"type": "observation", "id": "obs-%d" % i, "kind": k, "outcome": "found" if i % 2 else "not_found",
                 "locations": [{"path": "src/dir%d/file%d.c" % (i % 97, i), "start_line": i % 500 + 1, "end_line": i % 500 + 3,
                                "start_column": 1, "end_column": 40}], "artifact": "report", "message": "finding %d" % i}
        f.write(json.dumps(o, separators=(",", ":")) + "\n")
    f.write('{"type":"summary","status":"completed","counters":{"logs":0,"observations":%d,"artifacts":1}}\n' % n)
PY
bytes=$(stat -c %s "$W/t.jsonl")
echo "transcript: $N observations, $bytes bytes"
"$PRC" adapter validate-output --manifest "$W/m.json" --file "$W/t.jsonl" >/dev/null || { echo "transcript was not accepted"; exit 1; }
cc -O2 -o "$W/floor" bench/adapter_decode_floor.c $(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
# Wall time and CPU time (user+sys) per run: on a shared, loaded machine the
# wall time includes waiting for a CPU, so both are reported.
walls=(); cpus=(); fcpus=()
for r in $(seq "$RUNS"); do
        /usr/bin/time -f '%U %S' -o "$W/fcpu" "$W/floor" "$W/t.jsonl" >/dev/null
        fcpu=$(awk '{printf "%d", ($1 + $2) * 1000}' "$W/fcpu")
        fcpus+=("$fcpu")
        s=$(date +%s%N)
        /usr/bin/time -f '%U %S' -o "$W/cpu" "$PRC" adapter validate-output --manifest "$W/m.json" --file "$W/t.jsonl" >/dev/null
        e=$(date +%s%N)
        wall=$(( (e - s) / 1000000 ))
        cpu=$(awk '{printf "%d", ($1 + $2) * 1000}' "$W/cpu")
        walls+=("$wall"); cpus+=("$cpu")
        echo "run $r: prc wall ${wall} ms, cpu ${cpu} ms; jansson-only cpu ${fcpu} ms"
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mw=$(med "${walls[@]}"); mc=$(med "${cpus[@]}"); mf=$(med "${fcpus[@]}")
echo "median of $RUNS: prc wall ${mw} ms, cpu ${mc} ms; jansson-only cpu ${mf} ms; $N observations (load average: $(cut -d' ' -f1 /proc/loadavg))"
echo "ratios: prc cpu / 1000 ms budget $(awk -v a="$mc" 'BEGIN{printf "%.2f", a/1000}'), prc wall / budget $(awk -v a="$mw" 'BEGIN{printf "%.2f", a/1000}'), prc cpu / jansson-only cpu $(awk -v a="$mc" -v b="$mf" 'BEGIN{printf "%.2f", a/(b>0?b:1)}')"
