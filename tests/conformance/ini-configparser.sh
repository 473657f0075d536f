#!/bin/bash
# ini-configparser.sh - prc's INI reader against Python's configparser, the
# reference for setup.cfg and tox.ini: the fixtures in tests/fixtures/ini/,
# the shared corpus's setup.cfg files and INI attack inputs (read in place).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
HELPER=${PRC_TEXT_HELPER:-build/asan/helpers/text_parse}
files=(tests/fixtures/ini/*)
if [ -d "$CORPORA" ]; then
        files+=("$CORPORA"/parsers/attacks/ini/*.cfg "$CORPORA"/parsers/attacks/utf8/nul-in-ini.cfg)
        while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" -name setup.cfg -o -name tox.ini)
else
        echo "ini-configparser: the corpora are absent ($CORPORA); fixtures only"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
fi
/usr/bin/python3 tests/conformance/ini_configparser.py "$HELPER" "${files[@]}"
