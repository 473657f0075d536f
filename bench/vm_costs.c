/*
 * vm_costs.c - what this host charges for the kernel's work that `prc
 * sbom` asks for, apart from prc (bench/vm_costs.sh): memory touched for
 * the first time, in 2 MiB huge pages and in 4 KiB pages, right after the
 * same amount was freed ("back to back") and after a pause; a system call
 * that does nothing; a one-byte round trip over two pipes between two
 * processes, the shape of a content worker's request and reply.
 *
 *   vm_costs ROUNDS PAUSE_MS MIB
 *
 * Medians of ROUNDS.  A first touch is timed on memory mapped afresh, with
 * a mapping of the same size touched and unmapped just before it: back to
 * back the kernel hands those pages out again, after PAUSE_MS it may have
 * handed them back to the hypervisor (free page reporting, whose delay is
 * two seconds), and then each page costs the host a fault of its own.  Not
 * a test: nothing here decides pass or fail.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_time.h"

enum { HUGE = 2u << 20, ROUNDS_MAX = 99 };

/* mib MiB mapped on a 2 MiB boundary, advised huge or not; NULL on failure. */
static uint8_t *map(size_t mib, int huge, uint8_t **base, size_t *len)
{
        size_t n = mib << 20;
        uint8_t *p = mmap(NULL, n + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        uint8_t *at;

        if (p == MAP_FAILED)
                return NULL;
        at = (uint8_t *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
        (void)madvise(at, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        *base = p;
        *len = n + HUGE;
        return at;
}

/* One byte written in every 4 KiB page of a fresh mapping: seconds, or -1. */
static double touch(size_t mib, int huge)
{
        size_t len;
        uint8_t *base, *p = map(mib, huge, &base, &len);
        double t0, t1;

        if (p == NULL)
                return -1;
        t0 = bench_now();
        for (size_t i = 0; i < mib << 20; i += 4096)
                ((volatile uint8_t *)p)[i] = 1;
        t1 = bench_now();
        (void)munmap(base, len);
        return t1 - t0;
}

/* A first touch after the same amount was touched and freed pause_ms before: ms per MiB. */
static double first_touch(size_t mib, int huge, unsigned pause_ms)
{
        if (touch(mib, huge) < 0)
                return -1;
        if (pause_ms > 0)
                (void)nanosleep(&(struct timespec){ pause_ms / 1000, (long)(pause_ms % 1000) * 1000000 }, NULL);
        return touch(mib, huge) * 1e3 / (double)mib;
}

static double median(double *v, size_t n)
{
        qsort(v, n, sizeof(*v), bench_cmp_d);
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double cpu_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n one-byte round trips to a child: wall us each; *cpu: both processes' CPU us each. */
static double round_trips(long n, double *cpu)
{
        int to[2], from[2], st;
        char c = 'r';
        double t0, t1, c0;
        struct rusage ru;
        pid_t pid;

        if (pipe(to) != 0 || pipe(from) != 0)
                return -1;
        pid = fork();
        if (pid < 0)
                return -1;
        if (pid == 0) {
                for (long i = 0; i < n; i++)
                        if (read(to[0], &c, 1) != 1 || write(from[1], &c, 1) != 1)
                                _exit(1);
                _exit(0);
        }
        c0 = cpu_now();
        t0 = bench_now();
        for (long i = 0; i < n; i++)
                if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
                        return -1;
        t1 = bench_now();
        *cpu = cpu_now() - c0;
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || getrusage(RUSAGE_CHILDREN, &ru))
                return -1;
        *cpu += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                ru.ru_stime.tv_usec / 1e6;
        *cpu = *cpu * 1e6 / (double)n;
        for (int i = 0; i < 2; i++) {
                close(to[i]);
                close(from[i]);
        }
        return (t1 - t0) * 1e6 / (double)n;
}

int main(int argc, char **argv)
{
        long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 5;
        unsigned pause_ms = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2500;
        size_t mib = argc > 3 ? strtoul(argv[3], NULL, 10) : 16;
        double v[4][ROUNDS_MAX], t0;
        static const char *const what[] = { "2 MiB pages, back to back", "2 MiB pages, after the pause",
                                            "4 KiB pages, back to back", "4 KiB pages, after the pause" };

        if (rounds < 1 || rounds > ROUNDS_MAX || mib < 2 || mib % 2 != 0 || mib > 1024) {
                fprintf(stderr, "usage: vm_costs ROUNDS(1-%d) PAUSE_MS MIB(even, 2-1024)\n", ROUNDS_MAX);
                return 2;
        }
        for (long r = 0; r < rounds; r++)
                for (int k = 0; k < 4; k++)
                        if ((v[k][r] = first_touch(mib, k < 2, k % 2 ? pause_ms : 0)) < 0) {
                                perror("vm_costs: mmap");
                                return 1;
                        }
        printf("first touch of %zu MiB (ms a MiB, median of %ld; pause %u ms):\n", mib, rounds, pause_ms);
        for (int k = 0; k < 4; k++)
                printf("  %-30s %7.3f\n", what[k], median(v[k], (size_t)rounds));
        t0 = bench_now();
        for (int i = 0; i < 200000; i++)
                (void)syscall(SYS_getppid);
        printf("a system call that does nothing (getppid): %.2f us\n", (bench_now() - t0) * 1e6 / 200000);
        for (long r = 0; r < rounds; r++)
                if ((v[0][r] = round_trips(20000, &v[1][r])) < 0) {
                        perror("vm_costs: round trips");
                        return 1;
                }
        printf("a one-byte round trip over two pipes to another process: %.1f us wall, %.1f us CPU (both sides)\n",
               median(v[0], (size_t)rounds), median(v[1], (size_t)rounds));
        return 0;
}
