/*
 * test_snapshot.c - the verified private snapshot: copy rules, modes,
 * changes during the copy, ceiling, protocol-owned files, verify, removal
 * on error and on SIGTERM.
 */
#include "t.h"

#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/statfs.h>

#include "base/jcs.h"
#include "base/path.h"
#include "cli/cli.h"
#include "inventory/inventory.h"
#include "inventory/snapshot.h"
#include "test_inventory_fixture.h"

/* Target files live under <tmp>/t, snapshots under <tmp>/s*. */
static prc_inventory *inv_of_target(void)
{
        prc_inventory *inv = NULL;
        prc_err err;

        prc_err_init(&err);
        if (!prc_inventory_build(fx_path("t"), NULL, &inv, &err))
                t_fail(__FILE__, __LINE__, "inventory failed: %s: %s", prc_err_name(err.cls), err.msg);
        return inv;
}

static prc_snapshot *snap_ok(const prc_inventory *inv, const char *out, const prc_snapshot_opts *o)
{
        prc_snapshot *s = NULL;
        prc_err err;

        prc_err_init(&err);
        if (!prc_snapshot_create(inv, out, o, &s, &err))
                t_fail(__FILE__, __LINE__, "snapshot failed: %s: %s", prc_err_name(err.cls), err.msg);
        return s;
}

static prc_err snap_err(const prc_inventory *inv, const char *out, const prc_snapshot_opts *o)
{
        prc_snapshot *s = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_create(inv, out, o, &s, &err));
        T_ASSERT(s == NULL);
        return err;
}

static void seal_ok(prc_snapshot *s)
{
        prc_err err;

        prc_err_init(&err);
        if (!prc_snapshot_seal(s, &err))
                t_fail(__FILE__, __LINE__, "seal failed: %s: %s", prc_err_name(err.cls), err.msg);
        prc_err_init(&err);
        if (!prc_snapshot_verify(s, &err))
                t_fail(__FILE__, __LINE__, "verify failed: %s: %s", prc_err_name(err.cls), err.msg);
}

static bool exists(const char *p)
{
        struct stat st;

        return lstat(p, &st) == 0;
}

static mode_t mode_of(const char *p)
{
        struct stat st;

        if (lstat(p, &st) != 0)
                t_fail(__FILE__, __LINE__, "lstat %s: %s", p, strerror(errno));
        return st.st_mode & 07777;
}

static void sample_target(void)
{
        fx_text("t/README", "readme");
        fx_text("t/src/main.c", "int main(void) { return 0; }\n");
        fx_file("t/bin/run", "#!/bin/sh\n", 10, 0755);
        fx_text("t/empty", "");
        fx_symlink("README", "t/link");
        fx_text("t/.git/HEAD", "ref: x");
        fx_text("t/.prc/target-owned", "not ours");
}

static void test_snapshot__copies_files_with_private_modes(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        char *b;
        size_t n;

        sample_target();
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        T_EQ_STR(prc_snapshot_path(s), fx_path("s"));
        T_EQ_INT(mode_of(fx_path("s")), 0700);
        T_EQ_INT(mode_of(fx_path("s/src")), 0700);
        T_EQ_INT(mode_of(fx_path("s/README")), 0400);
        T_EQ_INT(mode_of(fx_path("s/bin/run")), 0500);
        T_EQ_INT(mode_of(fx_path("s/empty")), 0400);
        b = t_read(fx_path("s/src/main.c"), &n);
        T_EQ_MEM(b, n, "int main(void) { return 0; }\n", 29);
        free(b);
        /* Symlinks and excluded paths are not copied. */
        T_ASSERT(!exists(fx_path("s/link")));
        T_ASSERT(!exists(fx_path("s/.git")));
        T_ASSERT(!exists(fx_path("s/.prc")));
        T_EQ_INT(prc_snapshot_total_bytes(s), 6 + 29 + 10);
        seal_ok(s);
        T_ASSERT(prc_digest_valid(prc_snapshot_digest(s)));
        prc_snapshot_free(s);
        /* Not kept: freeing removes it. */
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

/* The copies' modes are exactly 0400/0500 whatever the umask (one that would drop the x bit too). */
static void test_snapshot__modes_are_exact_under_any_umask(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        mode_t old;

        sample_target();
        inv = inv_of_target();
        old = umask(0177);      /* would drop the owner's x bit from a create mode */
        s = snap_ok(inv, fx_path("s"), NULL);
        umask(old);
        T_EQ_INT(mode_of(fx_path("s/README")), 0400);
        T_EQ_INT(mode_of(fx_path("s/bin/run")), 0500);
        seal_ok(s);
        prc_snapshot_free(s);
        old = umask(022);
        s = snap_ok(inv, fx_path("s"), NULL);
        umask(old);
        T_EQ_INT(mode_of(fx_path("s/README")), 0400);
        T_EQ_INT(mode_of(fx_path("s/bin/run")), 0500);
        seal_ok(s);
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

/* The digest seal writes directly is the JCS digest of the document, for names JSON must escape too
 * (a path never holds a backslash or a control character: prc_path_check refuses them). */
static void test_snapshot__direct_digest_matches_jcs_on_tricky_names(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        const json_t *doc;
        char id[PRC_SHA256_HEX + 1];
        prc_err err;

        fx_text("t/q\"uote", "1");
        fx_text("t/caf\xc3\xa9/\xe2\x82\xac", "3");
        fx_text("t/\xf0\x9f\x98\x80 smile", "4");
        fx_file("t/run", "#!/bin/sh\n", 10, 0755);
        fx_text("t/.gitleaksignore", "x\n");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_add_owned(s, ".prc/gitleaks/original-gitleaksignore", NULL, 0, ".gitleaksignore", &err));
        T_ASSERT(prc_snapshot_add_owned(s, ".prc/a\"b", "owned", 5, NULL, &err));
        seal_ok(s);
        doc = prc_snapshot_to_json(s);
        T_ASSERT(doc != NULL);
        T_ASSERT(prc_snapshot_to_json(s) == doc);          /* built once */
        T_EQ_INT(json_array_size(json_object_get(doc, "entries")), 6);
        prc_err_init(&err);
        T_ASSERT(prc_jcs_id(doc, "snapshot_digest", id, &err));
        T_EQ_STR(id, prc_snapshot_digest(s));
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

static void test_snapshot__digest_is_deterministic_and_documented(void)
{
        prc_snapshot_opts one = { .threads = 1 };
        prc_inventory *inv;
        prc_snapshot *a, *b;
        const json_t *doc;
        char id[PRC_SHA256_HEX + 1];
        prc_err err;

        sample_target();
        for (int i = 0; i < 30; i++) {
                char name[64];
                snprintf(name, sizeof(name), "t/d%d/f%d", i % 4, i);
                fx_big(name, (size_t)i * 1531);
        }
        inv = inv_of_target();
        a = snap_ok(inv, fx_path("s1"), NULL);
        b = snap_ok(inv, fx_path("s2"), &one);
        seal_ok(a);
        seal_ok(b);
        T_EQ_STR(prc_snapshot_digest(a), prc_snapshot_digest(b));
        doc = prc_snapshot_to_json(a);
        T_EQ_STR(json_string_value(json_object_get(doc, "schema")), PRC_SNAPSHOT_SCHEMA);
        T_EQ_STR(json_string_value(json_object_get(doc, "inventory_digest")), prc_inventory_digest(inv));
        T_EQ_INT(json_array_size(json_object_get(doc, "entries")), 34);
        prc_err_init(&err);
        T_ASSERT(prc_jcs_id(doc, "snapshot_digest", id, &err));
        T_EQ_STR(id, prc_snapshot_digest(a));
        prc_snapshot_free(a);
        prc_snapshot_free(b);
        prc_inventory_free(inv);
}

/* Hook: while copying "t/big" (threads 1, path order: big before small), change "small" (same size). */
static void modify_other(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point != PRC_INV_HOOK_COPY_READ || strcmp(rel, "big") != 0)
                return;
        fx_text("t/small", "SAME");
}

static void test_snapshot__file_modified_during_copy_stops_and_cleans_up(void)
{
        prc_snapshot_opts one = { .threads = 1 };
        prc_inventory *inv;
        prc_err err;

        fx_big("t/big", 2u << 20);
        fx_text("t/small", "same");
        inv = inv_of_target();
        prc_inventory_set_test_hook(modify_other, NULL);
        err = snap_err(inv, fx_path("s"), &one);
        prc_inventory_set_test_hook(NULL, NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(strstr(err.msg, "'small'") != NULL);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

/*
 * Hook: after the first chunk of "big" was copied (8 MiB in the kernel, or
 * 1 MiB through user space), rewrite bytes past it (same size): the copy's
 * digest differs whatever the mtime granularity.
 */
static void modify_self(int point, const char *rel, void *arg)
{
        int fd;

        (void)arg;
        if (point != PRC_INV_HOOK_COPY_READ || strcmp(rel, "big") != 0)
                return;
        fd = open(fx_path("t/big"), O_WRONLY);
        T_ASSERT(fd >= 0);
        T_ASSERT(pwrite(fd, "\x01\x02\x03", 3, (10u << 20) + 5) == 3);
        close(fd);
}

static void test_snapshot__file_rewritten_while_copied_stops(void)
{
        prc_inventory *inv;
        prc_err err;

        fx_big("t/big", 12u << 20);
        inv = inv_of_target();
        prc_inventory_set_test_hook(modify_self, NULL);
        err = snap_err(inv, fx_path("s"), NULL);
        prc_inventory_set_test_hook(NULL, NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(strstr(err.msg, "'big'") != NULL);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

static void test_snapshot__user_space_copy_gives_the_same_snapshot(void)
{
        prc_inventory *inv;
        prc_snapshot *a, *b;
        prc_err err;

        sample_target();
        fx_big("t/big", 3u << 20);
        inv = inv_of_target();
        a = snap_ok(inv, fx_path("s1"), NULL);
        prc_inventory_test_force_stream_copy(true);
        b = snap_ok(inv, fx_path("s2"), NULL);
        seal_ok(a);
        seal_ok(b);
        T_EQ_STR(prc_snapshot_digest(a), prc_snapshot_digest(b));
        /* The user-space path catches a rewrite behind the first chunk too. */
        prc_inventory_set_test_hook(modify_self, NULL);
        fx_big("t/big", 12u << 20);
        prc_inventory_free(inv);
        inv = inv_of_target();
        err = snap_err(inv, fx_path("s3"), NULL);
        prc_inventory_set_test_hook(NULL, NULL);
        prc_inventory_test_force_stream_copy(false);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(!exists(fx_path("s3")));
        prc_snapshot_free(a);
        prc_snapshot_free(b);
        prc_inventory_free(inv);
}

static void test_snapshot__changes_since_the_inventory_are_named(void)
{
        prc_inventory *inv;
        prc_err err;

        fx_text("t/a", "aaaa");
        fx_text("t/b", "bbbb");
        inv = inv_of_target();
        fx_text("t/a", "aaaaa");                                /* size */
        err = snap_err(inv, fx_path("s"), NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(strstr(err.msg, "'a'") != NULL);
        fx_text("t/a", "aaaa");
        T_ASSERT(unlink(fx_path("t/b")) == 0);                  /* type: now a symlink */
        fx_symlink("a", "t/b");
        err = snap_err(inv, fx_path("s"), NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(strstr(err.msg, "'b'") != NULL);
        T_ASSERT(unlink(fx_path("t/b")) == 0);                  /* type: now a directory */
        fx_mkdir("t/b");
        err = snap_err(inv, fx_path("s"), NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(rmdir(fx_path("t/b")) == 0);
        fx_text("t/b", "bbbc");                                 /* digest */
        err = snap_err(inv, fx_path("s"), NULL);
        T_ERR(err, PRC_E_SNAP_SOURCE_CHANGED);
        T_ASSERT(strstr(err.msg, "'b'") != NULL);
        T_ASSERT(strstr(err.msg, "SHA-256") != NULL);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

static void test_snapshot__lowered_ceiling_is_enforced(void)
{
        prc_snapshot_opts o = { .ceiling = 100 }, huge = { .ceiling = (uint64_t)1 << 40 };
        prc_inventory *inv;
        prc_snapshot *s;
        prc_err err;

        fx_big("t/a", 60);
        fx_big("t/b", 60);
        inv = inv_of_target();
        err = snap_err(inv, fx_path("s"), &o);
        T_ERR(err, PRC_E_SNAP_TOO_LARGE);
        T_ASSERT(!exists(fx_path("s")));
        /* Exactly at the ceiling is allowed; owned bytes count toward it. */
        o.ceiling = 125;
        s = snap_ok(inv, fx_path("s"), &o);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_add_owned(s, ".prc/cfg", "12345", 5, NULL, &err));
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/cfg2", "x", 1, NULL, &err));
        T_ERR(err, PRC_E_SNAP_TOO_LARGE);
        prc_snapshot_free(s);
        /* The ceiling is never above 4 GiB. */
        s = snap_ok(inv, fx_path("s3"), &huge);
        T_EQ_INT(prc_snapshot_ceiling(s), PRC_SNAPSHOT_CEILING);
        T_EQ_INT(PRC_SNAPSHOT_CEILING, 4294967296LL);
        prc_snapshot_free(s);
        s = snap_ok(inv, fx_path("s4"), NULL);
        T_EQ_INT(prc_snapshot_ceiling(s), PRC_SNAPSHOT_CEILING);
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

static void test_snapshot__existing_out_dir_is_refused_and_untouched(void)
{
        prc_inventory *inv;
        prc_err err;

        fx_text("t/a", "x");
        fx_text("s/precious", "keep me");
        inv = inv_of_target();
        err = snap_err(inv, fx_path("s"), NULL);
        T_ERR(err, PRC_E_SNAP_OUT_EXISTS);
        T_ASSERT(exists(fx_path("s/precious")));
        T_ASSERT(!exists(fx_path("s/a")));
        prc_inventory_free(inv);
}

static void test_snapshot__temporary_dir_when_no_out_dir(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        char path[4096];

        fx_text("t/a", "x");
        fx_mkdir("tmp");
        setenv("TMPDIR", fx_path("tmp"), 1);
        inv = inv_of_target();
        s = snap_ok(inv, NULL, NULL);
        snprintf(path, sizeof(path), "%s", prc_snapshot_path(s));
        T_ASSERT(strncmp(path, fx_path("tmp/prc-snapshot-"), strlen(fx_path("tmp/prc-snapshot-"))) == 0);
        T_EQ_INT(mode_of(path), 0700);
        prc_snapshot_free(s);
        T_ASSERT(!exists(path));
        prc_inventory_free(inv);
}

static void test_snapshot__owned_files_are_listed_and_confined_to_prc(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        const json_t *owned;
        prc_err err;
        char *b;
        size_t n;

        fx_text("t/a", "x");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_add_owned(s, ".prc/syft/config.yaml", "k: v\n", 5, NULL, &err));
        T_NOERR(err);
        T_EQ_INT(mode_of(fx_path("s/.prc/syft/config.yaml")), 0400);
        T_EQ_INT(mode_of(fx_path("s/.prc/syft")), 0700);
        b = t_read(fx_path("s/.prc/syft/config.yaml"), &n);
        T_EQ_MEM(b, n, "k: v\n", 5);
        free(b);
        static const char *const bad[] = { "outside.yaml", ".prc", ".prc/", ".prc/../x", ".prc//x", "/abs",
                                           ".prcx/y", ".prc/a\nb", "a" };
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err_init(&err);
                T_ASSERT(!prc_snapshot_add_owned(s, bad[i], "x", 1, NULL, &err));
                T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        }
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/syft/config.yaml", "x", 1, NULL, &err));
        T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/syft", "x", 1, NULL, &err));      /* is a directory */
        T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        seal_ok(s);
        owned = json_object_get(prc_snapshot_to_json(s), "owned");
        T_EQ_INT(json_array_size(owned), 1);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(owned, 0), "path")), ".prc/syft/config.yaml");
        T_EQ_INT(json_array_size(json_object_get(prc_snapshot_to_json(s), "entries")), 2);
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/late", "x", 1, NULL, &err));
        T_ERR(err, PRC_E_INTERNAL);
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

static void test_snapshot__relocated_file_keeps_its_bytes_elsewhere(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        const json_t *o;
        prc_err err;
        char *b;
        size_t n;

        fx_text("t/.gitleaksignore", "fingerprint-1\n");
        fx_text("t/code.py", "print(1)\n");
        fx_symlink("code.py", "t/alias");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_add_owned(s, ".prc/gitleaks/original-gitleaksignore", NULL, 0, ".gitleaksignore", &err));
        T_ASSERT(!exists(fx_path("s/.gitleaksignore")));
        b = t_read(fx_path("s/.prc/gitleaks/original-gitleaksignore"), &n);
        T_EQ_MEM(b, n, "fingerprint-1\n", 14);
        free(b);
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/again", NULL, 0, ".gitleaksignore", &err));
        T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/l", NULL, 0, "alias", &err));     /* a symlink, not a file */
        T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_add_owned(s, ".prc/m", NULL, 0, "missing", &err));
        T_ERR(err, PRC_E_SNAP_OWNED_PATH);
        seal_ok(s);
        o = json_array_get(json_object_get(prc_snapshot_to_json(s), "owned"), 0);
        T_EQ_STR(json_string_value(json_object_get(o, "relocated_from")), ".gitleaksignore");
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

static void expect_verify_fails(const prc_snapshot *s, const char *needle)
{
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_verify(s, &err));
        T_ERR(err, PRC_E_SNAP_CHANGED);
        if (needle != NULL && strstr(err.msg, needle) == NULL)
                t_fail(__FILE__, __LINE__, "message '%s' lacks '%s'", err.msg, needle);
}

static void test_snapshot__verify_sees_any_change_on_disk(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        prc_err err;

        fx_text("t/a", "aaaa");
        fx_text("t/d/b", "bbbb");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        seal_ok(s);
        /* A rewritten byte (root ignores the 0400 mode, as an attacker with the uid would chmod). */
        T_ASSERT(chmod(fx_path("s/d/b"), 0600) == 0);
        fx_text("s/d/b", "bbbc");
        expect_verify_fails(s, "'d/b'");
        fx_text("s/d/b", "bbbb");
        T_ASSERT(chmod(fx_path("s/d/b"), 0400) == 0);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_verify(s, &err));
        /* An added file, an added symlink, a removed file, a changed executable bit. */
        fx_text("s/extra", "e");
        expect_verify_fails(s, "'extra'");
        T_ASSERT(unlink(fx_path("s/extra")) == 0);
        fx_symlink("a", "s/ln");
        expect_verify_fails(s, "symlink");
        T_ASSERT(unlink(fx_path("s/ln")) == 0);
        T_ASSERT(chmod(fx_path("s/a"), 0500) == 0);
        expect_verify_fails(s, "'a'");
        T_ASSERT(chmod(fx_path("s/a"), 0400) == 0);
        T_ASSERT(unlink(fx_path("s/a")) == 0);
        expect_verify_fails(s, "'a'");
        prc_snapshot_free(s);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

/* The per-directory verify: every kind of change, in a big directory and deep in the tree. */
static void test_snapshot__verify_names_changes_in_large_and_deep_trees(void)
{
        prc_snapshot_opts two = { .threads = 2 };
        prc_inventory *inv;
        prc_snapshot *s;
        prc_err err;
        char name[64];

        /* 600 files in one directory: more than one verify chunk of one directory. */
        for (int i = 0; i < 600; i++) {
                snprintf(name, sizeof(name), "t/big/f%03d", i);
                fx_text(name, name);
        }
        fx_text("t/big/sub/inner", "i");        /* sorts inside big/'s files: a second run of big/ */
        fx_text("t/a/b/c/d/deep", "deep");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), &two);
        seal_ok(s);
        /* A rewritten file in the last chunk of big/, same size. */
        T_ASSERT(chmod(fx_path("s/big/f599"), 0600) == 0);
        fx_text("s/big/f599", "t/big/f59X");
        expect_verify_fails(s, "'big/f599'");
        fx_text("s/big/f599", "t/big/f599");
        T_ASSERT(chmod(fx_path("s/big/f599"), 0400) == 0);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_verify(s, &err));
        /* A FIFO where nothing was sealed, and one in place of a sealed file. */
        T_ASSERT(mkfifo(fx_path("s/a/b/fifo"), 0600) == 0);
        expect_verify_fails(s, "'a/b/fifo'");
        T_ASSERT(unlink(fx_path("s/a/b/fifo")) == 0);
        T_ASSERT(chmod(fx_path("s/a/b/c/d"), 0700) == 0);
        T_ASSERT(rename(fx_path("s/a/b/c/d/deep"), fx_path("s/deep.saved")) == 0);
        T_ASSERT(mkfifo(fx_path("s/a/b/c/d/deep"), 0600) == 0);
        expect_verify_fails(s, "special file at 'a/b/c/d/deep'");
        T_ASSERT(unlink(fx_path("s/a/b/c/d/deep")) == 0);
        /* A directory where a file was sealed. */
        fx_text("s/a/b/c/d/deep/x", "x");
        expect_verify_fails(s, "'a/b/c/d/deep");
        T_ASSERT(unlink(fx_path("s/a/b/c/d/deep/x")) == 0 && rmdir(fx_path("s/a/b/c/d/deep")) == 0);
        T_ASSERT(rename(fx_path("s/deep.saved"), fx_path("s/a/b/c/d/deep")) == 0);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_verify(s, &err));
        /* A directory swapped for a symlink to an identical copy: never followed. */
        T_ASSERT(chmod(fx_path("s/a/b/c"), 0700) == 0);
        T_ASSERT(rename(fx_path("s/a/b/c/d"), fx_path("s/d.real")) == 0);
        fx_symlink(fx_path("s/d.real"), "s/a/b/c/d");
        expect_verify_fails(s, "symlink");
        T_ASSERT(unlink(fx_path("s/a/b/c/d")) == 0);
        T_ASSERT(rename(fx_path("s/d.real"), fx_path("s/a/b/c/d")) == 0);
        /* A file truncated to another size. */
        T_ASSERT(chmod(fx_path("s/big/sub/inner"), 0600) == 0);
        fx_text("s/big/sub/inner", "");
        expect_verify_fails(s, "'big/sub/inner'");
        prc_snapshot_free(s);
        prc_inventory_free(inv);
}

/* Descriptors this process has open. */
static int open_fds(void)
{
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;
        int n = 0;

        T_ASSERT(d != NULL);
        while ((de = readdir(d)) != NULL)
                if (de->d_name[0] != '.')
                        n++;
        closedir(d);
        return n - 1;   /* the listing's own descriptor */
}

/*
 * Issue 16: a directory chain deeper than the path depth limit is a
 * difference, and the walk that stops there closes what it opened.
 */
static void test_snapshot__verify_past_the_depth_limit_closes_its_descriptors(void)
{
        enum { LEVELS = PRC_PATH_DEPTH_MAX + 4 };
        prc_inventory *inv;
        prc_snapshot *s;
        int fds[LEVELS + 1], before;

        fx_text("t/a", "aaaa");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        seal_ok(s);
        T_ASSERT(chmod(fx_path("s"), 0700) == 0);
        fds[0] = open(fx_path("s"), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        T_ASSERT(fds[0] >= 0);
        for (int i = 1; i <= LEVELS; i++) {
                T_ASSERT(mkdirat(fds[i - 1], "d", 0700) == 0);
                fds[i] = openat(fds[i - 1], "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                T_ASSERT(fds[i] >= 0);
        }
        for (int i = 1; i <= LEVELS; i++)
                close(fds[i]);
        before = open_fds();
        for (int round = 0; round < 3; round++)
                expect_verify_fails(s, "'d/d/d/d");
        T_EQ_INT(open_fds(), before);
        /* The deep chain is ours to remove: the snapshot's own removal stops at the depth limit too. */
        for (int i = LEVELS; i >= 1; i--) {
                char p[2 * LEVELS];
                for (int k = 0; k < i; k++) {
                        p[2 * k] = 'd';
                        p[2 * k + 1] = '/';
                }
                p[2 * i - 1] = '\0';   /* "d/d/.../d", i levels */
                T_ASSERT(unlinkat(fds[0], p, AT_REMOVEDIR) == 0);
        }
        close(fds[0]);
        prc_snapshot_free(s);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

/* The snapshot lands in opts->parent when no out_dir is given. */
static void test_snapshot__parent_option_places_the_temporary_dir(void)
{
        prc_snapshot_opts o = { .parent = NULL };
        prc_inventory *inv;
        prc_snapshot *s;
        char parent[4096];

        fx_text("t/a", "a");
        fx_mkdir("place");
        snprintf(parent, sizeof(parent), "%s", fx_path("place"));
        o.parent = parent;
        inv = inv_of_target();
        s = snap_ok(inv, NULL, &o);
        T_ASSERT(strncmp(prc_snapshot_path(s), parent, strlen(parent)) == 0);
        T_ASSERT(strncmp(prc_snapshot_path(s) + strlen(parent), "/prc-snapshot-", 14) == 0);
        T_EQ_INT(mode_of(prc_snapshot_path(s)), 0700);
        seal_ok(s);
        prc_snapshot_free(s);
        T_ASSERT(!exists(fx_path("place/x")) && rmdir(parent) == 0);   /* removed: the directory is empty */
        prc_inventory_free(inv);
}

/* Only a private tmpfs qualifies, and only for snapshots that leave memory to spare. */
static void test_snapshot__tmpfs_parent_is_private_and_bounded(void)
{
        const char *old = getenv("XDG_RUNTIME_DIR");
        char *saved = old ? strdup(old) : NULL;
        const char *p;
        struct statfs fs;
        bool shm_ok = statfs("/dev/shm", &fs) == 0 && (unsigned long)fs.f_type == 0x01021994 &&
                      (mode_of("/dev/shm") & 01000) != 0 && access("/dev/shm", W_OK | X_OK) == 0;

        /* The fixture directory is not tmpfs (or, if it is, is not 0700 ours after a chmod 0755). */
        fx_mkdir("xdg");
        T_ASSERT(chmod(fx_path("xdg"), 0755) == 0);
        T_ASSERT(setenv("XDG_RUNTIME_DIR", fx_path("xdg"), 1) == 0);
        p = prc_snapshot_tmpfs_parent(1);
        T_ASSERT(p == NULL || strcmp(p, "/dev/shm") == 0);
        T_ASSERT((p != NULL) == shm_ok);
        /* Past the tmpfs bound nothing qualifies. */
        T_ASSERT(prc_snapshot_tmpfs_parent(PRC_SNAPSHOT_TMPFS_MAX + 1) == NULL);
        T_ASSERT(unsetenv("XDG_RUNTIME_DIR") == 0);
        T_ASSERT((prc_snapshot_tmpfs_parent(1) != NULL) == shm_ok);
        if (shm_ok) {
                /* A 0700 tmpfs directory of ours is preferred; through a symlink, or group-readable, it is not. */
                char xdg[] = "/dev/shm/prc-test-xdg-XXXXXX", ln[64];
                T_ASSERT(mkdtemp(xdg) != NULL);
                T_ASSERT(setenv("XDG_RUNTIME_DIR", xdg, 1) == 0);
                p = prc_snapshot_tmpfs_parent(1);
                T_ASSERT(p != NULL && strcmp(p, xdg) == 0);
                snprintf(ln, sizeof(ln), "%s.ln", xdg);
                T_ASSERT(symlink(xdg, ln) == 0);
                T_ASSERT(setenv("XDG_RUNTIME_DIR", ln, 1) == 0);
                T_EQ_STR(prc_snapshot_tmpfs_parent(1), "/dev/shm");
                T_ASSERT(chmod(xdg, 0750) == 0);
                T_ASSERT(setenv("XDG_RUNTIME_DIR", xdg, 1) == 0);
                T_EQ_STR(prc_snapshot_tmpfs_parent(1), "/dev/shm");
                T_ASSERT(unlink(ln) == 0 && rmdir(xdg) == 0);
                T_ASSERT(unsetenv("XDG_RUNTIME_DIR") == 0);
        }
        if (saved != NULL)
                T_ASSERT(setenv("XDG_RUNTIME_DIR", saved, 1) == 0);
        free(saved);
}

static void test_snapshot__keep_and_remove(void)
{
        prc_inventory *inv;
        prc_snapshot *s;
        prc_err err;

        fx_text("t/a/b/c", "x");
        inv = inv_of_target();
        s = snap_ok(inv, fx_path("s"), NULL);
        prc_snapshot_keep(s);
        prc_snapshot_free(s);
        T_ASSERT(exists(fx_path("s/a/b/c")));
        s = snap_ok(inv, fx_path("s2"), NULL);
        prc_err_init(&err);
        T_ASSERT(prc_snapshot_remove(s, &err));
        T_ASSERT(!exists(fx_path("s2")));
        T_ASSERT(prc_snapshot_remove(s, &err));         /* idempotent */
        prc_err_init(&err);
        T_ASSERT(!prc_snapshot_verify(s, &err));        /* not sealed: a caller bug */
        T_ERR(err, PRC_E_INTERNAL);
        prc_snapshot_free(s);
        /* rmtree_at never follows a symlink out of the tree it removes. */
        fx_text("outside/keep", "k");
        fx_mkdir("victim");
        fx_symlink(fx_path("outside"), "victim/ln");
        {
                int fd = open(t_tmpdir(), O_RDONLY | O_DIRECTORY);
                prc_err_init(&err);
                T_ASSERT(prc_snapshot_rmtree_at(fd, "victim", &err));
                close(fd);
        }
        T_ASSERT(!exists(fx_path("victim")));
        T_ASSERT(exists(fx_path("outside/keep")));
        prc_inventory_free(inv);
}

static volatile sig_atomic_t cancel_flag;

static void set_cancel(int point, const char *rel, void *arg)
{
        (void)rel;
        (void)arg;
        if (point == PRC_INV_HOOK_COPY_READ)
                cancel_flag = 1;
}

static void test_snapshot__cancel_flag_stops_and_removes(void)
{
        prc_snapshot_opts o = { .threads = 1, .cancel = &cancel_flag };
        prc_inventory *inv;
        prc_err err;

        for (int i = 0; i < 10; i++) {
                char name[32];
                snprintf(name, sizeof(name), "t/f%d", i);
                fx_big(name, 1000 + (size_t)i);
        }
        inv = inv_of_target();
        prc_inventory_set_test_hook(set_cancel, NULL);
        err = snap_err(inv, fx_path("s"), &o);
        prc_inventory_set_test_hook(NULL, NULL);
        T_ERR(err, PRC_E_SNAP_INTERRUPTED);
        T_ASSERT(!exists(fx_path("s")));
        prc_inventory_free(inv);
}

/* Hook for the CLI test: SIGTERM ourselves in the middle of the copy. */
static void send_sigterm(int point, const char *rel, void *arg)
{
        (void)rel;
        (void)arg;
        if (point == PRC_INV_HOOK_COPY_READ)
                kill(getpid(), SIGTERM);
}

static void test_snapshot__sigterm_during_prc_snapshot_removes_the_tree(void)
{
        char target[4096], out[4096];
        pid_t pid;
        int st = 0;

        for (int i = 0; i < 10; i++) {
                char name[32];
                snprintf(name, sizeof(name), "t/f%d", i);
                fx_big(name, 5000 + (size_t)i);
        }
        snprintf(target, sizeof(target), "%s", fx_path("t"));
        snprintf(out, sizeof(out), "%s", fx_path("s"));
        fflush(NULL);
        pid = fork();
        if (pid == 0) {
                char *argv[] = { "snapshot", "--target", target, "--out", out, NULL };
                int fd = open("/dev/null", O_WRONLY);
                dup2(fd, 2);                    /* the diagnostic is expected */
                prc_inventory_set_test_hook(send_sigterm, NULL);
                _exit(cmd_snapshot(5, argv) == 0 ? 0 : 42);
        }
        T_ASSERT(waitpid(pid, &st, 0) == pid);
        T_ASSERT(WIFSIGNALED(st));
        T_EQ_INT(WTERMSIG(st), SIGTERM);
        T_ASSERT(!exists(out));
}

static const prc_test tests[] = {
        T(test_snapshot__copies_files_with_private_modes),
        T(test_snapshot__modes_are_exact_under_any_umask),
        T(test_snapshot__digest_is_deterministic_and_documented),
        T(test_snapshot__direct_digest_matches_jcs_on_tricky_names),
        T(test_snapshot__file_modified_during_copy_stops_and_cleans_up),
        T(test_snapshot__file_rewritten_while_copied_stops),
        T(test_snapshot__user_space_copy_gives_the_same_snapshot),
        T(test_snapshot__changes_since_the_inventory_are_named),
        T(test_snapshot__lowered_ceiling_is_enforced),
        T(test_snapshot__existing_out_dir_is_refused_and_untouched),
        T(test_snapshot__temporary_dir_when_no_out_dir),
        T(test_snapshot__owned_files_are_listed_and_confined_to_prc),
        T(test_snapshot__relocated_file_keeps_its_bytes_elsewhere),
        T(test_snapshot__verify_sees_any_change_on_disk),
        T(test_snapshot__verify_names_changes_in_large_and_deep_trees),
        T(test_snapshot__verify_past_the_depth_limit_closes_its_descriptors),
        T(test_snapshot__parent_option_places_the_temporary_dir),
        T(test_snapshot__tmpfs_parent_is_private_and_bounded),
        T(test_snapshot__keep_and_remove),
        T(test_snapshot__cancel_flag_stops_and_removes),
        T(test_snapshot__sigterm_during_prc_snapshot_removes_the_tree),
};
PRC_SUITE(snapshot, tests)
