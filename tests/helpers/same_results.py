# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Results of two playbook runs made comparable: what differs run to run becomes a placeholder.

The controller-side wait (issue 19) must return what the module's own wait returns. The two paths run against a
reset simulator, so ids, ports, times and counters differ; everything else must be equal.
"""

from __future__ import annotations

import re
from typing import Any

# Keys whose values are timings or counters of one run (``*_at`` timestamps are dropped too; ``ts``: a log line's).
DROPPED = ("elapsed", "polls", "probes", "history", "uptime_seconds", "invocation", "ts")


def _id_key(key: str) -> bool:
    return key in ("id", "ids") or key.endswith("_id") or key.endswith("_ids")


def collect_ids(value: Any, found: dict[str, str], key: str = "") -> dict[str, str]:
    """Every id in ``value`` (under an ``id``/``*_id``/``*_ids`` key) mapped to ``<idN>``, in a stable order."""
    if isinstance(value, dict):
        for name in sorted(value):
            if name not in DROPPED:
                collect_ids(value[name], found, name)
    elif isinstance(value, list):
        for item in value:
            collect_ids(item, found, key)
    elif isinstance(value, str) and _id_key(key) and len(value) >= 6 and value not in found:
        found[value] = f"<id{len(found)}>"
    return found


def _text(value: str, ids: dict[str, str]) -> str:
    for known in sorted(ids, key=len, reverse=True):
        value = value.replace(known, ids[known])
    value = re.sub(r"127\.0\.0\.1(\]?):\d+", r"127.0.0.1\1:PORT", value)
    value = re.sub(r"-p \d+", "-p PORT", value)
    # ssh.ssh_args' known_hosts file is under each run's own HOME.
    value = re.sub(r"UserKnownHostsFile=\S*/known_hosts_", "UserKnownHostsFile=DIR/known_hosts_", value)
    # A pod's host keys are new each run; the container log shows their fingerprints (issue 44).
    value = re.sub(r"SHA256:[A-Za-z0-9+/]{43}", "SHA256:FINGERPRINT", value)
    value = re.sub(r"\b((?:ssh|ecdsa|sk)-[a-z0-9@.-]+) AAAA[A-Za-z0-9+/=]+", r"\1 KEY", value)
    # A quoted log line's time (the ``ts`` keys are dropped).
    value = re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b", "TIME", value)
    return re.sub(r"after \d+(\.\d+)?m?s\b", "after T", value)


def normalise(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with ``ids`` (id -> placeholder), loopback ports, durations, timings and large numbers replaced."""
    if isinstance(value, dict):
        return {_text(key, ids): normalise(item, ids) for key, item in value.items()
                if key not in DROPPED and not key.endswith("_at")}
    if isinstance(value, list):
        return [normalise(item, ids) for item in value]
    if isinstance(value, str):
        return _text(value, ids)
    if isinstance(value, int) and not isinstance(value, bool) and value > 1024:
        return "NUMBER"
    return value
