/*
 * archive.c - bounded tar / tar.gz walk from memory (contract: archive.h).
 * Trust: input is hostile; runs only inside the content worker.  libarchive
 * reads from memory only and never extracts; prc checks every member's path
 * and link target lexically and follows nothing.  libarchive does not print:
 * its error strings become the message of one prc_err.
 * Errors: the archive-* classes, input-too-large, out-of-memory.
 */
#include "content/parsers/archive.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/libarchive.h"
#include "base/path.h"
#include "base/utf8.h"

const prc_archive_opts prc_archive_opts_default = {
        /* The worker's request cap is 16 MiB; an archive cannot be larger than its frame. */
        .input_max = 16u << 20,
        /* AUR snapshots hold a PKGBUILD, .SRCINFO and a few patches; 10k is generous. */
        .members_max = 10000,
        /* The largest file worth reading in a package snapshot is a patch or a lockfile. */
        .member_bytes_max = 32u << 20,
        /* The whole expanded stream; bounds the memory of the decompressed copy. */
        .total_bytes_max = 64u << 20,
        /* Source tarballs compress 3-10x; zeros compress ~1000x.  100 leaves room for sparse text. */
        .ratio_max = 100,
        /* A tiny archive is mostly zero padding and compresses far better; don't judge it. */
        .ratio_floor = 1u << 20,
        /* Requested contents travel back in one reply frame (64 MiB cap). */
        .want_bytes_max = 16u << 20,
};

const prc_archive_opts prc_archive_opts_fuzz = {
        .input_max = 256u << 10,
        .members_max = 64,
        .member_bytes_max = 64u << 10,
        .total_bytes_max = 512u << 10,
        .ratio_max = 20,
        .ratio_floor = 16u << 10,
        .want_bytes_max = 64u << 10,
};

enum { CHUNK = 64u << 10, NAME_SHOW_MAX = 256 };

/* Map a libarchive failure to a class by its (stable, English) error text. */
static prc_errclass classify(struct archive *a, prc_errclass dflt)
{
        const char *m = prc_la->error_string(a);

        if (m == NULL)
                return dflt;
        if (strstr(m, "runcat") != NULL || strstr(m, "remature end") != NULL || strstr(m, "nexpected EOF") != NULL ||
            strstr(m, "end of file") != NULL)
                return PRC_E_ARCHIVE_TRUNCATED;
        if (strstr(m, "nrecognized archive format") != NULL)
                return PRC_E_ARCHIVE_FORMAT;
        return dflt;
}

static bool arc_fail(struct archive *a, prc_errclass dflt, const char *what, prc_err *err)
{
        const char *m = prc_la->error_string(a);

        return prc_err_set(err, classify(a, dflt), "%s: %s", what, m != NULL ? m : "libarchive error");
}

/* The one compression layer an archive may have (zstd: AUR-style .tar.zst snapshots, issue 20). */
enum layer { LAYER_NONE, LAYER_GZIP, LAYER_ZSTD };

static const char *const layer_name[] = { "tar", "tar.gz", "tar.zst" };
static const char *const layer_stream[] = { "", "gzip", "zstd" };

static enum layer layer_of(const uint8_t *p, size_t n)
{
        if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B)
                return LAYER_GZIP;
        if (n >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD)
                return LAYER_ZSTD;
        return LAYER_NONE;
}

static int support_layer(struct archive *a, enum layer l)
{
        if (l == LAYER_GZIP)
                return prc_la->read_support_filter_gzip(a);
        if (l == LAYER_ZSTD)
                return prc_la->read_support_filter_zstd(a);
        return ARCHIVE_OK;
}

static int layer_code(enum layer l)
{
        return l == LAYER_GZIP ? ARCHIVE_FILTER_GZIP : ARCHIVE_FILTER_ZSTD;
}

/*
 * Pass 1 for gzip and zstd: decompress the one layer without keeping it, so
 * the total and ratio limits, the checksum, truncation and trailing bytes are
 * all judged on the whole stream before pass 2 walks the tar (libarchive's
 * tar reader stops at the end-of-archive marker and would not see what
 * follows).
 */
static bool layer_check(const uint8_t *p, size_t n, enum layer l, const prc_archive_opts *o, prc_err *err)
{
        uint64_t total = 0;
        struct archive *a = prc_la->read_new();
        struct archive_entry *e;
        uint8_t *chunk = NULL;
        bool ok = false;
        int r;

        if (a == NULL)
                return prc_err_oom(err, "the decompressor");
        if (support_layer(a, l) != ARCHIVE_OK || prc_la->read_support_format_raw(a) != ARCHIVE_OK) {
                arc_fail(a, PRC_E_INTERNAL, "cannot configure libarchive", err);
                goto out;
        }
        if (prc_la->read_open_memory(a, p, n) != ARCHIVE_OK) {
                arc_fail(a, PRC_E_ARCHIVE_FORMAT, "cannot read the compressed stream", err);
                goto out;
        }
        r = prc_la->read_next_header(a, &e);
        if (r != ARCHIVE_OK) {
                arc_fail(a, PRC_E_ARCHIVE_MALFORMED, "cannot read the compressed stream", err);
                goto out;
        }
        /* The layer + the raw reader's "none": a second layer would show as a third filter. */
        if (prc_la->filter_count(a) != 2 || prc_la->filter_code(a, 0) != layer_code(l)) {
                prc_err_set(err, PRC_E_ARCHIVE_FORMAT, "more than one compression layer");
                goto out;
        }
        chunk = malloc(CHUNK);
        if (chunk == NULL) {
                prc_err_oom(err, "the decompression buffer");
                goto out;
        }
        for (;;) {
                la_ssize_t got = prc_la->read_data(a, chunk, CHUNK);
                if (got == 0)
                        break;
                if (got < 0) {
                        arc_fail(a, PRC_E_ARCHIVE_MALFORMED, layer_stream[l], err);
                        goto out;
                }
                total += (uint64_t)got;
                if (total > o->total_bytes_max) {
                        prc_err_at(err, PRC_E_ARCHIVE_TOTAL_LIMIT, total,
                                   "expanded archive is over %" PRIu64 " bytes", o->total_bytes_max);
                        goto out;
                }
                /* Against the compressed bytes consumed so far: a bomb is caught early. */
                if (total > o->ratio_floor &&
                    total / (uint64_t)(prc_la->filter_bytes(a, -1) > 0 ? prc_la->filter_bytes(a, -1) : 1) >
                            o->ratio_max) {
                        prc_err_at(err, PRC_E_ARCHIVE_RATIO_LIMIT, total,
                                   "compression ratio is over %" PRIu32 ":1", o->ratio_max);
                        goto out;
                }
        }
        /* Bytes after the compressed stream are refused rather than silently ignored. */
        if (prc_la->filter_bytes(a, -1) < (la_int64_t)n) {
                prc_err_at(err, PRC_E_ARCHIVE_TRAILING, (uint64_t)prc_la->filter_bytes(a, -1),
                           "%" PRIu64 " bytes follow the %s stream",
                           (uint64_t)n - (uint64_t)prc_la->filter_bytes(a, -1), layer_stream[l]);
                goto out;
        }
        ok = true;
out:
        free(chunk);
        prc_la->read_free(a);
        return ok;
}

struct walk {
        const prc_archive_opts *o;
        prc_err                *err;
        json_t                 *members;        /* array */
        json_t                 *seen;           /* accepted member path -> type name */
        json_t                 *shape;          /* every normalizable member path -> type name */
        json_t                 *first;          /* normalized path -> index of its first member */
        json_t                 *dups;           /* normalized path -> true once duplicated */
        json_t                 *contents;       /* object */
        json_t                 *want;           /* wanted path -> true */
        uint64_t                want_bytes;
        uint64_t                every_max;      /* contents of every file up to this total (0: none) */
        json_t                 *too_large;      /* wanted paths refused for size */
        uint32_t                rejected;
};

/*
 * Names as stored.  A pax header holds UTF-8, which libarchive cannot turn
 * into the C locale's charset when it is not ASCII; the UTF-8 form is then
 * the stored one.  ustar and GNU names are raw bytes (the first form).
 */
static const char *ent_path(struct archive_entry *e)
{
        const char *s = prc_la->entry_pathname(e);
        return s != NULL ? s : prc_la->entry_pathname_utf8(e);
}

static const char *ent_symlink(struct archive_entry *e)
{
        const char *s = prc_la->entry_symlink(e);
        return s != NULL ? s : prc_la->entry_symlink_utf8(e);
}

static const char *ent_hardlink(struct archive_entry *e)
{
        const char *s = prc_la->entry_hardlink(e);
        return s != NULL ? s : prc_la->entry_hardlink_utf8(e);
}

static const char *type_name(struct archive_entry *e)
{
        if (ent_hardlink(e) != NULL)
                return "hardlink";
        switch (prc_la->entry_filetype(e)) {
        case AE_IFREG:
                return "file";
        case AE_IFDIR:
                return "dir";
        case AE_IFLNK:
                return "symlink";
        case AE_IFCHR:
                return "char";
        case AE_IFBLK:
                return "block";
        case AE_IFIFO:
                return "fifo";
        case AE_IFSOCK:
                return "socket";
        default:
                return "other";
        }
}

/* Strip leading "./" segments and a trailing "/" into out (a view into raw). */
static void normalize(const char *raw, bool is_dir, const char **out, size_t *out_len)
{
        size_t n = strlen(raw);

        while (n >= 2 && raw[0] == '.' && raw[1] == '/') {
                raw += 2;
                n -= 2;
                while (n > 0 && raw[0] == '/' && n > 1 && raw[1] != '/') {
                        /* "./" followed by "/x" stays absolute-looking; do not hide it. */
                        break;
                }
        }
        if (is_dir && n > 1 && raw[n - 1] == '/')
                n--;
        if (n == 1 && raw[0] == '.')
                n = 0;
        *out = raw;
        *out_len = n;
}

/* Lexically resolve a symlink target against the member's directory; false if it leaves the root. */
static bool link_inside(const char *path, size_t plen, const char *target)
{
        long depth = 0;
        const char *s;

        if (target[0] == '/' || target[0] == 0)
                return false;
        /* The member's own directory depth. */
        for (size_t k = 0; k < plen; k++)
                if (path[k] == '/')
                        depth++;
        for (s = target; *s;) {
                const char *e = strchr(s, '/');
                size_t l = e != NULL ? (size_t)(e - s) : strlen(s);
                if (l == 2 && s[0] == '.' && s[1] == '.') {
                        if (--depth < 0)
                                return false;
                } else if (!(l == 0 || (l == 1 && s[0] == '.'))) {
                        depth++;
                }
                s += l;
                if (*s == '/')
                        s++;
        }
        return true;
}

static bool set_str_shown(json_t *m, const char *raw, prc_err *err)
{
        size_t n = strlen(raw), cut = n > NAME_SHOW_MAX ? NAME_SHOW_MAX : n;
        json_t *v;

        if (prc_utf8_valid((const uint8_t *)raw, n, NULL)) {
                while (cut < n && cut > 0 && ((uint8_t)raw[cut] & 0xC0) == 0x80)
                        cut--;
                v = json_stringn(raw, cut);
                if (v == NULL || json_object_set_new(m, "path", v) != 0)
                        return prc_err_oom(err, "a member name");
        } else {
                char hex[2 * NAME_SHOW_MAX / 2 + 1];
                size_t h = cut > NAME_SHOW_MAX / 2 ? NAME_SHOW_MAX / 2 : cut;
                prc_hex_encode((const uint8_t *)raw, h, hex);
                if (json_object_set_new(m, "path_hex", json_string(hex)) != 0)
                        return prc_err_oom(err, "a member name");
                cut = h;
        }
        if (cut < n && json_object_set_new(m, "path_cut", json_true()) != 0)
                return prc_err_oom(err, "a member name");
        return true;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Contents as {"encoding","data"}: UTF-8 text as is, anything else base64. */
static json_t *contents_json(const uint8_t *p, size_t n)
{
        char *out;
        size_t k = 0, o = 0;
        json_t *r;

        if (prc_utf8_valid(p, n, NULL))
                return json_pack("{s:s,s:s%}", "encoding", "utf8", "data", n ? (const char *)p : "", n);
        out = malloc((n + 2) / 3 * 4 + 1);
        if (out == NULL)
                return NULL;
        for (; k + 2 < n; k += 3) {
                uint32_t v = (uint32_t)p[k] << 16 | (uint32_t)p[k + 1] << 8 | p[k + 2];
                out[o++] = b64[v >> 18];
                out[o++] = b64[(v >> 12) & 63];
                out[o++] = b64[(v >> 6) & 63];
                out[o++] = b64[v & 63];
        }
        if (k < n) {
                uint32_t v = (uint32_t)p[k] << 16 | (k + 1 < n ? (uint32_t)p[k + 1] << 8 : 0);
                out[o++] = b64[v >> 18];
                out[o++] = b64[(v >> 12) & 63];
                out[o++] = k + 1 < n ? b64[(v >> 6) & 63] : '=';
                out[o++] = '=';
        }
        r = json_pack("{s:s,s:s%}", "encoding", "base64", "data", out, o);
        free(out);
        return r;
}

/* Check path and links of one member; returns the rejection class or PRC_E_OK. */
static prc_errclass judge(struct walk *w, struct archive_entry *e, const char *type, const char *path, size_t plen)
{
        prc_err pe;
        char pfx[PRC_PATH_MAX + 1];

        prc_err_init(&pe);
        if (!prc_path_check(path, plen, &pe))
                return pe.cls;
        /* Any earlier symlink or non-directory member on the way makes writing through it possible. */
        for (size_t k = 0; k < plen; k++) {
                if (path[k] != '/')
                        continue;
                memcpy(pfx, path, k);
                pfx[k] = 0;
                {
                        json_t *t = json_object_get(w->shape, pfx);
                        if (t != NULL && strcmp(json_string_value(t), "dir") != 0)
                                return PRC_E_ARCHIVE_THROUGH_LINK;
                }
        }
        if (strcmp(type, "char") == 0 || strcmp(type, "block") == 0 || strcmp(type, "fifo") == 0 ||
            strcmp(type, "socket") == 0 || strcmp(type, "other") == 0)
                return PRC_E_ARCHIVE_SPECIAL;
        if (strcmp(type, "symlink") == 0) {
                const char *t = ent_symlink(e);
                if (t == NULL || !prc_utf8_valid((const uint8_t *)t, strlen(t), NULL) || !link_inside(path, plen, t))
                        return PRC_E_ARCHIVE_LINK_ESCAPE;
        }
        if (strcmp(type, "hardlink") == 0) {
                const char *t = ent_hardlink(e), *tn;
                size_t tl;
                json_t *tt;
                normalize(t, false, &tn, &tl);
                prc_err_init(&pe);
                if (!prc_path_check(tn, tl, &pe) || (tl == plen && memcmp(tn, path, plen) == 0))
                        return PRC_E_ARCHIVE_LINK_ESCAPE;
                memcpy(pfx, tn, tl);
                pfx[tl] = 0;
                tt = json_object_get(w->seen, pfx);
                /* A hardlink must name a regular file that came earlier in this archive. */
                if (tt == NULL || strcmp(json_string_value(tt), "file") != 0)
                        return PRC_E_ARCHIVE_LINK_ESCAPE;
        }
        return PRC_E_OK;
}

static bool member(struct walk *w, struct archive *a, struct archive_entry *e, uint32_t idx)
{
        const char *raw = ent_path(e), *type = type_name(e), *path;
        size_t plen;
        prc_errclass rej;
        json_t *m;
        bool is_file = strcmp(type, "file") == 0, wanted = false, ok = false;
        prc_buf keep;
        prc_sha256 *h = NULL;
        uint8_t *chunk = NULL;
        int64_t size = prc_la->entry_size_is_set(e) ? prc_la->entry_size(e) : 0;
        char pbuf[PRC_PATH_MAX + 1];

        prc_buf_init(&keep, w->o->member_bytes_max);
        if (raw == NULL)
                raw = "";
        if (size < 0 || (uint64_t)size > w->o->member_bytes_max) {
                prc_err_set(w->err, size < 0 ? PRC_E_ARCHIVE_MALFORMED : PRC_E_ARCHIVE_MEMBER_SIZE_LIMIT,
                            "member %" PRIu32 " declares %" PRId64 " bytes (limit %" PRIu64 ")", idx, size,
                            w->o->member_bytes_max);
                return false;
        }
        normalize(raw, strcmp(type, "dir") == 0, &path, &plen);
        m = json_pack("{s:I,s:s,s:I,s:I}", "index", (json_int_t)idx, "type", type, "size", (json_int_t)size,
                      "mode", (json_int_t)(prc_la->entry_perm(e) & 07777));
        if (m == NULL || json_array_append_new(w->members, m) != 0)
                return prc_err_oom(w->err, "the member list");
        if (prc_la->entry_mode(e) & (S_ISUID | S_ISGID))
                json_object_set_new(m, "setid", json_true());
        if (plen == 0 && strcmp(type, "dir") == 0) {
                /* The archive root ("./"): listed, nothing to check. */
                json_object_set_new(m, "path", json_string("."));
                return true;
        }
        rej = judge(w, e, type, path, plen);
        if (plen <= PRC_PATH_MAX) {
                prc_err pe;
                prc_err_init(&pe);
                memcpy(pbuf, path, plen);
                pbuf[plen] = 0;
                if (json_object_get(w->shape, pbuf) != NULL &&
                    !(strcmp(type, "dir") == 0 &&
                      strcmp(json_string_value(json_object_get(w->shape, pbuf)), "dir") == 0)) {
                        if (rej == PRC_E_OK)
                                rej = PRC_E_ARCHIVE_DUPLICATE;
                        json_object_set_new(w->dups, pbuf, json_true());
                        /* A duplicated path has no trustworthy contents: tar keeps the last copy. */
                        json_object_del(w->contents, pbuf);
                } else if (prc_path_check(path, plen, &pe) &&
                           json_object_set_new(w->shape, pbuf, json_string(type)) != 0) {
                        return prc_err_oom(w->err, "the member list");
                }
        }
        if (rej == PRC_E_OK) {
                if (json_object_set_new(m, "path", json_stringn(path, plen)) != 0 ||
                    json_object_set_new(w->seen, pbuf, json_string(type)) != 0 ||
                    json_object_set_new(w->first, pbuf, json_integer(idx)) != 0)
                        return prc_err_oom(w->err, "the member list");
                wanted = is_file && (json_object_get(w->want, pbuf) != NULL ||
                                     (size >= 0 && w->want_bytes + (uint64_t)size <= w->every_max));
        } else {
                prc_err pe;
                prc_err_init(&pe);
                w->rejected++;
                /* The normalized path when there is one (link and duplicate rejections), else the raw name. */
                if (prc_path_check(path, plen, &pe)) {
                        if (json_object_set_new(m, "path", json_stringn(path, plen)) != 0)
                                return prc_err_oom(w->err, "the member list");
                } else if (!set_str_shown(m, raw, w->err)) {
                        return false;
                }
                json_object_set_new(m, "rejected", json_string(prc_err_name(rej)));
        }
        if (ent_symlink(e) != NULL || ent_hardlink(e) != NULL) {
                const char *t = ent_symlink(e) != NULL ? ent_symlink(e) : ent_hardlink(e);
                size_t tl = strlen(t);
                if (prc_utf8_valid((const uint8_t *)t, tl, NULL))
                        json_object_set_new(m, "link", json_stringn(t, tl > NAME_SHOW_MAX ? NAME_SHOW_MAX : tl));
        }
        if (!is_file)
                return true;
        if (wanted && w->want_bytes + (uint64_t)size > w->o->want_bytes_max) {
                json_object_set_new(w->too_large, pbuf, json_true());
                wanted = false;
        }
        /* Read (never write) the data: digest, and keep it if it was asked for. */
        h = prc_sha256_new(w->err);
        chunk = malloc(CHUNK);
        if (h == NULL || chunk == NULL) {
                prc_err_oom(w->err, "the member reader");
                goto out;
        }
        {
                uint64_t got_total = 0;
                for (;;) {
                        la_ssize_t got = prc_la->read_data(a, chunk, CHUNK);
                        if (got == 0)
                                break;
                        if (got < 0) {
                                arc_fail(a, PRC_E_ARCHIVE_MALFORMED, "member data", w->err);
                                goto out;
                        }
                        got_total += (uint64_t)got;
                        if (got_total > (uint64_t)size) {
                                prc_err_set(w->err, PRC_E_ARCHIVE_MALFORMED, "member %" PRIu32
                                            " has more data than its header says", idx);
                                goto out;
                        }
                        if (!prc_sha256_update(h, chunk, (size_t)got, w->err))
                                goto out;
                        if (wanted && !prc_buf_put(&keep, chunk, (size_t)got, w->err))
                                goto out;
                }
                if (got_total != (uint64_t)size) {
                        prc_err_set(w->err, PRC_E_ARCHIVE_TRUNCATED, "member %" PRIu32 " ends early", idx);
                        goto out;
                }
        }
        {
                uint8_t d[PRC_SHA256_LEN];
                char hex[PRC_SHA256_HEX + 1];
                if (!prc_sha256_final(h, d, w->err))
                        goto out;
                prc_hex_encode(d, sizeof(d), hex);
                if (json_object_set_new(m, "sha256", json_string(hex)) != 0) {
                        prc_err_oom(w->err, "the member list");
                        goto out;
                }
        }
        if (wanted) {
                json_t *c = contents_json(keep.data, keep.len);
                if (c == NULL || json_object_set_new(w->contents, pbuf, c) != 0) {
                        prc_err_oom(w->err, "member contents");
                        goto out;
                }
                w->want_bytes += keep.len;
        }
        ok = true;
out:
        prc_sha256_free(h);
        free(chunk);
        prc_buf_clear(&keep);
        return ok;
}

/* libarchive's warning that a UTF-8 name has no form in the current locale's charset. */
static bool charset_warning(struct archive *a)
{
        const char *m = prc_la->error_string(a);

        return m != NULL && strstr(m, "can't be converted from UTF-8") != NULL;
}

/* libarchive recognized no format: a ustar magic means a damaged header, a short input truncation. */
static void unrecognized(struct walk *w, struct archive *a, const uint8_t *p, size_t n, enum layer l)
{
        const char *m = prc_la->error_string(a);
        prc_errclass c = PRC_E_ARCHIVE_FORMAT;

        if (l == LAYER_NONE && n < 512)
                c = PRC_E_ARCHIVE_TRUNCATED;
        else if (l == LAYER_NONE && memcmp(p + 257, "ustar", 5) == 0)
                c = PRC_E_ARCHIVE_MALFORMED;
        prc_err_set(w->err, c, "not a tar archive: %s", m != NULL ? m : "unrecognized format");
}

static bool walk_tar(struct walk *w, const uint8_t *p, size_t n, enum layer l)
{
        struct archive *a = prc_la->read_new();
        struct archive_entry *e;
        uint32_t idx = 0;
        bool ok = false;

        if (a == NULL)
                return prc_err_oom(w->err, "the tar reader");
        if (prc_la->read_support_format_tar(a) != ARCHIVE_OK ||
            support_layer(a, l) != ARCHIVE_OK) {
                arc_fail(a, PRC_E_INTERNAL, "cannot configure libarchive", w->err);
                goto out;
        }
        if (prc_la->read_open_memory(a, p, n) != ARCHIVE_OK) {
                unrecognized(w, a, p, n, l);
                goto out;
        }
        for (;;) {
                int r = prc_la->read_next_header(a, &e);
                if (r == ARCHIVE_EOF)
                        break;
                if (r == ARCHIVE_WARN && charset_warning(a)) {
                        /* Only the C-locale copy of a UTF-8 pax name failed; the UTF-8 name is used. */
                        r = ARCHIVE_OK;
                }
                if (r != ARCHIVE_OK) {
                        /* Other warnings too: a header libarchive had to repair is not one prc trusts. */
                        if (prc_la->format(a) == 0)
                                unrecognized(w, a, p, n, l);
                        else
                                arc_fail(a, PRC_E_ARCHIVE_MALFORMED, "tar header", w->err);
                        goto located;
                }
                if (l != LAYER_NONE && prc_la->filter_count(a) > 2) {
                        prc_err_set(w->err, PRC_E_ARCHIVE_FORMAT, "more than one compression layer");
                        goto located;
                }
                if (idx >= w->o->members_max) {
                        prc_err_set(w->err, PRC_E_ARCHIVE_MEMBERS_LIMIT, "more than %" PRIu32 " members",
                                    w->o->members_max);
                        goto located;
                }
                if (!member(w, a, e, idx))
                        goto located;
                if ((uint64_t)prc_la->filter_bytes(a, 0) > w->o->total_bytes_max) {
                        prc_err_set(w->err, PRC_E_ARCHIVE_TOTAL_LIMIT, "tar stream is over %" PRIu64 " bytes",
                                    w->o->total_bytes_max);
                        goto located;
                }
                idx++;
        }
        ok = true;
        goto out;
located:
        {
                char ptr[32];
                snprintf(ptr, sizeof(ptr), "/members/%" PRIu32, idx);
                prc_err_set_ptr(w->err, ptr);
                if (w->err->off == PRC_NO_OFF)
                        w->err->off = (uint64_t)prc_la->filter_bytes(a, 0);
        }
out:
        prc_la->read_free(a);
        return ok;
}

json_t *prc_archive_walk(const uint8_t *p, size_t n, const prc_archive_opts *o, const char *const *wanted,
                         size_t nwanted, prc_err *err)
{
        return prc_archive_walk_every(p, n, o, wanted, nwanted, 0, err);
}

json_t *prc_archive_walk_every(const uint8_t *p, size_t n, const prc_archive_opts *o, const char *const *wanted,
                               size_t nwanted, uint64_t every_max, prc_err *err)
{
        struct walk w;
        enum layer l = layer_of(p, n);
        json_t *res = NULL, *unavail = NULL;

        memset(&w, 0, sizeof(w));
        if (prc_libarchive_load(err) == NULL)
                return NULL;    /* in a worker: loaded before its floor, or this is not an archive worker */
        if (n > o->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "archive of %zu bytes is over the %zu-byte cap", n,
                            o->input_max);
                return NULL;
        }
        w.o = o;
        w.err = err;
        w.every_max = every_max < o->want_bytes_max ? every_max : o->want_bytes_max;
        w.members = json_array();
        w.seen = json_object();
        w.shape = json_object();
        w.first = json_object();
        w.dups = json_object();
        w.contents = json_object();
        w.want = json_object();
        w.too_large = json_object();
        unavail = json_object();
        if (w.members == NULL || w.seen == NULL || w.shape == NULL || w.first == NULL || w.dups == NULL ||
            w.contents == NULL ||
            w.want == NULL || w.too_large == NULL || unavail == NULL) {
                prc_err_oom(err, "the archive listing");
                goto out;
        }
        for (size_t k = 0; k < nwanted; k++)
                if (wanted[k] != NULL && json_object_set_new(w.want, wanted[k], json_true()) != 0 &&
                    prc_utf8_valid((const uint8_t *)wanted[k], strlen(wanted[k]), NULL)) {
                        prc_err_oom(err, "the wanted list");
                        goto out;
                }
        if (l != LAYER_NONE && !layer_check(p, n, l, o, err))
                goto out;
        if (!walk_tar(&w, p, n, l))
                goto out;
        for (size_t k = 0; k < nwanted; k++) {
                const char *why = NULL, *name = wanted[k];
                json_t *t;
                if (name == NULL || json_object_get(w.contents, name) != NULL)
                        continue;
                t = json_object_get(w.seen, name);
                if (json_object_get(w.dups, name) != NULL)
                        why = "duplicate";
                else if (json_object_get(w.too_large, name) != NULL)
                        why = "too-large";
                else if (t != NULL && strcmp(json_string_value(t), "file") != 0)
                        why = "not-a-file";
                else
                        why = "not-found";
                /* A rejected member never enters "seen": say so when the raw listing has it. */
                if (t == NULL && strcmp(why, "not-found") == 0) {
                        for (size_t m = 0; m < json_array_size(w.members); m++) {
                                json_t *mm = json_array_get(w.members, m);
                                const char *pp = json_string_value(json_object_get(mm, "path"));
                                if (pp != NULL && json_object_get(mm, "rejected") != NULL && strcmp(pp, name) == 0)
                                        why = "rejected";
                        }
                }
                (void)json_object_set_new(unavail, name, json_string(why));
        }
        res = json_pack("{s:s,s:O,s:I,s:O,s:O}", "format", layer_name[l], "members", w.members, "rejected",
                        (json_int_t)w.rejected, "contents", w.contents, "unavailable", unavail);
        if (res == NULL)
                prc_err_oom(err, "the archive listing");
out:
        json_decref(w.members);
        json_decref(w.seen);
        json_decref(w.shape);
        json_decref(w.first);
        json_decref(w.dups);
        json_decref(w.contents);
        json_decref(w.want);
        json_decref(w.too_large);
        json_decref(unavail);
        return res;
}

/* One ustar header block: name, type flag, size; checksum filled in. */
static void ustar_header(uint8_t h[512], const char *name, char type, unsigned size)
{
        unsigned sum = 0;

        memset(h, 0, 512);
        snprintf((char *)h, 100, "%s", name);
        memcpy(h + 100, "0000644", 8);
        memcpy(h + 108, "0000000", 8);
        memcpy(h + 116, "0000000", 8);
        snprintf((char *)h + 124, 12, "%011o", size);
        memcpy(h + 136, "00000000000", 12);
        h[156] = (uint8_t)type;
        memcpy(h + 257, "ustar", 6);
        memcpy(h + 263, "00", 2);
        memset(h + 148, ' ', 8);
        for (int i = 0; i < 512; i++)
                sum += h[i];
        snprintf((char *)h + 148, 8, "%06o", sum);
        h[155] = ' ';
}

bool prc_archive_prepare(prc_err *err)
{
        /* pax header (path = U+00E9), the member header, one data block, the end marker. */
        static uint8_t tar[512 * 6];
        static const char rec[] = "11 path=\xC3\xA9\n";
        const char *want[] = { "\xC3\xA9" };
        json_t *d;

        /*
         * One walk of a tiny pax archive with a non-ASCII UTF-8 name makes
         * glibc load its charset-conversion cache and OpenSSL its
         * configuration now, the two files a walk would otherwise open later.
         */
        memset(tar, 0, sizeof(tar));
        ustar_header(tar, "PaxHeader", 'x', (unsigned)strlen(rec));
        memcpy(tar + 512, rec, strlen(rec));
        ustar_header(tar + 1024, "x", '0', 1);
        tar[1536] = 'x';
        d = prc_archive_walk(tar, sizeof(tar), &prc_archive_opts_default, want, 1, err);
        if (d == NULL)
                return false;
        if (json_object_get(json_object_get(d, "contents"), want[0]) == NULL) {
                json_decref(d);
                return prc_err_set(err, PRC_E_INTERNAL, "archive warm-up walk did not return its member");
        }
        json_decref(d);
        return true;
}
