/*
 * xml.c - bounded XML reader on expat (policy and shape: xml.h).
 * Trust: input is hostile; runs only inside the content worker.  expat never
 * sees a DTD (refused at its first byte), never resolves an entity, and
 * allocates through a counting allocator with a hard cap.  expat does not
 * print; every failure becomes one prc_err.  Errors: the xml-* classes and
 * the base limit classes.
 */
#include "content/parsers/xml.h"

/* Debian's libexpat is built with XML_DTD; the header hides the amplification API without it. */
#ifndef XML_DTD
#define XML_DTD 1
#endif
#include <expat.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "base/buf.h"
#include "base/kept.h"
#include "base/utf8.h"

#if XML_MAJOR_VERSION < 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION < 4)
#error "expat >= 2.4 is required for the amplification limits"
#endif

/* Namespace triplet separator: 0x01 is not an XML 1.0 Char, so no name or URI holds it. */
#define NS_SEP '\x01'

/*
 * Counting allocator.  expat's memory suite has no context pointer, so the
 * budget lives in a thread-local; one parse runs at a time per thread.
 */
static _Thread_local struct {
        size_t used, max;
} mem;

typedef union {
        size_t      n;
        max_align_t align;
} memhdr;

static void *mem_malloc(size_t n)
{
        memhdr *h;

        if (n > mem.max || mem.used > mem.max - n)
                return NULL;
        h = malloc(sizeof(*h) + n);
        if (h == NULL)
                return NULL;
        h->n = n;
        mem.used += n;
        return h + 1;
}

static void mem_free(void *p)
{
        memhdr *h;

        if (p == NULL)
                return;
        h = (memhdr *)p - 1;
        mem.used -= h->n;
        free(h);
}

static void *mem_realloc(void *p, size_t n)
{
        memhdr *h, *nh;
        size_t old;

        if (p == NULL)
                return mem_malloc(n);
        h = (memhdr *)p - 1;
        old = h->n;
        if (n > old && (n - old > mem.max || mem.used > mem.max - (n - old)))
                return NULL;
        nh = realloc(h, sizeof(*nh) + n);
        if (nh == NULL)
                return NULL;
        mem.used = mem.used - old + n;
        nh->n = n;
        return nh + 1;
}

static const XML_Memory_Handling_Suite memsuite = { mem_malloc, mem_realloc, mem_free };

struct frame {
        json_t *el;             /* borrowed: the open element, owned by its parent's list (or root) */
        json_t *children;       /* borrowed: owned by el */
};

struct ctx {
        XML_Parser        xp;
        const prc_limits *lim;
        unsigned          flags;
        prc_err          *err;
        json_t           *root;         /* owned until returned */
        struct frame     *stack;        /* owned; depth_max entries */
        uint32_t          depth;
        uint32_t          nodes;
        uint64_t          cost, budget;  /* estimated bytes of the JSON tree, and its cap */
        prc_buf           text;         /* pending character data of the open element */
        prc_buf           qn;           /* scratch for qualified names, reused */
        prc_err           scratch;      /* for buffer calls; only read after one fails (the parse ends) */
        json_t           *nsdecls;      /* owned: xmlns attributes for the next element, or NULL */
        const uint8_t    *in;           /* borrowed: the input, for the UTF-8 check the declaration decides */
        size_t            n;
        bool              utf8_pending; /* 8-bit input with an XML declaration: UTF-8 unchecked until it is read */
        bool              utf8_bom;     /* the input starts with a UTF-8 byte order mark */
        bool              transcoded;   /* expat decodes another encoding (ISO-8859-1, UTF-16) into UTF-8 */
        bool              failed;
};

/* Record err at expat's current position and stop the parser. */
PRC_PRINTF(3, 4) static void fail(struct ctx *c, prc_errclass cls, const char *fmt, ...)
{
        if (!prc_err_is_set(c->err)) {
                XML_Index off = XML_GetCurrentByteIndex(c->xp);
                char msg[200];
                va_list ap;
                va_start(ap, fmt);
                vsnprintf(msg, sizeof(msg), fmt, ap);
                va_end(ap);
                prc_err_at(c->err, cls, off >= 0 ? (uint64_t)off : PRC_NO_OFF, "%s", msg);
                prc_err_set_line(c->err, (uint32_t)XML_GetCurrentLineNumber(c->xp),
                                 (uint32_t)XML_GetCurrentColumnNumber(c->xp) + 1);
        }
        c->failed = true;
        XML_StopParser(c->xp, XML_FALSE);
}

/* Line and column (1-based, in bytes) of offset off in p. */
static void locate(const uint8_t *p, size_t off, uint32_t *line, uint32_t *col)
{
        uint32_t l = 1, cl = 1;

        for (size_t i = 0; i < off; i++) {
                if (p[i] == '\n') {
                        l++;
                        cl = 1;
                } else {
                        cl++;
                }
        }
        *line = l;
        *col = cl;
}

/* The input is not valid UTF-8 at bad: the class and place the precheck has always given. */
static bool invalid_utf8_at(const uint8_t *p, size_t bad, prc_err *err)
{
        uint32_t line, col;

        prc_err_at(err, PRC_E_INVALID_UTF8, bad, "XML is not valid UTF-8");
        locate(p, bad, &line, &col);
        prc_err_set_line(err, line, col);
        return false;
}

/*
 * The UTF-8 check that an XML declaration decides: run when the input
 * turns out to be UTF-8 (no encoding declared, UTF-8 or US-ASCII).
 */
static bool check_pending_utf8(struct ctx *c)
{
        size_t bad;

        c->utf8_pending = false;
        if (prc_utf8_valid(c->in, c->n, &bad))
                return true;
        if (!prc_err_is_set(c->err))
                invalid_utf8_at(c->in, bad, c->err);
        c->failed = true;
        XML_StopParser(c->xp, XML_FALSE);
        return false;
}

/* Charge the estimated heap cost of a new JSON value; false (and stop) past the budget. */
static bool charge(struct ctx *c, uint64_t bytes)
{
        c->cost += bytes;
        if (c->cost <= c->budget)
                return true;
        fail(c, PRC_E_NODES_LIMIT, "document tree would exceed %" PRIu64 " bytes (%d x the input + %d MiB)",
             c->budget, PRC_XML_TREE_FACTOR, PRC_XML_TREE_FLOOR >> 20);
        return false;
}

static bool only_ws(const uint8_t *p, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
                        return false;
        return true;
}

/* Move pending text into the open element's children. */
static bool flush_text(struct ctx *c)
{
        json_t *s;

        if (c->text.len == 0)
                return true;
        if (c->depth == 0 || (!(c->flags & PRC_XML_KEEP_WHITESPACE) && only_ws(c->text.data, c->text.len))) {
                prc_buf_reset(&c->text);
                return true;
        }
        if (c->nodes >= c->lim->nodes_max) {
                fail(c, PRC_E_NODES_LIMIT, "more than %" PRIu32 " elements and text nodes", c->lim->nodes_max);
                return false;
        }
        c->nodes++;
        if (!charge(c, PRC_XML_COST_TEXT + c->text.len))
                return false;
        s = json_stringn((const char *)c->text.data, c->text.len);
        if (s == NULL || json_array_append_new(c->stack[c->depth - 1].children, s) != 0) {
                fail(c, PRC_E_OUT_OF_MEMORY, "out of memory building a text node");
                return false;
        }
        prc_buf_reset(&c->text);
        return true;
}

/*
 * Split an expat triplet "uri SEP local [SEP prefix]" (or a plain "local")
 * into the qualified name as written and the namespace URI (NULL if none).
 */
static bool qname(struct ctx *c, const char *triplet, prc_buf *out, const char **out_ns, size_t *out_nslen)
{
        const char *s1 = strchr(triplet, NS_SEP), *local, *s2;
        prc_err *e2 = &c->scratch;

        prc_buf_reset(out);
        *out_ns = NULL;
        *out_nslen = 0;
        if (s1 == NULL) {
                local = triplet;
                s2 = NULL;
        } else {
                *out_ns = triplet;
                *out_nslen = (size_t)(s1 - triplet);
                local = s1 + 1;
                s2 = strchr(local, NS_SEP);
        }
        if (s2 != NULL) {
                if (!prc_buf_puts(out, s2 + 1, e2) || !prc_buf_putc(out, ':', e2) ||
                    !prc_buf_put(out, local, (size_t)(s2 - local), e2))
                        goto toolong;
        } else if (!prc_buf_puts(out, local, e2)) {
                goto toolong;
        }
        return true;
toolong:
        fail(c, e2->cls == PRC_E_BUFFER_LIMIT ? PRC_E_SCALAR_LIMIT : PRC_E_OUT_OF_MEMORY,
             "name longer than %zu bytes", c->lim->scalar_max);
        return false;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
        struct ctx *c = ud;
        json_t *el = NULL, *attrs = NULL, *children = NULL;
        const char *ns;
        size_t nslen, natts = 0;
        prc_buf *qn = &c->qn;

        if (c->failed || (c->utf8_pending && !check_pending_utf8(c)) || !flush_text(c))
                return;
        if (c->depth >= c->lim->depth_max) {
                fail(c, PRC_E_DEPTH_LIMIT, "elements nest deeper than %" PRIu32, c->lim->depth_max);
                return;
        }
        if (c->nodes >= c->lim->nodes_max) {
                fail(c, PRC_E_NODES_LIMIT, "more than %" PRIu32 " elements and text nodes", c->lim->nodes_max);
                return;
        }
        c->nodes++;
        while (atts[natts] != NULL)
                natts += 2;
        natts /= 2;
        if (c->nsdecls != NULL)
                natts += json_object_size(c->nsdecls);
        if (natts > PRC_XML_ATTRS_MAX) {
                fail(c, PRC_E_XML_ATTRS_LIMIT, "an element has more than %d attributes", PRC_XML_ATTRS_MAX);
                return;
        }
        if (!charge(c, PRC_XML_COST_ELEMENT + (uint64_t)natts * PRC_XML_COST_ATTR + strlen(name)))
                return;
        el = json_object();
        children = json_array();
        attrs = c->nsdecls != NULL ? c->nsdecls : json_object();
        c->nsdecls = NULL;
        if (el == NULL || children == NULL || attrs == NULL)
                goto oom;
        for (size_t i = 0; atts[i] != NULL; i += 2) {
                size_t vlen = strlen(atts[i + 1]);
                if (!charge(c, vlen))
                        goto out;
                if (vlen > c->lim->scalar_max) {
                        fail(c, PRC_E_SCALAR_LIMIT, "attribute value longer than %zu bytes", c->lim->scalar_max);
                        goto out;
                }
                if (!qname(c, atts[i], qn, &ns, &nslen))
                        goto out;
                if (json_object_setn_new_nocheck(attrs, prc_buf_cstr(qn), qn->len,
                                                 json_stringn(atts[i + 1], vlen)) != 0)
                        goto oom;
        }
        if (!qname(c, name, qn, &ns, &nslen))
                goto out;
        if (json_object_set_new_nocheck(el, "name", json_stringn(prc_buf_cstr(qn), qn->len)) != 0 ||
            (ns != NULL && json_object_set_new_nocheck(el, "ns", json_stringn(ns, nslen)) != 0) ||
            json_object_set_nocheck(el, "attrs", attrs) != 0 ||
            json_object_set_nocheck(el, "children", children) != 0)
                goto oom;
        if (c->depth == 0) {
                c->root = el;
        } else if (json_array_append(c->stack[c->depth - 1].children, el) != 0) {
                goto oom;
        }
        c->stack[c->depth].children = children;
        c->stack[c->depth].el = el;
        c->depth++;
        json_decref(attrs);
        json_decref(children);
        if (c->root != el)
                json_decref(el);
        return;
oom:
        fail(c, PRC_E_OUT_OF_MEMORY, "out of memory building an element");
out:
        json_decref(el);
        json_decref(attrs);
        json_decref(children);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
        struct ctx *c = ud;
        struct frame *f;

        (void)name;
        if (c->failed || !flush_text(c))
                return;
        c->depth--;
        /* Compact shape: empty "attrs" and "children" are left out. */
        f = &c->stack[c->depth];
        if (json_array_size(f->children) == 0)
                json_object_del(f->el, "children");
        if (json_object_size(json_object_get(f->el, "attrs")) == 0)
                json_object_del(f->el, "attrs");
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
        struct ctx *c = ud;

        if (c->failed)
                return;
        if (!prc_buf_put(&c->text, s, (size_t)len, &c->scratch))
                fail(c, c->scratch.cls == PRC_E_BUFFER_LIMIT ? PRC_E_SCALAR_LIMIT : PRC_E_OUT_OF_MEMORY,
                     "text node longer than %zu bytes", c->lim->scalar_max);
}

static void XMLCALL on_nsdecl(void *ud, const XML_Char *prefix, const XML_Char *uri)
{
        struct ctx *c = ud;
        prc_buf key;
        prc_err e2;

        if (c->failed)
                return;
        prc_buf_init(&key, c->lim->scalar_max);
        prc_err_init(&e2);
        if (!prc_buf_puts(&key, "xmlns", &e2) ||
            (prefix != NULL && (!prc_buf_putc(&key, ':', &e2) || !prc_buf_puts(&key, prefix, &e2)))) {
                fail(c, e2.cls == PRC_E_BUFFER_LIMIT ? PRC_E_SCALAR_LIMIT : PRC_E_OUT_OF_MEMORY,
                     "namespace prefix longer than %zu bytes", c->lim->scalar_max);
                prc_buf_clear(&key);
                return;
        }
        if (c->nsdecls == NULL)
                c->nsdecls = json_object();
        if (c->nsdecls == NULL ||
            json_object_setn_new_nocheck(c->nsdecls, prc_buf_cstr(&key), key.len,
                                         json_string(uri != NULL ? uri : "")) != 0)
                fail(c, PRC_E_OUT_OF_MEMORY, "out of memory building namespace declarations");
        prc_buf_clear(&key);
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal)
{
        struct ctx *c = ud;

        (void)name;
        (void)sysid;
        (void)pubid;
        (void)has_internal;
        fail(c, PRC_E_XML_DOCTYPE, "DOCTYPE refused: prc accepts no DTD");
}

static void XMLCALL on_entitydecl(void *ud, const XML_Char *name, int is_param, const XML_Char *value, int vlen,
                                  const XML_Char *base, const XML_Char *sysid, const XML_Char *pubid,
                                  const XML_Char *notation)
{
        struct ctx *c = ud;

        (void)name, (void)is_param, (void)value, (void)vlen, (void)base, (void)sysid, (void)pubid;
        (void)notation;
        fail(c, PRC_E_XML_DOCTYPE, "entity declaration refused: prc accepts no DTD");
}

static int XMLCALL on_extent(XML_Parser xp, const XML_Char *context, const XML_Char *base, const XML_Char *sysid,
                             const XML_Char *pubid)
{
        struct ctx *c = XML_GetUserData(xp);

        (void)context, (void)base, (void)sysid, (void)pubid;
        fail(c, PRC_E_XML_ENTITY, "external entity refused: prc never resolves one");
        return XML_STATUS_ERROR;
}

static bool ascii_ieq(const char *a, const char *b)
{
        for (; *a && *b; a++, b++) {
                char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
                char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
                if (x != y)
                        return false;
        }
        return *a == *b;
}

/* Every key and string of a tree built here is valid UTF-8 (depth: twice the element depth). */
static bool tree_utf8(const json_t *v)
{
        const char *k;
        json_t *m;
        size_t i, bad;

        switch (json_typeof(v)) {
        case JSON_STRING:
                return prc_utf8_valid((const uint8_t *)json_string_value(v), json_string_length(v), &bad);
        case JSON_ARRAY:
                json_array_foreach(v, i, m)
                        if (!tree_utf8(m))
                                return false;
                return true;
        case JSON_OBJECT:
                json_object_foreach((json_t *)v, k, m)
                        if (!prc_utf8_valid((const uint8_t *)k, strlen(k), &bad) || !tree_utf8(m))
                                return false;
                return true;
        default:
                return true;
        }
}

/*
 * expat's built-in decoders (xmltok.c); any other name would need an
 * unknown-encoding handler.  The first two read UTF-8 bytes as they are.
 */
static const char *const expat_encodings[] = { "UTF-8", "US-ASCII", "ISO-8859-1", "UTF-16", "UTF-16BE", "UTF-16LE" };

/*
 * The declaration is expat's first callback.  It decides the pending UTF-8
 * check: UTF-8 and US-ASCII input is checked whole, as the precheck does for
 * input without a declaration; ISO-8859-1 bytes are all characters, which
 * expat decodes into UTF-8 itself.  A name expat cannot decode is refused
 * by name (issue 16: before, everything but UTF-8 and US-ASCII was).
 */
static void XMLCALL on_xmldecl(void *ud, const XML_Char *version, const XML_Char *encoding, int standalone)
{
        struct ctx *c = ud;
        bool known = encoding == NULL, utf8 = encoding == NULL;

        (void)version;
        (void)standalone;
        if (c->failed)
                return;
        for (size_t i = 0; encoding != NULL && i < PRC_ARRAY_LEN(expat_encodings); i++)
                if (ascii_ieq(encoding, expat_encodings[i])) {
                        known = true;
                        utf8 = i < 2;    /* UTF-8 or US-ASCII */
                }
        if (!known) {
                fail(c, PRC_E_XML_ENCODING,
                     "encoding '%.64s' refused: prc reads UTF-8, US-ASCII, ISO-8859-1 and UTF-16", encoding);
                return;
        }
        if (c->utf8_bom && !utf8) {
                fail(c, PRC_E_XML_ENCODING, "a UTF-8 byte order mark, but encoding '%.64s' declared", encoding);
                return;
        }
        if (!c->utf8_pending)
                return;         /* UTF-16 input: a mismatching name is expat's incorrect-encoding error */
        if (utf8) {
                (void)check_pending_utf8(c);    /* a failure has stopped the parser */
        } else {
                c->utf8_pending = false;
                c->transcoded = true;
        }
}

static prc_errclass map_expat(enum XML_Error code)
{
        switch (code) {
        case XML_ERROR_NO_MEMORY:
                return PRC_E_OUT_OF_MEMORY;
        case XML_ERROR_UNKNOWN_ENCODING:
        case XML_ERROR_INCORRECT_ENCODING:
                return PRC_E_XML_ENCODING;
        case XML_ERROR_UNDEFINED_ENTITY:
        case XML_ERROR_RECURSIVE_ENTITY_REF:
        case XML_ERROR_BINARY_ENTITY_REF:
        case XML_ERROR_ATTRIBUTE_EXTERNAL_ENTITY_REF:
        case XML_ERROR_EXTERNAL_ENTITY_HANDLING:
        case XML_ERROR_PARAM_ENTITY_REF:
        case XML_ERROR_ENTITY_DECLARED_IN_PE:
        case XML_ERROR_AMPLIFICATION_LIMIT_BREACH:
                return PRC_E_XML_ENTITY;
        default:
                return PRC_E_XML_SYNTAX;
        }
}

static bool xml_space(uint8_t b)
{
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
}

/* Line and column (1-based, in UTF-16 code units) of offset off in UTF-16 input p (big-endian if be). */
static void locate16(const uint8_t *p, size_t off, bool be, uint32_t *line, uint32_t *col)
{
        uint32_t l = 1, cl = 1;

        for (size_t i = 2; i < off; i += 2) {   /* off is even: units before it are whole */
                unsigned u = be ? (unsigned)p[i] << 8 | p[i + 1] : (unsigned)p[i + 1] << 8 | p[i];
                if (u == '\n') {
                        l++;
                        cl = 1;
                } else {
                        cl++;
                }
        }
        *line = l;
        *col = cl;
}

/* Refuse UTF-16 input at off (even) with cls. */
PRC_PRINTF(6, 7) static bool fail16(const uint8_t *p, size_t off, bool be, prc_err *err, prc_errclass cls,
                                    const char *fmt, ...)
{
        uint32_t line, col;
        char msg[160];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        prc_err_at(err, cls, off, "%s", msg);
        locate16(p, off, be, &line, &col);
        prc_err_set_line(err, line, col);
        return false;
}

/*
 * UTF-16 after its byte order mark, checked before expat decodes it: an
 * even length, every surrogate in a pair (expat 2.5 turns a high surrogate
 * followed by anything into some other character), no U+0000.
 */
static bool utf16_check(const uint8_t *p, size_t n, prc_err *err)
{
        bool be = p[0] == 0xFE;

        if (n % 2 != 0)
                return fail16(p, n - 1, be, err, PRC_E_XML_INVALID_UTF16, "UTF-16 input of odd length (%zu bytes)", n);
        for (size_t i = 2; i < n; i += 2) {
                unsigned u = be ? (unsigned)p[i] << 8 | p[i + 1] : (unsigned)p[i + 1] << 8 | p[i];
                if (u == 0)
                        return fail16(p, i, be, err, PRC_E_NUL_BYTE, "NUL character in XML (not an XML character)");
                if (u >= 0xDC00 && u <= 0xDFFF)
                        return fail16(p, i, be, err, PRC_E_XML_INVALID_UTF16,
                                      "UTF-16 low surrogate 0x%04X without a high one", u);
                if (u >= 0xD800 && u <= 0xDBFF) {
                        unsigned v = 0;
                        if (i + 3 < n)
                                v = be ? (unsigned)p[i + 2] << 8 | p[i + 3] : (unsigned)p[i + 3] << 8 | p[i + 2];
                        if (v < 0xDC00 || v > 0xDFFF)
                                return fail16(p, i, be, err, PRC_E_XML_INVALID_UTF16,
                                              "UTF-16 high surrogate 0x%04X without a low one", u);
                        i += 2;
                }
        }
        return true;
}

/*
 * Checks made before expat sees a byte: size, encoding signature, NUL,
 * UTF-8.  Sets c->transcoded for UTF-16 (a byte order mark), and
 * c->utf8_pending when an XML declaration will say whether the 8-bit input
 * is UTF-8 (checked whole then) or ISO-8859-1 (on_xmldecl).
 */
static bool precheck(struct ctx *c, const uint8_t *p, size_t n, const prc_limits *lim, prc_err *err)
{
        const uint8_t *z;
        size_t bad, o;
        uint32_t line, col;

        if (n > lim->input_max || n > (size_t)INT32_MAX)
                return prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "XML input of %zu bytes is over the %zu-byte cap",
                                   n, lim->input_max);
        if (n >= 2 && ((p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE))) {
                c->transcoded = true;
                return utf16_check(p, n, err);
        }
        /* A declaration in UTF-16 ("<?" as two 16-bit units): XML requires the byte order mark then. */
        if (n >= 4 && ((memcmp(p, "<\0?\0", 4) == 0) || memcmp(p, "\0<\0?", 4) == 0))
                return prc_err_at(err, PRC_E_XML_ENCODING, 0,
                                  "UTF-16 without a byte order mark: prc reads UTF-16 only after one");
        z = n ? memchr(p, 0, n) : NULL;
        if (z != NULL) {
                prc_err_at(err, PRC_E_NUL_BYTE, (uint64_t)(z - p), "NUL byte in XML (not an XML character)");
                locate(p, (size_t)(z - p), &line, &col);
                prc_err_set_line(err, line, col);
                return false;
        }
        c->utf8_bom = n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF;
        o = c->utf8_bom ? 3 : 0;
        /* An XML declaration starts the entity exactly so (expat reads it the same way). */
        if (n - o > 5 && memcmp(p + o, "<?xml", 5) == 0 && xml_space(p[o + 5])) {
                c->utf8_pending = true;
                return true;
        }
        if (!prc_utf8_valid(p, n, &bad))
                return invalid_utf8_at(p, bad, err);
        return true;
}

/*
 * Hash salt from getrandom, so expat never opens /dev/urandom (the worker
 * has no filesystem).  If getrandom is unavailable the salt is weaker but
 * attribute counts are capped, so hash flooding stays bounded.
 */
static unsigned long salt(void)
{
        unsigned long s = 0;
        static _Thread_local unsigned long counter;

        if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != (ssize_t)sizeof(s))
                s = (unsigned long)time(NULL) ^ ((unsigned long)(uintptr_t)&s << 7) ^ ++counter;
        return s != 0 ? s : 0x5bd1e995UL;
}

json_t *prc_xml_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        struct ctx c;
        json_t *res = NULL;
        enum XML_Status st;
        size_t bad;

        if (flags & ~(unsigned)PRC_XML_KEEP_WHITESPACE) {
                prc_err_set(err, PRC_E_USAGE, "unknown XML flags 0x%x", flags);
                return NULL;
        }
        /* The worker's verdict parse of these very bytes (base/kept.h). */
        res = prc_kept_take(PRC_KEPT_XML, p, n, lim, flags, NULL);
        if (res != NULL)
                return res;
        memset(&c, 0, sizeof(c));
        if (!precheck(&c, p, n, lim, err))
                return NULL;
        c.in = p;
        c.n = n;
        c.lim = lim;
        c.flags = flags;
        c.err = err;
        prc_buf_init(&c.text, lim->scalar_max);
        prc_buf_init(&c.qn, lim->scalar_max);
        prc_err_init(&c.scratch);
        c.budget = PRC_XML_TREE_FLOOR;
        if (n <= (UINT64_MAX - PRC_XML_TREE_FLOOR) / PRC_XML_TREE_FACTOR)
                c.budget += (uint64_t)n * PRC_XML_TREE_FACTOR;
        c.stack = calloc(lim->depth_max ? lim->depth_max : 1, sizeof(*c.stack));
        if (c.stack == NULL) {
                prc_err_oom(err, "the XML element stack");
                goto out;
        }
        mem.used = 0;
        mem.max = PRC_XML_MEM_FLOOR;
        if (n <= (SIZE_MAX - PRC_XML_MEM_FLOOR) / PRC_XML_MEM_FACTOR)
                mem.max += n * PRC_XML_MEM_FACTOR;
        c.xp = XML_ParserCreate_MM(NULL, &memsuite, (XML_Char[]){ NS_SEP, 0 });
        if (c.xp == NULL) {
                prc_err_oom(err, "the XML parser");
                goto out;
        }
        XML_SetReturnNSTriplet(c.xp, 1);
        if (!XML_SetHashSalt(c.xp, salt()) ||
            !XML_SetParamEntityParsing(c.xp, XML_PARAM_ENTITY_PARSING_NEVER) ||
            /* No entity can be declared (DOCTYPE refused); the factor stays tight regardless. */
            !XML_SetBillionLaughsAttackProtectionMaximumAmplification(c.xp, 2.0f) ||
            !XML_SetBillionLaughsAttackProtectionActivationThreshold(c.xp, 1u << 20)) {
                prc_err_set(err, PRC_E_INTERNAL, "expat refused a protection setting");
                goto out;
        }
        XML_SetUserData(c.xp, &c);
        XML_SetElementHandler(c.xp, on_start, on_end);
        XML_SetCharacterDataHandler(c.xp, on_text);
        XML_SetStartNamespaceDeclHandler(c.xp, on_nsdecl);
        XML_SetStartDoctypeDeclHandler(c.xp, on_doctype);
        XML_SetEntityDeclHandler(c.xp, on_entitydecl);
        XML_SetExternalEntityRefHandler(c.xp, on_extent);
        XML_SetXmlDeclHandler(c.xp, on_xmldecl);
        st = XML_Parse(c.xp, (const char *)p, (int)n, XML_TRUE);
        if (st != XML_STATUS_OK || c.failed) {
                /* expat stopped in the declaration, before it said the encoding: judged as UTF-8, as before. */
                if (c.utf8_pending && !prc_err_is_set(err) && !prc_utf8_valid(p, n, &bad))
                        invalid_utf8_at(p, bad, err);
                if (!prc_err_is_set(err)) {
                        enum XML_Error code = XML_GetErrorCode(c.xp);
                        XML_Index off = XML_GetCurrentByteIndex(c.xp);
                        prc_err_at(err, map_expat(code), off >= 0 ? (uint64_t)off : PRC_NO_OFF, "%s",
                                   XML_ErrorString(code));
                        prc_err_set_line(err, (uint32_t)XML_GetCurrentLineNumber(c.xp),
                                         (uint32_t)XML_GetCurrentColumnNumber(c.xp) + 1);
                }
                goto out;
        }
        if (c.root == NULL) {
                prc_err_set(err, PRC_E_XML_SYNTAX, "no root element");
                goto out;
        }
        /* Decoded from another encoding: the document handed on is still UTF-8, whatever expat did. */
        if (c.transcoded && !tree_utf8(c.root)) {
                prc_err_set(err, PRC_E_INVALID_UTF8, "the document expat decoded is not valid UTF-8");
                goto out;
        }
        res = c.root;
        c.root = NULL;
out:
        if (c.xp != NULL)
                XML_ParserFree(c.xp);
        json_decref(c.root);
        json_decref(c.nsdecls);
        free(c.stack);
        prc_buf_clear(&c.text);
        prc_buf_clear(&c.qn);
        return res;
}
