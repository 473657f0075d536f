#!/bin/bash
# jsonc.sh - prc's JSONC reader against json5-tests' `jsonc` verdicts
# (../shared/corpora/parsers/jsonc-json5-tests/expectations.tsv), in place.
# Floats are allowed here (the verdicts are about syntax; prc's default refuses
# floats as its strict JSON reader does).  Deviations: jsonc.expect.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
DIR=$CORPORA/parsers/jsonc-json5-tests
HELPER=${PRC_TEXT_HELPER:-build/asan/helpers/text_parse}
if [ ! -f "$DIR/expectations.tsv" ]; then
        echo "jsonc: the corpora are absent ($DIR)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
tail -n +2 "$DIR/expectations.tsv" | cut -f1 | sed "s|^|$DIR/|" | xargs -d '\n' "$HELPER" jsonc-syntax |
        /usr/bin/python3 tests/conformance/text_compare.py jsonc "$DIR" "$DIR/expectations.tsv" tests/conformance/jsonc.expect
