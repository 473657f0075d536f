/*
 * paths.c - where prc's own data is: catalog/, adapters/ and schemas/.
 *
 * A binary in a source tree's build directory (build/prc, build/VARIANT/prc)
 * reads the tree it was built in, so development needs no install.  Any
 * other binary reads the data directory fixed at build time (the Makefile's
 * DATADIR, default /usr/local/share/prc).  Never the current directory and
 * never the environment: the bundled catalog and adapter manifests are what
 * prc verify vouches for, and a directory the user happens to be in must
 * not change them (issue 24).
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buildconf.h"

/* Cut the last path component off p in place; false when there is none. */
static bool up(char *p)
{
        char *slash = strrchr(p, '/');

        if (slash == NULL || slash == p)
                return false;
        *slash = '\0';
        return true;
}

static bool ends_with_dir(const char *p, const char *name)
{
        const char *slash = strrchr(p, '/');

        return slash != NULL && strcmp(slash + 1, name) == 0;
}

/* The source tree this binary was built in, when it runs from the tree's build directory. */
static bool source_tree(char *buf, size_t cap)
{
        char exe[4096], probe[4200];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

        if (n <= 0)
                return false;
        exe[n] = '\0';
        if (!up(exe))
                return false;
        /* build/prc, or build/asan/prc and build/test/prc */
        if (!ends_with_dir(exe, "build") && !(up(exe) && ends_with_dir(exe, "build")))
                return false;
        if (!up(exe))
                return false;
        snprintf(probe, sizeof(probe), "%s/catalog/catalog.yaml", exe);
        if (access(probe, R_OK) != 0)
                return false;
        return (size_t)snprintf(buf, cap, "%s", exe) < cap;
}

const char *cli_data_root(char *buf, size_t cap)
{
        if (source_tree(buf, cap))
                return buf;
        return PRC_DATADIR;
}

bool cli_data_root_is_source(void)
{
        char buf[4096];

        return source_tree(buf, sizeof(buf));
}

const char *cli_data_path(const char *rel, char *buf, size_t cap)
{
        char root[4096];

        snprintf(buf, cap, "%s/%s", cli_data_root(root, sizeof(root)), rel);
        return buf;
}
