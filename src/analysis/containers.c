/*
 * containers.c - the container family's analyses over Dockerfile
 * ManifestDocs: docker-unpinned-base, docker-root-user, docker-remote-add
 * (docs/analyses.md gives each decision rule).
 * Trust: engine-side; reads checked ManifestDocs only (the extractor did
 * the reading: stages, ARG substitution of FROM, USER, ADD sources).
 */
#include "analysis/containers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gha.h"
#include "base/compiler.h"

static const char *str(const json_t *o, const char *k)
{
        return json_string_value(json_object_get(o, k));
}

static const json_t *stages_of(const json_t *md)
{
        return json_object_get(json_object_get(md, "details"), "stages");
}

/* "FROM [--platform=P] BASE [AS NAME]" as written, for locations. */
static void from_text(const json_t *stage, char *out, size_t outsz)
{
        const char *plat = str(stage, "platform"), *name = str(stage, "name");

        snprintf(out, outsz, "FROM %s%s%s%.1000s%s%s", plat ? "--platform=" : "", plat ? plat : "", plat ? " " : "",
                 str(stage, "base_raw") ? str(stage, "base_raw") : "", name ? " AS " : "", name ? name : "");
}

/* --- docker-unpinned-base --- */

static bool unpinned_stage(prc_actx *cx, const char *path, const json_t *st, prc_err *err)
{
        const json_t *img = json_object_get(st, "image"), *un = json_object_get(st, "unresolved");
        char text[1200], msg[400];
        uint32_t line = prc_gha_line(st);

        if (json_is_true(json_object_get(st, "scratch")) || json_is_integer(json_object_get(st, "from_stage")))
                return true;
        if (json_array_size(un) > 0) {
                snprintf(msg, sizeof(msg), "the base image names ARG %.100s, which has no default (given only at "
                         "build time)", json_string_value(json_array_get(un, 0)));
                return prc_act_unresolved(cx, path, line, msg, err);
        }
        if (!json_is_object(img))
                return prc_act_unresolved(cx, path, line, "the base is not a valid image reference", err);
        if (str(img, "digest") != NULL)
                return true;
        from_text(st, text, sizeof(text));
        snprintf(msg, sizeof(msg), "base image %.200s is not pinned by @sha256 digest (%s can be moved)",
                 str(img, "raw") ? str(img, "raw") : "", str(img, "tag") ? "its tag" : "no tag: latest");
        return prc_act_found(cx, path, line, text, msg, err);
}

/* COPY --from=IMAGE pulls an image as FROM does. */
static bool unpinned_copy_from(prc_actx *cx, const char *path, const json_t *st, prc_err *err)
{
        const json_t *in;
        size_t i;

        json_array_foreach(json_object_get(st, "instructions"), i, in) {
                const json_t *img = json_object_get(in, "from_image");
                char text[1200], msg[400];
                if (!json_is_object(img) || str(img, "digest") != NULL)
                        continue;
                snprintf(text, sizeof(text), "%s --from=%.1000s", str(in, "instruction"),
                         str(in, "from") ? str(in, "from") : "");
                snprintf(msg, sizeof(msg), "%s --from pulls image %.200s, not pinned by @sha256 digest",
                         str(in, "instruction"), str(img, "raw") ? str(img, "raw") : "");
                if (!prc_act_found(cx, path, prc_gha_line(in), text, msg, err))
                        return false;
        }
        return true;
}

bool prc_docker_unpinned_base(prc_actx *cx, prc_err *err)
{
        const json_t *md, *st;
        size_t k;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DOCKERFILE, &i)) != NULL; i++) {
                const char *path = str(md, "path");
                json_array_foreach(stages_of(md), k, st) {
                        if (!unpinned_stage(cx, path, st, err) || !unpinned_copy_from(cx, path, st, err))
                                return false;
                }
        }
        return true;
}

/* --- docker-root-user --- */

bool prc_docker_user_is_root(const char *user)
{
        size_t n = strcspn(user, ":"), zeros = strspn(user, "0");

        /* Docker reads a numeric user as a UID: 0, 00, ... are all root. */
        return (n == 4 && strncmp(user, "root", 4) == 0) || (n > 0 && zeros >= n);
}

static bool name_char(char c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/*
 * Substitute $NAME, ${NAME}, ${NAME:-w} and ${NAME-w} in v from vars (name
 * -> string; JSON null: declared without a value).  False when a variable
 * has no static value or the form is another one.
 */
static bool subst(const char *v, const json_t *vars, char *out, size_t outsz)
{
        size_t o = 0;

        while (*v) {
                char name[128], def[256];
                const char *val;
                size_t n = 0;
                bool braced, has_def = false;
                if (*v != '$') {
                        if (o + 1 >= outsz)
                                return false;
                        out[o++] = *v++;
                        continue;
                }
                v++;
                braced = *v == '{';
                v += braced;
                while (name_char(*v) && n + 1 < sizeof(name))
                        name[n++] = *v++;
                name[n] = 0;
                if (n == 0 || name_char(*v))
                        return false;   /* no name, or one too long to be a real ARG */
                if (braced) {
                        size_t d = 0;
                        if (v[0] == ':' && v[1] == '-')
                                v += 2, has_def = true;
                        else if (v[0] == '-')
                                v++, has_def = true;
                        while (has_def && *v && *v != '}' && d + 1 < sizeof(def))
                                def[d++] = *v++;
                        def[d] = 0;
                        if (*v != '}')
                                return false;
                        v++;
                }
                val = json_string_value(json_object_get(vars, name));
                if ((val == NULL || val[0] == 0) && has_def)
                        val = def;
                if (val == NULL)
                        return false;
                if (o + strlen(val) >= outsz)
                        return false;
                memcpy(out + o, val, strlen(val));
                o += strlen(val);
        }
        out[o] = 0;
        return true;
}

/* ENV NAME=value ... (unquoted words) or ENV NAME value: into vars; a quoted form makes its names unknown. */
static void env_vars(const char *args, json_t *vars)
{
        const char *p = args, *sp = strchr(args, ' '), *eq = strchr(args, '=');

        if (args == NULL)
                return;
        if (eq == NULL || (sp != NULL && sp < eq)) {
                /* legacy ENV NAME value: the rest of the line is the value */
                char name[128];
                size_t n = sp != NULL ? (size_t)(sp - args) : strlen(args);
                if (n == 0 || n >= sizeof(name))
                        return;
                memcpy(name, args, n);
                name[n] = 0;
                json_object_set_new(vars, name, strpbrk(args, "\"'\\$") ? json_null()
                                                                         : json_string(sp != NULL ? sp + 1 : ""));
                return;
        }
        while (*p) {
                char name[128], val[512];
                size_t n = 0, k = 0;
                while (*p == ' ' || *p == '\t')
                        p++;
                while (*p && *p != '=' && *p != ' ' && n + 1 < sizeof(name))
                        name[n++] = *p++;
                name[n] = 0;
                if (*p != '=')
                        return;
                p++;
                while (*p && *p != ' ' && k + 1 < sizeof(val))
                        val[k++] = *p++;
                val[k] = 0;
                json_object_set_new(vars, name, strpbrk(val, "\"'\\$") ? json_null() : json_string(val));
        }
}

/* The ARG declared on line in stage (its default, else the global ARG's default). */
static void arg_var(const json_t *md, const json_t *stage, json_int_t line, json_t *vars)
{
        const json_t *a, *g;
        size_t i, j;

        json_array_foreach(json_object_get(stage, "args"), i, a) {
                const char *name = str(a, "name"), *def = str(a, "default");
                if (json_integer_value(json_object_get(a, "line")) != line || name == NULL)
                        continue;
                if (def == NULL) {
                        json_array_foreach(json_object_get(json_object_get(md, "details"), "args"), j, g)
                                if (str(g, "name") != NULL && strcmp(str(g, "name"), name) == 0)
                                        def = str(g, "default");
                }
                json_object_set_new(vars, name, def != NULL ? json_string(def) : json_null());
        }
}

/* The stage whose USER is in effect at the end of stage i: itself, else the earlier stage it is built FROM. */
static const json_t *user_stage(const json_t *stages, size_t i)
{
        for (size_t hops = 0; hops <= json_array_size(stages); hops++) {
                const json_t *st = json_array_get(stages, i), *from;
                if (st == NULL)
                        return NULL;
                if (json_is_object(json_object_get(st, "user")))
                        return st;
                from = json_object_get(st, "from_stage");
                if (!json_is_integer(from) || (size_t)json_integer_value(from) >= i)
                        return NULL;
                i = (size_t)json_integer_value(from);
        }
        return NULL;
}

/* A final stage without USER on an image whose tag says it runs unprivileged (distroless :nonroot, ...). */
static bool nonroot_image(const json_t *stages, size_t i)
{
        for (size_t hops = 0; hops <= json_array_size(stages); hops++) {
                const json_t *st = json_array_get(stages, i), *from = json_object_get(st, "from_stage");
                const char *tag;
                if (!json_is_integer(from)) {
                        tag = str(json_object_get(st, "image"), "tag");
                        return tag != NULL && strstr(tag, "nonroot") != NULL;
                }
                if ((size_t)json_integer_value(from) >= i)
                        return false;
                i = (size_t)json_integer_value(from);
        }
        return false;
}

static bool root_final(prc_actx *cx, const json_t *md, prc_err *err)
{
        const char *path = str(md, "path");
        const json_t *stages = stages_of(md), *fin, *st, *u, *in;
        json_int_t fi = json_integer_value(json_object_get(json_object_get(md, "details"), "final_stage"));
        char text[1200], msg[400], val[512];
        json_t *vars;
        size_t i;

        fin = json_array_get(stages, (size_t)fi);
        if (fin == NULL)
                return true;
        st = user_stage(stages, (size_t)fi);
        if (st == NULL) {
                if (nonroot_image(stages, (size_t)fi))
                        return true;
                from_text(fin, text, sizeof(text));
                return prc_act_found(cx, path, prc_gha_line(fin), text,
                                     "the final stage sets no USER (nor do the stages it is built from): the "
                                     "container runs as the base image's user, root unless it says otherwise", err);
        }
        u = json_object_get(st, "user");
        vars = json_object();
        if (vars == NULL)
                return prc_err_oom(err, "USER variables");
        json_array_foreach(json_object_get(st, "instructions"), i, in) {
                const char *ins = str(in, "instruction");
                if (json_integer_value(json_object_get(in, "line")) >= json_integer_value(json_object_get(u, "line")))
                        break;
                if (ins != NULL && strcmp(ins, "ARG") == 0)
                        arg_var(md, st, json_integer_value(json_object_get(in, "line")), vars);
                else if (ins != NULL && strcmp(ins, "ENV") == 0)
                        env_vars(str(in, "args"), vars);
        }
        snprintf(text, sizeof(text), "USER %.1000s", str(u, "value") ? str(u, "value") : "");
        if (!subst(str(u, "value") ? str(u, "value") : "", vars, val, sizeof(val))) {
                json_decref(vars);
                return prc_act_unresolved(cx, path, prc_gha_line(u),
                                          "the final USER names a variable without a static value", err);
        }
        json_decref(vars);
        if (!prc_docker_user_is_root(val))
                return true;
        snprintf(msg, sizeof(msg), "the final stage runs as root (USER %.100s%s)", val,
                 st != fin ? ", set in the stage it is built from" : "");
        return prc_act_found(cx, path, prc_gha_line(u), text, msg, err);
}

bool prc_docker_root_user(prc_actx *cx, prc_err *err)
{
        const json_t *md;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DOCKERFILE, &i)) != NULL; i++)
                if (!root_final(cx, md, err))
                        return false;
        return true;
}

/* --- docker-remote-add --- */

/* A git source pinned to a full commit (URL#<40 hex>, or #<40 hex>:subdir). */
static bool git_commit_ref(const char *v)
{
        const char *h = strrchr(v, '#');
        size_t n = 0;

        if (h == NULL)
                return false;
        for (h++; (h[n] >= '0' && h[n] <= '9') || (h[n] >= 'a' && h[n] <= 'f'); n++)
                ;
        return n == 40 && (h[n] == 0 || h[n] == ':');
}

bool prc_docker_remote_add(prc_actx *cx, prc_err *err)
{
        const json_t *md, *st, *in, *src;
        size_t k, j, s;

        for (size_t i = 0; (md = prc_act_mdoc(cx, PRC_AK_DOCKERFILE, &i)) != NULL; i++) {
                const char *path = str(md, "path");
                json_array_foreach(stages_of(md), k, st) {
                        json_array_foreach(json_object_get(st, "instructions"), j, in) {
                                const char *ins = str(in, "instruction");
                                if (ins == NULL || strcmp(ins, "ADD") != 0 || str(in, "checksum") != NULL)
                                        continue;
                                json_array_foreach(json_object_get(in, "sources"), s, src) {
                                        const char *kind = str(src, "kind"), *v = str(src, "value");
                                        char text[1200], msg[400];
                                        if (kind == NULL || v == NULL)
                                                continue;
                                        if (strcmp(kind, "url") == 0)
                                                snprintf(msg, sizeof(msg), "ADD fetches %.200s without --checksum", v);
                                        else if (strcmp(kind, "git") == 0 && !git_commit_ref(v))
                                                snprintf(msg, sizeof(msg), "ADD clones %.200s at a moving ref "
                                                         "(no #<commit> and no --checksum)", v);
                                        else
                                                continue;
                                        snprintf(text, sizeof(text), "ADD %.1000s", v);
                                        if (!prc_act_found(cx, path, prc_gha_line(in), text, msg, err))
                                                return false;
                                }
                        }
                }
        }
        return true;
}
