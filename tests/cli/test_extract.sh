# test_extract.sh - `prc content extract` against build/prc, and the
# ManifestDoc contract: every extractor's output over every fixture under
# tests/fixtures/extract/ (all families) validates against
# schemas/manifest-doc.schema.json (python3-jsonschema, Draft 2020-12).

XDUMP=${PRC_XDUMP:-$PRC_ROOT/build/test/helpers/xdump}

t_every_fixture_output_validates_against_the_schema() {
        [ -x "$XDUMP" ] || fail "no $XDUMP (make testbuild)"
        find tests/fixtures/extract -type f | sort >"$TMP/files"
        [ -s "$TMP/files" ] || fail "no fixtures under tests/fixtures/extract"
        # xdump exits 1 when any file is refused; the refusals are checked by class below, not here.
        xargs -d '\n' "$XDUMP" <"$TMP/files" >"$TMP/dump" || true
        /usr/bin/python3 - "$TMP/dump" schemas/manifest-doc.schema.json <<'PY'
import json, sys
import jsonschema
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
schema = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
ok = bad = 0
for line in lines:
    f, status, rest = line.split("\t", 2)
    if status != "ok":
        continue
    errs = sorted(v.iter_errors(json.loads(rest)), key=str)
    if errs:
        bad += 1
        print(f"{f}: {errs[0].message} at {list(errs[0].absolute_path)}", file=sys.stderr)
    ok += 1
print(f"{ok} documents, {bad} invalid", file=sys.stderr)
sys.exit(1 if bad or ok == 0 else 0)
PY
}

t_refused_fixtures_are_refused_by_class() {
        # Every fixture under a "bad" directory is refused with a named class, never extracted.
        for f in $(find tests/fixtures/extract -path '*/bad/*' -type f | sort); do
                run "$XDUMP" "$f"
                expect_rc 1
                [[ "$OUT" == *$'\terr\t'[a-z]*-* ]] || fail "$f: not refused by class: $OUT"
        done
}

t_extract_prints_the_manifest_doc() {
        cp tests/fixtures/extract/npm/lock-v3/package-lock.json "$TMP/package-lock.json"
        run "$PRC" content extract "$TMP/package-lock.json"
        expect_rc 0
        expect_eq "$(json_get format)" "npm-package-lock"
        expect_eq "$(json_get kind)" "lockfile"
        expect_eq "$(json_get dependencies.0.purl)" "pkg:npm/%40scope/x@1.0.1"
        expect_eq "$(json_get path)" "$TMP/package-lock.json"
}

t_extract_output_is_canonical_and_stable() {
        cp tests/fixtures/extract/npm/package.json "$TMP/package.json"
        run "$PRC" content extract "$TMP/package.json"
        expect_rc 0
        first=$OUT
        run "$PRC" content extract --format npm-package-json "$TMP/package.json"
        expect_eq "$OUT" "$first"
        # canonical: keys sorted, no spaces between tokens
        expect_eq "$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(",", ":"), ensure_ascii=False))' <<<"$OUT")" "$OUT"
}

t_extract_unknown_format_is_usage() {
        printf '{}' >"$TMP/x.json"
        run "$PRC" content extract --format nope "$TMP/x.json"
        expect_rc 2
        expect_err "unknown --format"
        run "$PRC" content extract "$TMP/x.json"
        expect_rc 2
        expect_err "no extractor owns"
}

t_extract_refusal_names_the_class() {
        printf '{"lockfileVersion": 9, "packages": {}}' >"$TMP/package-lock.json"
        run "$PRC" content extract "$TMP/package-lock.json"
        expect_rc 3
        expect_err "extract-version"
        expect_eq "$OUT" ""
        printf '{"dependencies": [1]}' >"$TMP/package.json"
        run "$PRC" content extract "$TMP/package.json"
        expect_rc 3
        expect_err "extract-shape"
}

t_npmrc_secrets_never_leave_the_worker() {
        cp tests/fixtures/extract/npm/npmrc/.npmrc "$TMP/.npmrc"
        run "$PRC" content extract "$TMP/.npmrc"
        expect_rc 0
        for secret in npm_SECRETTOKENVALUE123 dXNlcjpTRUNSRVRQQVNT s3cr3tpass deploy dev@example.invalid; do
                [[ "$OUT" != *"$secret"* ]] || fail "the value '$secret' is in the output"
        done
        expect_out '"key":"//npm.acme.invalid/:_authToken"'
        expect_out '"key":"registry URL userinfo"'
        expect_out '"url":"https://npm.acme.invalid/"'
}

t_format_flag_overrides_the_name() {
        cp tests/fixtures/extract/npm/lock-v2/package-lock.json "$TMP/renamed.json"
        run "$PRC" content extract --format npm-shrinkwrap "$TMP/renamed.json"
        expect_rc 0
        expect_eq "$(json_get format)" "npm-shrinkwrap"
}
