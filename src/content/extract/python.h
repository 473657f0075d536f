/*
 * python.h - shared pieces of the Python (pypi) extractor family, private to
 * src/content/extract/python_*.c: the PEP 508 requirement reader, PEP 503
 * names and purls, a forward-only line finder, and the extractor entry
 * points listed in extract.c.  See docs/extraction/python.md.
 */
#ifndef PRC_EXTRACT_PYTHON_H
#define PRC_EXTRACT_PYTHON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "content/extract/extract.h"

/* One PEP 508 requirement; every string malloc'ed or NULL. */
typedef struct py_req {
        char *name;     /* as written */
        char *extras;   /* "a,b" (blanks removed), NULL without brackets */
        char *spec;     /* version specifier, blanks removed: ">=1.0,<2" */
        char *url;      /* after "@" */
        char *marker;   /* after ";", trimmed */
} py_req;

enum { PY_OK = 0, PY_BAD = 1, PY_OOM = 2 };

/*
 * Read s[0..n) as one PEP 508 requirement.  PY_BAD sets *why to a static
 * reason (the text is not a requirement); PY_OOM means out of memory.  r is
 * zeroed first and owns its strings in every outcome (py_req_free).
 */
int py_req_parse(const char *s, size_t n, py_req *r, const char **why);
void py_req_free(py_req *r);
/* Is s[0..n) a PEP 508 environment marker? */
bool py_marker_valid(const char *s, size_t n);
/* Is s a PEP 508 name ([A-Za-z0-9] ([A-Za-z0-9._-]* [A-Za-z0-9])?)? */
bool py_name_valid(const char *s, size_t n);

/* s[0..n) as a NUL-terminated malloc'ed string, or NULL. */
char *py_dupn(const char *s, size_t n);
/* Out of memory in python extraction: sets err, returns false. */
bool py_oom(prc_err *err);
/* details[key] as an array, created empty when absent; NULL with err on OOM. */
json_t *py_det_array(json_t *md, const char *key, prc_err *err);

/* PEP 503 normal form (lower-case, runs of "-_." to "-"); malloc'ed or NULL. */
char *py_norm(const char *name);
/* pkg:pypi/NORMALISED@VERSION (version may be NULL); malloc'ed or NULL. */
char *py_purl(const char *name, const char *version);
/* The exact version a specifier pins ("==1.2" or "===x", one clause, no '*'), malloc'ed, or NULL. */
char *py_pinned(const char *spec);

/*
 * Add a dependency: name, requirement, resolved (given, or pinned by the
 * requirement), purl.  Returns the dependency (borrowed) or NULL with err.
 */
json_t *py_dep(json_t *md, const char *name, const char *requirement, const char *resolved, const char *scope,
               bool direct, const char *group, uint32_t line, prc_err *err);
/*
 * Add a parsed requirement: py_dep plus the source its URL names (git, url,
 * path; a credential in it is recorded by key) and, in details.requirements,
 * its extras, marker and editable flag when it has any.
 */
json_t *py_dep_req(json_t *md, const py_req *r, const char *scope, const char *group, bool editable,
                   uint32_t line, prc_err *err);
/*
 * Read text as a requirement and add it, or record it in not_extracted (what
 * is the text, reason the reader's).  False only with err set.
 */
bool py_add_pep508(json_t *md, const char *text, const char *scope, const char *group, uint32_t line, prc_err *err);
/* Set a dependency's source from a URL as pip reads it (git+, hg+, file:, http...). */
bool py_set_url_source(json_t *md, json_t *dep, const char *url, uint32_t line, prc_err *err);
/* Set a dependency's source; a credential in url is recorded by key (the source keeps the URL without it). */
bool py_source(json_t *md, json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
               uint32_t line, prc_err *err);
/* integrity from "algo:value" or "algo=value" text; false only with err. */
bool py_set_hash(json_t *dep, const char *text, prc_err *err);
/* Add a registry; a credential in url is recorded under key "<what> URL userinfo". */
bool py_registry(json_t *md, const char *name, const char *scope, const char *url, uint32_t line, prc_err *err);

/* A forward-only line finder for files whose parser keeps no positions. */
typedef struct py_cur {
        const prc_xin *in;
        size_t         off;     /* start of the current line */
        uint32_t       line;
} py_cur;

void py_cur_init(py_cur *c, const prc_xin *in);
/* Line of the next needle at or after the cursor (the cursor moves to it), or 0 (the cursor stays). */
uint32_t py_cur_find(py_cur *c, const char *needle);
/* The same without moving the cursor. */
uint32_t py_cur_peek(const py_cur *c, const char *needle);

/* After a parser refusal: give an offset-only error its line (and column). */
void py_parse_failed(const prc_xin *in, prc_err *err);

/* Object member helpers: type checks that fail with extract-shape naming the key. */
bool py_want(const json_t *v, int type, const char *what, prc_err *err);
const char *py_str(const json_t *obj, const char *key);

/* Extractors (extract.c table). */
json_t *prc_x_py_requirements(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pip_conf(const prc_xin *in, prc_err *err);
json_t *prc_x_py_setup_cfg(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pyproject(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pipfile(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pipfile_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_py_poetry_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_py_uv_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pdm_lock(const prc_xin *in, prc_err *err);
json_t *prc_x_py_pylock(const prc_xin *in, prc_err *err);

/* Names that are patterns (the table, extract.c, holds the exact ones). */
bool prc_x_py_match_requirements(const char *path, const char *base);
bool prc_x_py_match_pip_conf(const char *path, const char *base);
bool prc_x_py_match_pylock(const char *path, const char *base);

#endif
