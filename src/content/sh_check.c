/*
 * sh_check.c - the client's check of the shell tokenizer's documents (see
 * sh_check.h).
 * Trust: parent-side.  Reads hostile worker output; builds nothing from it.
 */
#include "content/sh_check.h"

#include <stdio.h>
#include <string.h>

#include "base/compiler.h"
#include "content/parsers/shell.h"

struct chk {
        prc_err *err;
        bool     implied;       /* prc_sh_check_tokens: the format key is implied, not read */
        char     ptr[128];
};

static bool bad(struct chk *c, const char *what)
{
        prc_err_set(c->err, PRC_E_TOKENS_INVALID, "the worker's token document is malformed at %s: %s", c->ptr, what);
        snprintf(c->err->ptr, sizeof(c->err->ptr), "%s", c->ptr);
        return false;
}

static bool is_line(const json_t *v)
{
        return json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= UINT32_MAX;
}

static bool str_array(const json_t *v)
{
        size_t i;
        json_t *x;

        if (!json_is_array(v))
                return false;
        json_array_foreach(v, i, x)
                if (!json_is_string(x))
                        return false;
        return true;
}

/* Only the listed keys; required ones present. */
static bool keys_ok(struct chk *c, const json_t *o, const char *const *keys, const char *const *required)
{
        const char *k;
        json_t *v;

        if (!json_is_object(o))
                return bad(c, "not an object");
        json_object_foreach((json_t *)o, k, v) {
                size_t i = 0;
                (void)v;
                while (keys[i] != NULL && (keys[i][0] != k[0] || strcmp(keys[i], k) != 0))
                        i++;
                if (keys[i] == NULL)
                        return bad(c, "unknown key");
        }
        for (size_t i = 0; required[i] != NULL; i++)
                if (json_object_get(o, required[i]) == NULL)
                        return bad(c, "a required key is missing");
        return true;
}

static bool lines_ok(struct chk *c, const json_t *lines, unsigned depth)
{
        static const char *const keys[] = { "line", "tokens", "heredocs", "subst", NULL };
        static const char *const req[] = { "line", "tokens", NULL };
        size_t i;
        json_t *l;

        if (depth > PRC_SHELL_SUBST_DEPTH)
                return bad(c, "substitutions nest too deep");
        if (!json_is_array(lines))
                return bad(c, "lines are not an array");
        json_array_foreach(lines, i, l) {
                const json_t *h = json_object_get(l, "heredocs"), *s = json_object_get(l, "subst");
                if (!keys_ok(c, l, keys, req))
                        return false;
                if (!is_line(json_object_get(l, "line")) || !str_array(json_object_get(l, "tokens")) ||
                    (h != NULL && !str_array(h)))
                        return bad(c, "a line's fields have the wrong type");
                if (s != NULL && !lines_ok(c, s, depth + 1))
                        return false;
        }
        return true;
}

static bool errors_ok(struct chk *c, const json_t *doc)
{
        static const char *const keys[] = { "class", "line", "message", NULL };
        const json_t *e = json_object_get(doc, "errors"), *d = json_object_get(doc, "errors_dropped");
        size_t i;
        json_t *x;

        if (d != NULL && (!json_is_integer(d) || json_integer_value(d) < 1))
                return bad(c, "errors_dropped is not a positive integer");
        if (e == NULL)
                return d == NULL || bad(c, "errors_dropped without errors");
        if (!json_is_array(e) || json_array_size(e) == 0)
                return bad(c, "errors is not a non-empty array");
        json_array_foreach(e, i, x) {
                if (!keys_ok(c, x, keys, keys) || !json_is_string(json_object_get(x, "class")) ||
                    !is_line(json_object_get(x, "line")) || !json_is_string(json_object_get(x, "message")))
                        return bad(c, "an error entry has the wrong shape");
        }
        return true;
}

static bool pkgbuild_ok(struct chk *c, const json_t *doc)
{
        static const char *const dkeys[] = { "format", "assignments", "functions", "commands", "errors",
                                             "errors_dropped", NULL };
        static const char *const dreq[] = { "format", "assignments", "functions", "commands", NULL };
        static const char *const akeys[] = { "name", "line", "array", "append", "conditional", "raw", "static",
                                             "value", "dynamic", "recovered", "subst", NULL };
        static const char *const areq[] = { "name", "line", "array", "append", "conditional", "raw", "static", NULL };
        static const char *const fkeys[] = { "name", "line", "body", "recovered", NULL };
        static const char *const freq[] = { "name", "line", "body", NULL };
        static const char *const ckeys[] = { "line", "body", "recovered", NULL };
        static const char *const creq[] = { "line", "body", NULL };
        size_t i;
        json_t *x;

        /* dreq[0] is "format": a run:'s or RUN's tokens have none, it is implied. */
        if (!keys_ok(c, doc, dkeys, c->implied ? dreq + 1 : dreq) || !errors_ok(c, doc))
                return false;
        if (!json_is_array(json_object_get(doc, "assignments")) || !json_is_array(json_object_get(doc, "functions")) ||
            !json_is_array(json_object_get(doc, "commands")))
                return bad(c, "assignments, functions and commands must be arrays");
        json_array_foreach(json_object_get(doc, "assignments"), i, x) {
                const json_t *v = json_object_get(x, "value"), *st, *dy = json_object_get(x, "dynamic"),
                             *su = json_object_get(x, "subst"), *rc = json_object_get(x, "recovered");
                snprintf(c->ptr, sizeof(c->ptr), "/assignments/%zu", i);
                if (!keys_ok(c, x, akeys, areq))
                        return false;
                st = json_object_get(x, "static");
                if (!json_is_string(json_object_get(x, "name")) || !is_line(json_object_get(x, "line")) ||
                    !json_is_boolean(json_object_get(x, "array")) || !json_is_boolean(json_object_get(x, "append")) ||
                    !json_is_boolean(json_object_get(x, "conditional")) || !json_is_boolean(st) ||
                    !str_array(json_object_get(x, "raw")) || (rc != NULL && !json_is_true(rc)))
                        return bad(c, "an assignment's fields have the wrong type");
                if (json_is_true(st) != (v != NULL) || (v != NULL && !json_is_string(v) && !str_array(v)) ||
                    (dy != NULL && (json_is_true(st) || !str_array(dy))))
                        return bad(c, "value is present exactly when static, a string or strings");
                if (v != NULL && json_is_true(json_object_get(x, "array")) != json_is_array(v))
                        return bad(c, "an array assignment's value is not an array");
                if (su != NULL && !lines_ok(c, su, 1))
                        return false;
        }
        json_array_foreach(json_object_get(doc, "functions"), i, x) {
                const json_t *rc = json_object_get(x, "recovered");
                snprintf(c->ptr, sizeof(c->ptr), "/functions/%zu", i);
                if (!keys_ok(c, x, fkeys, freq))
                        return false;
                if (!json_is_string(json_object_get(x, "name")) || !is_line(json_object_get(x, "line")) ||
                    (rc != NULL && !json_is_true(rc)))
                        return bad(c, "a function's fields have the wrong type");
                if (!lines_ok(c, json_object_get(x, "body"), 0))
                        return false;
        }
        json_array_foreach(json_object_get(doc, "commands"), i, x) {
                const json_t *rc = json_object_get(x, "recovered");
                snprintf(c->ptr, sizeof(c->ptr), "/commands/%zu", i);
                if (!keys_ok(c, x, ckeys, creq))
                        return false;
                if (!is_line(json_object_get(x, "line")) || (rc != NULL && !json_is_true(rc)))
                        return bad(c, "a command's fields have the wrong type");
                if (!lines_ok(c, json_object_get(x, "body"), 0))
                        return false;
        }
        return true;
}

static bool section_ok(struct chk *c, const json_t *s)
{
        static const char *const keys[] = { "name", "line", "fields", NULL };
        const char *k;
        json_t *v;

        if (!keys_ok(c, s, keys, keys) || !json_is_string(json_object_get(s, "name")) ||
            !is_line(json_object_get(s, "line")) || !json_is_object(json_object_get(s, "fields")))
                return bad(c, "a section has the wrong shape");
        json_object_foreach(json_object_get(s, "fields"), k, v) {
                (void)k;
                if (!str_array(v) || json_array_size(v) == 0)
                        return bad(c, "a field is not a non-empty array of strings");
        }
        return true;
}

static bool srcinfo_ok(struct chk *c, const json_t *doc)
{
        static const char *const keys[] = { "format", "pkgbase", "packages", "errors", "errors_dropped", NULL };
        static const char *const req[] = { "format", "packages", NULL };
        const json_t *base = json_object_get(doc, "pkgbase");
        size_t i;
        json_t *x;

        if (!keys_ok(c, doc, keys, req) || !errors_ok(c, doc))
                return false;
        if (base == NULL && json_object_get(doc, "errors") == NULL)
                return bad(c, "no pkgbase and no error saying why");
        snprintf(c->ptr, sizeof(c->ptr), "/pkgbase");
        if (base != NULL && !section_ok(c, base))
                return false;
        if (!json_is_array(json_object_get(doc, "packages")))
                return bad(c, "packages is not an array");
        json_array_foreach(json_object_get(doc, "packages"), i, x) {
                snprintf(c->ptr, sizeof(c->ptr), "/packages/%zu", i);
                if (!section_ok(c, x))
                        return false;
        }
        return true;
}

bool prc_sh_check(const json_t *doc, bool srcinfo, prc_err *err)
{
        struct chk c = { .err = err, .ptr = "" };
        const char *f = json_string_value(json_object_get(doc, "format"));

        if (!json_is_object(doc) || f == NULL || strcmp(f, srcinfo ? "srcinfo" : "pkgbuild") != 0)
                return bad(&c, "not a document of the expected format");
        return srcinfo ? srcinfo_ok(&c, doc) : pkgbuild_ok(&c, doc);
}

bool prc_sh_check_tokens(const json_t *tokens, prc_err *err)
{
        struct chk c = { .err = err, .implied = true, .ptr = "" };
        json_t *empty;
        bool ok;

        if (json_is_object(tokens))
                return pkgbuild_ok(&c, tokens);
        empty = json_object();
        if (empty == NULL)
                return prc_err_oom(err, "a token document");
        ok = pkgbuild_ok(&c, empty);
        json_decref(empty);
        return ok;
}
