/*
 * sh_check.h - the client's check of the shell tokenizer's documents
 * (tokenize-pkgbuild, tokenize-srcinfo, and the token documents of workflow
 * run: steps and Dockerfile RUN lines inside a ManifestDoc's details).
 *
 * Trust: parent-side.  The documents come from the content worker and are
 * hostile until these say otherwise; the analyses (src/analysis/sh.h) read
 * only documents that passed.  The shape is content/parsers/shell.h's.
 */
#ifndef PRC_CONTENT_SH_CHECK_H
#define PRC_CONTENT_SH_CHECK_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"

/*
 * Check a tokenize-pkgbuild (srcinfo false) or tokenize-srcinfo document
 * against the shape in content/parsers/shell.h: every key known and of its
 * type, lines positive, tokens strings, "subst" nested at most
 * PRC_SHELL_SUBST_DEPTH deep.  Errors: tokens-invalid (err->ptr names the
 * first bad field).
 */
bool prc_sh_check(const json_t *doc, bool srcinfo, prc_err *err) PRC_MUST_CHECK;
/*
 * The same check of the tokens of a workflow run: or a Dockerfile RUN (no
 * format key; anything but an object reads as {}): exactly what prc_sh_check
 * says of a copy with "format": "pkgbuild", without the copy.
 */
bool prc_sh_check_tokens(const json_t *tokens, prc_err *err) PRC_MUST_CHECK;

#endif
