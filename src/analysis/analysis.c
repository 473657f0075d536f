/*
 * analysis.c - the analysis framework: running one analysis and turning
 * what it reported into observations (see analysis.h).
 * Trust: engine-side; reads only checked worker documents and the inventory.
 */
#include "analysis/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/extract/extract.h"
#include "engine/policy.h"

struct prc_actx {
        const prc_analysis *a;
        const prc_ainput   *in;
        json_t             *found;      /* owned: locations of found */
        size_t              nfound;
        json_t             *seen;       /* owned: dedup keys of found locations */
        json_t             *unres;      /* owned: locations of unresolved inputs */
        size_t              nunres;
        json_t             *values;     /* owned: reviewer values */
};

/* A set of document addresses, open addressing; the documents outlive it. */
struct prc_amemo {
        const void **slot;
        size_t       cap, n;    /* cap: a power of two, or 0 */
};

prc_amemo *prc_amemo_new(void)
{
        return calloc(1, sizeof(prc_amemo));
}

void prc_amemo_free(prc_amemo *m)
{
        if (m == NULL)
                return;
        free(m->slot);
        free(m);
}

static size_t memo_at(const prc_amemo *m, const void *p)
{
        uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
        size_t i = (size_t)(h >> 32) & (m->cap - 1);

        while (m->slot[i] != NULL && m->slot[i] != p)
                i = (i + 1) & (m->cap - 1);
        return i;
}

static bool memo_has(const prc_amemo *m, const void *p)
{
        return m != NULL && m->cap > 0 && m->slot[memo_at(m, p)] == p;
}

static void memo_put(prc_amemo *m, const void *p)
{
        if (m == NULL || memo_has(m, p))
                return;
        if (2 * (m->n + 1) > m->cap) {
                prc_amemo g = { calloc(m->cap ? 2 * m->cap : 64, sizeof(void *)), m->cap ? 2 * m->cap : 64, 0 };
                if (g.slot == NULL)
                        return;
                for (size_t i = 0; i < m->cap; i++)
                        if (m->slot[i] != NULL)
                                g.slot[memo_at(&g, m->slot[i])] = m->slot[i];
                free(m->slot);
                m->slot = g.slot;
                m->cap = g.cap;
        }
        m->slot[memo_at(m, p)] = p;
        m->n++;
}

bool prc_act_tokens_known(const prc_actx *cx, const json_t *tokens)
{
        return memo_has(cx->in->memo, tokens);
}

void prc_act_tokens_good(const prc_actx *cx, const json_t *tokens)
{
        memo_put(cx->in->memo, tokens);
}

const prc_analysis *prc_analysis_find(const char *id)
{
        for (size_t i = 0; i < prc_analysis_count; i++)
                if (strcmp(prc_analysis_table[i].id, id) == 0)
                        return &prc_analysis_table[i];
        return NULL;
}

const prc_ainput *prc_act_input(const prc_actx *cx)
{
        return cx->in;
}

static const char *base_of(const char *path)
{
        const char *b = strrchr(path, '/');
        return b != NULL ? b + 1 : path;
}

unsigned prc_analysis_gap_kind(const prc_gap *g)
{
        const char *b = base_of(g->path);
        size_t n = strlen(b);
        const prc_extractor *x;

        if (g->kind != 0)
                return g->kind;         /* the scan knew what it read the file as */
        /* Gaps the engine records for install= values it could not follow carry their own class. */
        if (strncmp(g->cls, "install-script-", 15) == 0)
                return PRC_AK_INSTALL;
        if (strcmp(b, "PKGBUILD") == 0)
                return PRC_AK_PKGBUILD;
        if (strcmp(b, ".SRCINFO") == 0)
                return PRC_AK_SRCINFO;
        if (n > 8 && strcmp(b + n - 8, ".install") == 0)
                return PRC_AK_INSTALL;
        /* A manifest an extractor owns: its refusal is a gap of that kind of ManifestDoc. */
        x = prc_extractor_for_path(g->path);
        return x != NULL ? prc_analysis_mdoc_kind(x->ecosystem) : 0;
}

unsigned prc_analysis_mdoc_kind(const char *ecosystem)
{
        if (ecosystem == NULL)
                return 0;
        if (strcmp(ecosystem, "github-actions") == 0)
                return PRC_AK_WORKFLOW;
        if (strcmp(ecosystem, "docker") == 0)
                return PRC_AK_DOCKERFILE;
        return PRC_AK_DEPS;
}

static unsigned mdoc_kind(const json_t *md)
{
        return prc_analysis_mdoc_kind(json_string_value(json_object_get(md, "ecosystem")));
}

const json_t *prc_act_mdoc(const prc_actx *cx, unsigned kinds, size_t *pos)
{
        const json_t *a = cx->in->mdocs;

        for (; *pos < json_array_size(a); (*pos)++) {
                const json_t *md = json_array_get(a, *pos);
                if (mdoc_kind(md) & kinds)
                        return md;
        }
        return NULL;
}

bool prc_act_path_gap(const prc_actx *cx, const char *path)
{
        for (size_t i = 0; i < cx->in->ngaps; i++)
                if (strcmp(cx->in->gaps[i].path, path) == 0)
                        return true;
        return false;
}

void prc_act_excerpt(const char *text, size_t max, char *out, size_t outsz)
{
        size_t k = 0, o = 0;
        const unsigned char *t = (const unsigned char *)(text != NULL ? text : "");

        if (outsz == 0)
                return;
        if (max > outsz - 1)
                max = outsz - 1;
        while (t[k] != 0) {
                size_t cl = 1;
                if (t[k] >= 0xf0)
                        cl = 4;
                else if (t[k] >= 0xe0)
                        cl = 3;
                else if (t[k] >= 0xc0)
                        cl = 2;
                if (o + cl > max)
                        break;
                for (size_t j = 1; j < cl; j++)
                        if (t[k + j] == 0)
                                goto done;
                if (cl == 1 && (t[k] < 0x20 || t[k] == 0x7f)) {
                        out[o++] = ' ';         /* tabs, newlines of here-documents, escapes */
                } else {
                        memcpy(out + o, t + k, cl);
                        o += cl;
                }
                k += cl;
        }
done:
        out[o] = 0;
}

static json_t *location(const char *path, uint32_t line, const char *text, const char *detail)
{
        char ex[PRC_ACT_TEXT_MAX + 1], de[PRC_ACT_TEXT_MAX + 1];
        json_t *l = json_pack("{s:s}", "path", path);

        if (l == NULL)
                return NULL;
        if (line > 0 && json_object_set_new(l, "line", json_integer(line)) != 0)
                goto oom;
        if (text != NULL) {
                prc_act_excerpt(text, PRC_ACT_TEXT_MAX, ex, sizeof(ex));
                if (json_object_set_new(l, "text", json_string(ex)) != 0)
                        goto oom;
        }
        if (detail != NULL) {
                prc_act_excerpt(detail, PRC_ACT_TEXT_MAX, de, sizeof(de));
                if (json_object_set_new(l, "detail", json_string(de)) != 0)
                        goto oom;
        }
        return l;
oom:
        json_decref(l);
        return NULL;
}

/*
 * The dedup key of a location: its fields as stored (line 0 and a missing
 * text or detail are absent), each string with its length, so two keys are
 * equal exactly when the locations are.  Cheaper than dumping the object.
 */
static char *location_key(const json_t *l)
{
        const char *f[3] = { json_string_value(json_object_get(l, "path")),
                             json_string_value(json_object_get(l, "text")),
                             json_string_value(json_object_get(l, "detail")) };
        size_t n[3], len = 64, o;
        char *key;

        for (size_t i = 0; i < 3; i++) {
                n[i] = f[i] != NULL ? strlen(f[i]) : 0;
                len += n[i] + 24;
        }
        key = malloc(len);
        if (key == NULL)
                return NULL;
        o = (size_t)snprintf(key, len, "%" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(l, "line")));
        for (size_t i = 0; i < 3; i++) {
                if (f[i] == NULL) {
                        o += (size_t)snprintf(key + o, len - o, "|-");
                        continue;
                }
                o += (size_t)snprintf(key + o, len - o, "|%zu:", n[i]);
                memcpy(key + o, f[i], n[i]);
                o += n[i];
                key[o] = 0;
        }
        return key;
}

bool prc_act_found(prc_actx *cx, const char *path, uint32_t line, const char *text, const char *detail,
                   prc_err *err)
{
        json_t *l = location(path, line, text, detail);
        char *key;

        if (l == NULL)
                return prc_err_oom(err, "an analysis location");
        key = location_key(l);
        if (key == NULL) {
                json_decref(l);
                return prc_err_oom(err, "an analysis location");
        }
        if (json_object_get(cx->seen, key) != NULL) {
                free(key);
                json_decref(l);
                return true;
        }
        if (json_object_set_new(cx->seen, key, json_true()) != 0) {
                free(key);
                json_decref(l);
                return prc_err_oom(err, "an analysis location");
        }
        free(key);
        if (++cx->nfound > PRC_ACT_LOCATIONS_MAX) {
                json_decref(l);
                return true;
        }
        return json_array_append_new(cx->found, l) == 0 || prc_err_oom(err, "analysis locations");
}

bool prc_act_unresolved(prc_actx *cx, const char *path, uint32_t line, const char *why, prc_err *err)
{
        json_t *l = location(path, line, NULL, why);

        if (l == NULL)
                return prc_err_oom(err, "an analysis location");
        if (++cx->nunres > PRC_ACT_LOCATIONS_MAX) {
                json_decref(l);
                return true;
        }
        return json_array_append_new(cx->unres, l) == 0 || prc_err_oom(err, "analysis locations");
}

bool prc_act_value(prc_actx *cx, const char *path, json_t *value, prc_err *err)
{
        json_t *v = value != NULL ? json_pack("{s:s,s:o}", "path", path, "value", value) : NULL;

        if (v == NULL || json_array_append_new(cx->values, v) != 0)
                return prc_err_oom(err, "an analysis value");
        return true;
}

static bool emit(const prc_actx *cx, prc_obs_list *out, unsigned outcome, json_t *value, json_t *locs,
                 const char *msg, prc_err *err)
{
        char src[96], id[160];

        snprintf(src, sizeof(src), "builtin:%s", cx->a->id);
        snprintf(id, sizeof(id), "analysis.%s.%zu", cx->a->id, out->n);
        return prc_obs_add(out, src, cx->a->id, id, outcome, value, locs, msg, err);
}

static bool kind_present(const prc_ainput *in, unsigned kinds)
{
        for (size_t i = 0; i < in->ndocs; i++)
                if (in->docs[i].kind & kinds)
                        return true;
        for (size_t i = 0; i < in->ngaps; i++)
                if (prc_analysis_gap_kind(&in->gaps[i]) & kinds)
                        return true;
        for (size_t i = 0; i < json_array_size(in->mdocs); i++)
                if (mdoc_kind(json_array_get(in->mdocs, i)) & kinds)
                        return true;
        return false;
}

bool prc_analysis_run(const prc_analysis *a, const prc_ainput *in, prc_obs_list *out, bool *out_gap, prc_err *err)
{
        prc_actx cx = { .a = a, .in = in };
        size_t n0 = out->n;
        bool gap = false, ok = false;
        char msg[256];

        for (size_t i = 0; i < in->ngaps; i++)
                if (prc_analysis_gap_kind(&in->gaps[i]) & a->needs)
                        gap = true;
        cx.found = json_array();
        cx.seen = json_object();
        cx.unres = json_array();
        cx.values = json_array();
        if (cx.found == NULL || cx.seen == NULL || cx.unres == NULL || cx.values == NULL) {
                prc_err_oom(err, "an analysis run");
                goto out;
        }
        if (!kind_present(in, a->requires)) {
                snprintf(msg, sizeof(msg), "nothing for %s to read in the tree (%s)", a->id,
                         a->requires == (PRC_AK_WORKFLOW | PRC_AK_DOCKERFILE | PRC_AK_PKGBUILD)
                                 ? "no workflow, Dockerfile or PKGBUILD"
                         : a->requires & PRC_AK_PKGBUILD     ? "no PKGBUILD"
                         : a->requires & PRC_AK_WORKFLOW   ? "no GitHub Actions workflow"
                         : a->requires & PRC_AK_DOCKERFILE ? "no Dockerfile"
                         : a->requires & PRC_AK_DEPS       ? "no dependency manifest"
                                                           : "no input of its kind");
                ok = emit(&cx, out, PRC_OUT_UNSUPPORTED, NULL, NULL, msg, err);
                goto out;
        }
        if (!a->run(&cx, err))
                goto out;
        if (cx.nfound > 0) {
                snprintf(msg, sizeof(msg), "%zu finding%s%s", cx.nfound, cx.nfound == 1 ? "" : "s",
                         cx.nfound > PRC_ACT_LOCATIONS_MAX ? " (the first 1000 listed)" : "");
                if (!emit(&cx, out, PRC_OUT_FOUND, NULL, json_incref(cx.found), msg, err))
                        goto out;
        }
        if (cx.nunres > 0) {
                snprintf(msg, sizeof(msg), "%zu input%s could not be read statically", cx.nunres,
                         cx.nunres == 1 ? "" : "s");
                if (!emit(&cx, out, PRC_OUT_UNSUPPORTED, NULL, json_incref(cx.unres), msg, err))
                        goto out;
        }
        if (json_array_size(cx.values) > 0) {
                json_t *locs = json_array();
                size_t k;
                json_t *v;
                json_array_foreach(cx.values, k, v)
                        json_array_append_new(locs, json_pack("{s:O}", "path", json_object_get(v, "path")));
                snprintf(msg, sizeof(msg), "%zu value%s for the reviewer", json_array_size(cx.values),
                         json_array_size(cx.values) == 1 ? "" : "s");
                if (!emit(&cx, out, PRC_OUT_VALUE, json_incref(cx.values), locs, msg, err))
                        goto out;
        }
        if (cx.nfound == 0 && cx.nunres == 0 && json_array_size(cx.values) == 0 && !gap) {
                if (!emit(&cx, out, PRC_OUT_NOT_FOUND, NULL, NULL, "every input was read and the risk is absent",
                          err))
                        goto out;
        }
        ok = true;
out:
        if (!ok) {
                /* Never half-reported: drop what this run appended. */
                while (out->n > n0) {
                        out->n--;
                        json_decref(out->items[out->n].value);
                        json_decref(out->items[out->n].locations);
                }
        }
        json_decref(cx.found);
        json_decref(cx.seen);
        json_decref(cx.unres);
        json_decref(cx.values);
        *out_gap = gap;
        return ok;
}
