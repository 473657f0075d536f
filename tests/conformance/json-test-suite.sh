#!/bin/bash
# json-test-suite.sh - the strict JSON reader against JSONTestSuite
# (../shared/corpora/parsers/json-JSONTestSuite, read in place).
#
# One case per file:
#   y_  must be accepted with PRC_JSON_ALLOW_FLOAT and the default limits;
#       in the default integer-only mode it may only be refused as
#       unsafe-number (counted separately).  Three files are deliberate
#       deviations (duplicate keys, NUL in a key): they must be refused with
#       the named class.
#   n_  must be refused (in both modes).
#   i_  implementation-defined: the verdict is recorded; the case passes
#       when the reader terminates cleanly with exactly one outcome.
#   test_transform/  recorded like i_, except that prc's own rules are
#       checked where they apply: duplicate keys are duplicate-field, escaped
#       NUL is nul-byte in the default mode, lone surrogates are refused.
# Prints the verdicts of i_ and transform files, the counts, and ends with
# "N passed, N failed".  Without the corpora it says so; under CI=true
# that counts as one failure.
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
SUITE=$CORPORA/parsers/json-JSONTestSuite
HELPER=${PRC_JSON_VERDICT:-build/asan/helpers/json_verdict}
pass=0; fail=0

if [ ! -d "$SUITE/test_parsing" ]; then
        echo "json-test-suite: corpora absent: $SUITE not found"
        if [ "${CI:-}" = "true" ]; then
                echo "json-test-suite: CI must have the corpora"
                echo "0 passed, 1 failed"
                exit 1
        fi
        echo "0 passed, 0 failed"
        exit 0
fi
if [ ! -x "$HELPER" ]; then
        echo "json-test-suite: $HELPER is not built (make asan)"
        echo "0 passed, 1 failed"
        exit 1
fi

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# prc's deliberate deviations from y_ (RFC 8259 lets a parser refuse these):
# duplicate keys are always refused (DESIGN.md), and a NUL in a key cannot be
# represented.  Each must be refused with exactly this class.
declare -A DEVIATION=(
        [y_object_duplicated_key.json]=reject:duplicate-field
        [y_object_duplicated_key_and_value.json]=reject:duplicate-field
        [y_object_escaped_null_in_key.json]=reject:nul-byte
)

# One sanitizer process for all files; if it does not finish cleanly, each
# file is run on its own so the one that breaks it is named.
files=("$SUITE"/test_parsing/*.json "$SUITE"/test_transform/*.json)
declare -A VERDICT=()
batch=$(timeout 120 "$HELPER" "${files[@]}" 2>/dev/null)
batch_rc=$?
if [ "$batch_rc" -eq 0 ]; then
        while IFS= read -r l; do
                VERDICT[${l%%$'\t'*}]=$l
        done <<<"$batch"
fi

y_int_refused=0; y_total=0; n_total=0; i_accept=0; i_reject=0
y_deviations=0
for f in "${files[@]}"; do
        [ -e "$f" ] || continue
        name=${f#"$SUITE"/}
        base=$(basename "$f")
        rc=0
        line=${VERDICT[$f]:-}
        if [ -z "$line" ]; then
                line=$(timeout 20 "$HELPER" "$f" 2>/dev/null)
                rc=$?
        fi
        if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
                bad "$name: reader did not terminate cleanly (exit $rc): $line"
                continue
        fi
        vf=$(printf '%s' "$line" | cut -f2); vf=${vf#float=}
        vi=$(printf '%s' "$line" | cut -f3); vi=${vi#int=}
        case "$name" in
        test_parsing/y_*)
                y_total=$((y_total + 1))
                if [ -n "${DEVIATION[$base]:-}" ]; then
                        echo "y  $base: deliberate deviation, float=$vf int=$vi"
                        y_deviations=$((y_deviations + 1))
                        if [ "$vf" = "${DEVIATION[$base]}" ] && [ "$vi" = "${DEVIATION[$base]}" ]; then
                                ok
                        else
                                bad "$name: deviation must be ${DEVIATION[$base]}"
                        fi
                elif [ "$vf" != accept ]; then
                        bad "$name: must accept, got $vf"
                elif [ "$vi" != accept ] && [ "$vi" != reject:unsafe-number ]; then
                        bad "$name: integer-only mode may refuse only as unsafe-number, got $vi"
                else
                        [ "$vi" = accept ] || y_int_refused=$((y_int_refused + 1))
                        ok
                fi ;;
        test_parsing/n_*)
                n_total=$((n_total + 1))
                if [ "$vf" = accept ] || [ "$vi" = accept ]; then
                        bad "$name: must refuse, got float=$vf int=$vi"
                else
                        ok
                fi ;;
        test_parsing/i_*)
                echo "i  $base: float=$vf int=$vi"
                if [ "$vf" = accept ]; then i_accept=$((i_accept + 1)); else i_reject=$((i_reject + 1)); fi
                ok ;;
        test_transform/*)
                echo "t  $base: float=$vf int=$vi"
                case "$base" in
                object_same_key_*)
                        [ "$vf" = reject:duplicate-field ] && [ "$vi" = reject:duplicate-field ] && ok ||
                                bad "$name: duplicate keys must be duplicate-field" ;;
                string_with_escaped_NULL*)
                        [ "$vi" = reject:nul-byte ] && ok || bad "$name: escaped NUL must be nul-byte" ;;
                string_*escaped_invalid_codepoint*)
                        [ "$vf" != accept ] && [ "$vi" != accept ] && ok || bad "$name: lone surrogate accepted" ;;
                *)
                        ok ;;
                esac ;;
        *)
                ;;
        esac
done
echo "y_: $y_total must-accept files, $y_deviations refused by design; integer-only mode refuses $y_int_refused more (floats or unsafe integers, unsafe-number)"
echo "n_: $n_total must-refuse files"
echo "i_: $i_accept accepted, $i_reject refused (implementation-defined)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
