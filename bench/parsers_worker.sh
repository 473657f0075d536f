#!/bin/bash
# parsers_worker.sh - MB/s of every content-worker parser (yaml, json, jsonc,
# toml, ini, xml, the shell tokenizer, the archive walk) in process and
# through the sandboxed worker, side by side in one run: medians of 5
# samples and their ratio (bench/parsers_worker.c says what is timed).
#
#   bash bench/parsers_worker.sh
#
# Inputs are the real manifests and lockfiles of ../shared/corpora/manifests,
# read in place; the archive inputs are tar.gz files built here from them
# (under build/bench/).  INI has only small real files, so beside them it
# also measures the celery setup.cfg repeated 300 times with its sections
# renamed (the same text, a lockfile's size).  The driver is built with the
# Makefile's own release flags against build/libprc.a; build/prc is the
# worker, exactly as `prc content parse` runs it.  Nothing here asserts a time.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
M=$CORPORA/manifests
[ -d "$M" ] || { echo "parsers_worker: the corpora are absent ($M)"; exit 1; }
make -s all
OUT=build/bench
mkdir -p "$OUT"
flags=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^CFLAGS_ALL := //p')
libs=$(make -s -p -n -q all 2>/dev/null | sed -n 's/^LIBS := //p')
[ -n "$flags" ] && [ -n "$libs" ] || { echo "parsers_worker: cannot read the Makefile's flags"; exit 1; }
# shellcheck disable=SC2086
gcc $flags -o "$OUT/parsers_worker" bench/parsers_worker.c build/libprc.a $libs

# Archives: the AUR packages (PKGBUILD, .SRCINFO, patches: what an AUR
# snapshot holds) and the whole manifests tree (one large snapshot).
# Fixed order, owner and mtime, so every run walks the same bytes.
tarit() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$1" -czf "$2" "$3"; }
tarit "$M" "$OUT/aur-packages.tar.gz" arch
tarit "$CORPORA" "$OUT/manifests.tar.gz" manifests
# INI at size: celery's setup.cfg, sections renamed per copy (configparser refuses duplicates).
for i in $(seq 300); do sed "s/^\[\(.*\)\]/[\1.$i]/" "$M/python/celery__celery/setup.cfg"; done >"$OUT/setup-x300.cfg"

P=$M/arch/chaotic-aur__packages
echo "# bash bench/parsers_worker.sh   ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg))"
"$OUT/parsers_worker" "$(pwd)/build/prc" \
        "yaml:$M/npm/mermaid-js__mermaid/pnpm-lock.yaml" \
        "yaml:$M/npm/vuejs__core/pnpm-lock.yaml" \
        "yaml:$M/go/caddyserver__caddy/.github/workflows/release.yml" \
        "json:$M/npm/axios__axios/package-lock.json" \
        "json:$M/npm/npm__cli/package-lock.json" \
        "json:$M/php/PHPOffice__PhpSpreadsheet/composer.lock" \
        "jsonc:$M/npm/axios__axios/package-lock.json" \
        "jsonc:$M/php/PHPOffice__PhpSpreadsheet/composer.lock" \
        "jsonc:tests/fixtures/jsonc/tsconfig.json" \
        "toml:$M/python/fastapi__fastapi/uv.lock" \
        "toml:$M/python/python-poetry__poetry/poetry.lock" \
        "toml:$M/rust/astral-sh__ruff/Cargo.lock" \
        "toml:$M/rust/astral-sh__ruff/Cargo.toml" \
        "ini:$M/python/celery__celery/setup.cfg" \
        "ini:$OUT/setup-x300.cfg" \
        "xml:$M/java/google__gson/pom.xml" \
        "xml:$M/dotnet/Wox-launcher__Wox/Wox/Wox.csproj" \
        "pkgbuild:$P/pdf-xchange/PKGBUILD" \
        "pkgbuild:$P/thunderbird-beta-i18n/PKGBUILD" \
        "pkgbuild:$P/linux-cachyos/PKGBUILD" \
        "srcinfo:$P/thunderbird-beta-i18n/.SRCINFO" \
        "srcinfo:$M/arch/CachyOS__CachyOS-PKGBUILDS/mesa/mesa/.SRCINFO" \
        "archive:$OUT/aur-packages.tar.gz:arch/chaotic-aur__packages/pgmodeler/PKGBUILD" \
        "archive:$OUT/manifests.tar.gz"
