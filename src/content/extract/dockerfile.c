/*
 * dockerfile.c - Dockerfile and Containerfile: parser directives, line
 * continuations, here-documents, stages (FROM with registry, repository,
 * tag, digest, platform, alias, earlier-stage references), ARG defaults
 * substituted into FROM, RUN and shell-form CMD/ENTRYPOINT tokenized by the
 * worker's shell tokenizer, ADD/COPY sources, USER, HEALTHCHECK, SHELL and
 * the final stage, all with lines; base images are dependencies.  Also the
 * image reference parser the workflow extractor shares (gha.h).
 * Trust: hostile bytes inside the content worker.  A line-oriented reader
 * of its own: every string it keeps is bounded by PRC_MD_STR_MAX or the
 * input, lists by PRC_MD_LIST_MAX, the tokenizer by its own budget.
 */
#include "content/extract/extract.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/utf8.h"
#include "content/extract/gha.h"
#include "content/parsers/shell.h"

/* ---- image references (distribution's reference grammar, read loosely) ---- */

static bool ref_name_ok(const char *s, size_t n)
{
        if (n == 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '/'))
                        return false;
        }
        return s[0] != '/' && s[n - 1] != '/' && strstr(s, "//") == NULL;
}

static bool tag_ok(const char *s)
{
        size_t n = strlen(s);

        if (n == 0 || n > 128 || !(isalnum((unsigned char)s[0]) || s[0] == '_'))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-'))
                        return false;
        return true;
}

static bool digest_ok(const char *s)
{
        const char *colon = strchr(s, ':');
        size_t hex = 0;

        if (colon == NULL || colon == s)
                return false;
        for (const char *p = s; p < colon; p++)
                if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || strchr("+._-", *p)))
                        return false;
        for (const char *p = colon + 1; *p; p++, hex++)
                if (!isxdigit((unsigned char)*p))
                        return false;
        return hex >= 32;
}

json_t *prc_x_image_ref(const char *raw, prc_err *err)
{
        char *buf = strdup(raw), *digest = NULL, *tag = NULL, *name, *slash, *colon, *repo = NULL;
        const char *registry = "docker.io";
        bool valid = true;
        json_t *o = NULL;

        if (buf == NULL) {
                prc_err_oom(err, "an image reference");
                return NULL;
        }
        if (strlen(raw) > PRC_MD_STR_MAX) {
                free(buf);
                prc_err_set(err, PRC_E_EXTRACT_LIMIT, "image reference of %zu bytes, limit %u", strlen(raw),
                            PRC_MD_STR_MAX);
                return NULL;
        }
        name = buf;
        digest = strchr(buf, '@');
        if (digest != NULL) {
                *digest++ = '\0';
                valid = digest_ok(digest);
        }
        slash = strrchr(name, '/');
        colon = strrchr(name, ':');
        if (colon != NULL && (slash == NULL || colon > slash)) {
                *colon = '\0';
                tag = colon + 1;
                valid = valid && tag_ok(tag);
        }
        slash = strchr(name, '/');
        /* The first component is a registry when it looks like a host (a dot, a port, localhost). */
        if (slash != NULL && (memchr(name, '.', (size_t)(slash - name)) != NULL ||
                              memchr(name, ':', (size_t)(slash - name)) != NULL ||
                              (slash - name == 9 && strncmp(name, "localhost", 9) == 0))) {
                *slash = '\0';
                registry = name;
                name = slash + 1;
        }
        if (strcmp(registry, "docker.io") == 0 || strcmp(registry, "index.docker.io") == 0 ||
            strcmp(registry, "registry-1.docker.io") == 0) {
                registry = "docker.io";
                if (strchr(name, '/') == NULL) {
                        repo = malloc(strlen(name) + 9);
                        if (repo == NULL) {
                                free(buf);
                                prc_err_oom(err, "an image reference");
                                return NULL;
                        }
                        memcpy(repo, "library/", 8);
                        memcpy(repo + 8, name, strlen(name) + 1);
                }
        }
        valid = valid && ref_name_ok(name, strlen(name));
        o = json_object();
        if (o == NULL || !prc_md_set_str(o, "raw", raw, err) || !prc_md_set_str(o, "registry", registry, err) ||
            !prc_md_set_str(o, "repository", repo != NULL ? repo : name, err) || !prc_md_set_str(o, "tag", tag, err) ||
            !prc_md_set_str(o, "digest", digest, err) || json_object_set_new(o, "valid", json_boolean(valid)) != 0) {
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "an image reference");
                json_decref(o);
                o = NULL;
        }
        free(repo);
        free(buf);
        return o;
}

char *prc_x_image_purl(const json_t *img)
{
        const char *reg = json_string_value(PRC_JGET(img, "registry"));
        const char *repo = json_string_value(PRC_JGET(img, "repository"));
        const char *tag = json_string_value(PRC_JGET(img, "tag"));
        const char *dig = json_string_value(PRC_JGET(img, "digest"));
        const char *q[] = { "repository_url", NULL, NULL };
        char *ns = NULL, *out;
        const char *name, *slash;

        if (!json_is_true(PRC_JGET(img, "valid")) || reg == NULL || repo == NULL)
                return NULL;
        /* purl-spec docker: Docker Hub is the default (no qualifier), official images have no namespace. */
        if (strcmp(reg, "docker.io") != 0)
                q[1] = reg;
        if (strcmp(reg, "docker.io") == 0 && strncmp(repo, "library/", 8) == 0 && strchr(repo + 8, '/') == NULL)
                repo += 8;
        slash = strrchr(repo, '/');
        name = slash != NULL ? slash + 1 : repo;
        if (slash != NULL) {
                ns = strndup(repo, (size_t)(slash - repo));
                if (ns == NULL)
                        return NULL;
        }
        out = prc_purl("docker", ns, name, dig != NULL ? dig : tag, q[1] != NULL ? q : NULL, NULL);
        free(ns);
        return out;
}

bool prc_x_image_dep(json_t *md, const json_t *img, const char *scope, const char *group, uint32_t line,
                     prc_err *err)
{
        const char *reg = json_string_value(PRC_JGET(img, "registry"));
        const char *raw = json_string_value(PRC_JGET(img, "raw"));
        char *purl = prc_x_image_purl(img), *name, *url = NULL;
        const char *cut;
        json_t *d;
        bool ok;

        if (purl == NULL)
                return prc_err_oom(err, "an image purl");
        /* The name as written, without tag or digest. */
        cut = strchr(raw, '@');
        name = strndup(raw, cut != NULL ? (size_t)(cut - raw) : strlen(raw));
        if (name != NULL && json_is_string(PRC_JGET(img, "tag")))
                name[strlen(name) - json_string_length(PRC_JGET(img, "tag")) - 1] = '\0';
        if (name == NULL || (strcmp(reg, "docker.io") != 0 && asprintf(&url, "https://%s", reg) < 0)) {
                free(purl);
                free(name);
                return prc_err_oom(err, "an image dependency");
        }
        d = prc_md_add_dep(md, name, scope, true, line, err);
        ok = d != NULL && prc_md_set_str(d, "requirement", json_string_value(PRC_JGET(img, "tag")), err) &&
             prc_md_set_str(d, "resolved", json_string_value(PRC_JGET(img, "digest")), err) &&
             prc_md_set_source(d, "registry", url, NULL, NULL, err) && prc_md_set_str(d, "purl", purl, err) &&
             prc_md_set_str(d, "group", group, err);
        free(url);
        free(purl);
        free(name);
        return ok;
}

static size_t cost(const json_t *v, unsigned depth)
{
        size_t c = 16, i;
        const char *k;
        json_t *m;

        if (depth > 64)
                return c;
        if (json_is_string(v))
                return c + json_string_length(v);
        if (json_is_object(v))
                json_object_foreach((json_t *)v, k, m)
                        c += strlen(k) + cost(m, depth + 1);
        else if (json_is_array(v))
                json_array_foreach(v, i, m)
                        c += cost(m, depth + 1);
        return c;
}

bool prc_x_tokens_budget(size_t *used, const json_t *doc, size_t file_n, prc_err *err)
{
        size_t cap = PRC_SHELL_OUTPUT_FACTOR * file_n + PRC_SHELL_OUTPUT_SLACK;

        *used += cost(doc, 0);
        if (*used > cap)
                return prc_err_set(err, PRC_E_EXTRACT_LIMIT, "tokens of this file's scripts pass %zu bytes", cap);
        return true;
}

/* ---- the Dockerfile reader ------------------------------------------------- */

typedef struct pline {
        const char *p;          /* borrowed: into the input */
        size_t      n;          /* without the line end */
        uint32_t    line;
} pline;

/* One instruction as read: the logical text and, for shell forms, a script that keeps the lines. */
typedef struct instr {
        char     *logical;      /* owned: continuations joined, comment lines dropped */
        char     *script;       /* owned: the same text line by line (continuations kept) then heredoc lines */
        uint32_t *map;          /* owned: script line k (0-based) -> file line */
        size_t    nmap;
        uint32_t  line;
        json_t   *heredocs;     /* owned: [{"delimiter", "body", "line"}] */
} instr;

typedef struct dx {
        const prc_xin *in;
        json_t        *md;      /* borrowed */
        prc_err       *err;
        char           esc;
        pline         *lines;   /* owned */
        size_t         nlines;
        json_t        *gargs;   /* owned: ARGs before the first FROM: name -> default string or null */
        json_t        *stages;  /* borrowed from details */
        json_t        *stage;   /* borrowed: the current stage */
        bool           posix;   /* the current stage's SHELL is a POSIX shell */
        size_t         tok_used; /* prc_x_tokens_budget */
} dx;

static bool at_line(prc_err *err, uint32_t line)
{
        prc_err_set_line(err, line, 0);
        return false;
}

/* A refusal of class cls at line (a macro, so that the format is checked). */
#define dfail(x, cls, line, fmt, what) (prc_err_set((x)->err, cls, fmt, what), at_line((x)->err, line))

static bool setn_d(dx *x, json_t *o, const char *k, json_t *v)
{
        if (v == NULL || json_object_set_new(o, k, v) != 0)
                return prc_err_oom(x->err, "a Dockerfile detail");
        return true;
}

static void instr_clear(instr *it)
{
        free(it->logical);
        free(it->script);
        free(it->map);
        json_decref(it->heredocs);
        memset(it, 0, sizeof(*it));
}

static bool blank(const char *p, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                        return false;
        return true;
}

static bool comment(const char *p, size_t n)
{
        size_t i = 0;

        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        return i < n && p[i] == '#';
}

/* n without trailing whitespace; *cont when the line then ends with the escape character. */
static size_t trim_end(const dx *x, const char *p, size_t n, bool *cont)
{
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
                n--;
        *cont = n > 0 && p[n - 1] == x->esc;
        return *cont ? n - 1 : n;
}

static bool cat(dx *x, char **buf, size_t *len, const char *p, size_t n)
{
        char *nb = realloc(*buf, *len + n + 1);

        if (nb == NULL)
                return prc_err_oom(x->err, "a Dockerfile instruction");
        memcpy(nb + *len, p, n);
        *len += n;
        nb[*len] = '\0';
        *buf = nb;
        return true;
}

static bool map_add(dx *x, instr *it, uint32_t line)
{
        uint32_t *nm = realloc(it->map, (it->nmap + 1) * sizeof(*nm));

        if (nm == NULL)
                return prc_err_oom(x->err, "a Dockerfile instruction");
        nm[it->nmap++] = line;
        it->map = nm;
        return true;
}

/* Heredoc markers in the first line of RUN/COPY/ADD: "<<EOF", "<<-EOF", "<<'EOF'", "<<\"EOF\"". */
static bool heredocs(dx *x, instr *it, size_t *i, size_t *slen)
{
        const char *s = it->logical;

        for (const char *h = strstr(s, "<<"); h != NULL; h = strstr(h + 2, "<<")) {
                const char *w = h + 2;
                char quote = 0;
                /* A marker starts a word outside quotes ("a<<b" and $((1<<2)) are none), as BuildKit lexes it. */
                for (const char *c = s; c < h; c++) {
                        if (quote == 0 && (*c == '"' || *c == '\''))
                                quote = *c;
                        else if (quote != 0 && *c == quote)
                                quote = 0;
                }
                {
                        const char *b = h;
                        while (b > s && isdigit((unsigned char)b[-1]))
                                b--;        /* a file descriptor: 3<<EOF */
                        if (quote != 0 || (b > s && strchr(" \t;|&", b[-1]) == NULL))
                                continue;
                }
                bool strip = false;
                char delim[128], q = 0;
                size_t k = 0;
                json_t *body_j;
                char *body = NULL;
                size_t blen = 0;
                uint32_t start;
                if (*w == '-') {
                        strip = true;
                        w++;
                }
                if (*w == '"' || *w == '\'')
                        q = *w++;
                while (*w && (isalnum((unsigned char)*w) || *w == '_' || *w == '-' || *w == '.') && k < sizeof(delim) - 1)
                        delim[k++] = *w++;
                delim[k] = '\0';
                if (k == 0 || (q && *w != q))
                        continue;       /* "<<" that is no heredoc marker (a shell here-string, a comparison) */
                start = *i < x->nlines ? x->lines[*i].line : 0;
                for (;;) {
                        const char *p;
                        size_t n;
                        if (*i >= x->nlines) {
                                free(body);
                                return dfail(x, PRC_E_DOCKER_SYNTAX, it->line, "here-document '%s' is never closed",
                                             delim);
                        }
                        p = x->lines[*i].p;
                        n = x->lines[*i].n;
                        if (n > 0 && p[n - 1] == '\r')
                                n--;
                        if (!cat(x, &it->script, slen, "\n", 1) || !cat(x, &it->script, slen, p, n) ||
                            !map_add(x, it, x->lines[*i].line)) {
                                free(body);
                                return false;
                        }
                        (*i)++;
                        while (strip && n > 0 && *p == '\t') {
                                p++;
                                n--;
                        }
                        if (n == k && memcmp(p, delim, k) == 0)
                                break;
                        if (!cat(x, &body, &blen, p, n) || !cat(x, &body, &blen, "\n", 1)) {
                                free(body);
                                return false;
                        }
                }
                body_j = json_pack("{s:s, s:s, s:i}", "delimiter", delim, "body", body != NULL ? body : "", "line",
                                   (int)start);
                free(body);
                if (body_j == NULL || json_array_append_new(it->heredocs, body_j) != 0)
                        return prc_err_oom(x->err, "a here-document");
        }
        return true;
}

static bool heredoc_capable(const char *word, size_t n)
{
        return (n == 3 && (strncasecmp(word, "RUN", 3) == 0 || strncasecmp(word, "ADD", 3) == 0)) ||
               (n == 4 && strncasecmp(word, "COPY", 4) == 0);
}

/* Read the instruction starting at physical line *i (not blank, not a comment). */
static bool read_instr(dx *x, size_t *i, instr *it)
{
        size_t llen = 0, slen = 0, wn = 0;
        const char *w;
        bool cont = true, first = true;

        memset(it, 0, sizeof(*it));
        it->line = x->lines[*i].line;
        it->heredocs = json_array();
        if (it->heredocs == NULL)
                return prc_err_oom(x->err, "a Dockerfile instruction");
        while (cont && *i < x->nlines) {
                const pline *l = &x->lines[*i];
                size_t n;
                (*i)++;
                /* Inside a continuation Docker drops comment lines and empty lines. */
                if (!first && (comment(l->p, l->n) || blank(l->p, l->n)))
                        continue;
                n = trim_end(x, l->p, l->n, &cont);
                if (!cat(x, &it->logical, &llen, l->p, n) || (cont && !cat(x, &it->logical, &llen, " ", 1)))
                        return false;
                if (!first && !cat(x, &it->script, &slen, "\n", 1))
                        return false;
                if (!cat(x, &it->script, &slen, l->p, n) || (cont && !cat(x, &it->script, &slen, " \\", 2)) ||
                    !map_add(x, it, l->line))
                        return false;
                first = false;
        }
        w = it->logical;
        while (*w == ' ' || *w == '\t')
                w++;
        while (isalpha((unsigned char)w[wn]))
                wn++;
        if (heredoc_capable(w, wn) && !heredocs(x, it, i, &slen))
                return false;
        return true;
}

/* ---- words, flags, substitution --------------------------------------------------- */

/* The instruction's keyword (upper-cased into kw) and its arguments (borrowed from logical). */
static const char *split_kw(const char *s, char *kw, size_t cap)
{
        size_t k = 0;

        while (*s == ' ' || *s == '\t')
                s++;
        while (isalpha((unsigned char)*s) && k < cap - 1)
                kw[k++] = (char)toupper((unsigned char)*s++);
        kw[k] = '\0';
        while (*s == ' ' || *s == '\t')
                s++;
        return s;
}

/* Leading "--name=value" flags into obj (value text, "" for a bare flag); returns the rest. */
static const char *flags(dx *x, const char *s, json_t *obj, uint32_t line)
{
        while (s[0] == '-' && s[1] == '-') {
                const char *e = s + 2, *eq;
                char name[64], *val;
                size_t k;
                while (*e && *e != ' ' && *e != '\t')
                        e++;
                eq = memchr(s, '=', (size_t)(e - s));
                k = (size_t)((eq != NULL ? eq : e) - (s + 2));
                if (k == 0 || k >= sizeof(name)) {
                        dfail(x, PRC_E_DOCKER_SYNTAX, line, "malformed flag in '%s'", "instruction");
                        return NULL;
                }
                memcpy(name, s + 2, k);
                name[k] = '\0';
                val = eq != NULL ? strndup(eq + 1, (size_t)(e - eq - 1)) : strdup("");
                if (val == NULL || !prc_md_set_str(obj, name, val, x->err)) {
                        free(val);
                        if (!prc_err_is_set(x->err))
                                prc_err_oom(x->err, "a flag");
                        return NULL;
                }
                free(val);
                s = e;
                while (*s == ' ' || *s == '\t')
                        s++;
        }
        return s;
}

/* Whitespace-separated words of s (a shell-form argument list, no quotes interpreted). */
static json_t *words(const char *s)
{
        json_t *a = json_array();

        while (a != NULL && *s) {
                const char *e;
                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '\0')
                        break;
                e = s;
                while (*e && *e != ' ' && *e != '\t')
                        e++;
                if (json_array_append_new(a, json_stringn(s, (size_t)(e - s))) != 0) {
                        json_decref(a);
                        return NULL;
                }
                s = e;
        }
        return a;
}

/* A JSON exec form (["a", "b"]) as an array of strings, or NULL when s is not one (then it is shell form). */
static json_t *exec_form(dx *x, const char *s)
{
        json_t *v;
        prc_err e;
        size_t i;
        json_t *m;

        if (*s != '[')
                return NULL;
        prc_err_init(&e);
        v = prc_json_parse((const uint8_t *)s, strlen(s), x->in->lim, 0, &e);
        if (v == NULL)
                return NULL;
        if (!json_is_array(v)) {
                json_decref(v);
                return NULL;
        }
        json_array_foreach(v, i, m) {
                if (!json_is_string(m)) {
                        json_decref(v);
                        return NULL;
                }
        }
        return v;
}

/*
 * Substitute $NAME, ${NAME}, ${NAME:-w}, ${NAME-w}, ${NAME:+w}, ${NAME+w}
 * from vars (name -> default or null).  Names without a value go to
 * unresolved (and expand to nothing, as BuildKit does).  Returns malloc'ed
 * text or NULL (out of memory).
 */
static char *subst(dx *x, const char *s, const json_t *vars, json_t *unresolved, unsigned depth)
{
        char *out = NULL, q = 0;
        size_t len = 0;

        if (depth > 8) {
                dfail(x, PRC_E_DOCKER_SYNTAX, 0, "variable substitutions nest deeper than %s", "8");
                return NULL;
        }
        if (!cat(x, &out, &len, "", 0))
                return NULL;
        for (size_t i = 0; s[i];) {
                if (len > PRC_MD_STR_MAX) {
                        free(out);
                        prc_err_set(x->err, PRC_E_EXTRACT_LIMIT, "a substituted value passes %u bytes", PRC_MD_STR_MAX);
                        return NULL;
                }
                /* Quotes group a word and are removed, as BuildKit reads FROM; single quotes stop expansion. */
                if ((s[i] == '\'' && q != '"') || (s[i] == '"' && q != '\'')) {
                        q = q == s[i] ? 0 : s[i];
                        i++;
                        continue;
                }
                if (q == '\'') {
                        if (!cat(x, &out, &len, s + i, 1))
                                return NULL;
                        i++;
                        continue;
                }
                char name[256], op[3] = "", *word = NULL;
                size_t k = 0, wl = 0;
                const json_t *v;
                const char *val;
                if (s[i] == x->esc && s[i + 1] == '$') {
                        if (!cat(x, &out, &len, "$", 1))
                                return NULL;
                        i += 2;
                        continue;
                }
                if (s[i] != '$' || !(s[i + 1] == '{' || isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_')) {
                        if (!cat(x, &out, &len, s + i, 1))
                                return NULL;
                        i++;
                        continue;
                }
                if (s[i + 1] == '{') {
                        size_t j = i + 2, nest = 1;
                        while (s[j] && (isalnum((unsigned char)s[j]) || s[j] == '_') && k < sizeof(name) - 1)
                                name[k++] = s[j++];
                        name[k] = '\0';
                        if (s[j] == ':' && (s[j + 1] == '-' || s[j + 1] == '+')) {
                                op[0] = ':';
                                op[1] = s[j + 1];
                                j += 2;
                        } else if (s[j] == '-' || s[j] == '+') {
                                op[0] = s[j++];
                        }
                        word = (char *)s + j;
                        while (s[j] && nest > 0) {
                                nest += s[j] == '{';
                                nest -= s[j] == '}';
                                if (nest > 0)
                                        j++;
                        }
                        wl = (size_t)(s + j - word);
                        i = s[j] ? j + 1 : j;
                } else {
                        size_t j = i + 1;
                        while (s[j] && (isalnum((unsigned char)s[j]) || s[j] == '_') && k < sizeof(name) - 1)
                                name[k++] = s[j++];
                        name[k] = '\0';
                        i = j;
                }
                v = json_object_get(vars, name);
                val = json_is_string(v) ? json_string_value(v) : NULL;
                if (op[0] != '\0' && (op[strlen(op) - 1] == '-')) {
                        bool use_word = val == NULL || (op[0] == ':' && val[0] == '\0');
                        if (use_word) {
                                char *w = strndup(word, wl), *sub;
                                if (w == NULL) {
                                        free(out);
                                        prc_err_oom(x->err, "a substitution");
                                        return NULL;
                                }
                                sub = subst(x, w, vars, unresolved, depth + 1);
                                free(w);
                                if (sub == NULL || !cat(x, &out, &len, sub, strlen(sub))) {
                                        free(sub);
                                        free(out);
                                        return NULL;
                                }
                                free(sub);
                                continue;
                        }
                } else if (op[0] != '\0') {
                        /* ${x:+w}: w when x is set (and non-empty) */
                        bool set = val != NULL && (op[0] != ':' || val[0] != '\0');
                        if (set && !cat(x, &out, &len, word, wl)) {
                                free(out);
                                return NULL;
                        }
                        if (!set && val == NULL && json_array_append_new(unresolved, json_string(name)) != 0) {
                                free(out);
                                prc_err_oom(x->err, "a substitution");
                                return NULL;
                        }
                        continue;
                }
                if (val == NULL) {
                        if (json_array_append_new(unresolved, json_string(name)) != 0) {
                                free(out);
                                prc_err_oom(x->err, "a substitution");
                                return NULL;
                        }
                        continue;
                }
                if (!cat(x, &out, &len, val, strlen(val))) {
                        free(out);
                        return NULL;
                }
        }
        return out;
}

/* ---- instructions ---------------------------------------------------------- */

/* Tokenize a shell-form script of it into obj["tokens"] (null plus a not_extracted entry when it cannot be). */
static bool tokens(dx *x, json_t *obj, const instr *it, const char *kw)
{
        json_t *doc;
        prc_err te;
        char why[320], what[64];
        size_t i;
        json_t *m;

        snprintf(what, sizeof(what), "%s at line %u", kw, it->line);
        if (!x->posix) {
                return json_object_set_new(obj, "tokens", json_null()) == 0 &&
                       prc_md_not_extracted(x->md, what, "the stage's SHELL is not a POSIX shell; not tokenized",
                                            it->line, x->err);
        }
        prc_err_init(&te);
        doc = prc_shell_tokenize((const uint8_t *)it->script, strlen(it->script), x->in->lim, PRC_SHELL_PKGBUILD, &te);
        if (doc == NULL) {
                if (te.cls == PRC_E_OUT_OF_MEMORY) {
                        *x->err = te;
                        return false;
                }
                snprintf(why, sizeof(why), "the command does not tokenize as shell (%s: %s)", prc_err_name(te.cls),
                         te.msg);
                return json_object_set_new(obj, "tokens", json_null()) == 0 &&
                       prc_md_not_extracted(x->md, what, why, it->line, x->err);
        }
        json_object_del(doc, "format");
        if (!prc_x_tokens_budget(&x->tok_used, doc, x->in->n, x->err)) {
                json_decref(doc);
                prc_err_set_line(x->err, it->line, 0);
                return false;
        }
        /* Script line k is file line map[k - 1]. */
        {
                json_t *stack[64];
                size_t sp = 0;
                stack[sp++] = doc;
                while (sp > 0) {
                        json_t *v = stack[--sp];
                        const char *k;
                        if (json_is_object(v)) {
                                json_object_foreach(v, k, m) {
                                        if (strcmp(k, "line") == 0 && json_is_integer(m)) {
                                                json_int_t l = json_integer_value(m);
                                                json_integer_set(m, l >= 1 && (size_t)l <= it->nmap ? it->map[l - 1]
                                                                                                   : it->line);
                                        } else if ((json_is_object(m) || json_is_array(m)) && sp < 64) {
                                                stack[sp++] = m;
                                        }
                                }
                        } else {
                                json_array_foreach(v, i, m)
                                        if ((json_is_object(m) || json_is_array(m)) && sp < 64)
                                                stack[sp++] = m;
                        }
                }
        }
        return json_object_set_new(obj, "tokens", doc) == 0 || prc_err_oom(x->err, "tokens");
}

/* Add off to every "line" of a token document (a here-document body's line 1 is the file's line 1 + off). */
static void shift_lines(json_t *doc, json_int_t off)
{
        json_t *stack[64], *m;
        size_t sp = 0, i;
        const char *k;

        stack[sp++] = doc;
        while (sp > 0) {
                json_t *v = stack[--sp];
                if (json_is_object(v)) {
                        json_object_foreach(v, k, m) {
                                if (strcmp(k, "line") == 0 && json_is_integer(m))
                                        json_integer_set(m, json_integer_value(m) + off);
                                else if ((json_is_object(m) || json_is_array(m)) && sp < 64)
                                        stack[sp++] = m;
                        }
                } else {
                        json_array_foreach(v, i, m)
                                if ((json_is_object(m) || json_is_array(m)) && sp < 64)
                                        stack[sp++] = m;
                }
        }
}

/*
 * A RUN's here-documents may be its script (RUN <<EOF, RUN bash <<EOF:
 * BuildKit runs the body): each body is tokenized too, into the
 * here-document's "tokens" with file lines, or null when it is not shell
 * (a Python body, a syntax error: the body may be data, so no
 * not_extracted entry; the analysis that needs it says it could not read
 * it).  "shebang" keeps a first line "#!..." (BuildKit runs the body with
 * that interpreter).
 */
static bool heredoc_tokens(dx *x, instr *it)
{
        json_t *h;
        size_t i;

        json_array_foreach(it->heredocs, i, h) {
                const char *body = json_string_value(PRC_JGET(h, "body"));
                json_int_t start = json_integer_value(PRC_JGET(h, "line"));
                json_t *doc = NULL;
                char *nl;
                if (body == NULL)
                        continue;
                if (strncmp(body, "#!", 2) == 0) {
                        nl = strchr(body, '\n');
                        if (json_object_set_new(h, "shebang", json_stringn(body, nl != NULL ? (size_t)(nl - body)
                                                                                          : strlen(body))) != 0)
                                return prc_err_oom(x->err, "a here-document");
                } else if (json_object_set_new(h, "shebang", json_null()) != 0) {
                        return prc_err_oom(x->err, "a here-document");
                }
                if (x->posix) {
                        prc_err te;
                        prc_err_init(&te);
                        doc = prc_shell_tokenize((const uint8_t *)body, strlen(body), x->in->lim, PRC_SHELL_PKGBUILD,
                                                 &te);
                        if (doc == NULL && te.cls == PRC_E_OUT_OF_MEMORY) {
                                *x->err = te;
                                return false;
                        }
                }
                if (doc != NULL) {
                        json_object_del(doc, "format");
                        if (!prc_x_tokens_budget(&x->tok_used, doc, x->in->n, x->err)) {
                                json_decref(doc);
                                prc_err_set_line(x->err, it->line, 0);
                                return false;
                        }
                        shift_lines(doc, start > 0 ? start - 1 : 0);
                }
                if (json_object_set_new(h, "tokens", doc != NULL ? doc : json_null()) != 0)
                        return prc_err_oom(x->err, "a here-document");
        }
        return true;
}

static size_t skip_blank(const char *s, size_t i)
{
        while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || (s[i] == '\\' && s[i + 1] == '\n'))
                i++;
        return i;
}

/*
 * Blank out the instruction keyword, its leading flags and, for
 * HEALTHCHECK, the CMD word in the script (lines stay where they are).
 */
static void script_strip_head(instr *it, bool sub_cmd)
{
        char *s = it->script;
        size_t i = skip_blank(s, 0);

        while (isalpha((unsigned char)s[i]))
                s[i++] = ' ';
        for (;;) {
                i = skip_blank(s, i);
                if (s[i] != '-' || s[i + 1] != '-')
                        break;
                while (s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
                        s[i++] = ' ';
        }
        if (sub_cmd)
                while (isalpha((unsigned char)s[i]))
                        s[i++] = ' ';
}

/* The shell form or exec form of RUN, CMD, ENTRYPOINT, HEALTHCHECK CMD. */
static bool command(dx *x, json_t *o, const char *args, instr *it, const char *kw)
{
        json_t *ex = exec_form(x, args);

        if (ex != NULL)
                return json_object_set_new(o, "form", json_string("exec")) == 0 &&
                       json_object_set_new(o, "exec", ex) == 0 && json_object_set_new(o, "tokens", json_null()) == 0;
        if (json_object_set_new(o, "form", json_string("shell")) != 0 ||
            json_object_set_new(o, "exec", json_null()) != 0)
                return prc_err_oom(x->err, "a command");
        script_strip_head(it, strcmp(kw, "HEALTHCHECK") == 0);
        return tokens(x, o, it, kw) && (strcmp(kw, "RUN") != 0 || heredoc_tokens(x, it));
}

static bool posix_exe(const json_t *shell)
{
        const char *e = json_string_value(json_array_get(shell, 0));
        const char *b;

        if (e == NULL)
                return false;
        b = strrchr(e, '/');
        b = b != NULL ? b + 1 : e;
        return strcmp(b, "sh") == 0 || strcmp(b, "bash") == 0 || strcmp(b, "dash") == 0 || strcmp(b, "ash") == 0 ||
               strcmp(b, "zsh") == 0;
}

/* The earlier stage name (case-insensitive) refers to; by_index: COPY --from=N may also give its index. */
static json_t *find_stage(dx *x, const char *name, bool by_index)
{
        size_t i;
        json_t *st;
        char *end;
        unsigned long idx = strtoul(name, &end, 10);

        if (by_index && isdigit((unsigned char)*name) && *end == '\0')
                return idx < json_array_size(x->stages) ? json_array_get(x->stages, idx) : NULL;
        json_array_foreach(x->stages, i, st) {
                const char *a = json_string_value(PRC_JGET(st, "name"));
                if (a != NULL && strcasecmp(a, name) == 0)
                        return st;
        }
        return NULL;
}

static bool from(dx *x, const char *args, uint32_t line)
{
        json_t *st = json_object(), *fl = json_object(), *unres = json_array(), *w = NULL, *img = json_null();
        const char *rest, *base_raw, *alias = NULL;
        char *base = NULL, *plat = NULL;
        json_t *earlier;
        bool ok = false;

        if (st == NULL || fl == NULL || unres == NULL || json_array_append_new(x->stages, st) != 0) {
                json_decref(fl);
                json_decref(unres);
                return prc_err_oom(x->err, "a stage");
        }
        x->stage = st;
        rest = flags(x, args, fl, line);
        if (rest == NULL)
                goto out;
        w = words(rest);
        if (w == NULL) {
                prc_err_oom(x->err, "a stage");
                goto out;
        }
        if (json_array_size(w) != 1 && !(json_array_size(w) == 3 &&
                                         strcasecmp(json_string_value(json_array_get(w, 1)), "AS") == 0)) {
                dfail(x, PRC_E_DOCKER_SYNTAX, line, "'%s' takes an image and an optional 'AS name'", "FROM");
                goto out;
        }
        base_raw = json_string_value(json_array_get(w, 0));
        if (json_array_size(w) == 3)
                alias = json_string_value(json_array_get(w, 2));
        base = subst(x, base_raw, x->gargs, unres, 0);
        if (base == NULL)
                goto out;
        /* The platform is kept as written: it usually names BuildKit's automatic ARGs ($BUILDPLATFORM). */
        if (json_is_string(PRC_JGET(fl, "platform"))) {
                plat = strdup(json_string_value(PRC_JGET(fl, "platform")));
                if (plat == NULL) {
                        prc_err_oom(x->err, "a stage");
                        goto out;
                }
        }
        earlier = json_array_size(unres) == 0 ? find_stage(x, base, false) : NULL;
        if (earlier == st)
                earlier = NULL;
        /* A stage built on an earlier one keeps its SHELL (image configuration); others start with /bin/sh -c. */
        {
                json_t *sh = earlier != NULL ? PRC_JGET(earlier, "shell") : NULL;
                x->posix = sh == NULL || json_is_null(sh) || posix_exe(sh);
                if (!setn_d(x, st, "shell", sh != NULL ? json_incref(sh) : json_null()))
                        goto out;
        }
        if (!setn_d(x, st, "index", json_integer((json_int_t)json_array_size(x->stages) - 1)) ||
            !setn_d(x, st, "line", json_integer(line)) || !prc_md_set_str(st, "name", alias, x->err) ||
            !prc_md_set_str(st, "base_raw", base_raw, x->err) || !prc_md_set_str(st, "base", base, x->err) ||
            !prc_md_set_str(st, "platform", plat, x->err) || !setn_d(x, st, "flags", json_incref(fl)) ||
            !setn_d(x, st, "unresolved", json_incref(unres)) ||
            !setn_d(x, st, "scratch", json_boolean(earlier == NULL && strcmp(base, "scratch") == 0)) ||
            !setn_d(x, st, "from_stage", earlier != NULL ? json_incref(PRC_JGET(earlier, "index")) : json_null()) ||
            !setn_d(x, st, "user", json_null()) || !setn_d(x, st, "args", json_array()) ||
            !setn_d(x, st, "instructions", json_array()))
                goto out;
        if (json_array_size(unres) > 0) {
                if (!prc_md_not_extracted(x->md, base_raw, "the base image names an ARG without a default", line, x->err))
                        goto out;
        } else if (earlier == NULL && strcmp(base, "scratch") != 0) {
                json_decref(img);
                img = prc_x_image_ref(base, x->err);
                if (img == NULL)
                        goto out;
                if (!json_is_true(PRC_JGET(img, "valid"))) {
                        if (!prc_md_not_extracted(x->md, base, "not a valid image reference", line, x->err))
                                goto out;
                } else if (!prc_x_image_dep(x->md, img, "build", alias, line, x->err)) {
                        goto out;
                }
        }
        ok = setn_d(x, st, "image", json_incref(img));
out:
        json_decref(img);
        json_decref(fl);
        json_decref(unres);
        json_decref(w);
        free(base);
        free(plat);
        return ok;
}

/* ARG a[=x] [b[=y] ...]: before the first FROM they are global (FROM may use them), else the stage's. */
static bool arg(dx *x, const char *args, uint32_t line, json_t *list)
{
        json_t *w = words(args);
        size_t i;
        json_t *m;

        if (w == NULL)
                return prc_err_oom(x->err, "an ARG");
        if (json_array_size(w) == 0) {
                json_decref(w);
                return dfail(x, PRC_E_DOCKER_SYNTAX, line, "'%s' without a name", "ARG");
        }
        json_array_foreach(w, i, m) {
                const char *t = json_string_value(m), *eq = strchr(t, '=');
                char *name = strndup(t, eq != NULL ? (size_t)(eq - t) : strlen(t)), *def = NULL;
                json_t *a = json_object();
                bool ok;
                if (eq != NULL) {
                        size_t dl = strlen(eq + 1);
                        /* A quoted default loses its quotes, as Docker reads it. */
                        if (dl >= 2 && (eq[1] == '"' || eq[1] == '\'') && eq[dl] == eq[1])
                                def = strndup(eq + 2, dl - 2);
                        else
                                def = strdup(eq + 1);
                }
                ok = name != NULL && a != NULL && (eq == NULL || def != NULL) &&
                     json_array_append(list, a) == 0 && prc_md_set_str(a, "name", name, x->err) &&
                     prc_md_set_str(a, "default", def, x->err) && setn_d(x, a, "line", json_integer(line));
                if (ok && x->stage == NULL)
                        ok = setn_d(x, x->gargs, name, def != NULL ? json_string(def) : json_null());
                json_decref(a);
                free(name);
                free(def);
                if (!ok) {
                        json_decref(w);
                        return prc_err_is_set(x->err) ? false : prc_err_oom(x->err, "an ARG");
                }
        }
        json_decref(w);
        return true;
}

static const char *source_kind(const char *s)
{
        if (strncmp(s, "<<", 2) == 0)
                return "heredoc";
        if (strncmp(s, "git@", 4) == 0 || strncmp(s, "git://", 6) == 0 || strstr(s, ".git#") != NULL ||
            (strncmp(s, "https://", 8) == 0 && strlen(s) > 4 && strcmp(s + strlen(s) - 4, ".git") == 0))
                return "git";
        if (strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0)
                return "url";
        return "local";
}

/* COPY / ADD: {"sources": [{"value", "kind"}], "dest", "from", "from_stage", "checksum", "flags"}. */
static bool copy_add(dx *x, json_t *o, const char *args, uint32_t line, bool add)
{
        json_t *fl = json_object(), *list, *srcs = json_array();
        const char *rest, *from;
        size_t i, n;
        json_t *m;

        if (fl == NULL || srcs == NULL || !setn_d(x, o, "flags", fl) || !setn_d(x, o, "sources", srcs))
                return prc_err_is_set(x->err) ? false : prc_err_oom(x->err, "a COPY");
        rest = flags(x, args, fl, line);
        if (rest == NULL)
                return false;
        list = exec_form(x, rest);
        if (list == NULL)
                list = words(rest);
        if (list == NULL)
                return prc_err_oom(x->err, "a COPY");
        n = json_array_size(list);
        if (n < 2) {
                json_decref(list);
                return dfail(x, PRC_E_DOCKER_SYNTAX, line, "'%s' needs a source and a destination", add ? "ADD" : "COPY");
        }
        json_array_foreach(list, i, m) {
                json_t *e;
                if (i + 1 == n)
                        break;
                e = json_pack("{s:O, s:s}", "value", m, "kind", source_kind(json_string_value(m)));
                if (e == NULL || json_array_append_new(srcs, e) != 0) {
                        json_decref(list);
                        return prc_err_oom(x->err, "a COPY source");
                }
        }
        if (!setn_d(x, o, "dest", json_incref(json_array_get(list, n - 1)))) {
                json_decref(list);
                return false;
        }
        json_decref(list);
        if (!setn_d(x, o, "checksum", json_incref(PRC_JGET(fl, "checksum") ? PRC_JGET(fl, "checksum")
                                                                                   : json_null())))
                return false;
        from = json_string_value(PRC_JGET(fl, "from"));
        if (from == NULL)
                return setn_d(x, o, "from", json_null()) && setn_d(x, o, "from_stage", json_null()) &&
                       setn_d(x, o, "from_image", json_null());
        {
                json_t *st = find_stage(x, from, true), *img;
                if (!prc_md_set_str(o, "from", from, x->err) ||
                    !setn_d(x, o, "from_stage", st != NULL ? json_incref(PRC_JGET(st, "index")) : json_null()))
                        return false;
                if (st != NULL)
                        return setn_d(x, o, "from_image", json_null());
                if (strchr(from, '$') != NULL)
                        return setn_d(x, o, "from_image", json_null()) &&
                               prc_md_not_extracted(x->md, from, "COPY --from names a variable; not substituted",
                                                    line, x->err);
                /* --from naming no stage is an image: BuildKit pulls it, so it is a dependency. */
                img = prc_x_image_ref(from, x->err);
                if (img == NULL)
                        return false;
                if (json_is_true(PRC_JGET(img, "valid")) ?
                    !prc_x_image_dep(x->md, img, "build", NULL, line, x->err) :
                    !prc_md_not_extracted(x->md, from, "not a valid image reference", line, x->err)) {
                        json_decref(img);
                        return false;
                }
                return setn_d(x, o, "from_image", img);
        }
}

static bool known_kw(const char *kw)
{
        static const char *const kws[] = { "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM",
                                           "HEALTHCHECK", "LABEL", "MAINTAINER", "ONBUILD", "RUN", "SHELL",
                                           "STOPSIGNAL", "USER", "VOLUME", "WORKDIR", NULL };

        for (size_t i = 0; kws[i] != NULL; i++)
                if (strcmp(kw, kws[i]) == 0)
                        return true;
        return false;
}

static bool instruction(dx *x, instr *it)
{
        char kw[16];
        const char *args = split_kw(it->logical, kw, sizeof(kw));
        json_t *o, *list;

        if (!known_kw(kw))
                return dfail(x, PRC_E_DOCKER_SYNTAX, it->line, "unknown instruction '%s'", kw[0] ? kw : "?");
        if (strcmp(kw, "FROM") == 0)
                return from(x, args, it->line);
        if (x->stage == NULL) {
                if (strcmp(kw, "ARG") == 0)
                        return arg(x, args, it->line, PRC_JGET(prc_md_details(x->md), "args"));
                return dfail(x, PRC_E_DOCKER_NO_STAGE, it->line, "'%s' before the first FROM", kw);
        }
        o = json_object();
        list = PRC_JGET(x->stage, "instructions");
        if (o == NULL || json_array_size(list) >= PRC_MD_LIST_MAX || json_array_append_new(list, o) != 0) {
                if (o != NULL && json_array_size(list) >= PRC_MD_LIST_MAX) {
                        json_decref(o);
                        prc_err_set(x->err, PRC_E_EXTRACT_LIMIT, "more than %u instructions in a stage", PRC_MD_LIST_MAX);
                        prc_err_set_line(x->err, it->line, 0);
                        return false;
                }
                return prc_err_oom(x->err, "an instruction");
        }
        if (!prc_md_set_str(o, "instruction", kw, x->err) || !setn_d(x, o, "line", json_integer(it->line)) ||
            !setn_d(x, o, "heredocs", json_incref(it->heredocs)))
                return false;
        if (strcmp(kw, "ARG") == 0)
                return arg(x, args, it->line, PRC_JGET(x->stage, "args"));
        if (strcmp(kw, "RUN") == 0) {
                json_t *fl = json_object();
                const char *rest;
                if (!setn_d(x, o, "flags", fl))
                        return false;
                rest = flags(x, args, fl, it->line);
                return rest != NULL && command(x, o, rest, it, kw);
        }
        if (strcmp(kw, "CMD") == 0 || strcmp(kw, "ENTRYPOINT") == 0)
                return command(x, o, args, it, kw);
        if (strcmp(kw, "HEALTHCHECK") == 0) {
                json_t *fl = json_object();
                const char *rest;
                char sub[16];
                if (!setn_d(x, o, "flags", fl))
                        return false;
                rest = flags(x, args, fl, it->line);
                if (rest == NULL)
                        return false;
                rest = split_kw(rest, sub, sizeof(sub));
                if (strcmp(sub, "NONE") == 0)
                        return setn_d(x, o, "none", json_true());
                if (strcmp(sub, "CMD") != 0)
                        return dfail(x, PRC_E_DOCKER_SYNTAX, it->line, "'%s' takes NONE or CMD", "HEALTHCHECK");
                return setn_d(x, o, "none", json_false()) && command(x, o, rest, it, kw);
        }
        if (strcmp(kw, "SHELL") == 0) {
                json_t *ex = exec_form(x, args);
                if (ex == NULL || json_array_size(ex) == 0) {
                        json_decref(ex);
                        return dfail(x, PRC_E_DOCKER_SYNTAX, it->line, "'%s' takes a JSON array", "SHELL");
                }
                x->posix = posix_exe(ex);
                return setn_d(x, x->stage, "shell", json_incref(ex)) && setn_d(x, o, "exec", ex);
        }
        if (strcmp(kw, "COPY") == 0 || strcmp(kw, "ADD") == 0)
                return copy_add(x, o, args, it->line, kw[0] == 'A');
        if (strcmp(kw, "USER") == 0) {
                json_t *u = json_pack("{s:s, s:i}", "value", args, "line", (int)it->line);
                return u != NULL && setn_d(x, x->stage, "user", json_incref(u)) && setn_d(x, o, "value", u);
        }
        /* ENV, LABEL, EXPOSE, WORKDIR, VOLUME, STOPSIGNAL, ONBUILD, MAINTAINER: their arguments as written. */
        return prc_md_set_str(o, "args", args, x->err);
}

/* ---- the extractor -------------------------------------------------------------- */

static bool directive(const char *p, size_t n, char *key, size_t kcap, char *val, size_t vcap)
{
        size_t i = 0, k = 0, v = 0;

        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        if (i >= n || p[i] != '#')
                return false;
        i++;
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-') && k < kcap - 1)
                key[k++] = (char)tolower((unsigned char)p[i++]);
        key[k] = '\0';
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        if (k == 0 || i >= n || p[i] != '=')
                return false;
        i++;
        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        while (n > i && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
                n--;
        while (i < n && v < vcap - 1)
                val[v++] = p[i++];
        val[v] = '\0';
        return true;
}

json_t *prc_extract_dockerfile(const prc_xin *in, prc_err *err)
{
        dx x = { .in = in, .err = err, .esc = '\\', .posix = true };
        json_t *md = NULL, *det, *dirs;
        size_t i = 0, nl = 0;
        unsigned seen = 0;      /* directives given: escape 1, syntax 2, check 4 */
        bool in_dirs = true;

        if (in->n > in->lim->input_max) {
                prc_err_set(err, PRC_E_INPUT_TOO_LARGE, "Dockerfile of %zu bytes, limit %zu", in->n, in->lim->input_max);
                return NULL;
        }
        {
                size_t bad;
                if (in->n > 0 && !prc_utf8_valid(in->p, in->n, &bad)) {
                        prc_err_at(err, PRC_E_INVALID_UTF8, bad, "invalid UTF-8 in a Dockerfile");
                        prc_err_set_line(err, prc_x_line_at(in, bad), 0);
                        return NULL;
                }
                if (in->n > 0 && memchr(in->p, '\0', in->n) != NULL) {
                        size_t off = (size_t)((const uint8_t *)memchr(in->p, '\0', in->n) - in->p);
                        prc_err_at(err, PRC_E_NUL_BYTE, off, "NUL byte in a Dockerfile");
                        prc_err_set_line(err, prc_x_line_at(in, off), 0);
                        return NULL;
                }
        }
        for (size_t j = 0; j < in->n; j++)
                nl += in->p[j] == '\n';
        x.lines = calloc(nl + 1, sizeof(*x.lines));
        x.gargs = json_object();
        md = prc_md_new(in, "dockerfile", "docker", "container", err);
        if (x.lines == NULL || x.gargs == NULL || md == NULL) {
                if (!prc_err_is_set(err))
                        prc_err_oom(err, "a Dockerfile");
                goto fail;
        }
        for (size_t j = 0, start = 0; j <= in->n; j++) {
                if (j == in->n || in->p[j] == '\n') {
                        if (j == in->n && j == start)
                                break;
                        x.lines[x.nlines].p = (const char *)in->p + start;
                        x.lines[x.nlines].n = j - start;
                        x.lines[x.nlines].line = (uint32_t)x.nlines + 1;
                        x.nlines++;
                        start = j + 1;
                }
        }
        /* A byte order mark is no part of the first line (directive or instruction). */
        if (x.nlines > 0 && x.lines[0].n >= 3 && memcmp(x.lines[0].p, "\xef\xbb\xbf", 3) == 0) {
                x.lines[0].p += 3;
                x.lines[0].n -= 3;
        }
        x.md = md;
        det = prc_md_details(md);
        dirs = json_pack("{s:n, s:s, s:n}", "syntax", "escape", "\\", "check");
        x.stages = json_array();
        if (!setn_d(&x, det, "directives", dirs) || !setn_d(&x, det, "args", json_array()) ||
            !setn_d(&x, det, "stages", x.stages))
                goto fail;
        while (i < x.nlines) {
                const pline *l = &x.lines[i];
                instr it;
                bool ok;
                if (in_dirs) {
                        char key[32], val[PRC_MD_STR_MAX + 2];      /* longer: extract-limit below */
                        if (directive(l->p, l->n, key, sizeof(key), val, sizeof(val)) &&
                            (strcmp(key, "escape") == 0 || strcmp(key, "syntax") == 0 || strcmp(key, "check") == 0)) {
                                unsigned bit = key[0] == 'e' ? 1u : key[0] == 's' ? 2u : 4u;
                                if (seen & bit) {
                                        dfail(&x, PRC_E_DOCKER_SYNTAX, l->line, "parser directive '%s' given twice", key);
                                        goto fail;
                                }
                                seen |= bit;
                                if (bit == 1u) {
                                        if (strcmp(val, "\\") != 0 && strcmp(val, "`") != 0) {
                                                dfail(&x, PRC_E_DOCKER_SYNTAX, l->line, "escape directive '%s' is "
                                                      "neither '\\' nor '`'", val);
                                                goto fail;
                                        }
                                        x.esc = val[0];
                                }
                                if (!prc_md_set_str(dirs, key, val, err))
                                        goto fail;
                                i++;
                                continue;
                        }
                        /* Anything else (an unknown directive is a comment) ends the directives. */
                        in_dirs = false;
                }
                if (blank(l->p, l->n) || comment(l->p, l->n)) {
                        i++;
                        continue;
                }
                if (!read_instr(&x, &i, &it)) {
                        instr_clear(&it);
                        goto fail;
                }
                ok = instruction(&x, &it);
                instr_clear(&it);
                if (!ok)
                        goto fail;
        }
        if (json_array_size(x.stages) == 0) {
                dfail(&x, PRC_E_DOCKER_NO_STAGE, 1, "no %s instruction", "FROM");
                goto fail;
        }
        {
                json_t *last = json_array_get(x.stages, json_array_size(x.stages) - 1);
                json_t *deps = PRC_JGET(md, "dependencies"), *d;
                json_int_t fl = json_integer_value(PRC_JGET(last, "line"));
                size_t k;
                if (!setn_d(&x, det, "final_stage", json_integer((json_int_t)json_array_size(x.stages) - 1)))
                        goto fail;
                /* The final stage's base image is what the container runs on: scope runtime, the rest build. */
                json_array_foreach(deps, k, d)
                        if (json_integer_value(PRC_JGET(d, "line")) == fl &&
                            json_object_set_new(d, "scope", json_string("runtime")) != 0) {
                                prc_err_oom(err, "a dependency");
                                goto fail;
                        }
        }
        free(x.lines);
        json_decref(x.gargs);
        return md;
fail:
        free(x.lines);
        json_decref(x.gargs);
        json_decref(md);
        return NULL;
}
