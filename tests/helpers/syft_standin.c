/*
 * syft_standin.c - a test-only stand-in for the Syft 1.51.0 image (issue 10
 * end-to-end tests).  It accepts only the protocol's exact argv, an empty
 * standard input, no SYFT_* environment and the scanner-owned
 * .prc/syft/config.yaml with its pinned bytes, then prints a recorded
 * report (tests/golden/native/syft/001-dir.in, baked into the image at
 * /prc-standin/report.json; provenance in tests/golden/native/PROVENANCE.md)
 * the way Syft writes a new run of it: a fresh random serial number, source
 * bom-ref and timestamp, and on half the runs the components in reverse
 * order.  The recorded report names /pkg1/METADATA (empty) and
 * /var/lib/dpkg/status; the tests give it a tree holding exactly those, and
 * the normalizer checks the report against the sealed inventory.
 * Exit 0, or 1 on any error (as syft does).
 * Trust: test code.
 */
#include "native_standin.h"

static bool fresh_run(json_t *doc)
{
        unsigned char r[8 + 16 + 1];
        char serial[64], ref[17], now[32];
        json_t *md = json_object_get(doc, "metadata"), *comps = json_object_get(doc, "components");

        standin_random(r, sizeof(r));
        /* RFC 4122 version 4, variant 10xx */
        r[8 + 6] = (unsigned char)((r[8 + 6] & 0x0f) | 0x40);
        r[8 + 8] = (unsigned char)((r[8 + 8] & 0x3f) | 0x80);
        standin_hex(r, 8, ref);
        snprintf(serial, sizeof(serial), "urn:uuid:");
        for (size_t i = 0; i < 16; i++)
                snprintf(serial + strlen(serial), sizeof(serial) - strlen(serial), "%s%02x",
                         i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", r[8 + i]);
        standin_now(now);
        if (json_object_set_new(doc, "serialNumber", json_string(serial)) != 0 ||
            json_object_set_new(md, "timestamp", json_string(now)) != 0 ||
            json_object_set_new(json_object_get(md, "component"), "bom-ref", json_string(ref)) != 0)
                return false;
        if (r[24] & 1) {
                size_t n = json_array_size(comps);
                json_t *rev = json_array();
                for (size_t i = n; rev != NULL && i > 0; i--)
                        json_array_append(rev, json_array_get(comps, i - 1));
                if (rev == NULL || json_object_set_new(doc, "components", rev) != 0)
                        return false;
        }
        return true;
}

int main(int argc, char **argv)
{
        const prc_native_spec *s = prc_native_spec_of(PRC_NATIVE_SYFT);
        json_t *doc;
        int rc;

        if (!standin_argv_ok(s, argc, argv))
                return standin_fail("syft", "argv differs from the protocol's");
        if (!standin_env_clean("SYFT_"))
                return standin_fail("syft", "a SYFT_* variable is set");
        if (!standin_stdin_empty())
                return standin_fail("syft", "standard input is not empty");
        if (!standin_owned_ok(s))
                return standin_fail("syft", "the scanner-owned .prc/syft/config.yaml is absent or differs");
        doc = standin_report("report.json");
        if (doc == NULL || !fresh_run(doc)) {
                json_decref(doc);
                return standin_fail("syft", "cannot read the recorded report");
        }
        rc = standin_print(doc);
        json_decref(doc);
        return rc;
}
