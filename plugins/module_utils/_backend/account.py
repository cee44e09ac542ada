# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.account``: network volumes, registry credentials and billing on REST v2 (SSH keys: ``shared.SshKeys``)."""

from __future__ import annotations

import re

from ansible_collections.runpod.cloud.plugins.module_utils._api.billing_input import BillingInput, utc_time
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError, post_create
from ansible_collections.runpod.cloud.plugins.module_utils._backend.shared import Collection
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.account_fields import (
    NETWORK_VOLUME,
    REGISTRY,
    BillingReport,
)
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import as_dict, as_float, as_list, as_str

# kind -> (path, filter parameter or None); the kinds and bucket sizes are billing_info's choices.
BILLING_PATHS = {
    "all": ("billing", None),
    "pods": ("billing/pods", "podId"),
    "serverless": ("billing/serverless", "serverlessId"),
    "endpoints": ("billing/endpoints", None),
    "network_volumes": ("billing/network-volumes", "networkVolumeId"),
    "clusters": ("billing/clusters", "clusterId"),
}
RECORD_IDS = ("podId", "serverlessId", "networkVolumeId", "clusterId")
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def amount_key(api_key):
    """``podGpuAmount`` -> ``pod_gpu``, ``totalAmount`` -> ``total``."""
    stem = api_key[: -len("Amount")] if api_key.endswith("Amount") else api_key
    return _CAMEL.sub("_", stem).lower()


def amounts_from(payload):
    return {amount_key(key): as_float(value) or 0.0 for key, value in as_dict(payload).items()
            if key.endswith("Amount") and not isinstance(value, bool)}


def sum_amounts(records):
    totals: dict[str, float] = {}
    for record in records:
        for key, value in record.items():
            if isinstance(value, float):
                totals[key] = round(totals.get(key, 0.0) + value, 6)
    return totals


class Account:
    def __init__(self, client):
        self.client = client
        self._volumes = v = Collection(client, "network-volumes", "networkVolumes", "network volume", NETWORK_VOLUME)
        self._registries = r = Collection(client, "registries", "registries", "registry credential", REGISTRY)
        self.list_network_volumes, self.get_network_volume, self.find_network_volumes, self.delete_network_volume = (
            v.list, v.get, v.find, v.delete)
        self.get_registry, self.find_registries, self.delete_registry = r.get, r.find, r.delete

    def create_network_volume(self, spec):
        body = NETWORK_VOLUME.body(NETWORK_VOLUME.create_fields(spec), creating=True)
        return NETWORK_VOLUME.read(post_create(self.client, self._volumes.path, body))

    def update_network_volume(self, volume_id, changes):
        """``changes``: ``name`` and/or ``size_gb`` (grow only; RunPod refuses a shrink)."""
        return self._volumes.patch(volume_id, NETWORK_VOLUME.body(changes, creating=False))

    def create_registry(self, name, username, password):
        body = REGISTRY.body({"name": name, "username": username, "password": password}, creating=True)
        return REGISTRY.read(post_create(self.client, self._registries.path, body))

    def billing(self, kind, *, bucket_size="day", start_time=None, end_time=None, last_n=None, resource_id=None):
        """Spend of ``kind`` (``BillingInput``'s rules, checked before any call); times are sent as RFC 3339 UTC."""
        BillingInput(kind=kind, start_time=start_time, end_time=end_time, last_n=last_n,
                     resource_id=resource_id).check()
        start_time = utc_time(start_time, "start_time") if start_time else None
        end_time = utc_time(end_time, "end_time") if end_time else None
        path, filter_name = BILLING_PATHS[kind]
        params: dict = {"bucketSize": bucket_size, **({"lastN": int(last_n)} if last_n is not None else {})}
        for name, value in (("startTime", start_time), ("endTime", end_time), (filter_name, resource_id)):
            if value:
                params[name] = value
        payload = as_dict(self.client.request("GET", path, params=params))
        if not isinstance(payload.get("records"), list):
            raise RunPodError("bad_response", None, f'expected {{"records": [...]}} from GET /{path}')
        metadata = as_dict(payload.get("metadata"))
        query = as_dict(metadata.get("query"))
        records = [
            {"start_time": as_str(raw.get("startTime")), "end_time": as_str(raw.get("endTime")),
             "resource_id": next((as_str(raw.get(key)) for key in RECORD_IDS if as_str(raw.get(key))), None),
             **amounts_from(raw)}
            for raw in map(as_dict, as_list(payload["records"]))
        ]
        return BillingReport(
            kind=kind,
            bucket_size=as_str(query.get("bucketSize")) or bucket_size,
            start_time=as_str(query.get("startTime")) or start_time,
            end_time=as_str(query.get("endTime")) or end_time,
            resource_id=resource_id or None,
            totals=amounts_from(metadata.get("totals")) or sum_amounts(records),
            records=records,
        )
