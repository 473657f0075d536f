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
export PRC

fail() { echo "    $*" >&2; return 1; }

# run CMD...: runs it, keeps stdout in $OUT, stderr in $ERR, status in $RC.
run() {
        # '&& ||' keeps set -e from ending the test on the command's own failure.
        OUT=$("$@" 2>"$TMP/.stderr") && RC=0 || RC=$?
        ERR=$(cat "$TMP/.stderr")
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

# shellcheck disable=SC1090
source "$1"
pass=0; failed=0
for fn in $(declare -F | awk '{print $3}' | grep '^t_' | sort); do
        TMP=$(mktemp -d /tmp/prc-cli-XXXXXX)
        # Not inside an 'if', so set -e applies: the first failed check ends the test.
        ( set -e; cd "$PRC_ROOT"; "$fn" )
        rc=$?
        if [ "$rc" -eq 0 ]; then
                pass=$((pass + 1))
        else
                failed=$((failed + 1))
                echo "FAIL $(basename "$1" .sh).$fn"
        fi
        chmod -R u+rwX "$TMP" 2>/dev/null; rm -rf "$TMP"
done
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
