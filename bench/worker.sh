#!/bin/bash
# worker.sh - content worker benchmark against the release build (build/prc
# re-executed as the worker, exactly as `prc content parse` does).
#   bash bench/worker.sh        (builds build/bench/worker, then runs it)
# Reports medians and ratios; nothing here asserts a time.
set -eu
cd "$(dirname "$0")/.."
make -s all
mkdir -p build/bench
PKGS="jansson libfyaml expat libcrypto libseccomp libarchive"
gcc -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -include src/base/banned.h \
        $(pkg-config --cflags $PKGS) -o build/bench/worker bench/worker.c build/libprc.a \
        $(pkg-config --libs $PKGS) -lpthread -ldl
build/bench/worker "$(pwd)/build/prc"
