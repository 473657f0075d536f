/*
 * registry.c - adapter registry lockfile loader and default resolution
 * (see registry.h).
 * Trust: the lockfile is operator input; manifests it references are opened
 * beneath its directory without following symlinks and checked against the
 * entry before any fact from them is used.
 */
#include "adapter/registry.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/engine_api.h"
#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/path.h"

struct entry {
        prc_registry_entry pub;
        bool               checked;
        prc_err            result;      /* PRC_E_OK when the manifest checks passed */
        json_t            *mdoc;        /* owned: the checked manifest document, after a pass */
};

struct prc_registry {
        json_t             *doc;        /* owned reference: entries borrow its strings */
        int                 dirfd;      /* owned: the lockfile's directory, or -1 */
        char                sha256[PRC_SHA256_HEX + 1];
        const char         *id;         /* borrowed from doc */
        int64_t             revision;
        struct entry       *entries;    /* owned */
        size_t              n;
};

static const char *const trust_names[] = {
        [PRC_RT_FIRST_PARTY_SANDBOXED] = "first-party-sandboxed",
        [PRC_RT_VERIFIED_COMMUNITY] = "verified-community",
        [PRC_RT_UNVERIFIED_COMMUNITY] = "unverified-community",
        [PRC_RT_LOCAL] = "local",
};
static const char *const status_names[] = {
        [PRC_RS_ACTIVE] = "active",
        [PRC_RS_DEPRECATED] = "deprecated",
        [PRC_RS_REVOKED] = "revoked",
};

const char *prc_registry_trust_name(prc_registry_trust t)
{
        return (unsigned)t < PRC_ARRAY_LEN(trust_names) ? trust_names[t] : "";
}

const char *prc_registry_status_name(prc_registry_status s)
{
        return (unsigned)s < PRC_ARRAY_LEN(status_names) ? status_names[s] : "";
}

static bool lookup(const char *s, const char *const *names, size_t n, int *out)
{
        for (size_t i = 0; i < n; i++) {
                if (strcmp(s, names[i]) == 0) {
                        *out = (int)i;
                        return true;
                }
        }
        return false;
}

void prc_registry_free(prc_registry *reg)
{
        if (reg == NULL)
                return;
        if (reg->dirfd >= 0)
                close(reg->dirfd);
        for (size_t i = 0; reg->entries != NULL && i < reg->n; i++)
                json_decref(reg->entries[i].mdoc);
        free(reg->entries);
        json_decref(reg->doc);
        free(reg);
}

/* err at JSON pointer /entries/i/field (field may be NULL for the entry itself). */
static bool entry_err(prc_err *err, prc_errclass c, size_t i, const char *field, const char *fmt, ...)
        PRC_PRINTF(5, 6);
static bool entry_err(prc_err *err, prc_errclass c, size_t i, const char *field, const char *fmt, ...)
{
        char ptr[128] = "/entries", msg[256];
        va_list ap;

        prc_jptr_index(ptr, sizeof(ptr), i);
        if (field != NULL)
                prc_jptr_push(ptr, sizeof(ptr), field);
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_set(err, c, "%s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

/* Point an already recorded error at /entries/i/field. */
static void entry_ptr(prc_err *err, size_t i, const char *field)
{
        char ptr[128] = "/entries";

        prc_jptr_index(ptr, sizeof(ptr), i);
        prc_jptr_push(ptr, sizeof(ptr), field);
        prc_err_set_ptr(err, ptr);
}

static bool root_err(prc_err *err, prc_errclass c, const char *ptr, const char *msg)
{
        prc_err_set(err, c, "%s", msg);
        prc_err_set_ptr(err, ptr);
        return false;
}

static bool load_entry(prc_registry *reg, size_t i, const json_t *e, prc_err *err)
{
        static const prc_field fields[] = {
                { "adapter_id", PRC_JT_STRING, true },
                { "manifest_sha256", PRC_JT_STRING, true },
                { "publisher_id", PRC_JT_STRING, true },
                { "trust", PRC_JT_STRING, true },
                { "status", PRC_JT_STRING, true },
                { "manifest_path", PRC_JT_STRING, true },
        };
        struct entry *en = &reg->entries[i];
        char ptr[128] = "/entries";
        const json_t *path;
        int v;

        prc_jptr_index(ptr, sizeof(ptr), i);
        if (!prc_json_fields(e, ptr, fields, PRC_ARRAY_LEN(fields), err))
                return false;
        memset(en, 0, sizeof(*en));
        prc_err_init(&en->result);
        en->pub.adapter_id = json_string_value(json_object_get(e, "adapter_id"));
        en->pub.manifest_sha256 = json_string_value(json_object_get(e, "manifest_sha256"));
        en->pub.publisher_id = json_string_value(json_object_get(e, "publisher_id"));
        en->pub.manifest_path = json_string_value(json_object_get(e, "manifest_path"));
        path = json_object_get(e, "manifest_path");
        if (!prc_trust_id_valid(en->pub.adapter_id, json_string_length(json_object_get(e, "adapter_id"))))
                return entry_err(err, PRC_E_INVALID_VALUE, i, "adapter_id",
                                 "adapter_id must be 1-128 of [A-Za-z0-9._:/@+-]");
        if (!prc_digest_valid(en->pub.manifest_sha256))
                return entry_err(err, PRC_E_INVALID_DIGEST, i, "manifest_sha256",
                                 "manifest_sha256 is not 64 lowercase hex");
        if (!prc_trust_id_valid(en->pub.publisher_id, json_string_length(json_object_get(e, "publisher_id"))))
                return entry_err(err, PRC_E_INVALID_VALUE, i, "publisher_id",
                                 "publisher_id must be 1-128 of [A-Za-z0-9._:/@+-]");
        if (!lookup(json_string_value(json_object_get(e, "trust")), trust_names, PRC_ARRAY_LEN(trust_names), &v))
                return entry_err(err, PRC_E_INVALID_VALUE, i, "trust",
                                 "trust is not first-party-sandboxed, verified-community, unverified-community "
                                 "or local");
        en->pub.trust = (prc_registry_trust)v;
        if (!lookup(json_string_value(json_object_get(e, "status")), status_names, PRC_ARRAY_LEN(status_names), &v))
                return entry_err(err, PRC_E_INVALID_VALUE, i, "status", "status is not active, deprecated or revoked");
        en->pub.status = (prc_registry_status)v;
        /* String rules only; symlinks are caught component by component when the manifest is opened. */
        if (!prc_path_check(en->pub.manifest_path, json_string_length(path), err)) {
                char p2[128];
                snprintf(p2, sizeof(p2), "%s", ptr);
                prc_jptr_push(p2, sizeof(p2), "manifest_path");
                prc_err_set_ptr(err, p2);
                return false;
        }
        for (size_t j = 0; j < i; j++) {
                const prc_registry_entry *o = &reg->entries[j].pub;
                if (strcmp(o->adapter_id, en->pub.adapter_id) == 0)
                        return entry_err(err, PRC_E_REGISTRY_DUPLICATE_ENTRY, i, "adapter_id",
                                         "adapter '%s' already has entry %zu", en->pub.adapter_id, j);
                if (strcmp(o->manifest_sha256, en->pub.manifest_sha256) == 0)
                        return entry_err(err, PRC_E_REGISTRY_DUPLICATE_ENTRY, i, "manifest_sha256",
                                         "manifest digest %s is already pinned by entry %zu", en->pub.manifest_sha256,
                                         j);
        }
        return true;
}

/* Validate doc and build a registry around it (takes a new reference; dirfd transfers). */
static prc_registry *from_doc(json_t *doc, int dirfd, prc_err *err)
{
        static const prc_field fields[] = {
                { "schema", PRC_JT_STRING, true },
                { "registry_id", PRC_JT_STRING, true },
                { "revision", PRC_JT_INT, true },
                { "entries", PRC_JT_ARRAY, true },
        };
        prc_registry *reg = calloc(1, sizeof(*reg));
        const json_t *entries, *e, *id;
        size_t i;

        if (reg == NULL) {
                if (dirfd >= 0)
                        close(dirfd);
                prc_err_oom(err, "a registry");
                return NULL;
        }
        reg->dirfd = dirfd;
        reg->doc = json_incref(doc);
        if (!prc_json_fields(doc, "", fields, PRC_ARRAY_LEN(fields), err))
                goto fail;
        if (strcmp(json_string_value(json_object_get(doc, "schema")), PRC_REGISTRY_SCHEMA) != 0) {
                root_err(err, PRC_E_INVALID_VALUE, "/schema", "schema is not '" PRC_REGISTRY_SCHEMA "'");
                goto fail;
        }
        id = json_object_get(doc, "registry_id");
        if (!prc_trust_id_valid(json_string_value(id), json_string_length(id))) {
                root_err(err, PRC_E_INVALID_VALUE, "/registry_id", "registry_id must be 1-128 of [A-Za-z0-9._:/@+-]");
                goto fail;
        }
        reg->id = json_string_value(id);
        reg->revision = json_integer_value(json_object_get(doc, "revision"));
        if (reg->revision < 1) {
                root_err(err, PRC_E_INVALID_VALUE, "/revision", "revision must be an integer of at least 1");
                goto fail;
        }
        entries = json_object_get(doc, "entries");
        reg->n = json_array_size(entries);
        if (reg->n > PRC_REGISTRY_ENTRIES_MAX) {
                prc_err_set(err, PRC_E_REGISTRY_ENTRIES_LIMIT, "%zu entries, the limit is %d", reg->n,
                            PRC_REGISTRY_ENTRIES_MAX);
                prc_err_set_ptr(err, "/entries");
                goto fail;
        }
        reg->entries = calloc(reg->n ? reg->n : 1, sizeof(*reg->entries));
        if (reg->entries == NULL) {
                prc_err_oom(err, "registry entries");
                goto fail;
        }
        json_array_foreach(entries, i, e) {
                if (!load_entry(reg, i, e, err))
                        goto fail;
        }
        if (!prc_jcs_digest(doc, reg->sha256, err))
                goto fail;
        return reg;
fail:
        prc_registry_free(reg);
        return NULL;
}

static prc_doc_format format_for(const char *name)
{
        size_t n = strlen(name);
        return n >= 5 && strcmp(name + n - 5, ".json") == 0 ? PRC_DOC_JSON : PRC_DOC_YAML;
}

prc_registry *prc_registry_parse(const uint8_t *p, size_t n, prc_doc_format fmt, const prc_limits *lim,
                                 prc_err *err)
{
        json_t *doc = prc_doc_parse(p, n, fmt, lim, err);
        prc_registry *reg;

        if (doc == NULL)
                return NULL;
        reg = from_doc(doc, -1, err);
        json_decref(doc);
        return reg;
}

/* Read a regular file at name beneath dirfd, the last component not followed. */
static bool read_at(int dirfd, const char *name, size_t max, prc_buf *out, prc_err *err)
{
        struct stat st;
        bool ok;
        int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

        if (fd < 0)
                return prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s'", name);
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                return prc_err_set(err, PRC_E_IO, "'%s' is not a regular file", name);
        }
        if ((uint64_t)st.st_size > max) {
                close(fd);
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "'%s' has %lld bytes, cap is %zu", name,
                                   (long long)st.st_size, max);
        }
        ok = prc_fd_read_all(fd, max, out, err);
        close(fd);
        return ok;
}

prc_registry *prc_registry_load(const char *path, prc_err *err)
{
        const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
        char dir[4096];
        prc_registry *reg = NULL;
        json_t *doc = NULL;
        prc_buf b;
        int dirfd;

        prc_buf_init(&b, prc_limits_operator.input_max);
        if (slash == NULL)
                snprintf(dir, sizeof(dir), ".");
        else if (slash == path)
                snprintf(dir, sizeof(dir), "/");
        else if ((size_t)(slash - path) >= sizeof(dir)) {
                prc_err_set(err, PRC_E_IO, "registry path is too long");
                goto out;
        } else
                snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
        if (base[0] == '\0') {
                prc_err_set(err, PRC_E_IO, "registry path '%s' names a directory", path);
                goto out;
        }
        dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0) {
                prc_err_sys(err, PRC_E_IO, errno, "cannot open the directory of '%s'", path);
                goto out;
        }
        if (!read_at(dirfd, base, prc_limits_operator.input_max, &b, err)) {
                close(dirfd);
                goto out;
        }
        doc = prc_doc_parse(b.data ? b.data : (const uint8_t *)"", b.len, format_for(base), &prc_limits_operator,
                            err);
        if (doc == NULL) {
                close(dirfd);
                goto out;
        }
        reg = from_doc(doc, dirfd, err);
out:
        if (reg == NULL)
                prc_err_set_file(err, path);
        json_decref(doc);
        prc_buf_clear(&b);
        return reg;
}

const char *prc_registry_id(const prc_registry *reg)
{
        return reg->id;
}

int64_t prc_registry_revision(const prc_registry *reg)
{
        return reg->revision;
}

const char *prc_registry_sha256(const prc_registry *reg)
{
        return reg->sha256;
}

size_t prc_registry_nentries(const prc_registry *reg)
{
        return reg->n;
}

const prc_registry_entry *prc_registry_entry_at(const prc_registry *reg, size_t i)
{
        return i < reg->n ? &reg->entries[i].pub : NULL;
}

const prc_registry_entry *prc_registry_find(const prc_registry *reg, const char *adapter_id, size_t *out_i)
{
        for (size_t i = 0; i < reg->n; i++) {
                if (strcmp(reg->entries[i].pub.adapter_id, adapter_id) == 0) {
                        if (out_i != NULL)
                                *out_i = i;
                        return &reg->entries[i].pub;
                }
        }
        return NULL;
}

/*
 * Open rel beneath dirfd one component at a time: each directory with
 * O_NOFOLLOW|O_DIRECTORY, the file with O_NOFOLLOW.  lstat-style checks first
 * name the reason; the O_NOFOLLOW opens close the race if a component is
 * swapped between the check and the open.  rel has passed prc_path_check,
 * so it has no '.', '..' or empty component and is not absolute.
 */
static bool open_beneath(int dirfd, const char *rel, prc_buf *out, prc_err *err)
{
        char comp[PRC_PATH_MAX + 1];
        const char *p = rel;
        int cur = dirfd;
        bool ok = false;

        for (;;) {
                const char *slash = strchr(p, '/');
                size_t len = slash ? (size_t)(slash - p) : strlen(p);
                struct stat st;
                int next;

                memcpy(comp, p, len);
                comp[len] = '\0';
                if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                        if (errno == ENOENT)
                                prc_err_set(err, PRC_E_REGISTRY_MANIFEST_MISSING, "manifest '%s' does not exist (no '%s')",
                                            rel, comp);
                        else if (errno == ENOTDIR)
                                prc_err_set(err, PRC_E_REGISTRY_MANIFEST_NOT_REGULAR,
                                            "manifest path '%s' goes through a non-directory", rel);
                        else
                                prc_err_sys(err, PRC_E_IO, errno, "cannot stat '%s' in manifest path '%s'", comp, rel);
                        goto out;
                }
                if (S_ISLNK(st.st_mode)) {
                        prc_err_set(err, PRC_E_REGISTRY_MANIFEST_SYMLINK, "component '%s' of manifest path '%s' is a symlink",
                                    comp, rel);
                        goto out;
                }
                if (slash == NULL) {
                        if (!S_ISREG(st.st_mode)) {
                                prc_err_set(err, PRC_E_REGISTRY_MANIFEST_NOT_REGULAR, "manifest '%s' is not a regular file",
                                            rel);
                                goto out;
                        }
                        ok = read_at(cur, comp, prc_limits_operator.input_max, out, err);
                        if (!ok && err->cls == PRC_E_IO && err->sys == ELOOP) {
                                err->cls = PRC_E_REGISTRY_MANIFEST_SYMLINK;     /* swapped after the check */
                                err->sys = 0;
                        }
                        goto out;
                }
                if (!S_ISDIR(st.st_mode)) {
                        prc_err_set(err, PRC_E_REGISTRY_MANIFEST_NOT_REGULAR,
                                    "component '%s' of manifest path '%s' is not a directory", comp, rel);
                        goto out;
                }
                next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (next < 0) {
                        if (errno == ELOOP || errno == ENOTDIR)
                                prc_err_set(err, PRC_E_REGISTRY_MANIFEST_SYMLINK,
                                            "component '%s' of manifest path '%s' changed into a symlink", comp, rel);
                        else
                                prc_err_sys(err, PRC_E_IO, errno, "cannot open '%s' in manifest path '%s'", comp, rel);
                        goto out;
                }
                if (cur != dirfd)
                        close(cur);
                cur = next;
                p = slash + 1;
        }
out:
        if (cur != dirfd)
                close(cur);
        return ok;
}

static bool check_entry(prc_registry *reg, size_t i, prc_err *err)
{
        const prc_registry_entry *e = &reg->entries[i].pub;
        prc_manifest *m = NULL;
        const char *mid, *mpub, *maint;
        int64_t emin, emax;
        char digest[PRC_SHA256_HEX + 1];
        prc_buf b;
        json_t *doc = NULL;
        bool ok = false, mdep, edep;

        prc_buf_init(&b, prc_limits_operator.input_max);
        if (reg->dirfd < 0) {
                prc_err_set(err, PRC_E_INTERNAL, "registry was parsed from bytes: no directory to resolve manifests in");
                goto out;
        }
        if (!open_beneath(reg->dirfd, e->manifest_path, &b, err)) {
                entry_ptr(err, i, "manifest_path");
                goto out;
        }
        /* Digest first: an edited manifest is reported as edited even when the edit also broke it. */
        doc = prc_doc_parse(b.data ? b.data : (const uint8_t *)"", b.len, format_for(e->manifest_path),
                            &prc_limits_operator, err);
        if (doc == NULL || !prc_jcs_digest(doc, digest, err)) {
                entry_ptr(err, i, "manifest_path");
                goto out;
        }
        if (strcmp(digest, e->manifest_sha256) != 0) {
                entry_err(err, PRC_E_REGISTRY_DIGEST_MISMATCH, i, "manifest_sha256",
                          "manifest '%s' has canonical digest %s, the entry pins %s", e->manifest_path, digest,
                          e->manifest_sha256);
                goto out;
        }
        /* Validate exactly the document that was digested (v0.4, for execution). */
        m = prc_manifest_from_doc(doc, PRC_MANIFEST_EXECUTE, err);
        if (m == NULL) {
                entry_ptr(err, i, "manifest_path");
                goto out;
        }
        if (strcmp(prc_manifest_sha256(m), digest) != 0) {
                prc_err_set(err, PRC_E_INTERNAL, "manifest loader and registry disagree on the digest of '%s'",
                            e->manifest_path);
                goto out;
        }
        mid = prc_manifest_adapter_id(m);
        mpub = prc_manifest_publisher_id(m);
        maint = prc_manifest_maintenance(m);
        emin = prc_manifest_engine_min(m);
        emax = prc_manifest_engine_max(m);
        if (strcmp(mid, e->adapter_id) != 0) {
                entry_err(err, PRC_E_REGISTRY_ADAPTER_ID_DRIFT, i, "adapter_id",
                          "manifest says adapter '%.128s', the entry says '%s'", mid, e->adapter_id);
                goto out;
        }
        if (strcmp(mpub, e->publisher_id) != 0) {
                entry_err(err, PRC_E_REGISTRY_PUBLISHER_DRIFT, i, "publisher_id",
                          "manifest says publisher '%.128s', the entry says '%s'", mpub, e->publisher_id);
                goto out;
        }
        mdep = strcmp(maint, "deprecated") == 0;
        edep = e->status == PRC_RS_DEPRECATED;
        if (mdep != edep) {
                entry_err(err, PRC_E_REGISTRY_LIFECYCLE_DRIFT, i, "status",
                          "manifest maintenance is '%.32s' but the entry is '%s'", maint,
                          prc_registry_status_name(e->status));
                goto out;
        }
        /* The loader checks this for execution too; kept so the registry's rule never depends on it. */
        if (emin > PRC_ADAPTER_ENGINE_API || emax < PRC_ADAPTER_ENGINE_API) {
                entry_err(err, PRC_E_ENGINE_INCOMPATIBLE, i, "manifest_path",
                          "manifest supports engine API %" PRId64 "-%" PRId64 ", this prc has %d", emin, emax,
                          PRC_ADAPTER_ENGINE_API);
                goto out;
        }
        reg->entries[i].mdoc = json_incref(doc);
        ok = true;
out:
        if (!ok)
                prc_err_set_file(err, e->manifest_path);
        prc_manifest_free(m);
        json_decref(doc);
        prc_buf_clear(&b);
        return ok;
}

bool prc_registry_check(prc_registry *reg, size_t i, prc_err *err)
{
        struct entry *en;

        if (i >= reg->n)
                return prc_err_set(err, PRC_E_INTERNAL, "registry entry %zu does not exist", i);
        en = &reg->entries[i];
        if (!en->checked) {
                prc_err_init(&en->result);
                /* Revocation needs no manifest: a removed or compromised file changes nothing. */
                if (en->pub.status != PRC_RS_REVOKED)
                        (void)check_entry(reg, i, &en->result);  /* the outcome is kept in en->result */
                en->checked = true;
        }
        if (en->result.cls != PRC_E_OK) {
                if (err->cls == PRC_E_OK)
                        *err = en->result;
                return false;
        }
        return true;
}

bool prc_registry_policy_reason(prc_errclass cls)
{
        return cls == PRC_E_REGISTRY_REVOKED || cls == PRC_E_REGISTRY_DEPRECATED ||
               cls == PRC_E_REGISTRY_TRUST_UNVERIFIED || cls == PRC_E_REGISTRY_TRUST_LOCAL;
}

bool prc_registry_decide(prc_registry *reg, size_t i, prc_err *err)
{
        const prc_registry_entry *e;

        if (i >= reg->n)
                return prc_err_set(err, PRC_E_INTERNAL, "registry entry %zu does not exist", i);
        e = &reg->entries[i].pub;
        if (e->status == PRC_RS_REVOKED)
                return entry_err(err, PRC_E_REGISTRY_REVOKED, i, "status", "adapter '%s' (manifest %s) is revoked",
                                 e->adapter_id, e->manifest_sha256);
        if (!prc_registry_check(reg, i, err))
                return false;
        if (e->status == PRC_RS_DEPRECATED)
                return entry_err(err, PRC_E_REGISTRY_DEPRECATED, i, "status", "adapter '%s' is deprecated",
                                 e->adapter_id);
        if (e->trust == PRC_RT_UNVERIFIED_COMMUNITY)
                return entry_err(err, PRC_E_REGISTRY_TRUST_UNVERIFIED, i, "trust",
                                 "adapter '%s' has registry trust unverified-community", e->adapter_id);
        if (e->trust == PRC_RT_LOCAL)
                return entry_err(err, PRC_E_REGISTRY_TRUST_LOCAL, i, "trust", "adapter '%s' has registry trust local",
                                 e->adapter_id);
        return true;
}

bool prc_registry_digest_revoked(const prc_registry *reg, const char *manifest_sha256)
{
        for (size_t i = 0; i < reg->n; i++)
                if (reg->entries[i].pub.status == PRC_RS_REVOKED &&
                    strcmp(reg->entries[i].pub.manifest_sha256, manifest_sha256) == 0)
                        return true;
        return false;
}

bool prc_registry_resolve(prc_registry *reg, const char *adapter_id, prc_resolution *out, prc_err *err)
{
        const prc_registry_entry *e;
        prc_resolution r;
        size_t i;

        e = prc_registry_find(reg, adapter_id, &i);
        if (e == NULL)
                return prc_err_set(err, PRC_E_REGISTRY_NOT_FOUND, "registry '%s' has no entry for adapter '%.128s'",
                                   reg->id, adapter_id);
        if (!prc_registry_decide(reg, i, err))
                return false;
        memset(&r, 0, sizeof(r));
        r.grant = PRC_GRANT_REGISTRY;
        snprintf(r.adapter_id, sizeof(r.adapter_id), "%s", e->adapter_id);
        snprintf(r.manifest_sha256, sizeof(r.manifest_sha256), "%s", e->manifest_sha256);
        snprintf(r.publisher_id, sizeof(r.publisher_id), "%s", e->publisher_id);
        snprintf(r.trust, sizeof(r.trust), "%s", prc_registry_trust_name(e->trust));
        snprintf(r.registry_id, sizeof(r.registry_id), "%s", reg->id);
        r.registry_revision = reg->revision;
        snprintf(r.registry_sha256, sizeof(r.registry_sha256), "%s", reg->sha256);
        *out = r;
        return true;
}

bool prc_registry_resolve_manifest(prc_registry *reg, const char *adapter_id, prc_resolution *out,
                                   prc_manifest **out_m, prc_err *err)
{
        prc_resolution r;
        prc_manifest *m;
        size_t i = 0;

        if (!prc_registry_resolve(reg, adapter_id, &r, err))
                return false;
        (void)prc_registry_find(reg, adapter_id, &i);   /* found: resolve succeeded */
        m = prc_manifest_from_doc(reg->entries[i].mdoc, PRC_MANIFEST_EXECUTE, err);
        if (m == NULL)
                return false;
        *out = r;
        *out_m = m;
        return true;
}

static int grant_order(const void *a, const void *b)
{
        const prc_resolution *x = a, *y = b;
        int c = strcmp(x->adapter_id, y->adapter_id);

        return c != 0 ? c : strcmp(x->manifest_sha256, y->manifest_sha256);
}

bool prc_registry_resolve_set(prc_registry *reg, const char *const *ids, size_t n, prc_resolution *out,
                              prc_err *err)
{
        prc_resolution tmp[PRC_REGISTRY_RESOLVE_MAX];

        if (n > PRC_REGISTRY_RESOLVE_MAX)
                return prc_err_set(err, PRC_E_USAGE, "%zu adapter ids; one run executes at most %d", n,
                                   PRC_REGISTRY_RESOLVE_MAX);
        for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < i; j++)
                        if (strcmp(ids[i], ids[j]) == 0)
                                return prc_err_set(err, PRC_E_USAGE, "adapter id '%.128s' is given twice", ids[i]);
        for (size_t i = 0; i < n; i++)
                if (!prc_registry_resolve(reg, ids[i], &tmp[i], err))
                        return false;
        qsort(tmp, n, sizeof(tmp[0]), grant_order);
        memcpy(out, tmp, n * sizeof(tmp[0]));
        return true;
}

bool prc_registry_verify_signature(const prc_registry *reg, const prc_trust_store *ts, const char *sig_path,
                                   prc_sig_info *out, prc_err *err)
{
        return prc_sig_verify_file(sig_path, ts, PRC_SIG_REGISTRY, reg->sha256, out, err);
}
