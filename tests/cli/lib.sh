#!/bin/bash
# lib.sh - tiny harness for CLI tests.
#
#   bash tests/cli/lib.sh tests/cli/test_X.sh
#
# A test file defines functions named t_*; each runs in its own subshell with
# a fresh $TMP directory and passes when it returns 0.  Helpers below fail
# with a message.  $PRC is the release CLI (build/prc).
set -u
cd "$(dirname "$0")/../.."
export PRC_ROOT=$(pwd)
PRC=${PRC:-$PRC_ROOT/build/prc}
# PRC_BIN is the binary itself, for the tests that inspect or copy it.
PRC_BIN=$PRC
export PRC PRC_BIN
# The GLIBC_TUNABLES prc gives itself and its workers (src/base/tune.h PRC_TUNE_ALL), for the tests that look.
PRC_TUNED=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432
PRC_TUNED=$PRC_TUNED:glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=8388608

# Issue 22: every run result, batch index and execution record a CLI test makes is validated against its
# schema in schemas/ by python3-jsonschema, an implementation independent of prc (tests/cli/result_validate.py).
# They reach $RESULTS (world-writable: tests run prc as an unprivileged user) three ways:
#  - $PRC is a generated wrapper (tests/cli/result_wrap.sh) that runs the release binary unchanged (exec)
#    but keeps what scan, verify and report write with --format json or --state-dir, and names the
#    state dirs of prc batch, read when the test ends;
#  - the test build (build/test/prc, and the copies tests make of it) keeps every document it makes in
#    $PRC_TEST_RESULT_DIR (src/base/testkeep.h; a release build has no such code);
#  - `run` keeps its command's stdout when that is a JSON object ($PRC_BIN and copies of build/prc).
# After each test the documents it made are validated; an invalid one fails that test.  Identical
# documents count once.  PRC_VALIDATE_RESULTS=0 turns this off.
RESULTS=
if [ "${PRC_VALIDATE_RESULTS:-1}" != 0 ]; then
        WRAPDIR=$(mktemp -d /tmp/prc-wrap-XXXXXX)
        RESULTS=$WRAPDIR/results
        mkdir -m 1777 "$RESULTS"
        chmod 755 "$WRAPDIR"
        bash "$PRC_ROOT/tests/cli/result_wrap.sh" "$PRC_BIN" "$RESULTS" "$WRAPDIR/prc"
        PRC=$WRAPDIR/prc
        export PRC_TEST_RESULT_DIR=$RESULTS
else
        unset PRC_TEST_RESULT_DIR
fi

fail() { echo "    $*" >&2; return 1; }

# run CMD...: runs it, keeps stdout in $OUT, stderr in $ERR, status in $RC.
run() {
        # '&& ||' keeps set -e from ending the test on the command's own failure.
        OUT=$("$@" 2>"$TMP/.stderr") && RC=0 || RC=$?
        ERR=$(cat "$TMP/.stderr")
        if [ -n "$RESULTS" ] && [ "${OUT:0:1}" = "{" ]; then
                printf '%s\n' "$OUT" >"$(mktemp "$RESULTS/run.XXXXXX")"
        fi
        return 0
}
expect_rc() { [ "$RC" -eq "$1" ] || fail "exit $RC, want $1 (stderr: ${ERR:0:300})"; }
expect_out() { grep -qF -- "$1" <<<"$OUT" || fail "stdout lacks '$1': ${OUT:0:300}"; }
expect_err() { grep -qF -- "$1" <<<"$ERR" || fail "stderr lacks '$1': ${ERR:0:300}"; }
expect_eq() { [ "$1" = "$2" ] || fail "got '${1:0:300}', want '${2:0:300}'"; }
# jq-free JSON field check through python3 (Debian's /usr/bin/python3).
json_get() { /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); 
for k in sys.argv[1].split("."):
    d = d[int(k)] if isinstance(d, list) else d[k]
print(json.dumps(d) if not isinstance(d, str) else d)' "$1" <<<"$OUT"; }

# verdict_of DIR ASSERTION PROFILE: prints the state of ASSERTION in `prc scan --target DIR --profile PROFILE`
# ("absent" when the result has no such assertion).
verdict_of() {
        "$PRC" scan --target "$1" --profile "$3" --format json 2>/dev/null </dev/null |
                /usr/bin/python3 -c 'import json,sys
r=json.load(sys.stdin)
a=[a["state"] for a in r["assertions"] if a["id"]==sys.argv[1]]
print(a[0] if a else "absent")' "$2"
}

# verdict_table TSV PROFILE MIN: each line "CASE<TAB>ASSERTION<TAB>STATE" of TSV ('#' lines and blank ones
# skipped) scans $FIX/CASE with PROFILE, and the assertion must be in STATE; at least MIN cases are read.
# Every difference is listed before the test fails.
verdict_table() {
        local d a want got bad=0 n=0
        while IFS=$'\t' read -r d a want; do
                case $d in \#*|"") continue ;; esac
                n=$((n + 1))
                got=$(verdict_of "$FIX/$d" "$a" "$2")
                if [ "$got" != "$want" ]; then
                        echo "    $d $a: got '$got', want '$want'" >&2
                        bad=$((bad + 1))
                fi
        done <"$1"
        [ "$n" -ge "$3" ] || fail "only $n cases read"
        [ "$bad" -eq 0 ] || fail "$bad of $n fixture verdicts differ"
}

# shellcheck disable=SC1090
source "$1"
pass=0; failed=0
# Documents validated: run results, batch indexes, execution records.
counts=(0 0 0)
# PRC_TEST_ONLY=REGEX runs only the matching tests (to chase one failure).
for fn in $(declare -F | awk '{print $3}' | grep '^t_' | grep -E -- "${PRC_TEST_ONLY:-.}" | sort); do
        TMP=$(mktemp -d /tmp/prc-cli-XXXXXX)
        # Not inside an 'if', so set -e applies: the first failed check ends the test.
        ( set -e; cd "$PRC_ROOT"; "$fn" )
        rc=$?
        # One Python process per test that made a document (a plain grep first: most JSON is no result).
        if [ -n "$RESULTS" ] && { compgen -G "$RESULTS/state-dir.*" >/dev/null ||
                grep -rqsE '"prc\.(run-result|batch-index|execution-record)/' "$RESULTS"; }; then
                if ! /usr/bin/python3 "$PRC_ROOT/tests/cli/result_validate.py" --schemas "$PRC_ROOT/schemas" \
                        --state-dirs "$RESULTS" "$RESULTS" >"$TMP/.validated" 2>&1; then
                        echo "    a document prc made does not validate against its schema in schemas/:" >&2
                        grep -v -e '^validated: ' -e '^[0-9]* validated$' "$TMP/.validated" | sed 's/^/      /' | head -n 20 >&2
                        rc=1
                fi
                for k in 0 1 2; do
                        n=$(sed -n 's/^validated: //p' "$TMP/.validated" | tr ',' '\n' | sed -n "$((k + 1))p" |
                                awk '{print $1}')
                        counts[k]=$(( ${counts[k]} + ${n:-0} ))
                done
        fi
        [ -z "$RESULTS" ] || rm -rf "${RESULTS:?}"/*
        if [ "$rc" -eq 0 ]; then
                pass=$((pass + 1))
        else
                failed=$((failed + 1))
                echo "FAIL $(basename "$1" .sh).$fn"
        fi
        chmod -R u+rwX "$TMP" 2>/dev/null; rm -rf "$TMP"
done
[ -n "$RESULTS" ] && echo "validated against schemas/: ${counts[0]} run results, ${counts[1]} batch indexes," \
        "${counts[2]} execution records"
[ -n "$RESULTS" ] && rm -rf "$WRAPDIR"
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
