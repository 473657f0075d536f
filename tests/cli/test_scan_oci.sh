# test_scan_oci.sh - prc scan --mode verify-local end to end through the OCI
# runner with the runner's real test images (issue 9): observations become
# states, records are embedded, the set runs in (adapter id, digest) order
# under one shared deadline, and reruns are byte-identical.
# shellcheck disable=SC1091
source "$PRC_ROOT/tests/cli/oci_lib.sh"

OCI_OK=1
if ! sh "$PRC_ROOT/scripts/oci-env.sh" --check >/dev/null 2>&1; then
        OCI_OK=0
        OCI_SETUP_ERR="OCI environment is down (run scripts/oci-env.sh)"
else
        oci_prepare_user
        declare -A IMG
        for n in good sleeper; do
                if ! IMG[$n]=$(oci_image "$n"); then
                        OCI_OK=0
                        OCI_SETUP_ERR="cannot build test image $n"
                        break
                fi
        done
fi

need_oci() {
        [ "$OCI_OK" -eq 1 ] || fail "$OCI_SETUP_ERR"
        chmod 755 "$TMP"
        oci_target "$TMP/t"
}

# catalog DIR LINES...: a catalog whose assertions are given as "ID|ADAPTER|DIGEST|KIND|POLICY" lines.
catalog() {
        local dir=$1 ids="" line id ad dg kind pol
        shift
        mkdir -p "$dir"
        {
                printf 'schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\nassertions:\n'
                for line in "$@"; do
                        IFS='|' read -r id ad dg kind pol <<<"$line"
                        printf '  - id: %s\n    control: C\n    title: t\n    rationale: r\n    remediation: m\n' "$id"
                        printf '    severity: high\n    bindings:\n'
                        printf '      - {adapter_id: "%s", manifest_sha256: "%s", observation_kind: %s%s}\n' \
                                "$ad" "$dg" "$kind" "${pol:+, $pol}"
                        ids="$ids${ids:+, }$id"
                done
                printf 'profiles: [{id: p, title: p, assertions: [%s]}]\n' "$ids"
        } >"$dir/catalog.yaml"
        chmod -R a+rX "$dir"
}

state_of() {
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print([a["state"] for a in r["assertions"] if a["id"]==sys.argv[1]][0])' "$1" <<<"$OUT"
}

t_verify_local_turns_adapter_observations_into_states() {
        need_oci
        ADAPTER=good oci_manifest "$TMP/good.yaml" "${IMG[good]}"
        dg=$("$PRC" doc digest "$TMP/good.yaml")
        catalog "$TMP/cat" "A-SECRET|prc-test.good@1.0.0|$dg|prc-test.secret|" \
                "A-ENTRIES|prc-test.good@1.0.0|$dg|prc-test.entries|pass_outcomes: [value]"
        run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/good.yaml" --format json
        expect_rc 1
        [ "$(state_of A-SECRET)" = Fail ] || fail "A-SECRET: $(state_of A-SECRET)"
        [ "$(state_of A-ENTRIES)" = Pass ] || fail "A-ENTRIES: $(state_of A-ENTRIES)"
        [ "$(json_get executions.0.disposition)" = accepted ]
        rec=$(json_get executions.0.id)
        [ "$(json_get assertions.0.evidence.0.source.execution_id)" = "$rec" ] || fail "evidence not bound to the record"
        [ "$(json_get assertions.0.evidence.0.source.type)" = adapter ]
        first=$OUT
        run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/good.yaml" --format json
        [ "$OUT" = "$first" ] || fail "two verify-local scans differ"
}

t_adapter_set_runs_in_order_under_one_shared_deadline() {
        need_oci
        # The sleeper sorts first (prc-test.asleep < prc-test.zgood) and would sleep past its own 20 s.
        ADAPTER=asleep WALL=20 oci_manifest "$TMP/sleep.yaml" "${IMG[sleeper]}"
        ADAPTER=zgood oci_manifest "$TMP/good.yaml" "${IMG[good]}"
        ds=$("$PRC" doc digest "$TMP/sleep.yaml")
        dg=$("$PRC" doc digest "$TMP/good.yaml")
        catalog "$TMP/cat" "A1|prc-test.zgood@1.0.0|$dg|prc-test.secret|" \
                "A2|prc-test.asleep@1.0.0|$ds|prc-test.secret|"
        run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/good.yaml" --adapter-manifest "$TMP/sleep.yaml" --max-duration 3 --format json
        expect_rc 1
        [ "$(json_get executions.0.manifest_sha256)" = "$ds" ] || fail "the sleeper did not run first"
        [ "$(json_get executions.0.timed_out)" = true ] || fail "the sleeper was not stopped at the shared deadline"
        # The budget is spent: the second adapter may not start (one deadline for the set, not per adapter).
        [ "$(json_get executions.1.error_class)" = oci-deadline ] || fail "second: $(json_get executions.1.error_class)"
        [ "$(state_of A1)" = Unknown ]
        [ "$(state_of A2)" = Unknown ]
}

t_unbound_adapter_never_reaches_the_runtime() {
        need_oci
        ADAPTER=good oci_manifest "$TMP/good.yaml" "${IMG[good]}"
        catalog "$TMP/cat" "A|prc-test.good@1.0.0|0000000000000000000000000000000000000000000000000000000000000001|prc-test.secret|"
        run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/good.yaml" --format json
        expect_rc 4
        expect_err adapter-unbound
        [ -z "$OUT" ] || fail "a refused scan printed a result"
}

# no_host_path NAME: the result in $OUT is one JSON document that holds NAME nowhere (a host path component).
no_host_path() {
        /usr/bin/python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$OUT" || fail "no result: ${OUT:0:300}"
        ! grep -qF -- "$1" <<<"$OUT" || fail "the result holds the host path component $1: $OUT"
}

# Issue 16: messages copied into errors[] feed the result ID and hold no host path.  Every operator input
# lives under a directory with a distinctive name; each error names its input by its role, and its adapter.
t_run_result_holds_no_host_path() {
        need_oci
        local d=$TMP/prc-hostpath-5e1f
        mkdir -p "$d/db" && printf 'one\n' >"$d/db/a" && chmod 755 "$d" && chmod 000 "$d/db"
        # The Gitleaks ruleset (the bundled, reviewed manifest: its ruleset is read before any image is needed).
        run as_user "$PRC" scan --target "$TMP/t" --mode verify-local \
                --adapter-manifest "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" --gitleaks-ruleset "$d/rules.gz" \
                --format json
        expect_rc 1
        no_host_path prc-hostpath-5e1f
        expect_eq "$(json_get errors.0.adapter)" prc.adapter.gitleaks@8.30
        expect_eq "$(json_get errors.0.class)" io-error
        grep -qF 'the Gitleaks ruleset' <<<"$(json_get errors.0.message)" || fail "the ruleset is not named by its role"
        # The snapshot's parent directory.
        ADAPTER=good oci_manifest "$TMP/good.yaml" "${IMG[good]}"
        dg=$("$PRC" doc digest "$TMP/good.yaml")
        catalog "$TMP/cat" "A|prc-test.good@1.0.0|$dg|prc-test.entries|pass_outcomes: [value]"
        PRC_OCI_TMPDIR=$d/none run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p \
                --mode verify-local --adapter-manifest "$TMP/good.yaml" --format json
        expect_rc 1
        no_host_path prc-hostpath-5e1f
        expect_eq "$(json_get errors.0.adapter)" prc-test.good@1.0.0
        grep -qF "the snapshot's parent directory" <<<"$(json_get errors.0.message)" ||
                fail "the snapshot parent is not named by its role: $(json_get errors.0.message)"
        # An external data directory the user cannot read.
        ADAPTER=good DATA=$'data:\n  - name: db\n    max_bytes: 1000\n    max_files: 3' \
                oci_manifest "$TMP/good.yaml" "${IMG[good]}"
        dg=$("$PRC" doc digest "$TMP/good.yaml")
        catalog "$TMP/cat" "A|prc-test.good@1.0.0|$dg|prc-test.entries|pass_outcomes: [value]"
        run as_user "$PRC" scan --target "$TMP/t" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/good.yaml" --adapter-data "prc-test.good@1.0.0/db=$d/db" --format json
        expect_rc 1
        no_host_path prc-hostpath-5e1f
        expect_eq "$(json_get errors.0.adapter)" prc-test.good@1.0.0
        grep -qF "data 'db'" <<<"$(json_get errors.0.message)" || fail "the data directory is not named by its role"
        # The result with adapter errors matches its schema.
        printf '%s\n' "$OUT" >"$TMP/r.json"
        /usr/bin/python3 -c 'import json,sys,jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
                "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/r.json" || fail "the result does not match its schema"
        chmod 755 "$d/db"
}
