# adapter_lib.sh - helpers shared by test_adapter.sh and test_adapter_schemas.sh.
# suite_copy DIR: a private copy of fixtures/adapters that tests may tamper
# with.  While a file's spelling matters (YAML loader not merged yet) the copy
# may be in JSON: same canonical digests, same transcript bytes.
FIX=fixtures/adapters
PY=/usr/bin/python3

# yaml_to_json IN OUT
yaml_to_json() { $PY -c 'import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1])),open(sys.argv[2],"w"),indent=1)' "$1" "$2"; }

suite_copy() {
        mkdir -p "$1"
        cp -r "$FIX/transcripts" "$1/"
        yaml_to_json "$FIX/fixture-adapter.yaml" "$1/fixture-adapter.yaml"
        yaml_to_json "$FIX/fixture-suite.yaml" "$1/fixture-suite.json"
}

# edit_json FILE PYTHON-EXPR-ON-d: rewrite a JSON file in place
edit_json() { $PY -c 'import json,sys; f=sys.argv[1]; d=json.load(open(f)); exec(sys.argv[2]); json.dump(d,open(f,"w"),indent=1)' "$1" "$2"; }

# lib.sh's run assigns OUT=$(cmd) under set -e, which would end the test on a
# non-zero exit; calling it inside an || list keeps RC for expect_rc.
arun() { run "$@" || true; }
