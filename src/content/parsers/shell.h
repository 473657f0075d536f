/*
 * shell.h - tokenizer for PKGBUILD (bash) and .SRCINFO text.  Nothing is
 * ever executed, globbed, or read from the environment.
 *
 * Trust: the text is hostile (AUR packages); this runs only inside the
 * sandboxed content worker.  Static expansion (variables assigned earlier
 * in the file, ${x:-y}, ${x/a/b}, brace expansion) amplifies, so expansion
 * count, expanded bytes and nesting are bounded and refused past the bound.
 *
 * PKGBUILD document (docs/parsers-xml-shell-archive.md):
 *   {"format": "pkgbuild",
 *    "assignments": [{"name": "source", "line": 7, "array": true,
 *                     "append": false, "conditional": false,
 *                     "raw": ["\"$pkgname-$pkgver.tar.gz\"{,.sig}"],
 *                     "static": true, "value": ["x-1.tar.gz", "x-1.tar.gz.sig"],
 *                     "dynamic": ["command-substitution", "unknown-variable:srcdir"]}],
 *    "functions": [{"name": "build", "line": 9, "body": [LINE...]}],
 *    "commands": [{"line": 12, "body": [LINE...]}]}
 * "value" (a string, or an array of strings for arrays) is present only
 * when "static" is true; "dynamic" lists why a value is not static (first
 * reasons, at most 8).  An assignment inside a top-level if/case/loop/group
 * is "conditional" and is never static (it also makes the variable unknown
 * afterwards).  A LINE is one logical line of a token stream:
 * {"line": n, "tokens": ["cd", "\"$srcdir\"", "&&", ...], "heredocs": [...]}
 * with words exactly as written, operators (";", "&&", "|", "(", "<<", ...)
 * as their own tokens (a word can never be spelled like an operator), and
 * the bodies of here-documents started on that line.  "commands" holds
 * top-level statements that are not assignments or function definitions.
 *
 * A LINE may carry "subst": [LINE...], the tokenized bodies of the command
 * and process substitutions and backquotes in its words (outermost ones; the
 * bodies carry their own "subst"), and an assignment may carry "subst" for
 * those in its value: "pkgver=$(curl -s URL)" shows its command.  Bodies are
 * tokenized as a function body is (assignments stay tokens).
 *
 * Recovery (PRC_SHELL_RECOVER): a syntax error (shell-syntax,
 * shell-unterminated, srcinfo-syntax, srcinfo-duplicate), invalid UTF-8 or
 * a NUL byte does not refuse the file.  The error is recorded in "errors":
 * [{"class", "line", "message"}] (at most PRC_SHELL_ERRORS_MAX, then
 * "errors_dropped": n), bad bytes read as '?', and tokenizing goes on at the
 * line after the error with a fresh nesting state: streams and assignments
 * made from then on carry "recovered": true (a function body cut by the
 * error continues as top-level "commands").  The words of the error line
 * after the point of failure are split at blanks and shell operators into
 * one recovered command, so nothing on it goes unsearched.  Limits
 * (expansions, output, nesting, nodes, scalar) and out-of-memory still
 * refuse: they are the hostile cases.
 *
 * .SRCINFO document:
 *   {"format": "srcinfo",
 *    "pkgbase": {"name": "x", "line": 1, "fields": {"pkgver": ["1"], ...}},
 *    "packages": [{"name": "x", "line": 9, "fields": {...}}]}
 */
#ifndef PRC_SHELL_H
#define PRC_SHELL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

enum {
        PRC_SHELL_PKGBUILD = 0,         /* bash source (PKGBUILD, install scripts) */
        PRC_SHELL_SRCINFO = 1u << 0,    /* makepkg's .SRCINFO key = value format */
        /*
         * Recover from syntax errors instead of refusing (issue 20: hook files and
         * PKGBUILDs in the wild are not always valid shell, and a file that cannot
         * be parsed must still be searched).  See "Recovery" above.
         */
        PRC_SHELL_RECOVER = 1u << 1,
};

enum {
        /*
         * Words produced by brace expansion plus parameter expansions, in one
         * file.  The largest real PKGBUILD in the corpus needs a few hundred.
         */
        PRC_SHELL_EXPANSIONS_MAX = 100000,
        /* Expanded bytes may exceed the input by this factor plus the slack below. */
        PRC_SHELL_OUTPUT_FACTOR = 4,
        PRC_SHELL_OUTPUT_SLACK = 64u << 10,
        /* Nested ${...}, $(...), braces: real files nest 3 deep at most. */
        PRC_SHELL_NESTING_MAX = 64,
        /*
         * The document: estimated heap bytes of jansson values (measured on
         * glibc) capped at this many times the input plus the floor
         * (nodes-limit), so a flood of one-byte tokens cannot cost gigabytes.
         * Real PKGBUILDs (under 25 KB) stay far below the floor.
         */
        PRC_SHELL_TREE_FACTOR = 32,
        PRC_SHELL_TREE_FLOOR = 16u << 20,
        PRC_SHELL_COST_STRING = 64,     /* one string and its slot in an array */
        PRC_SHELL_COST_OBJECT = 560,    /* one small object with its hashtable */
        /* Substitutions tokenized per word (more are one error in recovery, else shell-nesting-limit). */
        PRC_SHELL_SUBST_MAX = 32,
        /* Substitution bodies nest at most this deep (each level tokenizes its bytes again). */
        PRC_SHELL_SUBST_DEPTH = 8,
        /* Recovered errors listed in a document; the rest are counted. */
        PRC_SHELL_ERRORS_MAX = 64,
};

/*
 * Tokenize p[0..n).  flags selects the format (PRC_SHELL_PKGBUILD or
 * PRC_SHELL_SRCINFO).  Returns the document (new reference, transfers) or
 * NULL with err set: input-too-large, nul-byte, invalid-utf8 (input must be
 * UTF-8 so that values are JSON strings), shell-syntax, shell-unterminated,
 * shell-nesting-limit (min(lim->depth_max, PRC_SHELL_NESTING_MAX)),
 * shell-expansion-limit, shell-output-limit, scalar-limit (one value over
 * lim->scalar_max), nodes-limit (tokens and values over lim->nodes_max,
 * or the document budget above),
 * srcinfo-syntax, srcinfo-duplicate, out-of-memory; err->line/col locate it.
 */
json_t *prc_shell_tokenize(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                           prc_err *err) PRC_MUST_CHECK;

#endif
