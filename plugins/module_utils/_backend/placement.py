# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Where a pod (or cluster) create goes: the candidates, their order from the catalog, and what each answer means.

This is the one place that decides placement (docs/dev/api-notes.md, section 3.3; docs/gpu-capacity.md).
RunPod's v2 ``createPod`` places one GPU type and never falls back; its description prescribes: read
the catalog, then create once per candidate in order until one answers 201, with this table:

| status | do |
| --- | --- |
| 422 | the body breaks the contract: never retry (raise) |
| 400 | a cross-field rule or no capacity (free text only): next candidate |
| 402 | insufficient balance: stop, no candidate can succeed |
| 403 | the account cannot use this pool: skip the candidate |
| 429 | the client already backed off per Retry-After; still limited: raise |
| 5xx | the create may have billed: raise ``maybe_created`` (the module looks the pod up by name) |

One path for every create, priced or not, each step a pure function of what the one before gave:

    candidates (``cross``) -> one catalog read (``read_catalog``) -> ``order(candidates, catalog, choice)``
    -> ``place(ordered, post, read)``

The functions make no HTTP call of their own: the resource object calls its catalog read in ``read_catalog`` and
hands ``place`` its ``post(candidate)`` (one ``_client.post_create``, which marks a 5xx or a lost connection
``maybe_created``) and the table that reads the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError
from ansible_collections.runpod.cloud.plugins.module_utils._backend import offers as _offers


@dataclass(frozen=True)
class Candidate:
    """One create attempt: a GPU type (or CPU flavor) id, optionally pinned to one data center."""

    type_id: str
    data_center_id: str | None = None
    # The list price of the create (per hour, for the whole unit) when the catalog quoted one; why it was dropped.
    price_per_hr: float | None = field(default=None, compare=False)
    reason: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"gpu_type_id": self.type_id, "data_center_id": self.data_center_id, "price_per_hr": self.price_per_hr}

    def dropped_dict(self) -> dict[str, Any]:
        return {**self.as_dict(), "reason": self.reason}


def cross(type_ids: list[str], data_center_ids: list[str] | None = None) -> list[Candidate]:
    """The user's types in order, each crossed with the user's data centers (in order) when given."""
    types = list(dict.fromkeys(type_ids))
    centers = list(dict.fromkeys(data_center_ids or []))
    if not centers:
        return [Candidate(type_id) for type_id in types]
    return [Candidate(type_id, center) for type_id in types for center in centers]


@dataclass(frozen=True)
class Catalog:
    """What the one catalog read gave: the offers (``read``), the read's error, or nothing (``not read``)."""

    offers: dict[str, _offers.Offer] | None = None
    failure: Exception | None = None


NOT_READ = Catalog()


def wants_catalog(candidates: list[Candidate], choice: _offers.Choice) -> bool:
    """Whether a create reads the catalog: GPU creates with candidates to order, or requirements or a cap to apply."""
    return choice.gpu and (bool(candidates) or choice.needs_catalog)


def read_catalog(read: Callable[[], Any], choice: _offers.Choice) -> Catalog:
    """The one catalog read (``read()``, the caller's GET) as offers for ``choice``'s price tier; a failed read or an
    answer of another shape is kept as the failure, which ``order`` weighs."""
    try:
        return Catalog(_offers.offers_from_catalog(read(), choice.cloud))
    except (RunPodError, ValueError) as error:
        return Catalog(failure=error)


def by_stock(
    candidates: list[Candidate], stock: dict[str, dict[str | None, int]]
) -> tuple[list[Candidate], list[Candidate]]:
    """``(kept, dropped)``: candidates without stock are dropped; the rest keep the user's type order, and
    within one type the data centers with more stock come first (the user's order breaks equal stock).

    A type missing from the catalog, or a data center missing from a type's list, has no stock (the
    catalog lists only the data centers that offer the type now)."""
    ranked = []
    dropped = []
    type_order = {type_id: index for index, type_id in enumerate(dict.fromkeys(c.type_id for c in candidates))}
    for index, candidate in enumerate(candidates):
        level = stock.get(candidate.type_id, {}).get(candidate.data_center_id, 0)
        if level <= 0:
            dropped.append(candidate)
        else:
            ranked.append(((type_order[candidate.type_id], -level, index), candidate))
    return [candidate for _key, candidate in sorted(ranked, key=lambda item: item[0])], dropped


def action_for(error: RunPodError) -> str:
    """What the table says to do after a failed create: ``next``, ``skip``, ``stop`` or ``raise``."""
    status = error.status
    if status == 402:
        return "stop"
    if status == 403:
        return "skip"
    if status == 400:
        return "next"
    return "raise"


@dataclass
class Placement:
    """What a create tried, for the module's ``placement`` result (on success and on failure)."""

    catalog: str = "not read"
    dropped: list[Candidate] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    chosen: Candidate | None = None

    def record(self, candidate: Candidate, status: Any, detail: str) -> None:
        self.attempts.append({**candidate.as_dict(), "status": status, "detail": detail})

    def as_dict(self) -> dict[str, Any]:
        chosen = (self.chosen.as_dict() if self.chosen
                  else {"gpu_type_id": None, "data_center_id": None, "price_per_hr": None})
        return {
            **chosen,
            "attempts": list(self.attempts),
            "catalog": self.catalog,
            "dropped": [candidate.dropped_dict() for candidate in self.dropped],
        }


@dataclass
class Ordered:
    """The candidates a create POSTs, in order, and the placement record so far (catalog, dropped)."""

    candidates: list[Candidate]
    placement: Placement


def order(
    candidates: list[Candidate],
    catalog: Catalog,
    choice: _offers.Choice,
    centers: list[str] | None = None,
) -> Ordered:
    """The candidates to try, in order (docs/gpu-capacity.md), from the given ones and the one catalog read.

    Not read: the given order. A failed read never blocks a plain create (the given order stays); with
    ``gpu_requirements`` or ``max_price_per_hr`` there is no order to fall back on: ``catalog_unavailable``. Read:
    with requirements the candidates are the matching types, cheapest first for the tier and unit (each crossed
    with ``centers``); every candidate carries its list price for ``choice.units``; the cap drops those listed
    above it (``reason: price``), then those without stock go (``reason: stock``). ``no_match`` when no type meets
    the requirements, ``price_cap_exceeded`` when the cap left nothing; each raised before any create, carrying
    the placement."""
    placement = Placement()
    if catalog.failure is not None:
        placement.catalog = f"failed: {catalog.failure}"
        if choice.needs_catalog:
            raise attach(placement, RunPodError(
                "catalog_unavailable",
                getattr(catalog.failure, "status", None),
                f"the GPU catalog could not be read ({catalog.failure}), and gpu_requirements / max_price_per_hr "
                "need it: there is no order to fall back on, so nothing was created. Run the task again later",
            ))
        placement.catalog += "; candidates kept in the given order"
    if catalog.offers is None:
        return Ordered(list(candidates), placement)
    offers = catalog.offers
    placement.catalog = "read"
    if choice.requirements is not None:
        matched = _offers.by_requirements(offers, choice.requirements, choice)
        if not matched:
            raise attach(placement, RunPodError(
                "no_match", None,
                f"no GPU type in the catalog ({len(offers)} types) meets gpu_requirements {_describe(choice)}; "
                "nothing was created. Widen the requirements (see runpod.cloud.gpu_type_info)",
            ))
        candidates = cross([offer.type_id for offer in matched], centers)
    listed = priced(candidates, offers, choice.units)
    affordable = [c for c in listed if not _offers.over_cap(c.price_per_hr, choice.max_price_per_hr)]
    too_dear = [replace(c, reason="price") for c in listed if c not in affordable]
    kept, no_stock = by_stock(affordable, {type_id: offer.stock for type_id, offer in offers.items()})
    placement.dropped = too_dear + [replace(c, reason="stock") for c in no_stock]
    if not kept and too_dear and choice.max_price_per_hr is not None:
        cheapest = min(too_dear, key=lambda c: (c.price_per_hr is None, c.price_per_hr or 0.0))
        unique = len({c.type_id for c in too_dear})
        raise attach(placement, RunPodError("price_cap_exceeded", None, _offers.cap_message(
            choice.max_price_per_hr, (cheapest.type_id, cheapest.price_per_hr), unique, choice.units)))
    return Ordered(kept, placement)


def priced(candidates: list[Candidate], offers: dict[str, _offers.Offer], units: int) -> list[Candidate]:
    """``candidates`` with the catalog's list price for ``units`` GPUs (None for a type the catalog lacks)."""
    return [
        replace(c, price_per_hr=offers[c.type_id].price_per_hr(units) if c.type_id in offers else None)
        for c in candidates
    ]


def _describe(choice: _offers.Choice) -> str:
    wanted = choice.requirements
    given = {key: getattr(wanted, key) for key in _offers.REQUIREMENT_KEYS if wanted and getattr(wanted, key)}
    return ", ".join(f"{key}={value}" for key, value in given.items()) or "(none)"


def place(ordered: Ordered, post: Callable[[Candidate], Any], read: Callable[[Any], Any]) -> tuple[Any, dict]:
    """POST per candidate in order until one is created; apply the table to each failure. Returns ``(view,
    placement dict)``, the answer read by ``read`` (a ``_api/payloads`` table's).

    Every raised RunPodError carries ``placement`` (the dict) so a failed task can report what it tried.
    """
    placement = ordered.placement
    last_error: RunPodError | None = None
    for candidate in ordered.candidates:
        try:
            created = post(candidate)
        except RunPodError as error:
            placement.record(candidate, error.status if error.status is not None else error.code, error.message)
            action = action_for(error)
            if action in ("next", "skip"):
                last_error = error
                continue
            if action == "stop":
                stop = RunPodError(
                    "insufficient_balance",
                    402,
                    f"insufficient balance: {error.message}. No GPU type can be created until the account is "
                    "funded; no further candidate was tried",
                    errors=error.errors,
                )
                raise attach(placement, stop) from error
            # A 5xx or a lost connection came back ``maybe_created`` from ``post`` (``_client.post_create``): the
            # create may have billed, so it is never re-sent here; the caller looks the resource up by name.
            raise attach(placement, error) from None
        placement.chosen = candidate
        placement.record(candidate, 201, "created")
        try:
            return read(created), placement.as_dict()
        except RunPodError as error:  # an answer without the resource: it exists all the same
            raise attach(placement, error) from None
    raise attach(placement, exhausted(placement, last_error))


def exhausted(placement: Placement, last_error: RunPodError | None) -> RunPodError:
    """The error when no candidate was created: ``no_capacity`` when every attempt answered 400."""
    if last_error is None:
        dropped = ", ".join(_label(c) for c in placement.dropped) or "none"
        return RunPodError(
            "no_capacity",
            None,
            f"the catalog shows no stock for any candidate ({dropped}); nothing was created. Stock changes "
            "quickly: run the task again later or add GPU types or data centers",
        )
    tried = "; ".join(f"{_label(a)}: {a['detail']} ({a['status']})" for a in placement.attempts)
    if all(attempt["status"] == 400 for attempt in placement.attempts):
        return RunPodError(
            "no_capacity",
            400,
            f"no candidate could be placed ({tried}). Every candidate answered 400; if stock is not the "
            f"reason, the last answer may describe a problem with the request itself: {last_error.message}",
            errors=last_error.errors,
        )
    return RunPodError(last_error.code, last_error.status, f"no candidate could be created ({tried})",
                       errors=last_error.errors)


def _label(item: Any) -> str:
    if isinstance(item, Candidate):
        item = item.as_dict()
    center = item.get("data_center_id")
    return f"{item['gpu_type_id']}@{center}" if center else str(item["gpu_type_id"])


def attach(placement: Placement, error: RunPodError) -> RunPodError:
    """``error`` carrying ``placement`` (its dict), so a failed task reports what the create tried."""
    error.placement = placement.as_dict()  # type: ignore[attr-defined]
    return error
