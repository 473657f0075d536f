/*
 * main.c - prc entry point: the one dispatch table of commands.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "adapter/native/gitleaks.h"
#include "base/tune.h"
#include "content/worker.h"

/*
 * One entry per command.  Each area keeps its entries under its own marker
 * so parallel work merges cleanly; 'prc help' prints them in this order.
 */
const prc_cmd prc_cmds[] = {
        /* -- scan and verify (engine) -- */
        { "scan", NULL, cmd_scan, "review a source tree against the catalog",
          "usage: prc scan --target DIR|ARCHIVE | --aur NAME [--aur-url BASE] [--cacert FILE]\n"
          "                [--catalog-root DIR] [--profile ID] [--mode inspect|verify-local]\n"
          "                [--format text|json|sarif|html] [--now YYYY-MM-DDTHH:MM:SSZ] [--state-dir DIR]\n"
          "                [--baseline RESULT.json] [--suppressions FILE]\n"
          "                [--adapter-manifest FILE]... | [--adapter-registry FILE --adapter-id ID...]\n"
          "                [--adapter-runtime docker|podman] [--adapter-data 'ADAPTER_ID/NAME=DIR']...\n"
          "                [--max-duration SECONDS] [--gitleaks-ruleset FILE]\n"
          "                [--trust-store FILE [--registry-signature FILE] [--require-signature]]\n"
          "                [--content-floor strict|landlock|seccomp]\n"
          "\n"
          "Inventories DIR without following symlinks, parses its manifests in the sandboxed\n"
          "content worker, runs the catalog's analyses and says, per assertion of the profile\n"
          "(default prc/core), Pass, Fail, Unknown, Conflicting or Blocked, with evidence.\n"
          "A target that is a .tar, .tar.gz/.tgz or .tar.zst snapshot is walked in the worker\n"
          "and never extracted: its member listing is the inventory, a single top-level\n"
          "directory is the package root, rejected members are named and make whole-tree\n"
          "assertions Unknown; the archive's SHA-256 is recorded.  --aur NAME fetches NAME's\n"
          "AUR snapshot over HTTPS first (as prc aur fetch) and records the package and URL.\n"
          "--catalog-root defaults to $PRC_CATALOG_ROOT, else the bundled catalog: the one\n"
          "installed with prc (prc --version names its data directory), or the source tree's\n"
          "catalog/ for a prc run from its build directory; never the current directory.\n"
          "--format json prints the run result (schemas/run-result.schema.json): canonical\n"
          "JSON with a content ID; two scans of the same inputs are byte-identical.\n"
          "--format sarif prints a SARIF 2.1.0 view (one result per finding of an assertion not\n"
          "passing, fingerprinted by content); --format html one self-contained static page;\n"
          "text colours and a legend on a terminal (NO_COLOR honoured).  docs/reports.md.\n"
          "--baseline RESULT.json reports only assertions new or worse than that result's, by\n"
          "finding digest (never by line); --suppressions FILE (prc.suppressions/v1, needs --now)\n"
          "accepts findings by assertion and digest until their expiry date.  The exit status\n"
          "then follows the reported assertions only; the result records both.\n"
          "--state-dir DIR stores DIR/artifacts/<sha256> and then DIR/runs/<id>.json, each\n"
          "written atomically, artifacts first (native adapters' normalized reports).\n"
          "--gitleaks-ruleset FILE: the pinned gzip Gitleaks ruleset a native Gitleaks adapter\n"
          "reads on stdin (default $PRC_GITLEAKS_RULESET, else the copy 'prc setup native'\n"
          "stored); checked by size and SHA-256.\n"
          "Inspect mode never launches containers: adapter-bound assertions are Blocked.\n"
          "verify-local runs up to 16 adapters in the OCI runner (never as root), each of which\n"
          "must be bound by an assertion of the profile with its exact adapter id, manifest\n"
          "digest and a declared observation kind; the whole set is resolved and authorized\n"
          "before anything runs, then run in (adapter id, manifest digest) order under one\n"
          "--max-duration deadline.  --adapter-manifest is an explicit local operator grant;\n"
          "--adapter-registry resolves ids through a lockfile (registry-assigned trust).\n"
          "--trust-store FILE verifies the lockfile's detached Ed25519 signature (--registry-signature,\n"
          "default REGISTRY.sig) before any id is resolved; a signature that does not verify is\n"
          "refused, and with --require-signature so is a lockfile without one.\n"
          "The native gates (reviewed image digest, exact command) are part of that authorization.\n"
          "Exit: 0 every assertion passed; 1 some assertion did not; 2 usage; 3 execution error;\n"
          "4 refused by policy (unbound, untrusted or unreviewed adapter, unsigned or mis-signed\n"
          "lockfile, root user or group).\n"
          CLI_FLOOR_HELP },

        /* -- batch review at scale (issue 21); "batch merge" before "batch" so its word is matched -- */
        { "batch", "merge", cmd_batch_merge, "merge the state dirs of a sharded batch",
          "usage: prc batch merge --state-dir OUT DIR...\n"
          "\n"
          "Merges the state dirs of the shards of one batch (prc batch --shard I/N, every I of\n"
          "0..N-1 exactly once, the same list, catalog, profile, version and options) into OUT:\n"
          "each result's run and key record is verified and copied (a name already in OUT must\n"
          "hold the same bytes), then OUT/index.json is written, byte-identical to the index of\n"
          "the same batch run unsharded.  A missing or repeated shard, or shards of different\n"
          "batches, are refused and nothing is merged.  docs/batch.md.\n"
          "The merged batch's worst outcome is in OUT/index.json (summary.exit) and on stderr.\n"
          "Exit: 0 merged; 1 refused (not one whole batch, or a result that does not verify);\n"
          "3 execution error (I/O, a state dir in use).\n" },
        { "batch", NULL, cmd_batch, "scan many targets, resumably, in parallel and in shards",
          "usage: prc batch --targets FILE --state-dir DIR [--profile ID] [--catalog-root DIR]\n"
          "                 [--jobs N] [--shard I/N] [--aur-url BASE] [--cacert FILE]\n"
          "                 [--content-floor strict|landlock|seccomp]\n"
          "\n"
          "FILE lists one target a line: a directory, a snapshot archive (.tar, .tar.gz/.tgz,\n"
          ".tar.zst) or aur:NAME (fetched as prc aur fetch does).  Relative paths are relative\n"
          "to FILE's directory.  Blank lines and lines starting with # are ignored; a malformed\n"
          "line is reported as an error of that line and the batch goes on.\n"
          "Each target is scanned as prc scan --mode inspect would, and its result is stored in\n"
          "DIR as DIR/runs/<id>.json with DIR/keys/<key>.json, where <key> is the digest of the\n"
          "target's digest, the catalog, the profile, the prc version and the options: a target\n"
          "whose key already has a verified result is not scanned again, so an interrupted batch\n"
          "resumes where it stopped.  Every file appears by rename of a complete temporary.\n"
          "--jobs N (default: online CPUs) scans N targets at once in N processes, each keeping\n"
          "its sandboxed content worker from target to target.\n"
          "--shard I/N takes only the lines whose SHA-256 (first 8 bytes, big-endian) mod N is I;\n"
          "merge the shards' dirs with prc batch merge.\n"
          "At the end DIR/index.json (canonical JSON) lists every target line, sorted, with its\n"
          "result id and state counts or its error, and a summary goes to stderr.\n"
          "Exit: the worst outcome: 0 every assertion of every target passed; 1 some did not;\n"
          "2 a malformed line (or usage); 3 a target could not be scanned.  docs/batch.md.\n"
          CLI_FLOOR_HELP },

        { "verify", NULL, cmd_verify, "scan --mode verify-local with the bundled Gitleaks adapter",
          "usage: prc verify DIR [--format text|json|sarif|html] [--state-dir DIR] [--now T] [--max-duration S]\n"
          "                  [--gitleaks-ruleset FILE] [--content-floor LEVEL]\n"
          "                  [--baseline RESULT.json] [--suppressions FILE]\n"
          "\n"
          "The same as: prc scan --target DIR --mode verify-local --profile prc/core\n"
          "                      --adapter-manifest adapters/gitleaks-v8.30.0.yaml\n"
          "Adapter, profile, mode and catalog overrides are refused, $PRC_CATALOG_ROOT included:\n"
          "the catalog and manifest are the ones bundled with prc (prc --version names their\n"
          "data directory).  The pinned image must already be present (prc never pulls;\n"
          "'prc setup native' pulls it once): when it\n"
          "is absent, prc says so and which 'docker pull' fetches exactly the reviewed\n"
          "digest.  Never runs as root.  The Gitleaks ruleset comes from --gitleaks-ruleset,\n"
          "else $PRC_GITLEAKS_RULESET, else the copy 'prc setup native' stored in\n"
          "$XDG_DATA_HOME/prc/ (or ~/.local/share/prc/).\n"
          CLI_FLOOR_HELP },

        { "report", NULL, cmd_report, "a text, SARIF or HTML view of a stored run result",
          "usage: prc report [--format text|json|sarif|html] [--baseline RESULT.json]\n"
          "                  [--suppressions FILE --now YYYY-MM-DDTHH:MM:SSZ] RESULT.json\n"
          "\n"
          "Reads a run result (prc scan --format json, or --state-dir's runs/<id>.json),\n"
          "checks its content ID, and prints the same views prc scan prints, made from it\n"
          "alone: text, json, sarif (SARIF 2.1.0) or html (one self-contained static page).\n"
          "--baseline and --suppressions triage it as prc scan does (docs/reports.md).\n"
          "Exit: 0 every assertion passed (with triage: none reported); 1 otherwise; 2 usage\n"
          "or a file that is not a run result (run-result-invalid, suppressions-invalid);\n"
          "3 execution error.\n" },

        { "explain", NULL, cmd_explain, "what an assertion or analysis checks, why, and how it is decided",
          "usage: prc explain [--catalog-root DIR] ID\n"
          "\n"
          "ID is an assertion of the catalog (PRC-A-CORE-001) or an analysis (readme,\n"
          "aur-checksums): prints its rationale, remediation and decision rule (for an\n"
          "analysis, those of every assertion that reads it).  --catalog-root defaults to\n"
          "$PRC_CATALOG_ROOT, else the bundled catalog/.  Exit: 0; 2 unknown ID or usage.\n" },

        { "sbom", NULL, cmd_sbom, "a CycloneDX 1.6 SBOM of what a tree's manifests declare",
          "usage: prc sbom --target DIR [--output FILE] [--content-floor LEVEL]\n"
          "\n"
          "Inventories DIR as prc scan does and extracts every manifest and lockfile in the\n"
          "sandboxed content worker; prints (or writes FILE atomically) a CycloneDX 1.6 JSON\n"
          "SBOM: one component per purl, with version, scope, hashes, the manifests stating\n"
          "it, and the dependency edges lockfiles record.  Deterministic: no timestamp or\n"
          "serial number, sorted, canonical JSON.  No network, no package manager.\n"
          "A manifest that could not be extracted is a coverage gap: the SBOM is still\n"
          "written, every gap is named on stderr and the exit is 1.\n"
          "Exit: 0 complete; 1 written with coverage gaps; 2 usage; 3 execution error.\n"
          CLI_FLOOR_HELP },
        /* -- inventory and snapshot -- */
        { "inventory", NULL, cmd_inventory, "list a target's files with SHA-256 (the sealed inventory)",
          "usage: prc inventory --target DIR [--threads N] [--format text|json]\n"
          "\n"
          "Walks DIR without following symlinks (root-level .git, .prc, .hg and .svn are\n"
          "left out), hashes every regular file and prints a summary with the inventory\n"
          "digest, or with --format json the whole canonical listing (docs/inventory.md).\n"
          "Names that are not valid normalized paths are listed as unrepresentable.\n"
          "--threads sets the hashing workers (default: one per CPU, at most 8).\n"
          "Exit: 0 complete listing; 1 some names could not be represented; 2 usage;\n"
          "3 the tree changed during the walk, a file is unreadable, or I/O failed.\n" },
        { "snapshot", NULL, cmd_snapshot, "copy a target's inventoried files into a verified private snapshot",
          "usage: prc snapshot --target DIR --out DIR [--ceiling BYTES] [--verify] [--threads N]\n"
          "                    [--format text|json]\n"
          "\n"
          "Inventories the target, then copies every inventoried regular file into the new\n"
          "directory --out (it must not exist; directories 0700, files 0400 or 0500),\n"
          "rehashing each while copying, seals the snapshot digest and prints it (--verify\n"
          "also rereads the copy and checks it against the digest).  The snapshot is kept (remove it with rm -r when done); on any error, and on\n"
          "SIGINT or SIGTERM, whatever was written is removed.  --ceiling lowers the 4 GiB\n"
          "total size ceiling.\n"
          "Exit: 0 created; 1 created, but some names could not be represented (not\n"
          "copied); 2 usage; 3 a file changed or is unreadable, the ceiling was reached,\n"
          "--out exists, or I/O failed (nothing is left on disk).\n" },

        /* -- content worker and parsers -- */
        { "content", "parse", cmd_content_parse, "parse a target file through the sandboxed content worker",
          "usage: prc content parse --format FORMAT FILE [--format-out json] [--content-floor LEVEL]\n"
          "\n"
          "Reads FILE (symlinks refused) and sends its bytes to the content worker, a\n"
          "sandboxed process (prc sandbox probe), which parses them with prc's bounded\n"
          "loaders.  Prints the document as canonical JSON (floats as the shortest\n"
          "round-trip form).  With --format-out json the output is one object:\n"
          "{\"document\":...,\"format\":...,\"path\":...} or {\"error\":{...},...}.\n"
          "FORMAT: json, yaml, toml, ini, xml, jsonc, or auto (by the file name: .json,\n"
          ".yaml, .yml, .toml, .ini, .cfg, .xml, .jsonc).\n"
          "Exit: 0 parsed; 2 usage; 3 refused (parser or worker refusal, named by class).\n"
          CLI_FLOOR_HELP },
        { "content", "extract", cmd_content_extract, "extract a manifest's dependencies through the content worker",
          "usage: prc content extract [--format FORMAT] FILE [--content-floor LEVEL]\n"
          "\n"
          "Reads FILE (symlinks refused) and sends its bytes to the sandboxed content\n"
          "worker, whose extractor for the format returns the file's ManifestDoc: its\n"
          "ecosystem, kind, package, dependencies (with scope, source, integrity, purl\n"
          "and line), install-time hooks, registries and credentials (by key, never by\n"
          "value).  The reply is checked against schemas/manifest-doc.schema.json and\n"
          "printed as canonical JSON.  Without --format, the file name picks the\n"
          "extractor (package.json, package-lock.json, yarn.lock, ...).  docs/extraction.md\n"
          "lists every format.\n"
          "Exit: 0 extracted; 2 usage; 3 refused (extractor, parser or worker refusal,\n"
          "named by class).\n"
          CLI_FLOOR_HELP },
        { "content", "tokenize", cmd_content_tokenize, "tokenize a PKGBUILD or .SRCINFO through the content worker",
          "usage: prc content tokenize FILE [--pkgbuild|--srcinfo] [--recover] [--format text|json]\n"
          "                            [--content-floor LEVEL]\n"
          "\n"
          "Reads FILE (symlinks refused) and sends it to the sandboxed content worker's\n"
          "shell tokenizer.  Nothing is executed, globbed or read from the environment.\n"
          "A PKGBUILD gives its assignments (as written, and expanded where the value is\n"
          "static: earlier variables, ${x:-y}, ${x/a/b}, ${#x}, brace expansion), its\n"
          "functions and other top-level commands as token streams with line numbers; a\n"
          ".SRCINFO gives pkgbase and each package with their fields.  By default a file\n"
          "whose name ends in .SRCINFO is read as .SRCINFO, anything else as a PKGBUILD.\n"
          "Expansion is bounded (count, bytes, nesting): past a bound the file is refused\n"
          "(shell-expansion-limit, shell-output-limit, shell-nesting-limit).\n"
          "--recover: a syntax error, a NUL byte or invalid UTF-8 is listed in the\n"
          "document's \"errors\" and tokenizing goes on at the next line, as prc scan\n"
          "does (docs/parsers-xml-shell-archive.md).\n"
          "Prints the document as canonical JSON (the default, --format text); --format\n"
          "json wraps it: {\"document\":...,\"format\":\"pkgbuild\"|\"srcinfo\",\"path\":...}\n"
          "or {\"error\":{...},...}.\n"
          "Exit: 0 tokenized; 2 usage; 3 refused (tokenizer or worker refusal, named by class).\n"
          CLI_FLOOR_HELP },
        { "content", "archive", cmd_content_archive, "list a tar or tar.gz through the content worker",
          "usage: prc content archive FILE [--member PATH]... [--format text|json] [--content-floor LEVEL]\n"
          "\n"
          "Reads FILE (symlinks refused, at most 10 MiB) and sends it to the sandboxed\n"
          "content worker, which walks the tar or tar.gz in memory: nothing is extracted\n"
          "and no link is followed.  Prints the member list (normalized path, type, size,\n"
          "SHA-256) and, under \"contents\", the bytes of each regular member named by\n"
          "--member (up to 64; UTF-8 as a string, else base64).  Members with absolute or\n"
          "'..' paths, links pointing outside, device nodes or duplicate paths are listed\n"
          "with \"rejected\" naming the class and their contents are never returned; a\n"
          "requested member that cannot be returned is under \"unavailable\".  Archives\n"
          "past the member, size or compression-ratio bounds, or damaged, are refused.\n"
          "The document is printed as canonical JSON (the default, --format text);\n"
          "--format json wraps it: {\"document\":...,\"path\":...} or {\"error\":{...},...}.\n"
          "Exit: 0 walked (even with rejected members); 2 usage; 3 refused (named by class).\n"
          CLI_FLOOR_HELP },
        { "aur", "fetch", cmd_aur_fetch, "download an AUR package's snapshot archive over HTTPS",
          "usage: prc aur fetch NAME [--out FILE] [--aur-url BASE] [--cacert FILE] [--timeout SECONDS]\n"
          "                          [--format text|json]\n"
          "\n"
          "Downloads BASE/cgit/aur.git/snapshot/NAME.tar.gz (BASE defaults to\n"
          "https://aur.archlinux.org) with prc's HTTPS client: HTTPS only, TLS verified\n"
          "against the system store or --cacert, at most 10 MiB (what a scan walks), a\n"
          "10 s connect and a --timeout (default 60 s) whole-transfer limit, no proxy or\n"
          ".netrc.  NAME must be a valid AUR package name (a-z 0-9 @ . _ + -, not\n"
          "starting with - or .): anything else is refused before any request\n"
          "(aur-name-invalid, exit 2).  The archive is stored atomically in --out FILE\n"
          "(default ./NAME.tar.gz) and never opened here; scan it with\n"
          "prc scan --target FILE, or fetch and scan in one step with prc scan --aur NAME.\n"
          "Prints the URL, size and SHA-256; --format json: {package,url,sha256,bytes,out}.\n"
          "Exit: 0 stored; 2 usage (bad name or base URL); 3 the download failed (https-*).\n" },
        { "diff", NULL, cmd_diff, "the risky changes between two versions of an AUR package",
          "usage: prc diff OLD NEW [--format text|json] [--aur-url BASE] [--cacert FILE]\n"
          "                [--timeout SECONDS] [--content-floor LEVEL]\n"
          "\n"
          "OLD and NEW are package directories, snapshot archives (.tar, .tar.gz/.tgz,\n"
          ".tar.zst; a single top-level directory is the package root), or aur:NAME\n"
          "(the current snapshot) and aur:NAME@COMMIT (7 to 40 hex; the snapshot of that\n"
          "commit), both checked before either is fetched over HTTPS as prc aur fetch\n"
          "does; each fetched side's URL and archive SHA-256 are recorded.  Archives are\n"
          "walked in the sandboxed content worker and never extracted; the PKGBUILD,\n"
          ".SRCINFO and install scripts of both are tokenized there.  Shows what a\n"
          "reviewer must see before accepting the update: a new source host, a checksum\n"
          "array removed or a source left without a checksum (SKIP), new network, exec\n"
          "or package-manager commands in functions, top-level code or install hooks, a\n"
          "new install script or hook, a changed url=, and files that could not be\n"
          "analyzed.  --format json prints {\"schema\":\"prc.diff/v1\",\"changes\":[...],\n"
          "\"risky\":N,\"old\":{...},\"new\":{...}} (docs/aur.md).\n"
          "Exit: 0 no risky change; 1 a risky change; 2 usage (also a bad aur: name, commit\n"
          "or --aur-url); 3 a version could not be fetched or read.\n"
          CLI_FLOOR_HELP },
        { "sandbox", "probe", cmd_sandbox_probe, "report which sandbox floor layers this host supports",
          "usage: prc sandbox probe [--format text|json] [--content-floor strict|landlock|seccomp]\n"
          "\n"
          "Applies the content worker's floor layer by layer in a throwaway child\n"
          "(user and network namespaces, no_new_privs, capabilities, Landlock, seccomp,\n"
          "rlimits) at the chosen floor level and reports each layer as applied, failed\n"
          "(with the reason and, where the host restricts user namespaces, which sysctl\n"
          "and AppArmor profile), skipped (by the level) or not tried, and which Landlock\n"
          "ABI's rights were handled; then starts a real worker and pings it.\n"
          "Exit: 0 every layer applies and the worker answered; 3 otherwise.\n"
          CLI_FLOOR_HELP },

        /* -- adapters: protocol, manifest, fixtures -- */
        { "adapter", "validate-output", cmd_adapter_validate_output,
          "decode a recorded adapter transcript under its exact manifest",
          "usage: prc adapter validate-output --manifest FILE --file TRANSCRIPT [--format text|json]\n"
          "\n"
          "Decodes TRANSCRIPT (prc-adapter-jsonl-v1 standard output) under the capability\n"
          "manifest FILE (v0.4) with the strict decoder and the manifest's line, message and\n"
          "stdout limits, without executing anything.  JSON: disposition, error_class, line,\n"
          "summary_status, observations (id, kind, outcome), manifest_sha256, ...\n"
          "Adapter bytes are never echoed.\n"
          "Exit: 0 accepted; 1 rejected (or the manifest was refused); 2 usage; 3 I/O error.\n" },
        { "adapter", "fixture-validate", cmd_adapter_fixture_validate,
          "evaluate the adapter fixture release suite twice and compare",
          "usage: prc adapter fixture-validate --suite FILE [--format text|json]\n"
          "\n"
          "Loads the fixture suite (schemas/adapter-fixture-suite.schema.json), checks that it\n"
          "binds the canonical digest of its one manifest and the SHA-256 of every transcript,\n"
          "refuses symlinks, paths outside the suite and cases that raise a limit or add\n"
          "authority, then evaluates every case twice without executing an adapter and\n"
          "compares disposition, summary status, error class and observation id, kind and\n"
          "outcome with the expectation and between the two evaluations.  JSON: the report\n"
          "(schemas/adapter-fixture-report.schema.json).  The report is evidence of protocol\n"
          "compatibility only.\n"
          "Exit: 0 no drift; 1 drift or a refused suite; 2 usage; 3 I/O error.\n" },

        /* -- adapters: registry and trust -- */
        { "adapter", "registry-validate", cmd_adapter_registry_validate,
          "validate an adapter registry lockfile, its manifests and its signature",
          "usage: prc adapter registry-validate --file REGISTRY [--trust-store FILE --signature FILE]\n"
          "                                     [--format text|json]\n"
          "\n"
          "Validates a prc.adapter-registry/v1 lockfile without executing anything: the\n"
          "document, then each entry's manifest (opened beneath the lockfile's directory\n"
          "without following symlinks; canonical digest, adapter id, publisher, lifecycle\n"
          "and engine API checked against the entry).  Revoked entries need no manifest.\n"
          "Prints each entry's default resolution decision (admitted only when active with\n"
          "first-party-sandboxed or verified-community trust) and its named reason, and the\n"
          "registry's content digest and revision.  With --trust-store and --signature, a\n"
          "detached prc.signature/v1 Ed25519 signature over the content digest in scope\n"
          "'registry' is verified against that explicitly selected publisher trust store.\n"
          "Exit: 0 valid; 1 invalid (a broken entry, document or signature); 2 usage;\n"
          "3 I/O error.\n" },

        /* -- adapters: OCI runner and records -- */
        { "adapter", "plan-oci", cmd_adapter_plan_oci, "print the exact OCI command and sealed plan, start nothing",
          "usage: prc adapter plan-oci --manifest FILE --target DIR --runtime docker|podman\n"
          "                            [--data NAME=DIR]... [--format text|json]\n"
          "                            [--gitleaks-ruleset FILE]\n"
          "\n"
          "Inventories DIR, seals a private read-only snapshot of it (then removes it),\n"
          "hashes each declared data directory, identifies the runtime client (path,\n"
          "SHA-256, version) and prints the plan: the exact argv run-oci executes\n"
          "(--pull=never, --network=none, read-only root, no capabilities,\n"
          "no-new-privileges, the invoking non-root UID:GID, memory without swap, cpus,\n"
          "pids, a nofile ulimit and the user's own nproc ulimit, the snapshot at\n"
          "/prc-snapshot as the working directory, data at /prc-inputs/NAME, no\n"
          "environment, --rm, the manifest's command) and plan_sha256 over its sealed,\n"
          "host-path-free form.\n"
          "Refuses to run as root.  docs/oci-runner.md.\n"
          "Exit: 0 planned; 1 refused input (manifest, data, ulimits); 2 usage;\n"
          "3 runtime or snapshot failure; 4 refused by policy (root).\n" },
        { "adapter", "run-oci", cmd_adapter_run_oci, "run a pinned adapter image and emit an execution record",
          "usage: prc adapter run-oci --manifest FILE --target DIR --runtime docker|podman\n"
          "                           [--data NAME=DIR]... [--format text|json]\n"
          "                           [--gitleaks-ruleset FILE]\n"
          "\n"
          "Plans as plan-oci does, checks the image is present (never pulls), re-checks\n"
          "plan, manifest, runtime binary, snapshot and data immediately before start,\n"
          "sends the three protocol lines, decodes stdout strictly as it arrives under\n"
          "the manifest's caps, counts and hashes stderr, enforces wall_seconds (removing\n"
          "exactly the container it named), re-checks snapshot and data after, and prints\n"
          "the content-addressed execution record (schemas/execution-record.schema.json).\n"
          "Exit: 0 accepted; 1 rejected output or refused input; 2 usage; 3 execution\n"
          "error (timeout, limit, changed snapshot, runtime failure); 4 refused by policy.\n" },
        { "record", "show", cmd_record_show, "check and print an execution record (v0.1-v0.3)",
          "usage: prc record show FILE [--format text|json]\n"
          "\n"
          "Reads an execution record strictly (v0.3 current; v0.1 and v0.2 archived) and\n"
          "checks that its id is the digest of the record without its id.  Reading is\n"
          "interpretation only: a record is never evidence for a new scan.\n"
          "Exit: 0 valid; 1 invalid record; 2 usage; 3 I/O error.\n" },

        /* -- documents -- */
        { "doc", "digest", cmd_doc_digest, "print the canonical SHA-256 of a YAML or JSON document",
          "usage: prc doc digest FILE [--as yaml|json|auto] [--format text|json]\n"
          "\n"
          "Loads FILE with the bounded YAML loader (or the strict JSON reader for .json\n"
          "files, or as --as says) and prints the SHA-256 of its canonical JSON (RFC 8785).\n"
          "This digest is how manifests, registries and catalogs are pinned.\n"
          "Exit: 0 printed; 1 the document was refused; 2 usage; 3 I/O error.\n" },

        /* -- setup (issue 17) -- */
        { "setup", "native", cmd_setup_native, "pull the pinned native images and fetch the pinned Gitleaks ruleset",
          "usage: prc setup native [--runtime docker|podman] [--dry-run] [--only images|ruleset]\n"
          "                        [--ruleset-url URL] [--cacert FILE] [--timeout SECONDS]\n"
          "\n"
          "Prepares what the bundled native adapters need, as an explicit operator action\n"
          "(a scan never pulls and never reaches the network):\n"
          "1. pulls each reviewed image (Gitleaks 8.30.0, Syft 1.51.0, Grype 0.116.1) by\n"
          "   digest with the runtime client, then checks with 'image inspect' that\n"
          "   exactly that digest is present;\n"
          "2. downloads the Gitleaks v8.30.0 default ruleset over HTTPS (default: the\n"
          "   upstream release tag; --ruleset-url for a mirror), keeps it only if it has\n"
          "   the pinned size and SHA-256, and stores it in prc's gzip form as\n"
          "   $XDG_DATA_HOME/prc/" PRC_GITLEAKS_RULESET_FILE "\n"
          "   (else ~/.local/share/prc/; directories 0700, the file 0600, atomically);\n"
          "3. prints what it did and the command that now works: prc verify DIR.\n"
          "The pinned digest decides, never the URL.  --dry-run prints the exact commands\n"
          "and does nothing.  --cacert FILE trusts the CAs in FILE instead of the system's;\n"
          "--timeout bounds the whole download (default 120 s).  Proxy variables and\n"
          ".netrc are ignored.  Run it as the user who runs prc verify.\n"
          "Exit: 0 done; 2 usage; 3 a step failed (each failure is named; nothing partial\n"
          "is stored).  See docs/fetch.md.\n" },
};
const size_t prc_ncmds = PRC_ARRAY_LEN(prc_cmds);

static void help(FILE *f)
{
        fprintf(f, "prc %s - " PRC_TAGLINE "\n\n"
                   "usage: prc COMMAND [ARGS]\n\ncommands:\n", PRC_VERSION);
        for (size_t i = 0; i < prc_ncmds; i++) {
                char word[64];
                snprintf(word, sizeof(word), "%s%s%s", prc_cmds[i].name, prc_cmds[i].sub ? " " : "",
                         prc_cmds[i].sub ? prc_cmds[i].sub : "");
                fprintf(f, "  %-28s %s\n", word, prc_cmds[i].summary);
        }
        fprintf(f, "\n  prc COMMAND --help       details of one command\n"
                   "  prc --version            version, commit, libraries and the host's content floor\n"
                   "\nexit status: 0 ok, 1 judged and found wanting, 2 usage, 3 execution error,\n"
                   "4 refused by policy\n");
}

/*
 * The commands that start a content worker take --content-floor (issue 23),
 * parsed once for all of them by cli_floor_take.  A new command that starts
 * a worker adds its function here.
 */
static bool starts_worker(const prc_cmd *c)
{
        static int (*const worker_cmds[])(int, char **) = {
                cmd_scan, cmd_sbom, cmd_verify, cmd_batch,
                cmd_content_parse, cmd_content_tokenize, cmd_content_archive, cmd_sandbox_probe,
                cmd_diff,
        };
        for (size_t i = 0; i < PRC_ARRAY_LEN(worker_cmds); i++)
                if (c->run == worker_cmds[i])
                        return true;
        return false;
}

static bool wants_help(int argc, char **argv)
{
        for (int i = 1; i < argc; i++) {
                if (strcmp(argv[i], "--") == 0)
                        return false;
                if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
                        return true;
        }
        return false;
}

int main(int argc, char **argv)
{
        bool known_word = false;

        /* The content worker (re-executed by the client): hidden, never listed, no stdio used. */
        if (argc >= 2 && strcmp(argv[1], PRC_WORKER_ARG) == 0)
                return prc_worker_main(argc, argv);
        /*
         * The commands that allocate enough for huge pages to pay (base/tune.h;
         * measured: prc scan on the manifests corpus 0.93 s -> 0.68 s wall,
         * 33,900 -> 2,900 page faults, docs/extraction/peers.md).
         */
        if (argc >= 3 && (strcmp(argv[1], "sbom") == 0 || strcmp(argv[1], "scan") == 0 ||
                          strcmp(argv[1], "verify") == 0 ||
                          (strcmp(argv[1], "batch") == 0 && strcmp(argv[2], "merge") != 0)))
                prc_tune_heap();
        if (argc < 2) {
                help(stderr);
                return PRC_EXIT_USAGE;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
                return cli_version();
        }
        if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                if (argc >= 3 && strncmp(argv[2], "--", 2) == 0)
                        return cli_help_gen(prc_cmds, prc_ncmds, argc - 2, argv + 2);        /* man pages, completions */
                if (argc >= 3) {
                        for (size_t i = 0; i < prc_ncmds; i++) {
                                const prc_cmd *c = &prc_cmds[i];
                                if (strcmp(c->name, argv[2]) == 0 &&
                                    (c->sub == NULL || (argc >= 4 && strcmp(c->sub, argv[3]) == 0))) {
                                        fputs(c->usage, stdout);
                                        return PRC_EXIT_OK;
                                }
                        }
                }
                help(stdout);
                return PRC_EXIT_OK;
        }
        for (size_t i = 0; i < prc_ncmds; i++) {
                const prc_cmd *c = &prc_cmds[i];
                if (strcmp(c->name, argv[1]) != 0)
                        continue;
                known_word = true;
                if (c->sub == NULL) {
                        if (wants_help(argc, argv)) {
                                fputs(c->usage, stdout);
                                return PRC_EXIT_OK;
                        }
                        if (starts_worker(c)) {
                                int n = argc - 1, rc = cli_floor_take(c->name, &n, argv + 1);
                                if (rc != PRC_EXIT_OK)
                                        return rc;
                                return c->run(n, argv + 1);
                        }
                        return c->run(argc - 1, argv + 1);
                }
                if (argc >= 3 && strcmp(c->sub, argv[2]) == 0) {
                        if (wants_help(argc - 1, argv + 1)) {
                                fputs(c->usage, stdout);
                                return PRC_EXIT_OK;
                        }
                        if (starts_worker(c)) {
                                char what[64];
                                int n = argc - 2, rc;
                                snprintf(what, sizeof(what), "%s %s", c->name, c->sub);
                                rc = cli_floor_take(what, &n, argv + 2);
                                if (rc != PRC_EXIT_OK)
                                        return rc;
                                return c->run(n, argv + 2);
                        }
                        return c->run(argc - 2, argv + 2);
                }
        }
        if (known_word) {
                bool asked = argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0);
                FILE *f = asked ? stdout : stderr;

                if (!asked)
                        fprintf(stderr, "prc %s: unknown or missing subcommand%s%s\n", argv[1],
                                argc >= 3 ? " " : "", argc >= 3 ? argv[2] : "");
                fprintf(f, "subcommands of 'prc %s':\n", argv[1]);
                for (size_t i = 0; i < prc_ncmds; i++)
                        if (strcmp(prc_cmds[i].name, argv[1]) == 0 && prc_cmds[i].sub != NULL)
                                fprintf(f, "  prc %s %-22s %s\n", argv[1], prc_cmds[i].sub, prc_cmds[i].summary);
                return asked ? PRC_EXIT_OK : PRC_EXIT_USAGE;
        }
        fprintf(stderr, "prc: unknown command '%s'\nsee 'prc help'\n", argv[1]);
        return PRC_EXIT_USAGE;
}
