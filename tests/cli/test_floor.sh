# test_floor.sh - --content-floor and PRC_CONTENT_FLOOR (issue 23) on hosts below the strict
# floor.  This machine has Landlock ABI 7 and user namespaces, so the lower cases are forced
# in the test build ($TPRC, PRC_TESTING): PRC_TEST_LANDLOCK_ABI=N|none and
# PRC_TEST_USERNS=denied make the floor see such a host.  The release prc ignores both.

TPRC=$PRC_ROOT/build/test/prc

mk_tree() {
        mkdir -p "$1"
        printf '# project\n' >"$1/README.md"
        printf '{"name":"x","version":"1.0.0"}\n' >"$1/package.json"
}

# field PATH: a dotted path of the run result in $OUT.
floor_of() { json_get "content_floor.$1"; }
gap_reason() { /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print(" | ".join(g["class"] + ": " + g["reason"] for g in r["coverage_gaps"]))' <<<"$OUT"; }

t_default_refuses_an_older_landlock_and_names_the_option() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=4 run "$TPRC" scan --target "$TMP/t" --format json
        expect_rc 1
        [ "$(floor_of level)" = strict ] || fail "level $(floor_of level)"
        [ "$(floor_of worker)" = refused ] || fail "worker $(floor_of worker)"
        g=$(gap_reason)
        grep -qF 'floor-unavailable: landlock: kernel ABI 4 is below the required 6; --content-floor landlock' <<<"$g" ||
                fail "gap: $g"
        grep -qF 'loses the signal and abstract-socket scopes' <<<"$g" || fail "gap: $g"
        PRC_TEST_LANDLOCK_ABI=4 run "$TPRC" scan --target "$TMP/t"
        expect_out "content floor strict: refused on this host"
        expect_out "package.json: floor-unavailable"
}

t_default_refuses_a_kernel_without_landlock_and_names_seccomp() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=none run "$TPRC" scan --target "$TMP/t" --format json
        expect_rc 1
        grep -qF -- '--content-floor seccomp serves without Landlock' <<<"$(gap_reason)" || fail "gap: $(gap_reason)"
}

t_landlock_level_serves_an_older_abi_and_records_it() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=4 run "$TPRC" scan --target "$TMP/t" --format json --content-floor landlock
        [ "$(floor_of level)" = landlock ]
        [ "$(floor_of worker)" = served ]
        [ "$(floor_of landlock_abi)" = 4 ] || fail "abi $(floor_of landlock_abi)"
        [ "$(floor_of layers.landlock)" = applied ]
        [ "$(json_get coverage_gaps)" = "[]" ] || fail "gaps: $(json_get coverage_gaps)"
        # The manifests assertion rests on the worker: its evidence names the floor too.
        [ "$(json_get assertions.3.id)" = PRC-A-CORE-004 ]
        [ "$(json_get assertions.3.state)" = Pass ]
        [ "$(json_get assertions.3.evidence.0.source.content_floor.level)" = landlock ]
        [ "$(json_get assertions.3.evidence.0.source.content_floor.landlock_abi)" = 4 ]
        PRC_TEST_LANDLOCK_ABI=4 run "$TPRC" scan --target "$TMP/t" --content-floor landlock
        expect_out "content floor landlock (chosen): Landlock ABI 4 without the signal and abstract-socket scopes"
}

t_seccomp_level_serves_without_landlock_and_records_it() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=none PRC_CONTENT_FLOOR=seccomp run "$TPRC" scan --target "$TMP/t" --format json
        [ "$(floor_of level)" = seccomp ]
        [ "$(floor_of worker)" = served ]
        [ "$(floor_of landlock_abi)" = 0 ]
        [ "$(floor_of layers.landlock)" = skipped ]
        [ "$(floor_of layers.seccomp)" = applied ]
        [ "$(json_get coverage_gaps)" = "[]" ] || fail "gaps: $(json_get coverage_gaps)"
        PRC_TEST_LANDLOCK_ABI=none run "$TPRC" scan --target "$TMP/t" --content-floor seccomp
        expect_out "content floor seccomp (chosen): no Landlock"
}

t_result_ids_differ_between_floors_and_not_within_one() {
        mk_tree "$TMP/t"
        for l in strict landlock seccomp; do
                "$PRC" scan --target "$TMP/t" --format json --content-floor "$l" >"$TMP/$l.json" || [ $? -eq 1 ]
        done
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/default.json" || [ $? -eq 1 ]
        cmp "$TMP/strict.json" "$TMP/default.json" || fail "the default is not strict"
        OUT=$(cat "$TMP/strict.json"); a=$(json_get id)
        OUT=$(cat "$TMP/landlock.json"); b=$(json_get id)
        OUT=$(cat "$TMP/seccomp.json"); c=$(json_get id)
        [ "$a" != "$b" ] && [ "$b" != "$c" ] && [ "$a" != "$c" ] || fail "ids: $a $b $c"
}

t_a_level_the_host_cannot_give_is_refused() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=none run "$TPRC" scan --target "$TMP/t" --format json --content-floor landlock
        expect_rc 1
        [ "$(floor_of worker)" = refused ]
        grep -qF 'floor-unavailable: landlock: not available' <<<"$(gap_reason)" || fail "gap: $(gap_reason)"
        for l in strict landlock seccomp; do
                PRC_TEST_USERNS=denied run "$TPRC" scan --target "$TMP/t" --format json --content-floor "$l"
                expect_rc 1
                [ "$(floor_of worker)" = refused ] || fail "$l: $(floor_of worker)"
                grep -qF 'floor-unavailable: userns: unshare(CLONE_NEWUSER)' <<<"$(gap_reason)" || fail "$l: $(gap_reason)"
        done
}

t_apparmor_restriction_is_named_with_sysctl_and_profile() {
        mkdir -p "$TMP/proc/sys/kernel" "$TMP/proc/self/attr/apparmor"
        echo 1 >"$TMP/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
        echo unconfined >"$TMP/proc/self/attr/apparmor/current"
        PRC_TEST_USERNS=denied PRC_TEST_PROC="$TMP/proc" run "$TPRC" sandbox probe --content-floor seccomp
        expect_rc 3
        expect_out "kernel.apparmor_restrict_unprivileged_userns=1"
        expect_out "profile 'unconfined'"
        expect_out "contrib/apparmor/prc"
}

t_probe_says_the_level_and_the_landlock_abi_used() {
        run "$PRC" sandbox probe
        expect_rc 0
        expect_out "floor level:   strict"
        expect_out "rights of ABI 6 handled"
        PRC_TEST_LANDLOCK_ABI=9 run "$TPRC" sandbox probe --format json
        expect_rc 0
        [ "$(json_get landlock_abi)" = 9 ] && [ "$(json_get landlock_abi_used)" = 6 ] || fail "$OUT"
        grep -qF 'newer than prc knows (7)' <<<"$OUT" || fail "$OUT"
        PRC_TEST_LANDLOCK_ABI=3 run "$TPRC" sandbox probe --content-floor landlock --format json
        expect_rc 0
        [ "$(json_get level)" = landlock ] && [ "$(json_get floor.landlock_abi)" = 3 ] || fail "$OUT"
        PRC_TEST_LANDLOCK_ABI=3 run "$TPRC" sandbox probe
        expect_rc 3
        expect_out "kernel ABI 3 is below the required 6; --content-floor landlock"
}

t_every_worker_command_takes_the_option_once() {
        printf '{"a":1}\n' >"$TMP/a.json"
        printf 'pkgname=x\n' >"$TMP/PKGBUILD"
        run "$PRC" content parse --format json "$TMP/a.json" --content-floor seccomp
        expect_rc 0; expect_out '{"a":1}'
        run "$PRC" content parse --content-floor=landlock --format json "$TMP/a.json"
        expect_rc 0
        run "$PRC" content tokenize --content-floor seccomp "$TMP/PKGBUILD"
        expect_rc 0
        tar -C "$TMP" -cf "$TMP/a.tar" a.json
        run "$PRC" content archive "$TMP/a.tar" --content-floor seccomp
        expect_rc 0
        run "$PRC" sandbox probe --content-floor seccomp
        expect_rc 0; expect_out "landlock       skipped"
        run "$PRC" verify "$TMP" --content-floor nonsense
        expect_rc 2; expect_err "--content-floor takes strict, landlock or seccomp, not 'nonsense'"
        run "$PRC" content parse --format json "$TMP/a.json" --content-floor seccomp --content-floor strict
        expect_rc 2; expect_err "given twice"
        PRC_CONTENT_FLOOR=weak run "$PRC" content parse --format json "$TMP/a.json"
        expect_rc 2; expect_err "PRC_CONTENT_FLOOR takes strict, landlock or seccomp"
        # A command that starts no worker does not take it.
        run "$PRC" inventory --target "$TMP" --content-floor seccomp
        expect_rc 2
        run "$PRC" scan --help
        expect_out "--content-floor strict|landlock|seccomp"
}

t_release_build_ignores_the_test_fakes() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=none PRC_TEST_USERNS=denied run "$PRC" scan --target "$TMP/t" --format json
        [ "$(floor_of worker)" = served ] && [ "$(floor_of landlock_abi)" = 6 ] || fail "$(json_get content_floor)"
}

t_results_under_each_floor_validate_and_sarif_says_it() {
        mk_tree "$TMP/t"
        PRC_TEST_LANDLOCK_ABI=4 "$TPRC" scan --target "$TMP/t" --format json >"$TMP/refused.json" || [ $? -eq 1 ]
        "$PRC" scan --target "$TMP/t" --format json --content-floor seccomp >"$TMP/seccomp.json" || [ $? -eq 1 ]
        rm "$TMP/t/package.json"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/none.json" || [ $? -eq 1 ]
        OUT=$(cat "$TMP/none.json")
        [ "$(floor_of worker)" = not-started ] || fail "$(json_get content_floor)"
        for f in refused seccomp none; do
                /usr/bin/python3 - "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/$f.json" <<'PY' || fail "$f"
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
        done
        mk_tree "$TMP/t"
        run "$PRC" scan --target "$TMP/t" --format sarif --content-floor seccomp
        [ "$(json_get runs.0.properties.prc_content_floor.level)" = seccomp ] || fail "$OUT"
}

# docs/ci.md shows the shipped files verbatim; the workflow and the action follow the rules they
# teach: every action pinned by a full SHA (or local), minimal permissions, no ${{ }} in run:.
t_ci_files_pin_actions_and_keep_expressions_out_of_scripts() {
        /usr/bin/python3 - "$PRC_ROOT" <<'PY'
import re, sys, yaml
root = sys.argv[1]
doc = open(f"{root}/docs/ci.md").read()
for f in (".github/workflows/prc.yml", "action.yml", "examples/ci/gitlab-ci.yml"):
    text = open(f"{root}/{f}").read()
    assert "```yaml\n" + text + "```" in doc, f"docs/ci.md does not show {f} verbatim"
wf = yaml.safe_load(open(f"{root}/.github/workflows/prc.yml"))
act = yaml.safe_load(open(f"{root}/action.yml"))
assert wf["permissions"] == {}, "workflow: top-level permissions must be {}"
steps = []
for name, job in wf["jobs"].items():
    assert set(job["permissions"]) <= {"contents", "security-events"}, job["permissions"]
    assert all(v in ("read", "write") for v in job["permissions"].values())
    steps += job["steps"]
steps += act["runs"]["steps"]
for s in steps:
    u = s.get("uses")
    if u is not None:
        assert u.startswith("./") or re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u), f"unpinned: {u}"
    if "run" in s:
        assert "${{" not in s["run"], f"expression in run: {s['run'][:60]}"
assert set(act["inputs"]) == {"profile", "floor", "output"}
assert act["inputs"]["floor"]["required"] is True and "default" not in act["inputs"]["floor"]
assert any("--content-floor" in s.get("run", "") for s in act["runs"]["steps"])
assert any(s.get("uses") == "./" and s["with"]["floor"] in ("strict", "landlock", "seccomp") for s in wf["jobs"]["prc"]["steps"])
gl = yaml.safe_load(open(f"{root}/examples/ci/gitlab-ci.yml"))
assert gl["prc"]["variables"]["PRC_CONTENT_FLOOR"] in ("strict", "landlock", "seccomp")
PY
}

# The profile grants user namespaces to prc's binary and nothing else (apparmor_parser is not
# on this machine: the text is checked).
t_apparmor_profile_grants_userns_to_prc_alone() {
        p="$PRC_ROOT/contrib/apparmor/prc"
        grep -qE '^profile prc /usr/\{local/,\}bin/prc flags=\(unconfined\) \{$' "$p"
        [ "$(grep -cE '^\s+[a-z]' "$p")" = 2 ] || fail "rules: $(grep -E '^\s+[a-z]' "$p")"
        grep -qE '^\s+userns,$' "$p"
        grep -qE '^\s+include if exists <local/prc>$' "$p"
}
