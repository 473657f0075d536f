# oci_lib.sh - helpers for the OCI runner's CLI tests (sourced by test_oci.sh
# and bench/oci.sh).  Builds the static test adapters into minimal images,
# pushes them to the local registry (127.0.0.1:5000), pulls each once by
# digest, and caches the result keyed by the SHA-256 of the program source,
# so a second test run builds nothing.  Writes manifests with the real
# digests.  Needs scripts/oci-env.sh to have run (tests/run does that).
#
# As root, prc is run as $PRC_TEST_USER (default prctest), a member of the
# docker group: the runner refuses root.
OCI_STATE=${PRC_OCI_STATE:-/tmp/prc-oci-env}
OCI_REG=127.0.0.1:5000
OCI_USER=${PRC_TEST_USER:-prctest}
OCI_SETUP_ERR=""

# as_user CMD...: run CMD as the unprivileged test user when we are root
# (CMD with an absolute path when OCI_PATH replaces its PATH).
as_user() {
        if [ "$(id -u)" -eq 0 ]; then
                # tests/run makes / traversable for the test user; something on
                # shared machines may undo that, so check each time (x only).
                # Rootless podman must read /etc/containers and /etc/subuid to say anything.
                [ "$(( $(stat -c '%a' /) % 10 & 1 ))" -eq 1 ] || chmod go+x /
                [ "$(( $(stat -c '%a' /etc) % 10 & 1 ))" -eq 1 ] || chmod go+x /etc
                runuser -u "$OCI_USER" -- /usr/bin/env -i PATH="${OCI_PATH:-$PATH}" HOME=/tmp TMPDIR="${PRC_OCI_TMPDIR:-/tmp}" ${PRC_TEST_OCI_HOOK:+PRC_TEST_OCI_HOOK="$PRC_TEST_OCI_HOOK"} \
                        ${PRC_TEST_OCI_HOOK_AFTER:+PRC_TEST_OCI_HOOK_AFTER="$PRC_TEST_OCI_HOOK_AFTER"} \
                        ${PRC_OCI_TMPDIR:+PRC_OCI_TMPDIR="$PRC_OCI_TMPDIR"} \
                        ${PRC_TEST_RESULT_DIR:+PRC_TEST_RESULT_DIR="$PRC_TEST_RESULT_DIR"} "$@"
        else
                PATH="${OCI_PATH:-$PATH}" "$@"
        fi
}

# oci_image NAME: print the pinned reference of test image NAME, building it if needed.
oci_image() {
        local name=$1 src="$PRC_ROOT/tests/helpers/adapters/$1.c" key cache d
        key=$(cat "$PRC_ROOT/tests/helpers/adapters/common.h" "$src" | sha256sum | cut -c1-16)
        cache="$OCI_STATE/images/$name-$key"
        oci_cached "$cache" && return 0
        d=$(mktemp -d /tmp/prc-img-XXXXXX)
        mkdir -p "$d/root/tmp" "$d/root/prc-snapshot" "$d/root/prc-inputs"
        chmod 1777 "$d/root/tmp"
        gcc -static -O2 -Wall -Wextra -Werror -o "$d/root/adapter" "$src" >&2 || { rm -rf "$d"; return 1; }
        oci_publish_rootfs "$d" "prc-test/$name" "$key" "$cache"
}

# oci_cached CACHE: print the reference CACHE names and succeed when that image is still present.
oci_cached() {
        mkdir -p "$OCI_STATE/images"
        [ -s "$1" ] && docker image inspect "$(cat "$1")" >/dev/null 2>&1 && cat "$1"
}

# oci_standin_ready: the OCI environment is up and build/test (prc and libprc.a) is built, then the
# test user is prepared; otherwise OCI_SETUP_ERR says which and it fails.
oci_standin_ready() {
        if ! sh "$PRC_ROOT/scripts/oci-env.sh" --check >/dev/null 2>&1; then
                OCI_SETUP_ERR="OCI environment is down (run scripts/oci-env.sh)"
                return 1
        fi
        if [ ! -x "$PRC_ROOT/build/test/prc" ] || [ ! -f "$PRC_ROOT/build/test/libprc.a" ]; then
                OCI_SETUP_ERR="build/test is not built (make testbuild)"
                return 1
        fi
        oci_prepare_user
}

# oci_static_standin SRC OUT LOG: link a native stand-in statically against the testing build's
# libprc.a, which carries the protocol table the stand-in checks its argv against, with libcrypto's
# functions as linked (src/base/crypto_linked.c: a scratch image has no libcrypto.so.3 to load).
oci_static_standin() {
        gcc -static -O2 -std=c17 -D_GNU_SOURCE -I"$PRC_ROOT/src" -o "$2" "$1" "$PRC_ROOT/src/base/crypto_linked.c" \
                "$PRC_ROOT/build/test/libprc.a" \
                -ljansson -lfyaml -lexpat -lcrypto -lseccomp -larchive -lz -lbz2 -llzma -lxml2 -lpthread -ldl 2>"$3"
}

# oci_publish_rootfs DIR REPO KEY CACHE: import DIR/root as a scratch image, push it to the test
# registry, pull it back once by digest (every run after this uses --pull=never), remove DIR, and
# print the pinned reference (also written to CACHE).
oci_publish_rootfs() {
        local d=$1 ref="$OCI_REG/$2" key=$3 cache=$4 digest
        tar -C "$d/root" --owner=0 --group=0 --numeric-owner -cf "$d/root.tar" . || { rm -rf "$d"; return 1; }
        docker import "$d/root.tar" "$ref:$key" >/dev/null || { rm -rf "$d"; return 1; }
        rm -rf "$d"
        docker push "$ref:$key" >/dev/null || return 1
        digest=$(docker image inspect --format '{{range .RepoDigests}}{{println .}}{{end}}' "$ref:$key" |
                 grep "^$ref@sha256:" | head -n 1 | sed 's/.*@//')
        [ -n "$digest" ] || return 1
        docker pull "$ref@$digest" >/dev/null || return 1
        echo "$ref@$digest" >"$cache"
        echo "$ref@$digest"
}

# oci_manifest FILE IMAGE_REF [extra yaml lines for limits override via env]: write a v0.4 manifest.
# Env knobs: WALL MEM PIDS NOFILE STDOUT STDERR TMPFS CMD (yaml flow list) DATA (yaml block or empty)
oci_manifest() {
        local file=$1 ref=$2 repo digest
        repo=${ref#"$OCI_REG"/}
        repo=${repo%@*}
        digest=${ref#*@}
        cat >"$file" <<EOF
schema: prc.adapter-manifest/v0.4
adapter_id: prc-test.${ADAPTER:-adapter}@1.0.0
publisher:
  id: prc-test
  name: prc test publisher
owner:
  id: prc-test-owner
  contact: tests@prc.invalid
protocol: prc-adapter-jsonl-v1
output_schema: prc.adapter-message/v1
engine_api:
  min: 1
  max: 1
tool:
  name: prc-test-tool
  version: 1.0.0
  formats:
    - prc-test/1
observation_kinds:
  - prc-test.entries
  - prc-test.secret
  - prc-test.forks
  - prc-test.network
  - prc-test.write
maintenance: active
known_limitations:
  - test adapter
image:
  registry: "$OCI_REG"
  repository: $repo
  digest: $digest
command: ${CMD:-[/adapter]}
limits:
  wall_seconds: ${WALL:-20}
  memory_bytes: ${MEM:-67108864}
  cpus_millis: 1000
  pids: ${PIDS:-8}
  nofile: ${NOFILE:-64}
  tmpfs_bytes: ${TMPFS:-0}
  stdin_bytes: 1048576
  stdout_bytes: ${STDOUT:-1048576}
  stderr_bytes: ${STDERR:-65536}
  line_bytes: 4096
  messages: 100
${DATA:-}
EOF
        chmod 644 "$file"
}

# expect_refused CLASS: the scan was refused before any runtime was invoked (issue 16): exit 4, CLASS on
# stderr, no result on stdout.
expect_refused() {
        expect_rc 4
        expect_err "$1"
        [ -z "$OUT" ] || fail "a refused scan printed a result: ${OUT:0:300}"
}

# oci_target DIR: a small target tree.
oci_target() {
        mkdir -p "$1/src"
        printf 'hello\n' >"$1/README"
        printf 'int main(void) { return 0; }\n' >"$1/src/main.c"
        chmod -R a+rX "$1"
}

oci_prepare_user() {
        [ "$(id -u)" -eq 0 ] || return 0
        id "$OCI_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$OCI_USER"
        id -nG "$OCI_USER" | grep -qw docker || usermod -aG docker "$OCI_USER"
}
