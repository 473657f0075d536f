#!/bin/bash
# bench/registry.sh [ENTRIES] [RUNS] - cost of `prc adapter registry-validate`.
#
# Side by side in one run, on one generated registry of ENTRIES entries
# (default 200), each pinning its own v0.4 manifest:
#   digest    prc doc digest of the lockfile (load + canonical digest only)
#   revoked   registry-validate of the same lockfile with every entry revoked
#             (document checks only: revocation opens no manifest)
#   full      registry-validate with every entry active (opens, digests and
#             validates every manifest beneath the lockfile's directory)
#   signed    full plus a detached Ed25519 signature check
# Prints the median wall time of RUNS runs (default 11) and ratios to digest.
set -eu
cd "$(dirname "$0")/.."
PRC=${PRC:-build/prc}
N=${1:-200}
RUNS=${2:-11}
T=$(mktemp -d /tmp/prc-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/active/manifests"
src=fixtures/registry/manifests/example.yaml
{
        echo "schema: prc.adapter-registry/v1"
        echo "registry_id: bench.example/adapters"
        echo "revision: 1"
        echo "entries:"
} >"$T/active/reg.yaml"
for i in $(seq 1 "$N"); do
        sed "s/prc.adapter.example@1.0/prc.adapter.bench$i@1.0/" "$src" >"$T/active/manifests/m$i.yaml"
        d=$("$PRC" doc digest "$T/active/manifests/m$i.yaml")
        printf '  - adapter_id: prc.adapter.bench%s@1.0\n    manifest_sha256: %s\n    publisher_id: example.org\n    trust: first-party-sandboxed\n    status: active\n    manifest_path: manifests/m%s.yaml\n' \
                "$i" "$d" "$i" >>"$T/active/reg.yaml"
done
mkdir -p "$T/revoked"
sed 's/status: active/status: revoked/' "$T/active/reg.yaml" >"$T/revoked/reg.yaml"
openssl genpkey -algorithm ed25519 -out "$T/k.pem" 2>/dev/null
openssl pkey -in "$T/k.pem" -pubout -outform DER | tail -c 32 >"$T/k.pub"
printf 'schema: prc.trust-store/v1\npublishers:\n  - id: example.org\n    keys:\n      - public_key: "%s"\n        scopes: [registry]\n' \
        "$(base64 -w0 <"$T/k.pub")" >"$T/store.yaml"
D=$("$PRC" doc digest "$T/active/reg.yaml")
printf 'prc.signature/v1\0registry\0%s' "$D" >"$T/msg"
openssl pkeyutl -sign -inkey "$T/k.pem" -rawin -in "$T/msg" -out "$T/sig.raw"
printf 'schema: prc.signature/v1\nscope: registry\nsigned_sha256: %s\nkey_sha256: %s\nsignature: "%s"\n' \
        "$D" "$(sha256sum "$T/k.pub" | cut -d' ' -f1)" "$(base64 -w0 <"$T/sig.raw")" >"$T/sig.yaml"

"$PRC" adapter registry-validate --file "$T/active/reg.yaml" --trust-store "$T/store.yaml" \
        --signature "$T/sig.yaml" >/dev/null || { echo "bench registry is not valid"; exit 1; }

# median_ms CMD...: median wall time in milliseconds over RUNS runs.
median_ms() {
        local i s e times=()
        for i in $(seq 1 "$RUNS"); do
                s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
                times+=($(( (e - s) / 1000 )))
        done
        printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p" |
                awk '{ printf "%.2f", $1 / 1000 }'
}
m_digest=$(median_ms "$PRC" doc digest "$T/active/reg.yaml")
m_revoked=$(median_ms "$PRC" adapter registry-validate --file "$T/revoked/reg.yaml")
m_full=$(median_ms "$PRC" adapter registry-validate --file "$T/active/reg.yaml")
m_signed=$(median_ms "$PRC" adapter registry-validate --file "$T/active/reg.yaml" --trust-store "$T/store.yaml" \
        --signature "$T/sig.yaml")
echo "registry-validate, $N entries, median of $RUNS runs (ms):"
for row in "digest $m_digest" "revoked $m_revoked" "full $m_full" "signed $m_signed"; do
        set -- $row
        awk -v n="$1" -v v="$2" -v b="$m_digest" 'BEGIN { printf "  %-8s %8.2f  x%.2f\n", n, v, v / b }'
done
