# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""``backend.account``: account resources over the backend's client (REST v2): network volumes, registry
credentials and billing (the account's SSH keys are ``ssh_keys``)."""

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


# -- pure helpers -----------------------------------------------------------------------------------------------


def amount_key(api_key):
    """``podGpuAmount`` -> ``pod_gpu``, ``totalAmount`` -> ``total``."""
    stem = api_key[: -len("Amount")] if api_key.endswith("Amount") else api_key
    return _CAMEL.sub("_", stem).lower()


def amounts_from(payload):
    return {
        amount_key(key): as_float(value) or 0.0
        for key, value in as_dict(payload).items()
        if key.endswith("Amount") and not isinstance(value, bool)
    }


class Account:
    def __init__(self, client):
        self.client = client
        self._volumes = Collection(client, "network-volumes", "networkVolumes", "network volume", NETWORK_VOLUME)
        self._registries = Collection(client, "registries", "registries", "registry credential", REGISTRY)
        self.list_network_volumes, self.get_network_volume, self.find_network_volumes = (
            self._volumes.list, self._volumes.get, self._volumes.find)
        self.list_registries, self.get_registry, self.find_registries = (
            self._registries.list, self._registries.get, self._registries.find)

    @staticmethod
    def view_volume(payload):
        return NETWORK_VOLUME.read(payload)

    @staticmethod
    def view_registry(payload):
        return REGISTRY.read(payload)

    @staticmethod
    def volume_create_body(spec):
        return NETWORK_VOLUME.body(NETWORK_VOLUME.create_fields(spec), creating=True)

    # -- network volumes -------------------------------------------------------------------------------------------

    def create_network_volume(self, spec):
        # A storage volume bills until deleted: never re-POST after an ambiguous failure, look it up instead.
        return self.view_volume(post_create(self.client, self._volumes.path, self.volume_create_body(spec)))

    def update_network_volume(self, volume_id, changes):
        """``changes``: ``name`` and/or ``size_gb`` (grow only; RunPod refuses a shrink)."""
        body = NETWORK_VOLUME.body(changes, creating=False)
        return self.view_volume(self.client.request("PATCH", self._volumes.at(volume_id), json=body))

    def delete_network_volume(self, volume_id):
        self.client.request("DELETE", self._volumes.at(volume_id))

    # -- container registry credentials ------------------------------------------------------------------------------

    def create_registry(self, name, username, password):
        body = REGISTRY.body({"name": name, "username": username, "password": password}, creating=True)
        return self.view_registry(post_create(self.client, self._registries.path, body))

    def delete_registry(self, registry_id):
        self.client.request("DELETE", self._registries.at(registry_id))

    # -- billing ---------------------------------------------------------------------------------------------------

    def billing(self, kind, *, bucket_size="day", start_time=None, end_time=None, last_n=None, resource_id=None):
        """Spend of ``kind``; times are RFC 3339 with a zone or ``YYYY-MM-DD``, sent as RFC 3339 UTC. The query's
        rules are ``BillingInput``'s (billing_info checks them before any call; a ``ValueError`` here otherwise)."""
        BillingInput(kind=kind, start_time=start_time, end_time=end_time, last_n=last_n,
                     resource_id=resource_id).check()
        start_time = utc_time(start_time, "start_time") if start_time else None
        end_time = utc_time(end_time, "end_time") if end_time else None
        path, filter_name = BILLING_PATHS[kind]
        extra = {"lastN": int(last_n)} if last_n is not None else {}
        params = billing_params(bucket_size, extra, start_time, end_time, filter_name, resource_id)
        payload = as_dict(self.client.request("GET", path, params=params))
        if not isinstance(payload.get("records"), list):
            raise RunPodError("bad_response", None, f'expected {{"records": [...]}} from GET /{path}')
        metadata = as_dict(payload.get("metadata"))
        query = as_dict(metadata.get("query"))
        records = []
        for raw in as_list(payload["records"]):
            raw = as_dict(raw)
            record_id = next((as_str(raw.get(key)) for key in RECORD_IDS if as_str(raw.get(key))), None)
            records.append(
                {
                    "start_time": as_str(raw.get("startTime")),
                    "end_time": as_str(raw.get("endTime")),
                    "resource_id": record_id,
                    **amounts_from(raw),
                }
            )
        totals = amounts_from(metadata.get("totals"))
        if not totals:
            totals = sum_amounts(records)
        return BillingReport(
            kind=kind,
            bucket_size=as_str(query.get("bucketSize")) or bucket_size,
            start_time=as_str(query.get("startTime")) or start_time,
            end_time=as_str(query.get("endTime")) or end_time,
            resource_id=resource_id or None,
            totals=totals,
            records=records,
        )


def billing_params(bucket_size, extra, start_time, end_time, filter_name, resource_id):
    """The query of a billing read; ``extra`` holds ``lastN`` when given."""
    params = {"bucketSize": bucket_size, **extra}
    if start_time:
        params["startTime"] = start_time
    if end_time:
        params["endTime"] = end_time
    if resource_id:
        params[filter_name] = resource_id
    return params


def sum_amounts(records):
    totals: dict[str, float] = {}
    for record in records:
        for key, value in record.items():
            if isinstance(value, float):
                totals[key] = round(totals.get(key, 0.0) + value, 6)
    return totals
