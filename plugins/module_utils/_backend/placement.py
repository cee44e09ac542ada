# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Where a pod (or cluster) create goes, from the spec to the created resource (docs/dev/api-notes.md, sections 3.3
and 3.3.1; docs/gpu-capacity.md): RunPod never falls back, so each candidate is created in order until one answers 201
(``action_for``; besides 400, 403 and 402 all is raised: a 422 breaks the contract, a 429 was already backed off, a 5xx
may have billed). A price is the catalog's per GPU and hour times a unit's GPUs, a cluster ``pod_count`` units."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError, post_create


@dataclass(frozen=True)
class Candidate:
    """One create attempt: a GPU type or CPU flavor id, maybe a data center, its list price, why it was dropped."""

    type_id: str
    data_center_id: str | None = None
    price_per_hr: float | None = field(default=None, compare=False)
    reason: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"gpu_type_id": self.type_id, "data_center_id": self.data_center_id, "price_per_hr": self.price_per_hr}


def cross(type_ids: list[str], data_center_ids: Any = None) -> list[Candidate]:
    """The user's types in order, each crossed with the user's data centers (in order) when given."""
    centers = list(dict.fromkeys(data_center_ids or [None]))
    return [Candidate(type_id, center) for type_id in dict.fromkeys(type_ids) for center in centers]


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


def offers_from_catalog(payload: Any, cloud: str = "SECURE") -> dict[str, Offer]:
    """``{type id: Offer}`` from a ``ListGpuTypesResponse`` (else a ValueError)."""
    gpus = payload.get("gpus") if isinstance(payload, dict) else None
    if not isinstance(gpus, list):
        raise ValueError("the catalog answer has no gpus list")
    tier = "community" if str(cloud).upper() == "COMMUNITY" else "secure"
    offers = {}
    for gpu in (_catalog.describe_gpu_type(raw) for raw in gpus if isinstance(raw, dict) and raw.get("id")):
        stock: dict[str | None, int] = {None: _catalog.stock_rank(gpu["stock"])}
        stock.update((dc, _catalog.stock_rank(level)) for dc, level in gpu["stock_by_data_center"].items())
        memory = gpu["memory_gb"] if isinstance(gpu["memory_gb"], int) else None
        offers[str(gpu["id"])] = Offer(str(gpu["id"]), memory, gpu["manufacturer"],
                                       gpu["prices"][tier]["on_demand"], stock)
    return offers


@dataclass(frozen=True)
class Choice:
    """What a create may be placed on, read once from its spec (``choose``): ``units`` are the GPUs one create rents,
    ``pin`` pins each candidate to one of ``centers`` (as a pod's are), ``query`` None reads no catalog (a CPU pod)."""

    candidates: list[Candidate] = field(default_factory=list)
    requirements: dict | None = None
    max_price_per_hr: float | None = None
    units: int = 1
    cloud: str = "SECURE"
    centers: tuple[str, ...] = ()
    pin: bool = True
    query: dict | None = field(default_factory=dict)

    @property
    def needs_catalog(self) -> bool:
        return self.requirements is not None or self.max_price_per_hr is not None


def wanted(options: dict | None) -> dict | None:
    """The four keys of ``gpu_requirements`` that choose a type."""
    if options is None:
        return None
    maker = options.get("manufacturer")
    return {"min_memory_gb": options.get("min_memory_gb"), "max_memory_gb": options.get("max_memory_gb"),
            "manufacturer": str(maker).upper() if maker else None, "exclude": tuple(options.get("exclude") or ())}


def meets(offer: Offer, requirements: dict) -> bool:
    memory, low, high = offer.memory_gb or 0, requirements["min_memory_gb"], requirements["max_memory_gb"]
    maker = requirements["manufacturer"]
    return ((low is None or memory >= low) and (high is None or memory <= high)
            and (not maker or (offer.manufacturer or "").upper() == maker)
            and offer.type_id not in requirements["exclude"])


def choose(spec: Any, path: str = "pods") -> Choice:
    """The ``Choice`` of a ``PodSpec`` create or, for ``path`` ``clusters``, of a ``ClusterSpec`` create."""
    centers = tuple(spec.data_center_ids or ())
    if path == "clusters":
        return Choice(cross([spec.gpu_type_id] if spec.gpu_type_id else []), wanted(spec.gpu_requirements),
                      spec.max_price_per_hr, int(spec.gpu_count_per_pod or 1) * int(spec.pod_count or 1),
                      "SECURE", centers, pin=False,
                      query={"cloud": "SECURE", "count": spec.gpu_count_per_pod, "product": "CLUSTER"})
    if str(spec.compute_type).upper() == "CPU":  # no GPU catalog, no GPU price
        return Choice(cross(spec.candidates()), query=None)
    query = {"cloud": spec.cloud_type, "count": spec.gpu_count, "cuda_versions": spec.allowed_cuda_versions,
             "min_cuda_version": spec.min_cuda_version}
    return Choice(cross(spec.candidates(), centers), wanted(spec.gpu_requirements), spec.max_price_per_hr,
                  int(spec.gpu_count or 1), str(spec.cloud_type or "SECURE").upper(), centers, query=query)


def by_stock(candidates: list[Candidate], stock: dict[str, dict[str | None, int]]) -> tuple[list, list]:
    """``(kept, dropped)``: candidates without stock (or missing from the catalog, which lists only what is offered
    now) are dropped; the rest keep the user's type order, the data centers with more stock first within a type."""
    ranked, dropped = [], []
    type_order = {type_id: index for index, type_id in enumerate(dict.fromkeys(c.type_id for c in candidates))}
    for index, candidate in enumerate(candidates):
        level = stock.get(candidate.type_id, {}).get(candidate.data_center_id, 0)
        if level <= 0:
            dropped.append(candidate)
        else:
            ranked.append(((type_order[candidate.type_id], -level, index), candidate))
    return [candidate for _key, candidate in sorted(ranked, key=lambda item: item[0])], dropped


@dataclass
class Placement:
    """What a create tried, for the module's ``placement`` result."""

    catalog: str = "not read"
    dropped: list[Candidate] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    chosen: Candidate | None = None

    def as_dict(self) -> dict[str, Any]:
        unplaced = dict.fromkeys(("gpu_type_id", "data_center_id", "price_per_hr"))
        return {**(self.chosen.as_dict() if self.chosen else unplaced), "attempts": list(self.attempts),
                "catalog": self.catalog, "dropped": [{**c.as_dict(), "reason": c.reason} for c in self.dropped]}

    def fail(self, error: RunPodError) -> RunPodError:
        """``error`` carrying this placement, so a failed task reports what the create tried."""
        error.placement = self.as_dict()  # type: ignore[attr-defined]
        return error


def order(choice: Choice, catalog: Callable[[], Any] | None = None) -> tuple[list[Candidate], Placement]:
    """The candidates to try in order and the placement so far, from the one ``catalog()`` read (None: the given
order), by docs/gpu-capacity.md: a failed read keeps the given order unless requirements or a cap need it
(``catalog_unavailable``); ``no_match`` and ``price_cap_exceeded`` are raised before any create."""
    placement, candidates, cap = Placement(), choice.candidates, choice.max_price_per_hr
    if catalog is None:
        return list(candidates), placement
    try:
        offers = offers_from_catalog(catalog(), choice.cloud)
    except (RunPodError, ValueError) as failure:
        placement.catalog = f"failed: {failure}"
        if choice.needs_catalog:
            raise placement.fail(RunPodError(
                "catalog_unavailable", getattr(failure, "status", None),
                f"the GPU catalog could not be read ({failure}), and gpu_requirements / max_price_per_hr "
                "need it: there is no order to fall back on, so nothing was created. Run the task again later",
            )) from None
        placement.catalog += "; candidates kept in the given order"
        return list(candidates), placement
    placement.catalog = "read"
    if choice.requirements is not None:
        def rank(offer: Offer) -> tuple:  # a type without a price sorts last
            price = offer.price_per_hr(choice.units)
            stock = max(offer.stock.get(center, 0) for center in choice.centers or (None,))  # overall without centers
            return (price is None, price or 0.0, -stock, offer.type_id)

        matched = sorted((offer for offer in offers.values() if meets(offer, choice.requirements)), key=rank)
        if not matched:
            asked = ", ".join(f"{key}={value}" for key, value in choice.requirements.items() if value) or "(none)"
            raise placement.fail(RunPodError(
                "no_match", None, f"no GPU type in the catalog ({len(offers)} types) meets gpu_requirements {asked}; "
                "nothing was created. Widen the requirements (see runpod.cloud.gpu_type_info)"))
        candidates = cross([offer.type_id for offer in matched], choice.centers if choice.pin else None)
    listed = [replace(c, price_per_hr=offers[c.type_id].price_per_hr(choice.units) if c.type_id in offers else None)
              for c in candidates]
    # A candidate without a list price is never sent blind under a cap.
    affordable = [c for c in listed if cap is None or (c.price_per_hr is not None and c.price_per_hr <= cap + 1e-9)]
    too_dear = [replace(c, reason="price") for c in listed if c not in affordable]
    kept, no_stock = by_stock(affordable, {type_id: offer.stock for type_id, offer in offers.items()})
    placement.dropped = too_dear + [replace(c, reason="stock") for c in no_stock]
    if not kept and too_dear and cap is not None:
        cheapest = min(too_dear, key=lambda c: (c.price_per_hr is None, c.price_per_hr or 0.0))
        price = cheapest.price_per_hr
        listed_at = "has no list price" if price is None else f"lists at {price:g} USD/h for {choice.units} GPU(s)"
        raise placement.fail(RunPodError("price_cap_exceeded", None, (
            f"no candidate is within max_price_per_hr {cap:g} USD/h: the cheapest, {cheapest.type_id}, {listed_at} "
            f"({len({c.type_id for c in too_dear})} candidate(s) dropped for price). Nothing was created. Raise "
            "max_price_per_hr, widen gpu_requirements (or gpu_type_ids), or try again when cheaper stock appears")))
    return kept, placement


def action_for(error: RunPodError) -> str:
    """``next`` (400: a cross-field rule or no capacity), ``skip`` (403: no access to the pool), ``stop`` (402: no
    balance, none can succeed) or ``raise`` after a failed create."""
    return {400: "next", 402: "stop", 403: "skip"}.get(error.status, "raise")


def place(client: Any, gpus: Any, path: str, spec: Any, body: Callable[..., dict], read: Callable[[Any], Any],
          shared_read: Callable[[Callable[[], Any]], Any] | None = None) -> tuple[Any, dict]:
    """Create ``spec`` at ``path`` (``pods``, ``clusters``) after one catalog read (``shared_read`` shares it among a
fleet's members): a POST of ``body(spec, type_id, data_center_id)`` per candidate by ``action_for``. Returns
``(read(answer), placement dict)``; every ``RunPodError`` raised carries ``placement``."""
    choice = choose(spec, path)
    catalog = None
    if choice.query is not None and (choice.candidates or choice.needs_catalog):
        catalog = partial(gpus.catalog, **choice.query)
        if shared_read is not None:
            catalog = partial(shared_read, catalog)
    candidates, placement = order(choice, catalog)
    last_error: RunPodError | None = None
    for candidate in candidates:
        try:
            created = post_create(client, path, body(spec, candidate.type_id, candidate.data_center_id))
        except RunPodError as error:
            status = error.status if error.status is not None else error.code
            placement.attempts.append({**candidate.as_dict(), "status": status, "detail": error.message})
            action = action_for(error)
            if action == "stop":
                raise placement.fail(RunPodError(
                    "insufficient_balance", 402, f"insufficient balance: {error.message}. No GPU type can be created "
                    "until the account is funded; no further candidate was tried", errors=error.errors)) from error
            if action == "raise":  # a 5xx or a lost connection is ``maybe_created``: never re-sent
                raise placement.fail(error) from None
            last_error = error
            continue
        placement.chosen = candidate
        placement.attempts.append({**candidate.as_dict(), "status": 201, "detail": "created"})
        try:
            return read(created), placement.as_dict()
        except RunPodError as error:  # an answer without the resource: it exists all the same
            raise placement.fail(error) from None
    raise placement.fail(exhausted(placement, last_error))


def exhausted(placement: Placement, last_error: RunPodError | None) -> RunPodError:
    """The error when no candidate was created: ``no_capacity`` when every attempt answered 400."""
    def label(item: dict) -> str:
        center = item.get("data_center_id")
        return f"{item['gpu_type_id']}@{center}" if center else str(item["gpu_type_id"])

    if last_error is None:
        dropped = ", ".join(label(c.as_dict()) for c in placement.dropped) or "none"
        return RunPodError("no_capacity", None, f"the catalog shows no stock for any candidate ({dropped}); nothing "
                           "was created. Stock changes quickly: run the task again later or add GPU types or data "
                           "centers")
    tried = "; ".join(f"{label(a)}: {a['detail']} ({a['status']})" for a in placement.attempts)
    if all(attempt["status"] == 400 for attempt in placement.attempts):
        return RunPodError(
            "no_capacity", 400, f"no candidate could be placed ({tried}). Every candidate answered 400; if stock is "
            f"not the reason, the last answer may describe a problem with the request itself: {last_error.message}",
            errors=last_error.errors)
    return RunPodError(last_error.code, last_error.status, f"no candidate could be created ({tried})",
                       errors=last_error.errors)
