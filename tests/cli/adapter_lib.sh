# adapter_lib.sh - helpers shared by test_adapter.sh and test_adapter_schemas.sh.
FIX=fixtures/adapters
PY=/usr/bin/python3

# lib.sh's run assigns OUT=$(cmd) under set -e, which would end the test on a
# non-zero exit; calling it inside an || list keeps RC for expect_rc.
arun() { run "$@" || true; }

# yaml_to_json IN OUT: the JSON spelling of a YAML file (same canonical digest)
yaml_to_json() { $PY -c 'import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1])),open(sys.argv[2],"w"),indent=1)' "$1" "$2"; }

# suite_copy DIR: a private copy of the checked-in suite that a test may tamper with
suite_copy() {
        mkdir -p "$1"
        cp -r "$FIX/transcripts" "$FIX/fixture-adapter.yaml" "$FIX/fixture-suite.yaml" "$1/"
}

# edit_yaml FILE PYTHON-STATEMENTS-ON-d: rewrite a YAML file in place
edit_yaml() { $PY -c 'import sys,yaml; f=sys.argv[1]; d=yaml.safe_load(open(f)); exec(sys.argv[2]); yaml.safe_dump(d,open(f,"w"),sort_keys=False)' "$1" "$2"; }
