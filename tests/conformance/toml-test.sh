#!/bin/bash
# toml-test.sh - prc's TOML reader against toml-test (TOML 1.0 cases), in place.
#
# valid/**.toml must decode, and the tagged JSON must equal valid/**.json after
# toml-test's normalisation (numbers by value, date-times normalised);
# invalid/**.toml must be refused.  Deviations: toml-test.expect.
# Ends with "N passed, N failed".  Needs build/asan/helpers/text_parse.
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
DIR=$CORPORA/parsers/toml-test/tests
HELPER=${PRC_TEXT_HELPER:-build/asan/helpers/text_parse}
if [ ! -d "$DIR" ]; then
        echo "toml-test: the corpora are absent ($DIR)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
LIST=$CORPORA/parsers/toml-test/files-toml-1.0.0
grep '\.toml$' "$LIST" | sed "s|^|$DIR/|" | xargs -d '\n' "$HELPER" toml-tagged |
        /usr/bin/python3 tests/conformance/text_compare.py toml "$DIR" "$LIST" tests/conformance/toml-test.expect
