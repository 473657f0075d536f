# test_oci.sh - the OCI runner against a real Docker engine (issue 8).
# Each test asserts the disposition (or refusal) and the exact error class.
# The images are the static programs in tests/helpers/adapters/, built and
# pushed to 127.0.0.1:5000 once (cached by source SHA-256, oci_lib.sh).
# shellcheck disable=SC1091
source "$PRC_ROOT/tests/cli/oci_lib.sh"
PRC_T=$PRC_ROOT/build/test/prc         # PRC_TESTING build: has the test hook

# Once per file: environment and images.  A failure here fails every test.
OCI_OK=1
if ! sh "$PRC_ROOT/scripts/oci-env.sh" --check >/dev/null 2>&1; then
        OCI_OK=0
        OCI_SETUP_ERR="OCI environment is down (run scripts/oci-env.sh)"
else
        oci_prepare_user
        declare -A IMG
        for n in good authority sleeper memhog forker network writer flood lingerer; do
                if ! IMG[$n]=$(oci_image "$n"); then
                        OCI_OK=0
                        OCI_SETUP_ERR="cannot build test image $n"
                        break
                fi
        done
fi

need_oci() {
        [ "$OCI_OK" -eq 1 ] || fail "$OCI_SETUP_ERR"
        chmod 755 "$TMP"
        oci_target "$TMP/t"
}

# orun ARGS...: prc (release build) as the unprivileged user; OUT/ERR/RC as run().
orun() { run as_user "$PRC" "$@"; }
orun_t() { run as_user "$PRC_T" "$@"; }
run_json() { orun adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json "$@"; }

# run_named: run-oci (test build) that leaves the generated container name in $TMP/o/name,
# so a test can check that exactly that container is gone (other runs may share the image).
run_named() {
        mkdir -p -m 777 "$TMP/o"
        PRC_TEST_OCI_HOOK='echo "$PRC_HOOK_CONTAINER" >'"$TMP/o/name" orun_t adapter run-oci --manifest "$TMP/m.yaml" \
                --target "$TMP/t" --runtime docker --format json "$@"
}
container_gone() {
        local name
        name=$(cat "$TMP/o/name")
        grep -qE '^prc-[0-9a-f]{24}$' <<<"$name" || fail "no container name from the hook"
        [ -z "$(docker ps -aq --filter "name=^/$name\$")" ] || fail "container $name was left behind"
}

expect_disp() {
        expect_eq "$(json_get disposition)" "$1"
        expect_eq "$(json_get error_class)" "$2"
}

t_env_is_up() {
        need_oci
        sh "$PRC_ROOT/scripts/oci-env.sh" --check
}

# run_plan_argv RUNNER...: bind a copy of the target where the plan's (removed)
# snapshot was, run the plan's argv exactly (from $OUT) with the three request
# lines on stdin under RUNNER (as_user, or nothing for root), and decode its
# stdout with validate-output.
run_plan_argv() {
        local snap
        snap=$(/usr/bin/python3 -c 'import json,sys,re; a=json.load(sys.stdin)["argv"]; print([re.search("source=([^,]*)",x).group(1) for x in a if x.startswith("--mount=")][0])' <<<"$OUT")
        as_user cp -r "$TMP/t" "$snap"
        printf '%s\n' '{"protocol":"prc-adapter-jsonl-v1","run_id":"'"$(printf 'a%.0s' {1..64})"'","type":"hello"}' \
                '{"config":{},"facts":{},"subject":{"inventory_digest":"'"$(printf 'b%.0s' {1..64})"'","target_name":"t"},"type":"input"}' \
                '{"type":"execute"}' >"$TMP/req"
        /usr/bin/python3 -c 'import json,sys; print("\0".join(json.load(sys.stdin)["argv"]), end="")' <<<"$OUT" >"$TMP/argv0"
        mkdir -m 777 "$TMP/o"
        # The runtime's own stderr is kept: a refusal by the runtime is shown, not a bare failure.
        "$@" xargs -0 -a "$TMP/argv0" sh -c 'exec "$@" <'"$TMP/req"' >'"$TMP/o/out.jsonl"' 2>'"$TMP/o/rt.err" sh || {
                fail "the runtime refused the planned argv: $(head -c 2000 "$TMP/o/rt.err")"
                as_user rm -rf "$snap"
                return 1
        }
        as_user rm -rf "$snap"
        run "$PRC" adapter validate-output --manifest "$TMP/m.yaml" --file "$TMP/o/out.jsonl"
        expect_rc 0
        expect_out accepted
}

t_plan_has_every_control() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        expect_rc 0
        local argv
        argv=$(json_get argv)
        for flag in '"run"' '"--rm"' '"--pull=never"' '"--network=none"' '"--read-only"' '"--cap-drop=ALL"' \
                '"--security-opt=no-new-privileges"' '"--memory=67108864b"' '"--memory-swap=67108864b"' \
                '"--cpus=1.000"' '"--pids-limit=1"' '"--ulimit=nofile=64:64"' \
                '"--workdir=/prc-snapshot"' '"/adapter"' ',target=/prc-snapshot,readonly"'; do
                grep -qF -- "$flag" <<<"$argv" || fail "argv lacks $flag"
        done
        # nproc is the user's own hard limit (at most pid_max), never derived from pids.
        local un pm
        un=$(as_user /bin/bash -c 'ulimit -Hu')
        pm=$(cat /proc/sys/kernel/pid_max)
        [ "$un" != unlimited ] && [ "$un" -le "$pm" ] || un=$pm
        grep -qF -- "\"--ulimit=nproc=$un:$un\"" <<<"$argv" || fail "argv lacks --ulimit=nproc=$un:$un"
        expect_eq "$(json_get limits.nproc)" "$un"
        grep -qF -- "\"--user=$(id -u "$OCI_USER"):$(id -g "$OCI_USER")\"" <<<"$argv" || fail "argv lacks --user"
        grep -qF -- "\"${IMG[good]}\"" <<<"$argv" || fail "argv lacks the pinned image"
        ! grep -qE -- '"(-e|--env|--env-file|--privileged|--net=host)' <<<"$argv" || fail "argv passes env or privilege"
        expect_eq "$(json_get image)" "${IMG[good]}"
        grep -qE '^prc-[0-9a-f]{24}$' <<<"$(json_get container_name)" || fail "bad container name"
        grep -qE '^[0-9a-f]{64}$' <<<"$(json_get plan_sha256)" || fail "bad plan digest"
        expect_eq "$(json_get snapshot.files)" 2
        # The sealed plan has no host path: two plans (new snapshot dir, new name) share one digest.
        local d1 d2
        d1=$(json_get plan_sha256)
        orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        d2=$(json_get plan_sha256)
        expect_eq "$d1" "$d2"
        ! grep -qF "$TMP" <<<"$(json_get sealed)" || fail "sealed plan holds a host path"
}

t_plan_refuses_a_nofile_above_the_host_limit() {
        need_oci
        NOFILE=65536 oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker
        expect_rc 1
        expect_err oci-ulimit-exceeds-host
}

t_docker_accepts_the_plan_argv_as_is() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        expect_rc 0
        # plan-oci removed its snapshot; bind an equal copy where it was and run the argv itself.
        run_plan_argv as_user
}

# Rootful podman enforces limits here; the runner itself refuses root, so
# this test (root only, for this purpose) starts podman's plan by hand.
t_podman_accepts_its_plan_argv_rootful() {
        need_oci
        [ "$(id -u)" -eq 0 ] || return 0       # rootless podman is refused (test above)
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        local P=(podman --runtime runc --cgroup-manager cgroupfs)
        "${P[@]}" image exists "${IMG[good]}" 2>/dev/null ||
                "${P[@]}" pull --tls-verify=false "${IMG[good]}" >/dev/null 2>&1 || fail "podman cannot pull the test image"
        orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime podman --format json
        expect_rc 0
        grep -qF '"--read-only-tmpfs=false"' <<<"$OUT" || fail "podman plan lacks --read-only-tmpfs=false"
        run_plan_argv
}

t_run_good_adapter_is_accepted() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        # The snapshot in a directory of this test's own, so other runs on the machine cannot
        # be mistaken for a leftover (the default location is checked by the tmpfs test).
        mkdir -m 777 "$TMP/snaps"
        PRC_OCI_TMPDIR=$TMP/snaps run_json
        expect_rc 0
        expect_disp accepted null
        expect_eq "$(json_get exit_status)" 0
        expect_eq "$(json_get timed_out)" false
        expect_eq "$(json_get summary_status)" completed
        expect_eq "$(json_get schema)" prc.execution-record/v0.3
        expect_eq "$(json_get observations.0.kind)" prc-test.entries
        expect_eq "$(json_get observations.0.value.top_level)" 2
        expect_eq "$(json_get observations.1.outcome)" found
        expect_eq "$(json_get observations.1.locations.0.path)" README
        expect_eq "$(json_get stderr.bytes)" 25
        expect_eq "$(json_get resolution.grant)" local-explicit
        ! grep -qF "$TMP" <<<"$OUT" || fail "record holds a host path"
        ! grep -qF "prc-snapshot-" <<<"$OUT" || fail "record holds the snapshot path"
        printf '%s\n' "$OUT" >"$TMP/rec.json"
        /usr/bin/python3 -c 'import json,sys,jsonschema
s=json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s)
jsonschema.Draft202012Validator(s).validate(json.load(open(sys.argv[2])))' \
                "$PRC_ROOT/schemas/execution-record.schema.json" "$TMP/rec.json" || fail "record does not match its schema"
        run "$PRC" record show "$TMP/rec.json" --format json
        expect_rc 0
        run "$PRC" record show "$TMP/rec.json"
        expect_rc 0
        expect_out "interpretation only"
        # The snapshot is gone after the run.
        [ -z "$(ls -A "$TMP/snaps")" ] || fail "snapshot left behind"
}

# RLIMIT_NPROC counts every task of the container's uid on the host (the invoking user's: no
# user namespace).  With nproc = pids + 32 (33), 25 other tasks of the user made the adapter's
# exec (or runc's init threads) fail with EAGAIN before the container ran: CI's
# oci-runtime-failed and "pthread_create failed" flakes, when other runs shared the test user.
t_other_tasks_of_the_user_do_not_stop_a_run() {
        need_oci
        local n
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        as_user /bin/sh -c 'i=0; while [ $i -lt 40 ]; do sleep 600 & echo $!; i=$((i + 1)); done' >"$TMP/held"
        trap 'kill $(cat "$TMP/held") 2>/dev/null || :' EXIT
        n=$(ps -L -u "$(as_user /usr/bin/id -u)" --no-headers | wc -l)
        [ "$n" -ge 40 ] || fail "only $n tasks of the test user are held"
        run_json
        expect_rc 0
        expect_disp accepted null
        expect_eq "$(json_get summary_status)" completed
}

t_two_runs_of_one_plan_give_one_record_id() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        run_json
        local a
        a=$(json_get id)
        run_json
        expect_eq "$(json_get id)" "$a"
}

t_record_tamper_is_refused() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        run_json
        sed 's/"timed_out":false/"timed_out":true/' <<<"$OUT" >"$TMP/rec.json"
        run "$PRC" record show "$TMP/rec.json"
        expect_rc 1
        expect_err record-id-mismatch
}

t_evaluator_authority_attack_is_rejected() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[authority]}"
        run_json
        expect_rc 1
        expect_disp rejected authority-claim
        expect_eq "$(json_get observations)" "[]"
        printf '%s\n' "$OUT" >"$TMP/rec.json"
        /usr/bin/python3 -c 'import json,sys,jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
                "$PRC_ROOT/schemas/execution-record.schema.json" "$TMP/rec.json" || fail "record does not match its schema"
        run "$PRC" record show "$TMP/rec.json"
        expect_rc 0
}

t_sleeper_times_out_and_its_container_is_removed() {
        need_oci
        WALL=2 oci_manifest "$TMP/m.yaml" "${IMG[sleeper]}"
        run_named
        expect_rc 3
        expect_disp execution-error adapter-timed-out
        expect_eq "$(json_get timed_out)" true
        expect_eq "$(json_get exit_status)" null
        container_gone
}

# wait_running WHAT: waits for the container whose name the hook wrote to $TMP/o/name to be running.
# It stops early when prc has already ended ($TMP/o/rc), and on failure says why: prc's status and
# stderr and what docker knows of the container, so a failure on a loaded CI host can be read.
wait_running() {
        local i name=
        for i in $(seq 1 1200); do
                [ -s "$TMP/o/name" ] && name=$(cat "$TMP/o/name")
                [ -n "$name" ] && [ -n "$(docker ps -q --filter "name=^/$name\$" --filter status=running)" ] &&
                        return 0
                [ -s "$TMP/o/rc" ] && break
                sleep 0.1
        done
        fail "the $1 container never ran (container '${name:-none}'; prc status '$(cat "$TMP/o/rc" 2>/dev/null)')"
        sed 's/^/    prc stderr: /' "$TMP/o/err" >&2 2>/dev/null || true
        [ ! -s "$TMP/o/out" ] || echo "    prc record: $(head -c 2000 "$TMP/o/out")" >&2
        [ -z "$name" ] || docker ps -a --filter "name=^/$name\$" --format '    docker: {{.Names}} {{.Status}}' >&2 || true
        return 1
}

t_sigterm_during_a_run_removes_its_container_and_snapshot() {
        need_oci
        local pid i
        WALL=60 oci_manifest "$TMP/m.yaml" "${IMG[sleeper]}"
        mkdir -p -m 777 "$TMP/o" "$TMP/snaps"
        # (set -e holds in the subshell too: keep the status instead of dying of it)
        ( st=0; PRC_OCI_TMPDIR=$TMP/snaps PRC_TEST_OCI_HOOK='echo "$PRC_HOOK_CONTAINER" >'"$TMP/o/name" \
                as_user "$PRC_T" adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker \
                --format json >"$TMP/o/out" 2>"$TMP/o/err" || st=$?; echo "$st" >"$TMP/o/rc" ) &
        wait_running sleeper || { wait; return 1; }
        # prc itself (env execs it), not runuser or the docker client: its command line starts with the binary.
        pid=$(pgrep -f -- "^$PRC_T adapter run-oci --manifest $TMP/m.yaml" | head -n 1)
        [ -n "$pid" ] || fail "no prc process to signal"
        kill -TERM "$pid"
        for i in $(seq 1 1200); do [ -s "$TMP/o/rc" ] && break; sleep 0.1; done
        wait
        [ -s "$TMP/o/rc" ] || fail "prc did not end after SIGTERM"
        # Ended by the signal it got (128 + 15), after cleaning up and writing the record.
        expect_eq "$(cat "$TMP/o/rc")" 143
        OUT=$(cat "$TMP/o/out")
        expect_disp execution-error oci-interrupted
        container_gone
        [ -z "$(ls -A "$TMP/snaps")" ] || fail "snapshot left behind: $(ls -A "$TMP/snaps")"
}

t_memory_hog_is_killed_at_its_limit() {
        need_oci
        MEM=16777216 oci_manifest "$TMP/m.yaml" "${IMG[memhog]}"
        run_json
        expect_rc 3
        expect_disp execution-error adapter-memory-limit
}

# Seed 000: no child processes for generic JSONL adapters.  The manifest asks for 8 pids; a generic
# adapter gets --pids-limit=1 (the adapter process itself), so its very first fork fails.
t_fork_bomb_first_fork_fails() {
        need_oci
        PIDS=8 oci_manifest "$TMP/m.yaml" "${IMG[forker]}"
        run_json
        expect_disp accepted null
        expect_eq "$(json_get limits.pids)" 1
        expect_eq "$(json_get observations.0.value.forks)" 0
}

# Issue 16: the docker client killed by a signal prc did not send leaves the adapter's end unknown.  The
# lingerer has written a complete transcript and keeps running: never an accepted exit 0.
t_client_killed_by_a_foreign_signal_is_an_execution_error() {
        need_oci
        local name cpid i
        WALL=60 oci_manifest "$TMP/m.yaml" "${IMG[lingerer]}"
        mkdir -p -m 777 "$TMP/o"
        ( st=0; PRC_TEST_OCI_HOOK='echo "$PRC_HOOK_CONTAINER" >'"$TMP/o/name" \
                as_user "$PRC_T" adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker \
                --format json >"$TMP/o/out" 2>"$TMP/o/err" || st=$?; echo "$st" >"$TMP/o/rc" ) &
        wait_running lingerer || { wait; return 1; }
        name=$(cat "$TMP/o/name")
        # The runtime client: the only process whose command line names this run's container.
        cpid=$(pgrep -f -- "--name=$name" | head -n 1)
        [ -n "$cpid" ] || fail "no runtime client to kill"
        kill -KILL "$cpid"
        for i in $(seq 1 1200); do [ -s "$TMP/o/rc" ] && break; sleep 0.1; done
        wait
        expect_eq "$(cat "$TMP/o/rc")" 3
        OUT=$(cat "$TMP/o/out")
        expect_disp execution-error oci-exit-unknown
        expect_eq "$(json_get exit_status)" null
        expect_eq "$(json_get observations)" "[]"
        container_gone
}

# Issue 16: group 0 follows --user=UID:GID into the container; the runner refuses it like root.
t_group_root_is_refused() {
        need_oci
        [ "$(id -u)" -eq 0 ] || return 0       # only root can start prc with the user's uid and group 0
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        run runuser -u "$OCI_USER" -g root -- /usr/bin/env -i PATH="$PATH" HOME=/tmp "$PRC" adapter plan-oci \
                --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        expect_rc 4
        expect_eq "$(json_get error_class)" oci-root-group-refused
        run runuser -u "$OCI_USER" -g root -- /usr/bin/env -i PATH="$PATH" HOME=/tmp "$PRC" adapter run-oci \
                --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        expect_rc 4
        expect_eq "$(json_get error_class)" oci-root-group-refused
}

t_network_is_unreachable() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[network]}"
        run_json
        expect_disp accepted null
        expect_eq "$(json_get observations.0.outcome)" not_found
}

t_snapshot_and_root_are_read_only() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[writer]}"
        run_json
        expect_disp accepted null
        expect_eq "$(json_get observations.0.outcome)" not_found
        expect_eq "$(cat "$TMP/t/README")" hello
        [ ! -e "$TMP/t/prc-injected" ] || fail "the target was written"
}

t_stdout_flood_is_rejected_at_the_cap() {
        need_oci
        STDOUT=2000 CMD='[/adapter, stdout]' oci_manifest "$TMP/m.yaml" "${IMG[flood]}"
        run_named
        expect_rc 1
        expect_disp rejected stdout-limit
        container_gone
}

t_stderr_flood_is_an_execution_error() {
        need_oci
        STDERR=4096 CMD='[/adapter, stderr]' oci_manifest "$TMP/m.yaml" "${IMG[flood]}"
        run_named
        expect_rc 3
        expect_disp execution-error oci-stderr-limit
        container_gone
}

t_absent_image_is_a_clear_error() {
        need_oci
        local ref="${IMG[good]%@*}@sha256:$(printf '%064d' 7)"
        oci_manifest "$TMP/m.yaml" "$ref"
        orun adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker
        expect_rc 3
        expect_err oci-image-absent
        expect_err "never pulls"
}

t_root_is_refused() {
        need_oci
        [ "$(id -u)" -eq 0 ] || return 0       # the unprivileged path is every other test
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        run "$PRC" adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker
        expect_rc 4
        expect_err oci-root-refused
        run "$PRC" adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker
        expect_rc 4
        expect_err oci-root-refused
}

t_rootless_podman_on_cgroup_v1_is_refused() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        orun adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime podman --format json
        expect_rc 3
        expect_eq "$(json_get error_class)" oci-limits-ignored
}

# --- external data --------------------------------------------------------

data_manifest() {
        DATA=$'data:\n  - name: db\n    max_bytes: 1000\n    max_files: 3' oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        mkdir -p "$TMP/db"
        printf 'one\n' >"$TMP/db/a"
        printf 'two\n' >"$TMP/db/b"
        chmod -R a+rX "$TMP/db"
}
plan_data() { orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker "$@"; }

t_data_is_mounted_and_recorded_without_its_path() {
        need_oci
        data_manifest
        run_json --data "db=$TMP/db"
        expect_rc 0
        expect_disp accepted null
        expect_eq "$(json_get observations.0.value.db_files)" 2
        expect_eq "$(json_get data_inputs.0.destination)" /prc-inputs/db
        expect_eq "$(json_get data_inputs.0.files)" 2
        expect_eq "$(json_get data_inputs.0.bytes)" 8
        ! grep -qF "$TMP" <<<"$OUT" || fail "record holds the data host path"
}

t_data_rejections_are_named() {
        need_oci
        data_manifest
        plan_data --data "nope=$TMP/db" --data "db=$TMP/db"; expect_rc 1; expect_err data-undeclared
        plan_data --data "db=$TMP/db" --data "db=$TMP/db"; expect_rc 1; expect_err data-duplicate
        plan_data; expect_rc 1; expect_err data-missing
        plan_data --data "db=$TMP/absent"; expect_rc 1; expect_err data-missing
        printf x >"$TMP/file"; chmod 644 "$TMP/file"
        plan_data --data "db=$TMP/file"; expect_rc 1; expect_err data-not-directory
        ln -s "$TMP/db" "$TMP/dblink"
        plan_data --data "db=$TMP/dblink"; expect_rc 1; expect_err data-not-directory
        mkdir -m 755 "$TMP/empty"
        plan_data --data "db=$TMP/empty"; expect_rc 1; expect_err data-empty
        mkdir -m 755 "$TMP/big"; head -c 2000 /dev/zero >"$TMP/big/x"; chmod 644 "$TMP/big/x"
        plan_data --data "db=$TMP/big"; expect_rc 1; expect_err data-too-large
        mkdir -m 755 "$TMP/many"; for i in 1 2 3 4; do echo "$i" >"$TMP/many/$i"; done; chmod 644 "$TMP/many/"*
        plan_data --data "db=$TMP/many"; expect_rc 1; expect_err data-too-many-files
        mkdir -m 755 "$TMP/sym"; echo a >"$TMP/sym/a"; chmod 644 "$TMP/sym/a"; ln -s a "$TMP/sym/b"
        plan_data --data "db=$TMP/sym"; expect_rc 1; expect_err data-symlink
        mkdir -m 755 "$TMP/fifo"; echo a >"$TMP/fifo/a"; chmod 644 "$TMP/fifo/a"; mkfifo "$TMP/fifo/p"
        plan_data --data "db=$TMP/fifo"; expect_rc 1; expect_err data-not-regular
        plan_data --data "db=$TMP/db"; expect_rc 0
}

# --- changes between authorization and start (PRC_TESTING hook) ----------

hook_run() {
        PRC_TEST_OCI_HOOK="$1" orun_t adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker \
                --format json "${@:2}"
}

t_snapshot_mutated_before_start_is_an_execution_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        hook_run 'chmod u+w "$PRC_HOOK_SNAPSHOT" && echo evil >"$PRC_HOOK_SNAPSHOT/evil"'
        expect_rc 3
        expect_disp execution-error snapshot-changed
        expect_eq "$(json_get observations)" "[]"
}

t_manifest_edited_after_authorization_is_an_execution_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        chmod 666 "$TMP/m.yaml"
        hook_run "printf '# edited\\nknown_limitations: [edited]\\n' >>'$TMP/m.yaml'"
        expect_rc 3
        expect_disp execution-error oci-manifest-changed
}

t_data_changed_before_start_is_an_execution_error() {
        need_oci
        data_manifest
        chmod 777 "$TMP/db"
        hook_run "echo three >'$TMP/db/c'" --data "db=$TMP/db"
        expect_rc 3
        expect_disp execution-error data-changed
}

t_runtime_binary_replaced_is_an_execution_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        mkdir -m 777 "$TMP/bin"
        as_user cp "$(command -v docker)" "$TMP/bin/docker"
        PATH="$TMP/bin:$PATH" hook_run "printf x >>'$TMP/bin/docker'"
        expect_rc 3
        expect_disp execution-error oci-runtime-changed
        expect_eq "$(json_get runtime.kind)" docker
}

# The client is executed through the descriptor it was hashed through; a new file renamed
# over its path is never run, and the run is still an execution error.
t_runtime_binary_renamed_over_is_an_execution_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        mkdir -m 777 "$TMP/bin"
        as_user cp "$(command -v docker)" "$TMP/bin/docker"
        PATH="$TMP/bin:$PATH" hook_run "cp '$TMP/bin/docker' '$TMP/bin/new' && mv -f '$TMP/bin/new' '$TMP/bin/docker'"
        expect_rc 3
        expect_disp execution-error oci-runtime-changed
}

t_data_changed_during_the_run_is_an_execution_error() {
        need_oci
        data_manifest
        chmod 777 "$TMP/db"
        PRC_TEST_OCI_HOOK_AFTER="echo three >'$TMP/db/c'" orun_t adapter run-oci --manifest "$TMP/m.yaml" \
                --target "$TMP/t" --runtime docker --format json --data "db=$TMP/db"
        expect_rc 3
        expect_disp execution-error data-changed
        expect_eq "$(json_get observations)" "[]"
}

t_snapshot_changed_during_the_run_is_an_execution_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        PRC_TEST_OCI_HOOK_AFTER='chmod u+w "$PRC_HOOK_SNAPSHOT/README" && echo evil >"$PRC_HOOK_SNAPSHOT/README"' \
                orun_t adapter run-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker --format json
        expect_rc 3
        expect_disp execution-error snapshot-changed
}

# The snapshot is a private (0700, the user's) directory on tmpfs when /dev/shm is one;
# PRC_OCI_TMPDIR puts it elsewhere; either way the record is the same.
t_snapshot_lives_on_a_private_tmpfs_unless_overridden() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        mkdir -p -m 777 "$TMP/o" "$TMP/snaps"
        local where='stat -f -c %T "$PRC_HOOK_SNAPSHOT" >'"$TMP/o/fs"'; stat -c "%a %u" "$PRC_HOOK_SNAPSHOT" >'"$TMP/o/mode"'; dirname "$PRC_HOOK_SNAPSHOT" >'"$TMP/o/dir"'; echo "$PRC_HOOK_SNAPSHOT" >'"$TMP/o/path"
        hook_run "$where"
        expect_rc 0
        expect_disp accepted null
        local id1
        id1=$(json_get id)
        if [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
                expect_eq "$(cat "$TMP/o/fs")" tmpfs
                expect_eq "$(cat "$TMP/o/dir")" /dev/shm
        fi
        expect_eq "$(cat "$TMP/o/mode")" "700 $(id -u "$OCI_USER")"
        [ ! -e "$(cat "$TMP/o/path")" ] || fail "snapshot left behind at $(cat "$TMP/o/path")"
        PRC_OCI_TMPDIR=$TMP/snaps hook_run "$where"
        expect_rc 0
        expect_eq "$(cat "$TMP/o/dir")" "$TMP/snaps"
        expect_eq "$(cat "$TMP/o/mode")" "700 $(id -u "$OCI_USER")"
        expect_eq "$(json_get id)" "$id1"
        [ -z "$(ls -A "$TMP/snaps")" ] || fail "snapshot left behind in PRC_OCI_TMPDIR"
}

t_missing_runtime_is_a_named_error() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        OCI_PATH=/nonexistent orun adapter plan-oci --manifest "$TMP/m.yaml" --target "$TMP/t" --runtime docker
        expect_rc 3
        expect_err oci-runtime-unavailable
}

t_record_show_reads_archived_versions() {
        need_oci
        oci_manifest "$TMP/m.yaml" "${IMG[good]}"
        run_json
        expect_rc 0
        printf '%s\n' "$OUT" >"$TMP/v3.json"
        # Derive v0.2 and v0.1 records (their fields are subsets) with their own ids.
        /usr/bin/python3 - "$TMP" <<'PY'
import hashlib, json, sys
d = sys.argv[1]
r = json.load(open(d + "/v3.json"))
def write(rec, ver):
    rec = dict(rec); rec.pop("id", None); rec["schema"] = "prc.execution-record/v0.%d" % ver
    canon = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    rec["id"] = hashlib.sha256(canon).hexdigest()
    json.dump(rec, open(d + "/v%d.json" % ver, "w"), separators=(",", ":"))
v2 = {k: v for k, v in r.items() if k not in ("data_inputs", "snapshot")}
write(v2, 2)
write({k: v for k, v in v2.items() if k not in ("resolution", "artifacts")}, 1)
PY
        for v in 1 2 3; do
                run "$PRC" record show "$TMP/v$v.json"
                expect_rc 0
                expect_out "prc.execution-record/v0.$v"
        done
        # A v0.3 field in a v0.1 record is refused.
        sed 's/"timed_out":false/"timed_out":false,"data_inputs":[]/' "$TMP/v1.json" >"$TMP/bad.json"
        run "$PRC" record show "$TMP/bad.json"
        expect_rc 1
        expect_err unknown-field
}

t_usage_errors_exit_2() {
        run "$PRC" adapter run-oci --manifest x.yaml
        expect_rc 2
        run "$PRC" adapter plan-oci --manifest x.yaml --target . --runtime runc
        expect_rc 2
        expect_err "docker or podman"
        run "$PRC" adapter plan-oci --manifest x.yaml --target . --runtime docker --data nodir
        expect_rc 2
        run "$PRC" record show
        expect_rc 2
        run "$PRC" record show a b
        expect_rc 2
}
