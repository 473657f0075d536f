/*
 * grype_standin.c - a test-only stand-in for the Grype 0.116.1 image (issue
 * 10 end-to-end tests).  It accepts only the protocol's exact argv, an empty
 * standard input, no GRYPE_* environment and the scanner-owned
 * .prc/grype/config.yaml with its pinned bytes, and reads the read-only
 * database mount (/prc-inputs/grype-db, or $PRC_STANDIN_DB on the host) as
 * grype does: 6/import.json gives the import source (the official archive
 * URL, whose name gives schema and build time), and 6/vulnerability.db,
 * which in the tests' generated fixture holds the providers table as JSON
 * ({id: {captured, input}}) instead of SQLite.
 *
 * It then prints one of two recorded reports (baked into the image under
 * /prc-standin/; tests/golden/native/grype/001-dir.in and 003-empty.in,
 * provenance in tests/golden/native/PROVENANCE.md) with descriptor.db
 * replaced by what it read and a fresh descriptor.timestamp: the findings
 * report when the snapshot holds a file one of its matches is located at
 * (/foo/bar/somefile-1.txt), else the empty one, as grype finds a package
 * only where its evidence is.  Exit 0, or 1 on any error.
 * Trust: test code.
 */
#include "native_standin.h"

#include "adapter/native/grype.h"

static const char *db_dir(void)
{
        const char *d = getenv("PRC_STANDIN_DB");

        return d != NULL && d[0] != '\0' ? d : "/prc-inputs/" PRC_NATIVE_GRYPE_DB_DATA;
}

/* descriptor.db as grype reports the mounted database, or NULL. */
static json_t *db_status(void)
{
        char path[4096], ver[32], sha[PRC_SHA256_HEX + 1], built[32];
        json_error_t je;
        json_t *imp, *provs, *db = NULL;
        int64_t epoch;
        prc_err err;

        prc_err_init(&err);
        snprintf(path, sizeof(path), "%s/6/import.json", db_dir());
        imp = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
        snprintf(path, sizeof(path), "%s/6/vulnerability.db", db_dir());
        provs = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
        if (imp != NULL && json_is_object(provs) &&
            prc_grype_db_url(json_string_value(json_object_get(imp, "source")), ver, sizeof(ver), &epoch, sha,
                             &err)) {
                time_t t = (time_t)epoch;
                struct tm tm;
                gmtime_r(&t, &tm);
                strftime(built, sizeof(built), "%Y-%m-%dT%H:%M:%SZ", &tm);
                db = json_pack("{s:{s:s,s:O,s:s,s:s,s:b},s:O}", "status", "schemaVersion", ver, "from",
                               json_object_get(imp, "source"), "built", built, "path",
                               "/prc-inputs/" PRC_NATIVE_GRYPE_DB_DATA "/6/vulnerability.db", "valid", 1,
                               "providers", provs);
        }
        json_decref(imp);
        json_decref(provs);
        return db;
}

/* Whether the snapshot holds a file some match of doc is located at. */
static bool evidence_present(const json_t *doc)
{
        const json_t *m, *l;
        size_t i, k;

        json_array_foreach(json_object_get(doc, "matches"), i, m) {
                json_array_foreach(json_object_get(json_object_get(m, "artifact"), "locations"), k, l) {
                        const char *p = json_string_value(json_object_get(l, "path"));
                        char path[4096];
                        if (p == NULL)
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", standin_root(), p[0] == '/' ? p + 1 : p);
                        if (standin_regular(path))
                                return true;
                }
        }
        return false;
}

int main(int argc, char **argv)
{
        const prc_native_spec *s = prc_native_spec_of(PRC_NATIVE_GRYPE);
        json_t *doc, *db, *desc;
        char now[32];
        int rc;

        if (!standin_argv_ok(s, argc, argv))
                return standin_fail("grype", "argv differs from the protocol's");
        if (!standin_env_clean("GRYPE_"))
                return standin_fail("grype", "a GRYPE_* variable is set");
        if (!standin_stdin_empty())
                return standin_fail("grype", "standard input is not empty");
        if (!standin_owned_ok(s))
                return standin_fail("grype", "the scanner-owned .prc/grype/config.yaml is absent or differs");
        db = db_status();
        if (db == NULL)
                return standin_fail("grype", "failed to load vulnerability db");
        doc = standin_report("findings.json");
        if (doc != NULL && !evidence_present(doc)) {
                json_decref(doc);
                doc = standin_report("empty.json");
        }
        desc = json_object_get(doc, "descriptor");
        standin_now(now);
        if (doc == NULL || json_object_set_new(desc, "db", db) != 0 ||
            json_object_set_new(desc, "timestamp", json_string(now)) != 0) {
                json_decref(doc);
                return standin_fail("grype", "cannot read the recorded reports");
        }
        rc = standin_print(doc);
        json_decref(doc);
        return rc;
}
