/*
 * python_reqs.c - pip requirements and constraints files, pip.conf and
 * setup.cfg (docs/extraction/python.md).
 *
 * A requirements file is read as pip reads it: backslash continuations
 * joined, comments ("#" at the start or after a blank) dropped, option
 * lines recognised, everything else a requirement (PEP 508, or pip's URL
 * and path forms).  The extractor sees one file: -r and -c are recorded in
 * details.includes with their line, and the scan follows them only inside
 * the inventory.  A line that cannot be read is a not_extracted entry; a
 * file where no line can be read is refused (python-not-requirements).
 */
#include "content/extract/python.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/utf8.h"
#include "content/parsers/ini.h"

static bool has_prefix_ci(const char *s, const char *p)
{
        return strncasecmp(s, p, strlen(p)) == 0;
}

static bool has_suffix(const char *s, const char *x)
{
        size_t n = strlen(s), m = strlen(x);

        return n >= m && strcasecmp(s + n - m, x) == 0;
}

bool prc_x_py_match_requirements(const char *path, const char *base)
{
        /* autotools, setuptools and packaging templates end in .in too: never requirements */
        static const char *const not_reqs[] = { "MANIFEST.in", "Makefile.in", "GNUmakefile.in", "configure.in",
                                                "Doxyfile.in", "aclocal.in", "config.in" };
        const char *dir_end = base > path ? base - 1 : NULL, *dir = path;
        bool txt = has_suffix(base, ".txt"), in = has_suffix(base, ".in");

        if (!txt && !in)
                return false;
        if (strcasestr(base, "requirements") != NULL || strcasestr(base, "constraints") != NULL)
                return true;
        /* requirements/NAME.txt (celery, Django and many others keep them in such a directory) */
        if (dir_end != NULL) {
                for (const char *q = path; q < dir_end; q++)
                        if (*q == '/')
                                dir = q + 1;
                if ((size_t)(dir_end - dir) >= 4 && (has_prefix_ci(dir, "requirements") || has_prefix_ci(dir, "reqs/")))
                        return true;
        }
        if (!in)
                return false;
        for (size_t i = 0; i < PRC_ARRAY_LEN(not_reqs); i++)
                if (strcmp(base, not_reqs[i]) == 0)
                        return false;
        /* foo.h.in, setup.py.in, x.service.in: templates of other files */
        return memchr(base, '.', strlen(base) - 3) == NULL;
}

bool prc_x_py_match_pip_conf(const char *path, const char *base)
{
        (void)path;
        return strcmp(base, "pip.conf") == 0 || strcmp(base, "pip.ini") == 0;
}

/* One logical line being read. */
typedef struct rq {
        const prc_xin *in;
        json_t        *md;
        json_t        *det;
        uint32_t       line;            /* of the logical line's start */
        unsigned       good, bad;       /* lines read, lines not read */
        uint32_t       first_bad;
        const char    *first_why;
} rq;

static bool skip(rq *q, const char *what, const char *why, prc_err *err)
{
        if (q->bad++ == 0) {
                q->first_bad = q->line;
                q->first_why = why;
        }
        return prc_md_not_extracted(q->md, what, why, q->line, err);
}

/* details[list] gains {k1: v1, k2: v2, "line"} for the logical line being read. */
static bool det_entry(rq *q, const char *list, const char *k1, const char *v1, const char *k2, const char *v2,
                      prc_err *err)
{
        json_t *a = py_det_array(q->md, list, err), *o;

        if (a == NULL)
                return false;
        if ((o = json_object()) == NULL || json_array_append_new(a, o) != 0)
                return py_oom(err);
        return prc_md_set_str(o, k1, v1, err) && prc_md_set_str(o, k2, v2, err) &&
               json_object_set_new(o, "line", json_integer(q->line)) == 0;
}

/* Split text into blank-separated tokens (pip uses shlex; quotes are rare in these files). */
typedef struct toks {
        char  **v;
        size_t  n;
} toks;

static void toks_free(toks *t)
{
        for (size_t i = 0; i < t->n; i++)
                free(t->v[i]);
        free(t->v);
        t->v = NULL;
        t->n = 0;
}

static bool tokenize(const char *s, toks *t)
{
        size_t cap = 0;

        t->v = NULL;
        t->n = 0;
        for (;;) {
                size_t l;

                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '\0')
                        return true;
                l = strcspn(s, " \t");
                if (t->n == cap) {
                        char **nv = prc_realloc(t->v, (cap = cap ? 2 * cap : 8) * sizeof(*nv));

                        if (nv == NULL)
                                return false;
                        t->v = nv;
                }
                if ((t->v[t->n] = py_dupn(s, l)) == NULL)
                        return false;
                t->n++;
                s += l;
        }
}

/* pip's options that take a value, and where the value goes. */
enum { O_REQ, O_CON, O_EDIT, O_INDEX, O_EXTRA, O_FIND, O_TRUST, O_HASH, O_FLAGV, O_FLAG, O_PERREQ };

static const struct opt {
        const char *s, *l;
        int         what;
} opts[] = {
        { "-r", "--requirement", O_REQ },       { "-c", "--constraint", O_CON },
        { "-e", "--editable", O_EDIT },         { "-i", "--index-url", O_INDEX },
        { NULL, "--extra-index-url", O_EXTRA }, { "-f", "--find-links", O_FIND },
        { NULL, "--trusted-host", O_TRUST },    { NULL, "--hash", O_HASH },
        { NULL, "--only-binary", O_FLAGV },     { NULL, "--no-binary", O_FLAGV },
        { NULL, "--use-feature", O_FLAGV },     { NULL, "--no-index", O_FLAG },
        { NULL, "--pre", O_FLAG },              { NULL, "--prefer-binary", O_FLAG },
        { NULL, "--require-hashes", O_FLAG },   { NULL, "--global-option", O_PERREQ },
        { "-C", "--config-settings", O_PERREQ }, { NULL, "--install-option", O_PERREQ },
};

/*
 * Match token t[*i] against the table; the value (attached "-rfile",
 * "--x=v" or the next token) in *val (borrowed from t or static "").
 */
static const struct opt *match_opt(const toks *t, size_t *i, const char **val)
{
        const char *tok = t->v[*i];

        for (size_t k = 0; k < PRC_ARRAY_LEN(opts); k++) {
                const struct opt *o = &opts[k];
                bool takes = o->what != O_FLAG;
                size_t l;

                if (o->l != NULL && strncmp(tok, o->l, l = strlen(o->l)) == 0 && (tok[l] == '\0' || tok[l] == '=')) {
                        if (!takes) {
                                *val = "";
                                return tok[l] == '\0' ? o : NULL;
                        }
                        if (tok[l] == '=') {
                                *val = tok + l + 1;
                                return o;
                        }
                } else if (o->s != NULL && strncmp(tok, o->s, 2) == 0) {
                        if (tok[2] != '\0') {
                                *val = tok + 2 + (tok[2] == '=');
                                return o;
                        }
                } else {
                        continue;
                }
                if (*i + 1 >= t->n)
                        return NULL;
                *val = t->v[++*i];
                return o;
        }
        return NULL;
}

static bool is_url(const char *s)
{
        const char *c = strstr(s, "://");

        if (c == NULL)
                return strncmp(s, "file:", 5) == 0;
        for (const char *p = s; p < c; p++)
                if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '+' ||
                      *p == '-' || *p == '.'))
                        return false;
        return c > s;
}

static bool is_archive(const char *s)
{
        static const char *const ext[] = { ".whl", ".tar.gz", ".zip", ".tar.bz2", ".tar.xz", ".tgz", ".tar" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(ext); i++)
                if (has_suffix(s, ext[i]))
                        return true;
        return false;
}

/* The project name a URL or path states: #egg=NAME, or a wheel's file name; malloc'ed or NULL. */
static char *name_of_location(const char *loc, bool *oomed)
{
        const char *egg = strstr(loc, "#egg="), *b, *e;

        *oomed = false;
        if (egg == NULL)
                egg = strstr(loc, "&egg=");
        if (egg != NULL) {
                b = egg + 5;
                e = b + strcspn(b, "&#[");
        } else if (has_suffix(loc, ".whl")) {
                size_t l = strcspn(loc, "?#");

                for (b = loc + l; b > loc && b[-1] != '/'; b--)
                        ;
                e = b + strcspn(b, "-");
        } else {
                return NULL;
        }
        if (!py_name_valid(b, (size_t)(e - b)))
                return NULL;
        char *o = py_dupn(b, (size_t)(e - b));

        *oomed = o == NULL;
        return o;
}

/*
 * pip's URL and path requirements: "git+https://...#egg=x", "./dir[extra]",
 * "pkg.whl ; marker".  Filled into r like a PEP 508 requirement.
 */
static int location_req(const char *text, py_req *r, bool *is_path, const char **why)
{
        const char *m = strstr(text, "; "), *x;
        size_t n = m != NULL ? (size_t)(m - text) : strlen(text);
        bool o;

        memset(r, 0, sizeof(*r));
        if (m == NULL && (m = strstr(text, " ;")) != NULL)
                n = (size_t)(m - text);
        while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
                n--;
        if (m != NULL) {
                x = m + 2;
                while (*x == ' ' || *x == '\t')
                        x++;
                if (!py_marker_valid(x, strlen(x))) {
                        *why = "an environment marker that PEP 508 does not allow";
                        return PY_BAD;
                }
                if ((r->marker = py_dupn(x, strlen(x))) == NULL)
                        return PY_OOM;
        }
        if ((r->url = py_dupn(text, n)) == NULL)
                return PY_OOM;
        *is_path = !is_url(r->url) || strncmp(r->url, "file:", 5) == 0;
        r->name = name_of_location(r->url, &o);
        if (o)
                return PY_OOM;
        /* a local path: its #egg= fragment named it; it may end in [extras] */
        if (!is_url(r->url)) {
                char *frag = strchr(r->url, '#');
                size_t l;

                if (frag != NULL)
                        *frag = '\0';
                l = strlen(r->url);
                if (l > 0 && r->url[l - 1] == ']' && (x = strrchr(r->url, '[')) != NULL) {
                        if ((r->extras = py_dupn(x + 1, strlen(x + 1) - 1)) == NULL)
                                return PY_OOM;
                        r->url[x - r->url] = '\0';
                }
        }
        if (r->name == NULL) {
                *why = "a URL or path requirement that names no project (#egg= or a wheel file name); its name "
                       "is only in the project it points to";
                return PY_BAD;
        }
        return PY_OK;
}

/*
 * pip's order: a URL, an archive file name or an explicit path ("./x",
 * "/x", "~/x") is a location; anything else is PEP 508 first, and only a
 * text PEP 508 refuses that holds a path separator is read as a path.
 */
static bool looks_like_location(const char *s)
{
        const char *sp = s + strcspn(s, " \t;");
        char *tok;
        bool arch;

        if (is_url(s) && strstr(s, "://") != NULL && strstr(s, "://") < sp)
                return true;
        if (strncmp(s, "file:", 5) == 0 || s[0] == '.' || s[0] == '/' || s[0] == '~')
                return true;
        tok = py_dupn(s, (size_t)(sp - s));
        arch = tok != NULL && is_archive(tok) && strchr(tok, '@') == NULL;
        free(tok);
        return arch;
}

static bool has_separator(const char *s)
{
        size_t l = strcspn(s, " \t;");

        return memchr(s, '/', l) != NULL || memchr(s, '\\', l) != NULL;
}

/* One requirement (text), with its per-requirement options (t from index i). */
static bool requirement(rq *q, const char *text, bool editable, const toks *t, size_t i, prc_err *err)
{
        py_req r;
        const char *why = NULL, *val;
        bool path = false;
        int rc;
        json_t *d, *hashes = NULL;

        if (editable || looks_like_location(text)) {
                rc = location_req(text, &r, &path, &why);
        } else {
                rc = py_req_parse(text, strlen(text), &r, &why);
                if (rc == PY_BAD && has_separator(text)) {
                        py_req_free(&r);
                        rc = location_req(text, &r, &path, &why);
                }
        }
        if (rc == PY_OOM) {
                py_req_free(&r);
                return py_oom(err);
        }
        if (rc == PY_BAD) {
                py_req_free(&r);
                return skip(q, text, why, err);
        }
        for (; i < t->n; i++) {
                const struct opt *o = match_opt(t, &i, &val);

                if (o == NULL || (o->what != O_HASH && o->what != O_PERREQ)) {
                        py_req_free(&r);
                        json_decref(hashes);
                        return skip(q, text, "an option pip does not allow after a requirement", err);
                }
                if (o->what == O_HASH) {
                        if (hashes == NULL && (hashes = json_array()) == NULL) {
                                py_req_free(&r);
                                return py_oom(err);
                        }
                        if (json_array_append_new(hashes, json_string(val)) != 0) {
                                py_req_free(&r);
                                json_decref(hashes);
                                return py_oom(err);
                        }
                }
        }
        d = py_dep_req(q->md, &r, "runtime", NULL, editable, q->line, err);
        /* the credential check ran in py_dep_req; a path source keeps the path as written */
        if (d != NULL && path && !prc_md_set_source(d, "path", r.url, NULL, NULL, err))
                d = NULL;
        py_req_free(&r);
        if (d != NULL && hashes != NULL) {
                if (!py_set_hash(d, json_string_value(json_array_get(hashes, 0)), err)) {
                        prc_err_set_line(err, q->line, 0);
                        d = NULL;
                }
                else if (json_array_size(hashes) > 1) {
                        /* every --hash pip would accept, when there are several */
                        json_t *a = py_det_array(q->md, "hashes", err), *o = NULL;
                        size_t idx = json_array_size(PRC_JGET(q->md, "dependencies")) - 1;

                        if (a == NULL) {
                                d = NULL;
                        } else if ((o = json_object()) == NULL || json_array_append_new(a, o) != 0 ||
                                   json_object_set_new(o, "dependency", json_integer((json_int_t)idx)) != 0 ||
                                   json_object_set(o, "values", hashes) != 0) {
                                py_oom(err);
                                d = NULL;
                        }
                }
        }
        json_decref(hashes);
        if (d == NULL)
                return false;
        q->good++;
        return true;
}

/* A line of options, or "-e LOCATION [opts]". */
static bool option_line(rq *q, const char *text, prc_err *err)
{
        toks t;
        bool ok = true;

        if (!tokenize(text, &t)) {
                toks_free(&t);
                return py_oom(err);
        }
        for (size_t i = 0; ok && i < t.n; i++) {
                const char *val = NULL, *name;
                const struct opt *o = match_opt(&t, &i, &val);

                if (o == NULL) {
                        ok = skip(q, text, "an option pip's requirements files do not know (or one without its "
                                           "value)", err);
                        break;
                }
                name = o->l;
                switch (o->what) {
                case O_REQ:
                case O_CON:
                        if (val[0] == '\0') {
                                /* "-r=": no file to name (pip cannot open ""); an include needs a path */
                                ok = skip(q, text, "a -r or -c option with an empty path", err);
                                break;
                        }
                        ok = det_entry(q, "includes", "kind", o->what == O_REQ ? "requirement" : "constraint",
                                       "path", val, err);
                        q->good++;
                        break;
                case O_EDIT:
                        ok = requirement(q, val, true, &t, i + 1, err);
                        i = t.n;
                        break;
                case O_INDEX:
                case O_EXTRA:
                case O_FIND:
                        ok = py_registry(q->md, name + 2, NULL, val, q->line, err);
                        q->good++;
                        break;
                case O_TRUST:
                case O_FLAGV:
                case O_FLAG:
                        ok = det_entry(q, "options", "option", name + 2, "value", o->what == O_FLAG ? NULL : val, err);
                        q->good++;
                        break;
                default:
                        ok = skip(q, text, "a per-requirement option on a line without a requirement", err);
                        i = t.n;
                        break;
                }
        }
        toks_free(&t);
        return ok;
}

/* A requirement line: the requirement ends where the first " -" option token starts (pip's rule). */
static bool req_line(rq *q, char *text, prc_err *err)
{
        toks t = { NULL, 0 };
        char *cut = NULL;
        bool ok;

        for (char *p = text + 1; *p != '\0'; p++)
                if (*p == '-' && (p[-1] == ' ' || p[-1] == '\t')) {
                        cut = p;
                        break;
                }
        if (cut != NULL) {
                if (!tokenize(cut, &t)) {
                        toks_free(&t);
                        return py_oom(err);
                }
                *cut = '\0';
                for (char *e = cut; e > text && (e[-1] == ' ' || e[-1] == '\t'); e--)
                        e[-1] = '\0';
        }
        ok = requirement(q, text, false, &t, 0, err);
        toks_free(&t);
        return ok;
}

json_t *prc_x_py_requirements(const prc_xin *in, prc_err *err)
{
        json_t *md = prc_md_new(in, "pypi-requirements", "pypi", "manifest", err);
        const char *p = (const char *)in->p, *end = p + in->n;
        prc_buf lb;
        rq q = { in, md, NULL, 0, 0, 0, 0, NULL };
        uint32_t line = 1;
        const char *base = strrchr(in->path, '/');
        size_t bad;

        if (md == NULL)
                return NULL;
        q.det = prc_md_details(md);
        base = base != NULL ? base + 1 : in->path;
        if (!prc_md_set_str(q.det, "role", strcasestr(base, "constraint") != NULL ? "constraints" : "requirements",
                            err)) {
                json_decref(md);
                return NULL;
        }
        if (in->n > in->lim->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "a requirements file of %zu bytes (the limit is %zu)", in->n,
                            in->lim->input_max);
                json_decref(md);
                return NULL;
        }
        if (in->n > 0 && !prc_utf8_valid(in->p, in->n, &bad)) {
                prc_err_at(err, PRC_E_INVALID_UTF8, bad, "a requirements file that is not UTF-8");
                prc_err_set_line(err, prc_x_line_at(in, bad), 0);
                json_decref(md);
                return NULL;
        }
        /* a logical line is one scalar: scalar_max bounds it */
        prc_buf_init(&lb, in->lim->scalar_max + 1);
        while (p < end) {
                bool cont = true;
                char *t, *c;

                prc_buf_reset(&lb);
                q.line = line;
                /* a logical line: physical lines joined at a trailing backslash */
                while (cont && p < end) {
                        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl != NULL ? nl : end;
                        const char *le = e;

                        if (le > p && le[-1] == '\r')
                                le--;
                        cont = le > p && le[-1] == '\\';
                        if (memchr(p, '\0', (size_t)(le - p)) != NULL) {
                                prc_err_set(err, PRC_E_NUL_BYTE, "a NUL byte in a requirements file");
                                prc_err_set_line(err, line, 0);
                                goto fail;
                        }
                        if (lb.len + (size_t)(le - p) > in->lim->scalar_max) {
                                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a logical line of more than %zu bytes",
                                            in->lim->scalar_max);
                                prc_err_set_line(err, q.line, 0);
                                goto fail;
                        }
                        if (!prc_buf_put(&lb, p, (size_t)(le - p - cont), err))
                                goto fail;
                        p = nl != NULL ? nl + 1 : end;
                        line++;
                }
                if (!prc_buf_putc(&lb, '\0', err))
                        goto fail;
                t = (char *)lb.data;
                /* comments: "#" at the start or after a blank */
                for (c = t; *c != '\0'; c++)
                        if (*c == '#' && (c == t || c[-1] == ' ' || c[-1] == '\t')) {
                                *c = '\0';
                                break;
                        }
                while (*t == ' ' || *t == '\t')
                        t++;
                for (c = t + strlen(t); c > t && (c[-1] == ' ' || c[-1] == '\t' || c[-1] == '\r'); c--)
                        c[-1] = '\0';
                if (*t == '\0')
                        continue;
                if (!(*t == '-' ? option_line(&q, t, err) : req_line(&q, t, err)))
                        goto fail;
        }
        prc_buf_clear(&lb);
        if (q.good == 0 && q.bad > 0) {
                prc_err_set(err, PRC_E_PYTHON_NOT_REQUIREMENTS, "no line is a requirement or an option pip "
                            "reads (line %u: %s)", q.first_bad, q.first_why);
                prc_err_set_line(err, q.first_bad, 0);
                json_decref(md);
                return NULL;
        }
        return md;
fail:
        prc_buf_clear(&lb);
        json_decref(md);
        return NULL;
}

/*
 * The line of an INI key at the start of a line at or after line from (the
 * INI reader keeps no positions and lower-cases keys; files write them so).
 */
static uint32_t key_line(const prc_xin *in, const char *key, uint32_t from)
{
        char needle[PRC_MD_STR_MAX + 2];
        py_cur c;
        uint32_t l;

        py_cur_init(&c, in);
        /* start at line from (prc_x_find_line cannot match a needle that begins with LF) */
        while (c.line < from && c.off < in->n) {
                const uint8_t *nl = memchr(in->p + c.off, '\n', in->n - c.off);

                if (nl == NULL)
                        break;
                c.off = (size_t)(nl - in->p) + 1;
                c.line++;
        }
        if (c.off > 0) {
                c.off--;        /* the LF that ends the line before */
                c.line--;
        }
        snprintf(needle, sizeof(needle), "\n%s", key);
        l = py_cur_find(&c, needle);
        return l > 0 ? l + 1 : 0;
}

/* pip.conf: index-url, extra-index-url, find-links, trusted-host in any section. */
json_t *prc_x_py_pip_conf(const prc_xin *in, prc_err *err)
{
        json_t *ini = prc_ini_parse(in->p, in->n, in->lim, 0, err), *md, *sec, *v;
        const char *sname, *key;
        py_cur cur;

        if (ini == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        md = prc_md_new(in, "pypi-pip-conf", "pypi", "registry-config", err);
        if (md == NULL)
                goto fail;
        py_cur_init(&cur, in);
        json_object_foreach(ini, sname, sec) {
                char hdr[160];
                uint32_t sl;

                snprintf(hdr, sizeof(hdr), "[%s]", sname);
                sl = prc_x_find_line(in, hdr, 1);
                json_object_foreach(sec, key, v) {
                        const char *s = json_string_value(v);
                        bool urls = strcmp(key, "index-url") == 0 || strcmp(key, "extra-index-url") == 0 ||
                                    strcmp(key, "find-links") == 0 || strcmp(key, "index") == 0;
                        uint32_t kl = key_line(in, key, sl);

                        if (s == NULL)
                                continue;
                        if (urls) {
                                /* a value may hold several URLs, blank- or line-separated */
                                while (*s != '\0') {
                                        size_t l;
                                        char *u;
                                        bool ok;

                                        s += strspn(s, " \t\r\n");
                                        l = strcspn(s, " \t\r\n");
                                        if (l == 0)
                                                break;
                                        if ((u = py_dupn(s, l)) == NULL) {
                                                py_oom(err);
                                                goto fail;
                                        }
                                        ok = py_registry(md, key, sname, u, kl, err);
                                        free(u);
                                        if (!ok)
                                                goto fail;
                                        s += l;
                                }
                        } else if (strcmp(key, "trusted-host") == 0 || strcmp(key, "cert") == 0 ||
                                   strcmp(key, "client-cert") == 0 || strcmp(key, "proxy") == 0) {
                                json_t *a, *o;
                                bool cred;
                                char *clean = prc_md_url_strip(s, &cred);

                                if (clean == NULL) {
                                        py_oom(err);
                                        goto fail;
                                }
                                if ((a = py_det_array(md, "settings", err)) == NULL) {
                                        free(clean);
                                        goto fail;
                                }
                                if ((o = json_object()) == NULL || json_array_append_new(a, o) != 0) {
                                        free(clean);
                                        py_oom(err);
                                        goto fail;
                                }
                                bool ok = prc_md_set_str(o, "section", sname, err) &&
                                          prc_md_set_str(o, "key", key, err) &&
                                          prc_md_set_str(o, "value", clean, err) &&
                                          json_object_set_new(o, "line", kl ? json_integer(kl) : json_null()) == 0 &&
                                          (!cred || prc_md_add_credential(md, "proxy URL userinfo", kl, err));
                                free(clean);
                                if (!ok)
                                        goto fail;
                        }
                }
        }
        json_decref(ini);
        return md;
fail:
        json_decref(ini);
        json_decref(md);
        return NULL;
}

/* setup.cfg list values: one per line, or ';'-separated on one line (setuptools "list-semi"). */
static bool cfg_list(json_t *md, const prc_xin *in, const char *val, const char *scope, const char *group,
                     uint32_t from, prc_err *err)
{
        const char *s = val;

        if (strncmp(val, "file:", 5) == 0)
                return prc_md_not_extracted(md, val, "setuptools reads this list from another file", from, err);
        while (*s != '\0') {
                size_t l = strcspn(s, strchr(val, '\n') != NULL ? "\n" : ";");
                const char *b = s, *e = s + l;
                char *one;
                bool ok;

                s = *e != '\0' ? e + 1 : e;
                while (b < e && (*b == ' ' || *b == '\t'))
                        b++;
                while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                        e--;
                if (b == e || *b == '#')
                        continue;
                if ((one = py_dupn(b, (size_t)(e - b))) == NULL)
                        return py_oom(err);
                ok = py_add_pep508(md, one, scope, group, prc_x_find_line(in, one, from), err);
                free(one);
                if (!ok)
                        return false;
        }
        return true;
}

json_t *prc_x_py_setup_cfg(const prc_xin *in, prc_err *err)
{
        static const struct {
                const char *key, *scope;
        } lists[] = { { "install_requires", "runtime" }, { "setup_requires", "build" },
                      { "tests_require", "test" } };
        json_t *ini = prc_ini_parse(in->p, in->n, in->lim, 0, err), *md, *meta, *opt, *extras, *v;
        const char *key;
        uint32_t ol;

        if (ini == NULL) {
                py_parse_failed(in, err);
                return NULL;
        }
        md = prc_md_new(in, "pypi-setup-cfg", "pypi", "manifest", err);
        if (md == NULL)
                goto fail;
        meta = PRC_JGET(ini, "metadata");
        if (py_str(meta, "name") != NULL) {
                char *purl = py_purl(py_str(meta, "name"), py_str(meta, "version"));
                bool ok;

                if (purl == NULL) {
                        py_oom(err);
                        goto fail;
                }
                ok = prc_md_set_package(md, py_str(meta, "name"), py_str(meta, "version"), purl,
                                        key_line(in, "name", prc_x_find_line(in, "[metadata]", 1)), err);
                free(purl);
                if (!ok)
                        goto fail;
        }
        opt = PRC_JGET(ini, "options");
        ol = prc_x_find_line(in, "[options]", 1);
        for (size_t i = 0; i < PRC_ARRAY_LEN(lists); i++) {
                const char *val = py_str(opt, lists[i].key);

                if (val != NULL && !cfg_list(md, in, val, lists[i].scope, NULL,
                                             key_line(in, lists[i].key, ol), err))
                        goto fail;
        }
        extras = PRC_JGET(ini, "options.extras_require");
        ol = prc_x_find_line(in, "[options.extras_require]", 1);
        json_object_foreach(extras, key, v) {
                if (!cfg_list(md, in, json_string_value(v), "optional", key,
                              key_line(in, key, ol), err))
                        goto fail;
        }
        json_decref(ini);
        return md;
fail:
        json_decref(ini);
        json_decref(md);
        return NULL;
}
