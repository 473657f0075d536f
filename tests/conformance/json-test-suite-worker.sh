#!/bin/bash
# json-test-suite-worker.sh - JSONTestSuite through the content worker: the
# same cases and expectations as json-test-suite.sh, with each verdict taken
# from a real floored worker (build/prc, the streaming JSON reader) and
# checked by the helper against the strict reader in process (same outcome,
# class, location and tree; see tests/helpers/json_worker_verdict.c).
set -u
cd "$(dirname "$0")/../.."
if [ ! -x build/prc ]; then
        echo "json-test-suite-worker: build/prc is not built (make)"
        echo "0 passed, 1 failed"
        exit 1
fi
export PRC_WORKER_BIN=${PRC_WORKER_BIN:-$(pwd)/build/prc}
PRC_JSON_VERDICT=${PRC_JSON_WORKER_VERDICT:-build/asan/helpers/json_worker_verdict} \
        exec bash tests/conformance/json-test-suite.sh
