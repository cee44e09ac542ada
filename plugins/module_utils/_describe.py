# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The result shapes of every resource, built once and shared by a module and its ``_info`` sibling.

Pure Python (no Ansible import). Each ``describe_*`` takes a view from ``_models`` and returns the stable,
JSON-safe, snake_case dict a task returns; the RETURN documentation of the modules documents these keys.
"""

from __future__ import annotations

from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils import _podstate

# The worker counters of a serverless ``/health`` read, in the order the results list them.
HEALTH_KEYS = ("ready", "running", "idle", "initializing", "throttled", "unhealthy")

ENDPOINT_FIELDS = (
    "id",
    "name",
    "template_id",
    "gpu_type_ids",
    "gpu_pools",
    "gpu_count",
    "workers_min",
    "workers_max",
    "idle_timeout",
    "scaler_type",
    "scaler_value",
    "flashboot",
    "network_volume_id",
    "data_center_ids",
    "execution_timeout_ms",
    "created_at",
)
_ENDPOINT_LISTS = ("gpu_type_ids", "gpu_pools", "data_center_ids")


def describe_pod(pod: Any) -> dict | None:
    """The pod shape shared by every module (``_podstate`` derives the status and SSH parts)."""
    return _podstate.describe(pod) if pod is not None else None


def endpoint_urls(serverless_url: str, endpoint_id: str | None) -> dict | None:
    if not endpoint_id:
        return None
    base = f"{serverless_url.rstrip('/')}/{endpoint_id}"
    return {"run": f"{base}/run", "runsync": f"{base}/runsync", "status": f"{base}/status", "health": f"{base}/health"}


def health_counts(health: Any) -> dict | None:
    """The worker counters of a ``Health`` view or a poller's counts dict; None stays None."""
    if health is None:
        return None
    if isinstance(health, dict):
        return {key: int(health.get(key, 0) or 0) for key in HEALTH_KEYS}
    return {key: int(getattr(health, key, 0) or 0) for key in HEALTH_KEYS}


def describe_endpoint(endpoint: Any, serverless_url: str, health: Any = None) -> dict | None:
    """The ``endpoint`` result from an ``EndpointView`` (or a planned field dict); None stays None."""
    if endpoint is None:
        return None
    fields = endpoint if isinstance(endpoint, dict) else endpoint.model_dump()
    described = {key: fields.get(key) for key in ENDPOINT_FIELDS}
    for key in _ENDPOINT_LISTS:
        described[key] = list(described[key] or [])
    described["urls"] = endpoint_urls(serverless_url, described["id"])
    described["health"] = health_counts(health)
    return described


def describe_template(template: Any) -> dict | None:
    """The ``template`` result from a ``TemplateView`` or a ``TemplateSpec`` (planned: null id)."""
    if template is None:
        return None
    return {
        "id": getattr(template, "id", None),
        "name": template.name,
        "image": template.image,
        "serverless": bool(template.serverless),
        "container_disk_gb": template.container_disk_gb,
        "env": dict(template.env or {}),
        "ports": list(template.ports or []),
        "docker_args": template.docker_args or None,
    }
