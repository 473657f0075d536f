/*
 * helpgen.c - man pages and shell completions, generated from the command
 * table (issue 24): one text per command, prc_cmds[].usage, is its --help,
 * its man page and, through the options of its usage lines, its completion.
 * A command added to the table gets all three without another edit.
 *
 *   prc help --list                 one page name per line (prc, prc-scan, ...)
 *   prc help --man [CMD [SUB]]      the roff page (prc(1) without CMD)
 *   prc help --completion bash|zsh  the completion script
 *
 * The build runs these (Makefile: man, completions); they are not listed.
 * The table comes in as an argument so the unit tests can render their own.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "buildconf.h"

enum { OPT_MAX = 48, OPT_NAME = 40, OPT_CHOICES = 120 };

/* The table being rendered (cli_help_gen's arguments: main.c passes prc_cmds, tests their own). */
static const prc_cmd *tab;
static size_t ntab;

typedef struct gen_opt {
        char name[OPT_NAME];            /* "--target" */
        char choices[OPT_CHOICES];      /* "text json sarif", or "" */
        bool arg;                       /* takes a value (the next word) */
} gen_opt;

static bool is_word(int c)
{
        return isalnum(c) || c == '-' || c == '_';
}

/* The usage lines: the text before the first blank line. */
static size_t synopsis_len(const char *usage)
{
        const char *e = strstr(usage, "\n\n");

        return e != NULL ? (size_t)(e - usage) + 1 : strlen(usage);
}

/* "a|b|c" (lower-case words only) as "a b c"; false for anything else (FILE, DIR|ARCHIVE, N). */
static bool choice_list(const char *p, size_t n, char *out, size_t cap)
{
        char tmp[OPT_CHOICES];
        size_t o = 0;
        bool bar = false;

        if (n == 0 || n >= sizeof(tmp) || n >= cap)
                return false;
        for (size_t i = 0; i < n; i++) {
                if (p[i] == '|') {
                        bar = true;
                        tmp[o++] = ' ';
                } else if (islower((unsigned char)p[i]) || isdigit((unsigned char)p[i]) || p[i] == '-') {
                        tmp[o++] = p[i];
                } else {
                        return false;
                }
        }
        tmp[o] = '\0';
        if (bar)
                memcpy(out, tmp, o + 1);
        return bar;
}

/* The value word after an option name at p ("DIR", "text|json"), its length in *n; NULL for a flag. */
static const char *value_word(const char *p, size_t *n)
{
        size_t k = 0;

        if (*p != ' ' && *p != '=')
                return NULL;
        p++;
        if (*p == '-' || *p == '[' || *p == '|' || *p == '.' || *p == '\n' || *p == '\0')
                return NULL;
        while (p[k] != '\0' && p[k] != ' ' && p[k] != ']' && p[k] != '\n')
                k++;
        *n = k;
        return k > 0 ? p : NULL;
}

static gen_opt *find_opt(gen_opt *o, size_t n, const char *name, size_t len)
{
        for (size_t i = 0; i < n; i++)
                if (strlen(o[i].name) == len && strncmp(o[i].name, name, len) == 0)
                        return &o[i];
        return NULL;
}

/*
 * The options of a usage text: every --name in its usage lines, taking a
 * value when a word follows it there.  Choices come from the first
 * "--name a|b|c" anywhere in the text (the --content-floor paragraph
 * spells its levels out where the usage line says LEVEL).
 */
static size_t parse_opts(const char *usage, gen_opt *o, size_t max)
{
        size_t syn = synopsis_len(usage), n = 0;

        for (const char *p = usage; *p != '\0'; p++) {
                const char *name = p, *v;
                size_t len = 2, vlen = 0;
                gen_opt *cur;

                if (p[0] != '-' || p[1] != '-' || (p > usage && is_word((unsigned char)p[-1])) ||
                    !islower((unsigned char)p[2]))
                        continue;
                while (is_word((unsigned char)name[len]))
                        len++;
                p += len - 1;
                v = value_word(name + len, &vlen);
                cur = find_opt(o, n, name, len);
                if (cur == NULL && (size_t)(name - usage) < syn && n < max && len < OPT_NAME) {
                        cur = &o[n++];
                        memcpy(cur->name, name, len);
                        cur->name[len] = '\0';
                        cur->choices[0] = '\0';
                        cur->arg = v != NULL;
                }
                if (cur != NULL && v != NULL && cur->choices[0] == '\0')
                        choice_list(v, vlen, cur->choices, sizeof(cur->choices));
        }
        return n;
}

/* ---- roff ---- */

/* One line of text as roff: backslashes and minus signs escaped, a leading . or ' defused. */
static void roff_text(FILE *f, const char *p, size_t n)
{
        if (n > 0 && (p[0] == '.' || p[0] == '\''))
                fputs("\\&", f);
        for (size_t i = 0; i < n; i++) {
                if (p[i] == '\\')
                        fputs("\\e", f);
                else if (p[i] == '-')
                        fputs("\\-", f);
                else
                        fputc(p[i], f);
        }
        fputc('\n', f);
}

static void roff_str(FILE *f, const char *s)
{
        roff_text(f, s, strlen(s));
}

/* ".BR name (1)" plus punctuation, the name's dashes escaped. */
static void roff_ref(FILE *f, const char *name, const char *after)
{
        fputs(".BR ", f);
        for (const char *p = name; *p != '\0'; p++) {
                if (*p == '-')
                        fputc('\\', f);
                fputc(*p, f);
        }
        fprintf(f, " (1)%s\n", after);
}

static void page_name(const prc_cmd *c, char *buf, size_t cap)
{
        snprintf(buf, cap, "prc-%s%s%s", c->name, c->sub ? "-" : "", c->sub ? c->sub : "");
}

static void roff_head(FILE *f, const char *name, const char *summary)
{
        char up[64];
        size_t i;

        for (i = 0; name[i] != '\0' && i + 1 < sizeof(up); i++)
                up[i] = (char)toupper((unsigned char)name[i]);
        up[i] = '\0';
        fprintf(f, ".\\\" Generated by 'prc help --man' from prc's command table; do not edit.\n");
        /* Left-aligned, unhyphenated: option names and JSON must not be split or stretched. */
        fprintf(f, ".TH %s 1 \"\" \"prc %s\" \"prc manual\"\n.ad l\n.nh\n.SH NAME\n", up, PRC_VERSION);
        fputs(name, f);
        fputs(" \\- ", f);
        roff_str(f, summary);
}

static bool starts_paragraph(const char *line)
{
        return strncmp(line, "--", 2) == 0 || strncmp(line, "Exit:", 5) == 0;
}

/*
 * The description: blank lines are paragraphs; "N. " starts a numbered item
 * (indented lines continue it); a line starting an option or "Exit:" after
 * a finished sentence starts a paragraph; every other line is filled.
 */
static void roff_body(FILE *f, const char *p)
{
        bool item = false, sentence_end = true;

        fputs(".PP\n", f);
        while (*p != '\0') {
                const char *nl = strchr(p, '\n'), *s = p;
                size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
                size_t d = 0;

                while (d < n && isdigit((unsigned char)p[d]))
                        d++;
                if (n == 0) {
                        fputs(".PP\n", f);
                        item = false;
                } else if (d > 0 && d + 1 < n && p[d] == '.' && p[d + 1] == ' ') {
                        fprintf(f, ".IP %.*s 4\n", (int)d + 1, p);
                        item = true;
                        s = p + d + 2;
                } else if (p[0] == ' ') {
                        while (*s == ' ')
                                s++;
                } else if (item || (sentence_end && starts_paragraph(p))) {
                        fputs(".PP\n", f);
                        item = false;
                }
                if (n > 0) {
                        roff_text(f, s, n - (size_t)(s - p));
                        sentence_end = p[n - 1] == '.' || p[n - 1] == ':';
                }
                p += n;
                if (*p == '\n')
                        p++;
        }
}

static void man_command(FILE *f, const prc_cmd *c)
{
        char name[96];
        const char *u = c->usage, *body;
        size_t syn = synopsis_len(u);

        page_name(c, name, sizeof(name));
        roff_head(f, name, c->summary);
        fputs(".SH SYNOPSIS\n.nf\n", f);
        for (const char *p = u; p < u + syn;) {
                const char *nl = memchr(p, '\n', (size_t)(u + syn - p));
                size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(u + syn - p);

                if (p == u && strncmp(p, "usage: ", 7) == 0) {
                        p += 7;
                        n -= 7;
                }
                roff_text(f, p, n);
                p += n + 1;
        }
        fputs(".fi\n.SH DESCRIPTION\n", f);
        body = u + syn;
        while (*body == '\n')
                body++;
        roff_body(f, body);
        fputs(".SH SEE ALSO\n", f);
        roff_ref(f, "prc", "");
}

static void man_prc(FILE *f)
{
        char name[96];

        roff_head(f, "prc", PRC_TAGLINE);
        fputs(".SH SYNOPSIS\n.nf\nprc COMMAND [ARGS]\nprc COMMAND \\-\\-help\nprc help [COMMAND]\n"
              "prc \\-\\-version\n.fi\n.SH DESCRIPTION\n", f);
        roff_str(f, "prc reviews a source tree (a repository checkout or a package snapshot archive) and says, per "
                    "assertion of a trusted catalog, Pass, Fail, Unknown, Conflicting or Blocked, with evidence "
                    "that is content-addressed and reproducible byte for byte.  Every parser of target bytes runs "
                    "in a sandboxed content worker.");
        fputs(".SH COMMANDS\n", f);
        for (size_t i = 0; i < ntab; i++) {
                page_name(&tab[i], name, sizeof(name));
                fputs(".TP\n", f);
                roff_ref(f, name, "");
                roff_str(f, tab[i].summary);
        }
        fputs(".SH EXIT STATUS\n.TP\n0\nsuccess; for a scan, every assertion passed\n.TP\n1\n"
              "the input was judged and found wanting\n.TP\n2\nusage error\n.TP\n3\nexecution error\n"
              ".TP\n4\nrefused by policy\n", f);
        fputs(".SH ENVIRONMENT\n.TP\nPRC_CATALOG_ROOT\n", f);
        roff_str(f, "the catalog prc scan reads when --catalog-root is not given (prc verify refuses it).");
        fputs(".TP\nPRC_CONTENT_FLOOR\n", f);
        roff_str(f, "the default --content-floor level: strict, landlock or seccomp.");
        fputs(".TP\nPRC_GITLEAKS_RULESET\n", f);
        roff_str(f, "the pinned Gitleaks ruleset when --gitleaks-ruleset is not given.");
        fputs(".TP\nXDG_DATA_HOME\n", f);
        roff_str(f, "where prc setup native stores the Gitleaks ruleset (prc/ under it; default ~/.local/share).");
        fputs(".SH FILES\n.TP\n", f);
        roff_str(f, PRC_DATADIR "/catalog/");
        roff_str(f, "the bundled catalog.");
        fputs(".TP\n", f);
        roff_str(f, PRC_DATADIR "/adapters/");
        roff_str(f, "the reviewed adapter manifests (prc verify uses the Gitleaks one).");
        fputs(".TP\n", f);
        roff_str(f, PRC_DATADIR "/schemas/");
        roff_str(f, "JSON schemas of prc's documents (run results, manifests, records).");
        fputs(".PP\n", f);
        roff_str(f, "A prc run from its source tree's build directory reads that tree's catalog/, adapters/ and "
                    "schemas/ instead; never the current directory.");
        fputs(".SH SEE ALSO\n", f);
        for (size_t i = 0; i < ntab; i++) {
                page_name(&tab[i], name, sizeof(name));
                roff_ref(f, name, i + 1 < ntab ? " ," : "");
        }
}

/* ---- completions ---- */

/* s in single quotes for sh and zsh. */
static void squote(FILE *f, const char *s)
{
        fputc('\'', f);
        for (; *s != '\0'; s++) {
                if (*s == '\'')
                        fputs("'\\''", f);
                else
                        fputc(*s, f);
        }
        fputc('\'', f);
}

/* True for the first entry of c's first word in the table. */
static bool first_of_word(size_t i)
{
        for (size_t k = 0; k < i; k++)
                if (strcmp(tab[k].name, tab[i].name) == 0)
                        return false;
        return true;
}

static bool has_subs(const char *name)
{
        for (size_t i = 0; i < ntab; i++)
                if (strcmp(tab[i].name, name) == 0 && tab[i].sub != NULL)
                        return true;
        return false;
}

/* The subcommands of word, joined by sep (a trailing one for " "). */
static void subs_list(FILE *f, const char *word, const char *sep)
{
        bool first = true;

        for (size_t k = 0; k < ntab; k++) {
                if (strcmp(tab[k].name, word) != 0 || tab[k].sub == NULL)
                        continue;
                if (!first && strcmp(sep, "|") == 0)
                        fputs(sep, f);
                fputs(tab[k].sub, f);
                if (strcmp(sep, " ") == 0)
                        fputs(sep, f);
                first = false;
        }
}

static void bash_words(FILE *f)
{
        for (size_t i = 0; i < ntab; i++)
                if (first_of_word(i))
                        fprintf(f, "%s ", tab[i].name);
}

static void bash_completion(FILE *f)
{
        gen_opt o[OPT_MAX];

        fputs("# bash completion for prc; generated by 'prc help --completion bash' from prc's command table.\n"
              "_prc()\n{\n"
              "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]-} key opts\n"
              "\tCOMPREPLY=()\n"
              "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W '", f);
        bash_words(f);
        fputs("help --help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $cmd in\n", f);
        fputs("\thelp)\n\t\t[ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W '", f);
        bash_words(f);
        fputs("' -- \"$cur\"))\n\t\treturn ;;\n", f);
        for (size_t i = 0; i < ntab; i++) {
                const char *w = tab[i].name;
                if (!first_of_word(i) || !has_subs(w))
                        continue;
                /* A word that is a command itself as well ("batch" beside "batch merge"): options go to it. */
                fprintf(f, "\t%s)\n\t\tif [ \"$COMP_CWORD\" -eq 2 ] && [[ $cur != -* ]]; then\n"
                           "\t\t\tCOMPREPLY=($(compgen -W '", w);
                subs_list(f, w, " ");
                fputs("' -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n\t\tcase ${COMP_WORDS[2]} in\n\t\t", f);
                subs_list(f, w, "|");
                fputs(") key=\"$cmd ${COMP_WORDS[2]}\" ;;\n\t\t*) key=$cmd ;;\n\t\tesac ;;\n", f);
        }
        fputs("\t*) key=$cmd ;;\n\tesac\n\tcase $key in\n", f);
        for (size_t i = 0; i < ntab; i++) {
                size_t n = parse_opts(tab[i].usage, o, OPT_MAX);
                fprintf(f, "\t'%s%s%s') opts='", tab[i].name, tab[i].sub ? " " : "",
                        tab[i].sub ? tab[i].sub : "");
                for (size_t k = 0; k < n; k++)
                        fprintf(f, "%s ", o[k].name);
                fputs("--help'\n", f);
                for (size_t k = 0; k < n; k++)
                        if (o[k].choices[0] != '\0')
                                fprintf(f, "\t\t[ \"$prev\" = %s ] && COMPREPLY=($(compgen -W '%s' -- \"$cur\")) && return\n",
                                        o[k].name, o[k].choices);
                fputs("\t\t;;\n", f);
        }
        fputs("\t*) return ;;\n\tesac\n"
              "\t# Anything else: an option name, or the shell's own file name completion (-o default).\n"
              "\tcase $cur in -*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;; esac\n"
              "}\n"
              "complete -o default -F _prc prc\n", f);
}

/* The summary of the command that is the word alone, else "(subcommands)". */
static const char *word_summary(const char *word)
{
        for (size_t i = 0; i < ntab; i++)
                if (strcmp(tab[i].name, word) == 0 && tab[i].sub == NULL)
                        return tab[i].summary;
        return "(subcommands)";
}

static void zsh_describe(FILE *f, const char *var, const char *word)
{
        const char *ind = word == NULL ? "\t" : "\t\t";

        fprintf(f, "%s%s=(\n", ind, var);
        for (size_t i = 0; i < ntab; i++) {
                char item[256];
                const prc_cmd *c = &tab[i];
                if (word == NULL ? !first_of_word(i) : (strcmp(c->name, word) != 0 || c->sub == NULL))
                        continue;
                snprintf(item, sizeof(item), "%s:%s", word == NULL ? c->name : c->sub,
                         word == NULL ? word_summary(c->name) : c->summary);
                fprintf(f, "%s\t", ind);
                squote(f, item);
                fputc('\n', f);
        }
        fprintf(f, "%s)\n", ind);
}

static void zsh_completion(FILE *f)
{
        gen_opt o[OPT_MAX];

        fputs("#compdef prc\n# zsh completion for prc; generated by 'prc help --completion zsh' from prc's "
              "command table.\n\n_prc() {\n\tlocal -a cmds subs\n\tlocal key\n", f);
        zsh_describe(f, "cmds", NULL);
        fputs("\tif (( CURRENT == 2 )); then\n\t\t_describe -t commands 'prc command' cmds\n"
              "\t\tcompadd -- help --help --version\n\t\treturn\n\tfi\n\tkey=$words[2]\n"
              "\tcase $words[2] in\n\thelp) (( CURRENT == 3 )) && _describe -t commands 'prc command' cmds; "
              "return ;;\n", f);
        for (size_t i = 0; i < ntab; i++) {
                if (!first_of_word(i) || !has_subs(tab[i].name))
                        continue;
                fprintf(f, "\t%s)\n", tab[i].name);
                zsh_describe(f, "subs", tab[i].name);
                fputs("\t\tif (( CURRENT == 3 )) && [[ $words[3] != -* ]]; then\n"
                      "\t\t\t_describe -t subcommands 'subcommand' subs\n\t\t\treturn\n\t\tfi\n"
                      "\t\tcase $words[3] in\n\t\t(", f);
                subs_list(f, tab[i].name, "|");
                fputs(") key=\"$words[2] $words[3]\"; shift words; (( CURRENT-- )) ;;\n\t\tesac ;;\n", f);
        }
        fputs("\tesac\n\tshift words; (( CURRENT-- ))\n\tcase $key in\n", f);
        for (size_t i = 0; i < ntab; i++) {
                size_t n = parse_opts(tab[i].usage, o, OPT_MAX);
                fprintf(f, "\t'%s%s%s') _arguments -S", tab[i].name, tab[i].sub ? " " : "",
                        tab[i].sub ? tab[i].sub : "");
                /* Option names and choices are [a-z0-9_-] words (parse_opts): no quoting needed. */
                for (size_t k = 0; k < n; k++) {
                        fprintf(f, " \\\n\t\t'*%s", o[k].name);
                        if (o[k].choices[0] != '\0')
                                fprintf(f, ":%s:(%s)", o[k].name + 2, o[k].choices);
                        else if (o[k].arg)
                                fprintf(f, ":%s:_files", o[k].name + 2);
                        fputc('\'', f);
                }
                fputs(" \\\n\t\t'--help' '*:file:_files' ;;\n", f);
        }
        fputs("\tesac\n}\n\n_prc \"$@\"\n", f);
}

static const prc_cmd *lookup(int argc, char **argv)
{
        for (size_t i = 0; argc >= 1 && i < ntab; i++) {
                const prc_cmd *c = &tab[i];
                if (strcmp(c->name, argv[0]) == 0 &&
                    (c->sub == NULL ? argc == 1 : argc == 2 && strcmp(c->sub, argv[1]) == 0))
                        return c;
        }
        return NULL;
}

int cli_help_gen(const prc_cmd *cmds, size_t ncmds, int argc, char **argv)
{
        char name[96];

        tab = cmds;
        ntab = ncmds;
        if (strcmp(argv[0], "--list") == 0 && argc == 1) {
                puts("prc");
                for (size_t i = 0; i < ntab; i++) {
                        page_name(&tab[i], name, sizeof(name));
                        puts(name);
                }
                return PRC_EXIT_OK;
        }
        if (strcmp(argv[0], "--man") == 0) {
                const prc_cmd *c;
                if (argc == 1) {
                        man_prc(stdout);
                        return PRC_EXIT_OK;
                }
                /* prc-content-parse as well as "content parse" */
                if (argc == 2 && strcmp(argv[1], "prc") == 0) {
                        man_prc(stdout);
                        return PRC_EXIT_OK;
                }
                if (argc == 2 && strncmp(argv[1], "prc-", 4) == 0) {
                        for (size_t i = 0; i < ntab; i++) {
                                page_name(&tab[i], name, sizeof(name));
                                if (strcmp(name, argv[1]) == 0) {
                                        man_command(stdout, &tab[i]);
                                        return PRC_EXIT_OK;
                                }
                        }
                }
                c = lookup(argc - 1, argv + 1);
                if (c == NULL)
                        return cli_usage("help", "no command '%s%s%s'", argc >= 2 ? argv[1] : "",
                                         argc >= 3 ? " " : "", argc >= 3 ? argv[2] : "");
                man_command(stdout, c);
                return PRC_EXIT_OK;
        }
        if (strcmp(argv[0], "--completion") == 0 && argc == 2) {
                if (strcmp(argv[1], "bash") == 0) {
                        bash_completion(stdout);
                        return PRC_EXIT_OK;
                }
                if (strcmp(argv[1], "zsh") == 0) {
                        zsh_completion(stdout);
                        return PRC_EXIT_OK;
                }
        }
        return cli_usage("help", "expected --list, --man [COMMAND [SUBCOMMAND]] or --completion bash|zsh");
}
