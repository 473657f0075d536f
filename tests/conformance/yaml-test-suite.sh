#!/bin/bash
# yaml-test-suite.sh - run yaml-test-suite (../shared/corpora, read in place)
# through prc's YAML loader in the ASan build.
#
#   bash tests/conformance/yaml-test-suite.sh
#
# ok cases must load, and where in.json exists the canonical JSON of the
# result must equal the canonical JSON of in.json (floats allowed here, so
# the suite's reals compare by value); error cases must be refused.  Cases
# prc refuses on purpose are listed, each with its class and reason, in
# yaml-test-suite.expect; a listed case that loads or is refused with
# another class is a failure, so the list stays honest.
# Ends with "N passed, N failed" (policy-refused cases count as passed).
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
SUITE=$CORPORA/parsers/yaml-test-suite/cases
EXPECT=tests/conformance/yaml-test-suite.expect
H=${YAML_JSON:-build/asan/helpers/yaml_json}

if [ ! -d "$SUITE" ]; then
        echo "yaml-test-suite: corpora absent ($SUITE)"
        if [ "${CI:-}" = "true" ]; then
                echo "0 passed, 1 failed"
                exit 1
        fi
        echo "0 passed, 0 failed"
        exit 0
fi
if [ ! -x "$H" ]; then
        echo "FAIL yaml-test-suite: $H is not built (make asan)"
        echo "0 passed, 1 failed"
        exit 1
fi

declare -A want_cls want_why seen
while IFS=$'\t' read -r id cls why; do
        case $id in ''|\#*) continue ;; esac
        want_cls[$id]=$cls
        want_why[$id]=$why
done <"$EXPECT"

ids=()
for d in "$SUITE"/*/; do
        ids+=("$(basename "$d")")
done
tmp=$(mktemp -d /tmp/prc-yts-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# One process per pass over the suite, one output line per file.
files=(); jfiles=(); jids=()
for id in "${ids[@]}"; do
        files+=("$SUITE/$id/in.yaml")
        if [ -e "$SUITE/$id/in.json" ] && [ ! -e "$SUITE/$id/error" ]; then
                jfiles+=("$SUITE/$id/in.json"); jids+=("$id")
        fi
done
"$H" --float "${files[@]}" >"$tmp/yaml.out"
"$H" --json "${jfiles[@]}" >"$tmp/json.out"
declare -A json_of
i=0
while IFS= read -r line; do
        json_of[${jids[$i]}]=$line
        i=$((i + 1))
done <"$tmp/json.out"

ok_pass=0 ok_fail=0 err_pass=0 err_fail=0 policy=0
i=0
while IFS= read -r line; do
        id=${ids[$i]}; i=$((i + 1))
        if [ -e "$SUITE/$id/error" ]; then
                if [ "${line%% *}" = error ]; then
                        err_pass=$((err_pass + 1))
                else
                        err_fail=$((err_fail + 1)); echo "FAIL $id: error case loaded"
                fi
                continue
        fi
        if [ -n "${want_cls[$id]:-}" ]; then
                seen[$id]=1
                read -r st cls _ <<<"$line"
                if [ "$st" = error ] && [ "$cls" = "${want_cls[$id]}" ]; then
                        policy=$((policy + 1))
                else
                        ok_fail=$((ok_fail + 1))
                        echo "FAIL $id: listed in $EXPECT as ${want_cls[$id]} (${want_why[$id]}) but got: ${line:0:120}"
                fi
                continue
        fi
        if [ "${line%% *}" != ok ]; then
                ok_fail=$((ok_fail + 1)); echo "FAIL $id: valid case refused: ${line:0:200}"
                continue
        fi
        j=${json_of[$id]:-}
        # An empty in.json is an empty stream, which prc loads as null (docs/yaml.md).
        if [ -z "$j" ] || [ "$j" = "$line" ] || { [ "$j" = "multi 0" ] && [ "$line" = "ok null" ]; }; then
                ok_pass=$((ok_pass + 1))
        else
                ok_fail=$((ok_fail + 1))
                echo "FAIL $id: canonical JSON differs"
                echo "    prc:     ${line:0:200}"
                echo "    in.json: ${j:0:200}"
        fi
done <"$tmp/yaml.out"
for id in "${!want_cls[@]}"; do
        if [ -z "${seen[$id]:-}" ]; then
                ok_fail=$((ok_fail + 1)); echo "FAIL $id: listed in $EXPECT but not an ok case of the suite"
        fi
done

echo "yaml-test-suite ok cases: $ok_pass loaded and matched, $policy policy-refused as listed, $ok_fail failed"
echo "yaml-test-suite error cases: $err_pass refused, $err_fail failed"
echo "$((ok_pass + policy + err_pass)) passed, $((ok_fail + err_fail)) failed"
[ $((ok_fail + err_fail)) -eq 0 ]
