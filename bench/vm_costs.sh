#!/bin/bash
# vm_costs.sh - what this host charges for first touches of memory, system calls and round trips between
# two processes (bench/vm_costs.c), the kernel work `prc sbom` is made of beside its own code.  On the
# paravirtualized VM the sessions measure on, a page touched for the first time after the host took it back
# costs ten to twenty times what it costs right after a free, so a run after a pause (bench/sbom.sh waits
# 2 s before each) pays about a millisecond for each MiB it touches (docs/extraction/peers.md, "What a
# first touch costs here").  Nothing here asserts a time.
#
#   bash bench/vm_costs.sh [ROUNDS [PAUSE_MS [MIB]]]      (default 7 rounds, 2500 ms, 16 MiB)
set -eu
cd "$(dirname "$0")/.."
OUT=build/bench
mkdir -p "$OUT"
gcc -std=c17 -O2 -Wall -Wextra -Werror -o "$OUT/vm_costs" bench/vm_costs.c
THP=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo -)
echo "# bash bench/vm_costs.sh $*   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average" \
        "$(cut -d" " -f1-3 /proc/loadavg); THP $THP)"
"$OUT/vm_costs" "${1:-7}" "${2:-2500}" "${3:-16}"
