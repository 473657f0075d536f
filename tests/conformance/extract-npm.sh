#!/bin/bash
# extract-npm.sh - the npm family's extractors (xdump, in process) against an
# independent reading (Python's json and PyYAML, extract_npm.py) of every
# npm lockfile and package.json of ../shared/corpora/manifests (read in place)
# and of tests/fixtures/extract/npm.  Justified exceptions: extract-npm.expect.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
XDUMP=${PRC_XDUMP:-build/asan/helpers/xdump}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "extract-npm: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
        echo "extract-npm: python3-yaml is missing (scripts/setup.sh installs it)"
        echo "0 passed, 1 failed"
        exit 1
fi
files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" -type f \
        \( -name package-lock.json -o -name npm-shrinkwrap.json -o -name yarn.lock -o -name pnpm-lock.yaml \
           -o -name package.json \) -not -path '*/node_modules/*' | sort)
while IFS= read -r f; do files+=("$f"); done < <(find tests/fixtures/extract/npm -type f -not -path '*/bad/*' \
        -not -name .npmrc | sort)
/usr/bin/python3 tests/conformance/extract_npm.py "$XDUMP" tests/conformance/extract-npm.expect "${files[@]}"
