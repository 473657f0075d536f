/*
 * test_state.c - the --state-dir store: order, atomicity, content addressing.
 */
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/digest.h"
#include "base/jcs.h"
#include "engine/state.h"

static json_t *run_doc(void)
{
        char id[PRC_SHA256_HEX + 1];
        prc_err e;
        json_t *r = json_pack("{s:s,s:i}", "schema", "prc.run-result/v1", "n", 1);

        prc_err_init(&e);
        T_ASSERT(prc_jcs_id(r, "id", id, &e));
        json_object_set_new(r, "id", json_string(id));
        return r;
}

static size_t count_entries(const char *dir)
{
        DIR *d = opendir(dir);
        struct dirent *de;
        size_t n = 0;

        if (d == NULL)
                return 0;
        while ((de = readdir(d)) != NULL)
                if (de->d_name[0] != '.' || strncmp(de->d_name, ".tmp.", 5) == 0)
                        n++;
        closedir(d);
        return n;
}

static void test_state__artifacts_then_run_by_digest(void)
{
        static const char art[] = "sbom bytes";
        prc_artifact_bytes a = { (const uint8_t *)art, sizeof(art) - 1 };
        char dir[4200], path[4400], hex[PRC_SHA256_HEX + 1];
        json_t *r = run_doc();
        prc_err e;
        char *got;
        size_t n;

        snprintf(dir, sizeof(dir), "%s/state", t_tmpdir());
        prc_err_init(&e);
        T_ASSERT(prc_state_write(dir, &a, 1, r, &e));
        T_ASSERT(prc_sha256_hex_once(art, sizeof(art) - 1, hex, &e));
        snprintf(path, sizeof(path), "%s/artifacts/%s", dir, hex);
        got = t_read(path, &n);
        T_EQ_MEM(got, n, art, sizeof(art) - 1);
        free(got);
        snprintf(path, sizeof(path), "%s/runs/%s.json", dir, json_string_value(json_object_get(r, "id")));
        got = t_read(path, &n);
        T_ASSERT(n > 0 && got[n - 1] == '\n');
        free(got);
        /* A second identical write verifies and succeeds. */
        T_ASSERT(prc_state_write(dir, &a, 1, r, &e));
        T_NOERR(e);
        json_decref(r);
}

static void crash_now(void)
{
        _exit(7);
}

static void test_state__crash_between_artifact_and_record_leaves_no_record(void)
{
        static const char art[] = "report";
        prc_artifact_bytes a = { (const uint8_t *)art, sizeof(art) - 1 };
        char dir[4200], sub[4400];
        json_t *r = run_doc();
        int status;
        pid_t pid;

        snprintf(dir, sizeof(dir), "%s/state", t_tmpdir());
        pid = fork();
        if (pid == 0) {
                prc_err e;
                prc_err_init(&e);
                prc_state_set_test_hook(crash_now);
                if (prc_state_write(dir, &a, 1, r, &e))
                        _exit(0);       /* the hook did not run */
                _exit(1);
        }
        T_ASSERT(waitpid(pid, &status, 0) == pid);
        T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 7);
        snprintf(sub, sizeof(sub), "%s/artifacts", dir);
        T_EQ_INT(count_entries(sub), 1);
        snprintf(sub, sizeof(sub), "%s/runs", dir);
        T_EQ_INT(count_entries(sub), 0);
        json_decref(r);
}

static void test_state__tampered_artifact_is_a_conflict(void)
{
        static const char art[] = "evidence";
        prc_artifact_bytes a = { (const uint8_t *)art, sizeof(art) - 1 };
        char dir[4200], sub[4400], hex[PRC_SHA256_HEX + 1];
        json_t *r = run_doc();
        prc_err e;

        snprintf(dir, sizeof(dir), "%s/state", t_tmpdir());
        prc_err_init(&e);
        T_ASSERT(prc_state_write(dir, &a, 1, r, &e));
        T_ASSERT(prc_sha256_hex_once(art, sizeof(art) - 1, hex, &e));
        snprintf(sub, sizeof(sub), "%s/artifacts", dir);
        t_write(sub, hex, "forged", 6);
        T_ASSERT(!prc_state_write(dir, &a, 1, r, &e));
        T_ERR(e, PRC_E_STATE_CONFLICT);
        json_decref(r);
}

static const prc_test tests[] = {
        T(test_state__artifacts_then_run_by_digest),
        T(test_state__crash_between_artifact_and_record_leaves_no_record),
        T(test_state__tampered_artifact_is_a_conflict),
};
PRC_SUITE(state, tests)
