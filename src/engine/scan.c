/*
 * scan.c - the scan pipeline and the run result (see scan.h).
 * Trust: engine-side.  Target bytes reach this file only as inventory
 * records, content-worker verdicts and magic/license bytes read through
 * the verified inventory reader.
 */
#include "engine/scan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapter/native/native.h"
#include "analysis/analysis.h"
#include "analysis/aur.h"
#include "analysis/sh.h"
#include "base/jcs.h"
#include "base/limits.h"
#include "base/path.h"
#include "base/testkeep.h"
#include "base/tune.h"
#include "content/extract/extract.h"
#include "content/frame.h"
#include "engine/builtin.h"
#include "engine/catalog.h"
#include "engine/findings.h"
#include "engine/lanes.h"
#include "engine/manifests.h"
#include "engine/observe.h"
#include "engine/policy.h"
#include "inventory/inventory.h"
#include "inventory/safeopen.h"

#define PRC_ENGINE_VERSION "0.1.0"

struct exec {
        const prc_scan_adapter *a;      /* borrowed from the options' set */
        json_t                 *record; /* owned; NULL when refused before a plan existed */
        size_t                  unscanned;      /* files above the adapter's per-file ceiling */
};

struct scan {
        const prc_scan_opts *o;
        struct exec          execs[PRC_SCAN_ADAPTERS_MAX];
        size_t               nexecs;
        prc_inventory       *inv;
        prc_catalog         *cat;
        prc_tfile           *files;     /* owned array; strings borrowed from inv */
        size_t               nfiles;
        prc_gap             *gaps;      /* owned */
        size_t               ngaps, capgaps;
        size_t               content0, ncontent;        /* gaps[content0..+ncontent): content analysis's */
        size_t               nexcluded; /* names left out of the inventory other than the root's .git directory */
        size_t               nmanifests;
        json_t              *mdocs;     /* owned: the ManifestDocs, sorted by path once extraction is done */
        size_t               xorder;    /* the next include's place in extraction_each's order (scan.h) */
        bool                *extracted; /* owned: files[i] has a ManifestDoc or an extraction gap */
        bool                 mdocs_read;        /* the analysis being assessed read the ManifestDocs */
        json_t              *errors;    /* owned: analysis errors listed on the run */
        prc_adoc            *docs;      /* owned array: worker documents analyses read (paths strdup'ed, docs
                                         * owned references), sorted by path once content analysis ends */
        size_t               ndocs, capdocs;
        json_t              *floor;     /* owned: the content floor record (scan.h) */
        json_t              *archive;   /* owned: an archive target's record (scan.h open_target), or NULL */
        prc_amemo           *memo;      /* owned: what the analyses of this run share (analysis.h) */
        prc_jcs_memo        *envs;      /* owned: the envelopes' canonical bytes, made for their IDs */
};

static void progress(const struct scan *s, const char *stage)
{
        if (s->o->progress != NULL)
                s->o->progress(stage);
}

static bool add_gap(struct scan *s, const char *path, const char *cls, const char *reason, prc_err *err)
{
        if (s->ngaps == s->capgaps) {
                size_t ncap = s->capgaps ? 2 * s->capgaps : 16;
                prc_gap *g = realloc(s->gaps, ncap * sizeof(*g));
                if (g == NULL)
                        return prc_err_oom(err, "coverage gaps");
                s->gaps = g;
                s->capgaps = ncap;
        }
        snprintf(s->gaps[s->ngaps].path, sizeof(s->gaps[0].path), "%s", path);
        snprintf(s->gaps[s->ngaps].cls, sizeof(s->gaps[0].cls), "%s", cls);
        snprintf(s->gaps[s->ngaps].reason, sizeof(s->gaps[0].reason), "%s", reason);
        s->gaps[s->ngaps].kind = 0;
        /* Valid UTF-8 without control characters, or the JSON record could not hold the gap (issue 16). */
        prc_err_sanitize(s->gaps[s->ngaps].path);
        prc_err_sanitize(s->gaps[s->ngaps].cls);
        prc_err_sanitize(s->gaps[s->ngaps].reason);
        s->ngaps++;
        return true;
}

/* A gap of the whole tree (issue 16), not of one manifest: the manifests analysis does not count it. */
static bool add_tree_gap(struct scan *s, const char *path, prc_errclass cls, const char *reason, prc_err *err)
{
        return add_gap(s, path, prc_err_name(cls), reason, err);
}

/*
 * Whole-file and head reads (magic bytes, license text) alike: beneath the
 * inventory root with no symlink in any component, of the inventoried type
 * and size, and bound by a digest the inventory took (of the whole file, or
 * of its first PRC_INV_HEAD bytes): prc_inventory_read_head.  An analysis
 * never reads bytes the seal does not vouch for (issue 16).
 */
static bool view_read(void *ctx, size_t i, size_t max, prc_buf *out, prc_err *err)
{
        struct scan *s = ctx;

        return prc_inventory_read_head(s->inv, s->files[i].path, max, out, err);
}

/*
 * Every name the inventory left out but the root's .git directory (the
 * checkout's own metadata) is named as a gap: nothing under it was
 * analyzed, by prc or by any adapter (the snapshot is made from the
 * inventory), so whole-tree assertions cannot pass while it exists.  The
 * only such name is .prc (inventory.c's excluded_names).
 */
static bool excluded_gaps(struct scan *s, prc_err *err)
{
        for (size_t i = 0; i < prc_inventory_excluded_count(s->inv); i++) {
                const char *name = prc_inventory_excluded(s->inv, i);
                if (strcmp(name, ".git") == 0)
                        continue;
                s->nexcluded++;
                if (!add_tree_gap(s, name, PRC_E_EXCLUDED_PATH,
                                  "the namespace of scanner-owned snapshot files: left out of the inventory, "
                                  "so nothing under it was analyzed", err))
                        return false;
        }
        return true;
}

/* Did every path of the tree reach the inventory (and so every analysis and the snapshot)? */
static bool tree_complete(const struct scan *s)
{
        return prc_inventory_complete(s->inv) && s->nexcluded == 0;
}

static bool build_files(struct scan *s, prc_err *err)
{
        size_t n = prc_inventory_count(s->inv);

        s->files = calloc(n ? n : 1, sizeof(*s->files));
        if (s->files == NULL)
                return prc_err_oom(err, "the target view");
        for (size_t i = 0; i < n; i++) {
                const prc_inv_entry *e = prc_inventory_entry(s->inv, i);
                prc_tfile *f = &s->files[i];
                f->path = e->path;
                f->size = e->size;
                f->symlink = e->type == PRC_INV_SYMLINK;
                f->sha256 = f->symlink ? NULL : e->sha256;
                f->executable = e->executable;
                f->oversized = e->oversized;
        }
        s->nfiles = n;
        return true;
}

/*
 * Keep a worker token document for the analyses (doc is taken over).  A
 * document that fails the shape check is a tokens-invalid gap and is
 * dropped; one the worker only recovered (not valid shell) is a gap named by
 * its first error's class, and is still analyzed (issue 20: it never makes a
 * package look clean, and what it holds is still searched).
 */
/* A content gap of a file read as an analysis document of this kind (so the analyses that need it know). */
static bool add_kind_gap(struct scan *s, const char *path, unsigned kind, const char *cls, const char *reason,
                         prc_err *err)
{
        if (!add_gap(s, path, cls, reason, err))
                return false;
        s->gaps[s->ngaps - 1].kind = kind;
        return true;
}

enum { PKG_DIR_MAX = 4097 };

/* The directory of a PKGBUILD's inventory path ("" at the root): where its install= targets are. */
static void pkg_dir(const char *path, char dir[PKG_DIR_MAX])
{
        const char *slash = strrchr(path, '/');

        snprintf(dir, PKG_DIR_MAX, "%.*s", slash ? (int)(slash - path) : 0, path);
}

/* One install= target as prc_aur_install_targets tells it (prc_aur_install_fn): [path|null, line, why|null]. */
static bool record_install(void *ctx, const char *path, uint32_t line, const char *why, prc_err *err)
{
        return json_array_append_new(ctx, json_pack("[s?,I,s?]", path, (json_int_t)line, why)) == 0 ||
               prc_err_oom(err, "install targets");
}

/*
 * prc sbom (extraction_out) runs no analysis: of a token document it
 * needs only what install_scripts reads, a PKGBUILD's install= targets.
 * They are taken now, in the order prc_aur_install_targets tells them, and
 * *doc (transfers) becomes their list (NULL for the other kinds), so the
 * trees do not live to the end of the scan (7 MB of the parent's peak on
 * the manifests corpus's 80 PKGBUILDs).  install_scripts tells the same
 * targets in the same order: the gaps are the same.
 */
static bool sbom_doc(const char *path, unsigned kind, json_t **doc, prc_err *err)
{
        json_t *calls = kind == PRC_AK_PKGBUILD ? json_array() : NULL;
        char dir[PKG_DIR_MAX];
        bool ok;

        pkg_dir(path, dir);
        ok = kind != PRC_AK_PKGBUILD ||
             (calls != NULL ? prc_aur_install_targets(*doc, dir, record_install, calls, err)
                            : prc_err_oom(err, "install targets"));
        json_decref(*doc);
        *doc = calls;
        if (!ok) {
                json_decref(calls);
                *doc = NULL;
        }
        return ok;
}

static bool keep_doc(struct scan *s, const char *path, unsigned kind, json_t *doc, prc_err *err)
{
        prc_err ce;
        const json_t *errs;

        prc_err_init(&ce);
        if (doc == NULL)
                return add_kind_gap(s, path, kind, prc_err_name(PRC_E_TOKENS_INVALID), "the worker returned no document",
                                    err);
        if (!prc_sh_check(doc, kind == PRC_AK_SRCINFO, &ce)) {
                json_decref(doc);
                return add_kind_gap(s, path, kind, prc_err_name(ce.cls), ce.msg, err);
        }
        errs = json_object_get(doc, "errors");
        if (errs != NULL) {
                const json_t *e0 = json_array_get(errs, 0);
                char why[256];
                size_t n = json_array_size(errs) + (size_t)json_integer_value(json_object_get(doc, "errors_dropped"));
                snprintf(why, sizeof(why), "not valid %s: %zu error%s, the first at line %" JSON_INTEGER_FORMAT
                         ": %.120s; the rest was tokenized with recovery and analyzed",
                         kind == PRC_AK_SRCINFO ? ".SRCINFO" : "shell", n, n == 1 ? "" : "s",
                         json_integer_value(json_object_get(e0, "line")),
                         json_string_value(json_object_get(e0, "message")));
                if (!add_kind_gap(s, path, kind, json_string_value(json_object_get(e0, "class")), why, err)) {
                        json_decref(doc);
                        return false;
                }
        }
        if (s->o->extraction_out != NULL && !sbom_doc(path, kind, &doc, err))
                return false;
        if (s->ndocs == s->capdocs) {
                size_t ncap = s->capdocs ? 2 * s->capdocs : 8;
                prc_adoc *d = realloc(s->docs, ncap * sizeof(*d));
                if (d == NULL) {
                        json_decref(doc);
                        return prc_err_oom(err, "worker documents");
                }
                s->docs = d;
                s->capdocs = ncap;
        }
        s->docs[s->ndocs].path = strdup(path);
        if (s->docs[s->ndocs].path == NULL) {
                json_decref(doc);
                return prc_err_oom(err, "worker documents");
        }
        s->docs[s->ndocs].kind = kind;
        s->docs[s->ndocs].doc = doc;
        s->ndocs++;
        return true;
}

static const prc_tfile *find_file(const struct scan *s, const char *path)
{
        size_t lo = 0, hi = s->nfiles;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = strcmp(s->files[mid].path, path);
                if (c == 0)
                        return &s->files[mid];
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return NULL;
}

struct inst_ctx {
        struct scan *s;
        const char  *pkgbuild;
        prc_buf     *b;
};

/* One install= target of a PKGBUILD: tokenized as an install script, or a named gap. */
static bool install_target(void *ctx, const char *path, uint32_t line, const char *why, prc_err *err)
{
        struct inst_ctx *ic = ctx;
        struct scan *s = ic->s;
        const prc_tfile *f;
        prc_err pe;
        json_t *doc = NULL;
        char reason[256];

        if (path == NULL) {
                snprintf(reason, sizeof(reason), "install= on line %" PRIu32 " %s: the install script is not known",
                         line, why);
                return add_kind_gap(s, ic->pkgbuild, PRC_AK_INSTALL,
                                    prc_err_name(strstr(why, "leaves") != NULL ? PRC_E_INSTALL_SCRIPT_MISSING
                                                                               : PRC_E_INSTALL_SCRIPT_DYNAMIC),
                                    reason, err);
        }
        for (size_t i = 0; i < s->ndocs; i++)
                if (strcmp(s->docs[i].path, path) == 0)
                        return true;    /* named twice (split packages) */
        for (size_t i = s->content0; i < s->ngaps; i++)
                if (strcmp(s->gaps[i].path, path) == 0)
                        return true;
        f = find_file(s, path);
        s->nmanifests++;
        if (f == NULL) {
                snprintf(reason, sizeof(reason), "%s names it (install= on line %" PRIu32 ") but the package does "
                         "not hold it", ic->pkgbuild, line);
                return add_kind_gap(s, path, PRC_AK_INSTALL, prc_err_name(PRC_E_INSTALL_SCRIPT_MISSING), reason, err);
        }
        if (f->symlink)
                return add_kind_gap(s, path, PRC_AK_INSTALL, prc_err_name(PRC_E_MANIFEST_SYMLINK),
                                    "the install script is a symlink; prc does not follow symlinks in the target", err);
        if (f->oversized)
                return add_kind_gap(s, path, PRC_AK_INSTALL, "input-too-large", "above the 10 MiB analysis ceiling",
                                    err);
        prc_err_init(&pe);
        prc_buf_reset(ic->b);
        if (!prc_inventory_read(s->inv, f->path, prc_limits_default.input_max, ic->b, &pe) ||
            !s->o->parse(s->o->parse_ctx, "shell", f->path, ic->b->data ? ic->b->data : (const uint8_t *)"",
                         ic->b->len, &doc, &pe))
                return add_kind_gap(s, f->path, PRC_AK_INSTALL, prc_err_name(pe.cls), pe.msg, err);
        return keep_doc(s, f->path, PRC_AK_INSTALL, doc, err);
}

static int doc_cmp(const void *a, const void *b)
{
        return strcmp(((const prc_adoc *)a)->path, ((const prc_adoc *)b)->path);
}

/* Install scripts are known only from the PKGBUILD that names them: a second pass after the first. */
static bool install_scripts(struct scan *s, prc_buf *b, prc_err *err)
{
        size_t n0 = s->ndocs;

        for (size_t i = 0; i < n0; i++) {
                struct inst_ctx ic = { s, s->docs[i].path, b };
                char dir[PKG_DIR_MAX];

                if (s->docs[i].kind != PRC_AK_PKGBUILD)
                        continue;
                if (s->o->extraction_out != NULL) {
                        /* prc sbom: the targets sbom_doc took, told again in their order. */
                        size_t j;
                        json_t *c;
                        json_array_foreach((json_t *)s->docs[i].doc, j, c) {
                                if (!install_target(&ic, json_string_value(json_array_get(c, 0)),
                                                    (uint32_t)json_integer_value(json_array_get(c, 1)),
                                                    json_string_value(json_array_get(c, 2)), err))
                                        return false;
                        }
                        continue;
                }
                pkg_dir(s->docs[i].path, dir);
                if (!prc_aur_install_targets(s->docs[i].doc, dir, install_target, &ic, err))
                        return false;
        }
        if (s->ndocs > 1)
                qsort(s->docs, s->ndocs, sizeof(*s->docs), doc_cmp);
        return true;
}


/* What the worker answered for one extraction: the ManifestDoc, or the refusal in pe. */
struct xresult {
        bool    ok;
        json_t *md;     /* owned when ok */
        prc_err pe;
};

/* Extract path (bytes in b) through the worker with ctx as format (NULL: by name); touches no scan state. */
static void extract_call(const struct scan *s, void *ctx, const char *format, const char *path, const prc_buf *b,
                         struct xresult *x)
{
        prc_err_init(&x->pe);
        x->md = NULL;
        x->ok = s->o->extract(ctx, format, path, b->data ? b->data : (const uint8_t *)"", b->len, &x->md, &x->pe);
}

/*
 * Record files[i]'s extraction (takes x->md): its ManifestDoc, or its
 * refusal as a gap.  order is the document's place in the order recording
 * one trip after the other would give (scan.h extraction_each).
 */
static bool extract_done(struct scan *s, size_t i, size_t order, struct xresult *x, prc_err *err)
{
        const prc_tfile *f = &s->files[i];
        json_t *md = x->md;

        s->extracted[i] = true;
        x->md = NULL;
        if (!x->ok)
                return add_gap(s, f->path, prc_err_name(x->pe.cls), x->pe.msg, err);
        if (s->o->extraction_each != NULL) {
                /*
                 * Handed over, then only what follow_includes reads is kept, as
                 * copies: a node of md kept would keep its chunk of the reply
                 * arena (prc_json_arena_begin).
                 */
                json_t *stub, *inc = json_object_get(json_object_get(md, "details"), "includes"), *incs;
                const json_t *path = json_object_get(md, "path"), *format = json_object_get(md, "format");
                bool ok = s->o->extraction_each(s->o->extraction_ctx, md, order, err);

                incs = ok && inc != NULL ? json_deep_copy(inc) : NULL;
                stub = ok && (inc == NULL || incs != NULL)
                               ? json_pack("{s:s%,s:s%,s:{s:o*}}", "path", json_string_value(path),
                                           json_string_length(path), "format", json_string_value(format),
                                           json_string_length(format), "details", "includes", incs)
                               : NULL;
                json_decref(md);
                if (!ok)
                        return false;
                md = stub;
        }
        if (md == NULL || json_array_append_new(s->mdocs, md) != 0)
                return prc_err_oom(err, "the manifest documents");
        return true;
}

/* Extract files[i] (bytes in b) through the worker as format (NULL: by name); a refusal is a gap. */
static bool extract_one(struct scan *s, size_t i, const char *format, const prc_buf *b, prc_err *err)
{
        struct xresult x;

        extract_call(s, s->o->parse_ctx, format, s->files[i].path, b, &x);
        return extract_done(s, i, s->xorder++, &x, err);
}

/* dir of from + "/" + rel, with "." and ".." resolved; false when it leaves the root or is not relative. */
static bool include_path(const char *from, const char *rel, char *out, size_t cap)
{
        const char *slash = strrchr(from, '/');
        size_t n = 0, dirn = slash != NULL ? (size_t)(slash - from) : 0;
        const char *p;

        if (rel[0] == '/' || rel[0] == '\0' || strstr(rel, "://") != NULL || dirn + strlen(rel) + 2 > cap)
                return false;
        memcpy(out, from, dirn);
        n = dirn;
        out[n] = 0;
        for (p = rel; *p != '\0';) {
                size_t k = strcspn(p, "/");
                if (k == 0 || (k == 1 && p[0] == '.')) {
                        /* "" or "." */
                } else if (k == 2 && p[0] == '.' && p[1] == '.') {
                        char *up;
                        if (n == 0)
                                return false;   /* above the root: outside the inventory */
                        up = strrchr(out, '/');
                        n = up != NULL ? (size_t)(up - out) : 0;
                        out[n] = 0;
                } else {
                        if (n > 0)
                                out[n++] = '/';
                        memcpy(out + n, p, k);
                        n += k;
                        out[n] = 0;
                }
                p += k + (p[k] == '/');
        }
        return n > 0;
}

/*
 * Includes a ManifestDoc names in details.includes ([{"kind", "path",
 * "line"}]: requirements files' -r and -c, docs/extraction/python.md) are
 * followed only inside the inventory: the included file is extracted with
 * the including file's format, once.  An include that leaves the target,
 * is a URL or names no inventoried file is a gap (manifest-include-outside).
 */
static bool follow_includes(struct scan *s, prc_buf *b, prc_err *err)
{
        bool ok = true;

        for (size_t j = 0; ok && j < json_array_size(s->mdocs); j++) {
                const json_t *md = json_array_get(s->mdocs, j), *inc;
                const char *from = json_string_value(json_object_get(md, "path"));
                const char *format = json_string_value(json_object_get(md, "format"));
                size_t k;

                json_array_foreach(json_object_get(json_object_get(md, "details"), "includes"), k, inc) {
                        const char *rel = json_string_value(json_object_get(inc, "path"));
                        char path[PRC_PATH_MAX + 1], why[512];
                        long idx;
                        bool inside;
                        prc_err pe;

                        if (rel == NULL)
                                continue;
                        inside = include_path(from, rel, path, sizeof(path));
                        idx = inside ? prc_inventory_find(s->inv, path) : -1;
                        if (idx < 0 || s->files[idx].symlink || s->files[idx].oversized) {
                                snprintf(why, sizeof(why), "included by %s (%s): %s", from,
                                         json_is_string(json_object_get(inc, "kind"))
                                                 ? json_string_value(json_object_get(inc, "kind"))
                                                 : "include",
                                         idx < 0 ? "not a file of the inventory, so not followed"
                                                 : "a symlink or above the analysis ceiling, so not followed");
                                /* The gap names the file the include resolves to, or as written when it leaves the root. */
                                ok = add_kind_gap(s, inside ? path : rel, PRC_AK_DEPS,
                                                  prc_err_name(PRC_E_MANIFEST_INCLUDE_OUTSIDE), why, err);
                                continue;
                        }
                        if (s->extracted[idx])
                                continue;
                        s->nmanifests++;
                        prc_err_init(&pe);
                        prc_buf_reset(b);
                        if (!prc_inventory_read(s->inv, path, prc_limits_default.input_max, b, &pe)) {
                                s->extracted[idx] = true;
                                ok = add_gap(s, path, prc_err_name(pe.cls), pe.msg, err);
                                continue;
                        }
                        ok = extract_one(s, (size_t)idx, format, b, err);
                }
        }
        return ok;
}

static int mdoc_cmp(const void *a, const void *b)
{
        return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "path")),
                      json_string_value(json_object_get(*(json_t *const *)b, "path")));
}

/* The ManifestDocs in path order (the view's and the run result's order). */
static bool sort_mdocs(struct scan *s, prc_err *err)
{
        size_t n = json_array_size(s->mdocs);
        json_t **v = calloc(n ? n : 1, sizeof(*v)), *sorted = json_array();

        if (v == NULL || sorted == NULL) {
                free(v);
                json_decref(sorted);
                return prc_err_oom(err, "the manifest documents");
        }
        for (size_t i = 0; i < n; i++)
                v[i] = json_array_get(s->mdocs, i);
        qsort(v, n, sizeof(*v), mdoc_cmp);
        for (size_t i = 0; i < n; i++)
                json_array_append(sorted, v[i]);
        free(v);
        json_decref(s->mdocs);
        s->mdocs = sorted;
        return json_array_size(sorted) == n || prc_err_oom(err, "the manifest documents");
}

/*
 * What the trips may hold at once (lanes.h): one a lane and the one
 * trip_done takes whatever they hold, then up to TRIP_WINDOW trips (a slot
 * is about 1.5 KiB) while those others hold at most TRIP_BUDGET bytes of
 * files, whose ManifestDocs wait for trip_done (a document's tree is
 * several times its file; the worker's reply cap bounds any one).  A
 * lane's read buffer above TRIP_BUF_KEEP (a big lockfile's) is freed once
 * its trip is run, not kept for the files after it.  Measured on the
 * manifests corpus (docs/extraction/peers.md): peak RSS grows with the
 * budget and with the trips held at any size.
 */
enum { TRIP_WINDOW = 64, TRIP_BUDGET = 256 << 10, TRIP_BUF_KEEP = 512 << 10 };

/*
 * Files of at least TRIP_BIG bytes go through the first lane's worker, the
 * largest first (lanes.h big; the other lane takes one only once no small
 * file is left): a worker keeps the memory its largest file took
 * (worker.c, the arena), so the other stays small, and the longest trips
 * start first.  Measured on the manifests corpus (docs/extraction/peers.md,
 * session 18).
 */
enum { TRIP_BIG = 128 << 10 };

/*
 * The finished trips trip_done takes at a wake (lanes.h take_batch): on
 * the manifests corpus a quarter fewer context switches and about 4% less
 * CPU than a wake for each (docs/extraction/peers.md, session 18).
 */
enum { TRIP_TAKE_BATCH = 8 };

/* One manifest's trip through the worker: what the scan records of it. */
struct trip {
        bool           refused; /* the read or the parse failed: pe says why */
        prc_err        pe;
        json_t        *doc;     /* owned: a shell file's token document */
        bool           extract; /* an extractor owns the file: x holds the worker's answer */
        struct xresult x;
};

/*
 * Small files go several to a job when the hooks can take them at once
 * (parse_extract_many): their requests go to the worker in one write, and
 * it answers them one after the other (client.h
 * prc_client_parse_extract_many).  A group is consecutive manifests (so
 * path order holds), each of at most TRIP_GROUP_FILE bytes, that go as one
 * request each: parsed and extracted (trip_one_call), or extracted alone
 * (an extractor's file with no parse format).
 */
enum { TRIP_GROUP_MAX = 8, TRIP_GROUP_FILE = 16u << 10, TRIP_GROUP_BYTES = 48u << 10 };

/* A job: the manifests idx[m..m+n) (n > 1 only for a group), and what they hold once run (trip_cost). */
struct tjob {
        size_t m, n, cost;
        bool   group;
};

/* The trips of a content analysis: files[idx[m]] for each job's m, through lane's ctx and buffers. */
struct trips {
        struct scan  *s;
        size_t       *idx;      /* owned: the inventory indexes of the manifests */
        struct tjob  *jobs;     /* owned */
        void         *ctx[PRC_LANES_MAX];       /* borrowed: the hooks' context of each lane */
        prc_buf       b[PRC_LANES_MAX];
        prc_buf       gb[PRC_LANES_MAX][TRIP_GROUP_MAX];        /* a group's files, one each */
};

/*
 * A file both parsed (not as shell: its tree is not kept) and extracted:
 * one trip through the worker when the hooks allow it.  A refusal of the
 * parse comes back as the extraction's, and trip_done records either the
 * same way: a gap with that class and reason (the first refusal).
 */
static bool trip_one_call(const struct scan *s, const prc_tfile *f, const char *fmt)
{
        return s->o->parse_extract != NULL && fmt != NULL && strcmp(fmt, "shell") != 0 &&
               strcmp(fmt, "archive") != 0 && prc_extractor_for_path(f->path) != NULL;
}

/*
 * Read, parse and extract one manifest into t, with b for its bytes.  Runs
 * in a lane: it reads the scan and the inventory and touches no scan
 * state, so two lanes may run at once, each with its own worker.
 */
static void trip_run_in(const struct trips *tr, unsigned lane, size_t m, prc_buf *b, struct trip *t)
{
        const struct scan *s = tr->s;
        const prc_tfile *f = &s->files[tr->idx[m]];
        const char *fmt = prc_manifest_format_for(f->path);
        bool shell = fmt != NULL && strcmp(fmt, "shell") == 0;

        if (f->symlink || f->oversized)
                return;         /* a gap without a trip (trip_done) */
        prc_err_init(&t->pe);
        prc_buf_reset(b);
        if (!prc_inventory_read(s->inv, f->path, prc_limits_default.input_max, b, &t->pe)) {
                t->refused = true;
                return;
        }
        if (trip_one_call(s, f, fmt)) {
                t->extract = true;
                prc_err_init(&t->x.pe);
                t->x.ok = s->o->parse_extract(tr->ctx[lane], fmt, f->path, b->data ? b->data : (const uint8_t *)"",
                                              b->len, &t->x.md, &t->x.pe);
                return;
        }
        /* Token documents are kept for the analyses; other parsed documents are not read. */
        if (fmt != NULL && !s->o->parse(tr->ctx[lane], fmt, f->path, b->data ? b->data : (const uint8_t *)"", b->len,
                                        shell ? &t->doc : NULL, &t->pe)) {
                t->refused = true;
                return;
        }
        t->extract = prc_extractor_for_path(f->path) != NULL;
        if (t->extract)
                extract_call(s, tr->ctx[lane], NULL, f->path, b, &t->x);
}

/* A group's trips (j->n of them, from t): each file read into its own buffer, then all in one call of the hook. */
static void trip_run_group(struct trips *tr, unsigned lane, const struct tjob *j, struct trip *t)
{
        const struct scan *s = tr->s;
        prc_scan_xitem items[TRIP_GROUP_MAX];
        size_t at[TRIP_GROUP_MAX], k = 0;

        for (size_t i = 0; i < j->n; i++) {
                const prc_tfile *f = &s->files[tr->idx[j->m + i]];
                prc_buf *b = &tr->gb[lane][i];

                prc_err_init(&t[i].pe);
                prc_buf_reset(b);
                if (!prc_inventory_read(s->inv, f->path, prc_limits_default.input_max, b, &t[i].pe)) {
                        t[i].refused = true;
                        continue;
                }
                t[i].extract = true;
                items[k] = (prc_scan_xitem){ .format = prc_manifest_format_for(f->path), .path = f->path,
                                             .p = b->data ? b->data : (const uint8_t *)"", .n = b->len };
                at[k++] = i;
        }
        if (k > 0)
                s->o->parse_extract_many(tr->ctx[lane], items, k);
        for (size_t q = 0; q < k; q++) {
                t[at[q]].x.ok = items[q].ok;
                t[at[q]].x.md = items[q].md;
                t[at[q]].x.pe = items[q].err;
        }
}

/* One job's trips (prc_lane_work_fn), in lane's buffers: a big file's is freed after its trip. */
static void trip_run(void *ctx, unsigned lane, size_t job, void *slot)
{
        struct trips *tr = ctx;
        const struct tjob *j = &tr->jobs[job];

        if (j->group && j->n > 1) {
                trip_run_group(tr, lane, j, slot);
                return;
        }
        trip_run_in(tr, lane, j->m, &tr->b[lane], slot);
        if (tr->b[lane].cap > TRIP_BUF_KEEP)
                prc_buf_clear(&tr->b[lane]);
}

/* What a job holds until trip_done takes it (prc_lane_cost_fn): its files' bytes, read and extracted. */
static size_t trip_cost(void *ctx, size_t job)
{
        const struct trips *tr = ctx;

        return tr->jobs[job].cost;
}

static void trip_drop_one(struct trip *t)
{
        json_decref(t->doc);
        json_decref(t->x.md);
        t->doc = t->x.md = NULL;
}

static void trip_drop(void *ctx, size_t job, void *slot)
{
        const struct trips *tr = ctx;
        struct trip *t = slot;

        for (size_t i = 0; i < tr->jobs[job].n; i++)
                trip_drop_one(&t[i]);
}

/*
 * Record manifest m's trip t, in the order the trips finish; takes what it
 * holds.  Its gaps and documents are appended as they come and put in file
 * order once every trip is in (trips_in_order).
 */
static bool trip_done_one(struct trips *tr, size_t m, struct trip *t, prc_err *err)
{
        struct scan *s = tr->s;
        size_t i = tr->idx[m];
        const prc_tfile *f = &s->files[i];
        const char *fmt = prc_manifest_format_for(f->path);
        const char *base = strrchr(f->path, '/');
        json_t *doc = t->doc;
        bool ok;

        t->doc = NULL;
        s->nmanifests++;
        prc_tune_heap_grown();  /* the documents are what grows the heap */
        if (prc_extractor_for_path(f->path) != NULL)
                s->extracted[i] = true;         /* the gap below, if any, stands for the extraction too */
        if (f->symlink) {
                /*
                 * Issue 16: a symlink is recorded by path only, its target is
                 * neither sealed nor copied into the snapshot, so prc does not
                 * follow it; the manifest is a gap, never silently skipped.
                 */
                return add_gap(s, f->path, prc_err_name(PRC_E_MANIFEST_SYMLINK),
                               "the manifest is a symlink; prc does not follow symlinks in the target", err);
        }
        if (f->oversized)
                return add_gap(s, f->path, "input-too-large", "above the 10 MiB analysis ceiling", err);
        if (t->refused) {
                json_decref(doc);
                return add_gap(s, f->path, prc_err_name(t->pe.cls), t->pe.msg, err);
        }
        ok = true;
        if (fmt != NULL && strcmp(fmt, "shell") == 0)
                ok = keep_doc(s, f->path,
                              strcmp(base ? base + 1 : f->path, ".SRCINFO") == 0 ? PRC_AK_SRCINFO : PRC_AK_PKGBUILD,
                              doc, err);
        else
                json_decref(doc);
        if (ok && t->extract)
                return extract_done(s, i, m, &t->x, err);
        trip_drop_one(t);
        return ok;
}

/* Record a job's trips (prc_lane_done_fn), a group's in its files' order; what a failure leaves is dropped. */
static bool trip_done(void *ctx, size_t job, void *slot, prc_err *err)
{
        struct trips *tr = ctx;
        const struct tjob *j = &tr->jobs[job];
        struct trip *t = slot;

        for (size_t i = 0; i < j->n; i++)
                if (!trip_done_one(tr, j->m + i, &t[i], err)) {
                        while (++i < j->n)
                                trip_drop_one(&t[i]);
                        return false;
                }
        return true;
}

/*
 * The jobs of the manifests idx[0..n): one a manifest, except that with
 * group a run of small files that trip_one_call sends as one request each
 * shares one (at most TRIP_GROUP_MAX of them, TRIP_GROUP_BYTES in all).
 * Returns how many, or 0 when out of memory with n > 0.
 */
static size_t make_jobs(struct trips *tr, size_t n, bool group)
{
        const struct scan *s = tr->s;
        size_t nj = 0;

        tr->jobs = calloc(n ? n : 1, sizeof(*tr->jobs));
        if (tr->jobs == NULL)
                return 0;
        for (size_t m = 0; m < n; m++) {
                const prc_tfile *f = &s->files[tr->idx[m]];
                size_t cost = f->symlink || f->oversized ? 0 : (size_t)f->size;
                const char *fmt = prc_manifest_format_for(f->path);
                bool small = group && !f->symlink && !f->oversized && f->size <= TRIP_GROUP_FILE &&
                             (fmt != NULL ? trip_one_call(s, f, fmt) : prc_extractor_for_path(f->path) != NULL);
                struct tjob *last = nj > 0 ? &tr->jobs[nj - 1] : NULL;

                if (small && last != NULL && last->group && last->n < TRIP_GROUP_MAX &&
                    last->cost + cost <= TRIP_GROUP_BYTES) {
                        last->n++;
                        last->cost += cost;
                        continue;
                }
                tr->jobs[nj++] = (struct tjob){ .m = m, .n = 1, .cost = cost, .group = small };
        }
        return nj;
}

/* Is path a manifest (a file a format or an extractor owns)?  Pure: the inventory's hashing threads ask it. */
static bool is_manifest(const char *path)
{
        return prc_manifest_format_for(path) != NULL || prc_extractor_for_path(path) != NULL;
}

/* The manifests of the inventory: files a format or an extractor owns, in inventory order. */
static size_t *manifest_indexes(const struct scan *s, size_t *n, prc_err *err)
{
        size_t *idx = calloc(s->nfiles ? s->nfiles : 1, sizeof(*idx));

        *n = 0;
        if (idx == NULL) {
                prc_err_oom(err, "the manifest list");
                return NULL;
        }
        for (size_t i = 0; i < s->nfiles; i++)
                if (is_manifest(s->files[i].path))
                        idx[(*n)++] = i;
        return idx;
}

/* A gap and its place among the gaps recorded, for a stable sort. */
struct gap_at {
        const char *path;
        size_t      at;
};

static int gap_at_cmp(const void *a, const void *b)
{
        const struct gap_at *x = a, *y = b;
        int c = strcmp(x->path, y->path);

        return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/*
 * gaps[g0..) in path order, each path's gaps in the order they were made:
 * a stable sort, done only when they are out of order.
 */
static bool sort_gaps_from(struct scan *s, size_t g0, prc_err *err)
{
        size_t n = s->ngaps - g0, i;
        struct gap_at *v;
        prc_gap *g;

        for (i = 1; i < n && strcmp(s->gaps[g0 + i - 1].path, s->gaps[g0 + i].path) <= 0; i++)
                ;
        if (i >= n)
                return true;
        v = calloc(n, sizeof(*v));
        g = calloc(n, sizeof(*g));
        if (v == NULL || g == NULL) {
                free(v);
                free(g);
                return prc_err_oom(err, "coverage gaps");
        }
        for (i = 0; i < n; i++)
                v[i] = (struct gap_at){ s->gaps[g0 + i].path, i };
        qsort(v, n, sizeof(*v), gap_at_cmp);
        for (i = 0; i < n; i++)
                g[i] = s->gaps[g0 + v[i].at];
        memcpy(s->gaps + g0, g, n * sizeof(*g));
        free(v);
        free(g);
        return true;
}

/*
 * What the trips recorded, as they finished, put in the order recording
 * them in job order gives, before anything reads that order
 * (install_scripts, follow_includes, the run result).  Each trip's gaps and
 * documents name its file, the inventory is sorted bytewise by path and
 * the jobs follow it: job order is path order.  So the gaps since g0 are
 * sorted stably by path (a trip's own gaps keep the order it made them
 * in), and the token documents and ManifestDocs by path (one of each a
 * file at most).
 */
static bool trips_in_order(struct scan *s, size_t g0, prc_err *err)
{
        if (s->ndocs > 1)
                qsort(s->docs, s->ndocs, sizeof(*s->docs), doc_cmp);
        return sort_gaps_from(s, g0, err) && sort_mdocs(s, err);
}

/*
 * Step 2: every recognized manifest goes through the content worker: a
 * parse for the formats manifests.c names, and an extraction to a
 * ManifestDoc for every file an extractor owns.  A refusal of either is a
 * gap (one per file: the first refusal).  With a second context
 * (lane_ctx) two manifests go through two workers at once, each trip is
 * recorded as soon as it is done (lanes.h any_order: no finished trip
 * waits behind a big lockfile), and what they recorded is then put in
 * inventory order (trips_in_order): the result is the one recording them
 * in order gives.
 */
static bool content_analysis(struct scan *s, prc_err *err)
{
        struct trips tr = { .s = s, .ctx = { s->o->parse_ctx, s->o->lane_ctx } };
        const bool group = s->o->parse_extract != NULL && s->o->parse_extract_many != NULL;
        prc_lanes_spec sp = { .nlanes = s->o->lane_ctx != NULL ? 2 : 1, .any_order = true,
                              .slot_size = sizeof(struct trip) * (group ? TRIP_GROUP_MAX : 1), .work = trip_run,
                              .done = trip_done, .drop = trip_drop, .ctx = &tr };
        size_t n, nj, g0 = s->ngaps;

        /* A lane's trips write to its worker's pipe: the lane keeps SIGPIPE blocked rather than each write. */
        sp.lane_start = prc_frame_hold_sigpipe;
        bool ok;

        s->mdocs = json_array();
        s->extracted = calloc(s->nfiles ? s->nfiles : 1, sizeof(*s->extracted));
        if (s->mdocs == NULL || s->extracted == NULL)
                return prc_err_oom(err, "the manifest documents");
        if (s->o->extract == NULL)
                return prc_err_set(err, PRC_E_INTERNAL, "a scan without a content extraction hook");
        tr.idx = manifest_indexes(s, &n, err);
        if (tr.idx == NULL)
                return false;
        nj = make_jobs(&tr, n, group);
        if (nj == 0 && n > 0) {
                free(tr.idx);
                return prc_err_oom(err, "the manifest list");
        }
        for (size_t l = 0; l < PRC_LANES_MAX; l++) {
                prc_buf_init(&tr.b[l], prc_limits_default.input_max);
                for (size_t g = 0; g < TRIP_GROUP_MAX; g++)
                        prc_buf_init(&tr.gb[l][g], prc_limits_default.input_max);
        }
        /*
         * While one lane extracts a big lockfile the others go on with the
         * small files after it, up to TRIP_WINDOW of them and TRIP_BUDGET
         * bytes of files held for trip_done (lanes.h): what waits is
         * bounded by bytes, whatever the tree.
         */
        sp.window = sp.nlanes > 1 ? TRIP_WINDOW : 1;
        sp.cost = trip_cost;
        sp.near = (size_t)sp.nlanes + 1;
        sp.budget = TRIP_BUDGET;
        sp.big = TRIP_BIG;
        sp.take_batch = s->o->take_batch != 0 ? s->o->take_batch : TRIP_TAKE_BATCH;
        if (group && sp.nlanes > 1) {
                /* A slot holds a group: about as many files in flight and per wake as one file a job had. */
                sp.window = TRIP_WINDOW / 4;
                if (s->o->take_batch == 0)
                        sp.take_batch = TRIP_TAKE_BATCH / 2;
        }
        s->xorder = n;          /* the includes' documents come after every manifest's */
        ok = prc_lanes_run(&sp, nj, err);
        for (size_t l = 0; l < PRC_LANES_MAX; l++) {
                if (l > 0)
                        prc_buf_clear(&tr.b[l]);
                for (size_t g = 0; g < TRIP_GROUP_MAX; g++)
                        prc_buf_clear(&tr.gb[l][g]);
        }
        ok = ok && trips_in_order(s, g0, err) && install_scripts(s, &tr.b[0], err) &&
             follow_includes(s, &tr.b[0], err) && sort_mdocs(s, err);
        prc_buf_clear(&tr.b[0]);
        free(tr.jobs);
        free(tr.idx);
        return ok;
}

/* Per ManifestDoc: path, format, ecosystem, kind, dependency count and the SHA-256 of its canonical JSON. */
static json_t *extractions_json(const struct scan *s, prc_err *err)
{
        json_t *a = json_array(), *md;
        size_t i;

        if (a == NULL) {
                prc_err_oom(err, "the extraction summary");
                return NULL;
        }
        json_array_foreach(s->mdocs, i, md) {
                char sha[PRC_SHA256_HEX + 1];
                if (!prc_jcs_digest(md, sha, err) ||
                    json_array_append_new(a, json_pack("{s:O,s:O,s:O,s:O,s:I,s:s}", "path", json_object_get(md, "path"),
                                                       "format", json_object_get(md, "format"), "ecosystem",
                                                       json_object_get(md, "ecosystem"), "kind",
                                                       json_object_get(md, "kind"), "dependencies",
                                                       (json_int_t)json_array_size(json_object_get(md, "dependencies")),
                                                       "sha256", sha)) != 0) {
                        if (!prc_err_is_set(err))
                                prc_err_oom(err, "the extraction summary");
                        json_decref(a);
                        return NULL;
                }
        }
        return a;
}

/* Analyses that read every file cannot vouch for names the inventory could not represent or left out. */
static bool scans_whole_tree(const char *analysis)
{
        return strcmp(analysis, "binaries") == 0 || strcmp(analysis, "oversized") == 0 ||
               strcmp(analysis, "manifests") == 0;
}

/*
 * Analyses whose verdict rests on what the content worker returned (its
 * documents, or its refusals as coverage gaps): their evidence carries the
 * floor the worker ran under (issue 23).  An analysis over ManifestDocs or
 * tokens joins this list.
 */
static bool reads_worker_output(const struct scan *s, const char *analysis)
{
        /*
         * manifests: parse and extraction refusals; a registry analysis reads
         * token documents; any analysis that read the ManifestDocs (prc_tv_mdocs).
         */
        return strcmp(analysis, "manifests") == 0 || prc_analysis_find(analysis) != NULL || s->mdocs_read;
}

static json_t *obs_json(const prc_obs *o)
{
        json_t *j = json_pack("{s:s,s:s,s:s,s:O}", "id", o->id, "kind", o->kind, "outcome",
                              prc_outcome_name(o->outcome), "locations", o->locations);

        if (j == NULL)
                return NULL;
        if (o->value != NULL)
                json_object_set(j, "value", o->value);
        if (o->message[0] != '\0')
                json_object_set_new(j, "message", json_string(o->message));
        return j;
}

/*
 * An evidence envelope binds one observation to the inventory and its
 * source (a built-in analysis, or an adapter's execution record); it is
 * content-addressed.  source and observation are taken over (transfers).
 */
static json_t *envelope_of(const struct scan *s, json_t *source, json_t *observation, prc_err *err)
{
        char id[PRC_SHA256_HEX + 1];
        json_t *env = json_pack("{s:s,s:s,s:o,s:o}", "schema", "prc.evidence/v1", "inventory_digest",
                                prc_inventory_digest(s->inv), "source", source, "observation", observation);

        if (env == NULL) {
                prc_err_oom(err, "an evidence envelope");
                return NULL;
        }
        /* Its bytes are kept: the result's own ID and record spell it again without walking it. */
        if (!prc_jcs_memo_id(s->envs, env, "id", id, err)) {
                json_decref(env);
                return NULL;
        }
        json_object_set_new(env, "id", json_string(id));
        return env;
}

static json_t *envelope(const struct scan *s, const char *analysis, const prc_obs *o, prc_err *err)
{
        json_t *src = json_pack("{s:s,s:s}", "type", "builtin", "analysis", analysis);

        if (src != NULL && reads_worker_output(s, analysis) &&
            json_object_set(src, "content_floor", s->floor) != 0) {
                json_decref(src);
                src = NULL;
        }
        return envelope_of(s, src, obs_json(o), err);
}

/* State of several bindings together: the least favourable wins, Pass only if all pass. */
static prc_state combine(prc_state acc, prc_state st, bool first)
{
        static const int rank[] = {
                [PRC_STATE_PASS] = 0, [PRC_STATE_UNKNOWN] = 2, [PRC_STATE_CONFLICTING] = 1,
                [PRC_STATE_BLOCKED] = 3, [PRC_STATE_FAIL] = 4,
        };

        if (first)
                return st;
        return rank[st] > rank[acc] ? st : acc;
}

/*
 * A repository-inventory SBOM value (the Syft protocol's) is evidence only
 * together with its bytes: the record must list the CycloneDX 1.7 artifact
 * whose SHA-256 the value names (--state-dir stores those bytes before the
 * run record).  A value naming no such artifact is contradictory output,
 * which never becomes Pass.  Other observations are not affected.
 */
static bool sbom_bound(const json_t *record, const json_t *o)
{
        const json_t *v = json_object_get(o, "value"), *art;
        const char *gen = json_string_value(json_object_get(v, "generated"));
        const char *want = json_string_value(json_object_get(v, "sha256"));
        size_t i;

        if (gen == NULL || strcmp(gen, PRC_SBOM_GENERATED) != 0)
                return true;
        json_array_foreach(json_object_get(record, "artifacts"), i, art) {
                const char *mt = json_string_value(json_object_get(art, "media_type"));
                const char *sha = json_string_value(json_object_get(art, "sha256"));
                if (want != NULL && mt != NULL && sha != NULL && strcmp(mt, PRC_NATIVE_MT_CYCLONEDX) == 0 &&
                    strcmp(sha, want) == 0)
                        return true;
        }
        return false;
}

/* Evaluate an adapter-bound assertion over the executions of this run. */
static bool assess_bindings(struct scan *s, const prc_assertion *a, json_t *evidence, prc_state *out_st,
                            const char **out_reason, prc_err *err)
{
        prc_state acc = PRC_STATE_UNKNOWN;

        for (size_t b = 0; b < a->nbindings; b++) {
                const prc_binding *pb = &a->bindings[b];
                const struct exec *x = NULL;
                const char *why = "";
                unsigned observed = 0;
                bool nonevidence = false, partial;
                prc_state st;
                const json_t *obs, *o;
                size_t i;

                for (size_t k = 0; k < s->nexecs; k++)
                        if (strcmp(s->execs[k].a->res.adapter_id, pb->adapter_id) == 0 &&
                            strcmp(s->execs[k].a->res.manifest_sha256, pb->manifest_sha256) == 0)
                                x = &s->execs[k];
                if (x == NULL) {
                        st = PRC_STATE_BLOCKED;
                        why = s->o->mode == PRC_MODE_INSPECT ? "inspect mode never launches containers"
                                                             : "no adapter was supplied for this binding";
                        acc = combine(acc, st, b == 0);
                        if (acc == st)
                                *out_reason = why;
                        continue;
                }
                if (x->record == NULL) {
                        nonevidence = true;     /* refused before a plan existed: listed in errors */
                } else {
                        const char *disp = json_string_value(json_object_get(x->record, "disposition"));
                        const char *sum = json_string_value(json_object_get(x->record, "summary_status"));
                        /* Only an accepted, completed transcript is evidence; any other end is not. */
                        nonevidence = disp == NULL || strcmp(disp, "accepted") != 0 || sum == NULL ||
                                      strcmp(sum, "completed") != 0;
                        obs = json_object_get(x->record, "observations");
                        json_array_foreach(obs, i, o) {
                                const char *kind = json_string_value(json_object_get(o, "kind"));
                                unsigned bit = prc_outcome_parse(json_string_value(json_object_get(o, "outcome")));
                                json_t *env;
                                if (nonevidence || kind == NULL || strcmp(kind, pb->observation_kind) != 0 || bit == 0)
                                        continue;
                                if (!sbom_bound(x->record, o)) {
                                        nonevidence = true;
                                        continue;
                                }
                                env = envelope_of(s, json_pack("{s:s,s:s,s:s}", "type", "adapter", "adapter_id",
                                                               pb->adapter_id, "execution_id",
                                                               json_string_value(json_object_get(x->record, "id"))),
                                                  json_deep_copy(o), err);
                                if (env == NULL)
                                        return false;
                                json_array_append_new(evidence, env);
                                observed |= bit;
                        }
                }
                /*
                 * The adapter read the snapshot, made from the inventory: it lacks what
                 * the tree gaps name, and the adapter skipped files above its ceiling.
                 * Its findings still fail; nothing it did not see can pass (issue 16).
                 */
                partial = x->record != NULL && (!tree_complete(s) || x->unscanned > 0);
                if (partial)
                        nonevidence = true;
                st = prc_policy_decide(&pb->policy, observed, nonevidence, &why);
                if (partial && st == PRC_STATE_UNKNOWN)
                        why = "some paths of the tree were not scanned by this adapter (see coverage_gaps)";
                acc = combine(acc, st, b == 0);
                if (acc == st)
                        *out_reason = why;
        }
        *out_st = acc;
        return true;
}

static bool assess(struct scan *s, const prc_assertion *a, json_t *out_list, unsigned *counts, prc_err *err)
{
        json_t *row, *evidence = json_array();
        const char *reason = "";
        prc_state st;

        if (evidence == NULL)
                return prc_err_oom(err, "assertion evidence");
        if (a->analysis == NULL) {
                /* Adapter-bound: only verify-local launches containers. */
                if (!assess_bindings(s, a, evidence, &st, &reason, err)) {
                        json_decref(evidence);
                        return false;
                }
        } else {
                prc_obs_list l = { 0 };
                prc_err ae;
                unsigned observed = 0;
                bool nonevidence = false;
                prc_target_view tv = { s->files, s->nfiles, view_read, s,
                                       s->ncontent > 0 ? s->gaps + s->content0 : NULL, s->ncontent, s->nmanifests,
                                       s->mdocs, &s->mdocs_read };

                const prc_analysis *an = prc_analysis_find(a->analysis);
                prc_ainput ain = { s->files, s->nfiles, s->docs, s->ndocs, tv.gaps, tv.ngaps, s->mdocs, s->memo };
                bool gap = false;

                prc_err_init(&ae);
                s->mdocs_read = false;
                if (an != NULL ? !prc_analysis_run(an, &ain, &l, &gap, &ae) : !prc_builtin_run(a->analysis, &tv, &l, &ae)) {
                        nonevidence = true;
                        json_array_append_new(s->errors, json_pack("{s:s,s:s,s:s}", "assertion", a->id, "class",
                                                                   prc_err_name(ae.cls), "message", ae.msg));
                }
                /* An analysis of the tree's files cannot clear a tree some paths of which it never saw. */
                if ((scans_whole_tree(a->analysis) || an != NULL) && !tree_complete(s))
                        nonevidence = true;
                if (gap)
                        nonevidence = true;
                for (size_t i = 0; i < l.n; i++) {
                        json_t *env = envelope(s, a->analysis, &l.items[i], err);
                        if (env == NULL) {
                                prc_obs_list_clear(&l);
                                json_decref(evidence);
                                return false;
                        }
                        json_array_append_new(evidence, env);
                        observed |= l.items[i].outcome;
                }
                st = prc_policy_decide(&a->analysis_policy, observed, nonevidence, &reason);
                row = json_pack("{s:s}", "id", a->id);
                if (row != NULL && st != PRC_STATE_FAIL && nonevidence && !prc_inventory_complete(s->inv) &&
                    scans_whole_tree(a->analysis))
                        json_object_set_new(row, "reason", json_string(s->archive != NULL ?
                                                                       "some archive members were rejected, so "
                                                                       "they were not analyzed (see coverage_gaps)" :
                                                                       "some names in the tree could not be "
                                                                       "represented, so they were not analyzed"));
                else if (row != NULL && st != PRC_STATE_FAIL && nonevidence && !tree_complete(s) &&
                         scans_whole_tree(a->analysis))
                        json_object_set_new(row, "reason", json_string("some paths of the tree were left out, so "
                                                                       "they were not analyzed (see coverage_gaps)"));
                else if (row != NULL && st != PRC_STATE_FAIL && gap)
                        json_object_set_new(row, "reason", json_string("a file this analysis reads could not be "
                                                                       "extracted in full (see coverage_gaps)"));
                else if (row != NULL && !nonevidence && l.n == 1 && l.items[0].message[0] != '\0')
                        /* One observation: its own words say more than the policy's. */
                        json_object_set_new(row, "reason", json_string(l.items[0].message));
                prc_obs_list_clear(&l);
                goto have_row;
        }
        row = json_pack("{s:s}", "id", a->id);
have_row:
        if (row == NULL) {
                json_decref(evidence);
                return prc_err_oom(err, "an assertion result");
        }
        if (json_object_get(row, "reason") == NULL)
                json_object_set_new(row, "reason", json_string(reason));
        json_object_set_new(row, "title", json_string(a->title));
        json_object_set_new(row, "control", json_string(a->control));
        json_object_set_new(row, "severity", json_string(a->severity));
        json_object_set_new(row, "state", json_string(prc_state_name(st)));
        json_object_set_new(row, "evidence", evidence);
        /* Issue 22: every report is made from the result alone, so it carries the assertion's help. */
        json_object_set_new(row, "remediation", json_string(a->remediation));
        json_object_set_new(row, "rationale", json_string(a->rationale));
        {
                char rule[2048];
                prc_assertion_rule(a, rule, sizeof(rule));
                json_object_set_new(row, "decision_rule", json_string(rule));
        }
        if (!prc_findings_set(row, err)) {
                json_decref(row);
                return false;
        }
        counts[st]++;
        return json_array_append_new(out_list, row) == 0 ? true : prc_err_oom(err, "assertion results");
}

/*
 * The protocol run_id: a digest of what the run is about, so reruns over
 * the same inputs send the same hello line (no clock, no host path).
 */
static bool run_id_for(const struct scan *s, const prc_scan_adapter *a, char out[PRC_SHA256_HEX + 1], prc_err *err)
{
        json_t *v = json_pack("{s:s,s:s,s:s,s:s,s:s}", "inventory_digest", prc_inventory_digest(s->inv), "catalog",
                              prc_catalog_sha256(s->cat), "profile", s->o->profile ? s->o->profile : PRC_PROFILE_DEFAULT,
                              "adapter_id", a->res.adapter_id, "manifest_sha256", a->res.manifest_sha256);
        bool ok = v != NULL && prc_jcs_digest(v, out, err);

        json_decref(v);
        return ok || prc_err_oom(err, "a run id");
}

/*
 * Files above a native adapter's per-file ceiling are in the snapshot, but
 * the tool skips them (gitleaks' --max-target-megabytes): each is named as
 * a gap, and the adapter's assertions cannot pass (issue 16).
 */
static bool ceiling_gaps(struct scan *s, struct exec *x, prc_err *err)
{
        const prc_native_spec *spec = prc_native_spec_for(prc_manifest_protocol(x->a->manifest));
        char why[256];

        if (spec == NULL || spec->max_file_bytes == 0)
                return true;
        snprintf(why, sizeof(why), "above the per-file ceiling of %s (%" PRIu64 " bytes): the adapter did not scan it",
                 x->a->res.adapter_id, spec->max_file_bytes);
        for (size_t i = 0; i < s->nfiles; i++) {
                if (s->files[i].symlink || s->files[i].size <= spec->max_file_bytes)
                        continue;
                x->unscanned++;
                if (!add_tree_gap(s, s->files[i].path, PRC_E_ADAPTER_FILE_NOT_SCANNED, why, err))
                        return false;
        }
        return true;
}

/*
 * Step 4: run each authorized adapter in (adapter id, manifest digest)
 * order under one shared deadline.
 */
static bool run_adapters(struct scan *s, prc_err *err)
{
        prc_adapter_set *set = s->o->adapters;     /* authorized and sorted before the inventory */
        struct timespec deadline, *dl = NULL;

        if (s->o->run_adapter == NULL)
                return prc_err_set(err, PRC_E_INTERNAL, "verify-local without an adapter runner");
        if (s->o->max_duration_s > 0) {
                clock_gettime(CLOCK_MONOTONIC, &deadline);
                deadline.tv_sec += (time_t)s->o->max_duration_s;
                dl = &deadline;
        }
        for (size_t i = 0; i < set->n; i++) {
                struct exec *x = &s->execs[s->nexecs++];
                char run_id[PRC_SHA256_HEX + 1];
                prc_err re;

                x->a = &set->items[i];
                x->record = NULL;
                x->unscanned = 0;
                if (!ceiling_gaps(s, x, err) || !run_id_for(s, x->a, run_id, err))
                        return false;
                prc_err_init(&re);
                if (!s->o->run_adapter(s->o->run_ctx, x->a, s->inv, run_id, dl, &x->record, &re)) {
                        x->record = NULL;
                        json_array_append_new(s->errors, json_pack("{s:s,s:s,s:s}", "adapter", x->a->res.adapter_id,
                                                                   "class", prc_err_name(re.cls), "message", re.msg));
                }
        }
        return true;
}

static json_t *executions_json(const struct scan *s)
{
        json_t *a = json_array();

        for (size_t i = 0; a != NULL && i < s->nexecs; i++)
                if (s->execs[i].record != NULL)
                        json_array_append(a, s->execs[i].record);
        return a;
}

static json_t *target_json(const struct scan *s)
{
        const prc_inv_skipped *sk = prc_inventory_skipped(s->inv);
        size_t files = 0, links = 0, oversized = 0;
        json_t *excl = json_array(), *t;

        for (size_t i = 0; i < s->nfiles; i++) {
                if (s->files[i].symlink)
                        links++;
                else
                        files++;
                oversized += s->files[i].oversized;
        }
        /* Every name the inventory left out, the root's .git directory included (issue 16). */
        for (size_t i = 0; excl != NULL && i < prc_inventory_excluded_count(s->inv); i++)
                json_array_append_new(excl, json_string(prc_inventory_excluded(s->inv, i)));
        t = json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I},s:o}", "inventory_digest",
                         prc_inventory_digest(s->inv), "files", (json_int_t)files, "symlinks", (json_int_t)links,
                         "bytes", (json_int_t)prc_inventory_total_bytes(s->inv), "oversized", (json_int_t)oversized,
                         "unrepresentable", (json_int_t)prc_inventory_unrep_count(s->inv), "skipped", "socket",
                         (json_int_t)sk->socket, "fifo", (json_int_t)sk->fifo, "char_device",
                         (json_int_t)sk->char_device, "block_device", (json_int_t)sk->block_device, "excluded_paths",
                         excl);
        /* Issue 20: the archive (its digest, format, rejected members) and where it came from. */
        if (t != NULL && s->archive != NULL && json_object_set(t, "archive", s->archive) != 0) {
                json_decref(t);
                return NULL;
        }
        if (t != NULL && s->o->aur != NULL && json_object_set(t, "aur", (json_t *)s->o->aur) != 0) {
                json_decref(t);
                return NULL;
        }
        return t;
}

/* NULL when a gap could not be written: the run then fails, it never loses a gap (issue 16). */
static json_t *gaps_json(const struct scan *s)
{
        json_t *a = json_array();

        for (size_t i = 0; a != NULL && i < s->ngaps; i++)
                if (json_array_append_new(a, json_pack("{s:s,s:s,s:s}", "path", s->gaps[i].path, "class",
                                                       s->gaps[i].cls, "reason", s->gaps[i].reason)) != 0) {
                        json_decref(a);
                        a = NULL;
                }
        for (size_t i = 0; a != NULL && i < prc_inventory_unrep_count(s->inv); i++) {
                const prc_inv_unrep *u = prc_inventory_unrep(s->inv, i);
                /* An archive target's rejected members (issue 20) travel the same way as bad names. */
                const char *why = s->archive != NULL ? "the archive walk rejected this member; it was not analyzed "
                                                       "and its contents were never read"
                                                     : "the name is not a valid normalized path; it was not analyzed";
                if (json_array_append_new(a, json_pack("{s:s,s:s,s:s}", "path", u->raw, "class", u->reason, "reason",
                                                       why)) != 0) {
                        json_decref(a);
                        a = NULL;
                }
        }
        return a;
}

bool prc_scan_run(const prc_scan_opts *o, json_t **out_result, int *out_exit, prc_err *err)
{
        struct scan s = { .o = o };
        const prc_assertion *const *as = NULL;
        size_t nas = 0;
        unsigned counts[5] = { 0 };
        json_t *res = NULL, *rows = NULL;
        char id[PRC_SHA256_HEX + 1];
        bool ok = false;

        s.errors = json_array();
        rows = json_array();
        if (s.errors == NULL || rows == NULL) {
                prc_err_oom(err, "the run result");
                goto out;
        }
        progress(&s, "loading the catalog");
        if (o->extraction_out != NULL)
                s.cat = NULL;
        else if (o->catalog != NULL)
                s.cat = (prc_catalog *)o->catalog;      /* borrowed: not freed below */
        else
                s.cat = prc_catalog_load(o->catalog_root, err);
        if (o->extraction_out == NULL && s.cat == NULL)
                goto out;
        if (o->extraction_out == NULL &&
            !prc_catalog_profile(s.cat, o->profile ? o->profile : PRC_PROFILE_DEFAULT, &as, &nas, err))
                goto out;
        /* The complete adapter set is authorized before anything else runs. */
        if (o->adapters != NULL && o->adapters->n > 0) {
                if (o->mode != PRC_MODE_VERIFY_LOCAL) {
                        prc_err_set(err, PRC_E_USAGE, "adapters run only with --mode verify-local");
                        goto out;
                }
                if (!prc_adapters_authorize(o->adapters, as, nas, err))
                        goto out;
                if (o->preflight != NULL && !o->preflight(o->run_ctx, err))
                        goto out;
        }
        progress(&s, "inventorying the target");
        /* Small manifests stay in memory as hashed: each is read whole once more, by its trip. */
        if (o->open_target != NULL ? !o->open_target(o->target_ctx, &s.inv, &s.archive, err)
                                   : !prc_inventory_build(o->target, &(prc_inventory_opts){ .keep = is_manifest },
                                                          &s.inv, err))
                goto out;
        prc_tune_heap_grown();
        if (!build_files(&s, err))
                goto out;
        if (!excluded_gaps(&s, err))
                goto out;
        progress(&s, "content analysis in the sandboxed worker");
        s.content0 = s.ngaps;
        if (!content_analysis(&s, err))
                goto out;
        s.ncontent = s.ngaps - s.content0;
        if (o->extraction_out != NULL) {
                /* Extraction only (prc sbom): the documents and every gap that may hide a manifest. */
                *o->extraction_out = json_pack("{s:O,s:o}", "manifests", s.mdocs, "coverage_gaps", gaps_json(&s));
                if (*o->extraction_out == NULL) {
                        prc_err_oom(err, "the extraction record");
                        goto out;
                }
                *out_result = NULL;
                *out_exit = 0;
                ok = true;
                goto out;
        }
        if (o->content_floor == NULL) {
                prc_err_set(err, PRC_E_INTERNAL, "a scan without a content floor hook");
                goto out;
        }
        s.floor = o->content_floor(o->parse_ctx);
        if (s.floor == NULL) {
                prc_err_oom(err, "the content floor record");
                goto out;
        }
        if (o->mode == PRC_MODE_VERIFY_LOCAL && o->adapters != NULL && o->adapters->n > 0) {
                progress(&s, "running adapters in the OCI runner");
                if (!run_adapters(&s, err))
                        goto out;
        }
        progress(&s, "assessing");
        s.memo = prc_amemo_new();       /* NULL only costs time: every analysis then checks for itself */
        s.envs = prc_jcs_memo_new();    /* likewise: NULL, and the envelopes are spelled again */
        for (size_t i = 0; i < nas; i++)
                if (!assess(&s, as[i], rows, counts, err))
                        goto out;
        res = json_pack("{s:s,s:s,s:i,s:s,s:s,s:o,s:{s:s,s:I,s:s},s:O,s:o,s:o,s:O,s:{s:i,s:i,s:i,s:i,s:i,s:i}}",
                        "schema", PRC_RUN_SCHEMA, "prc_version", PRC_ENGINE_VERSION, "engine_api", 1, "mode",
                        o->mode == PRC_MODE_INSPECT ? "inspect" : "verify-local", "profile",
                        o->profile ? o->profile : PRC_PROFILE_DEFAULT, "target", target_json(&s), "catalog", "id",
                        prc_catalog_id(s.cat), "revision", (json_int_t)prc_catalog_revision(s.cat), "sha256",
                        prc_catalog_sha256(s.cat), "assertions", rows, "coverage_gaps", gaps_json(&s), "executions",
                        executions_json(&s), "errors", s.errors, "summary", "total", (int)nas, "pass", (int)counts[PRC_STATE_PASS], "fail",
                        (int)counts[PRC_STATE_FAIL], "unknown", (int)counts[PRC_STATE_UNKNOWN], "conflicting",
                        (int)counts[PRC_STATE_CONFLICTING], "blocked", (int)counts[PRC_STATE_BLOCKED]);
        if (res == NULL) {
                prc_err_oom(err, "the run result");
                goto out;
        }
        if (o->now != NULL)
                json_object_set_new(res, "now", json_string(o->now));
        {
                json_t *ex = extractions_json(&s, err);
                if (ex == NULL || json_object_set_new(res, "extractions", ex) != 0) {
                        if (!prc_err_is_set(err))
                                prc_err_oom(err, "the run result");
                        goto out;
                }
        }
        if (json_object_set(res, "content_floor", s.floor) != 0) {
                prc_err_oom(err, "the run result");
                goto out;
        }
        {
                /* Without canonical_out the bytes are made only for the ID (prc_jcs_id's ceiling). */
                prc_buf tmp;
                bool idok;
                prc_buf_init(&tmp, (size_t)1 << 30);
                idok = prc_jcs_id_write_memo(res, "id", s.envs, o->canonical_out != NULL ? o->canonical_out : &tmp,
                                             id, err);
                prc_buf_clear(&tmp);
                if (!idok)
                        goto out;
        }
        json_object_set_new(res, "id", json_string(id));
        prc_test_keep("run", res);
        *out_result = res;
        res = NULL;
        *out_exit = counts[PRC_STATE_PASS] == nas ? 0 : 1;
        ok = true;
out:
        json_decref(res);
        json_decref(rows);
        json_decref(s.errors);
        json_decref(s.floor);
        json_decref(s.archive);
        json_decref(s.mdocs);
        free(s.extracted);
        free(s.files);
        free(s.gaps);
        for (size_t i = 0; i < s.ndocs; i++) {
                free((char *)s.docs[i].path);
                json_decref((json_t *)s.docs[i].doc);
        }
        free(s.docs);
        prc_amemo_free(s.memo);
        prc_jcs_memo_free(s.envs);
        for (size_t i = 0; i < s.nexecs; i++)
                json_decref(s.execs[i].record);
        prc_inventory_free(s.inv);
        if (s.cat != o->catalog)
                prc_catalog_free(s.cat);
        return ok;
}
