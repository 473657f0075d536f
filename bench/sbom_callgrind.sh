#!/bin/bash
# sbom_callgrind.sh - issue 18 "Speed", deterministic side: instructions of `prc sbom`'s parent process
# (all its threads; not its content workers) over ../shared/corpora/manifests, counted by callgrind,
# with the parts that matter for the parent: decoding replies (of which the dependency tables, session
# 14), checking them, folding them into the BOM, freeing (jansson's frees), and what follows the scan
# (the write, the teardown).  Load does not
# change an instruction count, so two builds compare on a busy host where wall and CPU time do not
# (but see docs/extraction/peers.md: natively the parent is memory-bound, and fewer instructions
# bought far less CPU time than their count).
#
#   bash bench/sbom_callgrind.sh [TREE]        default: ../shared/corpora/manifests
#
# As bench/scan_callgrind.sh: under valgrind /proc/self/exe is valgrind's own tool, so the worker
# would never start; a copy of the tree (release flags, in a temporary directory) takes its worker
# binary from PRC_PROF_WORKER and runs it natively, and the profiled SBOM must be build/prc's, byte
# for byte.  Callgrind counts SHA-256 (the inventory's, and each read's check) without SHA-NI, far
# above its native cost: the total without it is printed too.
set -eu
cd "$(dirname "$0")/.."
CORPORA=${PRC_CORPORA:-../shared/corpora}
TREE=${1:-$CORPORA/manifests}
command -v valgrind >/dev/null || { echo "bench/sbom_callgrind.sh: valgrind is not installed" >&2; exit 1; }
[ -x build/prc ] || { echo "bench/sbom_callgrind.sh: build/prc is not built (run make)" >&2; exit 1; }
[ -d "$TREE" ] || { echo "bench/sbom_callgrind.sh: $TREE is absent" >&2; exit 1; }
W=$(mktemp -d /tmp/prc-bench-sbomcg-XXXXXX)
trap 'rm -rf "$W"' EXIT
. bench/prof_copy.sh
prof_copy bench/sbom_callgrind.sh "$W"
# A tunable of the user's own is never overridden, so the command does not re-execute itself
# (/proc/self/exe is valgrind's tool here); instruction counts do not depend on huge pages.
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 PRC_PROF_WORKER=$P valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$P" sbom --target "$TREE" \
        --output "$W/a.json" >/dev/null 2>"$W/vg.log" || [ $? -le 1 ]
build/prc sbom --target "$TREE" --output "$W/b.json" >/dev/null 2>&1 || [ $? -le 1 ]
cmp -s "$W/a.json" "$W/b.json" || { echo "bench/sbom_callgrind.sh: the profiled SBOM differs from build/prc's" >&2; exit 1; }
callgrind_annotate --inclusive=yes "$W/cg.out" 2>/dev/null | awk '
        function num(s) { gsub(",", "", s); return s + 0 }
        /PROGRAM TOTALS/ { t = num($1) }
        /SHA256_Update \[/ { sha = num($1) }
        /:prc_docbin_read_stream_hook \[/ { if (!("decode (prc_docbin_read_stream_hook)" in part)) part["decode (prc_docbin_read_stream_hook)"] = num($1) }
        /:prc_mdp_check \[/ { part["check (prc_mdp_check)"] = num($1) }
        /:prc_mdp_hook_read \[/ { part["  of decode: the dependency tables (prc_mdp_hook_read)"] = num($1) }
        /:fold_doc \[/ { part["fold (fold_doc)"] = num($1) }
        /:cmd_sbom \[/ { cmd = num($1) }
        /:prc_scan_run \[/ { scan = num($1) }
        /:jfree \[/ { part["jansson frees (jfree)"] = num($1) }
        END {
                printf "parent instructions: %.0f; without SHA-256: %.0f\n", t, t - sha
                part["after the scan: write, teardown"] = cmd - scan
                for (k in part) printf "  %-34s %13.0f  %5.1f%%\n", k, part[k], 100 * part[k] / (t - sha)
        }'
