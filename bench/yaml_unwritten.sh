#!/bin/bash
# yaml_unwritten.sh - detector of YAML scalar text made of bytes nobody wrote.
#
#   bash bench/yaml_unwritten.sh [HELPER] [N]   (default build/test/helpers/yaml_json, N 20000; make testbuild)
#
# Loads every YAML file of the shared corpora (*.yaml, *.yml, yarn.lock) and
# N generated scalar-heavy documents (bench/yaml_unwritten_gen.py, seed 1)
# twice, in separate processes whose malloc fills fresh and freed memory with
# different bytes (MALLOC_PERTURB_ 85 and 170), one process loading a few
# thousand inputs one after the other as the content worker does.  An output
# that differs between the two holds bytes that no code wrote: it could carry
# an earlier input's bytes (docs/yaml.md).  Prints each such input and the
# counts; exits 1 if there is one.  Not under ASan (its allocator ignores
# MALLOC_PERTURB_).
set -u
cd "$(dirname "$0")/.."
H=${1:-build/test/helpers/yaml_json}
N=${2:-20000}
C=${PRC_CORPORA:-$(pwd)/../shared/corpora}
[ -x "$H" ] || { echo "build first: make testbuild"; exit 2; }
[ -d "$C" ] || { echo "corpora absent: $C"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$C" -type f \( -name '*.yaml' -o -name '*.yml' -o -name yarn.lock \) -size -8M | sort >"$tmp/list"
corpus=$(wc -l <"$tmp/list")
python3 bench/yaml_unwritten_gen.py "$tmp/gen" "$N" 1
find "$tmp/gen" -name '*.yaml' | sort >>"$tmp/list"
for v in 85 170; do
        xargs -d '\n' -n 2000 env MALLOC_PERTURB_=$v "$H" --float-text <"$tmp/list" >"$tmp/out.$v"
done
total=$(wc -l <"$tmp/list")
[ "$(wc -l <"$tmp/out.85")" -eq "$total" ] && [ "$(wc -l <"$tmp/out.170")" -eq "$total" ] ||
        { echo "FAIL: the helper did not print one line per input"; exit 1; }
paste -d '\n' "$tmp/list" "$tmp/out.85" "$tmp/out.170" | awk -v cap=20 '
        NR % 3 == 1 { f = $0 } NR % 3 == 2 { a = $0 }
        NR % 3 == 0 { if (a != $0) { bad++; if (bad <= cap) printf "UNSTABLE %s\n  85:  %.200s\n  170: %.200s\n", f, a, $0 }
                      if (a ~ /^ok /) ok++ }
        END { printf "%d inputs loaded twice, %d load, %d differ\n", NR / 3, ok, bad; exit bad > 0 }'
rc=$?
echo "($corpus corpus files, $N generated documents; helper $H)"
exit $rc
