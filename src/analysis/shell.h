/*
 * shell.h - the shell family's analyses (shell-download-exec,
 * shell-unpinned-install) and the decisions about shell commands that they
 * share with the AUR family (aur_shell.c): which programs download, which
 * run code, which package-manager commands fetch from a registry and which
 * of those are unpinned, and the download-then-run tracking.
 *
 * They read every shell text prc tokenizes: workflow and composite-action
 * `run:` steps (PRC_AK_WORKFLOW), Dockerfile RUN (PRC_AK_DOCKERFILE),
 * PKGBUILD functions, top-level commands and assignment substitutions
 * (PRC_AK_PKGBUILD) and install scripts (PRC_AK_INSTALL).
 *
 * Trust: engine-side; works on checked token documents through the walk of
 * sh.h and never evaluates anything.
 */
#ifndef PRC_ANALYSIS_SHELL_H
#define PRC_ANALYSIS_SHELL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "analysis/sh.h"

/* The analyses (registered in registry.c). */
bool prc_shell_download_exec(prc_actx *cx, prc_err *err);
bool prc_shell_unpinned_install(prc_actx *cx, prc_err *err);

/* --- shared decisions (unit-tested) --- */

/* Programs that fetch a URL (curl, wget, ...); NULL-terminated. */
extern const char *const prc_shell_downloaders[];

bool prc_shell_in(const char *name, const char *const *set);
bool prc_shell_is_downloader(const char *name);
/* Programs that run code they are given (on stdin, with -c, or as a file): sh, bash, python3, node, eval, ... */
bool prc_shell_is_interp(const char *name);
bool prc_shell_has_arg(const prc_shc *c, const char *a);
bool prc_shell_has_arg_prefix(const prc_shc *c, const char *a);
/* Does a substitution inside word w run one of names? */
bool prc_shell_word_runs(const prc_shw *w, const char *const *names);
/* A content digest or signature check (sha256sum -c, gpg --verify, cosign, ...)? */
bool prc_shell_is_check(const prc_shc *c);

/*
 * A package-manager command that fetches from a registry at build time,
 * pinned or not (aur-remote-exec's rule, docs/analyses.md).  Returns a short
 * label or NULL.
 */
const char *prc_shell_pm_install(const prc_shc *c);

/* What prc_shell_unpinned knows about where the command runs (bits). */
enum {
        PRC_SHELL_CI         = 1u << 0,   /* a CI job (GitHub Actions sets CI=true) */
        PRC_SHELL_YARN_BERRY = 1u << 1,   /* the tree uses Yarn 2+ (.yarnrc.yml, packageManager yarn@2+) */
};

/*
 * An install that is not pinned (shell-unpinned-install's rule,
 * docs/analyses.md): why it is not, in a few words, or NULL.  env: PRC_SHELL_*
 * bits; in CI, pnpm and Yarn 2+ freeze their lockfile by themselves.
 */
const char *prc_shell_unpinned(const prc_shc *c, unsigned env);

/* --- download-then-run tracking --- */

enum { PRC_SHELL_PENDING_MAX = 16 };

/* The files downloaded so far in one scope (a function, a job, a Dockerfile stage) and not yet checked. */
typedef struct prc_shell_dl {
        char   pending[PRC_SHELL_PENDING_MAX][256];     /* basenames */
        size_t npend;
} prc_shell_dl;

/* Called for each download-and-run met: detail says what ("curl piped into bash"). */
typedef bool (*prc_shell_hit_fn)(void *ctx, const prc_shp *p, const char *detail, prc_err *err);

/*
 * Look at command i of pipeline p: report fetch | interpreter, an
 * interpreter fed a downloading substitution, and a run of a file
 * downloaded earlier in dl with no digest check since; then record what c
 * downloads.  A check (prc_shell_is_check) clears dl.  Errors: hit's.
 */
bool prc_shell_fetch_run(prc_shell_dl *dl, const prc_shp *p, size_t i, prc_shell_hit_fn hit, void *ctx,
                         prc_err *err) PRC_MUST_CHECK;

/* --- the shell streams of a run --- */

/*
 * One stream of shell lines.  where says where it sits ("in build()", "in
 * job build, step 2", "in RUN of stage app"), path and vars as for
 * prc_sh_walk.  new_scope: the files a stream downloaded before are no
 * longer on the same machine or in the same function (download tracking
 * restarts).  kind: the PRC_AK_* of the document.
 */
typedef struct prc_shell_stream {
        const json_t *lines;
        const char   *where, *path;
        const json_t *vars;
        bool          new_scope;
        unsigned      kind;
        bool          heredocs_read;    /* a Dockerfile RUN whose script here-documents are streams of their own */
} prc_shell_stream;

typedef bool (*prc_shell_stream_fn)(void *ctx, const prc_shell_stream *s, prc_err *err);

/*
 * Every shell stream of the run's documents of the kinds asked, in path
 * order: PKGBUILD and install-script functions (one scope each), top-level
 * commands and assignment substitutions; workflow and action steps (a job
 * is one scope: its steps share a runner); Dockerfile RUN (a stage is one
 * scope; exec-form RUN is read as its words; a RUN's here-documents run as
 * its script are streams of their own).  A `run:` or RUN that was not
 * tokenized (a non-POSIX shell) is reported through prc_act_unresolved.
 * Errors: out-of-memory, or fn's.
 */
bool prc_shell_each_stream(prc_actx *cx, unsigned kinds, prc_shell_stream_fn fn, void *ctx,
                           prc_err *err) PRC_MUST_CHECK;

#endif
