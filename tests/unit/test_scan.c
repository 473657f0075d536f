/*
 * test_scan.c - the scan pipeline with a scripted adapter runner: how
 * execution records become states, authorization before anything runs,
 * execution order and the one shared deadline.
 */
#include "t.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapter/record.h"
#include "base/jcs.h"
#include "content/extract/extract.h"
#include "engine/scan.h"

struct script {
        const char            *disposition, *summary, *outcome, *kind;
        bool                   refuse;
        unsigned               calls;
        char                   order[4][160];
        const struct timespec *deadlines[4];
        char                   run_ids[4][65];
};

/* Non-NULL: fake_parse refuses with exactly these bytes as its message, as a decoded worker reply could. */
static const char *parse_refusal;

static bool fake_parse(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out_doc,
                       prc_err *err)
{
        (void)ctx, (void)format, (void)path, (void)p, (void)n, (void)out_doc;
        if (parse_refusal == NULL)
                return true;
        err->cls = PRC_E_INVALID_JSON;
        snprintf(err->msg, sizeof(err->msg), "%s", parse_refusal);
        return false;
}

/* The extractors in process (the worker's part is tested in test_worker.c and tests/cli/test_extract.sh). */
static bool fake_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out,
                         prc_err *err)
{
        const prc_extractor *x = format != NULL ? prc_extractor_by_format(format) : prc_extractor_for_path(path);
        prc_xin in = { path, p, n, &prc_limits_default };

        (void)ctx;
        if (x == NULL)
                return prc_err_set(err, PRC_E_EXTRACT_UNKNOWN_FORMAT, "no extractor");
        *out = x->fn(&in, err);
        return *out != NULL;
}

static const char *fake_level = "strict";

/* A served floor as content/floor.c records one: every layer named (the run result's schema wants all seven). */
static json_t *fake_floor(void *ctx)
{
        (void)ctx;
        return json_pack("{s:i,s:{s:s,s:s,s:s,s:s,s:s,s:s,s:s},s:s,s:s}", "landlock_abi", 6, "layers", "userns",
                         "applied", "netns", "applied", "no-new-privs", "applied", "capabilities", "applied",
                         "landlock", "applied", "seccomp", "applied", "rlimits", "applied", "level", fake_level,
                         "worker", "served");
}

/*
 * A fake's record made whole: the v0.3 fields the OCI runner writes around its disposition, status and
 * observations, and the content id, so a run result embeds a record its schema accepts (tests/run checks
 * every result against schemas/).  Not sealed with prc_record_seal: some fakes carry what a sealed record
 * never does (observations of a rejected run) to show the engine does not trust them.
 */
static json_t *whole_record(json_t *rec, const prc_scan_adapter *a, const prc_inventory *inv)
{
        static const char hex[] = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc";
        const char *disp = json_string_value(json_object_get(rec, "disposition"));
        bool accepted = strcmp(disp, "accepted") == 0;
        char id[PRC_SHA256_HEX + 1];
        json_t *obs, *more;
        prc_err e;
        size_t i;

        prc_err_init(&e);
        json_object_del(rec, "id");
        json_array_foreach(json_object_get(rec, "observations"), i, obs)
                if (json_object_get(obs, "value") == NULL)
                        json_object_set_new(obs, "value", json_null());
        if (json_object_get(rec, "artifacts") == NULL)
                json_object_set_new(rec, "artifacts", json_array());
        more = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:{s:s,s:s,s:s},s:s,s:{s:i},s:o,s:o,s:b,s:{s:i,s:s},"
                         "s:{s:i,s:s},s:o,s:[],s:{s:s,s:i,s:i}}",
                         "schema", PRC_RECORD_SCHEMA, "adapter_id", a->res.adapter_id, "manifest_sha256",
                         a->res.manifest_sha256, "inventory_digest", prc_inventory_digest(inv), "snapshot_sha256", hex,
                         "plan_sha256", hex, "runtime", "kind", "docker", "version", "20.10.24", "sha256", hex,
                         "image", "127.0.0.1:5000/prc-test/fake@sha256:" "cccccccccccccccccccccccccccccccc"
                         "cccccccccccccccccccccccccccccccc", "limits", "pids", 8,
                         "error_class", accepted ? json_null() : json_string("adapter-failed"), "exit_status",
                         accepted ? json_integer(0) : json_null(), "timed_out", 0, "stdout", "bytes", 0, "sha256", hex,
                         "stderr", "bytes", 0, "sha256", hex, "resolution", prc_resolution_json(&a->res, &e),
                         "data_inputs", "snapshot", "sha256", hex, "files", 1, "bytes", 4);
        T_ASSERT(more != NULL);
        T_ASSERT(json_object_update_missing(rec, more) == 0);
        json_decref(more);
        T_ASSERT(prc_jcs_id(rec, "id", id, &e));
        json_object_set_new(rec, "id", json_string(id));
        return rec;
}

static bool fake_run(void *ctx, const prc_scan_adapter *a, const prc_inventory *inv, const char *run_id,
                     const struct timespec *deadline, json_t **out, prc_err *err)
{
        struct script *sc = ctx;
        unsigned i = sc->calls++;

        if (i < 4) {
                snprintf(sc->order[i], sizeof(sc->order[i]), "%s", a->res.adapter_id);
                sc->deadlines[i] = deadline;
                snprintf(sc->run_ids[i], sizeof(sc->run_ids[i]), "%s", run_id);
        }
        if (sc->refuse)
                return prc_err_set(err, PRC_E_IO, "runtime missing");
        *out = whole_record(json_pack("{s:s,s:s,s:[{s:s,s:s,s:s,s:[]}]}", "disposition", sc->disposition,
                                      "summary_status", sc->summary, "observations", "id", "o1", "kind", sc->kind,
                                      "outcome", sc->outcome, "locations"), a, inv);
        return true;
}

static char catroot[4200], target[4200];

/* A catalog binding both test manifests, and a minimal target. */
static void setup(const prc_adapter_set *set)
{
        char text[4096];
        int n;

        snprintf(catroot, sizeof(catroot), "%s/cat", t_tmpdir());
        snprintf(target, sizeof(target), "%s/target", t_tmpdir());
        T_ASSERT(mkdir(catroot, 0755) == 0 && mkdir(target, 0755) == 0);
        t_write(target, "README.md", "# t\n", 4);
        n = snprintf(text, sizeof(text),
                     "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\n"
                     "assertions:\n");
        for (size_t i = 0; i < set->n; i++)
                n += snprintf(text + n, sizeof(text) - (size_t)n,
                              "  - id: A%zu\n    control: C\n    title: t\n    rationale: r\n    remediation: m\n"
                              "    severity: high\n    bindings:\n      - {adapter_id: \"%s\", manifest_sha256: \"%s\","
                              " observation_kind: \"%s\"}\n",
                              i, set->items[i].res.adapter_id, set->items[i].res.manifest_sha256,
                              prc_manifest_kind_at(set->items[i].manifest, 0));
        snprintf(text + n, sizeof(text) - (size_t)n, "profiles: [{id: p, title: p, assertions: [%s]}]\n",
                 set->n == 2 ? "A0, A1" : "A0");
        t_write(catroot, "catalog.yaml", text, strlen(text));
}

static void load_set(prc_adapter_set *set, size_t n)
{
        char a[4200], b[4200];
        const char *paths[2] = { a, b };
        prc_err e;

        /* Given in reverse id order on purpose: execution order must not depend on it. */
        snprintf(a, sizeof(a), "%s/fixtures/adapters/fixture-adapter.yaml", t_root());
        snprintf(b, sizeof(b), "%s/fixtures/registry/manifests/example.yaml", t_root());
        prc_err_init(&e);
        set->n = 0;
        if (!prc_adapters_from_manifests(paths, n, set, &e))
                t_fail(__FILE__, __LINE__, "manifests: %s", e.msg);
}

static const char *state_of(const json_t *r, size_t i)
{
        return json_string_value(json_object_get(json_array_get(json_object_get(r, "assertions"), i), "state"));
}

static json_t *scan(prc_adapter_set *set, struct script *sc, prc_scan_mode mode, unsigned maxdur, prc_err *e)
{
        prc_scan_opts o = { .target = target, .catalog_root = catroot, .profile = "p", .mode = mode,
                            .parse = fake_parse, .extract = fake_extract, .content_floor = fake_floor, .adapters = set, .run_adapter = fake_run, .run_ctx = sc,
                            .max_duration_s = maxdur };
        json_t *r = NULL;
        int rc;

        prc_err_init(e);
        if (!prc_scan_run(&o, &r, &rc, e))
                return NULL;
        return r;
}

static void test_scan__record_dispositions_map_to_states(void)
{
        static const struct {
                const char *disposition, *summary, *outcome;
                bool        refuse, same_kind;
                const char *want;
        } rows[] = {
                { "accepted", "completed", "not_found", false, true, "Pass" },
                { "accepted", "completed", "found", false, true, "Fail" },
                { "accepted", "completed", "value", false, true, "Unknown" },
                { "accepted", "completed", "not_found", false, false, "Unknown" },     /* other kind: no evidence */
                { "accepted", "failed", "not_found", false, true, "Unknown" },
                { "accepted", "unsupported", "not_found", false, true, "Unknown" },
                { "rejected", "completed", "not_found", false, true, "Unknown" },
                { "execution-error", "completed", "not_found", false, true, "Unknown" },
                { "accepted", "completed", "not_found", true, true, "Unknown" },       /* refused before a plan */
        };

        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                prc_adapter_set set;
                struct script sc = { rows[i].disposition, rows[i].summary, rows[i].outcome, NULL, rows[i].refuse,
                                     0, { { 0 } }, { NULL }, { { 0 } } };
                prc_err e;
                json_t *r;
                char sub[64];

                load_set(&set, 1);
                sc.kind = rows[i].same_kind ? prc_manifest_kind_at(set.items[0].manifest, 0) : "other.kind";
                snprintf(sub, sizeof(sub), "row%zu", i);
                if (i == 0)
                        setup(&set);
                r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
                if (r == NULL)
                        t_fail(__FILE__, __LINE__, "row %zu: %s", i, e.msg);
                if (strcmp(state_of(r, 0), rows[i].want) != 0)
                        t_fail(__FILE__, __LINE__, "row %zu: %s, want %s", i, state_of(r, 0), rows[i].want);
                T_EQ_INT(sc.calls, 1);
                T_EQ_INT(json_array_size(json_object_get(r, "executions")), rows[i].refuse ? 0 : 1);
                T_EQ_INT(json_array_size(json_object_get(r, "errors")), rows[i].refuse ? 1 : 0);
                if (rows[i].refuse) {
                        /* Issue 16: an adapter's error names it as the adapter, not as an assertion. */
                        const json_t *er = json_array_get(json_object_get(r, "errors"), 0);
                        T_EQ_STR(json_string_value(json_object_get(er, "adapter")), set.items[0].res.adapter_id);
                        T_ASSERT(json_object_get(er, "assertion") == NULL);
                }
                json_decref(r);
                prc_adapter_set_clear(&set);
        }
}

static void test_scan__order_deadline_and_run_ids(void)
{
        prc_adapter_set set;
        struct script sc = { "accepted", "completed", "not_found", NULL, false, 0, { { 0 } }, { NULL }, { { 0 } } };
        char first[65];
        prc_err e;
        json_t *r;

        load_set(&set, 2);
        setup(&set);
        sc.kind = "none";
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 30, &e);
        T_ASSERT(r != NULL);
        T_EQ_INT(sc.calls, 2);
        T_ASSERT(strcmp(sc.order[0], sc.order[1]) < 0);
        /* One deadline shared by the set: the same object, not a fresh budget per adapter. */
        T_ASSERT(sc.deadlines[0] != NULL && sc.deadlines[0] == sc.deadlines[1]);
        T_ASSERT(strcmp(sc.run_ids[0], sc.run_ids[1]) != 0);
        snprintf(first, sizeof(first), "%s", sc.run_ids[0]);
        json_decref(r);
        sc.calls = 0;
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        T_ASSERT(sc.deadlines[0] == NULL);
        T_EQ_STR(sc.run_ids[0], first);         /* deterministic: no clock in the run id */
        json_decref(r);
        prc_adapter_set_clear(&set);
}

static void test_scan__unbound_adapter_is_refused_before_anything_runs(void)
{
        prc_adapter_set set, bound;
        struct script sc = { "accepted", "completed", "not_found", "k", false, 0, { { 0 } }, { NULL }, { { 0 } } };
        prc_err e;

        load_set(&bound, 1);    /* the catalog binds only the first manifest */
        setup(&bound);
        load_set(&set, 2);
        T_ASSERT(scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e) == NULL);
        T_ERR(e, PRC_E_ADAPTER_UNBOUND);
        T_EQ_INT(sc.calls, 0);
        T_ASSERT(scan(&bound, &sc, PRC_MODE_INSPECT, 0, &e) == NULL);
        T_ERR(e, PRC_E_USAGE);
        T_EQ_INT(sc.calls, 0);
        prc_adapter_set_clear(&set);
        prc_adapter_set_clear(&bound);
}

/*
 * Issue 16: the native gates (reviewed digest, exact command) are part of
 * authorizing the complete set.  Gitleaks (reviewed) sorts before an
 * unreviewed Syft; neither may reach the runtime.
 */
static void test_scan__unreviewed_native_adapter_refuses_the_set_before_anything_runs(void)
{
        char a[4200], b[4200];
        const char *paths[2] = { b, a };
        prc_adapter_set set;
        struct script sc = { "accepted", "completed", "not_found", "k", false, 0, { { 0 } }, { NULL }, { { 0 } } };
        prc_err e;

        unsetenv("PRC_NATIVE_TEST_IMAGE");
        unsetenv("PRC_TEST_NATIVE_STANDIN");
        snprintf(a, sizeof(a), "%s/adapters/gitleaks-v8.30.0.yaml", t_root());
        /* the bundled Syft manifest with an unreviewed digest (issue 17: the bundled one is reviewed) */
        {
                char src[4200], *text, *at;
                size_t len;
                snprintf(src, sizeof(src), "%s/adapters/syft-v1.51.0.yaml", t_root());
                text = t_read(src, &len);
                at = strstr(text, "digest: sha256:");
                T_ASSERT(at != NULL);
                memcpy(at + strlen("digest: sha256:"), "00000000", 8);
                snprintf(b, sizeof(b), "%s", t_write(t_tmpdir(), "syft-unreviewed.yaml", text, len));
                free(text);
        }
        prc_err_init(&e);
        set.n = 0;
        T_ASSERT(prc_adapters_from_manifests(paths, 2, &set, &e));
        setup(&set);
        T_ASSERT(scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e) == NULL);
        T_ERR(e, PRC_E_NATIVE_IMAGE_UNREVIEWED);
        T_ASSERT(strstr(e.msg, "prc.adapter.syft") != NULL);
        T_EQ_INT(sc.calls, 0);
        prc_adapter_set_clear(&set);
}

/*
 * Issue 16: a refusal whose message holds an invalid byte or a C1 control
 * is still a coverage gap, sanitized, never dropped from the result.
 */
static void test_scan__refusal_with_invalid_utf8_stays_a_gap(void)
{
        prc_adapter_set set;
        struct script sc = { "accepted", "completed", "not_found", "k", false, 0, { { 0 } }, { NULL }, { { 0 } } };
        prc_err e;
        json_t *r;
        const json_t *gaps;

        load_set(&set, 1);
        setup(&set);
        t_write(target, "package.json", "{}\n", 3);
        prc_adapter_set_clear(&set);   /* the catalog stays; inspect mode runs no adapter */
        parse_refusal = "bad \xff byte \xc2\x85 nel";
        r = scan(&set, &sc, PRC_MODE_INSPECT, 0, &e);
        parse_refusal = NULL;
        if (r == NULL)
                t_fail(__FILE__, __LINE__, "scan: %s", e.msg);
        gaps = json_object_get(r, "coverage_gaps");
        T_EQ_INT(json_array_size(gaps), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(gaps, 0), "path")), "package.json");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(gaps, 0), "class")), "invalid-json");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(gaps, 0), "reason")), "bad ? byte ?? nel");
        json_decref(r);
}

static void test_scan__inspect_mode_blocks_adapter_bound_assertions(void)
{
        prc_adapter_set set;
        struct script sc = { 0 };
        prc_scan_opts o;
        json_t *r = NULL;
        prc_err e;
        int rc = 0;

        load_set(&set, 1);
        setup(&set);
        o = (prc_scan_opts){ .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                             .parse = fake_parse, .extract = fake_extract, .content_floor = fake_floor, .run_adapter = fake_run, .run_ctx = &sc };
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        T_EQ_STR(state_of(r, 0), "Blocked");
        T_EQ_INT(rc, 1);
        T_EQ_INT(sc.calls, 0);
        json_decref(r);
        prc_adapter_set_clear(&set);
}

/* An SBOM value record: sha names the SBOM, art_sha/art_mt the record's one artifact (NULL: none). */
struct sbom_script {
        const char *generated, *sha, *art_sha, *art_mt, *kind;
};

static bool sbom_run(void *ctx, const prc_scan_adapter *a, const prc_inventory *inv, const char *run_id,
                     const struct timespec *deadline, json_t **out, prc_err *err)
{
        const struct sbom_script *sc = ctx;
        json_t *value = sc->generated ? json_pack("{s:s,s:s}", "generated", sc->generated, "sha256", sc->sha)
                                      : json_pack("{s:s}", "sha256", sc->sha);

        (void)run_id, (void)deadline, (void)err;
        *out = json_pack("{s:s,s:s,s:[{s:s,s:s,s:s,s:[],s:o}],s:[]}", "disposition", "accepted",
                         "summary_status", "completed", "observations", "id", "o1", "kind", sc->kind, "outcome",
                         "value", "locations", "value", value, "artifacts");
        if (sc->art_sha != NULL)
                json_array_append_new(json_object_get(*out, "artifacts"),
                                      json_pack("{s:s,s:s,s:I,s:s}", "id", "syft", "media_type", sc->art_mt, "size",
                                                (json_int_t)2, "sha256", sc->art_sha));
        *out = whole_record(*out, a, inv);
        return true;
}

static void test_scan__sbom_value_passes_only_with_its_artifact(void)
{
#define SHA_A "aa00000000000000000000000000000000000000000000000000000000000000"
#define SHA_B "bb00000000000000000000000000000000000000000000000000000000000000"
#define CDX "application/vnd.cyclonedx+json;version=1.7"
        static const struct {
                const char *generated, *sha, *art_sha, *art_mt, *want;
        } rows[] = {
                { "repository-inventory-sbom", SHA_A, SHA_A, CDX, "Pass" },
                { "repository-inventory-sbom", SHA_A, SHA_B, CDX, "Unknown" },  /* names other bytes */
                { "repository-inventory-sbom", SHA_A, NULL, NULL, "Unknown" },  /* no artifact at all */
                { "repository-inventory-sbom", SHA_A, SHA_A, "application/json", "Unknown" },
                { NULL, SHA_A, NULL, NULL, "Pass" },    /* not an SBOM claim: unaffected */
        };
        prc_adapter_set set;
        char text[1024], root[4200];

        load_set(&set, 1);
        snprintf(root, sizeof(root), "%s/sbomcat", t_tmpdir());
        snprintf(target, sizeof(target), "%s/sbomtarget", t_tmpdir());
        T_ASSERT(mkdir(root, 0755) == 0 && mkdir(target, 0755) == 0);
        t_write(target, "README.md", "# t\n", 4);
        snprintf(text, sizeof(text),
                 "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\nassertions:\n"
                 "  - id: A0\n    control: C\n    title: t\n    rationale: r\n    remediation: m\n    severity: high\n"
                 "    bindings:\n      - {adapter_id: \"%s\", manifest_sha256: \"%s\", observation_kind: \"%s\","
                 " pass_outcomes: [value], fail_outcomes: []}\n"
                 "profiles: [{id: p, title: p, assertions: [A0]}]\n",
                 set.items[0].res.adapter_id, set.items[0].res.manifest_sha256,
                 prc_manifest_kind_at(set.items[0].manifest, 0));
        t_write(root, "catalog.yaml", text, strlen(text));
        for (size_t i = 0; i < PRC_ARRAY_LEN(rows); i++) {
                struct sbom_script sc = { rows[i].generated, rows[i].sha, rows[i].art_sha, rows[i].art_mt,
                                          prc_manifest_kind_at(set.items[0].manifest, 0) };
                prc_scan_opts o = { .target = target, .catalog_root = root, .profile = "p",
                                    .mode = PRC_MODE_VERIFY_LOCAL, .parse = fake_parse, .extract = fake_extract, .content_floor = fake_floor, .adapters = &set,
                                    .run_adapter = sbom_run, .run_ctx = &sc };
                json_t *r = NULL;
                prc_err e;
                int rc;

                prc_err_init(&e);
                T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
                if (strcmp(state_of(r, 0), rows[i].want) != 0)
                        t_fail(__FILE__, __LINE__, "row %zu: %s, want %s", i, state_of(r, 0), rows[i].want);
                json_decref(r);
        }
        prc_adapter_set_clear(&set);
#undef SHA_A
#undef SHA_B
#undef CDX
}

/* ---- issue 16: nothing the target contains is skipped in silence ---- */

static const char *state_by_id(const json_t *r, const char *id)
{
        size_t i;
        const json_t *row;

        json_array_foreach(json_object_get(r, "assertions"), i, row)
                if (strcmp(json_string_value(json_object_get(row, "id")), id) == 0)
                        return json_string_value(json_object_get(row, "state"));
        return "(missing)";
}

/* Is there a coverage gap (path, class) in the result? */
static bool has_gap(const json_t *r, const char *path, const char *cls)
{
        size_t i;
        const json_t *g;

        json_array_foreach(json_object_get(r, "coverage_gaps"), i, g)
                if (strcmp(json_string_value(json_object_get(g, "path")), path) == 0 &&
                    strcmp(json_string_value(json_object_get(g, "class")), cls) == 0)
                        return true;
        return false;
}

/*
 * A catalog with the whole-tree built-ins BIN (binaries) and MAN (manifests)
 * and, when set is given, ADP bound to its first adapter; a fresh target
 * name/ holding a README.
 */
static void tree_setup(const char *name, const prc_adapter_set *set)
{
        static const char builtin[] = "  - id: %s\n    control: C\n    title: t\n    rationale: r\n    remediation: m\n"
                                      "    severity: high\n    analysis:\n      id: %s\n";
        char text[4096];
        int n;

        snprintf(catroot, sizeof(catroot), "%s/%s-cat", t_tmpdir(), name);
        snprintf(target, sizeof(target), "%s/%s", t_tmpdir(), name);
        T_ASSERT(mkdir(catroot, 0755) == 0 && mkdir(target, 0755) == 0);
        t_write(target, "README.md", "# t\n", 4);
        n = snprintf(text, sizeof(text), "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\n"
                                         "controls: [{id: C, title: c}]\nassertions:\n");
        n += snprintf(text + n, sizeof(text) - (size_t)n, builtin, "BIN", "binaries");
        n += snprintf(text + n, sizeof(text) - (size_t)n, builtin, "MAN", "manifests");
        if (set != NULL)
                n += snprintf(text + n, sizeof(text) - (size_t)n,
                              "  - id: ADP\n    control: C\n    title: t\n    rationale: r\n    remediation: m\n"
                              "    severity: high\n    bindings:\n      - {adapter_id: \"%s\", manifest_sha256: \"%s\","
                              " observation_kind: \"%s\"}\n",
                              set->items[0].res.adapter_id, set->items[0].res.manifest_sha256,
                              prc_manifest_kind_at(set->items[0].manifest, 0));
        snprintf(text + n, sizeof(text) - (size_t)n, "profiles: [{id: p, title: p, assertions: [BIN, MAN%s]}]\n",
                 set != NULL ? ", ADP" : "");
        t_write(catroot, "catalog.yaml", text, strlen(text));
}

static const char elf[] = "\x7f" "ELF\2\1\1\0\0\0\0\0\0\0\0\0";

/* .hg and .svn are inventoried: an ELF under .hg/ is found (it passed before: .hg was left out). */
static void test_scan__hg_metadata_is_analyzed(void)
{
        struct script sc = { 0 };
        char dir[4300];
        prc_err e;
        json_t *r;

        tree_setup("hg", NULL);
        snprintf(dir, sizeof(dir), "%s/.hg", target);
        T_ASSERT(mkdir(dir, 0755) == 0);
        t_write(dir, "tool", elf, sizeof(elf));
        r = scan(NULL, &sc, PRC_MODE_INSPECT, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "BIN"), "Fail");
        T_EQ_INT(json_array_size(json_object_get(json_object_get(r, "target"), "excluded_paths")), 0);
        json_decref(r);
}

/*
 * A root .prc (the snapshot's scanner-owned namespace) is left out, named
 * in target.excluded_paths and as an excluded-path gap, and every
 * whole-tree assertion, built-in or adapter-bound, is Unknown, never Pass.
 * The root .git directory alone is left out without that consequence.
 */
static void test_scan__excluded_prc_is_named_and_blocks_pass(void)
{
        prc_adapter_set set;
        struct script sc = { "accepted", "completed", "not_found", NULL, false, 0, { { 0 } }, { NULL }, { { 0 } } };
        const json_t *ex;
        char dir[4300];
        prc_err e;
        json_t *r;

        load_set(&set, 1);
        sc.kind = prc_manifest_kind_at(set.items[0].manifest, 0);
        tree_setup("prc", &set);
        snprintf(dir, sizeof(dir), "%s/.prc", target);
        T_ASSERT(mkdir(dir, 0755) == 0);
        t_write(dir, "tool", elf, sizeof(elf));
        snprintf(dir, sizeof(dir), "%s/.git", target);
        T_ASSERT(mkdir(dir, 0755) == 0);
        t_write(dir, "HEAD", "ref: x\n", 7);
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "BIN"), "Unknown");
        T_EQ_STR(state_by_id(r, "MAN"), "Unknown");
        T_EQ_STR(state_by_id(r, "ADP"), "Unknown");
        T_ASSERT(has_gap(r, ".prc", "excluded-path"));
        T_ASSERT(!has_gap(r, ".git", "excluded-path"));
        ex = json_object_get(json_object_get(r, "target"), "excluded_paths");
        T_EQ_INT(json_array_size(ex), 2);
        T_EQ_STR(json_string_value(json_array_get(ex, 0)), ".git");
        T_EQ_STR(json_string_value(json_array_get(ex, 1)), ".prc");
        json_decref(r);

        /* Without .prc the same tree passes: the .git directory alone changes nothing. */
        snprintf(dir, sizeof(dir), "%s/.prc/tool", target);
        T_ASSERT(unlink(dir) == 0);
        snprintf(dir, sizeof(dir), "%s/.prc", target);
        T_ASSERT(rmdir(dir) == 0);
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "BIN"), "Pass");
        T_EQ_STR(state_by_id(r, "ADP"), "Pass");
        T_EQ_INT(json_array_size(json_object_get(r, "coverage_gaps")), 0);
        json_decref(r);
        prc_adapter_set_clear(&set);
}

/* A manifest name that is a symlink is counted and named as a gap (it was neither parsed nor counted). */
static void test_scan__symlinked_manifest_is_a_gap(void)
{
        struct script sc = { 0 };
        char link[4300];
        prc_err e;
        json_t *r;

        tree_setup("symlinked", NULL);
        t_write(target, "pkg.txt", "{}", 2);
        snprintf(link, sizeof(link), "%s/package.json", target);
        T_ASSERT(symlink("pkg.txt", link) == 0);
        r = scan(NULL, &sc, PRC_MODE_INSPECT, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "MAN"), "Fail");
        T_ASSERT(has_gap(r, "package.json", "manifest-symlink"));
        json_decref(r);
}

/* The parse hook runs after the inventory: it rewrites ctx's file in place, keeping its size. */
static bool swap_parse(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out_doc,
                       prc_err *err)
{
        int fd = open((const char *)ctx, O_WRONLY);

        (void)format, (void)path, (void)p, (void)n, (void)err, (void)out_doc;
        T_ASSERT(fd >= 0);
        T_ASSERT(pwrite(fd, "#!/bin/sh\n", 10, 0) == 10);
        close(fd);
        return true;
}

/*
 * A head read (magic bytes of a file above 4096 bytes) is bound to the
 * seal like a whole-file read: an ELF swapped for a script of the same size
 * after the inventory is inventory-mismatch and Unknown, never "no binary".
 */
static void test_scan__head_read_is_bound_to_the_seal(void)
{
        static uint8_t big[8192];
        char tool[4300];
        prc_scan_opts o;
        json_t *r = NULL;
        prc_err e;
        int rc;

        tree_setup("headread", NULL);
        memcpy(big, elf, sizeof(elf));
        t_write(target, "tool", big, sizeof(big));
        t_write(target, "package.json", "{}", 2);
        snprintf(tool, sizeof(tool), "%s/tool", target);
        o = (prc_scan_opts){ .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                             .parse = swap_parse, .extract = fake_extract, .content_floor = fake_floor, .parse_ctx = tool };
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        T_EQ_STR(state_by_id(r, "BIN"), "Unknown");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(r, "errors"), 0), "class")),
                 "inventory-mismatch");
        json_decref(r);
}

/* A sparse file of n bytes at target/name. */
static void sparse(const char *name, off_t n)
{
        char p[4300];
        int fd;

        snprintf(p, sizeof(p), "%s/%s", target, name);
        fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
        T_ASSERT(fd >= 0);
        T_ASSERT(ftruncate(fd, n) == 0);
        close(fd);
}

/*
 * Gitleaks skips files above its --max-target-megabytes ceiling: a file of
 * exactly 10 MiB (analyzed by prc) must be under it, and a file above it
 * is an adapter-file-not-scanned gap that keeps the secrets assertion from
 * passing.
 */
static void test_scan__file_above_the_gitleaks_ceiling_is_a_gap(void)
{
        prc_adapter_set set;
        struct script sc = { "accepted", "completed", "not_found", "gitleaks.secret", false, 0, { { 0 } }, { NULL },
                             { { 0 } } };
        char m[4200];
        const char *paths[1] = { m };
        prc_err e;
        json_t *r;

        snprintf(m, sizeof(m), "%s/adapters/gitleaks-v8.30.0.yaml", t_root());
        prc_err_init(&e);
        set.n = 0;
        if (!prc_adapters_from_manifests(paths, 1, &set, &e))
                t_fail(__FILE__, __LINE__, "gitleaks manifest: %s", e.msg);
        tree_setup("ceiling", &set);
        sparse("at-analysis-limit.bin", PRC_INV_OVERSIZED);
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        if (r == NULL)
                t_fail(__FILE__, __LINE__, "scan: %s", e.msg);
        T_EQ_STR(state_by_id(r, "ADP"), "Pass");
        T_EQ_INT(json_array_size(json_object_get(r, "coverage_gaps")), 0);
        json_decref(r);
        sparse("above-ceiling.bin", 11000001);
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "ADP"), "Unknown");
        T_ASSERT(has_gap(r, "above-ceiling.bin", "adapter-file-not-scanned"));
        T_ASSERT(!has_gap(r, "at-analysis-limit.bin", "adapter-file-not-scanned"));
        json_decref(r);
        /* A found secret still fails: the gap only stops a pass. */
        sc.outcome = "found";
        r = scan(&set, &sc, PRC_MODE_VERIFY_LOCAL, 0, &e);
        T_ASSERT(r != NULL);
        T_EQ_STR(state_by_id(r, "ADP"), "Fail");
        json_decref(r);
        prc_adapter_set_clear(&set);
}

/* Issue 23: the floor is on the run and in the worker-dependent evidence, and the ID depends on it. */
static json_t *floor_scan(const char *level)
{
        prc_scan_opts o = { .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                            .parse = fake_parse, .extract = fake_extract, .content_floor = fake_floor };
        json_t *r = NULL;
        prc_err e;
        int rc;

        fake_level = level;
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        fake_level = "strict";
        return r;
}

static void test_scan__content_floor_is_recorded_and_changes_the_id(void)
{
        static const char cat[] =
                "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\n"
                "assertions:\n"
                "  - {id: M, control: C, title: t, rationale: r, remediation: m, severity: high, analysis: {id: manifests}}\n"
                "  - {id: R, control: C, title: t, rationale: r, remediation: m, severity: low, analysis: {id: readme, "
                "pass_outcomes: [found], fail_outcomes: [not_found]}}\n"
                "profiles: [{id: p, title: p, assertions: [M, R]}]\n";
        json_t *a, *b, *ev;

        snprintf(catroot, sizeof(catroot), "%s/cat", t_tmpdir());
        snprintf(target, sizeof(target), "%s/target", t_tmpdir());
        T_ASSERT(mkdir(catroot, 0755) == 0 && mkdir(target, 0755) == 0);
        t_write(target, "README.md", "# t\n", 4);
        t_write(target, "package.json", "{}", 2);
        t_write(catroot, "catalog.yaml", cat, strlen(cat));
        a = floor_scan("strict");
        b = floor_scan("seccomp");
        T_EQ_STR(json_string_value(json_object_get(json_object_get(a, "content_floor"), "level")), "strict");
        T_EQ_STR(json_string_value(json_object_get(json_object_get(b, "content_floor"), "level")), "seccomp");
        T_ASSERT(strcmp(json_string_value(json_object_get(a, "id")), json_string_value(json_object_get(b, "id"))) != 0);
        /* manifests rests on the worker: its envelope names the floor; readme does not. */
        ev = json_array_get(json_object_get(json_array_get(json_object_get(b, "assertions"), 0), "evidence"), 0);
        T_EQ_STR(json_string_value(json_object_get(json_object_get(json_object_get(ev, "source"), "content_floor"),
                                                   "level")), "seccomp");
        ev = json_array_get(json_object_get(json_array_get(json_object_get(b, "assertions"), 1), "evidence"), 0);
        T_ASSERT(ev != NULL);
        T_ASSERT(json_object_get(json_object_get(ev, "source"), "content_floor") == NULL);
        json_decref(a);
        json_decref(b);
}


/* fake_extract, and the root package.json names includes as a requirements file's -r lines would. */
static bool includes_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n,
                             json_t **out, prc_err *err)
{
        if (!fake_extract(ctx, format, path, p, n, out, err))
                return false;
        if (strcmp(path, "package.json") == 0)
                json_object_set_new(json_object_get(*out, "details"), "includes",
                                    json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s}]", "kind", "requirement",
                                              "path", "./sub/../sub/base.txt", "kind", "constraint", "path",
                                              "../outside.txt", "kind", "requirement", "path", "missing.txt", "kind",
                                              "requirement", "path", "https://example.invalid/r.txt"));
        /* a missing include of a file in a directory is named where it resolves, not as written */
        if (strcmp(path, "sub/base.txt") == 0)
                json_object_set_new(json_object_get(*out, "details"), "includes",
                                    json_pack("[{s:s,s:s}]", "kind", "requirement", "path", "gone.txt"));
        return true;
}

static void test_scan__includes_are_followed_only_inside_the_inventory(void)
{
        static const char cat[] =
                "schema: prc.catalog/v1\ncatalog_id: t\nrevision: 1\ncontrols: [{id: C, title: c}]\n"
                "assertions:\n"
                "  - {id: M, control: C, title: t, rationale: r, remediation: m, severity: high, analysis: {id: manifests}}\n"
                "profiles: [{id: p, title: p, assertions: [M]}]\n";
        static const char base[] = "{\"dependencies\": {\"a\": \"1\"}}";
        prc_scan_opts o = { .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                            .parse = fake_parse, .extract = includes_extract, .content_floor = fake_floor };
        json_t *r = NULL, *ex;
        prc_err e;
        int rc;
        char sub[4300];

        snprintf(catroot, sizeof(catroot), "%s/cat", t_tmpdir());
        snprintf(target, sizeof(target), "%s/target", t_tmpdir());
        snprintf(sub, sizeof(sub), "%s/sub", target);
        T_ASSERT(mkdir(catroot, 0755) == 0 && mkdir(target, 0755) == 0 && mkdir(sub, 0755) == 0);
        t_write(target, "package.json", "{}", 2);
        /* an included file no extractor owns by name: extracted with the includer's format */
        t_write(sub, "base.txt", base, strlen(base));
        t_write(catroot, "catalog.yaml", cat, strlen(cat));
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        ex = json_object_get(r, "extractions");
        T_EQ_INT(json_array_size(ex), 2);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(ex, 1), "path")), "sub/base.txt");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(ex, 1), "dependencies")), 1);
        T_ASSERT(has_gap(r, "../outside.txt", "manifest-include-outside"));
        T_ASSERT(has_gap(r, "missing.txt", "manifest-include-outside"));
        T_ASSERT(has_gap(r, "https://example.invalid/r.txt", "manifest-include-outside"));
        T_ASSERT(has_gap(r, "sub/gone.txt", "manifest-include-outside"));
        T_EQ_INT(json_array_size(json_object_get(r, "coverage_gaps")), 4);
        T_ASSERT(strcmp(state_by_id(r, "M"), "Pass") != 0);
        json_decref(r);
}

/*
 * Two lanes, each trip recorded as it finishes: a gate holds the first
 * manifest's extraction until the other manifests' are done (with
 * extraction_each, until b's and e's documents were taken, so it is
 * recorded after every other manifest); the run result (gaps,
 * extractions), the extraction record and what extraction_each is given
 * (with each document's place) are those of one lane, which records in
 * order.
 */
static struct {
        pthread_mutex_t mu;
        pthread_cond_t  cv;
        bool            on, each, gave_up;
        unsigned        others;         /* extractions of the other manifests done */
        char            seen[16][64];   /* extraction_each: "ORDER PATH", in the order given */
        size_t          nseen;
} gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, false, 0, { { 0 } }, 0 };

static bool gated_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out,
                          prc_err *err)
{
        struct timespec until;
        bool ok;

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;     /* a guard against a hang, not a timed assertion */
        pthread_mutex_lock(&gate.mu);
        while (gate.on && strcmp(path, "a/package.json") == 0 && (gate.each ? gate.nseen < 2 : gate.others < 3) &&
               !gate.gave_up)
                if (pthread_cond_timedwait(&gate.cv, &gate.mu, &until) != 0)
                        gate.gave_up = true;
        pthread_mutex_unlock(&gate.mu);
        ok = fake_extract(ctx, format, path, p, n, out, err);
        /* Each includes a file the inventory holds and one it does not (a gap). */
        if (ok && strcmp(path, "a/package.json") == 0)
                json_object_set_new(json_object_get(*out, "details"), "includes",
                                    json_pack("[{s:s,s:s},{s:s,s:s}]", "kind", "requirement", "path",
                                              "../inc/x.txt", "kind", "requirement", "path", "missing-a.txt"));
        if (ok && strcmp(path, "b/requirements.txt") == 0)
                json_object_set_new(json_object_get(*out, "details"), "includes",
                                    json_pack("[{s:s,s:s},{s:s,s:s}]", "kind", "requirement", "path",
                                              "../inc/extra.txt", "kind", "requirement", "path", "missing-b.txt"));
        pthread_mutex_lock(&gate.mu);
        if (strcmp(path, "b/requirements.txt") == 0 || strcmp(path, "c/package.json") == 0 ||
            strcmp(path, "e/package.json") == 0)
                gate.others++;
        pthread_cond_broadcast(&gate.cv);
        pthread_mutex_unlock(&gate.mu);
        return ok;
}

static bool record_each(void *ctx, const json_t *md, size_t order, prc_err *err)
{
        (void)ctx, (void)err;
        pthread_mutex_lock(&gate.mu);
        if (gate.nseen < PRC_ARRAY_LEN(gate.seen))
                snprintf(gate.seen[gate.nseen++], sizeof(gate.seen[0]), "%zu %s", order,
                         json_string_value(json_object_get(md, "path")));
        pthread_cond_broadcast(&gate.cv);
        pthread_mutex_unlock(&gate.mu);
        return true;
}

static int seen_cmp(const void *a, const void *b)
{
        unsigned long x = strtoul(a, NULL, 10), y = strtoul(b, NULL, 10);

        return (x > y) - (x < y);
}

/* One scan of target, with a second lane or not, as a run result or (each) an extraction record. */
static json_t *lanes_scan(bool two, bool each)
{
        static int ctx1, ctx2;
        json_t *r = NULL, *ex = NULL;
        prc_scan_opts o = { .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                            .parse = fake_parse, .extract = gated_extract, .content_floor = fake_floor,
                            .parse_ctx = &ctx1, .lane_ctx = two ? &ctx2 : NULL,
                            .take_batch = 1 };  /* a/package.json waits for others' recording */
        prc_err e;
        int rc;

        if (each) {
                o.extraction_out = &ex;
                o.extraction_each = record_each;
        }
        gate.on = two;
        gate.each = each;
        gate.others = 0;
        gate.nseen = 0;
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        T_NOERR(e);
        T_ASSERT(!gate.gave_up);
        return each ? ex : r;
}

/* A tree of six manifests, a/package.json (first) as given. */
static void lanes_tree(const char *name, const char *a)
{
        char dir[4300], link[4400];

        tree_setup(name, NULL);
        for (const char *const *d = (const char *const[]){ "a", "b", "c", "d", "e", "g", "inc", NULL }; *d; d++) {
                snprintf(dir, sizeof(dir), "%s/%s", target, *d);
                T_ASSERT(mkdir(dir, 0755) == 0);
        }
        t_write(target, "a/package.json", a, strlen(a));
        t_write(target, "b/requirements.txt", "flask==2.0\n", 11);
        t_write(target, "inc/extra.txt", "requests==2.31.0\n", 17);
        t_write(target, "inc/x.txt", "{\"dependencies\": {\"y\": \"1\"}}", 28);  /* a's format: npm */
        t_write(target, "c/package.json", "{", 1);                 /* refused: a gap */
        t_write(target, "d/PKGBUILD", "pkgname=x\n", 10);          /* no token document: a gap */
        t_write(target, "e/package.json", "{\"devDependencies\": {\"x\": \"^1\"}}", 32);
        snprintf(link, sizeof(link), "%s/g/package.json", target);
        T_ASSERT(symlink("../e/package.json", link) == 0);         /* a gap without a trip */
}

/* The first manifest refused, recorded last: its gap is listed first all the same. */
static void test_scan__gaps_recorded_as_trips_finish_are_listed_in_order(void)
{
        json_t *r1, *r2;

        lanes_tree("lanes-gap", "{");
        r1 = lanes_scan(false, false);
        r2 = lanes_scan(true, false);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(r1, "coverage_gaps"), 0), "path")),
                 "a/package.json");
        T_ASSERT(json_equal(r1, r2));
        json_decref(r1);
        json_decref(r2);
        r1 = lanes_scan(false, true);
        r2 = lanes_scan(true, true);
        T_ASSERT(json_equal(r1, r2));
        json_decref(r1);
        json_decref(r2);
}

/*
 * The first manifest's document recorded last: the includes are followed
 * in inventory order (their documents' places and gaps as in order), and
 * extraction_each is told each document's place in inventory order.
 */
static void test_scan__documents_recorded_as_trips_finish_keep_their_places(void)
{
        char seen1[16][64];
        size_t nseen1;
        json_t *r1, *r2;

        lanes_tree("lanes-doc", "{\"dependencies\": {\"left-pad\": \"1.3.0\"}}");
        r1 = lanes_scan(false, false);
        r2 = lanes_scan(true, false);
        T_ASSERT(json_equal(r1, r2));
        T_EQ_INT(json_array_size(json_object_get(r1, "extractions")), 5);
        json_decref(r1);
        json_decref(r2);

        r1 = lanes_scan(false, true);
        memcpy(seen1, gate.seen, sizeof(seen1));
        nseen1 = gate.nseen;
        r2 = lanes_scan(true, true);
        T_ASSERT(json_equal(r1, r2));
        /* In order: a, b, e, then the includes, a's first, after the 6 manifests. */
        T_EQ_INT(nseen1, 5);
        T_EQ_STR(seen1[0], "0 a/package.json");
        T_EQ_STR(seen1[3], "6 inc/x.txt");
        T_EQ_STR(seen1[4], "7 inc/extra.txt");
        /* With two lanes a came after b and e, with its own place. */
        T_EQ_INT(gate.nseen, 5);
        T_ASSERT(strcmp(gate.seen[0], "0 a/package.json") != 0);
        qsort(gate.seen, gate.nseen, sizeof(gate.seen[0]), seen_cmp);
        for (size_t i = 0; i < nseen1; i++)
                T_EQ_STR(gate.seen[i], seen1[i]);
        json_decref(r1);
        json_decref(r2);
}

static bool fake_parse_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n,
                               json_t **out, prc_err *err)
{
        return fake_parse(ctx, format, path, p, n, NULL, err) && fake_extract(ctx, NULL, path, p, n, out, err);
}

static size_t many_calls, many_files;

/* The many-files hook as the client answers it: each item as its own call would be. */
static void fake_parse_extract_many(void *ctx, prc_scan_xitem *items, size_t n)
{
        __atomic_add_fetch(&many_calls, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&many_files, n, __ATOMIC_RELAXED);
        for (size_t i = 0; i < n; i++) {
                prc_scan_xitem *x = &items[i];

                prc_err_init(&x->err);
                x->md = NULL;
                x->ok = x->format != NULL ? fake_parse_extract(ctx, x->format, x->path, x->p, x->n, &x->md, &x->err)
                                          : fake_extract(ctx, NULL, x->path, x->p, x->n, &x->md, &x->err);
        }
}

/*
 * A scan of target with the hooks of level 0 (parse, extract), 1 (+
 * parse_extract), 2 (+ many): a result, or a record with the places
 * extraction_each was told ("ORDER PATH", by order) in *places.
 */
static json_t *hooks_scan(int level, bool two, bool record, char *places, size_t cap)
{
        static int ctx1, ctx2;
        json_t *r = NULL, *ex = NULL;
        prc_scan_opts o = { .target = target, .catalog_root = catroot, .profile = "p", .mode = PRC_MODE_INSPECT,
                            .parse = fake_parse, .extract = fake_extract, .content_floor = fake_floor,
                            .parse_ctx = &ctx1, .lane_ctx = two ? &ctx2 : NULL };
        prc_err e;
        int rc;

        if (level >= 1)
                o.parse_extract = fake_parse_extract;
        if (level >= 2)
                o.parse_extract_many = fake_parse_extract_many;
        if (record) {
                o.extraction_out = &ex;
                o.extraction_each = record_each;
        }
        gate.nseen = 0;
        prc_err_init(&e);
        T_ASSERT(prc_scan_run(&o, &r, &rc, &e));
        T_NOERR(e);
        qsort(gate.seen, gate.nseen, sizeof(gate.seen[0]), seen_cmp);
        places[0] = '\0';
        for (size_t i = 0; i < gate.nseen; i++)
                snprintf(places + strlen(places), cap - strlen(places), "%s;", gate.seen[i]);
        return record ? ex : r;
}

/*
 * Small manifests in groups (parse_extract_many): the same run result and
 * extraction record as one file a trip, with one lane or two, the gaps
 * (a refused file, a PKGBUILD without tokens, a symlink) and the includes
 * in their places.
 */
static void test_scan__small_files_in_groups_answer_as_one_at_a_time(void)
{
        char want[1024], got[1024];

        lanes_tree("groups", "{\"dependencies\": {\"left-pad\": \"1.3.0\"}}");
        gate.on = false;
        for (int record = 0; record < 2; record++) {
                json_t *base = hooks_scan(0, false, record != 0, want, sizeof(want));

                for (int level = 1; level <= 2; level++)
                        for (int two = 0; two < 2; two++) {
                                json_t *r;

                                many_calls = many_files = 0;
                                r = hooks_scan(level, two != 0, record != 0, got, sizeof(got));
                                if (!json_equal(base, r) || strcmp(want, got) != 0)
                                        t_fail(__FILE__, __LINE__, "hooks %d, %s lane(s), %s: not the same (%s | %s)",
                                               level, two ? "two" : "one", record ? "record" : "result", want, got);
                                /* a, b and c go as one group; e is alone (d, a PKGBUILD, is between) */
                                T_EQ_INT(many_calls, level == 2 ? 1 : 0);
                                T_EQ_INT(many_files, level == 2 ? 3 : 0);
                                json_decref(r);
                        }
                json_decref(base);
        }
}

static const prc_test tests[] = {
        T(test_scan__record_dispositions_map_to_states),
        T(test_scan__order_deadline_and_run_ids),
        T(test_scan__unbound_adapter_is_refused_before_anything_runs),
        T(test_scan__unreviewed_native_adapter_refuses_the_set_before_anything_runs),
        T(test_scan__refusal_with_invalid_utf8_stays_a_gap),
        T(test_scan__inspect_mode_blocks_adapter_bound_assertions),
        T(test_scan__sbom_value_passes_only_with_its_artifact),
        T(test_scan__hg_metadata_is_analyzed),
        T(test_scan__excluded_prc_is_named_and_blocks_pass),
        T(test_scan__symlinked_manifest_is_a_gap),
        T(test_scan__head_read_is_bound_to_the_seal),
        T(test_scan__file_above_the_gitleaks_ceiling_is_a_gap),
        T(test_scan__content_floor_is_recorded_and_changes_the_id),
        T(test_scan__includes_are_followed_only_inside_the_inventory),
        T(test_scan__gaps_recorded_as_trips_finish_are_listed_in_order),
        T(test_scan__documents_recorded_as_trips_finish_keep_their_places),
        T(test_scan__small_files_in_groups_answer_as_one_at_a_time),
};
PRC_SUITE(scan, tests)
