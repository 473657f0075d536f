# test_inventory.sh - `prc inventory` and `prc snapshot` end to end (issue 6).
# Run: bash tests/cli/lib.sh tests/cli/test_inventory.sh

# lib.sh's run assigns OUT=$(cmd) under set -e, which ends the test on any
# non-zero exit; calling it as part of an || list keeps RC for expect_rc.
runp() { run "$@" || true; }

mk_tree() {
        mkdir -p "$TMP/t/src" "$TMP/t/.git"
        printf 'hello\n' >"$TMP/t/README"
        printf 'int x;\n' >"$TMP/t/src/a.c"
        printf '#!/bin/sh\n' >"$TMP/t/run.sh"; chmod 755 "$TMP/t/run.sh"
        : >"$TMP/t/empty"
        ln -s README "$TMP/t/link"
        printf 'ref\n' >"$TMP/t/.git/HEAD"
}

t_inventory_usage_errors_exit_2() {
        runp "$PRC" inventory
        expect_rc 2; expect_err "--target DIR is required"
        runp "$PRC" inventory --target "$TMP" --format yaml
        expect_rc 2
        runp "$PRC" inventory --target "$TMP" --bogus
        expect_rc 2
        runp "$PRC" inventory --target "$TMP" extra
        expect_rc 2
}

t_inventory_text_summary() {
        mk_tree
        runp "$PRC" inventory --target "$TMP/t"
        expect_rc 0
        expect_out "inventory_digest "
        expect_out "files            4 (23 bytes; 1 executable, 0 oversized)"
        expect_out "symlinks         1"
        expect_out "excluded         .git/"
        expect_out "unrepresentable  0"
}

t_inventory_json_is_canonical_and_its_digest_checks_out() {
        mk_tree
        runp "$PRC" inventory --target "$TMP/t" --format json
        expect_rc 0
        first=$OUT
        expect_eq "$(json_get entries.0.path)" "README"
        expect_eq "$(json_get entries.0.sha256)" "$(sha256sum <"$TMP/t/README" | cut -d' ' -f1)"
        expect_eq "$(json_get entries.2.type)" "symlink"
        expect_eq "$(json_get excluded)" '[".git"]'
        # Independent check of the digest rule: SHA-256 of the canonical document minus the digest.
        want=$(/usr/bin/python3 -c '
import hashlib, json, sys
d = json.loads(sys.stdin.read()); dig = d.pop("inventory_digest")
c = json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
print(hashlib.sha256(c).hexdigest() == dig)' <<<"$OUT")
        expect_eq "$want" "True"
        # Byte-identical on a second run.
        runp "$PRC" inventory --target "$TMP/t" --format json
        expect_eq "$OUT" "$first"
        # One byte changes the digest.
        printf 'hellp\n' >"$TMP/t/README"
        runp "$PRC" inventory --target "$TMP/t" --format json
        [ "$(json_get inventory_digest)" != "$(OUT=$first json_get inventory_digest)" ] || fail "digest unchanged"
}

t_inventory_unrepresentable_name_exits_1() {
        mkdir -p "$TMP/t"
        printf 'x' >"$TMP/t/ok"
        printf 'y' >"$TMP/t/$(printf 'new\nline')"
        runp "$PRC" inventory --target "$TMP/t" --format json
        expect_rc 1
        expect_err "could not be represented"
        expect_eq "$(json_get unrepresentable.0.raw)" 'new\x0aline'
        expect_eq "$(json_get unrepresentable.0.reason)" "path-control-char"
        runp "$PRC" inventory --target "$TMP/t"
        expect_rc 1
        expect_out 'file new\x0aline (path-control-char)'
}

t_inventory_missing_target_is_an_execution_error() {
        runp "$PRC" inventory --target "$TMP/nope" --format json
        expect_rc 3
        expect_eq "$(json_get error.class)" "io-error"
        expect_err "prc: io-error"
}

t_inventory_fifo_is_counted_not_opened() {
        mkdir -p "$TMP/t"
        mkfifo "$TMP/t/pipe"
        printf 'x' >"$TMP/t/f"
        runp timeout 20 "$PRC" inventory --target "$TMP/t" --format json
        expect_rc 0
        expect_eq "$(json_get skipped.fifo)" "1"
}

t_snapshot_creates_keeps_and_prints_the_digest() {
        mk_tree
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap"
        expect_rc 0
        expect_out "snapshot_digest "
        expect_out "path             $TMP/snap"
        [ -f "$TMP/snap/src/a.c" ] || fail "a.c not copied"
        [ ! -e "$TMP/snap/link" ] || fail "symlink copied"
        [ ! -e "$TMP/snap/.git" ] || fail ".git copied"
        expect_eq "$(stat -c %a "$TMP/snap")" "700"
        expect_eq "$(stat -c %a "$TMP/snap/README")" "400"
        expect_eq "$(stat -c %a "$TMP/snap/run.sh")" "500"
        cmp -s "$TMP/t/README" "$TMP/snap/README" || fail "README differs"
        d1=$(grep snapshot_digest <<<"$OUT" | awk '{print $2}')
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap2" --verify --format json
        expect_rc 0
        expect_eq "$(json_get listing.snapshot_digest)" "$d1"
        expect_eq "$(json_get path)" "$TMP/snap2"
        expect_eq "$(json_get total_bytes)" "23"
}

t_snapshot_refuses_an_existing_out_dir() {
        mk_tree
        mkdir "$TMP/snap"; printf 'mine' >"$TMP/snap/keep"
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap"
        expect_rc 3
        expect_err "snapshot-out-exists"
        expect_eq "$(cat "$TMP/snap/keep")" "mine"
}

t_snapshot_ceiling() {
        mk_tree
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap" --ceiling 10 --format json
        expect_rc 3
        expect_eq "$(json_get error.class)" "snapshot-too-large"
        [ ! -e "$TMP/snap" ] || fail "partial snapshot left behind"
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap" --ceiling 0
        expect_rc 2
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap" --ceiling 4294967297
        expect_rc 2
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap" --ceiling 23
        expect_rc 0
}

t_snapshot_usage_errors_exit_2() {
        runp "$PRC" snapshot --target "$TMP"
        expect_rc 2
        runp "$PRC" snapshot --out "$TMP/x"
        expect_rc 2
        runp "$PRC" snapshot --target "$TMP" --out "$TMP/x" --format sarif
        expect_rc 2
}

t_snapshot_with_unrepresentable_names_exits_1() {
        mkdir -p "$TMP/t"
        printf 'x' >"$TMP/t/ok"
        printf 'y' >"$TMP/t/$(printf 'tab\tname')"
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/snap"
        expect_rc 1
        expect_err "could not be represented and were not copied"
        [ -f "$TMP/snap/ok" ] || fail "ok not copied"
        expect_eq "$(ls "$TMP/snap" | wc -l)" "1"
}

t_inventory_threads_do_not_change_the_listing() {
        mk_tree
        for i in 1 2 3 4 5 6 7 8; do head -c $((i * 70000)) /dev/zero >"$TMP/t/z$i"; done
        runp "$PRC" inventory --target "$TMP/t" --format json --threads 1
        expect_rc 0
        one=$OUT
        runp "$PRC" inventory --target "$TMP/t" --format json --threads 4
        expect_rc 0
        expect_eq "$OUT" "$one"
        runp "$PRC" inventory --target "$TMP/t" --threads 0
        expect_rc 2
        runp "$PRC" snapshot --target "$TMP/t" --out "$TMP/s" --threads x
        expect_rc 2
}

