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
        if nm "$PRC" | grep -q ' op_test$'; then fail "build/prc contains the test operations"; fi
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
