/*
 * jsonc.c - JSONC reader (see jsonc.h for the dialect and rules).
 * Trust: input is hostile; runs only inside the content worker.  Recursion
 * is bounded by lim->depth_max, checked before descending; allocation is
 * bounded by the node and key limits and the input size.
 */
#include "content/parsers/jsonc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "base/utf8.h"
#include "content/parsers/text.h"

struct jp {
        const uint8_t    *p;
        size_t            n, i;
        const prc_limits *lim;
        unsigned          flags;
        prc_err          *err;
        uint64_t          nodes;
        prc_buf           sb;   /* scratch for one unescaped string */
};

static bool fail(struct jp *j, prc_errclass c, const char *what)
{
        return prc_err_at(j->err, c, j->i, "%s", what);
}

static bool oom(struct jp *j)
{
        return prc_err_oom(j->err, "a JSONC document");
}

/* Whitespace and comments. */
static bool skip(struct jp *j)
{
        while (j->i < j->n) {
                uint8_t c = j->p[j->i];

                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                        j->i++;
                        continue;
                }
                if (c == 0)
                        return fail(j, PRC_E_NUL_BYTE, "NUL byte in JSONC input");
                if (c != '/')
                        return true;
                if (j->i + 1 < j->n && j->p[j->i + 1] == '/') {
                        /* A line comment ends at LF or CR (VS Code's scanner). */
                        j->i += 2;
                        while (j->i < j->n && j->p[j->i] != '\n' && j->p[j->i] != '\r') {
                                if (j->p[j->i] == 0)
                                        return fail(j, PRC_E_NUL_BYTE, "NUL byte in a comment");
                                j->i++;
                        }
                        continue;
                }
                if (j->i + 1 < j->n && j->p[j->i + 1] == '*') {
                        size_t start = j->i;
                        const uint8_t *e;
                        j->i += 2;
                        for (;;) {
                                e = memchr(j->p + j->i, '*', j->n - j->i);
                                if (e == NULL || (size_t)(e - j->p) + 1 >= j->n) {
                                        j->i = start;
                                        return fail(j, PRC_E_JSONC_UNTERMINATED_COMMENT, "unterminated block comment");
                                }
                                if (memchr(j->p + j->i, 0, (size_t)(e - j->p) - j->i) != NULL) {
                                        j->i = (size_t)((const uint8_t *)memchr(j->p + j->i, 0, j->n - j->i) - j->p);
                                        return fail(j, PRC_E_NUL_BYTE, "NUL byte in a comment");
                                }
                                j->i = (size_t)(e - j->p) + 1;
                                if (j->p[j->i] == '/') {
                                        j->i++;
                                        break;
                                }
                        }
                        continue;
                }
                return fail(j, PRC_E_INVALID_JSON, "'/' that does not start a comment");
        }
        return true;
}

static bool count_node(struct jp *j)
{
        if (++j->nodes > j->lim->nodes_max)
                return fail(j, PRC_E_NODES_LIMIT, "more values than the node limit");
        return true;
}

static int hexval(int c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

static bool hex4(struct jp *j, size_t at, uint32_t *out)
{
        uint32_t v = 0;

        for (size_t k = 0; k < 4; k++) {
                int h = at + k < j->n ? hexval(j->p[at + k]) : -1;
                if (h < 0)
                        return false;
                v = v << 4 | (uint32_t)h;
        }
        *out = v;
        return true;
}

/*
 * At the opening quote.  On success out and out_len give the value: a view of
 * the input when the string has no escapes, else of j->sb.
 */
static bool string(struct jp *j, const char **out, size_t *out_len)
{
        size_t run, start;
        bool buffered = false;

        j->i++;
        run = start = j->i;
        for (;;) {
                uint8_t c;
                /* Fast scan of the plain bytes. */
                while (j->i < j->n && (c = j->p[j->i]) != '"' && c != '\\' && c >= 0x20)
                        j->i++;
                if (j->i >= j->n)
                        return prc_err_at(j->err, PRC_E_INVALID_JSON, start - 1, "unterminated string");
                c = j->p[j->i];
                if (c == '"')
                        break;
                if (c < 0x20) {
                        if (c == 0)
                                return fail(j, PRC_E_NUL_BYTE, "NUL byte in a string");
                        return fail(j, PRC_E_INVALID_JSON, "control character in a string");
                }
                /* A backslash: switch to the scratch buffer. */
                if (!buffered) {
                        prc_buf_reset(&j->sb);
                        buffered = true;
                }
                if (j->i > run && !prc_buf_put(&j->sb, j->p + run, j->i - run, j->err))
                        return false;
                {
                        int e = j->i + 1 < j->n ? j->p[j->i + 1] : -1;
                        uint8_t ch;
                        switch (e) {
                        case '"': ch = '"'; break;
                        case '\\': ch = '\\'; break;
                        case '/': ch = '/'; break;
                        case 'b': ch = '\b'; break;
                        case 'f': ch = '\f'; break;
                        case 'n': ch = '\n'; break;
                        case 'r': ch = '\r'; break;
                        case 't': ch = '\t'; break;
                        case 'u': {
                                uint32_t cp, lo;
                                uint8_t enc[4];
                                if (!hex4(j, j->i + 2, &cp))
                                        return fail(j, PRC_E_INVALID_JSON, "\\u needs 4 hex digits");
                                if (cp >= 0xDC00 && cp <= 0xDFFF)
                                        return fail(j, PRC_E_INVALID_JSON, "lone low surrogate escape");
                                if (cp >= 0xD800 && cp <= 0xDBFF) {
                                        if (j->i + 7 >= j->n || j->p[j->i + 6] != '\\' || j->p[j->i + 7] != 'u' ||
                                            !hex4(j, j->i + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                                                return fail(j, PRC_E_INVALID_JSON, "lone high surrogate escape");
                                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                        j->i += 6;
                                }
                                if (cp == 0 && !(j->flags & PRC_JSON_ALLOW_NUL))
                                        return fail(j, PRC_E_NUL_BYTE, "\\u0000 escape (NUL) in a string");
                                if (!prc_buf_put(&j->sb, enc, prc_utf8_encode(cp, enc), j->err))
                                        return false;
                                j->i += 6;
                                run = j->i;
                                continue;
                        }
                        default:
                                return fail(j, PRC_E_INVALID_JSON, "invalid escape in a string");
                        }
                        if (!prc_buf_putc(&j->sb, ch, j->err))
                                return false;
                        j->i += 2;
                        run = j->i;
                }
        }
        if (buffered) {
                if (j->i > run && !prc_buf_put(&j->sb, j->p + run, j->i - run, j->err))
                        return false;
                *out = (const char *)j->sb.data;
                *out_len = j->sb.len;
        } else {
                *out = (const char *)j->p + start;
                *out_len = j->i - start;
        }
        j->i++;
        if (*out_len > j->lim->scalar_max)
                return prc_err_at(j->err, PRC_E_SCALAR_LIMIT, start - 1, "string of %zu bytes exceeds %zu",
                                  *out_len, j->lim->scalar_max);
        return true;
}

static json_t *number(struct jp *j)
{
        size_t start = j->i, k = j->i;
        bool neg = false, is_float = false, overflow = false;
        uint64_t acc = 0;

        if (k < j->n && j->p[k] == '-') {
                neg = true;
                k++;
        }
        if (k >= j->n || j->p[k] < '0' || j->p[k] > '9')
                return fail(j, PRC_E_INVALID_JSON, "invalid number"), NULL;
        if (j->p[k] == '0') {
                k++;
        } else {
                while (k < j->n && j->p[k] >= '0' && j->p[k] <= '9') {
                        unsigned d = j->p[k] - '0';
                        if (acc > (UINT64_MAX - d) / 10)
                                overflow = true;
                        else
                                acc = acc * 10 + d;
                        k++;
                }
        }
        if (k < j->n && j->p[k] == '.') {
                size_t d = ++k;
                is_float = true;
                while (k < j->n && j->p[k] >= '0' && j->p[k] <= '9')
                        k++;
                if (k == d)
                        return j->i = k, fail(j, PRC_E_INVALID_JSON, "a fraction needs digits"), NULL;
        }
        if (k < j->n && (j->p[k] == 'e' || j->p[k] == 'E')) {
                size_t d;
                is_float = true;
                k++;
                if (k < j->n && (j->p[k] == '+' || j->p[k] == '-'))
                        k++;
                d = k;
                while (k < j->n && j->p[k] >= '0' && j->p[k] <= '9')
                        k++;
                if (k == d)
                        return j->i = k, fail(j, PRC_E_INVALID_JSON, "an exponent needs digits"), NULL;
        }
        if (!count_node(j))
                return NULL;
        if (is_float) {
                char buf[64], *end, *heap = NULL;
                const char *s = buf;
                double d;
                json_t *v;
                size_t len = k - start;
                if (!(j->flags & PRC_JSON_ALLOW_FLOAT))
                        return fail(j, PRC_E_UNSAFE_NUMBER, "floats are not allowed here"), NULL;
                if (len < sizeof(buf)) {
                        memcpy(buf, j->p + start, len);
                        buf[len] = '\0';
                } else {
                        heap = malloc(len + 1);
                        if (heap == NULL)
                                return oom(j), NULL;
                        memcpy(heap, j->p + start, len);
                        heap[len] = '\0';
                        s = heap;
                }
                /*
                 * The syntax was checked above, so strtod reads exactly these bytes
                 * (C locale: the worker never calls setlocale).
                 */
                d = strtod(s, &end);
                (void)end;
                free(heap);
                if (!isfinite(d))
                        return fail(j, PRC_E_UNSAFE_NUMBER, "float overflows a double"), NULL;
                j->i = k;
                v = json_real(d);
                if (v == NULL)
                        oom(j);
                return v;
        }
        if (overflow || acc > (uint64_t)INT64_MAX + (neg ? 1 : 0))
                return fail(j, PRC_E_UNSAFE_NUMBER, "integer too big"), NULL;
        if (!(j->flags & PRC_JSON_ALLOW_UNSAFE_INT) && acc > (uint64_t)PRC_SAFE_INT_MAX)
                return fail(j, PRC_E_UNSAFE_NUMBER, "integer outside [-(2^53-1), 2^53-1]"), NULL;
        j->i = k;
        {
                int64_t iv = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
                json_t *v = json_integer((json_int_t)iv);
                if (v == NULL)
                        oom(j);
                return v;
        }
}

static json_t *value(struct jp *j, uint32_t depth);

static bool literal(struct jp *j, const char *word, size_t len)
{
        if (j->n - j->i < len || memcmp(j->p + j->i, word, len) != 0)
                return fail(j, PRC_E_INVALID_JSON, "invalid literal");
        j->i += len;
        return true;
}

enum member_end { MEMBER_FAIL, MEMBER_MORE, MEMBER_CLOSED };

/*
 * After an array element or object member: ',' then more (one trailing
 * comma before the close is JSONC; a second one fails later as a missing
 * value), or the close, or an error with the container's own wording.
 */
static enum member_end after_member(struct jp *j, char close, const char *expected, const char *unterminated)
{
        if (!skip(j))
                return MEMBER_FAIL;
        if (j->i < j->n && j->p[j->i] == ',') {
                j->i++;
                if (!skip(j))
                        return MEMBER_FAIL;
                if (j->i < j->n && j->p[j->i] == close) {
                        j->i++;
                        return MEMBER_CLOSED;
                }
                return MEMBER_MORE;
        }
        if (j->i < j->n && j->p[j->i] == close) {
                j->i++;
                return MEMBER_CLOSED;
        }
        fail(j, PRC_E_INVALID_JSON, j->i < j->n ? expected : unterminated);
        return MEMBER_FAIL;
}

static json_t *array(struct jp *j, uint32_t depth)
{
        json_t *arr, *v;

        arr = json_array();
        if (arr == NULL)
                return oom(j), NULL;
        j->i++;
        if (!skip(j))
                goto fail;
        if (j->i < j->n && j->p[j->i] == ']') {
                j->i++;
                return arr;
        }
        for (;;) {
                v = value(j, depth);
                if (v == NULL)
                        goto fail;
                if (json_array_append_new(arr, v) != 0) {
                        oom(j);
                        goto fail;
                }
                switch (after_member(j, ']', "expected ',' or ']'", "unterminated array")) {
                case MEMBER_MORE: continue;
                case MEMBER_CLOSED: return arr;
                default: goto fail;
                }
        }
fail:
        json_decref(arr);
        return NULL;
}

static json_t *object(struct jp *j, uint32_t depth)
{
        json_t *obj, *v;

        obj = json_object();
        if (obj == NULL)
                return oom(j), NULL;
        j->i++;
        if (!skip(j))
                goto fail;
        if (j->i < j->n && j->p[j->i] == '}') {
                j->i++;
                return obj;
        }
        for (;;) {
                const char *k;
                size_t klen, kat = j->i;
                char *kcopy;

                if (j->i >= j->n || j->p[j->i] != '"') {
                        fail(j, PRC_E_INVALID_JSON, j->i < j->n ? "expected a string key" : "unterminated object");
                        goto fail;
                }
                if (!string(j, &k, &klen))
                        goto fail;
                if (json_object_getn(obj, k, klen) != NULL) {
                        prc_err_at(j->err, PRC_E_DUPLICATE_FIELD, kat, "duplicate key '%.*s'",
                                   (int)(klen > 64 ? 64 : klen), k);
                        goto fail;
                }
                if (json_object_size(obj) >= j->lim->keys_max) {
                        prc_err_at(j->err, PRC_E_NODES_LIMIT, kat, "object with more than %" PRIu32 " keys",
                                   j->lim->keys_max);
                        goto fail;
                }
                /* The key may live in the scratch buffer, which the value reuses: copy it. */
                kcopy = NULL;
                if (k == (const char *)j->sb.data) {
                        kcopy = malloc(klen + 1);
                        if (kcopy == NULL) {
                                oom(j);
                                goto fail;
                        }
                        memcpy(kcopy, k, klen);
                        k = kcopy;
                }
                if (!skip(j) || j->i >= j->n || j->p[j->i] != ':') {
                        fail(j, PRC_E_INVALID_JSON, "expected ':' after a key");
                        free(kcopy);
                        goto fail;
                }
                j->i++;
                if (!skip(j)) {
                        free(kcopy);
                        goto fail;
                }
                v = value(j, depth);
                if (v == NULL || json_object_setn_new_nocheck(obj, k, klen, v) != 0) {
                        if (v != NULL)
                                oom(j);
                        free(kcopy);
                        goto fail;
                }
                free(kcopy);
                switch (after_member(j, '}', "expected ',' or '}'", "unterminated object")) {
                case MEMBER_MORE: continue;
                case MEMBER_CLOSED: return obj;
                default: goto fail;
                }
        }
fail:
        json_decref(obj);
        return NULL;
}

static json_t *value(struct jp *j, uint32_t depth)
{
        int c;

        if (!skip(j))
                return NULL;
        if (j->i >= j->n)
                return fail(j, PRC_E_INVALID_JSON, "expected a value"), NULL;
        c = j->p[j->i];
        switch (c) {
        case '{':
        case '[':
                if (depth >= j->lim->depth_max)
                        return prc_err_at(j->err, PRC_E_DEPTH_LIMIT, j->i, "nesting deeper than %" PRIu32,
                                          j->lim->depth_max), NULL;
                if (!count_node(j))
                        return NULL;
                return c == '{' ? object(j, depth + 1) : array(j, depth + 1);
        case '"': {
                const char *s;
                size_t len;
                json_t *v;
                if (!count_node(j) || !string(j, &s, &len))
                        return NULL;
                v = json_stringn_nocheck(len ? s : "", len);
                if (v == NULL)
                        oom(j);
                return v;
        }
        case 't':
                return count_node(j) && literal(j, "true", 4) ? json_true() : NULL;
        case 'f':
                return count_node(j) && literal(j, "false", 5) ? json_false() : NULL;
        case 'n':
                return count_node(j) && literal(j, "null", 4) ? json_null() : NULL;
        default:
                if (c == '-' || (c >= '0' && c <= '9'))
                        return number(j);
                if (c == 0)
                        return fail(j, PRC_E_NUL_BYTE, "NUL byte in JSONC input"), NULL;
                return fail(j, PRC_E_INVALID_JSON, "expected a value"), NULL;
        }
}

json_t *prc_jsonc_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct jp j = { .p = p, .n = n, .lim = lim, .flags = flags, .err = err };
        json_t *v = NULL;

        if (!prc_text_precheck(p, n, lim, err)) {
                prc_text_err_locate(err, p, n, false);
                return NULL;
        }
        prc_buf_init(&j.sb, n + 16);
        v = value(&j, 0);
        if (v != NULL && !skip(&j)) {
                json_decref(v);
                v = NULL;
        }
        if (v != NULL && j.i < j.n) {
                if (j.p[j.i] == 0)
                        fail(&j, PRC_E_NUL_BYTE, "NUL byte after the value");
                else
                        fail(&j, PRC_E_INVALID_JSON, "data after the value");
                json_decref(v);
                v = NULL;
        }
        prc_buf_clear(&j.sb);
        if (v == NULL)
                prc_text_err_locate(err, p, n, false);
        return v;
}
