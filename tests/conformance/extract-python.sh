#!/bin/bash
# extract-python.sh - prc's Python (pypi) extractors against an independent
# reading (tomllib, json, configparser, packaging; extract_python.py) of every
# Python manifest and lockfile in ../shared/corpora/manifests, read in place,
# and of prc's own fixtures in tests/fixtures/extract/python/ that extract.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
XDUMP=${PRC_XDUMP:-build/asan/helpers/xdump}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "extract-python: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
if ! /usr/bin/python3 -c 'import packaging, tomllib' 2>/dev/null; then
        echo "extract-python: /usr/bin/python3 lacks tomllib or packaging (scripts/setup.sh installs python3-packaging)"
        echo "0 passed, 1 failed"
        exit 1
fi
files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" -type f \( -name pyproject.toml \
        -o -name setup.cfg -o -name Pipfile -o -name Pipfile.lock -o -name poetry.lock -o -name uv.lock \
        -o -name pdm.lock -o -name 'pylock*.toml' -o -iname '*requirements*.txt' -o -iname '*constraints*.txt' \
        -o -path '*/requirements/*.txt' -o -name '*requirements*.in' \) | sort)
if [ "${#files[@]}" -lt 40 ]; then
        echo "extract-python: only ${#files[@]} Python files under $CORPORA/manifests (expected the corpus' 60+)"
        echo "0 passed, 1 failed"
        exit 1
fi
# prc's own fixtures that carry their real file name (the others are refusals or variants)
for f in requirements.txt constraints.txt pyproject.toml setup.cfg Pipfile Pipfile.lock uv.lock pdm.lock pylock.toml; do
        files+=("tests/fixtures/extract/python/$f")
done
/usr/bin/python3 tests/conformance/extract_python.py "$XDUMP" "${files[@]}"
