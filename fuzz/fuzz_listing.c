/*
 * fuzz_listing.c - libFuzzer harness for the engine side of archive targets
 * (issue 20): a walk reply (any JSON) validated into a listing, made an
 * inventory, and its record written; then the same bytes as token documents
 * through the version diff (engine/pkgdiff.c).
 * Invariants: exactly one outcome for each step; an inventory made from a
 * listing has a 64-hex digest; a diff of a version with itself is clean.
 */
#include <jansson.h>
#include <string.h>

#include "content/archive_target.h"
#include "engine/pkgdiff.h"
#include "fuzz.h"
#include "inventory/inventory.h"

PRC_FUZZ_TARGET(listing)
{
        json_error_t je;
        json_t *doc = json_loadb((const char *)p, n, JSON_REJECT_DUPLICATES, &je), *f, *r, *empty;
        prc_archive_target *t = NULL;
        prc_inventory *inv = NULL;
        prc_err err;

        if (doc == NULL)
                return 0;
        prc_err_init(&err);
        if (prc_archive_target_from_listing(doc, &t, &err) != (err.cls == PRC_E_OK))
                __builtin_trap();
        if (t != NULL) {
                json_t *j = prc_archive_target_json(t);
                if (j == NULL)
                        __builtin_trap();
                json_decref(j);
                prc_err_init(&err);
                if (prc_archive_target_inventory(t, &inv, &err) != (err.cls == PRC_E_OK))
                        __builtin_trap();
                if (inv != NULL && strlen(prc_inventory_digest(inv)) != 64)
                        __builtin_trap();
                prc_inventory_free(inv);
                prc_archive_target_free(t);
        }
        empty = json_array();
        prc_err_init(&err);
        f = prc_pkgdiff_facts(json_object_get(doc, "pkgbuild"), json_object_get(doc, "srcinfo"),
                              json_object_get(doc, "installs"), empty, &err);
        if ((f == NULL) != (err.cls != PRC_E_OK))
                __builtin_trap();
        if (f != NULL) {
                r = prc_pkgdiff_compare(f, f, &err);
                if (r == NULL || json_integer_value(json_object_get(r, "risky")) != 0)
                        __builtin_trap();
                json_decref(r);
                json_decref(f);
        }
        json_decref(empty);
        json_decref(doc);
        return 0;
}
