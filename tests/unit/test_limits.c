/*
 * test_limits.c - the three limit sets keep their intended order: operator
 * files are bounded tighter than target files, fuzzing tighter still, and
 * no limit is zero (a zero would refuse everything, or mean "unbounded" to
 * a careless reader).
 */
#include "t.h"

#include "base/limits.h"

static void check_nonzero(const prc_limits *l, const char *name)
{
        if (l->input_max == 0 || l->scalar_max == 0 || l->depth_max == 0 || l->nodes_max == 0 ||
            l->alias_max == 0 || l->anchor_max == 0 || l->merge_max == 0 || l->keys_max == 0)
                t_fail(__FILE__, __LINE__, "a %s limit is zero", name);
        if (l->scalar_max > l->input_max)
                t_fail(__FILE__, __LINE__, "%s: a scalar may not exceed the input", name);
}

static bool tighter(const prc_limits *a, const prc_limits *b)
{
        return a->input_max <= b->input_max && a->scalar_max <= b->scalar_max && a->depth_max <= b->depth_max &&
               a->nodes_max <= b->nodes_max && a->alias_max <= b->alias_max &&
               a->anchor_max <= b->anchor_max && a->merge_max <= b->merge_max && a->keys_max <= b->keys_max;
}

static void test_limits__sets_are_ordered_and_nonzero(void)
{
        check_nonzero(&prc_limits_default, "default");
        check_nonzero(&prc_limits_operator, "operator");
        check_nonzero(&prc_limits_fuzz, "fuzz");
        T_ASSERT(tighter(&prc_limits_operator, &prc_limits_default));
        T_ASSERT(tighter(&prc_limits_fuzz, &prc_limits_operator));
        /* DESIGN.md: files above 10 MiB are inventoried but not analyzed */
        T_EQ_INT(prc_limits_default.input_max, 10u << 20);
}

static const prc_test tests[] = {
        T(test_limits__sets_are_ordered_and_nonzero),
};
PRC_SUITE(limits, tests)
