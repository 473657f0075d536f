#!/usr/bin/python3
# timed.py - run a command as /usr/bin/time -f "%e %M %U %S" does, to the
# millisecond: wall seconds, peak RSS in KiB, user and system seconds of
# the command and everything it waited for, on one line of OUT.  GNU time
# prints wall time to the hundredth of a second, which is a twentieth of
# `prc sbom`'s run on the manifests corpus: a median of such values moves
# in steps of that size.  The clock starts just before the fork, so
# Python's own start is not counted.  Exits with the command's status.
#
#   python3 bench/timed.py OUT COMMAND [ARG]...
import os
import resource
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(out, "w") as f:
    f.write(f"{wall:.4f} {ru.ru_maxrss} {ru.ru_utime:.4f} {ru.ru_stime:.4f}\n")
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
