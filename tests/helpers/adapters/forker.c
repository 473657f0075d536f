/*
 * forker.c - tries to fork 200 children that each wait; reports how many
 * forks succeeded (the pids limit must hold it down) and ends normally.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include "common.h"

int main(void)
{
        char line[256];
        int ok = 0;
        if (read_request() != 3)
                return 2;
        for (int i = 0; i < 200; i++) {
                pid_t p = fork();
                if (p == 0) {
                        sleep(30);
                        _exit(0);
                }
                if (p > 0)
                        ok++;
        }
        snprintf(line, sizeof(line),
                 "{\"type\":\"observation\",\"id\":\"forks\",\"kind\":\"prc-test.forks\",\"outcome\":\"value\","
                 "\"value\":{\"forks\":%d}}\n", ok);
        put(1, line);
        put(1, "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":1,"
               "\"artifacts\":0}}\n");
        kill(0, SIGKILL);       /* take the children down with us */
        return 0;
}
