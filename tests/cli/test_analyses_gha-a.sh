# test_analyses_gha-a.sh - the GitHub Actions analyses of workflows.c
# (gha-unpinned-uses, gha-dangerous-trigger, gha-template-injection,
# gha-env-injection, gha-self-hosted-pr; PRC-A-SC-003..007 in profile
# prc/supply-chain) over tests/fixtures/analyses: each case directory is
# scanned and the state of the assertion listed in
# tests/fixtures/analyses/gha-a.tsv must be the one listed there (adding a case
# is adding a directory and a line).

FIX=tests/fixtures/analyses

# scan DIR: the run result as JSON in $OUT
scan() {
        run "$PRC" scan --target "$1" --profile prc/supply-chain --format json
}

# assertion ID: the state of the assertion named ID in $OUT ("absent" when there is none)
assertion() {
        /usr/bin/python3 -c 'import json,sys
r=json.loads(sys.stdin.read())
a=[a for a in r["assertions"] if a["id"]==sys.argv[1]]
print(a[0]["state"] if a else "absent")' "$1" <<<"$OUT"
}

t_every_fixture_gets_its_listed_verdict() {
        verdict_table "$FIX/gha-a.tsv" prc/supply-chain 50
}

t_every_analysis_has_vulnerable_clean_and_tricky_cases() {
        local f
        for f in gha-unpinned-uses gha-dangerous-trigger gha-template-injection gha-env-injection gha-self-hosted-pr; do
                [ "$(ls -d "$FIX/$f"/vuln-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 vulnerable cases"
                [ "$(ls -d "$FIX/$f"/clean-* "$FIX/$f"/tricky-* 2>/dev/null | wc -l)" -ge 3 ] ||
                        fail "$f: fewer than 3 clean cases"
                ls -d "$FIX/$f"/tricky-* >/dev/null || fail "$f: no tricky case"
                grep -q "^$f/" "$FIX/gha-a.tsv" || fail "$f: no verdicts"
        done
}

# located ID ANALYSIS PATH LINE TEXT DETAIL: the finding of ID in $OUT names them all
located() {
        /usr/bin/python3 - "$OUT" "$@" <<'PY' || fail "no located finding for $1"
import json, sys
out, aid, an, path, line, text, detail = sys.argv[1:]
r = json.loads(out)
a = [a for a in r["assertions"] if a["id"] == aid][0]
e = a["evidence"][0]
o = e["observation"]
assert a["state"] == "Fail" and o["outcome"] == "found" and o["kind"] == an, a
assert e["source"]["analysis"] == an, e["source"]
ls = [l for l in o["locations"] if l["path"] == path and l["line"] == int(line)]
assert ls, o["locations"]
assert text in ls[0]["text"], ls[0]
assert detail in ls[0]["detail"], ls[0]
PY
}

t_template_injection_names_path_line_and_text() {
        scan "$FIX/gha-template-injection/vuln-issue-title-in-run"
        expect_rc 1
        located PRC-A-SC-005 gha-template-injection .github/workflows/triage.yml 9 \
                '${{ github.event.issue.title }}' 'github.event.issue.title expanded into a run: script'
}

t_dangerous_trigger_names_the_checkout_and_what_runs_it() {
        scan "$FIX/gha-dangerous-trigger/vuln-pull-request-target-checks-out-head"
        expect_rc 1
        located PRC-A-SC-004 gha-dangerous-trigger .github/workflows/test.yml 8 \
                'ref: ${{ github.event.pull_request.head.sha }}' 'then run: npm ci (line 9)'
}

t_env_injection_names_the_writing_line() {
        scan "$FIX/gha-env-injection/vuln-env-var-to-github-env"
        expect_rc 1
        located PRC-A-SC-006 gha-env-injection .github/workflows/pr.yml 8 \
                'echo "BRANCH=$BRANCH" >> "$GITHUB_ENV"' '$BRANCH (from github.head_ref) written to GITHUB_ENV'
}

t_unpinned_uses_and_self_hosted_name_the_line() {
        scan "$FIX/gha-unpinned-uses/vuln-docker-image-tag"
        located PRC-A-SC-003 gha-unpinned-uses .github/workflows/ci.yml 7 \
                'docker://koalaman/shellcheck:v0.9.0' 'without an @sha256 digest'
        scan "$FIX/gha-self-hosted-pr/vuln-pull-request-self-hosted-labels"
        located PRC-A-SC-007 gha-self-hosted-pr .github/workflows/ci.yml 4 \
                'runs-on: ["self-hosted","linux","x64"]' "job 'test', reachable from pull_request"
}

t_no_workflow_is_unknown_never_pass() {
        mkdir "$TMP/t"
        echo hi >"$TMP/t/README"
        scan "$TMP/t"
        /usr/bin/python3 - "$OUT" <<'PY' || fail "a workflow assertion passed without a workflow"
import json, sys
r = json.loads(sys.argv[1])
ids = ["PRC-A-SC-00%d" % i for i in range(3, 8)]
got = {a["id"]: a for a in r["assertions"] if a["id"] in ids}
assert sorted(got) == ids, sorted(got)
for a in got.values():
    assert a["state"] == "Unknown", a
    assert a["evidence"][0]["observation"]["outcome"] == "unsupported", a
PY
}

t_refused_workflow_leaves_it_unknown_and_a_finding_still_fails() {
        mkdir -p "$TMP/t/.github/workflows"
        printf 'on: push\nname: no jobs\n' >"$TMP/t/.github/workflows/broken.yml"
        printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n' \
                >"$TMP/t/.github/workflows/ok.yml"
        scan "$TMP/t"
        expect_eq "$(json_get coverage_gaps.0.path)" ".github/workflows/broken.yml"
        expect_eq "$(assertion PRC-A-SC-003)" "Unknown"
        printf '      - uses: actions/checkout@v4\n' >>"$TMP/t/.github/workflows/ok.yml"
        scan "$TMP/t"
        expect_eq "$(assertion PRC-A-SC-003)" "Fail"
}
