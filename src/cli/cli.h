/*
 * cli.h - the command table and helpers shared by every cli/ command.
 * Only cli/ code prints; library code records errors and returns.
 */
#ifndef PRC_CLI_H
#define PRC_CLI_H

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "content/client.h"
#include "content/floor.h"
#include "engine/scan.h"

#define PRC_VERSION "0.1.0"
#define PRC_ENGINE_API 1
#define PRC_TAGLINE "production-readiness and supply-chain review of a source tree"

/* Exit statuses (DESIGN.md, "Command line"). */
enum {
        PRC_EXIT_OK = 0,        /* success; scan: every assertion passed */
        PRC_EXIT_FAIL = 1,      /* the input was judged and found wanting */
        PRC_EXIT_USAGE = 2,     /* usage error */
        PRC_EXIT_EXEC = 3,      /* execution error */
        PRC_EXIT_POLICY = 4,    /* refused by policy */
};

typedef struct prc_cmd {
        const char *name;       /* first word */
        const char *sub;        /* second word, or NULL */
        int       (*run)(int argc, char **argv);    /* argv[0] is the (sub)command word */
        const char *summary;    /* one line for 'prc help' */
        const char *usage;      /* full text for --help */
} prc_cmd;

/* The one dispatch table (main.c). */
extern const prc_cmd prc_cmds[];
extern const size_t prc_ncmds;

/*
 * --content-floor strict|landlock|seccomp (issue 23), one parser for every
 * command that starts a content worker (main.c's worker_cmds: a new such
 * command adds its function there): main() calls cli_floor_take before
 * the command, which removes the option from argv (so the command's own
 * getopt never sees it) and sets cli_content_floor; PRC_CONTENT_FLOOR gives
 * the default.  Returns PRC_EXIT_OK or PRC_EXIT_USAGE (printed).
 * cli_client_opts: prc_client_opts_default with that floor.
 */
extern prc_floor_level cli_content_floor;
int cli_floor_take(const char *what, int *argc, char **argv);
void cli_client_opts(prc_client_opts *o);
#define CLI_FLOOR_HELP \
        "--content-floor strict|landlock|seccomp (default $PRC_CONTENT_FLOOR, else strict):\n" \
        "the sandbox floor the content worker must apply.  strict needs Landlock ABI 6;\n" \
        "landlock takes any Landlock ABI; seccomp runs without Landlock.  The floor applied\n" \
        "is recorded; docs/sandbox.md says what each level gives up.\n"

/*
 * prc's own data (paths.c): catalog/, adapters/, schemas/ under one root,
 * the source tree when this binary is its build/prc (or build/VARIANT/prc),
 * else the data directory set at build time (Makefile DATADIR).  Never the
 * current directory or the environment.  cli_data_path writes ROOT/rel into
 * buf and returns buf (truncated past cap, which then cannot be opened).
 */
const char *cli_data_root(char *buf, size_t cap);
const char *cli_data_path(const char *rel, char *buf, size_t cap);
bool cli_data_root_is_source(void);

/*
 * prc help --list | --man [CMD [SUB]] | --completion bash|zsh (helpgen.c):
 * man pages and completions from a command table (prc_cmds[]); argv[0] is the --word.
 */
int cli_help_gen(const prc_cmd *cmds, size_t ncmds, int argc, char **argv);
/* prc --version (version.c): version, commit, data root, loaded libraries, content floor. */
int cli_version(void);

/* Print "prc WHAT: reason" and a pointer to --help; returns PRC_EXIT_USAGE. */
int cli_usage(const char *what, const char *fmt, ...) PRC_PRINTF(2, 3);
/* Print an error record to stderr as "prc: class: location: message". */
void cli_print_err(const prc_err *e);
/* Write v as canonical JSON plus newline to stdout (exactly one document).  false on error. */
bool cli_json_out(const json_t *v, prc_err *err) PRC_MUST_CHECK;
/* Write canonical bytes made elsewhere (prc_jcs_write's spelling) the same way: a newline appended to b. */
bool cli_bytes_out(prc_buf *b, prc_err *err) PRC_MUST_CHECK;
/* An error record as a JSON object {"class","message",...}; new reference or NULL. */
json_t *cli_err_json(const prc_err *e);
/* Parse "--format" values; returns false (after printing usage) when not one of allowed. */
bool cli_format_ok(const char *what, const char *val, const char *const *allowed);
/* Map an error class to the exit status DESIGN.md gives it. */
int cli_exit_for(const prc_err *e);

/*
 * SIGINT/SIGTERM during a step that must clean up (a snapshot, a running
 * container): the handler only stores the signal in cli_interrupted, which
 * the library polls (prc_snapshot_opts.cancel, prc_oci_request.cancel).
 * cli_interrupts_restore puts the old handlers back; cli_interrupts_die
 * then ends the process by the signal it got, after the cleanup, as a
 * well-behaved tool does (no-op when none arrived).
 */
extern volatile sig_atomic_t cli_interrupted;
typedef struct cli_interrupts {
        struct sigaction old_int, old_term;
} cli_interrupts;
void cli_interrupts_catch(cli_interrupts *s);
void cli_interrupts_restore(const cli_interrupts *s);
void cli_interrupts_die(void);

/* Commands (one file each), grouped by area like the table in main.c. */
/* -- scan and verify (engine) -- */
int cmd_scan(int argc, char **argv);
int cmd_sbom(int argc, char **argv);
/* The scan's content-worker hooks (engine/scan.h), shared by prc scan and prc sbom; ctx is a cli_parse_ctx. */
struct cli_parse_ctx {
        prc_client *client;
        pthread_t   starter;    /* cli_parse_prestart's thread, joined by the first hook call */
        bool        starting;
};
/*
 * Start pc's worker on a thread of its own, so it comes up (spawn, warm-up,
 * floor) while the target is inventoried; the first hook call with pc, in
 * whichever thread then owns it, waits for that thread.  A start that
 * fails is done again, and reported, by that first request.
 */
void cli_parse_prestart(struct cli_parse_ctx *pc);
/* Wait for cli_parse_prestart's thread, if any (before freeing a client no hook used). */
void cli_parse_ready(struct cli_parse_ctx *pc);
bool cli_scan_parse(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out_doc,
                    prc_err *err);
bool cli_scan_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n, json_t **out,
                      prc_err *err);
/* prc_content_parse_extract_fn: the parse's verdict and the extraction in one trip (prc_client_parse_extract). */
bool cli_scan_parse_extract(void *ctx, const char *format, const char *path, const uint8_t *p, size_t n,
                            json_t **out, prc_err *err);
/* prc_scan_opts parse_extract_many over the context's client (prc_client_parse_extract_many). */
void cli_scan_parse_extract_many(void *ctx, prc_scan_xitem *items, size_t n);
json_t *cli_scan_floor(void *ctx);
int cmd_verify(int argc, char **argv);
/* The catalog root a scan uses by default: $PRC_CATALOG_ROOT, else the one bundled beside the binary (in buf). */
const char *cli_default_catalog(char *buf, size_t cap);
/* -- batch review at scale (issue 21) -- */
int cmd_batch(int argc, char **argv);
int cmd_batch_merge(int argc, char **argv);
/* -- reports of a run result (issue 22) -- */
int cmd_report(int argc, char **argv);
int cmd_explain(int argc, char **argv);
/*
 * Print run result r in format (text, json, sarif or html) to stdout; what
 * names the command in the text view's first line.  false with err set
 * when it could not be written.
 */
bool cli_result_out(const json_t *r, const char *format, const char *what, prc_err *err) PRC_MUST_CHECK;
/* --baseline FILE, --suppressions FILE and the --now they are judged at (triage_opt.c, engine/triage.h). */
typedef struct cli_triage_opts {
        const char *baseline, *suppressions, *now;      /* borrowed from argv; each may be NULL */
} cli_triage_opts;
/* Usage checks (printed): PRC_EXIT_OK or PRC_EXIT_USAGE. */
int cli_triage_check(const char *what, const cli_triage_opts *to);
/*
 * Triage run in place when a baseline or suppressions are given; returns
 * the exit status the (triaged) result gives: 0 or 1, else 2 (a malformed
 * file) or 3 with err set.  Expired and unmatched suppressions are named
 * on stderr.
 */
int cli_triage_apply(const cli_triage_opts *to, json_t *run, prc_err *err);
/* YYYY-MM-DDTHH:MM:SSZ exactly. */
bool cli_rfc3339_ok(const char *s);

/* -- inventory and snapshot -- */
int cmd_inventory(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
/* -- AUR: diff of two package versions, snapshot fetch (issue 20) -- */
int cmd_diff(int argc, char **argv);
int cmd_aur_fetch(int argc, char **argv);
/*
 * The options every AUR fetch takes (cmd_aur.c): 'u' --aur-url BASE, 'C' --cacert FILE,
 * 'W' --timeout SECONDS into o.  Returns 0, or the usage exit status (printed).
 */
struct prc_aur_opts;
int cli_aur_option(const char *what, int c, const char *arg, struct prc_aur_opts *o);

/* -- content worker and parsers -- */
int cmd_content_parse(int argc, char **argv);
int cmd_content_extract(int argc, char **argv);
int cmd_content_tokenize(int argc, char **argv);
int cmd_content_archive(int argc, char **argv);
/*
 * Shared by the content commands (cmd_content.c).  cli_content_call reads
 * path (symlinks refused, at most the analysis cap) and sends it to a fresh
 * worker as op/sub with args; *out gets the document (transfers) or err the
 * refusal.  cli_content_report prints the outcome (ok: doc, else err) as the
 * bare document or, with wrap, as {"document"|"error", "format" (when not
 * NULL), "path"}, and returns the exit status (0, or 3 for any refusal).
 */
bool cli_content_call(const char *path, uint16_t op, uint16_t sub, const void *args, size_t args_len,
                      json_t **out, prc_err *err) PRC_MUST_CHECK;
/* The same with request flags (PRC_SHELL_RECOVER for `content tokenize --recover`). */
bool cli_content_call_flags(const char *path, uint16_t op, uint16_t sub, uint32_t flags, const void *args,
                            size_t args_len, json_t **out, prc_err *err) PRC_MUST_CHECK;
int cli_content_report(bool ok, const json_t *doc, prc_err *err, const char *format, const char *path, bool wrap);
int cmd_sandbox_probe(int argc, char **argv);

/* -- adapters: protocol, manifest, fixtures -- */
int cmd_adapter_validate_output(int argc, char **argv);
int cmd_adapter_fixture_validate(int argc, char **argv);

/* -- adapters: registry and trust -- */
int cmd_adapter_registry_validate(int argc, char **argv);

/* -- adapters: OCI runner and records -- */
int cmd_adapter_plan_oci(int argc, char **argv);
int cmd_adapter_run_oci(int argc, char **argv);
int cmd_record_show(int argc, char **argv);

/* -- documents -- */
int cmd_doc_digest(int argc, char **argv);
/* setup (issue 17) */
int cmd_setup_native(int argc, char **argv);

#endif
