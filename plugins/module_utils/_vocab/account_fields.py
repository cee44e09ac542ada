# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""The field tables of the account's network volumes (``NETWORK_VOLUME``), registry credentials (``REGISTRY``) and
secrets (``SECRET``), and the billing report. RunPod never returns a credential's username or password, nor a
secret's value (only when it last changed): no row reads them and a spec never shows them in a repr."""

from __future__ import annotations

from ansible_collections.runpod.cloud.plugins.module_utils._vocab import fields as _f
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.fields import Col, Table
from ansible_collections.runpod.cloud.plugins.module_utils._vocab.record import Field, Record

NETWORK_VOLUME = Table("network volume", "NetworkVolumeView", (
    Col("name", "name", _f.name_text, body="name", update=True, option=True, shown=True),
    # Grow only: RunPod refuses a shrink (network_volume refuses it first).
    Col("size_gb", "size", _f.as_int, body="size", send=int, update=True, option=True, shown=True),
    Col("data_center_id", ("dataCenter", "dataCenterId"), _f.as_str, body="dataCenter", option=True, shown=True),
    # STANDARD or HIGH_PERFORMANCE; None: RunPod picks the data center's default tier (or does not report it).
    Col("type", "type", _f.upper_or_none, body="type", option=True, shown=True),
), __name__)
NetworkVolumeView = NETWORK_VOLUME.View
NetworkVolumeSpec = NETWORK_VOLUME.spec("NetworkVolumeSpec", required=("name", "size_gb", "data_center_id"),
                                        module=__name__)

REGISTRY = Table("container registry credential", "RegistryView", (
    Col("name", "name", _f.name_text, body="name", option=True, shown=True),
    Col("username", body="username", option=True, default="", secret=True),
    Col("password", body="password", option=True, default="", secret=True),
), __name__)
RegistryView = REGISTRY.View
RegistrySpec = REGISTRY.spec("RegistrySpec", module=__name__)
describe_network_volume, describe_registry = NETWORK_VOLUME.describe, REGISTRY.describe

SECRET = Table("secret", "SecretView", (
    Col("name", "name", _f.name_text, body="name", option=True, shown=True),
    Col("value", body="value", update=True, option=True, default="", secret=True),
    Col("description", "description", _f.as_str, body="description", update=True, option=True, shown=True),
    Col("created_at", "createdAt", _f.as_str, shown=True),
    Col("value_last_updated_at", "valueLastUpdatedAt", _f.as_str, shown=True),
), __name__)
SecretSpec = SECRET.spec("SecretSpec", module=__name__)
describe_secret = SECRET.describe


class BillingReport(Record):
    """Spend of one resource kind over a bucketed window; amounts in USD, keys snake_case without ``Amount``."""

    kind: str
    bucket_size: str
    # The window RunPod resolved.
    start_time: str | None = None
    end_time: str | None = None
    resource_id: str | None = None
    totals: dict[str, float] = Field(default_factory=dict)
    # ``{"start_time", "end_time", "resource_id", <amounts>}`` per bucket (and per resource on per-resource kinds).
    records: list[dict] = Field(default_factory=list)
