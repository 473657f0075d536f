/*
 * mng_xml.c - helpers over prc_xml_parse's element tree and a line cursor,
 * shared by the Maven and NuGet extractors (mng.h).
 * Trust: runs in the content worker on hostile bytes; allocates only
 * through jansson and the scratch array the caller frees.
 */
#include "content/extract/mng.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/utf8.h"
#include "content/parsers/xml.h"

/* Scanning more than this many times the input for lines is a hostile file: lines become unknown. */
#define LOC_FACTOR 64u
#define LOC_FLOOR  (1u << 20)
/* ${a} -> ${b} -> ...: Maven and MSBuild stop cycles; past this depth a property counts as unresolved. */
#define INTERP_DEPTH 16

void prc_mx_loc_init(prc_mx_loc *l, const prc_xin *in, bool xml)
{
        l->in = in;
        l->off = 0;
        l->line = 1;
        l->budget = (uint64_t)in->n * LOC_FACTOR + LOC_FLOOR;
        l->xml = xml;
}

/* Advance the cursor to off, counting lines. */
static void move_to(prc_mx_loc *l, size_t off)
{
        const uint8_t *p = l->in->p;

        for (size_t i = l->off; i < off; i++)
                l->line += p[i] == '\n';
        l->off = off;
}

/* needle in [from, to), charging the bytes scanned to the budget. */
static const uint8_t *find(prc_mx_loc *l, size_t from, size_t to, const char *needle, size_t nl)
{
        size_t left = to > from ? to - from : 0;
        const uint8_t *hit;

        if (l->budget == 0 || nl == 0 || left < nl)
                return NULL;
        hit = memmem(l->in->p + from, left, needle, nl);
        /* Charge what was scanned: up to the hit, or all that was left. */
        left = hit != NULL ? (size_t)(hit - (l->in->p + from)) + nl : left;
        l->budget = left >= l->budget ? 0 : l->budget - left;
        return hit;
}

uint32_t prc_mx_locate(prc_mx_loc *l, const char *needle)
{
        size_t nl = strlen(needle), from = l->off;
        const uint8_t *hit, *com, *end;
        uint32_t line;

        if (l->in->p == NULL)
                return 0;
        for (;;) {
                hit = find(l, from, l->in->n, needle, nl);
                if (hit == NULL)
                        return 0;
                if (!l->xml)
                        break;
                /*
                 * A hit inside a comment is not the file stating the value: skip a comment that
                 * opens before the hit (only that stretch is searched, so this stays linear).
                 */
                com = find(l, from, (size_t)(hit - l->in->p), "<!--", 4);
                if (com == NULL)
                        break;
                end = find(l, (size_t)(com - l->in->p) + 4, l->in->n, "-->", 3);
                if (end == NULL)
                        return 0;
                from = (size_t)(end - l->in->p) + 3;
        }
        move_to(l, (size_t)(hit - l->in->p));
        line = l->line;
        move_to(l, l->off + nl);
        return line;
}

const char *prc_mx_local(const json_t *el)
{
        const char *n = json_string_value(PRC_JGET(el, "name")), *c;

        if (n == NULL)
                return "";
        c = strrchr(n, ':');
        return c != NULL ? c + 1 : n;
}

size_t prc_mx_nkids(const json_t *el)
{
        return json_array_size(PRC_JGET(el, "children"));
}

const json_t *prc_mx_kid(const json_t *el, size_t i)
{
        return json_array_get(PRC_JGET(el, "children"), i);
}

const json_t *prc_mx_child(const json_t *el, const char *local)
{
        size_t n = prc_mx_nkids(el);

        for (size_t i = 0; i < n; i++) {
                const json_t *k = prc_mx_kid(el, i);

                if (json_is_object(k) && strcmp(prc_mx_local(k), local) == 0)
                        return k;
        }
        return NULL;
}

const char *prc_mx_attr(const json_t *el, const char *name)
{
        return json_string_value(json_object_get(PRC_JGET(el, "attrs"), name));
}

const char *prc_mx_keep(json_t *scratch, const char *s, size_t n, prc_err *err)
{
        json_t *v = json_stringn(s, n);

        if (v == NULL || json_array_append_new(scratch, v) != 0) {
                prc_err_oom(err, "extraction scratch");
                return NULL;
        }
        return json_string_value(v);
}

static bool xml_space(char c)
{
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool prc_mx_text(const json_t *el, json_t *scratch, const char **out, prc_err *err)
{
        size_t n = prc_mx_nkids(el), len;
        const char *s, *e;

        if (n == 0) {
                *out = "";
                return true;
        }
        for (size_t i = 0; i < n; i++)
                if (!json_is_string(prc_mx_kid(el, i)))
                        return prc_err_set(err, PRC_E_EXTRACT_SHAPE, "<%s> holds elements where text belongs",
                                           prc_mx_local(el));
        if (n > 1) {
                /* Text split by comments: join it (rare, so a second pass is fine). */
                size_t total = 0;
                char *buf;
                const char *kept;

                for (size_t i = 0; i < n; i++)
                        total += json_string_length(prc_mx_kid(el, i));
                if (total > PRC_MD_STR_MAX)
                        return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "<%s> holds %zu bytes of text",
                                           prc_mx_local(el), total);
                buf = malloc(total + 1);
                if (buf == NULL)
                        return prc_err_oom(err, "extraction scratch");
                total = 0;
                for (size_t i = 0; i < n; i++) {
                        const json_t *k = prc_mx_kid(el, i);

                        memcpy(buf + total, json_string_value(k), json_string_length(k));
                        total += json_string_length(k);
                }
                kept = prc_mx_keep(scratch, buf, total, err);
                free(buf);
                if (kept == NULL)
                        return false;
                s = kept;
                len = total;
        } else {
                s = json_string_value(prc_mx_kid(el, 0));
                len = json_string_length(prc_mx_kid(el, 0));
        }
        e = s + len;
        while (s < e && xml_space(*s))
                s++;
        while (e > s && xml_space(e[-1]))
                e--;
        *out = prc_mx_keep(scratch, s, (size_t)(e - s), err);
        return *out != NULL;
}

bool prc_mx_child_text(const json_t *el, const char *local, json_t *scratch, const char **out, prc_err *err)
{
        const json_t *c = prc_mx_child(el, local);

        *out = NULL;
        return c == NULL || prc_mx_text(c, scratch, out, err);
}

json_t *prc_mx_parse(const prc_xin *in, const char *root, prc_err *err)
{
        json_t *doc = prc_xml_parse(in->p, in->n, in->lim, 0, err);

        if (doc == NULL)
                return NULL;
        if (strcmp(prc_mx_local(doc), root) != 0) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "the root element is <%s>, not <%s>", prc_mx_local(doc),
                            root);
                json_decref(doc);
                return NULL;
        }
        return doc;
}

bool prc_mx_ieq(const char *a, const char *b)
{
        return strcasecmp(a, b) == 0;
}

bool prc_mx_check_text(const prc_xin *in, prc_err *err)
{
        size_t bad;
        const uint8_t *nul;

        if (in->n > in->lim->input_max)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "%zu bytes (the limit is %zu)", in->n,
                                   in->lim->input_max);
        if (in->n == 0)
                return true;
        nul = memchr(in->p, 0, in->n);
        if (nul != NULL) {
                prc_err_at(err, PRC_E_NUL_BYTE, (uint64_t)(nul - in->p), "a NUL byte");
                prc_err_set_line(err, prc_x_line_at(in, (size_t)(nul - in->p)), 0);
                return false;
        }
        if (!prc_utf8_valid(in->p, in->n, &bad)) {
                prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 at byte %zu", bad);
                prc_err_set_line(err, prc_x_line_at(in, bad), 0);
                return false;
        }
        return true;
}

bool prc_mx_next_line(const prc_xin *in, size_t *off, const char **s, size_t *n)
{
        const uint8_t *p, *nl;
        size_t left;

        if (*off >= in->n)
                return false;
        p = in->p + *off;
        left = in->n - *off;
        nl = memchr(p, '\n', left);
        *n = nl != NULL ? (size_t)(nl - p) : left;
        *off += *n + (nl != NULL);
        *s = (const char *)p;
        if (*n > 0 && p[*n - 1] == '\r')
                (*n)--;
        return true;
}

const char *prc_mx_keepf(json_t *scratch, prc_err *err, const char *fmt, ...)
{
        va_list ap, aq;
        int n;
        char *b;
        const char *kept;

        va_start(ap, fmt);
        va_copy(aq, ap);
        n = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        if (n < 0 || (b = malloc((size_t)n + 1)) == NULL) {
                va_end(aq);
                prc_err_oom(err, "extraction scratch");
                return NULL;
        }
        vsnprintf(b, (size_t)n + 1, fmt, aq);
        va_end(aq);
        kept = prc_mx_keep(scratch, b, (size_t)n, err);
        free(b);
        return kept;
}

bool prc_mx_list_str(json_t *list, const char *s, size_t n, prc_err *err)
{
        if (json_array_size(list) >= PRC_MD_LIST_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "more than %u entries in one details list",
                                   PRC_MD_LIST_MAX);
        if (n > PRC_MD_STR_MAX)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a details value of %zu bytes (the limit is %u)", n,
                                   PRC_MD_STR_MAX);
        if (json_array_append_new(list, json_stringn(s, n)) != 0)
                return prc_err_oom(err, "details");
        return true;
}

/*
 * A version the file pins exactly: not a range ("[1,2)"), not a moving
 * label (LATEST, RELEASE, Gradle's "1.+" or "latest.release"), not empty,
 * and with no property left in it.
 */
bool prc_mx_maven_exact(const char *v)
{
        size_t n;

        if (v == NULL || *v == '\0' || strchr("[(", *v) != NULL || strstr(v, "${") != NULL)
                return false;
        n = strlen(v);
        if (strcmp(v, "LATEST") == 0 || strcmp(v, "RELEASE") == 0 || strncmp(v, "latest.", 7) == 0 ||
            v[n - 1] == '+' || strchr(v, ',') != NULL)
                return false;
        return true;
}

bool prc_mx_only_text(const json_t *el)
{
        for (size_t i = 0; i < prc_mx_nkids(el); i++)
                if (!json_is_string(prc_mx_kid(el, i)))
                        return false;
        return true;
}

typedef struct interp {
        const char       *open;
        char              close;
        prc_mx_lookup_fn *look;
        void             *ctx;
        json_t           *scratch;
        prc_err          *err;
        prc_buf           b;
        prc_err           berr;         /* the buffer's own error: a cap hit means "too long", not a refusal */
        const char       *unres;        /* first property left unresolved (borrowed from the tree or scratch) */
        bool              over;         /* expanded past PRC_MD_STR_MAX */
} interp;

static void expand(interp *x, const char *s, unsigned depth)
{
        while (*s != '\0' && !x->over) {
                const char *open = strstr(s, x->open), *close, *val = NULL;
                char name[256];
                size_t nn;

                if (open == NULL || (close = strchr(open + 2, x->close)) == NULL) {
                        x->over |= !prc_buf_puts(&x->b, s, &x->berr);
                        return;
                }
                x->over |= !prc_buf_put(&x->b, s, (size_t)(open - s), &x->berr);
                nn = (size_t)(close - open - 2);
                if (nn < sizeof(name)) {
                        memcpy(name, open + 2, nn);
                        name[nn] = '\0';
                        val = x->look(x->ctx, name);
                }
                if (val != NULL && depth < INTERP_DEPTH) {
                        expand(x, val, depth + 1);
                } else {
                        if (x->unres == NULL)
                                x->unres = prc_mx_keep(x->scratch, open + 2, nn, x->err);
                        x->over |= !prc_buf_put(&x->b, open, (size_t)(close + 1 - open), &x->berr);
                }
                s = close + 1;
        }
}

bool prc_mx_interpolate(const char *raw, const char *open, char close, prc_mx_lookup_fn *look, void *ctx,
                        json_t *scratch, const char **out, const char **unres, prc_err *err)
{
        interp x = { .open = open, .close = close, .look = look, .ctx = ctx, .scratch = scratch, .err = err,
                     .unres = NULL, .over = false };

        *out = raw;
        *unres = NULL;
        if (raw == NULL || strstr(raw, open) == NULL)
                return true;
        prc_err_init(&x.berr);
        prc_buf_init(&x.b, PRC_MD_STR_MAX + 1);
        expand(&x, raw, 0);
        if (x.berr.cls == PRC_E_OUT_OF_MEMORY) {
                prc_buf_clear(&x.b);
                return prc_err_oom(err, "property interpolation");
        }
        if (x.over) {
                /* Too long to be a version: left as written, and said so. */
                *unres = "(expansion longer than 4096 bytes)";
        } else {
                *out = prc_mx_keep(scratch, (const char *)x.b.data, x.b.len, err);
                *unres = x.unres;
        }
        prc_buf_clear(&x.b);
        return *out != NULL && !prc_err_is_set(err);
}
