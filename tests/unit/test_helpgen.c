/*
 * test_helpgen.c - man pages and completions come from whatever command
 * table they are given (issue 24): a command another change adds to
 * prc_cmds[] gets its page, its completion words and its options with no
 * other edit; roff special characters in help text are escaped.
 */
#include "t.h"

#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"

static int never(int argc, char **argv)
{
        (void)argc;
        (void)argv;
        return 0;
}

static const prc_cmd table[] = {
        { "batch", NULL, never, "scan many targets",
          "usage: prc batch --list FILE [--jobs N] [--format text|json] [--dry-run]\n"
          "\n"
          "Scans each target of FILE.\n"
          ".tar files are walked; a \\ stays a backslash.\n"
          "Exit: 0 done.\n" },
        { "report", "show", never, "show a stored report",
          "usage: prc report show ID [--state-dir DIR]\n\nPrints it.\n" },
        { "report", "list", never, "list stored reports", "usage: prc report list\n\nLists them.\n" },
        { "batch", "merge", never, "merge batch results", "usage: prc batch merge DIR [--out FILE]\n\nMerges.\n" },
};

/* Run cli_help_gen on the table with args, stdout into a file; returns what it printed. */
static char *gen(int argc, const char **args)
{
        const char *path = t_write(t_tmpdir(), "out", "", 0);
        char *argv[8];
        int rc;

        for (int i = 0; i < argc; i++)
                argv[i] = (char *)args[i];
        fflush(stdout);
        T_ASSERT(freopen(path, "w", stdout) != NULL);
        rc = cli_help_gen(table, PRC_ARRAY_LEN(table), argc, argv);
        fflush(stdout);
        T_EQ_INT(rc, 0);
        return t_read(path, NULL);
}

static void test_helpgen__list_names_one_page_per_entry(void)
{
        char *out = gen(1, (const char *[]){ "--list" });

        T_EQ_STR(out, "prc\nprc-batch\nprc-report-show\nprc-report-list\nprc-batch-merge\n");
        free(out);
}

static void test_helpgen__man_page_from_the_help_text(void)
{
        char *out = gen(2, (const char *[]){ "--man", "batch" });

        T_ASSERT(strstr(out, ".TH PRC-BATCH 1 ") != NULL);
        T_ASSERT(strstr(out, "prc-batch \\- scan many targets\n") != NULL);
        T_ASSERT(strstr(out, ".SH SYNOPSIS\n.nf\nprc batch \\-\\-list FILE [\\-\\-jobs N]") != NULL);
        /* a leading '.' is defused, a backslash is \e */
        T_ASSERT(strstr(out, "\n\\&.tar files are walked; a \\e stays a backslash.\n") != NULL);
        T_ASSERT(strstr(out, ".PP\nExit: 0 done.\n") != NULL);
        free(out);
        out = gen(3, (const char *[]){ "--man", "report", "list" });
        T_ASSERT(strstr(out, ".TH PRC-REPORT-LIST 1 ") != NULL);
        free(out);
        out = gen(1, (const char *[]){ "--man" });
        T_ASSERT(strstr(out, ".BR prc\\-batch (1)") != NULL);
        T_ASSERT(strstr(out, ".BR prc\\-report\\-show (1)") != NULL);
        free(out);
}

static void test_helpgen__bash_completion_from_the_table(void)
{
        char *out = gen(2, (const char *[]){ "--completion", "bash" });

        T_ASSERT(strstr(out, "compgen -W 'batch report help --help --version'") != NULL);
        T_ASSERT(strstr(out, "\treport)\n") != NULL);
        T_ASSERT(strstr(out, "compgen -W 'show list '") != NULL);
        T_ASSERT(strstr(out, "'batch') opts='--list --jobs --format --dry-run --help'") != NULL);
        T_ASSERT(strstr(out, "[ \"$prev\" = --format ] && COMPREPLY=($(compgen -W 'text json'") != NULL);
        T_ASSERT(strstr(out, "'report show') opts='--state-dir --help'") != NULL);
        /* "batch" is a command and has a subcommand: its options stay reachable */
        T_ASSERT(strstr(out, "\t\tmerge) key=\"$cmd ${COMP_WORDS[2]}\" ;;\n\t\t*) key=$cmd ;;") != NULL);
        T_ASSERT(strstr(out, "'batch merge') opts='--out --help'") != NULL);
        free(out);
}

static void test_helpgen__zsh_completion_from_the_table(void)
{
        char *out = gen(2, (const char *[]){ "--completion", "zsh" });

        T_ASSERT(strncmp(out, "#compdef prc\n", 13) == 0);
        T_ASSERT(strstr(out, "'batch:scan many targets'") != NULL);
        T_ASSERT(strstr(out, "'show:show a stored report'") != NULL);
        T_ASSERT(strstr(out, "'*--list:list:_files'") != NULL);
        T_ASSERT(strstr(out, "'*--format:format:(text json)'") != NULL);
        T_ASSERT(strstr(out, "'*--dry-run'") != NULL);
        T_ASSERT(strstr(out, "'report:(subcommands)'") != NULL);
        T_ASSERT(strstr(out, "(show|list|merge)") == NULL);
        T_ASSERT(strstr(out, "\t\t(merge) key=\"$words[2] $words[3]\"") != NULL);
        free(out);
}

static const prc_test tests[] = {
        T(test_helpgen__list_names_one_page_per_entry),
        T(test_helpgen__man_page_from_the_help_text),
        T(test_helpgen__bash_completion_from_the_table),
        T(test_helpgen__zsh_completion_from_the_table),
};
PRC_SUITE(helpgen, tests)
