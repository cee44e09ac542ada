# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.pods``: the pod calls on REST v2 (``/pods``) and the body blocks that tie several fields together."""

from __future__ import annotations

import json

from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection, mounts_body, walk_pages
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.pod_fields import POD

# gpu_requirements' host floors, sent in the create's ``gpu`` (RunPod places only where they hold).
GPU_FLOORS = (("min_ram_per_gpu_gb", "minRamPerGpu"), ("min_vcpus_per_gpu", "minVcpuCountPerGpu"))
# POST /v2/pods answers 413 above this many bytes of body (autumn 2026 document).
CREATE_BODY_LIMIT = 102_400
MOUNT_FIELDS = ("volume_gb", "volume_mount_path", "network_volume_id")


def pod_create_body(spec, candidate, data_center_id=None):
    """The CreatePodRequest for ``spec`` on ``candidate`` (a GPU type or CPU flavor id), maybe in ``data_center_id``."""
    body = POD.body(POD.create_fields(spec), creating=True)
    if spec.compute_type.upper() == "CPU":
        body["cpu"] = {"id": candidate, **({"vcpuCount": int(spec.vcpu_count)} if spec.vcpu_count else {})}
    else:
        body["gpu"] = {"id": candidate, "count": int(spec.gpu_count or 1)}
        if spec.allowed_cuda_versions:
            body["gpu"]["allowedCudaVersions"] = list(spec.allowed_cuda_versions)
        if spec.min_cuda_version:
            body["gpu"]["minCudaVersion"] = spec.min_cuda_version
        for option, key in GPU_FLOORS:
            if (spec.gpu_requirements or {}).get(option):
                body["gpu"][key] = int(spec.gpu_requirements[option])
    if mounts := mounts_body(spec.volume_gb, spec.volume_mount_path, spec.network_volume_id):
        body["mounts"] = mounts
    if data_center_id:
        body["dataCenterIds"] = [data_center_id]
    elif spec.data_center_ids:
        body["dataCenterIds"] = list(spec.data_center_ids)
    body["startSsh"] = bool(spec.start_ssh)
    return body


def body_size_problem(body, limit=CREATE_BODY_LIMIT):
    """Why RunPod would answer 413 to ``body``, naming the option that fills most of it; None when it fits."""
    def measured(value):  # as the client sends it (httpx: compact, UTF-8)
        return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())

    size = measured(body)
    if size <= limit:
        return None
    sizes = {key: measured(value) for key, value in body.items()}
    largest = max(sizes, key=sizes.__getitem__)
    return (
        f"the create body would be {size:,} bytes, above the {limit:,} RunPod accepts (POST /v2/pods answers 413); "
        f"{POD.option_at(largest)} makes {sizes[largest]:,} of them. Make it smaller (a large env or "
        "command belongs in the image, a template or a network volume); nothing was created"
    )


def pod_update_body(changes):
    """An UpdatePodRequest; the mount fields go as one ``mounts`` block (``pod_rules.whole_mount`` completes it)."""
    body = POD.body({key: value for key, value in changes.items() if key not in MOUNT_FIELDS}, creating=False)
    if mounts := mounts_body(*(changes.get(key) for key in MOUNT_FIELDS)):
        body["mounts"] = mounts
    return body


class Pods:
    """Pods over ``client``; ``gpus`` (``backend.gpus``) reads the catalog a GPU create orders its candidates by."""

    def __init__(self, client, gpus):
        self.client = client
        self.gpus = gpus
        self.collection = Collection(client, "pods", "pods", "pod", POD)
        self.get, self.delete = self.collection.get, self.collection.delete

    def list(self, attempts=None, select=None, include_cluster_pods=False):
        """Every pod that ``select(id, name)`` keeps (all without); cluster members only if ``include_cluster_pods``."""
        params = {"includeClusterPods": "true"} if include_cluster_pods else {}
        entries = walk_pages(self.client, "pods", "pods", "pod", params=params, attempts=attempts)
        return [POD.read(entry) for entry in entries
                if isinstance(entry, dict) and (select is None or select(entry.get("id"), entry.get("name")))]

    def find(self, name, attempts=None):
        """Live pods (not terminated) named exactly ``name``."""
        return self.find_named([name], attempts)[name]

    def find_named(self, names, attempts=None):
        """``{name: [live pods named so]}`` for every name in ``names``, from one list read (a fleet's lookup)."""
        found: dict = {name: [] for name in names}
        for pod in self.list(attempts=attempts, select=lambda _pod_id, name: name in found):
            if pod.name in found and pod.status.upper() != "TERMINATED":  # gone for good: not live
                found[pod.name].append(pod)
        return found

    def create(self, spec, shared_read=None):
        """Create on the first candidate that can be placed (``placement.place``); returns ``(pod, placement)``. A 5xx
        or a lost connection may have created a pod that bills: raised ``maybe_created``, never re-sent."""
        from ansible_collections.runpod.cloud.plugins.module_utils._api.catalog import cpu_pod_problem
        from ansible_collections.runpod.cloud.plugins.module_utils._backend import placement  # creates only

        if problem := cpu_pod_problem(spec.model_dump()) or body_size_problem(pod_create_body(spec, "")):
            raise ValueError(problem)
        return placement.place(self.client, self.gpus, "pods", spec, pod_create_body, POD.read, shared_read)

    def update(self, pod_id, changes):
        return self.collection.patch(pod_id, pod_update_body(changes))

    def action(self, pod_id, action):
        """``POST pods/{id}/action`` (``start``, ``stop``, ``restart``): the pod, or None when the answer has none."""
        payload = self.client.request("POST", f"{self.collection.at(pod_id)}/action", json={"action": action})
        return POD.read(payload) if isinstance(payload, dict) and payload.get("id") else None
