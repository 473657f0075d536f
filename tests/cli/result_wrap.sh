#!/bin/bash
# result_wrap.sh REAL RESULTS WRAPPER - write WRAPPER, a script that runs the prc binary REAL
# unchanged (exec) except for the commands that make machine output, whose documents it also keeps
# in the directory RESULTS for tests/cli/result_validate.py (issue 22; docs/reports.md):
#   scan, verify, report with --format json    the run result on stdout
#   scan, verify with --state-dir DIR          DIR/runs/*.json
#   batch, batch merge with --state-dir DIR    DIR's absolute path, in a new file RESULTS/state-dir.*:
#                                              prc is exec'd (tests signal and kill it by pid), so its
#                                              runs/ and index.json are read when the test ends
#                                              (result_validate.py --state-dirs)
# Tests run prc as an unprivileged user with a cleared environment, so both paths are written into
# the wrapper.  Used by tests/cli/lib.sh ($PRC) and tests/run (the conformance suites' $PRC).
set -eu
real=$1 results=$2 wrapper=$3
{
        printf '#!/bin/bash\n'
        printf "real=%q\nresults=%q\n" "$real" "$results"
        cat <<'WRAP'
keep=0 state=
case "${1:-}" in scan|verify|report) keep=1 ;; batch) keep=2 ;; esac
json=0 prev=
for a in "$@"; do
        [ "$prev" = --format ] && [ "$a" = json ] && json=1
        [ "$prev" = --state-dir ] && state=$a
        [ "$a" = --format=json ] && json=1
        case "$a" in --state-dir=*) state=${a#--state-dir=} ;; esac
        prev=$a
done
if [ "$keep" = 2 ] && [ -n "$state" ]; then
        realpath -m -- "$state" >"$(mktemp "$results/state-dir.XXXXXX")"
        exec "$real" "$@"
fi
[ "$keep" = 1 ] && { [ "$json" = 1 ] || [ -n "$state" ]; } || exec "$real" "$@"
out=$(mktemp "$results/out.XXXXXX")
if [ "$json" = 1 ]; then
        "$real" "$@" >"$out"
        rc=$?
        cat "$out"
else
        "$real" "$@"
        rc=$?
fi
if [ -n "$state" ]; then
        for f in "$state"/runs/*.json; do
                [ -f "$f" ] && cp "$f" "$(mktemp "$results/state.XXXXXX")"
        done
fi
exit $rc
WRAP
} >"$wrapper"
chmod 755 "$wrapper"
