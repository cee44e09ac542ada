#!/usr/bin/env bash
# hack/timed.sh SUITE COMMAND...: runs COMMAND, prints "== SUITE took N s (C CPU-s, exit S)" and appends "SUITE, the
# virtualenv, when it started (seconds after $SUITE_ORIGIN, an epoch time, when set), seconds, CPU seconds, exit
# status" (tab-separated) to $SUITE_TIMES when it is set, so CI's log ends with a table of suite times (.ci/run;
# docs/dev/developing.md, "Time budget"). CPU seconds are user + system time of every process the command waited for
# (its children's rusage): on 2 cores, what a suite costs the others.
set -uo pipefail
exec python3 -c '
import os, resource, subprocess, sys, time
suite, command = sys.argv[1], sys.argv[2:]
origin = os.environ.get("SUITE_ORIGIN")
start = f"{time.time() - float(origin):.0f}" if origin else "-"
started = time.monotonic()
try:
    status = subprocess.call(command)
except KeyboardInterrupt:
    status = 130
seconds = time.monotonic() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
print(f"== {suite} took {seconds:.0f} s ({cpu:.0f} CPU-s, exit {status})", flush=True)
path = os.environ.get("SUITE_TIMES")
if path:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "a") as table:
        venv = os.environ.get("VENV", ".venv")
        table.write(f"{suite}\t{venv}\t{start}\t{seconds:.0f}\t{cpu:.0f}\t{status}\n")
sys.exit(status)
' "$@"
