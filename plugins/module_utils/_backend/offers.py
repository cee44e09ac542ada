# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Which GPU types a create may use and what each lists at: ``gpu_requirements`` and ``max_price_per_hr``.

Pure functions of one catalog read (``GET /v2/catalog/gpus?include=AVAILABILITY&product=POD|CLUSTER``, scoped by
cloud, count and CUDA): the document quotes ``price.secure`` / ``price.community`` per GPU, per hour, and says a
unit costs that figure times ``gpu.count`` (docs/dev/api-notes.md, section 3.3.1).
A cluster is ``pod_count`` such units. The price a pod is billed comes back as its ``cost`` and may differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog

MANUFACTURERS = ("NVIDIA", "AMD")
REQUIREMENT_KEYS = ("min_memory_gb", "max_memory_gb", "manufacturer", "exclude")


@dataclass(frozen=True)
class Requirements:
    """What a GPU type must be (every given field holds)."""

    min_memory_gb: int | None = None
    max_memory_gb: int | None = None
    manufacturer: str | None = None
    exclude: tuple[str, ...] = ()

    @classmethod
    def from_options(cls, options: dict | None) -> Requirements | None:
        if options is None:
            return None
        maker = options.get("manufacturer")
        return cls(
            min_memory_gb=options.get("min_memory_gb"),
            max_memory_gb=options.get("max_memory_gb"),
            manufacturer=str(maker).upper() if maker else None,
            exclude=tuple(options.get("exclude") or ()),
        )

    def allows(self, offer: Offer) -> bool:
        memory = offer.memory_gb or 0
        if self.min_memory_gb is not None and memory < self.min_memory_gb:
            return False
        if self.max_memory_gb is not None and memory > self.max_memory_gb:
            return False
        if self.manufacturer and (offer.manufacturer or "").upper() != self.manufacturer:
            return False
        return offer.type_id not in self.exclude


@dataclass(frozen=True)
class Choice:
    """How a create picks its GPU type beyond the user's own list: requirements, a cap, and what a unit is.

    ``units`` is the number of GPUs a create rents (a pod's ``gpu_count``; a cluster's ``gpu_count_per_pod`` times
    ``pod_count``), ``cloud`` the price tier, ``data_center_ids`` the centers stock counts in (none: anywhere)."""

    requirements: Requirements | None = None
    max_price_per_hr: float | None = None
    units: int = 1
    cloud: str = "SECURE"
    data_center_ids: tuple[str, ...] = ()
    gpu: bool = True  # a CPU pod reads no GPU catalog

    @property
    def needs_catalog(self) -> bool:
        """Without the catalog neither the requirements nor the cap can be applied (``catalog_unavailable``)."""
        return self.requirements is not None or self.max_price_per_hr is not None


@dataclass(frozen=True)
class Offer:
    """One catalog GPU type as placement needs it: list price per GPU for the tier, and stock per center."""

    type_id: str
    memory_gb: int | None = None
    manufacturer: str | None = None
    price_per_gpu: float | None = None
    stock: dict[str | None, int] = field(default_factory=dict)

    def price_per_hr(self, units: int) -> float | None:
        return None if self.price_per_gpu is None else round(self.price_per_gpu * units, 4)

    def stock_in(self, centers: tuple[str, ...] | list[str]) -> int:
        """The best stock rank in ``centers`` (overall when none are given)."""
        if not centers:
            return self.stock.get(None, 0)
        return max((self.stock.get(center, 0) for center in centers), default=0)


def pod_choice(spec: Any) -> Choice:
    """The ``Choice`` of a pod create (``PodSpec``): a CPU pod has none (no GPU catalog, no GPU price)."""
    if str(spec.compute_type).upper() == "CPU":
        return Choice(gpu=False)
    return Choice(
        requirements=Requirements.from_options(getattr(spec, "gpu_requirements", None)),
        max_price_per_hr=getattr(spec, "max_price_per_hr", None),
        units=int(spec.gpu_count or 1),
        cloud=str(spec.cloud_type or "SECURE").upper(),
        data_center_ids=tuple(spec.data_center_ids or ()),
    )


def cluster_choice(spec: Any) -> Choice:
    """The ``Choice`` of a cluster create (``ClusterSpec``): secure cloud, ``pod_count`` nodes of
    ``gpu_count_per_pod`` GPUs each."""
    return Choice(
        requirements=Requirements.from_options(getattr(spec, "gpu_requirements", None)),
        max_price_per_hr=getattr(spec, "max_price_per_hr", None),
        units=int(spec.gpu_count_per_pod or 1) * int(spec.pod_count or 1),
        cloud="SECURE",
        data_center_ids=tuple(spec.data_center_ids or ()),
    )


def offers_from_catalog(payload: Any, cloud: str = "SECURE") -> dict[str, Offer]:
    """``{type id: Offer}`` from a ``ListGpuTypesResponse``; raises ValueError when the payload is not that shape."""
    gpus = payload.get("gpus") if isinstance(payload, dict) else None
    if not isinstance(gpus, list):
        raise ValueError("the catalog answer has no gpus list")
    tier = "community" if str(cloud).upper() == "COMMUNITY" else "secure"
    offers = {}
    for raw in gpus:
        if not isinstance(raw, dict) or not raw.get("id"):
            continue
        gpu = _catalog.describe_gpu_type(raw)
        stock: dict[str | None, int] = {None: _catalog.stock_rank(gpu["stock"])}
        stock.update((dc, _catalog.stock_rank(level)) for dc, level in gpu["stock_by_data_center"].items())
        memory = gpu["memory_gb"] if isinstance(gpu["memory_gb"], int) else None
        offers[str(gpu["id"])] = Offer(str(gpu["id"]), memory, gpu["manufacturer"],
                                       gpu["prices"][tier]["on_demand"], stock)
    return offers


def by_requirements(offers: dict[str, Offer], requirements: Requirements, choice: Choice) -> list[Offer]:
    """The offers that meet ``requirements``, cheapest first for ``choice.units`` (ties: more stock first, then id).

    Types without stock stay in the list (placement drops them, naming why); a type without a price sorts last."""
    matched = [offer for offer in offers.values() if requirements.allows(offer)]

    def key(offer: Offer) -> tuple:
        price = offer.price_per_hr(choice.units)
        return (price is None, price or 0.0, -offer.stock_in(choice.data_center_ids), offer.type_id)

    return sorted(matched, key=key)


def over_cap(price: float | None, cap: float | None) -> bool:
    """A candidate the cap refuses: listed above it, or without a list price to compare (never sent blind)."""
    return cap is not None and (price is None or price > cap + 1e-9)


def cap_message(cap: float, cheapest: tuple[str, float | None] | None, dropped: int, units: int) -> str:
    """The ``price_cap_exceeded`` message: the cheapest candidate the cap refused, and its price."""
    if cheapest is None:
        return f"no candidate is listed within max_price_per_hr {cap:g} USD/h; nothing was created"
    type_id, price = cheapest
    listed = "has no list price" if price is None else f"lists at {price:g} USD/h for {units} GPU(s)"
    return (
        f"no candidate is within max_price_per_hr {cap:g} USD/h: the cheapest, {type_id}, {listed} "
        f"({dropped} candidate(s) dropped for price). Nothing was created. Raise max_price_per_hr, widen "
        "gpu_requirements (or gpu_type_ids), or try again when cheaper stock appears"
    )
