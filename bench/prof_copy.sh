# prof_copy.sh - sourced by the valgrind benches (sbom_callgrind.sh, sbom_heap.sh, scan_callgrind.sh):
# under valgrind /proc/self/exe is valgrind's own tool, so the content worker would never start.
# prof_copy NAME DIR builds, in DIR/src, a copy of this tree (release flags) whose client takes its
# worker binary from PRC_PROF_WORKER, and sets P to that prc; run it with PRC_PROF_WORKER=$P (the
# worker then runs natively, outside valgrind).  NAME prefixes the error messages.
prof_copy() {
        mkdir "$2/src"
        tar cf - src Makefile scripts | (cd "$2/src" && tar xf -)
        sed -i 's|c->o.worker_path ? c->o.worker_path : "/proc/self/exe"|c->o.worker_path ? c->o.worker_path : secure_getenv("PRC_PROF_WORKER") ? secure_getenv("PRC_PROF_WORKER") : "/proc/self/exe"|' \
                "$2/src/src/content/client.c"
        grep -q PRC_PROF_WORKER "$2/src/src/content/client.c" ||
                { echo "$1: the worker path in src/content/client.c moved; update bench/prof_copy.sh" >&2; exit 1; }
        make -C "$2/src" -j2 VARIANT=release variant >/dev/null
        P=$2/src/build/prc
}
