# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Derived runtime status, public SSH address and "why no ssh" texts of a ``pod_fields.PodView`` (pure Python); the
rules: docs/dev/wait-and-status.md, sections 6 (the five-value vocabulary) and 6.1 (why no SSH)."""

from __future__ import annotations

import ipaddress
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import declares_port
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
