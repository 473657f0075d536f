/*
 * main.c - prc entry point: the one dispatch table of commands.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

/*
 * One entry per command.  Each area keeps its entries under its own marker
 * so parallel work merges cleanly; 'prc help' prints them in this order.
 */
const prc_cmd prc_cmds[] = {
        /* -- scan and verify (engine) -- */

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

        /* -- adapters: protocol, manifest, fixtures -- */

        /* -- adapters: registry and trust -- */

        /* -- adapters: OCI runner and records -- */

        /* -- documents -- */
        { "doc", "digest", cmd_doc_digest, "print the canonical SHA-256 of a YAML or JSON document",
          "usage: prc doc digest FILE [--as yaml|json|auto] [--format text|json]\n"
          "\n"
          "Loads FILE with the bounded YAML loader (or the strict JSON reader for .json\n"
          "files, or as --as says) and prints the SHA-256 of its canonical JSON (RFC 8785).\n"
          "This digest is how manifests, registries and catalogs are pinned.\n"
          "Exit: 0 printed; 1 the document was refused; 2 usage; 3 I/O error.\n" },
};
const size_t prc_ncmds = PRC_ARRAY_LEN(prc_cmds);

static void help(FILE *f)
{
        fprintf(f, "prc %s - production-readiness and supply-chain review of a source tree\n\n"
                   "usage: prc COMMAND [ARGS]\n\ncommands:\n", PRC_VERSION);
        for (size_t i = 0; i < prc_ncmds; i++) {
                char word[64];
                snprintf(word, sizeof(word), "%s%s%s", prc_cmds[i].name, prc_cmds[i].sub ? " " : "",
                         prc_cmds[i].sub ? prc_cmds[i].sub : "");
                fprintf(f, "  %-28s %s\n", word, prc_cmds[i].summary);
        }
        fprintf(f, "\n  prc COMMAND --help       details of one command\n"
                   "  prc --version            print the version\n"
                   "\nexit status: 0 ok, 1 judged and found wanting, 2 usage, 3 execution error,\n"
                   "4 refused by policy\n");
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

        if (argc < 2) {
                help(stderr);
                return PRC_EXIT_USAGE;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
                printf("prc %s (engine API %d)\n", PRC_VERSION, PRC_ENGINE_API);
                return PRC_EXIT_OK;
        }
        if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
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
                        return c->run(argc - 1, argv + 1);
                }
                if (argc >= 3 && strcmp(c->sub, argv[2]) == 0) {
                        if (wants_help(argc - 1, argv + 1)) {
                                fputs(c->usage, stdout);
                                return PRC_EXIT_OK;
                        }
                        return c->run(argc - 2, argv + 2);
                }
        }
        if (known_word) {
                fprintf(stderr, "prc %s: unknown or missing subcommand%s%s\nsee 'prc help'\n", argv[1],
                        argc >= 3 ? " " : "", argc >= 3 ? argv[2] : "");
                return PRC_EXIT_USAGE;
        }
        fprintf(stderr, "prc: unknown command '%s'\nsee 'prc help'\n", argv[1]);
        return PRC_EXIT_USAGE;
}
