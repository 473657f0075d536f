# test_analyses_gha-b.sh - the GitHub Actions scope analyses (PRC-A-SC-008 to
# SC-012 in profile prc/supply-chain) over the fixtures in
# tests/fixtures/analyses/gha-*: each case directory is scanned with
# `prc scan --target DIR --profile prc/supply-chain`, and the state of the
# assertion named in tests/fixtures/analyses/gha-b.tsv must be the one listed
# there (adding a case is adding a directory and a line).

FIX=tests/fixtures/analyses
IDS="gha-excessive-permissions gha-persisted-credentials gha-cache-poisoning gha-secrets-exposure gha-insecure-commands"

# assertion DIR ASSERTION: prints the assertion's row of the run result as JSON
assertion() {
        "$PRC" scan --target "$1" --profile prc/supply-chain --format json 2>/dev/null |
                /usr/bin/python3 -c 'import json,sys
r=json.load(sys.stdin)
print(json.dumps([a for a in r["assertions"] if a["id"]==sys.argv[1]][0]))' "$2"
}

t_every_fixture_gets_its_listed_verdict() {
        verdict_table "$FIX/gha-b.tsv" prc/supply-chain 50
}

t_every_analysis_has_vulnerable_clean_and_tricky_cases() {
        local f
        for f in $IDS; do
                [ "$(grep -c "^$f/vuln-.*	Fail$" "$FIX/gha-b.tsv")" -ge 3 ] || fail "$f: fewer than 3 vulnerable cases"
                [ "$(grep -cE "^$f/(clean|tricky)-.*	Pass$" "$FIX/gha-b.tsv")" -ge 3 ] || fail "$f: fewer than 3 clean cases"
                grep -q "^$f/tricky-.*	Pass$" "$FIX/gha-b.tsv" || fail "$f: no tricky negative"
                [ "$(ls -d "$FIX/$f"/*/ | wc -l)" -eq "$(grep -c "^$f/" "$FIX/gha-b.tsv")" ] ||
                        fail "$f: a case directory without a verdict, or a verdict without its directory"
        done
}

# found DIR ASSERTION ID PATH LINE TEXT DETAIL: the assertion fails with a found observation of ID listing
# that location.
found() {
        assertion "$FIX/$1" "$2" | /usr/bin/python3 -c 'import json,sys
a=json.load(sys.stdin)
_, kind, path, line, text, detail = sys.argv
assert a["state"] == "Fail", a
e = [e for e in a["evidence"] if e["observation"]["outcome"] == "found"][0]
assert e["source"]["analysis"] == kind and e["observation"]["kind"] == kind, e
hits = [l for l in e["observation"]["locations"] if l["path"] == path and l["line"] == int(line)
        and l["text"] == text and detail in l["detail"]]
assert hits, e["observation"]["locations"]' "$3" "$4" "$5" "$6" "$7"
}

t_found_names_path_line_and_text() {
        found gha-excessive-permissions/vuln-write-scopes-inherited PRC-A-SC-008 gha-excessive-permissions \
                .github/workflows/ci.yml 4 "packages: write" "inherited by 2 jobs" || fail "excessive-permissions"
        found gha-excessive-permissions/vuln-no-permissions PRC-A-SC-008 gha-excessive-permissions \
                .github/workflows/ci.yml 4 "test: no permissions" "default permissions" || fail "no permissions"
        found gha-persisted-credentials/vuln-default PRC-A-SC-009 gha-persisted-credentials \
                .github/workflows/ci.yml 8 "uses: actions/checkout@v4" "defaults to true" || fail "persisted-credentials"
        found gha-persisted-credentials/vuln-composite-action PRC-A-SC-009 gha-persisted-credentials \
                action.yml 6 "uses: actions/checkout@v4" "git config" || fail "composite checkout"
        found gha-cache-poisoning/vuln-publish-step-npm-cache PRC-A-SC-010 gha-cache-poisoning \
                .github/workflows/publish.yml 6 "uses: actions/setup-node@v4" "publishes (npm publish, line 13)" ||
                fail "cache-poisoning"
        found gha-secrets-exposure/vuln-computed-index PRC-A-SC-011 gha-secrets-exposure .github/workflows/ci.yml 11 \
                "\${{ secrets[format('DEPLOY_TOKEN_{0}', matrix.env)] }}" "computed index" || fail "secrets-exposure"
        found gha-secrets-exposure/vuln-inherit PRC-A-SC-011 gha-secrets-exposure .github/workflows/ci.yml 5 \
                "secrets: inherit" "every secret" || fail "secrets inherit"
        found gha-insecure-commands/vuln-step-env-string PRC-A-SC-012 gha-insecure-commands \
                .github/workflows/ci.yml 8 "ACTIONS_ALLOW_UNSECURE_COMMANDS: true" "set-env" || fail "insecure-commands"
}

t_clean_is_not_found_and_expressions_are_unsupported() {
        assertion "$FIX/gha-cache-poisoning/clean-release-cache-off" PRC-A-SC-010 | /usr/bin/python3 -c 'import json,sys
a=json.load(sys.stdin)
assert a["state"] == "Pass" and [e["observation"]["outcome"] for e in a["evidence"]] == ["not_found"], a' ||
                fail "not a not_found observation"
        assertion "$FIX/gha-persisted-credentials/tricky-dynamic" PRC-A-SC-009 | /usr/bin/python3 -c 'import json,sys
a=json.load(sys.stdin)
o = a["evidence"][0]["observation"]
assert a["state"] == "Unknown" and o["outcome"] == "unsupported", a
assert o["locations"][0]["line"] == 12 and "expression" in o["locations"][0]["detail"], o' ||
                fail "an expression did not leave the assertion Unknown"
}

t_a_refused_workflow_is_unknown_never_pass() {
        mkdir -p "$TMP/t/.github/workflows"
        printf 'on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' \
                >"$TMP/t/.github/workflows/good.yml"
        printf 'name: not a workflow\non: push\n' >"$TMP/t/.github/workflows/bad.yml"
        run "$PRC" scan --target "$TMP/t" --profile prc/supply-chain --format json
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "an assertion passed over a refused workflow"
import json, sys
r = json.loads(sys.argv[1])
assert any(g["path"] == ".github/workflows/bad.yml" for g in r["coverage_gaps"]), r["coverage_gaps"]
st = {a["id"]: a["state"] for a in r["assertions"]}
# the good workflow still fails what it fails; nothing else can pass
assert st["PRC-A-SC-009"] == "Fail", st
for k in ("PRC-A-SC-008", "PRC-A-SC-010", "PRC-A-SC-011", "PRC-A-SC-012"):
    assert st[k] == "Unknown", (k, st)
PY
}

t_no_workflow_is_unknown_never_pass() {
        mkdir "$TMP/t"
        echo hi >"$TMP/t/README"
        run "$PRC" scan --target "$TMP/t" --profile prc/supply-chain --format json
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "a workflow assertion passed without a workflow"
import json, sys
r = json.loads(sys.argv[1])
for a in r["assertions"]:
    if a["id"] in ("PRC-A-SC-008", "PRC-A-SC-009", "PRC-A-SC-010", "PRC-A-SC-011", "PRC-A-SC-012"):
        assert a["state"] == "Unknown", a
        assert a["evidence"][0]["observation"]["outcome"] == "unsupported", a
PY
}
