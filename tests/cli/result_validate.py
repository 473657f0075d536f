"""result_validate.py SCHEMA FILE...: validate every run result among FILEs against
schemas/run-result.schema.json with python3-jsonschema (Draft 2020-12), an implementation independent of prc.

A FILE that is empty or is not a run result (an error document, another command's output) is skipped;
a FILE that claims to be one (schema "prc.run-result/v1") must validate.  Prints "N validated" and one
line per error; exits 1 when any failed.
"""
import json
import sys

import jsonschema

v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
n = bad = 0
for f in sys.argv[2:]:
    raw = open(f, "rb").read()
    if not raw.strip():
        continue
    try:
        doc = json.loads(raw)
    except ValueError:
        continue
    if not isinstance(doc, dict) or doc.get("schema") != "prc.run-result/v1":
        continue
    n += 1
    for e in v.iter_errors(doc):
        bad += 1
        print(f"{f}: /{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:400]}", file=sys.stderr)
print(f"{n} validated")
sys.exit(1 if bad else 0)
