#!/bin/bash
# extract-gha.sh - prc's GitHub Actions and Dockerfile extractors against an
# independent Python reading (PyYAML for the `uses` of every step and job of
# every workflow, a plain line reader for every FROM) of the real files in
# ../shared/corpora/manifests, read in place.  See extract_gha.py.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
HELPER=${PRC_XDUMP:-build/asan/helpers/xdump}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "extract-gha: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
if ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
        echo "extract-gha: python3-yaml is missing (scripts/setup.sh installs it)"
        echo "0 passed, 1 failed"
        exit 1
fi
wf=() df=()
while IFS= read -r f; do wf+=("$f"); done < <(find "$CORPORA/manifests" -type f -path '*/.github/workflows/*' \
        \( -name '*.yml' -o -name '*.yaml' \) | grep -E '/\.github/workflows/[^/]+$' | sort)
while IFS= read -r f; do df+=("$f"); done < <(find "$CORPORA/manifests" -type f \( -name Dockerfile -o -name Containerfile \
        -o -name '*.Dockerfile' -o -name '*.dockerfile' -o -name 'Dockerfile.*' -o -name 'Containerfile.*' \) \
        ! -name '*.dockerignore' | sort)
p=0 f=0
for kind in workflows dockerfiles; do
        if [ "$kind" = workflows ]; then files=("${wf[@]}"); else files=("${df[@]}"); fi
        if [ "${#files[@]}" -eq 0 ]; then
                echo "FAIL extract-gha: no $kind found under $CORPORA/manifests"
                f=$((f + 1))
                continue
        fi
        out=$(/usr/bin/python3 tests/conformance/extract_gha.py "$HELPER" "$kind" "${files[@]}")
        echo "$out" | grep -v 'passed, [0-9]* failed$'
        line=$(echo "$out" | tail -n 1)
        p=$((p + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
        f=$((f + $(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')))
done
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
