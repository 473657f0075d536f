/*
 * test_reaper.c - trees given to a reaper are all released, on its thread,
 * while values they share with trees the caller keeps stay alive (those
 * over its budget are released by the caller); without a reaper they are
 * released at once.  (ASan and LeakSanitizer see any
 * tree lost or freed twice.)
 */
#include "t.h"

#include "engine/reaper.h"

static void test_reaper__releases_every_tree_keeps_shared_values(void)
{
        json_t *shared = json_string("kept by the caller");
        prc_reaper *r = prc_reaper_new(100);

        T_ASSERT(shared != NULL);
        T_ASSERT(r != NULL);
        for (int i = 0; i < 5000; i++) {
                json_t *t = json_pack("{s:O,s:[i,s,{s:i}]}", "name", shared, "deps", i, "x", "n", i);
                T_ASSERT(t != NULL);
                prc_reaper_put(r, t, (size_t)(i % 7) * 10);
                prc_reaper_put(r, NULL, 1);     /* nothing to drop: fine */
        }
        prc_reaper_free(r);
        /* Every tree is gone, so only the caller's reference is left. */
        T_EQ_INT(shared->refcount, 1);
        T_EQ_STR(json_string_value(shared), "kept by the caller");
        json_decref(shared);
}

static void test_reaper__without_a_reaper_releases_at_once(void)
{
        json_t *shared = json_string("s");
        json_t *t = json_pack("[O]", shared);

        T_ASSERT(t != NULL);
        T_EQ_INT(shared->refcount, 2);
        prc_reaper_put(NULL, t, 0);
        T_EQ_INT(shared->refcount, 1);
        prc_reaper_free(NULL);
        json_decref(shared);
}

static const prc_test tests[] = {
        T(test_reaper__releases_every_tree_keeps_shared_values),
        T(test_reaper__without_a_reaper_releases_at_once),
};
PRC_SUITE(reaper, tests)
