/*
 * test_batch.c - issue 21: the batch target list, shard assignment, the
 * index and its merge, and the resumption records in a state dir
 * (engine/batch.c).  The processes and the scans are tests/cli/test_batch.sh's.
 */
#include "t.h"

#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/jcs.h"
#include "engine/batch.h"

static prc_batch_list parse(const char *s)
{
        prc_batch_list l;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_batch_list_parse((const uint8_t *)s, strlen(s), &l, &e));
        T_NOERR(e);
        return l;
}

static void test_batch__blank_lines_and_comments_are_ignored(void)
{
        prc_batch_list l = parse("# a list\n\n   \n\t# indented comment\npk/a.tar.gz\r\naur:yay\n/abs/dir");

        T_EQ_INT(l.n, 3);
        T_EQ_STR(l.v[0].text, "pk/a.tar.gz");   /* the CR of a CRLF list is not part of the target */
        T_EQ_INT(l.v[0].line, 5);
        T_ASSERT(!l.v[0].aur);
        T_NOERR(l.v[0].err);
        T_EQ_STR(l.v[1].text, "aur:yay");
        T_ASSERT(l.v[1].aur);
        T_NOERR(l.v[1].err);
        T_EQ_STR(l.v[2].text, "/abs/dir");      /* the last line needs no LF */
        T_EQ_INT(l.v[2].line, 7);
        prc_batch_list_clear(&l);
}

static void test_batch__malformed_lines_are_kept_with_their_error(void)
{
        static const char s[] = " lead\ntrail \nctl\x01x\nbad\xff utf8\naur:Bad Name\naur:\nok\nn\0ul\n";
        char big[PRC_BATCH_LINE_MAX + 8];
        prc_batch_list l;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_batch_list_parse((const uint8_t *)s, sizeof(s) - 1, &l, &e));
        T_EQ_INT(l.n, 8);
        for (size_t i = 0; i < 4; i++) {
                T_ERR(l.v[i].err, PRC_E_BATCH_LINE_INVALID);
                T_EQ_INT(l.v[i].err.line, i + 1);
        }
        T_EQ_STR(l.v[3].text, "bad? utf8");     /* listed in the index as valid UTF-8 */
        T_ERR(l.v[4].err, PRC_E_AUR_NAME_INVALID);
        T_ERR(l.v[5].err, PRC_E_AUR_NAME_INVALID);
        T_NOERR(l.v[6].err);
        T_ERR(l.v[7].err, PRC_E_BATCH_LINE_INVALID);   /* a NUL */
        T_EQ_INT(l.v[7].line, 8);
        prc_batch_list_clear(&l);

        memset(big, 'a', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        l = parse(big);
        T_EQ_INT(l.n, 1);
        T_ERR(l.v[0].err, PRC_E_BATCH_LINE_INVALID);
        T_EQ_INT(strlen(l.v[0].text), PRC_BATCH_LINE_MAX);
        prc_batch_list_clear(&l);
}

static void test_batch__shard_spec(void)
{
        static const char *const bad[] = { "", "1", "0/0", "1/1", "2/2", "a/2", "0/b", "-1/2", "+0/2", "01/2",
                                           "0/02", " 0/2", "0/2 ", "0/65537", "0/1/2", "4294967296/1" };
        uint32_t i, n;
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_batch_shard_parse("0/1", &i, &n, &e));
        T_EQ_INT(i, 0);
        T_EQ_INT(n, 1);
        T_ASSERT(prc_batch_shard_parse("65535/65536", &i, &n, &e));
        T_EQ_INT(i, 65535);
        T_EQ_INT(n, 65536);
        for (size_t k = 0; k < PRC_ARRAY_LEN(bad); k++) {
                prc_err_init(&e);
                if (prc_batch_shard_parse(bad[k], &i, &n, &e))
                        t_fail(__FILE__, __LINE__, "'%s' accepted", bad[k]);
                T_ERR(e, PRC_E_BATCH_SHARD_INVALID);
        }
}

static void test_batch__shard_is_the_documented_hash(void)
{
        unsigned seen[5] = { 0 };
        char t[32];

        /* u64be(SHA-256(text)[0..8)) mod N, computed independently (python hashlib). */
        T_EQ_INT(prc_batch_shard_of("pk/a.tar.gz", 7), 3);
        T_EQ_INT(prc_batch_shard_of("aur:yay", 3), 0);
        T_EQ_INT(prc_batch_shard_of("x", 65536), 45124);
        T_EQ_INT(prc_batch_shard_of("anything", 1), 0);
        for (int k = 0; k < 200; k++) {
                snprintf(t, sizeof(t), "pkg-%d.tar.gz", k);
                seen[prc_batch_shard_of(t, 5)]++;
        }
        for (int s = 0; s < 5; s++)
                T_ASSERT(seen[s] > 0);
}

static json_t *result_entry(int line, const char *target, const char *key, int pass, int fail)
{
        return json_pack("{s:i,s:s,s:s,s:s,s:{s:i,s:i,s:i,s:i,s:i},s:[]}", "line", line, "target", target, "key",
                         key, "result", key, "states", "pass", pass, "fail", fail, "unknown", 0, "conflicting", 0,
                         "blocked", 0, "failing");
}

static json_t *error_entry(int line, const char *target, const char *cls)
{
        return json_pack("{s:i,s:s,s:{s:s,s:s}}", "line", line, "target", target, "error", "class", cls, "message",
                         "m");
}

#define K1 "1111111111111111111111111111111111111111111111111111111111111111"
#define K2 "2222222222222222222222222222222222222222222222222222222222222222"
#define K3 "3333333333333333333333333333333333333333333333333333333333333333"

static json_t *entries(void)
{
        return json_pack("[o,o,o,o,o]", result_entry(1, "b.tar.gz", K1, 3, 0),
                         error_entry(2, " bad", "batch-line-invalid"),
                         result_entry(3, "a.tar.gz", K2, 2, 1), error_entry(4, "gone", "io-error"),
                         result_entry(5, "a.tar.gz", K3, 3, 0));
}

static json_t *header(int shard, int count)
{
        json_t *h = json_pack("{s:s,s:s,s:{s:s},s:s,s:s}", "catalog_sha256", K1, "list_sha256", K2, "options",
                              "mode", "inspect", "prc_version", "0.1.0", "profile", "prc/aur");
        if (count > 0)
                json_object_set_new(h, "shard", json_pack("{s:i,s:i}", "index", shard, "count", count));
        return h;
}

static void canon(const json_t *v, prc_buf *b)
{
        prc_err e;

        prc_err_init(&e);
        prc_buf_init(b, 1 << 20);
        T_ASSERT(prc_jcs_write(v, b, &e));
}

static void test_batch__index_is_sorted_with_a_summary(void)
{
        json_t *h = header(0, 0), *all = entries(), *idx;
        const json_t *t, *sum;
        prc_err e;

        prc_err_init(&e);
        idx = prc_batch_index(h, all, &e);
        T_ASSERT(idx != NULL);
        t = json_object_get(idx, "targets");
        T_EQ_STR(json_string_value(json_object_get(json_array_get(t, 0), "target")), " bad");
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(t, 1), "line")), 3);  /* same text: by line */
        T_EQ_INT(json_integer_value(json_object_get(json_array_get(t, 2), "line")), 5);
        T_EQ_STR(json_string_value(json_object_get(json_array_get(t, 4), "target")), "gone");
        sum = json_object_get(idx, "summary");
        T_EQ_INT(json_integer_value(json_object_get(sum, "targets")), 5);
        T_EQ_INT(json_integer_value(json_object_get(sum, "results")), 3);
        T_EQ_INT(json_integer_value(json_object_get(sum, "errors")), 2);
        T_EQ_INT(json_integer_value(json_object_get(sum, "malformed")), 1);
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(sum, "states"), "pass")), 8);
        T_EQ_STR(json_string_value(json_object_get(sum, "worst")), "Fail");
        T_EQ_INT(json_integer_value(json_object_get(sum, "exit")), 3);  /* a target that could not be scanned */
        T_ASSERT(json_object_get(idx, "shard") == NULL);
        T_EQ_INT(prc_batch_entry_exit(json_array_get(t, 0)), 2);
        T_EQ_INT(prc_batch_entry_exit(json_array_get(t, 1)), 1);
        T_EQ_INT(prc_batch_entry_exit(json_array_get(t, 2)), 0);
        json_decref(idx);
        json_decref(all);
        json_decref(h);
}

/* Each shard's index alone, as `prc batch --shard I/N` writes it. */
static json_t *shard_index(const json_t *all, int i, int n)
{
        json_t *mine = json_array(), *h = header(i, n), *idx;
        const json_t *x;
        size_t k;
        prc_err e;

        json_array_foreach(all, k, x)
                if ((int)prc_batch_shard_of(json_string_value(json_object_get(x, "target")), (uint32_t)n) == i)
                        json_array_append(mine, (json_t *)x);
        prc_err_init(&e);
        idx = prc_batch_index(h, mine, &e);
        T_ASSERT(idx != NULL);
        json_decref(mine);
        json_decref(h);
        return idx;
}

static void test_batch__merged_shards_equal_the_unsharded_index(void)
{
        json_t *all = entries(), *h = header(0, 0), *whole, *parts[3], *merged = NULL;
        prc_buf a, b;
        prc_err e;

        prc_err_init(&e);
        whole = prc_batch_index(h, all, &e);
        /* given in any order */
        parts[0] = shard_index(all, 2, 3);
        parts[1] = shard_index(all, 0, 3);
        parts[2] = shard_index(all, 1, 3);
        T_ASSERT(prc_batch_merge(parts, 3, &merged, &e));
        canon(whole, &a);
        canon(merged, &b);
        T_EQ_MEM(a.data, a.len, b.data, b.len);
        prc_buf_clear(&a);
        prc_buf_clear(&b);
        json_decref(merged);
        for (int i = 0; i < 3; i++)
                json_decref(parts[i]);
        json_decref(whole);
        json_decref(h);
        json_decref(all);
}

static void test_batch__merges_that_would_mislead_are_refused(void)
{
        json_t *all = entries(), *p[3], *merged = NULL, *h = header(0, 0), *whole;
        prc_err e;

        p[0] = shard_index(all, 0, 3);
        p[1] = shard_index(all, 1, 3);
        p[2] = shard_index(all, 1, 3);
        prc_err_init(&e);
        T_ASSERT(!prc_batch_merge(p, 2, &merged, &e));         /* 2/3 missing */
        T_ERR(e, PRC_E_BATCH_MERGE_INCOMPLETE);
        prc_err_init(&e);
        T_ASSERT(!prc_batch_merge(p, 3, &merged, &e));         /* 1/3 twice */
        T_ERR(e, PRC_E_BATCH_MERGE_MISMATCH);
        json_decref(p[2]);
        p[2] = shard_index(all, 2, 3);
        json_object_set_new(p[2], "profile", json_string("prc/core"));
        prc_err_init(&e);
        T_ASSERT(!prc_batch_merge(p, 3, &merged, &e));         /* another profile */
        T_ERR(e, PRC_E_BATCH_MERGE_MISMATCH);
        json_decref(p[2]);
        p[2] = shard_index(all, 0, 2);
        prc_err_init(&e);
        T_ASSERT(!prc_batch_merge(p, 3, &merged, &e));         /* shards of 2 and of 3 */
        T_ERR(e, PRC_E_BATCH_MERGE_MISMATCH);
        prc_err_init(&e);
        whole = prc_batch_index(h, all, &e);
        json_decref(p[2]);
        p[2] = whole;
        T_ASSERT(!prc_batch_merge(p + 1, 2, &merged, &e));     /* sharded with unsharded */
        T_ERR(e, PRC_E_BATCH_MERGE_MISMATCH);
        prc_err_init(&e);
        T_ASSERT(prc_batch_merge(p + 2, 1, &merged, &e));      /* one unsharded index is its own merge */
        json_decref(merged);
        for (int i = 0; i < 3; i++)
                json_decref(p[i]);
        json_decref(h);
        json_decref(all);
}

/* A run result as the scan makes one: canonical, its id the digest of the rest. */
static json_t *fake_run(int fail)
{
        json_t *run = json_pack("{s:s,s:[{s:s,s:s},{s:s,s:s}],s:{s:i,s:i,s:i,s:i,s:i,s:i}}", "schema",
                                "prc.run-result/v1", "assertions", "id", "PRC-B", "state", fail ? "Fail" : "Pass", "id",
                                "PRC-A", "state", fail ? "Fail" : "Pass", "summary", "total", 2, "pass", fail ? 0 : 2,
                                "fail", fail ? 2 : 0, "unknown", 0, "conflicting", 0, "blocked", 0);
        char id[PRC_SHA256_HEX + 1];
        prc_err e;

        prc_err_init(&e);
        T_ASSERT(prc_jcs_id(run, "id", id, &e));
        json_object_set_new(run, "id", json_string(id));
        return run;
}

static void test_batch__stored_results_are_found_and_verified(void)
{
        const char *dir = t_tmpdir();
        char sd[4096], path[4200];
        json_t *run = fake_run(1), *got = NULL, *stored = NULL;
        bool repair = true;
        int root, fd;
        prc_err e;

        snprintf(sd, sizeof(sd), "%s/state", dir);
        prc_err_init(&e);
        root = prc_batch_state_open(sd, &e);
        T_ASSERT(root >= 0);
        T_ASSERT(prc_batch_lookup(root, K1, &got, &repair, &e));
        T_ASSERT(got == NULL && !repair);                        /* nothing yet */
        T_ASSERT(prc_batch_store(root, K1, run, NULL, &stored, &e));
        T_NOERR(e);
        T_ASSERT(prc_batch_lookup(root, K1, &got, &repair, &e));
        T_ASSERT(got != NULL && !repair);
        T_ASSERT(json_equal(got, stored));
        T_EQ_STR(json_string_value(json_object_get(got, "result")), json_string_value(json_object_get(run, "id")));
        T_EQ_STR(json_string_value(json_array_get(json_object_get(got, "failing"), 0)), "PRC-A");    /* sorted */
        T_EQ_INT(json_integer_value(json_object_get(json_object_get(got, "states"), "fail")), 2);
        json_decref(got);
        json_decref(stored);

        /* A torn file (a power cut before the batch's sync) is not a result: scanned again. */
        snprintf(path, sizeof(path), "%s/keys/%s.json", sd, K1);
        fd = open(path, O_WRONLY | O_TRUNC);
        T_ASSERT(fd >= 0);
        T_ASSERT(write(fd, "{\"id\":", 6) == 6);
        close(fd);
        T_ASSERT(prc_batch_lookup(root, K1, &got, &repair, &e));
        T_ASSERT(got == NULL && repair);
        /* Storing again replaces it. */
        T_ASSERT(prc_batch_store(root, K1, run, NULL, &stored, &e));
        json_decref(stored);
        T_ASSERT(prc_batch_lookup(root, K1, &got, &repair, &e));
        T_ASSERT(got != NULL && !repair);
        json_decref(got);
        close(root);
        json_decref(run);
}

static void test_batch__state_dir_is_locked_and_swept(void)
{
        const char *dir = t_tmpdir();
        char sd[4096], path[4300];
        int a, b, fd;
        struct stat st;
        prc_err e;

        snprintf(sd, sizeof(sd), "%s/state", dir);
        prc_err_init(&e);
        a = prc_batch_state_open(sd, &e);
        T_ASSERT(a >= 0);
        /* a killed batch's temporary */
        snprintf(path, sizeof(path), "%s/runs/.batch-tmp.999999.x.json", sd);
        fd = open(path, O_WRONLY | O_CREAT, 0600);
        T_ASSERT(fd >= 0);
        close(fd);
        b = prc_batch_state_open(sd, &e);
        T_ASSERT(b < 0);
        T_ERR(e, PRC_E_BATCH_STATE_BUSY);
        T_ASSERT(stat(path, &st) == 0);         /* not swept by a batch that did not get the lock */
        close(a);
        prc_err_init(&e);
        b = prc_batch_state_open(sd, &e);
        T_ASSERT(b >= 0);
        T_ASSERT(stat(path, &st) != 0);
        close(b);
}

static const prc_test tests[] = {
        T(test_batch__blank_lines_and_comments_are_ignored),
        T(test_batch__malformed_lines_are_kept_with_their_error),
        T(test_batch__shard_spec),
        T(test_batch__shard_is_the_documented_hash),
        T(test_batch__index_is_sorted_with_a_summary),
        T(test_batch__merged_shards_equal_the_unsharded_index),
        T(test_batch__merges_that_would_mislead_are_refused),
        T(test_batch__stored_results_are_found_and_verified),
        T(test_batch__state_dir_is_locked_and_swept),
};
PRC_SUITE(batch, tests)
