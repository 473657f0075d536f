/*
 * deps.h - the dependency analyses (issue 19, "Dependencies"): lockfiles
 * present, in step with their manifests, hashed, from their registry, and
 * the install-time scripts and mixed indexes a reviewer must see.
 *
 * Trust: engine-side.  Reads checked ManifestDocs and the inventory listing
 * only; the version matchers below read strings those documents carry.
 */
#ifndef PRC_ANALYSIS_DEPS_H
#define PRC_ANALYSIS_DEPS_H

#include <stdbool.h>

#include "analysis/analysis.h"
#include "base/err.h"

bool prc_deps_lockfile_missing(prc_actx *cx, prc_err *err);
bool prc_deps_lockfile_drift(prc_actx *cx, prc_err *err);
bool prc_deps_integrity_missing(prc_actx *cx, prc_err *err);
bool prc_deps_non_registry_source(prc_actx *cx, prc_err *err);
bool prc_deps_install_scripts(prc_actx *cx, prc_err *err);
bool prc_deps_registry_confusion(prc_actx *cx, prc_err *err);

/* Version requirement dialects (deps_ver.c). */
enum prc_dv_dialect {
        PRC_DV_NPM,             /* node-semver: ^ ~ x-ranges, hyphen ranges, ||; pre-releases opt in */
        PRC_DV_CARGO,           /* cargo: comma-separated, a bare version is a caret */
        PRC_DV_PYPI,            /* PEP 440 (== != ~= < <= > >= ===, .* prefixes) and Poetry's ^ ~ * || */
        PRC_DV_COMPOSER,        /* composer: ^ ~ (composer's), wildcards, hyphen, || |, and by space or comma */
        PRC_DV_GEM,             /* rubygems: = != < <= > >= ~>, comma-separated */
        PRC_DV_NUGET,           /* NuGet: a bare version is a minimum, [a,b) intervals, floating 1.* */
};

enum prc_dv_match {
        PRC_DV_NO,              /* the version is outside the requirement */
        PRC_DV_YES,             /* inside */
        PRC_DV_UNKNOWN,         /* the requirement or the version is not one prc reads: never a guess */
};

/* Does version satisfy requirement in dialect d? */
enum prc_dv_match prc_dv_satisfies(enum prc_dv_dialect d, const char *requirement, const char *version);

#endif
