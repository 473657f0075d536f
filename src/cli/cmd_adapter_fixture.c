/* cmd_adapter_fixture.c - placeholder, replaced below */
#include "cli/cli.h"
int cmd_adapter_fixture_validate(int argc, char **argv)
{
        (void)argc;
        (void)argv;
        return cli_usage("adapter fixture-validate", "not built yet");
}
