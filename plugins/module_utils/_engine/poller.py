# -*- coding: utf-8 -*-
# Copyright: (c) 2026, runpod.cloud contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# This module_utils file is private to runpod.cloud and may change without notice.
"""What a wait polls: the interface every poller implements (``pod_pollers``, ``endpoint_poller``, ``job_poller``),
so the waiter (``_module.waiter``) states what it sets and asks instead of probing attributes; ``counted_read`` is
the one read of a single resource under the miss rules.

Pollers subclass ``Poller`` directly and nothing else: what they share is held (a ``MissCounter``) or called
(``counted_read``, ``probe_options``), never inherited (tests/unit/test_composition.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ansible_collections.runpod.cloud.plugins.module_utils._engine.outcome import MissCounter, is_not_found
from ansible_collections.runpod.cloud.plugins.module_utils._engine.poll import PollResult


class Poller:
    """One poll per call: ``__call__() -> PollResult`` (``poll.until`` runs it).

    ``deadline`` (monotonic, the engine's clock) is set by the waiter before the wait: pollers that probe cap
    their probe reads at it. ``lost()`` says whether the wait saw the resource and then lost it (a ``not_found``
    ending that means deleted by someone else, not never there); a poller of one resource answers from its
    ``MissCounter`` (``misses.ever_seen``).
    """

    deadline: float | None = None

    def __call__(self) -> Any:
        return self.poll()

    def poll(self) -> Any:
        raise NotImplementedError

    def lost(self) -> bool:
        return False


def tracked(kind: str, resource_id: str, wait_for: str, choices: tuple) -> MissCounter:
    """The ``MissCounter`` of a poller of one ``kind`` of resource, once ``wait_for`` is one of its ``choices``."""
    if wait_for not in choices:
        raise ValueError(f"wait_for must be one of {', '.join(choices)}, got {wait_for!r}")
    return MissCounter(kind, resource_id)


def counted_read(misses: MissCounter, read: Callable[[], Any]) -> tuple[PollResult | None, Any]:
    """``read()`` under the miss rules of ``misses`` (docs/dev/wait-and-status.md, section 3): ``(None, value)``
    when it answered; ``(not-ready result, None)`` for a 404, a counted miss (``missed`` raises the fatal
    ``not_found`` past its limit); any other failure ends the run of misses and is raised."""
    try:
        value = read()
    except Exception as err:
        if is_not_found(err):
            return PollResult(False, misses.missed(err)), None
        misses.read_failed()
        raise
    misses.seen()
    return None, value


def probe_options(deadline: float | None) -> dict:
    """The keywords of a probe read: capped at the wait's ``deadline`` once the waiter set one, so a 5 s probe
    never outlives the wait (a test's probe need not take ``deadline`` when there is none)."""
    return {} if deadline is None else {"deadline": deadline}


class FunctionPoller(Poller):
    """A plain function as a poller (e.g. a read retried like a wait's reads)."""

    def __init__(self, function: Callable[[], Any]) -> None:
        self.function = function

    def __call__(self) -> Any:
        return self.function()
