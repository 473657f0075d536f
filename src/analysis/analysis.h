/*
 * analysis.h - the analysis framework: one table of analyses (registry.c),
 * each a pure function over what the content worker returned.
 *
 * Trust: engine-side.  An analysis reads only the inventory listing, the
 * worker's documents after they were checked (tokens.h: prc_tokens_check),
 * and the content coverage gaps.  It never reads a file and never parses
 * target bytes; it emits observations in the adapters' vocabulary and
 * decides nothing: the catalog binding does (DESIGN.md, issue 19 "Shape").
 *
 * The framework turns what an analysis reports into observations, so that
 * every analysis speaks the same way:
 *   - prc_act_found() for each place the risk is present: one `found`
 *     observation lists them all (path, line, bounded text, detail);
 *   - prc_act_unresolved() for an input the analysis needed that is not
 *     static (a source array built by a command): one `unsupported`
 *     observation lists them, and the assertion cannot pass;
 *   - prc_act_value() for a reviewer-facing value (install hooks);
 *   - nothing of the above, with every needed input extracted: `not_found`;
 *   - a needed document the worker refused or only recovered (a coverage
 *     gap on its path): no `not_found`; the caller gets *out_gap and the
 *     assertion is Unknown (or Fail if something was found);
 *   - no input of the kinds the analysis reads at all: `unsupported`
 *     ("no PKGBUILD in the tree").
 * Observations carry source "builtin:<id>" and kind <id>; run results put
 * the id in the evidence's source.analysis.
 */
#ifndef PRC_ANALYSIS_H
#define PRC_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "engine/observe.h"

/* Kinds of worker document an analysis may read (bits of prc_analysis.needs). */
enum prc_adoc_kind {
        PRC_AK_PKGBUILD = 1u << 0,      /* a PKGBUILD's tokens (tokenize-pkgbuild) */
        PRC_AK_SRCINFO  = 1u << 1,      /* a .SRCINFO (tokenize-srcinfo) */
        PRC_AK_INSTALL  = 1u << 2,      /* an install script named by a PKGBUILD's install= (tokenize-pkgbuild) */
        /* ManifestDocs (issue 18), by the extractor's ecosystem: */
        PRC_AK_WORKFLOW = 1u << 3,      /* GitHub Actions workflows and composite actions (ecosystem github-actions) */
        PRC_AK_DOCKERFILE = 1u << 4,    /* Dockerfiles and Containerfiles (ecosystem docker) */
        PRC_AK_DEPS     = 1u << 5,      /* every other ManifestDoc: dependency manifests, lockfiles, registry configs */
};

/* The PRC_AK_* kind of a ManifestDoc of this ecosystem (NULL: 0). */
unsigned prc_analysis_mdoc_kind(const char *ecosystem);

/* One worker document with its place in the tree. */
typedef struct prc_adoc {
        const char   *path;     /* borrowed: inventory path */
        unsigned      kind;     /* one PRC_AK_* bit */
        const json_t *doc;      /* borrowed: checked with prc_tokens_check */
} prc_adoc;

/*
 * What the analyses of one scan share beyond their input (opaque): the
 * run: and RUN token documents already found in shape, so each is checked
 * once per scan, not once per analysis.  Owned by the scan; the documents
 * it names must outlive it.
 */
typedef struct prc_amemo prc_amemo;

prc_amemo *prc_amemo_new(void);         /* NULL: out of memory (analyses then check every time) */
void prc_amemo_free(prc_amemo *m);

/* What analyses read.  Everything is borrowed from the scan for the duration of one run. */
typedef struct prc_ainput {
        const prc_tfile *files;         /* inventory, sorted by path */
        size_t           nfiles;
        const prc_adoc  *docs;          /* sorted by path */
        size_t           ndocs;
        const prc_gap   *gaps;          /* content coverage gaps: refusals, recovered parses, unresolved inputs */
        size_t           ngaps;
        const json_t    *mdocs;         /* ManifestDocs checked by prc_mdoc_check, sorted by "path"; may be NULL */
        prc_amemo       *memo;          /* shared by the run's analyses; may be NULL */
} prc_ainput;

typedef struct prc_actx prc_actx;       /* opaque: one analysis run */

typedef struct prc_analysis {
        const char *id;         /* observation kind, catalog analysis id, docs/analyses.md heading */
        const char *family;     /* "aur", ... : the file it lives in (src/analysis/<family>.c) */
        const char *doc;        /* one line for `prc explain` and the docs */
        unsigned    needs;      /* PRC_AK_* it reads: a gap on such a document makes it Unknown */
        unsigned    requires;   /* PRC_AK_* of which at least one must exist, else `unsupported` */
        /* The analysis: reports through prc_act_*; false with err set only on out-of-memory. */
        bool      (*run)(prc_actx *cx, prc_err *err);
} prc_analysis;

extern const prc_analysis prc_analysis_table[];
extern const size_t prc_analysis_count;

/* The entry with this id, or NULL. */
const prc_analysis *prc_analysis_find(const char *id);

/*
 * Run a over in and append its observations to out.  *out_gap is true when
 * a document the analysis needs is a coverage gap (the caller must not let
 * the assertion pass).  Errors: out-of-memory (what the analysis appended
 * so far is discarded, never half-reported).
 */
bool prc_analysis_run(const prc_analysis *a, const prc_ainput *in, prc_obs_list *out, bool *out_gap,
                      prc_err *err) PRC_MUST_CHECK;

/* Which PRC_AK_* kind a coverage gap's path or class belongs to (0: none). */
unsigned prc_analysis_gap_kind(const prc_gap *g);

/* --- for analyses --- */

/* Borrowed: the input of this run. */
const prc_ainput *prc_act_input(const prc_actx *cx);

enum {
        PRC_ACT_TEXT_MAX = 200,         /* bytes of offending text kept per location (UTF-8 safe) */
        PRC_ACT_LOCATIONS_MAX = 1000,   /* locations kept per observation; the count stays in the message */
};

/*
 * The risk is present at path:line.  text is the offending text (cut to
 * PRC_ACT_TEXT_MAX bytes on a character boundary, control characters
 * replaced); detail says what was found in a few words.  The same
 * (path, line, text, detail) is kept once.
 */
bool prc_act_found(prc_actx *cx, const char *path, uint32_t line, const char *text, const char *detail,
                   prc_err *err) PRC_MUST_CHECK;
/* A needed input at path:line is not static (why: "source is built by a command"). */
bool prc_act_unresolved(prc_actx *cx, const char *path, uint32_t line, const char *why,
                        prc_err *err) PRC_MUST_CHECK;
/* A value for the reviewer (taken over, transfers, even on failure), at path. */
bool prc_act_value(prc_actx *cx, const char *path, json_t *value, prc_err *err) PRC_MUST_CHECK;

/*
 * The ManifestDocs of the run whose kind is in kinds, in path order:
 * for (size_t i = 0; (md = prc_act_mdoc(cx, kinds, &i)) != NULL; i++).
 * *pos is the index to start from; it is left at the document returned.
 */
const json_t *prc_act_mdoc(const prc_actx *cx, unsigned kinds, size_t *pos);

/*
 * Has an analysis of this scan already found tokens (a run: or RUN's) in
 * shape (prc_sh_check_tokens)?  Then they need no second check.
 */
bool prc_act_tokens_known(const prc_actx *cx, const json_t *tokens);
/* Remember that tokens are in shape (best effort: out of memory only means checking them again). */
void prc_act_tokens_good(const prc_actx *cx, const json_t *tokens);

/* Is there a coverage gap on path (a refusal, a recovered parse)? */
bool prc_act_path_gap(const prc_actx *cx, const char *path);

/* Bounded copy of text for a location: at most max bytes, whole UTF-8 characters, no controls. */
void prc_act_excerpt(const char *text, size_t max, char *out, size_t outsz);

#endif
