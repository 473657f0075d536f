# test_registry.sh - prc adapter registry-validate: lockfile rejections,
# revocation without manifests, manifest path and digest checks, detached
# Ed25519 signatures (keys made here with openssl), and the JSON schema
# checked against the example registry with an independent validator.

FIX=fixtures/registry

# lib.sh's run assigns OUT=$(cmd) under set -e, which ends the test on a non-zero
# exit; inside an || list set -e is off, so RC survives for expect_rc.
runp() { run "$@" || true; }

# A registry in $TMP with one revoked entry whose manifest does not exist.
revoked_registry() {
        cat >"$TMP/reg.yaml" <<'YAML'
schema: prc.adapter-registry/v1
registry_id: example.org/adapters
revision: 2
entries:
  - adapter_id: prc.adapter.compromised@3.0
    manifest_sha256: 7d1f3c0a5b2e4f6a8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d
    publisher_id: example.org
    trust: verified-community
    status: revoked
    manifest_path: manifests/compromised.yaml
YAML
}

# newkey NAME: an Ed25519 key pair in $TMP/NAME.pem; sets PUB (base64 raw) and KEYSHA.
newkey() {
        openssl genpkey -algorithm ed25519 -out "$TMP/$1.pem" 2>/dev/null
        openssl pkey -in "$TMP/$1.pem" -pubout -outform DER | tail -c 32 >"$TMP/$1.pub"
        PUB=$(base64 -w0 <"$TMP/$1.pub")
        KEYSHA=$(sha256sum "$TMP/$1.pub" | cut -d' ' -f1)
}

# store FILE SCOPES: a trust store with one publisher holding the last key made.
store() {
        printf 'schema: prc.trust-store/v1\npublishers:\n  - id: example.org\n    keys:\n      - public_key: "%s"\n        scopes: %s\n' \
                "$PUB" "$2" >"$1"
}

# sign KEY SCOPE DIGEST OUT [CLAIMED_SCOPE] [CLAIMED_DIGEST] [KEYSHA]: a prc.signature/v1 file.
sign() {
        printf 'prc.signature/v1\0%s\0%s' "$2" "$3" >"$TMP/msg"
        openssl pkeyutl -sign -inkey "$TMP/$1.pem" -rawin -in "$TMP/msg" -out "$TMP/sig.raw"
        printf 'schema: prc.signature/v1\nscope: %s\nsigned_sha256: %s\nkey_sha256: %s\nsignature: "%s"\n' \
                "${5:-$2}" "${6:-$3}" "${7:-$KEYSHA}" "$(base64 -w0 <"$TMP/sig.raw")" >"$4"
}

digest_of() {
        runp "$PRC" adapter registry-validate --file "$1" --format json
        json_get content_sha256
}

t_usage_errors_exit_2() {
        runp "$PRC" adapter registry-validate
        expect_rc 2
        expect_err "--file REGISTRY is required"
        runp "$PRC" adapter registry-validate --file x.yaml --trust-store s.yaml
        expect_rc 2
        expect_err "go together"
        runp "$PRC" adapter registry-validate --file x.yaml --format xml
        expect_rc 2
        runp "$PRC" adapter registry-validate --file x.yaml extra
        expect_rc 2
        runp "$PRC" adapter registry-validate --help
        expect_rc 0
        expect_out "usage: prc adapter registry-validate"
}

t_revoked_entry_without_its_manifest_is_valid_and_blocks() {
        revoked_registry
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --format json
        expect_rc 0
        expect_eq "$(json_get valid)" "true"
        expect_eq "$(json_get entries.0.decision)" "denied"
        expect_eq "$(json_get entries.0.reason)" "registry-revoked"
        expect_eq "$(json_get entries.0.resolution)" "null"
        expect_eq "$(json_get revision)" "2"
        expect_eq "$(json_get registry_id)" "example.org/adapters"
        expect_eq "$(json_get signature.status)" "absent"
        expect_eq "$(json_get errors)" "[]"
        [ "$(printf '%s\n' "$OUT" | wc -l)" -eq 1 ] || fail "not exactly one JSON line"
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml"
        expect_rc 0
        expect_out "denied   prc.adapter.compromised@3.0"
        expect_out "registry-revoked"
}

t_content_digest_is_the_canonical_digest_of_the_lockfile() {
        revoked_registry
        runp "$PRC" doc digest "$TMP/reg.yaml"
        local want=$OUT
        expect_eq "$(digest_of "$TMP/reg.yaml")" "$want"
        # The JSON spelling of the same document has the same content digest.
        /usr/bin/python3 -c 'import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2],"w"))' \
                "$TMP/reg.yaml" "$TMP/reg.json"
        expect_eq "$(digest_of "$TMP/reg.json")" "$want"
}

# expect_doc_error YAML-TEXT CLASS
expect_doc_error() {
        printf '%s\n' "$1" >"$TMP/bad.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/bad.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get valid)" "false"
        expect_eq "$(json_get errors.0.class)" "$2"
        expect_eq "$(json_get registry_id)" "null"
        expect_err "$2"
}

t_document_rejections() {
        revoked_registry
        local good
        good=$(cat "$TMP/reg.yaml")
        expect_doc_error "$good
default_trust: first-party-sandboxed" unknown-field
        expect_doc_error "${good/status: revoked/status: revoked
    trusted: true}" unknown-field
        expect_doc_error "${good/revision: 2/revision: 2
revision: 3}" duplicate-field
        expect_doc_error "${good/manifest_path: manifests\/compromised.yaml/manifest_path: ../compromised.yaml}" path-dotdot
        expect_doc_error "${good/manifest_path: manifests\/compromised.yaml/manifest_path: \/etc\/passwd}" path-absolute
        expect_doc_error "${good/trust: verified-community/trust: first-party}" invalid-value
        expect_doc_error "${good/status: revoked/status: retired}" invalid-value
        expect_doc_error "${good/schema: prc.adapter-registry\/v1/schema: prc.adapter-registry\/v9}" invalid-value
        expect_doc_error "${good/revision: 2/revision: two}" wrong-type
        expect_doc_error "${good/manifest_sha256: 7d1f/manifest_sha256: 7D1F}" invalid-digest
        expect_doc_error "$good
  - adapter_id: prc.adapter.compromised@3.0
    manifest_sha256: abababababababababababababababababababababababababababababababab
    publisher_id: example.org
    trust: verified-community
    status: revoked
    manifest_path: manifests/other.yaml" registry-duplicate-entry
}

t_missing_lockfile_is_an_io_error() {
        runp "$PRC" adapter registry-validate --file "$TMP/none.yaml" --format json
        expect_rc 3
        expect_eq "$(json_get errors.0.class)" "io-error"
}

# A copy of the example registry in $TMP/reg with its manifests.
copy_fixture() {
        mkdir -p "$TMP/reg"
        cp -r "$FIX/adapter-registry.yaml" "$FIX/manifests" "$TMP/reg/"
}

t_manifest_edited_after_pinning_is_caught() {
        copy_fixture
        sed -i 's/name: example-scanner/name: evil-scanner/' "$TMP/reg/manifests/example.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.0.reason)" "registry-digest-mismatch"
        expect_eq "$(json_get errors.0.class)" "registry-digest-mismatch"
        expect_eq "$(json_get errors.0.pointer)" "/entries/0/manifest_sha256"
        expect_eq "$(json_get valid)" "false"
}

t_symlinked_manifest_paths_are_refused() {
        copy_fixture
        # The file itself a symlink (to its own pinned bytes, so only the link is wrong).
        mv "$TMP/reg/manifests/example.yaml" "$TMP/reg/example.real.yaml"
        ln -s ../example.real.yaml "$TMP/reg/manifests/example.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.0.reason)" "registry-manifest-symlink"
        # A symlinked directory component.
        mv "$TMP/reg/manifests" "$TMP/reg/real-manifests"
        ln -s real-manifests "$TMP/reg/manifests"
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.1.reason)" "registry-manifest-symlink"
        expect_eq "$(json_get entries.5.reason)" "registry-revoked"
}

t_missing_manifest_of_an_active_entry_is_invalid() {
        copy_fixture
        rm "$TMP/reg/manifests/example.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.0.reason)" "registry-manifest-missing"
}

t_signature_verifies_against_the_selected_store() {
        revoked_registry
        newkey pub1
        store "$TMP/store.yaml" "[registry]"
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.sig"
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --trust-store "$TMP/store.yaml" \
                --signature "$TMP/reg.sig" --format json
        expect_rc 0
        expect_eq "$(json_get signature.status)" "verified"
        expect_eq "$(json_get signature.publisher_id)" "example.org"
        expect_eq "$(json_get signature.key_sha256)" "$KEYSHA"
        expect_eq "$(json_get valid)" "true"
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --trust-store "$TMP/store.yaml" \
                --signature "$TMP/reg.sig"
        expect_rc 0
        expect_out "signature: verified, publisher example.org"
}

# libcrypto starts without its configuration file (src/base/crypto.h): one that leaves no provider
# to fetch from, read, would fail the Ed25519 check; OPENSSL_CONF changes nothing.
t_signature_check_ignores_an_openssl_configuration() {
        revoked_registry
        newkey pub1
        store "$TMP/store.yaml" "[registry]"
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.sig"
        printf '%s\n' 'openssl_conf = prc_init' '[prc_init]' 'alg_section = prc_evp' '[prc_evp]' \
                'default_properties = "provider=prc-test-absent"' >"$TMP/openssl.cnf"
        OUT=$(OPENSSL_CONF="$TMP/openssl.cnf" "$PRC" adapter registry-validate --file "$TMP/reg.yaml" \
                --trust-store "$TMP/store.yaml" --signature "$TMP/reg.sig" --format json 2>"$TMP/err") && RC=0 || RC=$?
        ERR=$(cat "$TMP/err")
        expect_rc 0
        expect_eq "$(json_get signature.status)" "verified"
        expect_eq "$(json_get valid)" "true"
}

# expect_sig_rejected CLASS
expect_sig_rejected() {
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --trust-store "$TMP/store.yaml" \
                --signature "$TMP/reg.sig" --format json
        expect_rc 1
        expect_eq "$(json_get signature.status)" "rejected"
        expect_eq "$(json_get signature.reason)" "$1"
        expect_eq "$(json_get errors.0.class)" "$1"
        expect_eq "$(json_get valid)" "false"
}

t_signature_rejections_each_have_their_reason() {
        revoked_registry
        local dig other
        dig=$(digest_of "$TMP/reg.yaml")
        newkey outsider
        local outsider_sha=$KEYSHA
        newkey pub1
        store "$TMP/store.yaml" "[registry, manifest]"
        # Key not in the store.
        sign outsider registry "$dig" "$TMP/reg.sig" registry "$dig" "$outsider_sha"
        expect_sig_rejected signature-unknown-key
        # Replay across scope: a manifest signature presented for a registry...
        sign pub1 manifest "$dig" "$TMP/reg.sig"
        expect_sig_rejected signature-scope-mismatch
        # ...even with its claim rewritten.
        sign pub1 manifest "$dig" "$TMP/reg.sig" registry
        expect_sig_rejected signature-invalid
        # Replay across objects: the previous revision's signature.
        other=$(printf '%s' "$dig" | tr 0-9a-f 1-9a-f0 )
        sign pub1 registry "$other" "$TMP/reg.sig"
        expect_sig_rejected signature-digest-mismatch
        sign pub1 registry "$other" "$TMP/reg.sig" registry "$dig"
        expect_sig_rejected signature-invalid
        # A scope this key may not sign.
        store "$TMP/store.yaml" "[manifest]"
        sign pub1 registry "$dig" "$TMP/reg.sig"
        expect_sig_rejected signature-scope-not-allowed
        store "$TMP/store.yaml" "[registry]"
        # Truncated and malformed.
        sign pub1 registry "$dig" "$TMP/reg.sig"
        sed -i -E 's/^signature: "(.{40}).*"$/signature: "\1"/' "$TMP/reg.sig"
        expect_sig_rejected signature-truncated
        sign pub1 registry "$dig" "$TMP/reg.sig"
        sed -i -E 's/^signature: "(.{80}).*"$/signature: "\1!!!!!!!!"/' "$TMP/reg.sig"
        expect_sig_rejected signature-malformed
        printf 'not: [a signature\n' >"$TMP/reg.sig"
        expect_sig_rejected signature-malformed
        # The registry edited after signing.
        sign pub1 registry "$dig" "$TMP/reg.sig"
        sed -i 's/revision: 2/revision: 3/' "$TMP/reg.yaml"
        expect_sig_rejected signature-digest-mismatch
}

t_bad_trust_store_is_rejected() {
        revoked_registry
        newkey pub1
        store "$TMP/store.yaml" "[registry, catalog]"
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.sig"
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --trust-store "$TMP/store.yaml" \
                --signature "$TMP/reg.sig" --format json
        expect_rc 1
        expect_eq "$(json_get errors.0.class)" "trust-unknown-scope"
        expect_eq "$(json_get signature.status)" "rejected"
}

t_schema_validates_the_example_registry() {
        /usr/bin/python3 - "$FIX/adapter-registry.yaml" schemas/adapter-registry.schema.json <<'PY'
import copy, json, sys, yaml, jsonschema
doc = yaml.safe_load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
errs = list(v.iter_errors(doc))
assert not errs, [e.message for e in errs]
assert len(doc["entries"]) == 6
# The validator is not vacuous: each of these must fail.
def bad(mut):
    d = copy.deepcopy(doc); mut(d)
    assert not v.is_valid(d), "schema accepted a bad registry"
bad(lambda d: d.update(extra=1))
bad(lambda d: d["entries"][0].update(manifest_path="../x.yaml"))
bad(lambda d: d["entries"][0].update(manifest_path="a/./x.yaml"))
bad(lambda d: d["entries"][0].update(trust="trusted"))
bad(lambda d: d["entries"][0].update(status="retired"))
bad(lambda d: d["entries"][0].update(manifest_sha256="ABC"))
bad(lambda d: d["entries"][0].pop("publisher_id"))
bad(lambda d: d.update(revision=0))
print("schema ok")
PY
}

t_trust_store_and_signature_schemas_accept_what_prc_accepts() {
        revoked_registry
        newkey pub1
        store "$TMP/store.yaml" "[registry]"
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.sig"
        /usr/bin/python3 - "$TMP/store.yaml" schemas/adapter-trust-store.schema.json "$TMP/reg.sig" \
                schemas/adapter-signature.schema.json <<'PY'
import json, sys, yaml, jsonschema
for doc, sch in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    s = json.load(open(sch))
    jsonschema.Draft202012Validator.check_schema(s)
    jsonschema.Draft202012Validator(s).validate(yaml.safe_load(open(doc)))
print("ok")
PY
}

t_example_registry_decisions_and_records() {
        runp "$PRC" adapter registry-validate --file "$FIX/adapter-registry.yaml" --format json
        expect_rc 0
        expect_eq "$(json_get valid)" "true"
        expect_eq "$(json_get errors)" "[]"
        local want="admitted:null admitted:null denied:registry-trust-unverified-community denied:registry-deprecated"
        want="$want denied:registry-trust-local denied:registry-revoked"
        local got="" i
        for i in 0 1 2 3 4 5; do
                got="$got $(json_get entries.$i.decision):$(json_get entries.$i.reason)"
        done
        expect_eq "${got# }" "$want"
        expect_eq "$(json_get entries.0.resolution.grant)" "registry"
        expect_eq "$(json_get entries.0.resolution.trust)" "first-party-sandboxed"
        expect_eq "$(json_get entries.1.resolution.publisher_id)" "community.example"
        expect_eq "$(json_get entries.0.resolution.registry.revision)" "4"
        expect_eq "$(json_get entries.0.resolution.registry.content_sha256)" "$(json_get content_sha256)"
        runp "$PRC" doc digest "$FIX/manifests/example.yaml"
        local mdig=$OUT
        runp "$PRC" adapter registry-validate --file "$FIX/adapter-registry.yaml" --format json
        expect_eq "$(json_get entries.0.resolution.manifest_sha256)" "$mdig"
}

t_publisher_and_lifecycle_drift_are_caught() {
        copy_fixture
        sed -i '0,/publisher_id: example.org/s//publisher_id: impostor.example/' "$TMP/reg/adapter-registry.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.0.reason)" "registry-publisher-drift"
        copy_fixture
        # The old adapter's manifest says deprecated; an entry that calls it active has drifted.
        /usr/bin/python3 - "$TMP/reg/adapter-registry.yaml" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read().replace("status: deprecated", "status: active")
open(p, "w").write(s)
PY
        runp "$PRC" adapter registry-validate --file "$TMP/reg/adapter-registry.yaml" --format json
        expect_rc 1
        expect_eq "$(json_get entries.3.reason)" "registry-lifecycle-drift"
        expect_eq "$(json_get entries.0.decision)" "admitted"
}

# The whole JSON report for the example registry is golden (PRC_UPDATE_GOLDEN=1 rewrites it).
t_example_registry_report_is_golden() {
        local golden=tests/golden/registry/001-example-registry.out
        runp "$PRC" adapter registry-validate --file "$FIX/adapter-registry.yaml" --format json
        expect_rc 0
        if [ "${PRC_UPDATE_GOLDEN:-}" = 1 ]; then
                printf '%s\n' "$OUT" >"$golden"
        fi
        expect_eq "$OUT" "$(cat "$golden")"
        # Two runs give byte-identical reports.
        local first=$OUT
        runp "$PRC" adapter registry-validate --file "$FIX/adapter-registry.yaml" --format json
        expect_eq "$OUT" "$first"
}

t_signature_over_an_unloadable_registry_is_unchecked() {
        revoked_registry
        newkey pub1
        store "$TMP/store.yaml" "[registry]"
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.sig"
        printf 'schema: prc.adapter-registry/v1\n' >"$TMP/reg.yaml"
        runp "$PRC" adapter registry-validate --file "$TMP/reg.yaml" --trust-store "$TMP/store.yaml" \
                --signature "$TMP/reg.sig" --format json
        expect_rc 1
        expect_eq "$(json_get signature.status)" "unchecked"
        expect_eq "$(json_get errors.0.class)" "missing-field"
}

# Issue 16: `prc scan --adapter-registry` verifies the lockfile's detached signature before resolution.
# The only entry is revoked, so a lockfile that passes the signature check is refused one step later, by
# resolution (registry-revoked): the class says which check stopped the scan.  Nothing runs either way.
scan_reg() {
        runp "$PRC" scan --target "$TMP/t" --mode verify-local --adapter-registry "$TMP/reg.yaml" \
                --adapter-id prc.adapter.compromised@3.0 --format json "$@"
}

t_scan_requires_a_verified_registry_signature() {
        revoked_registry
        mkdir -p "$TMP/t"
        newkey pub1
        store "$TMP/store.yaml" "[registry]"
        # Unsigned: refused only when a signature is required.
        scan_reg --trust-store "$TMP/store.yaml" --require-signature
        expect_rc 4
        expect_err signature-required
        [ -z "$OUT" ] || fail "a refused scan printed a result"
        scan_reg --trust-store "$TMP/store.yaml"
        expect_rc 4
        expect_err registry-revoked
        # Signed (REGISTRY.sig beside the lockfile by default, or --registry-signature): resolution is reached.
        sign pub1 registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.yaml.sig"
        scan_reg --trust-store "$TMP/store.yaml" --require-signature
        expect_rc 4
        expect_err registry-revoked
        mv "$TMP/reg.yaml.sig" "$TMP/other.sig"
        scan_reg --trust-store "$TMP/store.yaml" --require-signature --registry-signature "$TMP/other.sig"
        expect_rc 4
        expect_err registry-revoked
        # Mis-signed: another key, or the lockfile changed after signing.  Refused, required or not.
        newkey outsider
        sign outsider registry "$(digest_of "$TMP/reg.yaml")" "$TMP/reg.yaml.sig"
        scan_reg --trust-store "$TMP/store.yaml"
        expect_rc 4
        expect_err signature-unknown-key
        sed -i 's/revision: 2/revision: 3/' "$TMP/reg.yaml"
        scan_reg --trust-store "$TMP/store.yaml" --require-signature --registry-signature "$TMP/other.sig"
        expect_rc 4
        expect_err signature-digest-mismatch
        [ -z "$OUT" ] || fail "a refused scan printed a result"
}

t_scan_signature_options_need_a_registry_and_a_store() {
        revoked_registry
        mkdir -p "$TMP/t"
        runp "$PRC" scan --target "$TMP/t" --mode verify-local --require-signature
        expect_rc 2
        expect_err "need --adapter-registry"
        scan_reg --require-signature
        expect_rc 2
        expect_err "need --trust-store"
        scan_reg --registry-signature "$TMP/x.sig"
        expect_rc 2
        expect_err "need --trust-store"
}
