# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Interpreter wrapper for the overhead benchmark: runs ``python <args>`` (the AnsiballZ module) as a child,
then appends its wall time and peak RSS (``wait4`` rusage of that one child) to ``$RUNPOD_BENCH_MEM``.

Used as ``ansible_python_interpreter`` (through a tiny sh shim the harness writes) for the measured tasks only.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> int:
    python = os.environ.get("RUNPOD_BENCH_PYTHON", sys.executable)
    started = time.time()
    pid = os.fork()
    if pid == 0:  # child: become the module's interpreter, same stdin/stdout/stderr
        os.execv(python, [python, *sys.argv[1:]])
    _ignored, status, usage = os.wait4(pid, 0)
    finished = time.time()
    module = next((os.path.basename(a) for a in sys.argv[1:] if "AnsiballZ_" in a), "?")
    record = {
        "module": module.replace("AnsiballZ_", "").replace(".py", ""),
        "wall": finished - started,
        "maxrss_mb": usage.ru_maxrss / 1024.0,
        "user": usage.ru_utime,
        "sys": usage.ru_stime,
        "started": started,
    }
    path = os.environ.get("RUNPOD_BENCH_MEM")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
