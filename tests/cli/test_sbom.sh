# test_sbom.sh - `prc sbom`: a CycloneDX 1.6 JSON SBOM from prc's own extraction, over the fixture
# tree tests/fixtures/sbom/tree (npm, Python, Cargo and Go manifests and lockfiles).  The output is
# validated against the official CycloneDX 1.6 schema from the npm package @cyclonedx/cyclonedx-library
# (scripts/setup.sh --cyclonedx; tests/cdx_validate.py serves the schemas it references locally).

FX=tests/fixtures/sbom/tree
CDX_SCHEMA=${PRC_CYCLONEDX_SCHEMA:-${PRC_CYCLONEDX_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/cyclonedx}/node_modules/@cyclonedx/cyclonedx-library/res/schema}

# py_check FILE 'python statements over d (the BOM)': a failed assert fails the test.
py_check() {
        /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])' "$1" "$2" ||
                fail "check failed on $1"
}

t_sbom_validates_against_the_official_cyclonedx_1_6_schema() {
        if [ ! -f "$CDX_SCHEMA/bom-1.6.SNAPSHOT.schema.json" ]; then
                echo "    the CycloneDX schema is absent ($CDX_SCHEMA; run scripts/setup.sh --cyclonedx):" \
                     "the SBOM was not validated" >&2
                [ "${CI:-}" = "true" ] && return 1
                return 0
        fi
        "$PRC" sbom --target "$FX" >"$TMP/bom.json" || fail "prc sbom exited $?"
        /usr/bin/python3 tests/cli/cdx_validate.py "$CDX_SCHEMA" "$TMP/bom.json" || fail "not a valid CycloneDX 1.6 BOM"
        # The validator is not vacuous, and resolves the referenced SPDX schema locally.
        cp "$TMP/bom.json" "$TMP/mit.json"
        py_check "$TMP/mit.json" 'd["components"][0]["licenses"] = [{"license": {"id": "MIT"}}]; json.dump(d, open(sys.argv[1], "w"))'
        /usr/bin/python3 tests/cli/cdx_validate.py "$CDX_SCHEMA" "$TMP/mit.json" || fail "an SPDX id was refused"
        py_check "$TMP/bom.json" 'd["components"][0]["scope"] = "bogus"; json.dump(d, open(sys.argv[1], "w"))'
        ! /usr/bin/python3 tests/cli/cdx_validate.py "$CDX_SCHEMA" "$TMP/bom.json" 2>/dev/null ||
                fail "the validator accepted an invalid scope"
        py_check "$TMP/mit.json" 'd["components"][0]["licenses"] = [{"license": {"id": "NOT-SPDX"}}]; json.dump(d, open(sys.argv[1], "w"))'
        ! /usr/bin/python3 tests/cli/cdx_validate.py "$CDX_SCHEMA" "$TMP/mit.json" 2>/dev/null ||
                fail "the validator accepted a license id SPDX does not name"
}

t_sbom_is_deterministic_across_runs_and_paths() {
        "$PRC" sbom --target "$FX" >"$TMP/a.json" || fail "run 1 exited $?"
        "$PRC" sbom --target "$FX" >"$TMP/b.json" || fail "run 2 exited $?"
        cmp -s "$TMP/a.json" "$TMP/b.json" || fail "two runs differ"
        mkdir -p "$TMP/else/where"
        cp -a "$FX" "$TMP/else/where/copy"
        "$PRC" sbom --target "$TMP/else/where/copy" >"$TMP/c.json" || fail "run from the copy exited $?"
        cmp -s "$TMP/a.json" "$TMP/c.json" || fail "the copy at another path gives another SBOM"
        ! grep -q "$TMP" "$TMP/c.json" || fail "the SBOM names the host path"
        py_check "$TMP/a.json" '
assert "serialNumber" not in d and "timestamp" not in d["metadata"], "a serial or timestamp"
refs = [c["bom-ref"] for c in d["components"]]
assert refs == sorted(refs) and len(set(refs)) == len(refs), "components not sorted or not unique"
assert d["metadata"]["tools"]["components"][0]["name"] == "prc"'
}

# A tree of more components than the sort splits at (cmd_sbom.c SORT_SPLIT: two halves sorted at
# once and merged): every one is listed once, in bom-ref order.
t_sbom_sorts_thousands_of_components_whole() {
        mkdir -p "$TMP/big"
        /usr/bin/python3 -c '
import json, sys
pk = {"": {"name": "big", "version": "1.0.0", "dependencies": {"p%04d" % i: "1" for i in range(0, 5003, 7)}}}
for i in range(5003):
    pk["node_modules/p%04d" % i] = {"version": "1.%d.0" % (i % 13)}
json.dump({"name": "big", "version": "1.0.0", "lockfileVersion": 3, "packages": pk}, open(sys.argv[1], "w"))
' "$TMP/big/package-lock.json"
        "$PRC" sbom --target "$TMP/big" --output "$TMP/big.json" || fail "prc sbom exited $?"
        py_check "$TMP/big.json" '
refs = [c["bom-ref"] for c in d["components"]]
assert refs == sorted(refs) and len(set(refs)) == len(refs), "components not sorted or not unique"
want = {"pkg:npm/p%04d@1.%d.0" % (i, i % 13) for i in range(5003)}
assert set(refs) == want, (len(refs), sorted(want - set(refs))[:5], sorted(set(refs) - want)[:5])'
}

t_sbom_lists_the_declared_components_with_scope_hashes_and_paths() {
        "$PRC" sbom --target "$FX" >"$TMP/bom.json" || fail "prc sbom exited $?"
        py_check "$TMP/bom.json" '
c = {x["bom-ref"]: x for x in d["components"]}
for p in ["pkg:npm/ms@2.1.2", "pkg:npm/%40scope/x@1.0.1", "pkg:npm/lodash", "pkg:pypi/click@8.1.7",
          "pkg:pypi/black@24.3.0", "pkg:cargo/demo@0.1.0", "pkg:cargo/serde",
          "pkg:golang/golang.org/x/mod@v0.17.0", "pkg:golang/github.com/burntsushi/toml@v1.3.2"]:
    assert p in c, "missing " + p
    assert c[p]["purl"] == p
ms = c["pkg:npm/ms@2.1.2"]
assert ms["version"] == "2.1.2" and ms["scope"] == "required"
# npm SRI base64 -> hex: sha512 of the bytes "prc"
assert ms["hashes"] == [{"alg": "SHA-512", "content": "0200e8864bb825dea626700a67a8f09e9032ebc6ba0c77c1a64344081f9691773435c6dd563b4d43ac9aea3999884976d0ec46d43617fae1fa63b78057931d72"}], ms.get("hashes")
# a requirement is not a version: package.json ranges leave version out
assert "version" not in c["pkg:npm/lodash"]
# dev -> excluded, optional -> optional; click: optional in pyproject, required in poetry.lock: separate purls
assert c["pkg:pypi/black@24.3.0"]["scope"] == "excluded"
assert c["pkg:npm/fsevents@2.3.3"]["scope"] == "optional"
assert c["pkg:pypi/click@8.1.7"]["hashes"][0]["alg"] == "SHA-256"
# an integrity that is no CycloneDX hash is kept as a property, never dropped
sx = c["pkg:npm/%40scope/x@1.0.1"]
assert "hashes" not in sx and {"name": "prc:integrity", "value": "sha512-DDDD"} in sx["properties"]
# every manifest stating a component, sorted
toml = c["pkg:golang/github.com/burntsushi/toml@v1.3.2"]
paths = [p["value"] for p in toml["properties"] if p["name"] == "prc:path"]
assert paths == ["go/go.mod", "go/go.sum"], paths
assert {"name": "prc:ecosystem", "value": "golang"} in toml["properties"]
# a go.sum line that hashes only a go.mod (the module was read for version selection, its code is not
# built) is no component (bench/sbom_compare.sh: prc listed 146 of them for caddy, Trivy and cdxgen none)
assert not any("github.com/only/gomod" in r for r in c), [r for r in c if "only/gomod" in r]
# beside a go.mod of go 1.17 or later (which lists every module the build needs), go.sum adds only what
# go.mod requires; its other code hashes (modules downloaded for the tests of dependencies) are no components
# there, but a go.sum without such a go.mod keeps them (go/legacy/go.sum)
# Directory.Packages.props: a central pin (PackageVersion) is a component only when a project of the tree
# references that package; a GlobalPackageReference always is
assert "pkg:nuget/Used.Pkg@1.2.0" in c and "pkg:nuget/Global.Tool@3.0.0" in c, sorted(r for r in c if "nuget" in r)
assert not any("Unused.Pkg" in r for r in c), sorted(r for r in c if "nuget" in r)
extra = c["pkg:golang/github.com/extra/testonly@v0.3.0"]
assert [p["value"] for p in extra["properties"] if p["name"] == "prc:path"] == ["go/legacy/go.sum"], extra
# lockfile edges (depends_on): Cargo.lock, poetry.lock, package-lock.json
deps = {x["ref"]: x["dependsOn"] for x in d["dependencies"]}
assert deps["pkg:cargo/demo@0.1.0"] == sorted(["pkg:cargo/helper@0.1.0", "pkg:cargo/corp-lib@2.0.0?repository_url=https%3A%2F%2Fregistry.corp.example%2Fgit%2Findex"]), deps
assert deps["pkg:pypi/black@24.3.0"] == ["pkg:pypi/click@8.1.7"]
# package-lock: the nearest node_modules (@scope/x/node_modules/ms); the workspace link to its folder
assert deps["pkg:npm/%40scope/x@1.0.1"] == ["pkg:npm/ms@2.1.2"], deps
assert deps["prc:npm/a"] == ["prc:npm/a@0.1.0"], deps
for r, ts in deps.items():
    assert r in c and all(t in c for t in ts), "an edge to no component"'
}

t_sbom_refused_manifest_still_writes_but_exits_1_naming_the_gap() {
        cp -a "$FX" "$TMP/tree"
        mkdir -p "$TMP/tree/bad"
        printf '{"name":"x","lockfileVersion":7,"packages":{}}\n' >"$TMP/tree/bad/package-lock.json"
        run "$PRC" sbom --target "$TMP/tree"
        expect_rc 1
        expect_err "coverage gap: bad/package-lock.json: extract-version"
        expect_err "the SBOM is incomplete: 1 coverage gap"
        # The rest is still there.
        expect_out '"pkg:npm/ms@2.1.2"'
        ! grep -q 'bad/package-lock.json' <<<"$OUT" || fail "the refused file is named as a source"
}

t_sbom_include_outside_the_tree_is_a_gap() {
        mkdir -p "$TMP/tree"
        printf 'requests==2.31.0\n-r ../../elsewhere.txt\n' >"$TMP/tree/requirements.txt"
        run "$PRC" sbom --target "$TMP/tree"
        expect_rc 1
        expect_err "manifest-include-outside"
        expect_out '"pkg:pypi/requests@2.31.0"'
}

# The documents are folded as the two workers finish them, not in path order: what a component keeps from
# the manifest naming it first (its name as written, ecosystem, type, version) is still that of the first in
# path order, and a go.sum still keeps only what its go.mod requires.  Each first file is made slow to
# extract (padding), so the second usually finishes first; the answer must not depend on which does.
t_sbom_first_manifest_in_path_order_names_a_component_whatever_finishes_first() {
        mkdir -p "$TMP/tree/a" "$TMP/tree/b" "$TMP/tree/c/.github/workflows" "$TMP/tree/g"
        pad() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "# padding line %d, to make this file slow to read\n", i }'; }
        { printf 'Flask==2.0.1\n'; pad 40000; } >"$TMP/tree/a/requirements.txt"
        printf 'flask==2.0.1\n' >"$TMP/tree/b/requirements.txt"
        { printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker://alpine:3.18\n'
          pad 40000; } >"$TMP/tree/c/.github/workflows/w.yml"
        printf 'FROM alpine:3.18\n' >"$TMP/tree/c/Dockerfile"
        { printf 'module example.com/m\n\ngo 1.21\n\nrequire example.com/kept v1.0.0\n'; pad 40000 | sed 's,^#,//,'; } \
                >"$TMP/tree/g/go.mod"
        printf '%s\n' 'example.com/kept v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' \
                'example.com/dropped v1.0.0 h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=' >"$TMP/tree/g/go.sum"
        for i in 1 2 3; do
                "$PRC" sbom --target "$TMP/tree" >"$TMP/bom$i.json" || fail "prc sbom exited $?"
                py_check "$TMP/bom$i.json" '
c = {x["bom-ref"]: x for x in d["components"]}
assert c["pkg:pypi/flask@2.0.1"]["name"] == "Flask", c["pkg:pypi/flask@2.0.1"]
alpine = c["pkg:docker/alpine@3.18"]
assert {"name": "prc:ecosystem", "value": "github-actions"} in alpine["properties"], alpine
assert alpine["type"] == "library" and "version" not in alpine, alpine
assert "pkg:golang/example.com/kept@v1.0.0" in c and not any("dropped" in r for r in c), sorted(c)'
        done
        cmp -s "$TMP/bom1.json" "$TMP/bom2.json" && cmp -s "$TMP/bom1.json" "$TMP/bom3.json" || fail "runs differ"
}

# prc sbom keeps of a PKGBUILD's token document only its install= targets (the scan's sbom_doc), yet names
# every install-script gap `prc scan` names, in the same words: a script missing, one whose install= is not
# static, one outside its package, one in a package() function, one that is not valid shell.
t_sbom_names_the_install_script_gaps_the_scan_names() {
        mkdir -p "$TMP/tree/a" "$TMP/tree/b" "$TMP/tree/c" "$TMP/tree/d" "$TMP/tree/e"
        printf 'pkgname=a\npkgver=1\npkgrel=1\narch=(any)\ninstall=a.install\n' >"$TMP/tree/a/PKGBUILD"
        printf 'post_install() {\n  echo "unterminated\n' >"$TMP/tree/a/a.install"
        printf 'pkgname=b\npkgver=1\npkgrel=1\narch=(any)\ninstall=gone.install\n' >"$TMP/tree/b/PKGBUILD"
        printf 'pkgname=c\npkgver=1\npkgrel=1\narch=(any)\ninstall="$pkgname-$(date).install"\n' >"$TMP/tree/c/PKGBUILD"
        printf 'pkgname=d\npkgver=1\npkgrel=1\narch=(any)\ninstall=../a/a.install\n' >"$TMP/tree/d/PKGBUILD"
        printf 'pkgname=e\npkgver=1\npkgrel=1\narch=(any)\npackage() {\n  install=e.install\n}\n' >"$TMP/tree/e/PKGBUILD"
        printf 'post_install() {\n  true\n}\n' >"$TMP/tree/e/e.install"
        run "$PRC" sbom --target "$TMP/tree" --output "$TMP/bom.json"
        expect_rc 1
        local sbom scan
        sbom=$(sed -n 's/^prc sbom: coverage gap: //p' <<<"$ERR" | sort)
        scan=$("$PRC" scan --target "$TMP/tree" --format json 2>/dev/null </dev/null | /usr/bin/python3 -c '
import json, sys
for g in json.load(sys.stdin)["coverage_gaps"]:
    if g["path"].endswith(("PKGBUILD", ".install")):
        print("%s: %s: %s" % (g["path"], g["class"], g["reason"]))' | sort)
        [ "$(wc -l <<<"$sbom")" -ge 4 ] || fail "too few gaps: $sbom"
        grep -q 'install-script-missing' <<<"$sbom" || fail "no missing script: $sbom"
        grep -q 'install-script-dynamic' <<<"$sbom" || fail "no dynamic install=: $sbom"
        grep -q '^a/a.install: ' <<<"$sbom" || fail "the invalid script is not named: $sbom"
        expect_eq "$sbom" "$scan"
}

t_sbom_output_is_written_atomically() {
        "$PRC" sbom --target "$FX" >"$TMP/stdout.json" || fail "prc sbom exited $?"
        mkdir -p "$TMP/out"
        printf 'old\n' >"$TMP/out/bom.json"
        run "$PRC" sbom --target "$FX" --output "$TMP/out/bom.json"
        expect_rc 0
        expect_eq "$OUT" ""
        cmp -s "$TMP/stdout.json" "$TMP/out/bom.json" || fail "--output differs from stdout"
        expect_eq "$(ls -A "$TMP/out")" "bom.json"
        # A directory that does not exist: an io-error, nothing written anywhere.
        run "$PRC" sbom --target "$FX" --output "$TMP/nowhere/bom.json"
        expect_rc 3
        expect_err "io-error"
        [ ! -e "$TMP/nowhere" ] || fail "created the missing directory"
}

# trace_sbom OUT_PREFIX [ENV...]: prc sbom on the fixture under strace; OUT_PREFIX.st is the trace of every
# execve (full environments) and madvise, OUT_PREFIX.json the BOM.
trace_sbom() {
        local o=$1; shift
        command -v strace >/dev/null || fail "strace is missing (scripts/setup.sh installs it)"
        env "$@" strace -f -qq -e trace=execve,madvise -s 65536 -v -o "$o.st" \
                "$PRC_BIN" sbom --target "$FX" --output "$o.json" || fail "prc sbom exited $?"
}

# advised FILE: did the traced command's own process (the first line's pid) advise memory for huge pages?
advised() {
        local pid
        pid=$(head -1 "$1" | cut -d' ' -f1)
        grep -Eq "^$pid +madvise\(.*MADV_HUGEPAGE" "$1"
}

# Huge pages for the heap (src/base/tune.h): prc sbom tunes its own heap in process, with no second
# exec (a 64 MiB reserve advised MADV_HUGEPAGE), and every worker gets the tunables in its environment;
# a user's own hugetlb setting stands, for prc and its workers.
t_sbom_advises_its_heap_for_huge_pages_and_tunes_its_workers() {
        local n
        trace_sbom "$TMP/a"
        n=$(grep -c 'execve(' "$TMP/a.st")
        [ "$(grep 'execve(' "$TMP/a.st" | grep -vc '"__worker"')" = 1 ] ||
                fail "prc executed itself again: $(cat "$TMP/a.st")"
        advised "$TMP/a.st" || fail "the heap is not advised for huge pages: $(cat "$TMP/a.st")"
        [ "$(grep '"__worker"' "$TMP/a.st" | grep -c "\"GLIBC_TUNABLES=$PRC_TUNED\"")" = $((n - 1)) ] ||
                fail "a worker started without the tunable"
        [ "$n" -ge 2 ] || fail "no worker started"
        # The user's tunables are kept; the workers get ours added.
        trace_sbom "$TMP/b" GLIBC_TUNABLES=glibc.malloc.tcache_count=7
        advised "$TMP/b.st" || fail "another tunable of the user's stopped the heap's huge pages"
        grep '"__worker"' "$TMP/b.st" | grep -q "\"GLIBC_TUNABLES=glibc.malloc.tcache_count=7:$PRC_TUNED\"" ||
                fail "a worker lost the user's tunables"
        cmp -s "$TMP/a.json" "$TMP/b.json" || fail "the BOM depends on the tunables"
        # A user who says hugetlb=0: prc advises nothing, and the workers keep the user's value.
        trace_sbom "$TMP/c" GLIBC_TUNABLES=glibc.malloc.hugetlb=0
        ! advised "$TMP/c.st" || fail "huge pages against the user's setting"
        ! grep '"__worker"' "$TMP/c.st" | grep -q 'hugetlb=1' || fail "a worker overrode the user's setting"
        cmp -s "$TMP/a.json" "$TMP/c.json" || fail "the BOM depends on huge pages"
}

t_sbom_usage_errors() {
        run "$PRC" sbom
        expect_rc 2
        expect_err "--target DIR is required"
        run "$PRC" sbom --target "$FX" extra
        expect_rc 2
        run "$PRC" sbom --target "$TMP/absent"
        [ "$RC" -ne 0 ] || fail "an absent target exited 0"
}
