# test_native_oci.sh - the native Syft and Grype protocols end to end through
# the OCI runner (issue 10): static stand-ins (tests/helpers/syft_standin.c,
# grype_standin.c) as /syft and /grype in scratch test images with their
# recorded reports (tests/golden/native/, see PROVENANCE.md), test-only
# manifests pinned to each image's own digest (accepted only by PRC_TESTING
# builds, via PRC_TEST_NATIVE_STANDIN), the bundled catalog with PRC-A-SC-001
# and PRC-A-SC-002 bound to them, a grype-db directory generated here as the
# runner's external data, and `prc scan --mode verify-local` as the
# unprivileged test user.  Nothing here needs ../shared/corpora.
# shellcheck disable=SC1091
source "$PRC_ROOT/tests/cli/oci_lib.sh"

PRCT=$PRC_ROOT/build/test/prc
NOW=2026-07-22T12:00:00Z
SYFT_ID=prc-test.syft-standin@1.51
GRYPE_ID=prc-test.grype-standin@0.116
# The recorded Grype reports name this database (an invented archive; tests/golden/native/PROVENANCE.md).
DB_URL='https://grype.anchore.io/databases/v6/vulnerability-db_v6.1.9_2026-07-20T23:51:30Z_1784614365.tar.zst?checksum=sha256%3A3f7c9a1be05d4c2e8f6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4'

# native_standin_image TOOL REPORT...: print the pinned reference of TOOL's stand-in image (/TOOL, the
# recorded reports under /prc-standin/ as "name=golden-file"), building it when its sources changed.
native_standin_image() {
        local tool=$1 key cache d r
        shift
        key=$( { cat "$PRC_ROOT/tests/helpers/${tool}_standin.c" "$PRC_ROOT/tests/helpers/native_standin.h" \
                "$PRC_ROOT"/src/adapter/native/*.[ch] "$PRC_ROOT"/src/base/*.[ch]
                for r in "$@"; do echo "$r"; cat "$PRC_ROOT/tests/golden/native/${r#*=}"; done; } |
                sha256sum | cut -c1-16)
        cache="$OCI_STATE/images/$tool-standin-$key"
        oci_cached "$cache" && return 0
        d=$(mktemp -d /tmp/prc-img-XXXXXX)
        mkdir -p "$d/root/tmp" "$d/root/prc-snapshot" "$d/root/prc-inputs" "$d/root/prc-standin"
        chmod 1777 "$d/root/tmp"
        oci_static_standin "$PRC_ROOT/tests/helpers/${tool}_standin.c" "$d/root/$tool" "$d/cc.log" ||
                { cat "$d/cc.log" >&2; rm -rf "$d"; return 1; }
        for r in "$@"; do
                cp "$PRC_ROOT/tests/golden/native/${r#*=}" "$d/root/prc-standin/${r%%=*}" || { rm -rf "$d"; return 1; }
        done
        chmod 644 "$d"/root/prc-standin/*
        oci_publish_rootfs "$d" "prc-test/$tool-standin" "$key" "$cache"
}

OCI_OK=1
if ! oci_standin_ready; then
        OCI_OK=0
else
        if ! SYFT=$(native_standin_image syft report.json=syft/001-dir.in); then
                OCI_OK=0
                OCI_SETUP_ERR="cannot build the Syft stand-in image"
        elif ! GRYPE=$(native_standin_image grype findings.json=grype/001-dir.in empty.json=grype/003-empty.in); then
                OCI_OK=0
                OCI_SETUP_ERR="cannot build the Grype stand-in image"
        fi
fi

# standin_manifest BUNDLED ID REPO DIGEST OUT: the bundled manifest with only id, image and host-sized limits changed.
standin_manifest() {
        sed -e "s/^adapter_id: .*/adapter_id: $2/" \
                -e "s|^  registry: .*|  registry: \"$OCI_REG\"|" \
                -e "s|^  repository: .*|  repository: $3|" \
                -e "s|^  digest: .*|  digest: $4|" \
                -e 's/^  wall_seconds: .*/  wall_seconds: 60/' \
                -e 's/^  memory_bytes: .*/  memory_bytes: 268435456/' \
                "$PRC_ROOT/adapters/$1" >"$5"
        chmod 644 "$5"
}

# grype_db DIR [SOURCE-URL] [PROVIDERS-TO-DROP...]: a grype-db directory as `grype db import` leaves it:
# 6/import.json (strict: digest, source, client_version) and 6/vulnerability.db, which here holds the
# providers table as JSON for the stand-in (the normalizer judges it through the report).
grype_db() {
        local dir=$1 url=${2:-$DB_URL}
        shift 2 2>/dev/null || shift $#
        mkdir -p "$dir/6"
        /usr/bin/python3 -c 'import json,sys
p={"nvd":{"captured":"2026-07-20T23:51:30Z","input":"xxh64:83650024d7878758"},
   "epss":{"captured":"2026-07-21T00:10:02Z","input":"xxh64:1f2e3d4c5b6a7980"},
   "kev":{"captured":"2026-07-21T00:09:41Z","input":"xxh64:0a9b8c7d6e5f4031"},
   "debian":{"captured":"2026-07-21T00:30:00Z","input":"xxh64:5139adec54659a52"}}
for k in sys.argv[2:]: del p[k]
json.dump(p, open(sys.argv[1], "w"))' "$dir/6/vulnerability.db" "$@"
        # import.json records the database's xxh64 as `grype db import` does (Debian's xxhsum computes it).
        printf '{\n "digest": "xxh64:%s",\n "source": "%s",\n "client_version": "v6.1.9"\n}\n' \
                "$(xxhsum -H64 <"$dir/6/vulnerability.db" | cut -c1-16)" "$url" >"$dir/6/import.json"
        chmod -R a+rX "$dir"
}

# setup_native: manifests, the bundled catalog rebound to them, a generated grype-db and target trees under $TMP.
setup_native() {
        [ "$OCI_OK" -eq 1 ] || fail "$OCI_SETUP_ERR"
        chmod 755 "$TMP"
        mkdir -p "$TMP/catalog"
        standin_manifest syft-v1.51.0.yaml "$SYFT_ID" prc-test/syft-standin "${SYFT#*@}" "$TMP/syft.yaml"
        standin_manifest grype-v0.116.1.yaml "$GRYPE_ID" prc-test/grype-standin "${GRYPE#*@}" "$TMP/grype.yaml"
        local bs bg ds dg
        bs=$("$PRCT" doc digest "$PRC_ROOT/adapters/syft-v1.51.0.yaml")
        bg=$("$PRCT" doc digest "$PRC_ROOT/adapters/grype-v0.116.1.yaml")
        ds=$("$PRCT" doc digest "$TMP/syft.yaml")
        dg=$("$PRCT" doc digest "$TMP/grype.yaml")
        sed -e "s/$bs/$ds/" -e "s/$bg/$dg/" -e "s/adapter_id: prc.adapter.syft@1.51/adapter_id: $SYFT_ID/" \
                -e "s/adapter_id: prc.adapter.grype@0.116/adapter_id: $GRYPE_ID/" \
                "$PRC_ROOT/catalog/catalog.yaml" >"$TMP/catalog/catalog.yaml"
        grep -q "$ds" "$TMP/catalog/catalog.yaml" && grep -q "$dg" "$TMP/catalog/catalog.yaml" ||
                fail "the bundled catalog no longer binds the bundled Syft and Grype manifests"
        grype_db "$TMP/db"
        # sbom: exactly the files the recorded Syft report names (an empty METADATA: its SHA-256 is in the report)
        mkdir -p "$TMP/sbom/pkg1" "$TMP/sbom/var/lib/dpkg" "$TMP/vuln/foo/bar" "$TMP/clean"
        : >"$TMP/sbom/pkg1/METADATA"
        printf 'Package: package-2\nVersion: 2.0.1\n' >"$TMP/sbom/var/lib/dpkg/status"
        printf 'package-1 evidence\n' >"$TMP/vuln/foo/bar/somefile-1.txt"
        printf 'nothing to see\n' >"$TMP/clean/README"
        chmod -R a+rX "$TMP/catalog" "$TMP/sbom" "$TMP/vuln" "$TMP/clean"
}

# scan_native TREE ENV... -- ARGS...: prc scan of $TMP/TREE with both stand-ins and the supply-chain profile.
scan_native() {
        local tree=$1 envs=()
        shift
        while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
        [ $# -gt 0 ] && shift
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${STANDIN_DIGEST:-${SYFT#*@}}" "${envs[@]}" "$PRCT" scan \
                --target "$TMP/$tree" --catalog-root "$TMP/catalog" --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$TMP/${MANIFEST:-syft}.yaml" --now "$NOW" --format json "$@"
}

# scan_grype TREE [ENV...] [-- ARGS...]: the same with the Grype stand-in and $TMP/db as its grype-db.
scan_grype() {
        local tree=$1
        shift
        local envs=()
        while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
        [ $# -gt 0 ] && shift
        STANDIN_DIGEST=${STANDIN_DIGEST:-${GRYPE#*@}} MANIFEST=grype scan_native "$tree" "${envs[@]}" -- \
                --adapter-data "$GRYPE_ID/grype-db=${DB:-$TMP/db}" "$@"
}

# sc EXPR: evaluate EXPR over the run result r, with a = PRC-A-SC-001 and b = PRC-A-SC-002 (and rec, the first record).
sc() {
        /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read())
row=lambda i: [x for x in r["assertions"] if x["id"]==i][0]
rec=(r["executions"] or [None])[0]
print(json.dumps(eval(sys.argv[1], {"a": row("PRC-A-SC-001"), "b": row("PRC-A-SC-002"), "r": r, "rec": rec})))' "$1" <<<"$OUT"
}

# expect_class CLASS: the one execution record (or the run's errors) names CLASS.
expect_class() {
        local got
        got=$(sc '[rec["error_class"]] if rec else [e["class"] for e in r["errors"]]')
        grep -q "\"$1\"" <<<"$got" || fail "want $1, got $got (stderr: ${ERR:0:300})"
}

t_native_oci_syft_sbom_passes_and_the_state_dir_holds_its_bytes() {
        setup_native
        mkdir -p "$TMP/state" && chmod 777 "$TMP/state"
        [ "$(id -u)" -ne 0 ] || chown "$OCI_USER" "$TMP/state"
        scan_native sbom -- --state-dir "$TMP/state/s"
        expect_rc 1     # the profile's other assertions are not all Pass; SC-001 is
        expect_eq "$(sc 'a["state"]')" '"Pass"'
        expect_eq "$(sc 'rec["disposition"]')" '"accepted"'
        expect_eq "$(sc 'a["evidence"][0]["observation"]["outcome"]')" '"value"'
        expect_eq "$(sc 'a["evidence"][0]["observation"]["value"]["generated"]')" '"repository-inventory-sbom"'
        expect_eq "$(sc 'a["evidence"][0]["observation"]["value"]["components"]')" 4
        sha=$(sc 'rec["artifacts"][0]["sha256"]' | tr -d '"')
        expect_eq "$(sc 'a["evidence"][0]["observation"]["value"]["sha256"]')" "\"$sha\""
        expect_eq "$(sc 'rec["artifacts"][0]["media_type"]')" '"application/vnd.cyclonedx+json;version=1.7"'
        # The bytes are under --state-dir by their digest, and the stored run names them (prc_state_write
        # writes artifacts before the run record; tests/unit/test_state.c crashes in between to prove it).
        [ -f "$TMP/state/s/artifacts/$sha" ] || fail "artifact $sha not in the state dir"
        expect_eq "$(sha256sum <"$TMP/state/s/artifacts/$sha" | cut -d' ' -f1)" "$sha"
        id=$(sc 'r["id"]' | tr -d '"')
        [ -f "$TMP/state/s/runs/$id.json" ] || fail "run $id not in the state dir"
        grep -q "$sha" "$TMP/state/s/runs/$id.json" || fail "the stored run does not name the artifact"
        /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert "serialNumber" not in d and "timestamp" not in d["metadata"], "per-run values kept"
assert "bom-ref" not in d["metadata"]["component"], "source bom-ref kept"
assert [c["bom-ref"] for c in d["components"]] == sorted(c["bom-ref"] for c in d["components"])' \
                "$TMP/state/s/artifacts/$sha" || fail "the stored SBOM is not the normalized one"
        # A second run: Syft wrote a new serial number, timestamp and source bom-ref (so another report),
        # and the normalized SBOM is byte for byte the same.
        first_report=$(sc 'rec["artifacts"][0]["report"]["sha256"]')
        scan_native sbom -- --state-dir "$TMP/state/s"
        expect_eq "$(sc 'a["state"]')" '"Pass"'
        expect_eq "$(sc 'rec["artifacts"][0]["sha256"]')" "\"$sha\""
        [ "$(sc 'rec["artifacts"][0]["report"]["sha256"]')" != "$first_report" ] ||
                fail "the stand-in printed the same report twice; the rerun proves nothing"
        expect_eq "$(ls "$TMP/state/s/artifacts" | wc -l)" 1
        expect_eq "$(sha256sum <"$TMP/state/s/artifacts/$sha" | cut -d' ' -f1)" "$sha"
}

t_native_oci_syft_report_naming_files_outside_the_inventory_is_not_a_pass() {
        setup_native
        # The recorded SBOM names /var/lib/dpkg/status, which this tree does not have.
        rm "$TMP/sbom/var/lib/dpkg/status"
        scan_native sbom
        expect_eq "$(sc 'a["state"]')" '"Unknown"'
        expect_eq "$(sc 'rec["disposition"]')" '"rejected"'
        expect_class native-path-outside
        expect_eq "$(sc 'len(a["evidence"])')" 0
}

t_native_oci_syft_file_digest_differing_from_the_inventory_is_not_a_pass() {
        setup_native
        printf 'changed\n' >"$TMP/sbom/pkg1/METADATA"
        scan_native sbom
        expect_eq "$(sc 'a["state"]')" '"Unknown"'
        expect_class native-inventory-mismatch
}

t_native_oci_grype_findings_fail_with_their_evidence() {
        setup_native
        scan_grype vuln
        expect_rc 1
        expect_eq "$(sc 'b["state"]')" '"Fail"'
        expect_eq "$(sc 'rec["disposition"]')" '"accepted"'
        expect_eq "$(sc 'sorted(e["observation"]["value"]["vulnerability_id"] for e in b["evidence"])')" \
                '["CVE-1999-0001", "CVE-1999-0002"]'
        expect_eq "$(sc '[e["observation"]["locations"] for e in b["evidence"] if e["observation"]["value"]["vulnerability_id"] == "CVE-1999-0001"][0]')" \
                '[{"path": "foo/bar/somefile-1.txt"}]'
        expect_eq "$(sc 'rec["artifacts"][0]["media_type"]')" '"application/vnd.prc.grype-findings+json;version=1"'
        expect_eq "$(sc '[d["name"] for d in rec["data_inputs"]]')" '["grype-db"]'
        # found observations carry their vulnerability in value; the record stays a valid record
        sc 'rec' >"$TMP/rec.json"
        run "$PRCT" record show "$TMP/rec.json"
        expect_rc 0
}

t_native_oci_grype_no_matches_passes_with_time_bound_evidence() {
        setup_native
        scan_grype clean
        expect_eq "$(sc 'b["state"]')" '"Pass"'
        expect_eq "$(sc 'len(b["evidence"])')" 1
        expect_eq "$(sc 'b["evidence"][0]["observation"]["outcome"]')" '"not_found"'
        # not_found is evidence for that database and that clock only: both are recorded.
        expect_eq "$(sc 'b["evidence"][0]["observation"]["value"]')" \
                '{"db_built": "2026-07-21T06:12:45Z", "now": "2026-07-22T12:00:00Z"}'
}

t_native_oci_grype_stale_db_is_refused() {
        setup_native
        # 120 h after the build plus one second
        NOW=2026-07-26T06:12:46Z scan_grype clean
        expect_eq "$(sc 'b["state"]')" '"Unknown"'
        expect_class native-db-stale
        NOW=2026-07-26T06:12:45Z scan_grype clean
        expect_eq "$(sc 'b["state"]')" '"Pass"'
}

t_native_oci_grype_wrong_schema_db_is_refused() {
        setup_native
        grype_db "$TMP/db5" "${DB_URL//v6.1.9/v5.1.9}"
        DB=$TMP/db5 scan_grype clean
        expect_eq "$(sc 'b["state"]')" '"Unknown"'
        expect_class native-db-identity
}

t_native_oci_grype_db_changed_after_import_is_refused() {
        setup_native
        # import.json no longer describes the database beside it: refused before grype starts.
        grype_db "$TMP/edited" "$DB_URL"
        printf ' ' >>"$TMP/edited/6/vulnerability.db"
        DB=$TMP/edited scan_grype clean
        expect_eq "$(sc 'b["state"]')" '"Unknown"'
        expect_class native-db-identity
        grep -q 'import.json records' <<<"$OUT$ERR" || fail "the xxh64 mismatch is not named: ${OUT:0:300} ${ERR:0:300}"
}

t_native_oci_grype_db_without_kev_provenance_is_refused() {
        setup_native
        # import.json is valid, so the runner starts grype; the report's providers lack KEV.
        grype_db "$TMP/nokev" "$DB_URL" kev
        DB=$TMP/nokev scan_grype vuln
        expect_eq "$(sc 'b["state"]')" '"Unknown"'
        expect_eq "$(sc 'rec["disposition"]')" '"rejected"'
        expect_class native-db-provenance
}

t_native_oci_grype_db_without_epss_or_nvd_provenance_is_refused() {
        setup_native
        for p in epss nvd; do
                grype_db "$TMP/no$p" "$DB_URL" "$p"
                DB=$TMP/no$p scan_grype clean
                expect_eq "$(sc 'b["state"]')" '"Unknown"'
                expect_class native-db-provenance
        done
}

t_native_oci_grype_without_its_db_is_refused() {
        setup_native
        MANIFEST=grype STANDIN_DIGEST=${GRYPE#*@} scan_native clean
        expect_eq "$(sc 'b["state"]')" '"Unknown"'
        grep -q 'grype-db' <<<"$OUT$ERR" || fail "the missing grype-db is not named: ${OUT:0:300} ${ERR:0:300}"
}

t_native_oci_override_differing_from_reviewed_digest_is_an_error() {
        setup_native
        # A production test-image override that is not the reviewed Syft or Grype digest is an error, never a skip.
        scan_native sbom PRC_NATIVE_TEST_IMAGE="${SYFT#*@}"
        expect_refused native-image-unreviewed
        scan_grype clean PRC_NATIVE_TEST_IMAGE="${GRYPE#*@}"
        expect_refused native-image-unreviewed
}

t_native_oci_standin_whose_digest_is_not_the_pinned_one_is_refused() {
        setup_native
        # The gate names the Grype stand-in; the Syft manifest pins another image: refused, not run.
        STANDIN_DIGEST=${GRYPE#*@} scan_native sbom
        expect_refused native-image-unreviewed
        STANDIN_DIGEST=${SYFT#*@} scan_grype clean
        expect_refused native-image-unreviewed
}

t_native_oci_release_build_never_runs_the_standins() {
        setup_native
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${SYFT#*@}" "$PRC" scan --target "$TMP/sbom" \
                --catalog-root "$TMP/catalog" --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$TMP/syft.yaml" --now "$NOW" --format json
        expect_refused native-image-unreviewed
}

# Issue 17: the bundled Syft and Grype manifests carry the reviewed digests, so every gate passes with the
# bundled catalog and the runner stops only where the image is absent (these tests never pull): the error names
# `prc setup native`, the command that pulls exactly those digests.  Where an operator already pulled them, the
# real tools ran instead, and nothing was refused.
t_native_oci_bundled_syft_and_grype_reach_the_image_check() {
        setup_native
        local ref_s ref_g
        ref_s=$(sed -n 's/^  registry: //p; s/^  repository: //p; s/^  digest: //p' "$PRC_ROOT/adapters/syft-v1.51.0.yaml" |
                paste -sd'/@')
        ref_g=$(sed -n 's/^  registry: //p; s/^  repository: //p; s/^  digest: //p' "$PRC_ROOT/adapters/grype-v0.116.1.yaml" |
                paste -sd'/@')
        expect_eq "$ref_s" docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0
        expect_eq "$ref_g" docker.io/anchore/grype@sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db
        run as_user "$PRCT" scan --target "$TMP/sbom" --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$PRC_ROOT/adapters/syft-v1.51.0.yaml" \
                --adapter-manifest "$PRC_ROOT/adapters/grype-v0.116.1.yaml" \
                --adapter-data "prc.adapter.grype@0.116/grype-db=$TMP/db" --now "$NOW" --format json
        expect_rc 1
        ! grep -q native-image-unreviewed <<<"$OUT$ERR" || fail "a reviewed bundled manifest was refused: ${ERR:0:300}"
        local ref id
        for ref in "$ref_s" "$ref_g"; do
                docker image inspect "$ref" >/dev/null 2>&1 && continue
                id=prc.adapter.syft@1.51
                [ "$ref" = "$ref_g" ] && id=prc.adapter.grype@0.116
                expect_eq "$(sc '[e["class"] for e in r["errors"] if e.get("adapter") == "'"$id"'"]')" '["oci-image-absent"]'
                grep -q "prc setup native" <<<"$(sc '[e["message"] for e in r["errors"] if e.get("adapter") == "'"$id"'"]')" ||
                        fail "the oci-image-absent of $id does not name prc setup native: ${OUT:0:400}"
                expect_err "the pinned image of $id is not present; \`prc setup native\` pulls exactly the reviewed digest"
                expect_err "docker pull $ref"
        done
}

# unreviewed_syft DIR: a copy of the bundled Syft manifest with a digest nobody reviewed, and a copy of the
# bundled catalog binding PRC-A-SC-001 to that copy (issue 17: the bundled manifest itself is reviewed now, so the
# unreviewed path is tested with a manifest that is unreviewed and still authorized by its catalog).
unreviewed_syft() {
        mkdir -p "$1/catalog"
        sed -e 's/^  digest: .*/  digest: sha256:0000000000000000000000000000000000000000000000000000000000000001/' \
                "$PRC_ROOT/adapters/syft-v1.51.0.yaml" >"$1/syft.yaml"
        local bs ds
        bs=$("$PRCT" doc digest "$PRC_ROOT/adapters/syft-v1.51.0.yaml")
        ds=$("$PRCT" doc digest "$1/syft.yaml")
        sed -e "s/$bs/$ds/" "$PRC_ROOT/catalog/catalog.yaml" >"$1/catalog/catalog.yaml"
        grep -q "$ds" "$1/catalog/catalog.yaml" || fail "the bundled catalog no longer binds the bundled Syft manifest"
        chmod -R a+rX "$1"
}

t_native_oci_unreviewed_syft_is_refused_with_its_catalog() {
        setup_native
        unreviewed_syft "$TMP/u"
        run as_user "$PRCT" scan --target "$TMP/sbom" --catalog-root "$TMP/u/catalog" --profile prc/supply-chain \
                --mode verify-local --adapter-manifest "$TMP/u/syft.yaml" --now "$NOW" --format json
        expect_refused native-image-unreviewed
        expect_err prc.adapter.syft@1.51
}

# Issue 16: the complete set is authorized, native gates included, before the runtime is invoked for any
# adapter.  Gitleaks (reviewed, and first in execution order) with an unreviewed Syft (a copy bound by a test
# catalog, issue 17): the set is refused and the docker client is never started, not even for Gitleaks.  A
# docker on PATH that only records its calls tells; the real one is found by its real path, so the wrapper is
# a binary that records and then execs it.
t_native_oci_unreviewed_syft_keeps_gitleaks_from_the_runtime() {
        setup_native
        unreviewed_syft "$TMP/u"
        local rules=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}/native/gitleaks/config/gitleaks.toml
        [ -f "$rules" ] || rules=/work/shared/corpora/native/gitleaks/config/gitleaks.toml
        [ -f "$rules" ] || fail "the Gitleaks ruleset corpus is absent ($rules)"
        "$PRC_ROOT/build/test/helpers/gzip_det" <"$rules" >"$TMP/rules.gz" && chmod 644 "$TMP/rules.gz"
        mkdir -p "$TMP/bin" "$TMP/calls" && chmod 777 "$TMP/calls"
        printf '#include <unistd.h>\n#include <fcntl.h>\nint main(int c, char **v) { (void)c; int fd = open("%s/calls/called", O_WRONLY | O_CREAT | O_APPEND, 0666); if (fd >= 0) (void)write(fd, "x", 1); execv("%s", v); return 127; }\n' \
                "$TMP" "$(command -v docker)" >"$TMP/bin/docker.c"
        cc -O2 -o "$TMP/bin/docker" "$TMP/bin/docker.c" && chmod 755 "$TMP/bin" "$TMP/bin/docker"
        # The wrapper works: a scan with the reviewed Gitleaks alone reaches it.
        OCI_PATH="$TMP/bin:$PATH" run as_user "$PRCT" scan --target "$TMP/clean" --catalog-root "$TMP/u/catalog" \
                --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" --gitleaks-ruleset "$TMP/rules.gz" --format json
        [ -s "$TMP/calls/called" ] || fail "the recording docker was never called: ${ERR:0:300}"
        rm -f "$TMP/calls/called"
        OCI_PATH="$TMP/bin:$PATH" run as_user "$PRCT" scan --target "$TMP/clean" --catalog-root "$TMP/u/catalog" \
                --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" \
                --adapter-manifest "$TMP/u/syft.yaml" --gitleaks-ruleset "$TMP/rules.gz" --format json
        expect_refused native-image-unreviewed
        expect_err prc.adapter.syft@1.51
        [ ! -e "$TMP/calls/called" ] || fail "the runtime was invoked before the set was refused"
}

t_native_oci_both_standins_in_one_scan() {
        setup_native
        cp -r "$TMP/sbom/." "$TMP/vuln/"
        chmod -R a+rX "$TMP/vuln"
        run as_user /usr/bin/env PRC_TEST_NATIVE_STANDIN="${SYFT#*@},${GRYPE#*@}" "$PRCT" scan --target "$TMP/vuln" \
                --catalog-root "$TMP/catalog" --profile prc/supply-chain --mode verify-local \
                --adapter-manifest "$TMP/syft.yaml" --adapter-manifest "$TMP/grype.yaml" \
                --adapter-data "$GRYPE_ID/grype-db=$TMP/db" --now "$NOW" --format json
        expect_rc 1
        expect_eq "$(sc 'a["state"]')" '"Pass"'
        expect_eq "$(sc 'b["state"]')" '"Fail"'
        expect_eq "$(sc 'sorted(x["disposition"] for x in r["executions"])')" '["accepted", "accepted"]'
        # Both records, with Syft's value and Grype's time-bound values, match the execution-record schema.
        printf '%s\n' "$OUT" >"$TMP/run.json"
        /usr/bin/python3 -c 'import json,sys,jsonschema
v=jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for rec in json.load(open(sys.argv[2]))["executions"]: v.validate(rec)' \
                "$PRC_ROOT/schemas/execution-record.schema.json" "$TMP/run.json" || fail "a record does not match its schema"
}

# The stand-ins' own checks, host-side (no container): without them the end-to-end tests above could
# pass with a runner that forgot the owned configuration, leaked tool variables or changed the argv.
HSYFT=$PRC_ROOT/build/test/helpers/syft_standin
HGRYPE=$PRC_ROOT/build/test/helpers/grype_standin

# host_tree: $TMP/h as the runner's snapshot would be (owned configs under .prc/), reports in $TMP/rep.
host_tree() {
        [ -x "$HSYFT" ] && [ -x "$HGRYPE" ] || fail "build/test helpers are not built (make testbuild)"
        mkdir -p "$TMP/h/.prc/syft" "$TMP/h/.prc/grype" "$TMP/h/pkg1" "$TMP/h/var/lib/dpkg" "$TMP/rep"
        : >"$TMP/h/pkg1/METADATA"
        printf 'x\n' >"$TMP/h/var/lib/dpkg/status"
        # the owned bytes exactly as the headers define them (PRC_*_CONFIG_BYTES string literals)
        /usr/bin/python3 - src/adapter/native/syft.h "$TMP/h/.prc/syft/config.yaml" src/adapter/native/grype.h \
                "$TMP/h/.prc/grype/config.yaml" <<'PY'
import re, sys
for hdr, out in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    m = re.search(r"#define PRC_\w+_CONFIG_BYTES(.*?)#define", open(hdr).read(), re.S).group(1)
    lits = re.findall(r'"((?:[^"\\]|\\.)*)"', m)
    open(out, "w").write("".join(lits).encode().decode("unicode_escape"))
PY
        cp tests/golden/native/syft/001-dir.in "$TMP/rep/report.json"
        cp tests/golden/native/grype/001-dir.in "$TMP/rep/findings.json"
        cp tests/golden/native/grype/003-empty.in "$TMP/rep/empty.json"
        grype_db "$TMP/db"
}

hsyft() {
        run /usr/bin/env -i PRC_STANDIN_ROOT="$TMP/h" PRC_STANDIN_REPORTS="$TMP/rep" "$@" "$HSYFT" scan \
                dir:/prc-snapshot --config=/prc-snapshot/.prc/syft/config.yaml '--exclude=./.prc/**' \
                --output=cyclonedx-json@1.7 --quiet </dev/null
}

hgrype() {
        run /usr/bin/env -i PRC_STANDIN_ROOT="$TMP/h" PRC_STANDIN_REPORTS="$TMP/rep" PRC_STANDIN_DB="$TMP/db" "$@" \
                "$HGRYPE" dir:/prc-snapshot --config=/prc-snapshot/.prc/grype/config.yaml '--exclude=./.prc/**' \
                --output=json --quiet </dev/null
}

t_native_standin_syft_checks_how_it_was_started() {
        host_tree
        hsyft
        expect_rc 0
        printf '%s\n' "$OUT" >"$TMP/sbom.json"
        run "$PRCT" adapter validate-output --manifest adapters/syft-v1.51.0.yaml --file "$TMP/sbom.json"
        expect_rc 0
        hsyft SYFT_CHECK_FOR_APP_UPDATE=true
        expect_rc 1
        expect_err "a SYFT_* variable is set"
        printf 'enrich: [all]\n' >>"$TMP/h/.prc/syft/config.yaml"
        hsyft
        expect_rc 1
        expect_err "config.yaml is absent or differs"
        run /usr/bin/env -i PRC_STANDIN_ROOT="$TMP/h" "$HSYFT" scan dir:/prc-snapshot --output=cyclonedx-json@1.7
        expect_rc 1
        expect_err "argv differs"
}

t_native_standin_grype_reads_the_mounted_db_and_the_snapshot() {
        host_tree
        hgrype
        expect_rc 0
        expect_eq "$(json_get matches)" '[]'
        expect_eq "$(json_get descriptor.db.status.from)" "$DB_URL"
        mkdir -p "$TMP/h/foo/bar" && printf 'e\n' >"$TMP/h/foo/bar/somefile-1.txt"
        hgrype
        expect_rc 0
        expect_eq "$(json_get matches.0.vulnerability.id)" CVE-1999-0001
        hgrype PRC_STANDIN_DB="$TMP/none"
        expect_rc 1
        expect_err "failed to load vulnerability db"
        hgrype GRYPE_DB_AUTO_UPDATE=true
        expect_rc 1
        expect_err "a GRYPE_* variable is set"
        rm "$TMP/h/.prc/grype/config.yaml"
        hgrype
        expect_rc 1
        expect_err "config.yaml is absent or differs"
}
