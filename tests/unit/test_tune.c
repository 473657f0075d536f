/*
 * test_tune.c - huge pages for the heap: the GLIBC_TUNABLES value and
 * environment prc gives its workers (base/tune.h), and the huge-page
 * mappings of the worker's arena (prc_huge_map, base/alloc.h).
 */
#include "t.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/tune.h"

static void value_is(const char *orig, const char *want)
{
        char *v = prc_tune_value(orig);

        if (want == NULL) {
                if (v != NULL)
                        t_fail(__FILE__, __LINE__, "'%s' gave '%s', want nothing", orig ? orig : "(unset)", v);
        } else {
                T_EQ_STR(v, want);
        }
        free(v);
}

#define ALL PRC_TUNE_ALL
#define REST "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=8388608"

static void test_tune__the_value_adds_huge_pages_and_keeps_the_users_own(void)
{
        T_EQ_STR(ALL, "glibc.malloc.hugetlb=1:" REST);
        /* prc_tune_heap's mallopt values are the workers' tunables. */
        T_EQ_INT(PRC_TUNE_MMAP_THRESHOLD, 33554432);
        T_EQ_INT(PRC_TUNE_TRIM_THRESHOLD, 268435456);
        T_EQ_INT(PRC_TUNE_TOP_PAD, 8388608);
        value_is(NULL, ALL);
        value_is("", ALL);
        value_is("glibc.malloc.tcache_count=7", "glibc.malloc.tcache_count=7:" ALL);
        value_is("a=1:b=2", "a=1:b=2:" ALL);
        /* The user's own hugetlb choice, wherever it stands, is left alone, and with it all malloc tuning. */
        value_is("glibc.malloc.hugetlb=0", NULL);
        value_is("a=1:glibc.malloc.hugetlb=2", NULL);
        value_is("a=1:glibc.malloc.hugetlb=", NULL);
        /* Any other tunable of ours the user names stands: ours is not added after it. */
        value_is("glibc.malloc.top_pad=0", "glibc.malloc.top_pad=0:glibc.malloc.hugetlb=1:"
                 "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456");
        value_is("glibc.malloc.trim_threshold=1:glibc.malloc.mmap_threshold=2",
                 "glibc.malloc.trim_threshold=1:glibc.malloc.mmap_threshold=2:glibc.malloc.hugetlb=1:"
                 "glibc.malloc.top_pad=8388608");
        /* Only a whole name counts. */
        value_is("xglibc.malloc.hugetlb=0", "xglibc.malloc.hugetlb=0:" ALL);
        value_is("glibc.malloc.hugetlbx=0", "glibc.malloc.hugetlbx=0:" ALL);
        value_is("glibc.malloc.top_padx=0", "glibc.malloc.top_padx=0:" ALL);
}

static void test_tune__the_environment_replaces_or_adds_one_entry(void)
{
        char *plain[] = { "A=1", "PATH=/bin", NULL };
        char *with[] = { "A=1", "GLIBC_TUNABLES=x=1", "B=2", NULL };
        char *own[] = { "GLIBC_TUNABLES=glibc.malloc.hugetlb=0", NULL };
        char *empty[] = { NULL };
        char **e;

        e = prc_tune_env(plain);
        T_ASSERT(e != NULL);
        T_ASSERT(e[0] == plain[0] && e[1] == plain[1]);
        T_EQ_STR(e[2], "GLIBC_TUNABLES=" ALL);
        T_ASSERT(e[3] == NULL);
        prc_tune_env_free(e);

        e = prc_tune_env(with);
        T_ASSERT(e != NULL);
        T_ASSERT(e[0] == with[0] && e[1] == with[2]);
        T_EQ_STR(e[2], "GLIBC_TUNABLES=x=1:" ALL);
        T_ASSERT(e[3] == NULL);
        prc_tune_env_free(e);

        T_ASSERT(prc_tune_env(own) == NULL);

        e = prc_tune_env(empty);
        T_ASSERT(e != NULL);
        T_EQ_STR(e[0], "GLIBC_TUNABLES=" ALL);
        T_ASSERT(e[1] == NULL);
        prc_tune_env_free(e);
        prc_tune_env_free(NULL);
}

/* Every allocation the environment needs can fail: then nothing changes and nothing leaks. */
static void test_tune__a_failed_allocation_leaves_the_environment_as_it_is(void)
{
        char *with[] = { "A=1", "GLIBC_TUNABLES=x=1", NULL };

        for (unsigned long nth = 1;; nth++) {
                char **e;

                prc_fault_arm(nth, false);
                e = prc_tune_env(with);
                if (!prc_fault_fired()) {
                        prc_fault_arm(0, false);
                        T_ASSERT(e != NULL);
                        prc_tune_env_free(e);
                        T_ASSERT(nth > 1);
                        break;
                }
                prc_fault_arm(0, false);
                T_ASSERT(e == NULL);
        }
}

static void test_tune__huge_maps_are_aligned_writable_and_refuse_odd_sizes(void)
{
        for (size_t pages = 1; pages <= 3; pages++) {
                size_t n = pages * PRC_HUGE_PAGE;
                uint8_t *p = prc_huge_map(n);

                T_ASSERT(p != NULL);
                T_ASSERT(((uintptr_t)p & (PRC_HUGE_PAGE - 1)) == 0);
                for (size_t i = 0; i < n; i += 4096)
                        T_ASSERT(p[i] == 0);
                p[0] = 1;
                p[n - 1] = 2;
                T_ASSERT(p[0] == 1 && p[n - 1] == 2);
                prc_huge_unmap(p, n);
        }
        T_ASSERT(prc_huge_map(0) == NULL);
        T_ASSERT(prc_huge_map(4096) == NULL);
        T_ASSERT(prc_huge_map(PRC_HUGE_PAGE + 4096) == NULL);
        T_ASSERT(prc_huge_map(SIZE_MAX - 4095) == NULL);
        prc_fault_arm(1, false);
        T_ASSERT(prc_huge_map(PRC_HUGE_PAGE) == NULL);
        T_ASSERT(prc_fault_fired());
        prc_fault_arm(0, false);
        prc_huge_unmap(NULL, PRC_HUGE_PAGE);
}

/* Is the mapping holding address a advised MADV_HUGEPAGE ("hg" in its VmFlags)?  -1: no mapping holds it. */
static int advised(uintptr_t a)
{
        FILE *f = fopen("/proc/self/smaps", "r");
        char line[512];
        bool in = false;
        int r = -1;

        if (f == NULL)
                return -1;
        while (r == -1 && fgets(line, sizeof(line), f) != NULL) {
                unsigned long lo, hi;
                if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
                        in = a >= lo && a < hi;
                else if (in && strncmp(line, "VmFlags:", 8) == 0)
                        r = strstr(line, " hg") != NULL;
        }
        fclose(f);
        return r;
}

/* In a child (the heap is the process's): 0 when every check holds, else the number of the one that failed. */
static int heap_child(bool users_hugetlb)
{
        uintptr_t top;
        void *keep[160];
        size_t n = 0;

        if (users_hugetlb && setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0", 1) != 0)
                return 10;
        prc_tune_heap();
#if defined(__SANITIZE_ADDRESS__)
        /* malloc is the sanitizer's, not glibc's heap: only that the process goes on as before. */
        keep[0] = malloc(1u << 20);
        free(keep[0]);
        prc_tune_heap_grown();
        return keep[0] != NULL ? 0 : 12;
#endif
        top = (uintptr_t)sbrk(0) - 1;
        if (users_hugetlb)
                return advised(top) == 0 ? 0 : 11;
        if (advised(top) != 1)
                return 1;       /* the reserve is advised */
        /* Past the reserve: 1 MiB blocks come from the heap (the mmap threshold), which grows unadvised... */
        while ((uintptr_t)sbrk(0) - 1 == top || n == 0) {
                if (n == sizeof(keep) / sizeof(keep[0]) || (keep[n] = malloc(1u << 20)) == NULL)
                        return 2;
                memset(keep[n++], 1, 1u << 20);
        }
        top = (uintptr_t)sbrk(0) - 1;
        if (advised(top) != 0)
                return 3;
        /* ...until it is told. */
        prc_tune_heap_grown();
        if (advised(top) != 1)
                return 4;
        prc_tune_heap_grown();  /* nothing new: nothing to do */
        return advised(top) == 1 ? 0 : 5;
}

/* This process's VmData (what RLIMIT_DATA counts), in bytes; 0 when /proc does not say. */
static unsigned long long vm_data(void)
{
        FILE *f = fopen("/proc/self/status", "r");
        char line[256];
        unsigned long long kb = 0;

        while (f != NULL && fgets(line, sizeof(line), f) != NULL)
                if (sscanf(line, "VmData: %llu kB", &kb) == 1)
                        break;
        if (f != NULL)
                fclose(f);
        return kb * 1024;
}

/*
 * In a child: under a data limit 40 MiB above what the process holds (no
 * room for another 64 MiB at once), the tuned heap still grows by 24 MiB.
 * 0 when it does.
 */
static int limited_child(void)
{
        unsigned long long data = vm_data();
        struct rlimit rl;
        void *keep[24];

#if defined(__SANITIZE_ADDRESS__)
        return 0;       /* the sanitizer's allocator maps memory of its own: the limit would test that */
#endif
        if (data == 0 || getrlimit(RLIMIT_DATA, &rl) != 0)
                return 20;
        rl.rlim_cur = (rlim_t)(data + (40u << 20));
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
                return 21;
        if (setrlimit(RLIMIT_DATA, &rl) != 0)
                return 22;
        prc_tune_heap();
        for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
                if ((keep[i] = malloc(1u << 20)) == NULL)
                        return 23;
                memset(keep[i], 1, 1u << 20);
        }
        return 0;
}

/*
 * prc_tune_heap: the heap is reserved and advised for huge pages (the
 * tunable's effect, without a second exec); its growth past the reserve is
 * advised by prc_tune_heap_grown; a user's own hugetlb setting stands; and
 * under a data limit with no room for a second reserve the heap still grows.
 * Each run in a child of its own (heap_child says what ASan's allows).
 */
static void test_tune__the_heap_is_reserved_and_advised_for_huge_pages(void)
{
        for (int run = 0; run <= 2; run++) {
                int st = 0;
                pid_t pid = fork();

                T_ASSERT(pid >= 0);
                if (pid == 0)
                        _exit(run == 2 ? limited_child() : heap_child(run == 1));
                T_ASSERT(waitpid(pid, &st, 0) == pid);
                T_ASSERT(WIFEXITED(st));
                T_EQ_INT(WEXITSTATUS(st), 0);
        }
}

static const prc_test tests[] = {
        T(test_tune__the_value_adds_huge_pages_and_keeps_the_users_own),
        T(test_tune__the_environment_replaces_or_adds_one_entry),
        T(test_tune__a_failed_allocation_leaves_the_environment_as_it_is),
        T(test_tune__huge_maps_are_aligned_writable_and_refuse_odd_sizes),
        T(test_tune__the_heap_is_reserved_and_advised_for_huge_pages),
};
PRC_SUITE(tune, tests)
