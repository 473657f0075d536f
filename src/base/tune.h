/*
 * tune.h - glibc malloc tuning for prc's own processes: transparent huge
 * pages for the heap and a heap that keeps what it has (PRC_TUNE_ALL).
 *
 * Why: on paravirtualized VMs (common CI runners) an anonymous page fault
 * costs about 10 us; `prc sbom` over a tree of manifests took some 17,000
 * of them, a quarter of its CPU.  With huge pages malloc's heap and large
 * blocks fault 2 MiB at a time (docs/extraction/peers.md).  The content
 * workers get the tunables in their environment (glibc reads them once,
 * at a program's start); the commands that allocate much (sbom, scan,
 * verify, batch: src/cli/main.c) apply the same in their own process
 * (prc_tune_heap): a second exec of the binary with the tunables cost
 * about 3 ms of every run (session 19).  A user's own
 * glibc.malloc.hugetlb setting always stands.
 */
#ifndef PRC_TUNE_H
#define PRC_TUNE_H

#define PRC_TUNE_HUGETLB "glibc.malloc.hugetlb=1"
/*
 * With huge pages, a heap that does not give memory back and take it again
 * (tune.c tunables: each fresh page costs a fault on such VMs): blocks up to
 * 32 MiB come from the heap rather than a mapping of their own, freed
 * memory is kept up to 256 MiB, and the heap grows 8 MiB at a time.
 * Measured on prc sbom over the manifests corpus: half the page faults,
 * about 8% less CPU (docs/extraction/peers.md, session 17).
 */
#define PRC_TUNE_ALL PRC_TUNE_HUGETLB ":glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456" \
                     ":glibc.malloc.top_pad=8388608"

/*
 * The GLIBC_TUNABLES value adding PRC_TUNE_ALL's tunables to orig (NULL:
 * unset), each one orig does not name already, as a malloc'd string; NULL
 * when orig names glibc.malloc.hugetlb (the user's own malloc tuning: then
 * nothing is added) or memory is short (then nothing changes).
 */
char *prc_tune_value(const char *orig);

/*
 * env with GLIBC_TUNABLES replaced or added as prc_tune_value says, as a
 * malloc'd array of pointers into env and one malloc'd string (free with
 * prc_tune_env_free); NULL when nothing is to change or memory is short:
 * then spawn with env itself.
 */
char **prc_tune_env(char *const *env);
void prc_tune_env_free(char **tuned);

/* PRC_TUNE_ALL's values, for prc_tune_heap's mallopt (the parent's top pad is a reserve: see there). */
enum {
        PRC_TUNE_MMAP_THRESHOLD = 32 << 20,
        PRC_TUNE_TRIM_THRESHOLD = 256 << 20,
        PRC_TUNE_TOP_PAD        = 8 << 20,      /* the workers' */
        PRC_TUNE_HEAP_RESERVE   = 64 << 20,
};

/*
 * Called first thing by a command that allocates much: PRC_TUNE_ALL in
 * this process.  The thresholds the user did not name by mallopt; the
 * heap's first growth reserves PRC_TUNE_HEAP_RESERVE (a top pad of 64 MiB:
 * address space only, pages come as they are touched), from a huge-page
 * boundary, advised MADV_HUGEPAGE, which glibc's hugetlb tunable would do
 * for each growth; later growth pads PRC_TUNE_TOP_PAD, as the workers'.
 * Where a limit leaves no room for the reserve, only that is missing.
 * Nothing when the user set glibc.malloc.hugetlb or the process is set-id;
 * once per process.
 */
void prc_tune_heap(void);

/*
 * What the heap grew by past what prc_tune_heap advised (or the last call)
 * advised MADV_HUGEPAGE too; without it, growth past the reserve would
 * fault 4 KiB at a time.  Cheap (no system call unless the heap grew), so
 * the places where the heap grows call it as they go: the scan after the
 * inventory and each manifest, prc sbom before writing.  Any thread.
 */
void prc_tune_heap_grown(void);

#endif
