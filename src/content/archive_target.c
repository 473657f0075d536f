/*
 * archive_target.c - archive snapshots as scan targets (see archive_target.h).
 * Trust: trusted side.  The archive's bytes are only hashed and forwarded;
 * every reply of the worker is validated before it is believed: member
 * paths must normalize and be unique, types come from a closed set,
 * rejection reasons must be class names, files carry sizes and SHA-256,
 * and member contents must match the listing (prc_inventory_read checks).
 */
#include "content/archive_target.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/buf.h"
#include "base/digest.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/path.h"
#include "content/dispatch.h"
#include "content/frame.h"

/*
 * Member reads are batched: one walk returns up to WANT_BATCH members (the
 * walk's own bound on wanted names) and at most WANT_BYTES of contents, so
 * a package of tens of files costs one or two extra walks, not one per file.
 */
enum { WANT_BATCH = 64, WANT_BYTES = 8u << 20 };
/*
 * Issue 21: the listing walk also brings back every file's contents up to
 * this total, so a snapshot of small files (an AUR package) is walked
 * once; what does not fit is read in batches as above.
 */
enum { WANT_FIRST = 1u << 20 };

struct member {
        char    *path;          /* owned: inventory path (the package root stripped) */
        char    *wire;          /* owned: the path the worker knows (root included; a hardlink's target) */
        int      type;          /* PRC_INV_FILE, PRC_INV_SYMLINK, or 0 for a directory */
        uint64_t size;
        char     sha256[PRC_SHA256_HEX + 1];
        bool     executable;
};

struct prc_archive_target {
        prc_client    *client;          /* borrowed */
        uint8_t       *bytes;           /* owned: the archive */
        size_t         n;
        char           sha256[PRC_SHA256_HEX + 1];
        char          *format;          /* owned */
        char          *root;            /* owned; "" when there is no single top-level directory */
        struct member *m;               /* owned */
        size_t         nm;
        size_t         nlisted;         /* members in the walk's listing, directories and rejected included */
        json_t        *rejected;        /* owned: [{"path","class","type"}] */
        json_t        *cache;           /* owned: inventory path -> contents (a string of the raw bytes) */
};

static bool bad(prc_err *err, const char *what, size_t i)
{
        return prc_err_set(err, PRC_E_INV_LISTING, "the archive listing is invalid: member %zu %s", i, what);
}

static const char *const types[] = { "file", "dir", "symlink", "hardlink", "char", "block", "fifo", "socket",
                                     "other" };

static bool known_type(const char *t)
{
        for (size_t i = 0; i < PRC_ARRAY_LEN(types); i++)
                if (strcmp(t, types[i]) == 0)
                        return true;
        return false;
}

/* The inventory's "kind" of a rejected member: static strings ("dir" reads "directory" as in a walk). */
static const char *kind_of(const char *t)
{
        if (strcmp(t, "dir") == 0)
                return "directory";
        for (size_t i = 0; i < PRC_ARRAY_LEN(types); i++)
                if (strcmp(t, types[i]) == 0)
                        return types[i];
        return "other";
}

static bool hex64(const char *s)
{
        size_t i;

        for (i = 0; s != NULL && s[i] != '\0'; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
                        return false;
        return s != NULL && i == PRC_SHA256_HEX;
}

/* The walk's normalization of a link target (archive.c): leading "./" segments go. */
static const char *strip_dot(const char *p)
{
        while (p[0] == '.' && p[1] == '/')
                p += 2;
        return p;
}

/*
 * The package root: the one first segment every accepted member shares,
 * when it is a directory (named by a directory member, or only ever a
 * prefix) and something lies beneath it.  Rejected members do not decide
 * it: they are named as the archive stores them.
 */
static bool find_root(prc_archive_target *t, json_t *members, char **out, prc_err *err)
{
        const char *first = NULL;
        size_t flen = 0, i;
        bool beneath = false, file_at_top = false;
        json_t *mm;

        json_array_foreach(members, i, mm) {
                const char *p = json_string_value(json_object_get(mm, "path"));
                const char *type = json_string_value(json_object_get(mm, "type"));
                const char *slash;
                size_t l;
                /* Before validation (take_listing refuses a member without a type): never trust the shape here. */
                if (json_object_get(mm, "rejected") != NULL || p == NULL || type == NULL || strcmp(p, ".") == 0)
                        continue;
                slash = strchr(p, '/');
                l = slash != NULL ? (size_t)(slash - p) : strlen(p);
                if (first == NULL) {
                        first = p;
                        flen = l;
                } else if (l != flen || memcmp(p, first, l) != 0) {
                        first = NULL;
                        flen = 0;
                        break;
                }
                if (slash != NULL)
                        beneath = true;
                else if (strcmp(type, "dir") != 0)
                        file_at_top = true;
        }
        (void)t;
        *out = strndup(first != NULL && beneath && !file_at_top ? first : "",
                       first != NULL && beneath && !file_at_top ? flen : 0);
        return *out != NULL || prc_err_oom(err, "the package root");
}

static bool add_rejected(prc_archive_target *t, json_t *mm, const char *cls, size_t i, prc_err *err)
{
        const char *p = json_string_value(json_object_get(mm, "path"));
        const char *hex = json_string_value(json_object_get(mm, "path_hex"));
        const char *type = json_string_value(json_object_get(mm, "type"));
        json_t *o;

        if ((p == NULL) == (hex == NULL))
                return bad(err, "has neither or both of path and path_hex", i);
        if (prc_err_by_name(cls) == PRC_E_OK)
                return bad(err, "names a rejection that is not an error class", i);
        o = json_pack("{s:s,s:s,s:s}", "path", p != NULL ? p : hex, "class", prc_err_name(prc_err_by_name(cls)),
                      "type", type);
        if (o != NULL && hex != NULL)
                json_object_set_new(o, "path_hex", json_true());
        if (o == NULL || json_array_append_new(t->rejected, o) != 0)
                return prc_err_oom(err, "the rejected members");
        return true;
}

/* Validate the listing and keep what the inventory needs. */
static bool take_listing(prc_archive_target *t, json_t *doc, prc_err *err)
{
        json_t *members = json_object_get(doc, "members"), *mm;
        const char *fmt = json_string_value(json_object_get(doc, "format"));
        size_t i, rootlen;

        if (!json_is_array(members) || fmt == NULL ||
            (strcmp(fmt, "tar") != 0 && strcmp(fmt, "tar.gz") != 0 && strcmp(fmt, "tar.zst") != 0))
                return prc_err_set(err, PRC_E_INV_LISTING, "the archive listing is invalid: no format or members");
        t->format = strdup(fmt);
        t->m = calloc(json_array_size(members) + 1, sizeof(*t->m));
        if (t->format == NULL || t->m == NULL)
                return prc_err_oom(err, "the archive listing");
        t->nlisted = json_array_size(members);
        if (!find_root(t, members, &t->root, err))
                return false;
        rootlen = strlen(t->root);
        json_array_foreach(members, i, mm) {
                const char *type = json_string_value(json_object_get(mm, "type"));
                const char *p = json_string_value(json_object_get(mm, "path"));
                const char *rej = json_string_value(json_object_get(mm, "rejected"));
                const char *sha = json_string_value(json_object_get(mm, "sha256"));
                json_t *size = json_object_get(mm, "size"), *mode = json_object_get(mm, "mode");
                struct member *m = &t->m[t->nm];
                const char *rel;
                prc_err pe;

                if (!json_is_object(mm) || type == NULL || !known_type(type) || !json_is_integer(size) ||
                    json_integer_value(size) < 0 || !json_is_integer(mode))
                        return bad(err, "has no valid type, size or mode", i);
                if (json_object_get(mm, "rejected") != NULL) {
                        if (rej == NULL)
                                return bad(err, "has a rejection that is not a string", i);
                        if (!add_rejected(t, mm, rej, i, err))
                                return false;
                        continue;
                }
                if (p == NULL)
                        return bad(err, "has no path", i);
                if (strcmp(p, ".") == 0 && strcmp(type, "dir") == 0)
                        continue;       /* the archive's own root "./" */
                /* Accepted members of any other type are what the walk promised never to accept. */
                if (strcmp(type, "file") != 0 && strcmp(type, "dir") != 0 && strcmp(type, "symlink") != 0 &&
                    strcmp(type, "hardlink") != 0)
                        return bad(err, "is a special file the walk accepted", i);
                prc_err_init(&pe);
                if (!prc_path_check(p, strlen(p), &pe))
                        return bad(err, "has a path that does not normalize", i);
                rel = p;
                if (rootlen > 0) {
                        if (strcmp(p, t->root) == 0)
                                continue;       /* the package root directory itself */
                        rel = p + rootlen + 1;
                }
                if (strcmp(type, "dir") == 0)
                        continue;
                m->path = strdup(rel);
                m->wire = strdup(p);
                if (m->path == NULL || m->wire == NULL)
                        return prc_err_oom(err, "the archive listing");
                t->nm++;
                m->executable = (json_integer_value(mode) & 0100) != 0;
                if (strcmp(type, "symlink") == 0) {
                        m->type = PRC_INV_SYMLINK;
                        continue;
                }
                m->type = PRC_INV_FILE;
                if (strcmp(type, "hardlink") == 0) {
                        /* The contents of the earlier regular file it names (archive.c checked it exists). */
                        const char *link = json_string_value(json_object_get(mm, "link"));
                        size_t k;
                        if (link == NULL)
                                return bad(err, "is a hardlink without a target", i);
                        link = strip_dot(link);
                        for (k = 0; k + 1 < t->nm; k++)
                                if (t->m[k].type == PRC_INV_FILE && strcmp(t->m[k].wire, link) == 0)
                                        break;
                        if (k + 1 >= t->nm)
                                return bad(err, "is a hardlink to no earlier file", i);
                        m->size = t->m[k].size;
                        memcpy(m->sha256, t->m[k].sha256, sizeof(m->sha256));
                        free(m->wire);
                        m->wire = strdup(t->m[k].wire);
                        if (m->wire == NULL)
                                return prc_err_oom(err, "the archive listing");
                        continue;
                }
                if (!hex64(sha))
                        return bad(err, "is a file without a SHA-256", i);
                m->size = (uint64_t)json_integer_value(size);
                memcpy(m->sha256, sha, sizeof(m->sha256));
        }
        return true;
}

static bool take_contents(prc_archive_target *t, const json_t *doc, prc_err *err);

bool prc_archive_target_open(prc_client *c, const uint8_t *bytes, size_t n, prc_archive_target **out, prc_err *err)
{
        prc_archive_target *t;
        json_t *doc = NULL;
        char args[64];
        bool ok = false;

        if (n > PRC_ARCHIVE_TARGET_MAX)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "the archive has %zu bytes, more than the %zu a walk "
                                   "takes", n, PRC_ARCHIVE_TARGET_MAX);
        t = calloc(1, sizeof(*t));
        if (t == NULL)
                return prc_err_oom(err, "the archive target");
        t->client = c;
        t->rejected = json_array();
        t->cache = json_object();
        t->bytes = malloc(n ? n : 1);
        if (t->rejected == NULL || t->cache == NULL || t->bytes == NULL) {
                prc_err_oom(err, "the archive target");
                goto out;
        }
        if (n > 0)
                memcpy(t->bytes, bytes, n);
        t->n = n;
        if (!prc_sha256_hex_once(t->bytes, n, t->sha256, err))
                goto out;
        /* The listing, with the contents of the first WANT_FIRST bytes of files (read through the cache). */
        snprintf(args, sizeof(args), "{\"every\":%u}", (unsigned)WANT_FIRST);
        if (!prc_client_call(c, PRC_OP_WALK, 0, 0, "archive", args, strlen(args), t->bytes, n, false, &doc, err))
                goto out;
        if (!take_listing(t, doc, err) || !take_contents(t, doc, err))
                goto out;
        ok = true;
out:
        json_decref(doc);
        if (!ok) {
                prc_archive_target_free(t);
                return false;
        }
        *out = t;
        return true;
}

bool prc_archive_target_from_listing(const json_t *doc, prc_archive_target **out, prc_err *err)
{
        prc_archive_target *t = calloc(1, sizeof(*t));

        if (t == NULL)
                return prc_err_oom(err, "the archive target");
        t->rejected = json_array();
        t->cache = json_object();
        if (t->rejected == NULL || t->cache == NULL) {
                prc_archive_target_free(t);
                return prc_err_oom(err, "the archive target");
        }
        memset(t->sha256, '0', PRC_SHA256_HEX);
        if (!take_listing(t, (json_t *)doc, err)) {
                prc_archive_target_free(t);
                return false;
        }
        *out = t;
        return true;
}

bool prc_archive_target_open_file(prc_client *c, const char *path, prc_archive_target **out, prc_err *err)
{
        prc_buf b;
        bool ok;

        prc_buf_init(&b, PRC_ARCHIVE_TARGET_MAX);
        /* By its role: the message can reach a terminal next to a run result, which holds no host path. */
        ok = prc_file_read_as(path, "the archive target", PRC_ARCHIVE_TARGET_MAX, 0, &b, err) &&
             prc_archive_target_open(c, b.data != NULL ? b.data : (const uint8_t *)"", b.len, out, err);
        prc_buf_clear(&b);
        /* err->file is for the terminal only (a failed scan writes no result). */
        if (!ok) {
                snprintf(err->file, sizeof(err->file), "%s", path);
                prc_err_sanitize(err->file);
        }
        return ok;
}

void prc_archive_target_free(prc_archive_target *t)
{
        if (t == NULL)
                return;
        for (size_t i = 0; i < t->nm; i++) {
                free(t->m[i].path);
                free(t->m[i].wire);
        }
        free(t->m);
        free(t->bytes);
        free(t->format);
        free(t->root);
        json_decref(t->rejected);
        json_decref(t->cache);
        free(t);
}

static const struct member *find_member(const prc_archive_target *t, const char *path)
{
        for (size_t i = 0; i < t->nm; i++)
                if (strcmp(t->m[i].path, path) == 0)
                        return &t->m[i];
        return NULL;
}

/* Canonical base64 (the worker's encoder writes nothing else) into out; false on any other text. */
static bool b64_decode(const char *s, size_t n, prc_buf *out, prc_err *err)
{
        size_t cap = prc_b64_max_decoded(n);
        long got;

        /* Exactly what padding leaves, so a member at the buffer's limit still fits. */
        for (size_t k = n; k > 0 && k + 2 >= n && s[k - 1] == '=' && cap > 0; k--)
                cap--;
        if (!prc_buf_reserve(out, cap, err))
                return false;
        got = prc_b64_decode(s, n, out->data + out->len, cap, 0, NULL);
        if (got < 0)
                return prc_err_set(err, PRC_E_INV_LISTING, "member contents are not valid base64");
        out->len += (size_t)got;
        return true;
}

/* The member contents a walk returned, into the cache (by inventory path); each is checked on read. */
static bool take_contents(prc_archive_target *t, const json_t *doc, prc_err *err)
{
        for (size_t k = 0; k < t->nm; k++) {
                const struct member *m = &t->m[k];
                json_t *c = json_object_get(json_object_get(doc, "contents"), m->wire);
                const char *enc = json_string_value(json_object_get(c, "encoding"));
                json_t *data = json_object_get(c, "data");
                prc_buf raw;
                bool got;
                if (m->type != PRC_INV_FILE || c == NULL || json_object_get(t->cache, m->path) != NULL)
                        continue;
                if (enc == NULL || !json_is_string(data)) {
                        prc_err_set(err, PRC_E_INV_LISTING, "member contents of '%.200s' are malformed", m->path);
                        return false;
                }
                prc_buf_init(&raw, m->size + 1);
                if (strcmp(enc, "utf8") == 0)
                        got = prc_buf_put(&raw, json_string_value(data), json_string_length(data), err);
                else if (strcmp(enc, "base64") == 0)
                        got = b64_decode(json_string_value(data), json_string_length(data), &raw, err);
                else
                        got = prc_err_set(err, PRC_E_INV_LISTING, "member contents of '%.200s' have an unknown "
                                          "encoding", m->path);
                if (got && json_object_set_new(t->cache, m->path,
                                               json_stringn_nocheck(raw.data ? (const char *)raw.data : "",
                                                                    raw.len)) != 0)
                        got = prc_err_oom(err, "member contents");
                prc_buf_clear(&raw);
                if (!got)
                        return false;
        }
        return true;
}

/* One walk for path and the next members not read yet; their contents go to the cache. */
static bool fetch_batch(prc_archive_target *t, const struct member *want, prc_err *err)
{
        json_t *args = json_object(), *list = json_array(), *doc = NULL, *wire_to_path = json_object();
        uint64_t bytes = want->size;
        prc_buf a;
        bool ok = false;
        size_t start = (size_t)(want - t->m);

        prc_buf_init(&a, PRC_FRAME_ARGS_MAX);
        if (args == NULL || list == NULL || wire_to_path == NULL || json_object_set(args, "wanted", list) != 0) {
                prc_err_oom(err, "a member request");
                goto out;
        }
        for (size_t k = 0; k < t->nm && json_array_size(list) < WANT_BATCH; k++) {
                const struct member *m = &t->m[(start + k) % t->nm];
                if (m->type != PRC_INV_FILE || json_object_get(t->cache, m->path) != NULL ||
                    json_object_get(wire_to_path, m->wire) != NULL)
                        continue;
                if (m != want && bytes + m->size > WANT_BYTES)
                        continue;
                if (m != want)
                        bytes += m->size;
                if (json_array_append_new(list, json_string(m->wire)) != 0 ||
                    json_object_set_new(wire_to_path, m->wire, json_true()) != 0) {
                        prc_err_oom(err, "a member request");
                        goto out;
                }
        }
        if (!prc_jcs_write(args, &a, err) ||
            !prc_client_call(t->client, PRC_OP_WALK, 0, 0, "archive", a.data, a.len, t->bytes, t->n, false, &doc, err))
                goto out;
        if (!take_contents(t, doc, err))
                goto out;
        ok = true;
out:
        prc_buf_clear(&a);
        json_decref(doc);
        json_decref(list);
        json_decref(args);
        json_decref(wire_to_path);
        return ok;
}

/* prc_inv_source_read_fn: the member's bytes from the cache, or one batched walk. */
static bool read_member(void *ctx, const char *path, size_t max, prc_buf *out, prc_err *err)
{
        prc_archive_target *t = ctx;
        const struct member *m = find_member(t, path);
        json_t *c;

        if (m == NULL || m->type != PRC_INV_FILE)
                return prc_err_set(err, PRC_E_INV_NO_SUCH_ENTRY, "'%s' is not a file of the archive", path);
        c = json_object_get(t->cache, path);
        if (c == NULL && t->client == NULL)
                return prc_err_set(err, PRC_E_INV_MISMATCH, "no worker to read '%s' from", path);
        if (c == NULL) {
                if (!fetch_batch(t, m, err))
                        return false;
                c = json_object_get(t->cache, path);
        }
        if (c == NULL)
                return prc_err_set(err, PRC_E_INV_MISMATCH, "the archive walk did not return '%s'", path);
        if (json_string_length(c) > max)
                return prc_err_set(err, PRC_E_INV_MISMATCH, "'%s' is larger than the listing says", path);
        return prc_buf_put(out, json_string_value(c), json_string_length(c), err);
}

bool prc_archive_target_inventory(prc_archive_target *t, prc_inventory **out, prc_err *err)
{
        prc_inv_member *mm = calloc(t->nm + 1, sizeof(*mm));
        prc_inv_unrep *rj = calloc(json_array_size(t->rejected) + 1, sizeof(*rj));
        json_t *r;
        size_t i;
        bool ok;

        if (mm == NULL || rj == NULL) {
                free(mm);
                free(rj);
                return prc_err_oom(err, "the archive inventory");
        }
        for (i = 0; i < t->nm; i++) {
                const char *slash = strchr(t->m[i].path, '/');
                mm[i] = (prc_inv_member){ .path = t->m[i].path, .type = (prc_inv_type)t->m[i].type,
                                          .size = t->m[i].size, .sha256 = t->m[i].sha256,
                                          .executable = t->m[i].executable, .under_dir = slash != NULL };
        }
        json_array_foreach(t->rejected, i, r) {
                const char *type = json_string_value(json_object_get(r, "type"));
                rj[i].raw = json_string_value(json_object_get(r, "path"));
                /* Static strings: the inventory keeps these pointers. */
                rj[i].reason = prc_err_name(prc_err_by_name(json_string_value(json_object_get(r, "class"))));
                rj[i].kind = kind_of(type);
        }
        ok = prc_inventory_from_listing(mm, t->nm, rj, json_array_size(t->rejected), read_member, t, out, err);
        free(mm);
        free(rj);
        return ok;
}

json_t *prc_archive_target_json(const prc_archive_target *t)
{
        json_t *o = json_pack("{s:s,s:s,s:I,s:I,s:O}", "format", t->format, "sha256", t->sha256, "bytes",
                              (json_int_t)t->n, "members", (json_int_t)t->nlisted, "rejected", t->rejected);

        if (o != NULL && t->root[0] != '\0' && json_object_set_new(o, "root", json_string(t->root)) != 0) {
                json_decref(o);
                return NULL;
        }
        return o;
}

bool prc_archive_target_scan_input(prc_archive_target *t, prc_inventory **out_inv, json_t **out_record, prc_err *err)
{
        json_t *j = prc_archive_target_json(t);

        if (j == NULL)
                return prc_err_oom(err, "the archive record");
        if (!prc_archive_target_inventory(t, out_inv, err)) {
                json_decref(j);
                return false;
        }
        *out_record = j;
        return true;
}

const char *prc_archive_target_sha256(const prc_archive_target *t)
{
        return t->sha256;
}

const char *prc_archive_target_root(const prc_archive_target *t)
{
        return t->root;
}
