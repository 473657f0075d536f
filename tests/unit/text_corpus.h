/*
 * text_corpus.h - shared by test_toml.c, test_jsonc.c and test_ini.c: read
 * rows of the shared corpora's TSV indexes in place and check one reader
 * against a table of expected outcomes.
 *
 * The attack table lists every row of the given formats: a row the table
 * does not know fails the test, so a new attack input cannot go unchecked.
 * An expectation is an error class name or "ok".  It must agree with the
 * index's own verdict ("reject..." refused, "accept..." accepted) unless
 * the entry carries a deviation reason.
 */
#ifndef PRC_TEXT_CORPUS_H
#define PRC_TEXT_CORPUS_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "base/limits.h"

typedef json_t *(*tc_parse_fn)(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err);

typedef struct tc_expect {
        const char *path;       /* relative to parsers/attacks/ */
        const char *outcome;    /* class name or "ok" */
        const char *deviation;  /* why prc departs from the index's verdict, or NULL */
} tc_expect;

static inline const char *tc_corpora(void)
{
        const char *c = t_corpora();

        if (c == NULL)
                t_fail(__FILE__, __LINE__, "the shared corpora are absent (set PRC_CORPORA or check ../shared)");
        return c;
}

/* Read corpora-relative file; caller frees. */
static inline char *tc_read(const char *rel, size_t *n)
{
        char path[16384];

        if ((size_t)snprintf(path, sizeof(path), "%s/%s", tc_corpora(), rel) >= sizeof(path))
                t_fail(__FILE__, __LINE__, "corpus path too long");
        return t_read(path, n);
}

/* Split a TSV line in place into at most max fields; returns the count. */
static inline size_t tc_fields(char *line, char **out, size_t max)
{
        size_t k = 0;

        while (k < max) {
                out[k++] = line;
                line = strchr(line, '\t');
                if (line == NULL)
                        break;
                *line++ = '\0';
        }
        return k;
}

static inline bool tc_format_in(const char *fmt, const char *const *formats)
{
        for (; *formats != NULL; formats++)
                if (strcmp(*formats, fmt) == 0)
                        return true;
        return false;
}

/*
 * Every attacks/INDEX.tsv row whose format is in formats is parsed with fn
 * (default limits, flags) and must give its outcome from table.  Returns the
 * number of rows checked.
 */
static inline size_t tc_attacks(const char *const *formats, const tc_expect *table, size_t ntable, tc_parse_fn fn,
                                unsigned flags)
{
        size_t n, checked = 0;
        char *idx = tc_read("parsers/attacks/INDEX.tsv", &n), *line, *save = NULL;

        for (line = strtok_r(idx, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *f[6], rel[4096];
                const tc_expect *e = NULL;
                size_t len;
                char *data;
                prc_err err;
                json_t *v;
                bool says_reject, says_accept;

                if (tc_fields(line, f, 6) < 4 || strcmp(f[0], "path") == 0 || !tc_format_in(f[1], formats))
                        continue;
                for (size_t k = 0; k < ntable; k++)
                        if (strcmp(table[k].path, f[0]) == 0)
                                e = &table[k];
                if (e == NULL)
                        t_fail(__FILE__, __LINE__, "attack row %s has no expectation in the test table", f[0]);
                says_reject = strncmp(f[3], "reject", 6) == 0 && strstr(f[3], "or accept") == NULL;
                says_accept = strncmp(f[3], "accept", 6) == 0 && strstr(f[3], "or reject") == NULL;
                if (e->deviation == NULL && ((says_reject && strcmp(e->outcome, "ok") == 0) ||
                                             (says_accept && strcmp(e->outcome, "ok") != 0)))
                        t_fail(__FILE__, __LINE__, "%s: table says %s but the index says '%s'", f[0], e->outcome, f[3]);
                if ((size_t)snprintf(rel, sizeof(rel), "parsers/attacks/%s", f[0]) >= sizeof(rel))
                        t_fail(__FILE__, __LINE__, "row path too long");
                data = tc_read(rel, &len);
                prc_err_init(&err);
                v = fn((const uint8_t *)data, len, &prc_limits_default, flags, &err);
                if ((v == NULL) != (err.cls != PRC_E_OK))
                        t_fail(__FILE__, __LINE__, "%s: a document and an error, or neither", f[0]);
                if (strcmp(e->outcome, prc_err_name(err.cls)) != 0 &&
                    !(strcmp(e->outcome, "ok") == 0 && v != NULL))
                        t_fail(__FILE__, __LINE__, "%s: got %s (%s), want %s", f[0],
                               v != NULL ? "ok" : prc_err_name(err.cls), err.msg, e->outcome);
                if (v == NULL && err.off != PRC_NO_OFF && err.line == 0)
                        t_fail(__FILE__, __LINE__, "%s: error with an offset but no line", f[0]);
                json_decref(v);
                free(data);
                checked++;
        }
        free(idx);
        return checked;
}

/*
 * Every manifests/INDEX.tsv row whose kind passes want(kind) must parse with
 * fn (default limits, flags 0).  Returns the number of files parsed.
 */
static inline size_t tc_manifests(bool (*want)(const char *kind, const char *path), tc_parse_fn fn, unsigned flags)
{
        size_t n, checked = 0;
        char *idx = tc_read("manifests/INDEX.tsv", &n), *line, *save = NULL;

        for (line = strtok_r(idx, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *f[6], rel[8192], *data, *slash;
                size_t len;
                prc_err err;
                json_t *v;

                if (tc_fields(line, f, 6) < 6 || strcmp(f[0], "ecosystem") == 0 || !want(f[5], f[3]))
                        continue;
                /* <ecosystem>/<owner>__<repo>/<path> */
                slash = strchr(f[1], '/');
                if (slash == NULL)
                        t_fail(__FILE__, __LINE__, "bad repo column %s", f[1]);
                *slash = '\0';
                if ((size_t)snprintf(rel, sizeof(rel), "manifests/%s/%s__%s/%s", f[0], f[1], slash + 1, f[3]) >=
                    sizeof(rel))
                        t_fail(__FILE__, __LINE__, "row path too long");
                data = tc_read(rel, &len);
                prc_err_init(&err);
                v = fn((const uint8_t *)data, len, &prc_limits_default, flags, &err);
                if (v == NULL)
                        t_fail(__FILE__, __LINE__, "%s refused: %s at %u:%u: %s", rel, prc_err_name(err.cls), err.line,
                               err.col, err.msg);
                json_decref(v);
                free(data);
                checked++;
        }
        free(idx);
        return checked;
}

/*
 * Hostile-path sweep (STYLE.md): every truncation and every single-bit flip
 * of a valid input must give exactly one outcome, with a located error.
 * Returns the number of parses.
 */
static inline size_t tc_sweep(tc_parse_fn fn, unsigned flags, const char *valid)
{
        size_t n = strlen(valid), runs = 0;
        uint8_t *b = malloc(n + 1);

        if (b == NULL)
                t_fail(__FILE__, __LINE__, "out of memory");
        for (size_t cut = 0; cut <= n; cut++) {
                for (int bit = -1; bit < 8; bit++) {
                        size_t len = cut;
                        prc_err err;
                        json_t *v;

                        memcpy(b, valid, n);
                        if (bit >= 0) {
                                if (cut == n)
                                        continue;
                                b[cut] ^= (uint8_t)(1u << bit);
                                len = n;        /* flips run over the whole input */
                        }
                        prc_err_init(&err);
                        v = fn(b, len, &prc_limits_fuzz, flags, &err);
                        if ((v == NULL) != (err.cls != PRC_E_OK))
                                t_fail(__FILE__, __LINE__, "cut %zu bit %d: a document and an error, or neither", cut,
                                       bit);
                        if (v == NULL && err.off != PRC_NO_OFF && err.line == 0)
                                t_fail(__FILE__, __LINE__, "cut %zu bit %d: error without a line", cut, bit);
                        if (v == NULL && cut == n && bit < 0)
                                t_fail(__FILE__, __LINE__, "the valid input is refused: %s: %s",
                                       prc_err_name(err.cls), err.msg);
                        json_decref(v);
                        runs++;
                }
        }
        free(b);
        return runs;
}

/*
 * Allocation-failure sweep (STYLE.md, fault injection): jansson's allocator
 * is replaced by one that fails its Nth call, for every N up to the number
 * of allocations a valid input needs.  Each parse must be refused with
 * out-of-memory, and every block must be freed again (no leak on any
 * failure path).  Runs in the test's own forked child, so the allocator
 * swap cannot leak into other tests.  Returns the number of parses.
 */
static size_t tc_calls, tc_fail_at;
static long tc_live;

static inline void *tc_malloc(size_t n)
{
        void *p;

        if (++tc_calls == tc_fail_at)
                return NULL;
        p = malloc(n);
        if (p != NULL)
                tc_live++;
        return p;
}

static inline void tc_free(void *p)
{
        if (p != NULL) {
                tc_live--;
                free(p);
        }
}

static inline size_t tc_oom_sweep(tc_parse_fn fn, unsigned flags, const char *valid)
{
        size_t n = strlen(valid), total;
        prc_err err;
        json_t *v;

        json_set_alloc_funcs(tc_malloc, tc_free);
        tc_calls = 0;
        tc_fail_at = 0;
        prc_err_init(&err);
        v = fn((const uint8_t *)valid, n, &prc_limits_default, flags, &err);
        if (v == NULL)
                t_fail(__FILE__, __LINE__, "the valid input is refused: %s", err.msg);
        json_decref(v);
        total = tc_calls;
        if (tc_live != 0)
                t_fail(__FILE__, __LINE__, "%ld blocks live after a successful parse", tc_live);
        for (size_t k = 1; k <= total; k++) {
                tc_calls = 0;
                tc_fail_at = k;
                prc_err_init(&err);
                v = fn((const uint8_t *)valid, n, &prc_limits_default, flags, &err);
                if (v != NULL || err.cls != PRC_E_OUT_OF_MEMORY)
                        t_fail(__FILE__, __LINE__, "allocation %zu of %zu failed: got %s, want out-of-memory", k,
                               total, v != NULL ? "a document" : prc_err_name(err.cls));
                if (tc_live != 0)
                        t_fail(__FILE__, __LINE__, "allocation %zu of %zu failed: %ld blocks leaked", k, total,
                               tc_live);
        }
        json_set_alloc_funcs(malloc, free);
        return total;
}

#endif
