# test_verify_oci.sh - the native Gitleaks protocol end to end through the OCI
# runner (issues 8, 9, 10): a static stand-in (tests/helpers/gitleaks_standin.c)
# at /usr/bin/gitleaks in a test image, a test-only manifest pinned to that
# image's own digest (accepted only by PRC_TESTING builds, via
# PRC_TEST_NATIVE_STANDIN), the pinned ruleset on stdin, and
# `prc scan --mode verify-local` as the unprivileged user.
# shellcheck disable=SC1091
source "$PRC_ROOT/tests/cli/oci_lib.sh"
source "$PRC_ROOT/tests/cli/https_lib.sh"

# The stand-in gate exists only in the testing build.
PRCT=$PRC_ROOT/build/test/prc
RULES_DIR=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}/native/gitleaks/config
[ -d "$RULES_DIR" ] || RULES_DIR=/work/shared/corpora/native/gitleaks/config
# The corpus's decompressed upstream file; the tests store it in prc's gzip form (build/test/helpers/gzip_det),
# exactly what `prc setup native` stores (issue 17).
RULES=$RULES_DIR/gitleaks.toml
STANDIN_REPO=prc-test/gitleaks-standin

# standin_image: print the pinned reference of the stand-in image, building it when its sources changed.
standin_image() {
        local key cache d
        key=$(cat "$PRC_ROOT/tests/helpers/gitleaks_standin.c" "$PRC_ROOT"/src/adapter/native/*.[ch] \
                "$PRC_ROOT"/src/base/*.[ch] | sha256sum | cut -c1-16)
        cache="$OCI_STATE/images/gitleaks-standin-$key"
        oci_cached "$cache" && return 0
        d=$(mktemp -d /tmp/prc-img-XXXXXX)
        mkdir -p "$d/root/tmp" "$d/root/prc-snapshot" "$d/root/usr/bin"
        chmod 1777 "$d/root/tmp"
        oci_static_standin "$PRC_ROOT/tests/helpers/gitleaks_standin.c" "$d/root/usr/bin/gitleaks" "$d/cc.log" ||
                { cat "$d/cc.log" >&2; rm -rf "$d"; return 1; }
        oci_publish_rootfs "$d" "$STANDIN_REPO" "$key" "$cache"
}

OCI_OK=1
if ! oci_standin_ready; then
        OCI_OK=0
else
        if ! STANDIN=$(standin_image); then
                OCI_OK=0
                OCI_SETUP_ERR="cannot build the Gitleaks stand-in image"
        fi
fi

# The loopback HTTPS server `prc setup native` fetches the ruleset from (issue 17; tests/cli/https_lib.sh).
HTTPS_DIR=$(mktemp -d /tmp/prc-https-XXXXXX)
chmod 755 "$HTTPS_DIR"
HTTPS_OK=1
https_start "$HTTPS_DIR" || HTTPS_OK=0
trap 'https_stop; rm -rf "$HTTPS_DIR"' EXIT

need_standin() {
        [ "$OCI_OK" -eq 1 ] || fail "$OCI_SETUP_ERR"
        [ -f "$RULES" ] || fail "the Gitleaks ruleset corpus is absent ($RULES)"
        chmod 755 "$TMP"
        "$PRC_ROOT/build/test/helpers/gzip_det" <"$RULES" >"$TMP/rules.gz" || fail "build/test helpers are not built"
        chmod 644 "$TMP/rules.gz"
        # what prctest's data directory holds must not decide these tests: an empty one unless a test stores there
        mkdir -p "$TMP/nodata" && chmod 777 "$TMP/nodata"
}

# standin_manifest FILE DIGEST: the bundled manifest with only id and image replaced.
standin_manifest() {
        sed -e 's/^adapter_id: .*/adapter_id: prc-test.gitleaks-standin@8.30/' \
                -e "s|^  registry: .*|  registry: \"$OCI_REG\"|" \
                -e "s|^  repository: .*|  repository: $STANDIN_REPO|" \
                -e "s|^  digest: .*|  digest: $2|" \
                -e 's/^  wall_seconds: .*/  wall_seconds: 60/' \
                -e 's/^  memory_bytes: .*/  memory_bytes: 268435456/' \
                "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" >"$1"
        chmod 644 "$1"
}

# standin_catalog DIR DIGEST: one assertion bound to the stand-in manifest, Fail on found, Pass on not_found.
standin_catalog() {
        mkdir -p "$1"
        cat >"$1/catalog.yaml" <<EOF
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
    severity: critical
    bindings:
      - {adapter_id: "prc-test.gitleaks-standin@8.30", manifest_sha256: "$2", observation_kind: gitleaks.secret, pass_outcomes: [not_found], fail_outcomes: [found]}
profiles: [{id: p, title: p, assertions: [A-SECRETS]}]
EOF
        chmod -R a+rX "$1"
}

# setup: manifest, catalog and the two target trees under $TMP.
setup_standin() {
        need_standin
        standin_manifest "$TMP/gl.yaml" "${STANDIN#*@}"
        DG=$("$PRCT" doc digest "$TMP/gl.yaml")
        standin_catalog "$TMP/cat" "$DG"
        mkdir -p "$TMP/dirty/conf" "$TMP/clean"
        printf 'region = "eu"\naws_key = "AKIAQWERTYUIOPASDFGH"\n' >"$TMP/dirty/conf/app.ini"
        printf 'hello\n' >"$TMP/dirty/README"
        printf 'nothing to see\n' >"$TMP/clean/README"
        chmod -R a+rX "$TMP/dirty" "$TMP/clean"
}

scan_standin() {
        local tree=$1
        shift
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/nodata" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" "$@" "$PRCT" scan \
                --target "$TMP/$tree" \
                --catalog-root "$TMP/cat" --profile p --mode verify-local --adapter-manifest "$TMP/gl.yaml" \
                --format json
}

assertion() {
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
a=[a for a in r["assertions"] if a["id"]=="A-SECRETS"][0]
print(json.dumps(eval(sys.argv[1], {"a": a, "r": r})))' "$1" <<<"$OUT"
}

t_verify_oci_planted_secret_fails_with_its_location() {
        setup_standin
        scan_standin dirty PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 1
        expect_eq "$(assertion 'a["state"]')" '"Fail"'
        expect_eq "$(assertion 'len(a["evidence"])')" 1
        expect_eq "$(assertion 'a["evidence"][0]["observation"]["outcome"]')" '"found"'
        # Gitleaks reports byte columns with +1 on lines after the first; the normalizer keeps them as reported.
        expect_eq "$(assertion 'a["evidence"][0]["observation"]["locations"]')" \
                '[{"end_column": 32, "end_line": 2, "path": "conf/app.ini", "start_column": 13, "start_line": 2}]'
        ! grep -q 'AKIAQWERTYUIOPASDFGH' <<<"$OUT$ERR" || fail "the secret was echoed"
}

# Issue 20: an archive target gets its snapshot built from the members the content worker read and checked
# (never by extracting the archive on the host); the secret in a member is found at its path under the
# package root, and a clean archive passes.
t_verify_oci_archive_target_member_secret_fails_and_clean_archive_passes() {
        setup_standin
        mkdir -p "$TMP/arc"
        cp -a "$TMP/dirty" "$TMP/arc/pkg"
        tar -C "$TMP/arc" -czf "$TMP/dirty.tar.gz" pkg
        tar -C "$TMP/clean" -czf "$TMP/clean.tar.gz" README
        chmod 644 "$TMP/dirty.tar.gz" "$TMP/clean.tar.gz"
        scan_standin dirty.tar.gz PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 1
        expect_eq "$(json_get target.archive.root)" pkg
        expect_eq "$(assertion 'a["state"]')" '"Fail"'
        expect_eq "$(assertion '[e["observation"]["locations"][0]["path"] for e in a["evidence"]]')" '["conf/app.ini"]'
        expect_eq "$(assertion 'r["coverage_gaps"]')" '[]'
        ! grep -q 'AKIAQWERTYUIOPASDFGH' <<<"$OUT$ERR" || fail "the secret was echoed"
        scan_standin clean.tar.gz PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 0
        expect_eq "$(assertion 'a["state"]')" '"Pass"'
        # prc verify takes the archive as it takes a directory.
        verify_layout
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/dirty.tar.gz" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_rc 1
        expect_eq "$(core013)" Fail
        expect_eq "$(core013 path)" conf/app.ini
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/clean.tar.gz" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_eq "$(core013)" Pass
}

# Issue 16: a 10.2 MB file is under prc's 10 MiB analysis limit, so gitleaks must scan it (the stand-in
# skips files above --max-target-megabytes as gitleaks does: with 10 it was skipped and the assertion passed).
t_verify_oci_secret_in_a_10_2_mb_file_is_found() {
        setup_standin
        mkdir -p "$TMP/big"
        { printf 'aws_key = "AKIAQWERTYUIOPASDFGH"\n'; head -c 10200000 /dev/zero | tr '\0' 'x'; } >"$TMP/big/dump.txt"
        chmod -R a+rX "$TMP/big"
        scan_standin big PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 1
        expect_eq "$(assertion 'a["state"]')" '"Fail"'
        expect_eq "$(assertion 'a["evidence"][0]["observation"]["locations"][0]["path"]')" '"dump.txt"'
        expect_eq "$(assertion 'r["coverage_gaps"]')" '[]'
}

# Issue 16: a file above the ceiling is not scanned: a named gap, and the assertion is Unknown, not Pass.
t_verify_oci_file_above_the_gitleaks_ceiling_is_a_gap() {
        setup_standin
        mkdir -p "$TMP/huge"
        { printf 'aws_key = "AKIAQWERTYUIOPASDFGH"\n'; head -c 11000000 /dev/zero | tr '\0' 'x'; } >"$TMP/huge/dump.txt"
        printf 'nothing to see\n' >"$TMP/huge/README"
        chmod -R a+rX "$TMP/huge"
        scan_standin huge PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 1
        expect_eq "$(assertion 'a["state"]')" '"Unknown"'
        expect_eq "$(assertion '[(g["path"], g["class"]) for g in r["coverage_gaps"]]')" \
                '[["dump.txt", "adapter-file-not-scanned"]]'
}

t_verify_oci_clean_tree_passes() {
        setup_standin
        scan_standin clean PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 0
        expect_eq "$(assertion 'a["state"]')" '"Pass"'
}

t_verify_oci_record_names_the_normalized_artifact_and_state_dir_holds_it() {
        setup_standin
        mkdir -p "$TMP/state" && chmod 777 "$TMP/state"
        [ "$(id -u)" -ne 0 ] || chown "$OCI_USER" "$TMP/state"
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" "$PRCT" scan --target "$TMP/dirty" \
                --catalog-root "$TMP/cat" --profile p --mode verify-local --adapter-manifest "$TMP/gl.yaml" \
                --gitleaks-ruleset "$TMP/rules.gz" --state-dir "$TMP/state/s" --format json
        expect_rc 1
        sha=$(/usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
def walk(o):
    if isinstance(o, dict):
        if o.get("schema") == "prc.execution-record/v0.3":
            yield o
        for v in o.values(): yield from walk(v)
    elif isinstance(o, list):
        for v in o: yield from walk(v)
rec=list(walk(r))[0]
assert rec["disposition"] == "accepted", rec["disposition"]
assert rec["exit_status"] == 42, rec["exit_status"]
print(rec["artifacts"][0]["sha256"])' <<<"$OUT") || fail "no accepted record with an artifact: $OUT"
        [ -f "$TMP/state/s/artifacts/$sha" ] || fail "artifact $sha not in the state dir"
        expect_eq "$(sha256sum <"$TMP/state/s/artifacts/$sha" | cut -d' ' -f1)" "$sha"
        grep -q 'conf/app.ini' "$TMP/state/s/artifacts/$sha" || fail "artifact lacks the finding"
}

t_verify_oci_missing_ruleset_is_an_error_not_a_pass() {
        setup_standin
        scan_standin clean
        expect_rc 1
        expect_eq "$(assertion 'a["state"]')" '"Unknown"'
        grep -q 'native-ruleset-missing' <<<"$OUT" || fail "no native-ruleset-missing in the result: $OUT"
        expect_err "give --gitleaks-ruleset FILE or set PRC_GITLEAKS_RULESET"
        # issue 17: the message names the command that fixes it
        expect_err "prc setup native"
        grep -q 'prc setup native' <<<"$OUT" || fail "the recorded error does not name prc setup native: $OUT"
}

# Issue 17: the GNU gzip form pinned before is refused, and the refusal names the command that stores the right one.
t_verify_oci_ruleset_in_the_former_gzip_form_is_refused() {
        setup_standin
        [ -f "$RULES.gz" ] || fail "the corpus's gitleaks.toml.gz is absent"
        cp "$RULES.gz" "$TMP/gnu.gz" && chmod 644 "$TMP/gnu.gz"
        scan_standin clean PRC_GITLEAKS_RULESET="$TMP/gnu.gz"
        expect_rc 1
        grep -q 'native-ruleset-mismatch' <<<"$OUT" || fail "no native-ruleset-mismatch in the result: $OUT"
        grep -q 'prc setup native' <<<"$OUT" || fail "the refusal does not name prc setup native: $OUT"
}

t_verify_oci_wrong_ruleset_is_refused() {
        setup_standin
        printf 'not the ruleset' | gzip -n >"$TMP/bad.gz"
        chmod 644 "$TMP/bad.gz"
        scan_standin clean PRC_GITLEAKS_RULESET="$TMP/bad.gz"
        expect_rc 1
        grep -q 'native-ruleset-mismatch' <<<"$OUT" || fail "no native-ruleset-mismatch in the result: $OUT"
}

t_verify_oci_override_differing_from_reviewed_digest_is_an_error() {
        setup_standin
        # The production override names the stand-in, not the reviewed Gitleaks digest: an error, never a skip.
        scan_standin clean PRC_GITLEAKS_RULESET="$TMP/rules.gz" PRC_NATIVE_TEST_IMAGE="${STANDIN#*@}"
        expect_refused native-image-unreviewed
}

t_verify_oci_standin_manifest_refused_without_the_test_gate() {
        setup_standin
        # Same manifest, no PRC_TEST_NATIVE_STANDIN: the reviewed-image gate refuses it.
        run as_user /usr/bin/env PRC_GITLEAKS_RULESET="$TMP/rules.gz" "$PRCT" scan --target "$TMP/clean" \
                --catalog-root "$TMP/cat" --profile p --mode verify-local --adapter-manifest "$TMP/gl.yaml" \
                --format json
        expect_refused native-image-unreviewed
}

# verify_layout: $TMP/v/catalog, the bundled catalog with PRC-A-CORE-013 bound to the stand-in manifest, and
# $TMP/v/adapters/ holding that manifest under the bundled name, and copies of both builds' prc in
# $TMP/v/build/ and $TMP/v/build/test/: `prc verify` reads the catalog bundled beside its binary and the
# manifest next to that catalog ($TMP/v/adapters/gitleaks-v8.30.0.yaml); the environment cannot move it.
verify_layout() {
        setup_standin
        mkdir -p "$TMP/v/adapters" "$TMP/v/catalog" "$TMP/v/build/test"
        cp "$PRC_BIN" "$TMP/v/build/prc"
        cp "$PRCT" "$TMP/v/build/test/prc"
        standin_manifest "$TMP/v/adapters/gitleaks-v8.30.0.yaml" "${STANDIN#*@}"
        bundled=$("$PRCT" doc digest "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml")
        sed -e "s/$bundled/$DG/" -e 's/adapter_id: prc.adapter.gitleaks@8.30/adapter_id: prc-test.gitleaks-standin@8.30/' \
                "$PRC_ROOT/catalog/catalog.yaml" >"$TMP/v/catalog/catalog.yaml"
        grep -q "$DG" "$TMP/v/catalog/catalog.yaml" || fail "the bundled catalog no longer binds $bundled"
        chmod -R a+rX "$TMP/v"
}

# core013: the state of PRC-A-CORE-013 in $OUT, or of its first evidence's location path with "path".
core013() {
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
a=[a for a in r["assertions"] if a["id"]=="PRC-A-CORE-013"][0]
print(a["evidence"][0]["observation"]["locations"][0]["path"] if sys.argv[1:] == ["path"] else a["state"])' "$@" <<<"$OUT"
}

t_verify_oci_prc_verify_runs_the_standin_in_the_testing_build() {
        verify_layout
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/dirty" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_rc 1
        expect_eq "$(core013)" Fail
        expect_eq "$(core013 path)" conf/app.ini
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                PRC_GITLEAKS_RULESET="$TMP/rules.gz" "$TMP/v/build/test/prc" verify "$TMP/clean" --format json
        expect_eq "$(core013)" Pass
}

# Issue 17: the two documented commands.  `prc setup native` stores the ruleset (fetched from the loopback
# server), then `prc verify DIR` with no flag and no variable finds it, as the same unprivileged user.
t_verify_oci_prc_verify_needs_no_flags_after_prc_setup() {
        verify_layout
        [ "$HTTPS_OK" -eq 1 ] || fail "$HTTPS_ERR"
        mkdir -p "$TMP/xdg" && chmod 777 "$TMP/xdg"
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$TMP/v/build/test/prc" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 0
        expect_out "prc verify DIR"
        expect_eq "$(stat -c '%a %U' "$TMP/xdg/prc/gitleaks-v8.30.0.toml.gz")" "600 $OCI_USER"
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/dirty"
        expect_rc 1
        grep -Eq '^PRC-A-CORE-013 +Fail' <<<"$OUT" || fail "CORE-013 did not fail on the planted key: ${OUT:0:600}"
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/dirty" --format json
        expect_eq "$(core013 path)" conf/app.ini
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/clean" --format json
        expect_eq "$(core013)" Pass
        # without the stored file the same command is an error that names prc setup native, never a pass
        rm -f "$TMP/xdg/prc/gitleaks-v8.30.0.toml.gz"
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/test/prc" verify "$TMP/clean" --format json
        expect_eq "$(core013)" Unknown
        expect_err "prc setup native"
}

t_verify_oci_release_build_never_runs_the_standin() {
        verify_layout
        # build/prc has no stand-in gate: the same layout and variable leave the stand-in unreviewed, and the
        # whole adapter set is refused before any runtime is invoked (issue 16).
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$TMP/v/build/prc" verify "$TMP/clean" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_refused native-image-unreviewed
}

# Issue 16: the catalog verify uses is not the environment's to choose, any more than --catalog-root is.
t_verify_oci_refuses_a_catalog_root_from_the_environment() {
        verify_layout
        run as_user /usr/bin/env PRC_CATALOG_ROOT="$TMP/v/catalog" PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" \
                "$PRCT" verify "$TMP/dirty" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_rc 2
        expect_err PRC_CATALOG_ROOT
        [ -z "$OUT" ] || fail "a refused verify printed a result: ${OUT:0:300}"
        run as_user /usr/bin/env PRC_CATALOG_ROOT= "$PRCT" verify "$TMP/dirty" --format json
        expect_rc 2
        expect_err PRC_CATALOG_ROOT
}

t_verify_oci_bundled_gitleaks_reaches_the_image_check() {
        need_standin
        mkdir -p "$TMP/clean" && printf 'nothing\n' >"$TMP/clean/README" && chmod -R a+rX "$TMP/clean"
        ref=$(sed -n 's/^  registry: //p; s/^  repository: //p; s/^  digest: //p' "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" |
              paste -sd'/@')
        run as_user "$PRC" verify "$TMP/clean" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_rc 1
        if docker image inspect "$ref" >/dev/null 2>&1; then
                # the reviewed image is present here: the real Gitleaks ran on a clean tree
                state=$(/usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
print([a["state"] for a in r["assertions"] if a["id"]=="PRC-A-CORE-013"][0])' <<<"$OUT")
                expect_eq "$state" Pass
        else
                # every gate passed (manifest, reviewed digest, ruleset); the runner stops at the absent image
                grep -q '"class":"oci-image-absent"' <<<"$OUT" || fail "no oci-image-absent: $OUT"
                expect_err "docker pull $ref"
                # issue 17: both the run's error and the hint name the command that pulls it
                grep -q 'prc setup native' <<<"$OUT" || fail "oci-image-absent does not name prc setup native: $OUT"
                expect_err "prc setup native"
        fi
}

t_verify_oci_run_oci_record_matches_its_schema() {
        setup_standin
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN#*@}" "$PRCT" adapter run-oci \
                --manifest "$TMP/gl.yaml" --target "$TMP/dirty" --runtime docker --gitleaks-ruleset "$TMP/rules.gz" \
                --format json
        expect_rc 0
        expect_eq "$(json_get disposition)" accepted
        expect_eq "$(json_get exit_status)" 42
        expect_eq "$(json_get summary_status)" completed
        expect_eq "$(json_get observations.0.locations.0.path)" conf/app.ini
        expect_eq "$(json_get artifacts.0.media_type)" "application/vnd.prc.gitleaks-findings+json;version=1"
        printf '%s\n' "$OUT" >"$TMP/rec.json"
        /usr/bin/python3 -c 'import json,sys,jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
                "$PRC_ROOT/schemas/execution-record.schema.json" "$TMP/rec.json" || fail "record does not match its schema"
        # snapshot.files counts the target's files; the scanner-owned ignore file is in the digest only.
        expect_eq "$(json_get snapshot.files)" 2
        run "$PRC" record show "$TMP/rec.json"
        expect_rc 0
}

t_verify_oci_root_gitleaksignore_is_relocated_and_still_scanned() {
        setup_standin
        # A root .gitleaksignore could silence findings; the runner moves it under .prc/ and a secret in it
        # is still reported, at its original path.
        printf 'conf/app.ini:aws-access-token:2\n# AKIAZXCVBNMASDFGHJKL\n' >"$TMP/dirty/.gitleaksignore"
        chmod a+r "$TMP/dirty/.gitleaksignore"
        scan_standin dirty PRC_GITLEAKS_RULESET="$TMP/rules.gz"
        expect_rc 1
        expect_eq "$(assertion 'a["state"]')" '"Fail"'
        expect_eq "$(assertion 'sorted(e["observation"]["locations"][0]["path"] for e in a["evidence"])')" \
                '[".gitleaksignore", "conf/app.ini"]'
}

t_verify_oci_standin_gate_needs_the_exact_built_digest() {
        setup_standin
        # The manifest names the stand-in, but the test says another image was built: refused, not skipped.
        run as_user /usr/bin/env PRC_GITLEAKS_RULESET="$TMP/rules.gz" \
                PRC_TEST_NATIVE_STANDIN=sha256:1111111111111111111111111111111111111111111111111111111111111111 \
                "$PRCT" scan --target "$TMP/clean" --catalog-root "$TMP/cat" --profile p --mode verify-local \
                --adapter-manifest "$TMP/gl.yaml" --format json
        expect_refused native-image-unreviewed
}
