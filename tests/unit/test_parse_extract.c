/*
 * test_parse_extract.c - PRC_REQ_PARSE_FIRST (one trip: the parse's
 * verdict, then the extraction) answers exactly what the scan's two trips
 * answer (a verdict-only PRC_OP_PARSE, then PRC_OP_EXTRACT when it
 * passed): the same ManifestDoc, or the same first refusal (class, offset,
 * line, column, pointer, message), over every file of
 * ../shared/corpora/manifests under its own name and every input of the
 * parser suites and the attack corpus under manifest names of its format.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/file.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "content/docenc.h"
#include "content/extract/extract.h"
#include "content/frame.h"
#include "engine/manifests.h"

struct pe_run {
        prc_client *c;
        size_t      compared, refused, first_refusals;
};

static const char *worker_path(void)
{
        static char p[4200];
        snprintf(p, sizeof(p), "%s/build/test/helpers/worker", t_root());
        return p;
}

static char *doc_text(const json_t *v)
{
        prc_buf b;
        prc_err err;
        size_t n;

        prc_err_init(&err);
        prc_buf_init(&b, 1u << 30);
        T_ASSERT(prc_docenc_write(v, &b, &err));
        return (char *)prc_buf_take(&b, &n, &err);
}

/* The scan's two trips: the verdict-only parse, then (only when it passed) the extraction. */
static bool two_trips(prc_client *c, uint16_t fmt, const char *path, const prc_buf *in, json_t **md, prc_err *err)
{
        json_t *v = NULL;
        bool ok = prc_client_call(c, PRC_OP_PARSE, fmt, PRC_REQ_VERDICT, path, NULL, 0, in->data, in->len, true, &v,
                                  err);

        json_decref(v);
        return ok && prc_client_extract(c, NULL, path, in->data, in->len, md, err);
}

/* name: the path the worker sees (its file name picks the extractor); skipped unless the scan would do both. */
static void compare(struct pe_run *r, const char *name, const prc_buf *in)
{
        const char *fmt = prc_manifest_format_for(name);
        uint16_t code = fmt != NULL ? prc_format_by_name(fmt) : 0;
        json_t *a = NULL, *b = NULL;
        prc_err ea, eb;
        bool oka, okb;

        if (code == 0 || strcmp(fmt, "shell") == 0 || prc_extractor_for_path(name) == NULL)
                return;
        prc_err_init(&ea);
        prc_err_init(&eb);
        oka = two_trips(r->c, code, name, in, &a, &ea);
        okb = prc_client_parse_extract(r->c, code, name, in->data, in->len, &b, &eb);
        r->compared++;
        if (oka != okb)
                t_fail(__FILE__, __LINE__, "%s: two trips %s (%s: %s), one trip %s (%s: %s)", name,
                       oka ? "extract" : "refuse", prc_err_name(ea.cls), ea.msg, okb ? "extracts" : "refuses",
                       prc_err_name(eb.cls), eb.msg);
        if (oka && okb) {
                char *ta = doc_text(a), *tb = doc_text(b);
                if (strcmp(ta, tb) != 0)
                        t_fail(__FILE__, __LINE__, "%s: the ManifestDocs differ", name);
                free(ta);
                free(tb);
        }
        if (!oka && !okb) {
                r->refused++;
                if (!prc_err_same(&ea, &eb) || strcmp(ea.file, eb.file) != 0)
                        t_fail(__FILE__, __LINE__, "%s: two trips refuse %s at %u:%u (%s), one trip %s at %u:%u (%s)",
                               name, prc_err_name(ea.cls), ea.line, ea.col, ea.msg, prc_err_name(eb.cls), eb.line,
                               eb.col, eb.msg);
        }
        json_decref(a);
        json_decref(b);
}

/* A client of the test worker that answers every request itself (no cache). */
static prc_client *pe_client(void)
{
        prc_client_opts o;
        prc_client *c;
        prc_err err;

        prc_client_opts_default(&o);
        o.worker_path = worker_path();
        o.cache_max = 0;        /* every answer from the worker */
        prc_err_init(&err);
        c = prc_client_new(&o, &err);
        T_ASSERT(c != NULL);
        return c;
}

/* text under the name the worker sees, compared one trip against two. */
static void compare_text(struct pe_run *r, const char *name, const char *text)
{
        prc_buf in;
        prc_err err;

        prc_err_init(&err);
        prc_buf_init(&in, 1u << 20);
        T_ASSERT(prc_buf_put(&in, text, strlen(text), &err));
        compare(r, name, &in);
        prc_buf_clear(&in);
}

/* Each regular file under dir (rel: its path from the walk's root), read and passed to fn. */
static void walk(struct pe_run *r, const char *dir, const char *rel, const char *const *names)
{
        DIR *d = opendir(dir);
        struct dirent *de;

        T_ASSERT(d != NULL);
        while ((de = readdir(d)) != NULL) {
                char p[4096], q[4096];
                struct stat st;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
                snprintf(q, sizeof(q), "%s%s%s", rel, rel[0] ? "/" : "", de->d_name);
                if (lstat(p, &st) != 0)
                        continue;
                if (S_ISDIR(st.st_mode)) {
                        walk(r, p, q, names);
                } else if (S_ISREG(st.st_mode) && st.st_size <= (off_t)prc_limits_default.input_max) {
                        prc_buf in;
                        prc_err err;

                        prc_err_init(&err);
                        prc_buf_init(&in, prc_limits_default.input_max);
                        T_ASSERT(prc_file_read(p, prc_limits_default.input_max, 0, &in, &err));
                        if (names == NULL)
                                compare(r, q, &in);     /* a manifest under its own path */
                        for (size_t i = 0; names != NULL && names[i] != NULL; i++)
                                compare(r, names[i], &in);
                        prc_buf_clear(&in);
                }
        }
        closedir(d);
}

static void test_parse_extract__one_trip_answers_as_two_over_the_corpora(void)
{
        static const char *const json[] = { "package-lock.json", "composer.json", NULL };
        static const char *const toml[] = { "pyproject.toml", "Cargo.lock", NULL };
        static const char *const yaml[] = { "pnpm-lock.yaml", "action.yml", NULL };
        static const char *const xml[] = { "pom.xml", "packages.config", NULL };
        static const char *const ini[] = { "setup.cfg", NULL };
        static const char *const any[] = { "package.json", "pyproject.toml", "pnpm-lock.yaml", "pom.xml", NULL };
        static const struct {
                const char         *dir;
                const char *const *names;
        } suites[] = {
                { "manifests", NULL },
                { "parsers/json-JSONTestSuite", json },
                { "parsers/jsonc-json5-tests", json },
                { "parsers/toml-test", toml },
                { "parsers/yaml-test-suite", yaml },
                { "parsers/xml-libxml2", xml },
                { "parsers/xml-defusedxml", xml },
                { "parsers/attacks/json", json },
                { "parsers/attacks/toml", toml },
                { "parsers/attacks/yaml", yaml },
                { "parsers/attacks/xml", xml },
                { "parsers/attacks/ini", ini },
                { "parsers/attacks/utf8", any },
        };
        const char *c = t_corpora();
        struct pe_run r = { 0 };

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "../shared/corpora is absent; this test reads its manifests and suites");
        r.c = pe_client();
        for (size_t i = 0; i < PRC_ARRAY_LEN(suites); i++) {
                char dir[4096];
                snprintf(dir, sizeof(dir), "%s/%s", c, suites[i].dir);
                walk(&r, dir, "", suites[i].names);
        }
        /* The manifests alone are some 500 extracted files; the suites add thousands of refusals. */
        T_ASSERT(r.compared >= 3000);
        T_ASSERT(r.refused >= 1000);
        prc_client_free(r.c);
}

/*
 * The worker keeps the verdict's YAML tree for the extractor's own load of
 * the same bytes (yaml.h prc_yaml_keep), with positions for the Actions
 * extractors: on prc's own fixtures (no corpora needed) and on documents
 * that stream, fall back at a merge key, or are refused (where the parse
 * with positions is made again without them), one trip answers as two.
 */
static void test_parse_extract__kept_yaml_trees_answer_as_two_trips(void)
{
        static const char *const dirs[] = { "actions", "npm/pnpm-v5", "npm/pnpm-v6", "npm/pnpm-v9", "npm/bad" };
        static const struct {
                const char *name, *text;
        } docs[] = {
                { ".github/workflows/merge.yml",
                  "x: &r {runs-on: ubuntu-latest}\non: push\njobs:\n  b:\n    <<: *r\n    steps:\n      - run: ls\n" },
                { "action.yml", "runs: {using: composite, steps: [{run: ls, shell: bash}]}\nname: &n a\nauthor: *n\n" },
                { "action.yml", "runs: [\n" },
                { ".github/workflows/dup.yml", "on: push\non: pull_request\n" },
                { ".github/workflows/tab.yml", "on:\n\tpush\n" },
                { "pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters: {.: {}}\nlockfileVersion: '9.0'\n" },
                { "pnpm-lock.yaml", "- not a mapping\n" },
        };
        struct pe_run r = { .c = pe_client() };
        for (size_t i = 0; i < PRC_ARRAY_LEN(dirs); i++) {
                char dir[4096];
                snprintf(dir, sizeof(dir), "%s/tests/fixtures/extract/%s", t_root(), dirs[i]);
                walk(&r, dir, "", NULL);
        }
        T_EQ_INT(r.compared, 8);        /* two Actions files, four pnpm-locks, the bad package.json and lock */
        for (size_t i = 0; i < PRC_ARRAY_LEN(docs); i++)
                compare_text(&r, docs[i].name, docs[i].text);
        T_EQ_INT(r.compared, 8 + PRC_ARRAY_LEN(docs));
        T_ASSERT(r.refused >= 4);
        prc_client_free(r.c);
}

/* A fixture of prc's own (tests/fixtures/extract/...) into in (the caller clears it). */
static void read_fixture(const char *fixture, prc_buf *in)
{
        char path[4096];
        prc_err err;

        snprintf(path, sizeof(path), "%s/tests/fixtures/extract/%s", t_root(), fixture);
        prc_err_init(&err);
        prc_buf_init(in, prc_limits_default.input_max);
        T_ASSERT(prc_file_read(path, prc_limits_default.input_max, 0, in, &err));
}

/* A fixture of prc's own read under the name the worker sees. */
static void compare_file(struct pe_run *r, const char *fixture, const char *name)
{
        prc_buf in;

        read_fixture(fixture, &in);
        compare(r, name, &in);
        prc_buf_clear(&in);
}

/* Fixtures under names, then texts under names, each one trip against two: all compared. */
struct pe_file {
        const char *fixture, *name;
};
struct pe_doc {
        const char *name, *text;
};

static void compare_all(struct pe_run *r, const struct pe_file *f, size_t nf, const struct pe_doc *d, size_t nd)
{
        size_t before = r->compared;

        for (size_t i = 0; i < nf; i++)
                compare_file(r, f[i].fixture, f[i].name);
        T_EQ_INT(r->compared, before + nf);
        for (size_t i = 0; i < nd; i++)
                compare_text(r, d[i].name, d[i].text);
        T_EQ_INT(r->compared, before + nf + nd);
}

/*
 * The worker keeps the verdict's XML and TOML trees for the extractor's own
 * parse of the same bytes (base/kept.h); a TOML tree with an integer beyond
 * +-(2^53-1), which the verdict types and the extractor does not, is not
 * kept.  On prc's own fixtures and on documents that are refused, hold such
 * an integer, or hold other typed values, one trip answers as two.
 */
static void test_parse_extract__kept_xml_and_toml_trees_answer_as_two_trips(void)
{
        static const struct pe_file files[] = {
                { "cargo/Cargo.toml", "Cargo.toml" },
                { "cargo/lock-v3.lock", "Cargo.lock" },
                { "python/pyproject.toml", "pyproject.toml" },
                { "python/poetry-2.0.lock", "poetry.lock" },
                { "maven/interpolation.pom.xml", "pom.xml" },
                { "maven/no-artifact.pom.xml", "pom.xml" },
                { "nuget/App.csproj", "App.csproj" },
                { "nuget/packages.config", "packages.config" },
                { "nuget/bad-packages.config", "packages.config" },
        };
        static const struct pe_doc docs[] = {
                { "Cargo.toml",
                  "[package]\nname = \"a\"\nversion = \"1.0.0\"\n[package.metadata]\nbig = 9007199254740993\n" },
                { "Cargo.lock", "version = 9007199254740993\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n" },
                { "Cargo.lock",
                  "version = 3\n[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n[metadata]\nd = 1979-05-27\n" },
                { "pyproject.toml", "[project\n" },
                { "pyproject.toml", "[project]\nname = \"a\"\nname = \"b\"\n" },
                { "pom.xml", "<project><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>" },
                { "pom.xml", "<project><a></project>" },
                { "packages.config",
                  "<!DOCTYPE p [<!ENTITY e \"v\">]><packages><package id=\"&e;\" version=\"1\"/></packages>" },
                { "packages.config", "<packages><package id=\"x\" version=\"1.0\"/></packages>" },
        };
        struct pe_run r = { .c = pe_client() };

        compare_all(&r, files, PRC_ARRAY_LEN(files), docs, PRC_ARRAY_LEN(docs));
        T_ASSERT(r.refused >= 4);
        prc_client_free(r.c);
}

/*
 * The worker keeps the verdict's JSON tree for the npm and Composer
 * extractors, which read the file with the verdict's own reader and flags
 * or more (extract.h json_tree): the verdict is then made from that tree, and one trip must
 * still answer as two (the same ManifestDoc, or the same first refusal,
 * the reply cap's included) on prc's own fixtures and on documents that
 * are refused, hold reals or duplicate keys, or do not fit a small cap.
 */
static void test_parse_extract__kept_json_trees_answer_as_two_trips(void)
{
        static const struct pe_file files[] = {
                { "npm/lock-v1/package-lock.json", "package-lock.json" },
                { "npm/lock-v2/package-lock.json", "package-lock.json" },
                { "npm/lock-v3/package-lock.json", "package-lock.json" },
                { "npm/package.json", "package.json" },
                { "npm/bad/package-lock.json", "package-lock.json" },
                { "npm/bad/package.json", "package.json" },
                { "composer/composer.json", "composer.json" },
                { "composer/composer.lock", "composer.lock" },
        };
        static const struct pe_doc docs[] = {
                { "package.json", "{\"name\": \"a\", \"version\": \"1.0.0\", \"x\": 2.5}" },
                { "package.json", "{\"name\": \"a\", \"name\": \"b\"}" },
                { "package.json", "{\"name\": \"a\", \"n\": 9007199254740993}" },
                { "package.json", "{\"name\": \"a\"" },
                { "package.json", "[1, 2]" },
                { "package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {\"\": {}}}" },
                { "package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {\"\": {}}} x" },
                { "composer.lock", "{\"packages\": [{\"name\": \"a/b\", \"version\": \"1.0\", \"time\": 1.5}]}" },
                { "composer.lock", "{\"packages\": [], \"n\": 9007199254740993}" },
                { "composer.json", "{\"require\": {\"a/b\": \"^1\"}, \"require\": {}}" },
        };
        struct pe_run r = { .c = pe_client() };
        prc_client_opts o;
        prc_err err;

        compare_all(&r, files, PRC_ARRAY_LEN(files), docs, PRC_ARRAY_LEN(docs));
        T_ASSERT(r.refused >= 6);
        prc_client_free(r.c);

        /*
         * Reply caps: one the lockfile's tree does not fit (the verdict from
         * the tree names it as the stream does); for 300 zeros (2,715 bytes
         * encoded from 607), one they exceed though half the text would not
         * (the count is walked: a looser bound than 9 a byte would pass it),
         * and one the size bound covers (not counted) or just misses.
         */
        {
                static const uint32_t caps[] = { 512, 2000, 9 * 607, 9 * 607 - 1 };
                static const size_t refusals[] = { 1, 1, 0, 0 };
                char zeros[700] = "{\"a\":[0";
                size_t k = strlen(zeros);

                for (int i = 1; i < 300; i++, k += 2)
                        memcpy(zeros + k, ",0", 2);
                memcpy(zeros + k, "]}", 3);
                T_EQ_INT(strlen(zeros), 607);
                for (size_t i = 0; i < PRC_ARRAY_LEN(caps); i++) {
                        prc_client_opts_default(&o);
                        o.worker_path = worker_path();
                        o.cache_max = 0;
                        o.reply_max = caps[i];
                        prc_err_init(&err);
                        r = (struct pe_run){ .c = prc_client_new(&o, &err) };
                        T_ASSERT(r.c != NULL);
                        if (i == 0)
                                compare_file(&r, "npm/lock-v3/package-lock.json", "package-lock.json");
                        else
                                compare_text(&r, "package.json", zeros);
                        T_EQ_INT(r.compared, 1);
                        T_EQ_INT(r.refused, refusals[i]);
                        prc_client_free(r.c);
                }
        }
}

/* One trip of text under name, which must extract. */
static void one_trip_extracts(prc_client *c, const char *name, const uint8_t *p, size_t n)
{
        const char *fmt = prc_manifest_format_for(name);
        json_t *md = NULL;
        prc_err err;

        T_ASSERT(fmt != NULL && prc_extractor_for_path(name) != NULL);
        prc_err_init(&err);
        if (!prc_client_parse_extract(c, prc_format_by_name(fmt), name, p, n, &md, &err))
                t_fail(__FILE__, __LINE__, "%s: %s: %s", name, prc_err_name(err.cls), err.msg);
        json_decref(md);
}

/*
 * Under a "prc-test-kept/" path the test worker refuses an extraction that
 * took no tree of the verdict's (worker.c), so these extract only if each
 * kind of kept tree (YAML with and without positions, XML, TOML, JSON) is
 * made and is the one its extractor used: the file is parsed once.
 * (npm-shrinkwrap.json has no parse verdict, engine/manifests.c: it is
 * extracted alone.)
 */
static void test_parse_extract__each_kept_tree_is_taken_by_its_extractor(void)
{
        static const struct pe_file files[] = {
                { "npm/lock-v3/package-lock.json", "prc-test-kept/package-lock.json" },
                { "npm/lock-v1/package-lock.json", "prc-test-kept/package-lock.json" },
                { "npm/package.json", "prc-test-kept/package.json" },
                { "composer/composer.lock", "prc-test-kept/composer.lock" },
                { "composer/composer.json", "prc-test-kept/composer.json" },
                { "npm/pnpm-v9/pnpm-lock.yaml", "prc-test-kept/pnpm-lock.yaml" },
                { "cargo/lock-v3.lock", "prc-test-kept/Cargo.lock" },
                { "python/pyproject.toml", "prc-test-kept/pyproject.toml" },
                { "maven/interpolation.pom.xml", "prc-test-kept/pom.xml" },
                { "nuget/packages.config", "prc-test-kept/packages.config" },
        };
        static const char action[] = "runs: {using: composite, steps: [{run: ls, shell: bash}]}\n";
        prc_client *c = pe_client();
        json_t *md = NULL;
        prc_err err;

        for (size_t i = 0; i < PRC_ARRAY_LEN(files); i++) {
                prc_buf in;

                read_fixture(files[i].fixture, &in);
                one_trip_extracts(c, files[i].name, in.data, in.len);
                prc_buf_clear(&in);
        }
        one_trip_extracts(c, "prc-test-kept/action.yml", (const uint8_t *)action, sizeof(action) - 1);
        /* The hook itself: an extraction with no verdict before it took no tree, and is refused. */
        prc_err_init(&err);
        T_ASSERT(!prc_client_extract(c, NULL, "prc-test-kept/action.yml", (const uint8_t *)action, sizeof(action) - 1,
                                     &md, &err));
        T_EQ_STR(prc_err_name(err.cls), "internal");
        prc_client_free(c);
}

static const prc_test tests[] = {
        T(test_parse_extract__one_trip_answers_as_two_over_the_corpora),
        T(test_parse_extract__kept_yaml_trees_answer_as_two_trips),
        T(test_parse_extract__kept_xml_and_toml_trees_answer_as_two_trips),
        T(test_parse_extract__kept_json_trees_answer_as_two_trips),
        T(test_parse_extract__each_kept_tree_is_taken_by_its_extractor),
};
PRC_SUITE(parse_extract, tests)
