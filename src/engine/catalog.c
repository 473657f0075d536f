/*
 * catalog.c - catalog loader and validator (see catalog.h).
 * Trust: operator input; every field is checked before it is trusted.
 */
#include "engine/catalog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/jcs.h"
#include "base/json_strict.h"
#include "base/limits.h"
#include "base/yaml.h"

#define CATALOG_SCHEMA "prc.catalog/v1"

struct prc_profile {
        const char           *id;     /* borrowed from doc */
        const prc_assertion **items;  /* owned array of borrowed pointers into assertions */
        size_t                n;
};

struct prc_catalog {
        json_t              *doc;             /* owned */
        char                 sha256[PRC_SHA256_HEX + 1];
        prc_assertion       *assertions;      /* owned */
        size_t               nassertions;
        prc_binding         *bindings;        /* owned, all assertions' bindings in one block */
        struct prc_profile  *profiles;        /* owned */
        size_t               nprofiles;
};

static const prc_field top_fields[] = {
        { "schema", PRC_JT_STRING, true },
        { "catalog_id", PRC_JT_STRING, true },
        { "revision", PRC_JT_INT, true },
        { "title", PRC_JT_STRING, false },
        { "controls", PRC_JT_ARRAY, true },
        { "assertions", PRC_JT_ARRAY, true },
        { "profiles", PRC_JT_ARRAY, true },
};
static const prc_field control_fields[] = {
        { "id", PRC_JT_STRING, true },
        { "title", PRC_JT_STRING, true },
        { "description", PRC_JT_STRING, false },
};
static const prc_field assertion_fields[] = {
        { "id", PRC_JT_STRING, true },
        { "control", PRC_JT_STRING, true },
        { "title", PRC_JT_STRING, true },
        { "rationale", PRC_JT_STRING, true },
        { "remediation", PRC_JT_STRING, true },
        { "severity", PRC_JT_STRING, true },
        { "analysis", PRC_JT_OBJECT, false },
        { "bindings", PRC_JT_ARRAY, false },
};
static const prc_field analysis_fields[] = {
        { "id", PRC_JT_STRING, true },
        { "pass_outcomes", PRC_JT_ARRAY, false },
        { "fail_outcomes", PRC_JT_ARRAY, false },
};
static const prc_field binding_fields[] = {
        { "adapter_id", PRC_JT_STRING, true },
        { "manifest_sha256", PRC_JT_STRING, true },
        { "observation_kind", PRC_JT_STRING, true },
        { "pass_outcomes", PRC_JT_ARRAY, false },
        { "fail_outcomes", PRC_JT_ARRAY, false },
};
static const prc_field profile_fields[] = {
        { "id", PRC_JT_STRING, true },
        { "title", PRC_JT_STRING, true },
        { "assertions", PRC_JT_ARRAY, true },
};

void prc_catalog_free(prc_catalog *c)
{
        if (c == NULL)
                return;
        for (size_t i = 0; i < c->nprofiles; i++)
                free(c->profiles[i].items);
        free(c->profiles);
        free(c->bindings);
        free(c->assertions);
        json_decref(c->doc);
        free(c);
}

static const char *sget(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static bool bad(prc_err *err, prc_errclass cls, const char *ptr, const char *msg, const char *what)
        PRC_PRINTF(4, 0);
static bool bad(prc_err *err, prc_errclass cls, const char *ptr, const char *msg, const char *what)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        /* msg is always one of this file's literals with exactly one %s. */
        prc_err_set(err, cls, msg, what);
#pragma GCC diagnostic pop
        prc_err_set_ptr(err, ptr);
        return false;
}

/* Ids are short printable tokens: they appear in reports and SARIF rule ids. */
static bool id_ok(const char *s)
{
        size_t n = strlen(s);

        if (n == 0 || n > 128)
                return false;
        for (size_t i = 0; i < n; i++) {
                unsigned char ch = (unsigned char)s[i];
                if (!(ch >= 'a' && ch <= 'z') && !(ch >= 'A' && ch <= 'Z') && !(ch >= '0' && ch <= '9') &&
                    ch != '-' && ch != '_' && ch != '.' && ch != '/' && ch != '@')
                        return false;
        }
        return true;
}

static bool severity_ok(const char *s)
{
        return strcmp(s, "info") == 0 || strcmp(s, "low") == 0 || strcmp(s, "medium") == 0 ||
               strcmp(s, "high") == 0 || strcmp(s, "critical") == 0;
}

static bool validate(prc_catalog *c, prc_err *err)
{
        const json_t *doc = c->doc, *controls, *assertions, *profiles, *v;
        size_t i, j, nb = 0, bi = 0;
        char ptr[128];

        if (!prc_json_fields(doc, "", top_fields, PRC_ARRAY_LEN(top_fields), err))
                return false;
        if (strcmp(sget(doc, "schema"), CATALOG_SCHEMA) != 0)
                return bad(err, PRC_E_CATALOG_SCHEMA, "/schema", "schema is not '%s'", CATALOG_SCHEMA);
        if (!id_ok(sget(doc, "catalog_id")))
                return bad(err, PRC_E_INVALID_VALUE, "/catalog_id", "%s is not a valid id", "catalog_id");
        if (json_integer_value(json_object_get(doc, "revision")) < 0)
                return bad(err, PRC_E_INVALID_VALUE, "/revision", "%s must not be negative", "revision");
        controls = json_object_get(doc, "controls");
        assertions = json_object_get(doc, "assertions");
        profiles = json_object_get(doc, "profiles");

        json_array_foreach(controls, i, v) {
                snprintf(ptr, sizeof(ptr), "/controls/%zu", i);
                if (!prc_json_fields(v, ptr, control_fields, PRC_ARRAY_LEN(control_fields), err))
                        return false;
                if (!id_ok(sget(v, "id")))
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "%s is not a valid id", "control id");
                for (j = 0; j < i; j++)
                        if (strcmp(sget(json_array_get(controls, j), "id"), sget(v, "id")) == 0)
                                return bad(err, PRC_E_CATALOG_DUPLICATE_ID, ptr, "control '%s' is defined twice",
                                           sget(v, "id"));
        }
        /* First pass: shapes, and how many bindings there are. */
        json_array_foreach(assertions, i, v) {
                const json_t *an, *bs;
                bool found = false;

                snprintf(ptr, sizeof(ptr), "/assertions/%zu", i);
                if (!prc_json_fields(v, ptr, assertion_fields, PRC_ARRAY_LEN(assertion_fields), err))
                        return false;
                if (!id_ok(sget(v, "id")))
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "%s is not a valid id", "assertion id");
                for (j = 0; j < i; j++)
                        if (strcmp(sget(json_array_get(assertions, j), "id"), sget(v, "id")) == 0)
                                return bad(err, PRC_E_CATALOG_DUPLICATE_ID, ptr,
                                           "assertion '%s' is defined twice", sget(v, "id"));
                for (j = 0; j < json_array_size(controls); j++)
                        found |= strcmp(sget(json_array_get(controls, j), "id"), sget(v, "control")) == 0;
                if (!found)
                        return bad(err, PRC_E_CATALOG_REFERENCE, ptr, "control '%s' is not defined",
                                   sget(v, "control"));
                if (!severity_ok(sget(v, "severity")))
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "severity '%s' is not info, low, medium, high "
                                   "or critical", sget(v, "severity"));
                an = json_object_get(v, "analysis");
                bs = json_object_get(v, "bindings");
                if ((an == NULL) == (bs == NULL))
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "%s", "an assertion has exactly one of "
                                   "'analysis' and 'bindings'");
                if (bs != NULL && json_array_size(bs) == 0)
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "%s", "'bindings' must not be empty");
                if (bs != NULL)
                        nb += json_array_size(bs);
        }
        c->nassertions = json_array_size(assertions);
        c->assertions = calloc(c->nassertions ? c->nassertions : 1, sizeof(*c->assertions));
        c->bindings = calloc(nb ? nb : 1, sizeof(*c->bindings));
        if (c->assertions == NULL || c->bindings == NULL)
                return prc_err_oom(err, "the catalog");
        json_array_foreach(assertions, i, v) {
                prc_assertion *a = &c->assertions[i];
                const json_t *an = json_object_get(v, "analysis"), *bs = json_object_get(v, "bindings"), *b;

                a->id = sget(v, "id");
                a->control = sget(v, "control");
                a->title = sget(v, "title");
                a->rationale = sget(v, "rationale");
                a->remediation = sget(v, "remediation");
                a->severity = sget(v, "severity");
                if (an != NULL) {
                        snprintf(ptr, sizeof(ptr), "/assertions/%zu/analysis", i);
                        if (!prc_json_fields(an, ptr, analysis_fields, PRC_ARRAY_LEN(analysis_fields), err))
                                return false;
                        a->analysis = sget(an, "id");
                        if (!prc_builtin_known(a->analysis))
                                return bad(err, PRC_E_UNKNOWN_ANALYSIS, ptr, "no built-in analysis '%s'",
                                           a->analysis);
                        if (!prc_policy_from_json(json_object_get(an, "pass_outcomes"),
                                                  json_object_get(an, "fail_outcomes"), ptr,
                                                  &a->analysis_policy, err))
                                return false;
                        continue;
                }
                a->bindings = &c->bindings[bi];
                json_array_foreach(bs, j, b) {
                        prc_binding *pb = &c->bindings[bi];
                        snprintf(ptr, sizeof(ptr), "/assertions/%zu/bindings/%zu", i, j);
                        if (!prc_json_fields(b, ptr, binding_fields, PRC_ARRAY_LEN(binding_fields), err))
                                return false;
                        pb->adapter_id = sget(b, "adapter_id");
                        pb->manifest_sha256 = sget(b, "manifest_sha256");
                        pb->observation_kind = sget(b, "observation_kind");
                        if (!prc_digest_valid(pb->manifest_sha256))
                                return bad(err, PRC_E_INVALID_DIGEST, ptr, "%s is not 64 lowercase hex",
                                           "manifest_sha256");
                        if (!prc_policy_from_json(json_object_get(b, "pass_outcomes"),
                                                  json_object_get(b, "fail_outcomes"), ptr, &pb->policy, err))
                                return false;
                        for (size_t k = 0; k < j; k++) {
                                const prc_binding *q = &a->bindings[k];
                                if (strcmp(q->adapter_id, pb->adapter_id) == 0 &&
                                    strcmp(q->manifest_sha256, pb->manifest_sha256) == 0 &&
                                    strcmp(q->observation_kind, pb->observation_kind) == 0)
                                        return bad(err, PRC_E_CATALOG_DUPLICATE_ID, ptr, "%s",
                                                   "the same binding appears twice");
                        }
                        bi++;
                        a->nbindings++;
                }
        }
        c->nprofiles = json_array_size(profiles);
        c->profiles = calloc(c->nprofiles ? c->nprofiles : 1, sizeof(*c->profiles));
        if (c->profiles == NULL)
                return prc_err_oom(err, "catalog profiles");
        json_array_foreach(profiles, i, v) {
                struct prc_profile *p = &c->profiles[i];
                const json_t *ids, *idv;

                snprintf(ptr, sizeof(ptr), "/profiles/%zu", i);
                if (!prc_json_fields(v, ptr, profile_fields, PRC_ARRAY_LEN(profile_fields), err))
                        return false;
                p->id = sget(v, "id");
                if (!id_ok(p->id))
                        return bad(err, PRC_E_INVALID_VALUE, ptr, "%s is not a valid id", "profile id");
                for (j = 0; j < i; j++)
                        if (strcmp(c->profiles[j].id, p->id) == 0)
                                return bad(err, PRC_E_CATALOG_DUPLICATE_ID, ptr, "profile '%s' is defined twice",
                                           p->id);
                ids = json_object_get(v, "assertions");
                p->items = calloc(json_array_size(ids) ? json_array_size(ids) : 1, sizeof(*p->items));
                if (p->items == NULL)
                        return prc_err_oom(err, "a catalog profile");
                json_array_foreach(ids, j, idv) {
                        const prc_assertion *hit = NULL;
                        snprintf(ptr, sizeof(ptr), "/profiles/%zu/assertions/%zu", i, j);
                        if (!json_is_string(idv))
                                return bad(err, PRC_E_WRONG_TYPE, ptr, "%s", "an assertion id must be a string");
                        for (size_t k = 0; k < c->nassertions; k++)
                                if (strcmp(c->assertions[k].id, json_string_value(idv)) == 0)
                                        hit = &c->assertions[k];
                        if (hit == NULL)
                                return bad(err, PRC_E_CATALOG_REFERENCE, ptr, "assertion '%s' is not defined",
                                           json_string_value(idv));
                        for (size_t k = 0; k < p->n; k++)
                                if (p->items[k] == hit)
                                        return bad(err, PRC_E_CATALOG_DUPLICATE_ID, ptr,
                                                   "assertion '%s' is listed twice", hit->id);
                        p->items[p->n++] = hit;
                }
        }
        return true;
}

prc_catalog *prc_catalog_parse(const uint8_t *p, size_t n, prc_err *err)
{
        prc_catalog *c = calloc(1, sizeof(*c));

        if (c == NULL) {
                prc_err_oom(err, "the catalog");
                return NULL;
        }
        c->doc = prc_yaml_load(p, n, &prc_limits_operator, 0, err);
        if (c->doc == NULL || !validate(c, err) || !prc_jcs_digest(c->doc, c->sha256, err)) {
                prc_catalog_free(c);
                return NULL;
        }
        return c;
}

prc_catalog *prc_catalog_load(const char *root, prc_err *err)
{
        int dfd, fd;
        struct stat st;
        prc_buf b;
        prc_catalog *c = NULL;

        /* The root itself and catalog.yaml must be real: a symlink could point anywhere. */
        dfd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dfd < 0) {
                prc_err_sys(err, errno == ELOOP || errno == ENOTDIR ? PRC_E_CATALOG_PATH : PRC_E_IO, errno,
                            "cannot open catalog root '%s'", root);
                prc_err_set_file(err, root);
                return NULL;
        }
        fd = openat(dfd, "catalog.yaml", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        close(dfd);
        if (fd < 0) {
                prc_err_sys(err, errno == ELOOP ? PRC_E_CATALOG_PATH : PRC_E_IO, errno,
                            "cannot open '%s/catalog.yaml'", root);
                prc_err_set_file(err, root);
                return NULL;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                prc_err_set(err, PRC_E_CATALOG_PATH, "'%s/catalog.yaml' is not a regular file", root);
                return NULL;
        }
        prc_buf_init(&b, prc_limits_operator.input_max);
        if (prc_fd_read_all(fd, prc_limits_operator.input_max, &b, err))
                c = prc_catalog_parse(b.data ? b.data : (const uint8_t *)"", b.len, err);
        close(fd);
        prc_buf_clear(&b);
        if (c == NULL) {
                char f[300];
                snprintf(f, sizeof(f), "%s/catalog.yaml", root);
                prc_err_set_file(err, f);
        }
        return c;
}

const char *prc_catalog_id(const prc_catalog *c)
{
        return sget(c->doc, "catalog_id");
}

int64_t prc_catalog_revision(const prc_catalog *c)
{
        return json_integer_value(json_object_get(c->doc, "revision"));
}

const char *prc_catalog_sha256(const prc_catalog *c)
{
        return c->sha256;
}

bool prc_catalog_profile(const prc_catalog *c, const char *profile, const prc_assertion *const **out,
                         size_t *out_n, prc_err *err)
{
        for (size_t i = 0; i < c->nprofiles; i++) {
                if (strcmp(c->profiles[i].id, profile) == 0) {
                        *out = c->profiles[i].items;
                        *out_n = c->profiles[i].n;
                        return true;
                }
        }
        return prc_err_set(err, PRC_E_UNKNOWN_PROFILE, "profile '%s' is not in catalog '%s'", profile,
                           prc_catalog_id(c));
}

size_t prc_catalog_count(const prc_catalog *c)
{
        return c->nassertions;
}

const prc_assertion *prc_catalog_at(const prc_catalog *c, size_t i)
{
        return i < c->nassertions ? &c->assertions[i] : NULL;
}

void prc_assertion_rule(const prc_assertion *a, char *out, size_t cap)
{
        char pol[512];
        size_t len;

        if (a->analysis != NULL) {
                prc_policy_describe(&a->analysis_policy, pol, sizeof(pol));
                snprintf(out, cap, "built-in analysis %s: %s", a->analysis, pol);
                return;
        }
        len = (size_t)snprintf(out, cap, "adapter-bound; only an accepted, completed execution is evidence, and "
                               "an adapter not launched (inspect mode) makes it Blocked");
        for (size_t i = 0; i < a->nbindings && len < cap; i++) {
                prc_policy_describe(&a->bindings[i].policy, pol, sizeof(pol));
                len += (size_t)snprintf(out + len, cap - len, ". Adapter %s (manifest sha256:%.12s...), "
                                        "observations of kind %s: %s", a->bindings[i].adapter_id,
                                        a->bindings[i].manifest_sha256, a->bindings[i].observation_kind, pol);
        }
        if (a->nbindings > 1 && len < cap)
                snprintf(out + len, cap - len, ". Over several bindings the worst state wins");
}
