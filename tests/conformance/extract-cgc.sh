#!/bin/bash
# extract-cgc.sh - prc's Rust, Go and PHP extractors (Cargo.toml, Cargo.lock,
# go.mod, go.sum, go.work, composer.json, composer.lock) on every such file of
# ../shared/corpora/manifests (read in place) and on tests/fixtures/extract/,
# against an independent reading with Python's tomllib and json and a plain
# Python reading of go.mod / go.sum (extract_cgc.py).  Each file must yield the
# same component set; justified differences are listed in extract_cgc.py.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
XDUMP=${PRC_XDUMP:-build/asan/helpers/xdump}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "extract-cgc: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" tests/fixtures/extract -type f \
        \( -name Cargo.toml -o -name Cargo.lock -o -name go.mod -o -name go.sum -o -name go.work.sum \
        -o -name go.work -o -name composer.json -o -name composer.lock \) | sort)
if [ "${#files[@]}" -eq 0 ]; then
        echo "extract-cgc: no Cargo, Go or Composer file under $CORPORA/manifests"
        echo "0 passed, 1 failed"
        exit 1
fi
/usr/bin/python3 tests/conformance/extract_cgc.py "$XDUMP" "${files[@]}"
