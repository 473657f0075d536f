/*
 * mdoc_details.c - strict shape check of a ManifestDoc's "details"
 * (mdoc_details.h).  One table of shapes per format, written from the
 * extractors and docs/extraction/<family>.md; a walker that applies them;
 * and a few checks no table says (indexes that must point somewhere).
 * Trust: engine-side, on a document from a worker that may be compromised.
 */
#include "content/extract/mdoc_details.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json_strict.h"
#include "base/strv.h"
#include "content/sh_check.h"
#include "content/extract/extract.h"

/* ---- the shape language --------------------------------------------------- */

enum sk {
        K_ANY,          /* any JSON value: a value as the file wrote it (bounded by the client's decoding limits) */
        K_STR,          /* a string of at most PRC_MD_STR_MAX bytes, without NUL; en: its values */
        K_TEXT,         /* a string of any length (a script body, a value as written), without NUL */
        K_INT,          /* an integer from 0 */
        K_LINE,         /* an integer from 1 */
        K_BOOL,
        K_DEP,          /* the index of one of the document's dependencies */
        K_OBJ,          /* an object with exactly the fields f (and, by disc, one variant's) */
        K_ARR,          /* an array of item */
        K_MAP,          /* an object of any keys to item */
        K_ONEOF,        /* one of alt */
        K_TOKENS,       /* a shell token document (prc_sh_check, without its "format") */
};

enum {
        F_NULL = 1,     /* may be null */
        F_OPT = 2,      /* may be absent */
        F_NE = 4,       /* a non-empty string */
};

typedef struct shp shp;

typedef struct fld {
        const char *key;
        const shp  *s;
        unsigned    fl;
} fld;

typedef struct var {
        const char *const *values;      /* the discriminator's values that take these fields */
        const fld         *f;
} var;

struct shp {
        enum sk            k;
        unsigned           ifl;         /* K_ARR, K_MAP: each item's F_* */
        const fld         *f;           /* K_OBJ */
        const shp         *item;        /* K_ARR, K_MAP */
        const char *const *en;          /* K_STR */
        const shp *const  *alt;         /* K_ONEOF, NULL-terminated */
        const char        *disc;        /* K_OBJ: the key whose value picks a variant of v */
        const var         *v;           /* terminated by values NULL */
        const char        *name;        /* the schema's $defs entry ("details-NAME"), or NULL: inline */
};

/*
 * Where the walk is: a chain of segments on the walk's own stack (a key,
 * or an index where key is NULL), made into a JSON pointer only when a
 * check fails.  Pushed for every member as the walk went, the pointer was
 * a third of this check's instructions in `prc sbom` on the corpus.
 */
typedef struct seg {
        const struct seg *up;
        const char       *key;
        size_t            idx;
} seg;

typedef struct dcx {
        prc_err   *err;
        char       ptr[256];    /* the pointer where the walk started ("/details"); the failure's, once made */
        const seg *top;         /* the segments below ptr, innermost first; NULL once made */
        size_t     ndeps;
} dcx;

static void seg_put(const seg *s, char *out, size_t cap)
{
        if (s == NULL)
                return;
        seg_put(s->up, out, cap);
        if (s->key != NULL)
                prc_jptr_push(out, cap, s->key);
        else
                prc_jptr_index(out, cap, s->idx);
}

/* c->ptr is where the walk is: the segments appended as the walk would have pushed them. */
static void ptr_make(dcx *c)
{
        seg_put(c->top, c->ptr, sizeof(c->ptr));
        c->top = NULL;
}

static bool bad(dcx *c, const char *fmt, ...) PRC_PRINTF(2, 3);
static bool bad(dcx *c, const char *fmt, ...)
{
        char msg[200];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        ptr_make(c);
        prc_err_set(c->err, PRC_E_MANIFEST_DOC_DETAILS, "ManifestDoc details from the worker: %s", msg);
        prc_err_set_ptr(c->err, c->ptr);
        return false;
}


static const fld *find_fld(const fld *f, const char *key)
{
        for (; f != NULL && f->key != NULL; f++)
                if (strcmp(f->key, key) == 0)
                        return f;
        return NULL;
}

static bool check(dcx *c, const json_t *v, const shp *s, unsigned fl);

static bool check_str(dcx *c, const json_t *v, const shp *s, unsigned fl)
{
        size_t n;

        if (!json_is_string(v))
                return bad(c, "expected a string%s", fl & F_NULL ? " or null" : "");
        n = json_string_length(v);
        if (s->k == K_STR && n > PRC_MD_STR_MAX)
                return bad(c, "a string of %zu bytes (the limit is %u)", n, PRC_MD_STR_MAX);
        if ((fl & F_NE) && n == 0)
                return bad(c, "an empty string");
        if (memchr(json_string_value(v), 0, n) != NULL)
                return bad(c, "a string with NUL");
        if (s->en != NULL && !prc_strv_has(s->en, json_string_value(v)))
                return bad(c, "\"%.64s\" is not one of the values this field takes", json_string_value(v));
        return true;
}

static bool check_int(dcx *c, const json_t *v, enum sk k)
{
        json_int_t x = json_integer_value(v);

        if (!json_is_integer(v))
                return bad(c, "expected an integer");
        if (k == K_LINE && (x < 1 || x > UINT32_MAX))
                return bad(c, "a line is an integer from 1");
        if (k == K_INT && (x < 0 || x > UINT32_MAX))
                return bad(c, "expected an integer from 0");
        if (k == K_DEP && (x < 0 || (size_t)x >= c->ndeps))
                return bad(c, "%lld is not the index of a dependency of this document (%zu)", (long long)x, c->ndeps);
        return true;
}

/* The variant of an object whose discriminator is disc: NULL (with the error) when it names none. */
static const var *variant(dcx *c, const json_t *o, const shp *s)
{
        const char *d = json_string_value(json_object_get(o, s->disc));
        const var *v;

        for (v = s->v; d != NULL && v->values != NULL; v++)
                if (prc_strv_has(v->values, d))
                        return v;
        bad(c, "\"%s\" is missing or names no known kind", s->disc);
        return NULL;
}

enum { OBJ_FIELDS_MAX = 48 };  /* fields (with a variant's) looked up once; more: looked up as checked */

static bool check_obj(dcx *c, const json_t *o, const shp *s)
{
        const fld *extra = NULL, *f;
        const json_t *m, *got[OBJ_FIELDS_MAX];
        size_t nf = 0, found = 0;
        seg here = { .up = c->top };

        if (!json_is_object(o))
                return bad(c, "expected an object");
        if (s->disc != NULL) {
                const var *v = variant(c, o, s);
                if (v == NULL)
                        return false;
                extra = v->f;
        }
        /*
         * Each field looked up once: when as many are there as the object
         * has members, no member is unknown (a shape's keys, with any
         * variant's, are distinct: a test walks every shape), so the
         * members need not be matched against the fields one by one.
         */
        for (unsigned pass = 0; pass < 2; pass++)
                for (f = pass == 0 ? s->f : extra; f != NULL && f->key != NULL && nf < OBJ_FIELDS_MAX; f++, nf++) {
                        got[nf] = json_object_get(o, f->key);
                        found += got[nf] != NULL;
                }
        if (found != json_object_size(o) || nf == OBJ_FIELDS_MAX) {
                /* The iterator itself, not json_object_foreach: that macro turns the key back into an iterator twice. */
                for (void *it = json_object_iter((json_t *)o); it != NULL; it = json_object_iter_next((json_t *)o, it)) {
                        const char *k = json_object_iter_key(it);
                        if (find_fld(s->f, k) == NULL && find_fld(extra, k) == NULL)
                                return bad(c, "unknown key \"%.64s\"", k);
                }
        }
        c->top = &here;
        nf = 0;
        for (unsigned pass = 0; pass < 2; pass++) {
                for (f = pass == 0 ? s->f : extra; f != NULL && f->key != NULL; f++, nf++) {
                        m = nf < OBJ_FIELDS_MAX ? got[nf] : json_object_get(o, f->key);
                        here.key = f->key;
                        if (m == NULL && !(f->fl & F_OPT))
                                return bad(c, "missing");
                        if (m != NULL && !check(c, m, f->s, f->fl))
                                return false;
                }
        }
        c->top = here.up;
        return true;
}

static bool check_coll(dcx *c, const json_t *v, const shp *s)
{
        seg here = { .up = c->top };
        json_t *m;
        size_t i;

        if (s->k == K_ARR ? !json_is_array(v) : !json_is_object(v))
                return bad(c, s->k == K_ARR ? "expected an array" : "expected an object");
        if ((s->k == K_ARR ? json_array_size(v) : json_object_size(v)) > PRC_MD_DEPS_MAX)
                return bad(c, "more than %u entries", PRC_MD_DEPS_MAX);
        if (s->k == K_ARR) {
                c->top = &here;
                json_array_foreach(v, i, m) {
                        here.idx = i;
                        if (!check(c, m, s->item, s->ifl))
                                return false;
                }
                c->top = here.up;
                return true;
        }
        c->top = &here;
        for (void *it = json_object_iter((json_t *)v); it != NULL; it = json_object_iter_next((json_t *)v, it)) {
                /* keys are names as the file writes them (a gem "name (version)"): the decoder bounds them */
                here.key = json_object_iter_key(it);
                if (!check(c, json_object_iter_value(it), s->item, s->ifl))
                        return false;
        }
        c->top = here.up;
        return true;
}

/* One alternative after the other, on a scratch error: the first that fits wins. */
static bool check_oneof(dcx *c, const json_t *v, const shp *s)
{
        const shp *const *a;

        for (a = s->alt; *a != NULL; a++) {
                prc_err e;
                dcx t = { .err = &e, .top = c->top, .ndeps = c->ndeps };

                prc_err_init(&e);
                snprintf(t.ptr, sizeof(t.ptr), "%s", c->ptr);
                if (check(&t, v, *a, 0))
                        return true;
                if (e.cls == PRC_E_OUT_OF_MEMORY) {
                        *c->err = e;
                        return false;
                }
        }
        return bad(c, "not one of the shapes this field takes");
}

/*
 * A token document as the extractor writes it: the tokenizer's document
 * without "format" (a document that has one is refused: the extractor
 * deletes it), checked as prc_sh_check checks the tokenizer's.
 */
static bool check_tokens(dcx *c, const json_t *v)
{
        prc_err e;

        if (!json_is_object(v))
                return bad(c, "a token document is an object");
        if (PRC_JGET(v, "format") != NULL)
                return bad(c, "a token document has no \"format\" here");
        prc_err_init(&e);
        if (prc_sh_check_tokens(v, &e))
                return true;
        if (e.cls == PRC_E_OUT_OF_MEMORY) {
                *c->err = e;
                return false;
        }
        /* e.ptr is a pointer into the document ("/commands/0"): it continues ours */
        ptr_make(c);
        snprintf(c->ptr + strlen(c->ptr), sizeof(c->ptr) - strlen(c->ptr), "%s", e.ptr);
        return bad(c, "a shell token document: %.150s", e.msg);
}

static bool check(dcx *c, const json_t *v, const shp *s, unsigned fl)
{
        if (json_is_null(v) && s->k != K_ANY)
                return (fl & F_NULL) ? true : bad(c, "null where a value is required");
        switch (s->k) {
        case K_ANY:
                return true;
        case K_STR:
        case K_TEXT:
                return check_str(c, v, s, fl);
        case K_INT:
        case K_LINE:
        case K_DEP:
                return check_int(c, v, s->k);
        case K_BOOL:
                return json_is_boolean(v) || bad(c, "expected true or false");
        case K_OBJ:
                return check_obj(c, v, s);
        case K_ARR:
        case K_MAP:
                return check_coll(c, v, s);
        case K_ONEOF:
                return check_oneof(c, v, s);
        case K_TOKENS:
                return check_tokens(c, v);
        }
        return bad(c, "no shape");
}

/* ---- shapes shared by several formats --------------------------------------------- */

#define OBJ(fields)     { .k = K_OBJ, .f = (fields) }
#define ARR(it, fl)     { .k = K_ARR, .item = (it), .ifl = (fl) }
#define MAP(it, fl)     { .k = K_MAP, .item = (it), .ifl = (fl) }
#define ENUM(vals)      { .k = K_STR, .en = (vals) }
#define END             { NULL, NULL, 0 }

static const shp any = { .k = K_ANY }, str = { .k = K_STR }, text = { .k = K_TEXT }, integer = { .k = K_INT },
                 line = { .k = K_LINE }, boolean = { .k = K_BOOL }, dep = { .k = K_DEP },
                 tokens = { .k = K_TOKENS, .name = "tokens" };
static const shp strs = ARR(&str, 0), strs_n = ARR(&str, F_NULL), texts = ARR(&text, 0), anys = ARR(&any, 0);
static const shp str_map = MAP(&str, 0), any_map = MAP(&any, 0), dep_map = MAP(&dep, 0);

/* {"dependency": INDEX, "line"}: npm install_scripts, in_bundle */
static const fld dep_line_f[] = { { "dependency", &dep, 0 }, { "line", &line, F_NULL }, END };
static const shp dep_line = OBJ(dep_line_f), dep_lines = ARR(&dep_line, 0);

/* {"name", "line"}: composer scripts and plugins, go.mod tool */
static const fld name_line_f[] = { { "name", &str, 0 }, { "line", &line, F_NULL }, END };
static const shp name_line = OBJ(name_line_f), name_lines = ARR(&name_line, 0);

/* An image reference (prc_x_image_ref). */
static const fld img_f[] = {
        { "raw", &str, 0 }, { "registry", &str, F_NULL }, { "repository", &str, F_NULL }, { "tag", &str, F_NULL },
        { "digest", &str, F_NULL }, { "valid", &boolean, 0 }, END
};
static const shp img = { .k = K_OBJ, .f = img_f, .name = "image" };

/* ---- GitHub Actions ---------------------------------------------------------------- */

/* W: a value as written with its line. */
static const fld w_f[] = { { "value", &any, 0 }, { "line", &line, F_NULL }, END };
static const shp w = { .k = K_OBJ, .f = w_f, .name = "as-written" };
/* NV: env, with, outputs, secrets entries (name null: a string in place of the mapping). */
static const fld nv_f[] = { { "name", &str, F_NULL }, { "value", &any, 0 }, { "line", &line, F_NULL }, END };
static const shp nv = { .k = K_OBJ, .f = nv_f, .name = "name-value" }, nvs = ARR(&nv, 0);

static const fld ctx_f[] = { { "path", &str, 0 }, { "flows", &boolean, 0 }, END };
static const shp ctx = OBJ(ctx_f), ctxs = ARR(&ctx, 0);
static const fld expr_f[] = {
        { "field", &str, 0 }, { "line", &line, F_NULL }, { "text", &str, 0 }, { "contexts", &ctxs, F_NULL },
        { "functions", &strs, F_NULL }, { "error", &str, F_NULL }, END
};
static const shp expr = { .k = K_OBJ, .f = expr_f, .name = "expression" }, exprs = ARR(&expr, 0);

static const char *const uses_kinds[] = { "action", "workflow", "docker", "local", NULL };
static const shp uses_kind = ENUM(uses_kinds);
static const fld uses_f[] = {
        { "raw", &str, 0 }, { "line", &line, F_NULL }, { "kind", &uses_kind, 0 }, { "owner", &str, F_NULL },
        { "repo", &str, F_NULL }, { "path", &str, F_NULL }, { "ref", &str, F_NULL }, { "ref_is_sha", &boolean, 0 },
        { "image", &img, F_NULL }, { "error", &str, F_NULL }, END
};
static const shp uses = { .k = K_OBJ, .f = uses_f, .name = "uses" };

static const fld run_f[] = { { "line", &line, F_NULL }, { "shell", &str, F_NULL }, { "tokens", &tokens, F_NULL }, END };
static const shp run = OBJ(run_f);

static const fld step_f[] = {
        { "index", &integer, 0 }, { "line", &line, F_NULL }, { "id", &str, F_NULL }, { "name", &str, F_NULL },
        { "if", &w, F_NULL }, { "uses", &uses, F_NULL }, { "with", &nvs, 0 }, { "env", &nvs, 0 },
        { "shell", &str, F_NULL }, { "working_directory", &str, F_NULL }, { "continue_on_error", &w, F_NULL },
        { "timeout_minutes", &w, F_NULL }, { "run", &run, F_NULL }, { "expressions", &exprs, 0 }, END
};
static const shp step = { .k = K_OBJ, .f = step_f, .name = "step" }, steps = ARR(&step, 0);

static const fld container_f[] = {
        { "image", &img, F_NULL }, { "raw", &str, F_NULL }, { "line", &line, F_NULL },
        { "credentials", &boolean, 0 }, END
};
static const fld service_f[] = {
        { "image", &img, F_NULL }, { "raw", &str, F_NULL }, { "line", &line, F_NULL },
        { "credentials", &boolean, 0 }, { "id", &str, 0 }, END
};
static const shp container = OBJ(container_f), service = OBJ(service_f), services = ARR(&service, 0);

static const char *const inherit_v[] = { "inherit", NULL };
static const shp inherit = ENUM(inherit_v);
static const shp *const secrets_alt[] = { &inherit, &nvs, NULL };
static const shp job_secrets = { .k = K_ONEOF, .alt = secrets_alt };

static const fld job_f[] = {
        { "id", &str, 0 }, { "line", &line, F_NULL }, { "name", &str, F_NULL }, { "runs_on", &w, F_NULL },
        { "needs", &strs_n, F_NULL }, { "if", &w, F_NULL }, { "environment", &w, F_NULL },
        { "permissions", &w, F_NULL }, { "concurrency", &w, F_NULL }, { "cache_mode", &w, F_NULL },
        { "strategy", &w, F_NULL }, { "defaults", &w, F_NULL }, { "timeout_minutes", &w, F_NULL },
        { "continue_on_error", &w, F_NULL }, { "env", &nvs, 0 }, { "outputs", &nvs, 0 }, { "with", &nvs, 0 },
        { "secrets", &job_secrets, F_NULL }, { "secrets_line", &line, F_NULL }, { "uses", &uses, F_NULL },
        { "container", &container, F_NULL }, { "services", &services, 0 }, { "steps", &steps, 0 },
        { "expressions", &exprs, 0 }, END
};
static const shp job = OBJ(job_f), jobs = ARR(&job, 0);

static const fld trigger_f[] = {
        { "event", &str, 0 }, { "line", &line, F_NULL }, { "config", &any, 0 },
        { "branches", &strs_n, F_NULL }, { "branches_ignore", &strs_n, F_NULL }, { "tags", &strs_n, F_NULL },
        { "tags_ignore", &strs_n, F_NULL }, { "paths", &strs_n, F_NULL }, { "paths_ignore", &strs_n, F_NULL },
        { "types", &strs_n, F_NULL }, { "workflows", &strs_n, F_NULL }, { "cron", &texts, F_NULL },
        { "inputs", &texts, F_NULL }, { "secrets", &texts, F_NULL }, END
};
static const shp trigger = OBJ(trigger_f), triggers = ARR(&trigger, 0);

static const fld workflow_f[] = {
        { "name", &str, F_NULL }, { "run_name", &w, F_NULL }, { "triggers", &triggers, 0 },
        { "permissions", &w, F_NULL }, { "concurrency", &w, F_NULL }, { "cache_mode", &w, F_NULL },
        { "defaults", &w, F_NULL }, { "env", &nvs, 0 }, { "jobs", &jobs, 0 }, { "expressions", &exprs, 0 }, END
};

static const fld input_f[] = {
        { "name", &text, 0 }, { "required", &any, 0 }, { "default", &any, 0 }, { "deprecated", &boolean, 0 },
        { "line", &line, F_NULL }, END
};
static const shp input = OBJ(input_f), inputs = ARR(&input, 0);
static const fld runs_f[] = {
        { "using", &str, 0 }, { "line", &line, F_NULL }, { "main", &str, F_NULL }, { "pre", &str, F_NULL },
        { "post", &str, F_NULL }, { "pre_if", &w, F_NULL }, { "post_if", &w, F_NULL }, { "image_raw", &str, F_NULL },
        { "entrypoint", &w, F_NULL }, { "args", &w, F_NULL }, { "env", &nvs, 0 }, { "image", &img, F_NULL },
        { "steps", &steps, 0 }, END
};
static const shp runs = OBJ(runs_f);
static const fld action_f[] = {
        { "name", &str, F_NULL }, { "description", &str, F_NULL }, { "inputs", &inputs, 0 },
        { "outputs", &nvs, 0 }, { "runs", &runs, 0 }, { "expressions", &exprs, 0 }, END
};

/* ---- Dockerfiles ---------------------------------------------------------------------- */

static const fld dargs_f[] = { { "name", &str, 0 }, { "default", &str, F_NULL }, { "line", &line, 0 }, END };
static const shp darg = { .k = K_OBJ, .f = dargs_f, .name = "docker-arg" }, dargs = ARR(&darg, 0);
static const fld directives_f[] = {
        { "syntax", &str, F_NULL }, { "escape", &str, 0 }, { "check", &str, F_NULL }, END
};
static const shp directives = OBJ(directives_f);
static const fld user_f[] = { { "value", &text, 0 }, { "line", &line, 0 }, END };
static const shp user = OBJ(user_f);
static const fld heredoc_f[] = {
        { "delimiter", &text, 0 }, { "body", &text, 0 }, { "line", &line, 0 },
        { "shebang", &text, F_NULL | F_OPT }, { "tokens", &tokens, F_NULL | F_OPT }, END
};
static const shp heredoc = OBJ(heredoc_f), heredocs = ARR(&heredoc, 0);

static const char *const forms[] = { "exec", "shell", NULL };
static const char *const source_kinds[] = { "url", "git", "heredoc", "local", NULL };
static const shp form = ENUM(forms), source_kind = ENUM(source_kinds);
static const fld source_f[] = { { "value", &text, 0 }, { "kind", &source_kind, 0 }, END };
static const shp source = OBJ(source_f), sources = ARR(&source, 0);

static const fld i_run[] = {
        { "flags", &str_map, 0 }, { "form", &form, 0 }, { "exec", &texts, F_NULL }, { "tokens", &tokens, F_NULL }, END
};
static const fld i_cmd[] = { { "form", &form, 0 }, { "exec", &texts, F_NULL }, { "tokens", &tokens, F_NULL }, END };
static const fld i_health[] = {
        { "flags", &str_map, 0 }, { "none", &boolean, 0 }, { "form", &form, F_OPT }, { "exec", &texts, F_NULL | F_OPT },
        { "tokens", &tokens, F_NULL | F_OPT }, END
};
static const fld i_shell[] = { { "exec", &texts, 0 }, END };
static const fld i_copy[] = {
        { "flags", &str_map, 0 }, { "sources", &sources, 0 }, { "dest", &text, 0 }, { "checksum", &str, F_NULL },
        { "from", &str, F_NULL }, { "from_stage", &integer, F_NULL }, { "from_image", &img, F_NULL }, END
};
static const fld i_user[] = { { "value", &user, 0 }, END };
static const fld i_args[] = { { "args", &str, 0 }, END };
static const fld i_none[] = { END };

static const char *const kw_arg[] = { "ARG", NULL }, *const kw_run[] = { "RUN", NULL },
                         *const kw_cmd[] = { "CMD", "ENTRYPOINT", NULL }, *const kw_health[] = { "HEALTHCHECK", NULL },
                         *const kw_shell[] = { "SHELL", NULL }, *const kw_copy[] = { "COPY", "ADD", NULL },
                         *const kw_user[] = { "USER", NULL },
                         *const kw_args[] = { "ENV", "LABEL", "EXPOSE", "WORKDIR", "VOLUME", "STOPSIGNAL", "ONBUILD",
                                              "MAINTAINER", NULL };
static const var instr_v[] = {
        { kw_arg, i_none }, { kw_run, i_run }, { kw_cmd, i_cmd }, { kw_health, i_health }, { kw_shell, i_shell },
        { kw_copy, i_copy }, { kw_user, i_user }, { kw_args, i_args }, { NULL, NULL }
};
static const fld instr_f[] = {
        { "instruction", &str, 0 }, { "line", &line, 0 }, { "heredocs", &heredocs, 0 }, END
};
static const shp instr = { .k = K_OBJ, .f = instr_f, .disc = "instruction", .v = instr_v };
static const shp instrs = ARR(&instr, 0);

static const fld stage_f[] = {
        { "index", &integer, 0 }, { "line", &line, 0 }, { "name", &str, F_NULL }, { "base_raw", &str, 0 },
        { "base", &str, 0 }, { "platform", &str, F_NULL }, { "flags", &str_map, 0 }, { "unresolved", &strs, 0 },
        { "scratch", &boolean, 0 }, { "from_stage", &integer, F_NULL }, { "user", &user, F_NULL },
        { "args", &dargs, 0 }, { "instructions", &instrs, 0 }, { "image", &img, F_NULL },
        { "shell", &texts, F_NULL }, END
};
static const shp stage = OBJ(stage_f), stages = ARR(&stage, 0);
static const fld dockerfile_f[] = {
        { "directives", &directives, 0 }, { "args", &dargs, 0 }, { "stages", &stages, 0 },
        { "final_stage", &integer, 0 }, END
};

/* ---- npm ------------------------------------------------------------------------------------ */

static const fld override_f[] = {
        { "selector", &str, 0 }, { "value", &str, 0 }, { "source", &str, 0 }, { "line", &line, F_NULL }, END
};
static const shp override = OBJ(override_f), overrides = ARR(&override, 0);
static const fld package_json_f[] = {
        { "scripts", &strs, F_OPT }, { "workspaces", &strs, F_OPT }, { "overrides", &overrides, F_OPT },
        { "optional_peers", &strs, F_OPT }, { "bundled", &strs, F_OPT }, { "package_manager", &str, F_NULL | F_OPT },
        { "private", &boolean, F_OPT }, END
};
static const fld npm_lock_f[] = {
        { "lockfile_version", &integer, 0 }, { "direct_known", &boolean, F_OPT },
        { "install_scripts", &dep_lines, F_OPT }, { "in_bundle", &dep_lines, F_OPT }, END
};
static const shp int_or_str_alt0 = { .k = K_INT };
static const shp *const int_or_str[] = { &int_or_str_alt0, &str, NULL };
static const shp lockfile_version = { .k = K_ONEOF, .alt = int_or_str };
static const fld yarn_lock_f[] = {
        { "lockfile_version", &lockfile_version, 0 }, { "direct_known", &boolean, F_OPT }, END
};
static const fld pnpm_lock_f[] = {
        { "lockfile_version", &str, 0 }, { "install_scripts", &dep_lines, F_OPT }, END
};
static const fld npmrc_f[] = { { "settings", &str_map, 0 }, { "other_keys", &strs, 0 }, END };

/* ---- Python ----------------------------------------------------------------------------------- */

static const fld py_req_f[] = {
        { "dependency", &dep, 0 }, { "editable", &boolean, 0 }, { "extras", &anys, F_NULL },
        { "marker", &str, F_NULL }, END
};
static const shp py_req = { .k = K_OBJ, .f = py_req_f, .name = "python-requirement" }, py_reqs = ARR(&py_req, 0);
static const char *const include_kinds[] = { "requirement", "constraint", NULL };
static const shp include_kind = ENUM(include_kinds);
static const fld include_f[] = { { "kind", &include_kind, 0 }, { "path", &str, F_NE }, { "line", &line, 0 }, END };
static const shp include = OBJ(include_f), includes = ARR(&include, 0);
static const fld option_f[] = { { "option", &str, 0 }, { "value", &str, F_NULL }, { "line", &line, 0 }, END };
static const shp option = OBJ(option_f), options = ARR(&option, 0);
static const fld hashes_f[] = { { "dependency", &dep, 0 }, { "values", &anys, 0 }, END };
static const shp hashes = OBJ(hashes_f), hashes_list = ARR(&hashes, 0);
static const char *const roles[] = { "requirements", "constraints", NULL };
static const shp role = ENUM(roles);
static const fld requirements_f[] = {
        { "role", &role, 0 }, { "requirements", &py_reqs, F_OPT }, { "includes", &includes, F_OPT },
        { "options", &options, F_OPT }, { "hashes", &hashes_list, F_OPT }, END
};
static const fld poetry_source_f[] = {
        { "name", &str, F_NULL }, { "priority", &str, F_NULL }, { "line", &line, F_NULL }, END
};
static const shp poetry_source = OBJ(poetry_source_f), poetry_sources = ARR(&poetry_source, 0);
static const fld pyproject_f[] = {
        { "requirements", &py_reqs, F_OPT }, { "build_backend", &str, F_OPT }, { "python", &str, F_OPT },
        { "poetry_sources", &poetry_sources, F_OPT }, { "poetry_extras", &any, F_OPT }, END
};
/* setup.cfg's PEP 508 lists carry extras and markers as the other formats do */
static const fld setup_cfg_f[] = { { "requirements", &py_reqs, F_OPT }, END };
static const fld pipfile_f[] = {
        { "requirements", &py_reqs, F_OPT }, { "requires", &any, F_OPT }, { "scripts", &any, F_OPT }, END
};
/* "to": the names as the lock writes them (pdm: whole PEP 508 strings), not bounded by the extractor */
static const fld edge_f[] = { { "from", &str, 0 }, { "version", &str, F_NULL }, { "to", &texts, 0 }, END };
static const shp edge = { .k = K_OBJ, .f = edge_f, .name = "python-edge" }, edges = ARR(&edge, 0);
static const fld poetry_lock_f[] = { { "lock_version", &any, 0 }, { "edges", &edges, F_OPT }, END };
static const fld uv_lock_f[] = {
        { "version", &any, 0 }, { "revision", &any, F_OPT }, { "edges", &edges, F_OPT }, END
};
static const fld pdm_lock_f[] = {
        { "lock_version", &any, 0 }, { "groups", &any, F_OPT }, { "edges", &edges, F_OPT }, END
};
static const fld pipfile_lock_f[] = { { "pipfile_spec", &any, 0 }, END };
static const fld pylock_f[] = { { "lock_version", &any, 0 }, { "created_by", &any, F_OPT }, END };
static const fld pip_setting_f[] = {
        { "section", &str, 0 }, { "key", &str, 0 }, { "value", &str, 0 }, { "line", &line, F_NULL }, END
};
static const shp pip_setting = OBJ(pip_setting_f), pip_settings = ARR(&pip_setting, 0);
static const fld pip_conf_f[] = { { "settings", &pip_settings, F_OPT }, END };
static const fld none_f[] = { END };

/* ---- Rust, Go, PHP ------------------------------------------------------------------------------- */

static const fld renamed_f[] = { { "key", &str, 0 }, { "package", &str, 0 }, { "line", &line, F_NULL }, END };
static const fld dep_reg_f[] = { { "name", &str, 0 }, { "registry", &str, 0 }, { "line", &line, F_NULL }, END };
static const shp renamed = OBJ(renamed_f), renamed_l = ARR(&renamed, 0), dep_reg = OBJ(dep_reg_f),
                 dep_regs = ARR(&dep_reg, 0);
static const fld workspace_f[] = {
        { "members", &strs, F_OPT }, { "exclude", &strs, F_OPT }, { "default-members", &strs, F_OPT }, END
};
static const shp workspace = OBJ(workspace_f);
static const fld cargo_toml_f[] = {
        { "renamed", &renamed_l, F_OPT }, { "dependency_registries", &dep_regs, F_OPT },
        { "version_from_workspace", &boolean, F_OPT }, { "workspace", &workspace, F_OPT }, END
};
static const fld replaced_f[] = { { "dependency", &dep, 0 }, { "by", &str, 0 }, END };
static const shp replaced = OBJ(replaced_f), replaced_l = ARR(&replaced, 0);
static const fld cargo_lock_f[] = { { "lockfile_version", &integer, 0 }, { "replaced", &replaced_l, F_OPT }, END };

static const fld godebug_f[] = { { "key", &str, 0 }, { "value", &str, 0 }, { "line", &line, F_NULL }, END };
static const fld exclude_f[] = { { "name", &str, 0 }, { "version", &str, 0 }, { "line", &line, F_NULL }, END };
static const fld path_line_f[] = { { "path", &str, 0 }, { "line", &line, F_NULL }, END };
static const fld go_replace_f[] = {
        { "name", &str, 0 }, { "version", &str, F_NULL }, { "path", &str, F_OPT }, { "new_name", &str, F_OPT },
        { "new_version", &str, F_NULL | F_OPT }, { "line", &line, F_NULL }, END
};
static const fld retract_f[] = {
        { "low", &str, 0 }, { "high", &str, 0 }, { "rationale", &str, F_NULL }, { "rationale_truncated", &boolean, 0 },
        { "line", &line, F_NULL }, END
};
static const shp godebug = OBJ(godebug_f), godebugs = ARR(&godebug, 0), exclude = OBJ(exclude_f),
                 excludes = ARR(&exclude, 0), path_line = OBJ(path_line_f), path_lines = ARR(&path_line, 0),
                 go_replace = OBJ(go_replace_f), go_replaces = ARR(&go_replace, 0), retract = OBJ(retract_f),
                 retracts = ARR(&retract, 0);
static const fld go_mod_f[] = {
        { "go", &str, F_OPT }, { "toolchain", &str, F_OPT }, { "deprecated", &str, F_OPT },
        { "godebug", &godebugs, F_OPT }, { "exclude", &excludes, F_OPT }, { "tool", &name_lines, F_OPT },
        { "ignore", &path_lines, F_OPT }, { "use", &path_lines, F_OPT }, { "replace", &go_replaces, F_OPT },
        { "retract", &retracts, F_OPT }, END
};
static const fld go_sum_f[] = { { "go_mod_hashes", &str_map, 0 }, { "direct_known", &boolean, 0 }, END };

static const fld composer_json_f[] = {
        { "type", &str, F_OPT }, { "minimum-stability", &str, F_OPT }, { "license", &str, F_OPT },
        { "prefer-stable", &boolean, F_OPT }, { "packagist_disabled", &boolean, F_OPT },
        { "replace", &str_map, F_OPT }, { "provide", &str_map, F_OPT }, { "conflict", &str_map, F_OPT },
        { "scripts", &name_lines, F_OPT }, END
};
static const fld composer_lock_f[] = {
        { "direct_known", &boolean, 0 }, { "content_hash", &str, F_NULL }, { "plugin_api_version", &str, F_NULL },
        { "platform", &str_map, F_OPT }, { "platform-dev", &str_map, F_OPT }, { "plugins", &name_lines, F_OPT },
        END
};

/* ---- Java, .NET, Ruby ------------------------------------------------------------------------------ */

static const fld managed_f[] = {
        { "name", &str, 0 }, { "requirement", &str, F_NULL }, { "resolved", &str, F_NULL }, { "scope", &str, F_NULL },
        { "type", &str, F_NULL }, { "group", &str, F_NULL }, { "line", &line, F_NULL }, { "purl", &str, F_NULL }, END
};
static const shp managed = OBJ(managed_f), managed_l = ARR(&managed, 0);
static const fld parent_f[] = {
        { "group_id", &str, F_NULL }, { "artifact_id", &str, F_NULL }, { "version", &str, F_NULL },
        { "relative_path", &str, F_NULL }, { "purl", &str, F_NULL }, { "line", &line, F_NULL }, END
};
static const shp parent = OBJ(parent_f);
static const fld pom_f[] = {
        { "modules", &strs, 0 }, { "dependency_management", &managed_l, 0 }, { "plugin_management", &managed_l, 0 },
        { "profiles", &strs, 0 }, { "model_version", &str, F_NULL }, { "packaging", &str, F_NULL },
        { "parent", &parent, F_NULL }, END
};
static const fld gradle_lock_f[] = { { "empty_configurations", &strs, 0 }, { "direct_known", &boolean, 0 }, END };
static const fld catalog_f[] = { { "aliases", &dep_map, 0 }, { "bundles", &any_map, 0 }, END };

static const fld update_f[] = {
        { "name", &str, F_NULL }, { "version", &str, F_NULL }, { "item", &str, F_NULL }, { "line", &line, F_NULL }, END
};
static const shp update = OBJ(update_f), updates = ARR(&update, 0);
static const fld msbuild_f[] = {
        { "project_references", &strs, 0 }, { "imports", &strs, 0 }, { "updates", &updates, 0 },
        { "sdk", &str, F_NULL }, { "target_frameworks", &str, F_NULL }, { "central_package_management", &str, F_NULL },
        END
};
static const fld nuget_lock_f[] = {
        { "version", &integer, 0 }, { "target_frameworks", &any, 0 }, { "requires", &any, 0 }, END
};
static const fld mapping_f[] = { { "source", &str, 0 }, { "line", &line, F_NULL }, { "patterns", &strs, 0 }, END };
static const shp mapping = OBJ(mapping_f), mappings = ARR(&mapping, 0);
static const fld nuget_config_f[] = {
        { "clear", &boolean, 0 }, { "removed_sources", &strs, 0 }, { "disabled_sources", &strs, 0 },
        { "package_source_mapping", &mappings, 0 }, { "config_keys", &strs, 0 }, END
};

static const fld gem_req_f[] = { { "name", &str, 0 }, { "requirement", &str, F_NULL }, END };
static const shp gem_req = OBJ(gem_req_f), gem_reqs = ARR(&gem_req, 0), gem_requires = MAP(&gem_reqs, 0);
static const fld gem_lock_f[] = {
        { "platforms", &strs, 0 }, { "requires", &gem_requires, 0 }, { "bundled_with", &str, F_NULL },
        { "ruby_version", &str, F_NULL }, { "source_pinned", &strs, 0 }, END
};
static const fld gemfile_f[] = { { "ruby", &str, F_NULL }, END };

/* ---- checks no table says ------------------------------------------------------------------------- */

static bool at(dcx *c, const char *ptr)
{
        snprintf(c->ptr, sizeof(c->ptr), "%s", ptr);
        return true;
}

static bool idx_is(dcx *c, const json_t *o, size_t want)
{
        return (size_t)json_integer_value(PRC_JGET(o, "index")) == want ||
               bad(c, "\"index\" is not its place in the list (%zu)", want);
}

/* An expression either parsed (contexts and functions) or did not (error): never both, never neither. */
static bool exprs_ok(dcx *c, const json_t *list, const char *where)
{
        const json_t *x;
        size_t i;

        json_array_foreach(list, i, x) {
                bool parsed = json_is_array(PRC_JGET(x, "contexts"));
                if (parsed != json_is_array(PRC_JGET(x, "functions")) ||
                    parsed == json_is_string(PRC_JGET(x, "error"))) {
                        snprintf(c->ptr, sizeof(c->ptr), "%s", where);
                        prc_jptr_index(c->ptr, sizeof(c->ptr), i);
                        return bad(c, "an expression has contexts and functions, or an error");
                }
        }
        return true;
}

static bool steps_ok(dcx *c, const json_t *list, const char *where)
{
        const json_t *s;
        size_t i;
        char p[256];

        json_array_foreach(list, i, s) {
                snprintf(p, sizeof(p), "%s", where);
                prc_jptr_index(p, sizeof(p), i);
                at(c, p);
                if (!idx_is(c, s, i))
                        return false;
                prc_jptr_push(p, sizeof(p), "expressions");
                if (!exprs_ok(c, PRC_JGET(s, "expressions"), p))
                        return false;
        }
        return true;
}

static bool post_workflow(dcx *c, const json_t *d)
{
        const json_t *j;
        size_t i;
        char p[256];

        if (!exprs_ok(c, PRC_JGET(d, "expressions"), "/details/expressions"))
                return false;
        json_array_foreach(PRC_JGET(d, "jobs"), i, j) {
                snprintf(p, sizeof(p), "/details/jobs/%zu/expressions", i);
                if (!exprs_ok(c, PRC_JGET(j, "expressions"), p))
                        return false;
                snprintf(p, sizeof(p), "/details/jobs/%zu/steps", i);
                if (!steps_ok(c, PRC_JGET(j, "steps"), p))
                        return false;
        }
        return true;
}

static bool post_action(dcx *c, const json_t *d)
{
        return exprs_ok(c, PRC_JGET(d, "expressions"), "/details/expressions") &&
               steps_ok(c, PRC_JGET(PRC_JGET(d, "runs"), "steps"), "/details/runs/steps");
}

/* An instruction's form says which of exec and tokens it has. */
static bool form_ok(dcx *c, const json_t *in)
{
        const char *f = json_string_value(PRC_JGET(in, "form"));

        if (f == NULL)
                return true;
        if (strcmp(f, "exec") == 0 ? !json_is_array(PRC_JGET(in, "exec")) ||
                                             !json_is_null(PRC_JGET(in, "tokens"))
                                   : !json_is_null(PRC_JGET(in, "exec")))
                return bad(c, "\"form\" %s does not match \"exec\" and \"tokens\"", f);
        return true;
}

/*
 * Stages: at least one, each at its index, built only on an earlier stage
 * (the analyses follow from_stage back; a later one would be a lie they
 * only bound), COPY --from
 * naming this stage or an earlier one, final_stage the last.
 */
static bool post_dockerfile(dcx *c, const json_t *d)
{
        const json_t *st = PRC_JGET(d, "stages"), *s, *in;
        size_t n = json_array_size(st), i, k;
        char p[256];

        if (n == 0)
                return at(c, "/details/stages") && bad(c, "no stage");
        if ((size_t)json_integer_value(PRC_JGET(d, "final_stage")) != n - 1)
                return at(c, "/details/final_stage") && bad(c, "not the last stage");
        json_array_foreach(st, i, s) {
                const json_t *fs = PRC_JGET(s, "from_stage");
                snprintf(p, sizeof(p), "/details/stages/%zu", i);
                at(c, p);
                if (!idx_is(c, s, i))
                        return false;
                if (json_is_integer(fs) && (size_t)json_integer_value(fs) >= i)
                        return bad(c, "\"from_stage\" is not an earlier stage");
                json_array_foreach(PRC_JGET(s, "instructions"), k, in) {
                        const json_t *cf = PRC_JGET(in, "from_stage");
                        snprintf(p, sizeof(p), "/details/stages/%zu/instructions/%zu", i, k);
                        at(c, p);
                        if (json_is_integer(cf) && (size_t)json_integer_value(cf) > i)
                                return bad(c, "\"from_stage\" is a later stage");
                        if (!form_ok(c, in))
                                return false;
                }
        }
        return true;
}

/* ---- the formats ------------------------------------------------------------------------------------ */

static const struct fmt {
        const char *format;
        const fld  *f;
        bool      (*post)(dcx *c, const json_t *details);
} fmts[] = {
        { "npm-package-json", package_json_f, NULL },
        { "npm-package-lock", npm_lock_f, NULL },
        { "npm-shrinkwrap", npm_lock_f, NULL },
        { "yarn-lock", yarn_lock_f, NULL },
        { "pnpm-lock", pnpm_lock_f, NULL },
        { "npmrc", npmrc_f, NULL },
        { "pypi-pyproject", pyproject_f, NULL },
        { "pypi-requirements", requirements_f, NULL },
        { "pypi-setup-cfg", setup_cfg_f, NULL },
        { "pypi-pipfile", pipfile_f, NULL },
        { "pypi-pipfile-lock", pipfile_lock_f, NULL },
        { "pypi-poetry-lock", poetry_lock_f, NULL },
        { "pypi-uv-lock", uv_lock_f, NULL },
        { "pypi-pdm-lock", pdm_lock_f, NULL },
        { "pypi-pylock", pylock_f, NULL },
        { "pypi-pip-conf", pip_conf_f, NULL },
        { "cargo-toml", cargo_toml_f, NULL },
        { "cargo-lock", cargo_lock_f, NULL },
        { "go-mod", go_mod_f, NULL },
        { "go-sum", go_sum_f, NULL },
        { "go-work", go_mod_f, NULL },
        { "composer-json", composer_json_f, NULL },
        { "composer-lock", composer_lock_f, NULL },
        { "maven-pom", pom_f, NULL },
        { "gradle-lockfile", gradle_lock_f, NULL },
        { "gradle-version-catalog", catalog_f, NULL },
        { "nuget-msbuild-project", msbuild_f, NULL },
        { "nuget-central-packages", msbuild_f, NULL },
        { "nuget-packages-config", none_f, NULL },
        { "nuget-packages-lock", nuget_lock_f, NULL },
        { "nuget-config", nuget_config_f, NULL },
        { "gem-gemfile-lock", gem_lock_f, NULL },
        { "gem-gemfile", gemfile_f, NULL },
        { "gha-workflow", workflow_f, post_workflow },
        { "gha-action", action_f, post_action },
        { "dockerfile", dockerfile_f, post_dockerfile },
};

static const struct fmt *fmt_of(const char *format)
{
        for (size_t i = 0; format != NULL && i < sizeof(fmts) / sizeof(fmts[0]); i++)
                if (strcmp(fmts[i].format, format) == 0)
                        return &fmts[i];
        return NULL;
}

bool prc_mdoc_details_known(const char *format)
{
        return fmt_of(format) != NULL;
}

bool prc_mdoc_details_check(const json_t *md, prc_err *err)
{
        return prc_mdoc_details_check_n(md, json_array_size(PRC_JGET(md, "dependencies")), err);
}

bool prc_mdoc_details_check_n(const json_t *md, size_t ndeps, prc_err *err)
{
        const struct fmt *f = fmt_of(json_string_value(PRC_JGET(md, "format")));
        dcx c = { .err = err, .ptr = "/details", .ndeps = ndeps };
        shp root;

        if (f == NULL)
                return bad(&c, "no details shape for format \"%.64s\"",
                           json_string_value(PRC_JGET(md, "format")));
        root = (shp){ .k = K_OBJ, .f = f->f };
        return check(&c, PRC_JGET(md, "details"), &root, 0) &&
               (f->post == NULL || f->post(&c, PRC_JGET(md, "details")));
}

const char *const prc_mdoc_slim_keys[] = { "go", "includes", NULL };

bool prc_mdoc_details_check_slim_n(const json_t *md, size_t ndeps, prc_err *err)
{
        const struct fmt *f = fmt_of(json_string_value(PRC_JGET(md, "format")));
        const json_t *d = PRC_JGET(md, "details"), *m;
        dcx c = { .err = err, .ptr = "/details", .ndeps = ndeps };
        seg here = { 0 };
        size_t found = 0;

        if (f == NULL)
                return bad(&c, "no details shape for format \"%.64s\"",
                           json_string_value(PRC_JGET(md, "format")));
        for (const char *const *k = prc_mdoc_slim_keys; *k != NULL; k++) {
                const fld *x = find_fld(f->f, *k);

                m = json_object_get(d, *k);
                here.key = *k;
                c.top = &here;
                if (m == NULL && x != NULL && !(x->fl & F_OPT))
                        return bad(&c, "missing");
                if (m == NULL)
                        continue;
                found++;
                if (x == NULL)
                        return bad(&c, "not a member of %s details", f->format);
                if (!check(&c, m, x->s, x->fl))
                        return false;
        }
        if (found != json_object_size(d))
                for (void *it = json_object_iter((json_t *)d); it != NULL; it = json_object_iter_next((json_t *)d, it))
                        if (!prc_strv_has(prc_mdoc_slim_keys, json_object_iter_key(it))) {
                                here.key = json_object_iter_key(it);
                                return bad(&c, "not a member slim details hold (only what prc sbom reads)");
                        }
        return true;
}

#if defined(PRC_TESTING) && PRC_TESTING
/* A key of a twice, or one of a and one of b (a and b: key lists, b may be NULL). */
static const char *repeated(const fld *a, const fld *b)
{
        for (const fld *x = a; x->key != NULL; x++) {
                for (const fld *y = x + 1; y->key != NULL; y++)
                        if (strcmp(x->key, y->key) == 0)
                                return x->key;
                if (find_fld(b, x->key) != NULL)
                        return x->key;
        }
        return NULL;
}

/* s and every shape under it, each once (seen holds those met; a shape may hold itself). */
static bool shape_repeats(const shp *s, const shp **seen, size_t *nseen, size_t cap, char *out, size_t outcap)
{
        const char *k;

        for (size_t i = 0; i < *nseen; i++)
                if (seen[i] == s)
                        return false;
        if (*nseen < cap)
                seen[(*nseen)++] = s;
        switch (s->k) {
        case K_OBJ:
                if ((k = repeated(s->f, NULL)) != NULL)
                        goto found;
                for (const var *v = s->v; v != NULL && v->values != NULL; v++)
                        if ((k = repeated(v->f, NULL)) != NULL || (k = repeated(s->f, v->f)) != NULL)
                                goto found;
                for (const fld *f = s->f; f->key != NULL; f++)
                        if (shape_repeats(f->s, seen, nseen, cap, out, outcap))
                                return true;
                for (const var *v = s->v; v != NULL && v->values != NULL; v++)
                        for (const fld *f = v->f; f->key != NULL; f++)
                                if (shape_repeats(f->s, seen, nseen, cap, out, outcap))
                                        return true;
                return false;
        case K_ARR:
        case K_MAP:
                return shape_repeats(s->item, seen, nseen, cap, out, outcap);
        case K_ONEOF:
                for (const shp *const *a = s->alt; *a != NULL; a++)
                        if (shape_repeats(*a, seen, nseen, cap, out, outcap))
                                return true;
                return false;
        default:
                return false;
        }
found:
        snprintf(out, outcap, "%s: \"%s\"", s->name != NULL ? s->name : "an inline object", k);
        return true;
}

bool prc_mdoc_details_repeats_a_key(char *out, size_t cap)
{
        static const shp *seen[1024];

        for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
                shp root = { .k = K_OBJ, .f = fmts[i].f, .name = fmts[i].format };
                size_t nseen = 0;       /* root is at one address for every format: start afresh */

                if (shape_repeats(&root, seen, &nseen, PRC_ARRAY_LEN(seen), out, cap))
                        return true;
        }
        return false;
}
#endif

/* ---- the same tables as JSON Schema (schemas/manifest-doc.schema.json keeps this; a test compares) ---- */

static json_t *schema_of(const shp *s, json_t *defs, bool top);

/* x, or null too: a scalar's "type" (and "enum") gains null, anything else is an anyOf. */
static json_t *nullable(json_t *x, unsigned fl)
{
        json_t *t = PRC_JGET(x, "type"), *en = PRC_JGET(x, "enum");

        if (!(fl & F_NULL) || x == NULL)
                return x;
        if (json_is_string(t) && strcmp(json_string_value(t), "object") != 0 &&
            strcmp(json_string_value(t), "array") != 0) {
                json_object_set_new(x, "type", json_pack("[O,s]", t, "null"));
                if (en != NULL)
                        json_array_append_new(en, json_null());
                return x;
        }
        return json_pack("{s:[{s:s},o]}", "anyOf", "type", "null", x);
}

static json_t *schema_fields(const fld *f, const fld *extra, json_t *defs)
{
        json_t *props = json_object(), *req = json_array();

        for (unsigned pass = 0; pass < 2; pass++)
                for (const fld *x = pass == 0 ? f : extra; x != NULL && x->key != NULL; x++) {
                        json_t *one = schema_of(x->s, defs, false);
                        json_object_set_new(props, x->key, nullable(one, x->fl));
                        if (!(x->fl & F_OPT))
                                json_array_append_new(req, json_string(x->key));
                }
        return json_pack("{s:s, s:b, s:o, s:o}", "type", "object", "additionalProperties", 0, "required", req,
                         "properties", props);
}

static json_t *schema_body(const shp *s, json_t *defs)
{
        json_t *o, *a;

        switch (s->k) {
        case K_ANY:
                return json_object();
        case K_STR:
                o = json_pack("{s:s, s:i}", "type", "string", "maxLength", PRC_MD_STR_MAX);
                if (s->en != NULL) {
                        a = json_array();
                        for (const char *const *e = s->en; *e != NULL; e++)
                                json_array_append_new(a, json_string(*e));
                        json_object_set_new(o, "enum", a);
                }
                return o;
        case K_TEXT:
                return json_pack("{s:s}", "type", "string");
        case K_INT:
        case K_DEP:
                return json_pack("{s:s, s:i, s:I}", "type", "integer", "minimum", 0, "maximum",
                                 (json_int_t)UINT32_MAX);
        case K_LINE:
                return json_pack("{s:s, s:i, s:I}", "type", "integer", "minimum", 1, "maximum",
                                 (json_int_t)UINT32_MAX);
        case K_BOOL:
                return json_pack("{s:s}", "type", "boolean");
        case K_TOKENS:
                /* the rest of its shape is prc_sh_check's (docs/parsers-xml-shell-archive.md) */
                return json_pack("{s:s, s:[s,s,s], s:{s:b}}", "type", "object", "required", "assignments",
                                 "functions", "commands", "properties", "format", 0);
        case K_ARR:
                return json_pack("{s:s, s:i, s:o}", "type", "array", "maxItems", PRC_MD_DEPS_MAX, "items",
                                 nullable(schema_of(s->item, defs, false), s->ifl));
        case K_MAP:
                return json_pack("{s:s, s:i, s:o}", "type", "object", "maxProperties", PRC_MD_DEPS_MAX,
                                 "additionalProperties", nullable(schema_of(s->item, defs, false), s->ifl));
        case K_ONEOF:
                a = json_array();
                for (const shp *const *x = s->alt; *x != NULL; x++)
                        json_array_append_new(a, schema_of(*x, defs, false));
                return json_pack("{s:o}", "anyOf", a);
        case K_OBJ:
                if (s->disc == NULL)
                        return schema_fields(s->f, NULL, defs);
                a = json_array();
                for (const var *v = s->v; v->values != NULL; v++) {
                        json_t *one = schema_fields(s->f, v->f, defs), *en = json_array();
                        for (const char *const *e = v->values; *e != NULL; e++)
                                json_array_append_new(en, json_string(*e));
                        json_object_set_new(json_object_get(PRC_JGET(one, "properties"), s->disc), "enum", en);
                        json_array_append_new(a, one);
                }
                return json_pack("{s:o}", "oneOf", a);
        }
        return json_object();
}

static json_t *schema_of(const shp *s, json_t *defs, bool top)
{
        char ref[96];

        if (s->name == NULL || top)
                return schema_body(s, defs);
        snprintf(ref, sizeof(ref), "details-%s", s->name);
        if (json_object_get(defs, ref) == NULL) {
                json_object_set_new(defs, ref, json_null());    /* taken: a shape that holds itself stops here */
                json_object_set_new(defs, ref, schema_of(s, defs, true));
        }
        return json_pack("{s:s+}", "$ref", "#/$defs/", ref);
}

json_t *prc_mdoc_details_schema(void)
{
        json_t *defs = json_object(), *all = json_array();

        for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
                shp root = { .k = K_OBJ, .f = fmts[i].f };
                char ref[96];

                snprintf(ref, sizeof(ref), "details-%s", fmts[i].format);
                json_object_set_new(defs, ref, schema_of(&root, defs, true));
                json_array_append_new(all, json_pack("{s:{s:{s:{s:s}}}, s:{s:{s:{s:s+}}}}", "if", "properties",
                                                     "format", "const", fmts[i].format, "then", "properties",
                                                     "details", "$ref", "#/$defs/", ref));
        }
        return json_pack("{s:o, s:o}", "$defs", defs, "allOf", all);
}
