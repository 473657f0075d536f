/* authority.c - claims evaluator authority: an observation that says it passed. */
#include "common.h"

int main(void)
{
        if (read_request() != 3)
                return 2;
        put(1, "{\"type\":\"observation\",\"id\":\"a\",\"kind\":\"prc-test.secret\",\"outcome\":\"not_found\","
               "\"verdict\":\"pass\"}\n");
        put(1, "{\"type\":\"summary\",\"status\":\"completed\",\"counters\":{\"logs\":0,\"observations\":1,"
               "\"artifacts\":0}}\n");
        return 0;
}
