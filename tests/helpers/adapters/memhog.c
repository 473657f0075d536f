/* memhog.c - allocates and touches memory until the memory limit kills it. */
#include <stdlib.h>

#include "common.h"

int main(void)
{
        (void)read_request();
        for (;;) {
                char *p = malloc(1 << 20);
                if (p == NULL)
                        return 9;       /* the limit held without a kill: also not a pass */
                memset(p, 0x5a, 1 << 20);
        }
}
