/*
 * test_setup.c - the library side of `prc setup native` (issue 17): the
 * pinned image list, the judgement of `image inspect` output, the XDG data
 * directory and the atomic store.  The download itself is tested end to end
 * against a loopback HTTPS server (tests/cli/test_setup.sh).
 */
#include "t.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/native/gitleaks.h"
#include "adapter/setup.h"
#include "base/datadir.h"

#define SYFT "docker.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0"
#define OTHER "sha256:0000000000000000000000000000000000000000000000000000000000000001"

static bool inspect(const char *ref, const char *json)
{
        prc_err err;

        prc_err_init(&err);
        if (prc_setup_inspect_ok(ref, json, strlen(json), &err))
                return true;
        T_ERR(err, PRC_E_SETUP_IMAGE_MISMATCH);
        return false;
}

static void test_setup__pinned_images_are_the_reviewed_digests_in_table_order(void)
{
        prc_setup_images im;
        prc_err err;

        unsetenv(PRC_SETUP_TEST_IMAGES_ENV);
        prc_err_init(&err);
        T_ASSERT(prc_setup_images_list(&im, &err));
        T_EQ_INT(im.n, 3);
        T_EQ_STR(im.ref[0], "ghcr.io/gitleaks/gitleaks@sha256:691af3c7c5a48b16f187ce3446d5f194838f91238f27270ed36eef6359a574d9");
        T_EQ_STR(im.ref[1], SYFT);
        T_EQ_STR(im.ref[2], "docker.io/anchore/grype@sha256:1e71065c0a4cff3e6bd3b8add525ffac4343eb4971694eb90a31cf6d4d3e85db");
}

static void test_setup__test_build_image_list_is_checked(void)
{
        prc_setup_images im;
        prc_err err;

        prc_err_init(&err);
        setenv(PRC_SETUP_TEST_IMAGES_ENV, "127.0.0.1:5000/a/b@" OTHER ",127.0.0.1:5000/c@" OTHER, 1);
        T_ASSERT(prc_setup_images_list(&im, &err));
        T_EQ_INT(im.n, 2);
        T_EQ_STR(im.ref[1], "127.0.0.1:5000/c@" OTHER);
        setenv(PRC_SETUP_TEST_IMAGES_ENV, "127.0.0.1:5000/a/b:latest", 1);
        T_ASSERT(!prc_setup_images_list(&im, &err));
        T_ASSERT(err.cls == PRC_E_INVALID_VALUE || err.cls == PRC_E_INVALID_DIGEST);
        unsetenv(PRC_SETUP_TEST_IMAGES_ENV);
}

static void test_setup__inspect_accepts_docker_and_podman_names(void)
{
        T_ASSERT(inspect(SYFT, "[\"anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0\"]"));
        T_ASSERT(inspect(SYFT, "[\"x/y@" OTHER "\",\"" SYFT "\"]\n"));
        T_ASSERT(inspect("127.0.0.1:5000/prc-test/x@" OTHER, "[\"127.0.0.1:5000/prc-test/x@" OTHER "\"]"));
        T_ASSERT(inspect("docker.io/library/alpine@" OTHER, "[\"alpine@" OTHER "\"]"));
}

static void test_setup__inspect_refuses_anything_but_that_digest(void)
{
        /* another digest of the same repository */
        T_ASSERT(!inspect(SYFT, "[\"anchore/syft@" OTHER "\"]"));
        /* the digest under another repository */
        T_ASSERT(!inspect(SYFT, "[\"evil/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0\"]"));
        T_ASSERT(!inspect(SYFT, "[\"ghcr.io/anchore/syft@sha256:678bfa565b60f747aac0f8e964fe5588a24445b8d0a480e91f6efd70020dfbb0\"]"));
        /* a prefix of the digest */
        T_ASSERT(!inspect(SYFT, "[\"anchore/syft@sha256:678bfa56\"]"));
        T_ASSERT(!inspect(SYFT, "[]"));
        T_ASSERT(!inspect(SYFT, "null"));
        T_ASSERT(!inspect(SYFT, ""));
        T_ASSERT(!inspect(SYFT, "[\"" SYFT "\",]"));
        T_ASSERT(!inspect(SYFT, "{\"RepoDigests\":[\"" SYFT "\"]}"));
}

static void test_setup__datadir_follows_xdg_then_home(void)
{
        char p[4096];
        prc_err err;

        prc_err_init(&err);
        setenv("XDG_DATA_HOME", "/x/data", 1);
        setenv("HOME", "/h", 1);
        T_ASSERT(prc_datadir_path(p, sizeof(p), &err));
        T_EQ_STR(p, "/x/data/prc");
        T_ASSERT(prc_datadir_file(PRC_GITLEAKS_RULESET_FILE, p, sizeof(p), &err));
        T_EQ_STR(p, "/x/data/prc/gitleaks-v8.30.0.toml.gz");
        setenv("XDG_DATA_HOME", "relative/data", 1);
        T_ASSERT(prc_datadir_path(p, sizeof(p), &err));
        T_EQ_STR(p, "/h/.local/share/prc");
        setenv("XDG_DATA_HOME", "", 1);
        T_ASSERT(prc_datadir_path(p, sizeof(p), &err));
        T_EQ_STR(p, "/h/.local/share/prc");
        unsetenv("XDG_DATA_HOME");
        setenv("HOME", "h", 1);
        T_ASSERT(!prc_datadir_path(p, sizeof(p), &err));
        T_ERR(err, PRC_E_DATADIR_UNAVAILABLE);
        unsetenv("HOME");
        prc_err_init(&err);
        T_ASSERT(!prc_datadir_path(p, sizeof(p), &err));
        T_ERR(err, PRC_E_DATADIR_UNAVAILABLE);
        prc_err_init(&err);
        T_ASSERT(!prc_datadir_path(p, 4, &err));
}

static int mode_of(const char *path)
{
        struct stat st;
        T_ASSERT(lstat(path, &st) == 0);
        return (int)(st.st_mode & 07777);
}

static void test_setup__datadir_created_private_and_store_is_atomic(void)
{
        char base[4096], p[4200];
        prc_err err;
        int fd;
        mode_t old = umask(0);

        prc_err_init(&err);
        snprintf(base, sizeof(base), "%s/a/b", t_tmpdir());
        setenv("XDG_DATA_HOME", base, 1);
        T_ASSERT(!prc_setup_stored_ruleset(p, sizeof(p)));
        T_EQ_STR(p, "");
        fd = prc_datadir_open(false, &err);
        T_ASSERT(fd < 0);               /* not created unless asked */
        prc_err_init(&err);
        fd = prc_datadir_open(true, &err);
        T_NOERR(err);
        T_ASSERT(fd >= 0);
        snprintf(p, sizeof(p), "%s/a", t_tmpdir());
        T_EQ_INT(mode_of(p), 0700);
        T_EQ_INT(mode_of(base), 0700);
        snprintf(p, sizeof(p), "%s/prc", base);
        T_EQ_INT(mode_of(p), 0700);
        T_ASSERT(prc_datadir_store(fd, "f", "one", 3, &err));
        snprintf(p, sizeof(p), "%s/prc/f", base);
        T_EQ_INT(mode_of(p), 0600);
        T_ASSERT(chmod(p, 0644) == 0);
        T_ASSERT(prc_datadir_store(fd, "f", "two!", 4, &err));
        T_EQ_INT(mode_of(p), 0600);
        {
                size_t n;
                char *b = t_read(p, &n);
                T_EQ_MEM(b, n, "two!", 4);
                free(b);
        }
        close(fd);
        /* an existing directory with wider modes is made 0700 */
        snprintf(p, sizeof(p), "%s/prc", base);
        T_ASSERT(chmod(p, 0777) == 0);
        fd = prc_datadir_open(false, &err);
        T_ASSERT(fd >= 0);
        T_EQ_INT(mode_of(p), 0700);
        close(fd);
        umask(old);
        unsetenv("XDG_DATA_HOME");
}

static void test_setup__datadir_symlink_refused(void)
{
        char base[4096], p[4200], q[4200];
        prc_err err;

        prc_err_init(&err);
        snprintf(base, sizeof(base), "%s/x", t_tmpdir());
        snprintf(p, sizeof(p), "%s/prc", base);
        snprintf(q, sizeof(q), "%s/elsewhere", t_tmpdir());
        T_ASSERT(mkdir(base, 0700) == 0 && mkdir(q, 0700) == 0 && symlink(q, p) == 0);
        setenv("XDG_DATA_HOME", base, 1);
        T_ASSERT(prc_datadir_open(true, &err) < 0);
        T_ERR(err, PRC_E_DATADIR_UNSAFE);
        unsetenv("XDG_DATA_HOME");
}

static void test_setup__stored_ruleset_is_found(void)
{
        char base[4096], p[4200];
        prc_err err;
        int fd;

        prc_err_init(&err);
        snprintf(base, sizeof(base), "%s/d", t_tmpdir());
        setenv("XDG_DATA_HOME", base, 1);
        fd = prc_datadir_open(true, &err);
        T_ASSERT(fd >= 0);
        T_ASSERT(prc_datadir_store(fd, PRC_GITLEAKS_RULESET_FILE, "x", 1, &err));
        close(fd);
        T_ASSERT(prc_setup_stored_ruleset(p, sizeof(p)));
        T_ASSERT(strstr(p, "/d/prc/gitleaks-v8.30.0.toml.gz") != NULL);
        unsetenv("XDG_DATA_HOME");
}

/* Before anything is loaded or sent: only https:// is fetched. */
static void test_setup__only_https_urls_are_fetched(void)
{
        static const char *const bad[] = { "http://127.0.0.1/x", "file:///etc/passwd", "ftp://h/x", "https://", "" };
        prc_https_opts o = { .max_bytes = 10 };
        prc_https_result r;
        prc_buf b;
        prc_err err;

        prc_buf_init(&b, 100);
        for (size_t i = 0; i < PRC_ARRAY_LEN(bad); i++) {
                prc_err_init(&err);
                T_ASSERT(!prc_https_get(bad[i], &o, &b, &r, &err));
                T_ERR(err, PRC_E_HTTPS_SCHEME_REFUSED);
                T_EQ_INT(b.len, 0);
        }
        prc_buf_clear(&b);
}

static const prc_test tests[] = {
        T(test_setup__pinned_images_are_the_reviewed_digests_in_table_order),
        T(test_setup__test_build_image_list_is_checked),
        T(test_setup__inspect_accepts_docker_and_podman_names),
        T(test_setup__inspect_refuses_anything_but_that_digest),
        T(test_setup__datadir_follows_xdg_then_home),
        T(test_setup__datadir_created_private_and_store_is_atomic),
        T(test_setup__datadir_symlink_refused),
        T(test_setup__stored_ruleset_is_found),
        T(test_setup__only_https_urls_are_fetched),
};
PRC_SUITE(setup, tests)
