# https_lib.sh - a loopback HTTPS server for the `prc setup native` tests (sourced).
#
# https_start DIR: make a test CA and two server certificates with openssl in DIR (one for 127.0.0.1,
# one for another name), start tests/cli/https_server.py twice (127.0.0.1, free ports) serving the
# corpus's decompressed Gitleaks ruleset, and set HTTPS_CA (the CA's PEM), HTTPS_URL (the good
# server's base URL) and HTTPS_OTHER_URL (the server whose certificate names another host).
# https_stop: end both servers (by their own PIDs).  HTTPS_ERR says why https_start failed.
# Nothing here reaches anything but 127.0.0.1.
HTTPS_PIDS=()
HTTPS_ERR=""
HTTPS_RULESET=${PRC_CORPORA:-$PRC_ROOT/../shared/corpora}/native/gitleaks/config/gitleaks.toml
[ -f "$HTTPS_RULESET" ] || HTTPS_RULESET=/work/shared/corpora/native/gitleaks/config/gitleaks.toml

# https_cert DIR NAME SAN: a server key and certificate signed by DIR/ca.
https_cert() {
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1/$2.key" -out "$1/$2.csr" \
                -subj "/CN=$2" 2>/dev/null &&
        printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$3" >"$1/$2.ext" &&
        openssl x509 -req -in "$1/$2.csr" -CA "$1/ca.pem" -CAkey "$1/ca.key" -CAcreateserial -days 2 \
                -extfile "$1/$2.ext" -out "$1/$2.pem" 2>/dev/null
}

https_start() {
        local d=$1 i port
        if [ ! -f "$HTTPS_RULESET" ]; then
                HTTPS_ERR="../shared/corpora is absent: the tests serve its native/gitleaks/config/gitleaks.toml"
                return 1
        fi
        mkdir -p "$d"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$d/ca.key" \
                -out "$d/ca.pem" -days 2 -subj "/CN=prc test CA" \
                -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
                2>/dev/null || { HTTPS_ERR="openssl cannot make the test CA"; return 1; }
        https_cert "$d" good "IP:127.0.0.1" && https_cert "$d" other "DNS:other.invalid" ||
                { HTTPS_ERR="openssl cannot make the server certificates"; return 1; }
        chmod 644 "$d"/*.pem
        for n in good other; do
                /usr/bin/python3 "$PRC_ROOT/tests/cli/https_server.py" "$d/$n.pem" "$d/$n.key" "$HTTPS_RULESET" \
                        "$d/$n.port" </dev/null >"$d/$n.log" 2>&1 &
                HTTPS_PIDS+=("$!")
        done
        for i in $(seq 100); do
                [ -s "$d/good.port" ] && [ -s "$d/other.port" ] && break
                sleep 0.1
        done
        [ -s "$d/good.port" ] && [ -s "$d/other.port" ] || { HTTPS_ERR="the loopback HTTPS server did not start"; return 1; }
        HTTPS_CA=$d/ca.pem
        HTTPS_URL=https://127.0.0.1:$(cat "$d/good.port")
        HTTPS_OTHER_URL=https://127.0.0.1:$(cat "$d/other.port")
}

https_stop() {
        local p
        for p in "${HTTPS_PIDS[@]}"; do
                kill "$p" 2>/dev/null
        done
        HTTPS_PIDS=()
}
