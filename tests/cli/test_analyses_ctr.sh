# test_analyses_ctr.sh - issue 19's container and shell analyses (docker-unpinned-base,
# docker-root-user, docker-remote-add, shell-download-exec, shell-unpinned-install) over the
# fixtures in tests/fixtures/analyses/<analysis-id>/: each case directory is scanned with
# `prc scan --target DIR --profile prc/supply-chain`, and the state of the assertion named in
# tests/fixtures/analyses/ctr.tsv must be the one listed there (adding a case is adding a
# directory and a line).

FIX=tests/fixtures/analyses

# ASSERTION, then the python body run over it as `a` (r: the whole result)
check_assertion() {
        /usr/bin/python3 - "$OUT" "$1" "$2" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == sys.argv[2]][0]
exec(sys.argv[3])
PY
}

t_every_fixture_gets_its_listed_verdict() {
        verdict_table "$FIX/ctr.tsv" prc/supply-chain 50
}

t_every_analysis_has_vulnerable_clean_and_tricky_cases() {
        local f
        for f in docker-unpinned-base docker-root-user docker-remote-add shell-download-exec shell-unpinned-install; do
                [ "$(ls -d "$FIX/$f"/vuln-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 vulnerable cases"
                [ "$(ls -d "$FIX/$f"/clean-* "$FIX/$f"/tricky-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 clean cases"
                ls -d "$FIX/$f"/tricky-* >/dev/null || fail "$f: no tricky case"
                [ "$(grep -c "^$f/" "$FIX/ctr.tsv")" -eq "$(ls -d "$FIX/$f"/*/ | wc -l)" ] ||
                        fail "$f: a case directory without a verdict line (or the reverse)"
        done
}

t_unpinned_base_names_the_from_line() {
        run "$PRC" scan --target "$FIX/docker-unpinned-base/vuln-arg-default-tag" --profile prc/supply-chain --format json
        expect_rc 1
        check_assertion PRC-A-SC-013 '
e = a["evidence"][0]
assert a["state"] == "Fail" and e["source"]["analysis"] == "docker-unpinned-base", a
l = e["observation"]["locations"][0]
assert l["path"] == "Dockerfile" and l["line"] == 2 and l["text"] == "FROM ${BASE}", l
assert "node:20-alpine is not pinned by @sha256" in l["detail"], l
' || fail "no located FROM finding"
}

t_unpinned_base_arg_without_default_is_unknown_with_its_reason() {
        run "$PRC" scan --target "$FIX/docker-unpinned-base/unknown-arg-without-default" --profile prc/supply-chain \
                --format json
        check_assertion PRC-A-SC-013 '
o = a["evidence"][0]["observation"]
assert a["state"] == "Unknown" and o["outcome"] == "unsupported", a
assert "ARG BASE, which has no default" in o["locations"][0]["detail"], o
' || fail "not Unknown through an unsupported observation"
}

t_root_user_names_the_user_line() {
        run "$PRC" scan --target "$FIX/docker-root-user/vuln-user-root-last" --profile prc/supply-chain --format json
        check_assertion PRC-A-SC-014 '
l = a["evidence"][0]["observation"]["locations"][0]
assert a["state"] == "Fail" and l["line"] == 4 and l["text"] == "USER root", l
assert "runs as root (USER root)" in l["detail"], l
' || fail "no located USER finding"
}

t_remote_add_names_the_add_line() {
        run "$PRC" scan --target "$FIX/docker-remote-add/vuln-add-git-branch" --profile prc/supply-chain --format json
        check_assertion PRC-A-SC-015 '
l = a["evidence"][0]["observation"]["locations"][0]
assert a["state"] == "Fail" and l["line"] == 2, l
assert l["text"] == "ADD https://github.com/example/repo.git#main" and "moving ref" in l["detail"], l
' || fail "no located ADD finding"
}

t_download_exec_names_path_line_text_and_place() {
        run "$PRC" scan --target "$FIX/shell-download-exec/vuln-dockerfile-saved-then-run-next-run" \
                --profile prc/supply-chain --format json
        expect_rc 1
        check_assertion PRC-A-SC-016 '
e = a["evidence"][0]
assert e["source"]["analysis"] == "shell-download-exec" and e["observation"]["kind"] == "shell-download-exec", e
l = e["observation"]["locations"][0]
assert l["path"] == "Dockerfile" and l["line"] == 3, l
assert "/tmp/install.sh" in l["text"], l
assert l["detail"] == "install.sh was downloaded and then run without a digest check in RUN of stage 0", l
' || fail "no located download-then-run finding"
}

t_unpinned_install_names_the_workflow_step() {
        run "$PRC" scan --target "$FIX/shell-unpinned-install/vuln-workflow-npm-install" --profile prc/supply-chain \
                --format json
        check_assertion PRC-A-SC-017 '
l = a["evidence"][0]["observation"]["locations"][0]
assert l["path"] == ".github/workflows/ci.yml" and l["line"] == 8 and l["text"] == "npm install", l
assert l["detail"] == "npm: npm install resolves afresh (npm ci installs the lockfile) in job build, step 2", l
' || fail "no located install finding"
}

t_untokenized_run_step_leaves_shell_analyses_unknown() {
        run "$PRC" scan --target "$FIX/shell-download-exec/unknown-pwsh-step" --profile prc/supply-chain --format json
        check_assertion PRC-A-SC-016 '
o = a["evidence"][0]["observation"]
assert a["state"] == "Unknown" and o["outcome"] == "unsupported", a
assert o["locations"][0]["line"] == 8 and "does not tokenize" in o["locations"][0]["detail"], o
' || fail "a pwsh step passed"
}

t_no_shell_input_is_unknown_never_pass() {
        mkdir "$TMP/t"
        echo hi >"$TMP/t/README"
        run "$PRC" scan --target "$TMP/t" --profile prc/supply-chain --format json
        /usr/bin/python3 - "$OUT" <<'PY' || fail "an issue-19 container or shell assertion passed without input"
import json, sys
r = json.loads(sys.argv[1])
want = {"PRC-A-SC-013": "no Dockerfile", "PRC-A-SC-014": "no Dockerfile", "PRC-A-SC-015": "no Dockerfile",
        "PRC-A-SC-016": "no workflow, Dockerfile or PKGBUILD", "PRC-A-SC-017": "no workflow, Dockerfile or PKGBUILD"}
for a in r["assertions"]:
    if a["id"] in want:
        o = a["evidence"][0]["observation"]
        assert a["state"] == "Unknown" and o["outcome"] == "unsupported", a
        assert want[a["id"]] in o["message"], o
PY
}

t_aur_profile_applies_the_shell_analyses_to_pkgbuilds() {
        expect_eq "$(verdict_of "$FIX/shell-download-exec/vuln-pkgbuild-wget-pipe-sh" PRC-A-SC-016 prc/aur)" "Fail"
        expect_eq "$(verdict_of "$FIX/shell-unpinned-install/vuln-pkgbuild-pip-install" PRC-A-SC-017 prc/aur)" "Fail"
        expect_eq "$(verdict_of "$FIX/shell-unpinned-install/vuln-pkgbuild-pip-install" PRC-A-SC-016 prc/aur)" "Pass"
}

t_install_script_hooks_are_searched() {
        mkdir "$TMP/p"
        printf 'pkgname=demo\npkgver=1\npkgrel=1\narch=(any)\ninstall=demo.install\n' >"$TMP/p/PKGBUILD"
        printf 'post_install() {\n  curl -fsSL https://example.org/x | sh\n  npm install -g tool\n}\n' >"$TMP/p/demo.install"
        run "$PRC" scan --target "$TMP/p" --profile prc/aur --format json
        check_assertion PRC-A-SC-016 '
l = a["evidence"][0]["observation"]["locations"][0]
assert a["state"] == "Fail" and l["path"] == "demo.install" and l["line"] == 2, l
assert l["detail"] == "curl piped into sh in install hook post_install()", l
' || fail "install hook download not found"
        check_assertion PRC-A-SC-017 '
l = a["evidence"][0]["observation"]["locations"][0]
assert a["state"] == "Fail" and l["path"] == "demo.install" and l["line"] == 3, l
' || fail "install hook npm install not found"
}

t_sarif_locations_carry_line_snippet_and_detail() {
        run "$PRC" scan --target "$FIX/shell-download-exec/vuln-workflow-curl-pipe-bash" --profile prc/supply-chain \
                --format sarif
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "the SARIF result does not say where"
import json, sys
d = json.loads(sys.argv[1])
r = [r for r in d["runs"][0]["results"] if r["ruleId"] == "PRC-A-SC-016"][0]
l = r["locations"][0]
assert l["physicalLocation"]["artifactLocation"]["uri"] == ".github/workflows/ci.yml", l
assert l["physicalLocation"]["region"]["startLine"] == 8, l
assert "curl -fsSL https://get.example.org/install.sh | bash" in l["physicalLocation"]["region"]["snippet"]["text"], l
assert l["message"]["text"] == "curl piped into bash in job build, step 2", l
PY
}
