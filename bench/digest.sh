#!/bin/bash
# digest.sh - prc's own SHA-256 (base/digest.h: the SHA-NI path where the
# CPU has it, which the table's first line names; streaming 16 KiB updates)
# against `openssl speed -evp sha256` on 16 KiB blocks, side by side in one run.
# Each side runs 5 times; the medians and their ratio are printed.  Both
# sides measure CPU time (openssl speed's default), not wall-clock.
#
#   bash bench/digest.sh [MIB]      MIB hashed per prc run (default 256)
set -eu
cd "$(dirname "$0")/.."
MIB=${1:-256}
make --no-print-directory all >/dev/null
mkdir -p build/bench
gcc -std=c17 -D_GNU_SOURCE -O2 -Isrc -include src/base/banned.h -o build/bench/sha256_speed \
        bench/sha256_speed.c build/libprc.a

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

prc=(); ossl=()
for i in 1 2 3 4 5; do
        prc+=("$(build/bench/sha256_speed "$MIB" 16384)")
        ossl+=("$(openssl speed -evp sha256 -bytes 16384 -seconds 1 -mr 2>/dev/null | awk -F: '/^\+F:/ {print $4}')")
done
mp=$(printf '%s\n' "${prc[@]}" | median)
mo=$(printf '%s\n' "${ossl[@]}" | median)
path=$(build/bench/sha256_speed 0 16384 path)
awk -v p="$mp" -v o="$mo" -v mib="$MIB" -v path="$path" 'BEGIN {
        printf "sha256, 16 KiB updates, median of 5 (prc: the %s path)\n", path
        printf "  prc (prc_sha256_update, %d MiB)   %8.1f MB/s\n", mib, p / 1e6
        printf "  openssl speed -evp sha256         %8.1f MB/s\n", o / 1e6
        printf "  ratio prc/openssl                 %8.3f\n", p / o
}'
