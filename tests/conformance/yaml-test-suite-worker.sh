#!/bin/bash
# yaml-test-suite-worker.sh - yaml-test-suite and the YAML attack corpus
# (../shared/corpora, read in place) through the content worker: every
# input's verdict is taken from a real floored worker (build/prc, the
# streaming YAML reply) and checked by tests/helpers/yaml_worker_verdict.c
# against prc_yaml_load in process (same outcome; on refusal the same class,
# offset, line, column, pointer and message; on acceptance the same tree,
# member order included).  Conformance itself is yaml-test-suite.sh's; this
# proves the worker path changes nothing.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
SUITE=$CORPORA/parsers/yaml-test-suite/cases
ATTACKS=$CORPORA/parsers/attacks/yaml
H=${YAML_WORKER_VERDICT:-build/asan/helpers/yaml_worker_verdict}

if [ ! -d "$SUITE" ]; then
        echo "yaml-test-suite-worker: corpora absent ($SUITE)"
        if [ "${CI:-}" = "true" ]; then
                echo "0 passed, 1 failed"
                exit 1
        fi
        echo "0 passed, 0 failed"
        exit 0
fi
for f in build/prc "$H"; do
        if [ ! -x "$f" ]; then
                echo "FAIL yaml-test-suite-worker: $f is not built (make, make asan)"
                echo "0 passed, 1 failed"
                exit 1
        fi
done
export PRC_WORKER_BIN=${PRC_WORKER_BIN:-$(pwd)/build/prc}
tmp=$(mktemp -d /tmp/prc-ytsw-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
files=("$SUITE"/*/in.yaml "$ATTACKS"/*.yaml)
"$H" "${files[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
pass=$(grep -c -P '\t(accept|reject:)' "$tmp/out")
fail=$(grep -c -P '\tBUG:' "$tmp/out")
grep -P '\tBUG:' "$tmp/out" | sed 's/^/FAIL /' | head -50
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        echo "FAIL yaml-test-suite-worker: helper exited $rc: $(head -c 300 "$tmp/err")"
        fail=1
fi
if [ "$((pass + fail))" -ne "${#files[@]}" ]; then
        echo "FAIL yaml-test-suite-worker: ${#files[@]} inputs, $((pass + fail)) verdicts"
        fail=$((fail + 1))
fi
echo "yaml-test-suite-worker: $pass inputs agree with prc_yaml_load in process ($(grep -c -P '\taccept' "$tmp/out") documents, $(grep '^restarts' "$tmp/out") for merges)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
