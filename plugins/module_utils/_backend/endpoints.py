# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.endpoints``: serverless endpoints on REST v2 (``/serverless``) and their health on the runtime API."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection, quote_id, walk_pages
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.endpoint_fields import (
    BUILD,
    ENDPOINT,
    health_from_payload,
    release_from_v2,
    workers_from_v2,
)


def scaling_body(scaler_type, scaler_value):
    scaler_type = (scaler_type or "QUEUE_DELAY").upper()
    if scaler_type == "REQUEST_COUNT":
        return {"type": scaler_type, "requestCount": int(scaler_value if scaler_value is not None else 1)}
    if scaler_type == "QUEUE_DELAY":
        return {"type": scaler_type, "queueDelay": float(scaler_value if scaler_value is not None else 4)}
    raise ValueError(f"scaler_type must be QUEUE_DELAY or REQUEST_COUNT, got {scaler_type!r}")


# Fields whose part of the body ties several together (below), or that no body carries.
COMPOSED = ("cpu_flavor_ids", "vcpu_count", "scaler_type", "scaler_value", "gpu_type_ids", "created_at")


def endpoint_body(fields, creating):
    """Create/UpdateEndpointRequest from ``fields``: the table's rows, then the blocks that tie several together."""
    sent = {key: value for key, value in fields.items() if key not in COMPOSED}
    if not sent.get("network_volume_id"):
        sent.pop("network_volume_id", None)  # no volume is no networkVolumes entry (not [""])
    body = ENDPOINT.body(sent, creating)
    if creating:
        body["type"] = fields.get("type") or "QUEUE"
    if fields.get("cpu_flavor_ids"):
        vcpus = int(fields.get("vcpu_count") or 2)
        body["cpu"] = [{"id": flavor, "vcpuCount": vcpus} for flavor in fields["cpu_flavor_ids"]]
    elif creating and not fields.get("gpu_pools"):
        raise ValueError(
            "REST v2 endpoints select GPUs by pool: set gpu_pools (e.g. ADA_24, AMPERE_16), or cpu_flavor_ids "
            "for a CPU endpoint"
        )
    scaler_type = fields.get("scaler_type")
    if fields.get("scaler_value") is not None and not scaler_type and not creating:
        raise ValueError("changing scaler_value on REST v2 needs scaler_type too (QUEUE_DELAY or REQUEST_COUNT)")
    if creating and not scaler_type and body["type"] == "LOAD_BALANCER":
        scaler_type = "REQUEST_COUNT"  # the only scaler a load balancer takes
    if creating or scaler_type:
        body["scaling"] = scaling_body(scaler_type, fields.get("scaler_value"))
    # RunPod rejects idleTimeout beside a REQUEST_COUNT scaler (the endpoint module refuses it before this).
    if body.get("scaling", {}).get("type") == "REQUEST_COUNT":
        body.get("workers", {}).pop("idleTimeout", None)
    if body.get("workers") == {}:
        del body["workers"]
    return body


class Endpoints:
    def __init__(self, client, serverless_url):
        self.client, self.serverless_url = client, serverless_url
        self.collection = c = Collection(client, "serverless", "endpoints", "endpoint", ENDPOINT)
        self.list, self.get, self.find, self.delete = c.list, c.get, c.find, c.delete

    def create(self, spec):
        return ENDPOINT.read(post_create(self.client, "serverless", endpoint_body(spec.model_dump(), creating=True)))

    def update(self, endpoint_id, changes):
        return self.collection.patch(endpoint_id, endpoint_body(dict(changes), creating=False))

    def health(self, endpoint_id, attempts=1):
        """``/health`` on the serverless runtime; 404 raises ``not_found`` (propagation lag after create)."""
        if not endpoint_id:
            raise ValueError("endpoint_health needs an endpoint id")
        url = f"{self.serverless_url}/{quote_id(endpoint_id)}/health"
        return health_from_payload(self.client.request("GET", url, attempts=attempts))

    def workers(self, endpoint_id, attempts=None):
        path = f"{self.collection.at(endpoint_id)}/workers"
        return workers_from_v2(self.client.request("GET", path, attempts=attempts))

    def release(self, endpoint_id, attempts=None):
        """``EndpointRelease``: from every page of the history (after a rollback the current version need not be on
        the first), with the first page's ``endpointVersion`` and ``rollout``."""
        pages: list = []
        path = f"{self.collection.at(endpoint_id)}/releases"
        releases = walk_pages(self.client, path, "releases", "release", attempts=attempts, pages=pages)
        return release_from_v2({**pages[0], "releases": releases})

    def builds(self, endpoint_id, latest=1, attempts=None):
        """The newest ``latest`` GitHub builds, newest first (walked on: a page may hold fewer than asked)."""
        path = f"{self.collection.at(endpoint_id)}/builds"
        params = {"limit": max(1, min(int(latest), 100))}  # a page holds 1-100 (the document's ``limit``)
        entries = walk_pages(self.client, path, "builds", "build", params=params, attempts=attempts, enough=latest)
        return [BUILD.read(entry) for entry in entries[:latest]]

    def build(self, endpoint_id, build_id, attempts=None):
        path = f"{self.collection.at(endpoint_id)}/builds/{quote_id(build_id)}"
        return BUILD.read(self.client.request("GET", path, attempts=attempts))

    def build_release(self, endpoint_id, build_id, attempts=None):
        """The version of the release ``build_id`` produced, or None while there is none (every page of the history)."""
        path = f"{self.collection.at(endpoint_id)}/releases"
        for entry in walk_pages(self.client, path, "releases", "release", attempts=attempts):
            if isinstance(entry, dict) and entry.get("buildId") == build_id and entry.get("version") is not None:
                return int(entry["version"])
        return None
