/*
 * floor_opt.c - --content-floor and PRC_CONTENT_FLOOR, parsed once for
 * every command that starts a content worker (issue 23).
 * Trust: operator input.  The level is the user's explicit choice; it is
 * never lowered here or anywhere else, and the worker records what it applied.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

prc_floor_level cli_content_floor = PRC_FLOOR_STRICT;

/* Remove argv[i] (and n - 1 following words) from the vector. */
static void drop(int *argc, char **argv, int i, int n)
{
        memmove(&argv[i], &argv[i + n], (size_t)(*argc - i - n + 1) * sizeof(argv[0]));
        *argc -= n;
}

int cli_floor_take(const char *what, int *argc, char **argv)
{
        const char *env = getenv("PRC_CONTENT_FLOOR");
        bool seen = false;

        cli_content_floor = PRC_FLOOR_STRICT;
        if (env != NULL && *env != 0 && !prc_floor_level_parse(env, &cli_content_floor))
                return cli_usage(what, "PRC_CONTENT_FLOOR takes strict, landlock or seccomp, not '%s'", env);
        for (int i = 1; i < *argc;) {
                const char *a = argv[i], *v;
                int n;

                if (strcmp(a, "--") == 0)
                        break;
                if (strcmp(a, "--content-floor") == 0) {
                        if (i + 1 >= *argc)
                                return cli_usage(what, "--content-floor takes strict, landlock or seccomp");
                        v = argv[i + 1];
                        n = 2;
                } else if (strncmp(a, "--content-floor=", 16) == 0) {
                        v = a + 16;
                        n = 1;
                } else {
                        i++;
                        continue;
                }
                if (seen)
                        return cli_usage(what, "--content-floor given twice");
                if (!prc_floor_level_parse(v, &cli_content_floor))
                        return cli_usage(what, "--content-floor takes strict, landlock or seccomp, not '%s'", v);
                seen = true;
                drop(argc, argv, i, n);
        }
        return PRC_EXIT_OK;
}

void cli_client_opts(prc_client_opts *o)
{
        prc_client_opts_default(o);
        o->floor = cli_content_floor;
}
