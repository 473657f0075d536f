/*
 * data.c - external data directories: binding checks and content identity.
 * Trust: operator input, hashed and bounded before it is trusted (data.h).
 * The walk is the inventory's (no symlink followed, special files counted),
 * with nothing excluded, so a data directory's identity covers every name.
 */
#include "adapter/data.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "inventory/inventory.h"

bool prc_data_parse_arg(char *arg, prc_data_binding *out, prc_err *err)
{
        char *eq = strchr(arg, '=');
        if (eq == NULL || eq == arg || eq[1] == '\0')
                return prc_err_set(err, PRC_E_USAGE, "--data wants NAME=DIR");
        *eq = '\0';
        out->name = arg;
        out->path = eq + 1;
        return true;
}

/* Hash one directory and check it against its declaration. */
static bool hash_dir(const prc_manifest_data *decl, const char *path, prc_data_input *out, prc_err *err)
{
        struct stat st;
        prc_inventory *inv = NULL;
        prc_inventory_opts opts = { .no_exclude = true };
        bool ok = false;

        if (lstat(path, &st) != 0) {
                if (errno == ENOENT)
                        return prc_err_set(err, PRC_E_DATA_MISSING, "data '%s': the directory does not exist",
                                           decl->name);
                return prc_err_sys(err, PRC_E_IO, errno, "data '%s': cannot stat the directory", decl->name);
        }
        if (S_ISLNK(st.st_mode))
                return prc_err_set(err, PRC_E_DATA_NOT_DIRECTORY, "data '%s': the path is a symlink", decl->name);
        if (!S_ISDIR(st.st_mode))
                return prc_err_set(err, PRC_E_DATA_NOT_DIRECTORY, "data '%s': the path is not a directory",
                                   decl->name);
        /* One entry past the cap tells "too many" apart from "exactly at the cap". */
        opts.max_entries = (size_t)decl->max_files + 1;
        prc_err ie;
        prc_err_init(&ie);
        if (!prc_inventory_build(path, &opts, &inv, &ie)) {
                if (ie.cls == PRC_E_INV_TOO_MANY)
                        return prc_err_set(err, PRC_E_DATA_TOO_MANY_FILES,
                                           "data '%s': more than %" PRIu64 " entries", decl->name, decl->max_files);
                /*
                 * The walk names the directory by its host path; the message can
                 * reach a run result, so name it by its role (issue 16).  Paths
                 * inside it are relative and stay.
                 */
                if (ie.cls == PRC_E_IO || ie.cls == PRC_E_INV_UNREADABLE)
                        prc_err_sys(err, ie.cls, ie.sys, "data '%s': cannot read the directory", decl->name);
                else
                        prc_err_set(err, ie.cls, "data '%s': %s", decl->name, ie.msg);
                prc_err_set_file(err, path);
                return false;
        }
        size_t n = prc_inventory_count(inv);
        uint64_t files = 0;
        for (size_t i = 0; i < n; i++) {
                const prc_inv_entry *e = prc_inventory_entry(inv, i);
                if (e->type == PRC_INV_SYMLINK) {
                        prc_err_set(err, PRC_E_DATA_SYMLINK, "data '%s': contains a symlink", decl->name);
                        goto out;
                }
                files++;
        }
        const prc_inv_skipped *sk = prc_inventory_skipped(inv);
        if (sk->socket + sk->fifo + sk->char_device + sk->block_device != 0 || !prc_inventory_complete(inv)) {
                prc_err_set(err, PRC_E_DATA_NOT_REGULAR,
                            "data '%s': contains a special file or a name that is not a normalized path", decl->name);
                goto out;
        }
        if (files == 0) {
                prc_err_set(err, PRC_E_DATA_EMPTY, "data '%s': holds no regular file", decl->name);
                goto out;
        }
        if (files > decl->max_files) {
                prc_err_set(err, PRC_E_DATA_TOO_MANY_FILES, "data '%s': %" PRIu64 " files, more than %" PRIu64,
                            decl->name, files, decl->max_files);
                goto out;
        }
        if (prc_inventory_total_bytes(inv) > decl->max_bytes) {
                prc_err_set(err, PRC_E_DATA_TOO_LARGE, "data '%s': %" PRIu64 " bytes, more than %" PRIu64,
                            decl->name, prc_inventory_total_bytes(inv), decl->max_bytes);
                goto out;
        }
        snprintf(out->name, sizeof(out->name), "%s", decl->name);
        snprintf(out->sha256, sizeof(out->sha256), "%s", prc_inventory_digest(inv));
        snprintf(out->destination, sizeof(out->destination), "%s%s", PRC_DATA_MOUNT_PREFIX, decl->name);
        out->files = files;
        out->bytes = prc_inventory_total_bytes(inv);
        ok = true;
out:
        prc_inventory_free(inv);
        return ok;
}

void prc_data_free(prc_data_input *d, size_t n)
{
        if (d == NULL)
                return;
        for (size_t i = 0; i < n; i++)
                free(d[i].host_path);
        free(d);
}

bool prc_data_prepare(const prc_manifest *m, const prc_data_binding *b, size_t n, prc_data_input **out,
                      size_t *out_n, prc_err *err)
{
        size_t ndecl = prc_manifest_data_count(m);
        prc_data_input *d = NULL;
        prc_manifest_data decl;

        if (n > PRC_DATA_BINDINGS_MAX)
                return prc_err_set(err, PRC_E_USAGE, "at most %d --data bindings", PRC_DATA_BINDINGS_MAX);
        /* Names first, so a wrong binding is named before any directory is read. */
        for (size_t i = 0; i < n; i++) {
                if (!prc_manifest_data_find(m, b[i].name, &decl))
                        return prc_err_set(err, PRC_E_DATA_UNDECLARED, "data '%.64s' is not declared by the manifest",
                                           b[i].name);
                for (size_t j = 0; j < i; j++)
                        if (strcmp(b[i].name, b[j].name) == 0)
                                return prc_err_set(err, PRC_E_DATA_DUPLICATE, "data '%.64s' is bound twice",
                                                   b[i].name);
        }
        for (size_t k = 0; k < ndecl; k++) {
                bool found = false;
                if (!prc_manifest_data_at(m, k, &decl))
                        return prc_err_set(err, PRC_E_INTERNAL, "data declaration %zu unreadable", k);
                for (size_t i = 0; i < n; i++)
                        found = found || strcmp(b[i].name, decl.name) == 0;
                if (!found)
                        return prc_err_set(err, PRC_E_DATA_MISSING, "data '%s' is declared but not bound (--data %s=DIR)",
                                           decl.name, decl.name);
        }
        if (ndecl == 0) {
                *out = NULL;
                *out_n = 0;
                return true;
        }
        d = prc_calloc(ndecl, sizeof(*d));
        if (d == NULL)
                return prc_err_oom(err, "data inputs");
        /* Declarations are sorted by name in the manifest loader's order; sort here to be sure. */
        size_t filled = 0;
        for (size_t i = 0; i < n; i++) {
                if (!prc_manifest_data_find(m, b[i].name, &decl) || !hash_dir(&decl, b[i].path, &d[filled], err))
                        goto fail;
                d[filled].host_path = strdup(b[i].path);
                if (d[filled].host_path == NULL) {
                        prc_err_oom(err, "data path");
                        goto fail;
                }
                filled++;
        }
        for (size_t i = 1; i < filled; i++)
                for (size_t j = i; j > 0 && strcmp(d[j - 1].name, d[j].name) > 0; j--) {
                        prc_data_input t = d[j];
                        d[j] = d[j - 1];
                        d[j - 1] = t;
                }
        *out = d;
        *out_n = filled;
        return true;
fail:
        prc_data_free(d, filled);
        return false;
}

bool prc_data_recheck(const prc_manifest *m, const prc_data_input *d, size_t n, prc_err *err)
{
        for (size_t i = 0; i < n; i++) {
                prc_manifest_data decl;
                prc_data_input now = {0};
                if (!prc_manifest_data_find(m, d[i].name, &decl))
                        return prc_err_set(err, PRC_E_DATA_CHANGED, "data '%s' is no longer declared", d[i].name);
                if (!hash_dir(&decl, d[i].host_path, &now, err)) {
                        /* Whatever broke, the sealed identity no longer holds. */
                        char why[sizeof(err->msg)];
                        snprintf(why, sizeof(why), "%s", err->msg);
                        prc_err_init(err);
                        return prc_err_set(err, PRC_E_DATA_CHANGED, "data '%s' changed: %.180s", d[i].name, why);
                }
                if (strcmp(now.sha256, d[i].sha256) != 0 || now.files != d[i].files || now.bytes != d[i].bytes)
                        return prc_err_set(err, PRC_E_DATA_CHANGED, "data '%s' content differs from the sealed identity",
                                           d[i].name);
        }
        return true;
}

json_t *prc_data_identity_json(const prc_data_input *d, size_t n)
{
        json_t *a = json_array();
        if (a == NULL)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                json_t *o = json_pack("{s:s,s:s,s:I,s:I,s:s}", "name", d[i].name, "sha256", d[i].sha256, "files",
                                      (json_int_t)d[i].files, "bytes", (json_int_t)d[i].bytes, "destination",
                                      d[i].destination);
                if (o == NULL || json_array_append_new(a, o) != 0) {
                        json_decref(a);
                        return NULL;
                }
        }
        return a;
}
