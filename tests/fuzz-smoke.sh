#!/bin/bash
# fuzz-smoke.sh SECONDS - run each libFuzzer harness for SECONDS on a scratch
# copy of its corpus.  One case per harness: it passes when libFuzzer finds
# no crash, leak or timeout.  Longer runs: docs/FUZZING.md.
set -u
secs=${1:-3}
pass=0; fail=0
for bin in build/fuzz/fuzz_*; do
        [ -x "$bin" ] || continue
        name=${bin##*/fuzz_}
        scratch=$(mktemp -d /tmp/prc-fuzz-XXXXXX)
        art=$(mktemp -d /tmp/prc-fuzz-art-XXXXXX)
        if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$art/" \
                "$scratch" "fuzz/corpus/$name" >"$scratch.log" 2>&1; then
                pass=$((pass + 1))
        else
                fail=$((fail + 1))
                echo "FAIL fuzz $name (artifacts in $art)"
                tail -n 30 "$scratch.log" | sed 's/^/    /'
        fi
        rm -rf "$scratch" "$scratch.log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
