/*
 * mdoc_pack.h - a ManifestDoc's dependencies as one flat table (prc sbom).
 *
 * prc sbom reads 23,000 dependencies on the manifests corpus and needs a
 * handful of fields of each; as a jansson tree each costs three objects,
 * seventeen members and their frees in the parent.  With the client's
 * packed mode (prc_client_opts.packed_deps) the reply's "dependencies"
 * value is read straight off the reply into this table by a docbin hook
 * (docenc.h), checked on the way by the rules prc_mdoc_check applies to a
 * dependency (mdoc_check.c check_dep and check_edges), and stored in the
 * document as one string member: the table's bytes.  A value the hook does
 * not take exactly as it expects is declined and read as a tree by the
 * reader, checked by prc_mdoc_check, and packed from the tree
 * (prc_mdp_from_tree): one table either way, byte for byte the same
 * (tests/unit/test_mdoc_pack.c, fuzz/fuzz_mdoc_pack.c).
 *
 * With PRC_REQ_PACKED_DEPS (protocol version 7) the worker packs the table
 * itself (prc_mdp_pack_checked) and sends it as a blob (docenc.h); the hook
 * takes it only when prc_mdp_table_check finds every rule of check_dep and
 * check_edges and the packer's layout (no string or edge list shared).
 *
 * Trust: engine-side, on bytes from a worker that may be compromised.  A
 * table is only ever made here, from checked values, or taken from a blob
 * checked byte by byte; a string the worker sends is never taken for one
 * (the client knows whether the hook made the value).
 *
 * The table: a header, the strings (each followed by a NUL, written where
 * they stay as they are read), the records from recs_off (a multiple of 4)
 * and the edges (u32 indexes) from edges_off.  Offsets are from the start.
 */
#ifndef PRC_MDOC_PACK_H
#define PRC_MDOC_PACK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "content/docenc.h"

/* A dependency's strings, by slot; a null (or absent: no integrity) one has no text. */
enum {
        PRC_MDP_NAME, PRC_MDP_REQUIREMENT, PRC_MDP_RESOLVED, PRC_MDP_PURL, PRC_MDP_GROUP, PRC_MDP_SRC_URL,
        PRC_MDP_SRC_REF, PRC_MDP_SRC_COMMIT, PRC_MDP_INTEG_ALG, PRC_MDP_INTEG_VALUE, PRC_MDP_NSTR
};

#define PRC_MDP_NULL UINT32_MAX        /* a string's offset, a line, an edge count: null */

typedef struct prc_mdp_dep {
        uint32_t str[PRC_MDP_NSTR];     /* offset of the text, or PRC_MDP_NULL */
        uint32_t len[PRC_MDP_NSTR];
        uint32_t line;                  /* 0: null (a line is from 1) */
        uint32_t edges_off;             /* index of the first edge in the edge list */
        uint32_t edges_n;               /* PRC_MDP_NULL: depends_on is null */
        uint8_t  scope;                 /* index in prc_md_scopes (mdoc_check.h) */
        uint8_t  source;                /* index in prc_md_source_types */
        uint8_t  direct;
        uint8_t  integrity;             /* 1: an integrity object (both its strings set) */
} prc_mdp_dep;

typedef struct prc_mdp_head {
        uint32_t magic;
        uint32_t ndeps;
        uint32_t nedges;
        uint32_t size;                  /* the whole table's bytes */
        uint32_t recs_off, edges_off;
} prc_mdp_head;

#define PRC_MDP_MAGIC 0x3270646du       /* "mdp2" */


/* What the client's hook keeps: the value it made for the document being read (NULL: declined or none yet). */
typedef struct prc_mdp_hook_ctx {
        json_t *made;   /* borrowed: owned by the document */
} prc_mdp_hook_ctx;

/* The docbin hook's read (prc_docbin_hook.read with a prc_mdp_hook_ctx). */
bool prc_mdp_hook_read(void *ctx, prc_docbin_cur *cur, json_t **out, prc_err *err);

/*
 * prc_mdoc_check of a document read with the hook, made the value the hook
 * made for it (NULL: none): the packed check when its dependencies are that
 * table (never a string the worker sent), else prc_mdoc_check, and then the
 * checked tree packed in its place (*from_tree set).  slim: the document's
 * details are slim (prc_mdoc_check_slim).  Errors: prc_mdoc_check's.
 */
bool prc_mdp_check(json_t *md, const json_t *made, const char *path, const char *format, bool slim,
                   bool *from_tree, prc_err *err) PRC_MUST_CHECK;

/*
 * The table of a dependencies array that prc_mdoc_check accepted; NULL: out
 * of memory.  It is prc_mdp_pack_checked's, which packs every array that
 * check accepts.
 */
json_t *prc_mdp_from_tree(const json_t *deps);

/*
 * The worker's side (protocol version 7, PRC_REQ_PACKED_DEPS): the table of
 * a dependencies array, made only when every dependency is exactly what
 * check_dep and check_edges take (as the hook reads one); NULL otherwise
 * (err clear: the worker sends the tree, and the client's checks name what
 * is wrong) or out of memory (err set).
 */
json_t *prc_mdp_pack_checked(const json_t *deps, prc_err *err);

/*
 * prc_mdp_pack_checked into a packer whose buffers a caller keeps from one
 * table to the next (the worker: their pages stay touched): 1 made (the
 * table is pool.data[0..pool.len), until the next call), 0 declined, -1
 * failed (err set).
 */
typedef struct prc_mdp_packer {
        prc_buf recs, edges, pool;      /* pool: the header's room, then the strings where they stay */
        size_t  ndeps, total_edges;
} prc_mdp_packer;

void prc_mdp_packer_init(prc_mdp_packer *k);
void prc_mdp_packer_clear(prc_mdp_packer *k);
int prc_mdp_pack(prc_mdp_packer *k, const json_t *deps, prc_err *err) PRC_MUST_CHECK;

/*
 * A table a worker sent as a blob, p[0..n): NULL when it is one
 * prc_mdp_pack_checked could have made from dependencies prc_mdoc_check
 * takes (the rules of check_dep and check_edges, and the canonical layout:
 * the header's parts adding up to n, each dependency's strings one after the
 * other after the dependency before, each with its NUL, zero padding to the
 * records, each edge list after the one before), else why not, with *at the
 * offset in p of the record or byte at fault.
 */
const char *prc_mdp_table_check(const uint8_t *p, size_t n, size_t *at);

/*
 * Native rows (extract.h prc_md_rows_arm): each dependency's record with
 * its strings as offsets into pool (each followed by its NUL) and its
 * scope, source, flags and line; edges_off and edges_n unused.  edge_first
 * NULL: the file states no edges (every depends_on null); else row i's
 * targets are edges[edge_first[i] .. edge_first[i + 1]), ascending, once
 * each.
 */
typedef struct prc_mdp_rows {
        const prc_mdp_dep *deps;
        size_t             ndeps;
        const char        *pool;
        const uint32_t    *edge_first;
        const uint32_t    *edges;
} prc_mdp_rows;

/*
 * The table prc_mdp_pack makes from the trees of the same dependencies,
 * byte for byte, with the same rules (1 made, 0 declined: a rule
 * prc_mdp_pack_checked would refuse, -1 failed, err set).
 */
int prc_mdp_pack_rows(prc_mdp_packer *k, const prc_mdp_rows *r, prc_err *err) PRC_MUST_CHECK;

/* md's native rows (extract.h) packed by prc_mdp_pack_rows: 0 also when md has none. */
int prc_md_rows_pack(const json_t *md, prc_mdp_packer *k, prc_err *err) PRC_MUST_CHECK;

/*
 * The bytes the thread's native row store keeps for the next document (its
 * buffers are kept, as a worker keeps its packer's); prc_md_rows_release
 * lets them go (the worker, past PACKER_KEEP; tests).
 */
size_t prc_md_rows_kept(void);
void prc_md_rows_release(void);

/* A table's view; false when v is not a table this file made (not a string, wrong size or magic). */
typedef struct prc_mdp {
        const uint8_t     *base;
        const prc_mdp_dep *deps;
        const uint32_t    *edges;
        size_t             ndeps;
} prc_mdp;

bool prc_mdp_view(const json_t *v, prc_mdp *out);

/* Dependency i's string in slot k (NUL-terminated), or NULL when null. */
static inline const char *prc_mdp_str(const prc_mdp *m, size_t i, unsigned k)
{
        uint32_t off = m->deps[i].str[k];

        return off == PRC_MDP_NULL ? NULL : (const char *)m->base + off;
}

/* The dependencies array again (tests and the fuzzer compare it with the tree); NULL: out of memory. */
json_t *prc_mdp_to_tree(const prc_mdp *m);

#endif
