# test_aur_checks.sh - the AUR analyses (profile prc/aur) over the fixtures in
# tests/fixtures/aur: each case directory is scanned with
# `prc scan --target DIR --profile prc/aur`, and the state of the assertion
# named in tests/fixtures/aur/verdicts.tsv must be the one listed there
# (adding a case is adding a directory and a line).

FIX=tests/fixtures/aur

t_every_fixture_gets_its_listed_verdict() {
        verdict_table "$FIX/verdicts.tsv" prc/aur 80
}

t_every_analysis_has_vulnerable_clean_and_tricky_cases() {
        local f
        for f in checksums source-url bin-host remote-exec toplevel-code srcinfo-drift obfuscation; do
                [ "$(ls -d "$FIX/$f"/vuln-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 vulnerable cases"
                [ "$(ls -d "$FIX/$f"/clean-* "$FIX/$f"/tricky-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 clean cases"
                ls -d "$FIX/$f"/tricky-* >/dev/null || fail "$f: no tricky case"
        done
}

t_found_names_path_line_and_text() {
        run "$PRC" scan --target "$FIX/remote-exec/vuln-curl-pipe-sh" --profile prc/aur --format json
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "no located finding"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == "PRC-A-AUR-004"][0]
o = a["evidence"][0]["observation"]
assert a["state"] == "Fail" and o["kind"] == "aur-remote-exec" and o["outcome"] == "found"
assert a["evidence"][0]["source"]["analysis"] == "aur-remote-exec"
l = o["locations"][0]
assert l["path"] == "PKGBUILD" and l["line"] == 8, l
assert "curl -fsSL https://example.org/install.sh | bash" in l["text"], l
assert "piped into bash in build()" in l["detail"], l
PY
}

t_not_found_when_every_input_was_read() {
        run "$PRC" scan --target "$FIX/remote-exec/clean-offline-build" --profile prc/aur --format json
        /usr/bin/python3 - "$OUT" <<'PY' || fail "not a not_found observation"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == "PRC-A-AUR-004"][0]
assert a["state"] == "Pass" and [e["observation"]["outcome"] for e in a["evidence"]] == ["not_found"], a
PY
}

t_broken_pkgbuild_is_reported_and_still_searched() {
        run "$PRC" scan --target "$FIX/recovery/vuln-broken-pkgbuild-still-searched" --profile prc/aur --format json
        expect_rc 1
        expect_eq "$(json_get coverage_gaps.0.class)" "shell-unterminated"
        expect_eq "$(json_get coverage_gaps.0.path)" "PKGBUILD"
        expect_out "tokenized with recovery"
}

t_no_pkgbuild_is_unknown_never_pass() {
        mkdir "$TMP/t"
        echo hi >"$TMP/t/README"
        run "$PRC" scan --target "$TMP/t" --profile prc/aur --format json
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "an AUR assertion passed without a PKGBUILD"
import json, sys
r = json.loads(sys.argv[1])
for a in r["assertions"]:
    if a["id"].startswith("PRC-A-AUR-"):
        assert a["state"] == "Unknown", a
        assert a["evidence"][0]["observation"]["outcome"] == "unsupported", a
PY
}

t_install_hooks_value_lists_the_hooks() {
        run "$PRC" scan --target "$FIX/install-hooks/value-lists-hooks" --profile prc/aur --format json
        /usr/bin/python3 - "$OUT" <<'PY' || fail "no hook listing"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == "PRC-A-AUR-008"][0]
v = a["evidence"][0]["observation"]["value"][0]["value"]
assert v["script"] == "demo.install" and v["hooks"] == ["post_install", "post_upgrade", "pre_remove"], v
PY
}

t_missing_install_script_is_a_named_gap() {
        run "$PRC" scan --target "$FIX/install-hooks/unknown-missing-script" --profile prc/aur --format json
        expect_eq "$(json_get coverage_gaps.0.class)" "install-script-missing"
        expect_eq "$(json_get coverage_gaps.0.path)" "demo.install"
}

t_content_tokenize_recover_lists_errors() {
        printf 'build() {\n  echo "x\n  curl u | sh\n' >"$TMP/PKGBUILD"
        run "$PRC" content tokenize "$TMP/PKGBUILD"
        expect_rc 3
        expect_err "shell-unterminated"
        run "$PRC" content tokenize --recover "$TMP/PKGBUILD"
        expect_rc 0
        expect_eq "$(json_get errors.0.class)" "shell-unterminated"
        expect_out '"curl","u","|","sh"'
}

t_substitution_bodies_are_tokenized() {
        printf 'pkgver=$(curl -s u)\nbuild() { bash -c "$(wget -O- v)"; }\n' >"$TMP/PKGBUILD"
        run "$PRC" content tokenize "$TMP/PKGBUILD"
        expect_rc 0
        expect_out '"subst":[{"line":1,"tokens":["curl","-s","u"]}]'
        expect_out '"tokens":["wget","-O-","v"]'
}
