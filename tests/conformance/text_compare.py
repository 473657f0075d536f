# text_compare.py - comparator for prc's toml-test and JSONC conformance runners.
#
#   /usr/bin/python3 text_compare.py toml DIR LIST EXPECT < helper-output
#   /usr/bin/python3 text_compare.py jsonc DIR TSV EXPECT < helper-output
#   /usr/bin/python3 text_compare.py jts DIR DIR/test_parsing EXPECT < helper-output
#
# Reads the lines of tests/helpers/text_parse ("FILE\tok\tJSON" or
# "FILE\terr\tCLASS\tLINE:COL\tMSG") and checks each verdict against the
# suite, in place.  EXPECT lists deliberate deviations ("path<TAB>reason");
# a listed case that passes is reported too, so the list stays honest.
# Prints one line per failure and ends with "N passed, N failed".
import json
import math
import re
import sys


def fnum(s):
    s = s.replace("_", "")
    if s.lstrip("+-") == "nan":
        return "nan"
    return float(s)


def ndt(s):
    s = s.upper()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    if len(s) > 10 and s[10] in " T":
        s = s[:10] + "T" + s[11:]
    m = re.match(r"^(.*?\d\d:\d\d:\d\d)(\.\d+)?(.*)$", s)
    if not m:
        return s
    frac = (m.group(2) or ".")[1:]
    frac = (frac + "000")[:3]
    return m.group(1) + "." + frac + m.group(3)


def leaf_eq(got, want):
    if not isinstance(got, dict) or set(got) != {"type", "value"} or got["type"] != want["type"]:
        return False
    t, g, w = want["type"], got["value"], want["value"]
    if t == "integer":
        return int(g) == int(w)
    if t == "float":
        return fnum(g) == fnum(w)
    if t.startswith("date") or t.startswith("time"):
        return ndt(g) == ndt(w)
    return g == w


def tagged_eq(got, want):
    if isinstance(want, dict) and set(want) == {"type", "value"} and isinstance(want.get("value"), str):
        return leaf_eq(got, want)
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(tagged_eq(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(tagged_eq(a, b) for a, b in zip(got, want))
    return got == want


def load_expect(path):
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                p, _, reason = line.partition("\t")
                out[p] = reason
    except FileNotFoundError:
        pass
    return out


def main():
    mode, root, listing, expect_path = sys.argv[1:5]
    results = {}
    for line in sys.stdin:
        parts = line.rstrip("\n").split("\t")
        results[parts[0]] = parts[1:]
    expect = load_expect(expect_path)
    cases = []
    if mode == "toml":
        with open(listing, encoding="utf-8") as f:
            for rel in f:
                rel = rel.strip()
                if rel.endswith(".toml"):
                    cases.append((rel, "accept" if rel.startswith("valid/") else "reject"))
    elif mode == "jts":
        # JSONTestSuite: y_ accept, n_ reject, i_ either (it must only terminate cleanly).
        import os
        for name in sorted(os.listdir(listing)):
            verdict = {"y": "accept", "n": "reject", "i": "either"}.get(name[:1])
            if verdict and name.endswith(".json"):
                cases.append(("test_parsing/" + name, verdict))
    else:
        with open(listing, encoding="utf-8") as f:
            next(f)
            for row in f:
                cols = row.rstrip("\n").split("\t")
                cases.append((cols[0], cols[3]))
    passed = failed = 0
    counts = {}
    for rel, verdict in cases:
        path = root + "/" + rel
        r = results.get(path)
        ok = False
        why = "no result"
        if r is not None and verdict == "accept":
            if r[0] != "ok":
                why = "refused: " + " ".join(r[1:])
            elif mode == "toml":
                with open(path[:-5] + ".json", encoding="utf-8") as f:
                    want = json.load(f)
                ok = tagged_eq(json.loads(r[1]), want)
                why = "document differs: " + r[1][:300]
            else:
                ok = True
        elif r is not None and verdict == "either":
            ok = r[0] in ("ok", "err")
        elif r is not None:
            ok = r[0] == "err"
            why = "accepted an invalid case"
        if rel in expect:
            if ok:
                print(f"FAIL {rel}: listed as a deviation ({expect[rel]}) but it now passes; remove it")
                failed += 1
            else:
                passed += 1
            continue
        kind = rel.split("/")[0] if mode == "toml" else verdict
        kind = ("JSONTestSuite " if mode == "jts" else "") + kind
        c = counts.setdefault(kind, [0, 0])
        if ok:
            passed += 1
            c[0] += 1
        else:
            failed += 1
            c[1] += 1
            print(f"FAIL {rel}: {why}")
    for kind in sorted(counts):
        print(f"{mode} {kind}: {counts[kind][0]} passed, {counts[kind][1]} failed")
    print(f"deviations listed in {expect_path.split('/')[-1]}: {len(expect)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
