#!/usr/bin/python3
# timed.py - run a command as /usr/bin/time -f "%e %M %U %S" does, to the
# millisecond: wall seconds, peak RSS in KiB, user and system seconds of
# the command and everything it waited for, on one line of OUT.  GNU time
# prints wall time to the hundredth of a second, which is a twentieth of
# `prc sbom`'s run on the manifests corpus: a median of such values moves
# in steps of that size.  The clock starts just before the spawn, so
# Python's own start is not counted.  The command is started with
# posix_spawn (a vfork), as GNU time's fork from a small process costs
# little: os.fork of the Python interpreter copied its page tables, which
# on this paravirtualized VM took 9-11 ms where posix_spawn and exec of
# /bin/true take 2.4-4 ms (docs/extraction/peers.md, session 24), and that
# harness time was counted in every tool's wall.  The peak RSS is never
# below the interpreter's own (about 13 MiB: exec records the high-water
# mark of the address space it replaces, with fork and vfork alike); every
# tool bench/sbom.sh measures peaks above it.  Exits with the command's
# status (127 when it cannot be started).
#
#   python3 bench/timed.py OUT COMMAND [ARG]...
import os
import resource
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
try:
    pid = os.posix_spawnp(argv[0], argv, os.environ)
except OSError as e:
    print(f"timed.py: cannot start {argv[0]}: {e.strerror}", file=sys.stderr)
    sys.exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(out, "w") as f:
    f.write(f"{wall:.4f} {ru.ru_maxrss} {ru.ru_utime:.4f} {ru.ru_stime:.4f}\n")
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
