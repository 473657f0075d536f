# test_scan.sh - `prc scan`: each bundled assertion passing and failing, Blocked
# in inspect mode, determinism, the schema, usage and catalog errors.

mk_good() {
        mkdir -p "$1/src"
        printf '# project\n' >"$1/README.md"
        printf 'SPDX-License-Identifier: MIT\n' >"$1/LICENSE"
        printf 'Mail security@example.invalid\n' >"$1/SECURITY.md"
        printf '{"name":"x","version":"1.0.0"}\n' >"$1/package.json"
        printf 'int main(void) { return 0; }\n' >"$1/src/main.c"
}

# state_of ID: the state of assertion ID in $OUT (a JSON run result).
state_of() {
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print([a["state"] for a in r["assertions"] if a["id"]==sys.argv[1]][0])' "$1" <<<"$OUT"
}

t_good_tree_passes_every_builtin_core_assertion() {
        mk_good "$TMP/t"
        run "$PRC" scan --target "$TMP/t" --format json
        # PRC-A-CORE-013 (secrets, through Gitleaks) stays Blocked: inspect mode never launches containers.
        expect_rc 1
        [ "$(json_get summary.pass)" = 6 ] || fail "summary: $(json_get summary)"
        [ "$(json_get summary.blocked)" = 1 ] || fail "summary: $(json_get summary)"
        [ "$(state_of PRC-A-CORE-013)" = Blocked ]
        [ "$(json_get mode)" = inspect ]
}

t_catalog_only_profile_passes_with_exit_0() {
        mk_good "$TMP/t"
        mkdir "$TMP/cat"
        sed -e '/^      - PRC-A-CORE-013$/d' "$PRC_ROOT/catalog/catalog.yaml" >"$TMP/cat/catalog.yaml"
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --format json
        expect_rc 0
        [ "$(json_get summary.total)" = 6 ]
}

t_two_scans_are_byte_identical_and_a_byte_changes_the_id() {
        mk_good "$TMP/t"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/a.json" || [ $? -eq 1 ]
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/b.json" || [ $? -eq 1 ]
        cmp "$TMP/a.json" "$TMP/b.json" || fail "two scans differ"
        printf 'int main(void) { return 1; }\n' >"$TMP/t/src/main.c"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/c.json" || [ $? -eq 1 ]
        OUT=$(cat "$TMP/a.json"); a=$(json_get id)
        OUT=$(cat "$TMP/c.json"); c=$(json_get id)
        [ "$a" != "$c" ] || fail "a one-byte change kept the result id"
}

t_result_validates_against_its_schema() {
        mk_good "$TMP/t"
        rm "$TMP/t/README.md"
        printf '{bad' >"$TMP/t/package.json"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/r.json" || [ $? -eq 1 ]
        /usr/bin/python3 - "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/r.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
PY
}

t_readme_missing_fails_empty_is_unknown() {
        mk_good "$TMP/t"
        rm "$TMP/t/README.md"
        run "$PRC" scan --target "$TMP/t" --format json
        expect_rc 1
        [ "$(state_of PRC-A-CORE-001)" = Fail ]
        : >"$TMP/t/README"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-001)" = Unknown ]
}

t_license_missing_fails_unrecognized_is_unknown() {
        mk_good "$TMP/t"
        rm "$TMP/t/LICENSE"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-002)" = Fail ]
        printf 'All rights reserved.\n' >"$TMP/t/COPYING"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-002)" = Unknown ]
}

t_security_policy_missing_fails() {
        mk_good "$TMP/t"
        rm "$TMP/t/SECURITY.md"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-003)" = Fail ]
        mkdir -p "$TMP/t/.github" && printf 'mail us\n' >"$TMP/t/.github/SECURITY.md"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-003)" = Pass ]
}

t_unparseable_manifest_is_a_gap_and_fails() {
        mk_good "$TMP/t"
        printf '{"name": "x", "name": "y"}\n' >"$TMP/t/package.json"
        run "$PRC" scan --target "$TMP/t" --format json
        expect_rc 1
        [ "$(state_of PRC-A-CORE-004)" = Fail ]
        [ "$(json_get coverage_gaps.0.path)" = package.json ]
        [ "$(json_get coverage_gaps.0.class)" = duplicate-field ]
}

# Issue 16: real editor settings are not attacks: a JSONC float parses, with no coverage gap.
t_vscode_settings_float_parses_without_a_gap() {
        mk_good "$TMP/t"
        mkdir -p "$TMP/t/.vscode"
        printf '{\n  // editor\n  "editor.fontSize": 13.5,\n  "editor.lineHeight": 1.6e0,\n}\n' >"$TMP/t/.vscode/settings.json"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-004)" = Pass ] || fail "CORE-004: $(json_get coverage_gaps)"
        [ "$(json_get coverage_gaps)" = "[]" ] || fail "gaps: $(json_get coverage_gaps)"
        run "$PRC" content parse --format jsonc "$TMP/t/.vscode/settings.json"
        expect_rc 0
        expect_out '13.5'
}

# Issue 16: an ISO-8859-1 pom.xml is read (expat decodes it), and the document is UTF-8.
t_latin1_pom_parses_without_a_gap() {
        mk_good "$TMP/t"
        # A whole POM (Maven, and prc's extractor, refuse one without groupId and artifactId).
        printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version><name>caf\351</name></project>\n' >"$TMP/t/pom.xml"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-004)" = Pass ] || fail "CORE-004: $(json_get coverage_gaps)"
        [ "$(json_get coverage_gaps)" = "[]" ] || fail "gaps: $(json_get coverage_gaps)"
        run "$PRC" content parse --format xml "$TMP/t/pom.xml"
        expect_rc 0
        grep -q 'caf\(é\|\\u00e9\)' <<<"$OUT" || fail "no UTF-8 'café' in: $OUT"
        printf '<?xml version="1.0" encoding="windows-1252"?>\n<project/>\n' >"$TMP/t/pom.xml"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-004)" = Fail ]
        [ "$(json_get coverage_gaps.0.class)" = xml-encoding ]
}

t_hostile_yaml_workflow_is_refused_not_clean() {
        mk_good "$TMP/t"
        mkdir -p "$TMP/t/.github/workflows"
        { printf 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
          for i in 1 2 3 4 5 6 7 8; do printf 'b%s: &b%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' $i $i \
                  $( [ $i = 1 ] && echo "a a a a a a a a a" || p=b$((i-1)); [ $i = 1 ] || echo "$p $p $p $p $p $p $p $p $p"); done
        } >"$TMP/t/.github/workflows/ci.yml"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-004)" = Fail ]
        [ "$(json_get coverage_gaps.0.path)" = .github/workflows/ci.yml ]
}

t_committed_elf_fails() {
        mk_good "$TMP/t"
        cp /bin/true "$TMP/t/tool"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-005)" = Fail ]
        grep -q '"format":"elf"' <<<"$OUT" || fail "no elf location in the evidence"
}

# Issue 16: .hg (and .svn) are inventoried: an ELF at .hg/tool passed before.
t_elf_under_hg_fails_binaries() {
        mk_good "$TMP/t"
        mkdir "$TMP/t/.hg" && cp /bin/true "$TMP/t/.hg/tool"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-005)" = Fail ]
        grep -q '"path":".hg/tool"' <<<"$OUT" || fail "no .hg/tool location in the evidence"
        [ "$(json_get target.excluded_paths)" = '[]' ]
        run "$PRC" scan --target "$TMP/t"
        expect_out "PRC-A-CORE-005   Fail         1 executable binaries in the tree"
}

# Issue 16: a root .prc is left out, named, and no whole-tree assertion passes; a .git directory changes nothing.
t_prc_namespace_in_target_is_named_and_unknown() {
        mk_good "$TMP/t"
        mkdir -p "$TMP/t/.prc" "$TMP/t/.git" && cp /bin/true "$TMP/t/.prc/tool" && cp /bin/true "$TMP/t/.git/hook"
        run "$PRC" scan --target "$TMP/t" --format json
        expect_rc 1
        [ "$(state_of PRC-A-CORE-004)" = Unknown ] || fail "manifests: $(state_of PRC-A-CORE-004)"
        [ "$(state_of PRC-A-CORE-005)" = Unknown ] || fail "binaries: $(state_of PRC-A-CORE-005)"
        [ "$(state_of PRC-A-CORE-006)" = Unknown ] || fail "oversized: $(state_of PRC-A-CORE-006)"
        [ "$(state_of PRC-A-CORE-001)" = Pass ]
        [ "$(json_get target.excluded_paths)" = '[".git", ".prc"]' ]
        [ "$(json_get coverage_gaps.0.path)" = .prc ]
        [ "$(json_get coverage_gaps.0.class)" = excluded-path ]
        printf '%s' "$OUT" >"$TMP/r.json"
        /usr/bin/python3 - "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/r.json" <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
        rm -r "$TMP/t/.prc"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-005)" = Pass ]
        [ "$(json_get target.excluded_paths)" = '[".git"]' ]
}

# Issue 16: a gitfile (worktree, submodule) is an ordinary file of the inventory.
t_git_file_at_root_is_inventoried() {
        mk_good "$TMP/t"
        printf 'gitdir: /elsewhere/.git/worktrees/t\n' >"$TMP/t/.git"
        run "$PRC" inventory --target "$TMP/t" --format json
        grep -q '"path":".git"' <<<"$OUT" || fail ".git file not inventoried"
        [ "$(json_get excluded)" = '[]' ]
}

# Issue 16: the binaries analysis reads the head of every file, whatever its size.
t_elf_above_10_mib_fails_binaries() {
        mk_good "$TMP/t"
        { cat /bin/true; head -c $((11 * 1024 * 1024)) /dev/zero; } >"$TMP/t/big-tool"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-005)" = Fail ] || fail "binaries: $(state_of PRC-A-CORE-005)"
        [ "$(state_of PRC-A-CORE-006)" = Fail ]
        grep -q '"path":"big-tool"' <<<"$OUT" || fail "no big-tool location"
}

# Issue 16: a symlinked manifest is counted and named as a gap, never skipped.
t_symlinked_manifest_is_a_gap() {
        mk_good "$TMP/t"
        mv "$TMP/t/package.json" "$TMP/t/pkg.txt" && ln -s pkg.txt "$TMP/t/package.json"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-004)" = Fail ]
        [ "$(json_get coverage_gaps.0.path)" = package.json ]
        [ "$(json_get coverage_gaps.0.class)" = manifest-symlink ]
}

t_oversized_file_fails_core_006() {
        mk_good "$TMP/t"
        head -c $((11 * 1024 * 1024)) /dev/zero >"$TMP/t/big.dat"
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-006)" = Fail ]
        [ "$(state_of PRC-A-CORE-005)" = Pass ]
}

t_unrepresentable_name_makes_whole_tree_checks_unknown() {
        mk_good "$TMP/t"
        printf 'x' >"$TMP/t/"$'bad\nname'
        run "$PRC" scan --target "$TMP/t" --format json
        [ "$(state_of PRC-A-CORE-005)" = Unknown ] || fail "binaries: $(state_of PRC-A-CORE-005)"
        [ "$(state_of PRC-A-CORE-001)" = Pass ]
        expect_rc 1
}

t_adapter_bound_assertion_is_blocked_in_inspect_mode() {
        mk_good "$TMP/t"
        mkdir "$TMP/cat"
        cat >"$TMP/cat/catalog.yaml" <<'YAML'
schema: prc.catalog/v1
catalog_id: t
revision: 1
controls: [{id: C, title: c}]
assertions:
  - id: A-SECRETS
    control: C
    title: no secrets
    rationale: r
    remediation: m
    severity: high
    bindings:
      - adapter_id: prc.adapter.gitleaks@8.30
        manifest_sha256: "0000000000000000000000000000000000000000000000000000000000000000"
        observation_kind: secret
profiles: [{id: p, title: p, assertions: [A-SECRETS]}]
YAML
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --format json
        expect_rc 1
        [ "$(state_of A-SECRETS)" = Blocked ]
        grep -q 'inspect mode never launches containers' <<<"$OUT" || fail "no Blocked reason"
}

t_text_output_has_table_and_summary() {
        mk_good "$TMP/t"
        run "$PRC" scan --target "$TMP/t"
        expect_rc 1
        expect_out "PRC-A-CORE-001   Pass"
        expect_out "PRC-A-CORE-013   Blocked      inspect mode never launches containers"
        expect_out "7 assertions: 6 pass, 0 fail, 0 unknown, 0 conflicting, 1 blocked"
}

t_usage_errors_exit_2() {
        run "$PRC" scan; expect_rc 2; expect_err "--target DIR is required"
        run "$PRC" scan --target . --mode fast; expect_rc 2
        run "$PRC" scan --target . --now yesterday; expect_rc 2
        run "$PRC" scan --target . --format xml; expect_rc 2
        run "$PRC" scan --target . --profile prc/none; expect_rc 2; expect_err unknown-profile
}

t_symlinked_catalog_root_is_refused() {
        mk_good "$TMP/t"
        ln -s "$PRC_ROOT/catalog" "$TMP/catlink"
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/catlink"
        expect_rc 3
        expect_err catalog-path
}

t_missing_target_is_an_execution_error() {
        run "$PRC" scan --target "$TMP/nope"
        expect_rc 3
        expect_err io-error
}

t_state_dir_holds_the_run_record_under_its_id() {
        mk_good "$TMP/t"
        run "$PRC" scan --target "$TMP/t" --format json --state-dir "$TMP/state"
        expect_rc 1
        id=$(json_get id)
        [ -f "$TMP/state/runs/$id.json" ] || fail "no runs/$id.json"
        [ "$(cat "$TMP/state/runs/$id.json")" = "$OUT" ] || fail "stored record differs from stdout"
        [ "$(stat -c %a "$TMP/state/runs")" = 700 ]
}

t_sarif_lists_assertions_that_did_not_pass() {
        mk_good "$TMP/t"
        cp /bin/true "$TMP/t/tool"
        run "$PRC" scan --target "$TMP/t" --format sarif
        expect_rc 1
        [ "$(json_get version)" = 2.1.0 ]
        [ "$(json_get runs.0.results.0.ruleId)" = PRC-A-CORE-005 ]
        [ "$(json_get runs.0.results.0.locations.0.physicalLocation.artifactLocation.uri)" = tool ]
}

t_command_group_help_lists_subcommands() {
        run "$PRC" adapter --help
        expect_rc 0
        expect_out "prc adapter validate-output"
        run "$PRC" adapter no-such-subcommand
        expect_rc 2
        expect_err "subcommands of 'prc adapter'"
}

# A catalog binding the fixture adapter (by its real digest) and a plain tree.
mk_bound_catalog() {
        local digest
        digest=$("$PRC" doc digest "$PRC_ROOT/fixtures/adapters/fixture-adapter.yaml")
        mkdir -p "$1"
        cat >"$1/catalog.yaml" <<YAML
schema: prc.catalog/v1
catalog_id: t
revision: 1
controls: [{id: C, title: c}]
assertions:
  - id: A-FIX
    control: C
    title: fixture
    rationale: r
    remediation: m
    severity: high
    bindings:
      - {adapter_id: prc.adapter.fixture@1.0, manifest_sha256: "$digest", observation_kind: fixture.secret}
profiles: [{id: p, title: p, assertions: [A-FIX]}]
YAML
}

t_adapter_flags_need_verify_local_and_exclude_each_other() {
        mk_good "$TMP/t"
        m="$PRC_ROOT/fixtures/adapters/fixture-adapter.yaml"
        r="$PRC_ROOT/fixtures/registry/adapter-registry.yaml"
        run "$PRC" scan --target "$TMP/t" --adapter-manifest "$m"; expect_rc 2; expect_err "verify-local"
        run "$PRC" scan --target "$TMP/t" --mode verify-local --adapter-manifest "$m" --adapter-registry "$r" \
                --adapter-id prc.adapter.example@1.0; expect_rc 2; expect_err "mutually exclusive"
        run "$PRC" scan --target "$TMP/t" --mode verify-local --adapter-registry "$r"; expect_rc 2
        run "$PRC" scan --target "$TMP/t" --mode verify-local --adapter-manifest "$m" --adapter-manifest "$m"
        expect_rc 2; expect_err adapter-repeated
        run "$PRC" scan --target "$TMP/t" --mode verify-local --adapter-manifest "$m" --adapter-data 'x@1/db=/tmp'
        expect_rc 2; expect_err "not in the set"
        run "$PRC" scan --target "$TMP/t" --mode verify-local --max-duration 0; expect_rc 2
}

t_catalog_unbound_adapters_are_refused_by_policy() {
        mk_good "$TMP/t"
        mk_bound_catalog "$TMP/cat"
        # Registry-approved, but no assertion of the profile binds it.
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-registry "$PRC_ROOT/fixtures/registry/adapter-registry.yaml" --adapter-id prc.adapter.example@1.0
        expect_rc 4; expect_err adapter-unbound
        # Denied by the registry's default policy.
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-registry "$PRC_ROOT/fixtures/registry/adapter-registry.yaml" --adapter-id prc.adapter.unverified@0.3
        expect_rc 4
        # Bound by id but pinned to another digest.
        sed -i 's/manifest_sha256: "\(.\)/manifest_sha256: "f/' "$TMP/cat/catalog.yaml"
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$PRC_ROOT/fixtures/adapters/fixture-adapter.yaml"
        expect_rc 4; expect_err adapter-unbound
}

t_verify_local_refuses_root_before_running() {
        mk_good "$TMP/t"
        mk_bound_catalog "$TMP/cat"
        run "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$PRC_ROOT/fixtures/adapters/fixture-adapter.yaml"
        if [ "$(id -u)" -eq 0 ]; then
                expect_rc 4; expect_err oci-root-refused
        else
                # Unprivileged: not refused for root; the fixture image does not exist, so the run is Unknown.
                expect_rc 1; grep -q oci-root-refused <<<"$ERR" && fail "refused as root while unprivileged"
        fi
}

t_verify_refuses_overrides() {
        mk_good "$TMP/t"
        for opt in --profile --adapter-manifest --adapter-registry --adapter-id --mode --catalog-root --target; do
                run "$PRC" verify "$TMP/t" "$opt" x
                expect_rc 2
                expect_err "cannot be overridden"
        done
        run "$PRC" verify; expect_rc 2
        run "$PRC" verify "$TMP/t" "$TMP/t"; expect_rc 2
}

t_scan_lists_each_extraction_with_the_digest_of_its_manifest_doc() {
        mk_good "$TMP/t"
        mkdir -p "$TMP/t/web"
        cp "$PRC_ROOT/tests/fixtures/extract/npm/lock-v2/package-lock.json" "$TMP/t/web/package-lock.json"
        cp "$PRC_ROOT/tests/fixtures/extract/npm/yarn-classic/yarn.lock" "$TMP/t/web/yarn.lock"
        "$PRC" scan --target "$TMP/t" --format json >"$TMP/r.json" || [ $? -eq 1 ]
        /usr/bin/python3 - "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/r.json" <<'PY'
import json, sys, jsonschema
r = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(r)
rows = r["extractions"]
assert [x["path"] for x in rows] == ["package.json", "web/package-lock.json", "web/yarn.lock"], rows
assert [x["dependencies"] for x in rows] == [0, 2, 3], rows
assert rows[1]["format"] == "npm-package-lock" and rows[1]["kind"] == "lockfile", rows[1]
assert all(len(x["sha256"]) == 64 for x in rows)
assert r["coverage_gaps"] == [], r["coverage_gaps"]
PY
        # The digest is the SHA-256 of the canonical ManifestDoc that `prc content extract` prints for the same path.
        (cd "$TMP/t" && "$PRC" content extract web/yarn.lock) >"$TMP/md.json"
        want=$(head -c -1 "$TMP/md.json" | sha256sum | cut -d' ' -f1)
        OUT=$(cat "$TMP/r.json")
        expect_eq "$(json_get extractions.2.sha256)" "$want"
}

t_scan_extraction_refusal_is_a_gap_with_its_class() {
        mk_good "$TMP/t"
        printf '{"lockfileVersion": 99, "packages": {}}\n' >"$TMP/t/package-lock.json"
        printf '# not a yarn lockfile\n' >"$TMP/t/yarn.lock"
        run "$PRC" scan --target "$TMP/t" --format json
        expect_rc 1
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
g = {x["path"]: x["class"] for x in r["coverage_gaps"]}
assert g == {"package-lock.json": "extract-version", "yarn.lock": "extract-version"}, g
assert [x["path"] for x in r["extractions"]] == ["package.json"], r["extractions"]
m = [a for a in r["assertions"] if a["evidence"] and a["evidence"][0]["source"].get("analysis") == "manifests"]
assert m and m[0]["state"] != "Pass", m
assert "content_floor" in m[0]["evidence"][0]["source"], m[0]["evidence"][0]["source"]' <<<"$OUT"
}

# Found on the real corpus: the client's reply cache keyed extractions by bytes only, so the second of two
# identical manifests got the first one's ManifestDoc (its path) and was refused as manifest-doc-invalid.
t_scan_identical_manifests_at_two_paths_are_each_extracted() {
        mk_good "$TMP/t"
        mkdir -p "$TMP/t/a" "$TMP/t/b"
        cp "$PRC_ROOT/tests/fixtures/extract/npm/yarn-classic/yarn.lock" "$TMP/t/a/yarn.lock"
        cp "$PRC_ROOT/tests/fixtures/extract/npm/yarn-classic/yarn.lock" "$TMP/t/b/yarn.lock"
        run "$PRC" scan --target "$TMP/t" --format json
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
assert r["coverage_gaps"] == [], r["coverage_gaps"]
rows = {x["path"]: x for x in r["extractions"]}
assert "a/yarn.lock" in rows and "b/yarn.lock" in rows, rows
assert rows["a/yarn.lock"]["sha256"] != rows["b/yarn.lock"]["sha256"], rows' <<<"$OUT"
}

# Huge pages for the heap (src/base/tune.h): prc scan tunes its own heap in process (advised
# MADV_HUGEPAGE, no second exec); a one-file command (prc content parse) does not; the result is the
# same either way.
t_scan_advises_its_heap_for_huge_pages_and_the_result_does_not_change() {
        local pid
        command -v strace >/dev/null || fail "strace is missing (scripts/setup.sh installs it)"
        mk_good "$TMP/t"
        # Exit 1: the secrets assertion is Blocked in inspect mode.
        strace -f -qq -e trace=execve,madvise -s 65536 -v -o "$TMP/a.st" "$PRC_BIN" scan --target "$TMP/t" \
                --format json >"$TMP/a.json" && fail "exit 0" || [ $? = 1 ] || fail "scan exited $?"
        [ "$(grep 'execve(' "$TMP/a.st" | grep -vc '"__worker"')" = 1 ] ||
                fail "scan executed itself again: $(cat "$TMP/a.st")"
        pid=$(head -1 "$TMP/a.st" | cut -d' ' -f1)
        grep -Eq "^$pid +madvise\(.*MADV_HUGEPAGE" "$TMP/a.st" || fail "the heap is not advised for huge pages"
        grep -q '"__worker"' "$TMP/a.st" || fail "no worker started"
        GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$PRC_BIN" scan --target "$TMP/t" --format json >"$TMP/b.json" || true
        cmp -s "$TMP/a.json" "$TMP/b.json" || fail "the result depends on huge pages"
        strace -f -qq -e trace=execve,madvise -o "$TMP/c.st" "$PRC_BIN" content parse --format json \
                "$TMP/t/package.json" >/dev/null || fail "content parse exited $?"
        pid=$(head -1 "$TMP/c.st" | cut -d' ' -f1)
        [ "$(grep 'execve(' "$TMP/c.st" | grep -vc '"__worker"')" = 1 ] || fail "content parse executed itself again"
        ! grep -Eq "^$pid +madvise\(.*MADV_HUGEPAGE" "$TMP/c.st" || fail "content parse tuned its heap"
}
