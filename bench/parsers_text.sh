#!/bin/bash
# parsers_text.sh - MB/s of prc's TOML and JSONC readers vs jansson on the
# large real lockfiles of ../shared/corpora/manifests, side by side, medians.
#
#   bash bench/parsers_text.sh [SECONDS-PER-MEASUREMENT]
#
# Builds bench/parsers_text.c against the release library (make all first).
# In process only; the content worker's round trip is measured by the
# worker's own benchmark once the dispatch table serves these readers.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
M=$CORPORA/manifests
[ -d "$M" ] || { echo "parsers_text: the corpora are absent ($M)"; exit 1; }
[ -f build/libprc.a ] || make all >/dev/null
mkdir -p build/bench
gcc -std=c17 -D_GNU_SOURCE -O2 -Isrc -include src/base/banned.h $(pkg-config --cflags jansson) \
        -o build/bench/parsers_text bench/parsers_text.c build/libprc.a $(pkg-config --libs jansson libfyaml) -lcrypto
build/bench/parsers_text -t "${1:-0.5}" \
        "$M/python/fastapi__fastapi/uv.lock" \
        "$M/rust/astral-sh__ruff/uv.lock" \
        "$M/python/pallets__flask/uv.lock" \
        "$M/python/python-poetry__poetry/poetry.lock" \
        "$M/rust/astral-sh__ruff/Cargo.lock" \
        "$M/npm/axios__axios/package-lock.json"
