#!/bin/bash
# jsonc.sh - prc's JSONC reader, in place, against
#   1. json5-tests' `jsonc` verdicts (../shared/corpora/parsers/jsonc-json5-tests/expectations.tsv);
#   2. JSONTestSuite (../shared/corpora/parsers/json-JSONTestSuite/test_parsing): JSON is JSONC, so
#      y_ must be accepted and n_ refused, except where JSONC itself allows more (comments, one
#      trailing comma) or prc's policy refuses more (duplicate keys, NUL); i_ must end cleanly.
# The reader runs with the flags the worker gives it (text_parse jsonc: the
# dispatch table's, numbers as parse-json reads them; issue 16), so the verdicts
# are what `prc content parse --format jsonc` gives.  Deviations: jsonc.expect and
# jsonc-jsontestsuite.expect.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
DIR=$CORPORA/parsers/jsonc-json5-tests
JTS=$CORPORA/parsers/json-JSONTestSuite
HELPER=${PRC_TEXT_HELPER:-build/asan/helpers/text_parse}
if [ ! -f "$DIR/expectations.tsv" ] || [ ! -d "$JTS/test_parsing" ]; then
        echo "jsonc: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
a=$(tail -n +2 "$DIR/expectations.tsv" | cut -f1 | sed "s|^|$DIR/|" | xargs -d '\n' "$HELPER" jsonc |
        /usr/bin/python3 tests/conformance/text_compare.py jsonc "$DIR" "$DIR/expectations.tsv" tests/conformance/jsonc.expect)
ra=$?
b=$(ls "$JTS"/test_parsing/*.json | xargs -d '\n' "$HELPER" jsonc |
        /usr/bin/python3 tests/conformance/text_compare.py jts "$JTS" "$JTS/test_parsing" tests/conformance/jsonc-jsontestsuite.expect)
rb=$?
echo "$a" | sed '$d'
echo "$b" | sed '$d'
pa=$(echo "$a" | tail -n 1 | awk '{print $1}'); fa=$(echo "$a" | tail -n 1 | awk '{print $3}')
pb=$(echo "$b" | tail -n 1 | awk '{print $1}'); fb=$(echo "$b" | tail -n 1 | awk '{print $3}')
echo "$((pa + pb)) passed, $((fa + fb)) failed"
[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
