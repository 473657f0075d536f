/*
 * python_pep508.c - the PEP 508 requirement reader and the helpers every
 * Python extractor shares (python.h).  The reader is a hand-written
 * recursive descent over the PEP 508 grammar: a string it cannot read in
 * full is refused with a reason, never half-taken.
 */
#include "content/extract/python.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static bool is_alnum(char c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_wsp(char c)
{
        return c == ' ' || c == '\t';
}

bool py_name_valid(const char *s, size_t n)
{
        if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1]))
                return false;
        for (size_t i = 1; i + 1 < n; i++)
                if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
                        return false;
        return true;
}

char *py_dupn(const char *s, size_t n)
{
        char *o = prc_malloc(n + 1);

        if (o != NULL) {
                memcpy(o, s, n);
                o[n] = '\0';
        }
        return o;
}

bool py_oom(prc_err *err)
{
        return prc_err_oom(err, "python extraction");
}

/* The reader's position over one requirement. */
typedef struct rd {
        const char *s;
        size_t      n, i;
} rd;

static void skip_wsp(rd *r)
{
        while (r->i < r->n && is_wsp(r->s[r->i]))
                r->i++;
}

static bool at(const rd *r, char c)
{
        return r->i < r->n && r->s[r->i] == c;
}

static bool ident_char(char c)
{
        return is_alnum(c) || c == '-' || c == '_' || c == '.';
}

/* An identifier (name, extra); its span. */
static bool ident(rd *r, size_t *b, size_t *e)
{
        *b = r->i;
        while (r->i < r->n && ident_char(r->s[r->i]))
                r->i++;
        *e = r->i;
        return py_name_valid(r->s + *b, *e - *b);
}

/* Markers (PEP 508 marker_or), a validator. */
static const char *const marker_vars[] = {
        "python_version", "python_full_version", "os_name", "sys_platform", "platform_release",
        "platform_system", "platform_version", "platform_machine", "platform_python_implementation",
        "implementation_name", "implementation_version", "extra", "extras", "dependency_groups",
        /* the legacy dotted spellings packaging still reads */
        "os.name", "sys.platform", "platform.version", "platform.machine", "platform.python_implementation",
        "python_implementation",
};

static bool m_var(rd *r)
{
        char q;

        skip_wsp(r);
        if (at(r, '\'') || at(r, '"')) {
                q = r->s[r->i++];
                while (r->i < r->n && r->s[r->i] != q)
                        r->i++;
                if (r->i >= r->n)
                        return false;
                r->i++;
                return true;
        }
        for (size_t k = 0; k < PRC_ARRAY_LEN(marker_vars); k++) {
                size_t l = strlen(marker_vars[k]);

                if (r->n - r->i >= l && memcmp(r->s + r->i, marker_vars[k], l) == 0 &&
                    (r->i + l == r->n || !(is_alnum(r->s[r->i + l]) || r->s[r->i + l] == '_' ||
                                            r->s[r->i + l] == '.'))) {
                        r->i += l;
                        return true;
                }
        }
        return false;
}

static bool word(rd *r, const char *w)
{
        size_t l = strlen(w);

        if (r->n - r->i < l || memcmp(r->s + r->i, w, l) != 0)
                return false;
        if (r->i + l < r->n && (is_alnum(r->s[r->i + l]) || r->s[r->i + l] == '_'))
                return false;
        r->i += l;
        return true;
}

static bool m_op(rd *r)
{
        static const char *const ops[] = { "===", "<=", ">=", "==", "!=", "~=", "<", ">" };
        size_t save;

        skip_wsp(r);
        for (size_t k = 0; k < PRC_ARRAY_LEN(ops); k++) {
                size_t l = strlen(ops[k]);

                if (r->n - r->i >= l && memcmp(r->s + r->i, ops[k], l) == 0) {
                        r->i += l;
                        return true;
                }
        }
        if (word(r, "in"))
                return true;
        save = r->i;
        if (word(r, "not")) {
                skip_wsp(r);
                if (r->i > save + 3 && word(r, "in"))
                        return true;
        }
        r->i = save;
        return false;
}

static bool m_or(rd *r, unsigned depth);

static bool m_expr(rd *r, unsigned depth)
{
        skip_wsp(r);
        if (at(r, '(')) {
                r->i++;
                if (!m_or(r, depth + 1))
                        return false;
                skip_wsp(r);
                if (!at(r, ')'))
                        return false;
                r->i++;
                return true;
        }
        return m_var(r) && m_op(r) && m_var(r);
}

static bool m_and(rd *r, unsigned depth)
{
        if (!m_expr(r, depth))
                return false;
        for (;;) {
                size_t save = r->i;

                skip_wsp(r);
                if (!word(r, "and")) {
                        r->i = save;
                        return true;
                }
                if (!m_expr(r, depth))
                        return false;
        }
}

static bool m_or(rd *r, unsigned depth)
{
        if (depth > 32 || !m_and(r, depth))
                return false;
        for (;;) {
                size_t save = r->i;

                skip_wsp(r);
                if (!word(r, "or")) {
                        r->i = save;
                        return true;
                }
                if (!m_and(r, depth))
                        return false;
        }
}

bool py_marker_valid(const char *s, size_t n)
{
        rd r = { s, n, 0 };

        for (size_t k = 0; k < n; k++)
                if ((unsigned char)s[k] < 0x20 && s[k] != '\t')
                        return false;

        if (!m_or(&r, 0))
                return false;
        skip_wsp(&r);
        return r.i == r.n;
}

static bool version_char(char c)
{
        return is_alnum(c) || c == '-' || c == '_' || c == '.' || c == '*' || c == '+' || c == '!';
}

/* version_many, appended to out without blanks; stops before anything else. */
static bool vspec(rd *r, char *out, size_t *on)
{
        static const char *const ops[] = { "===", "<=", ">=", "==", "!=", "~=", "<", ">" };

        for (;;) {
                size_t k, l = 0, vb;

                skip_wsp(r);
                for (k = 0; k < PRC_ARRAY_LEN(ops); k++) {
                        l = strlen(ops[k]);
                        if (r->n - r->i >= l && memcmp(r->s + r->i, ops[k], l) == 0)
                                break;
                }
                if (k == PRC_ARRAY_LEN(ops))
                        return false;
                memcpy(out + *on, ops[k], l);
                *on += l;
                r->i += l;
                skip_wsp(r);
                vb = r->i;
                while (r->i < r->n && version_char(r->s[r->i]))
                        r->i++;
                if (r->i == vb)
                        return false;
                memcpy(out + *on, r->s + vb, r->i - vb);
                *on += r->i - vb;
                skip_wsp(r);
                if (!at(r, ','))
                        return true;
                r->i++;
                out[(*on)++] = ',';
        }
}

void py_req_free(py_req *r)
{
        free(r->name);
        free(r->extras);
        free(r->spec);
        free(r->url);
        free(r->marker);
        memset(r, 0, sizeof(*r));
}

static int bad(const char **why, const char *reason)
{
        *why = reason;
        return PY_BAD;
}

int py_req_parse(const char *s, size_t n, py_req *req, const char **why)
{
        rd r = { s, n, 0 };
        size_t b, e, on = 0;
        char *buf;

        memset(req, 0, sizeof(*req));
        /* NUL and other controls are in no PEP 508 production (and would cut the C strings below) */
        for (size_t k = 0; k < n; k++)
                if ((unsigned char)s[k] < 0x20 && s[k] != '\t')
                        return bad(why, "a control character");
        skip_wsp(&r);
        if (!ident(&r, &b, &e))
                return bad(why, "no PEP 508 name at the start");
        if ((req->name = py_dupn(s + b, e - b)) == NULL)
                return PY_OOM;
        /* one scratch buffer as long as the input holds extras or a specifier without blanks */
        if ((buf = prc_malloc(n + 1)) == NULL)
                return PY_OOM;
        skip_wsp(&r);
        if (at(&r, '[')) {
                r.i++;
                skip_wsp(&r);
                while (!at(&r, ']')) {
                        if (on > 0) {
                                if (!at(&r, ','))
                                        goto bad_extras;
                                r.i++;
                                buf[on++] = ',';
                                skip_wsp(&r);
                        }
                        if (!ident(&r, &b, &e))
                                goto bad_extras;
                        memcpy(buf + on, s + b, e - b);
                        on += e - b;
                        skip_wsp(&r);
                }
                r.i++;
                if ((req->extras = py_dupn(buf, on)) == NULL)
                        goto oom;
                on = 0;
                skip_wsp(&r);
        }
        if (at(&r, '@')) {
                r.i++;
                skip_wsp(&r);
                b = r.i;
                while (r.i < n && !is_wsp(s[r.i]))
                        r.i++;
                if (r.i == b || memchr(s + b, ':', r.i - b) == NULL) {
                        free(buf);
                        return bad(why, "a URL requirement without a URL");
                }
                if ((req->url = py_dupn(s + b, r.i - b)) == NULL)
                        goto oom;
                skip_wsp(&r);
                if (r.i < n && s[r.i] == ';' && is_wsp(s[r.i - 1]) == false) {
                        free(buf);
                        return bad(why, "a URL requirement needs a blank before its marker");
                }
        } else if (at(&r, '(')) {
                r.i++;
                if (!vspec(&r, buf, &on) || !at(&r, ')')) {
                        free(buf);
                        return bad(why, "a version specifier that PEP 440 does not allow");
                }
                r.i++;
        } else if (r.i < n && strchr("<>=!~", s[r.i]) != NULL) {
                if (!vspec(&r, buf, &on)) {
                        free(buf);
                        return bad(why, "a version specifier that PEP 440 does not allow");
                }
        }
        if (on > 0 && (req->spec = py_dupn(buf, on)) == NULL)
                goto oom;
        free(buf);
        skip_wsp(&r);
        if (at(&r, ';')) {
                r.i++;
                skip_wsp(&r);
                b = r.i;
                e = n;
                while (e > b && is_wsp(s[e - 1]))
                        e--;
                if (e == b || !py_marker_valid(s + b, e - b))
                        return bad(why, "an environment marker that PEP 508 does not allow");
                if ((req->marker = py_dupn(s + b, e - b)) == NULL)
                        return PY_OOM;
                r.i = n;
        }
        if (r.i != n)
                return bad(why, "text after the requirement that PEP 508 does not allow");
        return PY_OK;
bad_extras:
        free(buf);
        return bad(why, "extras that PEP 508 does not allow");
oom:
        free(buf);
        return PY_OOM;
}

char *py_norm(const char *name)
{
        size_t n = strlen(name), o = 0;
        char *out = prc_malloc(n + 1);

        if (out == NULL)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                char c = name[i];

                if (c == '-' || c == '_' || c == '.') {
                        if (o == 0 || out[o - 1] != '-')
                                out[o++] = '-';
                        continue;
                }
                out[o++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
        out[o] = '\0';
        return out;
}

char *py_purl(const char *name, const char *version)
{
        char *norm = py_norm(name), *p;

        if (norm == NULL)
                return NULL;
        p = prc_purl("pypi", NULL, norm, version, NULL, NULL);
        free(norm);
        return p;
}

char *py_pinned(const char *spec)
{
        size_t skip;

        if (spec == NULL || strchr(spec, ',') != NULL || strchr(spec, '*') != NULL)
                return NULL;
        if (strncmp(spec, "===", 3) == 0)
                skip = 3;
        else if (strncmp(spec, "==", 2) == 0)
                skip = 2;
        else
                return NULL;
        if (spec[skip] == '\0')
                return NULL;
        return py_dupn(spec + skip, strlen(spec + skip));
}


json_t *py_dep(json_t *md, const char *name, const char *requirement, const char *resolved, const char *scope,
               bool direct, const char *group, uint32_t line, prc_err *err)
{
        json_t *d;
        char *pin = NULL, *purl;
        bool ok;

        /* a lockfile entry's name is a PEP 508 name or the file is not what it says (manifests check first) */
        if (!py_name_valid(name, strlen(name))) {
                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a package name that PEP 508 does not allow");
                prc_err_set_line(err, line, 0);
                return NULL;
        }
        if (resolved == NULL && requirement != NULL)
                resolved = pin = py_pinned(requirement);
        purl = py_purl(name, resolved);
        if (purl == NULL) {
                free(pin);
                py_oom(err);
                return NULL;
        }
        d = prc_md_add_dep_rr(md, name, scope, direct, line, requirement, resolved, err);
        ok = d != NULL && prc_md_set_str(d, "purl", purl, err) && prc_md_set_str(d, "group", group, err);
        free(pin);
        free(purl);
        return ok ? d : NULL;
}

bool py_registry(json_t *md, const char *name, const char *scope, const char *url, uint32_t line, prc_err *err)
{
        return prc_md_add_registry(md, name, scope, url, line, err);
}

/* A credential in url (userinfo) is recorded by key; the URL itself is stripped by the builders. */
static bool url_cred(json_t *md, const char *url, const char *key, uint32_t line, prc_err *err)
{
        bool cred;
        char *clean = prc_md_url_strip(url, &cred);

        if (clean == NULL)
                return py_oom(err);
        free(clean);
        return !cred || prc_md_add_credential(md, key, line, err);
}

bool py_source(json_t *md, json_t *dep, const char *type, const char *url, const char *ref, const char *commit,
               uint32_t line, prc_err *err)
{
        return (url == NULL || url_cred(md, url, "requirement URL userinfo", line, err)) &&
               prc_md_set_source(dep, type, url, ref, commit, err);
}

bool py_set_url_source(json_t *md, json_t *dep, const char *url, uint32_t line, prc_err *err)
{
        const char *auth, *path, *hash, *ref = NULL;
        char *base = NULL, *refs = NULL;
        bool ok, hex = false;
        size_t n = strlen(url), bn;

        if (!url_cred(md, url, "requirement URL userinfo", line, err))
                return false;
        if (strncmp(url, "git+", 4) != 0) {
                if (strncmp(url, "file:", 5) == 0)
                        return prc_md_set_source(dep, "path", url, NULL, NULL, err);
                /* hg+, svn+, bzr+ and plain archives: a URL source (docs/extraction/python.md) */
                return prc_md_set_source(dep, "url", url, NULL, NULL, err);
        }
        /* git+SCHEME://host/path@ref#fragment: the ref is the last '@' of the path */
        url += 4;
        n -= 4;
        hash = memchr(url, '#', n);
        bn = hash != NULL ? (size_t)(hash - url) : n;
        auth = strstr(url, "://");
        path = auth != NULL ? memchr(auth + 3, '/', bn - (size_t)(auth + 3 - url)) : NULL;
        if (path != NULL)
                for (const char *q = url + bn; q > path; q--)
                        if (q[-1] == '@') {
                                ref = q;
                                break;
                        }
        if (ref != NULL) {
                if ((refs = py_dupn(ref, (size_t)(url + bn - ref))) == NULL)
                        return py_oom(err);
                bn = (size_t)(ref - 1 - url);
                hex = strlen(refs) == 40 && strspn(refs, "0123456789abcdef") == 40;
        }
        if ((base = py_dupn(url, bn)) == NULL) {
                free(refs);
                return py_oom(err);
        }
        ok = prc_md_set_source(dep, "git", base, refs, hex ? refs : NULL, err);
        free(base);
        free(refs);
        return ok;
}

bool py_set_hash(json_t *dep, const char *text, prc_err *err)
{
        size_t k = strcspn(text, ":=");
        char *alg;
        bool ok;

        /* NAME:VALUE (pip, uv, poetry) or NAME=VALUE; without a name or a value it is no hash */
        if (text[k] == '\0' || k == 0 || text[k + 1] == '\0') {
                const json_t *line = PRC_JGET(dep, "line");

                prc_err_set(err, PRC_E_EXTRACT_SHAPE, "a hash that is not NAME:VALUE (\"%.64s\")", text);
                if (json_is_integer(line))
                        prc_err_set_line(err, (uint32_t)json_integer_value(line), 0);
                return false;
        }
        if ((alg = py_dupn(text, k)) == NULL)
                return py_oom(err);
        ok = prc_md_set_integrity(dep, alg, text + k + 1, err);
        free(alg);
        return ok;
}

json_t *py_det_array(json_t *md, const char *key, prc_err *err)
{
        json_t *det = prc_md_details(md), *a = json_object_get(det, key);

        if (a != NULL)
                return a;
        a = json_array();
        if (a == NULL || json_object_set_new(det, key, a) != 0) {
                py_oom(err);
                return NULL;
        }
        return a;
}

/* details.requirements: extras, marker, editable of the last dependency, when it has any. */
static bool req_details(json_t *md, const py_req *r, bool editable, prc_err *err)
{
        json_t *list, *o, *ex = json_null();
        size_t idx = json_array_size(PRC_JGET(md, "dependencies")) - 1;

        if (r->extras == NULL && r->marker == NULL && !editable)
                return true;
        if ((list = py_det_array(md, "requirements", err)) == NULL)
                return false;
        if ((o = json_object()) == NULL || json_array_append_new(list, o) != 0)
                return py_oom(err);
        if (json_object_set_new(o, "dependency", json_integer((json_int_t)idx)) != 0 ||
            json_object_set_new(o, "editable", json_boolean(editable)) != 0)
                return py_oom(err);
        if (r->extras != NULL) {
                const char *p = r->extras;

                if ((ex = json_array()) == NULL)
                        return py_oom(err);
                while (*p != '\0') {
                        size_t l = strcspn(p, ",");
                        char *one = py_dupn(p, l);

                        if (one == NULL || json_array_append_new(ex, json_string(one)) != 0) {
                                free(one);
                                json_decref(ex);
                                return py_oom(err);
                        }
                        free(one);
                        p += l + (p[l] == ',');
                }
        }
        if (json_object_set_new(o, "extras", ex) != 0)
                return py_oom(err);
        return prc_md_set_str(o, "marker", r->marker, err);
}

json_t *py_dep_req(json_t *md, const py_req *r, const char *scope, const char *group, bool editable,
                   uint32_t line, prc_err *err)
{
        json_t *d = py_dep(md, r->name, r->spec, NULL, scope, true, group, line, err);

        if (d == NULL)
                return NULL;
        if (r->url != NULL && !py_set_url_source(md, d, r->url, line, err))
                return NULL;
        if (!req_details(md, r, editable, err))
                return NULL;
        return d;
}

bool py_add_pep508(json_t *md, const char *text, const char *scope, const char *group, uint32_t line, prc_err *err)
{
        py_req r;
        const char *why = NULL;
        int rc = py_req_parse(text, strlen(text), &r, &why);
        bool ok;

        if (rc == PY_OOM) {
                py_req_free(&r);
                return py_oom(err);
        }
        if (rc == PY_BAD) {
                py_req_free(&r);
                return prc_md_not_extracted(md, text, why, line, err);
        }
        ok = py_dep_req(md, &r, scope, group, false, line, err) != NULL;
        py_req_free(&r);
        return ok;
}

void py_cur_init(py_cur *c, const prc_xin *in)
{
        c->in = in;
        c->off = 0;
        c->line = 1;
}

static uint32_t cur_find(const py_cur *c, const char *needle, size_t *hit_line_off)
{
        const uint8_t *p = c->in->p, *hit, *q;
        size_t nl = strlen(needle), n = c->in->n, lo = c->off;
        uint32_t line = c->line;

        if (nl == 0 || p == NULL || c->off > n)
                return 0;
        /* The first match, then the line feeds before it: a byte loop doing both was a tenth of a uv.lock. */
        hit = memmem(p + c->off, n - c->off, needle, nl);
        if (hit == NULL)
                return 0;
        for (q = p + c->off; (q = memchr(q, '\n', (size_t)(hit - q))) != NULL; q++) {
                line++;
                lo = (size_t)(q - p) + 1;
        }
        *hit_line_off = lo;
        return line;
}

uint32_t py_cur_find(py_cur *c, const char *needle)
{
        size_t lo = 0;
        uint32_t l = cur_find(c, needle, &lo);

        if (l > 0) {
                c->off = lo;
                c->line = l;
        }
        return l;
}

uint32_t py_cur_peek(const py_cur *c, const char *needle)
{
        size_t lo;

        return cur_find(c, needle, &lo);
}

bool py_want(const json_t *v, int type, const char *what, prc_err *err)
{
        static const char *const names[] = { "a table", "an array", "a string" };
        int idx = type == JSON_OBJECT ? 0 : type == JSON_ARRAY ? 1 : 2;

        if (v != NULL && (int)json_typeof(v) == type)
                return true;
        prc_err_set(err, PRC_E_EXTRACT_SHAPE, "%s is not %s", what, names[idx]);
        return false;
}

const char *py_str(const json_t *obj, const char *key)
{
        return json_string_value(json_object_get(obj, key));
}

void py_parse_failed(const prc_xin *in, prc_err *err)
{
        size_t off, bol;

        if (err->line != 0 || err->off == PRC_NO_OFF)
                return;
        off = err->off < in->n ? (size_t)err->off : in->n;
        for (bol = off; bol > 0 && in->p[bol - 1] != '\n'; bol--)
                ;
        prc_err_set_line(err, prc_x_line_at(in, off), (uint32_t)(off - bol + 1));
}
