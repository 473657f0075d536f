# test_install.sh - prc installed like a Debian tool (issue 24; docs/install.md): man pages and
# completions from the command table, prc --version, make install/uninstall in a DESTDIR, and the
# Debian package built, linted, installed on this machine, used and purged.
#
# The build steps copy the tree under test (without build/ and .git, as tests/run's staged copy
# is) and build it afresh: about a minute for make install, a few for the package
# (DEB_BUILD_OPTIONS=nocheck parallel=2).  The package test needs root (apt) and refuses to run
# when a prc package is already installed, which it would replace.

PRCT=$PRC_ROOT/build/test/prc

# copy_tree DIR: the source tree under test, without build outputs or git metadata.
copy_tree() {
        mkdir -p "$1"
        tar -C "$PRC_ROOT" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
}

# elsewhere: a directory unrelated to any prc tree, holding a decoy catalog/ that must never be read.
elsewhere() {
        mkdir -p "$TMP/elsewhere/catalog"
        printf 'not: a catalog\n' >"$TMP/elsewhere/catalog/catalog.yaml"
        echo "$TMP/elsewhere"
}

# The result line of the source tree's prc on the bundled example: an installed prc must agree.
reference_result() {
        run "$PRC" scan --target "$PRC_ROOT/examples/basic"
        expect_rc 1
        grep '^result ' <<<"$OUT"
}

# ---- man pages ----

t_man_every_command_has_a_page_without_warnings() {
        local pages p
        pages=$("$PRC" help --list)
        # prc(1) plus one page per row of 'prc help' (the command table)
        expect_eq "$(wc -l <<<"$pages")" "$(( $("$PRC" help | sed -n '/^commands:/,/^$/p' | grep -c '^  ') + 1 ))"
        for p in $pages; do
                "$PRC" help --man "$p" >"$TMP/$p.1" || fail "prc help --man $p failed"
                run env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$TMP/$p.1"
                expect_rc 0
                [ -z "$ERR" ] || fail "man --warnings on $p: $ERR"
                grep -q "^NAME" <<<"$OUT" || fail "$p has no NAME section"
        done
}

t_man_page_is_the_help_text() {
        # The page of 'content parse' renders the words of 'prc content parse --help', in order.
        run "$PRC" content parse --help
        expect_rc 0
        local help=$OUT
        "$PRC" help --man content parse >"$TMP/p.1"
        run env LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$TMP/p.1"
        expect_rc 0
        tr -s ' \n' '  ' <<<"$OUT" >"$TMP/page.txt"
        grep -qF "$(sed -n 3p <<<"$help" | tr -s ' ')" "$TMP/page.txt" || fail "the page lacks: $(sed -n 3p <<<"$help")"
        grep -qF "prc content parse --format FORMAT FILE" "$TMP/page.txt" || fail "the page lacks the usage line"
        grep -qF "Exit: 0 parsed; 2 usage;" "$TMP/page.txt" || fail "the page lacks the exit line"
        # The same page by its name, and an unknown command is a usage error.
        "$PRC" help --man prc-content-parse | cmp -s - "$TMP/p.1" || fail "--man prc-content-parse differs"
        run "$PRC" help --man no-such
        expect_rc 2
}

# ---- completions ----

# complete_words WORD...: what the bash completion offers for the command line WORD... (the last
# word is the one being completed), in a fresh bash that sourced the generated script.
complete_words() {
        "$PRC" help --completion bash >"$TMP/prc.bash"
        bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _prc
                 printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/prc.bash" "$@"
}

# The values of scan's --format as its usage line spells them, space-separated.
scan_formats() {
        "$PRC" scan --help | grep -o -- '--format [a-z|]*' | head -n 1 | cut -d' ' -f2 | tr '|' ' '
}

t_bash_completion_loads_and_completes() {
        "$PRC" help --completion bash >"$TMP/prc.bash"
        run bash -c 'source "$1" && complete -p prc' _ "$TMP/prc.bash"
        expect_rc 0
        expect_out "-F _prc prc"
        expect_eq "$(complete_words prc sc)" "scan"
        expect_eq "$(complete_words prc content ex)" "extract"
        expect_eq "$(complete_words prc scan --form)" "--format"
        # The values are the usage line's ("--format text|json|..."), whatever they are today.
        expect_eq "$(complete_words prc scan --format '' | tr '\n' ' ')" "$(scan_formats) "
        # LEVEL in the usage line; the levels come from the --content-floor paragraph.
        expect_eq "$(complete_words prc verify --content-floor s | tr '\n' ' ')" "strict seccomp "
        expect_eq "$(complete_words prc setup native --only '' | tr '\n' ' ')" "images ruleset "
}

t_bash_completion_offers_every_command_of_the_table() {
        local offered w
        offered=$(complete_words prc '')
        for w in $("$PRC" help | sed -n '/^commands:/,/^$/p' | awk 'NF {print $1}' | grep -v '^commands:' | sort -u); do
                grep -qx -- "$w" <<<"$offered" || fail "completion does not offer '$w'"
        done
        # Every option of every command's usage lines is offered for that command.
        for w in "scan:--adapter-registry" "diff:--aur-url" "sbom:--output" "content tokenize:--recover"; do
                # shellcheck disable=SC2086
                complete_words prc ${w%%:*} -- | grep -qx -- "${w#*:}" || fail "prc ${w%%:*} does not complete ${w#*:}"
        done
}

t_zsh_completion_loads() {
        mkdir -p "$TMP/zf"
        "$PRC" help --completion zsh >"$TMP/zf/_prc"
        run zsh -n "$TMP/zf/_prc"
        expect_rc 0
        run zsh -fc 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2"; print -r -- ${_comps[prc]}' \
                _ "$TMP/zf" "$TMP/zcompdump"
        expect_rc 0
        expect_eq "$OUT" "_prc"
        # The function itself, with the completion system's entry points replaced by printers:
        # what it hands _describe and _arguments for a command line.
        zcomp() {
                zsh -fc 'sed "\$d" "$1" >"$1.fn"; source "$1.fn"
                        _describe() { print -l -- "${(@P)${@[-1]}}"; }
                        compadd() { print -l -- "${@[2,-1]}"; }
                        _arguments() { print -l -- "$@"; }
                        shift; words=("$@"); CURRENT=$#; _prc' _ "$TMP/zf/_prc" "$@"
        }
        zcomp prc sc | grep -qx "scan:review a source tree against the catalog" || fail "zsh: no scan command"
        zcomp prc content '' | grep -q "^extract:" || fail "zsh: no content extract"
        zcomp prc scan --fo | grep -qxF "*--format:format:($(scan_formats))" || fail "zsh: scan --format has no values"
        zcomp prc setup native --on | grep -qxF '*--only:only:(images ruleset)' || fail "zsh: setup native --only"
}

# ---- prc --version ----

t_version_names_commit_libraries_and_floor() {
        run "$PRC" --version
        expect_rc 0
        grep -qE '^prc [0-9]+\.[0-9]+\.[0-9]+ \(engine API [0-9]+\)$' <<<"$OUT" || fail "no version line: $OUT"
        # A clone's build knows its commit; tests/run's staged copy (no .git) runs that build too.
        if [ -e "$PRC_ROOT/.git" ]; then
                grep -qE '^commit [0-9a-f]{40}(-modified)?$' <<<"$OUT" || fail "no commit: $OUT"
        else
                grep -qE '^commit ([0-9a-f]{40}(-modified)?|unknown)$' <<<"$OUT" || fail "no commit line: $OUT"
        fi
        expect_out "data $PRC_ROOT (the source tree this prc was built in)"
        for lib in jansson libfyaml expat OpenSSL libseccomp libarchive libcurl; do
                grep -qE "^  $lib +[0-9]+\.[0-9]+" <<<"$OUT" || fail "$lib has no version: $OUT"
        done
        # libcrypto is loaded on first use, not linked (src/base/crypto.h): the line says so.
        grep -qE '^  OpenSSL +3\.[0-9.]+ \(loaded for signature checks\)$' <<<"$OUT" || fail "OpenSSL: $OUT"
        # The version each library reports is the one pkg-config knows on this build host.
        grep -qE "^  jansson +$(pkg-config --modversion jansson)$" <<<"$OUT" || fail "jansson version differs"
        grep -qE "^  expat +$(pkg-config --modversion expat)$" <<<"$OUT" || fail "expat version differs"
        grep -qE '^content floor: (strict|landlock|seccomp|none)' <<<"$OUT" || fail "no content floor: $OUT"
}

t_version_says_when_a_loaded_library_is_missing() {
        # An unloadable libcurl.so.4, libarchive.so.13 and libcrypto.so.3 first on the search path.
        mkdir -p "$TMP/lib"
        : >"$TMP/lib/libcurl.so.4"
        : >"$TMP/lib/libarchive.so.13"
        : >"$TMP/lib/libcrypto.so.3"
        run env LD_LIBRARY_PATH="$TMP/lib" "$PRC" --version
        expect_rc 0
        grep -qE '^  libcurl +not available$' <<<"$OUT" || fail "libcurl: $OUT"
        grep -qE '^  libarchive +not available$' <<<"$OUT" || fail "libarchive: $OUT"
        grep -qE '^  OpenSSL +not available$' <<<"$OUT" || fail "OpenSSL: $OUT"
        expect_out "cannot load libcurl.so.4"
        expect_out "cannot load libarchive.so.13"
        expect_out "cannot load libcrypto.so.3"
}

t_version_reports_the_strongest_floor_the_host_gives() {
        [ -x "$PRCT" ] || fail "$PRCT is missing (make testbuild)"
        run env PRC_TEST_LANDLOCK_ABI=3 "$PRCT" --version
        expect_rc 0
        expect_out "content floor: landlock (Landlock ABI 3; strict needs ABI 6): --content-floor landlock"
        run env PRC_TEST_LANDLOCK_ABI=-1 "$PRCT" --version
        expect_out "content floor: seccomp (no Landlock): --content-floor seccomp"
        run env PRC_TEST_USERNS=denied "$PRCT" --version
        expect_out "content floor: none;"
        expect_out "  userns: "
}

# ---- pre-commit ----

# precommit_run HOOK ARGS-YAML: pre-commit try-repo of this tree's .pre-commit-hooks.yaml on a
# project (a git repository holding an AUR package), with $PRC as the installed prc.
precommit_run() {
        local hooks=$TMP/hooks proj=$TMP/proj
        if [ ! -d "$hooks/.git" ]; then
                mkdir -p "$hooks" "$proj" "$TMP/bin"
                cp "$PRC_ROOT/.pre-commit-hooks.yaml" "$hooks/"
                git -C "$hooks" init -q && git -C "$hooks" add . &&
                        git -C "$hooks" -c user.name=t -c user.email=t@t commit -qm hooks
                cp -r "$PRC_ROOT/tests/fixtures/aur/srcinfo-drift/clean-agrees/." "$proj/"
                git -C "$proj" init -q && git -C "$proj" add .
                ln -s "$PRC" "$TMP/bin/prc"
        fi
        printf 'repos:\n  - repo: %s\n    rev: HEAD\n    hooks:\n      - id: %s\n        args: %s\n' \
                "$hooks" "$1" "$2" >"$proj/.pre-commit-config.yaml"
        run env -C "$proj" PATH="$TMP/bin:$PATH" PRE_COMMIT_HOME="$TMP/pch" pre-commit run --all-files "$1"
}

t_precommit_hook_runs_prc_scan_with_the_profile_of_its_args() {
        # prc/aur on an AUR package that passes; the same tree under prc/core fails (CORE-013 is
        # Blocked in inspect mode, and the package has no README or licence): the commit stops.
        precommit_run prc-scan '[--profile, prc/aur]'
        expect_rc 0
        expect_out "prc scan"
        expect_out "Passed"
        precommit_run prc-scan '[--profile, prc/core]'
        expect_rc 1
        expect_out "Failed"
        expect_out "PRC-A-CORE-013   Blocked"
}

# ---- make install / uninstall ----

t_make_install_destdir_then_run_from_its_place_and_uninstall() {
        local src=$TMP/src pfx=$TMP/pfx stage=$TMP/stage ref cwd f
        ref=$(reference_result)
        copy_tree "$src"
        run make -C "$src" -j2 install PREFIX="$pfx" DESTDIR="$stage"
        expect_rc 0
        for f in bin/prc share/prc/catalog/catalog.yaml share/prc/adapters/gitleaks-v8.30.0.yaml \
                 share/prc/schemas/run-result.schema.json share/man/man1/prc.1 share/man/man1/prc-scan.1 \
                 share/man/man1/prc-content-parse.1 share/bash-completion/completions/prc \
                 share/zsh/site-functions/_prc share/prc/apparmor/prc share/prc/install-manifest; do
                [ -f "$stage$pfx/$f" ] || fail "not installed: $f"
        done
        [ -x "$stage$pfx/bin/prc" ] || fail "prc is not executable"
        # One page per command of the table, as the built prc lists them.
        expect_eq "$(find "$stage$pfx/share/man/man1" -name '*.1' -printf '%f\n' | sed 's/\.1$//' | sort)" \
                  "$("$src/build/prc" help --list | sort)"
        # The AppArmor profile attaches to the installed binary.
        grep -qF "profile prc $pfx/bin/prc " "$stage$pfx/share/prc/apparmor/prc" || fail "profile attachment"
        # The manifest lists exactly the files that are there.
        expect_eq "$(grep '^f ' "$stage$pfx/share/prc/install-manifest" | cut -c3- | sort)" \
                  "$(cd "$stage" && find . -type f | cut -c2- | sort)"

        # A copy of the staged tree in its place (as a package manager does) runs from anywhere.
        mkdir -p "$pfx"
        cp -a "$stage$pfx/." "$pfx/"
        cwd=$(elsewhere)
        run env -C "$cwd" "$pfx/bin/prc" scan --target "$PRC_ROOT/examples/basic"
        expect_rc 1
        expect_out "7 assertions: 6 pass, 0 fail, 0 unknown, 0 conflicting, 1 blocked"
        expect_eq "$(grep '^result ' <<<"$OUT")" "$ref"
        run env -C "$cwd" "$pfx/bin/prc" --version
        expect_rc 0
        expect_out "data $pfx/share/prc (installed)"
        expect_out "commit unknown"
        # PRC_CATALOG_ROOT and --catalog-root still choose another catalog for prc scan.
        run env -C "$cwd" PRC_CATALOG_ROOT="$cwd/catalog" "$pfx/bin/prc" scan --target "$PRC_ROOT/examples/basic"
        expect_rc 3
        expect_err "$cwd/catalog/catalog.yaml: /not: unknown field"
        # Without its data directory an installed prc says where it looked, never the cwd.
        mv "$pfx/share/prc" "$pfx/share/prc.away"
        run env -C "$cwd" "$pfx/bin/prc" scan --target "$PRC_ROOT/examples/basic"
        expect_rc 3
        expect_err "cannot open catalog root '$pfx/share/prc/catalog'"
        mv "$pfx/share/prc.away" "$pfx/share/prc"

        # uninstall removes exactly what install listed, and keeps what is not prc's.
        mkdir -p "$stage$pfx/share/man/man1" && echo keep >"$stage$pfx/share/man/man1/other.1"
        run make -C "$src" uninstall PREFIX="$pfx" DESTDIR="$stage"
        expect_rc 0
        expect_eq "$(find "$stage" -type f)" "$stage$pfx/share/man/man1/other.1"
        # Only the directories holding other.1 are left.
        find "$stage" -mindepth 1 -type d | while read -r f; do
                case "$stage$pfx/share/man/man1/other.1" in "$f"/*) ;; *) fail "left behind: $f" ;; esac
        done
        # A second uninstall has nothing to remove and says so.
        run make -C "$src" uninstall PREFIX="$pfx" DESTDIR="$stage"
        expect_rc 2
        expect_err "no $stage$pfx/share/prc/install-manifest"
}

# ---- the Debian package ----

t_debian_package_builds_lints_installs_runs_and_purges() {
        local src=$TMP/pkg/prc deb ref cwd
        [ "$(id -u)" -eq 0 ] || fail "this test installs a package with apt: run it as root (tests/run does)"
        if dpkg-query -W -f='${Status}' prc 2>/dev/null | grep -q 'install ok installed'; then
                fail "a prc package is already installed on this machine; this test would replace it"
        fi
        ref=$(reference_result)
        copy_tree "$src"
        run env -C "$src" DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b
        expect_rc 0
        deb=$(ls "$TMP"/pkg/prc_*.deb)
        [ -f "$deb" ] || fail "no .deb in $TMP/pkg"
        # Lintian: no errors (its warnings are listed in docs/install.md).
        run lintian --no-tag-display-limit "$deb"
        ! grep -qE "^E: " <<<"$OUT" || fail "lintian errors: $(grep -E "^E: " <<<"$OUT")"
        # The package's contents, then the package on this machine, removed whatever happens next.
        run dpkg-deb -c "$deb"
        for f in ./usr/bin/prc ./usr/share/prc/catalog/catalog.yaml ./usr/share/prc/adapters/gitleaks-v8.30.0.yaml \
                 ./usr/share/man/man1/prc.1.gz ./usr/share/man/man1/prc-scan.1.gz \
                 ./usr/share/bash-completion/completions/prc ./usr/share/zsh/vendor-completions/_prc \
                 ./usr/share/prc/apparmor/prc; do
                grep -qF " $f" <<<"$OUT" || fail "the package lacks $f"
        done
        ! grep -qF "install-manifest" <<<"$OUT" || fail "the package carries make install's manifest"
        trap 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 prc >/dev/null 2>&1' EXIT
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "$deb"
        expect_rc 0
        cwd=$(elsewhere)
        run env -C "$cwd" /usr/bin/prc --version
        expect_rc 0
        expect_out "data /usr/share/prc (installed)"
        run env -C "$cwd" /usr/bin/prc scan --target "$PRC_ROOT/examples/basic"
        expect_rc 1
        expect_out "7 assertions: 6 pass, 0 fail, 0 unknown, 0 conflicting, 1 blocked"
        expect_eq "$(grep '^result ' <<<"$OUT")" "$ref"
        run env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 prc
        expect_rc 0
        ! dpkg-query -W -f='${Status}' prc 2>/dev/null | grep -q 'installed' || fail "prc is still installed"
        if [ -e /usr/bin/prc ] || [ -e /usr/share/prc ]; then fail "purge left /usr/bin/prc or /usr/share/prc"; fi
        trap - EXIT
}
