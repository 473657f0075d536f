# test_report.sh - issue 22: the reports made from the run result: SARIF 2.1.0 (validated against the
# official schema from the npm package scripts/setup.sh pins), HTML, the terminal, prc report,
# prc explain, baselines and suppressions.

SARIF_SCHEMA=${PRC_SARIF_SCHEMA:-${PRC_SARIF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/sarif}/package/lib/schemas/sarif-2.1.0-rtm.5.json}
AUR_FX=tests/fixtures/aur/remote-exec/vuln-saved-then-run

# py FILE 'statements over d (the JSON document in FILE)': a failed assert fails the test.
py() {
        /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])' "$1" "$2" ||
                fail "check failed on $1"
}

# A tree that fails PRC-A-CORE-005 (a binary) and PRC-A-CORE-001 (no README), with a bad manifest.
mk_failing() {
        mkdir -p "$1/src"
        printf 'SPDX-License-Identifier: MIT\n' >"$1/LICENSE"
        cp /bin/true "$1/tool"
        printf '{"name": \n' >"$1/package.json"
}

have_sarif_schema() {
        if [ ! -f "$SARIF_SCHEMA" ]; then
                echo "    the SARIF schema is absent ($SARIF_SCHEMA; run scripts/setup.sh): SARIF was not validated" >&2
                [ "${CI:-}" = "true" ] && return 1
                return 2
        fi
}

t_sarif_validates_against_the_official_2_1_0_schema() {
        have_sarif_schema || return $(( $? == 2 ? 0 : 1 ))
        mk_failing "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format sarif >"$TMP/a.sarif" && fail "exit 0 on a failing tree"
        "$PRC" scan --target "$AUR_FX" --profile prc/aur --format sarif >"$TMP/b.sarif" && fail "exit 0 on the AUR fixture"
        "$PRC" scan --target examples/basic --format sarif >"$TMP/c.sarif" || [ $? -eq 1 ] || fail "basic: exit $?"
        /usr/bin/python3 tests/cli/sarif_validate.py "$SARIF_SCHEMA" "$TMP/a.sarif" "$TMP/b.sarif" "$TMP/c.sarif" ||
                fail "not valid SARIF 2.1.0"
        # The validator is not vacuous: a level outside the schema's enum and a region at line 0 are refused.
        py "$TMP/b.sarif" 'd["runs"][0]["results"][0]["level"] = "fatal"; json.dump(d, open(sys.argv[1] + ".x", "w"))'
        ! /usr/bin/python3 tests/cli/sarif_validate.py "$SARIF_SCHEMA" "$TMP/b.sarif.x" 2>/dev/null ||
                fail "the validator accepted level fatal"
        py "$TMP/b.sarif" 'd["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
json.dump(d, open(sys.argv[1] + ".y", "w"))'
        ! /usr/bin/python3 tests/cli/sarif_validate.py "$SARIF_SCHEMA" "$TMP/b.sarif.y" 2>/dev/null ||
                fail "the validator accepted startLine 0"
}

t_sarif_results_carry_regions_fingerprints_and_levels() {
        run "$PRC" scan --target "$AUR_FX" --profile prc/aur --format sarif
        expect_rc 1
        printf '%s' "$OUT" >"$TMP/s.json"
        py "$TMP/s.json" '
run = d["runs"][0]
rs = {r["ruleId"]: r for r in run["results"]}
r = rs["PRC-A-AUR-004"]
pl = r["locations"][0]["physicalLocation"]
assert pl["artifactLocation"]["uri"] == "PKGBUILD", pl
assert pl["region"]["startLine"] == 11, pl
assert pl["region"]["snippet"]["text"].startswith("./setup.sh"), pl
assert len(r["partialFingerprints"]["prcFindingDigest/v1"]) == 64
assert r["level"] == "error" and r["properties"]["state"] == "Fail"        # a high-severity Fail
u = rs["PRC-A-AUR-006"]
assert u["level"] == "warning" and u["properties"]["state"] == "Unknown"   # never shown as clean
assert "region" not in u["locations"][0]["physicalLocation"]               # that evidence has no line
# passing assertions are rules, never results
ids = [x["id"] for x in run["tool"]["driver"]["rules"]]
assert "PRC-A-AUR-001" in ids and "PRC-A-AUR-001" not in rs
for x in run["results"]:
    assert run["tool"]["driver"]["rules"][x["ruleIndex"]]["id"] == x["ruleId"]
'
}

t_sarif_rules_carry_full_help_and_the_run_carries_provenance() {
        run "$PRC" scan --target "$AUR_FX" --profile prc/aur --format json --now 2026-01-02T03:04:05Z
        printf '%s' "$OUT" >"$TMP/r.json"
        run "$PRC" scan --target "$AUR_FX" --profile prc/aur --format sarif --now 2026-01-02T03:04:05Z
        printf '%s' "$OUT" >"$TMP/s.json"
        py "$TMP/s.json" '
r = json.load(open(sys.argv[1].replace("s.json", "r.json")))
run = d["runs"][0]
rule = [x for x in run["tool"]["driver"]["rules"] if x["id"] == "PRC-A-AUR-004"][0]
row = [a for a in r["assertions"] if a["id"] == "PRC-A-AUR-004"][0]
for part in ("rationale", "remediation", "decision_rule"):
    assert row[part] and row[part] in rule["help"]["text"], part
    assert row[part] in rule["help"]["markdown"], part
assert "Decision rule" in rule["help"]["text"] and "aur-remote-exec" in rule["help"]["text"]
assert rule["fullDescription"]["text"] == row["rationale"]
assert rule["properties"]["severity"] == row["severity"] and rule["properties"]["security-severity"] == "9.5"
p = run["properties"]
assert p["prc_run_id"] == r["id"] and p["inventory_digest"] == r["target"]["inventory_digest"]
assert p["catalog"] == r["catalog"] and p["mode"] == "inspect" and p["profile"] == "prc/aur"
assert p["now"] == "2026-01-02T03:04:05Z" and p["prc_version"] == r["prc_version"]
assert p["prc_content_floor"] == r["content_floor"]
'
}

# Fingerprints come from content: the same on a rerun, and when unrelated lines move.
t_sarif_fingerprints_survive_reruns_and_moved_lines() {
        cp -r "$AUR_FX" "$TMP/a"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format sarif >"$TMP/1.json" || true
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format sarif >"$TMP/2.json" || true
        cmp -s "$TMP/1.json" "$TMP/2.json" || fail "two runs differ"
        { printf '# a comment\n\n# another\n'; cat "$AUR_FX/PKGBUILD"; } >"$TMP/a/PKGBUILD"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format sarif >"$TMP/3.json" || true
        py "$TMP/1.json" '
e = json.load(open(sys.argv[1].replace("1.json", "3.json")))
def fp(doc):
    return {r["ruleId"]: (r["partialFingerprints"]["prcFindingDigest/v1"],
            r["locations"][0]["physicalLocation"].get("region", {}).get("startLine")) for r in doc["runs"][0]["results"]}
a, b = fp(d), fp(e)
assert a["PRC-A-AUR-004"][1] == 11 and b["PRC-A-AUR-004"][1] == 14, (a, b)
assert a["PRC-A-AUR-004"][0] == b["PRC-A-AUR-004"][0], (a, b)
'
        # A changed finding is a new fingerprint.
        sed -i 's|--prefix|--root|' "$TMP/a/PKGBUILD"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format sarif >"$TMP/4.json" || true
        py "$TMP/1.json" '
e = json.load(open(sys.argv[1].replace("1.json", "4.json")))
fa = [r["partialFingerprints"] for r in d["runs"][0]["results"] if r["ruleId"] == "PRC-A-AUR-004"]
fb = [r["partialFingerprints"] for r in e["runs"][0]["results"] if r["ruleId"] == "PRC-A-AUR-004"]
assert fa and fb and fa != fb, (fa, fb)
'
}

# Paths are percent-encoded into URI references; each finding of several files is its own result.
t_sarif_uris_are_encoded_and_each_finding_is_a_result() {
        mkdir -p "$TMP/t/sub dir"
        cp /bin/true "$TMP/t/sub dir/a b#c"
        cp /bin/true "$TMP/t/tool"
        run "$PRC" scan --target "$TMP/t" --format sarif
        expect_rc 1
        printf '%s' "$OUT" >"$TMP/s.json"
        py "$TMP/s.json" '
rs = [r for r in d["runs"][0]["results"] if r["ruleId"] == "PRC-A-CORE-005"]
uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in rs)
assert uris == ["sub%20dir/a%20b%23c", "tool"], uris
assert len({r["partialFingerprints"]["prcFindingDigest/v1"] for r in rs}) == 2
'
}
