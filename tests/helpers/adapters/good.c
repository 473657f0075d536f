/*
 * good.c - a well-behaved jsonl adapter: reads its request, checks that its
 * working directory is the snapshot, counts the snapshot's top-level
 * entries and reports them, reports whether /prc-inputs/db is mounted, and
 * ends with one summary.  Deterministic for a given snapshot.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

int main(void)
{
        char line[512], cwd[256];
        int files = 0, db = 0;
        if (read_request() != 3)
                return 2;
        if (getcwd(cwd, sizeof(cwd)) == NULL || strcmp(cwd, "/prc-snapshot") != 0)
                return 4;
        DIR *d = opendir(".");
        if (d == NULL)
                return 5;
        for (struct dirent *e; (e = readdir(d)) != NULL;)
                if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                        files++;
        closedir(d);
        d = opendir("/prc-inputs/db");
        if (d != NULL) {
                for (struct dirent *e; (e = readdir(d)) != NULL;)
                        if (e->d_name[0] != '.')
                                db++;
                closedir(d);
        }
        put(1, "{\"type\":\"log\",\"level\":\"info\",\"message\":\"good adapter\"}\n");
        snprintf(line, sizeof(line),
                 "{\"type\":\"observation\",\"id\":\"entries\",\"kind\":\"prc-test.entries\",\"outcome\":\"value\","
                 "\"value\":{\"top_level\":%d,\"db_files\":%d}}\n", files, db);
        put(1, line);
        put(1, "{\"type\":\"observation\",\"id\":\"secret\",\"kind\":\"prc-test.secret\",\"outcome\":\"found\","
               "\"locations\":[{\"path\":\"README\",\"start_line\":1}]}\n");
        put(2, "good adapter diagnostics\n");
        put(1, "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":1,\"observations\":2,"
               "\"artifacts\":0}}\n");
        return 0;
}
