/*
 * observe.h - observations, coverage gaps and the target view that built-in
 * analyses read.
 *
 * An observation uses the same vocabulary as adapter observations (found,
 * not_found, value, unsupported).  A coverage gap is a file the run could
 * not analyze (a content-worker refusal, an oversized file): it is listed
 * on the run and makes dependent assertions Unknown, never Pass.
 */
#ifndef PRC_ENGINE_OBSERVE_H
#define PRC_ENGINE_OBSERVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

typedef struct prc_tfile {
        const char *path;       /* borrowed: normalized relative path */
        uint64_t    size;
        const char *sha256;     /* borrowed: 64 hex; NULL for a symlink */
        bool        executable, oversized, symlink;
} prc_tfile;

typedef struct prc_gap {
        char     path[4097];
        char     cls[64];       /* error class name of the refusal */
        char     reason[256];
        unsigned kind;          /* the analysis document kind the file was read as (analysis.h PRC_AK_*), 0: by name */
} prc_gap;

/* What the built-in analyses may see of the target: the inventory and the content results. */
typedef struct prc_target_view {
        const prc_tfile *files;         /* borrowed, sorted by path */
        size_t           nfiles;
        /* Read at most max bytes of files[i], verified against its digest when whole. */
        bool           (*read)(void *ctx, size_t i, size_t max, prc_buf *out, prc_err *err);
        void            *ctx;
        const prc_gap   *gaps;          /* borrowed: content-analysis coverage gaps */
        size_t           ngaps;
        size_t           nmanifests;    /* files recognized and sent to the content worker */
        /*
         * The ManifestDocs of this run (docs/extraction.md), one per extracted
         * file, sorted by path, each checked against the schema by the client.
         * Read them through prc_tv_mdocs: it marks the analysis as one that
         * rests on the worker's output, so its evidence carries content_floor.
         */
        const json_t    *mdocs;         /* borrowed array, or NULL */
        bool            *mdocs_read;    /* set by prc_tv_mdocs; may be NULL */
} prc_target_view;

/* The run's ManifestDocs (borrowed array; NULL when none, which jansson's accessors read as empty); marks the view as read. */
const json_t *prc_tv_mdocs(const prc_target_view *tv);
/* The ManifestDoc of path, or NULL (borrowed); marks the view as read. */
const json_t *prc_tv_mdoc_for(const prc_target_view *tv, const char *path);

typedef struct prc_obs {
        char      id[160];      /* unique within the run */
        char      source[96];   /* "builtin:<analysis>" or "adapter:<adapter id>" */
        char      kind[96];
        unsigned  outcome;      /* one PRC_OUT_* bit */
        json_t   *value;        /* owned; only for value outcomes */
        json_t   *locations;    /* owned array of {"path"} (may be empty) */
        char      message[256];
        char      execution_id[65];     /* for adapter observations; "" otherwise */
} prc_obs;

typedef struct prc_obs_list {
        prc_obs *items;         /* owned */
        size_t   n, cap;
} prc_obs_list;

void prc_obs_list_clear(prc_obs_list *l);
/* Append an observation; value and locations are taken over (transfers) even on failure. */
bool prc_obs_add(prc_obs_list *l, const char *source, const char *kind, const char *id, unsigned outcome,
                 json_t *value, json_t *locations, const char *message, prc_err *err) PRC_MUST_CHECK;

#endif
