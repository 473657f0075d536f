/*
 * gha_expr.c - GitHub Actions expressions: which contexts an expression
 * reads, and whether each read can reach its result.
 *
 * Grammar (GitHub's documented expression syntax): literals (null, true,
 * false, numbers, '...' strings with '' for a quote), context references
 * with property (.x), filter (.*, [*]) and index ([expr]) access, function
 * calls, ( ), and the operators ! < <= > >= == != && ||.
 * Trust: the text is hostile (a workflow in the content worker); the parser
 * is recursive descent with a fixed nesting bound and writes only bounded
 * strings.
 */
#include "content/extract/gha.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of ( [ ! and calls: real expressions nest a few levels. */
#define EXPR_DEPTH_MAX 32
/* Bytes of one context path: real ones are under 100; a longer one is a syntax refusal, never cut. */
#define PATH_MAX_BYTES 512

typedef struct xp {
        const char *s;
        size_t      n, i;
        json_t     *refs, *funcs;
        char       *why;
        size_t      whylen;
        prc_err    *err;
        unsigned    depth;
        bool        bad;        /* a syntax error (why says which) or out of memory (err says) */
} xp;

/* The result of a sub-expression: a context path when it is one (else path[0] == 0). */
typedef struct val {
        char   path[PATH_MAX_BYTES + 1];
        bool   is_ref;
        bool   over;        /* the path outgrew PATH_MAX_BYTES */
        size_t first_ref;       /* refs appended while parsing it start here */
} val;

static bool syn(xp *x, const char *what)
{
        if (!x->bad)
                snprintf(x->why, x->whylen, "%s at offset %zu", what, x->i);
        x->bad = true;
        return false;
}

static void ws(xp *x)
{
        while (x->i < x->n && (x->s[x->i] == ' ' || x->s[x->i] == '\t' || x->s[x->i] == '\n' || x->s[x->i] == '\r'))
                x->i++;
}

static bool at(xp *x, const char *tok)
{
        size_t k = strlen(tok);

        ws(x);
        return x->n - x->i >= k && memcmp(x->s + x->i, tok, k) == 0;
}

static bool eat(xp *x, const char *tok)
{
        if (!at(x, tok))
                return false;
        x->i += strlen(tok);
        return true;
}

static bool is_id0(char c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
        return is_id0(c) || (c >= '0' && c <= '9') || c == '-';
}

/* Append lower-cased text to v's path (v->over when it would pass the bound). */
static void path_add(val *v, const char *t, size_t k)
{
        size_t len = strlen(v->path);

        if (!v->is_ref)
                return;
        if (len + k > PATH_MAX_BYTES) {
                v->over = true;
                return;
        }
        for (size_t j = 0; j < k; j++)
                v->path[len + j] = (char)tolower((unsigned char)t[j]);
        v->path[len + k] = '\0';
}

/* Mark every reference appended since first as not reaching the result. */
static void no_flow(xp *x, size_t first)
{
        for (size_t j = first; j < json_array_size(x->refs); j++)
                json_object_set_new(json_array_get(x->refs, j), "flows", json_false());
}

/* A finished sub-expression that is a context path becomes a reference. */
static bool commit_ref(xp *x, val *v)
{
        json_t *r;

        if (!v->is_ref)
                return true;
        v->is_ref = false;
        if (v->over)
                return syn(x, "context path longer than 512 bytes");
        if (json_array_size(x->refs) >= PRC_GHA_REFS_MAX)
                return syn(x, "more context references than the extractor keeps");
        r = json_pack("{s:s, s:b}", "path", v->path, "flows", 1);
        if (r == NULL || json_array_append_new(x->refs, r) != 0) {
                x->bad = true;
                return prc_err_oom(x->err, "an expression reference");
        }
        return true;
}

static bool parse_or(xp *x, val *out);

static bool string_lit(xp *x, char *buf, size_t cap, size_t *out_len)
{
        size_t k = 0;

        x->i++;         /* the opening quote */
        for (;;) {
                if (x->i >= x->n)
                        return syn(x, "unterminated string literal");
                if (x->s[x->i] == '\'') {
                        if (x->i + 1 < x->n && x->s[x->i + 1] == '\'') {
                                x->i += 2;
                                if (k < cap)
                                        buf[k++] = '\'';
                                continue;
                        }
                        x->i++;
                        break;
                }
                if (k < cap)
                        buf[k++] = x->s[x->i];
                x->i++;
        }
        *out_len = k < cap ? k : cap;
        return true;
}

static bool number_lit(xp *x, char *buf, size_t cap)
{
        size_t start = x->i, k;

        if (x->s[x->i] == '-' || x->s[x->i] == '+')
                x->i++;
        if (x->n - x->i > 2 && x->s[x->i] == '0' && (x->s[x->i + 1] == 'x' || x->s[x->i + 1] == 'X')) {
                x->i += 2;
                while (x->i < x->n && isxdigit((unsigned char)x->s[x->i]))
                        x->i++;
        } else {
                while (x->i < x->n && (isdigit((unsigned char)x->s[x->i]) || x->s[x->i] == '.'))
                        x->i++;
                if (x->i < x->n && (x->s[x->i] == 'e' || x->s[x->i] == 'E')) {
                        x->i++;
                        if (x->i < x->n && (x->s[x->i] == '-' || x->s[x->i] == '+'))
                                x->i++;
                        while (x->i < x->n && isdigit((unsigned char)x->s[x->i]))
                                x->i++;
                }
        }
        if (x->i == start || (x->i == start + 1 && !isdigit((unsigned char)x->s[start])))
                return syn(x, "malformed number");
        if (x->i < x->n && is_id(x->s[x->i]))
                return syn(x, "malformed number");
        k = x->i - start < cap - 1 ? x->i - start : cap - 1;
        memcpy(buf, x->s + start, k);
        buf[k] = '\0';
        return true;
}

/* Functions whose result cannot carry an argument's text. */
static bool func_blocks_flow(const char *name)
{
        static const char *const blocking[] = { "contains", "startswith", "endswith", "hashfiles", "success",
                                                "always", "cancelled", "failure", NULL };

        for (size_t j = 0; blocking[j] != NULL; j++)
                if (strcmp(name, blocking[j]) == 0)
                        return true;
        return false;
}

static bool add_func(xp *x, const char *name)
{
        size_t j;
        json_t *f;

        json_array_foreach(x->funcs, j, f)
                if (strcmp(json_string_value(f), name) == 0)
                        return true;
        if (json_array_size(x->funcs) >= PRC_GHA_REFS_MAX)
                return syn(x, "more function calls than the extractor keeps");
        if (json_array_append_new(x->funcs, json_string(name)) != 0) {
                x->bad = true;
                return prc_err_oom(x->err, "an expression function");
        }
        return true;
}

static bool call(xp *x, const char *name, val *out)
{
        bool blocks = func_blocks_flow(name);

        out->is_ref = false;
        if (!add_func(x, name))
                return false;
        if (eat(x, ")"))
                return true;
        for (;;) {
                val a;
                size_t first = json_array_size(x->refs);
                if (!parse_or(x, &a) || !commit_ref(x, &a))
                        return false;
                if (blocks)
                        no_flow(x, first);
                if (eat(x, ")"))
                        return true;
                if (!eat(x, ","))
                        return syn(x, "expected ',' or ')' in a function call");
        }
}

static bool primary(xp *x, val *out)
{
        char c;

        ws(x);
        out->path[0] = '\0';
        out->is_ref = false;
        out->over = false;
        out->first_ref = json_array_size(x->refs);
        if (x->i >= x->n)
                return syn(x, "expression ends where a value is expected");
        c = x->s[x->i];
        if (c == '(') {
                x->i++;
                if (!parse_or(x, out))
                        return false;
                if (!eat(x, ")"))
                        return syn(x, "expected ')'");
                return true;
        }
        if (c == '\'') {
                char buf[8];
                size_t k;
                return string_lit(x, buf, sizeof(buf), &k);
        }
        if (isdigit((unsigned char)c) || ((c == '-' || c == '+' || c == '.') && x->i + 1 < x->n &&
                                          (isdigit((unsigned char)x->s[x->i + 1]) || x->s[x->i + 1] == '.'))) {
                char buf[64];
                return number_lit(x, buf, sizeof(buf));
        }
        if (is_id0(c)) {
                size_t start = x->i, k;
                char name[64];
                while (x->i < x->n && is_id(x->s[x->i]))
                        x->i++;
                k = x->i - start;
                if (at(x, "(")) {
                        x->i++;
                        if (k >= sizeof(name))
                                return syn(x, "function name too long");
                        for (size_t j = 0; j < k; j++)
                                name[j] = (char)tolower((unsigned char)x->s[start + j]);
                        name[k] = '\0';
                        return call(x, name, out);
                }
                if ((k == 4 && strncmp(x->s + start, "true", 4) == 0) ||
                    (k == 5 && strncmp(x->s + start, "false", 5) == 0) ||
                    (k == 4 && strncmp(x->s + start, "null", 4) == 0) ||
                    (k == 3 && strncmp(x->s + start, "NaN", 3) == 0) ||
                    (k == 8 && strncmp(x->s + start, "Infinity", 8) == 0))
                        return true;
                out->is_ref = true;
                path_add(out, x->s + start, k);
                return true;
        }
        return syn(x, "unexpected character");
}

static bool postfix(xp *x, val *out)
{
        if (!primary(x, out))
                return false;
        for (;;) {
                if (at(x, ".")) {
                        size_t start;
                        x->i++;
                        if (x->i < x->n && x->s[x->i] == '*') {
                                x->i++;
                                path_add(out, ".*", 2);
                                continue;
                        }
                        start = x->i;
                        while (x->i < x->n && is_id(x->s[x->i]))
                                x->i++;
                        if (x->i == start)
                                return syn(x, "expected a property name after '.'");
                        path_add(out, ".", 1);
                        path_add(out, x->s + start, x->i - start);
                        continue;
                }
                if (at(x, "[")) {
                        char buf[PATH_MAX_BYTES + 1];
                        size_t k, save, first;
                        val idx;
                        x->i++;
                        if (x->depth >= EXPR_DEPTH_MAX)
                                return syn(x, "expression nests too deeply");
                        if (eat(x, "*")) {
                                if (!eat(x, "]"))
                                        return syn(x, "expected ']' after '[*'");
                                path_add(out, "[*]", 3);
                                continue;
                        }
                        ws(x);
                        save = x->i;
                        /* A lone string or integer literal is a property or an element: part of the path. */
                        if (x->i < x->n && x->s[x->i] == '\'') {
                                if (!string_lit(x, buf, sizeof(buf) - 1, &k))
                                        return false;
                                if (eat(x, "]")) {
                                        buf[k] = '\0';
                                        if (strlen(buf) != k || k == 0)
                                                path_add(out, "[?]", 3);
                                        else {
                                                path_add(out, ".", 1);
                                                path_add(out, buf, k);
                                        }
                                        continue;
                                }
                                x->i = save;
                        } else if (x->i < x->n && isdigit((unsigned char)x->s[x->i])) {
                                size_t st = x->i;
                                while (x->i < x->n && isdigit((unsigned char)x->s[x->i]))
                                        x->i++;
                                k = x->i - st;
                                if (k < 20 && eat(x, "]")) {
                                        path_add(out, "[", 1);
                                        path_add(out, x->s + st, k);
                                        path_add(out, "]", 1);
                                        continue;
                                }
                                x->i = save;
                        }
                        /* Any other index is computed: the path is dynamic there, the index's own reads never flow. */
                        first = json_array_size(x->refs);
                        x->depth++;
                        if (!parse_or(x, &idx) || !commit_ref(x, &idx))
                                return false;
                        x->depth--;
                        no_flow(x, first);
                        if (!eat(x, "]"))
                                return syn(x, "expected ']'");
                        path_add(out, "[?]", 3);
                        continue;
                }
                return true;
        }
}

static bool unary(xp *x, val *out)
{
        if (at(x, "!") && !at(x, "!=")) {
                size_t first = json_array_size(x->refs);
                x->i++;
                if (x->depth >= EXPR_DEPTH_MAX)
                        return syn(x, "expression nests too deeply");
                x->depth++;
                if (!unary(x, out) || !commit_ref(x, out))
                        return false;
                x->depth--;
                no_flow(x, first);
                out->is_ref = false;
                return true;
        }
        return postfix(x, out);
}

/* One level of binary operators; flow says whether the operands can be the result (&& ||). */
typedef bool (*level_fn)(xp *x, val *out);

static bool binary(xp *x, val *out, level_fn next, const char *const *ops, bool flow)
{
        size_t first = json_array_size(x->refs);
        bool any = false;

        if (!next(x, out))
                return false;
        for (;;) {
                size_t j;
                val rhs;
                for (j = 0; ops[j] != NULL; j++) {
                        /* "<" must not take the first byte of "<=", nor "=" stand alone */
                        if (at(x, ops[j]))
                                break;
                }
                if (ops[j] == NULL)
                        break;
                x->i += strlen(ops[j]);
                if (!commit_ref(x, out))
                        return false;
                if (!next(x, &rhs) || !commit_ref(x, &rhs))
                        return false;
                any = true;
        }
        if (any) {
                out->is_ref = false;
                if (!flow)
                        no_flow(x, first);
        }
        return true;
}

static bool parse_cmp(xp *x, val *out)
{
        static const char *const ops[] = { "<=", ">=", "<", ">", NULL };
        return binary(x, out, unary, ops, false);
}

static bool parse_eq(xp *x, val *out)
{
        static const char *const ops[] = { "==", "!=", NULL };
        return binary(x, out, parse_cmp, ops, false);
}

static bool parse_and(xp *x, val *out)
{
        static const char *const ops[] = { "&&", NULL };
        return binary(x, out, parse_eq, ops, true);
}

static bool parse_or(xp *x, val *out)
{
        static const char *const ops[] = { "||", NULL };
        bool ok;

        if (x->depth >= EXPR_DEPTH_MAX)
                return syn(x, "expression nests too deeply");
        x->depth++;
        ok = binary(x, out, parse_and, ops, true);
        x->depth--;
        return ok;
}

bool prc_gha_expr_parse(const char *s, size_t n, json_t *refs, json_t *funcs, char *why, size_t whylen,
                        prc_err *err)
{
        xp x = { .s = s, .n = n, .refs = refs, .funcs = funcs, .why = why, .whylen = whylen, .err = err };
        val *v = malloc(sizeof(*v));
        bool ok;

        why[0] = '\0';
        if (v == NULL) {
                snprintf(why, whylen, "out of memory");
                return prc_err_oom(err, "an expression");
        }
        ws(&x);
        if (x.i == x.n) {
                free(v);
                snprintf(why, whylen, "empty expression");
                return false;
        }
        ok = parse_or(&x, v) && commit_ref(&x, v);
        if (ok) {
                ws(&x);
                if (x.i != x.n)
                        ok = syn(&x, "unexpected text after the expression");
        }
        free(v);
        return ok && !x.bad;
}
