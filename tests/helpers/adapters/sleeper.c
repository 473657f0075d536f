/* sleeper.c - reads its request and then sleeps far past any deadline, silently. */
#include "common.h"

int main(void)
{
        (void)read_request();
        for (;;)
                sleep(3600);
}
