/*
 * adapter_manifest_json.h - the test manifest shared by test_protocol.c,
 * test_manifest.c and test_fixture.c: the JSON spelling of a v0.4 jsonl
 * adapter declaring three kinds, with small protocol limits.
 */
#ifndef PRC_TEST_ADAPTER_MANIFEST_JSON_H
#define PRC_TEST_ADAPTER_MANIFEST_JSON_H

#define T_MANIFEST_JSON                                                                                  \
        "{\"schema\":\"prc.adapter-manifest/v0.4\",\"adapter_id\":\"prc.adapter.fixture@1.0\","         \
        "\"publisher\":{\"id\":\"prc\",\"name\":\"prc project\"},"                                     \
        "\"owner\":{\"id\":\"prc-adapters\",\"contact\":\"adapters@prc.invalid\"},"                    \
        "\"protocol\":\"prc-adapter-jsonl-v1\",\"output_schema\":\"prc.adapter-message/v1\","          \
        "\"engine_api\":{\"min\":1,\"max\":1},"                                                       \
        "\"tool\":{\"name\":\"prc-fixture-tool\",\"version\":\"1.0.0\",\"formats\":[\"prc-fixture/1\"]}," \
        "\"observation_kinds\":[\"fixture.secret\",\"fixture.license\",\"fixture.sbom\"],"             \
        "\"maintenance\":\"active\",\"known_limitations\":[\"test only\"],"                            \
        "\"image\":{\"registry\":\"registry.prc.invalid\",\"repository\":\"prc/fixture-adapter\","      \
        "\"digest\":\"sha256:0000000000000000000000000000000000000000000000000000000000000001\"},"       \
        "\"command\":[\"/usr/local/bin/prc-fixture-adapter\",\"--jsonl\"],"                             \
        "\"limits\":{\"wall_seconds\":60,\"memory_bytes\":268435456,\"cpus_millis\":1000,\"pids\":16,"  \
        "\"nofile\":64,\"tmpfs_bytes\":0,\"stdin_bytes\":1048576,\"stdout_bytes\":1048576,"            \
        "\"stderr_bytes\":65536,\"line_bytes\":4096,\"messages\":5000}}"

#endif
