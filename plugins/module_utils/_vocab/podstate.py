# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Derived runtime status, public SSH address and "why no ssh" texts of a ``pod_fields.PodView`` (pure Python); the
rules: docs/dev/wait-and-status.md, sections 6 (the five-value vocabulary) and 6.1 (why no SSH). And the pod's lease
and utilization: the lease is the pod's env (whole seconds from its ``createdAt``), so every controller and the pod's
own watchdog read the same terms (docs/dev/leases.md)."""

from __future__ import annotations

import datetime
import ipaddress
import math
import re
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import duration as _duration
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import as_dict, as_int, declares_port
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import port_list as split_ports

PodView = Any  # a ``pod_fields.PodView`` (not imported: the table's file imports this one)

RUNNING = "running"
INITIALIZING = "initializing"
STOPPED = "stopped"
TERMINATED = "terminated"
UNKNOWN = "unknown"
STATUSES = (RUNNING, INITIALIZING, STOPPED, TERMINATED, UNKNOWN)

# REST v2 says why a pod is initializing or stopped only through these; it has no ``lastStatusChange`` text, so
# the stop reasons REST v1 gave (stopped_by_user, ..._by_runpod, ..._outbid) are gone with it (docs/runtime-status.md).
REASONS = ("awaiting_container", "provisioning", "starting_container", "container_error")

# Pod statuses after which a wait for ssh/running can never succeed without user action.
# ERROR is deliberately absent: it can be started again, so a wait reports it and keeps going.
TERMINAL_STATUSES = frozenset(("EXITED", "TERMINATED"))

# REST v2 ``status`` -> (runtime status, reason), but RUNNING, which depends on the runtime block.
_DERIVED = {
    "PROVISIONING": (INITIALIZING, "provisioning"),
    "STARTING": (INITIALIZING, "starting_container"),
    "ERROR": (STOPPED, "container_error"),
    "EXITED": (STOPPED, None),
    "TERMINATED": (TERMINATED, None),
}
_CGNAT = ipaddress.ip_network("100.64.0.0/10")


def _upper(value):
    return value.strip().upper() if isinstance(value, str) else ""


def derive_status(status: object, reported: bool = False) -> tuple[str, str | None]:
    """REST v2 ``status`` (and whether ``runtime`` says anything) mapped onto the five-value vocabulary (docs/dev/
    wait-and-status.md, section 6). The runtime counts only for RUNNING (stopped pods keep stale runtime)."""
    value = _upper(status)
    if value == "RUNNING":
        return (RUNNING, None) if reported else (INITIALIZING, "awaiting_container")
    return _DERIVED.get(value, (UNKNOWN, None))


def derive(pod: PodView) -> tuple[str, str | None]:
    """``(runtime_status, reason or None)`` for a normalized pod."""
    return derive_status(pod.status, bool(pod.runtime_reported))


def known_down(runtime_status: str) -> bool:
    """Stopped or terminated; ``unknown`` is never down (it must not hide a live connection)."""
    return runtime_status in (STOPPED, TERMINATED)


def lifecycle_status(pod: PodView) -> str:
    """The upper-cased lifecycle value a wait judges by (REST v2 ``status``)."""
    return _upper(pod.status)


def is_terminal(pod: PodView) -> bool:
    """EXITED or TERMINATED (ERROR can be started again)."""
    return lifecycle_status(pod) in TERMINAL_STATUSES


# A cluster member cannot be started through the pod endpoints, so for it ERROR is as final as EXITED.
MEMBER_DOWN_STATUSES = frozenset(("EXITED", "TERMINATED", "ERROR"))


def is_member_down(pod: PodView) -> bool:
    """A cluster member that can no longer come up on its own (EXITED, TERMINATED or ERROR)."""
    return lifecycle_status(pod) in MEMBER_DOWN_STATUSES


def is_public_ip(ip: str | None) -> bool:
    """A routable IP: not private, loopback, link-local, or in 100.64.0.0/10 (docs/dev/wait-and-status.md, sec. 4)."""
    try:
        address = ipaddress.ip_address(str(ip).strip())
    except ValueError:
        return False
    if address.version == 4 and address in _CGNAT:
        return False
    return not (address.is_private or address.is_loopback or address.is_link_local or address.is_unspecified
                or address.is_multicast or address.is_reserved)


def ssh_command(host, port, user="root"):
    return f"ssh {user}@{host} -p {port}"


def _address(host, port, user="root", command=""):
    return {"host": host, "port": int(port), "user": user, "command": command or ssh_command(host, port, user)}


def public_ssh(pod: PodView) -> dict | None:
    """The pod's public SSH address ``{host, port, user, command}``, or None (always None when known-down)."""
    status, _ignored = derive(pod)
    if known_down(status):
        return None
    # ssh.direct is RunPod's own answer and authoritative: no private-range filtering (wait-and-status.md, sec. 4).
    direct = pod.ssh_direct
    if direct is not None and direct.host and direct.port:
        return _address(direct.host, direct.port, direct.user or "root", direct.command)
    for port in pod.runtime_ports:
        if port.private == 22 and port.public and (port.type or "").lower() == "tcp" and is_public_ip(port.ip):
            return _address(port.ip, port.public)
    return None


def ssh_not_ready(pod: PodView, runtime_status: str | None = None, reason: str | None = None) -> str | None:
    """``pod not ready[: <detail>]`` when the pod has no usable public SSH address, else None (docs/dev/
    wait-and-status.md, section 6.1; remedies phrased for Ansible users)."""
    if runtime_status is None:
        runtime_status, reason = derive(pod)
    if not known_down(runtime_status) and public_ssh(pod) is not None:
        return None
    if runtime_status == INITIALIZING:
        detail: str | None = "no container reported yet (image pull, container create or boot)"
    elif runtime_status == STOPPED:
        why = " after a container error" if reason == "container_error" else ""
        detail = f"pod is stopped{why}; start it with runpod.cloud.pod id={pod.id or '<pod-id>'} state=running"
    elif runtime_status != RUNNING:
        detail = "pod is terminated" if runtime_status == TERMINATED else None
    elif not declares_port(pod.ports, 22):
        detail = (f"pod does not publish 22/tcp; add 22/tcp to the pod's ports option, e.g. runpod.cloud.pod "
                  f"id={pod.id or '<pod-id>'} ports={','.join([*split_ports(pod.ports), '22/tcp'])} (the whole list "
                  "is replaced, and changing it may restart the container)")
    elif any(port.private == 22 for port in pod.runtime_ports):
        detail = "port 22 is mapped but not publicly routable on this machine"
    else:
        detail = "port 22 is declared but the host has not published a mapping for it yet"
    return f"pod not ready: {detail}" if detail else "pod not ready"


# --- leases and utilization (docs/dev/leases.md) ------------------------------------------------------------
# The contract with the pod's own watchdog: option -> env name (whole seconds; idle_below a percent).
ENV = {"stop_after": "RUNPOD_CLOUD_STOP_AFTER", "terminate_after": "RUNPOD_CLOUD_TERMINATE_AFTER",
       "idle_stop_after": "RUNPOD_CLOUD_IDLE_STOP_AFTER", "idle_below": "RUNPOD_CLOUD_IDLE_BELOW"}
DURATIONS = ("stop_after", "terminate_after", "idle_stop_after")
UTC_OFFSET = re.compile(r"\s*([+-]\d{2}):?(\d{2})$")


def created_epoch(created_at: str | None) -> float | None:
    """An RFC 3339 ``createdAt`` (``Z`` or an offset; RunPod also writes ``2026-01-01 00:00:00.000 +0000 UTC``) as
    epoch seconds, or None when it cannot be read."""
    text = UTC_OFFSET.sub(r"\1:\2", str(created_at or "").strip().replace(" UTC", "").replace("Z", "+00:00"))
    for candidate in (text, text.replace(" ", "T", 1)):
        try:
            moment = datetime.datetime.fromisoformat(candidate)
        except ValueError:
            continue
        return (moment.replace(tzinfo=datetime.UTC) if moment.tzinfo is None else moment).timestamp()
    return None


def options_env(params: dict) -> dict[str, str]:
    """The env of the lease a task's options ask for ({}: none); ValueError naming the option it cannot be."""
    terms = {}
    for option in (option for option in DURATIONS if params.get(option) is not None):
        try:
            terms[option] = math.floor(_duration.parse(params[option]))
        except ValueError as error:
            raise ValueError(f"{option}: {error}") from None
    stop, terminate, below = terms.get("stop_after"), terms.get("terminate_after"), params.get("idle_below")
    if 0 in terms.values():
        raise ValueError("a lease counts whole seconds: stop_after, terminate_after, idle_stop_after are 1s or more.")
    if stop and terminate and terminate <= stop:
        raise ValueError(f"terminate_after ({terminate}s) must be after stop_after ({stop}s): a lease stops the pod, "
                         "then terminates it. Drop stop_after to terminate at terminate_after.")
    if below is not None and (isinstance(below, bool) or not 1 <= below <= 100 or "idle_stop_after" not in terms):
        raise ValueError(f"idle_below is the GPU utilization percent (1 to 100) under which idle_stop_after counts a "
                         f"GPU idle; it needs idle_stop_after. Got {below!r}.")
    if terms and params.get("state") == "absent":
        raise ValueError("a lease (stop_after, terminate_after, idle_stop_after) cannot apply to a pod this deletes.")
    if "idle_stop_after" in terms:
        terms["idle_below"] = 5 if below is None else math.floor(below)
    return {ENV[option]: str(value) for option, value in terms.items()}


def from_env(env: Any) -> dict | None:
    """The lease in a pod's env ({option: int or None}), or None: a pod without one is never touched. A value that
    is not a whole positive number is no term; idle_below is 5 unless 1 to 100."""
    text = {option: str((env if isinstance(env, dict) else {}).get(name) or "").strip() for option, name in ENV.items()}
    terms = {option: int(value) if value.isdecimal() and int(value) > 0 else None for option, value in text.items()}
    below = terms["idle_below"]
    terms["idle_below"] = (below if below and below <= 100 else 5) if terms["idle_stop_after"] else None
    return terms if any(terms[option] for option in DURATIONS) else None


def describe_lease(terms: dict | None, created_at: str | None, status: str, cost_per_hr: float | None,
                   now: float) -> dict | None:
    """The ``lease`` result: the terms, the next ``action`` (``stop``, then ``terminate``; None once nothing is due),
    its ``deadline`` (UTC), ``expired``, ``seconds_left``, and the cost since creation and to the deadline."""
    if terms is None:
        return None
    created, stopped = created_epoch(created_at), _upper(status) in TERMINAL_STATUSES
    due = {action: created + terms[f"{action}_after"] for action in ("stop", "terminate")
           if created is not None and terms[f"{action}_after"]}
    action = ("terminate" if "terminate" in due and (stopped or "stop" not in due or now >= due["terminate"])
              else "stop" if "stop" in due and not stopped else None)
    left, rate = None if action is None else max(0, math.ceil(due[action] - now)), (cost_per_hr or 0.0) / 3600
    return dict(terms, action=action, expired=left == 0, deadline=action and utc_text(due[action]), seconds_left=left,
                cost_so_far=None if created is None else round(rate * max(0.0, now - created), 4),
                cost_to_deadline=None if left is None else round(rate * left, 4))


def utc_text(epoch: float) -> str:
    return datetime.datetime.fromtimestamp(epoch, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utilization(runtime: Any) -> dict | None:
    """RunPod's ``runtime.gpus[].util``/``.memoryUtil``, ``runtime.cpu.util``, ``runtime.memory.util`` (percent);
    None when the pod reports no runtime (it is not running)."""
    if not isinstance(runtime, dict) or not runtime:
        return None
    gpus = [as_dict(gpu) for gpu in runtime.get("gpus") or []]
    return {"gpus": [{"util": as_int(gpu.get("util")), "memory_util": as_int(gpu.get("memoryUtil"))}
                     for gpu in gpus],
            **{key: as_int(as_dict(runtime.get(key)).get("util")) for key in ("cpu", "memory")}}


def idle_due(terms: dict | None, usage: dict | None, since: float | None, now: float) -> tuple[bool, float | None]:
    """The idle decision over a history of readings: ``(due, since)``, ``since`` when the GPUs' current idle stretch
    began (None: busy now, or no GPU readings); due once it lasted the lease's ``idle_stop_after``."""
    gpus = [gpu["util"] for gpu in (usage or {}).get("gpus") or []]
    below = (terms or {}).get("idle_below") or 5
    if not (gpus and all(util is not None and util < below for util in gpus)):
        return False, None
    since = now if since is None else since
    return bool(terms and terms["idle_stop_after"] and now - since >= terms["idle_stop_after"]), since
