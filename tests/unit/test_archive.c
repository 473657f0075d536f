/*
 * test_archive.c - the tar / tar.gz walker: listing, normalization,
 * dangerous members listed as rejected, requested contents, every limit.
 * Fixtures are built in memory with libarchive's writer (test code only).
 */
#include "t.h"
#include "test_archive_fixture.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/jcs.h"
#include "content/parsers/archive.h"

/* Build an archive of ms into a malloc'd buffer (test_archive_fixture.h). */
uint8_t *fx_archive(const struct fx_mem *ms, size_t n, unsigned flags, size_t *out_len)
{
        size_t cap = 1 << 22, used = 0;
        uint8_t *buf = malloc(cap);
        struct archive *a = archive_write_new();

        T_ASSERT(buf != NULL && a != NULL);
        T_ASSERT(archive_write_set_format_pax_restricted(a) == ARCHIVE_OK);
        if (flags & F_GZIP)
                T_ASSERT(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
        if (flags & F_ZSTD)
                T_ASSERT(archive_write_add_filter_zstd(a) == ARCHIVE_OK);
        T_ASSERT(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
        T_ASSERT(archive_write_open_memory(a, buf, cap, &used) == ARCHIVE_OK);
        for (size_t i = 0; i < n; i++) {
                struct archive_entry *e = archive_entry_new();
                size_t len = ms[i].len ? ms[i].len : (ms[i].data ? strlen(ms[i].data) : 0);
                archive_entry_set_pathname(e, ms[i].name);
                archive_entry_set_perm(e, ms[i].mode ? ms[i].mode : 0644);
                switch (ms[i].type) {
                case 'f':
                        archive_entry_set_filetype(e, AE_IFREG);
                        archive_entry_set_size(e, (la_int64_t)len);
                        break;
                case 'd':
                        archive_entry_set_filetype(e, AE_IFDIR);
                        break;
                case 'l':
                        archive_entry_set_filetype(e, AE_IFLNK);
                        archive_entry_set_symlink(e, ms[i].data);
                        break;
                case 'h':
                        archive_entry_set_filetype(e, AE_IFREG);
                        archive_entry_set_hardlink(e, ms[i].data);
                        break;
                case 'c':
                        archive_entry_set_filetype(e, AE_IFCHR);
                        break;
                case 'p':
                        archive_entry_set_filetype(e, AE_IFIFO);
                        break;
                default:
                        t_fail(__FILE__, __LINE__, "bad fixture type");
                }
                T_ASSERT(archive_write_header(a, e) == ARCHIVE_OK);
                if (ms[i].type == 'f' && len > 0) {
                        if (ms[i].data != NULL) {
                                T_ASSERT(archive_write_data(a, ms[i].data, len) == (la_ssize_t)len);
                        } else {
                                /* NULL data with a length: zeros. */
                                uint8_t *z = calloc(1, len);
                                T_ASSERT(z != NULL);
                                T_ASSERT(archive_write_data(a, z, len) == (la_ssize_t)len);
                                free(z);
                        }
                }
                archive_entry_free(e);
        }
        T_ASSERT(archive_write_close(a) == ARCHIVE_OK);
        archive_write_free(a);
        *out_len = used;
        return buf;
}

static json_t *walk(const uint8_t *p, size_t n, const prc_archive_opts *o, const char *const *w, size_t nw, prc_err *e)
{
        prc_err_init(e);
        return prc_archive_walk(p, n, o ? o : &prc_archive_opts_default, w, nw, e);
}

static json_t *member(json_t *doc, size_t i)
{
        json_t *m = json_array_get(json_object_get(doc, "members"), i);

        if (m == NULL)
                t_fail(__FILE__, __LINE__, "no member %zu", i);
        return m;
}

static const char *str(json_t *o, const char *k)
{
        const char *s = json_string_value(json_object_get(o, k));
        return s != NULL ? s : "(absent)";
}

static void test_archive__lists_members_with_digests_and_contents(void)
{
        static const struct fx_mem ms[] = {
                { 'd', "./pkg/", NULL, 0, 0755 },  { 'f', "./pkg/PKGBUILD", "pkgname=x\n", 0, 0 },
                { 'f', "pkg/bin", "\x00\xff\x01", 3, 0 }, { 'l', "pkg/link", "PKGBUILD", 0, 0777 },
                { 'f', "pkg/suid", "x", 0, 04755 },
        };
        const char *want[] = { "pkg/PKGBUILD", "pkg/bin", "pkg/link", "pkg/missing", "pkg" };
        size_t n;
        uint8_t *tar = fx_archive(ms, PRC_ARRAY_LEN(ms), 0, &n);
        prc_err e;
        char hex[PRC_SHA256_HEX + 1];
        json_t *d = walk(tar, n, NULL, want, PRC_ARRAY_LEN(want), &e), *c;

        T_NOERR(e);
        T_EQ_STR(str(d, "format"), "tar");
        T_EQ_INT(json_array_size(json_object_get(d, "members")), 5);
        T_EQ_STR(str(member(d, 0), "path"), "pkg");
        T_EQ_STR(str(member(d, 0), "type"), "dir");
        T_EQ_STR(str(member(d, 1), "path"), "pkg/PKGBUILD");
        T_EQ_INT(json_integer_value(json_object_get(member(d, 1), "size")), 10);
        T_ASSERT(prc_sha256_hex_once("pkgname=x\n", 10, hex, &e));
        T_EQ_STR(str(member(d, 1), "sha256"), hex);
        T_EQ_STR(str(member(d, 3), "type"), "symlink");
        T_EQ_STR(str(member(d, 3), "link"), "PKGBUILD");
        T_ASSERT(json_object_get(member(d, 3), "rejected") == NULL);
        T_ASSERT(json_is_true(json_object_get(member(d, 4), "setid")));
        T_EQ_INT(json_integer_value(json_object_get(member(d, 4), "mode")), 04755);
        T_EQ_INT(json_integer_value(json_object_get(d, "rejected")), 0);
        c = json_object_get(d, "contents");
        T_EQ_STR(str(json_object_get(c, "pkg/PKGBUILD"), "encoding"), "utf8");
        T_EQ_STR(str(json_object_get(c, "pkg/PKGBUILD"), "data"), "pkgname=x\n");
        T_EQ_STR(str(json_object_get(c, "pkg/bin"), "encoding"), "base64");
        T_EQ_STR(str(json_object_get(c, "pkg/bin"), "data"), "AP8B");
        T_EQ_STR(str(json_object_get(d, "unavailable"), "pkg/link"), "not-a-file");
        T_EQ_STR(str(json_object_get(d, "unavailable"), "pkg/missing"), "not-found");
        T_EQ_STR(str(json_object_get(d, "unavailable"), "pkg"), "not-a-file");
        json_decref(d);
        free(tar);
}

static void test_archive__gzip_layer_is_read_from_memory(void)
{
        static const struct fx_mem ms[] = { { 'f', "a.txt", "hello", 0, 0 } };
        const char *want[] = { "a.txt" };
        size_t n;
        uint8_t *tgz = fx_archive(ms, 1, F_GZIP, &n);
        prc_err e;
        json_t *d = walk(tgz, n, NULL, want, 1, &e);

        T_NOERR(e);
        T_EQ_STR(str(d, "format"), "tar.gz");
        T_EQ_STR(str(json_object_get(json_object_get(d, "contents"), "a.txt"), "data"), "hello");
        json_decref(d);
        free(tgz);
}

static void test_archive__dangerous_members_are_listed_as_rejected(void)
{
        static const struct fx_mem ms[] = {
                { 'f', "/etc/abs", "x", 0, 0 },          { 'f', "pkg/../../up", "x", 0, 0 },
                { 'f', "a\\b", "x", 0, 0 },              { 'l', "pkg/esc", "../../etc", 0, 0 },
                { 'l', "pkg/absl", "/etc/shadow", 0, 0 }, { 'f', "pkg/absl/x", "x", 0, 0 },
                { 'c', "pkg/null", NULL, 0, 0 },          { 'p', "pkg/fifo", NULL, 0, 0 },
                { 'h', "pkg/hl", "/etc/passwd", 0, 0 },   { 'h', "pkg/self", "pkg/self", 0, 0 },
                { 'f', "pkg/dup", "first", 0, 0 },        { 'f', "./pkg/dup", "second", 0, 0 },
                { 'l', "pkg/in", "sub/../dup", 0, 0 },    { 'f', "pkg/real", "r", 0, 0 },
                { 'h', "pkg/hard", "pkg/real", 0, 0 },
        };
        static const char *const want_rej[] = {
                "path-absolute", "path-dotdot", "path-backslash", "archive-link-escape", "archive-link-escape",
                "archive-through-link", "archive-special", "archive-special", "archive-link-escape",
                "archive-link-escape", NULL, "archive-duplicate", NULL, NULL, NULL,
        };
        const char *want[] = { "pkg/dup", "pkg/absl/x", "pkg/real" };
        size_t n;
        uint8_t *tar = fx_archive(ms, PRC_ARRAY_LEN(ms), 0, &n);
        prc_err e;
        json_t *d = walk(tar, n, NULL, want, PRC_ARRAY_LEN(want), &e);

        T_NOERR(e);
        for (size_t i = 0; i < PRC_ARRAY_LEN(ms); i++) {
                const char *r = json_string_value(json_object_get(member(d, i), "rejected"));
                if (want_rej[i] == NULL && r != NULL)
                        t_fail(__FILE__, __LINE__, "member %zu (%s) rejected as %s", i, ms[i].name, r);
                if (want_rej[i] != NULL && (r == NULL || strcmp(r, want_rej[i]) != 0))
                        t_fail(__FILE__, __LINE__, "member %zu (%s): %s, want %s", i, ms[i].name,
                               r ? r : "accepted", want_rej[i]);
        }
        T_EQ_INT(json_integer_value(json_object_get(d, "rejected")), 11);
        /* A rejected member keeps its raw name for the reviewer, or its normalized one if it has one. */
        T_EQ_STR(str(member(d, 0), "path"), "/etc/abs");
        T_EQ_STR(str(member(d, 11), "path"), "pkg/dup");
        /* Contents are never handed out for ambiguous or rejected paths. */
        T_EQ_STR(str(json_object_get(d, "unavailable"), "pkg/dup"), "duplicate");
        T_EQ_STR(str(json_object_get(d, "unavailable"), "pkg/absl/x"), "rejected");
        T_EQ_STR(str(json_object_get(json_object_get(d, "contents"), "pkg/real"), "data"), "r");
        T_EQ_INT(json_object_size(json_object_get(d, "contents")), 1);
        json_decref(d);
        free(tar);
}

static void test_archive__member_count_size_and_total_limits(void)
{
        static const struct fx_mem ms[] = {
                { 'f', "a", "1", 0, 0 }, { 'f', "b", "2", 0, 0 }, { 'f', "c", "3", 0, 0 }, { 'f', "d", NULL, 5000, 0 },
        };
        prc_archive_opts o = prc_archive_opts_default;
        size_t n;
        uint8_t *tar = fx_archive(ms, PRC_ARRAY_LEN(ms), 0, &n);
        prc_err e;
        json_t *d;

        o.members_max = 3;
        d = walk(tar, n, &o, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_MEMBERS_LIMIT);
        T_EQ_STR(e.ptr, "/members/3");
        o = prc_archive_opts_default;
        o.member_bytes_max = 4096;
        d = walk(tar, n, &o, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_MEMBER_SIZE_LIMIT);
        o = prc_archive_opts_default;
        o.total_bytes_max = 4096;
        d = walk(tar, n, &o, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_TOTAL_LIMIT);
        o = prc_archive_opts_default;
        o.input_max = n - 1;
        d = walk(tar, n, &o, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_INPUT_TOO_LARGE);
        free(tar);
}

static void test_archive__wanted_contents_are_capped(void)
{
        static const struct fx_mem ms[] = { { 'f', "big", NULL, 3000, 0 }, { 'f', "small", "s", 0, 0 } };
        const char *want[] = { "big", "small" };
        prc_archive_opts o = prc_archive_opts_default;
        size_t n;
        uint8_t *tar = fx_archive(ms, 2, 0, &n);
        prc_err e;
        json_t *d;

        o.want_bytes_max = 2000;
        d = walk(tar, n, &o, want, 2, &e);
        T_NOERR(e);
        T_EQ_STR(str(json_object_get(d, "unavailable"), "big"), "too-large");
        T_EQ_STR(str(json_object_get(json_object_get(d, "contents"), "small"), "data"), "s");
        json_decref(d);
        free(tar);
}

static void test_archive__gzip_bomb_hits_the_ratio_limit(void)
{
        static const struct fx_mem ms[] = { { 'f', "zeros", NULL, 3u << 20, 0 } };
        size_t n;
        uint8_t *tgz = fx_archive(ms, 1, F_GZIP, &n);
        prc_err e;
        json_t *d = walk(tgz, n, NULL, NULL, 0, &e);

        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_RATIO_LIMIT);
        free(tgz);
}

static void test_archive__damaged_inputs_are_refused_with_their_class(void)
{
        static const struct fx_mem ms[] = { { 'f', "a", "hello world", 0, 0 } };
        size_t n, gn;
        uint8_t *tar = fx_archive(ms, 1, 0, &n), *tgz = fx_archive(ms, 1, F_GZIP, &gn), *buf;
        prc_err e;
        json_t *d;

        d = walk((const uint8_t *)"this is not an archive at all", 29, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_TRUNCATED);
        buf = calloc(1, 4096);
        T_ASSERT(buf != NULL);
        memset(buf, 'x', 4096);
        d = walk(buf, 4096, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_FORMAT);
        /* A ustar header with a wrong checksum. */
        memcpy(buf, tar, 4096 < n ? 4096 : n);
        buf[148] ^= 1;
        d = walk(buf, n < 4096 ? n : 4096, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_MALFORMED);
        /* Cut inside the member data. */
        d = walk(tar, 512 + 5, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_TRUNCATED);
        /* gzip: cut short, and garbage after the stream. */
        d = walk(tgz, gn - 10, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_TRUNCATED);
        memcpy(buf, tgz, gn);
        memcpy(buf + gn, "GARBAGE", 7);
        d = walk(buf, gn + 7, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_TRAILING);
        free(buf);
        free(tar);
        free(tgz);
}

static void test_archive__second_gzip_layer_is_refused(void)
{
        static const struct fx_mem ms[] = { { 'f', "a", "x", 0, 0 } };
        size_t gn, used = 0;
        uint8_t *tgz = fx_archive(ms, 1, F_GZIP, &gn), *outer = malloc(1 << 20);
        struct archive *a = archive_write_new();
        struct archive_entry *en = archive_entry_new();
        prc_err e;
        json_t *d;

        /* Wrap the .tar.gz bytes in another gzip layer with the raw writer. */
        T_ASSERT(outer != NULL && a != NULL && en != NULL);
        T_ASSERT(archive_write_set_format_raw(a) == ARCHIVE_OK);
        T_ASSERT(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
        T_ASSERT(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
        T_ASSERT(archive_write_open_memory(a, outer, 1 << 20, &used) == ARCHIVE_OK);
        archive_entry_set_filetype(en, AE_IFREG);
        T_ASSERT(archive_write_header(a, en) == ARCHIVE_OK);
        T_ASSERT(archive_write_data(a, tgz, gn) == (la_ssize_t)gn);
        T_ASSERT(archive_write_close(a) == ARCHIVE_OK);
        archive_write_free(a);
        archive_entry_free(en);
        d = walk(outer, used, NULL, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_FORMAT);
        free(outer);
        free(tgz);
}

static void test_archive__output_is_canonical_json(void)
{
        static const struct fx_mem ms[] = { { 'f', "a", "x", 0, 0 }, { 'f', "/b", "y", 0, 0 } };
        size_t n;
        uint8_t *tar = fx_archive(ms, 2, 0, &n);
        prc_err e;
        prc_buf b;
        json_t *d = walk(tar, n, NULL, NULL, 0, &e);

        T_NOERR(e);
        prc_buf_init(&b, 1 << 20);
        T_ASSERT(prc_jcs_write(d, &b, &e));
        T_ASSERT(strstr(prc_buf_cstr(&b), "\"rejected\":\"path-absolute\"") != NULL);
        prc_buf_clear(&b);
        json_decref(d);
        free(tar);
}

static void test_archive__prepare_walks_a_pax_archive_with_a_utf8_name(void)
{
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_archive_prepare(&e));
        T_NOERR(e);
}

/*
 * Truncations (every 16th length of the tar, every length of the tar.gz)
 * and single-bit flips (the tar's first block whole, bytes 0-344 of every
 * later block, where the ustar fields are; every byte of the tar.gz):
 * exactly one outcome, no crash.
 */
static void test_archive__truncation_and_bitflip_sweep(void)
{
        static const struct fx_mem ms[] = {
                { 'd', "pkg/", NULL, 0, 0755 }, { 'f', "pkg/PKGBUILD", "pkgname=x\n", 0, 0 },
                { 'l', "pkg/l", "PKGBUILD", 0, 0 },
        };
        const char *want[] = { "pkg/PKGBUILD" };
        size_t n, gn;
        uint8_t *tar = fx_archive(ms, PRC_ARRAY_LEN(ms), 0, &n), *tgz = fx_archive(ms, PRC_ARRAY_LEN(ms), F_GZIP, &gn);
        uint8_t *buf = malloc(n > gn ? n : gn);
        unsigned ok = 0, refused = 0;

        T_ASSERT(buf != NULL);
        for (int which = 0; which < 2; which++) {
                const uint8_t *src = which ? tgz : tar;
                size_t len = which ? gn : n;
                for (size_t cut = 0; cut <= len; cut += which ? 1 : 16) {
                        prc_err e;
                        json_t *v = walk(src, cut, NULL, want, 1, &e);
                        T_ASSERT((v == NULL) == prc_err_is_set(&e));
                        json_decref(v);
                }
                for (size_t i = 0; i < len; i++) {
                        /* Plain tar: skip the ustar prefix field and padding of later blocks (inert). */
                        if (!which && (i % 512) >= 345 && i >= 512)
                                continue;
                        for (int bit = 0; bit < 8; bit++) {
                                prc_err e;
                                json_t *v;
                                memcpy(buf, src, len);
                                buf[i] ^= (uint8_t)(1u << bit);
                                v = walk(buf, len, NULL, want, 1, &e);
                                T_ASSERT((v == NULL) == prc_err_is_set(&e));
                                if (v != NULL)
                                        ok++;
                                else
                                        refused++;
                                json_decref(v);
                        }
                }
        }
        T_ASSERT(ok > 0 && refused > 0);
        free(buf);
        free(tar);
        free(tgz);
}

/* Issue 20: .tar.zst snapshots walk like .tar.gz, with the same bounds on the one layer. */
static void test_archive__zstd_layer_is_read_and_bounded(void)
{
        static const struct fx_mem ms[] = { { 'd', "pkg/", NULL, 0, 0755 }, { 'f', "pkg/PKGBUILD", "pkgname=z\n", 0, 0 } };
        const char *want[] = { "pkg/PKGBUILD" };
        size_t n;
        uint8_t *zst = fx_archive(ms, 2, F_ZSTD, &n), *longer;
        prc_err e;
        json_t *d;

        prc_err_init(&e);
        d = walk(zst, n, &prc_archive_opts_default, want, 1, &e);
        T_NOERR(e);
        T_EQ_STR(str(d, "format"), "tar.zst");
        T_EQ_STR(str(json_object_get(json_object_get(d, "contents"), "pkg/PKGBUILD"), "data"), "pkgname=z\n");
        json_decref(d);
        /* Bytes after the zstd frame are refused, never ignored. */
        longer = malloc(n + 3);
        T_ASSERT(longer != NULL);
        memcpy(longer, zst, n);
        memcpy(longer + n, "xyz", 3);
        prc_err_init(&e);
        d = walk(longer, n + 3, &prc_archive_opts_default, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ASSERT(e.cls == PRC_E_ARCHIVE_TRAILING || e.cls == PRC_E_ARCHIVE_MALFORMED || e.cls == PRC_E_ARCHIVE_FORMAT);
        /* Truncated frame. */
        prc_err_init(&e);
        d = walk(zst, n - 4, &prc_archive_opts_default, NULL, 0, &e);
        T_ASSERT(d == NULL && e.cls != PRC_E_OK);
        free(longer);
        free(zst);
}

static void test_archive__zstd_bomb_hits_the_ratio_limit(void)
{
        static const struct fx_mem ms[] = { { 'f', "zeros", NULL, 8u << 20, 0 } };
        size_t n;
        uint8_t *zst = fx_archive(ms, 1, F_ZSTD, &n);
        prc_err e;
        json_t *d;

        prc_err_init(&e);
        d = walk(zst, n, &prc_archive_opts_default, NULL, 0, &e);
        T_ASSERT(d == NULL);
        T_ERR(e, PRC_E_ARCHIVE_RATIO_LIMIT);
        free(zst);
}

static const prc_test tests[] = {
        T(test_archive__zstd_layer_is_read_and_bounded),
        T(test_archive__zstd_bomb_hits_the_ratio_limit),
        T(test_archive__prepare_walks_a_pax_archive_with_a_utf8_name),
        T(test_archive__lists_members_with_digests_and_contents),
        T(test_archive__gzip_layer_is_read_from_memory),
        T(test_archive__dangerous_members_are_listed_as_rejected),
        T(test_archive__member_count_size_and_total_limits),
        T(test_archive__wanted_contents_are_capped),
        T(test_archive__gzip_bomb_hits_the_ratio_limit),
        T(test_archive__damaged_inputs_are_refused_with_their_class),
        T(test_archive__second_gzip_layer_is_refused),
        T(test_archive__output_is_canonical_json),
        T(test_archive__truncation_and_bitflip_sweep),
};
PRC_SUITE(archive, tests)
