"""sarif_validate.py SCHEMA FILE...: validate SARIF logs against the official SARIF 2.1.0 schema
(draft-04, from the npm package scripts/setup.sh pins) with python3-jsonschema, formats checked."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
bad = 0
for f in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(f))):
        print(f"{f}: {'/'.join(str(p) for p in e.absolute_path)}: {e.message[:300]}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
