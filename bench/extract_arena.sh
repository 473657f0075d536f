#!/bin/bash
# extract_arena.sh - per manifest format, where extraction spends time and memory in the
# content worker: the parse alone, the extraction (its parse included), the encoding of
# the ManifestDoc, the dependency table prc sbom's workers pack from it, and the most arena
# one file took for each (bench/extract_arena.c: in process, with a bump arena like the
# worker's, reset per file, on huge pages).  Every
# file of ../shared/corpora/manifests an extractor owns, read in place.  Medians of
# EXTRACT_ARENA_PASSES (5) passes.  Nothing here asserts a time.
#
#   bash bench/extract_arena.sh
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CORPORA=${PRC_CORPORA:-$ROOT/../shared/corpora}
M=$CORPORA/manifests
[ -d "$M" ] || { echo "extract_arena: the corpora are absent ($M)"; exit 1; }
make -s all
OUT=$ROOT/build/bench
mkdir -p "$OUT"
flags=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^CFLAGS_ALL := //p')
libs=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^LIBS := //p')
if [ -z "$flags" ] || [ -z "$libs" ]; then
        echo "extract_arena: cannot read the Makefile's flags"
        exit 1
fi
# shellcheck disable=SC2086
gcc $flags -o "$OUT/extract_arena" bench/extract_arena.c build/libprc.a $libs
echo "# bash bench/extract_arena.sh   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
# Paths relative to the tree: extractors own files by the names the inventory gives.
cd "$M"
find . -type f -printf '%P\n' | LC_ALL=C sort | tr '\n' '\0' |
        xargs -0 "$OUT/extract_arena" "${EXTRACT_ARENA_PASSES:-5}"
