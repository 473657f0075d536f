# test_content.sh - `prc content parse` and `prc sandbox probe` against build/prc.

t_parse_json_prints_canonical_json() {
        printf '{"b": [1, 2.5, 1e2], "a": "x"}\n' >"$TMP/a.json"
        run "$PRC" content parse --format json "$TMP/a.json"
        expect_rc 0
        expect_eq "$OUT" '{"a":"x","b":[1,2.5,100.0]}'
}

t_parse_refusal_exits_3_with_the_class() {
        printf '{"a":1,"a":2}' >"$TMP/dup.json"
        run "$PRC" content parse --format json "$TMP/dup.json"
        expect_rc 3
        expect_err "duplicate-field"
        expect_eq "$OUT" ""
}

t_format_out_json_wraps_the_document() {
        printf '[1]' >"$TMP/a.json"
        run "$PRC" content parse --format json "$TMP/a.json" --format-out json
        expect_rc 0
        expect_eq "$(json_get document)" "[1]"
        expect_eq "$(json_get format)" "json"
}

t_format_out_json_reports_the_refusal() {
        printf '[1,' >"$TMP/bad.json"
        run "$PRC" content parse --format json --format-out json "$TMP/bad.json"
        expect_rc 3
        expect_eq "$(json_get error.class)" "invalid-json"
        expect_eq "$(json_get error.file)" "$TMP/bad.json"
}

t_yaml_goes_through_the_worker() {
        printf 'key: 1\nf: 0.5\nl: [a, b]\n' >"$TMP/a.yaml"
        run "$PRC" content parse --format yaml "$TMP/a.yaml"
        expect_rc 0
        expect_eq "$OUT" '{"f":"0.5","key":1,"l":["a","b"]}'
        printf 'a: [\n' >"$TMP/bad.yaml"
        run "$PRC" content parse --format yaml "$TMP/bad.yaml"
        expect_rc 3
        expect_err "yaml-syntax"
}

t_format_auto_goes_by_the_file_name() {
        printf 'k: [1]\n' >"$TMP/a.yml"
        run "$PRC" content parse --format auto "$TMP/a.yml" --format-out json
        expect_rc 0
        expect_eq "$(json_get format)" "yaml"
        expect_eq "$(json_get document.k)" "[1]"
        printf 'a = 1\n[t]\nb = "x"\n' >"$TMP/c.toml"
        run "$PRC" content parse --format auto "$TMP/c.toml"
        expect_rc 0
        expect_eq "$OUT" '{"a":1,"t":{"b":"x"}}'
        printf '[]' >"$TMP/a.txt"
        run "$PRC" content parse --format auto "$TMP/a.txt"
        expect_rc 2
        expect_err "cannot tell the format"
}

t_usage_errors_exit_2() {
        printf '[]' >"$TMP/a.json"
        run "$PRC" content parse "$TMP/a.json"
        expect_rc 2
        run "$PRC" content parse --format bogus "$TMP/a.json"
        expect_rc 2
        expect_err "json, yaml"
        run "$PRC" content parse --format json --format-out text "$TMP/a.json"
        expect_rc 2
        run "$PRC" content parse --format json
        expect_rc 2
}

t_missing_file_and_symlink_are_refused() {
        run "$PRC" content parse --format json "$TMP/none.json"
        expect_rc 3
        expect_err "io-error"
        printf '[]' >"$TMP/real.json"
        ln -s "$TMP/real.json" "$TMP/link.json"
        run "$PRC" content parse --format json "$TMP/link.json"
        expect_rc 3
}

t_file_above_the_analysis_cap_is_refused() {
        head -c $((10 * 1024 * 1024 + 1)) /dev/zero >"$TMP/big.json"
        run "$PRC" content parse --format json "$TMP/big.json"
        expect_rc 3
        expect_err "input-too-large"
}

t_stderr_as_a_regular_file_does_not_kill_the_worker() {
        # CI logs are files; the worker's RLIMIT_FSIZE 0 must never meet them.
        printf '{"x":[true]}' >"$TMP/a.json"
        OUT=$("$PRC" content parse --format json "$TMP/a.json" 2>"$TMP/err.log"); RC=$?
        expect_rc 0
        expect_eq "$OUT" '{"x":[true]}'
        [ ! -s "$TMP/err.log" ] || fail "stderr log is not empty: $(cat "$TMP/err.log")"
}

t_probe_reports_every_layer() {
        run "$PRC" sandbox probe
        expect_rc 0
        expect_out "landlock"
        expect_out "answered ping"
        run "$PRC" sandbox probe --format json
        expect_rc 0
        expect_eq "$(json_get ok)" "true"
        expect_eq "$(json_get worker.ping)" "true"
        expect_eq "$(json_get layers.4.layer)" "landlock"
        expect_eq "$(json_get layers.4.state)" "applied"
        expect_eq "$(json_get layers.6.layer)" "rlimits"
}

t_probe_usage() {
        run "$PRC" sandbox probe --format yaml
        expect_rc 2
        run "$PRC" sandbox probe extra
        expect_rc 2
}

t_worker_word_is_hidden_and_needs_its_pipes() {
        run "$PRC" help
        expect_rc 0
        if grep -q -- "__worker" <<<"$OUT"; then fail "help lists the worker word"; fi
        expect_out "content parse"
        expect_out "sandbox probe"
        # Run by hand (no pipes on fds 3 and 4) it refuses at once.
        run "$PRC" __worker
        expect_rc 2
}

t_release_binary_has_no_test_operations() {
        command -v nm >/dev/null || fail "nm is missing"
        if nm "$PRC_BIN" | grep -q ' op_test$'; then fail "build/prc contains the test operations"; fi
        nm "$PRC_ROOT/build/test/helpers/worker" | grep -q ' op_test$' || fail "the test worker lacks op_test (nm check is broken)"
}

t_hostile_documents_are_named_refusals_through_the_worker() {
        # Billion laughs: the loader's node bound refuses it, quickly, inside the worker.
        {
                echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
                prev=a
                for n in b c d e f g h i; do
                        echo "$n: &$n [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"
                        prev=$n
                done
        } >"$TMP/lol.yaml"
        run "$PRC" content parse --format yaml --format-out json "$TMP/lol.yaml"
        expect_rc 3
        expect_eq "$(json_get error.class)" "nodes-limit"
        # Deep nesting: refused before jansson recurses.
        /usr/bin/python3 -c "print('[' * 100000 + ']' * 100000)" >"$TMP/deep.json"
        run "$PRC" content parse --format json "$TMP/deep.json"
        expect_rc 3
        expect_err "depth-limit"
        # An XML entity declaration.
        printf '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>' >"$TMP/e.xml"
        run "$PRC" content parse --format xml "$TMP/e.xml"
        expect_rc 3
        expect_err "xml-doctype"
}

# ---- prc content tokenize / prc content archive ----

CORPORA=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}
PGMODELER=manifests/arch/chaotic-aur__packages/pgmodeler

# corpus_or REL FIXTURE: the shared corpus file REL, read in place; when the
# corpora are absent the fixture instead, except under CI=true, where CI must
# test the real inputs and an absent corpus fails the test.
corpus_or() {
        if [ -f "$CORPORA/$1" ]; then
                echo "$CORPORA/$1"
                return 0
        fi
        [ "${CI:-}" != "true" ] || { fail "the corpora are absent ($CORPORA) and CI=true"; return 1; }
        echo "$2"
}

# pyq EXPR: a Python expression over the JSON document on $OUT (as d).
pyq() { /usr/bin/python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(json.dumps(eval(sys.argv[1])))' "$1" <<<"$OUT"; }

t_tokenize_real_pkgbuild_expands_static_values() {
        f=$(corpus_or "$PGMODELER/PKGBUILD" tests/fixtures/shell/PKGBUILD)
        run "$PRC" content tokenize "$f" --format json
        expect_rc 0
        expect_eq "$(json_get format)" "pkgbuild"
        expect_eq "$(json_get path)" "$f"
        expect_eq "$(json_get document.format)" "pkgbuild"
        OUT=$(json_get document)
        expect_eq "$(pyq '[a["value"] for a in d["assignments"] if a["name"] == "pkgname"]')" '["pgmodeler"]'
        expect_eq "$(pyq '[a["value"] for a in d["assignments"] if a["name"] == "source"]')" \
                '[["pgmodeler-1.2.3.tar.gz::https://github.com/nullptrlabs/pgmodeler/archive/v1.2.3.tar.gz"]]'
        expect_eq "$(pyq '[a["raw"] for a in d["assignments"] if a["name"] == "source"]')" \
                '[["\"$pkgname-$pkgver.$_pkgext\"::\"$url/archive/v${pkgver}.$_pkgext\""]]'
        expect_eq "$(pyq '[f["name"] for f in d["functions"]]')" '["prepare", "build", "package"]'
        # Function bodies are token streams with their own line numbers, never run.
        if [ "$f" = "$CORPORA/$PGMODELER/PKGBUILD" ]; then
                lines='[26, 42, 59]' cd_word='"$_pkgsrc"'
        else
                lines='[19, 23, 29]' cd_word='"$pkgname-$pkgver"'
        fi
        expect_eq "$(pyq '[f["line"] for f in d["functions"]]')" "$lines"
        expect_eq "$(pyq '[l["tokens"] for l in d["functions"][1]["body"] if l["tokens"][:1] == ["cd"]]')" \
                "[[\"cd\", $(/usr/bin/python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$cd_word")]]"
        # Without --format json: the bare canonical document, the same bytes.
        run "$PRC" content tokenize "$f"
        expect_rc 0
        expect_eq "$(json_get format)" "pkgbuild"
}

t_tokenize_srcinfo_by_its_name() {
        f=$(corpus_or "$PGMODELER/.SRCINFO" tests/fixtures/shell/.SRCINFO)
        run "$PRC" content tokenize "$f"
        expect_rc 0
        expect_eq "$(json_get format)" "srcinfo"
        expect_eq "$(json_get pkgbase.name)" "pgmodeler"
        expect_eq "$(json_get pkgbase.line)" "1"
        expect_eq "$(json_get pkgbase.fields.pkgver)" '["1.2.3"]'
        expect_eq "$(json_get pkgbase.fields.source)" \
                '["pgmodeler-1.2.3.tar.gz::https://github.com/nullptrlabs/pgmodeler/archive/v1.2.3.tar.gz"]'
        expect_eq "$(json_get packages.0.name)" "pgmodeler"
        # --pkgbuild overrides the name: the same text read as bash is commands, no pkgbase.
        run "$PRC" content tokenize --pkgbuild "$f" --format json
        expect_rc 0
        expect_eq "$(json_get format)" "pkgbuild"
        expect_eq "$(json_get document.commands.0.body.0.tokens)" '["pkgbase", "=", "pgmodeler"]'
        # --srcinfo on a PKGBUILD: refused by the .SRCINFO reader, with its class and line.
        cp "$(corpus_or "$PGMODELER/PKGBUILD" tests/fixtures/shell/PKGBUILD)" "$TMP/PKGBUILD"
        run "$PRC" content tokenize --srcinfo "$TMP/PKGBUILD" --format json
        expect_rc 3
        expect_eq "$(json_get format)" "srcinfo"
        expect_eq "$(json_get error.class)" "srcinfo-syntax"
        expect_err "srcinfo-syntax"
}

t_tokenize_every_corpus_pkgbuild_and_srcinfo() {
        # Every real AUR file in the corpus is tokenized, as the right kind, in canonical JSON.
        if [ ! -d "$CORPORA/manifests/arch" ]; then
                [ "${CI:-}" != "true" ] || fail "the corpora are absent ($CORPORA) and CI=true"
                set -- tests/fixtures/shell/PKGBUILD tests/fixtures/shell/.SRCINFO
        else
                mapfile -t files < <(find "$CORPORA/manifests/arch" \( -name PKGBUILD -o -name .SRCINFO \) | sort)
                set -- "${files[@]}"
                [ "$#" -ge 40 ] || fail "only $# PKGBUILD and .SRCINFO files in the corpus"
        fi
        for f in "$@"; do
                run "$PRC" content tokenize "$f"
                expect_rc 0
                want=pkgbuild
                [ "$(basename "$f")" != .SRCINFO ] || want=srcinfo
                /usr/bin/python3 -c 'import json,sys; b=sys.stdin.buffer.read(); d=json.loads(b)
assert d["format"] == sys.argv[1], d["format"]
assert b == (json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()' \
                        "$want" <<<"$OUT" || fail "$f: not a canonical $want document"
        done
}

t_tokenize_brace_expansion_bomb_is_refused_with_its_class() {
        f=$(corpus_or parsers/attacks/shell/brace-product-30.PKGBUILD tests/fixtures/shell/brace-product-30.PKGBUILD)
        run "$PRC" content tokenize "$f" --format json
        expect_rc 3
        expect_eq "$(json_get error.class)" "shell-output-limit"
        expect_eq "$(json_get error.file)" "$f"
        expect_eq "$(json_get error.line)" "$(grep -n '{a,b}' "$f" | head -1 | cut -d: -f1)"
        [ "$(json_get document 2>/dev/null)" = "" ] || fail "a refusal carries a document"
        run "$PRC" content tokenize "$f"
        expect_rc 3
        expect_eq "$OUT" ""
        expect_err "shell-output-limit"
}

t_tokenize_usage_and_io_errors() {
        printf 'x=1\n' >"$TMP/PKGBUILD"
        run "$PRC" content tokenize --pkgbuild --srcinfo "$TMP/PKGBUILD"
        expect_rc 2
        expect_err "exclude each other"
        run "$PRC" content tokenize "$TMP/PKGBUILD" --format yaml
        expect_rc 2
        run "$PRC" content tokenize
        expect_rc 2
        run "$PRC" content tokenize "$TMP/PKGBUILD" "$TMP/PKGBUILD"
        expect_rc 2
        run "$PRC" content tokenize "$TMP/none"
        expect_rc 3
        expect_err "io-error"
        ln -s "$TMP/PKGBUILD" "$TMP/link"
        run "$PRC" content tokenize "$TMP/link"
        expect_rc 3
        run "$PRC" content tokenize --help
        expect_rc 0
        expect_out "usage: prc content tokenize"
}

t_archive_lists_members_and_returns_the_requested_one() {
        mkdir -p "$TMP/src/pkg/sub"
        printf 'pkgname=demo\npkgver=1\n' >"$TMP/src/pkg/PKGBUILD"
        printf '\377\376binary\000' >"$TMP/src/pkg/sub/blob.bin"
        (cd "$TMP/src" && tar czf "$TMP/snap.tar.gz" pkg)
        run "$PRC" content archive "$TMP/snap.tar.gz" --member pkg/PKGBUILD --member pkg/sub/blob.bin \
                --member pkg/missing --member pkg/sub --format json
        expect_rc 0
        expect_eq "$(json_get path)" "$TMP/snap.tar.gz"
        OUT=$(json_get document)
        expect_eq "$(json_get format)" "tar.gz"
        expect_eq "$(json_get rejected)" "0"
        expect_eq "$(pyq 'sorted((m["path"], m["type"], m["size"]) for m in d["members"])')" \
                '[["pkg", "dir", 0], ["pkg/PKGBUILD", "file", 22], ["pkg/sub", "dir", 0], ["pkg/sub/blob.bin", "file", 9]]'
        expect_eq "$(pyq '[m["sha256"] for m in d["members"] if m["path"] == "pkg/PKGBUILD"][0]')" \
                "\"$(sha256sum "$TMP/src/pkg/PKGBUILD" | cut -d' ' -f1)\""
        expect_eq "$(json_get contents.pkg/PKGBUILD.encoding)" "utf8"
        expect_eq "$(pyq 'd["contents"]["pkg/PKGBUILD"]["data"]')" '"pkgname=demo\npkgver=1\n"'
        expect_eq "$(pyq 'd["contents"]["pkg/sub/blob.bin"]["encoding"]')" '"base64"'
        expect_eq "$(pyq 'd["contents"]["pkg/sub/blob.bin"]["data"]')" "\"$(base64 -w0 "$TMP/src/pkg/sub/blob.bin")\""
        expect_eq "$(pyq 'd["unavailable"]')" '{"pkg/missing": "not-found", "pkg/sub": "not-a-file"}'
        # Without --member: the listing only.
        run "$PRC" content archive "$TMP/snap.tar.gz"
        expect_rc 0
        expect_eq "$(json_get contents)" "{}"
        expect_eq "$(pyq 'len(d["members"])')" "4"
}

t_archive_of_the_aur_corpus_lists_every_file_with_its_digest() {
        if [ -d "$CORPORA/manifests/arch" ]; then
                src=$CORPORA/manifests
        else
                [ "${CI:-}" != "true" ] || fail "the corpora are absent ($CORPORA) and CI=true"
                mkdir -p "$TMP/m/arch/pkg" && cp tests/fixtures/shell/PKGBUILD tests/fixtures/shell/.SRCINFO "$TMP/m/arch/pkg/"
                src=$TMP/m
        fi
        tar -C "$src" -czf "$TMP/aur.tar.gz" arch
        (cd "$src" && find arch -type f -exec sha256sum {} + | sort -k2) >"$TMP/want"
        [ -s "$TMP/want" ] || fail "no files to compare"
        run "$PRC" content archive "$TMP/aur.tar.gz"
        expect_rc 0
        expect_eq "$(json_get rejected)" "0"
        pyq '"\n".join(sorted(m["sha256"] + "  " + m["path"] for m in d["members"] if m["type"] == "file"))' |
                /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin))' | sort -k2 >"$TMP/got"
        diff "$TMP/want" "$TMP/got" >&2 || fail "member digests differ from sha256sum"
}

t_archive_traversal_member_is_listed_as_rejected() {
        mkdir -p "$TMP/a/b"
        printf 'ok\n' >"$TMP/a/b/ok.txt"
        printf 'evil\n' >"$TMP/a/evil.txt"
        # -P keeps the leading '../' in the member name, as a hostile archive would.
        (cd "$TMP/a/b" && tar cPf "$TMP/t.tar" ok.txt ../evil.txt "$TMP/a/evil.txt")
        run "$PRC" content archive "$TMP/t.tar" --member ../evil.txt --member ok.txt --format json
        expect_rc 0
        OUT=$(json_get document)
        expect_eq "$(json_get format)" "tar"
        expect_eq "$(json_get rejected)" "2"
        expect_eq "$(pyq '[(m["path"], m.get("rejected")) for m in d["members"]]')" \
                "[[\"ok.txt\", null], [\"../evil.txt\", \"path-dotdot\"], [\"$TMP/a/evil.txt\", \"path-absolute\"]]"
        expect_eq "$(pyq 'sorted(d["contents"])')" '["ok.txt"]'
        expect_eq "$(pyq 'd["unavailable"]')" '{"../evil.txt": "rejected"}'
        # The shared corpus's own traversal archive, read in place.
        if [ -f "$CORPORA/parsers/attacks/tar/dotdot-path.tar" ]; then
                run "$PRC" content archive "$CORPORA/parsers/attacks/tar/dotdot-path.tar"
                expect_rc 0
                expect_eq "$(pyq '[m.get("rejected") for m in d["members"] if m["path"].startswith("../")]')" \
                        '["path-dotdot"]'
        else
                [ "${CI:-}" != "true" ] || fail "the corpora are absent ($CORPORA) and CI=true"
        fi
}

t_archive_gzip_bomb_is_refused_with_its_class() {
        if ! f=$(corpus_or parsers/attacks/tar/zero-file-1GiB.tar.gz ""); then return 1; fi
        if [ -z "$f" ]; then
                # A small bomb of the same kind: 16 MiB of zeros compress about 1000:1.
                head -c $((16 << 20)) /dev/zero >"$TMP/zeros"
                (cd "$TMP" && tar czf bomb.tar.gz zeros && rm zeros)
                f=$TMP/bomb.tar.gz
        fi
        run "$PRC" content archive "$f" --format json
        expect_rc 3
        expect_eq "$(json_get error.class)" "archive-ratio-limit"
        expect_eq "$(json_get error.file)" "$f"
        run "$PRC" content archive "$f"
        expect_rc 3
        expect_eq "$OUT" ""
        expect_err "archive-ratio-limit"
        # The bare gzip bomb (no tar inside) is refused by the same bound.
        if [ -f "$CORPORA/parsers/attacks/gzip/zeros-1GiB.gz" ]; then
                run "$PRC" content archive "$CORPORA/parsers/attacks/gzip/zeros-1GiB.gz"
                expect_rc 3
                expect_err "archive-ratio-limit"
        fi
}

t_archive_usage_and_refusals() {
        # Text of a tar block's size or more is no archive format; shorter input is a truncated tar.
        yes 'not an archive' | head -c 4096 >"$TMP/x.tar"
        run "$PRC" content archive "$TMP/x.tar" --format json
        expect_rc 3
        expect_eq "$(json_get error.class)" "archive-format"
        printf 'short\n' >"$TMP/short.tar"
        run "$PRC" content archive "$TMP/short.tar"
        expect_rc 3
        expect_err "archive-truncated"
        run "$PRC" content archive "$TMP/x.tar" --format sarif
        expect_rc 2
        run "$PRC" content archive
        expect_rc 2
        args=()
        for i in $(seq 65); do args+=(--member "m$i"); done
        run "$PRC" content archive "$TMP/x.tar" "${args[@]}"
        expect_rc 2
        expect_err "at most 64"
        run "$PRC" content archive "$TMP/x.tar" --member $'pkg/\xff'
        expect_rc 2
        expect_err "not UTF-8"
        run "$PRC" content archive "$TMP/none.tar"
        expect_rc 3
        expect_err "io-error"
        run "$PRC" help
        expect_out "content tokenize"
        expect_out "content archive"
}
