# test_analyses_deps.sh - the dependency analyses (issue 19, PRC-A-SC-018 to
# SC-023, src/analysis/deps.c) over tests/fixtures/analyses/deps-*: each case
# directory is scanned with `prc scan --target DIR --profile prc/supply-chain`
# and the state of the assertion named in tests/fixtures/analyses/deps.tsv must
# be the one listed there (adding a case is adding a directory and a line).

FIX=tests/fixtures/analyses
IDS="deps-lockfile-missing deps-lockfile-drift deps-integrity-missing deps-non-registry-source deps-install-scripts
deps-registry-confusion"

# scan DIR -> $OUT holds the JSON result
scan() {
        run "$PRC" scan --target "$1" --profile prc/supply-chain --format json
}

t_every_fixture_gets_its_listed_verdict() {
        verdict_table "$FIX/deps.tsv" prc/supply-chain 60
}

t_every_analysis_has_vulnerable_clean_and_tricky_cases() {
        local f
        for f in $IDS; do
                [ "$(ls -d "$FIX/$f"/vuln-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 vulnerable cases"
                [ "$(ls -d "$FIX/$f"/clean-* "$FIX/$f"/tricky-* | wc -l)" -ge 3 ] || fail "$f: fewer than 3 clean cases"
                ls -d "$FIX/$f"/tricky-* >/dev/null || fail "$f: no tricky case"
                grep -q "^$f/" "$FIX/deps.tsv" || fail "$f: no verdict listed"
        done
}

# Every found observation of every vulnerable case names path, line and text, and its source is the analysis.
t_found_names_path_line_and_text() {
        local d a want
        while IFS=$'\t' read -r d a want; do
                case $d in \#*|"") continue ;; esac
                [ "$want" = Fail ] || continue
                scan "$FIX/$d"
                /usr/bin/python3 - "$OUT" "$a" "${d%%/*}" <<'PY' || fail "$d: a finding without path, line or text"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == sys.argv[2]][0]
f = [e for e in a["evidence"] if e["observation"]["outcome"] == "found"]
assert f, a
for e in f:
    assert e["source"]["analysis"] == sys.argv[3] and e["observation"]["kind"] == sys.argv[3], e
    for l in e["observation"]["locations"]:
        assert l["path"] and l["line"] >= 1 and l["text"], l
PY
        done <"$FIX/deps.tsv"
}

t_drift_names_the_locked_version_and_range() {
        scan "$FIX/deps-lockfile-drift/vuln-npm-locked-outside-range"
        expect_rc 1
        /usr/bin/python3 - "$OUT" <<'PY' || fail "drift evidence"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == "PRC-A-SC-019"][0]
l = a["evidence"][0]["observation"]["locations"][0]
assert l == {"path": "package.json", "line": 6, "text": "esbuild ^0.24.0",
             "detail": "locked at 0.21.5 (line 14) in package-lock.json, outside ^0.24.0"}, l
PY
}

t_unread_range_is_unsupported_never_pass() {
        scan "$FIX/deps-lockfile-drift/tricky-npm-dist-tag-is-unknown"
        /usr/bin/python3 - "$OUT" <<'PY' || fail "a dist-tag passed or failed"
import json, sys
r = json.loads(sys.argv[1])
a = [a for a in r["assertions"] if a["id"] == "PRC-A-SC-019"][0]
o = a["evidence"][0]["observation"]
assert a["state"] == "Unknown" and o["outcome"] == "unsupported", a
assert "latest" in o["locations"][0]["detail"], o
PY
}

t_refused_lockfile_leaves_every_deps_assertion_unknown_or_failed() {
        scan "$FIX/deps-lockfile-missing/tricky-refused-lockfile-is-unknown"
        expect_eq "$(json_get coverage_gaps.0.class)" "extract-version"
        /usr/bin/python3 - "$OUT" <<'PY' || fail "a deps assertion passed over a refused lockfile"
import json, sys
r = json.loads(sys.argv[1])
for n in range(18, 24):
    a = [a for a in r["assertions"] if a["id"] == "PRC-A-SC-%03d" % n][0]
    assert a["state"] in ("Unknown", "Fail"), a
PY
}

t_no_manifest_is_unsupported() {
        mkdir "$TMP/t"
        echo hi >"$TMP/t/README"
        scan "$TMP/t"
        /usr/bin/python3 - "$OUT" <<'PY' || fail "a deps assertion passed without a manifest"
import json, sys
r = json.loads(sys.argv[1])
for n in range(18, 24):
    a = [a for a in r["assertions"] if a["id"] == "PRC-A-SC-%03d" % n][0]
    assert a["state"] == "Unknown", a
    assert a["evidence"][0]["observation"]["outcome"] == "unsupported", a
PY
}

t_locked_install_scripts_come_from_the_extraction() {
        run "$PRC" content extract "$FIX/deps-install-scripts/vuln-locked-dependency-with-install-script/package-lock.json"
        expect_rc 0
        expect_out '"install_scripts":[{"dependency":0,"line":14}]'
}
