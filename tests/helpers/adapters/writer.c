/*
 * writer.c - tries to write: a new file in the snapshot, over an existing
 * snapshot file, and in the image's root.  Reports "found" when any write
 * worked.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "common.h"

static int try_create(const char *p)
{
        int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
                return 0;
        close(fd);
        return 1;
}

int main(void)
{
        char line[256];
        int wrote = 0;
        if (read_request() != 3)
                return 2;
        wrote += try_create("/prc-snapshot/prc-injected");
        wrote += try_create("/prc-snapshot/README");
        wrote += try_create("/prc-injected");
        wrote += mkdir("/prc-snapshot/newdir", 0755) == 0;
        snprintf(line, sizeof(line),
                 "{\"type\":\"observation\",\"id\":\"write\",\"kind\":\"prc-test.write\",\"outcome\":\"%s\"}\n",
                 wrote ? "found" : "not_found");
        put(1, line);
        put(1, "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":1,"
               "\"artifacts\":0}}\n");
        return 0;
}
