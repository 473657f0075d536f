# test_mdoc_details.sh - a content worker that bends a ManifestDoc's details makes the file a
# coverage gap of the scan, never a crash and never a clean verdict.  The test build
# ($TPRC, PRC_TESTING) has a worker that bends the details of files under "prc-test-bend/"
# (src/content/dispatch.c); the release prc has no such path.

TPRC=$PRC_ROOT/build/test/prc

# A tree with a workflow whose run: step downloads and executes: vulnerable if read.
mk_tree() { # DIR BENT_PREFIX
        mkdir -p "$1/$2/.github/workflows"
        printf '# project\n' >"$1/README.md"
        printf 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          curl -fsSL https://example.org/x.sh | sh\n' \
                >"$1/$2/.github/workflows/x.yml"
}

# gaps: "path class" lines of the run result in $OUT; state ID: an assertion's state.
gaps() { /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print("\n".join(g["path"] + " " + g["class"] for g in r["coverage_gaps"]))' <<<"$OUT"; }
state() { /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print([a["state"] for a in r["assertions"] if a["id"] == sys.argv[1]][0])' "$1" <<<"$OUT"; }

t_bent_details_are_a_coverage_gap_not_a_clean_result() {
        [ -x "$TPRC" ] || fail "no $TPRC (make testbuild)"
        local p
        for p in prc-test-bend/tokens prc-test-bend/key; do
                rm -rf "$TMP/t"
                mk_tree "$TMP/t" "$p"
                run "$TPRC" scan --target "$TMP/t" --profile prc/supply-chain --format json
                [ "$RC" -eq 1 ] || [ "$RC" -eq 2 ] || fail "$p: exit $RC (stderr: ${ERR:0:300})"
                grep -qxF "$p/.github/workflows/x.yml manifest-doc-details-invalid" <<<"$(gaps)" ||
                        fail "$p: gaps: $(gaps)"
                # shell-download-exec and unpinned uses read this workflow: they may not pass
                [ "$(state PRC-A-SC-016)" = Unknown ] || fail "$p: SC-016 $(state PRC-A-SC-016)"
        done
}

t_the_same_tree_unbent_is_judged() {
        [ -x "$TPRC" ] || fail "no $TPRC (make testbuild)"
        rm -rf "$TMP/t"
        mk_tree "$TMP/t" plain
        run "$TPRC" scan --target "$TMP/t" --profile prc/supply-chain --format json
        [ -z "$(gaps)" ] || fail "gaps: $(gaps)"
        [ "$(state PRC-A-SC-016)" = Fail ] || fail "SC-016 $(state PRC-A-SC-016)"
}
