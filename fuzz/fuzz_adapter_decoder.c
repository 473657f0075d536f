/*
 * fuzz_adapter_decoder.c - the prc-adapter-jsonl-v1 decoder on hostile bytes.
 * The first input byte picks a chunk size, so the streaming paths (a line
 * split across feeds, the in-place fast path, the line and stdout caps
 * crossing a chunk) are all reached.  Invariants: exactly one outcome
 * (accepted with no error, or rejected with one), observations only when
 * accepted, and the chunked run agrees with the one-shot run.
 */
#include <stdlib.h>
#include <string.h>

#include "adapter/manifest.h"
#include "adapter/protocol.h"
#include "fuzz.h"

static const char manifest_json[] =
        "{\"schema\":\"prc.adapter-manifest/v0.4\",\"adapter_id\":\"prc.adapter.fuzz@1.0\","
        "\"publisher\":{\"id\":\"prc\",\"name\":\"prc\"},\"owner\":{\"id\":\"prc\",\"contact\":\"x@prc.invalid\"},"
        "\"protocol\":\"prc-adapter-jsonl-v1\",\"output_schema\":\"prc.adapter-message/v1\","
        "\"engine_api\":{\"min\":1,\"max\":1},\"tool\":{\"name\":\"t\",\"version\":\"1.0\",\"formats\":[\"f\"]},"
        "\"observation_kinds\":[\"fixture.secret\",\"fixture.license\",\"fixture.sbom\"],\"maintenance\":\"active\","
        "\"known_limitations\":[],\"image\":{\"registry\":\"r.prc.invalid\",\"repository\":\"prc/f\","
        "\"digest\":\"sha256:0000000000000000000000000000000000000000000000000000000000000001\"},"
        "\"command\":[\"/a\"],\"limits\":{\"wall_seconds\":1,\"memory_bytes\":1048576,\"cpus_millis\":100,\"pids\":1,"
        "\"nofile\":3,\"tmpfs_bytes\":0,\"stdin_bytes\":1,\"stdout_bytes\":16384,\"stderr_bytes\":0,"
        "\"line_bytes\":1024,\"messages\":64}}";

static prc_manifest *the_manifest(void)
{
        static prc_manifest *m;
        prc_err err;

        if (m == NULL) {
                prc_err_init(&err);
                m = prc_manifest_parse((const uint8_t *)manifest_json, sizeof(manifest_json) - 1,
                                       PRC_MANIFEST_EXECUTE, &err);
                if (m == NULL)
                        __builtin_trap();
        }
        return m;
}

static void check_one_outcome(const prc_decoder *d)
{
        bool acc = prc_decoder_disposition(d) == PRC_DISP_ACCEPTED;

        if (prc_decoder_disposition(d) == PRC_DISP_PENDING)
                __builtin_trap();
        if (acc != (prc_decoder_error(d)->cls == PRC_E_OK))
                __builtin_trap();
        if (acc != (prc_decoder_summary_status(d) != NULL))
                __builtin_trap();
        if (!acc && json_array_size(prc_decoder_observations(d)) != 0)
                __builtin_trap();
}

PRC_FUZZ_TARGET(adapter_decoder)
{
        const prc_manifest *m = the_manifest();
        prc_exec_end end = { 0, false, false };
        prc_decoder *one, *chunked;
        prc_err err;
        size_t chunk;

        if (n == 0)
                return 0;
        chunk = (p[0] & 0x0f) + 1;
        end.timed_out = (p[0] & 0x10) != 0;
        end.exit_status = (p[0] & 0x20) != 0;
        p++;
        n--;
        prc_err_init(&err);
        one = prc_decode_transcript(m, NULL, p, n, &end, &err);
        chunked = prc_decoder_new(m, NULL, &err);
        if (one == NULL || chunked == NULL)
                __builtin_trap();
        for (size_t off = 0; off < n; off += chunk)
                if (!prc_decoder_feed(chunked, p + off, n - off < chunk ? n - off : chunk))
                        break;
        (void)prc_decoder_finish(chunked, &end);
        check_one_outcome(one);
        check_one_outcome(chunked);
        if (prc_decoder_error(one)->cls != prc_decoder_error(chunked)->cls ||
            prc_decoder_error(one)->line != prc_decoder_error(chunked)->line ||
            json_array_size(prc_decoder_observations(one)) != json_array_size(prc_decoder_observations(chunked)))
                __builtin_trap();
        prc_decoder_free(one);
        prc_decoder_free(chunked);
        return 0;
}
