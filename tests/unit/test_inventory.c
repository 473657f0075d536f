/*
 * test_inventory.c - the sealed inventory: walk rules, hostile trees,
 * changes during the walk and during hashing, listing format, digest.
 */
#include "t.h"

#include <jansson.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "base/jcs.h"
#include "inventory/inventory.h"
#include "inventory/safeopen.h"
#include "test_inventory_fixture.h"

#define EMPTY_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static prc_inventory *build_ok(const prc_inventory_opts *o)
{
        prc_inventory *inv = NULL;
        prc_err err;

        prc_err_init(&err);
        if (!prc_inventory_build(t_tmpdir(), o, &inv, &err))
                t_fail(__FILE__, __LINE__, "build failed: %s: %s", prc_err_name(err.cls), err.msg);
        T_NOERR(err);
        return inv;
}

static prc_err build_err(const prc_inventory_opts *o)
{
        prc_inventory *inv = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_inventory_build(t_tmpdir(), o, &inv, &err));
        T_ASSERT(inv == NULL);
        return err;
}

/* build_err with the test hook fn(arg) installed for that build only. */
static prc_err build_err_hooked(const prc_inventory_opts *o, prc_inv_hook_fn fn, void *arg)
{
        prc_err err;

        prc_inventory_set_test_hook(fn, arg);
        err = build_err(o);
        prc_inventory_set_test_hook(NULL, NULL);
        return err;
}

static const prc_inv_entry *entry(const prc_inventory *inv, const char *path)
{
        long i = prc_inventory_find(inv, path);

        if (i < 0)
                t_fail(__FILE__, __LINE__, "no entry '%s'", path);
        return prc_inventory_entry(inv, (size_t)i);
}

static char *canon(const prc_inventory *inv)
{
        prc_buf b;
        prc_err err;
        size_t n;
        char *s;

        prc_buf_init(&b, 1u << 30);
        prc_err_init(&err);
        T_ASSERT(prc_jcs_write(prc_inventory_to_json(inv), &b, &err));
        s = (char *)prc_buf_take(&b, &n, &err);
        T_ASSERT(s != NULL);
        return s;
}

static void test_inventory__records_files_symlinks_sorted_bytewise(void)
{
        prc_inventory *inv;
        const prc_inv_entry *e;
        char id[PRC_SHA256_HEX + 1];
        prc_err err;

        fx_text("a/b", "one");
        fx_text("a.b", "two");
        fx_text("a0", "");
        fx_file("run.sh", "#!/bin/sh\n", 10, 0755);
        fx_symlink("a.b", "link");
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 5);
        /* bytewise: '.' (0x2e) < '/' (0x2f) < '0' (0x30) */
        T_EQ_STR(prc_inventory_entry(inv, 0)->path, "a.b");
        T_EQ_STR(prc_inventory_entry(inv, 1)->path, "a/b");
        T_EQ_STR(prc_inventory_entry(inv, 2)->path, "a0");
        T_EQ_STR(prc_inventory_entry(inv, 3)->path, "link");
        T_EQ_STR(prc_inventory_entry(inv, 4)->path, "run.sh");
        e = entry(inv, "a/b");
        T_EQ_INT(e->type, PRC_INV_FILE);
        T_EQ_INT(e->size, 3);
        T_EQ_STR(e->sha256, "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed");
        T_ASSERT(!e->executable && !e->oversized);
        e = entry(inv, "a0");
        T_EQ_INT(e->size, 0);
        T_EQ_STR(e->sha256, EMPTY_SHA);
        T_ASSERT(entry(inv, "run.sh")->executable);
        e = entry(inv, "link");
        T_EQ_INT(e->type, PRC_INV_SYMLINK);
        T_EQ_STR(e->sha256, "");
        T_EQ_INT(prc_inventory_total_bytes(inv), 16);
        T_ASSERT(prc_inventory_complete(inv));
        /* The digest is the canonical listing's ID over every field but itself. */
        prc_err_init(&err);
        T_ASSERT(prc_jcs_id(prc_inventory_to_json(inv), "inventory_digest", id, &err));
        T_EQ_STR(id, prc_inventory_digest(inv));
        T_EQ_STR(json_string_value(json_object_get(prc_inventory_to_json(inv), "inventory_digest")), id);
        T_EQ_STR(json_string_value(json_object_get(prc_inventory_to_json(inv), "schema")), PRC_INVENTORY_SCHEMA);
        prc_inventory_free(inv);
}

static void test_inventory__listing_json_has_the_documented_fields(void)
{
        prc_inventory *inv;
        char *s;

        fx_text("f", "x");
        fx_symlink("f", "l");
        inv = build_ok(NULL);
        s = canon(inv);
        T_ASSERT(strstr(s, "{\"executable\":false,\"oversized\":false,\"path\":\"f\",\"sha256\":"
                           "\"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881\",\"size\":1,"
                           "\"type\":\"file\"}") != NULL);
        T_ASSERT(strstr(s, "{\"path\":\"l\",\"type\":\"symlink\"}") != NULL);
        T_ASSERT(strstr(s, "\"skipped\":{\"block_device\":0,\"char_device\":0,\"fifo\":0,\"socket\":0}") != NULL);
        T_ASSERT(strstr(s, "\"excluded\":[]") != NULL);
        T_ASSERT(strstr(s, "\"unrepresentable\":[]") != NULL);
        free(s);
        prc_inventory_free(inv);
}

static void test_inventory__symlink_outside_is_recorded_never_followed(void)
{
        prc_inventory *inv;

        fx_text("in", "x");
        fx_symlink("/etc", "etc");
        fx_symlink("/etc/passwd", "passwd");
        fx_symlink("../../..", "up");
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 4);
        T_EQ_INT(entry(inv, "etc")->type, PRC_INV_SYMLINK);
        T_EQ_INT(entry(inv, "passwd")->type, PRC_INV_SYMLINK);
        T_EQ_INT(entry(inv, "up")->type, PRC_INV_SYMLINK);
        T_ASSERT(prc_inventory_find(inv, "etc/passwd") < 0);
        T_EQ_INT(prc_inventory_total_bytes(inv), 1);
        prc_inventory_free(inv);
}

static void test_inventory__symlink_loops_end(void)
{
        prc_inventory *inv;

        fx_mkdir("d");
        fx_symlink("b", "a");
        fx_symlink("a", "b");
        fx_symlink(".", "d/self");
        fx_symlink("..", "d/parent");
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 4);
        T_EQ_INT(entry(inv, "d/self")->type, PRC_INV_SYMLINK);
        T_EQ_INT(entry(inv, "d/parent")->type, PRC_INV_SYMLINK);
        prc_inventory_free(inv);
}

/* Hook: when the walk has lstat'ed "sub", swap it for a symlink to a directory outside. */
static void swap_to_symlink(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point != PRC_INV_HOOK_DIR_STATED || strcmp(rel, "sub") != 0)
                return;
        T_ASSERT(rename(fx_path("sub"), fx_path("moved")) == 0);
        T_ASSERT(symlink("/etc", fx_path("sub")) == 0);
}

static void test_inventory__directory_swapped_for_symlink_fails(void)
{
        prc_err err;

        fx_text("sub/f", "x");
        err = build_err_hooked(NULL, swap_to_symlink, NULL);
        T_ERR(err, PRC_E_INV_TREE_CHANGED);
        T_ASSERT(strstr(err.msg, "'sub'") != NULL);
}

static void swap_to_other_dir(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point != PRC_INV_HOOK_DIR_STATED || strcmp(rel, "sub") != 0)
                return;
        T_ASSERT(rename(fx_path("sub"), fx_path("moved")) == 0);
        T_ASSERT(rename(fx_path("other"), fx_path("sub")) == 0);
}

static void test_inventory__directory_swapped_for_another_directory_fails(void)
{
        prc_err err;

        fx_text("sub/f", "x");
        fx_text("other/g", "y");
        err = build_err_hooked(NULL, swap_to_other_dir, NULL);
        T_ERR(err, PRC_E_INV_TREE_CHANGED);
}

static void grow_file(int point, const char *rel, void *arg)
{
        const char *which = arg;
        int fd;

        if (point != PRC_INV_HOOK_HASH_READ || strcmp(rel, which) != 0)
                return;
        fd = open(fx_path(rel), O_WRONLY | O_APPEND);
        T_ASSERT(fd >= 0);
        T_ASSERT(write(fd, "more", 4) == 4);
        close(fd);
}

static void test_inventory__file_growing_during_hashing_fails(void)
{
        prc_inventory_opts o = { .threads = 2 };
        prc_err err;

        fx_big("big.bin", 3u << 20);    /* three reads: growth is seen mid-stream */
        fx_text("small", "abc");
        err = build_err_hooked(&o, grow_file, "big.bin");
        T_ERR(err, PRC_E_INV_FILE_CHANGED);
        T_ASSERT(strstr(err.msg, "'big.bin'") != NULL);
        /* A small file read in one call: the closing fstat sees the new size. */
        err = build_err_hooked(&o, grow_file, "small");
        T_ERR(err, PRC_E_INV_FILE_CHANGED);
        T_ASSERT(strstr(err.msg, "'small'") != NULL);
}

/* Hook: just before "small" is opened for hashing, replace it (same name and bytes, new inode). */
static void replace_small(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point != PRC_INV_HOOK_HASH_OPEN || strcmp(rel, "small") != 0)
                return;
        fx_text("tmp-new", "same");
        T_ASSERT(rename(fx_path("tmp-new"), fx_path("small")) == 0);
}

static void test_inventory__file_replaced_before_hashing_fails(void)
{
        prc_err err;

        fx_big("big.bin", 2u << 20);
        fx_text("sub/other", "x");
        /*
         * With one thread the walk ends before hashing starts; with two the
         * file may be hashed while the walk goes on.  Either way, and with
         * the entry typed by its directory entry or by an lstat, the walk's
         * identity is what the hash checks.
         */
        for (unsigned threads = 1; threads <= 2; threads++) {
                for (int lstat_all = 0; lstat_all <= 1; lstat_all++) {
                        prc_inventory_opts o = { .threads = threads };

                        fx_text("small", "same");
                        prc_inventory_test_force_lstat(lstat_all);
                        err = build_err_hooked(&o, replace_small, NULL);
                        prc_inventory_test_force_lstat(false);
                        T_ERR(err, PRC_E_INV_TREE_CHANGED);
                        T_ASSERT(strstr(err.msg, "'small'") != NULL);
                }
        }
}

static prc_err build_err_at_root_fd(void)
{
        prc_inventory *inv = NULL;
        prc_err err;

        prc_err_init(&err);
        T_ASSERT(!prc_inventory_build_at(fx_rootfd, NULL, &inv, &err));
        T_ASSERT(inv == NULL);
        return err;
}

static void unreadable_file_part(void)
{
        prc_err err = build_err_at_root_fd();

        T_ERR(err, PRC_E_INV_UNREADABLE);
        T_ASSERT(strstr(err.msg, "'secret'") != NULL);
}

static void unreadable_dir_part(void)
{
        prc_err err = build_err_at_root_fd();

        T_ERR(err, PRC_E_INV_UNREADABLE);
        T_ASSERT(strstr(err.msg, "'locked'") != NULL);
}

static void test_inventory__unreadable_file_fails_the_build(void)
{
        fx_text("ok", "x");
        fx_file("secret", "key", 3, 0000);
        fx_run_unprivileged(unreadable_file_part);
}

static void test_inventory__unreadable_directory_fails_the_build(void)
{
        fx_text("locked/f", "x");
        T_ASSERT(chmod(fx_path("locked"), 0000) == 0);
        fx_run_unprivileged(unreadable_dir_part);
        T_ASSERT(chmod(fx_path("locked"), 0755) == 0);
}

static void test_inventory__name_with_newline_is_reported(void)
{
        prc_inventory *inv;
        const prc_inv_unrep *u;
        char *s;

        fx_text("fine", "x");
        fx_text("bad\nname", "y");
        fx_text("dir\nx/inner", "z");
        inv = build_ok(NULL);
        T_ASSERT(!prc_inventory_complete(inv));
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_EQ_INT(prc_inventory_unrep_count(inv), 2);
        u = prc_inventory_unrep(inv, 0);
        T_EQ_STR(u->raw, "bad\\x0aname");
        T_EQ_STR(u->reason, "path-control-char");
        T_EQ_STR(u->kind, "file");
        u = prc_inventory_unrep(inv, 1);
        T_EQ_STR(u->raw, "dir\\x0ax");
        T_EQ_STR(u->kind, "directory");
        s = canon(inv);
        T_ASSERT(strstr(s, "{\"kind\":\"file\",\"raw\":\"bad\\\\x0aname\",\"reason\":\"path-control-char\"}") != NULL);
        free(s);
        prc_inventory_free(inv);
}

static void test_inventory__non_utf8_and_backslash_names_are_reported(void)
{
        prc_inventory *inv;

        fx_text("\xff\xfe.txt", "x");
        fx_text("back\\slash", "y");
        fx_text("sp ace", "z");
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_EQ_STR(prc_inventory_entry(inv, 0)->path, "sp ace");
        T_EQ_INT(prc_inventory_unrep_count(inv), 2);
        T_EQ_STR(prc_inventory_unrep(inv, 0)->raw, "\\xff\\xfe.txt");
        T_EQ_STR(prc_inventory_unrep(inv, 0)->reason, "path-invalid-utf8");
        T_EQ_STR(prc_inventory_unrep(inv, 1)->raw, "back\\x5cslash");
        T_EQ_STR(prc_inventory_unrep(inv, 1)->reason, "path-backslash");
        prc_inventory_free(inv);
}

static void test_inventory__escape_keeps_printable_ascii_only(void)
{
        char *s = prc_inventory_escape("a b\\\x01\x7f~", 7);

        T_EQ_STR(s, "a\\x20b\\x5c\\x01\\x7f~");
        free(s);
}

/* A chain of n directories "d/d/d/..." with a file at the bottom, built with *at calls. */
static void deep_tree(int n)
{
        int fd = open(t_tmpdir(), O_RDONLY | O_DIRECTORY);

        T_ASSERT(fd >= 0);
        for (int i = 0; i < n; i++) {
                int nfd;
                T_ASSERT(mkdirat(fd, "d", 0755) == 0);
                nfd = openat(fd, "d", O_RDONLY | O_DIRECTORY);
                T_ASSERT(nfd >= 0);
                close(fd);
                fd = nfd;
        }
        close(openat(fd, "leaf", O_WRONLY | O_CREAT, 0644));
        close(fd);
}

static void test_inventory__deep_tree_within_limits_is_listed(void)
{
        prc_inventory *inv;
        char path[2048] = "";

        deep_tree(200);
        inv = build_ok(NULL);
        for (int i = 0; i < 200; i++)
                memcpy(path + 2 * i, "d/", 3);
        memcpy(path + 400, "leaf", 5);
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_EQ_STR(prc_inventory_entry(inv, 0)->path, path);
        T_ASSERT(prc_inventory_complete(inv));
        prc_inventory_free(inv);
}

static void test_inventory__too_deep_tree_is_reported_not_dropped(void)
{
        prc_inventory *inv;

        fx_text("top", "x");
        deep_tree(300);
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_ASSERT(!prc_inventory_complete(inv));
        T_EQ_INT(prc_inventory_unrep_count(inv), 1);
        T_EQ_STR(prc_inventory_unrep(inv, 0)->reason, "path-too-deep");
        T_EQ_STR(prc_inventory_unrep(inv, 0)->kind, "directory");
        prc_inventory_free(inv);
}

/*
 * Issue 16: only the root's .git directory and .prc are left out; .hg and
 * .svn (a tree can hide an ELF at .hg/tool) are inventoried like any other
 * directory, and a .git deeper down or of another type is kept.
 */
static void test_inventory__excluded_only_at_the_root(void)
{
        prc_inventory *inv;

        fx_text(".git/HEAD", "ref");
        fx_text(".prc/x", "y");
        fx_text(".hg/store", "z");
        fx_text(".svn", "file, not dir");
        fx_text("sub/.git/config", "kept");
        fx_text(".github/workflows/ci.yml", "on: push");
        fx_text(".gitignore", "*.o");
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_count(inv), 5);
        T_ASSERT(prc_inventory_find(inv, ".github/workflows/ci.yml") >= 0);
        T_ASSERT(prc_inventory_find(inv, ".gitignore") >= 0);
        T_ASSERT(prc_inventory_find(inv, "sub/.git/config") >= 0);
        T_ASSERT(prc_inventory_find(inv, ".hg/store") >= 0);
        T_ASSERT(prc_inventory_find(inv, ".svn") >= 0);
        T_EQ_INT(prc_inventory_excluded_count(inv), 2);
        T_EQ_STR(prc_inventory_excluded(inv, 0), ".git");
        T_EQ_STR(prc_inventory_excluded(inv, 1), ".prc");
        T_ASSERT(prc_inventory_complete(inv));
        prc_inventory_free(inv);
}

/* A gitfile (worktree, submodule) or a symlink named .git is an ordinary entry; .prc of any type is left out. */
static void test_inventory__git_file_or_symlink_is_inventoried(void)
{
        prc_inventory *inv;
        long i;

        fx_text(".git", "gitdir: ../main/.git/worktrees/t\n");
        fx_text(".prc", "a file named .prc");
        inv = build_ok(NULL);
        i = prc_inventory_find(inv, ".git");
        T_ASSERT(i >= 0);
        T_EQ_INT(prc_inventory_entry(inv, (size_t)i)->type, PRC_INV_FILE);
        T_EQ_INT(prc_inventory_excluded_count(inv), 1);
        T_EQ_STR(prc_inventory_excluded(inv, 0), ".prc");
        prc_inventory_free(inv);
        T_ASSERT(unlink(fx_path(".git")) == 0);
        T_ASSERT(symlink("/etc", fx_path(".git")) == 0);
        inv = build_ok(NULL);
        i = prc_inventory_find(inv, ".git");
        T_ASSERT(i >= 0);
        T_EQ_INT(prc_inventory_entry(inv, (size_t)i)->type, PRC_INV_SYMLINK);
        prc_inventory_free(inv);
}

/*
 * Issue 16: head reads are bound to the seal like whole-file reads.  A
 * same-size rewrite of the head with the mtime put back is refused by the
 * head digest; a change past the head is refused by a head read that asks
 * for more than PRC_INV_HEAD (whole-file digest), and never returns bytes.
 */
static void test_inventory__read_head_is_bound_to_the_seal(void)
{
        static char data[10000];
        struct timespec times[2];
        struct stat st;
        prc_inventory *inv;
        prc_buf b;
        prc_err err;
        int fd;

        for (size_t i = 0; i < sizeof(data); i++)
                data[i] = (char)('a' + i % 26);
        memcpy(data, "\x7f" "ELF", 4);
        fx_file("big", data, sizeof(data), 0644);
        inv = build_ok(NULL);
        prc_buf_init(&b, 1u << 20);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_read_head(inv, "big", PRC_INV_HEAD, &b, &err));
        T_EQ_INT(b.len, PRC_INV_HEAD);
        T_ASSERT(memcmp(b.data, data, PRC_INV_HEAD) == 0);
        prc_buf_reset(&b);
        T_ASSERT(prc_inventory_read_head(inv, "big", 8192, &b, &err));
        T_EQ_INT(b.len, 8192);
        prc_buf_reset(&b);
        T_ASSERT(prc_inventory_read_head(inv, "big", 64, &b, &err));
        T_EQ_INT(b.len, 64);

        /* Past the head: the head read still gives the sealed head; a longer read sees the change. */
        T_ASSERT(stat(fx_path("big"), &st) == 0);
        times[0] = st.st_atim;
        times[1] = st.st_mtim;
        fd = open(fx_path("big"), O_WRONLY);
        T_ASSERT(fd >= 0 && pwrite(fd, "Z", 1, 9000) == 1);
        close(fd);
        T_ASSERT(utimensat(AT_FDCWD, fx_path("big"), times, 0) == 0);
        prc_buf_reset(&b);
        T_ASSERT(prc_inventory_read_head(inv, "big", PRC_INV_HEAD, &b, &err));
        prc_buf_reset(&b);
        T_ASSERT(!prc_inventory_read_head(inv, "big", 8192, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);

        /* In the head: refused, even with size and mtime as they were. */
        fd = open(fx_path("big"), O_WRONLY);
        T_ASSERT(fd >= 0 && pwrite(fd, "#!/b", 4, 0) == 4);
        close(fd);
        T_ASSERT(utimensat(AT_FDCWD, fx_path("big"), times, 0) == 0);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read_head(inv, "big", PRC_INV_HEAD, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

static void test_inventory__special_files_are_counted_not_opened(void)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        prc_inventory *inv;
        int s;

        fx_text("f", "x");
        T_ASSERT(mkfifo(fx_path("pipe"), 0644) == 0);   /* opening it would block the walk */
        s = socket(AF_UNIX, SOCK_STREAM, 0);
        T_ASSERT(s >= 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", fx_path("sock"));
        T_ASSERT(bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0);
        inv = build_ok(NULL);
        close(s);
        T_EQ_INT(prc_inventory_count(inv), 1);
        T_EQ_INT(prc_inventory_skipped(inv)->fifo, 1);
        T_EQ_INT(prc_inventory_skipped(inv)->socket, 1);
        T_EQ_INT(prc_inventory_skipped(inv)->char_device, 0);
        T_ASSERT(prc_inventory_complete(inv));
        prc_inventory_free(inv);
}

static void test_inventory__over_10_mib_is_hashed_and_marked(void)
{
        prc_inventory *inv;
        int fd;

        /* Sparse files: the pool still reads and hashes every (zero) byte. */
        fd = open(fx_path("exact"), O_WRONLY | O_CREAT, 0644);
        T_ASSERT(fd >= 0 && ftruncate(fd, 10u << 20) == 0);
        close(fd);
        fd = open(fx_path("over"), O_WRONLY | O_CREAT, 0644);
        T_ASSERT(fd >= 0 && ftruncate(fd, (10u << 20) + 1) == 0);
        close(fd);
        inv = build_ok(NULL);
        T_ASSERT(!entry(inv, "exact")->oversized);
        T_ASSERT(entry(inv, "over")->oversized);
        T_EQ_INT(entry(inv, "over")->size, (10u << 20) + 1);
        T_ASSERT(prc_digest_valid(entry(inv, "over")->sha256));
        T_ASSERT(strcmp(entry(inv, "over")->sha256, entry(inv, "exact")->sha256) != 0);
        prc_inventory_free(inv);
}

static void test_inventory__two_builds_are_byte_identical(void)
{
        prc_inventory_opts one = { .threads = 1 }, two = { .threads = 2 };
        prc_inventory *a, *b;
        char *ca, *cb;

        for (int i = 0; i < 40; i++) {
                char name[64];
                snprintf(name, sizeof(name), "d%d/f%d", i % 7, i);
                fx_big(name, (size_t)i * 997);
        }
        fx_symlink("d1", "s");
        a = build_ok(&one);
        b = build_ok(&two);
        ca = canon(a);
        cb = canon(b);
        T_EQ_STR(ca, cb);
        T_EQ_STR(prc_inventory_digest(a), prc_inventory_digest(b));
        free(ca);
        free(cb);
        prc_inventory_free(a);
        prc_inventory_free(b);
}

static void test_inventory__one_byte_change_changes_the_digest(void)
{
        prc_inventory *a, *b, *c;

        fx_text("x/y", "hello world");
        fx_text("z", "zz");
        a = build_ok(NULL);
        fx_text("x/y", "hello worle");
        b = build_ok(NULL);
        T_ASSERT(strcmp(prc_inventory_digest(a), prc_inventory_digest(b)) != 0);
        T_ASSERT(chmod(fx_path("z"), 0755) == 0);     /* the executable bit is part of the listing */
        c = build_ok(NULL);
        T_ASSERT(strcmp(prc_inventory_digest(b), prc_inventory_digest(c)) != 0);
        prc_inventory_free(a);
        prc_inventory_free(b);
        prc_inventory_free(c);
}

static void test_inventory__entry_limit_is_an_error(void)
{
        prc_inventory_opts o = { .max_entries = 3 };
        prc_err err;

        for (int i = 0; i < 5; i++) {
                char name[16];
                snprintf(name, sizeof(name), "f%d", i);
                fx_text(name, "x");
        }
        err = build_err(&o);
        T_ERR(err, PRC_E_INV_TOO_MANY);
}

/*
 * Issue 16: the cap is checked while a directory is read, not after it is
 * held whole: with a cap of 100, a directory of 3000 names is refused
 * having held at most 100 of them.
 */
static void test_inventory__listing_stops_at_the_entry_cap_while_reading(void)
{
        prc_inventory_opts o = { .max_entries = 100 };
        prc_err err;
        char name[32];

        for (int i = 0; i < 3000; i++) {
                snprintf(name, sizeof(name), "big/f%04d", i);
                fx_text(name, "");
        }
        (void)prc_inventory_test_listed_peak();
        err = build_err(&o);
        T_ERR(err, PRC_E_INV_TOO_MANY);
        T_ASSERT(strstr(err.msg, "'big'") != NULL);
        T_ASSERT(prc_inventory_test_listed_peak() <= 100);
}

/*
 * Names that are not entries (directories, special files) are held by the
 * listing too, so they count against the cap while it is read: 300 empty
 * directories under a cap of 100 are refused.  Exactly the cap is fine.
 */
static void test_inventory__listing_names_that_are_not_entries_count_too(void)
{
        prc_inventory_opts o = { .max_entries = 100 };
        prc_inventory *inv;
        prc_err err;
        char name[32];

        for (int i = 0; i < 99; i++) {
                snprintf(name, sizeof(name), "d%03d", i);
                T_ASSERT(mkdir(fx_path(name), 0755) == 0);
        }
        T_ASSERT(mkfifo(fx_path("fifo"), 0600) == 0);
        inv = build_ok(&o);
        T_EQ_INT(prc_inventory_count(inv), 0);
        prc_inventory_free(inv);
        for (int i = 99; i < 300; i++) {
                snprintf(name, sizeof(name), "d%03d", i);
                T_ASSERT(mkdir(fx_path(name), 0755) == 0);
        }
        err = build_err(&o);
        T_ERR(err, PRC_E_INV_TOO_MANY);
}

static void test_inventory__root_must_be_a_directory(void)
{
        prc_inventory *inv = NULL;
        prc_err err;

        fx_text("file", "x");
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_build(fx_path("file"), NULL, &inv, &err));
        T_ERR(err, PRC_E_IO);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_build(fx_path("missing"), NULL, &inv, &err));
        T_ERR(err, PRC_E_IO);
}

static void test_inventory__read_checks_bytes_against_the_listing(void)
{
        prc_inventory *inv;
        prc_buf b;
        prc_err err;

        fx_text("dir/manifest.json", "{\"a\":1}");
        fx_text("README", "readme");
        fx_symlink("README", "link");
        inv = build_ok(NULL);
        prc_buf_init(&b, 1u << 20);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_read(inv, "dir/manifest.json", 1024, &b, &err));
        T_EQ_MEM(b.data, b.len, "{\"a\":1}", 7);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "link", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_NO_SUCH_ENTRY);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "nope", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_NO_SUCH_ENTRY);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "README", 3, &b, &err));
        T_ERR(err, PRC_E_INPUT_TOO_LARGE);
        /* Same size, different bytes. */
        fx_text("README", "READMe");
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "README", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);
        /* Grown or shrunk since: refused, nothing left in the buffer. */
        fx_text("README", "readme!");
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "README", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);
        fx_text("README", "readm");
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "README", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        T_EQ_INT(b.len, 0);
        /* A parent directory swapped for a symlink to a copy: refused, not followed. */
        T_ASSERT(rename(fx_path("dir"), fx_path("dir2")) == 0);
        fx_symlink("dir2", "dir");
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "dir/manifest.json", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

/* The files a test keeps (opts.keep): names ending in ".json". */
static bool keep_json(const char *path)
{
        size_t n = strlen(path);

        return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

/*
 * opts.keep: a kept file reads as it was hashed, whatever is on disk now
 * (those are the bytes the seal binds); a file not kept (the predicate
 * says no, or above PRC_INV_KEEP_FILE) is read from disk and checked as
 * ever.  What is kept stops at PRC_INV_KEEP_TOTAL; the rest is read from
 * disk, never lost.
 */
static void test_inventory__kept_files_read_as_hashed(void)
{
        enum { MANY = PRC_INV_KEEP_TOTAL / PRC_INV_KEEP_FILE + 8 };
        static char big[PRC_INV_KEEP_FILE + 1];
        prc_inventory_opts o = { .keep = keep_json };
        size_t kept = 0, reread = 0;
        prc_inventory *inv;
        char name[64];
        prc_buf b;
        prc_err err;

        fx_text("a/package.json", "{\"a\":1}");
        fx_text("README", "readme");
        memset(big, 'x', sizeof(big));
        fx_file("big.json", big, sizeof(big), 0644);
        inv = build_ok(&o);
        fx_text("a/package.json", "{\"a\":2}");
        fx_text("README", "README");
        big[0] = 'y';
        fx_file("big.json", big, sizeof(big), 0644);
        prc_buf_init(&b, 1u << 20);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_read(inv, "a/package.json", 1024, &b, &err));
        T_EQ_MEM(b.data, b.len, "{\"a\":1}", 7);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "a/package.json", 6, &b, &err));
        T_ERR(err, PRC_E_INPUT_TOO_LARGE);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "README", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "big.json", sizeof(big), &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        prc_inventory_free(inv);

        /* More than PRC_INV_KEEP_TOTAL of files to keep: some are, the rest read from disk. */
        memset(big, 'k', PRC_INV_KEEP_FILE);
        for (size_t i = 0; i < MANY; i++) {
                snprintf(name, sizeof(name), "many/%03zu.json", i);
                fx_file(name, big, PRC_INV_KEEP_FILE, 0644);
        }
        inv = build_ok(&o);
        big[0] = 'z';
        for (size_t i = 0; i < MANY; i++) {
                snprintf(name, sizeof(name), "many/%03zu.json", i);
                fx_file(name, big, PRC_INV_KEEP_FILE, 0644);
        }
        for (size_t i = 0; i < MANY; i++) {
                snprintf(name, sizeof(name), "many/%03zu.json", i);
                prc_err_init(&err);
                if (prc_inventory_read(inv, name, PRC_INV_KEEP_FILE, &b, &err)) {
                        T_EQ_INT(b.len, PRC_INV_KEEP_FILE);
                        T_EQ_INT(b.data[0], 'k');
                        kept++;
                } else {
                        T_ERR(err, PRC_E_INV_MISMATCH);
                        reread++;
                }
        }
        T_ASSERT(kept > 0 && reread > 0);
        T_ASSERT(kept * PRC_INV_KEEP_FILE <= PRC_INV_KEEP_TOTAL);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

/*
 * A read asks for one byte more than the inventoried size and stops once
 * the size is in: an empty file reads empty, a file as long as the
 * buffer's cap reads whole (the extra byte's room is the NUL slot), and a
 * buffer smaller than the file is buffer-limit.
 */
static void test_inventory__a_read_takes_exactly_the_inventoried_bytes(void)
{
        static char big[4096];
        prc_inventory *inv;
        prc_buf b;
        prc_err err;

        memset(big, 'x', sizeof(big) - 1);
        fx_text("empty", "");
        fx_text("big", big);
        inv = build_ok(NULL);
        prc_buf_init(&b, sizeof(big) - 1);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_read(inv, "empty", 1024, &b, &err));
        T_EQ_INT(b.len, 0);
        T_ASSERT(prc_inventory_read(inv, "big", sizeof(big), &b, &err));
        T_EQ_MEM(b.data, b.len, big, sizeof(big) - 1);
        T_EQ_INT(b.data[b.len], 0);
        prc_buf_clear(&b);
        prc_buf_init(&b, sizeof(big) - 2);
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "big", sizeof(big), &b, &err));
        T_ERR(err, PRC_E_BUFFER_LIMIT);
        T_EQ_INT(b.len, 0);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

static void test_inventory__component_walk_fallback_refuses_symlinks_too(void)
{
        prc_inventory *inv;
        prc_buf b;
        prc_err err;
        int fd, root;

        fx_text("a/b/c.txt", "deep");
        prc_safe_test_force_walk(true);         /* as on kernels without openat2 */
        inv = build_ok(NULL);
        T_EQ_STR(entry(inv, "a/b/c.txt")->sha256, "74611c1d6455b534323a21f8133a6f43dc3a8188e7b946f96dcc28dde932fcb2");
        prc_buf_init(&b, 1024);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_read(inv, "a/b/c.txt", 1024, &b, &err));
        T_EQ_MEM(b.data, b.len, "deep", 4);
        root = open(t_tmpdir(), O_RDONLY | O_DIRECTORY);
        T_ASSERT(root >= 0);
        fd = prc_safe_openat(root, "../etc/passwd", O_RDONLY, 0);
        T_ASSERT(fd < 0 && errno == EXDEV);
        T_ASSERT(rename(fx_path("a"), fx_path("a2")) == 0);
        fx_symlink("a2", "a");
        fd = prc_safe_openat(root, "a/b/c.txt", O_RDONLY, 0);
        T_ASSERT(fd < 0 && (errno == ELOOP || errno == ENOTDIR));
        prc_err_init(&err);
        T_ASSERT(!prc_inventory_read(inv, "a/b/c.txt", 1024, &b, &err));
        T_ERR(err, PRC_E_INV_MISMATCH);
        prc_safe_test_force_walk(false);
        /* openat2 refuses the same paths. */
        fd = prc_safe_openat(root, "a/b/c.txt", O_RDONLY, 0);
        T_ASSERT(fd < 0 && (errno == ELOOP || errno == ENOTDIR));
        fd = prc_safe_openat(root, "../etc/passwd", O_RDONLY, 0);
        T_ASSERT(fd < 0 && (errno == EXDEV || errno == ELOOP));
        close(root);
        prc_buf_clear(&b);
        prc_inventory_free(inv);
}

/* A tree with every kind of entry the listing can hold, with names JSON must escape. */
static void tricky_tree(void)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd, sk;

        fx_text("plain", "x");
        fx_text("quo\"te", "q");
        fx_text("sp ace/\xc3\xa9t\xc3\xa9", "utf-8, two bytes");
        fx_text("\xe2\x82\xac/\xf0\x9f\x98\x80.txt", "three and four bytes");
        fx_text("a/b/c/d/e", "");
        fx_file("run.sh", "#!/bin/sh\n", 10, 0755);
        fx_text(".git/HEAD", "ref");
        fx_text("bad\nname\"q", "unrepresentable, with a quote");
        fx_text("back\\slash", "b");
        fx_symlink("plain", "link");
        fx_symlink("/etc/passwd", "sp ace/out");
        T_ASSERT(mkfifo(fx_path("a/pipe"), 0644) == 0);
        sk = socket(AF_UNIX, SOCK_STREAM, 0);
        T_ASSERT(sk >= 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", fx_path("sock"));
        T_ASSERT(bind(sk, (struct sockaddr *)&sa, sizeof(sa)) == 0);
        close(sk);
        fd = open(fx_path("over"), O_WRONLY | O_CREAT, 0644);
        T_ASSERT(fd >= 0 && ftruncate(fd, (10u << 20) + 1) == 0);
        close(fd);
        for (int i = 0; i < 300; i++) {
                char rel[64];
                snprintf(rel, sizeof(rel), "many/d%02d/f%03d", i % 17, i);
                fx_text(rel, rel);
        }
}

static char *canonical_bytes(const prc_inventory *inv, size_t *len)
{
        prc_buf b;
        prc_err err;
        char *s;

        prc_buf_init(&b, 1u << 30);
        prc_err_init(&err);
        T_ASSERT(prc_inventory_canonical(inv, &b, &err));
        T_NOERR(err);
        T_ASSERT(prc_buf_putc(&b, '\0', &err));
        s = (char *)prc_buf_take(&b, len, &err);
        T_ASSERT(s != NULL);
        (*len)--;
        return s;
}

static void test_inventory__canonical_writer_equals_jcs_of_the_document(void)
{
        prc_inventory *inv;
        json_t *doc;
        prc_buf b;
        prc_err err;
        char hex[PRC_SHA256_HEX + 1], *direct;
        size_t n;

        tricky_tree();
        inv = build_ok(NULL);
        T_EQ_INT(prc_inventory_unrep_count(inv), 2);
        T_EQ_INT(prc_inventory_skipped(inv)->fifo, 1);
        T_EQ_INT(prc_inventory_skipped(inv)->socket, 1);
        T_EQ_INT(prc_inventory_excluded_count(inv), 1);
        T_ASSERT(entry(inv, "over")->oversized);
        T_ASSERT(entry(inv, "run.sh")->executable);
        direct = canonical_bytes(inv, &n);
        /* The same bytes as the general JCS writer gives for the jansson document minus its digest. */
        prc_err_init(&err);
        doc = json_deep_copy(prc_inventory_json(inv, &err));
        T_ASSERT(doc != NULL);
        T_ASSERT(json_object_del(doc, "inventory_digest") == 0);
        prc_buf_init(&b, 1u << 30);
        T_ASSERT(prc_jcs_write(doc, &b, &err));
        T_EQ_MEM(direct, n, b.data, b.len);
        T_ASSERT(strstr(direct, "\"path\":\"quo\\\"te\"") != NULL);
        T_ASSERT(strstr(direct, "\"raw\":\"bad\\\\x0aname\\\"q\"") != NULL);
        T_ASSERT(strstr(direct, "\"path\":\"\xe2\x82\xac/\xf0\x9f\x98\x80.txt\"") != NULL);
        /* And the digest is the SHA-256 of exactly those bytes. */
        T_ASSERT(prc_sha256_hex_once(direct, n, hex, &err));
        T_EQ_STR(hex, prc_inventory_digest(inv));
        /* Appending keeps what the buffer held. */
        prc_buf_reset(&b);
        T_ASSERT(prc_buf_put(&b, "pre", 3, &err));
        T_ASSERT(prc_inventory_canonical(inv, &b, &err));
        T_EQ_MEM(b.data, 3, "pre", 3);
        T_EQ_MEM(b.data + 3, b.len - 3, direct, n);
        prc_buf_clear(&b);
        json_decref(doc);
        free(direct);
        prc_inventory_free(inv);
}

static void test_inventory__listing_is_the_same_for_any_thread_count_and_walk_mode(void)
{
        prc_inventory *inv;
        char *ref, *s;
        size_t nref, n;

        tricky_tree();
        inv = build_ok(&(prc_inventory_opts){ .threads = 1 });
        ref = canonical_bytes(inv, &nref);
        prc_inventory_free(inv);
        for (unsigned threads = 1; threads <= 4; threads++) {
                for (int lstat_all = 0; lstat_all <= 1; lstat_all++) {
                        prc_inventory_test_force_lstat(lstat_all);
                        inv = build_ok(&(prc_inventory_opts){ .threads = threads });
                        prc_inventory_test_force_lstat(false);
                        s = canonical_bytes(inv, &n);
                        T_EQ_MEM(s, n, ref, nref);
                        free(s);
                        prc_inventory_free(inv);
                }
        }
        free(ref);
}

/* Hook: a file vanishes just before a worker opens it (the walk may still be going on). */
static void remove_gone(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point == PRC_INV_HOOK_HASH_OPEN && strcmp(rel, "gone") == 0)
                T_ASSERT(unlink(fx_path("gone")) == 0);
}

static void test_inventory__file_removed_before_hashing_fails(void)
{
        prc_err err;

        for (int i = 0; i < 40; i++) {
                char rel[32];
                snprintf(rel, sizeof(rel), "d%d/f", i);
                fx_text(rel, "y");
        }
        for (unsigned threads = 1; threads <= 3; threads++) {
                prc_inventory_opts o = { .threads = threads };

                fx_text("gone", "x");
                err = build_err_hooked(&o, remove_gone, NULL);
                T_ERR(err, PRC_E_INV_TREE_CHANGED);
                T_ASSERT(strstr(err.msg, "'gone'") != NULL);
        }
}

/*
 * Large files are hashed through mappings, small ones with read(): the two
 * paths give the same digests, at and around the thresholds (256 KiB to
 * map at all, 16 MiB windows), as the bytes' own SHA-256 says.
 */
static void test_inventory__mapped_and_read_hashing_agree(void)
{
        static const size_t sizes[] = { (256u << 10) - 1, 256u << 10, (256u << 10) + 1, (16u << 20) + 4097 };
        prc_inventory_opts o = { .threads = 2 };
        prc_inventory *mapped, *read_only;

        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                char name[32];
                snprintf(name, sizeof(name), "f%zu", i);
                fx_big(name, sizes[i]);
        }
        mapped = build_ok(&o);
        prc_inventory_test_force_read(true);
        read_only = build_ok(&o);
        prc_inventory_test_force_read(false);
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                char name[32], want[PRC_SHA256_HEX + 1];
                unsigned char *b = malloc(sizes[i]);
                prc_err err;

                T_ASSERT(b != NULL);
                fx_big_fill(b, sizes[i]);
                prc_err_init(&err);
                T_ASSERT(prc_sha256_hex_once(b, sizes[i], want, &err));
                free(b);
                snprintf(name, sizeof(name), "f%zu", i);
                T_EQ_STR(entry(mapped, name)->sha256, want);
                T_EQ_STR(entry(read_only, name)->sha256, want);
        }
        T_EQ_STR(prc_inventory_digest(mapped), prc_inventory_digest(read_only));
        prc_inventory_free(mapped);
        prc_inventory_free(read_only);
}

/* Hook: after the first MiB of big.bin is hashed, cut the file to one page. */
static void truncate_big(int point, const char *rel, void *arg)
{
        (void)arg;
        if (point != PRC_INV_HOOK_HASH_READ || strcmp(rel, "big.bin") != 0)
                return;
        T_ASSERT(truncate(fx_path("big.bin"), 4096) == 0);
}

static void test_inventory__file_truncated_while_mapped_fails_and_the_process_goes_on(void)
{
        prc_inventory_opts o = { .threads = 2 };
        prc_inventory *inv;
        prc_err err;

        fx_big("big.bin", 3u << 20);    /* mapped: the pages after the first MiB vanish under the hash */
        fx_text("small", "abc");
        err = build_err_hooked(&o, truncate_big, NULL);
        T_ERR(err, PRC_E_INV_FILE_CHANGED);
        T_ASSERT(strstr(err.msg, "'big.bin'") != NULL);
        /* The guard is gone with that file: the next build of the same tree works. */
        inv = build_ok(&o);
        T_EQ_INT(entry(inv, "big.bin")->size, 4096);
        prc_inventory_free(inv);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A SIGBUS that is not the hash's own must still end the process (the handler is process-wide). */
static void test_inventory__sigbus_outside_hashing_still_ends_the_process(void)
{
        for (int how = 0; how < 2; how++) {
                pid_t pid;
                int st;

                fx_big("big.bin", 1u << 20);
                pid = fork();
                T_ASSERT(pid >= 0);
                if (pid == 0) {
                        prc_inventory *inv = NULL;
                        prc_err err;
                        volatile const char *p;
                        int fd;

                        prc_err_init(&err);
                        if (!prc_inventory_build(t_tmpdir(), NULL, &inv, &err))
                                _exit(3);       /* installs the handler (a mapped file was hashed) */
                        prc_inventory_free(inv);
                        (void)dup2(open("/dev/null", O_WRONLY), 2);     /* ASan's report of it is expected */
                        if (how == 0)
                                (void)raise(SIGBUS);
                        fd = open(fx_path("big.bin"), O_RDONLY);
                        p = fd < 0 ? MAP_FAILED : mmap(NULL, 1u << 20, PROT_READ, MAP_SHARED, fd, 0);
                        if (p == MAP_FAILED || ftruncate(open(fx_path("big.bin"), O_WRONLY), 0) != 0)
                                _exit(4);
                        (void)p[8192];  /* beyond the end now: SIGBUS */
                        _exit(0);
                }
                T_ASSERT(waitpid(pid, &st, 0) == pid);
#ifdef UNDER_ASAN
                /* ASan's own SIGBUS report comes first in the chain: it exits non-zero. */
                T_ASSERT(!(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || (WEXITSTATUS(st) >= 3 && WEXITSTATUS(st) <= 4))));
#else
                T_ASSERT(WIFSIGNALED(st));
                T_EQ_INT(WTERMSIG(st), SIGBUS);
#endif
        }
}

static const prc_test tests[] = {
        T(test_inventory__records_files_symlinks_sorted_bytewise),
        T(test_inventory__listing_json_has_the_documented_fields),
        T(test_inventory__symlink_outside_is_recorded_never_followed),
        T(test_inventory__symlink_loops_end),
        T(test_inventory__directory_swapped_for_symlink_fails),
        T(test_inventory__directory_swapped_for_another_directory_fails),
        T(test_inventory__file_growing_during_hashing_fails),
        T(test_inventory__file_replaced_before_hashing_fails),
        T(test_inventory__unreadable_file_fails_the_build),
        T(test_inventory__unreadable_directory_fails_the_build),
        T(test_inventory__name_with_newline_is_reported),
        T(test_inventory__non_utf8_and_backslash_names_are_reported),
        T(test_inventory__escape_keeps_printable_ascii_only),
        T(test_inventory__deep_tree_within_limits_is_listed),
        T(test_inventory__too_deep_tree_is_reported_not_dropped),
        T(test_inventory__excluded_only_at_the_root),
        T(test_inventory__git_file_or_symlink_is_inventoried),
        T(test_inventory__read_head_is_bound_to_the_seal),
        T(test_inventory__special_files_are_counted_not_opened),
        T(test_inventory__over_10_mib_is_hashed_and_marked),
        T(test_inventory__two_builds_are_byte_identical),
        T(test_inventory__one_byte_change_changes_the_digest),
        T(test_inventory__entry_limit_is_an_error),
        T(test_inventory__listing_stops_at_the_entry_cap_while_reading),
        T(test_inventory__listing_names_that_are_not_entries_count_too),
        T(test_inventory__root_must_be_a_directory),
        T(test_inventory__read_checks_bytes_against_the_listing),
        T(test_inventory__kept_files_read_as_hashed),
        T(test_inventory__a_read_takes_exactly_the_inventoried_bytes),
        T(test_inventory__component_walk_fallback_refuses_symlinks_too),
        T(test_inventory__canonical_writer_equals_jcs_of_the_document),
        T(test_inventory__listing_is_the_same_for_any_thread_count_and_walk_mode),
        T(test_inventory__file_removed_before_hashing_fails),
        T(test_inventory__mapped_and_read_hashing_agree),
        T(test_inventory__file_truncated_while_mapped_fails_and_the_process_goes_on),
        T(test_inventory__sigbus_outside_hashing_still_ends_the_process),
};
PRC_SUITE(inventory, tests)
