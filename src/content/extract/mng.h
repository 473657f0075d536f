/*
 * mng.h - the Maven (maven.c, gradle.c), NuGet (nuget.c) and RubyGems (gem.c)
 * extractor families (docs/extraction/maven-nuget-gem.md), and the small
 * helpers over prc_xml_parse's element tree that maven.c and nuget.c share
 * (mng_xml.c).  Trust: everything here runs in the content worker on
 * hostile bytes; see extract.h for the contract.
 */
#ifndef PRC_EXTRACT_MNG_H
#define PRC_EXTRACT_MNG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "content/extract/extract.h"

/* maven.c: pom.xml; gradle.c: gradle.lockfile, Gradle version catalogs */
json_t *prc_xm_pom(const prc_xin *in, prc_err *err);
bool prc_xm_gradle_lock_match(const char *path, const char *base);
json_t *prc_xm_gradle_lock(const prc_xin *in, prc_err *err);
bool prc_xm_catalog_match(const char *path, const char *base);
json_t *prc_xm_catalog(const prc_xin *in, prc_err *err);

/* nuget.c: SDK project files, Directory.Packages.props, packages.config, packages.lock.json, NuGet.config */
bool prc_xn_project_match(const char *path, const char *base);
json_t *prc_xn_project(const prc_xin *in, prc_err *err);
bool prc_xn_central_match(const char *path, const char *base);
json_t *prc_xn_central(const prc_xin *in, prc_err *err);
bool prc_xn_config_pkgs_match(const char *path, const char *base);
json_t *prc_xn_config_pkgs(const prc_xin *in, prc_err *err);
bool prc_xn_lock_match(const char *path, const char *base);
json_t *prc_xn_lock(const prc_xin *in, prc_err *err);
bool prc_xn_nugetconfig_match(const char *path, const char *base);
json_t *prc_xn_nugetconfig(const prc_xin *in, prc_err *err);

/* gem.c: Gemfile.lock, Gemfile */
bool prc_xg_lock_match(const char *path, const char *base);
json_t *prc_xg_lock(const prc_xin *in, prc_err *err);
bool prc_xg_gemfile_match(const char *path, const char *base);
json_t *prc_xg_gemfile(const prc_xin *in, prc_err *err);

/*
 * A forward-only cursor that finds the line where an XML or JSON file
 * states a value, for parsers that keep no positions: each hit moves the
 * cursor past it, so walking the tree in document order gives each item
 * its own line.  XML comments are skipped.  The bytes scanned are budgeted
 * (a multiple of the input) so a hostile file full of misses cannot make
 * this quadratic; past the budget lines are unknown (0).
 */
typedef struct prc_mx_loc {
        const prc_xin *in;      /* borrowed */
        size_t         off;     /* the cursor */
        uint32_t       line;    /* line of off */
        uint64_t       budget;  /* bytes that may still be scanned */
        bool           xml;     /* skip <!-- --> */
} prc_mx_loc;

void prc_mx_loc_init(prc_mx_loc *l, const prc_xin *in, bool xml);
/* Line of the next occurrence of needle at or after the cursor (moved past it), or 0. */
uint32_t prc_mx_locate(prc_mx_loc *l, const char *needle);
/* The line of the cursor (of the last hit). */
static inline uint32_t prc_mx_line(const prc_mx_loc *l) { return l->line; }

/* Element helpers (the element shape is xml.h's). */
const char *prc_mx_local(const json_t *el);             /* local name, "" if none */
size_t prc_mx_nkids(const json_t *el);
const json_t *prc_mx_kid(const json_t *el, size_t i);   /* child i: an element or a text string */
const json_t *prc_mx_child(const json_t *el, const char *local);     /* first element child named so */
const char *prc_mx_attr(const json_t *el, const char *name);         /* attribute value or NULL */
/*
 * The element's text, XML whitespace trimmed, copied into scratch (a JSON
 * array the caller frees at the end) and borrowed from it; "" for an empty
 * element.  An element that holds elements where the format wants text is
 * extract-shape.
 */
bool prc_mx_text(const json_t *el, json_t *scratch, const char **out, prc_err *err) PRC_MUST_CHECK;
/* Does the element hold text only (no child elements)? */
bool prc_mx_only_text(const json_t *el);
/* Text of the first child named local, or NULL when there is none. */
bool prc_mx_child_text(const json_t *el, const char *local, json_t *scratch, const char **out,
                       prc_err *err) PRC_MUST_CHECK;
/* Copy s[0..n) into scratch; borrowed from it (NULL with err on out of memory). */
const char *prc_mx_keep(json_t *scratch, const char *s, size_t n, prc_err *err);
/* A formatted string kept in scratch (NULL with err on out of memory). */
const char *prc_mx_keepf(json_t *scratch, prc_err *err, const char *fmt, ...) PRC_PRINTF(3, 4);
/* Parse in as XML and check the root's local name (else extract-shape). */
json_t *prc_mx_parse(const prc_xin *in, const char *root, prc_err *err);
/* A text format's input: within lim->input_max, no NUL, valid UTF-8 (input-too-large, nul-byte, invalid-utf8). */
bool prc_mx_check_text(const prc_xin *in, prc_err *err) PRC_MUST_CHECK;
/* The next line at *off (without LF or CR LF) as s[0..n); false at the end. */
bool prc_mx_next_line(const prc_xin *in, size_t *off, const char **s, size_t *n);
/* Append s[0..n) to a details list, within PRC_MD_LIST_MAX entries and PRC_MD_STR_MAX bytes (extract-limit). */
bool prc_mx_list_str(json_t *list, const char *s, size_t n, prc_err *err) PRC_MUST_CHECK;
/*
 * A Maven or Gradle version the file pins exactly: not a range ("[1,2)"), not
 * a moving label (LATEST, RELEASE, "1.+", "latest.release"), not empty, and
 * with no property left in it.
 */
bool prc_mx_maven_exact(const char *v);
/*
 * A property reference's value: name is NUL-terminated, shorter than 256
 * bytes, and the lookup may rewrite it in place (MSBuild lower-cases it).
 * NULL when the property is unknown.
 */
typedef const char *prc_mx_lookup_fn(void *ctx, char *name);
/*
 * Interpolate raw (may be NULL) by the two-byte opener ("${", "$(") and close
 * byte, recursively to a fixed depth.  *out is the expansion (unknown
 * properties left as written; raw itself when the expansion passes
 * PRC_MD_STR_MAX); *unres names the first unknown property, or is NULL.
 * False with err on out of memory.
 */
bool prc_mx_interpolate(const char *raw, const char *open, char close, prc_mx_lookup_fn *look, void *ctx,
                        json_t *scratch, const char **out, const char **unres, prc_err *err) PRC_MUST_CHECK;
/* Case-insensitive ASCII compare (file names, NuGet ids, MSBuild names). */
bool prc_mx_ieq(const char *a, const char *b);

#endif
