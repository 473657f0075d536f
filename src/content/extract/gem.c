/*
 * gem.c - the Ruby family (ecosystem "gem"): Gemfile.lock and Gemfile.
 * Trust: runs in the content worker on hostile bytes.  Both formats are
 * line-based text read here directly (no Ruby is ever run): the input is
 * checked for size, NUL and UTF-8 first, every line is bounded by the
 * input and every list by PRC_MD_* limits.  A Gemfile is Ruby: only lines
 * that are static calls (gem, source, group, platforms, git, path, github,
 * gemspec, ruby with literal arguments) are read; every other line is
 * reported in not_extracted with its line (docs/extraction/maven-nuget-gem.md).
 */
#include "content/extract/mng.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMT_LOCK    "gem-gemfile-lock"
#define FMT_GEMFILE "gem-gemfile"

static bool at_line(prc_err *err, uint32_t line)
{
        prc_err_set_line(err, line, 0);
        return false;
}
#define shape(err, line, ...) (prc_err_set((err), PRC_E_EXTRACT_SHAPE, __VA_ARGS__) || at_line((err), (line)))

static bool default_remote(const char *url)
{
        return strcmp(url, "https://rubygems.org/") == 0 || strcmp(url, "https://rubygems.org") == 0;
}

/* A source URL (not a registry entry) with user:password@: present, by key; the URL itself is stored stripped. */
static bool url_cred(json_t *md, const char *url, uint32_t line, prc_err *err)
{
        bool had = false;
        char *clean;

        if (url == NULL)
                return true;
        clean = prc_md_url_strip(url, &had);
        if (clean == NULL)
                return prc_err_oom(err, "source URL");
        free(clean);
        return !had || prc_md_add_credential(md, "source URL userinfo", line, err);
}

static bool set_purl(json_t *d, const char *name, const char *version, const char *platform, prc_err *err)
{
        const char *q[] = { "platform", platform, NULL };

        return prc_md_take_purl(d, prc_purl("gem", NULL, name, version, platform != NULL ? q : NULL, NULL), err);
}

/* ---- Gemfile.lock ------------------------------------------------------- */

enum sect { S_NONE, S_GEM, S_GIT, S_PATH, S_PLUGIN, S_PLATFORMS, S_DEPS, S_CHECKSUMS, S_BUNDLED, S_RUBY,
            S_OTHER };

typedef struct lock {
        const prc_xin *in;
        json_t        *md, *scratch;
        prc_err       *err;
        enum sect      sect;
        bool           in_specs;
        /* the current source block, as written */
        const char    *remote, *revision, *ref, *branch, *tag;
        unsigned       nremotes;
        uint32_t       sect_line;
        json_t        *cur_requires;    /* borrowed: nested deps of the last spec */
        json_t        *direct;          /* owned: name -> {"requirement", "line", "pinned"} */
        json_t        *checks;          /* owned: "name (version)" -> "algo=value,..." */
        json_t        *keys;            /* owned: "name (version)" per dependency index */
} lock;

/* "name (version-platform)" split as Bundler does: the version ends at the first '-'. */
static bool split_spec(lock *st, const char *s, size_t n, uint32_t line, const char **name, const char **ver,
                       const char **plat, const char **req, bool *bang)
{
        const char *sp = memchr(s, ' ', n), *open, *close, *dash;

        *ver = *plat = *req = NULL;
        *bang = n > 0 && s[n - 1] == '!';
        if (*bang)
                n--;
        if (n == 0)
                return shape(st->err, line, "an empty spec line");
        if (sp == NULL || sp >= s + n) {
                *name = prc_mx_keep(st->scratch, s, n, st->err);
                return *name != NULL;
        }
        open = sp + 1;
        close = s + n - 1;
        if (open >= close || *open != '(' || *close != ')' || memchr(s, '\t', n) != NULL)
                return shape(st->err, line, "a line that is not 'name' or 'name (version)'");
        *name = prc_mx_keep(st->scratch, s, (size_t)(sp - s), st->err);
        *req = prc_mx_keep(st->scratch, open + 1, (size_t)(close - open - 1), st->err);
        if (*name == NULL || *req == NULL)
                return false;
        dash = memchr(open + 1, '-', (size_t)(close - open - 1));
        *ver = prc_mx_keep(st->scratch, open + 1, (size_t)((dash != NULL ? dash : close) - open - 1), st->err);
        if (dash != NULL)
                *plat = prc_mx_keep(st->scratch, dash + 1, (size_t)(close - dash - 1), st->err);
        return *ver != NULL && (dash == NULL || *plat != NULL);
}

static bool add_spec(lock *st, const char *s, size_t n, uint32_t line)
{
        const char *name, *ver, *plat, *req, *key;
        json_t *d, *reqs;
        bool bang;

        if (!split_spec(st, s, n, line, &name, &ver, &plat, &req, &bang))
                return false;
        if (ver == NULL || *ver == '\0')
                return shape(st->err, line, "a spec without a version");
        d = prc_md_add_dep_rr(st->md, name, "runtime", false, line, NULL, ver, st->err);
        if (d == NULL || !set_purl(d, name, ver, plat, st->err))
                return false;
        switch (st->sect) {
        case S_GEM:
                if (st->remote != NULL && !default_remote(st->remote) &&
                    !prc_md_set_source(d, "registry", st->remote, NULL, NULL, st->err))
                        return false;
                break;
        case S_GIT:
                if (!prc_md_set_source(d, "git", st->remote, st->tag ? st->tag : st->branch ? st->branch : st->ref,
                                       st->revision, st->err))
                        return false;
                break;
        case S_PATH:
                if (!prc_md_set_source(d, "path", st->remote, NULL, NULL, st->err))
                        return false;
                break;
        default:
                if (!prc_md_set_source(d, "url", st->remote, NULL, NULL, st->err))
                        return false;
                break;
        }
        key = prc_mx_keepf(st->scratch, st->err, "%s (%s)", name, req);
        reqs = json_array();
        if (key == NULL || reqs == NULL || json_array_append_new(st->keys, json_string(key)) != 0 ||
            json_object_set_new(PRC_JGET(prc_md_details(st->md), "requires"), key, reqs) != 0)
                return prc_err_oom(st->err, "Gemfile.lock");
        st->cur_requires = reqs;
        return true;
}

static bool add_nested(lock *st, const char *s, size_t n, uint32_t line)
{
        const char *name, *ver, *plat, *req;
        json_t *o;
        bool bang;

        if (st->cur_requires == NULL)
                return shape(st->err, line, "a nested dependency before any spec");
        if (!split_spec(st, s, n, line, &name, &ver, &plat, &req, &bang))
                return false;
        if (json_array_size(st->cur_requires) >= PRC_MD_LIST_MAX)
                return prc_err_set(st->err, PRC_E_EXTRACT_LIMIT, "more than %u dependencies of one spec",
                                   PRC_MD_LIST_MAX);
        o = json_object();
        if (o == NULL || json_array_append_new(st->cur_requires, o) != 0)
                return prc_err_oom(st->err, "Gemfile.lock");
        return prc_md_set_str(o, "name", name, st->err) && prc_md_set_str(o, "requirement", req, st->err);
}

static bool source_attr(lock *st, const char *s, size_t n, uint32_t line)
{
        const char *colon = memchr(s, ':', n), *v;
        size_t kn;

        if (n == 6 && memcmp(s, "specs:", 6) == 0) {
                st->in_specs = true;
                return true;
        }
        if (colon == NULL || colon + 1 >= s + n || colon[1] != ' ')
                return shape(st->err, line, "a source line that is not 'key: value' or 'specs:'");
        kn = (size_t)(colon - s);
        v = prc_mx_keep(st->scratch, colon + 2, n - kn - 2, st->err);
        if (v == NULL)
                return false;
#define KEY(k) (kn == sizeof(k) - 1 && memcmp(s, k, kn) == 0)
        if (KEY("remote")) {
                if (st->nremotes++ == 0)
                        st->remote = v;
                if (st->sect != S_GEM && !url_cred(st->md, v, line, st->err))
                        return false;
                if (st->sect == S_GEM) {
                        if (!prc_md_add_registry(st->md, NULL, NULL, v, line, st->err))
                                return false;
                        if (st->nremotes == 2 &&
                            !prc_md_not_extracted(st->md, "GEM remotes", "a GEM section with several remotes does "
                                                  "not say which serves each gem: the first is recorded", line,
                                                  st->err))
                                return false;
                }
        } else if (KEY("revision")) {
                st->revision = v;
        } else if (KEY("ref")) {
                st->ref = v;
        } else if (KEY("branch")) {
                st->branch = v;
        } else if (KEY("tag")) {
                st->tag = v;
        } else if (!KEY("glob") && !KEY("submodules") && !KEY("type")) {
                char what[128];

                snprintf(what, sizeof(what), "source option '%.*s'", (int)(kn > 64 ? 64 : kn), s);
                return prc_md_not_extracted(st->md, what, "an option of a source block prc does not know", line,
                                            st->err);
        }
#undef KEY
        return true;
}

static bool header(lock *st, const char *s, size_t n, uint32_t line)
{
        static const struct { const char *name; enum sect s; } known[] = {
                { "GEM", S_GEM }, { "GIT", S_GIT }, { "PATH", S_PATH }, { "PLUGIN SOURCE", S_PLUGIN },
                { "PLATFORMS", S_PLATFORMS }, { "DEPENDENCIES", S_DEPS }, { "CHECKSUMS", S_CHECKSUMS },
                { "BUNDLED WITH", S_BUNDLED }, { "RUBY VERSION", S_RUBY },
        };

        for (size_t i = 0; i < n; i++)
                if (!(s[i] >= 'A' && s[i] <= 'Z') && s[i] != ' ' && s[i] != '_')
                        return shape(st->err, line, "a line that is neither an upper-case section header nor "
                                     "indented with spaces");
        st->sect = S_OTHER;
        st->in_specs = false;
        st->remote = st->revision = st->ref = st->branch = st->tag = NULL;
        st->nremotes = 0;
        st->cur_requires = NULL;
        st->sect_line = line;
        for (size_t i = 0; i < PRC_ARRAY_LEN(known); i++)
                if (strlen(known[i].name) == n && memcmp(s, known[i].name, n) == 0)
                        st->sect = known[i].s;
        if (st->sect == S_OTHER) {
                char what[96];

                snprintf(what, sizeof(what), "section %.*s", (int)(n > 64 ? 64 : n), s);
                return prc_md_not_extracted(st->md, what, "a Gemfile.lock section prc does not know", line, st->err);
        }
        return true;
}

static bool body(lock *st, const char *s, size_t n, size_t ind, uint32_t line)
{
        json_t *d = prc_md_details(st->md);
        const char *name, *ver, *plat, *req, *v;
        bool bang;

        switch (st->sect) {
        case S_GEM: case S_GIT: case S_PATH: case S_PLUGIN:
                if (ind == 2)
                        return source_attr(st, s, n, line);
                if (!st->in_specs)
                        return shape(st->err, line, "an indented line before 'specs:'");
                if (ind == 4)
                        return add_spec(st, s, n, line);
                if (ind == 6)
                        return add_nested(st, s, n, line);
                return shape(st->err, line, "a spec line indented by %zu spaces", ind);
        case S_PLATFORMS:
                return prc_mx_list_str(PRC_JGET(d, "platforms"), s, n, st->err);
        case S_DEPS: {
                json_t *o;

                if (!split_spec(st, s, n, line, &name, &ver, &plat, &req, &bang))
                        return false;
                o = json_object();
                if (o == NULL || json_object_set_new(st->direct, name, o) != 0 ||
                    json_object_set_new(o, "line", json_integer(line)) != 0 ||
                    json_object_set_new(o, "pinned", json_boolean(bang)) != 0)
                        return prc_err_oom(st->err, "DEPENDENCIES");
                return prc_md_set_str(o, "requirement", req, st->err);
        }
        case S_CHECKSUMS: {
                const char *close = NULL, *key;

                for (size_t i = 0; i < n; i++)
                        if (s[i] == ')')
                                close = s + i;
                if (close == NULL || memchr(s, '(', n) == NULL)
                        return shape(st->err, line, "a CHECKSUMS line that is not 'name (version) algo=value'");
                key = prc_mx_keep(st->scratch, s, (size_t)(close + 1 - s), st->err);
                if (key == NULL)
                        return false;
                if ((size_t)(close + 1 - s) < n) {
                        if (close[1] != ' ')
                                return shape(st->err, line, "a CHECKSUMS line that is not 'name (version) "
                                             "algo=value'");
                        const char *eq;

                        v = prc_mx_keep(st->scratch, close + 2, n - (size_t)(close + 2 - s), st->err);
                        if (v == NULL)
                                return false;
                        /* the first algo=value is recorded: neither side may be empty */
                        if ((eq = strchr(v, '=')) == NULL || eq == v || eq[1] == '\0' || eq[1] == ',')
                                return shape(st->err, line, "a CHECKSUMS line that is not 'name (version) "
                                             "algo=value'");
                        if (json_object_set_new(st->checks, key, json_string(v)) != 0)
                                return prc_err_oom(st->err, "CHECKSUMS");
                }
                return true;
        }
        case S_BUNDLED: case S_RUBY:
                v = prc_mx_keep(st->scratch, s, n, st->err);
                return v != NULL && prc_md_set_str(d, st->sect == S_BUNDLED ? "bundled_with" : "ruby_version", v,
                                                   st->err);
        case S_OTHER:
                return true;    /* reported once at its header */
        case S_NONE:
        default:
                return shape(st->err, line, "an indented line outside any section");
        }
}

/*
 * The edges: each spec's nested dependencies (details.requires) by name to every spec of that name
 * (one per platform when the lockfile holds several).  Bundler itself is required by some gems but
 * never a spec: no edge, nothing to note.
 */
static bool lock_edges(lock *st)
{
        json_t *byname = json_object(), *deps = PRC_JGET(st->md, "dependencies"), *d, *l;
        const json_t *reqs = PRC_JGET(prc_md_details(st->md), "requires"), *r, *t;
        size_t i, k, j;

        if (byname == NULL)
                return prc_err_oom(st->err, "Gemfile.lock edges");
        json_array_foreach(deps, i, d) {
                const char *n = json_string_value(PRC_JGET(d, "name"));
                l = json_object_get(byname, n);
                if (l == NULL && (json_object_set_new(byname, n, l = json_array()) != 0 || l == NULL))
                        goto oom;
                if (json_array_append_new(l, json_integer((json_int_t)i)) != 0)
                        goto oom;
        }
        json_array_foreach(deps, i, d) {
                json_array_foreach(json_object_get(reqs, json_string_value(json_array_get(st->keys, i))), k, r) {
                        const char *n = json_string_value(PRC_JGET(r, "name"));
                        l = json_object_get(byname, n);
                        if (l == NULL && strcmp(n, "bundler") != 0 &&
                            !prc_md_edge_unresolved(st->md, i, n,
                                                    json_string_value(PRC_JGET(r, "requirement")), st->err))
                                goto fail;
                        json_array_foreach(l, j, t)
                                if (!prc_md_edge(st->md, i, (size_t)json_integer_value(t), st->err))
                                        goto fail;
                }
        }
        json_decref(byname);
        return prc_md_edges_finish(st->md, st->err);
oom:
        prc_err_oom(st->err, "Gemfile.lock edges");
fail:
        json_decref(byname);
        return false;
}

/* DEPENDENCIES marks the direct gems; CHECKSUMS gives integrity. */
static bool finish(lock *st)
{
        json_t *deps = PRC_JGET(st->md, "dependencies"), *d;
        const char *name;
        json_t *o;
        size_t i;

        json_array_foreach(deps, i, d) {
                const char *n = json_string_value(PRC_JGET(d, "name")),
                           *key = json_string_value(json_array_get(st->keys, i)),
                           *sum = json_string_value(json_object_get(st->checks, key));

                o = json_object_get(st->direct, n);
                if (o != NULL) {
                        if (json_is_true(PRC_JGET(o, "pinned")) && PRC_JGET(o, "seen") == NULL &&
                            !prc_mx_list_str(PRC_JGET(prc_md_details(st->md), "source_pinned"), n,
                                             strlen(n), st->err))
                                return false;
                        if (json_object_set_new(d, "direct", json_true()) != 0 ||
                            json_object_set(d, "requirement", PRC_JGET(o, "requirement")) != 0)
                                return prc_err_oom(st->err, "Gemfile.lock");
                        (void)json_object_set_new(o, "seen", json_true());
                }
                if (sum != NULL) {
                        /* "sha256=hex[,sha512=...]": the first algorithm is recorded */
                        const char *eq = strchr(sum, '='), *end;
                        const char *alg, *val;

                        if (eq == NULL || eq == sum)
                                return shape(st->err, 0, "a CHECKSUMS entry for '%.200s' without algo=value", key);
                        end = eq + 1 + strcspn(eq + 1, ",");
                        alg = prc_mx_keep(st->scratch, sum, (size_t)(eq - sum), st->err);
                        val = prc_mx_keep(st->scratch, eq + 1, (size_t)(end - eq - 1), st->err);
                        if (alg == NULL || val == NULL || !prc_md_set_integrity(d, alg, val, st->err))
                                return false;
                }
        }
        json_object_foreach(st->direct, name, o) {
                if (PRC_JGET(o, "seen") == NULL) {
                        char what[PRC_MD_STR_MAX + 32];

                        snprintf(what, sizeof(what), "dependency %.4000s", name);
                        if (!prc_md_not_extracted(st->md, what, "listed in DEPENDENCIES without a spec in any "
                                                  "source (another platform's gem?)",
                                                  (uint32_t)json_integer_value(PRC_JGET(o, "line")), st->err))
                                return false;
                }
        }
        return lock_edges(st);
}

bool prc_xg_lock_match(const char *path, const char *base)
{
        (void)path;
        return strcmp(base, "Gemfile.lock") == 0 || strcmp(base, "gems.locked") == 0;
}

json_t *prc_xg_lock(const prc_xin *in, prc_err *err)
{
        lock st = { .in = in, .err = err };
        size_t off = 0, n;
        const char *s;
        uint32_t line = 0;
        json_t *d;
        bool any = false;

        if (!prc_mx_check_text(in, err))
                return NULL;
        st.scratch = json_array();
        st.direct = json_object();
        st.checks = json_object();
        st.keys = json_array();
        st.md = prc_md_new(in, FMT_LOCK, "gem", "lockfile", err);
        if (st.md == NULL || st.scratch == NULL || st.direct == NULL || st.checks == NULL || st.keys == NULL)
                goto oom;
        d = prc_md_details(st.md);
        if (json_object_set_new(d, "platforms", json_array()) != 0 ||
            json_object_set_new(d, "requires", json_object()) != 0 ||
            json_object_set_new(d, "bundled_with", json_null()) != 0 ||
            json_object_set_new(d, "ruby_version", json_null()) != 0 ||
            json_object_set_new(d, "source_pinned", json_array()) != 0)
                goto oom;
        while (prc_mx_next_line(in, &off, &s, &n)) {
                size_t ind = 0;

                line++;
                if (n == 0) {
                        st.sect = S_NONE;
                        continue;
                }
                while (ind < n && s[ind] == ' ')
                        ind++;
                if (ind == n) {
                        st.sect = S_NONE;
                        continue;
                }
                if (ind == 0) {
                        any = true;
                        if (!header(&st, s, n, line))
                                goto fail;
                } else if (!body(&st, s + ind, n - ind, ind, line)) {
                        goto fail;
                }
                if (prc_err_is_set(err))
                        goto fail;
        }
        if (!any) {
                (void)shape(err, 1, "no Gemfile.lock section (an empty or blank file)");
                goto fail;
        }
        if (!finish(&st))
                goto fail;
        json_decref(st.scratch);
        json_decref(st.direct);
        json_decref(st.checks);
        json_decref(st.keys);
        return st.md;
oom:
        prc_err_oom(err, "Gemfile.lock");
fail:
        if (err->line == 0)
                prc_err_set_line(err, line, 0);
        json_decref(st.md);
        json_decref(st.scratch);
        json_decref(st.direct);
        json_decref(st.checks);
        json_decref(st.keys);
        return NULL;
}

/* ---- Gemfile (static calls only) ---------------------------------------- */

#define ARGS_MAX   32           /* arguments of one call */
#define ITEMS_MAX  32           /* items of one literal array */
#define BLOCKS_MAX 64           /* nested do ... end */
#define JOIN_MAX   64           /* lines one statement may span (trailing comma) */

enum vkind { V_STR, V_SYM, V_TRUE, V_FALSE, V_NIL, V_NUM, V_ARR };

typedef struct val {
        enum vkind  k;
        const char *s;                  /* V_STR, V_SYM, V_NUM (scratch) */
        size_t      n;                  /* V_ARR: items */
        const char *items[ITEMS_MAX];   /* V_ARR: strings or symbols */
} val;

typedef struct arg {
        const char *key;                /* NULL: positional */
        val         v;
} arg;

typedef struct call {
        const char *name;
        size_t      nargs;
        arg         args[ARGS_MAX];
        bool        block;              /* ends with do (|params| are not static) */
} call;

enum bkind { B_GROUP, B_PLATFORM, B_SOURCE, B_GIT, B_PATH, B_OTHER };

typedef struct blk {
        enum bkind  k;
        const char *groups;             /* B_GROUP: "a,b" */
        bool        optional;
        const char *url, *ref;          /* B_SOURCE, B_GIT, B_PATH */
} blk;

typedef struct gf {
        const prc_xin *in;
        json_t        *md, *scratch;
        prc_err       *err;
        blk            stack[BLOCKS_MAX];
        size_t         depth;
        const char    *global_source;   /* the last top-level source, as written */
} gf;

typedef struct cur {
        const char *p, *e;
} cur;

static void skip_ws(cur *c)
{
        while (c->p < c->e && (*c->p == ' ' || *c->p == '\t'))
                c->p++;
}

static bool ident_start(char ch)
{
        return ch == '_' || isalpha((unsigned char)ch);
}

static bool ident_char(char ch)
{
        return ch == '_' || isalnum((unsigned char)ch);
}

/* A Ruby string literal without interpolation, unescaped into scratch; false when not static. */
static bool str_lit(gf *st, cur *c, const char **out)
{
        char q = *c->p, *buf;
        size_t n = 0;
        const char *p = c->p + 1;

        buf = malloc((size_t)(c->e - c->p) + 1);
        if (buf == NULL)
                return prc_err_oom(st->err, "Gemfile");
        for (; p < c->e && *p != q; p++) {
                if (*p == '\\' && p + 1 < c->e) {
                        p++;
                        if (q == '\'' && *p != '\'' && *p != '\\')
                                buf[n++] = '\\';
                        else if (q == '"' && strchr("\"\\#'", *p) == NULL)
                                goto no;        /* \n, \u...: rare in a Gemfile, not worth decoding */
                } else if (q == '"' && *p == '#' && p + 1 < c->e && strchr("{$@", p[1]) != NULL) {
                        goto no;                /* interpolation */
                }
                buf[n++] = *p;
        }
        if (p >= c->e)
                goto no;
        c->p = p + 1;
        *out = prc_mx_keep(st->scratch, buf, n, st->err);
        free(buf);
        return *out != NULL;
no:
        free(buf);
        *out = NULL;
        return false;
}

static bool word(gf *st, cur *c, const char **out)
{
        const char *s = c->p;

        while (c->p < c->e && (ident_char(*c->p) || *c->p == '?' || *c->p == '!' || *c->p == '-' ||
                               *c->p == '.'))
                c->p++;
        *out = prc_mx_keep(st->scratch, s, (size_t)(c->p - s), st->err);
        return *out != NULL && c->p > s;
}

static bool lit(gf *st, cur *c, val *v, bool nested)
{
        const char *w;

        skip_ws(c);
        if (c->p >= c->e)
                return false;
        v->n = 0;
        if (*c->p == '"' || *c->p == '\'') {
                v->k = V_STR;
                return str_lit(st, c, &v->s);
        }
        if (*c->p == ':' && c->p + 1 < c->e && (ident_start(c->p[1]) || c->p[1] == '"')) {
                c->p++;
                v->k = V_SYM;
                return *c->p == '"' ? str_lit(st, c, &v->s) : word(st, c, &v->s);
        }
        if (*c->p == '[' && !nested) {
                c->p++;
                v->k = V_ARR;
                for (;;) {
                        val it;

                        skip_ws(c);
                        if (c->p < c->e && *c->p == ']') {
                                c->p++;
                                return true;
                        }
                        if (v->n >= ITEMS_MAX || !lit(st, c, &it, true) || (it.k != V_STR && it.k != V_SYM))
                                return false;
                        v->items[v->n++] = it.s;
                        skip_ws(c);
                        if (c->p < c->e && *c->p == ',')
                                c->p++;
                        else if (c->p >= c->e || *c->p != ']')
                                return false;
                }
        }
        if (*c->p == '%' && c->p + 2 < c->e && (c->p[1] == 'w' || c->p[1] == 'i') && !nested &&
            strchr("[({<", c->p[2]) != NULL) {
                char close = c->p[2] == '[' ? ']' : c->p[2] == '(' ? ')' : c->p[2] == '{' ? '}' : '>';

                c->p += 3;
                v->k = V_ARR;
                for (;;) {
                        const char *s;

                        skip_ws(c);
                        if (c->p >= c->e)
                                return false;
                        if (*c->p == close) {
                                c->p++;
                                return true;
                        }
                        s = c->p;
                        while (c->p < c->e && *c->p != close && *c->p != ' ' && *c->p != '\t')
                                c->p++;
                        if (v->n >= ITEMS_MAX || (v->items[v->n++] = prc_mx_keep(st->scratch, s, (size_t)(c->p - s),
                                                                                  st->err)) == NULL)
                                return false;
                }
        }
        if (isdigit((unsigned char)*c->p)) {
                v->k = V_NUM;
                return word(st, c, &v->s);
        }
        if (ident_start(*c->p)) {
                cur save = *c;

                if (!word(st, c, &w))
                        return false;
                if (c->p < c->e && (ident_char(*c->p) || *c->p == '(' || *c->p == '.' || *c->p == ':')) {
                        *c = save;
                        return false;
                }
                if (strcmp(w, "true") == 0)
                        v->k = V_TRUE;
                else if (strcmp(w, "false") == 0)
                        v->k = V_FALSE;
                else if (strcmp(w, "nil") == 0)
                        v->k = V_NIL;
                else
                        return false;   /* a variable or a method call */
                return true;
        }
        return false;
}

/* One argument: `key: lit`, `"key": lit`, `:key => lit`, `"key" => lit`, or a positional literal. */
static bool one_arg(gf *st, cur *c, arg *a)
{
        const char *s;
        val k;

        skip_ws(c);
        a->key = NULL;
        s = c->p;
        if (c->p < c->e && ident_start(*c->p)) {
                while (c->p < c->e && ident_char(*c->p))
                        c->p++;
                if (c->p + 1 < c->e && *c->p == ':' && c->p[1] != ':') {
                        a->key = prc_mx_keep(st->scratch, s, (size_t)(c->p - s), st->err);
                        c->p++;
                        return a->key != NULL && lit(st, c, &a->v, false);
                }
                c->p = s;
        }
        if (!lit(st, c, &k, false))
                return false;
        if (k.k == V_STR && c->p < c->e && *c->p == ':' && (c->p + 1 >= c->e || c->p[1] != ':')) {
                c->p++;
                a->key = k.s;
                return lit(st, c, &a->v, false);
        }
        skip_ws(c);
        if (c->e - c->p >= 2 && c->p[0] == '=' && c->p[1] == '>') {
                if (k.k != V_STR && k.k != V_SYM)
                        return false;
                c->p += 2;
                a->key = k.s;
                return lit(st, c, &a->v, false);
        }
        a->v = k;
        return true;
}

/* Parse `name arg, arg ... [do]` with literal arguments only; false when the line is not such a call. */
static bool parse_call(gf *st, const char *s, size_t n, call *out)
{
        cur c = { s, s + n };
        const char *nm;

        out->nargs = 0;
        out->block = false;
        skip_ws(&c);
        if (c.p >= c.e || !ident_start(*c.p))
                return false;
        nm = c.p;
        while (c.p < c.e && ident_char(*c.p))
                c.p++;
        out->name = prc_mx_keep(st->scratch, nm, (size_t)(c.p - nm), st->err);
        if (out->name == NULL || (c.p < c.e && *c.p != ' ' && *c.p != '\t' && *c.p != '#'))
                return false;
        for (;;) {
                skip_ws(&c);
                if (c.p >= c.e || *c.p == '#')
                        return true;
                if (c.e - c.p >= 2 && memcmp(c.p, "do", 2) == 0 &&
                    (c.e - c.p == 2 || c.p[2] == ' ' || c.p[2] == '\t' || c.p[2] == '#')) {
                        c.p += 2;
                        skip_ws(&c);
                        out->block = true;
                        return c.p >= c.e || *c.p == '#';
                }
                if (out->nargs > 0) {
                        if (*c.p != ',')
                                return false;
                        c.p++;
                }
                if (out->nargs >= ARGS_MAX || !one_arg(st, &c, &out->args[out->nargs]))
                        return false;
                out->nargs++;
        }
}

/* Where the code of a line ends (before a comment), minding string literals. */
static size_t code_len(const char *s, size_t n)
{
        char q = 0;

        for (size_t i = 0; i < n; i++) {
                if (q != 0) {
                        if (s[i] == '\\')
                                i++;
                        else if (s[i] == q)
                                q = 0;
                } else if (s[i] == '"' || s[i] == '\'') {
                        q = s[i];
                } else if (s[i] == '#') {
                        n = i;
                        break;
                }
        }
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
                n--;
        return n;
}

static bool note(gf *st, const char *s, size_t n, const char *reason, uint32_t line)
{
        const char *what = prc_mx_keepf(st->scratch, st->err, "%.*s", (int)(n > 200 ? 200 : n), s);

        return what != NULL && prc_md_not_extracted(st->md, what, reason, line, st->err);
}

static const char *opt_str(const call *c, const char *key)
{
        for (size_t i = 0; i < c->nargs; i++)
                if (c->args[i].key != NULL && strcmp(c->args[i].key, key) == 0 &&
                    (c->args[i].v.k == V_STR || c->args[i].v.k == V_SYM))
                        return c->args[i].v.s;
        return NULL;
}

static const val *opt(const call *c, const char *key)
{
        for (size_t i = 0; i < c->nargs; i++)
                if (c->args[i].key != NULL && strcmp(c->args[i].key, key) == 0)
                        return &c->args[i].v;
        return NULL;
}

/* Append the names of v (a string, symbol or array of them) to b, comma-separated. */
static const char *join_groups(gf *st, const char *into, const val *v)
{
        const char *out = into;

        if (v == NULL)
                return out;
        if (v->k == V_STR || v->k == V_SYM)
                return out == NULL ? v->s : prc_mx_keepf(st->scratch, st->err, "%s,%s", out, v->s);
        for (size_t i = 0; v->k == V_ARR && i < v->n; i++) {
                out = out == NULL ? v->items[i] : prc_mx_keepf(st->scratch, st->err, "%s,%s", out, v->items[i]);
                if (out == NULL)
                        return NULL;
        }
        return out;
}

static bool only(const char *groups, const char *const *set, size_t n)
{
        for (const char *g = groups; *g != '\0';) {
                size_t len = strcspn(g, ","), i;

                for (i = 0; i < n; i++)
                        if (strlen(set[i]) == len && memcmp(g, set[i], len) == 0)
                                break;
                if (i == n)
                        return false;
                g += len + (g[len] == ',');
        }
        return true;
}

static const char *gem_scope(const char *groups, bool optional)
{
        static const char *const test[] = { "test" };
        static const char *const dev[] = { "development", "dev", "test" };

        if (groups == NULL)
                return optional ? "optional" : "runtime";
        if (only(groups, test, 1))
                return "test";
        if (only(groups, dev, 3))
                return "dev";
        return optional ? "optional" : "runtime";
}

/* A requirement that pins one version: "1.2.3" or "= 1.2.3". */
static const char *pinned(const char *req)
{
        if (req == NULL || strchr(req, ',') != NULL)
                return NULL;
        if (req[0] == '=' && req[1] == ' ')
                req += 2;
        while (*req == ' ')
                req++;
        return isdigit((unsigned char)*req) ? req : NULL;
}

static bool do_gem(gf *st, const call *c, uint32_t line)
{
        const char *name, *req = NULL, *groups = NULL, *res, *gh, *url = NULL, *ref = NULL, *path, *src;
        const char *stype = "registry";
        bool optional = false;
        json_t *d;

        if (c->nargs == 0 || c->args[0].key != NULL || c->args[0].v.k != V_STR || *c->args[0].v.s == '\0')
                return false;
        name = c->args[0].v.s;
        for (size_t i = 1; i < c->nargs; i++) {
                if (c->args[i].key != NULL)
                        continue;
                if (c->args[i].v.k != V_STR)
                        return false;
                req = req == NULL ? c->args[i].v.s : prc_mx_keepf(st->scratch, st->err, "%s, %s", req,
                                                                   c->args[i].v.s);
                if (req == NULL)
                        return false;
        }
        /* Enclosing blocks, innermost last. */
        src = st->global_source != NULL && !default_remote(st->global_source) ? st->global_source : NULL;
        for (size_t i = 0; i < st->depth; i++) {
                const blk *b = &st->stack[i];

                if (b->k == B_GROUP) {
                        groups = groups == NULL ? b->groups : prc_mx_keepf(st->scratch, st->err, "%s,%s", groups,
                                                                          b->groups);
                        optional |= b->optional;
                } else if (b->k == B_SOURCE) {
                        src = b->url;
                        stype = "registry";
                } else if (b->k == B_GIT || b->k == B_PATH) {
                        stype = b->k == B_GIT ? "git" : "path";
                        url = b->url;
                        ref = b->ref;
                }
        }
        groups = join_groups(st, groups, opt(c, "group"));
        groups = join_groups(st, groups, opt(c, "groups"));
        if (prc_err_is_set(st->err))
                return false;
        if ((gh = opt_str(c, "github")) != NULL) {
                stype = "git";
                url = strstr(gh, "://") != NULL ? gh :
                      prc_mx_keepf(st->scratch, st->err, "https://github.com/%s%s.git", gh,
                                   strchr(gh, '/') == NULL ? (const char *)prc_mx_keepf(st->scratch, st->err, "/%s",
                                                                                       gh) : "");
        } else if (opt_str(c, "git") != NULL) {
                stype = "git";
                url = opt_str(c, "git");
        } else if ((path = opt_str(c, "path")) != NULL) {
                stype = "path";
                url = path;
        } else if (opt_str(c, "source") != NULL) {
                src = opt_str(c, "source");
                stype = "registry";
        }
        if (opt_str(c, "tag") != NULL || opt_str(c, "branch") != NULL || opt_str(c, "ref") != NULL)
                ref = opt_str(c, "tag") ? opt_str(c, "tag") : opt_str(c, "branch") ? opt_str(c, "branch") :
                      opt_str(c, "ref");
        res = pinned(req);
        if (!url_cred(st->md, opt_str(c, "git"), line, st->err) || !url_cred(st->md, opt_str(c, "source"), line,
                                                                            st->err))
                return false;
        d = prc_md_add_dep(st->md, name, gem_scope(groups, optional), true, line, st->err);
        if (d == NULL || !prc_md_set_str(d, "requirement", req, st->err) ||
            !prc_md_set_str(d, "resolved", res, st->err) || !prc_md_set_str(d, "group", groups, st->err) ||
            !set_purl(d, name, res, NULL, st->err))
                return false;
        if (strcmp(stype, "registry") == 0)
                return src == NULL || prc_md_set_source(d, "registry", src, NULL, NULL, st->err);
        return prc_md_set_source(d, stype, url, strcmp(stype, "git") == 0 ? ref : NULL, NULL, st->err);
}

static bool push(gf *st, enum bkind k, const char *groups, bool optional, const char *url, const char *ref)
{
        if (st->depth >= BLOCKS_MAX)
                return prc_err_set(st->err, PRC_E_EXTRACT_LIMIT, "blocks nested deeper than %u", BLOCKS_MAX);
        st->stack[st->depth++] = (blk){ k, groups, optional, url, ref };
        return true;
}

static bool keyword_opens_block(const char *s, size_t n)
{
        static const char *const kw[] = { "if", "unless", "case", "while", "until", "begin", "def", "class",
                                          "module", "for" };

        for (size_t i = 0; i < PRC_ARRAY_LEN(kw); i++) {
                size_t k = strlen(kw[i]);

                if (n >= k && memcmp(s, kw[i], k) == 0 && (n == k || s[k] == ' ' || s[k] == '(' || s[k] == '\t'))
                        return true;
        }
        return false;
}

static bool ends_with_do(const char *s, size_t n)
{
        /* "... do" or "... do |x|" */
        if (n >= 1 && s[n - 1] == '|') {
                const char *bar = memchr(s, '|', n - 1);

                if (bar == NULL)
                        return false;
                n = (size_t)(bar - s);
                while (n > 0 && s[n - 1] == ' ')
                        n--;
        }
        return n >= 3 && memcmp(s + n - 3, " do", 3) == 0;
}

static bool statement(gf *st, const char *s, size_t n, uint32_t line)
{
        call c;
        bool stat = parse_call(st, s, n, &c);

        if (prc_err_is_set(st->err))
                return false;
        if (n == 3 && memcmp(s, "end", 3) == 0) {
                if (st->depth == 0)
                        return note(st, s, n, "an 'end' that closes no block prc saw open", line);
                st->depth--;
                return true;
        }
        if (stat && strcmp(c.name, "gem") == 0 && !c.block) {
                if (do_gem(st, &c, line))
                        return true;
                if (prc_err_is_set(st->err))
                        return false;
                return note(st, s, n, "a gem call whose arguments are not literals: not evaluated", line);
        }
        if (stat && c.block && (strcmp(c.name, "group") == 0 || strcmp(c.name, "platforms") == 0 ||
                                strcmp(c.name, "platform") == 0)) {
                const char *groups = NULL;
                const val *o = opt(&c, "optional");

                if (c.name[0] == 'p')
                        return push(st, B_PLATFORM, NULL, false, NULL, NULL);
                for (size_t i = 0; i < c.nargs; i++) {
                        if (c.args[i].key != NULL)
                                continue;
                        if (c.args[i].v.k != V_STR && c.args[i].v.k != V_SYM && c.args[i].v.k != V_ARR) {
                                groups = NULL;
                                break;
                        }
                        groups = join_groups(st, groups, &c.args[i].v);
                        if (prc_err_is_set(st->err))
                                return false;
                }
                if (groups == NULL)
                        return note(st, s, n, "a group whose names are not literal symbols or strings", line) &&
                               push(st, B_OTHER, NULL, false, NULL, NULL);
                return push(st, B_GROUP, groups, o != NULL && o->k == V_TRUE, NULL, NULL);
        }
        if (stat && (strcmp(c.name, "source") == 0 || strcmp(c.name, "git") == 0 || strcmp(c.name, "path") == 0 ||
                     strcmp(c.name, "github") == 0) && c.nargs >= 1 && c.args[0].key == NULL &&
            c.args[0].v.k == V_STR) {
                const char *u = c.args[0].v.s, *ref = opt_str(&c, "tag");

                if (ref == NULL)
                        ref = opt_str(&c, "branch") ? opt_str(&c, "branch") : opt_str(&c, "ref");
                if (c.name[0] == 's') {
                        if (!prc_md_add_registry(st->md, NULL, c.block ? "block" : NULL, u, line, st->err))
                                return false;
                        if (!c.block) {
                                st->global_source = u;
                                return true;
                        }
                        return push(st, B_SOURCE, NULL, false, u, NULL);
                }
                if (!c.block)
                        return note(st, s, n, "a source method without a block", line);
                if (!url_cred(st->md, u, line, st->err))
                        return false;
                if (strcmp(c.name, "github") == 0)
                        u = prc_mx_keepf(st->scratch, st->err, "https://github.com/%s.git", u);
                return u != NULL && push(st, c.name[0] == 'p' ? B_PATH : B_GIT, NULL, false, u, ref);
        }
        if (stat && !c.block && strcmp(c.name, "gemspec") == 0)
                return note(st, s, n, "the gems the .gemspec declares are not read here (the .gemspec is Ruby)",
                            line);
        if (stat && !c.block && strcmp(c.name, "ruby") == 0) {
                /* the first one wins: a second is another branch of a condition prc does not evaluate */
                if (!json_is_null(PRC_JGET(prc_md_details(st->md), "ruby")))
                        return note(st, s, n, "a second ruby version (another branch?): the first is kept", line);
                if (c.nargs >= 1 && c.args[0].key == NULL && c.args[0].v.k == V_STR)
                        return prc_md_set_str(prc_md_details(st->md), "ruby", c.args[0].v.s, st->err);
                return note(st, s, n, "a ruby version that is not a literal", line);
        }
        /* Anything else is Ruby prc does not run; keep do/if ... end balanced so later 'end's match. */
        if (keyword_opens_block(s, n))
                return note(st, s, n, "Ruby control flow is not evaluated: the static gem lines inside it are "
                            "listed as if every branch were taken", line) &&
                       push(st, B_OTHER, NULL, false, NULL, NULL);
        if (!note(st, s, n, n > 4 && memcmp(s, "gem", 3) == 0 && (s[3] == ' ' || s[3] == '(') ?
                  "a gem call whose arguments are not literals: not evaluated" :
                  "not a static gem, source, group or platforms call: not evaluated", line))
                return false;
        if (ends_with_do(s, n))
                return push(st, B_OTHER, NULL, false, NULL, NULL);
        return true;
}

bool prc_xg_gemfile_match(const char *path, const char *base)
{
        (void)path;
        return strcmp(base, "Gemfile") == 0 || strcmp(base, "gems.rb") == 0;
}

json_t *prc_xg_gemfile(const prc_xin *in, prc_err *err)
{
        gf st = { .in = in, .err = err };
        size_t off = 0, n;
        const char *s;
        uint32_t line = 0;
        bool in_doc = false;
        char *joined = NULL;

        if (!prc_mx_check_text(in, err))
                return NULL;
        st.scratch = json_array();
        st.md = prc_md_new(in, FMT_GEMFILE, "gem", "manifest", err);
        if (st.scratch == NULL || st.md == NULL) {
                prc_err_oom(err, "Gemfile");
                goto fail;
        }
        if (json_object_set_new(prc_md_details(st.md), "ruby", json_null()) != 0) {
                prc_err_oom(err, "Gemfile");
                goto fail;
        }
        while (prc_mx_next_line(in, &off, &s, &n)) {
                uint32_t first;
                size_t ind = 0, len, jn = 0, parts = 1;

                line++;
                while (ind < n && (s[ind] == ' ' || s[ind] == '\t'))
                        ind++;
                /* =begin ... =end is a comment */
                if (n >= 6 && memcmp(s, "=begin", 6) == 0)
                        in_doc = true;
                if (in_doc) {
                        in_doc = !(n >= 4 && memcmp(s, "=end", 4) == 0);
                        continue;
                }
                if (n >= 7 && memcmp(s, "__END__", 7) == 0)
                        break;
                len = code_len(s + ind, n - ind);
                if (len == 0)
                        continue;
                first = line;
                /* A call continued over lines by a trailing comma or backslash is one statement. */
                if (s[ind + len - 1] == ',' || s[ind + len - 1] == '\\') {
                        size_t cap = PRC_MD_STR_MAX * 4;

                        joined = malloc(cap);
                        if (joined == NULL) {
                                prc_err_oom(err, "Gemfile");
                                goto fail;
                        }
                        if (len >= cap)
                                len = cap - 1;
                        memcpy(joined, s + ind, len);
                        jn = len;
                        while ((joined[jn - 1] == ',' || joined[jn - 1] == '\\') && parts < JOIN_MAX &&
                               prc_mx_next_line(in, &off, &s, &n)) {
                                size_t i2 = 0, l2;

                                line++;
                                parts++;
                                if (joined[jn - 1] == '\\')
                                        jn--;
                                while (i2 < n && (s[i2] == ' ' || s[i2] == '\t'))
                                        i2++;
                                l2 = code_len(s + i2, n - i2);
                                if (jn + 1 + l2 >= cap) {
                                        prc_err_set(err, PRC_E_EXTRACT_LIMIT, "a statement over %zu bytes", cap);
                                        prc_err_set_line(err, first, 0);
                                        goto fail;
                                }
                                joined[jn++] = ' ';
                                memcpy(joined + jn, s + i2, l2);
                                jn += l2;
                                if (l2 == 0)
                                        break;
                        }
                        if (!statement(&st, joined, jn, first))
                                goto fail;
                        free(joined);
                        joined = NULL;
                        continue;
                }
                if (!statement(&st, s + ind, len, first))
                        goto fail;
        }
        if (st.depth > 0 && !prc_md_not_extracted(st.md, "end of file", "a block is still open at the end of the "
                                                  "file", line, err))
                goto fail;
        json_decref(st.scratch);
        return st.md;
fail:
        if (err->line == 0)
                prc_err_set_line(err, line, 0);
        free(joined);
        json_decref(st.md);
        json_decref(st.scratch);
        return NULL;
}
