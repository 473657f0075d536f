/*
 * sh.h - shell token helpers shared by every analysis that reads the shell
 * tokenizer's output (PKGBUILDs, install scripts; workflow run: and
 * Dockerfile RUN once they are tokenized): a walk over its simple commands
 * with each word normalized.
 *
 * Trust: engine-side.  The documents come from the content worker and are
 * checked (prc_sh_check, content/sh_check.h) before anything reads them.
 * Normalization works on one token at a time (a word exactly as written): quote removal, ANSI-C
 * $'..' decoding, backslash escapes, and variables with a static value (the
 * file's static assignments, then plain assignments met earlier in the same
 * function).  Command substitutions are never evaluated: the worker
 * tokenized their bodies ("subst"), and the walk visits them as commands of
 * their own, nested in the word that holds them.
 */
#ifndef PRC_ANALYSIS_SH_H
#define PRC_ANALYSIS_SH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "content/sh_check.h"     /* prc_sh_check: every document is checked before a walk */

/* What normalizing a word met (bits of prc_shw.fl). */
enum {
        PRC_SHW_QUOTED  = 1u << 0,      /* quotes of any kind */
        PRC_SHW_SPLICED = 1u << 1,      /* pieces in different quoting glued together ('b''u''n', c"ur"l, c\url) */
        PRC_SHW_ANSI    = 1u << 2,      /* $'...' decoded */
        PRC_SHW_VAR     = 1u << 3,      /* a variable replaced by its static value */
        PRC_SHW_UNKNOWN = 1u << 4,      /* a variable or expansion without a static value (left out of val) */
        PRC_SHW_SUBST   = 1u << 5,      /* a command or process substitution (left out of val) */
};

enum {
        PRC_SHW_MAX = 4096,             /* bytes of a normalized word kept */
        PRC_SHC_WORDS_MAX = 256,        /* words of one simple command kept */
        PRC_SHP_CMDS_MAX = 128,         /* commands of one pipeline kept (docs/analyses.md, limits) */
};

typedef struct prc_shw {
        const char   *raw;      /* borrowed: the token as written */
        char         *val;      /* owned by the walk: the normalized word */
        unsigned      fl;       /* PRC_SHW_* */
        const json_t *subst;    /* borrowed: the "subst" array of its line, or NULL */
        size_t        s0, s1;   /* this word's substitutions: subst[s0..s1) (s0 == s1: none) */
} prc_shw;

/*
 * A simple command: its words after leading assignments and wrappers (sudo, env, command, exec, ...).
 * A command of redirections only is kept when it writes a file or reads a here-document (n == 0).
 */
typedef struct prc_shc {
        prc_shw    *w;          /* borrowed from the walk */
        size_t      n;
        const char *name;       /* borrowed: basename of w[0].val, "" when n == 0 */
        const char *out_file;   /* normalized target of > or >>, or NULL */
        bool        heredoc;    /* its input is a here-document or here-string */
} prc_shc;

typedef struct prc_shp {
        prc_shc      *c;        /* commands joined by | */
        size_t        n;
        uint32_t      line;
        const json_t *lineobj;  /* borrowed: the logical line (tokens, heredocs, subst) */
        unsigned      depth;    /* 0 in the stream itself, k inside k substitutions */
        char          text[256];/* the line's tokens joined, for locations */
} prc_shp;

/* Called for each pipeline in order; false with err set stops the walk. */
typedef bool (*prc_sh_fn)(void *ctx, const prc_shp *p, prc_err *err);

/*
 * Walk the logical lines of one stream (a function body, a top-level
 * command, an assignment's "subst") in order, substitution bodies right
 * after the pipeline that holds them.  vars (borrowed, may be NULL) maps
 * names to static string values; assignments in the stream shadow them in a
 * copy.  Errors: out-of-memory, or the callback's.
 */
bool prc_sh_walk(const json_t *lines, const json_t *vars, prc_sh_fn fn, void *ctx, prc_err *err) PRC_MUST_CHECK;

/*
 * Normalize one token (see above) into out (cap bytes, NUL-terminated,
 * cut when longer).  Returns the PRC_SHW_* flags.  nsubst counts the
 * substitutions met (the worker's order).
 */
unsigned prc_sh_norm(const char *raw, const json_t *vars, char *out, size_t cap, size_t *nsubst);

/* Does any simple command in lines (recursively) have one of names (NULL-terminated) as its name? */
bool prc_sh_mentions(const json_t *lines, const char *const *names);

/* The static variables of a PKGBUILD document: name -> string (arrays: their first element). New reference. */
json_t *prc_sh_static_vars(const json_t *pkgbuild_doc);

#endif
