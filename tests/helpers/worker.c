/*
 * worker.c - the tests' standalone content worker: the same entry point and
 * dispatch table as `prc __worker`, built with PRC_TESTING so the test-only
 * escape operations and arguments exist (the release prc has neither).
 *   build/test/helpers/worker __worker [key=value]...   (fds 3 and 4: pipes)
 */
#include <string.h>

#include "content/worker.h"

int main(int argc, char **argv)
{
        if (argc < 2 || strcmp(argv[1], PRC_WORKER_ARG) != 0)
                return 2;
        return prc_worker_main(argc, argv);
}
