/*
 * test_oci.c - the OCI planner (golden plans, purity, host-path-free seal),
 * the runtime limit-report rules, external data checks, execution records
 * (seal, strict read of v0.1-v0.3, tamper, the evidence door) and the root
 * refusal.  Nothing here starts a container: tests/cli/test_oci.sh does.
 * Golden files: tests/golden/oci/NNN-slug.in (spec) beside .out (canonical
 * plan) or .err (error class); PRC_UPDATE_GOLDEN=1 rewrites them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/data.h"
#include "adapter/manifest.h"
#include "adapter/oci.h"
#include "adapter/record.h"
#include "adapter/resolution.h"
#include "base/buf.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "t.h"

static const char MANIFEST[] =
        "schema: prc.adapter-manifest/v0.4\n"
        "adapter_id: prc-test.unit@1.0.0\n"
        "publisher: {id: prc-test, name: prc test}\n"
        "owner: {id: prc-test-owner, contact: tests@prc.invalid}\n"
        "protocol: prc-adapter-jsonl-v1\n"
        "output_schema: prc.adapter-message/v1\n"
        "engine_api: {min: 1, max: 1}\n"
        "tool: {name: prc-test-tool, version: 1.0.0, formats: [prc-test/1]}\n"
        "observation_kinds: [prc-test.secret]\n"
        "maintenance: active\n"
        "known_limitations: [unit test]\n"
        "image: {registry: \"127.0.0.1:5000\", repository: prc-test/good,\n"
        "        digest: \"sha256:1111111111111111111111111111111111111111111111111111111111111111\"}\n"
        "command: [/adapter, --jsonl]\n"
        "limits: {wall_seconds: 20, memory_bytes: 67108864, cpus_millis: 1500, pids: 8, nofile: 64,\n"
        "         tmpfs_bytes: 0, stdin_bytes: 1048576, stdout_bytes: 1048576, stderr_bytes: 65536,\n"
        "         line_bytes: 4096, messages: 100}\n"
        "data:\n"
        "  - {name: db, max_bytes: 1000, max_files: 3}\n";

static prc_manifest *manifest(void)
{
        prc_err err = {0};
        prc_manifest *m = prc_manifest_parse((const uint8_t *)MANIFEST, sizeof(MANIFEST) - 1, PRC_MANIFEST_EXECUTE,
                                             &err);
        T_NOERR(err);
        T_ASSERT(m != NULL);
        return m;
}

static const char HEX_A[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char HEX_B[] = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
static const char HEX_C[] = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc";

static prc_oci_runtime fake_runtime(prc_oci_kind k)
{
        prc_oci_runtime rt = { .kind = k };
        snprintf(rt.path, sizeof(rt.path), "/usr/bin/%s", prc_oci_kind_name(k));
        snprintf(rt.sha256, sizeof(rt.sha256), "%s", HEX_A);
        snprintf(rt.version, sizeof(rt.version), "%s", k == PRC_OCI_DOCKER ? "20.10.24" : "4.3.1");
        return rt;
}

static prc_oci_spec fake_spec(const prc_oci_runtime *rt, const prc_manifest *m)
{
        return (prc_oci_spec){
                .rt = rt, .m = m, .snapshot_path = "/tmp/prc-snapshot-AAAAAA", .snapshot_sha256 = HEX_B,
                .snapshot_files = 3, .snapshot_bytes = 120, .uid = 1000, .gid = 1000,
                .container_name = "prc-000000000000000000000001", .host_nofile_max = 20000,
                .host_nproc_max = 96364,
        };
}

/* ---- golden plans -------------------------------------------------------- */

/*
 * .in: {"runtime":"docker"|"podman","manifest":{...},"snapshot_path","uid","gid",
 *       "host_nofile_max","host_nproc_max" (-1: unlimited),"data":[{"name","path","sha256","files","bytes"}]}
 * Everything else is fake_spec's.
 */
static void golden_one(const char *dir, const char *base)
{
        char path[1400], outp[1400], errp[1400];
        size_t n;
        prc_err err = {0};
        snprintf(path, sizeof(path), "%s/%s.in", dir, base);
        snprintf(outp, sizeof(outp), "%s/%s.out", dir, base);
        snprintf(errp, sizeof(errp), "%s/%s.err", dir, base);
        char *in = t_read(path, &n);
        json_t *spec = prc_json_parse((const uint8_t *)in, n, &prc_limits_default, 0, &err);
        T_NOERR(err);
        prc_manifest *m = prc_manifest_from_doc(json_object_get(spec, "manifest"), PRC_MANIFEST_EXECUTE, &err);
        T_NOERR(err);
        prc_oci_kind kind;
        T_ASSERT(prc_oci_kind_parse(json_string_value(json_object_get(spec, "runtime")), &kind, &err));
        prc_oci_runtime rt = fake_runtime(kind);
        prc_oci_spec s = fake_spec(&rt, m);
        if (json_object_get(spec, "snapshot_path"))
                s.snapshot_path = json_string_value(json_object_get(spec, "snapshot_path"));
        if (json_object_get(spec, "uid"))
                s.uid = (uint32_t)json_integer_value(json_object_get(spec, "uid"));
        if (json_object_get(spec, "gid"))
                s.gid = (uint32_t)json_integer_value(json_object_get(spec, "gid"));
        if (json_object_get(spec, "host_nofile_max"))
                s.host_nofile_max = (uint64_t)json_integer_value(json_object_get(spec, "host_nofile_max"));
        if (json_object_get(spec, "host_nproc_max")) {     /* -1: RLIM_INFINITY */
                json_int_t v = json_integer_value(json_object_get(spec, "host_nproc_max"));
                s.host_nproc_max = v < 0 ? UINT64_MAX : (uint64_t)v;
        }
        const json_t *dl = json_object_get(spec, "data");
        prc_data_input d[4];
        memset(d, 0, sizeof(d));
        s.ndata = json_array_size(dl);
        T_ASSERT(s.ndata <= 4);
        for (size_t i = 0; i < s.ndata; i++) {
                const json_t *e = json_array_get(dl, i);
                snprintf(d[i].name, sizeof(d[i].name), "%s", json_string_value(json_object_get(e, "name")));
                d[i].host_path = (char *)json_string_value(json_object_get(e, "path"));
                snprintf(d[i].sha256, sizeof(d[i].sha256), "%s", json_string_value(json_object_get(e, "sha256")));
                d[i].files = (uint64_t)json_integer_value(json_object_get(e, "files"));
                d[i].bytes = (uint64_t)json_integer_value(json_object_get(e, "bytes"));
                snprintf(d[i].destination, sizeof(d[i].destination), "/prc-inputs/%.64s", d[i].name);
        }
        s.data = d;
        json_t *plan = prc_oci_plan(&s, &err);
        prc_buf got;
        prc_buf_init(&got, 1u << 20);
        if (plan != NULL) {
                T_ASSERT(prc_jcs_write(plan, &got, &err));
                T_ASSERT(prc_buf_putc(&got, '\n', &err));
        } else {
                /* House golden form "class line offset"; a plan error is about no input position. */
                T_ASSERT(prc_buf_printf(&got, &err, "%s %u %llu\n", prc_err_name(err.cls), (unsigned)err.line,
                                        err.off == PRC_NO_OFF ? 0ULL : (unsigned long long)err.off));
        }
        const char *want_path = plan != NULL ? outp : errp;
        if (getenv("PRC_UPDATE_GOLDEN") != NULL) {
                FILE *f = fopen(want_path, "w");
                T_ASSERT(f != NULL);
                T_ASSERT(fwrite(got.data, 1, got.len, f) == got.len);
                fclose(f);
        }
        size_t wn;
        char *want = t_read(want_path, &wn);
        T_EQ_MEM(got.data, got.len, want, wn);
        free(want);
        prc_buf_clear(&got);
        json_decref(plan);
        prc_manifest_free(m);
        json_decref(spec);
        free(in);
}

static void test_oci__golden_plans(void)
{
        char dir[1024];
        size_t count = 0;
        snprintf(dir, sizeof(dir), "%s/tests/golden/oci", t_root());
        DIR *d = opendir(dir);
        T_ASSERT(d != NULL);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
                size_t l = strlen(e->d_name);
                if (l > 3 && strcmp(e->d_name + l - 3, ".in") == 0) {
                        char base[256];
                        snprintf(base, sizeof(base), "%.*s", (int)(l - 3), e->d_name);
                        golden_one(dir, base);
                        count++;
                }
        }
        closedir(d);
        T_ASSERT(count >= 5);
}

/* ---- planner properties -------------------------------------------------- */

static bool argv_has(const json_t *plan, const char *s)
{
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(plan, "argv"), i, v) {
                if (strcmp(json_string_value(v), s) == 0)
                        return true;
        }
        return false;
}

static void test_oci__plan_is_pure_and_its_digest_ignores_host_paths(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_oci_runtime rt = fake_runtime(PRC_OCI_DOCKER);
        prc_oci_spec s = fake_spec(&rt, m);
        json_t *a = prc_oci_plan(&s, &err), *b = prc_oci_plan(&s, &err);
        T_NOERR(err);
        T_ASSERT(json_equal(a, b));
        s.snapshot_path = "/var/tmp/elsewhere";
        s.container_name = "prc-ffffffffffffffffffffffff";
        json_t *c = prc_oci_plan(&s, &err);
        T_NOERR(err);
        T_EQ_STR(json_string_value(json_object_get(a, "plan_sha256")),
                 json_string_value(json_object_get(c, "plan_sha256")));
        T_ASSERT(argv_has(c, "--name=prc-ffffffffffffffffffffffff"));
        T_ASSERT(argv_has(c, "--mount=type=bind,source=/var/tmp/elsewhere,target=/prc-snapshot,readonly"));
        /* Content does move the digest. */
        s.snapshot_sha256 = HEX_C;
        json_t *d = prc_oci_plan(&s, &err);
        T_NOERR(err);
        T_ASSERT(strcmp(json_string_value(json_object_get(a, "plan_sha256")),
                        json_string_value(json_object_get(d, "plan_sha256"))) != 0);
        /* The sealed half names no host path. */
        prc_buf buf;
        prc_buf_init(&buf, 1u << 20);
        T_ASSERT(prc_jcs_write(json_object_get(c, "sealed"), &buf, &err));
        T_ASSERT(prc_buf_putc(&buf, 0, &err));
        T_ASSERT(strstr((const char *)buf.data, "/var/tmp/elsewhere") == NULL);
        T_ASSERT(strstr((const char *)buf.data, "/usr/bin/docker") == NULL);
        T_ASSERT(strstr((const char *)buf.data, "prc-ffff") == NULL);
        prc_buf_clear(&buf);
        json_decref(a), json_decref(b), json_decref(c), json_decref(d);
        prc_manifest_free(m);
}

static void test_oci__plan_carries_every_control(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_oci_runtime rt = fake_runtime(PRC_OCI_DOCKER);
        prc_oci_spec s = fake_spec(&rt, m);
        json_t *p = prc_oci_plan(&s, &err);
        T_NOERR(err);
        static const char *const want[] = {
                "run", "--rm", "-i", "--pull=never", "--network=none", "--read-only", "--cap-drop=ALL",
                "--security-opt=no-new-privileges", "--user=1000:1000", "--memory=67108864b",
                "--memory-swap=67108864b", "--cpus=1.500", "--pids-limit=1", "--ulimit=nofile=64:64",
                "--ulimit=nproc=96364:96364", "--workdir=/prc-snapshot", "--entrypoint=",
                "127.0.0.1:5000/prc-test/good@sha256:1111111111111111111111111111111111111111111111111111111111111111",
                "/adapter", "--jsonl",
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(want); i++)
                if (!argv_has(p, want[i]))
                        t_fail(__FILE__, __LINE__, "argv lacks %s", want[i]);
        /* The command comes last, in order, after the image. */
        const json_t *argv = json_object_get(p, "argv");
        size_t n = json_array_size(argv);
        T_EQ_STR(json_string_value(json_array_get(argv, n - 1)), "--jsonl");
        T_EQ_STR(json_string_value(json_array_get(argv, n - 2)), "/adapter");
        T_EQ_STR(json_string_value(json_array_get(argv, 0)), "/usr/bin/docker");
        json_decref(p);
        prc_manifest_free(m);
}

/*
 * nproc is the invoking user's own hard limit, whatever pids says: the kernel
 * counts every task of that uid on the host against it, so anything lower let
 * unrelated processes of the user fail the container's start (EAGAIN).  An
 * unlimited user gets no --ulimit=nproc and no limits.nproc.
 */
static void test_oci__nproc_is_the_users_own_limit(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_oci_runtime rt = fake_runtime(PRC_OCI_DOCKER);
        prc_oci_spec s = fake_spec(&rt, m);
        s.host_nproc_max = 32;  /* below the old pids + 32 = 33: planned, not refused */
        json_t *p = prc_oci_plan(&s, &err);
        T_NOERR(err);
        T_ASSERT(argv_has(p, "--pids-limit=1"));
        T_ASSERT(argv_has(p, "--ulimit=nproc=32:32"));
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(p, "limits"), "nproc")), 32);
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(json_object_get(p, "sealed"), "limits"),
                                                    "nproc")), 32);
        json_decref(p);
        s.host_nproc_max = UINT64_MAX;
        p = prc_oci_plan(&s, &err);
        T_NOERR(err);
        const json_t *argv = json_object_get(p, "argv");
        for (size_t i = 0; i < json_array_size(argv); i++)
                T_ASSERT(strncmp(json_string_value(json_array_get(argv, i)), "--ulimit=nproc", 14) != 0);
        T_ASSERT(json_object_get(json_object_get(p, "limits"), "nproc") == NULL);
        T_ASSERT(json_object_get(json_object_get(p, "limits"), "pids") != NULL);
        json_decref(p);
        prc_manifest_free(m);
}

static void test_oci__plan_refuses_ulimits_above_the_host_and_root(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_oci_runtime rt = fake_runtime(PRC_OCI_DOCKER);
        prc_oci_spec s = fake_spec(&rt, m);
        s.host_nofile_max = 63;
        T_ASSERT(prc_oci_plan(&s, &err) == NULL);
        T_ERR(err, PRC_E_OCI_ULIMIT_EXCEEDS_HOST);
        prc_err_init(&err);
        s = fake_spec(&rt, m);
        s.uid = 0;
        T_ASSERT(prc_oci_plan(&s, &err) == NULL);
        T_ERR(err, PRC_E_OCI_ROOT_REFUSED);
        prc_err_init(&err);
        s = fake_spec(&rt, m);
        s.gid = 0;      /* issue 16: root's group is refused like root */
        T_ASSERT(prc_oci_plan(&s, &err) == NULL);
        T_ERR(err, PRC_E_OCI_ROOT_GROUP_REFUSED);
        prc_err_init(&err);
        s = fake_spec(&rt, m);
        s.container_name = "../evil";
        T_ASSERT(prc_oci_plan(&s, &err) == NULL);
        T_ERR(err, PRC_E_INVALID_VALUE);
        prc_err_init(&err);
        s = fake_spec(&rt, m);
        s.snapshot_path = "/tmp/a,target=/etc";  /* would inject a mount option */
        T_ASSERT(prc_oci_plan(&s, &err) == NULL);
        T_ERR(err, PRC_E_INVALID_VALUE);
        prc_manifest_free(m);
}

/* ---- runtime limit reports ---------------------------------------------- */

static void test_oci__limit_reports_decide_enforcement(void)
{
        prc_err err = {0};
        T_ASSERT(prc_oci_limits_report_ok(PRC_OCI_DOCKER, "true true true true\n", &err));
        T_ASSERT(!prc_oci_limits_report_ok(PRC_OCI_DOCKER, "true false true true\n", &err));
        T_ERR(err, PRC_E_OCI_LIMITS_IGNORED);
        prc_err_init(&err);
        T_ASSERT(!prc_oci_limits_report_ok(PRC_OCI_DOCKER, "true true true true true\n", &err));
        T_ERR(err, PRC_E_OCI_LIMITS_IGNORED);
        prc_err_init(&err);
        /* What rootless podman 4.3 says on this cgroup v1 host, and rootful. */
        T_ASSERT(!prc_oci_limits_report_ok(PRC_OCI_PODMAN, "true v1 []\n", &err));
        T_ERR(err, PRC_E_OCI_LIMITS_IGNORED);
        prc_err_init(&err);
        T_ASSERT(prc_oci_limits_report_ok(PRC_OCI_PODMAN,
                                          "false v1 [cpuset cpu cpuacct blkio memory devices freezer pids]\n", &err));
        T_ASSERT(!prc_oci_limits_report_ok(PRC_OCI_PODMAN, "true v2 [cpuset cpu memory]\n", &err));
        T_ERR(err, PRC_E_OCI_LIMITS_IGNORED);
        prc_err_init(&err);
        T_ASSERT(prc_oci_limits_report_ok(PRC_OCI_PODMAN, "true v2 [cpuset cpu io memory pids]\n", &err));
        T_ASSERT(!prc_oci_limits_report_ok(PRC_OCI_PODMAN, "", &err));
        T_ERR(err, PRC_E_OCI_LIMITS_IGNORED);
}

static void test_oci__runtime_kind_parses_only_docker_and_podman(void)
{
        prc_err err = {0};
        prc_oci_kind k;
        T_ASSERT(prc_oci_kind_parse("podman", &k, &err));
        T_EQ_INT(k, PRC_OCI_PODMAN);
        T_ASSERT(!prc_oci_kind_parse("runc", &k, &err));
        T_ERR(err, PRC_E_USAGE);
}

/* ---- the run's refusals that need no engine ---------------------------- */

static void test_oci__root_is_refused_before_anything_runs(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_resolution res;
        T_ASSERT(prc_resolution_from_manifest(m, &res, &err));
        prc_oci_request rq = { .m = m, .resolution = &res, .runtime = PRC_OCI_DOCKER };
        json_t *out = NULL;
        bool ok = prc_oci_run(&rq, &out, &err);
        T_ASSERT(!ok && out == NULL);
        if (geteuid() == 0) {
                T_ERR(err, PRC_E_OCI_ROOT_REFUSED);
        } else {
                /* Not root: the next gate (data: db is declared and unbound) answers. */
                T_ERR(err, PRC_E_DATA_MISSING);
        }
        prc_manifest_free(m);
}

static void test_oci__authorization_binds_the_exact_manifest_and_trust(void)
{
        prc_err err = {0};
        prc_manifest *m = manifest();
        prc_resolution r;
        T_ASSERT(prc_resolution_from_manifest(m, &r, &err));
        T_ASSERT(prc_oci_authorize(m, &r, &err));
        T_NOERR(err);
        T_ASSERT(!prc_oci_authorize(m, NULL, &err));
        T_ERR(err, PRC_E_OCI_NOT_AUTHORIZED);
        prc_resolution bad = r;
        snprintf(bad.manifest_sha256, sizeof(bad.manifest_sha256), "%s", HEX_C);
        prc_err_init(&err);
        T_ASSERT(!prc_oci_authorize(m, &bad, &err));
        T_ERR(err, PRC_E_OCI_NOT_AUTHORIZED);
        bad = r;
        snprintf(bad.publisher_id, sizeof(bad.publisher_id), "someone-else");
        prc_err_init(&err);
        T_ASSERT(!prc_oci_authorize(m, &bad, &err));
        T_ERR(err, PRC_E_OCI_NOT_AUTHORIZED);
        /* Registry grants run only with the two admitted trust levels. */
        static const char *const trusts[] = { "first-party-sandboxed", "verified-community", "unverified-community",
                                              "local" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(trusts); i++) {
                prc_resolution g = r;
                g.grant = PRC_GRANT_REGISTRY;
                snprintf(g.trust, sizeof(g.trust), "%s", trusts[i]);
                snprintf(g.registry_id, sizeof(g.registry_id), "prc-test-registry");
                g.registry_revision = 1;
                snprintf(g.registry_sha256, sizeof(g.registry_sha256), "%s", HEX_A);
                prc_err_init(&err);
                bool ok = prc_oci_authorize(m, &g, &err);
                T_EQ_INT(ok, i < 2);
                if (!ok)
                        T_ERR(err, PRC_E_OCI_NOT_AUTHORIZED);
        }
        prc_manifest_free(m);
}

/* ---- external data ------------------------------------------------------ */

static const char *mkdirp(const char *dir, const char *name)
{
        static char p[8][1024];
        static int slot;
        char *s = p[slot++ % 8];
        snprintf(s, 1024, "%s/%s", dir, name);
        T_ASSERT(mkdir(s, 0755) == 0);
        return s;
}

static void expect_data(const prc_manifest *m, const char *name, const char *path, prc_errclass want)
{
        prc_err err = {0};
        prc_data_binding b = { name, path };
        prc_data_input *d = NULL;
        size_t n = 0;
        bool ok = prc_data_prepare(m, &b, 1, &d, &n, &err);
        if (want == PRC_E_OK) {
                T_NOERR(err);
                T_ASSERT(ok && n == 1);
        } else {
                T_ASSERT(!ok);
                T_ERR(err, want);
        }
        prc_data_free(d, n);
}

static void test_oci__data_rejections_are_named(void)
{
        const char *t = t_tmpdir();
        prc_manifest *m = manifest();
        prc_err err = {0};
        const char *good = mkdirp(t, "good");
        t_write(good, "a", "one\n", 4);
        t_write(good, "b", "two\n", 4);
        expect_data(m, "db", good, PRC_E_OK);
        expect_data(m, "other", good, PRC_E_DATA_UNDECLARED);
        expect_data(m, "db", "/nonexistent/prc-data", PRC_E_DATA_MISSING);
        expect_data(m, "db", t_write(t, "file", "x", 1), PRC_E_DATA_NOT_DIRECTORY);
        char link[1024];
        snprintf(link, sizeof(link), "%s/link", t);
        T_ASSERT(symlink(good, link) == 0);
        expect_data(m, "db", link, PRC_E_DATA_NOT_DIRECTORY);
        expect_data(m, "db", mkdirp(t, "empty"), PRC_E_DATA_EMPTY);
        const char *big = mkdirp(t, "big");
        char zeros[1001] = {0};
        t_write(big, "z", zeros, sizeof(zeros));
        expect_data(m, "db", big, PRC_E_DATA_TOO_LARGE);
        const char *many = mkdirp(t, "many");
        t_write(many, "1", "1", 1), t_write(many, "2", "2", 1), t_write(many, "3", "3", 1), t_write(many, "4", "4", 1);
        expect_data(m, "db", many, PRC_E_DATA_TOO_MANY_FILES);
        const char *sym = mkdirp(t, "sym");
        t_write(sym, "a", "a", 1);
        snprintf(link, sizeof(link), "%s/b", sym);
        T_ASSERT(symlink("a", link) == 0);
        expect_data(m, "db", sym, PRC_E_DATA_SYMLINK);
        const char *fifo = mkdirp(t, "fifo");
        t_write(fifo, "a", "a", 1);
        snprintf(link, sizeof(link), "%s/p", fifo);
        T_ASSERT(mkfifo(link, 0644) == 0);
        expect_data(m, "db", fifo, PRC_E_DATA_NOT_REGULAR);
        /* Duplicate and missing bindings. */
        prc_data_binding two[2] = { { "db", good }, { "db", good } };
        prc_data_input *d = NULL;
        size_t n = 0;
        T_ASSERT(!prc_data_prepare(m, two, 2, &d, &n, &err));
        T_ERR(err, PRC_E_DATA_DUPLICATE);
        prc_err_init(&err);
        T_ASSERT(!prc_data_prepare(m, NULL, 0, &d, &n, &err));
        T_ERR(err, PRC_E_DATA_MISSING);
        prc_manifest_free(m);
}

static void test_oci__data_identity_and_recheck(void)
{
        const char *t = t_tmpdir();
        prc_manifest *m = manifest();
        prc_err err = {0};
        const char *dir = mkdirp(t, "db");
        t_write(dir, "a", "one\n", 4);
        prc_data_binding b = { "db", dir };
        prc_data_input *d = NULL;
        size_t n = 0;
        T_ASSERT(prc_data_prepare(m, &b, 1, &d, &n, &err));
        T_EQ_INT(d[0].files, 1);
        T_EQ_INT(d[0].bytes, 4);
        T_EQ_STR(d[0].destination, "/prc-inputs/db");
        T_ASSERT(prc_data_recheck(m, d, n, &err));
        json_t *id = prc_data_identity_json(d, n);
        char *s = json_dumps(id, JSON_COMPACT);
        T_ASSERT(strstr(s, t) == NULL);        /* the host path never appears */
        free(s);
        json_decref(id);
        t_write(dir, "a", "ONE\n", 4);
        T_ASSERT(!prc_data_recheck(m, d, n, &err));
        T_ERR(err, PRC_E_DATA_CHANGED);
        prc_data_free(d, n);
        prc_manifest_free(m);
}

static void test_oci__data_arg_needs_name_and_dir(void)
{
        prc_err err = {0};
        prc_data_binding b;
        char ok[] = "db=/x", bad1[] = "db", bad2[] = "=/x", bad3[] = "db=";
        T_ASSERT(prc_data_parse_arg(ok, &b, &err));
        T_EQ_STR(b.name, "db");
        T_EQ_STR(b.path, "/x");
        T_ASSERT(!prc_data_parse_arg(bad1, &b, &err));
        T_ERR(err, PRC_E_USAGE);
        T_ASSERT(!prc_data_parse_arg(bad2, &b, &err));
        T_ASSERT(!prc_data_parse_arg(bad3, &b, &err));
}

/* ---- records ------------------------------------------------------------- */

static json_t *sample_record(int version)
{
        json_t *r = json_pack(
                "{s:s,s:s,s:s,s:s,s:s,s:s,s:{s:s,s:s,s:s},s:s,s:{s:i,s:i},s:s,s:n,s:i,s:b,s:s,"
                "s:[{s:s,s:s,s:s,s:[],s:n}],s:{s:i,s:s},s:{s:i,s:s}}",
                "schema", version == 1 ? PRC_RECORD_SCHEMA_V01 : version == 2 ? PRC_RECORD_SCHEMA_V02
                                                                              : PRC_RECORD_SCHEMA_V03,
                "adapter_id", "prc-test.unit@1.0.0", "manifest_sha256", HEX_A, "inventory_digest", HEX_B,
                "snapshot_sha256", HEX_C, "plan_sha256", HEX_A, "runtime", "kind", "docker", "version", "20.10.24",
                "sha256", HEX_B, "image", "127.0.0.1:5000/prc-test/good@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc", "limits", "pids", 8,
                "nofile", 64, "disposition", "accepted", "error_class", "exit_status", 0, "timed_out", 0,
                "summary_status", "completed", "observations", "id", "o1", "kind", "prc-test.secret", "outcome",
                "found", "locations", "value", "stdout", "bytes", 10, "sha256", HEX_C, "stderr", "bytes", 0,
                "sha256", HEX_A);
        T_ASSERT(r != NULL);
        if (version >= 2) {
                prc_resolution res;
                prc_err err = {0};
                T_ASSERT(prc_resolution_local("prc-test.unit@1.0.0", HEX_A, "prc-test", &res, &err));
                json_object_set_new(r, "resolution", prc_resolution_json(&res, &err));
                json_object_set_new(r, "artifacts", json_array());
        }
        if (version >= 3) {
                json_object_set_new(r, "data_inputs", json_array());
                json_object_set_new(r, "snapshot", json_pack("{s:s,s:i,s:i}", "sha256", HEX_C, "files", 1, "bytes", 4));
        }
        return r;
}

static void add_id(json_t *r)
{
        char id[PRC_SHA256_HEX + 1];
        prc_err err = {0};
        T_ASSERT(prc_jcs_id(r, "id", id, &err));
        json_object_set_new(r, "id", json_string(id));
}

static void test_oci__record_seal_gives_the_content_id(void)
{
        prc_err err = {0};
        json_t *r = sample_record(3);
        T_ASSERT(prc_record_seal(r, &err));
        T_NOERR(err);
        char want[PRC_SHA256_HEX + 1];
        T_ASSERT(prc_jcs_id(r, "id", want, &err));
        T_EQ_STR(json_string_value(json_object_get(r, "id")), want);
        int v = 0;
        T_ASSERT(prc_record_check(r, true, &v, &err));
        T_EQ_INT(v, 3);
        /* Any provenance change moves the id. */
        json_t *r2 = sample_record(3);
        json_object_set_new(json_object_get(r2, "runtime"), "version", json_string("20.10.25"));
        T_ASSERT(prc_record_seal(r2, &err));
        T_ASSERT(strcmp(json_string_value(json_object_get(r, "id")), json_string_value(json_object_get(r2, "id"))) != 0);
        json_decref(r2);
        /* Tampering after sealing is caught. */
        json_object_set_new(r, "timed_out", json_true());
        T_ASSERT(!prc_record_check(r, true, NULL, &err));
        T_ERR(err, PRC_E_RECORD_ID_MISMATCH);
        json_decref(r);
}

static void test_oci__archived_records_are_readable(void)
{
        const char *t = t_tmpdir();
        for (int ver = 1; ver <= 3; ver++) {
                prc_err err = {0};
                json_t *r = sample_record(ver);
                add_id(r);
                char *s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
                char name[32];
                snprintf(name, sizeof(name), "rec%d.json", ver);
                const char *p = t_write(t, name, s, strlen(s));
                int got = 0;
                json_t *back = prc_record_load(p, &got, &err);
                T_NOERR(err);
                T_ASSERT(back != NULL);
                T_EQ_INT(got, ver);
                json_decref(back);
                free(s);
                json_decref(r);
        }
        /* Only v0.3 is written. */
        prc_err err = {0};
        json_t *r = sample_record(2);
        T_ASSERT(!prc_record_seal(r, &err));
        T_ERR(err, PRC_E_INTERNAL);
        json_decref(r);
}

static void test_oci__records_are_read_strictly(void)
{
        prc_err err = {0};
        json_t *r = sample_record(3);
        json_object_set_new(r, "host_path", json_string("/home/x"));
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_UNKNOWN_FIELD);
        json_decref(r);
        prc_err_init(&err);
        r = sample_record(1);
        json_object_set_new(r, "data_inputs", json_array());   /* a v0.3 field in a v0.1 record */
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_UNKNOWN_FIELD);
        json_decref(r);
        prc_err_init(&err);
        r = sample_record(3);
        json_object_del(r, "resolution");
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_MISSING_FIELD);
        json_decref(r);
        /* The image is pinned by digest, as schemas/execution-record.schema.json says, in every version. */
        static const char *const unpinned[] = {
                "127.0.0.1:5000/prc-test/good@sha256:1111", "127.0.0.1:5000/prc-test/good:latest",
                "good@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
                "/good@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
                "r/a@b@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
                "r/good@sha256:CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC",
        };
        for (int ver = 1; ver <= 3; ver++)
                for (size_t i = 0; i < PRC_ARRAY_LEN(unpinned); i++) {
                        prc_err_init(&err);
                        r = sample_record(ver);
                        json_object_set_new(r, "image", json_string(unpinned[i]));
                        T_ASSERT(!prc_record_check(r, false, NULL, &err));
                        T_ERR(err, PRC_E_INVALID_VALUE);
                        T_EQ_STR(err.ptr, "/image");
                        json_decref(r);
                }
        prc_err_init(&err);
        r = sample_record(3);
        json_object_set_new(r, "disposition", json_string("rejected"));   /* with observations and no class */
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_INVALID_VALUE);
        json_decref(r);
        prc_err_init(&err);
        r = sample_record(3);
        json_object_set_new(r, "plan_sha256", json_string("ABC"));
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_INVALID_DIGEST);
        json_decref(r);
        prc_err_init(&err);
        r = sample_record(3);
        json_object_set_new(r, "schema", json_string("prc.execution-record/v0.4"));
        T_ASSERT(!prc_record_check(r, false, NULL, &err));
        T_ERR(err, PRC_E_UNKNOWN_SCHEMA_VERSION);
        json_decref(r);
}

static void test_oci__a_record_is_never_evidence(void)
{
        for (int ver = 1; ver <= 3; ver++) {
                prc_err err = {0};
                json_t *r = sample_record(ver);
                add_id(r);
                T_ASSERT(!prc_record_import_evidence(r, &err));
                T_ERR(err, PRC_E_RECORD_NOT_EVIDENCE);
                json_decref(r);
        }
        /* A broken record is named as broken first. */
        prc_err err = {0};
        json_t *r = sample_record(3);
        add_id(r);
        json_object_set_new(r, "exit_status", json_integer(1));
        T_ASSERT(!prc_record_import_evidence(r, &err));
        T_ERR(err, PRC_E_RECORD_ID_MISMATCH);
        json_decref(r);
}

static const prc_test tests[] = {
        T(test_oci__golden_plans),
        T(test_oci__plan_is_pure_and_its_digest_ignores_host_paths),
        T(test_oci__plan_carries_every_control),
        T(test_oci__nproc_is_the_users_own_limit),
        T(test_oci__plan_refuses_ulimits_above_the_host_and_root),
        T(test_oci__limit_reports_decide_enforcement),
        T(test_oci__runtime_kind_parses_only_docker_and_podman),
        T(test_oci__root_is_refused_before_anything_runs),
        T(test_oci__authorization_binds_the_exact_manifest_and_trust),
        T(test_oci__data_rejections_are_named),
        T(test_oci__data_identity_and_recheck),
        T(test_oci__data_arg_needs_name_and_dir),
        T(test_oci__record_seal_gives_the_content_id),
        T(test_oci__archived_records_are_readable),
        T(test_oci__records_are_read_strictly),
        T(test_oci__a_record_is_never_evidence),
};
PRC_SUITE(oci, tests)
