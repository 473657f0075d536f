# test_batch.sh - issue 21: prc batch (list, resumption, signals and kills, malformed lines, exit
# status), shards as separate processes and through GNU parallel merged byte for byte, prc batch merge.
# Package archives are made here with python3's tarfile from small PKGBUILDs of our own.

# mkpkgs N: N snapshot archives $TMP/pk/NNN-demo.tar.gz (each its own pkgver, so its own digest;
# every fourth one without checksums, so it fails) and a list $TMP/list of them.
mkpkgs() {
        /usr/bin/python3 - "$TMP" "$1" <<'PY'
import io, os, sys, tarfile
tmp, n = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{tmp}/pk", exist_ok=True)
lines = []
for i in range(n):
    sums = "" if i % 4 == 3 else "sha256sums=('%064x')\n" % (i + 1)
    pb = (f"pkgname=demo{i}\npkgver=1.{i}\npkgrel=1\narch=(any)\nurl=https://example.org/demo\n"
          f"source=(\"https://example.org/demo-$pkgver.tar.gz\")\n{sums}"
          "package() {\n  install -Dm644 demo \"$pkgdir/usr/share/demo\"\n}\n").encode()
    name = f"{i:03d}-demo.tar.gz"
    with tarfile.open(f"{tmp}/pk/{name}", "w:gz") as t:
        ti = tarfile.TarInfo(f"demo{i}/PKGBUILD")
        ti.size, ti.mode = len(pb), 0o644
        t.addfile(ti, io.BytesIO(pb))
    lines.append(f"pk/{name}\n")
open(f"{tmp}/list", "w").write("".join(lines))
PY
}

batch() { run "$PRC" batch --profile prc/aur "$@"; }

# valid_index FILE: FILE validates against schemas/batch-index.schema.json.
valid_index() {
        /usr/bin/python3 - "$PRC_ROOT/schemas/batch-index.schema.json" "$1" <<'PY' || fail "schema: $1"
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
}

# no_partial DIR: every file under runs/ and keys/ is a whole canonical run result; no temporary.
no_partial() {
        /usr/bin/python3 - "$1" <<'PY' || fail "a partial or stray file in $1"
import hashlib, json, os, sys
d = sys.argv[1]
for sub in ("runs", "keys"):
    for name in os.listdir(f"{d}/{sub}"):
        assert not name.startswith("."), f"stray {sub}/{name}"
        raw = open(f"{d}/{sub}/{name}", "rb").read()
        assert raw.endswith(b"\n"), f"{sub}/{name} is cut short"
        run = json.loads(raw)
        rid = run.pop("id")
        canon = json.dumps(run, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert hashlib.sha256(canon).hexdigest() == rid, f"{sub}/{name}: id does not match content"
        if sub == "runs":
            assert name == rid + ".json", name
for name in os.listdir(d):
    assert not name.startswith(".batch-tmp"), f"stray {name}"
PY
}

t_resumed_batch_scans_nothing_and_writes_the_same_index() {
        mkpkgs 12
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 1     # some packages fail prc/aur
        expect_err "12 targets: 12 results (12 scanned, 0 reused), 0 errors"
        expect_err "worst: Fail, in 3 targets"
        [ "$(ls "$TMP/st/runs" | wc -l)" -eq 12 ] || fail "want 12 runs"
        [ "$(ls "$TMP/st/keys" | wc -l)" -eq 12 ] || fail "want 12 keys"
        no_partial "$TMP/st"
        valid_index "$TMP/st/index.json"
        cp "$TMP/st/index.json" "$TMP/first.json"
        stat -c '%i %Y' "$TMP"/st/runs/* >"$TMP/stat1"
        sleep 1
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 1     # the same worst outcome
        expect_err "12 targets: 12 results (0 scanned, 12 reused), 0 errors"
        cmp "$TMP/first.json" "$TMP/st/index.json" || fail "the resumed index differs"
        stat -c '%i %Y' "$TMP"/st/runs/* >"$TMP/stat2"
        cmp "$TMP/stat1" "$TMP/stat2" || fail "a run file was rewritten"
        # the index: every line, sorted, with result ids that name files in runs/
        /usr/bin/python3 - "$TMP/st" <<'PY' || fail "index"
import json, os, sys
d = sys.argv[1]
idx = json.load(open(f"{d}/index.json"))
t = idx["targets"]
assert [e["target"] for e in t] == sorted(e["target"] for e in t)
assert len(t) == 12 and idx["summary"]["results"] == 12 and idx["summary"]["exit"] == 1
for e in t:
    assert os.path.exists(f"{d}/runs/{e['result']}.json")
    assert os.path.samefile(f"{d}/runs/{e['result']}.json", f"{d}/keys/{e['key']}.json")
    assert (e["states"]["fail"] > 0) == bool(e["failing"])
PY
}

t_a_changed_archive_or_profile_is_scanned_again() {
        mkpkgs 4
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 1
        printf '# changed\n' | gzip >>"$TMP/pk/001-demo.tar.gz"      # another digest, same members
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 1
        expect_err "4 targets: 4 results (1 scanned, 3 reused)"
        run "$PRC" batch --profile prc/core --targets "$TMP/list" --state-dir "$TMP/st" --jobs 1
        expect_err "4 targets: 4 results (4 scanned, 0 reused)"
}

t_malformed_lines_are_reported_and_the_batch_goes_on() {
        mkpkgs 3
        printf '# comment\n\n  pk/000-demo.tar.gz\naur:Not Valid\nctl\001x\n' >>"$TMP/list"
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 2     # a malformed line is worse than a failing package
        expect_err "list:6: batch-line-invalid:   pk/000-demo.tar.gz: blanks around the target"
        expect_err "list:7: aur-name-invalid: aur:Not Valid"
        expect_err "list:8: batch-line-invalid"
        expect_err "6 targets: 3 results (3 scanned, 0 reused), 3 errors (3 malformed lines)"
        valid_index "$TMP/st/index.json"
        /usr/bin/python3 - "$TMP/st/index.json" <<'PY' || fail "index"
import json, sys
idx = json.load(open(sys.argv[1]))
bad = {e["line"]: e["error"]["class"] for e in idx["targets"] if "error" in e}
assert bad == {6: "batch-line-invalid", 7: "aur-name-invalid", 8: "batch-line-invalid"}, bad
assert idx["summary"]["malformed"] == 3 and idx["summary"]["exit"] == 2
PY
        # a target that cannot be read is an execution error for its line
        printf 'pk/gone.tar.gz\n' >>"$TMP/list"
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 3
        expect_err "list:9: io-error: pk/gone.tar.gz: cannot open the target"
        expect_err "(0 scanned, 3 reused)"
}

t_sigint_mid_run_leaves_no_partial_file_and_resumes() {
        mkpkgs 400
        "$PRC" batch --profile prc/aur --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2 2>"$TMP/err" &
        local pid=$! i=0 rc
        # wait for the first results, then interrupt
        while [ "$(ls "$TMP/st/keys" 2>/dev/null | wc -l)" -lt 20 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
        kill -INT $pid
        wait $pid && rc=0 || rc=$?
        [ "$rc" -eq 130 ] || fail "exit $rc, want 130 (ended by SIGINT): $(cat "$TMP/err")"
        grep -q "interrupted by a signal after" "$TMP/err" || fail "no interruption message: $(cat "$TMP/err")"
        [ ! -e "$TMP/st/index.json" ] || fail "an index of an unfinished batch"
        no_partial "$TMP/st"
        local kept
        kept=$(ls "$TMP/st/keys" | wc -l)
        [ "$kept" -ge 20 ] && [ "$kept" -lt 400 ] || fail "$kept results kept"
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 1
        expect_err "400 targets: 400 results ($((400 - kept)) scanned, $kept reused)"
        no_partial "$TMP/st"
        batch --targets "$TMP/list" --state-dir "$TMP/fresh" --jobs 2
        cmp "$TMP/st/index.json" "$TMP/fresh/index.json" || fail "the resumed index differs from a fresh one"
}

t_sigkill_of_the_batch_leaves_no_partial_file_and_resumes() {
        mkpkgs 400
        "$PRC" batch --profile prc/aur --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2 2>/dev/null &
        local pid=$! i=0
        while [ "$(ls "$TMP/st/keys" 2>/dev/null | wc -l)" -lt 20 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
        kill -KILL $pid
        wait $pid || true
        # its jobs see the end of their pipe and stop after their target; wait for the lock to be free
        i=0
        while ! flock -n "$TMP/st" true && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
        no_partial "$TMP/st"
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 2
        expect_rc 1
        expect_err "400 targets: 400 results"
        no_partial "$TMP/st"
}

t_a_locked_state_dir_is_refused() {
        mkpkgs 2
        mkdir "$TMP/st"
        flock "$TMP/st" sleep 3 &
        sleep 0.3
        batch --targets "$TMP/list" --state-dir "$TMP/st"
        expect_rc 3
        expect_err "batch-state-busy"
        wait
}

t_bad_shard_and_options_are_usage_errors() {
        mkpkgs 1
        for s in 3/3 0/0 x/2 1 01/2; do
                batch --targets "$TMP/list" --state-dir "$TMP/st" --shard "$s"
                expect_rc 2
                expect_err "batch-shard-invalid"
        done
        batch --targets "$TMP/list" --state-dir "$TMP/st" --jobs 0
        expect_rc 2
        batch --targets "$TMP/list"
        expect_rc 2
        batch --targets "$TMP/list" --state-dir "$TMP/st" --profile no/such
        expect_rc 2
        expect_err "unknown-profile"
}

# shard_line TEXT N: the documented assignment, computed here independently.
shard_of() { /usr/bin/python3 -c 'import hashlib,sys; print(int.from_bytes(hashlib.sha256(sys.argv[1].encode()).digest()[:8], "big") % int(sys.argv[2]))' "$1" "$2"; }

# A shard the hash gives no line (a Kubernetes job of a short list) has an index all the same: no
# result, exit 0, and "worst" null, which the schema allows.
t_an_empty_shard_has_an_index_whose_worst_is_null() {
        mkpkgs 1
        local i=0
        [ "$(shard_of "$(cat "$TMP/list")" 2)" = 0 ] && i=1
        batch --targets "$TMP/list" --state-dir "$TMP/st" --shard $i/2 --jobs 1
        expect_rc 0
        expect_err "worst: no result"
        valid_index "$TMP/st/index.json"
        /usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]
assert (s["targets"], s["results"], s["worst"], s["exit"]) == (0, 0, None, 0), s' "$TMP/st/index.json" || fail "summary"
}

t_shards_as_separate_processes_merge_to_the_unsharded_index() {
        mkpkgs 40
        printf 'bad line \npk/gone.tar.gz\n' >>"$TMP/list"
        batch --targets "$TMP/list" --state-dir "$TMP/whole" --jobs 2
        expect_rc 3
        local pids="" i
        for i in 0 1 2 3; do
                "$PRC" batch --profile prc/aur --targets "$TMP/list" --state-dir "$TMP/s$i" --shard $i/4 --jobs 1 \
                        2>"$TMP/err$i" &
                pids="$pids $!"
        done
        for p in $pids; do wait "$p" || true; done
        # each shard took exactly the lines the documented hash gives it
        for i in 0 1 2 3; do
                local want got
                want=$(while IFS= read -r l; do [ "$(shard_of "$l" 4)" = $i ] && echo "$l"; done <"$TMP/list" | sort)
                got=$(/usr/bin/python3 -c 'import json,sys; print("\n".join(sorted(e["target"] for e in json.load(open(sys.argv[1]))["targets"])))' "$TMP/s$i/index.json")
                expect_eq "$got" "$want"
        done
        run "$PRC" batch merge --state-dir "$TMP/merged" "$TMP/s2" "$TMP/s0" "$TMP/s3" "$TMP/s1"
        expect_rc 0
        expect_err "worst outcome of the merged batch: exit 3"      # the missing archive
        cmp "$TMP/whole/index.json" "$TMP/merged/index.json" || fail "merged index differs from the unsharded one"
        valid_index "$TMP/s0/index.json"
        valid_index "$TMP/merged/index.json"
        no_partial "$TMP/merged"
        [ "$(ls "$TMP/merged/runs" | wc -l)" -eq 40 ] || fail "merged runs"
        # a merge with a shard missing is refused and writes no index
        run "$PRC" batch merge --state-dir "$TMP/part" "$TMP/s0" "$TMP/s1" "$TMP/s3"
        expect_rc 1
        expect_err "batch-merge-incomplete"
        [ ! -e "$TMP/part/index.json" ] || fail "an index of a partial merge"
        run "$PRC" batch merge --state-dir "$TMP/dup" "$TMP/s0" "$TMP/s1" "$TMP/s2" "$TMP/s3" "$TMP/whole"
        expect_rc 1
        expect_err "batch-merge-mismatch"
}

t_shards_through_gnu_parallel_merge_to_the_unsharded_index() {
        command -v parallel >/dev/null || { fail "GNU parallel is not installed (scripts/setup.sh installs it)"; return 1; }
        mkpkgs 30
        printf 'pk/gone.tar.gz\n' >>"$TMP/list"
        batch --targets "$TMP/list" --state-dir "$TMP/whole" --jobs 2
        expect_rc 3
        # the recipe of deploy/parallel, with this machine as the only "host" (":" runs without SSH), 2 slots
        printf '2/:\n' >"$TMP/hosts"
        mkdir "$TMP/data"
        run env PRC="$PRC" sh deploy/parallel/batch-ssh.sh "$TMP/hosts" "$TMP/list" "$TMP/data" 3
        expect_rc 0
        for i in 0 1 2; do [ -f "$TMP/data/shards/$i/index.json" ] || fail "shard $i: $ERR"; done
        cmp "$TMP/whole/index.json" "$TMP/data/merged/index.json" || fail "merged index differs from the unsharded one"
        # a shard that never ran is not silently left out
        rm -r "$TMP/data/shards/1" "$TMP/data/merged"
        run "$PRC" batch merge --state-dir "$TMP/data/merged" "$TMP/data/shards/0" "$TMP/data/shards/2"
        expect_rc 1
        expect_err "shard 1/3 is missing"
}

t_directory_targets_and_relative_paths() {
        mkdir -p "$TMP/lists" "$TMP/pkgs/one"
        printf 'pkgname=one\npkgver=1\npkgrel=1\narch=(any)\n' >"$TMP/pkgs/one/PKGBUILD"
        # relative to the list's directory, not to the working directory
        printf '../pkgs/one\n%s/pkgs/one\n' "$TMP" >"$TMP/lists/l"
        (cd / && "$PRC" batch --profile prc/aur --targets "$TMP/lists/l" --state-dir "$TMP/st" --jobs 1) 2>"$TMP/err" || true
        grep -q "2 targets: 2 results (1 scanned, 1 reused)" "$TMP/err" || fail "$(cat "$TMP/err")"
        /usr/bin/python3 - "$TMP/st/index.json" <<'PY' || fail "index"
import json, sys
t = json.load(open(sys.argv[1]))["targets"]
assert t[0]["result"] == t[1]["result"] and t[0]["key"] == t[1]["key"]
PY
        # a changed file changes the key
        printf 'depends=(x)\n' >>"$TMP/pkgs/one/PKGBUILD"
        batch --targets "$TMP/lists/l" --state-dir "$TMP/st" --jobs 1
        expect_err "2 targets: 2 results (1 scanned, 1 reused)"
}

# aur_serve: a loopback HTTPS stand-in for the AUR (tests/cli/aur_server.py) serving $TMP/srv; sets
# AUR_URL, AUR_CA and AUR_LOG.  Nothing but 127.0.0.1 is reached.
aur_serve() {
        # shellcheck disable=SC1091
        source "$PRC_ROOT/tests/cli/https_lib.sh"
        local d=$TMP/tls i
        mkdir -p "$d" "$TMP/srv"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$d/ca.key" \
                -out "$d/ca.pem" -days 2 -subj "/CN=prc batch test CA" \
                -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
                2>/dev/null || fail "openssl cannot make the test CA"
        https_cert "$d" good "IP:127.0.0.1" || fail "openssl cannot make the server certificate"
        AUR_LOG=$TMP/requests.log
        : >"$AUR_LOG"
        /usr/bin/python3 "$PRC_ROOT/tests/cli/aur_server.py" "$d/good.pem" "$d/good.key" "$TMP/srv" "$AUR_LOG" \
                "$d/good.port" </dev/null >"$d/good.log" 2>&1 &
        AUR_PID=$!
        trap 'kill $AUR_PID 2>/dev/null' EXIT
        for i in $(seq 100); do [ -s "$d/good.port" ] && break; sleep 0.1; done
        [ -s "$d/good.port" ] || fail "the loopback HTTPS server did not start"
        AUR_CA=$d/ca.pem
        AUR_URL=https://127.0.0.1:$(cat "$d/good.port")
}

t_aur_lines_are_fetched_and_resumed_by_snapshot_digest() {
        mkpkgs 2
        aur_serve
        cp "$TMP/pk/000-demo.tar.gz" "$TMP/srv/demo.tar.gz"
        cp "$TMP/pk/001-demo.tar.gz" "$TMP/srv/other.tar.gz"
        printf 'aur:demo\naur:other\naur:missing\n' >"$TMP/alist"
        batch --targets "$TMP/alist" --state-dir "$TMP/st" --aur-url "$AUR_URL" --cacert "$AUR_CA" --jobs 2
        expect_rc 3     # aur:missing could not be fetched
        expect_err "3 targets: 2 results (2 scanned, 0 reused), 1 errors"
        expect_err "alist:3: https-"
        grep -q "/cgit/aur.git/snapshot/demo.tar.gz" "$AUR_LOG" || fail "no request for demo"
        # the same snapshots again: fetched (a package may have changed), not scanned
        batch --targets "$TMP/alist" --state-dir "$TMP/st" --aur-url "$AUR_URL" --cacert "$AUR_CA" --jobs 2
        expect_err "3 targets: 2 results (0 scanned, 2 reused), 1 errors"
        [ "$(grep -c "snapshot/demo.tar.gz" "$AUR_LOG")" -eq 2 ] || fail "demo was not fetched again"
        # a new snapshot of demo is a new key
        cp "$TMP/pk/001-demo.tar.gz" "$TMP/srv/demo.tar.gz"
        batch --targets "$TMP/alist" --state-dir "$TMP/st" --aur-url "$AUR_URL" --cacert "$AUR_CA" --jobs 2
        expect_err "3 targets: 2 results (1 scanned, 1 reused), 1 errors"
        /usr/bin/python3 - "$TMP/st" <<'PY' || fail "the aur result does not record the package and URL"
import json, sys
d = sys.argv[1]
e = [x for x in json.load(open(f"{d}/index.json"))["targets"] if x["target"] == "aur:demo"][0]
run = json.load(open(f"{d}/runs/{e['result']}.json"))
assert run["target"]["aur"]["package"] == "demo" and run["target"]["aur"]["url"].endswith("/demo.tar.gz")
PY
}

t_a_scanning_process_that_dies_loses_only_its_target() {
        mkpkgs 3
        aur_serve
        # first, so the process that replaces the dead one scans the rest
        { printf 'aur:stall\n'; cat "$TMP/pk/../list"; } >"$TMP/list2" && mv "$TMP/list2" "$TMP/list"
        "$PRC" batch --profile prc/aur --targets "$TMP/list" --state-dir "$TMP/st" --aur-url "$AUR_URL" \
                --cacert "$AUR_CA" --jobs 1 2>"$TMP/err" &
        local pid=$! i=0 job rc
        # the one scanning process is inside the request for aur:stall, which the server holds
        while ! grep -q "snapshot/stall.tar.gz" "$AUR_LOG" && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
        job=$(pgrep -P $pid | head -1)
        [ -n "$job" ] || fail "no scanning process"
        kill -KILL "$job"
        wait $pid && rc=0 || rc=$?
        [ "$rc" -eq 3 ] || fail "exit $rc, want 3: $(cat "$TMP/err")"
        grep -q "batch-job-died: aur:stall: the scanning process was killed by signal 9" "$TMP/err" ||
                fail "$(cat "$TMP/err")"
        grep -q "4 targets: 3 results" "$TMP/err" || fail "$(cat "$TMP/err")"
        no_partial "$TMP/st"
        /usr/bin/python3 -c 'import json,sys; e=[x for x in json.load(open(sys.argv[1]))["targets"] if "error" in x]; assert [x["error"]["class"] for x in e] == ["batch-job-died"], e' \
                "$TMP/st/index.json" || fail "index"
}

t_progress_is_a_live_line_on_a_terminal_and_a_summary_at_the_end() {
        command -v script >/dev/null || { fail "script(1) (util-linux) is needed to give prc a terminal"; return 1; }
        mkpkgs 400
        printf 'bad line \n' >>"$TMP/list"
        # a pseudo-terminal for stderr (script(1)): the live line is redrawn in place
        script -qec "'$PRC' batch --profile prc/aur --targets '$TMP/list' --state-dir '$TMP/st' --jobs 1" /dev/null \
                >"$TMP/tty" 2>&1 || true
        grep -qaP '\r\033\[Kprc batch: [0-9]+/401 done, [0-9]+/s, [0-9]+ s left' "$TMP/tty" ||
                fail "no live line: $(cat -v "$TMP/tty" | head -c 600)"
        grep -qa "prc batch: 401 targets: 400 results (400 scanned, 0 reused), 1 errors" "$TMP/tty" || fail "no summary"
        # without a terminal: no control sequences, only lines
        batch --targets "$TMP/list" --state-dir "$TMP/st2" --jobs 1
        ! grep -q $'\033' <<<"$ERR" || fail "control sequences on a pipe"
        expect_err "401 targets: 400 results (400 scanned, 0 reused), 1 errors (1 malformed lines)"
}
