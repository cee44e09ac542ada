# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""Where a pod create goes: the candidates, their order from the catalog's stock, and what each answer means.

This is the one place that decides placement (docs/dev/api-notes.md, "Getting a GPU when stock is short").
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

The functions here make no HTTP call: the backend passes ``post(candidate)`` (one ``_client.post_create``, which
marks a 5xx or a lost connection ``maybe_created``) and the catalog payload.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._api import catalog as _catalog
from ansible_collections.runpod.cloud.plugins.module_utils._api.client import RunPodError


@dataclass(frozen=True)
class Candidate:
    """One create attempt: a GPU type (or CPU flavor) id, optionally pinned to one data center."""

    type_id: str
    data_center_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"gpu_type_id": self.type_id, "data_center_id": self.data_center_id}


def cross(type_ids: list[str], data_center_ids: list[str] | None = None) -> list[Candidate]:
    """The user's types in order, each crossed with the user's data centers (in order) when given."""
    types = list(dict.fromkeys(type_ids))
    centers = list(dict.fromkeys(data_center_ids or []))
    if not centers:
        return [Candidate(type_id) for type_id in types]
    return [Candidate(type_id, center) for type_id in types for center in centers]


def stock_from_catalog(payload: Any) -> dict[str, dict[str | None, int]]:
    """``{type id: {None: overall rank, data center: rank}}`` from a ``ListGpuTypesResponse`` read with
    ``include=AVAILABILITY&product=POD``. Raises ValueError when the payload is not that shape."""
    gpus = payload.get("gpus") if isinstance(payload, dict) else None
    if not isinstance(gpus, list):
        raise ValueError("the catalog answer has no gpus list")
    stock: dict[str, dict[str | None, int]] = {}
    for gpu in (_catalog.describe_gpu_type(raw) for raw in gpus if isinstance(raw, dict) and raw.get("id")):
        per_center: dict[str | None, int] = {None: _catalog.stock_rank(gpu["stock"])}
        per_center.update((dc, _catalog.stock_rank(level)) for dc, level in gpu["stock_by_data_center"].items())
        stock[str(gpu["id"])] = per_center
    return stock


def order(
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
        chosen = self.chosen.as_dict() if self.chosen else {"gpu_type_id": None, "data_center_id": None}
        return {
            **chosen,
            "attempts": list(self.attempts),
            "catalog": self.catalog,
            "dropped": [candidate.as_dict() for candidate in self.dropped],
        }


def plan(candidates: list[Candidate], read_catalog: Callable[[], Any] | None, placement: Placement) -> list[Candidate]:
    """Order ``candidates`` by one catalog read; a failed read never blocks a create (the user's order stays)."""
    if read_catalog is None or not candidates:
        return list(candidates)
    try:
        stock = stock_from_catalog(read_catalog())
    except (RunPodError, ValueError) as error:
        placement.catalog = f"failed: {error}; candidates kept in the given order"
        return list(candidates)
    kept, dropped = order(candidates, stock)
    placement.catalog = "read"
    placement.dropped = dropped
    return kept


def place(
    candidates: list[Candidate],
    post: Callable[[Candidate], Any],
    placement: Placement,
) -> Any:
    """POST per candidate in order until one is created; apply the table to each failure.

    Every raised RunPodError carries ``placement`` (the dict) so a failed task can report what it tried.
    """
    last_error: RunPodError | None = None
    for candidate in candidates:
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
            # create may have billed, so it is never re-sent here; the caller looks the pod up by name.
            raise attach(placement, error) from None
        placement.chosen = candidate
        placement.record(candidate, 201, "created")
        return created
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
