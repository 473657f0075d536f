# test_doc.sh - CLI skeleton and `prc doc digest` (run: bash tests/cli/lib.sh tests/cli/test_doc.sh)

# lib.sh's run() assigns OUT=$(cmd), which under the tests' set -e ends the
# test as soon as cmd exits non-zero; this copy keeps errexit off around it.
run() {
        set +e
        OUT=$("$@" 2>"$TMP/.stderr")
        RC=$?
        ERR=$(cat "$TMP/.stderr")
        set -e
        return 0
}

# SHA-256 of the canonical bytes {"a":1}.
A1=015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862

t_version() {
        run "$PRC" --version
        expect_rc 0
        expect_out "prc 0.1.0"
        expect_out "engine API"
}

t_help_lists_commands() {
        run "$PRC" help
        expect_rc 0
        expect_out "doc digest"
        expect_out "exit status"
}

t_no_arguments_is_usage() {
        run "$PRC"
        expect_rc 2
        expect_err "usage: prc COMMAND"
}

t_command_help() {
        run "$PRC" doc digest --help
        expect_rc 0
        expect_out "usage: prc doc digest FILE"
        run "$PRC" help doc digest
        expect_rc 0
        expect_out "usage: prc doc digest FILE"
}

t_unknown_command_exits_2() {
        run "$PRC" frobnicate
        expect_rc 2
        expect_err "unknown command 'frobnicate'"
        [ -z "$OUT" ] || fail "stdout not empty: $OUT"
}

t_unknown_subcommand_exits_2() {
        run "$PRC" doc frob
        expect_rc 2
        expect_err "unknown or missing subcommand"
}

t_digest_yaml_and_json_agree() {
        printf '# comment\na:   1\n' >"$TMP/a.yaml"
        printf '{ "a" : 1 }\n' >"$TMP/a.json"
        run "$PRC" doc digest "$TMP/a.yaml"
        expect_rc 0
        expect_eq "$OUT" "$A1"
        run "$PRC" doc digest "$TMP/a.json"
        expect_rc 0
        expect_eq "$OUT" "$A1"
}

t_digest_format_json() {
        printf 'a: 1\n' >"$TMP/a.yaml"
        run "$PRC" doc digest --format json "$TMP/a.yaml"
        expect_rc 0
        expect_eq "$(json_get sha256)" "$A1"
        expect_eq "$(json_get path)" "$TMP/a.yaml"
        # Exactly one line, one document.
        [ "$(printf '%s\n' "$OUT" | wc -l)" -eq 1 ] || fail "more than one line: $OUT"
}

t_digest_refused_document_exits_1() {
        printf 'a: 1\na: 2\n' >"$TMP/dup.yaml"
        run "$PRC" doc digest "$TMP/dup.yaml"
        expect_rc 1
        expect_err "duplicate-field"
        expect_err "dup.yaml:2:1"
        [ -z "$OUT" ] || fail "stdout not empty: $OUT"
        run "$PRC" doc digest --format json "$TMP/dup.yaml"
        expect_rc 1
        expect_eq "$(json_get error.class)" "duplicate-field"
        expect_eq "$(json_get error.line)" "2"
        expect_eq "$(json_get sha256)" "null"
}

t_digest_alias_bomb_is_refused() {
        {
                echo 'a: &a ["x","x","x","x","x","x","x","x","x"]'
                echo 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]'
                echo 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]'
                echo 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]'
                echo 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]'
                echo 'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]'
                echo 'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]'
        } >"$TMP/lol.yaml"
        run "$PRC" doc digest "$TMP/lol.yaml"
        expect_rc 1
        expect_err "nodes-limit"
}

t_digest_io_error_exits_3() {
        run "$PRC" doc digest "$TMP/missing.yaml"
        expect_rc 3
        expect_err "io-error"
}

t_digest_usage_errors_exit_2() {
        printf 'a: 1\n' >"$TMP/a.yaml"
        run "$PRC" doc digest
        expect_rc 2
        expect_err "expected exactly one FILE"
        run "$PRC" doc digest "$TMP/a.yaml" "$TMP/a.yaml"
        expect_rc 2
        run "$PRC" doc digest --format xml "$TMP/a.yaml"
        expect_rc 2
        expect_err "unknown --format 'xml'"
        run "$PRC" doc digest --as toml "$TMP/a.yaml"
        expect_rc 2
        run "$PRC" doc digest --bogus "$TMP/a.yaml"
        expect_rc 2
}

t_digest_as_overrides_the_name() {
        printf 'a: 1\n' >"$TMP/a.json"
        run "$PRC" doc digest "$TMP/a.json"
        expect_rc 1
        expect_err "invalid-json"
        run "$PRC" doc digest --as yaml "$TMP/a.json"
        expect_rc 0
        expect_eq "$OUT" "$A1"
}

t_digest_golden_files() {
        local f want n=0
        for f in tests/golden/doc/*.yaml tests/golden/doc/*.yml tests/golden/doc/*.json; do
                [ -e "$f" ] || continue
                if [ -e "${f%.*}.out" ]; then
                        want=$(cat "${f%.*}.out")
                        run "$PRC" doc digest "$f"
                        expect_rc 0
                        expect_eq "$OUT" "$want"
                else
                        want=$(cut -d' ' -f1 "${f%.*}.err")
                        run "$PRC" doc digest "$f"
                        expect_rc 1
                        expect_err "$want"
                fi
                n=$((n + 1))
        done
        [ "$n" -ge 10 ] || fail "only $n golden files"
}

# The README's worked example is what `make example` prints. The content floor (and with it the
# result ID, which covers the floor) depends on the host's kernel: on a host whose floor line
# differs from the README's, those two lines are left out of the comparison and the rest must match.
t_readme_worked_example_is_what_prc_prints() {
        local want got
        want=$(awk '/^\$ make example$/ {on=1; next} on && /^```/ {exit} on' "$PRC_ROOT/README.md")
        [ -n "$want" ] || fail "README has no make example block"
        run "$PRC" scan --target "$PRC_ROOT/examples/basic"
        expect_rc 1
        got=$OUT
        if [ "$(grep '^content floor' <<<"$want")" != "$(grep '^content floor' <<<"$got")" ]; then
                echo "    this host's content floor differs from the README's: floor and result lines not compared" >&2
                want=$(grep -v '^content floor\|^result ' <<<"$want")
                got=$(grep -v '^content floor\|^result ' <<<"$got")
        fi
        [ "$want" = "$got" ] || fail "README's worked example differs from prc's output: $(diff <(echo "$want") <(echo "$got"))"
}
