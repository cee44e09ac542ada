# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The pod's field table (``POD``): every pod field once, with its option, its body and answer paths, and whether it
is updated, compared, planned and shown. ``PodView`` and ``PodSpec`` are made from it; the GPU/CPU block, the mounts
and the placement keys of a create, which tie several fields together, are ``_backend/pods.pod_create_body``'s."""

from __future__ import annotations

import time
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _f
from ansible_collections.runpod.cloud.plugins.module_utils._vocab import podstate
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.container_fields import container_rows
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Record


class PortMapping(Record):
    """One runtime port: container port ``private`` published as ``ip:public``."""

    private: int
    public: int | None = None
    ip: str | None = None
    type: str | None = None


class SshAddress(Record):
    host: str
    port: int
    user: str = "root"
    command: str = ""


def runtime_ports(value: Any) -> list[PortMapping]:
    """``runtime.ports`` as ``PortMapping``s; entries without a private port are skipped."""
    ports = []
    for entry in (_f.as_dict(item) for item in _f.as_list(value)):
        private = _f.as_int(entry.get("private", entry.get("privatePort")))
        if private is not None:
            public = _f.as_int(entry.get("public", entry.get("publicPort")))
            ports.append(PortMapping(private=private, public=public, ip=_f.as_str(entry.get("ip")),
                                     type=_f.as_str(entry.get("type"))))
    return ports


def ssh_address(value: Any) -> SshAddress | None:
    """``SshAddress`` from a v2 ``ssh.direct``/``ssh.proxy`` block; None when it is null or incomplete."""
    block = _f.as_dict(value)
    host = _f.as_str(block.get("host")) or _f.as_str(block.get("ip"))
    port = _f.as_int(block.get("port"))
    if not host or not port:
        return None
    user = _f.as_str(block.get("username")) or _f.as_str(block.get("user")) or "root"
    return SshAddress(host=host, port=port, user=user,
                      command=_f.as_str(block.get("command")) or podstate.ssh_command(host, port, user))


def compute_type(payload: Any) -> str:
    payload = _f.as_dict(payload)
    return "CPU" if _f.as_dict(payload.get("cpu")) and not _f.as_dict(payload.get("gpu")) else "GPU"


def option(name: str, default: Any = None, **flags: Any) -> Col:
    """A spec field RunPod does not return as such (its create block is ``pod_create_body``'s)."""
    return Col(name, option=flags.pop("option", True), default=default, **flags)


POD = Table("pod", "PodView", (
    Col("name", "name", _f.name_text, body="name", update=True, option=True, diff=True, planned=True, shown=True),
    Col("status", "status", _f.upper, shown=True),
    Col("actions", "actions", _f.str_list),
    Col("runtime_reported", "runtime", _f.filled),  # ``runtime`` was non-null and non-empty
    Col("uptime_seconds", "runtime.uptime", _f.as_int),
    Col("runtime_ports", "runtime.ports", runtime_ports),
    Col("utilization", "runtime", podstate.utilization, shown=True),
    *container_rows(planned=True, shown=("image",)),
    Col("template_id", "template", _f.ref_id, body="templateId", update=True, option=True, planned=True),
    Col("compute_type", compute_type, option=True, default="GPU"),
    Col("gpu_type", "gpu.id", _f.as_str),
    Col("gpu_count", "gpu.count", _f.count, option=True, default=1),
    # The allocated totals across the pod's GPUs (GB; autumn 2026).
    Col("gpu_vcpu_count", "gpu.vcpuCount", _f.as_int),
    Col("gpu_memory_gb", "gpu.memory", _f.as_int),
    Col("cpu_flavor", "cpu.id", _f.as_str),
    Col("vcpu_count", "cpu.vcpuCount", _f.as_int, option=True),
    Col("cloud_type", "cloud", _f.as_str, body="cloud", send=str.upper, option=True, default="SECURE"),
    Col("cost_per_hr", "cost", _f.as_float, shown=True),
    Col("data_center_id", "dataCenterId", _f.as_str, shown=True),
    # The mounts: one block of several fields (``_backend/pods.mounts_body``), set whole by an update.
    Col("volume_gb", "mounts.persistent.size", _f.as_int, option=True, diff=True, planned=True),
    Col("volume_mount_path", ("mounts.persistent.path", "mounts.network.0.path"), _f.as_str, option=True, diff=True),
    Col("network_volume_id", "mounts.network.0.volumeId", _f.as_str, option=True),
    Col("ssh_direct", "ssh.direct", ssh_address),  # as RunPod computed it; authoritative when present
    Col("ssh_proxy", "ssh.proxy", ssh_address),
    Col("created_at", "createdAt", _f.as_str, shown=True),
    Col("started_at", "startedAt", _f.as_str),
    Col("locked", "locked", bool, body="locked", create=False, update=True),
    # A private address across data centers (applied by RunPod at the next start).
    Col("global_networking", "globalNetworking.enabled", bool, body="globalNetworking", update=True, option=True,
        diff=True, planned=True, shown=True),
    Col("global_ip", "globalNetworking.ip", _f.as_str, shown=True),
    Col("internal_dns", "globalNetworking.internalDns", _f.as_str, shown=True),
    # A cluster member's place in its cluster (None on a standalone pod): rank and overlay address come late.
    Col("cluster_id", "cluster.id", _f.as_str),
    Col("cluster_rank", "cluster.rank", _f.as_int),
    Col("cluster_role", "cluster.role", _f.as_str),
    Col("cluster_ip", "cluster.ip", _f.as_str),
    # What a create is placed on and how (``pod_create_body`` builds its blocks).
    option("gpu_type_ids", list),
    option("cpu_flavor_ids", list),
    option("data_center_ids", list),
    option("start_ssh", True, option="ssh"),
    option("allowed_cuda_versions", list),
    option("min_cuda_version"),
    option("gpu_requirements"),  # instead of gpu_type_ids: what a GPU type must be (docs/gpu-capacity.md)
    option("max_price_per_hr"),
    *(option(name) for name in podstate.ENV),  # a lease: the pod's env (``pod_rules.wanted_env``)
), __name__, types={"runtime_ports": "list[PortMapping]", "ssh_direct": "SshAddress | None",
                    "ssh_proxy": "SshAddress | None"})
PodView = POD.View

# vcpuCount of a CPU pod when the task gives none (REST v2 requires one).
DEFAULT_VCPUS = 2


class _PodSpecRules(Record):
    """What any pod spec holds, whoever built it: what it is placed on (GPU types or requirements; a CPU pod's
    flavors), ``22/tcp`` with ``start_ssh``, a CPU pod's vCPUs (REST v2 requires a count). What else a create
    needs: ``_api.inputs.PodInput.create_problem``, ``_api.catalog``."""

    def check(self) -> None:
        filled: dict[str, Any] = {"ports": _f.with_ssh_port(self.ports, self.start_ssh)}
        if self.compute_type.upper() == "CPU":
            if not self.cpu_flavor_ids:
                raise ValueError("creating a CPU pod needs cpu_flavor_ids (e.g. ['cpu3c']).")
            if self.vcpu_count is None:
                filled["vcpu_count"] = DEFAULT_VCPUS
        elif not self.gpu_type_ids and self.gpu_requirements is None:
            raise ValueError(
                "creating a GPU pod needs gpu_type_ids (e.g. ['NVIDIA GeForce RTX 4090']) or gpu_requirements."
            )
        vars(self).update(filled)

    def candidates(self) -> list[str]:
        """The types to try, in order: GPU type ids, or CPU flavor ids for a CPU pod."""
        return list(self.cpu_flavor_ids if self.compute_type.upper() == "CPU" else self.gpu_type_ids)


PodSpec = POD.spec("PodSpec", _PodSpecRules, __name__)


def describe_pod(pod: Any, now: float | None = None) -> dict | None:
    """The ``pod`` result of every module: the shown fields, and the derived status, GPU block, ports, SSH
    address (``podstate``) and lease (at ``now``, epoch seconds); None stays None."""
    if pod is None:
        return None
    runtime_status, reason = podstate.derive(pod)
    ssh = podstate.public_ssh(pod)
    return {
        **POD.result(pod),
        "runtime_status": runtime_status,
        "runtime_status_reason": reason,
        "uptime_seconds": pod.uptime_seconds if runtime_status == podstate.RUNNING else None,
        "gpu": {"type": pod.gpu_type, "count": pod.gpu_count or 0, "vcpu_count": pod.gpu_vcpu_count,
                "memory_gb": pod.gpu_memory_gb},
        "ports": _f.port_list(pod.ports),
        "ssh": ssh,
        "ssh_not_ready": None if ssh is not None else podstate.ssh_not_ready(pod, runtime_status, reason),
        "lease": podstate.describe_lease(podstate.from_env(pod.env), pod.created_at, pod.status, pod.cost_per_hr,
                                         time.time() if now is None else now),
    }
