# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Account resources kept in the one store: network volumes, registry credentials and the billing ledger.

Billing is a ledger of charges seeded through ``POST /_sim/billing`` (tests decide what was spent when);
the billing routes bucket and total it the way RunPod's ``/v2/billing/*`` describes.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

VOLUME_TYPES = ("STANDARD", "HIGH_PERFORMANCE")
BUCKET_SIZES = ("hour", "day", "week", "month", "year")
# The resource families the ledger knows, and the cost components each one carries.
CHARGE_COMPONENTS: dict[str, tuple[str, ...]] = {
    "pods": ("gpu", "cpu", "disk"),
    "serverless": ("gpu", "cpu", "disk", "fee"),
    "endpoints": ("amount",),
    "network_volumes": ("standard", "high_performance"),
    "clusters": ("gpu", "disk", "networking"),
}
# Aggregate ``/v2/billing`` field for (family, component).
AGGREGATE_FIELDS: dict[tuple[str, str], str] = {
    ("pods", "gpu"): "podGpuAmount",
    ("pods", "cpu"): "podCpuAmount",
    ("pods", "disk"): "podDiskAmount",
    ("serverless", "gpu"): "serverlessGpuAmount",
    ("serverless", "cpu"): "serverlessCpuAmount",
    ("serverless", "disk"): "serverlessDiskAmount",
    ("serverless", "fee"): "serverlessFeeAmount",
    ("network_volumes", "standard"): "storageStandardAmount",
    ("network_volumes", "high_performance"): "storageHighPerformanceAmount",
    ("endpoints", "amount"): "endpointAmount",
    ("clusters", "gpu"): "clusterGpuAmount",
    ("clusters", "disk"): "clusterDiskAmount",
    ("clusters", "networking"): "clusterNetworkingAmount",
}
# The most buckets one billing read may span (a year of hours).
MAX_BUCKETS = 24 * 366


@dataclass
class NetworkVolume:
    id: str
    name: str
    size: int
    data_center: str
    type: str = "STANDARD"


@dataclass
class Registry:
    id: str
    name: str
    # Write-only: never rendered; kept so tests can tell a replaced credential from the old one.
    username: str = ""
    password: str = ""


@dataclass
class Charge:
    at: datetime
    kind: str
    resource_id: str
    amounts: dict[str, float] = field(default_factory=dict)
    gpu_type_id: str | None = None
    time_billed_ms: int = 0
    disk_gb: int = 0


class BillingError(ValueError):
    """A billing query the API refuses (400)."""


def parse_time(value: str, name: str) -> datetime:
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    except ValueError:
        raise BillingError(f"{name} must be an RFC 3339 date-time, got {value!r}") from None
    if moment.tzinfo is None:
        raise BillingError(f"{name} must be an RFC 3339 date-time with a time zone, got {value!r}")
    return moment.astimezone(UTC)


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def bucket_floor(moment: datetime, size: str) -> datetime:
    moment = moment.astimezone(UTC)
    if size == "hour":
        return moment.replace(minute=0, second=0, microsecond=0)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if size == "day":
        return day
    if size == "week":
        return day - timedelta(days=day.weekday())
    if size == "month":
        return day.replace(day=1)
    return day.replace(month=1, day=1)


def bucket_next(start: datetime, size: str) -> datetime:
    if size == "hour":
        return start + timedelta(hours=1)
    if size == "day":
        return start + timedelta(days=1)
    if size == "week":
        return start + timedelta(days=7)
    if size == "month":
        days = calendar.monthrange(start.year, start.month)[1]
        return start + timedelta(days=days)
    return start.replace(year=start.year + 1)


def bucket_previous(start: datetime, size: str) -> datetime:
    if size == "month":
        return (start - timedelta(days=1)).replace(day=1)
    if size == "year":
        return start.replace(year=start.year - 1)
    return start - (bucket_next(start, size) - start)


@dataclass
class Window:
    start: datetime
    end: datetime
    bucket_size: str

    def buckets(self) -> list[tuple[datetime, datetime]]:
        result = []
        cursor = self.start
        while cursor < self.end:
            following = bucket_next(cursor, self.bucket_size)
            result.append((cursor, following))
            cursor = following
        return result


def resolve_window(query: Any, now: datetime) -> Window:
    """The bucket-aligned window of a billing query (the parameters RunPod documents)."""
    size = query.get("bucketSize") or "day"
    if size not in BUCKET_SIZES:
        raise BillingError(f"bucketSize must be one of {', '.join(BUCKET_SIZES)}, got {size!r}")
    start_text, end_text, last_n = query.get("startTime"), query.get("endTime"), query.get("lastN")
    if last_n is not None:
        if start_text or end_text:
            raise BillingError("lastN is mutually exclusive with startTime/endTime")
        try:
            count = int(last_n)
        except ValueError:
            raise BillingError(f"lastN must be an integer, got {last_n!r}") from None
        if count < 1:
            raise BillingError("lastN must be at least 1")
        if count > MAX_BUCKETS:
            raise BillingError(f"lastN must be at most {MAX_BUCKETS}")
        end = bucket_next(bucket_floor(now, size), size)
        start = bucket_floor(now, size)
        for _ignored in range(count - 1):
            start = bucket_previous(start, size)
        return Window(start, end, size)
    start = parse_time(start_text, "startTime") if start_text else now - timedelta(days=30)
    end = parse_time(end_text, "endTime") if end_text else now
    if start >= end:
        raise BillingError("startTime must be before endTime")
    start = bucket_floor(start, size)
    floor_end = bucket_floor(end, size)
    end = floor_end if floor_end == end else bucket_next(floor_end, size)
    window = Window(start, end, size)
    if len(window.buckets()) > MAX_BUCKETS:
        raise BillingError(f"the window spans more than {MAX_BUCKETS} {size} buckets; use a larger bucketSize")
    return window


def money(value: float) -> float:
    return round(value + 0.0, 6)


def charges_in(ledger: list[Charge], kind: str | None, window: Window) -> list[Charge]:
    return [c for c in ledger if (kind is None or c.kind == kind) and window.start <= c.at < window.end]


def bucket_of(charge: Charge, window: Window) -> datetime:
    return bucket_floor(charge.at, window.bucket_size)


def validate_charge(entry: Any, now: datetime) -> Charge:
    """A ledger entry from the admin API: ``{"kind", "resource_id", "time"?, <component>: amount, ...}``."""
    if not isinstance(entry, dict):
        raise BillingError("each charge must be a JSON object")
    kind = entry.get("kind")
    if kind not in CHARGE_COMPONENTS:
        raise BillingError(f"charge kind must be one of {', '.join(CHARGE_COMPONENTS)}, got {kind!r}")
    allowed = {"kind", "resource_id", "time", "gpu_type_id", "time_billed_ms", "disk_gb", *CHARGE_COMPONENTS[kind]}
    extra = sorted(set(entry) - allowed)
    if extra:
        raise BillingError(f"unknown charge field(s) for {kind}: {', '.join(extra)}")
    amounts = {}
    for component in CHARGE_COMPONENTS[kind]:
        value = entry.get(component, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise BillingError(f"{component} must be a non-negative number")
        amounts[component] = float(value)
    resource_id = entry.get("resource_id") or ""
    if kind != "endpoints" and not resource_id:
        raise BillingError(f"a {kind} charge needs a resource_id")
    return Charge(
        at=parse_time(entry["time"], "time") if entry.get("time") else now,
        kind=kind,
        resource_id=str(resource_id),
        amounts=amounts,
        gpu_type_id=entry.get("gpu_type_id"),
        time_billed_ms=int(entry.get("time_billed_ms") or 0),
        disk_gb=int(entry.get("disk_gb") or 0),
    )


def utc_now() -> datetime:
    return datetime.now(UTC)
