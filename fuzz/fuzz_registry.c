/*
 * fuzz_registry.c - the registry lockfile parser, in both spellings (strict
 * JSON and YAML), plus the decisions that need no manifest file.
 * Invariants: exactly one outcome per parse; a parsed registry has a valid
 * content digest; a revoked entry is always denied as revoked; with no
 * directory nothing else can be admitted.
 */
#include "fuzz.h"

#include "adapter/registry.h"

static void one(const uint8_t *p, size_t n, prc_doc_format fmt)
{
        prc_err err;
        prc_registry *reg;

        prc_err_init(&err);
        reg = prc_registry_parse(p, n, fmt, &prc_limits_fuzz, &err);
        if ((reg == NULL) != (err.cls != PRC_E_OK))   /* exactly one outcome */
                __builtin_trap();
        if (reg == NULL)
                return;
        if (!prc_digest_valid(prc_registry_sha256(reg)) || prc_registry_revision(reg) < 1)
                __builtin_trap();
        for (size_t i = 0; i < prc_registry_nentries(reg); i++) {
                const prc_registry_entry *e = prc_registry_entry_at(reg, i);
                prc_err d;

                prc_err_init(&d);
                if (prc_registry_decide(reg, i, &d) || d.cls == PRC_E_OK)
                        __builtin_trap();       /* no directory: nothing can be admitted */
                if ((e->status == PRC_RS_REVOKED) != (d.cls == PRC_E_REGISTRY_REVOKED))
                        __builtin_trap();
                if (e->status == PRC_RS_REVOKED && !prc_registry_digest_revoked(reg, e->manifest_sha256))
                        __builtin_trap();
        }
        prc_registry_free(reg);
}

PRC_FUZZ_TARGET(registry)
{
        one(p, n, PRC_DOC_JSON);
        one(p, n, PRC_DOC_YAML);
        return 0;
}
