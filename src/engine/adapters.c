/*
 * adapters.c - resolve, authorize and order a scan's adapter set (see adapters.h).
 * Trust: manifests and lockfiles are operator input, validated by their
 * loaders; authorization comes only from the catalog.
 */
#include "engine/adapters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adapter/oci.h"
#include "adapter/registry.h"
#include "adapter/trust.h"

void prc_adapter_set_clear(prc_adapter_set *s)
{
        for (size_t i = 0; i < s->n; i++)
                prc_manifest_free(s->items[i].manifest);
        s->n = 0;
}

static bool check_new(const prc_adapter_set *s, const prc_resolution *r, prc_err *err)
{
        for (size_t i = 0; i < s->n; i++) {
                if (strcmp(s->items[i].res.adapter_id, r->adapter_id) == 0)
                        return prc_err_set(err, PRC_E_ADAPTER_REPEATED, "adapter '%s' was given twice",
                                           r->adapter_id);
                if (strcmp(s->items[i].res.manifest_sha256, r->manifest_sha256) == 0)
                        return prc_err_set(err, PRC_E_ADAPTER_REPEATED, "manifest %s was given twice",
                                           r->manifest_sha256);
        }
        if (s->n == PRC_SCAN_ADAPTERS_MAX)
                return prc_err_set(err, PRC_E_ADAPTER_SET_LIMIT, "more than %d adapters", PRC_SCAN_ADAPTERS_MAX);
        return true;
}

bool prc_adapters_from_manifests(const char *const *paths, size_t n, prc_adapter_set *out, prc_err *err)
{
        struct stat seen[PRC_SCAN_ADAPTERS_MAX];

        if (n > PRC_SCAN_ADAPTERS_MAX)
                return prc_err_set(err, PRC_E_ADAPTER_SET_LIMIT, "more than %d adapters", PRC_SCAN_ADAPTERS_MAX);
        for (size_t i = 0; i < n; i++) {
                prc_resolution r;
                prc_manifest *m;

                /* The same file under two spellings is one path given twice. */
                if (stat(paths[i], &seen[i]) == 0)
                        for (size_t j = 0; j < i; j++)
                                if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino) {
                                        prc_adapter_set_clear(out);
                                        return prc_err_set(err, PRC_E_ADAPTER_REPEATED,
                                                           "--adapter-manifest '%s' was given twice", paths[i]);
                                }
                m = prc_manifest_load(paths[i], PRC_MANIFEST_EXECUTE, err);
                if (m == NULL || !prc_resolution_from_manifest(m, &r, err) || !check_new(out, &r, err)) {
                        prc_manifest_free(m);
                        prc_err_set_file(err, paths[i]);
                        prc_adapter_set_clear(out);
                        return false;
                }
                out->items[out->n].manifest = m;
                out->items[out->n].res = r;
                out->items[out->n].path = paths[i];
                out->n++;
        }
        return true;
}

/*
 * The lockfile's detached signature over the very object that is resolved
 * next (its content digest as loaded), so nothing can change in between.
 */
static bool check_signature(const prc_registry *reg, const char *registry, const prc_registry_sig_opts *o,
                            prc_err *err)
{
        char def[4200];
        const char *sig = o->signature;
        struct stat st;
        prc_trust_store *ts;
        prc_sig_info info;
        bool ok;

        if (o->trust_store == NULL)
                return true;
        if (sig == NULL) {
                if ((size_t)snprintf(def, sizeof(def), "%s.sig", registry) >= sizeof(def))
                        return prc_err_set(err, PRC_E_USAGE, "the registry path is too long to name its signature");
                sig = def;
        }
        /* The selected store is checked even when there is nothing to verify: a broken one is an error. */
        ts = prc_trust_load(o->trust_store, err);
        if (ts == NULL)
                return false;
        if (lstat(sig, &st) != 0 && errno == ENOENT) {
                prc_trust_free(ts);
                if (!o->require && o->signature == NULL)
                        return true;    /* unsigned, and the operator did not ask for a signature */
                prc_err_set(err, PRC_E_SIG_REQUIRED, "the registry lockfile has no detached signature");
                prc_err_set_file(err, sig);
                return false;
        }
        ok = prc_registry_verify_signature(reg, ts, sig, &info, err);
        prc_trust_free(ts);
        return ok;
}

bool prc_adapters_from_registry(const char *registry, const prc_registry_sig_opts *sig, const char *const *ids,
                                size_t n, prc_adapter_set *out, prc_err *err)
{
        prc_registry *reg;

        if (n > PRC_SCAN_ADAPTERS_MAX)
                return prc_err_set(err, PRC_E_ADAPTER_SET_LIMIT, "more than %d adapters", PRC_SCAN_ADAPTERS_MAX);
        for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < i; j++)
                        if (strcmp(ids[i], ids[j]) == 0)
                                return prc_err_set(err, PRC_E_ADAPTER_REPEATED, "--adapter-id '%s' was given twice",
                                                   ids[i]);
        reg = prc_registry_load(registry, err);
        if (reg == NULL)
                return false;
        if (sig != NULL && !check_signature(reg, registry, sig, err)) {
                prc_registry_free(reg);
                return false;
        }
        for (size_t i = 0; i < n; i++) {
                prc_resolution r;
                prc_manifest *m = NULL;

                if (!prc_registry_resolve_manifest(reg, ids[i], &r, &m, err) || !check_new(out, &r, err)) {
                        prc_manifest_free(m);
                        prc_adapter_set_clear(out);
                        prc_registry_free(reg);
                        return false;
                }
                out->items[out->n].manifest = m;
                out->items[out->n].res = r;
                out->items[out->n].path = NULL;
                out->n++;
        }
        prc_registry_free(reg);
        return true;
}

static int by_id_digest(const void *x, const void *y)
{
        const prc_scan_adapter *a = x, *b = y;
        int c = strcmp(a->res.adapter_id, b->res.adapter_id);

        return c != 0 ? c : strcmp(a->res.manifest_sha256, b->res.manifest_sha256);
}

bool prc_adapters_authorize(prc_adapter_set *s, const prc_assertion *const *as, size_t nas, prc_err *err)
{
        /* Execution order first: a refusal names the first adapter that would have run, whatever the argv order. */
        qsort(s->items, s->n, sizeof(s->items[0]), by_id_digest);
        for (size_t i = 0; i < s->n; i++) {
                const prc_scan_adapter *a = &s->items[i];
                bool bound = false;

                for (size_t k = 0; !bound && k < nas; k++)
                        for (size_t b = 0; !bound && b < as[k]->nbindings; b++) {
                                const prc_binding *pb = &as[k]->bindings[b];
                                bound = strcmp(pb->adapter_id, a->res.adapter_id) == 0 &&
                                        strcmp(pb->manifest_sha256, a->res.manifest_sha256) == 0 &&
                                        prc_manifest_declares_kind(a->manifest, pb->observation_kind);
                        }
                if (!bound)
                        return prc_err_set(err, PRC_E_ADAPTER_UNBOUND,
                                           "adapter '%s' (manifest %s) is not bound by any assertion of the profile "
                                           "with that exact id, digest and a declared observation kind",
                                           a->res.adapter_id, a->res.manifest_sha256);
                /*
                 * The runner's own gates too (trust, native reviewed digest and
                 * exact command), for every adapter before any runs: one
                 * unreviewed adapter refuses the set, it does not wait for its
                 * turn while the others reach the runtime (issue 16).
                 */
                prc_err ge;
                prc_err_init(&ge);
                if (!prc_oci_gate(a->manifest, &a->res, &ge)) {
                        prc_err_set(err, ge.cls, "adapter '%s': %s", a->res.adapter_id, ge.msg);
                        prc_err_set_ptr(err, ge.ptr);
                        if (a->path != NULL)
                                prc_err_set_file(err, a->path);
                        return false;
                }
        }
        return true;
}

const prc_scan_adapter *prc_adapters_for_binding(const prc_adapter_set *s, const prc_binding *b)
{
        for (size_t i = 0; i < s->n; i++)
                if (strcmp(s->items[i].res.adapter_id, b->adapter_id) == 0 &&
                    strcmp(s->items[i].res.manifest_sha256, b->manifest_sha256) == 0)
                        return &s->items[i];
        return NULL;
}
