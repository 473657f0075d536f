#!/bin/bash
# toml-tomllib.sh - prc's TOML reader against Python 3.11's tomllib on the
# toml-test cases, every TOML manifest of ../shared/corpora/manifests and the
# TOML attack inputs (read in place), and the edge cases in tests/fixtures/toml/.
# Differences on purpose (limits, the byte order mark): toml-tomllib.expect.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
HELPER=${PRC_TEXT_HELPER:-build/asan/helpers/text_parse}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "toml-tomllib: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
files=()
while IFS= read -r f; do files+=("$CORPORA/parsers/toml-test/tests/$f"); done \
        < <(grep '\.toml$' "$CORPORA/parsers/toml-test/files-toml-1.0.0")
while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" -type f \
        \( -name '*.toml' -o -name 'Cargo.lock' -o -name 'uv.lock' -o -name 'poetry.lock' -o -name Pipfile \) | sort)
files+=("$CORPORA"/parsers/attacks/toml/*.toml "$CORPORA"/parsers/attacks/utf8/*.toml tests/fixtures/toml/*.toml)
/usr/bin/python3 tests/conformance/toml_tomllib.py "$HELPER" tests/conformance/toml-tomllib.expect "${files[@]}"
