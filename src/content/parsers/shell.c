/*
 * shell.c - PKGBUILD tokenizer with bounded static expansion, and the
 * .SRCINFO reader (contract and shapes: shell.h).
 * Trust: input is hostile; runs only inside the content worker.  Nothing is
 * executed, globbed or looked up outside the file: command substitution,
 * arithmetic, unknown variables and the like make a value "dynamic".
 * Errors: the shell-* and srcinfo-* classes and the base limit classes.
 */
#include "content/parsers/shell.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"

struct sh {
        const uint8_t    *p;
        size_t            n, i;
        uint32_t          line;
        size_t            line_start;   /* offset of the current line, for columns */
        const prc_limits *lim;
        prc_err          *err;
        uint32_t          depth_max;
        uint64_t          out_bytes, out_max;
        uint32_t          expansions;
        uint32_t          nodes;
        uint64_t          cost, budget; /* estimated heap bytes of the document, and its cap */
        json_t           *vars;         /* name -> string | array | null (dynamic) */
        json_t           *doc;
        /* Here-documents announced on the current line, read at its end. */
        struct hd {
                char    *delim;         /* owned */
                bool     strip_tabs;
                uint32_t line;
        } hd[16];
        unsigned          nhd;
        prc_err           scratch;      /* for buffer calls; only read after one fails (the parse ends) */
        json_t           *sink;         /* borrowed: line array of the open stream, or NULL */
        json_t           *cur_line;     /* borrowed: the open logical line in sink, or NULL */
        /*
         * Command and process substitutions met while scanning the current
         * word (when rec is set): their bodies are tokenized after the word,
         * so that analyses see the commands inside "$(curl ... | sh)".
         */
        struct ext {
                size_t   start, end;    /* body offsets in p */
                uint32_t line;
        } ext[PRC_SHELL_SUBST_MAX];
        unsigned          next;
        bool              rec;          /* record substitution extents */
        bool              frag;         /* tokenizing a substitution body: every statement is tokens */
        unsigned          subst_depth;  /* substitution bodies this run is nested in */
        bool              recovering;   /* streams and assignments opened from here on are "recovered" */
        bool              recover;      /* PRC_SHELL_RECOVER */
        json_t           *errors;       /* owned: recovered errors, or NULL */
};

/* The value of one word being scanned. */
struct wv {
        prc_buf val;    /* expanded bytes */
        prc_buf meta;   /* per byte of val: 1 when it is an unquoted brace metacharacter */
        bool    stat;   /* expansion is static */
        bool    glob;   /* an unquoted glob character */
        bool    discard; /* only the word's extent matters (tokens): keep no bytes */
        json_t *why;    /* owned: reasons it is not static (strings), at most 8 */
};

PRC_PRINTF(3, 4) static bool fail(struct sh *s, prc_errclass cls, const char *fmt, ...)
{
        char msg[200];
        va_list ap;

        if (prc_err_is_set(s->err))
                return false;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_at(s->err, cls, s->i, "%s", msg);
        prc_err_set_line(s->err, s->line, (uint32_t)(s->i - s->line_start + 1));
        return false;
}

static bool oom(struct sh *s)
{
        return fail(s, PRC_E_OUT_OF_MEMORY, "out of memory while tokenizing");
}

/* Recovery: list an error the document carries instead of refusing (shell.h, "Recovery"). */
static bool note_error(struct sh *s, prc_errclass cls, uint32_t line, const char *msg)
{
        json_t *e;

        if (s->errors == NULL) {
                s->errors = json_pack("{s:[],s:I}", "list", "dropped", (json_int_t)0);
                if (s->errors == NULL)
                        return oom(s);
        }
        if (json_array_size(json_object_get(s->errors, "list")) >= PRC_SHELL_ERRORS_MAX) {
                json_object_set_new(s->errors, "dropped",
                                    json_integer(json_integer_value(json_object_get(s->errors, "dropped")) + 1));
                return true;
        }
        e = json_pack("{s:s,s:I,s:s}", "class", prc_err_name(cls), "line", (json_int_t)line, "message", msg);
        if (e == NULL || json_array_append_new(json_object_get(s->errors, "list"), e) != 0)
                return oom(s);
        return true;
}

/* Charge the estimated heap cost of new document values; false past the budget. */
static bool charge(struct sh *s, uint64_t bytes)
{
        s->cost += bytes;
        if (s->cost <= s->budget)
                return true;
        return fail(s, PRC_E_NODES_LIMIT, "document would exceed %" PRIu64 " bytes (%d x the input + %d MiB)",
                    s->budget, PRC_SHELL_TREE_FACTOR, PRC_SHELL_TREE_FLOOR >> 20);
}

static void wv_init(struct sh *s, struct wv *w)
{
        prc_buf_init(&w->val, s->lim->scalar_max);
        prc_buf_init(&w->meta, s->lim->scalar_max);
        w->stat = true;
        w->glob = false;
        w->discard = false;
        w->why = NULL;
}

static void wv_clear(struct wv *w)
{
        prc_buf_clear(&w->val);
        prc_buf_clear(&w->meta);
        json_decref(w->why);
        w->why = NULL;
}

static bool dyn(struct sh *s, struct wv *w, const char *why, const char *name, size_t nlen)
{
        char buf[96];
        json_t *r;

        w->stat = false;
        if (w->why == NULL) {
                w->why = json_array();
                if (w->why == NULL)
                        return oom(s);
        }
        if (json_array_size(w->why) >= 8)
                return true;
        if (name != NULL)
                snprintf(buf, sizeof(buf), "%s:%.*s", why, (int)(nlen > 64 ? 64 : nlen), name);
        else
                snprintf(buf, sizeof(buf), "%s", why);
        for (size_t k = 0; k < json_array_size(w->why); k++)
                if (strcmp(json_string_value(json_array_get(w->why, k)), buf) == 0)
                        return true;
        r = json_string(buf);
        if (r == NULL || json_array_append_new(w->why, r) != 0)
                return oom(s);
        return true;
}

static bool merge_why(struct sh *s, struct wv *dst, const struct wv *src)
{
        if (src->stat)
                return true;
        dst->stat = false;
        for (size_t k = 0; src->why != NULL && k < json_array_size(src->why); k++) {
                const char *r = json_string_value(json_array_get(src->why, k));
                if (!dyn(s, dst, r, NULL, 0))
                        return false;
        }
        if (src->why == NULL)
                return dyn(s, dst, "dynamic", NULL, 0);
        return true;
}

static bool put(struct sh *s, struct wv *w, const void *p, size_t n, uint8_t meta)
{
        /* Hot path (one call per byte of every word): no error record is initialized here. */
        if (n == 0 || w->discard)
                return true;
        if (!prc_buf_put(&w->val, p, n, &s->scratch))
                return fail(s, s->scratch.cls == PRC_E_BUFFER_LIMIT ? PRC_E_SCALAR_LIMIT : PRC_E_OUT_OF_MEMORY,
                            "a value is longer than %zu bytes", s->lim->scalar_max);
        if (n == 1) {
                if (!prc_buf_putc(&w->meta, meta, &s->scratch))
                        return oom(s);
                return true;
        }
        if (!prc_buf_reserve(&w->meta, n, &s->scratch))
                return oom(s);
        memset(w->meta.data + w->meta.len, meta, n);
        w->meta.len += n;
        if (w->meta.cap > w->meta.len)
                w->meta.data[w->meta.len] = 0;
        return true;
}

static bool count_expansion(struct sh *s)
{
        if (++s->expansions > PRC_SHELL_EXPANSIONS_MAX)
                return fail(s, PRC_E_SHELL_EXPANSION_LIMIT, "more than %d expansions", PRC_SHELL_EXPANSIONS_MAX);
        return true;
}

/* Remember a substitution body [start, end) of the word being scanned (see struct sh). */
static bool note_subst(struct sh *s, size_t start, size_t end, uint32_t line)
{
        if (!s->rec)
                return true;
        if (s->next >= PRC_SHELL_SUBST_MAX)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "more than %d substitutions in one word",
                            PRC_SHELL_SUBST_MAX);
        s->ext[s->next].start = start;
        s->ext[s->next].end = end;
        s->ext[s->next].line = line;
        s->next++;
        return true;
}

static inline int peek(const struct sh *s, size_t k)
{
        return s->i + k < s->n ? s->p[s->i + k] : -1;
}

static inline void adv(struct sh *s)
{
        if (s->p[s->i] == '\n') {
                s->line++;
                s->line_start = s->i + 1;
        }
        s->i++;
}

static bool is_name_start(int c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(int c)
{
        return is_name_start(c) || (c >= '0' && c <= '9');
}

static bool is_meta(int c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' ||
               c == '<' || c == '>';
}

/*
 * Skip a balanced construct opened just before s->i (after "$(" / "$((" /
 * "<(" / "${"): quotes, escapes and nested openers are honoured.
 */
static bool skip_balanced(struct sh *s, int open, int close, uint32_t depth, uint32_t line0)
{
        uint32_t level = 1;

        if (depth >= s->depth_max)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "substitutions nest deeper than %" PRIu32, s->depth_max);
        while (s->i < s->n) {
                int c = s->p[s->i];
                if (c == '\\') {
                        adv(s);
                        if (s->i < s->n)
                                adv(s);
                        continue;
                }
                if (c == '\'') {
                        adv(s);
                        while (s->i < s->n && s->p[s->i] != '\'')
                                adv(s);
                        if (s->i >= s->n)
                                break;
                        adv(s);
                        continue;
                }
                if (c == '"') {
                        adv(s);
                        while (s->i < s->n && s->p[s->i] != '"') {
                                if (s->p[s->i] == '\\' && s->i + 1 < s->n)
                                        adv(s);
                                else if (s->p[s->i] == '$' && (peek(s, 1) == '(' || peek(s, 1) == '{')) {
                                        int o = peek(s, 1);
                                        adv(s);
                                        adv(s);
                                        if (!skip_balanced(s, o, o == '(' ? ')' : '}', depth + 1, s->line))
                                                return false;
                                        continue;
                                }
                                adv(s);
                        }
                        if (s->i >= s->n)
                                break;
                        adv(s);
                        continue;
                }
                if (c == '`') {
                        adv(s);
                        while (s->i < s->n && s->p[s->i] != '`') {
                                if (s->p[s->i] == '\\' && s->i + 1 < s->n)
                                        adv(s);
                                adv(s);
                        }
                        if (s->i >= s->n)
                                break;
                        adv(s);
                        continue;
                }
                if (c == '$' && (peek(s, 1) == '(' || peek(s, 1) == '{')) {
                        int o = peek(s, 1);
                        adv(s);
                        adv(s);
                        if (!skip_balanced(s, o, o == '(' ? ')' : '}', depth + 1, s->line))
                                return false;
                        continue;
                }
                if (c == open) {
                        if (++level > s->depth_max)
                                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "parentheses nest deeper than %" PRIu32,
                                            s->depth_max);
                } else if (c == close) {
                        if (--level == 0) {
                                adv(s);
                                return true;
                        }
                }
                adv(s);
        }
        s->line = line0;
        return fail(s, PRC_E_SHELL_UNTERMINATED, "'%c' opened on line %" PRIu32 " is not closed", open, line0);
}

/* Terminator sets for words inside ${...}. */
enum { T_WORD = 0, T_BRACE = 1, T_SLASH_BRACE = 2 };

static bool scan_parts(struct sh *s, struct wv *w, int term, bool in_dq, uint32_t depth);

static bool lookup(struct sh *s, struct wv *w, const char *name, size_t nlen, const char **out, size_t *out_len)
{
        char key[256];
        json_t *v;

        *out = NULL;
        if (nlen >= sizeof(key))
                return dyn(s, w, "unknown-variable", name, nlen);
        memcpy(key, name, nlen);
        key[nlen] = 0;
        v = json_object_get(s->vars, key);
        if (v == NULL)
                return dyn(s, w, "unknown-variable", name, nlen);
        if (json_is_array(v)) {
                /* $arr is its first element in bash. */
                v = json_array_get(v, 0);
                if (v == NULL) {
                        *out = "";
                        *out_len = 0;
                        return true;
                }
        }
        if (!json_is_string(v))
                return dyn(s, w, "dynamic-variable", name, nlen);
        *out = json_string_value(v);
        *out_len = json_string_length(v);
        return true;
}

static bool has_glob(const uint8_t *p, size_t n)
{
        for (size_t k = 0; k < n; k++)
                if (p[k] == '*' || p[k] == '?' || p[k] == '[')
                        return true;
        return false;
}

/* Replace literal pat in v (first or all), or strip a literal prefix/suffix. */
static bool apply_pattern(struct sh *s, struct wv *w, const char *v, size_t vl, const char *op, const struct wv *pat,
                          const struct wv *rep)
{
        const char *pp = (const char *)pat->val.data;
        size_t pl = pat->val.len;

        if (pl == 0)
                pp = "";
        if (op[0] == '#' || op[0] == '%') {
                if (pl <= vl && op[0] == '#' && memcmp(v, pp, pl) == 0)
                        return put(s, w, v + pl, vl - pl, 0);
                if (pl <= vl && op[0] == '%' && memcmp(v + vl - pl, pp, pl) == 0)
                        return put(s, w, v, vl - pl, 0);
                return put(s, w, v, vl, 0);
        }
        /* "/" or "//" */
        if (pl == 0)
                return put(s, w, v, vl, 0);
        for (size_t k = 0; k < vl;) {
                if (k + pl <= vl && memcmp(v + k, pp, pl) == 0) {
                        if (rep != NULL && !put(s, w, rep->val.data, rep->val.len, 0))
                                return false;
                        k += pl;
                        if (op[1] != '/') {
                                return put(s, w, v + k, vl - k, 0);
                        }
                        if (!count_expansion(s))
                                return false;
                        continue;
                }
                if (!put(s, w, v + k, 1, 0))
                        return false;
                k++;
        }
        return true;
}

/* ${...}: s->i is just after "${". */
static bool param_expansion(struct sh *s, struct wv *w, bool in_dq, uint32_t depth)
{
        uint32_t line0 = s->line;
        size_t ns, nl;
        bool length = false;
        const char *v;
        size_t vl;
        char op[3] = { 0 };
        struct wv a1, a2;
        bool ok = false, have2 = false;

        if (depth >= s->depth_max)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "expansions nest deeper than %" PRIu32, s->depth_max);
        if (peek(s, 0) == '!') {
                if (!dyn(s, w, "indirect-expansion", NULL, 0))
                        return false;
                return skip_balanced(s, '{', '}', depth, line0);
        }
        if (peek(s, 0) == '#' && peek(s, 1) != '}') {
                length = true;
                adv(s);
        }
        ns = s->i;
        if (is_name_start(peek(s, 0))) {
                while (is_name_char(peek(s, 0)))
                        adv(s);
        } else if (peek(s, 0) >= '0' && peek(s, 0) <= '9') {
                while (peek(s, 0) >= '0' && peek(s, 0) <= '9')
                        adv(s);
        } else if (peek(s, 0) != -1 && strchr("@*#?$!-", peek(s, 0)) != NULL) {
                adv(s);
        } else {
                /* bash reports "bad substitution" only when it runs the line: never evaluated here. */
                if (!dyn(s, w, "unsupported-expansion", NULL, 0))
                        return false;
                return skip_balanced(s, '{', '}', depth, line0);
        }
        nl = s->i - ns;
        if (peek(s, 0) == '[') {
                /* Arrays subscripts are not evaluated; the value is dynamic. */
                if (!dyn(s, w, "array-expansion", (const char *)s->p + ns, nl))
                        return false;
                return skip_balanced(s, '{', '}', depth, line0);
        }
        if (!is_name_start(s->p[ns]))
                return dyn(s, w, "special-parameter", (const char *)s->p + ns, nl) &&
                       skip_balanced(s, '{', '}', depth, line0);
        if (length) {
                if (peek(s, 0) != '}')
                        return dyn(s, w, "unsupported-expansion", (const char *)s->p + ns, nl) &&
                               skip_balanced(s, '{', '}', depth, line0);
                adv(s);
                if (!lookup(s, w, (const char *)s->p + ns, nl, &v, &vl))
                        return false;
                if (v != NULL) {
                        char num[32];
                        size_t cps = 0;
                        for (size_t k = 0; k < vl; k++)
                                cps += ((uint8_t)v[k] & 0xC0) != 0x80;
                        snprintf(num, sizeof(num), "%zu", cps);
                        return put(s, w, num, strlen(num), 0);
                }
                return true;
        }
        if (peek(s, 0) == '}') {
                adv(s);
                if (!lookup(s, w, (const char *)s->p + ns, nl, &v, &vl))
                        return false;
                return v == NULL || put(s, w, v, vl, 0);
        }
        /* The operator. */
        {
                int c0 = peek(s, 0), c1 = peek(s, 1);
                if (c0 == ':' && c1 != -1 && strchr("-=+?", c1) != NULL) {
                        op[0] = ':';
                        op[1] = (char)c1;
                        adv(s);
                        adv(s);
                } else if (c0 != -1 && strchr("-=+?", c0) != NULL) {
                        op[0] = (char)c0;
                        adv(s);
                } else if (c0 == '/' || c0 == '#' || c0 == '%') {
                        op[0] = (char)c0;
                        adv(s);
                        if (peek(s, 0) == c0 || (c0 == '/' && (peek(s, 0) == '#' || peek(s, 0) == '%'))) {
                                op[1] = (char)peek(s, 0);
                                adv(s);
                        }
                } else {
                        /* Substrings, case changes, transformations: never evaluated. */
                        if (!dyn(s, w, "unsupported-expansion", (const char *)s->p + ns, nl))
                                return false;
                        return skip_balanced(s, '{', '}', depth, line0);
                }
        }
        wv_init(s, &a1);
        wv_init(s, &a2);
        if (!count_expansion(s))
                goto out;
        if (op[0] == '/') {
                if (!scan_parts(s, &a1, T_SLASH_BRACE, in_dq, depth + 1))
                        goto out;
                if (peek(s, 0) == '/') {
                        adv(s);
                        have2 = true;
                        if (!scan_parts(s, &a2, T_BRACE, in_dq, depth + 1))
                                goto out;
                }
        } else if (!scan_parts(s, &a1, T_BRACE, in_dq, depth + 1)) {
                goto out;
        }
        if (peek(s, 0) != '}') {
                s->line = line0;
                fail(s, PRC_E_SHELL_UNTERMINATED, "'${' opened on line %" PRIu32 " is not closed", line0);
                goto out;
        }
        adv(s);
        if (op[0] == '=' || op[1] == '=' || op[0] == '?' || op[1] == '?') {
                ok = dyn(s, w, "assigning-expansion", (const char *)s->p + ns, nl);
                goto out;
        }
        if (!lookup(s, w, (const char *)s->p + ns, nl, &v, &vl))
                goto out;
        if (v == NULL) {
                ok = true;
                goto out;
        }
        if (op[0] == '-' || op[1] == '-') {
                bool use_default = op[0] == ':' && vl == 0;
                ok = use_default ? merge_why(s, w, &a1) && put(s, w, a1.val.data, a1.val.len, 0)
                                 : put(s, w, v, vl, 0);
                goto out;
        }
        if (op[0] == '+' || op[1] == '+') {
                bool use_alt = op[0] == '+' || vl > 0;
                ok = !use_alt || (merge_why(s, w, &a1) && put(s, w, a1.val.data, a1.val.len, 0));
                goto out;
        }
        /* Patterns: only literal ones are evaluated. */
        if (!a1.stat || a1.glob || has_glob(a1.val.data, a1.val.len) || (op[0] == '/' && op[1] != 0 && op[1] != '/') ||
            (have2 && !a2.stat)) {
                ok = dyn(s, w, "pattern", (const char *)s->p + ns, nl);
                goto out;
        }
        ok = apply_pattern(s, w, v, vl, op, &a1, have2 ? &a2 : NULL);
out:
        wv_clear(&a1);
        wv_clear(&a2);
        return ok;
}

/* One "$..." construct; s->i is at the '$'. */
static bool dollar(struct sh *s, struct wv *w, bool in_dq, uint32_t depth)
{
        int c = peek(s, 1);
        uint32_t line0 = s->line;

        if (c == '(') {
                bool arith = peek(s, 2) == '(';
                size_t body;
                adv(s);
                adv(s);
                body = s->i;
                if (!dyn(s, w, arith ? "arithmetic" : "command-substitution", NULL, 0))
                        return false;
                if (!skip_balanced(s, '(', ')', depth, line0))
                        return false;
                return arith || note_subst(s, body, s->i - 1, line0);
        }
        if (c == '{') {
                adv(s);
                adv(s);
                return param_expansion(s, w, in_dq, depth);
        }
        if (is_name_start(c)) {
                size_t ns;
                const char *v;
                size_t vl;
                adv(s);
                ns = s->i;
                while (is_name_char(peek(s, 0)))
                        adv(s);
                if (!count_expansion(s) || !lookup(s, w, (const char *)s->p + ns, s->i - ns, &v, &vl))
                        return false;
                return v == NULL || put(s, w, v, vl, 0);
        }
        if (c != -1 && ((c >= '0' && c <= '9') || strchr("@*#?$!-", c) != NULL)) {
                adv(s);
                adv(s);
                return dyn(s, w, "special-parameter", (const char *)s->p + s->i - 1, 1);
        }
        if (c == '\'' && !in_dq) {
                /* ANSI-C quoting is never decoded: its escapes hide NUL, ESC and bidi controls. */
                adv(s);
                adv(s);
                while (s->i < s->n && s->p[s->i] != '\'') {
                        if (s->p[s->i] == '\\' && s->i + 1 < s->n)
                                adv(s);
                        adv(s);
                }
                if (s->i >= s->n) {
                        s->line = line0;
                        return fail(s, PRC_E_SHELL_UNTERMINATED, "$' opened on line %" PRIu32 " is not closed",
                                    line0);
                }
                adv(s);
                return dyn(s, w, "ansi-c-quoting", NULL, 0);
        }
        if (c == '"' && !in_dq) {
                /* $"..." (locale translation) reads as "...". */
                adv(s);
                return true;
        }
        adv(s);
        return put(s, w, "$", 1, 0);
}

static bool dquote(struct sh *s, struct wv *w, uint32_t depth)
{
        uint32_t line0 = s->line;

        adv(s); /* the opening quote */
        while (s->i < s->n) {
                int c = s->p[s->i];
                if (c == '"') {
                        adv(s);
                        return true;
                }
                if (c == '\\') {
                        int d = peek(s, 1);
                        if (d == '\n') {
                                adv(s);
                                adv(s);
                                continue;
                        }
                        if (d == '$' || d == '`' || d == '"' || d == '\\') {
                                adv(s);
                                if (!put(s, w, s->p + s->i, 1, 0))
                                        return false;
                                adv(s);
                                continue;
                        }
                        if (!put(s, w, "\\", 1, 0))
                                return false;
                        adv(s);
                        continue;
                }
                if (c == '$') {
                        if (!dollar(s, w, true, depth))
                                return false;
                        continue;
                }
                if (c == '`') {
                        size_t body;
                        uint32_t bl = s->line;
                        adv(s);
                        body = s->i;
                        while (s->i < s->n && s->p[s->i] != '`') {
                                if (s->p[s->i] == '\\' && s->i + 1 < s->n)
                                        adv(s);
                                adv(s);
                        }
                        if (s->i >= s->n)
                                break;
                        if (!note_subst(s, body, s->i, bl))
                                return false;
                        adv(s);
                        if (!dyn(s, w, "command-substitution", NULL, 0))
                                return false;
                        continue;
                }
                if (!put(s, w, s->p + s->i, 1, 0))
                        return false;
                adv(s);
        }
        s->line = line0;
        return fail(s, PRC_E_SHELL_UNTERMINATED, "double quote opened on line %" PRIu32 " is not closed", line0);
}

/*
 * Scan one word (or a word inside ${...}) up to a terminator, filling w.
 * term: T_WORD stops at shell metacharacters; T_BRACE at an unquoted '}';
 * T_SLASH_BRACE at '/' or '}'.
 */
static bool scan_parts(struct sh *s, struct wv *w, int term, bool in_dq, uint32_t depth)
{
        size_t start = s->i;
        uint32_t braces = 0;

        if (depth >= s->depth_max)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "expansions nest deeper than %" PRIu32, s->depth_max);
        while (s->i < s->n) {
                int c = s->p[s->i];
                uint32_t line0 = s->line;

                if (term == T_WORD && (c == '<' || c == '>') && peek(s, 1) == '(') {
                        size_t body;
                        adv(s);
                        adv(s);
                        body = s->i;
                        if (!dyn(s, w, "process-substitution", NULL, 0) || !skip_balanced(s, '(', ')', depth, line0) ||
                            !note_subst(s, body, s->i - 1, line0))
                                return false;
                        continue;
                }
                if (term == T_WORD && is_meta(c))
                        break;
                if (term != T_WORD && c == '}' && braces == 0)
                        break;
                if (term == T_SLASH_BRACE && c == '/')
                        break;
                switch (c) {
                case '\\':
                        if (peek(s, 1) == '\n') {
                                adv(s);
                                adv(s);
                                continue;
                        }
                        adv(s);
                        if (s->i < s->n) {
                                if (!put(s, w, s->p + s->i, 1, 0))
                                        return false;
                                adv(s);
                        }
                        continue;
                case '\'':
                        if (in_dq) {
                                /* Inside "${x:-'y'}" a single quote is literal. */
                                break;
                        }
                        adv(s);
                        while (s->i < s->n && s->p[s->i] != '\'') {
                                if (!put(s, w, s->p + s->i, 1, 0))
                                        return false;
                                adv(s);
                        }
                        if (s->i >= s->n) {
                                s->line = line0;
                                return fail(s, PRC_E_SHELL_UNTERMINATED,
                                            "single quote opened on line %" PRIu32 " is not closed", line0);
                        }
                        adv(s);
                        continue;
                case '"':
                        if (!dquote(s, w, depth + 1))
                                return false;
                        continue;
                case '$':
                        if (!dollar(s, w, in_dq, depth + 1))
                                return false;
                        continue;
                case '`': {
                        size_t body;
                        adv(s);
                        body = s->i;
                        while (s->i < s->n && s->p[s->i] != '`') {
                                if (s->p[s->i] == '\\' && s->i + 1 < s->n)
                                        adv(s);
                                adv(s);
                        }
                        if (s->i >= s->n) {
                                s->line = line0;
                                return fail(s, PRC_E_SHELL_UNTERMINATED,
                                            "backquote opened on line %" PRIu32 " is not closed", line0);
                        }
                        if (!note_subst(s, body, s->i, line0))
                                return false;
                        adv(s);
                        if (!dyn(s, w, "command-substitution", NULL, 0))
                                return false;
                        continue;
                }
                case '~':
                        if (s->i == start && term == T_WORD && !dyn(s, w, "tilde", NULL, 0))
                                return false;
                        break;
                case '*':
                case '?':
                case '[':
                        if (!in_dq)
                                w->glob = true;
                        break;
                case '{':
                        if (term != T_WORD) {
                                braces++;
                                if (braces > s->depth_max)
                                        return fail(s, PRC_E_SHELL_NESTING_LIMIT,
                                                    "braces nest deeper than %" PRIu32, s->depth_max);
                        }
                        break;
                case '}':
                        if (term != T_WORD)
                                braces--;
                        break;
                default:
                        break;
                }
                if (!put(s, w, s->p + s->i, 1,
                         !in_dq && term == T_WORD && (c == '{' || c == '}' || c == ',' || c == '.')))
                        return false;
                adv(s);
        }
        return true;
}

/* --- brace expansion over (val, meta) --- */

struct bx {
        struct sh *s;
        json_t    *out;         /* array of strings */
        uint32_t   depth;
        uint32_t   produced;    /* words produced from this one source word */
};

/* Index of the '}' matching the '{' at o, and whether it has a top-level ','; SIZE_MAX if none. */
static size_t brace_match(struct sh *s, const uint8_t *v, const uint8_t *m, size_t n, size_t o, bool *comma,
                          bool *ok)
{
        uint32_t level = 0;

        *comma = false;
        *ok = true;
        for (size_t k = o; k < n; k++) {
                if (!m[k])
                        continue;
                if (v[k] == '{') {
                        if (++level > s->depth_max) {
                                *ok = fail(s, PRC_E_SHELL_NESTING_LIMIT, "braces nest deeper than %" PRIu32,
                                           s->depth_max);
                                return SIZE_MAX;
                        }
                } else if (v[k] == '}') {
                        if (--level == 0)
                                return k;
                } else if (v[k] == ',' && level == 1) {
                        *comma = true;
                }
        }
        return SIZE_MAX;
}

static bool parse_i64(const uint8_t *p, size_t n, int64_t *out)
{
        bool neg = false;
        uint64_t v = 0;
        size_t k = 0;

        if (n > 0 && (p[0] == '-' || p[0] == '+')) {
                neg = p[0] == '-';
                k = 1;
        }
        if (k >= n)
                return false;
        for (; k < n; k++) {
                if (p[k] < '0' || p[k] > '9')
                        return false;
                if (v > (UINT64_MAX - 9) / 10)
                        return false;
                v = v * 10 + (uint64_t)(p[k] - '0');
        }
        if (v > (uint64_t)INT64_MAX + (neg ? 1 : 0))
                return false;
        *out = neg ? (int64_t)(0 - v) : (int64_t)v;
        return true;
}

static bool bx_emit(struct bx *b, const uint8_t *v, size_t n)
{
        json_t *str;

        /* Every word past the first that one source word yields is an expansion. */
        if (b->produced++ >= 1 && !count_expansion(b->s))
                return false;
        b->s->out_bytes += n;
        if (b->s->out_bytes > b->s->out_max)
                return fail(b->s, PRC_E_SHELL_OUTPUT_LIMIT, "static expansion exceeds %" PRIu64 " bytes",
                            b->s->out_max);
        if (!charge(b->s, PRC_SHELL_COST_STRING + n))
                return false;
        str = json_stringn(n ? (const char *)v : "", n);
        if (str == NULL || json_array_append_new(b->out, str) != 0)
                return oom(b->s);
        return true;
}

static bool bx_expand(struct bx *b, const uint8_t *v, const uint8_t *m, size_t n);

/* Expand pre + alt + post where the pieces are slices; builds a temporary. */
static bool bx_join(struct bx *b, const uint8_t *v, const uint8_t *m, size_t pre, size_t as, size_t ae, size_t post,
                    size_t n)
{
        size_t len = pre + (ae - as) + (n - post);
        uint8_t *tv = malloc(len + 1), *tm = malloc(len + 1);
        bool ok;

        if (tv == NULL || tm == NULL) {
                free(tv);
                free(tm);
                return oom(b->s);
        }
        memcpy(tv, v, pre);
        memcpy(tm, m, pre);
        memcpy(tv + pre, v + as, ae - as);
        memcpy(tm + pre, m + as, ae - as);
        memcpy(tv + pre + (ae - as), v + post, n - post);
        memcpy(tm + pre + (ae - as), m + post, n - post);
        ok = bx_expand(b, tv, tm, len);
        free(tv);
        free(tm);
        return ok;
}

/* Sequence {a..b[..step]} of integers or single letters; false with *seq=false when not one. */
static bool bx_sequence(struct bx *b, const uint8_t *v, const uint8_t *m, size_t n, size_t o, size_t cl, bool *seq)
{
        const uint8_t *in = v + o + 1;
        size_t len = cl - o - 1, d1 = SIZE_MAX, d2 = SIZE_MAX;
        int64_t x, y, step = 1;
        bool letters = false;

        *seq = false;
        for (size_t k = 0; k + 1 < len; k++) {
                if (in[k] == '.' && in[k + 1] == '.' && m[o + 1 + k]) {
                        if (d1 == SIZE_MAX)
                                d1 = k;
                        else if (d2 == SIZE_MAX)
                                d2 = k;
                        k++;
                }
        }
        if (d1 == SIZE_MAX)
                return true;
        if (d1 == 1 && len == d1 + 3 && d2 == SIZE_MAX && is_name_start(in[0]) && is_name_start(in[d1 + 2])) {
                x = in[0];
                y = in[d1 + 2];
                letters = true;
        } else if (!parse_i64(in, d1, &x) ||
                   !parse_i64(in + d1 + 2, (d2 == SIZE_MAX ? len : d2) - d1 - 2, &y) ||
                   (d2 != SIZE_MAX && !parse_i64(in + d2 + 2, len - d2 - 2, &step))) {
                return true;
        }
        *seq = true;
        {
                /* Count first, in 128-bit arithmetic, so a huge range is refused before any work. */
                __int128 span = (__int128)y - (__int128)x;
                __int128 st = step == 0 ? 1 : (step < 0 ? -(__int128)step : (__int128)step);
                __int128 count;
                if (span < 0)
                        span = -span;
                count = span / st + 1;
                if (count > PRC_SHELL_EXPANSIONS_MAX || count + b->s->expansions > PRC_SHELL_EXPANSIONS_MAX)
                        return fail(b->s, PRC_E_SHELL_EXPANSION_LIMIT,
                                    "brace sequence expands to more than %d words", PRC_SHELL_EXPANSIONS_MAX);
                for (__int128 k = 0; k < count; k++) {
                        __int128 cur = x < y ? (__int128)x + k * st : (__int128)x - k * st;
                        char num[48];
                        if (letters) {
                                num[0] = (char)cur;
                                num[1] = 0;
                        } else {
                                snprintf(num, sizeof(num), "%" PRId64, (int64_t)cur);
                        }
                        {
                                size_t nl = strlen(num), len2 = o + nl + (n - cl - 1);
                                uint8_t *tv = malloc(len2 + 1), *tm = malloc(len2 + 1);
                                bool ok;
                                if (tv == NULL || tm == NULL) {
                                        free(tv);
                                        free(tm);
                                        return oom(b->s);
                                }
                                memcpy(tv, v, o);
                                memcpy(tm, m, o);
                                memcpy(tv + o, num, nl);
                                memset(tm + o, 0, nl);
                                memcpy(tv + o + nl, v + cl + 1, n - cl - 1);
                                memcpy(tm + o + nl, m + cl + 1, n - cl - 1);
                                ok = bx_expand(b, tv, tm, len2);
                                free(tv);
                                free(tm);
                                if (!ok)
                                        return false;
                        }
                }
        }
        return true;
}

static bool bx_expand(struct bx *b, const uint8_t *v, const uint8_t *m, size_t n)
{
        bool ok = true;

        if (b->depth >= b->s->depth_max)
                return fail(b->s, PRC_E_SHELL_NESTING_LIMIT, "braces nest deeper than %" PRIu32, b->s->depth_max);
        for (size_t o = 0; o < n; o++) {
                bool comma, seq;
                size_t cl;
                if (!m[o] || v[o] != '{')
                        continue;
                cl = brace_match(b->s, v, m, n, o, &comma, &ok);
                if (!ok)
                        return false;
                if (cl == SIZE_MAX)
                        break;
                if (!comma) {
                        b->depth++;
                        ok = bx_sequence(b, v, m, n, o, cl, &seq);
                        b->depth--;
                        if (!ok)
                                return false;
                        if (seq)
                                return true;
                        continue;
                }
                {
                        uint32_t level = 0;
                        size_t as = o + 1;
                        b->depth++;
                        for (size_t k = o + 1; k <= cl; k++) {
                                if (!m[k])
                                        continue;
                                if (v[k] == '{') {
                                        level++;
                                } else if (v[k] == '}' && level > 0) {
                                        level--;
                                } else if ((v[k] == ',' && level == 0) || k == cl) {
                                        if (!bx_join(b, v, m, o, as, k, cl + 1, n)) {
                                                b->depth--;
                                                return false;
                                        }
                                        as = k + 1;
                                }
                        }
                        b->depth--;
                        return true;
                }
        }
        return bx_emit(b, v, n);
}

/* --- tokens and statements --- */

/*
 * Append a token to the current logical line of the open stream (a function
 * body or a top-level command), creating the line entry on first use.
 * Here-document bodies go to the line's "heredocs".
 */
static bool emit_token(struct sh *s, bool heredoc, const char *v, size_t n, uint32_t line)
{
        json_t *arr, *t;

        if (s->sink == NULL)
                return true;
        if (++s->nodes > s->lim->nodes_max)
                return fail(s, PRC_E_NODES_LIMIT, "more than %" PRIu32 " tokens", s->lim->nodes_max);
        if (!charge(s, PRC_SHELL_COST_STRING + n + (s->cur_line == NULL ? PRC_SHELL_COST_OBJECT : 0)))
                return false;
        if (s->cur_line == NULL) {
                s->cur_line = json_pack("{s:I,s:[]}", "line", (json_int_t)line, "tokens");
                if (s->cur_line == NULL || json_array_append_new(s->sink, s->cur_line) != 0) {
                        s->cur_line = NULL;
                        return oom(s);
                }
        }
        arr = json_object_get(s->cur_line, heredoc ? "heredocs" : "tokens");
        if (arr == NULL) {
                arr = json_array();
                if (arr == NULL || json_object_set_new(s->cur_line, "heredocs", arr) != 0)
                        return oom(s);
        }
        t = json_stringn(v, n);
        if (t == NULL || json_array_append_new(arr, t) != 0)
                return oom(s);
        return true;
}

static void skip_blanks(struct sh *s)
{
        for (;;) {
                int c = peek(s, 0);
                if (c == ' ' || c == '\t' || c == '\r') {
                        adv(s);
                } else if (c == '\\' && peek(s, 1) == '\n') {
                        adv(s);
                        adv(s);
                } else {
                        return;
                }
        }
}

static void skip_comment(struct sh *s)
{
        while (s->i < s->n && s->p[s->i] != '\n')
                adv(s);
}

/* At a newline (s->i at '\n'): consume it and read pending here-document bodies. */
static bool newline(struct sh *s)
{
        if (s->i < s->n)
                adv(s);
        for (unsigned h = 0; h < s->nhd; h++) {
                struct hd *d = &s->hd[h];
                size_t body = s->i, dl = strlen(d->delim);
                bool found = false;
                while (s->i < s->n) {
                        size_t ls = s->i, le;
                        while (s->i < s->n && s->p[s->i] != '\n')
                                s->i++;
                        le = s->i;
                        if (s->i < s->n) {
                                s->i++;
                                s->line++;
                                s->line_start = s->i;
                        }
                        if (d->strip_tabs)
                                while (ls < le && s->p[ls] == '\t')
                                        ls++;
                        if (le - ls == dl && memcmp(s->p + ls, d->delim, dl) == 0) {
                                found = true;
                                if (!emit_token(s, true, (const char *)s->p + body, ls - body, d->line))
                                        return false;
                                break;
                        }
                }
                if (!found) {
                        s->line = d->line;
                        return fail(s, PRC_E_SHELL_UNTERMINATED, "here-document '%.40s' from line %" PRIu32
                                    " is not closed", d->delim, d->line);
                }
        }
        for (unsigned h = 0; h < s->nhd; h++)
                free(s->hd[h].delim);
        s->nhd = 0;
        return true;
}

/* Operator at s->i (a metacharacter other than blank/newline); returns its length. */
static size_t op_len(const struct sh *s)
{
        static const char *const ops[] = { ";;&", "<<<", "<<-", ";;", ";&", "&&", "||", "|&", "<<", ">>", "<&",
                                           ">&", "<>", ">|", "&>", ";", "&", "|", "(", ")", "<", ">" };
        for (size_t k = 0; k < PRC_ARRAY_LEN(ops); k++) {
                size_t l = strlen(ops[k]);
                if (s->i + l <= s->n && memcmp(s->p + s->i, ops[k], l) == 0)
                        return l;
        }
        return 0;
}

/* Identifier then "=" or "+=" at s->i? Sets the name length and whether it appends. */
static bool at_assignment(const struct sh *s, size_t *out_nl, bool *out_append)
{
        size_t k = s->i;

        if (!is_name_start(peek(s, 0)))
                return false;
        while (k < s->n && is_name_char(s->p[k]))
                k++;
        if (k < s->n && s->p[k] == '=') {
                *out_nl = k - s->i;
                *out_append = false;
                return true;
        }
        if (k + 1 < s->n && s->p[k] == '+' && s->p[k + 1] == '=') {
                *out_nl = k - s->i;
                *out_append = true;
                return true;
        }
        return false;
}

/* Brace-expand one scanned word into arr (strings). */
static bool expand_into(struct sh *s, struct wv *w, json_t *arr, bool brace)
{
        struct bx b = { s, arr, 0, 0 };

        if (!brace) {
                return bx_emit(&b, w->val.data, w->val.len);
        }
        return bx_expand(&b, w->val.data, w->meta.data, w->val.len);
}

static bool pkgbuild(struct sh *s);

/*
 * Tokenize the substitution bodies noted while scanning (struct sh) into
 * owner's "subst" array, each as a fragment: every statement is tokens, as
 * in a function body.  The nested run shares the file's budgets.
 */
static bool flush_subst(struct sh *s, json_t *owner)
{
        unsigned n = s->next;
        json_t *arr;
        bool ok = true;

        s->rec = false;
        s->next = 0;
        if (n == 0 || owner == NULL)
                return true;
        if (s->subst_depth + 1 >= PRC_SHELL_SUBST_DEPTH)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "substitutions nest deeper than %d", PRC_SHELL_SUBST_DEPTH);
        arr = json_object_get(owner, "subst");
        if (arr == NULL) {
                arr = json_array();
                if (arr == NULL || json_object_set_new(owner, "subst", arr) != 0)
                        return oom(s);
        }
        for (unsigned k = 0; ok && k < n; k++) {
                struct sh *sub = calloc(1, sizeof(*sub));
                if (sub == NULL)
                        return oom(s);
                prc_err_init(&sub->scratch);
                sub->p = s->p + s->ext[k].start;
                sub->n = s->ext[k].end - s->ext[k].start;
                sub->line = s->ext[k].line;
                sub->lim = s->lim;
                sub->err = s->err;
                sub->depth_max = s->depth_max;
                sub->out_bytes = s->out_bytes;
                sub->out_max = s->out_max;
                sub->expansions = s->expansions;
                sub->nodes = s->nodes;
                sub->cost = s->cost;
                sub->budget = s->budget;
                sub->vars = s->vars;    /* read only: a fragment makes no assignment entries */
                sub->doc = s->doc;
                sub->sink = arr;
                sub->frag = true;
                sub->subst_depth = s->subst_depth + 1;
                ok = pkgbuild(sub);
                if (!ok)
                        s->err->off += s->ext[k].start;
                for (unsigned h = 0; h < sub->nhd; h++)
                        free(sub->hd[h].delim);
                s->out_bytes = sub->out_bytes;
                s->expansions = sub->expansions;
                s->nodes = sub->nodes;
                s->cost = sub->cost;
                free(sub);
        }
        return ok;
}

/* name=value or name=(...) at statement start; s->i at the name. */
static bool assignment(struct sh *s, size_t nl, bool append, bool conditional)
{
        uint32_t line0 = s->line;
        char name[256];
        json_t *a = NULL, *raw = NULL, *val = NULL, *why = NULL;
        bool is_array, stat = true, ok = false;

        if (nl >= sizeof(name))
                return fail(s, PRC_E_SHELL_SYNTAX, "variable name longer than 255 bytes");
        memcpy(name, s->p + s->i, nl);
        name[nl] = 0;
        s->i += nl + (append ? 2 : 1);
        s->rec = true;
        s->next = 0;
        is_array = peek(s, 0) == '(';
        raw = json_array();
        val = json_array();
        why = json_array();
        if (raw == NULL || val == NULL || why == NULL)
                goto oom;
        if (is_array) {
                adv(s);
                for (;;) {
                        struct wv w;
                        size_t ws;
                        int c;
                        skip_blanks(s);
                        c = peek(s, 0);
                        if (c == -1) {
                                s->line = line0;
                                fail(s, PRC_E_SHELL_UNTERMINATED, "array '%s' opened on line %" PRIu32
                                     " is not closed", name, line0);
                                goto out;
                        }
                        if (c == ')') {
                                adv(s);
                                break;
                        }
                        if (c == '\n') {
                                if (!newline(s))
                                        goto out;
                                continue;
                        }
                        if (c == '#') {
                                skip_comment(s);
                                continue;
                        }
                        if (is_meta(c) && !((c == '<' || c == '>') && peek(s, 1) == '(')) {
                                fail(s, PRC_E_SHELL_SYNTAX, "'%c' inside array '%s'", c, name);
                                goto out;
                        }
                        ws = s->i;
                        wv_init(s, &w);
                        if (!scan_parts(s, &w, T_WORD, false, 0)) {
                                wv_clear(&w);
                                goto out;
                        }
                        if (++s->nodes > s->lim->nodes_max) {
                                wv_clear(&w);
                                fail(s, PRC_E_NODES_LIMIT, "more than %" PRIu32 " tokens", s->lim->nodes_max);
                                goto out;
                        }
                        if (!charge(s, PRC_SHELL_COST_STRING + (s->i - ws))) {
                                wv_clear(&w);
                                goto out;
                        }
                        if (json_array_append_new(raw, json_stringn((const char *)s->p + ws, s->i - ws)) != 0) {
                                wv_clear(&w);
                                goto oom;
                        }
                        if (w.glob && !dyn(s, &w, "glob", NULL, 0)) {
                                wv_clear(&w);
                                goto out;
                        }
                        if (w.stat && stat) {
                                if (!expand_into(s, &w, val, true)) {
                                        wv_clear(&w);
                                        goto out;
                                }
                        } else {
                                stat = false;
                                for (size_t k = 0; w.why != NULL && k < json_array_size(w.why) &&
                                                   json_array_size(why) < 8; k++)
                                        json_array_append(why, json_array_get(w.why, k));
                        }
                        wv_clear(&w);
                }
        } else {
                struct wv w;
                size_t ws = s->i;
                wv_init(s, &w);
                if (!scan_parts(s, &w, T_WORD, false, 0)) {
                        wv_clear(&w);
                        goto out;
                }
                if (json_array_append_new(raw, json_stringn((const char *)s->p + ws, s->i - ws)) != 0) {
                        wv_clear(&w);
                        goto oom;
                }
                /* Assignments do not brace-expand or glob. */
                if (w.stat) {
                        if (!expand_into(s, &w, val, false)) {
                                wv_clear(&w);
                                goto out;
                        }
                } else {
                        stat = false;
                        if (w.why != NULL)
                                json_array_extend(why, w.why);
                }
                wv_clear(&w);
        }
        if (conditional) {
                stat = false;
                json_array_append_new(why, json_string("conditional"));
        }
        /* The variable table: appends extend a static value; anything else replaces it. */
        {
                json_t *old = json_object_get(s->vars, name), *nv;
                if (!stat) {
                        nv = json_null();
                } else if (append && old != NULL && !json_is_null(old)) {
                        if (is_array || json_is_array(old)) {
                                nv = json_is_array(old) ? json_copy(old) : json_pack("[O]", old);
                                if (nv == NULL || json_array_extend(nv, val) != 0)
                                        goto oom;
                        } else {
                                prc_buf cat;
                                prc_err e2;
                                prc_err_init(&e2);
                                prc_buf_init(&cat, s->lim->scalar_max);
                                if (!prc_buf_put(&cat, json_string_value(old), json_string_length(old), &e2) ||
                                    !prc_buf_put(&cat, json_string_value(json_array_get(val, 0)),
                                                 json_string_length(json_array_get(val, 0)), &e2)) {
                                        prc_buf_clear(&cat);
                                        fail(s, PRC_E_SCALAR_LIMIT, "a value is longer than %zu bytes",
                                             s->lim->scalar_max);
                                        goto out;
                                }
                                s->out_bytes += cat.len;
                                nv = json_stringn((const char *)cat.data, cat.len);
                                prc_buf_clear(&cat);
                        }
                } else if (append && old != NULL) {
                        nv = json_null();
                        stat = false;
                        json_array_append_new(why, json_string("append-to-dynamic"));
                } else if (append && old == NULL) {
                        nv = is_array ? json_copy(val) : json_incref(json_array_get(val, 0));
                } else {
                        nv = is_array ? json_copy(val) : json_incref(json_array_get(val, 0));
                }
                if (nv == NULL || json_object_set_new(s->vars, name, nv) != 0)
                        goto oom;
                if (s->out_bytes > s->out_max) {
                        fail(s, PRC_E_SHELL_OUTPUT_LIMIT, "static expansion exceeds %" PRIu64 " bytes", s->out_max);
                        goto out;
                }
        }
        if (++s->nodes > s->lim->nodes_max) {
                fail(s, PRC_E_NODES_LIMIT, "more than %" PRIu32 " tokens", s->lim->nodes_max);
                goto out;
        }
        /* The entry, its raw words again in the table copy, and the variable table's copy. */
        if (!charge(s, PRC_SHELL_COST_OBJECT * 2))
                goto out;
        a = json_pack("{s:s,s:I,s:b,s:b,s:b,s:O,s:b}", "name", name, "line", (json_int_t)line0, "array", is_array,
                      "append", append, "conditional", conditional, "raw", raw, "static", stat);
        if (a == NULL)
                goto oom;
        if (stat && json_object_set(a, "value", is_array ? val : json_array_get(val, 0)) != 0)
                goto oom;
        if (!stat && json_object_set(a, "dynamic", why) != 0)
                goto oom;
        if (s->recovering && json_object_set_new(a, "recovered", json_true()) != 0)
                goto oom;
        if (json_array_append(json_object_get(s->doc, "assignments"), a) != 0)
                goto oom;
        if (!flush_subst(s, a))
                goto out;
        ok = true;
        goto out;
oom:
        oom(s);
out:
        s->rec = false;
        s->next = 0;
        json_decref(a);
        json_decref(raw);
        json_decref(val);
        json_decref(why);
        return ok;
}

/* Reserved words that open and close compound commands at the start of a command. */
static int nesting_delta(const char *w, size_t n)
{
        static const char *const open[] = { "if", "case", "for", "while", "until", "select", "{" };
        static const char *const close[] = { "fi", "esac", "done", "}" };
        for (size_t k = 0; k < PRC_ARRAY_LEN(open); k++)
                if (strlen(open[k]) == n && memcmp(open[k], w, n) == 0)
                        return 1;
        for (size_t k = 0; k < PRC_ARRAY_LEN(close); k++)
                if (strlen(close[k]) == n && memcmp(close[k], w, n) == 0)
                        return -1;
        return 0;
}

static bool word_is(const struct sh *s, size_t ws, const char *w)
{
        size_t n = strlen(w);
        return s->i - ws == n && memcmp(s->p + ws, w, n) == 0;
}

/*
 * Open compound commands and parentheses, innermost last: 'c' case before
 * its "in", 'C' case after it, 'p' a parenthesis (subshell, arithmetic,
 * array), 'x' any other construct.
 */
struct nest {
        char     kind[PRC_SHELL_NESTING_MAX];
        uint32_t depth;
        bool     pattern;       /* inside "case ... in" at a pattern, up to its ')' */
        bool     pattern_first; /* no token of the pattern seen yet (only then "esac" closes) */
};

static bool nest_push(struct sh *s, struct nest *t, char kind)
{
        if (t->depth >= s->depth_max || t->depth >= PRC_SHELL_NESTING_MAX)
                return fail(s, PRC_E_SHELL_NESTING_LIMIT, "compound commands nest deeper than %" PRIu32,
                            s->depth_max);
        t->kind[t->depth++] = kind;
        return true;
}

static char nest_top(const struct nest *t)
{
        return t->depth > 0 ? t->kind[t->depth - 1] : 0;
}

/* Start a new token stream (function or command) and make it the sink. */
static bool open_stream(struct sh *s, const char *list, const char *name, size_t nl, uint32_t line)
{
        json_t *o, *toks;

        if (!charge(s, PRC_SHELL_COST_OBJECT))
                return false;
        toks = json_array();
        if (toks == NULL)
                return oom(s);
        o = name != NULL ? json_pack("{s:s%,s:I,s:o}", "name", name, nl, "line", (json_int_t)line, "body", toks)
                         : json_pack("{s:I,s:o}", "line", (json_int_t)line, "body", toks);
        if (o == NULL || json_array_append_new(json_object_get(s->doc, list), o) != 0)
                return oom(s);
        if (s->recovering && json_object_set_new(o, "recovered", json_true()) != 0)
                return oom(s);
        s->sink = toks;
        s->cur_line = NULL;
        return true;
}

/* Is the text at s->i "name()" or "name ()" (a function definition)? */
static bool at_funcdef(const struct sh *s, size_t *out_nl, size_t *out_end)
{
        size_t k = s->i, e;

        /* bash accepts more than identifiers as function names: package_libstdc++() in split packages. */
        while (k < s->n && (is_name_char(s->p[k]) || s->p[k] == '-' || s->p[k] == '.' || s->p[k] == ':' ||
                            s->p[k] == '+' || s->p[k] == '@' || s->p[k] == '%' || s->p[k] == ','))
                k++;
        if (k == s->i)
                return false;
        e = k;
        while (e < s->n && (s->p[e] == ' ' || s->p[e] == '\t'))
                e++;
        if (e + 1 < s->n && s->p[e] == '(') {
                size_t f = e + 1;
                while (f < s->n && (s->p[f] == ' ' || s->p[f] == '\t'))
                        f++;
                if (f < s->n && s->p[f] == ')') {
                        *out_nl = k - s->i;
                        *out_end = f + 1;
                        return true;
                }
        }
        return false;
}

static bool pkgbuild(struct sh *s)
{
        struct nest t = { .depth = 0 };
        long fbase = s->frag ? 0 : -1;  /* nesting depth where the open function body started, -1 outside */
        bool cmd_start = true;  /* at the start of a command */
        bool in_stream = false; /* a top-level command stream is open */

        while (s->i < s->n) {
                int c;
                size_t nl, fe;
                bool append;

                skip_blanks(s);
                c = peek(s, 0);
                if (c == -1)
                        break;
                if (c == '#') {
                        skip_comment(s);
                        continue;
                }
                if (c == '\n') {
                        if (!newline(s))
                                return false;
                        s->cur_line = NULL;
                        cmd_start = true;
                        if (fbase < 0 && t.depth == 0) {
                                in_stream = false;
                                s->sink = NULL;
                                s->cur_line = NULL;
                        }
                        continue;
                }
                if (fbase < 0 && cmd_start && !t.pattern && at_assignment(s, &nl, &append)) {
                        /* Inside a compound command, or after "cmd &&" on the same line: conditional. */
                        if (!assignment(s, nl, append, t.depth > 0 || in_stream))
                                return false;
                        continue;
                }
                if (fbase < 0 && t.depth == 0 && !in_stream && (c == ';' || c == '&') && peek(s, 1) != c) {
                        /* A separator between top-level assignments opens no command. */
                        adv(s);
                        cmd_start = true;
                        continue;
                }
                if (fbase < 0 && t.depth == 0 && cmd_start && !in_stream) {
                        if (at_funcdef(s, &nl, &fe)) {
                                if (!open_stream(s, "functions", (const char *)s->p + s->i, nl, s->line))
                                        return false;
                                s->i = fe;
                                fbase = 0;
                                continue;
                        }
                        if (s->i + 9 <= s->n && memcmp(s->p + s->i, "function", 8) == 0 &&
                            (s->p[s->i + 8] == ' ' || s->p[s->i + 8] == '\t')) {
                                size_t save = s->i;
                                s->i += 8;
                                skip_blanks(s);
                                if (at_funcdef(s, &nl, &fe) || is_name_start(peek(s, 0))) {
                                        size_t k = s->i;
                                        while (k < s->n && is_name_char(s->p[k]))
                                                k++;
                                        if (!open_stream(s, "functions", (const char *)s->p + s->i, k - s->i,
                                                         s->line))
                                                return false;
                                        s->i = at_funcdef(s, &nl, &fe) ? fe : k;
                                        fbase = 0;
                                        continue;
                                }
                                s->i = save;
                        }
                        if (!open_stream(s, "commands", NULL, 0, s->line))
                                return false;
                        in_stream = true;
                }
                if (is_meta(c) && !((c == '<' || c == '>') && peek(s, 1) == '(')) {
                        size_t l = op_len(s);
                        uint32_t line0 = s->line;
                        if (l == 0)
                                return fail(s, PRC_E_SHELL_SYNTAX, "unexpected character '%c'", c);
                        if (!emit_token(s, false, (const char *)s->p + s->i, l, line0))
                                return false;
                        if (l >= 2 && s->p[s->i] == '<' && s->p[s->i + 1] == '<' && (l == 2 || s->p[s->i + 2] == '-')) {
                                /* Here-document: the next word is its delimiter. */
                                bool strip = l == 3;
                                struct wv w;
                                s->i += l;
                                skip_blanks(s);
                                wv_init(s, &w);
                                if (!scan_parts(s, &w, T_WORD, false, 0)) {
                                        wv_clear(&w);
                                        return false;
                                }
                                if (w.val.len == 0 || s->nhd >= PRC_ARRAY_LEN(s->hd)) {
                                        wv_clear(&w);
                                        return fail(s, PRC_E_SHELL_SYNTAX,
                                                    "bad or too many here-documents on one line");
                                }
                                s->hd[s->nhd].delim = strndup((const char *)w.val.data, w.val.len);
                                s->hd[s->nhd].strip_tabs = strip;
                                s->hd[s->nhd].line = line0;
                                wv_clear(&w);
                                if (s->hd[s->nhd].delim == NULL)
                                        return oom(s);
                                s->nhd++;
                                if (!emit_token(s, false, s->hd[s->nhd - 1].delim,
                                                strlen(s->hd[s->nhd - 1].delim), line0))
                                        return false;
                                cmd_start = false;
                                continue;
                        }
                        s->i += l;
                        cmd_start = c != '>' && c != '<';
                        if (t.pattern) {
                                /* "a|b)" or "(a)": the ')' ends the pattern, a command follows. */
                                if (l == 1 && c == ')')
                                        t.pattern = false;
                                t.pattern_first = false;
                                continue;
                        }
                        if (l == 1 && c == '(') {
                                if (!nest_push(s, &t, 'p'))
                                        return false;
                        } else if (l == 1 && c == ')') {
                                if (nest_top(&t) != 'p')
                                        return fail(s, PRC_E_SHELL_SYNTAX, "')' closes nothing");
                                t.depth--;
                                if (fbase >= 0 && !s->frag && t.depth == (uint32_t)fbase) {
                                        fbase = -1;     /* a "name() ( ... )" body */
                                        s->sink = NULL;
                                        s->cur_line = NULL;
                                }
                        } else if (s->p[s->i - l] == ';' && l >= 2 && nest_top(&t) == 'C') {
                                t.pattern = true;       /* ";;", ";&", ";;&": the next pattern */
                                t.pattern_first = true;
                        }
                        continue;
                }
                /* A word. */
                {
                        size_t ws = s->i;
                        uint32_t line0 = s->line;
                        struct wv w;
                        int d;
                        wv_init(s, &w);
                        w.discard = true;
                        s->rec = true;
                        s->next = 0;
                        if (!scan_parts(s, &w, T_WORD, false, 0)) {
                                s->rec = false;
                                wv_clear(&w);
                                return false;
                        }
                        s->rec = false;
                        wv_clear(&w);
                        if (!emit_token(s, false, (const char *)s->p + ws, s->i - ws, line0) ||
                            !flush_subst(s, s->cur_line))
                                return false;
                        if (t.pattern) {
                                /* Words of a case pattern are not commands; "esac" still closes. */
                                if (t.pattern_first && word_is(s, ws, "esac")) {
                                        t.pattern = false;
                                        t.depth--;
                                        cmd_start = true;
                                }
                                t.pattern_first = false;
                                continue;
                        }
                        d = cmd_start ? nesting_delta((const char *)s->p + ws, s->i - ws) : 0;
                        if (d > 0 && !nest_push(s, &t, word_is(s, ws, "case") ? 'c' : 'x'))
                                return false;
                        if (d < 0) {
                                if (t.depth == 0 || nest_top(&t) == 'p')
                                        return fail(s, PRC_E_SHELL_SYNTAX, "'%.*s' closes nothing",
                                                    (int)(s->i - ws), (const char *)s->p + ws);
                                t.depth--;
                                if (fbase >= 0 && !s->frag && t.depth == (uint32_t)fbase) {
                                        fbase = -1;
                                        s->sink = NULL;
                                        s->cur_line = NULL;
                                }
                        }
                        /* "case WORD in" (the "in" may be on the next line): patterns follow. */
                        if (d == 0 && nest_top(&t) == 'c' && word_is(s, ws, "in")) {
                                t.kind[t.depth - 1] = 'C';
                                t.pattern = true;
                                t.pattern_first = true;
                                continue;
                        }
                        /* After these words (and after a closer, as in "done }") a new command starts. */
                        {
                                static const char *const starters[] = { "then", "else", "elif", "do", "{", "if",
                                                                        "while", "until", "!", "time" };
                                bool was_start = cmd_start;
                                cmd_start = was_start && d < 0;
                                for (size_t k = 0; k < PRC_ARRAY_LEN(starters); k++)
                                        if (was_start && word_is(s, ws, starters[k]))
                                                cmd_start = true;
                        }
                }
        }
        if (s->nhd > 0 && !newline(s))
                return false;
        if (fbase >= 0 && !s->frag)
                return fail(s, PRC_E_SHELL_UNTERMINATED, "a function body is not closed");
        if (t.depth > 0)
                return fail(s, PRC_E_SHELL_UNTERMINATED, "a compound command is not closed");
        return true;
}

/* --- .SRCINFO --- */

/*
 * A bad line at ls.  Recovering: recorded in the document, true (skip the
 * line; false only when out of memory, with err set).  Otherwise the
 * refusal: false with err set.  Callers tell the two apart by err.
 */
static bool soft(struct sh *s, size_t ls, prc_errclass cls, const char *msg)
{
        if (s->recover)
                return note_error(s, cls, s->line, msg);
        s->i = ls;
        return fail(s, cls, "%s", msg);
}

static bool srcinfo(struct sh *s)
{
        json_t *base = NULL, *cur = NULL, *pkgs = json_object_get(s->doc, "packages"), *seen = json_object();

        if (seen == NULL)
                return oom(s);
        while (s->i < s->n) {
                size_t ls = s->i, le, ks, ke, vs;
                const uint8_t *eq;
                json_t *fields, *arr;
                char key[128];

                while (s->i < s->n && s->p[s->i] != '\n')
                        s->i++;
                le = s->i;
                if (le - ls > s->lim->scalar_max) {
                        s->i = ls;
                        json_decref(seen);
                        return fail(s, PRC_E_SCALAR_LIMIT, "line longer than %zu bytes", s->lim->scalar_max);
                }
                ks = ls;
                while (ks < le && (s->p[ks] == ' ' || s->p[ks] == '\t'))
                        ks++;
                if (ks == le || s->p[ks] == '#')
                        goto next;
                eq = memchr(s->p + ks, '=', le - ks);
                if (eq == NULL) {
                        if (soft(s, ls, PRC_E_SRCINFO_SYNTAX, "line is not 'key = value'"))
                                goto next;
                        json_decref(seen);
                        return false;
                }
                ke = (size_t)(eq - s->p);
                vs = ke + 1;
                while (ke > ks && (s->p[ke - 1] == ' ' || s->p[ke - 1] == '\t'))
                        ke--;
                while (vs < le && (s->p[vs] == ' ' || s->p[vs] == '\t'))
                        vs++;
                while (le > vs && (s->p[le - 1] == '\r' || s->p[le - 1] == ' ' || s->p[le - 1] == '\t'))
                        le--;
                if (ke == ks || ke - ks >= sizeof(key)) {
                        if (soft(s, ls, PRC_E_SRCINFO_SYNTAX, "empty or overlong key"))
                                goto next;
                        json_decref(seen);
                        return false;
                }
                {
                        bool badkey = false;
                        for (size_t k = ks; k < ke; k++)
                                badkey |= !is_name_char(s->p[k]);
                        if (badkey) {
                                if (soft(s, ls, PRC_E_SRCINFO_SYNTAX, "bad character in key"))
                                        goto next;
                                json_decref(seen);
                                return false;
                        }
                }
                memcpy(key, s->p + ks, ke - ks);
                key[ke - ks] = 0;
                if (++s->nodes > s->lim->nodes_max) {
                        json_decref(seen);
                        return fail(s, PRC_E_NODES_LIMIT, "more than %" PRIu32 " values", s->lim->nodes_max);
                }
                if (!charge(s, PRC_SHELL_COST_STRING + (le - ks))) {
                        json_decref(seen);
                        return false;
                }
                if (strcmp(key, "pkgbase") == 0 || strcmp(key, "pkgname") == 0) {
                        bool isbase = key[3] == 'b';
                        char sk[8 + 4096];
                        if (isbase != (base == NULL)) {
                                if (soft(s, ls, base == NULL ? PRC_E_SRCINFO_SYNTAX : PRC_E_SRCINFO_DUPLICATE,
                                         base == NULL ? "the first entry must be pkgbase" : "a second pkgbase"))
                                        goto next;
                                json_decref(seen);
                                return false;
                        }
                        snprintf(sk, sizeof(sk), "%s:%.*s", key, (int)(le - vs > 4096 ? 4096 : le - vs),
                                 (const char *)s->p + vs);
                        if (json_object_get(seen, sk) != NULL) {
                                if (soft(s, ls, PRC_E_SRCINFO_DUPLICATE, "a pkgbase or pkgname section appears twice"))
                                        goto next;
                                json_decref(seen);
                                return false;
                        }
                        cur = json_pack("{s:s%,s:I,s:{}}", "name", (const char *)s->p + vs, le - vs, "line",
                                        (json_int_t)s->line, "fields");
                        if (cur == NULL || json_object_set_new(seen, sk, json_true()) != 0) {
                                json_decref(cur);
                                json_decref(seen);
                                return oom(s);
                        }
                        if (isbase) {
                                base = cur;
                                if (json_object_set_new(s->doc, "pkgbase", cur) != 0) {
                                        json_decref(seen);
                                        return oom(s);
                                }
                        } else if (json_array_append_new(pkgs, cur) != 0) {
                                json_decref(seen);
                                return oom(s);
                        }
                        goto next;
                }
                if (cur == NULL) {
                        if (soft(s, ls, PRC_E_SRCINFO_SYNTAX, "the first entry must be pkgbase"))
                                goto next;
                        json_decref(seen);
                        return false;
                }
                fields = json_object_get(cur, "fields");
                arr = json_object_get(fields, key);
                if (arr == NULL) {
                        arr = json_array();
                        if (arr == NULL || json_object_set_new(fields, key, arr) != 0) {
                                json_decref(seen);
                                return oom(s);
                        }
                }
                if (json_array_append_new(arr, json_stringn((const char *)s->p + vs, le - vs)) != 0) {
                        json_decref(seen);
                        return oom(s);
                }
next:
                if (s->i < s->n)
                        adv(s);
        }
        json_decref(seen);
        if (base == NULL)
                return s->recover ? note_error(s, PRC_E_SRCINFO_SYNTAX, s->line, "no pkgbase entry")
                                  : fail(s, PRC_E_SRCINFO_SYNTAX, "no pkgbase entry");
        return true;
}

/* Line number (1-based) of offset off. */
static uint32_t line_of(const uint8_t *p, size_t off)
{
        uint32_t line = 1;

        for (size_t k = 0; k < off; k++)
                line += p[k] == '\n';
        return line;
}

/*
 * Recovery: a copy of p with each NUL and each byte of an invalid UTF-8
 * sequence read as '?', the first of each recorded as an error.  Returns the
 * copy (owned by the caller) or NULL with err set (out-of-memory).
 */
static uint8_t *sanitize(struct sh *s, const uint8_t *p, size_t n)
{
        uint8_t *c = malloc(n ? n : 1);
        bool nul = false, utf = false;
        size_t at = 0, bad;

        if (c == NULL) {
                oom(s);
                return NULL;
        }
        if (n)
                memcpy(c, p, n);
        for (size_t k = 0; k < n; k++) {
                if (c[k] == 0) {
                        if (!nul && !note_error(s, PRC_E_NUL_BYTE, line_of(p, k), "NUL byte (read as '?')"))
                                goto fail;
                        nul = true;
                        c[k] = '?';
                }
        }
        while (at < n && !prc_utf8_valid(c + at, n - at, &bad)) {
                if (!utf && !note_error(s, PRC_E_INVALID_UTF8, line_of(p, at + bad),
                                        "input is not valid UTF-8 (bad bytes read as '?')"))
                        goto fail;
                utf = true;
                c[at + bad] = '?';
                at += bad + 1;
        }
        return c;
fail:
        free(c);
        return NULL;
}

/*
 * Recovery (shell.h): the words of line `line` (which starts at ls) split at
 * blanks and shell operators, as one recovered command.
 */
static bool lenient_line(struct sh *s, size_t ls, uint32_t line)
{
        size_t k = ls;
        bool open = false;

        s->recovering = true;
        while (k < s->n && s->p[k] != '\n') {
                size_t w = k;
                uint8_t c = s->p[k];
                if (c == ' ' || c == '\t' || c == '\r') {
                        k++;
                        continue;
                }
                if (strchr("|;&<>()", c) != NULL) {
                        k++;
                } else {
                        while (k < s->n && s->p[k] != '\n' && strchr(" \t\r|;&<>()", s->p[k]) == NULL)
                                k++;
                }
                if (!open && !open_stream(s, "commands", NULL, 0, line))
                        return false;
                open = true;
                if (!emit_token(s, false, (const char *)s->p + w, k - w, line))
                        return false;
        }
        s->sink = NULL;
        s->cur_line = NULL;
        return true;
}

static bool recoverable(prc_errclass c)
{
        return c == PRC_E_SHELL_SYNTAX || c == PRC_E_SHELL_UNTERMINATED;
}

/* pkgbuild() with recovery: each syntax error is recorded and tokenizing goes on at the next line. */
static bool pkgbuild_recovering(struct sh *s)
{
        size_t pos = 0;         /* offset where line `ln` starts */
        uint32_t ln = 1;

        while (!pkgbuild(s)) {
                uint32_t bad;
                char msg[sizeof(s->err->msg)];
                prc_errclass cls = s->err->cls;

                if (!s->recover || !recoverable(cls))
                        return false;
                bad = s->err->line ? s->err->line : s->line;
                snprintf(msg, sizeof(msg), "%s", s->err->msg);
                prc_err_init(s->err);
                if (!note_error(s, cls, bad, msg))
                        return false;
                if (bad < ln) {
                        pos = 0;
                        ln = 1;
                }
                while (ln < bad && pos < s->n) {
                        if (s->p[pos++] == '\n')
                                ln++;
                }
                if (!lenient_line(s, pos, bad))
                        return false;
                while (pos < s->n && s->p[pos] != '\n')
                        pos++;
                if (pos < s->n) {
                        pos++;
                        ln++;
                }
                for (unsigned h = 0; h < s->nhd; h++)
                        free(s->hd[h].delim);
                s->nhd = 0;
                s->sink = NULL;
                s->cur_line = NULL;
                s->rec = false;
                s->next = 0;
                s->i = pos;
                s->line = ln;
                s->line_start = pos;
        }
        return true;
}

json_t *prc_shell_tokenize(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct sh s;
        const uint8_t *z;
        uint8_t *copy = NULL;
        size_t bad;
        bool ok;
        json_t *res = NULL;

        if (flags & ~(unsigned)(PRC_SHELL_SRCINFO | PRC_SHELL_RECOVER)) {
                prc_err_set(err, PRC_E_USAGE, "unknown shell tokenizer flags 0x%x", flags);
                return NULL;
        }
        memset(&s, 0, sizeof(s));
        prc_err_init(&s.scratch);
        s.p = p;
        s.n = n;
        s.line = 1;
        s.lim = lim;
        s.err = err;
        s.recover = (flags & PRC_SHELL_RECOVER) != 0;
        s.depth_max = lim->depth_max < PRC_SHELL_NESTING_MAX ? lim->depth_max : PRC_SHELL_NESTING_MAX;
        s.out_max = (uint64_t)n * PRC_SHELL_OUTPUT_FACTOR + PRC_SHELL_OUTPUT_SLACK;
        s.budget = (uint64_t)n * PRC_SHELL_TREE_FACTOR + PRC_SHELL_TREE_FLOOR;
        if (n > lim->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "shell input of %zu bytes is over the %zu-byte cap", n,
                            lim->input_max);
                return NULL;
        }
        if (s.recover) {
                copy = sanitize(&s, p, n);
                if (copy == NULL)
                        goto out;
                s.p = p = copy;
        }
        z = n ? memchr(p, 0, n) : NULL;
        if (z != NULL) {
                for (s.i = 0; s.i < (size_t)(z - p); s.i++)
                        if (p[s.i] == '\n') {
                                s.line++;
                                s.line_start = s.i + 1;
                        }
                fail(&s, PRC_E_NUL_BYTE, "NUL byte (bash cannot hold one in a value)");
                return NULL;
        }
        if (!prc_utf8_valid(p, n, &bad)) {
                for (s.i = 0; s.i < bad; s.i++)
                        if (p[s.i] == '\n') {
                                s.line++;
                                s.line_start = s.i + 1;
                        }
                fail(&s, PRC_E_INVALID_UTF8, "input is not valid UTF-8");
                return NULL;
        }
        s.vars = json_object();
        if (flags & PRC_SHELL_SRCINFO)
                s.doc = json_pack("{s:s,s:[]}", "format", "srcinfo", "packages");
        else
                s.doc = json_pack("{s:s,s:[],s:[],s:[]}", "format", "pkgbuild", "assignments", "functions",
                                  "commands");
        if (s.vars == NULL || s.doc == NULL) {
                prc_err_oom(err, "the shell document");
                goto out;
        }
        ok = (flags & PRC_SHELL_SRCINFO) ? srcinfo(&s) : pkgbuild_recovering(&s);
        if (ok && !prc_err_is_set(err) && s.errors != NULL) {
                json_int_t dropped = json_integer_value(json_object_get(s.errors, "dropped"));
                if (json_object_set(s.doc, "errors", json_object_get(s.errors, "list")) != 0 ||
                    (dropped > 0 && json_object_set_new(s.doc, "errors_dropped", json_integer(dropped)) != 0))
                        ok = oom(&s);
        }
        if (ok && !prc_err_is_set(err)) {
                res = s.doc;
                s.doc = NULL;
        } else if (!prc_err_is_set(err)) {
                prc_err_set(err, PRC_E_INTERNAL, "tokenizer failed without a reason");
        }
out:
        for (unsigned h = 0; h < s.nhd; h++)
                free(s.hd[h].delim);
        json_decref(s.vars);
        json_decref(s.doc);
        json_decref(s.errors);
        free(copy);
        return res;
}
