#!/bin/sh
# oci-env.sh - bring up the local OCI environment the OCI runner's tests use:
# a Docker engine and Debian's docker-registry on 127.0.0.1:5000.  Idempotent:
# whatever already answers is left alone.  Needs root to start dockerd.
#
#   scripts/oci-env.sh           start what is missing; exit 0 when both answer
#   scripts/oci-env.sh --check   only report (exit 1 when something is down)
#
# No network is reachable from this environment: dockerd gets no iptables
# rules, no bridge and no forwarding, and the registry listens on loopback.
set -u
STATE=${PRC_OCI_STATE:-/tmp/prc-oci-env}
REG_ADDR=127.0.0.1:5000

docker_up() { docker info >/dev/null 2>&1; }
registry_up() {
        if command -v curl >/dev/null 2>&1; then
                curl -fsS "http://$REG_ADDR/v2/" >/dev/null 2>&1
        else
                /usr/bin/python3 -c "import urllib.request; urllib.request.urlopen('http://$REG_ADDR/v2/', timeout=2)" \
                        >/dev/null 2>&1
        fi
}

if [ "${1:-}" = "--check" ]; then
        ok=0
        docker_up || { echo "oci-env: docker engine is not answering" >&2; ok=1; }
        registry_up || { echo "oci-env: registry $REG_ADDR is not answering" >&2; ok=1; }
        exit $ok
fi

mkdir -p "$STATE"
if ! docker_up; then
        if ! command -v dockerd >/dev/null 2>&1; then
                echo "oci-env: dockerd is not installed (scripts/setup.sh --docker)" >&2
                exit 1
        fi
        echo "oci-env: starting dockerd (log: $STATE/dockerd.log)" >&2
        nohup dockerd --iptables=false --bridge=none --ip-forward=false --ip-masq=false \
                >"$STATE/dockerd.log" 2>&1 </dev/null &
        i=0
        until docker_up; do
                i=$((i + 1))
                if [ "$i" -gt 60 ]; then
                        echo "oci-env: dockerd did not answer within 30 s" >&2
                        tail -n 20 "$STATE/dockerd.log" >&2
                        exit 1
                fi
                sleep 0.5
        done
fi

if ! registry_up; then
        if ! command -v docker-registry >/dev/null 2>&1; then
                echo "oci-env: docker-registry is not installed (scripts/setup.sh --docker)" >&2
                exit 1
        fi
        # Debian's /etc/docker/registry/config.yml turns on htpasswd auth with
        # no password file; the test registry is loopback-only, so it runs
        # from a config of its own with storage under $STATE.
        mkdir -p "$STATE/registry"
        cat >"$STATE/registry.yml" <<EOF
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: $STATE/registry
  delete:
    enabled: true
http:
  addr: $REG_ADDR
EOF
        echo "oci-env: starting docker-registry on $REG_ADDR (log: $STATE/registry.log)" >&2
        REGISTRY_HTTP_ADDR=$REG_ADDR REGISTRY_STORAGE_FILESYSTEM_ROOTDIRECTORY=$STATE/registry \
                nohup docker-registry serve "$STATE/registry.yml" >"$STATE/registry.log" 2>&1 </dev/null &
        i=0
        until registry_up; do
                i=$((i + 1))
                if [ "$i" -gt 40 ]; then
                        echo "oci-env: registry did not answer within 20 s" >&2
                        tail -n 20 "$STATE/registry.log" >&2
                        exit 1
                fi
                sleep 0.5
        done
fi
exit 0
