#!/bin/bash
# analyses-corpus.sh - every repository of ../shared/corpora/manifests (each
# <ecosystem>/<owner>__<repo> directory) is scanned in place with
# `prc scan --target DIR --profile prc/supply-chain --format json`.  A
# repository passes when prc ends with status 0 or 1, writes a run result and
# the result lists no error of an analysis; a crash, a refused run (exit 2, 3,
# 4), no result or an analysis error fails it.
#
# Generic over the registry: the analyses are those `prc explain` would name
# (every observation kind of the run results whose source is a registered
# analysis), so a new analysis appears here without editing this file.  Prints,
# per analysis id, how many repositories it found at risk (found), judged clean
# (not_found), could not judge (unsupported) and left Unknown through a
# coverage gap (gap), with the corpus-wide count of found locations, so a
# reviewer can read them.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
PRC=${PRC:-build/prc}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "analyses-corpus: the corpora are absent ($CORPORA/manifests)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
OUT=$(mktemp -d /tmp/prc-analyses-corpus-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
find "$CORPORA/manifests" -mindepth 2 -maxdepth 2 -type d | sort >"$OUT/dirs"
if [ ! -s "$OUT/dirs" ]; then
        echo "FAIL analyses-corpus: no repository directory under $CORPORA/manifests"
        echo "0 passed, 1 failed"
        exit 1
fi
# Two at a time (the machine has two cores); each result goes to its own file.
i=0
while read -r d; do
        i=$((i + 1))
        printf '%s\t%s\n' "$i" "$d"
done <"$OUT/dirs" | xargs -P 2 -L 1 sh -c '
        "$0" scan --target "$2" --profile prc/supply-chain --format json >"'"$OUT"'/$1.json" 2>"'"$OUT"'/$1.err"
        echo $? >"'"$OUT"'/$1.rc"' "$PRC"
/usr/bin/python3 - "$OUT" "$CORPORA/manifests" <<'PY'
import collections, json, os, re, sys
import yaml
out, root = sys.argv[1], sys.argv[2]
dirs = open(os.path.join(out, "dirs")).read().split("\n")[:-1]
# The registry (src/analysis/registry.c: one `{ "id", "family", ...` entry per analysis) and the
# catalog's binding of each assertion to an analysis id: nothing below names an analysis.
registry = re.findall(r'^\s*\{ "([a-z0-9-]+)", "[a-z_]+",', open("src/analysis/registry.c").read(), re.M)
cat = yaml.safe_load(open("catalog/catalog.yaml"))
bound = {a["id"]: a["analysis"]["id"] for a in cat["assertions"]
         if isinstance(a.get("analysis"), dict) and a["analysis"].get("id") in registry}
profile = next(p for p in cat["profiles"] if p["id"] == "prc/supply-chain")["assertions"]
judged = sorted({bound[a] for a in profile if a in bound})
counts = {k: collections.Counter() for k in judged}
locations = collections.Counter()
passed = failed = 0
for i, d in enumerate(dirs, 1):
    name = os.path.relpath(d, root)
    rc = int(open(os.path.join(out, "%d.rc" % i)).read().strip() or "255")
    try:
        r = json.load(open(os.path.join(out, "%d.json" % i)))
    except ValueError:
        r = None
    if rc not in (0, 1) or r is None:
        failed += 1
        err = open(os.path.join(out, "%d.err" % i)).read()[:300]
        print("FAIL %s: exit %d %s" % (name, rc, err))
        continue
    bad = [e for e in r.get("errors", []) if e.get("assertion") in bound]
    if bad:
        failed += 1
        print("FAIL %s: analysis error %s" % (name, json.dumps(bad)[:300]))
        continue
    passed += 1
    for a in r["assertions"]:
        k = bound.get(a["id"])
        if k is None:
            continue
        obs = [e["observation"] for e in a["evidence"] if e["source"].get("analysis") == k]
        for o in obs:
            counts[k][o["outcome"]] += 1
            if o["outcome"] == "found":
                locations[k] += len(o.get("locations", []))
        # No observation: a needed input was a coverage gap, so the assertion is Unknown.
        if not obs:
            counts[k]["gap"] += 1
print("%-28s %6s %10s %12s %8s %10s" % ("analysis", "found", "not_found", "unsupported", "Unknown", "locations"))
for k in judged:
    c = counts[k]
    print("%-28s %6d %10d %12d %8d %10d" % (k, c["found"], c["not_found"], c["unsupported"], c["gap"], locations[k]))
rest = [k for k in registry if k not in judged]
if rest:
    print("registered but not in prc/supply-chain: %s" % " ".join(rest))
print("%d repositories scanned" % len(dirs))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
