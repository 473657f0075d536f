/*
 * lingerer.c - writes a complete, valid transcript (one observation, one
 * summary) and then stays alive: a run whose runtime client dies by a signal
 * prc did not send must not turn this into an accepted exit 0 (issue 16).
 */
#include "common.h"

int main(void)
{
        if (read_request() != 3)
                return 2;
        put(1, "{\"type\":\"observation\",\"id\":\"o1\",\"kind\":\"prc-test.entries\",\"outcome\":\"not_found\"}\n");
        put(1, "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":1,"
               "\"artifacts\":0}}\n");
        for (;;)
                sleep(3600);
}
