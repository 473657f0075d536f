#!/usr/bin/python3
"""aur_agreement.py PRC HELDOUT - agreement with the held-out sets of issue 20.

HELDOUT/peer-cases.tsv: case directory (relative to HELDOUT), the prc analysis
it exercises (aur-checksums, ...), the peer's verdict (risky or clean), the
peer (namcap, traur).  HELDOUT/hijacked.tsv: directory of a hijacked version,
directory of its clean predecessor.  Each directory is scanned with
--profile prc/aur; "risky" agrees with Fail of the analysis's assertion,
"clean" with Pass.  Prints the agreement per analysis (aim: 90%) and the share
of hijacked packages with at least one failing AUR assertion (aim: 90%).
Exit 1 below either aim.
"""
import collections, json, os, subprocess, sys

ASSERTION = {"aur-checksums": "PRC-A-AUR-001", "aur-source-url": "PRC-A-AUR-002", "aur-bin-host": "PRC-A-AUR-003",
             "aur-remote-exec": "PRC-A-AUR-004", "aur-toplevel-code": "PRC-A-AUR-005",
             "aur-srcinfo-drift": "PRC-A-AUR-006", "aur-obfuscation": "PRC-A-AUR-007"}


def states(prc, d):
    p = subprocess.run([prc, "scan", "--target", d, "--profile", "prc/aur", "--format", "json"],
                       capture_output=True, text=True)
    return {a["id"]: a["state"] for a in json.loads(p.stdout)["assertions"]}


def rows(path):
    if not os.path.exists(path):
        return []
    return [l.rstrip("\n").split("\t") for l in open(path) if l.strip() and not l.startswith("#")]


def main():
    prc, held = sys.argv[1], sys.argv[2]
    ok = True
    agree = collections.Counter()
    total = collections.Counter()
    for case, analysis, verdict, *_ in rows(os.path.join(held, "peer-cases.tsv")):
        st = states(prc, os.path.join(held, case)).get(ASSERTION.get(analysis, ""), "?")
        total[analysis] += 1
        if (verdict == "risky" and st == "Fail") or (verdict == "clean" and st == "Pass"):
            agree[analysis] += 1
        else:
            print("disagree %s %s: peer %s, prc %s" % (analysis, case, verdict, st))
    for a in sorted(total):
        share = 100 * agree[a] // total[a]
        print("agreement %-20s %d/%d (%d%%)" % (a, agree[a], total[a], share))
        ok &= share >= 90
    hij = rows(os.path.join(held, "hijacked.tsv"))
    flagged = 0
    for bad, *_ in hij:
        st = states(prc, os.path.join(held, bad))
        flagged += any(v == "Fail" for k, v in st.items() if k.startswith("PRC-A-AUR-"))
    if hij:
        print("hijacked flagged %d/%d" % (flagged, len(hij)))
        ok &= flagged * 10 >= len(hij) * 9
    if not total and not hij:
        print("aur-agreement: no peer-cases.tsv or hijacked.tsv in %s" % held)
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
