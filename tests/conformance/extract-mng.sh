#!/bin/bash
# extract-mng.sh - the Maven, NuGet and RubyGems extractors (issue 18) on every
# file of those families in ../shared/corpora/manifests (read in place) and on
# the well-formed fixtures of tests/fixtures/extract/{maven,nuget,gem}: the
# component set prc extracts must equal an independent reading of the same
# file by Python's xml.etree / json / tomllib and plain Python
# (extract_mng.py).  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CORPORA=${PRC_CORPORA:-$(pwd)/../shared/corpora}
XDUMP=${PRC_XDUMP:-build/asan/helpers/xdump}
if [ ! -d "$CORPORA/manifests" ]; then
        echo "extract-mng: the corpora are absent ($CORPORA)"
        if [ "${CI:-}" = "true" ]; then echo "0 passed, 1 failed"; exit 1; fi
        echo "0 passed, 0 failed"
        exit 0
fi
files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$CORPORA/manifests" -type f \( -name pom.xml \
        -o -name '*gradle.lockfile' -o -name '*.versions.toml' -o -iname '*.csproj' -o -iname '*.fsproj' \
        -o -iname '*.vbproj' -o -iname Directory.Build.props -o -iname Directory.Build.targets \
        -o -iname Directory.Packages.props -o -iname packages.config -o -iname packages.lock.json \
        -o -iname nuget.config -o -name Gemfile.lock -o -name gems.locked -o -name Gemfile -o -name gems.rb \) | sort)
if [ "${#files[@]}" -eq 0 ]; then
        echo "extract-mng: no Maven, NuGet or RubyGems file under $CORPORA/manifests"
        echo "0 passed, 1 failed"
        exit 1
fi
F=tests/fixtures/extract
files+=("$F/maven/interpolation.pom.xml=pom.xml" "$F/maven/gradle.lockfile" "$F/maven/libs.versions.toml"
        "$F/nuget/App.csproj" "$F/nuget/Directory.Packages.props" "$F/nuget/packages.config"
        "$F/nuget/packages.lock.v1.json=packages.lock.json" "$F/nuget/packages.lock.v2.json=packages.lock.json"
        "$F/nuget/NuGet.config" "$F/gem/Gemfile.lock" "$F/gem/Gemfile")
/usr/bin/python3 tests/conformance/extract_mng.py "$XDUMP" "${files[@]}"
