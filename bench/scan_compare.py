#!/usr/bin/env python3
"""scan_compare.py BASE_PRC NEW_PRC TREE... - medians of 7 interleaved runs of
`prc scan` and `prc inventory` over each TREE with two prc binaries (wall
seconds, and CPU seconds of the child). Issue 16 measured the head digest
with it (docs/inventory.md, "Reading files again")."""
import resource
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 4:
    sys.exit("usage: scan_compare.py BASE_PRC NEW_PRC TREE...")
bins = {"base": sys.argv[1], "new": sys.argv[2]}
cases = [(cmd, tree) for cmd in ("scan", "inventory") for tree in sys.argv[3:]]
res = {}
for _ in range(7):
    for cmd, tree in cases:
        for name, prc in bins.items():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            subprocess.run([prc, cmd, "--target", tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t1 = time.monotonic()
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            res.setdefault((cmd, tree, name), []).append((t1 - t0, cpu))
for (cmd, tree, name), v in res.items():
    print(f"{cmd:9} {tree:30} {name:4}  wall {statistics.median(x[0] for x in v):.3f} s"
          f"  cpu {statistics.median(x[1] for x in v):.3f} s")
