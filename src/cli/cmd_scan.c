/*
 * cmd_scan.c - `prc scan`: prc's main job.
 * Trust: the target is hostile; the catalog root is operator input.  Target
 * bytes are parsed only in the content worker (through cli_scan_parse below).
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/data.h"
#include "adapter/native/native.h"
#include "adapter/oci.h"
#include "adapter/registry.h"
#include "content/archive_target.h"
#include "net/aur.h"
#include "content/client.h"
#include "content/parsers/shell.h"
#include "engine/catalog.h"
#include "engine/scan.h"
#include "engine/state.h"

static void *prestart(void *arg)
{
        prc_err err;
        bool started;

        prc_err_init(&err);
        started = prc_client_start(arg, &err);
        (void)started;  /* a failure is met again, and reported, by the first request */
        return NULL;
}

void cli_parse_prestart(struct cli_parse_ctx *pc)
{
        pc->starting = pthread_create(&pc->starter, NULL, prestart, pc->client) == 0;
}

void cli_parse_ready(struct cli_parse_ctx *pc)
{
        if (pc->starting)
                pthread_join(pc->starter, NULL);
        pc->starting = false;
}

bool cli_scan_parse(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n,
                    json_t **out_doc, prc_err *err)
{
        struct cli_parse_ctx *pc = ctx;
        json_t *doc = NULL;
        uint16_t op = PRC_OP_PARSE, fmt = 0;
        uint32_t flags = 0;
        bool ok;

        if (strcmp(format, "shell") == 0) {
                const char *base = strrchr(path, '/');
                op = PRC_OP_TOKENIZE;
                fmt = strcmp(base ? base + 1 : path, ".SRCINFO") == 0 ? PRC_TOK_SRCINFO : PRC_TOK_PKGBUILD;
                /* Issue 20: a file that is not valid shell is still searched; its errors come back listed. */
                flags = PRC_SHELL_RECOVER;
        }
        else if (strcmp(format, "archive") == 0)
                op = PRC_OP_WALK;
        else
                fmt = prc_format_by_name(format);
        cli_parse_ready(pc);
        /* A document nobody reads: the worker checks it whole and sends only the verdict (frame.h). */
        if (out_doc == NULL)
                flags |= PRC_REQ_VERDICT;
        /* An operation the worker does not serve comes back as a named refusal: a gap, never a pass. */
        ok = prc_client_call(pc->client, op, fmt, flags, path, NULL, 0, p, n, true, &doc, err);
        if (ok && out_doc != NULL) {
                *out_doc = doc;
                doc = NULL;
        }
        json_decref(doc);
        return ok;
}

/*
 * Issue 20: an archive target.  The parent reads and hashes the archive's
 * bytes (or takes the fetched ones) and never opens the archive: the worker
 * lists the members, and the listing is the inventory.
 */
struct target_ctx {
        prc_client         *client;     /* borrowed */
        const char         *path;       /* borrowed: the archive file, or NULL when bytes are given */
        const uint8_t      *bytes;      /* borrowed: fetched archive bytes (--aur) */
        size_t              n;
        prc_archive_target *t;          /* owned: outlives the scan's inventory */
};

static bool scan_open_target(void *ctx, prc_inventory **out_inv, json_t **out_source, prc_err *err)
{
        struct target_ctx *tc = ctx;

        return (tc->path != NULL ? prc_archive_target_open_file(tc->client, tc->path, &tc->t, err)
                                 : prc_archive_target_open(tc->client, tc->bytes, tc->n, &tc->t, err)) &&
               prc_archive_target_scan_input(tc->t, out_inv, out_source, err);
}

bool cli_scan_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out,
                      prc_err *err)
{
        struct cli_parse_ctx *pc = ctx;

        cli_parse_ready(pc);
        return prc_client_extract(pc->client, format, path, p, n, out, err);
}

bool cli_scan_parse_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n,
                            json_t **out, prc_err *err)
{
        struct cli_parse_ctx *pc = ctx;
        uint16_t fmt = prc_format_by_name(format);

        /* A name with no parse code: the two requests, so the parse's own refusal is the answer as ever. */
        if (fmt == 0 || strcmp(format, "shell") == 0 || strcmp(format, "archive") == 0)
                return cli_scan_parse(ctx, format, path, p, n, NULL, err) &&
                       cli_scan_extract(ctx, NULL, path, p, n, out, err);
        cli_parse_ready(pc);
        return prc_client_parse_extract(pc->client, fmt, path, p, n, out, err);
}

void cli_scan_parse_extract_many(void *ctx, prc_scan_xitem *items, size_t n)
{
        enum { CHUNK = 16 };
        struct cli_parse_ctx *pc = ctx;
        prc_client_xitem x[CHUNK];
        size_t at[CHUNK];

        cli_parse_ready(pc);
        for (size_t i = 0; i < n;) {
                size_t k = 0;

                for (; i < n && k < CHUNK; i++) {
                        const char *f = items[i].format;
                        uint16_t fmt = f != NULL ? prc_format_by_name(f) : 0;

                        prc_err_init(&items[i].err);
                        items[i].md = NULL;
                        /* What one request cannot carry goes as cli_scan_parse_extract sends it. */
                        if (f != NULL && (fmt == 0 || strcmp(f, "shell") == 0 || strcmp(f, "archive") == 0)) {
                                items[i].ok = cli_scan_parse_extract(ctx, items[i].format, items[i].path, items[i].p,
                                                                     items[i].n, &items[i].md, &items[i].err);
                                continue;
                        }
                        x[k] = (prc_client_xitem){ .parse_fmt = fmt, .path = items[i].path, .bytes = items[i].p,
                                                   .len = items[i].n };
                        at[k++] = i;
                }
                prc_client_parse_extract_many(pc->client, x, k);
                for (size_t q = 0; q < k; q++) {
                        items[at[q]].ok = x[q].ok;
                        items[at[q]].md = x[q].md;
                        items[at[q]].err = x[q].err;
                }
        }
}

json_t *cli_scan_floor(void *ctx)
{
        struct cli_parse_ctx *pc = ctx;

        cli_parse_ready(pc);
        return prc_client_floor_record(pc->client);
}

enum { DATA_ARGS_MAX = 64 };
/* A normalized native artifact is canonical JSON derived from a report bounded by stdout_bytes. */
#define NATIVE_ARTIFACT_MAX ((size_t)256 << 20)

/* verify-local: what the OCI glue needs beyond the adapter itself. */
struct oci_ctx {
        prc_oci_kind runtime;
        const char  *data_adapter[DATA_ARGS_MAX];       /* borrowed from argv: "ADAPTER" part */
        char        *data_arg[DATA_ARGS_MAX];           /* borrowed from argv: "NAME=DIR" part */
        size_t       ndata;
        const char  *manifest_paths[PRC_SCAN_ADAPTERS_MAX];     /* borrowed from argv: explicit grants */
        size_t       nmanifests;
        const char  *ruleset;                           /* --gitleaks-ruleset, or NULL: the environment */
        int64_t      now;                               /* --now as Unix seconds, 0 when absent */
        prc_buf      arts[PRC_SCAN_ADAPTERS_MAX];       /* native runs' normalized artifacts, for --state-dir */
        size_t       narts;
};

static bool scan_run_oci(void *ctx, const prc_scan_adapter *a, const prc_inventory *inv, const char *run_id,
                         const struct timespec *deadline, json_t **out_record, prc_err *err)
{
        struct oci_ctx *oc = ctx;
        prc_data_binding b[DATA_ARGS_MAX];
        size_t nb = 0;
        prc_oci_request rq;

        /* Data bindings are adapter-qualified, so adapters never consume one another's inputs. */
        for (size_t i = 0; i < oc->ndata; i++) {
                if (strcmp(oc->data_adapter[i], a->res.adapter_id) != 0)
                        continue;
                if (!prc_data_parse_arg(oc->data_arg[i], &b[nb], err))
                        return false;
                nb++;
        }
        rq = (prc_oci_request){ .m = a->manifest, .manifest_path = a->path, .resolution = &a->res, .inv = inv,
                                .target_name = "target", .data = b, .ndata = nb, .runtime = oc->runtime,
                                .run_id = run_id, .deadline = deadline, .ruleset_path = oc->ruleset,
                                .now = oc->now, .cancel = &cli_interrupted };
        if (oc->narts < PRC_SCAN_ADAPTERS_MAX) {
                prc_buf_init(&oc->arts[oc->narts], NATIVE_ARTIFACT_MAX);
                rq.artifact_out = &oc->arts[oc->narts];
        }
        bool ok = prc_oci_run(&rq, out_record, err);
        if (rq.artifact_out != NULL && rq.artifact_out->len > 0)
                oc->narts++;
        else if (rq.artifact_out != NULL)
                prc_buf_clear(rq.artifact_out);
        return ok;
}

/* The OCI runner never runs as root: refuse the whole scan once it is authorized, not adapter by adapter. */
static bool refuse_root(void *ctx, prc_err *err)
{
        (void)ctx;
        return prc_oci_refuse_root(err);
}

/* Exit status for a scan that could not be made (DESIGN.md, "Command line"). */
static int exit_for_refusal(const prc_err *e)
{
        switch (e->cls) {
        case PRC_E_USAGE:
        case PRC_E_UNKNOWN_PROFILE:
        case PRC_E_ADAPTER_REPEATED:
        case PRC_E_ADAPTER_SET_LIMIT:
                return PRC_EXIT_USAGE;
        case PRC_E_ADAPTER_UNBOUND:
        case PRC_E_OCI_NOT_AUTHORIZED:
        case PRC_E_NATIVE_IMAGE_UNREVIEWED:
        case PRC_E_NATIVE_COMMAND_MISMATCH:
        case PRC_E_OCI_ROOT_REFUSED:
        case PRC_E_OCI_ROOT_GROUP_REFUSED:
        /* a lockfile that is unsigned (when required) or mis-signed is not trusted: refused by policy */
        case PRC_E_SIG_REQUIRED:
        case PRC_E_SIG_MALFORMED:
        case PRC_E_SIG_TRUNCATED:
        case PRC_E_SIG_SCOPE_MISMATCH:
        case PRC_E_SIG_DIGEST_MISMATCH:
        case PRC_E_SIG_UNKNOWN_KEY:
        case PRC_E_SIG_SCOPE_NOT_ALLOWED:
        case PRC_E_SIG_INVALID:
                return PRC_EXIT_POLICY;
        default:
                /* registry denials (untrusted, revoked, deprecated) are policy refusals too */
                return prc_registry_policy_reason(e->cls) ? PRC_EXIT_POLICY : PRC_EXIT_EXEC;
        }
}

/*
 * prc never pulls: when a pinned image is absent, say exactly which pull fetches the reviewed digest, and for
 * the native protocols the `prc setup native` that does it (issue 17).  A native Gitleaks adapter without its
 * ruleset gets `prc setup native` and the options named.
 */
static void pull_hints(const json_t *res, const prc_adapter_set *set, const char *what)
{
        const json_t *e;
        size_t i;

        json_array_foreach(json_object_get(res, "errors"), i, e) {
                const char *cls = json_string_value(json_object_get(e, "class"));
                const char *id = json_string_value(json_object_get(e, "adapter"));
                if (cls != NULL && id != NULL && strcmp(cls, "native-ruleset-missing") == 0)
                        fprintf(stderr, "prc %s: %s reads the pinned Gitleaks ruleset of v8.30.0; run `prc setup "
                                "native` to store it, or give --gitleaks-ruleset FILE or set PRC_GITLEAKS_RULESET\n",
                                what, id);
                if (cls == NULL || id == NULL || strcmp(cls, "oci-image-absent") != 0)
                        continue;
                for (size_t k = 0; k < set->n; k++) {
                        char ref[1024];
                        prc_err pe;
                        prc_err_init(&pe);
                        if (strcmp(set->items[k].res.adapter_id, id) == 0 &&
                            prc_manifest_image_ref(set->items[k].manifest, ref, sizeof(ref), &pe))
                                fprintf(stderr, "prc %s: the pinned image of %s is not present; %s exactly the "
                                        "reviewed digest:\n  docker pull %s\n", what, id,
                                        prc_native_spec_for(prc_manifest_protocol(set->items[k].manifest)) != NULL
                                                ? "`prc setup native` pulls" : "pull", ref);
                }
        }
}

static void on_progress(const char *stage)
{
        if (isatty(STDERR_FILENO))
                fprintf(stderr, "\r\033[K%s...", stage);
}

static void progress_done(void)
{
        if (isatty(STDERR_FILENO))
                fprintf(stderr, "\r\033[K");
}

/* Default catalog: PRC_CATALOG_ROOT, else the bundled one. */
static const char *default_catalog(char *buf, size_t cap)
{
        const char *env = getenv("PRC_CATALOG_ROOT");

        return env != NULL ? env : cli_data_path("catalog", buf, cap);
}

const char *cli_default_catalog(char *buf, size_t cap)
{
        return default_catalog(buf, cap);
}

bool cli_rfc3339_ok(const char *s)
{
        /* YYYY-MM-DDTHH:MM:SSZ exactly: the clock is an input, so it has one spelling. */
        static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
        if (strlen(s) != sizeof(shape) - 1)
                return false;
        for (size_t i = 0; shape[i]; i++)
                if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
                        return false;
        return true;
}

static int run_scan(int argc, char **argv, const char *what)
{
        static const struct option opts[] = {
                { "target", required_argument, NULL, 't' },
                { "catalog-root", required_argument, NULL, 'c' },
                { "profile", required_argument, NULL, 'p' },
                { "mode", required_argument, NULL, 'm' },
                { "format", required_argument, NULL, 'f' },
                { "now", required_argument, NULL, 'n' },
                { "state-dir", required_argument, NULL, 's' },
                { "adapter-manifest", required_argument, NULL, 'M' },
                { "adapter-registry", required_argument, NULL, 'R' },
                { "adapter-id", required_argument, NULL, 'I' },
                { "adapter-runtime", required_argument, NULL, 'T' },
                { "adapter-data", required_argument, NULL, 'D' },
                { "max-duration", required_argument, NULL, 'X' },
                { "gitleaks-ruleset", required_argument, NULL, 'G' },
                { "trust-store", required_argument, NULL, 'S' },
                { "registry-signature", required_argument, NULL, 'g' },
                { "require-signature", no_argument, NULL, 'Q' },
                { "aur", required_argument, NULL, 'A' },
                { "aur-url", required_argument, NULL, 'u' },
                { "cacert", required_argument, NULL, 'C' },
                { "baseline", required_argument, NULL, 'B' },
                { "suppressions", required_argument, NULL, 'U' },
                { NULL, 0, NULL, 0 },
        };
        static const char *const formats[] = { "text", "json", "sarif", "html", NULL };
        const char *state_dir = NULL, *registry = NULL;
        cli_triage_opts to = { 0 };
        prc_registry_sig_opts sig = { 0 };
        const char *ids[PRC_SCAN_ADAPTERS_MAX + 1];
        size_t nids = 0;
        struct oci_ctx oc = { .runtime = PRC_OCI_DOCKER };
        prc_adapter_set set = { .n = 0 };
        prc_scan_opts so = { 0 };
        struct cli_parse_ctx pc = { 0 };
        struct target_ctx tc = { 0 };
        const char *aur_name = NULL;
        prc_aur_opts aur_opts = { 0 };
        bool aur_extra = false;
        char aur_url[PRC_AUR_URL_MAX];
        prc_buf aur_bytes, canon = { 0 };
        json_t *aur_rec = NULL;
        prc_client_opts copts;
        const char *format = "text";
        char catbuf[4200];
        json_t *res = NULL;
        prc_err err;
        int c, rc = PRC_EXIT_EXEC;

        prc_err_init(&err);
        optind = 1;
        while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
                switch (c) {
                case 't': so.target = optarg; break;
                case 'c': so.catalog_root = optarg; break;
                case 'p': so.profile = optarg; break;
                case 'f': format = optarg; break;
                case 's': state_dir = optarg; break;
                case 'M':
                        if (oc.nmanifests == PRC_SCAN_ADAPTERS_MAX)
                                return cli_usage(what, "at most %d adapters", PRC_SCAN_ADAPTERS_MAX);
                        oc.manifest_paths[oc.nmanifests++] = optarg;
                        break;
                case 'R': registry = optarg; break;
                case 'G': oc.ruleset = optarg; break;
                case 'S': sig.trust_store = optarg; break;
                case 'g': sig.signature = optarg; break;
                case 'Q': sig.require = true; break;
                case 'A': aur_name = optarg; break;
                case 'B': to.baseline = optarg; break;
                case 'U': to.suppressions = optarg; break;
                case 'u':
                case 'C': {
                        int urc = cli_aur_option(what, c, optarg, &aur_opts);
                        if (urc != 0)
                                return urc;
                        aur_extra = true;
                        break;
                }
                case 'I':
                        if (nids == PRC_SCAN_ADAPTERS_MAX)
                                return cli_usage(what, "at most %d adapters", PRC_SCAN_ADAPTERS_MAX);
                        ids[nids++] = optarg;
                        break;
                case 'T':
                        if (strcmp(optarg, "docker") == 0)
                                oc.runtime = PRC_OCI_DOCKER;
                        else if (strcmp(optarg, "podman") == 0)
                                oc.runtime = PRC_OCI_PODMAN;
                        else
                                return cli_usage(what, "--adapter-runtime takes docker or podman");
                        break;
                case 'D': {
                        char *slash = strchr(optarg, '/'), *eq = strchr(optarg, '=');
                        if (slash == NULL || eq == NULL || slash > eq || slash == optarg || oc.ndata == DATA_ARGS_MAX)
                                return cli_usage(what, "--adapter-data takes 'ADAPTER_ID/NAME=DIR'");
                        *slash = '\0';
                        oc.data_adapter[oc.ndata] = optarg;
                        oc.data_arg[oc.ndata] = slash + 1;
                        oc.ndata++;
                        break;
                }
                case 'X': {
                        char *end;
                        unsigned long v = strtoul(optarg, &end, 10);
                        if (*optarg == '\0' || *end != '\0' || v == 0 || v > 86400)
                                return cli_usage(what, "--max-duration takes 1 to 86400 seconds");
                        so.max_duration_s = (unsigned)v;
                        break;
                }
                case 'n':
                        if (!cli_rfc3339_ok(optarg))
                                return cli_usage(what, "--now takes YYYY-MM-DDTHH:MM:SSZ");
                        so.now = optarg;
                        if (!prc_native_time(optarg, &oc.now))
                                return cli_usage(what, "--now takes YYYY-MM-DDTHH:MM:SSZ");
                        break;
                case 'm':
                        if (strcmp(optarg, "inspect") == 0)
                                so.mode = PRC_MODE_INSPECT;
                        else if (strcmp(optarg, "verify-local") == 0)
                                so.mode = PRC_MODE_VERIFY_LOCAL;
                        else
                                return cli_usage(what, "--mode takes inspect or verify-local");
                        break;
                default:
                        return cli_usage(what, "bad option");
                }
        }
        if (optind != argc)
                return cli_usage(what, "unexpected argument '%s'", argv[optind]);
        if (aur_name != NULL && so.target != NULL)
                return cli_usage(what, "--aur and --target are mutually exclusive");
        if (aur_extra && aur_name == NULL)
                return cli_usage(what, "--aur-url and --cacert go with --aur NAME");
        if (aur_name != NULL && !prc_aur_name_check(aur_name, &err)) {
                /* Refused before any request (issue 20). */
                cli_print_err(&err);
                return PRC_EXIT_USAGE;
        }
        if (aur_name != NULL)
                so.target = aur_name;   /* a label only: the inventory comes from the fetched bytes */
        if (so.target == NULL)
                return cli_usage(what, "--target DIR is required (or --aur NAME)");
        if (!cli_format_ok(what, format, formats))
                return PRC_EXIT_USAGE;
        to.now = so.now;
        if (cli_triage_check(what, &to) != PRC_EXIT_OK)
                return PRC_EXIT_USAGE;
        if (oc.nmanifests > 0 && (registry != NULL || nids > 0))
                return cli_usage(what, "--adapter-manifest and --adapter-registry are mutually exclusive");
        if ((registry == NULL) != (nids == 0))
                return cli_usage(what, "--adapter-registry and --adapter-id go together");
        if ((sig.trust_store != NULL || sig.signature != NULL || sig.require) && registry == NULL)
                return cli_usage(what, "--trust-store, --registry-signature and --require-signature need "
                                 "--adapter-registry");
        if ((sig.signature != NULL || sig.require) && sig.trust_store == NULL)
                return cli_usage(what, "--registry-signature and --require-signature need --trust-store FILE "
                                 "(prc has no default trust store)");
        if ((oc.nmanifests > 0 || nids > 0 || oc.ndata > 0) && so.mode != PRC_MODE_VERIFY_LOCAL)
                return cli_usage(what, "adapters run only with --mode verify-local");
        /* The complete set is resolved and validated before the catalog authorizes it and anything runs. */
        if (oc.nmanifests > 0 && !prc_adapters_from_manifests(oc.manifest_paths, oc.nmanifests, &set, &err)) {
                cli_print_err(&err);
                return exit_for_refusal(&err);
        }
        if (registry != NULL && !prc_adapters_from_registry(registry, &sig, ids, nids, &set, &err)) {
                cli_print_err(&err);
                return exit_for_refusal(&err);
        }
        for (size_t i = 0; i < oc.ndata; i++) {
                bool known = false;
                for (size_t k = 0; k < set.n; k++)
                        known |= strcmp(set.items[k].res.adapter_id, oc.data_adapter[i]) == 0;
                if (!known) {
                        prc_adapter_set_clear(&set);
                        return cli_usage(what, "--adapter-data names adapter '%s', which is not in the set",
                                         oc.data_adapter[i]);
                }
        }
        so.preflight = refuse_root;
        so.adapters = &set;
        so.run_adapter = scan_run_oci;
        so.run_ctx = &oc;
        if (so.catalog_root == NULL)
                so.catalog_root = default_catalog(catbuf, sizeof(catbuf));
        cli_client_opts(&copts);
        pc.client = prc_client_new(&copts, &err);
        if (pc.client == NULL) {
                cli_print_err(&err);
                return PRC_EXIT_EXEC;
        }
        so.parse = cli_scan_parse;
        so.extract = cli_scan_extract;
        so.parse_extract = cli_scan_parse_extract;
        so.parse_ctx = &pc;
        tc.client = pc.client;
        prc_buf_init(&aur_bytes, PRC_AUR_SNAPSHOT_MAX);
        if (aur_name != NULL) {
                prc_https_result hr;
                if (!prc_aur_fetch(aur_name, &aur_opts, &aur_bytes, aur_url, &hr, &err)) {
                        cli_print_err(&err);
                        rc = err.cls == PRC_E_AUR_URL_INVALID ? PRC_EXIT_USAGE : PRC_EXIT_EXEC;
                        goto out;
                }
                /* A URL is an input, not a host path: it is recorded (issue 20). */
                aur_rec = json_pack("{s:s,s:s}", "package", aur_name, "url", aur_url);
                if (aur_rec == NULL) {
                        prc_err_oom(&err, "the AUR record");
                        cli_print_err(&err);
                        goto out;
                }
                so.aur = aur_rec;
                tc.bytes = aur_bytes.data != NULL ? aur_bytes.data : (const uint8_t *)"";
                tc.n = aur_bytes.len;
                so.open_target = scan_open_target;
                so.target_ctx = &tc;
        } else {
                struct stat tst;
                /* A target that is not a directory is an archive snapshot (.tar, .tar.gz/.tgz, .tar.zst). */
                if (stat(so.target, &tst) == 0 && !S_ISDIR(tst.st_mode)) {
                        tc.path = so.target;
                        so.open_target = scan_open_target;
                        so.target_ctx = &tc;
                }
        }
        so.content_floor = cli_scan_floor;
        so.progress = on_progress;
        /*
         * The JSON record is the bytes the scan spelled for its id, kept from
         * that pass rather than written again; a baseline or suppressions
         * change the result after the scan, so those print it afresh.
         */
        prc_buf_init(&canon, (size_t)1 << 31);
        if (strcmp(format, "json") == 0 && to.baseline == NULL && to.suppressions == NULL)
                so.canonical_out = &canon;
        cli_interrupts ints;
        cli_interrupts_catch(&ints);
        bool scanned = prc_scan_run(&so, &res, &rc, &err);
        cli_interrupts_restore(&ints);
        if (!scanned) {
                progress_done();
                cli_print_err(&err);
                rc = exit_for_refusal(&err);
                goto out;
        }
        progress_done();
        if (cli_interrupted) {
                /* Containers and snapshots are gone (oci-interrupted); a cut-short run is not a result. */
                fprintf(stderr, "prc %s: interrupted by a signal; no result written\n", what);
                rc = PRC_EXIT_EXEC;
                goto out;
        }
        pull_hints(res, &set, what);
        /* Issue 22: the stored and printed result records the comparison; the exit status follows it. */
        if (to.baseline != NULL || to.suppressions != NULL) {
                rc = cli_triage_apply(&to, res, &err);
                if (rc > PRC_EXIT_FAIL) {
                        cli_print_err(&err);
                        goto out;
                }
        }
        /* Artifacts (native adapters' normalized reports) are written before the record that names them. */
        prc_artifact_bytes ab[PRC_SCAN_ADAPTERS_MAX];
        for (size_t i = 0; i < oc.narts; i++)
                ab[i] = (prc_artifact_bytes){ oc.arts[i].data, oc.arts[i].len };
        if (state_dir != NULL && !prc_state_write(state_dir, ab, oc.narts, res, &err)) {
                cli_print_err(&err);
                rc = PRC_EXIT_EXEC;
                goto out;
        }
        if (so.canonical_out != NULL ? !cli_bytes_out(&canon, &err) : !cli_result_out(res, format, what, &err)) {
                cli_print_err(&err);
                rc = PRC_EXIT_EXEC;
        }
out:
        prc_buf_clear(&canon);
        for (size_t i = 0; i < oc.narts; i++)
                prc_buf_clear(&oc.arts[i]);
        json_decref(res);
        prc_archive_target_free(tc.t);
        json_decref(aur_rec);
        prc_buf_clear(&aur_bytes);
        prc_client_free(pc.client);
        prc_adapter_set_clear(&set);
        cli_interrupts_die();
        return rc;
}

int cmd_scan(int argc, char **argv)
{
        return run_scan(argc, argv, "scan");
}

#define GITLEAKS_MANIFEST "adapters/gitleaks-v8.30.0.yaml"

/*
 * `prc verify DIR`: scan --mode verify-local with the bundled Gitleaks
 * manifest and the core profile.  Only output options may be added; adapter,
 * profile, mode and catalog overrides are refused, from the command line
 * and from the environment (PRC_CATALOG_ROOT, issue 16), so the alias always
 * means the same reviewed configuration.
 */
int cmd_verify(int argc, char **argv)
{
        static const char *const allowed[] = { "--format", "--state-dir", "--now", "--max-duration",
                                               "--gitleaks-ruleset", "--baseline", "--suppressions", NULL };
        char catbuf[4200], manifest[4300], *root;
        char *av[16];
        int ac = 0, rc;
        const char *target = NULL;

        for (int i = 1; i < argc; i++) {
                bool ok = false;
                if (argv[i][0] != '-') {
                        if (target != NULL)
                                return cli_usage("verify", "expected exactly one DIR");
                        target = argv[i];
                        continue;
                }
                for (size_t k = 0; allowed[k] != NULL; k++)
                        ok |= strcmp(argv[i], allowed[k]) == 0;
                if (!ok)
                        return cli_usage("verify", "'%s' cannot be overridden here; use prc scan", argv[i]);
                if (i + 1 >= argc || ac + 2 > 14)
                        return cli_usage("verify", "'%s' needs a value", argv[i]);
                av[ac++] = argv[i];
                av[ac++] = argv[++i];
        }
        if (target == NULL)
                return cli_usage("verify", "expected exactly one DIR");
        if (getenv("PRC_CATALOG_ROOT") != NULL)
                return cli_usage("verify", "PRC_CATALOG_ROOT cannot override the bundled catalog here; unset it, or "
                                 "use prc scan --catalog-root");
        root = (char *)cli_data_path("catalog", catbuf, sizeof(catbuf));
        cli_data_path(GITLEAKS_MANIFEST, manifest, sizeof(manifest));
        {
                char *args[32];
                int n = 0;
                args[n++] = (char *)"verify";
                args[n++] = (char *)"--target";
                args[n++] = (char *)target;
                args[n++] = (char *)"--mode";
                args[n++] = (char *)"verify-local";
                args[n++] = (char *)"--profile";
                args[n++] = (char *)PRC_PROFILE_DEFAULT;
                args[n++] = (char *)"--catalog-root";
                args[n++] = root;
                args[n++] = (char *)"--adapter-manifest";
                args[n++] = manifest;
                for (int i = 0; i < ac; i++)
                        args[n++] = av[i];
                args[n] = NULL;
                rc = run_scan(n, args, "verify");
        }
        return rc;
}
