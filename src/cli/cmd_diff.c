/*
 * cmd_diff.c - `prc diff OLD NEW [--format text|json]`: the changes between
 * two versions of an AUR package a reviewer must see before accepting the
 * update (issue 20).  OLD and NEW are package directories, snapshot
 * archives (.tar, .tar.gz/.tgz, .tar.zst; a single top-level directory is
 * the package root), or aur:NAME / aur:NAME@COMMIT, fetched over HTTPS
 * (net/aur.h) after both arguments were checked, and walked like archives.
 * Trust: both versions are hostile.  Directories are inventoried and read
 * through the verified inventory reader; archives are walked in the content
 * worker and never opened here; every PKGBUILD, .SRCINFO and install script
 * is tokenized in the worker (PRC_OP_TOKENIZE).  A file the worker refuses
 * is itself a risky change ("unanalyzed"), never a clean diff.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/limits.h"
#include "content/archive_target.h"
#include "content/client.h"
#include "content/dispatch.h"
#include "engine/pkgdiff.h"
#include "inventory/inventory.h"
#include "net/aur.h"

struct side {
        const char         *arg;        /* borrowed: argv */
        bool                aur;        /* aur:NAME[@COMMIT] */
        char                name[PRC_AUR_NAME_MAX + 1];
        const char         *commit;     /* borrowed: within arg, NULL: the current snapshot */
        char                url[PRC_AUR_URL_MAX];
        prc_buf             bytes;      /* the fetched archive */
        prc_archive_target *t;          /* owned, archives only */
        prc_inventory      *inv;        /* owned */
        json_t             *facts;      /* owned */
};

static bool unanalyzed(json_t *list, const char *path, const prc_err *e)
{
        return json_array_append_new(list, json_pack("{s:s,s:s,s:s}", "path", path, "class", prc_err_name(e->cls),
                                                      "reason", e->msg)) == 0;
}

/* Read path from the inventory and tokenize it; a refusal is recorded in list (not an error of the diff). */
static bool tokenize(prc_client *c, const prc_inventory *inv, const char *path, uint16_t sub, json_t *list,
                     json_t **out, prc_err *err)
{
        prc_buf b;
        prc_err pe;
        bool ok;

        *out = NULL;
        prc_err_init(&pe);
        prc_buf_init(&b, prc_limits_default.input_max);
        ok = prc_inventory_read(inv, path, prc_limits_default.input_max, &b, &pe) &&
             prc_client_call(c, PRC_OP_TOKENIZE, sub, 0, path, NULL, 0, b.data ? b.data : (const uint8_t *)"", b.len,
                             true, out, &pe);
        prc_buf_clear(&b);
        if (!ok && !unanalyzed(list, path, &pe))
                return prc_err_oom(err, "the diff");
        return true;
}

#define AUR_PREFIX "aur:"

/*
 * aur:NAME or aur:NAME@COMMIT: split at the last '@' (names may hold '@', so
 * such a name is only reachable with a commit) and check both parts, so a
 * bad argument never becomes a request.  A local path starting with aur: is
 * written ./aur:...  Errors: aur-name-invalid, aur-commit-invalid.
 */
static bool parse_side(struct side *s, prc_err *err)
{
        const char *spec = s->arg + strlen(AUR_PREFIX), *at;
        size_t n;

        if (strncmp(s->arg, AUR_PREFIX, strlen(AUR_PREFIX)) != 0)
                return true;
        s->aur = true;
        at = strrchr(spec, '@');
        n = at != NULL ? (size_t)(at - spec) : strlen(spec);
        if (n > PRC_AUR_NAME_MAX)
                return prc_err_set(err, PRC_E_AUR_NAME_INVALID, "a package name has 1 to %d bytes", PRC_AUR_NAME_MAX);
        memcpy(s->name, spec, n);
        s->name[n] = '\0';
        s->commit = at != NULL ? at + 1 : NULL;
        return prc_aur_name_check(s->name, err) && (s->commit == NULL || prc_aur_commit_check(s->commit, err));
}

static bool fetch_side(struct side *s, const prc_aur_opts *base, prc_err *err)
{
        prc_aur_opts o = *base;
        prc_https_result res;

        o.commit = s->commit;
        return prc_aur_fetch(s->name, &o, &s->bytes, s->url, &res, err);
}

static bool load_side(prc_client *c, struct side *s, prc_err *err)
{
        struct stat st;
        json_t *pkgbuild = NULL, *srcinfo = NULL, *installs = json_object(), *list = json_array();
        bool ok = false;

        if (installs == NULL || list == NULL) {
                prc_err_oom(err, "the diff");
                goto out;
        }
        if (s->aur) {
                if (!prc_archive_target_open(c, s->bytes.data != NULL ? s->bytes.data : (const uint8_t *)"",
                                             s->bytes.len, &s->t, err) ||
                    !prc_archive_target_inventory(s->t, &s->inv, err))
                        goto out;
        } else if (stat(s->arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
                if (!prc_archive_target_open_file(c, s->arg, &s->t, err) ||
                    !prc_archive_target_inventory(s->t, &s->inv, err))
                        goto out;
        } else if (!prc_inventory_build(s->arg, NULL, &s->inv, err)) {
                goto out;
        }
        /* Rejected members are not analyzed: the diff cannot vouch for them. */
        for (size_t i = 0; i < prc_inventory_unrep_count(s->inv); i++) {
                const prc_inv_unrep *u = prc_inventory_unrep(s->inv, i);
                json_t *o = json_pack("{s:s,s:s,s:s}", "path", u->raw, "class", u->reason, "reason",
                                      "not analyzed (rejected or unrepresentable)");
                if (o == NULL || json_array_append_new(list, o) != 0) {
                        prc_err_oom(err, "the diff");
                        goto out;
                }
        }
        if (prc_inventory_find(s->inv, "PKGBUILD") < 0) {
                prc_err pe;
                prc_err_init(&pe);
                prc_err_set(&pe, PRC_E_INV_NO_SUCH_ENTRY, "no PKGBUILD at the package root");
                if (!unanalyzed(list, "PKGBUILD", &pe)) {
                        prc_err_oom(err, "the diff");
                        goto out;
                }
        } else if (!tokenize(c, s->inv, "PKGBUILD", PRC_TOK_PKGBUILD, list, &pkgbuild, err)) {
                goto out;
        }
        if (prc_inventory_find(s->inv, ".SRCINFO") >= 0 &&
            !tokenize(c, s->inv, ".SRCINFO", PRC_TOK_SRCINFO, list, &srcinfo, err))
                goto out;
        /* Install scripts: every root file named *.install, and the one install= names. */
        for (size_t i = 0; i < prc_inventory_count(s->inv); i++) {
                const prc_inv_entry *e = prc_inventory_entry(s->inv, i);
                size_t l = strlen(e->path);
                bool named = false;
                const json_t *as;
                size_t k;
                json_t *doc;
                json_array_foreach(json_object_get(pkgbuild, "assignments"), k, as)
                        named |= strcmp(json_string_value(json_object_get(as, "name")), "install") == 0 &&
                                 json_is_string(json_object_get(as, "value")) &&
                                 strcmp(json_string_value(json_object_get(as, "value")), e->path) == 0;
                if (e->type != PRC_INV_FILE || strchr(e->path, '/') != NULL ||
                    !(named || (l > 8 && strcmp(e->path + l - 8, ".install") == 0)))
                        continue;
                if (!tokenize(c, s->inv, e->path, PRC_TOK_PKGBUILD, list, &doc, err))
                        goto out;
                if (doc != NULL && json_object_set_new(installs, e->path, doc) != 0) {
                        prc_err_oom(err, "the diff");
                        goto out;
                }
        }
        s->facts = prc_pkgdiff_facts(pkgbuild, srcinfo, installs, list, err);
        ok = s->facts != NULL;
out:
        json_decref(pkgbuild);
        json_decref(srcinfo);
        json_decref(installs);
        json_decref(list);
        return ok;
}

static json_t *side_json(const struct side *s)
{
        json_t *o = json_pack("{s:s}", "inventory_digest", prc_inventory_digest(s->inv));

        if (o != NULL && s->t != NULL)
                json_object_set_new(o, "archive", prc_archive_target_json(s->t));
        /* A URL is an input, recorded beside the digest of exactly the bytes that were walked. */
        if (o != NULL && s->aur)
                json_object_set_new(o, "aur", s->commit != NULL ?
                                    json_pack("{s:s,s:s,s:s}", "package", s->name, "commit", s->commit, "url", s->url) :
                                    json_pack("{s:s,s:s}", "package", s->name, "url", s->url));
        return o;
}

static void print_text(const json_t *res)
{
        static const char *const which[] = { "old", "new" };
        const json_t *c;
        size_t i;

        for (int k = 0; k < 2; k++) {
                const json_t *side = json_object_get(res, which[k]);
                const json_t *aur = json_object_get(side, "aur");
                const char *commit = json_string_value(json_object_get(aur, "commit"));
                if (aur == NULL)
                        continue;
                printf("%s: AUR package %s%s%s from %s, sha256 %s\n", which[k],
                       json_string_value(json_object_get(aur, "package")), commit ? "@" : "", commit ? commit : "",
                       json_string_value(json_object_get(aur, "url")),
                       json_string_value(json_object_get(json_object_get(side, "archive"), "sha256")));
        }

        json_array_foreach(json_object_get(res, "changes"), i, c) {
                json_int_t line = json_integer_value(json_object_get(c, "line"));
                printf("%-6s %-22s %s", json_is_true(json_object_get(c, "risky")) ? "RISKY" : "info",
                       json_string_value(json_object_get(c, "kind")), json_string_value(json_object_get(c, "path")));
                if (line > 0)
                        printf(":%lld", (long long)line);
                printf("  %s\n", json_string_value(json_object_get(c, "detail")));
        }
        printf("%zu changes, %lld risky\n", json_array_size(json_object_get(res, "changes")),
               (long long)json_integer_value(json_object_get(res, "risky")));
}

int cmd_diff(int argc, char **argv)
{
        static const struct option opts[] = {
                { "format", required_argument, NULL, 'f' },
                { "aur-url", required_argument, NULL, 'u' },
                { "cacert", required_argument, NULL, 'C' },
                { "timeout", required_argument, NULL, 'W' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", NULL };
        const char *format = "text";
        struct side sides[2] = { { 0 }, { 0 } };
        prc_client_opts copts;
        prc_aur_opts aopts = { 0 };
        bool aur_extra = false;
        prc_client *client = NULL;
        json_t *res = NULL;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                if (c == 'f') {
                        format = optarg;
                } else {
                        int urc = cli_aur_option("diff", c, optarg, &aopts);
                        if (urc != 0)
                                return urc;
                        aur_extra = true;
                }
        }
        if (!cli_format_ok("diff", format, formats))
                return PRC_EXIT_USAGE;
        if (optind + 2 != argc)
                return cli_usage("diff", "expected OLD and NEW");
        for (int k = 0; k < 2; k++) {
                sides[k].arg = argv[optind + k];
                prc_buf_init(&sides[k].bytes, PRC_AUR_SNAPSHOT_MAX);
        }
        /* Both arguments are checked before either is fetched: a bad one never becomes a request. */
        for (int k = 0; k < 2; k++)
                if (!parse_side(&sides[k], &err)) {
                        prc_err_set_file(&err, sides[k].arg);
                        cli_print_err(&err);
                        rc = PRC_EXIT_USAGE;
                        goto out;
                }
        if (aur_extra && !sides[0].aur && !sides[1].aur) {
                rc = cli_usage("diff", "--aur-url, --cacert and --timeout go with an aur:NAME[@COMMIT] version");
                goto out;
        }
        for (int k = 0; k < 2; k++)
                if (sides[k].aur && !fetch_side(&sides[k], &aopts, &err)) {
                        prc_err_set_file(&err, sides[k].arg);
                        cli_print_err(&err);
                        rc = err.cls == PRC_E_AUR_URL_INVALID ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
                        goto out;
                }
        cli_client_opts(&copts);
        client = prc_client_new(&copts, &err);
        if (client == NULL)
                goto fail;
        for (int k = 0; k < 2; k++)
                if (!load_side(client, &sides[k], &err)) {
                        prc_err_set_file(&err, sides[k].arg);
                        goto fail;
                }
        res = prc_pkgdiff_compare(sides[0].facts, sides[1].facts, &err);
        if (res == NULL)
                goto fail;
        json_object_set_new(res, "schema", json_string("prc.diff/v1"));
        json_object_set_new(res, "old", side_json(&sides[0]));
        json_object_set_new(res, "new", side_json(&sides[1]));
        if (strcmp(format, "json") == 0) {
                if (!cli_json_out(res, &err))
                        goto fail;
        } else {
                print_text(res);
        }
        rc = json_integer_value(json_object_get(res, "risky")) > 0 ? PRC_EXIT_FAIL : PRC_EXIT_OK;
        goto out;
fail:
        cli_print_err(&err);
        /* No diff could be made (a version unreadable, a listing refused): an execution error, never clean. */
        rc = err.cls == PRC_E_USAGE ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
out:
        json_decref(res);
        for (int k = 0; k < 2; k++) {
                json_decref(sides[k].facts);
                prc_inventory_free(sides[k].inv);
                prc_archive_target_free(sides[k].t);
                prc_buf_clear(&sides[k].bytes);
        }
        prc_client_free(client);
        return rc;
}
