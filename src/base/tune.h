/*
 * tune.h - glibc malloc tuning for prc's own processes: transparent huge
 * pages for the heap (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) and a heap
 * that keeps what it has (PRC_TUNE_ALL).
 *
 * Why: on paravirtualized VMs (common CI runners) an anonymous page fault
 * costs about 10 us; `prc sbom` over a tree of manifests took some 17,000
 * of them, a quarter of its CPU.  With huge pages malloc's heap and large
 * blocks fault 2 MiB at a time (docs/extraction/peers.md).  glibc reads the
 * tunable once, when a program starts, so the workers get it in their
 * environment and the commands that allocate much (sbom, scan, verify,
 * batch: src/cli/main.c) re-execute themselves once with it.  A user's
 * own glibc.malloc.hugetlb setting always stands.
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

/*
 * Called first thing by a command that allocates much: re-executes
 * /proc/self/exe once with argv and the tunable, unless the user set
 * glibc.malloc.hugetlb, the process is set-id (glibc ignores tunables then)
 * or this is the re-executed process, which gets back the environment and
 * process name it was started with.  Returns when no re-exec happens
 * (including when execve fails: the command runs untuned).
 */
void prc_tune_reexec(char **argv);

#endif
