# test_adapter.sh - prc adapter validate-output and fixture-validate.
# shellcheck disable=SC1091
source tests/cli/adapter_lib.sh

M=$FIX/fixture-adapter.yaml

t_validate_output_accepts_the_valid_transcript() {
        arun "$PRC" adapter validate-output --manifest "$M" --file "$FIX/valid-output.jsonl" --format json
        expect_rc 0
        expect_eq "$(json_get disposition)" accepted
        expect_eq "$(json_get error_class)" null
        expect_eq "$(json_get summary_status)" completed
        expect_eq "$(json_get observations.2.outcome)" value
        expect_eq "$(json_get manifest_sha256)" "$($PRC doc digest "$M")"
        expect_eq "$(json_get transcript.sha256)" "$(sha256sum < "$FIX/valid-output.jsonl" | cut -d' ' -f1)"
}

t_validate_output_text_mode() {
        arun "$PRC" adapter validate-output --manifest "$M" --file "$FIX/valid-output.jsonl"
        expect_rc 0
        expect_out "accepted: 4 observations, 1 artifacts, 2 logs; summary completed"
}

t_validate_output_rejects_an_authority_claim_with_its_line() {
        { head -n 2 "$FIX/valid-output.jsonl"; echo '{"type":"observation","id":"x","kind":"fixture.secret","outcome":"found","verdict":"pass"}'; } > "$TMP/t.jsonl"
        arun "$PRC" adapter validate-output --manifest "$M" --file "$TMP/t.jsonl" --format json
        expect_rc 1
        expect_eq "$(json_get disposition)" rejected
        expect_eq "$(json_get error_class)" authority-claim
        expect_eq "$(json_get line)" 3
        expect_eq "$(json_get observations)" "[]"
        expect_eq "$(json_get summary_status)" null
}

t_validate_output_never_echoes_adapter_bytes() {
        echo '{"type":"log","level":"info","message":"x","AKIASECRETKEY0000000":1}' > "$TMP/t.jsonl"
        echo '{"type":"log","level":"info","message":AKIASECRETKEY0000000}' > "$TMP/u.jsonl"
        for f in t u; do
                arun "$PRC" adapter validate-output --manifest "$M" --file "$TMP/$f.jsonl" --format json
                expect_rc 1
                if grep -q AKIASECRET <<<"$OUT$ERR"; then fail "adapter bytes echoed"; fi
        done
}

t_validate_output_refuses_archived_manifests() {
        for v in 1 2 3; do
                arun "$PRC" adapter validate-output --manifest "$FIX/archived/fixture-adapter-v0.$v.yaml" --file "$FIX/valid-output.jsonl" --format json
                expect_rc 1
                expect_eq "$(json_get error_class)" manifest-archived
                expect_err "readable for old records only"
        done
}

t_validate_output_usage_errors() {
        arun "$PRC" adapter validate-output --file x
        expect_rc 2
        arun "$PRC" adapter validate-output --manifest a --file b --format yaml
        expect_rc 2
        arun "$PRC" adapter validate-output --manifest "$M" --file "$TMP/missing"
        expect_rc 3
}

t_validate_output_enforces_the_manifest_line_cap_on_an_endless_line() {
        head -c 200000 /dev/zero | tr '\0' 'a' > "$TMP/long.jsonl"
        arun "$PRC" adapter validate-output --manifest "$M" --file "$TMP/long.jsonl" --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" line-too-long
        expect_eq "$(json_get line)" 1
}

t_fixture_checked_in_suite_passes_twice_without_drift() {
        arun "$PRC" adapter fixture-validate --suite "$FIX/fixture-suite.yaml" --format json
        expect_rc 0
        expect_eq "$(json_get ok)" true
        expect_eq "$(json_get totals.drifted)" 0
        expect_eq "$(json_get totals.nondeterministic)" 0
        expect_eq "$(json_get scope)" protocol-compatibility
        expect_eq "$(json_get manifest.sha256)" "$($PRC doc digest "$M")"
        expect_eq "$(json_get suite.sha256)" "$(sha256sum < "$FIX/fixture-suite.yaml" | cut -d' ' -f1)"
        # the checked-in suite covers every category and at least eight authority attacks
        $PY - "$OUT" <<'PY'
import json, sys, collections
r = json.loads(sys.argv[1])
c = collections.Counter(x["category"] for x in r["cases"])
need = ["completed", "unsupported", "timeout", "malformed", "resource-limit", "undeclared-output", "authority-attack"]
missing = [k for k in need if c[k] == 0]
assert not missing, missing
assert c["authority-attack"] >= 8, c
kinds = {o["outcome"] for x in r["cases"] for o in x["expected"]["observations"]}
assert kinds == {"found", "not_found", "value", "unsupported"}, kinds
classes = {x["expected"]["error_class"] for x in r["cases"]}
for k in ["line-too-long", "too-many-messages", "stdout-limit", "adapter-timed-out", "undeclared-kind"]:
    assert k in classes, k
PY
}

t_fixture_text_mode_lists_every_case() {
        arun "$PRC" adapter fixture-validate --suite "$FIX/fixture-suite.yaml"
        expect_rc 0
        expect_out "ok    attack-pass-field"
        expect_out "42 cases: 42 matched, 0 drifted, 0 nondeterministic"
}

t_fixture_refuses_a_changed_transcript() {
        suite_copy "$TMP/s"
        echo '{"type":"log","level":"info","message":"x"}' >> "$TMP/s/transcripts/completed-full.jsonl"
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-digest-mismatch
}

t_fixture_refuses_a_changed_manifest() {
        suite_copy "$TMP/s"
        edit_yaml "$TMP/s/fixture-adapter.yaml" 'd["limits"]["messages"]=99'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-digest-mismatch
}

t_fixture_refuses_a_case_that_raises_a_limit() {
        suite_copy "$TMP/s"
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][0]["limits"]={"line_bytes":8192}'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-limit-raised
        expect_eq "$(json_get error.pointer)" /cases/0/limits/line_bytes
}

t_fixture_refuses_a_case_that_adds_authority() {
        suite_copy "$TMP/s"
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][3]["trust"]="first-party-sandboxed"'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" authority-claim
        suite_copy "$TMP/t"
        edit_yaml "$TMP/t/fixture-suite.yaml" 'd["cases"][0]["limits"]={"wall_seconds":1}'
        arun "$PRC" adapter fixture-validate --suite "$TMP/t/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" unknown-field
}

t_fixture_refuses_symlinks() {
        suite_copy "$TMP/s"
        mv "$TMP/s/transcripts/unsupported.jsonl" "$TMP/real.jsonl"
        ln -s "$TMP/real.jsonl" "$TMP/s/transcripts/unsupported.jsonl"
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-symlink
        # a symlinked directory on the way
        suite_copy "$TMP/t"
        mv "$TMP/t/transcripts" "$TMP/t-real"
        ln -s "$TMP/t-real" "$TMP/t/transcripts"
        arun "$PRC" adapter fixture-validate --suite "$TMP/t/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-symlink
        # the suite file itself
        suite_copy "$TMP/u"
        ln -s fixture-suite.yaml "$TMP/u/link.yaml"
        arun "$PRC" adapter fixture-validate --suite "$TMP/u/link.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-symlink
}

t_fixture_refuses_paths_outside_the_suite() {
        suite_copy "$TMP/s"
        cp "$FIX/transcripts/unsupported.jsonl" "$TMP/outside.jsonl"
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][2]["transcript"]="../outside.jsonl"'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-outside
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][2]["transcript"]="'"$TMP"'/outside.jsonl"'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-outside
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["manifest"]["path"]="transcripts/../fixture-adapter.yaml"'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get error.class)" fixture-outside
}

t_fixture_reports_drift_with_exit_1() {
        suite_copy "$TMP/s"
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][0]["expect"]["observations"][0]["outcome"]="not_found"'
        edit_yaml "$TMP/s/fixture-suite.yaml" 'd["cases"][12]["expect"]["line"]=3'
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get ok)" false
        expect_eq "$(json_get totals.drifted)" 2
        expect_eq "$(json_get cases.0.matches)" false
        expect_eq "$(json_get cases.0.deterministic)" true
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.yaml"
        expect_rc 1
        expect_out "DRIFT completed-full"
}

t_manifest_yaml_and_json_spellings_have_one_identity() {
        yaml_to_json "$M" "$TMP/m.json"
        arun "$PRC" adapter validate-output --manifest "$TMP/m.json" --file "$FIX/valid-output.jsonl" --format json
        expect_rc 0
        expect_eq "$(json_get manifest_sha256)" "$($PRC doc digest "$M")"
        # a JSON spelling of the suite validates the same cases
        suite_copy "$TMP/s"
        yaml_to_json "$TMP/s/fixture-suite.yaml" "$TMP/s/fixture-suite.json"
        arun "$PRC" adapter fixture-validate --suite "$TMP/s/fixture-suite.json" --format json
        expect_rc 0
        expect_eq "$(json_get totals.matched)" 42
}

t_manifest_refusals_from_the_cli() {
        cp "$M" "$TMP/m.yaml"
        edit_yaml "$TMP/m.yaml" 'd["publisher"]["verified"]=True'
        arun "$PRC" adapter validate-output --manifest "$TMP/m.yaml" --file "$FIX/valid-output.jsonl" --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" authority-claim
        cp "$M" "$TMP/m.yaml"
        edit_yaml "$TMP/m.yaml" 'd["tool"]["version"]="latest"'
        arun "$PRC" adapter validate-output --manifest "$TMP/m.yaml" --file "$FIX/valid-output.jsonl" --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" mutable-version
        ln -s "$PRC_ROOT/$M" "$TMP/link.yaml"
        arun "$PRC" adapter validate-output --manifest "$TMP/link.yaml" --file "$FIX/valid-output.jsonl"
        expect_rc 3
}
