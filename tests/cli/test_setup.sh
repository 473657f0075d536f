# test_setup.sh - `prc setup native` (issue 17): the dry run, the pinned-ruleset download against a
# loopback HTTPS server started here (a test CA made here with openssl, --cacert), every refusal with
# its class and nothing stored, the data directory's modes and atomic replacement, and the pull path
# against the local registry the OCI tests start (127.0.0.1:5000; test builds name the image with
# PRC_TEST_SETUP_IMAGES).  No test reaches the internet.  Reads ../shared/corpora in place (the
# served ruleset); says so and fails when it is absent.
# shellcheck disable=SC1091
source "$PRC_ROOT/tests/cli/https_lib.sh"
source "$PRC_ROOT/tests/cli/oci_lib.sh"

PRCT=$PRC_ROOT/build/test/prc
GZ_SHA=812050b952f582b832faf28405c7829bec5024645cf6b213950d61eb63cd56ab
TOML_SHA=e163e53b9e7e8a8511e77271e2b323ed057759542a6d988258afe3a1fa329caf
FILE=gitleaks-v8.30.0.toml.gz

HTTPS_DIR=$(mktemp -d /tmp/prc-https-XXXXXX)
chmod 755 "$HTTPS_DIR"
HTTPS_OK=1
https_start "$HTTPS_DIR" || HTTPS_OK=0
trap 'https_stop; rm -rf "$HTTPS_DIR"' EXIT

need_https() {
        [ "$HTTPS_OK" -eq 1 ] || fail "$HTTPS_ERR"
}

# fetch PATH [ARGS...]: prc setup native --only ruleset from the good server's PATH into $TMP/xdg.
fetch() {
        local p=$1
        shift
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset --ruleset-url "$HTTPS_URL$p" \
                --cacert "$HTTPS_CA" "$@"
}

# refused CLASS: the fetch failed with CLASS, exit 3, and nothing is stored.
refused() {
        expect_rc 3
        expect_err "$1"
        expect_out "FAILED   $1 (nothing stored)"
        [ ! -e "$TMP/xdg/prc/$FILE" ] || fail "a refused download was stored"
        [ -z "$(ls -A "$TMP/xdg/prc" 2>/dev/null)" ] || fail "something was left in the data directory: $(ls -A "$TMP/xdg/prc")"
}

mode() { stat -c '%a' "$1"; }

t_setup_dry_run_prints_the_exact_commands_and_does_nothing() {
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" PATH=/nonexistent "$PRC" setup native --dry-run
        expect_rc 0
        expect_eq "$OUT" "prc setup native --dry-run: would run, in this order (nothing is done):
  docker pull ghcr.io/gitleaks/gitleaks@sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9
  docker image inspect --format '{{json .RepoDigests}}' ghcr.io/gitleaks/gitleaks@sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9
  docker pull docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0
  docker image inspect --format '{{json .RepoDigests}}' docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0
  docker pull docker.io/anchore/grype@sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db
  docker image inspect --format '{{json .RepoDigests}}' docker.io/anchore/grype@sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db
  GET https://raw.githubusercontent.com/gitleaks/gitleaks/v8.30.0/config/gitleaks.toml (HTTPS only, TLS verified; kept only if it is 97731 bytes with sha256 $TOML_SHA)
  store $TMP/xdg/prc/$FILE (mode 0600, atomically; prc's gzip form: 97759 bytes, sha256 $GZ_SHA)"
        [ ! -e "$TMP/xdg" ] || fail "the dry run created the data directory"
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --dry-run --runtime podman --only images
        expect_rc 0
        expect_out "  podman pull docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0"
        grep -q GET <<<"$OUT" && fail "--only images printed the download" || true
}

t_setup_usage_errors() {
        run "$PRC" setup native --runtime lxc
        expect_rc 2
        run "$PRC" setup native --only everything
        expect_rc 2
        run "$PRC" setup native --timeout 0
        expect_rc 2
        run "$PRC" setup native --cacert "$TMP/none.pem"
        expect_rc 2
        run "$PRC" setup native extra
        expect_rc 2
}

t_setup_good_download_is_stored_in_the_pinned_form_with_private_modes() {
        need_https
        fetch /gitleaks.toml
        expect_rc 0
        expect_out "stored   $TMP/xdg/prc/$FILE (97759 bytes, sha256 $GZ_SHA)"
        expect_out "  prc verify DIR"
        expect_eq "$(sha256sum <"$TMP/xdg/prc/$FILE" | cut -d' ' -f1)" "$GZ_SHA"
        expect_eq "$(gunzip -c "$TMP/xdg/prc/$FILE" | sha256sum | cut -d' ' -f1)" "$TOML_SHA"
        expect_eq "$(mode "$TMP/xdg/prc")" 700
        expect_eq "$(mode "$TMP/xdg/prc/$FILE")" 600
        expect_eq "$(mode "$TMP/xdg")" 700
        expect_eq "$(ls -A "$TMP/xdg/prc")" "$FILE"
}

t_setup_umask_never_widens_the_modes() {
        need_https
        (umask 000 && fetch /gitleaks.toml && [ "$RC" -eq 0 ] && [ "$(mode "$TMP/xdg/prc")" = 700 ] &&
                [ "$(mode "$TMP/xdg/prc/$FILE")" = 600 ]) || fail "modes under umask 000: $(ls -la "$TMP/xdg/prc")"
}

t_setup_home_fallback_when_xdg_is_unset_or_relative() {
        need_https
        mkdir -p "$TMP/home"
        run /usr/bin/env -u XDG_DATA_HOME HOME="$TMP/home" "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 0
        [ -f "$TMP/home/.local/share/prc/$FILE" ] || fail "not stored under HOME: $OUT"
        expect_eq "$(mode "$TMP/home/.local")" 700
        expect_eq "$(mode "$TMP/home/.local/share")" 700
        # A relative XDG_DATA_HOME is invalid by the XDG rule and ignored.
        rm -rf "$TMP/home/.local"
        run /usr/bin/env XDG_DATA_HOME=rel HOME="$TMP/home" "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 0
        [ -f "$TMP/home/.local/share/prc/$FILE" ] || fail "a relative XDG_DATA_HOME was used"
        [ ! -e rel ] || fail "a relative XDG_DATA_HOME was created"
        run /usr/bin/env -u XDG_DATA_HOME -u HOME "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 3
        expect_err datadir-unavailable
}

t_setup_wrong_bytes_refused_and_nothing_stored() {
        need_https
        fetch /wrong
        refused fetch-digest-mismatch
}

t_setup_short_body_refused() {
        need_https
        fetch /short
        refused fetch-digest-mismatch
}

t_setup_truncated_body_refused() {
        need_https
        fetch /truncated
        refused https-transfer-failed
}

t_setup_oversized_body_refused() {
        need_https
        fetch /oversized
        refused https-size-cap
        fetch /oversized-stream
        refused https-size-cap
}

t_setup_redirect_to_http_refused() {
        need_https
        fetch /redirect-http
        refused https-scheme-refused
}

t_setup_https_redirect_followed_and_loop_refused() {
        need_https
        fetch /redirect-loop
        refused https-redirect-limit
        fetch /redirect
        expect_rc 0
        expect_eq "$(sha256sum <"$TMP/xdg/prc/$FILE" | cut -d' ' -f1)" "$GZ_SHA"
}

t_setup_plain_http_url_refused() {
        need_https
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset \
                --ruleset-url "http://127.0.0.1:${HTTPS_URL##*:}/gitleaks.toml"
        refused https-scheme-refused
}

t_setup_untrusted_certificate_refused() {
        need_https
        # no --cacert: the system store does not hold the test CA
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset --ruleset-url "$HTTPS_URL/gitleaks.toml"
        refused https-tls-failed
}

t_setup_certificate_for_another_name_refused() {
        need_https
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_OTHER_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        refused https-tls-failed
}

t_setup_slow_server_past_the_timeout_refused() {
        need_https
        fetch /slow --timeout 2
        refused https-timeout
}

t_setup_server_down_refused() {
        need_https
        local port
        # a port nothing listens on: bound and closed again by python
        port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset \
                --ruleset-url "https://127.0.0.1:$port/gitleaks.toml" --cacert "$HTTPS_CA"
        refused https-connect-failed
}

t_setup_http_error_status_refused() {
        need_https
        fetch /nothing-here
        refused https-status
}

t_setup_proxy_variables_are_ignored() {
        need_https
        # a proxy that does not exist: honouring it would fail the download
        run /usr/bin/env XDG_DATA_HOME="$TMP/xdg" https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
                all_proxy=http://127.0.0.1:9 "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 0
}

t_setup_netrc_credentials_are_never_sent() {
        need_https
        mkdir -p "$TMP/home"
        printf 'machine 127.0.0.1\nlogin someone\npassword secret\ndefault login someone password secret\n' >"$TMP/home/.netrc"
        chmod 600 "$TMP/home/.netrc"
        # the server answers 403 to a request carrying Authorization (or a cookie)
        run /usr/bin/env HOME="$TMP/home" XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/no-credentials" --cacert "$HTTPS_CA"
        expect_rc 0
}

t_setup_existing_file_replaced_atomically_and_kept_on_failure() {
        need_https
        mkdir -p "$TMP/xdg/prc"
        printf 'old\n' >"$TMP/xdg/prc/$FILE"
        chmod 644 "$TMP/xdg/prc/$FILE"
        chmod 755 "$TMP/xdg/prc"
        local before
        before=$(stat -c %i "$TMP/xdg/prc/$FILE")
        # a failed download leaves the old file exactly as it was
        fetch /wrong
        expect_rc 3
        expect_eq "$(cat "$TMP/xdg/prc/$FILE")" old
        fetch /gitleaks.toml
        expect_rc 0
        expect_eq "$(sha256sum <"$TMP/xdg/prc/$FILE" | cut -d' ' -f1)" "$GZ_SHA"
        # a new inode renamed over the old one (never written in place), with the pinned modes
        [ "$(stat -c %i "$TMP/xdg/prc/$FILE")" != "$before" ] || fail "the file was rewritten in place"
        expect_eq "$(mode "$TMP/xdg/prc/$FILE")" 600
        expect_eq "$(mode "$TMP/xdg/prc")" 700
        expect_eq "$(ls -A "$TMP/xdg/prc")" "$FILE"
}

t_setup_data_directory_symlink_refused() {
        need_https
        mkdir -p "$TMP/xdg" "$TMP/elsewhere"
        ln -s "$TMP/elsewhere" "$TMP/xdg/prc"
        fetch /gitleaks.toml
        expect_rc 3
        expect_err datadir-unsafe
        [ -z "$(ls -A "$TMP/elsewhere")" ] || fail "stored through a symlink"
}

# The bundled Gitleaks manifest with the release build, as the unprivileged user: with nothing stored, the
# run's error and stderr name `prc setup native`; once it stored the ruleset, the same scan gets past the
# ruleset (to the image, which these tests never pull: oci-image-absent, which names prc setup native too).
t_setup_scan_names_setup_then_finds_what_it_stored() {
        need_https
        sh "$PRC_ROOT/scripts/oci-env.sh" --check >/dev/null 2>&1 || fail "OCI environment is down (scripts/oci-env.sh)"
        [ "$(id -u)" -ne 0 ] || oci_prepare_user
        chmod 755 "$TMP"
        mkdir -p "$TMP/t" "$TMP/xdg" && printf 'hello\n' >"$TMP/t/README" && chmod -R a+rwX "$TMP/t" "$TMP/xdg"
        scan() {
                run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" scan --target "$TMP/t" --mode verify-local \
                        --adapter-manifest "$PRC_ROOT/adapters/gitleaks-v8.30.0.yaml" --format json
        }
        scan
        expect_rc 1
        expect_eq "$(json_get errors.0.class)" native-ruleset-missing
        grep -q 'prc setup native' <<<"$(json_get errors.0.message)" || fail "the error does not name prc setup native"
        expect_err "run \`prc setup native\` to store it"
        run as_user /usr/bin/env XDG_DATA_HOME="$TMP/xdg" "$PRC" setup native --only ruleset \
                --ruleset-url "$HTTPS_URL/gitleaks.toml" --cacert "$HTTPS_CA"
        expect_rc 0
        scan
        expect_rc 1
        ! grep -q native-ruleset <<<"$OUT" || fail "the stored ruleset was not found: ${OUT:0:300}"
        if ! docker image inspect ghcr.io/gitleaks/gitleaks@sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9 \
                >/dev/null 2>&1; then
                expect_eq "$(json_get errors.0.class)" oci-image-absent
                grep -q 'prc setup native' <<<"$(json_get errors.0.message)" || fail "oci-image-absent does not name prc setup native"
                expect_err "\`prc setup native\` pulls exactly the reviewed digest"
        fi
}

# ---- the pull path (local registry; test builds only) ----

# setup_image: a small image pushed to the local registry under a repository only these tests use; prints NAME@DIGEST.
setup_image() {
        sh "$PRC_ROOT/scripts/oci-env.sh" --check >/dev/null 2>&1 || { echo "OCI environment is down" >&2; return 1; }
        local base repo=$OCI_REG/prc-test/setup-pull digest
        base=$(oci_image good) || return 1
        docker tag "$base" "$repo:t" >/dev/null && docker push "$repo:t" >/dev/null || return 1
        digest=$(docker image inspect --format '{{range .RepoDigests}}{{println .}}{{end}}' "$repo:t" |
                 grep "^$repo@sha256:" | head -n 1 | sed 's/.*@//')
        [ -n "$digest" ] || return 1
        echo "$repo@$digest"
}

need_pull() {
        [ -x "$PRCT" ] || fail "build/test/prc is not built (make testbuild)"
        IMG=$(setup_image) || fail "cannot prepare the local registry image (scripts/oci-env.sh)"
        # forget the repository digest locally (the layers stay), so the pull really asks the registry
        docker rmi "$IMG" >/dev/null 2>&1 || true
        docker rmi "${IMG%@*}:t" >/dev/null 2>&1 || true
}

t_setup_pull_from_the_local_registry() {
        need_pull
        run /usr/bin/env PRC_TEST_SETUP_IMAGES="$IMG" XDG_DATA_HOME="$TMP/xdg" "$PRCT" setup native --only images
        expect_rc 0
        expect_out "  present  $IMG (image inspect shows exactly this digest)"
        docker image inspect "$IMG" >/dev/null 2>&1 || fail "the image is not present after the pull"
}

t_setup_pull_of_a_digest_the_registry_lacks_fails() {
        need_pull
        run /usr/bin/env PRC_TEST_SETUP_IMAGES="${IMG%@*}@sha256:$(printf 'absent' | sha256sum | cut -d' ' -f1)" \
                "$PRCT" setup native --only images
        expect_rc 3
        expect_err setup-pull-failed
}

t_setup_digest_differing_after_the_pull_is_an_error() {
        need_pull
        # A client whose pull works but whose image inspect reports another digest for the repository.  A
        # binary, not a script: the runner executes the client through the descriptor it hashed.
        mkdir -p "$TMP/bin"
        local other
        other="${IMG%@*}@sha256:$(printf 'other' | sha256sum | cut -d' ' -f1)"
        printf '#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\nint main(int c, char **v) { if (c > 2 && strcmp(v[1], "image") == 0 && strcmp(v[2], "inspect") == 0) { puts("[\\"%s\\"]"); return 0; } execv("%s", v); return 127; }\n' \
                "$other" "$(command -v docker)" >"$TMP/bin/docker.c"
        cc -O2 -o "$TMP/bin/docker" "$TMP/bin/docker.c"
        chmod 755 "$TMP/bin/docker"
        run /usr/bin/env PATH="$TMP/bin:$PATH" PRC_TEST_SETUP_IMAGES="$IMG" "$PRCT" setup native --only images
        expect_rc 3
        expect_err setup-image-mismatch
        expect_out "FAILED   $IMG: setup-image-mismatch"
}

t_setup_release_build_ignores_the_test_image_list() {
        run /usr/bin/env PRC_TEST_SETUP_IMAGES="$OCI_REG/x/y@sha256:$(printf x | sha256sum | cut -d' ' -f1)" \
                "$PRC" setup native --dry-run --only images
        expect_rc 0
        expect_out "docker pull ghcr.io/gitleaks/gitleaks@sha256:691af3c7"
        grep -q "$OCI_REG" <<<"$OUT" && fail "the release build took the test image list" || true
}

t_setup_runtime_missing_is_named() {
        run /usr/bin/env PATH=/nonexistent "$PRC" setup native --only images
        expect_rc 3
        expect_err oci-runtime-unavailable
}
