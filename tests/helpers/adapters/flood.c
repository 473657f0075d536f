/* flood.c - `flood stdout` writes endless valid log lines; `flood stderr` endless diagnostics. */
#include "common.h"

int main(int argc, char **argv)
{
        int fd = argc > 1 && strcmp(argv[1], "stderr") == 0 ? 2 : 1;
        (void)read_request();
        for (;;)
                put(fd, "{\"type\":\"log\",\"level\":\"info\",\"message\":\"flooding flooding flooding\"}\n");
}
