#!/bin/bash
# kept-results.sh DIR - tests/run's last step: validate every document kept in DIR (run results, batch
# indexes, execution records: src/base/testkeep.h, tests/cli/result_wrap.sh) against schemas/ with
# python3-jsonschema in one process (tests/cli/result_validate.py).  Prints the counts, each invalid
# document with the JSON pointer of its first error, and "N passed, N failed" (one check).
set -u
cd "$(dirname "$0")/.."
/usr/bin/python3 tests/cli/result_validate.py --schemas schemas --state-dirs "$1" "$1" 2>&1 | sed 's/^/    /'
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ]; then
        echo "1 passed, 0 failed"
else
        echo "FAIL kept-results: a document a test build or a conformance suite made does not validate"
        echo "0 passed, 1 failed"
fi
exit "$rc"
