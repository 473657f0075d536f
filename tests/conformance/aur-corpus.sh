#!/bin/bash
# aur-corpus.sh - every real package of ../shared/corpora/aur and
# ../shared/corpora/manifests/arch (a directory holding a PKGBUILD) is scanned
# with `prc scan --target DIR --profile prc/aur`, read in place.  A package
# passes when prc ends with status 0 or 1 and writes a run result; a crash,
# a refusal of the run (exit 2, 3, 4) or no result fails it.  Prints, per
# analysis, how many packages were found at risk (Fail), judged clean
# (Pass) or left Unknown, and the corpus-wide finding counts, so a reviewer
# can read them.  Ends with "N passed, N failed".
#
# The peers' test cases (namcap, traur) and the hijacked packages with their
# clean predecessors are kept aside (PROVENANCE.md: held out elsewhere); when
# PRC_AUR_HELDOUT names their directory, the agreement is measured by
# tests/conformance/aur_agreement.py over it.
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
PRC=${PRC:-build/prc}
if [ ! -d "$CORPORA/aur" ] || [ ! -d "$CORPORA/manifests/arch" ]; then
        echo "aur-corpus: the corpora are absent ($CORPORA/aur, $CORPORA/manifests/arch)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
OUT=$(mktemp -d /tmp/prc-aur-corpus-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
find "$CORPORA/aur" "$CORPORA/manifests/arch" -name PKGBUILD -printf '%h\n' | sort >"$OUT/dirs"
# Two at a time (the machine has two cores); each result goes to its own file.
i=0
while read -r d; do
        i=$((i + 1))
        printf '%s\t%s\n' "$i" "$d"
done <"$OUT/dirs" | xargs -P 2 -L 1 sh -c '
        "$0" scan --target "$2" --profile prc/aur --format json >"'"$OUT"'/$1.json" 2>"'"$OUT"'/$1.err"
        echo $? >"'"$OUT"'/$1.rc"' "$PRC"
/usr/bin/python3 - "$OUT" <<'PY'
import collections, json, os, sys
out = sys.argv[1]
dirs = open(os.path.join(out, "dirs")).read().split("\n")[:-1]
states = collections.defaultdict(collections.Counter)
findings = collections.Counter()
passed = failed = 0
for i, d in enumerate(dirs, 1):
    rc = int(open(os.path.join(out, "%d.rc" % i)).read() or "255")
    try:
        r = json.load(open(os.path.join(out, "%d.json" % i)))
    except ValueError:
        r = None
    if rc not in (0, 1) or r is None:
        failed += 1
        err = open(os.path.join(out, "%d.err" % i)).read()[:300]
        print("FAIL %s: exit %d %s" % (d, rc, err))
        continue
    passed += 1
    for a in r["assertions"]:
        states[a["id"]][a["state"]] += 1
        for e in a["evidence"]:
            o = e["observation"]
            if o["outcome"] == "found" and o["kind"] != "manifests":
                findings[o["kind"]] += len(o["locations"])
print("%-16s %-20s %6s %6s %8s %9s" % ("assertion", "analysis", "Fail", "Pass", "Unknown", "findings"))
kinds = {"PRC-A-CORE-004": "manifests", "PRC-A-AUR-001": "aur-checksums", "PRC-A-AUR-002": "aur-source-url",
         "PRC-A-AUR-003": "aur-bin-host", "PRC-A-AUR-004": "aur-remote-exec", "PRC-A-AUR-005": "aur-toplevel-code",
         "PRC-A-AUR-006": "aur-srcinfo-drift", "PRC-A-AUR-007": "aur-obfuscation", "PRC-A-AUR-008": "aur-install-hooks",
         "PRC-A-SC-016": "shell-download-exec", "PRC-A-SC-017": "shell-unpinned-install"}
for a in sorted(states):
    c = states[a]
    print("%-16s %-20s %6d %6d %8d %9d" % (a, kinds.get(a, "?"), c["Fail"], c["Pass"], c["Unknown"],
                                            findings.get(kinds.get(a), 0)))
print("%d packages scanned" % len(dirs))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
rc=$?
if [ -n "${PRC_AUR_HELDOUT:-}" ]; then
        /usr/bin/python3 tests/conformance/aur_agreement.py "$PRC" "$PRC_AUR_HELDOUT" || rc=1
fi
exit $rc
