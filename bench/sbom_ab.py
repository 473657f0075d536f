#!/usr/bin/python3
# sbom_ab.py - two or more prc binaries side by side on `prc sbom`, alternated
# run by run (A B, then B A, ...), so the host's drift between minutes (20%
# here) falls on every binary alike: per binary, the median wall time with its
# quartiles, the median CPU (user + system of the run and everything it
# waited for, from wait4), and the wall's ratio to the first binary's.  With
# PAUSE seconds before every run, each starts from rest, as a user's run
# does (docs/extraction/peers.md, session 18: from rest the host's pages are
# cold).  Nothing here asserts a time.
#
#   python3 bench/sbom_ab.py RUNS PRC_A PRC_B [PRC...]
#           (TREE: the tree, default $PRC_CORPORA/manifests, ../shared/corpora/manifests;
#            PAUSE: seconds, default 0)
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: sbom_ab.py RUNS PRC_A PRC_B [PRC...]")
    runs, bins = int(sys.argv[1]), sys.argv[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    corpora = os.environ.get("PRC_CORPORA", os.path.join(here, "..", "..", "shared", "corpora"))
    tree = os.environ.get("TREE", os.path.join(corpora, "manifests"))
    pause = float(os.environ.get("PAUSE", "0"))
    if not os.path.isdir(tree):
        sys.exit(f"sbom_ab: the tree is absent ({tree})")
    out = os.path.join(tempfile.mkdtemp(prefix="prc-sbom-ab-"), "sbom.json")
    res = {b: ([], []) for b in bins}
    print(f"# python3 bench/sbom_ab.py {runs} {' '.join(bins)}   ({time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())},"
          f" {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])};"
          f" TREE={tree}, PAUSE={pause:g})")
    for i in range(runs):
        for b in bins if i % 2 == 0 else bins[::-1]:
            time.sleep(pause)
            t0 = time.perf_counter()
            p = subprocess.Popen([b, "sbom", "--target", tree, "--output", out], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
            # prc exits 1 when the tree has coverage gaps (the corpus has some): the SBOM is written all the same.
            if os.waitstatus_to_exitcode(status) not in (0, 1):
                sys.exit(f"sbom_ab: {b} exited with {os.waitstatus_to_exitcode(status)}")
            res[b][0].append(wall)
            res[b][1].append(ru.ru_utime + ru.ru_stime)
    base = statistics.median(res[bins[0]][0])
    for b in bins:
        w, c = res[b]
        q = statistics.quantiles(w, n=4) if len(w) > 1 else [w[0], w[0], w[0]]
        print(f"{b:40} wall {statistics.median(w) * 1e3:6.1f} ms (q1 {q[0] * 1e3:6.1f}, q3 {q[2] * 1e3:6.1f})"
              f"  CPU {statistics.median(c) * 1e3:6.1f} ms  wall / first {statistics.median(w) / base:.3f}")


main()
