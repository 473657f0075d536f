/*
 * yaml.c - PLACEHOLDER until the bounded loader lands (issue 2, item 7):
 * refuses every input so nothing can pass through an unbounded path.
 */
#include "base/yaml.h"

json_t *prc_yaml_load(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags, prc_err *err)
{
        (void)p;
        (void)n;
        (void)lim;
        (void)flags;
        prc_err_set(err, PRC_E_INTERNAL, "the YAML loader is not built yet");
        return NULL;
}
