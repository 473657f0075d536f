# toml_tomllib.py - differential check of prc's TOML reader against Python 3.11's
# tomllib (the reader the seed system used), over files given on the command line.
#
#   /usr/bin/python3 toml_tomllib.py HELPER EXPECT FILE...
#
# Both must accept with equal documents (compared in toml-test's tagged form:
# numbers by value, date-times normalised) or both must refuse.  EXPECT lists
# deliberate differences ("path-suffix<TAB>reason"); a listed file that agrees
# is reported so the list stays honest.  Ends with "N passed, N failed".
import datetime
import json
import math
import os
import subprocess
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from text_compare import load_expect, tagged_eq  # noqa: E402


def tag(v):
    if isinstance(v, dict):
        return {k: tag(x) for k, x in v.items()}
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, bool):
        return {"type": "bool", "value": "true" if v else "false"}
    if isinstance(v, int):
        return {"type": "integer", "value": str(v)}
    if isinstance(v, float):
        s = "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
        return {"type": "float", "value": s}
    if isinstance(v, datetime.datetime):
        t = "datetime" if v.tzinfo is not None else "datetime-local"
        return {"type": t, "value": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"type": "date-local", "value": v.isoformat()}
    if isinstance(v, datetime.time):
        return {"type": "time-local", "value": v.isoformat()}
    return {"type": "string", "value": v}


def main():
    helper, expect_path, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = subprocess.run([helper, "toml-tagged"] + files, capture_output=True, text=True, check=True).stdout
    mine = {}
    for line in out.splitlines():
        p = line.split("\t")
        mine[p[0]] = ("ok", json.loads(p[2])) if p[1] == "ok" else ("err", p[2])
    expect = load_expect(expect_path)
    passed = failed = 0
    for f in files:
        try:
            with open(f, "rb") as fh:
                ref = ("ok", tag(tomllib.load(fh)))
        except Exception as e:  # noqa: BLE001 - RecursionError and decode errors are refusals too
            ref = ("err", type(e).__name__)
        got = mine[f]
        same = ref[0] == got[0] and (ref[0] == "err" or tagged_eq(got[1], ref[1]))
        dev = next((r for k, r in expect.items() if f.endswith(k)), None)
        if dev is not None:
            if same:
                failed += 1
                print(f"FAIL {f}: listed as a difference ({dev}) but prc and tomllib agree; remove it")
            else:
                passed += 1
            continue
        if same:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {f}: tomllib {ref[0]} {str(ref[1])[:150]}, prc {got[0]} {str(got[1])[:150]}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(main())
