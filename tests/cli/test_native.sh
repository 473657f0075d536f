# test_native.sh - prc adapter validate-output on the bundled native manifests
# (Gitleaks, Syft, Grype): the normalizer runs on a recorded native report.
G=tests/golden/native
NOW=2026-07-22T12:00:00Z

t_native_gitleaks_findings_accepted() {
        run "$PRC" adapter validate-output --manifest adapters/gitleaks-v8.30.0.yaml --file $G/gitleaks/001-findings.in --format json
        expect_rc 0
        expect_eq "$(json_get disposition)" accepted
        expect_eq "$(json_get protocol)" prc-adapter-gitleaks-json-v1
        expect_eq "$(json_get observations.0.outcome)" found
        expect_eq "$(json_get report.sha256)" "$(sha256sum < $G/gitleaks/001-findings.in | cut -d' ' -f1)"
        expect_eq "$(json_get manifest_sha256)" "$($PRC doc digest adapters/gitleaks-v8.30.0.yaml)"
}

t_native_gitleaks_report_bytes_never_echoed() {
        run "$PRC" adapter validate-output --manifest adapters/gitleaks-v8.30.0.yaml --file $G/gitleaks/101-unredacted-secret.in --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" native-unredacted
        ! grep -q hunter2 <<<"$OUT$ERR" || fail "secret echoed"
}

t_native_gitleaks_empty_is_not_found() {
        run "$PRC" adapter validate-output --manifest adapters/gitleaks-v8.30.0.yaml --file $G/gitleaks/002-empty.in
        expect_rc 0
        expect_out "accepted: 1 observations"
}

t_native_syft_value() {
        run "$PRC" adapter validate-output --manifest adapters/syft-v1.51.0.yaml --file $G/syft/002-dir-rerun.in --format json
        expect_rc 0
        expect_eq "$(json_get observations.0.outcome)" value
        expect_eq "$(json_get artifact.media_type)" "application/vnd.cyclonedx+json;version=1.7"
}

t_native_grype_needs_a_fresh_db() {
        run "$PRC" adapter validate-output --manifest adapters/grype-v0.116.1.yaml --file $G/grype/003-empty.in --now $NOW --format json
        expect_rc 0
        expect_eq "$(json_get observations.0.outcome)" not_found
        run "$PRC" adapter validate-output --manifest adapters/grype-v0.116.1.yaml --file $G/grype/003-empty.in --now 2026-08-30T00:00:00Z --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" native-db-stale
}

t_native_changed_command_refused() {
        sed 's/"--redact=100"/"--redact"/' adapters/gitleaks-v8.30.0.yaml > "$TMP/m.yaml"
        run "$PRC" adapter validate-output --manifest "$TMP/m.yaml" --file $G/gitleaks/002-empty.in
        expect_rc 1
        expect_err native-command-mismatch
}

t_native_bad_now_is_usage() {
        run "$PRC" adapter validate-output --manifest adapters/grype-v0.116.1.yaml --file $G/grype/003-empty.in --now yesterday
        expect_rc 2
}

# Host-side end-to-end without a container: the gitleaks stand-in (tests/helpers/gitleaks_standin.c)
# run with the bundled manifest's exact argv and the pinned ruleset on stdin; its report goes
# through validate-output.  The container path needs the OCI runner (issue 8).
standin_argv() {
        /usr/bin/python3 -c '
import sys
lines = open("adapters/gitleaks-v8.30.0.yaml").read().split("\n")
i = lines.index("command:") + 1
while lines[i].startswith("  - "):
    print(lines[i][5:-1]); i += 1'
}

standin() {   # standin TREE STDIN-FILE OUT-FILE -> sets SRC
        mapfile -t A < <(standin_argv)
        SRC=0
        PRC_STANDIN_ROOT="$1" build/test/helpers/gitleaks_standin "${A[@]:1}" < "$2" > "$3" || SRC=$?
}

ruleset() {
        C=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}
        [ -d "$C" ] || fail "../shared/corpora is absent"
        gunzip -c "$C/native/gitleaks/config/gitleaks.toml.gz" > "$TMP/rules.toml"
}

t_native_standin_planted_secret_is_found() {
        ruleset
        mkdir -p "$TMP/tree/src"
        printf 'x = 1\naws = "AKIAABCDEFGHIJKLMNOP"\n' > "$TMP/tree/src/cfg.py"
        standin "$TMP/tree" "$TMP/rules.toml" "$TMP/report.json"
        expect_eq "$SRC" 42
        run "$PRC" adapter validate-output --manifest adapters/gitleaks-v8.30.0.yaml --file "$TMP/report.json" --format json
        expect_rc 0
        expect_eq "$(json_get observations.0.outcome)" found
        ! grep -q AKIAABCDEFGHIJKLMNOP "$TMP/report.json" || fail "stand-in leaked the key"
}

t_native_standin_clean_tree_is_not_found() {
        ruleset
        mkdir -p "$TMP/tree"
        printf 'print("hello")\n' > "$TMP/tree/main.py"
        standin "$TMP/tree" "$TMP/rules.toml" "$TMP/report.json"
        expect_eq "$SRC" 0
        run "$PRC" adapter validate-output --manifest adapters/gitleaks-v8.30.0.yaml --file "$TMP/report.json" --format json
        expect_rc 0
        expect_eq "$(json_get observations.0.outcome)" not_found
}

t_native_standin_refuses_a_missing_ruleset() {
        mkdir -p "$TMP/tree"
        : > "$TMP/empty"
        standin "$TMP/tree" "$TMP/empty" "$TMP/report.json"
        expect_eq "$SRC" 1
}

t_native_report_over_stdout_cap_refused() {
        sed 's/^  stdout_bytes: .*/  stdout_bytes: 100/' adapters/gitleaks-v8.30.0.yaml > "$TMP/m.yaml"
        run "$PRC" adapter validate-output --manifest "$TMP/m.yaml" --file $G/gitleaks/001-findings.in --format json
        expect_rc 1
        expect_eq "$(json_get error_class)" stdout-limit
}
