#!/bin/sh
# install.sh - `make install` and `make uninstall` (issue 24; docs/install.md).
#
#   scripts/install.sh install|uninstall
#
# The Makefile passes every location in the environment: DESTDIR, BINDIR, DATADIR, MANDIR,
# BASHCOMPDIR, ZSHCOMPDIR, APPARMORDIR (empty: the profile goes only to DATADIR/apparmor/),
# B (the build directory holding prc, man/ and completion/) and MANIFEST (yes|no).
#
# install records every file it writes and every directory it creates in
# DATADIR/install-manifest; uninstall removes exactly those (files first, then the
# directories it created, if empty), so nothing of anyone else's is touched.
# Debian packages pass MANIFEST=no: dpkg keeps that list itself.
set -eu
: "${DESTDIR=}" "${BINDIR:?}" "${DATADIR:?}" "${MANDIR:?}" "${BASHCOMPDIR:?}" "${ZSHCOMPDIR:?}"
: "${APPARMORDIR=}" "${B:?}" "${MANIFEST:=yes}"
MF=$DATADIR/install-manifest

uninstall() {
        [ -f "$DESTDIR$MF" ] || { echo "prc uninstall: no $DESTDIR$MF (nothing installed here by make install)" >&2; return 1; }
        # Files first (the manifest is one of them), then the directories install created, deepest first.
        list=$(cat "$DESTDIR$MF")
        printf '%s\n' "$list" | grep '^f ' | cut -c3- | while IFS= read -r f; do
                rm -f -- "$DESTDIR$f"
        done
        printf '%s\n' "$list" | grep '^d ' | cut -c3- | sort -r | while IFS= read -r d; do
                rmdir -- "$DESTDIR$d" 2>/dev/null || [ ! -d "$DESTDIR$d" ] ||
                        echo "prc uninstall: kept $DESTDIR$d (not empty: files that are not prc's)" >&2
        done
        echo "prc: removed what $MF listed" >&2
}

# mkdirs DIR: create DIR and its missing parents, listing each one created.
mkdirs() {
        [ -d "$DESTDIR$1" ] && return 0
        [ "$1" != / ] || { mkdir -p -- "$DESTDIR/"; return 0; }    # DESTDIR itself is the caller's
        mkdirs "$(dirname "$1")"
        mkdir -m 0755 -- "$DESTDIR$1"
        echo "d $1" >>"$LIST"
}

# put MODE SRC DEST: install one file, listing it.
put() {
        mkdirs "$(dirname "$3")"
        install -m "$1" -- "$2" "$DESTDIR$3"
        echo "f $3" >>"$LIST"
}

install_all() {
        # A second install replaces the first one exactly (a command that left the table leaves no page).
        [ ! -f "$DESTDIR$MF" ] || [ "$MANIFEST" != yes ] || uninstall
        LIST=$(mktemp)
        trap 'rm -f "$LIST"' EXIT
        put 0755 "$B/prc" "$BINDIR/prc"
        for f in catalog/*.yaml adapters/*.yaml schemas/*.json; do
                put 0644 "$f" "$DATADIR/$f"
        done
        for f in "$B"/man/*.1; do
                put 0644 "$f" "$MANDIR/man1/${f##*/}"
        done
        put 0644 "$B/completion/prc.bash" "$BASHCOMPDIR/prc"
        put 0644 "$B/completion/_prc" "$ZSHCOMPDIR/_prc"
        # The profile attaches to the prc this install puts in place.
        sed "s|/usr/{local/,}bin/prc|$BINDIR/prc|" contrib/apparmor/prc >"$B/apparmor-prc"
        put 0644 "$B/apparmor-prc" "$DATADIR/apparmor/prc"
        [ -z "$APPARMORDIR" ] || put 0644 "$B/apparmor-prc" "$APPARMORDIR/prc"
        if [ "$MANIFEST" = yes ]; then
                echo "f $MF" >>"$LIST"
                install -m 0644 -- "$LIST" "$DESTDIR$MF"
        fi
        echo "prc: installed $(grep -c '^f ' "$LIST") files under ${DESTDIR:-/}" >&2
}

case "${1:-}" in
install) install_all ;;
uninstall) uninstall ;;
*) echo "usage: scripts/install.sh install|uninstall" >&2; exit 2 ;;
esac
